/* predicates.h - exact signs of geometric determinants (private).
 *
 * The one place where ballcast decides "exactly": the triangle-triangle
 * test, the point sweep (r = 0), the ball sweep's exact path and the
 * containment test all take their signs from here. Every function returns
 * a double whose SIGN is the exact sign of the determinant of the input
 * doubles (0 only when it is exactly 0); its value is within the relative
 * error asked for. lib/predicates.c explains the three tiers (filter,
 * expansions, big integers).
 */
#ifndef BC_PREDICATES_H
#define BC_PREDICATES_H

#include <gmp.h>

#include "ballcast.h"

/* 2^-53: half an ulp of 1, the unit roundoff of a double. */
#define BC_UNIT_ROUNDOFF 1.1102230246251565e-16

/* orient(a, b, c, d) = det[b-a, c-a, d-a] = ((b-a) x (c-a)) . (d-a):
 * positive when d is on the side of plane a b c that its normal
 * (b-a)x(c-a) points to (where a, b, c run counter-clockwise), negative on
 * the other side, 0 on the plane. The sign is exact. The value is within
 * relativeError of the exact determinant, relatively: 1 asks for the sign
 * only (the floating-point filter's value whenever its sign is certain);
 * 0 for the exact determinant faithfully rounded (within an ulp). */
double bcOrient3d(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double relativeError);

/* orient(a, b, c, d) with its exact sign and *error a bound on the
 * value's error: the filter's bound when the filter decided, else an ulp
 * (the exact tiers round faithfully). A determinant below DBL_MIN in
 * magnitude (tiny coordinates) comes back as its sign only, possibly the
 * smallest subnormal: use the value as a magnitude only above that. */
double bcOrient3dBounded(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 d, double* error);

/* det[b-a, c-a] for 2D points: positive when a, b, c turn left
 * (counter-clockwise), negative when they turn right, 0 when collinear.
 * Exact sign; the value as from the filter, or faithfully rounded. */
double bcOrient2d(double ax, double ay, double bx, double by, double cx, double cy);

/* (b - a) x (c - a) for the input doubles with every component faithfully
 * rounded (within an ulp of the exact value; a component below DBL_MIN in
 * magnitude within DBL_MIN): the three 2D orientations of the coordinate
 * planes, taken on the exact tiers. For a thin triangle, whose rounded
 * differences leave its cross product few digits; about a hundred times
 * the cost of a plain cross product. */
bcVec3 bcExactCross(bcVec3 a, bcVec3 b, bcVec3 c);

/* -1, 0 or 1. */
static inline int bcSign(double v)
{
	return (v > 0.0) - (v < 0.0);
}

/* ------------------------------------------------------- big integers */

/* Doubles turned into integers on one common scale, exactly: out[i] =
 * in[i] * 2^-exponent, with exponent the smallest that makes every in[i]
 * an integer (GMP's mpz_t). Polynomials of one degree in these integers
 * have the signs and ratios of the same polynomials in the doubles. Every
 * out[i] must have been mpz_init'ed. Returns the exponent. */
long bcExactIntegers(mpz_t* out, const double* in, int count);

/* x / y correctly rounded (to nearest, ties to even), for integers y != 0. */
double bcExactRatio(const mpz_t x, const mpz_t y);

/* x correctly rounded to 53 bits, as mantissa * 2^exponent, so integers
 * far outside the doubles' range keep their digits. */
typedef struct bcExactDouble {
	double mantissa; /* in [0.5, 1) in magnitude, or 0 */
	long exponent;
} bcExactDouble;

bcExactDouble bcExactToDouble(const mpz_t x);

/* Sign of a + b sqrt(c), c >= 0, exactly. */
int bcExactSignWithRoot(const mpz_t a, const mpz_t b, const mpz_t c);

#endif
