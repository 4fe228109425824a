/* records.c - unit tests for the streaming record reader
 * (cli/records.h): JSON arrays, NDJSON, CSV, format detection,
 * positions of records and of errors, bad records and what stops the
 * reading, and input larger than the reader's buffer. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "records.h"

/* ------------------------------------------------------------- helpers */

/* A reader over text written to a temporary file. */
typedef struct testInput {
	FILE* file;
	cliReader* reader;
} testInput;

static testInput openBytes(const char* text, size_t length, cliInputFormat format)
{
	testInput input;
	input.file = tmpfile();
	ck_assert_ptr_nonnull(input.file);
	ck_assert_uint_eq(fwrite(text, 1, length, input.file), length);
	rewind(input.file);
	input.reader = cliReader_Create(input.file, "test", format);
	ck_assert_ptr_nonnull(input.reader);
	return input;
}

static testInput openText(const char* text, cliInputFormat format)
{
	return openBytes(text, strlen(text), format);
}

/* A reader over a file the caller has written (rewound here). */
static testInput openFile(FILE* file, cliInputFormat format)
{
	testInput input;
	rewind(file);
	input.file = file;
	input.reader = cliReader_Create(file, "big", format);
	ck_assert_ptr_nonnull(input.reader);
	return input;
}

static void closeInput(testInput* input)
{
	cliReader_Destroy(input->reader);
	fclose(input->file);
}

/* Same bits (so -0.0 differs from 0.0, and rounding shows). */
#define assertSame(got, expected)                                                                                      \
	do {                                                                                                               \
		double g_ = (got), e_ = (expected);                                                                            \
		ck_assert_msg(memcmp(&g_, &e_, sizeof g_) == 0, "%s = %.17g, expected %.17g", #got, g_, e_);                 \
	} while (0)

#define assertVec(v, ex, ey, ez)                                                                                       \
	do {                                                                                                               \
		assertSame((v).x, (ex));                                                                                       \
		assertSame((v).y, (ey));                                                                                       \
		assertSame((v).z, (ez));                                                                                       \
	} while (0)

/* The next record must come back (status 1). */
#define nextRecord(input, record)                                                                                      \
	do {                                                                                                               \
		bcError e_;                                                                                                    \
		int s_ = cliReader_Next((input).reader, (record), &e_);                                                        \
		ck_assert_msg(s_ == 1, "Next returned %d (%ld:%ld %s)", s_, e_.line, e_.column, s_ < 0 ? e_.message : "");  \
	} while (0)

/* The input must end here (status 0), twice. */
#define expectEnd(input)                                                                                               \
	do {                                                                                                               \
		cliRecord r_;                                                                                                  \
		bcError e_;                                                                                                    \
		for (int k_ = 0; k_ < 2; k_++) {                                                                               \
			int s_ = cliReader_Next((input).reader, &r_, &e_);                                                         \
			ck_assert_msg(s_ == 0, "Next returned %d (index %ld, %ld:%ld %s)", s_, r_.index, e_.line, e_.column,     \
						  s_ < 0 ? e_.message : "");                                                                  \
			cliRecord_Free(&r_);                                                                                       \
		}                                                                                                              \
	} while (0)

/* Next must fail with a syntax (or other) error at line:column whose
 * message contains text; and keep failing the same way. */
#define expectError(input, expectedCode, expectedLine, expectedColumn, text)                                          \
	do {                                                                                                               \
		cliRecord r_;                                                                                                  \
		bcError e_;                                                                                                    \
		for (int k_ = 0; k_ < 2; k_++) {                                                                               \
			int s_ = cliReader_Next((input).reader, &r_, &e_);                                                         \
			ck_assert_msg(s_ == -1, "Next returned %d, expected an error", s_);                                       \
			ck_assert_int_eq(e_.code, (expectedCode));                                                                 \
			ck_assert_msg(e_.line == (expectedLine) && e_.column == (expectedColumn),                                  \
						  "error at %ld:%ld, expected %d:%d (%s)", e_.line, e_.column, (int)(expectedLine),          \
						  (int)(expectedColumn), e_.message);                                                         \
			ck_assert_msg(strstr(e_.message, (text)) != NULL, "message '%s' lacks '%s'", e_.message, (text));         \
			ck_assert_int_eq(e_.record, -1);                                                                           \
			ck_assert_ptr_null(r_.id);                                                                                 \
		}                                                                                                              \
	} while (0)

#define expectSyntax(input, line, column, text) expectError(input, bc_errorSyntax, line, column, text)

/* The next record must be a bad one (reading goes on) whose error is at
 * line:column and contains text. */
#define expectBad(input, expectedLine, expectedColumn, text)                                                          \
	do {                                                                                                               \
		cliRecord r_;                                                                                                  \
		bcError e_;                                                                                                    \
		int s_ = cliReader_Next((input).reader, &r_, &e_);                                                             \
		ck_assert_msg(s_ == 1, "Next returned %d (%ld:%ld %s), expected a bad record", s_, e_.line, e_.column,       \
					  s_ < 0 ? e_.message : "");                                                                      \
		ck_assert_msg(r_.errorLine == (expectedLine) && r_.errorColumn == (expectedColumn) &&                         \
						  strstr(r_.error, (text)) != NULL,                                                            \
					  "record error '%s' at %ld:%ld, expected '%s' at %d:%d", r_.error, r_.errorLine, r_.errorColumn,  \
					  (text), (int)(expectedLine), (int)(expectedColumn));                                            \
		cliRecord_Free(&r_);                                                                                           \
	} while (0)

/* The first problem reading text meets, a bad record's or one that stops
 * the reading: 1 (a bad record) or -1 (stopped) with its place and
 * message; 0 when there is none. */
static int firstProblem(cliReader* reader, long* line, long* column, char* message, size_t size)
{
	for (;;) {
		cliRecord r;
		bcError e;
		int status = cliReader_Next(reader, &r, &e);
		if (status < 0) {
			*line = e.line;
			*column = e.column;
			snprintf(message, size, "%s", e.message);
			return -1;
		}
		if (status == 0) {
			return 0;
		}
		bool bad = r.error[0] != '\0';
		if (bad) {
			*line = r.errorLine;
			*column = r.errorColumn;
			snprintf(message, size, "%s", r.error);
		}
		cliRecord_Free(&r);
		if (bad) {
			return 1;
		}
	}
}

/* The first problem of text[0 .. length) (read as format) is at
 * line:column and its message holds message. */
static void expectFirstProblemIn(const char* text, size_t length, cliInputFormat format, long line, long column,
								 const char* message)
{
	testInput in = openBytes(text, length, format);
	long l = 0, c = 0;
	char found[256] = "";
	int status = firstProblem(in.reader, &l, &c, found, sizeof found);
	ck_assert_msg(status != 0 && l == line && c == column && strstr(found, message) != NULL,
				  "%.60s: problem %d at %ld:%ld '%s', expected %ld:%ld '%s'", text, status, l, c, found, line, column,
				  message);
	closeInput(&in);
}

static void expectFirstProblem(const char* text, long line, long column, const char* message)
{
	expectFirstProblemIn(text, strlen(text), cli_inputAuto, line, column, message);
}

/* Read one record of a one-record text and check its error message. */
static void expectRecordError(const char* text, cliInputFormat format, const char* message)
{
	testInput in = openText(text, format);
	cliRecord record;
	nextRecord(in, &record);
	ck_assert_msg(strcmp(record.error, message) == 0, "%s: error '%s', expected '%s'", text, record.error, message);
	cliRecord_Free(&record);
	expectEnd(in);
	closeInput(&in);
}

/* ---------------------------------------------------------- JSON array */

START_TEST(jsonArrayFields)
{
	testInput in = openText("[\n"
							"  {\"id\": \"a\", \"p0\": [1, 2, 3], \"p1\": [4.5, -0.0, 1e-300], \"r\": 0.25},\n"
							"  {\"id\": 7, \"p\": [0.1, 0.2, 0.3], \"v\": [-1,2e3,3.75], \"mass\": 2, \"extra\": {}},\n"
							"  {}\n"
							"]\n",
							cli_inputAuto);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputJson);
	ck_assert_int_eq(r.index, 0);
	ck_assert_int_eq(r.line, 2);
	ck_assert_int_eq(r.column, 3);
	ck_assert_int_eq(r.idKind, cli_idString);
	ck_assert_str_eq(r.id, "a");
	ck_assert_uint_eq(r.fields, cli_fieldP0 | cli_fieldP1 | cli_fieldRadius);
	assertVec(r.p0, 1.0, 2.0, 3.0);
	assertVec(r.p1, 4.5, -0.0, 1e-300);
	assertSame(r.radius, 0.25);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	ck_assert_ptr_null(r.id);
	ck_assert_uint_eq(r.fields, 0);

	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_int_eq(r.line, 3);
	ck_assert_int_eq(r.column, 3);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "7");
	ck_assert_uint_eq(r.fields, cli_fieldP | cli_fieldVelocity | cli_fieldMass);
	assertVec(r.p, 0.1, 0.2, 0.3);
	assertVec(r.velocity, -1.0, 2000.0, 3.75);
	assertSame(r.mass, 2.0);
	assertVec(r.p0, 0.0, 0.0, 0.0);
	assertSame(r.radius, 0.0);
	cliRecord_Free(&r);

	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 2);
	ck_assert_int_eq(r.line, 4);
	ck_assert_int_eq(r.idKind, cli_idIndex);
	ck_assert_ptr_null(r.id);
	ck_assert_uint_eq(r.fields, 0);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonEmptyArray)
{
	const char* texts[] = { "[]", "[ ]", "  \r\n[\n\t]\r\n  ", "\xEF\xBB\xBF[]" };
	for (int k = 0; k < 4; k++) {
		testInput in = openText(texts[k], cli_inputAuto);
		expectEnd(in);
		ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputJson);
		closeInput(&in);
	}
	testInput in = openText("[]", cli_inputJson);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* Nothing but blanks (or a byte order mark) is no records in every format:
 * an empty batch. Unnamed, it reads as NDJSON, an empty stream of lines; a
 * named format stays. */
START_TEST(emptyInput)
{
	const char* texts[] = { "", " \n\t\r\n  ", "\xEF\xBB\xBF", "\xEF\xBB\xBF\n" };
	cliInputFormat formats[] = { cli_inputAuto, cli_inputJson, cli_inputNdjson, cli_inputCsv };
	cliInputFormat read[] = { cli_inputNdjson, cli_inputJson, cli_inputNdjson, cli_inputCsv };
	for (int k = 0; k < 4; k++) {
		for (int f = 0; f < 4; f++) {
			testInput in = openText(texts[k], formats[f]);
			expectEnd(in);
			expectEnd(in);
			ck_assert_int_eq(cliReader_GetFormat(in.reader), read[f]);
			closeInput(&in);
		}
	}
}
END_TEST

START_TEST(numericIdsExact)
{
	testInput in = openText("[{\"id\": 12345678901234567890}, {\"id\":1.50}, {\"id\": -0},\n"
							"{\"id\": 1E+2 , \"r\": 1}, {\"id\": 1e400}, {\"id\": -0.000e-0}]",
							cli_inputAuto);
	const char* expected[] = { "12345678901234567890", "1.50", "-0", "1E+2", "1e400", "-0.000e-0" };
	for (int k = 0; k < 6; k++) {
		cliRecord r;
		nextRecord(in, &r);
		ck_assert_int_eq(r.index, k);
		ck_assert_int_eq(r.idKind, cli_idNumber);
		ck_assert_str_eq(r.id, expected[k]);
		ck_assert_str_eq(r.error, "");
		cliRecord_Free(&r);
	}
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(stringIdsDecoded)
{
	testInput in = openText("[{\"id\": \"a\\\"b\\\\c\\u00e9\\n\\ud83d\\ude00\\/\\t\"},"
							" {\"id\": \"\"}, {\"id\": \"12\"}, {\"id\": \"caf\xc3\xa9\"}]",
							cli_inputAuto);
	const char* expected[] = { "a\"b\\c\xc3\xa9\n\xf0\x9f\x98\x80/\t", "", "12", "caf\xc3\xa9" };
	for (int k = 0; k < 4; k++) {
		cliRecord r;
		nextRecord(in, &r);
		ck_assert_int_eq(r.idKind, cli_idString);
		ck_assert_str_eq(r.id, expected[k]);
		cliRecord_Free(&r);
	}
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* The raw text of a number id is found at the top level only, past nested
 * objects and strings that mention "id", and through escaped keys. */
START_TEST(numericIdFoundAtTopLevel)
{
	testInput in = openText("[{\"meta\": {\"id\": 5, \"x\": [{\"id\": 6}, \"id\"]}, \"note\": \"\\\"id\\\": 7, \\\"id\\\"\",\n"
							" \"i\\u0064\": 42.0e0, \"id\": 9},\n"
							" {\"idx\": 1, \"ID\": 2, \"id\" : -3.25E-2 }]",
							cli_inputJson);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "42.0e0");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "-3.25E-2");
	ck_assert_int_eq(r.line, 3);
	ck_assert_int_eq(r.column, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* A key with an escaped NUL names no field: cJSON's C string for it stops
 * at the NUL, so "p\u00000" must not read as "p", nor "r\u0000x" as an "r"
 * that would set "radius" aside. Escaped keys that do spell a field count. */
START_TEST(keysWithEscapedNulNameNothing)
{
	testInput in = openText("{\"p\\u00000\": [1, 2, 3], \"p1\": [4, 5, 6], \"r\\u0000x\": 7, \"radius\": 0.5}\n"
							"{\"\\u0070\": [1, 2, 3], \"\\\\u0000\": 1, \"r\": 2}\n",
							cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_uint_eq(r.fields, cli_fieldP1 | cli_fieldRadius);
	ck_assert(r.p.x == 0.0 && r.p.y == 0.0 && r.p.z == 0.0);
	ck_assert(r.radius == 0.5);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_uint_eq(r.fields, cli_fieldP | cli_fieldRadius);
	ck_assert(r.p.x == 1.0 && r.p.z == 3.0);
	ck_assert(r.radius == 2.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonFieldErrors)
{
	struct {
		const char* text;
		const char* message;
	} cases[] = {
		{ "[{\"id\": true}]", "id: expected a string or a number" },
		{ "[{\"id\": null}]", "id: expected a string or a number" },
		{ "[{\"id\": [1]}]", "id: expected a string or a number" },
		{ "[{\"p0\": [1, 2]}]", "p0: expected an array of 3 numbers" },
		{ "[{\"p0\": [1, 2, 3, 4]}]", "p0: expected an array of 3 numbers" },
		{ "[{\"p1\": [1, \"2\", 3]}]", "p1: expected an array of 3 numbers" },
		{ "[{\"p\": \"1,2,3\"}]", "p: expected an array of 3 numbers" },
		{ "[{\"v\": []}]", "v: expected an array of 3 numbers" },
		{ "[{\"p1\": [1, 1e400, 3]}]", "p1: not a finite number" },
		{ "[{\"v\": [-1e999, 0, 0]}]", "v: not a finite number" },
		{ "[{\"r\": -0.5}]", "r: must not be negative" },
		{ "[{\"r\": 1e400}]", "r: not a finite number" },
		{ "[{\"r\": \"1\"}]", "r: expected a number" },
		{ "[{\"radius\": -2}]", "radius: must not be negative" },
		{ "[{\"mass\": 0}]", "mass: must be positive" },
		{ "[{\"mass\": -1}]", "mass: must be positive" },
		{ "[{\"mass\": 1e400}]", "mass: not a finite number" },
		{ "[{\"p0\": [1], \"r\": -1, \"id\": {}}]", "p0: expected an array of 3 numbers" },
		{ "[{\"r\": -1, \"p0\": [1]}]", "r: must not be negative" },
		{ "[1]", "record is not a JSON object" },
		{ "[[{\"id\": 1}]]", "record is not a JSON object" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		expectRecordError(cases[k].text, cli_inputAuto, cases[k].message);
	}
}
END_TEST

/* Non-objects and bad fields give records with errors; reading goes on and
 * every record counts in index. */
START_TEST(jsonBadRecordsCounted)
{
	testInput in = openText("[1, \"x\", [], null, true, {\"id\": 1, \"p0\": [1,2]}, {\"id\": \"ok\", \"r\": 3}]",
							cli_inputAuto);
	cliRecord r;
	for (int k = 0; k < 5; k++) {
		nextRecord(in, &r);
		ck_assert_int_eq(r.index, k);
		ck_assert_str_eq(r.error, "record is not a JSON object");
		ck_assert_int_eq(r.idKind, cli_idIndex);
		cliRecord_Free(&r);
	}
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 5);
	ck_assert_str_eq(r.id, "1");
	ck_assert_str_eq(r.error, "p0: expected an array of 3 numbers");
	ck_assert_uint_eq(r.fields, 0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 6);
	ck_assert_int_eq(r.column, 50);
	ck_assert_str_eq(r.id, "ok");
	assertSame(r.radius, 3.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonRadiusAndDuplicates)
{
	testInput in = openText("[{\"radius\": -1, \"r\": 2}, {\"radius\": 3}, {\"r\": 1, \"r\": -1, \"radius\": 5},\n"
							" {\"p0\": [1,2,3], \"p0\": \"bad\", \"id\": \"first\", \"id\": 2},"
							" {\"P0\": [1,2,3], \"foo\": {\"r\": -1}, \"R\": -1}]",
							cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_uint_eq(r.fields, cli_fieldRadius);
	assertSame(r.radius, 2.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	assertSame(r.radius, 3.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	assertSame(r.radius, 1.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	assertVec(r.p0, 1.0, 2.0, 3.0);
	ck_assert_str_eq(r.id, "first");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_uint_eq(r.fields, 0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* NaN and Infinity make their record bad, at the token; reading goes on,
 * in an array too (the scanner finds where the element ends). */
START_TEST(jsonNaNLiteral)
{
	testInput in = openText("[{\"r\": NaN}, {\"r\": 2}]", cli_inputAuto);
	expectBad(in, 1, 8, "NaN and Infinity");
	cliRecord r;
	nextRecord(in, &r);
	assertSame(r.radius, 2.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
	in = openText("[{\"id\": 1},\n {\"id\": \"b\", \"p0\": [-Infinity, 0, 0]}]", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	/* the bad record keeps the id read before the problem */
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_str_eq(r.id, "b");
	ck_assert_int_eq(r.errorLine, 2);
	ck_assert_int_eq(r.errorColumn, 21);
	ck_assert_str_eq(r.error, "NaN and Infinity are not JSON numbers");
	ck_assert_uint_eq(r.fields, 0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
	in = openText("{\"r\": Infinity}\n", cli_inputAuto);
	expectBad(in, 1, 7, "NaN and Infinity");
	expectEnd(in);
	closeInput(&in);
	in = openText("[nan]", cli_inputAuto);
	expectBad(in, 1, 2, "NaN and Infinity");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonTruncated)
{
	const char* text = "[{\"id\": 1, \"p0\": [1, 2";
	testInput in = openText(text, cli_inputAuto);
	expectSyntax(in, 1, (long)strlen(text) + 1, "unexpected end of input");
	closeInput(&in);

	in = openText("[\n{\"id\": 1}\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 3, 1, "unexpected end of input: expected ',' or ']'");
	closeInput(&in);

	in = openText("[{\"id\": 1},", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 1, 12, "expected an element after ','");
	closeInput(&in);

	in = openText("[", cli_inputAuto);
	expectSyntax(in, 1, 2, "expected an element or ']'");
	closeInput(&in);

	in = openText("[{\"id\": \"abc", cli_inputAuto);
	expectSyntax(in, 1, 9, "unterminated string");
	closeInput(&in);

	in = openText("[{\"id\": tr", cli_inputAuto);
	expectSyntax(in, 1, 11, "unexpected end of input");
	closeInput(&in);

	in = openText("[{\"id\": 12", cli_inputAuto);
	expectSyntax(in, 1, 11, "unexpected end of input");
	closeInput(&in);
}
END_TEST

START_TEST(jsonTrailingGarbage)
{
	testInput in = openText("[{\"id\": 1}] x", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 1, 13, "unexpected data after the closing ']'");
	closeInput(&in);

	in = openText("[]\n\n  []", cli_inputAuto);
	expectSyntax(in, 3, 3, "unexpected data after the closing ']'");
	closeInput(&in);

	in = openText("[] \r\n\t \n", cli_inputAuto);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonSeparators)
{
	/* missing comma: the first record comes back, then the error */
	testInput in = openText("[{\"id\": 1}\n {\"id\": 2}]", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "1");
	cliRecord_Free(&r);
	expectSyntax(in, 2, 2, "expected ',' or ']' after an element");
	closeInput(&in);

	in = openText("[{\"id\": 1},]", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 1, 12, "expected an element after ','");
	closeInput(&in);

	/* an element the scanner delimits is a bad record; a broken bracket stops the reading */
	in = openText("[,{\"id\": 1}]", cli_inputAuto);
	expectBad(in, 1, 2, "unexpected ','");
	closeInput(&in);

	in = openText("[{\"id\" 1}]", cli_inputAuto);
	expectBad(in, 1, 8, "unexpected '1' (expected ':' after a key)");
	expectEnd(in);
	closeInput(&in);

	in = openText("[{\"a\": [1, 2}]", cli_inputAuto);
	expectSyntax(in, 1, 13, "unexpected '}'");
	closeInput(&in);

	in = openText("[1 2]", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 1, 4, "expected ',' or ']'");
	closeInput(&in);

	/* a token runs to the next delimiter: one bad number */
	in = openText("[12abc]", cli_inputAuto);
	expectBad(in, 1, 2, "invalid JSON number '12abc'");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

static char* nested(const char* before, int depth, const char* after)
{
	size_t n = strlen(before) + 2 * (size_t)depth + strlen(after) + 1;
	char* text = malloc(n);
	ck_assert_ptr_nonnull(text);
	char* p = text;
	p += sprintf(p, "%s", before);
	memset(p, '[', (size_t)depth);
	p += depth;
	memset(p, ']', (size_t)depth);
	p += depth;
	sprintf(p, "%s", after);
	return text;
}

START_TEST(jsonDeepNesting)
{
	/* 2000 levels inside the array: the element's 1001st '[' fails */
	char* text = nested("[", 2000, "]");
	testInput in = openText(text, cli_inputAuto);
	expectSyntax(in, 1, 1002, "nesting deeper than 1000 levels");
	closeInput(&in);
	free(text);

	/* 1000 levels in one element is cJSON's limit and still fine */
	text = nested("[{\"x\":", 999, "}]");
	in = openText(text, cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
	free(text);

	text = nested("[{\"x\":", 1000, "}]");
	in = openText(text, cli_inputAuto);
	expectSyntax(in, 1, 1006, "nesting deeper than 1000 levels");
	closeInput(&in);
	free(text);

	/* in NDJSON the line is a bad record, and the next line is read */
	text = nested("{\"x\":", 2000, "}\n{}\n");
	in = openText(text, cli_inputAuto);
	expectBad(in, 1, 1005, "nesting deeper than 1000 levels");
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 2);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
	free(text);
}
END_TEST

START_TEST(jsonBadStrings)
{
	testInput in = openText("[{\"id\": \"ab\\qc\"}]", cli_inputAuto);
	expectBad(in, 1, 12, "invalid escape sequence");
	closeInput(&in);
	in = openText("[{\"id\":\n  \"x\\u12G4\"}]", cli_inputAuto);
	expectBad(in, 2, 5, "invalid escape sequence");
	closeInput(&in);
	in = openText("{\"id\": \"\\\\\\ud83d\\ude00\\\\u00zz\"}\n{\"p\": \"\\u00zz\"}", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "\\\xf0\x9f\x98\x80\\u00zz");
	cliRecord_Free(&r);
	expectBad(in, 2, 8, "invalid escape sequence");
	closeInput(&in);
	in = openText("[{\"id\": \"\\udc00\"}]", cli_inputAuto);
	expectBad(in, 1, 10, "invalid escape sequence");
	closeInput(&in);
	in = openText("{\"a\":1,\n\"k\\x\": 2}", cli_inputAuto);
	expectBad(in, 2, 3, "invalid escape sequence");
	closeInput(&in);
	/* a raw line break or tab in a string is no JSON (cJSON would keep it) */
	in = openText("[{\"id\": \"a\tb\"}, {\"id\": \"a\nb\"}]", cli_inputAuto);
	expectBad(in, 1, 11, "control character 0x09 in a string (write it as an escape)");
	expectBad(in, 1, 26, "control character 0x0A in a string (write it as an escape)");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* A number id that is not JSON is never taken (it would be echoed raw). */
START_TEST(jsonBadNumberId)
{
	testInput in = openText("[{\"id\": 007}]", cli_inputAuto);
	cliRecord r;
	cliReader_Next(in.reader, &r, NULL);
	ck_assert_str_eq(r.error, "invalid JSON number '007'");
	ck_assert_int_eq(r.idKind, cli_idIndex);
	ck_assert_ptr_null(r.id);
	cliRecord_Free(&r);
	closeInput(&in);
	in = openText("{\"r\": 1,\n \"id\": 1.}", cli_inputAuto);
	expectBad(in, 2, 8, "invalid JSON number '1.'");
	closeInput(&in);
	in = openText("{\"id\": -.5}", cli_inputAuto);
	expectBad(in, 1, 8, "invalid JSON number");
	closeInput(&in);
}
END_TEST

/* cJSON reads a key that is not a string one byte too far: the error is
 * at the key itself, and only in an object's key position. */
START_TEST(jsonNonStringKey)
{
	expectFirstProblem("[{\"id\":1,,\"p0\":[0,0,1],\"p1\":[0,0,0],\"r\":1}]", 1, 10, "unexpected ','");
	expectFirstProblem("[{1:2}]", 1, 3, "unexpected '1'");
	expectFirstProblem("[{\"a\": 1,\n  }]", 2, 3, "expected a key after ','");
	expectFirstProblem("{\"a\": {\"b\": [1, 2], \r\n\t true: 1}}\n", 2, 3, "unexpected 't'");
	expectFirstProblem("[{\"a\": {,}}]", 1, 9, "unexpected ','");
	expectFirstProblem("[{ NaN: 1}]", 1, 4, "unexpected 'N'");
	/* not a key: after ',' in an array, and after a value in an object */
	expectFirstProblem("[{\"a\": [1,,2]}]", 1, 11, "unexpected ','");
	expectFirstProblem("[{\"a\": [1,2x]}]", 1, 11, "invalid JSON number '2x'");
	expectFirstProblem("[{\"a\": 1 2}]", 1, 10, "unexpected '2'");
	expectFirstProblem("[{\"a,\": \"{,\" ,}]", 1, 15, "expected a key after ','");
}
END_TEST

/* Numbers outside JSON's grammar, which cJSON takes (strtod), are syntax
 * errors at their first byte, wherever they are in a record. */
START_TEST(jsonBadNumbers)
{
	static const struct {
		const char* text;
		int line, column;
		const char* message;
	} cases[] = {
		{ "[{\"id\":1,\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-2],\"r\":01}]", 1, 53, "invalid JSON number '01'" },
		{ "[{\"p0\": [0, 1., 2]}]", 1, 13, "invalid JSON number '1.'" },
		{ "[{\"p1\": [0, 0,\n -.5]}]", 2, 2, "invalid JSON number '-.5'" },
		{ "[{\"mass\": .5}]", 1, 11, "invalid JSON number '.5'" },
		{ "[{\"r\": +1}]", 1, 8, "invalid JSON number '+1'" },
		{ "[{\"r\": 1e}]", 1, 8, "invalid JSON number '1e'" },
		{ "[{\"r\": 2E+}]", 1, 8, "invalid JSON number '2E+'" },
		{ "[{\"r\": 1.e5}]", 1, 8, "invalid JSON number '1.e5'" },
		{ "[{\"r\": 1.5.3}]", 1, 8, "invalid JSON number '1.5.3'" },
		{ "[{\"r\": -01.5}]", 1, 8, "invalid JSON number '-01.5'" },
		{ "[{\"x\": {\"y\": [1, [2, 00]]}}]", 1, 22, "invalid JSON number '00'" },
		{ "[{\"v\": [0,0,0]}, {\"r\": 1, \"id\": 0}, 01]", 1, 37, "invalid JSON number '01'" },
		{ "{\"r\": 1}\n\n  {\"r\": 1.}\n", 3, 9, "invalid JSON number '1.'" },
		{ "{\"r\": 1}\n007\n", 2, 1, "invalid JSON number '007'" },
		{ "{01: 1}\n", 1, 2, "unexpected '0' (expected a key in double quotes)" },
		/* a token runs to the next delimiter: all of it is the bad number */
		{ "[{\"r\": 0x10}]", 1, 8, "invalid JSON number '0x10'" },
		{ "[{\"r\": 1, \"p\": [1, 2, 3]} 01]", 1, 27, "expected ',' or ']'" },
		/* the first error wins */
		{ "[{\"s\": \"\\q\", \"r\": 01}]", 1, 9, "invalid escape sequence" },
		{ "[{\"r\": 01, \"s\": \"\\q\"}]", 1, 8, "invalid JSON number '01'" },
		{ "[{\"r\": 01, \"s\": \"\\u12G4\"}]", 1, 8, "invalid JSON number '01'" },
		{ "[{\"p0\": [-Infinity, 01, 0]}]", 1, 10, "NaN and Infinity" },
		{ "[{\"p0\": [01, -Infinity, 0]}]", 1, 10, "invalid JSON number '01'" },
		{ "[{\"a\": 1,, \"r\": 01}]", 1, 10, "unexpected ','" },
		/* a number cut off by the end of the input is a truncation */
		{ "[{\"r\": 1.", 1, 10, "unexpected end of input" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		expectFirstProblem(cases[k].text, cases[k].line, cases[k].column, cases[k].message);
	}

	/* valid numbers of every shape still read */
	testInput in = openText("[{\"id\": -0.0e-0, \"p0\": [0, -0, 1E+2], \"p1\": [10.25, 1e-300, -7E3],"
							" \"r\": 0.5e1, \"x\": [[-1.5e10, {\"y\": 100}]]}]",
							cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_str_eq(r.id, "-0.0e-0");
	assertVec(r.p0, 0.0, -0.0, 100.0);
	assertVec(r.p1, 10.25, 1e-300, -7000.0);
	assertSame(r.radius, 5.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* Bytes below 0x20 but tab, LF and CR are allowed nowhere in JSON (cJSON
 * skips them as white space and keeps them in strings): a syntax error at
 * the byte, in a value or between values, in an array or in NDJSON. (A
 * hex escape takes every hex digit after it: "\x01" "7" is two bytes.) */
START_TEST(jsonControlBytes)
{
#define CONTROL_CASE(text, line, column, message) { text, sizeof text - 1, line, column, message }
	static const struct {
		const char* text;
		size_t length;
		int line, column;
		const char* message;
	} cases[] = {
		/* before a number id, whose text was echoed raw (the fuzzer's finds) */
		CONTROL_CASE("{\"id\":\x01" "7,\"p0\":[0.25,0.25,2],\"r\":0.5}\n", 1, 7, "invalid JSON: unexpected byte 0x01"),
		CONTROL_CASE("{\"id\":\0" "7}\n", 1, 7, "invalid JSON: unexpected byte 0x00"),
		/* inside values: between tokens, in a key, in a number, in a string */
		CONTROL_CASE("[{\"r\": 1,\x10\"id\": 2}]", 1, 10, "invalid JSON: unexpected byte 0x10"),
		CONTROL_CASE("{\"i\x01" "d\": 1}\n", 1, 4, "control character 0x01 in a string"),
		CONTROL_CASE("[{\"r\": 1\x01" "5}]", 1, 9, "invalid JSON: unexpected byte 0x01"),
		CONTROL_CASE("[{\"id\": 1},\n {\"id\": \"a\x1f" "b\"}]", 2, 11, "control character 0x1F in a string"),
		CONTROL_CASE("[{\"id\": \"a\\\x02\"}]", 1, 11, "invalid escape sequence in a string"),
		CONTROL_CASE("{\"a\": [1, {\"b\":\x0b[]}]}\n", 1, 16, "invalid JSON: unexpected byte 0x0B"),
		/* between values: NDJSON records, array elements, after the array */
		CONTROL_CASE("{\"id\": 1}\x0b{\"id\": 2}\n", 1, 10, "invalid JSON: unexpected byte 0x0B"),
		CONTROL_CASE("{\"id\": 1}\n\x0c{\"id\": 2}\n", 2, 1, "invalid JSON: unexpected byte 0x0C"),
		CONTROL_CASE("{\"id\": 1} \0\n", 1, 11, "invalid JSON: unexpected byte 0x00"),
		CONTROL_CASE("[{\"id\": 1}\x1b, {\"id\": 2}]", 1, 11, "invalid JSON: unexpected byte 0x1B"),
		CONTROL_CASE("[{\"id\": 1},\r\n\t\x07{\"id\": 2}]", 2, 2, "invalid JSON: unexpected byte 0x07"),
		CONTROL_CASE("[\x01]", 1, 2, "invalid JSON: unexpected byte 0x01"),
		CONTROL_CASE("[{\"id\": 1}]\n \x01", 2, 2, "invalid JSON: unexpected byte 0x01"),
		/* the first error wins */
		CONTROL_CASE("[{\"r\": 01,\x01}]", 1, 8, "invalid JSON number '01'"),
		CONTROL_CASE("[{\"s\": \"\\q\x01\"}]", 1, 9, "invalid escape sequence"),
		CONTROL_CASE("[{\"a\": 1,, \x01}]", 1, 10, "unexpected ','"),
		CONTROL_CASE("[{\"a\": 1, x\x01}]", 1, 11, "unexpected 'x'"),
	};
#undef CONTROL_CASE
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		expectFirstProblemIn(cases[k].text, cases[k].length, cli_inputAuto, cases[k].line, cases[k].column,
							 cases[k].message);
	}

	/* a value that is only a control byte, in explicit NDJSON: a bad line */
	testInput in = openBytes("\x01\n{}\n", 5, cli_inputNdjson);
	expectBad(in, 1, 1, "invalid JSON: unexpected byte 0x01");
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	/* far beyond the first read: the record is read again after more input */
	enum { longId = 100000 };
	char* text = malloc(longId + 16);
	ck_assert_ptr_nonnull(text);
	memcpy(text, "{\"id\":\"", 7);
	memset(text + 7, 'a', longId);
	memcpy(text + 7 + longId, "\x1f\"}\n", 3);
	in = openBytes(text, 7 + longId + 3, cli_inputAuto);
	expectBad(in, 1, 7 + longId + 1, "control character 0x1F in a string");
	closeInput(&in);
	free(text);

	/* tab, LF and CR are white space between tokens (but not in strings,
	 * where JSON wants them escaped); DEL (0x7F) is no control byte to JSON */
	in = openText("{\"id\":\t7,\r\n\"r\":\n1}\n{\"id\": \"a\\tb\x7f\"}\n{\"id\": \"a\tb\"}", cli_inputAuto);
	nextRecord(in, &r);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "7");
	assertSame(r.radius, 1.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "a\tb\x7f");
	cliRecord_Free(&r);
	expectBad(in, 5, 10, "control character 0x09 in a string (write it as an escape)");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(jsonExplicitFormat)
{
	testInput in = openText("\n  {\"id\": 1}", cli_inputJson);
	expectSyntax(in, 2, 3, "expected '[' at the start of a JSON array");
	closeInput(&in);
	in = openText("id\n1\n", cli_inputJson);
	expectSyntax(in, 1, 1, "expected '['");
	closeInput(&in);
}
END_TEST

/* ------------------------------------------------------------- NDJSON */

START_TEST(ndjsonLines)
{
	testInput in = openText("{\"id\": 1, \"p0\": [1,2,3]}\r\n"
							"\r\n"
							"  {\"id\": \"two\",\r\n"
							"   \"r\": 2}\n"
							"\n"
							"{\"id\":3}",
							cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputNdjson);
	ck_assert_int_eq(r.index, 0);
	ck_assert_int_eq(r.line, 1);
	ck_assert_int_eq(r.column, 1);
	ck_assert_str_eq(r.id, "1");
	assertVec(r.p0, 1.0, 2.0, 3.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_int_eq(r.line, 3);
	ck_assert_int_eq(r.column, 3);
	ck_assert_str_eq(r.id, "two");
	assertSame(r.radius, 2.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 2);
	ck_assert_int_eq(r.line, 6);
	ck_assert_int_eq(r.column, 1);
	ck_assert_str_eq(r.id, "3");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* A line that is not one JSON value is one bad record, and the next line
 * is read: values glued together, a value cut off, a missing '}', a word. */
START_TEST(ndjsonErrors)
{
	testInput in = openText("{\"id\":1}{\"id\":2}\n{}", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "expected whitespace or a new line after a JSON value");
	ck_assert_int_eq(r.errorLine, 1);
	ck_assert_int_eq(r.errorColumn, 9);
	ck_assert_str_eq(r.id, "1");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 2);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("{\"id\": 1}\n[1, 2]\n\"x\"\n", cli_inputAuto);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_int_eq(r.line, 2);
	ck_assert_str_eq(r.error, "record is not a JSON object");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 2);
	ck_assert_str_eq(r.error, "record is not a JSON object");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("{\"id\": 1}\n{\"id\": 2", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectBad(in, 2, 9, "unexpected end of input");
	expectEnd(in);
	closeInput(&in);

	/* a missing '}': the record is cut short at its line's end (not at the
	 * next record's '{', issue 22); that next record is read */
	in = openText("{\"a\": 1\n{\"a\": 2}\n{\"a\": 3}\n", cli_inputAuto);
	expectBad(in, 1, 8, "invalid JSON: the record is cut short: its line ends inside a JSON value");
	for (int k = 2; k <= 3; ++k) {
		nextRecord(in, &r);
		ck_assert_int_eq(r.line, k);
		ck_assert_str_eq(r.error, "");
		cliRecord_Free(&r);
	}
	expectEnd(in);
	closeInput(&in);

	in = openText("{\"id\": 1}\nnope\n", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectBad(in, 2, 1, "invalid JSON value 'nope'");
	expectEnd(in);
	closeInput(&in);

	/* explicit NDJSON takes any values */
	in = openText("[1]\n{}", cli_inputNdjson);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "record is not a JSON object");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(byteOrderMark)
{
	testInput in = openText("\xEF\xBB\xBF[{\"id\":1}]", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 1);
	ck_assert_int_eq(r.column, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("\xEF\xBB\xBF{\"id\":1}\n{\"id\":2}", cli_inputAuto);
	nextRecord(in, &r);
	ck_assert_int_eq(r.column, 1);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputNdjson);
	closeInput(&in);

	in = openText("\xEF\xBB\xBFid,r\r\n1,2\r\n", cli_inputAuto);
	nextRecord(in, &r);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputCsv);
	ck_assert_str_eq(r.id, "1");
	assertSame(r.radius, 2.0);
	ck_assert_int_eq(r.line, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("\xEF\xBB\xBF[x]", cli_inputAuto);
	expectBad(in, 1, 2, "invalid JSON value 'x'");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* "fixed" (balls): a JSON boolean, or a CSV cell true, false, 1 or 0 (blanks
 * around it allowed, empty: not given); anything else is the record's error. */
START_TEST(fixedField)
{
	testInput in = openText("{\"fixed\": true}\n{\"fixed\": false}\n{\"r\": 1}\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_uint_eq(r.fields, cli_fieldFixed);
	ck_assert(r.fixed);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_uint_eq(r.fields, cli_fieldFixed);
	ck_assert(!r.fixed);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_uint_eq(r.fields, cli_fieldRadius);
	ck_assert(!r.fixed);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("id,fixed\na,true\nb,false\nc,1\nd, 0 \ne,\n", cli_inputAuto);
	const bool expected[] = { true, false, true, false };
	for (int k = 0; k < 5; k++) {
		nextRecord(in, &r);
		ck_assert_str_eq(r.error, "");
		ck_assert_uint_eq(r.fields, k < 4 ? (unsigned)cli_fieldFixed : 0u);
		ck_assert(r.fixed == (k < 4 && expected[k]));
		cliRecord_Free(&r);
	}
	expectEnd(in);
	closeInput(&in);

	static const struct {
		const char* text;
		const char* message;
	} cases[] = {
		{ "[{\"fixed\": 1}]", "fixed: expected true or false" },
		{ "[{\"fixed\": \"true\"}]", "fixed: expected true or false" },
		{ "[{\"fixed\": null}]", "fixed: expected true or false" },
		{ "fixed\nyes\n", "fixed: expected true, false, 1 or 0" },
		{ "fixed\n2\n", "fixed: expected true, false, 1 or 0" },
		{ "fixed\nTRUE\n", "fixed: expected true, false, 1 or 0" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		expectRecordError(cases[k].text, cli_inputAuto, cases[k].message);
	}
}
END_TEST

/* ---------------------------------------------------------------- CSV */

START_TEST(csvFields)
{
	testInput in = openText("id,x0,y0,z0,x1,y1,z1,r,extra,x,y,z,vx,vy,vz,mass\n"
							"a,1,2,3,4,5,6,0.5,whatever,-1,-2,-3,0.1,0.2,0.3,7\n"
							"\"b,\"\"c\"\"\",-1e-3, 2.5 ,3,,,,,,,,,,,,\n"
							"12345678901234567890,1,2,3,4,5,6,1,,,,,,,,\n"
							"\"1.50\",,,,,,,,\"x,\ny\",,,,,,,\n"
							"  spaced id  ,,,,,,,,,,,,,,,\n"
							"last,1e-300,-0,0,1,1,1,0,,,,,,,,",
							cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputCsv);
	ck_assert_int_eq(r.index, 0);
	ck_assert_int_eq(r.line, 2);
	ck_assert_int_eq(r.column, 1);
	ck_assert_int_eq(r.idKind, cli_idString);
	ck_assert_str_eq(r.id, "a");
	ck_assert_uint_eq(r.fields, cli_fieldP0 | cli_fieldP1 | cli_fieldP | cli_fieldRadius | cli_fieldVelocity |
									cli_fieldMass);
	assertVec(r.p0, 1.0, 2.0, 3.0);
	assertVec(r.p1, 4.0, 5.0, 6.0);
	assertVec(r.p, -1.0, -2.0, -3.0);
	assertVec(r.velocity, 0.1, 0.2, 0.3);
	assertSame(r.radius, 0.5);
	assertSame(r.mass, 7.0);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);

	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_int_eq(r.line, 3);
	ck_assert_str_eq(r.id, "b,\"c\"");
	ck_assert_int_eq(r.idKind, cli_idString);
	ck_assert_uint_eq(r.fields, cli_fieldP0);
	assertVec(r.p0, -1e-3, 2.5, 3.0);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);

	nextRecord(in, &r);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "12345678901234567890");
	cliRecord_Free(&r);

	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 5);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "1.50");
	ck_assert_uint_eq(r.fields, 0);
	cliRecord_Free(&r);

	/* the quoted cell above spans two lines */
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 7);
	ck_assert_int_eq(r.idKind, cli_idString);
	ck_assert_str_eq(r.id, "spaced id");
	cliRecord_Free(&r);

	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 5);
	ck_assert_int_eq(r.line, 8);
	assertVec(r.p0, 1e-300, -0.0, 0.0);
	assertSame(r.radius, 0.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(csvCrlfAndBlankLines)
{
	testInput in = openText("\r\n  \r\nid,r\r\n1,2\r\n\r\n\"q\",3\r\n   \r\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 0);
	ck_assert_int_eq(r.line, 4);
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "1");
	assertSame(r.radius, 2.0);
	ck_assert_str_eq(r.error, "");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_int_eq(r.line, 6);
	ck_assert_int_eq(r.idKind, cli_idString);
	ck_assert_str_eq(r.id, "q");
	assertSame(r.radius, 3.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("id,r\n", cli_inputCsv);
	expectEnd(in);
	closeInput(&in);
	in = openText("r", cli_inputAuto);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(csvCellErrors)
{
	struct {
		const char* text;
		const char* message;
	} cases[] = {
		{ "id,x1,y1,z1\n7,abc,1,2\n", "x1: expected a number, found 'abc'" },
		{ "x1,y1,z1\n1,2,3x\n", "z1: expected a number, found '3x'" },
		{ "x,y,z\nnan,1,2\n", "x: not a finite number" },
		{ "x,y,z\n1,1e400,2\n", "y: not a finite number" },
		{ "x,y,z\n1,,2\n", "p: x, y and z must be all given or all empty" },
		{ "r\n-1\n", "r: must not be negative" },
		{ "radius\n-0.5\n", "radius: must not be negative" },
		{ "mass\n0\n", "mass: must be positive" },
		{ "id,x0,y0,z0,r,mass,vx,vy\n1,2,3\n", "expected 8 cells, found 3" },
		{ "id,r\n1,2,3\n", "expected 2 cells, found 3" },
		{ "r,mass,x,y,z\n-1,0,a,,\n", "r: must not be negative" },
		{ "x,y,z,r\n1,,2,-1\n", "p: x, y and z must be all given or all empty" },
		{ "r,x,y,z\n-1,1,,2\n", "r: must not be negative" },
		{ "vx,vy,vz\n,,1\n", "v: vx, vy and vz must be all given or all empty" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		expectRecordError(cases[k].text, cli_inputAuto, cases[k].message);
	}

	/* a row with the wrong number of cells keeps its id when it has the
	 * id's cell (cells count by position), and nothing else */
	static const struct {
		const char* text;
		cliIdKind kind;
		const char* id;
		const char* message;
	} counts[] = {
		{ "x0,id,y0,z0\n1,seven\n", cli_idString, "seven", "expected 4 cells, found 2" },
		{ "id,r\n7,2,3\n", cli_idNumber, "7", "expected 2 cells, found 3" },
		{ "r,id\n2,\" q \",x,y\n", cli_idString, " q ", "expected 2 cells, found 4" },
		{ "x0,y0,z0,id\n1,2,3\n", cli_idIndex, NULL, "expected 4 cells, found 3" },
		{ "r,id,mass\n1,\n", cli_idIndex, NULL, "expected 3 cells, found 2" },
	};
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
		testInput in = openText(counts[k].text, cli_inputAuto);
		cliRecord r;
		nextRecord(in, &r);
		ck_assert_msg(strcmp(r.error, counts[k].message) == 0, "%s: error '%s'", counts[k].text, r.error);
		ck_assert_int_eq(r.idKind, counts[k].kind);
		if (counts[k].id != NULL) {
			ck_assert_str_eq(r.id, counts[k].id);
		} else {
			ck_assert_ptr_null(r.id);
		}
		ck_assert_uint_eq(r.fields, 0);
		cliRecord_Free(&r);
		expectEnd(in);
		closeInput(&in);
	}

	/* the id survives a bad cell; reading goes on */
	testInput in = openText("id,x1,y1,z1\n7,abc,1,2\n8,1,2,3\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "7");
	ck_assert_uint_eq(r.fields, 0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.index, 1);
	ck_assert_str_eq(r.error, "");
	assertVec(r.p1, 1.0, 2.0, 3.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(csvColumns)
{
	/* r wins over radius; empty cells are absent; partial groups ignored */
	testInput in = openText("r,radius,x0,y0,id,\"mass\"\n,3,1,2,,\n1,-5,,,\"\",\"\"\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	ck_assert_uint_eq(r.fields, cli_fieldRadius);
	assertSame(r.radius, 3.0);
	ck_assert_int_eq(r.idKind, cli_idIndex);
	ck_assert_ptr_null(r.id);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.error, "");
	assertSame(r.radius, 1.0);
	ck_assert_uint_eq(r.fields, cli_fieldRadius);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("id,x0,r,x0\n", cli_inputAuto);
	expectSyntax(in, 1, 9, "duplicate column 'x0'");
	closeInput(&in);
	in = openText("\n\nid, \"r\" ,r\n", cli_inputCsv);
	expectSyntax(in, 3, 10, "duplicate column 'r'");
	closeInput(&in);
	in = openText("foo,bar\n1,2\n", cli_inputAuto);
	expectSyntax(in, 1, 1, "no known column");
	closeInput(&in);
	in = openText("\n x0,y0,X\n1,2,3\n", cli_inputAuto);
	expectSyntax(in, 2, 2, "no known column");
	closeInput(&in);
	in = openText("[1]", cli_inputCsv);
	expectSyntax(in, 1, 1, "no known column");
	closeInput(&in);
}
END_TEST

START_TEST(csvQuoting)
{
	testInput in = openText("id,r\n\"a \"\"quoted\"\" id\",1\n\" x \",\"2\"\n\"\",3\n\"line\r\nbreak\",4\n", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "a \"quoted\" id");
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, " x ");
	assertSame(r.radius, 2.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.idKind, cli_idIndex);
	assertSame(r.radius, 3.0);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 5);
	ck_assert_str_eq(r.id, "line\r\nbreak");
	assertSame(r.radius, 4.0);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	/* a quoted cell the input ends in: the rest of the input is one bad record */
	in = openText("id,r\n1,2\n\"abc,1\n2,3\n", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectBad(in, 3, 1, "unterminated quoted cell");
	expectEnd(in);
	closeInput(&in);
}
END_TEST

/* -------------------------------------------------------- other errors */

START_TEST(readError)
{
	FILE* file = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(file);
	cliReader* reader = cliReader_Create(file, "/dev/null", cli_inputAuto);
	cliRecord r;
	bcError error;
	ck_assert_int_eq(cliReader_Next(reader, &r, &error), -1);
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_ptr_nonnull(strstr(error.message, "read error"));
	ck_assert_int_eq(cliReader_Next(reader, &r, NULL), -1);
	cliReader_Destroy(reader);
	fclose(file);
}
END_TEST

START_TEST(recordFreeIsSafe)
{
	cliRecord r;
	memset(&r, 0, sizeof r);
	cliRecord_Free(&r);
	cliRecord_Free(NULL);
	cliReader_Destroy(NULL);
}
END_TEST

/* ----------------------------------------------- input beyond the buffer */

enum {
	bigCount = 100000, /* records in the big files: ~25 MB, far beyond one read */
	idPadding = 150    /* bytes added to every id, so records straddle chunk ends */
};

static const char* padding(void)
{
	static char text[idPadding + 1];
	memset(text, 'x', idPadding);
	text[idPadding] = '\0';
	return text;
}

static void checkBig(testInput* in, bool stringIds)
{
	cliRecord r;
	char expectedId[64 + idPadding];
	for (int k = 0; k < bigCount; k++) {
		nextRecord(*in, &r);
		ck_assert_int_eq(r.index, k);
		ck_assert_str_eq(r.error, "");
		if (stringIds) {
			snprintf(expectedId, sizeof expectedId, "rec-%06d-%s", k, padding());
			ck_assert_int_eq(r.idKind, cli_idString);
		} else {
			snprintf(expectedId, sizeof expectedId, "%d12345678901234567890.%d", k, k % 97);
			ck_assert_int_eq(r.idKind, cli_idNumber);
		}
		ck_assert_str_eq(r.id, expectedId);
		ck_assert_uint_eq(r.fields, cli_fieldP0 | cli_fieldP1 | cli_fieldRadius);
		assertVec(r.p0, (double)k, k + 0.5, -(double)k);
		assertVec(r.p1, 0.1 * k, 1e-7, 123456.789);
		assertSame(r.radius, 0.001 * (k % 1000));
		cliRecord_Free(&r);
	}
	expectEnd(*in);
}

static void writeJsonRecord(FILE* file, int k, bool stringId)
{
	if (stringId) {
		fprintf(file, "{\"id\": \"rec-%06d-%s\", ", k, padding());
	} else {
		fprintf(file, "{\"pad\": \"%s\", \"id\": %d12345678901234567890.%d, ", padding(), k, k % 97);
	}
	fprintf(file, "\"p0\": [%d, %d.5, -%d], \"p1\": [%.17g, 1e-7, 123456.789], \"r\": %.17g}", k, k, k, 0.1 * k,
			0.001 * (k % 1000));
}

START_TEST(bigJsonArray)
{
	FILE* file = tmpfile();
	ck_assert_ptr_nonnull(file);
	fputs("[\n", file);
	for (int k = 0; k < bigCount; k++) {
		writeJsonRecord(file, k, k % 2 == 0);
		fputs(k + 1 < bigCount ? (k % 3 == 0 ? ",\n" : " ,  ") : "\n]\n", file);
	}
	testInput in = openFile(file, cli_inputAuto);
	cliRecord r;
	char expectedId[64 + idPadding];
	for (int k = 0; k < bigCount; k++) {
		nextRecord(in, &r);
		ck_assert_int_eq(r.index, k);
		ck_assert_str_eq(r.error, "");
		if (k % 2 == 0) {
			snprintf(expectedId, sizeof expectedId, "rec-%06d-%s", k, padding());
		} else {
			snprintf(expectedId, sizeof expectedId, "%d12345678901234567890.%d", k, k % 97);
		}
		ck_assert_str_eq(r.id, expectedId);
		assertVec(r.p0, (double)k, k + 0.5, -(double)k);
		assertVec(r.p1, 0.1 * k, 1e-7, 123456.789);
		assertSame(r.radius, 0.001 * (k % 1000));
		if (k == 1) {
			ck_assert_int_eq(r.line, 3);
			ck_assert_int_eq(r.column, 1);
		}
		cliRecord_Free(&r);
	}
	expectEnd(in);
	closeInput(&in);
}
END_TEST

START_TEST(bigNdjson)
{
	FILE* file = tmpfile();
	ck_assert_ptr_nonnull(file);
	for (int k = 0; k < bigCount; k++) {
		writeJsonRecord(file, k, true);
		fputs(k % 5 == 0 ? "\r\n\r\n" : "\n", file);
	}
	testInput in = openFile(file, cli_inputNdjson);
	checkBig(&in, true);
	closeInput(&in);
}
END_TEST

START_TEST(bigCsv)
{
	FILE* file = tmpfile();
	ck_assert_ptr_nonnull(file);
	fputs("x0,y0,z0,id,x1,y1,z1,r\r\n", file);
	for (int k = 0; k < bigCount; k++) {
		fprintf(file, "%d,%d.5,-%d,\"rec-%06d-%s\",%.17g,1e-7,123456.789,%.17g\r\n", k, k, k, k, padding(), 0.1 * k,
				0.001 * (k % 1000));
	}
	testInput in = openFile(file, cli_inputAuto);
	checkBig(&in, true);
	closeInput(&in);
}
END_TEST

/* One record far larger than the initial buffer (which must grow), between
 * ordinary ones; then one larger than the reader's limit. */
START_TEST(hugeRecord)
{
	const size_t idLength = 3 * 1024 * 1024 + 17;
	FILE* file = tmpfile();
	ck_assert_ptr_nonnull(file);
	fputs("[{\"id\": 1}, {\"r\": 2, \"id\": \"", file);
	for (size_t k = 0; k < idLength; k++) {
		fputc('a' + (int)(k % 26), file);
	}
	fputs("\", \"p0\": [1, 2, 3]}, {\"id\": 3}]", file);
	testInput in = openFile(file, cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_uint_eq(strlen(r.id), idLength);
	ck_assert_int_eq(r.id[idLength - 1], 'a' + (int)((idLength - 1) % 26));
	assertVec(r.p0, 1.0, 2.0, 3.0);
	assertSame(r.radius, 2.0);
	ck_assert_int_eq(r.column, 13);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_str_eq(r.id, "3");
	ck_assert_int_eq(r.column, (long)idLength + 50);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	/* an unclosed string in the middle of a big file stops at the limit */
	file = tmpfile();
	ck_assert_ptr_nonnull(file);
	fputs("[{\"id\": 1},\n {\"id\": \"", file);
	for (int k = 0; k < 20 * 1024 * 1024; k++) {
		fputc(k % 100 == 99 ? '\n' : 'b', file);
	}
	fputs("\"}]", file);
	in = openFile(file, cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 2, 2, "record longer than");
	closeInput(&in);
}
END_TEST

/* Values that straddle the end of the first read at every offset: a
 * top-level number must not be split in two, nor a string or an escape. */
START_TEST(valuesStraddleReads)
{
	const size_t readSize = 64 * 1024; /* the reader's chunk; any size near it works */
	const char* tail = "12345678901234567890\n{\"id\": 12345678901234567890.5, \"x\": \"a\\\"b\\u00e9\", "
					   "\"p0\": [1.25, 2, 3]}\n";
	size_t tailLength = strlen(tail);
	char* text = malloc(readSize + tailLength + 1);
	ck_assert_ptr_nonnull(text);
	for (size_t shift = 0; shift < tailLength; shift++) {
		size_t blank = readSize - tailLength + shift;
		memset(text, ' ', blank);
		text[blank / 2] = '\n';
		memcpy(text + blank, tail, tailLength + 1);
		testInput in = openText(text, cli_inputNdjson);
		cliRecord r;
		nextRecord(in, &r);
		ck_assert_str_eq(r.error, "record is not a JSON object");
		ck_assert_int_eq(r.line, 2);
		ck_assert_int_eq(r.column, (long)(blank - blank / 2));
		cliRecord_Free(&r);
		nextRecord(in, &r);
		ck_assert_int_eq(r.index, 1);
		ck_assert_int_eq(r.line, 3);
		ck_assert_str_eq(r.id, "12345678901234567890.5");
		assertVec(r.p0, 1.25, 2.0, 3.0);
		cliRecord_Free(&r);
		expectEnd(in);
		closeInput(&in);
	}
	free(text);
}
END_TEST

START_TEST(jsonCrlfPositions)
{
	testInput in = openText("\r\n[\r\n {\"id\":1},\r\n\t{\"id\":\r\n2}\r\n]", cli_inputAuto);
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 3);
	ck_assert_int_eq(r.column, 2);
	cliRecord_Free(&r);
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 4);
	ck_assert_int_eq(r.column, 2);
	ck_assert_str_eq(r.id, "2");
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	in = openText("[\r\n {\"id\":1}\r\n {\"id\":2}]", cli_inputAuto);
	nextRecord(in, &r);
	cliRecord_Free(&r);
	expectSyntax(in, 3, 2, "expected ',' or ']'");
	closeInput(&in);
}
END_TEST

/* ------------------------------------------------ deferred and numbers */

/* Read every record with cliReader_Next, and again with
 * cliReader_NextDeferred then cliRecord_Parse: the same records, the same
 * end (status, error and its place). */
static void expectDeferredSame(const char* text)
{
	testInput a = openText(text, cli_inputAuto);
	testInput b = openText(text, cli_inputAuto);
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	cliRecordText raw = { 0 };
	for (;;) {
		cliRecord ra, rb;
		bcError ea, eb;
		memset(&eb, 0, sizeof eb);
		int sa = cliReader_Next(a.reader, &ra, &ea);
		int sb = cliReader_NextDeferred(b.reader, &rb, &raw, &eb);
		if (sb == 1) {
			sb = cliRecord_Parse(&rb, &raw, parser, &eb);
		}
		ck_assert_msg(sa == sb, "%s: Next %d, deferred %d (%s | %s)", text, sa, sb, ea.message, eb.message);
		if (sa < 0) {
			ck_assert_int_eq(ea.code, eb.code);
			ck_assert_msg(ea.line == eb.line && ea.column == eb.column && strcmp(ea.message, eb.message) == 0,
						  "%s: Next %ld:%ld %s, deferred %ld:%ld %s", text, ea.line, ea.column, ea.message, eb.line,
						  eb.column, eb.message);
		}
		if (sa != 1) {
			break;
		}
		ck_assert_int_eq(rb.deferredLength, 0);
		ck_assert_int_eq(ra.index, rb.index);
		ck_assert_int_eq(ra.line, rb.line);
		ck_assert_int_eq(ra.column, rb.column);
		ck_assert_int_eq(ra.idKind, rb.idKind);
		ck_assert((ra.id == NULL) == (rb.id == NULL));
		ck_assert(ra.id == NULL || strcmp(ra.id, rb.id) == 0);
		ck_assert_uint_eq(ra.fields, rb.fields);
		ck_assert_str_eq(ra.error, rb.error);
		assertVec(rb.p0, ra.p0.x, ra.p0.y, ra.p0.z);
		assertVec(rb.p1, ra.p1.x, ra.p1.y, ra.p1.z);
		assertVec(rb.p, ra.p.x, ra.p.y, ra.p.z);
		assertVec(rb.velocity, ra.velocity.x, ra.velocity.y, ra.velocity.z);
		assertSame(rb.radius, ra.radius);
		assertSame(rb.mass, ra.mass);
		cliRecord_Free(&ra);
		cliRecord_Free(&rb);
	}
	cliRecordText_Free(&raw);
	cliJsonParser_Destroy(parser);
	closeInput(&a);
	closeInput(&b);
}

START_TEST(deferredMatchesNext)
{
	static const char* const texts[] = {
		"[{\"id\":\"a\",\"p0\":[1,2,3],\"p1\":[0.054516465419597898,-9.3128333166261257,1e-300],\"r\":0.25},\n"
		" {\"id\":7.50,\"p\":[0.1,0.2,0.3],\"v\":[-1,2e3,3.75],\"mass\":2,\"extra\":{\"a\":[null,true,1234.5]}},\n"
		" {}, 3, \"s\", [1,2], null]",
		"{\"p0\":[1,2,3],\"p1\":[4,5,6],\"r\":1e400}\n{\"p0\":[1,2],\"r\":-0.5}\n{\"r\":null,\"radius\":0.5}\n",
		"{\"p0\":[9007199254740993,12345678901234567890123,1.5],\"r\":0.12345678901234567890123456789}\n",
		"{\"p0\":[1,2,3] \"r\":1}\n",
		"{\"p0\":[01,2,3],\"r\":1}\n",
		"{\"p0\":[1.,2,3],\"r\":1}\n",
		"{\"p0\":[1,2,3],\"r\":NaN}\n",
		"{\"p0\":[1,2,3],\"r\":1.5x}\n",
		"{\"id\":\"x\\u0000y\",\"r\":1}\n{\"id\":\"\\u12G4\",\"r\":1}\n",
		"{\"id\":\"a\\qb\"}\n",
		"{1:2}\n",
		"{\"a\":[1,,2]}\n",
		"{\"p0\":[1,2,3],\"r\":1}{\"r\":2}\n",
		"{\"p0\":[1,2,3],\"r\":\n1}\n\n  {\"r\":2,\"p1\":[1e5,-0,0.5e-3]}",
		"[{\"r\":1},{\"r\":2},]",
		"{\"a\":\"\x01\"}\n",
		"{\"p0\":[1,2,3],\"r\":111111111111111111111111111111111111111111111111111111111111111111111111}\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
		expectDeferredSame(texts[i]);
	}
}
END_TEST

START_TEST(detectBeforeReading)
{
	testInput in = openText("  \n{\"r\":1}\n", cli_inputAuto);
	bcError e;
	ck_assert_int_eq(cliReader_Detect(in.reader, &e), 1);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputNdjson);
	ck_assert(cliReader_IsInputReady(in.reader));
	cliRecord r;
	nextRecord(in, &r);
	ck_assert_int_eq(r.line, 2);
	cliRecord_Free(&r);
	expectEnd(in);
	closeInput(&in);

	/* blanks only: detected (no records, NDJSON), then the end */
	in = openText("   ", cli_inputAuto);
	ck_assert_int_eq(cliReader_Detect(in.reader, &e), 1);
	ck_assert_int_eq(cliReader_GetFormat(in.reader), cli_inputNdjson);
	expectEnd(in);
	closeInput(&in);
}
END_TEST

static Suite* trajectoriesSuite(void)
{
	Suite* suite = suite_create("trajectories");

	TCase* json = tcase_create("json");
	tcase_add_test(json, jsonArrayFields);
	tcase_add_test(json, jsonEmptyArray);
	tcase_add_test(json, emptyInput);
	tcase_add_test(json, numericIdsExact);
	tcase_add_test(json, stringIdsDecoded);
	tcase_add_test(json, numericIdFoundAtTopLevel);
	tcase_add_test(json, keysWithEscapedNulNameNothing);
	tcase_add_test(json, jsonFieldErrors);
	tcase_add_test(json, jsonBadRecordsCounted);
	tcase_add_test(json, jsonRadiusAndDuplicates);
	tcase_add_test(json, jsonNaNLiteral);
	tcase_add_test(json, jsonTruncated);
	tcase_add_test(json, jsonTrailingGarbage);
	tcase_add_test(json, jsonSeparators);
	tcase_add_test(json, jsonDeepNesting);
	tcase_add_test(json, jsonBadStrings);
	tcase_add_test(json, jsonBadNumberId);
	tcase_add_test(json, jsonNonStringKey);
	tcase_add_test(json, jsonBadNumbers);
	tcase_add_test(json, jsonControlBytes);
	tcase_add_test(json, jsonExplicitFormat);
	tcase_add_test(json, jsonCrlfPositions);
	suite_add_tcase(suite, json);

	TCase* ndjson = tcase_create("ndjson");
	tcase_add_test(ndjson, ndjsonLines);
	tcase_add_test(ndjson, ndjsonErrors);
	tcase_add_test(ndjson, byteOrderMark);
	suite_add_tcase(suite, ndjson);

	TCase* csv = tcase_create("csv");
	tcase_add_test(csv, csvFields);
	tcase_add_test(csv, csvCrlfAndBlankLines);
	tcase_add_test(csv, csvCellErrors);
	tcase_add_test(csv, csvColumns);
	tcase_add_test(csv, csvQuoting);
	tcase_add_test(csv, fixedField);
	suite_add_tcase(suite, csv);

	TCase* deferred = tcase_create("deferred");
	tcase_set_timeout(deferred, 120);
	tcase_add_test(deferred, deferredMatchesNext);
	tcase_add_test(deferred, detectBeforeReading);
	suite_add_tcase(suite, deferred);

	TCase* misc = tcase_create("misc");
	tcase_add_test(misc, readError);
	tcase_add_test(misc, recordFreeIsSafe);
	suite_add_tcase(suite, misc);

	/* Tens of megabytes each; generous under the sanitizers. */
	TCase* big = tcase_create("big");
	tcase_set_timeout(big, 300);
	tcase_add_test(big, bigJsonArray);
	tcase_add_test(big, bigNdjson);
	tcase_add_test(big, bigCsv);
	tcase_add_test(big, hugeRecord);
	tcase_add_test(big, valuesStraddleReads);
	suite_add_tcase(suite, big);

	return suite;
}

int main(void)
{
	return bcRunSuite(trajectoriesSuite());
}
