/* morton.c tests: casts in space order (bcMortonOrder). */
#include <string.h>

#include "harness.h"
#include "ballcast.h"
#include "morton.h"

static bcCastInput startAt(double x, double y, double z)
{
	bcCastInput in = { { x, y, z }, { x, y, z - 1 }, 0.1 };
	return in;
}

/* The corners of a box sort by z, then y, then x (the key's high bits are
 * z's): 0..7 in binary zyx. */
START_TEST(box_corners_in_morton_order)
{
	bcCastInput in[8];
	const int scrambled[8] = { 5, 2, 7, 0, 3, 6, 1, 4 };
	for (int i = 0; i < 8; ++i) {
		int c = scrambled[i];
		in[i] = startAt(c & 1 ? 4.0 : -1.0, c & 2 ? 3.0 : 0.5, c & 4 ? 2.0 : -7.0);
	}
	int32_t order[8], scratch[8];
	uint32_t keys[8];
	bcMortonOrder(in, 8, order, keys, scratch);
	for (int k = 0; k < 8; ++k) {
		ck_assert_int_eq(scrambled[order[k]], k);
	}
}
END_TEST

/* Many random starts: a permutation, keys never decreasing along it, equal
 * keys in input order, starts of NaNs first. */
START_TEST(random_starts_permutation_stable_nan_first)
{
	enum { n = 5000 };
	static bcCastInput in[n];
	static int32_t order[n], scratch[n];
	static uint32_t keys[n];
	static bool seen[n];
	srand(14);
	for (int i = 0; i < n; ++i) {
		in[i] = startAt(rand() % 50, rand() % 50, rand() % 3);
	}
	in[17] = startAt(NAN, NAN, NAN);
	in[4000] = startAt(NAN, NAN, NAN);
	in[31].p0 = in[30].p0;
	bcMortonOrder(in, n, order, keys, scratch);
	ck_assert_int_eq(order[0], 17);
	ck_assert_int_eq(order[1], 4000);
	memset(seen, 0, sizeof seen);
	for (int k = 0; k < n; ++k) {
		ck_assert(order[k] >= 0 && order[k] < n && !seen[order[k]]);
		seen[order[k]] = true;
		if (k > 0) {
			uint32_t a = keys[order[k - 1]], b = keys[order[k]];
			ck_assert(a < b || (a == b && order[k - 1] < order[k]));
		}
	}
	ck_assert_uint_eq(keys[30], keys[31]);
}
END_TEST

static Suite* mortonSuite(void)
{
	Suite* s = suite_create("morton");
	TCase* tc = tcase_create("core");
	tcase_add_test(tc, box_corners_in_morton_order);
	tcase_add_test(tc, random_starts_permutation_stable_nan_first);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(mortonSuite());
}
