/* closest_triangle.c tests: Ericson's Voronoi-region closest point against a
 * reference that minimises over the face projection and the three edges. */
#include <float.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* Reference: the plane projection if inside (by barycentric signs), else
 * the nearest of the three clamped edge projections. */
static bcVec3 referenceClosest(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 n = bcCross(bcSub(b, a), bcSub(c, a));
	bcVec3 q = bcSub(p, bcScale(bcDot(n, bcSub(p, a)) / bcDot(n, n), n));
	double u = bcDot(n, bcCross(bcSub(b, q), bcSub(c, q)));
	double v = bcDot(n, bcCross(bcSub(c, q), bcSub(a, q)));
	double w = bcDot(n, bcCross(bcSub(a, q), bcSub(b, q)));
	if (u >= 0 && v >= 0 && w >= 0) {
		return q;
	}
	const bcVec3 s[3][2] = { { a, b }, { b, c }, { c, a } };
	bcVec3 best = a;
	double bestDistance = INFINITY;
	for (int k = 0; k < 3; ++k) {
		bcVec3 e = bcSub(s[k][1], s[k][0]);
		double t = bcDot(bcSub(p, s[k][0]), e) / bcDot(e, e);
		t = t < 0 ? 0 : (t > 1 ? 1 : t);
		bcVec3 x = bcMulAdd(s[k][0], t, e);
		if (bcDistance(p, x) < bestDistance) {
			bestDistance = bcDistance(p, x);
			best = x;
		}
	}
	return best;
}

START_TEST(regions)
{
	bcVec3 a = { 0, 0, 0 }, b = { 2, 0, 0 }, c = { 0, 2, 0 };
	bcClosestPoint r = bcClosestPointTriangle(bcMakeVec3(0.5, 0.5, 3), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureFace);
	bcAssertVecNear(r.point, 0.5, 0.5, 0, 1e-15);
	bcAssertNear(r.distance, 3, 1e-15);
	r = bcClosestPointTriangle(bcMakeVec3(-1, -1, 1), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureVertex);
	ck_assert_int_eq(r.vertices[0], 0);
	r = bcClosestPointTriangle(bcMakeVec3(3, -1, 0), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureVertex);
	ck_assert_int_eq(r.vertices[0], 1);
	r = bcClosestPointTriangle(bcMakeVec3(-0.5, 3, 0), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureVertex);
	ck_assert_int_eq(r.vertices[0], 2);
	r = bcClosestPointTriangle(bcMakeVec3(1, -1, 1), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureEdge);
	ck_assert_int_eq(r.vertices[0], 0);
	ck_assert_int_eq(r.vertices[1], 1);
	bcAssertVecNear(r.point, 1, 0, 0, 1e-15);
	r = bcClosestPointTriangle(bcMakeVec3(2, 2, 0), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureEdge);
	ck_assert_int_eq(r.vertices[0], 1);
	ck_assert_int_eq(r.vertices[1], 2);
	bcAssertVecNear(r.point, 1, 1, 0, 1e-15);
	r = bcClosestPointTriangle(bcMakeVec3(-1, 1, -2), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureEdge);
	ck_assert_int_eq(r.vertices[0], 2);
	ck_assert_int_eq(r.vertices[1], 0);
	bcAssertVecNear(r.point, 0, 1, 0, 1e-15);
}
END_TEST

START_TEST(points_on_the_triangle)
{
	bcVec3 a = { 1, 2, 3 }, b = { 4, 2, 3 }, c = { 1, 6, 3 };
	bcClosestPoint r = bcClosestPointTriangle(a, a, b, c);
	ck_assert_int_eq(r.feature, bc_featureVertex);
	bcAssertNear(r.distance, 0, 0);
	r = bcClosestPointTriangle(bcMakeVec3(2.5, 2, 3), a, b, c);
	bcAssertNear(r.distance, 0, 0);
	r = bcClosestPointTriangle(bcMakeVec3(2, 3, 3), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureFace);
	bcAssertNear(r.distance, 0, 1e-15);
}
END_TEST

START_TEST(random_against_reference)
{
	bcRandom rng = { 42 };
	bcVec3 lo = { -2, -2, -2 }, hi = { 2, 2, 2 };
	for (int i = 0; i < 200000; ++i) {
		bcVec3 a = bcRandom_InBox(&rng, lo, hi), b = bcRandom_InBox(&rng, lo, hi), c = bcRandom_InBox(&rng, lo, hi);
		bcVec3 p = bcRandom_InBox(&rng, bcScale(2, lo), bcScale(2, hi));
		bcVec3 n = bcCross(bcSub(b, a), bcSub(c, a));
		if (bcLength(n) < 1e-3) {
			continue;
		}
		bcClosestPoint r = bcClosestPointTriangle(p, a, b, c);
		bcVec3 q = referenceClosest(p, a, b, c);
		ck_assert_msg(fabs(r.distance - bcDistance(p, q)) <= 1e-12, "case %d: %.17g vs %.17g", i, r.distance,
					  bcDistance(p, q));
		ck_assert_msg(bcDistance(r.point, q) <= 1e-9, "case %d: points differ by %g", i, bcDistance(r.point, q));
	}
}
END_TEST

START_TEST(degenerate_triangle)
{
	bcVec3 a = { 0, 0, 0 }, b = { 1, 0, 0 }, c = { 2, 0, 0 };
	bcClosestPoint r = bcClosestPointTriangle(bcMakeVec3(1.5, 1, 0), a, b, c);
	bcAssertNear(r.distance, 1, 1e-15);
	ck_assert(isfinite(r.point.x) && isfinite(r.point.y) && isfinite(r.point.z));
}
END_TEST

/* A triangle far longer than wide (the fuzzer's find: 250,860 by 3): a
 * point at height h over the face must be found h from it. Ericson's
 * barycentric products lose all but five digits on such a triangle and
 * put the point 2e-3 off the plane; the tolerance here is 1e-12 of the
 * length. */
START_TEST(long_thin_triangles)
{
	bcVec3 a = { 250860, 0, 0 }, b = { 0.25, 0.25, 3.05 }, c = { -1, 0.25, 0.3125 };
	bcVec3 p = { 37811.201245674725, 0.21231833910034581, 1.9401038062283738 };
	bcClosestPoint r = bcClosestPointTriangle(p, a, b, c);
	ck_assert_int_eq(r.feature, bc_featureFace);
	ck_assert_msg(r.distance <= 1e-12, "distance %.17g", r.distance);

	bcRandom rng = { 7 };
	bcVec3 lo = { -1, -1, -1 }, hi = { 1, 1, 1 };
	for (int i = 0; i < 20000; ++i) {
		double length = pow(10.0, 2 + i % 5);
		bcVec3 base = bcRandom_InBox(&rng, lo, hi);
		bcVec3 dir = bcNormalize(bcRandom_InBox(&rng, lo, hi));
		bcVec3 ta = bcScale(length, dir);
		bcVec3 tb = base, tc = bcAdd(base, bcRandom_InBox(&rng, lo, hi));
		bcVec3 n = bcNormalize(bcCross(bcSub(tb, ta), bcSub(tc, ta)));
		double u = bcRandom_Uniform(&rng, 0.05, 0.9), v = bcRandom_Uniform(&rng, 0.05, 0.9 - u * 0.9);
		bcVec3 inside = bcAdd(ta, bcAdd(bcScale(u, bcSub(tb, ta)), bcScale(v, bcSub(tc, ta))));
		double h = bcRandom_Uniform(&rng, -1, 1);
		bcVec3 q = bcMulAdd(inside, h, n);
		bcClosestPoint cp = bcClosestPointTriangle(q, ta, tb, tc);
		if (cp.feature != bc_featureFace) {
			continue; /* a sliver of the random base: near an edge */
		}
		ck_assert_msg(fabs(cp.distance - fabs(h)) <= 1e-12 * length, "case %d (length %g): %.17g vs %.17g", i,
					  length, cp.distance, fabs(h));
		ck_assert_msg(bcDistance(cp.point, inside) <= 1e-12 * length, "case %d: point off by %g", i,
					  bcDistance(cp.point, inside));
	}
}
END_TEST

/* Issue 28's cap (sine of its smallest angle 4.9e-14): the point where a
 * path crosses it, 5.1e-16 from its plane (exact, Python's decimal), was
 * put 2.2e-5 from it by the region tests and the projection of a normal
 * 3.5e-4 of a radian off. */
START_TEST(thin_cap)
{
	bcVec3 a = { -0.8165054820718729, 0.7251644832866933, 19.482122322724678 };
	bcVec3 b = { -0.8660117400948595, 1.1327437720134903, 20.000907085962915 };
	bcVec3 c = { -0.8486255573875368, 0.989605343367905, 19.81871422712761 };
	bcVec3 p = { -0.8437142598514232, 0.9491711995560284, 19.767247878605065 };
	bcClosestPoint r = bcClosestPointTriangle(p, a, b, c);
	ck_assert_int_eq(r.feature, bc_featureFace);
	ck_assert_msg(fabs(r.distance - 5.13986e-16) <= 1e-16, "distance %.17g", r.distance);
	/* 1e-3 over it, along the exact normal: 1e-3 away, the foot p. */
	const bcVec3 n = { -0.11476462745547845, -0.7864411071098775, 0.6069097670435 };
	r = bcClosestPointTriangle(bcMulAdd(p, 1e-3, n), a, b, c);
	ck_assert_int_eq(r.feature, bc_featureFace);
	bcAssertNear(r.distance, 1e-3, 1e-15);
	bcAssertVecNear(r.point, p.x, p.y, p.z, 1e-14);
}
END_TEST

/* Seed 004's barycentric coordinates: by hand in each region, then on
 * random triangles and points: they sum to 1, make the point, are exact
 * at vertices (1, 0, 0 in the vertex's place) and 0 opposite an edge. */
static void expectWeights(bcClosestPoint r, double u, double v, double w)
{
	ck_assert_msg(r.barycentric[0] == u && r.barycentric[1] == v && r.barycentric[2] == w,
				  "weights (%.17g %.17g %.17g), expected (%.17g %.17g %.17g)", r.barycentric[0], r.barycentric[1],
				  r.barycentric[2], u, v, w);
}

START_TEST(barycentric_coordinates)
{
	bcVec3 a = { 0, 0, 0 }, b = { 2, 0, 0 }, c = { 0, 2, 0 };
	expectWeights(bcClosestPointTriangle(bcMakeVec3(0.5, 0.5, 3), a, b, c), 0.5, 0.25, 0.25);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(1.5, 0.25, -1), a, b, c), 0.125, 0.75, 0.125);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(-1, -1, 1), a, b, c), 1, 0, 0);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(3, -1, 0), a, b, c), 0, 1, 0);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(-0.5, 3, 0), a, b, c), 0, 0, 1);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(1, -1, 1), a, b, c), 0.5, 0.5, 0);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(1.5, -1, 1), a, b, c), 0.25, 0.75, 0);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(2, 2, 0), a, b, c), 0, 0.5, 0.5);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(2.5, 1.5, 0), a, b, c), 0, 0.75, 0.25);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(-1, 1, -2), a, b, c), 0.5, 0, 0.5);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(-1, 0.5, -2), a, b, c), 0.75, 0, 0.25);
	/* points on the triangle: its vertices exactly, an edge's midpoint */
	expectWeights(bcClosestPointTriangle(b, a, b, c), 0, 1, 0);
	expectWeights(bcClosestPointTriangle(c, a, b, c), 0, 0, 1);
	expectWeights(bcClosestPointTriangle(bcMakeVec3(1, 1, 0), a, b, c), 0, 0.5, 0.5);
	/* a degenerate triangle (A B C on a line, C = 2B): the point (1.5, 0, 0)
	 * is found on its long edge CA, 3/4 of the way from A */
	bcClosestPoint r = bcClosestPointTriangle(bcMakeVec3(1.5, 1, 0), a, bcMakeVec3(1, 0, 0), b);
	bcAssertVecNear(r.point, 1.5, 0, 0, 0);
	expectWeights(r, 0.25, 0, 0.75);

	bcRandom rng = { 2024 };
	bcVec3 lo = { -2, -2, -2 }, hi = { 2, 2, 2 };
	int kinds[3] = { 0 };
	for (int i = 0; i < 100000; ++i) {
		bcVec3 ta = bcRandom_InBox(&rng, lo, hi), tb = bcRandom_InBox(&rng, lo, hi), tc = bcRandom_InBox(&rng, lo, hi);
		bcVec3 p = bcRandom_InBox(&rng, bcScale(2, lo), bcScale(2, hi));
		if (bcLength(bcCross(bcSub(tb, ta), bcSub(tc, ta))) < 1e-3) {
			continue;
		}
		bcClosestPoint cp = bcClosestPointTriangle(p, ta, tb, tc);
		const double* w = cp.barycentric;
		ck_assert_msg(fabs(w[0] + w[1] + w[2] - 1.0) <= 4.0 * DBL_EPSILON, "case %d: sum %.17g", i,
					  w[0] + w[1] + w[2]);
		for (int k = 0; k < 3; ++k) {
			ck_assert_msg(w[k] >= -1e-12 && w[k] <= 1.0 + 1e-12, "case %d: weight %.17g", i, w[k]);
		}
		bcVec3 made = bcAdd(bcScale(w[0], ta), bcAdd(bcScale(w[1], tb), bcScale(w[2], tc)));
		ck_assert_msg(bcDistance(made, cp.point) <= 1e-12, "case %d: the weights make a point %g off", i,
					  bcDistance(made, cp.point));
		if (cp.feature == bc_featureVertex) {
			for (int k = 0; k < 3; ++k) {
				ck_assert(w[k] == (k == cp.vertices[0] ? 1.0 : 0.0));
			}
		} else if (cp.feature == bc_featureEdge) {
			ck_assert(w[3 - cp.vertices[0] - cp.vertices[1]] == 0.0);
		}
		kinds[cp.feature == bc_featureFace ? 0 : (cp.feature == bc_featureEdge ? 1 : 2)] += 1;
	}
	ck_assert(kinds[0] > 1000 && kinds[1] > 1000 && kinds[2] > 1000);
}
END_TEST

static Suite* closestSuite(void)
{
	Suite* s = suite_create("closest");
	TCase* tc = tcase_create("triangle");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, regions);
	tcase_add_test(tc, points_on_the_triangle);
	tcase_add_test(tc, random_against_reference);
	tcase_add_test(tc, degenerate_triangle);
	tcase_add_test(tc, long_thin_triangles);
	tcase_add_test(tc, thin_cap);
	tcase_add_test(tc, barycentric_coordinates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(closestSuite());
}
