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
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "mesh.h"
#include "parallel.h"
#include "polygon.h"

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

/* The locale's decimal point, one character (at most MB_LEN_MAX bytes, 16
 * with glibc), is copied into a buffer of this many bytes; a longer one
 * would count as '.'. */
#define BC_OBJ_POINT_BUFFER 32

/* Tokens quoted in error messages are cut after this many bytes. */
#define BC_OBJ_QUOTE_LENGTH 40

/* Files that are not mapped are read with read() calls of at most this many
 * bytes, into a buffer that starts at BC_OBJ_READ_START bytes when the size
 * is unknown. */
#define BC_OBJ_READ_CHUNK ((size_t)1 << 30)
#define BC_OBJ_READ_START ((size_t)1 << 16)

/* A piece of text smaller than this is not given a thread of its own: a
 * megabyte takes about 3 ms to parse, a hundred times the cost of starting
 * and joining a thread. Tests build a copy of this file with tiny pieces. */
#ifndef BC_OBJ_MIN_PIECE_BYTES
#define BC_OBJ_MIN_PIECE_BYTES ((size_t)1 << 20)
#endif

/* Clinger's fast path needs double arithmetic done in double precision. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define BC_OBJ_CLINGER 1
#else
#define BC_OBJ_CLINGER 0
#endif

/* Eisel and Lemire's path builds the bits of an IEEE binary64 double. */
#if DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024 && FLT_RADIX == 2
#define BC_OBJ_LEMIRE 1
#else
#define BC_OBJ_LEMIRE 0
#endif

/* Eight digits at a time need the bytes of a uint64_t in text order from
 * the least significant one. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BC_OBJ_EIGHT_DIGITS 1
#else
#define BC_OBJ_EIGHT_DIGITS 0
#endif

/* The decimal exponents (of the integer mantissa: 1.25 is 125e-2) that
 * Eisel and Lemire's path takes: a table entry each. -64 .. 64 covers every
 * coordinate of up to 19 digits from about 1e-64 to 1e83, which is any
 * mesh's; the rest goes to strtod. */
#define BC_OBJ_POWER_MIN (-64)
#define BC_OBJ_POWER_MAX 64

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

#if BC_OBJ_LEMIRE
/* 5^q for q = BC_OBJ_POWER_MIN .. BC_OBJ_POWER_MAX as 128 bits {high, low},
 * scaled by a power of two so the top bit is set: for q >= 0 truncated; for
 * -27 <= q < 0, floor(2^(z + 127) / 5^-q) + 1; for q < -27, floor(2^(2z +
 * 128) / 5^-q) + 1 truncated to 128 bits, where 2^z is the least power of
 * two >= 5^-q. (The table of Lemire's fast_float, whose proofs assume
 * exactly these values; generated with Python's big integers.) */
static const uint64_t powersOfFive[][2] = {
	{ 0xa87fea27a539e9a5u, 0x3f2398d747b36224u }, /* 5^-64 */
	{ 0xd29fe4b18e88640eu, 0x8eec7f0d19a03aadu }, /* 5^-63 */
	{ 0x83a3eeeef9153e89u, 0x1953cf68300424acu }, /* 5^-62 */
	{ 0xa48ceaaab75a8e2bu, 0x5fa8c3423c052dd7u }, /* 5^-61 */
	{ 0xcdb02555653131b6u, 0x3792f412cb06794du }, /* 5^-60 */
	{ 0x808e17555f3ebf11u, 0xe2bbd88bbee40bd0u }, /* 5^-59 */
	{ 0xa0b19d2ab70e6ed6u, 0x5b6aceaeae9d0ec4u }, /* 5^-58 */
	{ 0xc8de047564d20a8bu, 0xf245825a5a445275u }, /* 5^-57 */
	{ 0xfb158592be068d2eu, 0xeed6e2f0f0d56712u }, /* 5^-56 */
	{ 0x9ced737bb6c4183du, 0x55464dd69685606bu }, /* 5^-55 */
	{ 0xc428d05aa4751e4cu, 0xaa97e14c3c26b886u }, /* 5^-54 */
	{ 0xf53304714d9265dfu, 0xd53dd99f4b3066a8u }, /* 5^-53 */
	{ 0x993fe2c6d07b7fabu, 0xe546a8038efe4029u }, /* 5^-52 */
	{ 0xbf8fdb78849a5f96u, 0xde98520472bdd033u }, /* 5^-51 */
	{ 0xef73d256a5c0f77cu, 0x963e66858f6d4440u }, /* 5^-50 */
	{ 0x95a8637627989aadu, 0xdde7001379a44aa8u }, /* 5^-49 */
	{ 0xbb127c53b17ec159u, 0x5560c018580d5d52u }, /* 5^-48 */
	{ 0xe9d71b689dde71afu, 0xaab8f01e6e10b4a6u }, /* 5^-47 */
	{ 0x9226712162ab070du, 0xcab3961304ca70e8u }, /* 5^-46 */
	{ 0xb6b00d69bb55c8d1u, 0x3d607b97c5fd0d22u }, /* 5^-45 */
	{ 0xe45c10c42a2b3b05u, 0x8cb89a7db77c506au }, /* 5^-44 */
	{ 0x8eb98a7a9a5b04e3u, 0x77f3608e92adb242u }, /* 5^-43 */
	{ 0xb267ed1940f1c61cu, 0x55f038b237591ed3u }, /* 5^-42 */
	{ 0xdf01e85f912e37a3u, 0x6b6c46dec52f6688u }, /* 5^-41 */
	{ 0x8b61313bbabce2c6u, 0x2323ac4b3b3da015u }, /* 5^-40 */
	{ 0xae397d8aa96c1b77u, 0xabec975e0a0d081au }, /* 5^-39 */
	{ 0xd9c7dced53c72255u, 0x96e7bd358c904a21u }, /* 5^-38 */
	{ 0x881cea14545c7575u, 0x7e50d64177da2e54u }, /* 5^-37 */
	{ 0xaa242499697392d2u, 0xdde50bd1d5d0b9e9u }, /* 5^-36 */
	{ 0xd4ad2dbfc3d07787u, 0x955e4ec64b44e864u }, /* 5^-35 */
	{ 0x84ec3c97da624ab4u, 0xbd5af13bef0b113eu }, /* 5^-34 */
	{ 0xa6274bbdd0fadd61u, 0xecb1ad8aeacdd58eu }, /* 5^-33 */
	{ 0xcfb11ead453994bau, 0x67de18eda5814af2u }, /* 5^-32 */
	{ 0x81ceb32c4b43fcf4u, 0x80eacf948770ced7u }, /* 5^-31 */
	{ 0xa2425ff75e14fc31u, 0xa1258379a94d028du }, /* 5^-30 */
	{ 0xcad2f7f5359a3b3eu, 0x096ee45813a04330u }, /* 5^-29 */
	{ 0xfd87b5f28300ca0du, 0x8bca9d6e188853fcu }, /* 5^-28 */
	{ 0x9e74d1b791e07e48u, 0x775ea264cf55347eu }, /* 5^-27 */
	{ 0xc612062576589ddau, 0x95364afe032a819eu }, /* 5^-26 */
	{ 0xf79687aed3eec551u, 0x3a83ddbd83f52205u }, /* 5^-25 */
	{ 0x9abe14cd44753b52u, 0xc4926a9672793543u }, /* 5^-24 */
	{ 0xc16d9a0095928a27u, 0x75b7053c0f178294u }, /* 5^-23 */
	{ 0xf1c90080baf72cb1u, 0x5324c68b12dd6339u }, /* 5^-22 */
	{ 0x971da05074da7beeu, 0xd3f6fc16ebca5e04u }, /* 5^-21 */
	{ 0xbce5086492111aeau, 0x88f4bb1ca6bcf585u }, /* 5^-20 */
	{ 0xec1e4a7db69561a5u, 0x2b31e9e3d06c32e6u }, /* 5^-19 */
	{ 0x9392ee8e921d5d07u, 0x3aff322e62439fd0u }, /* 5^-18 */
	{ 0xb877aa3236a4b449u, 0x09befeb9fad487c3u }, /* 5^-17 */
	{ 0xe69594bec44de15bu, 0x4c2ebe687989a9b4u }, /* 5^-16 */
	{ 0x901d7cf73ab0acd9u, 0x0f9d37014bf60a11u }, /* 5^-15 */
	{ 0xb424dc35095cd80fu, 0x538484c19ef38c95u }, /* 5^-14 */
	{ 0xe12e13424bb40e13u, 0x2865a5f206b06fbau }, /* 5^-13 */
	{ 0x8cbccc096f5088cbu, 0xf93f87b7442e45d4u }, /* 5^-12 */
	{ 0xafebff0bcb24aafeu, 0xf78f69a51539d749u }, /* 5^-11 */
	{ 0xdbe6fecebdedd5beu, 0xb573440e5a884d1cu }, /* 5^-10 */
	{ 0x89705f4136b4a597u, 0x31680a88f8953031u }, /* 5^-9 */
	{ 0xabcc77118461cefcu, 0xfdc20d2b36ba7c3eu }, /* 5^-8 */
	{ 0xd6bf94d5e57a42bcu, 0x3d32907604691b4du }, /* 5^-7 */
	{ 0x8637bd05af6c69b5u, 0xa63f9a49c2c1b110u }, /* 5^-6 */
	{ 0xa7c5ac471b478423u, 0x0fcf80dc33721d54u }, /* 5^-5 */
	{ 0xd1b71758e219652bu, 0xd3c36113404ea4a9u }, /* 5^-4 */
	{ 0x83126e978d4fdf3bu, 0x645a1cac083126eau }, /* 5^-3 */
	{ 0xa3d70a3d70a3d70au, 0x3d70a3d70a3d70a4u }, /* 5^-2 */
	{ 0xccccccccccccccccu, 0xcccccccccccccccdu }, /* 5^-1 */
	{ 0x8000000000000000u, 0x0000000000000000u }, /* 5^0 */
	{ 0xa000000000000000u, 0x0000000000000000u }, /* 5^1 */
	{ 0xc800000000000000u, 0x0000000000000000u }, /* 5^2 */
	{ 0xfa00000000000000u, 0x0000000000000000u }, /* 5^3 */
	{ 0x9c40000000000000u, 0x0000000000000000u }, /* 5^4 */
	{ 0xc350000000000000u, 0x0000000000000000u }, /* 5^5 */
	{ 0xf424000000000000u, 0x0000000000000000u }, /* 5^6 */
	{ 0x9896800000000000u, 0x0000000000000000u }, /* 5^7 */
	{ 0xbebc200000000000u, 0x0000000000000000u }, /* 5^8 */
	{ 0xee6b280000000000u, 0x0000000000000000u }, /* 5^9 */
	{ 0x9502f90000000000u, 0x0000000000000000u }, /* 5^10 */
	{ 0xba43b74000000000u, 0x0000000000000000u }, /* 5^11 */
	{ 0xe8d4a51000000000u, 0x0000000000000000u }, /* 5^12 */
	{ 0x9184e72a00000000u, 0x0000000000000000u }, /* 5^13 */
	{ 0xb5e620f480000000u, 0x0000000000000000u }, /* 5^14 */
	{ 0xe35fa931a0000000u, 0x0000000000000000u }, /* 5^15 */
	{ 0x8e1bc9bf04000000u, 0x0000000000000000u }, /* 5^16 */
	{ 0xb1a2bc2ec5000000u, 0x0000000000000000u }, /* 5^17 */
	{ 0xde0b6b3a76400000u, 0x0000000000000000u }, /* 5^18 */
	{ 0x8ac7230489e80000u, 0x0000000000000000u }, /* 5^19 */
	{ 0xad78ebc5ac620000u, 0x0000000000000000u }, /* 5^20 */
	{ 0xd8d726b7177a8000u, 0x0000000000000000u }, /* 5^21 */
	{ 0x878678326eac9000u, 0x0000000000000000u }, /* 5^22 */
	{ 0xa968163f0a57b400u, 0x0000000000000000u }, /* 5^23 */
	{ 0xd3c21bcecceda100u, 0x0000000000000000u }, /* 5^24 */
	{ 0x84595161401484a0u, 0x0000000000000000u }, /* 5^25 */
	{ 0xa56fa5b99019a5c8u, 0x0000000000000000u }, /* 5^26 */
	{ 0xcecb8f27f4200f3au, 0x0000000000000000u }, /* 5^27 */
	{ 0x813f3978f8940984u, 0x4000000000000000u }, /* 5^28 */
	{ 0xa18f07d736b90be5u, 0x5000000000000000u }, /* 5^29 */
	{ 0xc9f2c9cd04674edeu, 0xa400000000000000u }, /* 5^30 */
	{ 0xfc6f7c4045812296u, 0x4d00000000000000u }, /* 5^31 */
	{ 0x9dc5ada82b70b59du, 0xf020000000000000u }, /* 5^32 */
	{ 0xc5371912364ce305u, 0x6c28000000000000u }, /* 5^33 */
	{ 0xf684df56c3e01bc6u, 0xc732000000000000u }, /* 5^34 */
	{ 0x9a130b963a6c115cu, 0x3c7f400000000000u }, /* 5^35 */
	{ 0xc097ce7bc90715b3u, 0x4b9f100000000000u }, /* 5^36 */
	{ 0xf0bdc21abb48db20u, 0x1e86d40000000000u }, /* 5^37 */
	{ 0x96769950b50d88f4u, 0x1314448000000000u }, /* 5^38 */
	{ 0xbc143fa4e250eb31u, 0x17d955a000000000u }, /* 5^39 */
	{ 0xeb194f8e1ae525fdu, 0x5dcfab0800000000u }, /* 5^40 */
	{ 0x92efd1b8d0cf37beu, 0x5aa1cae500000000u }, /* 5^41 */
	{ 0xb7abc627050305adu, 0xf14a3d9e40000000u }, /* 5^42 */
	{ 0xe596b7b0c643c719u, 0x6d9ccd05d0000000u }, /* 5^43 */
	{ 0x8f7e32ce7bea5c6fu, 0xe4820023a2000000u }, /* 5^44 */
	{ 0xb35dbf821ae4f38bu, 0xdda2802c8a800000u }, /* 5^45 */
	{ 0xe0352f62a19e306eu, 0xd50b2037ad200000u }, /* 5^46 */
	{ 0x8c213d9da502de45u, 0x4526f422cc340000u }, /* 5^47 */
	{ 0xaf298d050e4395d6u, 0x9670b12b7f410000u }, /* 5^48 */
	{ 0xdaf3f04651d47b4cu, 0x3c0cdd765f114000u }, /* 5^49 */
	{ 0x88d8762bf324cd0fu, 0xa5880a69fb6ac800u }, /* 5^50 */
	{ 0xab0e93b6efee0053u, 0x8eea0d047a457a00u }, /* 5^51 */
	{ 0xd5d238a4abe98068u, 0x72a4904598d6d880u }, /* 5^52 */
	{ 0x85a36366eb71f041u, 0x47a6da2b7f864750u }, /* 5^53 */
	{ 0xa70c3c40a64e6c51u, 0x999090b65f67d924u }, /* 5^54 */
	{ 0xd0cf4b50cfe20765u, 0xfff4b4e3f741cf6du }, /* 5^55 */
	{ 0x82818f1281ed449fu, 0xbff8f10e7a8921a4u }, /* 5^56 */
	{ 0xa321f2d7226895c7u, 0xaff72d52192b6a0du }, /* 5^57 */
	{ 0xcbea6f8ceb02bb39u, 0x9bf4f8a69f764490u }, /* 5^58 */
	{ 0xfee50b7025c36a08u, 0x02f236d04753d5b4u }, /* 5^59 */
	{ 0x9f4f2726179a2245u, 0x01d762422c946590u }, /* 5^60 */
	{ 0xc722f0ef9d80aad6u, 0x424d3ad2b7b97ef5u }, /* 5^61 */
	{ 0xf8ebad2b84e0d58bu, 0xd2e0898765a7deb2u }, /* 5^62 */
	{ 0x9b934c3b330c8577u, 0x63cc55f49f88eb2fu }, /* 5^63 */
	{ 0xc2781f49ffcfa6d5u, 0x3cbf6b71c76b25fbu }, /* 5^64 */
};
#endif

/* A polygon of four or more corners, as parsed: its fan's first triangle
 * and count, and where its f keyword is. */
typedef struct bcObjPolygon {
	int32_t firstTriangle;
	int32_t triangleCount;
	long line;
	long column;
} bcObjPolygon;

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
	bcObjPolygon* polygons;
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

#if BC_OBJ_EIGHT_DIGITS
/* The value of eight ASCII digits, the first in the low byte: pairs, then
 * quadruples, then all eight are combined by multiplications. */
static inline uint64_t eightDigitsValue(uint64_t word)
{
	word -= 0x3030303030303030u;
	word = 10 * word + (word >> 8);
	word = ((word & 0x000000ff000000ffu) * (100 + ((uint64_t)1000000 << 32)) +
			((word >> 16) & 0x000000ff000000ffu) * (1 + ((uint64_t)10000 << 32))) >>
		   32;
	return word;
}

/* The number of zero bits below the lowest set bit of word (not 0). */
static inline int countTrailingZeros(uint64_t word)
{
#if defined(__GNUC__)
	return __builtin_ctzll(word);
#else
	int count = 0;
	while ((word & 1) == 0) {
		word >>= 1;
		++count;
	}
	return count;
#endif
}
#endif

/* Read digits at p into *mantissa (which wraps after 19 digits: the caller
 * counts them); return the first byte after them. Eight bytes at a time
 * while they lie before end: a run of k < 8 digits is shifted to the top of
 * the word, below it come '0's, and the word is read as eight digits. */
static inline const char* readDigits(const char* p, const char* end, uint64_t* mantissa)
{
	uint64_t value = *mantissa;
#if BC_OBJ_EIGHT_DIGITS
	static const uint64_t scales[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
	while (end - p >= 8) {
		uint64_t word;
		memcpy(&word, p, sizeof word);
		/* The top bit of each byte that is not a digit: a digit gives
		 * byte ^ '0' <= 9, which with 0x76 added stays below 0x80. A carry
		 * only comes out of a byte that is not a digit and goes into the
		 * next (later) one, so the lowest flagged byte is the first that is
		 * not a digit. */
		uint64_t offset = word ^ 0x3030303030303030u;
		uint64_t other = ((offset + 0x7676767676767676u) | offset) & 0x8080808080808080u;
		if (other == 0) {
			value = 100000000 * value + eightDigitsValue(word);
			p += 8;
			continue;
		}
		int count = countTrailingZeros(other) >> 3;
		if (count > 0) {
			int shift = 8 * (8 - count);
			word = word << shift | 0x3030303030303030u >> (8 * count);
			value = scales[count] * value + eightDigitsValue(word);
			p += count;
		}
		*mantissa = value;
		return p;
	}
#endif
	while (p < end && isDigit(*p)) {
		value = 10 * value + (uint64_t)(*p - '0');
		++p;
	}
	*mantissa = value;
	return p;
}

#if BC_OBJ_LEMIRE
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 bcObjUint128;

/* The high 64 bits of a * b; the low ones go to *low. */
static inline uint64_t multiplyHigh(uint64_t a, uint64_t b, uint64_t* low)
{
	bcObjUint128 product = (bcObjUint128)a * b;
	*low = (uint64_t)product;
	return (uint64_t)(product >> 64);
}
#else
static inline uint64_t multiplyHigh(uint64_t a, uint64_t b, uint64_t* low)
{
	uint64_t aLow = a & 0xffffffffu, aHigh = a >> 32;
	uint64_t bLow = b & 0xffffffffu, bHigh = b >> 32;
	uint64_t lowLow = aLow * bLow;
	uint64_t highLow = aHigh * bLow;
	uint64_t lowHigh = aLow * bHigh;
	uint64_t middle = (lowLow >> 32) + (highLow & 0xffffffffu) + (lowHigh & 0xffffffffu);
	*low = (middle << 32) | (lowLow & 0xffffffffu);
	return aHigh * bHigh + (highLow >> 32) + (lowHigh >> 32) + (middle >> 32);
}
#endif

static inline int leadingZeros(uint64_t word)
{
#if defined(__GNUC__)
	return __builtin_clzll(word);
#else
	int count = 0;
	while ((word & ((uint64_t)1 << 63)) == 0) {
		word <<= 1;
		++count;
	}
	return count;
#endif
}

/* mantissa * 10^exponent correctly rounded to a double, for mantissa != 0
 * and BC_OBJ_POWER_MIN <= exponent <= BC_OBJ_POWER_MAX, by Eisel and
 * Lemire's algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second",
 * 2021; N. Mushtak and D. Lemire, "Fast Number Parsing Without Fallback",
 * 2023): the mantissa times the 128-bit power of five gives the 55 leading
 * bits needed to round. False (strtod decides) in the one case the first
 * paper leaves open, and for subnormal or infinite results. */
static inline bool lemire(uint64_t mantissa, int exponent, double* value)
{
	int shift = leadingZeros(mantissa);
	uint64_t normalized = mantissa << shift;
	const uint64_t* power = powersOfFive[exponent - BC_OBJ_POWER_MIN];
	uint64_t low;
	uint64_t high = multiplyHigh(normalized, power[0], &low);
	/* The 9 bits below the 55 that matter are all ones: the truncated low
	 * half of the power might carry into them. */
	if ((high & 0x1ff) == 0x1ff) {
		uint64_t ignored;
		uint64_t carry = multiplyHigh(normalized, power[1], &ignored);
		low += carry;
		high += carry > low;
	}
	if (low == UINT64_MAX && (exponent < -27 || exponent > 55)) {
		return false;
	}
	int upper = (int)(high >> 63);
	int drop = upper + 9;
	uint64_t bits = high >> drop;
	/* floor(exponent * log2(10)) + 63 as 217706 / 2^16, kept non-negative
	 * for the shift (32768 * 217706 / 65536 = 108853 exactly); plus the
	 * double's exponent bias 1023. */
	int binary = (int)(((int64_t)217706 * (exponent + 32768)) >> 16) - 108853 + 63 + upper - shift + 1023;
	if (binary <= 0) {
		return false;
	}
	/* Exactly halfway between two doubles (possible only where 5^exponent
	 * is exact in 64 bits): round to even rather than up. */
	if (low <= 1 && exponent >= -4 && exponent <= 23 && (bits & 3) == 1 && (bits << drop) == high) {
		bits &= ~(uint64_t)1;
	}
	bits += bits & 1;
	bits >>= 1;
	if (bits >= (uint64_t)2 << 52) {
		bits = (uint64_t)1 << 52;
		binary += 1;
	}
	if (binary >= 0x7ff) {
		return false;
	}
	uint64_t word = (bits & ~((uint64_t)1 << 52)) | (uint64_t)binary << 52;
	memcpy(value, &word, sizeof *value);
	return true;
}
#endif

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
	p = readDigits(p, end, &mantissa);
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
		p = readDigits(p, end, &mantissa);
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
#if BC_OBJ_LEMIRE
	else if (exponent >= BC_OBJ_POWER_MIN && exponent <= BC_OBJ_POWER_MAX) {
		if (!lemire(mantissa, exponent, &result)) {
			return false;
		}
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
	p = readDigits(p, end, &digitsValue);
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
			quoteToken(quoted, sizeof quoted, start, digitsEnd);
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
		bcObjPolygon* polygon = parser->polygons + parser->polygonCount++;
		polygon->firstTriangle = firstTriangle;
		polygon->triangleCount = triangles;
		polygon->line = line;
		polygon->column = column;
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

/* The arrays of a parsed text, ready for a mesh (malloc'd; whoever holds
 * them frees them). */
typedef struct bcObjArrays {
	bcVec3* vertices;
	int32_t vertexCount;
	int32_t* triangles;
	int32_t triangleCount;
	int32_t* faceIds;
	int32_t faceCount;
	bcWarning* warnings; /* the first min(warningCount, BC_MAX_WARNINGS) */
	int32_t warningCount;
} bcObjArrays;

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
	bcObjArrays* joined;
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
	free(parser->vertices);
	free(parser->triangles);
	free(parser->faceIds);
	free(parser->relativeSlots);
	free(parser->polygons);
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

/* Cut [text, end) into at most count (<= BC_MESH_MAX_THREADS) pieces of about
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
	bcObjArrays* joined = job->joined;
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
static bool joinPieces(bcObjPiece* pieces, int count, bcObjArrays* joined, bcError* error)
{
	const bcObjPiece* last = pieces + count - 1;
	size_t vertexCount = (size_t)last->vertexBase + (size_t)last->parser.vertexCount;
	size_t triangleCount = (size_t)last->triangleBase + (size_t)last->parser.triangleCount;
	bcObjParser* first = &pieces[0].parser;
	void* vertices = realloc(first->vertices, (vertexCount > 0 ? vertexCount : 1) * sizeof *first->vertices);
	if (vertices != NULL) {
		first->vertices = vertices;
	}
	void* triangles = realloc(first->triangles, 3 * triangleCount * sizeof *first->triangles);
	if (triangles != NULL) {
		first->triangles = triangles;
	}
	void* faceIds = realloc(first->faceIds, triangleCount * sizeof *first->faceIds);
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
static bool gatherPolygons(const bcObjPiece* pieces, int count, bcObjPolygon** polygons, size_t* polygonCount,
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
	bcObjPolygon* all = malloc(total * sizeof *all);
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

/* Keep a warning about a polygon (the first BC_MAX_WARNINGS in full,
 * counting all); false when out of memory. */
static bool addWarning(bcObjArrays* arrays, int32_t* capacity, bcWarningCode code, const bcObjPolygon* polygon,
					   const char* message)
{
	if (arrays->warningCount < BC_MAX_WARNINGS) {
		if (arrays->warningCount == *capacity) {
			int32_t grown = *capacity == 0 ? 16 : 2 * *capacity;
			grown = grown > BC_MAX_WARNINGS ? BC_MAX_WARNINGS : grown;
			bcWarning* warnings = realloc(arrays->warnings, (size_t)grown * sizeof *warnings);
			if (warnings == NULL) {
				return false;
			}
			arrays->warnings = warnings;
			*capacity = grown;
		}
		bcWarning* w = arrays->warnings + arrays->warningCount;
		memset(w, 0, sizeof *w);
		w->code = code;
		w->line = polygon->line;
		w->column = polygon->column;
		w->record = arrays->faceIds[polygon->firstTriangle];
		snprintf(w->message, sizeof w->message, "%s", message);
	}
	arrays->warningCount += 1;
	return true;
}

/* Below this many polygons per thread, a thread costs more than it saves
 * (a quadrilateral takes about 0.1 us; a thread about 20 us to start). */
#define BC_OBJ_MIN_POLYGONS_PER_THREAD 16384

/* The polygons' second look, shared by the threads: each takes a range of
 * them and writes its triangles (disjoint places) and their shapes. */
typedef struct bcObjCutJob {
	bcObjArrays* arrays;
	const bcObjPolygon* polygons;
	size_t count;
	int taskCount;
	unsigned char* shapes;  /* per polygon: bcPolygonShape */
	double* deviations;     /* per polygon */
	bool outOfMemory[BC_MESH_MAX_THREADS];
} bcObjCutJob;

static void cutPolygonsTask(int index, int end, int worker, void* context)
{
	(void)end;
	(void)worker;
	bcObjCutJob* job = context;
	size_t first = job->count * (size_t)index / (size_t)job->taskCount;
	size_t last = job->count * (size_t)(index + 1) / (size_t)job->taskCount;
	bcPolygonScratch scratch = { 0 };
	int32_t* corners = NULL;
	int32_t cornerCapacity = 0;
	for (size_t i = first; i < last; ++i) {
		const bcObjPolygon* polygon = job->polygons + i;
		int32_t k = polygon->triangleCount + 2;
		if (k > cornerCapacity) {
			int32_t* grown = realloc(corners, (size_t)k * sizeof *grown);
			if (grown == NULL) {
				job->outOfMemory[index] = true;
				break;
			}
			corners = grown;
			cornerCapacity = k;
		}
		/* the fan (v0 v1 v2), (v0 v2 v3), ... holds the corners in order */
		int32_t* t = job->arrays->triangles + 3 * (size_t)polygon->firstTriangle;
		corners[0] = t[0];
		corners[1] = t[1];
		for (int32_t j = 0; j < polygon->triangleCount; ++j) {
			corners[j + 2] = t[3 * j + 2];
		}
		bcPolygonShape shape;
		if (!bcTriangulatePolygon(job->arrays->vertices, corners, k, t, &scratch, &shape, job->deviations + i)) {
			job->outOfMemory[index] = true;
			break;
		}
		job->shapes[i] = (unsigned char)shape;
	}
	free(corners);
	bcPolygonScratch_Free(&scratch);
}

/* Look at every polygon again now that its vertices are known
 * (lib/polygon.c), on up to threadCount threads: a concave one is cut by
 * ear clipping in its fan's places; a non-planar or self-intersecting one
 * keeps its fan and is warned about, in file order. False (error filled)
 * when out of memory. */
static bool triangulatePolygons(bcObjArrays* arrays, const bcObjPolygon* polygons, size_t count, int threadCount,
								bcError* error)
{
	if (count == 0) {
		return true;
	}
	bcObjCutJob job;
	memset(&job, 0, sizeof job);
	job.arrays = arrays;
	job.polygons = polygons;
	job.count = count;
	job.shapes = malloc(count * sizeof *job.shapes);
	job.deviations = malloc(count * sizeof *job.deviations);
	bool ok = job.shapes != NULL && job.deviations != NULL;
	if (ok) {
		size_t useful = count / BC_OBJ_MIN_POLYGONS_PER_THREAD;
		int tasks = bcResolveThreadCount(threadCount);
		job.taskCount = (size_t)tasks > useful ? (useful > 1 ? (int)useful : 1) : tasks;
		bcParallelFor(job.taskCount, 1, job.taskCount, cutPolygonsTask, &job);
		for (int i = 0; i < job.taskCount; ++i) {
			ok = ok && !job.outOfMemory[i];
		}
	}
	int32_t warningCapacity = 0;
	for (size_t i = 0; ok && i < count; ++i) {
		char message[sizeof arrays->warnings->message];
		long corners = (long)polygons[i].triangleCount + 2;
		if (job.shapes[i] == bc_polygonNonPlanar) {
			snprintf(message, sizeof message,
					 "a polygon of %ld corners is not planar (a corner %.2g of its size off its plane): cut as a fan",
					 corners, job.deviations[i]);
			ok = addWarning(arrays, &warningCapacity, bc_warningNonPlanar, polygons + i, message);
		} else if (job.shapes[i] == bc_polygonSelfIntersecting) {
			snprintf(message, sizeof message, "a polygon of %ld corners intersects itself: cut as a fan", corners);
			ok = addWarning(arrays, &warningCapacity, bc_warningSelfIntersecting, polygons + i, message);
		}
	}
	free(job.shapes);
	free(job.deviations);
	if (!ok) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory cutting polygons into triangles");
	}
	return ok;
}

/* Parse text on up to threadCount threads (<= 0: one per core) into
 * *arrays; on failure error is filled and false returned. */
static bool parseObj(const char* text, size_t length, int threadCount, bcObjArrays* arrays, bcError* error)
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
	int count = bcResolveThreadCount(threadCount);
	size_t most = length / (size_t)BC_OBJ_MIN_PIECE_BYTES;
	if ((size_t)count > most) {
		count = most > 1 ? (int)most : 1;
	}
	const char* starts[BC_MESH_MAX_THREADS + 1];
	count = cutText(text, text + length, count, starts);
	bcObjPiece* pieces = calloc((size_t)count, sizeof *pieces);
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
	bcObjPolygon* polygons = NULL;
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
	free(pieces);
	if (ok) {
		ok = triangulatePolygons(arrays, polygons, polygonCount, threadCount, error);
		if (!ok) {
			free(arrays->vertices);
			free(arrays->triangles);
			free(arrays->faceIds);
			free(arrays->warnings);
			memset(arrays, 0, sizeof *arrays);
		}
	}
	free(polygons);
	return ok;
}

/* Hand parsed arrays to a new mesh, with the warnings. */
static bcMesh* adoptArrays(const bcObjArrays* arrays, int threadCount, bcError* error)
{
	bcMesh* mesh = bcMesh_Adopt(arrays->vertices, arrays->vertexCount, arrays->triangles, arrays->triangleCount,
								arrays->faceIds, arrays->faceCount, threadCount, error);
	if (mesh == NULL) {
		free(arrays->warnings);
		return NULL;
	}
	mesh->warnings = arrays->warnings;
	mesh->warningCount = arrays->warningCount;
	return mesh;
}

bcObjOptions bcDefaultObjOptions(void)
{
	bcObjOptions options = { 0 };
	return options;
}

bcMesh* bcMesh_ParseObjWithOptions(const char* text, size_t length, const bcObjOptions* options, bcError* error)
{
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	bcObjArrays arrays;
	if (!parseObj(text, length, settings.threadCount, &arrays, error)) {
		return NULL;
	}
	return adoptArrays(&arrays, settings.threadCount, error);
}

bcMesh* bcMesh_ParseObj(const char* text, size_t length, bcError* error)
{
	return bcMesh_ParseObjWithOptions(text, length, NULL, error);
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

bcMesh* bcMesh_LoadObjWithOptions(const char* path, const bcObjOptions* options, bcError* error)
{
	if (path == NULL) {
		bcSetError(error, bc_errorIo, 0, 0, "no file name given");
		return NULL;
	}
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	bcObjFile file;
	if (!openFile(path, &file, error)) {
		return NULL;
	}
	bcObjArrays arrays;
	bool ok = parseObj(file.text, file.length, settings.threadCount, &arrays, error);
	closeFile(&file); /* before the mesh's own arrays are allocated */
	return ok ? adoptArrays(&arrays, settings.threadCount, error) : NULL;
}

bcMesh* bcMesh_LoadObj(const char* path, bcError* error)
{
	return bcMesh_LoadObjWithOptions(path, NULL, error);
}
