#!/usr/bin/env python3
"""Another student's caster, written separately from student.py (standard
library only): faces by intersecting the centre's path with the triangle
pushed out by r (barycentric coordinates), edges in the plane across the
edge, vertices with the numerically stable quadratic formula. Writes CSV
with its own column names: id,collided,time,n_x,n_y,n_z,tri_index (and,
with --column NAME, NAME instead of time).

usage: other.py MESH.obj THROWS.json [--column NAME]"""
import json
import math
import sys


def v_sub(a, b):
    return [a[k] - b[k] for k in range(3)]


def v_dot(a, b):
    return sum(a[k] * b[k] for k in range(3))


def v_cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def v_axpy(s, x, y):
    return [s * x[k] + y[k] for k in range(3)]


def v_norm(a):
    return math.sqrt(v_dot(a, a))


def read_mesh(path):
    points, tris = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[:1] == ["v"]:
                points.append([float(x) for x in parts[1:4]])
            elif parts[:1] == ["f"]:
                idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
                tris += [(idx[0], idx[j], idx[j + 1]) for j in range(1, len(idx) - 1)]
    return points, tris


def nearest_point(p, a, b, c):
    """The point of triangle abc nearest p: inside, else on the nearest edge."""
    n = v_cross(v_sub(b, a), v_sub(c, a))
    nn = v_dot(n, n)
    q = v_axpy(-v_dot(v_sub(p, a), n) / nn, n, p)
    if all(v_dot(v_cross(v_sub(y, x), v_sub(q, x)), n) >= 0 for x, y in ((a, b), (b, c), (c, a))):
        return q
    best = None
    for x, y in ((a, b), (b, c), (c, a)):
        e = v_sub(y, x)
        s = min(1.0, max(0.0, v_dot(v_sub(p, x), e) / v_dot(e, e)))
        z = v_axpy(s, e, x)
        if best is None or v_norm(v_sub(p, z)) < v_norm(v_sub(p, best)):
            best = z
    return best


def first_root(a, b, c):
    """Smaller root of a t^2 + b t + c (c > 0: starting outside), in [0, 1]."""
    if a <= 0 or c <= 0:
        return None
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    roots = sorted(x for x in (q / a, c / q if q != 0 else None) if x is not None)
    return roots[0] if 0 <= roots[0] <= 1 else None


def throw(points, tris, p0, p1, r):
    d = v_sub(p1, p0)
    found = []  # (t, triangle, kind, normal)
    for i, tri in enumerate(tris):
        a, b, c = (points[k] for k in tri)
        n = v_cross(v_sub(b, a), v_sub(c, a))
        n = [x / v_norm(n) for x in n]
        if v_dot(n, d) > 0:
            continue  # moving away from its front: not counted
        q = nearest_point(p0, a, b, c)
        gap = v_norm(v_sub(p0, q))
        if gap <= r:
            found.append((0.0, i, -1 if gap < r else 0, [x / gap for x in v_sub(p0, q)]))
            continue
        h = v_dot(v_sub(p0, a), n)
        speed = v_dot(d, n)
        if h >= r and speed < 0:
            t = (r - h) / speed
            if t <= 1:
                hit = v_axpy(-r, n, v_axpy(t, d, p0))
                # barycentric coordinates of the contact in abc
                e1, e2, w = v_sub(b, a), v_sub(c, a), v_sub(hit, a)
                d11, d12, d22 = v_dot(e1, e1), v_dot(e1, e2), v_dot(e2, e2)
                w1, w2 = v_dot(w, e1), v_dot(w, e2)
                det = d11 * d22 - d12 * d12
                beta, gamma = (d22 * w1 - d12 * w2) / det, (d11 * w2 - d12 * w1) / det
                if beta >= 0 and gamma >= 0 and beta + gamma <= 1:
                    found.append((t, i, 0, n))
        for x, y in ((a, b), (b, c), (c, a)):
            e = v_sub(y, x)
            u = [k / v_norm(e) for k in e]
            m = v_sub(p0, x)
            m_across = v_axpy(-v_dot(m, u), u, m)
            d_across = v_axpy(-v_dot(d, u), u, d)
            t = first_root(v_dot(d_across, d_across), 2 * v_dot(m_across, d_across), v_dot(m_across, m_across) - r * r)
            if t is None:
                continue
            centre = v_axpy(t, d, p0)
            s = v_dot(v_sub(centre, x), u)
            if 0 <= s <= v_norm(e):
                foot = v_axpy(s, u, x)
                found.append((t, i, 1, [k / r for k in v_sub(centre, foot)]))
        for x in (a, b, c):
            m = v_sub(p0, x)
            t = first_root(v_dot(d, d), 2 * v_dot(m, d), v_dot(m, m) - r * r)
            if t is not None:
                found.append((t, i, 2, [k / r for k in v_sub(v_axpy(t, d, p0), x)]))
    if not found:
        return None
    t_min = min(f[0] for f in found)
    return min((f for f in found if f[0] <= t_min + 1e-10), key=lambda f: (f[1], f[2]))


def main():
    points, tris = read_mesh(sys.argv[1])
    column = sys.argv[sys.argv.index("--column") + 1] if "--column" in sys.argv else "time"
    print("id,collided,%s,n_x,n_y,n_z,tri_index" % column)
    for rec in json.load(open(sys.argv[2])):
        got = throw(points, tris, rec["p0"], rec["p1"], rec["r"])
        if got is None:
            print("%s,false,1,,,," % rec["id"])
        else:
            t, i, kind, n = got
            print("%s,true,%r,%r,%r,%r,%d" % (rec["id"], t, n[0], n[1], n[2], i))


main()
