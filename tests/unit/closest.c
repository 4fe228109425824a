/* closest.c tests: Ericson's Voronoi-region closest point against a
 * reference that minimises over the face projection and the three edges. */
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

static Suite* closestSuite(void)
{
	Suite* s = suite_create("closest");
	TCase* tc = tcase_create("triangle");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, regions);
	tcase_add_test(tc, points_on_the_triangle);
	tcase_add_test(tc, random_against_reference);
	tcase_add_test(tc, degenerate_triangle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(closestSuite());
}
