/* mesh_build.h - the one place a mesh is built from polygons, whatever
 * format they were read from (lib/mesh_build.c), and the readers of each
 * format that feed it (obj.c, stl.c, ply.c, off.c). Private to the library.
 *
 * A reader appends vertices and polygons in file order; each polygon of k
 * corners is stored at once as its fan (v0 v1 v2), (v0 v2 v3), ... with
 * its face id, and one of four or more corners is remembered so that, once
 * every vertex is known, it is cut again by lib/polygon.c (ear clipping
 * when concave; a warning when non-planar or self-intersecting). So every
 * format gives the same triangles and face ids for the same polygons. */
#ifndef BC_MESH_BUILD_H
#define BC_MESH_BUILD_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ballcast.h"
#include "decimal.h"

/* A polygon of four or more corners, as read: its fan's first triangle and
 * count, and where it is (line and column in text, else byte). */
typedef struct bcMeshPolygon {
	int32_t firstTriangle;
	int32_t triangleCount;
	long line;
	long column;
	long long byte; /* 1-based, binary data; 0 in text */
} bcMeshPolygon;

/* The arrays of a mesh being built (bcAlloc'd; whoever holds them frees
 * them with bcMeshArrays_Free or hands them to bcMeshArrays_Adopt). */
typedef struct bcMeshArrays {
	bcVec3* vertices;
	int32_t vertexCount;
	int32_t* triangles; /* 3 per triangle */
	int32_t triangleCount;
	int32_t* faceIds; /* 1 per triangle */
	int32_t faceCount;
	bcWarning* warnings; /* the first min(warningCount, BC_MAX_WARNINGS) */
	int32_t warningCount;
	int32_t warningCapacity;
	long long mergedCorners; /* STL: corners merged into an earlier vertex */
} bcMeshArrays;

void bcMeshArrays_Free(bcMeshArrays* arrays);

/* Keep a warning (the first BC_MAX_WARNINGS in full, counting all); false
 * when out of memory. */
bool bcMeshArrays_AddWarning(bcMeshArrays* arrays, bcWarningCode code, long line, long column, long long byte,
							 long record, const char* message);

/* Look at every polygon again now that its vertices are known
 * (lib/polygon.c), on up to threadCount threads: a concave one is cut by
 * ear clipping in its fan's places; a non-planar or self-intersecting one
 * keeps its fan and is warned about, in file order. False (error filled,
 * arrays freed) when out of memory. */
bool bcMeshArrays_CutPolygons(bcMeshArrays* arrays, const bcMeshPolygon* polygons, size_t count, int threadCount,
							  bcError* error);

/* Hand the arrays (and warnings) to a new mesh of the given format; they
 * are the mesh's or freed, whatever happens. NULL (error filled) on
 * failure. */
bcMesh* bcMeshArrays_Adopt(bcMeshArrays* arrays, bcMeshFormat format, int threadCount, bcError* error);

/* A growing mesh for the readers that read polygon by polygon (STL, PLY,
 * OFF). Zero it, then add vertices and polygons, then finish. */
typedef struct bcMeshBuilder {
	bcMeshArrays arrays;
	size_t vertexCapacity;
	size_t triangleCapacity;
	bcMeshPolygon* polygons;
	size_t polygonCount;
	size_t polygonCapacity;
	int32_t* corners; /* scratch for one polygon */
	size_t cornerCapacity;
} bcMeshBuilder;

/* Room for count vertices and triangles in all (a hint from a header; the
 * arrays still grow past it). False when out of memory. */
bool bcMeshBuilder_Reserve(bcMeshBuilder* builder, size_t vertices, size_t triangles);

/* Append a vertex; false when out of memory or past BC_MAX_ELEMENTS (the
 * caller says which: builder->arrays.vertexCount tells). */
bool bcMeshBuilder_AddVertex(bcMeshBuilder* builder, bcVec3 vertex);

/* bcMeshBuilder_AddPolygon for polygons and when the arrays must grow. */
bool bcMeshBuilder_AddPolygonFar(bcMeshBuilder* builder, const int32_t* corners, int32_t count, long line,
								 long column, long long byte);

/* Append the polygon corners[0 .. count-1] (count >= 3, each a valid
 * vertex index: the reader checks them) as the next face, at line:column
 * or byte. False when out of memory or past BC_MAX_ELEMENTS triangles.
 * Inline: a triangle where there is room is three stores. */
static inline bool bcMeshBuilder_AddPolygon(bcMeshBuilder* builder, const int32_t* corners, int32_t count, long line,
											long column, long long byte)
{
	bcMeshArrays* a = &builder->arrays;
	if (count != 3 || (size_t)a->triangleCount >= builder->triangleCapacity || a->faceCount == BC_MAX_ELEMENTS) {
		return bcMeshBuilder_AddPolygonFar(builder, corners, count, line, column, byte);
	}
	int32_t* t = a->triangles + 3 * (size_t)a->triangleCount;
	t[0] = corners[0];
	t[1] = corners[1];
	t[2] = corners[2];
	a->faceIds[a->triangleCount] = a->faceCount;
	a->triangleCount += 1;
	a->faceCount += 1;
	return true;
}

/* Cut the polygons, build the mesh (the builder is emptied either way).
 * NULL (error filled) on failure, or bc_errorEmpty when no polygon was
 * added (what names the file's parts is the reader's: emptyMessage). */
bcMesh* bcMeshBuilder_Finish(bcMeshBuilder* builder, bcMeshFormat format, int threadCount, const char* emptyMessage,
							 bcError* error);

void bcMeshBuilder_Free(bcMeshBuilder* builder);

/* Fill error with a problem at a 1-based byte of binary data (line and
 * column 0). */
void bcSetByteError(bcError* error, bcErrorCode code, long long byte, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Fill error with an I/O failure: what failed and strerror's text, as in
 * "cannot open: No such file or directory" (no file name, no errno
 * number); error->systemError = code. */
void bcSetIoError(bcError* error, const char* doing, int code);

/* Copy a token for a message: cut to 40 bytes ("..." after), control
 * bytes shown as '?'. out has at least 44 bytes. */
void bcQuoteToken(char* out, size_t size, const char* begin, const char* end);

/* Text read token by token, with the line and column of each: blanks are
 * space, tab and CR; '#' starts a comment to the end of the line when
 * hashComments is set. */
typedef struct bcTextScanner {
	const char* p;
	const char* end;
	const char* lineStart;
	long line;
	bool hashComments;
} bcTextScanner;

/* Start on text (a UTF-8 byte order mark skipped; columns on line 1 count
 * after it). */
void bcTextScanner_Start(bcTextScanner* s, const char* text, size_t length, bool hashComments);

/* Space, tab or CR: what separates tokens on a line. */
static inline bool bcTextIsBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Skip blanks and a comment on this line; true when a token follows on it
 * (inline: the readers call it for every token). */
static inline bool bcTextScanner_OnLine(bcTextScanner* s)
{
	const char* p = s->p;
	const char* end = s->end;
	while (p < end && bcTextIsBlank(*p)) {
		++p;
	}
	if (p < end && s->hashComments && *p == '#') {
		while (p < end && *p != '\n') {
			++p;
		}
	}
	s->p = p;
	return p < end && *p != '\n';
}

/* bcTextScanner_Skip past the line's end. */
bool bcTextScanner_SkipFar(bcTextScanner* s);

/* Skip blanks, comments and line ends; true when a token follows (the
 * next line's first token inline: most often it is). */
static inline bool bcTextScanner_Skip(bcTextScanner* s)
{
	if (bcTextScanner_OnLine(s)) {
		return true;
	}
	if (s->p < s->end) { /* at the line's end */
		s->p += 1;
		s->line += 1;
		s->lineStart = s->p;
		if (bcTextScanner_OnLine(s)) {
			return true;
		}
	}
	return bcTextScanner_SkipFar(s);
}

/* bcTextScanner_NextLine's search for the line end. */
void bcTextScanner_NextLineFar(bcTextScanner* s);

/* Skip the rest of the line and its line end (inline: the readers call it
 * for every line, whose end is most often the next byte). */
static inline void bcTextScanner_NextLine(bcTextScanner* s)
{
	if (s->p < s->end && *s->p == '\n') {
		s->p += 1;
		s->line += 1;
		s->lineStart = s->p;
	} else {
		bcTextScanner_NextLineFar(s);
	}
}

/* The end of the token at the cursor (the next blank, line end or end). */
const char* bcTextScanner_TokenEnd(const bcTextScanner* s);

/* The column (1-based, bytes) of at, on the current line. */
static inline long bcTextScanner_Column(const bcTextScanner* s, const char* at)
{
	return (long)(at - s->lineStart) + 1;
}

/* Does a token end at q (a blank, a line end, a comment's '#', the end)? */
static inline bool bcTextScanner_EndsAt(const bcTextScanner* s, const char* q)
{
	return q == s->end || bcTextIsBlank(*q) || *q == '\n' || (s->hashComments && *q == '#');
}

/* Is the token at the cursor word (ASCII letters in any case; word holds
 * no blank, line end or '#')? Moves past it when it is. Inline: the STL
 * reader asks for a keyword on every line, and a literal word's length is
 * then known; a token that differs is most often told by its first byte. */
static inline bool bcTextScanner_Word(bcTextScanner* s, const char* word)
{
	size_t n = strlen(word);
	const char* p = s->p;
	if ((size_t)(s->end - p) < n) {
		return false;
	}
	for (size_t i = 0; i < n; ++i) {
		char c = p[i];
		if (c >= 'A' && c <= 'Z') {
			c = (char)(c - 'A' + 'a');
		}
		if (c != word[i]) {
			return false;
		}
	}
	if (!bcTextScanner_EndsAt(s, p + n)) {
		return false;
	}
	s->p = p + n;
	return true;
}

/* Read the number token at the cursor (as strtod reads it in the C locale,
 * whole token), finite; else error filled with "expected WHAT, found ..."
 * or "WHAT is not finite". Moves past it on success. */
bool bcTextScanner_Number(bcTextScanner* s, const char* what, double* value, bcError* error);

/* Read a whole number token in [0, limit]; else an error naming what.
 * Moves past it on success. */
bool bcTextScanner_Count(bcTextScanner* s, const char* what, long long limit, long long* value, bcError* error);

/* bcTextScanner_TryNumber for what bcParseDecimal does not read (strtod
 * does: hexadecimal, many digits). */
bool bcTextScanner_TryNumberFar(bcTextScanner* s, double* value);

/* The number token at the cursor when it is one and finite (moving past
 * it), else false, the cursor left: the fast path (inline: the readers call
 * these for every number); the caller then names what it expected with
 * bcTextScanner_Number or _Count for the error. */
static inline bool bcTextScanner_TryNumber(bcTextScanner* s, double* value)
{
	const char* p = s->p;
	double v;
	if (bcParseDecimal(&p, s->end, &v) && isfinite(v) &&
		(p == s->end || bcTextIsBlank(*p) || *p == '\n' || (s->hashComments && *p == '#'))) {
		*value = v;
		s->p = p;
		return true;
	}
	return bcTextScanner_TryNumberFar(s, value);
}

static inline bool bcTextScanner_TryCount(bcTextScanner* s, long long limit, long long* value)
{
	const char* q = s->p;
	const char* end = s->end;
	if (q < end && *q == '+') {
		++q; /* as bcTextScanner_Count reads it */
	}
	unsigned long long v = 0;
	const char* start = q;
	while (q < end && *q >= '0' && *q <= '9' && v <= (unsigned long long)limit) {
		v = 10 * v + (unsigned long long)(*q - '0');
		++q;
	}
	bool tokenEnds = q == end || bcTextIsBlank(*q) || *q == '\n' || (s->hashComments && *q == '#');
	if (q == start || v > (unsigned long long)limit || !tokenEnds) {
		return false;
	}
	*value = (long long)v;
	s->p = q;
	return true;
}

/* "expected WHAT, found 'TOKEN'" (or "found the end of the line/input") at
 * the cursor. */
void bcTextScanner_Expected(const bcTextScanner* s, const char* what, bcError* error);

/* The readers, each over bytes in memory (text need not be NUL
 * terminated); name is only for messages. Each returns a mesh (the
 * caller's) or NULL with error filled. */
bcMesh* bcReadObj(const char* text, size_t length, int threadCount, bcError* error);
bcMesh* bcReadStl(const unsigned char* data, size_t length, int threadCount, bcError* error);

/* A binary STL read from the regular file fd (its size 84 + 50 bytes per
 * triangle its header counts: the loader made sure) a chunk at a time,
 * never whole in memory; the same mesh as bcReadStl gives for its bytes.
 * The caller checks that the file did not change meanwhile. */
bcMesh* bcReadStlFile(int fd, int threadCount, bcError* error);
bcMesh* bcReadPly(const unsigned char* data, size_t length, int threadCount, bcError* error);
bcMesh* bcReadOff(const char* text, size_t length, int threadCount, bcError* error);

#endif
