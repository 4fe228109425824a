/* vec3.h - the library's private vector helpers (scaling, components);
 * the basic operations on bcVec3 are public, in ballcast.h. */
#ifndef BC_VEC3_H
#define BC_VEC3_H

#include <math.h>

#include "ballcast.h"

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
