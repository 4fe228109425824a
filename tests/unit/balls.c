/* balls.c tests: two moving balls (hand-computed times, contacts, the
 * touching and overlap rules, extreme scales), the elastic response
 * (hand-computed velocities, conservation on random pairs), and sets of
 * balls (a hand-computed set with a tie, the tie window, and the sweep and
 * prune against all pairs and against an independent reference). */
#include <float.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* Momentum and kinetic energy after a response agree with before to this,
 * relative to their size: a handful of roundings of order 1e-16 each. */
#define CONSERVATION_TOLERANCE 1e-12

/* At a reported contact the centres are r1 + r2 apart to within this,
 * relative to the pair's size (scene extent plus radii): the roots carry a
 * relative error of about sqrt(DBL_EPSILON) only in grazing contacts. */
#define CONTACT_TOLERANCE 1e-9

/* The bisection reference against the quadratic, for pairs that are not
 * grazing (the closest approach at least 1e-3 R inside R): the root is
 * then well conditioned and both agree to a few ulps of the scene. */
#define REFERENCE_TOLERANCE 1e-12

static bcVec3 vec(double x, double y, double z)
{
	return bcMakeVec3(x, y, z);
}

static bool sameBits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static bool sameVecBits(bcVec3 a, bcVec3 b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* ------------------------------------------------------------ two balls */

START_TEST(head_on_equal_balls)
{
	/* Centres 4 apart closing at 4 per unit alpha, R = 1: |4 - 4 alpha| = 1. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(2, 0, 0), 0.5, vec(4, 0, 0), vec(-2, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0.75, 0);
	bcAssertVecNear(hit.point, 2, 0, 0, 0);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0);
	hit = bcCollideBalls(vec(4, 0, 0), vec(-2, 0, 0), 0.5, vec(0, 0, 0), vec(2, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0.75, 0);
	bcAssertVecNear(hit.point, 2, 0, 0, 0);
	bcAssertVecNear(hit.normal, -1, 0, 0, 0);
}
END_TEST

START_TEST(one_at_rest)
{
	/* Ball 2 (r 0.25) from x = 3 at -4 per alpha onto ball 1 (r 0.5) at
	 * rest: |3 - 4 alpha| = 0.75, alpha = 2.25 / 4. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 0.5, vec(3, 0, 0), vec(-4, 0, 0), 0.25);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0.5625, 0);
	bcAssertVecNear(hit.point, 0.5, 0, 0, 0);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0);
	/* Seen from the moving ball: its centre is at 0.75, the point 0.25 back. */
	hit = bcCollideBalls(vec(3, 0, 0), vec(-4, 0, 0), 0.25, vec(0, 0, 0), vec(0, 0, 0), 0.5);
	bcAssertNear(hit.alpha, 0.5625, 0);
	bcAssertVecNear(hit.point, 0.5, 0, 0, 0);
	bcAssertVecNear(hit.normal, -1, 0, 0, 0);
}
END_TEST

START_TEST(glancing)
{
	/* Offset 1 sideways, R = 2: they touch when the x gap is sqrt(3). */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(10, 1, 0), vec(-10, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, (10 - sqrt(3.0)) / 10, 4e-16);
	bcAssertVecNear(hit.normal, sqrt(3.0) / 2, 0.5, 0, 4e-16);
	bcAssertVecNear(hit.point, sqrt(3.0) / 2, 0.5, 0, 4e-16);

	/* Offset exactly R: they graze at the closest approach, alpha 0.5. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(10, 2, 0), vec(-20, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0.5, 0);
	bcAssertVecNear(hit.normal, 0, 1, 0, 0);
	bcAssertVecNear(hit.point, 0, 1, 0, 0);

	/* A hair further out: they pass. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(10, 2.000000000000001, 0), vec(-20, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballMiss);
	bcAssertNear(hit.alpha, 1, 0);
	bcAssertVecNear(hit.normal, 0, 0, 0, 0);
	bcAssertVecNear(hit.point, 0, 0, 0, 0);
}
END_TEST

START_TEST(parallel_never_meet)
{
	/* Same velocity: at relative rest, 3 apart. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(5, 1, 0), 1, vec(0, 3, 0), vec(5, 1, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballMiss);
	bcAssertNear(hit.alpha, 1, 0);
	/* Side by side in opposite directions, 2.5 apart with R = 2. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(5, 0, 0), 1, vec(5, 2.5, 0), vec(-5, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballMiss);
	/* Moving apart. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(-1, 0, 0), 1, vec(3, 0, 0), vec(1, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(meeting_after_alpha_one_is_a_miss)
{
	/* |4 - 3 alpha| = 1 at alpha 1 exactly: a hit; a little slower: a miss. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 0.5, vec(4, 0, 0), vec(-3, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 1, 0);
	bcAssertVecNear(hit.point, 0.5, 0, 0, 0);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 0.5, vec(4, 0, 0), vec(-2.9, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(already_overlapping)
{
	/* 0.5 apart, R = 1: an overlap at alpha 0 whatever the motion. */
	bcBallHit hit = bcCollideBalls(vec(1, 1, 1), vec(0, 0, -7), 0.5, vec(1, 1, 1.5), vec(0, 0, 9), 0.5);
	ck_assert_int_eq(hit.state, bc_ballInitialOverlap);
	bcAssertNear(hit.alpha, 0, 0);
	bcAssertVecNear(hit.normal, 0, 0, 1, 0);
	bcAssertVecNear(hit.point, 1, 1, 1.5, 0);
	/* Coincident centres: the normal is where ball 2 heads from ball 1. */
	hit = bcCollideBalls(vec(1, 1, 1), vec(0, 1, 0), 0.5, vec(1, 1, 1), vec(0, -2, 0), 0.25);
	ck_assert_int_eq(hit.state, bc_ballInitialOverlap);
	bcAssertVecNear(hit.normal, 0, -1, 0, 0);
	bcAssertVecNear(hit.point, 1, 0.5, 1, 0);
	/* ... and (0,0,0) when nothing says where. */
	hit = bcCollideBalls(vec(1, 1, 1), vec(3, 0, 0), 0.5, vec(1, 1, 1), vec(3, 0, 0), 0.25);
	ck_assert_int_eq(hit.state, bc_ballInitialOverlap);
	bcAssertVecNear(hit.normal, 0, 0, 0, 0);
	bcAssertVecNear(hit.point, 1, 1, 1, 0);
	ck_assert(!signbit(hit.normal.x) && !signbit(hit.normal.y) && !signbit(hit.normal.z));
}
END_TEST

START_TEST(touching_at_start)
{
	/* Exactly R = 1 apart at alpha 0. */
	bcVec3 c1 = vec(0, 0, 0), c2 = vec(1, 0, 0);
	bcBallHit hit = bcCollideBalls(c1, vec(1, 0, 0), 0.5, c2, vec(0, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballHit); /* approaching: they meet at 0 */
	bcAssertNear(hit.alpha, 0, 0);
	bcAssertVecNear(hit.point, 0.5, 0, 0, 0);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0);
	hit = bcCollideBalls(c1, vec(-1, 0, 0), 0.5, c2, vec(0, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballMiss); /* separating */
	hit = bcCollideBalls(c1, vec(0, 0, 0), 0.5, c2, vec(0, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballMiss); /* at rest */
	hit = bcCollideBalls(c1, vec(0, 1, 0), 0.5, c2, vec(0, 0, 0), 0.5);
	ck_assert_int_eq(hit.state, bc_ballMiss); /* sliding past: only apart from here */
}
END_TEST

START_TEST(points_meet_only_on_a_line)
{
	/* r1 = r2 = 0: two points meet only when their paths cross exactly. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(1, 1, 0), 0, vec(2, 0, 0), vec(-1, 1, 0), 0);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 1, 0);
	bcAssertVecNear(hit.point, 1, 1, 0, 0);
	hit = bcCollideBalls(vec(0, 0, 0), vec(1, 1, 0), 0, vec(2, 0, 1e-300), vec(-1, 1, 0), 0);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(invalid_inputs)
{
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), -1, vec(1, 0, 0), vec(0, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballInvalid);
	bcAssertNear(hit.alpha, 1, 0);
	hit = bcCollideBalls(vec(0, 0, 0), vec(NAN, 0, 0), 1, vec(1, 0, 0), vec(0, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballInvalid);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(1, 0, INFINITY), vec(0, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballInvalid);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(1, 0, 0), vec(0, 0, 0), INFINITY);
	ck_assert_int_eq(hit.state, bc_ballInvalid);
	hit = bcCollideBalls(vec(DBL_MAX, 0, 0), vec(DBL_MAX, 0, 0), 1, vec(1, 0, 0), vec(0, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballInvalid); /* c1 + d1 overflows */
}
END_TEST

START_TEST(far_apart_grazing_is_exact)
{
	/* R = 1e-3, 1e4 away, passing 0.9999999 R off centre. The textbook
	 * discriminant b^2 - ac is a difference of two numbers near 4e16 whose
	 * true value is +-8e-5: it comes out 0 whether the balls graze or pass
	 * 1e-10 apart. The cross-product form gets the touch, the exact time,
	 * and the miss. */
	double R = 1e-3, y = 0.9999999e-3;
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), R / 2, vec(1e4, y, 0), vec(-2e4, 0, 0), R / 2);
	ck_assert_int_eq(hit.state, bc_ballHit);
	double expected = (1e4 - sqrt(R * R - y * y)) / 2e4;
	bcAssertNear(hit.alpha, expected, 2e-16);
	ck_assert(hit.alpha < 0.5);
	/* ... and just outside, a miss. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), R / 2, vec(1e4, 1.0000001e-3, 0), vec(-2e4, 0, 0), R / 2);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(extreme_scales)
{
	/* The head-on case scaled by powers of two gives the same alpha bit for
	 * bit, even where the unscaled squares would overflow or underflow. */
	const int exponents[] = { -1060, -900, -600, -300, 0, 300, 600, 900, 1020 };
	for (size_t k = 0; k < sizeof exponents / sizeof exponents[0]; ++k) {
		double s = ldexp(1.0, exponents[k]);
		bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(2 * s, 0, 0), 0.5 * s, vec(4 * s, 0, 0),
									   vec(-2 * s, 0, 0), 0.5 * s);
		ck_assert_msg(hit.state == bc_ballHit, "scale 2^%d: state %d", exponents[k], hit.state);
		ck_assert_msg(hit.alpha == 0.75, "scale 2^%d: alpha %.17g", exponents[k], hit.alpha);
		bcAssertVecNear(hit.normal, 1, 0, 0, 0);
		bcAssertNear(hit.point.x, 2 * s, 0);
	}
	/* Near the top of the range, with decimal coordinates: |8 - 10 alpha| = 2. */
	bcBallHit hit = bcCollideBalls(vec(-4e300, 0, 0), vec(5e300, 0, 0), 1e300, vec(4e300, 0, 0), vec(-5e300, 0, 0),
								   1e300);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0.6, 1e-15);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0);
	/* c2 - c1 = 3e308 overflows unscaled: |3 - 3 alpha| = 0.5 (in 1e308). */
	hit = bcCollideBalls(vec(-1.5e308, 0, 0), vec(1.5e308, 0, 0), 0.25e308, vec(1.5e308, 0, 0), vec(-1.5e308, 0, 0),
						 0.25e308);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 2.5 / 3.0, 1e-15);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0);
	ck_assert(bcIsFinite(hit.point));
	bcAssertNear(hit.point.x, 0, 1e293);
}
END_TEST

/* The first alpha at which |m + alpha d| = R, by bisection on the
 * decreasing part of the distance, independent of the quadratic. Returns
 * false on a miss; *grazing is set when the closest approach is within
 * 1e-3 R of R (the root is then ill conditioned). */
static bool bisectionReference(bcVec3 m, bcVec3 d, double R, double* alpha, bool* grazing)
{
	double aa = bcDot(d, d);
	double tStar = aa > 0.0 ? -bcDot(m, d) / aa : 0.0;
	tStar = tStar < 0.0 ? 0.0 : (tStar > 1.0 ? 1.0 : tStar);
	double closest = bcLength(bcMulAdd(m, tStar, d));
	*grazing = fabs(closest - R) <= 1e-3 * R;
	if (bcLength(m) <= R || closest > R) {
		*alpha = bcLength(m) < R ? 0.0 : 1.0;
		return bcLength(m) < R;
	}
	double lo = 0.0, hi = tStar;
	for (int i = 0; i < 200; ++i) {
		double mid = 0.5 * (lo + hi);
		if (bcLength(bcMulAdd(m, mid, d)) > R) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	*alpha = hi;
	return true;
}

START_TEST(random_pairs_against_bisection)
{
	bcRandom rng = { 20261120 };
	int hits = 0, checked = 0;
	for (int i = 0; i < 20000; ++i) {
		bcVec3 lo = vec(-2, -2, -2), hi = vec(2, 2, 2);
		bcVec3 c1 = bcRandom_InBox(&rng, lo, hi), c2 = bcRandom_InBox(&rng, lo, hi);
		bcVec3 d1 = bcRandom_InBox(&rng, bcScale(2, lo), bcScale(2, hi));
		bcVec3 d2 = bcRandom_InBox(&rng, bcScale(2, lo), bcScale(2, hi));
		double r1 = bcRandom_Uniform(&rng, 0, 1), r2 = bcRandom_Uniform(&rng, 0, 1);
		bcBallHit hit = bcCollideBalls(c1, d1, r1, c2, d2, r2);
		bcBallHit swapped = bcCollideBalls(c2, d2, r2, c1, d1, r1);
		/* Symmetric bit for bit. */
		ck_assert_int_eq(hit.state, swapped.state);
		ck_assert(sameBits(hit.alpha, swapped.alpha));
		ck_assert(sameVecBits(hit.normal, bcPositiveZeros(bcNeg(swapped.normal))));

		bcVec3 m = bcSub(c2, c1), d = bcSub(d2, d1);
		double R = r1 + r2;
		double ref;
		bool grazing;
		bool refHit = bisectionReference(m, d, R, &ref, &grazing);
		if (hit.state == bc_ballMiss) {
			ck_assert_msg(!refHit || grazing, "pair %d: missed, reference alpha %.17g", i, ref);
			continue;
		}
		ck_assert_msg(refHit || grazing, "pair %d: hit at %.17g, the reference misses", i, hit.alpha);
		hits += 1;
		double size = bcLength(m) + bcLength(d) + R;
		if (hit.state == bc_ballInitialOverlap) {
			ck_assert(bcLength(m) < R * (1 + 1e-15));
			continue;
		}
		/* At alpha the centres are R apart; the point is on both spheres. */
		bcVec3 a1 = bcMulAdd(c1, hit.alpha, d1), a2 = bcMulAdd(c2, hit.alpha, d2);
		bcAssertNear(bcDistance(a1, a2), R, CONTACT_TOLERANCE * size);
		bcAssertNear(bcDistance(hit.point, a1), r1, CONTACT_TOLERANCE * size);
		bcAssertNear(bcDistance(hit.point, a2), r2, CONTACT_TOLERANCE * size);
		bcAssertNear(bcLength(hit.normal), 1, 1e-15);
		if (!grazing) {
			bcAssertNear(hit.alpha, ref, REFERENCE_TOLERANCE * size / (bcLength(d) > 0 ? bcLength(d) : 1));
			checked += 1;
		}
	}
	/* The sample must actually exercise hits. */
	ck_assert_int_gt(hits, 2000);
	ck_assert_int_gt(checked, 1000);
}
END_TEST

/* ------------------------------------- exact decisions at every scale */

START_TEST(huge_motions_keep_initial_overlaps)
{
	/* The reported bug: the start alone decides an overlap, whatever the
	 * motion. r = 1 each, both at the origin, one heading to 1e200: the
	 * squares of the scaled radii underflowed and this was a miss. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(0, 0, 0), vec(1e200, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballInitialOverlap);
	bcAssertNear(hit.alpha, 0, 0);
	bcAssertVecNear(hit.normal, 1, 0, 0, 0); /* coincident: where ball 2 heads */
	/* 0.5 apart, R = 2, either way: it was a miss (away) or a plain hit at
	 * alpha 0 (towards). */
	const double sides[] = { 1, -1 };
	for (int e = 60; e <= 1023; e += 1) {
		for (size_t k = 0; k < 2; ++k) {
			double big = sides[k] * ldexp(1.0, e);
			hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(0.5, 0, 0), vec(big, 0, 0), 1);
			ck_assert_msg(hit.state == bc_ballInitialOverlap, "motion %g: state %d", big, hit.state);
			bcAssertNear(hit.alpha, 0, 0);
			bcAssertVecNear(hit.normal, 1, 0, 0, 0);
			bcAssertVecNear(hit.point, 1, 0, 0, 0);
			hit = bcCollideBalls(vec(0.5, 0, 0), vec(big, 0, 0), 1, vec(0, 0, 0), vec(0, 0, 0), 1);
			ck_assert_msg(hit.state == bc_ballInitialOverlap, "swapped, motion %g: state %d", big, hit.state);
		}
	}
}
END_TEST

START_TEST(huge_motions_meet_at_tiny_alphas)
{
	/* 3 apart, R = 2, closing at 2^e: |3 - 2^e alpha| = 2 at alpha = 2^-e
	 * exactly (2^-1023 is a subnormal, still exact). It was a hit at alpha 0
	 * beyond about 2^537, where (m.m - R^2) scaled underflowed to 0. */
	for (int e = 1; e <= 1023; ++e) {
		double speed = ldexp(1.0, e);
		bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(3, 0, 0), vec(-speed, 0, 0), 1);
		ck_assert_msg(hit.state == bc_ballHit, "2^%d: state %d", e, hit.state);
		ck_assert_msg(hit.alpha == ldexp(1.0, -e), "2^%d: alpha %.17g", e, hit.alpha);
		bcAssertVecNear(hit.normal, 1, 0, 0, 0);
		bcAssertVecNear(hit.point, 1, 0, 0, 0);
		/* Receding, or passing sideways (m.d = 0): they never meet. */
		hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(3, 0, 0), vec(speed, 0, 0), 1);
		ck_assert_msg(hit.state == bc_ballMiss, "2^%d away: state %d", e, hit.state);
		hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(3, 0, 0), vec(0, speed, 0), 1);
		ck_assert_msg(hit.state == bc_ballMiss, "2^%d sideways: state %d", e, hit.state);
		/* Exactly touching: a hit at 0 moving in, a miss moving out. */
		hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(0, 2, 0), vec(0, -speed, 0), 1);
		ck_assert_msg(hit.state == bc_ballHit && hit.alpha == 0, "2^%d touching: state %d", e, hit.state);
		bcAssertVecNear(hit.normal, 0, 1, 0, 0);
		hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(0, 2, 0), vec(0, speed, 0), 1);
		ck_assert_msg(hit.state == bc_ballMiss, "2^%d touching, away: state %d", e, hit.state);
	}
	/* Oblique at 1e300 times the radii: |(3, 1, 0) + alpha (-1e300, 0, 0)| = 2
	 * at alpha = (3 - sqrt(3)) / 1e300, within 2^-40 relatively. */
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 1, vec(3, 1, 0), vec(-1e300, 0, 0), 1);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha / ((3 - sqrt(3.0)) / 1e300), 1, 0x1p-40);
	bcAssertVecNear(hit.normal, sqrt(3.0) / 2, 0.5, 0, 1e-15);
}
END_TEST

START_TEST(tiny_motions)
{
	/* Motions down to the smallest subnormal against radii up to 2^900: an
	 * overlap stays one, touching and moving in meets at 0, anything apart
	 * is a miss (it would take 2^900 / 2^-1074 alphas). */
	const int radiusExponents[] = { -100, 0, 100, 900 };
	for (size_t k = 0; k < sizeof radiusExponents / sizeof radiusExponents[0]; ++k) {
		double r = ldexp(1.0, radiusExponents[k]);
		for (int e = -1074; e <= radiusExponents[k] - 60; e += 7) {
			double tiny = ldexp(1.0, e);
			bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(tiny, 0, 0), r, vec(r, 0, 0), vec(0, 0, 0), r);
			ck_assert_msg(hit.state == bc_ballInitialOverlap, "r 2^%d, motion 2^%d: state %d", radiusExponents[k], e,
						  hit.state);
			hit = bcCollideBalls(vec(0, 0, 0), vec(tiny, 0, 0), r, vec(2 * r, 0, 0), vec(0, 0, 0), r);
			ck_assert_msg(hit.state == bc_ballHit && hit.alpha == 0, "r 2^%d, motion 2^%d touching: state %d",
						  radiusExponents[k], e, hit.state);
			hit = bcCollideBalls(vec(0, 0, 0), vec(-tiny, 0, 0), r, vec(2 * r, 0, 0), vec(0, 0, 0), r);
			ck_assert_msg(hit.state == bc_ballMiss, "r 2^%d, motion 2^%d touching, away: state %d",
						  radiusExponents[k], e, hit.state);
			hit = bcCollideBalls(vec(0, 0, 0), vec(tiny, 0, 0), r, vec(3 * r, 0, 0), vec(0, 0, 0), r);
			ck_assert_msg(hit.state == bc_ballMiss, "r 2^%d, motion 2^%d apart: state %d", radiusExponents[k], e,
						  hit.state);
		}
	}
}
END_TEST

START_TEST(tangent_starts_are_exact)
{
	/* (-1645383371)^2 + 1731226588^2 + 1669796284^2 = 2914215429^2 exactly
	 * (a Pythagorean quadruple), so these balls start exactly touching; the
	 * squares need 62 bits and their rounded sum came out below R^2: both
	 * motions were answered as an overlap. Moving in: a hit at 0; out: a
	 * miss. */
	bcVec3 m = vec(-1645383371.0, 1731226588.0, 1669796284.0);
	double r1 = 1457107714.0, r2 = 1457107715.0;
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), r1, m, bcScale(-1, m), r2);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 0, 0);
	bcAssertVecNear(hit.normal, m.x / 2914215429.0, m.y / 2914215429.0, m.z / 2914215429.0, 1e-15);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), r1, m, m, r2);
	ck_assert_int_eq(hit.state, bc_ballMiss);
	/* One unit closer is an overlap, one farther a miss however fast. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), r1, m, bcScale(-1, m), r2 + 1);
	ck_assert_int_eq(hit.state, bc_ballInitialOverlap);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), r1, m, bcScale(-1e-300, m), r2 - 1);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(grazes_are_exact)
{
	/* m = (5087, -11913, -14784) = 5 e1 + 3 e2 and d = (-8514, -13629, 33418)
	 * = -11 e2, with e1, e2 orthogonal integer vectors of length 3371 (rows
	 * of the rotation of an integer quaternion): the relative path passes at
	 * exactly 5 * 3371 = 16855 = R from the centre, at alpha 3 / 11 (a double
	 * root). The products of the discriminant need 62 bits; it came out
	 * negative: a miss. */
	bcVec3 m = vec(5087, -11913, -14784), d = vec(-8514, -13629, 33418);
	double R = 16855;
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), R, m, d, 0);
	ck_assert_int_eq(hit.state, bc_ballHit);
	ck_assert_msg(hit.alpha == 3.0 / 11.0, "alpha %.17g", hit.alpha);
	/* The contact normal is m + 3/11 d over R. */
	bcAssertVecNear(hit.normal, (m.x + 3.0 / 11.0 * d.x) / R, (m.y + 3.0 / 11.0 * d.y) / R,
					(m.z + 3.0 / 11.0 * d.z) / R, 1e-12);
	/* A radius one ulp smaller: the path passes by. */
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), nextafter(R, 0), m, d, 0);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(contact_at_alpha_one_is_exact)
{
	/* |m| = 135 (m = 45 (1, -2, -2)) against a ball of 45, the point
	 * closing along -m at 30 (1, -2, -2) per alpha: exactly at alpha 1 it
	 * would be |m| - 90 = 45. With d's y one ulp short of -60 it arrives a
	 * hair after 1: a miss (it was a hit at alpha 1); exactly: a hit at 1. */
	bcVec3 m = vec(45, -90, -90);
	bcBallHit hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 45, m, vec(-30, 60, 60), 0);
	ck_assert_int_eq(hit.state, bc_ballHit);
	bcAssertNear(hit.alpha, 1, 0);
	hit = bcCollideBalls(vec(0, 0, 0), vec(0, 0, 0), 45, m, vec(-30, 59.99999999999999, 60), 0);
	ck_assert_int_eq(hit.state, bc_ballMiss);
}
END_TEST

START_TEST(normals_far_from_the_origin)
{
	/* The glancing pair of `glancing` moved to x = 2^k: alpha (10 - sqrt 3)
	 * / 10 and the normal (sqrt 3 / 2, 1 / 2, 0) whatever k, within the
	 * man page's 1e-9 (from the centres' rounded positions it was off by
	 * about 2^k ulps). */
	for (int k = 0; k <= 48; k += 4) { /* x + 10 exact */
		double x = ldexp(1.0, k);
		bcBallHit hit = bcCollideBalls(vec(x, 0, 0), vec(0, 0, 0), 1, vec(x + 10, 1, 0), vec(-10, 0, 0), 1);
		ck_assert_int_eq(hit.state, bc_ballHit);
		bcAssertNear(hit.alpha, (10 - sqrt(3.0)) / 10, 1e-15);
		ck_assert_msg(fabs(hit.normal.x - sqrt(3.0) / 2) <= 1e-9 && fabs(hit.normal.y - 0.5) <= 1e-9 &&
						  hit.normal.z == 0,
					  "x = 2^%d: normal %.17g %.17g %.17g", k, hit.normal.x, hit.normal.y, hit.normal.z);
	}
}
END_TEST

/* ------------------------------------------------------ elastic response */

START_TEST(equal_masses_exchange_normal_components)
{
	bcVec3 a, b;
	bcElasticResponse(vec(2, 0, 0), 1, vec(-2, 0, 0), 1, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -2, 0, 0, 0);
	bcAssertVecNear(b, 2, 0, 0, 0);
	/* Tangential components stay. */
	bcElasticResponse(vec(1, 3, 0), 2.5, vec(-2, -1, 5), 2.5, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -2, 3, 0, 0);
	bcAssertVecNear(b, 1, -1, 5, 0);
	/* An oblique normal (0.6, 0.8, 0): s = 0.6, t = 0, so v1 loses 0.6 n. */
	bcElasticResponse(vec(1, 0, 0), 1, vec(0, 0, 0), 1, vec(0.6, 0.8, 0), 1, &a, &b);
	bcAssertVecNear(a, 0.64, -0.48, 0, 1e-16);
	bcAssertVecNear(b, 0.36, 0.48, 0, 1e-16);
	ck_assert(fabs(bcDot(a, vec(0.6, 0.8, 0))) <= 1e-16);
}
END_TEST

START_TEST(unequal_masses)
{
	/* Seed 002 (8) with a = 1, b = 3, s = 4, t = 0:
	 * s' = 4 + 2*3*(0-4)/4 = -2,  t' = 0 + 2*1*(4-0)/4 = 2. */
	bcVec3 a, b;
	bcElasticResponse(vec(4, 1, 0), 1, vec(0, 0, -1), 3, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -2, 1, 0, 1e-15);
	bcAssertVecNear(b, 2, 0, -1, 1e-15);
	/* Masses 2 and 1 with s = 3, t = -3: s' = 3 + 2*1*(-6)/3 = -1, t' = -3 + 2*2*6/3 = 5. */
	bcElasticResponse(vec(0, 3, 0), 2, vec(0, -3, 0), 1, vec(0, 1, 0), 1, &a, &b);
	bcAssertVecNear(a, 0, -1, 0, 1e-15);
	bcAssertVecNear(b, 0, 5, 0, 1e-15);
	/* The normal's sign does not matter. */
	bcVec3 a2, b2;
	bcElasticResponse(vec(0, 3, 0), 2, vec(0, -3, 0), 1, vec(0, -1, 0), 1, &a2, &b2);
	bcAssertVecNear(a2, 0, -1, 0, 1e-15);
	bcAssertVecNear(b2, 0, 5, 0, 1e-15);
}
END_TEST

START_TEST(restitution)
{
	/* e = 0 with equal masses: both leave with the mean normal velocity. */
	bcVec3 a, b;
	bcElasticResponse(vec(4, 1, 0), 1, vec(-2, 0, 0), 1, vec(1, 0, 0), 0, &a, &b);
	bcAssertVecNear(a, 1, 1, 0, 0);
	bcAssertVecNear(b, 1, 0, 0, 0);
	/* e = 0.5, masses 1 and 3, s = 4, t = 0: s' = 4 - 1.5*3*4/4 = -0.5, t' = 1.5*4/4 = 1.5. */
	bcElasticResponse(vec(4, 0, 0), 1, vec(0, 0, 0), 3, vec(1, 0, 0), 0.5, &a, &b);
	bcAssertVecNear(a, -0.5, 0, 0, 1e-15);
	bcAssertVecNear(b, 1.5, 0, 0, 1e-15);
}
END_TEST

START_TEST(fixed_ball)
{
	/* m2 = INFINITY: ball 1's normal component reverses, ball 2 keeps still. */
	bcVec3 a, b;
	bcElasticResponse(vec(3, 1, 0), 1, vec(0, 0, 0), INFINITY, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -3, 1, 0, 0);
	bcAssertVecNear(b, 0, 0, 0, 0);
	/* A moving fixed ball (a paddle): s' = 2t - s = 2 - 3 = -1. */
	bcElasticResponse(vec(3, 1, 0), 1, vec(1, 0, 2), INFINITY, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -1, 1, 0, 0);
	bcAssertVecNear(b, 1, 0, 2, 0);
	/* m1 = INFINITY, mirrored. */
	bcElasticResponse(vec(0, 0, 0), INFINITY, vec(-3, 0, 5), 7, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, 0, 0, 0, 0);
	bcAssertVecNear(b, 3, 0, 5, 0);
	ck_assert(bcIsFinite(a) && bcIsFinite(b));
	/* A huge finite mass behaves like an infinite one, without overflow. */
	bcElasticResponse(vec(3, 1, 0), 1, vec(0, 0, 0), DBL_MAX, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -3, 1, 0, 0);
	bcAssertVecNear(b, 0, 0, 0, 1e-300);
	bcElasticResponse(vec(3, 1, 0), DBL_MAX, vec(0, 0, 0), DBL_MAX, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, 0, 1, 0, 0);
	bcAssertVecNear(b, 3, 0, 0, 0);
}
END_TEST

START_TEST(huge_speeds_stay_finite)
{
	/* Equal masses head on at +-1.5e308 exchange velocities exactly; t - s
	 * = -3e308 overflowed and the answer was -inf and NaN. */
	bcVec3 a, b;
	bcElasticResponse(vec(1.5e308, 0, 0), 1, vec(-1.5e308, 0, 0), 1, vec(1, 0, 0), 1, &a, &b);
	bcAssertVecNear(a, -1.5e308, 0, 0, 0);
	bcAssertVecNear(b, 1.5e308, 0, 0, 0);
	/* A heavy ball (1e6) barely slows: t' = t + 2 (s - t) / (1e6 + 1), finite;
	 * the light one's 2t - s = -4.5e308 is beyond the doubles: an infinity,
	 * never a NaN. */
	bcElasticResponse(vec(1.5e308, 1, 0), 1, vec(-1.5e308, 0, 0), 1e6, vec(1, 0, 0), 1, &a, &b);
	bcAssertNear(b.x, -1.5e308 + 1.5e308 * (4 / (1e6 + 1)), 1e293);
	ck_assert(b.y == 0 && b.z == 0);
	ck_assert(isinf(a.x) && a.x < 0 && a.y == 1 && a.z == 0);
}
END_TEST

START_TEST(fast_balls_keep_tiny_tangential_parts)
{
	/* Equal masses along x at 2^900 with a tangential 1e-300: the normal
	 * components are exchanged, the tangential ones kept to the bit (a
	 * response computed on velocities scaled to below 1 lost 1e-300 to
	 * underflow). */
	bcVec3 a, b;
	double fast = ldexp(1.0, 900);
	bcElasticResponse(vec(fast, 1e-300, -3e-310), 1, vec(-fast, 0, 5e-324), 1, vec(1, 0, 0), 1, &a, &b);
	ck_assert(a.x == -fast && a.y == 1e-300 && a.z == -3e-310);
	ck_assert(b.x == fast && b.y == 0 && b.z == 5e-324);
}
END_TEST

START_TEST(invalid_masses_leave_velocities)
{
	const double bad[][3] = { { INFINITY, INFINITY, 1 }, { 0, 1, 1 }, { -1, 1, 1 }, { NAN, 1, 1 }, { 1, 1, 1.5 },
							  { 1, 1, -0.1 }, { 1, 1, NAN } };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
		bcVec3 a = vec(9, 9, 9), b = vec(9, 9, 9);
		bcElasticResponse(vec(1, 2, 3), bad[k][0], vec(-1, 0, 0), bad[k][1], vec(1, 0, 0), bad[k][2], &a, &b);
		bcAssertVecNear(a, 1, 2, 3, 0);
		bcAssertVecNear(b, -1, 0, 0, 0);
	}
	/* Either output may be NULL. */
	bcVec3 a;
	bcElasticResponse(vec(2, 0, 0), 1, vec(-2, 0, 0), 1, vec(1, 0, 0), 1, &a, NULL);
	bcAssertVecNear(a, -2, 0, 0, 0);
}
END_TEST

START_TEST(random_pairs_conserve_momentum_and_energy)
{
	bcRandom rng = { 42 };
	for (int i = 0; i < 20000; ++i) {
		bcVec3 lo = vec(-10, -10, -10), hi = vec(10, 10, 10);
		bcVec3 v1 = bcRandom_InBox(&rng, lo, hi), v2 = bcRandom_InBox(&rng, lo, hi);
		double m1 = exp(bcRandom_Uniform(&rng, -5, 5)), m2 = exp(bcRandom_Uniform(&rng, -5, 5));
		bcVec3 n = bcRandom_OnSphere(&rng);
		bcVec3 a, b;
		bcElasticResponse(v1, m1, v2, m2, n, 1, &a, &b);
		bcVec3 p0 = bcAdd(bcScale(m1, v1), bcScale(m2, v2));
		bcVec3 p1 = bcAdd(bcScale(m1, a), bcScale(m2, b));
		double pScale = m1 * bcLength(v1) + m2 * bcLength(v2);
		ck_assert_msg(bcDistance(p0, p1) <= CONSERVATION_TOLERANCE * pScale, "pair %d: momentum off by %g of %g",
					  i, bcDistance(p0, p1), pScale);
		double e0 = m1 * bcDot(v1, v1) + m2 * bcDot(v2, v2);
		double e1 = m1 * bcDot(a, a) + m2 * bcDot(b, b);
		ck_assert_msg(fabs(e0 - e1) <= CONSERVATION_TOLERANCE * e0, "pair %d: energy %.17g -> %.17g", i, e0, e1);
		/* Only the normal components change. */
		double vScale = bcLength(v1) + bcLength(v2);
		ck_assert(bcLength(bcCross(bcSub(a, v1), n)) <= CONSERVATION_TOLERANCE * vScale);
		ck_assert(bcLength(bcCross(bcSub(b, v2), n)) <= CONSERVATION_TOLERANCE * vScale);
	}
}
END_TEST

/* ----------------------------------------------------------------- sets */

static bcBallInput ballInput(bcVec3 p0, bcVec3 p1, double r, double mass)
{
	bcBallInput b = { p0, p1, r, mass, false };
	return b;
}

static bool sameResult(const bcBallResult* a, const bcBallResult* b)
{
	return a->state == b->state && sameBits(a->alpha, b->alpha) && a->other == b->other &&
		   a->tieCount == b->tieCount && sameVecBits(a->point, b->point) && sameVecBits(a->normal, b->normal) &&
		   sameVecBits(a->velocityBefore, b->velocityBefore) && sameVecBits(a->velocityAfter, b->velocityAfter);
}

/* Run both paths, check they agree bit for bit, leave the broad phase's. */
static void collideBoth(const bcBallInput* balls, int count, bcBallResult* results)
{
	bcBallResult* brute = malloc((size_t)(count > 0 ? count : 1) * sizeof *brute);
	bcBallsOptions options = bcDefaultBallsOptions();
	ck_assert(bcCollideBallSet(balls, count, NULL, results, NULL));
	options.bruteForce = true;
	ck_assert(bcCollideBallSet(balls, count, &options, brute, NULL));
	for (int i = 0; i < count; ++i) {
		ck_assert_msg(sameResult(results + i, brute + i),
					  "ball %d: broad phase state %d alpha %.17g other %d, all pairs state %d alpha %.17g other %d", i,
					  results[i].state, results[i].alpha, results[i].other, brute[i].state, brute[i].alpha,
					  brute[i].other);
	}
	free(brute);
}

START_TEST(hand_computed_set)
{
	/* r = 0.5 each. 0 runs into 1 (at rest, mass 2) at alpha 0.5; 2 meets
	 * 0 and 1 both at alpha 0.75 exactly (|10 - 12 alpha| = 1 and
	 * |7 - 8 alpha| = 1): a tie that goes to 0; 3 is alone. */
	bcBallInput balls[4] = {
		ballInput(vec(0, 0, 0), vec(4, 0, 0), 0.5, 0),
		ballInput(vec(3, 0, 0), vec(3, 0, 0), 0.5, 2),
		ballInput(vec(10, 0, 0), vec(2, 0, 0), 0.5, 1),
		ballInput(vec(0, 10, 0), vec(0, 11, 0), 0.5, 1),
	};
	bcBallResult r[4];
	collideBoth(balls, 4, r);

	ck_assert_int_eq(r[0].state, bc_ballHit);
	bcAssertNear(r[0].alpha, 0.5, 0);
	ck_assert_int_eq(r[0].other, 1);
	ck_assert_int_eq(r[0].tieCount, 1);
	bcAssertVecNear(r[0].point, 2.5, 0, 0, 0);
	bcAssertVecNear(r[0].normal, 1, 0, 0, 0);
	bcAssertVecNear(r[0].velocityBefore, 4, 0, 0, 0);
	/* masses 1 and 2, s = 4, t = 0: s' = 4 - 16/3, t' = 8/3 */
	bcAssertVecNear(r[0].velocityAfter, -4.0 / 3.0, 0, 0, 1e-15);

	ck_assert_int_eq(r[1].state, bc_ballHit);
	bcAssertNear(r[1].alpha, 0.5, 0);
	ck_assert_int_eq(r[1].other, 0);
	bcAssertVecNear(r[1].point, 2.5, 0, 0, 0);
	bcAssertVecNear(r[1].normal, -1, 0, 0, 0);
	bcAssertVecNear(r[1].velocityBefore, 0, 0, 0, 0);
	bcAssertVecNear(r[1].velocityAfter, 8.0 / 3.0, 0, 0, 1e-15);

	ck_assert_int_eq(r[2].state, bc_ballHit);
	bcAssertNear(r[2].alpha, 0.75, 0);
	ck_assert_int_eq(r[2].other, 0);
	ck_assert_int_eq(r[2].tieCount, 2);
	bcAssertVecNear(r[2].point, 3.5, 0, 0, 0);
	bcAssertVecNear(r[2].normal, -1, 0, 0, 0);
	bcAssertVecNear(r[2].velocityBefore, -8, 0, 0, 0);
	bcAssertVecNear(r[2].velocityAfter, 4, 0, 0, 0); /* equal masses: exchanged */

	ck_assert_int_eq(r[3].state, bc_ballMiss);
	bcAssertNear(r[3].alpha, 1, 0);
	ck_assert_int_eq(r[3].other, -1);
	ck_assert_int_eq(r[3].tieCount, 0);
	bcAssertVecNear(r[3].velocityBefore, 0, 1, 0, 0);
	bcAssertVecNear(r[3].velocityAfter, 0, 1, 0, 0);
}
END_TEST

START_TEST(tie_window)
{
	/* Ball 0 at rest (r 1); point balls 1 and 2 come at it from +x and -x.
	 * Ball 1 arrives 1e-11 later than ball 2: tied, so the lower index (1)
	 * wins and its own alpha is reported. Ball 3 comes 1e-9 early from +y
	 * in a second scene: no longer a tie, it wins. */
	double late = 4e-11;
	bcBallInput balls[3] = {
		ballInput(vec(0, 0, 0), vec(0, 0, 0), 1, 1),
		ballInput(vec(3 + late, 0, 0), vec(-1 + late, 0, 0), 0, 1),
		ballInput(vec(-3, 0, 0), vec(1, 0, 0), 0, 1),
	};
	bcBallResult r[4];
	collideBoth(balls, 3, r);
	ck_assert_int_eq(r[0].other, 1);
	ck_assert_int_eq(r[0].tieCount, 2);
	bcBallHit own = bcCollideBalls(balls[0].p0, vec(0, 0, 0), 1, balls[1].p0, bcSub(balls[1].p1, balls[1].p0), 0);
	ck_assert(sameBits(r[0].alpha, own.alpha));
	ck_assert(r[0].alpha > 0.5 && r[0].alpha <= 0.5 + BC_BALL_TIE_TOLERANCE);
	bcAssertVecNear(r[0].normal, 1, 0, 0, 0);

	bcBallInput more[4] = {
		balls[0], balls[1], balls[2],
		ballInput(vec(0, 3 - 4e-9, 0), vec(0, -1 - 4e-9, 0), 0, 1),
	};
	collideBoth(more, 4, r);
	ck_assert_int_eq(r[0].other, 3);
	ck_assert_int_eq(r[0].tieCount, 1);
	bcAssertVecNear(r[0].normal, 0, 1, 0, 0);
}
END_TEST

START_TEST(overlap_ranks_first)
{
	/* Ball 0 touches ball 1 at alpha 0 moving in (a hit at 0) and overlaps
	 * ball 2: the overlap wins though its index is higher. */
	bcBallInput balls[3] = {
		ballInput(vec(0, 0, 0), vec(0, 0, 0), 1, 1),
		ballInput(vec(2, 0, 0), vec(1, 0, 0), 1, 1),
		ballInput(vec(0, 0, 1.5), vec(0, 0, 1.5), 0.75, 1),
	};
	bcBallResult r[3];
	collideBoth(balls, 3, r);
	ck_assert_int_eq(r[0].state, bc_ballInitialOverlap);
	ck_assert_int_eq(r[0].other, 2);
	ck_assert_int_eq(r[0].tieCount, 1);
	bcAssertVecNear(r[0].normal, 0, 0, 1, 0);
	bcAssertVecNear(r[0].point, 0, 0, 1, 0);
	/* At rest relative to each other: no impulse, the velocity stays. */
	bcAssertVecNear(r[0].velocityAfter, 0, 0, 0, 0);
	ck_assert_int_eq(r[1].state, bc_ballHit);
	bcAssertNear(r[1].alpha, 0, 0);
	ck_assert_int_eq(r[1].other, 0);
	bcAssertVecNear(r[1].normal, -1, 0, 0, 0);
	bcAssertVecNear(r[1].point, 1, 0, 0, 0);
	/* Ball 1 runs at -1 per alpha into ball 0 at rest, equal masses: it stops. */
	bcAssertVecNear(r[1].velocityBefore, -1, 0, 0, 0);
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);
}
END_TEST

START_TEST(overlapping_and_approaching_bounce)
{
	/* Overlapping and approaching: the impulse applies. */
	bcBallInput balls[2] = {
		ballInput(vec(0, 0, 0), vec(1, 0, 0), 1, 0),
		ballInput(vec(1.5, 0, 0), vec(1.5, 0, 0), 1, INFINITY),
	};
	bcBallResult r[2];
	collideBoth(balls, 2, r);
	ck_assert_int_eq(r[0].state, bc_ballInitialOverlap);
	bcAssertVecNear(r[0].velocityAfter, -1, 0, 0, 0); /* off a fixed ball */
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);
}
END_TEST

START_TEST(resting_lattice_never_meets)
{
	/* Balls touching in a lattice, at rest or all moving alike: no hits. */
	enum { N = 6 };
	bcBallInput balls[N * N * N];
	bcBallResult r[N * N * N];
	for (int move = 0; move < 2; ++move) {
		int n = 0;
		for (int i = 0; i < N; ++i) {
			for (int j = 0; j < N; ++j) {
				for (int k = 0; k < N; ++k) {
					bcVec3 p = vec(i, j, k);
					balls[n++] = ballInput(p, move ? bcAdd(p, vec(0.25, -7, 2)) : p, 0.5, 1);
				}
			}
		}
		collideBoth(balls, n, r);
		for (int i = 0; i < n; ++i) {
			ck_assert_int_eq(r[i].state, bc_ballMiss);
		}
	}
}
END_TEST

START_TEST(invalid_balls_take_no_part)
{
	bcBallInput balls[4] = {
		ballInput(vec(0, 0, 0), vec(4, 0, 0), 0.5, 1),
		ballInput(vec(3, 0, 0), vec(3, 0, 0), -0.5, 1),
		ballInput(vec(3, 0, 0), vec(3, 0, 0), 0.5, -1),
		ballInput(vec(3, 0, 0), vec(3, NAN, 0), 0.5, 1),
	};
	bcBallResult r[4];
	collideBoth(balls, 4, r);
	ck_assert_int_eq(r[0].state, bc_ballMiss);
	for (int i = 1; i < 4; ++i) {
		ck_assert_int_eq(r[i].state, bc_ballInvalid);
		ck_assert_int_eq(r[i].other, -1);
		bcAssertNear(r[i].alpha, 1, 0);
		ck_assert(bcIsFinite(r[i].velocityAfter));
	}
}
END_TEST

START_TEST(set_argument_errors)
{
	bcBallInput ball = ballInput(vec(0, 0, 0), vec(1, 0, 0), 1, 1);
	bcBallResult r;
	bcBallsOptions options = bcDefaultBallsOptions();
	bcError error;
	ck_assert(!bcCollideBallSet(&ball, -1, NULL, &r, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert(!bcCollideBallSet(NULL, 1, NULL, &r, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert(bcCollideBallSet(NULL, 0, NULL, NULL, NULL));
	options.restitution = 1.5;
	ck_assert(!bcCollideBallSet(&ball, 1, &options, &r, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert_str_eq(error.message, "restitution 1.5 is not in [0, 1]");
	ck_assert(!bcCollideBallSet(&ball, 1, &options, &r, NULL)); /* error may be NULL */
	ck_assert(bcCollideBallSet(&ball, 1, NULL, &r, &error));
	ck_assert_int_eq(r.state, bc_ballMiss);
}
END_TEST

/* A random set: n balls in a box of side `extent` starting at (offset,
 * offset, offset), moving up to `reach` each way, with exact duplicates,
 * touching pairs, points, infinite masses and paths 40 times longer mixed
 * in; flat squeezes every ball into z = 0. */
static void randomSet(bcBallInput* balls, int n, double extent, double reach, double offset, uint64_t seed, bool flat)
{
	bcRandom rng = { seed };
	for (int i = 0; i < n; ++i) {
		bcVec3 p0 = bcRandom_InBox(&rng, vec(offset, offset, offset),
									 vec(offset + extent, offset + extent, offset + (flat ? 0 : extent)));
		bcVec3 d = bcRandom_InBox(&rng, vec(-reach, -reach, flat ? 0 : -reach), vec(reach, reach, flat ? 0 : reach));
		double r = bcRandom_Uniform(&rng, 0, 1) < 0.1 ? 0.0 : bcRandom_Uniform(&rng, 0.05, 0.5);
		double mass = bcRandom_Uniform(&rng, 0.1, 10);
		uint64_t kind = bcRandom_Next(&rng) % 16;
		if (kind == 0 && i > 0) {
			balls[i] = balls[i - 1]; /* a duplicate: ties everywhere */
			continue;
		}
		if (kind == 1 && i > 0) {
			/* Exactly touching the previous ball along x, at rest. */
			const bcBallInput* prev = balls + i - 1;
			p0 = bcAdd(prev->p0, vec(prev->radius + r, 0, 0));
			d = vec(0, 0, 0);
		}
		if (kind == 2) {
			mass = INFINITY;
		}
		if (kind == 3) {
			d = vec(0, 0, 0);
		}
		if (kind == 4 || kind == 5) {
			d = bcScale(40, d); /* long paths: the grid needs coarser levels */
		}
		balls[i] = ballInput(p0, bcAdd(p0, d), r, mass);
	}
}

/* The rule written out over all pairs, independently of lib/balls.c's
 * passes: the earliest contact (overlaps first), then the lowest index
 * within the tie window. */
static void referenceSet(const bcBallInput* balls, int n, int32_t* other, int* ties)
{
	for (int i = 0; i < n; ++i) {
		double best = 2.0;
		double* keys = malloc((size_t)n * sizeof *keys);
		for (int j = 0; j < n; ++j) {
			keys[j] = 3.0;
			if (j == i) {
				continue;
			}
			const bcBallInput* a = balls + i;
			const bcBallInput* b = balls + j;
			bcBallHit h = bcCollideBalls(a->p0, bcSub(a->p1, a->p0), a->radius, b->p0, bcSub(b->p1, b->p0), b->radius);
			if (h.state == bc_ballHit || h.state == bc_ballInitialOverlap) {
				keys[j] = h.state == bc_ballInitialOverlap ? -1.0 : h.alpha;
				best = keys[j] < best ? keys[j] : best;
			}
		}
		other[i] = -1;
		ties[i] = 0;
		for (int j = 0; j < n; ++j) {
			if (keys[j] <= best + BC_BALL_TIE_TOLERANCE && keys[j] < 3.0) {
				other[i] = other[i] < 0 ? j : other[i];
				ties[i] += 1;
			}
		}
		free(keys);
	}
}

/* ------------------------------------------------------- fixed balls */

/* A fixed ball (the course slides' obstacle of infinite mass) that is also given
 * a far p1 and a NaN mass: neither is read. */
static bcBallInput fixedBall(bcVec3 p, double r)
{
	bcBallInput b = { p, vec(100, -50, 7), r, NAN, true };
	return b;
}

/* Seed 002: the ball is reflected, V' = V - 2U with U = (V . N) N, N the
 * unit vector between the centres at contact; the fixed ball stays. */
START_TEST(fixed_obstacle_head_on)
{
	bcBallInput balls[2] = { ballInput(vec(0, 0, 0), vec(4, 0, 0), 0.5, 1), fixedBall(vec(3, 0, 0), 0.5) };
	bcBallResult r[2];
	collideBoth(balls, 2, r);
	/* |3 - 4 alpha| = 1 at alpha = 0.5, centre (2, 0, 0), N = (1, 0, 0) */
	ck_assert_int_eq(r[0].state, bc_ballHit);
	bcAssertNear(r[0].alpha, 0.5, 0);
	ck_assert_int_eq(r[0].other, 1);
	bcAssertVecNear(r[0].normal, 1, 0, 0, 0);
	bcAssertVecNear(r[0].point, 2.5, 0, 0, 0);
	bcAssertVecNear(r[0].velocityBefore, 4, 0, 0, 0);
	bcAssertVecNear(r[0].velocityAfter, -4, 0, 0, 0);
	ck_assert_int_eq(r[1].state, bc_ballHit);
	bcAssertNear(r[1].alpha, 0.5, 0);
	ck_assert_int_eq(r[1].other, 0);
	bcAssertVecNear(r[1].normal, -1, 0, 0, 0);
	bcAssertVecNear(r[1].point, 2.5, 0, 0, 0);
	bcAssertVecNear(r[1].velocityBefore, 0, 0, 0, 0);
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);
}
END_TEST

START_TEST(fixed_obstacle_oblique)
{
	/* The fixed ball at (3, 0.6, 0), radii 0.5: the centres are 1 apart when
	 * (x - 3)^2 + 0.36 = 1, x = 2.2, alpha = 0.55; N = (0.8, 0.6, 0);
	 * U = (V . N) N = 3.2 N = (2.56, 1.92, 0); V' = V - 2U = (-1.12, -3.84, 0). */
	bcBallInput balls[2] = { ballInput(vec(0, 0, 0), vec(4, 0, 0), 0.5, 1), fixedBall(vec(3, 0.6, 0), 0.5) };
	bcBallResult r[2];
	collideBoth(balls, 2, r);
	ck_assert_int_eq(r[0].state, bc_ballHit);
	bcAssertNear(r[0].alpha, 0.55, 1e-15);
	bcAssertVecNear(r[0].normal, 0.8, 0.6, 0, 1e-15);
	bcAssertVecNear(r[0].velocityAfter, -1.12, -3.84, 0, 1e-14);
	bcAssertNear(bcLength(r[0].velocityAfter), 4, 1e-14); /* a reflection keeps the speed */
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);

	/* restitution 1/2: V' = V - (1 + e) U = (4, 0, 0) - 1.5 (2.56, 1.92, 0) */
	bcBallsOptions options = bcDefaultBallsOptions();
	options.restitution = 0.5;
	ck_assert(bcCollideBallSet(balls, 2, &options, r, NULL));
	bcAssertVecNear(r[0].velocityAfter, 0.16, -2.88, 0, 1e-14);
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);

	/* a ball of infinite mass is reflected off a fixed one all the same
	 * (two infinite masses alone would leave both velocities unchanged) */
	balls[0].mass = INFINITY;
	collideBoth(balls, 2, r);
	bcAssertVecNear(r[0].velocityAfter, -1.12, -3.84, 0, 1e-14);

	/* moving away from it, or grazing past without approaching: no bounce */
	balls[0] = ballInput(vec(3, 1, 0), vec(3, 5, 0), 0.5, 1);
	balls[1] = fixedBall(vec(3, 0, 0), 0.5);
	collideBoth(balls, 2, r);
	ck_assert_int_eq(r[0].state, bc_ballMiss); /* touching at alpha 0 and leaving */
	bcAssertVecNear(r[0].velocityAfter, 0, 4, 0, 0);
}
END_TEST

START_TEST(fixed_balls_together)
{
	/* two fixed balls: they never move; overlapping ones overlap, others miss */
	bcBallInput balls[4] = { fixedBall(vec(0, 0, 0), 1), fixedBall(vec(1.5, 0, 0), 1), fixedBall(vec(5, 0, 0), 1),
							 ballInput(vec(5, 4, 0), vec(5, -4, 0), 1, 2) };
	bcBallResult r[4];
	collideBoth(balls, 4, r);
	ck_assert_int_eq(r[0].state, bc_ballInitialOverlap);
	ck_assert_int_eq(r[0].other, 1);
	bcAssertVecNear(r[0].velocityAfter, 0, 0, 0, 0);
	bcAssertVecNear(r[1].velocityAfter, 0, 0, 0, 0);
	/* ball 3 drops onto ball 2 from +y: |4 - 8 alpha| = 2 at alpha 0.25, V' = -V */
	ck_assert_int_eq(r[2].state, bc_ballHit);
	ck_assert_int_eq(r[2].other, 3);
	bcAssertVecNear(r[2].velocityAfter, 0, 0, 0, 0);
	ck_assert_int_eq(r[3].state, bc_ballHit);
	bcAssertNear(r[3].alpha, 0.25, 0);
	bcAssertVecNear(r[3].velocityAfter, 0, 8, 0, 0);
	/* a fixed ball is valid whatever its p1 and mass; not with a bad p0 or radius */
	balls[0].p0 = vec(NAN, 0, 0);
	balls[2].radius = -1;
	collideBoth(balls, 4, r);
	ck_assert_int_eq(r[0].state, bc_ballInvalid);
	ck_assert_int_eq(r[2].state, bc_ballInvalid);
	ck_assert_int_eq(r[1].state, bc_ballMiss);
	ck_assert_int_eq(r[3].state, bc_ballMiss);
}
END_TEST

/* A fixed ball answers, bit for bit, as a ball at rest (p1 = p0) of
 * infinite mass does today, for random sets whose other balls have finite
 * masses: the flag builds on the INFINITY mass, nothing else changes. */
START_TEST(fixed_is_infinite_mass_at_rest)
{
	enum { n = 400 };
	bcBallInput* flagged = malloc(n * sizeof *flagged);
	bcBallInput* plain = malloc(n * sizeof *plain);
	bcBallResult* a = malloc(n * sizeof *a);
	bcBallResult* b = malloc(n * sizeof *b);
	randomSet(plain, n, 8.0, 1.0, 0.0, 77, false);
	bcRandom rng = { 78 };
	int fixedCount = 0;
	for (int i = 0; i < n; ++i) {
		if (isinf(plain[i].mass)) {
			plain[i].mass = 1.0;
		}
		flagged[i] = plain[i];
		if (bcRandom_Next(&rng) % 4 == 0) {
			flagged[i] = fixedBall(plain[i].p0, plain[i].radius);
			plain[i].p1 = plain[i].p0;
			plain[i].mass = INFINITY;
			fixedCount += 1;
		}
	}
	collideBoth(flagged, n, a);
	collideBoth(plain, n, b);
	int bounces = 0;
	for (int i = 0; i < n; ++i) {
		ck_assert_msg(sameResult(a + i, b + i), "ball %d", i);
		bounces += a[i].other >= 0 && flagged[a[i].other].fixed && !flagged[i].fixed;
	}
	ck_assert_int_gt(fixedCount, 50);
	ck_assert_int_gt(bounces, 10);
	free(flagged);
	free(plain);
	free(a);
	free(b);
}
END_TEST

START_TEST(broad_phase_equals_all_pairs)
{
	/* Dense enough that most balls meet someone; reach long enough that
	 * swept boxes overlap across many neighbours. */
	const struct {
		int n;
		double extent, reach, offset;
		bool flat;
	} cases[] = {
		{ 2500, 20, 1, 0, false }, { 2000, 40, 4, -20, false }, { 2000, 30, 0.5, 0, true }, { 1500, 20, 1, 1e6, false },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
		int n = cases[c].n;
		bcBallInput* balls = malloc((size_t)n * sizeof *balls);
		bcBallResult* results = malloc((size_t)n * sizeof *results);
		randomSet(balls, n, cases[c].extent, cases[c].reach, cases[c].offset, 1000 + c, cases[c].flat);
		collideBoth(balls, n, results);
		int hits = 0;
		for (int i = 0; i < n; ++i) {
			hits += results[i].state != bc_ballMiss;
			if (results[i].other >= 0) {
				/* The result is the pair function's answer, bit for bit. */
				const bcBallInput* a = balls + i;
				const bcBallInput* b = balls + results[i].other;
				bcBallHit h = bcCollideBalls(a->p0, bcSub(a->p1, a->p0), a->radius, b->p0, bcSub(b->p1, b->p0),
											 b->radius);
				ck_assert_int_eq(h.state, results[i].state);
				ck_assert(sameBits(h.alpha, results[i].alpha));
				ck_assert(sameVecBits(h.point, results[i].point));
				ck_assert(sameVecBits(h.normal, results[i].normal));
			}
		}
		ck_assert_msg(hits > n / 10, "case %zu: only %d hits", c, hits);
		free(balls);
		free(results);
	}
}
END_TEST

START_TEST(extreme_sets_equal_all_pairs)
{
	/* 400 ordinary balls near the origin, then balls whose boxes are not
	 * finite (radius 1.5e308: lower bound -inf), a path 1.6e308 long (the
	 * scene's span makes the finest cells about 1e299 wide), and a far
	 * pair near (1e308, -1e308, 0), out of the huge balls' reach, that meets
	 * only itself. */
	enum { N = 406 };
	bcBallInput balls[N];
	bcBallResult r[N];
	randomSet(balls, 400, 10, 1, 0, 99, false);
	balls[400] = ballInput(vec(-1e308, 0, 0), vec(-1e308, 0, 0), 1.5e308, 1);
	balls[401] = ballInput(vec(0, 1e308, 0), vec(0, 1e308, 1), 1.5e308, 1);
	balls[402] = ballInput(vec(5, -0.8e308, 5), vec(5, 0.8e308, 5), 1, 1);
	balls[403] = ballInput(vec(1e308, -1e308, 0), vec(1e308, -1e308, 0), 1e299, 1);
	balls[404] = ballInput(vec(1e308 + 5e299, -1e308, 0), vec(1e308 + 1e299, -1e308, 0), 1e299, 1);
	balls[405] = ballInput(vec(-7, -7, -7), vec(-7, -7, -7), 0.5, 1);
	collideBoth(balls, N, r);
	int32_t other[N];
	int ties[N];
	referenceSet(balls, N, other, ties);
	for (int i = 0; i < N; ++i) {
		ck_assert_msg(r[i].other == other[i], "ball %d: other %d, reference %d", i, r[i].other, other[i]);
		ck_assert_int_eq(r[i].tieCount, ties[i]);
	}
	/* The two huge balls overlap each other and every ordinary ball. */
	ck_assert_int_eq(r[400].state, bc_ballInitialOverlap);
	ck_assert_int_eq(r[401].state, bc_ballInitialOverlap);
	ck_assert_int_eq(r[405].state, bc_ballInitialOverlap);
	/* The far pair: |5e299 - 4e299 alpha| = 2e299, alpha = 0.75. */
	ck_assert_int_eq(r[403].other, 404);
	ck_assert_int_eq(r[403].state, bc_ballHit);
	bcAssertNear(r[403].alpha, 0.75, 1e-6);
}
END_TEST

START_TEST(set_huge_motion_overlap)
{
	/* The reported example through the set: both at the origin, r = 1, one
	 * heading to (1e200, 0, 0): both overlap (it was a miss for both); 0.5
	 * apart, the same (it was a hit at 0 not marked as an overlap). */
	const double starts[] = { 0, 0.5 };
	const double motions[] = { 1e200, -1e200 };
	for (size_t s = 0; s < 2; ++s) {
		for (size_t k = 0; k < 2; ++k) {
			bcBallInput balls[2] = { ballInput(vec(0, 0, 0), vec(0, 0, 0), 1, 0),
									 ballInput(vec(starts[s], 0, 0), vec(motions[k], 0, 0), 1, 0) };
			bcBallResult r[2];
			collideBoth(balls, 2, r);
			for (int i = 0; i < 2; ++i) {
				ck_assert_msg(r[i].state == bc_ballInitialOverlap, "start %g, motion %g, ball %d: state %d", starts[s],
							  motions[k], i, r[i].state);
				ck_assert_int_eq(r[i].other, 1 - i);
				bcAssertNear(r[i].alpha, 0, 0);
			}
		}
	}
}
END_TEST

START_TEST(set_matches_independent_reference)
{
	enum { N = 600 };
	bcBallInput balls[N];
	bcBallResult results[N];
	int32_t other[N];
	int ties[N];
	randomSet(balls, N, 8, 1.5, 0, 77, false);
	collideBoth(balls, N, results);
	referenceSet(balls, N, other, ties);
	int tied = 0;
	for (int i = 0; i < N; ++i) {
		ck_assert_msg(results[i].other == other[i], "ball %d: other %d, reference %d", i, results[i].other,
					  other[i]);
		ck_assert_int_eq(results[i].tieCount, ties[i]);
		tied += ties[i] > 1;
	}
	ck_assert_int_gt(tied, 0); /* the duplicates make ties */
}
END_TEST

static Suite* ballsSuite(void)
{
	Suite* s = suite_create("balls");
	TCase* pair = tcase_create("pair");
	tcase_add_test(pair, head_on_equal_balls);
	tcase_add_test(pair, one_at_rest);
	tcase_add_test(pair, glancing);
	tcase_add_test(pair, parallel_never_meet);
	tcase_add_test(pair, meeting_after_alpha_one_is_a_miss);
	tcase_add_test(pair, already_overlapping);
	tcase_add_test(pair, touching_at_start);
	tcase_add_test(pair, points_meet_only_on_a_line);
	tcase_add_test(pair, invalid_inputs);
	tcase_add_test(pair, far_apart_grazing_is_exact);
	tcase_add_test(pair, extreme_scales);
	tcase_add_test(pair, random_pairs_against_bisection);
	tcase_add_test(pair, huge_motions_keep_initial_overlaps);
	tcase_add_test(pair, huge_motions_meet_at_tiny_alphas);
	tcase_add_test(pair, tiny_motions);
	tcase_add_test(pair, tangent_starts_are_exact);
	tcase_add_test(pair, grazes_are_exact);
	tcase_add_test(pair, contact_at_alpha_one_is_exact);
	tcase_add_test(pair, normals_far_from_the_origin);
	suite_add_tcase(s, pair);

	TCase* response = tcase_create("response");
	tcase_add_test(response, equal_masses_exchange_normal_components);
	tcase_add_test(response, unequal_masses);
	tcase_add_test(response, restitution);
	tcase_add_test(response, fixed_ball);
	tcase_add_test(response, invalid_masses_leave_velocities);
	tcase_add_test(response, huge_speeds_stay_finite);
	tcase_add_test(response, fast_balls_keep_tiny_tangential_parts);
	tcase_add_test(response, random_pairs_conserve_momentum_and_energy);
	suite_add_tcase(s, response);

	TCase* set = tcase_create("set");
	tcase_set_timeout(set, 60);
	tcase_add_test(set, hand_computed_set);
	tcase_add_test(set, tie_window);
	tcase_add_test(set, overlap_ranks_first);
	tcase_add_test(set, overlapping_and_approaching_bounce);
	tcase_add_test(set, resting_lattice_never_meets);
	tcase_add_test(set, invalid_balls_take_no_part);
	tcase_add_test(set, set_argument_errors);
	tcase_add_test(set, broad_phase_equals_all_pairs);
	tcase_add_test(set, extreme_sets_equal_all_pairs);
	tcase_add_test(set, set_matches_independent_reference);
	tcase_add_test(set, set_huge_motion_overlap);
	tcase_add_test(set, fixed_obstacle_head_on);
	tcase_add_test(set, fixed_obstacle_oblique);
	tcase_add_test(set, fixed_balls_together);
	tcase_add_test(set, fixed_is_infinite_mass_at_rest);
	suite_add_tcase(s, set);
	return s;
}

int main(void)
{
	return bcRunSuite(ballsSuite());
}
