/* decimal.c - unit tests for the one decimal number parser (lib/decimal.h):
 * whenever it answers, strtod's very bits; the fast paths take the numbers
 * meshes and trajectories hold; exact halfway cases round to even; the
 * cursor stops where the number does. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "harness.h"

static uint64_t nextRandom(uint64_t* state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* bcParseDecimal over the whole of text: true when it answered and read it
 * all, its value in *value. */
static bool parseWhole(const char* text, double* value)
{
	const char* p = text;
	const char* end = text + strlen(text);
	double v = 0.0;
	if (!bcParseDecimal(&p, end, &v)) {
		ck_assert_msg(p == text, "'%s': the cursor moved on a refusal", text);
		return false;
	}
	if (p != end) {
		return false;
	}
	*value = v;
	return true;
}

/* Same bits (so -0.0 differs from 0.0, and rounding shows). */
static void assertSameDouble(double got, double expected, const char* text)
{
	ck_assert_msg(memcmp(&got, &expected, sizeof got) == 0, "'%s': %.17g, strtod gives %.17g", text, got, expected);
}

/* When the parser answers, its answer is strtod's; counts the answers. */
static void agreeWithStrtod(const char* text, long* answered)
{
	double v = 0.0;
	if (parseWhole(text, &v)) {
		assertSameDouble(v, strtod(text, NULL), text);
		*answered += 1;
	}
}

/* Typical coordinates (6 to 17 digits, with and without exponents) take the
 * fast path, and what it gives is strtod's double. */
START_TEST(fastPathTaken)
{
	static const char* const formats[] = { "%.17g", "%.16g", "%.9g", "%g", "%.6f", "%.3e", "%.17e", "%.12g" };
	uint64_t state = 0x13198a2e03707344u;
	char number[64];
	for (int i = 0; i < 100000; ++i) {
		uint64_t r = nextRandom(&state);
		double value = (double)(nextRandom(&state) >> 11) / 9007199254740992.0 * pow(10.0, (double)((int)(r % 13) - 6));
		snprintf(number, sizeof number, formats[(r >> 8) % 8], (r >> 16) % 2 == 0 ? value : -value);
		double fast = 0.0;
		ck_assert_msg(parseWhole(number, &fast), "'%s' not on the fast path", number);
		assertSameDouble(fast, strtod(number, NULL), number);
	}
}
END_TEST

/* Exact halfway cases between two doubles round to even, as strtod does. */
START_TEST(halfwayRoundsToEven)
{
	uint64_t state = 0x243f6a8885a308d3u;
	char number[64];
	int halfway = 0;
	for (int i = 0; i < 40000; ++i) {
		/* (2m + 1) 2^(k-1), midway between m 2^k and (m + 1) 2^k, written out
		 * exactly: 54 bits times 5^j for a factor 2^-j, then "e-j" */
		uint64_t m = ((uint64_t)1 << 52) | (nextRandom(&state) >> 12);
		int j = (int)(nextRandom(&state) % 4);
		uint64_t digits = 2 * m + 1;
		for (int k = 0; k < j; ++k) {
			digits *= 5; /* < 2^64 for j <= 4 */
		}
		int last = (int)(nextRandom(&state) % 3) - 1; /* also one above and one below */
		snprintf(number, sizeof number, "%llue-%d", (unsigned long long)(digits + (uint64_t)(int64_t)last), j);
		double fast = 0.0;
		if (parseWhole(number, &fast)) {
			assertSameDouble(fast, strtod(number, NULL), number);
			halfway += last == 0;
		}
	}
	ck_assert_int_ge(halfway, 400);
}
END_TEST

/* A million numbers of every kind: any double at 17 digits, coordinates as
 * benchmarks write them, 1 to 19 digits with exponents -30 .. 30, odd
 * integers above 2^53 (midpoints between doubles). */
START_TEST(randomNumbersMatchStrtod)
{
	uint64_t state = 0x9E3779B97F4A7C15ull;
	long answered = 0, coordinates = 0, fastCoordinates = 0;
	char text[64];
	for (long i = 0; i < 1000000; ++i) {
		uint64_t bits = nextRandom(&state);
		double d;
		switch (i % 4) {
		case 0:
			memcpy(&d, &bits, sizeof d);
			if (!isfinite(d)) {
				continue;
			}
			snprintf(text, sizeof text, "%.17g", d);
			break;
		case 1:
			d = ((double)(bits >> 11) / 9007199254740992.0 - 0.5) * 200.0;
			snprintf(text, sizeof text, "%.17g", d);
			coordinates += 1;
			break;
		case 2:
			d = (double)(bits >> 11) / 9007199254740992.0 * pow(10.0, (double)((int)(bits % 61) - 30));
			snprintf(text, sizeof text, "%.*e", (int)(bits % 19), d);
			break;
		default:
			snprintf(text, sizeof text, "%llu", (unsigned long long)(((uint64_t)1 << 53) + (bits >> 11 | 1)));
			break;
		}
		long before = answered;
		agreeWithStrtod(text, &answered);
		fastCoordinates += i % 4 == 1 && answered > before;
	}
	ck_assert_msg(fastCoordinates == coordinates, "%ld of %ld coordinates converted quickly", fastCoordinates,
				  coordinates);
	ck_assert_msg(answered > 600000, "%ld of 1000000 converted quickly", answered);
}
END_TEST

START_TEST(cases)
{
	static const char* const agree[] = {
		"0", "-0", "+0", "0.0", "-0.0e+1", "1", "0.1", "0.3", "1e22", "1e23", "1e-22", "1e27", "1e-27",
		"123456789012345678", "9007199254740993", "9007199254740992", "0.054516465419597898", "9.3128333166261257",
		"1.7976931348623157e308", "4.9406564584124654e-324", "2.2250738585072014e-308",
		"0.0000000000000000000012345678901234567", "1234567890123456789", "12345678901234567890", "1E5", "1e+5",
		"7.50", "1.", ".5", "-.5", "007", "+3.25",
	};
	long answered = 0;
	for (size_t i = 0; i < sizeof agree / sizeof agree[0]; ++i) {
		agreeWithStrtod(agree[i], &answered);
	}
	double v = 1.0;
	/* beyond 19 significant digits or the fast paths' exponents: strtod's */
	ck_assert(!parseWhole("12345678901234567890", &v));
	ck_assert(!parseWhole("1e400", &v));
	ck_assert(!parseWhole("1e-300", &v));
	ck_assert(parseWhole("-0", &v) && signbit(v) && v == 0.0);
	ck_assert(parseWhole("0.1", &v) && v == 0.1);
	ck_assert(parseWhole("9007199254740993", &v) && v == 9007199254740992.0);
	/* not numbers */
	const char* const refused[] = { "", "-", "+", ".", "e5", "1e", "1e+", "-e1" };
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
		ck_assert_msg(!parseWhole(refused[i], &v), "'%s' read as a number", refused[i]);
	}
	/* the cursor stops where the number does; nothing past end is read */
	const char* text = "2.5e1,7";
	const char* p = text;
	ck_assert(bcParseDecimal(&p, text + 7, &v) && v == 25.0 && p == text + 5);
	p = text;
	ck_assert(bcParseDecimal(&p, text + 2, &v) && v == 2.0 && p == text + 2);
	/* eight digits at a time: runs of every length up to 19, with any byte after */
	char digits[32];
	for (int n = 1; n <= 19; ++n) {
		for (int k = 0; k < n; ++k) {
			digits[k] = (char)('1' + k % 9);
		}
		digits[n] = 'x';
		digits[n + 1] = '\0';
		p = digits;
		ck_assert(bcParseDecimal(&p, digits + n + 1, &v));
		ck_assert_int_eq(p - digits, n);
		digits[n] = '\0';
		assertSameDouble(v, strtod(digits, NULL), digits);
	}
}
END_TEST

START_TEST(readDigitsWraps)
{
	uint64_t value = 0;
	const char* text = "1234567890123abc";
	const char* p = bcReadDigits(text, text + strlen(text), &value);
	ck_assert_int_eq(p - text, 13);
	ck_assert(value == 1234567890123ull);
	value = 7;
	p = bcReadDigits(text, text + 4, &value);
	ck_assert_int_eq(p - text, 4);
	ck_assert(value == 71234ull);
	ck_assert(bcIsDecimalDigit('0') && bcIsDecimalDigit('9') && !bcIsDecimalDigit('/') && !bcIsDecimalDigit(':'));
}
END_TEST

/* The public bcParseDouble: strtod's double for the whole span, or false.
 * The fast path and strtod's fallback (long, hexadecimal, overflowing,
 * words), a span not terminated, a span with bytes strtod does not read. */
START_TEST(parseDoubleWholeSpan)
{
	double x = -1.0;
	ck_assert(bcParseDouble("0.1", 3, &x) && x == 0.1);
	ck_assert(bcParseDouble("-2.5e-3", 7, &x) && x == -2.5e-3);
	ck_assert(bcParseDouble("12345", 3, &x) && x == 123.0); /* only the span */
	ck_assert(bcParseDouble("0x1p3", 5, &x) && x == 8.0);
	ck_assert(bcParseDouble("1e400", 5, &x) && isinf(x) && x > 0);
	ck_assert(bcParseDouble("-inf", 4, &x) && isinf(x) && x < 0);
	ck_assert(bcParseDouble("nan", 3, &x) && isnan(x));
	x = 7.0;
	ck_assert(!bcParseDouble("1.5x", 4, &x));
	ck_assert(!bcParseDouble("1e", 2, &x));
	ck_assert(!bcParseDouble("-", 1, &x));
	ck_assert(!bcParseDouble("", 0, &x));
	ck_assert(!bcParseDouble("1\0" "2", 3, &x));
	ck_assert(!bcParseDouble("1 2", 3, &x));
	ck_assert(x == 7.0); /* left alone */
	/* 300 digits: past the stack copy, to the heap, as strtod reads it */
	char longNumber[400];
	memset(longNumber, '3', 300);
	memcpy(longNumber, "0.", 2);
	memcpy(longNumber + 300, "e-5", 4);
	ck_assert(bcParseDouble(longNumber, strlen(longNumber), &x));
	assertSameDouble(x, strtod(longNumber, NULL), "300 digits");
	/* random numbers, some past 19 digits: the same bits as strtod */
	uint64_t state = 0x0123456789abcdefu;
	char text[64];
	for (int i = 0; i < 20000; ++i) {
		uint64_t bits = nextRandom(&state);
		double d;
		memcpy(&d, &bits, sizeof d);
		if (!isfinite(d)) {
			continue;
		}
		snprintf(text, sizeof text, "%.*g", 1 + (int)(bits % 25), d);
		ck_assert_msg(bcParseDouble(text, strlen(text), &x), "'%s'", text);
		assertSameDouble(x, strtod(text, NULL), text);
	}
}
END_TEST

static Suite* decimalSuite(void)
{
	Suite* suite = suite_create("decimal");
	TCase* core = tcase_create("core");
	tcase_set_timeout(core, 60);
	tcase_add_test(core, fastPathTaken);
	tcase_add_test(core, halfwayRoundsToEven);
	tcase_add_test(core, randomNumbersMatchStrtod);
	tcase_add_test(core, cases);
	tcase_add_test(core, readDigitsWraps);
	tcase_add_test(core, parseDoubleWholeSpan);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(decimalSuite());
}
