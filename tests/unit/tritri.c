/* tritri.c tests: one triangle against one triangle.
 *
 * Hand-computed cases (a vertex, an edge, two edges touching; crossings
 * through the interior and through an edge with their segments; coplanar
 * overlapping, disjoint, sharing an edge, and the overlap that "vertex
 * inside or edges crossing" misses; planes 1e-9 apart in angle), and two
 * independent exact references on integer coordinates:
 *  - the state, by separating axes in 128-bit integers: disjoint when one
 *    of the axes nA, nB, ei x fj (in-plane edge normals when coplanar)
 *    separates strictly, touching when one separates only weakly (the
 *    triangles meet, and a plane has each on its closed side: no point is
 *    interior to both), else crossing (coplanar: overlapping);
 *  - the segment, by Moller's intervals in rationals: the chords of each
 *    triangle on the other's plane, ordered along nA x nB, overlapped.
 * Then invariances: scaling by powers of two from 2^-600 to 2^600 and
 * translating by 2^20 do not change any state, and exchanging or rotating
 * the triangles does not either (the segment reverses on an exchange);
 * near-degenerate triangles 2^25 wide, whose determinants all need the
 * exact path, against the integer reference; random float triangles
 * against a plain double-precision reference where it is well conditioned.
 */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define GRID_PAIRS 60000
#define NEAR_PAIRS 20000
#define FLOAT_PAIRS 20000
#else
#define GRID_PAIRS 300000
#define NEAR_PAIRS 100000
#define FLOAT_PAIRS 100000
#endif

/* Segment ends computed from rational crossings are a quotient and a
 * multiply-add from the exact value: a few ulps of the coordinates. */
#define GRID_TOLERANCE 1e-14

/* A point of a reported segment is on both triangles to this, times the
 * largest coordinate: a few roundings of the coordinates. */
#define ON_TRIANGLE_TOLERANCE 1e-12

__extension__ typedef __int128 bcI128;

static bcVec3 V(double x, double y, double z)
{
	return bcMakeVec3(x, y, z);
}

static bool sameVec(bcVec3 a, bcVec3 b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

#define assertState(out, expected)                                                                                     \
	ck_assert_msg((out).state == (expected), "state %s, expected %s", bcTriTriStateName((out).state),                  \
				  bcTriTriStateName(expected))

#define assertSegment(out, x0, y0, z0, x1, y1, z1, tol)                                                                \
	do {                                                                                                               \
		bcAssertVecNear((out).segment[0], x0, y0, z0, tol);                                                            \
		bcAssertVecNear((out).segment[1], x1, y1, z1, tol);                                                            \
	} while (0)

/* A(0,0,0) B(4,0,0) C(0,4,0), normal +z: the triangle of the hand cases. */
static const bcVec3 A0 = { 0, 0, 0 }, A1 = { 4, 0, 0 }, A2 = { 0, 4, 0 };

/* ------------------------------------------------------------ hand cases */

START_TEST(touching_at_a_vertex)
{
	/* B's vertex (1,1,0) on A's interior, the rest of B above. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(1, 1, 0), V(2, 2, 1), V(0, 2, 1));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(1, 1, 0)) && sameVec(out.segment[1], V(1, 1, 0)));
	/* Vertex on vertex: B's tip on A's corner C. */
	out = bcIntersectTriangles(A0, A1, A2, V(0, 4, 0), V(1, 5, 1), V(-1, 5, 1));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(0, 4, 0)) && sameVec(out.segment[1], V(0, 4, 0)));
	/* Vertex on an edge (the middle of AB), B below. */
	out = bcIntersectTriangles(A0, A1, A2, V(2, 0, 0), V(3, -1, -1), V(1, -1, -1));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(2, 0, 0)) && sameVec(out.segment[1], V(2, 0, 0)));
	/* 1e-40 above the plane is not on it: no tolerance. */
	out = bcIntersectTriangles(A0, A1, A2, V(1, 1, 1e-40), V(2, 2, 1), V(0, 2, 1));
	assertState(out, bc_triTriDisjoint);
	out = bcIntersectTriangles(A0, A1, A2, V(1, 1, -1e-40), V(2, 2, 1), V(0, 2, 1));
	assertState(out, bc_triTriCrossing);
}
END_TEST

START_TEST(touching_along_an_edge)
{
	/* B's edge (1,1,0)-(3,1,0) lies in A (y = 1, x + y <= 4), B above.
	 * nA = (0,0,16), nB = (2,0,0) x (1,0,1) = (0,-2,0), nA x nB = (32,0,0):
	 * the segment runs towards +x. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(1, 1, 0), V(3, 1, 0), V(2, 1, 1));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(1, 1, 0)) && sameVec(out.segment[1], V(3, 1, 0)));
	/* The edge sticks out of A: only (1,1)-(3,1) of (1,1)-(5,1) is common,
	 * and (3,1) is where it crosses A's edge BC. */
	out = bcIntersectTriangles(A0, A1, A2, V(1, 1, 0), V(5, 1, 0), V(2, 1, 1));
	assertState(out, bc_triTriTouching);
	assertSegment(out, 1, 1, 0, 3, 1, 0, 0.0);
	/* Two triangles hinged on a common edge AB (an open book), B below. */
	out = bcIntersectTriangles(A0, A1, A2, V(4, 0, 0), V(0, 0, 0), V(2, 1, -3));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(0, 0, 0)) && sameVec(out.segment[1], V(4, 0, 0)));
}
END_TEST

START_TEST(edges_touching)
{
	/* B in the plane x = 2; its edge (2,-1,1)-(2,1,-1) meets A's edge AB
	 * at (2,0,0), and B's chord on z = 0 is y in [-2, 0]: one point. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(2, -1, 1), V(2, 1, -1), V(2, -3, -1));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(2, 0, 0)) && sameVec(out.segment[1], V(2, 0, 0)));
}
END_TEST

START_TEST(crossing_through_the_interior)
{
	/* B upright in y = 1 from z = -1 to 1: its chord on z = 0 is x in
	 * [1.5, 2.5] (the midpoints of its slanted edges), inside A's chord
	 * [0, 3]. nB = (2,0,0) x (1,0,2) = (0,-4,0): runs towards +x. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(1, 1, -1), V(3, 1, -1), V(2, 1, 1));
	assertState(out, bc_triTriCrossing);
	ck_assert(sameVec(out.segment[0], V(1.5, 1, 0)) && sameVec(out.segment[1], V(2.5, 1, 0)));

	/* A slanted B: vertex (1,1,-1) below, (2,1,1) and (1,2,1) above. Its
	 * edges cross z = 0 at their midpoints (1.5,1,0) and (1,1.5,0). nB =
	 * (1,0,2) x (0,1,2) = (-2,-2,1); A's vertices are at nB.(p - b0) = 5,
	 * -3, -3, so A's chord runs from (2.5,0,0) to (0,2.5,0) on x + y = 2.5
	 * and contains B's. nA x nB = (32,-32,0): from (1,1.5,0) to (1.5,1,0). */
	bcVec3 b0 = V(1, 1, -1), b1 = V(2, 1, 1), b2 = V(1, 2, 1);
	out = bcIntersectTriangles(A0, A1, A2, b0, b1, b2);
	assertState(out, bc_triTriCrossing);
	ck_assert(sameVec(out.segment[0], V(1, 1.5, 0)) && sameVec(out.segment[1], V(1.5, 1, 0)));
	/* Exchanged: the same segment, reversed (nB x nA). */
	out = bcIntersectTriangles(b0, b1, b2, A0, A1, A2);
	assertState(out, bc_triTriCrossing);
	ck_assert(sameVec(out.segment[0], V(1.5, 1, 0)) && sameVec(out.segment[1], V(1, 1.5, 0)));

	/* B tilted so that the chords overlap partly: B = (3,-1,-2) (3,3,-2)
	 * (-1,1,2), plane x + z = 1, so z = 0 on x = 1. A's chord there: y in
	 * [0, 3]; B's: from the midpoint (1,0,0) of edge (3,-1,-2)-(-1,1,2) to
	 * the midpoint (1,2,0) of edge (3,3,-2)-(-1,1,2). Common: y in [0, 2].
	 * nB = (0,4,0) x (-4,2,4) = (16,0,16), nA x nB = (0,256,0): towards +y. */
	out = bcIntersectTriangles(A0, A1, A2, V(3, -1, -2), V(3, 3, -2), V(-1, 1, 2));
	assertState(out, bc_triTriCrossing);
	assertSegment(out, 1, 0, 0, 1, 2, 0, 0.0);
}
END_TEST

START_TEST(piercing_an_edge)
{
	/* B upright in x = 2 across A's edge AB: B's chord on z = 0 is y in
	 * [-2/3, 2/3] (edges from (2,0,2) down to (2,-1,-1) and (2,1,-1) cross
	 * z = 0 a third of the way), A's chord y in [0, 2]: common y in [0,
	 * 2/3]. nB = (0,2,0) x (0,1,3) = (6,0,0): nA x nB = (0,96,0), +y. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(2, -1, -1), V(2, 1, -1), V(2, 0, 2));
	assertState(out, bc_triTriCrossing);
	assertSegment(out, 2, 0, 0, 2, 2.0 / 3.0, 0, 2 * DBL_EPSILON);
	/* B upright in x = 0, the plane of A's edge CA, around its end C: B's
	 * chord on z = 0 is y in [3.5, 4.5] (midpoints), A's is the edge, y in
	 * [0, 4]. nB = (0,2,0) x (0,1,2) = (4,0,0), nA x nB = (0,64,0): +y. */
	out = bcIntersectTriangles(A0, A1, A2, V(0, 3, -1), V(0, 5, -1), V(0, 4, 1));
	assertState(out, bc_triTriTouching); /* x = 0 is A's edge CA: no point interior to A */
	assertSegment(out, 0, 3.5, 0, 0, 4, 0, 0.0);
}
END_TEST

START_TEST(coplanar_cases)
{
	/* Overlapping: A shifted by (0.5, 0.5). */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(0.5, 0.5, 0), V(4.5, 0.5, 0), V(0.5, 4.5, 0));
	assertState(out, bc_triTriCoplanar);
	ck_assert(sameVec(out.segment[0], V(0, 0, 0)) && sameVec(out.segment[1], V(0, 0, 0)));
	/* The same triangle, and a copy with its vertices in the opposite order. */
	assertState(bcIntersectTriangles(A0, A1, A2, A0, A1, A2), bc_triTriCoplanar);
	assertState(bcIntersectTriangles(A0, A1, A2, A2, A1, A0), bc_triTriCoplanar);
	/* A star of David: no vertex of either in the other, the edges cross. */
	out = bcIntersectTriangles(V(0, 0, 1), V(6, 0, 1), V(3, 6, 1), V(0, 4, 1), V(3, -2, 1), V(6, 4, 1));
	assertState(out, bc_triTriCoplanar);
	/* B inside A, with every contact on a boundary: shares AB, tip on BC. */
	assertState(bcIntersectTriangles(A0, A1, A2, V(0, 0, 0), V(4, 0, 0), V(2, 2, 0)), bc_triTriCoplanar);
	/* Seed 002's test with strict signs misses this overlap: A's vertices
	 * (0,0) and (4,0) are on B's edges, B's vertex (2,2) on A's edge, the
	 * edges meet only at those points or along (2,2)-(4,0), and neither
	 * centroid is strictly inside the other; yet they share the triangle
	 * (0,0) (4,0) (2,2). */
	out = bcIntersectTriangles(A0, A1, A2, V(-1, -1, 0), V(2, 2, 0), V(6, -2, 0));
	assertState(out, bc_triTriCoplanar);

	/* Disjoint: far apart, and a separating line between close ones. */
	assertState(bcIntersectTriangles(A0, A1, A2, V(5, 5, 0), V(9, 5, 0), V(5, 9, 0)), bc_triTriDisjoint);
	assertState(bcIntersectTriangles(A0, A1, A2, V(2.5, 2, 0), V(4, 2, 0), V(4, 0.5, 0)), bc_triTriDisjoint);

	/* Sharing the edge BC, on its other side: touching along it, the ends
	 * in the order x, y, z. */
	out = bcIntersectTriangles(A0, A1, A2, V(4, 0, 0), V(0, 4, 0), V(4, 4, 0));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(0, 4, 0)) && sameVec(out.segment[1], V(4, 0, 0)));
	/* Sharing part of an edge: B's edge (2,0)-(6,0) along AB, B below. */
	out = bcIntersectTriangles(A0, A1, A2, V(2, 0, 0), V(6, 0, 0), V(4, -2, 0));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(2, 0, 0)) && sameVec(out.segment[1], V(4, 0, 0)));
	/* A vertex on an edge, and two corners meeting. */
	out = bcIntersectTriangles(A0, A1, A2, V(2, 2, 0), V(4, 4, 0), V(2, 5, 0));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(2, 2, 0)) && sameVec(out.segment[1], V(2, 2, 0)));
	out = bcIntersectTriangles(A0, A1, A2, V(4, 0, 0), V(6, 0, 0), V(5, -1, 0));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(4, 0, 0)) && sameVec(out.segment[1], V(4, 0, 0)));
	/* In a slanted plane (x + y + z = 3), where the projection matters. */
	out = bcIntersectTriangles(V(3, 0, 0), V(0, 3, 0), V(0, 0, 3), V(0, 3, 0), V(3, 0, 0), V(3, 3, -3));
	assertState(out, bc_triTriTouching);
	ck_assert(sameVec(out.segment[0], V(0, 3, 0)) && sameVec(out.segment[1], V(3, 0, 0)));
	assertState(bcIntersectTriangles(V(3, 0, 0), V(0, 3, 0), V(0, 0, 3), V(1, 1, 1), V(2, 1, 0), V(1, 2, 0)),
				bc_triTriCoplanar);
}
END_TEST

START_TEST(nearly_parallel)
{
	/* B's plane is z = e (x - 1), e = 1e-9 (as a double): it meets A's
	 * plane on x = 1, at an angle of 1e-9. Every vertex is within 4e-9 of
	 * the other plane, so the signs and the crossings need the exact path.
	 * B's vertex (1,5,0) is on the line; its edge from (0,-1,-e) to
	 * (2,-1,e) crosses at (1,-1,0): B's chord is y in [-1, 5]; A's is y in
	 * [0, 3]. nB = (2,0,2e) x (1,6,e) = (-12e, 0, 12), nA x nB = (0,-192e,0):
	 * the segment runs towards -y, from (1,3,0) to (1,0,0). */
	const double e = 1e-9;
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(0, -1, -e), V(2, -1, e), V(1, 5, 0));
	assertState(out, bc_triTriCrossing);
	assertSegment(out, 1, 3, 0, 1, 0, 0, 4 * DBL_EPSILON);
	/* The same planes 1e-9 apart in angle but B lifted by 1e-12 at x = 1 ... */
	out = bcIntersectTriangles(A0, A1, A2, V(0, -1, -e + 1e-12), V(2, -1, e + 1e-12), V(1, 5, 1e-12));
	assertState(out, bc_triTriCrossing);
	ck_assert(out.segment[0].x < 1.0 && out.segment[0].x > 1.0 - 2e-3);
	/* ... and B entirely above A: at its lowest (x = 0) it is 1e-15 above. */
	out = bcIntersectTriangles(A0, A1, A2, V(0, -1, 1e-15), V(2, -1, 2 * e + 1e-15), V(1, 5, e + 1e-15));
	assertState(out, bc_triTriDisjoint);
	/* Parallel planes 1e-300 apart never meet; the same plane overlaps. */
	assertState(bcIntersectTriangles(A0, A1, A2, V(0, 0, 1e-300), V(4, 0, 1e-300), V(0, 4, 1e-300)),
				bc_triTriDisjoint);
	/* Two planes 1e-9 apart in angle, both through x = 1, overlapping chords:
	 * the answer does not depend on which is A. */
	bcTriTriOutput swapped = bcIntersectTriangles(V(0, -1, -e), V(2, -1, e), V(1, 5, 0), A0, A1, A2);
	assertState(swapped, bc_triTriCrossing);
	assertSegment(swapped, 1, 0, 0, 1, 3, 0, 4 * DBL_EPSILON);
}
END_TEST

START_TEST(degenerate_input)
{
	assertState(bcIntersectTriangles(A0, A1, A2, V(0, 0, 0), V(1, 1, 1), V(2, 2, 2)), bc_triTriDegenerate);
	assertState(bcIntersectTriangles(V(1, 1, 1), V(1, 1, 1), V(0, 0, 0), A0, A1, A2), bc_triTriDegenerate);
	assertState(bcIntersectTriangles(A0, A1, A2, V(0, 0, 0), V(1, 0, 0), V(NAN, 0, 0)), bc_triTriDegenerate);
	assertState(bcIntersectTriangles(A0, A1, A2, V(0, 0, 0), V(1, 0, 0), V(INFINITY, 0, 0)), bc_triTriDegenerate);
	/* Exactly collinear: k (1, 3, 7) / 8 for k = 1, 2, 3. */
	bcTriTriOutput out = bcIntersectTriangles(A0, A1, A2, V(0.125, 0.375, 0.875), V(0.25, 0.75, 1.75),
											  V(0.375, 1.125, 2.625));
	assertState(out, bc_triTriDegenerate);
	/* A sliver one ulp wide (2^-52 at x = 1), upright in the plane y = 1, is
	 * a triangle: its chord on z = 0 runs from its vertex (1 + 2^-52, 1, 0)
	 * to the middle (1,1,0) of its upright edge (nB = (0,0,2) x (2^-52,0,1)
	 * = (0,2^-51,0), so nA x nB points to -x), inside A's chord x in [0, 3]. */
	const double wide = 1.0 + DBL_EPSILON;
	out = bcIntersectTriangles(A0, A1, A2, V(1, 1, -1), V(1, 1, 1), V(wide, 1, 0));
	assertState(out, bc_triTriCrossing);
	ck_assert(sameVec(out.segment[0], V(wide, 1, 0)) && sameVec(out.segment[1], V(1, 1, 0)));
	/* A triangle so small that (b-a)x(c-a) underflows to 0 is still one:
	 * sides 1e-170, cross product 1e-340. B upright in x = 2e-171 crosses
	 * it from y = 0 to y = 5e-171 (B's chord is |y| <= 5e-171, A's 0 ..
	 * 8e-171); nA x nB points to +y. */
	const double u = 1e-170;
	bcVec3 t0 = V(0, 0, 0), t1 = V(u, 0, 0), t2 = V(0, u, 0);
	ck_assert(bcLengthSquared(bcCross(bcSub(t1, t0), bcSub(t2, t0))) == 0.0);
	out = bcIntersectTriangles(t0, t1, t2, V(0.2 * u, -u, -u), V(0.2 * u, u, -u), V(0.2 * u, 0, u));
	assertState(out, bc_triTriCrossing);
	assertSegment(out, 0.2 * u, 0, 0, 0.2 * u, 0.5 * u, 0, 4 * DBL_EPSILON * u);
	/* The same 1e300 times larger (1e130): nothing overflows. */
	const double big = 1e300;
	out = bcIntersectTriangles(bcScale(big, t0), bcScale(big, t1), bcScale(big, t2), V(0.2 * u * big, -u * big, -u * big),
							   V(0.2 * u * big, u * big, -u * big), V(0.2 * u * big, 0, u * big));
	assertState(out, bc_triTriCrossing);
	assertSegment(out, 0.2 * u * big, 0, 0, 0.2 * u * big, 0.5 * u * big, 0, 8 * DBL_EPSILON * u * big);
}
END_TEST

START_TEST(bounding_sphere)
{
	/* Seed 002's ball: the middle of the box, the farthest vertex. */
	bcSphere s = bcTriangleBoundingSphere(A0, A1, A2);
	ck_assert(sameVec(s.center, V(2, 2, 0)));
	bcAssertNear(s.radius, sqrt(8.0), 0.0);
	s = bcTriangleBoundingSphere(V(-1, 0, 5), V(3, 2, 5), V(0, 6, 9));
	ck_assert(sameVec(s.center, V(1, 3, 7)));
	bcAssertNear(s.radius, sqrt(4.0 + 9.0 + 4.0), 0.0); /* (-1,0,5) is farthest: sqrt 17; the others 3, sqrt 14 */
}
END_TEST

START_TEST(approximate_hand_cases)
{
	/* Crossing: probable. */
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, V(1, 1, -1), V(3, 1, -1), V(2, 1, 1)), bc_triTriProbable);
	/* Spheres apart: disjoint whatever the planes. */
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, V(10, 10, -1), V(12, 10, -1), V(11, 10, 1)), bc_triTriDisjoint);
	/* Spheres overlapping, planes parallel: no edge pierces, disjoint. */
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, V(0, 0, 1), V(4, 0, 1), V(0, 4, 1)), bc_triTriDisjoint);
	/* A false positive: B's plane cuts A, and the spheres overlap, but B is
	 * beyond A's edge BC (x + y = 4): the exact test says disjoint. */
	bcVec3 b0 = V(3, 3, -1), b1 = V(5, 3, -1), b2 = V(4, 3, 1);
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, b0, b1, b2), bc_triTriProbable);
	assertState(bcIntersectTriangles(A0, A1, A2, b0, b1, b2), bc_triTriDisjoint);
	/* Degenerate. */
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, V(0, 0, 0), V(1, 1, 1), V(2, 2, 2)), bc_triTriDegenerate);
	/* Seed 001's one-way rule: B (in the plane y = -1) crosses A's plane,
	 * A lies wholly on one side of B's; the spheres overlap. Either way:
	 * probable; one way: only with B first. The exact test: disjoint. */
	b0 = V(1, -1, -1);
	b1 = V(3, -1, -1);
	b2 = V(2, -1, 1);
	assertState(bcIntersectTriangles(A0, A1, A2, b0, b1, b2), bc_triTriDisjoint);
	assertState(bcIntersectTrianglesApprox(A0, A1, A2, b0, b1, b2), bc_triTriProbable);
	assertState(bcIntersectTrianglesApproxWithRule(A0, A1, A2, b0, b1, b2, bc_approxEither), bc_triTriProbable);
	assertState(bcIntersectTrianglesApproxWithRule(A0, A1, A2, b0, b1, b2, bc_approxOneWay), bc_triTriDisjoint);
	assertState(bcIntersectTrianglesApproxWithRule(b0, b1, b2, A0, A1, A2, bc_approxOneWay), bc_triTriProbable);
	/* a crossing pair is probable one way in either order */
	assertState(bcIntersectTrianglesApproxWithRule(A0, A1, A2, V(1, 1, -1), V(3, 1, -1), V(2, 1, 1), bc_approxOneWay),
				bc_triTriProbable);
	assertState(bcIntersectTrianglesApproxWithRule(V(1, 1, -1), V(3, 1, -1), V(2, 1, 1), A0, A1, A2, bc_approxOneWay),
				bc_triTriProbable);
	ck_assert_str_eq(bcTriTriStateName(bc_triTriProbable), "probable");
	ck_assert_str_eq(bcTriTriStateName(bc_triTriCrossing), "crossing");
}
END_TEST

/* ------------------------------------------- the integer reference */

typedef struct bcIVec {
	bcI128 x, y, z;
} bcIVec;

static bcIVec iv(int64_t x, int64_t y, int64_t z)
{
	bcIVec v = { x, y, z };
	return v;
}

static bcIVec isub(bcIVec a, bcIVec b)
{
	bcIVec v = { a.x - b.x, a.y - b.y, a.z - b.z };
	return v;
}

static bcIVec icross(bcIVec a, bcIVec b)
{
	bcIVec v = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	return v;
}

static bcI128 idot(bcIVec a, bcIVec b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static bool izero(bcIVec a)
{
	return a.x == 0 && a.y == 0 && a.z == 0;
}

static bcVec3 toVec(bcIVec a)
{
	return V((double)a.x, (double)a.y, (double)a.z);
}

/* Separating axes: 0 none, 1 weakly (touching), 2 strictly (disjoint). */
static int separation(const bcIVec* a, const bcIVec* b, bcIVec axis)
{
	if (izero(axis)) {
		return 0;
	}
	bcI128 loA = idot(axis, a[0]), hiA = loA, loB = idot(axis, b[0]), hiB = loB;
	for (int i = 1; i < 3; ++i) {
		bcI128 pa = idot(axis, a[i]), pb = idot(axis, b[i]);
		loA = pa < loA ? pa : loA;
		hiA = pa > hiA ? pa : hiA;
		loB = pb < loB ? pb : loB;
		hiB = pb > hiB ? pb : hiB;
	}
	if (hiA < loB || hiB < loA) {
		return 2;
	}
	return (hiA == loB || hiB == loA) ? 1 : 0;
}

static bcTriTriState referenceState(const bcIVec* a, const bcIVec* b)
{
	bcIVec ea[3], eb[3];
	for (int i = 0; i < 3; ++i) {
		ea[i] = isub(a[(i + 1) % 3], a[i]);
		eb[i] = isub(b[(i + 1) % 3], b[i]);
	}
	bcIVec na = icross(ea[0], isub(a[2], a[0])), nb = icross(eb[0], isub(b[2], b[0]));
	if (izero(na) || izero(nb)) {
		return bc_triTriDegenerate;
	}
	bool coplanar = izero(icross(na, nb)) && idot(na, isub(b[0], a[0])) == 0;
	int worst = 0;
	if (coplanar) {
		for (int i = 0; i < 3; ++i) {
			int s1 = separation(a, b, icross(na, ea[i]));
			int s2 = separation(a, b, icross(na, eb[i]));
			worst = s1 > worst ? s1 : worst;
			worst = s2 > worst ? s2 : worst;
		}
	} else {
		worst = separation(a, b, na);
		int s = separation(a, b, nb);
		worst = s > worst ? s : worst;
		for (int i = 0; i < 3; ++i) {
			for (int j = 0; j < 3; ++j) {
				s = separation(a, b, icross(ea[i], eb[j]));
				worst = s > worst ? s : worst;
			}
		}
	}
	if (worst == 2) {
		return bc_triTriDisjoint;
	}
	if (worst == 1) {
		return bc_triTriTouching;
	}
	return coplanar ? bc_triTriCoplanar : bc_triTriCrossing;
}

/* A rational point num / den (den > 0) and its position t = D . num / den. */
typedef struct bcRatPoint {
	bcIVec num;
	bcI128 den;
	bcI128 t;
} bcRatPoint;

static bool ratLess(const bcRatPoint* p, const bcRatPoint* q)
{
	return p->t * q->den < q->t * p->den;
}

static bcVec3 ratToVec(const bcRatPoint* p)
{
	double d = (double)p->den;
	return V((double)p->num.x / d, (double)p->num.y / d, (double)p->num.z / d);
}

/* Moller: the points of triangle t on the plane (n, o), as an interval
 * [lo, hi] along D. Returns false if there are none. */
static bool chordInterval(const bcIVec* t, bcIVec n, bcIVec o, bcIVec dir, bcRatPoint* lo, bcRatPoint* hi)
{
	bcI128 d[3];
	for (int i = 0; i < 3; ++i) {
		d[i] = idot(n, isub(t[i], o));
	}
	bcRatPoint pts[6];
	int count = 0;
	for (int i = 0; i < 3; ++i) {
		if (d[i] == 0) {
			pts[count].num = t[i];
			pts[count].den = 1;
			count += 1;
		}
		int j = (i + 1) % 3;
		if ((d[i] < 0 && d[j] > 0) || (d[i] > 0 && d[j] < 0)) {
			/* X = (d_i t_j - d_j t_i) / (d_i - d_j) */
			bcI128 den = d[i] - d[j];
			bcIVec num = { d[i] * t[j].x - d[j] * t[i].x, d[i] * t[j].y - d[j] * t[i].y, d[i] * t[j].z - d[j] * t[i].z };
			if (den < 0) {
				den = -den;
				num.x = -num.x;
				num.y = -num.y;
				num.z = -num.z;
			}
			pts[count].num = num;
			pts[count].den = den;
			count += 1;
		}
	}
	if (count == 0) {
		return false;
	}
	for (int i = 0; i < count; ++i) {
		pts[i].t = idot(dir, pts[i].num);
	}
	*lo = pts[0];
	*hi = pts[0];
	for (int i = 1; i < count; ++i) {
		if (ratLess(&pts[i], lo)) {
			*lo = pts[i];
		}
		if (ratLess(hi, &pts[i])) {
			*hi = pts[i];
		}
	}
	return true;
}

/* The reference segment of non-coplanar triangles that meet. */
static void referenceSegment(const bcIVec* a, const bcIVec* b, bcVec3* s0, bcVec3* s1)
{
	bcIVec na = icross(isub(a[1], a[0]), isub(a[2], a[0]));
	bcIVec nb = icross(isub(b[1], b[0]), isub(b[2], b[0]));
	bcIVec dir = icross(na, nb);
	bcRatPoint loA, hiA, loB, hiB;
	ck_assert(chordInterval(a, nb, b[0], dir, &loA, &hiA));
	ck_assert(chordInterval(b, na, a[0], dir, &loB, &hiB));
	const bcRatPoint* lo = ratLess(&loA, &loB) ? &loB : &loA;
	const bcRatPoint* hi = ratLess(&hiA, &hiB) ? &hiA : &hiB;
	ck_assert_msg(!ratLess(hi, lo), "the reference chords do not overlap");
	*s0 = ratToVec(lo);
	*s1 = ratToVec(hi);
}

/* p in or on triangle t (3D, coplanar with it): inside all edges' inner normals n x e. */
static bool inOrOnReference(const bcIVec* t, bcIVec p)
{
	bcIVec n = icross(isub(t[1], t[0]), isub(t[2], t[0]));
	for (int i = 0; i < 3; ++i) {
		bcIVec inward = icross(n, isub(t[(i + 1) % 3], t[i]));
		if (idot(inward, isub(p, t[i])) < 0) {
			return false;
		}
	}
	return true;
}

static bool lexLess(bcVec3 x, bcVec3 y)
{
	return x.x != y.x ? x.x < y.x : (x.y != y.y ? x.y < y.y : x.z < y.z);
}

/* Coplanar and touching: the ends are the vertices in or on the other, the
 * extremes in the order x, y, z. */
static void referenceCoplanarSegment(const bcIVec* a, const bcIVec* b, bcVec3* s0, bcVec3* s1)
{
	bool any = false;
	for (int i = 0; i < 6; ++i) {
		bcIVec p = i < 3 ? a[i] : b[i - 3];
		if (!inOrOnReference(i < 3 ? b : a, p)) {
			continue;
		}
		bcVec3 v = toVec(p);
		if (!any || lexLess(v, *s0)) {
			*s0 = v;
		}
		if (!any || lexLess(*s1, v)) {
			*s1 = v;
		}
		any = true;
	}
	ck_assert(any);
}

static double largestCoordinate(const bcVec3* p, int n)
{
	double m = 0.0;
	for (int i = 0; i < n; ++i) {
		m = fmax(m, fmax(fabs(p[i].x), fmax(fabs(p[i].y), fabs(p[i].z))));
	}
	return m;
}

/* The distance from p to triangle t, well conditioned even for slivers
 * (Ericson's region tests multiply coordinate differences and lose the
 * thin side of a 6e7-long, 1e5-wide triangle): the distance to the plane
 * along the unit normal when p projects inside every edge (edge normals in
 * the plane, unit length), else the nearest of the three edges, clamped. */
static double distanceToTriangle(bcVec3 p, const bcVec3* t)
{
	bcVec3 n = bcNormalize(bcCross(bcSub(t[1], t[0]), bcSub(t[2], t[0])));
	bool inside = true;
	for (int i = 0; i < 3; ++i) {
		bcVec3 out = bcNormalize(bcCross(bcSub(t[(i + 1) % 3], t[i]), n));
		inside = inside && bcDot(out, bcSub(p, t[i])) <= 0.0;
	}
	if (inside) {
		return fabs(bcDot(n, bcSub(p, t[0])));
	}
	double best = INFINITY;
	for (int i = 0; i < 3; ++i) {
		bcVec3 e = bcSub(t[(i + 1) % 3], t[i]);
		double s = bcDot(bcSub(p, t[i]), e) / bcDot(e, e);
		s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
		best = fmin(best, bcDistance(p, bcMulAdd(t[i], s, e)));
	}
	return best;
}

/* Each end of a reported segment is on both triangles. */
static void assertOnBoth(const bcVec3* a, const bcVec3* b, const bcTriTriOutput* out)
{
	bcVec3 all[6] = { a[0], a[1], a[2], b[0], b[1], b[2] };
	double tol = ON_TRIANGLE_TOLERANCE * largestCoordinate(all, 6);
	for (int k = 0; k < 2; ++k) {
		double da = distanceToTriangle(out->segment[k], a);
		double db = distanceToTriangle(out->segment[k], b);
		ck_assert_msg(da <= tol && db <= tol, "segment end %d is %g from A, %g from B (tol %g)", k, da, db, tol);
	}
}

static int64_t randomInt(bcRandom* rng, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(bcRandom_Next(rng) % (uint64_t)(hi - lo + 1));
}

/* Check one integer pair against both references. */
static void checkIntegerPair(const bcIVec* ia, const bcIVec* ib, int* counts, bool segments)
{
	bcVec3 a[3], b[3];
	for (int i = 0; i < 3; ++i) {
		a[i] = toVec(ia[i]);
		b[i] = toVec(ib[i]);
	}
	bcTriTriOutput out = bcIntersectTriangles(a[0], a[1], a[2], b[0], b[1], b[2]);
	bcTriTriState expected = referenceState(ia, ib);
	ck_assert_msg(out.state == expected,
				  "A (%g %g %g) (%g %g %g) (%g %g %g) B (%g %g %g) (%g %g %g) (%g %g %g): %s, expected %s", a[0].x, a[0].y,
				  a[0].z, a[1].x, a[1].y, a[1].z, a[2].x, a[2].y, a[2].z, b[0].x, b[0].y, b[0].z, b[1].x, b[1].y, b[1].z,
				  b[2].x, b[2].y, b[2].z, bcTriTriStateName(out.state), bcTriTriStateName(expected));
	counts[out.state] += 1;
	if (out.state != bc_triTriTouching && out.state != bc_triTriCrossing) {
		return;
	}
	assertOnBoth(a, b, &out);
	if (!segments) {
		return;
	}
	bcVec3 s0 = V(0, 0, 0), s1 = V(0, 0, 0);
	bcIVec na = icross(isub(ia[1], ia[0]), isub(ia[2], ia[0]));
	if (idot(na, isub(ib[0], ia[0])) == 0 && idot(na, isub(ib[1], ia[0])) == 0 && idot(na, isub(ib[2], ia[0])) == 0) {
		referenceCoplanarSegment(ia, ib, &s0, &s1);
	} else {
		referenceSegment(ia, ib, &s0, &s1);
	}
	double tol = GRID_TOLERANCE * fmax(1.0, largestCoordinate(a, 3));
	bcAssertVecNear(out.segment[0], s0.x, s0.y, s0.z, tol);
	bcAssertVecNear(out.segment[1], s1.x, s1.y, s1.z, tol);
	/* One common point is reported twice, bit for bit. */
	if (s0.x == s1.x && s0.y == s1.y && s0.z == s1.z) {
		ck_assert(sameVec(out.segment[0], out.segment[1]));
	}
}

START_TEST(integer_grid_against_references)
{
	/* Coordinates 0..G: every kind of contact occurs, many times. */
	static const int grids[] = { 2, 3, 5 };
	int counts[6] = { 0 };
	bcRandom rng = { 20261120 };
	for (int g = 0; g < 3; ++g) {
		for (int n = 0; n < GRID_PAIRS / 3; ++n) {
			bcIVec a[3], b[3];
			for (int i = 0; i < 3; ++i) {
				a[i] = iv(randomInt(&rng, 0, grids[g]), randomInt(&rng, 0, grids[g]), randomInt(&rng, 0, grids[g]));
				b[i] = iv(randomInt(&rng, 0, grids[g]), randomInt(&rng, 0, grids[g]), randomInt(&rng, 0, grids[g]));
			}
			/* Half the time put B in A's plane z = const, to get coplanar pairs. */
			if (n % 2 == 0) {
				for (int i = 0; i < 3; ++i) {
					a[i].z = a[0].z;
					b[i].z = a[0].z;
				}
			}
			checkIntegerPair(a, b, counts, true);
		}
	}
	printf("tritri grid: %d disjoint, %d touching, %d crossing, %d coplanar, %d degenerate\n", counts[0], counts[1],
		   counts[2], counts[3], counts[4]);
	for (int s = 0; s < 5; ++s) {
		ck_assert_msg(counts[s] > 100, "too few pairs of state %s", bcTriTriStateName((bcTriTriState)s));
	}
}
END_TEST

START_TEST(near_degenerate_large_coordinates)
{
	/* A on the lattice plane z = c - nx x - ny y, 2^25 wide; B's vertices on
	 * it or one unit off, so every sign is a tiny integer among numbers of
	 * 2^75: the filter cannot decide and the exact path must. */
	int counts[6] = { 0 };
	bcRandom rng = { 77 };
	const int64_t w = (int64_t)1 << 24;
	for (int n = 0; n < NEAR_PAIRS; ++n) {
		int64_t nx = randomInt(&rng, -3, 3), ny = randomInt(&rng, -3, 3), c = randomInt(&rng, -w, w);
		bcIVec a[3], b[3];
		for (int i = 0; i < 3; ++i) {
			int64_t x = randomInt(&rng, -w, w), y = randomInt(&rng, -w, w);
			a[i] = iv(x, y, c - nx * x - ny * y);
			/* B near A: around A's vertices, so the two often meet. */
			int64_t bx = randomInt(&rng, -w, w) / 2, by = randomInt(&rng, -w, w) / 2;
			int64_t off = n % 3 == 0 ? 0 : randomInt(&rng, -1, 1);
			b[i] = iv(bx, by, c - nx * bx - ny * by + off);
		}
		checkIntegerPair(a, b, counts, false);
	}
	printf("tritri near-degenerate: %d disjoint, %d touching, %d crossing, %d coplanar, %d degenerate\n", counts[0],
		   counts[1], counts[2], counts[3], counts[4]);
	for (int s = 0; s < 4; ++s) {
		ck_assert_msg(counts[s] > 100, "too few pairs of state %s", bcTriTriStateName((bcTriTriState)s));
	}
}
END_TEST

static bcVec3 transformed(bcVec3 p, int e, double offset)
{
	return V(ldexp(p.x, e) + offset, ldexp(p.y, e) + offset, ldexp(p.z, e) + offset);
}

START_TEST(scale_and_translation_invariance)
{
	/* Scaling by 2^e and translating by a multiple of 2^e that keeps the
	 * coordinates exact changes no state; the segments scale along. */
	static const int exponents[] = { -600, -30, 0, 40, 600 };
	bcRandom rng = { 5 };
	int n = GRID_PAIRS / 20;
	for (int k = 0; k < n; ++k) {
		bcVec3 a[3], b[3];
		for (int i = 0; i < 3; ++i) {
			a[i] = V((double)randomInt(&rng, 0, 3), (double)randomInt(&rng, 0, 3), (double)randomInt(&rng, 0, 3));
			b[i] = V((double)randomInt(&rng, 0, 3), (double)randomInt(&rng, 0, 3), (double)randomInt(&rng, 0, 3));
		}
		bcTriTriOutput base = bcIntersectTriangles(a[0], a[1], a[2], b[0], b[1], b[2]);
		for (int j = 0; j < 5; ++j) {
			int e = exponents[j];
			for (int shifted = 0; shifted < 2; ++shifted) {
				/* 2^20 units of 2^e: 22 bits of coordinate, exact. */
				double offset = shifted ? ldexp(1.0, e + 20) : 0.0;
				bcVec3 ta[3], tb[3];
				for (int i = 0; i < 3; ++i) {
					ta[i] = transformed(a[i], e, offset);
					tb[i] = transformed(b[i], e, offset);
				}
				bcTriTriOutput out = bcIntersectTriangles(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2]);
				ck_assert_msg(out.state == base.state, "2^%d, offset %g: %s, unscaled %s", e, offset,
							  bcTriTriStateName(out.state), bcTriTriStateName(base.state));
				if (base.state == bc_triTriTouching || base.state == bc_triTriCrossing) {
					for (int s = 0; s < 2; ++s) {
						bcVec3 expect = transformed(base.segment[s], e, offset);
						double tol = 8 * DBL_EPSILON * (ldexp(4.0, e) + offset);
						bcAssertVecNear(out.segment[s], expect.x, expect.y, expect.z, tol);
					}
				}
			}
		}
	}
}
END_TEST

START_TEST(exchange_and_rotation)
{
	/* The state never depends on the order of the triangles or of their
	 * vertices; exchanging the triangles reverses the segment (bit for bit
	 * unless two chord ends tie, where either computation may be given). */
	bcRandom rng = { 99 };
	int n = GRID_PAIRS / 10;
	for (int k = 0; k < n; ++k) {
		bcVec3 a[3], b[3];
		for (int i = 0; i < 3; ++i) {
			a[i] = V((double)randomInt(&rng, 0, 4), (double)randomInt(&rng, 0, 4), (double)randomInt(&rng, 0, 2));
			b[i] = V((double)randomInt(&rng, 0, 4), (double)randomInt(&rng, 0, 4), (double)randomInt(&rng, 0, 2));
		}
		bcTriTriOutput ab = bcIntersectTriangles(a[0], a[1], a[2], b[0], b[1], b[2]);
		bcTriTriOutput ba = bcIntersectTriangles(b[0], b[1], b[2], a[0], a[1], a[2]);
		ck_assert_int_eq(ab.state, ba.state);
		bcTriTriOutput rot = bcIntersectTriangles(a[1], a[2], a[0], b[2], b[0], b[1]);
		ck_assert_int_eq(ab.state, rot.state);
		bcTriTriOutput flip = bcIntersectTriangles(a[0], a[2], a[1], b[0], b[1], b[2]);
		ck_assert_int_eq(ab.state, flip.state);
		if (ab.state == bc_triTriCrossing || (ab.state == bc_triTriTouching && !sameVec(ab.segment[0], ab.segment[1]))) {
			bool coplanarTouch = bcLengthSquared(bcCross(bcSub(a[1], a[0]), bcSub(a[2], a[0]))) > 0 &&
								 fabs(bcDot(bcCross(bcSub(a[1], a[0]), bcSub(a[2], a[0])), bcSub(b[0], a[0]))) == 0 &&
								 fabs(bcDot(bcCross(bcSub(a[1], a[0]), bcSub(a[2], a[0])), bcSub(b[1], a[0]))) == 0 &&
								 fabs(bcDot(bcCross(bcSub(a[1], a[0]), bcSub(a[2], a[0])), bcSub(b[2], a[0]))) == 0;
			double tol = 8 * DBL_EPSILON * 4;
			int r0 = coplanarTouch ? 0 : 1, r1 = coplanarTouch ? 1 : 0;
			bcAssertVecNear(ba.segment[r0], ab.segment[0].x, ab.segment[0].y, ab.segment[0].z, tol);
			bcAssertVecNear(ba.segment[r1], ab.segment[1].x, ab.segment[1].y, ab.segment[1].z, tol);
			/* Flipping A's orientation reverses nA, so nA x nB too. */
			bcAssertVecNear(flip.segment[r0], ab.segment[0].x, ab.segment[0].y, ab.segment[0].z, tol);
			bcAssertVecNear(rot.segment[0], ab.segment[0].x, ab.segment[0].y, ab.segment[0].z, tol);
		}
	}
}
END_TEST

/* ------------------------------------------ floats: a plain reference */

/* Moller's method in doubles, with unit normals: for triangles in general
 * position (every vertex well off the other plane, chord ends well apart)
 * it is accurate to a few ulps of the ratio of sizes; returns false when
 * the pair is not well conditioned enough to judge. */
static bool floatReference(const bcVec3* a, const bcVec3* b, bool* meet, bcVec3* s0, bcVec3* s1)
{
	const double margin = 1e-6;
	bcVec3 na = bcNormalize(bcCross(bcSub(a[1], a[0]), bcSub(a[2], a[0])));
	bcVec3 nb = bcNormalize(bcCross(bcSub(b[1], b[0]), bcSub(b[2], b[0])));
	bcVec3 dir = bcNormalize(bcCross(na, nb));
	if (bcLength(bcCross(na, nb)) < margin) {
		return false;
	}
	bcVec3 pts[2][2];
	double ts[2][2];
	const bcVec3* tri[2] = { a, b };
	bcVec3 n[2] = { nb, na };
	bcVec3 o[2] = { b[0], a[0] };
	for (int w = 0; w < 2; ++w) {
		double d[3];
		int pos = 0, neg = 0;
		for (int i = 0; i < 3; ++i) {
			d[i] = bcDot(n[w], bcSub(tri[w][i], o[w]));
			if (fabs(d[i]) < margin) {
				return false;
			}
			pos += d[i] > 0;
			neg += d[i] < 0;
		}
		if (pos == 0 || neg == 0) {
			*meet = false;
			return true;
		}
		int c = 0;
		for (int i = 0; i < 3; ++i) {
			int j = (i + 1) % 3;
			if ((d[i] > 0) != (d[j] > 0)) {
				double s = d[i] / (d[i] - d[j]);
				pts[w][c] = bcMulAdd(tri[w][i], s, bcSub(tri[w][j], tri[w][i]));
				ts[w][c] = bcDot(dir, pts[w][c]);
				c += 1;
			}
		}
		if (ts[w][1] < ts[w][0]) {
			bcVec3 p = pts[w][0];
			pts[w][0] = pts[w][1];
			pts[w][1] = p;
			double t = ts[w][0];
			ts[w][0] = ts[w][1];
			ts[w][1] = t;
		}
	}
	int lo = ts[1][0] > ts[0][0] ? 1 : 0;
	int hi = ts[1][1] < ts[0][1] ? 1 : 0;
	/* Ends of the two chords too close to order: not judged. */
	if (fabs(ts[1][0] - ts[0][0]) < margin || fabs(ts[1][1] - ts[0][1]) < margin ||
		fabs(ts[lo][0] - ts[hi][1]) < margin) {
		return false;
	}
	*meet = ts[lo][0] < ts[hi][1];
	*s0 = pts[lo][0];
	*s1 = pts[hi][1];
	return true;
}

START_TEST(float_triangles_against_plain_reference)
{
	bcRandom rng = { 4242 };
	bcVec3 lo = { 0, 0, 0 }, hi = { 2, 2, 2 };
	int judged = 0, crossing = 0;
	for (int n = 0; n < FLOAT_PAIRS; ++n) {
		bcVec3 a[3], b[3];
		for (int i = 0; i < 3; ++i) {
			a[i] = bcRandom_InBox(&rng, lo, hi);
			b[i] = bcRandom_InBox(&rng, lo, hi);
		}
		bcTriTriOutput out = bcIntersectTriangles(a[0], a[1], a[2], b[0], b[1], b[2]);
		bool meet = false;
		bcVec3 s0, s1;
		if (!floatReference(a, b, &meet, &s0, &s1)) {
			continue;
		}
		judged += 1;
		if (!meet) {
			assertState(out, bc_triTriDisjoint);
			continue;
		}
		assertState(out, bc_triTriCrossing);
		crossing += 1;
		bcAssertVecNear(out.segment[0], s0.x, s0.y, s0.z, 1e-9);
		bcAssertVecNear(out.segment[1], s1.x, s1.y, s1.z, 1e-9);
		assertOnBoth(a, b, &out);
	}
	printf("tritri floats: %d of %d pairs judged, %d crossing\n", judged, FLOAT_PAIRS, crossing);
	ck_assert(judged > FLOAT_PAIRS / 2 && crossing > FLOAT_PAIRS / 20);
}
END_TEST

static Suite* tritriSuite(void)
{
	Suite* suite = suite_create("tritri");
	TCase* hand = tcase_create("hand");
	tcase_add_test(hand, touching_at_a_vertex);
	tcase_add_test(hand, touching_along_an_edge);
	tcase_add_test(hand, edges_touching);
	tcase_add_test(hand, crossing_through_the_interior);
	tcase_add_test(hand, piercing_an_edge);
	tcase_add_test(hand, coplanar_cases);
	tcase_add_test(hand, nearly_parallel);
	tcase_add_test(hand, degenerate_input);
	tcase_add_test(hand, bounding_sphere);
	tcase_add_test(hand, approximate_hand_cases);
	suite_add_tcase(suite, hand);
	TCase* reference = tcase_create("reference");
	tcase_set_timeout(reference, 60);
	tcase_add_test(reference, integer_grid_against_references);
	tcase_add_test(reference, near_degenerate_large_coordinates);
	tcase_add_test(reference, scale_and_translation_invariance);
	tcase_add_test(reference, exchange_and_rotation);
	tcase_add_test(reference, float_triangles_against_plain_reference);
	suite_add_tcase(suite, reference);
	return suite;
}

int main(void)
{
	return bcRunSuite(tritriSuite());
}
