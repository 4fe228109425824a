/* leaf_bound.h - a leaf's triangles in single precision, and for each a
 * conservative lower bound on the alpha of its first contact with a swept
 * ball (private). */
#ifndef BC_LEAF_BOUND_H
#define BC_LEAF_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "ballcast.h"

/* Triangles a leaf holds at most: one AVX2 register of floats. */
#define BC_LEAF_LANES 8

/* A leaf of the swept-ball walk's tree: up to BC_LEAF_LANES triangles,
 * each as float numbers in the leaf's own frame (coordinates less origin),
 * structure of arrays so that one SIMD instruction reads one number of
 * every triangle. What is stored bounds the triangle in exact arithmetic,
 * whatever the floats' rounding (checked in double when the leaf is made,
 * and rounded outward):
 *  - every point x of lane i's triangle has |normal_i . (x - origin) -
 *    offset_i| <= slab (it lies in a slab around the plane of the float
 *    normal, however far that is from the exact one);
 *  - vertex[k][.][i] is vertex k of lane i's triangle less the origin,
 *    rounded to float: within 2^-23 extent (2-norm) of the exact one;
 *  - every triangle point is within extent of origin (1-norm);
 * and normal_i is within normalError (2-norm) of the triangle's exact unit
 * front normal. Unused lanes have normal 0 and offset +infinity (their
 * bound is +infinity: never visited). extent is +infinity when the leaf's
 * coordinates are beyond the range where these floats can be trusted
 * (BC_LEAF_MAX_COORDINATE): then every triangle's bound is 0. 448 bytes,
 * 32-byte aligned. */
typedef struct bcLeafBlock {
	float origin[3];   /* the leaf's frame: a float point, exact in double */
	float extent;      /* every triangle point within this of origin (1-norm), or +inf */
	float slab;        /* half the width of each triangle's slab */
	float normalError; /* the largest error of the lanes' normals */
	int32_t first;     /* the leaf's first entry in the triangle order */
	int32_t count;     /* triangles in the leaf, 1 .. BC_LEAF_LANES */
	float normal[3][BC_LEAF_LANES];
	float offset[BC_LEAF_LANES];
	float vertex[3][3][BC_LEAF_LANES]; /* [vertex][axis][lane] */
} bcLeafBlock;

/* Beyond this magnitude (of a coordinate relative to the leaf, or of a
 * query's numbers) squares could overflow a float: no bounds are taken. */
#define BC_LEAF_MAX_COORDINATE 1e15

/* Below this size (the leaf's extent, the query's radius, path and
 * distance together) the floats could underflow: no bounds are taken. */
#define BC_LEAF_MIN_SCALE 1e-12

/* Start a leaf of count triangles from entry first, inside the box
 * [lower, upper] (the leaf's float box, which holds its triangles); every
 * lane unused until set. */
void bcLeafBlock_Begin(bcLeafBlock* block, int32_t first, int32_t count, const float lower[3], const float upper[3]);

/* Lane i: the triangle a, b, c with its unit front normal n (a bound on
 * its error: normalError), all in double as the mesh holds them. */
void bcLeafBlock_SetLane(bcLeafBlock* block, int lane, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, double normalError);

/* A query's numbers, prepared once for every leaf it looks at: the ball of
 * radius r moving from p0 by d, counting contacts from behind too when
 * twoSided. */
typedef struct bcLeafQuery {
	bcVec3 p0;
	bcVec3 direction;  /* d */
	double radius;
	double dNorm1;     /* |d|_1 */
	double p0Norm1;    /* |p0|_1 */
	float d[3];        /* d rounded to float */
	float epsNd;       /* a bound on the error of a float u . d, |u| <= 1 */
	bool twoSided;
} bcLeafQuery;

bcLeafQuery bcLeafQuery_Make(bcVec3 p0, bcVec3 d, double radius, bool twoSided);

/* The bounds of a leaf's triangles for a query whose ball enters the
 * leaf's box no earlier than entry (the walk's box test): bounds[i] + entry
 * is at most the alpha of lane i's first contact (face, edge or vertex,
 * counted for the query's side) computed by the double-precision test,
 * less 2^-39 (BC_LEAF_KEY_STEP covers the rounding of that sum and the
 * test's error): so never later than any alpha that test gives the
 * triangle. Returns a mask of the lanes (bit i) whose bound may be at or
 * below maxAlpha and which may touch at all: a lane left out has no
 * contact at or before maxAlpha. The work is done in the frame of the
 * leaf at alpha = entry (the ball's centre there less the leaf's origin),
 * so its precision follows the leaf's size, not the path's or the
 * coordinates'. Three ways, the same float operations in the same order,
 * so the same bounds bit for bit: plain C, SSE2 (4 lanes at a time),
 * AVX2 (8). */
int bcLeafBounds_Scalar(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
						float bounds[BC_LEAF_LANES]);

/* What a lane's sort key, entry + bounds[i], is lowered by to stay below
 * the test's alphas: 2^-39, twice their error (2^-40) and the rounding
 * of the sum. */
#define BC_LEAF_KEY_STEP 0x1p-39

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && defined(__GNUC__) && !defined(BC_NO_SIMD)
#define BC_LEAF_X86 1
int bcLeafBounds_Sse2(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
					  float bounds[BC_LEAF_LANES]);
int bcLeafBounds_Avx2(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
					  float bounds[BC_LEAF_LANES]);
#else
#define BC_LEAF_X86 0
#endif

#endif
