/* json_stream.h - the one JSON front end. A streaming scanner finds where
 * each value ends in the input (strings, escapes, brackets, reading more
 * while a value is cut off by the end of the buffer), and the parser reads
 * exactly that value, once: it checks every byte against RFC 8259 (JSON's
 * number grammar, escapes, control bytes, UTF-8, nesting), words the first
 * problem with its place, converts numbers with the one decimal parser
 * (bcParseDouble) straight from the text, and builds the value as a tree
 * of cJSON nodes that also know where each value and key stands and how
 * long each string is (NULs included). Readers walk the tree with cJSON's
 * accessors and ask these functions for places. (cJSON's own parser cannot
 * serve: it cannot tell "cut off" from "malformed", keeps no positions,
 * accepts numbers JSON does not, 01, 1. and -.5, bad escapes and control
 * bytes, and cuts strings at a NUL.)
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
 * of a multi-gigabyte file into memory before the error is found. (A build
 * may set it smaller: the fuzz target of the limits does.) */
#ifndef CLI_JSON_MAX_VALUE
#define CLI_JSON_MAX_VALUE ((size_t)16 * 1024 * 1024)
#endif

/* The length of the longest prefix of s[0 .. n) that is a JSON number
 * (RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or 0. */
size_t cliJsonNumberPrefix(const char* s, size_t n);

/* Is s[0 .. n) exactly a JSON number? */
bool cliIsJsonNumber(const char* s, size_t n);

/* ------------------------------------------------------------ one value */

/* A parser: scratch for reading values, one per thread that parses (no
 * state is shared between parsers). NULL when out of memory. */
typedef struct cliJsonParser cliJsonParser;
cliJsonParser* cliJsonParser_Create(void);
void cliJsonParser_Destroy(cliJsonParser* parser);

/* Parse the JSON value text[0 .. length) (a whole value, as the stream
 * takes it), reading it once. Returns the value, which the parser owns
 * until its next parse (never cJSON_Delete it) and whose places point into
 * text (keep text until then); or NULL when the text is not one valid JSON
 * value, with *offset the place of the first problem and message what it
 * is, or when out of memory (*offset SIZE_MAX). Strings and keys are valid
 * UTF-8: a string that is not is a problem ("id: not valid UTF-8 (byte
 * 0xFF)", at the first byte of the sequence that is not). */
cJSON* cliJsonParser_Parse(cliJsonParser* parser, const char* text, size_t length, size_t* offset, char* message,
						   size_t messageSize);

/* After a parse that failed: the line and column of the problem, for a
 * text that starts at line:column of its input. */
void cliJsonParser_ProblemPosition(const cliJsonParser* parser, long line, long column, long* problemLine,
								   long* problemColumn);

/* The value of text[0 .. length) as far as it was read whole before its
 * first problem: an object or array holds the members or elements read
 * before it (an object broken after its "id" still has it). From the last
 * parse when that was of text (the same address and length), else text is
 * parsed now. NULL when nothing was read (or out of memory: *noMemory);
 * owned by the parser as Parse's value is. */
const cJSON* cliJsonParser_PartialValue(cliJsonParser* parser, const char* text, size_t length, bool* noMemory);

/* The length of the JSON value at text[0] (not white space) when text[0 ..
 * length) holds the whole of it; length when it does not end there (or is
 * broken: the parser then says how). */
size_t cliJsonValueLength(const char* text, size_t length);

/* What the parser knows of each node of its tree (a parser's nodes only):
 * whether member's key is exactly name (decoded, NULs included: a key
 * holding \u0000 is no plain name); the first member of object with that
 * key (NULL if none, or object is not one); a key's decoded length (NULs
 * included; member->string stops at the first); a string's decoded length and
 * whether it holds a NUL (valuestring, a C string, stops at the first); the
 * value's text as written (a number exactly as written) and a member's key
 * as written, quotes included. */
bool cliJsonKeyIs(const cJSON* member, const char* name);
size_t cliJsonKeyLength(const cJSON* member);
const cJSON* cliJsonMember(const cJSON* object, const char* name);
size_t cliJsonStringLength(const cJSON* string);
bool cliJsonStringHasNul(const cJSON* string);
const char* cliJsonRawText(const cJSON* value, size_t* length);
const char* cliJsonRawKey(const cJSON* member, size_t* length);

/* Where node (a value within root, the value parsed from text[0 ..
 * length)) starts in the text, and where its key does (object members;
 * else SIZE_MAX). False when node is not in the text. */
bool cliLocateJsonNode(const char* text, size_t length, const cJSON* root, const cJSON* node, size_t* valueOffset,
					   size_t* keyOffset);

/* The line and column of node within root, the value parsed from text[0
 * .. length) that starts at line:column; line:column itself when node is
 * NULL. Kept by the parser: nothing is read again. */
void cliJsonPosition(const char* text, size_t length, long line, long column, const cJSON* root, const cJSON* node,
					 long* nodeLine, long* nodeColumn);

/* The line and column of node, or of member's key, within root (a value a
 * parser made, which starts at line:column of its input): from what the
 * parser kept, without the text; line:column itself when node is NULL. */
void cliJsonNodePosition(const cJSON* root, const cJSON* node, long line, long column, long* nodeLine,
						 long* nodeColumn);
void cliJsonKeyPosition(const cJSON* root, const cJSON* member, long line, long column, long* keyLine,
						long* keyColumn);

/* Does the key of member (an object member within root, the value parsed
 * from text[0 .. length)) hold an escaped NUL? cJSON's C string of such a
 * key ends at the NUL ("p\u00000" reads as "p"), so it names no field. */
bool cliJsonKeyHasNul(const char* text, size_t length, const cJSON* root, const cJSON* member);

/* Do the keys of members a and b (object members within root, the value
 * parsed from text[0 .. length)) decode to the same bytes, NULs included?
 * (cJSON's C strings cannot tell "a\u0000b" from "a\u0000c".) */
bool cliJsonSameKey(const char* text, size_t length, const cJSON* root, const cJSON* a, const cJSON* b);

/* Does the raw JSON text[0 .. length) hold the escape \u0000? (Reads the
 * text; of a parsed string, cliJsonStringHasNul says it at once.) */
bool cliJsonHasNulEscape(const char* text, size_t length);

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
	cliJsonParser* parser; /* for keys, and the message of a value the scanner cannot delimit */
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
