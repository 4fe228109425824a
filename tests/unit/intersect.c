/* intersect.c tests: every pair of intersecting triangles of two meshes,
 * or of one mesh with itself.
 *
 * The bounding volume hierarchy against the all-pairs loop on random
 * triangle soups (the same pairs, states and segment bits), for two meshes,
 * a mesh with itself, the approximate test, and any number of threads; the
 * approximate test's false positives and negatives against the exact one,
 * printed; a closed icosphere does not intersect itself; two
 * interpenetrating icospheres cross along closed loops: every segment end
 * lies on both its triangles and meets exactly one end of another segment,
 * and the segments chain into the one circle two spheres share; the rules
 * for neighbours (a shared vertex index excludes a pair, a shared position
 * does not), touching pairs, degenerate triangles and the order.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define SOUP_TRIANGLES 500
#define ICOSPHERE_LEVEL 3
#else
#define SOUP_TRIANGLES 1200
#define ICOSPHERE_LEVEL 4
#endif

/* A segment end is on its triangles to this, times the coordinate scale:
 * a few roundings of the coordinates (the spheres have radius about 1). */
#define ON_TRIANGLE_TOLERANCE 1e-12

/* Ends of consecutive segments of a loop are computed from the same edge
 * and plane, so they agree bit for bit; this is how far apart two ends may
 * be and still be called one point, and how close two ends of different
 * points may be before the pairing is ambiguous. */
#define LOOP_TOLERANCE 1e-12

static bcMesh* build(const bcGenMesh* g)
{
	bcMesh* mesh = bcGenMesh_Build(g);
	ck_assert(mesh != NULL);
	return mesh;
}

static bcMesh* soup(int32_t count, double extent, double size, uint64_t seed)
{
	bcGenMesh g = { 0 };
	bcGenSoup(&g, count, extent, size, seed);
	bcMesh* mesh = build(&g);
	bcGenMesh_Free(&g);
	return mesh;
}

static bcMesh* icosphere(int level, bcVec3 center, double radius)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, level, center, radius, 0);
	bcMesh* mesh = build(&g);
	bcGenMesh_Free(&g);
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

static bcIntersectList* run(const bcMesh* a, const bcMesh* b, bool approximate, bool brute, int threads)
{
	bcIntersectOptions options = bcDefaultIntersectOptions();
	options.approximate = approximate;
	options.bruteForce = brute;
	options.threadCount = threads;
	bcError error;
	bcIntersectList* list = bcMesh_Intersect(a, b, &options, &error);
	ck_assert_msg(list != NULL, "%s", error.message);
	return list;
}

static bool sameBits(double x, double y)
{
	return memcmp(&x, &y, sizeof x) == 0;
}

static bool samePair(const bcIntersectPair* p, const bcIntersectPair* q)
{
	if (p->a != q->a || p->b != q->b || p->state != q->state || p->exactState != q->exactState) {
		return false;
	}
	for (int k = 0; k < 2; ++k) {
		if (!sameBits(p->segment[k].x, q->segment[k].x) || !sameBits(p->segment[k].y, q->segment[k].y) ||
			!sameBits(p->segment[k].z, q->segment[k].z)) {
			return false;
		}
	}
	return true;
}

static void assertSameLists(const bcIntersectList* x, const bcIntersectList* y, const char* what)
{
	ck_assert_msg(x->count == y->count, "%s: %zu pairs against %zu", what, x->count, y->count);
	ck_assert_msg(x->falsePositiveCount == y->falsePositiveCount && x->falseNegativeCount == y->falseNegativeCount,
				  "%s: mistakes counted %zu and %zu against %zu and %zu", what, x->falsePositiveCount,
				  x->falseNegativeCount, y->falsePositiveCount, y->falseNegativeCount);
	for (size_t i = 0; i < x->count; ++i) {
		ck_assert_msg(samePair(x->pairs + i, y->pairs + i), "%s: pair %zu differs: (%d, %d) against (%d, %d)", what, i,
					  x->pairs[i].a, x->pairs[i].b, y->pairs[i].a, y->pairs[i].b);
	}
}

static void assertSorted(const bcIntersectList* list, bool self)
{
	for (size_t i = 0; i < list->count; ++i) {
		const bcIntersectPair* p = list->pairs + i;
		if (self) {
			ck_assert_int_lt(p->a, p->b);
		}
		if (i > 0) {
			const bcIntersectPair* q = p - 1;
			ck_assert_msg(q->a < p->a || (q->a == p->a && q->b < p->b), "pairs %zu and %zu out of order", i - 1, i);
		}
	}
}

static void triangleOf(const bcMesh* mesh, int32_t t, bcVec3* out)
{
	bcTriangle tri = bcMesh_GetTriangle(mesh, t);
	for (int k = 0; k < 3; ++k) {
		out[k] = bcMesh_GetVertex(mesh, tri.vertices[k]);
	}
}

/* The distance from p to triangle t, well conditioned for any shape: the
 * plane distance (unit normal) when p projects inside all three edges,
 * else the nearest edge, clamped. */
static double distanceToTriangle(bcVec3 p, const bcVec3* t)
{
	bcVec3 n = bcNormalize(bcCross(bcSub(t[1], t[0]), bcSub(t[2], t[0])));
	bool inside = true;
	for (int i = 0; i < 3; ++i) {
		bcVec3 out = bcNormalize(bcCross(bcSub(t[(i + 1) % 3], t[i]), n));
		inside = inside && bcDot(out, bcSub(p, t[i])) <= 0.0;
	}
	if (inside) {
		return fabs(bcDot(n, bcSub(p, t[0])));
	}
	double best = INFINITY;
	for (int i = 0; i < 3; ++i) {
		bcVec3 e = bcSub(t[(i + 1) % 3], t[i]);
		double s = bcDot(bcSub(p, t[i]), e) / bcDot(e, e);
		s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
		best = fmin(best, bcDistance(p, bcMulAdd(t[i], s, e)));
	}
	return best;
}

/* ------------------------------------------------ the hierarchy vs brute */

START_TEST(soups_hierarchy_matches_brute_force)
{
	/* Dense soups (triangles of size 1 in a cube of 10): hundreds of pairs. */
	for (uint64_t seed = 1; seed <= 3; ++seed) {
		bcMesh* a = soup(SOUP_TRIANGLES, 10.0, 1.0, seed);
		bcMesh* b = soup(SOUP_TRIANGLES, 10.0, 1.0, 100 + seed);
		for (int approximate = 0; approximate < 2; ++approximate) {
			bcIntersectList* fast = run(a, b, approximate, false, 0);
			bcIntersectList* brute = run(a, b, approximate, true, 0);
			assertSameLists(fast, brute, approximate ? "approximate A-B" : "exact A-B");
			assertSorted(fast, false);
			ck_assert(fast->count > 50);
			ck_assert(fast->candidateCount < brute->candidateCount / 10);
			ck_assert_uint_eq(brute->candidateCount, (size_t)SOUP_TRIANGLES * SOUP_TRIANGLES);
			bcIntersectList* one = run(a, b, approximate, false, 1);
			bcIntersectList* three = run(a, b, approximate, false, 3);
			assertSameLists(fast, one, "one thread");
			assertSameLists(fast, three, "three threads");
			bcIntersectList_Destroy(fast);
			bcIntersectList_Destroy(brute);
			bcIntersectList_Destroy(one);
			bcIntersectList_Destroy(three);

			fast = run(a, NULL, approximate, false, 0);
			brute = run(a, NULL, approximate, true, 2);
			assertSameLists(fast, brute, approximate ? "approximate self" : "exact self");
			assertSorted(fast, true);
			ck_assert(fast->count > 50);
			bcIntersectList_Destroy(fast);
			bcIntersectList_Destroy(brute);
		}
		bcMesh_Destroy(a);
		bcMesh_Destroy(b);
	}
}
END_TEST

START_TEST(every_pair_is_the_triangle_test)
{
	/* The list is exactly the pairs bcIntersectTriangles says meet, with its
	 * output, and nothing else (checked over all pairs). */
	bcMesh* a = soup(300, 5.0, 1.0, 8);
	bcMesh* b = soup(300, 5.0, 1.0, 9);
	bcIntersectList* list = run(a, b, false, false, 0);
	size_t k = 0;
	for (int32_t i = 0; i < 300; ++i) {
		bcVec3 ta[3];
		triangleOf(a, i, ta);
		for (int32_t j = 0; j < 300; ++j) {
			bcVec3 tb[3];
			triangleOf(b, j, tb);
			bcTriTriOutput out = bcIntersectTriangles(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]);
			if (out.state == bc_triTriDisjoint) {
				continue;
			}
			ck_assert_msg(k < list->count, "pair (%d, %d) missing", i, j);
			bcIntersectPair expect = { i, j, out.state, { out.segment[0], out.segment[1] }, out.state };
			ck_assert_msg(samePair(list->pairs + k, &expect), "pair %zu: (%d, %d), expected (%d, %d)", k,
						  list->pairs[k].a, list->pairs[k].b, i, j);
			k += 1;
		}
	}
	ck_assert_uint_eq(k, list->count);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

/* The approximate list with a rule, checked against the exact test or not. */
static bcIntersectList* runApprox(const bcMesh* a, const bcMesh* b, bcApproxRule rule, bool check, bool brute,
								  int threads)
{
	bcIntersectOptions options = bcDefaultIntersectOptions();
	options.approximate = true;
	options.approxRule = rule;
	options.checkApprox = check;
	options.bruteForce = brute;
	options.threadCount = threads;
	bcError error;
	bcIntersectList* list = bcMesh_Intersect(a, b, &options, &error);
	ck_assert_msg(list != NULL, "%s", error.message);
	return list;
}

/* Pairs of the approximate list that the exact one lacks, and the reverse,
 * found by merging the two lists; the library's own count (checkApprox)
 * must agree, and so must each listed pair's exact state. */
static void compareWithExactRule(const bcMesh* a, const bcMesh* b, bcApproxRule rule, size_t* exactCount,
								 size_t* approxCount, size_t* falsePositives, size_t* falseNegatives)
{
	size_t positives = *falsePositives, negatives = *falseNegatives;
	bcIntersectList* exact = run(a, b, false, false, 0);
	bcIntersectList* approx = runApprox(a, b, rule, false, false, 0);
	bcIntersectList* checked = runApprox(a, b, rule, true, false, 0);
	ck_assert_uint_eq(approx->count, checked->count);
	ck_assert_uint_eq(approx->falsePositiveCount + approx->falseNegativeCount, 0);
	for (size_t k = 0; k < checked->count; ++k) {
		const bcIntersectPair* p = checked->pairs + k;
		ck_assert(p->a == approx->pairs[k].a && p->b == approx->pairs[k].b);
		ck_assert_int_eq(approx->pairs[k].exactState, bc_triTriProbable);
		bcVec3 ta[3], tb[3];
		triangleOf(a, p->a, ta);
		triangleOf(b != NULL ? b : a, p->b, tb);
		ck_assert_int_eq(p->exactState, bcIntersectTriangles(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]).state);
	}
	/* Both sorted by (a, b): merge. */
	size_t i = 0, j = 0;
	while (i < exact->count || j < approx->count) {
		const bcIntersectPair* e = i < exact->count ? exact->pairs + i : NULL;
		const bcIntersectPair* p = j < approx->count ? approx->pairs + j : NULL;
		if (p == NULL || (e != NULL && (e->a < p->a || (e->a == p->a && e->b < p->b)))) {
			*falseNegatives += 1;
			i += 1;
		} else if (e == NULL || p->a < e->a || (p->a == e->a && p->b < e->b)) {
			*falsePositives += 1;
			j += 1;
		} else {
			ck_assert_int_eq(p->state, bc_triTriProbable);
			i += 1;
			j += 1;
		}
	}
	ck_assert_uint_eq(checked->falsePositiveCount, *falsePositives - positives);
	ck_assert_uint_eq(checked->falseNegativeCount, *falseNegatives - negatives);
	bcIntersectList* brute = runApprox(a, b, rule, true, true, 2);
	assertSameLists(checked, brute, "checked approximate, brute force");
	bcIntersectList_Destroy(brute);
	*exactCount += exact->count;
	*approxCount += approx->count;
	bcIntersectList_Destroy(exact);
	bcIntersectList_Destroy(approx);
	bcIntersectList_Destroy(checked);
}

static void compareWithExact(const bcMesh* a, const bcMesh* b, size_t* exactCount, size_t* approxCount,
							 size_t* falsePositives, size_t* falseNegatives)
{
	compareWithExactRule(a, b, bc_approxEither, exactCount, approxCount, falsePositives, falseNegatives);
}

static void printRates(const char* what, size_t exactCount, size_t approxCount, size_t falsePositives,
					   size_t falseNegatives)
{
	printf("intersect --approx on %s: %zu exact pairs, %zu approximate; false positives %zu (%.1f%% of the "
		   "approximate pairs), false negatives %zu (%.2f%% of the exact pairs)\n",
		   what, exactCount, approxCount, falsePositives,
		   approxCount > 0 ? 100.0 * (double)falsePositives / (double)approxCount : 0.0, falseNegatives,
		   exactCount > 0 ? 100.0 * (double)falseNegatives / (double)exactCount : 0.0);
}

START_TEST(approximate_error_rates)
{
	/* Seed 001's hybrid test against the exact one: on random soups (unit
	 * triangles in a cube of 24), and on two interpenetrating icospheres,
	 * where the triangles are small beside the shapes (the note: the
	 * smaller the faces, the better it works). Every pair that meets has
	 * both spheres overlapping and a plane pierced, so only rounding could
	 * lose one, and these inputs do not come that close: no false
	 * negatives. Spheres overlap far more often than triangles. */
	size_t exactCount = 0, approxCount = 0, falsePositives = 0, falseNegatives = 0;
	for (uint64_t seed = 11; seed <= 13; ++seed) {
		bcMesh* a = soup(SOUP_TRIANGLES, 24.0, 1.0, seed);
		bcMesh* b = soup(SOUP_TRIANGLES, 24.0, 1.0, seed + 50);
		compareWithExact(a, b, &exactCount, &approxCount, &falsePositives, &falseNegatives);
		bcMesh_Destroy(a);
		bcMesh_Destroy(b);
	}
	printRates("random soups", exactCount, approxCount, falsePositives, falseNegatives);
	ck_assert_uint_eq(falseNegatives, 0);
	ck_assert(exactCount > 50 && falsePositives > exactCount);

	exactCount = approxCount = falsePositives = falseNegatives = 0;
	bcMesh* a = icosphere(ICOSPHERE_LEVEL, bcMakeVec3(0, 0, 0), 1.0);
	bcMesh* b = icosphere(ICOSPHERE_LEVEL, bcMakeVec3(0.7, 0.31, 0.17), 0.9);
	compareWithExact(a, b, &exactCount, &approxCount, &falsePositives, &falseNegatives);
	printRates("two icospheres", exactCount, approxCount, falsePositives, falseNegatives);
	ck_assert_uint_eq(falseNegatives, 0);
	ck_assert(exactCount > 50 && falsePositives > 0);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

/* Seed 001's own rule, one way (an edge of A pierces B's plane): its pairs
 * are among the two-way rule's, it misses none that meet (no false
 * negatives here either), and it accepts fewer that do not: strictly fewer
 * false positives on soups and on two icospheres. The library's count of
 * mistakes (checkApprox) agrees with merging the lists, pair by pair. */
START_TEST(approximate_one_way_rule)
{
	size_t counts[2][4] = { { 0 } };
	for (int rule = 0; rule < 2; ++rule) {
		for (uint64_t seed = 21; seed <= 22; ++seed) {
			bcMesh* a = soup(SOUP_TRIANGLES, 24.0, 1.0, seed);
			bcMesh* b = soup(SOUP_TRIANGLES, 24.0, 1.0, seed + 50);
			compareWithExactRule(a, b, (bcApproxRule)rule, &counts[rule][0], &counts[rule][1], &counts[rule][2],
								 &counts[rule][3]);
			compareWithExactRule(a, NULL, (bcApproxRule)rule, &counts[rule][0], &counts[rule][1], &counts[rule][2],
								 &counts[rule][3]);
			bcMesh_Destroy(a);
			bcMesh_Destroy(b);
		}
		bcMesh* a = icosphere(ICOSPHERE_LEVEL - 1, bcMakeVec3(0, 0, 0), 1.0);
		bcMesh* b = icosphere(ICOSPHERE_LEVEL - 1, bcMakeVec3(0.7, 0.31, 0.17), 0.9);
		compareWithExactRule(a, b, (bcApproxRule)rule, &counts[rule][0], &counts[rule][1], &counts[rule][2],
							 &counts[rule][3]);
		bcMesh_Destroy(a);
		bcMesh_Destroy(b);
		printRates(rule == bc_approxOneWay ? "soups and icospheres, one-way rule" : "soups and icospheres, either way",
				   counts[rule][0], counts[rule][1], counts[rule][2], counts[rule][3]);
	}
	ck_assert_uint_eq(counts[0][0], counts[1][0]);
	ck_assert_uint_eq(counts[0][3], 0);
	ck_assert_uint_eq(counts[1][3], 0);
	ck_assert(counts[1][2] < counts[0][2]);
	ck_assert(counts[1][1] < counts[0][1]);

	/* pair by pair: every one-way pair is a two-way pair */
	bcMesh* a = soup(SOUP_TRIANGLES, 10.0, 1.0, 31);
	bcMesh* b = soup(SOUP_TRIANGLES, 10.0, 1.0, 32);
	bcIntersectList* either = runApprox(a, b, bc_approxEither, false, false, 0);
	bcIntersectList* oneWay = runApprox(a, b, bc_approxOneWay, false, false, 3);
	size_t j = 0;
	for (size_t i = 0; i < oneWay->count; ++i) {
		while (j < either->count && (either->pairs[j].a != oneWay->pairs[i].a || either->pairs[j].b != oneWay->pairs[i].b)) {
			j += 1;
		}
		ck_assert_msg(j < either->count, "one-way pair (%d, %d) is not a two-way pair", oneWay->pairs[i].a,
					  oneWay->pairs[i].b);
	}
	ck_assert(oneWay->count < either->count);
	bcIntersectList_Destroy(either);
	bcIntersectList_Destroy(oneWay);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

/* ---------------------------------------------------------- icospheres */

START_TEST(closed_icosphere_does_not_intersect_itself)
{
	bcMesh* sphere = icosphere(ICOSPHERE_LEVEL, bcMakeVec3(0.25, -0.5, 1.0), 2.0);
	bcIntersectList* list = run(sphere, NULL, false, false, 0);
	ck_assert_uint_eq(list->count, 0);
	ck_assert(list->candidateCount > 0);
	bcIntersectList* brute = run(sphere, NULL, false, true, 0);
	ck_assert_uint_eq(brute->count, 0);
	bcIntersectList_Destroy(list);
	bcIntersectList_Destroy(brute);
	bcMesh_Destroy(sphere);
}
END_TEST

typedef struct bcEndRef {
	bcVec3 p;
	size_t pair;
	int end;
} bcEndRef;

static int compareEndsByX(const void* x, const void* y)
{
	const bcEndRef* p = x;
	const bcEndRef* q = y;
	return (p->p.x > q->p.x) - (p->p.x < q->p.x);
}

START_TEST(interpenetrating_icospheres_cross_along_closed_loops)
{
	bcMesh* a = icosphere(ICOSPHERE_LEVEL, bcMakeVec3(0, 0, 0), 1.0);
	bcMesh* b = icosphere(ICOSPHERE_LEVEL, bcMakeVec3(0.7, 0.31, 0.17), 0.9);
	bcIntersectList* list = run(a, b, false, false, 0);
	ck_assert(list->count > 20);
	bcIntersectList* brute = run(a, b, false, true, 0);
	assertSameLists(list, brute, "icospheres");
	bcIntersectList_Destroy(brute);

	/* Every segment is on both triangles, and crosses (general position). */
	const double scale = 1.87; /* the largest coordinate: 0.7 + 0.9 < 1.87 */
	for (size_t i = 0; i < list->count; ++i) {
		const bcIntersectPair* p = list->pairs + i;
		ck_assert_int_eq(p->state, bc_triTriCrossing);
		bcVec3 ta[3], tb[3];
		triangleOf(a, p->a, ta);
		triangleOf(b, p->b, tb);
		for (int k = 0; k < 2; ++k) {
			double da = distanceToTriangle(p->segment[k], ta);
			double db = distanceToTriangle(p->segment[k], tb);
			ck_assert_msg(da <= ON_TRIANGLE_TOLERANCE * scale && db <= ON_TRIANGLE_TOLERANCE * scale,
						  "pair (%d, %d) end %d: %g from A's triangle, %g from B's", p->a, p->b, k, da, db);
		}
	}

	/* Closed loops: each end meets exactly one end of another segment. */
	size_t n = 2 * list->count;
	bcEndRef* ends = malloc(n * sizeof *ends);
	for (size_t i = 0; i < list->count; ++i) {
		for (int k = 0; k < 2; ++k) {
			bcEndRef r = { list->pairs[i].segment[k], i, k };
			ends[2 * i + (size_t)k] = r;
		}
	}
	qsort(ends, n, sizeof *ends, compareEndsByX);
	size_t* partner = malloc(n * sizeof *partner); /* by 2 * pair + end */
	size_t bitIdentical = 0;
	for (size_t i = 0; i < n; ++i) {
		size_t matches = 0, match = 0;
		for (size_t j = i; j-- > 0 && ends[i].p.x - ends[j].p.x <= LOOP_TOLERANCE;) {
			if (bcDistance(ends[i].p, ends[j].p) <= LOOP_TOLERANCE && ends[j].pair != ends[i].pair) {
				matches += 1;
				match = j;
			}
		}
		for (size_t j = i + 1; j < n && ends[j].p.x - ends[i].p.x <= LOOP_TOLERANCE; ++j) {
			if (bcDistance(ends[i].p, ends[j].p) <= LOOP_TOLERANCE && ends[j].pair != ends[i].pair) {
				matches += 1;
				match = j;
			}
		}
		ck_assert_msg(matches == 1, "end %d of pair (%d, %d) meets %zu other ends", ends[i].end,
					  list->pairs[ends[i].pair].a, list->pairs[ends[i].pair].b, matches);
		partner[2 * ends[i].pair + (size_t)ends[i].end] = 2 * ends[match].pair + (size_t)ends[match].end;
		bitIdentical += sameBits(ends[i].p.x, ends[match].p.x) && sameBits(ends[i].p.y, ends[match].p.y) &&
						sameBits(ends[i].p.z, ends[match].p.z);
	}
	/* Walk the loops: from a segment's end 1 to the partner's segment, in at
	 * its matched end, out at its other end. */
	bool* seen = calloc(list->count, sizeof *seen);
	int loops = 0;
	for (size_t start = 0; start < list->count; ++start) {
		if (seen[start]) {
			continue;
		}
		loops += 1;
		size_t at = start;
		int out = 1;
		while (!seen[at]) {
			seen[at] = true;
			size_t next = partner[2 * at + (size_t)out];
			at = next / 2;
			out = 1 - (int)(next % 2);
		}
		ck_assert_msg(at == start, "a chain of segments does not close on itself");
	}
	printf("intersect icospheres (level %d): %zu crossing pairs, %d closed loop(s), %zu of %zu ends bit-identical "
		   "to their partner\n",
		   ICOSPHERE_LEVEL, list->count, loops, bitIdentical, n);
	/* Two spheres meet along one circle. */
	ck_assert_int_eq(loops, 1);
	ck_assert_uint_eq(bitIdentical, n);
	free(seen);
	free(partner);
	free(ends);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

/* ---------------------------------------------------------- the rules */

START_TEST(neighbours_sharing_a_vertex_never_count)
{
	/* Triangle 0 in z = 0; triangle 1 shares its vertex 0 and crosses it
	 * along (0,0,0)-(1,0.2,0) (it stands in the plane y = 0.2 x). */
	const double v[] = { 0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0.2, 1, 1, 0.2, -1 };
	const int32_t shared[] = { 0, 1, 2, 0, 3, 4 };
	bcMesh* mesh = fromArrays(v, 5, shared, 2);
	bcIntersectList* list = run(mesh, NULL, false, false, 0);
	ck_assert_uint_eq(list->count, 0);
	bcIntersectList_Destroy(list);
	/* Against another mesh the same triangles are an ordinary pair. */
	list = run(mesh, mesh, false, false, 0);
	bool found = false;
	for (size_t i = 0; i < list->count; ++i) {
		found = found || (list->pairs[i].a == 0 && list->pairs[i].b == 1);
	}
	ck_assert(found);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(mesh);

	/* The same position under another index is not shared: a crossing. */
	const double w[] = { 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0.2, 1, 1, 0.2, -1 };
	const int32_t apart[] = { 0, 1, 2, 3, 4, 5 };
	mesh = fromArrays(w, 6, apart, 2);
	list = run(mesh, NULL, false, false, 0);
	ck_assert_uint_eq(list->count, 1);
	ck_assert_int_eq(list->pairs[0].a, 0);
	ck_assert_int_eq(list->pairs[0].b, 1);
	ck_assert_int_eq(list->pairs[0].state, bc_triTriCrossing);
	/* nA = (0,0,4), nB = (1,0.2,1) x (1,0.2,-1) = (-0.4,2,0): nA x nB =
	 * (-8,-1.6,0), so the segment runs from B's crossing (1,0.2,0) (the
	 * middle of its upright edge) to the common corner. */
	bcAssertVecNear(list->pairs[0].segment[0], 1, 0.2, 0, 0.0);
	bcAssertVecNear(list->pairs[0].segment[1], 0, 0, 0, 0.0);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(touching_pairs_and_the_option)
{
	/* A: triangle 0 in z = 0; B: triangle 0 far away, triangle 1 with its
	 * vertex on A's interior, triangle 2 crossing A. */
	const double va[] = { 0, 0, 0, 4, 0, 0, 0, 4, 0 };
	const int32_t ta[] = { 0, 1, 2 };
	const double vb[] = { 10, 10, 10, 11, 10, 10, 10, 11, 10, 1, 1, 0, 2, 2, 1, 0, 2, 1, 1, 1, -1, 3, 1, -1, 2, 1, 1 };
	const int32_t tb[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	bcMesh* a = fromArrays(va, 3, ta, 1);
	bcMesh* b = fromArrays(vb, 9, tb, 3);
	bcIntersectList* list = run(a, b, false, false, 0);
	ck_assert_uint_eq(list->count, 2);
	ck_assert_int_eq(list->pairs[0].b, 1);
	ck_assert_int_eq(list->pairs[0].state, bc_triTriTouching);
	bcAssertVecNear(list->pairs[0].segment[0], 1, 1, 0, 0.0);
	bcAssertVecNear(list->pairs[0].segment[1], 1, 1, 0, 0.0);
	ck_assert_int_eq(list->pairs[1].b, 2);
	ck_assert_int_eq(list->pairs[1].state, bc_triTriCrossing);
	bcAssertVecNear(list->pairs[1].segment[0], 1.5, 1, 0, 0.0);
	bcAssertVecNear(list->pairs[1].segment[1], 2.5, 1, 0, 0.0);
	bcIntersectList_Destroy(list);

	bcIntersectOptions options = bcDefaultIntersectOptions();
	options.skipTouching = true;
	list = bcMesh_Intersect(a, b, &options, NULL);
	ck_assert_uint_eq(list->count, 1);
	ck_assert_int_eq(list->pairs[0].b, 2);
	bcIntersectList_Destroy(list);
	/* NULL options: the defaults. */
	list = bcMesh_Intersect(a, b, NULL, NULL);
	ck_assert_uint_eq(list->count, 2);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

START_TEST(degenerate_triangles_are_skipped)
{
	/* Triangle 0 is a segment through triangle 1's interior; triangle 2
	 * crosses triangle 1. Against itself only (1, 2) counts; indices are
	 * the mesh's own. */
	const double v[] = { 1, 1, -1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 1, 1, -1, 3, 1, -1, 2, 1, 1 };
	const int32_t t[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	bcMesh* mesh = fromArrays(v, 9, t, 3);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).degenerateCount, 1);
	for (int brute = 0; brute < 2; ++brute) {
		bcIntersectList* list = run(mesh, NULL, false, brute, 0);
		ck_assert_uint_eq(list->count, 1);
		ck_assert_int_eq(list->pairs[0].a, 1);
		ck_assert_int_eq(list->pairs[0].b, 2);
		bcIntersectList_Destroy(list);
		list = run(mesh, mesh, true, brute, 0);
		for (size_t i = 0; i < list->count; ++i) {
			ck_assert(list->pairs[i].a != 0 && list->pairs[i].b != 0);
		}
		bcIntersectList_Destroy(list);
	}
	bcMesh_Destroy(mesh);
	bcIntersectList_Destroy(NULL);
}
END_TEST

/* Slivers (never hit by cast) are intersected like any triangle; only
 * exactly collinear ones are skipped (issue 28: a needle of area 2^-60
 * through a triangle was skipped). Two needles 2^-60 wide through a big
 * triangle's interior (crossing), and through a sliver 2^-60 wide (the
 * first touches its edge, the second crosses it), in two meshes and in
 * one, the hierarchy and brute force alike; the expected pairs and
 * segments are those of tests/exact/intersect_reference.py (exact
 * rationals). The approximate test keeps the slivers too. */
START_TEST(slivers_are_intersected)
{
	const double w = 8.673617379884035e-19, h = w / 2; /* 2^-60, 2^-61 */
	const double va[] = { -1, -1, 0, 3, -1, 0, -1, 3, 0 };
	const double vb[] = { 0, 0, -1, 0, 0, 1, w, 0, 1, 0.5, 0, -1, 0.5, 0, 1, 0.5, w, 1, 1, 1, -1, 1, 1, 1, 1, 1, 0 };
	const double vc[] = { -1, 0, 0, 3, 0, 0, 1, w, 0 };
	const int32_t t[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	bcMesh* a = fromArrays(va, 3, t, 1);
	bcMesh* b = fromArrays(vb, 9, t, 3);
	bcMesh* c = fromArrays(vc, 3, t, 1);
	ck_assert_int_eq(bcMesh_GetInfo(b).degenerateCount, 3);
	ck_assert_int_eq(bcMesh_GetInfo(c).degenerateCount, 1);
	int32_t first;
	ck_assert_int_eq(bcMesh_CountZeroArea(b, &first), 1);
	ck_assert_int_eq(first, 2);
	ck_assert_int_eq(bcMesh_CountZeroArea(c, &first), 0);
	ck_assert_int_eq(first, -1);
	for (int brute = 0; brute < 2; ++brute) {
		for (int sliver = 0; sliver < 2; ++sliver) {
			bcIntersectList* list = run(sliver ? c : a, b, false, brute, 0);
			ck_assert_uint_eq(list->count, 2);
			ck_assert_int_eq(list->pairs[0].b, 0);
			ck_assert_int_eq(list->pairs[0].state, sliver ? bc_triTriTouching : bc_triTriCrossing);
			bcAssertVecNear(list->pairs[0].segment[0], h, 0, 0, 0);
			bcAssertVecNear(list->pairs[0].segment[1], 0, 0, 0, 0);
			ck_assert_int_eq(list->pairs[1].b, 1);
			ck_assert_int_eq(list->pairs[1].state, bc_triTriCrossing);
			bcAssertVecNear(list->pairs[1].segment[0], 0.5, h, 0, 0);
			bcAssertVecNear(list->pairs[1].segment[1], 0.5, 0, 0, 0);
			bcIntersectList_Destroy(list);
			/* Exchanged: the slivers of the first mesh search the other's
			 * hierarchy; the segments reverse. */
			list = run(b, sliver ? c : a, false, brute, 0);
			ck_assert_uint_eq(list->count, 2);
			ck_assert_int_eq(list->pairs[0].a, 0);
			ck_assert_int_eq(list->pairs[1].a, 1);
			bcAssertVecNear(list->pairs[1].segment[0], 0.5, 0, 0, 0);
			bcIntersectList_Destroy(list);
		}
	}
	/* One mesh: the big triangle (0), the needles (1, 2), the segment (3). */
	double v[36];
	memcpy(v, va, sizeof va);
	memcpy(v + 9, vb, sizeof vb);
	bcMesh* both = fromArrays(v, 12, t, 4);
	for (int brute = 0; brute < 2; ++brute) {
		bcIntersectList* list = run(both, NULL, false, brute, 0);
		ck_assert_uint_eq(list->count, 2);
		ck_assert_int_eq(list->pairs[0].a, 0);
		ck_assert_int_eq(list->pairs[0].b, 1);
		ck_assert_int_eq(list->pairs[1].a, 0);
		ck_assert_int_eq(list->pairs[1].b, 2);
		bcIntersectList_Destroy(list);
	}
	/* The sliver and the needles in one mesh: sliver against sliver. */
	memcpy(v, vc, sizeof vc);
	bcMesh* slivers = fromArrays(v, 12, t, 4);
	for (int brute = 0; brute < 2; ++brute) {
		bcIntersectList* list = run(slivers, NULL, false, brute, 0);
		ck_assert_uint_eq(list->count, 2);
		ck_assert_int_eq(list->pairs[0].state, bc_triTriTouching);
		ck_assert_int_eq(list->pairs[1].state, bc_triTriCrossing);
		bcIntersectList_Destroy(list);
	}
	for (int brute = 0; brute < 2; ++brute) {
		bcIntersectList* list = run(c, b, true, brute, 0);
		ck_assert_uint_eq(list->count, 2);
		ck_assert_int_eq(list->pairs[0].state, bc_triTriProbable);
		bcIntersectList_Destroy(list);
	}
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
	bcMesh_Destroy(c);
	bcMesh_Destroy(both);
	bcMesh_Destroy(slivers);
}
END_TEST

START_TEST(coplanar_pairs_have_no_segment)
{
	/* Two overlapping squares in z = 0, as separate meshes. */
	const double v[] = { 0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0 };
	const double w[] = { 1, 1, 0, 3, 1, 0, 3, 3, 0, 1, 3, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcMesh* a = fromArrays(v, 4, t, 2);
	bcMesh* b = fromArrays(w, 4, t, 2);
	bcIntersectList* list = run(a, b, false, false, 0);
	/* Square A's (1,1)-(2,2) quarter is B's; A0 = (0,0)(2,0)(2,2), A1 = (0,0)(2,2)(0,2),
	 * B0 = (1,1)(3,1)(3,3), B1 = (1,1)(3,3)(1,3): A0 meets B0 in area and B1
	 * along the diagonal (1,1)-(2,2); A1 meets B1 in area and B0 along it. */
	ck_assert_uint_eq(list->count, 4);
	ck_assert_int_eq(list->pairs[0].state, bc_triTriCoplanar);
	ck_assert_int_eq(list->pairs[1].state, bc_triTriTouching);
	bcAssertVecNear(list->pairs[1].segment[0], 1, 1, 0, 0.0);
	bcAssertVecNear(list->pairs[1].segment[1], 2, 2, 0, 0.0);
	ck_assert_int_eq(list->pairs[2].state, bc_triTriTouching);
	ck_assert_int_eq(list->pairs[3].state, bc_triTriCoplanar);
	bcAssertVecNear(list->pairs[3].segment[0], 0, 0, 0, 0.0);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
}
END_TEST

static Suite* intersectSuite(void)
{
	Suite* suite = suite_create("intersect");
	TCase* reference = tcase_create("reference");
	tcase_set_timeout(reference, 120);
	tcase_add_test(reference, soups_hierarchy_matches_brute_force);
	tcase_add_test(reference, every_pair_is_the_triangle_test);
	tcase_add_test(reference, approximate_error_rates);
	tcase_add_test(reference, approximate_one_way_rule);
	suite_add_tcase(suite, reference);
	TCase* spheres = tcase_create("icospheres");
	tcase_set_timeout(spheres, 60);
	tcase_add_test(spheres, closed_icosphere_does_not_intersect_itself);
	tcase_add_test(spheres, interpenetrating_icospheres_cross_along_closed_loops);
	suite_add_tcase(suite, spheres);
	TCase* rules = tcase_create("rules");
	tcase_add_test(rules, neighbours_sharing_a_vertex_never_count);
	tcase_add_test(rules, touching_pairs_and_the_option);
	tcase_add_test(rules, degenerate_triangles_are_skipped);
	tcase_add_test(rules, slivers_are_intersected);
	tcase_add_test(rules, coplanar_pairs_have_no_segment);
	suite_add_tcase(suite, rules);
	return suite;
}

int main(void)
{
	return bcRunSuite(intersectSuite());
}
