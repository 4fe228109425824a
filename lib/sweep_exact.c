/* sweep_exact.c - the exact path of sweep.c: a ball against ONE triangle,
 * every decision taken in big integers.
 *
 * The input doubles (p0, p1, the vertices, r) are turned exactly into
 * integers on one common scale (bcExactIntegers), so each test below is the
 * sign of a polynomial in them, or of a + b sqrt(c) with a, b, c such
 * polynomials, computed without rounding. The pieces and their rules are
 * those of sweep.c's opening comment; written out (m = p0 - v for a vertex
 * v, e an edge's vector, d = p1 - p0, N = (b - a) x (c - a), R = r):
 *  - initial contact: Ericson's regions with dot products and the triple
 *    products w_k = (N x e_k) . (p0 - v_k) (the signed distances to the
 *    edges' lines, inside >= 0), then the squared distance against R^2;
 *  - face: with S = N . (p0 - a), S1 = N . (p1 - a), L2 = N . N, sigma = 1
 *    when N . d < 0 (else -1), the pushed-out plane is crossed in [0, 1]
 *    when sigma S >= R sqrt(L2) >= sigma S1, at
 *        alpha = (sigma S - R sqrt L2) / |N . d| = (S^2 - R^2 L2) / ((sigma S + R sqrt L2) |N . d|),
 *    the second form free of cancellation; the crossing is inside when
 *    each (N x e_k) . (p0 + alpha d - v_k) >= 0, whose sign times N . d's
 *    is that of (G_k N.d - S H_k) + sigma R H_k sqrt L2, G_k = (N x e_k) . m_k,
 *    H_k = (N x e_k) . d;
 *  - edge: the centre within R of the edge's line is the quadratic
 *    AA alpha^2 + 2 BB alpha + CC <= 0 (AA = |d x e|^2, BB = (m x e).(d x e),
 *    CC = |m x e|^2 - R^2 |e|^2), whose discriminant is
 *    |e|^2 (AA R^2 - TAU^2), TAU = m . (d x e) (Lagrange's identity); beside
 *    the segment is 0 <= m . e + alpha d . e <= |e|^2. The piece is entered
 *    at the larger of the two intervals' starts, if it is not past the
 *    smaller of their ends. The bounds are numbers (P + Q sqrt D) / den with
 *    one D per edge, compared exactly;
 *  - vertex: the smaller root of |m + alpha d|^2 = R^2, with discriminant
 *    |d|^2 R^2 - |m x d|^2.
 * Alphas come from the exact values, each rounded once to a double and
 * combined without cancellation: within a few ulps.
 */
#include <float.h>
#include <gmp.h>
#include <limits.h>
#include <math.h>

#include "predicates.h"
#include "sweep.h"

static const double bcInfinity = HUGE_VAL;

/* ----------------------------------------------------- integer vectors */

typedef struct bcBig3 {
	mpz_t c[3];
} bcBig3;

static void big3Init(bcBig3* v)
{
	mpz_inits(v->c[0], v->c[1], v->c[2], NULL);
}

static void big3Clear(bcBig3* v)
{
	mpz_clears(v->c[0], v->c[1], v->c[2], NULL);
}

static void big3Sub(bcBig3* out, const bcBig3* a, const bcBig3* b)
{
	for (int i = 0; i < 3; ++i) {
		mpz_sub(out->c[i], a->c[i], b->c[i]);
	}
}

/* out = a x b; out must not be a or b. */
static void big3Cross(bcBig3* out, const bcBig3* a, const bcBig3* b)
{
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		mpz_mul(out->c[i], a->c[j], b->c[k]);
		mpz_submul(out->c[i], a->c[k], b->c[j]);
	}
}

static void big3Dot(mpz_t out, const bcBig3* a, const bcBig3* b)
{
	mpz_mul(out, a->c[0], b->c[0]);
	mpz_addmul(out, a->c[1], b->c[1]);
	mpz_addmul(out, a->c[2], b->c[2]);
}

static bool big3IsZero(const bcBig3* v)
{
	return mpz_sgn(v->c[0]) == 0 && mpz_sgn(v->c[1]) == 0 && mpz_sgn(v->c[2]) == 0;
}

/* ------------------------------------- doubles with a wide exponent */

/* A positive real as mantissa * 2^exponent: the exact values' integers can
 * be far outside the doubles' range, their ratios (alphas) are not. */
typedef struct bcWide {
	double m;
	long e;
} bcWide;

/* |x|, correctly rounded. */
static bcWide wideOf(const mpz_t x)
{
	bcExactDouble d = bcExactToDouble(x);
	bcWide w = { fabs(d.mantissa), d.exponent };
	return w;
}

static bcWide wideNormal(double m, long e)
{
	int k = 0;
	double f = frexp(m, &k);
	bcWide w = { f, f == 0.0 ? 0 : e + k };
	return w;
}

static bcWide wideMul(bcWide a, bcWide b)
{
	return wideNormal(a.m * b.m, a.e + b.e);
}

static bcWide wideSqrt(bcWide a)
{
	if (a.e % 2 != 0) {
		a.m *= 2.0;
		a.e -= 1;
	}
	return wideNormal(sqrt(a.m), a.e / 2);
}

/* a + b for a, b >= 0: no cancellation. */
static bcWide wideAdd(bcWide a, bcWide b)
{
	if (a.m == 0.0) {
		return b;
	}
	if (b.m == 0.0) {
		return a;
	}
	long e = a.e > b.e ? a.e : b.e;
	long da = a.e - e, db = b.e - e;
	double sum = (da < -1100 ? 0.0 : ldexp(a.m, (int)da)) + (db < -1100 ? 0.0 : ldexp(b.m, (int)db));
	return wideNormal(sum, e);
}

/* a / b as a double (a quotient the callers know to be in [0, 1]). */
static double wideRatio(bcWide a, bcWide b)
{
	if (a.m == 0.0) {
		return 0.0;
	}
	long e = a.e - b.e;
	if (e > 2000) {
		return bcInfinity;
	}
	if (e < -2000) {
		return 0.0;
	}
	return ldexp(a.m / b.m, (int)e);
}

/* --------------------------------------------- numbers (P + Q sqrt D) / den */

/* An interval bound for the edge test: (p + q sqrt D) / den with den > 0
 * and D shared by the numbers compared, or an infinity. */
typedef struct bcQuad {
	mpz_t p, q, den;
	int infinity; /* -1, +1, or 0 for a finite number */
} bcQuad;

static void quadInit(bcQuad* x)
{
	mpz_inits(x->p, x->q, x->den, NULL);
	x->infinity = 0;
}

static void quadClear(bcQuad* x)
{
	mpz_clears(x->p, x->q, x->den, NULL);
}

static void quadSetInfinity(bcQuad* x, int sign)
{
	x->infinity = sign;
}

/* x = num / den as a rational (q = 0), den != 0. */
static void quadSetRatio(bcQuad* x, const mpz_t num, const mpz_t den)
{
	x->infinity = 0;
	mpz_set(x->p, num);
	mpz_set(x->den, den);
	mpz_set_ui(x->q, 0);
	if (mpz_sgn(den) < 0) {
		mpz_neg(x->p, x->p);
		mpz_neg(x->den, x->den);
	}
}

static void quadSetInteger(bcQuad* x, long value)
{
	x->infinity = 0;
	mpz_set_si(x->p, value);
	mpz_set_ui(x->q, 0);
	mpz_set_ui(x->den, 1);
}

/* sign(x - y), exactly. */
static int quadCompare(const bcQuad* x, const bcQuad* y, const mpz_t d)
{
	if (x->infinity != 0 || y->infinity != 0) {
		return x->infinity == y->infinity ? 0 : (x->infinity > y->infinity ? 1 : -1);
	}
	mpz_t a, b, t;
	mpz_inits(a, b, t, NULL);
	mpz_mul(a, x->p, y->den);
	mpz_mul(t, y->p, x->den);
	mpz_sub(a, a, t);
	mpz_mul(b, x->q, y->den);
	mpz_mul(t, y->q, x->den);
	mpz_sub(b, b, t);
	int s = bcExactSignWithRoot(a, b, d);
	mpz_clears(a, b, t, NULL);
	return s;
}

/* ------------------------------------------------------------ the test */

/* Every integer the test needs, initialised once per call. */
typedef struct bcExactSweep {
	bcBig3 p0, p1, v[3], d, n, e[3], m[3], t0, t1, t2;
	mpz_t r, r2, s, s1, l2, nd, x, y, z, w;
} bcExactSweep;

static void exactInit(bcExactSweep* x)
{
	bcBig3* vectors[] = { &x->p0, &x->p1, &x->v[0], &x->v[1], &x->v[2], &x->d, &x->n, &x->e[0], &x->e[1],
						  &x->e[2], &x->m[0], &x->m[1], &x->m[2], &x->t0, &x->t1, &x->t2 };
	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; ++i) {
		big3Init(vectors[i]);
	}
	mpz_inits(x->r, x->r2, x->s, x->s1, x->l2, x->nd, x->x, x->y, x->z, x->w, NULL);
}

static void exactClear(bcExactSweep* x)
{
	bcBig3* vectors[] = { &x->p0, &x->p1, &x->v[0], &x->v[1], &x->v[2], &x->d, &x->n, &x->e[0], &x->e[1],
						  &x->e[2], &x->m[0], &x->m[1], &x->m[2], &x->t0, &x->t1, &x->t2 };
	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; ++i) {
		big3Clear(vectors[i]);
	}
	mpz_clears(x->r, x->r2, x->s, x->s1, x->l2, x->nd, x->x, x->y, x->z, x->w, NULL);
}

/* Does a triangle count for a motion whose N . d has sign approach? */
static bool countsFor(const bcCastOptions* options, int approach)
{
	if (options->twoSided) {
		return true;
	}
	return options->approach == bc_approachLess ? approach < 0 : approach <= 0;
}

/* Ericson's region of p0 (-1: the face), as a slot. */
static int closestSlot(bcExactSweep* x)
{
	/* dOut_k = e_k . m_k, dIn_k = e_{k-1} . m_k. */
	int out[3], in[3];
	for (int k = 0; k < 3; ++k) {
		big3Dot(x->x, &x->e[k], &x->m[k]);
		out[k] = mpz_sgn(x->x);
		big3Dot(x->x, &x->e[(k + 2) % 3], &x->m[k]);
		in[k] = mpz_sgn(x->x);
	}
	/* w_k = (N x e_k) . m_k. */
	int w[3];
	for (int k = 0; k < 3; ++k) {
		big3Cross(&x->t0, &x->n, &x->e[k]);
		big3Dot(x->x, &x->t0, &x->m[k]);
		w[k] = mpz_sgn(x->x);
	}
	/* Ericson's order: A, B, AB, C, CA, BC, face. */
	static const int order[6][2] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 1, 2 }, { 0, 2 }, { 0, 1 } };
	for (int i = 0; i < 6; ++i) {
		int k = order[i][1];
		if (order[i][0] == 1) {
			if (out[k] <= 0 && in[k] >= 0) {
				return bc_slotVertex0 + k;
			}
		} else if (w[k] <= 0 && out[k] >= 0 && in[(k + 1) % 3] <= 0) {
			return bc_slotEdge0 + k;
		}
	}
	return bc_slotFace;
}

/* sign(dist(p0, feature of slot)^2 - R^2). x->s holds S. */
static int distanceSign(bcExactSweep* x, int slot)
{
	if (slot == bc_slotFace) {
		/* S^2 - R^2 L2 */
		mpz_mul(x->x, x->s, x->s);
		mpz_mul(x->y, x->r2, x->l2);
	} else if (slot < bc_slotVertex0) {
		int k = slot - bc_slotEdge0;
		big3Cross(&x->t0, &x->m[k], &x->e[k]);
		big3Dot(x->x, &x->t0, &x->t0);
		big3Dot(x->y, &x->e[k], &x->e[k]);
		mpz_mul(x->y, x->y, x->r2);
	} else {
		int k = slot - bc_slotVertex0;
		big3Dot(x->x, &x->m[k], &x->m[k]);
		mpz_set(x->y, x->r2);
	}
	return mpz_cmp(x->x, x->y) > 0 ? 1 : (mpz_cmp(x->x, x->y) < 0 ? -1 : 0);
}

/* An alpha the exact tests have placed in [0, 1], kept there when the
 * rounding of its value would step outside. */
static double clampAlpha(double alpha)
{
	return alpha < 0.0 ? 0.0 : (alpha > 1.0 ? 1.0 : alpha);
}

/* Is alpha (a double from exact values) within maxAlpha? At maxAlpha >= 1
 * the callers have compared with 1 exactly already. */
static bool withinLimit(double alpha, double maxAlpha)
{
	return maxAlpha >= 1.0 || alpha <= maxAlpha;
}

/* The face's contact, or INFINITY. approach != 0. */
static double faceAlpha(bcExactSweep* x, int approach, double maxAlpha)
{
	int sigma = -approach;
	/* sigma S - R sqrt L2 >= 0: the centre starts on or beyond the pushed-out plane. */
	mpz_mul_si(x->x, x->s, sigma);
	mpz_neg(x->y, x->r);
	if (bcExactSignWithRoot(x->x, x->y, x->l2) < 0) {
		return bcInfinity;
	}
	/* sigma S1 - R sqrt L2 <= 0: and ends on or before it. */
	mpz_mul_si(x->z, x->s1, sigma);
	if (bcExactSignWithRoot(x->z, x->y, x->l2) > 0) {
		return bcInfinity;
	}
	/* Inside: sign((G_k ND - S H_k) + sigma R H_k sqrt L2) * sign(ND) >= 0. */
	int ndSign = mpz_sgn(x->nd);
	for (int k = 0; k < 3; ++k) {
		big3Cross(&x->t0, &x->n, &x->e[k]);
		big3Dot(x->z, &x->t0, &x->m[k]); /* G_k */
		big3Dot(x->w, &x->t0, &x->d);    /* H_k */
		mpz_mul(x->z, x->z, x->nd);
		mpz_submul(x->z, x->s, x->w);
		mpz_mul(x->w, x->w, x->r);
		mpz_mul_si(x->w, x->w, sigma);
		if (bcExactSignWithRoot(x->z, x->w, x->l2) * ndSign < 0) {
			return bcInfinity;
		}
	}
	/* alpha = (S^2 - R^2 L2) / ((sigma S + R sqrt L2) |ND|); for a point
	 * the rational sigma S / |ND|, correctly rounded. */
	mpz_abs(x->w, x->nd);
	double alpha;
	if (mpz_sgn(x->r) == 0) {
		alpha = bcExactRatio(x->x, x->w);
	} else {
		mpz_mul(x->z, x->s, x->s);
		mpz_submul(x->z, x->r2, x->l2);
		bcWide den = wideMul(wideAdd(wideOf(x->x), wideMul(wideOf(x->r), wideSqrt(wideOf(x->l2)))), wideOf(x->w));
		alpha = den.m == 0.0 ? 0.0 : wideRatio(wideOf(x->z), den);
	}
	alpha = clampAlpha(alpha);
	return withinLimit(alpha, maxAlpha) ? alpha : bcInfinity;
}

/* How an edge's piece is entered. */
typedef enum bcEdgeEntry { bc_entryNone = 0, bc_entryCylinder, bc_entryStart, bc_entryEnd } bcEdgeEntry;

/* Edge k's contact, or INFINITY; *entry says whether the centre entered
 * the cylinder there, or reached the segment's start (t = 0) or end
 * (t = 1) already within r of the line. */
static double edgeAlpha(bcExactSweep* x, int k, double maxAlpha, bcEdgeEntry* entry)
{
	*entry = bc_entryNone;
	const bcBig3* e = &x->e[k];
	const bcBig3* m = &x->m[k];
	mpz_t ee, aa, bb, cc, disc, me0, ded, t;
	mpz_inits(ee, aa, bb, cc, disc, me0, ded, t, NULL);
	bcQuad cylLo, cylHi, slabLo, slabHi, zero, one;
	quadInit(&cylLo);
	quadInit(&cylHi);
	quadInit(&slabLo);
	quadInit(&slabHi);
	quadInit(&zero);
	quadInit(&one);
	quadSetInteger(&zero, 0);
	quadSetInteger(&one, 1);
	double alpha = bcInfinity;

	big3Dot(ee, e, e);
	big3Cross(&x->t1, m, e);      /* m x e */
	big3Cross(&x->t2, &x->d, e);  /* d x e */
	big3Dot(aa, &x->t2, &x->t2);
	big3Dot(bb, &x->t1, &x->t2);
	big3Dot(cc, &x->t1, &x->t1);
	mpz_submul(cc, x->r2, ee);
	big3Dot(me0, m, e);
	big3Dot(ded, &x->d, e);

	/* The cylinder's interval. */
	bool empty = false;
	if (mpz_sgn(aa) == 0) {
		/* Moving along the edge's line: always or never within R of it. */
		empty = mpz_sgn(cc) > 0;
		quadSetInfinity(&cylLo, -1);
		quadSetInfinity(&cylHi, 1);
		mpz_set_ui(disc, 0);
	} else {
		/* disc = |e|^2 (AA R^2 - TAU^2). */
		big3Dot(t, m, &x->t2);
		mpz_mul(disc, aa, x->r2);
		mpz_submul(disc, t, t);
		empty = mpz_sgn(disc) < 0;
		mpz_mul(disc, disc, ee);
		if (!empty) {
			mpz_neg(cylLo.p, bb);
			mpz_set_si(cylLo.q, -1);
			mpz_set(cylLo.den, aa);
			mpz_neg(cylHi.p, bb);
			mpz_set_si(cylHi.q, 1);
			mpz_set(cylHi.den, aa);
		}
	}
	/* The slab's: 0 <= me0 + alpha ded <= ee. */
	if (!empty) {
		if (mpz_sgn(ded) == 0) {
			empty = mpz_sgn(me0) < 0 || mpz_cmp(me0, ee) > 0;
			quadSetInfinity(&slabLo, -1);
			quadSetInfinity(&slabHi, 1);
		} else {
			mpz_neg(t, me0);
			quadSetRatio(&slabLo, t, ded); /* t = 0 */
			mpz_sub(t, ee, me0);
			quadSetRatio(&slabHi, t, ded); /* t = 1 */
			if (mpz_sgn(ded) < 0) {
				bcQuad swap = slabLo;
				slabLo = slabHi;
				slabHi = swap;
			}
		}
	}
	if (!empty) {
		const bcQuad* lo = quadCompare(&cylLo, &slabLo, disc) >= 0 ? &cylLo : &slabLo;
		const bcQuad* hi = quadCompare(&cylHi, &slabHi, disc) <= 0 ? &cylHi : &slabHi;
		/* Entered in (0, 1]: the initial test has ruled out a start inside. */
		if (quadCompare(lo, hi, disc) <= 0 && quadCompare(lo, &zero, disc) >= 0 &&
			quadCompare(lo, &one, disc) <= 0 && lo->infinity == 0) {
			bool atStart = mpz_sgn(ded) > 0; /* slabLo is t = 0 when moving forward */
			*entry = lo == &cylLo ? bc_entryCylinder : (atStart ? bc_entryStart : bc_entryEnd);
			if (lo == &cylLo && mpz_sgn(disc) == 0) {
				/* A double root: the rational -BB / AA, correctly rounded. */
				mpz_neg(t, bb);
				alpha = bcExactRatio(t, aa);
			} else if (lo == &cylLo) {
				/* (-BB - sqrt disc) / AA = CC / (sqrt disc - BB), BB < 0 here. */
				mpz_neg(t, bb);
				bcWide den = wideAdd(wideSqrt(wideOf(disc)), wideOf(t));
				alpha = mpz_sgn(cc) <= 0 ? 0.0 : wideRatio(wideOf(cc), den);
			} else {
				alpha = bcExactRatio(lo->p, lo->den);
			}
			alpha = clampAlpha(alpha);
			alpha = withinLimit(alpha, maxAlpha) ? alpha : bcInfinity;
		}
	}
	quadClear(&cylLo);
	quadClear(&cylHi);
	quadClear(&slabLo);
	quadClear(&slabHi);
	quadClear(&zero);
	quadClear(&one);
	mpz_clears(ee, aa, bb, cc, disc, me0, ded, t, NULL);
	return alpha;
}

/* Vertex k's contact, or INFINITY. */
static double vertexAlpha(bcExactSweep* x, int k, double maxAlpha)
{
	const bcBig3* m = &x->m[k];
	mpz_t dd, bb, cc, disc;
	mpz_inits(dd, bb, cc, disc, NULL);
	double alpha = bcInfinity;
	big3Dot(dd, &x->d, &x->d);
	big3Dot(bb, m, &x->d);
	big3Dot(cc, m, m);
	mpz_sub(cc, cc, x->r2);
	big3Cross(&x->t0, m, &x->d);
	big3Dot(disc, &x->t0, &x->t0);
	mpz_neg(disc, disc);
	mpz_addmul(disc, dd, x->r2);
	if (mpz_sgn(bb) < 0 && mpz_sgn(disc) >= 0 && mpz_sgn(cc) > 0) {
		/* (-bb - sqrt disc) / dd <= 1: sign(-bb - dd - sqrt disc) <= 0. */
		mpz_t a, minusOne;
		mpz_init(a);
		mpz_init_set_si(minusOne, -1);
		mpz_neg(a, bb);
		mpz_sub(a, a, dd);
		if (bcExactSignWithRoot(a, minusOne, disc) <= 0) {
			mpz_neg(a, bb);
			/* A double root is the rational -bb / dd, correctly rounded. */
			alpha = mpz_sgn(disc) == 0 ? bcExactRatio(a, dd)
									   : wideRatio(wideOf(cc), wideAdd(wideSqrt(wideOf(disc)), wideOf(a)));
			alpha = clampAlpha(alpha);
			alpha = withinLimit(alpha, maxAlpha) ? alpha : bcInfinity;
		}
		mpz_clears(a, minusOne, NULL);
	}
	mpz_clears(dd, bb, cc, disc, NULL);
	return alpha;
}

static int approachOf(bcExactSweep* x)
{
	big3Dot(x->nd, &x->n, &x->d);
	return mpz_sgn(x->nd);
}

/* Load the query and the triangle as integers. */
static void load(bcExactSweep* x, const bcSweepQuery* q, const bcSweepTriangleRef* t)
{
	const double in[16] = { q->p0.x, q->p0.y, q->p0.z, q->p1.x, q->p1.y, q->p1.z, t->a.x, t->a.y,
							t->a.z,  t->b.x,  t->b.y,  t->b.z,  t->c.x,  t->c.y,  t->c.z,  q->radius };
	mpz_t* slots[16] = { &x->p0.c[0],   &x->p0.c[1],   &x->p0.c[2],   &x->p1.c[0],   &x->p1.c[1],   &x->p1.c[2],
						 &x->v[0].c[0], &x->v[0].c[1], &x->v[0].c[2], &x->v[1].c[0], &x->v[1].c[1], &x->v[1].c[2],
						 &x->v[2].c[0], &x->v[2].c[1], &x->v[2].c[2], &x->r };
	mpz_t values[16];
	for (int i = 0; i < 16; ++i) {
		mpz_init(values[i]);
	}
	bcExactIntegers(values, in, 16);
	for (int i = 0; i < 16; ++i) {
		mpz_set(*slots[i], values[i]);
		mpz_clear(values[i]);
	}
	mpz_mul(x->r2, x->r, x->r);
	big3Sub(&x->d, &x->p1, &x->p0);
	for (int k = 0; k < 3; ++k) {
		big3Sub(&x->e[k], &x->v[(k + 1) % 3], &x->v[k]);
		big3Sub(&x->m[k], &x->p0, &x->v[k]);
	}
	/* N = (b - a) x (c - a) = e_0 x (-e_2). */
	big3Sub(&x->t0, &x->v[2], &x->v[0]);
	big3Cross(&x->n, &x->e[0], &x->t0);
	big3Dot(x->l2, &x->n, &x->n);
	big3Dot(x->s, &x->n, &x->m[0]);
	big3Sub(&x->t0, &x->p1, &x->v[0]);
	big3Dot(x->s1, &x->n, &x->t0);
}

bool bcSweepTriangleExact(const bcSweepQuery* q, const bcSweepTriangleRef* t, double maxAlpha,
						  bcSweepResult* result)
{
	for (int i = 0; i < bc_slotCount; ++i) {
		result->alpha[i] = bcInfinity;
	}
	result->best = bcInfinity;
	result->alphaError = 0.0;
	result->overlap = false;
	result->approach = 0;
	result->side = 0;

	bcExactSweep x;
	exactInit(&x);
	load(&x, q, t);
	bool found = false;
	int approach = approachOf(&x);
	result->approach = (signed char)approach;
	if (mpz_sgn(x.l2) == 0 || !countsFor(&q->options, approach)) {
		goto done;
	}

	/* Already within r at alpha = 0: one contact, the closest point's feature. */
	int slot = closestSlot(&x);
	int distance = distanceSign(&x, slot);
	if (distance <= 0) {
		if (distance < 0) {
			if (q->options.overlap == bc_overlapIgnore) {
				goto done;
			}
			result->overlap = true;
		}
		result->alpha[slot] = 0.0;
		result->side = slot == bc_slotFace ? (signed char)mpz_sgn(x.s) : 0;
		found = true;
		goto done;
	}
	if (big3IsZero(&x.d)) {
		goto done;
	}
	if (approach != 0) {
		result->alpha[bc_slotFace] = faceAlpha(&x, approach, maxAlpha);
	}
	for (int k = 0; k < 3; ++k) {
		bcEdgeEntry entry;
		result->alpha[bc_slotEdge0 + k] = edgeAlpha(&x, k, maxAlpha, &entry);
		result->alpha[bc_slotVertex0 + k] = vertexAlpha(&x, k, maxAlpha);
	}
	for (int i = 0; i < bc_slotCount; ++i) {
		found = found || result->alpha[i] <= maxAlpha;
	}

done:
	exactClear(&x);
	if (found) {
		double best = bcInfinity;
		for (int i = 0; i < bc_slotCount; ++i) {
			best = result->alpha[i] < best ? result->alpha[i] : best;
		}
		result->best = best;
	}
	return found && result->best <= maxAlpha;
}

int bcExactCrossDotSign(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 p, bcVec3 q)
{
	const double in[15] = { a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, p.x, p.y, p.z, q.x, q.y, q.z };
	mpz_t v[15], det;
	for (int i = 0; i < 15; ++i) {
		mpz_init(v[i]);
	}
	mpz_init(det);
	bcExactIntegers(v, in, 15);
	bcBig3 u, w, z, n;
	big3Init(&u);
	big3Init(&w);
	big3Init(&z);
	big3Init(&n);
	for (int i = 0; i < 3; ++i) {
		mpz_sub(u.c[i], v[3 + i], v[i]);
		mpz_sub(w.c[i], v[6 + i], v[i]);
		mpz_sub(z.c[i], v[12 + i], v[9 + i]);
	}
	big3Cross(&n, &u, &w);
	big3Dot(det, &n, &z);
	int sign = mpz_sgn(det);
	big3Clear(&u);
	big3Clear(&w);
	big3Clear(&z);
	big3Clear(&n);
	for (int i = 0; i < 15; ++i) {
		mpz_clear(v[i]);
	}
	mpz_clear(det);
	return sign;
}

/* (x, y, z) * s for a wide scalar, as doubles: the terms of a normal are
 * rounded once each and never subtracted, so the normal is right to a few
 * ulps whatever the sizes. */
static void addScaled(double out[3], const bcBig3* v, bcWide s, long base)
{
	for (int i = 0; i < 3; ++i) {
		long e;
		double m = mpz_get_d_2exp(&e, v->c[i]);
		long total = e + s.e - base;
		out[i] += total < -1100 ? 0.0 : ldexp(m * s.m, (int)(total > 1100 ? 1100 : total));
	}
}

static long wideExponentOf(const bcBig3* v, bcWide s)
{
	long top = LONG_MIN;
	for (int i = 0; i < 3; ++i) {
		if (mpz_sgn(v->c[i]) != 0) {
			long e = (long)mpz_sizeinbase(v->c[i], 2) + s.e;
			top = e > top ? e : top;
		}
	}
	return top;
}

/* How edge k's piece is entered (recomputed). */
static bcEdgeEntry entryOf(bcExactSweep* x, int k)
{
	bcEdgeEntry entry;
	edgeAlpha(x, k, 1.0, &entry);
	return entry;
}

bcVec3 bcExactContactNormal(const bcSweepQuery* q, const bcSweepTriangleRef* t, int slot, bool atStart)
{
	bcExactSweep x;
	exactInit(&x);
	load(&x, q, t);
	bcBig3 a, b;
	big3Init(&a);
	big3Init(&b);
	bcWide sa = { 0.5, 1 }, sb = { 0.0, 0 }; /* normal = a * sa + b * sb; sa = 1 */
	bool edge = slot >= bc_slotEdge0 && slot < bc_slotVertex0;
	int k = edge ? slot - bc_slotEdge0 : slot - bc_slotVertex0;
	const bcBig3* e = &x.e[k];
	const bcBig3* m = &x.m[k];
	if (edge && atStart) {
		/* Perpendicular from the edge's line to p0: e x (m x e). */
		big3Cross(&x.t0, m, e);
		big3Cross(&a, e, &x.t0);
	} else if (atStart) {
		/* From the vertex to p0. */
		for (int i = 0; i < 3; ++i) {
			mpz_set(a.c[i], m->c[i]);
		}
	} else if (edge && (entryOf(&x, k) == bc_entryStart || entryOf(&x, k) == bc_entryEnd)) {
		/* Reaching the segment's end within r of the line, at the rational
		 * alpha = (t ee - m.e) / d.e: the centre minus that end, times d.e,
		 * is d.e (m - t e) - (t ee - m.e) d. */
		bool end = entryOf(&x, k) == bc_entryEnd;
		big3Dot(x.x, &x.d, e); /* d.e */
		big3Dot(x.y, m, e);    /* m.e */
		if (end) {
			big3Dot(x.z, e, e);
			mpz_sub(x.y, x.y, x.z); /* m.e - ee */
		}
		for (int i = 0; i < 3; ++i) {
			mpz_set(a.c[i], m->c[i]);
			if (end) {
				mpz_sub(a.c[i], a.c[i], e->c[i]);
			}
			mpz_mul(a.c[i], a.c[i], x.x);
			mpz_submul(a.c[i], x.y, x.d.c[i]);
			if (mpz_sgn(x.x) < 0) {
				mpz_neg(a.c[i], a.c[i]);
			}
		}
	} else if (edge) {
		/* Entering the cylinder: -(sqrt(D6) e x (d x e) + TAU sqrt(ee) e x d). */
		big3Cross(&x.t1, &x.d, e);   /* d x e */
		big3Cross(&a, e, &x.t1);     /* e x (d x e) */
		big3Cross(&b, e, &x.d);      /* e x d */
		big3Dot(x.z, m, &x.t1);      /* TAU */
		big3Dot(x.x, &x.t1, &x.t1);  /* AA */
		mpz_mul(x.w, x.x, x.r2);
		mpz_submul(x.w, x.z, x.z);   /* D6 */
		if (mpz_sgn(x.w) < 0) {
			mpz_set_ui(x.w, 0);
		}
		big3Dot(x.y, e, e);          /* ee */
		for (int i = 0; i < 3; ++i) {
			mpz_neg(a.c[i], a.c[i]);
			mpz_mul(b.c[i], b.c[i], x.z);
			mpz_neg(b.c[i], b.c[i]);
		}
		sa = wideSqrt(wideOf(x.w));
		sb = wideSqrt(wideOf(x.y));
	} else {
		/* Entering the ball: d x (m x d) - sqrt(Dv) d. */
		big3Cross(&x.t0, m, &x.d);
		big3Cross(&a, &x.d, &x.t0);
		big3Dot(x.w, &x.t0, &x.t0);
		big3Dot(x.y, &x.d, &x.d);
		mpz_neg(x.w, x.w);
		mpz_addmul(x.w, x.y, x.r2);  /* Dv */
		if (mpz_sgn(x.w) < 0) {
			mpz_set_ui(x.w, 0);
		}
		for (int i = 0; i < 3; ++i) {
			mpz_neg(b.c[i], x.d.c[i]);
		}
		sb = wideSqrt(wideOf(x.w));
	}
	/* Both terms on one scale near 1, then normalised. */
	long base = wideExponentOf(&a, sa);
	long other = sb.m == 0.0 ? LONG_MIN : wideExponentOf(&b, sb);
	base = other > base ? other : base;
	double v[3] = { 0.0, 0.0, 0.0 };
	if (base != LONG_MIN) {
		addScaled(v, &a, sa, base);
		if (sb.m != 0.0) {
			addScaled(v, &b, sb, base);
		}
	}
	big3Clear(&a);
	big3Clear(&b);
	exactClear(&x);
	double length = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!(length > 0.0)) {
		bcVec3 zero = { 0.0, 0.0, 0.0 };
		return zero;
	}
	bcVec3 n = { v[0] / length + 0.0, v[1] / length + 0.0, v[2] / length + 0.0 };
	return n;
}

double bcExactPointAlpha(const bcSweepQuery* q, const bcSweepTriangleRef* t)
{
	bcExactSweep x;
	exactInit(&x);
	load(&x, q, t);
	/* S = N . (p0 - a), S1 = N . (p1 - a): alpha = S / (S - S1). */
	mpz_sub(x.x, x.s, x.s1);
	double alpha = mpz_sgn(x.x) == 0 ? 0.0 : bcExactRatio(x.s, x.x);
	exactClear(&x);
	return alpha;
}

double bcExactSlotAlpha(const bcSweepQuery* q, const bcSweepTriangleRef* t, int slot)
{
	bcExactSweep x;
	exactInit(&x);
	load(&x, q, t);
	int approach = approachOf(&x);
	double alpha = bcInfinity;
	if (slot == bc_slotFace) {
		alpha = approach != 0 ? faceAlpha(&x, approach, 1.0) : bcInfinity;
	} else if (slot < bc_slotVertex0) {
		bcEdgeEntry entry;
		alpha = edgeAlpha(&x, slot - bc_slotEdge0, 1.0, &entry);
	} else {
		alpha = vertexAlpha(&x, slot - bc_slotVertex0, 1.0);
	}
	exactClear(&x);
	return alpha;
}

/* sign(alpha - m) for the face's alpha = (sigma S - R sqrt L2) / |ND| and a
 * rational m = P / Q (Q > 0): the sign of sigma S Q - P |ND| - R Q sqrt L2. */
static int faceAlphaSign(bcExactSweep* x, int sigma, const mpq_t m)
{
	mpz_t a, b, nd;
	mpz_inits(a, b, nd, NULL);
	mpz_abs(nd, x->nd);
	mpz_mul(a, x->s, mpq_denref(m));
	mpz_mul_si(a, a, sigma);
	mpz_submul(a, mpq_numref(m), nd);
	mpz_mul(b, x->r, mpq_denref(m));
	mpz_neg(b, b);
	int s = bcExactSignWithRoot(a, b, x->l2);
	mpz_clears(a, b, nd, NULL);
	return s;
}

/* The midpoint of doubles d and e, exactly. */
static void midpointOf(mpq_t m, double d, double e)
{
	mpq_t f;
	mpq_init(f);
	mpq_set_d(m, d);
	mpq_set_d(f, e);
	mpq_add(m, m, f);
	mpq_div_2exp(m, m, 1);
	mpq_clear(f);
}

/* The even one of two neighbouring doubles (its last significand bit 0). */
static double evenOf(double d, double e)
{
	int k;
	double f = frexp(d, &k);
	double significand = ldexp(f, 53);
	return fmod(significand, 2.0) == 0.0 ? d : e;
}

double bcExactFaceAlphaRounded(const bcSweepQuery* query, const bcSweepTriangleRef* triangle, double guess)
{
	bcExactSweep x;
	exactInit(&x);
	load(&x, query, triangle);
	approachOf(&x);
	int sigma = mpz_sgn(x.nd) < 0 ? 1 : -1;
	mpq_t m;
	mpq_init(m);
	double d = guess;
	/* The exact alpha is in [0, 1] (the face test placed it there) and the
	 * guess within a few ulps of it: step to the neighbour while alpha lies
	 * beyond the midpoint towards it; exactly on a midpoint, the even one. */
	for (;;) {
		double up = nextafter(d, 2.0);
		midpointOf(m, d, up);
		int above = faceAlphaSign(&x, sigma, m);
		if (above > 0) {
			d = up;
			continue;
		}
		if (above == 0) {
			d = evenOf(d, up);
			break;
		}
		if (d == 0.0) {
			break;
		}
		double down = nextafter(d, -1.0);
		midpointOf(m, down, d);
		int below = faceAlphaSign(&x, sigma, m);
		if (below < 0) {
			d = down;
			continue;
		}
		if (below == 0) {
			d = evenOf(d, down);
		}
		break;
	}
	mpq_clear(m);
	exactClear(&x);
	return d;
}
