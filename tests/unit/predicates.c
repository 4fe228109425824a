/* predicates.c tests: exact signs of orientation determinants.
 *
 * The reference is a determinant in GMP rationals built from each double
 * with mpq_set_d (exact), a different route from the library's (a filter,
 * expansions, integers on a common scale). Cases: points exactly coplanar
 * in tilted planes and the same points moved by one ulp (every tier below
 * the filter), coordinates spanning 2^-400 to 2^400 (the big-integer tier),
 * random points (the filter); values asked to full accuracy must be within
 * an ulp of the exact determinant. Then the integer helpers: ratios
 * correctly rounded, signs of a + b sqrt(c).
 */
#include <float.h>
#include <gmp.h>
#include <stdint.h>

#include "harness.h"
#include "predicates.h"
#include "vec3.h"

static uint64_t nextRandom(uint64_t* state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 11;
}

/* A uniform double in [-1, 1). */
static double randomUnit(uint64_t* state)
{
	return (double)nextRandom(state) / 4503599627370496.0 - 1.0;
}

/* det[b-a, c-a, d-a] exactly, in rationals. */
static void referenceOrient3d(mpq_t out, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d)
{
	const bcVec3 p[4] = { a, b, c, d };
	mpq_t m[3][3], t, s;
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			mpq_init(m[i][j]);
			mpq_t x, y;
			mpq_inits(x, y, NULL);
			const double* q = &p[i + 1].x;
			const double* o = &p[0].x;
			mpq_set_d(x, q[j]);
			mpq_set_d(y, o[j]);
			mpq_sub(m[i][j], x, y);
			mpq_clears(x, y, NULL);
		}
	}
	mpq_inits(t, s, NULL);
	mpq_set_ui(out, 0, 1);
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		mpq_mul(t, m[1][j], m[2][k]);
		mpq_mul(s, m[1][k], m[2][j]);
		mpq_sub(t, t, s);
		mpq_mul(t, t, m[0][i]);
		mpq_add(out, out, t);
	}
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			mpq_clear(m[i][j]);
		}
	}
	mpq_clears(t, s, NULL);
}

/* |value - exact| <= ulp(value) (faithful rounding), checked in rationals. */
static bool withinAnUlp(double value, const mpq_t exact)
{
	if (value == 0.0) {
		return mpq_sgn(exact) == 0;
	}
	mpq_t v, diff, ulp;
	mpq_inits(v, diff, ulp, NULL);
	mpq_set_d(v, value);
	mpq_sub(diff, v, exact);
	mpq_abs(diff, diff);
	double next = nextafter(fabs(value), INFINITY);
	mpq_set_d(ulp, next - fabs(value));
	bool ok = mpq_cmp(diff, ulp) <= 0;
	mpq_clears(v, diff, ulp, NULL);
	return ok;
}

/* value is the double nearest to exact: no neighbour is nearer. */
static bool correctlyRounded(double value, const mpq_t exact)
{
	mpq_t v, d0, d1;
	mpq_inits(v, d0, d1, NULL);
	mpq_set_d(v, value);
	mpq_sub(d0, v, exact);
	mpq_abs(d0, d0);
	bool ok = true;
	for (int side = -1; side <= 1; side += 2) {
		mpq_set_d(v, nextafter(value, side * INFINITY));
		mpq_sub(d1, v, exact);
		mpq_abs(d1, d1);
		ok = ok && mpq_cmp(d0, d1) <= 0;
	}
	mpq_clears(v, d0, d1, NULL);
	return ok;
}

static void checkOrient3d(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d)
{
	mpq_t exact;
	mpq_init(exact);
	referenceOrient3d(exact, a, b, c, d);
	int expected = mpq_sgn(exact);
	double sign = bcOrient3d(a, b, c, d, 1.0);
	double value = bcOrient3d(a, b, c, d, 0.0);
	ck_assert_msg(bcSign(sign) == expected, "orient3d sign %d, exact %d: (%a %a %a) (%a %a %a) (%a %a %a) (%a %a %a)", bcSign(sign), expected, a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z);
	ck_assert_msg(bcSign(value) == expected, "orient3d (exact path) sign %d, exact %d", bcSign(value), expected);
	/* Values out of the doubles' range keep their sign only. */
	if (fabs(value) > 1e-300 && fabs(value) < 1e300) {
		ck_assert_msg(withinAnUlp(value, exact), "orient3d value %.17g not within an ulp", value);
	}
	mpq_clear(exact);
}

/* Points exactly in the plane through a with (dyadic) directions u, v are
 * coplanar: a + i u + j v for small integers i, j is exact. */
START_TEST(coplanar_points_and_one_ulp_off)
{
	uint64_t state = 12345;
	for (int trial = 0; trial < 20000; ++trial) {
		/* Dyadic coordinates with 20 bits, so sums of a few stay exact. */
		bcVec3 a = bcMakeVec3(ldexp(floor(randomUnit(&state) * 1048576.0), -10),
							  ldexp(floor(randomUnit(&state) * 1048576.0), -10),
							  ldexp(floor(randomUnit(&state) * 1048576.0), -10));
		bcVec3 u = bcMakeVec3(floor(randomUnit(&state) * 64.0), floor(randomUnit(&state) * 64.0),
							  floor(randomUnit(&state) * 64.0));
		bcVec3 v = bcMakeVec3(floor(randomUnit(&state) * 64.0), floor(randomUnit(&state) * 64.0),
							  floor(randomUnit(&state) * 64.0));
		bcVec3 b = bcAdd(a, u), c = bcAdd(a, v);
		bcVec3 d = bcAdd(a, bcAdd(bcScale(3.0, u), bcScale(-5.0, v)));
		checkOrient3d(a, b, c, d);
		ck_assert(bcOrient3d(a, b, c, d, 1.0) == 0.0);
		/* One ulp off the plane, on each axis. */
		checkOrient3d(a, b, c, bcMakeVec3(nextafter(d.x, INFINITY), d.y, d.z));
		checkOrient3d(a, b, c, bcMakeVec3(d.x, nextafter(d.y, -INFINITY), d.z));
		checkOrient3d(a, b, c, bcMakeVec3(d.x, d.y, nextafter(d.z, INFINITY)));
	}
}
END_TEST

START_TEST(coordinates_spanning_eight_hundred_binades)
{
	uint64_t state = 99;
	for (int trial = 0; trial < 2000; ++trial) {
		bcVec3 p[4];
		for (int i = 0; i < 4; ++i) {
			double* q = &p[i].x;
			for (int k = 0; k < 3; ++k) {
				int e = (int)(nextRandom(&state) % 801) - 400;
				q[k] = ldexp(randomUnit(&state), e);
			}
		}
		checkOrient3d(p[0], p[1], p[2], p[3]);
		/* Tiny offsets on a huge plane: coplanar in x = 2^400, then 2^-400 off. */
		bcVec3 a = bcMakeVec3(ldexp(1.0, 400), 0.0, 0.0), b = bcMakeVec3(ldexp(1.0, 400), 1.0, 0.0);
		bcVec3 c = bcMakeVec3(ldexp(1.0, 400), 0.0, 1.0);
		bcVec3 d = bcMakeVec3(ldexp(1.0, 400), randomUnit(&state), randomUnit(&state));
		ck_assert(bcOrient3d(a, b, c, d, 1.0) == 0.0);
		bcVec3 e = bcMakeVec3(ldexp(1.0, 400) + ldexp(1.0, 348), d.y, d.z);
		ck_assert(bcOrient3d(a, b, c, e, 1.0) > 0.0);
		bcVec3 f = bcMakeVec3(ldexp(-1.0, -400), ldexp(1.0, -700), ldexp(3.0, -900));
		checkOrient3d(f, bcMakeVec3(ldexp(1.0, -400), 0.0, 0.0), bcMakeVec3(0.0, ldexp(1.0, -400), 0.0),
					  bcMakeVec3(0.0, 0.0, ldexp(1.0, -1000)));
	}
}
END_TEST

START_TEST(random_points_and_the_filter)
{
	uint64_t state = 7;
	for (int trial = 0; trial < 20000; ++trial) {
		bcVec3 p[4];
		for (int i = 0; i < 4; ++i) {
			p[i] = bcMakeVec3(randomUnit(&state) * 1e3, randomUnit(&state) * 1e3, randomUnit(&state) * 1e3);
		}
		checkOrient3d(p[0], p[1], p[2], p[3]);
		/* Antisymmetry: swapping two points negates the exact sign. */
		ck_assert(bcSign(bcOrient3d(p[0], p[1], p[2], p[3], 1.0)) ==
				  -bcSign(bcOrient3d(p[1], p[0], p[2], p[3], 1.0)));
	}
}
END_TEST

START_TEST(orient2d_exact_sign)
{
	uint64_t state = 3;
	for (int trial = 0; trial < 20000; ++trial) {
		double ax = ldexp(floor(randomUnit(&state) * 1048576.0), -7);
		double ay = ldexp(floor(randomUnit(&state) * 1048576.0), -7);
		double ux = floor(randomUnit(&state) * 100.0), uy = floor(randomUnit(&state) * 100.0);
		double bx = ax + ux, by = ay + uy, cx = ax - 3.0 * ux, cy = ay - 3.0 * uy;
		ck_assert(bcOrient2d(ax, ay, bx, by, cx, cy) == 0.0);
		double above = bcOrient2d(ax, ay, bx, by, cx, nextafter(cy, INFINITY));
		double below = bcOrient2d(ax, ay, bx, by, cx, nextafter(cy, -INFINITY));
		/* Moving c up turns left when b is to the left of a... : the two signs differ. */
		if (ux != 0.0) {
			ck_assert(bcSign(above) == -bcSign(below) && above != 0.0);
		}
	}
	/* The big-integer tier: a vanishing offset on huge coordinates. */
	ck_assert(bcOrient2d(ldexp(1.0, 500), 0.0, ldexp(1.0, 500) + ldexp(1.0, 448), 1.0, ldexp(1.0, 500),
						 ldexp(1.0, -600)) > 0.0);
}
END_TEST

/* A cap whose smallest angle has a sine of 4.9e-14 (issue 28's reproducer,
 * sliver_normal.obj): its plain cross product keeps three digits; the
 * exact one, each component faithfully rounded, is within an ulp of the
 * values Python's decimal (100 digits) gives for the doubles read. */
START_TEST(exact_cross_of_a_thin_cap)
{
	bcVec3 a = { -0.8165054820718729, 0.7251644832866933, 19.482122322724678 };
	bcVec3 b = { -0.8660117400948595, 1.1327437720134903, 20.000907085962915 };
	bcVec3 c = { -0.8486255573875368, 0.989605343367905, 19.81871422712761 };
	bcVec3 n = bcExactCross(a, b, c);
	const double want[3] = { -1.6008480806597223e-15, -1.0970041595413689e-14, 8.465764732971708e-15 };
	const double got[3] = { n.x, n.y, n.z };
	for (int i = 0; i < 3; ++i) {
		ck_assert_msg(fabs(got[i] - want[i]) <= nextafter(fabs(want[i]), INFINITY) - fabs(want[i]),
					  "component %d: %.17g, expected %.17g", i, got[i], want[i]);
	}
	/* The plain cross product is off in the fourth digit. */
	bcVec3 plain = bcCross(bcSub(b, a), bcSub(c, a));
	ck_assert(fabs(plain.x - want[0]) > 1e-4 * fabs(want[0]));
	/* Exactly collinear points: exactly 0. */
	bcVec3 z = bcExactCross(a, bcMakeVec3(2.0 * a.x, 2.0 * a.y, 2.0 * a.z), bcMakeVec3(0.0, 0.0, 0.0));
	ck_assert(z.x == 0.0 && z.y == 0.0 && z.z == 0.0);
}
END_TEST

START_TEST(exact_integers_and_ratios)
{
	double in[4] = { 0.75, -ldexp(1.0, -60), 3.0e10, 0.0 };
	mpz_t v[4];
	for (int i = 0; i < 4; ++i) {
		mpz_init(v[i]);
	}
	long e = bcExactIntegers(v, in, 4);
	for (int i = 0; i < 4; ++i) {
		mpq_t back, x;
		mpq_inits(back, x, NULL);
		mpq_set_z(back, v[i]);
		if (e >= 0) {
			mpq_mul_2exp(back, back, (mp_bitcnt_t)e);
		} else {
			mpq_div_2exp(back, back, (mp_bitcnt_t)(-e));
		}
		mpq_set_d(x, in[i]);
		ck_assert(mpq_equal(back, x));
		mpq_clears(back, x, NULL);
	}
	uint64_t state = 11;
	for (int trial = 0; trial < 20000; ++trial) {
		mpz_t x, y;
		mpz_inits(x, y, NULL);
		mpz_set_d(x, floor(randomUnit(&state) * 9e15));
		mpz_mul_2exp(x, x, (mp_bitcnt_t)(nextRandom(&state) % 200));
		mpz_set_d(y, floor(randomUnit(&state) * 9e15));
		mpz_mul_2exp(y, y, (mp_bitcnt_t)(nextRandom(&state) % 200));
		if (mpz_sgn(y) != 0) {
			double r = bcExactRatio(x, y);
			mpq_t q;
			mpq_init(q);
			mpq_set_num(q, x);
			mpq_set_den(q, y);
			if (mpz_sgn(y) < 0) {
				mpq_neg(q, q);
				mpz_t ny;
				mpz_init(ny);
				mpz_neg(ny, y);
				mpq_set_den(q, ny);
				mpz_clear(ny);
			}
			mpq_canonicalize(q);
			ck_assert_msg(correctlyRounded(r, q), "ratio %.17g not correctly rounded", r);
			mpq_clear(q);
		}
		mpz_clears(x, y, NULL);
	}
	for (int i = 0; i < 4; ++i) {
		mpz_clear(v[i]);
	}
}
END_TEST

static int signWithRoot(long a, long b, long c)
{
	mpz_t x, y, z;
	mpz_init_set_si(x, a);
	mpz_init_set_si(y, b);
	mpz_init_set_si(z, c);
	int s = bcExactSignWithRoot(x, y, z);
	mpz_clears(x, y, z, NULL);
	return s;
}

START_TEST(sign_with_a_square_root)
{
	ck_assert_int_eq(signWithRoot(-3, 1, 9), 0);  /* -3 + sqrt 9 */
	ck_assert_int_eq(signWithRoot(-3, 1, 10), 1);
	ck_assert_int_eq(signWithRoot(-3, 1, 8), -1);
	ck_assert_int_eq(signWithRoot(3, -1, 8), 1);
	ck_assert_int_eq(signWithRoot(3, -1, 10), -1);
	ck_assert_int_eq(signWithRoot(0, -2, 5), -1);
	ck_assert_int_eq(signWithRoot(0, 2, 0), 0);
	ck_assert_int_eq(signWithRoot(-1, 5, 0), -1);
	ck_assert_int_eq(signWithRoot(4, 5, 7), 1);
	/* Against doubles where they are far from 0. */
	uint64_t state = 5;
	for (int trial = 0; trial < 20000; ++trial) {
		long a = (long)(randomUnit(&state) * 1e6), b = (long)(randomUnit(&state) * 1e3);
		long c = (long)(nextRandom(&state) % 1000000);
		double v = (double)a + (double)b * sqrt((double)c);
		if (fabs(v) > 1e-6 * (fabs((double)a) + 1.0)) {
			ck_assert_int_eq(signWithRoot(a, b, c), v > 0.0 ? 1 : -1);
		}
	}
}
END_TEST

static Suite* predicatesSuite(void)
{
	Suite* suite = suite_create("predicates");
	TCase* orient = tcase_create("orient");
	tcase_set_timeout(orient, 60);
	tcase_add_test(orient, coplanar_points_and_one_ulp_off);
	tcase_add_test(orient, coordinates_spanning_eight_hundred_binades);
	tcase_add_test(orient, random_points_and_the_filter);
	tcase_add_test(orient, orient2d_exact_sign);
	tcase_add_test(orient, exact_cross_of_a_thin_cap);
	suite_add_tcase(suite, orient);
	TCase* integers = tcase_create("integers");
	tcase_add_test(integers, exact_integers_and_ratios);
	tcase_add_test(integers, sign_with_a_square_root);
	suite_add_tcase(suite, integers);
	return suite;
}

int main(void)
{
	return bcRunSuite(predicatesSuite());
}
