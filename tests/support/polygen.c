/* polygen.c - deterministic simple polygons (polygen.h). */
#include "polygen.h"

#include <math.h>

#include "meshgen.h"

#define BC_GEN_PI 3.14159265358979323846

/* Turns of the spiral; its band fills this fraction of the gap between
 * one turn and the next. */
#define BC_GEN_SPIRAL_TURNS 10.0
#define BC_GEN_SPIRAL_BAND 0.5

const char* bcGenPolygonName(bcGenPolygonKind kind)
{
	static const char* const names[] = { "convex", "star", "comb", "spiral" };
	return kind >= 0 && kind < bc_genPolygonKinds ? names[kind] : "?";
}

int32_t bcGenPolygon(bcGenPolygonKind kind, int32_t n, uint64_t seed, double* xy)
{
	bcRandom rng = { seed };
	switch (kind) {
	case bc_genConvex:
	case bc_genStar:
		for (int32_t i = 0; i < n; ++i) {
			double a = 2.0 * BC_GEN_PI * i / n;
			double r = kind == bc_genConvex ? 1.0 : bcRandom_Uniform(&rng, 0.3, 1.0);
			xy[2 * i] = r * cos(a);
			xy[2 * i + 1] = r * sin(a);
		}
		return n;
	case bc_genComb: {
		/* (0, 0), (2t - 1, 0), then tooth j from the right: its top
		 * (2j + 1, h), (2j, h), and the gap to its left at height 1 */
		int32_t teeth = n / 4, count = 0;
		double h = teeth > 1 ? teeth : 2;
		xy[count++] = 0.0;
		xy[count++] = 0.0;
		xy[count++] = 2.0 * teeth - 1.0;
		xy[count++] = 0.0;
		for (int32_t j = teeth - 1; j >= 0; --j) {
			xy[count++] = 2.0 * j + 1.0;
			xy[count++] = h;
			xy[count++] = 2.0 * j;
			xy[count++] = h;
			if (j > 0) {
				xy[count++] = 2.0 * j;
				xy[count++] = 1.0;
				xy[count++] = 2.0 * j - 1.0;
				xy[count++] = 1.0;
			}
		}
		return count / 2;
	}
	default: {
		/* outside along r = 1 + b theta, back along the inside */
		int32_t m = n / 2;
		double turns = 2.0 * BC_GEN_PI * BC_GEN_SPIRAL_TURNS, b = 1.0 / (2.0 * BC_GEN_PI);
		double band = BC_GEN_SPIRAL_BAND * 2.0 * BC_GEN_PI * b;
		for (int32_t k = 0; k < m; ++k) {
			double theta = turns * k / (m - 1);
			double outer = 1.0 + b * theta + band, inner = 1.0 + b * (turns * (m - 1 - k) / (m - 1));
			double back = turns * (m - 1 - k) / (m - 1);
			xy[2 * k] = outer * cos(theta);
			xy[2 * k + 1] = outer * sin(theta);
			xy[2 * (m + k)] = inner * cos(back);
			xy[2 * (m + k) + 1] = inner * sin(back);
		}
		return 2 * m;
	}
	}
}
