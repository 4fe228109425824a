/* polygon.h - one polygon of an OBJ face into triangles (private;
 * lib/polygon.c). */
#ifndef BC_POLYGON_H
#define BC_POLYGON_H

#include "ballcast.h"

/* A corner farther than this fraction of the polygon's size (the largest
 * side of its bounding box) from the polygon's plane makes it non-planar:
 * well above the 1e-6 that coordinates written with six significant
 * digits put there, well below a bend anyone drew on purpose. */
#define BC_POLYGON_PLANARITY_TOLERANCE 1e-4

/* What a polygon is, and so how it was cut. */
typedef enum bcPolygonShape {
	bc_polygonConvex = 0,      /* planar, simple and convex: the fan (v0 v1 v2), (v0 v2 v3), ... */
	bc_polygonConcave,         /* planar and simple, not convex: ear clipping */
	bc_polygonFlat,            /* no area (collinear corners): the fan */
	bc_polygonNonPlanar,       /* corners off its plane: the fan */
	bc_polygonSelfIntersecting /* edges that cross or touch, or repeated corners: the fan */
} bcPolygonShape;

/* Work space for bcTriangulatePolygon, grown as needed; zero-initialise it
 * and free it with bcPolygonScratch_Free. */
typedef struct bcPolygonScratch {
	double* coordinates; /* 2 per corner: the projection */
	int32_t* links;      /* 2 per corner: previous and next remaining */
	int32_t capacity;
	void* work;          /* the simplicity sweep's arrays, then the ear search's */
	size_t workSize;     /* bytes at work */
} bcPolygonScratch;

void bcPolygonScratch_Free(bcPolygonScratch* scratch);

/* Cut the polygon whose corners, in order, are vertices[corners[0 .. count
 * - 1]] (count >= 3) into count - 2 triangles of vertex indices, written to
 * triangles[0 .. 3 (count - 2) - 1], each turning as the polygon does. A
 * convex polygon, and one that cannot be cut safely (flat, non-planar,
 * self-intersecting), is cut as the fan from its first corner; a planar,
 * simple, concave one by ear clipping in its plane (lib/polygon.c states
 * the rule). *shape says which; *deviation is the largest distance of a
 * corner from the polygon's plane over its size. Every decision on the
 * polygon's plane takes exact orientation signs. Time O(count log count)
 * for convex and self-intersecting polygons, and for concave ones whose
 * ears do not hide many notches (lib/polygon.c says how). False when out
 * of memory (triangles then hold the fan). */
bool bcTriangulatePolygon(const bcVec3* vertices, const int32_t* corners, int32_t count, int32_t* triangles,
						  bcPolygonScratch* scratch, bcPolygonShape* shape, double* deviation);

#endif
