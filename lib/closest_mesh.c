/* closest_mesh.c - the closest point of a whole mesh to a point (a ball at rest),
 * with deterministic ties.
 *
 * Each non-degenerate triangle t offers one distance d_t from p, measured
 * from its closest point (Ericson's Voronoi regions, lib/closest_triangle.c; in the
 * face region d_t is |n . (p - a)|, as in the cast's overlap test). Let d_min
 * be the smallest. Every triangle with d_t <= d_min + BC_DISTANCE_TIE_TOLERANCE
 * (d_min + L) is tied, and the answer is the lowest index among them. That
 * set depends only on the numbers d_t, never on the order in which
 * triangles are visited, so the bounding volume hierarchy and the
 * brute-force loop give identical answers as long as the hierarchy visits
 * every triangle inside the final window: its box distances are padded lower
 * bounds of the exact distance, and d_t is never allowed below the distance
 * to the triangle's own bounding box (see measureTriangle).
 *
 * Speed. The search walks the hierarchy front to back itself (searchTree),
 * comparing squared box distances with the bound of the moment; a batch
 * answers its queries along a Morton curve, so that consecutive ones share
 * the nodes and triangles in the cache, each starting from its
 * predecessor's answer, measured first, as its bound. None of it changes
 * which triangles tie, so none of it changes an answer.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "core.h"
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

/* Squared distances. A box is skipped when the square of its distance
 * exceeds limit^2 (1 + BC_NEAREST_SQUARE_SLACK): a thousand times the few
 * ulps by which the squares and their sum round, so such a box's distance,
 * as its square root would give it, is surely above limit, and the square
 * root is spared. Below BC_NEAREST_MIN_SQUARE (squares near the subnormals,
 * which round absolutely) and above DBL_MAX the distances themselves are
 * compared, as before. */
#define BC_NEAREST_SQUARE_SLACK 1e-12
#define BC_NEAREST_MIN_SQUARE 1e-280

/* The hierarchy's float boxes are grown by BC_NEAREST_PAD_RELATIVE times
 * the largest absolute coordinate of p and the mesh (plus
 * BC_NEAREST_PAD_ABSOLUTE) before the distance to them is taken: the gaps
 * p - box round by an ulp or two of those magnitudes, so the padded gap
 * never exceeds the gap to any triangle's box inside, as measureTriangle
 * computes it. As lib/bvh.c pads its own point query. */
#define BC_NEAREST_PAD_RELATIVE 1e-12
#define BC_NEAREST_PAD_ABSOLUTE 1e-290

/* Below this many queries per thread, starting a thread costs more than it saves. */
#define BC_MIN_QUERIES_PER_THREAD 64

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

/* A bound on squared distances standing for limit (see
 * BC_NEAREST_SQUARE_SLACK): a square above it is that of a distance above
 * limit. INFINITY (nothing is known to be beyond) when the squares would
 * leave the range where they round relatively. */
static double squaredLimit(double limit)
{
	double square = limit * limit * (1.0 + BC_NEAREST_SQUARE_SLACK);
	return square >= BC_NEAREST_MIN_SQUARE && square <= DBL_MAX ? square : INFINITY;
}

/* The distance d_t from p to triangle t, which is returned, with its
 * closest point in cp (vertices[] local, 0..2) and, for a face point,
 * side = n . (p - a). d_t is never below the distance to the triangle's
 * bounding box; when that alone exceeds limit a number above limit is
 * returned at once and cp is not filled (the triangle cannot tie: skipping
 * it changes nothing). limitSquared is squaredLimit(limit). */
static double measureTriangle(const bcMesh* mesh, int32_t t, bcVec3 p, double limit, double limitSquared,
							  bcClosestPoint* cp, double* side)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcVec3 a = mesh->vertices[v[0]], b = mesh->vertices[v[1]], c = mesh->vertices[v[2]];
	/* Never below the distance to the triangle's bounding box, which the
	 * exact distance cannot be either: only a badly rounded region test (a
	 * sliver) could get there, and the hierarchy, which prunes by boxes,
	 * must see the same number as the brute-force loop. */
	bcVec3 lower = bcMin(a, bcMin(b, c)), upper = bcMax(a, bcMax(b, c));
	bcVec3 gap = bcMakeVec3(maxOf(maxOf(lower.x - p.x, p.x - upper.x), 0.0),
							maxOf(maxOf(lower.y - p.y, p.y - upper.y), 0.0),
							maxOf(maxOf(lower.z - p.z, p.z - upper.z), 0.0));
	if (bcDot(gap, gap) > limitSquared) {
		return INFINITY; /* the box's distance, lengthOf(gap), is above limit */
	}
	double box = lengthOf(gap);
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
		cp->barycentric[0] = cp->barycentric[1] = cp->barycentric[2] = 0.0;
		cp->barycentric[k] = 1.0;
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
		cp->barycentric[0] = 1.0;
		cp->barycentric[1] = cp->barycentric[2] = 0.0;
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
	double window; /* tieLimit(best): the farthest a triangle may be and still tie */
	double windowSquared; /* squaredLimit(window) */
	int count;     /* candidates within the window of best */
	bool overflow; /* some candidate did not fit: a second pass decides */
	int32_t seed;  /* a triangle already tested before the search, or -1 */
	bcNearestCandidate items[BC_NEAREST_CAPACITY];
	/* second pass */
	double limit;
	double limitSquared;
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
	double limit = search->window;
	double d = measureTriangle(search->mesh, t, search->p, limit, search->windowSquared, &cp, &side);
	if (!(d <= limit)) {
		return;
	}
	if (d < search->best) {
		search->best = d;
		double window = tieLimit(search, d);
		search->window = window;
		search->windowSquared = squaredLimit(window);
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
	if (triangle != search->seed) {
		testTriangle(search, triangle);
	}
	*maxDistance = tieLimit(search, search->best);
}

/* Second pass: the lowest tied triangle and how many tie (t is not
 * degenerate). */
static void countTriangle(bcNearestSearch* search, int32_t t)
{
	bcClosestPoint cp;
	double side;
	if (measureTriangle(search->mesh, t, search->p, search->limit, search->limitSquared, &cp, &side) <=
		search->limit) {
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

/* ------------------------------------------------------------- traversal */

/* The search walks the hierarchy itself, reading its nodes (bvh.h) through
 * bcBvh_GetData (bcBvh_QueryPoint calls back per triangle and takes a
 * square root per box): front to back, boxes compared by their squared
 * distance with the bound of the moment, the triangles measured in place.
 * tests/unit/closest_mesh.c checks the walk reaches every triangle of the order
 * once, inside its leaf's box. */
typedef struct bcNearestTree {
	const bcBvhNode* nodes;
	const int32_t* order;
} bcNearestTree;

/* The hierarchy's arrays, or false when its layout is not the one above. */
static bool openTree(const struct bcBvh* bvh, bcNearestTree* tree)
{
	bcBvhData data = bcBvh_GetData(bvh);
	bcBvhInfo info = bcBvh_GetInfo(bvh);
	size_t records = info.leafCount > 0 ? (size_t)info.leafCount : 1;
	if (data.nodes == NULL || data.nodeBytes != records * sizeof(bcBvhNode) ||
		data.triangleCount != info.triangleCount) {
		return false;
	}
	tree->nodes = data.nodes;
	tree->order = data.triangles;
	return true;
}

/* The gaps from p to the child's box grown by pad along each axis (0
 * inside the slab). */
static inline bcVec3 childGaps(bcVec3 p, double pad, const bcBvhChild* child)
{
	return bcMakeVec3(maxOf(maxOf(((double)child->lower[0] - pad) - p.x, p.x - ((double)child->upper[0] + pad)), 0.0),
					  maxOf(maxOf(((double)child->lower[1] - pad) - p.y, p.y - ((double)child->upper[1] + pad)), 0.0),
					  maxOf(maxOf(((double)child->lower[2] - pad) - p.z, p.z - ((double)child->upper[2] + pad)), 0.0));
}

/* The search's bound of the moment: a distance and its squaredLimit. */
typedef struct bcNearestBound {
	double limit;
	double squared;
} bcNearestBound;

/* Whether the child's padded box, whose squared distance from p is square,
 * is farther than the bound. Where the squares do not round relatively
 * (squared is INFINITY) the distance itself decides, as in bvh.c. */
static inline bool isBeyond(bcVec3 p, double pad, const bcBvhChild* child, double square, bcNearestBound bound)
{
	if (bound.squared < INFINITY) {
		return square > bound.squared;
	}
	bcVec3 gap = childGaps(p, pad, child);
	double distance = sqrt(bcDot(gap, gap));
	if (!(distance <= DBL_MAX)) {
		distance = maxAbs(gap); /* the squares overflowed: the largest gap still bounds */
	}
	return distance > bound.limit;
}

/* Measure, front to back, every triangle whose box is within the bound:
 * the tie window of the best so far (testTriangle), or, counting, the fixed
 * search->limit (countTriangle). */
static void searchTree(bcNearestSearch* search, const bcNearestTree* tree, bool counting)
{
	const bcBvhNode* nodes = tree->nodes;
	const bcBvhChild* current = &nodes[0].children[0];
	if (current->count == 0) {
		return;
	}
	bcVec3 p = search->p;
	double pad = BC_NEAREST_PAD_RELATIVE * search->scale + BC_NEAREST_PAD_ABSOLUTE;
	bcNearestBound bound;
	bound.limit = counting ? search->limit : search->window;
	bound.squared = counting ? search->limitSquared : search->windowSquared;
	bcBvhPending stack[BC_BVH_MAX_DEPTH]; /* keys: squared distances */
	int top = 0;
	bcVec3 gap = childGaps(p, pad, current);
	double square = bcDot(gap, gap);
	if (isBeyond(p, pad, current, square, bound)) {
		return;
	}
	for (;;) {
		if (current->count == BC_BVH_INNER) {
			const bcBvhNode* node = nodes + current->index;
			const bcBvhChild* a = &node->children[0];
			const bcBvhChild* b = &node->children[1];
			bcVec3 gapA = childGaps(p, pad, a), gapB = childGaps(p, pad, b);
			double squareA = bcDot(gapA, gapA), squareB = bcDot(gapB, gapB);
			bool inA = !isBeyond(p, pad, a, squareA, bound);
			bool inB = !isBeyond(p, pad, b, squareB, bound);
			if (bcBvh_Descend(stack, &top, a, squareA, inA, b, squareB, inB, &current, &square)) {
				continue;
			}
		} else {
			const int32_t* run = tree->order + current->index;
			for (int32_t i = 0; i < current->count; ++i) {
				if (counting) {
					countTriangle(search, run[i]);
				} else if (run[i] != search->seed) {
					testTriangle(search, run[i]);
					bound.limit = search->window;
					bound.squared = search->windowSquared;
					if (isBeyond(p, pad, current, square, bound)) {
						break; /* the leaf's own box is now out of reach */
					}
				}
			}
		}
		/* The nearest pending sibling still within reach. */
		for (;;) {
			if (top == 0) {
				return;
			}
			top -= 1;
			if (!isBeyond(p, pad, stack[top].child, stack[top].key, bound)) {
				current = stack[top].child;
				square = stack[top].key;
				break;
			}
		}
	}
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

/* The closest point; seed, when >= 0, is a triangle measured first (the
 * batch passes its previous answer, close by along its curve): a bound from
 * the start lets the hierarchy skip more. */
static bcClosestOutput closestFrom(const bcMesh* mesh, bcVec3 p, double radius, const bcClosestOptions* options,
								   int32_t seed)
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
	search.window = INFINITY;
	search.windowSquared = INFINITY;
	search.count = 0;
	search.overflow = false;
	search.seed = -1;
	bool brute = (options != NULL && options->bruteForce) || mesh->bvh == NULL;
	bcNearestTree nodes;
	bool tree = !brute && openTree(mesh->bvh, &nodes);
	if (brute) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			if (!isDegenerate(mesh, t)) {
				testTriangle(&search, t);
			}
		}
	} else {
		if (seed >= 0 && seed < mesh->triangleCount && !isDegenerate(mesh, seed)) {
			testTriangle(&search, seed);
			search.seed = seed;
		}
		if (tree) {
			searchTree(&search, &nodes, false);
		} else {
			double maxDistance = search.window;
			bcBvh_QueryPoint(mesh->bvh, p, &maxDistance, visitTriangle, &search);
		}
	}
	if (search.count == 0) {
		return emptyOutput(bc_closestNone);
	}

	int32_t chosen = search.items[0].triangle;
	int tieCount = search.count;
	if (search.overflow) {
		search.limit = tieLimit(&search, search.best);
		search.limitSquared = squaredLimit(search.limit);
		search.lowest = -1;
		search.tieCount = 0;
		if (brute) {
			for (int32_t t = 0; t < mesh->triangleCount; ++t) {
				if (!isDegenerate(mesh, t)) {
					countTriangle(&search, t);
				}
			}
		} else if (tree) {
			searchTree(&search, &nodes, true);
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
	double distance = measureTriangle(mesh, chosen, p, INFINITY, INFINITY, &cp, &side);
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
	for (int k = 0; k < 3; ++k) {
		out.barycentric[k] = cp.barycentric[k] + 0.0; /* no -0 */
	}
	return out;
}

bcClosestOutput bcMesh_Closest(const bcMesh* mesh, bcClosestInput input, const bcClosestOptions* options)
{
	return closestFrom(mesh, input.p, input.radius, options, -1);
}

/* ----------------------------------------------------------------- batch */

/* The batch answers its queries in the order of a Morton (Z-order) curve
 * through the mesh's bounding box, so consecutive queries lie near each
 * other and find the hierarchy's nodes and triangles they need still in the
 * cache: on a million random points over a million triangles, most of a
 * query's cost in input order is cache misses. Each answer depends on its
 * own query only, so the order changes nothing but the time. */

/* Bits of the Morton key per axis: 3 * 21 = 63 bits. */
#define BC_NEAREST_MORTON_BITS 21

/* The radix sort of the keys takes this many bits per pass. */
#define BC_NEAREST_RADIX_BITS 11

/* Threads take queries in blocks of this many consecutive ones in curve
 * order: enough to keep a block's nodes in the cache between its queries,
 * few enough per batch to balance the threads' loads. */
#define BC_NEAREST_BLOCK 64

typedef struct bcQueryKey {
	uint64_t key;
	int32_t index;
} bcQueryKey;

/* Spread the low 21 bits of x to every third bit. */
static uint64_t spreadBits(uint64_t x)
{
	x &= 0x1fffffull;
	x = (x | x << 32) & 0x1f00000000ffffull;
	x = (x | x << 16) & 0x1f0000ff0000ffull;
	x = (x | x << 8) & 0x100f00f00f00f00full;
	x = (x | x << 4) & 0x10c30c30c30c30c3ull;
	x = (x | x << 2) & 0x1249249249249249ull;
	return x;
}

/* Cell of coordinate x along an axis of the box [lower, lower + extent]
 * cut into 2^BC_NEAREST_MORTON_BITS cells; outside (or NaN) clamps. */
static uint64_t cellOf(double x, double lower, double extent)
{
	const double cells = (double)(1u << BC_NEAREST_MORTON_BITS);
	double t = extent > 0.0 ? (x - lower) / extent * cells : 0.0;
	if (!(t > 0.0)) {
		return 0;
	}
	return t >= cells ? (uint64_t)cells - 1 : (uint64_t)t;
}

/* keys[0 .. count-1] sorted by key (stable), using scratch of the same size.
 * Returns the array holding the result (keys or scratch). */
static bcQueryKey* sortKeys(bcQueryKey* keys, bcQueryKey* scratch, int count)
{
	enum { radix = 1 << BC_NEAREST_RADIX_BITS };
	size_t counts[radix];
	bcQueryKey* from = keys;
	bcQueryKey* to = scratch;
	for (int shift = 0; shift < 3 * BC_NEAREST_MORTON_BITS; shift += BC_NEAREST_RADIX_BITS) {
		memset(counts, 0, sizeof counts);
		for (int i = 0; i < count; ++i) {
			counts[(from[i].key >> shift) & (radix - 1)] += 1;
		}
		if (counts[(from[0].key >> shift) & (radix - 1)] == (size_t)count) {
			continue; /* every key has this digit: the pass would copy */
		}
		size_t sum = 0;
		for (int d = 0; d < radix; ++d) {
			size_t c = counts[d];
			counts[d] = sum;
			sum += c;
		}
		for (int i = 0; i < count; ++i) {
			to[counts[(from[i].key >> shift) & (radix - 1)]++] = from[i];
		}
		bcQueryKey* swap = from;
		from = to;
		to = swap;
	}
	return from;
}

/* The queries' order along the curve (NULL when out of memory: then the
 * input order, which gives the same answers). The caller frees *block. */
static const bcQueryKey* curveOrder(const bcMesh* mesh, const bcClosestInput* inputs, int count, void** block)
{
	bcQueryKey* keys = bcAlloc(2 * (size_t)count * sizeof *keys);
	*block = keys;
	if (keys == NULL) {
		return NULL;
	}
	bcVec3 lower = mesh->lowerBound;
	bcVec3 extent = bcSub(mesh->upperBound, mesh->lowerBound);
	for (int i = 0; i < count; ++i) {
		bcVec3 p = inputs[i].p;
		keys[i].key = spreadBits(cellOf(p.x, lower.x, extent.x)) | spreadBits(cellOf(p.y, lower.y, extent.y)) << 1 |
					  spreadBits(cellOf(p.z, lower.z, extent.z)) << 2;
		keys[i].index = i;
	}
	return sortKeys(keys, keys + count, count);
}

typedef struct bcClosestJob {
	const bcMesh* mesh;
	const bcClosestInput* inputs;
	bcClosestOutput* outputs;
	const bcClosestOptions* options;
	const bcQueryKey* order; /* NULL: input order */
} bcClosestJob;

/* Queries [begin, end) in curve order (a parallel-for task): each starts
 * from the previous one's triangle. */
static void runClosestBlock(int begin, int end, int worker, void* context)
{
	(void)worker;
	const bcClosestJob* job = context;
	int32_t seed = -1;
	for (int k = begin; k < end; ++k) {
		int i = job->order != NULL ? job->order[k].index : k;
		job->outputs[i] = closestFrom(job->mesh, job->inputs[i].p, job->inputs[i].radius, job->options, seed);
		seed = job->outputs[i].triangle;
	}
}

void bcMesh_ClosestBatch(const bcMesh* mesh, const bcClosestInput* inputs, bcClosestOutput* outputs, int count,
						 const bcClosestOptions* options, int threadCount)
{
	if (count <= 0) {
		return;
	}
	int useful = count / BC_MIN_QUERIES_PER_THREAD;
	int threads = bcThreadCount(threadCount);
	threads = threads > useful ? (useful > 1 ? useful : 1) : threads;
	void* block = NULL;
	const bcQueryKey* order = count > 1 ? curveOrder(mesh, inputs, count, &block) : NULL;
	bcClosestJob job = { mesh, inputs, outputs, options, order };
	bcParallelFor(count, BC_NEAREST_BLOCK, threads, runClosestBlock, &job);
	bcFree(block);
}
