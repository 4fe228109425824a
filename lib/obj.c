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
 *    corners becomes k - 2 triangles: while parsing, the fan (v0 v1 v2),
 *    (v0 v2 v3), ...; once the vertices are all known, each polygon of four
 *    or more corners is looked at again (lib/polygon.c): a planar, simple,
 *    concave one is cut by ear clipping instead, in the same k - 2 places,
 *    and a non-planar or self-intersecting one keeps its fan with a warning.
 *  - Every other keyword (vt, vn, vp, o, g, s, usemtl, mtllib, l, p and any
 *    unknown one, such as an exporter's extension) is skipped with its whole
 *    logical line.
 *  - Numbers: the double strtod gives in the C locale, whatever the process
 *    locale (so also hexadecimal floats). NaN and infinities, written or by
 *    overflow, are refused; underflow to zero or a subnormal is accepted.
 *
 * Threads: the text is cut into pieces at line boundaries (never after a
 * line ending in '\', which may continue), one per thread. Each piece is
 * parsed into its own arrays without knowing how many vertices come before
 * it: a positive index is stored as it is (it is global), a negative one as
 * relative to the piece and listed for fixing, and an index that might be
 * out of range only raises the number of earlier vertices the piece
 * requires. Then, in file order, the counts give each piece its base; the
 * first piece with any trouble (its own error, too few earlier vertices,
 * too many elements in all) is parsed again knowing its base and line,
 * exactly as the one-thread parser would reach it, which gives the same
 * first error. Otherwise the pieces are joined into one set of arrays.
 * The first piece knows its base (0) from the start.
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "decimal.h"
#include "mesh_build.h"

/* The element limit. Tests build a second copy of this file with a small
 * value to reach the bc_errorTooLarge paths; the library uses the public one. */
#ifndef BC_OBJ_MAX_ELEMENTS
#define BC_OBJ_MAX_ELEMENTS BC_MAX_ELEMENTS
#endif

/* First capacity of the growable arrays, in elements; they double from here. */
#define BC_OBJ_INITIAL_CAPACITY 1024

/* A face index with more than BC_OBJ_INDEX_DIGITS digits (which could wrap a
 * uint64_t) counts as BC_OBJ_INDEX_CAP, so it is reported as out of range. */
#define BC_OBJ_INDEX_DIGITS 18
#define BC_OBJ_INDEX_CAP ((int64_t)1 << 40)

/* Number tokens of up to this many bytes are copied to the stack for strtod. */
#define BC_OBJ_NUMBER_BUFFER 128

/* The locale's decimal point, one character (at most MB_LEN_MAX bytes, 16
 * with glibc), is copied into a buffer of this many bytes; a longer one
 * would count as '.'. */
#define BC_OBJ_POINT_BUFFER 32

/* Tokens quoted in error messages are cut after this many bytes. */
#define BC_OBJ_QUOTE_LENGTH 40

/* A piece of text smaller than this is not given a thread of its own: a
 * megabyte takes about 3 ms to parse, a hundred times the cost of starting
 * and joining a thread. Tests build a copy of this file with tiny pieces. */
#ifndef BC_OBJ_MIN_PIECE_BYTES
#define BC_OBJ_MIN_PIECE_BYTES ((size_t)1 << 20)
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

/* Parser state: the cursor, the physical position for errors, the output. */
typedef struct bcObjParser {
	const char* cursor;
	const char* end;
	const char* lineStart; /* first byte of the current physical line */
	long line;             /* current physical line, 1-based */
	bcError* error;
	const char* decimalPoint; /* the locale's, for strtod */
	/* What comes before this parser's text. Known (the first piece, or a
	 * piece parsed again): vertexBase and triangleBase count towards the
	 * limits and index ranges, and a bad index is an error. Unknown (the
	 * bases are then 0): an index that is out of range of this piece's own
	 * vertices is stored anyway, and requiredBase becomes at least the
	 * number of earlier vertices that makes it valid. */
	bool baseKnown;
	int32_t vertexBase;
	int32_t triangleBase;
	int64_t requiredBase;
	bcVec3* vertices;
	size_t vertexCapacity;
	int32_t vertexCount;
	int32_t triangleCount;
	size_t triangleCapacity;
	int32_t* triangles; /* 3 per triangle */
	int32_t* faceIds;   /* 1 per triangle, counted from the piece's first face */
	int32_t faceCount;
	/* base unknown: where triangles holds a negative index resolved against
	 * this piece's vertices only, to which its vertex base is added later */
	size_t* relativeSlots;
	size_t relativeCount;
	size_t relativeCapacity;
	/* polygons of four or more corners, looked at once the vertices are known */
	bcMeshPolygon* polygons;
	size_t polygonCount;
	size_t polygonCapacity;
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
		bcQuoteToken(quoted, sizeof quoted, at, findTokenEnd(at, parser->end));
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
	if (p < end && *p == '\n') {
		return; /* the usual case after a vertex's z */
	}
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

/* May the byte appear in a number token handed to strtod? Digits, letters
 * (exponents, hexadecimal, inf, nan), signs, '.', and nan(...) characters. */
static bool isNumberByte(char c)
{
	return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.' ||
		   c == '_' || c == '(' || c == ')';
}

/* The general path: strtod on a NUL-terminated copy of the token with '.'
 * replaced by the locale's decimal point (as cJSON does), which the caller
 * read before starting the threads (localeconv need not be thread-safe). */
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
	const char* point = parser->decimalPoint;
	size_t pointLength = strlen(point);
	if (length > (SIZE_MAX - 1) / pointLength) {
		bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, start), "out of memory");
		return false;
	}
	size_t capacity = length * pointLength + 1;
	char local[BC_OBJ_NUMBER_BUFFER];
	char* buffer = capacity <= sizeof local ? local : bcAlloc(capacity);
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
		bcFree(buffer);
	}
	if (!whole) {
		expectedError(parser, start, "a number");
		return false;
	}
	if (!isfinite(result)) {
		char quoted[BC_OBJ_QUOTE_LENGTH + 4];
		bcQuoteToken(quoted, sizeof quoted, start, stop);
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
	if (bcParseDecimal(&p, parser->end, value) && isTokenEnd(p, parser->end)) {
		parser->cursor = p;
		return true;
	}
	return parseSlowNumber(parser, start, value);
}

/* Double the capacity of an array of elementSize-byte elements, up to
 * limit elements. */
static bool growArray(void** array, size_t* capacity, size_t elementSize, size_t limit)
{
	size_t grown = *capacity == 0 ? BC_OBJ_INITIAL_CAPACITY : 2 * *capacity;
	if (grown > limit) {
		grown = limit;
	}
	if (grown <= *capacity || grown > SIZE_MAX / elementSize) {
		return false;
	}
	void* bigger = bcRealloc(*array, grown * elementSize);
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
	if ((int64_t)parser->vertexBase + parser->vertexCount >= (int64_t)BC_OBJ_MAX_ELEMENTS) {
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
		bool grown =
			growArray(&array, &parser->vertexCapacity, sizeof *parser->vertices, (size_t)BC_OBJ_MAX_ELEMENTS);
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
 * resolve v to a 0-based vertex index; *relative tells that it still needs
 * the piece's vertex base (base unknown, v negative). */
static inline bool parseCorner(bcObjParser* parser, int32_t* index, bool* relative)
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
	p = bcReadDigits(p, end, &digitsValue);
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
		bcQuoteToken(quoted, sizeof quoted, start, findTokenEnd(start, end));
		bcSetError(parser->error, bc_errorSyntax, parser->line, columnOf(parser, start),
				   "malformed face vertex '%s' (expected v, v/vt, v//vn or v/vt/vn)", quoted);
		return false;
	}

	int64_t count = (int64_t)parser->vertexBase + parser->vertexCount;
	if (value == 0) {
		bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
				   "face index 0 is not allowed (OBJ indices start at 1)");
		return false;
	}
	if (value > count) {
		if (!parser->baseKnown) {
			/* valid if the earlier pieces hold value - count vertices */
			if (value - count > parser->requiredBase) {
				parser->requiredBase = value - count;
			}
		} else {
			char quoted[BC_OBJ_QUOTE_LENGTH + 4];
			bcQuoteToken(quoted, sizeof quoted, start, digitsEnd);
			if (negative) {
				bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
						   "relative index %s reaches before the first vertex (%ld %s defined so far)", quoted,
						   (long)count, count == 1 ? "vertex" : "vertices");
			} else {
				bcSetError(parser->error, bc_errorIndex, parser->line, columnOf(parser, start),
						   "vertex index %s out of range: %ld %s defined so far", quoted, (long)count,
						   count == 1 ? "vertex" : "vertices");
			}
			return false;
		}
	}
	/* An index out of int32_t range is never valid (requiredBase says so
	 * before it is used): any value will do. */
	int64_t resolved = negative ? count - value : value - 1;
	*index = resolved >= INT32_MIN && resolved <= INT32_MAX ? (int32_t)resolved : 0;
	*relative = negative && !parser->baseKnown;
	parser->cursor = p;
	return true;
}

/* Append triangle (a, b, c) of the current face; bit k of relative tells
 * that corner k needs the piece's vertex base; 'at' is the token that
 * completed it, for errors. */
static bool addTriangle(bcObjParser* parser, int32_t a, int32_t b, int32_t c, unsigned relative, const char* at)
{
	if ((int64_t)parser->triangleBase + parser->triangleCount >= (int64_t)BC_OBJ_MAX_ELEMENTS) {
		bcSetError(parser->error, bc_errorTooLarge, parser->line, columnOf(parser, at),
				   "too many triangles: at most %ld are supported", (long)BC_OBJ_MAX_ELEMENTS);
		return false;
	}
	if ((size_t)parser->triangleCount == parser->triangleCapacity) {
		size_t capacity = parser->triangleCapacity;
		void* triangles = parser->triangles;
		bool grown = growArray(&triangles, &capacity, 3 * sizeof *parser->triangles, (size_t)BC_OBJ_MAX_ELEMENTS);
		parser->triangles = triangles;
		if (grown) {
			void* faceIds = parser->faceIds;
			size_t faceCapacity = parser->triangleCapacity;
			grown = growArray(&faceIds, &faceCapacity, sizeof *parser->faceIds, (size_t)BC_OBJ_MAX_ELEMENTS);
			parser->faceIds = faceIds;
		}
		if (!grown) {
			bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, at), "out of memory");
			return false;
		}
		parser->triangleCapacity = capacity;
	}
	size_t slot = 3 * (size_t)parser->triangleCount;
	while (relative != 0) {
		if (parser->relativeCount == parser->relativeCapacity) {
			void* slots = parser->relativeSlots;
			bool grown = growArray(&slots, &parser->relativeCapacity, sizeof *parser->relativeSlots, SIZE_MAX);
			parser->relativeSlots = slots;
			if (!grown) {
				bcSetError(parser->error, bc_errorNoMemory, parser->line, columnOf(parser, at), "out of memory");
				return false;
			}
		}
		int corner = (relative & 1) != 0 ? 0 : ((relative & 2) != 0 ? 1 : 2);
		parser->relativeSlots[parser->relativeCount++] = slot + (size_t)corner;
		relative &= relative - 1;
	}
	int32_t* t = parser->triangles + slot;
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
	int32_t firstTriangle = parser->triangleCount;
	int32_t first = -1;
	int32_t previous = -1;
	bool firstRelative = false;
	bool previousRelative = false;
	long corners = 0;
	for (;;) {
		skipBlanks(parser);
		const char* at = parser->cursor;
		if (isLineEnd(at, parser->end)) {
			break;
		}
		int32_t index;
		bool relative;
		if (!parseCorner(parser, &index, &relative)) {
			return false;
		}
		if (corners == 0) {
			first = index;
			firstRelative = relative;
		} else if (corners >= 2) {
			unsigned mask = (unsigned)firstRelative | (unsigned)previousRelative << 1 | (unsigned)relative << 2;
			if (!addTriangle(parser, first, previous, index, mask, at)) {
				return false;
			}
		}
		previous = index;
		previousRelative = relative;
		corners += corners < 3; /* only "fewer than 3" matters */
	}
	if (corners < 3) {
		bcSetError(parser->error, bc_errorSyntax, line, column, "a face needs at least 3 vertices, found %ld", corners);
		return false;
	}
	int32_t triangles = parser->triangleCount - firstTriangle;
	if (triangles >= 2) {
		if (parser->polygonCount == parser->polygonCapacity) {
			void* polygons = parser->polygons;
			bool grown = growArray(&polygons, &parser->polygonCapacity, sizeof *parser->polygons, SIZE_MAX);
			parser->polygons = polygons;
			if (!grown) {
				bcSetError(parser->error, bc_errorNoMemory, line, column, "out of memory");
				return false;
			}
		}
		bcMeshPolygon* polygon = parser->polygons + parser->polygonCount++;
		polygon->firstTriangle = firstTriangle;
		polygon->triangleCount = triangles;
		polygon->line = line;
		polygon->column = column;
		polygon->byte = 0; /* text: the line and column say where */
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
	void* smaller = bcRealloc(array, count * elementSize);
	return smaller != NULL ? smaller : array;
}

/* One piece of the text, its parse, and (once all are parsed) the elements
 * of the whole text before it. */
typedef struct bcObjPiece {
	const char* begin;
	const char* end;
	bcObjParser parser; /* owns its arrays until they are joined or freed */
	bcError error;
	bool ok;
	int32_t vertexBase;
	int32_t triangleBase;
	int32_t faceBase;
	long lineBase; /* the physical line the piece starts on */
} bcObjPiece;

/* The pieces and the joined arrays, shared by the threads. */
typedef struct bcObjJob {
	bcObjPiece* pieces;
	bcMeshArrays* joined;
	char decimalPoint[BC_OBJ_POINT_BUFFER];
} bcObjJob;

/* Set a parser to read [begin, end), whose first physical line is 'line',
 * with the locale's decimalPoint, not knowing what comes before (the
 * caller may say otherwise). */
static void startParser(bcObjParser* parser, const char* begin, const char* end, long line, const char* decimalPoint,
						bcError* error)
{
	memset(parser, 0, sizeof *parser);
	parser->decimalPoint = decimalPoint;
	parser->cursor = begin;
	parser->end = end;
	parser->lineStart = begin;
	parser->line = line;
	parser->error = error;
}

static void freeParser(bcObjParser* parser)
{
	bcFree(parser->vertices);
	bcFree(parser->triangles);
	bcFree(parser->faceIds);
	bcFree(parser->relativeSlots);
	bcFree(parser->polygons);
	parser->vertices = NULL;
	parser->triangles = NULL;
	parser->faceIds = NULL;
	parser->relativeSlots = NULL;
	parser->polygons = NULL;
}

/* The first place at or after 'at' where [text, end) may be cut: just after
 * a newline whose line does not end in '\' (optionally followed by CR), so
 * that no logical line is split; end if there is none. */
static const char* findCut(const char* text, const char* at, const char* end)
{
	while (at < end) {
		const char* newline = memchr(at, '\n', (size_t)(end - at));
		if (newline == NULL) {
			return end;
		}
		const char* last = newline;
		if (last > text && last[-1] == '\r') {
			--last;
		}
		if (last == text || last[-1] != '\\') {
			return newline + 1;
		}
		at = newline + 1;
	}
	return end;
}

/* Cut [text, end) into at most count (<= BC_MAX_THREADS) pieces of about
 * equal size with findCut: piece i is [starts[i], starts[i + 1]). Returns
 * the number of pieces, at least 1 (none is empty unless the text is). */
static int cutText(const char* text, const char* end, int count, const char** starts)
{
	size_t share = (size_t)(end - text) / (size_t)count;
	int pieces = 0;
	starts[pieces++] = text;
	for (int i = 1; i < count; ++i) {
		const char* cut = findCut(text, text + share * (size_t)i, end);
		if (cut > starts[pieces - 1] && cut < end) {
			starts[pieces++] = cut;
		}
	}
	starts[pieces] = end;
	return pieces;
}

static void parsePieceTask(int index, int end, int worker, void* context)
{
	(void)end;
	(void)worker;
	bcObjPiece* piece = ((bcObjJob*)context)->pieces + index;
	piece->ok = parseText(&piece->parser);
}

/* Copy piece index + 1 (piece 0's arrays became the joined ones) into the
 * joined arrays, adding its bases, and free its own. */
static void joinPieceTask(int index, int end, int worker, void* context)
{
	(void)end;
	(void)worker;
	bcObjJob* job = context;
	bcObjPiece* piece = job->pieces + index + 1;
	bcObjParser* parser = &piece->parser;
	bcMeshArrays* joined = job->joined;
	if (parser->vertexCount > 0) {
		memcpy(joined->vertices + piece->vertexBase, parser->vertices,
			   (size_t)parser->vertexCount * sizeof *parser->vertices);
	}
	int32_t* triangles = joined->triangles + 3 * (size_t)piece->triangleBase;
	if (parser->triangleCount > 0) {
		memcpy(triangles, parser->triangles, 3 * (size_t)parser->triangleCount * sizeof *triangles);
	}
	for (size_t i = 0; i < parser->relativeCount; ++i) {
		triangles[parser->relativeSlots[i]] += piece->vertexBase;
	}
	int32_t* faceIds = joined->faceIds + piece->triangleBase;
	for (int32_t i = 0; i < parser->triangleCount; ++i) {
		faceIds[i] = parser->faceIds[i] + piece->faceBase;
	}
	freeParser(parser);
}

/* Report the first error of piece index, the first piece with trouble, as
 * the one-thread parser would: parse it again knowing the vertices,
 * triangles and lines before it. Frees every piece's arrays. */
static void reportPieceError(bcObjJob* job, int count, int index, int32_t vertices, int32_t triangles, long line,
							 bcError* error)
{
	bcObjPiece* pieces = job->pieces;
	bcObjPiece* piece = pieces + index;
	for (int i = 0; i < count; ++i) {
		freeParser(&pieces[i].parser);
	}
	if (index > 0) {
		bcError again = { 0 };
		bcObjParser parser;
		startParser(&parser, piece->begin, piece->end, line, job->decimalPoint, &again);
		parser.baseKnown = true;
		parser.vertexBase = vertices;
		parser.triangleBase = triangles;
		bool ok = parseText(&parser);
		freeParser(&parser);
		if (!ok) {
			piece->error = again;
		} else if (piece->error.line > 0) {
			/* only a want of memory can fail once and not twice: report it
			 * where it happened */
			piece->error.line += line - 1;
		}
	}
	if (error != NULL) {
		*error = piece->error;
	}
}

/* Give each piece its bases, in file order; false (error filled, arrays
 * freed) at the first piece with trouble: an error of its own, fewer
 * earlier vertices than its indices need, or too many elements in all. */
static bool resolvePieces(bcObjJob* job, int count, bcError* error)
{
	bcObjPiece* pieces = job->pieces;
	int64_t vertices = 0;
	int64_t triangles = 0;
	int64_t faces = 0;
	long line = 1;
	for (int i = 0; i < count; ++i) {
		bcObjPiece* piece = pieces + i;
		const bcObjParser* parser = &piece->parser;
		if (!piece->ok || parser->requiredBase > vertices ||
			vertices + parser->vertexCount > (int64_t)BC_OBJ_MAX_ELEMENTS ||
			triangles + parser->triangleCount > (int64_t)BC_OBJ_MAX_ELEMENTS) {
			reportPieceError(job, count, i, (int32_t)vertices, (int32_t)triangles, line, error);
			return false;
		}
		piece->vertexBase = (int32_t)vertices;
		piece->triangleBase = (int32_t)triangles;
		piece->faceBase = (int32_t)faces;
		piece->lineBase = line;
		vertices += parser->vertexCount;
		triangles += parser->triangleCount;
		faces += parser->faceCount;
		line += parser->line - 1;
	}
	return true;
}

/* Join the resolved pieces' arrays into *joined: piece 0's grow to hold
 * all (for large arrays realloc moves pages, not bytes), the others are
 * copied in by count - 1 threads. On failure error is filled. */
static bool joinPieces(bcObjPiece* pieces, int count, bcMeshArrays* joined, bcError* error)
{
	const bcObjPiece* last = pieces + count - 1;
	size_t vertexCount = (size_t)last->vertexBase + (size_t)last->parser.vertexCount;
	size_t triangleCount = (size_t)last->triangleBase + (size_t)last->parser.triangleCount;
	bcObjParser* first = &pieces[0].parser;
	void* vertices = bcRealloc(first->vertices, (vertexCount > 0 ? vertexCount : 1) * sizeof *first->vertices);
	if (vertices != NULL) {
		first->vertices = vertices;
	}
	void* triangles = bcRealloc(first->triangles, 3 * triangleCount * sizeof *first->triangles);
	if (triangles != NULL) {
		first->triangles = triangles;
	}
	void* faceIds = bcRealloc(first->faceIds, triangleCount * sizeof *first->faceIds);
	if (faceIds != NULL) {
		first->faceIds = faceIds;
	}
	if (vertices == NULL || triangles == NULL || faceIds == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return false;
	}
	joined->vertices = vertices;
	joined->vertexCount = (int32_t)vertexCount;
	joined->triangles = triangles;
	joined->triangleCount = (int32_t)triangleCount;
	joined->faceIds = faceIds;
	joined->faceCount = last->faceBase + last->parser.faceCount;
	first->vertices = NULL;
	first->triangles = NULL;
	first->faceIds = NULL;
	bcObjJob job = { pieces, joined, "" };
	bcParallelFor(count - 1, 1, count - 1, joinPieceTask, &job);
	return true;
}

/* The polygons of every piece, in file order, with their first triangle
 * and line counted from the start of the text (malloc'd into *polygons;
 * NULL when there are none). False when out of memory. */
static bool gatherPolygons(const bcObjPiece* pieces, int count, bcMeshPolygon** polygons, size_t* polygonCount,
						   bcError* error)
{
	size_t total = 0;
	for (int i = 0; i < count; ++i) {
		total += pieces[i].parser.polygonCount;
	}
	*polygons = NULL;
	*polygonCount = 0;
	if (total == 0) {
		return true;
	}
	bcMeshPolygon* all = bcAlloc(total * sizeof *all);
	if (all == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return false;
	}
	size_t n = 0;
	for (int i = 0; i < count; ++i) {
		const bcObjPiece* piece = pieces + i;
		for (size_t j = 0; j < piece->parser.polygonCount; ++j) {
			all[n] = piece->parser.polygons[j];
			all[n].firstTriangle += piece->triangleBase;
			all[n].line += piece->lineBase - 1;
			n += 1;
		}
	}
	*polygons = all;
	*polygonCount = n;
	return true;
}

/* Parse text on up to threadCount threads (<= 0: one per core) into
 * *arrays; on failure error is filled and false returned. */
static bool parseObj(const char* text, size_t length, int threadCount, bcMeshArrays* arrays, bcError* error)
{
	memset(arrays, 0, sizeof *arrays);
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
	int count = bcThreadCount(threadCount);
	size_t most = length / (size_t)BC_OBJ_MIN_PIECE_BYTES;
	if ((size_t)count > most) {
		count = most > 1 ? (int)most : 1;
	}
	const char* starts[BC_MAX_THREADS + 1];
	count = cutText(text, text + length, count, starts);
	bcObjPiece* pieces = bcAllocZeroed((size_t)count, sizeof *pieces);
	if (pieces == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return false;
	}
	bcObjJob job = { pieces, arrays, "." };
	const struct lconv* conventions = localeconv();
	if (conventions != NULL && conventions->decimal_point != NULL && conventions->decimal_point[0] != '\0' &&
		strlen(conventions->decimal_point) < sizeof job.decimalPoint) {
		strcpy(job.decimalPoint, conventions->decimal_point);
	}
	for (int i = 0; i < count; ++i) {
		pieces[i].begin = starts[i];
		pieces[i].end = starts[i + 1];
		startParser(&pieces[i].parser, starts[i], starts[i + 1], 1, job.decimalPoint, &pieces[i].error);
	}
	pieces[0].parser.baseKnown = true; /* nothing comes before it */
	bcParallelFor(count, 1, count, parsePieceTask, &job);

	bool ok = resolvePieces(&job, count, error);
	if (ok) {
		const bcObjPiece* last = pieces + count - 1;
		int64_t vertexCount = (int64_t)last->vertexBase + last->parser.vertexCount;
		if (last->triangleBase + last->parser.triangleCount == 0) {
			bcSetError(error, bc_errorEmpty, 0, 0, "no faces: the input has %ld %s and no f lines", (long)vertexCount,
					   vertexCount == 1 ? "vertex" : "vertices");
			ok = false;
		}
	}
	bcMeshPolygon* polygons = NULL;
	size_t polygonCount = 0;
	if (ok) {
		ok = gatherPolygons(pieces, count, &polygons, &polygonCount, error);
	}
	if (ok && count == 1) {
		bcObjParser* parser = &pieces[0].parser;
		arrays->vertices = shrinkArray(parser->vertices, (size_t)parser->vertexCount, sizeof *parser->vertices);
		arrays->vertexCount = parser->vertexCount;
		arrays->triangles =
			shrinkArray(parser->triangles, 3 * (size_t)parser->triangleCount, sizeof *parser->triangles);
		arrays->triangleCount = parser->triangleCount;
		arrays->faceIds = shrinkArray(parser->faceIds, (size_t)parser->triangleCount, sizeof *parser->faceIds);
		arrays->faceCount = parser->faceCount;
		parser->vertices = NULL;
		parser->triangles = NULL;
		parser->faceIds = NULL;
	} else if (ok) {
		ok = joinPieces(pieces, count, arrays, error);
	}
	for (int i = 0; i < count; ++i) {
		freeParser(&pieces[i].parser);
	}
	bcFree(pieces);
	if (ok) {
		ok = bcMeshArrays_CutPolygons(arrays, polygons, polygonCount, threadCount, error);
	}
	bcFree(polygons);
	return ok;
}

bcMesh* bcReadObj(const char* text, size_t length, int threadCount, bcError* error)
{
	bcMeshArrays arrays;
	if (!parseObj(text, length, threadCount, &arrays, error)) {
		return NULL;
	}
	return bcMeshArrays_Adopt(&arrays, bc_meshObj, threadCount, error);
}
