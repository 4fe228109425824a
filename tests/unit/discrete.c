/* discrete.c tests: the course slides' time stepping with bisection
 * (bcMesh_CastDiscrete) against the exact cast (bcMesh_Cast).
 *
 * A hand-computed run (every step and halving in binary fractions); the
 * thin wall a fast ball tunnels through while the exact cast hits it; fat
 * targets (icospheres, a closed room) thrown at from every side, where the
 * discrete alpha is never before the exact one and at most dt / 2^N after
 * it; the start (overlap reported or ignored, a touch); the front-face
 * rule; the hierarchy against brute force bit for bit; invalid input. */
#include <float.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* The discrete alpha is compared with the exact one to this: the two
 * compute the centre's distance to the mesh by different roundings (the
 * cast solves for the alpha where it is r, the discrete method measures it
 * at a sampled alpha), a few ulps of the scene over the path's length. */
#define ALPHA_TOLERANCE 1e-12

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define THROWS 400
#else
#define THROWS 2000
#endif

static bcVec3 vec(double x, double y, double z)
{
	return bcMakeVec3(x, y, z);
}

static bcMesh* build(const bcGenMesh* g)
{
	bcMesh* mesh = bcGenMesh_Build(g);
	ck_assert(mesh != NULL);
	return mesh;
}

static bcMesh* fromArrays(const double* v, int32_t vertexCount, const int32_t* t, int32_t triangleCount)
{
	bcMeshDef def = { v, vertexCount, t, triangleCount, NULL, 0 };
	bcError error;
	bcMesh* mesh = bcMesh_Create(&def, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	return mesh;
}

/* One big triangle in the plane x = 4 facing -x (towards the origin). */
static bcMesh* wall(void)
{
	const double v[] = { 4, -10, -10, 4, 0, 10, 4, 10, -10 };
	const int32_t t[] = { 0, 1, 2 };
	return fromArrays(v, 3, t, 1);
}

static bcDiscreteOptions discreteOptions(double step, int bisections)
{
	bcDiscreteOptions options = bcDefaultDiscreteOptions();
	options.step = step;
	options.bisections = bisections;
	return options;
}

static bool sameBits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static bool sameVec(bcVec3 a, bcVec3 b)
{
	return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

static bool sameOutput(const bcDiscreteOutput* a, const bcDiscreteOutput* b)
{
	return a->state == b->state && sameBits(a->alpha, b->alpha) && sameBits(a->lower, b->lower) &&
		   a->triangle == b->triangle && a->face == b->face && a->feature == b->feature &&
		   a->vertexCount == b->vertexCount && memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 &&
		   sameBits(a->distance, b->distance) && sameVec(a->point, b->point) && sameVec(a->center, b->center) &&
		   sameVec(a->normal, b->normal) && a->testCount == b->testCount;
}

/* The discrete answer, by the hierarchy and by brute force (which must
 * agree bit for bit). */
static bcDiscreteOutput discrete(const bcMesh* mesh, bcCastInput in, const bcDiscreteOptions* options)
{
	bcDiscreteOutput fast = bcMesh_CastDiscrete(mesh, in, options);
	bcDiscreteOptions brute = options != NULL ? *options : bcDefaultDiscreteOptions();
	brute.cast.bruteForce = true;
	bcDiscreteOutput slow = bcMesh_CastDiscrete(mesh, in, &brute);
	ck_assert_msg(sameOutput(&fast, &slow), "hierarchy: state %d alpha %.17g triangle %d; brute force: %d %.17g %d",
				  fast.state, fast.alpha, fast.triangle, slow.state, slow.alpha, slow.triangle);
	return fast;
}

/* ----------------------------------------------------------- by hand */

/* r = 1/2 from x = 0 to 8 at the wall x = 4, dt = 1/8, N = 5: tests at
 * x = 1, 2, 3 (free), 4 (in contact): [3/8, 1/2]; halvings at x = 3.5
 * (distance 1/2: in contact), 3.25, 3.375, 3.4375, 3.46875 (free). So
 * alpha = 7/16, lower = 111/256, 1 + 4 + 5 tests; the exact cast touches at
 * x = 3.5 too. */
START_TEST(by_hand)
{
	bcMesh* mesh = wall();
	bcCastInput in = { vec(0, 0, 0), vec(8, 0, 0), 0.5 };
	bcDiscreteOptions options = discreteOptions(0.125, 5);
	bcDiscreteOutput out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.4375, 0);
	bcAssertNear(out.lower, 111.0 / 256.0, 0);
	ck_assert_int_eq(out.testCount, 10);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert_int_eq(out.face, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	ck_assert_int_eq(out.vertexCount, 3);
	bcAssertNear(out.distance, 0.5, 0);
	bcAssertVecNear(out.center, 3.5, 0, 0, 0);
	bcAssertVecNear(out.point, 4, 0, 0, 0);
	bcAssertVecNear(out.normal, -1, 0, 0, 0);
	bcCastOutput exact = bcMesh_Cast(mesh, in, NULL);
	bcAssertNear(exact.alpha, 0.4375, 0);

	/* no halving: the end of the first step in contact */
	options = discreteOptions(0.125, 0);
	out = discrete(mesh, in, &options);
	bcAssertNear(out.alpha, 0.5, 0);
	bcAssertNear(out.lower, 0.375, 0);
	ck_assert_int_eq(out.testCount, 5);
	bcAssertNear(out.distance, 0, 0);
	bcAssertVecNear(out.normal, -1, 0, 0, 0); /* the centre on the wall: turned against the motion */

	/* a step that does not divide the path: tests at 0.3, 0.6 (x = 4.8,
	 * distance 0.8: free, the wall crossed between), 0.9, 1; a miss */
	options = discreteOptions(0.3, 5);
	out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castMiss);
	bcAssertNear(out.alpha, 1, 0);
	bcAssertNear(out.lower, 1, 0);
	ck_assert_int_eq(out.testCount, 5);
	ck_assert_int_eq(out.triangle, -1);
	ck_assert_int_eq(out.face, -1);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ------------------------------------------------------- thin walls */

/* A fast ball crossing a thin wall between two tests is missed by the
 * discrete method and hit by the exact cast; with steps shorter than the
 * wall's contact region the discrete method finds it, within dt / 2^N. */
/* Seed 002's own example: a ball of r = 0.3 dropped from z = 2 to z = -2
 * onto the plane z = 0, dt = 1/8, N = 5. The centre is at z = 2 - 4 alpha,
 * in contact from z = 0.3 (alpha = 0.425). Steps: alpha 1/8, 1/4, 3/8 free
 * (z = 1.5, 1, 0.5), 1/2 in contact (z = 0): [0.375, 0.5]. Halvings: 0.4375
 * (z = 0.25, contact), 0.40625 (z = 0.375, free), 0.421875 (z = 0.3125,
 * free), 0.4296875 (z = 0.28125, contact), 0.42578125 (z = 0.296875,
 * contact). The bracket ends at [0.421875, 0.42578125]: the seed's
 * pseudocode returns its start t = 0.421875, the last alpha a test found
 * the ball free (lower); alpha is its end. 1 + 4 + 5 tests. */
START_TEST(seed_drop_onto_plane)
{
	const double v[] = { -10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcMesh* mesh = fromArrays(v, 4, t, 2);
	bcCastInput in = { vec(0.5, 0.25, 2), vec(0.5, 0.25, -2), 0.3 };
	bcDiscreteOptions options = discreteOptions(0.125, 5);
	bcDiscreteOutput out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.lower, 0.421875, 0);
	bcAssertNear(out.alpha, 0.42578125, 0);
	ck_assert_int_eq(out.testCount, 10);
	bcAssertVecNear(out.center, 0.5, 0.25, 0.296875, 0);
	bcAssertVecNear(out.normal, 0, 0, 1, 0);
	/* the exact first contact lies in (lower, alpha] */
	bcCastOutput exact = bcMesh_Cast(mesh, in, NULL);
	ck_assert_int_eq(exact.state, bc_castHit);
	ck_assert(out.lower < exact.alpha && exact.alpha <= out.alpha);
	bcAssertNear(exact.alpha, 0.425, 1e-15);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(thin_wall_tunnels)
{
	/* a closed box 0.02 thick across the path (its faces outward) */
	bcGenMesh g = { 0 };
	bcGenBox(&g, vec(4.99, -5, -5), vec(5.01, 5, 5), 2, 0);
	bcMesh* mesh = build(&g);
	bcCastInput in = { vec(0, 0.3, -0.2), vec(10, 0.1, 0.4), 0.05 };
	bcCastOutput exact = bcMesh_Cast(mesh, in, NULL);
	ck_assert_int_eq(exact.state, bc_castHit);
	bcAssertNear(exact.alpha, (4.99 - 0.05) / 10.0, 1e-12);
	/* steps of 0.15 of the path: 1.5 units against a contact region 0.12 deep */
	bcDiscreteOptions options = discreteOptions(0.15, 5);
	bcDiscreteOutput out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castMiss);
	/* steps of 0.01 (0.1 units): found, never before, at most dt / 32 after */
	options = discreteOptions(0.01, 5);
	out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert(out.alpha >= exact.alpha - ALPHA_TOLERANCE);
	ck_assert(out.alpha - exact.alpha <= 0.01 / 32 + ALPHA_TOLERANCE);
	ck_assert(out.lower < exact.alpha);
	ck_assert(out.distance <= in.radius);

	/* a point (r = 0) through one triangle: within 0 of it only at one
	 * instant, which no test lands on: missed; the cast hits */
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
	mesh = wall();
	bcCastInput point = { vec(0, 0.3, 0.1), vec(8, 0.3, 0.1), 0.0 };
	ck_assert_int_eq(bcMesh_Cast(mesh, point, NULL).state, bc_castHit);
	options = discreteOptions(0.15, 5);
	ck_assert_int_eq(discrete(mesh, point, &options).state, bc_castMiss);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ------------------------------------------------------- fat targets */

/* Throws at a fat target from every side, aimed within 0.3 of its centre,
 * with steps shorter than the radius along the path, so that no step can
 * jump over the region within r of the near side: the discrete alpha is
 * never before the exact one and at most dt / 2^N after it, and the exact
 * contact lies in (lower, alpha]. */
static void throwAt(const bcMesh* mesh, bcVec3 center, double size, bool fromInside, const bcCastOptions* cast,
					uint64_t seed)
{
	bcRandom rng = { seed };
	int hits = 0;
	double worst = 0.0;
	for (int i = 0; i < THROWS; ++i) {
		bcVec3 aim = bcMulAdd(center, bcRandom_Uniform(&rng, 0.0, 0.3 * size), bcRandom_OnSphere(&rng));
		bcVec3 direction = bcRandom_OnSphere(&rng);
		double r = bcRandom_Uniform(&rng, 0.02, 0.3) * size;
		bcCastInput in;
		if (fromInside) {
			/* from near the centre out through the walls */
			in.p0 = aim;
			in.p1 = bcMulAdd(aim, bcRandom_Uniform(&rng, 2.0, 4.0) * size, direction);
		} else {
			in.p0 = bcMulAdd(aim, bcRandom_Uniform(&rng, 2.0, 4.0) * size, direction);
			in.p1 = bcMulAdd(aim, -bcRandom_Uniform(&rng, 0.0, 1.5) * size, direction);
		}
		in.radius = r;
		double length = bcDistance(in.p0, in.p1);
		int bisections = (int)(bcRandom_Next(&rng) % 9);
		/* a step shorter than r along the path */
		double step = bcRandom_Uniform(&rng, 0.2, 0.95) * r / length;
		bcDiscreteOptions options = discreteOptions(step, bisections);
		options.cast = *cast;
		bcCastOutput exact = bcMesh_Cast(mesh, in, cast);
		bcDiscreteOutput out = discrete(mesh, in, &options);
		ck_assert_msg(out.state == exact.state, "throw %d: discrete state %d, exact %d", i, out.state, exact.state);
		if (exact.state != bc_castHit) {
			continue;
		}
		hits += 1;
		double bound = step / ldexp(1.0, bisections);
		ck_assert_msg(out.alpha >= exact.alpha - ALPHA_TOLERANCE, "throw %d: discrete %.17g before exact %.17g", i,
					  out.alpha, exact.alpha);
		ck_assert_msg(out.alpha - exact.alpha <= bound + ALPHA_TOLERANCE,
					  "throw %d: discrete %.17g, exact %.17g: more than dt / 2^%d = %g after", i, out.alpha,
					  exact.alpha, bisections, bound);
		ck_assert(out.lower < exact.alpha + ALPHA_TOLERANCE);
		ck_assert(out.alpha - out.lower <= bound * (1.0 + 1e-9));
		ck_assert(out.distance <= r);
		bcTriangle tri = bcMesh_GetTriangle(mesh, out.triangle);
		ck_assert(!tri.degenerate);
		ck_assert(cast->twoSided || bcDot(tri.normal, bcSub(in.p1, in.p0)) <= 0.0);
		ck_assert_int_eq(out.face, tri.face);
		bcAssertNear(bcLength(out.normal), 1.0, 1e-15);
		worst = fmax(worst, (out.alpha - exact.alpha) / bound);
	}
	ck_assert_int_gt(hits, THROWS / 2);
	ck_assert(worst > 0.5); /* the bound is approached, not merely respected */
}

START_TEST(fat_icosphere)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, vec(0.5, -1, 2), 1.5, 0);
	bcMesh* mesh = build(&g);
	bcCastOptions cast = bcDefaultCastOptions();
	throwAt(mesh, vec(0.5, -1, 2), 1.5, false, &cast, 1);
	cast.approach = bc_approachLess;
	throwAt(mesh, vec(0.5, -1, 2), 1.5, false, &cast, 2);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(fat_room_from_inside)
{
	/* a closed room facing inward, thrown at from inside; and an outward
	 * box from inside, which only counts with both sides */
	bcGenMesh g = { 0 };
	bcGenBox(&g, vec(-2, -2, -2), vec(2, 2, 2), 3, 1);
	bcMesh* mesh = build(&g);
	bcCastOptions cast = bcDefaultCastOptions();
	throwAt(mesh, vec(0, 0, 0), 2, true, &cast, 3);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
	bcGenBox(&g, vec(-2, -2, -2), vec(2, 2, 2), 3, 0);
	mesh = build(&g);
	cast.twoSided = true;
	throwAt(mesh, vec(0, 0, 0), 2, true, &cast, 4);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* ------------------------------------------------------------ the start */

START_TEST(start_overlap_touch_and_sides)
{
	bcMesh* mesh = wall();
	/* overlapping the wall at the start, moving on: alpha 0, as the cast says */
	bcCastInput in = { vec(3.75, 0, 0), vec(8, 0, 0), 0.5 };
	bcDiscreteOutput out = discrete(mesh, in, NULL);
	ck_assert_int_eq(out.state, bc_castInitialOverlap);
	bcAssertNear(out.alpha, 0, 0);
	bcAssertNear(out.lower, 0, 0); /* no test saw it free */
	ck_assert_int_eq(out.triangle, 0);
	bcAssertNear(out.distance, 0.25, 0);
	ck_assert_int_eq(out.testCount, 1);
	ck_assert_int_eq(bcMesh_Cast(mesh, in, NULL).state, bc_castInitialOverlap);
	/* ignored: that triangle is skipped all along, so moving through it is a miss */
	bcDiscreteOptions options = bcDefaultDiscreteOptions();
	options.cast.overlap = bc_overlapIgnore;
	out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castMiss);
	ck_assert_int_eq(bcMesh_Cast(mesh, in, &options.cast).state, bc_castMiss);
	/* touching (distance exactly r) and moving in: a contact at alpha 0 */
	in.p0 = vec(3.5, 0, 0);
	out = discrete(mesh, in, NULL);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0, 0);
	bcAssertNear(out.lower, 0, 0);
	ck_assert_int_eq(bcMesh_Cast(mesh, in, NULL).state, bc_castHit);
	out = discrete(mesh, in, &options); /* touching is not overlapping: not ignored */
	ck_assert_int_eq(out.state, bc_castHit);
	/* a ball at rest in contact: a touch at 0; at rest and free: a miss */
	in.p1 = in.p0;
	ck_assert_int_eq(discrete(mesh, in, NULL).state, bc_castHit);
	in.p0 = in.p1 = vec(1, 0, 0);
	out = discrete(mesh, in, NULL);
	ck_assert_int_eq(out.state, bc_castMiss);
	ck_assert_int_eq(out.testCount, 1);
	/* from behind the one-sided wall: not counted; both sides: hit */
	bcCastInput back = { vec(8, 0, 0), vec(0, 0, 0), 0.5 };
	ck_assert_int_eq(discrete(mesh, back, NULL).state, bc_castMiss);
	options = bcDefaultDiscreteOptions();
	options.cast.twoSided = true;
	out = discrete(mesh, back, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertVecNear(out.normal, 1, 0, 0, 0);
	ck_assert(out.alpha >= 0.4375 && out.alpha <= 0.4375 + 0.01 / 32);
	/* sliding along the wall's plane (dot(n, d) = 0): counted by <=, not by < */
	bcCastInput slide = { vec(3.75, -5, 0), vec(3.75, 5, 0), 0.5 };
	ck_assert_int_eq(discrete(mesh, slide, NULL).state, bc_castInitialOverlap);
	options = bcDefaultDiscreteOptions();
	options.cast.approach = bc_approachLess;
	ck_assert_int_eq(discrete(mesh, slide, &options).state, bc_castMiss);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(lowest_triangle_in_contact)
{
	/* two walls at x = 4 and x = 4.25, the farther one first in the file:
	 * a ball reaching both at once reports the lower-numbered */
	const double v[] = { 4.25, -10, -10, 4.25, 0, 10, 4.25, 10, -10, 4, -10, -10, 4, 0, 10, 4, 10, -10 };
	const int32_t t[] = { 0, 1, 2, 3, 4, 5 };
	bcMesh* mesh = fromArrays(v, 6, t, 2);
	bcCastInput in = { vec(0, 0, 0), vec(8, 0, 0), 0.5 };
	bcDiscreteOptions options = discreteOptions(0.5, 0); /* one test at x = 4 */
	bcDiscreteOutput out = discrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.triangle, 0);
	bcAssertNear(out.distance, 0.25, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(invalid_input)
{
	bcMesh* mesh = wall();
	bcCastInput in = { vec(0, 0, 0), vec(8, 0, 0), 0.5 };
	const double steps[] = { 0.0, -0.1, 1.5, NAN, INFINITY, 1e-10 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
		bcDiscreteOptions options = discreteOptions(steps[i], 5);
		bcDiscreteOutput out = bcMesh_CastDiscrete(mesh, in, &options);
		ck_assert_int_eq(out.state, bc_castInvalid);
		ck_assert_int_eq(out.triangle, -1);
	}
	const int bisections[] = { -1, BC_DISCRETE_MAX_BISECTIONS + 1 };
	for (size_t i = 0; i < 2; ++i) {
		bcDiscreteOptions options = discreteOptions(0.1, bisections[i]);
		ck_assert_int_eq(bcMesh_CastDiscrete(mesh, in, &options).state, bc_castInvalid);
	}
	/* one test at x = 4, then 64 halvings, which stop where no double lies
	 * between the ends: the contact at 7/16, to the last bit or two */
	bcDiscreteOptions options = discreteOptions(0.5, BC_DISCRETE_MAX_BISECTIONS);
	bcDiscreteOutput out = bcMesh_CastDiscrete(mesh, in, &options);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert(out.alpha >= 0.4375 && out.alpha <= 0.4375 + 2 * DBL_EPSILON);
	ck_assert(out.testCount < 2 + BC_DISCRETE_MAX_BISECTIONS);
	/* with the whole path as one step, only its end is tested: beyond the wall */
	options = discreteOptions(1.0, 5);
	ck_assert_int_eq(bcMesh_CastDiscrete(mesh, in, &options).state, bc_castMiss);
	in.radius = -1;
	ck_assert_int_eq(bcMesh_CastDiscrete(mesh, in, NULL).state, bc_castInvalid);
	in.radius = 0.5;
	in.p1.x = NAN;
	ck_assert_int_eq(bcMesh_CastDiscrete(mesh, in, NULL).state, bc_castInvalid);
	bcDiscreteOptions defaults = bcDefaultDiscreteOptions();
	bcAssertNear(defaults.step, BC_DISCRETE_DEFAULT_STEP, 0);
	ck_assert_int_eq(defaults.bisections, 5);
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* discreteSuite(void)
{
	Suite* s = suite_create("discrete");
	TCase* hand = tcase_create("hand");
	tcase_add_test(hand, by_hand);
	tcase_add_test(hand, seed_drop_onto_plane);
	tcase_add_test(hand, thin_wall_tunnels);
	tcase_add_test(hand, start_overlap_touch_and_sides);
	tcase_add_test(hand, lowest_triangle_in_contact);
	tcase_add_test(hand, invalid_input);
	suite_add_tcase(s, hand);
	TCase* fat = tcase_create("fat targets");
	tcase_set_timeout(fat, 120);
	tcase_add_test(fat, fat_icosphere);
	tcase_add_test(fat, fat_room_from_inside);
	suite_add_tcase(s, fat);
	return s;
}

int main(void)
{
	return bcRunSuite(discreteSuite());
}
