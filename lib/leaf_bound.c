/* leaf_bound.c - a leaf's triangles in single precision, and for each a
 * conservative lower bound on the alpha of its first contact.
 *
 * The swept-ball walk (bvh.c) looks at a leaf's triangles here first: in
 * float, up to eight at a time, it bounds from below when the ball can
 * first touch each one, and drops those that surely stay clear until
 * maxAlpha. Only what survives goes to the exact test (sweep.c), and in
 * the order of these bounds, so the test runs on few triangles: the float
 * part decides what may be skipped, never what is answered.
 *
 * Every bound is a separating plane. For any vector u with |u| <= 1, the
 * triangle lies in the half-space u . x <= h, h the largest u . v over
 * its vertices; a ball of radius r touching it has its centre c with
 * u . c - h <= r. The centre moves by d per unit of alpha, so from
 * u . p0 - h = s it can touch only while s - alpha u . d <= r: from
 * (s - r) / (-u . d) on when it closes in (never when it starts beyond and
 * moves away), up to (r - s) / (u . d) when it moves away. Whatever u is,
 * that is an interval every contact lies in; its start is the contact's
 * alpha itself when u is the contact's normal. The triangle's interval is
 * the intersection of two:
 *  - u = +-n, the stored normal: the slab of half width r |n| + slab
 *    around the plane, entered from the side the centre starts on and
 *    left on either side;
 *  - one step of conservative advancement: the centre at the start of the
 *    interval so far, the triangle's point nearest it (the nearest of the
 *    three edges' nearest points, in float), u the unit vector from there
 *    to the centre. Where the ball is headed for a face the plane is
 *    already the contact's; where it will touch an edge or a vertex, u is
 *    close to the contact's normal and the bound follows; where it passes
 *    by, the two intervals miss each other.
 * The bound is the interval's start; a triangle whose interval is empty,
 * or starts past maxAlpha, is left out. A triangle facing away from the
 * motion (surely n . d > 0 beyond the normal's error) never counts for a
 * one-sided cast: left out. (A second step of advancement was measured:
 * it saves about 0.1 exact tests per hit for 40 % more float work.)
 *
 * Rounding. Every float number the test reads is a number in its own
 * right: the stored bounds hold in exact arithmetic whatever the floats
 * are, and the query's numbers are within their own rounding of the
 * exact ones. Positions are taken in the leaf's frame at the walk's entry
 * alpha (the centre there less the leaf's origin, q), so that their size
 * is the leaf's, not the path's or the coordinates'; alphas are counted
 * from that entry. The test's float arithmetic (a few dozen operations,
 * each within 2^-24 of its result) is then covered by widening: r grows
 * by eps = 2^-18 S, S the sum of the sizes the positions are made of
 * (|q|_1 + extent + r), far more than the rounding of a few dozen float
 * operations on numbers of size S or the 2^-23 extent of the float
 * vertices, plus the rounding of the frame itself (4 u (|p0|_1 + entry
 * |d|_1)); the rates grow or shrink by epsNd = 2^-18 |d|_1. A computed u is
 * within 2^-21 of unit length, which r (1 + 2^-20) covers. Each quotient
 * is a bound of a bound, and the result is moved once more, a start by a
 * factor 1 - 2^-18 and an end by 1 + 2^-18; the caller's key, entry plus
 * the bound, is lowered by 2^-39 (BC_LEAF_KEY_STEP): below the double
 * test's alphas, which are within 2^-40 (BC_SWEEP_ALPHA_ERROR) of the
 * exact ones. Sizes
 * outside [1e-12, 1e15] (BC_LEAF_MIN_SCALE, BC_LEAF_MAX_COORDINATE), where
 * squares could leave the floats' range, give no bound: every triangle of
 * the leaf is kept at 0. So the bound never exceeds a contact's alpha; it
 * is lower than it needs to be by about 2^-18 of the sizes.
 */
#include "leaf_bound.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "predicates.h"
#include "vec3.h"

#if defined(__GNUC__)
#define BC_LEAF_INLINE __attribute__((always_inline))
#else
#define BC_LEAF_INLINE
#endif

#if BC_LEAF_X86
#include <immintrin.h>
#define BC_TARGET_AVX2 __attribute__((target("avx2")))
#endif

/* The widening of the float test, relative to the sizes S it works on
 * (see the top of the file): 2^-18, 64 times the float's unit roundoff. */
#define BC_LEAF_SLACK 0x1p-18

/* Relative room for the rounding of the double numbers that set up a
 * leaf or a query (a few units of 2^-53 each), and of their conversion to
 * float where a bound is rounded outward anyway: 2^-20. */
#define BC_LEAF_ROOM 0x1p-20

/* The bound's last lowering: a factor and an absolute step, so that it is
 * below the double test's alphas, which may be 2^-40 below the exact ones
 * (BC_SWEEP_ALPHA_ERROR). */
#define BC_LEAF_LOWER_FACTOR (1.0f - 0x1p-18f)

/* And an exit alpha raised by as much, so that it stays an upper bound. */
#define BC_LEAF_RAISE_FACTOR (1.0f + 0x1p-18f)

/* A float normal's own rounding, as an error in its direction: each
 * component within 2^-24 of the double's, so the vector within 2^-24 *
 * sqrt(3) < 2^-23 (2-norm). */
#define BC_LEAF_NORMAL_ROUNDING 0x1p-23

/* The double numbers of a leaf's set-up are within a few units of 2^-53 of
 * their sizes: 1e-12 of the leaf's extent covers that a thousand times. */
#define BC_LEAF_SETUP_SLACK 1e-12

/* A direction from the triangle to the centre is only taken from a
 * squared distance of at least this (float): its normalisation is then
 * within a few units of 2^-24. */
#define BC_LEAF_MIN_DISTANCE2 1e-30f

/* Steps of conservative advancement after the plane's bound. */
#define BC_LEAF_STEPS 1

/* A float at least x, for x >= 0 (or +infinity; x is no NaN): x grown
 * by 2^-22 before the conversion, which rounds to nearest, so by less
 * than 2^-23 of it (for x below the least normal float, the conversion's
 * absolute error: 2^-150, is made good by the least subnormal). */
static inline float floatUp(double x)
{
	double grown = x * (1.0 + 0x1p-22) + 0x1p-149;
	return grown <= FLT_MAX ? (float)grown : INFINITY;
}

void bcLeafBlock_Begin(bcLeafBlock* block, int32_t first, int32_t count, const float lower[3], const float upper[3])
{
	memset(block, 0, sizeof *block);
	block->first = first;
	block->count = count;
	bool inRange = true;
	double extent = 0.0;
	for (int k = 0; k < 3; ++k) {
		double lo = (double)lower[k], hi = (double)upper[k];
		inRange = inRange && fabs(lo) <= BC_LEAF_MAX_COORDINATE && fabs(hi) <= BC_LEAF_MAX_COORDINATE;
		block->origin[k] = inRange ? (float)(0.5 * (lo + hi)) : 0.0f;
		double o = (double)block->origin[k];
		extent += fmax(fabs(lo - o), fabs(hi - o));
	}
	block->extent = inRange ? floatUp(extent * (1.0 + BC_LEAF_ROOM)) : INFINITY;
	for (int i = 0; i < BC_LEAF_LANES; ++i) {
		block->offset[i] = INFINITY; /* unused: its bound is +infinity */
	}
}

void bcLeafBlock_SetLane(bcLeafBlock* block, int lane, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, double normalError)
{
	if (!isfinite(block->extent)) {
		return; /* no bounds in this leaf: every lane is kept at 0 */
	}
	const double origin[3] = { block->origin[0], block->origin[1], block->origin[2] };
	const bcVec3 vertex[3] = { a, b, c };
	double rel[3][3]; /* the vertices less the origin */
	for (int v = 0; v < 3; ++v) {
		for (int k = 0; k < 3; ++k) {
			rel[v][k] = bcComponent(vertex[v], k) - origin[k];
			block->vertex[v][k][lane] = (float)rel[v][k];
		}
	}
	float normal[3];
	for (int k = 0; k < 3; ++k) {
		normal[k] = (float)bcComponent(n, k);
		block->normal[k][lane] = normal[k];
	}
	double slack = BC_LEAF_SETUP_SLACK * (double)block->extent;
	/* The slab around the plane of the float normal through a: every
	 * vertex (so every point) within slab of it. */
	double offset = (double)normal[0] * rel[0][0] + (double)normal[1] * rel[0][1] + (double)normal[2] * rel[0][2];
	block->offset[lane] = (float)offset;
	double slab = 0.0;
	for (int v = 0; v < 3; ++v) {
		double s = (double)normal[0] * rel[v][0] + (double)normal[1] * rel[v][1] + (double)normal[2] * rel[v][2] -
				   (double)block->offset[lane];
		slab = fmax(slab, fabs(s));
	}
	block->slab = fmaxf(block->slab, floatUp((slab + slack) * (1.0 + BC_LEAF_ROOM)));
	block->normalError = fmaxf(block->normalError, floatUp(normalError + BC_LEAF_NORMAL_ROUNDING));
}

bcLeafQuery bcLeafQuery_Make(bcVec3 p0, bcVec3 d, double radius, bool twoSided)
{
	bcLeafQuery q;
	q.p0 = p0;
	q.direction = d;
	q.radius = radius;
	q.dNorm1 = fabs(d.x) + fabs(d.y) + fabs(d.z);
	q.p0Norm1 = fabs(p0.x) + fabs(p0.y) + fabs(p0.z);
	for (int k = 0; k < 3; ++k) {
		q.d[k] = (float)bcComponent(d, k);
	}
	q.epsNd = floatUp(BC_LEAF_SLACK * q.dNorm1);
	q.twoSided = twoSided;
	return q;
}

/* The numbers of one leaf for one query, the same for the three ways. */
typedef struct bcLeafFrame {
	float q[3];     /* p0 less the origin */
	float half;     /* the slab's half width, r |n| + slab + eps */
	float reach;    /* r |u| + eps */
	float cull;     /* n . d above this: surely facing away (+inf for two-sided casts) */
	float limit;    /* maxAlpha rounded up */
	float side;     /* r = 0: a line-edge triple product beyond this has its exact sign */
	bool bounded;   /* false: no bounds in this leaf */
} bcLeafFrame;

static inline BC_LEAF_INLINE bcLeafFrame leafFrame(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha)
{
	bcLeafFrame f;
	double q[3], size = 0.0;
	for (int k = 0; k < 3; ++k) {
		/* The centre at entry, within 4 u (|p0|_1 + entry |d|_1) of the
		 * exact point (frame below), less the origin. */
		q[k] = (bcComponent(query->p0, k) + entry * bcComponent(query->direction, k)) - (double)block->origin[k];
		size += fabs(q[k]);
		f.q[k] = (float)q[k];
	}
	size += (double)block->extent + query->radius;
	f.bounded = size >= BC_LEAF_MIN_SCALE && size <= BC_LEAF_MAX_COORDINATE;
	double frame = 4.0 * BC_UNIT_ROUNDOFF * (query->p0Norm1 + entry * query->dNorm1);
	double eps = BC_LEAF_SLACK * size + frame;
	double r = query->radius * (1.0 + BC_LEAF_ROOM);
	f.half = floatUp(r + (double)block->slab + eps);
	f.reach = floatUp(r + eps);
	f.cull = query->twoSided ? INFINITY
							 : floatUp(((double)block->normalError + BC_LEAF_ROOM) * query->dNorm1 + (double)query->epsNd);
	f.limit = floatUp(maxAlpha - entry + BC_LEAF_KEY_STEP);
	/* A point's path (r = 0): the triple products d . ((v_k - q) x (v_k+1 -
	 * q)) in float, of vectors within A = |q|_1 + extent + delta (1-norm) of
	 * size, where delta = eps + 2^-22 A bounds how far the float line and
	 * vertices are from the exact ones near the leaf (d's own rounding moves
	 * the line by 2^-24 of the distance along it, at most A there): the
	 * exact product is within |d|_1 (2 delta A + delta^2) of the float
	 * one's, plus d's rounding (2^-24 |d|_1 A^2) and the float arithmetic's
	 * (8 units of 2^-24 of |d|_1 A^2). */
	double a = size - query->radius, delta = eps + 0x1p-22 * a;
	a += delta;
	f.side = query->radius != 0.0 ? 0.0f : floatUp(query->dNorm1 * ((0x1p-22 + 0x1p-20) * a * a + 2.0 * delta * a + delta * delta) * (1.0 + BC_LEAF_ROOM));
	return f;
}

/* No bounds: every triangle kept, at 0. */
static int keepAll(const bcLeafBlock* block, float bounds[BC_LEAF_LANES])
{
	for (int i = 0; i < BC_LEAF_LANES; ++i) {
		bounds[i] = 0.0f;
	}
	return (1 << block->count) - 1;
}

/* The scalar way, lane by lane. Each operation is written as the SIMD
 * ways do it (a > b ? a : b for max, a < b ? a : b for min, a dot product
 * summed from the left), so all three give the same bits. */
int bcLeafBounds_Scalar(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
						float bounds[BC_LEAF_LANES])
{
	bcLeafFrame f = leafFrame(block, query, entry, maxAlpha);
	if (!f.bounded) {
		return keepAll(block, bounds);
	}
	const float* d = query->d;
	const float eps = query->epsNd;
	int mask = 0;
	for (int i = 0; i < BC_LEAF_LANES; ++i) {
		/* The plane: within half of it from alpha lo to hi. */
		float nx = block->normal[0][i], ny = block->normal[1][i], nz = block->normal[2][i];
		float s0 = ((nx * f.q[0] + ny * f.q[1]) + nz * f.q[2]) - block->offset[i];
		float nd = (nx * d[0] + ny * d[1]) + nz * d[2];
		float distance = fabsf(s0);
		float gap = distance - f.half;
		float toward = s0 > 0.0f ? -nd : nd;
		float fast = toward + eps, slow = toward - eps, leave = -toward - eps;
		float lo = gap / fast;
		lo = fast > 0.0f ? lo : INFINITY;
		lo = gap > 0.0f ? lo : 0.0f;
		float hi = (distance + f.half) / slow;
		hi = slow > 0.0f ? hi : INFINITY;
		float back = -gap / leave;
		back = (gap > 0.0f || !(leave > 0.0f)) ? INFINITY : back;
		hi = back < hi ? back : hi;
		bool away = nd > f.cull;
		float v[3][3];
		for (int k = 0; k < 3; ++k) {
			for (int j = 0; j < 3; ++j) {
				v[k][j] = block->vertex[k][j][i];
			}
		}
		if (query->radius == 0.0) {
			/* A point: the line passes surely outside when two of the
			 * triple products have surely opposite signs. */
			float w[3][3], product[3];
			for (int k = 0; k < 3; ++k) {
				for (int j = 0; j < 3; ++j) {
					w[k][j] = v[k][j] - f.q[j];
				}
			}
			for (int k = 0; k < 3; ++k) {
				const float* x = w[k];
				const float* y = w[(k + 1) % 3];
				float cx = x[1] * y[2] - x[2] * y[1], cy = x[2] * y[0] - x[0] * y[2], cz = x[0] * y[1] - x[1] * y[0];
				product[k] = (cx * d[0] + cy * d[1]) + cz * d[2];
			}
			bool positive = product[0] > f.side || product[1] > f.side || product[2] > f.side;
			bool negative = product[0] < -f.side || product[1] < -f.side || product[2] < -f.side;
			hi = positive && negative ? -INFINITY : hi;
		}
		for (int step = 0; step < BC_LEAF_STEPS && query->radius != 0.0; ++step) {
			/* The triangle's point nearest the centre at lo (of its edges'
			 * nearest points), and u towards the centre. */
			float at = lo < f.limit ? lo : f.limit;
			float c[3] = { f.q[0] + at * d[0], f.q[1] + at * d[1], f.q[2] + at * d[2] };
			float y[3] = { 0.0f, 0.0f, 0.0f }, best = 0.0f;
			for (int k = 0; k < 3; ++k) {
				const float* next = v[(k + 1) % 3];
				float e[3] = { next[0] - v[k][0], next[1] - v[k][1], next[2] - v[k][2] };
				float w[3] = { c[0] - v[k][0], c[1] - v[k][1], c[2] - v[k][2] };
				float t = ((w[0] * e[0] + w[1] * e[1]) + w[2] * e[2]) / ((e[0] * e[0] + e[1] * e[1]) + e[2] * e[2]);
				t = t > 0.0f ? t : 0.0f;
				t = t < 1.0f ? t : 1.0f;
				float z[3] = { w[0] - t * e[0], w[1] - t * e[1], w[2] - t * e[2] };
				float z2 = (z[0] * z[0] + z[1] * z[1]) + z[2] * z[2];
				bool nearer = k == 0 || z2 < best;
				for (int j = 0; j < 3; ++j) {
					y[j] = nearer ? z[j] : y[j];
				}
				best = nearer ? z2 : best;
			}
			float scale = 1.0f / sqrtf(best);
			float u[3] = { y[0] * scale, y[1] * scale, y[2] * scale };
			float h = (u[0] * v[0][0] + u[1] * v[0][1]) + u[2] * v[0][2];
			for (int k = 1; k < 3; ++k) {
				float hk = (u[0] * v[k][0] + u[1] * v[k][1]) + u[2] * v[k][2];
				h = hk > h ? hk : h;
			}
			/* Within reach of the half-space u . x <= h from alpha in to out. */
			float su = ((u[0] * f.q[0] + u[1] * f.q[1]) + u[2] * f.q[2]) - h;
			float closing = -((u[0] * d[0] + u[1] * d[1]) + u[2] * d[2]);
			float inward = closing + eps, outward = -closing - eps;
			float over = su - f.reach;
			float in = over / inward;
			in = inward > 0.0f ? in : INFINITY;
			in = over > 0.0f ? in : 0.0f;
			float out = -over / outward;
			out = outward > 0.0f ? out : INFINITY;
			bool valid = best >= BC_LEAF_MIN_DISTANCE2;
			in = valid ? in : 0.0f;
			out = valid ? out : INFINITY;
			lo = in > lo ? in : lo;
			hi = out < hi ? out : hi;
		}
		lo = lo * BC_LEAF_LOWER_FACTOR;
		hi = hi * BC_LEAF_RAISE_FACTOR;
		bounds[i] = lo;
		mask |= (lo <= f.limit && lo <= hi && !away) ? 1 << i : 0;
	}
	return mask;
}

#if BC_LEAF_X86
/* SSE2 has no blend: select(m, a, b) is m ? a : b, lane by lane. */
static inline __m128 select128(__m128 m, __m128 a, __m128 b)
{
	return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}

/* Four lanes from lane o: the same operations as the scalar loop. */
static inline int boundsQuadSse2(const bcLeafBlock* block, const bcLeafQuery* query, const bcLeafFrame* f, int o,
								 float* bounds)
{
	const __m128 sign = _mm_set1_ps(-0.0f);
	const __m128 zero = _mm_setzero_ps();
	const __m128 one = _mm_set1_ps(1.0f);
	const __m128 infinity = _mm_set1_ps(INFINITY);
	__m128 q[3] = { _mm_set1_ps(f->q[0]), _mm_set1_ps(f->q[1]), _mm_set1_ps(f->q[2]) };
	__m128 d[3] = { _mm_set1_ps(query->d[0]), _mm_set1_ps(query->d[1]), _mm_set1_ps(query->d[2]) };
	__m128 eps = _mm_set1_ps(query->epsNd);
	__m128 limit = _mm_set1_ps(f->limit);
	__m128 reach = _mm_set1_ps(f->reach);
	__m128 half = _mm_set1_ps(f->half);
	__m128 nx = _mm_load_ps(block->normal[0] + o), ny = _mm_load_ps(block->normal[1] + o);
	__m128 nz = _mm_load_ps(block->normal[2] + o);
	__m128 s0 = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, q[0]), _mm_mul_ps(ny, q[1])), _mm_mul_ps(nz, q[2])),
						   _mm_load_ps(block->offset + o));
	__m128 nd = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, d[0]), _mm_mul_ps(ny, d[1])), _mm_mul_ps(nz, d[2]));
	__m128 distance = _mm_andnot_ps(sign, s0);
	__m128 gap = _mm_sub_ps(distance, half);
	__m128 toward = select128(_mm_cmpgt_ps(s0, zero), _mm_xor_ps(nd, sign), nd);
	__m128 fast = _mm_add_ps(toward, eps), slow = _mm_sub_ps(toward, eps);
	__m128 leave = _mm_sub_ps(_mm_xor_ps(toward, sign), eps);
	__m128 lo = select128(_mm_cmpgt_ps(fast, zero), _mm_div_ps(gap, fast), infinity);
	lo = _mm_and_ps(_mm_cmpgt_ps(gap, zero), lo);
	__m128 hi = select128(_mm_cmpgt_ps(slow, zero), _mm_div_ps(_mm_add_ps(distance, half), slow), infinity);
	__m128 back = _mm_div_ps(_mm_xor_ps(gap, sign), leave);
	back = select128(_mm_or_ps(_mm_cmpgt_ps(gap, zero), _mm_cmpngt_ps(leave, zero)), infinity, back);
	hi = _mm_min_ps(back, hi);
	__m128 away = _mm_cmpgt_ps(nd, _mm_set1_ps(f->cull));
	__m128 v[3][3];
	for (int k = 0; k < 3; ++k) {
		for (int j = 0; j < 3; ++j) {
			v[k][j] = _mm_load_ps(block->vertex[k][j] + o);
		}
	}
	if (query->radius == 0.0) {
		__m128 w[3][3], product[3];
		for (int k = 0; k < 3; ++k) {
			for (int j = 0; j < 3; ++j) {
				w[k][j] = _mm_sub_ps(v[k][j], q[j]);
			}
		}
		for (int k = 0; k < 3; ++k) {
			const __m128* x = w[k];
			const __m128* y = w[(k + 1) % 3];
			__m128 cx = _mm_sub_ps(_mm_mul_ps(x[1], y[2]), _mm_mul_ps(x[2], y[1]));
			__m128 cy = _mm_sub_ps(_mm_mul_ps(x[2], y[0]), _mm_mul_ps(x[0], y[2]));
			__m128 cz = _mm_sub_ps(_mm_mul_ps(x[0], y[1]), _mm_mul_ps(x[1], y[0]));
			product[k] = _mm_add_ps(_mm_add_ps(_mm_mul_ps(cx, d[0]), _mm_mul_ps(cy, d[1])), _mm_mul_ps(cz, d[2]));
		}
		__m128 side = _mm_set1_ps(f->side), minus = _mm_set1_ps(-f->side);
		__m128 positive = _mm_or_ps(_mm_or_ps(_mm_cmpgt_ps(product[0], side), _mm_cmpgt_ps(product[1], side)),
									_mm_cmpgt_ps(product[2], side));
		__m128 negative = _mm_or_ps(_mm_or_ps(_mm_cmplt_ps(product[0], minus), _mm_cmplt_ps(product[1], minus)),
									_mm_cmplt_ps(product[2], minus));
		hi = select128(_mm_and_ps(positive, negative), _mm_set1_ps(-INFINITY), hi);
	}
	for (int step = 0; step < BC_LEAF_STEPS && query->radius != 0.0; ++step) {
		__m128 at = _mm_min_ps(lo, limit);
		__m128 c[3];
		for (int j = 0; j < 3; ++j) {
			c[j] = _mm_add_ps(q[j], _mm_mul_ps(at, d[j]));
		}
		__m128 y[3], best = zero;
		for (int k = 0; k < 3; ++k) {
			__m128 e[3], w[3], z[3];
			for (int j = 0; j < 3; ++j) {
				e[j] = _mm_sub_ps(v[(k + 1) % 3][j], v[k][j]);
				w[j] = _mm_sub_ps(c[j], v[k][j]);
			}
			__m128 ee = _mm_add_ps(_mm_add_ps(_mm_mul_ps(e[0], e[0]), _mm_mul_ps(e[1], e[1])), _mm_mul_ps(e[2], e[2]));
			__m128 t = _mm_div_ps(
				_mm_add_ps(_mm_add_ps(_mm_mul_ps(w[0], e[0]), _mm_mul_ps(w[1], e[1])), _mm_mul_ps(w[2], e[2])), ee);
			t = _mm_min_ps(_mm_max_ps(t, zero), one);
			for (int j = 0; j < 3; ++j) {
				z[j] = _mm_sub_ps(w[j], _mm_mul_ps(t, e[j]));
			}
			__m128 z2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(z[0], z[0]), _mm_mul_ps(z[1], z[1])), _mm_mul_ps(z[2], z[2]));
			if (k == 0) {
				for (int j = 0; j < 3; ++j) {
					y[j] = z[j];
				}
				best = z2;
			} else {
				__m128 nearer = _mm_cmplt_ps(z2, best);
				for (int j = 0; j < 3; ++j) {
					y[j] = select128(nearer, z[j], y[j]);
				}
				best = select128(nearer, z2, best);
			}
		}
		__m128 scale = _mm_div_ps(one, _mm_sqrt_ps(best));
		__m128 u[3] = { _mm_mul_ps(y[0], scale), _mm_mul_ps(y[1], scale), _mm_mul_ps(y[2], scale) };
		__m128 h = _mm_add_ps(_mm_add_ps(_mm_mul_ps(u[0], v[0][0]), _mm_mul_ps(u[1], v[0][1])),
							  _mm_mul_ps(u[2], v[0][2]));
		for (int k = 1; k < 3; ++k) {
			__m128 hk = _mm_add_ps(_mm_add_ps(_mm_mul_ps(u[0], v[k][0]), _mm_mul_ps(u[1], v[k][1])),
								   _mm_mul_ps(u[2], v[k][2]));
			h = _mm_max_ps(hk, h);
		}
		__m128 su = _mm_sub_ps(
			_mm_add_ps(_mm_add_ps(_mm_mul_ps(u[0], q[0]), _mm_mul_ps(u[1], q[1])), _mm_mul_ps(u[2], q[2])), h);
		__m128 closing = _mm_xor_ps(
			_mm_add_ps(_mm_add_ps(_mm_mul_ps(u[0], d[0]), _mm_mul_ps(u[1], d[1])), _mm_mul_ps(u[2], d[2])), sign);
		__m128 inward = _mm_add_ps(closing, eps);
		__m128 outward = _mm_sub_ps(_mm_xor_ps(closing, sign), eps);
		__m128 over = _mm_sub_ps(su, reach);
		__m128 in = select128(_mm_cmpgt_ps(inward, zero), _mm_div_ps(over, inward), infinity);
		in = _mm_and_ps(_mm_cmpgt_ps(over, zero), in);
		__m128 out = select128(_mm_cmpgt_ps(outward, zero), _mm_div_ps(_mm_xor_ps(over, sign), outward), infinity);
		__m128 valid = _mm_cmpge_ps(best, _mm_set1_ps(BC_LEAF_MIN_DISTANCE2));
		in = _mm_and_ps(valid, in);
		out = select128(valid, out, infinity);
		lo = _mm_max_ps(in, lo);
		hi = _mm_min_ps(out, hi);
	}
	lo = _mm_mul_ps(lo, _mm_set1_ps(BC_LEAF_LOWER_FACTOR));
	hi = _mm_mul_ps(hi, _mm_set1_ps(BC_LEAF_RAISE_FACTOR));
	_mm_storeu_ps(bounds + o, lo);
	__m128 keep = _mm_andnot_ps(away, _mm_and_ps(_mm_cmple_ps(lo, limit), _mm_cmple_ps(lo, hi)));
	return _mm_movemask_ps(keep) << o;
}

int bcLeafBounds_Sse2(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
					  float bounds[BC_LEAF_LANES])
{
	bcLeafFrame f = leafFrame(block, query, entry, maxAlpha);
	if (!f.bounded) {
		return keepAll(block, bounds);
	}
	int mask = boundsQuadSse2(block, query, &f, 0, bounds);
	if (block->count > 4) {
		mask |= boundsQuadSse2(block, query, &f, 4, bounds);
	} else {
		for (int i = 4; i < BC_LEAF_LANES; ++i) {
			bounds[i] = INFINITY; /* unused lanes, as the other ways find them */
		}
	}
	return mask;
}

BC_TARGET_AVX2 static inline __m256 select256(__m256 m, __m256 a, __m256 b)
{
	return _mm256_blendv_ps(b, a, m);
}

BC_TARGET_AVX2 int bcLeafBounds_Avx2(const bcLeafBlock* block, const bcLeafQuery* query, double entry, double maxAlpha,
									 float bounds[BC_LEAF_LANES])
{
	bcLeafFrame f = leafFrame(block, query, entry, maxAlpha);
	if (!f.bounded) {
		return keepAll(block, bounds);
	}
	const __m256 sign = _mm256_set1_ps(-0.0f);
	const __m256 zero = _mm256_setzero_ps();
	const __m256 one = _mm256_set1_ps(1.0f);
	const __m256 infinity = _mm256_set1_ps(INFINITY);
	__m256 q[3] = { _mm256_set1_ps(f.q[0]), _mm256_set1_ps(f.q[1]), _mm256_set1_ps(f.q[2]) };
	__m256 d[3] = { _mm256_set1_ps(query->d[0]), _mm256_set1_ps(query->d[1]), _mm256_set1_ps(query->d[2]) };
	__m256 eps = _mm256_set1_ps(query->epsNd);
	__m256 limit = _mm256_set1_ps(f.limit);
	__m256 reach = _mm256_set1_ps(f.reach);
	__m256 half = _mm256_set1_ps(f.half);
	__m256 nx = _mm256_load_ps(block->normal[0]), ny = _mm256_load_ps(block->normal[1]);
	__m256 nz = _mm256_load_ps(block->normal[2]);
	__m256 s0 = _mm256_sub_ps(
		_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, q[0]), _mm256_mul_ps(ny, q[1])), _mm256_mul_ps(nz, q[2])),
		_mm256_load_ps(block->offset));
	__m256 nd = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, d[0]), _mm256_mul_ps(ny, d[1])), _mm256_mul_ps(nz, d[2]));
	__m256 distance = _mm256_andnot_ps(sign, s0);
	__m256 gap = _mm256_sub_ps(distance, half);
	__m256 toward = select256(_mm256_cmp_ps(s0, zero, _CMP_GT_OQ), _mm256_xor_ps(nd, sign), nd);
	__m256 fast = _mm256_add_ps(toward, eps), slow = _mm256_sub_ps(toward, eps);
	__m256 leave = _mm256_sub_ps(_mm256_xor_ps(toward, sign), eps);
	__m256 lo = select256(_mm256_cmp_ps(fast, zero, _CMP_GT_OQ), _mm256_div_ps(gap, fast), infinity);
	lo = _mm256_and_ps(_mm256_cmp_ps(gap, zero, _CMP_GT_OQ), lo);
	__m256 hi = select256(_mm256_cmp_ps(slow, zero, _CMP_GT_OQ), _mm256_div_ps(_mm256_add_ps(distance, half), slow),
						  infinity);
	__m256 back = _mm256_div_ps(_mm256_xor_ps(gap, sign), leave);
	back = select256(_mm256_or_ps(_mm256_cmp_ps(gap, zero, _CMP_GT_OQ), _mm256_cmp_ps(leave, zero, _CMP_NGT_UQ)),
					 infinity, back);
	hi = _mm256_min_ps(back, hi);
	__m256 away = _mm256_cmp_ps(nd, _mm256_set1_ps(f.cull), _CMP_GT_OQ);
	/* Every lane the plane already rules out: no steps. */
	__m256 open = _mm256_andnot_ps(away, _mm256_and_ps(_mm256_cmp_ps(_mm256_mul_ps(lo, _mm256_set1_ps(BC_LEAF_LOWER_FACTOR)), limit, _CMP_LE_OQ),
													   _mm256_cmp_ps(_mm256_mul_ps(lo, _mm256_set1_ps(BC_LEAF_LOWER_FACTOR)),
																	 _mm256_mul_ps(hi, _mm256_set1_ps(BC_LEAF_RAISE_FACTOR)), _CMP_LE_OQ)));
	if (_mm256_movemask_ps(open) == 0) {
		return 0;
	}
	__m256 v[3][3];
	for (int k = 0; k < 3; ++k) {
		for (int j = 0; j < 3; ++j) {
			v[k][j] = _mm256_load_ps(block->vertex[k][j]);
		}
	}
	if (query->radius == 0.0) {
		__m256 w[3][3], product[3];
		for (int k = 0; k < 3; ++k) {
			for (int j = 0; j < 3; ++j) {
				w[k][j] = _mm256_sub_ps(v[k][j], q[j]);
			}
		}
		for (int k = 0; k < 3; ++k) {
			const __m256* x = w[k];
			const __m256* y = w[(k + 1) % 3];
			__m256 cx = _mm256_sub_ps(_mm256_mul_ps(x[1], y[2]), _mm256_mul_ps(x[2], y[1]));
			__m256 cy = _mm256_sub_ps(_mm256_mul_ps(x[2], y[0]), _mm256_mul_ps(x[0], y[2]));
			__m256 cz = _mm256_sub_ps(_mm256_mul_ps(x[0], y[1]), _mm256_mul_ps(x[1], y[0]));
			product[k] =
				_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(cx, d[0]), _mm256_mul_ps(cy, d[1])), _mm256_mul_ps(cz, d[2]));
		}
		__m256 side = _mm256_set1_ps(f.side), minus = _mm256_set1_ps(-f.side);
		__m256 positive = _mm256_or_ps(
			_mm256_or_ps(_mm256_cmp_ps(product[0], side, _CMP_GT_OQ), _mm256_cmp_ps(product[1], side, _CMP_GT_OQ)),
			_mm256_cmp_ps(product[2], side, _CMP_GT_OQ));
		__m256 negative = _mm256_or_ps(
			_mm256_or_ps(_mm256_cmp_ps(product[0], minus, _CMP_LT_OQ), _mm256_cmp_ps(product[1], minus, _CMP_LT_OQ)),
			_mm256_cmp_ps(product[2], minus, _CMP_LT_OQ));
		hi = select256(_mm256_and_ps(positive, negative), _mm256_set1_ps(-INFINITY), hi);
	}
	for (int step = 0; step < BC_LEAF_STEPS && query->radius != 0.0; ++step) {
		__m256 at = _mm256_min_ps(lo, limit);
		__m256 c[3];
		for (int j = 0; j < 3; ++j) {
			c[j] = _mm256_add_ps(q[j], _mm256_mul_ps(at, d[j]));
		}
		__m256 y[3], best = zero;
		for (int k = 0; k < 3; ++k) {
			__m256 e[3], w[3], z[3];
			for (int j = 0; j < 3; ++j) {
				e[j] = _mm256_sub_ps(v[(k + 1) % 3][j], v[k][j]);
				w[j] = _mm256_sub_ps(c[j], v[k][j]);
			}
			__m256 ee = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(e[0], e[0]), _mm256_mul_ps(e[1], e[1])),
									  _mm256_mul_ps(e[2], e[2]));
			__m256 t = _mm256_div_ps(
				_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(w[0], e[0]), _mm256_mul_ps(w[1], e[1])), _mm256_mul_ps(w[2], e[2])),
				ee);
			t = _mm256_min_ps(_mm256_max_ps(t, zero), one);
			for (int j = 0; j < 3; ++j) {
				z[j] = _mm256_sub_ps(w[j], _mm256_mul_ps(t, e[j]));
			}
			__m256 z2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(z[0], z[0]), _mm256_mul_ps(z[1], z[1])),
									  _mm256_mul_ps(z[2], z[2]));
			if (k == 0) {
				for (int j = 0; j < 3; ++j) {
					y[j] = z[j];
				}
				best = z2;
			} else {
				__m256 nearer = _mm256_cmp_ps(z2, best, _CMP_LT_OQ);
				for (int j = 0; j < 3; ++j) {
					y[j] = select256(nearer, z[j], y[j]);
				}
				best = select256(nearer, z2, best);
			}
		}
		__m256 scale = _mm256_div_ps(one, _mm256_sqrt_ps(best));
		__m256 u[3] = { _mm256_mul_ps(y[0], scale), _mm256_mul_ps(y[1], scale), _mm256_mul_ps(y[2], scale) };
		__m256 h = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u[0], v[0][0]), _mm256_mul_ps(u[1], v[0][1])),
								 _mm256_mul_ps(u[2], v[0][2]));
		for (int k = 1; k < 3; ++k) {
			__m256 hk = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u[0], v[k][0]), _mm256_mul_ps(u[1], v[k][1])),
									  _mm256_mul_ps(u[2], v[k][2]));
			h = _mm256_max_ps(hk, h);
		}
		__m256 su = _mm256_sub_ps(
			_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u[0], q[0]), _mm256_mul_ps(u[1], q[1])), _mm256_mul_ps(u[2], q[2])),
			h);
		__m256 closing = _mm256_xor_ps(
			_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u[0], d[0]), _mm256_mul_ps(u[1], d[1])), _mm256_mul_ps(u[2], d[2])),
			sign);
		__m256 inward = _mm256_add_ps(closing, eps);
		__m256 outward = _mm256_sub_ps(_mm256_xor_ps(closing, sign), eps);
		__m256 over = _mm256_sub_ps(su, reach);
		__m256 in = select256(_mm256_cmp_ps(inward, zero, _CMP_GT_OQ), _mm256_div_ps(over, inward), infinity);
		in = _mm256_and_ps(_mm256_cmp_ps(over, zero, _CMP_GT_OQ), in);
		__m256 out = select256(_mm256_cmp_ps(outward, zero, _CMP_GT_OQ),
							   _mm256_div_ps(_mm256_xor_ps(over, sign), outward), infinity);
		__m256 valid = _mm256_cmp_ps(best, _mm256_set1_ps(BC_LEAF_MIN_DISTANCE2), _CMP_GE_OQ);
		in = _mm256_and_ps(valid, in);
		out = select256(valid, out, infinity);
		lo = _mm256_max_ps(in, lo);
		hi = _mm256_min_ps(out, hi);
	}
	lo = _mm256_mul_ps(lo, _mm256_set1_ps(BC_LEAF_LOWER_FACTOR));
	hi = _mm256_mul_ps(hi, _mm256_set1_ps(BC_LEAF_RAISE_FACTOR));
	_mm256_storeu_ps(bounds, lo);
	__m256 keep = _mm256_andnot_ps(
		away, _mm256_and_ps(_mm256_cmp_ps(lo, limit, _CMP_LE_OQ), _mm256_cmp_ps(lo, hi, _CMP_LE_OQ)));
	return _mm256_movemask_ps(keep);
}
#endif
