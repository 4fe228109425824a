/* bvh.h - bounding volume hierarchy over a mesh's triangles (private). */
#ifndef BC_BVH_H
#define BC_BVH_H

#include "ballcast.h"
#include "leaf_bound.h"

typedef struct bcBvh bcBvh;

/* The deepest a tree gets (levels, the root being level 1): the SAH picks
 * splits for 64 levels, then regions are halved, and 2^31 triangles halve to
 * a leaf of at most 4 in 29 more. Queries keep a stack of this size. */
#define BC_BVH_MAX_DEPTH 94

/* The node layout (see bvh.c): a flat array of 64-byte nodes, node 0 a
 * header whose first child is the root. A child is a float box rounded
 * outward from the double coordinates, and either an inner node (count
 * BC_BVH_INNER, index its node) or a leaf (count triangles, from entry
 * index of the triangle order). Read by the point search in nearest.c. */
#define BC_BVH_INNER (-1)

typedef struct bcBvhChild {
	float lower[3];
	int32_t index; /* inner: node index; leaf: first entry of the triangle order */
	float upper[3];
	int32_t count; /* leaf: number of triangles (0: empty); BC_BVH_INNER for a node */
} bcBvhChild;

typedef struct bcBvhNode {
	bcBvhChild children[2];
} bcBvhNode;

/* The swept-ball walk's own copy of the tree: 4-wide nodes, made from the
 * binary nodes above by pulling each node's grandchildren up (the larger
 * inner child first) until it has four children. A binary subtree of at
 * most BC_LEAF_LANES (8) triangles becomes one leaf, with its box, and
 * each leaf has a block of its triangles in float (bcLeafBlock,
 * leaf_bound.h), numbered in node order. The boxes are the binary
 * nodes' float boxes, unchanged, so they are as conservative. Structure of
 * arrays, so that one SIMD instruction tests one axis of all four boxes:
 * bounds[axis][0] are the four lower bounds, bounds[axis][1] the upper. An
 * unused slot has count 0 and an empty box (lower +inf, upper -inf). Node 0
 * is the root. Two cache lines (128 bytes, 64-byte aligned). */
#define BC_BVH_WIDTH 4

typedef struct bcBvhWideNode {
	float bounds[3][2][BC_BVH_WIDTH];
	int32_t index[BC_BVH_WIDTH]; /* inner: wide node index; leaf: its block (bcBvhData.leaves) */
	int32_t count[BC_BVH_WIDTH]; /* leaf: number of triangles (1 .. BC_LEAF_LANES); BC_BVH_INNER; 0: unused */
} bcBvhWideNode;

/* How the swept-ball walk tests a node's four boxes: one box at a time in
 * plain C (any CPU), two at a time (SSE2, every x86-64), or four (AVX2,
 * where the CPU has it). The same double arithmetic in the same order, so
 * all three give the same answers bit for bit; the fastest the CPU supports
 * is chosen when the hierarchy is built and kept in it. */
typedef enum bcBvhSimd {
	bc_simdScalar = 0,
	bc_simdSse2,
	bc_simdAvx2
} bcBvhSimd;

/* The walk a hierarchy uses, and, for tests, another one: false (and no
 * change) when this CPU or build cannot run it. Not thread-safe: set it
 * before the hierarchy is shared. */
bcBvhSimd bcBvh_GetSimd(const struct bcBvh* bvh);
bool bcBvh_SetSimd(struct bcBvh* bvh, bcBvhSimd simd);

/* The best walk this CPU and build support. */
bcBvhSimd bcBvh_BestSimd(void);

/* A child a walk will come back to, with its key (an entry alpha, a
 * distance): the walks keep at most one per level, BC_BVH_MAX_DEPTH. */
typedef struct bcBvhPending {
	const bcBvhChild* child;
	double key;
} bcBvhPending;

/* One step down from an inner node, shared by the hierarchy's walks: its
 * children a and b have keys ka and kb and are in reach or not. *current
 * and *key become the nearer child in reach (a on a tie), and the other,
 * when also in reach, is pushed on the stack. False when neither is. */
static inline bool bcBvh_Descend(bcBvhPending* stack, int* top, const bcBvhChild* a, double ka, bool inA,
								 const bcBvhChild* b, double kb, bool inB, const bcBvhChild** current, double* key)
{
	if (inA && inB) {
		bool bFirst = kb < ka;
		stack[*top].child = bFirst ? a : b;
		stack[*top].key = bFirst ? ka : kb;
		*top += 1;
		*current = bFirst ? b : a;
		*key = bFirst ? kb : ka;
		return true;
	}
	if (inA || inB) {
		*current = inA ? a : b;
		*key = inA ? ka : kb;
		return true;
	}
	return false;
}

/* Build a hierarchy over mesh->triangles (degenerate triangles left out).
 * Reads mesh->vertices, triangles, triangleCount, normals. Returns NULL on
 * out-of-memory or an empty mesh. The caller owns the result. (A mesh whose
 * triangles are all degenerate gets an empty hierarchy, not NULL: queries
 * on it visit nothing.) */
bcBvh* bcBvh_Create(const struct bcMesh* mesh);

/* As bcBvh_Create with threadCount build threads (<= 0: one per online core,
 * fewer for small meshes). The tree, byte for byte, does not depend on it. */
bcBvh* bcBvh_CreateWithThreads(const struct bcMesh* mesh, int threadCount);

/* Free a hierarchy. NULL is allowed. */
void bcBvh_Destroy(bcBvh* bvh);

/* A triangle of the tree, copied in leaf order so that a leaf's triangles
 * lie side by side in memory (a query reads one run of these records, not
 * an index, a normal and three vertices scattered over the mesh's arrays).
 * The doubles are exact copies of the mesh's. 104 bytes. */
typedef struct bcBvhTriangle {
	bcVec3 a, b, c; /* the vertices, in the mesh's order */
	bcVec3 n;       /* the unit front normal, (b - a) x (c - a) normalised */
	int32_t index;  /* the triangle's index in the mesh */
	float normalError; /* a bound on n's error (bcTriangleNormalError, rounded up) */
} bcBvhTriangle;

/* Called for a triangle whose box the swept ball may touch. The callback
 * tests the triangle and may lower *maxAlpha; later nodes whose entry alpha
 * exceeds *maxAlpha are skipped. triangle points into the hierarchy. */
typedef void bcBvhVisitFcn(void* context, const bcBvhTriangle* triangle, double* maxAlpha);

/* Visit, nearest node first, every triangle whose bounding box, grown by
 * radius, the segment p0 + alpha * d meets for some alpha in [0, *maxAlpha]
 * and which lies within radius + |d| / 2 of the segment's midpoint (the
 * swept ball's bounding ball; others may be visited too).
 * The box test is conservative (boxes are padded for rounding), so no
 * triangle the exact test would hit is ever skipped. */
void bcBvh_QuerySweep(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
					  bcBvhVisitFcn* visit, void* context);

/* As bcBvh_QuerySweep, but the triangles of each leaf met are first given
 * a lower bound on the alpha of their first contact with the ball
 * (leaf_bound.c: in float, a leaf at a time; contacts counted from the
 * front only unless twoSided) and visited in the order of those bounds,
 * least first, interleaved with the walk: a triangle is visited before
 * the walk enters a node whose entry alpha is later than its bound. A
 * triangle whose bound is later than *maxAlpha (as it stands when its leaf
 * is met or its turn comes) is never visited: it has no contact at or
 * before *maxAlpha (the bound is never later than any alpha the exact
 * test gives it, error included). So a caller that lowers *maxAlpha to
 * the earliest contact found (plus its tie window) ends the walk after
 * the few triangles whose bounds are below it. */
void bcBvh_QuerySweepOrdered(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, bool twoSided,
							 double* maxAlpha, bcBvhVisitFcn* visit, void* context);

/* Visit, nearest node first, every triangle whose box is within *maxDistance
 * of point p; the callback may lower *maxDistance. */
typedef void bcBvhPointFcn(void* context, int32_t triangle, double* maxDistance);
void bcBvh_QueryPoint(const bcBvh* bvh, bcVec3 p, double* maxDistance, bcBvhPointFcn* visit, void* context);

/* Node and depth counts, for --stats and tests. */
typedef struct bcBvhInfo {
	int32_t nodeCount;     /* tree nodes, inner and leaf (2 * leafCount - 1 unless empty) */
	int32_t leafCount;     /* leaves, each of 1 to 4 triangles */
	int32_t maxDepth;      /* levels on the longest root-to-leaf path (a lone leaf: 1) */
	int32_t triangleCount; /* triangles in the tree: the non-degenerate ones */
} bcBvhInfo;

bcBvhInfo bcBvh_GetInfo(const bcBvh* bvh);

/* The raw storage, for tests that compare builds byte for byte: the node
 * array (nodeBytes bytes, root record included), the wide nodes and the
 * triangle order. */
typedef struct bcBvhData {
	const bcBvhNode* nodes;
	size_t nodeBytes;
	const bcBvhWideNode* wideNodes; /* the swept-ball walk's tree */
	size_t wideNodeBytes;
	const struct bcLeafBlock* leaves; /* its leaves' blocks */
	int32_t leafBlockCount;
	const int32_t* triangles;
	int32_t triangleCount;
} bcBvhData;

bcBvhData bcBvh_GetData(const bcBvh* bvh);

#endif
