/* containment.c tests: closed meshes, the point-in-solid test, and how two
 * solids relate (the course slides: disjoint boundaries are not disjoint sets).
 *
 * Closedness on hand-made meshes (a border, a flipped triangle, a repeated
 * index, an unwelded soup, two components, a flat double triangle). The
 * point test against the exact answer for a box on a grid of points whose
 * coordinates equal the box's own (rays through its edges and vertices,
 * points on its faces, edges and vertices), on a sheared box, on a box
 * with a zero-area and a sliver triangle, and on icospheres against the
 * distance from the centre; the hierarchy against brute force. Relations:
 * nested cubes both ways (apart and flush), disjoint, touching at a face,
 * part of a face, an edge and a vertex, a tetrahedron's apex exactly on a
 * cube's face, edge and vertex from outside and from inside, crossing
 * with and without a crossing pair of triangles, equal cubes, a hollow
 * shell and what lies in its cavity or its wall, icospheres, and meshes
 * that are not closed. */
#include <string.h>

#include "containment.h"
#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

static bcVec3 vec(double x, double y, double z)
{
	return bcMakeVec3(x, y, z);
}

static bcMesh* fromArrays(const double* v, int32_t vertexCount, const int32_t* t, int32_t triangleCount)
{
	bcMeshDef def = { v, vertexCount, t, triangleCount, NULL, 0 };
	bcError error;
	bcMesh* mesh = bcMesh_Create(&def, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	return mesh;
}

static bcMesh* build(bcGenMesh* g)
{
	bcMesh* mesh = bcGenMesh_Build(g);
	ck_assert(mesh != NULL);
	bcGenMesh_Free(g);
	return mesh;
}

/* A box with welded corners, two triangles a side, faces outward (or in). */
static bcMesh* box(bcVec3 lower, bcVec3 upper, int inward)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, lower, upper, 1, inward);
	return build(&g);
}

/* A tetrahedron with apex and a base triangle, faces outward. */
static bcMesh* tetrahedron(bcVec3 apex, bcVec3 b0, bcVec3 b1, bcVec3 b2)
{
	double v[12] = { apex.x, apex.y, apex.z, b0.x, b0.y, b0.z, b1.x, b1.y, b1.z, b2.x, b2.y, b2.z };
	/* orient so that the base's normal points away from the apex */
	bcVec3 n = bcCross(bcSub(b1, b0), bcSub(b2, b0));
	bool flip = bcDot(n, bcSub(apex, b0)) > 0.0;
	int32_t base[3] = { 1, flip ? 3 : 2, flip ? 2 : 3 };
	int32_t t[12] = { base[0], base[1], base[2], 0, base[1], base[0], 0, base[2], base[1], 0, base[0], base[2] };
	bcMesh* mesh = fromArrays(v, 4, t, 4);
	ck_assert(bcMesh_IsClosed(mesh));
	return mesh;
}

/* --------------------------------------------------------------- closed */

START_TEST(closed_meshes)
{
	bcMesh* mesh = box(vec(0, 0, 0), vec(1, 1, 1), 0);
	ck_assert(bcMesh_IsClosed(mesh));
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	ck_assert_int_eq(info.triangleCount, 12);
	double v[3 * 8];
	int32_t t[3 * 12];
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 p = bcMesh_GetVertex(mesh, i);
		v[3 * i] = p.x;
		v[3 * i + 1] = p.y;
		v[3 * i + 2] = p.z;
	}
	for (int32_t i = 0; i < 12; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, i);
		memcpy(t + 3 * i, tri.vertices, sizeof tri.vertices);
	}
	bcMesh_Destroy(mesh);

	/* a border: one triangle left out */
	mesh = fromArrays(v, 8, t, 11);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* one triangle turned over: its edges run the same way as a neighbour's */
	int32_t flipped[3 * 12];
	memcpy(flipped, t, sizeof t);
	flipped[4] = t[5];
	flipped[5] = t[4];
	mesh = fromArrays(v, 8, flipped, 12);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* a repeated index */
	int32_t repeated[3 * 13];
	memcpy(repeated, t, sizeof t);
	repeated[36] = 0;
	repeated[37] = 1;
	repeated[38] = 1;
	mesh = fromArrays(v, 8, repeated, 13);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* an edge shared by four triangles: the box with a copy of itself */
	int32_t doubled[3 * 24];
	memcpy(doubled, t, sizeof t);
	memcpy(doubled + 36, t, sizeof t);
	mesh = fromArrays(v, 8, doubled, 24);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* unwelded: the same triangles with a vertex of their own each */
	double soup[3 * 36];
	int32_t own[36];
	for (int i = 0; i < 36; ++i) {
		memcpy(soup + 3 * i, v + 3 * t[i], 3 * sizeof *v);
		own[i] = i;
	}
	mesh = fromArrays(soup, 36, own, 12);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* two boxes in one mesh, one of them inward: closed */
	bcGenMesh g = { 0 };
	bcGenBox(&g, vec(0, 0, 0), vec(1, 1, 1), 2, 0);
	bcGenBox(&g, vec(3, 0, 0), vec(4, 1, 1), 3, 1);
	mesh = build(&g);
	ck_assert(bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* a triangle and its back: closed, and flat */
	const double tv[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	const int32_t tt[] = { 0, 1, 2, 0, 2, 1 };
	mesh = fromArrays(tv, 3, tt, 2);
	ck_assert(bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	mesh = fromArrays(tv, 3, tt, 1);
	ck_assert(!bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	/* icospheres are closed */
	bcGenIcosphere(&g, 3, vec(0, 0, 0), 1, 0);
	mesh = build(&g);
	ck_assert(bcMesh_IsClosed(mesh));
	bcMesh_Destroy(mesh);
	ck_assert(!bcMesh_IsClosed(NULL));
}
END_TEST

/* ---------------------------------------------------------------- points */

static const char* sideName(bcPointSide side)
{
	return side == bc_sideInside ? "inside" : (side == bc_sideOn ? "on" : "outside");
}

/* Locate with the hierarchy and by brute force; both must agree. */
static bcPointSide locate(const bcMesh* mesh, bcVec3 p)
{
	bcSolid fast, slow;
	ck_assert(bcSolid_Init(&fast, mesh, false));
	ck_assert(bcSolid_Init(&slow, mesh, true));
	bcPointSide a = bcSolid_Locate(&fast, p);
	bcPointSide b = bcSolid_Locate(&slow, p);
	ck_assert_msg(a == b, "(%.17g %.17g %.17g): hierarchy %s, brute force %s", p.x, p.y, p.z, sideName(a),
				  sideName(b));
	bcSolid_Free(&fast);
	bcSolid_Free(&slow);
	return a;
}

/* The exact answer for the box [lo, hi]^3 */
static bcPointSide boxSide(bcVec3 p, double lo, double hi)
{
	const double c[3] = { p.x, p.y, p.z };
	bool inside = true, closed = true;
	for (int k = 0; k < 3; ++k) {
		inside = inside && c[k] > lo && c[k] < hi;
		closed = closed && c[k] >= lo && c[k] <= hi;
	}
	return inside ? bc_sideInside : (closed ? bc_sideOn : bc_sideOutside);
}

/* Every point of a grid whose coordinates include the box's own: rays
 * along its edges, through its vertices and along its faces' diagonals;
 * points on its faces, edges and vertices. */
START_TEST(box_grid_exactly)
{
	const double grid[] = { -1, 0, 0.5, 1, 1.5, 2, 3 };
	for (int inward = 0; inward < 2; ++inward) {
		for (int cells = 1; cells <= 2; ++cells) {
			bcGenMesh g = { 0 };
			bcGenBox(&g, vec(0, 0, 0), vec(2, 2, 2), cells, inward);
			bcMesh* mesh = build(&g);
			int counts[3] = { 0 };
			for (int i = 0; i < 7; ++i) {
				for (int j = 0; j < 7; ++j) {
					for (int k = 0; k < 7; ++k) {
						bcVec3 p = vec(grid[i], grid[j], grid[k]);
						bcPointSide side = locate(mesh, p);
						ck_assert_msg(side == boxSide(p, 0, 2), "(%g %g %g): %s, expected %s", p.x, p.y, p.z,
									  sideName(side), sideName(boxSide(p, 0, 2)));
						counts[side] += 1;
					}
				}
			}
			ck_assert(counts[0] > 100 && counts[1] == 27 && counts[2] > 50);
			bcMesh_Destroy(mesh);
		}
	}
}
END_TEST

/* A box sheared so that no face is parallel to the ray: points on a grid
 * in its own frame map to exactly representable points, mostly; the
 * answer is that of the unsheared box unless rounding moved the point (on
 * a face, then either side is fair, but never "on" a face it is not on). */
START_TEST(sheared_box)
{
	/* x' = x + y / 4 + z / 8, exact for multiples of 1/8 */
	bcGenMesh g = { 0 };
	bcGenBox(&g, vec(0, 0, 0), vec(2, 2, 2), 2, 0);
	for (int32_t i = 0; i < g.vertexCount; ++i) {
		double* p = g.vertices + 3 * i;
		p[0] += p[1] / 4 + p[2] / 8;
	}
	bcMesh* mesh = build(&g);
	ck_assert(bcMesh_IsClosed(mesh));
	const double grid[] = { -1, 0, 0.5, 1, 1.5, 2, 3 };
	for (int i = 0; i < 7; ++i) {
		for (int j = 0; j < 7; ++j) {
			for (int k = 0; k < 7; ++k) {
				bcVec3 q = vec(grid[i], grid[j], grid[k]);
				bcVec3 p = vec(q.x + q.y / 4 + q.z / 8, q.y, q.z);
				ck_assert(locate(mesh, p) == boxSide(q, 0, 2));
			}
		}
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* A closed box whose side x = 0 has an extra corner M on its edge from
 * (0,0,0) to (0,2,0): fanned from (0,0,0) it gives a zero-area triangle
 * (0,0,0) M (0,2,0); moved off the edge by 1e-15 it gives a sliver the
 * mesh calls degenerate (and leaves out of its hierarchy) though its area
 * is not zero. Rays through both, and every grid point, agree with the
 * exact box (for the sliver, points away from its tiny bulge). */
static bcMesh* boxWithExtraCorner(double offset)
{
	/* 0..7: the box's corners (x, y, z in {0, 2}) as index x/2 + y + 2z; 8: M */
	double v[27];
	for (int i = 0; i < 8; ++i) {
		v[3 * i] = (i & 1) ? 2 : 0;
		v[3 * i + 1] = (i & 2) ? 2 : 0;
		v[3 * i + 2] = (i & 4) ? 2 : 0;
	}
	v[24] = offset;
	v[25] = 1;
	v[26] = 0;
	const int32_t t[] = {
		/* x = 0 (outward -x): polygon 0 4 6 2 8 fanned from 0 */
		0, 4, 6, 0, 6, 2, 0, 2, 8,
		/* x = 2 */
		1, 3, 7, 1, 7, 5,
		/* y = 0 (outward -y) */
		0, 1, 5, 0, 5, 4,
		/* y = 2 */
		2, 6, 7, 2, 7, 3,
		/* z = 0 (outward -z), with M on its edge 0-2: 0 8 2 3 1 */
		0, 8, 1, 8, 2, 3, 8, 3, 1,
		/* z = 2 */
		4, 5, 7, 4, 7, 6,
	};
	return fromArrays(v, 9, t, (int32_t)(sizeof t / sizeof t[0] / 3));
}

START_TEST(degenerate_triangles_bound_the_solid)
{
	const double grid[] = { -1, 0, 0.5, 1, 1.5, 2, 3 };
	for (int sliver = 0; sliver < 2; ++sliver) {
		bcMesh* mesh = boxWithExtraCorner(sliver ? -1e-15 : 0.0);
		ck_assert(bcMesh_IsClosed(mesh));
		ck_assert_int_ge(bcMesh_GetInfo(mesh).degenerateCount, 1);
		for (int i = 0; i < 7; ++i) {
			for (int j = 0; j < 7; ++j) {
				for (int k = 0; k < 7; ++k) {
					bcVec3 p = vec(grid[i], grid[j], grid[k]);
					if (sliver && grid[i] == 0 && grid[k] == 0 && grid[j] > 0 && grid[j] < 2) {
						continue; /* on the sliver's bulge: off the box's face by 1e-15 */
					}
					bcPointSide side = locate(mesh, p);
					ck_assert_msg(side == boxSide(p, 0, 2), "sliver %d (%g %g %g): %s", sliver, p.x, p.y, p.z,
								  sideName(side));
				}
			}
		}
		/* the ray from just inside through the sliver's plane, at M's height */
		ck_assert_int_eq(locate(mesh, vec(-0.5, 1, 1e-16)), bc_sideOutside);
		ck_assert_int_eq(locate(mesh, vec(1, 1, 1e-16)), bc_sideInside);
		bcMesh_Destroy(mesh);
	}
}
END_TEST

START_TEST(icosphere_against_distance)
{
	/* an icosphere of radius 1: every point within the inscribed radius is
	 * inside, every point beyond 1 outside; its vertices are on it */
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 2, vec(0.25, -0.5, 1), 1, 0);
	bcMesh* mesh = build(&g);
	bcRandom rng = { 5 };
	int inside = 0, outside = 0;
	for (int i = 0; i < 3000; ++i) {
		bcVec3 u = bcRandom_OnSphere(&rng);
		double r = bcRandom_Uniform(&rng, 0.0, 1.6);
		bcVec3 p = bcMulAdd(vec(0.25, -0.5, 1), r, u);
		bcPointSide side = locate(mesh, p);
		if (r < 0.95) {
			ck_assert_int_eq(side, bc_sideInside);
			inside += 1;
		} else if (r > 1.0) {
			ck_assert_int_eq(side, bc_sideOutside);
			outside += 1;
		}
	}
	ck_assert(inside > 1000 && outside > 500);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	for (int32_t v = 0; v < info.vertexCount; ++v) {
		ck_assert_int_eq(locate(mesh, bcMesh_GetVertex(mesh, v)), bc_sideOn);
	}
	/* along the axis through a vertex of the icosahedron, both ways */
	bcVec3 top = bcMesh_GetVertex(mesh, 0);
	bcVec3 axis = bcSub(top, vec(0.25, -0.5, 1));
	ck_assert_int_eq(locate(mesh, bcMulAdd(vec(0.25, -0.5, 1), 0.5, axis)), bc_sideInside);
	ck_assert_int_eq(locate(mesh, bcMulAdd(vec(0.25, -0.5, 1), 1.5, axis)), bc_sideOutside);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(point_on_triangle)
{
	bcVec3 a = vec(0, 0, 0), b = vec(2, 0, 0), c = vec(0, 2, 2);
	ck_assert(bcPointOnTriangle(a, a, b, c));
	ck_assert(bcPointOnTriangle(vec(1, 0, 0), a, b, c));
	ck_assert(bcPointOnTriangle(vec(1, 1, 1), a, b, c));
	ck_assert(bcPointOnTriangle(vec(0.5, 0.5, 0.5), a, b, c));
	ck_assert(!bcPointOnTriangle(vec(0.5, 0.5, 0.5000000000000001), a, b, c));
	ck_assert(!bcPointOnTriangle(vec(1.5, 1, 1), a, b, c));
	ck_assert(!bcPointOnTriangle(vec(-1e-300, 0, 0), a, b, c));
	/* a triangle on a line: its segments */
	ck_assert(bcPointOnTriangle(vec(3, 0, 0), a, b, vec(4, 0, 0)));
	ck_assert(!bcPointOnTriangle(vec(5, 0, 0), a, b, vec(4, 0, 0)));
	ck_assert(!bcPointOnTriangle(vec(1, 1e-300, 0), a, b, vec(4, 0, 0)));
}
END_TEST

/* ------------------------------------------------------------- relations */

static bcRelation relate(const bcMesh* a, const bcMesh* b)
{
	bcRelateOptions brute = bcDefaultRelateOptions();
	brute.bruteForce = true;
	bcError error;
	bcRelateOutput fast = bcMesh_Relate(a, b, NULL, &error);
	bcRelateOutput slow = bcMesh_Relate(a, b, &brute, &error);
	ck_assert_msg(fast.relation == slow.relation && fast.pairCount == slow.pairCount &&
					  fast.crossingCount == slow.crossingCount,
				  "hierarchy %s, brute force %s", bcRelationName(fast.relation), bcRelationName(slow.relation));
	/* swapping the meshes swaps the answer */
	bcRelateOutput swapped = bcMesh_Relate(b, a, NULL, &error);
	bcRelation mirror = fast.relation == bc_relationAInsideB   ? bc_relationBInsideA
						: fast.relation == bc_relationBInsideA ? bc_relationAInsideB
															   : fast.relation;
	if (a != b) {
		/* (a mesh against itself: each inside the other, a_inside_b both ways) */
		ck_assert_msg(swapped.relation == mirror, "%s, swapped %s", bcRelationName(fast.relation),
					  bcRelationName(swapped.relation));
	}
	return fast.relation;
}

#define assertRelation(a, b, expected)                                                                                 \
	do {                                                                                                               \
		bcRelation got_ = relate((a), (b));                                                                            \
		ck_assert_msg(got_ == (expected), "%s: %s, expected %s", #a " vs " #b, bcRelationName(got_),                   \
					  bcRelationName(expected));                                                                       \
	} while (0)

START_TEST(nested_disjoint_touching_crossing_cubes)
{
	bcMesh* big = box(vec(0, 0, 0), vec(3, 3, 3), 0);
	bcMesh* small = box(vec(1, 1, 1), vec(2, 2, 2), 0);
	bcMesh* flush = box(vec(0, 0, 0), vec(1, 1, 1), 0);   /* in big's corner: three faces shared */
	bcMesh* beside = box(vec(3, 0, 0), vec(4, 3, 3), 0);  /* big's face x = 3, all of it */
	bcMesh* partly = box(vec(3, 1, 0.5), vec(5, 4, 1), 0); /* part of that face */
	bcMesh* edge = box(vec(3, 3, 0), vec(4, 4, 3), 0);    /* along big's edge x = y = 3 */
	bcMesh* corner = box(vec(3, 3, 3), vec(4, 4, 4), 0);  /* at big's vertex (3, 3, 3) */
	bcMesh* apart = box(vec(5, 5, 5), vec(6, 6, 6), 0);
	bcMesh* overlapping = box(vec(2, 2, 2), vec(4, 4, 4), 0);
	bcMesh* slab = box(vec(1, 0, 0), vec(4, 3, 3), 0); /* big's faces y, z = 0, 3 shared in part */

	assertRelation(small, big, bc_relationAInsideB);
	assertRelation(big, small, bc_relationBInsideA);
	assertRelation(flush, big, bc_relationAInsideB);
	assertRelation(big, flush, bc_relationBInsideA);
	assertRelation(big, apart, bc_relationDisjoint);
	assertRelation(small, flush, bc_relationTouching); /* they share the vertex (1, 1, 1) */
	assertRelation(big, beside, bc_relationTouching);
	assertRelation(big, partly, bc_relationTouching);
	assertRelation(big, edge, bc_relationTouching);
	assertRelation(big, corner, bc_relationTouching);
	assertRelation(big, overlapping, bc_relationCrossing);
	assertRelation(big, slab, bc_relationCrossing);
	assertRelation(big, big, bc_relationAInsideB);

	bcError error;
	bcRelateOutput out = bcMesh_Relate(big, overlapping, NULL, &error);
	ck_assert_uint_gt(out.crossingCount, 0);
	out = bcMesh_Relate(big, slab, NULL, &error);
	ck_assert_uint_eq(out.crossingCount, 0); /* no pair crosses: the points decide */
	ck_assert(out.aPointOutsideB && out.bPointOutsideA);
	out = bcMesh_Relate(small, big, NULL, &error);
	ck_assert_uint_eq(out.pairCount, 0);
	ck_assert(out.aPointInsideB && !out.aPointOutsideB && out.bPointOutsideA && !out.bPointInsideA);
	ck_assert(out.aClosed && out.bClosed);

	bcMesh* meshes[] = { big, small, flush, beside, partly, edge, corner, apart, overlapping, slab };
	for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
		bcMesh_Destroy(meshes[i]);
	}
}
END_TEST

/* A tetrahedron whose apex lies exactly on a face, an edge or a vertex of
 * the cube [0, 2]^3, from outside (touching) and from inside (inside). */
START_TEST(apex_on_face_edge_vertex)
{
	bcMesh* cube = box(vec(0, 0, 0), vec(2, 2, 2), 0);
	/* outside, below the face z = 0 */
	bcMesh* face = tetrahedron(vec(0.5, 0.75, 0), vec(0, 0, -1), vec(2, 0, -1), vec(1, 2, -1));
	bcMesh* edge = tetrahedron(vec(1, 0, 0), vec(0, -1, -1), vec(2, -1, -1), vec(1, -1.5, -0.5));
	bcMesh* vertex = tetrahedron(vec(0, 0, 0), vec(-1, -1, -1), vec(-2, -1, -0.5), vec(-1, -2, -1));
	/* inside, its apex on the face z = 0, on the edge y = z = 0, at the vertex */
	bcMesh* faceIn = tetrahedron(vec(0.5, 0.75, 0), vec(0.5, 0.5, 1), vec(1.5, 0.5, 1), vec(1, 1.5, 1));
	bcMesh* edgeIn = tetrahedron(vec(1, 0, 0), vec(0.5, 0.5, 1), vec(1.5, 0.5, 1), vec(1, 1.5, 1));
	bcMesh* vertexIn = tetrahedron(vec(0, 0, 0), vec(0.5, 0.5, 1), vec(1.5, 0.5, 1), vec(1, 1.5, 1));
	/* poking through: the apex beyond the face */
	bcMesh* through = tetrahedron(vec(0.5, 0.75, -0.25), vec(0.5, 0.5, 1), vec(1.5, 0.5, 1), vec(1, 1.5, 1));
	assertRelation(face, cube, bc_relationTouching);
	assertRelation(edge, cube, bc_relationTouching);
	assertRelation(vertex, cube, bc_relationTouching);
	assertRelation(faceIn, cube, bc_relationAInsideB);
	assertRelation(edgeIn, cube, bc_relationAInsideB);
	assertRelation(vertexIn, cube, bc_relationAInsideB);
	assertRelation(through, cube, bc_relationCrossing);
	/* the apex is found on the cube's surface */
	bcSolid solid;
	ck_assert(bcSolid_Init(&solid, cube, false));
	ck_assert_int_eq(bcSolid_Locate(&solid, vec(0.5, 0.75, 0)), bc_sideOn);
	ck_assert_int_eq(bcSolid_Locate(&solid, vec(1, 0, 0)), bc_sideOn);
	ck_assert_int_eq(bcSolid_Locate(&solid, vec(0, 0, 0)), bc_sideOn);
	bcSolid_Free(&solid);
	bcMesh* meshes[] = { cube, face, edge, vertex, faceIn, edgeIn, vertexIn, through };
	for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
		bcMesh_Destroy(meshes[i]);
	}
}
END_TEST

/* A hollow shell (a box with a cavity: the inner box faces inward) and
 * boxes in its cavity, filling it, in its wall, and around the cavity in
 * the wall (no surfaces meet, yet the interiors overlap and neither is
 * inside: the cavity's surface is inside the box). */
START_TEST(hollow_shell)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, vec(0, 0, 0), vec(4, 4, 4), 1, 0);
	bcGenBox(&g, vec(1, 1, 1), vec(3, 3, 3), 1, 1);
	bcMesh* shell = build(&g);
	ck_assert(bcMesh_IsClosed(shell));
	bcMesh* inCavity = box(vec(1.5, 1.5, 1.5), vec(2.5, 2.5, 2.5), 0);
	bcMesh* fillsCavity = box(vec(1, 1, 1), vec(3, 3, 3), 0);
	bcMesh* inWall = box(vec(0.25, 0.25, 0.25), vec(0.75, 0.75, 3.5), 0);
	bcMesh* aroundCavity = box(vec(0.5, 0.5, 0.5), vec(3.5, 3.5, 3.5), 0);
	bcMesh* whole = box(vec(-1, -1, -1), vec(5, 5, 5), 0);
	assertRelation(inCavity, shell, bc_relationDisjoint);
	assertRelation(fillsCavity, shell, bc_relationTouching);
	assertRelation(inWall, shell, bc_relationAInsideB);
	assertRelation(aroundCavity, shell, bc_relationCrossing);
	assertRelation(whole, shell, bc_relationBInsideA);
	bcError error;
	bcRelateOutput out = bcMesh_Relate(aroundCavity, shell, NULL, &error);
	ck_assert_uint_eq(out.pairCount, 0);
	bcMesh* meshes[] = { shell, inCavity, fillsCavity, inWall, aroundCavity, whole };
	for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
		bcMesh_Destroy(meshes[i]);
	}
}
END_TEST

/* The exact relation of two boxes [a0, a1] and [b0, b1] (axis by axis). */
static bcRelation boxRelation(const int* a0, const int* a1, const int* b0, const int* b1)
{
	bool meet = true, overlap = true, aInB = true, bInA = true;
	for (int k = 0; k < 3; ++k) {
		meet = meet && a0[k] <= b1[k] && b0[k] <= a1[k];
		overlap = overlap && a0[k] < b1[k] && b0[k] < a1[k];
		aInB = aInB && b0[k] <= a0[k] && a1[k] <= b1[k];
		bInA = bInA && a0[k] <= b0[k] && b1[k] <= a1[k];
	}
	if (!meet) {
		return bc_relationDisjoint;
	}
	if (!overlap) {
		return bc_relationTouching;
	}
	return aInB ? bc_relationAInsideB : (bInA ? bc_relationBInsideA : bc_relationCrossing);
}

/* Boxes with corners on a small integer grid, so that faces, edges and
 * vertices coincide everywhere: every relation, against the exact one. */
START_TEST(random_boxes_on_a_grid)
{
	bcRandom rng = { 9 };
	int seen[6] = { 0 };
	for (int i = 0; i < 400; ++i) {
		int lo[2][3], hi[2][3];
		bcMesh* m[2];
		for (int j = 0; j < 2; ++j) {
			for (int k = 0; k < 3; ++k) {
				lo[j][k] = (int)(bcRandom_Next(&rng) % 4);
				hi[j][k] = lo[j][k] + 1 + (int)(bcRandom_Next(&rng) % 3);
			}
			bcGenMesh g = { 0 };
			bcGenBox(&g, vec(lo[j][0], lo[j][1], lo[j][2]), vec(hi[j][0], hi[j][1], hi[j][2]),
					 1 + (int)(bcRandom_Next(&rng) % 2), (int)(bcRandom_Next(&rng) % 2));
			m[j] = build(&g);
		}
		bcRelation expected = boxRelation(lo[0], hi[0], lo[1], hi[1]);
		bcRelation got = relate(m[0], m[1]);
		if (expected == bc_relationAInsideB && memcmp(lo[0], lo[1], sizeof lo[0]) == 0 &&
			memcmp(hi[0], hi[1], sizeof hi[0]) == 0) {
			/* equal boxes: each inside the other; either name is right */
			ck_assert(got == bc_relationAInsideB || got == bc_relationBInsideA);
		} else {
			ck_assert_msg(got == expected, "case %d: [%d %d %d]-[%d %d %d] vs [%d %d %d]-[%d %d %d]: %s, expected %s", i,
						  lo[0][0], lo[0][1], lo[0][2], hi[0][0], hi[0][1], hi[0][2], lo[1][0], lo[1][1], lo[1][2],
						  hi[1][0], hi[1][1], hi[1][2], bcRelationName(got), bcRelationName(expected));
		}
		seen[expected] += 1;
		bcMesh_Destroy(m[0]);
		bcMesh_Destroy(m[1]);
	}
	/* every relation comes up (inside one way or the other: relate() also
	 * asks the swapped question) */
	seen[bc_relationAInsideB] += seen[bc_relationBInsideA];
	for (int r = bc_relationDisjoint; r <= bc_relationAInsideB; ++r) {
		ck_assert_msg(seen[r] >= 10, "%s seen %d times", bcRelationName((bcRelation)r), seen[r]);
	}
}
END_TEST

START_TEST(icospheres)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, vec(0, 0, 0), 1, 0);
	bcMesh* a = build(&g);
	bcGenIcosphere(&g, 2, vec(0.1, 0.2, -0.1), 0.5, 0);
	bcMesh* inner = build(&g);
	bcGenIcosphere(&g, 2, vec(0.9, 0.2, 0.1), 0.5, 0);
	bcMesh* across = build(&g);
	bcGenIcosphere(&g, 2, vec(3, 0, 0), 0.5, 1); /* inward: parity does not mind */
	bcMesh* far = build(&g);
	assertRelation(inner, a, bc_relationAInsideB);
	assertRelation(a, across, bc_relationCrossing);
	assertRelation(a, far, bc_relationDisjoint);
	bcMesh_Destroy(a);
	bcMesh_Destroy(inner);
	bcMesh_Destroy(across);
	bcMesh_Destroy(far);
}
END_TEST

START_TEST(not_closed)
{
	bcMesh* cube = box(vec(0, 0, 0), vec(2, 2, 2), 0);
	const double v[] = { 0.5, 0.5, 0.5, 1.5, 0.5, 0.5, 0.5, 1.5, 0.5 };
	const int32_t t[] = { 0, 1, 2 };
	bcMesh* sheet = fromArrays(v, 3, t, 1);
	bcError error;
	bcRelateOutput out = bcMesh_Relate(sheet, cube, NULL, &error);
	ck_assert_int_eq(out.relation, bc_relationNotClosed);
	ck_assert(!out.aClosed && out.bClosed);
	out = bcMesh_Relate(cube, sheet, NULL, &error);
	ck_assert_int_eq(out.relation, bc_relationNotClosed);
	ck_assert(out.aClosed && !out.bClosed);
	ck_assert_str_eq(bcRelationName(bc_relationNotClosed), "not_closed");
	ck_assert_str_eq(bcRelationName(bc_relationAInsideB), "a_inside_b");
	ck_assert_str_eq(bcRelationName(bc_relationBInsideA), "b_inside_a");
	ck_assert_str_eq(bcRelationName(bc_relationCrossing), "crossing");
	ck_assert_str_eq(bcRelationName(bc_relationTouching), "touching");
	ck_assert_str_eq(bcRelationName(bc_relationDisjoint), "disjoint");
	bcMesh_Destroy(cube);
	bcMesh_Destroy(sheet);
}
END_TEST

static Suite* containmentSuite(void)
{
	Suite* s = suite_create("containment");
	TCase* closed = tcase_create("closed");
	tcase_add_test(closed, closed_meshes);
	suite_add_tcase(s, closed);
	TCase* points = tcase_create("points");
	tcase_set_timeout(points, 60);
	tcase_add_test(points, box_grid_exactly);
	tcase_add_test(points, sheared_box);
	tcase_add_test(points, degenerate_triangles_bound_the_solid);
	tcase_add_test(points, icosphere_against_distance);
	tcase_add_test(points, point_on_triangle);
	suite_add_tcase(s, points);
	TCase* relations = tcase_create("relations");
	tcase_set_timeout(relations, 60);
	tcase_add_test(relations, nested_disjoint_touching_crossing_cubes);
	tcase_add_test(relations, apex_on_face_edge_vertex);
	tcase_add_test(relations, hollow_shell);
	tcase_add_test(relations, random_boxes_on_a_grid);
	tcase_add_test(relations, icospheres);
	tcase_add_test(relations, not_closed);
	suite_add_tcase(s, relations);
	return s;
}

int main(void)
{
	return bcRunSuite(containmentSuite());
}
