/* containment.h - where a point is against the solid a closed mesh bounds
 * (private; lib/containment.c). */
#ifndef BC_CONTAINMENT_H
#define BC_CONTAINMENT_H

#include "ballcast.h"

/* Where a point is: off the surface (inside or outside the solid), or on
 * it (on a triangle, its edges and vertices included). */
typedef enum bcPointSide {
	bc_sideOutside = 0,
	bc_sideInside,
	bc_sideOn
} bcPointSide;

/* A mesh prepared for point queries: the triangles its hierarchy leaves out
 * (the degenerate ones, which still bound the solid), listed once. */
typedef struct bcSolid {
	const bcMesh* mesh;  /* borrowed */
	int32_t* degenerate; /* the triangles with a zero normal (owned) */
	int32_t degenerateCount;
	bool bruteForce;     /* test every triangle instead of walking the hierarchy */
} bcSolid;

/* Prepare mesh (borrowed: it must outlive the solid). False when out of
 * memory. Free with bcSolid_Free. */
bool bcSolid_Init(bcSolid* solid, const bcMesh* mesh, bool bruteForce);

void bcSolid_Free(bcSolid* solid);

/* Where p is, exactly: on the surface when it lies on a triangle (every
 * sign from bcOrient3d and bcOrient2d, no tolerance); else inside when a
 * ray from p crosses the surface an odd number of times. The ray runs
 * along +x from p moved by (0, e, e^2) for an infinitesimal e (simulation
 * of simplicity), so a ray through an edge or a vertex is counted
 * consistently, once for the triangles around it. The answer means
 * "inside the solid" when the mesh is closed (bcMesh_IsClosed) and does
 * not intersect itself. */
bcPointSide bcSolid_Locate(const bcSolid* solid, bcVec3 p);

/* Whether p lies on triangle a, b, c (closed: edges and vertices
 * included), exactly; a degenerate triangle is its segments. */
bool bcPointOnTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c);

#endif
