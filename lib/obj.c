/* obj.c - the Wavefront OBJ reader: v and f lines into a bcMesh.
 *
 * One pass over the text; the only storage is three growable arrays
 * (vertices, triangle indices, face ids). Nothing is built per line.
 *
 * What is accepted:
 *  - A UTF-8 byte order mark at the very start is skipped; columns on line 1
 *    count bytes after it.
 *  - Lines end at LF. CR (so CRLF), tab and space are blanks between tokens.
 *    The last line needs no newline.
 *  - A '\' right before the end of a line (optionally followed by CR) joins
 *    the next physical line to this logical line and acts as a blank. Errors
 *    still report the physical line and column of the offending token.
 *  - '#' starts a comment running to the end of the physical line, also
 *    after data; a '\' inside a comment is part of the comment.
 *  - "v x y z ...": anything after z (w, vertex colours) is ignored unread.
 *  - "f a b c ...": each token is v, v/vt, v//vn or v/vt/vn; vt and vn must
 *    be integers and are otherwise ignored. A negative v counts back from
 *    the last vertex defined so far (-1 is that vertex). A polygon with k
 *    corners becomes k - 2 triangles (v0 v1 v2), (v0 v2 v3), ...
 *  - Every other keyword (vt, vn, vp, o, g, s, usemtl, mtllib, l, p and any
 *    unknown one, such as an exporter's extension) is skipped with its whole
 *    logical line.
 *  - Numbers: the double strtod gives in the C locale, whatever the process
 *    locale (so also hexadecimal floats). NaN and infinities, written or by
 *    overflow, are refused; underflow to zero or a subnormal is accepted.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "mesh.h"

/* The element limit. Tests build a second copy of this file with a small
 * value to reach the bc_errorTooLarge paths; the library uses the public one. */
#ifndef BC_OBJ_MAX_ELEMENTS
#define BC_OBJ_MAX_ELEMENTS BC_MAX_ELEMENTS
#endif

/* First capacity of the growable arrays, in elements; they double from here. */
#define BC_OBJ_INITIAL_CAPACITY 1024

/* The fast number path gathers at most this many significant digits into a
 * uint64_t (10^19 - 1 < 2^64); longer mantissas go to strtod. */
#define BC_OBJ_FAST_DIGITS 19

/* Written exponents are accumulated up to this magnitude, and fractions of
 * more digits go to strtod: anything beyond is far outside the double range
 * (and no int overflows). */
#define BC_OBJ_EXPONENT_CAP 100000

/* A face index with more than BC_OBJ_INDEX_DIGITS digits (which could wrap a
 * uint64_t) counts as BC_OBJ_INDEX_CAP, so it is reported as out of range. */
#define BC_OBJ_INDEX_DIGITS 18
#define BC_OBJ_INDEX_CAP ((int64_t)1 << 40)

/* Number tokens of up to this many bytes are copied to the stack for strtod. */
#define BC_OBJ_NUMBER_BUFFER 128

/* Tokens quoted in error messages are cut after this many bytes. */
#define BC_OBJ_QUOTE_LENGTH 40

/* Files that are not mapped are read with read() calls of at most this many
 * bytes, into a buffer that starts at BC_OBJ_READ_START bytes when the size
 * is unknown. */
#define BC_OBJ_READ_CHUNK ((size_t)1 << 30)
#define BC_OBJ_READ_START ((size_t)1 << 16)

/* Clinger's fast path needs double arithmetic done in double precision. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define BC_OBJ_CLINGER 1
#else
#define BC_OBJ_CLINGER 0
#endif

/* The x87 extended path: a 64-bit significand holds any 19-digit mantissa
 * and 10^k for k <= 27 exactly, and its bytes start with the significand. */
#if defined(__x86_64__) && LDBL_MANT_DIG == 64 && BC_OBJ_CLINGER
#define BC_OBJ_EXTENDED 1
#else
#define BC_OBJ_EXTENDED 0
#endif

typedef enum bcCharClass {
	bc_charToken = 0,
	bc_charBlank,
	bc_charNewline,
	bc_charHash,
	bc_charBackslash
} bcCharClass;

/* The class of every byte; unlisted bytes belong to tokens. */
static const unsigned char charClass[256] = {
	[' '] = bc_charBlank, ['\t'] = bc_charBlank, ['\r'] = bc_charBlank,
	['\n'] = bc_charNewline, ['#'] = bc_charHash, ['\\'] = bc_charBackslash,
};

/* 10^0 .. 10^22, all exact in a double. */
static const double powersOfTen[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if BC_OBJ_EXTENDED
/* 10^0 .. 10^27, all exact in an x87 long double. */
static const long double extendedPowersOfTen[] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
	1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};
#endif

/* Parser state: the cursor, the physical position for errors, the output. */
typedef struct bcObjParser {
	const char* cursor;
	const char* end;
	const char* lineStart; /* first byte of the current physical line */
	long line;             /* current physical line, 1-based */
	bcError* error;
	bcVec3* vertices;
	size_t vertexCapacity;
	int32_t vertexCount;
	int32_t triangleCount;
	size_t triangleCapacity;
	int32_t* triangles; /* 3 per triangle */
	int32_t* faceIds;   /* 1 per triangle */
	int32_t faceCount;
} bcObjParser;

static inline bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Is the '\' at q the end of its physical line (a line continuation)? */
static inline bool isContinuation(const char* q, const char* end)
{
	++q;
	if (q < end && *q == '\r') {
		++q;
	}
	return q == end || *q == '\n';
}

/* Does a token end at q (end of text, a blank, a newline, '#' or a continuation)? */
static inline bool isTokenEnd(const char* q, const char* end)
{
	if (q == end) {
		return true;
	}
	unsigned char c = charClass[(unsigned char)*q];
	if (c == bc_charToken) {
		return false;
	}
	return c != bc_charBackslash || isContinuation(q, end);
}

/* Has the logical line ended at q (end of text, newline or comment)? */
static inline bool isLineEnd(const char* q, const char* end)
{
	return q == end || *q == '\n' || *q == '#';
}

static const char* findTokenEnd(const char* q, const char* end)
{
	while (!isTokenEnd(q, end)) {
		++q;
	}
	return q;
}

static inline long columnOf(const bcObjParser* parser, const char* at)
{
	return (long)(at - parser->lineStart) + 1;
}

/* Copy the token at [begin, end) for a message: cut to BC_OBJ_QUOTE_LENGTH
 * bytes, control bytes shown as '?'. */
static void quoteToken(char* out, size_t size, const char* begin, const char* end)
{
	size_t length = (size_t)(end - begin);
	bool cut = length > BC_OBJ_QUOTE_LENGTH;
	if (cut) {
		length = BC_OBJ_QUOTE_LENGTH;
	}
	if (length + 4 > size) {
		length = size - 4;
	}
	for (size_t i = 0; i < length; ++i) {
		unsigned char c = (unsigned char)begin[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (cut) {
		memcpy(out + length, "...", 4);
	} else {
		out[length] = '\0';
	}
}

/* Report "expected <what>, found ..." for the token starting at 'at'. */
static void expectedError(bcObjParser* parser, const char* at, const char* what)
{
	long column = columnOf(parser, at);
	if (at == parser->end || *at == '\n') {
		bcSetError(parser->error, bc_errorSyntax, parser->line, column, "expected %s, found the end of the line", what);
	} else if (*at == '#') {
		bcSetError(parser->error, bc_errorSyntax, parser->line, column, "expected %s, found a comment", what);
	} else {
		char quoted[BC_OBJ_QUOTE_LENGTH + 4];
		quoteToken(quoted, sizeof quoted, at, findTokenEnd(at, parser->end));
		bcSetError(parser->error, bc_errorSyntax, parser->line, column, "expected %s, found '%s'", what, quoted);
	}
}

/* Skip blanks and line continuations; stop at a token, a newline, a comment
 * or the end. */
static inline void skipBlanks(bcObjParser* parser)
{
	const char* p = parser->cursor;
	const char* end = parser->end;
	for (;;) {
		while (p < end && charClass[(unsigned char)*p] == bc_charBlank) {
			++p;
		}
		if (p < end && *p == '\\' && isContinuation(p, end)) {
			++p;
			if (p < end && *p == '\r') {
				++p;
			}
			if (p < end) {
				++p; /* the '\n' */
				parser->line += 1;
				parser->lineStart = p;
			}
			continue;
		}
		break;
	}
	parser->cursor = p;
}

/* Skip the rest of the logical line, following continuations; stop on its
 * final '\n' (or the end). A '\' inside a comment does not continue. */
static void skipLine(bcObjParser* parser)
{
	const char* p = parser->cursor;
	const char* end = parser->end;
	for (;;) {
		const char* newline = memchr(p, '\n', (size_t)(end - p));
		if (newline == NULL) {
			parser->cursor = end;
			return;
		}
		const char* last = newline;
		if (last > p && last[-1] == '\r') {
			--last;
		}
		if (last > p && last[-1] == '\\' && memchr(p, '#', (size_t)(last - 1 - p)) == NULL) {
			p = newline + 1;
			parser->line += 1;
			parser->lineStart = p;
			continue;
		}
		parser->cursor = newline;
		return;
	}
}

/* Read a decimal number [+-]digits[.digits][(e|E)[+-]digits] at *cursor when
 * the result is certainly the correctly rounded double; return false (and
 * leave the rest to strtod) otherwise. */
static inline bool parseFastNumber(const char** cursor, const char* end, double* value)
{
	const char* p = *cursor;
	bool negative = false;
	if (p < end && (*p == '-' || *p == '+')) {
		negative = *p == '-';
		++p;
	}
	/* Leading zeros carry no information; then every digit goes into the
	 * mantissa (wrapping if there are too many: checked below). */
	const char* digitsStart = p;
	while (p < end && *p == '0') {
		++p;
	}
	uint64_t mantissa = 0;
	const char* significant = p;
	while (p < end && isDigit(*p)) {
		mantissa = 10 * mantissa + (uint64_t)(*p - '0');
		++p;
	}
	ptrdiff_t digits = p - significant;
	bool sawDigit = p > digitsStart;
	int exponent = 0;
	if (p < end && *p == '.') {
		++p;
		const char* fraction = p;
		if (digits == 0) {
			while (p < end && *p == '0') {
				++p;
			}
		}
		significant = p;
		while (p < end && isDigit(*p)) {
			mantissa = 10 * mantissa + (uint64_t)(*p - '0');
			++p;
		}
		if (p - fraction > BC_OBJ_EXPONENT_CAP) {
			return false;
		}
		exponent = -(int)(p - fraction);
		digits += p - significant;
		sawDigit = sawDigit || p > fraction;
	}
	if (!sawDigit || digits > BC_OBJ_FAST_DIGITS) {
		return false;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		++p;
		bool negativeExponent = false;
		if (p < end && (*p == '-' || *p == '+')) {
			negativeExponent = *p == '-';
			++p;
		}
		if (p == end || !isDigit(*p)) {
			return false;
		}
		int written = 0;
		while (p < end && isDigit(*p)) {
			if (written < BC_OBJ_EXPONENT_CAP) {
				written = 10 * written + (*p - '0');
			}
			++p;
		}
		exponent += negativeExponent ? -written : written;
	}

	double result;
	if (mantissa == 0) {
		result = 0.0;
	}
#if BC_OBJ_CLINGER
	/* Clinger: mantissa and 10^|e| are exact doubles, so one correctly
	 * rounded multiply or divide gives the correctly rounded result. */
	else if (mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22) {
		result = (double)mantissa;
		result = exponent >= 0 ? result * powersOfTen[exponent] : result / powersOfTen[-exponent];
	}
#endif
#if BC_OBJ_EXTENDED
	/* The same with a 64-bit significand, then rounded to 53 bits. That
	 * second rounding can differ from rounding the exact value only when the
	 * extended result lies exactly halfway between two doubles (its low 11
	 * bits are 10000000000): then strtod decides. The result stays in the
	 * normal double range (1e-27 .. 1e46), so 53 bits are always kept. */
	else if (exponent >= -27 && exponent <= 27) {
		long double extended = (long double)mantissa;
		extended = exponent >= 0 ? extended * extendedPowersOfTen[exponent] : extended / extendedPowersOfTen[-exponent];
		uint64_t significand;
		memcpy(&significand, &extended, sizeof significand);
		if ((significand & 0x7ff) == 0x400) {
			return false;
		}
		result = (double)extended;
	}
#endif
	else {
		return false;
	}
	*value = negative ? -result : result;
	*cursor = p;
	return true;
}

/* May the byte appear in a number token handed to strtod? Digits, letters
 * (exponents, hexadecimal, inf, nan), signs, '.', and nan(...) characters. */
static bool isNumberByte(char c)
{
	return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.' ||
		   c == '_' || c == '(' || c == ')';
}

/* The general path: strtod on a NUL-terminated copy of the token with '.'
 * replaced by the locale's decimal point (as cJSON does). */
static bool parseSlowNumber(bcObjParser* parser, const char* start, double* value)
{
	const char* stop = findTokenEnd(start, parser->end);
	size_t length = (size_t)(stop - start);
	for (size_t i = 0; i < length; ++i) {
		if (!isNumberByte(start[i])) {
			expectedError(parser, start, "a number");
			return false;
		}
	}
	const struct lconv* conventions = localeconv();
	const char* point = conventions != NULL && conventions->decimal_point != NULL && conventions->decimal_point[0] != '\0'
							? conventions->decimal_point
							: ".";
	size_t pointLength = strlen(point);
	if (length > (SIZE_MAX - 1) / pointLength) {
		bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, start), "out of memory");
		return false;
	}
	size_t capacity = length * pointLength + 1;
	char local[BC_OBJ_NUMBER_BUFFER];
	char* buffer = capacity <= sizeof local ? local : malloc(capacity);
	if (buffer == NULL) {
		bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, start), "out of memory");
		return false;
	}
	size_t used = 0;
	for (size_t i = 0; i < length; ++i) {
		if (start[i] == '.') {
			memcpy(buffer + used, point, pointLength);
			used += pointLength;
		} else {
			buffer[used++] = start[i];
		}
	}
	buffer[used] = '\0';
	char* parsedEnd = NULL;
	double result = strtod(buffer, &parsedEnd);
	bool whole = used > 0 && parsedEnd == buffer + used;
	if (buffer != local) {
		free(buffer);
	}
	if (!whole) {
		expectedError(parser, start, "a number");
		return false;
	}
	if (!isfinite(result)) {
		char quoted[BC_OBJ_QUOTE_LENGTH + 4];
		quoteToken(quoted, sizeof quoted, start, stop);
		bcSetError(parser->error, bc_errorValue, parser->line, columnOf(parser, start),
				   "coordinate is not finite: '%s'", quoted);
		return false;
	}
	*value = result;
	parser->cursor = stop;
	return true;
}

/* Read the number token at the cursor. */
static inline bool parseNumber(bcObjParser* parser, double* value)
{
	const char* start = parser->cursor;
	if (isLineEnd(start, parser->end)) {
		expectedError(parser, start, "a number");
		return false;
	}
	const char* p = start;
	if (parseFastNumber(&p, parser->end, value) && isTokenEnd(p, parser->end)) {
		parser->cursor = p;
		return true;
	}
	return parseSlowNumber(parser, start, value);
}

/* Double the capacity of an array of elementSize-byte elements, up to
 * BC_OBJ_MAX_ELEMENTS elements. */
static bool growArray(void** array, size_t* capacity, size_t elementSize)
{
	size_t grown = *capacity == 0 ? BC_OBJ_INITIAL_CAPACITY : 2 * *capacity;
	if (grown > (size_t)BC_OBJ_MAX_ELEMENTS) {
		grown = (size_t)BC_OBJ_MAX_ELEMENTS;
	}
	if (grown > SIZE_MAX / elementSize) {
		return false;
	}
	void* bigger = realloc(*array, grown * elementSize);
	if (bigger == NULL) {
		return false;
	}
	*array = bigger;
	*capacity = grown;
	return true;
}

/* "v x y z ...", the cursor just after the keyword at 'keyword'. */
static bool parseVertex(bcObjParser* parser, const char* keyword)
{
	if (parser->vertexCount >= BC_OBJ_MAX_ELEMENTS) {
		bcSetError(parser->error, bc_errorTooLarge, parser->line, columnOf(parser, keyword),
				   "too many vertices: at most %ld are supported", (long)BC_OBJ_MAX_ELEMENTS);
		return false;
	}
	double xyz[3];
	for (int k = 0; k < 3; ++k) {
		skipBlanks(parser);
		if (!parseNumber(parser, xyz + k)) {
			return false;
		}
	}
	if ((size_t)parser->vertexCount == parser->vertexCapacity) {
		void* array = parser->vertices;
		bool grown = growArray(&array, &parser->vertexCapacity, sizeof *parser->vertices);
		parser->vertices = array;
		if (!grown) {
			bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, keyword), "out of memory");
			return false;
		}
	}
	bcVec3* v = parser->vertices + parser->vertexCount;
	v->x = xyz[0];
	v->y = xyz[1];
	v->z = xyz[2];
	parser->vertexCount += 1;
	skipLine(parser);
	return true;
}

/* Skip an optional '-' and digits; true when there was at least one digit.
 * The cursor moves only on success. */
static inline bool skipInteger(const char** cursor, const char* end)
{
	const char* p = *cursor;
	if (p < end && *p == '-') {
		++p;
	}
	if (p == end || !isDigit(*p)) {
		return false;
	}
	while (p < end && isDigit(*p)) {
		++p;
	}
	*cursor = p;
	return true;
}

/* Read one face corner (v, v/vt, v//vn or v/vt/vn) at the cursor and
 * resolve v to a 0-based vertex index. */
static inline bool parseCorner(bcObjParser* parser, int32_t* index)
{
	const char* start = parser->cursor;
	const char* end = parser->end;
	const char* p = start;
	bool negative = false;
	if (p < end && *p == '-') {
		negative = true;
		++p;
	}
	if (p == end || !isDigit(*p)) {
		expectedError(parser, start, "a vertex index");
		return false;
	}
	const char* digitsStart = p;
	uint64_t digitsValue = 0;
	while (p < end && isDigit(*p)) {
		digitsValue = 10 * digitsValue + (uint64_t)(*p - '0');
		++p;
	}
	const char* digitsEnd = p;
	/* more digits than BC_OBJ_INDEX_DIGITS may have wrapped: out of range anyway */
	int64_t value = digitsEnd - digitsStart > BC_OBJ_INDEX_DIGITS ? BC_OBJ_INDEX_CAP : (int64_t)digitsValue;
	if (p < end && *p == '/') {
		++p;
		bool texture = skipInteger(&p, end);
		if (p < end && *p == '/') {
			++p;
			if (!skipInteger(&p, end)) {
				p = NULL;
			}
		} else if (!texture) {
			p = NULL;
		}
	}
	if (p == NULL || !isTokenEnd(p, end)) {
		char quoted[BC_OBJ_QUOTE_LENGTH + 4];
		quoteToken(quoted, sizeof quoted, start, findTokenEnd(start, end));
		bcSetError(parser->error, bc_errorSyntax, parser->line, columnOf(parser, start),
				   "malformed face vertex '%s' (expected v, v/vt, v//vn or v/vt/vn)", quoted);
		return false;
	}

	int32_t count = parser->vertexCount;
	if (value == 0) {
		bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
				   "face index 0 is not allowed (OBJ indices start at 1)");
		return false;
	}
	if (value > count) {
		char quoted[BC_OBJ_QUOTE_LENGTH + 4];
		quoteToken(quoted, sizeof quoted, start, digitsEnd);
		if (negative) {
			bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
					   "relative index %s reaches before the first vertex (%ld %s defined so far)", quoted, (long)count,
					   count == 1 ? "vertex" : "vertices");
		} else {
			bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
					   "vertex index %s out of range: %ld %s defined so far", quoted, (long)count,
					   count == 1 ? "vertex" : "vertices");
		}
		return false;
	}
	*index = negative ? count - (int32_t)value : (int32_t)value - 1;
	parser->cursor = p;
	return true;
}

/* Append triangle (a, b, c) of the current face; 'at' is the token that
 * completed it, for errors. */
static bool addTriangle(bcObjParser* parser, int32_t a, int32_t b, int32_t c, const char* at)
{
	if (parser->triangleCount >= BC_OBJ_MAX_ELEMENTS) {
		bcSetError(parser->error, bc_errorTooLarge, parser->line, columnOf(parser, at),
				   "too many triangles: at most %ld are supported", (long)BC_OBJ_MAX_ELEMENTS);
		return false;
	}
	if ((size_t)parser->triangleCount == parser->triangleCapacity) {
		size_t capacity = parser->triangleCapacity;
		void* triangles = parser->triangles;
		bool grown = growArray(&triangles, &capacity, 3 * sizeof *parser->triangles);
		parser->triangles = triangles;
		if (grown) {
			void* faceIds = parser->faceIds;
			size_t faceCapacity = parser->triangleCapacity;
			grown = growArray(&faceIds, &faceCapacity, sizeof *parser->faceIds);
			parser->faceIds = faceIds;
		}
		if (!grown) {
			bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, at), "out of memory");
			return false;
		}
		parser->triangleCapacity = capacity;
	}
	int32_t* t = parser->triangles + 3 * (size_t)parser->triangleCount;
	t[0] = a;
	t[1] = b;
	t[2] = c;
	parser->faceIds[parser->triangleCount] = parser->faceCount;
	parser->triangleCount += 1;
	return true;
}

/* "f a b c ...", the cursor just after the keyword at 'keyword'. Fan
 * triangulates as the corners arrive. */
static bool parseFace(bcObjParser* parser, const char* keyword)
{
	long line = parser->line; /* continuations may move the cursor off this line */
	long column = columnOf(parser, keyword);
	int32_t first = -1;
	int32_t previous = -1;
	long corners = 0;
	for (;;) {
		skipBlanks(parser);
		const char* at = parser->cursor;
		if (isLineEnd(at, parser->end)) {
			break;
		}
		int32_t index;
		if (!parseCorner(parser, &index)) {
			return false;
		}
		if (corners == 0) {
			first = index;
		} else if (corners >= 2 && !addTriangle(parser, first, previous, index, at)) {
			return false;
		}
		previous = index;
		corners += corners < 3; /* only "fewer than 3" matters */
	}
	if (corners < 3) {
		bcSetError(parser->error, bc_errorSyntax, line, column, "a face needs at least 3 vertices, found %ld", corners);
		return false;
	}
	parser->faceCount += 1;
	return true;
}

/* Parse the whole text into the parser's arrays. */
static bool parseText(bcObjParser* parser)
{
	const char* end = parser->end;
	for (;;) {
		skipBlanks(parser);
		const char* p = parser->cursor;
		if (p == end) {
			return true;
		}
		if (*p == '\n') {
			parser->cursor = p + 1;
			parser->line += 1;
			parser->lineStart = p + 1;
		} else if (*p == '#') {
			const char* newline = memchr(p, '\n', (size_t)(end - p));
			parser->cursor = newline != NULL ? newline : end;
		} else if (*p == 'v' && isTokenEnd(p + 1, end)) {
			parser->cursor = p + 1;
			if (!parseVertex(parser, p)) {
				return false;
			}
		} else if (*p == 'f' && isTokenEnd(p + 1, end)) {
			parser->cursor = p + 1;
			if (!parseFace(parser, p)) {
				return false;
			}
		} else {
			skipLine(parser); /* any other keyword, known or not */
		}
	}
}

/* Give an array back the memory beyond count elements (best effort). */
static void* shrinkArray(void* array, size_t count, size_t elementSize)
{
	if (array == NULL || count == 0) {
		return array;
	}
	void* smaller = realloc(array, count * elementSize);
	return smaller != NULL ? smaller : array;
}

/* Parse text into the parser's arrays; on failure they are freed, error is
 * filled and false returned. */
static bool parseObj(bcObjParser* parser, const char* text, size_t length, bcError* error)
{
	memset(parser, 0, sizeof *parser);
	parser->error = error;
	if (text == NULL) {
		if (length > 0) {
			bcSetError(error, bc_errorValue, 0, 0, "no text given");
			return false;
		}
		text = "";
	}
	static const char byteOrderMark[3] = { '\xef', '\xbb', '\xbf' };
	if (length >= sizeof byteOrderMark && memcmp(text, byteOrderMark, sizeof byteOrderMark) == 0) {
		text += sizeof byteOrderMark;
		length -= sizeof byteOrderMark;
	}
	parser->cursor = text;
	parser->end = text + length;
	parser->lineStart = text;
	parser->line = 1;
	bool ok = parseText(parser);
	if (ok && parser->triangleCount == 0) {
		bcSetError(error, bc_errorEmpty, 0, 0, "no faces: the input has %ld %s and no f lines",
				   (long)parser->vertexCount, parser->vertexCount == 1 ? "vertex" : "vertices");
		ok = false;
	}
	if (!ok) {
		free(parser->vertices);
		free(parser->triangles);
		free(parser->faceIds);
		return false;
	}
	parser->vertices = shrinkArray(parser->vertices, (size_t)parser->vertexCount, sizeof *parser->vertices);
	parser->triangles =
		shrinkArray(parser->triangles, 3 * (size_t)parser->triangleCount, sizeof *parser->triangles);
	parser->faceIds = shrinkArray(parser->faceIds, (size_t)parser->triangleCount, sizeof *parser->faceIds);
	return true;
}

/* Hand the parsed arrays to a new mesh. */
static bcMesh* adoptParsed(bcObjParser* parser, bcError* error)
{
	return bcMesh_Adopt(parser->vertices, parser->vertexCount, parser->triangles, parser->triangleCount,
						parser->faceIds, parser->faceCount, error);
}

bcMesh* bcMesh_ParseObj(const char* text, size_t length, bcError* error)
{
	bcObjParser parser;
	if (!parseObj(&parser, text, length, error)) {
		return NULL;
	}
	return adoptParsed(&parser, error);
}

/* Fill error with an I/O failure: what failed and strerror's text, as in
 * "cannot open: No such file or directory" (no file name, no errno number). */
static void ioError(bcError* error, const char* doing, int code)
{
	char reason[128];
	if (strerror_r(code, reason, sizeof reason) != 0) {
		bcSetError(error, bc_errorIo, 0, 0, "%s: error %d", doing, code);
		return;
	}
	bcSetError(error, bc_errorIo, 0, 0, "%s: %s", doing, reason);
}

/* A file's bytes: mapped (regular files) or read into a malloc'd buffer. */
typedef struct bcObjFile {
	char* text;
	size_t length;
	bool mapped;
} bcObjFile;

/* Read what remains of fd into a malloc'd buffer of first capacity bytes,
 * doubling as needed (pipes and files whose size stat does not know). */
static bool readAll(int fd, size_t capacity, bcObjFile* file, bcError* error)
{
	char* buffer = malloc(capacity);
	size_t used = 0;
	while (buffer != NULL) {
		if (used == capacity) {
			char* bigger = capacity <= SIZE_MAX / 2 ? realloc(buffer, 2 * capacity) : NULL;
			if (bigger == NULL) {
				break;
			}
			buffer = bigger;
			capacity *= 2;
		}
		size_t chunk = capacity - used < BC_OBJ_READ_CHUNK ? capacity - used : BC_OBJ_READ_CHUNK;
		ssize_t got = read(fd, buffer + used, chunk);
		if (got < 0) {
			if (errno == EINTR) {
				continue;
			}
			ioError(error, "cannot read", errno);
			free(buffer);
			return false;
		}
		if (got == 0) {
			file->text = buffer;
			file->length = used;
			file->mapped = false;
			return true;
		}
		used += (size_t)got;
	}
	free(buffer);
	bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory reading the file");
	return false;
}

/* Open a file and make its bytes available. A non-empty regular file is
 * mapped read-only: no copy, and pages come from the page cache (reading it
 * into a buffer instead costs a fresh zeroed page per 4 KB). As with any
 * mapping, a file truncated by another process while it is parsed would
 * fault; other files (pipes, /proc) are read. */
static bool openFile(const char* path, bcObjFile* file, bcError* error)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ioError(error, "cannot open", errno);
		return false;
	}
	struct stat status;
	if (fstat(fd, &status) != 0) {
		ioError(error, "cannot read", errno);
		close(fd);
		return false;
	}
	if (S_ISDIR(status.st_mode)) {
		ioError(error, "cannot read", EISDIR);
		close(fd);
		return false;
	}
	bool ok;
	if (S_ISREG(status.st_mode) && status.st_size > 0) {
		if ((uintmax_t)status.st_size >= SIZE_MAX) {
			bcSetError(error, bc_errorTooLarge, 0, 0, "the file is too large to read into memory");
			close(fd);
			return false;
		}
		size_t size = (size_t)status.st_size;
		void* map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
			file->text = map;
			file->length = size;
			file->mapped = true;
			ok = true;
		} else {
			/* one byte more than the size: the read that finds the end needs no growth */
			ok = readAll(fd, size + 1, file, error);
		}
	} else {
		ok = readAll(fd, BC_OBJ_READ_START, file, error);
	}
	close(fd);
	return ok;
}

static void closeFile(bcObjFile* file)
{
	if (file->mapped) {
		munmap(file->text, file->length);
	} else {
		free(file->text);
	}
}

bcMesh* bcMesh_LoadObj(const char* path, bcError* error)
{
	if (path == NULL) {
		bcSetError(error, bc_errorIo, 0, 0, "no file name given");
		return NULL;
	}
	bcObjFile file;
	if (!openFile(path, &file, error)) {
		return NULL;
	}
	bcObjParser parser;
	bool ok = parseObj(&parser, file.text, file.length, error);
	closeFile(&file); /* before the mesh's own arrays are allocated */
	return ok ? adoptParsed(&parser, error) : NULL;
}
