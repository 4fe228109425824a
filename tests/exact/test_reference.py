#!/usr/bin/env python3
"""Unit tests of the exact reference (reference.py) itself: hand-computed
answers on a unit triangle, the exact sign/compare primitives against
high-precision decimals, and a brute-force check (sampling the path with an
independent float distance) on random casts.  Run by `make check-exact`
before the comparison with ballcast, so the reference cannot be wrong in the
same way twice."""

import math
import os
import random
import sys
import unittest
from decimal import Decimal, getcontext
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import intersect_reference as I  # noqa: E402
import reference as R  # noqa: E402

# The unit triangle A(0,0,0) B(1,0,0) C(0,1,0), front +z.
UNIT = R.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]])
# Two triangles sharing the edge (1,0,0)-(0,1,0).
SQUARE = R.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [[0, 1, 2], [1, 3, 2]])


def ties(ans):
    """The tie list as (triangle, slot name) pairs."""
    return [(t, R.SLOTS[s]) for t, s, _ in ans.ties]


class HandComputed(unittest.TestCase):
    def check(self, ans, state, tri=None, slot=None, alpha=None, normal=None, tie=None,
              point=None, center=None):
        self.assertEqual(ans.state, state)
        if state == "miss":
            self.assertEqual(ans.ties, [])
            return
        self.assertEqual(ans.triangle, tri)
        self.assertEqual(R.SLOTS[ans.slot], slot)
        self.assertEqual(ans.alpha.fraction(), Fraction(alpha))
        if normal is not None:
            for got, want in zip(ans.normal, normal):
                self.assertAlmostEqual(got, want, places=15)
        for name, want in (("point", point), ("center", center)):
            if want is not None:
                self.assertEqual(getattr(ans, name), [float(x) for x in want])
        if tie is not None:
            self.assertEqual(ties(ans), tie)

    def test_point_through_face(self):
        ans = R.cast(UNIT, (0.25, 0.25, 1), (0.25, 0.25, -1), 0)
        self.check(ans, "hit", 0, "face", Fraction(1, 2), (0, 0, 1), [(0, "face")],
                   point=(0.25, 0.25, 0), center=(0.25, 0.25, 0))

    def test_ball_onto_face(self):
        ans = R.cast(UNIT, (0.25, 0.25, 2), (0.25, 0.25, -2), 0.5)
        self.check(ans, "hit", 0, "face", Fraction(3, 8), (0, 0, 1), [(0, "face")],
                   point=(0.25, 0.25, 0), center=(0.25, 0.25, 0.5))

    def test_from_behind(self):
        p0, p1 = (0.25, 0.25, -1), (0.25, 0.25, 1)
        self.check(R.cast(UNIT, p0, p1, 0), "miss")
        self.check(R.cast(UNIT, p0, p1, 0, two_sided=True), "hit", 0, "face", Fraction(1, 2),
                   (0, 0, -1))     # r = 0: n turned against the motion

    def test_point_through_edge_midpoint(self):
        ans = R.cast(UNIT, (0.5, 0, 1), (0.5, 0, -1), 0)
        self.check(ans, "hit", 0, "face", Fraction(1, 2), (0, 0, 1),
                   [(0, "face"), (0, "edge AB")])

    def test_point_through_vertex(self):
        ans = R.cast(UNIT, (1, 0, 1), (1, 0, -1), 0)
        self.check(ans, "hit", 0, "face", Fraction(1, 2), (0, 0, 1),
                   [(0, "face"), (0, "edge AB"), (0, "edge BC"), (0, "vertex B")])

    def test_shared_edge_both_triangles(self):
        ans = R.cast(SQUARE, (0.5, 0.5, 1), (0.5, 0.5, -3), 0)
        self.check(ans, "hit", 0, "face", Fraction(1, 4), (0, 0, 1),
                   [(0, "face"), (0, "edge BC"), (1, "face"), (1, "edge CA")])

    def test_one_ulp_outside_an_edge(self):
        y = -2.0 ** -1074                           # the smallest double below 0
        self.check(R.cast(UNIT, (0.5, y, 1), (0.5, y, -1), 0), "miss")
        x = math.nextafter(0.5, 1)                  # 1 ulp beyond the edge BC at (0.5, 0.5)
        self.check(R.cast(UNIT, (x, 0.5, 1), (x, 0.5, -1), 0), "miss")
        self.check(R.cast(UNIT, (0.5, 0.5, 1), (0.5, 0.5, -1), 0), "hit", 0, "face",
                   Fraction(1, 2), tie=[(0, "face"), (0, "edge BC")])

    def test_path_ending_on_the_face(self):
        self.check(R.cast(UNIT, (0.25, 0.25, 1), (0.25, 0.25, 0), 0), "hit", 0, "face", 1)
        z = 2.0 ** -1074
        self.check(R.cast(UNIT, (0.25, 0.25, 1), (0.25, 0.25, z), 0), "miss")

    def test_coplanar_through_an_edge(self):
        p0, p1 = (-1, 0.25, 0), (1, 0.25, 0)
        self.check(R.cast(UNIT, p0, p1, 0), "hit", 0, "edge CA", Fraction(1, 2), (0, 0, 1),
                   [(0, "edge CA")], point=(0, 0.25, 0), center=(0, 0.25, 0))
        self.check(R.cast(UNIT, p0, p1, 0, approach="lt"), "miss")   # N.d = 0

    def test_coplanar_along_an_edge_line(self):
        ans = R.cast(UNIT, (-1, 0, 0), (2, 0, 0), 0)
        self.check(ans, "hit", 0, "edge AB", Fraction(1, 3), (0, 0, 1),
                   [(0, "edge AB"), (0, "edge CA"), (0, "vertex A")])

    def test_point_starting_on_the_face(self):
        ans = R.cast(UNIT, (0.25, 0.25, 0), (0.25, 0.25, -1), 0)
        self.check(ans, "hit", 0, "face", 0, (0, 0, 1), [(0, "face")])
        self.assertEqual(ans.state, "hit")          # dist == r: not an overlap
        ans = R.cast(UNIT, (0.5, 0, 0), (0.5, 0, 0), 0)   # zero-length, on an edge
        self.check(ans, "hit", 0, "edge AB", 0, (0, 0, 1), [(0, "edge AB")])

    def test_ball_rolling_over_an_edge(self):
        # Height exactly r = 0.25, crossing the line of AB (the x axis) at
        # alpha 1/2: a double root of the cylinder's quadratic.
        p0, p1 = (0.25, -1, 0.25), (0.25, 1, 0.25)
        self.check(R.cast(UNIT, p0, p1, 0.25), "hit", 0, "edge AB", Fraction(1, 2), (0, 0, 1),
                   [(0, "edge AB")], point=(0.25, 0, 0), center=(0.25, 0, 0.25))
        self.check(R.cast(UNIT, p0, p1, 0.25, approach="lt"), "miss")

    def test_ball_rolling_over_a_vertex(self):
        # Over B at height r: the vertex and both its edges (at their ends).
        ans = R.cast(UNIT, (1, -1, 0.5), (1, 1, 0.5), 0.5)
        self.check(ans, "hit", 0, "edge AB", Fraction(1, 2), (0, 0, 1),
                   [(0, "edge AB"), (0, "edge BC"), (0, "vertex B")], point=(1, 0, 0))

    def test_vertex_double_root(self):
        # In the plane, at distance exactly r = 0.5 from B, beside the triangle:
        # only the vertex ball is touched (tangent), at alpha 1/2.
        ans = R.cast(UNIT, (1.5, -1, 0), (1.5, 1, 0), 0.5)
        self.check(ans, "hit", 0, "vertex B", Fraction(1, 2), (1, 0, 0), [(0, "vertex B")],
                   point=(1, 0, 0), center=(1.5, 0, 0))

    def test_parallel_to_an_edge_at_distance_r(self):
        # Along y = -0.5 in the plane, r = 0.5: on the surface of AB's cylinder
        # all the way; the piece is entered at t = 0 (x = 0), with vertex A.
        ans = R.cast(UNIT, (-1, -0.5, 0), (3, -0.5, 0), 0.5)
        self.check(ans, "hit", 0, "edge AB", Fraction(1, 4), (0, -1, 0),
                   [(0, "edge AB"), (0, "vertex A")], point=(0, 0, 0), center=(0, -0.5, 0))

    def test_irrational_vertex_alpha(self):
        # c(alpha) = (-3 + 3 alpha, -1/2, alpha/2), r = 1: |c - A|^2 = 1 at
        # 9.25 alpha^2 - 18 alpha + 8.25 = 0, alpha = (18 - sqrt(18.75)) / 18.5.
        ans = R.cast(UNIT, (-3, -0.5, 0), (0, -0.5, 0.5), 1.0, two_sided=True)
        self.assertEqual(R.SLOTS[ans.slot], "vertex A")
        self.assertFalse(ans.alpha.is_rational())
        a = ans.alpha.fraction(300)
        self.assertAlmostEqual(float(a), (18 - math.sqrt(18.75)) / 18.5, places=15)
        c = (-3 + 3 * a, Fraction(-1, 2), Fraction(1, 2) * a)
        self.assertLess(abs(sum(x * x for x in c) - 1), Fraction(1, 10**80))

    def test_initial_overlap_and_touch(self):
        ans = R.cast(SQUARE, (0.25, 0.25, 0.1), (0.25, 0.25, -2), 0.5)
        self.check(ans, "initial_overlap", 0, "face", 0, (0, 0, 1),
                   [(0, "face"), (1, "edge CA")])
        # Starting at distance exactly r: an ordinary contact at alpha 0 ...
        ans = R.cast(UNIT, (0.25, 0.25, 0.5), (0.25, 0.25, -1), 0.5)
        self.check(ans, "hit", 0, "face", 0, (0, 0, 1), [(0, "face")])
        # ... kept with --initial-overlap ignore, which skips real overlaps only.
        ans = R.cast(UNIT, (0.25, 0.25, 0.5), (0.25, 0.25, -1), 0.5, initial_overlap="ignore")
        self.check(ans, "hit", 0, "face", 0)
        ans = R.cast(UNIT, (0.25, 0.25, 0.25), (0.25, 0.25, -1), 0.5, initial_overlap="ignore")
        self.check(ans, "miss")
        # Moving away (N.d > 0): not counted under le.
        self.check(R.cast(UNIT, (0.25, 0.25, 0.5), (0.25, 0.25, 1), 0.5), "miss")

    def test_initial_feature_is_the_voronoi_region(self):
        ans = R.cast(UNIT, (-0.5, -0.5, 0), (-0.5, -0.5, -1), 1.0)       # closest: A
        self.check(ans, "initial_overlap", 0, "vertex A", 0)
        ans = R.cast(UNIT, (0.5, -0.5, 0), (0.5, -0.5, -1), 1.0)         # closest: on AB
        self.check(ans, "initial_overlap", 0, "edge AB", 0)
        ans = R.cast(UNIT, (1, -0.5, 0), (1, -0.5, -1), 1.0)             # on the A-B boundary: B
        self.check(ans, "initial_overlap", 0, "vertex B", 0)

    def test_ties_window(self):
        # Two triangles at heights 0 and 1e-10 * 2 (path of length 2): the
        # second is 1e-10 later in alpha, just inside or outside the window.
        for dz, inside in ((2e-10, True), (2.0000002e-10, False)):
            m = R.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, -dz), (1, 0, -dz), (0, 1, -dz)],
                       [[0, 1, 2], [3, 4, 5]])
            ans = R.cast(m, (0.25, 0.25, 1), (0.25, 0.25, -1), 0)
            self.assertEqual(len(ans.ties), 2 if inside else 1, dz)

    def test_tied_answer_reports_the_earliest_alpha(self):
        # Issue 22: the tie rule names triangle 0's vertex A (x = 0.001),
        # touched at 0.36210994927246249..., but vertex (0, -0.001, 0) is
        # touched 5.7e-11 earlier: the answer's alpha is that one.
        s = 0.001
        m = R.Mesh([(s, 0, 0), (-s, 0, 0), (0, s, 0), (0, -s, 0), (0, 0, s), (0, 0, -s)],
                   [[0, 2, 4], [2, 0, 5], [2, 1, 4], [1, 2, 5], [1, 3, 4], [3, 1, 5], [3, 0, 4], [0, 3, 5]])
        ans = R.cast(m, (1312500.0015625001, -2812500.001875, 1875000.0010000002),
                     (-1312500.0010625, 2812500.00375, -1875000.00275), 1000000.0)
        self.assertEqual((ans.state, ans.triangle, ans.feature, ans.vertices), ("hit", 0, "vertex", [0]))
        self.assertEqual(float(ans.alpha.fraction()), 0.3621099492154215)
        self.assertEqual(ans.alpha.fraction(), min(a.fraction() for t, slot, a in ans.ties))
        own = [a for t, slot, a in ans.ties if (t, slot) == (0, R.VERTEX_A)][0]
        self.assertEqual(float(own.fraction()), 0.3621099492724625)

    def test_range_limit(self):
        # A coordinate or radius beyond 1e50: a record error; 1e50 itself is answered.
        self.assertEqual(R.cast(UNIT, (0.25, 0.25, 2e50), (0.25, 0.25, -1), 0).state, "error")
        self.assertEqual(R.cast(UNIT, (0.25, 0.25, 1), (0.25, 0.25, -1), 2e50).state, "error")
        self.assertEqual(R.cast(UNIT, (0.25, 0.25, 1e50), (0.25, 0.25, -1), 0).state, "hit")
        # A triangle with a vertex beyond 1e50 is never hit.
        far = math.nextafter(1e50, math.inf)
        m = R.Mesh([(0, 0, 0), (far, 0, 0), (0, 1, 0), (0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2], [3, 4, 5]])
        ans = R.cast(m, (0.25, 0.25, 1), (0.25, 0.25, -1), 0)
        self.check(ans, "hit", 1, "face", Fraction(1, 2), tie=[(1, "face")])

    def test_ambiguity_band_follows_the_documented_accuracy(self):
        # Two parallel triangles, the second offset in alpha by 1e-10 + 2^-45
        # (path of length 2 along z): outside the window; decided for a
        # point (alpha correctly rounded), ambiguous for a ball (2^-40).
        dz = 2 * (Fraction(1e-10) + Fraction(1, 2**45))
        self.assertEqual(Fraction(float(dz)), dz)
        m = R.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, -float(dz)), (1, 0, -float(dz)), (0, 1, -float(dz))],
                   [[0, 1, 2], [3, 4, 5]])
        ans = R.cast(m, (0.25, 0.25, 1), (0.25, 0.25, -1), 0)
        self.assertEqual(len(ans.ties), 1)
        self.assertFalse(ans.ambiguous)
        ans = R.cast(m, (0.25, 0.25, 1.25), (0.25, 0.25, -0.75), 0.25)
        self.assertEqual(len(ans.ties), 1)
        self.assertTrue(ans.ambiguous)

    def test_degenerate_triangle_never_hit(self):
        m = R.Mesh([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [[0, 1, 2]])
        self.check(R.cast(m, (1, 0, 1), (1, 0, -1), 0, two_sided=True), "miss")

    def test_fan_triangulation(self):
        m = R.Mesh([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [[0, 1, 2, 3]])
        self.assertEqual(m.triangles, [(0, 1, 2), (0, 2, 3)])
        ans = R.cast(m, (0.25, 0.75, 1), (0.25, 0.75, -1), 0)
        self.check(ans, "hit", 1, "face", Fraction(1, 2))
        self.assertEqual(ans.face, 0)
        self.assertEqual(ans.vertices, [0, 2, 3])


class ExactPrimitives(unittest.TestCase):
    def setUp(self):
        getcontext().prec = 80

    def value(self, a, b, c, d=1):
        return (Decimal(a) + Decimal(b) * Decimal(c).sqrt()) / Decimal(d)

    def test_sign_matches_decimals(self):
        rng = random.Random(5)
        for _ in range(5000):
            a, b, c = rng.randint(-50, 50), rng.randint(-10, 10), rng.randint(0, 60)
            v = self.value(a, b, c)
            want = (v > Decimal("1e-60")) - (v < Decimal("-1e-60"))
            self.assertEqual(R.sign_a_plus_b_sqrt_c(a, b, c), want, (a, b, c))

    def test_compare_matches_decimals(self):
        rng = random.Random(6)
        for _ in range(5000):
            x = R.Alg(rng.randint(-30, 30), rng.randint(-5, 5), rng.randint(0, 30), rng.randint(1, 9))
            y = R.Alg(rng.randint(-30, 30), rng.randint(-5, 5), rng.randint(0, 30), rng.randint(1, 9))
            v = self.value(x.a, x.b, x.c, x.d) - self.value(y.a, y.b, y.c, y.d)
            want = (v > Decimal("1e-60")) - (v < Decimal("-1e-60"))
            self.assertEqual(R.compare(x, y), want, (x, y))

    def test_equal_values_with_different_radicands(self):
        self.assertEqual(R.compare(R.Alg(0, 1, 8), R.Alg(0, 2, 2)), 0)
        self.assertEqual(R.compare(R.Alg(2, 2, 2, 2), R.Alg(1, 1, 2)), 0)
        self.assertEqual(R.compare(R.Alg(3, 1, 4), R.Alg(5)), 0)     # sqrt(4) folded


def point_triangle_distance(p, a, b, c):
    """An independent float distance from p to the closed triangle abc:
    the plane distance if the projection is inside, else the nearest side."""
    def sub(u, v):
        return [u[i] - v[i] for i in range(3)]

    def dot(u, v):
        return sum(u[i] * v[i] for i in range(3))

    def cross(u, v):
        return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]

    n = cross(sub(b, a), sub(c, a))
    inside = all(dot(cross(sub(e1, e0), sub(p, e0)), n) >= 0 for e0, e1 in ((a, b), (b, c), (c, a)))
    if inside:
        return abs(dot(n, sub(p, a))) / math.sqrt(dot(n, n))
    best = math.inf
    for e0, e1 in ((a, b), (b, c), (c, a)):
        e = sub(e1, e0)
        t = min(1.0, max(0.0, dot(sub(p, e0), e) / dot(e, e)))
        q = [e0[i] + t * e[i] for i in range(3)]
        best = min(best, math.sqrt(dot(sub(p, q), sub(p, q))))
    return best


class BruteForce(unittest.TestCase):
    """Random scenes: sample the path and check with the independent distance
    that no counted triangle is touched before the answer, and that the
    answer's triangle is at distance r at the answer's alpha."""

    def test_random_casts(self):
        rng = random.Random(7)
        checked = 0
        for scene_index in range(3):
            _, casts = cases.scene_random(rng, 60)
            mb = cases.MeshBuilder()
            while len(mb.faces) < 8:
                pts = [tuple(Fraction(rng.uniform(-1, 1)) for _ in range(3)) for _ in range(3)]
                if cases.sine_ok(*pts, limit=0.2):
                    mb.face([mb.vertex(p) for p in pts])
            mesh = R.Mesh(mb.float_vertices(), mb.faces)
            for p0, p1, r, _ in casts:
                for opts in (("le", False), ("lt", False), ("le", True)):
                    self.check_cast(mesh, p0, p1, r, *opts)
                    checked += 1
        self.assertGreater(checked, 500)

    def counted(self, mesh, tri, p0, p1, approach, two_sided):
        a, b, c = (mesh.vertices[i] for i in mesh.triangles[tri])
        n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
             (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
             (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])]
        nd = sum(n[i] * (p1[i] - p0[i]) for i in range(3))
        if abs(nd) < 1e-9:
            return None                     # too close to call in floats
        return two_sided or (nd < 0 if approach == "lt" else nd <= 0)

    def check_cast(self, mesh, p0, p1, r, approach, two_sided):
        ans = R.cast(mesh, p0, p1, r, approach, two_sided)
        alpha = float(ans.alpha)
        margin = 1e-7
        for tri in range(len(mesh.triangles)):
            cnt = self.counted(mesh, tri, p0, p1, approach, two_sided)
            if cnt is None:
                continue
            a, b, c = (mesh.vertices[i] for i in mesh.triangles[tri])
            for k in range(21):
                s = (alpha - margin) * k / 20
                if s < 0:
                    continue
                centre = [p0[i] + s * (p1[i] - p0[i]) for i in range(3)]
                d = point_triangle_distance(centre, a, b, c)
                if cnt and ans.state != "initial_overlap":
                    self.assertGreater(d, r - 1e-12, (p0, p1, r, tri, s, ans.state, alpha))
        if ans.state == "hit":
            a, b, c = (mesh.vertices[i] for i in mesh.triangles[ans.triangle])
            d = point_triangle_distance(ans.center, a, b, c)
            self.assertAlmostEqual(d, r, delta=1e-9)
            for t, s, al in ans.ties:
                self.assertLessEqual(float(al), alpha + 1.0000001e-10)


class AverageNormal(unittest.TestCase):
    """--normal average: exact cancellation by hand, directions against
    decimals at 80 digits."""

    def test_cancelling_sets(self):
        self.assertTrue(R.units_cancel([(-99, 66, -22), (495, -330, 110)]))
        self.assertTrue(R.units_cancel([(1, 1, 0), (-1, 0, 1), (0, -1, -1)]))
        self.assertTrue(R.units_cancel([(3, 4, 0), (0, 0, 7), (-6, -8, 0), (0, 0, -1)]))
        self.assertFalse(R.units_cancel([(1, 1, 0), (-1, 0, 1), (0, -1, -2)]))
        self.assertFalse(R.units_cancel([(1, 0, 0), (-1, 0, 0), (0, 0, 1)]))
        # (1,1,0)/sqrt2 and (1,0,0): different square classes, not opposite
        self.assertFalse(R.units_cancel([(1, 1, 0), (-1, 0, 0)]))

    def test_cancel_gives_the_fallback(self):
        self.assertEqual(R.average_normal([(0, 0, 2), (0, 0, -5)], (0, 0, 2)), [0.0, 0.0, 1.0])

    def test_near_cancellation_against_decimal(self):
        getcontext().prec = 80
        for k in (20, 27, 40, 60):
            e = 2 ** k
            normals = [(0, 0, 1), (0, -1, -e)]          # (0, -1/e, -1) scaled by e
            got = R.average_normal(normals, (0, 0, 1))
            s = (Decimal(1) + Decimal(1) / Decimal(e * e)).sqrt()
            want = [Decimal(0), -Decimal(1) / Decimal(e) / s, 1 - 1 / s]
            length = sum(x * x for x in want).sqrt()
            for g, w in zip(got, want):
                self.assertAlmostEqual(g, float(w / length), delta=1e-16)


class Closest(unittest.TestCase):
    def test_hand_computed(self):
        a = R.closest(UNIT, (0.25, 0.25, 2))
        self.assertEqual((a.triangle, a.feature, a.distance, a.point, a.normal),
                         (0, "face", 2.0, [0.25, 0.25, 0.0], [0.0, 0.0, 1.0]))
        a = R.closest(UNIT, (2, -1, 0))
        self.assertEqual((a.feature, a.vertices, a.point), ("vertex", [1], [1.0, 0.0, 0.0]))
        self.assertAlmostEqual(a.distance, math.sqrt(2), places=15)
        a = R.closest(UNIT, (0.5, -3, 4))
        self.assertEqual((a.feature, a.vertices, a.distance, a.normal), ("edge", [0, 1], 5.0, [0.0, -0.6, 0.8]))
        # On the shared diagonal of SQUARE: triangle 0's edge (the lower number).
        a = R.closest(SQUARE, (0.5, 0.5, 0))
        self.assertEqual((a.triangle, a.feature, a.distance, a.normal), (0, "edge", 0.0, [0.0, 0.0, 1.0]))


class Intersect(unittest.TestCase):
    """The man page's INTERSECT example and hand-computed pairs."""

    def tri(self, *pts):
        return tuple(tuple(Fraction(c) for c in p) for p in pts)

    def test_man_page_example(self):
        a = self.tri((0, 0, 0), (4, 0, 0), (0, 4, 0))
        self.assertEqual(I.pair(a, self.tri((1, 1, 0), (2, 1, 1), (1, 2, 1))),
                         ("touching", ((1, 1, 0), (1, 1, 0))))
        self.assertEqual(I.pair(a, self.tri((1, 1, -1), (3, 1, -1), (2, 1, 1))),
                         ("crossing", ((Fraction(3, 2), 1, 0), (Fraction(5, 2), 1, 0))))

    def test_coplanar(self):
        a = self.tri((0, 0, 0), (4, 0, 0), (0, 4, 0))
        # Every vertex and edge contact on a boundary, yet a common area.
        self.assertEqual(I.pair(a, self.tri((-1, -1, 0), (2, 2, 0), (6, -2, 0))), ("coplanar", None))
        self.assertEqual(I.pair(a, self.tri((4, 0, 0), (5, 0, 0), (4, 1, 0))), ("touching", ((4, 0, 0), (4, 0, 0))))
        self.assertEqual(I.pair(a, self.tri((0, 0, 0), (0, -4, 0), (4, 0, 0))), ("touching", ((0, 0, 0), (4, 0, 0))))
        self.assertIsNone(I.pair(a, self.tri((5, 0, 0), (6, 0, 0), (5, 1, 0))))

    def test_needle_and_disjoint(self):
        a = self.tri((-1, -1, 0), (3, -1, 0), (-1, 3, 0))
        w = Fraction(1, 2 ** 60)
        got = I.pair(a, self.tri((0, Fraction(1, 2), -1), (0, Fraction(1, 2), 1), (w, Fraction(1, 2), 1)))
        self.assertEqual(got, ("crossing", ((w / 2, Fraction(1, 2), 0), (0, Fraction(1, 2), 0))))
        self.assertIsNone(I.pair(a, self.tri((0, 0, 1), (1, 0, 1), (0, 1, 2))))
        # An edge along the other's plane, touching its interior.
        self.assertEqual(I.pair(a, self.tri((0, 0, 0), (1, 0, 0), (0, 0, 1)))[0], "touching")


if __name__ == "__main__":
    unittest.main()
