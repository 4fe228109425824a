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
 * do: a hash table of the vertices met so far answers each corner in file
 * order, its slots fetched some triangles ahead (a new vertex's slot is a
 * cache miss; 3 M corners of a 1 M-triangle mesh make 0.5 M of them). A
 * binary STL file is read a chunk at a time, never whole (bcReadStlFile).
 * The stored normal is never used: one that points against the winding's
 * (negative dot product with (B-A)x(C-A)) is a warning. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Triangles ahead whose table slots are fetched while this one is read: a
 * slot not in the processor's cache costs a memory latency (about 100 ns),
 * a triangle's work a fraction of that, so the fetch is asked for that many
 * triangles ahead (16 to 64 measured alike on the 1 M-triangle grid). */
#define BC_STL_PREFETCH_DISTANCE 32

/* Triangles read from a file at a time (400 kB): a buffer that stays in
 * the processor's cache, where reading the whole file into memory first
 * costs the kernel a fresh page for every 4 kB of it. */
#define BC_STL_CHUNK_TRIANGLES 8192

/* A slot of the vertex table: the high half of its position's hash (its
 * tag) and its vertex's index + 1 (0: empty). A probe compares a vertex
 * only where the tags agree, so a new position reads one slot and no
 * vertex: 8 bytes a slot keep a 1 M-triangle mesh's table at 8 MB. */
typedef struct bcStlSlot {
	uint32_t tag;
	int32_t index;
} bcStlSlot;

/* Distinct positions: open addressing at the tag's low bits, linear
 * probing, at most half full. */
typedef struct bcStlTable {
	bcStlSlot* slots;
	size_t slotCount; /* a power of two (at most 2^32: the tag's bits), or 0 before the first vertex */
} bcStlTable;

/* fmix64 of MurmurHash3: every bit of h moves every bit of the result (a
 * grid's coordinates, whose low mantissa bits are zeros, spread over all
 * slots). */
static inline uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53u;
	h ^= h >> 33;
	return h;
}

/* The tag of a binary corner: its float32 bits x, y, z (a 12-byte key:
 * half the work of hashing the doubles they become). */
static inline uint32_t floatTag(uint32_t x, uint32_t y, uint32_t z)
{
	return (uint32_t)(mix64(((uint64_t)y << 32 | x) ^ (uint64_t)z * 0x9E3779B97F4A7C15u) >> 32);
}

/* The tag of an ASCII corner: the bits of its doubles. */
static inline uint32_t doubleTag(bcVec3 v)
{
	uint64_t bits[3];
	memcpy(bits, &v, sizeof bits);
	return (uint32_t)(mix64(bits[0] ^ mix64(bits[1] ^ mix64(bits[2]))) >> 32);
}

static bool sameBits(bcVec3 a, bcVec3 b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Grow the table to at least want slots (a power of two, doubling). */
static bool growTable(bcStlTable* table, size_t want)
{
	size_t count = table->slotCount == 0 ? BC_STL_FIRST_SLOTS : 2 * table->slotCount;
	while (count < want) {
		count *= 2;
	}
	bcStlSlot* slots = count - 1 <= UINT32_MAX ? bcAllocZeroed(count, sizeof *slots) : NULL;
	if (slots == NULL) {
		return false;
	}
	for (size_t i = 0; i < table->slotCount; ++i) {
		if (table->slots[i].index != 0) {
			size_t k = table->slots[i].tag & (count - 1);
			while (slots[k].index != 0) {
				k = (k + 1) & (count - 1);
			}
			slots[k] = table->slots[i];
		}
	}
	bcFree(table->slots);
	table->slots = slots;
	table->slotCount = count;
	return true;
}

/* The index of the vertex whose coordinates have v's bits (its tag: tag),
 * v added as a new vertex when there is none; -1 when out of memory or
 * past the element limit. */
static int32_t vertexOf(bcStlTable* table, bcMeshBuilder* builder, uint32_t tag, bcVec3 v)
{
	bcMeshArrays* a = &builder->arrays;
	if ((size_t)a->vertexCount + 1 > table->slotCount / 2 && !growTable(table, 0)) {
		return -1;
	}
	size_t mask = table->slotCount - 1;
	size_t k = tag & mask;
	for (; table->slots[k].index != 0; k = (k + 1) & mask) {
		const bcStlSlot* slot = table->slots + k;
		if (slot->tag == tag && sameBits(a->vertices[slot->index - 1], v)) {
			a->mergedCorners += 1;
			return slot->index - 1;
		}
	}
	if (a->vertexCount == BC_MAX_ELEMENTS || !bcMeshBuilder_AddVertex(builder, v)) {
		return -1;
	}
	table->slots[k].tag = tag;
	table->slots[k].index = a->vertexCount;
	return a->vertexCount - 1;
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

/* The error for the first coordinate of corner k of triangle i (at t, its
 * first byte the file's byte) that is not finite. */
static void nonFiniteError(const unsigned char* t, long long byte, uint32_t i, int k, bcError* error)
{
	bcVec3 v = readVec3(t + 12 + 12 * k);
	int axis = !isfinite(v.x) ? 0 : !isfinite(v.y) ? 1 : 2;
	double bad = axis == 0 ? v.x : axis == 1 ? v.y : v.z;
	bcSetByteError(error, bc_errorValue, byte + 12 + 12 * k + 4 * axis,
				   "triangle %lu, corner %d: coordinate %c is not finite (%s)", (unsigned long)i, k + 1, "xyz"[axis],
				   isnan(bad) ? "NaN" : bad > 0 ? "inf" : "-inf");
}

/* The tags of the corners of the binary triangle at t. */
static inline void readTags(const unsigned char* t, uint32_t tags[3])
{
	for (int k = 0; k < 3; ++k) {
		const unsigned char* p = t + 12 + 12 * k;
		tags[k] = floatTag(readU32(p), readU32(p + 4), readU32(p + 8));
	}
}

/* Is the float32 whose bits are bits finite (its exponent not all ones)? */
static inline bool finiteBits(uint32_t bits)
{
	return (bits & 0x7F800000u) != 0x7F800000u;
}

/* A binary STL being read, its triangles in file order, through the
 * vertex table into the builder. */
typedef struct bcStlBinary {
	bcMeshBuilder builder;
	bcStlTable table;
	uint32_t count; /* the triangles the header counts */
} bcStlBinary;

static void freeBinary(bcStlBinary* stl)
{
	bcMeshBuilder_Free(&stl->builder);
	bcFree(stl->table.slots);
	stl->table.slots = NULL;
}

/* Start on a binary STL whose header and count are prefix (84 bytes).
 * False, error filled, when its count is too large or out of memory. */
static bool startBinary(bcStlBinary* stl, const unsigned char* prefix, bcError* error)
{
	memset(stl, 0, sizeof *stl);
	stl->count = readU32(prefix + 80);
	if (stl->count > (uint32_t)BC_MAX_ELEMENTS) {
		bcSetByteError(error, bc_errorTooLarge, 81, "too many triangles: %lu, at most %ld are supported",
					   (unsigned long)stl->count, (long)BC_MAX_ELEMENTS);
		return false;
	}
	/* a closed mesh has about half as many vertices as triangles: a slot
	 * per triangle keeps the table under half full without growing (each
	 * growth a fresh zeroed block) */
	if (!bcMeshBuilder_Reserve(&stl->builder, stl->count / 2 + 3, stl->count) ||
		!growTable(&stl->table, (size_t)stl->count)) {
		freeBinary(stl);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory reading %lu triangles", (unsigned long)stl->count);
		return false;
	}
	return true;
}

/* Add the n triangles from first on (their bytes at data) in order. False,
 * error filled and stl freed, at a coordinate that is not finite or out of
 * memory. */
static bool addTriangles(bcStlBinary* stl, const unsigned char* data, uint32_t first, uint32_t n, bcError* error)
{
	bcMeshArrays* a = &stl->builder.arrays;
	/* the tags of the corners of the next triangles, triangle j's in
	 * ahead[j % BC_STL_PREFETCH_DISTANCE], their slots asked for when they
	 * were computed (a hint: the answers do not depend on it) */
	uint32_t ahead[BC_STL_PREFETCH_DISTANCE][3];
	for (uint32_t j = 0; j < BC_STL_PREFETCH_DISTANCE && j < n; ++j) {
		readTags(data + (size_t)BC_STL_TRIANGLE_BYTES * j, ahead[j]);
	}
	bool ok = true;
	for (uint32_t j = 0; ok && j < n; ++j) {
		const unsigned char* t = data + (size_t)BC_STL_TRIANGLE_BYTES * j;
		uint32_t* next = ahead[j % BC_STL_PREFETCH_DISTANCE];
		uint32_t tags[3] = { next[0], next[1], next[2] };
		if (j + BC_STL_PREFETCH_DISTANCE < n) {
			readTags(t + (size_t)BC_STL_TRIANGLE_BYTES * BC_STL_PREFETCH_DISTANCE, next);
#if defined(__GNUC__)
			for (int k = 0; k < 3; ++k) {
				__builtin_prefetch(stl->table.slots + (next[k] & (stl->table.slotCount - 1)));
			}
#endif
		}
		uint32_t i = first + j;
		long long byte = BC_STL_PREFIX_BYTES + (long long)BC_STL_TRIANGLE_BYTES * i + 1;
		int32_t* corners = a->triangles + 3 * (size_t)i;
		for (int k = 0; k < 3 && ok; ++k) {
			const unsigned char* p = t + 12 + 12 * k;
			if (!finiteBits(readU32(p)) || !finiteBits(readU32(p + 4)) || !finiteBits(readU32(p + 8))) {
				nonFiniteError(t, byte, i, k, error);
				freeBinary(stl);
				return false;
			}
			corners[k] = vertexOf(&stl->table, &stl->builder, tags[k], readVec3(p));
			ok = corners[k] >= 0;
		}
		/* the builder's arrays hold count triangles: each one is its face */
		a->faceIds[i] = (int32_t)i;
		a->triangleCount = a->faceCount = (int32_t)i + 1;
		ok = ok && checkNormal(&stl->builder, readVec3(t), a->vertices[corners[0]], a->vertices[corners[1]],
							   a->vertices[corners[2]], 0, 0, byte);
	}
	if (!ok) {
		bool full = a->vertexCount == BC_MAX_ELEMENTS;
		freeBinary(stl);
		bcSetError(error, full ? bc_errorTooLarge : bc_errorNoMemory, 0, 0,
				   full ? "too many vertices: at most %ld are supported" : "out of memory reading %ld triangles",
				   full ? (long)BC_MAX_ELEMENTS : (long)stl->count);
	}
	return ok;
}

static bcMesh* finishBinary(bcStlBinary* stl, int threadCount, bcError* error)
{
	bcFree(stl->table.slots);
	stl->table.slots = NULL;
	return bcMeshBuilder_Finish(&stl->builder, bc_meshStl, threadCount, "no faces: the binary STL has 0 triangles",
								error);
}

static bcMesh* readBinary(const unsigned char* data, int threadCount, bcError* error)
{
	bcStlBinary stl;
	if (!startBinary(&stl, data, error) || !addTriangles(&stl, data + BC_STL_PREFIX_BYTES, 0, stl.count, error)) {
		return NULL;
	}
	return finishBinary(&stl, threadCount, error);
}

/* Read size bytes at offset of fd into buffer; false with errno set (EIO
 * when the file ended first: it changed, which the loader then says). */
static bool readAt(int fd, unsigned char* buffer, size_t size, long long offset)
{
	size_t done = 0;
	while (done < size) {
		ssize_t got = pread(fd, buffer + done, size - done, (off_t)(offset + (long long)done));
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got <= 0) {
			if (got == 0) {
				errno = EIO;
			}
			return false;
		}
		done += (size_t)got;
	}
	return true;
}

bcMesh* bcReadStlFile(int fd, int threadCount, bcError* error)
{
	unsigned char prefix[BC_STL_PREFIX_BYTES];
	unsigned char* buffer = bcAlloc((size_t)BC_STL_CHUNK_TRIANGLES * BC_STL_TRIANGLE_BYTES);
	bcStlBinary stl;
	if (buffer == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	bool ok = readAt(fd, prefix, sizeof prefix, 0);
	if (!ok) {
		bcSetIoError(error, "cannot read", errno);
	}
	ok = ok && startBinary(&stl, prefix, error);
	for (uint32_t first = 0; ok && first < stl.count; first += BC_STL_CHUNK_TRIANGLES) {
		uint32_t n = stl.count - first < BC_STL_CHUNK_TRIANGLES ? stl.count - first : BC_STL_CHUNK_TRIANGLES;
		if (!readAt(fd, buffer, (size_t)n * BC_STL_TRIANGLE_BYTES,
					BC_STL_PREFIX_BYTES + (long long)BC_STL_TRIANGLE_BYTES * first)) {
			bcSetIoError(error, "cannot read", errno);
			freeBinary(&stl);
			ok = false;
		} else {
			ok = addTriangles(&stl, buffer, first, n, error);
		}
	}
	bcFree(buffer);
	return ok ? finishBinary(&stl, threadCount, error) : NULL;
}

/* ----------------------------------------------------------------- ASCII */

/* Expect keyword (any case) as the next token; an error otherwise (inline:
 * a literal keyword's length is then known). */
static inline bool expectWord(bcTextScanner* s, const char* word, const char* what, bcError* error)
{
	if (bcTextScanner_Skip(s) && bcTextScanner_Word(s, word)) {
		return true;
	}
	bcTextScanner_Expected(s, what, error);
	return false;
}

/* The error for number k (0: x) after "normal" or "vertex" (what), at the
 * cursor where readTriple stopped: none there, or not a finite number. */
static void tripleError(bcTextScanner* s, const char* what, int k, bcError* error)
{
	char name[64];
	snprintf(name, sizeof name, "%s %c", what, "xyz"[k]);
	double unused;
	if (!bcTextScanner_OnLine(s)) {
		bcTextScanner_Expected(s, name, error);
	} else {
		(void)bcTextScanner_Number(s, name, &unused, error); /* fails as bcTextScanner_TryNumber did */
	}
}

/* The three numbers after "normal" or "vertex", on its line, each by the
 * scanner's fast path: -1, or the number (0: x) that is missing or not a
 * finite number, the cursor left there for tripleError (what it expected
 * is named only for an error). */
static inline int readTriple(bcTextScanner* s, bcVec3* v)
{
	double xyz[3];
	for (int k = 0; k < 3; ++k) {
		if (!bcTextScanner_OnLine(s) || !bcTextScanner_TryNumber(s, xyz + k)) {
			return k;
		}
	}
	*v = bcMakeVec3(xyz[0], xyz[1], xyz[2]);
	return -1;
}

/* A facet's corner read, not yet merged: its slot in the vertex table is
 * being fetched meanwhile. */
typedef struct bcStlCorner {
	bcVec3 v;
	uint32_t tag;
	long line;
	long column; /* of its "vertex" */
} bcStlCorner;

/* Corners of a facet read before they are merged: a triangle's three (its
 * table slots fetched while the next lines are read; a slot not in the
 * processor's cache is most of a new vertex's cost). */
#define BC_STL_PENDING_CORNERS 4

/* Merge the pending corners into the facet's corners from builder->corners
 * [*count] on, in order, as each would have been when read: false (error
 * filled at that corner's "vertex") past BC_STL_MAX_CORNERS, out of memory
 * or past the vertex limit. */
static bool mergeCorners(bcStlTable* table, bcMeshBuilder* builder, const bcStlCorner* pending, int n,
						 int32_t* count, bcError* error)
{
	for (int j = 0; j < n; ++j) {
		const bcStlCorner* c = pending + j;
		if (*count == BC_STL_MAX_CORNERS) {
			bcSetError(error, bc_errorTooLarge, c->line, c->column, "a facet of more than %d vertices",
					   BC_STL_MAX_CORNERS);
			return false;
		}
		if ((size_t)*count == builder->cornerCapacity) {
			size_t grown = builder->cornerCapacity == 0 ? 16 : 2 * builder->cornerCapacity;
			int32_t* corners = bcRealloc(builder->corners, grown * sizeof *corners);
			if (corners == NULL) {
				bcSetError(error, bc_errorNoMemory, c->line, c->column, "out of memory");
				return false;
			}
			builder->corners = corners;
			builder->cornerCapacity = grown;
		}
		int32_t index = vertexOf(table, builder, c->tag, c->v);
		if (index < 0) {
			bool full = builder->arrays.vertexCount == BC_MAX_ELEMENTS;
			bcSetError(error, full ? bc_errorTooLarge : bc_errorNoMemory, c->line, c->column,
					   full ? "too many vertices: at most %ld are supported" : "out of memory (%ld)",
					   (long)BC_MAX_ELEMENTS);
			return false;
		}
		builder->corners[(*count)++] = index;
	}
	return true;
}

/* One facet, the cursor after "facet". Its corners are merged a few at a
 * time after they are read (BC_STL_PENDING_CORNERS), and always before an
 * error later in the facet is reported: whatever fails first in the file
 * is what is said, as when each corner was merged as it was read. */
static bool readFacet(bcTextScanner* s, bcMeshBuilder* builder, bcStlTable* table, long line, long column,
					  bcError* error)
{
	bcVec3 normal;
	int bad;
	if (!expectWord(s, "normal", "'normal' after 'facet'", error)) {
		return false;
	}
	if ((bad = readTriple(s, &normal)) >= 0) {
		tripleError(s, "normal", bad, error);
		return false;
	}
	if (!expectWord(s, "outer", "'outer loop'", error) || !expectWord(s, "loop", "'loop' after 'outer'", error)) {
		return false;
	}
	int32_t count = 0;
	bcVec3 first[3];
	bcStlCorner pending[BC_STL_PENDING_CORNERS];
	int pendingCount = 0;
	for (;;) {
		bool token = bcTextScanner_Skip(s);
		const char* at = s->p;
		long vertexLine = s->line;
		if (!token || !bcTextScanner_Word(s, "vertex")) {
			if (!mergeCorners(table, builder, pending, pendingCount, &count, error)) {
				return false;
			}
			if (!token || !bcTextScanner_Word(s, "endloop")) {
				bcTextScanner_Expected(s, "'vertex' or 'endloop'", error);
				return false;
			}
			if (count < 3) {
				bcSetError(error, bc_errorSyntax, vertexLine, bcTextScanner_Column(s, at),
						   "a facet needs at least 3 vertices, found %ld", (long)count);
				return false;
			}
			break;
		}
		bcStlCorner* c = pending + pendingCount;
		if ((bad = readTriple(s, &c->v)) >= 0) {
			if (mergeCorners(table, builder, pending, pendingCount, &count, error)) {
				tripleError(s, "vertex", bad, error);
			}
			return false;
		}
		c->tag = doubleTag(c->v);
		c->line = vertexLine;
		c->column = bcTextScanner_Column(s, at);
#if defined(__GNUC__)
		if (table->slotCount > 0) {
			__builtin_prefetch(table->slots + (c->tag & (table->slotCount - 1)));
		}
#endif
		if (count + pendingCount < 3) {
			first[count + pendingCount] = c->v;
		}
		if (++pendingCount == BC_STL_PENDING_CORNERS) {
			if (!mergeCorners(table, builder, pending, pendingCount, &count, error)) {
				return false;
			}
			pendingCount = 0;
		}
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
	bcStlTable table = { NULL, 0 };
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
			return readBinary(data, threadCount, error);
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
