/* decimal.c - the one decimal number parser (decimal.h): Clinger's fast
 * path, then Eisel and Lemire's, with strtod left for the rest. */
#include "decimal.h"

#include <float.h>
#include <stddef.h>
#include <stdlib.h>

#include "core.h"

/* The fast number path gathers at most this many significant digits into a
 * uint64_t (10^19 - 1 < 2^64); longer mantissas go to strtod. */
#define BC_DECIMAL_FAST_DIGITS 19

/* Written exponents are accumulated up to this magnitude, and fractions of
 * more digits go to strtod: anything beyond is far outside the double range
 * (and no int overflows). */
#define BC_DECIMAL_EXPONENT_CAP 100000

/* Clinger's fast path needs double arithmetic done in double precision. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define BC_DECIMAL_CLINGER 1
#else
#define BC_DECIMAL_CLINGER 0
#endif

/* Eisel and Lemire's path builds the bits of an IEEE binary64 double. */
#if DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024 && FLT_RADIX == 2
#define BC_DECIMAL_LEMIRE 1
#else
#define BC_DECIMAL_LEMIRE 0
#endif

/* The decimal exponents (of the integer mantissa: 1.25 is 125e-2) that
 * Eisel and Lemire's path takes: a table entry each. -64 .. 64 covers every
 * coordinate of up to 19 digits from about 1e-64 to 1e83, which is any
 * mesh's; the rest goes to strtod. */
#define BC_DECIMAL_POWER_MIN (-64)
#define BC_DECIMAL_POWER_MAX 64

/* 10^0 .. 10^22, all exact in a double. */
static const double powersOfTen[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if BC_DECIMAL_LEMIRE
/* 5^q for q = BC_DECIMAL_POWER_MIN .. BC_DECIMAL_POWER_MAX as 128 bits {high, low},
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

#if BC_DECIMAL_LEMIRE
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 bcDecimalUint128;

/* The high 64 bits of a * b; the low ones go to *low. */
static inline uint64_t multiplyHigh(uint64_t a, uint64_t b, uint64_t* low)
{
	bcDecimalUint128 product = (bcDecimalUint128)a * b;
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
 * and BC_DECIMAL_POWER_MIN <= exponent <= BC_DECIMAL_POWER_MAX, by Eisel and
 * Lemire's algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second",
 * 2021; N. Mushtak and D. Lemire, "Fast Number Parsing Without Fallback",
 * 2023): the mantissa times the 128-bit power of five gives the 55 leading
 * bits needed to round. False (strtod decides) in the one case the first
 * paper leaves open, and for subnormal or infinite results. */
static inline bool lemire(uint64_t mantissa, int exponent, double* value)
{
	int shift = leadingZeros(mantissa);
	uint64_t normalized = mantissa << shift;
	const uint64_t* power = powersOfFive[exponent - BC_DECIMAL_POWER_MIN];
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

bool bcParseDecimal(const char** cursor, const char* end, double* value)
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
	p = bcReadDigits(p, end, &mantissa);
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
		p = bcReadDigits(p, end, &mantissa);
		if (p - fraction > BC_DECIMAL_EXPONENT_CAP) {
			return false;
		}
		exponent = -(int)(p - fraction);
		digits += p - significant;
		sawDigit = sawDigit || p > fraction;
	}
	if (!sawDigit || digits > BC_DECIMAL_FAST_DIGITS) {
		return false;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		++p;
		bool negativeExponent = false;
		if (p < end && (*p == '-' || *p == '+')) {
			negativeExponent = *p == '-';
			++p;
		}
		if (p == end || !bcIsDecimalDigit(*p)) {
			return false;
		}
		int written = 0;
		while (p < end && bcIsDecimalDigit(*p)) {
			if (written < BC_DECIMAL_EXPONENT_CAP) {
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
#if BC_DECIMAL_CLINGER
	/* Clinger: mantissa and 10^|e| are exact doubles, so one correctly
	 * rounded multiply or divide gives the correctly rounded result. */
	else if (mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22) {
		result = (double)mantissa;
		result = exponent >= 0 ? result * powersOfTen[exponent] : result / powersOfTen[-exponent];
	}
#endif
#if BC_DECIMAL_LEMIRE
	else if (exponent >= BC_DECIMAL_POWER_MIN && exponent <= BC_DECIMAL_POWER_MAX) {
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

/* A number this long or shorter is copied to the stack for strtod; a
 * longer one (hundreds of digits: rare) to the heap. */
#define BC_DECIMAL_STACK_COPY 128

bool bcParseDouble(const char* text, size_t length, double* value)
{
	if (text == NULL || length == 0) {
		return false;
	}
	const char* cursor = text;
	double fast = 0.0;
	if (bcParseDecimal(&cursor, text + length, &fast) && cursor == text + length) {
		*value = fast;
		return true;
	}
	char stack[BC_DECIMAL_STACK_COPY + 1];
	char* copy = length <= BC_DECIMAL_STACK_COPY ? stack : bcAlloc(length + 1);
	if (copy == NULL) {
		return false;
	}
	memcpy(copy, text, length);
	copy[length] = '\0';
	char* end = NULL;
	double slow = strtod(copy, &end);
	bool whole = end == copy + length;
	if (copy != stack) {
		bcFree(copy);
	}
	if (whole) {
		*value = slow;
	}
	return whole;
}
