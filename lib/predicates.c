/* predicates.c - exact signs of orientation determinants, in three tiers.
 *
 * Why exact: a tolerance such as |det| <= 1e-12 * scale makes "on the
 * plane" depend on how a scene is scaled and rotated, disagrees with itself
 * (A on B's plane by one tolerance, B not on A's), and turns the touching
 * and the shared-edge cases -- the ones users pin in regression suites --
 * into accidents of rounding. Exact signs give one consistent answer: a
 * point thrown at an edge two triangles share sees that edge's determinant
 * from both with opposite signs, never both missing.
 *
 * The tiers, each used only when the one before cannot decide:
 *  1. the floating-point filter: the determinant in doubles, and
 *     Shewchuk's bound on its error ("Adaptive precision floating-point
 *     arithmetic and fast robust geometric predicates", 1997). When |det|
 *     exceeds the bound its sign is right. Nearly every call ends here.
 *  2. floating-point expansions: the determinant as an exact sum of
 *     products (Dekker's two-product, Knuth's two-sum), summed exactly by
 *     distillation. About a hundred times the filter's cost, taken only
 *     near zero. Exact as long as no product underflows, which holds when
 *     every nonzero coordinate (after scaling the points by a power of two
 *     to coordinates below 1) is at least 2^-300.
 *  3. big integers (GMP): the doubles turned exactly into integers on one
 *     common scale, and the determinant computed in them. No range limit;
 *     taken only for coordinates spanning more than 90 decades.
 * The ball sweep's exact path (sweep_exact.c) uses tier 3 directly for its
 * polynomials of higher degree, through bcExactIntegers.
 */
#include "predicates.h"

#include <float.h>
#include <limits.h>
#include <math.h>

#include "vec3.h"

/* Dekker's splitter 2^27 + 1: a * it splits a 53-bit significand into two
 * halves of 26 bits whose products are exact. */
#define BC_SPLITTER 134217729.0

/* Shewchuk's error bounds for the filtered determinants: when |det|
 * exceeds the bound times the permanent (the same sum with every product
 * made absolute) the computed sign is right. */
#define BC_ORIENT2D_BOUND ((3.0 + 16.0 * BC_UNIT_ROUNDOFF) * BC_UNIT_ROUNDOFF)
#define BC_ORIENT3D_BOUND ((7.0 + 56.0 * BC_UNIT_ROUNDOFF) * BC_UNIT_ROUNDOFF)

/* The filters' bounds hold only when no product underflows; below this
 * permanent (products of coordinate differences under about 1e-83 each)
 * the exact tiers decide. Far above the subnormals (1e-308), far below any
 * mesh a user draws. */
#define BC_FILTER_MIN_PERMANENT 1e-250

/* Tier 2 is exact when no partial product underflows: every nonzero factor
 * of a product of three, scaled below 1, at least 2^-300 makes each
 * product at least 2^-900 and its rounding error (2^-53 smaller, and again
 * for the low half) still a normal double (above 2^-1022). */
#define BC_EXPANSION_MIN_FACTOR 4.909093465297727e-91 /* 2^-300 */

/* Terms of an exact 3D determinant: 24 products of three coordinates, each
 * exactly 4 doubles (96), with room to spare. */
#define BC_EXPANSION_CAPACITY 100

/* x + y = a + b exactly, |y| <= ulp(x) / 2. */
static inline void twoSum(double a, double b, double* x, double* y)
{
	double s = a + b;
	double bv = s - a;
	double av = s - bv;
	double br = b - bv;
	double ar = a - av;
	*x = s;
	*y = ar + br;
}

/* x + y = a - b exactly. */
static inline void twoDiff(double a, double b, double* x, double* y)
{
	double d = a - b;
	double bv = a - d;
	double av = d + bv;
	double br = bv - b;
	double ar = a - av;
	*x = d;
	*y = ar + br;
}

static inline void split(double a, double* hi, double* lo)
{
	double c = BC_SPLITTER * a;
	double big = c - a;
	*hi = c - big;
	*lo = a - *hi;
}

/* x + y = a * b exactly (Dekker), barring overflow and underflow. */
static inline void twoProduct(double a, double b, double* x, double* y)
{
	double p = a * b;
	double ahi, alo, bhi, blo;
	split(a, &ahi, &alo);
	split(b, &bhi, &blo);
	double err1 = p - ahi * bhi;
	double err2 = err1 - alo * bhi;
	double err3 = err2 - ahi * blo;
	*x = p;
	*y = alo * blo - err3;
}

/* Terms whose exact sum is wanted. */
typedef struct bcTerms {
	double c[BC_EXPANSION_CAPACITY];
	int n;
} bcTerms;

/* Add sign * x * y * z: four doubles whose sum is the product exactly. */
static void addTripleProduct(bcTerms* t, double sign, double x, double y, double z)
{
	double hi, lo;
	twoProduct(sign * x, y, &hi, &lo);
	twoProduct(hi, z, &t->c[t->n], &t->c[t->n + 1]);
	twoProduct(lo, z, &t->c[t->n + 2], &t->c[t->n + 3]);
	t->n += 4;
}

static void addProduct(bcTerms* t, double sign, double x, double y)
{
	twoProduct(sign * x, y, &t->c[t->n], &t->c[t->n + 1]);
	t->n += 2;
}

/* Shewchuk's Grow-Expansion: the exact sum as a nonoverlapping expansion,
 * smallest first, zeros dropped; returns its length. The slow, sure path. */
static int growSum(const double* terms, int n, double* e)
{
	int m = 0;
	for (int k = 0; k < n; ++k) {
		double q = terms[k];
		int w = 0;
		for (int i = 0; i < m; ++i) {
			double h;
			twoSum(q, e[i], &q, &h);
			if (h != 0.0) {
				e[w++] = h;
			}
		}
		if (q != 0.0) {
			e[w++] = q;
		}
		m = w;
	}
	return m;
}

/* Passes of distillation before the sure path takes over. Each pass about
 * doubles the precision of the leading term (Rump, Ogita and Oishi); a
 * sum of 96 products of three needs a handful. */
#define BC_MAX_DISTILL_PASSES 32

/* The sum of t's terms, rounded, with the exact sign. Distillation: one
 * pass of two-sums from the first term to the last leaves the same exact
 * sum, the last term the rounded sum and the others its errors. Once the
 * errors add up to less than an ulp of the last term (bounded generously
 * for the rounding of that addition), the last term is the sum faithfully
 * rounded and has its sign. A sum rounding to 0 that is not 0 keeps its
 * sign as the smallest subnormal. */
static double sumTerms(bcTerms* t, double* tail, bool* converged)
{
	double* c = t->c;
	int n = t->n;
	*tail = 0.0;
	*converged = true;
	for (int pass = 0; pass < BC_MAX_DISTILL_PASSES; ++pass) {
		int m = 0;
		for (int i = 0; i < n; ++i) {
			if (c[i] != 0.0) {
				c[m++] = c[i];
			}
		}
		n = m;
		if (n <= 1) {
			return n == 0 ? 0.0 : c[0];
		}
		for (int i = 1; i < n; ++i) {
			twoSum(c[i], c[i - 1], &c[i], &c[i - 1]);
		}
		double rest = 0.0, signedRest = 0.0;
		for (int i = 0; i < n - 1; ++i) {
			rest += fabs(c[i]);
			signedRest += c[i];
		}
		if (rest * (1.0 + 2.0 * n * BC_UNIT_ROUNDOFF) < BC_UNIT_ROUNDOFF * fabs(c[n - 1])) {
			/* The errors, summed: within n u of their own size, so the
			 * pair is within about 2^-99 of the exact sum, relatively. */
			*tail = signedRest;
			return c[n - 1];
		}
	}
	*converged = false;
	double e[BC_EXPANSION_CAPACITY];
	int m = growSum(c, n, e);
	if (m == 0) {
		return 0.0;
	}
	double sum = 0.0;
	for (int i = 0; i < m; ++i) {
		sum += e[i];
	}
	double top = e[m - 1];
	return (sum == 0.0 || (sum > 0.0) != (top > 0.0)) ? copysign(DBL_TRUE_MIN, top) : sum;
}

/* Is every nonzero value, scaled by 2^-exponent, at least
 * BC_EXPANSION_MIN_FACTOR in magnitude? (Checked on the unscaled values:
 * scaling could flush a subnormal to zero.) */
static bool inExpansionRange(const double* v, int count, int exponent)
{
	double least = ldexp(BC_EXPANSION_MIN_FACTOR, exponent);
	for (int i = 0; i < count; ++i) {
		if (v[i] != 0.0 && !(fabs(v[i]) >= least)) {
			return false;
		}
	}
	return true;
}

/* value * 2^exponent for an exact value, keeping its sign when it
 * underflows (the smallest subnormal) and saturating when it overflows. */
static double scaleKeepingSign(double value, long exponent)
{
	if (value == 0.0) {
		return 0.0;
	}
	int e = exponent > 4000 ? 4000 : (exponent < -4000 ? -4000 : (int)exponent);
	double r = ldexp(value, e);
	return r == 0.0 ? copysign(DBL_TRUE_MIN, value) : r;
}

/* ------------------------------------------------------- big integers */

long bcExactIntegers(mpz_t* out, const double* in, int count)
{
	/* x = M 2^(ex - 53) with M = frexp's fraction times 2^53, an integer. */
	long lowest = LONG_MAX;
	for (int i = 0; i < count; ++i) {
		if (in[i] != 0.0) {
			int ex;
			frexp(in[i], &ex);
			lowest = ex - 53 < lowest ? ex - 53 : lowest;
		}
	}
	if (lowest == LONG_MAX) {
		lowest = 0;
	}
	for (int i = 0; i < count; ++i) {
		if (in[i] == 0.0) {
			mpz_set_ui(out[i], 0);
			continue;
		}
		int ex;
		double fraction = frexp(in[i], &ex);
		mpz_set_d(out[i], ldexp(fraction, 53));
		mpz_mul_2exp(out[i], out[i], (mp_bitcnt_t)(ex - 53 - lowest));
	}
	return lowest;
}

/* |x| >> shift rounded to the nearest double (ties to even), as
 * mantissa * 2^exponent, sticky telling whether bits below shift (or a
 * remainder already dropped) are nonzero. */
static bcExactDouble roundedShift(const mpz_t x, long shift, bool sticky)
{
	bcExactDouble d = { 0.0, 0 };
	mpz_t t;
	mpz_init(t);
	mpz_abs(t, x);
	if (shift > 0) {
		sticky = sticky || mpz_scan1(t, 0) < (mp_bitcnt_t)shift;
		mpz_tdiv_q_2exp(t, t, (mp_bitcnt_t)shift);
	} else if (shift < 0) {
		mpz_mul_2exp(t, t, (mp_bitcnt_t)(-shift));
	}
	if (mpz_sgn(t) == 0) {
		mpz_clear(t);
		return d;
	}
	/* Keep 53 bits; round on the next one and everything below. */
	long bits = (long)mpz_sizeinbase(t, 2);
	long drop = bits > 53 ? bits - 53 : 0;
	if (drop > 0) {
		bool half = mpz_tstbit(t, (mp_bitcnt_t)(drop - 1));
		bool below = sticky || (drop >= 2 && mpz_scan1(t, 0) < (mp_bitcnt_t)(drop - 1));
		mpz_tdiv_q_2exp(t, t, (mp_bitcnt_t)drop);
		if (half && (below || mpz_odd_p(t))) {
			mpz_add_ui(t, t, 1);
		}
	}
	/* t has at most 54 bits (53, or a carry to 2^53): exact in a double. */
	long e;
	d.mantissa = mpz_get_d_2exp(&e, t);
	d.exponent = e + drop + shift;
	mpz_clear(t);
	return d;
}

bcExactDouble bcExactToDouble(const mpz_t x)
{
	bcExactDouble d = roundedShift(x, 0, false);
	d.mantissa = mpz_sgn(x) < 0 ? -d.mantissa : d.mantissa;
	return d;
}

/* Bits kept in a quotient before it is rounded to a double: 64, so the
 * quotient's 53 bits and the rounding bit are all there; the remainder
 * decides the sticky bit. */
#define BC_QUOTIENT_BITS 64

double bcExactRatio(const mpz_t x, const mpz_t y)
{
	if (mpz_sgn(x) == 0) {
		return 0.0;
	}
	/* q = floor(|x| 2^k / |y|) with k making q at least 2^64. */
	long shift = (long)mpz_sizeinbase(y, 2) - (long)mpz_sizeinbase(x, 2) + BC_QUOTIENT_BITS + 1;
	mpz_t q, rem, ay;
	mpz_inits(q, rem, ay, NULL);
	mpz_abs(q, x);
	mpz_abs(ay, y);
	if (shift > 0) {
		mpz_mul_2exp(q, q, (mp_bitcnt_t)shift);
	} else {
		mpz_mul_2exp(ay, ay, (mp_bitcnt_t)(-shift));
	}
	mpz_tdiv_qr(q, rem, q, ay);
	bcExactDouble d = roundedShift(q, 0, mpz_sgn(rem) != 0);
	mpz_clears(q, rem, ay, NULL);
	double r = scaleKeepingSign(d.mantissa, d.exponent - shift);
	return mpz_sgn(x) * mpz_sgn(y) < 0 ? -r : r;
}

int bcExactSignWithRoot(const mpz_t a, const mpz_t b, const mpz_t c)
{
	int sa = mpz_sgn(a);
	int sb = mpz_sgn(c) == 0 ? 0 : mpz_sgn(b);
	if (sb == 0 || sa == sb) {
		return sa != 0 ? sa : sb;
	}
	if (sa == 0) {
		return sb;
	}
	/* Opposite signs: the larger of a^2 and b^2 c wins. */
	mpz_t a2, b2c;
	mpz_inits(a2, b2c, NULL);
	mpz_mul(a2, a, a);
	mpz_mul(b2c, b, b);
	mpz_mul(b2c, b2c, c);
	int cmp = mpz_cmp(a2, b2c);
	mpz_clears(a2, b2c, NULL);
	return cmp > 0 ? sa : (cmp < 0 ? sb : 0);
}

/* x . (y x z) in big integers. */
static void tripleProduct(mpz_t out, mpz_t* x, mpz_t* y, mpz_t* z)
{
	mpz_t t, s;
	mpz_inits(t, s, NULL);
	mpz_set_ui(out, 0);
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		mpz_mul(t, y[j], z[k]);
		mpz_mul(s, y[k], z[j]);
		mpz_sub(t, t, s);
		mpz_addmul(out, x[i], t);
	}
	mpz_clears(t, s, NULL);
}

/* Tier 3 of orient3d; *tail gets the rest of the exact value below the
 * rounded one (0 when the value is out of the doubles' range). */
static double orient3dBig(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double* tail)
{
	double in[12] = { a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z };
	mpz_t v[12], u[3], w[3], z[3], det;
	for (int i = 0; i < 12; ++i) {
		mpz_init(v[i]);
	}
	for (int i = 0; i < 3; ++i) {
		mpz_inits(u[i], w[i], z[i], NULL);
	}
	mpz_init(det);
	long scale = bcExactIntegers(v, in, 12);
	for (int i = 0; i < 3; ++i) {
		mpz_sub(u[i], v[3 + i], v[i]);
		mpz_sub(w[i], v[6 + i], v[i]);
		mpz_sub(z[i], v[9 + i], v[i]);
	}
	tripleProduct(det, u, w, z);
	bcExactDouble r = bcExactToDouble(det);
	double value = scaleKeepingSign(r.mantissa, r.exponent + 3 * scale);
	/* The rest: det minus its rounding, exactly, then rounded. */
	*tail = 0.0;
	if (r.exponent > 53) {
		mpz_t rounded;
		mpz_init_set_d(rounded, ldexp(r.mantissa, 53));
		mpz_mul_2exp(rounded, rounded, (mp_bitcnt_t)(r.exponent - 53));
		mpz_sub(rounded, det, rounded);
		bcExactDouble rest = bcExactToDouble(rounded);
		*tail = fabs(value) < 1e300 && fabs(value) > 1e-290 ? ldexp(rest.mantissa, (int)(rest.exponent + 3 * scale)) : 0.0;
		mpz_clear(rounded);
	}
	for (int i = 0; i < 12; ++i) {
		mpz_clear(v[i]);
	}
	for (int i = 0; i < 3; ++i) {
		mpz_clears(u[i], w[i], z[i], NULL);
	}
	mpz_clear(det);
	return value;
}

/* Tier 2 of orient3d: det[b-a, c-a, d-a] as an expansion. The points are
 * first scaled by a power of two (exact) so that products stay inside the
 * doubles. When the nine differences are exact (coordinates within a
 * factor 2 of each other, or sharing their low bits: almost always in a
 * mesh) it is the determinant of the differences, 6 products of three;
 * otherwise it is summed from the raw coordinates, det3(b,c,d) - det3(a,c,d)
 * + det3(a,b,d) - det3(a,b,c) (the 4x4 determinant with a column of ones,
 * det3(x,y,z) = x . (y x z)), 24 products. Out of tier 2's range, tier 3. */
static double orient3dExact(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double* tail)
{
	bcVec3 p[4] = { a, b, c, d };
	int e = bcScaleExponent(p, 4);
	double coordinates[12] = { a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z };
	if (!inExpansionRange(coordinates, 12, e)) {
		return orient3dBig(a, b, c, d, tail);
	}
	for (int i = 0; i < 4; ++i) {
		p[i] = bcScaled(p[i], -e);
	}
	double u[3], v[3], w[3], rest[9];
	twoDiff(p[1].x, p[0].x, &u[0], &rest[0]);
	twoDiff(p[1].y, p[0].y, &u[1], &rest[1]);
	twoDiff(p[1].z, p[0].z, &u[2], &rest[2]);
	twoDiff(p[2].x, p[0].x, &v[0], &rest[3]);
	twoDiff(p[2].y, p[0].y, &v[1], &rest[4]);
	twoDiff(p[2].z, p[0].z, &v[2], &rest[5]);
	twoDiff(p[3].x, p[0].x, &w[0], &rest[6]);
	twoDiff(p[3].y, p[0].y, &w[1], &rest[7]);
	twoDiff(p[3].z, p[0].z, &w[2], &rest[8]);
	bool exactDifferences = true;
	for (int i = 0; i < 9; ++i) {
		exactDifferences = exactDifferences && rest[i] == 0.0;
	}
	double differences[9] = { u[0], u[1], u[2], v[0], v[1], v[2], w[0], w[1], w[2] };
	if (exactDifferences && !inExpansionRange(differences, 9, 0)) {
		return orient3dBig(a, b, c, d, tail);
	}
	bcTerms sum;
	sum.n = 0;
	if (exactDifferences) {
		/* u . (v x w) */
		addTripleProduct(&sum, 1.0, u[0], v[1], w[2]);
		addTripleProduct(&sum, -1.0, u[0], v[2], w[1]);
		addTripleProduct(&sum, 1.0, u[1], v[2], w[0]);
		addTripleProduct(&sum, -1.0, u[1], v[0], w[2]);
		addTripleProduct(&sum, 1.0, u[2], v[0], w[1]);
		addTripleProduct(&sum, -1.0, u[2], v[1], w[0]);
	} else {
		static const int rows[4][3] = { { 1, 2, 3 }, { 0, 2, 3 }, { 0, 1, 3 }, { 0, 1, 2 } };
		static const double signs[4] = { 1.0, -1.0, 1.0, -1.0 };
		for (int t = 0; t < 4; ++t) {
			bcVec3 x = p[rows[t][0]], y = p[rows[t][1]], z = p[rows[t][2]];
			double sg = signs[t];
			addTripleProduct(&sum, sg, x.x, y.y, z.z);
			addTripleProduct(&sum, -sg, x.x, y.z, z.y);
			addTripleProduct(&sum, sg, x.y, y.z, z.x);
			addTripleProduct(&sum, -sg, x.y, y.x, z.z);
			addTripleProduct(&sum, sg, x.z, y.x, z.y);
			addTripleProduct(&sum, -sg, x.z, y.y, z.x);
		}
	}
	double low;
	bool converged;
	double high = sumTerms(&sum, &low, &converged);
	if (!converged) {
		return orient3dBig(a, b, c, d, tail);
	}
	*tail = scaleKeepingSign(low, 3L * e);
	return scaleKeepingSign(high, 3L * e);
}

/* Tier 3 of orient2d. */
static double orient2dBig(double ax, double ay, double bx, double by, double cx, double cy)
{
	double in[6] = { ax, ay, bx, by, cx, cy };
	mpz_t v[6], l, r;
	for (int i = 0; i < 6; ++i) {
		mpz_init(v[i]);
	}
	mpz_inits(l, r, NULL);
	long scale = bcExactIntegers(v, in, 6);
	/* (bx - ax)(cy - ay) - (by - ay)(cx - ax) */
	mpz_sub(v[2], v[2], v[0]);
	mpz_sub(v[3], v[3], v[1]);
	mpz_sub(v[4], v[4], v[0]);
	mpz_sub(v[5], v[5], v[1]);
	mpz_mul(l, v[2], v[5]);
	mpz_mul(r, v[3], v[4]);
	mpz_sub(l, l, r);
	bcExactDouble d = bcExactToDouble(l);
	double value = scaleKeepingSign(d.mantissa, d.exponent + 2 * scale);
	for (int i = 0; i < 6; ++i) {
		mpz_clear(v[i]);
	}
	mpz_clears(l, r, NULL);
	return value;
}

/* Tier 2 of orient2d, as orient3dExact: from exact differences, 2
 * products, or from the raw coordinates,
 *     bx cy - by cx - ax cy + ay cx + ax by - ay bx. */
static double orient2dExact(double ax, double ay, double bx, double by, double cx, double cy)
{
	bcVec3 p[3] = { { ax, ay, 0.0 }, { bx, by, 0.0 }, { cx, cy, 0.0 } };
	int e = bcScaleExponent(p, 3);
	double coordinates[6] = { ax, ay, bx, by, cx, cy };
	if (!inExpansionRange(coordinates, 6, e)) {
		return orient2dBig(ax, ay, bx, by, cx, cy);
	}
	for (int i = 0; i < 3; ++i) {
		p[i] = bcScaled(p[i], -e);
	}
	double ux, uy, vx, vy, t0, t1, t2, t3;
	twoDiff(p[1].x, p[0].x, &ux, &t0);
	twoDiff(p[1].y, p[0].y, &uy, &t1);
	twoDiff(p[2].x, p[0].x, &vx, &t2);
	twoDiff(p[2].y, p[0].y, &vy, &t3);
	bool exactDifferences = t0 == 0.0 && t1 == 0.0 && t2 == 0.0 && t3 == 0.0;
	double differences[4] = { ux, uy, vx, vy };
	if (exactDifferences && !inExpansionRange(differences, 4, 0)) {
		return orient2dBig(ax, ay, bx, by, cx, cy);
	}
	bcTerms sum;
	sum.n = 0;
	if (exactDifferences) {
		addProduct(&sum, 1.0, ux, vy);
		addProduct(&sum, -1.0, uy, vx);
	} else {
		addProduct(&sum, 1.0, p[1].x, p[2].y);
		addProduct(&sum, -1.0, p[1].y, p[2].x);
		addProduct(&sum, -1.0, p[0].x, p[2].y);
		addProduct(&sum, 1.0, p[0].y, p[2].x);
		addProduct(&sum, 1.0, p[0].x, p[1].y);
		addProduct(&sum, -1.0, p[0].y, p[1].x);
	}
	double low;
	bool converged;
	double high = sumTerms(&sum, &low, &converged);
	if (!converged) {
		return orient2dBig(ax, ay, bx, by, cx, cy);
	}
	return scaleKeepingSign(high, 2L * e);
}

/* The orientation determinant of a, b, c, d in double precision, and in
 * *bound its error bound: BC_ORIENT3D_BOUND times the permanent, or
 * INFINITY where the filter cannot vouch for it (a permanent so small that
 * products may have underflowed, or one that is not finite). */
static double orient3dFiltered(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double* bound)
{
	double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
	double vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
	double wx = d.x - a.x, wy = d.y - a.y, wz = d.z - a.z;
	double vywz = vy * wz, vzwy = vz * wy;
	double vzwx = vz * wx, vxwz = vx * wz;
	double vxwy = vx * wy, vywx = vy * wx;
	double det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
	double permanent = fabs(ux) * (fabs(vywz) + fabs(vzwy)) + fabs(uy) * (fabs(vzwx) + fabs(vxwz)) +
					   fabs(uz) * (fabs(vxwy) + fabs(vywx));
	*bound = permanent >= BC_FILTER_MIN_PERMANENT && permanent <= DBL_MAX ? BC_ORIENT3D_BOUND * permanent : INFINITY;
	return det;
}

double bcOrient3d(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double relativeError)
{
	double bound;
	double det = orient3dFiltered(a, b, c, d, &bound);
	if (bound < relativeError * fabs(det)) {
		return det;
	}
	double tail;
	return orient3dExact(a, b, c, d, &tail);
}

double bcOrient3dBounded(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double* error)
{
	double bound;
	double det = orient3dFiltered(a, b, c, d, &bound);
	if (bound < fabs(det)) {
		*error = bound;
		return det;
	}
	double tail;
	double value = orient3dExact(a, b, c, d, &tail);
	*error = 2.0 * BC_UNIT_ROUNDOFF * fabs(value);
	return value;
}


double bcOrient2d(double ax, double ay, double bx, double by, double cx, double cy)
{
	double l = (bx - ax) * (cy - ay);
	double r = (by - ay) * (cx - ax);
	double det = l - r;
	double permanent = fabs(l) + fabs(r);
	if (permanent >= BC_FILTER_MIN_PERMANENT && permanent <= DBL_MAX) {
		double bound = BC_ORIENT2D_BOUND * permanent;
		if (det > bound || -det > bound) {
			return det;
		}
	}
	return orient2dExact(ax, ay, bx, by, cx, cy);
}

bcVec3 bcExactCross(bcVec3 a, bcVec3 b, bcVec3 c)
{
	/* N.x = det[b - a, c - a] in (y, z), N.y in (z, x), N.z in (x, y). */
	return bcMakeVec3(orient2dExact(a.y, a.z, b.y, b.z, c.y, c.z), orient2dExact(a.z, a.x, b.z, b.x, c.z, c.x),
					  orient2dExact(a.x, a.y, b.x, b.y, c.x, c.y));
}
