/* json_stream.c - unit tests for the one JSON front end (cli/json_stream.h):
 * JSON's number grammar; one value parsed with strtod's numbers and every
 * refusal placed and worded (numbers JSON does not allow, NaN, bad escapes,
 * control bytes, bytes that are not UTF-8, trailing data, cut-off values);
 * where a node and its key stand, its text as written, a string's length;
 * escaped NULs; the id of a record broken after it; and the stream:
 * a sequence goes on after a bad line, an array or object stops at broken
 * structure, keys, the look-ahead for an array member, and what may follow
 * the end. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "json_stream.h"

START_TEST(numberGrammar)
{
	static const struct {
		const char* text;
		size_t prefix;
	} cases[] = {
		{ "0", 1 },       { "-0", 2 },       { "12.5e-3", 7 }, { "1E+9", 4 }, { "01", 1 },  { "1.", 1 },
		{ "-.5", 0 },     { ".5", 0 },       { "+1", 0 },      { "1e", 1 },  { "1e+", 1 }, { "2.5x", 3 },
		{ "-", 0 },       { "123456789012345678901234567890", 30 }, { "0x10", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		size_t n = strlen(cases[i].text);
		ck_assert_msg(cliJsonNumberPrefix(cases[i].text, n) == cases[i].prefix, "'%s'", cases[i].text);
		ck_assert_msg(cliIsJsonNumber(cases[i].text, n) == (cases[i].prefix == n && n > 0), "'%s'", cases[i].text);
	}
	ck_assert(!cliIsJsonNumber("", 0));
}
END_TEST

/* Parse text as one value: the value, or NULL with the problem. */
static cJSON* parse(cliJsonParser* parser, const char* text, size_t* offset, char* message)
{
	*offset = 0;
	message[0] = '\0';
	return cliJsonParser_Parse(parser, text, strlen(text), offset, message, 128);
}

START_TEST(valuesParseWithStrtodsNumbers)
{
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	size_t offset;
	char message[128];
	const char* text = "{\"p\": [0.1000000000000000055511151231257827, -2.5e-310, 7, 123456789012345678901],"
					   " \"s\": \"a\\u00e9\\n\", \"t\": true, \"n\": null, \"o\": {}}";
	cJSON* root = parse(parser, text, &offset, message);
	ck_assert_msg(root != NULL, "%s at %zu", message, offset);
	const cJSON* p = cJSON_GetObjectItemCaseSensitive(root, "p");
	ck_assert_int_eq(cJSON_GetArraySize(p), 4);
	static const char* const numbers[] = { "0.1000000000000000055511151231257827", "-2.5e-310", "7",
										   "123456789012345678901" };
	for (int k = 0; k < 4; ++k) {
		double expected = strtod(numbers[k], NULL);
		double got = cJSON_GetArrayItem(p, k)->valuedouble;
		ck_assert_msg(memcmp(&got, &expected, sizeof got) == 0, "%s read as %.17g", numbers[k], got);
	}
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "s")->valuestring, "a\xC3\xA9\n");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "t")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "n")));
	ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "o")));

	/* the parser is reused: the next value replaces the last */
	root = parse(parser, " [\"x\", 12345.5] ", &offset, message);
	ck_assert_ptr_nonnull(root);
	ck_assert(cJSON_GetArrayItem(root, 1)->valuedouble == 12345.5);
	cliJsonParser_Destroy(parser);
}
END_TEST

START_TEST(refusalsPlacedAndWorded)
{
	static const struct {
		const char* text;
		size_t offset;
		const char* message;
	} cases[] = {
		{ "{\"x\": 01}", 6, "invalid JSON number '01'" },
		{ "[1.]", 1, "invalid JSON number '1.'" },
		{ "[-.5]", 1, "invalid JSON number '-.5'" },
		{ "{\"r\": NaN}", 6, "NaN and Infinity are not JSON numbers" },
		{ "[1, -Infinity]", 4, "NaN and Infinity are not JSON numbers" },
		{ "[yes]", 1, "invalid JSON value 'yes'" },
		{ "\"a\\u12G4\"", 2, "invalid escape sequence in a string" },
		{ "\"a\\q\"", 2, "invalid escape sequence in a string" },
		{ "\"tab\there\"", 4, "control character 0x09 in a string (write it as an escape)" },
		{ "[1,\x01 2]", 3, "invalid JSON: unexpected byte 0x01" },
		{ "[1,]", 3, "expected an element after ',' (no trailing commas in JSON)" },
		{ "{\"a\":1,}", 7, "expected a key after ',' (no trailing commas in JSON)" },
		{ "{\"a\" 1}", 5, "invalid JSON: unexpected '1' (expected ':' after a key)" },
		{ "{a:1}", 1, "invalid JSON: unexpected 'a' (expected a key in double quotes)" },
		{ "[1 2]", 3, "invalid JSON: unexpected '2' (expected ',' or ']' after an element)" },
		{ "{} x", 3, "invalid JSON: unexpected 'x'" },
		{ "[1, 2", 5, "unexpected end of input inside a JSON value" },
		{ "\"open", 0, "unterminated string" },
		/* strings are UTF-8: the first byte of what is not, named by the key it is the value of */
		{ "{\"id\": \"a\xFF\"}", 9, "id: not valid UTF-8 (byte 0xFF)" },
		{ "{\"id\": \"\xC0\xAF\"}", 8, "id: not valid UTF-8 (byte 0xC0)" },
		{ "{\"id\": \"\xED\xA0\x80\"}", 8, "id: not valid UTF-8 (bytes 0xED 0xA0)" },
		{ "{\"k\xE9y\": 1}", 3, "a key is not valid UTF-8 (byte 0xE9)" },
		{ "[\"\xF4\x90\x80\x80\"]", 2, "a string is not valid UTF-8 (bytes 0xF4 0x90)" },
		{ "{\"a b\": \"\xFF\"}", 9, "a string is not valid UTF-8 (byte 0xFF)" },
		{ "\"ab\xC3", 0, "unterminated string" }, /* cut short by the end */
		/* a quoted token stays valid UTF-8, control bytes written out */
		{ "[\xFF\xFEx]", 1, "invalid JSON value '\\xFF\\xFEx'" },
		{ "[1\x7F]", 1, "invalid JSON number '1\\x7F'" },
	};
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		size_t offset;
		char message[128];
		ck_assert_msg(parse(parser, cases[i].text, &offset, message) == NULL, "'%s' parsed", cases[i].text);
		ck_assert_msg(offset == cases[i].offset && strcmp(message, cases[i].message) == 0,
					  "'%s': %zu '%s', expected %zu '%s'", cases[i].text, offset, message, cases[i].offset,
					  cases[i].message);
	}
	cliJsonParser_Destroy(parser);
}
END_TEST

START_TEST(valueLength)
{
	ck_assert_uint_eq(cliJsonValueLength("{\"a\": [1, \"]\"]} tail", 20), 15);
	ck_assert_uint_eq(cliJsonValueLength("\"a\\\"b\", 1", 9), 6);
	ck_assert_uint_eq(cliJsonValueLength("-12.5e3]", 8), 7);
	ck_assert_uint_eq(cliJsonValueLength("[1, [2]", 7), 7); /* does not end */
}
END_TEST

START_TEST(nodesLocated)
{
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	const char* text = "{\"id\": 7,\n \"p0\": [1, 2,\n    3], \"k\": {\"p0\": 5}}";
	size_t offset;
	char message[128];
	cJSON* root = parse(parser, text, &offset, message);
	ck_assert_ptr_nonnull(root);
	const cJSON* p0 = cJSON_GetObjectItemCaseSensitive(root, "p0");
	const cJSON* z = cJSON_GetArrayItem(p0, 2);
	size_t value, key;
	ck_assert(cliLocateJsonNode(text, strlen(text), root, p0, &value, &key));
	ck_assert_uint_eq(key, 11);
	ck_assert_uint_eq(value, 17);
	ck_assert(cliLocateJsonNode(text, strlen(text), root, z, &value, &key));
	ck_assert_uint_eq(value, 28);
	ck_assert_uint_eq(key, SIZE_MAX);
	long line, column;
	/* the text starts at line 3, column 5 of its input */
	cliJsonPosition(text, strlen(text), 3, 5, root, z, &line, &column);
	ck_assert(line == 5 && column == 5);
	cliJsonPosition(text, strlen(text), 3, 5, root, p0, &line, &column);
	ck_assert(line == 4 && column == 8);
	const cJSON* inner = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "k"), "p0");
	cliJsonPosition(text, strlen(text), 1, 1, root, inner, &line, &column);
	ck_assert(line == 3 && column == 21);
	cliJsonPosition(text, strlen(text), 3, 5, root, NULL, &line, &column);
	ck_assert(line == 3 && column == 5);
	cliJsonParser_Destroy(parser);
}
END_TEST

START_TEST(escapedNuls)
{
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	const char* text = "{\"p\\u00000\": 1, \"p\\u0030\": 2, \"q\": \"\\u0000\"}";
	size_t offset;
	char message[128];
	cJSON* root = parse(parser, text, &offset, message);
	ck_assert_ptr_nonnull(root);
	const cJSON* first = root->child;
	const cJSON* second = first->next;
	ck_assert_str_eq(first->string, "p"); /* cJSON's string stops at the NUL */
	ck_assert(cliJsonKeyHasNul(text, strlen(text), root, first));
	ck_assert_str_eq(second->string, "p0");
	ck_assert(!cliJsonKeyHasNul(text, strlen(text), root, second));
	ck_assert(cliJsonHasNulEscape("\"a\\u0000\"", 9));
	ck_assert(!cliJsonHasNulEscape("\"a\\\\u0000\"", 10)); /* an escaped backslash, then text */
	ck_assert(!cliJsonHasNulEscape("\"a\\u0001\"", 9));
	cliJsonParser_Destroy(parser);
}
END_TEST


/* The parser keeps where every value and key stands (line and column from
 * the text's start, lines counted as it reads), a string's length with its
 * NULs, and a number as written. */
START_TEST(nodesKnowTheirPlaceAndText)
{
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	const char* text = "{\"id\": 1.50e0,\n  \"s\": \"a\\u0000b\\u00e9\",\r\n \"k\\u0000\": [true,\n\n   -0]}";
	size_t offset;
	char message[128];
	cJSON* root = parse(parser, text, &offset, message);
	ck_assert_msg(root != NULL, "%s at %zu", message, offset);
	const cJSON* id = cliJsonMember(root, "id");
	size_t length = 0;
	const char* raw = cliJsonRawText(id, &length);
	ck_assert(length == 6 && memcmp(raw, "1.50e0", 6) == 0);
	const cJSON* s = cliJsonMember(root, "s");
	ck_assert_uint_eq(cliJsonStringLength(s), 5);
	ck_assert(memcmp(s->valuestring, "a\0b\xC3\xA9", 6) == 0);
	ck_assert(cliJsonStringHasNul(s));
	const cJSON* k = s->next;
	ck_assert_ptr_null(cliJsonMember(root, "k")); /* "k\u0000" is not "k" */
	ck_assert(!cliJsonKeyIs(k, "k"));
	ck_assert_uint_eq(cliJsonKeyLength(k), 2);
	raw = cliJsonRawKey(k, &length);
	ck_assert(length == 9 && memcmp(raw, "\"k\\u0000\"", 9) == 0);
	long line, column;
	/* the text starts at line 7, column 3 of its input */
	cliJsonPosition(text, strlen(text), 7, 3, root, id, &line, &column);
	ck_assert(line == 7 && column == 10);
	cliJsonKeyPosition(root, s, 7, 3, &line, &column);
	ck_assert(line == 8 && column == 3);
	cliJsonKeyPosition(root, k, 7, 3, &line, &column);
	ck_assert(line == 9 && column == 2);
	const cJSON* zero = cJSON_GetArrayItem(k, 1);
	cliJsonPosition(text, strlen(text), 7, 3, root, zero, &line, &column);
	ck_assert(line == 11 && column == 4);
	/* relative to a value inside: as if its text started there */
	cliJsonNodePosition(k, zero, 1, 1, &line, &column);
	ck_assert(line == 3 && column == 4);
	/* a problem's place, from the parser */
	ck_assert_ptr_null(parse(parser, "[1,\n 2,\n   x]", &offset, message));
	cliJsonParser_ProblemPosition(parser, 4, 9, &line, &column);
	ck_assert(line == 6 && column == 4);
	ck_assert_ptr_null(parse(parser, "  [1, x]", &offset, message));
	cliJsonParser_ProblemPosition(parser, 4, 9, &line, &column);
	ck_assert(line == 4 && column == 15);
	cliJsonParser_Destroy(parser);
}
END_TEST

/* A value broken part-way keeps what was read whole before the problem:
 * the id of a record malformed after it. */
START_TEST(partialValueKeepsWhatCameBefore)
{
	cliJsonParser* parser = cliJsonParser_Create();
	ck_assert_ptr_nonnull(parser);
	bool noMemory = true;
	const char* text = "{\"p0\": [1,2,3], \"id\": 1.50, \"r\": NaN}";
	size_t offset;
	char message[128];
	ck_assert_ptr_null(parse(parser, text, &offset, message));
	const cJSON* partial = cliJsonParser_PartialValue(parser, text, strlen(text), &noMemory);
	ck_assert(!noMemory);
	const cJSON* id = cliJsonMember(partial, "id");
	ck_assert_ptr_nonnull(id);
	size_t length = 0;
	const char* raw = cliJsonRawText(id, &length);
	ck_assert(length == 4 && memcmp(raw, "1.50", 4) == 0); /* a number as written */
	ck_assert_ptr_null(cliJsonMember(partial, "r")); /* not read whole */
	/* a key spelled with escapes; the text cut after the id (parsed now: not the last text) */
	text = "{ \"i\\u0064\" : \"a,}\" ";
	partial = cliJsonParser_PartialValue(parser, text, strlen(text), &noMemory);
	id = cliJsonMember(partial, "id");
	ck_assert_ptr_nonnull(id);
	ck_assert_str_eq(id->valuestring, "a,}");
	/* broken before the id: not there */
	text = "{\"p0\": [1,2,, \"id\": 3}";
	ck_assert_ptr_null(cliJsonMember(cliJsonParser_PartialValue(parser, text, strlen(text), &noMemory), "id"));
	text = "[\"id\", 3]";
	ck_assert_ptr_null(cliJsonMember(cliJsonParser_PartialValue(parser, text, strlen(text), &noMemory), "id"));
	text = "{\"idx\": 3, \"i\\u0000d\": 4}";
	ck_assert_ptr_null(cliJsonMember(cliJsonParser_PartialValue(parser, text, strlen(text), &noMemory), "id"));
	cliJsonParser_Destroy(parser);
}
END_TEST

START_TEST(fieldValues)
{
	cliJsonParser* parser = cliJsonParser_Create();
	size_t offset;
	char message[128];
	cJSON* root = parse(parser, "[2.5, 1e999, \"2\", [1, 2, 3], [1, 2], [1, 1e999, 3], [1e999, \"x\", 0], [1, 2, 3, 4], {}]",
						&offset, message);
	ck_assert_ptr_nonnull(root);
	const cJSON* v[9];
	for (int k = 0; k < 9; ++k) {
		v[k] = cJSON_GetArrayItem(root, k);
	}
	double x = 7.0;
	ck_assert_ptr_null(cliJsonNumberValue(v[0], &x));
	ck_assert(x == 2.5);
	ck_assert_str_eq(cliJsonNumberValue(v[1], &x), "not a finite number");
	ck_assert_str_eq(cliJsonNumberValue(v[2], &x), "expected a number");
	ck_assert_str_eq(cliJsonNumberValue(v[3], &x), "expected a number");
	ck_assert(x == 2.5);
	bcVec3 p = { 0, 0, 0 };
	const cJSON* at = NULL;
	ck_assert_ptr_null(cliJsonVec3Value(v[3], &p, &at));
	ck_assert(p.x == 1 && p.y == 2 && p.z == 3);
	ck_assert_str_eq(cliJsonVec3Value(v[4], &p, &at), "expected an array of 3 numbers");
	ck_assert_ptr_eq(at, v[4]);
	/* a number too large: at the element */
	ck_assert_str_eq(cliJsonVec3Value(v[5], &p, &at), "not a finite number");
	ck_assert_ptr_eq(at, cJSON_GetArrayItem(v[5], 1));
	/* a wrong type comes first, wherever it stands */
	ck_assert_str_eq(cliJsonVec3Value(v[6], &p, &at), "expected an array of 3 numbers");
	ck_assert_ptr_eq(at, v[6]);
	ck_assert_str_eq(cliJsonVec3Value(v[7], &p, &at), "expected an array of 3 numbers");
	ck_assert_str_eq(cliJsonVec3Value(v[8], &p, &at), "expected an array of 3 numbers");
	ck_assert_str_eq(cliJsonVec3Value(v[0], &p, &at), "expected an array of 3 numbers");
	ck_assert(p.x == 1 && p.y == 2 && p.z == 3);
	cliJsonParser_Destroy(parser);
}
END_TEST

/* ---------------------------------------------------------- the stream */

typedef struct testStream {
	FILE* file;
	cliInput input;
	cliJsonStream stream;
} testStream;

static void openStream(testStream* t, const char* text)
{
	t->file = tmpfile();
	ck_assert_ptr_nonnull(t->file);
	size_t length = strlen(text);
	ck_assert_uint_eq(fwrite(text, 1, length, t->file), length);
	rewind(t->file);
	ck_assert(cliInput_Open(&t->input, t->file));
	ck_assert(cliJsonStream_Open(&t->stream, &t->input));
}

static void closeStream(testStream* t)
{
	cliJsonStream_Close(&t->stream);
	cliInput_Close(&t->input);
	fclose(t->file);
}

/* Take must give a value of this text at line:column. */
static void expectTaken(testStream* t, const char* text, long line, long column)
{
	bcError error;
	cliJsonSpan span;
	int status = cliJsonStream_Take(&t->stream, &span, &error);
	ck_assert_msg(status == 1, "Take gave %d (%s)", status, status < 0 ? error.message : "");
	ck_assert_msg(!span.bad, "bad value: %s", span.problem.message);
	ck_assert_msg(span.length == strlen(text) && memcmp(span.text, text, span.length) == 0, "took '%.*s'",
				  (int)span.length, span.text);
	ck_assert_msg(span.line == line && span.column == column, "at %ld:%ld", span.line, span.column);
}

/* Next must give 1 and Take a value of this text at line:column. */
static void expectValue(testStream* t, const char* text, long line, long column)
{
	bcError error;
	int status = cliJsonStream_Next(&t->stream, &error);
	ck_assert_msg(status == 1, "Next gave %d (%s)", status, status < 0 ? error.message : "");
	expectTaken(t, text, line, column);
}

/* Next must give 1 and Take a bad value with this problem. */
static void expectBad(testStream* t, const char* text, long line, long column, const char* message)
{
	bcError error;
	cliJsonSpan span;
	ck_assert_int_eq(cliJsonStream_Next(&t->stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Take(&t->stream, &span, &error), 1);
	ck_assert(span.bad);
	ck_assert_msg(span.length == strlen(text) && memcmp(span.text, text, span.length) == 0, "took '%.*s'",
				  (int)span.length, span.text);
	ck_assert_msg(span.problem.line == line && span.problem.column == column && strcmp(span.problem.message, message) == 0,
				  "%ld:%ld %s", span.problem.line, span.problem.column, span.problem.message);
}

/* The operation's status must be -1 with this error. */
static void expectError(int status, const bcError* error, long line, long column, const char* message)
{
	ck_assert_int_eq(status, -1);
	ck_assert_msg(error->line == line && error->column == column && strcmp(error->message, message) == 0,
				  "%ld:%ld %s", error->line, error->column, error->message);
}

START_TEST(sequenceGoesOnAfterBadLines)
{
	testStream t;
	openStream(&t, "{\"a\": 1}\n  {\"b\":\n 2}\n{\"c\": 3}x y\n{\"d\": [1, 2\n{\"e\": 5}\n\n  7  \n{\"f\": \"open");
	bcError error;
	expectValue(&t, "{\"a\": 1}", 1, 1);
	expectValue(&t, "{\"b\":\n 2}", 2, 3);
	expectBad(&t, "{\"c\": 3}x y", 4, 9, "expected whitespace or a new line after a JSON value");
	/* a value cut off by its line's end is read on as JSON would; when that
	 * fails at a line starting a new record, the bad line is the one it
	 * starts on, cut short at its end (not at the next record's '{', where
	 * the checker stopped: issue 22) */
	expectBad(&t, "{\"d\": [1, 2", 5, 12, "invalid JSON: the record is cut short: its line ends inside a JSON value");
	expectValue(&t, "{\"e\": 5}", 6, 1);
	expectValue(&t, "7", 8, 3);
	expectBad(&t, "{\"f\": \"open", 9, 7, "unterminated string");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	ck_assert_int_eq(cliJsonStream_Finish(&t.stream, "data", &error), 1);
	closeStream(&t);
}
END_TEST

START_TEST(cutRecordsAreReportedWhereTheyBreak)
{
	testStream t;
	/* a record over two lines cut on its second, then the next record: cut
	 * at the end of line 2's text; a problem inside a record over several
	 * lines stays where it is; a record cut by the end of the input after
	 * its new line (and blank lines) breaks at its text's end. The bad value
	 * is the first line, so line 2, read on as a value of its own, is cut at
	 * the same place. */
	openStream(&t, "{\"a\":\n [1, \n{\"b\": 2}\n{\"c\":\n  1]\n\n{\"d\": [\"x\",\n\n");
	bcError error;
	expectBad(&t, "{\"a\":", 2, 5, "invalid JSON: the record is cut short: its line ends inside a JSON value");
	expectBad(&t, "[1, ", 2, 5, "invalid JSON: the record is cut short: its line ends inside a JSON value");
	expectValue(&t, "{\"b\": 2}", 3, 1);
	expectBad(&t, "{\"c\":", 5, 4, "invalid JSON: unexpected ']' (expected ',' or '}' after a member)");
	expectBad(&t, "1]", 5, 4, "expected whitespace or a new line after a JSON value");
	expectBad(&t, "{\"d\": [\"x\",", 7, 12, "invalid JSON: the record is cut short: its line ends inside a JSON value");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	closeStream(&t);
}
END_TEST

START_TEST(arrayElementsAndBrokenStructure)
{
	testStream t;
	openStream(&t, " [ {\"a\": NaN},\n  [1], \"s\" , 2 3]");
	bcError error;
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	/* a bad element the scanner can delimit is taken whole (the parser
	 * refuses it later) */
	expectValue(&t, "{\"a\": NaN}", 1, 4);
	expectValue(&t, "[1]", 2, 3);
	expectValue(&t, "\"s\"", 2, 8);
	expectValue(&t, "2", 2, 14);
	expectError(cliJsonStream_Next(&t.stream, &error), &error, 2, 16, "expected ',' or ']' after an element");
	closeStream(&t);

	openStream(&t, "[1,]");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectValue(&t, "1", 1, 2);
	expectError(cliJsonStream_Next(&t.stream, &error), &error, 1, 4,
				"expected an element after ',' (no trailing commas in JSON)");
	closeStream(&t);

	openStream(&t, "[{\"a\": 1}, {\"b\": [}]");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectValue(&t, "{\"a\": 1}", 1, 2);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	cliJsonSpan span;
	expectError(cliJsonStream_Take(&t.stream, &span, &error), &error, 1, 19,
				"invalid JSON: unexpected '}' (expected a value)");
	closeStream(&t);

	openStream(&t, "[1, 2");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectValue(&t, "1", 1, 2);
	expectValue(&t, "2", 1, 5);
	expectError(cliJsonStream_Next(&t.stream, &error), &error, 1, 6, "unexpected end of input: expected ',' or ']'");
	closeStream(&t);

	openStream(&t, "[] [");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	expectError(cliJsonStream_Finish(&t.stream, "nothing after the array", &error), &error, 1, 4,
				"nothing after the array");
	closeStream(&t);
}
END_TEST

START_TEST(objectMembersAndKeys)
{
	testStream t;
	openStream(&t, "{\"mesh\": {\"file\": \"x\"},\n \"r\\u0065sults\": [ {\"id\": 1} ], \"k\\u0000\": 0 }  \n");
	bcError error;
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_HasArrayMember(&t.stream, "results", &error), 1);
	ck_assert_int_eq(cliJsonStream_HasArrayMember(&t.stream, "mesh", &error), 0);
	ck_assert_int_eq(cliJsonStream_HasArrayMember(&t.stream, "file", &error), 0); /* not at the top level */
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_str_eq(t.stream.key, "mesh");
	ck_assert(t.stream.keyLine == 1 && t.stream.keyColumn == 2);
	expectTaken(&t, "{\"file\": \"x\"}", 1, 10);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_str_eq(t.stream.key, "results");
	ck_assert(!t.stream.keyHasNul);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectValue(&t, "{\"id\": 1}", 2, 20);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert(t.stream.keyHasNul);
	expectTaken(&t, "0", 2, 44);
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	ck_assert_int_eq(cliJsonStream_Finish(&t.stream, "data after the document", &error), 1);
	closeStream(&t);

	openStream(&t, "{\"a\" 1}");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectError(cliJsonStream_Next(&t.stream, &error), &error, 1, 6, "expected ':' after a key");
	closeStream(&t);

	openStream(&t, "{1: 2}");
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Enter(&t.stream, &error), 1);
	expectError(cliJsonStream_Next(&t.stream, &error), &error, 1, 2, "expected a key (a string in double quotes)");
	closeStream(&t);
}
END_TEST

/* Values longer than the input's first buffer, and many across its ends. */
START_TEST(valuesAcrossTheBuffer)
{
	size_t count = 5000;
	size_t size = count * 64 + 300000;
	char* text = malloc(size);
	ck_assert_ptr_nonnull(text);
	size_t n = (size_t)sprintf(text, "{\"long\": \"");
	memset(text + n, 'x', 200000);
	n += 200000;
	n += (size_t)sprintf(text + n, "\"}\n");
	for (size_t i = 0; i < count; ++i) {
		n += (size_t)sprintf(text + n, "{\"id\": %zu, \"p\": [%zu.25, 2, 3]}\n", i, i);
	}
	testStream t;
	openStream(&t, text);
	bcError error;
	cliJsonSpan span;
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
	ck_assert_int_eq(cliJsonStream_Take(&t.stream, &span, &error), 1);
	ck_assert_uint_eq(span.length, 200000 + 12);
	cliJsonParser* parser = cliJsonParser_Create();
	for (size_t i = 0; i < count; ++i) {
		ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 1);
		ck_assert_int_eq(cliJsonStream_Take(&t.stream, &span, &error), 1);
		ck_assert(!span.bad);
		ck_assert_int_eq(span.line, (long)i + 2);
		size_t offset;
		char message[64];
		cJSON* root = cliJsonParser_Parse(parser, span.text, span.length, &offset, message, sizeof message);
		ck_assert_ptr_nonnull(root);
		ck_assert(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "p"), 0)->valuedouble == (double)i + 0.25);
	}
	ck_assert_int_eq(cliJsonStream_Next(&t.stream, &error), 0);
	cliJsonParser_Destroy(parser);
	closeStream(&t);
	free(text);
}
END_TEST

static Suite* jsonStreamSuite(void)
{
	Suite* suite = suite_create("json_stream");
	TCase* core = tcase_create("core");
	tcase_set_timeout(core, 60);
	tcase_add_test(core, numberGrammar);
	tcase_add_test(core, valuesParseWithStrtodsNumbers);
	tcase_add_test(core, refusalsPlacedAndWorded);
	tcase_add_test(core, valueLength);
	tcase_add_test(core, nodesLocated);
	tcase_add_test(core, escapedNuls);
	tcase_add_test(core, partialValueKeepsWhatCameBefore);
	tcase_add_test(core, nodesKnowTheirPlaceAndText);
	tcase_add_test(core, fieldValues);
	tcase_add_test(core, sequenceGoesOnAfterBadLines);
	tcase_add_test(core, cutRecordsAreReportedWhereTheyBreak);
	tcase_add_test(core, arrayElementsAndBrokenStructure);
	tcase_add_test(core, objectMembersAndKeys);
	tcase_add_test(core, valuesAcrossTheBuffer);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(jsonStreamSuite());
}
