/* obj.c - unit tests of the OBJ reader (bcMesh_ParseObj, bcMesh_LoadObj). */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* A second copy of the reader whose element limit and smallest piece are
 * set by the tests: a limit of 4 reaches the bc_errorTooLarge paths without
 * 2^31 vertices, and 1-byte pieces cut texts of a few lines among threads.
 * Its public functions are renamed so they do not clash with the library's,
 * and its internals (cutText) are reachable. */
static int32_t smallMaxElements = 4;
static size_t smallMinPieceBytes = 1;
#define BC_OBJ_MAX_ELEMENTS smallMaxElements
#define BC_OBJ_MIN_PIECE_BYTES smallMinPieceBytes
#define bcReadObj smallReadObj
bcMesh* smallReadObj(const char* text, size_t length, int threadCount, bcError* error);
#include "../../lib/obj.c"
#undef bcReadObj

/* bcMesh_ParseObj over the small copy. */
static bcMesh* smallParseObj(const char* text, size_t length, const bcObjOptions* options, bcError* error)
{
	return smallReadObj(text, length, options != NULL ? options->threadCount : 0, error);
}

/* Parse a C string through an exactly sized heap copy (no terminator), so
 * the sanitizers catch any read past the end. */
static bcMesh* parseWith(bcMesh* (*parse)(const char*, size_t, const bcObjOptions*, bcError*), const char* text,
						 bcError* error)
{
	size_t length = strlen(text);
	char* copy = malloc(length > 0 ? length : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, length);
	memset(error, 0, sizeof *error);
	bcMesh* mesh = parse(copy, length, NULL, error);
	free(copy);
	return mesh;
}

static bcMesh* parse(const char* text)
{
	bcError error;
	bcMesh* mesh = parseWith(bcMesh_ParseObj, text, &error);
	ck_assert_msg(mesh != NULL, "parse failed: line %ld column %ld: %s", error.line, error.column, error.message);
	return mesh;
}

/* Parse text that must fail; check code, line, column and a message part. */
static void expectErrorWith(bcMesh* (*parseFcn)(const char*, size_t, const bcObjOptions*, bcError*), const char* text,
							bcErrorCode code, long line, long column, const char* messagePart)
{
	bcError error;
	bcMesh* mesh = parseWith(parseFcn, text, &error);
	ck_assert_msg(mesh == NULL, "expected an error for \"%s\"", text);
	ck_assert_msg(error.code == code, "code %d, expected %d (%s) for \"%s\"", (int)error.code, (int)code,
				  error.message, text);
	ck_assert_msg(error.line == line && error.column == column, "at %ld:%ld, expected %ld:%ld (%s) for \"%s\"",
				  error.line, error.column, line, column, error.message, text);
	ck_assert_int_eq(error.record, -1);
	ck_assert_msg(strstr(error.message, messagePart) != NULL, "message \"%s\" lacks \"%s\"", error.message,
				  messagePart);
}

static void expectError(const char* text, bcErrorCode code, long line, long column, const char* messagePart)
{
	expectErrorWith(bcMesh_ParseObj, text, code, line, column, messagePart);
}

static void assertTriangle(const bcMesh* mesh, int32_t index, int32_t a, int32_t b, int32_t c, int32_t face)
{
	bcTriangle t = bcMesh_GetTriangle(mesh, index);
	ck_assert_msg(t.vertices[0] == a && t.vertices[1] == b && t.vertices[2] == c && t.face == face,
				  "triangle %d = (%d %d %d) face %d, expected (%d %d %d) face %d", (int)index, (int)t.vertices[0],
				  (int)t.vertices[1], (int)t.vertices[2], (int)t.face, (int)a, (int)b, (int)c, (int)face);
}

static void assertCounts(const bcMesh* mesh, int32_t vertices, int32_t triangles, int32_t faces)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	ck_assert_int_eq(info.vertexCount, vertices);
	ck_assert_int_eq(info.triangleCount, triangles);
	ck_assert_int_eq(info.faceCount, faces);
}

/* Bitwise equality of two doubles (tells -0 from 0). */
static void assertSameDouble(double got, double expected, const char* text)
{
	uint64_t a, b;
	memcpy(&a, &got, sizeof a);
	memcpy(&b, &expected, sizeof b);
	if (a != b) { /* not ck_assert: check records every passing one, slow in loops */
		ck_abort_msg("'%s' read as %.17g (%016llx), strtod gives %.17g (%016llx)", text, got, (unsigned long long)a,
					 expected, (unsigned long long)b);
	}
}

/* The x coordinate of the only vertex of "v <number> 0 0" plus a face. */
static double parseX(const char* number)
{
	char text[512];
	snprintf(text, sizeof text, "v %s 0 0\nf 1 1 1\n", number);
	bcMesh* mesh = parse(text);
	double x = bcMesh_GetVertex(mesh, 0).x;
	bcMesh_Destroy(mesh);
	return x;
}

/* ------------------------------------------------------------- structure */

START_TEST(test_triangle)
{
	bcMesh* mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	assertCounts(mesh, 3, 1, 1);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 1), 1.0, 0.0, 0.0, 0.0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 2), 0.0, 1.0, 0.0, 0.0);
	bcAssertVecNear(bcMesh_GetTriangle(mesh, 0).normal, 0.0, 0.0, 1.0, 0.0);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcAssertVecNear(info.lowerBound, 0.0, 0.0, 0.0, 0.0);
	bcAssertVecNear(info.upperBound, 1.0, 1.0, 0.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_fan_triangulation)
{
	/* a pentagon, a triangle, a quad: triangles in file order, faces by f line */
	bcMesh* mesh = parse("v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\n"
						 "f 1 2 3 4 5\n"
						 "f 5 4 3\n"
						 "f 2 3 4 5\n");
	assertCounts(mesh, 5, 6, 3);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	assertTriangle(mesh, 1, 0, 2, 3, 0);
	assertTriangle(mesh, 2, 0, 3, 4, 0);
	assertTriangle(mesh, 3, 4, 3, 2, 1);
	assertTriangle(mesh, 4, 1, 2, 3, 2);
	assertTriangle(mesh, 5, 1, 3, 4, 2);
	bcAssertVecNear(bcMesh_GetTriangle(mesh, 3).normal, 0.0, 0.0, -1.0, 1e-15);
	bcMesh_Destroy(mesh);
}
END_TEST

static bool assertSameOnThreads(const char* text, size_t length, const char* what);

/* Twice the area of triangle t seen along +z. */
static double triangleArea2(const bcMesh* mesh, int32_t t)
{
	bcTriangle tri = bcMesh_GetTriangle(mesh, t);
	bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[0]), b = bcMesh_GetVertex(mesh, tri.vertices[1]),
		   c = bcMesh_GetVertex(mesh, tri.vertices[2]);
	return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

static bcCastState castDown(const bcMesh* mesh, double x, double y, double r)
{
	bcCastInput in = { { x, y, 1 }, { x, y, -1 }, r };
	return bcMesh_Cast(mesh, in, NULL).state;
}

/* A U-shaped face is cut by ear clipping: a ball thrown through its notch
 * passes (the fan covered the notch), one through its arms hits; its six
 * triangles cover its area (7) and turn its way; the convex hexagon after
 * it keeps the fan and its numbers. No warnings. */
START_TEST(test_concave_polygons)
{
	bcMesh* mesh = parse("v 0 0 0\nv 3 0 0\nv 3 3 0\nv 2 3 0\nv 2 1 0\nv 1 1 0\nv 1 3 0\nv 0 3 0\n"
						 "f 1 2 3 4 5 6 7 8\n"
						 "v 10 0 0\nv 12 0 0\nv 13 1 0\nv 12 2 0\nv 10 2 0\nv 9 1 0\n"
						 "f 9 10 11 12 13 14\n");
	assertCounts(mesh, 14, 10, 2);
	double area = 0.0;
	for (int32_t t = 0; t < 6; ++t) {
		ck_assert_int_eq(bcMesh_GetTriangle(mesh, t).face, 0);
		ck_assert(triangleArea2(mesh, t) > 0.0);
		bcAssertVecNear(bcMesh_GetTriangle(mesh, t).normal, 0, 0, 1, 0);
		area += 0.5 * triangleArea2(mesh, t);
	}
	bcAssertNear(area, 7.0, 0);
	for (int32_t t = 6; t < 10; ++t) {
		assertTriangle(mesh, t, 8, 9 + (t - 6), 10 + (t - 6), 1);
	}
	ck_assert_int_eq(castDown(mesh, 1.5, 2, 0), bc_castMiss);
	ck_assert_int_eq(castDown(mesh, 1.5, 2.5, 0.4), bc_castMiss);
	ck_assert_int_eq(castDown(mesh, 0.5, 2, 0), bc_castHit);
	ck_assert_int_eq(castDown(mesh, 2.5, 2, 0), bc_castHit);
	ck_assert_int_eq(castDown(mesh, 1.5, 0.5, 0), bc_castHit);
	ck_assert_int_eq(castDown(mesh, 11, 1, 0), bc_castHit);
	ck_assert_int_eq(bcMesh_GetWarningCount(mesh), 0);
	bcMesh_Destroy(mesh);

	/* the dart (4,0) (1,1) (0,4) (0,0): ear clipping's (3 0 1), (3 1 2) */
	mesh = parse("v 4 0 0\nv 1 1 0\nv 0 4 0\nv 0 0 0\nf 1 2 3 4\n");
	assertTriangle(mesh, 0, 3, 0, 1, 0);
	assertTriangle(mesh, 1, 3, 1, 2, 0);
	ck_assert_int_eq(castDown(mesh, 1.5, 1.5, 0), bc_castMiss); /* beyond the reflex corner */
	ck_assert_int_eq(castDown(mesh, 0.5, 0.5, 0), bc_castHit);
	bcMesh_Destroy(mesh);
}
END_TEST

/* Non-planar and self-intersecting polygons keep their fan and are
 * reported: code, the f keyword's line and column, the face number. */
START_TEST(test_polygon_warnings)
{
	bcMesh* mesh = parse("v 0 0 0\nv 2 0 0\nv 2 2 1\nv 0 2 0\n"    /* lines 1-4 */
						 "f 1 2 3\n"                                      /* 5: a triangle */
						 "  f 1 2 3 4\n"                                  /* 6: non-planar */
						 "v 1 1 0\n"                                      /* 7 */
						 "f 1 2 4 \\\n   5\n"                             /* 8-9: folds back along an edge */
						 "# a comment\n"                                  /* 10 */
						 "f 1 2 5 4\n");                                  /* 11: a corner straight on: convex */
	assertCounts(mesh, 5, 7, 4);
	ck_assert_int_eq(bcMesh_GetWarningCount(mesh), 2);
	bcWarning w = bcMesh_GetWarning(mesh, 0);
	ck_assert_int_eq(w.code, bc_warningNonPlanar);
	ck_assert_int_eq(w.line, 6);
	ck_assert_int_eq(w.column, 3);
	ck_assert_int_eq(w.record, 1);
	ck_assert_msg(strstr(w.message, "not planar") != NULL, "%s", w.message);
	assertTriangle(mesh, 1, 0, 1, 2, 1); /* the fan */
	assertTriangle(mesh, 2, 0, 2, 3, 1);
	w = bcMesh_GetWarning(mesh, 1);
	ck_assert_int_eq(w.code, bc_warningSelfIntersecting);
	ck_assert_int_eq(w.line, 8);
	ck_assert_int_eq(w.column, 1);
	ck_assert_int_eq(w.record, 2);
	ck_assert_msg(strstr(w.message, "intersects itself") != NULL, "%s", w.message);
	assertTriangle(mesh, 3, 0, 1, 3, 2);
	assertTriangle(mesh, 4, 0, 3, 4, 2);
	ck_assert_int_eq(bcMesh_GetWarning(mesh, 2).code, bc_warningNone);
	ck_assert_int_eq(bcMesh_GetWarning(mesh, -1).code, bc_warningNone);
	bcMesh_Destroy(mesh);

	/* many: all counted, the first BC_MAX_WARNINGS kept */
	size_t size = 64 + 16 * (BC_MAX_WARNINGS + 5);
	char* text = malloc(size);
	ck_assert_ptr_nonnull(text);
	size_t length = (size_t)snprintf(text, size, "v 0 0 0\nv 1 1 0\nv 1 0 0\nv 0 1 0\n");
	for (int i = 0; i < BC_MAX_WARNINGS + 5; ++i) {
		length += (size_t)snprintf(text + length, size - length, "f 1 2 3 4\n");
	}
	mesh = parse(text);
	ck_assert_int_eq(bcMesh_GetWarningCount(mesh), BC_MAX_WARNINGS + 5);
	w = bcMesh_GetWarning(mesh, BC_MAX_WARNINGS - 1);
	ck_assert_int_eq(w.code, bc_warningSelfIntersecting);
	ck_assert_int_eq(w.line, 4 + BC_MAX_WARNINGS);
	ck_assert_int_eq(w.record, BC_MAX_WARNINGS - 1);
	ck_assert_int_eq(bcMesh_GetWarning(mesh, BC_MAX_WARNINGS).code, bc_warningNone);
	bcMesh_Destroy(mesh);
	/* and on many threads, the same (the small reader cuts the text into tiny pieces) */
	smallMaxElements = INT32_MAX;
	ck_assert(assertSameOnThreads(text, length, "warnings"));
	free(text);
	const char* mixed = "v 0 0 0\nv 3 0 0\nv 3 3 0\nv 2 3 0\nv 2 1 0\nv 1 1 0\nv 1 3 0\nv 0 3 0\nv 1 1 1\n"
						"f 1 2 3 4 5 6 7 8\nf 1 2 9 8\nf 1 3 2 4\nf 4 5 6 7\nf -1 -2 -3 -4 -5\n"
						"f 1 2 3 4 5 6 7 8\n";
	ck_assert(assertSameOnThreads(mixed, strlen(mixed), "polygons"));
}
END_TEST

START_TEST(test_corner_forms)
{
	bcMesh* mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
						 "vt 0 0\nvt 1 0\nvt 0 1\n"
						 "vn 0 0 1\n"
						 "f 1/1 2/2 3/3\n"
						 "f 2//1 4//1 3//1\n"
						 "f 1/1/1 2/2/1 4/3/1\n"
						 "f 4/-1/-1 3 1//1 2/1\n");
	assertCounts(mesh, 4, 5, 4);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	assertTriangle(mesh, 1, 1, 3, 2, 1);
	assertTriangle(mesh, 2, 0, 1, 3, 2);
	assertTriangle(mesh, 3, 3, 2, 0, 3);
	assertTriangle(mesh, 4, 3, 0, 1, 3);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_negative_indices)
{
	/* -1 is the last vertex defined so far, not the last of the file */
	bcMesh* mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\n"
						 "f -3 -2 -1\n"
						 "v 5 5 5\nv 6 5 5\nv 5 6 5\n"
						 "f -1 -2 -3\n"
						 "f -6/-1 2//-3 -1/1/1 -4\n");
	assertCounts(mesh, 6, 4, 3);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	assertTriangle(mesh, 1, 5, 4, 3, 1);
	assertTriangle(mesh, 2, 0, 1, 5, 2);
	assertTriangle(mesh, 3, 0, 5, 2, 2);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 5), 5.0, 6.0, 5.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_extra_vertex_values)
{
	bcMesh* mesh = parse("v 1 2 3 0.5 0.25 0.125\n" /* colours */
						 "v 4 5 6 1.0\n" /* w */
						 "v 7 8 9 whatever else\n"
						 "f 1 2 3\n");
	assertCounts(mesh, 3, 1, 1);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 0), 1.0, 2.0, 3.0, 0.0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 1), 4.0, 5.0, 6.0, 0.0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 2), 7.0, 8.0, 9.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_ignored_lines)
{
	bcMesh* mesh = parse("# a comment\n"
						 "mtllib scene.mtl\n"
						 "o thing\n"
						 "g group one\n"
						 "\n"
						 "   \n"
						 "s off\n"
						 "usemtl red\n"
						 "v 0 0 0 # trailing comment\n"
						 "v 1 0 0#tight comment\n"
						 "vt 0.5 0.5\n"
						 "vn 0 0 1\n"
						 "vp 0.1 0.2\n"
						 "v 0 1 0\n"
						 "l 1 2\n"
						 "p 1\n"
						 "curv2 1 2 3\n" /* unknown keywords are skipped */
						 "vx 1 2 3\n" /* so is a keyword that merely starts with v */
						 "f1 2 3\n" /* or with f */
						 "fo o bar \\\n" /* with its continuation line */
						 "f 9 9 9\n"
						 "f 1 2 3 # the only face\n"
						 "#f 1 2 3\n");
	assertCounts(mesh, 3, 1, 1);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_line_endings_and_blanks)
{
	bcMesh* mesh = parse("v 0 0 0\r\nv\t1\t0 0\r\n\r\n  v  0 1 0 \r\n\tf 1\t2 3");
	assertCounts(mesh, 3, 1, 1);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 1), 1.0, 0.0, 0.0, 0.0);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_missing_final_newline)
{
	bcMesh* mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 7 8 9.5");
	assertCounts(mesh, 4, 1, 1);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 3), 7.0, 8.0, 9.5, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_continuation)
{
	bcMesh* mesh = parse("v 0 0 0\nv 1 \\\n 0 0\nv 1 1\\\n 0\nv 0 1 \\\r\n0\r\n"
						 "f 1 2 \\\n3 4\n"
						 "f 1 \\\n\\\n 2 3\n");
	assertCounts(mesh, 4, 3, 2);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 1), 1.0, 0.0, 0.0, 0.0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 2), 1.0, 1.0, 0.0, 0.0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, 3), 0.0, 1.0, 0.0, 0.0);
	assertTriangle(mesh, 0, 0, 1, 2, 0);
	assertTriangle(mesh, 1, 0, 2, 3, 0);
	assertTriangle(mesh, 2, 0, 1, 2, 1);
	bcMesh_Destroy(mesh);

	/* a '\' inside a comment does not continue the line */
	mesh = parse("v 0 0 0 # note \\\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	assertCounts(mesh, 3, 1, 1);
	bcMesh_Destroy(mesh);

	/* a '\' at the very end of the text */
	mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 \\");
	assertCounts(mesh, 3, 1, 1);
	bcMesh_Destroy(mesh);

	/* errors after a continuation report the physical line and column */
	expectError("v 0 0 0\nv 1 \\\n  x 0\n", bc_errorSyntax, 3, 3, "expected a number, found 'x'");
	expectError("v 0 0 0\nf 1 \\\r\n 1 \\\n   7\n", bc_errorIndex, 4, 4, "vertex index 7 out of range");
	expectError("v 0 0 0\nf 1 \\\n 1\n", bc_errorSyntax, 2, 1, "at least 3 vertices, found 2");
	/* a '\' not at the end of a line is part of a token */
	expectError("v 0 0 0\\ 1\n", bc_errorSyntax, 1, 7, "expected a number, found '0\\'");
}
END_TEST

START_TEST(test_byte_order_mark)
{
	bcMesh* mesh = parse("\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	assertCounts(mesh, 3, 1, 1);
	bcMesh_Destroy(mesh);
	/* columns on line 1 count from after the mark */
	expectError("\xef\xbb\xbfv 0 x 0\n", bc_errorSyntax, 1, 5, "found 'x'");
	/* a mark elsewhere is not skipped */
	expectError("v 0 0 0\n\xef\xbb\xbf"
				"f 1 1 1\n",
				bc_errorEmpty, 0, 0, "no faces");
}
END_TEST

/* --------------------------------------------------------------- numbers */

START_TEST(test_numbers)
{
	static const char* const numbers[] = {
		"0.1",
		"-0.1",
		"0.3",
		"1e-320", /* subnormal */
		"4.9406564584124654e-324",
		"2.4703282292062327e-324", /* half the least subnormal: rounds to it */
		"2.4703282292062328e-324",
		"1e-400", /* underflows to zero: finite, accepted */
		"123456789012345678",
		"12345678901234567890123",
		"9007199254740993", /* 2^53 + 1: a tie, to even */
		"9007199254740995",
		"1.7976931348623157e308",
		"2.2250738585072014e-308",
		"2.2250738585072011e-308",
		"0.1000000000000000055511151231257827021181583404541015625",
		"3.14159265358979323846264338327950288",
		"-0",
		"-0.0e5",
		"0e999999999999",
		"+1.5",
		".5",
		"5.",
		"1E+2",
		"1e-2",
		"-12.5e-3",
		"000000000000000000000000012.5",
		"0.000000000000000000000000000001",
		"1e22",
		"1e23",
		"8.98846567431158e307",
		"0x1.8p1", /* strtod reads hexadecimal floats too */
		/* 16..19 digits where rounding first to 64 bits, then to 53, would
		 * be one ulp off: the reader must notice and defer to strtod */
		"3808155499831.5729e27",
		"58478992640.75601697e-2",
		"659141.456172973325",
		"28951.63449187990e-15",
		"420.970855272507416e-2",
		"98568367.38131708652",
		".97996878822845640",
		"310605143.673504740",
	};
	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; ++i) {
		assertSameDouble(parseX(numbers[i]), strtod(numbers[i], NULL), numbers[i]);
	}
	/* DBL_MAX's leading digits written out in full: 309 digits, slow path */
	char longest[320] = "17976931348623157";
	memset(longest + 17, '0', 292);
	longest[309] = '\0';
	assertSameDouble(parseX(longest), DBL_MAX, "17976931348623157 and 292 zeros");
	ck_assert(signbit(parseX("-0")));
	ck_assert(parseX("1e-320") > 0.0 && parseX("1e-320") < DBL_MIN);
	assertSameDouble(parseX("0.1"), 0.1, "0.1");
	assertSameDouble(parseX("123456789012345678"), 123456789012345680.0, "123456789012345678");
}
END_TEST

/* A small deterministic generator, so failures reproduce. */
static uint64_t nextRandom(uint64_t* state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A random decimal: sign, 1..25 digits with a point somewhere (or none),
 * an exponent (none, small, or anywhere in the double range). */
static void randomDecimal(uint64_t* state, char* out)
{
	char* p = out;
	uint64_t r = nextRandom(state);
	if (r % 3 == 0) {
		*p++ = '-';
	}
	int digits = 1 + (int)(nextRandom(state) % 25);
	if (r % 4 == 1) {
		digits = 1 + (int)(nextRandom(state) % 7); /* typical exporter output */
	}
	int point = (int)(nextRandom(state) % (uint64_t)(digits + 2)) - 1;
	for (int i = 0; i < digits; ++i) {
		if (i == point) {
			*p++ = '.';
		}
		*p++ = (char)('0' + nextRandom(state) % 10);
	}
	switch ((r >> 8) % 4) {
	case 0:
		break;
	case 1:
		p += sprintf(p, "e%d", (int)(nextRandom(state) % 61) - 30);
		break;
	case 2:
		p += sprintf(p, "E%+d", (int)(nextRandom(state) % 601) - 320);
		break;
	default:
		p += sprintf(p, "e%d", (int)(nextRandom(state) % 11) - 5);
		break;
	}
	*p = '\0';
}

/* Random decimals parse bitwise like strtod. The vertices go through one OBJ
 * text, three per v line. */
START_TEST(test_random_numbers_match_strtod)
{
	enum { count = 3000 }; /* vertices, three numbers each */
	uint64_t state = 0x9e3779b97f4a7c15u;
	char(*numbers)[64] = malloc(3 * count * sizeof *numbers);
	char* text = malloc(3 * count * 66 + 64);
	ck_assert_ptr_nonnull(numbers);
	ck_assert_ptr_nonnull(text);
	char* p = text;
	for (int i = 0; i < 3 * count; ++i) {
		do {
			randomDecimal(&state, numbers[i]);
		} while (!isfinite(strtod(numbers[i], NULL)));
		p += sprintf(p, i % 3 == 0 ? "v %s" : (i % 3 == 1 ? " %s" : " %s\n"), numbers[i]);
	}
	strcpy(p, "f 1 2 3\n");
	bcMesh* mesh = parse(text);
	assertCounts(mesh, count, 1, 1);
	for (int i = 0; i < count; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		assertSameDouble(v.x, strtod(numbers[3 * i], NULL), numbers[3 * i]);
		assertSameDouble(v.y, strtod(numbers[3 * i + 1], NULL), numbers[3 * i + 1]);
		assertSameDouble(v.z, strtod(numbers[3 * i + 2], NULL), numbers[3 * i + 2]);
	}
	bcMesh_Destroy(mesh);
	free(text);
	free(numbers);
}
END_TEST

/* In a locale whose decimal point is ',' numbers still use '.'. Runs when
 * such a locale is installed (each test runs in its own process). */
START_TEST(test_comma_locale)
{
	static const char* const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8",
										   "it_IT.UTF-8", "es_ES.UTF-8", "ru_RU.UTF-8", "de_DE" };
	const char* found = NULL;
	for (size_t i = 0; i < sizeof locales / sizeof locales[0] && found == NULL; ++i) {
		if (setlocale(LC_NUMERIC, locales[i]) != NULL && strcmp(localeconv()->decimal_point, ".") != 0) {
			found = locales[i];
		}
	}
	if (found == NULL) {
		fprintf(stderr, "test_comma_locale: no locale with a ',' decimal point installed; skipped\n");
		return;
	}
	/* the short ones take the fast path, the long ones go through strtod */
	bcMesh* mesh = parse("v 1.5 0.25 -2.5\n"
						 "v 1.00000000000000000000001 2.5000000000000000000000001 -0.0\n"
						 "v 0x1.8p1 3.14159265358979323846 1e-320\n"
						 "f 1 2 3\n");
	bcVec3 a = bcMesh_GetVertex(mesh, 0);
	bcVec3 b = bcMesh_GetVertex(mesh, 1);
	bcVec3 c = bcMesh_GetVertex(mesh, 2);
	assertSameDouble(a.x, 1.5, "1.5");
	assertSameDouble(a.y, 0.25, "0.25");
	assertSameDouble(a.z, -2.5, "-2.5");
	assertSameDouble(b.x, 1.0, "1.00000000000000000000001");
	assertSameDouble(b.y, 2.5, "2.5000000000000000000000001");
	assertSameDouble(b.z, -0.0, "-0.0");
	assertSameDouble(c.x, 3.0, "0x1.8p1");
	assertSameDouble(c.y, 3.141592653589793, "3.14159265358979323846");
	assertSameDouble(c.z, 1e-320, "1e-320");
	bcMesh_Destroy(mesh);
	/* the locale's own decimal point is not accepted */
	expectError("v 1,5 0 0\n", bc_errorSyntax, 1, 3, "found '1,5'");
	expectError("v 1,00000000000000000000001 0 0\n", bc_errorSyntax, 1, 3, "expected a number");
	expectError("v 0 1.5e400 0\n", bc_errorValue, 1, 5, "not finite");
	setlocale(LC_NUMERIC, "C");
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(test_index_errors)
{
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n", bc_errorIndex, 4, 5,
				"face index 0 is not allowed (OBJ indices start at 1)");
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2  9\n", bc_errorIndex, 5, 8,
				"vertex index 9 out of range: 4 vertices defined so far");
	/* a vertex defined later does not count */
	expectError("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", bc_errorIndex, 3, 7,
				"vertex index 3 out of range: 2 vertices defined so far");
	expectError("v 0 0 0\nf 1 1 2\n", bc_errorIndex, 2, 7, "vertex index 2 out of range: 1 vertex defined so far");
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -5\n", bc_errorIndex, 4, 9,
				"relative index -5 reaches before the first vertex");
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/1/-0\nf 1 2 -0\n", bc_errorIndex, 5, 7, "face index 0");
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999999999\n", bc_errorIndex, 4, 7,
				"vertex index 99999999999999999999999999 out of range");
	expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1 2/2/2 4/3/3\n", bc_errorIndex, 4, 15, "vertex index 4");
	expectError("f 1 2 3\n", bc_errorIndex, 1, 3, "0 vertices defined so far");
}
END_TEST

START_TEST(test_syntax_errors)
{
	expectError("v 1 2 x\n", bc_errorSyntax, 1, 7, "expected a number, found 'x'");
	expectError("v 1 2\nf 1 1 1\n", bc_errorSyntax, 1, 6, "expected a number, found the end of the line");
	expectError("v 1 2", bc_errorSyntax, 1, 6, "found the end of the line");
	expectError("v 1 2 # three?\n", bc_errorSyntax, 1, 7, "found a comment");
	expectError("v\n", bc_errorSyntax, 1, 2, "expected a number");
	expectError("v 1 2 3\nv 1.5.3 0 0\n", bc_errorSyntax, 2, 3, "found '1.5.3'");
	expectError("v 1,5 0 0\n", bc_errorSyntax, 1, 3, "found '1,5'");
	expectError("v 1e 0 0\n", bc_errorSyntax, 1, 3, "found '1e'");
	expectError("v - 0 0\n", bc_errorSyntax, 1, 3, "found '-'");
	expectError("v . 0 0\n", bc_errorSyntax, 1, 3, "found '.'");
	expectError("v 1 2 3\nv 1 2 3\nv 1 2 3\nf 1 2\n", bc_errorSyntax, 4, 1, "a face needs at least 3 vertices, found 2");
	expectError("v 1 2 3\nf\n", bc_errorSyntax, 2, 1, "found 0");
	expectError("v 1 2 3\n  f 1 1 # one\n", bc_errorSyntax, 2, 3, "found 2");
	expectError("v 1 2 3\nf 1 a 3\n", bc_errorSyntax, 2, 5, "expected a vertex index, found 'a'");
	expectError("v 1 2 3\nf 1 1 +1\n", bc_errorSyntax, 2, 7, "found '+1'");
	expectError("v 1 2 3\nf 1 1x 1\n", bc_errorSyntax, 2, 5, "malformed face vertex '1x'");
	expectError("v 1 2 3\nf 1 1/ 1\n", bc_errorSyntax, 2, 5, "malformed face vertex '1/'");
	expectError("v 1 2 3\nf 1 1/2/ 1\n", bc_errorSyntax, 2, 5, "malformed face vertex '1/2/'");
	expectError("v 1 2 3\nf 1 1/x/2 1\n", bc_errorSyntax, 2, 5, "malformed face vertex '1/x/2'");
	expectError("v 1 2 3\nf 1 1//2/3 1\n", bc_errorSyntax, 2, 5, "malformed face vertex");
	expectError("v 1 2 3\nf 1 1 1.0\n", bc_errorSyntax, 2, 7, "malformed face vertex '1.0'");
	/* long tokens are cut in the message */
	expectError("v 1 2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", bc_errorSyntax, 1, 7,
				"found 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
	/* control bytes are shown as '?' */
	expectError("v 1 2 3\x01\n", bc_errorSyntax, 1, 7, "found '3?'");
}
END_TEST

START_TEST(test_value_errors)
{
	expectError("v 1 2 3\nv nan 0 0\n", bc_errorValue, 2, 3, "coordinate is not finite");
	expectError("v 1 inf 0\n", bc_errorValue, 1, 5, "coordinate is not finite: 'inf'");
	expectError("v 1 0 -Infinity\n", bc_errorValue, 1, 7, "coordinate is not finite");
	expectError("v 1e400 0 0\n", bc_errorValue, 1, 3, "coordinate is not finite: '1e400'");
	expectError("v 0 -1.8e308 0\n", bc_errorValue, 1, 5, "coordinate is not finite");
	expectError("v 0 0 NAN(123)\n", bc_errorValue, 1, 7, "coordinate is not finite");
}
END_TEST

START_TEST(test_empty)
{
	expectError("", bc_errorEmpty, 0, 0, "no faces");
	expectError("\n\n# nothing\n", bc_errorEmpty, 0, 0, "no faces");
	expectError("\xef\xbb\xbf", bc_errorEmpty, 0, 0, "no faces");
	expectError("v 1 2 3\nv 4 5 6\n", bc_errorEmpty, 0, 0, "2 vertices and no f lines");

	bcError error;
	memset(&error, 0, sizeof error);
	ck_assert_ptr_null(bcMesh_ParseObj(NULL, 0, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	ck_assert_ptr_null(bcMesh_ParseObj(NULL, 5, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert_ptr_null(bcMesh_ParseObj("", 0, NULL, NULL)); /* error may be NULL */
}
END_TEST

START_TEST(test_too_large)
{
	/* the copy built above allows 4 vertices and 4 triangles */
	bcError error;
	bcMesh* mesh = parseWith(smallParseObj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3 4 1 2\n", &error);
	ck_assert_ptr_nonnull(mesh);
	assertCounts(mesh, 4, 4, 1);
	bcMesh_Destroy(mesh);
	expectErrorWith(smallParseObj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n\n  v 2 2 2\n", bc_errorTooLarge, 6, 3,
					"too many vertices: at most 4");
	expectErrorWith(smallParseObj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3 1 2 3\n", bc_errorTooLarge, 5, 13,
					"too many triangles: at most 4");
	/* the real limit is the public one */
	ck_assert_int_eq(BC_MAX_ELEMENTS, INT32_MAX);
}
END_TEST

/* ------------------------------------------------------------------ files */

/* Write text to dir/name; the path goes to path[size]. */
static void writeFile(char* path, size_t size, const char* dir, const char* name, const char* text)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE* file = fopen(path, "wb");
	ck_assert_ptr_nonnull(file);
	ck_assert_int_eq(fwrite(text, 1, strlen(text), file), strlen(text));
	ck_assert_int_eq(fclose(file), 0);
}

START_TEST(test_load_file)
{
	char dir[] = "/tmp/ballcast-obj-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	char missing[256];

	writeFile(path, sizeof path, dir, "quad.obj", "\xef\xbb\xbfv 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\nf 1 2 3 4");
	bcError error;
	memset(&error, 0, sizeof error);
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	assertCounts(mesh, 4, 2, 1);
	assertTriangle(mesh, 1, 0, 2, 3, 0);
	bcMesh_Destroy(mesh);
	ck_assert_int_eq(unlink(path), 0);

	/* errors from a file carry the same positions */
	writeFile(path, sizeof path, dir, "bad.obj", "v 0 0 0\nv 0 0 0\nf 1 2 -3\n");
	ck_assert_ptr_null(bcMesh_LoadObj(path, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorIndex);
	ck_assert_int_eq(error.line, 3);
	ck_assert_int_eq(error.column, 7);
	ck_assert_ptr_null(strstr(error.message, "bad.obj"));
	ck_assert_int_eq(unlink(path), 0);

	writeFile(path, sizeof path, dir, "empty.obj", "");
	ck_assert_ptr_null(bcMesh_LoadObj(path, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	ck_assert_int_eq(unlink(path), 0);

	/* a missing file */
	snprintf(missing, sizeof missing, "%s/missing.obj", dir);
	memset(&error, 0, sizeof error);
	ck_assert_ptr_null(bcMesh_LoadObj(missing, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_int_eq(error.record, -1);
	char expected[256];
	snprintf(expected, sizeof expected, "cannot open: %s", strerror(ENOENT));
	ck_assert_str_eq(error.message, expected);

	/* a directory */
	memset(&error, 0, sizeof error);
	ck_assert_ptr_null(bcMesh_LoadObj(dir, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	snprintf(expected, sizeof expected, "cannot read: %s", strerror(EISDIR));
	ck_assert_str_eq(error.message, expected);

	/* an unreadable file (root reads anything, so only as another user) */
	if (geteuid() != 0) {
		writeFile(path, sizeof path, dir, "secret.obj", "v 0 0 0\nf 1 1 1\n");
		ck_assert_int_eq(chmod(path, 0), 0);
		memset(&error, 0, sizeof error);
		ck_assert_ptr_null(bcMesh_LoadObj(path, NULL, &error));
		ck_assert_int_eq(error.code, bc_errorIo);
		snprintf(expected, sizeof expected, "cannot open: %s", strerror(EACCES));
		ck_assert_str_eq(error.message, expected);
		ck_assert_int_eq(unlink(path), 0);
	}

	ck_assert_ptr_null(bcMesh_LoadObj(NULL, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A pipe has no size to map: the reader falls back to read() and grows its
 * buffer (the text is larger than the first 64 KB). */
START_TEST(test_load_fifo)
{
	char dir[] = "/tmp/ballcast-obj-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/pipe.obj", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	enum { vertexCount = 20000 };
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		FILE* file = fopen(path, "wb");
		if (file == NULL) {
			_exit(1);
		}
		for (int i = 0; i < vertexCount; ++i) {
			fprintf(file, "v %d 0.5 -%d\n", i, i);
		}
		fprintf(file, "f 1 2 -1\n");
		_exit(fclose(file) == 0 ? 0 : 1);
	}
	bcError error;
	memset(&error, 0, sizeof error);
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	assertCounts(mesh, vertexCount, 1, 1);
	assertTriangle(mesh, 0, 0, 1, vertexCount - 1, 0);
	bcAssertVecNear(bcMesh_GetVertex(mesh, vertexCount - 1), vertexCount - 1.0, 0.5, 1.0 - vertexCount, 0.0);
	bcMesh_Destroy(mesh);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST


/* ---------------------------------------------------------------- threads */

/* A growable text for generated OBJ files. */
typedef struct objText {
	char* data;
	size_t length;
	size_t capacity;
} objText;

static void appendText(objText* text, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void appendText(objText* text, const char* format, ...)
{
	for (;;) {
		va_list args;
		va_start(args, format);
		int needed = vsnprintf(text->data + text->length, text->capacity - text->length, format, args);
		va_end(args);
		if (needed < 0) {
			ck_abort_msg("vsnprintf failed");
		}
		if ((size_t)needed < text->capacity - text->length) {
			text->length += (size_t)needed;
			return;
		}
		text->capacity = 2 * text->capacity + (size_t)needed + 64;
		text->data = realloc(text->data, text->capacity);
		if (text->data == NULL) {
			ck_abort_msg("out of memory");
		}
	}
}

/* A random double printed in one of the formats exporters use. */
static void appendRandomNumber(objText* text, uint64_t* state)
{
	uint64_t r = nextRandom(state);
	double value = (double)(int64_t)(nextRandom(state) >> 11) / 9007199254740992.0;
	value *= pow(10.0, (double)((int)(r % 13) - 6));
	if ((r >> 8) % 2 == 0) {
		value = -value;
	}
	switch ((r >> 16) % 9) {
	case 0:
		appendText(text, "%.17g", value);
		break;
	case 1:
		appendText(text, "%.9g", value);
		break;
	case 2:
		appendText(text, "%g", value);
		break;
	case 3:
		appendText(text, "%.6f", value);
		break;
	case 4:
		appendText(text, "%.3e", value);
		break;
	case 5:
		appendText(text, "%.17E", value);
		break;
	case 6:
		appendText(text, "%d", (int)(r >> 32) % 2000 - 1000);
		break;
	case 7:
		appendText(text, "+%.12g", fabs(value));
		break;
	default:
		appendText(text, "%.25g", value); /* more than 19 digits: strtod */
		break;
	}
}

/* A blank between tokens: spaces or tabs, sometimes a continuation. */
static void appendBlank(objText* text, uint64_t* state)
{
	uint64_t r = nextRandom(state) % 40;
	if (r == 0) {
		appendText(text, " \\\n  ");
	} else if (r == 1) {
		appendText(text, "\t\\\r\n");
	} else if (r == 2) {
		appendText(text, " \t ");
	} else {
		appendText(text, " ");
	}
}

static void appendLineEnd(objText* text, uint64_t* state)
{
	uint64_t r = nextRandom(state) % 12;
	appendText(text, r == 0 ? "\r\n" : (r == 1 ? " # note \\\n" : (r == 2 ? "  \n" : "\n")));
}

/* Append one valid logical line given vertexCount vertices so far; returns
 * the vertices it adds (0 or 1). */
static int appendRandomLine(objText* text, uint64_t* state, int32_t vertexCount)
{
	uint64_t r = nextRandom(state) % 100;
	if (r < 45 || vertexCount == 0) {
		appendText(text, nextRandom(state) % 20 == 0 ? "  v" : "v");
		for (int k = 0; k < 3; ++k) {
			appendBlank(text, state);
			appendRandomNumber(text, state);
		}
		if (nextRandom(state) % 10 == 0) {
			appendText(text, " 0.5 0.25 1"); /* colours, ignored */
		}
		appendLineEnd(text, state);
		return 1;
	}
	if (r < 80) {
		int corners = 3 + (int)(nextRandom(state) % 4);
		appendText(text, "f");
		for (int k = 0; k < corners; ++k) {
			appendBlank(text, state);
			uint64_t pick = nextRandom(state);
			int32_t back = 1 + (int32_t)(pick % (uint64_t)(vertexCount < 40 ? vertexCount : 40));
			long index = (pick >> 32) % 3 == 0 ? -(long)back : (long)(vertexCount - back + 1);
			if ((pick >> 40) % 5 == 0) {
				index = 1 + (long)((pick >> 8) % (uint64_t)vertexCount); /* anywhere before */
			}
			switch ((pick >> 48) % 4) {
			case 0:
				appendText(text, "%ld", index);
				break;
			case 1:
				appendText(text, "%ld/%d", index, (int)(pick % 7) + 1);
				break;
			case 2:
				appendText(text, "%ld//-%d", index, (int)(pick % 5) + 1);
				break;
			default:
				appendText(text, "%ld/%d/%d", index, (int)(pick % 3) + 1, (int)(pick % 9) + 1);
				break;
			}
		}
		appendLineEnd(text, state);
		return 0;
	}
	static const char* const others[] = {
		"# a comment\n", "\n", "   \t\n", "vt 0.5 0.25\n", "vn 0 0 1\r\n", "g group one\n", "usemtl red\n",
		"o thing \\\n  continued\n", "s off\n", "l 1 2\n", "# ends in a backslash \\\n", "\r\n", "vx 1 2 3\n",
	};
	appendText(text, "%s", others[nextRandom(state) % (sizeof others / sizeof others[0])]);
	return 0;
}

/* Bad lines, each given the vertices defined so far (count, at least 1). */
static void appendBadLine(objText* text, int kind, int32_t count)
{
	switch (kind) {
	case 0:
		appendText(text, "v 1 2 x\n");
		break;
	case 1:
		appendText(text, "v 1 1e999 0\n");
		break;
	case 2:
		appendText(text, "f 1 %ld\n", (long)count);
		break;
	case 3:
		appendText(text, "f 1 0 1\n");
		break;
	case 4:
		appendText(text, "f 1 1 %ld\n", (long)count + 1); /* one past the last vertex */
		break;
	case 5:
		appendText(text, "f -%ld 1 1\n", (long)count + 1); /* one before the first */
		break;
	case 6:
		appendText(text, "f 1 1x 1\n");
		break;
	case 7:
		appendText(text, "v 1 \\\r\n  2 # z?\n");
		break;
	case 8:
		appendText(text, "f 1 \\\n 1 \\\n  %ld/1\n", (long)count + 7);
		break;
	default:
		appendText(text, "f %ld %ld -%ld 99999999999999999999\n", (long)count, (long)count, (long)count);
		break;
	}
}
enum { objBadLineKinds = 10 };

/* A random text of lineCount lines with bad lines of the given kinds before
 * the given lines (badCount of them, lines in increasing order); the byte
 * offset of each bad line goes to badOffsets. The caller frees data. */
static objText randomObj(uint64_t seed, int lineCount, const int* badLines, const int* badKinds, int badCount,
						 size_t* badOffsets)
{
	objText text = { NULL, 0, 0 };
	appendText(&text, "%s", "");
	uint64_t state = seed;
	int32_t vertexCount = 0;
	int bad = 0;
	for (int line = 0; line < lineCount; ++line) {
		while (bad < badCount && badLines[bad] == line) {
			badOffsets[bad] = text.length;
			appendBadLine(&text, badKinds[bad], vertexCount > 0 ? vertexCount : 1);
			++bad;
		}
		vertexCount += appendRandomLine(&text, &state, vertexCount);
	}
	return text;
}

/* Both meshes hold the same bytes: counts, vertices, triangles, faces,
 * normals, bounds. */
static void assertSameMesh(const bcMesh* a, const bcMesh* b, const char* what)
{
	bcMeshInfo x = bcMesh_GetInfo(a);
	bcMeshInfo y = bcMesh_GetInfo(b);
	ck_assert_msg(x.vertexCount == y.vertexCount && x.triangleCount == y.triangleCount &&
					  x.faceCount == y.faceCount && x.degenerateCount == y.degenerateCount,
				  "%s: counts %d %d %d %d, expected %d %d %d %d", what, (int)y.vertexCount, (int)y.triangleCount,
				  (int)y.faceCount, (int)y.degenerateCount, (int)x.vertexCount, (int)x.triangleCount,
				  (int)x.faceCount, (int)x.degenerateCount);
	ck_assert_msg(memcmp(&x.lowerBound, &y.lowerBound, sizeof x.lowerBound) == 0 &&
					  memcmp(&x.upperBound, &y.upperBound, sizeof x.upperBound) == 0,
				  "%s: bounds differ", what);
	/* not ck_assert in the loops: check records every passing one */
	for (int32_t i = 0; i < x.vertexCount; ++i) {
		bcVec3 u = bcMesh_GetVertex(a, i);
		bcVec3 v = bcMesh_GetVertex(b, i);
		if (memcmp(&u, &v, sizeof u) != 0) {
			ck_abort_msg("%s: vertex %d differs", what, (int)i);
		}
	}
	for (int32_t i = 0; i < x.triangleCount; ++i) {
		bcTriangle s = bcMesh_GetTriangle(a, i);
		bcTriangle t = bcMesh_GetTriangle(b, i);
		if (memcmp(s.vertices, t.vertices, sizeof s.vertices) != 0 || s.face != t.face ||
			memcmp(&s.normal, &t.normal, sizeof s.normal) != 0 || s.degenerate != t.degenerate) {
			ck_abort_msg("%s: triangle %d = (%d %d %d) face %d, expected (%d %d %d) face %d", what, (int)i,
						 (int)t.vertices[0], (int)t.vertices[1], (int)t.vertices[2], (int)t.face, (int)s.vertices[0],
						 (int)s.vertices[1], (int)s.vertices[2], (int)s.face);
		}
	}
	/* and the same warnings, at the same places */
	ck_assert_msg(bcMesh_GetWarningCount(a) == bcMesh_GetWarningCount(b), "%s: %d warnings, expected %d", what,
				  (int)bcMesh_GetWarningCount(b), (int)bcMesh_GetWarningCount(a));
	for (int32_t i = 0; i < bcMesh_GetWarningCount(a) && i < BC_MAX_WARNINGS; ++i) {
		bcWarning u = bcMesh_GetWarning(a, i), v = bcMesh_GetWarning(b, i);
		if (u.code != v.code || u.line != v.line || u.column != v.column || u.record != v.record ||
			strcmp(u.message, v.message) != 0) {
			ck_abort_msg("%s: warning %d: %d at %ld:%ld face %ld \"%s\", expected %d at %ld:%ld face %ld \"%s\"", what,
						 (int)i, (int)v.code, v.line, v.column, v.record, v.message, (int)u.code, u.line, u.column,
						 u.record, u.message);
		}
	}
}

static void assertSameError(const bcError* expected, const bcError* got, const char* what)
{
	ck_assert_msg(expected->code == got->code && expected->line == got->line && expected->column == got->column &&
					  expected->record == got->record && strcmp(expected->message, got->message) == 0,
				  "%s: error %d at %ld:%ld \"%s\", expected %d at %ld:%ld \"%s\"", what, (int)got->code, got->line,
				  got->column, got->message, (int)expected->code, expected->line, expected->column,
				  expected->message);
}

/* Parse an exactly sized copy of text with parseFcn on threads threads. */
static bcMesh* parseOnThreads(bcMesh* (*parseFcn)(const char*, size_t, const bcObjOptions*, bcError*),
							  const char* text, size_t length, int threads, bcError* error)
{
	char* copy = malloc(length > 0 ? length : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, length);
	memset(error, 0, sizeof *error);
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = threads;
	bcMesh* mesh = parseFcn(copy, length, &options, error);
	free(copy);
	return mesh;
}

/* The reference is the library's reader on one thread; the small copy, cut
 * into 1-byte-minimum pieces, must give the same mesh or the same error on
 * 1, 2, 3 and 7 threads. Returns whether the text parsed. */
static bool assertSameOnThreads(const char* text, size_t length, const char* what)
{
	bcError expected;
	bcMesh* reference = parseOnThreads(bcMesh_ParseObj, text, length, 1, &expected);
	static const int threadCounts[] = { 1, 2, 3, 7 };
	for (size_t i = 0; i < sizeof threadCounts / sizeof threadCounts[0]; ++i) {
		char label[128];
		snprintf(label, sizeof label, "%s, %d threads", what, threadCounts[i]);
		bcError error;
		bcMesh* mesh = parseOnThreads(smallParseObj, text, length, threadCounts[i], &error);
		ck_assert_msg((mesh == NULL) == (reference == NULL), "%s: %s", label,
					  mesh == NULL ? error.message : expected.message);
		if (mesh != NULL) {
			assertSameMesh(reference, mesh, label);
		} else {
			assertSameError(&expected, &error, label);
		}
		bcMesh_Destroy(mesh);
	}
	bool parsed = reference != NULL;
	bcMesh_Destroy(reference);
	return parsed;
}

/* Which piece of count holds byte offset of text (cut as the reader cuts). */
static int pieceOf(const char* text, size_t length, int count, size_t offset)
{
	const char* starts[BC_MAX_THREADS + 1];
	int pieces = cutText(text, text + length, count, starts);
	int piece = 0;
	while (piece + 1 < pieces && text + offset >= starts[piece + 1]) {
		++piece;
	}
	return piece;
}

START_TEST(test_pieces_match)
{
	smallMaxElements = INT32_MAX;
	int parsed = 0;
	for (uint64_t seed = 1; seed <= 150; ++seed) {
		objText text = randomObj(seed * 0x9e3779b97f4a7c15u, 20 + (int)(seed % 90), NULL, NULL, 0, NULL);
		char what[64];
		snprintf(what, sizeof what, "text %d", (int)seed);
		parsed += assertSameOnThreads(text.data, text.length, what);
		/* and as a file, through the library's reader on several threads */
		free(text.data);
	}
	ck_assert_int_ge(parsed, 140); /* only texts without faces fail */
	/* a byte order mark, and no final newline */
	const char* marked = "\xef\xbb\xbfv 0 0 0\nv 1 0 0\r\nv 0 1 0\nf 1 2 3\nf -1 -2 -3";
	ck_assert(assertSameOnThreads(marked, strlen(marked), "marked"));
}
END_TEST

START_TEST(test_pieces_first_error)
{
	smallMaxElements = INT32_MAX;
	int twoPieces = 0;
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		uint64_t state = seed * 0xd1b54a32d192ed03u;
		int lineCount = 30 + (int)(nextRandom(&state) % 80);
		int lines[2];
		int kinds[2];
		lines[0] = 1 + (int)(nextRandom(&state) % (uint64_t)(lineCount - 1));
		lines[1] = lines[0] + (int)(nextRandom(&state) % (uint64_t)(lineCount - lines[0]));
		kinds[0] = (int)(nextRandom(&state) % objBadLineKinds);
		kinds[1] = (int)(nextRandom(&state) % objBadLineKinds);
		int badCount = seed % 3 == 0 ? 1 : 2;
		size_t offsets[2];
		objText text = randomObj(state, lineCount, lines, kinds, badCount, offsets);
		char what[64];
		snprintf(what, sizeof what, "text %d (bad lines %d, %d)", (int)seed, lines[0], lines[1]);
		ck_assert_msg(!assertSameOnThreads(text.data, text.length, what), "%s parsed", what);
		if (badCount == 2 && pieceOf(text.data, text.length, 2, offsets[0]) !=
								 pieceOf(text.data, text.length, 2, offsets[1])) {
			++twoPieces;
		}
		free(text.data);
	}
	/* errors in two pieces at once did happen, often */
	ck_assert_int_ge(twoPieces, 40);
}
END_TEST

START_TEST(test_pieces_cut_lines)
{
	/* the reader never cuts after a line ending in '\' (with or without CR) */
	uint64_t state = 42;
	for (int round = 0; round < 200; ++round) {
		objText text = { NULL, 0, 0 };
		appendText(&text, "%s", "");
		int lines = 5 + (int)(nextRandom(&state) % 60);
		for (int i = 0; i < lines; ++i) {
			static const char* const endings[] = { "\n", "\r\n", " \\\n", "\\\r\n", "\\\n", "#c\\\n", "\r\r\n" };
			appendText(&text, "v 1 2%s", endings[nextRandom(&state) % 7]);
		}
		const char* starts[BC_MAX_THREADS + 1];
		for (int count = 1; count <= 9; ++count) {
			int pieces = cutText(text.data, text.data + text.length, count, starts);
			ck_assert_int_ge(pieces, 1);
			ck_assert_int_le(pieces, count);
			ck_assert_ptr_eq(starts[0], text.data);
			ck_assert_ptr_eq(starts[pieces], text.data + text.length);
			for (int i = 1; i < pieces; ++i) {
				const char* cut = starts[i];
				ck_assert(cut > starts[i - 1]);
				ck_assert(cut[-1] == '\n');
				const char* last = cut - 1;
				if (last > text.data && last[-1] == '\r') {
					--last;
				}
				ck_assert(last == text.data || last[-1] != '\\');
			}
		}
		free(text.data);
	}
	/* one logical line, or no newline at all: one piece */
	const char* joined = "f 1 \\\n2 \\\n3 \\\r\n4\n";
	const char* starts[BC_MAX_THREADS + 1];
	ck_assert_int_eq(cutText(joined, joined + strlen(joined), 7, starts), 1);
	const char* single = "v 0 0 0 v 1 1 1";
	ck_assert_int_eq(cutText(single, single + strlen(single), 7, starts), 1);
	ck_assert_int_eq(cutText("", "", 7, starts), 1);

	/* so continued lines parse the same on any number of threads */
	smallMaxElements = INT32_MAX;
	objText text = { NULL, 0, 0 };
	appendText(&text, "%s", "");
	for (int i = 0; i < 40; ++i) {
		appendText(&text, "v %d \\\n %d \\\r\n %d\n", i, i % 3, i % 5);
		appendText(&text, i >= 2 ? "f -1 \\\n -2 \\\n -3 # c \\\n" : "# not yet\\\n");
	}
	ck_assert(assertSameOnThreads(text.data, text.length, "continued"));
	free(text.data);
}
END_TEST

/* Indices across pieces: later pieces use vertices of earlier ones by
 * positive and by negative indices, right up to the first vertex. */
START_TEST(test_pieces_indices)
{
	smallMaxElements = INT32_MAX;
	objText text = { NULL, 0, 0 };
	appendText(&text, "%s", "");
	for (int i = 0; i < 30; ++i) {
		appendText(&text, "v %d %d 0\n", i, i * i % 7);
	}
	for (int i = 0; i < 30; ++i) {
		appendText(&text, "f 1 -%d %d\nf -30 %d -1\n", 30 - i, 30 - i, i + 1);
	}
	appendText(&text, "v 9 9 9\nf -31 -1 31 1\n");
	ck_assert(assertSameOnThreads(text.data, text.length, "indices"));
	/* one too far back, as the last line: every piece before it is fine */
	appendText(&text, "f 1 2 -33\n");
	ck_assert(!assertSameOnThreads(text.data, text.length, "underflow"));
	bcError error;
	ck_assert_ptr_null(parseOnThreads(smallParseObj, text.data, text.length, 7, &error));
	ck_assert_int_eq(error.code, bc_errorIndex);
	ck_assert_int_eq(error.line, 93);
	ck_assert_int_eq(error.column, 7);
	ck_assert_str_eq(error.message, "relative index -33 reaches before the first vertex (31 vertices defined so far)");
	free(text.data);
}
END_TEST

/* The element limits hold for the whole text, wherever the pieces fall: the
 * small copy (limit 4) on several threads agrees with it on one. */
START_TEST(test_pieces_limits)
{
	smallMaxElements = 4;
	static const char* const texts[] = {
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n\n  v 2 2 2\n",
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3\nf 1 2 3\nf 1 2 3\nf 1 2 3\n",
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3 1 2 3\n",
		"v 0 0 0\nv 1 0 0\nf 1 2 1\nv 0 1 0\nv 1 1 0\nf 1 2 3 4\nf 1 2 3\n",
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3 4 1 2\n",
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\nv 1 1 0\nv 2 2 2\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
		bcError expected;
		bcMesh* reference = parseOnThreads(smallParseObj, texts[i], strlen(texts[i]), 1, &expected);
		for (int threads = 2; threads <= 7; ++threads) {
			char what[64];
			snprintf(what, sizeof what, "limit text %d, %d threads", (int)i, threads);
			bcError error;
			bcMesh* mesh = parseOnThreads(smallParseObj, texts[i], strlen(texts[i]), threads, &error);
			ck_assert_msg((mesh == NULL) == (reference == NULL), "%s", what);
			if (mesh != NULL) {
				assertSameMesh(reference, mesh, what);
			} else {
				assertSameError(&expected, &error, what);
			}
			bcMesh_Destroy(mesh);
		}
		bcMesh_Destroy(reference);
	}
}
END_TEST

/* The library itself on a text of several megabytes: pieces of its real
 * size, and normals and bounds on several threads. */
START_TEST(test_library_threads)
{
	enum { side = 220 }; /* a height field: side^2 vertices, 2 (side - 1)^2 triangles */
	objText text = { NULL, 0, 0 };
	appendText(&text, "%s", "");
	uint64_t state = 7;
	for (int y = 0; y < side; ++y) {
		for (int x = 0; x < side; ++x) {
			double height = (double)(nextRandom(&state) >> 11) / 9007199254740992.0 - 0.5;
			appendText(&text, "v %.17g %.17g %.17g\n", x * 0.1, y * 0.1, y == side / 2 ? 0.0 : height);
		}
	}
	for (int y = 0; y + 1 < side; ++y) {
		for (int x = 0; x + 1 < side; ++x) {
			int a = y * side + x + 1;
			if ((x + y) % 2 == 0) {
				appendText(&text, "f %d %d %d %d\n", a, a + 1, a + side + 1, a + side);
			} else {
				appendText(&text, "f %d/1 -%d//2 -%d\n", a, side * side - a, side * side - a - side);
			}
		}
	}
	ck_assert_uint_gt(text.length, (size_t)3 << 20); /* over 3 of the library's 1 MB pieces */
	bcError error;
	bcMesh* reference = parseOnThreads(bcMesh_ParseObj, text.data, text.length, 1, &error);
	ck_assert_msg(reference != NULL, "%s", error.message);
	static const int threadCounts[] = { 2, 3, 7, 0 };
	for (size_t i = 0; i < sizeof threadCounts / sizeof threadCounts[0]; ++i) {
		char what[64];
		snprintf(what, sizeof what, "library, %d threads", threadCounts[i]);
		bcMesh* mesh = parseOnThreads(bcMesh_ParseObj, text.data, text.length, threadCounts[i], &error);
		ck_assert_msg(mesh != NULL, "%s: %s", what, error.message);
		assertSameMesh(reference, mesh, what);
		bcMesh_Destroy(mesh);
	}
	bcMesh* plain = parseWith(bcMesh_ParseObj, text.data, &error);
	assertSameMesh(reference, plain, "bcMesh_ParseObj");
	bcMesh_Destroy(plain);

	/* an error near the end is found by the piece holding it */
	size_t goodLength = text.length;
	appendText(&text, "f 1 2 %d\n", side * side + 1);
	bcError expected;
	ck_assert_ptr_null(parseOnThreads(bcMesh_ParseObj, text.data, text.length, 1, &expected));
	ck_assert_int_eq(expected.line, side * side + (side - 1) * (side - 1) + 1);
	ck_assert_ptr_null(parseOnThreads(bcMesh_ParseObj, text.data, text.length, 3, &error));
	assertSameError(&expected, &error, "library, late error");

	/* and the same through a file */
	char dir[] = "/tmp/ballcast-obj-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	text.length = goodLength;
	text.data[text.length] = '\0';
	writeFile(path, sizeof path, dir, "field.obj", text.data);
	bcObjOptions options = { 3 };
	bcMesh* loaded = bcMesh_LoadObj(path, &options, &error);
	ck_assert_msg(loaded != NULL, "%s", error.message);
	assertSameMesh(reference, loaded, "bcMesh_LoadObj with options");
	bcMesh_Destroy(loaded);
	loaded = bcMesh_LoadObj(path, NULL, &error);
	ck_assert_msg(loaded != NULL, "%s", error.message);
	assertSameMesh(reference, loaded, "bcMesh_LoadObj, defaults");
	bcMesh_Destroy(loaded);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(bcDefaultObjOptions().threadCount, 0);
	bcMesh_Destroy(reference);
	free(text.data);
}
END_TEST

/* Random doubles printed as exporters print them read bitwise as strtod
 * reads them, through an OBJ text cut among threads. */
START_TEST(test_printed_doubles_match_strtod)
{
	smallMaxElements = INT32_MAX;
	enum { count = 20000 }; /* vertices */
	static const char* const formats[] = { "%.17g", "%.9g", "%g", "%.6f", "%.3e", "%.17e", "%.15g", "%.12g", "%.1f" };
	uint64_t state = 0x243f6a8885a308d3u;
	char(*numbers)[48] = malloc(3 * count * sizeof *numbers);
	char* text = malloc(3 * count * 50 + 64);
	ck_assert_ptr_nonnull(numbers);
	ck_assert_ptr_nonnull(text);
	char* p = text;
	for (int i = 0; i < 3 * count; ++i) {
		uint64_t r = nextRandom(&state);
		double value;
		if (i % 3 == 0) {
			/* any finite double */
			uint64_t bits = nextRandom(&state);
			memcpy(&value, &bits, sizeof value);
			if (!isfinite(value)) {
				value = 1.0;
			}
		} else {
			/* a coordinate between 1e-7 and 1e7 */
			value = (double)(nextRandom(&state) >> 11) / 9007199254740992.0 * pow(10.0, (double)((int)(r % 15) - 7));
		}
		value = (r >> 8) % 2 == 0 ? value : -value;
		snprintf(numbers[i], sizeof numbers[i], formats[(r >> 16) % 9], value);
		if (strlen(numbers[i]) >= 40) {
			snprintf(numbers[i], sizeof numbers[i], "%.17g", value);
		}
		p += sprintf(p, i % 3 == 0 ? "v %s" : (i % 3 == 1 ? " %s" : " %s\n"), numbers[i]);
	}
	strcpy(p, "f 1 2 3\n");
	bcError error;
	bcMesh* mesh = parseOnThreads(smallParseObj, text, strlen(text), 3, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	for (int i = 0; i < count; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		assertSameDouble(v.x, strtod(numbers[3 * i], NULL), numbers[3 * i]);
		assertSameDouble(v.y, strtod(numbers[3 * i + 1], NULL), numbers[3 * i + 1]);
		assertSameDouble(v.z, strtod(numbers[3 * i + 2], NULL), numbers[3 * i + 2]);
	}
	bcMesh_Destroy(mesh);
	free(text);
	free(numbers);
}
END_TEST

static Suite* objSuite(void)
{
	Suite* suite = suite_create("obj");
	TCase* structure = tcase_create("structure");
	tcase_add_test(structure, test_triangle);
	tcase_add_test(structure, test_fan_triangulation);
	tcase_add_test(structure, test_concave_polygons);
	tcase_add_test(structure, test_polygon_warnings);
	tcase_add_test(structure, test_corner_forms);
	tcase_add_test(structure, test_negative_indices);
	tcase_add_test(structure, test_extra_vertex_values);
	tcase_add_test(structure, test_ignored_lines);
	tcase_add_test(structure, test_line_endings_and_blanks);
	tcase_add_test(structure, test_missing_final_newline);
	tcase_add_test(structure, test_continuation);
	tcase_add_test(structure, test_byte_order_mark);
	suite_add_tcase(suite, structure);

	TCase* numbers = tcase_create("numbers");
	tcase_add_test(numbers, test_numbers);
	tcase_set_timeout(numbers, 60); /* a few seconds each under the sanitizers on a busy machine */
	tcase_add_test(numbers, test_random_numbers_match_strtod);
	tcase_add_test(numbers, test_comma_locale);
	tcase_add_test(numbers, test_printed_doubles_match_strtod);
	suite_add_tcase(suite, numbers);

	TCase* errors = tcase_create("errors");
	tcase_add_test(errors, test_index_errors);
	tcase_add_test(errors, test_syntax_errors);
	tcase_add_test(errors, test_value_errors);
	tcase_add_test(errors, test_empty);
	tcase_add_test(errors, test_too_large);
	tcase_add_test(errors, test_load_file);
	tcase_add_test(errors, test_load_fifo);
	suite_add_tcase(suite, errors);

	TCase* threads = tcase_create("threads");
	tcase_set_timeout(threads, 120); /* thousands of threads started: slow under the sanitizers */
	tcase_add_test(threads, test_pieces_match);
	tcase_add_test(threads, test_pieces_first_error);
	tcase_add_test(threads, test_pieces_cut_lines);
	tcase_add_test(threads, test_pieces_indices);
	tcase_add_test(threads, test_pieces_limits);
	tcase_add_test(threads, test_library_threads);
	suite_add_tcase(suite, threads);
	return suite;
}

int main(void)
{
	return bcRunSuite(objSuite());
}
