/* bvh.c - bounding volume hierarchy over a mesh's triangles.
 *
 * Layout. A binary tree in a flat array of 64-byte nodes, one cache line
 * each (the array is 64-byte aligned). A node holds the records of its two
 * children: a float box, rounded outward from the double coordinates so it
 * always contains the exact box, and a reference, either to the child's node
 * or to a run of the triangle order array (a leaf of 1 to BC_BVH_MAX_LEAF
 * triangles). Keeping both child boxes in the parent means one cache line
 * tells the traversal whether and in which order to visit both children,
 * where nodes carrying only their own box cost a second miss per step (the
 * far child's line) for the same 64 bytes per leaf: leaves need no node of
 * their own. Float boxes are what make two children fit one line (double
 * boxes would take 112 bytes); the outward rounding keeps them conservative
 * and the queries pad them for the rounding of their own double arithmetic.
 * The build and the point walks (here, nearest.c, intersect.c) use these
 * binary nodes. The swept-ball walk, the hot one, has its own 4-wide copy
 * (bcBvhWideNode in bvh.h: two lines, four boxes as structure of arrays,
 * made by pulling each node's grandchildren up): half the levels, and one
 * SIMD instruction per axis tests all four boxes (SSE2 everywhere on
 * x86-64, AVX2 where the CPU has it, plain C elsewhere; see the walk).
 * The wide nodes hold the binary nodes' float boxes as they are, so they
 * are as conservative. A binary subtree of at most 8 triangles is one leaf
 * of the wide tree, and each leaf has its triangles in float, eight lanes
 * wide (leaf_bound.h), for the ordered walk: best first on a queue of
 * nodes at their entry alphas and triangles at their lower bounds, so the
 * exact test runs on about one triangle per hit.
 *
 * Node 0 is a header whose first child is the root (a leaf for tiny meshes,
 * empty when every triangle is degenerate) and whose second is empty. A
 * parent always precedes its children; each build task's nodes are one
 * depth-first block.
 *
 * Build. Binned SAH (BC_BVH_BIN_COUNT bins along the widest axis) down to
 * BC_BVH_SWEEP_SIZE triangles, then an exact SAH sweep over sorted
 * centroids. One pass over the triangles per level: partitioning a region
 * also bins its halves. Regions larger than BC_BVH_TASK_SIZE become tasks
 * that a pool of threads builds independently into their own node buffers;
 * the buffers are then concatenated in an order that depends only on the
 * tree. Every region is split by exactly one thread with the same
 * arithmetic, and the parallel passes over fixed chunks merge exactly (sums
 * of counts, minima and maxima), so the tree and its layout are identical
 * byte for byte whatever the thread count.
 */
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE (glibc, musl) */
#include "bvh.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core.h"
#include "leaf_bound.h"
#include "mesh.h"
#include "vec3.h"

/* SIMD box tests: SSE2 (every x86-64) and AVX2 (chosen at run time, the
 * functions compiled for it by a target attribute, so the build's own flags
 * stay portable); elsewhere, with another compiler, or built with
 * -DBC_NO_SIMD, the scalar test. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && defined(__GNUC__) && !defined(BC_NO_SIMD)
#define BC_BVH_X86 1
#include <immintrin.h>
#define BC_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define BC_BVH_X86 0
#define BC_TARGET_AVX2
#endif

#if defined(__GNUC__)
#define BC_ALWAYS_INLINE __attribute__((always_inline))
#else
#define BC_ALWAYS_INLINE
#endif

/* Bins along the split axis. 32 bins lower the SAH cost of the tree by
 * under 1% on random and terrain meshes and take longer to clear and sweep;
 * 8 raise it by about 1%. */
#define BC_BVH_BIN_COUNT 16

/* Regions of at most this many triangles get an exact SAH sweep over their
 * sorted centroids instead of bins: at this size sorting costs no more than
 * clearing and sweeping the bins, and most regions of a tree are this small. */
#define BC_BVH_SWEEP_SIZE 16

/* The most triangles in a leaf. Regions this small become leaves when the
 * SAH says a split does not pay; larger ones are always split. */
#define BC_BVH_MAX_LEAF 4

/* SAH costs, relative: one node (a pair of child-box tests) against one
 * triangle callback, which fetches three vertices and tests a swept ball.
 * With these, random triangles end in leaves of one and terrain in leaves of
 * two (the halves of a quad share a box). Forcing leaves of up to 4 made
 * sweeps through a million random triangles ~1.8x slower (5x the callbacks)
 * for a third of the memory. */
#define BC_BVH_COST_NODE 1.0
#define BC_BVH_COST_TRIANGLE 2.0

/* Below this depth the SAH chooses the split; from here on regions are cut
 * at their median, so a pathological distribution (exponentially spaced
 * triangles make the SAH peel one triangle off per level) cannot make the
 * tree deeper than BC_BVH_MAX_DEPTH: 2^31 triangles halve to 4 in 29 levels. */
#define BC_BVH_SAH_DEPTH 64

/* Regions with more triangles than this are built as separate tasks. Fixed,
 * not derived from the thread count, so the layout never depends on it; small
 * enough that a million triangles make ~250 tasks to balance. */
#define BC_BVH_TASK_SIZE 8192

/* Triangles per chunk of the parallel first and last passes: large enough
 * to amortise a chunk's bookkeeping, small enough to balance. Fixed, so the
 * chunks (and so the ref order) never depend on the thread count. */
#define BC_BVH_CHUNK_SIZE 65536

/* How far ahead the copy into leaf order fetches: the triangle's vertex
 * indices BC_BVH_PREFETCH_FAR refs ahead, its corners BC_BVH_PREFETCH_NEAR
 * ahead (by then its indices have arrived). About the number of cache misses
 * a core keeps in flight; 8 and 16 measured best on the 1M meshes. */
#define BC_BVH_PREFETCH_NEAR 8
#define BC_BVH_PREFETCH_FAR 16

#if defined(__GNUC__)
#define BC_PREFETCH(address) __builtin_prefetch(address)
#else
#define BC_PREFETCH(address) ((void)(address))
#endif

/* Query padding. Boxes are grown by
 *   BC_BVH_PAD_RELATIVE * (|p0|max + largest |coordinate| of the tree + r) + BC_BVH_PAD_ABSOLUTE
 * on every side before the slab or distance test. The test's own double
 * arithmetic (p0 + r, box - that, times 1/d, or the squares of a distance)
 * rounds by a few ulps of those magnitudes, i.e. ~1e-15 of them; a thousand
 * times that margin guarantees the padded test accepts everything the exact
 * test would, while staying below any detail a mesh can meaningfully hold
 * (a micrometre on a 1000 km model). The absolute term covers results in the
 * subnormal range, where the rounding error is absolute rather than relative. */
#define BC_BVH_PAD_RELATIVE 1e-12
#define BC_BVH_PAD_ABSOLUTE 1e-290

/* Build only: a child whose index is a task id (BC_BVH_INNER and the leaf
 * counts are in bvh.h). */
#define BC_BVH_EXTERNAL (-2)

/* Stack for the queries: at most one pending sibling per level. */
#define BC_BVH_STACK_SIZE BC_BVH_MAX_DEPTH

/* One child of a node: its box and where to find it. 32 bytes. */

_Static_assert(sizeof(bcBvhNode) == 64, "a node is meant to fill one cache line");
_Static_assert(sizeof(bcBvhWideNode) == 128, "a wide node is meant to fill two cache lines");

struct bcBvh {
	bcBvhNode* nodes; /* nodeCount, node 0 the header */
	int32_t nodeCount;
	bcBvhWideNode* wide; /* wideCount: the swept-ball walk's tree, node 0 its root */
	int32_t wideCount;
	bcBvhSimd simd;      /* how the swept-ball walk tests boxes */
	int32_t* order;   /* triangle indices, leaves refer to runs of it */
	bcBvhTriangle* packed; /* orderCount: the triangles of order, copied */
	bcLeafBlock* leaves; /* leafBlockCount: the wide tree's leaves, in float */
	int32_t leafBlockCount;
	int32_t orderCount;
	double magnitude; /* largest |coordinate| of the root box, scales the padding */
	bcBvhInfo info;
};

/* Arrays at least this large are aligned to it and marked for transparent
 * huge pages: a query walks the nodes and triangle records of a
 * million-triangle mesh at random, and with 4 KiB pages nearly every step
 * down the tree is a TLB miss as well as a cache miss (2 MiB: the x86-64
 * and AArch64 huge page). */
#define BC_BVH_HUGE_PAGE (2u << 20)

/* Storage for a large array (free it with bcFree). */
static void* bcAllocateLarge(size_t size)
{
	if (size < BC_BVH_HUGE_PAGE) {
		return bcAllocAligned(size, 64);
	}
	size_t rounded = (size + BC_BVH_HUGE_PAGE - 1) / BC_BVH_HUGE_PAGE * BC_BVH_HUGE_PAGE;
	void* memory = bcAllocAligned(rounded, BC_BVH_HUGE_PAGE);
#if defined(MADV_HUGEPAGE)
	if (memory != NULL) {
		(void)madvise(memory, rounded, MADV_HUGEPAGE); /* a hint: failure is harmless */
	}
#endif
	return memory;
}

/* ------------------------------------------------------------ rounding */

/* f moved one float away from zero (grow) or towards it. The rounding
 * direction of a conversion is a coin toss, so this is done on the bits
 * without a branch. */
static inline float bcFloatNudge(float f, bool nudge, bool grow)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	bits += nudge ? (grow ? 1u : UINT32_MAX) : 0u;
	memcpy(&f, &bits, sizeof f);
	return f;
}

/* The largest float <= x. A conversion that rounded up is stepped one float
 * down: away from zero for a negative or -0 result (the sign bit is set; -0
 * comes from a tiny negative x and becomes -FLT_TRUE_MIN), towards zero for
 * a positive one. */
static inline float bcFloatDown(double x)
{
	if (x > FLT_MAX) {
		return FLT_MAX;
	}
	if (x < -FLT_MAX) {
		return -INFINITY;
	}
	float f = (float)x;
	return bcFloatNudge(f, (double)f > x, signbit(f) != 0);
}

/* The smallest float >= x; the mirror image of bcFloatDown. */
static inline float bcFloatUp(double x)
{
	if (x < -FLT_MAX) {
		return -FLT_MAX;
	}
	if (x > FLT_MAX) {
		return INFINITY;
	}
	float f = (float)x;
	return bcFloatNudge(f, (double)f < x, signbit(f) == 0);
}

/* --------------------------------------------------------------- build */

/* A triangle during the build: its outward-rounded box. */
typedef struct bcBuildRef {
	float lower[3];
	int32_t triangle;
	float upper[3];
	int32_t bin; /* scratch: the ref's bin in its region's binning */
} bcBuildRef;

typedef struct bcBin {
	float lower[3], upper[3];
	int32_t count;
} bcBin;

/* Bins along one axis: the doubled centroids' range [origin, origin +
 * BC_BVH_BIN_COUNT / scale] cut into equal parts. */
typedef struct bcBinning {
	int axis;
	float origin;
	float scale; /* 0: everything falls in bin 0 */
	bcBin bins[BC_BVH_BIN_COUNT];
} bcBinning;

/* A run of refs and its box. When binned, the binning already holds the
 * refs (the parent filled it while partitioning) and each ref's bin is set. */
typedef struct bcRegion {
	int32_t begin, end;
	float lower[3], upper[3];
	bool binned;
	bcBinning binning;
} bcRegion;

/* A region built by one thread into its own node buffer. */
typedef struct bcTask {
	bcRegion region;
	int32_t depth;
	bcBvhChild root; /* the region's record, index local to nodes */
	bcBvhNode* nodes;
	int32_t nodeCount, nodeCapacity;
	int32_t leafCount, maxDepth;
} bcTask;

typedef struct bcBuilder {
	bcBuildRef* refs;
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	bcTask** tasks;
	int32_t taskCount, taskCapacity;
	int32_t* pending; /* taskCapacity */
	int32_t pendingCount;
	int32_t activeCount;
	bool failed;
} bcBuilder;

/* Twice the centroid: lower + upper, no halving needed for binning. */
static inline float bcCentroid2(const bcBuildRef* ref, int axis)
{
	return ref->lower[axis] + ref->upper[axis];
}

static void bcEmptyBounds(float lower[3], float upper[3])
{
	for (int k = 0; k < 3; ++k) {
		lower[k] = INFINITY;
		upper[k] = -INFINITY;
	}
}

/* Min and max in the form compilers turn into single instructions: when
 * either is NaN they return b. */
static inline float bcMinFloat(float a, float b)
{
	return a < b ? a : b;
}

static inline float bcMaxFloat(float a, float b)
{
	return a > b ? a : b;
}

/* Written out per axis: these run for every triangle at every level. */
static inline void bcGrowBounds(float lower[3], float upper[3], const float addLower[3], const float addUpper[3])
{
	lower[0] = bcMinFloat(addLower[0], lower[0]);
	lower[1] = bcMinFloat(addLower[1], lower[1]);
	lower[2] = bcMinFloat(addLower[2], lower[2]);
	upper[0] = bcMaxFloat(addUpper[0], upper[0]);
	upper[1] = bcMaxFloat(addUpper[1], upper[1]);
	upper[2] = bcMaxFloat(addUpper[2], upper[2]);
}

static double bcHalfArea(const float lower[3], const float upper[3])
{
	double dx = (double)upper[0] - (double)lower[0];
	double dy = (double)upper[1] - (double)lower[1];
	double dz = (double)upper[2] - (double)lower[2];
	return dx * dy + dy * dz + dz * dx;
}

/* The axis of largest upper - lower (the first of equals). */
static int bcWidestAxis(const float lower[3], const float upper[3])
{
	int axis = 0;
	for (int k = 1; k < 3; ++k) {
		if (upper[k] - lower[k] > upper[axis] - lower[axis]) {
			axis = k;
		}
	}
	return axis;
}

/* Box of refs[begin, end). */
static void bcMeasureBox(const bcBuildRef* refs, bcRegion* region)
{
	bcEmptyBounds(region->lower, region->upper);
	for (int32_t i = region->begin; i < region->end; ++i) {
		bcGrowBounds(region->lower, region->upper, refs[i].lower, refs[i].upper);
	}
}

/* Bounds of the doubled centroids of refs[begin, end). */
static void bcMeasureCentroids(const bcBuildRef* refs, int32_t begin, int32_t end, float lower[3], float upper[3])
{
	bcEmptyBounds(lower, upper);
	for (int32_t i = begin; i < end; ++i) {
		for (int k = 0; k < 3; ++k) {
			float c = bcCentroid2(refs + i, k);
			lower[k] = bcMinFloat(c, lower[k]);
			upper[k] = bcMaxFloat(c, upper[k]);
		}
	}
}

/* Empty bins over the doubled-centroid range [lower, upper] of an axis. A
 * zero, infinite or NaN extent, or one so small the scale overflows, gives
 * scale 0: one bin, no split. */
static void bcInitBinning(bcBinning* binning, int axis, float lower, float upper)
{
	float extent = upper - lower;
	float scale = extent > 0.0f && extent <= FLT_MAX ? (float)BC_BVH_BIN_COUNT / extent : 0.0f;
	binning->axis = axis;
	binning->origin = lower;
	binning->scale = scale <= FLT_MAX ? scale : 0.0f;
	for (int b = 0; b < BC_BVH_BIN_COUNT; ++b) {
		bcEmptyBounds(binning->bins[b].lower, binning->bins[b].upper);
		binning->bins[b].count = 0;
	}
}

/* Bins over a box's widest axis. Every doubled centroid lo + hi of a triangle
 * inside the box lies in [2 lower, 2 upper]; using the box rather than the
 * centroids' bounds lets a parent fill its children's bins while it
 * partitions, one pass per level instead of two, at the price of bins a
 * triangle's half-size wider at the edges. */
static void bcInitBoxBinning(bcBinning* binning, const float lower[3], const float upper[3])
{
	int axis = bcWidestAxis(lower, upper);
	bcInitBinning(binning, axis, lower[axis] + lower[axis], upper[axis] + upper[axis]);
}

/* Clamped to the bins in float before the conversion (max and min compile to
 * branch-free instructions); NaN, from a box infinite both ways, gives 0. */
static inline void bcBinRef(bcBinning* binning, bcBuildRef* ref)
{
	float f = bcMaxFloat((bcCentroid2(ref, binning->axis) - binning->origin) * binning->scale, 0.0f);
	int b = (int)bcMinFloat(f, (float)(BC_BVH_BIN_COUNT - 1));
	ref->bin = b;
	bcBin* bin = binning->bins + b;
	bin->count += 1;
	bcGrowBounds(bin->lower, bin->upper, ref->lower, ref->upper);
}

static void bcBinRefs(bcBuildRef* refs, int32_t begin, int32_t end, bcBinning* binning)
{
	for (int32_t i = begin; i < end; ++i) {
		bcBinRef(binning, refs + i);
	}
}

/* The best SAH split of the bins: refs in bins below the returned index go
 * left. -1 when all refs share one bin. cost: counts times half areas. */
static int bcFindBinSplit(const bcBinning* binning, double* cost)
{
	const bcBin* bins = binning->bins;
	double rightCost[BC_BVH_BIN_COUNT];
	int32_t rightCount[BC_BVH_BIN_COUNT];
	float lower[3], upper[3];
	bcEmptyBounds(lower, upper);
	int32_t n = 0;
	for (int b = BC_BVH_BIN_COUNT - 1; b > 0; --b) {
		n += bins[b].count;
		if (bins[b].count > 0) {
			bcGrowBounds(lower, upper, bins[b].lower, bins[b].upper);
		}
		rightCount[b] = n;
		rightCost[b] = n > 0 ? (double)n * bcHalfArea(lower, upper) : 0.0;
	}
	double bestCost = INFINITY;
	int bestSplit = -1;
	bcEmptyBounds(lower, upper);
	n = 0;
	for (int b = 1; b < BC_BVH_BIN_COUNT; ++b) {
		n += bins[b - 1].count;
		if (bins[b - 1].count > 0) {
			bcGrowBounds(lower, upper, bins[b - 1].lower, bins[b - 1].upper);
		}
		if (n == 0 || rightCount[b] == 0) {
			continue;
		}
		double c = (double)n * bcHalfArea(lower, upper) + rightCost[b];
		if (c < bestCost) {
			bestCost = c;
			bestSplit = b;
		}
	}
	/* An infinite cost everywhere (boxes beyond float range) is no guide. */
	*cost = bestCost;
	return bestCost < INFINITY ? bestSplit : -1;
}

/* Heap sort refs[0, count) by (doubled centroid on axis, triangle): a total
 * order, so the result does not depend on the input order. */
static bool bcRefLess(const bcBuildRef* a, const bcBuildRef* b, int axis)
{
	float ca = bcCentroid2(a, axis), cb = bcCentroid2(b, axis);
	if (ca != cb) {
		return ca < cb;
	}
	return a->triangle < b->triangle;
}

static void bcSiftDown(bcBuildRef* refs, int32_t root, int32_t count, int axis)
{
	for (;;) {
		int32_t child = 2 * root + 1;
		if (child >= count) {
			return;
		}
		if (child + 1 < count && bcRefLess(refs + child, refs + child + 1, axis)) {
			child += 1;
		}
		if (!bcRefLess(refs + root, refs + child, axis)) {
			return;
		}
		bcBuildRef t = refs[root];
		refs[root] = refs[child];
		refs[child] = t;
		root = child;
	}
}

static void bcSortRefs(bcBuildRef* refs, int32_t count, int axis)
{
	for (int32_t i = count / 2 - 1; i >= 0; --i) {
		bcSiftDown(refs, i, count, axis);
	}
	for (int32_t end = count - 1; end > 0; --end) {
		bcBuildRef t = refs[0];
		refs[0] = refs[end];
		refs[end] = t;
		bcSiftDown(refs, 0, end, axis);
	}
}

/* Halves of a region cut at position middle, boxes measured, not binned. */
static void bcCutRegion(const bcBuildRef* refs, const bcRegion* region, int32_t middle, bcRegion* left,
						bcRegion* right)
{
	left->begin = region->begin;
	left->end = middle;
	left->binned = false;
	right->begin = middle;
	right->end = region->end;
	right->binned = false;
	bcMeasureBox(refs, left);
	bcMeasureBox(refs, right);
}

/* Cut a region at its median: sorted along the widest centroid axis, or
 * simply halved when all centroids coincide. */
static void bcSplitMedian(bcBuildRef* refs, const bcRegion* region, bcRegion* left, bcRegion* right)
{
	float lower[3], upper[3];
	bcMeasureCentroids(refs, region->begin, region->end, lower, upper);
	int axis = bcWidestAxis(lower, upper);
	int32_t count = region->end - region->begin;
	if (upper[axis] > lower[axis]) {
		bcSortRefs(refs + region->begin, count, axis);
	}
	bcCutRegion(refs, region, region->begin + count / 2, left, right);
}

/* Whether a region of count triangles should rather be a leaf, given the
 * best split's sum of counts times half areas. */
static bool bcPreferLeaf(const bcRegion* region, int32_t count, double bestCost)
{
	if (count > BC_BVH_MAX_LEAF) {
		return false;
	}
	double area = bcHalfArea(region->lower, region->upper);
	double leafCost = BC_BVH_COST_TRIANGLE * (double)count;
	double splitCost = BC_BVH_COST_NODE + BC_BVH_COST_TRIANGLE * bestCost / area;
	return !(area > 0.0) || !(splitCost < leafCost);
}

/* Exact SAH for a small region: sort by centroid along the widest centroid
 * axis (a stable insertion sort, so ties keep their order) and sweep every
 * split. One axis, like the bins: sweeping all three costs three times as
 * much for a tree ~1% better by the SAH. */
static bool bcSplitSmall(bcBuildRef* refs, const bcRegion* region, bcRegion* left, bcRegion* right)
{
	int32_t count = region->end - region->begin;
	bcBuildRef* base = refs + region->begin;
	if (count == 2) {
		/* Half the small regions: the only split is one triangle each. */
		double cost = bcHalfArea(base[0].lower, base[0].upper) + bcHalfArea(base[1].lower, base[1].upper);
		if (bcPreferLeaf(region, count, cost)) {
			return false;
		}
		bcCutRegion(refs, region, region->begin + 1, left, right);
		return true;
	}
	float centroidLower[3], centroidUpper[3];
	bcMeasureCentroids(refs, region->begin, region->end, centroidLower, centroidUpper);
	int axis = bcWidestAxis(centroidLower, centroidUpper);
	if (!(centroidUpper[axis] > centroidLower[axis])) {
		/* All centroids coincide: no split separates anything. */
		if (count <= BC_BVH_MAX_LEAF) {
			return false;
		}
		bcCutRegion(refs, region, region->begin + count / 2, left, right);
		return true;
	}

	uint8_t order[BC_BVH_SWEEP_SIZE];
	float keys[BC_BVH_SWEEP_SIZE];
	for (int32_t i = 0; i < count; ++i) {
		float c = bcCentroid2(base + i, axis);
		int32_t j = i;
		while (j > 0 && keys[j - 1] > c) {
			keys[j] = keys[j - 1];
			order[j] = order[j - 1];
			--j;
		}
		keys[j] = c;
		order[j] = (uint8_t)i;
	}
	double rightCost[BC_BVH_SWEEP_SIZE];
	float lower[3], upper[3];
	bcEmptyBounds(lower, upper);
	for (int32_t i = count - 1; i > 0; --i) {
		bcGrowBounds(lower, upper, base[order[i]].lower, base[order[i]].upper);
		rightCost[i] = (double)(count - i) * bcHalfArea(lower, upper);
	}
	double bestCost = INFINITY;
	int32_t bestSplit = count / 2;
	bcEmptyBounds(lower, upper);
	for (int32_t i = 1; i < count; ++i) {
		bcGrowBounds(lower, upper, base[order[i - 1]].lower, base[order[i - 1]].upper);
		double cost = (double)i * bcHalfArea(lower, upper) + rightCost[i];
		if (cost < bestCost) {
			bestCost = cost;
			bestSplit = i;
		}
	}
	if (bcPreferLeaf(region, count, bestCost)) {
		return false;
	}
	bcBuildRef sorted[BC_BVH_SWEEP_SIZE];
	for (int32_t i = 0; i < count; ++i) {
		sorted[i] = base[order[i]];
	}
	memcpy(base, sorted, (size_t)count * sizeof *base);
	bcCutRegion(refs, region, region->begin + bestSplit, left, right);
	return true;
}

/* Set up a half of a binned split: its box from the bins on its side, and
 * bins of its own when it is large enough to be split by bins as well. */
static void bcInitHalf(const bcBinning* binning, int first, int last, int32_t begin, int32_t end, int32_t depth,
					   bcRegion* half)
{
	half->begin = begin;
	half->end = end;
	bcEmptyBounds(half->lower, half->upper);
	for (int b = first; b < last; ++b) {
		if (binning->bins[b].count > 0) {
			bcGrowBounds(half->lower, half->upper, binning->bins[b].lower, binning->bins[b].upper);
		}
	}
	half->binned = end - begin > BC_BVH_SWEEP_SIZE && depth < BC_BVH_SAH_DEPTH;
	if (half->binned) {
		bcInitBoxBinning(&half->binning, half->lower, half->upper);
	}
}

/* Decide how to split a region. Returns false if it should be a leaf;
 * otherwise partitions its refs and fills the two halves. */
static bool bcSplitRegion(bcBuildRef* refs, const bcRegion* region, int32_t depth, bcRegion* left, bcRegion* right)
{
	int32_t count = region->end - region->begin;
	if (count <= 1) {
		return false;
	}
	if (depth >= BC_BVH_SAH_DEPTH) {
		if (count <= BC_BVH_MAX_LEAF) {
			return false;
		}
		bcSplitMedian(refs, region, left, right);
		return true;
	}
	if (count <= BC_BVH_SWEEP_SIZE) {
		return bcSplitSmall(refs, region, left, right);
	}

	bcBinning local;
	const bcBinning* binning = &region->binning;
	if (!region->binned) {
		bcInitBoxBinning(&local, region->lower, region->upper);
		bcBinRefs(refs, region->begin, region->end, &local);
		binning = &local;
	}
	double cost = 0.0;
	int split = bcFindBinSplit(binning, &cost);
	if (split < 0) {
		/* Every centroid in one box-wide bin: bin the centroids' own range. */
		float lower[3], upper[3];
		bcMeasureCentroids(refs, region->begin, region->end, lower, upper);
		int axis = bcWidestAxis(lower, upper);
		bcInitBinning(&local, axis, lower[axis], upper[axis]);
		bcBinRefs(refs, region->begin, region->end, &local);
		binning = &local;
		split = bcFindBinSplit(binning, &cost);
	}
	if (split < 0) {
		/* Centroids coincide (or boxes are beyond float range). */
		bcSplitMedian(refs, region, left, right);
		return true;
	}
	/* count > BC_BVH_SWEEP_SIZE > BC_BVH_MAX_LEAF: always split. */

	int32_t leftCount = 0;
	for (int b = 0; b < split; ++b) {
		leftCount += binning->bins[b].count;
	}
	int32_t middle = region->begin + leftCount;
	bcInitHalf(binning, 0, split, region->begin, middle, depth + 1, left);
	bcInitHalf(binning, split, BC_BVH_BIN_COUNT, middle, region->end, depth + 1, right);

	/* Partition by bin, filling the halves' bins on the way. */
	int32_t i = region->begin, j = region->end - 1;
	for (;;) {
		while (i <= j && refs[i].bin < split) {
			if (left->binned) {
				bcBinRef(&left->binning, refs + i);
			}
			++i;
		}
		while (i <= j && refs[j].bin >= split) {
			if (right->binned) {
				bcBinRef(&right->binning, refs + j);
			}
			--j;
		}
		if (i > j) {
			break;
		}
		bcBuildRef t = refs[i];
		refs[i] = refs[j];
		refs[j] = t;
	}
	return true;
}

static void bcSetRecordBox(bcBvhChild* record, const bcRegion* region)
{
	memcpy(record->lower, region->lower, sizeof record->lower);
	memcpy(record->upper, region->upper, sizeof record->upper);
}

static bool bcPushTask(bcBuilder* builder, const bcRegion* region, int32_t depth, int32_t* id)
{
	bcTask* task = bcAllocZeroed(1, sizeof *task);
	if (task == NULL) {
		pthread_mutex_lock(&builder->mutex);
		builder->failed = true;
		pthread_mutex_unlock(&builder->mutex);
		return false;
	}
	task->region = *region;
	task->depth = depth;
	bool ok = true;
	pthread_mutex_lock(&builder->mutex);
	if (builder->taskCount == builder->taskCapacity) {
		int32_t capacity = builder->taskCapacity > 0 ? 2 * builder->taskCapacity : 64;
		bcTask** tasks = bcRealloc(builder->tasks, (size_t)capacity * sizeof *tasks);
		int32_t* pending = bcRealloc(builder->pending, (size_t)capacity * sizeof *pending);
		if (tasks != NULL) {
			builder->tasks = tasks;
		}
		if (pending != NULL) {
			builder->pending = pending;
		}
		if (tasks == NULL || pending == NULL) {
			ok = false;
		} else {
			builder->taskCapacity = capacity;
		}
	}
	if (ok) {
		*id = builder->taskCount;
		builder->tasks[builder->taskCount++] = task;
		builder->pending[builder->pendingCount++] = *id;
		pthread_cond_signal(&builder->wake);
	} else {
		builder->failed = true;
	}
	pthread_mutex_unlock(&builder->mutex);
	if (!ok) {
		bcFree(task);
	}
	return ok;
}

static int32_t bcAddNode(bcBuilder* builder, bcTask* task)
{
	if (task->nodeCount == task->nodeCapacity) {
		int32_t capacity = task->nodeCapacity > 0 ? 2 * task->nodeCapacity : 256;
		bcBvhNode* nodes = bcRealloc(task->nodes, (size_t)capacity * sizeof *nodes);
		if (nodes == NULL) {
			pthread_mutex_lock(&builder->mutex);
			builder->failed = true;
			pthread_mutex_unlock(&builder->mutex);
			return -1;
		}
		task->nodes = nodes;
		task->nodeCapacity = capacity;
	}
	return task->nodeCount++;
}

/* Build a region depth-first into the task's buffer and return its record.
 * Regions above BC_BVH_TASK_SIZE (other than the task's own) become tasks. */
static bcBvhChild bcBuildRegion(bcBuilder* builder, bcTask* task, const bcRegion* region, int32_t depth,
								bool taskRoot)
{
	bcBvhChild record;
	bcSetRecordBox(&record, region);
	int32_t count = region->end - region->begin;
	if (!taskRoot && count > BC_BVH_TASK_SIZE) {
		int32_t id = 0;
		bcPushTask(builder, region, depth, &id);
		record.index = id;
		record.count = BC_BVH_EXTERNAL;
		return record;
	}
	bcRegion left, right;
	int32_t node = -1;
	if (bcSplitRegion(builder->refs, region, depth, &left, &right)) {
		node = bcAddNode(builder, task);
	}
	if (node < 0) {
		record.index = region->begin;
		record.count = count;
		task->leafCount += 1;
		task->maxDepth = depth > task->maxDepth ? depth : task->maxDepth;
		return record;
	}
	bcBvhChild first = bcBuildRegion(builder, task, &left, depth + 1, false);
	bcBvhChild second = bcBuildRegion(builder, task, &right, depth + 1, false);
	task->nodes[node].children[0] = first;
	task->nodes[node].children[1] = second;
	record.index = node;
	record.count = BC_BVH_INNER;
	return record;
}

/* Run tasks until none is pending or running. */
static void bcRunTasks(bcBuilder* builder)
{
	pthread_mutex_lock(&builder->mutex);
	for (;;) {
		while (builder->pendingCount == 0 && builder->activeCount > 0) {
			pthread_cond_wait(&builder->wake, &builder->mutex);
		}
		if (builder->pendingCount == 0) {
			break;
		}
		bcTask* task = builder->tasks[builder->pending[--builder->pendingCount]];
		builder->activeCount += 1;
		pthread_mutex_unlock(&builder->mutex);
		task->root = bcBuildRegion(builder, task, &task->region, task->depth, true);
		pthread_mutex_lock(&builder->mutex);
		builder->activeCount -= 1;
		if (builder->pendingCount == 0 && builder->activeCount == 0) {
			pthread_cond_broadcast(&builder->wake);
		}
	}
	pthread_mutex_unlock(&builder->mutex);
}

/* A parallel-for item: one worker taking tasks until none is left. */
static void bcWorkerTask(int begin, int end, int worker, void* context)
{
	(void)begin;
	(void)end;
	(void)worker;
	bcRunTasks(context);
}

/* The record a parent keeps for a task's region, in final indices. */
static bcBvhChild bcResolveExternal(const bcBuilder* builder, const int32_t* base, bcBvhChild record)
{
	const bcTask* task = builder->tasks[record.index];
	record.count = task->root.count;
	record.index = task->root.count == BC_BVH_INNER ? task->root.index + base[record.index] : task->root.index;
	return record;
}

/* Place the task buffers: the root task first, then each external region in
 * the order its reference is met, so the layout depends only on the tree.
 * Allocates the node array, writes the header and the counts; the caller
 * copies the nodes (bcFinishChunk). *base receives each task's first node. */
static bool bcPlaceTasks(const bcBuilder* builder, bcBvh* bvh, int32_t** base)
{
	int32_t taskCount = builder->taskCount;
	int32_t* first = bcAlloc((size_t)(taskCount > 0 ? taskCount : 1) * sizeof *first);
	int32_t* queue = bcAlloc((size_t)(taskCount > 0 ? taskCount : 1) * sizeof *queue);
	*base = first;
	if (first == NULL || queue == NULL) {
		bcFree(queue);
		return false;
	}
	int64_t next = 1;
	int32_t queueCount = 0;
	if (taskCount > 0) {
		queue[queueCount++] = 0;
		first[0] = 1;
		next += builder->tasks[0]->nodeCount;
	}
	for (int32_t q = 0; q < queueCount; ++q) {
		const bcTask* task = builder->tasks[queue[q]];
		for (int32_t n = 0; n < task->nodeCount; ++n) {
			for (int c = 0; c < 2; ++c) {
				const bcBvhChild* child = &task->nodes[n].children[c];
				if (child->count == BC_BVH_EXTERNAL) {
					queue[queueCount++] = child->index;
					first[child->index] = (int32_t)next;
					next += builder->tasks[child->index]->nodeCount;
				}
			}
		}
	}
	bcFree(queue);

	bvh->nodeCount = (int32_t)next;
	/* bcAllocAligned rounds the size up to a multiple of the alignment. */
	bvh->nodes = bcAllocateLarge((size_t)next * sizeof(bcBvhNode));
	if (bvh->nodes == NULL) {
		return false;
	}
	bcBvhNode* header = bvh->nodes;
	memset(header, 0, sizeof *header);
	bcBvhChild* empty = &header->children[1];
	bcEmptyBounds(empty->lower, empty->upper);
	empty->index = 0;
	empty->count = 0;
	bcBvhChild* root = &header->children[0];
	if (taskCount > 0) {
		*root = builder->tasks[0]->root;
		if (root->count == BC_BVH_INNER) {
			root->index += first[0];
		}
	} else {
		*root = *empty;
	}
	for (int32_t t = 0; t < taskCount; ++t) {
		const bcTask* task = builder->tasks[t];
		bvh->info.nodeCount += task->nodeCount;
		bvh->info.leafCount += task->leafCount;
		bvh->info.maxDepth = task->maxDepth > bvh->info.maxDepth ? task->maxDepth : bvh->info.maxDepth;
	}
	/* nodeCount counts tree nodes, inner and leaf, not the header. */
	bvh->info.nodeCount += bvh->info.leafCount;
	return true;
}

static int bcBuildThreadCount(int requested, int32_t triangleCount)
{
	return requested > 0 ? bcThreadCount(requested) : bcThreadCountFor(0, 1 + triangleCount / BC_BVH_TASK_SIZE, 1);
}

/* Run fcn(context, chunk) for every chunk in [0, chunkCount) on up to
 * threadCount threads (the caller's included), through the one
 * parallel-for. Chunks write disjoint outputs, so the result does not
 * depend on which thread ran which. */
typedef void bcChunkFcn(void* context, int32_t chunk);

typedef struct bcChunkJob {
	bcChunkFcn* fcn;
	void* context;
} bcChunkJob;

static void bcChunkTask(int begin, int end, int worker, void* context)
{
	(void)worker;
	const bcChunkJob* job = context;
	for (int chunk = begin; chunk < end; ++chunk) {
		job->fcn(job->context, chunk);
	}
}

static void bcRunParallel(bcChunkFcn* fcn, void* context, int32_t chunkCount, int threadCount)
{
	bcChunkJob job = { fcn, context };
	bcParallelFor(chunkCount, 1, threadCount, bcChunkTask, &job);
}

/* The first pass, over fixed chunks of BC_BVH_CHUNK_SIZE triangles: count
 * the non-degenerate ones, then write their refs at the chunk's offset (so
 * refs keep triangle order) and box them, then bin the refs for the root. */
typedef struct bcPrepare {
	const struct bcMesh* mesh;
	bcBuildRef* refs;
	int32_t* offsets; /* per chunk: count, then first ref */
	float (*lower)[3], (*upper)[3]; /* per chunk box */
	bcBinning* binnings;            /* per chunk, then merged into the root's */
	int32_t refCount;
} bcPrepare;

static bool bcIsDegenerate(bcVec3 normal)
{
	return normal.x == 0.0 && normal.y == 0.0 && normal.z == 0.0;
}

static void bcCountChunk(void* context, int32_t chunk)
{
	bcPrepare* prepare = context;
	const struct bcMesh* mesh = prepare->mesh;
	int32_t begin = chunk * BC_BVH_CHUNK_SIZE;
	int32_t end = mesh->triangleCount - begin > BC_BVH_CHUNK_SIZE ? begin + BC_BVH_CHUNK_SIZE : mesh->triangleCount;
	int32_t count = 0;
	for (int32_t i = begin; i < end; ++i) {
		count += bcIsDegenerate(mesh->normals[i]) ? 0 : 1;
	}
	prepare->offsets[chunk] = count;
}

static void bcFillChunk(void* context, int32_t chunk)
{
	bcPrepare* prepare = context;
	const struct bcMesh* mesh = prepare->mesh;
	int32_t begin = chunk * BC_BVH_CHUNK_SIZE;
	int32_t end = mesh->triangleCount - begin > BC_BVH_CHUNK_SIZE ? begin + BC_BVH_CHUNK_SIZE : mesh->triangleCount;
	bcBuildRef* ref = prepare->refs + prepare->offsets[chunk];
	float* lower = prepare->lower[chunk];
	float* upper = prepare->upper[chunk];
	bcEmptyBounds(lower, upper);
	for (int32_t i = begin; i < end; ++i) {
		if (i + BC_BVH_PREFETCH_NEAR < end) {
			/* Shared corners are scattered over the vertex array. */
			const int32_t* ahead = mesh->triangles + 3 * (size_t)(i + BC_BVH_PREFETCH_NEAR);
			BC_PREFETCH(mesh->vertices + ahead[0]);
			BC_PREFETCH(mesh->vertices + ahead[1]);
			BC_PREFETCH(mesh->vertices + ahead[2]);
		}
		if (bcIsDegenerate(mesh->normals[i])) {
			continue;
		}
		bcVec3 a = mesh->vertices[mesh->triangles[3 * i + 0]];
		bcVec3 b = mesh->vertices[mesh->triangles[3 * i + 1]];
		bcVec3 c = mesh->vertices[mesh->triangles[3 * i + 2]];
		bcVec3 low = bcMin(a, bcMin(b, c));
		bcVec3 high = bcMax(a, bcMax(b, c));
		ref->lower[0] = bcFloatDown(low.x);
		ref->lower[1] = bcFloatDown(low.y);
		ref->lower[2] = bcFloatDown(low.z);
		ref->upper[0] = bcFloatUp(high.x);
		ref->upper[1] = bcFloatUp(high.y);
		ref->upper[2] = bcFloatUp(high.z);
		ref->triangle = i;
		ref->bin = 0;
		bcGrowBounds(lower, upper, ref->lower, ref->upper);
		ref += 1;
	}
}

static void bcBinChunk(void* context, int32_t chunk)
{
	bcPrepare* prepare = context;
	int32_t begin = chunk * BC_BVH_CHUNK_SIZE;
	int32_t end = prepare->refCount - begin > BC_BVH_CHUNK_SIZE ? begin + BC_BVH_CHUNK_SIZE : prepare->refCount;
	bcBinRefs(prepare->refs, begin, end, prepare->binnings + chunk);
}

/* Refs for the non-degenerate triangles and the root region, binned.
 * Returns the ref count, or -1 when out of memory. */
static int32_t bcPrepareRefs(const struct bcMesh* mesh, bcBuildRef* refs, int threadCount, bcRegion* root)
{
	int32_t chunkCount = (int32_t)(((int64_t)mesh->triangleCount + BC_BVH_CHUNK_SIZE - 1) / BC_BVH_CHUNK_SIZE);
	bcPrepare prepare = { mesh, refs, NULL, NULL, NULL, NULL, 0 };
	prepare.offsets = bcAlloc((size_t)chunkCount * sizeof *prepare.offsets);
	prepare.lower = bcAlloc((size_t)chunkCount * sizeof *prepare.lower);
	prepare.upper = bcAlloc((size_t)chunkCount * sizeof *prepare.upper);
	prepare.binnings = bcAlloc((size_t)chunkCount * sizeof *prepare.binnings);
	if (prepare.offsets == NULL || prepare.lower == NULL || prepare.upper == NULL || prepare.binnings == NULL) {
		bcFree(prepare.offsets);
		bcFree(prepare.lower);
		bcFree(prepare.upper);
		bcFree(prepare.binnings);
		return -1;
	}
	bcRunParallel(bcCountChunk, &prepare, chunkCount, threadCount);
	int32_t refCount = 0;
	for (int32_t c = 0; c < chunkCount; ++c) {
		int32_t count = prepare.offsets[c];
		prepare.offsets[c] = refCount;
		refCount += count;
	}
	prepare.refCount = refCount;
	bcRunParallel(bcFillChunk, &prepare, chunkCount, threadCount);

	root->begin = 0;
	root->end = refCount;
	bcEmptyBounds(root->lower, root->upper);
	for (int32_t c = 0; c < chunkCount; ++c) {
		bcGrowBounds(root->lower, root->upper, prepare.lower[c], prepare.upper[c]);
	}

	/* Bin the root in parallel: counts add and boxes merge exactly, in any
	 * order. Regions this small are split by sorting, not bins. */
	root->binned = refCount > BC_BVH_SWEEP_SIZE;
	if (root->binned) {
		bcInitBoxBinning(&root->binning, root->lower, root->upper);
		int32_t binChunks = (refCount + BC_BVH_CHUNK_SIZE - 1) / BC_BVH_CHUNK_SIZE;
		for (int32_t c = 0; c < binChunks; ++c) {
			prepare.binnings[c] = root->binning;
		}
		bcRunParallel(bcBinChunk, &prepare, binChunks, threadCount);
		for (int32_t c = 0; c < binChunks; ++c) {
			for (int b = 0; b < BC_BVH_BIN_COUNT; ++b) {
				const bcBin* from = prepare.binnings[c].bins + b;
				bcBin* to = root->binning.bins + b;
				to->count += from->count;
				bcGrowBounds(to->lower, to->upper, from->lower, from->upper);
			}
		}
	}
	bcFree(prepare.offsets);
	bcFree(prepare.lower);
	bcFree(prepare.upper);
	bcFree(prepare.binnings);
	return refCount;
}

/* Copy each task's nodes to its place, and the triangle order. */
typedef struct bcFinish {
	const bcBuilder* builder;
	const bcMesh* mesh;
	const int32_t* base;
	bcBvh* bvh;
	int32_t taskCount;
} bcFinish;

static void bcFinishChunk(void* context, int32_t chunk)
{
	bcFinish* finish = context;
	const bcBuilder* builder = finish->builder;
	if (chunk < finish->taskCount) {
		const bcTask* task = builder->tasks[chunk];
		int32_t base = finish->base[chunk];
		bcBvhNode* out = finish->bvh->nodes + base;
		for (int32_t n = 0; n < task->nodeCount; ++n) {
			for (int c = 0; c < 2; ++c) {
				bcBvhChild child = task->nodes[n].children[c];
				if (child.count == BC_BVH_INNER) {
					child.index += base;
				} else if (child.count == BC_BVH_EXTERNAL) {
					child = bcResolveExternal(builder, finish->base, child);
				}
				out[n].children[c] = child;
			}
		}
		return;
	}
	int32_t begin = (chunk - finish->taskCount) * BC_BVH_CHUNK_SIZE;
	int32_t count = finish->bvh->orderCount - begin;
	count = count < BC_BVH_CHUNK_SIZE ? count : BC_BVH_CHUNK_SIZE;
	const bcMesh* mesh = finish->mesh;
	const bcBuildRef* refs = builder->refs;
	for (int32_t i = begin; i < begin + count; ++i) {
		/* Leaf order visits the mesh at random: fetch ahead, the corners
		 * of the triangle BC_BVH_PREFETCH_NEAR on, the indices of the one
		 * BC_BVH_PREFETCH_FAR on, so the misses overlap. */
		if (i + BC_BVH_PREFETCH_FAR < begin + count) {
			BC_PREFETCH(mesh->triangles + 3 * (size_t)refs[i + BC_BVH_PREFETCH_FAR].triangle);
		}
		if (i + BC_BVH_PREFETCH_NEAR < begin + count) {
			const int32_t* ahead = mesh->triangles + 3 * (size_t)refs[i + BC_BVH_PREFETCH_NEAR].triangle;
			BC_PREFETCH(mesh->vertices + ahead[0]);
			BC_PREFETCH(mesh->vertices + ahead[1]);
			BC_PREFETCH(mesh->vertices + ahead[2]);
			BC_PREFETCH(mesh->normals + refs[i + BC_BVH_PREFETCH_NEAR].triangle);
		}
		int32_t t = refs[i].triangle;
		const int32_t* v = mesh->triangles + 3 * (size_t)t;
		bcBvhTriangle* packed = finish->bvh->packed + i;
		finish->bvh->order[i] = t;
		packed->a = mesh->vertices[v[0]];
		packed->b = mesh->vertices[v[1]];
		packed->c = mesh->vertices[v[2]];
		packed->n = mesh->normals[t];
		packed->index = t;
		packed->normalError = mesh->normalErrors[t];
	}
}

/* ---------------------------------------------------------- wide nodes */

/* A binary record's box, half its surface area (for choosing which inner
 * child to open next). */
static double bcRecordArea(const bcBvhChild* record)
{
	return bcHalfArea(record->lower, record->upper);
}

/* Put record into slot c of a wide node (the index is set by the caller
 * for inner children). */
static void bcSetWideSlot(bcBvhWideNode* node, int c, const bcBvhChild* record)
{
	for (int k = 0; k < 3; ++k) {
		node->bounds[k][0][c] = record->lower[k];
		node->bounds[k][1][c] = record->upper[k];
	}
	node->index[c] = record->index;
	node->count[c] = record->count;
}

/* The run of the triangle order under a binary record: a region's
 * triangles are one run, its first child's before its second's. */
static int32_t bcRecordCount(const bcBvh* bvh, bcBvhChild record, int32_t* first)
{
	bcBvhChild low = record, high = record;
	while (low.count == BC_BVH_INNER) {
		low = bvh->nodes[low.index].children[0];
	}
	while (high.count == BC_BVH_INNER) {
		high = bvh->nodes[high.index].children[1];
	}
	*first = low.index;
	return high.index + high.count - low.index;
}

/* A record the wide tree keeps whole as one leaf: a binary leaf, or an
 * inner record with at most BC_LEAF_LANES triangles under it (its box is
 * then the leaf's box). Measured on the bunny's short and long sweeps
 * (instructions per cast): leaves of at most 4 triangles, 6,307 and
 * 10,807; 6, 5,999 and 10,289; 8 (one block), 5,554 and 9,523; 16 (two
 * blocks), 6,260 and 10,846: fewer levels to walk no longer pay for the
 * lanes. */
static bool bcIsWideLeaf(const bcBvh* bvh, bcBvhChild record, int32_t* first, int32_t* count)
{
	if (record.count != BC_BVH_INNER) {
		*first = record.index;
		*count = record.count;
		return true;
	}
	*count = bcRecordCount(bvh, record, first);
	return *count <= BC_LEAF_LANES;
}

/* Fill wide node w from the binary inner record (or a lone leaf or empty
 * root), depth-first: each wide node's inner children get the next free
 * nodes after it, side by side. A leaf slot holds the run of the triangle
 * order it covers as (first, count) until bcMakeLeaves numbers its block.
 * Recursion at most BC_BVH_MAX_DEPTH deep, as the binary tree. */
static void bcBuildWide(const bcBvh* bvh, bcBvhWideNode* wide, int32_t* wideCount, int32_t w, bcBvhChild record)
{
	bcBvhChild slots[BC_BVH_WIDTH];
	int used = 0;
	int32_t first = 0, count = 0;
	if (!bcIsWideLeaf(bvh, record, &first, &count)) {
		slots[0] = bvh->nodes[record.index].children[0];
		slots[1] = bvh->nodes[record.index].children[1];
		used = 2;
		/* Open the inner child of largest area until the node is full. */
		while (used < BC_BVH_WIDTH) {
			int open = -1;
			double largest = -1.0;
			for (int c = 0; c < used; ++c) {
				double area = bcRecordArea(&slots[c]);
				if (!bcIsWideLeaf(bvh, slots[c], &first, &count) && area > largest) {
					open = c;
					largest = area;
				}
			}
			if (open < 0) {
				break;
			}
			const bcBvhNode* node = bvh->nodes + slots[open].index;
			slots[open] = node->children[0];
			slots[used++] = node->children[1];
		}
	} else if (record.count != 0) {
		slots[0] = record;
		used = 1;
	}
	bcBvhWideNode* node = wide + w;
	bcBvhChild empty;
	bcEmptyBounds(empty.lower, empty.upper);
	empty.index = 0;
	empty.count = 0;
	bool inner[BC_BVH_WIDTH] = { false, false, false, false };
	for (int c = 0; c < BC_BVH_WIDTH; ++c) {
		bcSetWideSlot(node, c, c < used ? &slots[c] : &empty);
		if (c < used) {
			inner[c] = !bcIsWideLeaf(bvh, slots[c], &first, &count);
			node->index[c] = inner[c] ? 0 : first;
			node->count[c] = inner[c] ? BC_BVH_INNER : count;
		}
	}
	int32_t next[BC_BVH_WIDTH];
	for (int c = 0; c < used; ++c) {
		if (inner[c]) {
			next[c] = (*wideCount)++;
			node->index[c] = next[c];
		}
	}
	for (int c = 0; c < used; ++c) {
		if (inner[c]) {
			bcBuildWide(bvh, wide, wideCount, next[c], slots[c]);
		}
	}
}

/* Where each leaf block comes from: a wide node's slot. */
typedef struct bcLeafJob {
	bcBvh* bvh;
	int64_t* slots; /* per block: 4 * wide node + slot */
} bcLeafJob;

/* Blocks per chunk of the parallel fill. */
#define BC_BVH_LEAF_CHUNK 4096

static void bcFillLeaves(void* context, int32_t chunk)
{
	bcLeafJob* job = context;
	bcBvh* bvh = job->bvh;
	int32_t begin = chunk * BC_BVH_LEAF_CHUNK;
	int32_t end = bvh->leafBlockCount - begin > BC_BVH_LEAF_CHUNK ? begin + BC_BVH_LEAF_CHUNK : bvh->leafBlockCount;
	for (int32_t b = begin; b < end; ++b) {
		const bcBvhWideNode* node = bvh->wide + job->slots[b] / BC_BVH_WIDTH;
		int c = job->slots[b] % BC_BVH_WIDTH;
		float lower[3], upper[3];
		for (int k = 0; k < 3; ++k) {
			lower[k] = node->bounds[k][0][c];
			upper[k] = node->bounds[k][1][c];
		}
		/* Until bcMakeLeaves renumbers it, the slot's index is its first entry. */
		int32_t first = node->index[c];
		bcLeafBlock* block = bvh->leaves + b;
		bcLeafBlock_Begin(block, first, node->count[c], lower, upper);
		for (int32_t i = 0; i < node->count[c]; ++i) {
			const bcBvhTriangle* t = bvh->packed + first + i;
			bcLeafBlock_SetLane(block, i, t->a, t->b, t->c, t->n, (double)t->normalError);
		}
	}
}

/* Number the wide tree's leaves in node order and fill their blocks (in
 * parallel: each block depends on its own triangles only). A leaf slot's
 * index becomes its block's number. */
static bool bcMakeLeaves(bcBvh* bvh, int threadCount)
{
	int32_t count = 0;
	for (int32_t w = 0; w < bvh->wideCount; ++w) {
		for (int c = 0; c < BC_BVH_WIDTH; ++c) {
			count += bvh->wide[w].count[c] > 0;
		}
	}
	bvh->leaves = bcAllocateLarge((size_t)(count > 0 ? count : 1) * sizeof *bvh->leaves);
	int64_t* slots = bcAlloc((size_t)(count > 0 ? count : 1) * sizeof *slots);
	if (bvh->leaves == NULL || slots == NULL) {
		bcFree(slots);
		return false;
	}
	bvh->leafBlockCount = count;
	int32_t b = 0;
	for (int32_t w = 0; w < bvh->wideCount; ++w) {
		for (int c = 0; c < BC_BVH_WIDTH; ++c) {
			if (bvh->wide[w].count[c] > 0) {
				slots[b++] = (int64_t)BC_BVH_WIDTH * w + c;
			}
		}
	}
	bcLeafJob job = { bvh, slots };
	bcRunParallel(bcFillLeaves, &job, (count + BC_BVH_LEAF_CHUNK - 1) / BC_BVH_LEAF_CHUNK, threadCount);
	for (int32_t i = 0; i < count; ++i) {
		bvh->wide[slots[i] / BC_BVH_WIDTH].index[slots[i] % BC_BVH_WIDTH] = i;
	}
	bcFree(slots);
	return true;
}

/* The wide tree, from the binary one. Each wide node opens at least one
 * binary node, so there are at most as many (plus a root for a lone leaf).
 * The array keeps that capacity: the pages past the nodes written are
 * never touched, so they take no memory, where copying the nodes into an
 * array of the right size touched their size anew (on the 1.3 M
 * icosphere, a cast's peak memory fell from 599 to 513 MB without the
 * copy, and the build took 0.4-0.5 s instead of 0.6-1.1). */
static bool bcMakeWide(bcBvh* bvh, int threadCount)
{
	int32_t capacity = bvh->nodeCount > 0 ? bvh->nodeCount : 1;
	bcBvhWideNode* wide = bcAllocateLarge((size_t)capacity * sizeof *wide);
	if (wide == NULL) {
		return false;
	}
	int32_t count = 1;
	bcBuildWide(bvh, wide, &count, 0, bvh->nodes[0].children[0]);
	bvh->wide = wide;
	bvh->wideCount = count;
	return bcMakeLeaves(bvh, threadCount);
}

bcBvh* bcBvh_CreateWithThreads(const struct bcMesh* mesh, int threadCount)
{
	if (mesh == NULL || mesh->triangleCount <= 0) {
		return NULL;
	}
	int threads = bcBuildThreadCount(threadCount, mesh->triangleCount);
	bcBvh* bvh = bcAllocZeroed(1, sizeof *bvh);
	bcBuildRef* refs = bcAlloc((size_t)mesh->triangleCount * sizeof *refs);
	bcRegion* root = bcAlloc(sizeof *root);
	int32_t refCount = bvh != NULL && refs != NULL && root != NULL ? bcPrepareRefs(mesh, refs, threads, root) : -1;
	if (refCount >= 0) {
		bvh->order = bcAlloc((size_t)(refCount > 0 ? refCount : 1) * sizeof *bvh->order);
		bvh->packed = bcAllocateLarge((size_t)(refCount > 0 ? refCount : 1) * sizeof *bvh->packed);
		bvh->orderCount = refCount;
	}
	if (refCount < 0 || bvh->order == NULL || bvh->packed == NULL) {
		bcBvh_Destroy(bvh);
		bcFree(refs);
		bcFree(root);
		return NULL;
	}

	bcBuilder builder = { 0 };
	builder.refs = refs;
	pthread_mutex_init(&builder.mutex, NULL);
	pthread_cond_init(&builder.wake, NULL);
	if (refCount > 0) {
		int32_t rootId = 0;
		bcPushTask(&builder, root, 1, &rootId);
		/* threads workers, each running tasks until none is left (a worker
		 * that starts late finds none and returns). */
		bcParallelFor(threads, 1, threads, bcWorkerTask, &builder);
	}

	int32_t* base = NULL;
	bool ok = !builder.failed && bcPlaceTasks(&builder, bvh, &base);
	if (ok) {
		bcFinish finish = { &builder, mesh, base, bvh, builder.taskCount };
		int32_t orderChunks = (refCount + BC_BVH_CHUNK_SIZE - 1) / BC_BVH_CHUNK_SIZE;
		bcRunParallel(bcFinishChunk, &finish, builder.taskCount + orderChunks, threads);
		bvh->info.triangleCount = refCount;
		double magnitude = 0.0;
		for (int k = 0; k < 3 && refCount > 0; ++k) {
			magnitude = fmax(magnitude, fabs((double)root->lower[k]));
			magnitude = fmax(magnitude, fabs((double)root->upper[k]));
		}
		bvh->magnitude = magnitude;
		bvh->simd = bcBvh_BestSimd();
		ok = bcMakeWide(bvh, threads);
	}

	bcFree(base);
	for (int32_t t = 0; t < builder.taskCount; ++t) {
		bcFree(builder.tasks[t]->nodes);
		bcFree(builder.tasks[t]);
	}
	bcFree(builder.tasks);
	bcFree(builder.pending);
	pthread_mutex_destroy(&builder.mutex);
	pthread_cond_destroy(&builder.wake);
	bcFree(refs);
	bcFree(root);
	if (!ok) {
		bcBvh_Destroy(bvh);
		return NULL;
	}
	return bvh;
}

bcBvh* bcBvh_Create(const struct bcMesh* mesh)
{
	return bcBvh_CreateWithThreads(mesh, 0);
}

void bcBvh_Destroy(bcBvh* bvh)
{
	if (bvh == NULL) {
		return;
	}
	bcFree(bvh->nodes);
	bcFree(bvh->wide);
	bcFree(bvh->order);
	bcFree(bvh->packed);
	bcFree(bvh->leaves);
	bcFree(bvh);
}

bcBvhInfo bcBvh_GetInfo(const bcBvh* bvh)
{
	bcBvhInfo info = { 0 };
	if (bvh != NULL) {
		info = bvh->info;
	}
	return info;
}

bcBvhData bcBvh_GetData(const bcBvh* bvh)
{
	bcBvhData data = { 0 };
	if (bvh != NULL) {
		data.nodes = bvh->nodes;
		data.nodeBytes = (size_t)bvh->nodeCount * sizeof(bcBvhNode);
		data.wideNodes = bvh->wide;
		data.wideNodeBytes = (size_t)bvh->wideCount * sizeof(bcBvhWideNode);
		data.leaves = bvh->leaves;
		data.leafBlockCount = bvh->leafBlockCount;
		data.triangles = bvh->order;
		data.triangleCount = bvh->orderCount;
	}
	return data;
}

/* --------------------------------------------------------------- query */

/* The padding margin for a query at p with radius r (see BC_BVH_PAD_RELATIVE). */
static double bcQueryPad(const bcBvh* bvh, bcVec3 p, double radius)
{
	double ax = fabs(p.x), ay = fabs(p.y), az = fabs(p.z);
	double pMax = ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az);
	return BC_BVH_PAD_RELATIVE * (pMax + bvh->magnitude + radius) + BC_BVH_PAD_ABSOLUTE;
}

/* Pop the nearest pending child whose key is still within limit into
 * *current and *key; false when none is left. */
static inline bool bcPopWithin(const bcBvhPending* stack, int* top, double limit, const bcBvhChild** current,
							   double* key)
{
	while (*top > 0) {
		*top -= 1;
		if (stack[*top].key <= limit) {
			*current = stack[*top].child;
			*key = stack[*top].key;
			return true;
		}
	}
	return false;
}

/* The segment, prepared for slab tests against boxes grown by r + pad.
 * An axis the segment does not move along (d = +-0, or so small that 1 / d
 * overflows: then it moves less than the padding) gets 1 / d = +-infinity:
 * a box bound beyond p then gives an alpha of +-infinity, one behind it
 * the opposite, and a bound exactly at p (0 * infinity) a NaN, which the
 * comparisons below ignore, as a closed box should. So every axis takes the
 * same branch-free path. */
typedef struct bcSweep {
	double near[3];    /* p + g moving up (so lower - near is lower - g - p), p - g moving down */
	double far[3];     /* the other */
	double inverse[3]; /* 1 / d */
	bool negative[3];  /* inverse < 0: the upper bound is met first */
	bool sphere;       /* a short segment: also test the ball around it */
	double center[3];  /* the segment's midpoint */
	double reach2;     /* (g + half the segment's length)^2, a little over */
} bcSweep;

/* Segments up to this many times g long are also bounded by a ball: the
 * slab test accepts a box the swept ball's bounding box touches, up to
 * sqrt(3) g away at the corners, and for a short segment (the swept ball
 * nearly a ball) the ball around it (radius g + length / 2) cuts those
 * corners off; for longer segments that ball is wider than the slabs. */
#define BC_BVH_SPHERE_LENGTH 2.0

/* The ball test rounds up its radius by this (the midpoint and the length
 * carry a few ulps; the padding g already covers the boxes' rounding). */
#define BC_BVH_SPHERE_SLACK 1e-9

/* ------------------------------------------------- the swept-ball walk
 *
 * The walk tests the four boxes of a wide node at once and goes on with the
 * nearest child it meets, the others pushed nearest last (front to back).
 * A box test is a slab test in double precision on the float bounds grown
 * by g (bcWideChildScalar), then for short segments the ball test. The
 * SSE2 and AVX2 node tests do the very same operations (subtract, multiply,
 * max and min, whose NaN rules are those of the scalar comparisons: the
 * second operand wins, add in the same order), so all three give the same
 * entries and the same verdicts bit for bit, and the same walk. A bound
 * exactly at p on an axis without motion gives 0 * infinity, a NaN, which
 * leaves [tNear, tFar] as it is, as a closed box should. */

/* The stack of a wide walk: at most three siblings pushed per level. */
#define BC_BVH_WIDE_STACK (3 * BC_BVH_MAX_DEPTH + 1)

typedef struct bcWidePending {
	int32_t index;
	int32_t count;
	double key;
} bcWidePending;

/* The sweep's numbers for one axis, as the node tests read them: the bound
 * met first (upper when moving down) is bounds[k][first[k]]. */
typedef struct bcWideSweep {
	bcSweep s;
	int first[3];
} bcWideSweep;

/* One box of a wide node: does the segment, for alpha in [0, maxAlpha],
 * meet it grown by g (and, with sphere, come within reach of its
 * midpoint)? entry: the alpha it enters at (0 if it starts inside). */
static inline bool bcWideChildScalar(const bcWideSweep* w, const bcBvhWideNode* node, int c, double maxAlpha,
									 bool sphere, double* entry)
{
	const bcSweep* s = &w->s;
	double tNear = 0.0, tFar = maxAlpha;
	for (int k = 0; k < 3; ++k) {
		double t0 = ((double)node->bounds[k][w->first[k]][c] - s->near[k]) * s->inverse[k];
		double t1 = ((double)node->bounds[k][1 - w->first[k]][c] - s->far[k]) * s->inverse[k];
		tNear = t0 > tNear ? t0 : tNear;
		tFar = t1 < tFar ? t1 : tFar;
	}
	*entry = tNear;
	if (!(tNear <= tFar)) {
		return false;
	}
	if (sphere) {
		double distance2 = 0.0;
		for (int k = 0; k < 3; ++k) {
			double below = (double)node->bounds[k][0][c] - s->center[k];
			double above = s->center[k] - (double)node->bounds[k][1][c];
			double gap = below > above ? below : above;
			double g2 = gap > 0.0 ? gap * gap : 0.0;
			distance2 = k == 0 ? g2 : distance2 + g2;
		}
		return distance2 <= s->reach2;
	}
	return true;
}

static inline BC_ALWAYS_INLINE int bcWideTestScalar(const bcWideSweep* w, const bcBvhWideNode* node,
													 double maxAlpha, bool sphere, double entries[BC_BVH_WIDTH])
{
	int mask = 0;
	for (int c = 0; c < BC_BVH_WIDTH; ++c) {
		mask |= bcWideChildScalar(w, node, c, maxAlpha, sphere, &entries[c]) ? 1 << c : 0;
	}
	return mask;
}

#if BC_BVH_X86
/* Two boxes at a time: children h and h + 1. */
static inline BC_ALWAYS_INLINE int bcWideHalfSse2(const bcWideSweep* w, const bcBvhWideNode* node, int h,
												   __m128d maxAlpha, bool sphere, double* entries)
{
	const bcSweep* s = &w->s;
	__m128d tNear = _mm_setzero_pd();
	__m128d tFar = maxAlpha;
	for (int k = 0; k < 3; ++k) {
		__m128d first = _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd((const double*)&node->bounds[k][w->first[k]][h])));
		__m128d second =
			_mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd((const double*)&node->bounds[k][1 - w->first[k]][h])));
		__m128d inverse = _mm_set1_pd(s->inverse[k]);
		__m128d t0 = _mm_mul_pd(_mm_sub_pd(first, _mm_set1_pd(s->near[k])), inverse);
		__m128d t1 = _mm_mul_pd(_mm_sub_pd(second, _mm_set1_pd(s->far[k])), inverse);
		tNear = _mm_max_pd(t0, tNear); /* t0 > tNear ? t0 : tNear */
		tFar = _mm_min_pd(t1, tFar);   /* t1 < tFar ? t1 : tFar */
	}
	_mm_storeu_pd(entries, tNear);
	__m128d in = _mm_cmple_pd(tNear, tFar);
	if (sphere) {
		__m128d distance2 = _mm_setzero_pd();
		for (int k = 0; k < 3; ++k) {
			__m128d lower = _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd((const double*)&node->bounds[k][0][h])));
			__m128d upper = _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd((const double*)&node->bounds[k][1][h])));
			__m128d center = _mm_set1_pd(s->center[k]);
			__m128d gap = _mm_max_pd(_mm_sub_pd(lower, center), _mm_sub_pd(center, upper));
			__m128d g2 = _mm_and_pd(_mm_cmpgt_pd(gap, _mm_setzero_pd()), _mm_mul_pd(gap, gap));
			distance2 = k == 0 ? g2 : _mm_add_pd(distance2, g2);
		}
		in = _mm_and_pd(in, _mm_cmple_pd(distance2, _mm_set1_pd(s->reach2)));
	}
	return _mm_movemask_pd(in);
}

static inline BC_ALWAYS_INLINE int bcWideTestSse2(const bcWideSweep* w, const bcBvhWideNode* node, double maxAlpha,
												   bool sphere, double entries[BC_BVH_WIDTH])
{
	__m128d limit = _mm_set1_pd(maxAlpha);
	return bcWideHalfSse2(w, node, 0, limit, sphere, entries) |
		   bcWideHalfSse2(w, node, 2, limit, sphere, entries + 2) << 2;
}

/* Four boxes at a time. */
static inline BC_ALWAYS_INLINE BC_TARGET_AVX2 int bcWideTestAvx2(const bcWideSweep* w, const bcBvhWideNode* node,
																   double maxAlpha, bool sphere,
																   double entries[BC_BVH_WIDTH])
{
	const bcSweep* s = &w->s;
	__m256d tNear = _mm256_setzero_pd();
	__m256d tFar = _mm256_set1_pd(maxAlpha);
	for (int k = 0; k < 3; ++k) {
		__m256d first = _mm256_cvtps_pd(_mm_load_ps(node->bounds[k][w->first[k]]));
		__m256d second = _mm256_cvtps_pd(_mm_load_ps(node->bounds[k][1 - w->first[k]]));
		__m256d inverse = _mm256_set1_pd(s->inverse[k]);
		__m256d t0 = _mm256_mul_pd(_mm256_sub_pd(first, _mm256_set1_pd(s->near[k])), inverse);
		__m256d t1 = _mm256_mul_pd(_mm256_sub_pd(second, _mm256_set1_pd(s->far[k])), inverse);
		tNear = _mm256_max_pd(t0, tNear);
		tFar = _mm256_min_pd(t1, tFar);
	}
	_mm256_storeu_pd(entries, tNear);
	__m256d in = _mm256_cmp_pd(tNear, tFar, _CMP_LE_OQ);
	if (sphere) {
		__m256d distance2 = _mm256_setzero_pd();
		for (int k = 0; k < 3; ++k) {
			__m256d lower = _mm256_cvtps_pd(_mm_load_ps(node->bounds[k][0]));
			__m256d upper = _mm256_cvtps_pd(_mm_load_ps(node->bounds[k][1]));
			__m256d center = _mm256_set1_pd(s->center[k]);
			__m256d gap = _mm256_max_pd(_mm256_sub_pd(lower, center), _mm256_sub_pd(center, upper));
			__m256d g2 =
				_mm256_and_pd(_mm256_cmp_pd(gap, _mm256_setzero_pd(), _CMP_GT_OQ), _mm256_mul_pd(gap, gap));
			distance2 = k == 0 ? g2 : _mm256_add_pd(distance2, g2);
		}
		in = _mm256_and_pd(in, _mm256_cmp_pd(distance2, _mm256_set1_pd(s->reach2), _CMP_LE_OQ));
	}
	return _mm256_movemask_pd(in);
}
#endif

/* The index of the lowest bit set in mask (not 0). */
static inline BC_ALWAYS_INLINE int bcLowestBit(int mask)
{
#if defined(__GNUC__)
	return __builtin_ctz((unsigned)mask);
#else
	int i = 0;
	while ((mask >> i & 1) == 0) {
		++i;
	}
	return i;
#endif
}

/* Ask for a child's memory ahead of its use: a wide node's two lines, or
 * a leaf's block (288 bytes). */
static inline BC_ALWAYS_INLINE void bcPrefetchChild(const bcBvh* bvh, int32_t index, int32_t count)
{
	if (count == BC_BVH_INNER) {
		const char* node = (const char*)(bvh->wide + index);
		BC_PREFETCH(node);
		BC_PREFETCH(node + 64);
		return;
	}
	const char* block = (const char*)(bvh->leaves + index);
	for (size_t line = 0; line < sizeof(bcLeafBlock); line += 64) {
		BC_PREFETCH(block + line);
	}
}

/* The ordered walk's queue: children met and triangles kept, each with
 * its key (a child's entry alpha, a triangle's lower bound), in a binary
 * heap, the least key on top. It holds at most BC_BVH_QUEUE items; what
 * does not fit is walked at once, in the plain walk's order (never wrong,
 * only slower). A short sweep keeps a few dozen. */
#define BC_BVH_QUEUE 1024

/* A queued triangle's count: its index is its entry of the triangle order. */
#define BC_BVH_QUEUED_TRIANGLE (-3)

typedef struct bcQueued {
	double key;
	int32_t index; /* wide node, leaf block or triangle entry */
	int32_t count; /* BC_BVH_INNER, the leaf's triangles, or BC_BVH_QUEUED_TRIANGLE */
} bcQueued;

typedef struct bcQueue {
	int count;
	bcQueued items[BC_BVH_QUEUE];
} bcQueue;

static inline BC_ALWAYS_INLINE void bcQueuePush(bcQueue* q, double key, int32_t index, int32_t count)
{
	int i = q->count++;
	while (i > 0 && key < q->items[(i - 1) / 2].key) {
		q->items[i] = q->items[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->items[i].key = key;
	q->items[i].index = index;
	q->items[i].count = count;
}

/* The least item, taken off the queue (which must not be empty). */
static inline BC_ALWAYS_INLINE bcQueued bcQueuePop(bcQueue* q)
{
	bcQueued top = q->items[0];
	bcQueued last = q->items[--q->count];
	int i = 0;
	for (;;) {
		int child = 2 * i + 1;
		if (child >= q->count) {
			break;
		}
		if (child + 1 < q->count && q->items[child + 1].key < q->items[child].key) {
			child += 1;
		}
		if (!(q->items[child].key < last.key)) {
			break;
		}
		q->items[i] = q->items[child];
		i = child;
	}
	q->items[i] = last;
	return top;
}

typedef int bcWideTestFcn(const bcWideSweep* w, const bcBvhWideNode* node, double maxAlpha, bool sphere,
						  double entries[BC_BVH_WIDTH]);

typedef int bcLeafBoundsFcn(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
							float bounds[BC_LEAF_LANES]);

/* The plain walk (bcBvh_QuerySweep), specialised by its callers for a
 * node test and for the ball test on or off (rays and long sweeps go
 * without): depth first, nearest child first, each met leaf's triangles
 * visited at once, in order. It starts from the node or leaf (index,
 * count) met at alpha entry. */
static inline BC_ALWAYS_INLINE void bcWalkWide(const bcBvh* bvh, const bcWideSweep* w, double* maxAlpha,
												bcBvhVisitFcn* visit, void* context, bcWideTestFcn* test,
												bool sphere, int32_t index, int32_t count, double entry)
{
	bcWidePending stack[BC_BVH_WIDE_STACK];
	int top = 0;
	const bcBvhWideNode* nodes = bvh->wide;
	for (;;) {
		if (count == BC_BVH_INNER) {
			const bcBvhWideNode* node = nodes + index;
			double entries[BC_BVH_WIDTH];
			int mask = test(w, node, *maxAlpha, sphere, entries);
			/* The children met, nearest first (insertion sort; equal entries
			 * keep slot order). */
			int order[BC_BVH_WIDTH];
			int n = 0;
			for (int c = 0; c < BC_BVH_WIDTH; ++c) {
				if ((mask >> c & 1) == 0 || node->count[c] == 0) {
					continue;
				}
				int j = n++;
				while (j > 0 && entries[order[j - 1]] > entries[c]) {
					order[j] = order[j - 1];
					j -= 1;
				}
				order[j] = c;
			}
			if (n > 0) {
				/* Every child met is fetched now, while the nearest is
				 * walked: its node or its leaf is in the cache by the time
				 * the walk comes back to it. */
				for (int j = 0; j < n; ++j) {
					bcPrefetchChild(bvh, node->index[order[j]], node->count[order[j]]);
				}
				for (int j = n - 1; j > 0; --j) {
					int c = order[j];
					stack[top].index = node->index[c];
					stack[top].count = node->count[c];
					stack[top].key = entries[c];
					top += 1;
				}
				int c = order[0];
				index = node->index[c];
				count = node->count[c];
				entry = entries[c];
				continue;
			}
		} else {
			const bcLeafBlock* leaf = bvh->leaves + index;
			for (int32_t i = 0; i < count; ++i) {
				visit(context, bvh->packed + leaf->first + i, maxAlpha);
				if (!(entry <= *maxAlpha)) {
					break;
				}
			}
		}
		/* The nearest pending sibling still in reach. */
		for (;;) {
			if (top == 0) {
				return;
			}
			top -= 1;
			if (stack[top].key <= *maxAlpha) {
				break;
			}
		}
		index = stack[top].index;
		count = stack[top].count;
		entry = stack[top].key;
	}
}

/* The ordered walk (bcBvh_QuerySweepOrdered): best first. The least item
 * of the queue is taken: a node's met children are queued at their entry
 * alphas, a leaf's triangles that may touch at their lower bounds
 * (bounds: leaf_bound.c), and a triangle is visited; until the least key
 * is past *maxAlpha. So a triangle is visited only when no node still to
 * be opened, and no other triangle, can hold an earlier contact. */
static inline BC_ALWAYS_INLINE void bcWalkOrdered(const bcBvh* bvh, const bcWideSweep* w, double* maxAlpha,
												   bcBvhVisitFcn* visit, void* context, bcWideTestFcn* test,
												   bool sphere, bcLeafBoundsFcn* bounds, const bcLeafQuery* query)
{
	bcQueue queue;
	queue.count = 0;
	bcQueued item = { 0.0, 0, BC_BVH_INNER };
	for (;;) {
		if (item.count == BC_BVH_QUEUED_TRIANGLE) {
			visit(context, bvh->packed + item.index, maxAlpha);
		} else if (item.count == BC_BVH_INNER) {
			const bcBvhWideNode* node = bvh->wide + item.index;
			double entries[BC_BVH_WIDTH];
			int mask = test(w, node, *maxAlpha, sphere, entries);
			/* The nearest child met is kept aside, the others queued; it is
			 * taken next, without the queue, unless something queued is
			 * nearer (then it is queued too). */
			int nearest = -1;
			for (; mask != 0; mask &= mask - 1) {
				int c = bcLowestBit(mask);
				if (node->count[c] == 0) {
					continue;
				}
				bcPrefetchChild(bvh, node->index[c], node->count[c]);
				int queued = c;
				if (nearest < 0 || entries[c] < entries[nearest]) {
					queued = nearest;
					nearest = c;
				}
				if (queued < 0) {
					continue;
				}
				if (queue.count < BC_BVH_QUEUE) {
					bcQueuePush(&queue, entries[queued], node->index[queued], node->count[queued]);
				} else {
					bcWalkWide(bvh, w, maxAlpha, visit, context, test, sphere, node->index[queued],
							   node->count[queued], entries[queued]);
				}
			}
			if (nearest >= 0) {
				if (queue.count == 0 || entries[nearest] <= queue.items[0].key) {
					item.key = entries[nearest];
					item.index = node->index[nearest];
					item.count = node->count[nearest];
					continue;
				}
				if (queue.count < BC_BVH_QUEUE) {
					bcQueuePush(&queue, entries[nearest], node->index[nearest], node->count[nearest]);
				} else {
					bcWalkWide(bvh, w, maxAlpha, visit, context, test, sphere, node->index[nearest],
							   node->count[nearest], entries[nearest]);
				}
			}
		} else {
			const bcLeafBlock* leaf = bvh->leaves + item.index;
			float keys[BC_LEAF_LANES];
			int keep = bounds(leaf, query, item.key, *maxAlpha, keys);
			for (; keep != 0; keep &= keep - 1) {
				int i = bcLowestBit(keep);
				int32_t entry = leaf->first + i;
				if (queue.count < BC_BVH_QUEUE) {
					const char* record = (const char*)(bvh->packed + entry);
					BC_PREFETCH(record);
					BC_PREFETCH(record + sizeof(bcBvhTriangle) - 1);
					bcQueuePush(&queue, (item.key + (double)keys[i]) - BC_LEAF_KEY_STEP, entry, BC_BVH_QUEUED_TRIANGLE);
				} else {
					visit(context, bvh->packed + entry, maxAlpha);
				}
			}
		}
		if (queue.count == 0) {
			return;
		}
		item = bcQueuePop(&queue);
		if (!(item.key <= *maxAlpha)) {
			return;
		}
	}
}

static void bcWalkScalar(const bcBvh* bvh, const bcWideSweep* w, double* maxAlpha, bcBvhVisitFcn* visit,
						 void* context, const bcLeafQuery* query)
{
	if (query == NULL) {
		bcWalkWide(bvh, w, maxAlpha, visit, context, bcWideTestScalar, w->s.sphere, 0, BC_BVH_INNER, 0.0);
	} else {
		bcWalkOrdered(bvh, w, maxAlpha, visit, context, bcWideTestScalar, w->s.sphere, bcLeafBounds_Scalar, query);
	}
}

#if BC_BVH_X86
static void bcWalkSse2(const bcBvh* bvh, const bcWideSweep* w, double* maxAlpha, bcBvhVisitFcn* visit, void* context,
					   const bcLeafQuery* query)
{
	if (query == NULL) {
		if (w->s.sphere) {
			bcWalkWide(bvh, w, maxAlpha, visit, context, bcWideTestSse2, true, 0, BC_BVH_INNER, 0.0);
		} else {
			bcWalkWide(bvh, w, maxAlpha, visit, context, bcWideTestSse2, false, 0, BC_BVH_INNER, 0.0);
		}
	} else if (w->s.sphere) {
		bcWalkOrdered(bvh, w, maxAlpha, visit, context, bcWideTestSse2, true, bcLeafBounds_Sse2, query);
	} else {
		bcWalkOrdered(bvh, w, maxAlpha, visit, context, bcWideTestSse2, false, bcLeafBounds_Sse2, query);
	}
}

BC_TARGET_AVX2 static void bcWalkAvx2(const bcBvh* bvh, const bcWideSweep* w, double* maxAlpha,
									   bcBvhVisitFcn* visit, void* context, const bcLeafQuery* query)
{
	if (query == NULL) {
		if (w->s.sphere) {
			bcWalkWide(bvh, w, maxAlpha, visit, context, bcWideTestAvx2, true, 0, BC_BVH_INNER, 0.0);
		} else {
			bcWalkWide(bvh, w, maxAlpha, visit, context, bcWideTestAvx2, false, 0, BC_BVH_INNER, 0.0);
		}
	} else if (w->s.sphere) {
		bcWalkOrdered(bvh, w, maxAlpha, visit, context, bcWideTestAvx2, true, bcLeafBounds_Avx2, query);
	} else {
		bcWalkOrdered(bvh, w, maxAlpha, visit, context, bcWideTestAvx2, false, bcLeafBounds_Avx2, query);
	}
}
#endif

bcBvhSimd bcBvh_BestSimd(void)
{
#if BC_BVH_X86
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") ? bc_simdAvx2 : bc_simdSse2;
#else
	return bc_simdScalar;
#endif
}

bcBvhSimd bcBvh_GetSimd(const bcBvh* bvh)
{
	return bvh != NULL ? bvh->simd : bc_simdScalar;
}

bool bcBvh_SetSimd(bcBvh* bvh, bcBvhSimd simd)
{
	if (bvh == NULL || simd < bc_simdScalar || simd > bcBvh_BestSimd()) {
		return false;
	}
	bvh->simd = simd;
	return true;
}

/* The swept-ball walk, ordered by the leaves' bounds when query is not
 * NULL. */
static void bcQuerySweepWith(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
							 bcBvhVisitFcn* visit, void* context, const bcLeafQuery* query)
{
	double r = radius > 0.0 ? radius : 0.0;
	double grow = r + bcQueryPad(bvh, p0, r);
	bcWideSweep w;
	bcSweep* s = &w.s;
	for (int k = 0; k < 3; ++k) {
		double p = bcComponent(p0, k);
		double dk = bcComponent(d, k);
		double inverse = dk != 0.0 ? 1.0 / dk : copysign(INFINITY, dk);
		s->inverse[k] = inverse;
		s->negative[k] = inverse < 0.0;
		w.first[k] = inverse < 0.0 ? 1 : 0;
		/* Moving up, the lower bound (lower - g) is met first, when
		 * p + t d = lower - g: t = (lower - (p + g)) / d. */
		s->near[k] = inverse < 0.0 ? p - grow : p + grow;
		s->far[k] = inverse < 0.0 ? p + grow : p - grow;
		s->center[k] = p + 0.5 * dk;
	}
	double half = 0.5 * sqrt(bcDot(d, d));
	double reach = (grow + half) * (1.0 + BC_BVH_SPHERE_SLACK);
	s->sphere = half <= 0.5 * BC_BVH_SPHERE_LENGTH * grow && isfinite(reach * reach);
	s->reach2 = reach * reach;
	switch (bvh->simd) {
#if BC_BVH_X86
	case bc_simdAvx2:
		bcWalkAvx2(bvh, &w, maxAlpha, visit, context, query);
		break;
	case bc_simdSse2:
		bcWalkSse2(bvh, &w, maxAlpha, visit, context, query);
		break;
#endif
	default:
		bcWalkScalar(bvh, &w, maxAlpha, visit, context, query);
		break;
	}
}

void bcBvh_QuerySweep(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
					  bcBvhVisitFcn* visit, void* context)
{
	if (bvh == NULL || maxAlpha == NULL || visit == NULL || bvh->wide == NULL) {
		return;
	}
	bcQuerySweepWith(bvh, p0, d, radius, maxAlpha, visit, context, NULL);
}

void bcBvh_QuerySweepOrdered(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, bool twoSided,
							 double* maxAlpha, bcBvhVisitFcn* visit, void* context)
{
	if (bvh == NULL || maxAlpha == NULL || visit == NULL || bvh->wide == NULL) {
		return;
	}
	bcLeafQuery query = bcLeafQuery_Make(p0, d, radius > 0.0 ? radius : 0.0, twoSided);
	bcQuerySweepWith(bvh, p0, d, radius, maxAlpha, visit, context, &query);
}

/* Distance from p to the child's box grown by pad (a lower bound of the
 * distance to the box itself even after rounding). */
static inline double bcPointDistance(bcVec3 p, double pad, const bcBvhChild* child)
{
	double gap[3];
	for (int k = 0; k < 3; ++k) {
		double c = bcComponent(p, k);
		double below = ((double)child->lower[k] - pad) - c;
		double above = c - ((double)child->upper[k] + pad);
		double g = below > above ? below : above;
		gap[k] = g > 0.0 ? g : 0.0;
	}
	double distance = sqrt(gap[0] * gap[0] + gap[1] * gap[1] + gap[2] * gap[2]);
	if (!(distance <= DBL_MAX)) {
		/* The squares overflowed: the largest gap still bounds from below. */
		distance = fmax(gap[0], fmax(gap[1], gap[2]));
	}
	return distance;
}

void bcBvh_QueryPoint(const bcBvh* bvh, bcVec3 p, double* maxDistance, bcBvhPointFcn* visit, void* context)
{
	if (bvh == NULL || maxDistance == NULL || visit == NULL) {
		return;
	}
	double pad = bcQueryPad(bvh, p, 0.0);
	bcBvhPending stack[BC_BVH_STACK_SIZE];
	int top = 0;
	const bcBvhNode* nodes = bvh->nodes;
	const bcBvhChild* current = &nodes[0].children[0];
	double entry = current->count != 0 ? bcPointDistance(p, pad, current) : INFINITY;
	if (current->count == 0 || !(entry <= *maxDistance)) {
		return;
	}
	for (;;) {
		if (current->count == BC_BVH_INNER) {
			const bcBvhNode* node = nodes + current->index;
			const bcBvhChild* a = &node->children[0];
			const bcBvhChild* b = &node->children[1];
			double da = bcPointDistance(p, pad, a);
			double db = bcPointDistance(p, pad, b);
			if (bcBvh_Descend(stack, &top, a, da, da <= *maxDistance, b, db, db <= *maxDistance, &current, &entry)) {
				continue;
			}
		} else {
			for (int32_t i = 0; i < current->count; ++i) {
				visit(context, bvh->order[current->index + i], maxDistance);
				if (!(entry <= *maxDistance)) {
					break;
				}
			}
		}
		if (!bcPopWithin(stack, &top, *maxDistance, &current, &entry)) {
			return;
		}
	}
}
