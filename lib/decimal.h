/* decimal.h - the one decimal number parser, shared by the OBJ reader
 * (lib/obj.c) and the command's JSON and CSV readers (cli/json_stream.c,
 * cli/csv.c). Private to the library; the command reaches it through this
 * header (it links the static library). */
#ifndef BC_DECIMAL_H
#define BC_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Is c one of 0 .. 9? */
static inline bool bcIsDecimalDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Eight digits at a time need the bytes of a uint64_t in text order from
 * the least significant one. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BC_DECIMAL_EIGHT_DIGITS 1
#else
#define BC_DECIMAL_EIGHT_DIGITS 0
#endif

#if BC_DECIMAL_EIGHT_DIGITS
/* The value of eight ASCII digits, the first in the low byte: pairs, then
 * quadruples, then all eight are combined by multiplications. */
static inline uint64_t bcEightDigitsValue(uint64_t word)
{
	word -= 0x3030303030303030u;
	word = 10 * word + (word >> 8);
	word = ((word & 0x000000ff000000ffu) * (100 + ((uint64_t)1000000 << 32)) +
			((word >> 16) & 0x000000ff000000ffu) * (1 + ((uint64_t)10000 << 32))) >>
		   32;
	return word;
}

/* The number of zero bits below the lowest set bit of word (not 0). */
static inline int bcCountTrailingZeros(uint64_t word)
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
static inline const char* bcReadDigits(const char* p, const char* end, uint64_t* mantissa)
{
	uint64_t value = *mantissa;
#if BC_DECIMAL_EIGHT_DIGITS
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
			value = 100000000 * value + bcEightDigitsValue(word);
			p += 8;
			continue;
		}
		int count = bcCountTrailingZeros(other) >> 3;
		if (count > 0) {
			int shift = 8 * (8 - count);
			word = word << shift | 0x3030303030303030u >> (8 * count);
			value = scales[count] * value + bcEightDigitsValue(word);
			p += count;
		}
		*mantissa = value;
		return p;
	}
#endif
	while (p < end && bcIsDecimalDigit(*p)) {
		value = 10 * value + (uint64_t)(*p - '0');
		++p;
	}
	*mantissa = value;
	return p;
}

/* Read a decimal number [+-]digits[.digits][(e|E)[+-]digits] at *cursor
 * (before end) and move *cursor past it, when the result is certainly the
 * double strtod gives in the C locale (correctly rounded): up to 19
 * significant digits and a decimal exponent within reach of the fast
 * paths (Clinger's, then Eisel and Lemire's). Returns false, leaving
 * *cursor and *value alone, otherwise: then ask strtod. Reads nothing
 * past end and stops at the first byte that cannot continue the number;
 * the caller checks that the token ends there. */
bool bcParseDecimal(const char** cursor, const char* end, double* value);

#endif
