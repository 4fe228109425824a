/* scene.c - the scene of `ballcast simulate`, a JSON document:
 *
 *   {"balls": [{"id": "a", "p": [0, 0, 1], "v": [1, 0, 0], "r": 0.25,
 *               "mass": 2}, ...],
 *    "gravity": [0, 0, -9.81], "restitution": 0.8, "horizon": 10,
 *    "samples": 0.01, "max_events": 100000}
 *
 * A scene is small and read whole, so it is parsed into a tree by a strict
 * RFC 8259 parser of its own that remembers where every value starts:
 * syntax errors and bad values alike are reported at their exact line and
 * column (cJSON keeps no positions, reports some errors a byte off and
 * accepts numbers such as 01, 1. and -.5). Numbers are read by strtod from
 * their validated text, so they are correctly rounded; a numeric id keeps
 * its text as written. */
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The deepest nesting accepted. A scene needs three levels; 64 leaves room
 * for unknown keys holding structured data while bounding the recursion. */
#define CLI_SCENE_MAX_DEPTH 64

/* Bytes asked of the stream per read when loading a scene. */
#define CLI_SCENE_READ_CHUNK ((size_t)64 * 1024)

/* Longest token quoted back in a message; keeps messages within bcError. */
#define CLI_SCENE_QUOTE_MAX 40

/* Tree nodes an array or object starts with (then doubling). */
#define CLI_SCENE_INITIAL_ITEMS 4

#if defined(__GNUC__)
#define CLI_SCENE_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_SCENE_PRINTF(formatIndex, firstArgument)
#endif

typedef enum cliJsonType {
	cli_jsonNull = 0,
	cli_jsonBool,
	cli_jsonNumber,
	cli_jsonString,
	cli_jsonArray,
	cli_jsonObject
} cliJsonType;

typedef struct cliJson cliJson;

/* One value of the tree. Arrays and objects own their items; an object's
 * items carry their keys. */
struct cliJson {
	cliJsonType type;
	size_t offset;       /* the value's first byte */
	size_t length;       /* the value's bytes (numbers: their text) */
	double number;
	char* string;        /* strings: decoded UTF-8, NUL terminated (owned) */
	size_t stringLength; /* its bytes: more than strlen when it holds \u0000 */
	char* key;           /* object members: the decoded key (owned) */
	size_t keyLength;    /* its bytes, likewise */
	size_t keyOffset;    /* object members: where the key's quote is */
	cliJson* items;
	int count;
	int capacity;
};

typedef struct cliParser {
	const char* s;
	size_t n;
	size_t i;
	size_t bomEnd;    /* 3 after a UTF-8 byte order mark, else 0 */
	bcError* error;
	/* The last position asked for: positions are mostly asked in order, so
	 * each is counted on from there (from the start would be quadratic). */
	size_t knownOffset;
	long knownLine;
	size_t knownLineStart;
} cliParser;

/* ------------------------------------------------------------ positions */

static void positionOf(cliParser* p, size_t offset, long* line, long* column)
{
	if (offset < p->knownOffset) {
		p->knownOffset = 0;
		p->knownLine = 1;
		p->knownLineStart = p->bomEnd;
	}
	long l = p->knownLine;
	size_t lineStart = p->knownLineStart;
	for (size_t k = p->knownOffset; k < offset && k < p->n; ++k) {
		if (p->s[k] == '\n') {
			l += 1;
			lineStart = k + 1;
		}
	}
	p->knownOffset = offset < p->n ? offset : p->n;
	p->knownLine = l;
	p->knownLineStart = lineStart;
	*line = l;
	*column = (long)(offset >= lineStart ? offset - lineStart : 0) + 1;
}

CLI_SCENE_PRINTF(4, 5)
static bool failAt(cliParser* p, bcErrorCode code, size_t offset, const char* format, ...)
{
	bcError* e = p->error;
	e->code = code;
	positionOf(p, offset, &e->line, &e->column);
	va_list args;
	va_start(args, format);
	vsnprintf(e->message, sizeof e->message, format, args);
	va_end(args);
	return false;
}

static bool outOfMemory(cliParser* p)
{
	p->error->code = bc_errorNoMemory;
	p->error->line = 0;
	p->error->column = 0;
	snprintf(p->error->message, sizeof p->error->message, "out of memory");
	return false;
}

static void describeByte(unsigned char c, char* text, size_t size)
{
	if (c > 0x20 && c < 0x7f) {
		snprintf(text, size, "'%c'", c);
	} else {
		snprintf(text, size, "byte 0x%02X", (unsigned)c);
	}
}

/* ------------------------------------------------------------ the tree */

static void freeJson(cliJson* v)
{
	for (int k = 0; k < v->count; ++k) {
		freeJson(v->items + k);
	}
	free(v->items);
	free(v->string);
	free(v->key);
	memset(v, 0, sizeof *v);
}

/* A new zeroed item at the end of v's items, or NULL. */
static cliJson* appendItem(cliJson* v)
{
	if (v->count == v->capacity) {
		int capacity = v->capacity == 0 ? CLI_SCENE_INITIAL_ITEMS : 2 * v->capacity;
		if (capacity <= v->capacity) {
			return NULL;
		}
		cliJson* items = realloc(v->items, (size_t)capacity * sizeof *items);
		if (items == NULL) {
			return NULL;
		}
		v->items = items;
		v->capacity = capacity;
	}
	cliJson* item = v->items + v->count++;
	memset(item, 0, sizeof *item);
	return item;
}

/* ------------------------------------------------------------- parsing */

static bool isBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool isDigit(char c)
{
	return c >= '0' && c <= '9';
}

static void skipBlanks(cliParser* p)
{
	while (p->i < p->n && isBlank(p->s[p->i])) {
		p->i++;
	}
}

/* Bytes that may belong to a mistyped number or literal (for quoting it). */
static bool isTokenByte(char c)
{
	return isDigit(c) || c == '-' || c == '+' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static size_t tokenEnd(const cliParser* p, size_t at)
{
	size_t k = at;
	while (k < p->n && isTokenByte(p->s[k])) {
		k++;
	}
	return k;
}

/* Does the token at s[at .. end) spell NaN or Infinity, in any case and with
 * an optional sign (the usual ways non-finite numbers leak into JSON)? */
static bool isNonNumber(const cliParser* p, size_t at, size_t end)
{
	static const char* const names[] = { "nan", "inf", "infinity" };
	if (at < end && (p->s[at] == '-' || p->s[at] == '+')) {
		at++;
	}
	for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
		size_t length = strlen(names[k]);
		bool same = end - at == length;
		for (size_t c = 0; same && c < length; ++c) {
			char x = p->s[at + c];
			same = (x >= 'A' && x <= 'Z' ? (char)(x - 'A' + 'a') : x) == names[k][c];
		}
		if (same) {
			return true;
		}
	}
	return false;
}

static bool unexpectedAt(cliParser* p, size_t at, const char* expected)
{
	if (at >= p->n) {
		return failAt(p, bc_errorSyntax, p->n, "unexpected end of input: expected %s", expected);
	}
	size_t end = tokenEnd(p, at);
	if (isNonNumber(p, at, end)) {
		return failAt(p, bc_errorSyntax, at, "NaN and Infinity are not JSON numbers");
	}
	char what[16];
	describeByte((unsigned char)p->s[at], what, sizeof what);
	return failAt(p, bc_errorSyntax, at, "invalid JSON: expected %s, found %s", expected, what);
}

static bool parseValue(cliParser* p, cliJson* v, int depth);

static int hexValue(char c)
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

/* The code unit of \uXXXX at s[at] (the backslash), or -1. */
static long unicodeEscape(const cliParser* p, size_t at)
{
	if (at + 6 > p->n || p->s[at] != '\\' || p->s[at + 1] != 'u') {
		return -1;
	}
	long code = 0;
	for (size_t k = 2; k < 6; ++k) {
		int h = hexValue(p->s[at + k]);
		if (h < 0) {
			return -1;
		}
		code = 16 * code + h;
	}
	return code;
}

static size_t putUtf8(char* out, long code)
{
	if (code < 0x80) {
		out[0] = (char)code;
		return 1;
	}
	if (code < 0x800) {
		out[0] = (char)(0xC0 | (code >> 6));
		out[1] = (char)(0x80 | (code & 0x3F));
		return 2;
	}
	if (code < 0x10000) {
		out[0] = (char)(0xE0 | (code >> 12));
		out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
		out[2] = (char)(0x80 | (code & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (code >> 18));
	out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
	out[3] = (char)(0x80 | (code & 0x3F));
	return 4;
}

/* The string whose quote is at p->i, decoded into a new buffer of
 * *decodedLength bytes and a NUL (\u0000 decodes to a NUL inside). */
static bool parseString(cliParser* p, char** decoded, size_t* decodedLength)
{
	size_t quote = p->i++;
	/* The decoded text is never longer than the raw text. */
	size_t end = p->i;
	while (end < p->n && p->s[end] != '"') {
		end += p->s[end] == '\\' ? 2 : 1;
	}
	size_t capacity = (end < p->n ? end : p->n) - p->i + 1;
	char* out = malloc(capacity);
	if (out == NULL) {
		return outOfMemory(p);
	}
	size_t k = 0;
	for (;;) {
		if (p->i >= p->n) {
			free(out);
			return failAt(p, bc_errorSyntax, quote, "unterminated string");
		}
		unsigned char c = (unsigned char)p->s[p->i];
		if (c == '"') {
			p->i++;
			break;
		}
		if (c < 0x20) {
			free(out);
			return failAt(p, bc_errorSyntax, p->i, "control character (byte 0x%02X) in a string: escape it",
						  (unsigned)c);
		}
		if (c != '\\') {
			out[k++] = (char)c;
			p->i++;
			continue;
		}
		size_t at = p->i;
		char e = at + 1 < p->n ? p->s[at + 1] : '\0';
		const char* simple = strchr("\"\\/bfnrt", e);
		if (e != '\0' && simple != NULL) {
			static const char decodedSimple[] = "\"\\/\b\f\n\r\t";
			out[k++] = decodedSimple[simple - "\"\\/bfnrt"];
			p->i += 2;
			continue;
		}
		long code = unicodeEscape(p, at);
		size_t length = 6;
		if (code >= 0xD800 && code <= 0xDBFF) {
			long low = unicodeEscape(p, at + 6);
			code = low >= 0xDC00 && low <= 0xDFFF ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : -1;
			length = 12;
		} else if (code >= 0xDC00 && code <= 0xDFFF) {
			code = -1;
		}
		if (code < 0) {
			free(out);
			return failAt(p, bc_errorSyntax, at, "invalid escape sequence in a string");
		}
		/* \uXXXX takes 6 raw bytes for at most 3 decoded, a pair 12 for 4. */
		k += putUtf8(out + k, code);
		p->i += length;
	}
	out[k] = '\0';
	*decoded = out;
	*decodedLength = k;
	return true;
}

/* JSON's number grammar at s[at]: the end of the longest valid prefix, or
 * at itself when none. */
static size_t numberPrefix(const cliParser* p, size_t at)
{
	const char* s = p->s;
	size_t n = p->n, k = at;
	if (k < n && s[k] == '-') {
		k++;
	}
	if (k >= n || !isDigit(s[k])) {
		return at;
	}
	if (s[k] == '0') {
		k++;
	} else {
		while (k < n && isDigit(s[k])) {
			k++;
		}
	}
	if (k + 1 < n && s[k] == '.' && isDigit(s[k + 1])) {
		k += 2;
		while (k < n && isDigit(s[k])) {
			k++;
		}
	}
	if (k < n && (s[k] == 'e' || s[k] == 'E')) {
		size_t e = k + 1;
		if (e < n && (s[e] == '+' || s[e] == '-')) {
			e++;
		}
		if (e < n && isDigit(s[e])) {
			while (e < n && isDigit(s[e])) {
				e++;
			}
			k = e;
		}
	}
	return k;
}

static bool parseNumber(cliParser* p, cliJson* v)
{
	size_t at = p->i;
	size_t end = numberPrefix(p, at);
	size_t token = tokenEnd(p, at);
	if (end == at || end < token) {
		if (isNonNumber(p, at, token)) {
			return failAt(p, bc_errorSyntax, at, "NaN and Infinity are not JSON numbers");
		}
		int shown = token - at > CLI_SCENE_QUOTE_MAX ? CLI_SCENE_QUOTE_MAX : (int)(token - at);
		return failAt(p, bc_errorSyntax, at, "invalid JSON number '%.*s'", shown, p->s + at);
	}
	char small[64];
	size_t length = end - at;
	char* text = length < sizeof small ? small : malloc(length + 1);
	if (text == NULL) {
		return outOfMemory(p);
	}
	memcpy(text, p->s + at, length);
	text[length] = '\0';
	/* strtod reads the validated text in the C locale; a value beyond the
	 * doubles comes back infinite, which the scene checks report. */
	v->number = strtod(text, NULL);
	if (text != small) {
		free(text);
	}
	v->type = cli_jsonNumber;
	v->length = length;
	p->i = end;
	return true;
}

static bool parseLiteral(cliParser* p, cliJson* v, const char* word, cliJsonType type, bool value)
{
	size_t length = strlen(word);
	if (p->n - p->i < length || memcmp(p->s + p->i, word, length) != 0 ||
		(p->i + length < p->n && isTokenByte(p->s[p->i + length]))) {
		return unexpectedAt(p, p->i, "a JSON value");
	}
	v->type = type;
	v->number = value ? 1.0 : 0.0;
	p->i += length;
	return true;
}

static bool parseArray(cliParser* p, cliJson* v, int depth)
{
	v->type = cli_jsonArray;
	p->i++;
	skipBlanks(p);
	if (p->i < p->n && p->s[p->i] == ']') {
		p->i++;
		return true;
	}
	for (;;) {
		cliJson* item = appendItem(v);
		if (item == NULL) {
			return outOfMemory(p);
		}
		if (!parseValue(p, item, depth + 1)) {
			return false;
		}
		skipBlanks(p);
		if (p->i >= p->n) {
			return unexpectedAt(p, p->i, "',' or ']'");
		}
		if (p->s[p->i] == ']') {
			p->i++;
			return true;
		}
		if (p->s[p->i] != ',') {
			return failAt(p, bc_errorSyntax, p->i, "expected ',' or ']' after an element");
		}
		p->i++;
		skipBlanks(p);
		if (p->i < p->n && p->s[p->i] == ']') {
			return failAt(p, bc_errorSyntax, p->i, "expected an element after ',' (no trailing commas in JSON)");
		}
	}
}

static bool parseObject(cliParser* p, cliJson* v, int depth)
{
	v->type = cli_jsonObject;
	p->i++;
	skipBlanks(p);
	if (p->i < p->n && p->s[p->i] == '}') {
		p->i++;
		return true;
	}
	for (;;) {
		if (p->i >= p->n || p->s[p->i] != '"') {
			return unexpectedAt(p, p->i, "a string key");
		}
		cliJson* item = appendItem(v);
		if (item == NULL) {
			return outOfMemory(p);
		}
		item->keyOffset = p->i;
		if (!parseString(p, &item->key, &item->keyLength)) {
			return false;
		}
		skipBlanks(p);
		if (p->i >= p->n || p->s[p->i] != ':') {
			return unexpectedAt(p, p->i, "':' after the key");
		}
		p->i++;
		if (!parseValue(p, item, depth + 1)) {
			return false;
		}
		skipBlanks(p);
		if (p->i >= p->n) {
			return unexpectedAt(p, p->i, "',' or '}'");
		}
		if (p->s[p->i] == '}') {
			p->i++;
			return true;
		}
		if (p->s[p->i] != ',') {
			return failAt(p, bc_errorSyntax, p->i, "expected ',' or '}' after a member");
		}
		p->i++;
		skipBlanks(p);
		if (p->i < p->n && p->s[p->i] == '}') {
			return failAt(p, bc_errorSyntax, p->i, "expected a key after ',' (no trailing commas in JSON)");
		}
	}
}

static bool parseValue(cliParser* p, cliJson* v, int depth)
{
	skipBlanks(p);
	v->offset = p->i;
	if (p->i >= p->n) {
		return unexpectedAt(p, p->i, "a JSON value");
	}
	char c = p->s[p->i];
	bool ok;
	if (c == '{' || c == '[') {
		if (depth >= CLI_SCENE_MAX_DEPTH) {
			return failAt(p, bc_errorSyntax, p->i, "nesting deeper than %d levels", CLI_SCENE_MAX_DEPTH);
		}
		ok = c == '{' ? parseObject(p, v, depth) : parseArray(p, v, depth);
	} else if (c == '"') {
		v->type = cli_jsonString;
		ok = parseString(p, &v->string, &v->stringLength);
	} else if (c == '-' || isDigit(c) || c == '+' || c == '.') {
		ok = parseNumber(p, v);
	} else if (c == 't') {
		ok = parseLiteral(p, v, "true", cli_jsonBool, true);
	} else if (c == 'f') {
		ok = parseLiteral(p, v, "false", cli_jsonBool, false);
	} else if (c == 'n' && !isNonNumber(p, p->i, tokenEnd(p, p->i))) {
		ok = parseLiteral(p, v, "null", cli_jsonNull, false);
	} else {
		return unexpectedAt(p, p->i, "a JSON value");
	}
	if (ok) {
		v->length = v->type == cli_jsonNumber ? v->length : p->i - v->offset;
	}
	return ok;
}

/* ---------------------------------------------------------- the scene */

static const char* typeName(cliJsonType type)
{
	switch (type) {
	case cli_jsonNull:
		return "null";
	case cli_jsonBool:
		return "a boolean";
	case cli_jsonNumber:
		return "a number";
	case cli_jsonString:
		return "a string";
	case cli_jsonArray:
		return "an array";
	case cli_jsonObject:
		return "an object";
	}
	return "a value";
}

const char* cliSceneBallName(const cliSceneBall* ball, char* buffer, size_t size)
{
	if (ball->idKind == cli_idString) {
		snprintf(buffer, size, "ball \"%.*s\" (balls[%ld])", CLI_SCENE_QUOTE_MAX, ball->id, ball->index);
	} else if (ball->idKind == cli_idNumber) {
		snprintf(buffer, size, "ball %.*s (balls[%ld])", CLI_SCENE_QUOTE_MAX, ball->id, ball->index);
	} else {
		snprintf(buffer, size, "balls[%ld]", ball->index);
	}
	return buffer;
}

/* A value error at v (or its key), the subject (a ball's name, or "") in
 * front. */
CLI_SCENE_PRINTF(4, 5)
static bool valueError(cliParser* p, size_t offset, const char* subject, const char* format, ...)
{
	char message[sizeof p->error->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	return failAt(p, bc_errorValue, offset, "%s%s%s", subject, subject[0] != 0 ? ": " : "", message);
}

/* The number's text as written, for messages. */
static int shownLength(const cliJson* v)
{
	return v->length > CLI_SCENE_QUOTE_MAX ? CLI_SCENE_QUOTE_MAX : (int)v->length;
}

/* A finite number (the key names it in messages). */
static bool readNumber(cliParser* p, const cliJson* v, const char* subject, const char* key, double* out)
{
	if (v->type != cli_jsonNumber) {
		return valueError(p, v->offset, subject, "%s: expected a number, found %s", key, typeName(v->type));
	}
	if (!isfinite(v->number)) {
		return valueError(p, v->offset, subject, "%s: %.*s is not a finite number", key, shownLength(v),
						  p->s + v->offset);
	}
	*out = v->number;
	return true;
}

static bool readVector(cliParser* p, const cliJson* v, const char* subject, const char* key, bcVec3* out)
{
	if (v->type != cli_jsonArray || v->count != 3) {
		return valueError(p, v->offset, subject, "%s: expected an array of 3 numbers", key);
	}
	double x[3];
	for (int k = 0; k < 3; ++k) {
		if (!readNumber(p, v->items + k, subject, key, x + k)) {
			return false;
		}
	}
	out->x = x[0];
	out->y = x[1];
	out->z = x[2];
	return true;
}

/* Member m's key for a message, a NUL shown as \u0000, cut to what fits
 * in text[size]. */
static void showKey(const cliJson* m, char* text, size_t size)
{
	size_t n = 0;
	for (size_t k = 0; k < m->keyLength; ++k) {
		size_t width = m->key[k] == '\0' ? 6 : 1;
		if (n + width >= size) {
			break;
		}
		if (m->key[k] == '\0') {
			memcpy(text + n, "\\u0000", 6);
		} else {
			text[n] = m->key[k];
		}
		n += width;
	}
	text[n] = '\0';
}

static bool addNote(cliParser* p, cliScene* scene, const cliJson* m, const char* subject)
{
	cliSceneNote* notes = realloc(scene->notes, (size_t)(scene->noteCount + 1) * sizeof *notes);
	if (notes == NULL) {
		return outOfMemory(p);
	}
	scene->notes = notes;
	cliSceneNote* note = notes + scene->noteCount++;
	positionOf(p, m->keyOffset, &note->line, &note->column);
	char key[CLI_SCENE_QUOTE_MAX + 1];
	showKey(m, key, sizeof key);
	snprintf(note->message, sizeof note->message, "%s%sunknown key \"%s\" ignored", subject,
			 subject[0] != 0 ? ": " : "", key);
	return true;
}

/* Is member m's key exactly key? (A key holding \u0000 is no name we know,
 * though its C string may read as one.) */
static bool hasKey(const cliJson* m, const char* key)
{
	return m->keyLength == strlen(key) && strcmp(m->key, key) == 0;
}

/* The first member of object o named key (later ones are ignored), or NULL. */
static const cliJson* member(const cliJson* o, const char* key)
{
	for (int k = 0; k < o->count; ++k) {
		if (hasKey(o->items + k, key)) {
			return o->items + k;
		}
	}
	return NULL;
}

/* Is m the first member of o with its key (byte for byte)? */
static bool isFirstOfKey(const cliJson* o, const cliJson* m)
{
	for (const cliJson* other = o->items; other < m; ++other) {
		if (other->keyLength == m->keyLength && memcmp(other->key, m->key, m->keyLength) == 0) {
			return false;
		}
	}
	return true;
}

static bool isKnown(const cliJson* m, const char* const* keys, size_t count)
{
	for (size_t k = 0; k < count; ++k) {
		if (hasKey(m, keys[k])) {
			return true;
		}
	}
	return false;
}

static bool readBall(cliParser* p, cliScene* scene, const cliJson* v, cliSceneBall* ball)
{
	char subject[96];
	if (v->type != cli_jsonObject) {
		snprintf(subject, sizeof subject, "balls[%ld]", ball->index);
		return valueError(p, v->offset, subject, "expected an object, found %s", typeName(v->type));
	}
	positionOf(p, v->offset, &ball->line, &ball->column);
	const cliJson* id = member(v, "id");
	if (id != NULL) {
		if (id->type == cli_jsonString) {
			if (id->stringLength != strlen(id->string)) {
				snprintf(subject, sizeof subject, "balls[%ld]", ball->index);
				return valueError(p, id->offset, subject, "id: contains \\u0000, which cannot be echoed");
			}
			ball->idKind = cli_idString;
			ball->id = strdup(id->string);
		} else if (id->type == cli_jsonNumber) {
			ball->idKind = cli_idNumber;
			ball->id = malloc(id->length + 1);
			if (ball->id != NULL) {
				memcpy(ball->id, p->s + id->offset, id->length);
				ball->id[id->length] = '\0';
			}
		} else {
			snprintf(subject, sizeof subject, "balls[%ld]", ball->index);
			return valueError(p, id->offset, subject, "id: expected a string or a number, found %s",
							  typeName(id->type));
		}
		if (ball->id == NULL) {
			return outOfMemory(p);
		}
	}
	cliSceneBallName(ball, subject, sizeof subject);
	static const char* const keys[] = { "id", "p", "v", "r", "radius", "mass" };
	/* Members in document order, so the first problem in the text is the one
	 * reported. */
	bool haveP = false, haveR = false;
	ball->def.mass = 1.0;
	for (int k = 0; k < v->count; ++k) {
		const cliJson* m = v->items + k;
		if (!isFirstOfKey(v, m)) {
			continue; /* a repeated key: the first one counts */
		}
		if (!isKnown(m, keys, sizeof keys / sizeof keys[0])) {
			if (!addNote(p, scene, m, subject)) {
				return false;
			}
		} else if (strcmp(m->key, "p") == 0) {
			if (!readVector(p, m, subject, "p", &ball->def.position)) {
				return false;
			}
			haveP = true;
		} else if (strcmp(m->key, "v") == 0) {
			if (!readVector(p, m, subject, "v", &ball->def.velocity)) {
				return false;
			}
		} else if (strcmp(m->key, "r") == 0 || (strcmp(m->key, "radius") == 0 && member(v, "r") == NULL)) {
			if (!readNumber(p, m, subject, m->key, &ball->def.radius)) {
				return false;
			}
			if (!(ball->def.radius >= 0.0)) {
				return valueError(p, m->offset, subject, "%s: must be >= 0, not %.*s", m->key, shownLength(m),
								  p->s + m->offset);
			}
			haveR = true;
		} else if (strcmp(m->key, "mass") == 0) {
			if (!readNumber(p, m, subject, "mass", &ball->def.mass)) {
				return false;
			}
			if (!(ball->def.mass > 0.0)) {
				return valueError(p, m->offset, subject, "mass: must be > 0, not %.*s", shownLength(m),
								  p->s + m->offset);
			}
		}
	}
	if (!haveP) {
		return valueError(p, v->offset, subject, "missing \"p\" (the centre at time 0)");
	}
	if (!haveR) {
		return valueError(p, v->offset, subject, "missing \"r\" (the radius)");
	}
	return true;
}

static bool readBalls(cliParser* p, cliScene* scene, const cliJson* v)
{
	if (v->type != cli_jsonArray) {
		return valueError(p, v->offset, "", "balls: expected an array of ball objects, found %s", typeName(v->type));
	}
	scene->balls = calloc((size_t)(v->count > 0 ? v->count : 1), sizeof *scene->balls);
	if (scene->balls == NULL) {
		return outOfMemory(p);
	}
	for (int k = 0; k < v->count; ++k) {
		cliSceneBall* ball = scene->balls + k;
		ball->index = k;
		scene->ballCount = k + 1;
		if (!readBall(p, scene, v->items + k, ball)) {
			p->error->record = k;
			return false;
		}
	}
	return true;
}

/* A positive finite number. */
static bool readPositive(cliParser* p, const cliJson* m, const char* key, double* out)
{
	if (!readNumber(p, m, "", key, out)) {
		return false;
	}
	if (!(*out > 0.0)) {
		return valueError(p, m->offset, "", "%s: must be > 0, not %.*s", key, shownLength(m), p->s + m->offset);
	}
	return true;
}

static bool readScene(cliParser* p, const cliJson* root, cliScene* scene)
{
	if (root->type != cli_jsonObject) {
		return valueError(p, root->offset, "", "a scene is a JSON object with \"balls\" and \"horizon\", not %s",
						  typeName(root->type));
	}
	static const char* const keys[] = { "balls", "gravity", "restitution", "horizon", "samples", "max_events" };
	scene->restitution = 1.0;
	bool haveBalls = false, haveHorizon = false;
	for (int k = 0; k < root->count; ++k) {
		const cliJson* m = root->items + k;
		if (!isFirstOfKey(root, m)) {
			continue;
		}
		if (!isKnown(m, keys, sizeof keys / sizeof keys[0])) {
			if (!addNote(p, scene, m, "")) {
				return false;
			}
		} else if (strcmp(m->key, "balls") == 0) {
			if (!readBalls(p, scene, m)) {
				return false;
			}
			haveBalls = true;
		} else if (strcmp(m->key, "gravity") == 0) {
			if (!readVector(p, m, "", "gravity", &scene->gravity)) {
				return false;
			}
		} else if (strcmp(m->key, "restitution") == 0) {
			if (!readNumber(p, m, "", "restitution", &scene->restitution)) {
				return false;
			}
			if (!(scene->restitution >= 0.0 && scene->restitution <= 1.0)) {
				return valueError(p, m->offset, "", "restitution: must be in [0, 1], not %.*s", shownLength(m),
								  p->s + m->offset);
			}
		} else if (strcmp(m->key, "horizon") == 0) {
			if (!readPositive(p, m, "horizon", &scene->horizon)) {
				return false;
			}
			haveHorizon = true;
		} else if (strcmp(m->key, "samples") == 0) {
			if (!readPositive(p, m, "samples", &scene->samples)) {
				return false;
			}
			scene->haveSamples = true;
		} else if (strcmp(m->key, "max_events") == 0) {
			double x = 0.0;
			/* 2^62: far beyond any run, and exact in a double and a long long. */
			if (!readNumber(p, m, "", "max_events", &x) || !(x >= 1.0 && x <= 0x1p62 && x == floor(x))) {
				if (p->error->code != bc_errorNone) {
					return false;
				}
				return valueError(p, m->offset, "", "max_events: must be a whole number >= 1, not %.*s",
								  shownLength(m), p->s + m->offset);
			}
			scene->maxEvents = (long long)x;
			scene->haveMaxEvents = true;
		}
	}
	if (!haveBalls) {
		return valueError(p, root->offset, "", "missing \"balls\" (an array of balls)");
	}
	if (!haveHorizon) {
		return valueError(p, root->offset, "", "missing \"horizon\" (the time to simulate, in seconds)");
	}
	return true;
}

bool cliScene_Parse(const char* text, size_t length, cliScene* scene, bcError* error)
{
	memset(scene, 0, sizeof *scene);
	memset(error, 0, sizeof *error);
	error->record = -1;
	cliParser p = { text, length, 0, 0, error, 0, 1, 0 };
	if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		p.i = p.bomEnd = p.knownLineStart = 3;
	}
	cliJson root;
	memset(&root, 0, sizeof root);
	skipBlanks(&p);
	bool ok;
	if (p.i >= p.n) {
		ok = failAt(&p, bc_errorSyntax, p.i, "empty scene: expected a JSON object");
	} else {
		ok = parseValue(&p, &root, 0);
		skipBlanks(&p);
		if (ok && p.i < p.n) {
			ok = failAt(&p, bc_errorSyntax, p.i, "unexpected data after the scene's JSON object");
		}
	}
	ok = ok && readScene(&p, &root, scene);
	freeJson(&root);
	if (!ok) {
		cliScene_Free(scene);
		if (error->code == bc_errorNone) {
			outOfMemory(&p);
		}
	}
	return ok;
}

bool cliScene_Load(const char* path, cliScene* scene, bcError* error)
{
	memset(scene, 0, sizeof *scene);
	memset(error, 0, sizeof *error);
	error->record = -1;
	bool fromStdin = strcmp(path, "-") == 0;
	FILE* f = fromStdin ? stdin : fopen(path, "rb");
	if (f == NULL) {
		error->code = bc_errorIo;
		snprintf(error->message, sizeof error->message, "cannot open: %s", strerror(errno));
		return false;
	}
	char* buffer = NULL;
	size_t length = 0, capacity = 0;
	bool ok = true;
	for (;;) {
		if (capacity - length < CLI_SCENE_READ_CHUNK) {
			size_t grown = capacity == 0 ? CLI_SCENE_READ_CHUNK : 2 * capacity;
			char* bigger = grown > capacity ? realloc(buffer, grown) : NULL;
			if (bigger == NULL) {
				error->code = bc_errorNoMemory;
				snprintf(error->message, sizeof error->message, "out of memory");
				ok = false;
				break;
			}
			buffer = bigger;
			capacity = grown;
		}
		size_t got = fread(buffer + length, 1, capacity - length, f);
		length += got;
		if (got == 0) {
			if (ferror(f)) {
				error->code = bc_errorIo;
				snprintf(error->message, sizeof error->message, "cannot read: %s", strerror(errno));
				ok = false;
			}
			break;
		}
	}
	if (!fromStdin) {
		fclose(f);
	}
	ok = ok && cliScene_Parse(buffer, length, scene, error);
	free(buffer);
	return ok;
}

void cliScene_Free(cliScene* scene)
{
	for (int k = 0; k < scene->ballCount; ++k) {
		free(scene->balls[k].id);
	}
	free(scene->balls);
	free(scene->notes);
	memset(scene, 0, sizeof *scene);
}
