/* mesh.h - the mesh's private layout, shared by the library's files. */
#ifndef BC_MESH_H
#define BC_MESH_H

#include "ballcast.h"

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
	bcVec3 lowerBound, upperBound;
	double buildSeconds;
	struct bcBvh* bvh;   /* acceleration structure, NULL until built */
};

/* Take ownership of the arrays (allocated with malloc) and finish the mesh:
 * normals, degenerate flags, bounds, acceleration structure. On failure the
 * arrays are freed, error is filled and NULL returned. faceIds may be NULL. */
bcMesh* bcMesh_Adopt(bcVec3* vertices, int32_t vertexCount, int32_t* triangles, int32_t triangleCount,
					 int32_t* faceIds, int32_t faceCount, bcError* error);

/* Fill error (when not NULL) with a code, a position and a printf message. */
void bcSetError(bcError* error, bcErrorCode code, long line, long column, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

#endif
