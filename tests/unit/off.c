/* off.c - unit tests of the OFF reader (lib/off.c through bcMesh_Parse):
 * polygons cut as OBJ faces, colour columns ignored, comments, lying
 * counts refused at their place. */
#include <check.h>
#include <string.h>

#include "ballcast.h"
#include "harness.h"

START_TEST(polygonsAndColours)
{
	const char* off = "COFF 5 2 0 # counts on the keyword's line\n"
					  "# a comment line\n"
					  "0 0 0 255 0 0 255\n4 0 0 0 255 0 255\n4 4 0\n2 1 0\n0 4 0\n"
					  "5 0 1 2 3 4 0.5 0.5 0.5 1\n"
					  "3 0 1 2\n";
	const char* obj = "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 2 1 0\nv 0 4 0\nf 1 2 3 4 5\nf 1 2 3\n";
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_Parse(off, strlen(off), bc_meshAuto, NULL, &error);
	ck_assert_msg(mesh != NULL, "%ld:%ld %s", error.line, error.column, error.message);
	bcMesh* reference = bcMesh_ParseObj(obj, strlen(obj), NULL, NULL);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	ck_assert_int_eq(info.format, bc_meshOff);
	ck_assert_int_eq(info.triangleCount, 4);
	ck_assert_int_eq(info.faceCount, 2);
	for (int32_t i = 0; i < 4; ++i) {
		bcTriangle a = bcMesh_GetTriangle(mesh, i), b = bcMesh_GetTriangle(reference, i);
		ck_assert(memcmp(a.vertices, b.vertices, sizeof a.vertices) == 0);
		ck_assert_int_eq(a.face, b.face);
	}
	bcMesh_Destroy(mesh);
	bcMesh_Destroy(reference);
}
END_TEST

START_TEST(errors)
{
	bcError error = { 0 };
	const char* cases[][2] = {
		{ "OFF\n3 1 0\n0 0 0\n1 0 0\n", "expected vertex 2 of 3, found the end of the input" },
		{ "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n",
		  "vertex index 3 out of range: the file has 3 vertices (indices from 0)" },
		{ "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n",
		  "data after the 1 faces the header counts: '3' (a wrong count?)" },
		{ "OFF\n3 1 0\n0 0 0\n1 inf 0\n0 1 0\n3 0 1 2\n", "vertex 1's y is not finite: 'inf'" },
		{ "OFF\n3 1 0\n0 0 0\n1 0\n0 1 0\n3 0 1 2\n", "expected vertex 1's z, found the end of the line" },
		{ "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", "expected face 0's vertex index 2 of 3, found '-1'" },
		{ "OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n", "no faces: the OFF file has 3 vertices and 0 faces" },
	};
	const long places[][2] = { { 5, 1 }, { 6, 7 }, { 7, 1 }, { 4, 3 }, { 4, 4 }, { 6, 5 }, { 0, 0 } };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		memset(&error, 0, sizeof error);
		ck_assert_ptr_null(bcMesh_Parse(cases[i][0], strlen(cases[i][0]), bc_meshOff, NULL, &error));
		ck_assert_str_eq(error.message, cases[i][1]);
		ck_assert_int_eq(error.line, places[i][0]);
		ck_assert_int_eq(error.column, places[i][1]);
	}
}
END_TEST

static Suite* offSuite(void)
{
	Suite* suite = suite_create("off");
	TCase* reader = tcase_create("reader");
	tcase_add_test(reader, polygonsAndColours);
	tcase_add_test(reader, errors);
	suite_add_tcase(suite, reader);
	return suite;
}

int main(void)
{
	return bcRunSuite(offSuite());
}
