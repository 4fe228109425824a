/* numfmt.c - tests for cliFormatDouble: exact examples, the output style,
 * exact round trip through strtod, and shortness against glibc's correctly
 * rounded printf on edge values and a million random bit patterns. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "numfmt.h"

enum {
	maxDigits = 17,               /* a double never needs more significant digits */
	plainMinExponent = -5,        /* numfmt.h: plain digits for -5 <= e < 17 */
	plainEndExponent = 17,
	randomChunks = 10,            /* the random tests run as this many loop tests */
	randomPerChunk = 100000,      /* ... of this many values each: 10^6 in all */
	decimalsPerChunk = 10000,      /* random short decimals per chunk */
	randomTimeoutSeconds = 60     /* per chunk, generous for sanitizer builds */
};

/* Fail with a message unless cond. Plain ck_assert_msg records a check
 * point on every pass, far too slow for millions of values. */
#define numfmtRequire(cond, ...)                                                                                       \
	do {                                                                                                               \
		if (!(cond)) {                                                                                                 \
			ck_abort_msg(__VA_ARGS__);                                                                                 \
		}                                                                                                              \
	} while (0)

static const uint64_t randomSeed = UINT64_C(0x6e756d666d742121);

/* splitmix64: a small deterministic generator, state passed explicitly. */
static uint64_t nextRandom(uint64_t* state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t doubleBits(double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof bits);
	return bits;
}

static double bitsDouble(uint64_t bits)
{
	double value;
	memcpy(&value, &bits, sizeof value);
	return value;
}

/* Whether text reads back (strtod, whole string) as exactly value. */
static bool roundTrips(const char* text, double value)
{
	char* end;
	double back = strtod(text, &end);
	return *end == '\0' && doubleBits(back) == doubleBits(value);
}

/* A decimal number reduced to its significant digits (no leading or
 * trailing zeros) and the exponent e of d.ddd x 10^e. */
typedef struct decimalForm {
	char digits[64];
	int count;
	int exponent;
} decimalForm;

/* Reduce any decimal text strtod accepts without hex/inf/nan ("-0.00120",
 * "1.5e+300", "12300") to its decimalForm; zero has count 0. */
static decimalForm reduceDecimal(const char* text)
{
	decimalForm form = { { 0 }, 0, 0 };
	const char* s = text;
	if (*s == '-' || *s == '+') {
		++s;
	}
	int beforePoint = 0;
	bool seenPoint = false;
	bool leading = true;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; ++s) {
		if (*s == '.') {
			seenPoint = true;
			continue;
		}
		if (leading && *s == '0') {
			if (seenPoint) {
				--beforePoint;
			}
			continue;
		}
		leading = false;
		if (!seenPoint) {
			++beforePoint;
		}
		if (form.count < (int)sizeof form.digits - 1) {
			form.digits[form.count++] = *s;
		}
	}
	if (*s == 'e' || *s == 'E') {
		beforePoint += (int)strtol(s + 1, NULL, 10);
	}
	while (form.count > 0 && form.digits[form.count - 1] == '0') {
		--form.count;
	}
	form.digits[form.count] = '\0';
	form.exponent = form.count > 0 ? beforePoint - 1 : 0;
	return form;
}

static bool sameDecimal(decimalForm a, decimalForm b)
{
	return a.count == b.count && a.exponent == b.exponent && strcmp(a.digits, b.digits) == 0;
}

static bool isDigit(char c)
{
	return c >= '0' && c <= '9';
}

/* Check text against the style of numfmt.h for a finite value: JSON number
 * grammar, plain for -5 <= e < 17 else d.ddde±XX, no trailing zeros in a
 * fraction, no trailing point, no '+' mantissa sign. */
static void checkStyle(const char* text, double value)
{
	const char* s = text;
	if (*s == '-') {
		++s;
	}
	numfmtRequire(isDigit(*s), "%s: must start with a digit", text);
	decimalForm form = reduceDecimal(text);
	const char* e = strchr(s, 'e');
	const char* point = strchr(s, '.');
	const char* mantissaEnd = e != NULL ? e : s + strlen(s);
	for (const char* c = s; c < mantissaEnd; ++c) {
		if (!isDigit(*c) && c != point) {
			ck_abort_msg("%s: stray character '%c'", text, *c);
		}
	}
	if (point != NULL) {
		if (point + 1 >= mantissaEnd || mantissaEnd[-1] == '0') {
			ck_abort_msg("%s: empty fraction or trailing zero in the fraction", text);
		}
	}
	if (value == 0) {
		numfmtRequire(strcmp(s, "0") == 0, "%s: zero must be \"0\" or \"-0\"", text);
		return;
	}
	if (e == NULL) {
		numfmtRequire(form.exponent >= plainMinExponent && form.exponent < plainEndExponent,
					  "%s: exponent %d must be scientific", text, form.exponent);
		if (s[0] == '0') {
			numfmtRequire(s[1] == '.', "%s: leading zero", text);
		}
		return;
	}
	numfmtRequire(form.exponent < plainMinExponent || form.exponent >= plainEndExponent,
				  "%s: exponent %d must be plain", text, form.exponent);
	numfmtRequire(s[0] != '0' && (s + 1 == mantissaEnd || s + 1 == point), "%s: mantissa must be d[.ddd]", text);
	char sign = e[1];
	numfmtRequire(sign == (form.exponent < 0 ? '-' : '+'), "%s: exponent sign", text);
	const char* exponentDigits = e + 2;
	size_t length = strlen(exponentDigits);
	size_t wantLength = abs(form.exponent) >= 100 ? 3 : 2;
	numfmtRequire(length == wantLength && strspn(exponentDigits, "0123456789") == length,
				  "%s: exponent needs exactly %zu digits", text, wantLength);
}

/* Given printf's correctly rounded text of value at some digit count, the
 * number of that many digits adjacent to it on the other side of value
 * (magnitudes: the result has no sign), as text (into text[size]) and reduced. */
static decimalForm otherNeighbour(const char* rounded, double value, char* text, size_t size)
{
	/* rounded is printf's "[-]d.ddde±XX": take all its digits as one integer */
	uint64_t integer = 0;
	int count = 0;
	const char* s = rounded;
	for (; *s != '\0' && *s != 'e'; ++s) {
		if (isDigit(*s)) {
			integer = integer * 10 + (uint64_t)(*s - '0');
			++count;
		}
	}
	int exponent = *s == 'e' ? (int)strtol(s + 1, NULL, 10) : 0;
	double back = strtod(rounded, NULL);
	integer = fabs(back) > fabs(value) ? integer - 1 : integer + 1;
	snprintf(text, size, "%" PRIu64 "e%d", integer, exponent - (count - 1));
	return reduceDecimal(text);
}

/* Shortness where the rounding interval is symmetric (value not a power of
 * two): printf's p-digit rounding must round-trip and match the output
 * digit for digit, and its (p-1)-digit rounding must not round-trip. Since
 * the nearest p-digit number is inside a symmetric interval whenever any
 * is, that is "no shorter string exists, and this is the nearest". */
static void checkShortestSymmetric(double value, const char* text, decimalForm form)
{
	char rounded[64];
	snprintf(rounded, sizeof rounded, "%.*e", form.count - 1, value);
	if (!roundTrips(rounded, value) || !sameDecimal(reduceDecimal(rounded), form)) {
		ck_abort_msg("%.17g: got %s, %%.%de gives %s", value, text, form.count - 1, rounded);
	}
	if (form.count > 1) {
		snprintf(rounded, sizeof rounded, "%.*e", form.count - 2, value);
		if (roundTrips(rounded, value)) {
			ck_abort_msg("%.17g: got %s, shorter %s also reads back", value, text, rounded);
		}
	}
}

/* Shortness for any value, asymmetric interval included: neither (p-1)-digit
 * number next to value round-trips; of the p-digit ones the nearest is
 * output if it round-trips, else its neighbour on the other side. */
static void checkShortestAnyInterval(double value, const char* text, decimalForm form)
{
	char rounded[64];
	snprintf(rounded, sizeof rounded, "%.*e", form.count - 1, value);
	char otherText[64];
	decimalForm want = roundTrips(rounded, value) ? reduceDecimal(rounded)
												  : otherNeighbour(rounded, value, otherText, sizeof otherText);
	if (!sameDecimal(want, form)) {
		ck_abort_msg("%.17g: got %s, want digits %s e%d", value, text, want.digits, want.exponent);
	}
	if (form.count > 1) {
		snprintf(rounded, sizeof rounded, "%.*e", form.count - 2, value);
		otherNeighbour(rounded, value, otherText, sizeof otherText);
		if (roundTrips(rounded, value) || roundTrips(otherText, value)) {
			ck_abort_msg("%.17g: got %s, a shorter one reads back", value, text);
		}
	}
}

/* Format value and check length, style, exact round trip and shortness. */
static void checkValue(double value)
{
	char buffer[CLI_NUMFMT_SIZE + 8];
	memset(buffer, 'x', sizeof buffer);
	int length = cliFormatDouble(value, buffer);
	if (length <= 0 || length >= CLI_NUMFMT_SIZE || (size_t)length != strlen(buffer)) {
		ck_abort_msg("%.17g: length %d for \"%.*s\"", value, length, CLI_NUMFMT_SIZE, buffer);
	}
	if (!roundTrips(buffer, value)) {
		ck_abort_msg("%.17g (bits %016" PRIx64 "): %s does not read back", value, doubleBits(value), buffer);
	}
	checkStyle(buffer, value);
	if (value == 0) {
		return;
	}
	decimalForm form = reduceDecimal(buffer);
	if (form.count < 1 || form.count > maxDigits) {
		ck_abort_msg("%.17g: %s has %d digits", value, buffer, form.count);
	}
	uint64_t bits = doubleBits(value);
	bool powerOfTwo = (bits & ((UINT64_C(1) << 52) - 1)) == 0;
	if (powerOfTwo) {
		checkShortestAnyInterval(value, buffer, form);
	} else {
		checkShortestSymmetric(value, buffer, form);
	}
}

static void checkExact(double value, const char* want)
{
	char buffer[CLI_NUMFMT_SIZE];
	int length = cliFormatDouble(value, buffer);
	ck_assert_msg(strcmp(buffer, want) == 0, "%.17g: got \"%s\", want \"%s\"", value, buffer, want);
	ck_assert_int_eq(length, (int)strlen(want));
}

static const struct {
	double value;
	const char* text;
} examples[] = {
	{ 0.0, "0" },
	{ -0.0, "-0" },
	{ 1.0, "1" },
	{ 0.1, "0.1" },
	{ 1.5, "1.5" },
	{ 100.0, "100" },
	{ 1e16, "10000000000000000" },
	{ 1e17, "1e+17" },
	{ 123456789012345680.0, "1.2345678901234568e+17" },
	{ 1e-5, "0.00001" },
	{ 1e-6, "1e-06" },
	{ 5e-324, "5e-324" },
	{ 1.7976931348623157e308, "1.7976931348623157e+308" },
	{ 2.2250738585072014e-308, "2.2250738585072014e-308" },
	{ 0.30000000000000004, "0.30000000000000004" },
	/* beyond the brief: more style corners */
	{ 123.456, "123.456" },
	{ 0.001, "0.001" },
	{ 1.25e-5, "0.0000125" },
	{ 9.5e-6, "9.5e-06" },
	{ 99999999999999990.0, "99999999999999980" },
	{ 1.25e300, "1.25e+300" },
	{ 1e100, "1e+100" },
	{ 1e-100, "1e-100" },
	{ 1e22, "1e+22" },
	{ 1e23, "1e+23" },
	{ 2.5, "2.5" },
	{ 9007199254740992.0, "9007199254740992" },
	{ 9007199254740993.0, "9007199254740992" },
	{ 18014398509481984.0, "18014398509481984" },
	{ 4.9406564584124654e-324 * 3, "1.5e-323" },
	{ 2.2250738585072009e-308, "2.225073858507201e-308" },
};

START_TEST(examplesExact)
{
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; ++i) {
		checkExact(examples[i].value, examples[i].text);
		checkValue(examples[i].value);
		if (examples[i].value != 0) {
			char negative[CLI_NUMFMT_SIZE + 1];
			snprintf(negative, sizeof negative, "-%s", examples[i].text);
			checkExact(-examples[i].value, negative);
			checkValue(-examples[i].value);
		}
	}
}
END_TEST

START_TEST(nonFiniteIsNull)
{
	checkExact(HUGE_VAL, "null");
	checkExact(-HUGE_VAL, "null");
	checkExact(NAN, "null");
	checkExact(-NAN, "null");
	checkExact(bitsDouble(UINT64_C(0x7ff0000000000001)), "null");
}
END_TEST

START_TEST(powersOfTwo)
{
	for (int e = -1074; e <= 1023; ++e) {
		double value = ldexp(1.0, e);
		numfmtRequire(value != 0 && isfinite(value), "2^%d", e);
		checkValue(value);
		checkValue(-value);
		/* the neighbours of a power of two have the uneven gap on one side */
		checkValue(nextafter(value, 0.0));
		checkValue(nextafter(value, HUGE_VAL));
	}
}
END_TEST

START_TEST(subnormalsAndLimits)
{
	checkValue(DBL_MIN);
	checkValue(DBL_MAX);
	checkValue(-DBL_MAX);
	checkValue(DBL_EPSILON);
	checkValue(nextafter(DBL_MIN, 0.0));         /* largest subnormal */
	checkValue(nextafter(DBL_MIN, 1.0));
	checkValue(nextafter(DBL_MAX, 0.0));
	/* the smallest 10000 subnormals, and ones with few bits set */
	for (uint64_t bits = 1; bits <= 10000; ++bits) {
		checkValue(bitsDouble(bits));
	}
	for (int i = 0; i < 52; ++i) {
		for (int j = 0; j <= i; ++j) {
			checkValue(bitsDouble((UINT64_C(1) << i) | (UINT64_C(1) << j)));
			checkValue(bitsDouble((UINT64_C(1) << 52) - 1 - (UINT64_C(1) << i)));
		}
	}
	uint64_t state = randomSeed ^ 1;
	for (int i = 0; i < 30000; ++i) {
		checkValue(bitsDouble(nextRandom(&state) & ((UINT64_C(1) << 52) - 1)));
	}
}
END_TEST

/* Check fraction (52 bits) at every biased exponent in [low, high]. */
static void checkExponents(uint64_t fraction, uint64_t low, uint64_t high)
{
	for (uint64_t biased = low; biased <= high; ++biased) {
		checkValue(bitsDouble((biased << 52) | fraction));
	}
}

/* The rare exact cases: significands m2 for which 4 m2 (the value), 4 m2 + 2
 * or 4 m2 - 2 (the interval bounds) is a multiple of a large power of 5, or
 * that end in many zero bits, at the binary exponents where the scaled
 * products come out exact, so the dropped digits are exactly zero or a tie. */
START_TEST(exactProducts)
{
	const uint64_t hidden = UINT64_C(1) << 52;
	for (int q = 1; q <= 23; ++q) {
		uint64_t power = 1;
		for (int k = 0; k < q; ++k) {
			power *= 5;
		}
		uint64_t inverse4 = 0; /* 4 x inverse4 == 1 mod 5^q */
		for (uint64_t k = 1; k <= 3; ++k) {
			if ((power * k + 1) % 4 == 0) {
				inverse4 = (power * k + 1) / 4;
			}
		}
		uint64_t twoOver4 = (2 * inverse4) % power;
		const uint64_t residues[3] = { 0, twoOver4, (power - twoOver4) % power };
		for (int r = 0; r < 3; ++r) {
			for (uint64_t step = 0; step < 2; ++step) {
				uint64_t normal = hidden + (residues[r] + power - hidden % power) % power + step * power;
				if (normal < 2 * hidden) {
					checkExponents(normal - hidden, 1000, 1160);
				}
				uint64_t subnormal = residues[r] + step * power;
				if (subnormal != 0 && subnormal < hidden) {
					checkValue(bitsDouble(subnormal));
				}
			}
		}
	}
	for (int shift = 0; shift < 52; ++shift) {
		for (uint64_t odd = 1; odd <= 7; odd += 2) {
			uint64_t fraction = (odd << shift) & (hidden - 1);
			checkExponents(fraction, 960, 1080);
		}
	}
}
END_TEST

START_TEST(integers)
{
	const double twoTo53 = 9007199254740992.0;
	char buffer[CLI_NUMFMT_SIZE];
	char want[64];
	uint64_t state = randomSeed ^ 2;
	for (int i = 0; i < 64001; ++i) {
		double value;
		if (i < 30000) {
			value = (double)i;
		} else if (i < 34001) {
			value = twoTo53 + (double)(i - 32000); /* the doubles around 2^53 */
		} else {
			uint64_t shift = 11 + nextRandom(&state) % 53;
			value = (double)(nextRandom(&state) >> shift);
		}
		checkValue(value);
		checkValue(-value);
		if (value <= twoTo53) {
			/* an integer up to 2^53 is exactly its own digits */
			cliFormatDouble(value, buffer);
			snprintf(want, sizeof want, "%.0f", value);
			numfmtRequire(strcmp(buffer, want) == 0, "%s, want %s", buffer, want);
		}
	}
	for (int e = 0; e <= 22; ++e) {
		checkValue(pow(10.0, e));
		checkValue(pow(10.0, -e));
	}
}
END_TEST

/* 10^6 random finite bit patterns, in randomChunks loop iterations. */
START_TEST(randomBitPatterns)
{
	uint64_t state = randomSeed + (uint64_t)_i;
	for (int n = 0; n < randomPerChunk;) {
		double value = bitsDouble(nextRandom(&state));
		if (!isfinite(value)) {
			continue;
		}
		checkValue(value);
		++n;
	}
}
END_TEST

/* Random short decimals ("4.37e-12"): their output can only be as short or
 * shorter, which exercises the exact-trailing-zeros paths. */
START_TEST(randomShortDecimals)
{
	uint64_t state = randomSeed - (uint64_t)_i;
	char text[64];
	for (int n = 0; n < decimalsPerChunk; ++n) {
		int digits = 1 + (int)(nextRandom(&state) % maxDigits);
		uint64_t limit = 1;
		for (int d = 0; d < digits; ++d) {
			limit *= 10;
		}
		uint64_t mantissa = nextRandom(&state) % limit;
		int exponent = (int)(nextRandom(&state) % 80) - 40;
		if (n % 4 == 0) {
			exponent = (int)(nextRandom(&state) % 640) - 340;
		}
		snprintf(text, sizeof text, "%" PRIu64 "e%d", mantissa, exponent);
		double value = strtod(text, NULL);
		if (!isfinite(value)) {
			continue;
		}
		checkValue(value);
		if (value != 0) {
			char buffer[CLI_NUMFMT_SIZE];
			cliFormatDouble(value, buffer);
			int have = reduceDecimal(buffer).count;
			int had = reduceDecimal(text).count;
			if (have > had) {
				ck_abort_msg("%s formats as %s, longer", text, buffer);
			}
		}
	}
}
END_TEST

static Suite* numfmtSuite(void)
{
	Suite* suite = suite_create("numfmt");
	TCase* fixed = tcase_create("fixed");
	tcase_add_test(fixed, examplesExact);
	tcase_add_test(fixed, nonFiniteIsNull);
	tcase_add_test(fixed, powersOfTwo);
	tcase_add_test(fixed, subnormalsAndLimits);
	tcase_add_test(fixed, integers);
	tcase_add_test(fixed, exactProducts);
	tcase_set_timeout(fixed, randomTimeoutSeconds);
	suite_add_tcase(suite, fixed);
	TCase* random = tcase_create("random");
	tcase_add_loop_test(random, randomBitPatterns, 0, randomChunks);
	tcase_add_loop_test(random, randomShortDecimals, 0, randomChunks);
	tcase_set_timeout(random, randomTimeoutSeconds);
	suite_add_tcase(suite, random);
	return suite;
}

int main(void)
{
	return bcRunSuite(numfmtSuite());
}
