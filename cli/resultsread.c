/* resultsread.c - reading `ballcast cast` results back (JSON document,
 * JSON array, NDJSON, CSV) for comparisons.
 *
 * One pass over the input, a byte at a time through a chunk buffer, so the
 * text is never held whole and every error knows its line and column. The
 * JSON parser is a small recursive descent parser that keeps only the keys
 * it knows and checks the rest for syntax (RFC 8259, strictly: no trailing
 * commas, no NaN, numbers by JSON's grammar); the CSV reader follows RFC
 * 4180 with cast's header (cli/results.c). A NUL byte is refused where it
 * stands, in either: it would cut a cell or token short. */
#include "resultsread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "records.h"

/* Bytes asked of the stream per read: large enough that fread's cost is
 * spread over thousands of results, small enough to stay in cache. */
#define CLI_RESULTS_CHUNK ((size_t)64 * 1024)

/* The longest string or number token kept (an id, an error message, a CSV
 * row). Real ones are under 1 KiB; the limit stops a missing '"' from
 * pulling a multi-gigabyte file into memory before the error is found. */
#define CLI_MAX_TEXT ((size_t)16 * 1024 * 1024)

/* Arrays and objects nested deeper than this are refused: results are
 * three levels deep, and unknown values are skipped recursively, so the
 * limit bounds the C stack against hostile input. */
#define CLI_MAX_NESTING 512

/* Longest token quoted back in a message; keeps messages within
 * bcError.message. */
#define CLI_QUOTE_MAX 40

/* Keys longer than this are not ones we know, so they are not kept. */
#define CLI_KEY_MAX 32

/* Decimal exponents of number ids are clamped to +-this: ids beyond 1e(10^15)
 * are not worth a big-number library, and no double comes near. */
#define CLI_EXPONENT_LIMIT 1000000000000000LL

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

typedef struct cliScanner {
	FILE* stream; /* NULL when reading memory */
	const char* data;
	size_t length;
	size_t pos;
	char* chunk; /* owned read buffer (stream only) */
	bool eof;

	long line; /* position of data[pos] */
	long column;

	bool failed;
	bcError error;

	/* The last string or token decoded (NUL terminated), or a CSV row. */
	char* scratch;
	size_t scratchLength;
	size_t scratchCapacity;
	bool sawNul; /* the last string held \u0000 (not stored) */
} cliScanner;

/* ------------------------------------------------------------- input */

static bool isSpace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool isDigit(int c)
{
	return c >= '0' && c <= '9';
}

CLI_PRINTF(5, 0)
static bool failWith(cliScanner* s, bcErrorCode code, long line, long column, const char* format, va_list args)
{
	if (!s->failed) {
		s->failed = true;
		s->error.code = code;
		s->error.line = line;
		s->error.column = column;
		s->error.record = -1;
		vsnprintf(s->error.message, sizeof s->error.message, format, args);
	}
	return false;
}

/* A syntax error at line:column. Returns false, for `return failAt(...)`. */
CLI_PRINTF(4, 5) static bool failAt(cliScanner* s, long line, long column, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	failWith(s, bc_errorSyntax, line, column, format, args);
	va_end(args);
	return false;
}

/* A syntax error at the current byte. */
CLI_PRINTF(2, 3) static bool failHere(cliScanner* s, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	failWith(s, bc_errorSyntax, s->line, s->column, format, args);
	va_end(args);
	return false;
}

CLI_PRINTF(3, 4) static bool failCode(cliScanner* s, bcErrorCode code, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	failWith(s, code, 0, 0, format, args);
	va_end(args);
	return false;
}

static bool outOfMemory(cliScanner* s)
{
	return failCode(s, bc_errorNoMemory, "out of memory");
}

/* Read the next chunk; the byte at pos, or EOF. */
static int refill(cliScanner* s)
{
	if (s->stream == NULL || s->eof || s->failed) {
		return EOF;
	}
	errno = 0;
	size_t count = fread(s->chunk, 1, CLI_RESULTS_CHUNK, s->stream);
	if (ferror(s->stream)) {
		int code = errno;
		failCode(s, bc_errorIo, "read error: %s", code != 0 ? strerror(code) : "unknown");
		s->length = s->pos = 0;
		return EOF;
	}
	/* fread stops short only at the end of the input */
	s->eof = count < CLI_RESULTS_CHUNK;
	s->data = s->chunk;
	s->length = count;
	s->pos = 0;
	return count > 0 ? (unsigned char)s->chunk[0] : EOF;
}

/* The current byte (0..255), or EOF at the end of the input. */
static inline int peekByte(cliScanner* s)
{
	if (s->pos < s->length) {
		return (unsigned char)s->data[s->pos];
	}
	return refill(s);
}

/* Consume the current byte (peekByte said there is one). */
static inline void skipByte(cliScanner* s)
{
	if (s->data[s->pos++] == '\n') {
		s->line += 1;
		s->column = 1;
	} else {
		s->column += 1;
	}
}

static void skipSpace(cliScanner* s)
{
	while (isSpace(peekByte(s))) {
		skipByte(s);
	}
}

/* Make room in the scratch for one more byte and its NUL (the slow path). */
static bool growScratch(cliScanner* s)
{
	if (s->scratchCapacity >= CLI_MAX_TEXT) {
		return failHere(s, "text longer than %zu bytes (a missing '\"'?)", CLI_MAX_TEXT);
	}
	size_t capacity = s->scratchCapacity > 0 ? 2 * s->scratchCapacity : 256;
	char* scratch = realloc(s->scratch, capacity);
	if (scratch == NULL) {
		return outOfMemory(s);
	}
	s->scratch = scratch;
	s->scratchCapacity = capacity;
	return true;
}

static inline bool appendScratch(cliScanner* s, char c)
{
	if (s->scratchLength + 1 >= s->scratchCapacity && !growScratch(s)) {
		return false;
	}
	s->scratch[s->scratchLength++] = c;
	s->scratch[s->scratchLength] = '\0';
	return true;
}

/* Describe a byte for a message: 'x', byte 0xNN, or the end of input. */
static void describeByte(int c, char* text, size_t size)
{
	if (c == EOF) {
		snprintf(text, size, "end of input");
	} else if (c > 0x20 && c < 0x7f) {
		snprintf(text, size, "'%c'", c);
	} else {
		snprintf(text, size, "byte 0x%02X", (unsigned)c);
	}
}

static char* copyText(const char* text, size_t length)
{
	char* copy = malloc(length + 1);
	if (copy != NULL) {
		memcpy(copy, text, length);
		copy[length] = '\0';
	}
	return copy;
}

static bool parseFeatureName(const char* name, bcFeature* feature)
{
	static const bcFeature features[] = { bc_featureNone, bc_featureFace, bc_featureEdge, bc_featureVertex };
	for (size_t k = 0; k < sizeof features / sizeof features[0]; ++k) {
		if (strcmp(name, bcFeatureName(features[k])) == 0) {
			*feature = features[k];
			return true;
		}
	}
	return false;
}

/* A whole number in int32_t range, from a finite double. */
static bool wholeInt32(double value, int32_t* out)
{
	if (!(value >= (double)INT32_MIN && value <= (double)INT32_MAX) || floor(value) != value) {
		return false;
	}
	*out = (int32_t)value;
	return true;
}

/* ------------------------------------------------------------ results */

static void freeResult(cliResult* r)
{
	free(r->id);
	free(r->error);
	free(r->ties);
	memset(r, 0, sizeof *r);
}

void cliResultSet_Free(cliResultSet* set)
{
	if (set == NULL) {
		return;
	}
	for (long i = 0; i < set->count; ++i) {
		freeResult(set->results + i);
	}
	free(set->results);
	memset(set, 0, sizeof *set);
}

/* Move *r into the set (r is zeroed). */
static bool appendResult(cliScanner* s, cliResultSet* set, long* capacity, cliResult* r)
{
	if (set->count == *capacity) {
		long grown = *capacity > 0 ? 2 * *capacity : 64;
		cliResult* results = realloc(set->results, (size_t)grown * sizeof *results);
		if (results == NULL) {
			freeResult(r);
			return outOfMemory(s);
		}
		set->results = results;
		*capacity = grown;
	}
	r->index = set->count;
	set->results[set->count++] = *r;
	memset(r, 0, sizeof *r);
	return true;
}

static bool appendTie(cliScanner* s, cliResult* r, int* capacity, const cliTie* tie)
{
	if (r->tieCount == *capacity) {
		int grown = *capacity > 0 ? 2 * *capacity : 4;
		cliTie* ties = realloc(r->ties, (size_t)grown * sizeof *ties);
		if (ties == NULL) {
			return outOfMemory(s);
		}
		r->ties = ties;
		*capacity = grown;
	}
	r->ties[r->tieCount++] = *tie;
	return true;
}

/* --------------------------------------------------------------- JSON */

typedef enum cliJsonKind {
	cli_jsonNull,
	cli_jsonFalse,
	cli_jsonTrue,
	cli_jsonNumber, /* text in scratch */
	cli_jsonString, /* decoded text in scratch */
	cli_jsonArray,  /* at '[', not consumed */
	cli_jsonObject  /* at '{', not consumed */
} cliJsonKind;

static int hexValue(int c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/* After "\u": four hex digits. -1 if they are not there. */
static long readHex4(cliScanner* s)
{
	long value = 0;
	for (int k = 0; k < 4; ++k) {
		int digit = hexValue(peekByte(s));
		if (digit < 0) {
			return -1;
		}
		skipByte(s);
		value = 16 * value + digit;
	}
	return value;
}

static bool appendUtf8(cliScanner* s, long cp)
{
	char bytes[4];
	int n;
	if (cp < 0x80) {
		bytes[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		bytes[0] = (char)(0xC0 | (cp >> 6));
		bytes[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		bytes[0] = (char)(0xE0 | (cp >> 12));
		bytes[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		bytes[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		bytes[0] = (char)(0xF0 | (cp >> 18));
		bytes[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		bytes[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		bytes[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	for (int k = 0; k < n; ++k) {
		if (!appendScratch(s, bytes[k])) {
			return false;
		}
	}
	return true;
}

/* One escape sequence, after the backslash (at line:column). */
static bool parseEscape(cliScanner* s, long line, long column)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	int c = peekByte(s);
	const char* simple = c != EOF && c != 0 ? strchr(from, c) : NULL;
	if (simple != NULL) {
		skipByte(s);
		return appendScratch(s, to[simple - from]);
	}
	if (c != 'u') {
		return failAt(s, line, column, "invalid escape sequence in a string");
	}
	skipByte(s);
	long cp = readHex4(s);
	if (cp < 0) {
		return failAt(s, line, column, "invalid \\u escape: expected four hex digits");
	}
	if (cp >= 0xDC00 && cp <= 0xDFFF) {
		return failAt(s, line, column, "invalid \\u escape: a low surrogate without a high one");
	}
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		long low = -1;
		if (peekByte(s) == '\\') {
			skipByte(s);
			if (peekByte(s) == 'u') {
				skipByte(s);
				low = readHex4(s);
			}
		}
		if (low < 0xDC00 || low > 0xDFFF) {
			return failAt(s, line, column, "invalid \\u escape: a high surrogate without a low one");
		}
		cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
	}
	if (cp == 0) {
		s->sawNul = true;
		return true;
	}
	return appendUtf8(s, cp);
}

/* Empty the scratch (it always holds a NUL terminated text). */
static bool resetScratch(cliScanner* s)
{
	s->scratchLength = 0;
	s->sawNul = false;
	if (s->scratchCapacity == 0 && !appendScratch(s, '\0')) {
		return false;
	}
	s->scratchLength = 0;
	s->scratch[0] = '\0';
	return true;
}

/* The string at '"'; its decoded text goes to scratch. */
static bool parseString(cliScanner* s)
{
	long line = s->line;
	long column = s->column;
	skipByte(s);
	if (!resetScratch(s)) {
		return false;
	}
	for (;;) {
		int c = peekByte(s);
		if (c == EOF) {
			return s->failed ? false : failAt(s, line, column, "unterminated string");
		}
		if (c == '"') {
			skipByte(s);
			return true;
		}
		if (c < 0x20) {
			return failHere(s, "control character 0x%02X in a string (write it as an escape)", (unsigned)c);
		}
		if (c == '\\') {
			long escapeLine = s->line;
			long escapeColumn = s->column;
			skipByte(s);
			if (!parseEscape(s, escapeLine, escapeColumn)) {
				return false;
			}
			continue;
		}
		if (!appendScratch(s, (char)c)) {
			return false;
		}
		skipByte(s);
	}
}

/* Bytes that end a number or literal. */
static bool endsToken(int c)
{
	return c == EOF || isSpace(c) || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '"' || c == ':';
}

/* Is the token NaN or Infinity in any case, signed or not? */
static bool isNonNumber(const char* token)
{
	static const char* const names[] = { "nan", "inf", "infinity" };
	const char* p = token[0] == '-' || token[0] == '+' ? token + 1 : token;
	char lower[10];
	size_t n = strlen(p);
	if (n >= sizeof lower) {
		return false;
	}
	for (size_t i = 0; i <= n; ++i) {
		lower[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] - 'A' + 'a' : p[i]);
	}
	for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
		if (strcmp(lower, names[k]) == 0) {
			return true;
		}
	}
	return false;
}

/* A value at the current byte: a scalar is parsed (its text in scratch);
 * an array or object is only recognised. */
static bool parseScalar(cliScanner* s, cliJsonKind* kind)
{
	int c = peekByte(s);
	if (c == '{' || c == '[') {
		*kind = c == '{' ? cli_jsonObject : cli_jsonArray;
		return true;
	}
	if (c == '"') {
		*kind = cli_jsonString;
		return parseString(s);
	}
	long line = s->line;
	long column = s->column;
	if (!resetScratch(s)) {
		return false;
	}
	while (!endsToken(peekByte(s))) {
		/* No control byte belongs in a token (and a NUL would cut it short). */
		if (peekByte(s) < 0x20) {
			return failHere(s, "invalid JSON: unexpected byte 0x%02X", (unsigned)peekByte(s));
		}
		if (!appendScratch(s, (char)peekByte(s))) {
			return false;
		}
		skipByte(s);
	}
	const char* token = s->scratch;
	if (s->scratchLength == 0) {
		if (s->failed) {
			return false;
		}
		char what[24];
		describeByte(c, what, sizeof what);
		return failAt(s, line, column, "unexpected %s: expected a value", what);
	}
	if (strcmp(token, "null") == 0 || strcmp(token, "true") == 0 || strcmp(token, "false") == 0) {
		*kind = token[0] == 'n' ? cli_jsonNull : token[0] == 't' ? cli_jsonTrue : cli_jsonFalse;
		return true;
	}
	if (cliIsJsonNumber(token, s->scratchLength)) {
		*kind = cli_jsonNumber;
		return true;
	}
	if (isNonNumber(token)) {
		return failAt(s, line, column, "NaN and Infinity are not JSON numbers");
	}
	if (isDigit(token[0]) || token[0] == '-' || token[0] == '+' || token[0] == '.') {
		return failAt(s, line, column, "invalid JSON number '%.*s'", CLI_QUOTE_MAX, token);
	}
	return failAt(s, line, column, "invalid JSON value '%.*s'", CLI_QUOTE_MAX, token);
}

/* Array elements: call with *first true at '['; each true return with
 * *more leaves the scanner at the next element. */
static bool arrayNext(cliScanner* s, bool* first, bool* more)
{
	if (*first) {
		skipByte(s); /* '[' */
		skipSpace(s);
		*first = false;
		if (peekByte(s) == ']') {
			skipByte(s);
			*more = false;
			return true;
		}
	} else {
		skipSpace(s);
		int c = peekByte(s);
		if (c == ']') {
			skipByte(s);
			*more = false;
			return true;
		}
		if (c != ',') {
			if (s->failed) {
				return false;
			}
			return failHere(s, c == EOF ? "unexpected end of input: expected ',' or ']'"
										: "expected ',' or ']' after an array element");
		}
		skipByte(s);
		skipSpace(s);
		if (peekByte(s) == ']') {
			return failHere(s, "expected a value after ',' (no trailing commas in JSON)");
		}
	}
	*more = true;
	return true;
}

/* Object members: call with *first true at '{'; each true return with
 * *more has the key in key ("" when it is too long to be one we know, or
 * holds \u0000) and leaves the scanner at the value. */
static bool objectNext(cliScanner* s, bool* first, bool* more, char key[CLI_KEY_MAX])
{
	int c;
	if (*first) {
		skipByte(s); /* '{' */
		skipSpace(s);
		*first = false;
		c = peekByte(s);
		if (c == '}') {
			skipByte(s);
			*more = false;
			return true;
		}
	} else {
		skipSpace(s);
		c = peekByte(s);
		if (c == '}') {
			skipByte(s);
			*more = false;
			return true;
		}
		if (c != ',') {
			if (s->failed) {
				return false;
			}
			return failHere(s, c == EOF ? "unexpected end of input: expected ',' or '}'"
										: "expected ',' or '}' after an object member");
		}
		skipByte(s);
		skipSpace(s);
		c = peekByte(s);
		if (c == '}') {
			return failHere(s, "expected a key after ',' (no trailing commas in JSON)");
		}
	}
	if (c != '"') {
		if (s->failed) {
			return false;
		}
		return failHere(s, c == EOF ? "unexpected end of input: expected a key" : "expected a key (a string in double quotes)");
	}
	if (!parseString(s)) {
		return false;
	}
	if (s->sawNul || s->scratchLength >= CLI_KEY_MAX) {
		key[0] = '\0';
	} else {
		memcpy(key, s->scratch, s->scratchLength + 1);
	}
	skipSpace(s);
	if (peekByte(s) != ':') {
		return s->failed ? false : failHere(s, "expected ':' after a key");
	}
	skipByte(s);
	skipSpace(s);
	*more = true;
	return true;
}

/* Any value, checked and thrown away. */
static bool skipValue(cliScanner* s, int depth)
{
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	if (kind != cli_jsonArray && kind != cli_jsonObject) {
		return true;
	}
	if (depth >= CLI_MAX_NESTING) {
		return failHere(s, "nesting deeper than %d levels", CLI_MAX_NESTING);
	}
	bool first = true;
	bool more = true;
	char key[CLI_KEY_MAX];
	while (more) {
		bool ok = kind == cli_jsonArray ? arrayNext(s, &first, &more) : objectNext(s, &first, &more, key);
		if (!ok || (more && !skipValue(s, depth + 1))) {
			return false;
		}
	}
	return true;
}

/* A value for key name: where it starts, for messages. */
typedef struct cliValueStart {
	const char* name;
	long line;
	long column;
} cliValueStart;

static cliValueStart valueStart(const cliScanner* s, const char* name)
{
	cliValueStart at = { name, s->line, s->column };
	return at;
}

/* A finite number from scratch (a JSON number token). */
static bool finiteNumber(cliScanner* s, const cliValueStart* at, double* value)
{
	double x = strtod(s->scratch, NULL);
	if (!isfinite(x)) {
		return failAt(s, at->line, at->column, "%s: not a finite number", at->name);
	}
	*value = x;
	return true;
}

/* Sets *present false for null. */
static bool parseJsonBool(cliScanner* s, const char* name, bool* value, bool* present)
{
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonTrue || kind == cli_jsonFalse) {
		*value = kind == cli_jsonTrue;
	} else if (kind != cli_jsonNull) {
		return failAt(s, at.line, at.column, "%s: expected true or false", name);
	}
	return true;
}

static bool parseJsonNumber(cliScanner* s, const char* name, double* value, bool* present)
{
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonNumber) {
		return finiteNumber(s, &at, value);
	}
	if (kind != cli_jsonNull) {
		return failAt(s, at.line, at.column, "%s: expected a number", name);
	}
	return true;
}

static bool parseJsonWhole(cliScanner* s, const char* name, int32_t* value, bool* present)
{
	cliValueStart at = valueStart(s, name);
	double x = 0.0;
	if (!parseJsonNumber(s, name, &x, present)) {
		return false;
	}
	if (*present && !wholeInt32(x, value)) {
		return failAt(s, at.line, at.column, "%s: expected a whole number (a 32-bit integer)", name);
	}
	return true;
}

static bool parseJsonFeature(cliScanner* s, const char* name, bcFeature* feature, bool* present)
{
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonNull) {
		return true;
	}
	if (kind != cli_jsonString || s->sawNul || !parseFeatureName(s->scratch, feature)) {
		return failAt(s, at.line, at.column, "%s: expected \"face\", \"edge\", \"vertex\" or \"none\"", name);
	}
	return true;
}

/* A string, copied; *text stays NULL for null. */
static bool parseJsonText(cliScanner* s, const char* name, char** text)
{
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	if (kind == cli_jsonNull) {
		return true;
	}
	if (kind != cli_jsonString) {
		return failAt(s, at.line, at.column, "%s: expected a string", name);
	}
	if (s->sawNul) {
		return failAt(s, at.line, at.column, "%s: contains \\u0000, which cannot be echoed", name);
	}
	*text = copyText(s->scratch, s->scratchLength);
	return *text != NULL || outOfMemory(s);
}

/* [x, y, z]: exactly three finite numbers. */
static bool parseJsonVec3(cliScanner* s, const char* name, bcVec3* v, bool* present)
{
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonNull) {
		return true;
	}
	if (kind != cli_jsonArray) {
		return failAt(s, at.line, at.column, "%s: expected an array of 3 numbers", name);
	}
	double values[3] = { 0.0, 0.0, 0.0 };
	int count = 0;
	bool first = true;
	bool more = true;
	for (;;) {
		if (!arrayNext(s, &first, &more)) {
			return false;
		}
		if (!more) {
			break;
		}
		cliValueStart element = valueStart(s, name);
		if (!parseScalar(s, &kind)) {
			return false;
		}
		if (kind != cli_jsonNumber || count == 3) {
			return failAt(s, at.line, at.column, "%s: expected an array of 3 numbers", name);
		}
		if (!finiteNumber(s, &element, values + count)) {
			return false;
		}
		count++;
	}
	if (count != 3) {
		return failAt(s, at.line, at.column, "%s: expected an array of 3 numbers", name);
	}
	v->x = values[0];
	v->y = values[1];
	v->z = values[2];
	return true;
}

/* [i] to [i, j, k]: one to three whole numbers. */
static bool parseJsonVertices(cliScanner* s, const char* name, int32_t vertices[3], int* count, bool* present)
{
	static const char* const problem = "%s: expected an array of 1 to 3 whole numbers";
	cliValueStart at = valueStart(s, name);
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonNull) {
		return true;
	}
	if (kind != cli_jsonArray) {
		return failAt(s, at.line, at.column, problem, name);
	}
	int n = 0;
	bool first = true;
	bool more = true;
	for (;;) {
		if (!arrayNext(s, &first, &more)) {
			return false;
		}
		if (!more) {
			break;
		}
		if (!parseScalar(s, &kind)) {
			return false;
		}
		double x = kind == cli_jsonNumber ? strtod(s->scratch, NULL) : 0.5;
		if (kind != cli_jsonNumber || n == 3 || !wholeInt32(x, vertices + n)) {
			return failAt(s, at.line, at.column, problem, name);
		}
		n++;
	}
	if (n == 0) {
		return failAt(s, at.line, at.column, problem, name);
	}
	*count = n;
	return true;
}

/* The keys of a result object, and of the document. */
typedef enum cliKey {
	cli_keyId = 0,
	cli_keyHit,
	cli_keyAlpha,
	cli_keyInitialOverlap,
	cli_keyFeature,
	cli_keyTriangle,
	cli_keyFace,
	cli_keyVertices,
	cli_keyPoint,
	cli_keyCenter,
	cli_keyNormal,
	cli_keyTriangleNormal,
	cli_keyError,
	cli_keyTies,
	cli_keyResults,
	cli_keyCount
} cliKey;

static const char* const keyNames[cli_keyCount] = {
	"id",     "hit",    "alpha",           "initial_overlap", "feature", "triangle", "face",   "vertices",
	"point",  "center", "normal",          "triangle_normal", "error",   "ties",     "results",
};

static int findKey(const char* key)
{
	for (int k = 0; k < cli_keyCount; ++k) {
		if (keyNames[k][0] == key[0] && strcmp(key, keyNames[k]) == 0) {
			return k;
		}
	}
	return -1;
}

/* One tie object at '{'. */
static bool parseTie(cliScanner* s, cliTie* tie)
{
	memset(tie, 0, sizeof *tie);
	unsigned seen = 0;
	bool first = true;
	bool more = true;
	char key[CLI_KEY_MAX];
	for (;;) {
		if (!objectNext(s, &first, &more, key)) {
			return false;
		}
		if (!more) {
			return true;
		}
		int k = findKey(key);
		unsigned bit = k >= 0 ? 1u << k : 0;
		if (bit == 0 || (seen & bit) != 0) {
			if (!skipValue(s, 1)) {
				return false;
			}
			continue;
		}
		seen |= bit;
		bool present = false;
		bool ok = true;
		unsigned field = 0;
		switch (k) {
		case cli_keyTriangle:
			ok = parseJsonWhole(s, "ties: triangle", &tie->triangle, &present);
			field = cli_resultTriangle;
			break;
		case cli_keyFeature:
			ok = parseJsonFeature(s, "ties: feature", &tie->feature, &present);
			field = cli_resultFeature;
			break;
		case cli_keyVertices:
			ok = parseJsonVertices(s, "ties: vertices", tie->vertices, &tie->vertexCount, &present);
			field = cli_resultVertices;
			break;
		case cli_keyAlpha:
			ok = parseJsonNumber(s, "ties: alpha", &tie->alpha, &present);
			field = cli_resultAlpha;
			break;
		case cli_keyNormal:
			ok = parseJsonVec3(s, "ties: normal", &tie->normal, &present);
			field = cli_resultNormal;
			break;
		case cli_keyTriangleNormal:
			ok = parseJsonVec3(s, "ties: triangle_normal", &tie->triangleNormal, &present);
			field = cli_resultTriangleNormal;
			break;
		default:
			ok = skipValue(s, 1);
			break;
		}
		if (!ok) {
			return false;
		}
		if (present) {
			tie->fields |= field;
		}
	}
}

static bool parseTies(cliScanner* s, cliResult* r, bool* present)
{
	cliValueStart at = valueStart(s, "ties");
	cliJsonKind kind;
	if (!parseScalar(s, &kind)) {
		return false;
	}
	*present = kind != cli_jsonNull;
	if (kind == cli_jsonNull) {
		return true;
	}
	if (kind != cli_jsonArray) {
		return failAt(s, at.line, at.column, "ties: expected an array of objects");
	}
	int capacity = 0;
	bool first = true;
	bool more = true;
	for (;;) {
		if (!arrayNext(s, &first, &more)) {
			return false;
		}
		if (!more) {
			return true;
		}
		if (peekByte(s) != '{') {
			cliValueStart element = valueStart(s, "ties");
			if (!parseScalar(s, &kind)) {
				return false;
			}
			return failAt(s, element.line, element.column, "ties: expected an object");
		}
		cliTie tie;
		if (!parseTie(s, &tie) || !appendTie(s, r, &capacity, &tie)) {
			return false;
		}
	}
}

static bool parseResultObject(cliScanner* s, cliResult* r, cliResultSet* set, long* capacity, bool* document);

/* The value of "results" at '[': every element a result object. */
static bool parseResultsArray(cliScanner* s, cliResultSet* set, long* capacity)
{
	bool first = true;
	bool more = true;
	for (;;) {
		if (!arrayNext(s, &first, &more)) {
			return false;
		}
		if (!more) {
			return true;
		}
		if (peekByte(s) != '{') {
			cliJsonKind kind;
			long line = s->line;
			long column = s->column;
			if (!parseScalar(s, &kind)) {
				return false;
			}
			return failAt(s, line, column, "expected a result object");
		}
		cliResult r;
		if (!parseResultObject(s, &r, NULL, NULL, NULL) || !appendResult(s, set, capacity, &r)) {
			freeResult(&r);
			return false;
		}
	}
}

/* A result object at '{' into *r (which the caller frees). At the top level
 * (set non-NULL) a "results" array is read into the set and *document set. */
static bool parseResultObject(cliScanner* s, cliResult* r, cliResultSet* set, long* capacity, bool* document)
{
	memset(r, 0, sizeof *r);
	r->line = s->line;
	r->column = s->column;
	unsigned seen = 0;
	bool first = true;
	bool more = true;
	char key[CLI_KEY_MAX];
	for (;;) {
		if (!objectNext(s, &first, &more, key)) {
			return false;
		}
		if (!more) {
			return true;
		}
		int k = findKey(key);
		unsigned bit = k >= 0 ? 1u << k : 0;
		if (k == cli_keyResults && (set == NULL || peekByte(s) != '[')) {
			bit = 0;
		}
		if (bit == 0 || (seen & bit) != 0) {
			if (!skipValue(s, 1)) {
				return false;
			}
			continue;
		}
		seen |= bit;
		bool present = false;
		bool ok = true;
		unsigned field = 0;
		switch (k) {
		case cli_keyId: {
			cliValueStart at = valueStart(s, "id");
			cliJsonKind kind;
			ok = parseScalar(s, &kind);
			if (!ok || kind == cli_jsonNull) {
				break;
			}
			if (kind != cli_jsonString && kind != cli_jsonNumber) {
				return failAt(s, at.line, at.column, "id: expected a string or a number");
			}
			if (s->sawNul) {
				return failAt(s, at.line, at.column, "id: contains \\u0000, which cannot be echoed");
			}
			r->idKind = kind == cli_jsonString ? cli_idString : cli_idNumber;
			r->id = copyText(s->scratch, s->scratchLength);
			ok = r->id != NULL || outOfMemory(s);
			break;
		}
		case cli_keyHit:
			ok = parseJsonBool(s, "hit", &r->hit, &present);
			field = cli_resultHit;
			break;
		case cli_keyAlpha:
			ok = parseJsonNumber(s, "alpha", &r->alpha, &present);
			field = cli_resultAlpha;
			break;
		case cli_keyInitialOverlap:
			ok = parseJsonBool(s, "initial_overlap", &r->initialOverlap, &present);
			field = cli_resultInitialOverlap;
			break;
		case cli_keyFeature:
			ok = parseJsonFeature(s, "feature", &r->feature, &present);
			field = cli_resultFeature;
			break;
		case cli_keyTriangle:
			ok = parseJsonWhole(s, "triangle", &r->triangle, &present);
			field = cli_resultTriangle;
			break;
		case cli_keyFace:
			ok = parseJsonWhole(s, "face", &r->face, &present);
			field = cli_resultFace;
			break;
		case cli_keyVertices:
			ok = parseJsonVertices(s, "vertices", r->vertices, &r->vertexCount, &present);
			field = cli_resultVertices;
			break;
		case cli_keyPoint:
			ok = parseJsonVec3(s, "point", &r->point, &present);
			field = cli_resultPoint;
			break;
		case cli_keyCenter:
			ok = parseJsonVec3(s, "center", &r->center, &present);
			field = cli_resultCenter;
			break;
		case cli_keyNormal:
			ok = parseJsonVec3(s, "normal", &r->normal, &present);
			field = cli_resultNormal;
			break;
		case cli_keyTriangleNormal:
			ok = parseJsonVec3(s, "triangle_normal", &r->triangleNormal, &present);
			field = cli_resultTriangleNormal;
			break;
		case cli_keyError:
			ok = parseJsonText(s, "error", &r->error);
			present = r->error != NULL;
			field = cli_resultError;
			break;
		case cli_keyTies:
			ok = parseTies(s, r, &present);
			field = cli_resultTies;
			break;
		case cli_keyResults:
			ok = parseResultsArray(s, set, capacity);
			*document = true;
			break;
		default:
			ok = skipValue(s, 1);
			break;
		}
		if (!ok) {
			return false;
		}
		if (present) {
			r->fields |= field;
		}
	}
}

/* '[' result, ... ']' */
static bool parseJsonArray(cliScanner* s, cliResultSet* set, long* capacity)
{
	if (!parseResultsArray(s, set, capacity)) {
		return false;
	}
	skipSpace(s);
	if (peekByte(s) != EOF) {
		return failHere(s, "unexpected data after the closing ']'");
	}
	return !s->failed;
}

/* A document, or result objects separated by white space. */
static bool parseJsonObjects(cliScanner* s, cliResultSet* set, long* capacity)
{
	bool firstObject = true;
	for (;;) {
		int c = peekByte(s);
		if (c == EOF) {
			return !s->failed;
		}
		if (c != '{') {
			if (set->document) {
				return failHere(s, "unexpected data after the results document");
			}
			cliJsonKind kind;
			long line = s->line;
			long column = s->column;
			if (!parseScalar(s, &kind)) {
				return false;
			}
			return failAt(s, line, column, "expected a result object (one JSON object per line)");
		}
		if (set->document) {
			return failHere(s, "unexpected data after the results document");
		}
		long line = s->line;
		long column = s->column;
		bool document = false;
		cliResult r;
		if (!parseResultObject(s, &r, set, capacity, &document)) {
			freeResult(&r);
			return false;
		}
		if (document) {
			freeResult(&r);
			if (!firstObject) {
				return failAt(s, line, column, "a results document after result objects");
			}
			set->document = true;
		} else if (!appendResult(s, set, capacity, &r)) {
			return false;
		}
		firstObject = false;
		c = peekByte(s);
		if (c != EOF && !isSpace(c)) {
			return failHere(s, "expected white space or a new line after a JSON value");
		}
		skipSpace(s);
	}
}

/* ---------------------------------------------------------------- CSV */

typedef enum cliCsvColumn {
	cli_csvId = 0,
	cli_csvHit,
	cli_csvAlpha,
	cli_csvInitialOverlap,
	cli_csvFeature,
	cli_csvTriangle,
	cli_csvFace,
	cli_csvVertex0,
	cli_csvVertex1,
	cli_csvVertex2,
	cli_csvPointX,
	cli_csvCenterX = cli_csvPointX + 3,
	cli_csvNormalX = cli_csvCenterX + 3,
	cli_csvTriangleNormalX = cli_csvNormalX + 3,
	cli_csvError = cli_csvTriangleNormalX + 3,
	cli_csvTies,
	cli_csvCount
} cliCsvColumn;

static const char* const csvNames[cli_csvCount] = {
	"id",       "hit",       "alpha",     "initial_overlap", "feature",  "triangle", "face", "vertex_0",
	"vertex_1", "vertex_2",  "point_x",   "point_y",         "point_z",  "center_x", "center_y",
	"center_z", "normal_x",  "normal_y",  "normal_z",        "triangle_normal_x",    "triangle_normal_y",
	"triangle_normal_z",     "error",     "ties",
};

/* The four vectors: first column, name, field bit. */
typedef struct cliCsvVector {
	cliCsvColumn first;
	const char* name;
	unsigned field;
} cliCsvVector;

static const cliCsvVector csvVectors[4] = {
	{ cli_csvPointX, "point", cli_resultPoint },
	{ cli_csvCenterX, "center", cli_resultCenter },
	{ cli_csvNormalX, "normal", cli_resultNormal },
	{ cli_csvTriangleNormalX, "triangle_normal", cli_resultTriangleNormal },
};

typedef struct cliCsvCell {
	size_t text; /* offset in scratch, NUL terminated */
	size_t length;
	long line;   /* where the cell's text (or its opening quote) starts */
	long column;
} cliCsvCell;

typedef struct cliCsv {
	cliCsvCell* cells;
	int count;
	int capacity;
	long line; /* where the row starts */
	long column;
	int headerCount;
	int columnOf[cli_csvCount]; /* header cell of each known column, or -1 */
} cliCsv;

static bool isCellSpace(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool newCell(cliScanner* s, cliCsv* csv)
{
	if (csv->count == csv->capacity) {
		int capacity = csv->capacity > 0 ? 2 * csv->capacity : 32;
		cliCsvCell* cells = realloc(csv->cells, (size_t)capacity * sizeof *cells);
		if (cells == NULL) {
			return outOfMemory(s);
		}
		csv->cells = cells;
		csv->capacity = capacity;
	}
	cliCsvCell* cell = csv->cells + csv->count++;
	cell->text = s->scratchLength;
	cell->length = 0;
	cell->line = s->line;
	cell->column = s->column;
	return true;
}

/* The next row that is not blank into csv->cells (texts in scratch).
 * 1 for a row, 0 at the end of the input, -1 on error. */
static int readRow(cliScanner* s, cliCsv* csv)
{
	for (;;) {
		csv->count = 0;
		csv->line = s->line;
		csv->column = s->column;
		s->scratchLength = 0;
		if (peekByte(s) == EOF) {
			return s->failed ? -1 : 0;
		}
		bool quotedAny = false;
		for (;;) {
			while (peekByte(s) == ' ' || peekByte(s) == '\t') {
				skipByte(s);
			}
			if (!newCell(s, csv)) {
				return -1;
			}
			cliCsvCell* cell = csv->cells + csv->count - 1;
			int c = peekByte(s);
			if (c == '"') {
				quotedAny = true;
				long line = s->line;
				long column = s->column;
				skipByte(s);
				for (;;) {
					c = peekByte(s);
					if (c == EOF) {
						if (!s->failed) {
							failAt(s, line, column, "unterminated quoted cell");
						}
						return -1;
					}
					if (c == 0) {
						failHere(s, "unexpected byte 0x00 in a CSV cell");
						return -1;
					}
					skipByte(s);
					if (c == '"') {
						if (peekByte(s) != '"') {
							break;
						}
						skipByte(s);
					}
					if (!appendScratch(s, (char)c)) {
						return -1;
					}
				}
				while (isCellSpace(peekByte(s))) {
					skipByte(s);
				}
				c = peekByte(s);
				if (c != ',' && c != '\n' && c != EOF) {
					char what[24];
					describeByte(c, what, sizeof what);
					failHere(s, "unexpected %s after a quoted cell", what);
					return -1;
				}
			} else {
				while (c != ',' && c != '\n' && c != EOF) {
					if (c == 0) {
						failHere(s, "unexpected byte 0x00 in a CSV cell");
						return -1;
					}
					if (!appendScratch(s, (char)c)) {
						return -1;
					}
					skipByte(s);
					c = peekByte(s);
				}
				while (s->scratchLength > cell->text && isCellSpace(s->scratch[s->scratchLength - 1])) {
					s->scratchLength--;
				}
			}
			cell->length = s->scratchLength - cell->text;
			if (!appendScratch(s, '\0')) {
				return -1;
			}
			if (c == ',') {
				skipByte(s);
				continue;
			}
			if (c == '\n') {
				skipByte(s);
			}
			break;
		}
		if (s->failed) {
			return -1;
		}
		if (csv->count == 1 && csv->cells[0].length == 0 && !quotedAny) {
			continue; /* a blank line */
		}
		return 1;
	}
}

static const char* cellText(const cliScanner* s, const cliCsv* csv, int column)
{
	return s->scratch + csv->cells[csv->columnOf[column]].text;
}

static bool readHeader(cliScanner* s, cliCsv* csv)
{
	int status = readRow(s, csv);
	if (status <= 0) {
		return status == 0 ? failHere(s, "empty input") : false;
	}
	csv->headerCount = csv->count;
	for (int k = 0; k < cli_csvCount; ++k) {
		csv->columnOf[k] = -1;
	}
	bool known = false;
	for (int j = 0; j < csv->count; ++j) {
		const cliCsvCell* cell = csv->cells + j;
		const char* name = s->scratch + cell->text;
		for (int k = 0; k < cli_csvCount; ++k) {
			if (strcmp(name, csvNames[k]) != 0) {
				continue;
			}
			if (csv->columnOf[k] >= 0) {
				return failAt(s, cell->line, cell->column, "duplicate column '%s' in the CSV header", name);
			}
			csv->columnOf[k] = j;
			known = true;
		}
	}
	/* A vector counts only when all three of its columns are there. */
	for (int v = 0; v < 4; ++v) {
		int* of = csv->columnOf + csvVectors[v].first;
		if (of[0] < 0 || of[1] < 0 || of[2] < 0) {
			of[0] = of[1] = of[2] = -1;
		}
	}
	if (!known) {
		return failAt(s, csv->line, csv->column,
					  "not a results file: no known column in the CSV header (expected id, hit, alpha, ...)");
	}
	return true;
}

/* A cell's number; *present false when empty. */
static bool cellNumber(cliScanner* s, const cliCsv* csv, int column, double* value, bool* present)
{
	const char* text = cellText(s, csv, column);
	const cliCsvCell* cell = csv->cells + csv->columnOf[column];
	*present = text[0] != '\0';
	if (!*present) {
		return true;
	}
	char* end = NULL;
	double x = strtod(text, &end);
	while (isCellSpace(*end)) {
		end++;
	}
	if (end == text || *end != '\0') {
		return failAt(s, cell->line, cell->column, "%s: expected a number, found '%.*s'", csvNames[column], CLI_QUOTE_MAX,
					  text);
	}
	if (!isfinite(x)) {
		return failAt(s, cell->line, cell->column, "%s: not a finite number", csvNames[column]);
	}
	*value = x;
	return true;
}

static bool cellWhole(cliScanner* s, const cliCsv* csv, int column, int32_t* value, bool* present)
{
	double x = 0.0;
	if (!cellNumber(s, csv, column, &x, present)) {
		return false;
	}
	if (*present && !wholeInt32(x, value)) {
		const cliCsvCell* cell = csv->cells + csv->columnOf[column];
		return failAt(s, cell->line, cell->column, "%s: expected a whole number (a 32-bit integer), found '%.*s'",
					  csvNames[column], CLI_QUOTE_MAX, cellText(s, csv, column));
	}
	return true;
}

/* true/false in any case, or 1/0 (what spreadsheets and Python write). */
static bool cellBool(cliScanner* s, const cliCsv* csv, int column, bool* value, bool* present)
{
	static const char* const names[] = { "false", "true" };
	const char* text = cellText(s, csv, column);
	*present = text[0] != '\0';
	if (!*present) {
		return true;
	}
	for (int b = 0; b < 2; ++b) {
		size_t n = strlen(names[b]);
		bool same = strlen(text) == n;
		for (size_t i = 0; same && i < n; ++i) {
			same = (text[i] | 0x20) == names[b][i];
		}
		if (same || (text[0] == '0' + b && text[1] == '\0')) {
			*value = b == 1;
			return true;
		}
	}
	const cliCsvCell* cell = csv->cells + csv->columnOf[column];
	return failAt(s, cell->line, cell->column, "%s: expected true or false, found '%.*s'", csvNames[column],
				  CLI_QUOTE_MAX, text);
}

/* "3:edge 4:vertex": triangle:feature pairs separated by spaces. */
static bool cellTies(cliScanner* s, const cliCsv* csv, cliResult* r)
{
	const char* text = cellText(s, csv, cli_csvTies);
	const cliCsvCell* cell = csv->cells + csv->columnOf[cli_csvTies];
	int capacity = 0;
	const char* p = text;
	for (;;) {
		while (*p == ' ' || *p == '\t') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		char* end = NULL;
		errno = 0;
		long triangle = strtol(p, &end, 10);
		char name[8];
		size_t n = 0;
		bool ok = end != p && isDigit((unsigned char)*p) && *end == ':' && errno == 0 && triangle <= INT32_MAX;
		if (ok) {
			p = end + 1;
			while (*p != '\0' && *p != ' ' && *p != '\t' && n + 1 < sizeof name) {
				name[n++] = *p++;
			}
			name[n] = '\0';
		}
		cliTie tie;
		memset(&tie, 0, sizeof tie);
		if (!ok || (*p != '\0' && *p != ' ' && *p != '\t') || !parseFeatureName(name, &tie.feature) ||
			tie.feature == bc_featureNone) {
			return failAt(s, cell->line, cell->column,
						  "ties: expected triangle:feature pairs separated by spaces, found '%.*s'", CLI_QUOTE_MAX,
						  text);
		}
		tie.triangle = (int32_t)triangle;
		tie.fields = cli_resultTriangle | cli_resultFeature;
		if (!appendTie(s, r, &capacity, &tie)) {
			return false;
		}
	}
	if (r->tieCount > 0) {
		r->fields |= cli_resultTies;
	}
	return true;
}

static bool csvResult(cliScanner* s, const cliCsv* csv, cliResult* r)
{
	memset(r, 0, sizeof *r);
	r->line = csv->line;
	r->column = csv->column;
	if (csv->count != csv->headerCount) {
		return failAt(s, csv->line, csv->column, "expected %d cells as in the header, found %d", csv->headerCount,
					  csv->count);
	}
	const int* of = csv->columnOf;
	bool present = false;
	if (of[cli_csvId] >= 0) {
		const char* text = cellText(s, csv, cli_csvId);
		size_t n = strlen(text);
		if (n > 0) {
			r->id = copyText(text, n);
			if (r->id == NULL) {
				return outOfMemory(s);
			}
			r->idKind = cliIsJsonNumber(text, n) ? cli_idNumber : cli_idString;
		}
	}
	if (of[cli_csvHit] >= 0) {
		if (!cellBool(s, csv, cli_csvHit, &r->hit, &present)) {
			return false;
		}
		r->fields |= present ? cli_resultHit : 0;
	}
	if (of[cli_csvAlpha] >= 0) {
		if (!cellNumber(s, csv, cli_csvAlpha, &r->alpha, &present)) {
			return false;
		}
		r->fields |= present ? cli_resultAlpha : 0;
	}
	if (of[cli_csvInitialOverlap] >= 0) {
		if (!cellBool(s, csv, cli_csvInitialOverlap, &r->initialOverlap, &present)) {
			return false;
		}
		r->fields |= present ? cli_resultInitialOverlap : 0;
	}
	if (of[cli_csvFeature] >= 0 && cellText(s, csv, cli_csvFeature)[0] != '\0') {
		if (!parseFeatureName(cellText(s, csv, cli_csvFeature), &r->feature)) {
			const cliCsvCell* cell = csv->cells + of[cli_csvFeature];
			return failAt(s, cell->line, cell->column, "feature: expected face, edge, vertex or none, found '%.*s'",
						  CLI_QUOTE_MAX, cellText(s, csv, cli_csvFeature));
		}
		r->fields |= cli_resultFeature;
	}
	if (of[cli_csvTriangle] >= 0) {
		if (!cellWhole(s, csv, cli_csvTriangle, &r->triangle, &present)) {
			return false;
		}
		r->fields |= present ? cli_resultTriangle : 0;
	}
	if (of[cli_csvFace] >= 0) {
		if (!cellWhole(s, csv, cli_csvFace, &r->face, &present)) {
			return false;
		}
		r->fields |= present ? cli_resultFace : 0;
	}
	/* vertex_0 .. vertex_2: the leading non-empty cells */
	bool gap = false;
	for (int k = 0; k < 3; ++k) {
		int column = cli_csvVertex0 + k;
		if (of[column] < 0) {
			gap = true;
			continue;
		}
		if (!cellWhole(s, csv, column, r->vertices + r->vertexCount, &present)) {
			return false;
		}
		if (present && gap) {
			const cliCsvCell* cell = csv->cells + of[column];
			return failAt(s, cell->line, cell->column, "%s: given after an empty or missing vertex column",
						  csvNames[column]);
		}
		if (present) {
			r->vertexCount++;
			r->fields |= cli_resultVertices;
		} else {
			gap = true;
		}
	}
	for (int v = 0; v < 4; ++v) {
		const cliCsvVector* vector = csvVectors + v;
		if (of[vector->first] < 0) {
			continue;
		}
		double values[3];
		bool given[3];
		for (int a = 0; a < 3; ++a) {
			if (!cellNumber(s, csv, vector->first + a, values + a, given + a)) {
				return false;
			}
		}
		if (given[0] != given[1] || given[0] != given[2]) {
			return failAt(s, csv->line, csv->column, "%s: %s, %s and %s must be all given or all empty", vector->name,
						  csvNames[vector->first], csvNames[vector->first + 1], csvNames[vector->first + 2]);
		}
		if (!given[0]) {
			continue;
		}
		bcVec3 value = { values[0], values[1], values[2] };
		switch (v) {
		case 0:
			r->point = value;
			break;
		case 1:
			r->center = value;
			break;
		case 2:
			r->normal = value;
			break;
		default:
			r->triangleNormal = value;
			break;
		}
		r->fields |= vector->field;
	}
	if (of[cli_csvError] >= 0) {
		const char* text = cellText(s, csv, cli_csvError);
		if (text[0] != '\0') {
			r->error = copyText(text, strlen(text));
			if (r->error == NULL) {
				return outOfMemory(s);
			}
			r->fields |= cli_resultError;
		}
	}
	if (of[cli_csvTies] >= 0 && !cellTies(s, csv, r)) {
		return false;
	}
	return true;
}

static bool parseCsv(cliScanner* s, cliResultSet* set, long* capacity)
{
	cliCsv csv;
	memset(&csv, 0, sizeof csv);
	bool ok = readHeader(s, &csv);
	while (ok) {
		int status = readRow(s, &csv);
		if (status <= 0) {
			ok = status == 0;
			break;
		}
		cliResult r;
		if (!csvResult(s, &csv, &r) || !appendResult(s, set, capacity, &r)) {
			freeResult(&r);
			ok = false;
		}
	}
	free(csv.cells);
	return ok;
}

/* ------------------------------------------------------------ reading */

static bool parseAll(cliScanner* s, cliResultSet* set, bcError* error)
{
	memset(set, 0, sizeof *set);
	s->line = 1;
	s->column = 1;
	long capacity = 0;
	/* A UTF-8 byte order mark is skipped and not counted in columns. The
	 * first chunk is in place, so a whole mark is in it if there is one. */
	peekByte(s);
	if (s->length - s->pos >= 3 && memcmp(s->data + s->pos, "\xEF\xBB\xBF", 3) == 0) {
		s->pos += 3;
	}
	bool ok = true;
	skipSpace(s);
	int c = peekByte(s);
	if (c == '[') {
		set->format = cli_inputJson;
		ok = parseJsonArray(s, set, &capacity);
	} else if (c == '{') {
		set->format = cli_inputNdjson;
		ok = parseJsonObjects(s, set, &capacity);
		if (set->document) {
			set->format = cli_inputJson;
		}
	} else if (c == EOF) {
		set->format = cli_inputNdjson; /* empty input: no results */
		ok = !s->failed;
	} else {
		set->format = cli_inputCsv;
		ok = parseCsv(s, set, &capacity);
	}
	ok = ok && !s->failed;
	free(s->scratch);
	if (!ok) {
		cliResultSet_Free(set);
		if (error != NULL) {
			*error = s->error;
		}
		return false;
	}
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->record = -1;
	}
	return true;
}

bool cliReadResults(FILE* stream, cliResultSet* set, bcError* error)
{
	cliScanner s;
	memset(&s, 0, sizeof s);
	s.stream = stream;
	s.chunk = malloc(CLI_RESULTS_CHUNK);
	if (s.chunk == NULL) {
		memset(set, 0, sizeof *set);
		outOfMemory(&s);
		if (error != NULL) {
			*error = s.error;
		}
		return false;
	}
	bool ok = parseAll(&s, set, error);
	free(s.chunk);
	return ok;
}

bool cliParseResults(const char* text, size_t length, cliResultSet* set, bcError* error)
{
	cliScanner s;
	memset(&s, 0, sizeof s);
	s.data = text;
	s.length = length;
	s.eof = true;
	return parseAll(&s, set, error);
}

/* --------------------------------------------------------------- ids */

/* "n" then the exact decimal value: sign, significant digits without
 * leading or trailing zeros, "e" and the exponent of the last digit;
 * "n0" for zero of either sign. text is a JSON number. */
static char* numberKey(const char* text, size_t n)
{
	char* key = malloc(n + 32);
	if (key == NULL) {
		return NULL;
	}
	size_t i = 0;
	bool negative = text[i] == '-';
	if (negative) {
		i++;
	}
	char* digits = key + 2; /* room for "n-" */
	size_t count = 0;
	long long exponent = 0;
	for (; i < n && isDigit(text[i]); ++i) {
		digits[count++] = text[i];
	}
	if (i < n && text[i] == '.') {
		for (++i; i < n && isDigit(text[i]); ++i) {
			digits[count++] = text[i];
			exponent -= 1;
		}
	}
	if (i < n && (text[i] == 'e' || text[i] == 'E')) {
		++i;
		bool down = i < n && text[i] == '-';
		if (i < n && (text[i] == '-' || text[i] == '+')) {
			++i;
		}
		long long e = 0;
		for (; i < n && isDigit(text[i]); ++i) {
			e = e < CLI_EXPONENT_LIMIT ? 10 * e + (text[i] - '0') : e;
		}
		exponent += down ? -e : e;
	}
	size_t lead = 0;
	while (lead < count && digits[lead] == '0') {
		lead++;
	}
	while (count > lead && digits[count - 1] == '0') {
		count--;
		exponent += 1;
	}
	if (count == lead) {
		strcpy(key, "n0");
		return key;
	}
	char* out = key;
	*out++ = 'n';
	if (negative) {
		*out++ = '-';
	}
	memmove(out, digits + lead, count - lead);
	out += count - lead;
	snprintf(out, 24, "e%lld", exponent);
	return key;
}

char* cliResultIdKey(const cliResult* result)
{
	char index[32];
	const char* text = result->id;
	if (result->idKind == cli_idIndex || text == NULL) {
		snprintf(index, sizeof index, "%ld", result->index);
		text = index;
	}
	size_t n = strlen(text);
	if (cliIsJsonNumber(text, n)) {
		return numberKey(text, n);
	}
	char* key = malloc(n + 2);
	if (key != NULL) {
		key[0] = 's';
		memcpy(key + 1, text, n + 1);
	}
	return key;
}

void cliWriteResultIdJson(FILE* f, const cliResult* result)
{
	if (result->idKind == cli_idNumber) {
		fputs(result->id, f);
	} else if (result->idKind == cli_idString) {
		cliWriteJsonString(f, result->id);
	} else {
		cliWriteInt(f, result->index);
	}
}
