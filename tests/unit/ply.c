/* ply.c - unit tests of the PLY reader (lib/ply.c through bcMesh_Parse):
 * ASCII and binary of both byte orders give the same mesh, float32 and
 * float64 keep every bit, other properties and elements are skipped,
 * polygons are cut as OBJ faces, bad input is refused at its place. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "ballcast.h"
#include "harness.h"

/* A binary PLY of the unit square's two halves as one quadrilateral and a
 * triangle above it, float64 x y z with a uchar colour between, an edge
 * element after the faces; big is the byte order. */
static size_t writeBinary(unsigned char* out, bool big)
{
	const char* header = big ? "ply\nformat binary_big_endian 1.0\n" : "ply\nformat binary_little_endian 1.0\n";
	size_t n = strlen(header);
	memcpy(out, header, n);
	const char* rest = "comment made by hand\nelement vertex 5\nproperty double x\nproperty uchar red\n"
					   "property double y\nproperty double z\nelement face 2\n"
					   "property list uchar uint vertex_indices\nelement edge 1\nproperty int a\nproperty int b\n"
					   "end_header\n";
	memcpy(out + n, rest, strlen(rest));
	n += strlen(rest);
	const double xyz[5][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 }, { 0.1, 0.1, 1 } };
	for (int v = 0; v < 5; ++v) {
		for (int k = 0; k < 3; ++k) {
			uint64_t bits;
			memcpy(&bits, &xyz[v][k], sizeof bits);
			for (int b = 0; b < 8; ++b) {
				out[n + (size_t)b] = (unsigned char)(bits >> (big ? 8 * (7 - b) : 8 * b));
			}
			n += 8;
			if (k == 0) {
				out[n++] = 200; /* red, skipped */
			}
		}
	}
	const uint32_t faces[2][5] = { { 4, 0, 1, 2, 3 }, { 3, 0, 1, 4, 0 } };
	for (int f = 0; f < 2; ++f) {
		out[n++] = (unsigned char)faces[f][0];
		for (uint32_t i = 1; i <= faces[f][0]; ++i) {
			for (int b = 0; b < 4; ++b) {
				out[n + (size_t)b] = (unsigned char)(faces[f][i] >> (big ? 8 * (3 - b) : 8 * b));
			}
			n += 4;
		}
	}
	memset(out + n, 0, 8); /* the edge */
	return n + 8;
}

static const char* asciiPly = "ply\nformat ascii 1.0\nelement vertex 5\nproperty float32 x\nproperty uint8 red\n"
							  "property float32 y\nproperty float32 z\nelement face 2\n"
							  "property list uchar int vertex_index\nelement edge 1\nproperty int a\nproperty int b\n"
							  "end_header\n0 200 0 0\n1 200 0 0\n1 200 1 0\n0 200 1 0\n0.1 200 0.1 1\n"
							  "4 0 1 2 3\n3 0 1 4\n0 0\n";

START_TEST(everyEncodingSameMesh)
{
	unsigned char little[1024], big[1024];
	size_t littleSize = writeBinary(little, false);
	size_t bigSize = writeBinary(big, true);
	bcError error = { 0 };
	bcMesh* meshes[3];
	meshes[0] = bcMesh_Parse(little, littleSize, bc_meshPly, NULL, &error);
	ck_assert_msg(meshes[0] != NULL, "%lld %s", error.byte, error.message);
	meshes[1] = bcMesh_Parse(big, bigSize, bc_meshAuto, NULL, &error);
	ck_assert_msg(meshes[1] != NULL, "%lld %s", error.byte, error.message);
	meshes[2] = bcMesh_Parse(asciiPly, strlen(asciiPly), bc_meshAuto, NULL, &error);
	ck_assert_msg(meshes[2] != NULL, "%ld:%ld %s", error.line, error.column, error.message);
	for (int m = 0; m < 3; ++m) {
		bcMeshInfo info = bcMesh_GetInfo(meshes[m]);
		ck_assert_int_eq(info.format, bc_meshPly);
		ck_assert_int_eq(info.vertexCount, 5);
		ck_assert_int_eq(info.triangleCount, 3);
		ck_assert_int_eq(info.faceCount, 2);
		ck_assert_int_eq(bcMesh_GetTriangle(meshes[m], 2).face, 1);
		ck_assert_int_eq(bcMesh_GetTriangle(meshes[m], 2).vertices[2], 4);
	}
	/* float64 keeps 0.1 as the double; float32 as the float */
	ck_assert(bcMesh_GetVertex(meshes[0], 4).x == 0.1);
	ck_assert(bcMesh_GetVertex(meshes[1], 4).x == 0.1);
	ck_assert(bcMesh_GetVertex(meshes[2], 4).x == 0.1); /* ASCII text: the decimal, read as a double */
	for (int m = 0; m < 3; ++m) {
		bcMesh_Destroy(meshes[m]);
	}
}
END_TEST

START_TEST(errors)
{
	unsigned char data[1024];
	size_t size = writeBinary(data, false);
	bcError error = { 0 };
	ck_assert_ptr_null(bcMesh_Parse(data, size - 9, bc_meshPly, NULL, &error));
	ck_assert_int_eq(error.byte, (long long)size - 8);
	ck_assert_str_eq(error.message, "the data ends in face 1 of 2 (truncated, or a wrong count in the header)");
	/* an index out of range: face 1's third corner 4 becomes 5 */
	size_t corner = size - 8 - 4;
	data[corner] = 5;
	ck_assert_ptr_null(bcMesh_Parse(data, size, bc_meshPly, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorIndex);
	ck_assert_int_eq(error.byte, (long long)corner + 1);
	data[corner] = 4;
	const char* noFace = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
						 "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
	ck_assert_ptr_null(bcMesh_Parse(noFace, strlen(noFace), bc_meshPly, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	const char* nan = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
					  "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
					  "0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n";
	ck_assert_ptr_null(bcMesh_Parse(nan, strlen(nan), bc_meshPly, NULL, &error));
	ck_assert_int_eq(error.line, 11);
	ck_assert_int_eq(error.column, 3);
	ck_assert_str_eq(error.message, "vertex 1's y is not finite: 'nan'");
	const char* noY = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float z\n"
					  "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
	ck_assert_ptr_null(bcMesh_Parse(noY, strlen(noY), bc_meshPly, NULL, &error));
	ck_assert_str_eq(error.message, "the 'vertex' element lacks property y");
}
END_TEST

static Suite* plySuite(void)
{
	Suite* suite = suite_create("ply");
	TCase* reader = tcase_create("reader");
	tcase_add_test(reader, everyEncodingSameMesh);
	tcase_add_test(reader, errors);
	suite_add_tcase(suite, reader);
	return suite;
}

int main(void)
{
	return bcRunSuite(plySuite());
}
