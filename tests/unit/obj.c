/* obj.c - unit tests of the OBJ reader (bcMesh_ParseObj, bcMesh_LoadObj). */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* A second copy of the reader with a tiny element limit, so the
 * bc_errorTooLarge paths run without 2^31 vertices. Its public functions are
 * renamed so they do not clash with the library's. */
#define BC_OBJ_MAX_ELEMENTS 4
#define bcMesh_ParseObj smallParseObj
#define bcMesh_LoadObj smallLoadObj
bcMesh* smallParseObj(const char* text, size_t length, bcError* error);
bcMesh* smallLoadObj(const char* path, bcError* error);
#include "../../lib/obj.c"
#undef bcMesh_ParseObj
#undef bcMesh_LoadObj

/* Parse a C string through an exactly sized heap copy (no terminator), so
 * the sanitizers catch any read past the end. */
static bcMesh* parseWith(bcMesh* (*parse)(const char*, size_t, bcError*), const char* text, bcError* error)
{
	size_t length = strlen(text);
	char* copy = malloc(length > 0 ? length : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, length);
	memset(error, 0, sizeof *error);
	bcMesh* mesh = parse(copy, length, error);
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
static void expectErrorWith(bcMesh* (*parseFcn)(const char*, size_t, bcError*), const char* text, bcErrorCode code,
							long line, long column, const char* messagePart)
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
	ck_assert_msg(a == b, "'%s' read as %.17g (%016llx), strtod gives %.17g (%016llx)", text, got,
				  (unsigned long long)a, expected, (unsigned long long)b);
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
	ck_assert_ptr_null(bcMesh_ParseObj(NULL, 0, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	ck_assert_ptr_null(bcMesh_ParseObj(NULL, 5, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	ck_assert_ptr_null(bcMesh_ParseObj("", 0, NULL)); /* error may be NULL */
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
	bcMesh* mesh = bcMesh_LoadObj(path, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	assertCounts(mesh, 4, 2, 1);
	assertTriangle(mesh, 1, 0, 2, 3, 0);
	bcMesh_Destroy(mesh);
	ck_assert_int_eq(unlink(path), 0);

	/* errors from a file carry the same positions */
	writeFile(path, sizeof path, dir, "bad.obj", "v 0 0 0\nv 0 0 0\nf 1 2 -3\n");
	ck_assert_ptr_null(bcMesh_LoadObj(path, &error));
	ck_assert_int_eq(error.code, bc_errorIndex);
	ck_assert_int_eq(error.line, 3);
	ck_assert_int_eq(error.column, 7);
	ck_assert_ptr_null(strstr(error.message, "bad.obj"));
	ck_assert_int_eq(unlink(path), 0);

	writeFile(path, sizeof path, dir, "empty.obj", "");
	ck_assert_ptr_null(bcMesh_LoadObj(path, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	ck_assert_int_eq(unlink(path), 0);

	/* a missing file */
	snprintf(missing, sizeof missing, "%s/missing.obj", dir);
	memset(&error, 0, sizeof error);
	ck_assert_ptr_null(bcMesh_LoadObj(missing, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_int_eq(error.record, -1);
	char expected[256];
	snprintf(expected, sizeof expected, "cannot open: %s", strerror(ENOENT));
	ck_assert_str_eq(error.message, expected);

	/* a directory */
	memset(&error, 0, sizeof error);
	ck_assert_ptr_null(bcMesh_LoadObj(dir, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	snprintf(expected, sizeof expected, "cannot read: %s", strerror(EISDIR));
	ck_assert_str_eq(error.message, expected);

	/* an unreadable file (root reads anything, so only as another user) */
	if (geteuid() != 0) {
		writeFile(path, sizeof path, dir, "secret.obj", "v 0 0 0\nf 1 1 1\n");
		ck_assert_int_eq(chmod(path, 0), 0);
		memset(&error, 0, sizeof error);
		ck_assert_ptr_null(bcMesh_LoadObj(path, &error));
		ck_assert_int_eq(error.code, bc_errorIo);
		snprintf(expected, sizeof expected, "cannot open: %s", strerror(EACCES));
		ck_assert_str_eq(error.message, expected);
		ck_assert_int_eq(unlink(path), 0);
	}

	ck_assert_ptr_null(bcMesh_LoadObj(NULL, &error));
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
	bcMesh* mesh = bcMesh_LoadObj(path, &error);
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

static Suite* objSuite(void)
{
	Suite* suite = suite_create("obj");
	TCase* structure = tcase_create("structure");
	tcase_add_test(structure, test_triangle);
	tcase_add_test(structure, test_fan_triangulation);
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
	tcase_add_test(numbers, test_random_numbers_match_strtod);
	tcase_add_test(numbers, test_comma_locale);
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
	return suite;
}

int main(void)
{
	return bcRunSuite(objSuite());
}
