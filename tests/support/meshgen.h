/* meshgen.h - deterministic test and benchmark meshes. */
#ifndef BC_MESHGEN_H
#define BC_MESHGEN_H

#include <stdint.h>
#include <stdio.h>

#include "ballcast.h"

/* A growable vertex/triangle soup. */
typedef struct bcGenMesh {
	double* vertices; /* xyz */
	int32_t vertexCount, vertexCapacity;
	int32_t* triangles;
	int32_t triangleCount, triangleCapacity;
} bcGenMesh;

/* splitmix64: a small, deterministic random source. */
typedef struct bcRandom {
	uint64_t state;
} bcRandom;

uint64_t bcRandom_Next(bcRandom* rng);
double bcRandom_Uniform(bcRandom* rng, double lo, double hi); /* [lo, hi) */
bcVec3 bcRandom_InBox(bcRandom* rng, bcVec3 lower, bcVec3 upper);
bcVec3 bcRandom_OnSphere(bcRandom* rng);                      /* unit vector */

void bcGenMesh_Free(bcGenMesh* m);
int32_t bcGenMesh_AddVertex(bcGenMesh* m, double x, double y, double z);
void bcGenMesh_AddTriangle(bcGenMesh* m, int32_t a, int32_t b, int32_t c);

/* An icosphere: an icosahedron subdivided `level` times (20 * 4^level
 * triangles), vertices on the sphere, normals outward (or inward). */
void bcGenIcosphere(bcGenMesh* m, int level, bcVec3 center, double radius, int inward);

/* A closed box, each face a cells x cells grid of quads split in two;
 * normals inward (a room) or outward. 12 * cells^2 triangles. */
void bcGenBox(bcGenMesh* m, bcVec3 lower, bcVec3 upper, int cells, int inward);

/* A height field over [0,size]^2 with n x n cells, normals up. */
void bcGenTerrain(bcGenMesh* m, int n, double size, uint64_t seed);

/* count random triangles of edge about `size` in a cube of side extent. */
void bcGenSoup(bcGenMesh* m, int32_t count, double extent, double size, uint64_t seed);

/* Make a library mesh (NULL on failure). */
bcMesh* bcGenMesh_Build(const bcGenMesh* m);

/* Write as OBJ with round-trip numbers; returns 0 on success. */
int bcGenMesh_WriteObj(const bcGenMesh* m, FILE* f);

#endif
