/* containment.c - closed meshes, the solids they bound, and how two solids
 * relate (the course's collision detection slides: "disjoint boundaries are not disjoint sets": a closed
 * cube inside another has no crossing pair of triangles, yet the two sets
 * are far from disjoint).
 *
 * Closed. A mesh is closed when every edge, taken as a pair of vertex
 * indices, is used by exactly two triangles that run along it in opposite
 * directions (u to v in one, v to u in the other), and no triangle repeats
 * a vertex index. So the surface has no border, no edge where three sheets
 * meet, and the triangles around every edge agree on which side is front.
 * It is decided on indices: a triangle soup whose corners coincide in
 * position without sharing indices is not closed.
 *
 * The solid of a closed mesh: the points a ray from them crosses the
 * surface an odd number of times (parity; whichever way the triangles
 * face), with the surface itself. Deciding it exactly (bcSolid_Locate):
 *  - on the surface: p on a triangle, by exact orientation signs;
 *  - else a ray along +x from p moved by (0, e, e^2), e infinitesimal: it
 *    crosses triangle a b c when the moved point is inside the triangle's
 *    projection on the y z plane (three 2D orientations with exact signs;
 *    an orientation that is exactly 0 takes the sign of its derivative in
 *    e, which depends on the edge alone, so the two triangles of an edge
 *    see the moved point on opposite sides: counted once) and p is behind
 *    the plane along +x (an exact orient3d). A triangle seen edge-on has
 *    no projected area and is never crossed.
 * No tolerance anywhere, and no new arithmetic: the signs are
 * lib/predicates.c's.
 *
 * How two solids relate (bcMesh_Relate). The pairs of triangles that meet
 * come from bcMesh_Intersect (exact, touching pairs kept). Then points of
 * each surface are placed against the other solid:
 *  - the triangles that meet no triangle of the other mesh lie wholly on
 *    one side of its surface; joined through shared vertices they form
 *    pieces, and one vertex per piece is located;
 *  - every vertex of a triangle that meets the other mesh is located (it
 *    may lie on the other surface), and so is its centroid unless that is
 *    within BC_RELATE_SAMPLE_MARGIN of the other surface (the centroid is
 *    rounded; nearer than that its side is not known).
 * A point of A's surface strictly inside B says the interiors overlap and B
 * is not inside A; strictly outside B, that A is not inside B (likewise
 * for B's points). A pair of triangles that cross (each through the
 * other's interior) says all three. Two triangles overlapping in one plane
 * say the interiors overlap when the two solids lie on the same side of
 * that plane there (each solid lies behind its front normals when its
 * signed volume is positive, in front otherwise). From these:
 * crossing when the interiors overlap and neither is inside the other;
 * a_inside_b or b_inside_a when the interiors overlap and one is not known
 * to stick out of the other (identical solids: a_inside_b); else touching
 * when some pair of triangles meets, else disjoint.
 * This is exact when the surfaces do not meet (then one point per piece
 * decides, as in the slides' 2D test) and when they cross; where they only
 * touch, the sampled points decide, which covers contacts at vertices,
 * edges and shared faces; a contact region whose sides no vertex or
 * centroid reaches could be missed. Meshes that intersect themselves are
 * outside what it promises.
 */
#include "containment.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "predicates.h"
#include "vec3.h"

/* A triangle's rounded centroid stands for its exact centroid only when it
 * is farther than this, times the largest coordinate L of the two meshes,
 * from the other mesh: it is a few ulps (1e-16 L) from the exact one, so
 * both are then on the same side of the other surface with a factor of a
 * million to spare. Nearer centroids (a triangle lying in the other
 * surface) are not used. */
#define BC_RELATE_SAMPLE_MARGIN 1e-9

/* ------------------------------------------------------------- closed */

/* Sort keys by their value (LSD radix sort, 16 bits a pass, passes where
 * every key has the same digit skipped); scratch holds as many. Returns
 * the array holding the result. */
static uint64_t* sortKeys(uint64_t* keys, uint64_t* scratch, size_t count)
{
	enum { radix = 1 << 16 };
	size_t* counts = bcAlloc(radix * sizeof *counts);
	if (counts == NULL) {
		return NULL;
	}
	uint64_t* from = keys;
	uint64_t* to = scratch;
	for (int shift = 0; shift < 64; shift += 16) {
		memset(counts, 0, radix * sizeof *counts);
		for (size_t i = 0; i < count; ++i) {
			counts[(from[i] >> shift) & (radix - 1)] += 1;
		}
		if (counts[(from[0] >> shift) & (radix - 1)] == count) {
			continue;
		}
		size_t sum = 0;
		for (size_t d = 0; d < radix; ++d) {
			size_t c = counts[d];
			counts[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < count; ++i) {
			to[counts[(from[i] >> shift) & (radix - 1)]++] = from[i];
		}
		uint64_t* swap = from;
		from = to;
		to = swap;
	}
	bcFree(counts);
	return from;
}

/* 1 closed, 0 not, -1 out of memory. */
static int isClosed(const bcMesh* mesh)
{
	size_t count = 3 * (size_t)mesh->triangleCount;
	if (count == 0) {
		return 0;
	}
	uint64_t* keys = bcAlloc(2 * count * sizeof *keys);
	if (keys == NULL) {
		return -1;
	}
	/* Each directed edge u -> v as (min, max, direction): indices are below
	 * 2^31, so min takes bits 32..62, max bits 1..31, the direction bit 0. */
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		const int32_t* v = mesh->triangles + 3 * (size_t)t;
		if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) {
			bcFree(keys);
			return 0;
		}
		for (int k = 0; k < 3; ++k) {
			uint64_t u = (uint64_t)v[k], w = (uint64_t)v[(k + 1) % 3];
			keys[3 * (size_t)t + (size_t)k] = u < w ? (u << 32 | w << 1) : (w << 32 | u << 1 | 1u);
		}
	}
	uint64_t* sorted = sortKeys(keys, keys + count, count);
	int closed = sorted == NULL ? -1 : 1;
	/* Sorted, an edge's keys are adjacent: exactly (forward, backward). */
	for (size_t i = 0; sorted != NULL && i < count; i += 2) {
		if (i + 1 >= count || sorted[i] >> 1 != sorted[i + 1] >> 1 || (sorted[i] & 1u) != 0 ||
			(sorted[i + 1] & 1u) != 1 || (i + 2 < count && sorted[i + 2] >> 1 == sorted[i] >> 1)) {
			closed = 0;
			break;
		}
	}
	bcFree(keys);
	return closed;
}

bool bcMesh_IsClosed(const bcMesh* mesh)
{
	return mesh != NULL && isClosed(mesh) == 1;
}

/* ------------------------------------------------------------- points */

/* q on segment u v: collinear (every coordinate plane's orientation 0) and
 * within the segment's box. */
static bool onSegment(bcVec3 q, bcVec3 u, bcVec3 v)
{
	if (bcOrient2d(u.x, u.y, v.x, v.y, q.x, q.y) != 0.0 || bcOrient2d(u.y, u.z, v.y, v.z, q.y, q.z) != 0.0 ||
		bcOrient2d(u.z, u.x, v.z, v.x, q.z, q.x) != 0.0) {
		return false;
	}
	bcVec3 lo = bcMin(u, v), hi = bcMax(u, v);
	return q.x >= lo.x && q.x <= hi.x && q.y >= lo.y && q.y <= hi.y && q.z >= lo.z && q.z <= hi.z;
}

/* Coordinates (first, second) of v in the coordinate plane across axis k. */
static void project(bcVec3 v, int k, double* s, double* t)
{
	*s = k == 0 ? v.y : (k == 1 ? v.z : v.x);
	*t = k == 0 ? v.z : (k == 1 ? v.x : v.y);
}

bool bcPointOnTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c)
{
	if (bcOrient3d(a, b, c, p, 1.0) != 0.0) {
		return false;
	}
	/* In the plane: on a coordinate plane where the triangle has area, the
	 * projection is one to one. */
	for (int k = 0; k < 3; ++k) {
		double as, at, bs, bt, cs, ct, ps, pt;
		project(a, k, &as, &at);
		project(b, k, &bs, &bt);
		project(c, k, &cs, &ct);
		int area = bcSign(bcOrient2d(as, at, bs, bt, cs, ct));
		if (area == 0) {
			continue;
		}
		project(p, k, &ps, &pt);
		return bcSign(bcOrient2d(as, at, bs, bt, ps, pt)) != -area &&
			   bcSign(bcOrient2d(bs, bt, cs, ct, ps, pt)) != -area && bcSign(bcOrient2d(cs, ct, as, at, ps, pt)) != -area;
	}
	return onSegment(p, a, b) || onSegment(p, b, c) || onSegment(p, c, a);
}

/* The side of the moved point q + (0, e, e^2) of the directed edge u v in
 * the y z plane: the sign of orient2d, or when that is 0, of its
 * derivative in e: uz - vz, then vy - uy (0 only when u and v coincide
 * there). */
static int edgeSide(bcVec3 u, bcVec3 v, bcVec3 q)
{
	int s = bcSign(bcOrient2d(u.y, u.z, v.y, v.z, q.y, q.z));
	if (s != 0) {
		return s;
	}
	if (u.z != v.z) {
		return u.z > v.z ? 1 : -1;
	}
	return v.y > u.y ? 1 : (v.y < u.y ? -1 : 0);
}

/* Whether the ray along +x from q (moved) crosses triangle a b c; q is not
 * on the triangle. */
static bool crossesRay(bcVec3 q, bcVec3 a, bcVec3 b, bcVec3 c)
{
	/* n.x of n = (b - a) x (c - a): the projected area */
	int area = bcSign(bcOrient2d(a.y, a.z, b.y, b.z, c.y, c.z));
	if (area == 0 || edgeSide(a, b, q) != area || edgeSide(b, c, q) != area || edgeSide(c, a, q) != area) {
		return false;
	}
	/* The plane n . (x - a) = 0 is met at q + t e_x, t = -n . (q - a) / n.x:
	 * ahead when n . (q - a) and n.x have opposite signs. */
	return bcSign(bcOrient3d(a, b, c, q, 1.0)) == -area;
}

bool bcSolid_Init(bcSolid* solid, const bcMesh* mesh, bool bruteForce)
{
	memset(solid, 0, sizeof *solid);
	solid->mesh = mesh;
	solid->bruteForce = bruteForce || mesh->bvh == NULL;
	if (solid->bruteForce || mesh->degenerateCount == 0) {
		return true;
	}
	solid->degenerate = bcAlloc((size_t)mesh->degenerateCount * sizeof *solid->degenerate);
	if (solid->degenerate == NULL) {
		return false;
	}
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		bcVec3 n = mesh->normals[t];
		if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0 && solid->degenerateCount < mesh->degenerateCount) {
			solid->degenerate[solid->degenerateCount++] = t;
		}
	}
	return true;
}

void bcSolid_Free(bcSolid* solid)
{
	bcFree(solid->degenerate);
	solid->degenerate = NULL;
	solid->degenerateCount = 0;
}

/* One query's state. */
typedef struct bcLocateSearch {
	const bcMesh* mesh;
	bcVec3 p;
	bool on;
	int crossings;
} bcLocateSearch;

static void triangleOf(const bcMesh* mesh, int32_t t, bcVec3* a, bcVec3* b, bcVec3* c)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	*a = mesh->vertices[v[0]];
	*b = mesh->vertices[v[1]];
	*c = mesh->vertices[v[2]];
}

static void visitOn(void* context, int32_t triangle, double* maxDistance)
{
	bcLocateSearch* search = context;
	bcVec3 a, b, c;
	triangleOf(search->mesh, triangle, &a, &b, &c);
	if (bcPointOnTriangle(search->p, a, b, c)) {
		search->on = true;
		*maxDistance = -1.0; /* found: the walk ends */
	}
}

static void visitRay(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	(void)maxAlpha; /* every triangle along the ray counts: never lowered */
	bcLocateSearch* search = context;
	search->crossings += crossesRay(search->p, triangle->a, triangle->b, triangle->c);
}

bcPointSide bcSolid_Locate(const bcSolid* solid, bcVec3 p)
{
	const bcMesh* mesh = solid->mesh;
	bcVec3 lo = mesh->lowerBound, hi = mesh->upperBound;
	if (!(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z)) {
		return bc_sideOutside; /* beyond the box (or NaN): no triangle there */
	}
	bcLocateSearch search = { mesh, p, false, 0 };
	/* the ray's segment: from p to beyond the box along +x */
	bcVec3 d = bcMakeVec3((hi.x - p.x) + 0.5 * (hi.x - lo.x) + 1.0, 0.0, 0.0);
	bool brute = solid->bruteForce || !isfinite(d.x);
	if (brute) {
		for (int32_t t = 0; t < mesh->triangleCount && !search.on; ++t) {
			bcVec3 a, b, c;
			triangleOf(mesh, t, &a, &b, &c);
			search.on = bcPointOnTriangle(p, a, b, c);
		}
	} else {
		double maxDistance = 0.0;
		bcBvh_QueryPoint(mesh->bvh, p, &maxDistance, visitOn, &search);
		for (int32_t i = 0; i < solid->degenerateCount && !search.on; ++i) {
			bcVec3 a, b, c;
			triangleOf(mesh, solid->degenerate[i], &a, &b, &c);
			search.on = bcPointOnTriangle(p, a, b, c);
		}
	}
	if (search.on) {
		return bc_sideOn;
	}
	if (brute) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			bcVec3 a, b, c;
			triangleOf(mesh, t, &a, &b, &c);
			search.crossings += crossesRay(p, a, b, c);
		}
	} else {
		double maxAlpha = 1.0;
		bcBvh_QuerySweep(mesh->bvh, p, d, 0.0, &maxAlpha, visitRay, &search);
		/* degenerate (sliver) triangles may still have projected area */
		for (int32_t i = 0; i < solid->degenerateCount; ++i) {
			bcVec3 a, b, c;
			triangleOf(mesh, solid->degenerate[i], &a, &b, &c);
			search.crossings += crossesRay(p, a, b, c);
		}
	}
	return (search.crossings & 1) != 0 ? bc_sideInside : bc_sideOutside;
}

/* ------------------------------------------------------------ relate */

bcRelateOptions bcDefaultRelateOptions(void)
{
	bcRelateOptions options = { false, 0 };
	return options;
}

const char* bcRelationName(bcRelation relation)
{
	switch (relation) {
	case bc_relationNotClosed:
		return "not_closed";
	case bc_relationDisjoint:
		return "disjoint";
	case bc_relationTouching:
		return "touching";
	case bc_relationCrossing:
		return "crossing";
	case bc_relationAInsideB:
		return "a_inside_b";
	case bc_relationBInsideA:
		return "b_inside_a";
	case bc_relationFailed:
		return "failed";
	}
	return "unknown";
}

/* What the points of one surface say about the other solid. */
typedef struct bcEvidence {
	bool inside;  /* a point strictly inside the other solid */
	bool outside; /* a point strictly outside it */
} bcEvidence;

static int32_t findRoot(int32_t* parent, int32_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

static void note(bcEvidence* evidence, bcPointSide side)
{
	evidence->inside = evidence->inside || side == bc_sideInside;
	evidence->outside = evidence->outside || side == bc_sideOutside;
}

static double largestCoordinate(const bcMesh* mesh)
{
	return fmax(bcMaxAbs(mesh->lowerBound), bcMaxAbs(mesh->upperBound));
}

/* Place the points of `from`'s surface against the solid of `to`: one
 * vertex per piece of triangles that meet nothing of `to`, every vertex
 * and (far enough from `to`) the centroid of the triangles that do
 * (touched[t]). False when out of memory. */
static bool sample(const bcMesh* from, const bcMesh* to, const bcSolid* solid, const bool* touched, double margin,
				   bcEvidence* evidence)
{
	int32_t n = from->vertexCount;
	int32_t* parent = bcAlloc((size_t)n * sizeof *parent);
	unsigned char* used = bcAllocZeroed((size_t)n, 1); /* 1: in a free triangle, 2: only in touched ones */
	if (parent == NULL || used == NULL) {
		bcFree(parent);
		bcFree(used);
		return false;
	}
	for (int32_t v = 0; v < n; ++v) {
		parent[v] = v;
	}
	for (int32_t t = 0; t < from->triangleCount; ++t) {
		const int32_t* v = from->triangles + 3 * (size_t)t;
		if (touched[t]) {
			for (int k = 0; k < 3; ++k) {
				used[v[k]] = used[v[k]] == 1 ? 1 : 2;
			}
			continue;
		}
		for (int k = 0; k < 3; ++k) {
			used[v[k]] = 1;
		}
		int32_t r0 = findRoot(parent, v[0]), r1 = findRoot(parent, v[1]), r2 = findRoot(parent, v[2]);
		parent[r1] = r0;
		parent[r2] = r0;
	}
	/* one vertex per piece (its root), every vertex only in touched triangles */
	for (int32_t v = 0; v < n && !(evidence->inside && evidence->outside); ++v) {
		if (used[v] == 2 || (used[v] == 1 && findRoot(parent, v) == v)) {
			note(evidence, bcSolid_Locate(solid, from->vertices[v]));
		}
	}
	bcFree(parent);
	bcFree(used);
	bcClosestOptions closest = bcDefaultClosestOptions();
	closest.bruteForce = solid->bruteForce;
	for (int32_t t = 0; t < from->triangleCount && !(evidence->inside && evidence->outside); ++t) {
		if (!touched[t]) {
			continue;
		}
		bcVec3 a, b, c;
		triangleOf(from, t, &a, &b, &c);
		bcVec3 centroid = bcMakeVec3((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0, (a.z + b.z + c.z) / 3.0);
		bcClosestOutput near = bcMesh_Closest(to, (bcClosestInput){ centroid, 0.0 }, &closest);
		if (near.state == bc_closestFound && near.distance > margin) {
			bcPointSide side = bcSolid_Locate(solid, centroid);
			if (side != bc_sideOn) {
				note(evidence, side);
			}
		}
	}
	return true;
}

/* The sign of a closed mesh's signed volume: +1 when its front normals
 * point out of the solid, -1 when in, 0 for a flat one. Summed about the
 * middle of its box, in floating point: a solid's volume is not near 0. */
static int orientationOf(const bcMesh* mesh)
{
	bcVec3 o = bcScale(0.5, bcAdd(mesh->lowerBound, mesh->upperBound));
	double volume = 0.0;
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		bcVec3 a, b, c;
		triangleOf(mesh, t, &a, &b, &c);
		volume += bcDot(bcSub(a, o), bcCross(bcSub(b, o), bcSub(c, o)));
	}
	return bcSign(volume);
}

/* Two triangles overlapping in one plane: do the two solids lie on the
 * same side of it there? Their fronts point the same way or not (the
 * exact signs of the projected areas on a plane where the first has area);
 * each solid lies behind its fronts when its orientation is +1. */
static bool sameSide(const bcMesh* a, int32_t ta, int orientA, const bcMesh* b, int32_t tb, int orientB)
{
	bcVec3 p[3], q[3];
	triangleOf(a, ta, &p[0], &p[1], &p[2]);
	triangleOf(b, tb, &q[0], &q[1], &q[2]);
	for (int k = 0; k < 3; ++k) {
		double s[3][2], u[3][2];
		for (int i = 0; i < 3; ++i) {
			project(p[i], k, &s[i][0], &s[i][1]);
			project(q[i], k, &u[i][0], &u[i][1]);
		}
		int areaA = bcSign(bcOrient2d(s[0][0], s[0][1], s[1][0], s[1][1], s[2][0], s[2][1]));
		if (areaA == 0) {
			continue;
		}
		int areaB = bcSign(bcOrient2d(u[0][0], u[0][1], u[1][0], u[1][1], u[2][0], u[2][1]));
		return areaA * areaB * orientA * orientB > 0;
	}
	return false;
}

static bcRelateOutput failed(bcRelateOutput out, bcError* error)
{
	bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory relating two meshes");
	out.relation = bc_relationFailed;
	return out;
}

bcRelateOutput bcMesh_Relate(const bcMesh* a, const bcMesh* b, const bcRelateOptions* options, bcError* error)
{
	bcRelateOptions o = options != NULL ? *options : bcDefaultRelateOptions();
	bcRelateOutput out;
	memset(&out, 0, sizeof out);
	out.relation = bc_relationNotClosed;
	if (a == NULL || b == NULL) {
		return out;
	}
	int closedA = isClosed(a), closedB = isClosed(b);
	if (closedA < 0 || closedB < 0) {
		return failed(out, error);
	}
	out.aClosed = closedA == 1;
	out.bClosed = closedB == 1;
	if (!out.aClosed || !out.bClosed) {
		return out;
	}

	bcIntersectOptions intersect = bcDefaultIntersectOptions();
	intersect.bruteForce = o.bruteForce;
	intersect.threadCount = o.threadCount;
	bcIntersectList* pairs = bcMesh_Intersect(a, b, &intersect, error);
	if (pairs == NULL) {
		return failed(out, error);
	}
	out.pairCount = pairs->count;
	bool* touchedA = bcAllocZeroed((size_t)a->triangleCount, sizeof *touchedA);
	bool* touchedB = bcAllocZeroed((size_t)b->triangleCount, sizeof *touchedB);
	bcSolid solidA, solidB;
	bool readyA = bcSolid_Init(&solidA, a, o.bruteForce);
	bool readyB = bcSolid_Init(&solidB, b, o.bruteForce);
	bool ok = touchedA != NULL && touchedB != NULL && readyA && readyB;

	bool coplanarOverlap = false;
	int orientA = ok ? orientationOf(a) : 0, orientB = ok ? orientationOf(b) : 0;
	for (size_t i = 0; ok && i < pairs->count; ++i) {
		const bcIntersectPair* p = pairs->pairs + i;
		touchedA[p->a] = true;
		touchedB[p->b] = true;
		out.crossingCount += p->state == bc_triTriCrossing;
		if (p->state == bc_triTriCoplanar && !coplanarOverlap) {
			coplanarOverlap = sameSide(a, p->a, orientA, b, p->b, orientB);
		}
	}
	bcEvidence fromA = { false, false }, fromB = { false, false };
	if (ok && out.crossingCount == 0) {
		double margin = BC_RELATE_SAMPLE_MARGIN * fmax(largestCoordinate(a), largestCoordinate(b));
		ok = sample(a, b, &solidB, touchedA, margin, &fromA) && sample(b, a, &solidA, touchedB, margin, &fromB);
	}
	bcFree(touchedA);
	bcFree(touchedB);
	bcSolid_Free(&solidA);
	bcSolid_Free(&solidB);
	bcIntersectList_Destroy(pairs);
	if (!ok) {
		return failed(out, error);
	}
	out.aPointInsideB = fromA.inside;
	out.aPointOutsideB = fromA.outside;
	out.bPointInsideA = fromB.inside;
	out.bPointOutsideA = fromB.outside;

	bool overlap = fromA.inside || fromB.inside || coplanarOverlap;
	bool aSticksOut = fromA.outside || fromB.inside; /* A is not inside B */
	bool bSticksOut = fromB.outside || fromA.inside; /* B is not inside A */
	if (out.crossingCount > 0 || (overlap && aSticksOut && bSticksOut)) {
		out.relation = bc_relationCrossing;
	} else if (overlap && !aSticksOut) {
		out.relation = bc_relationAInsideB;
	} else if (overlap) {
		out.relation = bc_relationBInsideA;
	} else {
		out.relation = out.pairCount > 0 ? bc_relationTouching : bc_relationDisjoint;
	}
	return out;
}
