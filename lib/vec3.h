/* vec3.h - small value-type vector math (private to ballcast). */
#ifndef BC_VEC3_H
#define BC_VEC3_H

#include <math.h>

#include "ballcast.h"

static inline bcVec3 bcMakeVec3(double x, double y, double z)
{
	bcVec3 v = { x, y, z };
	return v;
}

static inline bcVec3 bcAdd(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline bcVec3 bcSub(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline bcVec3 bcScale(double s, bcVec3 v)
{
	return bcMakeVec3(s * v.x, s * v.y, s * v.z);
}

/* a + s * b */
static inline bcVec3 bcMulAdd(bcVec3 a, double s, bcVec3 b)
{
	return bcMakeVec3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

/* -v, with +0 (not -0) for zero components, so printed normals read 0. */
static inline bcVec3 bcNeg(bcVec3 v)
{
	return bcMakeVec3(0.0 - v.x, 0.0 - v.y, 0.0 - v.z);
}

/* v with any -0 component turned into +0 (x + 0.0 does that, and nothing else). */
static inline bcVec3 bcPositiveZeros(bcVec3 v)
{
	return bcMakeVec3(v.x + 0.0, v.y + 0.0, v.z + 0.0);
}

static inline double bcDot(bcVec3 a, bcVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline bcVec3 bcCross(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline double bcLengthSquared(bcVec3 v)
{
	return bcDot(v, v);
}

static inline double bcLength(bcVec3 v)
{
	return sqrt(bcDot(v, v));
}

static inline int bcIsFinite(bcVec3 v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* v / |v|, or (0,0,0) when |v| is 0 or not finite. v is first scaled by
 * its largest component, so tiny (subnormal) and huge vectors come out
 * unit length too. */
static inline bcVec3 bcNormalize(bcVec3 v)
{
	double m = fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z)));
	if (!(m > 0.0) || !isfinite(m)) {
		return bcMakeVec3(0.0, 0.0, 0.0);
	}
	if (m < 0x1p-900) {
		/* Subnormal range: an exact power-of-two scale first, so 1 / m is finite. */
		v = bcScale(0x1p600, v);
		m *= 0x1p600;
	}
	v = bcScale(1.0 / m, v);
	double length = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
	return bcScale(1.0 / length, v);
}

/* |v| without overflow or underflow in the squares (slower than bcLength). */
static inline double bcSafeLength(bcVec3 v)
{
	double m = fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z)));
	if (!(m > 0.0) || !isfinite(m)) {
		return m;
	}
	double x = v.x / m, y = v.y / m, z = v.z / m;
	return m * sqrt(x * x + y * y + z * z);
}

static inline double bcDistance(bcVec3 a, bcVec3 b)
{
	return bcLength(bcSub(a, b));
}

static inline bcVec3 bcMin(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}

static inline bcVec3 bcMax(bcVec3 a, bcVec3 b)
{
	return bcMakeVec3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}


static inline double bcComponent(bcVec3 v, int axis)
{
	return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

/* The largest |component|. */
static inline double bcMaxAbs(bcVec3 v)
{
	double x = fabs(v.x), y = fabs(v.y), z = fabs(v.z);
	double m = x > y ? x : y;
	return m > z ? m : z;
}

/* The power of two e such that points scaled by 2^-e have their largest
 * coordinate in [0.5, 1) (0 when all are 0): scaling by a power of two is
 * exact, so exact computations on the scaled copies keep their products
 * inside the doubles. */
static inline int bcScaleExponent(const bcVec3* p, int count)
{
	double m = 0.0;
	for (int i = 0; i < count; ++i) {
		double a = bcMaxAbs(p[i]);
		m = a > m ? a : m;
	}
	int e = 0;
	if (m > 0.0) {
		frexp(m, &e);
	}
	return e;
}

/* v * 2^e: exact unless a coordinate leaves the normal range. */
static inline bcVec3 bcScaled(bcVec3 v, int e)
{
	return bcMakeVec3(ldexp(v.x, e), ldexp(v.y, e), ldexp(v.z, e));
}

#endif
