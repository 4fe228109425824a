/* intersect.c - every pair of intersecting triangles of two meshes, or of
 * one mesh with itself.
 *
 * Broad phase: for each triangle of A, the hierarchy of B (mesh->bvh, built
 * over B's non-degenerate triangles) is searched with bcBvh_QueryPoint
 * around the centre of the triangle's bounding sphere, out to its radius.
 * A triangle of B that shares a point with the A triangle has a point of its
 * box within that radius of the centre (the common point is in the sphere),
 * so it is visited: the hierarchy's boxes are padded for rounding, the
 * radius is padded by BC_INTERSECT_SPHERE_PAD, and the search radius is
 * never lowered. Narrow phase: bcIntersectTriangles (exact) or
 * bcIntersectTrianglesApprox on each visited pair. The brute-force path
 * tests every pair with the same function, so both give the same list, bit
 * for bit, once sorted by (a, b).
 *
 * The approximate test accepts pairs whose bounding spheres merely overlap,
 * and such a triangle of B can lie farther than A's radius from A's centre.
 * But |cA - cB| <= rA + rB <= 2 max(rA, rB), and the centre of B's sphere is
 * in B's box: the pair is within twice the larger radius of the triangle
 * with the larger sphere. So the approximate search has two passes: from
 * each triangle of A through B's tree within 2 rA, keeping the triangles of
 * B with rB <= rA, then from each triangle of B through A's tree within 2 rB,
 * keeping those of A with rA < rB; every pair is found once. Against itself,
 * one pass keeps the partner with the smaller sphere (the higher index on a
 * tie).
 *
 * Triangles of A are handed out to threads in blocks; each thread keeps
 * its own list, and the lists are joined and sorted at the end.
 *
 * Only triangles whose exact cross product (B - A) x (C - A) is zero are
 * skipped (the exact test has no plane for them). The slivers that cast
 * never hits (BC_SLIVER_SINE) are tested like any other: their exact
 * orientations are as good as anyone's. The hierarchies hold no slivers,
 * so a pass after the others finds the pairs that have one (few in any
 * mesh): each sliver searches the other mesh's hierarchy within its
 * sphere, and the slivers of the two meshes are tested against each other;
 * with the approximate test, each sliver against every triangle.
 */
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "core.h"
#include "predicates.h"
#include "vec3.h"

/* The sphere's radius is the largest of three distances |v - c|, each a
 * few roundings (a difference, three squares, two sums, a root: relative
 * error under 4e-16) from the exact distance to the computed centre. A
 * relative pad of 1e-12 covers that with a factor of 2500 to spare, and
 * adds a negligible number of candidates. */
#define BC_INTERSECT_SPHERE_PAD 1e-12

/* Triangles of A a worker takes at a time: large enough that the
 * parallel-for's counter is touched rarely, small enough to balance the load when the
 * intersections crowd into one part of the mesh. */
#define BC_INTERSECT_BLOCK 64

/* Below this many triangles of A per thread, a thread costs more than it saves. */
#define BC_INTERSECT_MIN_PER_THREAD 256

/* First capacity of a thread's pair list; it doubles from there. */
#define BC_INTERSECT_FIRST_CAPACITY 256

bcIntersectOptions bcDefaultIntersectOptions(void)
{
	bcIntersectOptions options = { false, false, false, 0, bc_approxEither, false };
	return options;
}

/* One thread's work and findings. */
typedef struct bcIntersectJob {
	const bcMesh* from; /* whose triangles are searched for */
	const bcMesh* to;   /* whose hierarchy is searched (== from for a self-intersection) */
	bool self;
	bool swapped; /* from is B: a pair is (the triangle of to, the triangle of from) */
	bcIntersectOptions options;
	/* the triangle being searched for */
	int32_t ti;
	bcVec3 pt[3];
	const int32_t* vt;
	double radius; /* its bounding sphere's */
	/* findings */
	bcIntersectPair* pairs;
	size_t count, capacity;
	size_t candidates;
	size_t falsePositives, falseNegatives; /* checkApprox */
	bool outOfMemory;
	/* The slivers of each mesh (sorted), whose pairs the sliver pass finds. */
	const int32_t* fromSlivers;
	int32_t fromSliverCount;
	const int32_t* toSlivers;
	int32_t toSliverCount;
} bcIntersectJob;

/* Left out of the hierarchy: zero area, or a sliver (BC_SLIVER_SINE). */
static bool isDegenerate(const bcMesh* mesh, int32_t t)
{
	bcVec3 n = mesh->normals[t];
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

/* Skipped by intersect: the exact cross product is zero. */
static bool isFlat(const bcMesh* mesh, int32_t t)
{
	if (!isDegenerate(mesh, t)) {
		return false;
	}
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcVec3 n = bcExactCross(mesh->vertices[v[0]], mesh->vertices[v[1]], mesh->vertices[v[2]]);
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

int32_t bcMesh_CountZeroArea(const bcMesh* mesh, int32_t* first)
{
	int32_t count = 0;
	if (first != NULL) {
		*first = -1;
	}
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		if (isFlat(mesh, t)) {
			if (count == 0 && first != NULL) {
				*first = t;
			}
			count += 1;
		}
	}
	return count;
}

/* The mesh's slivers: degenerate to the hierarchy, not flat. NULL when
 * out of memory; *count 0 (and a one-element block) when there are none. */
static int32_t* findSlivers(const bcMesh* mesh, int32_t* count)
{
	*count = 0;
	int32_t* list = bcAlloc((size_t)(mesh->degenerateCount > 0 ? mesh->degenerateCount : 1) * sizeof *list);
	if (list == NULL) {
		return NULL;
	}
	for (int32_t t = 0; t < mesh->triangleCount && *count < mesh->degenerateCount; ++t) {
		if (isDegenerate(mesh, t) && !isFlat(mesh, t)) {
			list[(*count)++] = t;
		}
	}
	return list;
}

static int compareIndex(const void* x, const void* y)
{
	int32_t a = *(const int32_t*)x, b = *(const int32_t*)y;
	return (a > b) - (a < b);
}

/* Tested by intersect: not flat (the slivers' list says which degenerate
 * triangles are slivers). */
static bool isTested(const bcMesh* mesh, int32_t t, const int32_t* slivers, int32_t sliverCount)
{
	return !isDegenerate(mesh, t) ||
		   (sliverCount > 0 && bsearch(&t, slivers, (size_t)sliverCount, sizeof *slivers, compareIndex) != NULL);
}

static void push(bcIntersectJob* job, int32_t a, int32_t b, const bcTriTriOutput* out, bcTriTriState exactState)
{
	if (job->count == job->capacity) {
		size_t capacity = job->capacity == 0 ? BC_INTERSECT_FIRST_CAPACITY : 2 * job->capacity;
		bcIntersectPair* grown = bcRealloc(job->pairs, capacity * sizeof *grown);
		if (grown == NULL) {
			job->outOfMemory = true;
			return;
		}
		job->pairs = grown;
		job->capacity = capacity;
	}
	bcIntersectPair* p = job->pairs + job->count++;
	memset(p, 0, sizeof *p); /* no stray padding bytes */
	p->a = a;
	p->b = b;
	p->state = out->state;
	p->segment[0] = out->segment[0];
	p->segment[1] = out->segment[1];
	p->exactState = exactState;
}

/* Whether the exact test's state says the triangles meet. */
static bool meets(bcTriTriState state)
{
	return state == bc_triTriTouching || state == bc_triTriCrossing || state == bc_triTriCoplanar;
}

/* Whether the approximate search keeps triangle u of `to` for the current
 * triangle: the pair belongs to the triangle with the larger sphere (see
 * the top of the file). */
static bool ownsPair(const bcIntersectJob* job, int32_t u)
{
	const int32_t* vu = job->to->triangles + 3 * (size_t)u;
	const bcVec3* v = job->to->vertices;
	double ru = bcTriangleBoundingSphere(v[vu[0]], v[vu[1]], v[vu[2]]).radius;
	if (job->self) {
		return ru < job->radius || (ru == job->radius && u > job->ti);
	}
	return job->swapped ? ru < job->radius : ru <= job->radius;
}

static void testAdmitted(bcIntersectJob* job, int32_t u);

/* Test the current triangle against triangle u of `to`. */
static void testPair(bcIntersectJob* job, int32_t u)
{
	int32_t t = job->ti;
	bool searching = !job->options.bruteForce;
	if (job->options.approximate && searching) {
		if (!ownsPair(job, u)) {
			return;
		}
	} else if (job->self && u <= t) {
		return; /* each pair once, as (lower, higher) */
	}
	testAdmitted(job, u);
}

/* Test the current triangle against triangle u of `to`, a pair admitted
 * once: neighbours sharing a vertex (one mesh) are still left out. */
static void testAdmitted(bcIntersectJob* job, int32_t u)
{
	int32_t t = job->ti;
	const int32_t* vu = job->to->triangles + 3 * (size_t)u;
	if (job->self) {
		if (u == t) {
			return;
		}
		for (int i = 0; i < 3; ++i) {
			if (vu[i] == job->vt[0] || vu[i] == job->vt[1] || vu[i] == job->vt[2]) {
				return;
			}
		}
	}
	/* The pair (a, b) in mesh order, tested as A's triangle against B's. */
	int32_t a = job->swapped ? u : t, b = job->swapped ? t : u;
	if (job->self && u < t) {
		a = u;
		b = t;
	}
	const bcVec3* v = job->to->vertices;
	bcVec3 pu[3] = { v[vu[0]], v[vu[1]], v[vu[2]] };
	bool tFirst = a == t && !job->swapped;
	const bcVec3* pa = tFirst ? job->pt : pu;
	const bcVec3* pb = tFirst ? pu : job->pt;
	job->candidates += 1;
	bcTriTriOutput out;
	bcTriTriState exactState;
	if (job->options.approximate) {
		out = bcIntersectTrianglesApproxWithRule(pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], job->options.approxRule);
		exactState = out.state;
		if (job->options.checkApprox) {
			exactState = bcIntersectTriangles(pa[0], pa[1], pa[2], pb[0], pb[1], pb[2]).state;
			bool probable = out.state == bc_triTriProbable;
			job->falsePositives += probable && !meets(exactState);
			job->falseNegatives += !probable && meets(exactState);
		}
	} else {
		out = bcIntersectTriangles(pa[0], pa[1], pa[2], pb[0], pb[1], pb[2]);
		exactState = out.state;
	}
	switch (out.state) {
	case bc_triTriTouching:
		if (!job->options.skipTouching) {
			push(job, a, b, &out, exactState);
		}
		break;
	case bc_triTriCrossing:
	case bc_triTriCoplanar:
	case bc_triTriProbable:
		push(job, a, b, &out, exactState);
		break;
	case bc_triTriDisjoint:
	case bc_triTriDegenerate:
		break;
	}
}

/* The hierarchy's callback. maxDistance is never lowered: every triangle
 * within the search radius must be seen. */
static void visitTriangle(void* context, int32_t triangle, double* maxDistance)
{
	(void)maxDistance;
	testPair(context, triangle);
}

static void searchTriangle(bcIntersectJob* job, int32_t t)
{
	const bcMesh* from = job->from;
	job->ti = t;
	job->vt = from->triangles + 3 * (size_t)t;
	for (int k = 0; k < 3; ++k) {
		job->pt[k] = from->vertices[job->vt[k]];
	}
	if (job->options.bruteForce) {
		for (int32_t u = job->self ? t + 1 : 0; u < job->to->triangleCount; ++u) {
			if (isTested(job->to, u, job->toSlivers, job->toSliverCount)) {
				testPair(job, u);
			}
		}
		return;
	}
	bcSphere sphere = bcTriangleBoundingSphere(job->pt[0], job->pt[1], job->pt[2]);
	job->radius = sphere.radius;
	double reach = job->options.approximate ? 2.0 * sphere.radius : sphere.radius;
	double maxDistance = reach * (1.0 + BC_INTERSECT_SPHERE_PAD);
	bcBvh_QueryPoint(job->to->bvh, sphere.center, &maxDistance, visitTriangle, job);
}

/* A block of triangles of `from`, searched by jobs[worker] (a parallel-for task). */
static void runBlock(int begin, int end, int worker, void* context)
{
	bcIntersectJob* job = (bcIntersectJob*)context + worker;
	for (int32_t i = begin; i < end && !job->outOfMemory; ++i) {
		bool tested = job->options.bruteForce ? isTested(job->from, i, job->fromSlivers, job->fromSliverCount)
											  : !isDegenerate(job->from, i);
		if (tested) {
			searchTriangle(job, i);
		}
	}
}

/* One pass: every job searches from `from` through `to`'s hierarchy. */
static void runPass(bcIntersectJob* jobs, int threadCount, const bcMesh* from, const bcMesh* to, bool swapped)
{
	for (int i = 0; i < threadCount; ++i) {
		jobs[i].from = from;
		jobs[i].to = to;
		jobs[i].swapped = swapped;
	}
	bcParallelFor(from->triangleCount, BC_INTERSECT_BLOCK, threadCount, runBlock, jobs);
}

/* The hierarchy's callback in the sliver pass: every triangle it holds is
 * not a sliver, so each pair is met once, from its sliver. */
static void visitFromSliver(void* context, int32_t triangle, double* maxDistance)
{
	(void)maxDistance;
	testAdmitted(context, triangle);
}

/* Make triangle t of `from` the current one. */
static void setCurrent(bcIntersectJob* job, int32_t t)
{
	job->ti = t;
	job->vt = job->from->triangles + 3 * (size_t)t;
	for (int k = 0; k < 3; ++k) {
		job->pt[k] = job->from->vertices[job->vt[k]];
	}
}

/* The pairs of sliver t of `from` with the triangles of `to` that are not
 * slivers: through the hierarchy within t's sphere (exact), or every one
 * (approximate: a pair there needs only the spheres to meet). */
static void searchFromSliver(bcIntersectJob* job, int32_t t)
{
	setCurrent(job, t);
	if (job->options.approximate) {
		for (int32_t u = 0; u < job->to->triangleCount && !job->outOfMemory; ++u) {
			if (!isDegenerate(job->to, u)) {
				testAdmitted(job, u);
			}
		}
		return;
	}
	bcSphere sphere = bcTriangleBoundingSphere(job->pt[0], job->pt[1], job->pt[2]);
	double maxDistance = sphere.radius * (1.0 + BC_INTERSECT_SPHERE_PAD);
	bcBvh_QueryPoint(job->to->bvh, sphere.center, &maxDistance, visitFromSliver, job);
}

/* The pass for pairs with a sliver in them (the hierarchies hold none), on
 * one job: slivers of a against b's hierarchy, of b against a's, and
 * slivers against slivers. */
static void sliverPass(bcIntersectJob* job, const bcMesh* a, const bcMesh* other, const int32_t* aSlivers,
					   int32_t aCount, const int32_t* otherSlivers, int32_t otherCount)
{
	job->from = a;
	job->to = other;
	job->swapped = false;
	for (int32_t i = 0; i < aCount && !job->outOfMemory; ++i) {
		searchFromSliver(job, aSlivers[i]);
		/* Against the other's slivers: for one mesh, each pair once. */
		for (int32_t k = 0; k < otherCount && !job->outOfMemory; ++k) {
			if (!job->self || otherSlivers[k] > aSlivers[i]) {
				testAdmitted(job, otherSlivers[k]);
			}
		}
	}
	if (job->self) {
		return;
	}
	job->from = other;
	job->to = a;
	job->swapped = true;
	for (int32_t i = 0; i < otherCount && !job->outOfMemory; ++i) {
		searchFromSliver(job, otherSlivers[i]);
	}
}

static int comparePairs(const void* x, const void* y)
{
	const bcIntersectPair* p = x;
	const bcIntersectPair* q = y;
	if (p->a != q->a) {
		return p->a < q->a ? -1 : 1;
	}
	return (p->b > q->b) - (p->b < q->b);
}

bcIntersectList* bcMesh_Intersect(const bcMesh* a, const bcMesh* b, const bcIntersectOptions* options, bcError* error)
{
	bcIntersectList* list = bcAllocZeroed(1, sizeof *list);
	if (list == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	if (a == NULL) {
		return list;
	}
	bool self = b == NULL;
	const bcMesh* other = self ? a : b;
	bcIntersectOptions opts = options != NULL ? *options : bcDefaultIntersectOptions();

	int32_t most = a->triangleCount > other->triangleCount ? a->triangleCount : other->triangleCount;
	int useful = most / BC_INTERSECT_MIN_PER_THREAD;
	int threadCount = bcThreadCount(opts.threadCount);
	if (threadCount > useful) {
		threadCount = useful > 1 ? useful : 1;
	}

	bcIntersectJob* jobs = bcAllocZeroed((size_t)threadCount, sizeof *jobs);
	if (jobs == NULL) {
		bcFree(list);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	int32_t aSliverCount = 0, otherSliverCount = 0;
	int32_t* aSlivers = findSlivers(a, &aSliverCount);
	int32_t* otherSlivers = self ? aSlivers : findSlivers(other, &otherSliverCount);
	otherSliverCount = self ? aSliverCount : otherSliverCount;
	if (aSlivers == NULL || otherSlivers == NULL) {
		bcFree(jobs);
		bcFree(aSlivers);
		bcFree(self ? NULL : otherSlivers);
		bcFree(list);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	for (int i = 0; i < threadCount; ++i) {
		jobs[i].self = self;
		jobs[i].options = opts;
		jobs[i].fromSlivers = aSlivers;
		jobs[i].fromSliverCount = aSliverCount;
		jobs[i].toSlivers = otherSlivers;
		jobs[i].toSliverCount = otherSliverCount;
	}
	runPass(jobs, threadCount, a, other, false);
	if (opts.approximate && !opts.bruteForce && !self) {
		runPass(jobs, threadCount, other, a, true);
	}
	if (!opts.bruteForce && (aSliverCount > 0 || otherSliverCount > 0)) {
		sliverPass(jobs, a, other, aSlivers, aSliverCount, otherSlivers, otherSliverCount);
	}
	bcFree(aSlivers);
	if (!self) {
		bcFree(otherSlivers);
	}

	bool outOfMemory = false;
	size_t total = 0;
	for (int i = 0; i < threadCount; ++i) {
		outOfMemory = outOfMemory || jobs[i].outOfMemory;
		total += jobs[i].count;
		list->candidateCount += jobs[i].candidates;
		list->falsePositiveCount += jobs[i].falsePositives;
		list->falseNegativeCount += jobs[i].falseNegatives;
	}
	list->pairs = outOfMemory ? NULL : bcAlloc((total > 0 ? total : 1) * sizeof *list->pairs);
	if (list->pairs != NULL) {
		for (int i = 0; i < threadCount; ++i) {
			if (jobs[i].count > 0) {
				memcpy(list->pairs + list->count, jobs[i].pairs, jobs[i].count * sizeof *list->pairs);
			}
			list->count += jobs[i].count;
		}
		qsort(list->pairs, list->count, sizeof *list->pairs, comparePairs);
	}
	for (int i = 0; i < threadCount; ++i) {
		bcFree(jobs[i].pairs);
	}
	bcFree(jobs);
	if (list->pairs == NULL) {
		bcFree(list);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory collecting intersecting pairs");
		return NULL;
	}
	return list;
}

void bcIntersectList_Destroy(bcIntersectList* list)
{
	if (list == NULL) {
		return;
	}
	bcFree(list->pairs);
	bcFree(list);
}
