/* sniff.c tests: which first lines look like an OBJ file's, and the
 * message a records reader gives then (issue 26). */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "sniff.h"

START_TEST(obj_first_lines)
{
	/* what OBJ writers put first: comments, vertices, objects, materials */
	const char* obj[] = { "# Blender v2.93.1 OBJ File: ''", "#", "v 0 0 0", "v\t1 2 3", "  vn 0 0 1", "vt 0.5 0.5",
						  "o Cube", "g group", "s off", "mtllib room.mtl", "usemtl stone", "f 1 2 3" };
	for (size_t k = 0; k < sizeof obj / sizeof obj[0]; ++k) {
		ck_assert_msg(cliLooksLikeObj(obj[k]), "'%s'", obj[k]);
	}
	/* CSV header cells and other first lines: a keyword must be followed
	 * by a blank and its values */
	const char* other[] = { "id", "x0", "v", "vertex 1 2 3", "", "   ", "[{\"id\": 1}]", "{\"p0\": [0, 0, 0]}",
							"r", "p0", "fx 1 2" };
	for (size_t k = 0; k < sizeof other / sizeof other[0]; ++k) {
		ck_assert_msg(!cliLooksLikeObj(other[k]), "'%s'", other[k]);
	}
}
END_TEST

START_TEST(message_replaced_only_for_obj)
{
	char message[256] = "no known column in the CSV header";
	cliNameObjAsRecords("a", message, sizeof message);
	ck_assert_str_eq(message, "no known column in the CSV header");
	cliNameObjAsRecords(NULL, message, sizeof message);
	ck_assert_str_eq(message, "no known column in the CSV header");
	cliNameObjAsRecords("v 0 0 0", message, sizeof message);
	ck_assert_str_eq(message, "this is an OBJ mesh, not trajectories or balls: those come after the mesh, as JSON, "
							  "NDJSON or CSV (is the mesh given twice, or are the arguments swapped?)");
	/* cut to the room given, never past it */
	char small[8];
	cliNameObjAsRecords("# mesh", small, sizeof small);
	ck_assert_str_eq(small, "this is");
}
END_TEST

static Suite* sniffSuite(void)
{
	Suite* s = suite_create("sniff");
	TCase* tc = tcase_create("sniff");
	tcase_add_test(tc, obj_first_lines);
	tcase_add_test(tc, message_replaced_only_for_obj);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(sniffSuite());
}
