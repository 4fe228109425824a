/* camera.c tests: the camera, projection to pixels (hand-computed),
 * framing, back faces, turning onto an up axis, and the up axis guessed
 * from a mesh's base (on hand-made meshes and on the scans). */
#include <string.h>

#include "camera.h"
#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* Projections of hand-computed points: sums of a few products of exact or
 * once-rounded numbers of size <= 1e3 px, so a few ulps of 1e3. */
#define PIXEL_TOLERANCE 1e-12

/* Unit vectors from sin and cos agree with their hand-written values to a
 * couple of ulps. */
#define AXIS_TOLERANCE 1e-15

/* Random cases for the properties. */
#define PROPERTY_CASES 500

static bcMesh* meshOf(const double* v, int32_t vertexCount, const int32_t* t, int32_t triangleCount)
{
	bcMeshDef def = { v, vertexCount, t, triangleCount, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert_ptr_nonnull(mesh);
	return mesh;
}

/* ------------------------------------------------------------ the camera */

START_TEST(front_view_projects_hand_computed_pixels)
{
	/* az 0, el 0: from -y, x to the right, z up. The box (0,0,0)-(2,1,2)
	 * has half sizes (1, 0.5, 1): 1 across and 1 up; the viewport
	 * 200 x 100 gives scale min(100/1, 50/1) = 50, origin (100, 50). */
	cliCamera camera = cliCamera_FromAngles(0.0, 0.0);
	bcAssertVecNear(camera.right, 1, 0, 0, 0);
	bcAssertVecNear(camera.up, 0, 0, 1, 0);
	bcAssertVecNear(camera.toEye, 0, -1, 0, 0);
	cliViewport viewport = { 0, 0, 200, 100 };
	cliCamera_Frame(&camera, bcMakeVec3(0, 0, 0), bcMakeVec3(2, 1, 2), viewport);
	bcAssertNear(camera.scale, 50.0, 0);
	bcAssertVecNear(camera.target, 1, 0.5, 1, 0);
	cliScreenPoint p = cliCamera_Project(&camera, bcMakeVec3(2, 0, 2));
	bcAssertNear(p.x, 150.0, 0);
	bcAssertNear(p.y, 0.0, 0);
	p = cliCamera_Project(&camera, bcMakeVec3(0, 5, 1));
	bcAssertNear(p.x, 50.0, 0);
	bcAssertNear(p.y, 50.0, 0);
	/* depth: along toEye = -y from the target, so y = -3 is 3.5 nearer */
	p = cliCamera_Project(&camera, bcMakeVec3(1, -3, 1));
	bcAssertNear(p.depth, 3.5, 0);
	/* a point below and left: x = 100 + 50 (-0.5 - 1), y = 50 - 50 (-1 - 1) */
	p = cliCamera_Project(&camera, bcMakeVec3(-0.5, 0, -1));
	bcAssertNear(p.x, 25.0, 0);
	bcAssertNear(p.y, 150.0, 0);
}
END_TEST

START_TEST(oblique_view_projects_hand_computed_pixels)
{
	/* az 90, el 45: the eye along (cos45, 0, sin45); right = +y;
	 * up = (-sin45, 0, cos45). The cube [-1,1]^3 is 1 across (|right|.h)
	 * and 2 cos45 = sqrt2 up; the viewport 400 x 400 gives scale
	 * min(200, 200/sqrt2) = 100 sqrt2, origin (200, 200). */
	const double h = sqrt(0.5);
	cliCamera camera = cliCamera_FromAngles(90.0, 45.0);
	bcAssertVecNear(camera.toEye, h, 0, h, AXIS_TOLERANCE);
	bcAssertVecNear(camera.right, 0, 1, 0, 0);
	bcAssertVecNear(camera.up, -h, 0, h, AXIS_TOLERANCE);
	cliViewport viewport = { 0, 0, 400, 400 };
	cliCamera_Frame(&camera, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1), viewport);
	bcAssertNear(camera.scale, 100.0 * sqrt(2.0), 1e-12);
	/* (1, 0.5, 0): x = 200 + 100 sqrt2 * 0.5 = 270.71..., y = 200 - 100
	 * sqrt2 * (-h) = 300, depth = h */
	cliScreenPoint p = cliCamera_Project(&camera, bcMakeVec3(1, 0.5, 0));
	bcAssertNear(p.x, 200.0 + 50.0 * sqrt(2.0), PIXEL_TOLERANCE);
	bcAssertNear(p.y, 300.0, PIXEL_TOLERANCE);
	bcAssertNear(p.depth, h, AXIS_TOLERANCE);
	/* the top far corner (-1, -1, 1) lands on the viewport's top edge:
	 * y = 200 - 100 sqrt2 (h + h) = 0, x = 200 - 100 sqrt2 */
	p = cliCamera_Project(&camera, bcMakeVec3(-1, -1, 1));
	bcAssertNear(p.y, 0.0, PIXEL_TOLERANCE);
	bcAssertNear(p.x, 200.0 - 100.0 * sqrt(2.0), PIXEL_TOLERANCE);
}
END_TEST

START_TEST(multiples_of_ninety_degrees_give_exact_axes)
{
	cliCamera top = cliCamera_FromAngles(0.0, 90.0);
	bcAssertVecNear(top.right, 1, 0, 0, 0);
	bcAssertVecNear(top.up, 0, 1, 0, 0);
	bcAssertVecNear(top.toEye, 0, 0, 1, 0);
	cliCamera side = cliCamera_FromAngles(90.0, 0.0);
	bcAssertVecNear(side.right, 0, 1, 0, 0);
	bcAssertVecNear(side.up, 0, 0, 1, 0);
	bcAssertVecNear(side.toEye, 1, 0, 0, 0);
	/* -270 is 90; 450 is 90; elevation beyond 90 is clamped */
	cliCamera wrapped = cliCamera_FromAngles(-270.0, 135.0);
	bcAssertVecNear(wrapped.toEye, 0, 0, 1, 0);
	bcAssertVecNear(wrapped.right, 0, 1, 0, 0);
	cliCamera back = cliCamera_FromAngles(180.0, 0.0);
	bcAssertVecNear(back.toEye, 0, 1, 0, 0);
	bcAssertVecNear(back.right, -1, 0, 0, 0);
}
END_TEST

START_TEST(cameras_are_right_handed_orthonormal)
{
	bcRandom rng = { 7 };
	for (int i = 0; i < PROPERTY_CASES; ++i) {
		double az = bcRandom_Uniform(&rng, -720, 720);
		double el = bcRandom_Uniform(&rng, -90, 90);
		cliCamera c = i % 2 ? cliCamera_FromAngles(az, el) : cliCamera_FromDirection(bcRandom_OnSphere(&rng));
		bcAssertNear(bcLength(c.right), 1.0, 4 * AXIS_TOLERANCE);
		bcAssertNear(bcLength(c.up), 1.0, 4 * AXIS_TOLERANCE);
		bcAssertNear(bcLength(c.toEye), 1.0, 4 * AXIS_TOLERANCE);
		bcAssertNear(bcDot(c.right, c.up), 0.0, 4 * AXIS_TOLERANCE);
		bcAssertNear(c.right.z, 0.0, 4 * AXIS_TOLERANCE); /* right stays horizontal */
		bcVec3 cross = bcCross(c.right, c.up);
		bcAssertVecNear(cross, c.toEye.x, c.toEye.y, c.toEye.z, 8 * AXIS_TOLERANCE);
	}
}
END_TEST

START_TEST(eye_direction_agrees_with_angles)
{
	cliCamera a = cliCamera_FromAngles(0.0, 0.0);
	cliCamera d = cliCamera_FromDirection(bcMakeVec3(0, -5, 0));
	ck_assert(memcmp(&a.right, &d.right, sizeof a.right) == 0);
	ck_assert(memcmp(&a.up, &d.up, sizeof a.up) == 0);
	ck_assert(memcmp(&a.toEye, &d.toEye, sizeof a.toEye) == 0);
	a = cliCamera_FromAngles(35.0, 25.0);
	d = cliCamera_FromDirection(bcScale(3.0, a.toEye));
	bcAssertVecNear(d.right, a.right.x, a.right.y, a.right.z, 4 * AXIS_TOLERANCE);
	bcAssertVecNear(d.up, a.up.x, a.up.y, a.up.z, 4 * AXIS_TOLERANCE);
	/* straight down: right is +x, up is +y, as the top view from az 0 */
	d = cliCamera_FromDirection(bcMakeVec3(0, 0, 3));
	bcAssertVecNear(d.right, 1, 0, 0, 0);
	bcAssertVecNear(d.up, 0, 1, 0, 0);
}
END_TEST

START_TEST(framing_fits_the_box_and_touches_the_viewport)
{
	/* Against the eight corners, projected one by one. */
	bcRandom rng = { 11 };
	for (int i = 0; i < PROPERTY_CASES; ++i) {
		bcVec3 lower = bcRandom_InBox(&rng, bcMakeVec3(-10, -10, -10), bcMakeVec3(10, 10, 10));
		bcVec3 size = bcRandom_InBox(&rng, bcMakeVec3(0, 0, 0), bcMakeVec3(5, 5, 5));
		if (i % 7 == 0) {
			size.z = 0.0; /* a flat mesh */
		}
		bcVec3 upper = bcAdd(lower, size);
		cliCamera c = cliCamera_FromAngles(bcRandom_Uniform(&rng, 0, 360), bcRandom_Uniform(&rng, -90, 90));
		cliViewport v = { 16, 40, 16 + bcRandom_Uniform(&rng, 50, 900), 40 + bcRandom_Uniform(&rng, 50, 900) };
		cliCamera_Frame(&c, lower, upper, v);
		double minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;
		for (int k = 0; k < 8; ++k) {
			bcVec3 corner = bcMakeVec3(k & 1 ? upper.x : lower.x, k & 2 ? upper.y : lower.y, k & 4 ? upper.z : lower.z);
			cliScreenPoint p = cliCamera_Project(&c, corner);
			minX = fmin(minX, p.x);
			maxX = fmax(maxX, p.x);
			minY = fmin(minY, p.y);
			maxY = fmax(maxY, p.y);
		}
		const double slack = 1e-9;
		ck_assert(minX >= v.left - slack && maxX <= v.right + slack);
		ck_assert(minY >= v.top - slack && maxY <= v.bottom + slack);
		bool touchesX = fabs(minX - v.left) <= slack && fabs(maxX - v.right) <= slack;
		bool touchesY = fabs(minY - v.top) <= slack && fabs(maxY - v.bottom) <= slack;
		ck_assert_msg(touchesX || touchesY, "case %d: the box does not fill the viewport either way", i);
		/* centred */
		bcAssertNear(0.5 * (minX + maxX), 0.5 * (v.left + v.right), 1e-9);
		bcAssertNear(0.5 * (minY + maxY), 0.5 * (v.top + v.bottom), 1e-9);
	}
}
END_TEST

START_TEST(framing_points_fits_them_with_their_pad_and_touches_the_viewport)
{
	/* Random clouds: every point, pad pixels around it, inside; the
	 * extremes touch two opposite sides; centred; and on a flat slanted
	 * cloud the scale is at least the box framing's. */
	bcRandom rng = { 12 };
	for (int i = 0; i < PROPERTY_CASES; ++i) {
		bcVec3 points[16];
		int count = 1 + i % 16;
		for (int k = 0; k < count; ++k) {
			points[k] = bcRandom_InBox(&rng, bcMakeVec3(-10, -10, -10), bcMakeVec3(10, 10, 10));
			if (i % 5 == 0) {
				points[k].z = 0.25 * points[k].x; /* a slanted plane */
			}
		}
		double pad = i % 3 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0.0, 2.0);
		cliCamera c = cliCamera_FromAngles(bcRandom_Uniform(&rng, 0, 360), bcRandom_Uniform(&rng, -90, 90));
		cliViewport v = { 8, 22, 8 + bcRandom_Uniform(&rng, 50, 900), 22 + bcRandom_Uniform(&rng, 50, 900) };
		cliCamera_FramePoints(&c, points, count, pad, v);
		if (count == 1 && pad == 0.0) {
			bcAssertNear(c.scale, 1.0, 0);
			continue;
		}
		double minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;
		bcVec3 lower = points[0], upper = points[0];
		for (int k = 0; k < count; ++k) {
			cliScreenPoint p = cliCamera_Project(&c, points[k]);
			double padPixels = pad * c.scale;
			minX = fmin(minX, p.x - padPixels);
			maxX = fmax(maxX, p.x + padPixels);
			minY = fmin(minY, p.y - padPixels);
			maxY = fmax(maxY, p.y + padPixels);
			lower = bcMakeVec3(fmin(lower.x, points[k].x), fmin(lower.y, points[k].y), fmin(lower.z, points[k].z));
			upper = bcMakeVec3(fmax(upper.x, points[k].x), fmax(upper.y, points[k].y), fmax(upper.z, points[k].z));
		}
		const double slack = 1e-9 * (1.0 + c.scale);
		ck_assert(minX >= v.left - slack && maxX <= v.right + slack);
		ck_assert(minY >= v.top - slack && maxY <= v.bottom + slack);
		bool touchesX = fabs(minX - v.left) <= slack && fabs(maxX - v.right) <= slack;
		bool touchesY = fabs(minY - v.top) <= slack && fabs(maxY - v.bottom) <= slack;
		ck_assert_msg(touchesX || touchesY, "case %d: the points do not fill the viewport either way", i);
		bcAssertNear(0.5 * (minX + maxX), 0.5 * (v.left + v.right), slack);
		bcAssertNear(0.5 * (minY + maxY), 0.5 * (v.top + v.bottom), slack);
		if (pad == 0.0) {
			cliCamera boxed = c;
			cliCamera_Frame(&boxed, lower, upper, v);
			ck_assert(c.scale >= boxed.scale * (1.0 - 1e-12));
		}
	}
}
END_TEST

START_TEST(a_box_that_projects_to_a_point_gets_scale_one)
{
	cliCamera c = cliCamera_FromAngles(0.0, 90.0);
	cliViewport v = { 0, 0, 100, 100 };
	cliCamera_Frame(&c, bcMakeVec3(1, 2, 0), bcMakeVec3(1, 2, 5), v);
	bcAssertNear(c.scale, 1.0, 0);
	cliScreenPoint p = cliCamera_Project(&c, bcMakeVec3(1, 2, 3));
	bcAssertNear(p.x, 50.0, 0);
	bcAssertNear(p.y, 50.0, 0);
}
END_TEST

/* ------------------------------------------------------------ back faces */

START_TEST(back_faces_point_away_from_the_eye)
{
	cliCamera front = cliCamera_FromAngles(0.0, 0.0); /* eye at -y */
	ck_assert_int_eq(cliCamera_Facing(&front, bcMakeVec3(0, -1, 0)), cli_facingFront);
	ck_assert_int_eq(cliCamera_Facing(&front, bcMakeVec3(0, 1, 0)), cli_facingBack);
	ck_assert_int_eq(cliCamera_Facing(&front, bcMakeVec3(1, 0, 0)), cli_facingBack);  /* edge-on */
	ck_assert_int_eq(cliCamera_Facing(&front, bcMakeVec3(0, 0, 0)), cli_facingBack);  /* degenerate */
	ck_assert_int_eq(cliCamera_Facing(&front, bcMakeVec3(0.6, -0.8, 0)), cli_facingFront);
	/* A closed, outward box seen from anywhere: its front faces are
	 * exactly those whose plane has the eye on its front side. */
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 2, 3), 1, 0);
	bcMesh* box = bcGenMesh_Build(&g);
	bcRandom rng = { 5 };
	for (int i = 0; i < 50; ++i) {
		cliCamera c = cliCamera_FromDirection(bcRandom_OnSphere(&rng));
		int fronts = 0;
		for (int32_t t = 0; t < g.triangleCount; ++t) {
			bcTriangle tri = bcMesh_GetTriangle(box, t);
			bcVec3 a = bcMesh_GetVertex(box, tri.vertices[0]);
			/* an eye far along toEye from the box centre */
			bcVec3 eye = bcMulAdd(bcMakeVec3(0.5, 1, 1.5), 1e6, c.toEye);
			bool sees = bcDot(bcSub(eye, a), tri.normal) > 0.0;
			ck_assert_int_eq(cliCamera_Facing(&c, tri.normal) == cli_facingFront, sees);
			fronts += sees;
		}
		/* an outward box shows 1 to 3 of its 6 sides: 2 to 6 triangles */
		ck_assert(fronts >= 2 && fronts <= 6);
	}
	bcMesh_Destroy(box);
	bcGenMesh_Free(&g);
}
END_TEST

/* ------------------------------------------------------------- up axis */

static bool sameVec(bcVec3 a, bcVec3 b)
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

START_TEST(turning_up_maps_the_frame_onto_the_up_axis)
{
	/* view 0,0: with y up it looks from +z, x to the right, y up; with x up
	 * from -z, y to the right, x up */
	cliCamera y = cliCamera_FromAngles(0.0, 0.0);
	cliCamera_TurnUp(&y, cli_upY);
	ck_assert(sameVec(y.toEye, bcMakeVec3(0, 0, 1)) && sameVec(y.right, bcMakeVec3(1, 0, 0)) &&
			  sameVec(y.up, bcMakeVec3(0, 1, 0)));
	cliCamera x = cliCamera_FromAngles(0.0, 0.0);
	cliCamera_TurnUp(&x, cli_upX);
	ck_assert(sameVec(x.toEye, bcMakeVec3(0, 0, -1)) && sameVec(x.right, bcMakeVec3(0, 1, 0)) &&
			  sameVec(x.up, bcMakeVec3(1, 0, 0)));
	/* right-handed for any view, and cliUpFrame is the inverse mapping */
	for (int up = 0; up < 3; ++up) {
		cliCamera c = cliCamera_FromAngles(35.0, 25.0);
		cliCamera_TurnUp(&c, (cliUpAxis)up);
		ck_assert(bcDistance(bcCross(c.right, c.up), c.toEye) < AXIS_TOLERANCE * 4);
		cliCamera d = cliCamera_FromDirection(cliUpFrame(c.toEye, (cliUpAxis)up));
		cliCamera_TurnUp(&d, (cliUpAxis)up);
		ck_assert(bcDistance(c.toEye, d.toEye) < 1e-12 && bcDistance(c.up, d.up) < 1e-12);
	}
}
END_TEST

START_TEST(the_up_axis_is_guessed_from_the_base)
{
	/* a floor in y = 0 facing +y with a thin pole up y: y; the same turned
	 * to lie in z = 0: z; a cube (every axis has a base): z */
	const double yFloor[] = { 0, 0, 0, 0, 0, 4, 4, 0, 4, 4, 0, 0, 2, 0, 2, 2, 3, 2, 2.1, 0, 2 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3, 4, 5, 6 };
	bcMesh* m = meshOf(yFloor, 7, t, 3);
	ck_assert_int_eq(cliGuessUp(m), cli_upY);
	bcMesh_Destroy(m);
	double zFloor[21];
	for (int v = 0; v < 7; ++v) {
		zFloor[3 * v] = yFloor[3 * v];
		zFloor[3 * v + 1] = yFloor[3 * v + 2];
		zFloor[3 * v + 2] = yFloor[3 * v + 1];
	}
	m = meshOf(zFloor, 7, t, 3);
	ck_assert_int_eq(cliGuessUp(m), cli_upZ);
	bcMesh_Destroy(m);
	double xFloor[21];
	for (int v = 0; v < 7; ++v) {
		xFloor[3 * v] = yFloor[3 * v + 1];
		xFloor[3 * v + 1] = yFloor[3 * v];
		xFloor[3 * v + 2] = yFloor[3 * v + 2];
	}
	m = meshOf(xFloor, 7, t, 3);
	ck_assert_int_eq(cliGuessUp(m), cli_upX);
	bcMesh_Destroy(m);
	const double cube[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1 };
	const int32_t ct[] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
						   1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7 };
	m = meshOf(cube, 8, ct, 12);
	ck_assert_int_eq(cliGuessUp(m), cli_upZ);
	bcMesh_Destroy(m);
}
END_TEST

/* The up axis of each scan in tests/data/meshes (or BALLCAST_MESHES), as
 * seen by eye in `ballcast render --up x|y|z` pictures of each: the bunny,
 * spot the cow and the fandisk part stand up along +y (spot and fandisk
 * give no clear base and get the default, +y), nefertiti's bust stands on
 * its flat cut along +z. */
START_TEST(each_scan_is_drawn_upright)
{
	static const struct {
		const char* name;
		cliUpAxis up;
	} scans[] = {
		{ "fandisk.obj", cli_upY },
		{ "nefertiti.obj", cli_upZ },
		{ "spot.obj", cli_upY },
		{ "stanford-bunny.obj", cli_upY },
	};
	const char* dir = getenv("BALLCAST_MESHES");
	for (size_t i = 0; i < sizeof scans / sizeof scans[0]; ++i) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "tests/data/meshes", scans[i].name);
		bcError error;
		bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
		ck_assert_msg(mesh != NULL, "%s: %s", path, error.message);
		ck_assert_msg(cliGuessUp(mesh) == scans[i].up, "%s: up %d, not %d", scans[i].name, (int)cliGuessUp(mesh),
					  (int)scans[i].up);
		bcMesh_Destroy(mesh);
	}
}
END_TEST

static Suite* cameraSuite(void)
{
	Suite* s = suite_create("camera");
	TCase* camera = tcase_create("camera");
	tcase_add_test(camera, front_view_projects_hand_computed_pixels);
	tcase_add_test(camera, oblique_view_projects_hand_computed_pixels);
	tcase_add_test(camera, framing_points_fits_them_with_their_pad_and_touches_the_viewport);
	tcase_add_test(camera, multiples_of_ninety_degrees_give_exact_axes);
	tcase_add_test(camera, cameras_are_right_handed_orthonormal);
	tcase_add_test(camera, eye_direction_agrees_with_angles);
	tcase_add_test(camera, framing_fits_the_box_and_touches_the_viewport);
	tcase_add_test(camera, a_box_that_projects_to_a_point_gets_scale_one);
	tcase_add_test(camera, back_faces_point_away_from_the_eye);
	suite_add_tcase(s, camera);
	TCase* up = tcase_create("up");
	tcase_add_test(up, turning_up_maps_the_frame_onto_the_up_axis);
	tcase_add_test(up, the_up_axis_is_guessed_from_the_base);
	tcase_add_test(up, each_scan_is_drawn_upright);
	suite_add_tcase(s, up);
	return s;
}

int main(void)
{
	return bcRunSuite(cameraSuite());
}
