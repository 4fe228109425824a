/* numfmt_bench.c - cliFormatDouble against snprintf("%.17g"): checks that
 * every output reads back exactly through strtod, times both on the same
 * values and prints one line:
 *   numfmt: N values, F round-trip failures, cliFormatDouble X ns/value,
 *   %.17g Y ns/value, speed-up Z.Zx
 * The values alternate between random finite bit patterns and uniform
 * doubles in (-1000, 1000), from a fixed seed.
 *   numfmt_bench [N]      N defaults to 10^7
 * Build: cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Icli \
 *          tests/bench/numfmt_bench.c cli/numfmt.c -o numfmt_bench
 * Exit status 1 if any value failed to round-trip. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "numfmt.h"

enum {
	defaultCount = 10000000,
	maxFailuresShown = 5
};

static const uint64_t benchSeed = UINT64_C(0x62656e63686e756d);
static const double ordinaryRange = 1000.0; /* uniform values in (-1000, 1000) */
static const double nanosecondsPerSecond = 1e9;

/* splitmix64 */
static uint64_t nextRandom(uint64_t* state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double nowSeconds(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / nanosecondsPerSecond;
}

/* Fill values[0 .. count): even indices random finite bit patterns, odd
 * ones uniform in (-ordinaryRange, ordinaryRange). */
static void makeValues(double* values, size_t count)
{
	uint64_t state = benchSeed;
	for (size_t i = 0; i < count; ++i) {
		double value;
		if (i % 2 == 0) {
			do {
				uint64_t bits = nextRandom(&state);
				memcpy(&value, &bits, sizeof value);
			} while (!isfinite(value));
		} else {
			double unit = (double)(nextRandom(&state) >> 11) / 9007199254740992.0; /* [0, 1) */
			value = (2.0 * unit - 1.0) * ordinaryRange;
		}
		values[i] = value;
	}
}

/* Count the values whose cliFormatDouble output does not read back as the
 * same bits (or whose length is wrong); print the first few. */
static size_t countFailures(const double* values, size_t count)
{
	size_t failures = 0;
	char buffer[CLI_NUMFMT_SIZE];
	for (size_t i = 0; i < count; ++i) {
		int length = cliFormatDouble(values[i], buffer);
		char* end;
		double back = strtod(buffer, &end);
		uint64_t want, got;
		memcpy(&want, &values[i], sizeof want);
		memcpy(&got, &back, sizeof got);
		if (got != want || *end != '\0' || length != (int)strlen(buffer)) {
			if (failures < maxFailuresShown) {
				fprintf(stderr, "numfmt: %.17g (bits %016" PRIx64 ") printed as \"%s\"\n", values[i], want, buffer);
			}
			++failures;
		}
	}
	return failures;
}

int main(int argc, char** argv)
{
	size_t count = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)defaultCount;
	if (count == 0) {
		count = 1;
	}
	double* values = malloc(count * sizeof *values);
	if (values == NULL) {
		fprintf(stderr, "numfmt: out of memory\n");
		return EXIT_FAILURE;
	}
	makeValues(values, count);
	size_t failures = countFailures(values, count);

	/* The checksums keep the formatting from being optimised away. */
	char buffer[CLI_NUMFMT_SIZE];
	unsigned long checksum = 0;
	double start = nowSeconds();
	for (size_t i = 0; i < count; ++i) {
		checksum += (unsigned long)cliFormatDouble(values[i], buffer);
		checksum += (unsigned char)buffer[0];
	}
	double oursSeconds = nowSeconds() - start;

	char printfBuffer[64];
	unsigned long printfChecksum = 0;
	start = nowSeconds();
	for (size_t i = 0; i < count; ++i) {
		printfChecksum += (unsigned long)snprintf(printfBuffer, sizeof printfBuffer, "%.17g", values[i]);
		printfChecksum += (unsigned char)printfBuffer[0];
	}
	double printfSeconds = nowSeconds() - start;

	double oursNs = oursSeconds * nanosecondsPerSecond / (double)count;
	double printfNs = printfSeconds * nanosecondsPerSecond / (double)count;
	printf("numfmt: %zu values, %zu round-trip failures, cliFormatDouble %.1f ns/value, %%.17g %.1f ns/value, "
		   "speed-up %.1fx\n",
		   count, failures, oursNs, printfNs, printfNs / oursNs);
	if (checksum == 0 || printfChecksum == 0) {
		fprintf(stderr, "numfmt: impossible checksum\n");
	}
	free(values);
	return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
