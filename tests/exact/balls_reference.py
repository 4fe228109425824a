#!/usr/bin/env python3
"""An exact reference for `ballcast balls`, written from the man page's BALLS
section (never from lib/balls.c): every decision in exact rational
arithmetic, alphas as exact algebraic numbers (a + b sqrt(s)).

The semantics (man/ballcast.1, BALLS, "What is computed"):

- Ball i has its centre at p0_i + alpha v_i for alpha in [0, 1], with
  v_i = p1_i - p0_i rounded to a double (the printed velocity_before), and
  v_i = 0 for a fixed ball. Radius r_i >= 0.
- A pair (i, j): m = p0_j - p0_i, d = v_j - v_i, R = r_i + r_j,
  c = m.m - R^2, b = m.d, a = d.d.
  - c < 0: an initial overlap (alpha 0);
  - c = 0: a hit at alpha 0 if b < 0 (they approach), else a miss;
  - c > 0: a miss if b >= 0 or the discriminant b^2 - a c < 0; else they
    first meet at the smaller root (-b - sqrt(b^2 - a c)) / a, a hit if
    that is <= 1, else a miss.
- A ball's answer: if some partner overlaps it, only overlaps compete
  (they rank before every other contact); else the earliest alpha. Partners
  within 1e-10 (the C double, read exactly) of the earliest are tied; the
  answer is the lowest record number among them, at its own alpha.
- normal: the unit vector from the ball's centre to the partner's at
  alpha; when they coincide, the direction of d (where the partner heads),
  and 0 when d = 0 too. point: the ball's centre at alpha + r_i normal.
- velocity_after: with masses a (this ball) and b (the partner), s and t
  the velocities along normal, s' = s + 2 b (t - s) / (a + b), tangential
  part kept; only when (v_j - v_i).normal < 0, else v_i. A fixed partner
  has infinite mass (s' = 2t - s); a fixed ball keeps velocity 0.

Python 3 standard library only.
"""

import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The cast reference's exact primitives (tested by test_reference.py): the
# sign of a + b sqrt(s) (+ c sqrt(t)) by squaring, and 3-vectors.
from reference import add as vadd, cross as vcross, dot as vdot, scale as vmul, sign, sub as vsub  # noqa: E402,F401
from reference import sign_a_plus_b_sqrt_c as sign_root  # noqa: E402
from reference import sign_a_plus_b_sqrt_c_plus_e_sqrt_f as sign_two_roots  # noqa: E402

# The tie tolerance: the C double 1e-10, exactly.
TIE_TOLERANCE = Fraction(1e-10)

# Bits of the approximations of square roots used for the printed floats
# (normal, point, velocity_after): far below any tolerance they are
# compared with.
APPROX_BITS = 300


def sqrt_fraction(x, bits=APPROX_BITS):
    """sqrt(x) for a Fraction x >= 0, within 2^-bits relatively (below)."""
    if x == 0:
        return Fraction(0)
    n, d = x.numerator, x.denominator
    # sqrt(n / d) = sqrt(n d) / d, scaled so that isqrt keeps `bits` bits.
    nd = n * d
    shift = max(0, bits - nd.bit_length() // 2 + 2)
    return Fraction(math.isqrt(nd << (2 * shift)), d << shift)


class Alg:
    """An exact number a + b sqrt(s) (Fractions a, b; s >= 0)."""

    __slots__ = ("a", "b", "s")

    def __init__(self, a, b=0, s=0):
        self.a, self.b, self.s = Fraction(a), Fraction(b), Fraction(s)
        if self.s == 0 or self.b == 0:
            self.b, self.s = Fraction(0), Fraction(0)

    def compare(self, other):
        """sign(self - other), exactly."""
        if not isinstance(other, Alg):
            other = Alg(other)
        return sign_two_roots(self.a - other.a, self.b, self.s, -other.b, other.s)

    def is_rational(self):
        return self.b == 0 or math.isqrt(self.s.numerator) ** 2 == self.s.numerator and \
            math.isqrt(self.s.denominator) ** 2 == self.s.denominator

    def fraction(self, bits=APPROX_BITS):
        """A Fraction within about 2^-bits (relatively) of the value;
        exact when the value is rational."""
        if self.b == 0:
            return self.a
        if self.is_rational():
            root = Fraction(math.isqrt(self.s.numerator), math.isqrt(self.s.denominator))
            return self.a + self.b * root
        return self.a + self.b * sqrt_fraction(self.s, bits)

    def __float__(self):
        return float(self.fraction())

    def __repr__(self):
        if self.b == 0:
            return "Alg(%s)" % self.a
        return "Alg(%s + %s sqrt(%s))" % (self.a, self.b, self.s)


# ------------------------------------------------------------ vectors

def exact_vec(v):
    return tuple(Fraction(x) for x in v)


def unit_float(w):
    """w / |w| as floats (w: Fractions, not all 0), |w| to APPROX_BITS."""
    length = sqrt_fraction(vdot(w, w))
    return tuple(float(x / length) for x in w)


# --------------------------------------------------------------- balls

class Ball:
    """One record: p0, p1 (floats; p1 ignored when fixed), r, mass (None:
    1), fixed. Valid when every number is finite, r >= 0, mass > 0 and
    p1 - p0 finite (a fixed ball: p0 and r only)."""

    def __init__(self, p0, p1, r, mass=None, fixed=False):
        self.p0f = tuple(float(x) for x in p0)
        self.p1f = tuple(float(x) for x in (p1 if p1 is not None else p0))
        self.r = r
        self.mass = mass
        self.fixed = fixed
        finite = all(math.isfinite(x) for x in self.p0f) and math.isfinite(r) and r >= 0
        if not fixed:
            finite = finite and all(math.isfinite(x) for x in self.p1f)
            finite = finite and (mass is None or (math.isfinite(mass) and mass > 0))
        # v = p1 - p0 rounded to a double: Python's float subtraction is
        # IEEE's, as C's without contraction.
        vf = (0.0, 0.0, 0.0) if fixed else tuple(b - a for a, b in zip(self.p0f, self.p1f))
        self.valid = finite and all(math.isfinite(x) for x in vf)
        self.vf = vf if self.valid else (0.0, 0.0, 0.0)
        self.p0 = exact_vec(self.p0f) if self.valid else None
        self.v = exact_vec(self.vf) if self.valid else None
        self.R = Fraction(r) if self.valid else None

    def mass_value(self):
        return Fraction(1) if self.mass is None else Fraction(self.mass)


class Pair:
    """What ball i sees of ball j: state ("miss", "hit", "overlap"), alpha
    (an Alg) and the exact quantities of the quadratic."""

    def __init__(self, bi, bj):
        self.m = vsub(bj.p0, bi.p0)
        self.d = vsub(bj.v, bi.v)
        self.R = bi.R + bj.R
        m, d, R = self.m, self.d, self.R
        self.c = vdot(m, m) - R * R
        self.b = vdot(m, d)
        self.a = vdot(d, d)
        self.disc = None
        self.alpha = Alg(0)
        if self.c < 0:
            self.state = "overlap"
            return
        if self.c == 0:
            self.state = "hit" if self.b < 0 else "miss"
            return
        if self.b >= 0:
            self.state = "miss"
            return
        # b^2 - a c = a R^2 - |m x d|^2 (Lagrange's identity).
        self.disc = self.b * self.b - self.a * self.c
        if self.disc < 0:
            self.state = "miss"
            return
        root = Alg(-self.b / self.a, -1 / self.a, self.disc)
        if root.compare(1) > 0:
            self.state = "miss"
            return
        self.state = "hit"
        self.alpha = root

    def key(self):
        """Where the contact sorts: an overlap before every alpha."""
        return Alg(-1) if self.state == "overlap" else self.alpha


def pair_normal(bi, bj, pair):
    """The exact contact normal (floats) from ball i towards ball j at the
    exact alpha: the centres' difference there, or d when they coincide."""
    alpha = pair.alpha.fraction()
    w = vadd(pair.m, vmul(alpha, pair.d))
    if pair.state != "overlap" and pair.R > 0:
        # At a contact |w| = R exactly; w from the approximated alpha.
        return tuple(float(x / pair.R) for x in w)
    if any(x != 0 for x in w):
        return unit_float(w)
    if any(x != 0 for x in pair.d):
        return unit_float(pair.d)
    return (0.0, 0.0, 0.0)


class Answer:
    """The expected answer for one ball: state ("error", "miss", "hit",
    "overlap"); for a contact the partners allowed (more than one only when
    the tie window's edge is within `band` of a partner's alpha) and, per
    partner, its Pair."""

    def __init__(self, state, partners=(), pairs=None, certain=None):
        self.state = state
        self.partners = list(partners)
        self.pairs = pairs or {}
        self.certain = certain


def answer_set(balls, band):
    """The expected Answer of every ball of a set. band: the alphas'
    accuracy (a Fraction); a partner whose alpha lies within it of the tie
    window's edge may be in or out of the window."""
    n = len(balls)
    contacts = [[] for _ in range(n)]
    pairs = {}
    for i in range(n):
        if not balls[i].valid:
            continue
        for j in range(i + 1, n):
            if not balls[j].valid:
                continue
            p = Pair(balls[i], balls[j])
            if p.state == "miss":
                continue
            q = Pair(balls[j], balls[i])
            pairs[(i, j)], pairs[(j, i)] = p, q
            contacts[i].append(j)
            contacts[j].append(i)
    answers = []
    for i in range(n):
        if not balls[i].valid:
            answers.append(Answer("error"))
            continue
        if not contacts[i]:
            answers.append(Answer("miss"))
            continue
        keys = {j: pairs[(i, j)].key() for j in contacts[i]}
        first = min(contacts[i], key=lambda j: keys[j].fraction())
        for j in contacts[i]:  # the exact minimum (the float order is close)
            if keys[j].compare(keys[first]) < 0:
                first = j
        edge = Alg(keys[first].a + TIE_TOLERANCE, keys[first].b, keys[first].s)
        inside, unsure = [], []
        for j in contacts[i]:
            lo = Alg(edge.a - band, edge.b, edge.s)
            hi = Alg(edge.a + band, edge.b, edge.s)
            if keys[j].compare(lo) <= 0 or j == first:
                inside.append(j)
            elif keys[j].compare(hi) <= 0:
                unsure.append(j)
        best = min(inside)
        allowed = [best] + sorted(j for j in unsure if j < best)
        state = pairs[(i, best)].state
        answers.append(Answer(state, allowed, {j: pairs[(i, j)] for j in contacts[i]}, best))
    return answers


def velocity_after(bi, bj, normal):
    """Ball i's velocity after meeting j along normal (floats, from i to
    j), as Fractions: the man page's response, or v_i when they do not
    approach along normal."""
    v, w = bi.v, bj.v
    n = exact_vec(normal)
    if bi.fixed:
        return v
    if vdot(vsub(w, v), n) >= 0:
        return v
    s, t = vdot(v, n), vdot(w, n)
    if bj.fixed:
        share = Fraction(1)
    else:
        a, b = bi.mass_value(), bj.mass_value()
        share = b / (a + b)
    return vadd(v, vmul(2 * share * (t - s), n))


def expected_fields(balls, i, j, pair):
    """The expected alpha (Alg), point, normal and velocity_after (floats)
    of ball i meeting partner j."""
    bi = balls[i]
    normal = pair_normal(bi, balls[j], pair)
    alpha = pair.alpha.fraction()
    centre = vadd(bi.p0, vmul(alpha, bi.v))
    point = tuple(float(x) for x in vadd(centre, vmul(bi.R, exact_vec(normal))))
    after = tuple(float(x) for x in velocity_after(bi, balls[j], normal))
    return pair.alpha, point, normal, after
