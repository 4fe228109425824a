"""Exact reference answers for `ballcast intersect` (two meshes).

Written from the man page (INTERSECT: What is computed), never from lib/:
two triangles meet when they have a common point; a pair that meets is
  crossing   not in one plane, and a common point lies inside both
             triangles (off their edges);
  touching   they meet, but no common point is inside both; the segment is
             what they share (a point given twice, or a segment);
  coplanar   in one plane, with a common area (no segment).
Only triangles whose exact cross product (B - A) x (C - A) is zero are
skipped.  The segment of a non-coplanar pair runs along nA x nB; that of a
coplanar touching pair from the smaller vertex to the larger (x, then y,
then z).

Everything is decided on Python Fractions: the doubles read exactly, the
common part of two triangles computed as an exact convex polygon (each
triangle is the intersection of three half-spaces of its plane and of the
plane itself).  Floats appear only in the segment's ends.
"""

from fractions import Fraction

from reference import cross, dot, sub


def _sub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def _add(u, v):
    return tuple(a + b for a, b in zip(u, v))


def _mul(k, u):
    return tuple(k * a for a in u)


def _sign(x):
    return (x > 0) - (x < 0)


def _normal(t):
    return cross(_sub(t[1], t[0]), _sub(t[2], t[0]))


def _inside(t, n, x, strict):
    """x (in t's plane) in the closed triangle t, or strictly inside it."""
    for i in range(3):
        s = dot(cross(_sub(t[(i + 1) % 3], t[i]), _sub(x, t[i])), n)
        if s < 0 or (strict and s == 0):
            return False
    return True


def _clip(poly, a, b, n):
    """The part of the convex polygon poly (points in one plane with normal
    n) on the inner closed side of the line through a, b (inner: where
    ((b - a) x (x - a)) . n >= 0)."""
    out = []
    e = _sub(b, a)
    side = [dot(cross(e, _sub(x, a)), n) for x in poly]
    for i, x in enumerate(poly):
        y = poly[(i + 1) % len(poly)]
        sx, sy = side[i], side[(i + 1) % len(poly)]
        if sx >= 0:
            out.append(x)
        if (sx > 0 and sy < 0) or (sx < 0 and sy > 0):
            t = Fraction(sx, sx - sy)
            out.append(_add(x, _mul(t, _sub(y, x))))
    unique = []
    for x in out:
        if x not in unique:
            unique.append(x)
    return unique


def _plane_cut(t, n_other, p_other):
    """The points of triangle t on the other plane: a convex set, returned
    as its extreme points (vertices on the plane, edge crossings)."""
    s = [dot(n_other, _sub(v, p_other)) for v in t]
    pts = []
    for i in range(3):
        j = (i + 1) % 3
        if s[i] == 0:
            pts.append(t[i])
        if (s[i] > 0 and s[j] < 0) or (s[i] < 0 and s[j] > 0):
            u = Fraction(s[i], s[i] - s[j])
            pts.append(_add(t[i], _mul(u, _sub(t[j], t[i]))))
    return pts


def pair(ta, tb):
    """The exact answer for two triangles (tuples of three Fraction points):
    None when they do not meet, else (state, segment) with segment a pair of
    Fraction points (None for coplanar)."""
    na, nb = _normal(ta), _normal(tb)
    sa = [_sign(dot(nb, _sub(v, tb[0]))) for v in ta]
    sb = [_sign(dot(na, _sub(v, ta[0]))) for v in tb]
    if sa == [0, 0, 0]:
        poly = list(ta)
        for i in range(3):
            poly = _clip(poly, tb[i], tb[(i + 1) % 3], nb)
            if not poly:
                return None
        # A common area: three points of the common part not on one line.
        for i in range(len(poly)):
            for j in range(len(poly)):
                for k in range(len(poly)):
                    if cross(_sub(poly[j], poly[i]), _sub(poly[k], poly[i])) != (0, 0, 0):
                        return ("coplanar", None)
        lo = min(poly)                       # tuples of Fractions: by x, then y, then z
        hi = max(poly)
        return ("touching", (lo, hi))
    if abs(sum(sa)) == 3 or abs(sum(sb)) == 3:
        return None                          # all of one strictly on one side
    line = cross(na, nb)
    ca = sorted(_plane_cut(ta, nb, tb[0]), key=lambda x: dot(line, x))
    cb = sorted(_plane_cut(tb, na, ta[0]), key=lambda x: dot(line, x))
    start = max(ca[0], cb[0], key=lambda x: dot(line, x))
    end = min(ca[-1], cb[-1], key=lambda x: dot(line, x))
    if dot(line, start) > dot(line, end):
        return None
    mid = _mul(Fraction(1, 2), _add(start, end))
    crossing = start != end and _inside(ta, na, mid, True) and _inside(tb, nb, mid, True)
    return ("crossing" if crossing else "touching", (start, end))


def intersect(vertices_a, faces_a, vertices_b, faces_b):
    """Every pair (a, b, state, segment) of two meshes (vertices as floats,
    faces fan-triangulated), sorted by a then b; segment ends as floats.
    Also the numbers of the triangles skipped in each (exactly zero
    cross product)."""
    def triangles(vertices, faces):
        verts = [tuple(Fraction(float(c)) for c in v) for v in vertices]
        out = []
        for f in faces:
            for k in range(1, len(f) - 1):
                out.append((verts[f[0]], verts[f[k]], verts[f[k + 1]]))
        return out
    ta, tb = triangles(vertices_a, faces_a), triangles(vertices_b, faces_b)
    skip_a = [i for i, t in enumerate(ta) if _normal(t) == (0, 0, 0)]
    skip_b = [i for i, t in enumerate(tb) if _normal(t) == (0, 0, 0)]
    pairs = []
    for i, x in enumerate(ta):
        if i in skip_a:
            continue
        for j, y in enumerate(tb):
            if j in skip_b:
                continue
            got = pair(x, y)
            if got is None:
                continue
            state, seg = got
            ends = None if seg is None else [[float(c) for c in seg[0]], [float(c) for c in seg[1]]]
            pairs.append((i, j, state, ends))
    return pairs, skip_a, skip_b
