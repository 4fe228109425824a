/* render_draw.c tests: the title band's height, which marks the key
 * explains and the rows it takes (hand-computed), and a whole picture's
 * throws, label, key and title. */
#include <string.h>

#include "harness.h"
#include "render_draw.h"

static cliDrawnThrow hit(char* id, double radius)
{
	cliDrawnThrow t;
	memset(&t, 0, sizeof t);
	t.id = id;
	t.state = cli_throwHit;
	t.hasPath = true;
	t.p0 = bcMakeVec3(0.25, 0.25, 2.0);
	t.p1 = bcMakeVec3(0.25, 0.25, -1.0);
	t.alpha = 0.5;
	t.point = bcMakeVec3(0.25, 0.25, 0.0);
	t.center = bcMakeVec3(0.25, 0.25, radius);
	t.normal = bcMakeVec3(0.0, 0.0, 1.0);
	t.radius = radius;
	t.partner = -1;
	return t;
}

static cliDrawnThrow miss(char* id)
{
	cliDrawnThrow t = hit(id, 0.0);
	t.state = cli_throwMiss;
	return t;
}

START_TEST(the_title_band_holds_one_line_or_two)
{
	cliPicture plain = { "m.obj", NULL, 800, 600, cli_upZ, true, 0.0 };
	cliPicture comparing = { "m.obj", "e.json", 800, 600, cli_upZ, true, 0.0 };
	bcAssertNear(cliPicture_TitleHeight(&plain), 22.0, 0.0);     /* 18 + 4 */
	bcAssertNear(cliPicture_TitleHeight(&comparing), 40.0, 0.0); /* 2 * 18 + 4 */
}
END_TEST

START_TEST(the_key_explains_only_the_marks_drawn)
{
	cliDrawnThrow items[2] = { hit("a", 0.5), miss("b") };
	cliDrawnThrowList actual = { items, 2, 2, 0 };
	cliDrawnThrowList none = { NULL, 0, 0, 0 };
	cliPicture picture = { "m.obj", NULL, 800, 600, cli_upZ, true, 0.0 };
	cliKeyMarks key = cliKeyMarks_Make(&picture, &actual, &none);
	ck_assert_str_eq(key.caption, "up: +z");
	ck_assert(key.shown[cli_keyPath] && key.shown[cli_keyBall] && key.shown[cli_keyContact]);
	ck_assert(key.shown[cli_keyNormal] && key.shown[cli_keyMiss]);
	ck_assert(!key.shown[cli_keyDiffers] && !key.shown[cli_keyExpected]);
	ck_assert_int_eq(key.rows, 1);
	bcAssertNear(cliKeyMarks_Height(&key), 20.0, 0.0); /* 16 + 4 */

	/* a point ball draws no ball; compared, a differing hit draws no plain contact */
	items[0] = hit("a", 0.0);
	items[0].differs = true;
	cliDrawnThrowList one = { items, 1, 1, 0 };
	cliPicture comparing = { "m.obj", "e.json", 800, 600, cli_upY, false, 0.0 };
	key = cliKeyMarks_Make(&comparing, &one, &none);
	ck_assert_str_eq(key.caption, "up: +y (guessed)");
	ck_assert(key.shown[cli_keyPath] && key.shown[cli_keyNormal]);
	ck_assert(!key.shown[cli_keyBall] && !key.shown[cli_keyContact] && !key.shown[cli_keyMiss]);
	ck_assert(key.shown[cli_keyDiffers] && key.shown[cli_keyExpected]);
}
END_TEST

START_TEST(a_narrow_key_takes_a_row_an_entry)
{
	cliDrawnThrow items[2] = { hit("a", 0.5), miss("b") };
	cliDrawnThrowList actual = { items, 2, 2, 0 };
	cliDrawnThrowList none = { NULL, 0, 0, 0 };
	/* 64 px wide: the row ends at 48; after the caption (16 + 42.9 + 14) no entry fits beside anything, so
	   each of the five takes a row of its own below the caption's */
	cliPicture picture = { "m.obj", NULL, 64, 600, cli_upZ, true, 0.0 };
	cliKeyMarks key = cliKeyMarks_Make(&picture, &actual, &none);
	ck_assert_int_eq(key.rows, 6);
	bcAssertNear(cliKeyMarks_Height(&key), 100.0, 0.0); /* 6 * 16 + 4 */
}
END_TEST

START_TEST(a_picture_holds_the_throw_its_label_the_key_and_the_title)
{
	const double v[9] = { -1, -1, 0, 2, -1, 0, -1, 2, 0 };
	const int32_t t[3] = { 0, 1, 2 };
	bcMeshDef def = { v, 3, t, 1, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert_ptr_nonnull(mesh);
	cliDrawnThrow items[1] = { hit("drop-on-floor", 0.25) };
	cliDrawnThrowList actual = { items, 1, 1, 0 };
	cliDrawnThrowList none = { NULL, 0, 0, 0 };
	cliPicture picture = { "m.obj", NULL, 400, 300, cli_upZ, true, 0.0 };
	cliKeyMarks key = cliKeyMarks_Make(&picture, &actual, &none);
	cliCamera camera = cliCamera_FromAngles(35.0, 25.0);
	cliCamera_TurnUp(&camera, cli_upZ);
	cliViewport viewport = { 16.0, 38.0, 384.0, 300.0 - 16.0 - cliKeyMarks_Height(&key) };
	cliCamera_Frame(&camera, bcMakeVec3(-1, -1, -1), bcMakeVec3(2, 2, 2), viewport);
	char* text = NULL;
	size_t length = 0;
	FILE* f = open_memstream(&text, &length);
	ck_assert_ptr_nonnull(f);
	ck_assert(cliWritePicture(f, &picture, mesh, &camera, &actual, &none, 0, &key));
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "<g class=\"throw\""));
	ck_assert_ptr_nonnull(strstr(text, "<circle class=\"ball\""));
	ck_assert_ptr_nonnull(strstr(text, "<circle class=\"contact\""));
	ck_assert_ptr_nonnull(strstr(text, "class=\"label\""));
	ck_assert_ptr_nonnull(strstr(text, ">drop-on-floor</text>"));
	ck_assert_ptr_nonnull(strstr(text, ">up: +z</text>"));
	ck_assert_ptr_nonnull(strstr(text, ">ball at contact</text>"));
	ck_assert_ptr_null(strstr(text, ">miss</text>"));
	ck_assert_ptr_nonnull(strstr(text, ">m.obj: 1 triangle; 1 throw: 1 hit, 0 misses, 0 errors</text>"));
	ck_assert(length > 7 && strcmp(text + length - 7, "</svg>\n") == 0);
	free(text);
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* renderDrawSuite(void)
{
	Suite* s = suite_create("render_draw");
	TCase* key = tcase_create("key");
	tcase_add_test(key, the_title_band_holds_one_line_or_two);
	tcase_add_test(key, the_key_explains_only_the_marks_drawn);
	tcase_add_test(key, a_narrow_key_takes_a_row_an_entry);
	suite_add_tcase(s, key);
	TCase* picture = tcase_create("picture");
	tcase_add_test(picture, a_picture_holds_the_throw_its_label_the_key_and_the_title);
	suite_add_tcase(s, picture);
	return s;
}

int main(void)
{
	return bcRunSuite(renderDrawSuite());
}
