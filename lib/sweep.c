/* sweep.c - a ball moving along a segment against ONE triangle.
 *
 * The set of centres within r of a triangle is the union of a slab-shaped
 * prism over the face, three cylinders around the edges and three balls
 * around the vertices. The earliest contact is the earliest entry into any
 * of these pieces, each a closed set:
 *  - face: the plane pushed out by r towards the ball, crossed (the motion
 *    not parallel to the plane) with the crossing's projection inside the
 *    closed triangle (seed 003's "trajectory through a polygon");
 *  - edge: the cylinder of radius r around the edge's line, clipped to the
 *    segment: the centre within r of the line, |(m + alpha d) x e|^2 <=
 *    r^2 |e|^2, while its projection is on the segment; entered where the
 *    later of the two conditions starts to hold;
 *  - vertex: the ball of radius r around it, |m + alpha d|^2 = r^2, the
 *    smaller root (seed 000, a double root included: a tangent touches).
 * A ball already within r at alpha = 0 has one contact there, on the
 * feature of its closest point (seed 004's Voronoi regions).
 *
 * Every decision -- which side a triangle faces, whether a piece is
 * entered within [0, 1], which feature -- is exact. Each is first taken in
 * double precision with a bound on its rounding error, carried along the
 * computation from the sizes of its intermediates (for the dot products
 * that vanish exactly in axis-aligned scenes, the sum of their products'
 * sizes, so an exact zero is seen as one). When a value is within its bound of
 * the threshold, or an alpha's error bound exceeds BC_SWEEP_ALPHA_ERROR,
 * the whole triangle goes to the exact path (sweep_exact.c: big integers).
 * In general position that is about never; at the exact degeneracies
 * users pin in regression suites -- a ball rolling at height exactly r
 * over an edge (a double root), a point through a shared edge -- it is
 * what decides. A point (r = 0) is decided by exact orientation
 * predicates (predicates.c): the segment crosses the triangle when p0 and
 * p1 are not strictly on one side of its plane and the line through them
 * passes the three edges on one side (Plucker's test, each edge's sign the
 * same number from both triangles that share it, with opposite signs: a
 * point never slips through a shared edge or vertex); alpha is the ratio
 * of the two exact plane distances, within a few ulps.
 *
 * Roots use the cancellation-free form c / (-b + sqrt(b^2 - ac)), with the
 * discriminant b^2 - ac rewritten by Lagrange's identity (dd r^2 - |m x d|^2
 * for a vertex), so a path starting a million radii away keeps its digits.
 */
#include "sweep.h"

#include <float.h>

#include "predicates.h"
#include "vec3.h"

static const double bcInfinity = HUGE_VAL;

#define BC_U BC_UNIT_ROUNDOFF

/* Error bounds. Each quantity of the tests is computed alongside a bound
 * on its error, from the bounds of what it is made of (a running error
 * analysis, with the sizes of the computed intermediates):
 *  - a difference of two input doubles is within u of the exact one,
 *    relatively (u = 2^-53);
 *  - a cross product x x y is within 4 u |x|_1 |y|_1 in 1-norm of the
 *    product of the exact x, y, plus |x|_1 Ey + |y|_1 Ex for x, y that
 *    carry errors Ex, Ey; a dot product within 3 u |x|_1 |y|_1 plus
 *    |x|_1 Ey + |y|_1 Ex + Ex Ey.
 * BC_ROUNDING_FACTOR u stands for those 3 or 4 u with room for the
 * rounding of the bounds themselves. */
#define BC_ROUNDING_FACTOR 6.0

/* Bounds from the 1-norms of the inputs alone, for the first, cheap
 * rejections: a polynomial of up to 8 roundings (gamma_8 < 8.01 u) is
 * within 8.01 u of the exact value times the sum of its terms' sizes,
 * which products of 1-norms bound; 16 u with room. */
#define BC_LOOSE_ERROR_FACTOR 16.0

/* A dot product of two rounded differences (each component within u of
 * the exact one, relatively) is within 5 u of the exact one times the sum
 * of its products' sizes; 8 u with room. */
#define BC_DOT_ERROR_FACTOR 8.0

/* Below this a bound could itself have underflowed: the exact path
 * decides (products of coordinate differences under 1e-80 each). */
#define BC_SWEEP_MIN_MAGNITUDE 1e-240

/* The bounding-ball rejection (farFromSegment) allows this much, relative
 * to the sizes of the coordinates, for the rounding of its few dozen
 * operations (each within some 10 u of those sizes, 2e-15): a million
 * times that, and still far below any gap it is meant to see. */
#define BC_BALL_FILTER_SLACK 1e-9

/* Bounding balls whose radius squared is below this are not trusted to
 * bound (their squares may have lost digits to underflow). */
#define BC_BALL_FILTER_MIN_RADIUS2 1e-280

/* A sign that the double-precision filter could not decide. */
enum { bc_signUnknown = 2 };

/* What a test found: a contact, none, that the exact path must decide, or
 * (the initial test) an overlap the options ignore: no contact at all. */
typedef enum bcVerdict { bc_verdictNone = 0, bc_verdictFound, bc_verdictExact, bc_verdictIgnored } bcVerdict;

bcCastOptions bcDefaultCastOptions(void)
{
	bcCastOptions options = { false, bc_approachLessEqual, bc_overlapReport, false };
	return options;
}

static inline double norm1(bcVec3 v)
{
	return fabs(v.x) + fabs(v.y) + fabs(v.z);
}

/* The error of a product of two computed vectors, x x y (in 1-norm) or
 * x . y, from their 1-norms nx, ny and their errors ex, ey (1-norm) from
 * exact vectors: the errors carried, and the product's own rounding. A
 * vector of rounded differences has error u times its 1-norm. */
static inline double productError(double nx, double ex, double ny, double ey)
{
	return nx * ey + ny * ex + ex * ey + BC_ROUNDING_FACTOR * BC_U * nx * ny;
}

bcSweepQuery bcMakeSweepQuery(bcCastInput input, const bcCastOptions* options)
{
	bcSweepQuery q;
	q.p0 = input.p0;
	q.p1 = input.p1;
	q.d = bcSub(input.p1, input.p0);
	q.radius = input.radius;
	q.options = options != NULL ? *options : bcDefaultCastOptions();
	q.moving = q.d.x != 0.0 || q.d.y != 0.0 || q.d.z != 0.0;
	q.dNorm1 = norm1(q.d);
	q.dLength = sqrt(bcDot(q.d, q.d)) * (1.0 + 4.0 * BC_U);
	q.forceExact = false;
	q.deferAlpha = false;
	q.ballFiltered = false;
	return q;
}

/* The two edges bcTriangleNormal crosses (the ones meeting opposite the
 * longest), the longest's length and the product of the two longest. */
typedef struct bcNormalEdges {
	bcVec3 cross;       /* their cross product, oriented as (b - a) x (c - a) */
	double lengths;     /* the product of their lengths */
	double longest;
	double product;     /* the longest length times the second longest */
} bcNormalEdges;

static bcNormalEdges normalEdges(bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 ab = bcSub(b, a), bc = bcSub(c, b), ca = bcSub(a, c);
	double lab = bcSafeLength(ab), lbc = bcSafeLength(bc), lca = bcSafeLength(ca);
	/* Every cyclic choice has the orientation of (b - a) x (c - a). */
	bcNormalEdges e;
	if (lab >= lbc && lab >= lca) {
		e.cross = bcCross(bc, ca);
		e.lengths = lbc * lca;
		e.longest = lab;
		e.product = lab * (lbc > lca ? lbc : lca);
	} else if (lbc >= lca) {
		e.cross = bcCross(ca, ab);
		e.lengths = lca * lab;
		e.longest = lbc;
		e.product = lbc * (lab > lca ? lab : lca);
	} else {
		e.cross = bcCross(ab, bc);
		e.lengths = lab * lbc;
		e.longest = lca;
		e.product = lca * (lab > lbc ? lab : lbc);
	}
	return e;
}

static bool isSliver(const bcNormalEdges* e, double area2)
{
	/* Below DBL_MIN the cross product has lost digits to underflow (and
	 * under about 1e-320 it is zero): degenerate too, as the man page says. */
	return !(area2 >= DBL_MIN) || !isfinite(area2) || !(e->longest > 0.0) || area2 <= BC_SLIVER_SINE * e->product;
}

/* The normal of a thin triangle (the plain one's bound above
 * BC_NORMAL_PLAIN_ERROR) from its exact cross product, every component
 * faithfully rounded (bcExactCross): within 2 u |N| of N (and DBL_MIN
 * absolutely), so the direction within 4 u, plus 4 u for the division;
 * doubled for safety, and the underflow's part added. The sliver rule is
 * taken on this |N| too: near the limit the plain one is off by up to a
 * fifth. Every triangle that is not a sliver gets a normal within 16 u of
 * a radian, however thin. */
static bcVec3 thinNormal(bcVec3 a, bcVec3 b, bcVec3 c, const bcNormalEdges* e, double* error)
{
	const bcVec3 zero = { 0.0, 0.0, 0.0 };
	bcVec3 cross = bcExactCross(a, b, c);
	double area2 = bcSafeLength(cross);
	if (isSliver(e, area2)) {
		*error = 0.0;
		return zero;
	}
	*error = 16.0 * BC_U + 8.0 * DBL_MIN / area2;
	return bcPositiveZeros(bcNormalize(cross));
}

bcVec3 bcTriangleNormalBounded(bcVec3 a, bcVec3 b, bcVec3 c, double* error)
{
	const bcVec3 zero = { 0.0, 0.0, 0.0 };
	bcNormalEdges e = normalEdges(a, b, c);
	double area2 = bcSafeLength(e.cross);
	*error = 0.0;
	if (isSliver(&e, area2)) {
		return zero;
	}
	/* Each component of the cross product of two rounded differences is
	 * within 4 u (|x_j y_k| + |x_k y_j|) <= 8 u |x| |y| of the exact one,
	 * so the vector within 14 u |x| |y|; normalised, the direction moves by
	 * that over |N|, plus 4 u for the division. Doubled for safety. */
	double plain = 28.0 * BC_U * (e.lengths / area2) + 8.0 * BC_U;
	if (!(plain > BC_NORMAL_PLAIN_ERROR)) {
		*error = plain;
		return bcPositiveZeros(bcNormalize(e.cross));
	}
	return thinNormal(a, b, c, &e, error);
}

bcVec3 bcTriangleNormal(bcVec3 a, bcVec3 b, bcVec3 c)
{
	double error;
	return bcTriangleNormalBounded(a, b, c, &error);
}

double bcTriangleNormalError(bcVec3 a, bcVec3 b, bcVec3 c)
{
	double error;
	bcTriangleNormalBounded(a, b, c, &error);
	return error;
}

/* Within BC_MAX_COORDINATE on every axis (false for NaN). */
static bool withinRange(bcVec3 v)
{
	return fabs(v.x) <= BC_MAX_COORDINATE && fabs(v.y) <= BC_MAX_COORDINATE && fabs(v.z) <= BC_MAX_COORDINATE;
}

/* Does a triangle count for a motion whose N . d has sign approach? */
static bool countsFor(const bcCastOptions* options, int approach)
{
	if (options->twoSided) {
		return true;
	}
	return options->approach == bc_approachLess ? approach < 0 : approach <= 0;
}

/* The sign of value when its error is at most error, else unknown. */
static inline int signWithin(double value, double error)
{
	if (value > error) {
		return 1;
	}
	if (value < -error) {
		return -1;
	}
	return bc_signUnknown;
}

/* x . y for vectors of rounded differences, and its exact sign: an exact
 * zero is recognised when every product has a zero factor. */
static inline int dotSign(bcVec3 x, bcVec3 y, double* value, double* error)
{
	double px = x.x * y.x, py = x.y * y.y, pz = x.z * y.z;
	double v = px + py + pz;
	double size = fabs(px) + fabs(py) + fabs(pz);
	*value = v;
	*error = BC_DOT_ERROR_FACTOR * BC_U * size;
	if (size >= BC_SWEEP_MIN_MAGNITUDE) {
		return signWithin(v, *error);
	}
	bool zero = (x.x == 0.0 || y.x == 0.0) && (x.y == 0.0 || y.y == 0.0) && (x.z == 0.0 || y.z == 0.0);
	if (!zero) {
		*error = HUGE_VAL; /* products lost to underflow: nothing is known */
	}
	return zero ? 0 : bc_signUnknown;
}

/* sign(x - y) for x, y within ex, ey of exact values; infinities exact. */
static inline int compareWithin(double x, double ex, double y, double ey)
{
	if (x == y && ((ex == 0.0 && ey == 0.0) || isinf(x))) {
		return 0;
	}
	if (x - ex > y + ey) {
		return 1;
	}
	if (x + ex < y - ey) {
		return -1;
	}
	return bc_signUnknown;
}

/* The exact sign of N . d: from the stored normal when it is far from 0,
 * then from N computed afresh with the orientation filter's bound, then
 * in big integers. */
static int approachSign(const bcSweepQuery* q, const bcSweepTriangleRef* t)
{
	double nd = bcDot(t->n, q->d);
	double error = (t->normalError + 8.0 * BC_U) * q->dNorm1;
	if (nd > error) {
		return 1;
	}
	if (nd < -error) {
		return -1;
	}
	bcVec3 u = bcSub(t->b, t->a), v = bcSub(t->c, t->a);
	bcVec3 w = q->d;
	double vywz = v.y * w.z, vzwy = v.z * w.y, vzwx = v.z * w.x, vxwz = v.x * w.z, vxwy = v.x * w.y,
		   vywx = v.y * w.x;
	double det = u.x * (vywz - vzwy) + u.y * (vzwx - vxwz) + u.z * (vxwy - vywx);
	double size = fabs(u.x) * (fabs(vywz) + fabs(vzwy)) + fabs(u.y) * (fabs(vzwx) + fabs(vxwz)) +
				  fabs(u.z) * (fabs(vxwy) + fabs(vywx));
	if (size >= BC_SWEEP_MIN_MAGNITUDE) {
		int s = signWithin(det, BC_DOT_ERROR_FACTOR * BC_U * size);
		if (s != bc_signUnknown) {
			return s;
		}
	}
	return bcExactCrossDotSign(t->a, t->b, t->c, q->p0, q->p1);
}

/* ------------------------------------------------------------ r = 0 */

/* x + y = a + b exactly (|a| >= |b| or a == 0). */
static inline void fastTwoSum(double a, double b, double* x, double* y)
{
	double sum = a + b;
	*y = b - (sum - a);
	*x = sum;
}

/* x + y = a + b exactly. */
static inline void twoSum(double a, double b, double* x, double* y)
{
	double sum = a + b;
	double bv = sum - a;
	double av = sum - bv;
	*y = (a - av) + (b - bv);
	*x = sum;
}

/* Where the CPU has fused multiply-add, the double-double arithmetic of
 * a point's alpha (pointAlpha) takes the exact product's rounding error
 * from it, in one instruction instead of Dekker's split: the same exact
 * error, so the same bits, chosen at run time as the walk's SIMD is. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(BC_NO_SIMD)
#define BC_SWEEP_FMA 1
#define BC_TARGET_FMA __attribute__((target("fma")))
#else
#define BC_SWEEP_FMA 0
#endif

#if defined(__GNUC__)
#define BC_SWEEP_INLINE __attribute__((always_inline))
#else
#define BC_SWEEP_INLINE
#endif

/* x + y = a * b exactly: Dekker's product (no fused multiply-add), or
 * with fused the error of the product from a fused multiply-add. */
static inline BC_SWEEP_INLINE void twoProduct(double a, double b, double* x, double* y, bool fused)
{
	double p = a * b;
	*x = p;
#if BC_SWEEP_FMA
	if (fused) {
		*y = __builtin_fma(a, b, -p);
		return;
	}
#else
	(void)fused;
#endif
	const double splitter = 134217729.0; /* 2^27 + 1 */
	double ca = splitter * a, cb = splitter * b;
	double ahi = ca - (ca - a), alo = a - ahi;
	double bhi = cb - (cb - b), blo = b - bhi;
	*y = ((ahi * bhi - p) + ahi * blo + alo * bhi) + alo * blo;
}

/* A double-double: hi + lo, |lo| <= ulp(hi) / 2. */
typedef struct bcDouble2 {
	double hi, lo;
} bcDouble2;

/* a - b exactly. */
static inline bcDouble2 double2Difference(double a, double b)
{
	bcDouble2 r;
	twoSum(a, -b, &r.hi, &r.lo);
	return r;
}

/* x + y, within about 2 u^2 (|x| + |y|). */
static inline bcDouble2 double2Add(bcDouble2 x, bcDouble2 y)
{
	double s, e;
	twoSum(x.hi, y.hi, &s, &e);
	e += x.lo + y.lo;
	bcDouble2 r;
	fastTwoSum(s, e, &r.hi, &r.lo);
	return r;
}

static inline bcDouble2 double2Negate(bcDouble2 x)
{
	bcDouble2 r = { -x.hi, -x.lo };
	return r;
}

/* x * y, within about 4 u^2 |x| |y|. */
static inline BC_SWEEP_INLINE bcDouble2 double2Multiply(bcDouble2 x, bcDouble2 y, bool fused)
{
	double p, e;
	twoProduct(x.hi, y.hi, &p, &e, fused);
	e += x.hi * y.lo + x.lo * y.hi;
	bcDouble2 r;
	fastTwoSum(p, e, &r.hi, &r.lo);
	return r;
}

/* x . y for double-double vectors. */
static inline BC_SWEEP_INLINE bcDouble2 double2Dot(const bcDouble2 x[3], const bcDouble2 y[3], bool fused)
{
	return double2Add(double2Add(double2Multiply(x[0], y[0], fused), double2Multiply(x[1], y[1], fused)),
					  double2Multiply(x[2], y[2], fused));
}

/* The crossing alpha = o0 / (o0 - o1) of a point's path with a plane,
 * o0 = N . (p0 - a) and o1 = N . (p1 - a) the plane distances (times
 * |N|) of p0 and p1, correctly rounded. They are computed in double-double
 * from differences taken exactly: every operation within a few u^2 of
 * the sizes of its terms, so each within BC_DOUBLE2_ERROR u^2 of its
 * permanent (the same sum with every product made absolute). The quotient
 * and its remainder are taken in double-double too. When the result lies
 * within its error bound of half an ulp from a double, or the sizes
 * leave the range where the bound holds, big integers round it. */
#define BC_DOUBLE2_ERROR 64.0

/* The plane quantities of pointAlpha and roundedFaceAlpha in
 * double-double: N from exact differences, o0 = N . (p0 - a) and o1 =
 * N . (p1 - a), and their permanents (nSize[i] that of N_i). */
typedef struct bcDouble2Plane {
	bcDouble2 n[3];
	double nSize[3];
	bcDouble2 o0, o1;
	double size0, size1;
} bcDouble2Plane;

static inline BC_SWEEP_INLINE void double2Plane(const bcSweepQuery* q, const bcSweepTriangleRef* t, bcDouble2Plane* p,
												 bool fused)
{
	bcDouble2 e1[3] = { double2Difference(t->b.x, t->a.x), double2Difference(t->b.y, t->a.y),
						double2Difference(t->b.z, t->a.z) };
	bcDouble2 e2[3] = { double2Difference(t->c.x, t->a.x), double2Difference(t->c.y, t->a.y),
						double2Difference(t->c.z, t->a.z) };
	bcDouble2 w0[3] = { double2Difference(q->p0.x, t->a.x), double2Difference(q->p0.y, t->a.y),
						double2Difference(q->p0.z, t->a.z) };
	bcDouble2 w1[3] = { double2Difference(q->p1.x, t->a.x), double2Difference(q->p1.y, t->a.y),
						double2Difference(q->p1.z, t->a.z) };
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		p->n[i] = double2Add(double2Multiply(e1[j], e2[k], fused), double2Negate(double2Multiply(e1[k], e2[j], fused)));
		p->nSize[i] = fabs(e1[j].hi * e2[k].hi) + fabs(e1[k].hi * e2[j].hi);
	}
	p->o0 = double2Dot(p->n, w0, fused);
	p->o1 = double2Dot(p->n, w1, fused);
	p->size0 = p->nSize[0] * fabs(w0[0].hi) + p->nSize[1] * fabs(w0[1].hi) + p->nSize[2] * fabs(w0[2].hi);
	p->size1 = p->nSize[0] * fabs(w1[0].hi) + p->nSize[1] * fabs(w1[1].hi) + p->nSize[2] * fabs(w1[2].hi);
}

/* num / den for double-doubles, as the nearest double to the
 * double-double quotient (*value) and what remains of it (*error). */
static inline BC_SWEEP_INLINE void double2Quotient(bcDouble2 num, bcDouble2 den, double* value, double* error,
												   bool fused)
{
	double quotient = num.hi / den.hi;
	double p, pe;
	twoProduct(quotient, den.hi, &p, &pe, fused);
	double remainder = ((num.hi - p) - pe) + num.lo - quotient * den.lo;
	twoSum(quotient, remainder / den.hi, value, error);
}

/* Whether value, an alpha in (0, 1] within bound of value + error (the
 * exact quotient's double-double), is surely the double nearest the exact
 * one: the exact one is farther than bound from the midpoint on the
 * error's side (half the gap to the next double there; alpha is a normal
 * double unless below 2^-1022). */
static bool roundsSurely(double value, double error, double bound)
{
	int exponent;
	double fraction = frexp(value, &exponent);
	double gap = ldexp(1.0, exponent - 53);
	gap = (fraction == 0.5 && error < 0.0) ? 0.5 * gap : gap;
	return fabs(fabs(error) - 0.5 * gap) > bound && value > 1e-300 && isfinite(value);
}

static inline BC_SWEEP_INLINE double pointAlphaWith(const bcSweepQuery* q, const bcSweepTriangleRef* t, bool fused)
{
	const double uu = BC_U * BC_U;
	bcDouble2Plane plane;
	double2Plane(q, t, &plane, fused);
	bcDouble2 o0 = plane.o0, o1 = plane.o1;
	double size0 = plane.size0, size1 = plane.size1;
	/* The bound needs every product far from underflow and overflow. */
	if (!(size0 > 1e-200 && size0 < 1e200 && size1 > 1e-200 && size1 < 1e200)) {
		return bcExactPointAlpha(q, t);
	}
	double error0 = BC_DOUBLE2_ERROR * uu * size0, error1 = BC_DOUBLE2_ERROR * uu * size1;
	bcDouble2 den = double2Add(o0, double2Negate(o1));
	double alpha, error;
	double2Quotient(o0, den, &alpha, &error, fused);
	double bound = fabs(alpha) * (error0 / fabs(o0.hi) + (error0 + error1) / fabs(den.hi) + 16.0 * uu);
	if (!roundsSurely(alpha, error, bound)) {
		return bcExactPointAlpha(q, t);
	}
	return alpha;
}

#if BC_SWEEP_FMA
static BC_TARGET_FMA double pointAlphaFused(const bcSweepQuery* q, const bcSweepTriangleRef* t)
{
	return pointAlphaWith(q, t, true);
}
#endif

static double pointAlpha(const bcSweepQuery* q, const bcSweepTriangleRef* t)
{
#if BC_SWEEP_FMA
	if (__builtin_cpu_supports("fma")) {
		return pointAlphaFused(q, t);
	}
#endif
	return pointAlphaWith(q, t, false);
}

/* A point: exact orientation predicates throughout. */
/* The signs of the three edges' orientations against the line p0 p1,
 * orient(p0, p1, v_k, v_k+1) = d . ((v_k - p0) x (v_k+1 - p0)): the filter
 * with the differences from p0 shared, then bcOrient3d where it cannot
 * decide. */
static void edgeSigns(const bcSweepQuery* q, const bcSweepTriangleRef* t, int w[3])
{
	const bcVec3 v[3] = { t->a, t->b, t->c };
	const bcVec3 d = q->d;
	bcVec3 x[3];
	for (int k = 0; k < 3; ++k) {
		x[k] = bcSub(v[k], q->p0);
	}
	for (int k = 0; k < 3; ++k) {
		bcVec3 y = x[k], z = x[(k + 1) % 3];
		double yzx = y.y * z.z, zyx = y.z * z.y;
		double yzy = y.z * z.x, zyy = y.x * z.z;
		double yzz = y.x * z.y, zyz = y.y * z.x;
		double det = d.x * (yzx - zyx) + d.y * (yzy - zyy) + d.z * (yzz - zyz);
		double size = fabs(d.x) * (fabs(yzx) + fabs(zyx)) + fabs(d.y) * (fabs(yzy) + fabs(zyy)) +
					  fabs(d.z) * (fabs(yzz) + fabs(zyz));
		/* Shewchuk's orient3d bound, 7 u, with room. */
		double bound = 8.0 * BC_U * size;
		if (size >= BC_SWEEP_MIN_MAGNITUDE && size <= DBL_MAX && (det > bound || -det > bound)) {
			w[k] = det > 0.0 ? 1 : -1;
		} else {
			w[k] = bcSign(bcOrient3d(q->p0, q->p1, v[k], v[(k + 1) % 3], 1.0));
		}
	}
}

static bcVerdict sweepPoint(const bcSweepQuery* q, const bcSweepTriangleRef* t, bcSweepResult* result)
{
	/* Strictly on one side of the plane throughout, by the stored normal
	 * (within normalError of the exact one): no contact. Most triangles
	 * leave here, for two dot products. */
	bcVec3 m0 = bcSub(q->p0, t->a), m1 = bcSub(q->p1, t->a);
	double nerr = t->normalError + 6.0 * BC_U;
	double h0 = bcDot(t->n, m0), h1 = bcDot(t->n, m1);
	double eh0 = nerr * norm1(m0), eh1 = nerr * norm1(m1);
	if ((h0 > eh0 && h1 > eh1) || (h0 < -eh0 && h1 < -eh1)) {
		return bc_verdictNone;
	}
	double e0, e1;
	double o0 = bcOrient3dBounded(t->a, t->b, t->c, q->p0, &e0);
	double o1 = bcOrient3dBounded(t->a, t->b, t->c, q->p1, &e1);
	int s0 = bcSign(o0), s1 = bcSign(o1);
	if (s0 == 0 && s1 == 0) {
		bool inRange = withinRange(t->a) && withinRange(t->b) && withinRange(t->c);
		return inRange ? bc_verdictExact : bc_verdictNone; /* moving in the plane, or resting on it */
	}
	if (s0 == s1) {
		return bc_verdictNone; /* strictly on one side throughout */
	}
	if (!withinRange(t->a) || !withinRange(t->b) || !withinRange(t->c)) {
		return bc_verdictNone; /* a vertex beyond BC_MAX_COORDINATE: never hit */
	}
	int approach = s0 == 0 ? s1 : -s0;
	result->approach = (signed char)approach;
	if (!countsFor(&q->options, approach)) {
		return bc_verdictNone;
	}
	int w[3];
	edgeSigns(q, t, w);
	bool inside = (w[0] >= 0 && w[1] >= 0 && w[2] >= 0) || (w[0] <= 0 && w[1] <= 0 && w[2] <= 0);
	if (!inside) {
		return bc_verdictNone;
	}
	if (s0 == 0) {
		/* Starting on the triangle: one contact at 0, on the feature p0 is on. */
		int zeros = (w[0] == 0) + (w[1] == 0) + (w[2] == 0);
		int slot = bc_slotFace;
		for (int k = 0; k < 3; ++k) {
			if (zeros == 2 && w[k] == 0 && w[(k + 1) % 3] == 0) {
				slot = bc_slotVertex0 + (k + 1) % 3;
			} else if (zeros == 1 && w[k] == 0) {
				slot = bc_slotEdge0 + k;
			}
		}
		result->alpha[slot] = 0.0;
		return bc_verdictFound;
	}
	double alpha = 1.0;
	/* The deferred ratio needs o0 and o1 as normal doubles: an exact
	 * orientation of tiny coordinates (1e-133 cubed) comes back as the
	 * smallest subnormal with only its sign right. */
	bool ratioKnown = fabs(o0) >= BC_SWEEP_MIN_MAGNITUDE && fabs(o1) >= BC_SWEEP_MIN_MAGNITUDE;
	if (s1 != 0 && q->deferAlpha && ratioKnown) {
		/* Within error of o0 / (o0 - o1); o0 and o1 have opposite signs,
		 * so the denominator does not cancel. bcSweepRefine sharpens it. */
		double den = o0 - o1;
		alpha = o0 / den;
		result->alphaError = alpha * (e0 / fabs(o0) + (e0 + e1) / fabs(den) + 3.0 * BC_U);
		alpha = alpha < 1.0 ? alpha : 1.0;
	} else if (s1 != 0) {
		alpha = pointAlpha(q, t);
	}
	/* The crossing point is on the face, and on every edge and vertex it meets. */
	result->alpha[bc_slotFace] = alpha;
	for (int k = 0; k < 3; ++k) {
		if (w[k] == 0) {
			result->alpha[bc_slotEdge0 + k] = alpha;
			if (w[(k + 1) % 3] == 0) {
				result->alpha[bc_slotVertex0 + (k + 1) % 3] = alpha;
			}
		}
	}
	return bc_verdictFound;
}

/* ------------------------------------------------------------ r > 0 */

/* Quantities of the triangle shared by the tests of one call. */
typedef struct bcBallFrame {
	bcVec3 v[3];        /* a, b, c */
	bcVec3 e[3];        /* edges: b - a, c - b, a - c */
	bcVec3 m[3];        /* p0 - vertex */
	double eNorm[3];    /* 1-norms */
	double eSquared[3]; /* |e_k|^2 */
	double mNorm[3];
	bcVec3 n;           /* (b - a) x (c - a), computed afresh */
	double nNorm;       /* its 1-norm */
	double nError;      /* its error bound (1-norm) */
	bool haveNormal;
} bcBallFrame;

static void computeNormal(bcBallFrame* f)
{
	if (!f->haveNormal) {
		bcVec3 ac = bcSub(f->v[2], f->v[0]);
		f->n = bcCross(f->e[0], ac);
		double acNorm = norm1(ac);
		f->nNorm = norm1(f->n);
		f->nError = productError(f->eNorm[0], BC_U * f->eNorm[0], acNorm, BC_U * acNorm);
		f->haveNormal = true;
	}
}

/* Ericson's region of p0, from the same quantities as the exact path:
 * dOut_k = e_k . m_k, dIn_k = e_{k-1} . m_k and w_k = (N x e_k) . m_k.
 * Returns the slot, or -1 when a sign that decides it is not certain. */
static int closestSlotFast(bcBallFrame* f)
{
	int out[3], in[3], w[3];
	double value, error;
	for (int k = 0; k < 3; ++k) {
		out[k] = dotSign(f->e[k], f->m[k], &value, &error);
		in[k] = dotSign(f->e[(k + 2) % 3], f->m[k], &value, &error);
	}
	computeNormal(f);
	for (int k = 0; k < 3; ++k) {
		bcVec3 ne = bcCross(f->n, f->e[k]);
		double ene = productError(f->nNorm, f->nError, f->eNorm[k], BC_U * f->eNorm[k]);
		double g = bcDot(ne, f->m[k]);
		w[k] = signWithin(g, productError(norm1(ne), ene, f->mNorm[k], BC_U * f->mNorm[k]));
	}
	/* Ericson's order: A, B, AB, C, CA, BC, face. A condition is true when
	 * all its signs are certain and right, false when one is certainly
	 * wrong, else unknown. */
	static const int order[6][2] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 1, 2 }, { 0, 2 }, { 0, 1 } };
	for (int i = 0; i < 6; ++i) {
		int k = order[i][1];
		int s[3];
		int want[3];
		int count;
		if (order[i][0] == 1) {
			s[0] = out[k];
			want[0] = -1; /* <= 0 */
			s[1] = in[k];
			want[1] = 1; /* >= 0 */
			count = 2;
		} else {
			s[0] = w[k];
			want[0] = -1;
			s[1] = out[k];
			want[1] = 1;
			s[2] = in[(k + 1) % 3];
			want[2] = -1;
			count = 3;
		}
		bool wrong = false, unknown = false;
		for (int j = 0; j < count; ++j) {
			if (s[j] == bc_signUnknown) {
				unknown = true;
			} else if (s[j] == -want[j]) {
				wrong = true;
			}
		}
		if (wrong) {
			continue;
		}
		if (unknown) {
			return -1;
		}
		return order[i][0] == 1 ? bc_slotVertex0 + k : bc_slotEdge0 + k;
	}
	return bc_slotFace;
}

/* Within r at alpha = 0? Found (result filled), none (farther than r),
 * ignored (an overlap the options skip), or exact. */
static bcVerdict initialContact(const bcSweepQuery* q, bcBallFrame* f, bcSweepResult* result)
{
	const double r = q->radius;
	if (r * r < DBL_MIN) {
		return bc_verdictExact; /* r^2 lost to underflow */
	}
	int slot = closestSlotFast(f);
	if (slot < 0) {
		return bc_verdictExact;
	}
	const double u = BC_U;
	double x, y, ex, ey;
	int side = 0;
	if (slot == bc_slotFace) {
		computeNormal(f);
		double s = bcDot(f->n, f->m[0]);
		double es = productError(f->nNorm, f->nError, f->mNorm[0], u * f->mNorm[0]);
		double l2 = bcDot(f->n, f->n);
		double el2 = productError(f->nNorm, f->nError, f->nNorm, f->nError);
		x = s * s;
		ex = 2.0 * fabs(s) * es + es * es + 2.0 * u * x;
		y = r * r * l2;
		ey = r * r * el2 + 4.0 * u * y;
		side = signWithin(s, es);
	} else if (slot < bc_slotVertex0) {
		int k = slot - bc_slotEdge0;
		bcVec3 me = bcCross(f->m[k], f->e[k]);
		double eme = productError(f->mNorm[k], u * f->mNorm[k], f->eNorm[k], u * f->eNorm[k]);
		double meNorm = norm1(me);
		x = bcDot(me, me);
		ex = productError(meNorm, eme, meNorm, eme);
		y = r * r * bcDot(f->e[k], f->e[k]);
		ey = 8.0 * u * y;
	} else {
		int k = slot - bc_slotVertex0;
		x = bcDot(f->m[k], f->m[k]);
		ex = 8.0 * u * x;
		y = r * r;
		ey = 2.0 * u * y;
	}
	int distance = compareWithin(x, ex, y, ey);
	/* Both sides lost to underflow read as an exact tie (0 = 0): a ball
	 * 1e-60 across is not touching because r^2 |n|^2 and (n . m)^2 both
	 * rounded to zero. Tiny values go to the exact path, zeros included. */
	if (distance == bc_signUnknown || x + y < BC_SWEEP_MIN_MAGNITUDE) {
		return bc_verdictExact;
	}
	if (distance > 0) {
		return bc_verdictNone;
	}
	if (distance < 0) {
		if (q->options.overlap == bc_overlapIgnore) {
			return bc_verdictIgnored;
		}
		result->overlap = true;
	}
	if (slot == bc_slotFace) {
		if (side == bc_signUnknown) {
			return bc_verdictExact;
		}
		result->side = (signed char)side;
	}
	result->alpha[slot] = 0.0;
	return bc_verdictFound;
}

/* Is alpha (within error of the exact one) at most 1, the end of the
 * path? 1 yes, 0 no, bc_signUnknown. */
static int beforeEnd(double alpha, double error)
{
	if (alpha - error > 1.0) {
		return 0;
	}
	return alpha + error <= 1.0 ? 1 : bc_signUnknown;
}

/* What the face test learnt of the triangle's plane, for skipping the
 * pieces around the face that cannot matter. */
typedef struct bcFaceReach {
	bool beyond;      /* the centre stays farther than r from the plane on all of [0, 1]: no contact */
	bool crossed;     /* the pushed-out plane is crossed, at alpha within error */
	double alpha, error;
	/* The crossing's distance, in the plane, from edge k's line is at
	 * least sqrt(margin[k]^2 / length2[k]). */
	double margin[3];
	double length2[3];
	/* When the crossing is outside the triangle: a lower bound on its
	 * squared distance from the triangle (from the edges it is beyond),
	 * and a lower bound on |n . d|; else 0. */
	double outside2;
	double approachRate;
} bcFaceReach;

/* The face's contact (alpha or INFINITY), or bc_verdictExact; *reach is
 * filled as far as it is known. */
static bcVerdict faceContact(const bcSweepQuery* q, bcBallFrame* f, int approach, double* alpha, bcFaceReach* reach)
{
	const double u = BC_U;
	const double r = q->radius;
	const double sigma = approach < 0 ? 1.0 : -1.0;
	reach->beyond = false;
	reach->crossed = false;
	reach->outside2 = 0.0;
	reach->approachRate = 0.0;
	*alpha = bcInfinity;
	computeNormal(f);
	const double en = f->nError;
	double l2 = bcDot(f->n, f->n);
	const double nn = f->nNorm;
	double el2 = productError(nn, en, nn, en);
	double root = sqrt(l2);
	double eroot = root * (0.5 * el2 / l2 + 2.0 * u);
	double rs = r * root, ers = r * eroot + u * rs;
	/* sigma S - r sqrt L2 >= 0 >= sigma S1 - r sqrt L2. */
	bcVec3 m1 = bcSub(q->p1, f->v[0]);
	double s1 = sigma * bcDot(f->n, m1);
	double m1Norm = norm1(m1);
	double es1 = productError(nn, en, m1Norm, u * m1Norm);
	double v1 = s1 - rs, e1 = es1 + ers + u * fabs(v1);
	int end = signWithin(v1, e1);
	if (end == 1) {
		/* Still beyond the pushed-out plane at the end, moving towards it:
		 * beyond it throughout (the start was checked farther than r). */
		reach->beyond = true;
		return bc_verdictNone;
	}
	double s = sigma * bcDot(f->n, f->m[0]);
	double es = productError(nn, en, f->mNorm[0], u * f->mNorm[0]);
	double v0 = s - rs, e0 = es + ers + u * fabs(v0);
	int start = signWithin(v0, e0);
	if (start == -1) {
		return bc_verdictNone; /* starting within r of the plane: no crossing */
	}
	if (start == bc_signUnknown || end == bc_signUnknown) {
		return bc_verdictExact;
	}
	double nd = fabs(bcDot(f->n, q->d));
	double end0 = productError(nn, en, q->dNorm1, u * q->dNorm1);
	if (!(nd > end0)) {
		return bc_verdictExact;
	}
	double a = v0 / nd;
	double ea = (e0 + a * end0) / (nd - end0) + 2.0 * u * a;
	a = a < 1.0 ? a : 1.0; /* certified <= 1; rounding may step past */
	reach->crossed = true;
	reach->alpha = a;
	reach->error = ea;
	/* Inside: (N x e_k) . (m_k + alpha d) >= 0 for each edge; that over
	 * |N x e_k| = |N| |e_k| is the distance from the edge's line. */
	bool unknown = false, outside = false;
	for (int k = 0; k < 3; ++k) {
		bcVec3 ne = bcCross(f->n, f->e[k]);
		double ene = productError(nn, en, f->eNorm[k], u * f->eNorm[k]);
		double neNorm = norm1(ne);
		double g = bcDot(ne, f->m[k]);
		double h = bcDot(ne, q->d);
		double eg = productError(neNorm, ene, f->mNorm[k], u * f->mNorm[k]);
		double eh = productError(neNorm, ene, q->dNorm1, u * q->dNorm1);
		double value = g + a * h;
		double error = eg + a * eh + ea * fabs(h) + 2.0 * u * (fabs(g) + fabs(a * h));
		int sign = signWithin(value, error);
		outside = outside || sign == -1;
		unknown = unknown || sign == bc_signUnknown;
		/* |ne|^2 rounded up by its own rounding and the error of N. */
		double margin = fabs(value) - error;
		reach->margin[k] = margin > 0.0 ? margin * (1.0 - 4.0 * u) : 0.0;
		reach->length2[k] = (bcDot(ne, ne) + 2.0 * neNorm * ene + ene * ene) * (1.0 + 8.0 * u);
	}
	if (outside) {
		return bc_verdictNone;
	}
	if (unknown || ea > BC_SWEEP_ALPHA_ERROR) {
		return bc_verdictExact;
	}
	*alpha = a;
	return bc_verdictFound;
}

/* The face's contact from the stored normal n (within normalError of the
 * exact unit normal): the same tests as faceContact, each with the
 * normal's error in its bound; where one is uncertain, faceContact
 * decides (with the normal computed afresh, then exactly). The common
 * case costs a few dot products and no square root. */
static bcVerdict faceContactStored(const bcSweepQuery* q, const bcSweepTriangleRef* t, bcBallFrame* f, int approach,
								   double s0, double nd, double* alpha, bcFaceReach* reach)
{
	const double u = BC_U;
	const double r = q->radius;
	const double sigma = approach < 0 ? 1.0 : -1.0;
	/* A dot product with n is within (normalError + 6 u) |v|_1 of the one
	 * with the exact unit normal. */
	const double nerr = t->normalError + 6.0 * u;
	reach->beyond = false;
	reach->crossed = false;
	reach->outside2 = 0.0;
	reach->approachRate = 0.0;
	*alpha = bcInfinity;
	bcVec3 m1 = bcSub(q->p1, t->a);
	double v1 = sigma * bcDot(t->n, m1) - r;
	double e1 = nerr * norm1(m1) + u * (r + fabs(v1));
	if (v1 > e1) {
		reach->beyond = true;
		return bc_verdictNone;
	}
	double v0 = sigma * s0 - r;
	double e0 = nerr * f->mNorm[0] + u * (r + fabs(v0));
	if (v0 < -e0) {
		return bc_verdictNone;
	}
	double and = fabs(nd), end = nerr * q->dNorm1;
	if (!(v0 > e0) || !(v1 < -e1) || !(and > 2.0 * end)) {
		return faceContact(q, f, approach, alpha, reach);
	}
	double a = v0 / and;
	double ea = (e0 + a * end) / (and - end) + 2.0 * u * a;
	a = a < 1.0 ? a : 1.0;
	/* Inside: (n x e_k) . (m_k + alpha d) >= 0; n x e_k within
	 * nerr |e_k|_1 of the exact unit normal's. */
	bool unknown = false, outside = false;
	for (int k = 0; k < 3; ++k) {
		/* (n x e_k) . (m_k + alpha d): n within nerr of the exact unit
		 * normal, the rest within 16 u of its terms' sizes, alpha within
		 * ea. It is |e_k| times the crossing's distance from the edge's
		 * line (n is perpendicular to e_k), so |e_k|^2 bounds length2. */
		bcVec3 ne = bcCross(t->n, f->e[k]);
		double g = bcDot(ne, f->m[k]);
		double h = bcDot(ne, q->d);
		double value = g + a * h;
		double error = (nerr + 16.0 * u) * f->eNorm[k] * (f->mNorm[k] + a * q->dNorm1) + ea * fabs(h);
		outside = outside || value < -error;
		unknown = unknown || !(fabs(value) > error);
		double margin = fabs(value) - error;
		reach->margin[k] = margin > 0.0 ? margin * (1.0 - 4.0 * u) : 0.0;
		reach->length2[k] = f->eSquared[k] * (1.0 + 8.0 * u);
		if (value < -error) {
			double d2 = reach->margin[k] * reach->margin[k] / reach->length2[k];
			reach->outside2 = d2 > reach->outside2 ? d2 : reach->outside2;
		}
	}
	reach->approachRate = and - end;
	if (!outside && (unknown || ea > BC_SWEEP_ALPHA_ERROR)) {
		return faceContact(q, f, approach, alpha, reach);
	}
	reach->crossed = true;
	reach->alpha = a;
	reach->error = ea;
	if (outside) {
		return bc_verdictNone;
	}
	*alpha = a;
	return bc_verdictFound;
}

/* An interval bound with its error. */
typedef struct bcBound {
	double value;
	double error;
} bcBound;

/* The later (later = true) or earlier of two bounds, or unknown. */
static bool pickBound(bcBound x, bcBound y, bool later, bcBound* out)
{
	int c = compareWithin(x.value, x.error, y.value, y.error);
	if (c == bc_signUnknown) {
		return false;
	}
	*out = (c >= 0) == later ? x : y;
	return true;
}

/* The quantities of an edge's test (see sweep_exact.c for the algebra),
 * and bounds on their errors. */
typedef struct bcEdgeTerms {
	double ee;  /* |e|^2 */
	double aa;  /* |d x e|^2 */
	double bb;  /* (m x e) . (d x e) */
	double cc;  /* |m x e|^2 - r^2 |e|^2 */
	double d6;  /* aa r^2 - tau^2, tau = m . (d x e): the discriminant over ee */
	double me0; /* m . e */
	double ded; /* d . e */
} bcEdgeTerms;

/* The sign of value within error, 0 only for an exact zero (error 0). */
static inline int certainSign(double value, double error)
{
	if (value > error) {
		return 1;
	}
	if (value < -error) {
		return -1;
	}
	return value == 0.0 && error == 0.0 ? 0 : bc_signUnknown;
}

/* Edge k's piece decided from its terms within the errors given: its
 * entry (bc_verdictFound, *alpha), none before maxAlpha (bc_verdictNone),
 * or bc_verdictExact when an error leaves a decision open. parallel: d x e
 * is exactly 0. */
static bcVerdict decideEdge(const bcEdgeTerms* v, const bcEdgeTerms* err, bool parallel, double maxAlpha,
							double* alpha)
{
	const double u = BC_U;
	*alpha = bcInfinity;
	bcBound cylLo, cylHi;
	if (v->aa <= err->aa) {
		/* Moving along the edge's line: within r of it always or never. */
		if (!parallel) {
			return bc_verdictExact;
		}
		int within = certainSign(v->cc, err->cc);
		if (within == bc_signUnknown) {
			return bc_verdictExact;
		}
		if (within > 0) {
			return bc_verdictNone;
		}
		cylLo.value = -bcInfinity;
		cylHi.value = bcInfinity;
		cylLo.error = cylHi.error = 0.0;
	} else {
		int disc = certainSign(v->d6, err->d6);
		if (disc == -1) {
			return bc_verdictNone;
		}
		if (disc != 1 || v->d6 * v->ee < BC_SWEEP_MIN_MAGNITUDE) {
			return bc_verdictExact;
		}
		/* Roots q / aa and cc / q, q = -(bb + sign(bb) sqrt(ee d6)). */
		double root = sqrt(v->ee * v->d6);
		double eroot = root * (0.5 * (err->ee / v->ee + err->d6 / v->d6) + 2.0 * u);
		double qq = -(v->bb + (v->bb < 0.0 ? -root : root));
		double eq = err->bb + eroot + u * fabs(qq);
		if (!(fabs(qq) > eq)) {
			return bc_verdictExact;
		}
		double r1 = qq / v->aa;
		double er1 = (eq + fabs(r1) * err->aa) / v->aa + u * fabs(r1);
		double r2 = v->cc / qq;
		double er2 = (err->cc + fabs(r2) * eq) / (fabs(qq) - eq) + u * fabs(r2);
		bool firstLower = r1 <= r2;
		cylLo.value = firstLower ? r1 : r2;
		cylLo.error = firstLower ? er1 : er2;
		cylHi.value = firstLower ? r2 : r1;
		cylHi.error = firstLower ? er2 : er1;
		/* The piece is not entered before the cylinder is, nor after it is
		 * left: a slot past maxAlpha is never answered or tied. */
		if (cylLo.value - cylLo.error > maxAlpha || cylHi.value + cylHi.error < 0.0) {
			return bc_verdictNone;
		}
	}

	/* Beside the segment: 0 <= me0 + alpha ded <= ee. */
	bcBound slabLo, slabHi;
	double rest = v->ee - v->me0, erest = err->ee + err->me0 + u * fabs(rest);
	int sDed = certainSign(v->ded, err->ded);
	if (sDed == 0) {
		int sMe0 = certainSign(v->me0, err->me0);
		int sRest = certainSign(rest, erest);
		if (sMe0 == bc_signUnknown || sRest == bc_signUnknown) {
			return bc_verdictExact;
		}
		if (sMe0 < 0 || sRest < 0) {
			return bc_verdictNone;
		}
		slabLo.value = -bcInfinity;
		slabHi.value = bcInfinity;
		slabLo.error = slabHi.error = 0.0;
	} else {
		if (sDed == bc_signUnknown) {
			return bc_verdictExact;
		}
		double adn = fabs(v->ded) - err->ded;
		bcBound t0, t1;
		t0.value = -v->me0 / v->ded;
		t0.error = (err->me0 + fabs(t0.value) * err->ded) / adn + u * fabs(t0.value);
		t1.value = rest / v->ded;
		t1.error = (erest + fabs(t1.value) * err->ded) / adn + u * fabs(t1.value);
		slabLo = v->ded > 0.0 ? t0 : t1;
		slabHi = v->ded > 0.0 ? t1 : t0;
	}

	bcBound lo, hi;
	if (!pickBound(cylLo, slabLo, true, &lo) || !pickBound(cylHi, slabHi, false, &hi)) {
		return bc_verdictExact;
	}
	int order = compareWithin(lo.value, lo.error, hi.value, hi.error);
	if (order == 1 || lo.value - lo.error > maxAlpha) {
		return bc_verdictNone;
	}
	int afterStart = compareWithin(lo.value, lo.error, 0.0, 0.0);
	if (order == bc_signUnknown || afterStart != 1) {
		/* Unsure, or entered at or before 0, which the initial test ruled
		 * out: let the exact path look. A piece left before 0 is skipped. */
		if (compareWithin(hi.value, hi.error, 0.0, 0.0) == -1) {
			return bc_verdictNone;
		}
		return bc_verdictExact;
	}
	int limit = beforeEnd(lo.value, lo.error);
	if (limit == 0) {
		return bc_verdictNone;
	}
	if (limit == bc_signUnknown || lo.error > BC_SWEEP_ALPHA_ERROR) {
		return bc_verdictExact;
	}
	*alpha = lo.value < 1.0 ? lo.value : 1.0;
	return bc_verdictFound;
}

/* Edge k's contact (alpha or INFINITY), or bc_verdictExact. Decided first
 * with error bounds from the inputs' 1-norms alone, which settle nearly
 * every edge, then, where one is open, with bounds from the intermediates'
 * sizes (and exact zeros recognised), then by the exact path. */
static bcVerdict edgeContact(const bcSweepQuery* q, const bcBallFrame* f, int k, double maxAlpha, double* alpha)
{
	const double u = BC_U;
	const double r = q->radius, rr = r * r;
	const bcVec3 e = f->e[k], m = f->m[k], d = q->d;
	const double E = f->eNorm[k], M = f->mNorm[k], D = q->dNorm1;
	*alpha = bcInfinity;

	/* Beside the segment: t(alpha) ee = m.e + alpha d.e in [0, ee]. When
	 * it is certainly outside at both alpha = 0 and maxAlpha (it is linear:
	 * then throughout), the piece is not entered before maxAlpha; such a
	 * slot could never be answered or tied (see bcSweepTriangle). */
	bcEdgeTerms v;
	v.ee = f->eSquared[k];
	v.me0 = bcDot(m, e);
	v.ded = bcDot(d, e);
	double tEnd = v.me0 + maxAlpha * v.ded;
	double tError = BC_LOOSE_ERROR_FACTOR * u * E * (M + D);
	if ((v.me0 < -tError && tEnd < -tError) || (v.me0 > v.ee + tError && tEnd > v.ee + tError)) {
		return bc_verdictNone;
	}
	/* The discriminant: most edges' lines pass farther than r from the
	 * path. (Moving along the line, d x e = 0, makes it 0: never rejected
	 * here.) */
	bcVec3 de = bcCross(d, e);
	v.aa = bcDot(de, de);
	double tau = bcDot(m, de);
	v.d6 = v.aa * rr - tau * tau;
	bcEdgeTerms loose;
	loose.d6 = BC_LOOSE_ERROR_FACTOR * u * D * D * E * E * (rr + M * M);
	if (v.d6 < -loose.d6) {
		return bc_verdictNone;
	}
	bcVec3 me = bcCross(m, e);
	double me2 = bcDot(me, me);
	v.cc = me2 - rr * v.ee;
	v.bb = bcDot(me, de);
	loose.ee = BC_DOT_ERROR_FACTOR * u * v.ee;
	loose.aa = BC_LOOSE_ERROR_FACTOR * u * D * D * E * E;
	loose.bb = BC_LOOSE_ERROR_FACTOR * u * M * D * E * E;
	loose.cc = BC_LOOSE_ERROR_FACTOR * u * E * E * (M * M + rr);
	loose.me0 = BC_DOT_ERROR_FACTOR * u * M * E;
	loose.ded = BC_DOT_ERROR_FACTOR * u * D * E;
	bool parallel = (d.y == 0.0 || e.z == 0.0) && (d.z == 0.0 || e.y == 0.0) && (d.z == 0.0 || e.x == 0.0) &&
					(d.x == 0.0 || e.z == 0.0) && (d.x == 0.0 || e.y == 0.0) && (d.y == 0.0 || e.x == 0.0);
	bcVerdict verdict = decideEdge(&v, &loose, parallel, maxAlpha, alpha);
	if (verdict != bc_verdictExact) {
		return verdict;
	}
	/* Tighter bounds, from the sizes of the intermediates. */
	bcEdgeTerms tight;
	double meNorm = norm1(me), deNorm = norm1(de);
	double eme = productError(M, u * M, E, u * E);
	double ede = productError(D, u * D, E, u * E);
	double etau = productError(M, u * M, deNorm, ede);
	tight.ee = loose.ee;
	tight.aa = productError(deNorm, ede, deNorm, ede);
	tight.bb = productError(meNorm, eme, deNorm, ede);
	tight.cc = productError(meNorm, eme, meNorm, eme) + rr * tight.ee + 2.0 * u * (me2 + rr * v.ee);
	tight.d6 = rr * tight.aa + 2.0 * fabs(tau) * etau + etau * etau + 4.0 * u * (v.aa * rr + tau * tau);
	dotSign(m, e, &v.me0, &tight.me0);
	dotSign(d, e, &v.ded, &tight.ded);
	return decideEdge(&v, &tight, parallel, maxAlpha, alpha);
}

/* Vertex k's contact (alpha or INFINITY), or bc_verdictExact. */
static bcVerdict vertexContact(const bcSweepQuery* q, const bcBallFrame* f, int k, double dd, double maxAlpha,
							   double* alpha)
{
	const double u = BC_U;
	const double r = q->radius, rr = r * r;
	const bcVec3 m = f->m[k];
	const double M = f->mNorm[k], D = q->dNorm1;
	*alpha = bcInfinity;
	/* The centre moves at most maxAlpha |d|: a vertex farther than r plus
	 * that from p0 is not reached before maxAlpha (a slot that could never
	 * be answered or tied; see bcSweepTriangle). */
	double reach = r + maxAlpha * q->dLength;
	if (bcDot(m, m) > reach * reach * (1.0 + 8.0 * u)) {
		return bc_verdictNone;
	}
	/* First with bounds from the norms alone (|m x d| <= M D): most
	 * vertices are decided there; then with the intermediates' sizes. */
	double bb = bcDot(m, q->d);
	if (bb > BC_DOT_ERROR_FACTOR * u * M * D) {
		return bc_verdictNone; /* moving away */
	}
	bcVec3 md = bcCross(m, q->d);
	double md2 = bcDot(md, md);
	double disc = dd * rr - md2;
	double looseDisc = BC_LOOSE_ERROR_FACTOR * u * (dd * rr + M * M * D * D);
	if (disc < -looseDisc) {
		return bc_verdictNone; /* the line misses the ball */
	}
	/* Entered at cc / (sqrt(disc) - bb): a lower bound from the norms'
	 * bounds, past maxAlpha, settles it. */
	double cc0 = bcDot(m, m) - rr;
	double looseCc = BC_LOOSE_ERROR_FACTOR * u * (M * M + rr);
	double looseBb = BC_DOT_ERROR_FACTOR * u * M * D;
	if (disc > looseDisc && cc0 > looseCc && bb < -looseBb) {
		double entry = cc0 / (sqrt(disc) - bb);
		double slack = looseCc / cc0 + looseBb / -bb + looseDisc / disc + 16.0 * u;
		if (entry * (1.0 - slack) > maxAlpha) {
			return bc_verdictNone;
		}
	}
	double ebb;
	int towards = dotSign(m, q->d, &bb, &ebb);
	if (towards == 0 || towards == 1) {
		return bc_verdictNone;
	}
	double emd = productError(M, u * M, D, u * D);
	double mdNorm = norm1(md);
	double edisc = productError(mdNorm, emd, mdNorm, emd) + 6.0 * u * dd * rr + 2.0 * u * fabs(disc);
	int s = signWithin(disc, edisc);
	if (s == -1) {
		return bc_verdictNone;
	}
	if (towards == bc_signUnknown || s == bc_signUnknown || disc < BC_SWEEP_MIN_MAGNITUDE) {
		return bc_verdictExact;
	}
	double cc = bcDot(m, m) - rr;
	double ecc = 8.0 * u * (bcDot(m, m) + rr);
	if (!(cc > ecc)) {
		return bc_verdictExact;
	}
	/* a = cc / (sqrt(disc) - bb): both terms of the denominator are >= 0,
	 * so its error is theirs, not amplified. */
	double root = sqrt(disc);
	double eroot = root * (0.5 * edisc / disc + 2.0 * u);
	double den = root - bb;
	double a = cc / den;
	double ea = (ecc + a * (eroot + ebb)) / den + 2.0 * u * a;
	int limit = beforeEnd(a, ea);
	if (limit == 0) {
		return bc_verdictNone;
	}
	if (limit == bc_signUnknown || ea > BC_SWEEP_ALPHA_ERROR) {
		return bc_verdictExact;
	}
	*alpha = a < 1.0 ? a : 1.0;
	return bc_verdictFound;
}

/* Is the segment p0 + alpha d, alpha in [0, maxAlpha], surely farther
 * than r from the triangle? Tested against a ball around the triangle:
 * its centroid g and the largest distance R from g to a vertex. The
 * distance from g to the segment is taken at the segment's point nearest
 * g (within rounding: a point of the segment, so its distance is at least
 * the least one less the rounding), and the answer is yes only when it
 * exceeds R + r by more than BC_BALL_FILTER_SLACK of the sizes involved.
 * About half the triangles of a sweep that pass the plane test are
 * rejected here, at the cost of one square root. */
static bool farFromSegment(const bcSweepQuery* q, const bcSweepTriangleRef* t, double maxAlpha)
{
	bcVec3 g = bcScale(1.0 / 3.0, bcAdd(bcAdd(t->a, t->b), t->c));
	bcVec3 ga = bcSub(t->a, g), gb = bcSub(t->b, g), gc = bcSub(t->c, g);
	double r2 = fmax(bcDot(ga, ga), fmax(bcDot(gb, gb), bcDot(gc, gc)));
	if (!(r2 >= BC_BALL_FILTER_MIN_RADIUS2)) {
		return false;
	}
	bcVec3 w = bcSub(g, q->p0);
	double dd = bcDot(q->d, q->d);
	double along = dd > 0.0 ? bcDot(w, q->d) / dd : 0.0;
	along = along > 0.0 ? (along < maxAlpha ? along : maxAlpha) : 0.0;
	bcVec3 e = bcSub(w, bcScale(along, q->d));
	double reach = sqrt(r2) + q->radius;
	reach += BC_BALL_FILTER_SLACK * (reach + norm1(g) + norm1(q->p0) + q->dNorm1);
	return bcDot(e, e) > reach * reach;
}

/* The plane test of a ball's sweep, and what it computed for the tests
 * after it. */
typedef struct bcPlaneTerms {
	bcVec3 m0;  /* p0 - a */
	double s0;  /* n . m0 */
	double e0;  /* its error bound, r included */
	double nd;  /* n . d */
} bcPlaneTerms;

/* Every point of the triangle lies in its plane, so a centre farther than
 * r from the plane is farther than r from the triangle. When the centre
 * stays beyond r on one side for all alpha in [0, maxAlpha] (s is linear
 * in alpha: its ends bound it), no piece can be entered: true (rejected).
 * The stored normal's error and the rounding are allowed for. This rejects
 * most triangles a short sweep's boxes bring, at the cost of two dot
 * products, and it does not depend on the side the triangle faces, so it
 * runs first (bcSweepTriangle), before the approach sign and before the
 * result is prepared. */
static inline bool planeRejects(const bcSweepQuery* q, const bcSweepTriangleRef* t, double maxAlpha,
								bcPlaneTerms* p)
{
	const double r = q->radius;
	const double u = BC_U;
	bcVec3 m0 = bcSub(q->p0, t->a);
	double nerr = t->normalError + 8.0 * u;
	double s0 = bcDot(t->n, m0);
	double e0 = nerr * (norm1(m0) + r) + u * fabs(s0);
	double nd = bcDot(t->n, q->d);
	double s1 = s0 + maxAlpha * nd;
	double e1 = e0 + maxAlpha * nerr * q->dNorm1 + 2.0 * u * fabs(s1);
	p->m0 = m0;
	p->s0 = s0;
	p->e0 = e0;
	p->nd = nd;
	return (s0 - e0 > r && s1 - e1 > r) || (s0 + e0 < -r && s1 + e1 < -r);
}

/* A ball (r > 0), past the plane test (plane: its terms). */
static bcVerdict sweepBall(const bcSweepQuery* q, const bcSweepTriangleRef* t, double maxAlpha,
						   const bcPlaneTerms* plane, bcSweepResult* result)
{
	int approach = approachSign(q, t);
	result->approach = (signed char)approach;
	if (!countsFor(&q->options, approach)) {
		return bc_verdictNone;
	}
	const double r = q->radius;
	const double u = BC_U;
	const bcVec3 m0 = plane->m0;
	const double s0 = plane->s0, e0 = plane->e0, nd = plane->nd;
	/* A rejection, not a decision: skipping it (the walk has tested a ball
	 * around the triangle already) changes no answer: a triangle it rejects
	 * has no contact before maxAlpha + 1e-9 (its slack includes 1e-9 |d|_1),
	 * and a contact's alpha is never off by more than BC_SWEEP_ALPHA_ERROR,
	 * so the tests that would then run find nothing at or before maxAlpha. */
	if (!q->ballFiltered && farFromSegment(q, t, maxAlpha)) {
		return bc_verdictNone;
	}

	/* A triangle with a vertex beyond BC_MAX_COORDINATE is never hit. */
	if (!withinRange(t->a) || !withinRange(t->b) || !withinRange(t->c)) {
		return bc_verdictNone;
	}
	bcBallFrame f;
	f.v[0] = t->a;
	f.v[1] = t->b;
	f.v[2] = t->c;
	f.haveNormal = false;
	for (int k = 0; k < 3; ++k) {
		f.e[k] = bcSub(f.v[(k + 1) % 3], f.v[k]);
		f.m[k] = k == 0 ? m0 : bcSub(q->p0, f.v[k]);
		f.eNorm[k] = norm1(f.e[k]);
		f.eSquared[k] = bcDot(f.e[k], f.e[k]);
		f.mNorm[k] = norm1(f.m[k]);
	}

	/* Already within r at alpha = 0? */
	if (fabs(s0) - e0 <= r) {
		bcVerdict verdict = initialContact(q, &f, result);
		if (verdict != bc_verdictNone) {
			return verdict == bc_verdictIgnored ? bc_verdictNone : verdict;
		}
	}
	if (!q->moving) {
		return bc_verdictNone;
	}

	/* Each piece is decided on its own, by the exact path when its signs
	 * or its alpha are uncertain: the bits of one slot never depend on
	 * another's, nor on maxAlpha. */
	bool found = false;
	double alpha;
	bcFaceReach reach = { false, false, 0.0, 0.0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, 0.0, 0.0 };
	if (approach != 0) {
		bcVerdict verdict = faceContactStored(q, t, &f, approach, s0, nd, &alpha, &reach);
		if (reach.beyond) {
			return bc_verdictNone;
		}
		/* Within r of the plane only for alpha in [a, a + 2 r / |n . d|]
		 * after the crossing at a, the centre's projection moves at most
		 * |d| per unit of alpha: starting farther than 2 r |d| / |n . d|
		 * from the triangle, it never comes within r of it. */
		if (reach.crossed && verdict == bc_verdictNone && reach.outside2 > 0.0 && reach.approachRate > 0.0) {
			double travel = 2.0 * r * q->dLength / reach.approachRate;
			if (reach.outside2 > travel * travel * (1.0 + 16.0 * u)) {
				return bc_verdictNone;
			}
		}
		if (verdict == bc_verdictExact) {
			alpha = bcExactSlotAlpha(q, t, bc_slotFace);
		}
		result->alpha[bc_slotFace] = alpha;
		found = alpha <= 1.0;
	}
	/* Before the plane pushed out by r is crossed the centre is farther
	 * than r from every point of the plane, and it approaches a line of the
	 * plane no faster than |d| per unit of alpha: an edge (or its vertices)
	 * at distance L from the crossing, in the plane, is entered no earlier
	 * than (sqrt(r^2 + L^2) - r) / |d| later. Pieces entered past maxAlpha,
	 * or past the face's own contact by more than the tie tolerance, can
	 * never be answered or tied: they are not computed. */
	bool skip[3] = { false, false, false };
	if (reach.crossed) {
		double limit = maxAlpha;
		if (found) {
			double window = result->alpha[bc_slotFace] + BC_ALPHA_TIE_TOLERANCE;
			limit = window < limit ? window : limit;
		}
		/* Entered no earlier than alpha - error + (sqrt(r^2 + c^2) - r) / |d|,
		 * past limit (with room) when c^2 > g^2 + 2 g r for the gap g. */
		double g = (limit + BC_SWEEP_ALPHA_ERROR - (reach.alpha - reach.error)) * q->dLength;
		for (int k = 0; k < 3; ++k) {
			double c2 = reach.margin[k] * reach.margin[k];
			skip[k] = g < 0.0 || c2 > (g * g + 2.0 * g * r) * reach.length2[k] * (1.0 + 16.0 * u);
		}
	}
	for (int k = 0; k < 3; ++k) {
		if (skip[k]) {
			continue;
		}
		bcVerdict verdict = edgeContact(q, &f, k, maxAlpha, &alpha);
		if (verdict == bc_verdictExact) {
			alpha = bcExactSlotAlpha(q, t, bc_slotEdge0 + k);
		}
		result->alpha[bc_slotEdge0 + k] = alpha;
		found = found || alpha <= 1.0;
	}
	double dd = bcDot(q->d, q->d);
	for (int k = 0; k < 3; ++k) {
		/* Vertex k lies on the lines of edges k and k - 1. */
		if (skip[k] || skip[(k + 2) % 3]) {
			continue;
		}
		bcVerdict verdict = vertexContact(q, &f, k, dd, maxAlpha, &alpha);
		if (verdict == bc_verdictExact) {
			alpha = bcExactSlotAlpha(q, t, bc_slotVertex0 + k);
		}
		result->alpha[bc_slotVertex0 + k] = alpha;
		found = found || alpha <= 1.0;
	}
	return found ? bc_verdictFound : bc_verdictNone;
}

/* ------------------------------------------- a ball's face alpha, rounded */

/* A ball's face contact comes out of the tests within BC_SWEEP_ALPHA_ERROR
 * (a few dozen ulps: the stored normal's error); this makes it the double
 * nearest the exact alpha = (sigma S - r sqrt L2) / |ND| (S = N . (p0 - a),
 * ND = N . d, L2 = N . N, sigma = 1 when ND < 0, else -1), as the man page
 * promises for a rational alpha (the plane of an axis-aligned wall, of any
 * triangle whose |N| is rational) and gives every other one too. As
 * pointAlpha: N, S, S1 = N . (p1 - a) and L2 in double-double from exact
 * differences, each within BC_DOUBLE2_ERROR u^2 of its permanent; sqrt L2
 * and the quotient in double-double; when the result lies within its
 * bound of half an ulp from a double, or the terms leave the range where
 * the bound holds, or sigma S and r sqrt L2 cancel (a ball starting within
 * a hair of the pushed-out plane), the exact path steps to the right
 * double (bcExactFaceAlphaRounded). About 1,400 instructions a call. */
static double roundedFaceAlpha(const bcSweepQuery* q, const bcSweepTriangleRef* t, int approach, double alpha)
{
	const double uu = BC_U * BC_U;
	const double r = q->radius;
	bcDouble2Plane plane;
	double2Plane(q, t, &plane, false);
	bcDouble2 s0 = plane.o0, s1 = plane.o1, l2 = double2Dot(plane.n, plane.n, false);
	const double* nSize = plane.nSize;
	double size0 = plane.size0, size1 = plane.size1;
	double sizeL = nSize[0] * nSize[0] + nSize[1] * nSize[1] + nSize[2] * nSize[2];
	bool inRange = size0 > 1e-200 && size0 < 1e200 && size1 > 1e-200 && size1 < 1e200 && sizeL > 1e-200 &&
				   sizeL < 1e200 && r > 1e-100 && r < 1e100;
	if (!inRange || !(l2.hi > 0.0)) {
		return bcExactFaceAlphaRounded(q, t, alpha);
	}
	double errS0 = BC_DOUBLE2_ERROR * uu * size0, errS1 = BC_DOUBLE2_ERROR * uu * size1;
	/* Each N_i within E u^2 nSize_i, so N . N within 3 E u^2 sum nSize_i^2,
	 * with its own rounding. */
	double errL2 = 4.0 * BC_DOUBLE2_ERROR * uu * sizeL;
	bcDouble2 nd = double2Add(s1, double2Negate(s0));
	double errNd = errS0 + errS1 + 4.0 * uu * fabs(nd.hi);
	/* sqrt L2: a Newton step from the double root. */
	double root = sqrt(l2.hi);
	double p, pe;
	twoProduct(root, root, &p, &pe, false);
	double correction = ((l2.hi - p) - pe + l2.lo) / (2.0 * root);
	bcDouble2 rootL2;
	fastTwoSum(root, correction, &rootL2.hi, &rootL2.lo);
	double errRoot = errL2 / (2.0 * root) + 8.0 * uu * root;
	/* Q = sigma S - r sqrt L2. */
	const double sigma = approach < 0 ? 1.0 : -1.0;
	bcDouble2 rs;
	twoProduct(r, rootL2.hi, &rs.hi, &rs.lo, false);
	rs.lo += r * rootL2.lo;
	bcDouble2 signedS = sigma > 0.0 ? s0 : double2Negate(s0);
	bcDouble2 qq = double2Add(signedS, double2Negate(rs));
	double errQ = errS0 + r * errRoot + 8.0 * uu * (fabs(s0.hi) + fabs(rs.hi));
	double den = fabs(nd.hi);
	if (!(errQ < 0.25 * fabs(qq.hi)) || !(errNd < 0.25 * den)) {
		return bcExactFaceAlphaRounded(q, t, alpha);
	}
	double value, error;
	double2Quotient(qq, nd.hi < 0.0 ? double2Negate(nd) : nd, &value, &error, false);
	/* First order in the relative errors (each under a quarter), doubled. */
	double bound = 2.0 * fabs(value) * (errQ / fabs(qq.hi) + errNd / den + 16.0 * uu);
	if (!roundsSurely(value, error, bound) || !(value <= 1.0)) {
		return bcExactFaceAlphaRounded(q, t, alpha);
	}
	return value;
}

/* How far a ball's face alpha may move when it is rounded: the tests'
 * alpha is within BC_SWEEP_ALPHA_ERROR of the exact one, the rounded one
 * within half an ulp; twice that bounds both. */
#define BC_FACE_ROUNDING_ERROR (2.0 * BC_SWEEP_ALPHA_ERROR)

/* a - b, when it is exact in double precision. */
static inline bool exactDifference(double a, double b, double* out)
{
	double hi, lo;
	twoSum(a, -b, &hi, &lo);
	*out = hi;
	return lo == 0.0 && isfinite(hi);
}

/* a b, when it is exact in double precision. */
static inline bool exactProduct(double a, double b, double* out)
{
	double lo;
	twoProduct(a, b, out, &lo, false);
	return lo == 0.0 && isfinite(*out);
}

/* Whether the triangle's N = (b - a) x (c - a), its squared length and
 * that length |N| are all exact in double precision: |N| is then rational,
 * and so are its balls' face alphas (sigma S - r |N|) / |N . d|. Every
 * triangle with small integer or dyadic coordinates whose |N| is rational
 * (axis-aligned walls, Pythagorean normals) passes; a triangle of a scan
 * (53-bit coordinates) fails at its first product, for a few dozen
 * operations. */
static bool exactNormalLength(const bcSweepTriangleRef* t)
{
	double u[3], v[3], n[3], p[6];
	if (!exactDifference(t->b.y, t->a.y, &u[1]) || !exactDifference(t->c.z, t->a.z, &v[2]) ||
		!exactProduct(u[1], v[2], &p[0])) {
		return false;
	}
	if (!exactDifference(t->b.x, t->a.x, &u[0]) || !exactDifference(t->b.z, t->a.z, &u[2]) ||
		!exactDifference(t->c.x, t->a.x, &v[0]) || !exactDifference(t->c.y, t->a.y, &v[1])) {
		return false;
	}
	if (!exactProduct(u[2], v[1], &p[1]) || !exactProduct(u[2], v[0], &p[2]) || !exactProduct(u[0], v[2], &p[3]) ||
		!exactProduct(u[0], v[1], &p[4]) || !exactProduct(u[1], v[0], &p[5])) {
		return false;
	}
	for (int i = 0; i < 3; ++i) {
		if (!exactDifference(p[2 * i], p[2 * i + 1], &n[i])) {
			return false;
		}
	}
	double xx, yy, zz, xy, l2;
	if (!exactProduct(n[0], n[0], &xx) || !exactProduct(n[1], n[1], &yy) || !exactProduct(n[2], n[2], &zz) ||
		!exactDifference(xx, -yy, &xy) || !exactDifference(xy, -zz, &l2) || !(l2 > 0.0)) {
		return false;
	}
	double root = sqrt(l2), square;
	return exactProduct(root, root, &square) && square == l2;
}

/* A ball's face slot made correctly rounded (roundedFaceAlpha) when the
 * triangle's |N| is exact (exactNormalLength: the face alpha is then
 * rational), and the result's best with it; with deferAlpha only marked
 * (alphaError) for bcSweepRefine, which the mesh's cast calls on the
 * contacts left in the tie window at the end: only the answers pay for the
 * rounding. Other face alphas stay as the tests give them, within
 * BC_SWEEP_ALPHA_ERROR (a few ulps, usually): rounding them too would cost
 * about 1,400 instructions per answer, 4 % of a short sweep on the bunny. */
static void roundFaceSlot(const bcSweepQuery* q, const bcSweepTriangleRef* t, bcSweepResult* result, bool defer)
{
	double alpha = result->alpha[bc_slotFace];
	if (result->overlap || !(alpha > 0.0) || !exactNormalLength(t)) {
		return;
	}
	if (defer) {
		result->alphaError = BC_FACE_ROUNDING_ERROR;
		return;
	}
	result->alpha[bc_slotFace] = roundedFaceAlpha(q, t, result->approach, alpha);
	double best = bcInfinity;
	for (int i = 0; i < bc_slotCount; ++i) {
		best = result->alpha[i] < best ? result->alpha[i] : best;
	}
	result->best = best;
}

bool bcSweepTriangle(const bcSweepQuery* q, const bcSweepTriangleRef* t, double maxAlpha, bcSweepResult* result)
{
	/* A ball's cheapest rejection first: nothing else is computed for a
	 * triangle whose plane the swept ball stays clear of. */
	bcPlaneTerms plane = { { 0.0, 0.0, 0.0 }, 0.0, 0.0, 0.0 };
	bool ball = !q->forceExact && q->radius != 0.0;
	if (ball && planeRejects(q, t, maxAlpha, &plane)) {
		return false;
	}
	for (int i = 0; i < bc_slotCount; ++i) {
		result->alpha[i] = bcInfinity;
	}
	result->overlap = false;
	result->best = bcInfinity;
	result->alphaError = 0.0;
	result->approach = 0;
	result->side = 0;
	/* The pieces are tested on all of [0, 1] and only then held against
	 * maxAlpha, so which path decides a triangle, and so the bits of its
	 * alphas, never depend on the order triangles are visited in (the
	 * hierarchy's walk and brute force give the same answers). Only the
	 * plane test and the bounding-ball test, which reject a triangle
	 * outright, look at maxAlpha. */
	bcVerdict verdict;
	if (q->forceExact) {
		bool inRange = withinRange(t->a) && withinRange(t->b) && withinRange(t->c);
		verdict = inRange ? bc_verdictExact : bc_verdictNone;
	} else if (q->radius == 0.0) {
		verdict = sweepPoint(q, t, result);
	} else {
		verdict = sweepBall(q, t, maxAlpha, &plane, result);
	}
	if (verdict == bc_verdictExact) {
		bool found = bcSweepTriangleExact(q, t, 1.0, result);
		if (found && q->radius != 0.0 && result->alpha[bc_slotFace] <= 1.0 &&
			result->alpha[bc_slotFace] - BC_FACE_ROUNDING_ERROR <= maxAlpha) {
			roundFaceSlot(q, t, result, q->deferAlpha);
		}
		if (found && result->alphaError > 0.0) {
			return result->best - result->alphaError <= maxAlpha;
		}
		return found && result->best <= maxAlpha;
	}
	if (verdict == bc_verdictNone) {
		return false;
	}
	double best = bcInfinity;
	for (int i = 0; i < bc_slotCount; ++i) {
		best = result->alpha[i] < best ? result->alpha[i] : best;
	}
	result->best = best;
	/* A face past maxAlpha (by more than rounding moves it) can never be
	 * answered or tied: the window only shrinks. */
	if (q->radius != 0.0 && result->alpha[bc_slotFace] <= 1.0 &&
		result->alpha[bc_slotFace] - BC_FACE_ROUNDING_ERROR <= maxAlpha) {
		roundFaceSlot(q, t, result, q->deferAlpha);
	}
	return result->best - result->alphaError <= maxAlpha;
}

void bcSweepRefine(const bcSweepQuery* q, const bcSweepTriangleRef* t, bcSweepResult* result)
{
	if (result->alphaError == 0.0) {
		return;
	}
	if (q->radius != 0.0) {
		/* A ball: only its face alpha was left to round. */
		result->alphaError = 0.0;
		if (result->alpha[bc_slotFace] <= 1.0) {
			roundFaceSlot(q, t, result, false);
		}
		return;
	}
	/* A point's contacts on one triangle are all at its crossing. */
	double alpha = pointAlpha(q, t);
	for (int i = 0; i < bc_slotCount; ++i) {
		result->alpha[i] = result->alpha[i] <= 1.0 ? alpha : result->alpha[i];
	}
	result->best = alpha;
	result->alphaError = 0.0;
}

bcFeature bcSlotFeature(int slot, int* vertexCount, int vertices[3])
{
	if (slot == bc_slotFace) {
		*vertexCount = 3;
		vertices[0] = 0;
		vertices[1] = 1;
		vertices[2] = 2;
		return bc_featureFace;
	}
	if (slot < bc_slotVertex0) {
		int k = slot - bc_slotEdge0;
		*vertexCount = 2;
		vertices[0] = k;
		vertices[1] = (k + 1) % 3;
		vertices[2] = -1;
		return bc_featureEdge;
	}
	*vertexCount = 1;
	vertices[0] = slot - bc_slotVertex0;
	vertices[1] = -1;
	vertices[2] = -1;
	return bc_featureVertex;
}

/* A contact normal from a difference of positions is trusted when that
 * difference exceeds its rounding (u times the sizes of the terms it is
 * made of) by this factor, 2^36: the normal is then within about 2^-34
 * (6e-11) of a radian of the exact one. Below it -- a radius under about
 * 1e-5 of the coordinates -- the normal is computed exactly instead. */
#define BC_NORMAL_TRUST 68719476736.0

void bcSweepContact(const bcSweepQuery* q, const bcSweepTriangleRef* t, const bcSweepResult* result, int slot,
					double alpha, bcCastOutput* output)
{
	const bcVec3 n = t->n;
	bcVec3 center = alpha == 0.0 ? q->p0 : (alpha == 1.0 ? q->p1 : bcMulAdd(q->p0, alpha, q->d));
	/* The front normal turned against the motion: n if N . d <= 0, else -n. */
	int approach = result != NULL ? result->approach : bcSign(bcDot(n, q->d));
	bcVec3 against = approach > 0 ? bcNeg(n) : n;
	bcVec3 point;
	bcVec3 normal;
	const bcVec3 vertex[3] = { t->a, t->b, t->c };
	if (slot == bc_slotFace) {
		double s = bcDot(n, bcSub(center, t->a));
		point = bcMulAdd(center, -s, n);
		if (q->radius == 0.0) {
			normal = against;
		} else if (alpha > 0.0) {
			/* Crossing the plane pushed out towards the ball: that side. */
			normal = against;
		} else {
			int side = result != NULL ? result->side : bcSign(s);
			normal = side > 0 ? n : (side < 0 ? bcNeg(n) : against);
		}
	} else {
		/* From the feature to the centre: the perpendicular from the edge's
		 * line (or from the end the centre is beyond), or from the vertex. */
		bcVec3 toCenter;
		double terms; /* the sizes toCenter is computed from */
		if (slot < bc_slotVertex0) {
			int k = slot - bc_slotEdge0;
			bcVec3 p = vertex[k];
			bcVec3 e = bcSub(vertex[(k + 1) % 3], p);
			double ee = bcDot(e, e);
			bcVec3 m = bcMulAdd(bcSub(q->p0, p), alpha, q->d);
			double tt = bcDot(m, e) / ee;
			point = bcMulAdd(p, tt < 0.0 ? 0.0 : (tt > 1.0 ? 1.0 : tt), e);
			toCenter = tt < 0.0 ? m : (tt > 1.0 ? bcSub(m, e) : bcMulAdd(m, -tt, e));
			terms = norm1(bcSub(q->p0, p)) + alpha * q->dNorm1 + (tt < 0.0 ? 0.0 : (tt > 1.0 ? 1.0 : tt)) * norm1(e);
		} else {
			point = vertex[slot - bc_slotVertex0];
			toCenter = bcMulAdd(bcSub(q->p0, point), alpha, q->d);
			terms = norm1(bcSub(q->p0, point)) + alpha * q->dNorm1;
		}
		double rounding = 4.0 * BC_U * terms;
		if (q->radius == 0.0) {
			normal = against;
		} else if (bcLength(toCenter) > BC_NORMAL_TRUST * rounding) {
			normal = bcNormalize(toCenter);
		} else {
			/* The centre within rounding of the feature (a tiny radius):
			 * the difference has no digits; the exact normal has. */
			normal = bcExactContactNormal(q, t, slot, alpha == 0.0);
			if (normal.x == 0.0 && normal.y == 0.0 && normal.z == 0.0) {
				normal = against;
			}
		}
	}
	output->alpha = alpha;
	output->center = center;
	output->point = point;
	output->normal = bcPositiveZeros(normal);
	output->triangleNormal = n;
}

/* The first slot, in tie order, whose alpha is within threshold. */
static int chooseSlot(const bcSweepResult* result, double threshold)
{
	for (int i = 0; i < bc_slotCount; ++i) {
		if (result->alpha[i] <= threshold) {
			return i;
		}
	}
	return -1;
}

bool bcIsValidCastInput(bcCastInput input)
{
	/* The comparisons are false for NaN, so NaN is refused too. */
	return withinRange(input.p0) && withinRange(input.p1) && input.radius >= 0.0 &&
		   input.radius <= BC_MAX_COORDINATE;
}

bcCastOutput bcCastTriangle(bcVec3 a, bcVec3 b, bcVec3 c, bcCastInput input, const bcCastOptions* options)
{
	if (!bcIsValidCastInput(input)) {
		return (bcCastOutput)BC_NO_CONTACT(bc_castInvalid);
	}
	bcSweepTriangleRef t = { a, b, c, bcTriangleNormal(a, b, c), bcTriangleNormalError(a, b, c) };
	bcCastOutput out = BC_NO_CONTACT(bc_castMiss);
	if (t.n.x == 0.0 && t.n.y == 0.0 && t.n.z == 0.0) {
		return out;
	}
	bcSweepQuery q = bcMakeSweepQuery(input, options);
	bcSweepResult result;
	if (!bcSweepTriangle(&q, &t, 1.0, &result)) {
		return out;
	}
	double limit = result.overlap ? 0.0 : result.best + BC_ALPHA_TIE_TOLERANCE;
	int slot = chooseSlot(&result, limit);
	out.state = result.overlap ? bc_castInitialOverlap : bc_castHit;
	out.triangle = 0;
	out.face = 0;
	out.feature = bcSlotFeature(slot, &out.vertexCount, out.vertices);
	out.tieCount = 0;
	for (int i = 0; i < bc_slotCount; ++i) {
		out.tieCount += result.alpha[i] <= limit;
	}
	bcSweepContact(&q, &t, &result, slot, result.alpha[slot], &out);
	bcSweepTakeEarliest(&q, result.overlap ? 0.0 : result.best, &out);
	return out;
}

void bcSweepTakeEarliest(const bcSweepQuery* q, double earliest, bcCastOutput* output)
{
	earliest = earliest == 0.0 ? 0.0 : earliest; /* never -0 */
	if (earliest != output->alpha) {
		output->alpha = earliest;
		output->center = earliest == 0.0 ? q->p0 : bcMulAdd(q->p0, earliest, q->d);
	}
}
