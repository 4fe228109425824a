/* svg.c tests: the camera, projection to pixels (hand-computed), framing,
 * back faces, the painter's order (against depths computed here), cutting,
 * outline edges, and the SVG writers' text. */
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "svg.h"
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

/* What f wrote, as a string the caller frees. */
typedef struct capture {
	char* text;
	size_t length;
	FILE* f;
} capture;

static void captureOpen(capture* c)
{
	c->text = NULL;
	c->length = 0;
	c->f = open_memstream(&c->text, &c->length);
	ck_assert_ptr_nonnull(c->f);
}

static char* captureClose(capture* c)
{
	fclose(c->f);
	return c->text;
}

static void assertCoord(double value, const char* expected)
{
	capture c;
	captureOpen(&c);
	cliSvgWriteCoord(c.f, value);
	char* text = captureClose(&c);
	ck_assert_msg(strcmp(text, expected) == 0, "coord %.17g: got '%s', expected '%s'", value, text, expected);
	free(text);
}

static void assertText(const char* input, const char* expected)
{
	capture c;
	captureOpen(&c);
	cliSvgWriteText(c.f, input);
	char* text = captureClose(&c);
	ck_assert_msg(strcmp(text, expected) == 0, "text: got '%s', expected '%s'", text, expected);
	free(text);
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

/* --------------------------------------------------------- depth order */

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

/* How many times needle occurs in text. */
static int occurrences(const char* text, const char* needle)
{
	int n = 0;
	for (const char* p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) {
		++n;
	}
	return n;
}

START_TEST(culling_clusters_small_triangles_and_keeps_big_ones)
{
	/* a 64 x 64 grid of 2 x 64^2 triangles over a 100 x 100 px square, seen
	 * from straight above: at a 1 px grid all stay (cells of 1.56 px); at 8
	 * px about (100 / 8)^2 * 2 remain; a big triangle always stays */
	enum { N = 64 };
	static double v[3 * (N + 1) * (N + 1)];
	static int32_t t[3 * 2 * N * N];
	for (int i = 0; i <= N; ++i) {
		for (int j = 0; j <= N; ++j) {
			double* p = v + 3 * (i * (N + 1) + j);
			p[0] = (double)j / N;
			p[1] = (double)i / N;
			p[2] = 0.0;
		}
	}
	int n = 0;
	for (int i = 0; i < N; ++i) {
		for (int j = 0; j < N; ++j) {
			int32_t a = i * (N + 1) + j, b = a + 1, c = a + N + 2, d = a + N + 1;
			t[n++] = a, t[n++] = b, t[n++] = c, t[n++] = a, t[n++] = c, t[n++] = d;
		}
	}
	bcMesh* m = meshOf(v, (N + 1) * (N + 1), t, 2 * N * N);
	cliCamera camera = cliCamera_FromAngles(0.0, 90.0);
	cliViewport viewport = { 0, 0, 100, 100 };
	cliCamera_Frame(&camera, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 1, 0), viewport);
	int counts[2];
	const double cells[2] = { 1.0, 8.0 };
	for (int k = 0; k < 2; ++k) {
		capture c;
		captureOpen(&c);
		cliSvg svg = { c.f, 100, 100 };
		int64_t culled = -1;
		ck_assert(cliSvg_MeshCulled(&svg, m, &camera, cells[k], &culled));
		char* text = captureClose(&c);
		counts[k] = occurrences(text, "<path color=");
		ck_assert_int_eq(counts[k] + culled, 2 * N * N);
		ck_assert_int_eq(occurrences(text, "<polygon"), 0);
		free(text);
	}
	ck_assert_int_eq(counts[0], 2 * N * N);
	ck_assert_int_ge(counts[1], 2 * 12 * 12);
	ck_assert_int_le(counts[1], 2 * 14 * 14);
	bcMesh_Destroy(m);
	/* the picture's default: a mesh this dense for 100 x 100 is clustered,
	 * on the finest grid leaving at most CLI_SVG_FACE_BUDGET (8000) faces:
	 * not 1 px (all 8192 stay), 2 px */
	cliSvg svg = { stdout, 100, 100 };
	ck_assert(cliSvg_AutoCull(&svg, m = meshOf(v, (N + 1) * (N + 1), t, 2 * N * N), &camera) == 2.0);
	cliSvg big = { stdout, 1000, 1000 };
	ck_assert(cliSvg_AutoCull(&big, m, &camera) == 0.0);
	bcMesh_Destroy(m);
}
END_TEST

START_TEST(painter_order_is_back_to_front_by_centroid)
{
	/* Three triangles parallel to the xz plane at y = 0, 2 and 1, and a
	 * degenerate one. Seen from -y the farthest is y = 2 (triangle 1),
	 * then y = 1 (triangle 2), then y = 0 (triangle 0); the degenerate
	 * triangle 3 is left out. Triangle 4 is triangle 2 again: a tie, so it
	 * comes right after it. */
	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 1, 2, 0, 0, 2, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1 };
	const int32_t t[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 6, 7, 8 };
	bcMesh* mesh = meshOf(v, 9, t, 5);
	cliCamera c = cliCamera_FromAngles(0.0, 0.0);
	cliViewport viewport = { 0, 0, 100, 100 };
	cliCamera_Frame(&c, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 2, 1), viewport);
	int64_t count = -1;
	cliPiece* order = cliDepthOrder(mesh, &c, 0.0, &count);
	ck_assert_ptr_nonnull(order);
	ck_assert_int_eq(count, 4);
	const int32_t expected[4] = { 1, 2, 4, 0 };
	for (int i = 0; i < 4; ++i) {
		ck_assert_int_eq(order[i].triangle, expected[i]);
		ck_assert_int_eq(order[i].k, 1);
	}
	free(order);
	/* From +y (az 180) the order turns round, the tie still by index. */
	c = cliCamera_FromAngles(180.0, 0.0);
	cliCamera_Frame(&c, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 2, 1), viewport);
	order = cliDepthOrder(mesh, &c, 0.0, &count);
	const int32_t reversed[4] = { 0, 2, 4, 1 };
	for (int i = 0; i < 4; ++i) {
		ck_assert_int_eq(order[i].triangle, reversed[i]);
	}
	free(order);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(painter_order_sorts_every_piece_by_its_centroid_depth)
{
	/* A soup with big and small triangles, cut: every piece appears once,
	 * and centroid depths computed here never decrease along the order. */
	bcGenMesh g = { 0 };
	bcGenSoup(&g, 300, 10.0, 4.0, 99);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCamera c = cliCamera_FromAngles(35.0, 25.0);
	cliViewport viewport = { 0, 0, 800, 600 };
	cliCamera_Frame(&c, info.lowerBound, info.upperBound, viewport);
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, &c, 1.0, &count);
	ck_assert_ptr_nonnull(order);
	int64_t expectedCount = 0;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		int pieces = -1;
		for (int64_t n = 0; n < count; ++n) {
			if (order[n].triangle == t) {
				pieces = order[n].k * order[n].k;
				break;
			}
		}
		ck_assert_int_ge(pieces, 1);
		expectedCount += pieces;
	}
	ck_assert_int_eq(count, expectedCount);
	double previous = -INFINITY;
	for (int64_t n = 0; n < count; ++n) {
		bcVec3 corners[3];
		cliPiece_Corners(mesh, order[n], corners);
		bcVec3 centroid = bcScale(1.0 / 3.0, bcAdd(bcAdd(corners[0], corners[1]), corners[2]));
		double depth = bcDot(bcSub(centroid, c.target), c.toEye);
		ck_assert_msg(depth >= previous, "piece %ld: depth %.17g after %.17g", (long)n, depth, previous);
		previous = depth;
		ck_assert_int_le(order[n].k, CLI_SVG_MAX_CUTS);
	}
	free(order);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(cut_pieces_tile_their_triangle)
{
	/* A right triangle with legs 3 and 4 (hypotenuse 5) cut so that no piece
	 * edge exceeds 1.7: k = ceil(5 / 1.7) = 3, 9 pieces of area 6/9, each
	 * facing as the triangle, meeting exactly at the grid points. */
	const double v[] = { 0, 0, 0, 3, 0, 0, 0, 4, 0 };
	const int32_t t[] = { 0, 1, 2 };
	bcMesh* mesh = meshOf(v, 3, t, 1);
	cliCamera c = cliCamera_FromAngles(0.0, 90.0);
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, &c, 1.7, &count);
	ck_assert_int_eq(count, 9);
	double area = 0.0;
	int down = 0;
	for (int64_t n = 0; n < count; ++n) {
		ck_assert_int_eq(order[n].k, 3);
		bcVec3 p[3];
		cliPiece_Corners(mesh, order[n], p);
		bcVec3 normal = bcCross(bcSub(p[1], p[0]), bcSub(p[2], p[0]));
		bcAssertNear(normal.z, 2.0 * 6.0 / 9.0, 1e-12); /* same orientation, area 6/9 */
		area += 0.5 * normal.z;
		down += order[n].down;
		for (int k = 0; k < 3; ++k) {
			/* corners on the grid: x in thirds of 3, y in thirds of 4 */
			bcAssertNear(p[k].x, round(p[k].x), 1e-15);
			bcAssertNear(p[k].y / 4.0 * 3.0, round(p[k].y / 4.0 * 3.0), 1e-15);
		}
	}
	bcAssertNear(area, 6.0, 1e-12);
	ck_assert_int_eq(down, 3);
	free(order);
	/* no cutting asked for: one piece */
	order = cliDepthOrder(mesh, &c, 0.0, &count);
	ck_assert_int_eq(count, 1);
	free(order);
	/* a tiny limit: at most CLI_SVG_MAX_CUTS along an edge */
	order = cliDepthOrder(mesh, &c, 1e-6, &count);
	ck_assert_int_eq(count, CLI_SVG_MAX_CUTS * CLI_SVG_MAX_CUTS);
	free(order);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(cutting_stays_within_its_budget)
{
	/* 2000 big triangles cut 16 x 16 would add 510000 pieces, over the
	 * budget: then nothing is cut. */
	bcGenMesh g = { 0 };
	bcGenSoup(&g, 2000, 10.0, 8.0, 3);
	bcMesh* mesh = bcGenMesh_Build(&g);
	cliCamera c = cliCamera_FromAngles(35.0, 25.0);
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, &c, 1e-3, &count);
	ck_assert_int_eq(count, bcMesh_GetInfo(mesh).triangleCount - bcMesh_GetInfo(mesh).degenerateCount);
	for (int64_t n = 0; n < count; ++n) {
		ck_assert_int_eq(order[n].k, 1);
	}
	free(order);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* ---------------------------------------------------------- outlines */

START_TEST(outlines_follow_creases_and_borders_not_diagonals)
{
	/* A unit square split along its diagonal (0,0)-(1,1): the diagonal is
	 * flat, the four sides are borders. Triangle 0 = (0,1,2): AB and BC are
	 * sides, CA the diagonal; triangle 1 = (0,2,3): AB the diagonal. */
	const double v[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcMesh* square = meshOf(v, 4, t, 2);
	uint8_t* outline = cliOutlineEdges(square);
	ck_assert_int_eq(outline[0], 1 | 2);
	ck_assert_int_eq(outline[1], 2 | 4);
	free(outline);
	bcMesh_Destroy(square);

	/* A closed box of 12 triangles: its 12 edges are 90 degree creases,
	 * each shared by two triangles (24 bits); its 6 diagonals are flat. */
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 1, 1), 1, 0);
	bcMesh* box = bcGenMesh_Build(&g);
	outline = cliOutlineEdges(box);
	int bits = 0;
	for (int32_t i = 0; i < g.triangleCount; ++i) {
		for (int e = 0; e < 3; ++e) {
			bits += (outline[i] >> e) & 1;
		}
	}
	ck_assert_int_eq(bits, 24);
	free(outline);
	bcMesh_Destroy(box);
	bcGenMesh_Free(&g);

	/* A fine sphere: neighbours turn by a few degrees, nothing outlined. */
	bcGenMesh s = { 0 };
	bcGenIcosphere(&s, 3, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcMesh* sphere = bcGenMesh_Build(&s);
	outline = cliOutlineEdges(sphere);
	for (int32_t i = 0; i < s.triangleCount; ++i) {
		ck_assert_int_eq(outline[i], 0);
	}
	free(outline);
	bcMesh_Destroy(sphere);
	bcGenMesh_Free(&s);
}
END_TEST

/* ------------------------------------------------------------- shading */

START_TEST(shading_is_brightest_facing_the_light)
{
	cliCamera c = cliCamera_FromAngles(35.0, 25.0);
	/* the light direction, as documented: (-0.4, 0.5, 0.77) in camera terms */
	bcVec3 light = bcNormalize(bcAdd(bcAdd(bcScale(-0.4, c.right), bcScale(0.5, c.up)), bcScale(0.77, c.toEye)));
	cliColor lit = cliShade(&c, light, cli_facingFront);
	ck_assert_int_eq(lit.r, 214);
	ck_assert_int_eq(lit.g, 206);
	ck_assert_int_eq(lit.b, 188);
	/* turned away from the light: ambient only, 0.35 of the base */
	cliColor dark = cliShade(&c, bcNeg(light), cli_facingFront);
	ck_assert_int_eq(dark.r, 75); /* 214 * 0.35 = 74.9 */
	ck_assert_int_eq(dark.g, 72); /* 206 * 0.35 = 72.1 */
	ck_assert_int_eq(dark.b, 66); /* 188 * 0.35 = 65.8 */
	/* back faces: one flat grey, whatever their normal */
	cliColor back1 = cliShade(&c, light, cli_facingBack);
	cliColor back2 = cliShade(&c, c.right, cli_facingBack);
	ck_assert(memcmp(&back1, &back2, sizeof back1) == 0);
	ck_assert(back1.r == back1.g && back1.g == back1.b);
}
END_TEST

/* --------------------------------------------------------- SVG writing */

START_TEST(coordinates_are_written_in_hundredths)
{
	assertCoord(0.0, "0");
	assertCoord(-0.0, "0");
	assertCoord(-0.004, "0");
	assertCoord(12.5, "12.5");
	assertCoord(12.25, "12.25");
	assertCoord(-3.0, "-3");
	assertCoord(0.07, "0.07");
	assertCoord(-0.07, "-0.07");
	assertCoord(99.999, "100");
	assertCoord(1.005, "1");     /* 1.005 is 1.00499999999999989... */
	assertCoord(800.0, "800");
	assertCoord(123456.78, "123456.78");
	assertCoord(1e300, "1000000000");
	assertCoord(-1e300, "-1000000000");
	assertCoord(NAN, "0");
}
END_TEST

START_TEST(text_is_escaped_and_valid_utf8)
{
	assertText("room.obj", "room.obj");
	assertText("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;");
	assertText("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB1", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB1");
	assertText("bad \xFF byte", "bad ? byte");
	assertText("cut \xC3", "cut ?");
	assertText("overlong \xC0\xAF", "overlong ??");
	assertText("surrogate \xED\xA0\x80", "surrogate ???");
	assertText("bell \a tab \t", "bell ? tab \t");
	assertText("\xEF\xBF\xBE", "???"); /* U+FFFE is not an XML character */
}
END_TEST

START_TEST(segments_are_clipped_to_the_picture)
{
	/* 100 x 100 picture, no margin. A horizontal line from x = -100 to 300
	 * at y = 50 is cut to 0..100. */
	double ax = -100, ay = 50, bx = 300, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	bcAssertNear(ax, 0, 0);
	bcAssertNear(bx, 100, 0);
	bcAssertNear(ay, 50, 0);
	/* a diagonal from (-50, -50) to (150, 150), margin 10: -10..110 */
	ax = -50, ay = -50, bx = 150, by = 150;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 10));
	bcAssertNear(ax, -10, 1e-12);
	bcAssertNear(ay, -10, 1e-12);
	bcAssertNear(bx, 110, 1e-12);
	bcAssertNear(by, 110, 1e-12);
	/* inside: untouched */
	ax = 10, ay = 20, bx = 30, by = 40;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ck_assert(ax == 10 && ay == 20 && bx == 30 && by == 40);
	/* wholly outside, and passing by a corner */
	ax = -10, ay = -10, bx = -5, by = 200;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ax = 90, ay = -20, bx = 120, by = 10;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	/* ends 1e12 px away still clip to the picture, to the precision doubles
	 * have there (an ulp of 1e12 is 1.2e-4) */
	ax = -1e12, ay = 50, bx = 1e12, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	bcAssertNear(ax, 0, 1e-3);
	bcAssertNear(bx, 100, 1e-3);
	/* and ends near the top of the double range do not overflow */
	ax = -1e300, ay = 50, bx = 1e300, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ck_assert(isfinite(ax) && isfinite(bx) && ax >= 0 && bx <= 100);
	ax = INFINITY, ay = 0, bx = 0, by = 0;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
}
END_TEST

START_TEST(elements_are_written_as_documented)
{
	capture c;
	captureOpen(&c);
	cliSvg svg;
	cliSvg_Begin(&svg, c.f, 200, 100, "a -- b");
	cliColor red = { 214, 39, 40 };
	cliScreenPoint a = { 10, 20, 0 }, b = { 30.255, 40, 0 }, far = { 5000, 5000, 0 };
	cliSvg_Line(&svg, "path", a, b, red, 1.5, true);
	cliSvg_Circle(&svg, "contact", a, 5, red, true, 0);
	cliSvg_Circle(&svg, "ball", b, 2, red, false, 1.5);
	cliSvg_Circle(&svg, "gone", far, 5, red, true, 0);  /* off the picture: not drawn */
	cliSvg_Text(&svg, "legend", 16, 17, 13, red, "x<y");
	cliSvg_End(&svg);
	char* text = captureClose(&c);
	const char* expected =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<!-- a -  b -->\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"200\" height=\"100\" viewBox=\"0 0 200 "
		"100\" font-family=\"sans-serif\">\n"
		"<rect width=\"200\" height=\"100\" fill=\"#ffffff\"/>\n"
		"<line class=\"path\" x1=\"10\" y1=\"20\" x2=\"30.26\" y2=\"40\" stroke=\"#d62728\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"6 4\"/>\n"
		"<circle class=\"contact\" cx=\"10\" cy=\"20\" r=\"5\" fill=\"#d62728\"/>\n"
		"<circle class=\"ball\" cx=\"30.26\" cy=\"40\" r=\"2\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n"
		"<text class=\"legend\" x=\"16\" y=\"17\" font-size=\"13\" fill=\"#d62728\">x&lt;y</text>\n"
		"</svg>\n";
	ck_assert_msg(strcmp(text, expected) == 0, "got:\n%s", text);
	free(text);
}
END_TEST

static Suite* svgSuite(void)
{
	Suite* s = suite_create("svg");
	TCase* camera = tcase_create("camera");
	tcase_add_test(camera, front_view_projects_hand_computed_pixels);
	tcase_add_test(camera, oblique_view_projects_hand_computed_pixels);
	tcase_add_test(camera, multiples_of_ninety_degrees_give_exact_axes);
	tcase_add_test(camera, cameras_are_right_handed_orthonormal);
	tcase_add_test(camera, eye_direction_agrees_with_angles);
	tcase_add_test(camera, framing_fits_the_box_and_touches_the_viewport);
	tcase_add_test(camera, a_box_that_projects_to_a_point_gets_scale_one);
	tcase_add_test(camera, back_faces_point_away_from_the_eye);
	tcase_add_test(camera, turning_up_maps_the_frame_onto_the_up_axis);
	tcase_add_test(camera, the_up_axis_is_guessed_from_the_base);
	tcase_add_test(camera, each_scan_is_drawn_upright);
	suite_add_tcase(s, camera);
	TCase* order = tcase_create("order");
	tcase_add_test(order, painter_order_is_back_to_front_by_centroid);
	tcase_add_test(order, painter_order_sorts_every_piece_by_its_centroid_depth);
	tcase_add_test(order, cut_pieces_tile_their_triangle);
	tcase_add_test(order, cutting_stays_within_its_budget);
	tcase_add_test(order, outlines_follow_creases_and_borders_not_diagonals);
	suite_add_tcase(s, order);
	TCase* writing = tcase_create("writing");
	tcase_add_test(writing, shading_is_brightest_facing_the_light);
	tcase_add_test(writing, coordinates_are_written_in_hundredths);
	tcase_add_test(writing, text_is_escaped_and_valid_utf8);
	tcase_add_test(writing, segments_are_clipped_to_the_picture);
	tcase_add_test(writing, elements_are_written_as_documented);
	tcase_add_test(writing, culling_clusters_small_triangles_and_keeps_big_ones);
	suite_add_tcase(s, writing);
	return s;
}

int main(void)
{
	return bcRunSuite(svgSuite());
}
