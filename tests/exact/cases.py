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
    lists), casts [(p0, p1, r, tag)], options (see OPTION_SETS, with
    "normal": "average" for --normal average).  kind "cast" (the default),
    "closest" (casts are [(p, r, tag)]) or "intersect" (casts are [(b,
    tag)], one per triangle of the second mesh, mesh_b = (vertices,
    faces))."""

    def __init__(self, cls, name, vertices, faces, casts, options, kind="cast", mesh_b=None):
        self.cls, self.name = cls, name
        self.vertices, self.faces = vertices, faces
        self.casts, self.options = casts, options
        self.kind, self.mesh_b = kind, mesh_b

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


# ---------------------------------------------------------------------------
# Audit classes: exact rational frames (non-axis planes whose normals and
# edge normals are rational unit vectors), duplicates, thin triangles, ties
# between different triangles' pieces at equal or nearly equal alphas,
# extreme scales, long and short paths, huge and tiny balls, thousands of
# triangles at one vertex, mirrored scenes.
# ---------------------------------------------------------------------------

def lcm(a, b):
    return a // math.gcd(a, b) * b


def den_of(v):
    """The lcm of the denominators of a Fraction vector's components."""
    d = 1
    for x in v:
        d = lcm(d, F(x).denominator)
    return d


def frac_sqrt(q):
    """The exact square root of a non-negative Fraction, or None."""
    q = F(q)
    a, b = math.isqrt(q.numerator), math.isqrt(q.denominator)
    if a * a == q.numerator and b * b == q.denominator:
        return F(a, b)
    return None


def unit_of(v):
    """v / |v| when that is rational, else None."""
    n = frac_sqrt(vdot(v, v))
    if not n:
        return None
    return vmul(1 / n, v)


# Pythagorean angles (cos, sin) * hyp, for turning rational unit vectors.
ANGLES = [(3, 4, 5), (4, 3, 5), (5, 12, 13), (12, 5, 13), (8, 15, 17), (15, 8, 17), (0, 1, 1), (1, 0, 1)]


def turn(rng, u, v):
    """A rational unit vector (a u + b v) / c, u and v orthonormal, with a
    random Pythagorean angle and signs."""
    a, b, c = rng.choice(ANGLES)
    return vadd(vmul(F(rng.choice((-1, 1)) * a, c), u), vmul(F(rng.choice((-1, 1)) * b, c), v))


def rational_frame(rng, axis_prob=0.15, qmax=3):
    """Three rational unit vectors, mutually orthogonal and right-handed
    (f1 x f2 = f3): the columns of the rotation of an integer quaternion,
    or a signed axis permutation with probability axis_prob."""
    if rng.random() < axis_prob:
        perm = [0, 1, 2]
        rng.shuffle(perm)
        cols = []
        for j in range(3):
            v = [F(0)] * 3
            v[perm[j]] = F(rng.choice((-1, 1)))
            cols.append(tuple(v))
        if vcross(cols[0], cols[1]) != cols[2]:
            cols[2] = vmul(-1, cols[2])
        return tuple(cols)
    while True:
        a, b, c, d = (rng.randint(-qmax, qmax) for _ in range(4))
        n = a * a + b * b + c * c + d * d
        if n:
            break
    R = [[a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
         [2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)],
         [2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d]]
    cols = tuple(tuple(F(R[i][j], n) for i in range(3)) for j in range(3))
    assert vcross(cols[0], cols[1]) == cols[2]
    return cols


def rotate_about(v, k, cos, sin):
    """v turned about the rational unit axis k by the angle (cos, sin)."""
    return vadd(vadd(vmul(cos, v), vmul(sin, vcross(k, v))), vmul((1 - cos) * vdot(k, v), k))


class Geo:
    """A triangle with exact rational geometry (Fraction corners): its
    front unit normal when rational, and for each edge (AB, BC, CA) its
    outward unit normal in the plane when rational (else None)."""

    def __init__(self, corners):
        self.corners = tuple(corners)
        A, B, C = self.corners
        self.N = front_normal(A, B, C)
        self.normal = unit_of(self.N)
        self.outs = []
        for E0, E1 in ((A, B), (B, C), (C, A)):
            e = vsub(E1, E0)
            out = None
            if self.normal is not None:
                out = unit_of(vcross(e, self.normal))
            self.outs.append(out)
        self.size = max(math.sqrt(float(vdot(vsub(P, Q), vsub(P, Q))))
                        for P, Q in ((A, B), (B, C), (C, A)))


# Integer triangles whose sides all have integer lengths (counter-clockwise):
# every edge's in-plane normal is then a rational unit vector.
HERON = [
    ((0, 0), (4, 0), (0, 3)), ((0, 0), (14, 0), (5, 12)), ((0, 0), (21, 0), (5, 12)),
    ((0, 0), (8, 0), (4, 3)), ((0, 0), (6, 0), (3, 4)), ((5, 0), (9, 0), (0, 12)),
    ((0, 0), (25, 0), (16, 12)), ((-9, 0), (16, 0), (0, 12)), ((0, 0), (24, 0), (12, 5)),
    ((16, 0), (35, 0), (0, 12)), ((0, 0), (120, 0), (60, 11)),
]


def heron_2d(rng):
    tri = list(rng.choice(HERON))
    k = rng.randrange(3)
    return tri[k:] + tri[:k]


def frame_triangle(frame, origin, pts2d, scale, flip=False):
    """3D corners origin + scale (x f1 + y f2) of a 2D triangle; flip
    reverses the order (front -f3)."""
    f1, f2, _ = frame
    corners = [vadd(origin, vmul(F(scale), vadd(vmul(F(x), f1), vmul(F(y), f2)))) for x, y in pts2d]
    if flip:
        corners = [corners[0], corners[2], corners[1]]
    return corners


def fold(rng, E0, E1, C):
    """The third corner of a triangle on the far side of the edge E0E1 from
    C, turned about the edge by a Pythagorean angle (a rational ridge or
    valley; flat for angle 0)."""
    e = vsub(E1, E0)
    k = unit_of(e)
    M = vadd(E0, vmul(vdot(vsub(C, E0), e) / vdot(e, e), e))
    v = vsub(M, C)                      # C reflected: M + v
    a, b, c = rng.choice(ANGLES[:6] + [(1, 0, 1), (1, 0, 1)])
    cos, sin = F(a, c), F(rng.choice((-1, 1)) * b, c)
    return vadd(M, rotate_about(v, k, cos, sin))


class ExactScene:
    """Fraction vertices and faces, cleared to exact doubles by one common
    rational scale (the odd part of every denominator, then a power of two
    so that the largest coordinate is about 2^top)."""

    def __init__(self):
        self.verts = []
        self.faces = []

    def vertex(self, p):
        self.verts.append(fvec(p))
        return len(self.verts) - 1

    def face(self, ids):
        self.faces.append(list(ids))

    def clear(self, top=3, integer=False):
        """Scale every vertex so that all are exact doubles; returns the scale
        (geometry built later must use the scaled vertices).  integer: the
        vertices become integers (for huge radii and long paths)."""
        L = 1
        for v in self.verts:
            L = lcm(L, den_of(v))
        big = max(abs(x) for v in self.verts for x in v) * L
        s = F(L)
        if integer:
            s *= F(2) ** max(0, top - int(big).bit_length())
        else:
            s *= F(2) ** (top - int(big).bit_length())
        self.verts = [vmul(s, v) for v in self.verts]
        for v in self.verts:
            evec(v)
        return s

    def builder(self):
        mb = MeshBuilder()
        mb.verts = list(self.verts)
        mb.faces = [list(f) for f in self.faces]
        return mb


def radius_with(rng, den, size, lo, hi):
    """A radius den * j * 2^k (so that r times a unit vector of denominator
    den is exact) about size * 2^[lo, hi]."""
    j = rng.choice((1, 1, 1, 3, 5, 7))
    target = size * 2.0 ** rng.uniform(lo, hi)
    k = round(math.log2(target / (den * j)))
    return F(den * j) * F(2) ** k


def int_dir(u):
    """The integer vector along a rational vector u."""
    d = den_of(u)
    v = vmul(d, u)
    g = 0
    for x in v:
        g = math.gcd(g, int(x))
    return tuple(int(x) // g for x in v)


def scale_dir(w, size):
    """w scaled by a power of two to a length of about size."""
    n = math.sqrt(float(vdot(w, w)))
    return vmul(F(2) ** round(math.log2(size / n)), fvec(w))


def path_split(rng, mode):
    """(s, t): the path p0 = P + s w, p1 = P - t w for a mode."""
    if mode == "long":
        return F(2) ** rng.randint(10, 34) * rng.choice((1, 3)), F(2) ** rng.randint(-2, 34) * rng.choice((0, 1, 1))
    if mode == "short":
        return F(2) ** -rng.randint(14, 40), F(2) ** -rng.randint(14, 40) * rng.choice((0, 1, 1, 3))
    x = rng.random()
    if x < 0.1:
        return F(0), path_lengths(rng)[1] or F(1)        # starts at the contact
    if x < 0.2:
        return path_lengths(rng)[0], F(0)                 # ends at the contact
    if x < 0.25:
        return F(0), F(0)                                 # zero-length, at the contact
    return path_lengths(rng)


def nudged_radius(rng, r, p=0.15):
    """r, or with probability p one ulp more or less (a tangent missed or
    cut by the smallest step)."""
    x = exact(r)
    if rng.random() < p:
        return math.nextafter(x, math.inf if rng.random() < 0.5 else -math.inf), " r%sulp" % ("+" if x else "")
    return x, ""


def approach_dir(rng, m, size, kind):
    """A direction w (moving along -w) for a ball touching along unit m:
    straight in, slanted in, tangential or away."""
    base = int_dir(m)
    if kind == "straight":
        w = base
    elif kind == "away":
        w = tuple(-x for x in base)
    elif kind == "along":
        while True:
            w = vcross(base, small_int_vec(rng))
            if w != (0, 0, 0):
                break
    else:
        while True:
            w = vadd(vmul(rng.randint(1, 3), base), vmul(max(1, max(abs(x) for x in base) // 2), small_int_vec(rng)))
            if vdot(w, m) > 0:
                break
    return scale_dir(w, size)


def frame_cast(rng, g, r_range=(-30, 1), length="normal", behind=0.3):
    """One cast at an exact degeneracy of the Geo g: points through its face,
    edges and vertices (from either side), points moving in its plane,
    balls touching its face, an edge or a vertex along rational unit
    directions (straight, slanted, tangential, away, starting or ending
    there, zero-length), balls rolling at height r over it, balls moving
    parallel to an edge at distance r.  Returns (p0, p1, r, tag) with
    Fraction points (checked by the caller)."""
    A, B, C = g.corners
    size = g.size
    n = g.normal
    kind = rng.random()
    if kind < 0.22:                                       # a point through a feature
        where = rng.choice(("face", "edge", "vertex"))
        P = point_on(rng, A, B, C, where)
        w = direction_for(rng, g.N, 1 - behind)
        s, t = path_split(rng, length)
        if s == 0 and t == 0:
            t = F(1)
        p0, p1 = through(P, scale_dir(w, size), s, t)
        return p0, p1, 0.0, "point through %s" % where
    if kind < 0.30:                                       # a point in the plane
        sub = rng.choice(("vertex", "edge line", "cross"))
        if sub == "vertex":
            V = rng.choice((A, B, C))
            w = vsub(in_plane(A, B, C, dyadic(rng, -1, 1, 2), dyadic(rng, -1, 1, 2)), A)
            if w == (0, 0, 0):
                w = vsub(B, A)
            s, t = path_split(rng, length)
            if s == 0 and t == 0:
                t = F(1)
            p0, p1 = through(V, scale_dir(w, size), s, t)
        elif sub == "edge line":
            E0, E1 = rng.choice(((A, B), (B, C), (C, A)))
            t0, t1 = dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3)
            p0, p1 = vadd(E0, vmul(t0, vsub(E1, E0))), vadd(E0, vmul(t1, vsub(E1, E0)))
        else:
            p0 = in_plane(A, B, C, dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3))
            p1 = in_plane(A, B, C, dyadic(rng, -2, 3, 3), dyadic(rng, -2, 3, 3))
        return p0, p1, 0.0, "point in the plane via %s" % sub
    if n is None:
        raise NotExact("no rational normal")
    side = -1 if rng.random() < behind else 1
    if kind < 0.44:                                       # ball onto the face
        P = point_on(rng, A, B, C, "face")
        m = vmul(side, n)
        what = "face"
    elif kind < 0.62:                                     # ball onto an edge point
        k = rng.randrange(3)
        E0, E1 = ((A, B), (B, C), (C, A))[k]
        t = F(1, 2) if rng.random() < 0.4 else F(rng.randint(1, 15), 16)
        P = vadd(E0, vmul(t, vsub(E1, E0)))
        out = g.outs[k]
        m = vmul(side, n) if out is None or rng.random() < 0.3 else turn(rng, out, vmul(side, n))
        if out is not None and rng.random() < 0.15:
            m = out                                        # in the plane, from outside
        what = "edge"
    elif kind < 0.74:                                     # ball onto a vertex
        i = rng.randrange(3)
        P = (A, B, C)[i]
        outs = [g.outs[i], g.outs[(i + 2) % 3]]           # the two edges at corner i
        outs = [o for o in outs if o is not None]
        m = vmul(side, n) if not outs or rng.random() < 0.3 else turn(rng, rng.choice(outs), vmul(side, n))
        what = "vertex"
    elif kind < 0.88:                                     # rolling at height r over an edge point or vertex
        k = rng.randrange(3)
        E0, E1 = ((A, B), (B, C), (C, A))[k]
        t = rng.choice((F(0), F(1), F(1, 2), F(rng.randint(1, 15), 16)))
        M = vadd(E0, vmul(t, vsub(E1, E0)))
        r = radius_with(rng, den_of(n), size, *r_range)
        centre = vadd(M, vmul(side * r, n))
        inner = vsub(in_plane(A, B, C, F(1, 3), F(1, 3)), M)
        w = vadd(vmul(dyadic(rng, F(1, 4), 2, 2), inner), vmul(dyadic(rng, -1, 1, 2), vsub(E1, E0)))
        if rng.random() < 0.2:
            w = vmul(-1, w)
        s, tt = path_split(rng, length)
        if s == 0 and tt == 0:
            tt = F(1)
        p0, p1 = through(centre, vmul(-1, w), s, tt)
        rr, note = nudged_radius(rng, r)
        return p0, p1, rr, "rolling at height r over %s%s" % ("a vertex" if t in (0, 1) else "an edge", note)
    else:                                                 # parallel to an edge at distance r
        k = rng.randrange(3)
        E0, E1 = ((A, B), (B, C), (C, A))[k]
        out = g.outs[k]
        m = vmul(side, n) if out is None or rng.random() < 0.3 else turn(rng, out, vmul(side, n))
        r = radius_with(rng, den_of(m), size, *r_range)
        base = vadd(E0, vmul(r, m))
        e = vsub(E1, E0)
        t0 = rng.choice((dyadic(rng, -2, 0, 3), dyadic(rng, 0, 1, 3), F(0), F(1)))
        t1 = rng.choice((dyadic(rng, -2, 3, 3), F(0), F(1)))
        if length == "long":
            t1 = t0 + F(2) ** rng.randint(10, 30) * rng.choice((-1, 1))
        elif length == "short":
            t1 = t0 + F(2) ** -rng.randint(14, 40) * rng.choice((-1, 1))
        rr, note = nudged_radius(rng, r)
        return vadd(base, vmul(t0, e)), vadd(base, vmul(t1, e)), rr, "parallel to an edge at distance r%s" % note
    # A ball touching P along m: its centre passes P + r m.
    r = radius_with(rng, den_of(m), size, *r_range)
    touch = vadd(P, vmul(r, m))
    s, t = path_split(rng, length)
    if s == 0:
        how = rng.choice(("straight", "slanted", "along", "away"))
    else:
        how = rng.choice(("straight", "straight", "slanted"))
    w = approach_dir(rng, m, size, how)
    p0, p1 = through(touch, w, s, t)
    rr, note = nudged_radius(rng, r)
    return p0, p1, rr, "ball onto %s%s, %s%s%s" % (what, " from behind" if side < 0 else "", how,
                                                   " from the contact" if s == 0 else
                                                   (" ending there" if t == 0 else ""), note)


def casts_on(rng, geos, n, **kw):
    """n exact casts at the Geos' degeneracies (inexact tries are redrawn)."""
    casts = []
    tries = 0
    while len(casts) < n:
        tries += 1
        if tries > 50 * n + 100:
            raise RuntimeError("casts_on: too many inexact tries")
        g = rng.choice(geos)
        try:
            p0, p1, r, tag = frame_cast(rng, g, **kw)
            casts.append((evec(p0), evec(p1), float(r), tag))
        except NotExact:
            continue
    return casts


def heron_scene(rng, es, frame, origin, fold_prob=0.5):
    """One Heronian triangle in the frame's plane at origin, and with
    probability fold_prob a second one folded across one of its edges
    (sharing the edge's vertex ids, or repeating them)."""
    pts = heron_2d(rng)
    flip = rng.random() < 0.2
    corners = frame_triangle(frame, origin, pts, F(1), flip)
    ids = [es.vertex(c) for c in corners]
    es.face(ids)
    if rng.random() < fold_prob:
        k = rng.randrange(3)
        i, j, o = k, (k + 1) % 3, (k + 2) % 3
        C2 = fold(rng, corners[i], corners[j], corners[o])
        if rng.random() < 0.5:
            e0, e1 = ids[i], ids[j]
        else:
            e0, e1 = es.vertex(corners[i]), es.vertex(corners[j])
        es.face([e1, e0, es.vertex(C2)])


def geos_of(es, faces=None):
    out = []
    for f in (es.faces if faces is None else faces):
        g = Geo([es.verts[i] for i in f])
        if g.normal is not None and sine_ok(*g.corners, limit=1e-9):
            out.append(g)
    return out


def scene_frame_heron(rng, n):
    """Heronian triangles (integer sides) in rational frames: non-axis planes
    with Pythagorean normals, every edge normal rational; ridges and valleys
    folded by Pythagorean angles; every kind of exact cast."""
    es = ExactScene()
    for i in range(rng.randint(1, 3)):
        frame = rational_frame(rng)
        heron_scene(rng, es, frame, (F(150 * i), F(0), F(0)))
    es.clear(top=rng.randint(1, 6))
    geos = geos_of(es)
    return es.builder(), casts_on(rng, geos, n, behind=0.35)


def scene_duplicates(rng, n):
    """The same triangle several times: exact duplicates (same ids), repeated
    vertices (new ids), reversed (back to back), rotated (B C A), reversed
    and rotated; in shuffled order."""
    es = ExactScene()
    base = []
    for i in range(rng.randint(1, 2)):
        frame = rational_frame(rng)
        pts = heron_2d(rng)
        corners = frame_triangle(frame, (F(150 * i), F(0), F(0)), pts, F(1))
        base.append(corners)
    es.verts = []
    faces = []
    for corners in base:
        ids = [es.vertex(c) for c in corners]
        variants = [ids]
        for _ in range(rng.randint(1, 5)):
            how = rng.choice(("same", "new ids", "reversed", "rotated", "reversed rotated"))
            if how == "same":
                v = list(ids)
            elif how == "new ids":
                v = [es.vertex(c) for c in corners]
            elif how == "reversed":
                v = [ids[0], ids[2], ids[1]]
            elif how == "rotated":
                v = [ids[1], ids[2], ids[0]]
            else:
                v = [ids[2], ids[1], ids[0]]
            variants.append(v)
        faces += variants
    rng.shuffle(faces)
    es.faces = faces
    es.clear(top=rng.randint(1, 5))
    geos = geos_of(es, [f for f in es.faces])
    return es.builder(), casts_on(rng, geos, n, behind=0.4)


def scene_thin(rng, n):
    """Very thin and very obtuse triangles, far above the sliver limit (the
    sine of the smallest angle from 2^-42 to 2^-4; the limit is 2^-46): one
    long edge along a rational frame axis (its normal rational), or thin
    Heronian triangles (legs m^2 + 1 over a base 2 (m^2 - 1))."""
    es = ExactScene()
    for i in range(rng.randint(1, 3)):
        frame = rational_frame(rng, axis_prob=0.4, qmax=2)
        origin = (F(4096 * i), F(0), F(0))
        if rng.random() < 0.3:
            m = 2 ** rng.randint(3, 11) + rng.randint(0, 3)
            pts = [(-(m * m - 1), 0), (m * m - 1, 0), (0, 2 * m)]
        else:
            L = 2 ** 10
            x = rng.randint(L // 4, 2 * L)
            eps = F(L) * F(2) ** -rng.randint(4, 40)
            pts = [(0, 0), (L, 0), (x, eps)]
        k = rng.randrange(3)
        pts = pts[k:] + pts[:k]
        corners = frame_triangle(frame, origin, pts, F(1), rng.random() < 0.2)
        assert sine_ok(*corners, limit=2.0 ** -43)          # 8 times the sliver limit
        es.face([es.vertex(c) for c in corners])
    es.clear(top=rng.randint(1, 12))
    geos = [Geo([es.verts[i] for i in f]) for f in es.faces]
    return es.builder(), casts_on(rng, geos, n, behind=0.35)


def scene_long_short(rng, n):
    """Very long paths (2^10 to 2^34 times the triangle) and very short ones
    (2^-14 to 2^-40), through exact degeneracies of integer meshes."""
    es = ExactScene()
    for i in range(rng.randint(1, 2)):
        frame = rational_frame(rng, qmax=2)
        heron_scene(rng, es, frame, (F(200 * i), F(0), F(0)))
    es.clear(top=rng.randint(6, 14), integer=True)
    geos = geos_of(es)
    mode = rng.choice(("long", "short"))
    return es.builder(), casts_on(rng, geos, n, length=mode, r_range=(-4, 1), behind=0.3)


def scene_huge_ball(rng, n):
    """Balls far larger than the mesh (r up to 2^40 times it) and far smaller
    (down to 2^-36), touching exactly: integer meshes so that r times a
    rational unit vector stays exact."""
    es = ExactScene()
    for i in range(rng.randint(1, 2)):
        frame = rational_frame(rng, qmax=2)
        heron_scene(rng, es, frame, (F(200 * i), F(0), F(0)))
    es.clear(top=rng.randint(6, 10), integer=True)
    geos = geos_of(es)
    r_range = (6, 40) if rng.random() < 0.6 else (-36, -16)
    return es.builder(), casts_on(rng, geos, n, r_range=r_range, behind=0.3)


# -- ties between the pieces of different triangles -------------------------

def unit_triples(frame):
    """Right-handed rational orthonormal triples (u, v1, v2) built from a
    frame: its axes and their Pythagorean turns."""
    f = list(frame)
    out = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        for sgn in (1, -1):
            u = vmul(sgn, f[i])
            out.append((u, vmul(sgn, f[j]), f[k]))
            for a, b, c in ANGLES[:6]:
                u = vmul(sgn, vadd(vmul(F(a, c), f[i]), vmul(F(b, c), f[j])))
                v1 = vmul(sgn, vadd(vmul(F(-b, c), f[i]), vmul(F(a, c), f[j])))
                out.append((u, v1, f[k]))
    for u, v1, v2 in out:
        assert vcross(v1, v2) == u
    return out


def tie_element(rng, centre, r, w, triples, kind, delay, size, L=F(1)):
    """Corners of one triangle first touched when the centre is at
    centre + delay * w' (w' the unit of motion, -w), i.e. exactly when a
    ball moving along -w through centre - delay w gets there: a face (the
    touch point inside, on an edge or at a corner), an edge or a vertex,
    touched along a rational unit u with u.w > 0; the triangle lies behind
    the tangent plane, so nothing of it is touched earlier.  face-near-edge
    and face-near-vertex (r > 0): the touch point lies inside, a distance
    delta from an edge (or from a corner, along both its edges) chosen so
    that the edge's cylinder (the vertex's ball) is entered about 1e-10 of
    the path (of length L w) after the face: delta^2 ~ 2 r (u.w) 1e-10 L.
    The face and that edge or vertex are then nearly tied, on one
    triangle."""
    cands = [t for t in triples if vdot(t[0], w) > 0]
    u, v1, v2 = rng.choice(cands)
    P = vsub(vsub(centre, vmul(r, u)), vmul(delay, w))
    def at(x, y, z=F(0)):
        return vadd(P, vmul(size, vadd(vadd(vmul(x, v1), vmul(y, v2)), vmul(z, u))))
    def d(lo, hi):
        return dyadic(rng, lo, hi, 3)
    if kind.startswith("face"):
        if kind == "face":
            pts = [(-d(F(1, 4), 1), -d(F(1, 4), 1)), (d(F(1, 4), 1), -d(F(1, 4), 1)), (d(-1, 1), d(F(1, 4), 1))]
        elif kind == "face-edge":
            pts = [(-d(F(1, 4), 1), F(0)), (d(F(1, 4), 1), F(0)), (d(-1, 1), d(F(1, 4), 1))]
        elif kind in ("face-near-edge", "face-near-vertex"):
            want = math.sqrt(2 * float(r) * float(vdot(u, w)) * 1e-10 * float(L)) / float(size)
            delta = F(2) ** round(math.log2(want) + rng.uniform(-1.2, 1.2))
            if kind == "face-near-edge":
                pts = [(-d(F(1, 4), 1), -delta), (d(F(1, 4), 1), -delta), (d(-1, 1), d(F(1, 4), 1))]
            else:
                pts = [(-delta, -delta), (d(F(1, 4), 1), -delta), (-delta, d(F(1, 4), 1))]
        else:
            pts = [(F(0), F(0)), (d(F(1, 4), 1), -d(0, 1)), (d(-1, 1), d(F(1, 4), 1))]
        corners = [at(x, y) for x, y in pts]
        if vdot(front_normal(*corners), u) < 0:
            corners[1], corners[2] = corners[2], corners[1]
        if rng.random() < 0.15:                      # its back to the ball: two-sided only
            corners[1], corners[2] = corners[2], corners[1]
        return corners
    if kind == "edge":
        corners = [at(-d(F(1, 4), 1), F(0)), at(d(F(1, 4), 1), F(0)),
                   at(d(-1, 1), d(-1, 1), -d(F(1, 8), 1) if r > 0 else d(-1, 1))]
    else:
        corners = [at(F(0), F(0)), at(d(-1, 1), d(-1, 1), -d(F(1, 8), 1)),
                   at(d(-1, 1), d(-1, 1), -d(F(1, 8), 1))]
    if (vdot(front_normal(*corners), w) < 0) == (rng.random() < 0.8):
        corners[1], corners[2] = corners[2], corners[1]
    return corners


TIE_KINDS = ("face", "face-edge", "face-vertex", "edge", "vertex")


def tie_window_delays(rng, count, point):
    """Alpha offsets (Fractions) around the tie window: 0, just inside and
    just outside 1e-10 (the C double read exactly) by more than the
    documented alpha error (so that rounding may not decide: 2^-48 and up
    for points, 2^-37 and up for balls), exactly 1e-10 (ambiguous), half and
    twice it, tiny ones, and 0.6e-10 with 1.2e-10 (a chain: each within
    1e-10 of the next, the last beyond 1e-10 of the first)."""
    tol = F(1e-10)
    lo = 34
    hi = 48 if point else 37
    out = [F(0)]
    menu = [lambda: tol - F(1, 2 ** rng.randint(lo, hi)),
            lambda: tol + F(1, 2 ** rng.randint(lo, hi)),
            lambda: tol * (1 - F(1, 2 ** rng.randint(2, 4))),
            lambda: tol * (1 + F(1, 2 ** rng.randint(2, 4))),
            lambda: tol * F(rng.randint(1, 15), 16),
            lambda: tol * rng.choice((2, 3, F(3, 2))),
            lambda: F(1, 2 ** rng.randint(45, 70)),
            lambda: tol * F(6, 10),
            lambda: tol * F(12, 10)]
    if rng.random() < 0.2:
        menu.append(lambda: tol)                            # exactly at the edge: ambiguous
    while len(out) < count:
        out.append(rng.choice(menu)())
    return out


def scene_ties(rng, n, window):
    """One cluster of triangles all first touched at the same alpha (window
    False: exact ties between faces, edges and vertices of different
    triangles) or at alphas offset by amounts around the tie window
    (window True); triangles in shuffled order, casts along one direction
    at several speeds (which scale the offsets) and split points."""
    frame = rational_frame(rng)
    triples = unit_triples(frame)
    den = 1
    for t in triples:
        for v in t:
            den = lcm(den, den_of(v))
    point = rng.random() < 0.35
    r = F(0) if point else F(den * rng.choice((1, 3))) * F(2) ** (-rng.randint(2, 12) - den.bit_length())
    while True:
        w = small_int_vec(rng, 2)
        if any(vdot(t[0], w) > 0 for t in triples):
            break
    centre = (dyadic(rng, -1, 1, 4), dyadic(rng, -1, 1, 4), dyadic(rng, -1, 1, 4))
    count = rng.randint(2, 7)
    L = F(2) ** rng.randint(-1, 2)                        # s + t
    delays = tie_window_delays(rng, count, point) if window else [F(0)] * count
    es = ExactScene()
    # Corner offsets size * den * (x v1 + y v2 + z u): exact, about 2^-j.
    size = F(1, 2 ** (den.bit_length() + rng.randint(0, 3)))
    mag = max(abs(x) for x in centre) + r + 8 * size * den
    grid = F(2) ** (int(math.floor(mag)).bit_length() - 51)     # the corners' last bit, roughly
    for i in range(count):
        kind = rng.choice(TIE_KINDS + (("face-near-edge", "face-near-vertex") if window and r > 0 else ()))
        # offset d in alpha: the triangle moved by -d L w (rounded onto the grid)
        shift = round(delays[i] * L / grid) * grid
        corners = tie_element(rng, centre, r, w, triples, kind, shift, size * den, L)
        es.face([es.vertex(c) for c in corners])
    if rng.random() < 0.5:
        add_clutter(rng, es, centre, w, rng.randint(50, 400))
    rng.shuffle(es.faces)
    try:
        for v in es.verts:
            evec(v)
    except NotExact:
        es.verts = [tuple(F(float(x)) for x in v) for v in es.verts]   # rounded: the reference decides
    mb = es.builder()
    casts = []
    while len(casts) < n:
        speed = F(2) ** rng.choice((0, 0, 0, -1, 1, -2))  # offsets in alpha divided by speed
        s = L * F(rng.randint(0 if rng.random() < 0.1 else 1, 16), 16)
        t = L - s
        wv = vmul(speed, fvec(w))
        p0, p1 = through(centre, wv, s, t)
        if rng.random() < 0.1:
            p1 = vsub(centre, vmul(2, wv))                  # longer: ending beyond
        try:
            casts.append((evec(p0), evec(p1), float(r), "%s, %d triangles, speed %s" % (
                "window" if window else "exact tie", count, speed)))
        except NotExact:
            continue
    return mb, casts


def add_clutter(rng, es, centre, w, count):
    """count small triangles scattered around centre, away from the line
    through it along w (so that the bounding volume hierarchy has levels
    and the tied triangles may sit in different leaves)."""
    wf = [float(x) for x in w]
    ww = sum(x * x for x in wf)
    added = 0
    while added < count:
        c = tuple(F(centre[i]) + dyadic(rng, -6, 6, 4) for i in range(3))
        q = [float(c[i] - centre[i]) for i in range(3)]
        t = sum(q[i] * wf[i] for i in range(3)) / ww
        if sum((q[i] - t * wf[i]) ** 2 for i in range(3)) < 9:
            continue
        pts = [vadd(c, tuple(dyadic(rng, -1, 1, 4) for _ in range(3))) for _ in range(3)]
        if not sine_ok(*pts, limit=0.1):
            continue
        es.face([es.vertex(p) for p in pts])
        added += 1


def scene_cross_tie(rng, n):
    return scene_ties(rng, n, False)


def scene_tie_window(rng, n):
    return scene_ties(rng, n, True)


# -- paths almost parallel to a plane ------------------------------------------

def graze_cast(rng, g, r_range=(-12, 0)):
    """A ball moving almost parallel to the triangle's plane (N.d a tiny
    nonzero number, or zero) at a height below, at or above r, from beside
    an edge or vertex towards it: it meets an edge or a vertex long before
    it would cross the plane pushed out by r, which it crosses far outside
    the triangle if at all (one-sided tests that rule pieces out from the
    face's crossing point must not rule these out)."""
    A, B, C = g.corners
    n = g.normal
    k = rng.randrange(3)
    E0, E1 = ((A, B), (B, C), (C, A))[k]
    out = g.outs[k]
    if out is None:
        raise NotExact("no rational edge normal")
    r = radius_with(rng, lcm(den_of(n), den_of(out)), g.size, *r_range)
    t = rng.choice((F(0), F(1), F(1, 2), F(rng.randint(1, 15), 16), F(rng.randint(1, 15), 16),
                    rng.choice((F(-1, 8), F(9, 8)))))
    M = vadd(E0, vmul(t, vsub(E1, E0)))
    height = r * rng.choice((F(0), F(1, 2), F(1), F(1), F(rng.randint(1, 15), 16), F(rng.randint(1, 15), 16),
                             rng.choice((F(3, 2), F(17, 16)))))
    side = rng.choice((1, 1, -1))
    start = vadd(vadd(M, vmul(r * rng.choice((2, 3, 5)), out)), vmul(side * height, n))
    # Inwards along -out, with a little of the edge's direction, and a tilt
    # of 2^-j of the normal's integer direction (or none).
    eu = unit_of(vsub(E1, E0))
    if eu is None:
        raise NotExact("no rational edge direction")
    tilt = rng.choice((0, 1, -1)) * F(1, 2 ** rng.randint(8, 50))
    w = vadd(vadd(vmul(-1, out), vmul(F(rng.randint(-2, 2), 4), eu)), vmul(tilt, n))
    w = scale_dir(w, float(r) * rng.choice((4, 8, 16)))
    p1 = vadd(start, vmul(rng.choice((1, 2, 3)), w))
    rr, note = nudged_radius(rng, r, 0.1)
    return start, p1, rr, "grazing at height %s r over %s, tilt %s%s" % (
        height / r, "a vertex" if t in (0, 1) else ("an edge" if 0 < t < 1 else "beyond an end"),
        "2^%d" % (-(abs(tilt).denominator.bit_length() - 1)) if tilt else "0", note)


def scene_graze(rng, n):
    """Balls almost parallel to non-axis planes (rational frames), entering
    an edge or a vertex from beside the triangle at heights below, at and
    above r."""
    es = ExactScene()
    for i in range(rng.randint(1, 3)):
        frame = rational_frame(rng, qmax=2)
        heron_scene(rng, es, frame, (F(150 * i), F(0), F(0)), fold_prob=0.4)
    es.clear(top=rng.randint(1, 6))
    geos = geos_of(es)
    casts = []
    tries = 0
    while len(casts) < n:
        tries += 1
        if tries > 50 * n + 100:
            raise RuntimeError("scene_graze: too many inexact tries")
        try:
            p0, p1, r, tag = graze_cast(rng, rng.choice(geos))
            casts.append((evec(p0), evec(p1), float(r), tag))
        except NotExact:
            continue
    return es.builder(), casts


# -- thousands of triangles at one vertex ------------------------------------

def scene_many_fan(rng, n):
    """Fans, cones and funnels of 300 to 3000 triangles around one apex:
    points and balls dropped exactly onto it (thousands of ties)."""
    k = rng.choice((300, 512, 1000, 1500, 2048, 3000))
    mb = MeshBuilder()
    apex = (dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3))
    h = rng.choice((F(0), dyadic(rng, F(1, 4), 2, 3), -dyadic(rng, F(1, 4), 2, 3)))
    a_id = mb.vertex(apex)
    rim = []
    for i in range(k):
        ang = 2 * math.pi * i / k
        rim.append(mb.vertex((apex[0] + F(round(math.cos(ang) * 2 ** 24), 2 ** 24),
                              apex[1] + F(round(math.sin(ang) * 2 ** 24), 2 ** 24), apex[2] - h)))
    rot = rng.randrange(3)
    for i in range(k):
        tri = [a_id, rim[i], rim[(i + 1) % k]]
        mb.face(tri[rot:] + tri[:rot])
    casts = []
    while len(casts) < n:
        if rng.random() < 0.5:
            w = small_int_vec(rng) if rng.random() < 0.5 else (0, 0, 1)
            p0, p1 = through(apex, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), 0.0, "point through the apex of %d" % k))
        else:
            u, q = rational_unit(rng) if rng.random() < 0.5 else ((0, 0, 1), 1)
            r = radius_for(rng, q, -30, 0)
            touch = vadd(apex, vmul(r / q, u))
            w = u if rng.random() < 0.6 else small_int_vec(rng)
            p0, p1 = through(touch, w, *path_lengths(rng))
            try:
                casts.append((evec(p0), evec(p1), exact(r), "ball onto the apex of %d" % k))
            except NotExact:
                continue
    return mb, casts


# -- thin caps, cancelling averages, needles (issue 28) ----------------------

ISSUE_28_CLASSES = ("cap", "cap-closest", "average-fan", "needle-intersect")

# The reproducers of ../shared/exact-found/2026-11-28 (sliver_normal.obj,
# average_cancel.obj, average_near_cancel.obj, intersect_sliver_*.obj): each
# class below takes them as its first scene's mesh, so they run every time.
FOUND_CAP = ((-0.8165054820718729, 0.7251644832866933, 19.482122322724678),
             (-0.8660117400948595, 1.1327437720134903, 20.000907085962915),
             (-0.8486255573875368, 0.989605343367905, 19.81871422712761))
FOUND_CAP_PATH = ((-0.9010965735791623, 0.5559506460010908, 20.070702762126814),
                  (-0.7863319461236837, 1.3423917531109684, 19.463792995083317))

# The sliver limit (man page, Triangles and their front): the sine of the
# smallest angle below 64 eps = 2^-46.  Caps are kept twice above it.
SLIVER_SINE = 2.0 ** -46


def exact_sine(A, B, C):
    """The sine of the smallest angle of triangle ABC (float corners), from
    exact rationals: |N| / (L1 L2) with L1, L2 the two longest sides."""
    A, B, C = fvec(A), fvec(B), fvec(C)
    N = vcross(vsub(B, A), vsub(C, A))
    sides = sorted((vdot(vsub(B, A), vsub(B, A)), vdot(vsub(C, B), vsub(C, B)), vdot(vsub(A, C), vsub(A, C))))
    return math.sqrt(vdot(N, N) / (sides[1] * sides[2]))


def unit_float(v):
    """The float unit vector of a float vector (for directions only)."""
    length = math.sqrt(sum(x * x for x in v))
    return tuple(x / length for x in v)


def cap_corners(rng, offset):
    """A cap: its apex near the middle of its base, every coordinate a full
    53-bit double, the sine of its smallest angle drawn from 10^-13 to 10^-3
    (uniform in the exponent) and kept at least twice the sliver limit;
    corners in a random cyclic order and winding."""
    while True:
        a = tuple(offset[i] + rng.uniform(-1, 1) for i in range(3))
        ab = tuple(rng.uniform(-1, 1) for _ in range(3))
        w = tuple(rng.uniform(-1, 1) for _ in range(3))
        t = sum(w[i] * ab[i] for i in range(3)) / sum(x * x for x in ab)
        w = tuple(w[i] - t * ab[i] for i in range(3))
        lab, lw = math.sqrt(sum(x * x for x in ab)), math.sqrt(sum(x * x for x in w))
        if lab < 0.1 or lw < 0.1:
            continue
        eps = 10 ** rng.uniform(-13, -3)
        u = rng.uniform(0.3, 0.7)
        b = tuple(a[i] + ab[i] for i in range(3))
        c = tuple(a[i] + u * ab[i] + eps * lab * w[i] / lw for i in range(3))
        if exact_sine(a, b, c) < 2 * SLIVER_SINE:
            continue
        corners = [a, b, c]
        k = rng.randrange(3)
        corners = corners[k:] + corners[:k]
        if rng.random() < 0.5:
            corners[1], corners[2] = corners[2], corners[1]
        return tuple(corners)


def cap_casts(rng, corners, n):
    """Casts at a cap: points and balls through its centroid along its
    normal (from the front or the back) or slanted, balls grazing it, points
    through its apex and the middle of its long side."""
    A, B, C = corners
    N = vcross(vsub(fvec(B), fvec(A)), vsub(fvec(C), fvec(A)))
    big = max(abs(x) for x in N)
    nu = unit_float([float(x / big) for x in N])
    G = tuple((A[i] + B[i] + C[i]) / 3 for i in range(3))
    sides = sorted(((A, B), (B, C), (C, A)), key=lambda e: sum((e[0][i] - e[1][i]) ** 2 for i in range(3)))
    longest = sides[2]
    mid = tuple((longest[0][i] + longest[1][i]) / 2 for i in range(3))
    apex = [v for v in corners if v not in longest][0]
    casts = []
    while len(casts) < n:
        kind = rng.random()
        side = 1 if rng.random() < 0.8 else -1
        s, t = rng.uniform(0.1, 2), rng.uniform(0.1, 2)
        if kind < 0.3:
            target, r, tag = G, 0.0, "point through the centroid"
            w = tuple(side * x for x in nu)
        elif kind < 0.45:
            target, r, tag = G, 0.0, "point slanted through the centroid"
            w = unit_float(tuple(side * nu[i] + rng.uniform(-0.7, 0.7) for i in range(3)))
        elif kind < 0.55:
            target, where = rng.choice(((apex, "apex"), (mid, "long side's middle")))
            r, tag = 0.0, "point through the " + where
            w = unit_float(tuple(side * nu[i] + rng.uniform(-0.5, 0.5) for i in range(3)))
        elif kind < 0.85:
            r = 10 ** rng.uniform(-6, -1)
            target, tag = tuple(G[i] + side * r * nu[i] for i in range(3)), "ball onto the centroid"
            w = tuple(side * x for x in nu) if rng.random() < 0.6 else \
                unit_float(tuple(side * nu[i] + rng.uniform(-0.5, 0.5) for i in range(3)))
        else:
            r = 10 ** rng.uniform(-4, -1)
            target, tag = tuple(G[i] + side * r * nu[i] for i in range(3)), "ball grazing the cap"
            w = unit_float(tuple(side * 0.05 * nu[i] + rng.uniform(-1, 1) for i in range(3)))
        p0 = tuple(target[i] + s * w[i] for i in range(3))
        p1 = tuple(target[i] - t * w[i] for i in range(3))
        casts.append((p0, p1, r, tag))
    return casts


def cap_scene(rng, n, found):
    """One to three caps far apart (the reproducer's first, when found), and
    casts at each."""
    mb = MeshBuilder()
    caps = [FOUND_CAP] if found else []
    count = rng.randint(1, 3)
    while len(caps) < count:
        caps.append(cap_corners(rng, (F(8 * len(caps)), F(0), F(0))))
    per = [n // len(caps) + (1 if i < n % len(caps) else 0) for i in range(len(caps))]
    casts = []
    owners = []
    for i, (corners, k) in enumerate(zip(caps, per)):
        mb.face([mb.vertex(F(x) for x in v) for v in corners])
        casts += cap_casts(rng, corners, k)
        owners += [i] * k
    if found:
        casts[0] = FOUND_CAP_PATH + (0.0, "the reproducer's point through the centroid")
        casts[1 % len(casts)] = FOUND_CAP_PATH + (0.001, "the reproducer's ball")
    return mb, casts, owners


def scene_cap(rng, n):
    """Thin caps with full 53-bit coordinates, the sine of the smallest angle
    from 1e-13 to 1e-3 (above the sliver limit 1.4e-14, so they are hit):
    points and balls through them, checked for their normals (1e-9 of a
    radian), points and centres."""
    return cap_scene(rng, n, rng.random() < 0.15)[:2]


def scene_cap_closest(rng, n):
    """closest on thin caps: the points where a cap's own casts cross it (on
    the plane to within rounding), points 2^-60 to 1 over its centroid, and
    points beyond the ends of its long side (clearly in a vertex's region:
    a point over a corner has its foot within rounding of two regions,
    which the man page lets double precision decide)."""
    mb, casts, owners = cap_scene(rng, n, rng.random() < 0.15)
    tris = mb.triangles()
    points = []
    for (p0, p1, r, tag), owner in zip(casts, owners):
        A, B, C = mb.corners(tris[owner])
        A, B, C = [tuple(float(x) for x in v) for v in (A, B, C)]
        N = vcross(vsub(fvec(B), fvec(A)), vsub(fvec(C), fvec(A)))
        big = max(abs(x) for x in N)
        nu = unit_float([float(x / big) for x in N])
        G = tuple((A[i] + B[i] + C[i]) / 3 for i in range(3))
        kind = rng.random()
        if kind < 0.4 and "centroid" in tag and r == 0:
            # Where a cast through the centroid crosses the plane, rounded:
            # the reproducer's point.  (Crossings near an edge are left out:
            # there the edge's normal comes from a difference of rounded
            # points, whose digits a distance of 1e-7 leaves too few.)
            P0, P1 = fvec(p0), fvec(p1)
            den = vdot(N, vsub(P0, P1))
            if den == 0:
                continue
            alpha = vdot(N, vsub(P0, fvec(A))) / den
            q = rvec(vadd(P0, vmul(alpha, vsub(P1, P0))))
            tag = "on the plane, where a cast crosses it"
        elif kind < 0.8:
            h = 2.0 ** rng.uniform(-60, 0) * rng.choice((1, -1))
            q = tuple(G[i] + h * nu[i] for i in range(3))
            tag = "%.2g off the face" % h
        else:
            ends = max(((A, B), (B, C), (C, A)), key=lambda e: sum((e[0][i] - e[1][i]) ** 2 for i in range(3)))
            V = rng.choice(ends)
            s, h = rng.uniform(0.05, 1), rng.uniform(-1, 1)
            q = tuple(V[i] + s * (V[i] - G[i]) + h * nu[i] for i in range(3))
            tag = "beyond an end of the long side"
        points.append((q, 0.0, tag))
    return mb, points


scene_cap_closest.kind = "closest"
scene_cap_closest.no_transform = True


def triangle_with_normal(rng, origin, N, bits=3):
    """A triangle (origin, origin + u, origin + N x u) for an integer vector
    u orthogonal to N: its front normal is |u|^2 N, along N."""
    b1, b2 = plane_basis(N)
    while True:
        u = vadd(vmul(rng.randint(-3, 3), b1), vmul(rng.randint(-3, 3), b2))
        if u != (0, 0, 0):
            break
    v = vcross(N, u)
    s = F(1, 2 ** max(abs(x) for x in u + v).bit_length()) * F(rng.randint(1, 2 ** bits), 2 ** bits)
    return (origin, vadd(origin, vmul(s, u)), vadd(origin, vmul(s, v)))


def signed_permutation(rng):
    """A random signed permutation of the axes, as a function on vectors."""
    axes = [0, 1, 2]
    rng.shuffle(axes)
    signs = [rng.choice((1, -1)) for _ in range(3)]
    return lambda v: tuple(signs[i] * v[axes[i]] for i in range(3))


def average_normals(rng):
    """Integer front normals around one vertex and what their unit sum does:
    cancels exactly (N and -kN; the three (1,1,0), (-1,0,1), (0,-1,-1) under
    a signed permutation; two such pairs) or not (random normals)."""
    kind = rng.random()
    if kind < 0.3:
        N = small_int_vec(rng, 4)
        return [N, vmul(-1, N)], "opposite normals"
    if kind < 0.5:
        P = signed_permutation(rng)
        return [P((1, 1, 0)), P((-1, 0, 1)), P((0, -1, -1))], "three normals 120 degrees apart"
    if kind < 0.65:
        N, M = small_int_vec(rng, 3), small_int_vec(rng, 3)
        normals = [N, vmul(-1, N), M, vmul(-1, M)]
        rng.shuffle(normals)
        return normals, "two opposite pairs"
    return [small_int_vec(rng, 4) for _ in range(rng.randint(2, 5))], "random normals"


def scene_average_fan(rng, n):
    """--normal average over triangles around one vertex, wound both ways:
    flat fans whose triangles face up or down (equal numbers cancel
    exactly), triangles with exactly cancelling normals of different shapes
    (the reproducer average_cancel.obj among them), and two triangles folded
    2^-20 .. 2^-45 from flat, back to back (near cancellation; the
    reproducer average_near_cancel.obj at 2^-27).  Points through the shared
    vertex or edge, from off the plane and (one-sided) in it; balls onto the
    vertex."""
    mb = MeshBuilder()
    O = (dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3))
    kind = rng.random()
    plane = None
    edge = None
    if kind < 0.3:
        # A flat fan wound both ways, in a plane z = const or tilted.
        k = rng.randint(2, 8)
        closed = rng.random() < 0.6
        span = 2 * math.pi if closed else rng.uniform(0.5, 1.8) * math.pi
        ring = k if closed else k + 1
        tilt = (dyadic(rng, -1, 1, 2), dyadic(rng, -1, 1, 2)) if rng.random() < 0.5 else (F(0), F(0))
        a_id = mb.vertex(O)
        rim = []
        for i in range(ring):
            x = F(round(math.cos(span * i / k) * 1024), 1024)
            y = F(round(math.sin(span * i / k) * 1024), 1024)
            rim.append(mb.vertex(vadd(O, (x, y, tilt[0] * x + tilt[1] * y))))
        for i in range(k):
            tri = [a_id, rim[i], rim[(i + 1) % ring]]
            mb.face(tri if rng.random() < 0.5 else [tri[0], tri[2], tri[1]])
        plane = (-tilt[0], -tilt[1], F(1))
        what = "flat fan of %d wound both ways" % k
    elif kind < 0.75:
        normals, what = average_normals(rng)
        if rng.random() < 0.2:
            # The reproducer: (-9,6,-2) and -5/2 of it, different shapes.
            O = (F(0), F(0), F(0))
            normals = None
            for tri in (((0, 0, 0), (2, 6, 9), (6, 7, -6)), ((0, 0, 0), (F(-15, 2), F(-35, 4), F(15, 2)),
                                                              (-4, -12, -18))):
                mb.face([mb.vertex(fvec(v)) for v in tri])
            what = "the reproducer average_cancel.obj"
        else:
            for N in normals:
                A, B, C = triangle_with_normal(rng, O, N)
                corners = [A, B, C]
                k = rng.randrange(3)
                mb.face([mb.vertex(v) for v in corners[k:] + corners[:k]])
    else:
        # Two triangles folded 2^-k from flat, back to back across the edge O E.
        k = rng.randint(20, 45) if rng.random() > 0.2 else 27
        E = vadd(O, (F(1), F(0), F(0)))
        up = vadd(O, (F(1, 2), F(1), F(0)))
        down = vadd(O, (F(1, 2), F(-1), F(2) ** -k))
        P = signed_permutation(rng)
        O, E, up, down = [vadd(O, P(vsub(v, O))) for v in (O, E, up, down)]
        mb.face([mb.vertex(O), mb.vertex(E), mb.vertex(up)])
        mb.face([mb.vertex(O), mb.vertex(E), mb.vertex(down)])
        edge = (O, E)
        what = "two triangles folded 2^-%d from flat" % k
    casts = []
    while len(casts) < n:
        c = rng.random()
        if edge is not None and c < 0.4:
            X = vadd(edge[0], vmul(F(rng.randint(1, 7), 8), vsub(edge[1], edge[0])))
            w = small_int_vec(rng)
            p0, p1 = through(X, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), 0.0, "point through the shared edge (%s)" % what))
        elif plane is not None and c < 0.3:
            b1, b2 = plane_basis(plane)
            w = vadd(vmul(rng.randint(-2, 2), b1), vmul(rng.choice((1, 2)), b2))
            w = shrink(w)
            p0, p1 = through(O, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), 0.0, "point in the plane through the vertex (%s)" % what))
        elif c < 0.8:
            w = small_int_vec(rng)
            p0, p1 = through(O, w, *path_lengths(rng))
            casts.append((evec(p0), evec(p1), 0.0, "point through the vertex (%s)" % what))
        else:
            u, q = rational_unit(rng)
            r = radius_for(rng, q, -30, 0)
            touch = vadd(O, vmul(r / q, u))
            w = u if rng.random() < 0.6 else small_int_vec(rng)
            p0, p1 = through(touch, w, *path_lengths(rng))
            try:
                casts.append((evec(p0), evec(p1), exact(r), "ball onto the vertex (%s)" % what))
            except NotExact:
                continue
    two_sided = plane is None or rng.random() < 0.7
    return mb, casts, {"normal": "average", "two_sided": two_sided}


def scene_needle_intersect(rng, n):
    """intersect: one to three big triangles (mesh a) and n needles and caps
    (mesh b) of widths 2^-20 to 2^-62 of their length: through a big
    triangle's interior, ending exactly on it, lying in its plane, passing
    beside it, and exactly collinear ones (the only triangles skipped); the
    reproducer intersect_sliver_b.obj among them."""
    a = MeshBuilder()
    bigs = []
    for i in range(rng.randint(1, 3)):
        z = F(rng.randint(-4, 4), 4)
        o = (F(16 * i), F(0), z)
        if rng.random() < 0.5:
            tri = (vadd(o, (-1, -1, 0)), vadd(o, (3, -1, 0)), vadd(o, (-1, 3, 0)))
        else:
            tri = (vadd(o, (-1, -1, dyadic(rng, -1, 1, 4))), vadd(o, (3, -1, dyadic(rng, -1, 1, 4))),
                   vadd(o, (-1, 3, dyadic(rng, -1, 1, 4))))
        if rng.random() < 0.5:
            tri = (tri[0], tri[2], tri[1])
        a.face([a.vertex(v) for v in tri])
        bigs.append(tri)
    b = MeshBuilder()
    tags = []
    while len(tags) < n:
        T = rng.choice(bigs)
        k = rng.randint(20, 62)
        width = F(2) ** -k
        u, v = F(rng.randint(1, 7), 16), F(rng.randint(1, 7), 16)
        X = vadd(T[0], vadd(vmul(u, vsub(T[1], T[0])), vmul(v, vsub(T[2], T[0]))))
        NT = front_normal(*T)
        kind = rng.random()
        if kind < 0.35:
            # Upright through X (X on the plane, exactly: dyadic).
            d = vadd(vmul(F(1, max(abs(x) for x in NT)), NT), (dyadic(rng, -1, 1, 3), dyadic(rng, -1, 1, 3), F(0)))
            lo, hi = vsub(X, vmul(dyadic(rng, F(1, 8), 1, 3), d)), vadd(X, vmul(dyadic(rng, F(1, 8), 1, 3), d))
            side = small_int_vec(rng)
            tri = (lo, hi, vadd(hi, vmul(width, side))) if rng.random() < 0.5 else \
                  (lo, vadd(vmul(F(1, 2), vadd(lo, hi)), vmul(width, side)), hi)
            tag = "needle through the interior, width 2^-%d" % k
        elif kind < 0.5:
            # Ending exactly on the plane at X (touching).
            d = vmul(F(1, max(abs(x) for x in NT)), NT)
            top = vadd(X, vmul(dyadic(rng, F(1, 8), 1, 3), d))
            tri = (X, top, vadd(top, vmul(width, small_int_vec(rng))))
            tag = "needle standing on the triangle, width 2^-%d" % k
        elif kind < 0.65:
            # In the plane: from X outwards, or inside.
            e = vsub(T[1], T[0])
            far = vadd(X, vmul(dyadic(rng, F(1, 8), 2, 3), e))
            off = vcross(NT, e)
            tri = (X, far, vadd(far, vmul(width / max(abs(x) for x in off), off)))
            tag = "needle in the triangle's plane, width 2^-%d" % k
        elif kind < 0.8:
            # Beside an edge, just off it in the plane, upright.
            E0, E1 = rng.choice(((T[0], T[1]), (T[1], T[2]), (T[2], T[0])))
            M = vadd(E0, vmul(F(1, 2), vsub(E1, E0)))
            out = vcross(vsub(E1, E0), NT)
            M = vadd(M, vmul(F(rng.choice((-1, 0, 1))) * width / max(abs(x) for x in out), out))
            d = vmul(F(1, max(abs(x) for x in NT)), NT)
            tri = (vsub(M, d), vadd(M, d), vadd(vadd(M, d), vmul(width, vsub(E1, E0))))
            tag = "needle at an edge, width 2^-%d" % k
        elif kind < 0.9:
            # A cap (apex near its base's middle) through X.
            d = vmul(F(1, max(abs(x) for x in NT)), NT)
            lo, hi = vsub(X, d), vadd(X, vmul(F(1, 2), d))
            mid = vadd(vmul(F(1, 2), vadd(lo, hi)), vmul(width, small_int_vec(rng)))
            tri = (lo, hi, mid)
            tag = "cap through the interior, width 2^-%d" % k
        else:
            # Exactly collinear: skipped.
            d = vmul(F(1, max(abs(x) for x in NT)), NT)
            tri = (vsub(X, d), X, vadd(X, vmul(F(1, 2), d)))
            tag = "collinear (zero area)"
        try:
            ids = [b.vertex(evec(v)) for v in tri]
        except NotExact:
            continue
        b.faces.append(ids if rng.random() < 0.5 else [ids[0], ids[2], ids[1]])
        tags.append(tag)
    if rng.random() < 0.15:
        # The reproducer intersect_sliver: a needle 2^-60 wide through (0, 0.5, 0).
        a.faces = []
        a.verts = []
        a.face([a.vertex(v) for v in ((-1, -1, 0), (3, -1, 0), (-1, 3, 0))])
        b.verts[:3] = [fvec(v) for v in ((0, 0.5, -1), (0, 0.5, 1), (8.673617379884035e-19, 0.5, 1))]
        b.faces[0] = [0, 1, 2]
        tags[0] = "the reproducer intersect_sliver_b.obj"
    return a, [(i, tag) for i, tag in enumerate(tags)], {"mesh_b": b}


scene_needle_intersect.kind = "intersect"
scene_needle_intersect.no_transform = True


# -- scenes of other classes moved to the extremes ---------------------------

EXTREME_BASES = ("frame-heron", "cross-tie", "tie-window", "thin", "graze", "ball-tangent", "ball-drop", "ball-parallel",
                 "point-edge", "point-vertex", "point-coplanar", "ball-start-touch", "fan-apex")


def base_scene(rng, n, names):
    """A scene of one of the named classes (vertices as Fractions)."""
    name = rng.choice(names)
    mb, casts = CLASSES[name][0](rng, n)
    return name, mb, casts


def scaled_scene(mb, casts, k, offset):
    """mb and casts scaled by 2^k and moved by offset; NotExact if any number
    would round."""
    s = F(2) ** k
    verts = [evec(vadd(vmul(s, v), offset)) for v in mb.verts]
    out = []
    for p0, p1, r, tag in casts:
        out.append((evec(vadd(vmul(s, fvec(p0)), offset)), evec(vadd(vmul(s, fvec(p1)), offset)),
                    exact(s * F(r)), tag))
    return verts, out


# (share, lowest k, highest k): tiny (products of coordinates subnormal),
# very small, small (products of six coordinates underflow), large, at the
# 1e50 limit.
EXTREME_BANDS = [(0.15, -1070, -900), (0.2, -600, -300), (0.25, -300, -150), (0.25, 100, 155),
                 (0.15, 158, 168)]


def scene_extreme_scale(rng, n):
    """A scene of another class scaled by 2^k with k from -1070 (subnormal
    coordinates) to +168 (near the 1e50 limit, some numbers beyond it:
    record errors and triangles never hit), sometimes moved by an offset
    2^20 to 2^45 times its size: every number exact.  Products of several
    coordinate differences underflow at the small scales: a filter must
    not read them as exact zeros."""
    name, mb, casts = base_scene(rng, n, EXTREME_BASES)
    x = rng.random()
    for share, lo, hi in EXTREME_BANDS:
        if x < share:
            break
        x -= share
    k = rng.randint(lo, hi)
    zero = (F(0), F(0), F(0))
    for attempt in range(60):
        try:
            verts, out = scaled_scene(mb, casts, k, zero)
            break
        except NotExact:
            k += 8 if k < 0 else -8
    else:
        raise NotExact("extreme scale")
    offset = zero
    if rng.random() < 0.4:
        big = rng.randint(20, 45)
        offset = tuple(F(rng.randint(-2 ** big, 2 ** big)) * F(2) ** k for _ in range(3))
        while offset != zero:
            try:
                verts, out = scaled_scene(mb, casts, k, offset)
                break
            except NotExact:
                # Towards zero: floor kept a negative offset at -2^k forever
                # (seed 2 hung at extreme-scale#19).
                offset = tuple(F(math.trunc(x / 2 ** 6 / F(2) ** k)) * F(2) ** k for x in offset)
                if all(x == 0 for x in offset):
                    offset = zero
    mb2 = MeshBuilder()
    mb2.verts = [fvec(v) for v in verts]
    mb2.faces = mb.faces
    out = [(p0, p1, r, "%s: %s, x2^%d%s" % (name, tag, k, " moved" if offset != zero else ""))
           for p0, p1, r, tag in out]
    return mb2, out


scene_extreme_scale.no_transform = True


def scene_mirror(rng, n):
    """A scene of another class under one of the 47 signed axis permutations
    other than the identity (reflections turn fronts into backs; zeros
    become -0.0 where negated)."""
    # The issue-28 classes stay out: closest and intersect scenes have no
    # trajectories, and leaving them out keeps this class's scenes as they were.
    names = [c for c in CLASSES if c not in ("mirror", "extreme-scale", "many-fan") + ISSUE_28_CLASSES]
    name, mb, casts = base_scene(rng, n, names)
    while True:
        perm = [0, 1, 2]
        rng.shuffle(perm)
        signs = [rng.choice((-1, 1)) for _ in range(3)]
        if perm != [0, 1, 2] or signs != [1, 1, 1]:
            break

    def m(v):
        return tuple(signs[i] * v[perm[i]] for i in range(3))

    def mf(v):
        # floats, so that -0.0 appears where a zero is negated
        return tuple(signs[i] * float(v[perm[i]]) for i in range(3))

    mb2 = MeshBuilder()
    mb2.verts = [m(v) for v in mb.verts]
    mb2.faces = mb.faces
    mb2.float_vertices = lambda: [mf(v) for v in mb.verts]
    out = [(mf(p0), mf(p1), r, "%s: %s, axes %s signs %s" % (name, tag, perm, signs)) for p0, p1, r, tag in casts]
    return mb2, out


scene_mirror.no_transform = True


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
    # audit classes
    "frame-heron": (scene_frame_heron, 200, 6),
    "duplicates": (scene_duplicates, 200, 4),
    "thin": (scene_thin, 200, 4),
    "cross-tie": (scene_cross_tie, 100, 4),
    "tie-window": (scene_tie_window, 100, 4),
    "long-short": (scene_long_short, 200, 3),
    "huge-ball": (scene_huge_ball, 200, 3),
    "extreme-scale": (scene_extreme_scale, 100, 4),
    "mirror": (scene_mirror, 200, 3),
    "many-fan": (scene_many_fan, 6, 0.06),
    "graze": (scene_graze, 200, 2),
    # issue 28
    "cap": (scene_cap, 200, 3),
    "cap-closest": (scene_cap_closest, 200, 1),
    "average-fan": (scene_average_fan, 50, 2),
    "needle-intersect": (scene_needle_intersect, 40, 1),
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
        made_scene = gen(rng, n)
        mb, casts = made_scene[:2]
        extra = made_scene[2] if len(made_scene) > 2 else {}
        vertices = mb.float_vertices()
        desc = ""
        if not getattr(gen, "no_transform", False):
            vertices, casts, desc = maybe_transform(rng, vertices, casts)
        options = dict(OPTION_SETS[(index + seed) % len(OPTION_SETS)])   # every set in turn
        options.update({k: v for k, v in extra.items() if k in ("normal", "two_sided")})
        name = "%s#%d%s" % (cls, index, desc)
        mesh_b = None
        if "mesh_b" in extra:
            mesh_b = (extra["mesh_b"].float_vertices(), [list(f) for f in extra["mesh_b"].faces])
        yield Scene(cls, name, vertices, [list(f) for f in mb.faces], casts, options,
                    getattr(gen, "kind", "cast"), mesh_b)
        made += n
        index += 1


def split_count(total, only=None):
    """The number of trajectories of each class for a total (by share)."""
    names = [only] if only else list(CLASSES)
    weights = [CLASSES[c][2] for c in names]
    out = {}
    left = total
    for i, c in enumerate(names):
        k = int(total * weights[i] // sum(weights)) if i < len(names) - 1 else left
        out[c] = k
        left -= k
    return out
