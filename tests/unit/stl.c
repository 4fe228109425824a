/* stl.c - unit tests of the STL reader (lib/stl.c through bcMesh_Parse and
 * bcMesh_Load): binary and ASCII give the same mesh, bit-identical corners
 * merge (and only those) into vertices in order of first use, as a
 * reference written here (a sort) numbers them, whatever the threads, read
 * from memory or from a file; stored normals are checked, never used. */
#define _DEFAULT_SOURCE /* mkstemps */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The binary STL of count triangles (as writeBinary), malloc'd (the
 * caller frees it); its size into *size. */
static unsigned char* binaryOf(const float* corners, const float* normals, uint32_t count, size_t* size)
{
	*size = 84 + 50 * (size_t)count;
	unsigned char* data = malloc(*size);
	ck_assert_ptr_nonnull(data);
	writeBinary(data, corners, normals, count);
	return data;
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

/* One broken ASCII STL and what the reader must say about it. */
typedef struct asciiErrorCase {
	const char* text;
	bcErrorCode code;
	long line;
	long column;
	const char* message;
} asciiErrorCase;

START_TEST(asciiErrorsEachPlace)
{
	/* every error of the ASCII reader at its place, the messages and
	 * columns worked out by hand from the text (a number's name says which
	 * of the three it is; keywords in any case, whole tokens only) */
	static const asciiErrorCase cases[] = {
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1\nendloop\n",
		  bc_errorSyntax, 6, 11, "expected vertex z, found the end of the line" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 z\n", bc_errorSyntax, 6,
		  12, "expected vertex z, found 'z'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 y 0\n", bc_errorSyntax, 4, 10,
		  "expected vertex y, found 'y'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0,5 0 0\n", bc_errorSyntax, 4, 8,
		  "expected vertex x, found '0,5'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 1e999 0\n", bc_errorValue, 4, 10,
		  "vertex y is not finite: '1e999'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 -inf\n", bc_errorValue, 4, 12,
		  "vertex z is not finite: '-inf'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 1e-5x\n", bc_errorSyntax, 4, 12,
		  "expected vertex z, found '1e-5x'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex\t0 0 0 0\n", bc_errorSyntax, 4, 14,
		  "expected 'vertex' or 'endloop', found '0'" },
		{ "solid x\nfacet normal 0 0\nouter loop\n", bc_errorSyntax, 2, 17, "expected normal z, found the end of the line" },
		{ "solid x\nfacet normal a 0 0\n", bc_errorSyntax, 2, 14, "expected normal x, found 'a'" },
		{ "solid x\nfacet normal 0 NaN 0\n", bc_errorValue, 2, 16, "normal y is not finite: 'NaN'" },
		{ "solid x\nfacet normals 0 0 1\n", bc_errorSyntax, 2, 7, "expected 'normal' after 'facet', found 'normals'" },
		{ "solid x\nfacet normal\n0 0 1\n", bc_errorSyntax, 2, 13, "expected normal x, found the end of the line" },
		/* keywords may stand on lines of their own; numbers may not */
		{ "solid x\nfacet\n normal 0 0 1\n", bc_errorSyntax, 4, 1, "expected 'outer loop', found the end of the input" },
		{ "solid x\nfacet normal 0 0 1\nouter\n", bc_errorSyntax, 4, 1, "expected 'loop' after 'outer', found the end of the input" },
		{ "solid x\nfacet normal 0 0 1\nouterloop\n", bc_errorSyntax, 3, 1, "expected 'outer loop', found 'outerloop'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertexx 0 0 0\n", bc_errorSyntax, 4, 1,
		  "expected 'vertex' or 'endloop', found 'vertexx'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nverte 0 0 0\n", bc_errorSyntax, 4, 1,
		  "expected 'vertex' or 'endloop', found 'verte'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex", bc_errorSyntax, 4, 7,
		  "expected vertex x, found the end of the input" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvert", bc_errorSyntax, 4, 1,
		  "expected 'vertex' or 'endloop', found 'vert'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n  EndLoop\n", bc_errorSyntax, 6, 3,
		  "a facet needs at least 3 vertices, found 2" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacetx\n",
		  bc_errorSyntax, 8, 1, "expected 'endfacet', found 'endfacetx'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n",
		  bc_errorSyntax, 8, 1, "expected 'endfacet', found the end of the input" },
		{ "solid x\n facets\n", bc_errorSyntax, 2, 2, "expected 'facet' or 'endsolid', found 'facets'" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n",
		  bc_errorSyntax, 9, 1, "expected 'facet' or 'endsolid', found the end of the input" },
		{ "solid x\nendsolid x\nsolidx\n", bc_errorSyntax, 3, 1, "expected 'solid' or the end, found 'solidx'" },
		{ "solid x\nendsolid x\n", bc_errorEmpty, 0, 0, "no faces: the STL has no facets" },
		{ "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
		  "endsolid\nsolid\n\tFaCeT\n",
		  bc_errorSyntax, 12, 1, "expected 'normal' after 'facet', found the end of the input" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		bcError error = { 0 };
		const asciiErrorCase* c = cases + i;
		bcMesh* mesh = bcMesh_Parse(c->text, strlen(c->text), bc_meshStl, NULL, &error);
		ck_assert_msg(mesh == NULL, "case %zu: read", i);
		ck_assert_msg(error.code == c->code && error.line == c->line && error.column == c->column &&
						  strcmp(error.message, c->message) == 0,
					  "case %zu: %d %ld:%ld '%s', expected %d %ld:%ld '%s'", i, (int)error.code, error.line,
					  error.column, error.message, (int)c->code, c->line, c->column, c->message);
	}
}
END_TEST

START_TEST(asciiNumbersAreStrtods)
{
	/* the coordinates are the doubles the C library's strtod gives for
	 * their text, including what no fast path reads (more than 19 digits,
	 * hexadecimal, subnormal, halfway cases) */
	static const char* numbers[] = {
		"0",
		"-0",
		"+.5",
		"5.",
		".5e+1",
		"1E-3",
		"0.1",
		"0.30000000000000004",
		"123456789012345678901234567890",
		"0.1000000000000000055511151231257827021181583404541015625",
		"9007199254740993",
		"2.2250738585072011e-308",
		"4.9e-324",
		"1e-400",
		"0x1.8p1",
		"-0X.8P-2",
		"1.7976931348623157e308",
		"00000000000000000000000000000000000001.5",
		"3.14159265358979323846264338327950288",
		"-7e22",
		"8.98846567431158e307",
	};
	size_t count = sizeof numbers / sizeof numbers[0];
	char text[8192];
	size_t used = (size_t)snprintf(text, sizeof text, "solid n\n");
	for (size_t i = 0; i < count; ++i) {
		/* corner i: (numbers[i], i, -i), distinct; a triangle of three
		 * corners at a time, the last ones repeated to fill it */
		if (i % 3 == 0) {
			used += (size_t)snprintf(text + used, sizeof text - used, "facet normal 0 0 0\nouter loop\n");
		}
		used += (size_t)snprintf(text + used, sizeof text - used, "vertex %s %zu -%zu\n", numbers[i], i, i);
		if (i % 3 == 2) {
			used += (size_t)snprintf(text + used, sizeof text - used, "endloop\nendfacet\n");
		}
	}
	ck_assert_uint_eq(count % 3, 0);
	used += (size_t)snprintf(text + used, sizeof text - used, "endsolid n\n");
	ck_assert_uint_lt(used, sizeof text);
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_Parse(text, used, bc_meshStl, NULL, &error);
	ck_assert_msg(mesh != NULL, "%ld:%ld %s", error.line, error.column, error.message);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).vertexCount, (int32_t)count);
	for (size_t i = 0; i < count; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, (int32_t)i);
		double x = strtod(numbers[i], NULL);
		ck_assert_msg(memcmp(&v.x, &x, sizeof x) == 0, "%s: %a, strtod %a", numbers[i], v.x, x);
		ck_assert(v.y == (double)i && v.z == -(double)i);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* ------------------------------------------------- merging, by reference */

/* xorshift64: the test's meshes, the same on every run. */
static uint64_t nextRandom(uint64_t* state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* A float for a pool position: grid values (whose bits end in zeros), 0
 * and -0 (equal, not bit-identical), and arbitrary finite bits. */
static float poolFloat(uint64_t* state)
{
	uint64_t r = nextRandom(state);
	switch (r % 4) {
	case 0:
		return (float)((int)(r >> 8) % 64) * 0.25f;
	case 1:
		return (r >> 8) % 2 == 0 ? 0.0f : -0.0f;
	case 2:
		return (float)((int)(r >> 8) % 1000) * 0.1f;
	default: {
		uint32_t bits = (uint32_t)(r >> 16);
		if ((bits & 0x7F800000u) == 0x7F800000u) {
			bits &= 0xBFFFFFFFu; /* finite */
		}
		float f;
		memcpy(&f, &bits, sizeof f);
		return f;
	}
	}
}

/* count triangles whose corners come from a pool of poolSize positions,
 * half of them near the last ones used (as facets near each other share
 * corners), half anywhere; normals arbitrary (some against the winding,
 * some zero). corners: 9 per triangle, normals 3 (the caller frees). */
static void randomMesh(uint32_t count, uint32_t poolSize, uint64_t seed, float** corners, float** normals)
{
	uint64_t state = seed;
	float* pool = malloc(3 * (size_t)poolSize * sizeof *pool);
	*corners = malloc(9 * (size_t)count * sizeof **corners);
	*normals = malloc(3 * (size_t)count * sizeof **normals);
	ck_assert(pool != NULL && *corners != NULL && *normals != NULL);
	for (uint32_t i = 0; i < 3 * poolSize; ++i) {
		pool[i] = poolFloat(&state);
	}
	uint32_t near = 0;
	for (uint32_t c = 0; c < 3 * count; ++c) {
		uint64_t r = nextRandom(&state);
		uint32_t pick = r % 2 == 0 ? (near + (uint32_t)(r >> 8) % 16) % poolSize : (uint32_t)(r >> 8) % poolSize;
		near = (near + (r % 7 == 0)) % poolSize;
		memcpy(*corners + 3 * (size_t)c, pool + 3 * (size_t)pick, 3 * sizeof(float));
	}
	for (uint32_t i = 0; i < 3 * count; ++i) {
		uint64_t r = nextRandom(&state);
		(*normals)[i] = r % 5 == 0 ? 0.0f : (float)((int)(r >> 8) % 3 - 1);
	}
	free(pool);
}

typedef struct bcRefCorner {
	uint32_t bits[3];
	uint32_t corner;
} bcRefCorner;

static int compareRefCorners(const void* a, const void* b)
{
	const bcRefCorner* x = a;
	const bcRefCorner* y = b;
	int order = memcmp(x->bits, y->bits, sizeof x->bits);
	return order != 0 ? order : (x->corner > y->corner) - (x->corner < y->corner);
}

/* The reference: corners (n, 3 floats each) with the same bits are one
 * vertex, numbered in order of first use: ids (n, the caller frees) and
 * the first corner of each vertex (*firsts, the caller frees). */
static int32_t referenceMerge(const float* corners, uint32_t n, int32_t** ids, uint32_t** firsts)
{
	bcRefCorner* sorted = malloc((size_t)n * sizeof *sorted);
	uint32_t* firstOf = malloc((size_t)n * sizeof *firstOf);
	*ids = malloc((size_t)n * sizeof **ids);
	*firsts = malloc((size_t)n * sizeof **firsts);
	ck_assert(sorted != NULL && firstOf != NULL && *ids != NULL && *firsts != NULL);
	for (uint32_t c = 0; c < n; ++c) {
		memcpy(sorted[c].bits, corners + 3 * (size_t)c, sizeof sorted[c].bits);
		sorted[c].corner = c;
	}
	qsort(sorted, n, sizeof *sorted, compareRefCorners);
	for (uint32_t i = 0; i < n; ++i) {
		bool same = i > 0 && memcmp(sorted[i].bits, sorted[i - 1].bits, sizeof sorted[i].bits) == 0;
		firstOf[sorted[i].corner] = same ? firstOf[sorted[i - 1].corner] : sorted[i].corner;
	}
	int32_t vertices = 0;
	for (uint32_t c = 0; c < n; ++c) {
		if (firstOf[c] == c) {
			(*firsts)[vertices] = c;
			(*ids)[c] = vertices++;
		} else {
			(*ids)[c] = (*ids)[firstOf[c]];
		}
	}
	free(sorted);
	free(firstOf);
	return vertices;
}

/* Does the stored normal point against the winding (B-A)x(C-A)? As the
 * man page says: a finite, non-zero normal of a triangle that is not
 * degenerate, with a negative dot product. */
static bool referenceFlipped(const float* normal, const float* t)
{
	double a[3], b[3], c[3], n[3];
	for (int k = 0; k < 3; ++k) {
		a[k] = t[k];
		b[k] = t[3 + k];
		c[k] = t[6 + k];
		n[k] = normal[k];
	}
	double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	double v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	double w[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
	bool finite = isfinite(n[0]) && isfinite(n[1]) && isfinite(n[2]);
	double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
	double ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
	return finite && nn != 0.0 && ww != 0.0 && n[0] * w[0] + n[1] * w[1] + n[2] * w[2] < 0.0;
}

/* mesh is the binary STL of count triangles (corners, normals), exactly. */
static void checkMerged(const bcMesh* mesh, const float* corners, const float* normals, uint32_t count,
						const char* how)
{
	int32_t* ids;
	uint32_t* firsts;
	int32_t vertices = referenceMerge(corners, 3 * count, &ids, &firsts);
	ck_assert_msg(mesh != NULL, "%s", how);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	ck_assert_msg(info.vertexCount == vertices, "%s: %d vertices, expected %d", how, info.vertexCount, vertices);
	ck_assert_int_eq(info.triangleCount, (int32_t)count);
	ck_assert_int_eq(info.faceCount, (int32_t)count);
	ck_assert_int_eq(info.mergedCorners, 3 * (long long)count - vertices);
	for (int32_t v = 0; v < vertices; ++v) {
		const float* f = corners + 3 * (size_t)firsts[v];
		bcVec3 expected = bcMakeVec3(f[0], f[1], f[2]);
		bcVec3 got = bcMesh_GetVertex(mesh, v);
		ck_assert_msg(memcmp(&got, &expected, sizeof got) == 0, "%s: vertex %d", how, v);
	}
	for (uint32_t i = 0; i < count; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, (int32_t)i);
		for (int k = 0; k < 3; ++k) {
			ck_assert_msg(t.vertices[k] == ids[3 * i + (uint32_t)k], "%s: triangle %u corner %d: %d, expected %d", how,
						  i, k, t.vertices[k], ids[3 * i + (uint32_t)k]);
		}
		ck_assert_int_eq(t.face, (int32_t)i);
	}
	int32_t flipped = 0;
	for (uint32_t i = 0; i < count; ++i) {
		if (referenceFlipped(normals + 3 * (size_t)i, corners + 9 * (size_t)i)) {
			if (flipped < BC_MAX_WARNINGS) {
				bcWarning w = bcMesh_GetWarning(mesh, flipped);
				ck_assert_int_eq(w.code, bc_warningFacetNormal);
				ck_assert_int_eq(w.record, (long)i);
				ck_assert_int_eq(w.byte, 84 + 50 * (long long)i + 1);
			}
			flipped += 1;
		}
	}
	ck_assert_msg(bcMesh_GetWarningCount(mesh) == flipped, "%s: %d warnings, expected %d", how,
				  bcMesh_GetWarningCount(mesh), flipped);
	free(ids);
	free(firsts);
}

/* data (size bytes) written to a new temporary file named with suffix
 * (".stl"); its name into path (the caller unlinks it). */
static void writeNamed(const unsigned char* data, size_t size, const char* suffix, char* path, size_t room)
{
	snprintf(path, room, "%s/ballcast-stl-XXXXXX%s", getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, size), (ssize_t)size);
	close(fd);
}

static void writeTemporary(const unsigned char* data, size_t size, char* path, size_t room)
{
	writeNamed(data, size, ".stl", path, room);
}

/* Are a and b the same mesh: vertices bit for bit, triangles, faces and
 * warnings? */
static bool sameMesh(const bcMesh* a, const bcMesh* b)
{
	bcMeshInfo x = bcMesh_GetInfo(a);
	bcMeshInfo y = bcMesh_GetInfo(b);
	bool same = x.vertexCount == y.vertexCount && x.triangleCount == y.triangleCount && x.faceCount == y.faceCount &&
				x.mergedCorners == y.mergedCorners && bcMesh_GetWarningCount(a) == bcMesh_GetWarningCount(b);
	for (int32_t i = 0; same && i < x.vertexCount; ++i) {
		bcVec3 u = bcMesh_GetVertex(a, i);
		bcVec3 v = bcMesh_GetVertex(b, i);
		same = memcmp(&u, &v, sizeof u) == 0;
	}
	for (int32_t i = 0; same && i < x.triangleCount; ++i) {
		bcTriangle s = bcMesh_GetTriangle(a, i);
		bcTriangle t = bcMesh_GetTriangle(b, i);
		same = memcmp(s.vertices, t.vertices, sizeof s.vertices) == 0 && s.face == t.face;
	}
	return same;
}

START_TEST(fileReadAsBytesAre)
{
	/* A binary STL file is read a chunk at a time when its first bytes
	 * tell that reading it whole would take it for one: it must then give
	 * what its bytes give, the same mesh or the same refusal, whatever its
	 * name, header or the format asked for. 20,000 triangles: three
	 * chunks. */
	uint32_t count = 20000;
	float* corners;
	float* normals;
	randomMesh(count, 6000, 4242, &corners, &normals);
	size_t size;
	unsigned char* data = binaryOf(corners, normals, count, &size);
	static const char* const suffixes[] = { ".stl", ".STL", ".obj", ".ply", ".off", ".dat" };
	static const bcMeshFormat named[] = { bc_meshStl, bc_meshStl, bc_meshObj, bc_meshPly, bc_meshOff, bc_meshAuto };
	static const bcMeshFormat asked[] = { bc_meshAuto, bc_meshStl, bc_meshObj, bc_meshPly, bc_meshOff };
	int meshes = 0;
	for (int header = 0; header < 2; ++header) {
		if (header == 1) {
			memset(data, 0, 80); /* no "solid": binary by its NUL bytes */
		}
		for (size_t n = 0; n < sizeof suffixes / sizeof suffixes[0]; ++n) {
			char path[512];
			writeNamed(data, size, suffixes[n], path, sizeof path);
			for (size_t k = 0; k < sizeof asked / sizeof asked[0]; ++k) {
				bcError fromFile = { 0 };
				bcError fromBytes = { 0 };
				bcMesh* a = bcMesh_Load(path, asked[k], NULL, &fromFile);
				bcMesh* b = bcMesh_Parse(data, size, asked[k] != bc_meshAuto ? asked[k] : named[n], NULL, &fromBytes);
				ck_assert_msg((a == NULL) == (b == NULL), "%s asked %d header %d: file '%s', bytes '%s'", suffixes[n],
							  (int)asked[k], header, fromFile.message, fromBytes.message);
				if (a != NULL) {
					ck_assert_msg(sameMesh(a, b), "%s asked %d header %d", suffixes[n], (int)asked[k], header);
					meshes += 1;
				} else {
					ck_assert_int_eq(fromFile.code, fromBytes.code);
					ck_assert_int_eq(fromFile.line, fromBytes.line);
					ck_assert_int_eq(fromFile.column, fromBytes.column);
					ck_assert_int_eq(fromFile.byte, fromBytes.byte);
				}
				bcMesh_Destroy(a);
				bcMesh_Destroy(b);
			}
			unlink(path);
		}
	}
	/* .stl and .STL asked nothing or STL, the others asked STL; .dat asked
	 * nothing: 2 + 2 + 4 + 1 = 9 per header */
	ck_assert_int_eq(meshes, 18);
	free(data);
	free(corners);
	free(normals);
}
END_TEST

START_TEST(mergeMatchesReference)
{
	/* 40,000 triangles from 12,000 positions: 120,000 corners, some
	 * positions first used far into the file */
	uint32_t count = 40000;
	float* corners;
	float* normals;
	randomMesh(count, 12000, 0x5eed, &corners, &normals);
	size_t size;
	unsigned char* data = binaryOf(corners, normals, count, &size);
	char path[512];
	writeTemporary(data, size, path, sizeof path);
	const int threads[] = { 1, 2, 3, 8 };
	for (size_t k = 0; k < sizeof threads / sizeof threads[0]; ++k) {
		char how[64];
		bcObjOptions options = bcDefaultObjOptions();
		options.threadCount = threads[k];
		bcError error = { 0 };
		bcMesh* mesh = bcMesh_Parse(data, size, bc_meshStl, &options, &error);
		snprintf(how, sizeof how, "memory, %d threads", threads[k]);
		checkMerged(mesh, corners, normals, count, how);
		bcMesh_Destroy(mesh);
		mesh = bcMesh_Load(path, bc_meshAuto, &options, &error);
		snprintf(how, sizeof how, "file, %d threads", threads[k]);
		checkMerged(mesh, corners, normals, count, how);
		bcMesh_Destroy(mesh);
	}
	unlink(path);
	free(data);
	free(corners);
	free(normals);
}
END_TEST

START_TEST(mergeFewPositions)
{
	/* 3,000 triangles on 5 positions: many equal keys; and on 9,000
	 * distinct ones: nothing merged, three times as many vertices as
	 * triangles (more than a closed mesh's half) */
	const uint32_t pools[] = { 5, 9000 };
	for (size_t p = 0; p < 2; ++p) {
		uint32_t count = 3000;
		float* corners;
		float* normals;
		randomMesh(count, pools[p], 77 + p, &corners, &normals);
		if (pools[p] == 9000) {
			for (uint32_t c = 0; c < 3 * count; ++c) {
				corners[3 * c] = (float)c; /* every corner its own */
			}
		}
		size_t size;
		unsigned char* data = binaryOf(corners, normals, count, &size);
		for (int threads = 1; threads <= 4; threads += 3) {
			bcObjOptions options = bcDefaultObjOptions();
			options.threadCount = threads;
			bcError error = { 0 };
			bcMesh* mesh = bcMesh_Parse(data, size, bc_meshStl, &options, &error);
			checkMerged(mesh, corners, normals, count, "few or distinct positions");
			bcMesh_Destroy(mesh);
		}
		free(data);
		free(corners);
		free(normals);
	}
}
END_TEST

START_TEST(firstNonFiniteInFileOrder)
{
	/* a NaN in triangle 30,001 and an infinity in 20,001 of 40,000: the
	 * error names the infinity's byte however the triangles are shared
	 * among threads, read from memory or a file */
	uint32_t count = 40000;
	float* corners;
	float* normals;
	randomMesh(count, 12000, 99, &corners, &normals);
	corners[9 * 30001 + 4] = __builtin_nanf("");
	corners[9 * 20001 + 8] = -__builtin_inff();
	size_t size;
	unsigned char* data = binaryOf(corners, normals, count, &size);
	char path[512];
	writeTemporary(data, size, path, sizeof path);
	long long byte = 84 + 50 * 20001LL + 12 + 8 * 4 + 1;
	for (int threads = 1; threads <= 8; threads *= 2) {
		bcObjOptions options = bcDefaultObjOptions();
		options.threadCount = threads;
		bcError error = { 0 };
		ck_assert_ptr_null(bcMesh_Parse(data, size, bc_meshStl, &options, &error));
		ck_assert_int_eq(error.code, bc_errorValue);
		ck_assert_int_eq(error.byte, byte);
		ck_assert_str_eq(error.message, "triangle 20001, corner 3: coordinate z is not finite (-inf)");
		memset(&error, 0, sizeof error);
		ck_assert_ptr_null(bcMesh_Load(path, bc_meshAuto, &options, &error));
		ck_assert_int_eq(error.byte, byte);
		ck_assert_str_eq(error.message, "triangle 20001, corner 3: coordinate z is not finite (-inf)");
	}
	unlink(path);
	free(data);
	free(corners);
	free(normals);
}
END_TEST

START_TEST(asciiMergeMatchesReference)
{
	/* doubles (not float) in text, round-tripped by %.17g: the ASCII reader
	 * merges by the doubles' bits, -0 apart from 0 */
	uint32_t count = 3000;
	uint64_t state = 1234;
	double pool[3 * 500];
	for (int i = 0; i < 3 * 500; ++i) {
		uint64_t r = nextRandom(&state);
		pool[i] = r % 3 == 0 ? (r % 2 == 0 ? 0.0 : -0.0) : (double)(int64_t)(r >> 20) * 1e-9;
	}
	size_t room = 200 + 200 * (size_t)count;
	char* text = malloc(room);
	double* positions = malloc(9 * (size_t)count * sizeof *positions);
	ck_assert(text != NULL && positions != NULL);
	size_t used = (size_t)snprintf(text, room, "solid random\n");
	for (uint32_t i = 0; i < count; ++i) {
		used += (size_t)snprintf(text + used, room - used, "facet normal 0 0 0\nouter loop\n");
		for (int k = 0; k < 3; ++k) {
			int pick = (int)(nextRandom(&state) % 500);
			memcpy(positions + 9 * (size_t)i + 3 * k, pool + 3 * pick, 3 * sizeof(double));
			used += (size_t)snprintf(text + used, room - used, "vertex %.17g %.17g %.17g\n", pool[3 * pick],
									 pool[3 * pick + 1], pool[3 * pick + 2]);
		}
		used += (size_t)snprintf(text + used, room - used, "endloop\nendfacet\n");
	}
	used += (size_t)snprintf(text + used, room - used, "endsolid random\n");
	/* the reference on the doubles' bits: two words of each, as floats' */
	uint32_t n = 3 * count;
	int32_t* vertexOf = malloc((size_t)n * sizeof *vertexOf);
	bcVec3* firstPositions = malloc((size_t)n * sizeof *firstPositions);
	ck_assert(vertexOf != NULL && firstPositions != NULL);
	int32_t vertices = 0;
	for (uint32_t c = 0; c < n; ++c) {
		int32_t found = -1;
		for (int32_t v = 0; v < vertices && found < 0; ++v) {
			if (memcmp(firstPositions + v, positions + 3 * (size_t)c, sizeof(bcVec3)) == 0) {
				found = v;
			}
		}
		if (found < 0) {
			memcpy(firstPositions + vertices, positions + 3 * (size_t)c, sizeof(bcVec3));
			found = vertices++;
		}
		vertexOf[c] = found;
	}
	for (int threads = 1; threads <= 4; threads += 3) {
		bcObjOptions options = bcDefaultObjOptions();
		options.threadCount = threads;
		bcError error = { 0 };
		bcMesh* meshes[1] = { bcMesh_Parse(text, used, bc_meshStl, &options, &error) };
		for (int m = 0; m < 1; ++m) {
			ck_assert_msg(meshes[m] != NULL, "%ld:%ld %s", error.line, error.column, error.message);
			ck_assert_int_eq(bcMesh_GetInfo(meshes[m]).vertexCount, vertices);
			for (int32_t v = 0; v < vertices; ++v) {
				bcVec3 got = bcMesh_GetVertex(meshes[m], v);
				ck_assert(memcmp(&got, firstPositions + v, sizeof got) == 0);
			}
			for (uint32_t i = 0; i < count; ++i) {
				bcTriangle t = bcMesh_GetTriangle(meshes[m], (int32_t)i);
				ck_assert(memcmp(t.vertices, vertexOf + 3 * i, sizeof t.vertices) == 0);
			}
			bcMesh_Destroy(meshes[m]);
		}
	}
	free(text);
	free(positions);
	free(vertexOf);
	free(firstPositions);
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
	tcase_add_test(reader, asciiErrorsEachPlace);
	tcase_add_test(reader, asciiNumbersAreStrtods);
	suite_add_tcase(suite, reader);
	TCase* merging = tcase_create("merging");
	tcase_set_timeout(merging, 120);
	tcase_add_test(merging, mergeMatchesReference);
	tcase_add_test(merging, fileReadAsBytesAre);
	tcase_add_test(merging, mergeFewPositions);
	tcase_add_test(merging, firstNonFiniteInFileOrder);
	tcase_add_test(merging, asciiMergeMatchesReference);
	suite_add_tcase(suite, merging);
	return suite;
}

int main(void)
{
	return bcRunSuite(stlSuite());
}
