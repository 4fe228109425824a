/* ply.c - the PLY reader (Stanford's polygon file format), ASCII and
 * binary of either byte order, into a bcMesh (through mesh_build.c).
 *
 *     ply
 *     format ascii 1.0 | binary_little_endian 1.0 | binary_big_endian 1.0
 *     comment ... / obj_info ...
 *     element vertex NV
 *     property float x          (any scalar type; y and z alike)
 *     element face NF
 *     property list uchar int vertex_indices     (or vertex_index)
 *     end_header
 *     data: each element's instances in header order
 *
 * Scalar types: char/int8, uchar/uint8, short/int16, ushort/uint16,
 * int/int32, uint/uint32, float/float32, double/float64; every value is
 * converted to double exactly (float32 and float64 keep their bits). Other
 * properties (normals, colours, texture coordinates) and other elements
 * (edges, materials) are skipped. Face indices are 0-based; a face of k
 * corners is a polygon, cut as an OBJ face is. Counts that promise more
 * data than there is (or less) are refused: errors in the header and in
 * ASCII data have a line and column, in binary data a byte. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "mesh_build.h"

/* What a header may declare: enough for any real file, and bounded. */
#define BC_PLY_MAX_ELEMENTS 64
#define BC_PLY_MAX_PROPERTIES 256

/* A face of more corners than this is refused (it bounds one face's
 * scratch; no real face comes near). */
#define BC_PLY_MAX_CORNERS 100000000LL

typedef enum bcPlyType {
	bc_plyNone = 0,
	bc_plyInt8,
	bc_plyUint8,
	bc_plyInt16,
	bc_plyUint16,
	bc_plyInt32,
	bc_plyUint32,
	bc_plyFloat32,
	bc_plyFloat64
} bcPlyType;

static const struct {
	const char* name;
	const char* alias;
	bcPlyType type;
	int size;
} plyTypes[] = {
	{ "char", "int8", bc_plyInt8, 1 },		 { "uchar", "uint8", bc_plyUint8, 1 },
	{ "short", "int16", bc_plyInt16, 2 },	 { "ushort", "uint16", bc_plyUint16, 2 },
	{ "int", "int32", bc_plyInt32, 4 },		 { "uint", "uint32", bc_plyUint32, 4 },
	{ "float", "float32", bc_plyFloat32, 4 }, { "double", "float64", bc_plyFloat64, 8 },
};

static int typeSize(bcPlyType type)
{
	for (size_t i = 0; i < sizeof plyTypes / sizeof plyTypes[0]; ++i) {
		if (plyTypes[i].type == type) {
			return plyTypes[i].size;
		}
	}
	return 0;
}

typedef enum bcPlyRole {
	bc_roleSkip = 0,
	bc_roleX,
	bc_roleY,
	bc_roleZ,
	bc_roleIndices
} bcPlyRole;

typedef struct bcPlyProperty {
	bcPlyType type;      /* the scalar's type, or a list's item type */
	bcPlyType countType; /* a list's count type; bc_plyNone for a scalar */
	int size;            /* bytes of the scalar, or of a list's item */
	int countSize;       /* bytes of a list's count */
	bcPlyRole role;
	char name[32];
} bcPlyProperty;

typedef struct bcPlyElement {
	char name[32];
	long long count;
	int propertyCount;
	bcPlyProperty properties[BC_PLY_MAX_PROPERTIES];
	bool isVertex, isFace;
} bcPlyElement;

typedef enum bcPlyEncoding {
	bc_plyAscii = 0,
	bc_plyLittle,
	bc_plyBig
} bcPlyEncoding;

typedef struct bcPlyReader {
	const unsigned char* data;
	size_t length;
	bcPlyEncoding encoding;
	int elementCount;
	bcPlyElement* elements; /* BC_PLY_MAX_ELEMENTS */
	long long vertexCount;  /* the vertex element's count */
	long long faceIndex;    /* faces read so far */
	bcMeshBuilder builder;
	bcError* error;
} bcPlyReader;

/* Copy a header token into a fixed name (cut to fit). */
static void copyName(char* out, size_t size, const char* begin, const char* end)
{
	size_t n = (size_t)(end - begin);
	n = n < size - 1 ? n : size - 1;
	memcpy(out, begin, n);
	out[n] = '\0';
}

static bcPlyType parseType(bcTextScanner* s)
{
	for (size_t i = 0; i < sizeof plyTypes / sizeof plyTypes[0]; ++i) {
		if (bcTextScanner_Word(s, plyTypes[i].name) || bcTextScanner_Word(s, plyTypes[i].alias)) {
			return plyTypes[i].type;
		}
	}
	return bc_plyNone;
}

/* The header, through end_header; *body gets the offset of the data. */
static bool readHeader(bcPlyReader* r, bcTextScanner* s, size_t* body)
{
	bcError* error = r->error;
	if (!bcTextScanner_Word(s, "ply") || bcTextScanner_OnLine(s)) {
		bcTextScanner_Expected(s, "'ply' alone on the first line", error);
		return false;
	}
	bcTextScanner_NextLine(s);
	bool formatSeen = false;
	for (;;) {
		if (s->p == s->end) {
			bcTextScanner_Expected(s, "'end_header'", error);
			return false;
		}
		if (!bcTextScanner_OnLine(s)) {
			bcTextScanner_NextLine(s); /* a blank line */
			continue;
		}
		const char* keyword = s->p;
		long column = bcTextScanner_Column(s, keyword);
		if (bcTextScanner_Word(s, "comment") || bcTextScanner_Word(s, "obj_info")) {
			bcTextScanner_NextLine(s);
			continue;
		}
		if (bcTextScanner_Word(s, "end_header")) {
			if (!formatSeen) {
				bcSetError(error, bc_errorSyntax, s->line, column, "no 'format' line before 'end_header'");
				return false;
			}
			/* the scanner's text ends at end_header's line end */
			size_t headerEnd = (size_t)((const unsigned char*)s->end - r->data);
			*body = headerEnd < r->length ? headerEnd + 1 : r->length;
			return true;
		}
		if (bcTextScanner_Word(s, "format")) {
			bcTextScanner_OnLine(s);
			if (bcTextScanner_Word(s, "ascii")) {
				r->encoding = bc_plyAscii;
			} else if (bcTextScanner_Word(s, "binary_little_endian")) {
				r->encoding = bc_plyLittle;
			} else if (bcTextScanner_Word(s, "binary_big_endian")) {
				r->encoding = bc_plyBig;
			} else {
				bcTextScanner_Expected(s, "ascii, binary_little_endian or binary_big_endian", error);
				return false;
			}
			bcTextScanner_OnLine(s);
			if (!bcTextScanner_Word(s, "1.0")) {
				bcTextScanner_Expected(s, "the version 1.0", error);
				return false;
			}
			formatSeen = true;
		} else if (bcTextScanner_Word(s, "element")) {
			if (r->elementCount == BC_PLY_MAX_ELEMENTS) {
				bcSetError(error, bc_errorTooLarge, s->line, column, "more than %d elements", BC_PLY_MAX_ELEMENTS);
				return false;
			}
			bcPlyElement* e = r->elements + r->elementCount;
			memset(e, 0, sizeof *e);
			if (!bcTextScanner_OnLine(s)) {
				bcTextScanner_Expected(s, "an element name", error);
				return false;
			}
			const char* stop = bcTextScanner_TokenEnd(s);
			copyName(e->name, sizeof e->name, s->p, stop);
			e->isVertex = strcmp(e->name, "vertex") == 0;
			e->isFace = strcmp(e->name, "face") == 0;
			s->p = stop;
			if (!bcTextScanner_OnLine(s) ||
				!bcTextScanner_Count(s, "an element count", e->isVertex || e->isFace ? (long long)BC_MAX_ELEMENTS
																					: INT64_MAX / 10,
									 &e->count, error)) {
				if (s->p == s->end || *s->p == '\n') {
					bcTextScanner_Expected(s, "an element count", error);
				}
				return false;
			}
			for (int k = 0; k < r->elementCount; ++k) {
				if ((e->isVertex || e->isFace) && strcmp(r->elements[k].name, e->name) == 0) {
					bcSetError(error, bc_errorSyntax, s->line, column, "a second '%s' element", e->name);
					return false;
				}
			}
			if (e->isVertex) {
				r->vertexCount = e->count;
			}
			r->elementCount += 1;
		} else if (bcTextScanner_Word(s, "property")) {
			if (r->elementCount == 0) {
				bcSetError(error, bc_errorSyntax, s->line, column, "a property before any element");
				return false;
			}
			bcPlyElement* e = r->elements + r->elementCount - 1;
			if (e->propertyCount == BC_PLY_MAX_PROPERTIES) {
				bcSetError(error, bc_errorTooLarge, s->line, column, "more than %d properties in element '%s'",
						   BC_PLY_MAX_PROPERTIES, e->name);
				return false;
			}
			bcPlyProperty* p = e->properties + e->propertyCount;
			memset(p, 0, sizeof *p);
			bcTextScanner_OnLine(s);
			if (bcTextScanner_Word(s, "list")) {
				bcTextScanner_OnLine(s);
				p->countType = parseType(s);
				if (p->countType == bc_plyNone || p->countType == bc_plyFloat32 || p->countType == bc_plyFloat64) {
					bcTextScanner_Expected(s, "an integer type for the list's count", error);
					return false;
				}
				bcTextScanner_OnLine(s);
			}
			p->type = parseType(s);
			p->size = typeSize(p->type);
			p->countSize = typeSize(p->countType);
			if (p->type == bc_plyNone) {
				bcTextScanner_Expected(s, "a type (char, uchar, short, ushort, int, uint, float, double)", error);
				return false;
			}
			if (!bcTextScanner_OnLine(s)) {
				bcTextScanner_Expected(s, "a property name", error);
				return false;
			}
			const char* stop = bcTextScanner_TokenEnd(s);
			copyName(p->name, sizeof p->name, s->p, stop);
			s->p = stop;
			bool list = p->countType != bc_plyNone;
			if (e->isVertex && !list && p->name[1] == '\0' && p->name[0] >= 'x' && p->name[0] <= 'z') {
				p->role = (bcPlyRole)(bc_roleX + (p->name[0] - 'x'));
			}
			if (e->isFace && list && (strcmp(p->name, "vertex_indices") == 0 || strcmp(p->name, "vertex_index") == 0)) {
				p->role = bc_roleIndices;
			}
			for (int k = 0; k < e->propertyCount && p->role != bc_roleSkip; ++k) {
				if (e->properties[k].role == p->role) {
					bcSetError(error, bc_errorSyntax, s->line, column, "a second property '%s' in element '%s'",
							   p->name, e->name);
					return false;
				}
			}
			e->propertyCount += 1;
		} else {
			bcTextScanner_Expected(s, "a header line (format, element, property, comment, end_header)", error);
			return false;
		}
		if (bcTextScanner_OnLine(s)) {
			bcTextScanner_Expected(s, "the end of the line", error);
			return false;
		}
		bcTextScanner_NextLine(s);
	}
}

/* Does the header hold what a mesh needs: x, y, z of the vertices, the
 * faces' index list? */
static bool checkHeader(bcPlyReader* r)
{
	const bcPlyElement* vertex = NULL;
	const bcPlyElement* face = NULL;
	for (int k = 0; k < r->elementCount; ++k) {
		vertex = r->elements[k].isVertex ? r->elements + k : vertex;
		face = r->elements[k].isFace ? r->elements + k : face;
	}
	if (vertex == NULL) {
		bcSetError(r->error, bc_errorSyntax, 0, 0, "no 'vertex' element in the header");
		return false;
	}
	unsigned roles = 0;
	for (int k = 0; k < vertex->propertyCount; ++k) {
		roles |= 1u << vertex->properties[k].role;
	}
	if ((roles & 0xEu) != 0xEu) {
		bcSetError(r->error, bc_errorSyntax, 0, 0, "the 'vertex' element lacks property %s",
				   (roles & 2u) == 0 ? "x" : (roles & 4u) == 0 ? "y" : "z");
		return false;
	}
	if (face == NULL) {
		bcSetError(r->error, bc_errorEmpty, 0, 0, "no faces: no 'face' element in the header");
		return false;
	}
	bool indices = false;
	for (int k = 0; k < face->propertyCount; ++k) {
		indices = indices || face->properties[k].role == bc_roleIndices;
	}
	if (!indices) {
		bcSetError(r->error, bc_errorSyntax, 0, 0,
				   "the 'face' element has no list property vertex_indices or vertex_index");
		return false;
	}
	return true;
}

/* Grow the builder's corner scratch to count. */
static bool reserveCorners(bcPlyReader* r, long long count)
{
	if ((size_t)count <= r->builder.cornerCapacity) {
		return true;
	}
	int32_t* grown = bcRealloc(r->builder.corners, (size_t)count * sizeof *grown);
	if (grown == NULL) {
		return false;
	}
	r->builder.corners = grown;
	r->builder.cornerCapacity = (size_t)count;
	return true;
}

/* Add the face in the builder's corner scratch; errors at line:column or byte. */
static bool addFace(bcPlyReader* r, long long corners, long line, long column, long long byte)
{
	if (!bcMeshBuilder_AddPolygon(&r->builder, r->builder.corners, (int32_t)corners, line, column, byte)) {
		bool full = (long long)r->builder.arrays.triangleCount + corners - 2 > (long long)BC_MAX_ELEMENTS;
		if (byte > 0) {
			bcSetByteError(r->error, full ? bc_errorTooLarge : bc_errorNoMemory, byte, "%s",
						   full ? "too many triangles" : "out of memory");
		} else {
			bcSetError(r->error, full ? bc_errorTooLarge : bc_errorNoMemory, line, column, "%s",
					   full ? "too many triangles" : "out of memory");
		}
		return false;
	}
	r->faceIndex += 1;
	return true;
}

/* ----------------------------------------------------------- ASCII data */

static bool readAsciiBody(bcPlyReader* r, bcTextScanner* s)
{
	bcError* error = r->error;
	char what[160];
	for (int e = 0; e < r->elementCount; ++e) {
		const bcPlyElement* element = r->elements + e;
		for (long long i = 0; i < element->count; ++i) {
			double xyz[3] = { 0.0, 0.0, 0.0 };
			long faceLine = 0, faceColumn = 0;
			long long corners = -1;
			for (int k = 0; k < element->propertyCount; ++k) {
				const bcPlyProperty* p = element->properties + k;
				if (!bcTextScanner_Skip(s)) {
					snprintf(what, sizeof what, "%s %lld's %s", element->name, i, p->name);
					bcTextScanner_Expected(s, what, error);
					return false;
				}
				if (k == 0) {
					faceLine = s->line;
					faceColumn = bcTextScanner_Column(s, s->p);
				}
				if (p->countType == bc_plyNone) {
					double value;
					if (!bcTextScanner_TryNumber(s, &value)) {
						snprintf(what, sizeof what, "%s %lld's %s", element->name, i, p->name);
						bcTextScanner_Number(s, what, &value, error);
						return false;
					}
					if (p->role >= bc_roleX && p->role <= bc_roleZ) {
						xyz[p->role - bc_roleX] = value;
					}
					continue;
				}
				long long count;
				if (!bcTextScanner_TryCount(s, BC_PLY_MAX_CORNERS, &count)) {
					snprintf(what, sizeof what, "%s %lld's %s count", element->name, i, p->name);
					bcTextScanner_Count(s, what, BC_PLY_MAX_CORNERS, &count, error);
					return false;
				}
				bool indices = p->role == bc_roleIndices;
				if (indices) {
					if (count < 3) {
						bcSetError(error, bc_errorSyntax, faceLine, faceColumn,
								   "a face needs at least 3 vertices, found %lld", count);
						return false;
					}
					if (!reserveCorners(r, count)) {
						bcSetError(error, bc_errorNoMemory, faceLine, faceColumn, "out of memory");
						return false;
					}
					corners = count;
				}
				for (long long j = 0; j < count; ++j) {
					bool more = bcTextScanner_Skip(s);
					const char* at = s->p;
					double ignored;
					long long index;
					bool read = more && (indices ? bcTextScanner_TryCount(s, INT64_MAX / 10, &index)
												 : bcTextScanner_TryNumber(s, &ignored));
					if (!read) {
						snprintf(what, sizeof what, "%s %lld's %s item %lld of %lld", element->name, i, p->name,
								 j + 1, count);
						if (!more) {
							bcTextScanner_Expected(s, what, error);
						} else if (indices) {
							bcTextScanner_Count(s, what, INT64_MAX / 10, &index, error);
						} else {
							bcTextScanner_Number(s, what, &ignored, error);
						}
						return false;
					}
					if (!indices) {
						continue;
					}
					if (index >= r->vertexCount) {
						bcSetError(error, bc_errorIndex, s->line, bcTextScanner_Column(s, at),
								   "vertex index %lld out of range: the file has %lld %s (indices from 0)", index,
								   r->vertexCount, r->vertexCount == 1 ? "vertex" : "vertices");
						return false;
					}
					r->builder.corners[j] = (int32_t)index;
				}
			}
			if (element->isVertex && !bcMeshBuilder_AddVertex(&r->builder, bcMakeVec3(xyz[0], xyz[1], xyz[2]))) {
				bcSetError(error, bc_errorNoMemory, faceLine, faceColumn, "out of memory");
				return false;
			}
			if (element->isFace && !addFace(r, corners, faceLine, faceColumn, 0)) {
				return false;
			}
		}
	}
	if (bcTextScanner_Skip(s)) {
		char quoted[48];
		bcQuoteToken(quoted, sizeof quoted, s->p, bcTextScanner_TokenEnd(s));
		bcSetError(error, bc_errorSyntax, s->line, bcTextScanner_Column(s, s->p),
				   "data after the elements the header counts: '%s' (a wrong count?)", quoted);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- binary data */

/* The value of type at p (the reader's byte order) as a double, exactly. */
static double binaryValue(const bcPlyReader* r, const unsigned char* p, bcPlyType type)
{
	int size = type == bc_plyFloat64 ? 8 : type >= bc_plyInt32 ? 4 : type >= bc_plyInt16 ? 2 : 1;
	uint64_t bits = 0;
	if (r->encoding == bc_plyLittle) {
		for (int i = size - 1; i >= 0; --i) {
			bits = bits << 8 | p[i];
		}
	} else {
		for (int i = 0; i < size; ++i) {
			bits = bits << 8 | p[i];
		}
	}
	switch (type) {
	case bc_plyInt8:
		return (double)(int8_t)(uint8_t)bits;
	case bc_plyUint8:
		return (double)(uint8_t)bits;
	case bc_plyInt16:
		return (double)(int16_t)(uint16_t)bits;
	case bc_plyUint16:
		return (double)(uint16_t)bits;
	case bc_plyInt32:
		return (double)(int32_t)(uint32_t)bits;
	case bc_plyUint32:
		return (double)(uint32_t)bits;
	case bc_plyFloat32: {
		uint32_t b32 = (uint32_t)bits;
		float f;
		memcpy(&f, &b32, sizeof f);
		return (double)f;
	}
	default: {
		double d;
		memcpy(&d, &bits, sizeof d);
		return d;
	}
	}
}

static void truncated(bcPlyReader* r, const bcPlyElement* element, long long i)
{
	bcSetByteError(r->error, bc_errorSyntax, (long long)r->length + 1,
				   "the data ends in %s %lld of %lld (truncated, or a wrong count in the header)", element->name, i,
				   element->count);
}

/* A list's count at *at (an integer type), checked: >= 0. */
static bool binaryCount(bcPlyReader* r, size_t* at, const bcPlyElement* element, long long i, const bcPlyProperty* p,
						long long* count)
{
	int size = p->countSize;
	if (r->length - *at < (size_t)size) {
		truncated(r, element, i);
		return false;
	}
	double value = binaryValue(r, r->data + *at, p->countType);
	if (value < 0.0 || value > (double)BC_PLY_MAX_CORNERS) {
		bcSetByteError(r->error, bc_errorValue, (long long)*at + 1, "%s %lld's %s count is %.17g", element->name, i,
					   p->name, value);
		return false;
	}
	*at += (size_t)size;
	*count = (long long)value;
	return true;
}

static bool readBinaryBody(bcPlyReader* r, size_t at)
{
	bcError* error = r->error;
	for (int e = 0; e < r->elementCount; ++e) {
		const bcPlyElement* element = r->elements + e;
		bool fixed = true;
		size_t stride = 0;
		for (int k = 0; k < element->propertyCount; ++k) {
			fixed = fixed && element->properties[k].countType == bc_plyNone;
			stride += (size_t)element->properties[k].size;
		}
		if (fixed && !element->isVertex) {
			/* skipped whole: a fixed size per instance */
			size_t left = r->length - at;
			if (stride > 0 && (unsigned long long)element->count > left / stride) {
				truncated(r, element, (long long)(left / stride));
				return false;
			}
			at += stride * (size_t)element->count;
			continue;
		}
		for (long long i = 0; i < element->count; ++i) {
			double xyz[3] = { 0.0, 0.0, 0.0 };
			size_t start = at;
			long long corners = -1;
			for (int k = 0; k < element->propertyCount; ++k) {
				const bcPlyProperty* p = element->properties + k;
				int size = p->size;
				if (p->countType == bc_plyNone) {
					if (r->length - at < (size_t)size) {
						truncated(r, element, i);
						return false;
					}
					if (p->role >= bc_roleX && p->role <= bc_roleZ) {
						double value = binaryValue(r, r->data + at, p->type);
						if (!isfinite(value)) {
							bcSetByteError(error, bc_errorValue, (long long)at + 1,
										   "%s %lld's %s is not finite (%s)", element->name, i, p->name,
										   isnan(value) ? "NaN" : value > 0 ? "inf" : "-inf");
							return false;
						}
						xyz[p->role - bc_roleX] = value;
					}
					at += (size_t)size;
					continue;
				}
				long long count;
				size_t countAt = at;
				if (!binaryCount(r, &at, element, i, p, &count)) {
					return false;
				}
				if ((unsigned long long)count > (r->length - at) / (size_t)size) {
					truncated(r, element, i);
					return false;
				}
				if (p->role != bc_roleIndices) {
					at += (size_t)count * (size_t)size;
					continue;
				}
				if (count < 3) {
					bcSetByteError(error, bc_errorSyntax, (long long)countAt + 1,
								   "face %lld needs at least 3 vertices, found %lld", i, count);
					return false;
				}
				if (!reserveCorners(r, count)) {
					bcSetByteError(error, bc_errorNoMemory, (long long)countAt + 1, "out of memory");
					return false;
				}
				for (long long j = 0; j < count; ++j) {
					double value = binaryValue(r, r->data + at, p->type);
					if (!(value >= 0.0 && value < (double)r->vertexCount && value == floor(value))) {
						bcSetByteError(error, bc_errorIndex, (long long)at + 1,
									   "face %lld: vertex index %.17g out of range: the file has %lld %s (indices "
									   "from 0)",
									   i, value, r->vertexCount, r->vertexCount == 1 ? "vertex" : "vertices");
						return false;
					}
					r->builder.corners[j] = (int32_t)value;
					at += (size_t)size;
				}
				corners = count;
			}
			if (element->isVertex && !bcMeshBuilder_AddVertex(&r->builder, bcMakeVec3(xyz[0], xyz[1], xyz[2]))) {
				bcSetByteError(error, bc_errorNoMemory, (long long)start + 1, "out of memory");
				return false;
			}
			if (element->isFace && !addFace(r, corners, 0, 0, (long long)start + 1)) {
				return false;
			}
		}
	}
	if (at != r->length) {
		bcSetByteError(error, bc_errorSyntax, (long long)at + 1,
					   "%zu bytes of data after the elements the header counts (a wrong count?)", r->length - at);
		return false;
	}
	return true;
}

bcMesh* bcReadPly(const unsigned char* data, size_t length, int threadCount, bcError* error)
{
	bcPlyReader r;
	memset(&r, 0, sizeof r);
	r.data = data;
	r.length = length;
	r.error = error;
	r.elements = bcAlloc(BC_PLY_MAX_ELEMENTS * sizeof *r.elements);
	if (r.elements == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	/* the header is text: it ends at end_header, and holds no NUL */
	const unsigned char* headerEnd = data;
	{
		bcTextScanner probe;
		bcTextScanner_Start(&probe, (const char*)data, length, false);
		const char* found = NULL;
		for (const char* p = probe.p; p < probe.end && found == NULL;) {
			const char* newline = memchr(p, '\n', (size_t)(probe.end - p));
			const char* stop = newline != NULL ? newline : probe.end;
			if (stop - p >= 10 && memcmp(p, "end_header", 10) == 0) {
				found = stop;
			}
			p = newline != NULL ? newline + 1 : probe.end;
		}
		headerEnd = found != NULL ? (const unsigned char*)found : data + length;
	}
	const unsigned char* nul = memchr(data, 0, (size_t)(headerEnd - data));
	if (nul != NULL) {
		long line = 1;
		const unsigned char* lineStart = data;
		for (const unsigned char* p = data; p < nul; ++p) {
			if (*p == '\n') {
				line += 1;
				lineStart = p + 1;
			}
		}
		bcSetError(error, bc_errorFormat, line, (long)(nul - lineStart) + 1,
				   "binary data (NUL bytes) in the PLY header, which is text");
		bcFree(r.elements);
		return NULL;
	}
	bcTextScanner s;
	bcTextScanner_Start(&s, (const char*)data, (size_t)(headerEnd - data), false);
	size_t body = 0;
	bool ok = readHeader(&r, &s, &body) && checkHeader(&r);
	if (ok) {
		size_t room = (length - body) / 3;
		size_t vertices = (size_t)r.vertexCount < room ? (size_t)r.vertexCount : room;
		ok = bcMeshBuilder_Reserve(&r.builder, vertices, vertices);
		if (!ok) {
			bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		}
	}
	if (ok && r.encoding == bc_plyAscii) {
		long headerLines = s.line;
		bcTextScanner_Start(&s, (const char*)data + body, length - body, false);
		s.line = headerLines + 1;
		ok = readAsciiBody(&r, &s);
	} else if (ok) {
		ok = readBinaryBody(&r, body);
	}
	bcFree(r.elements);
	if (!ok) {
		bcMeshBuilder_Free(&r.builder);
		return NULL;
	}
	char empty[96];
	snprintf(empty, sizeof empty, "no faces: the PLY file has %lld %s and 0 faces", r.vertexCount,
			 r.vertexCount == 1 ? "vertex" : "vertices");
	return bcMeshBuilder_Finish(&r.builder, bc_meshPly, threadCount, empty, error);
}
