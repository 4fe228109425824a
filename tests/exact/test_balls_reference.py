#!/usr/bin/env python3
"""Unit tests of the exact balls reference (balls_reference.py) itself:
hand-computed pairs and sets, the exact sign primitives against
high-precision decimals, Lagrange's identity, and the root against a
bisection on the distance (independent of the quadratic) on random pairs.
Run before balls_run.py compares ballcast with the reference, so that the
reference cannot be wrong in the same way as the code."""

import math
import os
import random
import sys
import unittest
from decimal import Decimal, getcontext
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import balls_cases as cases  # noqa: E402
import balls_reference as R  # noqa: E402


def pair(c1, v1, r1, c2, v2, r2, fixed1=False):
    b1 = R.Ball(c1, tuple(a + b for a, b in zip(c1, v1)), r1, fixed=fixed1)
    b2 = R.Ball(c2, tuple(a + b for a, b in zip(c2, v2)), r2)
    return b1, b2, R.Pair(b1, b2)


class HandComputed(unittest.TestCase):
    def test_head_on(self):
        # |4 - 4 alpha| = 1: alpha 3/4, rational.
        _, _, p = pair((0, 0, 0), (2, 0, 0), 0.5, (4, 0, 0), (-2, 0, 0), 0.5)
        self.assertEqual(p.state, "hit")
        self.assertEqual(p.alpha.fraction(), Fraction(3, 4))

    def test_glancing_is_irrational(self):
        # Offset 1 sideways, R = 2: the x gap is sqrt(3) at contact.
        _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (10, 1, 0), (-10, 0, 0), 1)
        self.assertEqual(p.state, "hit")
        self.assertAlmostEqual(float(p.alpha), (10 - math.sqrt(3)) / 10, places=15)
        # sqrt(3) lies between 1.7320508 and 1.7320509.
        self.assertEqual(p.alpha.compare((10 - Fraction(17320508, 10**7)) / 10), -1)
        self.assertEqual(p.alpha.compare((10 - Fraction(17320509, 10**7)) / 10), 1)

    def test_exact_graze_and_hair_outside(self):
        _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (10, 2, 0), (-20, 0, 0), 1)
        self.assertEqual((p.state, p.alpha.fraction()), ("hit", Fraction(1, 2)))
        self.assertEqual(p.disc, 0)
        _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (10, math.nextafter(2, 3), 0), (-20, 0, 0), 1)
        self.assertEqual(p.state, "miss")

    def test_alpha_one_exactly_and_beyond(self):
        _, _, p = pair((0, 0, 0), (0, 0, 0), 0.5, (4, 0, 0), (-3, 0, 0), 0.5)
        self.assertEqual((p.state, p.alpha.fraction()), ("hit", 1))
        _, _, p = pair((0, 0, 0), (0, 0, 0), 0.5, (4, 0, 0), (math.nextafter(-3, 0), 0, 0), 0.5)
        self.assertEqual(p.state, "miss")

    def test_overlap_whatever_the_motion(self):
        # The reported bug: r = 1 at the origin, the other heading to 1e200.
        for v in ((1e200, 0, 0), (-1e200, 0, 0), (0, 0, 0), (5e-324, 0, 0)):
            _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (0.5, 0, 0), v, 1)
            self.assertEqual(p.state, "overlap")
            _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (0, 0, 0), v, 1)
            self.assertEqual(p.state, "overlap")

    def test_huge_motion_meets_at_a_tiny_alpha(self):
        # 3 apart, R = 2, closing at 2^660: alpha = 2^-660 exactly.
        _, _, p = pair((0, 0, 0), (0, 0, 0), 1, (3, 0, 0), (-2.0 ** 660, 0, 0), 1)
        self.assertEqual((p.state, p.alpha.fraction()), ("hit", Fraction(1, 2**660)))

    def test_touching_counts_only_when_approaching(self):
        for v, state in (((-1, 0, 0), "hit"), ((1, 0, 0), "miss"), ((0, 1, 0), "miss"), ((0, 0, 0), "miss")):
            _, _, p = pair((0, 0, 0), (0, 0, 0), 0.5, (1, 0, 0), v, 0.5)
            self.assertEqual(p.state, state, v)
            if state == "hit":
                self.assertEqual(p.alpha.fraction(), 0)

    def test_points_cross_only_on_a_line(self):
        _, _, p = pair((0, 0, 0), (1, 1, 0), 0, (2, 0, 0), (-1, 1, 0), 0)
        self.assertEqual((p.state, p.alpha.fraction()), ("hit", 1))
        _, _, p = pair((0, 0, 0), (1, 1, 0), 0, (2, 0, 1e-300), (-1, 1, 0), 0)
        self.assertEqual(p.state, "miss")

    def test_velocity_before_is_the_rounded_difference(self):
        b = R.Ball((2.0 ** -60, 0, 0), (1, 0, 0), 1)
        self.assertEqual(b.vf[0], 1.0)
        self.assertEqual(b.v[0], 1)

    def test_fixed_ball_ignores_p1(self):
        b = R.Ball((0, 0, 0), (1e308, 0, 0), 1, fixed=True)
        self.assertTrue(b.valid)
        self.assertEqual(b.vf, (0.0, 0.0, 0.0))
        self.assertFalse(R.Ball((-1e308, 0, 0), (1e308, 0, 0), 1).valid)

    def test_billiards_set(self):
        # The man page's example: cue meets 7 at 0.5, far meets the post.
        balls = [R.Ball((0, 0, 0), (4, 0, 0), 0.5), R.Ball((3, 0, 0), (3, 0, 0), 0.5, 3),
                 R.Ball((0, 10, 0), (0, 11, 0), 0.5), R.Ball((0, 12, 0), None, 1, fixed=True)]
        answers = R.answer_set(balls, Fraction(0))
        self.assertEqual([a.partners for a in answers], [[1], [0], [3], [2]])
        alpha, point, normal, after = R.expected_fields(balls, 0, 1, answers[0].pairs[1])
        self.assertEqual((alpha.fraction(), point, normal, after), (Fraction(1, 2), (2.5, 0, 0), (1, 0, 0), (-2, 0, 0)))
        alpha, point, normal, after = R.expected_fields(balls, 1, 0, answers[1].pairs[0])
        self.assertEqual(after, (2, 0, 0))
        alpha, point, normal, after = R.expected_fields(balls, 2, 3, answers[2].pairs[3])
        self.assertEqual((alpha.fraction(), point, normal, after), (Fraction(1, 2), (0, 11, 0), (0, 1, 0), (0, -1, 0)))
        alpha, point, normal, after = R.expected_fields(balls, 3, 2, answers[3].pairs[2])
        self.assertEqual(after, (0, 0, 0))

    def test_tie_window_and_overlaps_first(self):
        # Ball 0 at rest; 1 meets it at 0.5, 2 at 0.5 + 1e-10 (tied), 3 at
        # 0.25 + ... no: 3 overlaps it, and overlaps rank first.
        centre = (0, 0, 0)
        balls = [R.Ball(centre, centre, 0.5), R.Ball((1.5, 0, 0), (-0.5, 0, 0), 0.5),
                 R.Ball((0, -1.5, 0), (0, 0.5, 0), 0.5)]
        answers = R.answer_set(balls, Fraction(0))
        self.assertEqual(answers[0].partners, [1])  # exact tie: the lower record
        self.assertEqual(answers[0].pairs[2].alpha.fraction(), Fraction(1, 4))
        balls.append(R.Ball((0.25, 0, 0), (0.25, 0, 0), 0.5))
        answers = R.answer_set(balls, Fraction(0))
        self.assertEqual((answers[0].state, answers[0].partners), ("overlap", [3]))
        # A partner 1e-10 + 2^-40 after the first is out; within the band, unsure.
        gap = Fraction(1, 2) + Fraction(1e-10) + Fraction(1, 2**40)
        x = float(1 + gap * 2)
        balls = [R.Ball(centre, centre, 0.5), R.Ball((0, 1.5, 0), (0, 0.5, 0), 0.5), R.Ball((x, 0, 0), (x - 2, 0, 0), 0.5)]
        self.assertEqual(R.answer_set(balls, Fraction(0))[0].partners, [1])
        balls[1], balls[2] = balls[2], balls[1]
        self.assertEqual(R.answer_set(balls, Fraction(0))[0].partners, [2])
        self.assertEqual(R.answer_set(balls, Fraction(1, 2**38))[0].partners, [2, 1])


class Primitives(unittest.TestCase):
    def test_signs_against_decimals(self):
        getcontext().prec = 120
        rng = random.Random(5)
        for _ in range(3000):
            a, b, c = (Fraction(rng.randint(-50, 50), rng.randint(1, 9)) for _ in range(3))
            s, t = (Fraction(rng.randint(0, 60), rng.randint(1, 5)) for _ in range(2))
            value = (Decimal(a.numerator) / a.denominator + Decimal(b.numerator) / b.denominator * (
                Decimal(s.numerator) / s.denominator).sqrt() + Decimal(c.numerator) / c.denominator * (
                Decimal(t.numerator) / t.denominator).sqrt())
            got = R.sign_two_roots(a, b, s, c, t)
            if abs(value) > Decimal(10) ** -100:
                self.assertEqual(got, 1 if value > 0 else -1, (a, b, s, c, t))
        # Exact zeros: sqrt(8) - 2 sqrt(2), 3 - sqrt(9), 1 + sqrt(2) - sqrt(2) - 1.
        self.assertEqual(R.sign_two_roots(0, 1, 8, -2, 2), 0)
        self.assertEqual(R.sign_root(3, -1, 9), 0)
        self.assertEqual(R.sign_two_roots(0, 1, 2, -1, 2), 0)

    def test_lagrange_identity_and_roots_on_random_pairs(self):
        rng = random.Random(11)
        hits = 0
        for _ in range(400):
            c1, c2 = (tuple(rng.uniform(-2, 2) for _ in range(3)) for _ in range(2))
            v1, v2 = (tuple(rng.uniform(-6, 6) for _ in range(3)) for _ in range(2))
            r1, r2 = rng.uniform(0, 1.5), rng.uniform(0, 1.5)
            b1, b2, p = pair(c1, v1, r1, c2, v2, r2)
            if p.disc is not None:
                cross = R.vcross(p.m, p.d)
                self.assertEqual(p.disc, p.a * p.R ** 2 - R.vdot(cross, cross))
            # Independent: bisection on the distance along the path.
            def gap(alpha):
                w = R.vadd(p.m, R.vmul(alpha, p.d))
                return R.vdot(w, w) - p.R ** 2
            samples = [Fraction(k, 512) for k in range(513)]
            first = next((a for a in samples if gap(a) <= 0), None)
            if p.state == "overlap":
                self.assertLess(gap(0), 0)
                continue
            if p.state == "miss":
                self.assertIsNone(first if gap(0) != 0 else None)
                continue
            hits += 1
            alpha = p.alpha.fraction()
            self.assertLessEqual(alpha, 1)
            self.assertLess(abs(gap(alpha)), Fraction(1, 10**40))
            # Nothing earlier: before alpha the centres are farther than R.
            self.assertTrue(all(gap(a) > 0 for a in samples if a < alpha - Fraction(1, 10**9)))
        self.assertGreater(hits, 20)


class Cases(unittest.TestCase):
    def test_every_class_makes_exact_groups(self):
        for name, make in cases.CLASSES:
            rng = random.Random(3)
            for _ in range(20):
                group = cases.make_group(rng, make)
                self.assertTrue(cases.within_range(group), name)
                for p0, p1, r, mass, fixed in group:
                    self.assertTrue(all(isinstance(x, float) for x in p0 + (p1 or ()) + (r,)), name)

    def test_exact_degeneracies_are_what_they_say(self):
        rng = random.Random(8)
        grazes = tangents = 0
        for _ in range(200):
            group = cases.make_group(rng, cases.group_graze)
            balls = [R.Ball(*rec) for rec in group]
            p = R.Pair(balls[0], balls[1])
            grazes += p.disc == 0
            group = cases.make_group(rng, cases.group_tangent_start)
            balls = [R.Ball(*rec) for rec in group]
            tangents += R.Pair(balls[0], balls[1]).c == 0
        self.assertGreater(grazes, 50)
        self.assertGreater(tangents, 80)


if __name__ == "__main__":
    unittest.main()
