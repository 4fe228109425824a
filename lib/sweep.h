/* sweep.h - a moving ball against ONE triangle (private). */
#ifndef BC_SWEEP_H
#define BC_SWEEP_H

#include "ballcast.h"

/* Per-feature slots of a triangle's contact times, in tie order:
 * the face, edges AB, BC, CA, vertices A, B, C. */
enum { bc_slotFace = 0, bc_slotEdge0 = 1, bc_slotVertex0 = 4, bc_slotCount = 7 };

/* How far the alpha of a contact decided in floating point may be from the
 * exact one (an absolute bound: alpha is a fraction of the path). A contact
 * whose error bound, computed alongside it, exceeds this is decided again
 * on the exact path, whose alphas are within a few ulps. 2^-40 (9.1e-13)
 * is 8192 units of 2^-53: room for the rounding of the ordinary contact
 * (tens of units) with a wide margin, so the exact path runs only near
 * tangents, grazing angles and boundaries; and it is a hundred times below
 * the tie tolerance, so ties are never decided by this error. */
#define BC_SWEEP_ALPHA_ERROR 9.094947017729282e-13

/* A query prepared once per trajectory and reused for every triangle. */
typedef struct bcSweepQuery {
	bcVec3 p0;
	bcVec3 p1;
	bcVec3 d;         /* p1 - p0 */
	double radius;
	bcCastOptions options;
	bool moving;      /* d != 0 */
	double dNorm1;    /* |d.x| + |d.y| + |d.z| */
	double dLength;   /* |d|, rounded up */
	bool forceExact;  /* tests: decide every triangle on the exact path */
	bool deferAlpha;  /* alphas within alphaError (r = 0: every one; r > 0: the face's,
						 not yet correctly rounded), bcSweepRefine sharpens them */
	bool ballFiltered; /* the walk already left out triangles far from the path (bcBvh_QuerySweepOrdered):
						  the bounding-ball rejection is not repeated */
} bcSweepQuery;

/* A triangle as the sweep reads it: its vertices in file order, its unit
 * front normal n (bcTriangleNormal) and a bound on that normal's error
 * (bcTriangleNormalError): |n - N/|N|| <= normalError for the exact
 * N = (b - a) x (c - a). The normal only speeds up the tests that reject
 * a triangle; every decision is taken exactly. */
typedef struct bcSweepTriangleRef {
	bcVec3 a, b, c;
	bcVec3 n;
	double normalError;
} bcSweepTriangleRef;

/* What one triangle offers: the earliest alpha of each feature (INFINITY
 * when it has none in [0, 1]). overlap: the ball is closer than r at
 * alpha = 0; then, as for a ball starting at distance exactly r, only the
 * slot of the closest point's feature holds 0. approach: the exact sign of
 * N . (p1 - p0). side: for a contact at alpha 0 in the face region, the
 * exact sign of N . (p0 - a) (which side of the plane the centre starts
 * on); else 0. */
typedef struct bcSweepResult {
	double alpha[bc_slotCount];
	double best;      /* min of alpha[] */
	double alphaError; /* 0, or with deferAlpha a bound on the alphas' error */
	bool overlap;
	signed char approach;
	signed char side;
} bcSweepResult;

bcSweepQuery bcMakeSweepQuery(bcCastInput input, const bcCastOptions* options);

/* An answer in state s that names no contact: alpha 1, triangle, face and
 * vertices -1, no feature, every other field 0. The initializer of a
 * bcCastOutput or a bcDiscreteOutput alike: the two outputs share these
 * fields and what they mean on a miss (ballcast.h). */
#define BC_NO_CONTACT(s)                                                                                             \
	{ .state = (s), .alpha = 1.0, .triangle = -1, .face = -1, .feature = bc_featureNone, .vertices = { -1, -1, -1 } }

/* A triangle's normal from its two shortest edges, rounded and crossed
 * (the plain normal), is within 28 u |x| |y| / |x X y| + 8 u of a radian;
 * above this bound -- a triangle whose largest angle has a sine below about
 * 1/290, a thin cap -- the normal is computed from the exact cross product
 * instead (within 16 u, however thin). 2^-40: the face points and plane
 * distances made from a normal carry its error times the distance from the
 * triangle, and 2^-40 keeps them well inside the 1e-12 of the scene the
 * exact tests allow; it is far from the triangles of ordinary meshes (none
 * of the bunny's or the icosphere's), which keep their bits. */
#define BC_NORMAL_PLAIN_ERROR 9.094947017729282e-13

/* The unit front normal of triangle (a, b, c), the direction of
 * (b - a) x (c - a), computed from its two shortest edges (the best
 * conditioned cross product), or for a thin triangle from the exact cross
 * product (BC_NORMAL_PLAIN_ERROR); (0,0,0) for a degenerate triangle: zero
 * area, or a sliver whose smallest angle has a sine below BC_SLIVER_SINE.
 * *error: a bound on its error (see bcSweepTriangleRef), 0 for a
 * degenerate triangle. */
bcVec3 bcTriangleNormalBounded(bcVec3 a, bcVec3 b, bcVec3 c, double* error);

/* bcTriangleNormalBounded's normal alone. */
bcVec3 bcTriangleNormal(bcVec3 a, bcVec3 b, bcVec3 c);

/* bcTriangleNormalBounded's error bound alone. */
double bcTriangleNormalError(bcVec3 a, bcVec3 b, bcVec3 c);

/* Test one triangle. Returns false when it offers no counted contact with
 * alpha <= maxAlpha (result is then unspecified). Contacts are decided
 * exactly (which exist in [0, 1], on which feature); alphas are within
 * BC_SWEEP_ALPHA_ERROR of the exact ones, and within a few ulps when the
 * exact path decided. A slot entered later than maxAlpha, or later than
 * the triangle's earliest contact plus BC_ALPHA_TIE_TOLERANCE, may be left
 * INFINITY: it can never be answered or tied. */
bool bcSweepTriangle(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, double maxAlpha,
					 bcSweepResult* result);

/* The exact path (sweep_exact.c): the same contacts, decided in big
 * integers; alphas within a few ulps. The normal is not read. Every slot
 * is computed (not only those near the earliest). */
bool bcSweepTriangleExact(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, double maxAlpha,
						  bcSweepResult* result);

/* One slot's alpha on the exact path (INFINITY when that piece is not
 * entered in [0, 1]), for a triangle that counts, which the ball does not
 * touch at alpha 0, and a moving ball. */
double bcExactSlotAlpha(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, int slot);

/* The unit contact normal of an edge or vertex contact (slot), computed
 * in big integers: at alpha = 0 (atStart) from the edge's line or the
 * vertex towards p0; otherwise the normal where the centre enters the
 * edge's cylinder or the vertex's ball. (0,0,0) when the centre is on the
 * feature. For radii within rounding of the coordinates, where a
 * difference of positions has no digits left. */
bcVec3 bcExactContactNormal(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, int slot, bool atStart);

/* Where a point's path p0 -> p1 crosses the triangle's plane, as a
 * fraction of the path, correctly rounded (the path must cross it). */
double bcExactPointAlpha(const bcSweepQuery* query, const bcSweepTriangleRef* triangle);

/* A ball's face contact (r > 0, a triangle that counts, the pushed-out
 * plane crossed inside the triangle at alpha in [0, 1]), correctly
 * rounded: from guess, within a few ulps of it, to the double nearest the
 * exact alpha = (sigma S - r sqrt L2) / |N . d| (ties to even), each step
 * an exact comparison with a midpoint. */
double bcExactFaceAlphaRounded(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, double guess);

/* The exact sign of ((b - a) x (c - a)) . (q - p). */
int bcExactCrossDotSign(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 p, bcVec3 q);

/* Replace a result's alphas known within alphaError (deferAlpha) by the
 * exact ones, correctly rounded (for a ball, its face alpha). */
void bcSweepRefine(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, bcSweepResult* result);

/* Map a slot to a feature and the local vertex indices (0..2) it touches. */
bcFeature bcSlotFeature(int slot, int* vertexCount, int vertices[3]);

/* The tie rule's last step, for bcMesh_Cast and bcCastTriangle alike: the
 * contact named keeps its point and normal, but alpha and centre become
 * the earliest tied contact's (earliest <= output->alpha; -0 is written 0). */
void bcSweepTakeEarliest(const bcSweepQuery* query, double earliest, bcCastOutput* output);

/* Fill the geometric part of an output (center, point, normal) for a
 * contact with slot on the triangle at alpha. result (may be NULL) is the
 * triangle's bcSweepResult, whose approach and side turn the normal when
 * the centre lies on the triangle or within rounding of it. */
void bcSweepContact(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, const bcSweepResult* result,
					int slot, double alpha, bcCastOutput* output);

#endif
