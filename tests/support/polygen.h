/* polygen.h - deterministic simple polygons in the plane, of any size, for
 * the polygon tests and benchmarks: convex, star-shaped, combs, spirals. */
#ifndef BC_POLYGEN_H
#define BC_POLYGEN_H

#include <stdint.h>

typedef enum bcGenPolygonKind {
	bc_genConvex = 0, /* corners on a circle: strictly convex */
	bc_genStar,       /* corners at even angles, random radii: star-shaped, about half notches */
	bc_genComb,       /* a base and n / 4 upright teeth of width 1 and height n / 4 */
	bc_genSpiral,     /* a band winding round ten times, its two sides n / 2 corners each */
	bc_genPolygonKinds
} bcGenPolygonKind;

/* "convex", "star", "comb" or "spiral". */
const char* bcGenPolygonName(bcGenPolygonKind kind);

/* Writes the corners of a simple polygon of kind, counter-clockwise, to
 * xy[0 .. 2 count) (the caller's, room for 2 n doubles) and returns count:
 * n, rounded down to a multiple of 4 for combs and of 2 for spirals
 * (n >= 8). seed drives the star's radii. */
int32_t bcGenPolygon(bcGenPolygonKind kind, int32_t n, uint64_t seed, double* xy);

#endif
