/* sweep_exact.c tests: the exact path, and the filters that send to it.
 *
 *  - The six wrong answers an exact-arithmetic audit found at exact
 *    degeneracies, each as a regression: ties capped at 32 (a cone of 16
 *    triangles, a point onto its apex), the r = 0 normal flipped by
 *    rounding, an unshared edge's exact midpoint missed, a shared edge
 *    answered on the higher triangle, a miss by 6e-17 answered as a hit,
 *    and tangent contacts (a ball rolling at height exactly r over an
 *    edge) missed or off by 1e-9.
 *  - The double-precision path against the exact one (forced), triangle
 *    by triangle, on exact degeneracies built from dyadic numbers (every
 *    input exact), on the same inputs moved by a few ulps (where a filter
 *    whose error bound were too small would decide wrongly), and on random
 *    inputs: the same contacts on the same features, alphas within
 *    BC_SWEEP_ALPHA_ERROR.
 *  - Hand-computed exact answers for the exact path itself: a double root,
 *    a rim graze (the edge's piece entered where its cylinder meets the
 *    ball of its end), a path along an edge at distance exactly r.
 */
#include <float.h>
#include <stdint.h>

#include "harness.h"
#include "predicates.h"
#include "sweep.h"
#include "vec3.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define AGREEMENT_CASES 20000
#else
#define AGREEMENT_CASES 100000
#endif

static uint64_t nextRandom(uint64_t* state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 11;
}

static int randomInt(uint64_t* state, int lo, int hi)
{
	return lo + (int)(nextRandom(state) % (uint64_t)(hi - lo + 1));
}

static double randomUnit(uint64_t* state)
{
	return (double)nextRandom(state) / 4503599627370496.0 - 1.0;
}

static bcVec3 V(double x, double y, double z)
{
	return bcMakeVec3(x, y, z);
}

static bcMesh* meshOf(const double* v, int vertexCount, const int32_t* t, int triangleCount)
{
	bcMeshDef def = { v, vertexCount, t, triangleCount, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert(mesh != NULL);
	return mesh;
}

/* ----------------------------------------------------- the audit's six */

START_TEST(ties_are_not_capped)
{
	/* A cone of 16 triangles around the apex (0,0,1); a point dropped on
	 * the apex touches all 16 (face, both edges and the apex of each). */
	enum { k = 16 };
	double v[3 * (k + 1)];
	int32_t t[3 * k];
	v[0] = 0;
	v[1] = 0;
	v[2] = 1;
	for (int i = 0; i < k; ++i) {
		v[3 + 3 * i] = cos(2 * 3.141592653589793 * i / k);
		v[4 + 3 * i] = sin(2 * 3.141592653589793 * i / k);
		v[5 + 3 * i] = 0;
		t[3 * i] = 0;
		t[3 * i + 1] = 1 + i;
		t[3 * i + 2] = 1 + (i + 1) % k;
	}
	bcMesh* mesh = meshOf(v, k + 1, t, k);
	bcCastInput in = { V(0, 0, 2), V(0, 0, 0), 0 };
	bcCastOutput out;
	bcContact ties[128];
	int n = bcMesh_CastTies(mesh, in, NULL, &out, ties, 128);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert(out.alpha == 0.5);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert_int_eq(n, 4 * k);
	ck_assert_int_eq(out.tieCount, 4 * k);
	bool seen[k] = { false };
	for (int i = 0; i < n; ++i) {
		seen[ties[i].triangle] = true;
		ck_assert(ties[i].alpha == 0.5);
	}
	for (int i = 0; i < k; ++i) {
		ck_assert_msg(seen[i], "triangle %d missing from the ties", i);
	}
	/* A small buffer still gets the full count. */
	ck_assert_int_eq(bcMesh_CastTies(mesh, in, NULL, &out, ties, 3), 4 * k);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(point_normal_never_flipped_by_rounding)
{
	/* The centre at contact rounds to z = -1.1e-16; the normal must be +z. */
	const bcVec3 a = V(0, 0, 0), b = V(1, 0, 0), c = V(0, 1, 0);
	const double radii[] = { 0.0, 1e-300, 1e-200, 4.9e-324 };
	for (int i = 0; i < 4; ++i) {
		bcCastInput in = { V(0.25, 0.25, 0.7), V(0.25, 0.25, -0.6), radii[i] };
		bcCastOutput out = bcCastTriangle(a, b, c, in, NULL);
		ck_assert_int_eq(out.state, bc_castHit);
		ck_assert_int_eq(out.feature, bc_featureFace);
		ck_assert_msg(out.normal.z == 1.0 && out.normal.x == 0.0 && out.normal.y == 0.0, "r %g: normal z %g", radii[i],
					  out.normal.z);
	}
	/* r = 0 from behind, two-sided: -z exactly. */
	bcCastOptions o = bcDefaultCastOptions();
	o.twoSided = true;
	bcCastInput in = { V(0.25, 0.25, -0.6), V(0.25, 0.25, 0.7), 0 };
	bcCastOutput out = bcCastTriangle(a, b, c, in, &o);
	ck_assert(out.normal.z == -1.0);
}
END_TEST

START_TEST(point_through_an_unshared_edge_midpoint)
{
	/* Exact points of the edges of one front-facing triangle, at dyadic
	 * fractions along them, from random directions above: always a hit,
	 * on the face (the edge ties), at the exact alpha. */
	uint64_t state = 17;
	for (int trial = 0; trial < 3200; ++trial) {
		bcVec3 a = V(randomInt(&state, -8, 8), randomInt(&state, -8, 8), randomInt(&state, -8, 8));
		bcVec3 b = V(randomInt(&state, -8, 8), randomInt(&state, -8, 8), randomInt(&state, -8, 8));
		bcVec3 c = V(randomInt(&state, -8, 8), randomInt(&state, -8, 8), randomInt(&state, -8, 8));
		bcVec3 n = bcTriangleNormal(a, b, c);
		if (n.x == 0 && n.y == 0 && n.z == 0) {
			continue;
		}
		const bcVec3 v[3] = { a, b, c };
		int k = randomInt(&state, 0, 2);
		double f = randomInt(&state, 1, 7) / 8.0;
		bcVec3 x = bcAdd(v[k], bcScale(f, bcSub(v[(k + 1) % 3], v[k])));
		/* A direction with a positive part along N, exact in dyadics. */
		bcVec3 nn = bcCross(bcSub(b, a), bcSub(c, a));
		bcVec3 dir = bcAdd(nn, V(randomInt(&state, -3, 3), randomInt(&state, -3, 3), randomInt(&state, -3, 3)));
		if (bcDot(dir, nn) <= 0) {
			continue;
		}
		bcCastInput in = { bcAdd(x, dir), bcSub(x, dir), 0 };
		bcCastOutput out = bcCastTriangle(a, b, c, in, NULL);
		ck_assert_msg(out.state == bc_castHit, "trial %d: missed an edge point", trial);
		ck_assert(out.alpha == 0.5);
		ck_assert_int_eq(out.feature, bc_featureFace);
		ck_assert_int_eq(out.tieCount, 2);
	}
}
END_TEST

START_TEST(point_through_a_shared_edge)
{
	/* Two triangles share the edge (1,0,0)-(0,1,0); both count, the lower wins. */
	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
	const int32_t t[] = { 0, 1, 2, 1, 3, 2 };
	bcMesh* mesh = meshOf(v, 4, t, 2);
	uint64_t state = 23;
	for (int trial = 0; trial < 2000; ++trial) {
		double f = randomInt(&state, 1, 1023) / 1024.0;
		bcVec3 x = V(1 - f, f, 0);
		bcVec3 dir = V(randomInt(&state, -4, 4) / 4.0, randomInt(&state, -4, 4) / 4.0, randomInt(&state, 1, 8) / 8.0);
		bcCastInput in = { bcAdd(x, dir), bcSub(x, dir), 0 };
		bcCastOutput out;
		bcContact ties[16];
		int n = bcMesh_CastTies(mesh, in, NULL, &out, ties, 16);
		ck_assert_int_eq(out.state, bc_castHit);
		ck_assert_int_eq(out.triangle, 0);
		ck_assert(out.alpha == 0.5);
		ck_assert_int_eq(out.feature, bc_featureFace);
		/* Each triangle: its face and the shared edge. */
		ck_assert_int_eq(n, 4);
		ck_assert_int_eq(ties[0].triangle, 0);
		ck_assert_int_eq(ties[2].triangle, 1);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(point_missing_by_one_ulp)
{
	const bcVec3 a = V(0, 0, 0), b = V(1, 0, 0), c = V(0, 1, 0);
	double misses[] = { -6e-17, -DBL_TRUE_MIN, nextafter(0.0, -1.0) };
	for (int i = 0; i < 3; ++i) {
		bcCastInput in = { V(0.5, misses[i], 1), V(0.5, misses[i], -1), 0 };
		ck_assert_int_eq(bcCastTriangle(a, b, c, in, NULL).state, bc_castMiss);
	}
	/* Just outside the hypotenuse x + y = 1. */
	double x = 0.5, y = nextafter(0.5, 1.0);
	bcCastInput in = { V(x, y, 1), V(x, y, -1), 0 };
	ck_assert_int_eq(bcCastTriangle(a, b, c, in, NULL).state, bc_castMiss);
	in.p0 = V(x, 0.5, 1);
	in.p1 = V(x, 0.5, -1);
	ck_assert_int_eq(bcCastTriangle(a, b, c, in, NULL).state, bc_castHit);
}
END_TEST

START_TEST(tangent_contacts_are_hit_at_the_exact_alpha)
{
	/* Rolling at height exactly r over the edge AB (y = 0) of the unit
	 * triangle, dot(n, d) = 0: the double root is at the edge, alpha 0.5
	 * when the path is centred on it; off-centre the alpha is rational. */
	const bcVec3 a = V(0, 0, 0), b = V(1, 0, 0), c = V(0, 1, 0);
	const double radii[] = { 1e-12, 1e-6, 0.3, 0.25, 3.0, 1e-300 };
	for (int i = 0; i < 6; ++i) {
		double r = radii[i];
		bcCastInput in = { V(0.25, -1, r), V(0.25, 1, r), r };
		bcCastOutput out = bcCastTriangle(a, b, c, in, NULL);
		ck_assert_msg(out.state == bc_castHit, "r %g: missed", r);
		ck_assert_msg(out.alpha == 0.5, "r %g: alpha %.17g", r, out.alpha);
		ck_assert_int_eq(out.feature, bc_featureEdge);
		ck_assert_msg(out.normal.z == 1.0, "r %g: normal z %.17g", r, out.normal.z);
		/* From y = -0.3 to y = 0.7: alpha 0.3 / 1 = 0.3 exactly rounded. */
		bcCastInput in2 = { V(0.25, -0.3, r), V(0.25, 0.7, r), r };
		out = bcCastTriangle(a, b, c, in2, NULL);
		ck_assert_int_eq(out.state, bc_castHit);
		ck_assert_msg(fabs(out.alpha - 0.3) <= 2 * DBL_EPSILON, "r %g: alpha %.17g", r, out.alpha);
		/* An ulp higher than r: no contact at all. */
		double z = nextafter(r, 2 * r + 1);
		bcCastInput high = { V(0.25, -1, z), V(0.25, 1, z), r };
		ck_assert_msg(bcCastTriangle(a, b, c, high, NULL).state == bc_castMiss, "r %g: an ulp above touched", r);
	}
	/* Tilted: the plane through A, B and (0, 3, 4)/5-scaled: n = (0, -4, 3)/5;
	 * height r = 5 s above the edge AB at (x, -4 s, 3 s) exactly. */
	const bcVec3 c2 = V(0, 3, 4);
	for (int e = -40; e <= 1; e += 3) {
		double s = ldexp(1.0, e);
		double r = 5 * s;
		bcCastInput in = { V(-1, -4 * s, 3 * s), V(2, -4 * s, 3 * s), r };
		/* Along x, parallel to AB at distance r: the piece of AB entered at x = 0. */
		bcCastOutput out = bcCastTriangle(a, b, c2, in, NULL);
		ck_assert_msg(out.state == bc_castHit, "s 2^%d: missed", e);
		ck_assert_msg(out.alpha == 1.0 / 3.0, "s 2^%d: alpha %.17g", e, out.alpha);
		ck_assert_int_eq(out.feature, bc_featureEdge);
		bcAssertVecNear(out.normal, 0, -0.8, 0.6, 1e-15);
	}
}
END_TEST

/* ------------------------------------------------------ exact answers */

START_TEST(exact_path_hand_cases)
{
	const bcVec3 a = V(0, 0, 0), b = V(1, 0, 0), c = V(0, 1, 0);
	bcSweepTriangleRef t = { a, b, c, bcTriangleNormal(a, b, c), bcTriangleNormalError(a, b, c) };
	bcSweepResult res;
	/* A vertex double root: passing A at distance exactly r = 0.5 below
	 * the plane's front? From behind with two sides: path z = -0.5 along
	 * y = -x... simpler: along x at y = 0, z = 0.5 from x = -2: the ball of
	 * A is entered at x = 0 - 0.5... no: at distance 0.5 the centre (x, 0,
	 * 0.5) is within 0.5 of A only at x = 0 (tangent). */
	bcCastInput in = { V(-2, 0, 0.5), V(2, 0, 0.5), 0.5 };
	bcSweepQuery q = bcMakeSweepQuery(in, NULL);
	q.forceExact = true;
	ck_assert(bcSweepTriangle(&q, &t, 1.0, &res));
	ck_assert(res.alpha[bc_slotVertex0] == 0.5);
	ck_assert(res.alpha[bc_slotEdge0] == 0.5); /* AB's cylinder, tangent at t = 0: ties, edge first */
	ck_assert(res.alpha[bc_slotFace] == INFINITY);
	/* Along AB's line at distance r exactly, parallel to it, from x = -2:
	 * AB's piece entered at x = 0 (t = 0), A's ball at the same time. */
	bcCastInput along = { V(-2, -0.5, 0), V(2, -0.5, 0), 0.5 };
	q = bcMakeSweepQuery(along, NULL);
	q.forceExact = true;
	ck_assert(bcSweepTriangle(&q, &t, 1.0, &res));
	ck_assert(res.alpha[bc_slotEdge0] == 0.5);
	ck_assert(res.alpha[bc_slotVertex0] == 0.5);
	/* A rim graze: inside AB's infinite cylinder (distance 0.3 < r = 0.5
	 * from its line, below the plane), arriving at t = 0 from x < 0: the
	 * ball of A is entered earlier, at x = -0.4; the edge's piece at x = 0. */
	bcCastInput rim = { V(-2, -0.3, 0), V(2, -0.3, 0), 0.5 };
	q = bcMakeSweepQuery(rim, NULL);
	q.forceExact = true;
	ck_assert(bcSweepTriangle(&q, &t, 1.0, &res));
	ck_assert(res.alpha[bc_slotEdge0] == 0.5);
	bcAssertNear(res.alpha[bc_slotVertex0], 1.6 / 4.0, 1e-16);
	/* The fast path, left to itself, gives the same. */
	q.forceExact = false;
	bcSweepResult fast;
	ck_assert(bcSweepTriangle(&q, &t, 1.0, &fast));
	ck_assert(fast.alpha[bc_slotEdge0] == 0.5);
	bcAssertNear(fast.alpha[bc_slotVertex0], 0.4, 1e-15);
}
END_TEST

/* ------------------------------------------ fast path against exact */

typedef struct bcCaseBuilder {
	uint64_t state;
} bcCaseBuilder;

/* An axis permutation and flip, exact on dyadic numbers. */
static bcVec3 reorient(bcVec3 v, int permutation, int flips)
{
	double c[3] = { v.x, v.y, v.z };
	static const int perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	double o[3];
	for (int i = 0; i < 3; ++i) {
		o[i] = c[perms[permutation][i]] * ((flips >> i) & 1 ? -1.0 : 1.0);
	}
	return V(o[0], o[1], o[2]);
}

/* A degenerate case on dyadic numbers: the triangle and the query. */
static void degenerateCase(uint64_t* s, bcVec3 tri[3], bcCastInput* in)
{
	int kind = randomInt(s, 0, 7);
	double unit = ldexp(1.0, randomInt(s, -30, 10));
	/* An axis-aligned triangle in z = 0 with small integer corners. */
	bcVec3 a = V(randomInt(s, -4, 0), randomInt(s, -4, 0), 0);
	bcVec3 b = V(randomInt(s, 1, 4), randomInt(s, -4, 0), 0);
	bcVec3 c = V(randomInt(s, -4, 4), randomInt(s, 1, 4), 0);
	tri[0] = a;
	tri[1] = b;
	tri[2] = c;
	const bcVec3* v = tri;
	int k = randomInt(s, 0, 2);
	bcVec3 on = bcAdd(v[k], bcScale(randomInt(s, 0, 8) / 8.0, bcSub(v[(k + 1) % 3], v[k])));
	double r = randomInt(s, 0, 3) == 0 ? 0.0 : randomInt(s, 1, 16) / 8.0;
	bcVec3 dir = V(randomInt(s, -4, 4) / 4.0, randomInt(s, -4, 4) / 4.0, randomInt(s, -4, 4) / 4.0);
	switch (kind) {
	case 0: /* through an edge point or vertex */
		in->p0 = bcAdd(on, dir);
		in->p1 = bcSub(on, dir);
		break;
	case 1: /* rolling at height r (or -r) parallel to the plane */
		dir.z = 0;
		in->p0 = bcAdd(V(on.x, on.y, randomInt(s, 0, 1) ? r : -r), dir);
		in->p1 = bcSub(V(on.x, on.y, in->p0.z), dir);
		break;
	case 2: /* starting at distance exactly r from a vertex, edge point or face point */
		in->p0 = V(on.x, on.y, randomInt(s, 0, 1) ? r : -r);
		in->p1 = bcAdd(in->p0, dir);
		break;
	case 3: /* in the plane */
		dir.z = 0;
		in->p0 = bcAdd(on, bcScale(2, dir));
		in->p1 = bcSub(on, dir);
		break;
	case 4: /* beside an edge's line at distance r, parallel to it */
	{
		bcVec3 e = bcSub(v[(k + 1) % 3], v[k]);
		bcVec3 side = V(0, 0, randomInt(s, 0, 1) ? r : -r);
		in->p0 = bcAdd(bcAdd(v[k], bcScale(-1.5, e)), side);
		in->p1 = bcAdd(bcAdd(v[k], bcScale(2.5, e)), side);
		break;
	}
	case 5: /* at a vertex head on, along an axis */
		in->p0 = bcAdd(v[k], V(0, 0, r + 1));
		in->p1 = bcAdd(v[k], V(0, 0, -r - 1));
		break;
	case 6: /* ending exactly at distance r */
		in->p1 = V(on.x, on.y, r);
		in->p0 = bcAdd(in->p1, V(dir.x, dir.y, fabs(dir.z) + 0.25));
		break;
	default: /* general position */
		in->p0 = V(randomUnit(s) * 5, randomUnit(s) * 5, randomUnit(s) * 5);
		in->p1 = V(randomUnit(s) * 5, randomUnit(s) * 5, randomUnit(s) * 5);
		r = fabs(randomUnit(s)) * 2;
		break;
	}
	in->radius = r;
	/* Scale by a power of two, reorient, translate by a dyadic offset. */
	int permutation = randomInt(s, 0, 5), flips = randomInt(s, 0, 7);
	bcVec3 offset = V(randomInt(s, -64, 64) * 0.125, randomInt(s, -64, 64) * 0.125, randomInt(s, -64, 64) * 0.125);
	for (int i = 0; i < 3; ++i) {
		tri[i] = bcAdd(reorient(bcScale(unit, tri[i]), permutation, flips), bcScale(unit, offset));
	}
	in->p0 = bcAdd(reorient(bcScale(unit, in->p0), permutation, flips), bcScale(unit, offset));
	in->p1 = bcAdd(reorient(bcScale(unit, in->p1), permutation, flips), bcScale(unit, offset));
	in->radius *= unit;
}

static double moveUlps(uint64_t* s, double x)
{
	int steps = randomInt(s, -3, 3);
	for (; steps > 0; --steps) {
		x = nextafter(x, INFINITY);
	}
	for (; steps < 0; ++steps) {
		x = nextafter(x, -INFINITY);
	}
	return x;
}

static bool sameResults(const bcSweepQuery* q, const bcSweepTriangleRef* t, bool fastHit, const bcSweepResult* fast,
						bool exactHit, const bcSweepResult* exact, const char** why)
{
	if (fastHit != exactHit) {
		*why = "hit";
		return false;
	}
	if (!fastHit) {
		return true;
	}
	if (fast->overlap != exact->overlap) {
		*why = "overlap";
		return false;
	}
	/* Every slot that can be answered or tied (within the tie tolerance of
	 * the earliest) is the same; later ones the fast path may skip. */
	double best = fast->best < exact->best ? fast->best : exact->best;
	if (fabs(fast->best - exact->best) > BC_SWEEP_ALPHA_ERROR) {
		*why = "best";
		return false;
	}
	for (int i = 0; i < bc_slotCount; ++i) {
		bool near = fast->alpha[i] <= best + BC_ALPHA_TIE_TOLERANCE || exact->alpha[i] <= best + BC_ALPHA_TIE_TOLERANCE;
		if (!near) {
			continue;
		}
		if (isinf(fast->alpha[i]) != isinf(exact->alpha[i])) {
			*why = "slot";
			return false;
		}
		if (!isinf(fast->alpha[i]) && fabs(fast->alpha[i] - exact->alpha[i]) > BC_SWEEP_ALPHA_ERROR) {
			*why = "alpha";
			return false;
		}
	}
	if (fast->approach != exact->approach || fast->side != exact->side) {
		*why = "side";
		return false;
	}
	(void)q;
	(void)t;
	return true;
}

static void agreement(int mode)
{
	uint64_t state = 1000 + (uint64_t)mode;
	int checked = 0, hits = 0;
	for (int trial = 0; trial < AGREEMENT_CASES; ++trial) {
		bcVec3 tri[3];
		bcCastInput in;
		degenerateCase(&state, tri, &in);
		if (mode == 1) {
			/* A few ulps off the degeneracy. */
			double* x = &in.p0.x + randomInt(&state, 0, 2);
			*x = moveUlps(&state, *x);
			double* y = &in.p1.x + randomInt(&state, 0, 2);
			*y = moveUlps(&state, *y);
			in.radius = fabs(moveUlps(&state, in.radius));
		}
		bcSweepTriangleRef t = { tri[0], tri[1], tri[2], bcTriangleNormal(tri[0], tri[1], tri[2]),
								 bcTriangleNormalError(tri[0], tri[1], tri[2]) };
		if (t.n.x == 0 && t.n.y == 0 && t.n.z == 0) {
			continue;
		}
		bcCastOptions options = bcDefaultCastOptions();
		options.twoSided = randomInt(&state, 0, 1);
		options.approach = randomInt(&state, 0, 1) ? bc_approachLess : bc_approachLessEqual;
		options.overlap = randomInt(&state, 0, 3) == 0 ? bc_overlapIgnore : bc_overlapReport;
		bcSweepQuery q = bcMakeSweepQuery(in, &options);
		bcSweepResult fast, exact;
		bool fastHit = bcSweepTriangle(&q, &t, 1.0, &fast);
		q.forceExact = true;
		bool exactHit = bcSweepTriangle(&q, &t, 1.0, &exact);
		const char* why = "";
		ck_assert_msg(sameResults(&q, &t, fastHit, &fast, exactHit, &exact, &why),
					  "mode %d trial %d: %s differs: tri (%a %a %a) (%a %a %a) (%a %a %a) p0 (%a %a %a) p1 (%a %a %a) "
					  "r %a",
					  mode, trial, why, tri[0].x, tri[0].y, tri[0].z, tri[1].x, tri[1].y, tri[1].z, tri[2].x, tri[2].y,
					  tri[2].z, in.p0.x, in.p0.y, in.p0.z, in.p1.x, in.p1.y, in.p1.z, in.radius);
		checked += 1;
		hits += fastHit;
	}
	ck_assert(checked > AGREEMENT_CASES / 2 && hits > checked / 10);
}

START_TEST(fast_agrees_with_exact_at_degeneracies)
{
	agreement(0);
}
END_TEST

START_TEST(fast_agrees_with_exact_near_degeneracies)
{
	agreement(1);
}
END_TEST

START_TEST(point_alphas_are_correctly_rounded)
{
	/* The double-double crossing against big integers, bit for bit: random
	 * segments through random triangles, and through dyadic ones at exact
	 * edge points (whose alphas are often exactly representable). */
	uint64_t state = 77;
	int crossed = 0;
	for (int trial = 0; trial < AGREEMENT_CASES / 2; ++trial) {
		bcVec3 tri[3];
		bcCastInput in;
		if (trial % 2 == 0) {
			for (int i = 0; i < 3; ++i) {
				tri[i] = V(randomUnit(&state) * 4, randomUnit(&state) * 4, randomUnit(&state) * 4);
			}
			in.p0 = V(randomUnit(&state) * 8, randomUnit(&state) * 8, randomUnit(&state) * 8);
			in.p1 = V(randomUnit(&state) * 8, randomUnit(&state) * 8, randomUnit(&state) * 8);
		} else {
			degenerateCase(&state, tri, &in);
		}
		in.radius = 0.0;
		bcSweepTriangleRef t = { tri[0], tri[1], tri[2], bcTriangleNormal(tri[0], tri[1], tri[2]),
								 bcTriangleNormalError(tri[0], tri[1], tri[2]) };
		if (t.n.x == 0 && t.n.y == 0 && t.n.z == 0) {
			continue;
		}
		bcCastOptions options = bcDefaultCastOptions();
		options.twoSided = true;
		bcSweepQuery q = bcMakeSweepQuery(in, &options);
		bcSweepResult result;
		bool crossing = bcSign(bcOrient3d(tri[0], tri[1], tri[2], in.p0, 1.0)) *
							bcSign(bcOrient3d(tri[0], tri[1], tri[2], in.p1, 1.0)) <
						0;
		if (!crossing || !bcSweepTriangle(&q, &t, 1.0, &result)) {
			continue;
		}
		double exact = bcExactPointAlpha(&q, &t);
		ck_assert_msg(result.best == exact, "trial %d: alpha %a, correctly rounded %a", trial, result.best, exact);
		crossed += 1;
	}
	ck_assert(crossed > AGREEMENT_CASES / 20);
}
END_TEST

START_TEST(tiny_scales_do_not_read_underflow_as_a_touch)
{
	/* A triangle in y = 0 (front +y) and a ball over its face at 13/16,
	 * 16/16 and 19/16 of r, all scaled by 2^-150 down to 2^-500 (below, the normal underflows
	 * and the triangle is skipped as degenerate, as the man page says): the
	 * squared distances underflow to 0 = 0, which once read as "exactly
	 * r": a touch at alpha 0 where the ball overlaps (red team's
	 * extreme-scale class). Overlap, touch and miss must not depend on
	 * the scale. */
	const int scales[] = { -150, -192, -250, -300, -400, -500 };
	for (int i = 0; i < 6; ++i) {
		const int e = scales[i];
		const bcVec3 a = V(ldexp(0, e), 0, ldexp(-8, e)), b = V(ldexp(0, e), 0, ldexp(8, e)),
					 c = V(ldexp(16, e), 0, ldexp(0, e));
		const double heights[] = { 13, 16, 19 };
		for (int h = 0; h < 3; ++h) {
			/* Moving along the plane, at a constant height. */
			bcCastInput in = { V(ldexp(2, e), ldexp(heights[h] / 16, e), ldexp(1, e)),
							   V(ldexp(2, e), ldexp(heights[h] / 16, e), ldexp(-1, e)), ldexp(1, e) };
			bcCastOutput out = bcCastTriangle(a, b, c, in, NULL);
			if (h == 0) {
				ck_assert_msg(out.state == bc_castInitialOverlap, "2^%d: height 13/16 r is an overlap (state %d)", e,
							  out.state);
			} else if (h == 1) {
				ck_assert_msg(out.state == bc_castHit && out.alpha == 0.0 && out.feature == bc_featureFace,
							  "2^%d: height r is a touch at 0 (state %d)", e, out.state);
			} else {
				ck_assert_msg(out.state == bc_castMiss, "2^%d: height 19/16 r is a miss (state %d)", e, out.state);
			}
			/* Ignoring the overlap: the parallel path touches nothing else. */
			bcCastOptions o = bcDefaultCastOptions();
			o.overlap = bc_overlapIgnore;
			out = bcCastTriangle(a, b, c, in, &o);
			ck_assert_msg(out.state == (h == 1 ? bc_castHit : bc_castMiss), "2^%d, height %g/16, ignore: state %d", e,
						  heights[h], out.state);
		}
	}
}
END_TEST

START_TEST(tiny_scales_keep_shared_edges_closed)
{
	/* A point through a shared edge at scales whose orientations (products
	 * of three coordinates) underflow: the exact orientation comes back as
	 * the smallest subnormal with only its sign right, and a deferred
	 * alpha of o0 / (o0 - o1) read 0.5 from it, so the lower triangle lost
	 * the tie it should win (red team, x2^-439). */
	const int scales[] = { -200, -300, -439, -500 };
	for (int i = 0; i < 4; ++i) {
		const int e = scales[i];
		const double v[] = { 0, 0, 0, ldexp(1, e), 0, 0, 0, ldexp(1, e), 0, ldexp(1, e), ldexp(1, e), 0 };
		const int32_t t[] = { 0, 1, 2, 1, 3, 2 };
		bcMesh* mesh = meshOf(v, 4, t, 2);
		uint64_t state = 29;
		for (int trial = 0; trial < 200; ++trial) {
			double f = randomInt(&state, 1, 1023) / 1024.0;
			bcVec3 x = V(ldexp(1 - f, e), ldexp(f, e), 0);
			bcVec3 dir = V(ldexp(randomInt(&state, -4, 4) / 4.0, e), ldexp(randomInt(&state, -4, 4) / 4.0, e),
						   ldexp(randomInt(&state, 1, 8) / 8.0, e));
			/* p0 three times as far as p1: alpha 3/4. */
			bcCastInput in = { bcAdd(x, bcScale(3, dir)), bcSub(x, dir), 0 };
			bcCastOutput out;
			bcContact ties[16];
			int n = bcMesh_CastTies(mesh, in, NULL, &out, ties, 16);
			ck_assert_msg(out.state == bc_castHit, "2^%d trial %d: state %d", e, trial, out.state);
			ck_assert_msg(out.triangle == 0 && out.alpha == 0.75, "2^%d trial %d: triangle %d alpha %.17g", e, trial,
						  out.triangle, out.alpha);
			ck_assert_int_eq(n, 4);
		}
		bcMesh_Destroy(mesh);
	}
	/* The red team's case: triangles 0 and 1 share the edge 0-5 (the
	 * second triangle's orientations underflow less); the point crosses it
	 * at alpha 3/11 and triangle 0 wins the tie. */
	const double w[] = { 0.0, 0.0, 4.842890014440684e-133, 3.522101828684134e-133, 0.0, 4.4026272858551673e-134,
						 7.044203657368268e-133, 0.0, 3.522101828684134e-133, 1.0566305486052401e-132, 0.0,
						 4.842890014440684e-133, 0.0, 3.522101828684134e-133, 0.0, 3.522101828684134e-133,
						 3.522101828684134e-133, 0.0, 7.044203657368268e-133, 3.522101828684134e-133,
						 7.044203657368268e-133, 1.0566305486052401e-132, 3.522101828684134e-133, 0.0 };
	const int32_t u[] = { 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 3, 7, 6 };
	bcMesh* mesh = meshOf(w, 8, u, 5);
	bcCastInput in = { V(9.025385936003093e-133, 1.1006568214637918e-133, 3.3294868849279703e-133),
					   V(-2.003195415064101e-132, 1.1006568214637918e-133, 3.3294868849279703e-133), 0 };
	bcCastOutput out;
	bcContact ties[16];
	int n = bcMesh_CastTies(mesh, in, NULL, &out, ties, 16);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert(out.alpha == 3.0 / 11.0);
	ck_assert_int_eq(n, 3);
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* sweepExactSuite(void)
{
	Suite* suite = suite_create("sweep_exact");
	TCase* audit = tcase_create("audit");
	tcase_add_test(audit, ties_are_not_capped);
	tcase_add_test(audit, point_normal_never_flipped_by_rounding);
	tcase_add_test(audit, point_through_an_unshared_edge_midpoint);
	tcase_add_test(audit, point_through_a_shared_edge);
	tcase_add_test(audit, point_missing_by_one_ulp);
	tcase_add_test(audit, tangent_contacts_are_hit_at_the_exact_alpha);
	tcase_add_test(audit, exact_path_hand_cases);
	tcase_add_test(audit, tiny_scales_do_not_read_underflow_as_a_touch);
	tcase_add_test(audit, tiny_scales_keep_shared_edges_closed);
	suite_add_tcase(suite, audit);
	TCase* agree = tcase_create("agreement");
	tcase_set_timeout(agree, 120);
	tcase_add_test(agree, fast_agrees_with_exact_at_degeneracies);
	tcase_add_test(agree, fast_agrees_with_exact_near_degeneracies);
	tcase_add_test(agree, point_alphas_are_correctly_rounded);
	suite_add_tcase(suite, agree);
	return suite;
}

int main(void)
{
	return bcRunSuite(sweepExactSuite());
}
