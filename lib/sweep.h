/* sweep.h - a moving ball against ONE triangle (private). */
#ifndef BC_SWEEP_H
#define BC_SWEEP_H

#include "ballcast.h"

/* Per-feature slots of a triangle's contact times, in tie order:
 * the face, edges AB, BC, CA, vertices A, B, C. */
enum { bc_slotFace = 0, bc_slotEdge0 = 1, bc_slotVertex0 = 4, bc_slotCount = 7 };

/* A query prepared once per trajectory and reused for every triangle. */
typedef struct bcSweepQuery {
	bcVec3 p0;
	bcVec3 p1;
	bcVec3 d;         /* p1 - p0 */
	double radius;
	bcCastOptions options;
	bool moving;      /* d != 0 */
	int kx, ky, kz;   /* watertight test: axes, kz the dominant axis of d */
	double sx, sy;    /* shear that maps d onto the kz axis */
} bcSweepQuery;

/* What one triangle offers: the earliest alpha of each feature (INFINITY
 * when it has none in [0, 1]). overlap: the ball is closer than r at
 * alpha = 0, then only slot holds 0 (the feature of the closest point). */
typedef struct bcSweepResult {
	double alpha[bc_slotCount];
	double best;      /* min of alpha[] */
	bool overlap;
} bcSweepResult;

bcSweepQuery bcMakeSweepQuery(bcCastInput input, const bcCastOptions* options);

/* The unit front normal of triangle (a, b, c), the direction of
 * (b - a) x (c - a), computed from its two shortest edges (the best
 * conditioned cross product); (0,0,0) for a degenerate triangle: zero area,
 * or a sliver whose smallest angle has a sine below BC_SLIVER_SINE. */
bcVec3 bcTriangleNormal(bcVec3 a, bcVec3 b, bcVec3 c);

/* Test triangle (a, b, c) with unit front normal n. Returns false when the
 * triangle offers no counted contact with alpha <= maxAlpha. */
bool bcSweepTriangle(const bcSweepQuery* query, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, double maxAlpha,
					 bcSweepResult* result);

/* Map a slot to a feature and the local vertex indices (0..2) it touches. */
bcFeature bcSlotFeature(int slot, int* vertexCount, int vertices[3]);

/* Fill the geometric part of an output (center, point, normal) for a
 * contact with slot on triangle (a, b, c, n) at alpha. */
void bcSweepContact(const bcSweepQuery* query, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, int slot, double alpha,
					bcCastOutput* output);



#endif
