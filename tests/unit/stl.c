/* stl.c - unit tests of the STL reader (lib/stl.c through bcMesh_Parse):
 * binary and ASCII give the same mesh, bit-identical corners merge (and
 * only those), stored normals are checked, never used. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "ballcast.h"
#include "harness.h"

/* A binary STL of count triangles (corners[9 * i ..], normals[3 * i ..]),
 * little-endian, into out (84 + 50 count bytes). */
static size_t writeBinary(unsigned char* out, const float* corners, const float* normals, uint32_t count)
{
	memset(out, ' ', 80);
	memcpy(out, "solid but binary", 16); /* exporters write this: the size decides */
	for (int k = 0; k < 4; ++k) {
		out[80 + k] = (unsigned char)(count >> (8 * k));
	}
	for (uint32_t i = 0; i < count; ++i) {
		unsigned char* t = out + 84 + 50 * i;
		float values[12];
		memcpy(values, normals + 3 * i, 3 * sizeof(float));
		memcpy(values + 3, corners + 9 * i, 9 * sizeof(float));
		for (int v = 0; v < 12; ++v) {
			uint32_t bits;
			memcpy(&bits, values + v, sizeof bits);
			for (int k = 0; k < 4; ++k) {
				t[4 * v + k] = (unsigned char)(bits >> (8 * k));
			}
		}
		t[48] = t[49] = 0;
	}
	return 84 + 50 * (size_t)count;
}

/* Two triangles sharing the edge (1,0,0)-(0,1,0): 4 vertices once merged.
 * 0.1f is not 0.1: the corners keep the float's bits. */
static const float squareCorners[18] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0.1f, 0, 1, 0 };

START_TEST(binaryMergesSharedCorners)
{
	const float normals[6] = { 0, 0, 1, 0, 0, 0 };
	unsigned char data[84 + 100];
	size_t size = writeBinary(data, squareCorners, normals, 2);
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_Parse(data, size, bc_meshAuto, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	ck_assert_int_eq(info.format, bc_meshStl);
	ck_assert_int_eq(info.vertexCount, 4);
	ck_assert_int_eq(info.triangleCount, 2);
	ck_assert_int_eq(info.faceCount, 2);
	ck_assert_int_eq(info.mergedCorners, 2);
	bcTriangle t = bcMesh_GetTriangle(mesh, 1);
	ck_assert_int_eq(t.vertices[0], 1);
	ck_assert_int_eq(t.vertices[1], 3);
	ck_assert_int_eq(t.vertices[2], 2);
	ck_assert_int_eq(t.face, 1);
	ck_assert(bcMesh_GetVertex(mesh, 3).z == (double)0.1f);
	ck_assert(bcMesh_GetVertex(mesh, 3).z != 0.1);
	ck_assert(bcMesh_IsClosed(mesh) == false);
	ck_assert_int_eq(bcMesh_GetWarningCount(mesh), 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(negativeZeroIsNotMerged)
{
	float corners[18];
	memcpy(corners, squareCorners, sizeof corners);
	corners[11] = -0.0f; /* the second triangle's (1,0,0) becomes (1,0,-0) */
	const float normals[6] = { 0 };
	unsigned char data[84 + 100];
	size_t size = writeBinary(data, corners, normals, 2);
	bcMesh* mesh = bcMesh_Parse(data, size, bc_meshStl, NULL, NULL);
	ck_assert_ptr_nonnull(mesh);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).vertexCount, 5);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(asciiEqualsBinary)
{
	const char* text = "solid square\n"
					   " facet normal 0 0 -1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n"
					   "  endloop\n endfacet\n"
					   " FACET NORMAL 0 0 0\n  OUTER LOOP\n   VERTEX 1 0 0\n   VERTEX 1 1 0.100000001490116119384765625\n"
					   "   VERTEX 0 1 0\n  ENDLOOP\n ENDFACET\nendsolid square\n";
	bcError error = { 0 };
	bcMesh* ascii = bcMesh_Parse(text, strlen(text), bc_meshAuto, NULL, &error);
	ck_assert_msg(ascii != NULL, "%ld:%ld %s", error.line, error.column, error.message);
	const float normals[6] = { 0 };
	unsigned char data[84 + 100];
	size_t size = writeBinary(data, squareCorners, normals, 2);
	bcMesh* binary = bcMesh_Parse(data, size, bc_meshStl, NULL, NULL);
	ck_assert_int_eq(bcMesh_GetInfo(ascii).vertexCount, 4);
	for (int32_t i = 0; i < 4; ++i) {
		bcVec3 a = bcMesh_GetVertex(ascii, i), b = bcMesh_GetVertex(binary, i);
		ck_assert(memcmp(&a, &b, sizeof a) == 0);
	}
	/* facet 0's normal (0,0,-1) points against its winding's (0,0,1) */
	ck_assert_int_eq(bcMesh_GetWarningCount(ascii), 1);
	bcWarning w = bcMesh_GetWarning(ascii, 0);
	ck_assert_int_eq(w.code, bc_warningFacetNormal);
	ck_assert_int_eq(w.line, 2);
	ck_assert_int_eq(w.column, 2);
	ck_assert_int_eq(w.record, 0);
	/* the normal is not used: the triangle's is the winding's */
	ck_assert(bcMesh_GetTriangle(ascii, 0).normal.z == 1.0);
	bcMesh_Destroy(ascii);
	bcMesh_Destroy(binary);
}
END_TEST

START_TEST(polygonFacet)
{
	/* a facet of 5 vertices, concave: cut by ear clipping as an OBJ face */
	const char* text = "solid p\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 4 0 0\nvertex 4 4 0\n"
					   "vertex 2 1 0\nvertex 0 4 0\nendloop\nendfacet\nendsolid\n";
	const char* obj = "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 2 1 0\nv 0 4 0\nf 1 2 3 4 5\n";
	bcMesh* stl = bcMesh_Parse(text, strlen(text), bc_meshStl, NULL, NULL);
	bcMesh* reference = bcMesh_ParseObj(obj, strlen(obj), NULL, NULL);
	ck_assert_ptr_nonnull(stl);
	ck_assert_int_eq(bcMesh_GetInfo(stl).triangleCount, 3);
	for (int32_t i = 0; i < 3; ++i) {
		bcTriangle a = bcMesh_GetTriangle(stl, i), b = bcMesh_GetTriangle(reference, i);
		ck_assert(memcmp(a.vertices, b.vertices, sizeof a.vertices) == 0);
		ck_assert_int_eq(a.face, 0);
	}
	bcMesh_Destroy(stl);
	bcMesh_Destroy(reference);
}
END_TEST

START_TEST(errors)
{
	bcError error = { 0 };
	const float normals[3] = { 0 };
	unsigned char data[84 + 50];
	size_t size = writeBinary(data, squareCorners, normals, 1);
	ck_assert_ptr_null(bcMesh_Parse(data, size - 1, bc_meshStl, NULL, &error));
	/* headed "solid" but not binary by its size: ASCII, whose first NUL
	 * (the count's second byte) is refused */
	ck_assert_int_eq(error.code, bc_errorFormat);
	ck_assert_int_eq(error.byte, 82);
	ck_assert_int_eq(error.line, 0);
	ck_assert_str_eq(error.message, "binary data (NUL bytes) in an ASCII STL, and not a binary STL: the size is not "
									"84 + 50 bytes per triangle");
	data[0] = 'x'; /* not "solid": binary, whose count lies */
	ck_assert_ptr_null(bcMesh_Parse(data, size - 1, bc_meshStl, NULL, &error));
	ck_assert_int_eq(error.byte, 81);
	ck_assert_str_eq(error.message, "a binary STL whose header counts 1 triangles has 134 bytes, but the file has 133 "
									"(truncated, or a wrong count)");
	float nan[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	nan[4] = __builtin_nanf("");
	size = writeBinary(data, nan, normals, 1);
	ck_assert_ptr_null(bcMesh_Parse(data, size, bc_meshStl, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert_int_eq(error.byte, 84 + 12 + 12 + 4 + 1);
	const char* cut = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0";
	ck_assert_ptr_null(bcMesh_Parse(cut, strlen(cut), bc_meshStl, NULL, &error));
	ck_assert_int_eq(error.line, 4);
	ck_assert_int_eq(error.column, 11);
	ck_assert_str_eq(error.message, "expected vertex z, found the end of the input");
}
END_TEST

static Suite* stlSuite(void)
{
	Suite* suite = suite_create("stl");
	TCase* reader = tcase_create("reader");
	tcase_add_test(reader, binaryMergesSharedCorners);
	tcase_add_test(reader, negativeZeroIsNotMerged);
	tcase_add_test(reader, asciiEqualsBinary);
	tcase_add_test(reader, polygonFacet);
	tcase_add_test(reader, errors);
	suite_add_tcase(suite, reader);
	return suite;
}

int main(void)
{
	return bcRunSuite(stlSuite());
}
