/* results_read.c - unit tests for reading cast results back
 * (cli/results_read.h): the JSON document, JSON arrays, NDJSON and CSV with
 * exact values, what may be absent, positions of syntax and type errors,
 * input spanning many read chunks, and id keys. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "results_read.h"

/* ------------------------------------------------------------- helpers */

/* Same bits (so -0.0 differs from 0.0, and rounding shows). */
#define assertSame(got, expected)                                                                                      \
	do {                                                                                                               \
		double g_ = (got), e_ = (expected);                                                                            \
		ck_assert_msg(memcmp(&g_, &e_, sizeof g_) == 0, "%s = %.17g, expected %.17g", #got, g_, e_);                 \
	} while (0)

#define assertVec(v, ex, ey, ez)                                                                                       \
	do {                                                                                                               \
		bcVec3 v_ = (v);                                                                                               \
		assertSame(v_.x, ex);                                                                                          \
		assertSame(v_.y, ey);                                                                                          \
		assertSame(v_.z, ez);                                                                                          \
	} while (0)

/* Parse text that must be valid, both from memory and through a stream
 * (one read chunk here), and check both give the same count. */
static cliResultSet parseOk(const char* text)
{
	cliResultSet set;
	bcError error;
	bool ok = cliParseResults(text, strlen(text), &set, &error);
	ck_assert_msg(ok, "%ld:%ld: %s", error.line, error.column, error.message);

	FILE* f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	rewind(f);
	cliResultSet streamed;
	ck_assert(cliReadResults(f, &streamed, &error));
	fclose(f);
	ck_assert_int_eq(streamed.count, set.count);
	ck_assert_int_eq(streamed.format, set.format);
	cliResultSet_Free(&streamed);
	return set;
}

/* Parse text[0 .. length) that must fail at line:column with exactly
 * message. */
static void assertErrorN(const char* text, size_t length, long line, long column, const char* message)
{
	cliResultSet set;
	bcError error;
	ck_assert_msg(!cliParseResults(text, length, &set, &error), "parsed: %s", text);
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert_msg(error.line == line && error.column == column, "%s\nerror at %ld:%ld (%s), expected %ld:%ld", text,
				  error.line, error.column, error.message, line, column);
	ck_assert_str_eq(error.message, message);
	ck_assert_int_eq(set.count, 0);
	ck_assert_ptr_null(set.results);
}

/* Parse text that must fail at line:column with exactly message. */
static void assertError(const char* text, long line, long column, const char* message)
{
	assertErrorN(text, strlen(text), line, column, message);
}

/* Parse text[0 .. length) that reads, but whose first problem (a record
 * that could not be read whole) is at line:column with exactly message. */
static void assertProblemN(const char* text, size_t length, long line, long column, const char* message)
{
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliParseResults(text, length, &set, &error), "%s\nfailed at %ld:%ld: %s", text, error.line,
				  error.column, error.message);
	ck_assert_msg(cliResultSet_FirstProblem(&set, &error), "%s\nhas no problem", text);
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert_msg(error.line == line && error.column == column, "%s\nproblem at %ld:%ld (%s), expected %ld:%ld", text,
				  error.line, error.column, error.message, line, column);
	ck_assert_str_eq(error.message, message);
	cliResultSet_Free(&set);
}

static void assertProblem(const char* text, long line, long column, const char* message)
{
	assertProblemN(text, strlen(text), line, column, message);
}

#define assertProblemLiteral(text, line, column, message) assertProblemN(text, sizeof text - 1, line, column, message)

/* The same with a string literal that may hold NUL bytes. */
#define assertErrorLiteral(text, line, column, message) assertErrorN(text, sizeof text - 1, line, column, message)

static void assertKeysEqual(const char* a, const char* b, bool equal)
{
	cliResultSet sa = parseOk(a);
	cliResultSet sb = parseOk(b);
	char* ka = cliResult_IdKey(sa.results);
	char* kb = cliResult_IdKey(sb.results);
	ck_assert_msg((strcmp(ka, kb) == 0) == equal, "%s -> %s, %s -> %s", a, ka, b, kb);
	free(ka);
	free(kb);
	cliResultSet_Free(&sa);
	cliResultSet_Free(&sb);
}

/* ------------------------------------------------------------- JSON */

/* What `ballcast cast --ties` writes, abridged header. */
static const char* const castDocument =
	"{\"ballcast\":\"0.1.0\",\"mesh\":{\"file\":\"room.obj\",\"vertices\":29},"
	"\"settings\":{\"two_sided\":false,\"tie_tolerance\":1e-10},\n"
	"\"results\":[\n"
	"{\"id\":\"crate-edge\",\"hit\":true,\"alpha\":0.4292893218813452,\"initial_overlap\":false,\"feature\":\"edge\","
	"\"triangle\":12,\"face\":6,\"vertices\":[12,13],\"point\":[2.75,2,1],"
	"\"center\":[2.75,1.8585786437626903,1.1414213562373097],\"normal\":[0,-0.7071067811865475,0.7071067811865475],"
	"\"triangle_normal\":[0,0,1],\"ties\":[{\"triangle\":12,\"feature\":\"edge\",\"vertices\":[12,13],"
	"\"alpha\":0.4292893218813452,\"normal\":[0,-0.7071067811865475,0.7071067811865475]},"
	"{\"triangle\":15,\"feature\":\"edge\",\"vertices\":[13,12],\"alpha\":0.4292893218813452,"
	"\"normal\":[0,-0.7071067811865475,0.7071067811865475]}]},\n"
	"{\"id\":42,\"hit\":false,\"alpha\":1,\"ties\":[]},\n"
	"{\"id\":7.50,\"error\":\"missing r\"}\n"
	"],\n"
	"\"summary\":{\"records\":3,\"hits\":1,\"errors\":1}}\n";

START_TEST(jsonDocument)
{
	cliResultSet set = parseOk(castDocument);
	ck_assert_int_eq(set.format, cli_inputJson);
	ck_assert(set.document);
	ck_assert_int_eq(set.count, 3);

	const cliResult* r = set.results;
	ck_assert_int_eq(r->index, 0);
	ck_assert_int_eq(r->line, 3);
	ck_assert_int_eq(r->column, 1);
	ck_assert_int_eq(r->idKind, cli_idString);
	ck_assert_str_eq(r->id, "crate-edge");
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultInitialOverlap | cli_resultFeature |
									 cli_resultTriangle | cli_resultFace | cli_resultVertices | cli_resultPoint |
									 cli_resultCenter | cli_resultNormal | cli_resultTriangleNormal | cli_resultTies);
	ck_assert(r->hit);
	assertSame(r->alpha, 0.4292893218813452);
	ck_assert(!r->initialOverlap);
	ck_assert_int_eq(r->feature, bc_featureEdge);
	ck_assert_int_eq(r->triangle, 12);
	ck_assert_int_eq(r->face, 6);
	ck_assert_int_eq(r->vertexCount, 2);
	ck_assert_int_eq(r->vertices[0], 12);
	ck_assert_int_eq(r->vertices[1], 13);
	assertVec(r->point, 2.75, 2.0, 1.0);
	assertVec(r->center, 2.75, 1.8585786437626903, 1.1414213562373097);
	assertVec(r->normal, 0.0, -0.7071067811865475, 0.7071067811865475);
	assertVec(r->triangleNormal, 0.0, 0.0, 1.0);
	ck_assert_ptr_null(r->error);
	ck_assert_int_eq(r->tieCount, 2);
	const cliTie* t = r->ties + 1;
	ck_assert_uint_eq(t->fields,
					  cli_resultTriangle | cli_resultFeature | cli_resultVertices | cli_resultAlpha | cli_resultNormal);
	ck_assert_int_eq(t->triangle, 15);
	ck_assert_int_eq(t->feature, bc_featureEdge);
	ck_assert_int_eq(t->vertexCount, 2);
	ck_assert_int_eq(t->vertices[0], 13);
	ck_assert_int_eq(t->vertices[1], 12);
	assertSame(t->alpha, 0.4292893218813452);
	assertVec(t->normal, 0.0, -0.7071067811865475, 0.7071067811865475);
	ck_assert_int_eq(r->ties[0].triangle, 12);

	r = set.results + 1;
	ck_assert_int_eq(r->line, 4);
	ck_assert_int_eq(r->idKind, cli_idNumber);
	ck_assert_str_eq(r->id, "42");
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultTies);
	ck_assert(!r->hit);
	assertSame(r->alpha, 1.0);
	ck_assert_int_eq(r->tieCount, 0);
	ck_assert_ptr_null(r->ties);

	r = set.results + 2;
	ck_assert_int_eq(r->line, 5);
	ck_assert_int_eq(r->idKind, cli_idNumber);
	ck_assert_str_eq(r->id, "7.50"); /* as written */
	ck_assert_uint_eq(r->fields, cli_resultError);
	ck_assert_str_eq(r->error, "missing r");
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(jsonArrayAndDocumentDetection)
{
	cliResultSet set = parseOk(" [{\"id\":1,\"hit\":true,\"alpha\":0},\n{\"id\":\"x\",\"hit\":false,\"alpha\":1}]\n");
	ck_assert_int_eq(set.format, cli_inputJson);
	ck_assert(!set.document);
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.results[0].column, 3);
	ck_assert_int_eq(set.results[1].line, 2);
	assertSame(set.results[0].alpha, 0.0);
	cliResultSet_Free(&set);

	/* "results" that is not an array is just an unknown key of a record */
	set = parseOk("{\"id\":5,\"results\":3,\"hit\":false,\"alpha\":1}");
	ck_assert_int_eq(set.format, cli_inputNdjson);
	ck_assert_int_eq(set.count, 1);
	ck_assert_str_eq(set.results[0].id, "5");
	cliResultSet_Free(&set);

	/* a document with no results; its other keys are ignored */
	set = parseOk("{\"hit\":true,\"results\":[],\"x\":{\"results\":[1]}}");
	ck_assert(set.document);
	ck_assert_int_eq(set.count, 0);
	cliResultSet_Free(&set);

	/* empty input: no results */
	set = parseOk(" \n\t");
	ck_assert_int_eq(set.count, 0);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(ndjsonLenient)
{
	/* A student's file: few fields, nulls, unknown keys at any depth, a
	 * repeated key (the first counts), blank lines, no id (the index). */
	cliResultSet set = parseOk("{\"id\":\"a\",\"hit\":true,\"alpha\":0.375,\"feature\":\"face\",\"normal\":[0,0,1]}\n"
							   "\n"
							   "  {\"hit\":false,\"alpha\":1,\"extra\":{\"nested\":[1,{\"x\":[]}],\"s\":\"\\u00e9\\\"q\"},"
							   "\"triangle\":null,\"normal\":null}\r\n"
							   "{\"id\":\"dup\",\"alpha\":0.5,\"alpha\":\"not read\",\"hit\":true,\"vertices\":[3]}");
	ck_assert_int_eq(set.format, cli_inputNdjson);
	ck_assert(!set.document);
	ck_assert_int_eq(set.count, 3);
	const cliResult* r = set.results;
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultFeature | cli_resultNormal);
	ck_assert_int_eq(r->feature, bc_featureFace);
	assertSame(r->alpha, 0.375);
	assertVec(r->normal, 0.0, 0.0, 1.0);

	r = set.results + 1;
	ck_assert_int_eq(r->idKind, cli_idIndex);
	ck_assert_ptr_null(r->id);
	ck_assert_int_eq(r->index, 1);
	ck_assert_int_eq(r->line, 3);
	ck_assert_int_eq(r->column, 3);
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha);

	r = set.results + 2;
	assertSame(r->alpha, 0.5);
	ck_assert_int_eq(r->vertexCount, 1);
	ck_assert_int_eq(r->vertices[0], 3);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(jsonStringsAndNumbers)
{
	cliResultSet set = parseOk("{\"id\":\"\\u00e9\\ud83d\\ude00\\n\\/\",\"hit\":true,\"alpha\":-0,\"triangle\":3.0e0,"
							   "\"point\":[1e-320,-2.5E+2,0.1]}");
	const cliResult* r = set.results;
	ck_assert_str_eq(r->id, "\xC3\xA9\xF0\x9F\x98\x80\n/");
	assertSame(r->alpha, -0.0);
	ck_assert_int_eq(r->triangle, 3);
	assertVec(r->point, 1e-320, -250.0, 0.1);
	cliResultSet_Free(&set);
}
END_TEST

/* What breaks the structure stops the read; a record that is not JSON is
 * that record's problem, and reading goes on. */
START_TEST(jsonSyntaxErrors)
{
	assertError("[{\"id\":1,\"hit\":true,\"alpha\":0}\n {\"id\":2}]", 2, 2, "expected ',' or ']' after an element");
	assertError("[{\"id\":1,\"hit\":true,\"alpha\":0},]", 1, 32, "expected an element after ',' (no trailing commas in JSON)");
	assertProblem("{\"id\":1,\"hit\":true,}", 1, 20, "expected a key after ',' (no trailing commas in JSON)");
	assertProblem("{\"id\":1 \"hit\":true}", 1, 9, "invalid JSON: unexpected '\"' (expected ',' or '}' after a member)");
	assertProblem("{\"id\":1,\"hit\" true}", 1, 15, "invalid JSON: unexpected 't' (expected ':' after a key)");
	assertProblem("{\"id\":1,\n  \"error\":\"abc}", 2, 11, "unterminated string");
	assertProblem("{\"error\":\"abc\n\"}", 1, 14, "control character 0x0A in a string (write it as an escape)");
	assertProblem("{\"id\":01}", 1, 7, "invalid JSON number '01'");
	assertProblem("{\"alpha\":NaN}", 1, 10, "NaN and Infinity are not JSON numbers");
	assertProblem("{\"alpha\":tru}", 1, 10, "invalid JSON value 'tru'");
	assertProblem("{\"x\":\"a\\qb\"}", 1, 8, "invalid escape sequence in a string");
	assertProblem("{\"x\":\"\\ud800x\"}", 1, 7, "invalid escape sequence in a string");
	assertProblem("{\"x\":\"a\tb\"}", 1, 8, "control character 0x09 in a string (write it as an escape)");
	assertProblem("{\"id\":1,\"hit\":true", 1, 19, "unexpected end of input inside a JSON value");
	assertProblem("{\"id\":1}{\"id\":2}", 1, 9, "expected whitespace or a new line after a JSON value");
	assertProblem("{\"id\":1}\n[1]", 2, 1, "expected a result object (one JSON object per line)");
	assertError("[{\"id\":1}] x", 1, 12, "unexpected data after the closing ']'");
	assertError("{\"results\":[]}\n{\"id\":1}", 2, 1, "unexpected data after the results document");
	assertProblem("{\"results\":[{\"id\":1},\n 2]}", 2, 2, "expected a result object");
	assertProblem("{\"x\":]}", 1, 6, "invalid JSON: unexpected ']' (expected a value)");
	/* a later object with "results" is a result like the others (its key unknown) */
	cliResultSet set = parseOk("{\"id\":1}\n{\"results\":[]}");
	ck_assert(!set.document);
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.problems, 0);
	cliResultSet_Free(&set);
	/* after a problem the record keeps what it could read, and the next is read */
	set = parseOk("{\"id\":\"a\",\"hit\":true,\"alpha\":NaN}\n{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n");
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.problems, 1);
	ck_assert_str_eq(set.results[0].id, "a");
	ck_assert_str_eq(set.results[0].problem, "NaN and Infinity are not JSON numbers");
	ck_assert_ptr_null(set.results[1].problem);
	ck_assert_uint_eq(set.results[1].fields, cli_resultHit | cli_resultAlpha);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(jsonTypeErrors)
{
	/* at the start of the offending value */
	assertProblem("{\"id\":1,\n \"alpha\":\"0.5\"}", 2, 10, "alpha: expected a number");
	assertProblem("{\"hit\":1}", 1, 8, "hit: expected true or false");
	assertProblem("{\"id\":[1]}", 1, 7, "id: expected a string or a number");
	assertProblem("{\"feature\":\"corner\"}", 1, 12, "feature: expected \"face\", \"edge\", \"vertex\" or \"none\"");
	assertProblem("{\"triangle\":1.5}", 1, 13, "triangle: expected a whole number (a 32-bit integer)");
	assertProblem("{\"face\":2147483648}", 1, 9, "face: expected a whole number (a 32-bit integer)");
	assertProblem("{\"normal\":[0,1]}", 1, 11, "normal: expected an array of 3 numbers");
	assertProblem("{\"point\":[0,1,2,3]}", 1, 10, "point: expected an array of 3 numbers");
	assertProblem("{\"center\":[0,\"1\",2]}", 1, 11, "center: expected an array of 3 numbers");
	assertProblem("{\"point\":[0,1e999,2]}", 1, 13, "point: not a finite number");
	assertProblem("{\"vertices\":[]}", 1, 13, "vertices: expected an array of 1 to 3 whole numbers");
	assertProblem("{\"vertices\":[1,2,3,4]}", 1, 13, "vertices: expected an array of 1 to 3 whole numbers");
	assertProblem("{\"error\":5}", 1, 10, "error: expected a string");
	assertProblem("{\"id\":\"a\\u0000b\"}", 1, 7, "id: contains \\u0000, which cannot be echoed");
	assertProblem("{\"ties\":{}}", 1, 9, "ties: expected an array of objects");
	assertProblem("{\"ties\":[{\"triangle\":1},\n  3]}", 2, 3, "ties: expected an object");
	assertProblem("{\"ties\":[{\"feature\":\"side\"}]}", 1, 21,
				"ties: feature: expected \"face\", \"edge\", \"vertex\" or \"none\"");
}
END_TEST

/* ------------------------------------------------------------- CSV */

static const char* const castCsv =
	"id,hit,alpha,initial_overlap,feature,triangle,face,vertex_0,vertex_1,vertex_2,point_x,point_y,point_z,center_x,"
	"center_y,center_z,normal_x,normal_y,normal_z,triangle_normal_x,triangle_normal_y,triangle_normal_z,error,ties\n"
	"crate-edge,true,0.4292893218813452,false,edge,12,6,12,13,,2.75,2,1,2.75,1.8585786437626903,1.1414213562373097,"
	"0,-0.7071067811865475,0.7071067811865475,0,0,1,,12:edge 15:edge\n"
	"42,false,1,,,,,,,,,,,,,,,,,,,,,\n"
	"7.50,,,,,,,,,,,,,,,,,,,,,,missing r (give it per record or with --radius),\n"
	"\"x,\"\"y\",true,0.5833333333333334,false,face,1,0,0,2,3,1,1,0,1,1,0.25,0,0,1,0,0,1,,1:face\n";

START_TEST(csvCast)
{
	cliResultSet set = parseOk(castCsv);
	ck_assert_int_eq(set.format, cli_inputCsv);
	ck_assert_int_eq(set.count, 4);

	const cliResult* r = set.results;
	ck_assert_int_eq(r->line, 2);
	ck_assert_int_eq(r->column, 1);
	ck_assert_int_eq(r->idKind, cli_idString);
	ck_assert_str_eq(r->id, "crate-edge");
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultInitialOverlap | cli_resultFeature |
									 cli_resultTriangle | cli_resultFace | cli_resultVertices | cli_resultPoint |
									 cli_resultCenter | cli_resultNormal | cli_resultTriangleNormal | cli_resultTies);
	assertSame(r->alpha, 0.4292893218813452);
	ck_assert_int_eq(r->feature, bc_featureEdge);
	ck_assert_int_eq(r->triangle, 12);
	ck_assert_int_eq(r->face, 6);
	ck_assert_int_eq(r->vertexCount, 2);
	ck_assert_int_eq(r->vertices[1], 13);
	assertVec(r->center, 2.75, 1.8585786437626903, 1.1414213562373097);
	assertVec(r->normal, 0.0, -0.7071067811865475, 0.7071067811865475);
	assertVec(r->triangleNormal, 0.0, 0.0, 1.0);
	ck_assert_int_eq(r->tieCount, 2);
	ck_assert_uint_eq(r->ties[1].fields, cli_resultTriangle | cli_resultFeature);
	ck_assert_int_eq(r->ties[1].triangle, 15);
	ck_assert_int_eq(r->ties[1].feature, bc_featureEdge);

	r = set.results + 1;
	ck_assert_int_eq(r->idKind, cli_idNumber);
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha);
	ck_assert(!r->hit);

	r = set.results + 2;
	ck_assert_str_eq(r->id, "7.50");
	ck_assert_uint_eq(r->fields, cli_resultError);
	ck_assert_str_eq(r->error, "missing r (give it per record or with --radius)");

	r = set.results + 3;
	ck_assert_int_eq(r->idKind, cli_idString);
	ck_assert_str_eq(r->id, "x,\"y");
	ck_assert_int_eq(r->vertexCount, 3);
	ck_assert_int_eq(r->tieCount, 1);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(csvLenient)
{
	/* Columns in any order, unknown ones ignored, CRLF, blank lines, a
	 * partial vector group ignored, True/False/1/0, blanks around cells. */
	cliResultSet set = parseOk("\xEF\xBB\xBF"
							   "name, id ,alpha,hit,feature,normal_x,normal_y,normal_z,point_x\r\n"
							   "\r\n"
							   "Ann,a, 0.375 ,True,vertex,0,0,1,oops\r\n"
							   "Bob,b,1,0,,,,,\r\n");
	ck_assert_int_eq(set.format, cli_inputCsv);
	ck_assert_int_eq(set.count, 2);
	const cliResult* r = set.results;
	ck_assert_int_eq(r->line, 3);
	ck_assert_str_eq(r->id, "a");
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultFeature | cli_resultNormal);
	ck_assert(r->hit);
	assertSame(r->alpha, 0.375);
	ck_assert_int_eq(r->feature, bc_featureVertex);
	r = set.results + 1;
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha);
	ck_assert(!r->hit);
	cliResultSet_Free(&set);

	/* no id column: the index */
	set = parseOk("hit,alpha\nfalse,1\ntrue,0.5\n");
	ck_assert_int_eq(set.results[1].idKind, cli_idIndex);
	ck_assert_int_eq(set.results[1].index, 1);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(csvErrors)
{
	/* too few cells: where the missing one would be; too many: at the first extra */
	assertProblem("id,hit,alpha\na,true\n", 2, 7, "expected 3 cells as in the header, found 2");
	assertProblem("id,hit,alpha\na,true,1, 2\n", 2, 11, "expected 3 cells as in the header, found 4");
	assertProblem("id,hit,alpha\na,true,x1\n", 2, 8, "alpha: expected a number, found 'x1'");
	assertProblem("id,hit,alpha\na, yes ,1\n", 2, 4, "hit: expected true or false, found 'yes'");
	assertProblem("id,alpha,feature\na,1,Edge\n", 2, 5, "feature: expected face, edge, vertex or none, found 'Edge'");
	assertProblem("id,triangle\na,-1.5\n", 2, 3, "triangle: expected a whole number (a 32-bit integer), found '-1.5'");
	assertProblem("id,alpha\n\"a,1\n", 2, 1, "unterminated quoted cell");
	assertProblem("id,normal_x,normal_y,normal_z\na,1,,0\n", 2, 5, "normal: normal_x, normal_y and normal_z must be all given or all empty");
	/* text after a closing quote is kept, blanks dropped (as for trajectories) */
	cliResultSet set = parseOk("id,alpha\n\"a\"b ,1\n");
	ck_assert_str_eq(set.results[0].id, "ab");
	ck_assert_int_eq(set.problems, 0);
	cliResultSet_Free(&set);
	assertProblem("id,ties\na,1:edge 2-vertex\n", 2, 3, "ties: expected triangle:feature pairs separated by spaces, found '1:edge 2-vertex'");
	assertError("id,alpha,id\n", 1, 10, "duplicate column 'id' in the CSV header");
	assertError("\nname,score\n", 2, 1,
				"not a results file: no known column in the CSV header 'name,score' (cells separated by ','; expected id, "
				"hit, alpha, ...)");
	assertProblem("id,vertex_0,vertex_1,vertex_2\na,1,,3\n", 2, 6, "vertex_2: given after an empty or missing vertex column");
	assertProblem("id,alpha\na,1e999\n", 2, 3, "alpha: not a finite number");
}
END_TEST

/* A NUL byte would cut a CSV cell short ("16<NUL>junk" read as 16, ids
 * "a<NUL>b" and "a<NUL>c" both as "a"; fuzz_results: csv-nul-*): refused
 * where it is, as is any control byte outside a JSON string. */
START_TEST(nulBytes)
{
	assertProblemLiteral("id,hit,alpha,vertex_0,vertex_1\npillar,true,0.45,19,16\0junk\n", 2, 23,
					   "unexpected byte 0x00 in a CSV cell");
	assertProblemLiteral("id,hit,alpha\na\0b,true,0.5\na\0c,false,1\n", 2, 2, "unexpected byte 0x00 in a CSV cell");
	assertErrorLiteral("id\0\n", 1, 3, "unexpected byte 0x00 in a CSV cell");
	assertProblemLiteral("id,alpha\n\"a\0\",1\n", 2, 3, "unexpected byte 0x00 in a CSV cell");
	assertErrorLiteral("[\0]", 1, 2, "invalid JSON: unexpected byte 0x00");
	assertProblemLiteral("{\"id\":1}\n\0", 2, 1, "invalid JSON: unexpected byte 0x00");
	assertErrorLiteral("[{\"id\":1\001}]", 1, 9, "invalid JSON: unexpected byte 0x01");
	/* other control bytes are text in a CSV cell (echoed escaped) */
	cliResultSet set = parseOk("id,hit,alpha\na\001b,true,0.5\n");
	ck_assert_str_eq(set.results[0].id, "a\001b");
	cliResultSet_Free(&set);
}
END_TEST

/* ------------------------------------------------------------- streams */

/* Thousands of results through the chunked reader: every value lands where
 * it should whichever chunk boundary it straddles, and an error after them
 * knows its line. */
START_TEST(manyChunks)
{
	enum { count = 20000 };
	for (int format = 0; format < 3; ++format) {
		FILE* f = tmpfile();
		ck_assert_ptr_nonnull(f);
		if (format == 0) {
			fputs("{\"ballcast\":\"0.1.0\",\n\"results\":[\n", f);
		} else if (format == 2) {
			fputs("id,hit,alpha,feature,normal_x,normal_y,normal_z\n", f);
		}
		for (int i = 0; i < count; ++i) {
			if (format == 2) {
				fprintf(f, "r%d,true,%d.25,edge,0,%d,1\n", i, i, i % 7);
			} else {
				fprintf(f, "%s{\"id\":\"r%d\",\"hit\":true,\"alpha\":%d.25,\"feature\":\"edge\",\"normal\":[0,%d,1]}\n",
						format == 0 && i > 0 ? "," : "", i, i, i % 7);
			}
		}
		if (format == 0) {
			fputs("]}\n", f);
		}
		rewind(f);
		cliResultSet set;
		bcError error;
		ck_assert_msg(cliReadResults(f, &set, &error), "%ld:%ld: %s", error.line, error.column, error.message);
		ck_assert_int_eq(set.count, count);
		ck_assert(set.document == (format == 0));
		for (int i = 0; i < count; ++i) {
			const cliResult* r = set.results + i;
			char id[16];
			snprintf(id, sizeof id, "r%d", i);
			ck_assert_str_eq(r->id, id);
			assertSame(r->alpha, i + 0.25);
			assertSame(r->normal.y, (double)(i % 7));
			ck_assert_int_eq(r->line, i + (format == 1 ? 1 : 2) + (format == 0 ? 1 : 0));
		}
		cliResultSet_Free(&set);

		/* a problem past the end of the data: data after the document stops
		 * the read; a bad line is that record's problem, found where it is */
		fseek(f, 0, SEEK_END);
		fputs(format == 2 ? "x,maybe,1,edge,0,0,1\n" : "{\"id\":\"x\",\"hit\":maybe}\n", f);
		rewind(f);
		bool read = cliReadResults(f, &set, &error);
		ck_assert(read == (format != 0));
		if (format == 0) {
			ck_assert_int_eq(error.line, count + 4);
			ck_assert_int_eq(error.column, 1);
			ck_assert_str_eq(error.message, "unexpected data after the results document");
		} else {
			ck_assert_int_eq(set.count, count + 1);
			ck_assert(cliResultSet_FirstProblem(&set, &error));
			ck_assert_int_eq(error.record, count);
			ck_assert_int_eq(error.line, count + (format == 2 ? 2 : 1));
			ck_assert_int_eq(error.column, format == 2 ? 3 : 17);
			ck_assert_str_eq(set.results[count].id, "x");
			cliResultSet_Free(&set);
		}
		fclose(f);
	}
}
END_TEST

START_TEST(readError)
{
	FILE* f = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(f);
	cliResultSet set;
	bcError error;
	ck_assert(!cliReadResults(f, &set, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_ptr_nonnull(strstr(error.message, "read error"));
	ck_assert_int_eq(set.count, 0);
	fclose(f);
	cliResultSet_Free(NULL);
}
END_TEST

/* ------------------------------------------------------------- ids */

START_TEST(idKeys)
{
	/* numbers by decimal value; a string that reads as a number is one */
	assertKeysEqual("{\"id\":3}", "{\"id\":3.0}", true);
	assertKeysEqual("{\"id\":3}", "{\"id\":30e-1}", true);
	assertKeysEqual("{\"id\":3}", "{\"id\":0.3E+1}", true);
	assertKeysEqual("{\"id\":3}", "{\"id\":\"3\"}", true);
	assertKeysEqual("{\"id\":7.50}", "id\n7.5\n", true);
	assertKeysEqual("{\"id\":-0}", "{\"id\":0.000}", true);
	assertKeysEqual("{\"id\":-3}", "{\"id\":3}", false);
	assertKeysEqual("{\"id\":9007199254740993}", "{\"id\":9007199254740992}", false);
	assertKeysEqual("{\"id\":1e400}", "{\"id\":10e399}", true);
	assertKeysEqual("{\"id\":1e400}", "{\"id\":1e401}", false);
	/* other strings by their bytes */
	assertKeysEqual("{\"id\":\"007\"}", "{\"id\":7}", false);
	assertKeysEqual("{\"id\":\"a\"}", "{\"id\":\"A\"}", false);
	assertKeysEqual("{\"id\":\"a b\"}", "id\n\"a b\"\n", true);
	/* no id: the index, as cast writes it */
	assertKeysEqual("{\"hit\":false}", "{\"id\":0}", true);

	cliResultSet set = parseOk("{\"id\":12.50}\n{\"id\":\"a\\\"b\"}\n{\"hit\":true}");
	char* key = cliResult_IdKey(set.results);
	ck_assert_str_eq(key, "n125e-1");
	free(key);
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	for (int i = 0; i < 3; ++i) {
		cliWriteResultIdJson(f, set.results + i);
		putc(' ', f);
	}
	fclose(f);
	ck_assert_str_eq(text, "12.50 \"a\\\"b\" 2 ");
	free(text);
	cliResultSet_Free(&set);
}
END_TEST

/* ----------------------------------------------------------- tolerant */

/* The reading's note (a tolerant read) holds text. */
static void assertNote(const cliResultSet* set, const char* text)
{
	ck_assert_msg(set->reading.note != NULL && strstr(set->reading.note, text) != NULL, "note '%s' lacks '%s'",
				  set->reading.note != NULL ? set->reading.note : "(none)", text);
}

/* Read text tolerantly, grading graded; the set must read. */
static cliResultSet parseTolerant(const char* text, unsigned graded, const char* const* map, int mapCount)
{
	FILE* f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	rewind(f);
	cliResultsReadOptions options = { true, graded, map, mapCount };
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliReadResultsWith(f, &options, &set, &error), "%ld:%ld: %s", error.line, error.column,
				  error.message);
	fclose(f);
	return set;
}

START_TEST(tolerantUngradedFields)
{
	/* feature "overlap", triangle null, ties of lists: not graded, not read */
	const char* text = "[{\"id\":1,\"hit\":true,\"alpha\":0.25,\"feature\":\"overlap\",\"triangle\":\"x\","
					   "\"ties\":[[1,2]],\"normal\":[0,0,1]},\n"
					   " {\"id\":2,\"hit\":false,\"alpha\":1,\"triangle\":null,\"normal\":null}]";
	unsigned graded = cli_resultHit | cli_resultAlpha | cli_resultNormal;
	cliResultSet set = parseTolerant(text, graded, NULL, 0);
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.problems, 0);
	ck_assert_uint_eq(set.results[0].fields, graded);
	assertVec(set.results[0].normal, 0.0, 0.0, 1.0);
	ck_assert_uint_eq(set.results[1].fields, cli_resultHit | cli_resultAlpha);
	cliResultSet_Free(&set);
	/* graded, the same feature is a problem of that record only */
	set = parseTolerant(text, graded | cli_resultFeature, NULL, 0);
	ck_assert_int_eq(set.problems, 1);
	ck_assert_str_eq(set.results[0].problem, "feature: expected face, edge, vertex or none, found 'overlap'");
	ck_assert_ptr_null(set.results[1].problem);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(tolerantNonFinite)
{
	/* Python's json module: NaN, Infinity, -Infinity (not inside strings) */
	const char* text = "{\"id\":1,\"hit\":true,\"alpha\":NaN,\"note\":\"NaN\"}\n"
					   "{\"id\":2,\"hit\":true,\"alpha\":-Infinity}\n"
					   "{\"id\":3,\"hit\":true,\"alpha\":0.5,\"center\":[NaN,Infinity,0]}\n";
	cliResultSet set = parseTolerant(text, cli_resultHit | cli_resultAlpha, NULL, 0);
	ck_assert_int_eq(set.count, 3);
	ck_assert_str_eq(set.results[0].problem, "alpha: NaN is not a number");
	ck_assert_int_eq(set.results[0].problemLine, 1);
	ck_assert_int_eq(set.results[0].problemColumn, 28);
	ck_assert_str_eq(set.results[1].problem, "alpha: -Infinity is not a finite number");
	ck_assert_ptr_null(set.results[2].problem);
	assertSame(set.results[2].alpha, 0.5);
	cliResultSet_Free(&set);
	/* read strictly, NaN is the syntax error it is */
	assertProblem("{\"id\":1,\"hit\":true,\"alpha\":NaN}\n", 1, 28, "NaN and Infinity are not JSON numbers");
}
END_TEST

START_TEST(tolerantSpellings)
{
	/* CSV: t, nx, ny, nz, tri; JSON: time, n_x ...; --map for the rest */
	const char* map[] = { "impact", "hit" };
	cliResultSet set = parseTolerant("id,impact,t,nx,ny,nz,tri,colour\n7,yes,0.5,0,0,1,3,red\n8,false,1,,,,,blue\n",
									 cli_resultAlpha | cli_resultNormal | cli_resultTriangle, map, 1);
	ck_assert_int_eq(set.count, 2);
	ck_assert_str_eq(set.ignored, "colour");
	const cliResult* r = set.results;
	ck_assert_uint_eq(r->fields, cli_resultHit | cli_resultAlpha | cli_resultNormal | cli_resultTriangle);
	ck_assert(r->hit); /* "yes" */
	assertSame(r->alpha, 0.5);
	assertVec(r->normal, 0.0, 0.0, 1.0);
	ck_assert_int_eq(r->triangle, 3);
	ck_assert_ptr_null(r->problem);
	ck_assert_uint_eq(set.results[1].fields, cli_resultHit | cli_resultAlpha);
	cliResultSet_Free(&set);

	set = parseTolerant("{\"id\":1,\"time\":0.25,\"n_x\":1,\"normal_y\":0,\"nz\":0,\"speed\":3,\"spin\":1}\n",
						cli_resultAlpha | cli_resultNormal, NULL, 0);
	ck_assert_uint_eq(set.results[0].fields, cli_resultAlpha | cli_resultNormal);
	assertSame(set.results[0].alpha, 0.25);
	assertVec(set.results[0].normal, 1.0, 0.0, 0.0);
	ck_assert_str_eq(set.ignored, "speed, spin");
	cliResultSet_Free(&set);

	/* strict reading knows none of them */
	set = parseOk("{\"id\":1,\"time\":0.25,\"hit\":true}\n");
	ck_assert_uint_eq(set.results[0].fields, cli_resultHit);
	ck_assert_ptr_null(set.ignored);
	cliResultSet_Free(&set);
}
END_TEST


/* A tolerant read of text that must fail: the error's message. */
static void assertTolerantError(const char* text, long line, long column, const char* message)
{
	FILE* f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	rewind(f);
	cliResultsReadOptions options = { true, cli_resultHit | cli_resultAlpha, NULL, 0 };
	cliResultSet set;
	bcError error;
	ck_assert_msg(!cliReadResultsWith(f, &options, &set, &error), "read: %s", text);
	fclose(f);
	ck_assert_msg(error.line == line && error.column == column, "%s\nerror at %ld:%ld (%s), expected %ld:%ld", text,
				  error.line, error.column, error.message, line, column);
	ck_assert_str_eq(error.message, message);
}

START_TEST(shapeSeparators)
{
	unsigned graded = cli_resultHit | cli_resultAlpha | cli_resultNormal;
	/* ';' as spreadsheets in much of Europe export it: decimal commas are numbers */
	cliResultSet set = parseTolerant("id;hit;alpha;nx;ny;nz\n\"a;1\";true;0,25;0;-0,6;0,8\nb;false;1;;;\n", graded,
									 NULL, 0);
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.problems, 0);
	ck_assert_str_eq(set.results[0].id, "a;1");
	assertSame(set.results[0].alpha, 0.25);
	assertVec(set.results[0].normal, 0.0, -0.6, 0.8);
	ck_assert(!set.results[1].hit);
	assertSame(set.results[1].alpha, 1.0);
	assertNote(&set, "read as CSV separated by ';' with decimal commas");
	ck_assert(!set.positional);
	ck_assert_int_eq(set.shape, cli_shapeRecords);
	cliResultSet_Free(&set);
	/* ';' with decimal points: no note about commas */
	set = parseTolerant("id;hit;alpha\na;true;0.5\n", graded, NULL, 0);
	assertSame(set.results[0].alpha, 0.5);
	assertNote(&set, "read as CSV separated by ';'; ");
	cliResultSet_Free(&set);
	/* tabs (a tab then separates, so an empty cell stays a cell) */
	set = parseTolerant("id\thit\talpha\tnx\tny\tnz\n a \ttrue\t0,5\t1\t0\t0\nb\tfalse\t\t\t\t\n", graded, NULL, 0);
	ck_assert_int_eq(set.count, 2);
	ck_assert_int_eq(set.problems, 0);
	ck_assert_str_eq(set.results[0].id, "a");
	assertSame(set.results[0].alpha, 0.5);
	assertVec(set.results[0].normal, 1.0, 0.0, 0.0);
	ck_assert_uint_eq(set.results[1].fields, cli_resultHit);
	assertNote(&set, "read as CSV separated by tabs with decimal commas");
	cliResultSet_Free(&set);
	/* '|' */
	set = parseTolerant("id | hit | alpha\n7 | true | 0.125\n", graded, NULL, 0);
	ck_assert_str_eq(set.results[0].id, "7");
	assertSame(set.results[0].alpha, 0.125);
	assertNote(&set, "read as CSV separated by '|'");
	cliResultSet_Free(&set);
	/* a ',' file: its commas are separators, never decimal commas */
	set = parseTolerant("id,hit,alpha\na,true,0.5\n", graded, NULL, 0);
	assertNote(&set, "read as CSV separated by ','; columns: id, hit, alpha by their names");
	ck_assert_ptr_null(strstr(set.reading.note, "decimal"));
	cliResultSet_Free(&set);
	/* problems are placed in the columns of the file as written */
	assertProblem("id;hit;alpha\na;true;x1\n", 2, 8, "alpha: expected a number, found 'x1'");
	assertProblem("id;hit;alpha\na;true;1,2,3\n", 2, 8, "alpha: expected a number, found '1,2,3'");
	/* strict reading sniffs too */
	set = parseOk("id;hit;alpha\n1;true;0,5\n");
	assertSame(set.results[0].alpha, 0.5);
	cliResultSet_Free(&set);
	/* a header no column of which is known names what it saw */
	assertError("\nname;score\n", 2, 1,
				"not a results file: no known column in the CSV header 'name;score' (cells separated by ';'; expected "
				"id, hit, alpha, ...)");
	assertTolerantError("x\ty\n1\t2\n", 1, 1,
						"not a results file: no known column in the CSV header 'x\ty' (cells separated by tabs; "
						"expected id, hit, alpha, ...)");
}
END_TEST

START_TEST(shapeHitWords)
{
	unsigned graded = cli_resultHit | cli_resultAlpha;
	cliResultSet set = parseTolerant("id,hit,alpha\n1,yes,0.5\n2,NO,1\n3,Y,0.5\n4,n,1\n5,True,0.5\n6,FALSE,1\n"
									 "7,1,0.5\n8,0,1\n9,maybe,1\n",
									 graded, NULL, 0);
	ck_assert_int_eq(set.count, 9);
	for (int k = 0; k < 8; ++k) {
		ck_assert_msg(set.results[k].problem == NULL, "row %d: %s", k + 1, set.results[k].problem);
		ck_assert_uint_eq(set.results[k].fields, graded);
		ck_assert_int_eq(set.results[k].hit, k % 2 == 0);
	}
	ck_assert_str_eq(set.results[8].problem, "hit: expected true or false, found 'maybe'");
	cliResultSet_Free(&set);
	set = parseTolerant("[{\"id\":1,\"hit\":\"yes\",\"alpha\":0.5},{\"id\":2,\"hit\":\"No\",\"alpha\":1},"
						"{\"id\":3,\"hit\":\"Y\",\"alpha\":0.5},{\"id\":4,\"hit\":\"n\",\"alpha\":1},"
						"{\"id\":5,\"hit\":\"True\",\"alpha\":0.5},{\"id\":6,\"hit\":\"false\",\"alpha\":1},"
						"{\"id\":7,\"hit\":1,\"alpha\":0.5},{\"id\":8,\"hit\":0,\"alpha\":1},"
						"{\"id\":9,\"hit\":2,\"alpha\":1},{\"id\":10,\"hit\":\"perhaps\",\"alpha\":1}]",
						graded, NULL, 0);
	ck_assert_int_eq(set.count, 10);
	for (int k = 0; k < 8; ++k) {
		ck_assert_msg(set.results[k].problem == NULL, "record %d: %s", k + 1, set.results[k].problem);
		ck_assert_int_eq(set.results[k].hit, k % 2 == 0);
	}
	ck_assert_str_eq(set.results[8].problem, "hit: expected true or false, found '2'");
	ck_assert_str_eq(set.results[9].problem, "hit: expected true or false, found 'perhaps'");
	cliResultSet_Free(&set);
	/* strict reading keeps JSON's booleans */
	assertProblem("{\"id\":1,\"hit\":\"yes\"}", 1, 15, "hit: expected true or false");
}
END_TEST

START_TEST(shapeMissAlpha)
{
	/* a miss's alpha is not graded: NaN, null, "nan", empty or absent is no problem */
	unsigned graded = cli_resultHit | cli_resultAlpha;
	cliResultSet set = parseTolerant("{\"id\":1,\"hit\":false,\"alpha\":NaN}\n{\"id\":2,\"hit\":false,\"alpha\":null}\n"
									 "{\"id\":3,\"alpha\":\"nan\",\"hit\":\"no\"}\n{\"id\":4,\"hit\":false,\"alpha\":\"\"}\n"
									 "{\"id\":5,\"hit\":false}\n{\"id\":6,\"hit\":true,\"alpha\":NaN}\n"
									 "{\"id\":7,\"alpha\":\"NaN\",\"hit\":true}\n{\"id\":8,\"alpha\":NaN}\n"
									 "{\"id\":9,\"hit\":\"N\",\"alpha\":\"None\"}\n",
									 graded, NULL, 0);
	ck_assert_int_eq(set.count, 9);
	ck_assert_ptr_null(set.results[8].problem);
	ck_assert_uint_eq(set.results[8].fields, cli_resultHit);
	for (int k = 0; k < 5; ++k) {
		ck_assert_msg(set.results[k].problem == NULL, "record %d: %s", k + 1, set.results[k].problem);
		ck_assert_uint_eq(set.results[k].fields, cli_resultHit);
		ck_assert(!set.results[k].hit);
	}
	/* a hit's (or an unknown answer's) NaN stays the problem it is */
	ck_assert_str_eq(set.results[5].problem, "alpha: NaN is not a number");
	ck_assert_int_eq(set.results[5].problemColumn, 28);
	ck_assert_str_eq(set.results[6].problem, "alpha: NaN is not a number"); /* "NaN" as a string is NaN too */
	ck_assert_str_eq(set.results[7].problem, "alpha: NaN is not a number");
	ck_assert_int_eq(set.problems, 3);
	cliResultSet_Free(&set);
	set = parseTolerant("id;hit;alpha\n1;no;NaN\n2;false;nan\n3;N;\n5;0;None\n6;no;NULL\n4;yes;nan\n", graded,
						NULL, 0);
	ck_assert_int_eq(set.problems, 1);
	for (int k = 0; k < 5; ++k) {
		ck_assert_uint_eq(set.results[k].fields, cli_resultHit);
	}
	ck_assert_str_eq(set.results[5].problem, "alpha: NaN is not a number");
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(shapeNested)
{
	unsigned graded = cli_resultHit | cli_resultAlpha | cli_resultNormal;
	cliResultSet set = parseTolerant("[{\"id\":\"a\",\"result\":{\"hit\":true,\"t\":0.5,\"n\":[0,0,1],\"extra\":3}},\n"
									 " {\"id\":\"b\",\"result\":{\"hit\":false}},\n"
									 " {\"result\":{\"hit\":true,\"t\":\"x\"},\"id\":\"c\"}]",
									 graded, NULL, 0);
	ck_assert_int_eq(set.count, 3);
	ck_assert_str_eq(set.results[0].id, "a");
	ck_assert_uint_eq(set.results[0].fields, graded);
	assertSame(set.results[0].alpha, 0.5);
	assertVec(set.results[0].normal, 0.0, 0.0, 1.0);
	ck_assert_uint_eq(set.results[1].fields, cli_resultHit);
	ck_assert_ptr_null(set.results[1].problem);
	/* a problem inside is placed there */
	ck_assert_str_eq(set.results[2].problem, "alpha: expected a number, found 'x'");
	ck_assert_int_eq(set.results[2].problemLine, 3);
	ck_assert_int_eq(set.results[2].problemColumn, 28);
	ck_assert_str_eq(set.results[2].id, "c");
	assertNote(&set, "answers nested under \"result\"");
	ck_assert_str_eq(set.ignored, "result.extra");
	cliResultSet_Free(&set);
	/* --map with a dotted path: result.when=alpha reads a key no spelling knows */
	const char* map[] = { "out.when", "alpha", "out.ok", "hit" };
	set = parseTolerant("{\"id\":1,\"out\":{\"ok\":true,\"when\":0.75}}\n", graded, map, 2);
	ck_assert_int_eq(set.problems, 0);
	ck_assert_uint_eq(set.results[0].fields, cli_resultHit | cli_resultAlpha);
	assertSame(set.results[0].alpha, 0.75);
	ck_assert_ptr_null(set.ignored);
	cliResultSet_Free(&set);
	/* and it wins over a spelling: result.t=alpha where result holds t */
	const char* map2[] = { "result.t", "alpha" };
	set = parseTolerant("{\"id\":1,\"result\":{\"hit\":true,\"t\":0.375}}\n", graded, map2, 1);
	assertSame(set.results[0].alpha, 0.375);
	cliResultSet_Free(&set);
	/* an object holding nothing known is not taken for the answer */
	set = parseTolerant("{\"id\":1,\"hit\":true,\"alpha\":0.5,\"meta\":{\"who\":\"x\"}}\n", graded, NULL, 0);
	ck_assert_ptr_null(strstr(set.reading.note, "nested"));
	ck_assert_str_eq(set.ignored, "meta.who");
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(shapeKeyedById)
{
	unsigned graded = cli_resultHit | cli_resultAlpha;
	cliResultSet set = parseTolerant("{\"throw-1\": {\"hit\": true, \"alpha\": 0.5},\n"
									 " \"throw-2\": {\"hit\": \"no\", \"alpha\": NaN},\n"
									 " \"7\": {\"result\": {\"hit\": true, \"t\": \"x\"}}}\n",
									 graded, NULL, 0);
	ck_assert_int_eq(set.count, 3);
	ck_assert_str_eq(set.results[0].id, "throw-1");
	ck_assert_int_eq(set.results[0].idKind, cli_idString);
	ck_assert(set.results[0].hit);
	assertSame(set.results[0].alpha, 0.5);
	ck_assert_str_eq(set.results[1].id, "throw-2");
	ck_assert_ptr_null(set.results[1].problem);
	ck_assert_int_eq(set.results[1].line, 2);
	ck_assert_int_eq(set.results[1].column, 13);
	ck_assert_str_eq(set.results[2].id, "7");
	char* key = cliResult_IdKey(set.results + 2);
	ck_assert_str_eq(key, "n7e0"); /* the key "7" is the id 7, as a CSV cell would be */
	free(key);
	ck_assert_str_eq(set.results[2].problem, "alpha: expected a number, found 'x'");
	ck_assert_int_eq(set.results[2].problemLine, 3);
	ck_assert_int_eq(set.results[2].problemColumn, 37);
	ck_assert(!set.positional);
	assertNote(&set, "read as JSON keyed by id");
	assertNote(&set, "answers nested under \"result\"");
	cliResultSet_Free(&set);
	/* a record with an id of its own is no keyed file */
	set = parseTolerant("{\"id\":\"a\",\"result\":{\"hit\":true,\"alpha\":0.5}}\n", graded, NULL, 0);
	ck_assert_int_eq(set.count, 1);
	ck_assert_str_eq(set.results[0].id, "a");
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(shapePositional)
{
	unsigned graded = cli_resultHit | cli_resultAlpha;
	cliResultSet set = parseTolerant("hit,alpha\ntrue,0.5\nfalse,1\n", graded, NULL, 0);
	ck_assert_int_eq(set.count, 2);
	ck_assert(set.positional);
	ck_assert_int_eq(set.results[1].idKind, cli_idIndex);
	cliResultSet_Free(&set);
	set = parseTolerant("[{\"hit\":true,\"alpha\":0.5},{\"hit\":false,\"alpha\":NaN}]", graded, NULL, 0);
	ck_assert(set.positional);
	ck_assert_int_eq(set.problems, 0);
	cliResultSet_Free(&set);
	/* one id is enough to match by ids */
	set = parseTolerant("id,hit,alpha\n,true,0.5\n3,false,1\n", graded, NULL, 0);
	ck_assert(!set.positional);
	cliResultSet_Free(&set);
	set = parseOk("[{\"id\":1,\"hit\":false,\"alpha\":1}]");
	ck_assert(!set.positional);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(shapeEmpty)
{
	unsigned graded = cli_resultHit | cli_resultAlpha;
	const char* empty[] = { "", " \n\t\n", "\xEF\xBB\xBF" };
	for (size_t k = 0; k < sizeof empty / sizeof empty[0]; ++k) {
		cliResultSet set = parseTolerant(empty[k], graded, NULL, 0);
		ck_assert_int_eq(set.count, 0);
		ck_assert_int_eq(set.shape, cli_shapeEmptyFile);
		ck_assert(!set.positional);
		cliResultSet_Free(&set);
	}
	const char* headerOnly[] = { "id,hit,alpha\n", "id;hit;alpha\r\n\r\n", "[]", " [\n]\n", "{\"results\":[]}", "{}" };
	for (size_t k = 0; k < sizeof headerOnly / sizeof headerOnly[0]; ++k) {
		cliResultSet set = parseTolerant(headerOnly[k], graded, NULL, 0);
		ck_assert_int_eq(set.count, 0);
		ck_assert_msg(set.shape == cli_shapeHeaderOnly, "%s: shape %d", headerOnly[k], (int)set.shape);
		cliResultSet_Free(&set);
	}
	cliResultSet set = parseOk("id,hit,alpha\n");
	ck_assert_int_eq(set.shape, cli_shapeHeaderOnly);
	cliResultSet_Free(&set);
	set = parseOk("id,hit,alpha\n1,true,0.5\n");
	ck_assert_int_eq(set.shape, cli_shapeRecords);
	cliResultSet_Free(&set);
}
END_TEST

static Suite* resultsReadSuite(void)
{
	Suite* suite = suite_create("results_read");

	TCase* json = tcase_create("json");
	tcase_add_test(json, jsonDocument);
	tcase_add_test(json, jsonArrayAndDocumentDetection);
	tcase_add_test(json, ndjsonLenient);
	tcase_add_test(json, jsonStringsAndNumbers);
	tcase_add_test(json, jsonSyntaxErrors);
	tcase_add_test(json, jsonTypeErrors);
	suite_add_tcase(suite, json);

	TCase* csv = tcase_create("csv");
	tcase_add_test(csv, csvCast);
	tcase_add_test(csv, csvLenient);
	tcase_add_test(csv, csvErrors);
	tcase_add_test(csv, nulBytes);
	suite_add_tcase(suite, csv);

	TCase* streams = tcase_create("streams");
	tcase_set_timeout(streams, 60);
	tcase_add_test(streams, manyChunks);
	tcase_add_test(streams, readError);
	suite_add_tcase(suite, streams);

	TCase* tolerant = tcase_create("tolerant");
	tcase_add_test(tolerant, tolerantUngradedFields);
	tcase_add_test(tolerant, tolerantNonFinite);
	tcase_add_test(tolerant, tolerantSpellings);
	suite_add_tcase(suite, tolerant);

	TCase* shapes = tcase_create("shapes");
	tcase_add_test(shapes, shapeSeparators);
	tcase_add_test(shapes, shapeHitWords);
	tcase_add_test(shapes, shapeMissAlpha);
	tcase_add_test(shapes, shapeNested);
	tcase_add_test(shapes, shapeKeyedById);
	tcase_add_test(shapes, shapePositional);
	tcase_add_test(shapes, shapeEmpty);
	suite_add_tcase(suite, shapes);

	TCase* ids = tcase_create("ids");
	tcase_add_test(ids, idKeys);
	suite_add_tcase(suite, ids);

	return suite;
}

int main(void)
{
	return bcRunSuite(resultsReadSuite());
}
