#!/usr/bin/env python3
"""A student's swept-sphere caster, written from the course notes (standard
library only), with one typical bug injected on request, writing its answers
in one of the shapes students' programs write. It does not run ballcast.

usage: student.py MESH.obj THROWS.json [--bug NAME] [--shape SHAPE] [--nan] [--yes]

  --bug    none, back-faces-counted, front-face-flipped, approach-lt-vs-le,
           larger-root, no-vertex-tests, no-edge-tests, faces-only,
           initial-overlap-ignored, triangle-normal-vs-contact-normal,
           normal-not-normalised, one-based-triangles, swapped-endpoints,
           normal-negated, hits-beyond-path; two joined by + (larger-root+
           one-based-triangles) for a program with both
  --shape  document ({"results": [...]}), array, ndjson, csv, csv-renamed
           (columns id,hit,t,nx,ny,nz,tri)
  --nan    misses get alpha NaN (as Python's json module writes it)
  --yes    hit written as "yes"/"no" (CSV) or "yes"/"no" strings (JSON)

Every answer also carries fields nobody grades, in students' own styles:
"feature": "overlap" for initial overlaps, "triangle": null for misses, a
"ties" list of lists."""
import json
import math
import sys

TIE = 1e-10


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def mul(s, a):
    return (s * a[0], s * a[1], s * a[2])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def unit(a):
    n = math.sqrt(dot(a, a))
    return mul(1.0 / n, a)


def load_obj(path):
    vertices, triangles = [], []
    for line in open(path):
        words = line.split()
        if not words:
            continue
        if words[0] == "v":
            vertices.append(tuple(float(w) for w in words[1:4]))
        elif words[0] == "f":
            ids = [int(w.split("/")[0]) - 1 for w in words[1:]]
            for k in range(1, len(ids) - 1):
                triangles.append((ids[0], ids[k], ids[k + 1]))
    return vertices, triangles


def closest_on_triangle(p, a, b, c):
    """Ericson, Real-Time Collision Detection 5.1.5."""
    ab, ac, ap = sub(b, a), sub(c, a), sub(p, a)
    d1, d2 = dot(ab, ap), dot(ac, ap)
    if d1 <= 0 and d2 <= 0:
        return a
    bp = sub(p, b)
    d3, d4 = dot(ab, bp), dot(ac, bp)
    if d3 >= 0 and d4 <= d3:
        return b
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return add(a, mul(d1 / (d1 - d3), ab))
    cp = sub(p, c)
    d5, d6 = dot(ab, cp), dot(ac, cp)
    if d6 >= 0 and d5 <= d6:
        return c
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return add(a, mul(d2 / (d2 - d6), ac))
    va = d3 * d6 - d5 * d4
    if va <= 0 and (d4 - d3) >= 0 and (d5 - d6) >= 0:
        return add(b, mul((d4 - d3) / ((d4 - d3) + (d5 - d6)), sub(c, b)))
    denom = 1.0 / (va + vb + vc)
    return add(a, add(mul(vb * denom, ab), mul(vc * denom, ac)))


def entry_root(a, b, c, larger, END=1.0):
    """Where a centre outside (c > 0) first reaches the surface: the smaller
    root of a t^2 + b t + c = 0 in [0, 1] (the larger one with the bug)."""
    if a <= 0 or c <= 0:
        return None
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    t = (-b + (1 if larger else -1) * math.sqrt(disc)) / (2 * a)
    return t if 0 <= t <= END else None


def cast(vertices, triangles, p0, p1, r, bug):
    d = sub(p1, p0)
    end = math.inf if "hits-beyond-path" in bug else 1.0  # the bug: alpha never checked against 1
    best = None  # (alpha, triangle, rank, point, normal, overlap)

    def offer(c):
        nonlocal best
        if best is None or c[0] < best[0] - TIE or (c[0] <= best[0] + TIE and c[1:3] < best[1:3]):
            best = c

    for i, (ia, ib, ic) in enumerate(triangles):
        a, b, c = vertices[ia], vertices[ib], vertices[ic]
        if "front-face-flipped" in bug:
            b, c = c, b  # the front normal taken as (C - A) x (B - A)
        n = unit(cross(sub(b, a), sub(c, a)))
        dn = dot(n, d)
        two_sided = "back-faces-counted" in bug
        if not two_sided and not (dn < 0 if "approach-lt-vs-le" in bug else dn <= 0):
            continue
        q = closest_on_triangle(p0, a, b, c)
        gap = math.sqrt(dot(sub(p0, q), sub(p0, q)))
        if gap < r:
            if "initial-overlap-ignored" not in bug:
                offer((0.0, i, -1, q, unit(sub(p0, q)), True))
            continue
        if gap == r:  # touching already: a contact at alpha 0, whichever way it moves
            offer((0.0, i, 0, q, unit(sub(p0, q)), False))
            continue
        # the face: the plane pushed out by r, crossed inside the triangle
        s0 = dot(n, sub(p0, a))
        for side in (1.0, -1.0):
            if side < 0 and not two_sided:
                break
            if s0 * side < r:
                continue
            touching = s0 == side * r
            if not touching and not (dn * side < 0):
                continue
            t = 0.0 if touching else (side * r - s0) / dn
            if not 0 <= t <= end:
                continue
            centre = add(p0, mul(t, d))
            point = sub(centre, mul(side * r, n))
            inside = all(dot(cross(sub(e1, e0), sub(point, e0)), n) >= 0 for e0, e1 in ((a, b), (b, c), (c, a)))
            if inside:
                offer((t, i, 0, point, mul(side, n), False))
        larger = "larger-root" in bug
        if not bug & {"no-edge-tests", "faces-only"}:
            for e0, e1 in ((a, b), (b, c), (c, a)):
                e = sub(e1, e0)
                m = sub(p0, e0)
                dxe, mxe = cross(d, e), cross(m, e)
                ee = dot(e, e)
                t = entry_root(dot(dxe, dxe), 2 * dot(mxe, dxe), dot(mxe, mxe) - r * r * ee, larger, end)
                if t is None:
                    continue
                centre = add(p0, mul(t, d))
                s = dot(sub(centre, e0), e) / ee
                if 0 <= s <= 1:
                    point = add(e0, mul(s, e))
                    offer((t, i, 1, point, unit(sub(centre, point)), False))
        if not bug & {"no-vertex-tests", "faces-only"}:
            for v in (a, b, c):
                m = sub(p0, v)
                t = entry_root(dot(d, d), 2 * dot(m, d), dot(m, m) - r * r, larger, end)
                if t is not None:
                    offer((t, i, 2, v, unit(sub(add(p0, mul(t, d)), v)), False))
    return best


def main():
    args = sys.argv[1:]
    mesh, throws_path = args[0], args[1]
    bug = set((args[args.index("--bug") + 1] if "--bug" in args else "none").split("+"))
    shape = args[args.index("--shape") + 1] if "--shape" in args else "document"
    vertices, triangles = load_obj(mesh)
    rows = []
    for throw in json.load(open(throws_path)):
        p0, p1, r = tuple(throw["p0"]), tuple(throw["p1"]), throw["r"]
        if "swapped-endpoints" in bug:
            p0, p1 = p1, p0  # the path read from its end
        hit = cast(vertices, triangles, p0, p1, r, bug)
        row = {"id": throw["id"]}
        if hit is None:
            row.update(hit=False, alpha=float("nan") if "--nan" in args else 1.0, triangle=None, normal=None,
                       feature="none")
        else:
            alpha, tri, rank, point, normal, overlap = hit
            centre = add(p0, mul(alpha, sub(p1, p0)))
            a, b, c = (vertices[k] for k in triangles[tri])
            if "triangle-normal-vs-contact-normal" in bug:
                normal = unit(cross(sub(b, a), sub(c, a)))
            elif "normal-not-normalised" in bug:
                normal = sub(p0, point) if overlap else sub(centre, point)
            if "normal-negated" in bug:
                normal = mul(-1.0, normal)
            row.update(hit=True, alpha=alpha, triangle=tri + (1 if "one-based-triangles" in bug else 0),
                       normal=list(normal), feature="overlap" if overlap else ("face", "edge", "vertex")[rank],
                       ties=[[tri, rank]])
        if "--yes" in args:
            row["hit"] = "yes" if row["hit"] else "no"
        rows.append(row)
    out = sys.stdout
    if shape == "document":
        json.dump({"student": "anonymous", "results": rows}, out, indent=1)
    elif shape == "array":
        json.dump(rows, out)
    elif shape == "ndjson":
        for row in rows:
            out.write(json.dumps(row) + "\n")
    else:
        renamed = shape == "csv-renamed"
        out.write("id,hit,t,nx,ny,nz,tri\n" if renamed else "id,hit,alpha,normal_x,normal_y,normal_z,triangle,feature\n")
        for row in rows:
            n = row["normal"] or ["", "", ""]
            hit = row["hit"] if isinstance(row["hit"], str) else ("true" if row["hit"] else "false")
            cells = [row["id"], hit, repr(row["alpha"])] + [repr(x) if x != "" else "" for x in n]
            cells.append("" if row["triangle"] is None else str(row["triangle"]))
            if not renamed:
                cells.append(row["feature"])
            out.write(",".join(str(c) for c in cells) + "\n")


main()
