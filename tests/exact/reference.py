"""Exact reference answers for `ballcast cast`.

Written from the semantics in man/ballcast.1 (DESCRIPTION: Contact, Ties,
Initial overlap, Normals) and tests/exact/README.md, never from the C code.
Every decision -- which triangles count, whether and where a ball touches,
which contact comes first, which contacts tie -- is made in exact arithmetic:

  * Inputs are IEEE doubles, read exactly: every double is an integer times a
    power of two, so a mesh and a trajectory are scaled by one common power of
    two 2^e and become Python integers (the answer does not change under a
    uniform scaling: alpha is a ratio).
  * The alphas that occur are roots of linear or quadratic equations with
    integer coefficients, so each is an exact number (a + b*sqrt(c)) / d with
    integers a, b, c >= 0, d > 0 (class Alg).  Signs and comparisons of such
    numbers are decided exactly by squaring.
  * Floats only appear at the very end, for the reported normal, point and
    centre, computed from a 200-bit approximation of alpha (exact when alpha
    is rational, which it always is for r = 0).

Public entry points: Mesh(vertices, faces), cast(mesh, p0, p1, r, ...) ->
Answer.  See test_reference.py for hand-computed examples.
"""

import math
from fractions import Fraction

# The tie tolerance: the C double 1e-10, read exactly.
TIE_TOLERANCE = Fraction(1e-10)
# Contacts whose alpha lies within this band of the tie window's edge are
# decided by rounding, legitimately: such casts are "ambiguous".  The band is
# the man page's accuracy (Exactness), twice over (the contact's alpha and
# alpha_min each carry it) with room for the rounding of alpha_min + 1e-10:
# for r = 0 alpha is correctly rounded (half an ulp, at most 2^-54 below 1),
# so 2^-50; for r > 0 alpha is within 2^-40, so 2^-38.  (It used to be 1e-16
# for every r, narrower than the documented 2^-40 of a ball's alpha.)
AMBIGUITY_BAND_POINT = Fraction(1, 2**50)
AMBIGUITY_BAND_BALL = Fraction(1, 2**38)

# Coordinates and radii up to this magnitude are answered (man page,
# Exactness): a trajectory beyond it is a record error, and a triangle with a
# vertex beyond it is never hit.
MAX_COORDINATE = 1e50

# The seven contact slots of a triangle, in tie-break order, with their
# feature name and the triangle corners (0 = A, 1 = B, 2 = C) they are made of.
SLOTS = ("face", "edge AB", "edge BC", "edge CA", "vertex A", "vertex B", "vertex C")
SLOT_FEATURE = ("face", "edge", "edge", "edge", "vertex", "vertex", "vertex")
SLOT_CORNERS = ((0, 1, 2), (0, 1), (1, 2), (2, 0), (0,), (1,), (2,))
FACE, EDGE_AB, EDGE_BC, EDGE_CA, VERTEX_A, VERTEX_B, VERTEX_C = range(7)
EDGE_SLOTS = ((EDGE_AB, 0, 1), (EDGE_BC, 1, 2), (EDGE_CA, 2, 0))

# Bits of the approximation of an irrational alpha used for reporting.
APPROX_BITS = 200


# ---------------------------------------------------------------------------
# Exact numbers (a + b*sqrt(c)) / d
# ---------------------------------------------------------------------------

def sign(x):
    """-1, 0 or 1."""
    return (x > 0) - (x < 0)


def sign_a_plus_b_sqrt_c(a, b, c):
    """The exact sign of a + b*sqrt(c) (integers, c >= 0), by squaring."""
    sa = sign(a)
    sb = sign(b) if c else 0
    if sb == 0:
        return sa
    if sa == 0 or sa == sb:
        return sb
    # Opposite signs: the term of larger magnitude wins.
    return sa * sign(a * a - b * b * c)


def sign_a_plus_b_sqrt_c_plus_e_sqrt_f(a, b, c, e, f):
    """The exact sign of a + b*sqrt(c) + e*sqrt(f) (integers, c, f >= 0)."""
    su = sign_a_plus_b_sqrt_c(a, b, c)           # u = a + b*sqrt(c)
    sv = sign(e) if f else 0                     # v = e*sqrt(f)
    if sv == 0:
        return su
    if su == 0 or su == sv:
        return sv
    # Opposite signs: compare u^2 = a^2 + b^2 c + 2ab*sqrt(c) with v^2 = e^2 f.
    return su * sign_a_plus_b_sqrt_c(a * a + b * b * c - e * e * f, 2 * a * b, c)


class Alg:
    """The exact real number (a + b*sqrt(c)) / d, integers, c >= 0, d > 0.

    Rational numbers have b = c = 0.  A perfect-square c is folded into a."""

    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a, b=0, c=0, d=1):
        if d == 0:
            raise ZeroDivisionError("Alg with denominator 0")
        if d < 0:
            a, b, d = -a, -b, -d
        if b == 0 or c == 0:
            b, c = 0, 0
        else:
            s = math.isqrt(c)
            if s * s == c:
                a, b, c = a + b * s, 0, 0
        self.a, self.b, self.c, self.d = a, b, c, d

    @staticmethod
    def rational(q):
        """An Alg from an int or a Fraction."""
        q = Fraction(q)
        return Alg(q.numerator, 0, 0, q.denominator)

    def is_rational(self):
        return self.b == 0

    def fraction(self, bits=APPROX_BITS):
        """The value as a Fraction: exact when rational, else within
        2^-bits relative (sqrt(c) rounded down at 2^-bits of its size)."""
        if self.b == 0:
            return Fraction(self.a, self.d)
        # sqrt(c) ~ isqrt(c * 4^k) / 2^k with k so that the error is tiny.
        k = bits + max(0, (self.c.bit_length() // 2))
        root = math.isqrt(self.c << (2 * k))
        return Fraction(self.a * (1 << k) + self.b * root, self.d << k)

    def __float__(self):
        return float(self.fraction())

    def plus_rational(self, q):
        """self + q for a Fraction q, exactly."""
        q = Fraction(q)
        return Alg(self.a * q.denominator + q.numerator * self.d,
                   self.b * q.denominator, self.c, self.d * q.denominator)

    def __repr__(self):
        if self.b == 0:
            return "Alg(%d/%d)" % (self.a, self.d)
        return "Alg((%d + %d*sqrt(%d))/%d)" % (self.a, self.b, self.c, self.d)


def compare(x, y):
    """-1, 0 or 1 as x <, =, > y, exactly (x, y: Alg)."""
    # x - y = (a1 d2 - a2 d1 + b1 d2 sqrt(c1) - b2 d1 sqrt(c2)) / (d1 d2)
    a = x.a * y.d - y.a * x.d
    b = x.b * y.d
    e = -y.b * x.d
    if x.c == y.c or e == 0 or b == 0:
        if e == 0:
            return sign_a_plus_b_sqrt_c(a, b, x.c)
        if b == 0:
            return sign_a_plus_b_sqrt_c(a, e, y.c)
        return sign_a_plus_b_sqrt_c(a, b + e, x.c)
    return sign_a_plus_b_sqrt_c_plus_e_sqrt_f(a, b, x.c, e, y.c)


ZERO = Alg(0)
ONE = Alg(1)


def alg_max(*xs):
    best = xs[0]
    for x in xs[1:]:
        if compare(x, best) > 0:
            best = x
    return best


def alg_min(*xs):
    best = xs[0]
    for x in xs[1:]:
        if compare(x, best) < 0:
            best = x
    return best


# ---------------------------------------------------------------------------
# Integer vectors
# ---------------------------------------------------------------------------

def sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def add(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def scale(k, u):
    return (k * u[0], k * u[1], k * u[2])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0])


# ---------------------------------------------------------------------------
# Reading doubles exactly
# ---------------------------------------------------------------------------

def exponent_of(x):
    """The smallest e >= 0 such that x * 2^e is an integer (x a finite double)."""
    den = x.as_integer_ratio()[1]           # a power of two
    return den.bit_length() - 1


def scaled_int(x, e):
    """x * 2^e as an exact int (requires e >= exponent_of(x))."""
    num, den = x.as_integer_ratio()
    return (num << e) // den


class Mesh:
    """A triangle mesh: vertices (x, y, z) as floats, faces as lists of 0-based
    vertex ids (polygons are fan-triangulated)."""

    def __init__(self, vertices, faces):
        self.vertices = [tuple(float(c) for c in v) for v in vertices]
        # Triangles (ia, ib, ic) and the face each came from.
        self.triangles = []
        self.face_of = []
        for f_index, face in enumerate(faces):
            for k in range(1, len(face) - 1):
                self.triangles.append((face[0], face[k], face[k + 1]))
                self.face_of.append(f_index)
        self.exponent = max((exponent_of(c) for v in self.vertices for c in v), default=0)
        self._at = {}                          # exponent -> _ScaledMesh
        self.size = _extent(self.vertices)

    def at(self, e):
        """The mesh scaled by 2^e (e >= self.exponent), cached."""
        s = self._at.get(e)
        if s is None:
            s = self._at[e] = _ScaledMesh(self, e)
        return s


def _extent(points):
    """The largest side of the bounding box of points (0 for none)."""
    if not points:
        return 0.0
    return max(max(p[i] for p in points) - min(p[i] for p in points) for i in range(3))


class _ScaledMesh:
    """Integer vertices (mesh scaled by 2^e), per-triangle bounding boxes,
    normals and the degenerate flag."""

    def __init__(self, mesh, e):
        self.verts = [tuple(scaled_int(c, e) for c in v) for v in mesh.vertices]
        far = [any(abs(c) > MAX_COORDINATE for c in v) for v in mesh.vertices]
        self.tris = []      # (A, B, C, N, NN, lo, hi, never hit: degenerate or beyond range)
        for ia, ib, ic in mesh.triangles:
            A, B, C = self.verts[ia], self.verts[ib], self.verts[ic]
            N = cross(sub(B, A), sub(C, A))
            NN = dot(N, N)
            lo = tuple(min(A[i], B[i], C[i]) for i in range(3))
            hi = tuple(max(A[i], B[i], C[i]) for i in range(3))
            self.tris.append((A, B, C, N, NN, lo, hi,
                              is_degenerate(A, B, C, N, e) or far[ia] or far[ib] or far[ic]))


def is_degenerate(A, B, C, N, e=None):
    """Zero area, too small for double precision, or a sliver: the sine of
    the smallest angle below 64 eps (2^-46).  Too small: |N| below 2^-1022,
    the smallest normal double (N is in units of 2^-2e when the vertices
    are scaled by 2^e).  The smallest angle lies between the two longest
    sides, whose lengths L1, L2 give sin = |N| / (L1 L2): degenerate when
    |N|^2 < 2^-92 L1^2 L2^2."""
    NN = dot(N, N)
    if NN == 0:
        return True
    if e is not None and 4 * e > 2044 and NN < 1 << (4 * e - 2044):
        return True
    sides = sorted((dot(sub(B, A), sub(B, A)), dot(sub(C, B), sub(C, B)), dot(sub(A, C), sub(A, C))))
    return (NN << 92) < sides[1] * sides[2]


# ---------------------------------------------------------------------------
# Contacts of one triangle
# ---------------------------------------------------------------------------

class Contact:
    """One (triangle, slot) contact at an exact alpha.  For an alpha-0 contact
    from the initial test, `closest` is the exact closest point of the
    triangle to p0 as (X, Y, Z, den) and `overlap` tells dist < r."""

    __slots__ = ("tri", "slot", "alpha", "overlap", "closest")

    def __init__(self, tri, slot, alpha, overlap=False, closest=None):
        self.tri, self.slot, self.alpha = tri, slot, alpha
        self.overlap, self.closest = overlap, closest

    def __repr__(self):
        return "Contact(%d, %s, %r%s)" % (self.tri, SLOTS[self.slot], self.alpha,
                                          ", overlap" if self.overlap else "")


def counted(nd, approach, two_sided):
    """The front-face rule, from the exact sign of N.d."""
    if two_sided:
        return True
    return nd < 0 if approach == "lt" else nd <= 0


def closest_point(P, A, B, C, N, NN):
    """The exact closest point of the closed triangle ABC to P, as
    (X, Y, Z, den), den > 0, the point being (X, Y, Z) / den.

    If the orthogonal projection of P onto the plane lies in the closed
    triangle it is the answer; otherwise the closest point lies on the
    boundary: the nearest of the closest points of the three closed sides."""
    if inside_closed(P, A, B, C, N):
        h = dot(N, sub(P, A))
        q = sub(scale(NN, P), scale(h, N))
        return (q[0], q[1], q[2], NN)
    best = None
    for E0, E1 in ((A, B), (B, C), (C, A)):
        q = closest_on_segment(P, E0, E1)
        d2 = dist2_to_rational(P, q)
        if best is None or d2 < best[0]:
            best = (d2, q)
    return best[1]


def inside_closed(P, A, B, C, N):
    """Whether the orthogonal projection of P onto the plane of ABC lies in the
    closed triangle: P is on the inner side (or on) each edge line.  The sign
    of ((E1 - E0) x (P - E0)) . N does not change when P moves along N."""
    for E0, E1 in ((A, B), (B, C), (C, A)):
        if dot(cross(sub(E1, E0), sub(P, E0)), N) < 0:
            return False
    return True


def closest_on_segment(P, E0, E1):
    """The exact closest point of the closed segment E0E1 to P, (X, Y, Z, den)."""
    e = sub(E1, E0)
    ee = dot(e, e)
    t = dot(sub(P, E0), e)          # the parameter is t / ee
    if t <= 0:
        return (E0[0], E0[1], E0[2], 1)
    if t >= ee:
        return (E1[0], E1[1], E1[2], 1)
    q = add(scale(ee, E0), scale(t, e))
    return (q[0], q[1], q[2], ee)


def dist2_to_rational(P, q):
    """|P - q|^2 as a Fraction, q = (X, Y, Z, den)."""
    den = q[3]
    diff = (P[0] * den - q[0], P[1] * den - q[1], P[2] * den - q[2])
    return Fraction(dot(diff, diff), den * den)


def feature_of_point(q, A, B, C):
    """The slot of the closest point q (exactly on the triangle): a vertex if
    q is one, else the edge it lies on, else the face."""
    X = (q[0], q[1], q[2])
    den = q[3]
    for slot, V in ((VERTEX_A, A), (VERTEX_B, B), (VERTEX_C, C)):
        if X == scale(den, V):
            return slot
    for slot, E0, E1 in ((EDGE_AB, A, B), (EDGE_BC, B, C), (EDGE_CA, C, A)):
        if cross(sub(X, scale(den, E0)), sub(E1, E0)) == (0, 0, 0):
            return slot
    return FACE


def face_entry(P0, D, R, A, B, C, N, NN, nd):
    """The alpha at which the centre crosses the plane pushed out by r towards
    the ball, inside the closed triangle; None if not in [0, 1] or outside.

    Plane: N.(x - A) = sigma r |N|, sigma = +1 if N.d < 0 else -1, so
    alpha = (sigma r sqrt(NN) - N.(p0 - A)) / (N.d)."""
    if nd == 0:
        return None
    sigma = 1 if nd < 0 else -1
    alpha = Alg(-dot(N, sub(P0, A)), sigma * R, NN, nd)
    if compare(alpha, ZERO) < 0 or compare(alpha, ONE) > 0:
        return None
    # Inside test at c(alpha): s(alpha) = u + v alpha >= 0 for each edge,
    # u = (e x (p0 - E0)).N, v = (e x d).N; with alpha = (a + b sqrt(c)) / d,
    # sign(s) = sign(u d + v a + v b sqrt(c)).
    for E0, E1 in ((A, B), (B, C), (C, A)):
        e = sub(E1, E0)
        u = dot(cross(e, sub(P0, E0)), N)
        v = dot(cross(e, D), N)
        if sign_a_plus_b_sqrt_c(u * alpha.d + v * alpha.a, v * alpha.b, alpha.c) < 0:
            return None
    return alpha


def edge_entry(P0, D, R2, E0, E1):
    """The start of {alpha in [0, 1] : c(alpha) in the clipped cylinder}, the
    piece {x : dist(x, line E0E1) <= r, 0 <= t(x) <= 1}; None if empty.

    Cylinder: |m x e + alpha d x e|^2 <= r^2 |e|^2 with m = p0 - E0, e = E1 - E0,
    a quadratic a alpha^2 + 2 b alpha + c <= 0.
    Slab: 0 <= m.e + alpha d.e <= e.e."""
    e = sub(E1, E0)
    m = sub(P0, E0)
    ee = dot(e, e)
    mxe = cross(m, e)
    dxe = cross(D, e)
    a = dot(dxe, dxe)
    b = dot(mxe, dxe)
    c = dot(mxe, mxe) - R2 * ee
    lo, hi = ZERO, ONE
    if a == 0:                          # path parallel to the edge
        if c > 0:
            return None
    else:
        disc = b * b - a * c
        if disc < 0:
            return None
        lo = alg_max(lo, Alg(-b, -1, disc, a))
        hi = alg_min(hi, Alg(-b, 1, disc, a))
    me = dot(m, e)
    de = dot(D, e)
    if de == 0:                         # t constant along the path
        if me < 0 or me > ee:
            return None
    else:
        t0 = Alg(-me, 0, 0, de)         # t = 0
        t1 = Alg(ee - me, 0, 0, de)     # t = 1
        if compare(t0, t1) > 0:
            t0, t1 = t1, t0
        lo = alg_max(lo, t0)
        hi = alg_min(hi, t1)
    if compare(lo, hi) > 0:
        return None
    return lo


def vertex_entry(P0, D, R2, V):
    """The smaller root of |p0 + alpha d - V|^2 = r^2 if in [0, 1] (a double
    root counts), else None.  Called only when |p0 - V| > r."""
    m = sub(P0, V)
    a = dot(D, D)
    if a == 0:
        return None
    b = dot(m, D)
    c = dot(m, m) - R2
    disc = b * b - a * c
    if disc < 0:
        return None
    root = Alg(-b, -1, disc, a)
    if compare(root, ZERO) < 0 or compare(root, ONE) > 0:
        return None
    return root


def triangle_contacts(index, tri, P0, D, R, R2, overlap_mode):
    """The contacts a counted, non-degenerate triangle offers (list)."""
    A, B, C, N, NN = tri[0], tri[1], tri[2], tri[3], tri[4]
    # Initial contact: dist(p0, T) <= r.  The plane distance bounds it below,
    # so only when (N.(p0 - A))^2 <= r^2 NN is the exact closest point needed.
    h = dot(N, sub(P0, A))
    if h * h <= R2 * NN:
        q = closest_point(P0, A, B, C, N, NN)
        d2 = dist2_to_rational(P0, q)
        if d2 <= R2:
            overlap = d2 < R2
            if overlap and overlap_mode == "ignore":
                return []
            return [Contact(index, feature_of_point(q, A, B, C), ZERO, overlap, q)]
    contacts = []
    nd = dot(N, D)
    alpha = face_entry(P0, D, R, A, B, C, N, NN, nd)
    if alpha is not None:
        contacts.append(Contact(index, FACE, alpha))
    corners = (A, B, C)
    for slot, i, j in EDGE_SLOTS:
        alpha = edge_entry(P0, D, R2, corners[i], corners[j])
        if alpha is not None:
            contacts.append(Contact(index, slot, alpha))
    for k in range(3):
        alpha = vertex_entry(P0, D, R2, corners[k])
        if alpha is not None:
            contacts.append(Contact(index, VERTEX_A + k, alpha))
    return contacts


# ---------------------------------------------------------------------------
# The answer
# ---------------------------------------------------------------------------

class Answer:
    """The exact answer to one cast.

    state       "miss", "hit", "initial_overlap" or "error" (a coordinate
                or the radius beyond MAX_COORDINATE)
    triangle    the chosen triangle (-1 for a miss); face: its OBJ face
    slot        its slot (0..6), feature "face"/"edge"/"vertex", vertices (ids)
    alpha       exact Alg (ONE for a miss); alpha_float its nearest double
    ties        [(triangle, slot, alpha Alg)] by triangle then slot
    normal, point, center, triangle_normal: floats (None for a miss)
    ambiguous   True when some contact sits within the ambiguity band of the
                tie window's edge (rounding may legitimately decide)
    r_zero      r == 0
    p0, p1, r   the cast, as given
    touch_motion for an alpha-0 contact at distance exactly r > 0: "in",
                "along" or "away", the sign of d.(p0 - closest point); None
                otherwise (only to label failures: the semantics does not
                look at it)
    """

    def __init__(self):
        self.state = "miss"
        self.triangle = -1
        self.face = None
        self.slot = None
        self.feature = None
        self.vertices = None
        self.alpha = ONE
        self.ties = []
        self.normal = self.point = self.center = self.triangle_normal = None
        self.ambiguous = False
        self.r_zero = False
        self.touch_motion = None

    @property
    def alpha_float(self):
        return float(self.alpha)


def cast(mesh, p0, p1, r, approach="le", two_sided=False, initial_overlap="report", normal="contact"):
    """The exact answer for a ball of radius r moving from p0 to p1.  normal
    says what the answer's normal holds (man page, --normal): the contact
    normal, the named triangle's front normal, or the average of the front
    normals of the tied triangles (average_normal)."""
    p0 = tuple(float(x) for x in p0)
    p1 = tuple(float(x) for x in p1)
    r = float(r)
    if any(abs(x) > MAX_COORDINATE for x in p0 + p1) or r > MAX_COORDINATE:
        ans = Answer()
        ans.state = "error"
        ans.p0, ans.p1, ans.r = p0, p1, r
        return ans
    e = max([mesh.exponent, exponent_of(r)] + [exponent_of(x) for x in p0 + p1])
    sm = mesh.at(e)
    P0 = tuple(scaled_int(x, e) for x in p0)
    P1 = tuple(scaled_int(x, e) for x in p1)
    R = scaled_int(r, e)
    R2 = R * R
    D = sub(P1, P0)
    # The swept ball's bounding box, exactly.
    lo = tuple(min(P0[i], P1[i]) - R for i in range(3))
    hi = tuple(max(P0[i], P1[i]) + R for i in range(3))

    contacts = []
    for index, tri in enumerate(sm.tris):
        tlo, thi = tri[5], tri[6]
        if (tlo[0] > hi[0] or thi[0] < lo[0] or tlo[1] > hi[1] or thi[1] < lo[1]
                or tlo[2] > hi[2] or thi[2] < lo[2]):
            continue
        if tri[7]:
            continue                                    # degenerate or too far: never hit
        if not counted(dot(tri[3], D), approach, two_sided):
            continue
        contacts.extend(triangle_contacts(index, tri, P0, D, R, R2, initial_overlap))
    ans = _answer(mesh, sm, contacts, P0, D, R, e)
    ans.p0, ans.p1, ans.r = p0, p1, r
    if ans.state in ("hit", "initial_overlap"):
        if normal == "triangle":
            ans.normal = ans.triangle_normal
        elif normal == "average":
            tied = sorted({t for t, _, _ in ans.ties})
            ans.normal = average_normal([sm.tris[t][3] for t in tied], sm.tris[ans.triangle][3])
    return ans


def _answer(mesh, sm, contacts, P0, D, R, e):
    """Choose among the contacts and fill in the reported values."""
    ans = Answer()
    ans.r_zero = R == 0
    if not contacts:
        return ans
    overlaps = [c for c in contacts if c.overlap]
    if overlaps:
        contacts = overlaps
        alpha_min = ZERO
    else:
        alpha_min = alg_min(*[c.alpha for c in contacts])
    window = alpha_min.plus_rational(TIE_TOLERANCE)
    ties = [c for c in contacts if compare(c.alpha, window) <= 0]
    ties.sort(key=lambda c: (c.tri, c.slot))
    ans.ties = [(c.tri, c.slot, c.alpha) for c in ties]
    ans.ambiguous = _near_window_edge(contacts, alpha_min,
                                      AMBIGUITY_BAND_POINT if R == 0 else AMBIGUITY_BAND_BALL)

    best = ties[0]
    ia, ib, ic = mesh.triangles[best.tri]
    ids = (ia, ib, ic)
    ans.state = "initial_overlap" if best.overlap else "hit"
    ans.triangle = best.tri
    ans.face = mesh.face_of[best.tri]
    ans.slot = best.slot
    ans.feature = SLOT_FEATURE[best.slot]
    ans.vertices = [ids[k] for k in SLOT_CORNERS[best.slot]]
    # The earliest contact's alpha, whichever tied contact is named (man
    # page, Ties): alpha_min, the least alpha of the tie set.
    ans.alpha = alpha_min
    _fill_geometry(ans, sm.tris[best.tri], best, P0, D, e)
    # ... and the centre there; point and normal stay the named contact's
    # own (where it touches).
    unit = Fraction(1, 1 << e)
    at = alpha_min.fraction()
    ans.center = [float((Fraction(P0[i]) + at * D[i]) * unit) for i in range(3)]
    if best.closest is not None and not best.overlap and R > 0:
        q = best.closest
        s = sign(dot(D, sub(scale(q[3], P0), q[:3])))
        ans.touch_motion = ("in", "along", "away")[s + 1]
    return ans


def _near_window_edge(contacts, alpha_min, band):
    """Whether some contact's alpha - alpha_min is within the ambiguity band
    around the tie tolerance (decided on 200-bit approximations: the band is
    far wider than their error)."""
    amin = alpha_min.fraction()
    for c in contacts:
        if abs((c.alpha.fraction() - amin) - TIE_TOLERANCE) <= band:
            return True
    return False


def _fill_geometry(ans, tri, contact, P0, D, e):
    """Centre, contact point, contact normal and triangle normal (floats)."""
    A, B, C, N, NN = tri[0], tri[1], tri[2], tri[3], tri[4]
    unit = Fraction(1, 1 << e)
    alpha = contact.alpha.fraction()
    center = [Fraction(P0[i]) + alpha * D[i] for i in range(3)]
    if contact.closest is not None:                     # initial contact
        q = contact.closest
        point = [Fraction(q[i], q[3]) for i in range(3)]
    else:
        point = _feature_point(contact.slot, (A, B, C), N, NN, center)
    nd = dot(N, D)
    n = _normalise([Fraction(N[i]) for i in range(3)])
    ans.triangle_normal = n
    diff = [center[i] - point[i] for i in range(3)]
    if diff == [0, 0, 0]:
        ans.normal = n if nd <= 0 else [-x for x in n]
    else:
        ans.normal = _normalise(diff)
    ans.center = [float(x * unit) for x in center]
    ans.point = [float(x * unit) for x in point]


def _feature_point(slot, corners, N, NN, center):
    """The closest point of the contact's feature to the centre (Fractions):
    the projection onto the plane for the face, the clamped projection onto
    the segment for an edge, the vertex itself."""
    if slot == FACE:
        A = corners[0]
        h = sum(N[i] * (center[i] - A[i]) for i in range(3)) / NN
        return [center[i] - h * N[i] for i in range(3)]
    if slot >= VERTEX_A:
        V = corners[slot - VERTEX_A]
        return [Fraction(V[i]) for i in range(3)]
    E0 = corners[SLOT_CORNERS[slot][0]]
    E1 = corners[SLOT_CORNERS[slot][1]]
    ev = sub(E1, E0)
    t = sum(ev[i] * (center[i] - E0[i]) for i in range(3)) / dot(ev, ev)
    t = min(max(t, Fraction(0)), Fraction(1))
    return [E0[i] + t * ev[i] for i in range(3)]


def _normalise(v):
    """A Fraction vector as a unit float vector (computed after scaling the
    largest component to about 1, so no overflow or underflow)."""
    big = max(abs(x) for x in v)
    w = [float(x / big) for x in v]
    length = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    return [x / length for x in w]


# ---------------------------------------------------------------------------
# --normal average: the sum of exact unit normals, and whether it is zero
# ---------------------------------------------------------------------------

def units_cancel(normals):
    """Whether the exact unit vectors N / |N| of the integer vectors normals
    sum to exactly zero.

    Each |N| = sqrt(q), q = N.N.  Two of them are rational multiples of each
    other exactly when q_i q_j is a perfect square; group the vectors so.
    Within a group with representative q_r, sqrt(q_j) = s_j / sqrt(q_r) with
    the integer s_j = sqrt(q_j q_r), so the group's terms add up to
    sqrt(q_r) * sum(N_j / s_j), a rational vector times one square root.
    Square roots of rationals that are not rational multiples of each other
    are linearly independent over the rationals (Besicovitch), so the whole
    sum is zero exactly when every group's rational sum is."""
    groups = []                      # [q_r, [(N, s)]]
    for N in normals:
        q = dot(N, N)
        for group in groups:
            t = q * group[0]
            s = math.isqrt(t)
            if s * s == t:
                group[1].append((N, s))
                break
        else:
            groups.append([q, [(N, q)]])
    for _, members in groups:
        if any(sum(Fraction(N[i], s) for N, s in members) != 0 for i in range(3)):
            return False
    return True


def unit_sum(normals, bits=200):
    """sum(N / |N|) for integer vectors N, as a Fraction vector within
    2^-(bits - 2) * len(normals) of the exact sum in each component (each
    square root taken as isqrt at 2^-bits of its size), and that bound."""
    total = [Fraction(0)] * 3
    for N in normals:
        q = dot(N, N)
        root = math.isqrt(q << (2 * bits))          # sqrt(q) 2^bits, rounded down
        total = [total[i] + Fraction(N[i] << bits, root) for i in range(3)]
    return total, Fraction(4 * len(normals), 1 << bits)


def average_normal(normals, fallback):
    """--normal average (man page): the sum of the exact unit front normals
    of the tied triangles (integer vectors normals, one per triangle),
    normalised; when they cancel out exactly, the unit of fallback (the hit
    triangle's).  The direction is computed at increasing precision until
    the sum is 2^60 times its error: within 1e-18 of a radian."""
    if units_cancel(normals):
        return _normalise([Fraction(x) for x in fallback])
    bits = 200
    while True:
        total, error = unit_sum(normals, bits)
        if max(abs(x) for x in total) > error * (1 << 60):
            return _normalise(total)
        if bits > 100000:
            raise AssertionError("average_normal: no digits at 100000 bits, yet not exactly zero")
        bits *= 4


# ---------------------------------------------------------------------------
# closest: the exact distance from a point to a mesh
# ---------------------------------------------------------------------------

# The closest command's tie tolerance (man page, CLOSEST): distances within
# 1e-14 (d + L) tie, L the largest absolute coordinate of p and the mesh.
CLOSEST_TIE_TOLERANCE = Fraction(1e-14)


class ClosestAnswer:
    """state "found" or "none"; triangle, face, feature, vertices; distance,
    point, normal (floats); ambiguous when rounding may decide the tie set
    or the normal's rule (distance within rounding of 1e-14 L)."""

    def __init__(self):
        self.state = "none"
        self.triangle = -1
        self.ambiguous = False


def _isqrt_fraction(x, bits=200):
    """sqrt(x) for a Fraction x >= 0, within 2^-bits relative."""
    if x == 0:
        return Fraction(0)
    num, den = x.numerator, x.denominator
    k = bits + max(0, (den.bit_length() - num.bit_length()) // 2 + 2)
    return Fraction(math.isqrt((num << (2 * k)) // den), 1 << k)


def closest(mesh, p):
    """The exact closest point of the mesh's non-degenerate triangles to p
    (man page, CLOSEST): the smallest distance, ties within 1e-14 (d + L) to
    the lowest triangle number; feature by the exact closest point; normal
    the front normal when the distance is at most 1e-14 L, else from the
    point towards p."""
    p = tuple(float(x) for x in p)
    e = max([mesh.exponent] + [exponent_of(x) for x in p])
    sm = mesh.at(e)
    P = tuple(scaled_int(x, e) for x in p)
    unit = Fraction(1, 1 << e)
    found = []                                   # (d2 Fraction in scaled units, index, closest)
    for index, tri in enumerate(sm.tris):
        A, B, C, N, NN = tri[0], tri[1], tri[2], tri[3], tri[4]
        if is_degenerate(A, B, C, N, e):
            continue                              # degenerate: never counted
        q = closest_point(P, A, B, C, N, NN)
        found.append((dist2_to_rational(P, q), index, q))
    ans = ClosestAnswer()
    if not found:
        return ans
    L = Fraction(max([abs(c) for v in mesh.vertices for c in v] + [abs(c) for c in p]))
    dists = [(_isqrt_fraction(d2) * unit, i, q) for d2, i, q in found]
    dmin = min(d for d, _, _ in dists)
    window = dmin + CLOSEST_TIE_TOLERANCE * (dmin + L)
    band = Fraction(1, 10 ** 6) * CLOSEST_TIE_TOLERANCE * (dmin + L)
    tied = [(i, q, d) for d, i, q in dists if d <= window]
    ans.ambiguous = any(abs(d - window) <= band for d, _, _ in dists)
    index, q, d = min(tied)
    A, B, C, N, NN = sm.tris[index][:5]
    ans.state = "found"
    ans.triangle = index
    ans.face = mesh.face_of[index]
    slot = feature_of_point(q, A, B, C)
    ans.feature = SLOT_FEATURE[slot]
    ids = mesh.triangles[index]
    ans.vertices = [ids[k] for k in SLOT_CORNERS[slot]]
    ans.distance = float(d)
    point = [Fraction(q[i], q[3]) for i in range(3)]
    ans.point = [float(x * unit) for x in point]
    n = _normalise([Fraction(x) for x in N])
    on = CLOSEST_TIE_TOLERANCE * L
    if abs(d - on) <= band:
        ans.ambiguous = True
    if d <= on:
        ans.normal = n
    else:
        ans.normal = _normalise([Fraction(P[i]) - point[i] for i in range(3)])
    return ans
