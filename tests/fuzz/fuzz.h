/* fuzz.h - what the libFuzzer targets in tests/fuzz share: failing loudly
 * with the numbers, reading typed values from the fuzzer's bytes, and an
 * independent point-triangle distance for the geometric properties.
 *
 * A failed property prints what was expected and what came out (doubles as
 * %.17g, so the numbers can be pasted into a unit test) and aborts; libFuzzer
 * then keeps the input as a crash file. */
#ifndef BC_FUZZ_H
#define BC_FUZZ_H

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ballcast.h"

/* The entry point libFuzzer calls once per input (declared for
 * -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Abort with a message when condition is false. The arguments after the
 * condition are a printf format and its values. */
#define BC_FUZZ_CHECK(condition, ...)                                                                                  \
	do {                                                                                                               \
		if (!(condition)) {                                                                                            \
			fprintf(stderr, "%s:%d: property failed: %s\n  ", __FILE__, __LINE__, #condition);                        \
			fprintf(stderr, __VA_ARGS__);                                                                              \
			fputc('\n', stderr);                                                                                       \
			abort();                                                                                                   \
		}                                                                                                              \
	} while (0)

/* The fuzzer's bytes read front to back; past the end every byte is 0, so
 * any input, even empty, decodes to something. */
typedef struct bcFuzzBytes {
	const uint8_t* data;
	size_t size;
	size_t used;
} bcFuzzBytes;

static inline uint8_t bcFuzzBytes_Byte(bcFuzzBytes* bytes)
{
	return bytes->used < bytes->size ? bytes->data[bytes->used++] : 0;
}

static inline uint64_t bcFuzzBytes_U64(bcFuzzBytes* bytes)
{
	uint64_t value = 0;
	for (int i = 0; i < 8; ++i) {
		value = value << 8 | bcFuzzBytes_Byte(bytes);
	}
	return value;
}

static inline bool bcFuzzIsFiniteVec3(bcVec3 v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* Every double of a cast output is finite. */
static inline bool bcFuzzIsFiniteOutput(const bcCastOutput* out)
{
	return isfinite(out->alpha) && bcFuzzIsFiniteVec3(out->point) && bcFuzzIsFiniteVec3(out->center) &&
		   bcFuzzIsFiniteVec3(out->normal) && bcFuzzIsFiniteVec3(out->triangleNormal);
}

static inline bool bcFuzzSameBits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static inline bool bcFuzzSameVec3(bcVec3 a, bcVec3 b)
{
	return bcFuzzSameBits(a.x, b.x) && bcFuzzSameBits(a.y, b.y) && bcFuzzSameBits(a.z, b.z);
}

/* Two outputs agree in every field, doubles bit for bit (the BVH and the
 * brute-force path must give identical answers, not close ones). */
static inline bool bcFuzzSameOutput(const bcCastOutput* a, const bcCastOutput* b)
{
	return a->state == b->state && bcFuzzSameBits(a->alpha, b->alpha) && a->triangle == b->triangle &&
		   a->face == b->face && a->feature == b->feature && a->vertexCount == b->vertexCount &&
		   memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 && bcFuzzSameVec3(a->point, b->point) &&
		   bcFuzzSameVec3(a->center, b->center) && bcFuzzSameVec3(a->normal, b->normal) &&
		   bcFuzzSameVec3(a->triangleNormal, b->triangleNormal) && a->tieCount == b->tieCount;
}

/* Print an output for a failure message. */
static inline void bcFuzzPrintOutput(const char* label, const bcCastOutput* out)
{
	fprintf(stderr,
			"%s: state %d alpha %.17g triangle %ld face %ld feature %s vertices [%ld %ld %ld] (%d) point (%.17g, "
			"%.17g, %.17g) center (%.17g, %.17g, %.17g) normal (%.17g, %.17g, %.17g) triangle_normal (%.17g, "
			"%.17g, %.17g) ties %d\n",
			label, (int)out->state, out->alpha, (long)out->triangle, (long)out->face, bcFeatureName(out->feature),
			(long)out->vertices[0], (long)out->vertices[1], (long)out->vertices[2], out->vertexCount, out->point.x,
			out->point.y, out->point.z, out->center.x, out->center.y, out->center.z, out->normal.x, out->normal.y,
			out->normal.z, out->triangleNormal.x, out->triangleNormal.y, out->triangleNormal.z, out->tieCount);
}

/* ------------------------------------------- an independent distance */

static inline bcVec3 bcFuzzSub(bcVec3 a, bcVec3 b)
{
	bcVec3 v = { a.x - b.x, a.y - b.y, a.z - b.z };
	return v;
}

static inline double bcFuzzDot(bcVec3 a, bcVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline bcVec3 bcFuzzCross(bcVec3 a, bcVec3 b)
{
	bcVec3 v = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	return v;
}

/* The distance from p to the segment [a, b] (a point when a = b). */
static inline double bcFuzzSegmentDistance(bcVec3 p, bcVec3 a, bcVec3 b)
{
	bcVec3 e = bcFuzzSub(b, a);
	double ee = bcFuzzDot(e, e);
	double t = ee > 0.0 ? bcFuzzDot(bcFuzzSub(p, a), e) / ee : 0.0;
	t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
	bcVec3 q = { a.x + t * e.x, a.y + t * e.y, a.z + t * e.z };
	bcVec3 pq = bcFuzzSub(p, q);
	return sqrt(bcFuzzDot(pq, pq));
}

/* The distance from p to the solid triangle (a, b, c), computed differently
 * from the library (which walks Ericson's Voronoi regions): when p projects
 * inside the triangle (the three edge normals in the plane agree), the
 * distance to the plane; otherwise the nearest of the three edges. A
 * triangle without area is the union of its edges. */
static inline double bcFuzzTriangleDistance(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c)
{
	double edges = bcFuzzSegmentDistance(p, a, b);
	double bc = bcFuzzSegmentDistance(p, b, c);
	double ca = bcFuzzSegmentDistance(p, c, a);
	edges = bc < edges ? bc : edges;
	edges = ca < edges ? ca : edges;
	bcVec3 n = bcFuzzCross(bcFuzzSub(b, a), bcFuzzSub(c, a));
	double nn = bcFuzzDot(n, n);
	if (!(nn > 0.0) || !isfinite(nn)) {
		return edges;
	}
	double u = bcFuzzDot(bcFuzzCross(bcFuzzSub(b, a), bcFuzzSub(p, a)), n);
	double v = bcFuzzDot(bcFuzzCross(bcFuzzSub(c, b), bcFuzzSub(p, b)), n);
	double w = bcFuzzDot(bcFuzzCross(bcFuzzSub(a, c), bcFuzzSub(p, c)), n);
	if (u >= 0.0 && v >= 0.0 && w >= 0.0) {
		double plane = fabs(bcFuzzDot(bcFuzzSub(p, a), n)) / sqrt(nn);
		return plane < edges ? plane : edges;
	}
	return edges;
}

/* The UTF-8 byte order mark the readers skip at the start of a file. */
static const char bcFuzzByteOrderMark[3] = { '\xef', '\xbb', '\xbf' };

/* A copy of text with a byte order mark in front (size + 3 bytes), or NULL
 * when text starts with one already. The caller frees the copy. */
static inline char* bcFuzzWithByteOrderMark(const char* text, size_t size)
{
	if (size >= 3 && memcmp(text, bcFuzzByteOrderMark, 3) == 0) {
		return NULL;
	}
	char* marked = malloc(size + 3);
	BC_FUZZ_CHECK(marked != NULL, "out of memory");
	memcpy(marked, bcFuzzByteOrderMark, 3);
	if (size > 0) {
		memcpy(marked + 3, text, size);
	}
	return marked;
}

/* Is (line, column) a position inside text (or just past a line's end)?
 * Lines and columns count from 1, after a leading byte order mark. */
static inline bool bcFuzzIsValidPosition(const char* text, size_t length, long line, long column)
{
	size_t start = 0;
	if (length >= 3 && memcmp(text, bcFuzzByteOrderMark, 3) == 0) {
		start = 3;
	}
	long current = 1;
	while (current < line) {
		const char* newline = memchr(text + start, '\n', length - start);
		if (newline == NULL) {
			return false;
		}
		start = (size_t)(newline - text) + 1;
		current += 1;
	}
	const char* newline = memchr(text + start, '\n', length - start);
	size_t lineLength = (newline != NULL ? (size_t)(newline - text) : length) - start;
	return line >= 1 && column >= 1 && (size_t)column <= lineLength + 1;
}

/* Does s[0 .. n) follow JSON's number grammar? (Written apart from the
 * readers' own tests.) */
static inline bool bcFuzzIsJsonNumber(const char* s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-') {
		i++;
	}
	if (i >= n || s[i] < '0' || s[i] > '9') {
		return false;
	}
	if (s[i] == '0') {
		i++;
	} else {
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || s[i] < '0' || s[i] > '9') {
			return false;
		}
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-')) {
			i++;
		}
		if (i >= n || s[i] < '0' || s[i] > '9') {
			return false;
		}
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	}
	return i == n;
}

/* Does text hold the control byte c, raw or as an escape \u00XX (hex digits
 * in either case)? */
static inline bool bcFuzzHoldsControl(const char* text, size_t size, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < size; ++i) {
		if ((unsigned char)text[i] == c) {
			return true;
		}
		if (i + 6 <= size && text[i] == '\\' && text[i + 1] == 'u' && text[i + 2] == '0' && text[i + 3] == '0' &&
			tolower((unsigned char)text[i + 4]) == hex[c >> 4] && tolower((unsigned char)text[i + 5]) == hex[c & 15]) {
			return true;
		}
	}
	return false;
}

/* A copy of text with every NUL byte turned into another control byte c
 * and every \u0000 into \u00XX of the same c (same length, so the same
 * places); NULL when there is no NUL, or no c is free. c is the first of
 * 0x01 .. 0x1F that the text holds nowhere, neither raw nor escaped, and
 * that has no short escape and is not white space (not \b \t \n \f \r):
 * were c already there, two keys that differ only at a NUL ("a\u0000" and
 * "a\u0001") would become one, which no reader could be blamed for. The
 * caller frees the copy. */
static inline char* bcFuzzWithoutNuls(const char* text, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = 0;
	for (unsigned char k = 1; k < 0x20 && c == 0; ++k) {
		bool special = k == '\b' || k == '\t' || k == '\n' || k == '\f' || k == '\r';
		if (!special && !bcFuzzHoldsControl(text, size, k)) {
			c = k;
		}
	}
	if (c == 0) {
		return NULL;
	}
	char* copy = NULL;
	for (size_t i = 0; i < size; ++i) {
		bool nul = text[i] == '\0';
		bool escape = i + 6 <= size && text[i] == '\\' && text[i + 1] == 'u' && memcmp(text + i + 2, "0000", 4) == 0;
		if (!nul && !escape) {
			continue;
		}
		if (copy == NULL) {
			copy = malloc(size);
			BC_FUZZ_CHECK(copy != NULL, "out of memory");
			memcpy(copy, text, size);
		}
		if (nul) {
			copy[i] = (char)c;
		} else {
			copy[i + 4] = hex[c >> 4];
			copy[i + 5] = hex[c & 15];
		}
	}
	return copy;
}

/* A string as ballcast's JSON writer gives it back (cliWriteJsonString's
 * last guard): every byte that is not part of valid UTF-8 becomes the text
 * \xHH. Written from RFC 3629's table of well-formed sequences, apart
 * from cli/output.c's decoder. The caller frees it; NULL for NULL. */
static inline char* bcFuzzGuarded(const char* text)
{
	if (text == NULL) {
		return NULL;
	}
	/* lead bytes, the range of the byte after them, and the length */
	static const struct {
		unsigned char lead0, lead1, next0, next1;
		int length;
	} table[] = {
		{ 0xc2, 0xdf, 0x80, 0xbf, 2 }, { 0xe0, 0xe0, 0xa0, 0xbf, 3 }, { 0xe1, 0xec, 0x80, 0xbf, 3 },
		{ 0xed, 0xed, 0x80, 0x9f, 3 }, { 0xee, 0xef, 0x80, 0xbf, 3 }, { 0xf0, 0xf0, 0x90, 0xbf, 4 },
		{ 0xf1, 0xf3, 0x80, 0xbf, 4 }, { 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	size_t n = strlen(text);
	char* out = malloc(4 * n + 1);
	BC_FUZZ_CHECK(out != NULL, "out of memory");
	size_t o = 0;
	const unsigned char* p = (const unsigned char*)text;
	for (size_t i = 0; i < n;) {
		int length = p[i] < 0x80 ? 1 : 0;
		for (size_t k = 0; k < sizeof table / sizeof table[0] && length == 0; ++k) {
			if (p[i] < table[k].lead0 || p[i] > table[k].lead1 || i + (size_t)table[k].length > n ||
				p[i + 1] < table[k].next0 || p[i + 1] > table[k].next1) {
				continue;
			}
			bool tail = true;
			for (int t = 2; t < table[k].length; ++t) {
				tail = tail && (p[i + (size_t)t] & 0xc0) == 0x80;
			}
			length = tail ? table[k].length : 0;
		}
		if (length == 0) {
			o += (size_t)snprintf(out + o, 5, "\\x%02x", p[i]);
			i += 1;
		} else {
			memcpy(out + o, p + i, (size_t)length);
			o += (size_t)length;
			i += (size_t)length;
		}
	}
	out[o] = '\0';
	return out;
}

/* Is s[0 .. n) valid UTF-8: each character decoded to its code point,
 * which must need exactly the bytes it took (no overlong form), be no
 * surrogate and be at most U+10FFFF? With message, control bytes (below
 * 0x20, and 0x7F) are refused too: a message quotes them written out.
 * (Written apart from the readers' table of valid bytes, cli/input.c.) */
static inline bool bcFuzzIsUtf8(const char* s, size_t n, bool message)
{
	const unsigned char* u = (const unsigned char*)s;
	for (size_t i = 0; i < n;) {
		unsigned long code = u[i];
		size_t extra = code < 0x80 ? 0 : (code & 0xE0) == 0xC0 ? 1 : (code & 0xF0) == 0xE0 ? 2 : (code & 0xF8) == 0xF0 ? 3 : 9;
		if (extra == 9 || extra >= n - i) {
			return false; /* no first byte, or cut short by the end */
		}
		if (message && (code < 0x20 || code == 0x7F)) {
			return false;
		}
		code &= extra == 0 ? 0x7F : extra == 1 ? 0x1F : extra == 2 ? 0x0F : 0x07;
		for (size_t k = 1; k <= extra; ++k) {
			if ((u[i + k] & 0xC0) != 0x80) {
				return false;
			}
			code = code << 6 | (u[i + k] & 0x3F);
		}
		static const unsigned long least[4] = { 0, 0x80, 0x800, 0x10000 };
		if (code < least[extra] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
			return false;
		}
		i += extra + 1;
	}
	return true;
}

#endif
