/* sweep.c tests: one ball against one triangle, hand-computed answers.
 * The triangle is A(0,0,0) B(1,0,0) C(0,1,0), front normal +z. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#include "meshgen.h"
#include "sweep.h"
#include "vec3.h"

static const bcVec3 A = { 0, 0, 0 }, B = { 1, 0, 0 }, C = { 0, 1, 0 };

static bcCastInput ball(double x0, double y0, double z0, double x1, double y1, double z1, double r)
{
	bcCastInput in = { { x0, y0, z0 }, { x1, y1, z1 }, r };
	return in;
}

static double bcDotTest(bcVec3 v)
{
	return v.x * v.x + v.y * v.y + v.z * v.z;
}

static bcCastOutput castDefault(bcCastInput in)
{
	bcCastOptions o = bcDefaultCastOptions();
	return bcCastTriangle(A, B, C, in, &o);
}

START_TEST(face_from_front)
{
	bcCastOutput out = castDefault(ball(0.25, 0.25, 2, 0.25, 0.25, -2, 0.5));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.375, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	ck_assert_int_eq(out.vertexCount, 3);
	bcAssertVecNear(out.point, 0.25, 0.25, 0, 0);
	bcAssertVecNear(out.center, 0.25, 0.25, 0.5, 0);
	bcAssertVecNear(out.normal, 0, 0, 1, 0);
	bcAssertVecNear(out.triangleNormal, 0, 0, 1, 0);
}
END_TEST

START_TEST(face_from_behind_is_ignored_unless_two_sided)
{
	bcCastInput in = ball(0.25, 0.25, -2, 0.25, 0.25, 2, 0.5);
	bcCastOutput out = castDefault(in);
	ck_assert_int_eq(out.state, bc_castMiss);
	bcAssertNear(out.alpha, 1, 0);
	ck_assert_int_eq(out.triangle, -1);

	bcCastOptions o = bcDefaultCastOptions();
	o.twoSided = true;
	out = bcCastTriangle(A, B, C, in, &o);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.375, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertVecNear(out.center, 0.25, 0.25, -0.5, 0);
	bcAssertVecNear(out.point, 0.25, 0.25, 0, 0);
	bcAssertVecNear(out.normal, 0, 0, -1, 0);
	bcAssertVecNear(out.triangleNormal, 0, 0, 1, 0);
}
END_TEST

START_TEST(edge_at_an_angle)
{
	/* Distance to the x axis is sqrt(2) |1 - 2 alpha| = 0.5. */
	bcCastOutput out = castDefault(ball(0.5, -1, 1, 0.5, 1, -1, 0.5));
	double alpha = 0.5 - 0.25 / sqrt(2.0);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, alpha, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureEdge);
	ck_assert_int_eq(out.vertexCount, 2);
	ck_assert_int_eq(out.vertices[0], 0);
	ck_assert_int_eq(out.vertices[1], 1);
	bcAssertVecNear(out.point, 0.5, 0, 0, 1e-15);
	bcAssertVecNear(out.center, 0.5, -1 + 2 * alpha, 1 - 2 * alpha, 1e-15);
	bcAssertVecNear(out.normal, 0, -sqrt(0.5), sqrt(0.5), 1e-15);
}
END_TEST

START_TEST(edge_in_plane_and_approach_rule)
{
	/* Moving in the triangle's plane: dot(n, d) = 0 counts with le, not lt. */
	bcCastInput in = ball(0.5, -2, 0, 0.5, 2, 0, 0.5);
	bcCastOutput out = castDefault(in);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.375, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureEdge);
	bcAssertVecNear(out.point, 0.5, 0, 0, 1e-15);
	bcAssertVecNear(out.normal, 0, -1, 0, 1e-15);

	bcCastOptions o = bcDefaultCastOptions();
	o.approach = bc_approachLess;
	out = bcCastTriangle(A, B, C, in, &o);
	ck_assert_int_eq(out.state, bc_castMiss);
}
END_TEST

START_TEST(vertex_hit)
{
	/* The centre runs through A; |p0 + alpha d - A| = sqrt(3) |1 - 2 alpha| = 0.5.
	 * Edges AB and CA reach r earlier but beyond their segments. */
	bcCastOutput out = castDefault(ball(-1, -1, 1, 1, 1, -1, 0.5));
	double alpha = 0.5 - 0.25 / sqrt(3.0);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, alpha, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureVertex);
	ck_assert_int_eq(out.vertexCount, 1);
	ck_assert_int_eq(out.vertices[0], 0);
	bcAssertVecNear(out.point, 0, 0, 0, 0);
	double s = 1.0 / sqrt(3.0);
	bcAssertVecNear(out.normal, -s, -s, s, 1e-15);
	bcAssertNear(sqrt(out.center.x * out.center.x + out.center.y * out.center.y + out.center.z * out.center.z), 0.5,
				 1e-15);
}
END_TEST

START_TEST(vertex_notes_smaller_root)
{
	/* Seed 000: the quadratic in alpha has two roots; the smaller one is the
	 * contact. In-plane along y = 1.5, |centre - C| = sqrt(x^2 + 0.25) = 1 at
	 * x = -sqrt(0.75) and +sqrt(0.75); edges BC and CA reach r only beyond C. */
	bcCastOutput out = castDefault(ball(-3, 1.5, 0, 3, 1.5, 0, 1));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.5 - sqrt(0.75) / 6.0, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureVertex);
	ck_assert_int_eq(out.vertices[0], 2);
	bcAssertVecNear(out.point, 0, 1, 0, 0);
}
END_TEST

START_TEST(point_r0_face_and_edge)
{
	bcCastOutput out = castDefault(ball(0.2, 0.3, 1, 0.2, 0.3, -1, 0));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.5, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertVecNear(out.point, 0.2, 0.3, 0, 0);
	bcAssertVecNear(out.normal, 0, 0, 1, 0);
	/* Exactly through the edge AB: the boundary is inside; face wins the tie. */
	out = castDefault(ball(0.5, 0, 1, 0.5, 0, -1, 0));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.5, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	ck_assert_int_gt(out.tieCount, 1);
	/* Just beside it: a miss. */
	out = castDefault(ball(0.5, -1e-12, 1, 0.5, -1e-12, -1, 0));
	ck_assert_int_eq(out.state, bc_castMiss);
	/* Exactly through vertex B. */
	out = castDefault(ball(1, 0, 1, 1, 0, -3, 0));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.25, 0);
}
END_TEST

START_TEST(parallel_motion)
{
	/* Above the face at height 0.5 = r, sliding parallel: touches edge CA
	 * when its centre is above x = 0 (alpha = 1/3), a grazing contact. */
	bcCastOutput out = castDefault(ball(-1, 0.25, 0.5, 2, 0.25, 0.5, 0.5));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 1.0 / 3.0, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureEdge);
	ck_assert_int_eq(out.vertices[0], 2);
	ck_assert_int_eq(out.vertices[1], 0);
	/* Higher than r: nothing. */
	out = castDefault(ball(-1, 0.25, 0.5000001, 2, 0.25, 0.5000001, 0.5));
	ck_assert_int_eq(out.state, bc_castMiss);
}
END_TEST

START_TEST(initial_overlap_and_ignore)
{
	bcCastInput in = ball(0.25, 0.25, 0.1, 0.25, 0.25, -1, 0.5);
	bcCastOutput out = castDefault(in);
	ck_assert_int_eq(out.state, bc_castInitialOverlap);
	bcAssertNear(out.alpha, 0, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertVecNear(out.point, 0.25, 0.25, 0, 1e-17);
	bcAssertVecNear(out.center, 0.25, 0.25, 0.1, 0);
	bcAssertVecNear(out.normal, 0, 0, 1, 0);

	bcCastOptions o = bcDefaultCastOptions();
	o.overlap = bc_overlapIgnore;
	out = bcCastTriangle(A, B, C, in, &o);
	ck_assert_int_eq(out.state, bc_castMiss);

	/* Overlapping near vertex B: the feature comes from the closest point. */
	out = castDefault(ball(1.2, -0.1, 0.1, 1.2, -0.1, -0.1, 0.5));
	ck_assert_int_eq(out.state, bc_castInitialOverlap);
	ck_assert_int_eq(out.feature, bc_featureVertex);
	ck_assert_int_eq(out.vertices[0], 1);
}
END_TEST

START_TEST(zero_length)
{
	bcCastOutput out = castDefault(ball(0.25, 0.25, 1, 0.25, 0.25, 1, 0.5));
	ck_assert_int_eq(out.state, bc_castMiss);
	bcAssertNear(out.alpha, 1, 0);
	out = castDefault(ball(0.25, 0.25, 0.3, 0.25, 0.25, 0.3, 0.5));
	ck_assert_int_eq(out.state, bc_castInitialOverlap);
	/* Touching exactly at rest: a hit at 0, not an overlap. */
	out = castDefault(ball(0.25, 0.25, 0.5, 0.25, 0.25, 0.5, 0.5));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0, 0);
}
END_TEST

START_TEST(starting_in_contact_moving_in_never_tunnels)
{
	/* Resting exactly on the face and pushed down: a hit at alpha 0. */
	bcCastOutput out = castDefault(ball(0.3, 0.3, 0.1, 0.3, 0.3, -5, 0.1));
	ck_assert(out.state == bc_castHit || out.state == bc_castInitialOverlap);
	bcAssertNear(out.alpha, 0, 0);
}
END_TEST

START_TEST(invalid_and_degenerate)
{
	bcCastOutput out = castDefault(ball(0, 0, 1, 0, 0, -1, -1));
	ck_assert_int_eq(out.state, bc_castInvalid);
	out = castDefault(ball(NAN, 0, 1, 0, 0, -1, 1));
	ck_assert_int_eq(out.state, bc_castInvalid);
	out = castDefault(ball(0, 0, 1, 0, 0, -1, INFINITY));
	ck_assert_int_eq(out.state, bc_castInvalid);
	out = castDefault(ball(-1e308, 0, 1, 1e308, 0, -1, 1));
	ck_assert_int_eq(out.state, bc_castInvalid);
	bcCastOptions o = bcDefaultCastOptions();
	bcVec3 d = { 2, 0, 0 };
	out = bcCastTriangle(A, B, d, ball(0.5, 0, 1, 0.5, 0, -1, 0.1), &o);
	ck_assert_int_eq(out.state, bc_castMiss);
}
END_TEST

START_TEST(far_from_origin)
{
	/* The same face hit 1e6 away: alpha agrees to rounding of 1e6 coordinates. */
	double k = 1e6;
	bcVec3 a = { k, k, k }, b = { k + 1, k, k }, c = { k, k + 1, k };
	bcCastOptions o = bcDefaultCastOptions();
	bcCastOutput out = bcCastTriangle(a, b, c, ball(k + 0.25, k + 0.25, k + 2, k + 0.25, k + 0.25, k - 2, 0.5), &o);
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.375, 1e-15);
	ck_assert_int_eq(out.feature, bc_featureFace);
}
END_TEST

START_TEST(far_start_keeps_its_digits)
{
	/* Found by fuzzing: a path starting 1e6 away from a ball of r = 2.56e-6.
	 * The textbook discriminant b^2 - ac cancelled every digit and reported
	 * a vertex 1000 r away; the contact is on edge BC. */
	bcVec3 a = { 0, 0, 0 }, b = { 1, 0, 0 }, c = { 1, 1, 0 };
	bcCastInput in = { { 1e6, 1e6, 0 }, { -999999.99215686275, -1e6, 0 }, 2.56e-6 };
	bcCastOptions o = bcDefaultCastOptions();
	bcCastOutput out = bcCastTriangle(a, b, c, in, &o);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.feature, bc_featureEdge);
	ck_assert_int_eq(out.vertices[0], 1);
	ck_assert_int_eq(out.vertices[1], 2);
	bcAssertNear(out.alpha, 0.49999950195950232, 1e-16);
	/* The centre at contact is r from the edge x = 1, to the 1e-10 that
	 * coordinates near 1e6 can carry. */
	bcAssertNear(out.center.x - 1.0, 2.56e-6, 2e-10);
}
END_TEST

START_TEST(slivers_are_degenerate)
{
	/* Corners nearly collinear: the normal would be known to a few digits. */
	bcVec3 a = { 0, 0, 0 }, b = { 1, 0, 0 }, c = { 2, 1e-15, 0 };
	bcCastInput in = { { 1, 0, 1 }, { 1, 0, -1 }, 0.5 };
	bcCastOptions o = bcDefaultCastOptions();
	ck_assert_int_eq(bcCastTriangle(a, b, c, in, &o).state, bc_castMiss);
	/* A thin but sound triangle (sine 1e-6) still works. */
	bcVec3 d = { 2, 2e-6, 0 };
	bcCastOutput out = bcCastTriangle(a, b, d, in, &o);
	ck_assert_int_eq(out.state, bc_castHit);
}
END_TEST

START_TEST(path_starting_in_the_plane_beside_the_triangle)
{
	/* Found by fuzzing: r = 0, p0 exactly in the plane 6.5 away, moving nearly
	 * in the plane: the line test alone said "inside" at alpha -0. */
	bcVec3 a = { 0, 0, 0 }, b = { 0, 0, 1 }, c = { 15.25, 1e-6, 0 };
	bcCastInput in = { { -6.5, 0, 0.5 }, { 10, 1e-9, 0.5 }, 0 };
	bcCastOptions o = bcDefaultCastOptions();
	o.twoSided = true;
	bcCastOutput out = bcCastTriangle(a, b, c, in, &o);
	if (out.state != bc_castMiss) {
		/* Whatever it reports must be on the triangle. */
		bcClosestPoint cp = bcClosestPointTriangle(out.point, a, b, c);
		ck_assert_msg(cp.distance <= 1e-9, "contact %g off the triangle", cp.distance);
	}
}
END_TEST

/* The fuzzer's find (tests/fuzz/regressions/fuzz_query/long-thin-triangle-
 * missed-contact.bin): a triangle 250,860 long and 3 wide, crossed through
 * its face by a path along +y from its front. The plane is met where
 * n . (p - a) = r, at alpha = (8.25 - r) / 16.5 to within rounding; the
 * face point was once computed 2e-3 off the plane and the hit dropped. */
/* Issue 28's reproducer (sliver_normal.obj): a cap, the sine of its
 * smallest angle 4.9e-14, above the sliver limit. Its normal, its r = 0
 * contact point and a ball's face point against exact values (Python's
 * decimal at 100 digits, for the doubles read): the normal was 3.5e-4 of a
 * radian off, the point 2.2e-5. */
START_TEST(thin_cap_normal_and_point)
{
	bcVec3 a = { -0.8165054820718729, 0.7251644832866933, 19.482122322724678 };
	bcVec3 b = { -0.8660117400948595, 1.1327437720134903, 20.000907085962915 };
	bcVec3 c = { -0.8486255573875368, 0.989605343367905, 19.81871422712761 };
	const bcVec3 exact = { -0.11476462745547845, -0.7864411071098775, 0.6069097670435 };
	double error;
	bcVec3 n = bcTriangleNormalBounded(a, b, c, &error);
	ck_assert_msg(bcLength(bcCross(n, exact)) <= 4e-16, "normal %.17g %.17g %.17g", n.x, n.y, n.z);
	ck_assert(error <= 16.0 * 1.1102230246251565e-16);
	bcCastInput in = ball(-0.9010965735791623, 0.5559506460010908, 20.070702762126814, -0.7863319461236837,
						  1.3423917531109684, 19.463792995083317, 0.0);
	bcCastOptions o = bcDefaultCastOptions();
	bcCastOutput out = bcCastTriangle(a, b, c, in, &o);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.feature, bc_featureFace);
	/* The exact crossing, rounded: alpha 0.4999999999999985. */
	bcAssertNear(out.alpha, 0.4999999999999985, 0);
	bcAssertVecNear(out.center, -0.8437142598514232, 0.9491711995560284, 19.767247878605065, 0);
	bcAssertVecNear(out.point, -0.8437142598514232, 0.9491711995560284, 19.767247878605065, 8e-15);
	ck_assert(bcLength(bcCross(out.triangleNormal, exact)) <= 4e-16);
	ck_assert(bcLength(bcCross(out.normal, exact)) <= 4e-16);
	/* A ball of 0.001 on the same path: its face point is the centre moved
	 * 0.001 along -n, within a few ulps of 20. */
	in.radius = 0.001;
	out = bcCastTriangle(a, b, c, in, &o);
	ck_assert_int_eq(out.state, bc_castHit);
	bcVec3 foot = bcMulAdd(out.center, -0.001, exact);
	bcAssertVecNear(out.point, foot.x, foot.y, foot.z, 2e-14);
}
END_TEST

/* A ball's face alpha is correctly rounded when the triangle's |N| is exact
 * in doubles (issue 26): the sample's roll-to-wall, (1 - r) / 3 for the
 * double r = 0.3, was 0.2333333333333333, an ulp from the nearest double;
 * and a ball onto a plane of normal (0, 3, 4) / 5, whose exact alpha
 * (tests/exact/reference.py) rounds to 0.7124105293480388 (was ...039). */
START_TEST(rational_face_alpha_correctly_rounded)
{
	bcCastOptions o = bcDefaultCastOptions();
	bcVec3 wa = { -10, 0, -10 }, wb = { 0, 0, 10 }, wc = { 10, 0, -10 }; /* y = 0, front +y */
	bcCastOutput out = bcCastTriangle(wa, wb, wc, ball(4, 1, 0.35, 4, -2, 0.35, 0.3), &o);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertNear(out.alpha, 0.23333333333333334, 0);
	bcVec3 pa = { 0, 0, 0 }, pb = { 2, 0, 0 }, pc = { 0, 4, -3 };
	out = bcCastTriangle(pa, pb, pc,
						 ball(0.41145084744485094, 2.2417869892607296, 1.7951935655656968, 0.49994090420026105,
							  -0.2380101602191318, -1.0494564277651373, 0.1),
						 &o);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertNear(out.alpha, 0.7124105293480388, 0);
	/* The mesh's cast (which rounds the answers only) agrees. */
	const double v[] = { 0, 0, 0, 2, 0, 0, 0, 4, -3 };
	const int32_t t[] = { 0, 1, 2 };
	bcMeshDef def = { v, 3, t, 1, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	bcCastOutput meshOut = bcMesh_Cast(mesh,
									   ball(0.41145084744485094, 2.2417869892607296, 1.7951935655656968,
											0.49994090420026105, -0.2380101602191318, -1.0494564277651373, 0.1),
									   NULL);
	bcAssertNear(meshOut.alpha, 0.7124105293480388, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(long_thin_triangle_face)
{
	bcVec3 a = { 250860, 0, 0 }, b = { 0.25, 0.25, 3.05 }, c = { -1, 0.25, 0.3125 };
	bcCastInput in = { { 37811.201237453046, -8.0376816608947035, 1.9401075604200824 },
					   { 37811.201253896405, 8.4623183390953951, 1.9401000520366651 }, 0.0 };
	const double radii[2] = { 0.0, 0.390625 };
	for (int i = 0; i < 2; ++i) {
		in.radius = radii[i];
		bcCastOutput out = bcCastTriangle(a, b, c, in, NULL);
		ck_assert_int_eq(out.state, bc_castHit);
		ck_assert_int_eq(out.feature, bc_featureFace);
		bcAssertNear(out.alpha, (8.25 - in.radius) / 16.5, 1e-12);
		bcClosestPoint cp = bcClosestPointTriangle(out.center, a, b, c);
		bcAssertNear(cp.distance, in.radius, 1e-12);
	}
}
END_TEST

/* The bounding-ball rejection at its limit: A(0,3,0) B(-1,0,0) C(1,0,0)
 * has its centroid at (0,1,0) and A, the farthest vertex, 2 from it. A
 * ball of radius 0.5 passing 3.5 from the centroid, beyond A, touches A
 * at one instant (exactly r away): exactly R + r from the bounding ball's
 * centre, which must not be rejected. Through the plane and along it. */
START_TEST(tangent_to_the_bounding_ball_is_a_hit)
{
	bcVec3 a = { 0, 3, 0 }, b = { -1, 0, 0 }, c = { 1, 0, 0 };
	bcCastOptions o = bcDefaultCastOptions();
	bcCastInput through = ball(0, 3.5, 1, 0, 3.5, -1, 0.5);
	bcCastInput along = ball(-1, 3.5, 0, 1, 3.5, 0, 0.5);
	for (int k = 0; k < 2; ++k) {
		bcCastOutput out = bcCastTriangle(a, b, c, k == 0 ? through : along, &o);
		ck_assert_int_eq(out.state, bc_castHit);
		bcAssertNear(out.alpha, 0.5, 0);
		ck_assert_int_eq(out.feature, bc_featureVertex);
		ck_assert_int_eq(out.vertices[0], 0);
		bcAssertVecNear(out.point, 0, 3, 0, 0);
		bcAssertVecNear(out.center, 0, 3.5, 0, 0);
		bcAssertVecNear(out.normal, 0, 1, 0, 0);
	}
	/* a hair farther out: a miss */
	bcCastOutput out = bcCastTriangle(a, b, c, ball(0, 3.5000001, 1, 0, 3.5000001, -1, 0.5), &o);
	ck_assert_int_eq(out.state, bc_castMiss);
}
END_TEST

START_TEST(unit_normals_at_any_scale)
{
	/* Tiny and huge triangles still give unit normals. */
	const double scales[] = { 1e-100, 1e-30, 1e-6, 1e6, 1e40 };
	for (int i = 0; i < 5; ++i) {
		double k = scales[i];
		bcVec3 a = { 0, 0, 0 }, b = { k, 0, 0 }, c = { 0, k, k };
		bcCastInput in = { { 0.25 * k, 0.25 * k, 3 * k }, { 0.25 * k, 0.25 * k, -3 * k }, 0 };
		bcCastOptions o = bcDefaultCastOptions();
		o.twoSided = true;
		bcCastOutput out = bcCastTriangle(a, b, c, in, &o);
		double length = sqrt(bcDotTest(out.triangleNormal));
		ck_assert_msg(out.state == bc_castHit, "scale %g: state %d", k, out.state);
		ck_assert_msg(fabs(length - 1.0) <= 1e-15, "scale %g: |n| = %.17g", k, length);
	}
}
END_TEST

static double bcTestUniform(uint64_t* state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*state >> 11) * 0x1p-53;
}

/* bcSweepQuery.ballFiltered skips the bounding-ball rejection (the walk of
 * bcBvh_QuerySweepBall has made one): every triangle must give the same
 * verdict and the same alphas at or before maxAlpha either way. Random
 * triangles of sizes 1e-3 to 1, balls passing near them or far, maxAlpha
 * lowered at random as a search lowers it. */
START_TEST(skipping_the_ball_rejection_changes_nothing)
{
	uint64_t state = 2026;
	int hits = 0;
	for (int i = 0; i < 20000; ++i) {
		double size = pow(10.0, -3.0 * bcTestUniform(&state));
		bcVec3 v[3];
		for (int k = 0; k < 3; ++k) {
			v[k] = bcMakeVec3(size * bcTestUniform(&state), size * bcTestUniform(&state), size * bcTestUniform(&state));
		}
		double spread = size * (bcTestUniform(&state) < 0.5 ? 1.5 : 6.0);
		bcCastInput in;
		in.p0 = bcMakeVec3(spread * (bcTestUniform(&state) - 0.25), spread * (bcTestUniform(&state) - 0.25),
						   spread * (bcTestUniform(&state) - 0.25));
		in.p1 = bcMakeVec3(spread * (bcTestUniform(&state) - 0.25), spread * (bcTestUniform(&state) - 0.25),
						   spread * (bcTestUniform(&state) - 0.25));
		in.radius = size * pow(10.0, -2.0 * bcTestUniform(&state));
		bcCastOptions options = bcDefaultCastOptions();
		options.twoSided = bcTestUniform(&state) < 0.5;
		bcSweepTriangleRef t = { v[0], v[1], v[2], bcTriangleNormal(v[0], v[1], v[2]),
								 bcTriangleNormalError(v[0], v[1], v[2]) };
		if (t.n.x == 0.0 && t.n.y == 0.0 && t.n.z == 0.0) {
			continue;
		}
		double maxAlpha = bcTestUniform(&state) < 0.5 ? 1.0 : bcTestUniform(&state);
		bcSweepQuery q = bcMakeSweepQuery(in, &options);
		bcSweepResult plain, skipped;
		bool a = bcSweepTriangle(&q, &t, maxAlpha, &plain);
		q.ballFiltered = true;
		bool b = bcSweepTriangle(&q, &t, maxAlpha, &skipped);
		ck_assert_msg(a == b, "case %d: verdict %d without, %d with the skip", i, (int)a, (int)b);
		if (!a) {
			continue;
		}
		hits += 1;
		ck_assert(plain.overlap == skipped.overlap);
		for (int s = 0; s < bc_slotCount; ++s) {
			bool inA = plain.alpha[s] <= maxAlpha, inB = skipped.alpha[s] <= maxAlpha;
			ck_assert_msg(inA == inB && (!inA || plain.alpha[s] == skipped.alpha[s]),
						  "case %d slot %d: %.17g and %.17g", i, s, plain.alpha[s], skipped.alpha[s]);
		}
	}
	ck_assert_int_gt(hits, 1000);
}
END_TEST

/* bcCastTriangle and a one-triangle mesh cast give the same answer, bit for
 * bit (alpha and centre the earliest tied contact's), on throws aimed at
 * the face, near each edge and near each vertex, both sides and overlaps
 * included: one tie rule. */
START_TEST(one_triangle_cast_agrees_with_the_mesh_cast)
{
	bcRandom rng = { 2026 };
	int hits = 0, edges = 0, vertices = 0, tied = 0;
	for (int i = 0; i < 20000; ++i) {
		bcVec3 a = bcRandom_InBox(&rng, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1));
		bcVec3 b = bcRandom_InBox(&rng, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1));
		bcVec3 c = bcRandom_InBox(&rng, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1));
		/* a target on the triangle: a vertex, a point of an edge, or inside;
		 * or (kind 3) a ball that first touches vertex A with the contact
		 * normal square to edge AB: the edge and the vertex tie there
		 * exactly, and their computed alphas differ by rounding */
		double u = bcRandom_Uniform(&rng, 0, 1), v = bcRandom_Uniform(&rng, 0, 1);
		int kind = i % 4;
		bcVec3 target = kind == 0 || kind == 3 ? a
					  : kind == 1 ? bcAdd(a, bcScale(u, bcSub(b, a)))
								  : bcAdd(a, bcAdd(bcScale(0.5 * u, bcSub(b, a)), bcScale(0.5 * v, bcSub(c, a))));
		double r = i % 7 == 0 && kind != 3 ? 0.0 : bcRandom_Uniform(&rng, 0.01, 0.5);
		bcVec3 away = bcRandom_OnSphere(&rng);
		bcVec3 p0, p1;
		if (kind == 3) {
			bcVec3 e = bcSub(b, a);
			bcVec3 square = bcNormalize(bcSub(away, bcScale(bcDot(away, e) / bcDot(e, e), e)));
			bcVec3 d = bcRandom_InBox(&rng, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1));
			d = bcDot(d, square) > 0.0 ? bcScale(-1.0, d) : d;
			p0 = bcSub(bcAdd(a, bcScale(r, square)), bcScale(u, d));
			p1 = bcAdd(p0, d);
		} else {
			double gap = i % 11 == 0 ? 0.5 * r : r + bcRandom_Uniform(&rng, 0.0, 1.0); /* some start inside */
			p0 = bcAdd(target, bcScale(gap, away));
			p1 = bcAdd(target, bcScale(-bcRandom_Uniform(&rng, 0.0, 2.0), away));
		}
		bcCastInput in = { p0, p1, r };
		bcCastOptions options = bcDefaultCastOptions();
		options.twoSided = i % 2 == 0;
		const double verts[] = { a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z };
		const int32_t tri[] = { 0, 1, 2 };
		bcMeshDef def = { verts, 3, tri, 1, NULL, 0 };
		bcMesh* mesh = bcMesh_Create(&def, NULL);
		ck_assert_ptr_nonnull(mesh);
		bcCastOutput one = bcCastTriangle(a, b, c, in, &options);
		bcCastOutput all = bcMesh_Cast(mesh, in, &options);
		bcMesh_Destroy(mesh);
		ck_assert_msg(one.state == all.state && one.alpha == all.alpha && one.feature == all.feature &&
						  one.tieCount == all.tieCount && memcmp(&one.center, &all.center, sizeof one.center) == 0 &&
						  memcmp(&one.point, &all.point, sizeof one.point) == 0 &&
						  memcmp(&one.normal, &all.normal, sizeof one.normal) == 0,
					  "case %d: triangle %d %.17g (%s) vs mesh %d %.17g (%s)", i, one.state, one.alpha,
					  bcFeatureName(one.feature), all.state, all.alpha, bcFeatureName(all.feature));
		hits += one.state == bc_castHit;
		edges += one.state == bc_castHit && one.feature == bc_featureEdge;
		vertices += one.state == bc_castHit && one.feature == bc_featureVertex;
		tied += one.state == bc_castHit && one.tieCount > 1;
	}
	/* the sample reaches every kind of contact */
	ck_assert_int_gt(hits, 5000);
	ck_assert_int_gt(edges, 500);
	ck_assert_int_gt(vertices, 500);
	ck_assert_int_gt(tied, 5);
}
END_TEST

static Suite* sweepSuite(void)
{
	Suite* s = suite_create("sweep");
	TCase* tc = tcase_create("triangle");
	tcase_add_test(tc, face_from_front);
	tcase_add_test(tc, one_triangle_cast_agrees_with_the_mesh_cast);
	tcase_add_test(tc, skipping_the_ball_rejection_changes_nothing);
	tcase_add_test(tc, face_from_behind_is_ignored_unless_two_sided);
	tcase_add_test(tc, edge_at_an_angle);
	tcase_add_test(tc, edge_in_plane_and_approach_rule);
	tcase_add_test(tc, vertex_hit);
	tcase_add_test(tc, vertex_notes_smaller_root);
	tcase_add_test(tc, point_r0_face_and_edge);
	tcase_add_test(tc, parallel_motion);
	tcase_add_test(tc, initial_overlap_and_ignore);
	tcase_add_test(tc, zero_length);
	tcase_add_test(tc, starting_in_contact_moving_in_never_tunnels);
	tcase_add_test(tc, invalid_and_degenerate);
	tcase_add_test(tc, far_from_origin);
	tcase_add_test(tc, far_start_keeps_its_digits);
	tcase_add_test(tc, slivers_are_degenerate);
	tcase_add_test(tc, path_starting_in_the_plane_beside_the_triangle);
	tcase_add_test(tc, unit_normals_at_any_scale);
	tcase_add_test(tc, tangent_to_the_bounding_ball_is_a_hit);
	tcase_add_test(tc, long_thin_triangle_face);
	tcase_add_test(tc, thin_cap_normal_and_point);
	tcase_add_test(tc, rational_face_alpha_correctly_rounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(sweepSuite());
}
