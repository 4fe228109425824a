#!/usr/bin/env python3
"""The groups of balls `balls_run.py` throws at `ballcast balls`, by class:
general position, and the places where floating point goes wrong (starts
exactly touching, exact grazes, points crossing, contacts exactly at
alpha 1, ties, motions 2^-1074 to 2^1000 times the radii, extreme scales).

Every number is a double; where a degeneracy is meant to be exact it is
built with Fractions and checked to be exactly a double (NotExact
otherwise, and the group is drawn again). A group is a list of
(p0, p1, r, mass, fixed) records; groups are independent of each other.

Python 3 standard library only.
"""

import math
import os
import random
import sys
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from balls_reference import vadd, vcross, vdot, vmul, vsub  # noqa: E402


class NotExact(Exception):
    """A number meant to be exact is not a double."""


# Groups are kept within this magnitude so that every printed number
# (points r beyond a centre, velocities after a bounce) stays finite.
MAX_MAGNITUDE = F(2) ** 1000


def exact(x):
    """A Fraction as the double equal to it; NotExact if there is none."""
    f = float(x)
    if not math.isfinite(f) or F(f) != x:
        raise NotExact(x)
    return f


def evec(v):
    return tuple(exact(x) for x in v)


def nudge(x, k):
    """The double x moved by k ulps."""
    for _ in range(abs(k)):
        x = math.nextafter(x, math.inf if k > 0 else -math.inf)
    return x


def dyadic(rng, lo, hi, bits):
    """A random multiple of 2^-bits in [lo, hi]."""
    k = rng.randint(math.ceil(lo * 2**bits), math.floor(hi * 2**bits))
    return F(k, 2**bits)


def dyadic_vec(rng, lo, hi, bits):
    return tuple(dyadic(rng, lo, hi, bits) for _ in range(3))


def small_int_vec(rng, m=3):
    while True:
        v = tuple(rng.randint(-m, m) for _ in range(3))
        if v != (0, 0, 0):
            return v


def ball(p0, p1, r, mass=None, fixed=False):
    """A record from Fractions (or floats): p0, p1 and r exactly doubles."""
    return (evec(p0), None if p1 is None else evec(p1), exact(F(r)), mass, fixed)


def split_radius(rng, R):
    """r1 + r2 = R exactly, both doubles (sometimes one of them 0)."""
    choice = rng.random()
    if choice < 0.15:
        return F(0), R
    if choice < 0.3:
        return R, F(0)
    for _ in range(20):
        t = F(rng.randint(1, 15), 16)
        r1 = F(float(R * t))
        r2 = R - r1
        if r2 >= 0 and F(float(r2)) == r2:
            return r1, r2
    return R / 2, R / 2


def quaternion_frame(rng, size=12):
    """A rational orthonormal frame: three integer vectors of common length
    q (the rows of the rotation matrix of a random integer quaternion,
    times q = w^2 + x^2 + y^2 + z^2)."""
    while True:
        w, x, y, z = (rng.randint(-size, size) for _ in range(4))
        q = w * w + x * x + y * y + z * z
        if q:
            break
    rows = (
        (w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)),
        (2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)),
        (2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z),
    )
    return rows, q


def pythagorean_quadruple(rng, size):
    """(a, b, c, d) with a^2 + b^2 + c^2 = d^2, entries up to about size^2."""
    while True:
        m, n, p, q = (rng.randint(-size, size) for _ in range(4))
        d = m * m + n * n + p * p + q * q
        if d:
            return (m * m + n * n - p * p - q * q, 2 * (m * q + n * p), 2 * (n * q - m * p)), d


def pair_group(c1, v1, r1, c2, v2, r2, fixed1=False, mass1=None, mass2=None):
    """Two balls from exact centres and motions (p1 = p0 + v)."""
    b1 = ball(c1, None if fixed1 else vadd(c1, v1), r1, mass1, fixed1)
    b2 = ball(c2, vadd(c2, v2), r2, mass2)
    return [b1, b2]


def place(rng, m, D, R, base_bits=6, scale_exp=0):
    """Two balls with relative start m, relative motion D and R = r1 + r2,
    at a random dyadic place with random dyadic motions, scaled by
    2^scale_exp; randomly swapped."""
    s = F(2) ** scale_exp
    c1 = vmul(s, dyadic_vec(rng, -4, 4, base_bits))
    v1 = vmul(s, dyadic_vec(rng, -2, 2, base_bits)) if rng.random() < 0.6 else (F(0),) * 3
    r1, r2 = split_radius(rng, R * s)
    c2 = vadd(c1, vmul(s, m))
    v2 = vadd(v1, vmul(s, D))
    group = pair_group(c1, v1, r1, c2, v2, r2)
    if rng.random() < 0.5:
        group.reverse()
    return group


# ------------------------------------------------------------- classes

def group_random_set(rng):
    """General position: 2 to 24 balls with full 53-bit coordinates in a box,
    motions, radii (some 0), masses and fixed balls at random."""
    n = rng.randint(2, 24)
    side = 2.0 ** rng.randint(-3, 6)
    reach = side * rng.choice((0.1, 0.5, 1, 2))
    size = side / max(1, n) ** (1 / 3)
    group = []
    for _ in range(n):
        p0 = tuple(rng.uniform(-side, side) for _ in range(3))
        p1 = tuple(x + rng.uniform(-reach, reach) for x in p0)
        r = 0.0 if rng.random() < 0.1 else rng.uniform(0, size)
        mass = rng.choice((None, None, rng.uniform(0.1, 10)))
        fixed = rng.random() < 0.1
        group.append((p0, None if fixed and rng.random() < 0.5 else p1, r, None if fixed else mass, fixed))
    return group


def group_general_pair(rng):
    """Two balls in general position aimed at each other (53-bit numbers):
    head-on, oblique, glancing, slow or fast."""
    c1 = tuple(rng.uniform(-10, 10) for _ in range(3))
    offset = tuple(rng.uniform(-3, 3) for _ in range(3))
    c2 = tuple(a + b for a, b in zip(c1, offset))
    r1, r2 = rng.uniform(0, 1.5), rng.uniform(0, 1.5)
    aim = rng.uniform(-1.2, 1.2)
    speed = 2.0 ** rng.uniform(-3, 4)
    side = tuple(rng.uniform(-1, 1) for _ in range(3))
    d = tuple(-o * speed + s * aim for o, s in zip(offset, side))
    v1 = tuple(rng.uniform(-2, 2) for _ in range(3))
    p11 = tuple(a + b for a, b in zip(c1, v1))
    p12 = tuple(a + b + c for a, b, c in zip(c2, v1, d))
    return [(c1, p11, r1, None, False), (c2, p12, r2, None, False)]


def starts(rng, R, size):
    """A relative start (m, R): overlapping (often m = 0 or nearly), exactly
    touching along an axis or a Pythagorean direction (R then a multiple
    of its length), or apart."""
    kind = rng.choice(("zero", "overlap", "touch-axis", "touch-pyth", "apart", "apart"))
    if kind == "zero":
        return (F(0),) * 3, R
    if kind == "overlap":
        return vmul(R / 2 ** rng.randint(1, 8), small_int_vec(rng, 1)), R
    if kind == "touch-axis":
        axis = rng.randrange(3)
        return tuple(R * rng.choice((-1, 1)) if k == axis else F(0) for k in range(3)), R
    if kind == "touch-pyth":
        (a, b, c), d = pythagorean_quadruple(rng, 3)
        return (R * a, R * b, R * c), R * d
    return vmul(R * size, small_int_vec(rng, 4)), R


def rball(p0, p1, r, mass=None, fixed=False):
    """A record whose p1 is p0 + a motion rounded to doubles (no exactness
    meant for p1 - p0: the reference takes whatever it rounds to)."""
    return (evec(p0), None if p1 is None else tuple(float(x) for x in p1), exact(F(r)), mass, fixed)


def group_huge_motion(rng):
    """Relative motions 2^60 to 2^1000 times the radii: overlapping,
    touching or apart, approaching head-on, obliquely, receding or sliding;
    sometimes one ball fixed. (The reported bug: an overlap at alpha 0
    answered as a miss or as a plain hit.)"""
    m, R = starts(rng, F(rng.randint(1, 16), 8), F(rng.randint(1, 4)))
    e = rng.randint(60, 1000)
    kind = rng.choice(("toward", "toward", "away", "oblique", "slide"))
    if kind in ("toward", "away") and any(m):
        D = vmul(-1 if kind == "toward" else 1, m)
    elif kind == "slide" and any(m):
        D = vcross(m, small_int_vec(rng, 2))
        if not any(D):
            D = small_int_vec(rng, 3)
    else:
        D = small_int_vec(rng, 3)
    D = vmul(F(2) ** e / max(abs(x) for x in D), D)
    r1, r2 = split_radius(rng, R)
    c1 = dyadic_vec(rng, -2, 2, 4)
    c2 = vadd(c1, m)
    fixed = rng.random() < 0.3
    v1 = (F(0),) * 3 if fixed else vmul(F(rng.randint(-3, 3), 4), D)
    group = [rball(c1, None if fixed else vadd(c1, v1), r1, None, fixed),
             rball(c2, vadd(vadd(c2, v1), D), r2)]
    if rng.random() < 0.5:
        group.reverse()
    return group


def group_tiny_motion(rng):
    """Relative motions 2^-1074 to 2^-60 times the radii (the moving ball
    starts at 0 along its motion so that p1 - p0 is exact), starting
    overlapping, exactly touching or apart; radii up to 2^900."""
    scale = F(2) ** rng.randint(-200, 900)
    m, R = starts(rng, F(rng.randint(1, 16), 8) * scale, F(rng.randint(1, 4)))
    r1, r2 = split_radius(rng, R)
    kind = rng.choice(("toward", "away", "any"))
    D = vmul(-1 if kind == "toward" else 1, m) if kind != "any" and any(m) else small_int_vec(rng, 3)
    D = tuple(F(exact(x)) for x in D)
    big = max(abs(x) for x in D)
    tiny = F(2) ** rng.randint(-1074, max(-1074, int(math.log2(float(R))) - 60))
    # A motion of a few ulps of 2^e: exactly representable however small.
    D = tuple(F(float(x / big * tiny)) for x in D)
    c1 = (F(0),) * 3
    c2 = m
    group = [ball(c1, D, r1), ball(c2, c2, r2, None, rng.random() < 0.3)]
    if rng.random() < 0.5:
        group.reverse()
    return group


def group_tangent_start(rng):
    """Starting exactly r1 + r2 apart along big Pythagorean directions
    (squares of up to 52 bits, whose rounded sums do not cancel), approaching,
    separating, sliding (m.d = 0 exactly) or at relative rest; or one ulp
    nearer or farther."""
    (a, b, c), d = pythagorean_quadruple(rng, rng.choice((4, 100, 3000)))
    m = (F(a), F(b), F(c))
    R = F(d)
    kind = rng.choice(("toward", "away", "slide", "rest", "oblique"))
    if kind == "toward":
        D = vmul(-F(rng.randint(1, 8), 4), m)
    elif kind == "away":
        D = vmul(F(rng.randint(1, 8), 4), m)
    elif kind == "slide":
        D = vcross(m, small_int_vec(rng, 2))
        if not any(D):
            D = (F(0),) * 3
    elif kind == "rest":
        D = (F(0),) * 3
    else:
        D = vadd(vmul(-F(1, rng.choice((1, 2, 4, 8))), m), vmul(R / 4, small_int_vec(rng, 2)))
    nudge_by = rng.choice((0, 0, 0, -1, 1))
    group = place(rng, m, D, R, base_bits=2, scale_exp=rng.randint(-60, 40))
    if nudge_by:
        p0, p1, r, mass, fixed = group[1]
        group[1] = (p0, p1, nudge(r, nudge_by) if r > 0 else r, mass, fixed)
    return group


def group_graze(rng):
    """An exact graze: the relative path passes at distance exactly R
    (closest approach at alpha L / S, before, at or after 1) along
    directions of a rational orthonormal frame; or one ulp inside or outside."""
    rows, q = quaternion_frame(rng, rng.choice((3, 12, 200)))
    e1, e2 = rows[0], rows[1]
    # m = k e1 + l e2, d = -s e2: the closest approach, k e1 (length
    # k q = R), at alpha l / s.
    k, l, s = rng.randint(1, 6), rng.randint(1, 12), rng.randint(1, 12)
    m = tuple(F(k * x + l * y) for x, y in zip(e1, e2))
    D = vmul(F(-s), e2)
    group = place(rng, m, D, F(k * q), base_bits=2, scale_exp=rng.randint(-40, 20))
    how = rng.choice(("exact", "exact", "radius", "centre"))
    if how == "radius":
        p0, p1, r, mass, fixed = group[1]
        if r > 0:
            group[1] = (p0, p1, nudge(r, rng.choice((-1, 1))), mass, fixed)
    elif how == "centre":
        p0, p1, r, mass, fixed = group[1]
        axis = rng.randrange(3)
        k = rng.choice((-1, 1))
        p0 = tuple(nudge(x, k) if i == axis else x for i, x in enumerate(p0))
        group[1] = (p0, p1, r, mass, fixed)
    return group


def group_points(rng):
    """Points (r = 0) whose paths cross exactly (at alpha before, at or after
    1), one ulp aside, along one line, or starting at one place; a point
    against a ball."""
    c1 = dyadic_vec(rng, -4, 4, 3)
    v1 = dyadic_vec(rng, -4, 4, 3)
    v2 = dyadic_vec(rng, -4, 4, 3)
    alpha = F(rng.randint(1, 20), 16)
    meet = vadd(c1, vmul(alpha, v1))
    c2 = vsub(meet, vmul(alpha, v2))
    kind = rng.choice(("cross", "cross", "aside", "line", "same-start", "ball"))
    r2 = F(0)
    if kind == "line":
        v2 = vadd(v1, vmul(-F(rng.randint(1, 4), 2), vsub(c2, c1)))
    elif kind == "same-start":
        c2 = c1
    elif kind == "ball":
        r2 = F(rng.randint(1, 8), 8)
    group = pair_group(c1, v1, F(0), c2, v2, r2)
    if kind == "aside":
        p0, p1, r, mass, fixed = group[1]
        axis = rng.randrange(3)
        p0 = tuple(nudge(x, rng.choice((-1, 1))) if i == axis else x for i, x in enumerate(p0))
        group[1] = (p0, p1, r, mass, fixed)
    return group


def group_alpha_one(rng):
    """Contacts exactly at alpha 1 along an axis or a Pythagorean direction
    (a hit), or the speed one ulp less (a miss) or more (a hit just before)."""
    (a, b, c), d = pythagorean_quadruple(rng, rng.choice((1, 3, 40)))
    u = (F(a), F(b), F(c))  # length d
    R = F(d * rng.randint(1, 8))
    S = F(d * rng.randint(1, 16))
    m = vmul((R + S) / d, u)
    D = vmul(-S / d, u)
    group = place(rng, m, D, R, base_bits=3, scale_exp=rng.randint(-30, 30))
    k = rng.choice((0, 0, -1, 1))
    if k:
        p0, p1, r, mass, fixed = group[1]
        other = group[0]
        v = tuple(y - x for x, y in zip(p0, p1))
        vo = tuple(y - x for x, y in zip(other[0], other[1] if other[1] is not None else other[0]))
        # Scale the relative motion's largest component by one ulp.
        axis = max(range(3), key=lambda i: abs(v[i] - vo[i]))
        p1 = tuple(nudge(x, k if (v[axis] - vo[axis]) > 0 else -k) if i == axis else x for i, x in enumerate(p1))
        group[1] = (p0, p1, r, mass, fixed)
    return group


def group_fixed(rng):
    """Fixed balls (p1 left out, or present and not read) among moving ones:
    head-on and oblique reflections, fixed balls overlapping or touching
    each other, movers starting in contact with them."""
    n = rng.randint(2, 6)
    group = []
    for i in range(n):
        p0 = dyadic_vec(rng, -3, 3, 2)
        r = F(rng.randint(0, 6), 4)
        if i == 0 or rng.random() < 0.4:
            p1 = None if rng.random() < 0.5 else dyadic_vec(rng, -30, 30, 1)
            group.append(ball(p0, p1, r, rng.choice((None, 2.5)), True))
        else:
            p1 = dyadic_vec(rng, -3, 3, 2)
            group.append(ball(p0, p1, r, rng.choice((None, None, 0.5, 4))))
    return group


def group_ties(rng):
    """Several partners meeting one ball at exactly the same alpha (copies of
    one pair under signed axis permutations), and partners offset from the
    tie window's edge (1e-10 after the first) by 2^-30 to 2^-50 either way,
    or exactly on it."""
    r0 = F(rng.randint(1, 4), 4)
    centre = (F(0),) * 3
    group = [ball(centre, centre, r0)]
    if rng.random() < 0.5:
        # Exact ties: m and D permuted and signed alike.
        m = dyadic_vec(rng, -4, 4, 2)
        while vdot(m, m) <= (2 * r0) ** 2:
            m = vmul(2, m) if any(m) else (F(3), F(0), F(0))
        D = vadd(vmul(-F(rng.randint(1, 4), 4), m), vmul(F(1, 4), small_int_vec(rng, 1)))
        perms = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (1, 0, 2), (0, 2, 1), (2, 1, 0)]
        rng.shuffle(perms)
        for p in perms[:rng.randint(2, 5)]:
            s = tuple(rng.choice((-1, 1)) for _ in range(3))
            mm = tuple(s[k] * m[p[k]] for k in range(3))
            DD = tuple(s[k] * D[p[k]] for k in range(3))
            group.append(ball(mm, vadd(mm, DD), r0))
        return group
    # Head-on along separate axes: alpha = gap / speed, exactly.
    first = F(rng.randint(1, 12), 16)
    speed = F(1)
    offsets = [F(0)] + [F(1e-10) + rng.choice((-1, 1)) * F(2) ** -rng.randint(30, 50) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        offsets.append(F(1e-10))
    rng.shuffle(offsets)
    for k, off in enumerate(offsets[:6]):
        axis = k % 3
        sgn = 1 if k < 3 else -1
        gap = F(float(2 * r0 + (first + off) * speed)) - 2 * r0
        pos = tuple(sgn * (2 * r0 + gap) if i == axis else F(0) for i in range(3))
        vel = tuple(-sgn * speed if i == axis else F(0) for i in range(3))
        group.append(ball(pos, vadd(pos, vel), r0))
    return group


def group_mixed_sizes(rng):
    """3 to 10 balls with radii from 2^-40 to 2^20 and paths of all lengths,
    some fixed: the broad phase's coarse levels and wide boxes."""
    n = rng.randint(3, 10)
    group = []
    for _ in range(n):
        r = F(2) ** rng.randint(-40, 20) * rng.randint(1, 3)
        p0 = dyadic_vec(rng, -2 ** 10, 2 ** 10, 2)
        reach = F(2) ** rng.randint(-20, 22)
        p1 = vadd(p0, vmul(reach, dyadic_vec(rng, -1, 1, 8)))
        fixed = rng.random() < 0.15
        group.append(ball(p0, None if fixed else p1, r, None, fixed))
    return group


def group_scaled(rng):
    """A group of another class scaled by 2^k (k from -1074 up, so that the
    largest number stays below 2^1000), when that is exact."""
    make = rng.choice(BASE_CLASSES)[1]
    group = make(rng)
    numbers = group_numbers(group)
    if not numbers:
        return group
    top = 999 - max(math.frexp(x)[1] for x in numbers)
    # The exponent of each number's last bit: scaling keeps it exact while
    # that stays at or above 2^-1074.
    low = min(math.frexp(x)[1] - 53 for x in numbers)
    k = rng.randint(min(top, -1074 - low), top)
    s = F(2) ** k
    out = []
    for p0, p1, r, mass, fixed in group:
        out.append(ball(vmul(s, p0), None if p1 is None else vmul(s, p1), s * F(r), mass, fixed))
    return out


def low_bit(x):
    """The exponent of the lowest set bit of the double x != 0."""
    mantissa, exponent = math.frexp(abs(x))
    n = int(mantissa * 2**53)
    return exponent - 53 + ((n & -n).bit_length() - 1)


def group_numbers(group):
    return [x for p0, p1, r, _, _ in group for x in p0 + (p1 or ()) + (r,) if x != 0]


def group_far_offset(rng):
    """A group of an exact class moved far from the origin: by 2^20 to 2^50
    times its size, so that its numbers fill only the last bits of the
    coordinates (the centres' differences round in the scaled doubles, the
    normal from the centres keeps few digits), exactly; then scaled by 2^k
    so that coordinates run up to 2^999 (squares far beyond the doubles)."""
    make = rng.choice(FAR_CLASSES)[1]
    group = make(rng)
    numbers = group_numbers(group)
    if not numbers:
        return group
    top = max(math.frexp(x)[1] for x in numbers)
    low = min(low_bit(x) for x in numbers)
    if low + 52 < top + 20:
        raise NotExact("no room to move the group")
    e = rng.randint(top + 20, min(top + 50, low + 52))
    # A multiple of 2^low in [2^(e-1), 2^e) per axis, either sign: each
    # coordinate plus it is a multiple of 2^low below 2^(low+53), exact.
    offset = tuple(F(rng.choice((-1, 1)) * rng.randint(2 ** (e - 1 - low), 2 ** (e - low) - 1)) * F(2) ** low
                   for _ in range(3))
    moved = []
    for p0, p1, r, mass, fixed in group:
        q0 = vadd(tuple(F(x) for x in p0), offset)
        q1 = None if p1 is None else vadd(tuple(F(x) for x in p1), offset)
        moved.append(ball(q0, q1, F(r), mass, fixed))
    k = rng.randint(-(e + 60), 999 - e) if rng.random() < 0.6 else 0
    s = F(2) ** k
    return [ball(vmul(s, tuple(F(x) for x in p0)), None if p1 is None else vmul(s, tuple(F(x) for x in p1)),
                 s * F(r), mass, fixed) for p0, p1, r, mass, fixed in moved]


def permuted(group, rng):
    """The group under a random signed permutation of the axes (exact)."""
    perm = list(range(3))
    rng.shuffle(perm)
    signs = tuple(rng.choice((-1, 1)) for _ in range(3))

    def turn(v):
        return None if v is None else tuple(signs[k] * v[perm[k]] for k in range(3))
    return [(turn(p0), turn(p1), r, mass, fixed) for p0, p1, r, mass, fixed in group]


def group_tiny_radius(rng):
    """Radii 2^-1074 to 2^-60 times the distances and motions (which run
    from 2^-40 to 2^40): an exact graze at distance R (m = (R, L, 0),
    d = (0, -S, 0), closest at alpha L / S) or with R one ulp smaller or
    larger; starting exactly R apart, approaching, separating or sliding;
    overlapping; head on, meeting at (L - R) / S; two points whose paths
    cross. Under a random signed permutation of the axes."""
    size = F(2) ** rng.randint(-40, 40)
    lowest = -1074 - math.floor(math.log2(size))
    R = size * F(2) ** rng.randint(max(lowest, -1074), -60) * rng.randint(1, 7)
    if R < F(2) ** -1074:
        raise NotExact(R)
    L = size * F(rng.randint(1, 64), 16)
    S = size * F(rng.randint(1, 64), 16)
    kind = rng.choice(("graze", "graze", "graze-ulp", "touch", "overlap", "head-on", "cross"))
    zero = F(0)
    y1, z1 = size * dyadic(rng, -4, 4, 3), size * dyadic(rng, -4, 4, 3)
    c1 = (zero, y1, z1)
    v1 = (zero, size * dyadic(rng, -2, 2, 3), size * dyadic(rng, -2, 2, 3)) if rng.random() < 0.5 else (zero,) * 3
    if kind in ("graze", "graze-ulp"):
        m, D = (R, L, zero), (zero, -S, zero)
    elif kind == "touch":
        m = (R, zero, zero)
        D = (rng.choice((-S, S)), zero, zero) if rng.random() < 0.6 else (zero, S, -S)
    elif kind == "overlap":
        m = (R / 2 ** rng.randint(1, 4), zero, zero) if rng.random() < 0.7 else (zero,) * 3
        D = (rng.choice((-S, S)), L, zero)
    elif kind == "head-on":
        m, D = (zero, L, zero), (zero, -S, zero)
    else:
        R = zero
        m, D = (zero, L, zero), (zero, -S, zero)
    r1, r2 = split_radius(rng, R)
    c2 = vadd(c1, m)
    group = [ball(c1, vadd(c1, v1), r1), rball(c2, vadd(vadd(c2, v1), D), r2)]
    if kind == "graze-ulp":
        p0, p1, r, mass, fixed = group[1]
        if r > 0:
            group[1] = (p0, p1, nudge(r, rng.choice((-1, 1))), mass, fixed)
    if rng.random() < 0.5:
        group.reverse()
    return permuted(group, rng)


BASE_CLASSES = [
    ("general-pair", group_general_pair),
    ("tangent-start", group_tangent_start),
    ("graze", group_graze),
    ("points", group_points),
    ("alpha-one", group_alpha_one),
    ("fixed", group_fixed),
    ("ties", group_ties),
]

# The classes whose groups are built from few bits, so that they can be
# moved far from the origin exactly.
FAR_CLASSES = [c for c in BASE_CLASSES if c[0] != "general-pair"]

CLASSES = [
    ("random-set", group_random_set),
    ("huge-motion", group_huge_motion),
    ("tiny-motion", group_tiny_motion),
    ("tiny-radius", group_tiny_radius),
] + BASE_CLASSES + [
    ("mixed-sizes", group_mixed_sizes),
    ("scaled", group_scaled),
    ("far-offset", group_far_offset),
]


def within_range(group):
    """Every number within MAX_MAGNITUDE."""
    for p0, p1, r, _, _ in group:
        for x in p0 + (p1 or ()) + (r,):
            if abs(F(x)) > MAX_MAGNITUDE:
                return False
    return True


def make_group(rng, make):
    """One group of a class, drawn again until it is exact and in range."""
    for _ in range(200):
        try:
            group = make(rng)
        except (NotExact, OverflowError, ZeroDivisionError):
            continue
        if within_range(group):
            return group
    raise RuntimeError("no exact group after 200 tries: %s" % make.__name__)


def groups(count, seed=1, only=None):
    """count groups, classes in turn: [(class name, group)]."""
    rng = random.Random(seed)
    classes = [c for c in CLASSES if only is None or c[0] == only]
    if not classes:
        raise ValueError("no class %r (classes: %s)" % (only, ", ".join(c[0] for c in CLASSES)))
    out = []
    for k in range(count):
        name, make = classes[k % len(classes)]
        out.append((name, make_group(rng, make)))
    return out
