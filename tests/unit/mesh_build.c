/* mesh_build.c - unit tests of the one place a mesh is built from polygons
 * (lib/mesh_build.c): fans, polygons cut again once the vertices are
 * known (as an OBJ face is), warnings at their place, face ids; and the
 * text scanner the STL, PLY and OFF readers share. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "mesh_build.h"

START_TEST(builderCutsAsObj)
{
	/* a concave pentagon, a bow tie (self-intersecting: a warning), a triangle */
	const bcVec3 vertices[] = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 4, 0 }, { 2, 1, 0 }, { 0, 4, 0 }, { 4, 4, 1 } };
	bcMeshBuilder builder;
	memset(&builder, 0, sizeof builder);
	for (int i = 0; i < 6; ++i) {
		ck_assert(bcMeshBuilder_AddVertex(&builder, vertices[i]));
	}
	const int32_t pentagon[] = { 0, 1, 2, 3, 4 };
	const int32_t bowTie[] = { 0, 2, 1, 4 };
	const int32_t triangle[] = { 1, 2, 5 };
	ck_assert(bcMeshBuilder_AddPolygon(&builder, pentagon, 5, 3, 1, 0));
	ck_assert(bcMeshBuilder_AddPolygon(&builder, bowTie, 4, 0, 0, 77));
	ck_assert(bcMeshBuilder_AddPolygon(&builder, triangle, 3, 9, 2, 0));
	bcError error = { 0 };
	bcMesh* mesh = bcMeshBuilder_Finish(&builder, bc_meshPly, 1, "empty", &error);
	ck_assert_ptr_nonnull(mesh);
	const char* obj = "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 2 1 0\nv 0 4 0\nv 4 4 1\nf 1 2 3 4 5\nf 1 3 2 5\nf 2 3 6\n";
	bcMesh* reference = bcMesh_ParseObj(obj, strlen(obj), NULL, NULL);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).triangleCount, 6);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).faceCount, 3);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).format, bc_meshPly);
	for (int32_t i = 0; i < 6; ++i) {
		bcTriangle a = bcMesh_GetTriangle(mesh, i), b = bcMesh_GetTriangle(reference, i);
		ck_assert(memcmp(a.vertices, b.vertices, sizeof a.vertices) == 0);
		ck_assert_int_eq(a.face, b.face);
	}
	ck_assert_int_eq(bcMesh_GetWarningCount(mesh), 1);
	bcWarning w = bcMesh_GetWarning(mesh, 0);
	ck_assert_int_eq(w.code, bc_warningSelfIntersecting);
	ck_assert_int_eq(w.byte, 77);
	ck_assert_int_eq(w.record, 1);
	bcMesh_Destroy(mesh);
	bcMesh_Destroy(reference);
	memset(&builder, 0, sizeof builder);
	ck_assert_ptr_null(bcMeshBuilder_Finish(&builder, bc_meshOff, 1, "no faces here", &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	ck_assert_str_eq(error.message, "no faces here");
}
END_TEST

START_TEST(textScanner)
{
	const char* text = "\xEF\xBB\xBF" "OFF # c\n\n  12 x7 1e400\n";
	bcTextScanner s;
	bcTextScanner_Start(&s, text, strlen(text), true);
	ck_assert(bcTextScanner_Word(&s, "off"));
	ck_assert(!bcTextScanner_OnLine(&s));
	ck_assert(bcTextScanner_Skip(&s));
	ck_assert_int_eq(s.line, 3);
	long long count;
	bcError error = { 0 };
	ck_assert(bcTextScanner_Count(&s, "a count", 100, &count, &error));
	ck_assert_int_eq(count, 12);
	ck_assert(bcTextScanner_OnLine(&s));
	double value;
	ck_assert(!bcTextScanner_Number(&s, "x", &value, &error));
	ck_assert_str_eq(error.message, "expected x, found 'x7'");
	ck_assert_int_eq(error.column, 6);
	s.p += 2;
	ck_assert(bcTextScanner_OnLine(&s));
	ck_assert(!bcTextScanner_Number(&s, "y", &value, &error));
	ck_assert_str_eq(error.message, "y is not finite: '1e400'");
	ck_assert(!bcTextScanner_Count(&s, "n", 5, &count, &error));
}
END_TEST

static Suite* meshBuildSuite(void)
{
	Suite* suite = suite_create("mesh_build");
	TCase* build = tcase_create("build");
	tcase_add_test(build, builderCutsAsObj);
	tcase_add_test(build, textScanner);
	suite_add_tcase(suite, build);
	return suite;
}

int main(void)
{
	return bcRunSuite(meshBuildSuite());
}
