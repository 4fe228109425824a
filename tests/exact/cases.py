"""Scenes for the exact test of `ballcast cast`: meshes and trajectories placed
exactly on degeneracies (points through edges and vertices, tangent balls,
many-way ties, starts at distance exactly r, ...).

Every number written is a double chosen so that the intended degeneracy is
exact: points are built with Fractions from dyadic coordinates and checked to
be representable (exact()), and radii are multiples of the denominator of a
rational unit vector (Pythagorean triples and quadruples) so that r * unit is
exact too.  Where a construction cannot be exact (a slanted path through a
point nudged by one ulp) the doubles are simply what they are: the reference
is exact for whatever doubles it is given, so only the intent is lost.

A Scene is one mesh + many trajectories + one set of options (one ballcast
run).  generate(class_name, count, seed) yields scenes of that class holding
`count` trajectories in all; CLASSES lists the classes.  Deterministic for a
given seed.
"""

import math
import random
from fractions import Fraction as F

# Option sets: every combination of --approach, --two-sided, --initial-overlap.
OPTION_SETS = [
    {"approach": a, "two_sided": t, "initial_overlap": o}
    for a in ("le", "lt") for t in (False, True) for o in ("report", "ignore")
]

# Rational unit vectors (a, b, c) / q with a^2 + b^2 + c^2 = q^2.
PYTHAGOREAN = [
    ((1, 0, 0), 1), ((3, 4, 0), 5), ((5, 12, 0), 13), ((8, 15, 0), 17),
    ((1, 2, 2), 3), ((2, 3, 6), 7), ((1, 4, 8), 9), ((4, 4, 7), 9),
    ((2, 6, 9), 11), ((6, 6, 7), 11), ((3, 4, 12), 13), ((2, 10, 11), 15),
    ((1, 12, 12), 17), ((8, 9, 12), 17),
]


class NotExact(Exception):
    """A construction that should be exact did not fit in a double."""


class Scene:
    """One ballcast run: mesh (vertices as float triples, faces as 0-based id
    lists), casts [(p0, p1, r, tag)], options (see OPTION_SETS)."""

    def __init__(self, cls, name, vertices, faces, casts, options):
        self.cls, self.name = cls, name
        self.vertices, self.faces = vertices, faces
        self.casts, self.options = casts, options

    def obj_text(self):
        lines = ["v %r %r %r" % tuple(v) for v in self.vertices]
        lines += ["f " + " ".join(str(i + 1) for i in face) for face in self.faces]
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Exact vector helpers (Fractions)
# ---------------------------------------------------------------------------

def exact(x):
    """A Fraction as the double equal to it; NotExact if there is none."""
    f = float(x)
    if F(f) != x:
        raise NotExact(x)
    return f


def evec(v):
    return tuple(exact(x) for x in v)


def rvec(v):
    """Rounded (not necessarily exact) conversion, for deliberate near misses."""
    return tuple(float(x) for x in v)


def vadd(u, v):
    return tuple(a + b for a, b in zip(u, v))


def vsub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def vmul(k, u):
    return tuple(k * a for a in u)


def vdot(u, v):
    return sum(a * b for a, b in zip(u, v))


def vcross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def fvec(v):
    return tuple(F(x) for x in v)


def dyadic(rng, lo, hi, bits):
    """A random multiple of 2^-bits in [lo, hi]."""
    k = rng.randint(math.ceil(lo * 2**bits), math.floor(hi * 2**bits))
    return F(k, 2**bits)


def shrink(v):
    """v scaled by a power of two so that its largest component is below 1
    (a power of two keeps it exact)."""
    return vmul(F(1, 2 ** int(max(abs(x) for x in v)).bit_length()), v)


def small_int_vec(rng, m=3):
    while True:
        v = (rng.randint(-m, m), rng.randint(-m, m), rng.randint(-m, m))
        if v != (0, 0, 0):
            return v


def rational_unit(rng):
    """A random rational unit vector: (integer vector, denominator q)."""
    (a, b, c), q = rng.choice(PYTHAGOREAN)
    v = [a, b, c]
    rng.shuffle(v)
    v = tuple(x * rng.choice((-1, 1)) for x in v)
    return v, q


def radius_for(rng, q, lo_exp=-40, hi_exp=0):
    """A radius r = q * m * 2^k (so r times a unit vector over q is exact),
    between about 1e-12 and 3."""
    while True:
        k = rng.randint(lo_exp, hi_exp)
        m = rng.choice((1, 1, 1, 3, 5))
        r = F(q * m) * F(2) ** k
        if F(1, 10**12) <= r <= 3:
            return r


def sine_ok(A, B, C, limit=0.05):
    """Whether the triangle is far from a sliver (sine of every angle > limit)."""
    def length(v):
        return math.sqrt(float(vdot(v, v)))
    n = length(vcross(vsub(B, A), vsub(C, A)))
    sides = sorted([length(vsub(B, A)), length(vsub(C, B)), length(vsub(A, C))])
    return sides[0] > 0 and n / (sides[1] * sides[2]) > limit


# ---------------------------------------------------------------------------
# Meshes (built as Fraction vertices, then checked exact)
# ---------------------------------------------------------------------------

class MeshBuilder:
    """Vertices (Fractions) and faces; triangles() in ballcast's numbering."""

    def __init__(self):
        self.verts = []
        self.faces = []

    def vertex(self, p):
        self.verts.append(fvec(p))
        return len(self.verts) - 1

    def face(self, ids):
        self.faces.append(list(ids))

    def triangles(self):
        """(ia, ib, ic) per triangle, fan-triangulated in file order."""
        out = []
        for f in self.faces:
            for k in range(1, len(f) - 1):
                out.append((f[0], f[k], f[k + 1]))
        return out

    def corners(self, tri):
        return tuple(self.verts[i] for i in tri)

    def float_vertices(self):
        return [evec(v) for v in self.verts]


def add_grid(mb, rng, origin, nx, ny, cell, zbits=4, zmax=1, quads=None):
    """A heightfield of nx by ny cells, front up; interior edges and vertices
    shared.  Cells are written as quads (fan-triangulated by ballcast) or as
    two triangles with a random diagonal."""
    ox, oy, oz = origin
    ids = {}
    for j in range(ny + 1):
        for i in range(nx + 1):
            z = oz + (dyadic(rng, -zmax, zmax, zbits) if rng.random() < 0.7 else 0)
            ids[i, j] = mb.vertex((ox + i * cell, oy + j * cell, z))
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = ids[i, j], ids[i + 1, j], ids[i + 1, j + 1], ids[i, j + 1]
            as_quad = quads if quads is not None else rng.random() < 0.5
            if as_quad:
                mb.face((a, b, c, d))
            elif rng.random() < 0.5:
                mb.face((a, b, c))
                mb.face((a, c, d))
            else:
                mb.face((a, b, d))
                mb.face((b, c, d))


def add_soup(mb, rng, n, center, spread=2, bits=6):
    """n isolated triangles with dyadic vertices in general planes."""
    added = 0
    while added < n:
        pts = [tuple(F(center[i]) + dyadic(rng, -spread, spread, bits) for i in range(3))
               for _ in range(3)]
        if not sine_ok(*pts, limit=0.2):
            continue
        mb.face([mb.vertex(p) for p in pts])
        added += 1


def add_polygon(mb, rng, center):
    """A planar convex hexagon (one OBJ face, fan-triangulated), tilted."""
    a, b = dyadic(rng, -1, 1, 2), dyadic(rng, -1, 1, 2)
    s = F(1, 2 ** rng.randint(0, 2))
    shape = [(0, 0), (2, 0), (3, 1), (3, 2), (1, 2), (0, 1)]
    if rng.random() < 0.5:
        shape.reverse()
    ids = []
    for x, y in shape:
        X, Y = center[0] + s * x, center[1] + s * y
        ids.append(mb.vertex((X, Y, center[2] + a * s * x + b * s * y)))
    mb.face(ids)


def mixed_mesh(rng):
    """A heightfield with shared edges, a few loose triangles (unshared edges)
    and a tilted polygon: the mesh of the r = 0 classes."""
    mb = MeshBuilder()
    n = rng.randint(2, 5)
    add_grid(mb, rng, (F(0), F(0), F(0)), n, rng.randint(2, 5), F(1, 2 ** rng.randint(0, 2)))
    add_soup(mb, rng, rng.randint(2, 5), (F(6), F(0), F(0)))
    add_polygon(mb, rng, (F(-6), F(0), F(0)))
    return mb


# ---------------------------------------------------------------------------
# Points on a triangle
# ---------------------------------------------------------------------------

def point_on(rng, A, B, C, where):
    """An exact point of triangle ABC: "face" (interior, dyadic barycentrics),
    "edge" (on an edge, midpoint or other dyadic fraction) or "vertex"."""
    if where == "vertex":
        return rng.choice((A, B, C))
    if where == "edge":
        E0, E1 = rng.choice(((A, B), (B, C), (C, A)))
        t = F(1, 2) if rng.random() < 0.4 else F(rng.randint(1, 15), 16)
        return vadd(E0, vmul(t, vsub(E1, E0)))
    while True:
        u, v = F(rng.randint(1, 31), 32), F(rng.randint(1, 31), 32)
        if u + v < 1:
            return vadd(A, vadd(vmul(u, vsub(B, A)), vmul(v, vsub(C, A))))


def front_normal(A, B, C):
    return vcross(vsub(B, A), vsub(C, A))


def direction_for(rng, N, toward_front=0.8):
    """A small integer direction w; with probability toward_front N.w > 0
    (a path p0 = P + s w -> P - t w then approaches the front)."""
    while True:
        w = small_int_vec(rng)
        s = vdot(N, w)
        if s == 0:
            continue
        if (s > 0) == (rng.random() < toward_front):
            return w


def through(P, w, s, t):
    """p0 = P + s w, p1 = P - t w (alpha at P = s / (s + t))."""
    return vadd(P, vmul(s, w)), vsub(P, vmul(t, w))


def path_lengths(rng):
    s = F(rng.randint(1, 16), 8)
    t = F(rng.randint(0 if rng.random() < 0.1 else 1, 16), 8)
    return s, t


# ---------------------------------------------------------------------------
# The classes
# ---------------------------------------------------------------------------

def casts_point_through(rng, mb, count, where):
    """r = 0 points through exact points of the mesh's triangles."""
    tris = mb.triangles()
    casts = []
    while len(casts) < count:
        tri = rng.choice(tris)
        A, B, C = mb.corners(tri)
        P = point_on(rng, A, B, C, where)
        w = direction_for(rng, front_normal(A, B, C))
        s, t = path_lengths(rng)
        p0, p1 = through(P, w, s, t)
        casts.append((evec(p0), evec(p1), 0.0, "through %s" % where))
    return casts


def scene_point_face(rng, n):
    mb = mixed_mesh(rng)
    return mb, casts_point_through(rng, mb, n, "face")


def scene_point_edge(rng, n):
    mb = mixed_mesh(rng)
    return mb, casts_point_through(rng, mb, n, "edge")


def scene_point_vertex(rng, n):
    mb = mixed_mesh(rng)
    return mb, casts_point_through(rng, mb, n, "vertex")


def nudge(x, k):
    """x moved by k ulps (k may be negative)."""
    for _ in range(abs(k)):
        x = math.nextafter(x, math.inf if k > 0 else -math.inf)
    return x


def scene_point_near_miss(rng, n):
    """r = 0 points passing a few ulps beside an edge point or a vertex (a
    vertical path whose x or y is nudged: exact; or a slanted one through a
    nudged point: rounded), and paths ending one ulp short of a surface."""
    mb = mixed_mesh(rng)
    tris = mb.triangles()
    casts = []
    while len(casts) < n:
        tri = rng.choice(tris)
        A, B, C = mb.corners(tri)
        P = evec(point_on(rng, A, B, C, rng.choice(("edge", "vertex"))))
        k = rng.choice((-2, -1, 1, 2))
        kind = rng.random()
        if kind < 0.5:                              # vertical, exact
            x, y, z = P
            if rng.random() < 0.5:
                x = nudge(x, k)
            else:
                y = nudge(y, k)
            if rng.random() < 0.3:
                x = nudge(x, rng.choice((-1, 1)))
            top, bottom = z + rng.randint(1, 8) / 4, z - rng.randint(1, 8) / 4
            if rng.random() < 0.5:
                top, bottom = bottom, top
            casts.append(((x, y, top), (x, y, bottom), 0.0, "vertical %+d ulp" % k))
        elif kind < 0.8:                            # slanted through a nudged point
            i = rng.randrange(3)
            Q = list(P)
            Q[i] = nudge(Q[i], k)
            w = direction_for(rng, front_normal(A, B, C))
            s, t = path_lengths(rng)
            p0, p1 = through(fvec(Q), w, s, t)
            casts.append((rvec(p0), rvec(p1), 0.0, "slanted %+d ulp" % k))
        else:                                       # ending an ulp short of / past P
            w = direction_for(rng, front_normal(A, B, C))
            p0 = evec(vadd(fvec(P), vmul(F(rng.randint(1, 8), 4), w)))
            p1 = tuple(nudge(P[i], k * (1 if w[i] > 0 else -1) if w[i] else 0) for i in range(3))
            casts.append((p0, p1, 0.0, "ends %+d ulp" % k))
    return mb, casts


def scene_point_start_on(rng, n):
    """r = 0 points starting exactly on a face, edge or vertex, moving in
    front, behind or along the plane."""
    mb = mixed_mesh(rng)
    tris = mb.triangles()
    casts = []
    while len(casts) < n:
        tri = rng.choice(tris)
        A, B, C = mb.corners(tri)
        where = rng.choice(("face", "edge", "vertex"))
        P = point_on(rng, A, B, C, where)
        N = front_normal(A, B, C)
        how = rng.choice(("against n", "along n", "in the plane"))
        if how == "in the plane":
            w = vadd(vmul(dyadic(rng, -2, 2, 2), vsub(B, A)), vmul(dyadic(rng, -2, 2, 2), vsub(C, A)))
        else:                                   # N.d < 0 (counted) or N.d > 0
            w = direction_for(rng, N, 0.0 if how == "against n" else 1.0)
        p1 = vadd(P, vmul(F(rng.randint(1, 8), 4), w)) if rng.random() < 0.9 else P
        casts.append((evec(P), evec(p1), 0.0, "start on %s, moving %s" % (where, how)))
    return mb, casts


def in_plane(A, B, C, u, v):
    return vadd(A, vadd(vmul(u, vsub(B, A)), vmul(v, vsub(C, A))))


def scene_point_coplanar(rng, n):
    """r = 0 points moving exactly in a triangle's plane: through an edge,
    through a vertex, along an edge line, or from inside out."""
    mb = mixed_mesh(rng)
    tris = mb.triangles()
    casts = []
    while len(casts) < n:
        tri = rng.choice(tris)
        A, B, C = mb.corners(tri)
        kind = rng.choice(("cross", "vertex", "edge line", "from inside"))
        if kind == "cross":
            u0, v0 = dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3)
            u1, v1 = dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3)
            p0, p1 = in_plane(A, B, C, u0, v0), in_plane(A, B, C, u1, v1)
        elif kind == "vertex":
            V = rng.choice((A, B, C))
            w = vsub(in_plane(A, B, C, dyadic(rng, -1, 1, 2), dyadic(rng, -1, 1, 2)), A)
            p0, p1 = through(V, w, *path_lengths(rng))
        elif kind == "edge line":
            E0, E1 = rng.choice(((A, B), (B, C), (C, A)))
            t0, t1 = dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3)
            p0, p1 = vadd(E0, vmul(t0, vsub(E1, E0))), vadd(E0, vmul(t1, vsub(E1, E0)))
        else:
            p0 = point_on(rng, A, B, C, "face")
            p1 = in_plane(A, B, C, dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3))
        casts.append((evec(p0), evec(p1), 0.0, "coplanar %s" % kind))
    return mb, casts


def fan_mesh(rng, k):
    """k triangles around an apex: a flat fan, an upward cone or a funnel,
    closed or open, the apex as corner A, B or C, front up or down.
    Returns (builder, apex)."""
    mb = MeshBuilder()
    apex = (dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3))
    h = rng.choice((F(0), F(0), dyadic(rng, F(1, 4), 2, 3), -dyadic(rng, F(1, 4), 2, 3)))
    closed = rng.random() < 0.7
    span = 2 * math.pi if closed else rng.uniform(0.5, 1.8) * math.pi
    ring = k if closed else k + 1
    rho = rng.choice((1, 2, F(1, 2)))
    a_id = mb.vertex(apex)
    rim = []
    for i in range(ring):
        ang = span * i / k
        x = apex[0] + F(round(float(rho) * math.cos(ang) * 1024), 1024)
        y = apex[1] + F(round(float(rho) * math.sin(ang) * 1024), 1024)
        rim.append(mb.vertex((x, y, apex[2] - h)))
    rot = rng.randrange(3)
    flip = rng.random() < 0.2
    for i in range(k):
        tri = [a_id, rim[i], rim[(i + 1) % ring]]
        if flip:
            tri[1], tri[2] = tri[2], tri[1]
        mb.face(tri[rot:] + tri[:rot])
    return mb, apex


def scene_fan_apex(rng, n):
    """Points and balls dropped exactly onto the apex of a fan of k = 3..64
    triangles: k-way ties."""
    k = rng.choice((3, 4, 5, 6, 8, 12, 16, 24, 31, 32, 33, 48, 64, rng.randint(3, 64)))
    mb, apex = fan_mesh(rng, k)
    casts = []
    while len(casts) < n:
        kind = rng.random()
        if kind < 0.4:                              # a point through the apex
            w = small_int_vec(rng) if rng.random() < 0.5 else (0, 0, 1)
            p0, p1 = through(apex, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), 0.0, "point through apex"))
        else:                                       # a ball touching the apex
            u, q = rational_unit(rng) if rng.random() < 0.5 else ((0, 0, 1), 1)
            r = radius_for(rng, q, -30, 0)
            touch = vadd(apex, vmul(r / q, u))      # centre at distance r from apex
            w = u if rng.random() < 0.6 else small_int_vec(rng)
            p0, p1 = through(touch, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), exact(r), "ball onto apex"))
    return mb, casts


def plane_basis(n):
    """Two integer vectors spanning the plane orthogonal to integer n."""
    for k in ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1)):
        u = vcross(n, k)
        if u != (0, 0, 0):
            return u, vcross(n, u)


def triangle_facing(rng, origin, n, size_bits=4):
    """A triangle through origin in the plane orthogonal to integer n, with
    front normal along +n: (A, B, C)."""
    u, v = plane_basis(n)
    scale = F(1, 2 ** max(abs(x) for x in u + v).bit_length())
    while True:
        pts = [vadd(origin, vadd(vmul(dyadic(rng, -2, 2, size_bits) * scale, u),
                                 vmul(dyadic(rng, -2, 2, size_bits) * scale, v)))
               for _ in range(3)]
        pts[0] = origin
        if not sine_ok(*pts, limit=0.2):
            continue
        if vdot(front_normal(*pts), n) < 0:
            pts[1], pts[2] = pts[2], pts[1]
        return tuple(pts)


def scene_ball_tangent(rng, n):
    """Balls rolling at height exactly r over an edge or a vertex (N.d = 0, a
    double root)."""
    mb = MeshBuilder()
    tris = []
    for i in range(rng.randint(1, 4)):
        u, q = rational_unit(rng)
        A, B, C = triangle_facing(rng, (F(4 * i), F(0), F(0)), u)
        mb.face([mb.vertex(A), mb.vertex(B), mb.vertex(C)])
        tris.append((A, B, C, u, q))
    casts = []
    while len(casts) < n:
        A, B, C, u, q = rng.choice(tris)
        try:
            casts.append(roll_over(rng, A, B, C, u, q))
        except NotExact:
            continue
    return mb, casts


def roll_over(rng, A, B, C, u, q):
    """A ball at height exactly r above the plane, crossing an edge line at an
    exact edge point or vertex M, moving in the plane's direction."""
    r = radius_for(rng, q)
    lift = vmul(r / q, u)                         # exactly r along the unit normal
    corners = (A, B, C)
    i = rng.randrange(3)
    E0, E1 = corners[i], corners[(i + 1) % 3]
    t = rng.choice((F(0), F(1), F(1, 2), F(rng.randint(1, 15), 16)))
    M = vadd(E0, vmul(t, vsub(E1, E0)))
    inner = vsub(in_plane(A, B, C, F(1, 3), F(1, 3)), M)     # towards the centroid
    w = vadd(vmul(dyadic(rng, F(1, 4), 2, 2), inner), vmul(dyadic(rng, -1, 1, 2), vsub(E1, E0)))
    if rng.random() < 0.2:
        w = vmul(-1, w)                           # rolling out of the triangle
    s, tt = path_lengths(rng)
    p0, p1 = through(vadd(M, lift), vmul(-1, w), s, tt)
    return (evec(p0), evec(p1), exact(r), "rolling at height r over %s" %
            ("a vertex" if t in (0, 1) else "an edge"))


def scene_ball_parallel(rng, n):
    """Balls moving parallel to an edge at distance exactly r (whole mesh of
    triangles built around rational unit offsets)."""
    mb = MeshBuilder()
    edges = []
    for i in range(rng.randint(1, 4)):
        p, q = rational_unit(rng)
        e = vcross(p, small_int_vec(rng))
        while e == (0, 0, 0):
            e = vcross(p, small_int_vec(rng))
        e = shrink(e)
        E0 = (F(4 * i), dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3))
        E1 = vadd(E0, e)
        while True:
            Cc = vadd(E0, vadd(vmul(dyadic(rng, 0, 1, 3), e), vmul(-dyadic(rng, F(1, 8), 1, 3), shrink(p))))
            Cc = vadd(Cc, vmul(dyadic(rng, -1, 1, 3), shrink(vcross(p, e))))
            if sine_ok(E0, E1, Cc, 0.2):
                break
        tri = [E0, E1, Cc] if rng.random() < 0.5 else [E1, E0, Cc]
        mb.face([mb.vertex(x) for x in tri])
        edges.append((E0, e, p, q))
    casts = []
    while len(casts) < n:
        E0, e, p, q = rng.choice(edges)
        r = radius_for(rng, q)
        base = vadd(E0, vmul(r / q, p))
        t0 = rng.choice((dyadic(rng, -2, 0, 3), dyadic(rng, 0, 1, 3), F(0), F(1)))
        t1 = rng.choice((dyadic(rng, -2, 3, 3), F(0), F(1)))
        try:
            p0, p1 = evec(vadd(base, vmul(t0, e))), evec(vadd(base, vmul(t1, e)))
        except NotExact:
            continue
        casts.append((p0, p1, exact(r), "parallel to edge at distance r"))
    return mb, casts


def ridge(rng, mb, origin):
    """Two triangles sharing an edge E0E1, sloping down on both sides away
    from a rational unit 'up' p (a convex ridge), fronts facing up.
    Returns (E0, E1, p, q)."""
    p, q = rational_unit(rng)
    e = vcross(p, small_int_vec(rng))
    while e == (0, 0, 0):
        e = vcross(p, small_int_vec(rng))
    e = shrink(e)
    g = shrink(vcross(p, e))
    E0 = origin
    E1 = vadd(E0, e)
    # The shared edge's corners: one vertex each (shared ids) or, half the
    # time, written twice (a geometrically shared edge with distinct ids).
    shared = {}
    if rng.random() < 0.5:
        shared = {E0: mb.vertex(E0), E1: mb.vertex(E1)}
    sides = []
    for sgn in (1, -1):
        Cc = vadd(E0, vadd(vmul(dyadic(rng, F(1, 4), F(3, 4), 3), e),
                           vadd(vmul(sgn * dyadic(rng, F(1, 2), 1, 3), g),
                                vmul(-dyadic(rng, 0, 1, 3), shrink(p)))))
        tri = [E0, E1, Cc]
        if vdot(front_normal(*tri), p) < 0:
            tri = [E1, E0, Cc]
        sides.append(tri)
    for tri in sides:
        mb.face([shared[x] if x in shared else mb.vertex(x) for x in tri])
    return E0, E1, p, q


def scene_ball_drop(rng, n):
    """Balls falling exactly onto a point of a ridge's shared edge (an end
    vertex when t is 0 or 1): the centre passes through F + r p, F on the
    edge, p a rational unit vector in its normal cone (straight down along
    -p, or slanted).  Balls onto a cone's apex are in fan-apex."""
    mb = MeshBuilder()
    ridges = [ridge(rng, mb, (F(4 * i), F(0), F(0))) for i in range(rng.randint(1, 3))]
    casts = []
    while len(casts) < n:
        E0, E1, p, q = rng.choice(ridges)
        t = rng.choice((F(0), F(1), F(1, 2), F(rng.randint(1, 15), 16)))
        Fp = vadd(E0, vmul(t, vsub(E1, E0)))
        r = radius_for(rng, q)
        touch = vadd(Fp, vmul(r / q, p))
        w = p if rng.random() < 0.6 else vadd(p, vmul(F(1, 4), small_int_vec(rng)))
        s, tt = path_lengths(rng)
        try:
            p0, p1 = through(touch, w, s * r if rng.random() < 0.3 else s, tt)
            casts.append((evec(p0), evec(p1), exact(r), "ball onto edge t=%s" % t))
        except NotExact:
            continue
    return mb, casts


def scene_ball_start_touch(rng, n):
    """Balls starting at distance exactly r from a face point, an edge point
    or a vertex (offset r times a rational unit vector), moving anywhere."""
    mb = MeshBuilder()
    tris = []
    for i in range(rng.randint(1, 3)):
        u, q = rational_unit(rng)
        A, B, C = triangle_facing(rng, (F(4 * i), F(0), F(0)), u)
        mb.face([mb.vertex(A), mb.vertex(B), mb.vertex(C)])
        tris.append((A, B, C, u, q))
    E0, E1, p, q = ridge(rng, mb, (F(-4), F(0), F(0)))
    casts = []
    while len(casts) < n:
        try:
            if rng.random() < 0.5:
                A, B, C, u, q = rng.choice(tris)
                where = rng.choice(("face", "edge", "vertex"))
                P = point_on(rng, A, B, C, where)
                if where == "face" or rng.random() < 0.5:
                    off, qq = u, q                # along the front normal
                else:
                    off, qq = rational_unit(rng)  # any direction
                r = radius_for(rng, qq)
                p0 = vadd(P, vmul(r / qq, off))
            else:
                t = rng.choice((F(0), F(1), F(1, 2), F(rng.randint(1, 15), 16)))
                r = radius_for(rng, q)
                p0 = vadd(vadd(E0, vmul(t, vsub(E1, E0))), vmul(r / q, p))
                where = "ridge edge"
            w = small_int_vec(rng)
            p1 = vadd(p0, vmul(F(rng.randint(1, 8), 4), w))
            casts.append((evec(p0), evec(p1), exact(r), "start at distance r from %s" % where))
        except NotExact:
            continue
    return mb, casts


def scene_big_ball(rng, n):
    """Big balls overlapping a fine heightfield at alpha 0: many tied initial
    overlaps (or, with --initial-overlap ignore, the contacts after them)."""
    mb = MeshBuilder()
    cells = rng.randint(6, 14)
    cell = F(1, 16)
    add_grid(mb, rng, (F(0), F(0), F(0)), cells, cells, cell, zbits=6, zmax=F(1, 16))
    size = cells * cell
    casts = []
    while len(casts) < n:
        r = F(rng.choice((1, 2, 3, 4, 6, 8)), 16)
        c = (dyadic(rng, 0, size, 5), dyadic(rng, 0, size, 5), dyadic(rng, -r / 2, r, 5))
        w = small_int_vec(rng)
        p1 = vadd(c, vmul(F(rng.randint(0, 8), 16), w))
        casts.append((evec(c), evec(p1), exact(r), "big ball"))
    return mb, casts


def scene_random(rng, n):
    """General position: random triangles and random segments with full
    53-bit doubles (sanity check of the ordinary case)."""
    mb = MeshBuilder()
    while len(mb.faces) < 30:
        pts = [tuple(F(rng.uniform(-1, 1)) for _ in range(3)) for _ in range(3)]
        if sine_ok(*pts, limit=0.1):
            mb.face([mb.vertex(p) for p in pts])
    casts = []
    for _ in range(n):
        p0 = tuple(rng.uniform(-1.5, 1.5) for _ in range(3))
        p1 = tuple(rng.uniform(-1.5, 1.5) for _ in range(3))
        r = 0.0 if rng.random() < 0.3 else rng.uniform(0, 0.3)
        casts.append((p0, p1, r, "random"))
    return mb, casts


# name -> (generator, trajectories per scene, share of the total)
CLASSES = {
    "point-face": (scene_point_face, 200, 6),
    "point-edge": (scene_point_edge, 200, 10),
    "point-vertex": (scene_point_vertex, 200, 8),
    "point-near-miss": (scene_point_near_miss, 200, 10),
    "point-start-on": (scene_point_start_on, 200, 7),
    "point-coplanar": (scene_point_coplanar, 200, 8),
    "fan-apex": (scene_fan_apex, 100, 8),
    "ball-tangent": (scene_ball_tangent, 200, 10),
    "ball-parallel": (scene_ball_parallel, 200, 6),
    "ball-drop": (scene_ball_drop, 200, 8),
    "ball-start-touch": (scene_ball_start_touch, 200, 7),
    "big-ball": (scene_big_ball, 100, 4),
    "random": (scene_random, 250, 8),
}


# ---------------------------------------------------------------------------
# Transforms: the same scene moved by a dyadic offset and scaled by 2^k
# ---------------------------------------------------------------------------

def transformed(vertices, casts, k, offset):
    """Vertices and casts scaled by 2^k then moved by offset, or None when
    some number would round."""
    s = F(2) ** k
    try:
        vs = [evec(vadd(vmul(s, fvec(v)), offset)) for v in vertices]
        cs = [(evec(vadd(vmul(s, fvec(a)), offset)), evec(vadd(vmul(s, fvec(b)), offset)),
               exact(s * F(r)), tag) for a, b, r, tag in casts]
    except NotExact:
        return None
    return vs, cs


def maybe_transform(rng, vertices, casts):
    """With probability 1/3, scale by a power of two and/or move by a dyadic
    offset, keeping every number exact (smaller offsets are tried if needed).
    Returns (vertices, casts, description)."""
    if rng.random() >= 1 / 3:
        return vertices, casts, ""
    k = rng.choice((0, rng.randint(-20, 20)))
    big = rng.choice((3, 8, 12, 20))
    offset = tuple(F(rng.randint(-2**big, 2**big), 2 ** rng.randint(0, 4)) for _ in range(3))
    for attempt in range(6):
        out = transformed(vertices, casts, k, offset)
        if out is not None:
            desc = " scaled 2^%d moved %s" % (k, [float(x) for x in offset])
            return out[0], out[1], desc
        offset = tuple(x / 2**4 for x in offset)
        offset = tuple(F(math.floor(x)) for x in offset)
    out = transformed(vertices, casts, k, (F(0), F(0), F(0)))
    if out is None:
        return vertices, casts, ""
    return out[0], out[1], " scaled 2^%d" % k


def generate(cls, count, seed=1):
    """Scenes of class cls holding count trajectories in all."""
    gen, per_scene, _ = CLASSES[cls]
    made = 0
    index = 0
    while made < count:
        rng = random.Random("%s:%s:%d" % (seed, cls, index))
        n = min(per_scene, count - made)
        mb, casts = gen(rng, n)
        vertices = mb.float_vertices()
        vertices, casts, desc = maybe_transform(rng, vertices, casts)
        options = OPTION_SETS[(index + seed) % len(OPTION_SETS)]   # every set in turn
        name = "%s#%d%s" % (cls, index, desc)
        yield Scene(cls, name, vertices, [list(f) for f in mb.faces], casts, options)
        made += n
        index += 1


def split_count(total, only=None):
    """The number of trajectories of each class for a total (by share)."""
    names = [only] if only else list(CLASSES)
    weights = [CLASSES[c][2] for c in names]
    out = {}
    left = total
    for i, c in enumerate(names):
        k = total * weights[i] // sum(weights) if i < len(names) - 1 else left
        out[c] = k
        left -= k
    return out
