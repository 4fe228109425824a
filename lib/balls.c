/* balls.c - moving balls against each other: when two balls first meet, how
 * they bounce, and a whole set of balls moving at once.
 *
 * Two balls (the course's collision detection slides): express ball 2's motion in ball 1's frame, shrink
 * ball 2 to its centre and grow ball 1 by r2. With m = c2 - c1,
 * d = d2 - d1 and R = r1 + r2 the centres are R apart when
 *     |m + alpha d|^2 = R^2,   a alpha^2 + 2 b alpha + c = 0,
 *     a = d.d,  b = m.d,  c = m.m - R^2,
 * and the balls first meet at the smaller root, taken in the
 * cancellation-free form c / (-b + sqrt(b^2 - ac)) (as in sweep.c). The
 * discriminant b^2 - ac is evaluated as a R^2 - |m x d|^2 (Lagrange's
 * identity |m|^2 |d|^2 - (m.d)^2 = |m x d|^2): the textbook difference of
 * two numbers of size |m|^2 |d|^2 loses everything when the balls are far
 * apart compared to R, this form loses nothing there.
 *
 * Every decision is exact for the input doubles: the sign of c (an
 * initial overlap, or touching at alpha 0), of b (approaching), of the
 * discriminant (meeting at all) and whether the root is at most 1. Each is
 * the sign of a polynomial in the inputs, first computed in doubles with a
 * bound on its error; one within its bound of 0 is decided again in big
 * integers (GMP, through predicates.h), as sweep_exact.c does for a ball
 * against a triangle. So a start exactly r1 + r2 apart, a path grazing at
 * exactly r1 + r2 or a contact exactly at alpha 1 is answered as the rules
 * say, whatever the rounding. The start decides an overlap on its own:
 * c depends on the centres and radii only.
 *
 * The doubles' part is scaled by powers of two, which is exact: the
 * start (c1, c2, r1, r2) by one so that its largest number is below 1, the
 * motion (d1, d2) by another; c, b and the discriminant are then at most a
 * few units, a product of the two scales comes out of the root again. A
 * quantity that underflows (a radius 2^-600 of the coordinates, a motion
 * 2^600 times the radii) only widens its error bound, and the big integers
 * decide. Before this scaling the radii's squares underflowed for motions
 * beyond about 2^537 times the radii, and overlapping balls were a miss.
 *
 * alpha is within BC_BALL_ALPHA_ACCURACY of the exact root, relatively:
 * the doubles' root comes with a bound on its error, and one whose bound
 * exceeds that is computed again from the big integers (to an ulp). The
 * contact normal, the centres' difference at alpha over its length, comes
 * from the scaled centres when their rounding (and alpha's error times the
 * motion) is small against R, else from the big integers.
 *
 * The computation is symmetric bit for bit: swapping the balls negates m
 * and d exactly and leaves a, b, c, m x d, R and every bound unchanged, so
 * both balls of a pair see the same alpha. The set query relies on that.
 *
 * A set of balls: every pair is judged on its straight trajectories. The
 * broad phase puts the swept boxes (each ball's path grown by its radius) in
 * a uniform grid whose cells are about twice the median box; boxes too big
 * for it go on coarser grids, each level taking at least half of the boxes
 * left, and are looked up from the finer levels. Only pairs whose boxes
 * overlap reach the exact test, each pair once: in the cell holding the
 * lower corner of the boxes' intersection. (Sweep and prune along one axis
 * was measured first: at a fixed density its pairs overlapping on the
 * sweep axis grow as count^(5/3), 1.6e8 per pass for 1e5 balls.)
 *
 * The answer for a ball depends only on the set of pairs that touch, never
 * on the order they are found in: a first pass finds each ball's earliest
 * contact, a second picks the lowest partner index within the tie window.
 * So the grid and the all-pairs path give the same bits.
 */
#include <float.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "predicates.h"
#include "vec3.h"

/* Swept boxes are grown by this fraction of their largest coordinate (plus
 * the radius) so that rounding never makes the broad phase drop a pair the
 * exact test calls touching: a box's corners (p -+ r, and p1 where the path
 * ends at p0 + (p1 - p0) rounded) are within a few ulps (about 1e-15) of
 * its largest coordinate; 1e-12 is a thousand times that, and costs
 * nothing measurable in extra pairs. */
#define BC_BALL_BOX_PADDING 1e-12

/* Where an initial overlap sorts: before any real alpha in [0, 1]. */
#define BC_BALL_OVERLAP_KEY (-1.0)

/* A ball without any contact: after every real alpha. */
#define BC_BALL_NO_KEY 2.0

/* The largest scale-up is 2^1000 (2^1074 would not be finite): inputs
 * all below 2^-1000, deep in the subnormals, are scaled by that only. */
#define BC_BALL_MIN_SCALE_EXPONENT (-1000)

/* Relative error bounds of the doubles' c = m.m - R^2 and b = m.d (degree
 * 2), and of the discriminant a R^2 - |m x d|^2 (degree 4), over their
 * permanents (the same sums with every product made positive), scaled or
 * not. Every operation rounds once (relative 2^-53): c's terms
 * see 6 roundings in a row (m's difference twice through the square, the
 * square, two sums, the final difference), b's 5; the discriminant's a R^2
 * 10, and each |m x d|_k^2 about 12 (its component's 4 errors doubled by
 * the square, then 4 more). One more for the bounds' own rounding. */
#define BC_BALL_DEGREE2_ERROR (7.0 * BC_UNIT_ROUNDOFF)
#define BC_BALL_DEGREE4_ERROR (13.0 * BC_UNIT_ROUNDOFF)

/* Numbers within this of 1 (2^100 and 2^-100, the largest of a pair) are
 * used unscaled: products of up to four stay far inside the doubles, and
 * the absolute error underflow can add is below BC_BALL_PLAIN_UNDERFLOW_ERROR:
 * half a subnormal step lost by each of fewer than 64 operations, multiplied
 * afterwards by at most (2^102)^2. */
#define BC_BALL_PLAIN_RANGE 0x1p100
#define BC_BALL_PLAIN_UNDERFLOW_ERROR 0x1p-860

/* The absolute error underflow can add to those: each of the fewer than
 * 64 scalings and products loses at most half a subnormal step (2^-1075),
 * multiplied afterwards by at most 64 (scaled inputs are below 1, their
 * differences below 2, squares below 4). 2^-1060 is 2^14 steps. */
#define BC_BALL_UNDERFLOW_ERROR 0x1p-1060

/* alpha is within this of the exact root, relatively (the man page's
 * promise): a root from the doubles whose error bound exceeds it is
 * computed again from the big integers. The same 2^-40 as for a ball
 * against a triangle; the tie tolerance, 1e-10, is a hundred times it. */
#define BC_BALL_ALPHA_ACCURACY 0x1p-40

/* A normal from the doubles is kept when its error bound, 4 times the
 * centres' difference's over its length (2 sqrt 3 for the worst direction
 * of a componentwise error), is below this; else it comes from the big
 * integers. 2^-31 (4.7e-10) keeps the man page's 1e-9 of a radian with
 * room for the bound's own rounding. */
#define BC_BALL_NORMAL_ACCURACY 0x1p-31

/* Bits of the big integers' square roots (floor(sqrt(x 4^k)) for the k
 * that gives at least this many): their error, one unit, then changes the
 * quotients of alpha and the normal by 2^-80 relatively, far below the
 * half ulp of the final rounding. */
#define BC_BALL_ROOT_BITS 80

/* The elastic response of velocities up to 2^1000 stays inside the
 * doubles: s and t are below sqrt(3) 2^1000, (1 + e) (t - s) below 2^1003.
 * Faster ones (up to the largest double, below 2^1024) are scaled down by
 * 2^8 first, which keeps every step below 2^1020. */
#define BC_BALL_RESPONSE_RANGE 0x1p1000
#define BC_BALL_RESPONSE_SHIFT 8

bcBallsOptions bcDefaultBallsOptions(void)
{
	bcBallsOptions options = { 1.0, false };
	return options;
}

/* Two balls: centres ci + alpha di, radii ri. */
typedef struct bcBallPair {
	bcVec3 c1, d1, c2, d2;
	double r1, r2;
} bcBallPair;

/* When a pair first meets. */
typedef struct bcBallTime {
	bcBallState state;
	double alpha;
	double error; /* a bound on alpha's error, relative to alpha */
} bcBallTime;

/* The exponent e with big * 2^-e in [0.5, 1) (frexp's; 0 for 0), at least
 * BC_BALL_MIN_SCALE_EXPONENT. Read from the bits for a normal double: this
 * runs for every pair the broad phase passes, and frexp is a call. */
static int scaleExponent(double big)
{
	uint64_t bits;
	memcpy(&bits, &big, sizeof bits);
	int biased = (int)((bits >> 52) & 0x7ff);
	int e = 0;
	if (biased != 0) {
		e = biased - 1022;
	} else if (big > 0.0) {
		frexp(big, &e);
	}
	return e < BC_BALL_MIN_SCALE_EXPONENT ? BC_BALL_MIN_SCALE_EXPONENT : e;
}

/* 2^k, from the bits when it is a normal double. */
static double powerOfTwo(int k)
{
	if (k < -1022 || k > 1023) {
		return ldexp(1.0, k);
	}
	uint64_t bits = (uint64_t)(k + 1023) << 52;
	double x;
	memcpy(&x, &bits, sizeof x);
	return x;
}

static double maxAbs3(bcVec3 v, double m)
{
	double x = fabs(v.x), y = fabs(v.y), z = fabs(v.z);
	m = x > m ? x : m;
	m = y > m ? y : m;
	return z > m ? z : m;
}

/* The exponent of the start (centres and radii). */
static int startExponent(const bcBallPair* p)
{
	double big = p->r1 > p->r2 ? p->r1 : p->r2;
	return scaleExponent(maxAbs3(p->c2, maxAbs3(p->c1, big)));
}

/* The exponent of the motion. */
static int motionExponent(const bcBallPair* p)
{
	return scaleExponent(maxAbs3(p->d2, maxAbs3(p->d1, 0.0)));
}

static bcVec3 absVec(bcVec3 v)
{
	return bcMakeVec3(fabs(v.x), fabs(v.y), fabs(v.z));
}

/* a x b with every product made positive: |a_j b_k| + |a_k b_j|. */
static bcVec3 crossPermanent(bcVec3 a, bcVec3 b)
{
	bcVec3 x = absVec(a), y = absVec(b);
	return bcMakeVec3(x.y * y.z + x.z * y.y, x.z * y.x + x.x * y.z, x.x * y.y + x.y * y.x);
}

/* ------------------------------------------------------------ exact path */

/* The pair as big integers on one scale (bcExactIntegers): m = c2 - c1,
 * d = d2 - d1, R = r1 + r2 and the quadratic's a, b, c, its discriminant
 * a R^2 - |m x d|^2. */
typedef struct bcBallExact {
	mpz_t m[3], d[3], r, a, b, c, disc, t0, t1, t2;
} bcBallExact;

static void exactLoad(bcBallExact* x, const bcBallPair* p)
{
	const double in[14] = { p->c1.x, p->c1.y, p->c1.z, p->d1.x, p->d1.y, p->d1.z, p->r1,
							p->c2.x, p->c2.y, p->c2.z, p->d2.x, p->d2.y, p->d2.z, p->r2 };
	mpz_t v[14];
	for (int i = 0; i < 14; ++i) {
		mpz_init(v[i]);
	}
	bcExactIntegers(v, in, 14);
	mpz_inits(x->r, x->a, x->b, x->c, x->disc, x->t0, x->t1, x->t2, NULL);
	for (int k = 0; k < 3; ++k) {
		mpz_init(x->m[k]);
		mpz_init(x->d[k]);
		mpz_sub(x->m[k], v[7 + k], v[k]);
		mpz_sub(x->d[k], v[10 + k], v[3 + k]);
	}
	mpz_add(x->r, v[6], v[13]);
	for (int i = 0; i < 14; ++i) {
		mpz_clear(v[i]);
	}
	mpz_set_ui(x->a, 0);
	mpz_set_ui(x->b, 0);
	mpz_mul(x->c, x->r, x->r);
	mpz_neg(x->c, x->c);
	for (int k = 0; k < 3; ++k) {
		mpz_addmul(x->a, x->d[k], x->d[k]);
		mpz_addmul(x->b, x->m[k], x->d[k]);
		mpz_addmul(x->c, x->m[k], x->m[k]);
	}
	/* disc = a R^2 - |m x d|^2 */
	mpz_mul(x->disc, x->r, x->r);
	mpz_mul(x->disc, x->disc, x->a);
	for (int k = 0; k < 3; ++k) {
		int j = (k + 1) % 3, l = (k + 2) % 3;
		mpz_mul(x->t0, x->m[j], x->d[l]);
		mpz_submul(x->t0, x->m[l], x->d[j]);
		mpz_submul(x->disc, x->t0, x->t0);
	}
}

static void exactClear(bcBallExact* x)
{
	for (int k = 0; k < 3; ++k) {
		mpz_clear(x->m[k]);
		mpz_clear(x->d[k]);
	}
	mpz_clears(x->r, x->a, x->b, x->c, x->disc, x->t0, x->t1, x->t2, NULL);
}

/* out = floor(sqrt(v 4^shift)). */
static void exactRoot(mpz_t out, const mpz_t v, long shift)
{
	mpz_mul_2exp(out, v, (mp_bitcnt_t)(2 * shift));
	mpz_sqrt(out, out);
}

/* The shift that gives an integer of `bits` bits at least BC_BALL_ROOT_BITS. */
static long rootShift(size_t bits)
{
	return bits >= BC_BALL_ROOT_BITS ? 0 : (long)(BC_BALL_ROOT_BITS - bits);
}

/* The smaller root c / (sqrt(disc) - b) (b < 0, c > 0, disc >= 0), within
 * an ulp: a double root (disc = 0) is the rational c / -b correctly
 * rounded. */
static double exactAlpha(bcBallExact* x)
{
	mpz_neg(x->t1, x->b);
	if (mpz_sgn(x->disc) == 0) {
		return bcExactRatio(x->c, x->t1);
	}
	long shift = rootShift(mpz_sizeinbase(x->t1, 2));
	exactRoot(x->t0, x->disc, shift);
	mpz_mul_2exp(x->t1, x->t1, (mp_bitcnt_t)shift);
	mpz_add(x->t0, x->t0, x->t1);
	mpz_mul_2exp(x->t2, x->c, (mp_bitcnt_t)shift);
	return bcExactRatio(x->t2, x->t0);
}

/* The state and alpha of the pair, every decision exact. */
static bcBallTime exactTime(const bcBallPair* p)
{
	bcBallExact x;
	exactLoad(&x, p);
	bcBallTime t = { bc_ballMiss, 1.0, 2.0 * BC_UNIT_ROUNDOFF };
	if (mpz_sgn(x.c) < 0) {
		t.state = bc_ballInitialOverlap;
		t.alpha = 0.0;
	} else if (mpz_sgn(x.b) >= 0 || mpz_sgn(x.disc) < 0) {
		/* Not approaching (touching while separating or at relative rest
		 * included), or passing by. */
	} else if (mpz_sgn(x.c) == 0) {
		t.state = bc_ballHit;
		t.alpha = 0.0;
	} else {
		/* The root (-b - sqrt disc) / a <= 1: -b - a - sqrt(disc) <= 0. */
		mpz_neg(x.t0, x.b);
		mpz_sub(x.t0, x.t0, x.a);
		mpz_set_si(x.t1, -1);
		if (bcExactSignWithRoot(x.t0, x.t1, x.disc) <= 0) {
			double alpha = exactAlpha(&x);
			t.state = bc_ballHit;
			t.alpha = alpha > 1.0 ? 1.0 : alpha;
		}
	}
	exactClear(&x);
	return t;
}

/* w / |w| for an integer vector w != 0, each component within an ulp. */
static bcVec3 exactUnit(bcBallExact* x, mpz_t w[3])
{
	mpz_set_ui(x->t1, 0);
	for (int k = 0; k < 3; ++k) {
		mpz_addmul(x->t1, w[k], w[k]);
	}
	long shift = rootShift(mpz_sizeinbase(x->t1, 2) / 2);
	exactRoot(x->t0, x->t1, shift);
	double n[3];
	for (int k = 0; k < 3; ++k) {
		mpz_mul_2exp(x->t2, w[k], (mp_bitcnt_t)shift);
		n[k] = bcExactRatio(x->t2, x->t0);
	}
	return bcMakeVec3(n[0], n[1], n[2]);
}

/* The contact normal from the big integers: at alpha 0 the direction of m
 * (of d when the centres coincide, 0 when d is 0 too); at a contact after
 * alpha 0 (R > 0) (m + alpha d) / R with alpha = (-b - sqrt disc) / a:
 * (a m - b d - sqrt(disc) d) / (a R). */
static bcVec3 exactNormal(const bcBallPair* p, bool atStart)
{
	bcBallExact x;
	exactLoad(&x, p);
	bcVec3 normal = bcMakeVec3(0.0, 0.0, 0.0);
	bool mZero = mpz_sgn(x.m[0]) == 0 && mpz_sgn(x.m[1]) == 0 && mpz_sgn(x.m[2]) == 0;
	bool dZero = mpz_sgn(x.d[0]) == 0 && mpz_sgn(x.d[1]) == 0 && mpz_sgn(x.d[2]) == 0;
	if (atStart && !mZero) {
		normal = exactUnit(&x, x.m);
	} else if (atStart || mpz_sgn(x.r) == 0) {
		normal = dZero ? normal : exactUnit(&x, x.d);
	} else {
		/* den = a R 2^shift, sqrt(disc) 2^shift as an integer. */
		long shift = rootShift(mpz_sizeinbase(x.a, 2) / 2 + mpz_sizeinbase(x.r, 2));
		mpz_t den, root, num;
		mpz_inits(den, root, num, NULL);
		mpz_mul(den, x.a, x.r);
		mpz_mul_2exp(den, den, (mp_bitcnt_t)shift);
		exactRoot(root, x.disc, shift);
		double n[3];
		for (int k = 0; k < 3; ++k) {
			mpz_mul(num, x.a, x.m[k]);
			mpz_submul(num, x.b, x.d[k]);
			mpz_mul_2exp(num, num, (mp_bitcnt_t)shift);
			mpz_submul(num, root, x.d[k]);
			n[k] = bcExactRatio(num, den);
		}
		normal = bcMakeVec3(n[0], n[1], n[2]);
		mpz_clears(den, root, num, NULL);
	}
	exactClear(&x);
	return normal;
}

/* -------------------------------------------------------- doubles' path */

/* The state and alpha of a pair, with c, d, r already valid: from the
 * doubles when every sign is certain and alpha's bound is within
 * BC_BALL_ALPHA_ACCURACY, else exactTime. */
static bcBallTime pairTime(const bcBallPair* p)
{
	bcBallTime t = { bc_ballMiss, 1.0, 0.0 };
	/* Unscaled when every number is within BC_BALL_PLAIN_RANGE of 1 (the
	 * usual case; the bits are the same either way), else the start and the
	 * motion each scaled to below 1 and alpha scaled back by 2^shift. */
	double big = p->r1 > p->r2 ? p->r1 : p->r2;
	big = maxAbs3(p->d2, maxAbs3(p->d1, maxAbs3(p->c2, maxAbs3(p->c1, big))));
	double s = 1.0, sd = 1.0, tiny = BC_BALL_PLAIN_UNDERFLOW_ERROR;
	int shift = 0;
	if (!(big >= 1.0 / BC_BALL_PLAIN_RANGE && big <= BC_BALL_PLAIN_RANGE)) {
		int eStart = startExponent(p), eMotion = motionExponent(p);
		s = powerOfTwo(-eStart);
		sd = powerOfTwo(-eMotion);
		shift = eStart - eMotion;
		tiny = BC_BALL_UNDERFLOW_ERROR;
	}
	bcVec3 m = bcSub(bcScale(s, p->c2), bcScale(s, p->c1));
	double R = s * p->r1 + s * p->r2;
	double rr = R * R;
	double mm = bcDot(m, m);
	double cc = mm - rr;
	double ccError = BC_BALL_DEGREE2_ERROR * (mm + rr) + tiny;
	if (cc < -ccError) {
		t.state = bc_ballInitialOverlap;
		t.alpha = 0.0;
		return t;
	}
	if (p->d1.x == p->d2.x && p->d1.y == p->d2.y && p->d1.z == p->d2.z) {
		/* At relative rest (d = 0 exactly, as for two fixed balls): only an
		 * overlap meets. */
		return cc > ccError ? t : exactTime(p);
	}
	bcVec3 d = bcSub(bcScale(sd, p->d2), bcScale(sd, p->d1));
	double bb = bcDot(m, d);
	double aa = bcDot(d, d);
	/* The bounds' permanents, first from |m| and |d| alone (sum |m_k d_k|
	 * <= (|m|^2 + |d|^2) / 2, sum (|m_j d_k| + |m_k d_j|)^2 <= 2 |m|^2 |d|^2),
	 * which decide most pairs, then term by term. */
	double bbError = BC_BALL_DEGREE2_ERROR * 0.5 * (mm + aa) + tiny;
	if (cc > ccError && bb > bbError) {
		/* Not approaching: the distance only grows from here. */
		return t;
	}
	bcVec3 md = bcCross(m, d);
	double disc = aa * rr - bcDot(md, md);
	double discError = BC_BALL_DEGREE4_ERROR * (aa * rr + 2.0 * mm * aa) + tiny;
	if (cc > ccError && disc < -discError) {
		return t; /* passing by */
	}
	bbError = BC_BALL_DEGREE2_ERROR * bcDot(absVec(m), absVec(d)) + tiny;
	bcVec3 mdPermanent = crossPermanent(m, d);
	discError = BC_BALL_DEGREE4_ERROR * (aa * rr + bcDot(mdPermanent, mdPermanent)) + tiny;
	if (bb > bbError && cc > ccError) {
		return t;
	}
	if (disc < -discError && cc > ccError) {
		return t;
	}
	if (!(cc > ccError && bb < -bbError && disc > discError)) {
		return exactTime(p);
	}
	/* c > 0, b < 0, disc > 0: the root and a bound on its error. */
	double root = sqrt(disc);
	double den = root - bb;
	double rootError = fmin(discError / root, sqrt(discError)) + BC_UNIT_ROUNDOFF * root;
	double denError = rootError + bbError + BC_UNIT_ROUNDOFF * den;
	double error = (ccError / cc + denError / den) * (1.0 + 0x1p-20) + 4.0 * BC_UNIT_ROUNDOFF;
	double scaled = cc / den;
	if (!(error <= BC_BALL_ALPHA_ACCURACY) || !(scaled <= DBL_MAX)) {
		return exactTime(p);
	}
	/* m and R scaled by 2^-eStart, d by 2^-eMotion: alpha by 2^(eMotion -
	 * eStart). */
	double alpha = shift == 0 ? scaled : ldexp(scaled, shift);
	if (alpha * (1.0 + 2.0 * error) < 1.0) {
		t.state = bc_ballHit;
		t.alpha = alpha;
		t.error = error;
		return t;
	}
	if (alpha * (1.0 - 2.0 * error) > 1.0) {
		return t;
	}
	return exactTime(p); /* within rounding of alpha = 1 */
}

static bool isValidBall(bcVec3 c, bcVec3 d, double r)
{
	return bcIsFinite(c) && bcIsFinite(d) && bcIsFinite(bcAdd(c, d)) && isfinite(r) && r >= 0.0;
}

/* Contact point and normal at alpha for a pair known to touch there. */
static void pairContact(const bcBallPair* p, const bcBallTime* t, bcBallHit* hit)
{
	/* The normal from the centres scaled by the pair's largest number:
	 * normalising is scale-free, and scaled centres never overflow when
	 * subtracted. */
	double big = p->r1 > p->r2 ? p->r1 : p->r2;
	int e = scaleExponent(maxAbs3(p->d2, maxAbs3(p->d1, maxAbs3(p->c2, maxAbs3(p->c1, big)))));
	double s = powerOfTwo(-e);
	double alpha = t->alpha;
	bcVec3 sc1 = bcScale(s, p->c1), sc2 = bcScale(s, p->c2);
	bcVec3 sd1 = bcScale(s, p->d1), sd2 = bcScale(s, p->d2);
	bcVec3 size = bcAdd(absVec(sc1), absVec(sc2));
	bcVec3 reach = bcAdd(absVec(sd1), absVec(sd2));
	bool atStart = t->state == bc_ballInitialOverlap || alpha == 0.0;
	bool coincide = atStart && p->c1.x == p->c2.x && p->c1.y == p->c2.y && p->c1.z == p->c2.z;
	if (!atStart) {
		sc1 = bcMulAdd(sc1, alpha, sd1);
		sc2 = bcMulAdd(sc2, alpha, sd2);
	}
	bcVec3 w = bcSub(sc2, sc1);
	/* A bound on w's error against s (m + alpha d) at the exact alpha: two
	 * roundings of each centre, one of the difference, alpha's error along
	 * the motion, and underflow. */
	double wError = BC_UNIT_ROUNDOFF * bcMaxAbs(w) + BC_BALL_UNDERFLOW_ERROR;
	if (!atStart) {
		wError += 2.0 * BC_UNIT_ROUNDOFF * (bcMaxAbs(size) + alpha * bcMaxAbs(reach)) +
				  (t->error + BC_UNIT_ROUNDOFF) * alpha * bcMaxAbs(reach);
	}
	bcVec3 normal;
	if (coincide || (!atStart && p->r1 == 0.0 && p->r2 == 0.0)) {
		/* Centres that coincide (points meet only so): ball 2 heads along
		 * d2 - d1 from ball 1, scaled by the motion alone (a motion 2^-600
		 * of the radii would vanish on the pair's scale). */
		double sm = powerOfTwo(-motionExponent(p));
		normal = bcNormalize(bcSub(bcScale(sm, p->d2), bcScale(sm, p->d1)));
	} else if (4.0 * wError <= BC_BALL_NORMAL_ACCURACY * bcLength(w)) {
		normal = bcNormalize(w);
	} else {
		normal = exactNormal(p, atStart);
	}
	bcVec3 center = alpha != 0.0 ? bcMulAdd(p->c1, alpha, p->d1) : p->c1;
	hit->normal = bcPositiveZeros(normal);
	hit->point = bcMulAdd(center, p->r1, hit->normal);
}

static bcBallHit collidePair(const bcBallPair* p)
{
	bcBallHit hit = { bc_ballMiss, 1.0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	bcBallTime t = pairTime(p);
	hit.state = t.state;
	hit.alpha = t.alpha;
	if (t.state != bc_ballMiss) {
		pairContact(p, &t, &hit);
	}
	return hit;
}

bcBallHit bcCollideBalls(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2)
{
	if (!isValidBall(c1, d1, r1) || !isValidBall(c2, d2, r2)) {
		bcBallHit hit = { bc_ballInvalid, 1.0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
		return hit;
	}
	bcBallPair p = { c1, d1, c2, d2, r1, r2 };
	return collidePair(&p);
}

void bcElasticResponse(bcVec3 v1, double m1, bcVec3 v2, double m2, bcVec3 normal, double restitution,
					   bcVec3* v1After, bcVec3* v2After)
{
	bcVec3 out1 = v1, out2 = v2;
	bool valid = m1 > 0.0 && m2 > 0.0 && !(isinf(m1) && isinf(m2)) && restitution >= 0.0 && restitution <= 1.0;
	if (valid) {
		/* The response is linear in the velocities. Speeds beyond
		 * BC_BALL_RESPONSE_RANGE are computed scaled down by
		 * 2^BC_BALL_RESPONSE_SHIFT (exact) and scaled back, so that no
		 * difference or product overflows (t - s did for speeds beyond
		 * 9e307, and came out NaN): only a result beyond the doubles'
		 * range does, as an infinity. Slower ones are left alone, bit for
		 * bit, tiny tangential components included. */
		int e = maxAbs3(v2, maxAbs3(v1, 0.0)) > BC_BALL_RESPONSE_RANGE ? BC_BALL_RESPONSE_SHIFT : 0;
		bcVec3 w1 = e == 0 ? v1 : bcScaled(v1, -e), w2 = e == 0 ? v2 : bcScaled(v2, -e);
		double s = bcDot(w1, normal);
		double t = bcDot(w2, normal);
		/* m2 / (m1 + m2) and m1 / (m1 + m2), written so that an infinite
		 * mass gives 1 and 0 (never inf / inf) and no sum overflows. */
		double share1 = 1.0 / (m1 / m2 + 1.0);
		double share2 = 1.0 / (m2 / m1 + 1.0);
		double k = 1.0 + restitution;
		out1 = bcMulAdd(w1, k * share1 * (t - s), normal);
		out2 = bcMulAdd(w2, k * share2 * (s - t), normal);
		if (e != 0) {
			out1 = bcScaled(out1, e);
			out2 = bcScaled(out2, e);
		}
	}
	if (v1After != NULL) {
		*v1After = out1;
	}
	if (v2After != NULL) {
		*v2After = out2;
	}
}

/* ------------------------------------------------------------------ sets */

/* A grid level's cells are this many times the median extent of the boxes
 * still to place: a typical box then covers one or two cells per axis, the
 * usual trade between cells per box and boxes per cell. */
#define BC_BALL_GRID_CELL_FACTOR 2.0

/* A box goes on the first level where it covers at most this many cells
 * along every axis (27 cells in all). Every box no longer than the median
 * covers at most 2 (3 with rounding), so each level takes at least half of
 * the boxes left and there are at most about log2(count) levels. */
#define BC_BALL_GRID_MAX_SPAN 3

/* Cells are never smaller than the scene over 2^30, so their indices fit
 * 32 bits (clamped at 2^31 - 1 all the same: the last cell takes anything
 * beyond, which costs time, never answers). */
#define BC_BALL_GRID_MIN_CELLS 1073741824.0
#define BC_BALL_GRID_MAX_INDEX 2147483647u

/* More levels than halving 2^31 boxes can make. */
#define BC_BALL_GRID_MAX_LEVELS 40

typedef struct bcGridBox {
	double lower[3];
	double upper[3];
	double extent;   /* largest side */
	uint32_t order[3]; /* the cell of its lower corner on its level: boxes near in space
	                  * are stored near in memory */
	int32_t ball;
	int level;       /* 1 + its grid level once placed (0 before); -1: a box
	                  * without finite bounds, tested against every box */
} bcGridBox;

typedef struct bcGridEntry {
	uint32_t cell[3]; /* cell indices along x, y, z */
	int32_t box;
} bcGridEntry;

typedef struct bcGridLevel {
	double inverse;       /* 1 / cell size */
	int firstBox, boxEnd; /* the level's boxes, contiguous after sorting */
	bcGridEntry* entries; /* every (cell, box) covered, sorted by cell then box */
	size_t entryCount;
} bcGridLevel;

typedef struct bcGrid {
	bcGridBox* boxes;
	int boxCount;
	int wideEnd;          /* boxes [0, wideEnd) have non-finite bounds */
	double origin[3];
	bcGridLevel levels[BC_BALL_GRID_MAX_LEVELS];
	int levelCount;
} bcGrid;

typedef struct bcBallSet {
	const bcBallInput* balls;
	bcVec3* d;        /* p1 - p0 per ball */
	bool* valid;
	double* minKey;   /* earliest contact per ball (BC_BALL_NO_KEY: none) */
	int32_t* partner; /* lowest partner index within the tie window */
	int* ties;
	int pass;         /* 1: earliest contacts; 2: partners within the window */
} bcBallSet;

/* A fixed ball's p1 and mass are not read: it stays at p0 and nothing
 * moves it (the slides' obstacle of infinite mass). */
static bool isValidSetBall(const bcBallInput* ball)
{
	if (ball->fixed) {
		return bcIsFinite(ball->p0) && isfinite(ball->radius) && ball->radius >= 0.0;
	}
	bcVec3 d = bcSub(ball->p1, ball->p0);
	return bcIsFinite(ball->p0) && bcIsFinite(ball->p1) && bcIsFinite(d) && bcIsFinite(bcAdd(ball->p0, d)) &&
		   isfinite(ball->radius) && ball->radius >= 0.0 && (ball->mass == 0.0 || ball->mass > 0.0);
}

/* Where the ball is at alpha = 1. */
static bcVec3 endOf(const bcBallInput* ball)
{
	return ball->fixed ? ball->p0 : ball->p1;
}

static double massOf(const bcBallInput* ball)
{
	return ball->mass == 0.0 ? 1.0 : ball->mass;
}

static void visitPair(bcBallSet* set, int32_t a, int32_t b)
{
	if (a > b) {
		int32_t swap = a;
		a = b;
		b = swap;
	}
	if (set->pass == 2 && set->minKey[a] == BC_BALL_NO_KEY && set->minKey[b] == BC_BALL_NO_KEY) {
		return;
	}
	const bcBallInput* ba = set->balls + a;
	const bcBallInput* bb = set->balls + b;
	bcBallPair pair = { ba->p0, set->d[a], bb->p0, set->d[b], ba->radius, bb->radius };
	bcBallTime t = pairTime(&pair);
	if (t.state == bc_ballMiss) {
		return;
	}
	double key = t.state == bc_ballInitialOverlap ? BC_BALL_OVERLAP_KEY : t.alpha;
	if (set->pass == 1) {
		set->minKey[a] = key < set->minKey[a] ? key : set->minKey[a];
		set->minKey[b] = key < set->minKey[b] ? key : set->minKey[b];
		return;
	}
	if (key <= set->minKey[a] + BC_BALL_TIE_TOLERANCE) {
		set->ties[a] += 1;
		set->partner[a] = b < set->partner[a] ? b : set->partner[a];
	}
	if (key <= set->minKey[b] + BC_BALL_TIE_TOLERANCE) {
		set->ties[b] += 1;
		set->partner[b] = a < set->partner[b] ? a : set->partner[b];
	}
}

static void runBruteForce(bcBallSet* set, int count)
{
	for (int32_t a = 0; a < count; ++a) {
		if (!set->valid[a]) {
			continue;
		}
		for (int32_t b = a + 1; b < count; ++b) {
			if (set->valid[b]) {
				visitPair(set, a, b);
			}
		}
	}
}

/* ------------------------------------------------------------ the grid */

static bool boxesOverlap(const bcGridBox* a, const bcGridBox* b)
{
	return a->lower[0] <= b->upper[0] && b->lower[0] <= a->upper[0] && a->lower[1] <= b->upper[1] &&
		   b->lower[1] <= a->upper[1] && a->lower[2] <= b->upper[2] && b->lower[2] <= a->upper[2];
}

/* The cell index of x along axis k. Monotone in x (a difference, a product
 * by a positive number, a truncation and a clamp all are), so boxes that
 * overlap always share a cell. */
static uint32_t cellIndex(const bcGrid* grid, const bcGridLevel* level, int k, double x)
{
	double v = (x - grid->origin[k]) * level->inverse;
	if (!(v >= 1.0)) {
		return 0;
	}
	return v >= (double)BC_BALL_GRID_MAX_INDEX ? BC_BALL_GRID_MAX_INDEX : (uint32_t)v;
}

/* Cells in z, then y, then x order. */
static int compareCells(const uint32_t a[3], const uint32_t b[3])
{
	for (int k = 2; k >= 0; --k) {
		if (a[k] != b[k]) {
			return a[k] < b[k] ? -1 : 1;
		}
	}
	return 0;
}

/* The cells box covers on level: [lo[k], hi[k]] per axis. */
static void cellRange(const bcGrid* grid, const bcGridLevel* level, const bcGridBox* box, uint32_t lo[3],
					  uint32_t hi[3])
{
	for (int k = 0; k < 3; ++k) {
		lo[k] = cellIndex(grid, level, k, box->lower[k]);
		hi[k] = cellIndex(grid, level, k, box->upper[k]);
	}
}

/* A pair of overlapping boxes is handled in one cell only: the cell of the
 * lower corner of their intersection, which both cover. Is that cell? */
static bool isOwner(const bcGrid* grid, const bcGridLevel* level, const bcGridBox* a, const bcGridBox* b,
					const uint32_t cell[3])
{
	for (int k = 0; k < 3; ++k) {
		if (cellIndex(grid, level, k, a->lower[k] > b->lower[k] ? a->lower[k] : b->lower[k]) != cell[k]) {
			return false;
		}
	}
	return true;
}

static int compareExtents(const void* pa, const void* pb)
{
	double a = *(const double*)pa, b = *(const double*)pb;
	return (a > b) - (a < b);
}

static int compareLevels(const void* pa, const void* pb)
{
	const bcGridBox* a = pa;
	const bcGridBox* b = pb;
	if (a->level != b->level) {
		return a->level < b->level ? -1 : 1;
	}
	int order = compareCells(a->order, b->order);
	if (order != 0) {
		return order;
	}
	return (a->ball > b->ball) - (a->ball < b->ball);
}

static int compareEntries(const void* pa, const void* pb)
{
	const bcGridEntry* a = pa;
	const bcGridEntry* b = pb;
	int cell = compareCells(a->cell, b->cell);
	if (cell != 0) {
		return cell;
	}
	return (a->box > b->box) - (a->box < b->box);
}

static void destroyGrid(bcGrid* grid)
{
	for (int i = 0; i < grid->levelCount; ++i) {
		bcFree(grid->levels[i].entries);
	}
	bcFree(grid->boxes);
	grid->boxes = NULL;
	grid->levelCount = 0;
}

/* Fill the grid's swept boxes (padded for rounding); returns false when out
 * of memory. */
static bool makeBoxes(bcGrid* grid, const bcBallSet* set, int count)
{
	grid->boxes = bcAlloc((size_t)(count > 0 ? count : 1) * sizeof *grid->boxes);
	if (grid->boxes == NULL) {
		return false;
	}
	int n = 0;
	for (int k = 0; k < 3; ++k) {
		grid->origin[k] = HUGE_VAL;
	}
	for (int32_t i = 0; i < count; ++i) {
		if (!set->valid[i]) {
			continue;
		}
		const bcBallInput* ball = set->balls + i;
		bcVec3 p1 = endOf(ball);
		double pad = BC_BALL_BOX_PADDING * (maxAbs3(p1, maxAbs3(ball->p0, 0.0)) + ball->radius);
		double grow = ball->radius + pad;
		bcVec3 lo = bcMin(ball->p0, p1);
		bcVec3 hi = bcMax(ball->p0, p1);
		bcGridBox* box = grid->boxes + n++;
		box->extent = 0.0;
		for (int k = 0; k < 3; ++k) {
			box->lower[k] = bcComponent(lo, k) - grow;
			box->upper[k] = bcComponent(hi, k) + grow;
			double side = box->upper[k] - box->lower[k];
			box->extent = side > box->extent ? side : box->extent;
		}
		box->ball = i;
		memset(box->order, 0, sizeof box->order);
		box->level = isfinite(box->extent) ? 0 : -1;
		for (int k = 0; k < 3 && box->level == 0; ++k) {
			grid->origin[k] = box->lower[k] < grid->origin[k] ? box->lower[k] : grid->origin[k];
		}
	}
	grid->boxCount = n;
	return true;
}

/* Place the finite boxes on levels and sort each level's cells. */
static bool buildLevels(bcGrid* grid)
{
	double span = 0.0;
	int remaining = 0;
	for (int i = 0; i < grid->boxCount; ++i) {
		const bcGridBox* box = grid->boxes + i;
		if (box->level < 0) {
			continue;
		}
		remaining += 1;
		for (int k = 0; k < 3; ++k) {
			double side = box->upper[k] - grid->origin[k];
			span = side > span ? side : span;
		}
	}
	double* extents = bcAlloc((size_t)(remaining > 0 ? remaining : 1) * sizeof *extents);
	if (extents == NULL) {
		return false;
	}
	/* Level numbers are assigned as 1 + level while placing; 0 means not yet. */
	int level = 0;
	while (remaining > 0 && level < BC_BALL_GRID_MAX_LEVELS) {
		int n = 0;
		for (int i = 0; i < grid->boxCount; ++i) {
			if (grid->boxes[i].level == 0) {
				extents[n++] = grid->boxes[i].extent;
			}
		}
		qsort(extents, (size_t)n, sizeof *extents, compareExtents);
		double cell = BC_BALL_GRID_CELL_FACTOR * extents[n / 2];
		double smallest = span / BC_BALL_GRID_MIN_CELLS;
		cell = cell > smallest ? cell : smallest;
		if (!(cell > 0.0) || !isfinite(1.0 / cell)) {
			cell = 1.0; /* every box is a point at one place */
		}
		bcGridLevel* lv = grid->levels + level;
		lv->inverse = 1.0 / cell;
		lv->entries = NULL;
		lv->entryCount = 0;
		bool last = level == BC_BALL_GRID_MAX_LEVELS - 1;
		for (int i = 0; i < grid->boxCount; ++i) {
			bcGridBox* box = grid->boxes + i;
			if (box->level != 0) {
				continue;
			}
			uint32_t lo[3], hi[3];
			cellRange(grid, lv, box, lo, hi);
			if (last || (hi[0] - lo[0] < BC_BALL_GRID_MAX_SPAN && hi[1] - lo[1] < BC_BALL_GRID_MAX_SPAN &&
						 hi[2] - lo[2] < BC_BALL_GRID_MAX_SPAN)) {
				box->level = level + 1;
				memcpy(box->order, lo, sizeof box->order);
				remaining -= 1;
			}
		}
		level += 1;
	}
	bcFree(extents);
	grid->levelCount = level;

	qsort(grid->boxes, (size_t)grid->boxCount, sizeof *grid->boxes, compareLevels);
	int first = 0;
	while (first < grid->boxCount && grid->boxes[first].level < 0) {
		++first;
	}
	grid->wideEnd = first;
	for (int l = 0; l < grid->levelCount; ++l) {
		bcGridLevel* lv = grid->levels + l;
		lv->firstBox = first;
		size_t entries = 0;
		int end = first;
		for (; end < grid->boxCount && grid->boxes[end].level == l + 1; ++end) {
			uint32_t lo[3], hi[3];
			cellRange(grid, lv, grid->boxes + end, lo, hi);
			entries += (size_t)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
		}
		lv->boxEnd = end;
		lv->entries = bcAlloc((entries > 0 ? entries : 1) * sizeof *lv->entries);
		if (lv->entries == NULL) {
			return false;
		}
		size_t e = 0;
		for (int i = first; i < end; ++i) {
			uint32_t lo[3], hi[3], index[3];
			cellRange(grid, lv, grid->boxes + i, lo, hi);
			for (index[2] = lo[2]; index[2] <= hi[2]; ++index[2]) {
				for (index[1] = lo[1]; index[1] <= hi[1]; ++index[1]) {
					for (index[0] = lo[0]; index[0] <= hi[0]; ++index[0]) {
						memcpy(lv->entries[e].cell, index, sizeof index);
						lv->entries[e].box = i;
						++e;
					}
				}
			}
		}
		lv->entryCount = e;
		qsort(lv->entries, e, sizeof *lv->entries, compareEntries);
		first = end;
	}
	return true;
}

/* The first entry of level whose cell is not before key. */
static size_t findCell(const bcGridLevel* level, const uint32_t key[3])
{
	size_t lo = 0, hi = level->entryCount;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compareCells(level->entries[mid].cell, key) < 0) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/* Every pair of overlapping boxes, each once. */
static void runGrid(bcBallSet* set, const bcGrid* grid)
{
	const bcGridBox* boxes = grid->boxes;
	/* Boxes without finite bounds (coordinates near the double range)
	 * against every box. */
	for (int w = 0; w < grid->wideEnd; ++w) {
		for (int i = 0; i < grid->boxCount; ++i) {
			if ((i >= grid->wideEnd || i > w) && boxesOverlap(boxes + w, boxes + i)) {
				visitPair(set, boxes[w].ball, boxes[i].ball);
			}
		}
	}
	for (int l = 0; l < grid->levelCount; ++l) {
		const bcGridLevel* lv = grid->levels + l;
		/* Pairs on this level: within each cell. */
		for (size_t s = 0; s < lv->entryCount;) {
			const uint32_t* cell = lv->entries[s].cell;
			size_t e = s + 1;
			while (e < lv->entryCount && compareCells(lv->entries[e].cell, cell) == 0) {
				++e;
			}
			for (size_t p = s; p < e; ++p) {
				const bcGridBox* a = boxes + lv->entries[p].box;
				for (size_t q = p + 1; q < e; ++q) {
					const bcGridBox* b = boxes + lv->entries[q].box;
					if (boxesOverlap(a, b) && isOwner(grid, lv, a, b, cell)) {
						visitPair(set, a->ball, b->ball);
					}
				}
			}
			s = e;
		}
		/* This level's boxes against the coarser levels' cells. */
		for (int i = lv->firstBox; i < lv->boxEnd; ++i) {
			const bcGridBox* a = boxes + i;
			for (int m = l + 1; m < grid->levelCount; ++m) {
				const bcGridLevel* coarse = grid->levels + m;
				uint32_t lo[3], hi[3], index[3];
				cellRange(grid, coarse, a, lo, hi);
				for (index[2] = lo[2]; index[2] <= hi[2]; ++index[2]) {
					for (index[1] = lo[1]; index[1] <= hi[1]; ++index[1]) {
						for (index[0] = lo[0]; index[0] <= hi[0]; ++index[0]) {
							for (size_t e = findCell(coarse, index);
								 e < coarse->entryCount && compareCells(coarse->entries[e].cell, index) == 0; ++e) {
								const bcGridBox* b = boxes + coarse->entries[e].box;
								if (boxesOverlap(a, b) && isOwner(grid, coarse, a, b, index)) {
									visitPair(set, a->ball, b->ball);
								}
							}
						}
					}
				}
			}
		}
	}
}

/* Fill results[i] from the chosen partner. */
static void finishResult(const bcBallSet* set, int32_t i, double restitution, bcBallResult* result)
{
	const bcBallInput* ball = set->balls + i;
	bcBallResult r = { bc_ballMiss, 1.0, -1, 0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, set->d[i], set->d[i] };
	if (!set->valid[i]) {
		r.state = bc_ballInvalid;
		r.velocityBefore = r.velocityAfter = bcMakeVec3(0.0, 0.0, 0.0);
		*result = r;
		return;
	}
	if (set->ties[i] == 0) {
		*result = r;
		return;
	}
	int32_t j = set->partner[i];
	const bcBallInput* other = set->balls + j;
	bcBallPair pair = { ball->p0, set->d[i], other->p0, set->d[j], ball->radius, other->radius };
	bcBallHit hit = collidePair(&pair);
	r.state = hit.state;
	r.alpha = hit.alpha;
	r.other = j;
	r.tieCount = set->ties[i];
	r.point = hit.point;
	r.normal = hit.normal;
	if (ball->fixed) {
		/* it never moves: velocityBefore = velocityAfter = 0 (set->d[i]) */
	} else if (bcDot(bcSub(set->d[j], set->d[i]), hit.normal) < 0.0) {
		/* Off a fixed ball, whatever this ball's mass: reflected, V' = V -
		 * (1 + e) U (ball 2 of infinite mass at rest in the response). */
		double mass = other->fixed ? 1.0 : massOf(ball);
		bcElasticResponse(set->d[i], mass, set->d[j], other->fixed ? INFINITY : massOf(other), hit.normal, restitution,
						  &r.velocityAfter, NULL);
	}
	*result = r;
}

bool bcCollideBallSet(const bcBallInput* balls, int count, const bcBallsOptions* options, bcBallResult* results,
					  bcError* error)
{
	bcBallsOptions o = options != NULL ? *options : bcDefaultBallsOptions();
	if (count < 0 || (count > 0 && (balls == NULL || results == NULL))) {
		bcSetError(error, bc_errorValue, 0, 0, "no balls given: count %d", count);
		return false;
	}
	if (!(o.restitution >= 0.0 && o.restitution <= 1.0)) {
		bcSetError(error, bc_errorValue, 0, 0, "restitution %g is not in [0, 1]", o.restitution);
		return false;
	}
	if (count == 0) {
		return true;
	}
	size_t n = (size_t)count;
	bcBallSet set;
	set.balls = balls;
	set.pass = 1;
	set.d = bcAlloc(n * sizeof *set.d);
	set.valid = bcAlloc(n * sizeof *set.valid);
	set.minKey = bcAlloc(n * sizeof *set.minKey);
	set.partner = bcAlloc(n * sizeof *set.partner);
	set.ties = bcAlloc(n * sizeof *set.ties);
	bcGrid grid;
	memset(&grid, 0, sizeof grid);
	bcErrorCode code = bc_errorNone;
	if (set.d == NULL || set.valid == NULL || set.minKey == NULL || set.partner == NULL || set.ties == NULL) {
		code = bc_errorNoMemory;
		goto done;
	}
	for (int32_t i = 0; i < count; ++i) {
		set.valid[i] = isValidSetBall(balls + i);
		set.d[i] = bcSub(endOf(balls + i), balls[i].p0);
		set.minKey[i] = BC_BALL_NO_KEY;
		set.partner[i] = INT32_MAX;
		set.ties[i] = 0;
	}
	if (o.bruteForce) {
		runBruteForce(&set, count);
		set.pass = 2;
		runBruteForce(&set, count);
	} else {
		if (!makeBoxes(&grid, &set, count) || !buildLevels(&grid)) {
			code = bc_errorNoMemory;
			goto done;
		}
		runGrid(&set, &grid);
		set.pass = 2;
		runGrid(&set, &grid);
	}
	for (int32_t i = 0; i < count; ++i) {
		finishResult(&set, i, o.restitution, results + i);
	}
done:
	destroyGrid(&grid);
	bcFree(set.d);
	bcFree(set.valid);
	bcFree(set.minKey);
	bcFree(set.partner);
	bcFree(set.ties);
	if (code != bc_errorNone) {
		bcSetError(error, code, 0, 0, "out of memory");
	}
	return code == bc_errorNone;
}
