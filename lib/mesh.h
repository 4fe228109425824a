/* mesh.h - the mesh's private layout, shared by the library's files. */
#ifndef BC_MESH_H
#define BC_MESH_H

#include <math.h>

#include "ballcast.h"
#include "core.h"

/* Compact storage: what the queries need and nothing else. */
struct bcMesh {
	int32_t vertexCount;
	int32_t triangleCount;
	int32_t faceCount;
	int32_t degenerateCount;
	bcVec3* vertices;    /* vertexCount */
	int32_t* triangles;  /* 3 * triangleCount vertex indices */
	int32_t* faceIds;    /* triangleCount source polygons */
	bcVec3* normals;     /* triangleCount unit front normals, (0,0,0) if degenerate */
	float* normalErrors; /* triangleCount bounds on the normals' errors (bcTriangleNormalError, rounded up) */
	bcVec3 lowerBound, upperBound;
	double buildSeconds;
	struct bcBvh* bvh;   /* acceleration structure, NULL until built */
	bcWarning* warnings; /* the first min(warningCount, BC_MAX_WARNINGS), owned (bcAlloc) */
	int32_t warningCount;
	bcMeshFormat format;       /* the format read, bc_meshAuto when built from arrays */
	long long mergedCorners;   /* STL: corners merged into an earlier vertex */
};

/* Take ownership of the arrays (from bcAlloc) and finish the mesh:
 * normals, degenerate flags, bounds, acceleration structure, on threadCount
 * threads (<= 0: one per online core); the mesh does not depend on it. On
 * failure the arrays are freed, error is filled and NULL returned. faceIds
 * may be NULL. */
bcMesh* bcMesh_Adopt(bcVec3* vertices, int32_t vertexCount, int32_t* triangles, int32_t triangleCount,
					 int32_t* faceIds, int32_t faceCount, int threadCount, bcError* error);

/* x rounded up to a float: a bound stays a bound. */
static inline float bcFloatAbove(double x)
{
	float f = (float)x;
	return (double)f < x ? nextafterf(f, HUGE_VALF) : f;
}

#endif
