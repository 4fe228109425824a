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
 */
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "core.h"
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
} bcIntersectJob;

static bool isDegenerate(const bcMesh* mesh, int32_t t)
{
	bcVec3 n = mesh->normals[t];
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
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

/* Test the current triangle against triangle u of `to`. */
static void testPair(bcIntersectJob* job, int32_t u)
{
	int32_t t = job->ti;
	const int32_t* vu = job->to->triangles + 3 * (size_t)u;
	bool searching = !job->options.bruteForce;
	if (job->options.approximate && searching) {
		if (!ownsPair(job, u)) {
			return;
		}
	} else if (job->self && u <= t) {
		return; /* each pair once, as (lower, higher) */
	}
	if (job->self) {
		if (u == t) {
			return;
		}
		/* Neighbours sharing a vertex never count. */
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
			if (!isDegenerate(job->to, u)) {
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
		if (!isDegenerate(job->from, i)) {
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
	for (int i = 0; i < threadCount; ++i) {
		jobs[i].self = self;
		jobs[i].options = opts;
	}
	runPass(jobs, threadCount, a, other, false);
	if (opts.approximate && !opts.bruteForce && !self) {
		runPass(jobs, threadCount, other, a, true);
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
