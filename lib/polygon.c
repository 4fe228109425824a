/* polygon.c - one polygon of an OBJ face into triangles.
 *
 * The rule. A polygon v0 v1 ... vk is first measured: its plane (Newell's
 * normal, through the mean of its corners) and how far its corners stray
 * from it. Then, looked at along the axis where that normal is largest
 * (the polygon's projection on the other two axes, exact coordinates),
 * every decision takes the exact sign of a 2D orientation:
 *  - convex (planar, simple, every corner turning the polygon's way or
 *    straight on): the fan (v0 v1 v2), (v0 v2 v3), ..., as every OBJ
 *    reader does and as ballcast always did;
 *  - concave (planar and simple, a corner turning the other way): ear
 *    clipping. Walking the corners from v0 in file order, a corner whose
 *    triangle (previous, corner, next), with its two remaining
 *    neighbours, turns the polygon's way and holds no other remaining
 *    corner (inside or on its edges) is cut off as that triangle, and the
 *    walk steps back to the previous corner; any other corner passes the
 *    walk on to the next. The last three corners make the last triangle.
 *    Its triangles lie inside the polygon and cover it exactly;
 *  - flat (its corners on a line), non-planar (a corner farther than
 *    BC_POLYGON_PLANARITY_TOLERANCE of its size from its plane), or
 *    self-intersecting (two edges that cross or touch, an edge folding
 *    back on the previous one, a corner repeated): the fan, since no cut
 *    is right; the reader warns about the last two.
 * Either way a polygon of k corners gives k - 2 triangles, so the
 * triangles of the faces after it keep their numbers.
 */
#include "polygon.h"

#include <stdlib.h>

#include "core.h"
#include "predicates.h"
#include "vec3.h"

/* Corners whose largest coordinate is beyond 2^+-this are measured scaled
 * by a power of two: Newell's normal multiplies two coordinates and its
 * length squares that, which stays inside the normal doubles (2^+-800). */
#define BC_POLYGON_SAFE_MAGNITUDE 0x1p200

void bcPolygonScratch_Free(bcPolygonScratch* scratch)
{
	bcFree(scratch->coordinates);
	bcFree(scratch->links);
	scratch->coordinates = NULL;
	scratch->links = NULL;
	scratch->capacity = 0;
}

static bool reserve(bcPolygonScratch* scratch, int32_t count)
{
	if (count <= scratch->capacity) {
		return true;
	}
	int32_t capacity = scratch->capacity > 0 ? scratch->capacity : 16;
	while (capacity < count) {
		capacity = capacity > INT32_MAX / 2 ? count : 2 * capacity;
	}
	double* coordinates = bcRealloc(scratch->coordinates, 2 * (size_t)capacity * sizeof *coordinates);
	if (coordinates != NULL) {
		scratch->coordinates = coordinates;
	}
	int32_t* links = bcRealloc(scratch->links, 2 * (size_t)capacity * sizeof *links);
	if (links != NULL) {
		scratch->links = links;
	}
	if (coordinates == NULL || links == NULL) {
		return false;
	}
	scratch->capacity = capacity;
	return true;
}

static void writeFan(const int32_t* corners, int32_t count, int32_t* triangles)
{
	for (int32_t i = 0; i + 2 < count; ++i) {
		triangles[3 * i] = corners[0];
		triangles[3 * i + 1] = corners[i + 1];
		triangles[3 * i + 2] = corners[i + 2];
	}
}

/* The polygon in its plane: corner i at (u[2i], u[2i + 1]), turning the
 * way sign says (+1 counter-clockwise there, -1 clockwise). */
typedef struct bcFlatPolygon {
	const double* u;
	int32_t count;
	int sign;
} bcFlatPolygon;

/* The turn at b from a to c, times the polygon's sign: > 0 the polygon's
 * way, 0 straight on (or back), < 0 the other way. */
static int turn(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c)
{
	const double* u = p->u;
	return p->sign * bcSign(bcOrient2d(u[2 * a], u[2 * a + 1], u[2 * b], u[2 * b + 1], u[2 * c], u[2 * c + 1]));
}

/* q on the closed segment a b, knowing the three are collinear. */
static bool withinSegment(const double* u, int32_t a, int32_t b, int32_t q)
{
	double lo0 = u[2 * a] < u[2 * b] ? u[2 * a] : u[2 * b], hi0 = u[2 * a] < u[2 * b] ? u[2 * b] : u[2 * a];
	double lo1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * a + 1] : u[2 * b + 1];
	double hi1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * b + 1] : u[2 * a + 1];
	return u[2 * q] >= lo0 && u[2 * q] <= hi0 && u[2 * q + 1] >= lo1 && u[2 * q + 1] <= hi1;
}

/* Do the closed segments a b and c d have a common point? */
static bool segmentsMeet(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t d)
{
	int o1 = turn(p, a, b, c), o2 = turn(p, a, b, d), o3 = turn(p, c, d, a), o4 = turn(p, c, d, b);
	if (o1 * o2 < 0 && o3 * o4 < 0) {
		return true;
	}
	return (o1 == 0 && withinSegment(p->u, a, b, c)) || (o2 == 0 && withinSegment(p->u, a, b, d)) ||
		   (o3 == 0 && withinSegment(p->u, c, d, a)) || (o4 == 0 && withinSegment(p->u, c, d, b));
}

/* No two edges meet but neighbours at their common corner, and no edge
 * folds back onto the one before it. */
static bool isSimple(const bcFlatPolygon* p)
{
	int32_t n = p->count;
	const double* u = p->u;
	for (int32_t i = 0; i < n; ++i) {
		int32_t a = i, b = (i + 1) % n, c = (i + 2) % n;
		if (u[2 * a] == u[2 * b] && u[2 * a + 1] == u[2 * b + 1]) {
			return false; /* a repeated corner */
		}
		if (turn(p, a, b, c) == 0) {
			double dot = (u[2 * b] - u[2 * a]) * (u[2 * c] - u[2 * b]) +
						 (u[2 * b + 1] - u[2 * a + 1]) * (u[2 * c + 1] - u[2 * b + 1]);
			if (dot < 0.0) {
				return false; /* folding back */
			}
		}
	}
	for (int32_t i = 0; i < n; ++i) {
		/* edges i and j not sharing a corner: j from i + 2, and not the
		 * last edge against the first */
		for (int32_t j = i + 2; j < n; ++j) {
			if (i == 0 && j == n - 1) {
				continue;
			}
			if (segmentsMeet(p, i, (i + 1) % n, j, (j + 1) % n)) {
				return false;
			}
		}
	}
	return true;
}

/* Is q inside or on the triangle a b c (which turns the polygon's way)? */
static bool inTriangle(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t q)
{
	return turn(p, a, b, q) >= 0 && turn(p, b, c, q) >= 0 && turn(p, c, a, q) >= 0;
}

/* Ear clipping as the file's comment states; links hold the previous and
 * next remaining corner of each. */
static void clipEars(const bcFlatPolygon* p, int32_t* links, const int32_t* corners, int32_t* triangles)
{
	int32_t n = p->count;
	int32_t* previous = links;
	int32_t* next = links + n;
	for (int32_t i = 0; i < n; ++i) {
		previous[i] = (i + n - 1) % n;
		next[i] = (i + 1) % n;
	}
	int32_t written = 0;
	int32_t remaining = n;
	int32_t i = 0;
	int32_t passed = 0; /* corners passed on since the last cut */
	while (remaining > 3 && passed <= remaining) {
		int32_t a = previous[i], c = next[i];
		bool ear = turn(p, a, i, c) > 0;
		for (int32_t q = next[c]; ear && q != a; q = next[q]) {
			ear = !inTriangle(p, a, i, c, q);
		}
		if (!ear) {
			i = c;
			passed += 1;
			continue;
		}
		triangles[3 * written] = corners[a];
		triangles[3 * written + 1] = corners[i];
		triangles[3 * written + 2] = corners[c];
		written += 1;
		next[a] = c;
		previous[c] = a;
		remaining -= 1;
		i = a;
		passed = 0;
	}
	/* The last three; or, if no ear was left (which a simple polygon does
	 * not allow), the rest as a fan from the current corner. */
	for (int32_t q = next[i]; next[q] != i; q = next[q]) {
		triangles[3 * written] = corners[i];
		triangles[3 * written + 1] = corners[q];
		triangles[3 * written + 2] = corners[next[q]];
		written += 1;
	}
}

bool bcTriangulatePolygon(const bcVec3* vertices, const int32_t* corners, int32_t count, int32_t* triangles,
						  bcPolygonScratch* scratch, bcPolygonShape* shape, double* deviation)
{
	writeFan(corners, count, triangles);
	*shape = bc_polygonConvex;
	*deviation = 0.0;
	if (count <= 3) {
		return true;
	}
	/* Newell's normal (about the first corner), the mean, the size, from
	 * the corners scaled by a power of two (exactly) when they are huge or
	 * tiny, so that no product overflows: the shape does not change. */
	double largest = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		double m = bcMaxAbs(vertices[corners[i]]);
		largest = m > largest ? m : largest;
	}
	double scale = 1.0;
	if (largest > BC_POLYGON_SAFE_MAGNITUDE || (largest < 1.0 / BC_POLYGON_SAFE_MAGNITUDE && largest > 0.0)) {
		int exponent = 0;
		frexp(largest, &exponent);
		/* 2^-exponent, but at most 2^800 for the tiniest (subnormal) corners */
		scale = ldexp(1.0, exponent < -800 ? 800 : -exponent);
	}
	bcVec3 origin = bcScale(scale, vertices[corners[0]]);
	bcVec3 normal = bcMakeVec3(0.0, 0.0, 0.0);
	bcVec3 mean = bcMakeVec3(0.0, 0.0, 0.0);
	bcVec3 lower = origin, upper = origin;
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 p = bcScale(scale, vertices[corners[i]]);
		bcVec3 a = bcSub(p, origin), b = bcSub(bcScale(scale, vertices[corners[(i + 1) % count]]), origin);
		normal = bcAdd(normal, bcCross(a, b));
		mean = bcAdd(mean, a);
		lower = bcMin(lower, p);
		upper = bcMax(upper, p);
	}
	double length = sqrt(bcDot(normal, normal));
	double size = bcMaxAbs(bcSub(upper, lower));
	if (!(length > 0.0) || !(size > 0.0) || !isfinite(length)) {
		/* No area: the corners are on a line, or the polygon's parts
		 * cancel out (a symmetric bow tie), which only a polygon crossing
		 * itself does. */
		*shape = bc_polygonFlat;
		for (int32_t i = 1; i + 1 < count; ++i) {
			bcVec3 n = bcCross(bcSub(bcScale(scale, vertices[corners[i]]), origin),
							   bcSub(bcScale(scale, vertices[corners[i + 1]]), origin));
			if (n.x != 0.0 || n.y != 0.0 || n.z != 0.0) {
				*shape = bc_polygonSelfIntersecting;
				break;
			}
		}
		return true;
	}
	mean = bcScale(1.0 / (double)count, mean);
	double farthest = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		double d = fabs(bcDot(normal, bcSub(bcSub(bcScale(scale, vertices[corners[i]]), origin), mean)));
		farthest = d > farthest ? d : farthest;
	}
	*deviation = farthest / length / size;
	if (!(*deviation <= BC_POLYGON_PLANARITY_TOLERANCE)) {
		*shape = bc_polygonNonPlanar;
		return true;
	}

	/* The projection across the normal's largest axis k, on axes k + 1 and
	 * k + 2 (in that order, so the polygon turns there as the normal's k
	 * component says). */
	int k = fabs(normal.x) >= fabs(normal.y) ? (fabs(normal.x) >= fabs(normal.z) ? 0 : 2)
											 : (fabs(normal.y) >= fabs(normal.z) ? 1 : 2);
	if (!reserve(scratch, count)) {
		return false;
	}
	double* u = scratch->coordinates;
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 p = vertices[corners[i]];
		u[2 * i] = bcComponent(p, (k + 1) % 3);
		u[2 * i + 1] = bcComponent(p, (k + 2) % 3);
	}
	bcFlatPolygon flat = { u, count, bcComponent(normal, k) > 0.0 ? 1 : -1 };
	bool strictlyConvex = true, reflex = false;
	for (int32_t i = 0; i < count; ++i) {
		int t = turn(&flat, (i + count - 1) % count, i, (i + 1) % count);
		strictlyConvex = strictlyConvex && t > 0;
		reflex = reflex || t < 0;
	}
	/* A quadrilateral turning the same way at every corner is convex and
	 * simple; anything else is checked edge against edge. */
	if (!(strictlyConvex && count == 4) && !isSimple(&flat)) {
		*shape = bc_polygonSelfIntersecting;
		return true;
	}
	if (!reflex) {
		return true; /* convex: the fan stays */
	}
	*shape = bc_polygonConcave;
	clipEars(&flat, scratch->links, corners, triangles);
	return true;
}
