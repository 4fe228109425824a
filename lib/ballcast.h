/* ballcast.h - the one public header of libballcast.
 *
 * ballcast answers: where does a ball moving along a straight segment first
 * touch a triangle mesh? Units are whatever the mesh and trajectories use
 * (they must agree); all coordinates are in the mesh's frame.
 *
 * Naming (Box2D's grammar): types bcType, free functions bcVerbNoun,
 * functions on an object bcType_Verb, enum values bc_enumValue, constants
 * BC_UPPER_CASE. The library never prints and never exits: failures come
 * back in a bcError.
 */
#ifndef BALLCAST_H
#define BALLCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BC_VERSION_STRING "0.1.0"

/* A point or a vector in the mesh's frame. Passed and returned by value. */
typedef struct bcVec3 {
	double x, y, z;
} bcVec3;

/* Two contacts whose alpha differ by at most this are a tie. Alpha is a
 * fraction of the trajectory, so the tolerance is dimensionless. Contacts on
 * a shared edge or vertex computed from either neighbouring triangle agree to
 * a few ulps times |p0 - feature| / |p1 - p0|; 1e-10 leaves room for that
 * factor up to about 1e5 while staying far below any difference a user
 * could mean. Ties go to the lowest triangle index, then face < edge < vertex. */
#define BC_ALPHA_TIE_TOLERANCE 1e-10

/* The largest number of vertices or triangles a mesh may hold (indices are
 * int32_t). Larger inputs are refused with bc_errorTooLarge. */
#define BC_MAX_ELEMENTS INT32_MAX

/* ---------------------------------------------------------------- errors */

typedef enum bcErrorCode {
	bc_errorNone = 0,
	bc_errorIo,       /* the file could not be opened or read */
	bc_errorSyntax,   /* malformed input; line and column say where */
	bc_errorIndex,    /* a face index is 0, out of range or underflows */
	bc_errorValue,    /* a number is not finite or out of range */
	bc_errorTooLarge, /* more elements than BC_MAX_ELEMENTS */
	bc_errorNoMemory,
	bc_errorEmpty     /* a mesh without any face */
} bcErrorCode;

/* What went wrong and where. line and column are 1-based (0 when they do not
 * apply); column counts bytes. record is the 0-based record number for
 * per-record errors, -1 otherwise. */
typedef struct bcError {
	bcErrorCode code;
	long line;
	long column;
	long record;
	char message[256];
} bcError;

/* ------------------------------------------------------------------ mesh */

/* A triangle mesh. Opaque; immutable once created, so one mesh may be
 * queried from any number of threads at once. */
typedef struct bcMesh bcMesh;

/* Arrays a mesh is built from. The library copies them; the caller keeps
 * ownership. faceIds may be NULL (then triangle i came from face i). */
typedef struct bcMeshDef {
	const double* vertices;   /* 3 * vertexCount coordinates, x y z per vertex */
	int32_t vertexCount;
	const int32_t* triangles; /* 3 * triangleCount 0-based vertex indices */
	int32_t triangleCount;
	const int32_t* faceIds;   /* per triangle: the source polygon, or NULL */
	int32_t faceCount;        /* number of source polygons (ignored if faceIds is NULL) */
} bcMeshDef;

/* Build a mesh from arrays. Returns NULL and fills error (if not NULL) on
 * failure (an index out of range, a non-finite coordinate, no triangles).
 * The caller owns the result and frees it with bcMesh_Destroy. */
bcMesh* bcMesh_Create(const bcMeshDef* def, bcError* error);

/* Read a Wavefront OBJ file ("-" is not special here). Polygons are fan
 * triangulated: polygon v0 v1 ... vk gives (v0 v1 v2), (v0 v2 v3), ...
 * Returns NULL and fills error on failure. The caller owns the result. */
bcMesh* bcMesh_LoadObj(const char* path, bcError* error);

/* Parse OBJ text held in memory (need not be NUL terminated). Same rules as
 * bcMesh_LoadObj. The caller owns the result. */
bcMesh* bcMesh_ParseObj(const char* text, size_t length, bcError* error);

/* Free a mesh. NULL is allowed. */
void bcMesh_Destroy(bcMesh* mesh);

/* Counts. Degenerate (zero-area or non-finite normal) triangles keep their
 * index but are never hit. */
typedef struct bcMeshInfo {
	int32_t vertexCount;
	int32_t triangleCount;
	int32_t faceCount;
	int32_t degenerateCount;
	bcVec3 lowerBound, upperBound; /* axis-aligned bounds of all vertices */
	double buildSeconds;           /* wall time spent building the BVH */
} bcMeshInfo;

bcMeshInfo bcMesh_GetInfo(const bcMesh* mesh);

/* One triangle: its 0-based vertex indices in file order, the 0-based face
 * (OBJ f line) it came from, and its unit front normal: (B-A)x(C-A)
 * normalised, pointing to the side from which A, B, C run counter-clockwise.
 * The normal is (0,0,0) for a degenerate triangle. */
typedef struct bcTriangle {
	int32_t vertices[3];
	int32_t face;
	bcVec3 normal;
	bool degenerate;
} bcTriangle;

bcTriangle bcMesh_GetTriangle(const bcMesh* mesh, int32_t index);
bcVec3 bcMesh_GetVertex(const bcMesh* mesh, int32_t index);

/* ------------------------------------------------------------ cast query */

/* Which part of a triangle the ball touches. */
typedef enum bcFeature {
	bc_featureNone = 0,
	bc_featureFace,
	bc_featureEdge,
	bc_featureVertex
} bcFeature;

/* Which side of a triangle counts, with d = p1 - p0 and n its front normal. */
typedef enum bcApproach {
	bc_approachLessEqual = 0, /* dot(n, d) <= 0 counts (the course notes; default) */
	bc_approachLess           /* dot(n, d) < 0 counts (the course FAQ) */
} bcApproach;

/* What to do with a triangle the ball already overlaps at alpha = 0. */
typedef enum bcOverlapPolicy {
	bc_overlapReport = 0, /* a hit at alpha = 0 with state bc_castInitialOverlap */
	bc_overlapIgnore      /* skip that triangle entirely */
} bcOverlapPolicy;

typedef struct bcCastOptions {
	bool twoSided;              /* count contacts from behind too */
	bcApproach approach;
	bcOverlapPolicy overlap;
	bool bruteForce;            /* test every triangle (reference path) */
} bcCastOptions;

/* The default options: one-sided, dot <= 0, overlaps reported. */
bcCastOptions bcDefaultCastOptions(void);

/* A ball of radius r >= 0 whose centre moves linearly from p0 (alpha = 0)
 * to p1 (alpha = 1). r = 0 is a point moving along a segment. */
typedef struct bcCastInput {
	bcVec3 p0, p1;
	double radius;
} bcCastInput;

typedef enum bcCastState {
	bc_castMiss = 0,          /* no counted contact for alpha in [0, 1] */
	bc_castHit,               /* first touch at alpha */
	bc_castInitialOverlap,    /* already closer than r at alpha = 0 */
	bc_castInvalid            /* the input had a negative or non-finite value */
} bcCastState;

/* The answer to one cast. On a miss alpha is 1 and the rest is zeroed with
 * triangle = face = -1. On a hit or initial overlap:
 *  - triangle: 0-based triangle index; face: the OBJ face it came from;
 *  - feature and vertices[0 .. vertexCount-1]: the mesh vertex indices of the
 *    touched face (3), edge (2) or vertex (1);
 *  - point: the contact point on the triangle; center: the ball centre at
 *    alpha;
 *  - normal: unit contact normal, from point towards center. When the two
 *    coincide (r = 0, or a centre lying on the triangle) it is the triangle
 *    normal turned against the motion (towards p0's side);
 *  - triangleNormal: the unit front normal of the triangle;
 *  - tieCount: how many (triangle, feature) contacts share this alpha within
 *    BC_ALPHA_TIE_TOLERANCE (1 when there is no tie). */
typedef struct bcCastOutput {
	bcCastState state;
	double alpha;
	int32_t triangle;
	int32_t face;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	bcVec3 point;
	bcVec3 center;
	bcVec3 normal;
	bcVec3 triangleNormal;
	int tieCount;
} bcCastOutput;

/* True when p0, p1, p1 - p0 and radius are finite and radius >= 0. The
 * cast functions answer bc_castInvalid otherwise. */
bool bcIsValidCastInput(bcCastInput input);

/* Cast one ball against one triangle A, B, C (front normal (B-A)x(C-A)).
 * vertices[] in the output hold local indices 0, 1, 2 (for A, B, C) and
 * triangle/face are 0. A degenerate triangle never hits. */
bcCastOutput bcCastTriangle(bcVec3 a, bcVec3 b, bcVec3 c, bcCastInput input, const bcCastOptions* options);

/* Cast one ball against a mesh: the earliest counted contact, ties resolved
 * as described at BC_ALPHA_TIE_TOLERANCE. options may be NULL (defaults). */
bcCastOutput bcMesh_Cast(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options);

/* Cast count balls; outputs[i] answers inputs[i]. threadCount <= 0 means
 * one thread per core. The outputs do not depend on threadCount. */
void bcMesh_CastBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
					  const bcCastOptions* options, int threadCount);

/* One contact among several tied at the earliest alpha. */
typedef struct bcContact {
	int32_t triangle;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	double alpha;
	bcVec3 normal; /* contact normal, as in bcCastOutput */
} bcContact;

/* Like bcMesh_Cast, and also lists in ties[0 .. min(n, capacity)-1] every
 * (triangle, feature) contact within BC_ALPHA_TIE_TOLERANCE of the earliest
 * alpha, ordered by triangle then feature; returns n (the full count). */
int bcMesh_CastTies(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options, bcCastOutput* output,
					bcContact* ties, int capacity);

/* --------------------------------------------------------- closest point */

/* The closest point of triangle A, B, C to p, found by Ericson's Voronoi
 * regions. feature tells the region; vertices[] hold local indices (0, 1, 2
 * for A, B, C) of that feature, vertexCount of them. */
typedef struct bcClosestPoint {
	bcVec3 point;
	double distance;
	bcFeature feature;
	int vertexCount;
	int vertices[3];
} bcClosestPoint;

bcClosestPoint bcClosestPointTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c);

/* Human readable name: "face", "edge", "vertex" or "none". */
const char* bcFeatureName(bcFeature feature);

/* @@closest-api@@ */

/* @@balls-api@@ */

/* @@simulate-api@@ */

/* @@intersect-api@@ */

#ifdef __cplusplus
}
#endif

#endif
