/* stl.c - the STL reader, ASCII and binary, into a bcMesh (through
 * mesh_build.c).
 *
 * Binary: an 80-byte header, a little-endian uint32 triangle count, then
 * per triangle 12 float32 (normal, three corners) and a uint16 attribute.
 * A file is binary when its size is exactly 84 + 50 n for the n its header
 * counts, even when its header starts with "solid" (many exporters write
 * that); otherwise it must be ASCII:
 *
 *     solid NAME
 *       facet normal nx ny nz
 *         outer loop
 *           vertex x y z      (three, or more: a polygon)
 *         endloop
 *       endfacet
 *     endsolid NAME
 *
 * keywords in any case, several solids one after another. Corners whose
 * coordinates are bit-identical are one vertex (numbered in order of first
 * use), so that facets share their edges as the polygons of an OBJ file
 * do. The stored normal is never used: one that points against the
 * winding's (negative dot product with (B-A)x(C-A)) is a warning. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "mesh_build.h"

#define BC_STL_PREFIX_BYTES 84
#define BC_STL_TRIANGLE_BYTES 50

/* The vertex table starts with this many slots and doubles when half full. */
#define BC_STL_FIRST_SLOTS 1024

/* Corners of one ASCII facet: three, or more for a polygon; more than
 * this is refused (no exporter writes such facets, and a limit keeps one
 * facet's scratch bounded). */
#define BC_STL_MAX_CORNERS 1000000

/* Entries of the cache of recently seen corners: a facet's corners recur
 * in facets near it in the file, so most lookups are answered from this
 * (256 kB, in the processor's cache) without touching the large table,
 * whose random slots each cost a cache miss. */
#define BC_STL_RECENT 8192

typedef struct bcStlRecent {
	bcVec3 position;
	int32_t index; /* -1: empty */
} bcStlRecent;

/* Distinct positions: an open-addressing table of vertex indices + 1 (0:
 * empty), keyed by the bits of the three coordinates, in front of it the
 * recent corners. */
typedef struct bcStlVertices {
	int32_t* slots;
	size_t slotCount; /* a power of two */
	bcMeshBuilder* builder;
	bcStlRecent* recent; /* BC_STL_RECENT, or NULL (out of memory: the table alone) */
} bcStlVertices;

static uint64_t hashVertex(bcVec3 v)
{
	uint64_t bits[3];
	memcpy(bits, &v, sizeof bits);
	uint64_t h = 0x9E3779B97F4A7C15u;
	for (int k = 0; k < 3; ++k) {
		h ^= bits[k];
		h *= 0xBF58476D1CE4E5B9u;
		h ^= h >> 31;
	}
	return h;
}

static bool sameBits(bcVec3 a, bcVec3 b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Grow the table to at least want slots (a power of two, doubling). */
static bool growTable(bcStlVertices* table, size_t want)
{
	size_t count = table->slotCount == 0 ? BC_STL_FIRST_SLOTS : 2 * table->slotCount;
	while (count < want) {
		count *= 2;
	}
	int32_t* slots = bcAllocZeroed(count, sizeof *slots);
	if (slots == NULL) {
		return false;
	}
	const bcMeshArrays* a = &table->builder->arrays;
	for (int32_t i = 0; i < a->vertexCount; ++i) {
		size_t k = (size_t)hashVertex(a->vertices[i]) & (count - 1);
		while (slots[k] != 0) {
			k = (k + 1) & (count - 1);
		}
		slots[k] = i + 1;
	}
	bcFree(table->slots);
	table->slots = slots;
	table->slotCount = count;
	return true;
}

static int32_t vertexInTable(bcStlVertices* table, bcVec3 v, uint64_t hash);

/* The index of the vertex at v, added when new; -1 when out of memory or
 * past the element limit. */
static int32_t vertexAt(bcStlVertices* table, bcVec3 v)
{
	bcMeshArrays* a = &table->builder->arrays;
	uint64_t hash = hashVertex(v);
	bcStlRecent* recent = table->recent != NULL ? table->recent + (hash >> 51) % BC_STL_RECENT : NULL;
	if (recent != NULL && recent->index >= 0 && sameBits(recent->position, v)) {
		a->mergedCorners += 1;
		return recent->index;
	}
	int32_t index = vertexInTable(table, v, hash);
	if (recent != NULL && index >= 0) {
		recent->position = v;
		recent->index = index;
	}
	return index;
}

/* The table's part of vertexAt. */
static int32_t vertexInTable(bcStlVertices* table, bcVec3 v, uint64_t hash)
{
	bcMeshArrays* a = &table->builder->arrays;
	if ((size_t)a->vertexCount + 1 > table->slotCount / 2 && !growTable(table, 0)) {
		return -1;
	}
	size_t mask = table->slotCount - 1;
	size_t k = (size_t)hash & mask;
	while (table->slots[k] != 0) {
		int32_t index = table->slots[k] - 1;
		if (sameBits(a->vertices[index], v)) {
			a->mergedCorners += 1;
			return index;
		}
		k = (k + 1) & mask;
	}
	if (a->vertexCount == BC_MAX_ELEMENTS || !bcMeshBuilder_AddVertex(table->builder, v)) {
		return -1;
	}
	table->slots[k] = a->vertexCount;
	return a->vertexCount - 1;
}

/* Triangles ahead whose table slots are fetched while this one is read: a
 * slot not in the processor's cache costs about a memory latency (100 ns),
 * a triangle's work about a tenth of that, so the fetch is asked for that
 * many triangles ahead. */
#define BC_STL_PREFETCH_DISTANCE 64

static bcVec3 readVec3(const unsigned char* p);

/* Ask the processor for the table slots of the corners of the binary
 * triangle at t (a hint: the answers do not depend on it). */
static void prefetchSlots(const bcStlVertices* table, const unsigned char* t)
{
#if defined(__GNUC__)
	size_t mask = table->slotCount - 1;
	for (int k = 0; k < 3; ++k) {
		__builtin_prefetch(table->slots + ((size_t)hashVertex(readVec3(t + 12 + 12 * k)) & mask));
	}
#else
	(void)table;
	(void)t;
#endif
}

/* Warn when the stored normal n (finite, not zero) points against the
 * winding of the triangle a, b, c (not degenerate). */
static bool checkNormal(bcMeshBuilder* builder, bcVec3 n, bcVec3 a, bcVec3 b, bcVec3 c, long line, long column,
						long long byte)
{
	bcVec3 w = bcCross(bcSub(b, a), bcSub(c, a));
	if (!bcIsFinite(n) || bcDot(n, n) == 0.0 || bcDot(w, w) == 0.0 || bcDot(n, w) >= 0.0) {
		return true;
	}
	char message[sizeof((bcWarning*)0)->message];
	long face = builder->arrays.faceCount - 1;
	snprintf(message, sizeof message,
			 "facet %ld's stored normal (%.9g, %.9g, %.9g) points against its winding (B-A)x(C-A): not used", face,
			 n.x, n.y, n.z);
	return bcMeshArrays_AddWarning(&builder->arrays, bc_warningFacetNormal, line, column, byte, face, message);
}

/* ---------------------------------------------------------------- binary */

static uint32_t readU32(const unsigned char* p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double readF32(const unsigned char* p)
{
	uint32_t bits = readU32(p);
	float f;
	memcpy(&f, &bits, sizeof f);
	return (double)f;
}

static bcVec3 readVec3(const unsigned char* p)
{
	return bcMakeVec3(readF32(p), readF32(p + 4), readF32(p + 8));
}

static bcMesh* readBinary(const unsigned char* data, size_t length, int threadCount, bcError* error)
{
	uint32_t count = readU32(data + 80);
	if (count > (uint32_t)BC_MAX_ELEMENTS) {
		bcSetByteError(error, bc_errorTooLarge, 81, "too many triangles: %lu, at most %ld are supported",
					   (unsigned long)count, (long)BC_MAX_ELEMENTS);
		return NULL;
	}
	(void)length;
	bcMeshBuilder builder;
	memset(&builder, 0, sizeof builder);
	bcStlVertices table = { NULL, 0, &builder, bcAlloc(BC_STL_RECENT * sizeof(bcStlRecent)) };
	for (int k = 0; table.recent != NULL && k < BC_STL_RECENT; ++k) {
		table.recent[k].index = -1;
	}
	/* a closed mesh has about half as many vertices as triangles */
	bool ok = bcMeshBuilder_Reserve(&builder, count / 2 + 3, count);
	/* one allocation of a slot per triangle: a closed mesh has half as many
	 * vertices, so the table stays under half full without growing (each
	 * growth is a fresh zeroed block the kernel clears page by page) */
	ok = ok && growTable(&table, (size_t)count);
	for (uint32_t i = 0; ok && i < count; ++i) {
		const unsigned char* t = data + BC_STL_PREFIX_BYTES + (size_t)BC_STL_TRIANGLE_BYTES * i;
		if (i + BC_STL_PREFETCH_DISTANCE < count) {
			prefetchSlots(&table, t + (size_t)BC_STL_TRIANGLE_BYTES * BC_STL_PREFETCH_DISTANCE);
		}
		long long byte = (long long)(t - data) + 1;
		int32_t corners[3];
		bcVec3 v[3];
		for (int k = 0; k < 3 && ok; ++k) {
			v[k] = readVec3(t + 12 + 12 * k);
			if (!bcIsFinite(v[k])) {
				int axis = !isfinite(v[k].x) ? 0 : !isfinite(v[k].y) ? 1 : 2;
				double bad = axis == 0 ? v[k].x : axis == 1 ? v[k].y : v[k].z;
				bcSetByteError(error, bc_errorValue, byte + 12 + 12 * k + 4 * axis,
							   "triangle %lu, corner %d: coordinate %c is not finite (%s)", (unsigned long)i, k + 1,
							   "xyz"[axis], isnan(bad) ? "NaN" : bad > 0 ? "inf" : "-inf");
				bcMeshBuilder_Free(&builder);
				bcFree(table.slots);
				bcFree(table.recent);
				return NULL;
			}
			corners[k] = vertexAt(&table, v[k]);
			ok = corners[k] >= 0;
		}
		ok = ok && bcMeshBuilder_AddPolygon(&builder, corners, 3, 0, 0, byte);
		ok = ok && checkNormal(&builder, readVec3(t), v[0], v[1], v[2], 0, 0, byte);
	}
	bcFree(table.slots);
	bcFree(table.recent);
	if (!ok) {
		bcMeshBuilder_Free(&builder);
		bcSetError(error, builder.arrays.vertexCount == BC_MAX_ELEMENTS ? bc_errorTooLarge : bc_errorNoMemory, 0, 0,
				   "out of memory reading %lu triangles", (unsigned long)count);
		return NULL;
	}
	return bcMeshBuilder_Finish(&builder, bc_meshStl, threadCount, "no faces: the binary STL has 0 triangles", error);
}

/* ----------------------------------------------------------------- ASCII */

/* Expect keyword (any case) as the next token; an error otherwise. */
static bool expectWord(bcTextScanner* s, const char* word, const char* what, bcError* error)
{
	if (bcTextScanner_Skip(s) && bcTextScanner_Word(s, word)) {
		return true;
	}
	bcTextScanner_Expected(s, what, error);
	return false;
}

/* The three numbers after "normal" or "vertex". */
static bool readTriple(bcTextScanner* s, const char* what, bcVec3* v, bcError* error)
{
	double xyz[3];
	char name[64];
	for (int k = 0; k < 3; ++k) {
		snprintf(name, sizeof name, "%s %c", what, "xyz"[k]);
		if (!bcTextScanner_OnLine(s)) {
			bcTextScanner_Expected(s, name, error);
			return false;
		}
		if (!bcTextScanner_Number(s, name, xyz + k, error)) {
			return false;
		}
	}
	*v = bcMakeVec3(xyz[0], xyz[1], xyz[2]);
	return true;
}

/* One facet, the cursor after "facet". */
static bool readFacet(bcTextScanner* s, bcMeshBuilder* builder, bcStlVertices* table, long line, long column,
					  bcError* error)
{
	bcVec3 normal;
	if (!expectWord(s, "normal", "'normal' after 'facet'", error) || !readTriple(s, "normal", &normal, error) ||
		!expectWord(s, "outer", "'outer loop'", error) || !expectWord(s, "loop", "'loop' after 'outer'", error)) {
		return false;
	}
	int32_t count = 0;
	bcVec3 first[3];
	for (;;) {
		if (!bcTextScanner_Skip(s)) {
			bcTextScanner_Expected(s, "'vertex' or 'endloop'", error);
			return false;
		}
		const char* at = s->p;
		long vertexLine = s->line;
		if (bcTextScanner_Word(s, "endloop")) {
			if (count < 3) {
				bcSetError(error, bc_errorSyntax, vertexLine, bcTextScanner_Column(s, at),
						   "a facet needs at least 3 vertices, found %ld", (long)count);
				return false;
			}
			break;
		}
		if (!bcTextScanner_Word(s, "vertex")) {
			bcTextScanner_Expected(s, "'vertex' or 'endloop'", error);
			return false;
		}
		bcVec3 v;
		if (!readTriple(s, "vertex", &v, error)) {
			return false;
		}
		if (count == BC_STL_MAX_CORNERS) {
			bcSetError(error, bc_errorTooLarge, vertexLine, bcTextScanner_Column(s, at),
					   "a facet of more than %d vertices", BC_STL_MAX_CORNERS);
			return false;
		}
		if ((size_t)count == builder->cornerCapacity) {
			size_t grown = builder->cornerCapacity == 0 ? 16 : 2 * builder->cornerCapacity;
			int32_t* corners = bcRealloc(builder->corners, grown * sizeof *corners);
			if (corners == NULL) {
				bcSetError(error, bc_errorNoMemory, vertexLine, bcTextScanner_Column(s, at), "out of memory");
				return false;
			}
			builder->corners = corners;
			builder->cornerCapacity = grown;
		}
		int32_t index = vertexAt(table, v);
		if (index < 0) {
			bool full = builder->arrays.vertexCount == BC_MAX_ELEMENTS;
			bcSetError(error, full ? bc_errorTooLarge : bc_errorNoMemory, vertexLine, bcTextScanner_Column(s, at),
					   full ? "too many vertices: at most %ld are supported" : "out of memory (%ld)",
					   (long)BC_MAX_ELEMENTS);
			return false;
		}
		if (count < 3) {
			first[count] = v;
		}
		builder->corners[count++] = index;
	}
	if (!expectWord(s, "endfacet", "'endfacet'", error)) {
		return false;
	}
	if (!bcMeshBuilder_AddPolygon(builder, builder->corners, count, line, column, 0)) {
		bcSetError(error, bc_errorNoMemory, line, column, "out of memory, or more than %ld triangles",
				   (long)BC_MAX_ELEMENTS);
		return false;
	}
	if (!checkNormal(builder, normal, first[0], first[1], first[2], line, column, 0)) {
		bcSetError(error, bc_errorNoMemory, line, column, "out of memory");
		return false;
	}
	return true;
}

static bcMesh* readAscii(const char* text, size_t length, int threadCount, bcError* error)
{
	bcTextScanner s;
	bcTextScanner_Start(&s, text, length, false);
	bcMeshBuilder builder;
	memset(&builder, 0, sizeof builder);
	bcStlVertices table = { NULL, 0, &builder, bcAlloc(BC_STL_RECENT * sizeof(bcStlRecent)) };
	for (int k = 0; table.recent != NULL && k < BC_STL_RECENT; ++k) {
		table.recent[k].index = -1;
	}
	bool ok = true;
	int solids = 0;
	while (ok && bcTextScanner_Skip(&s)) {
		if (!bcTextScanner_Word(&s, "solid")) {
			bcTextScanner_Expected(&s, solids == 0 ? "'solid' at the start of an ASCII STL" : "'solid' or the end",
								   error);
			ok = false;
			break;
		}
		solids += 1;
		bcTextScanner_NextLine(&s); /* the solid's name */
		for (;;) {
			if (!bcTextScanner_Skip(&s)) {
				bcTextScanner_Expected(&s, "'facet' or 'endsolid'", error);
				ok = false;
				break;
			}
			const char* at = s.p;
			long line = s.line;
			if (bcTextScanner_Word(&s, "endsolid")) {
				bcTextScanner_NextLine(&s);
				break;
			}
			if (!bcTextScanner_Word(&s, "facet")) {
				bcTextScanner_Expected(&s, "'facet' or 'endsolid'", error);
				ok = false;
				break;
			}
			if (!readFacet(&s, &builder, &table, line, bcTextScanner_Column(&s, at), error)) {
				ok = false;
				break;
			}
		}
	}
	bcFree(table.slots);
	bcFree(table.recent);
	if (!ok) {
		bcMeshBuilder_Free(&builder);
		return NULL;
	}
	return bcMeshBuilder_Finish(&builder, bc_meshStl, threadCount,
								solids == 0 ? "no faces: the input is empty" : "no faces: the STL has no facets",
								error);
}

/* Does the text start with "solid" (any case, after a byte order mark)?
 * Exactly what the loader's sniffing looks for (mesh_load.c), so that a
 * file and a stream of the same bytes are read the same way. */
static bool startsSolid(const unsigned char* data, size_t length)
{
	if (length >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		data += 3;
		length -= 3;
	}
	static const char solid[] = "solid";
	if (length < sizeof solid - 1) {
		return false;
	}
	for (size_t i = 0; i < sizeof solid - 1; ++i) {
		unsigned char c = data[i];
		if ((c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c) != (unsigned char)solid[i]) {
			return false;
		}
	}
	return true;
}

bcMesh* bcReadStl(const unsigned char* data, size_t length, int threadCount, bcError* error)
{
	unsigned long long expected = 0;
	if (length >= BC_STL_PREFIX_BYTES) {
		expected = BC_STL_PREFIX_BYTES + (unsigned long long)BC_STL_TRIANGLE_BYTES * readU32(data + 80);
		if (expected == length) {
			return readBinary(data, length, threadCount, error);
		}
	}
	if (startsSolid(data, length)) {
		const unsigned char* nul = memchr(data, 0, length);
		if (nul != NULL) {
			bcSetByteError(error, bc_errorFormat, (long long)(nul - data) + 1,
						   "binary data (NUL bytes) in an ASCII STL%s",
						   expected > 0 ? ", and not a binary STL: the size is not 84 + 50 bytes per triangle" : "");
			return NULL;
		}
		return readAscii((const char*)data, length, threadCount, error);
	}
	if (length < BC_STL_PREFIX_BYTES) {
		bcSetByteError(error, bc_errorFormat, (long long)length + 1,
					   "not an STL: %zu bytes, fewer than a binary STL's 84-byte header and count, and no 'solid' "
					   "at the start",
					   length);
	} else {
		unsigned long long count = (expected - BC_STL_PREFIX_BYTES) / BC_STL_TRIANGLE_BYTES;
		bcSetByteError(error, bc_errorFormat, 81,
					   "a binary STL whose header counts %llu triangles has %llu bytes, but the file has %zu (%s)",
					   count, expected, length,
					   length < expected ? "truncated, or a wrong count" : "data after the triangles, or a wrong count");
	}
	return NULL;
}
