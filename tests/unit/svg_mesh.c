/* svg_mesh.c tests: the painter's order (against depths computed here),
 * cutting into pieces, outline edges, shading, and culling to a grid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "harness.h"
#include "meshgen.h"
#include "svg.h"
#include "svg_mesh.h"
#include "vec3.h"

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

/* --------------------------------------------------------- depth order */

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
	/* by centroid depth, computed here, but where the plane tests order two
	 * overlapping pieces the other way (the next test) */
	long later = 0;
	double previous = -INFINITY;
	for (int64_t n = 0; n < count; ++n) {
		bcVec3 corners[3];
		cliPieceCorners(mesh, order[n], corners);
		bcVec3 centroid = bcScale(1.0 / 3.0, bcAdd(bcAdd(corners[0], corners[1]), corners[2]));
		double depth = bcDot(bcSub(centroid, c.target), c.toEye);
		later += depth < previous;
		previous = depth > previous ? depth : previous;
		ck_assert_int_le(order[n].k, CLI_SVG_MAX_CUTS);
	}
	ck_assert_msg(later < count / 20, "%ld of %ld pieces out of centroid order", later, (long)count);
	free(order);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* Where the screen point (x, y) meets the plane of a piece: its depth
 * along toEye, by intersecting the view ray with the plane (computed here,
 * not by the order's plane tests). */
static double depthAt(const cliCamera* c, const bcVec3 corners[3], double x, double y)
{
	bcVec3 onScreen = bcAdd(c->target, bcAdd(bcScale((x - c->originX) / c->scale, c->right),
											  bcScale((c->originY - y) / c->scale, c->up)));
	bcVec3 n = bcCross(bcSub(corners[1], corners[0]), bcSub(corners[2], corners[0]));
	return bcDot(n, bcSub(corners[0], onScreen)) / bcDot(n, c->toEye);
}

/* Is (x, y) inside the screen triangle p, by a margin of a thousandth of a
 * pixel (a shared edge is inside neither)? */
static bool strictlyInside(const cliScreenPoint p[3], double x, double y)
{
	double area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x);
	if (area == 0.0) {
		return false;
	}
	for (int e = 0; e < 3; ++e) {
		const cliScreenPoint* a = p + e;
		const cliScreenPoint* b = p + (e + 1) % 3;
		double cross = (b->x - a->x) * (y - a->y) - (b->y - a->y) * (x - a->x);
		/* the distance inside the edge, in pixels */
		if ((area > 0.0 ? cross : -cross) <= 1e-3 * hypot(b->x - a->x, b->y - a->y)) {
			return false;
		}
	}
	return true;
}

START_TEST(painter_order_never_paints_a_piece_over_a_nearer_one)
{
	/* The sample room in render's default view: for every two front faces'
	 * pieces that cover a common point of the screen (sampled inside each
	 * piece), the one painted later is the nearer there, by depths computed
	 * here. Issue 26: by centroids alone, pieces of the floor reaching under
	 * the crate were painted over the bottom of its side. */
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj("samples/room.obj", NULL, &error);
	ck_assert_ptr_nonnull(mesh);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCamera c = cliCamera_FromAngles(35.0, 25.0);
	cliViewport viewport = { 0, 0, 800, 600 };
	cliCamera_Frame(&c, info.lowerBound, info.upperBound, viewport);
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, &c, bcDistance(info.lowerBound, info.upperBound) / 16.0, &count);
	ck_assert_ptr_nonnull(order);
	bcVec3(*corners)[3] = malloc((size_t)count * sizeof *corners);
	cliScreenPoint(*screen)[3] = malloc((size_t)count * sizeof *screen);
	bool* front = malloc((size_t)count * sizeof *front);
	ck_assert(corners != NULL && screen != NULL && front != NULL);
	for (int64_t n = 0; n < count; ++n) {
		cliPieceCorners(mesh, order[n], corners[n]);
		for (int k = 0; k < 3; ++k) {
			screen[n][k] = cliCamera_Project(&c, corners[n][k]);
		}
		front[n] = cliCamera_Facing(&c, bcMesh_GetTriangle(mesh, order[n].triangle).normal) == cli_facingFront;
	}
	/* samples: barycentric weights inside a piece */
	const double weights[][3] = { { 1.0 / 3, 1.0 / 3, 1.0 / 3 }, { 0.8, 0.1, 0.1 }, { 0.1, 0.8, 0.1 },
								  { 0.1, 0.1, 0.8 },			 { 0.45, 0.45, 0.1 }, { 0.1, 0.45, 0.45 },
								  { 0.45, 0.1, 0.45 } };
	long shared = 0;
	for (int64_t j = 0; j < count; ++j) {
		for (size_t w = 0; front[j] && w < sizeof weights / sizeof weights[0]; ++w) {
			double x = weights[w][0] * screen[j][0].x + weights[w][1] * screen[j][1].x + weights[w][2] * screen[j][2].x;
			double y = weights[w][0] * screen[j][0].y + weights[w][1] * screen[j][1].y + weights[w][2] * screen[j][2].y;
			for (int64_t i = 0; i < count; ++i) {
				if (i == j || !front[i] || order[i].triangle == order[j].triangle || !strictlyInside(screen[i], x, y)) {
					continue;
				}
				shared += 1;
				double mine = depthAt(&c, corners[j], x, y), theirs = depthAt(&c, corners[i], x, y);
				bool jLater = j > i;
				double nearer = jLater ? mine - theirs : theirs - mine;
				ck_assert_msg(nearer >= -1e-9, "pieces %ld (triangle %d) and %ld (triangle %d) at (%g, %g): the one painted later is %g farther",
							  (long)i, order[i].triangle, (long)j, order[j].triangle, x, y, -nearer);
			}
		}
	}
	ck_assert_int_gt(shared, 1000);
	free(corners);
	free(screen);
	free(front);
	free(order);
	bcMesh_Destroy(mesh);
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
		cliPieceCorners(mesh, order[n], p);
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

/* ------------------------------------------------------------- culling */

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

static Suite* svgMeshSuite(void)
{
	Suite* s = suite_create("svg_mesh");
	TCase* order = tcase_create("order");
	tcase_add_test(order, painter_order_is_back_to_front_by_centroid);
	tcase_add_test(order, painter_order_sorts_every_piece_by_its_centroid_depth);
	tcase_add_test(order, painter_order_never_paints_a_piece_over_a_nearer_one);
	tcase_add_test(order, cut_pieces_tile_their_triangle);
	tcase_add_test(order, cutting_stays_within_its_budget);
	tcase_add_test(order, outlines_follow_creases_and_borders_not_diagonals);
	suite_add_tcase(s, order);
	TCase* drawing = tcase_create("drawing");
	tcase_add_test(drawing, shading_is_brightest_facing_the_light);
	tcase_add_test(drawing, culling_clusters_small_triangles_and_keeps_big_ones);
	suite_add_tcase(s, drawing);
	return s;
}

int main(void)
{
	return bcRunSuite(svgMeshSuite());
}
