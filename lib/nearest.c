/* nearest.c - the closest point of a whole mesh to a point (a ball at rest),
 * with deterministic ties.
 *
 * Each non-degenerate triangle t offers one distance d_t from p, measured
 * from its closest point (Ericson's Voronoi regions, lib/closest.c; in the
 * face region d_t is |n . (p - a)|, as in the cast's overlap test). Let d_min
 * be the smallest. Every triangle with d_t <= d_min + BC_DISTANCE_TIE_TOLERANCE
 * (d_min + L) is tied, and the answer is the lowest index among them. That
 * set depends only on the numbers d_t, never on the order in which
 * triangles are visited, so the bounding volume hierarchy and the
 * brute-force loop give identical answers as long as the hierarchy visits
 * every triangle inside the final window: its box distances are padded lower
 * bounds of the exact distance, and d_t is never allowed below the distance
 * to the triangle's own bounding box (see measureTriangle).
 */
#include <float.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "bvh.h"
#include "mesh.h"
#include "vec3.h"

/* Tied triangles kept while searching. A point at a vertex shared by more
 * triangles than this (or at the centre of a sphere) makes the search note
 * the overflow and find the lowest tied index in a second pass instead. */
#define BC_NEAREST_CAPACITY 64

/* Ericson's region test multiplies four coordinate differences
 * (vc = d1 d4 - d3 d2), of sizes up to |e|^2 |p - a|^2 for an edge e. Two
 * limits keep those products inside the doubles:
 *  - a triangle whose size (largest coordinate difference of its edges AB,
 *    AC) leaves [1 / BC_NEAREST_SIZE_RANGE, BC_NEAREST_SIZE_RANGE] is
 *    measured with p and its vertices scaled by the power of two that brings
 *    that size near 1. Scaling by a power of two is exact, and so is every
 *    rounding after it, so the answer is that of the same arithmetic without
 *    the overflow;
 *  - p farther than BC_NEAREST_FAR_RATIO times that size from A gets the
 *    nearest of the three vertices: every point of the triangle is then as
 *    far as any other to some 80 digits, and the products stay below
 *    (1e80)^2 (1e30)^4 = 1e280 (with normalised sizes, far less). */
#define BC_NEAREST_SIZE_RANGE 1e30
#define BC_NEAREST_FAR_RATIO 1e80

/* Below this many queries per thread, starting a thread costs more than it saves. */
#define BC_MIN_QUERIES_PER_THREAD 64

/* Threads are capped: beyond this, a batch is better split by the caller. */
#define BC_MAX_QUERY_THREADS 256

bcClosestOptions bcDefaultClosestOptions(void)
{
	bcClosestOptions options = { false };
	return options;
}

bool bcIsValidClosestInput(bcClosestInput input)
{
	return bcIsFinite(input.p) && isfinite(input.radius) && input.radius >= 0.0;
}

/* The larger of a and b, inline (libm's fmax is a call on the hot path).
 * Nothing here is NaN: p and the vertices are finite. */
static inline double maxOf(double a, double b)
{
	return a > b ? a : b;
}

/* The largest absolute coordinate of v. */
static inline double maxAbs(bcVec3 v)
{
	return maxOf(maxOf(fabs(v.x), fabs(v.y)), fabs(v.z));
}

/* |v| without overflow or underflow in the squares. In the ordinary range it
 * is exactly sqrt(v . v). */
static double lengthOf(bcVec3 v)
{
	double dd = bcDot(v, v);
	if (dd >= DBL_MIN && dd <= DBL_MAX) {
		return sqrt(dd);
	}
	double m = maxAbs(v);
	if (m == 0.0 || !isfinite(m)) {
		return m;
	}
	bcVec3 u = bcMakeVec3(v.x / m, v.y / m, v.z / m);
	return m * sqrt(bcDot(u, u));
}

/* v * 2^e, exactly (unless the result leaves the normal range). */
static bcVec3 scaled(bcVec3 v, int e)
{
	return bcMakeVec3(ldexp(v.x, e), ldexp(v.y, e), ldexp(v.z, e));
}

/* Distance from p to the box [lower, upper]. */
static double boxDistance(bcVec3 p, bcVec3 lower, bcVec3 upper)
{
	bcVec3 gap = bcMakeVec3(maxOf(maxOf(lower.x - p.x, p.x - upper.x), 0.0),
							maxOf(maxOf(lower.y - p.y, p.y - upper.y), 0.0),
							maxOf(maxOf(lower.z - p.z, p.z - upper.z), 0.0));
	return lengthOf(gap);
}

/* The distance d_t from p to triangle t, which is returned, with its
 * closest point in cp (vertices[] local, 0..2) and, for a face point,
 * side = n . (p - a). d_t is never below the distance to the triangle's
 * bounding box; when that alone exceeds limit it is returned at once and
 * cp is not filled (the triangle cannot tie: skipping it changes nothing). */
static double measureTriangle(const bcMesh* mesh, int32_t t, bcVec3 p, double limit, bcClosestPoint* cp,
							  double* side)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcVec3 a = mesh->vertices[v[0]], b = mesh->vertices[v[1]], c = mesh->vertices[v[2]];
	/* Never below the distance to the triangle's bounding box, which the
	 * exact distance cannot be either: only a badly rounded region test (a
	 * sliver) could get there, and the hierarchy, which prunes by boxes,
	 * must see the same number as the brute-force loop. */
	double box = boxDistance(p, bcMin(a, bcMin(b, c)), bcMax(a, bcMax(b, c)));
	if (box > limit) {
		return box;
	}
	bcVec3 ap = bcSub(p, a), ab = bcSub(b, a), ac = bcSub(c, a);
	double size = maxOf(maxAbs(ab), maxAbs(ac));
	double reach = maxAbs(ap);
	if (!(reach <= BC_NEAREST_FAR_RATIO * size)) {
		const bcVec3 corner[3] = { a, b, c };
		double best = INFINITY;
		int k = 0;
		for (int i = 0; i < 3; ++i) {
			double d = lengthOf(bcSub(p, corner[i]));
			if (d < best) {
				best = d;
				k = i;
			}
		}
		cp->point = corner[k];
		cp->feature = bc_featureVertex;
		cp->vertexCount = 1;
		cp->vertices[0] = k;
		cp->vertices[1] = cp->vertices[2] = -1;
	} else if (size > BC_NEAREST_SIZE_RANGE || size < 1.0 / BC_NEAREST_SIZE_RANGE) {
		int e;
		frexp(size, &e);
		*cp = bcClosestPointTriangle(scaled(p, -e), scaled(a, -e), scaled(b, -e), scaled(c, -e));
		cp->point = scaled(cp->point, e);
	} else {
		*cp = bcClosestPointTriangle(p, a, b, c);
	}
	double distance;
	*side = 0.0;
	if (cp->feature == bc_featureFace) {
		bcVec3 n = mesh->normals[t];
		*side = bcDot(n, ap);
		distance = fabs(*side);
		cp->point = bcMulAdd(p, -*side, n);
	} else {
		distance = lengthOf(bcSub(p, cp->point));
	}
	if (!bcIsFinite(cp->point)) {
		/* Cannot happen with the limits above; kept so that no NaN can
		 * ever leave: vertex A, as far as any point of the triangle. */
		cp->point = a;
		cp->feature = bc_featureVertex;
		cp->vertexCount = 1;
		cp->vertices[0] = 0;
		cp->vertices[1] = cp->vertices[2] = -1;
		distance = lengthOf(ap);
	}
	return distance >= box ? distance : box;
}

typedef struct bcNearestCandidate {
	int32_t triangle;
	double distance;
} bcNearestCandidate;

typedef struct bcNearestSearch {
	const bcMesh* mesh;
	bcVec3 p;
	double scale;  /* L: the largest absolute coordinate of p and the mesh */
	double best;   /* d_min so far */
	int count;     /* candidates within the window of best */
	bool overflow; /* some candidate did not fit: a second pass decides */
	bcNearestCandidate items[BC_NEAREST_CAPACITY];
	/* second pass */
	double limit;
	int32_t lowest;
	int tieCount;
} bcNearestSearch;

/* The largest distance that ties with best (INFINITY while nothing is found). */
static double tieLimit(const bcNearestSearch* search, double best)
{
	return best + (BC_DISTANCE_TIE_TOLERANCE * best + BC_DISTANCE_TIE_TOLERANCE * search->scale);
}

static bool isDegenerate(const bcMesh* mesh, int32_t t)
{
	bcVec3 n = mesh->normals[t];
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

/* Measure a non-degenerate triangle (the hierarchy holds no others; the
 * brute-force loop skips them first, which also spares the hierarchy a
 * cache miss on the normal) and keep it if it ties. */
static void testTriangle(bcNearestSearch* search, int32_t t)
{
	bcClosestPoint cp;
	double side;
	double limit = tieLimit(search, search->best);
	double d = measureTriangle(search->mesh, t, search->p, limit, &cp, &side);
	if (!(d <= limit)) {
		return;
	}
	if (d < search->best) {
		search->best = d;
		double window = tieLimit(search, d);
		int kept = 0;
		for (int i = 0; i < search->count; ++i) {
			if (search->items[i].distance <= window) {
				search->items[kept++] = search->items[i];
			}
		}
		search->count = kept;
	}
	if (search->count == BC_NEAREST_CAPACITY) {
		search->overflow = true;
		return;
	}
	search->items[search->count].triangle = t;
	search->items[search->count].distance = d;
	search->count += 1;
}

static void visitTriangle(void* context, int32_t triangle, double* maxDistance)
{
	bcNearestSearch* search = context;
	testTriangle(search, triangle);
	*maxDistance = tieLimit(search, search->best);
}

/* Second pass: the lowest tied triangle and how many tie (t is not
 * degenerate). */
static void countTriangle(bcNearestSearch* search, int32_t t)
{
	bcClosestPoint cp;
	double side;
	if (measureTriangle(search->mesh, t, search->p, search->limit, &cp, &side) <= search->limit) {
		search->tieCount += 1;
		if (search->lowest < 0 || t < search->lowest) {
			search->lowest = t;
		}
	}
}

static void visitCount(void* context, int32_t triangle, double* maxDistance)
{
	bcNearestSearch* search = context;
	countTriangle(search, triangle);
	*maxDistance = search->limit;
}

static double meshMagnitude(const bcMesh* mesh)
{
	return maxOf(maxAbs(mesh->lowerBound), maxAbs(mesh->upperBound));
}

static bcClosestOutput emptyOutput(bcClosestState state)
{
	bcClosestOutput out;
	memset(&out, 0, sizeof out);
	out.state = state;
	out.triangle = -1;
	out.face = -1;
	out.feature = bc_featureNone;
	out.vertices[0] = out.vertices[1] = out.vertices[2] = -1;
	return out;
}

bcClosestOutput bcMesh_Closest(const bcMesh* mesh, bcVec3 p, double radius, const bcClosestOptions* options)
{
	bcClosestInput input = { p, radius };
	if (!bcIsValidClosestInput(input)) {
		return emptyOutput(bc_closestInvalid);
	}
	bcNearestSearch search;
	search.mesh = mesh;
	search.p = p;
	search.scale = maxOf(meshMagnitude(mesh), maxAbs(p));
	search.best = INFINITY;
	search.count = 0;
	search.overflow = false;
	bool brute = (options != NULL && options->bruteForce) || mesh->bvh == NULL;
	if (brute) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			if (!isDegenerate(mesh, t)) {
				testTriangle(&search, t);
			}
		}
	} else {
		double maxDistance = INFINITY;
		bcBvh_QueryPoint(mesh->bvh, p, &maxDistance, visitTriangle, &search);
	}
	if (search.count == 0) {
		return emptyOutput(bc_closestNone);
	}

	int32_t chosen = search.items[0].triangle;
	int tieCount = search.count;
	if (search.overflow) {
		search.limit = tieLimit(&search, search.best);
		search.lowest = -1;
		search.tieCount = 0;
		if (brute) {
			for (int32_t t = 0; t < mesh->triangleCount; ++t) {
				if (!isDegenerate(mesh, t)) {
					countTriangle(&search, t);
				}
			}
		} else {
			double maxDistance = search.limit;
			bcBvh_QueryPoint(mesh->bvh, p, &maxDistance, visitCount, &search);
		}
		chosen = search.lowest;
		tieCount = search.tieCount;
	} else {
		for (int i = 1; i < search.count; ++i) {
			if (search.items[i].triangle < chosen) {
				chosen = search.items[i].triangle;
			}
		}
	}

	bcClosestPoint cp;
	double side;
	double distance = measureTriangle(mesh, chosen, p, INFINITY, &cp, &side);
	if (!isfinite(distance)) {
		/* p is so far out that the distance overflows a double. */
		return emptyOutput(bc_closestInvalid);
	}
	const int32_t* v = mesh->triangles + 3 * (size_t)chosen;
	bcVec3 n = mesh->normals[chosen];
	bcClosestOutput out = emptyOutput(bc_closestFound);
	out.distance = distance;
	out.point = bcPositiveZeros(cp.point);
	out.triangle = chosen;
	out.face = mesh->faceIds[chosen];
	out.feature = cp.feature;
	out.vertexCount = cp.vertexCount;
	for (int k = 0; k < cp.vertexCount; ++k) {
		out.vertices[k] = v[cp.vertices[k]];
	}
	if (distance <= BC_DISTANCE_TIE_TOLERANCE * search.scale) {
		out.normal = n;
	} else if (cp.feature == bc_featureFace) {
		out.normal = side > 0.0 ? n : bcNeg(n);
	} else {
		bcVec3 d = bcSub(p, cp.point);
		double length = lengthOf(d);
		out.normal = bcPositiveZeros(bcMakeVec3(d.x / length, d.y / length, d.z / length));
	}
	out.overlap = distance < radius;
	out.depth = out.overlap ? radius - distance : 0.0;
	out.tieCount = tieCount;
	return out;
}

/* ----------------------------------------------------------------- batch */

typedef struct bcClosestJob {
	const bcMesh* mesh;
	const bcClosestInput* inputs;
	bcClosestOutput* outputs;
	const bcClosestOptions* options;
	int begin, end;
} bcClosestJob;

static void* runClosestJob(void* arg)
{
	bcClosestJob* job = arg;
	for (int i = job->begin; i < job->end; ++i) {
		job->outputs[i] = bcMesh_Closest(job->mesh, job->inputs[i].p, job->inputs[i].radius, job->options);
	}
	return NULL;
}

void bcMesh_ClosestBatch(const bcMesh* mesh, const bcClosestInput* inputs, bcClosestOutput* outputs, int count,
						 const bcClosestOptions* options, int threadCount)
{
	if (threadCount <= 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		threadCount = cores > 0 ? (int)cores : 1;
	}
	if (threadCount > BC_MAX_QUERY_THREADS) {
		threadCount = BC_MAX_QUERY_THREADS;
	}
	int useful = count / BC_MIN_QUERIES_PER_THREAD;
	if (threadCount > useful) {
		threadCount = useful > 1 ? useful : 1;
	}
	bcClosestJob jobs[BC_MAX_QUERY_THREADS];
	pthread_t threads[BC_MAX_QUERY_THREADS];
	bool started[BC_MAX_QUERY_THREADS];
	for (int i = 0; i < threadCount; ++i) {
		jobs[i].mesh = mesh;
		jobs[i].inputs = inputs;
		jobs[i].outputs = outputs;
		jobs[i].options = options;
		jobs[i].begin = (int)((long long)count * i / threadCount);
		jobs[i].end = (int)((long long)count * (i + 1) / threadCount);
		started[i] = i > 0 && pthread_create(&threads[i], NULL, runClosestJob, &jobs[i]) == 0;
	}
	/* Whatever could not get a thread runs here. */
	for (int i = 0; i < threadCount; ++i) {
		if (!started[i]) {
			runClosestJob(&jobs[i]);
		}
	}
	for (int i = 1; i < threadCount; ++i) {
		if (started[i]) {
			pthread_join(threads[i], NULL);
		}
	}
}
