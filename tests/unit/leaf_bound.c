/* leaf_bound.c tests: the float lower bound of each triangle of a leaf
 * never exceeds the alpha the exact one-triangle cast (bcCastTriangle)
 * gives it, a triangle left out never touches up to maxAlpha, on every
 * scale and offset the floats could stumble on (far from the origin,
 * slivers at the threshold, tiny and huge coordinates, grazing paths,
 * balls starting in contact); the three ways (plain C, SSE2, AVX2) agree
 * bit for bit; and the bounds are tight enough to matter. */
#include <float.h>
#include <string.h>

#include "harness.h"
#include "leaf_bound.h"
#include "meshgen.h"
#include "sweep.h"
#include "vec3.h"

/* A leaf's triangles as the test made them. */
typedef struct bcTestLeaf {
	bcLeafBlock block __attribute__((aligned(32)));
	bcVec3 v[BC_LEAF_LANES][3];
	int count;
} bcTestLeaf;

static float floatBelow(double x)
{
	float f = (float)x;
	return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

static float floatAbove(double x)
{
	float f = (float)x;
	return (double)f < x ? nextafterf(f, INFINITY) : f;
}

/* Build the block from the triangles, its box rounded outward as the
 * hierarchy's are. Degenerate triangles are never put in a leaf. */
static void makeLeaf(bcTestLeaf* leaf)
{
	float lower[3] = { INFINITY, INFINITY, INFINITY }, upper[3] = { -INFINITY, -INFINITY, -INFINITY };
	for (int i = 0; i < leaf->count; ++i) {
		for (int j = 0; j < 3; ++j) {
			for (int k = 0; k < 3; ++k) {
				double x = bcComponent(leaf->v[i][j], k);
				lower[k] = fminf(lower[k], floatBelow(x));
				upper[k] = fmaxf(upper[k], floatAbove(x));
			}
		}
	}
	bcLeafBlock_Begin(&leaf->block, 0, leaf->count, lower, upper);
	for (int i = 0; i < leaf->count; ++i) {
		bcVec3 a = leaf->v[i][0], b = leaf->v[i][1], c = leaf->v[i][2];
		bcLeafBlock_SetLane(&leaf->block, i, a, b, c, bcTriangleNormal(a, b, c), bcTriangleNormalError(a, b, c));
	}
}

static bool isDegenerate(bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 n = bcTriangleNormal(a, b, c);
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

/* The bounds of a leaf every way this CPU has; they must agree. */
static int leafBounds(const bcTestLeaf* leaf, const bcLeafQuery* query, double entry, double maxAlpha,
					  float bounds[BC_LEAF_LANES])
{
	int mask = bcLeafBounds_Scalar(&leaf->block, query, entry, maxAlpha, bounds);
#if BC_LEAF_X86
	float other[BC_LEAF_LANES];
	int sse = bcLeafBounds_Sse2(&leaf->block, query, entry, maxAlpha, other);
	bcRequire(sse == mask, "SSE2 keeps %#x, plain C %#x", sse, mask);
	for (int i = 0; i < leaf->count; ++i) {
		bcRequire(memcmp(other + i, bounds + i, sizeof(float)) == 0 || !(mask >> i & 1),
				  "lane %d: SSE2 bound %.9g, plain C %.9g", i, other[i], bounds[i]);
	}
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2")) {
		int avx = bcLeafBounds_Avx2(&leaf->block, query, entry, maxAlpha, other);
		bcRequire(avx == mask, "AVX2 keeps %#x, plain C %#x", avx, mask);
		for (int i = 0; i < leaf->count; ++i) {
			bcRequire(memcmp(other + i, bounds + i, sizeof(float)) == 0 || !(mask >> i & 1),
					  "lane %d: AVX2 bound %.9g, plain C %.9g", i, other[i], bounds[i]);
		}
	}
#endif
	return mask;
}

/* What the test counts over many queries. */
typedef struct bcTally {
	long lanes;    /* triangles looked at */
	long contacts; /* of which touched at or before maxAlpha */
	long kept;     /* of which the bound kept */
	long tight;    /* contacts whose bound is within 1e-3 of the path of their alpha */
} bcTally;

/* One query against a leaf: every triangle the exact cast touches at or
 * before maxAlpha is kept, with entry + bound - BC_LEAF_KEY_STEP at or
 * below its alpha. entry is at most the first contact of any of them (as
 * the walk's box test guarantees). */
static void checkQuery(const bcTestLeaf* leaf, bcCastInput input, const bcCastOptions* options, double entry,
					   double maxAlpha, bcTally* tally, const char* what)
{
	bcLeafQuery query = bcLeafQuery_Make(input.p0, bcSub(input.p1, input.p0), input.radius, options->twoSided);
	float bounds[BC_LEAF_LANES];
	int mask = leafBounds(leaf, &query, entry, maxAlpha, bounds);
	for (int i = 0; i < leaf->count; ++i) {
		tally->lanes += 1;
		tally->kept += mask >> i & 1;
		bcCastOutput out = bcCastTriangle(leaf->v[i][0], leaf->v[i][1], leaf->v[i][2], input, options);
		if (out.state != bc_castHit && out.state != bc_castInitialOverlap) {
			continue;
		}
		if (!(out.alpha <= maxAlpha)) {
			continue;
		}
		tally->contacts += 1;
		double key = (entry + (double)bounds[i]) - BC_LEAF_KEY_STEP;
		bcRequire((mask >> i & 1) && key <= out.alpha,
				  "%s: lane %d touches at %.17g (state %d) but is %s with key %.17g (entry %.17g, maxAlpha %.17g; "
				  "p0 %.17g %.17g %.17g p1 %.17g %.17g %.17g r %.17g; a %.17g %.17g %.17g b %.17g %.17g %.17g c "
				  "%.17g %.17g %.17g)",
				  what, i, out.alpha, (int)out.state, (mask >> i & 1) ? "kept" : "left out", key, entry, maxAlpha,
				  input.p0.x, input.p0.y, input.p0.z, input.p1.x, input.p1.y, input.p1.z, input.radius,
				  leaf->v[i][0].x, leaf->v[i][0].y, leaf->v[i][0].z, leaf->v[i][1].x, leaf->v[i][1].y,
				  leaf->v[i][1].z, leaf->v[i][2].x, leaf->v[i][2].y, leaf->v[i][2].z);
		tally->tight += out.alpha - key <= 1e-3;
	}
}

/* A point of triangle t: a vertex, on an edge, or inside. */
static bcVec3 pointOn(bcRandom* rng, const bcVec3 t[3])
{
	double u = bcRandom_Uniform(rng, 0.0, 1.0);
	int k = (int)(bcRandom_Next(rng) % 3);
	if (u < 0.2) {
		return t[k];
	}
	if (u < 0.5) {
		return bcMulAdd(t[k], bcRandom_Uniform(rng, 0.0, 1.0), bcSub(t[(k + 1) % 3], t[k]));
	}
	double s = bcRandom_Uniform(rng, 0.0, 1.0), w = bcRandom_Uniform(rng, 0.0, 1.0);
	if (s + w > 1.0) {
		s = 1.0 - s;
		w = 1.0 - w;
	}
	return bcAdd(t[0], bcAdd(bcScale(s, bcSub(t[1], t[0])), bcScale(w, bcSub(t[2], t[0]))));
}

/* A triangle of size about `size` around `center`: random, or a sliver
 * whose smallest angle's sine is `sliver` times BC_SLIVER_SINE (0: not). */
static void randomTriangle(bcRandom* rng, bcVec3 center, double size, double sliver, bcVec3 t[3])
{
	for (;;) {
		for (int k = 0; k < 3; ++k) {
			t[k] = bcMulAdd(center, size * bcRandom_Uniform(rng, 0.2, 1.0), bcRandom_OnSphere(rng));
		}
		if (sliver > 0.0) {
			/* c on the line a b, pushed off it by sliver * sine * |a b|. */
			bcVec3 ab = bcSub(t[1], t[0]);
			bcVec3 off = bcCross(ab, bcRandom_OnSphere(rng));
			double length = bcLength(off);
			if (!(length > 0.0)) {
				continue;
			}
			double along = bcRandom_Uniform(rng, 0.1, 0.9);
			t[2] = bcAdd(bcMulAdd(t[0], along, ab), bcScale(sliver * BC_SLIVER_SINE * bcLength(ab) / length, off));
		}
		if (!isDegenerate(t[0], t[1], t[2])) {
			return;
		}
		if (sliver > 0.0) {
			return; /* below the threshold: the caller checks */
		}
	}
}

/* A query at the leaf: mostly aimed at a point of one of its triangles
 * (from either side, grazing, starting in contact), sometimes anywhere. */
static bcCastInput randomQuery(bcRandom* rng, const bcTestLeaf* leaf, bcVec3 center, double size)
{
	const bcVec3* t = leaf->v[bcRandom_Next(rng) % (uint64_t)leaf->count];
	bcVec3 target = pointOn(rng, t);
	double radii[6] = { 0.0, 1e-9 * size, 1e-3 * size, 0.3 * size, size, 5.0 * size };
	double r = radii[bcRandom_Next(rng) % 6];
	bcVec3 n = bcTriangleNormal(t[0], t[1], t[2]);
	bcCastInput in;
	double kind = bcRandom_Uniform(rng, 0.0, 1.0);
	double length = size * pow(10.0, bcRandom_Uniform(rng, -3.0, 1.0));
	if (kind < 0.4) {
		/* Straight at it, so that it touches at about alpha 0.5, to the
		 * contact point less r along the normal, or a little beyond. */
		bcVec3 dir = bcRandom_OnSphere(rng);
		double side = bcRandom_Uniform(rng, 0.0, 1.0) < 0.8 ? 1.0 : -1.0;
		bcVec3 goal = bcMulAdd(target, side * r * bcRandom_Uniform(rng, 0.9, 1.1), n);
		in.p0 = bcMulAdd(goal, length, dir);
		in.p1 = bcMulAdd(goal, -length * bcRandom_Uniform(rng, 0.8, 1.5), dir);
	} else if (kind < 0.6) {
		/* Grazing: parallel to the plane at height about r. */
		bcVec3 along = bcCross(n, bcRandom_OnSphere(rng));
		double l = bcLength(along);
		along = l > 0.0 ? bcScale(1.0 / l, along) : bcMakeVec3(1.0, 0.0, 0.0);
		double h = r * (1.0 + bcRandom_Uniform(rng, -1e-6, 1e-6)) + bcRandom_Uniform(rng, -1e-12, 1e-12) * size;
		bcVec3 mid = bcMulAdd(target, h, n);
		in.p0 = bcMulAdd(mid, -length, along);
		in.p1 = bcMulAdd(mid, length, along);
	} else if (kind < 0.7) {
		/* Starting in contact or at distance about r, going anywhere. */
		in.p0 = bcMulAdd(target, r * bcRandom_Uniform(rng, 0.0, 1.0001), bcRandom_OnSphere(rng));
		in.p1 = bcMulAdd(in.p0, length, bcRandom_OnSphere(rng));
	} else if (kind < 0.75) {
		/* Not moving. */
		in.p0 = bcMulAdd(target, r * bcRandom_Uniform(rng, 0.5, 1.5), bcRandom_OnSphere(rng));
		in.p1 = in.p0;
	} else {
		in.p0 = bcMulAdd(center, 3.0 * size, bcRandom_OnSphere(rng));
		in.p1 = bcMulAdd(center, 3.0 * size, bcRandom_OnSphere(rng));
	}
	if (bcRandom_Uniform(rng, 0.0, 1.0) < 0.1) {
		/* An axis-parallel path. */
		int k = (int)(bcRandom_Next(rng) % 3);
		double* p0 = k == 0 ? &in.p0.x : (k == 1 ? &in.p0.y : &in.p0.z);
		double* p1 = k == 0 ? &in.p1.x : (k == 1 ? &in.p1.y : &in.p1.z);
		double keep = *p1;
		in.p1 = in.p0;
		*p1 = keep;
		(void)p0;
	}
	in.radius = r;
	return in;
}

/* The options a query is cast with: each side rule, overlaps reported or
 * ignored. */
static bcCastOptions randomOptions(bcRandom* rng)
{
	bcCastOptions options = bcDefaultCastOptions();
	uint64_t bits = bcRandom_Next(rng);
	options.twoSided = (bits & 3) == 0;
	options.approach = (bits >> 2 & 1) ? bc_approachLess : bc_approachLessEqual;
	options.overlap = (bits >> 3 & 7) == 0 ? bc_overlapIgnore : bc_overlapReport;
	return options;
}

/* Leaves of up to eight triangles of size `size` around `center`, each
 * thrown at many times; entry 0 and entries up to the first contact,
 * maxAlpha 1 and lower. slivers: the share of triangles made slivers. */
static bcTally checkScene(uint64_t seed, bcVec3 center, double size, double slivers, int leaves, int queries)
{
	bcRandom rng = { seed };
	bcTally tally = { 0, 0, 0, 0 };
	const double sliverSines[] = { 0.999, 1.001, 1.01, 2.0, 16.0, 1000.0 };
	for (int l = 0; l < leaves; ++l) {
		bcTestLeaf leaf;
		leaf.count = 1 + (int)(bcRandom_Next(&rng) % BC_LEAF_LANES);
		for (int i = 0; i < leaf.count; ++i) {
			bcVec3 c = bcMulAdd(center, size * bcRandom_Uniform(&rng, 0.0, 2.0), bcRandom_OnSphere(&rng));
			double sliver = bcRandom_Uniform(&rng, 0.0, 1.0) < slivers ? sliverSines[bcRandom_Next(&rng) % 6] : 0.0;
			randomTriangle(&rng, c, size, sliver, leaf.v[i]);
			if (isDegenerate(leaf.v[i][0], leaf.v[i][1], leaf.v[i][2])) {
				i -= 1; /* below the threshold: degenerate, never in a leaf */
			}
		}
		makeLeaf(&leaf);
		for (int q = 0; q < queries; ++q) {
			bcCastInput in = randomQuery(&rng, &leaf, center, size);
			bcCastOptions options = randomOptions(&rng);
			double first = 1.0;
			for (int i = 0; i < leaf.count; ++i) {
				bcCastOutput out = bcCastTriangle(leaf.v[i][0], leaf.v[i][1], leaf.v[i][2], in, &options);
				if (out.state == bc_castHit || out.state == bc_castInitialOverlap) {
					first = out.alpha < first ? out.alpha : first;
				}
			}
			double maxAlpha = bcRandom_Uniform(&rng, 0.0, 1.0) < 0.7 ? 1.0 : bcRandom_Uniform(&rng, 0.0, 1.0);
			double top = first < maxAlpha ? first : maxAlpha;
			double entry = bcRandom_Uniform(&rng, 0.0, 1.0) < 0.5 ? 0.0 : top * bcRandom_Uniform(&rng, 0.0, 1.0);
			checkQuery(&leaf, in, &options, entry, maxAlpha, &tally, "scene");
			if (first <= maxAlpha) {
				/* The walk's entry may be the first contact itself. */
				checkQuery(&leaf, in, &options, first, maxAlpha, &tally, "entry at the contact");
			}
		}
	}
	return tally;
}

START_TEST(bounds_never_exceed_the_exact_alpha)
{
	const double sizes[] = { 1.0, 1e-3, 1e3, 1e-9, 1e9 };
	bcTally total = { 0, 0, 0, 0 };
	for (int s = 0; s < 5; ++s) {
		bcTally t = checkScene(100 + (uint64_t)s, bcMakeVec3(0.25, -0.5, 0.75), sizes[s], 0.0, 60, 60);
		total.contacts += t.contacts;
		total.tight += t.tight;
		ck_assert_int_gt(t.contacts, 200);
	}
	/* Tight where it matters: most contacts have a bound within 1e-3 of
	 * their alpha (a bound far below it would visit every triangle; 88 %
	 * are, on these throws aimed at grazing and odd cases). */
	ck_assert_msg(total.tight > total.contacts * 4 / 5, "%ld of %ld tight", total.tight, total.contacts);
}
END_TEST

/* A mesh far from the origin with unit features: the leaf's frame (its
 * origin, the centre at the entry alpha) keeps the float numbers small. */
START_TEST(bounds_far_from_the_origin)
{
	const double offsets[] = { 1e7, -3e7, 1e9, 1e12 };
	for (int o = 0; o < 4; ++o) {
		bcVec3 center = bcMakeVec3(offsets[o], 0.5 * offsets[o], -offsets[o]);
		bcTally t = checkScene(200 + (uint64_t)o, center, 1.0, 0.0, 60, 60);
		ck_assert_int_gt(t.contacts, 200);
		if (o == 0) {
			ck_assert_msg(t.tight > t.contacts * 4 / 5, "at 1e7: %ld of %ld tight", t.tight, t.contacts);
		}
	}
}
END_TEST

/* Slivers at the degeneracy threshold: their normals carry large errors
 * (bcTriangleNormalError), which the side test must allow for. */
START_TEST(bounds_of_slivers)
{
	bcTally t = checkScene(300, bcMakeVec3(1.0, 2.0, 3.0), 1.0, 0.7, 80, 60);
	ck_assert_int_gt(t.contacts, 200);
	bcTally far = checkScene(301, bcMakeVec3(1e7, 2.0, 3.0), 1.0, 0.7, 40, 60);
	ck_assert_int_gt(far.contacts, 100);
}
END_TEST

/* Beyond the range where the floats are trusted (coordinates past 1e15,
 * or a scene smaller than 1e-12): no bounds, every triangle kept at 0. */
START_TEST(no_bounds_out_of_range)
{
	const double sizes[] = { 1e16, 1e-14 };
	for (int s = 0; s < 2; ++s) {
		bcRandom rng = { 400 + (uint64_t)s };
		bcTestLeaf leaf;
		leaf.count = 5;
		for (int i = 0; i < leaf.count; ++i) {
			randomTriangle(&rng, bcMakeVec3(sizes[s], 0.0, 0.0), sizes[s], 0.0, leaf.v[i]);
		}
		makeLeaf(&leaf);
		bcCastInput in = { bcMakeVec3(-5.0 * sizes[s], 0.0, 0.0), bcMakeVec3(-4.0 * sizes[s], 0.0, 0.0), 0.0 };
		bcLeafQuery query = bcLeafQuery_Make(in.p0, bcSub(in.p1, in.p0), in.radius, false);
		float bounds[BC_LEAF_LANES];
		int mask = leafBounds(&leaf, &query, 0.0, 1.0, bounds);
		ck_assert_int_eq(mask, (1 << leaf.count) - 1);
		for (int i = 0; i < leaf.count; ++i) {
			ck_assert(bounds[i] == 0.0f);
		}
		bcTally t = checkScene(410 + (uint64_t)s, bcMakeVec3(sizes[s], 0.0, 0.0), sizes[s], 0.0, 10, 30);
		ck_assert_int_gt(t.contacts, 20);
	}
}
END_TEST

/* By hand: the unit triangle (0,0,0) (1,0,0) (0,1,0), front +z. A ball of
 * radius 0.25 falling straight down from z = 1.25 at (0.25, 0.25) touches
 * the face at alpha 0.5 (path of length 2): its bound is 0.5 within the
 * slack. Moving away (from below, one-sided) it is left out; two-sided, a
 * ball rising from z = -1.25 touches it from behind at 0.5. Resting at
 * (1.05, 1.05, 0), 0.778 from the hypotenuse: left out with r = 0.3
 * (the plane alone would keep it), kept with r = 0.8. */
START_TEST(bounds_by_hand)
{
	bcTestLeaf leaf;
	leaf.count = 1;
	leaf.v[0][0] = bcMakeVec3(0.0, 0.0, 0.0);
	leaf.v[0][1] = bcMakeVec3(1.0, 0.0, 0.0);
	leaf.v[0][2] = bcMakeVec3(0.0, 1.0, 0.0);
	makeLeaf(&leaf);
	float bounds[BC_LEAF_LANES];
	bcLeafQuery down = bcLeafQuery_Make(bcMakeVec3(0.25, 0.25, 1.25), bcMakeVec3(0.0, 0.0, -2.0), 0.25, false);
	ck_assert_int_eq(leafBounds(&leaf, &down, 0.0, 1.0, bounds), 1);
	ck_assert_msg(bounds[0] <= 0.5f && bounds[0] > 0.5f - 1e-5f, "bound %.9g", (double)bounds[0]);
	/* With maxAlpha below the contact it is left out. */
	ck_assert_int_eq(leafBounds(&leaf, &down, 0.0, 0.49, bounds), 0);
	bcLeafQuery up = bcLeafQuery_Make(bcMakeVec3(0.25, 0.25, -1.25), bcMakeVec3(0.0, 0.0, 2.0), 0.25, false);
	ck_assert_int_eq(leafBounds(&leaf, &up, 0.0, 1.0, bounds), 0);
	bcLeafQuery behind = bcLeafQuery_Make(bcMakeVec3(0.25, 0.25, -1.25), bcMakeVec3(0.0, 0.0, 2.0), 0.25, true);
	ck_assert_int_eq(leafBounds(&leaf, &behind, 0.0, 1.0, bounds), 1);
	ck_assert_msg(bounds[0] <= 0.5f && bounds[0] > 0.5f - 1e-5f, "bound %.9g", (double)bounds[0]);
	bcVec3 corner = bcMakeVec3(1.05, 1.05, 0.0), still = bcMakeVec3(0.0, 0.0, 0.0);
	bcLeafQuery small = bcLeafQuery_Make(corner, still, 0.3, true);
	ck_assert_int_eq(leafBounds(&leaf, &small, 0.0, 1.0, bounds), 0);
	bcLeafQuery big = bcLeafQuery_Make(corner, still, 0.8, true);
	ck_assert_int_eq(leafBounds(&leaf, &big, 0.0, 1.0, bounds), 1);
	ck_assert(bounds[0] <= 0.0f);
	/* Passing beside it along the hypotenuse, 0.5 from its line, from
	 * the point nearest its middle, r = 0.4: never. */
	double off = 0.5 + 0.5 / sqrt(2.0);
	bcLeafQuery past = bcLeafQuery_Make(bcMakeVec3(off, off, 0.0), bcMakeVec3(-0.5, 0.5, 0.0), 0.4, true);
	ck_assert_int_eq(leafBounds(&leaf, &past, 0.0, 1.0, bounds), 0);
}
END_TEST

/* The stored numbers bound the triangles they come from (checked in
 * double, with room far below the slack they were made with). */
START_TEST(blocks_hold_their_triangles)
{
	bcRandom rng = { 500 };
	const double offsets[] = { 0.0, 1e7, -1e3 };
	for (int l = 0; l < 300; ++l) {
		bcTestLeaf leaf;
		leaf.count = 1 + (int)(bcRandom_Next(&rng) % BC_LEAF_LANES);
		bcVec3 center = bcMakeVec3(offsets[l % 3], 0.0, 1.0);
		for (int i = 0; i < leaf.count; ++i) {
			randomTriangle(&rng, bcMulAdd(center, 2.0, bcRandom_OnSphere(&rng)), 1.0, 0.0, leaf.v[i]);
		}
		makeLeaf(&leaf);
		const bcLeafBlock* b = &leaf.block;
		ck_assert(isfinite(b->extent));
		ck_assert_int_eq(b->count, leaf.count);
		for (int i = 0; i < BC_LEAF_LANES; ++i) {
			if (i >= leaf.count) {
				ck_assert(b->offset[i] == INFINITY);
				continue;
			}
			bcVec3 n = bcTriangleNormal(leaf.v[i][0], leaf.v[i][1], leaf.v[i][2]);
			bcVec3 nf = bcMakeVec3(b->normal[0][i], b->normal[1][i], b->normal[2][i]);
			ck_assert(bcLength(bcSub(n, nf)) + bcTriangleNormalError(leaf.v[i][0], leaf.v[i][1], leaf.v[i][2]) <=
					  (double)b->normalError);
			for (int j = 0; j < 3; ++j) {
				bcVec3 rel = bcSub(leaf.v[i][j], bcMakeVec3(b->origin[0], b->origin[1], b->origin[2]));
				double s = bcDot(nf, rel) - (double)b->offset[i];
				ck_assert(fabs(s) <= (double)b->slab);
				ck_assert(fabs(rel.x) + fabs(rel.y) + fabs(rel.z) <= (double)b->extent);
				bcVec3 vf = bcMakeVec3(b->vertex[j][0][i], b->vertex[j][1][i], b->vertex[j][2][i]);
				ck_assert(bcLength(bcSub(rel, vf)) <= 0x1p-23 * (double)b->extent);
			}
		}
	}
}
END_TEST

static Suite* leafBoundSuite(void)
{
	Suite* suite = suite_create("leaf_bound");
	TCase* tc = tcase_create("bounds");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bounds_never_exceed_the_exact_alpha);
	tcase_add_test(tc, bounds_far_from_the_origin);
	tcase_add_test(tc, bounds_of_slivers);
	tcase_add_test(tc, no_bounds_out_of_range);
	tcase_add_test(tc, bounds_by_hand);
	tcase_add_test(tc, blocks_hold_their_triangles);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(leafBoundSuite());
}
