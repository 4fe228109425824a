/* json_stream.h - the one JSON front end. A streaming scanner finds where
 * each value ends in the input (strings, escapes, brackets, reading more
 * while a value is cut off by the end of the buffer), and cJSON parses
 * exactly that value. cJSON alone cannot serve: it cannot tell "cut off"
 * from "malformed", keeps no positions, reports some errors a byte off,
 * accepts numbers JSON does not (01, 1., -.5) and bad escapes ("\u12G4"),
 * and skips control bytes as white space. So around it: every number is
 * checked against JSON's grammar (and converted by the one decimal parser,
 * bcParseDouble), every escape checked, and a value cJSON or these checks
 * refuse is walked by a strict checker that says what is wrong and where.
 *
 * Three containers are streamed: a JSON array (element by element), a
 * sequence of values separated by white space (NDJSON), and one object
 * level (member by member, for the results document of `ballcast cast`).
 * Values inside them are taken whole. In a sequence a value that cannot be
 * delimited, or is followed by anything but white space, is a bad value
 * covering the rest of its line, and reading goes on with the next line;
 * in an array or object that breaks the structure and stops the reading. */
#ifndef BC_JSON_STREAM_H
#define BC_JSON_STREAM_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "ballcast.h"
#include "input.h"

/* The longest value taken (one record, or a scene). Real records are well
 * under 1 KiB; the limit stops a missing '}' or '"' from pulling the rest
 * of a multi-gigabyte file into memory before the error is found. */
#define CLI_JSON_MAX_VALUE ((size_t)16 * 1024 * 1024)

/* The length of the longest prefix of s[0 .. n) that is a JSON number
 * (RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or 0. */
size_t cliJsonNumberPrefix(const char* s, size_t n);

/* Is s[0 .. n) exactly a JSON number? */
bool cliIsJsonNumber(const char* s, size_t n);

/* ------------------------------------------------------------ one value */

/* Scratch for parsing values: one per thread that parses. */
typedef struct cliJsonParser cliJsonParser;

/* A parser; NULL when out of memory. The first call also installs cJSON's
 * allocation hooks, so make it before threads use cJSON. */
cliJsonParser* cliJsonParser_Create(void);
void cliJsonParser_Destroy(cliJsonParser* parser);

/* Parse the JSON value text[0 .. length) (a whole value, as the stream
 * takes it). Returns the value, which the parser owns until its next parse
 * (never cJSON_Delete it); or NULL when the text is not one valid JSON
 * value, with *offset the place of the first problem and message what it
 * is, or when out of memory (*offset SIZE_MAX). */
cJSON* cliJsonParser_Parse(cliJsonParser* parser, const char* text, size_t length, size_t* offset, char* message,
						   size_t messageSize);

/* The length of the JSON value at text[0] (not white space) when text[0 ..
 * length) holds the whole of it; length when it does not end there (or is
 * broken: the parser then says how). */
size_t cliJsonValueLength(const char* text, size_t length);

/* Where node (a value within root, the value parsed from text[0 ..
 * length)) starts in the text, and where its key does (object members;
 * else SIZE_MAX). False when node is not in root. */
bool cliJsonLocate(const char* text, size_t length, const cJSON* root, const cJSON* node, size_t* valueOffset,
				   size_t* keyOffset);

/* The line and column of node within root, the value parsed from text[0
 * .. length) that starts at line:column; line:column itself when node is
 * NULL or not in root. */
void cliJsonPosition(const char* text, size_t length, long line, long column, const cJSON* root, const cJSON* node,
					 long* nodeLine, long* nodeColumn);

/* Does the raw key of member (an object member within root, the value
 * parsed from text[0 .. length)) hold an escaped NUL? cJSON's C string of
 * such a key ends at the NUL ("p\u00000" reads as "p"), so it names no
 * field. Only text with a backslash can hold one: ask only then. */
bool cliJsonKeyHasNul(const char* text, size_t length, const cJSON* root, const cJSON* member);

/* Do the keys of members a and b (object members within root, the value
 * parsed from text[0 .. length)) decode to the same bytes, NULs included?
 * (cJSON's C strings cannot tell "a\u0000b" from "a\u0000c", and raw
 * text cannot tell "a\u0000" from "\u0061\u0000".) */
bool cliJsonSameKey(const char* text, size_t length, const cJSON* root, const cJSON* a, const cJSON* b);

/* Does the raw JSON text[0 .. length) hold the escape \u0000? (A string
 * that does is cut short in cJSON's C string.) */
bool cliJsonHasNulEscape(const char* text, size_t length);

/* The raw text of the value of the first top-level "id" member of the
 * object text[0 .. length), found while the text is well formed up to it
 * (so also in a record that is malformed after its id): true with
 * [*begin, *end) its bytes. */
bool cliJsonFindId(const char* text, size_t length, size_t* begin, size_t* end);

/* The checks every reader makes of a field's value: NULL when it is what
 * is asked (and *out holds it), else the problem, to follow the field's
 * name in a message: "expected a number", "not a finite number" (a number
 * beyond a double's range), "expected an array of 3 numbers". For a vector
 * *at is the node the problem is at (the array, or its element). */
const char* cliJsonNumberValue(const cJSON* value, double* out);
const char* cliJsonVec3Value(const cJSON* value, bcVec3* out, const cJSON** at);

/* ---------------------------------------------------------- the stream */

/* Containers entered, the outermost first. */
#define CLI_JSON_STREAM_DEPTH 4

typedef enum cliJsonLevel {
	cli_levelSequence = 0, /* values separated by white space (NDJSON) */
	cli_levelArray,
	cli_levelObject
} cliJsonLevel;

typedef struct cliJsonStream {
	cliInput* input;
	int depth;
	cliJsonLevel levels[CLI_JSON_STREAM_DEPTH];
	bool first[CLI_JSON_STREAM_DEPTH];
	char* key;           /* in an object, after Next: the member's key (decoded) */
	bool keyHasNul;      /* ... which holds \u0000 (so it names nothing) */
	long keyLine, keyColumn;
	cliJsonParser* parser; /* for keys */
} cliJsonStream;

/* A value taken from the input: its bytes (valid until the next call on
 * the stream) and where it starts. A bad value (in a sequence) is the rest
 * of its line, with the problem's place and message in problem. */
typedef struct cliJsonSpan {
	const char* text;
	size_t length;
	long line;
	long column;
	bool bad;
	bcError problem;
} cliJsonSpan;

/* Start streaming input (not owned) as a sequence of values. False when
 * out of memory. */
bool cliJsonStream_Open(cliJsonStream* stream, cliInput* input);
void cliJsonStream_Close(cliJsonStream* stream);

/* Move to the next value of the innermost container, skipping white
 * space: 1 when the input is at one (in an object, key holds its key), 0
 * when the container has ended (it is left; the end of the input ends a
 * sequence), -1 on a syntax or read error (error filled). */
int cliJsonStream_Next(cliJsonStream* stream, bcError* error);

/* After Next: enter the array or object at the input (1), or 0 when the
 * value is neither (nothing is consumed). */
int cliJsonStream_Enter(cliJsonStream* stream, bcError* error);

/* After Next: take the value at the input whole. 1 with span, -1 on a
 * syntax or read error (error filled). */
int cliJsonStream_Take(cliJsonStream* stream, cliJsonSpan* span, bcError* error);

/* Does the object at the input (its '{' unread) hold, at its top level, a
 * member named key whose value is an array? Looked for in its first
 * CLI_JSON_MAX_VALUE bytes, consuming nothing: 1 yes, 0 no, -1 on a read
 * error. (A results document is told from a result this way without
 * holding the whole document.) */
int cliJsonStream_HasArrayMember(cliJsonStream* stream, const char* key, bcError* error);

/* After the outermost array or object has ended: only white space may
 * follow. 1, or -1 with the error ("unexpected data after the closing ']'"
 * or what is given as what). */
int cliJsonStream_Finish(cliJsonStream* stream, const char* what, bcError* error);

#endif
