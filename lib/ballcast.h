/* ballcast.h - the one public header of libballcast.
 *
 * ballcast answers: where does a ball moving along a straight segment first
 * touch a triangle mesh? Units are whatever the mesh and trajectories use
 * (they must agree); all coordinates are in the mesh's frame.
 *
 * Naming (Box2D's grammar): types bcType, free functions bcVerbNoun,
 * functions on an object bcType_Verb, enum values bc_enumValue, constants
 * BC_UPPER_CASE. The library never prints and never exits. One error
 * style: a call that can fail returns NULL (or false) and fills the bcError
 * it is given (which may be NULL); a query cannot fail: its output struct
 * says what it found in a state (bc_castInvalid for an input it cannot
 * answer). Every create has its destroy; who owns what is said where it is
 * declared.
 */
#ifndef BALLCAST_H
#define BALLCAST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BC_VERSION_STRING "0.1.0"

/* Marks the functions of the library's interface. The shared library is
 * built with hidden visibility, so these, and only these, are exported;
 * on Windows, define BC_BUILD_DLL to build a DLL and BC_DLL to use one. */
#if defined(_WIN32) && defined(BC_BUILD_DLL)
#define BC_API __declspec(dllexport)
#elif defined(_WIN32) && defined(BC_DLL)
#define BC_API __declspec(dllimport)
#elif defined(__GNUC__)
#define BC_API __attribute__((visibility("default")))
#else
#define BC_API
#endif

/* -------------------------------------------------------------- memory */

/* Where the library gets its memory. alloc returns size bytes aligned to
 * alignment (a power of two, at least alignof(max_align_t); size is then a
 * multiple of it) or NULL; realloc resizes a block that alloc returned with
 * the smallest alignment, as the C library's realloc does (NULL when out of
 * memory, the block then untouched); free gives back a block from either
 * (never NULL). context is passed to each. */
typedef void* bcAllocFcn(size_t size, size_t alignment, void* context);
typedef void* bcReallocFcn(void* memory, size_t size, void* context);
typedef void bcFreeFcn(void* memory, void* context);

/* The three functions of an allocator and what they are given. */
typedef struct bcAllocator {
	bcAllocFcn* alloc;     /* a new block */
	bcReallocFcn* realloc; /* a block resized */
	bcFreeFcn* free;       /* a block given back */
	void* context;         /* passed to all three, as it is */
} bcAllocator;

/* Route every allocation of the library through allocator (copied; NULL, or
 * one with a NULL function: the C library's malloc, realloc and free, the
 * default). Optional. This is the library's one piece of process-wide
 * configuration: call it before any other function of the library, from
 * one thread, and not again while any mesh, list or simulation the library
 * made is alive (a block must go back to the allocator it came from). The
 * exact arithmetic of GMP, used by a few exact tests, allocates through
 * GMP's own functions. */
BC_API void bcSetAllocator(const bcAllocator* allocator);

/* ------------------------------------------------------------- threads */

/* The most threads one call of the library starts at once: beyond it
 * memory bandwidth, not cores, limits every loop the library runs. */
#define BC_MAX_THREADS 256

/* The threads a call asked for threadCount uses at most: threadCount when
 * > 0, else one per online core, and never more than BC_MAX_THREADS. (A
 * call may use fewer when its work is small.) Every threadCount of the
 * library means this. Public because a caller that runs work of its own
 * beside the library's calls must mean by a thread count what the library
 * means: ballcast's cast reads and writes on that many threads while
 * bcMesh_CastBatchWithOptions casts, and a binding reports the default.
 * (The library starts its threads in one place, lib/parallel.c, and
 * keeps that parallel-for private, as Box2D keeps b2ParallelFor.) */
BC_API int bcThreadCount(int threadCount);

/* A point or a vector in the mesh's frame. Passed and returned by value. */
typedef struct bcVec3 {
	double x, y, z; /* coordinates along the three axes */
} bcVec3;

/* Vector math on bcVec3, inline (no symbol of the library): in double,
 * each operation rounded as C rounds it, no fused multiply-add. */
/* The vector (x, y, z). */
static inline bcVec3 bcMakeVec3(double x, double y, double z)
{
	bcVec3 v = { x, y, z };
	return v;
}

/* a + b */
static inline bcVec3 bcAdd(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x + b.x, a.y + b.y, a.z + b.z);
}

/* a - b */
static inline bcVec3 bcSub(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x - b.x, a.y - b.y, a.z - b.z);
}

/* s * v */
static inline bcVec3 bcScale(double s, bcVec3 v)
{
	return bcMakeVec3(s * v.x, s * v.y, s * v.z);
}

/* a + s * b */
static inline bcVec3 bcMulAdd(bcVec3 a, double s, bcVec3 b)
{
	return bcMakeVec3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

/* -v, with +0 (not -0) for zero components, so printed normals read 0. */
static inline bcVec3 bcNeg(bcVec3 v)
{
	return bcMakeVec3(0.0 - v.x, 0.0 - v.y, 0.0 - v.z);
}

/* v with any -0 component turned into +0 (x + 0.0 does that, and nothing else). */
static inline bcVec3 bcPositiveZeros(bcVec3 v)
{
	return bcMakeVec3(v.x + 0.0, v.y + 0.0, v.z + 0.0);
}

/* The dot product a . b. */
static inline double bcDot(bcVec3 a, bcVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* The cross product a x b (right-handed). */
static inline bcVec3 bcCross(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

/* |v|^2 */
static inline double bcLengthSquared(bcVec3 v)
{
	return bcDot(v, v);
}

/* |v| (overflows for components beyond about 1e154). */
static inline double bcLength(bcVec3 v)
{
	return sqrt(bcDot(v, v));
}

/* Non-zero when every component is finite. */
static inline int bcIsFinite(bcVec3 v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* v / |v|, or (0,0,0) when |v| is 0 or not finite. v is first scaled by
 * its largest component, so tiny (subnormal) and huge vectors come out
 * unit length too. */
static inline bcVec3 bcNormalize(bcVec3 v)
{
	/* 2^-900 and 2^600, written in decimal (each reads back as exactly that
	 * power of two): C++ before C++17 has no hexadecimal floating literals,
	 * and this header is for C++ programs too. */
	const double tiny = 1.1830521861667747e-271;
	const double lift = 4.149515568880993e+180;
	double m = fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z)));
	if (!(m > 0.0) || !isfinite(m)) {
		return bcMakeVec3(0.0, 0.0, 0.0);
	}
	if (m < tiny) {
		/* Subnormal range: an exact power-of-two scale first, so 1 / m is finite. */
		v = bcScale(lift, v);
		m *= lift;
	}
	v = bcScale(1.0 / m, v);
	double length = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
	return bcScale(1.0 / length, v);
}

/* |a - b| */
static inline double bcDistance(bcVec3 a, bcVec3 b)
{
	return bcLength(bcSub(a, b));
}

/* The componentwise minimum. */
static inline bcVec3 bcMin(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}

/* The componentwise maximum. */
static inline bcVec3 bcMax(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}



/* Two contacts whose alpha differ by at most this are a tie. Alpha is a
 * fraction of the trajectory, so the tolerance is dimensionless. Contacts on
 * a shared edge or vertex computed from either neighbouring triangle agree to
 * a few ulps times |p0 - feature| / |p1 - p0|; 1e-10 leaves room for that
 * factor up to about 1e5 while staying far below any difference a user
 * could mean. Ties go to the lowest triangle index, then face < edge < vertex:
 * that contact gives bcMesh_Cast's feature, point and normal, while its alpha
 * and center are the earliest tied contact's (the least alpha of them). */
#define BC_ALPHA_TIE_TOLERANCE 1e-10

/* The largest number of vertices or triangles a mesh may hold (indices are
 * int32_t). Larger inputs are refused with bc_errorTooLarge. */
#define BC_MAX_ELEMENTS INT32_MAX

/* The largest coordinate or radius magnitude a cast works with. The edge
 * test multiplies up to six lengths (a triple product squared); 1e50^6 =
 * 1e300 stays finite, so no contact is lost to overflow. Casts beyond it
 * answer bc_castInvalid, and a triangle with a vertex beyond it is never
 * hit by a cast (other queries take any finite coordinates). */
#define BC_MAX_COORDINATE 1e50

/* A triangle whose smallest angle has a sine below this is a sliver and is
 * treated as degenerate: its normal, from a cross product of two edges, is
 * then known to fewer than about 10 digits (64 ulp of relative error per
 * unit of sine), too few to decide sides and face contacts reliably. */
#define BC_SLIVER_SINE (64.0 * 2.220446049250313e-16)

/* ---------------------------------------------------------------- errors */

/* Why a call failed (bcError.code). */
typedef enum bcErrorCode {
	bc_errorNone = 0,
	bc_errorIo,       /* the file could not be opened or read */
	bc_errorSyntax,   /* malformed input; line and column say where */
	bc_errorIndex,    /* a face index is 0, out of range or underflows */
	bc_errorValue,    /* a number is not finite or out of range */
	bc_errorTooLarge, /* more elements than BC_MAX_ELEMENTS */
	bc_errorNoMemory,
	bc_errorEmpty,    /* a mesh without any face */
	bc_errorFormat    /* a mesh not in the format asked for or named by its extension, or binary where text belongs */
} bcErrorCode;

/* What went wrong and where. line and column are 1-based (0 when they do not
 * apply); column counts bytes; binary data says where with byte. record is the 0-based record number for
 * per-record errors, -1 otherwise. */
typedef struct bcError {
	bcErrorCode code;  /* why the call failed */
	long line;         /* 1-based line of the input, 0 when none applies */
	long column;       /* 1-based byte column on that line, 0 when none applies */
	long record;       /* 0-based record of a per-record error, else -1 */
	char message[256]; /* what went wrong, in words (NUL terminated) */
	long long byte;    /* binary data: the 1-based byte (as cmp(1) counts) where it went wrong, line and column
						* then 0; else 0 */
	int systemError;   /* bc_errorIo: the errno of the call that failed (EIO, ENOSPC, ...), else 0 */
} bcError;

/* --------------------------------------------------------------- numbers */

/* The double that strtod reads from text[0 .. length) (need not be NUL
 * terminated), correctly rounded as in the C locale, when strtod reads
 * every one of those bytes: then true and *value set. False, *value left
 * alone, when the bytes are not one number in full, when length is 0, or
 * when memory runs out copying a number of more than 128 bytes. What
 * strtod accepts is accepted (hexadecimal, "inf" and "nan" too); a number
 * beyond the doubles gives an infinity, as strtod does. Most numbers, up
 * to 19 significant digits, are read without strtod, several times
 * faster, to the same bits. Public
 * because the library's number reader (the OBJ reader's) is wanted by
 * every reader of numbers in text beside it: ballcast's JSON and CSV
 * readers of trajectories and results call it, so that a number means
 * the same bits in a mesh, a trajectory and a result file. */
BC_API bool bcParseDouble(const char* text, size_t length, double* value);

/* ------------------------------------------------------------------ mesh */

/* A triangle mesh. Opaque; immutable once created, so one mesh may be
 * queried from any number of threads at once. */
typedef struct bcMesh bcMesh;

/* Arrays a mesh is built from. The library copies them; the caller keeps
 * ownership. faceIds may be NULL (then triangle i came from face i). */
typedef struct bcMeshDef {
	const double* vertices;   /* 3 * vertexCount coordinates, x y z per vertex */
	int32_t vertexCount;      /* vertices in vertices[] */
	const int32_t* triangles; /* 3 * triangleCount 0-based vertex indices */
	int32_t triangleCount;    /* triangles in triangles[] (at least one) */
	const int32_t* faceIds;   /* per triangle: the source polygon, or NULL */
	int32_t faceCount;        /* number of source polygons (ignored if faceIds is NULL) */
} bcMeshDef;

/* Build a mesh from arrays. Returns NULL and fills error (if not NULL) on
 * failure (an index out of range, a non-finite coordinate, no triangles).
 * The caller owns the result and frees it with bcMesh_Destroy. */
BC_API bcMesh* bcMesh_Create(const bcMeshDef* def, bcError* error);

/* How a mesh file (any format: bcMesh_Load) or OBJ text is read into a
 * mesh. */
typedef struct bcObjOptions {
	/* Threads parsing the text (cut into pieces at line boundaries) and
	 * building the hierarchy; <= 0: one per online core. The mesh, byte for
	 * byte, and the error reported for a bad input do not depend on it. */
	int threadCount;
} bcObjOptions;

/* The default options: one thread per online core. */
BC_API bcObjOptions bcDefaultObjOptions(void);

/* Read a Wavefront OBJ file ("-" is not special here). A polygon of k
 * corners gives k - 2 consecutive triangles, in the polygon's turning
 * order: a convex one (and one that cannot be cut safely: flat,
 * non-planar, self-intersecting) the fan (v0 v1 v2), (v0 v2 v3), ...; a
 * planar, simple, concave one the triangles of ear clipping in its plane
 * (walking the corners from v0 in file order, each corner whose triangle
 * with its two remaining neighbours turns the polygon's way and holds no
 * other remaining corner is cut off, and the walk steps back one corner;
 * signs decided exactly), so that its notches stay empty.
 * Non-planar and self-intersecting polygons are reported as warnings
 * (bcMesh_GetWarning). options may be NULL (the defaults). Returns NULL
 * and fills error (if not NULL) on failure, with the line and column of a
 * syntax error. The caller owns the result and frees it with
 * bcMesh_Destroy. */
BC_API bcMesh* bcMesh_LoadObj(const char* path, const bcObjOptions* options, bcError* error);

/* The same over OBJ text held in memory (need not be NUL terminated). The
 * caller owns the result. */
BC_API bcMesh* bcMesh_ParseObj(const char* text, size_t length, const bcObjOptions* options, bcError* error);

/* The mesh formats ballcast reads. */
typedef enum bcMeshFormat {
	bc_meshAuto = 0, /* from the file name's extension, confirmed by the first bytes; else the first bytes */
	bc_meshObj,      /* Wavefront OBJ (text) */
	bc_meshStl,      /* STL, ASCII or binary */
	bc_meshPly,      /* PLY, ASCII or binary of either byte order */
	bc_meshOff       /* OFF (text) */
} bcMeshFormat;

/* "auto", "obj", "stl", "ply" or "off" ("?" for a value out of range). */
BC_API const char* bcMeshFormatName(bcMeshFormat format);

/* The largest mesh input read, in bytes (8 GiB): beyond it a reader stops
 * with bc_errorTooLarge before holding more, whatever the source (a pipe
 * that never ends, /dev/zero). */
#define BC_MAX_MESH_BYTES ((long long)8 << 30)

/* Read a mesh file of any format ("-" is not special here). With
 * bc_meshAuto the format comes from the extension (.obj, .stl, .ply, .off,
 * any case) and must agree with the first bytes ("ply", "OFF", "solid" or
 * a binary STL's size), else bc_errorFormat; without a known extension the
 * first bytes decide, and OBJ is the default. A named format must agree
 * with the first bytes too. Every format gives the same mesh for the same
 * polygons: vertices in file order (STL: each distinct position, in order
 * of first use), triangles in file order, a polygon of k corners cut into
 * k - 2 triangles as bcMesh_LoadObj cuts it, face ids counting polygons
 * (OBJ f lines, STL facets, PLY and OFF faces) from 0.
 *  - STL (ASCII or binary: binary when the size is exactly 84 + 50 n bytes
 *    for the n triangles its header counts, even when it starts with
 *    "solid"): corners whose coordinates are bit-identical are merged into
 *    one vertex, so that neighbouring facets share their edges (float32
 *    bits in binary, the double read in ASCII; -0 and 0 differ). The
 *    stored facet normal is never used: one that points against the
 *    winding's normal (negative dot product) is reported as a warning.
 *  - PLY (format ascii, binary_little_endian or binary_big_endian 1.0):
 *    the element "vertex" with properties x, y, z of any scalar type (read
 *    exactly: float32 and float64 keep every bit), the element "face" with
 *    a list property vertex_indices or vertex_index; other properties and
 *    elements are skipped.
 *  - OFF (OFF, COFF, NOFF, CNOFF): vertex lines x y z with any further
 *    columns (colours, normals) ignored, face lines k i1 .. ik with any
 *    further columns (a colour) ignored; '#' comments.
 * Text formats (OBJ, OFF, ASCII STL, a PLY header) holding a NUL byte are
 * refused at once ("binary data (NUL bytes)"), as is UTF-16 text. Errors in
 * text have a line and column, in binary data a byte (bcError.byte); a
 * file that changes size or time while it is read is refused ("changed
 * while it was read"). The file is read with read(2), never mapped.
 * options may be NULL (the defaults). The caller owns the result and frees
 * it with bcMesh_Destroy. */
BC_API bcMesh* bcMesh_Load(const char* path, bcMeshFormat format, const bcObjOptions* options, bcError* error);

/* The same over bytes held in memory (no extension: bc_meshAuto decides by
 * the first bytes). The caller owns the result. */
BC_API bcMesh* bcMesh_Parse(const void* data, size_t length, bcMeshFormat format, const bcObjOptions* options,
							bcError* error);

/* The same over what remains of stream (standard input, a pipe), read to
 * its end (at most BC_MAX_MESH_BYTES) but not closed. A text mesh holding
 * NUL bytes is refused as soon as they are read. The caller owns the
 * result. */
BC_API bcMesh* bcMesh_Read(FILE* stream, bcMeshFormat format, const bcObjOptions* options, bcError* error);

/* Free a mesh. NULL is allowed. */
BC_API void bcMesh_Destroy(bcMesh* mesh);

/* Something a reader got past: the mesh was built, but part of it may not
 * be what the file meant. */
typedef enum bcWarningCode {
	bc_warningNone = 0,
	bc_warningNonPlanar,        /* a polygon's corners stray from its plane: cut as a fan */
	bc_warningSelfIntersecting, /* a polygon's edges cross or touch, or a corner repeats: cut as a fan */
	bc_warningFacetNormal       /* an STL facet's stored normal points against its winding: not used */
} bcWarningCode;

/* One warning: line and column (1-based, bytes) of the polygon's keyword
 * (OBJ f, STL facet) or first number (PLY, OFF), or in binary data its
 * 1-based byte; record its 0-based face number. */
typedef struct bcWarning {
	bcWarningCode code; /* what the reader got past */
	long line;          /* 1-based line of the polygon, 0 in binary data */
	long column;        /* 1-based byte column of its keyword or first number */
	long record;        /* 0-based face (polygon) number */
	char message[160];  /* the warning in words (NUL terminated) */
	long long byte;     /* binary data: the 1-based byte where the polygon starts; else 0 */
} bcWarning;

/* A mesh keeps the first this many warnings in full; it counts them all. */
#define BC_MAX_WARNINGS 1000

/* How many warnings reading the mesh gave (0 for bcMesh_Create). */
BC_API int32_t bcMesh_GetWarningCount(const bcMesh* mesh);

/* Warning index, in file order, for index < BC_MAX_WARNINGS; anything
 * else gives code bc_warningNone. */
BC_API bcWarning bcMesh_GetWarning(const bcMesh* mesh, int32_t index);

/* Counts. Degenerate triangles (zero area, or slivers whose smallest angle
 * has a sine below BC_SLIVER_SINE) keep their index but are never hit. */
typedef struct bcMeshInfo {
	int32_t vertexCount;           /* vertices */
	int32_t triangleCount;         /* triangles, degenerate ones included */
	int32_t faceCount;             /* source polygons (OBJ f lines, STL facets, PLY and OFF faces) */
	int32_t degenerateCount;       /* triangles of zero area or slivers: never hit */
	bcVec3 lowerBound, upperBound; /* axis-aligned bounds of all vertices */
	double buildSeconds;           /* wall time spent building the BVH */
	bcMeshFormat format;           /* the format read (bc_meshAuto for bcMesh_Create) */
	long long mergedCorners;       /* STL: facet corners that fell on a vertex already read (bit-identical
									* coordinates) and were merged into it; 0 for other formats */
} bcMeshInfo;

/* The mesh's counts and bounds. */
BC_API bcMeshInfo bcMesh_GetInfo(const bcMesh* mesh);

/* One triangle: its 0-based vertex indices in file order, the 0-based face
 * (OBJ f line) it came from, and its unit front normal: (B-A)x(C-A)
 * normalised, pointing to the side from which A, B, C run counter-clockwise.
 * The normal is (0,0,0) for a degenerate triangle. */
typedef struct bcTriangle {
	int32_t vertices[3]; /* A, B, C: 0-based vertex indices in file order */
	int32_t face;        /* the 0-based face (OBJ f line) it came from */
	bcVec3 normal;       /* unit front normal, (0,0,0) when degenerate */
	bool degenerate;     /* zero area or a sliver: never hit */
} bcTriangle;

/* Triangle index (0 .. triangleCount - 1), as described above. */
BC_API bcTriangle bcMesh_GetTriangle(const bcMesh* mesh, int32_t index);

/* Vertex index (0 .. vertexCount - 1). */
BC_API bcVec3 bcMesh_GetVertex(const bcMesh* mesh, int32_t index);

/* ------------------------------------------------------------ cast query */

/* Which part of a triangle the ball touches. */
typedef enum bcFeature {
	bc_featureNone = 0,
	bc_featureFace,
	bc_featureEdge,
	bc_featureVertex
} bcFeature;

/* Which side of a triangle counts, with d = p1 - p0 and n its front normal. */
typedef enum bcApproach {
	bc_approachLessEqual = 0, /* dot(n, d) <= 0 counts: grazing motion along the plane too (default) */
	bc_approachLess           /* dot(n, d) < 0 counts: only motion into the front */
} bcApproach;

/* What to do with a triangle the ball already overlaps at alpha = 0. */
typedef enum bcOverlapPolicy {
	bc_overlapReport = 0, /* a hit at alpha = 0 with state bc_castInitialOverlap */
	bc_overlapIgnore      /* skip that triangle entirely */
} bcOverlapPolicy;

/* How a cast counts contacts (bcDefaultCastOptions for the defaults). */
typedef struct bcCastOptions {
	bool twoSided;              /* count contacts from behind too */
	bcApproach approach;        /* which motion counts as towards the front */
	bcOverlapPolicy overlap;    /* what a triangle overlapped at alpha = 0 gives */
	bool bruteForce;            /* test every triangle (reference path) */
} bcCastOptions;

/* The default options: one-sided, dot <= 0, overlaps reported. */
BC_API bcCastOptions bcDefaultCastOptions(void);

/* A ball of radius r >= 0 whose centre moves linearly from p0 (alpha = 0)
 * to p1 (alpha = 1). r = 0 is a point moving along a segment. */
typedef struct bcCastInput {
	bcVec3 p0, p1; /* the centre at alpha = 0 and at alpha = 1 */
	double radius; /* r >= 0; 0 is a point */
} bcCastInput;

/* What a cast found (bcCastOutput.state). */
typedef enum bcCastState {
	bc_castMiss = 0,          /* no counted contact for alpha in [0, 1] */
	bc_castHit,               /* first touch at alpha */
	bc_castInitialOverlap,    /* already closer than r at alpha = 0 */
	bc_castInvalid,           /* the input had a negative or non-finite value */
	bc_castNoMemory           /* memory ran out collecting tied contacts: no answer */
} bcCastState;

/* The answer to one cast. On a miss alpha is 1 and the rest is zeroed with
 * triangle = face = -1. On a hit or initial overlap:
 *  - triangle: 0-based triangle index; face: the OBJ face it came from;
 *  - feature and vertices[0 .. vertexCount-1]: the mesh vertex indices of the
 *    touched face (3), edge (2) or vertex (1);
 *  - point: the contact point on the triangle; center: the ball centre at
 *    alpha;
 *  - normal: unit contact normal, from point towards center. When the two
 *    coincide (r = 0, or a centre lying on the triangle) it is the triangle
 *    normal turned against the motion (towards p0's side);
 *  - triangleNormal: the unit front normal of the triangle;
 *  - tieCount: how many (triangle, feature) contacts share this alpha within
 *    BC_ALPHA_TIE_TOLERANCE (1 when there is no tie). */
typedef struct bcCastOutput {
	bcCastState state;     /* miss, hit, initial overlap, invalid or out of memory */
	double alpha;          /* the fraction of p0 -> p1 at first touch (1 on a miss) */
	int32_t triangle;      /* 0-based triangle touched, -1 on a miss */
	int32_t face;          /* the OBJ face it came from, -1 on a miss */
	bcFeature feature;     /* face, edge or vertex of that triangle */
	int vertexCount;       /* mesh vertices of the feature: 3, 2 or 1 */
	int32_t vertices[3];   /* the feature's mesh vertex indices */
	bcVec3 point;          /* the contact point on the triangle */
	bcVec3 center;         /* the ball's centre at alpha */
	bcVec3 normal;         /* unit contact normal, from point towards center */
	bcVec3 triangleNormal; /* the triangle's unit front normal */
	int tieCount;          /* contacts tied at alpha, 1 when none is */
} bcCastOutput;

/* True when p0, p1, p1 - p0 and radius are finite, within
 * BC_MAX_COORDINATE in magnitude, and radius >= 0. The cast functions answer
 * bc_castInvalid otherwise. */
BC_API bool bcIsValidCastInput(bcCastInput input);

/* Cast one ball against one triangle A, B, C (front normal (B-A)x(C-A)).
 * vertices[] in the output hold local indices 0, 1, 2 (for A, B, C) and
 * triangle/face are 0. A degenerate triangle never hits. Ties between the
 * triangle's features are decided as bcMesh_Cast decides them: the first
 * feature in the order face, edges AB BC CA, vertices A B C names the
 * contact; alpha and centre are the earliest tied contact's. */
BC_API bcCastOutput bcCastTriangle(bcVec3 a, bcVec3 b, bcVec3 c, bcCastInput input, const bcCastOptions* options);

/* Cast one ball against a mesh: the earliest counted contact, ties resolved
 * as described at BC_ALPHA_TIE_TOLERANCE. options may be NULL (defaults). */
BC_API bcCastOutput bcMesh_Cast(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options);

/* One contact among several tied at the earliest alpha. */
typedef struct bcContact {
	int32_t triangle;    /* 0-based triangle index */
	bcFeature feature;   /* face, edge or vertex of it */
	int vertexCount;     /* mesh vertices of the feature: 3, 2 or 1 */
	int32_t vertices[3]; /* the feature's mesh vertex indices, -1 past vertexCount */
	double alpha;        /* this contact's own alpha, tied with the earliest */
	bcVec3 normal;       /* contact normal, as in bcCastOutput */
} bcContact;

/* Like bcMesh_Cast, and also lists in ties[0 .. min(n, capacity)-1] every
 * (triangle, feature) contact within BC_ALPHA_TIE_TOLERANCE of the earliest
 * alpha, ordered by triangle then feature; returns n (the full count). */
BC_API int bcMesh_CastTies(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options, bcCastOutput* output,
						   bcContact* ties, int capacity);

/* --normal average for one cast: the sum of the exact unit front normals
 * of the distinct triangles among ties[0 .. count-1] (ordered by triangle,
 * as bcMesh_CastTies lists them), each counted once, normalised: within
 * 2^-34 of a radian of the exact direction, however nearly they cancel.
 * When they cancel out exactly (the sum of the exact unit normals is
 * zero, decided in exact arithmetic), fallback: the hit triangle's front
 * normal (bcCastOutput.triangleNormal). */
BC_API bcVec3 bcMesh_AverageNormal(const bcMesh* mesh, const bcContact* ties, int count, bcVec3 fallback);

/* What an answer's normal holds (bcBatchOptions.normal, bcMesh_CastNormal). */
typedef enum bcNormalMode {
	bc_normalContact = 0, /* the contact normal, as bcMesh_Cast gives it */
	bc_normalTriangle,    /* the hit triangle's front normal (triangleNormal) */
	bc_normalAverage      /* the sum of the front normals of the tied triangles, each
						   * counted once, normalised (bcMesh_AverageNormal;
						   * triangleNormal if they cancel out) */
} bcNormalMode;

/* The normal mode asks for in output, one cast's answer, whose tied
 * contacts are ties[0 .. count) as bcMesh_CastTies lists them (all of
 * them, ordered by triangle; only bc_normalAverage reads them, the other
 * modes take NULL and 0): on a hit or an initial overlap, output->normal
 * (contact), output->triangleNormal (triangle), or the normalised sum of
 * the front normals of the distinct tied triangles, output->triangleNormal
 * when they cancel out (average: bcMesh_AverageNormal); otherwise output->normal as it is. What
 * a batch puts in each answer's normal, for a caller that casts one ball at
 * a time. */
BC_API bcVec3 bcMesh_CastNormal(const bcMesh* mesh, const bcCastOutput* output, const bcContact* ties, int count,
								bcNormalMode mode);

/* How a batch is cast (bcDefaultBatchOptions for the defaults, which a
 * zeroed struct also is). */
typedef struct bcBatchOptions {
	bcCastOptions cast;  /* which contacts count, as for bcMesh_Cast */
	bcNormalMode normal; /* what each answer's normal holds */
	int threadCount;     /* as bcThreadCount (<= 0: one per core); the answers do not depend on it */
} bcBatchOptions;

/* The cast's defaults, the contact normal, all cores. */
BC_API bcBatchOptions bcDefaultBatchOptions(void);

/* The tied contacts of every cast of a batch, in one array: cast i's are
 * contacts[first[i] .. first[i + 1] - 1] (first[i + 1] - first[i] =
 * outputs[i].tieCount; none on a miss, an invalid input or a cast out of
 * memory), each as bcMesh_CastTies lists them, in its order. */
typedef struct bcTieList {
	bcContact* contacts; /* contactCount contacts, cast after cast in input order */
	size_t contactCount; /* all the tied contacts of the batch */
	size_t* first;       /* castCount + 1 offsets into contacts; first[0] = 0 */
	int castCount;       /* the batch's count */
} bcTieList;

/* The batch: count balls cast against mesh, every option at hand; the one
 * function for many casts (the ballcast command's cast calls it on each
 * chunk of trajectories, a binding with its arrays).
 *
 * Arrays: inputs[0 .. count) and outputs[0 .. count) are the caller's; a
 * bcCastInput is seven doubles without padding (p0, p1, radius), so an
 * array of them is a C-contiguous count x 7 array of doubles (numpy's
 * layout; one packing copy of the three arrays p0, p1, r costs far less
 * than the casts). outputs[i] answers inputs[i] as bcMesh_CastTies does,
 * bit for bit, its normal then set as options->normal says
 * (bcMesh_CastNormal). An invalid input answers bc_castInvalid at no cost,
 * so a caller may mark with NaNs what it will not cast; a cast whose tie
 * search runs out of memory answers bc_castNoMemory, and the batch goes on.
 *
 * Ties: ties NULL lists none (a batch then costs what its bcMesh_Cast calls
 * cost; the average normal collects each cast's ties and drops them).
 * Otherwise *ties receives a new list of every cast's tied contacts
 * (bcTieList), owned by the caller, who frees it with bcTieList_Destroy.
 *
 * Threads: bcThreadCount(options->threadCount), fewer for a small batch
 * (one per 64 casts), the calling thread among them; every thread the call
 * starts has ended when it returns. The casts run window by window in the
 * Morton order of their starts, so that consecutive casts walk the same
 * part of the mesh; the answers depend neither on that order nor on the
 * threads. The mesh is only read: batches may run on it at once.
 *
 * options may be NULL (the defaults); count <= 0 casts nothing (*ties is
 * then an empty list). Returns true; false when memory for the batch
 * itself runs out (only with ties or the average normal): error (if not
 * NULL) is filled, *ties is NULL, and not every output is answered. */
BC_API bool bcMesh_CastBatchWithOptions(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs,
										int count, const bcBatchOptions* options, bcTieList** ties, bcError* error);

/* Free a list. NULL is allowed. */
BC_API void bcTieList_Destroy(bcTieList* list);

/* The batch's first older form, kept for its callers:
 * bcMesh_CastBatchWithOptions with options (NULL: the defaults), the
 * contact normal, threadCount and no ties. It cannot run out of memory. */
BC_API void bcMesh_CastBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
							 const bcCastOptions* options, int threadCount);

/* The batch's second older form, kept for its callers:
 * bcMesh_CastBatchWithOptions listing every cast's tied contacts. Returns
 * the list (the caller's, bcTieList_Destroy), or NULL with error filled
 * when memory runs out. */
BC_API bcTieList* bcMesh_CastBatchTies(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs,
									   int count, const bcBatchOptions* options, bcError* error);

/* ------------------------------------------ time stepping (discrete) */

/* The discrete method: a static interference test with time stepping and
 * bisection, for comparison with the exact cast: the ball is tested where it stands
 * at alpha = 0, dt, 2 dt, ..., 1 with the cast's contact test (its centre
 * within r of a counted triangle), and the first step found in contact is
 * halved N times. It misses what happens between two tests (a thin wall
 * crossed in one step, a grazing pass, almost anything with r = 0): the
 * ball tunnels. */

/* The smallest step: a path cut into more than a billion steps would take
 * hours to test; a step that small asks for the exact cast instead. */
#define BC_DISCRETE_MIN_STEP 1e-9

/* The most bisections: dt / 2^64 is below 1e-19 dt, far under any alpha
 * that means something (BC_ALPHA_TIE_TOLERANCE); the halving also stops
 * by itself once no double lies between the ends. */
#define BC_DISCRETE_MAX_BISECTIONS 64

/* The defaults: five bisections (as the usual textbook method), and a
 * step of a hundredth of the path, a hundred tests a path. No step is
 * right for every scene (it trades tests against tunnelling: a ball moving
 * more than its diameter in a step can jump a thin wall), so callers
 * should pick theirs. */
#define BC_DISCRETE_DEFAULT_STEP 0.01
#define BC_DISCRETE_DEFAULT_BISECTIONS 5

/* How the discrete method steps (bcDefaultDiscreteOptions for the defaults). */
typedef struct bcDiscreteOptions {
	double step;        /* dt, the fraction of the path between two tests, in
						 * [BC_DISCRETE_MIN_STEP, 1]; the last step ends at 1 */
	int bisections;     /* N, halvings of the first step found in contact,
						 * 0 .. BC_DISCRETE_MAX_BISECTIONS */
	bcCastOptions cast; /* the contact test's: twoSided, approach, overlap and
						 * bruteForce mean what they mean for bcMesh_Cast */
} bcDiscreteOptions;

/* dt = BC_DISCRETE_DEFAULT_STEP, N = BC_DISCRETE_DEFAULT_BISECTIONS, the
 * cast's defaults. */
BC_API bcDiscreteOptions bcDefaultDiscreteOptions(void);

/* The answer of the discrete method. state: bc_castMiss (no test found the
 * ball in contact), bc_castHit, bc_castInitialOverlap (closer than r to a
 * counted triangle at alpha 0, reported as by bcMesh_Cast) or
 * bc_castInvalid (the input, as for bcMesh_Cast, or the options are out of
 * range). On a hit:
 *  - alpha: the first alpha a test found in contact: the end of the first
 *    step in contact after N halvings (not its start, which the textbook
 *    method returns: the end is never before the first contact, to
 *    rounding, since the ball is within r there); 0 for a touch at the
 *    start;
 *  - lower: the last alpha a test found free before it (alpha - lower is
 *    dt / 2^N, or less where a step was cut short): what the course's
 *    collision detection slides' pseudocode returns (its t); the first contact is in (lower, alpha]
 *    unless the ball touched and left between two tests; 0 when the ball is
 *    in contact at the start (a touch or an initial overlap);
 *  - triangle, face, feature, vertices: the lowest-numbered counted
 *    triangle within r of the centre at alpha, and the feature of its
 *    closest point (Ericson's regions), as mesh vertex indices;
 *  - distance: from the centre to that triangle (<= r); point: its closest
 *    point; center: the ball's centre at alpha; normal: unit, from point
 *    towards center (the triangle's normal turned against the motion when
 *    they coincide).
 * On a miss alpha = lower = 1 and the rest is zeroed, triangle = face = -1.
 * testCount: the interference tests that decided the answer (the start,
 * one per step taken, one per halving), on a miss too. */
typedef struct bcDiscreteOutput {
	bcCastState state;   /* miss, hit, initial overlap or invalid */
	double alpha;        /* the first alpha a test found in contact (1 on a miss) */
	double lower;        /* the start of the final bracket: the last alpha a test
	                        found free before alpha (the CLI's alpha_free) */
	int32_t triangle;    /* the lowest counted triangle within r at alpha, or -1 */
	int32_t face;        /* the OBJ face it came from, or -1 */
	bcFeature feature;   /* the feature of its closest point */
	int vertexCount;     /* mesh vertices of the feature: 3, 2 or 1 */
	int32_t vertices[3]; /* the feature's mesh vertex indices */
	double distance;     /* from the centre to the triangle, <= r */
	bcVec3 point;        /* the triangle's closest point to the centre */
	bcVec3 center;       /* the ball's centre at alpha */
	bcVec3 normal;       /* unit, from point towards center */
	long long testCount; /* interference tests that decided the answer */
} bcDiscreteOutput;

/* The discrete method on one ball against a mesh.
 * options may be NULL (defaults). Where the region within r of the mesh is
 * crossed in more than one step, alpha is never before the exact cast's
 * alpha and at most dt / 2^N after it; where it is crossed between two
 * tests, the discrete method misses what the cast hits. */
BC_API bcDiscreteOutput bcMesh_CastDiscrete(const bcMesh* mesh, bcCastInput input, const bcDiscreteOptions* options);

/* --------------------------------------------------------- closest point */

/* The closest point of triangle A, B, C to p, found by Ericson's Voronoi
 * regions. feature tells the region; vertices[] hold local indices (0, 1, 2
 * for A, B, C) of that feature, vertexCount of them. barycentric[] are the
 * weights u, v, w of A, B, C with point = u A + v B + w C: they
 * sum to 1 to rounding; at a vertex they are exactly 1 for it and 0 for
 * the others, on an edge exactly 0 for the vertex opposite it; in the face
 * they are the signed areas of the sub-triangles over the triangle's. */
typedef struct bcClosestPoint {
	bcVec3 point;          /* the closest point of the triangle */
	double distance;       /* from p to point */
	bcFeature feature;     /* the Voronoi region point lies in */
	int vertexCount;       /* vertices of that feature: 3, 2 or 1 */
	int vertices[3];       /* their local indices: 0, 1, 2 for A, B, C */
	double barycentric[3]; /* u, v, w with point = u A + v B + w C */
} bcClosestPoint;

/* The closest point of the triangle A, B, C to p (see bcClosestPoint). */
BC_API bcClosestPoint bcClosestPointTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c);

/* Human readable name: "face", "edge", "vertex" or "none". */
BC_API const char* bcFeatureName(bcFeature feature);

/* ------------------------------------------------ closest point of a mesh */

/* Two triangles' distances from a point p tie when they differ by at most
 * BC_DISTANCE_TIE_TOLERANCE * (d + L): d the smaller distance, L the largest
 * absolute coordinate of p and of the mesh's vertices. A distance carries
 * rounding of about one ulp of d + L (the magnitudes it is computed from):
 * the two neighbours of an edge p lies on give distances under 1e-16 (d + L)
 * apart in the tests. 1e-14 leaves a factor of 45 over the double's
 * precision (2.2e-16) for harder triangles, and no more: a wider window
 * would report a tied triangle's distance that much above the smallest. A
 * distance of at most BC_DISTANCE_TIE_TOLERANCE * L is zero to within
 * rounding: p is on the mesh. */
#define BC_DISTANCE_TIE_TOLERANCE 1e-14

/* How the closest point of a mesh is searched. */
typedef struct bcClosestOptions {
	bool bruteForce; /* test every triangle (reference path); same answers */
} bcClosestOptions;

/* The default options: the bounding volume hierarchy. */
BC_API bcClosestOptions bcDefaultClosestOptions(void);

/* What a closest-point query found (bcClosestOutput.state). */
typedef enum bcClosestState {
	bc_closestNone = 0, /* the mesh has no non-degenerate triangle */
	bc_closestFound,    /* the closest point is in the output */
	bc_closestInvalid   /* p is not finite, or radius is negative or not finite */
} bcClosestState;

/* A ball at rest: centre p, radius r >= 0 (r = 0 is a point). */
typedef struct bcClosestInput {
	bcVec3 p;      /* the ball's centre */
	double radius; /* r >= 0; 0 is a point */
} bcClosestInput;

/* The closest point of a mesh to p. Degenerate triangles are never chosen;
 * front and back do not matter. When several triangles are equally close
 * (within BC_DISTANCE_TIE_TOLERANCE: p at a shared edge or vertex) the
 * lowest triangle index wins; on one triangle the closest point is unique.
 * On bc_closestFound:
 *  - distance: from p to point (>= 0); for a face, the distance from p to
 *    the triangle's plane;
 *  - point: the closest point on the mesh;
 *  - triangle: 0-based index; face: the OBJ face it came from;
 *  - feature and vertices[0 .. vertexCount-1]: the part of that triangle
 *    point lies on, by Ericson's Voronoi regions, whose boundaries go to the
 *    vertex, then the edge: a vertex (1 mesh vertex index), an edge between
 *    its ends (2, in the triangle's order AB, BC, CA) or the face's interior
 *    (3, A B C). So p exactly on an edge gives that edge, exactly on a
 *    vertex that vertex;
 *  - normal: unit, from point towards p; a face gives the front normal or
 *    its opposite. When p is on the mesh (distance at most
 *    BC_DISTANCE_TIE_TOLERANCE * L) it is the triangle's front normal;
 *  - overlap: distance < radius; depth: radius - distance when
 *    overlapping, else 0;
 *  - tieCount: how many triangles tie for the closest (1 when none do);
 *  - barycentric: the weights of the triangle's vertices A, B, C (in the
 *    file's order, vertices[] of bcTriangle) that make point, as in
 *    bcClosestPoint: they sum to 1; a vertex gets exactly (1, 0, 0) in
 *    its place, an edge exactly 0 for the vertex opposite it.
 * Otherwise distance and depth are 0, triangle = face = -1, feature none,
 * barycentric (0, 0, 0). */
typedef struct bcClosestOutput {
	bcClosestState state;  /* found, none or invalid */
	double distance;       /* from p to point, >= 0 */
	bcVec3 point;          /* the closest point on the mesh */
	int32_t triangle;      /* 0-based triangle it lies on, or -1 */
	int32_t face;          /* the OBJ face it came from, or -1 */
	bcFeature feature;     /* vertex, edge or face of that triangle */
	int vertexCount;       /* mesh vertices of the feature: 1, 2 or 3 */
	int32_t vertices[3];   /* the feature's mesh vertex indices */
	bcVec3 normal;         /* unit, from point towards p */
	bool overlap;          /* distance < radius */
	double depth;          /* radius - distance when overlapping, else 0 */
	int tieCount;          /* triangles tied for the closest, 1 when none is */
	double barycentric[3]; /* weights of A, B, C that make point */
} bcClosestOutput;

/* True when p is finite and radius is finite and >= 0. */
BC_API bool bcIsValidClosestInput(bcClosestInput input);

/* The closest point of mesh to the ball's centre, and whether the ball
 * overlaps the mesh. options may be NULL (defaults). The answer does not
 * depend on options->bruteForce. */
BC_API bcClosestOutput bcMesh_Closest(const bcMesh* mesh, bcClosestInput input, const bcClosestOptions* options);

/* count queries; outputs[i] answers inputs[i]. threadCount <= 0 means one
 * thread per core. The outputs do not depend on threadCount. */
BC_API void bcMesh_ClosestBatch(const bcMesh* mesh, const bcClosestInput* inputs, bcClosestOutput* outputs, int count,
								const bcClosestOptions* options, int threadCount);

/* ---------------------------------------------------- balls against balls */

/* Partners whose alpha differ by at most this meet a ball at the same time
 * (a tie; the lowest partner index wins). The same dimensionless tolerance
 * as BC_ALPHA_TIE_TOLERANCE, so that a cast against a mesh and a set of
 * balls agree on what a tie is: two exactly simultaneous contacts computed
 * from different pairs differ by a few ulps times their quadratics'
 * conditioning, far below 1e-10 except in grazing contacts. */
#define BC_BALL_TIE_TOLERANCE BC_ALPHA_TIE_TOLERANCE

/* What a ball-against-ball test found (bcBallHit.state, bcBallResult.state). */
typedef enum bcBallState {
	bc_ballMiss = 0,       /* the balls do not meet for alpha in [0, 1] */
	bc_ballHit,            /* they first touch at alpha */
	bc_ballInitialOverlap, /* closer than r1 + r2 already at alpha = 0 */
	bc_ballInvalid         /* a non-finite input, a negative radius or mass */
} bcBallState;

/* When two moving balls first meet. On a miss alpha is 1 and point and
 * normal are (0,0,0); on an initial overlap alpha is 0. normal is the unit
 * vector from ball 1's centre towards ball 2's at alpha; if the centres
 * coincide, the direction of d2 - d1 (where ball 2 is heading from ball 1),
 * and (0,0,0) if that is zero too. point = ball 1's centre at alpha +
 * r1 * normal: on the line of centres, where the balls touch (on an
 * overlap it may lie inside ball 2). */
typedef struct bcBallHit {
	bcBallState state; /* miss, hit, initial overlap or invalid */
	double alpha;      /* when they first touch (1 on a miss) */
	bcVec3 point;      /* where they touch, on the line of centres */
	bcVec3 normal;     /* unit, from ball 1's centre towards ball 2's */
} bcBallHit;

/* Ball i, of radius ri >= 0, has its centre at ci + alpha * di for alpha in
 * [0, 1] (di is its velocity per unit alpha; coordinates in any one frame).
 * Answers the earliest alpha at which the centres are r1 + r2 apart: the
 * smaller root of |(c2 - c1) + alpha (d2 - d1)|^2 = (r1 + r2)^2 (ball 2's
 * motion relative to ball 1, against ball 1 grown by r2). Balls closer
 * than r1 + r2 at alpha 0 are an initial overlap. Balls exactly r1 + r2
 * apart at alpha 0 hit at alpha 0 only if they approach
 * (dot(c2 - c1, d2 - d1) < 0); touching while separating or at relative
 * rest is a miss (we want when they first meet). Swapping the balls gives
 * the same state and alpha bit for bit and the opposite normal. Invalid
 * (bc_ballInvalid): ci, di or ci + di not finite, ri negative or not finite. */
BC_API bcBallHit bcCollideBalls(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2);

/* The velocities after two balls of masses m1, m2 collide along the unit
 * normal n (either direction; bcBallHit's from ball 1 to ball 2). With
 * s = dot(v1, n), t = dot(v2, n) and e = restitution (1: elastic), the
 * impulse along n that conserves momentum and scales the normal speed of
 * approach by e:
 *     s' = s + (1 + e) m2 (t - s) / (m1 + m2)
 *     t' = t + (1 + e) m1 (s - t) / (m1 + m2)
 * and the tangential components are kept: v1After = v1 + (s' - s) n.
 * Equal masses with e = 1 exchange normal components. m2 = INFINITY is a
 * fixed ball: s' = 2t - s (ball 1's normal component reversed if ball 2 is
 * at rest) and ball 2 keeps v2; likewise m1 = INFINITY. No NaN arises from
 * finite velocities. Masses must be > 0 (INFINITY allowed, not both) and e
 * in [0, 1]; otherwise both velocities come back unchanged. The formula is
 * applied whatever the motion: call it for balls that approach
 * (dot(v2 - v1, n) < 0 with n from 1 to 2). Either output may be NULL. */
BC_API void bcElasticResponse(bcVec3 v1, double m1, bcVec3 v2, double m2, bcVec3 normal, double restitution,
							  bcVec3* v1After, bcVec3* v2After);

/* One ball of a set: its centre moves from p0 (alpha 0) to p1 (alpha 1),
 * radius >= 0, mass > 0 (INFINITY: a ball nothing pushes; 0 stands for the
 * default 1, so a zero-initialised mass is a unit mass). fixed: a fixed
 * obstacle, a ball that never moves and has infinite mass: it stays
 * at p0 (p1 and mass are not read), its velocities are 0, and a ball that
 * runs into it is reflected, V' = V - (1 + e) U with U the part of V along
 * the contact normal (V - 2U when elastic), whatever that ball's mass. A
 * ball is invalid (bc_ballInvalid, no part in the set) when p0, p1, p1 - p0
 * or the radius is not finite, the radius negative, or the mass negative
 * or NaN (for a fixed ball: p0 or the radius). */
typedef struct bcBallInput {
	bcVec3 p0, p1; /* the centre at alpha = 0 and at alpha = 1 */
	double radius; /* r >= 0; 0 is a point */
	double mass;   /* > 0, INFINITY allowed; 0 stands for 1 */
	bool fixed;    /* an obstacle that stays at p0, of infinite mass */
} bcBallInput;

/* How a set of balls is answered (bcDefaultBallsOptions for the defaults). */
typedef struct bcBallsOptions {
	double restitution; /* for velocityAfter: 1 elastic (default), in [0, 1] */
	bool bruteForce;    /* test every pair (reference path) instead of the grid */
} bcBallsOptions;

/* The default options: elastic, the grid. */
BC_API bcBallsOptions bcDefaultBallsOptions(void);

/* What one ball of a set meets first. state, alpha, point and normal are
 * bcCollideBalls(p0, p1 - p0, radius) of this ball against its partner's,
 * bit for bit (normal from this ball towards the partner); other is the
 * partner's index (-1 on a miss or invalid input); tieCount is how many
 * partners meet it within BC_BALL_TIE_TOLERANCE of alpha (0 on a miss);
 * velocityBefore is p1 - p0; velocityAfter is bcElasticResponse with the
 * partner (velocities p1 - p0, the options' restitution) if the two
 * approach along normal, else velocityBefore (so also on a miss). A fixed
 * ball counts as at rest at p0 (p1 - p0 read as 0) and keeps velocity 0;
 * its partner is reflected off it as off a ball of infinite mass at rest.
 * Invalid inputs leave the velocities (0,0,0). */
typedef struct bcBallResult {
	bcBallState state;     /* miss, hit, initial overlap or invalid */
	double alpha;          /* when it first touches a partner (1 on a miss) */
	int32_t other;         /* the partner's index, -1 on a miss or invalid input */
	int tieCount;          /* partners meeting it at alpha (0 on a miss) */
	bcVec3 point;          /* where the two touch */
	bcVec3 normal;         /* unit, from this ball towards the partner */
	bcVec3 velocityBefore; /* p1 - p0 (0 for a fixed ball) */
	bcVec3 velocityAfter;  /* after the collision, or velocityBefore */
} bcBallResult;

/* All count balls move at once over alpha in [0, 1]; results[i] (caller
 * owned, count of them) answers balls[i]: the earliest alpha at which it
 * touches any other ball, each pair judged on its straight trajectories
 * (a collision does not change the paths used for other pairs). Initial
 * overlaps rank before any contact at alpha 0; among partners within
 * BC_BALL_TIE_TOLERANCE of the earliest the lowest index wins. Invalid
 * balls get bc_ballInvalid and take no part. options may be NULL
 * (defaults). The broad phase (a uniform grid, coarser levels for long
 * paths) and bruteForce give the same bits. Returns true, or false with
 * error (if not NULL) filled: bc_errorValue (count < 0, NULL arrays,
 * restitution outside [0, 1]) or bc_errorNoMemory (results then
 * unspecified). */
BC_API bool bcCollideBallSet(const bcBallInput* balls, int count, const bcBallsOptions* options, bcBallResult* results,
							 bcError* error);

/* ------------------------------------------------------------ simulation */

/* Balls bouncing around a mesh and off each other under a uniform gravity,
 * event by event: contacts with the mesh as bcMesh_Cast finds them, between
 * balls as bcCollideBalls, bounces by bcElasticResponse. Times are in
 * seconds, lengths in the mesh's units, all in the mesh's frame. A ball
 * whose bounce would lift it by less than a thousandth of its radius rests
 * instead (an event of kind rest): on a face it slides without friction,
 * on an edge or a vertex it stops. Every tolerance of the search is a
 * fraction of a ball's reach: its radius, or for a point a thousandth of
 * the mesh's bounding-box diagonal. */

/* The run stops after this many events when the definition gives none. */
#define BC_SIM_DEFAULT_MAX_EVENTS 100000

/* A simulation. Opaque; not to be used from two threads at once. */
typedef struct bcSimulation bcSimulation;

/* One ball at time 0: centre and velocity (units per second), radius >= 0,
 * mass > 0 (INFINITY: a ball no collision pushes; 0 stands for 1, so a
 * zero-initialised mass is a unit mass). */
typedef struct bcSimBallDef {
	bcVec3 position; /* centre at time 0 */
	bcVec3 velocity; /* units per second at time 0 */
	double radius;   /* r >= 0; 0 is a point */
	double mass;     /* > 0, INFINITY allowed; 0 stands for 1 */
} bcSimBallDef;

/* A simulation to start (bcDefaultSimulationDef for the defaults). */
typedef struct bcSimulationDef {
	const bcSimBallDef* balls; /* ballCount balls, copied: the caller keeps them */
	int ballCount;             /* balls in balls[] */
	bcVec3 gravity;            /* the acceleration of a free ball, units per second^2 */
	double restitution;        /* e in [0, 1]: the normal speed kept by a bounce (1: elastic) */
	double horizon;            /* the run ends at this time (seconds, finite, > 0) */
	long long maxEvents;       /* events before the run stops; <= 0: BC_SIM_DEFAULT_MAX_EVENTS */
	bool twoSided;             /* triangles stop balls from behind too (default: front only) */
	bool bruteForce;           /* test every triangle (reference path); the same answers */
} bcSimulationDef;

/* No balls, no gravity, e = 1, horizon 1, the default event limit, one-sided. */
BC_API bcSimulationDef bcDefaultSimulationDef(void);

/* What happened at an event (bcSimEvent.kind). */
typedef enum bcSimEventKind {
	bc_simKindMesh = 0, /* a ball bounced off the mesh */
	bc_simKindBall,     /* two balls bounced off each other */
	bc_simKindRest,     /* a ball came to rest on the mesh: its bounce would have lifted it too little */
	bc_simKindLeave,    /* a sliding ball ran off the face it slid on */
	bc_simKindHorizon   /* the horizon: one per ball, its final state */
} bcSimEventKind;

/* How a ball moves: free under gravity; sliding without friction on one
 * face's plane (or along the crease of two); stopped until a ball hits it. */
typedef enum bcSimMotion {
	bc_simFlying = 0,
	bc_simSliding,
	bc_simStopped
} bcSimMotion;

/* What Step and Advance returned (bcSimEvent.state). */
typedef enum bcSimState {
	bc_simEvent = 0,     /* the event is in the output */
	bc_simReached,       /* Advance: no event up to the time asked; the balls are there */
	bc_simFinished,      /* every horizon event has been returned */
	bc_simTooManyEvents  /* maxEvents events came before the horizon: the run stopped */
} bcSimState;

/* What Step and Advance return. Unless state is bc_simEvent only state and
 * time are set (the current time). For an event:
 *  - time: when it happened; ball: 0-based index of the ball;
 *  - other: ball events: the other ball (else -1);
 *  - triangle, face, feature, vertices[0 .. vertexCount-1]: mesh and rest
 *    events: what was touched, as in bcCastOutput; leave events: the
 *    triangle last under the ball (feature none); else -1 and none;
 *  - point: where the ball touches the mesh or the other ball;
 *  - normal: unit; mesh and rest: from point towards the ball's centre;
 *    ball: from the ball's centre towards the other's; leave: the normal
 *    of the face left; (0,0,0) for horizon events;
 *  - position, velocityBefore, velocityAfter: the ball's centre and its
 *    velocity just before and after (equal for leave and horizon events);
 *  - otherPosition, otherVelocityBefore, otherVelocityAfter: the same for
 *    the other ball (ball events; else zero);
 *  - motion, otherMotion: how the ball (the other ball) moves from then on;
 *  - index: the event's 0-based number (horizon events included). */
typedef struct bcSimEvent {
	bcSimState state;           /* an event, or why there is none */
	bcSimEventKind kind;        /* mesh, ball, rest, leave or horizon */
	long long index;            /* the event's 0-based number */
	double time;                /* when it happened (seconds) */
	int32_t ball;               /* 0-based index of the ball */
	int32_t other;              /* ball events: the other ball, else -1 */
	int32_t triangle;           /* the triangle touched (or left), else -1 */
	int32_t face;               /* the OBJ face it came from, else -1 */
	bcFeature feature;          /* face, edge or vertex touched, else none */
	int vertexCount;            /* mesh vertices of the feature */
	int32_t vertices[3];        /* the feature's mesh vertex indices */
	bcVec3 point;               /* where the ball touches the mesh or the other ball */
	bcVec3 normal;              /* unit contact normal (see above) */
	bcVec3 position;            /* the ball's centre */
	bcVec3 velocityBefore;      /* the ball's velocity just before */
	bcVec3 velocityAfter;       /* the ball's velocity just after */
	bcVec3 otherPosition;       /* ball events: the other's centre */
	bcVec3 otherVelocityBefore; /* ball events: the other's velocity before */
	bcVec3 otherVelocityAfter;  /* ball events: the other's velocity after */
	bcSimMotion motion;         /* how the ball moves from then on */
	bcSimMotion otherMotion;    /* how the other ball moves from then on */
} bcSimEvent;

/* Start a simulation at time 0. The mesh is borrowed: it must outlive the
 * simulation. Fails (NULL, error filled, error->record the ball's index
 * where one is to blame) on a non-finite value, a negative radius, a mass
 * that is not > 0, e outside [0, 1], a horizon that is not finite and > 0,
 * a path leaving the range of doubles before the horizon, a ball
 * overlapping the mesh or another ball at time 0 (deeper than 1e-9 times
 * its reach plus the mesh's largest coordinate: touching is fine), or out
 * of memory. The caller owns the result and frees it with bcSimulation_Destroy. */
BC_API bcSimulation* bcSimulation_Create(const bcMesh* mesh, const bcSimulationDef* def, bcError* error);

/* Free a simulation. NULL is allowed. */
BC_API void bcSimulation_Destroy(bcSimulation* simulation);

/* Process and return the next event: the earliest mesh contact, ball
 * contact, rest or leave of any ball (ties: the lowest ball index, a mesh
 * contact before a ball contact), then at the horizon one horizon event per
 * ball in index order, then bc_simFinished. Once maxEvents events other
 * than horizon events have been returned, the next one is not processed:
 * bc_simTooManyEvents, from then on. */
BC_API bcSimEvent bcSimulation_Step(bcSimulation* simulation);

/* Like Step, but only up to time: the next event if it happens at or before
 * time, else every ball is moved to time (or the horizon, if earlier) and
 * the state is bc_simReached. Sampling positions every dt: call it with
 * k dt until it answers bc_simReached, then read the balls. A time before
 * the current one reaches nothing new. */
BC_API bcSimEvent bcSimulation_Advance(bcSimulation* simulation, double time);

/* A ball at the simulation's current time. */
typedef struct bcSimBallState {
	bcVec3 position;        /* centre */
	bcVec3 velocity;        /* units per second */
	bcVec3 acceleration;    /* gravity, less what a face it slides on takes */
	bcSimMotion motion;     /* flying, sliding or stopped */
	int supportCount;       /* faces it slides on (0, 1 or 2) */
	int32_t supports[2];    /* their triangles */
} bcSimBallState;

/* index in [0, ballCount); anything else gives a zeroed state. */
BC_API bcSimBallState bcSimulation_GetBall(const bcSimulation* simulation, int index);

/* What a simulation has done so far, counted. */
typedef struct bcSimulationInfo {
	double time;          /* the current time */
	long long events;     /* events returned, horizon events included */
	long long casts;      /* chord casts against the mesh */
	long long pairTests;  /* pair contact tests (bcCollideBalls calls) */
	long long chainEvents; /* collisions made elastic because a ball was in too many events at one instant */
	long long jams;       /* balls stopped after too many events at one instant */
	int ballCount;        /* balls simulated */
} bcSimulationInfo;

/* The simulation's time and counts so far. */
BC_API bcSimulationInfo bcSimulation_GetInfo(const bcSimulation* simulation);

/* "mesh", "ball", "rest", "leave" or "horizon". */
BC_API const char* bcSimEventKindName(bcSimEventKind kind);

/* "flying", "sliding" or "stopped". */
BC_API const char* bcSimMotionName(bcSimMotion motion);

/* ------------------------------------- triangles against triangles */

/* How two triangles meet. "Interior" is the relative interior: inside the
 * triangle and off its edges. */
typedef enum bcTriTriState {
	bc_triTriDisjoint = 0, /* no common point */
	bc_triTriTouching,     /* common points, none interior to both: a vertex or an edge
							* of one on the other, edges meeting, or coplanar triangles
							* meeting along their boundaries only; segment is the common
							* point (twice) or segment */
	bc_triTriCrossing,     /* not coplanar, with a common point interior to both: they
							* pass through each other along segment (positive length) */
	bc_triTriCoplanar,     /* in one plane with overlapping interiors (a common area);
							* no segment: it is (0,0,0) twice */
	bc_triTriDegenerate,   /* a triangle has collinear vertices (zero area, decided
							* exactly) or a non-finite coordinate: not tested */
	bc_triTriProbable      /* bcIntersectTrianglesApprox only: probably meeting */
} bcTriTriState;

/* The answer for one pair. segment[0] to segment[1] is the common part of
 * the two triangles when state is touching or crossing. For triangles that
 * are not coplanar it runs along nA x nB, with nA = (a1-a0)x(a2-a0) and nB
 * likewise (so swapping the triangles reverses it); for coplanar touching
 * triangles its ends are vertices, the smaller (by x, then y, then z)
 * first. A single common point is given twice. Otherwise both are 0. */
typedef struct bcTriTriOutput {
	bcTriTriState state; /* how the two triangles meet */
	bcVec3 segment[2];   /* their common point or segment (see above) */
} bcTriTriOutput;

/* Exact triangle-triangle intersection: each triangle's vertices against
 * the other's plane, then the two intervals the triangles cut on the line
 * common to both planes (Moller's test); triangles in one plane by edge
 * crossings and vertices inside, in the coordinate plane where the normal
 * is largest. Every
 * decision -- which side of a plane, coplanar or not, disjoint, touching,
 * crossing -- follows exact orientation signs (a floating-point filter,
 * then exact expansion arithmetic), so there is no tolerance: a vertex
 * 1e-40 off the plane of a unit triangle is off it. Exact while every
 * nonzero coordinate of the six vertices is at least 1e-80 times the
 * largest (else a product of three may underflow). Only the segment's ends
 * are rounded: a vertex is returned as is, an edge crossing a plane within
 * a few ulps of the coordinates, computed from the edge's two ends in a
 * fixed order, so the triangles sharing that edge give the same bits. */
BC_API bcTriTriOutput bcIntersectTriangles(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1, bcVec3 b2);

/* A ball enclosing a triangle, centred at the middle of the triangle's
 * bounding box, with radius the largest distance from there to a vertex
 * (as computed, so every vertex is within it to the last bit). */
typedef struct bcSphere {
	bcVec3 center; /* the middle of the triangle's bounding box */
	double radius; /* reaches every vertex */
} bcSphere;

/* The bounding sphere of the triangle A, B, C (see bcSphere). */
BC_API bcSphere bcTriangleBoundingSphere(bcVec3 a, bcVec3 b, bcVec3 c);

/* A quick hybrid test, APPROXIMATE: bc_triTriProbable when the two
 * bounding spheres (bcTriangleBoundingSphere) meet and an edge of one
 * triangle pierces the other's plane (not all three vertices strictly on
 * one side, in floating point), else bc_triTriDisjoint (bc_triTriDegenerate
 * for a zero normal). No segment. It reports pairs that do not meet (false
 * positives: spheres overlap far more than triangles) and, only through
 * rounding when a vertex is within an ulp of the other plane, misses pairs
 * that touch. bcIntersectOptions.checkApprox counts both kinds of mistake
 * on a pair of meshes. */
BC_API bcTriTriOutput bcIntersectTrianglesApprox(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1, bcVec3 b2);

/* Which planes the approximate (bounding sphere and plane) test asks an
 * edge to pierce. */
typedef enum bcApproxRule {
	bc_approxEither = 0, /* an edge of either triangle pierces the other's plane (the default) */
	bc_approxOneWay      /* an edge of the first triangle (A) pierces the second's plane: one
						  * way only, so it depends on the order of the pair */
} bcApproxRule;

/* bcIntersectTrianglesApprox with the rule for the planes: with
 * bc_approxOneWay only A's vertices are placed against B's plane (probable
 * when they are not all strictly on one side), as the classic hybrid
 * method does. Two triangles that meet have each a point in the other's plane, so
 * the one-way rule misses no more pairs than the two-way one (only through
 * rounding) and accepts fewer that do not meet. */
BC_API bcTriTriOutput bcIntersectTrianglesApproxWithRule(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1,
														 bcVec3 b2, bcApproxRule rule);

/* "disjoint", "touching", "crossing", "coplanar", "degenerate", "probable". */
BC_API const char* bcTriTriStateName(bcTriTriState state);

/* ------------------------------------------------ meshes against meshes */

/* How two meshes are intersected (bcDefaultIntersectOptions for the defaults). */
typedef struct bcIntersectOptions {
	bool approximate;  /* bcIntersectTrianglesApprox instead of the exact test */
	bool bruteForce;   /* test every pair (reference path); the same pairs */
	bool skipTouching; /* leave out touching pairs (keep crossing, coplanar) */
	int threadCount;   /* <= 0: one per core; the answer does not depend on it */
	/* approximate only: the rule for the planes (bcIntersectTrianglesApproxWithRule;
	 * the pair's first triangle is mesh a's, or the lower index against itself) */
	bcApproxRule approxRule;
	/* approximate only: run the exact test too on every pair the approximate
	 * test is given, and count the approximate test's mistakes
	 * (bcIntersectList's falsePositiveCount and falseNegativeCount, each
	 * pair's exactState). The pairs listed are the approximate test's. */
	bool checkApprox;
} bcIntersectOptions;

/* Exact, the bounding volume hierarchy, touching pairs kept, all cores;
 * for the approximate test, bc_approxEither and no check. */
BC_API bcIntersectOptions bcDefaultIntersectOptions(void);

/* One pair of triangles that meet: a indexes mesh A, b mesh B (for a
 * self-intersection both index A, a < b); state and segment as from
 * bcIntersectTriangles(A's a, B's b) (or the approximate test). exactState
 * is state, except with checkApprox: the exact test's state for the pair
 * (disjoint or degenerate for a false positive); its segment is not kept. */
typedef struct bcIntersectPair {
	int32_t a, b;             /* triangle of mesh A, triangle of mesh B (or of A, a < b) */
	bcTriTriState state;      /* how they meet */
	bcVec3 segment[2];        /* their common point or segment */
	bcTriTriState exactState; /* the exact test's state (checkApprox), else state */
} bcIntersectPair;

/* Every pair found, sorted by (a, b): the same list whatever the threads
 * and with or without bruteForce. Owned by the caller (bcIntersectList_Destroy).
 * With checkApprox, every pair the approximate search gives the triangle
 * test (every pair whose bounding spheres could meet, so every pair that
 * meets) is judged by both tests: falsePositiveCount counts the listed
 * (probable) pairs the exact test says do not meet, falseNegativeCount the
 * pairs the exact test says meet (touching, crossing or coplanar) that the
 * approximate one rejected (not listed). Both 0 otherwise. */
typedef struct bcIntersectList {
	bcIntersectPair* pairs; /* count pairs, sorted by (a, b) */
	size_t count;          /* pairs found */
	size_t candidateCount; /* pairs given to the triangle test, for statistics */
	size_t falsePositiveCount; /* checkApprox: listed pairs that do not meet */
	size_t falseNegativeCount; /* checkApprox: pairs that meet, not listed */
} bcIntersectList;

/* Every pair of a triangle of a and a triangle of b that meet (state
 * touching, crossing or coplanar; probable with options->approximate).
 * b NULL: a against itself, pairs a < b that share no vertex index (so
 * neighbours sharing an edge or a vertex never count, even if they also
 * cross elsewhere). Only triangles whose exact cross product is zero
 * (collinear vertices, bcMesh_CountZeroArea) are skipped: slivers, which a
 * cast never hits (bcTriangle.degenerate), are tested. For each triangle of a the
 * hierarchy of the other mesh is searched within its bounding sphere, so
 * every pair whose boxes could meet is tested (approximate: within twice
 * the larger sphere of the pair, searching from both meshes, so every pair
 * whose spheres meet is). options may be NULL (defaults).
 * Returns NULL and fills error (if not NULL) when out of memory. */
BC_API bcIntersectList* bcMesh_Intersect(const bcMesh* a, const bcMesh* b, const bcIntersectOptions* options,
										 bcError* error);

/* Free a list. NULL is allowed. */
BC_API void bcIntersectList_Destroy(bcIntersectList* list);

/* The triangles bcMesh_Intersect skips: those whose exact cross product
 * (B - A) x (C - A) is zero (collinear vertices, decided exactly). Returns
 * how many; *first (if not NULL) is the lowest such index, or -1. */
BC_API int32_t bcMesh_CountZeroArea(const bcMesh* mesh, int32_t* first);

/* ------------------------------------------- closed meshes, solids */

/* Whether a mesh is closed: every edge (a pair of vertex indices) is used
 * by exactly two triangles, running along it in opposite directions, and
 * no triangle repeats a vertex index. Decided on indices, so a soup whose
 * corners only coincide in position is not closed. A closed mesh bounds a
 * solid: the points from which a ray crosses the surface an odd number of
 * times, and the surface. O(n) memory and time (a radix sort of the edges). */
BC_API bool bcMesh_IsClosed(const bcMesh* mesh);

/* How the solids of two closed meshes A and B relate (surfaces that do
 * not meet do not make the solids disjoint: one may hold the other). */
typedef enum bcRelation {
	bc_relationNotClosed = 0, /* A or B is not closed: no solid to relate */
	bc_relationDisjoint,      /* no common point */
	bc_relationTouching,      /* common points on the surfaces only: the interiors are disjoint */
	bc_relationCrossing,      /* the interiors overlap and neither solid is inside the other */
	bc_relationAInsideB,      /* A is inside B (the surfaces may touch; equal solids say this) */
	bc_relationBInsideA,      /* B is inside A (the surfaces may touch) */
	bc_relationFailed         /* out of memory (the error is filled) */
} bcRelation;

/* How two solids are related (bcDefaultRelateOptions for the defaults). */
typedef struct bcRelateOptions {
	bool bruteForce; /* test every triangle (reference path); the same answer */
	int threadCount; /* for the pairs of triangles; <= 0: one per core */
} bcRelateOptions;

/* The hierarchies, all cores. */
BC_API bcRelateOptions bcDefaultRelateOptions(void);

/* The relation and what decided it. pairCount, crossingCount: the pairs of
 * triangles that meet (bcMesh_Intersect, exact, touching pairs kept) and
 * those that cross. When none crosses, points of each surface were placed
 * against the other solid: aPointInsideB is true when one of A's points
 * was found strictly inside B, and so on. */
typedef struct bcRelateOutput {
	bcRelation relation;                /* how the solids relate */
	bool aClosed, bClosed;              /* whether each mesh is closed */
	size_t pairCount;                   /* pairs of triangles that meet */
	size_t crossingCount;               /* of those, pairs that cross */
	bool aPointInsideB, aPointOutsideB; /* a point of A found strictly inside B; outside B */
	bool bPointInsideA, bPointOutsideA; /* a point of B found strictly inside A; outside A */
} bcRelateOutput;

/* How the solids of a and b (both closed, neither intersecting itself)
 * relate: bc_relationNotClosed (aClosed, bClosed say which is not) or the
 * relation, decided by exact signs: a pair of triangles crossing each
 * other's interiors means crossing; else
 * points of each surface are located in the other solid (exactly: on the
 * surface, or a ray's parity), one per piece of surface that meets nothing
 * of the other mesh and more where the surfaces touch. options may be NULL.
 * On out of memory bc_relationFailed and error is filled. */
BC_API bcRelateOutput bcMesh_Relate(const bcMesh* a, const bcMesh* b, const bcRelateOptions* options, bcError* error);

/* "not_closed", "disjoint", "touching", "crossing", "a_inside_b",
 * "b_inside_a", "failed". */
BC_API const char* bcRelationName(bcRelation relation);

#ifdef __cplusplus
}
#endif

#endif
