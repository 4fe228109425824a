/* morton.c - casts in space order (morton.h, where it says why). */
#include <math.h>

#include "morton.h"
#include "core.h"
#include "vec3.h"

/* 10 bits per axis: a 30-bit key, sorted in four byte-wide radix passes.
 * 1024 cells per axis are finer than a window of casts is dense. */
#define BC_MORTON_BITS 10

/* Spread the low BC_MORTON_BITS bits of v to every third bit. */
static uint32_t spreadBits(uint32_t v)
{
	v &= 0x3ffu;
	v = (v | (v << 16)) & 0x030000ffu;
	v = (v | (v << 8)) & 0x0300f00fu;
	v = (v | (v << 4)) & 0x030c30c3u;
	v = (v | (v << 2)) & 0x09249249u;
	return v;
}

/* Cell of x on an axis from lower with scale cells per unit, clamped (NaN: 0). */
static uint32_t mortonCell(double x, double lower, double scale)
{
	double cell = (x - lower) * scale;
	double top = (double)((1u << BC_MORTON_BITS) - 1u);
	return cell >= 0.0 ? (uint32_t)(cell < top ? cell : top) : 0u;
}

void bcMortonOrder(const bcCastInput* inputs, int32_t count, int32_t* order, uint32_t* keys, int32_t* scratch)
{
	double lower[3] = { INFINITY, INFINITY, INFINITY }, upper[3] = { -INFINITY, -INFINITY, -INFINITY };
	for (int32_t i = 0; i < count; ++i) {
		for (int k = 0; k < 3; ++k) {
			double c = bcComponent(inputs[i].p0, k);
			if (isfinite(c)) {
				lower[k] = c < lower[k] ? c : lower[k];
				upper[k] = c > upper[k] ? c : upper[k];
			}
		}
	}
	double scale[3];
	for (int k = 0; k < 3; ++k) {
		double extent = upper[k] - lower[k];
		scale[k] = extent > 0.0 && isfinite(extent) ? (double)(1u << BC_MORTON_BITS) / extent : 0.0;
	}
	for (int32_t i = 0; i < count; ++i) {
		uint32_t key = 0;
		for (int k = 0; k < 3; ++k) {
			key |= spreadBits(mortonCell(bcComponent(inputs[i].p0, k), lower[k], scale[k])) << k;
		}
		keys[i] = key;
		order[i] = i;
	}
	/* LSD radix sort of the indices by key, a byte at a time; four passes
	 * leave the sorted indices back in order. */
	int32_t* from = order;
	int32_t* to = scratch;
	for (int shift = 0; shift < 32; shift += 8) {
		int32_t counts[257] = { 0 };
		for (int32_t i = 0; i < count; ++i) {
			counts[((keys[from[i]] >> shift) & 0xffu) + 1] += 1;
		}
		for (int b = 0; b < 256; ++b) {
			counts[b + 1] += counts[b];
		}
		for (int32_t i = 0; i < count; ++i) {
			to[counts[(keys[from[i]] >> shift) & 0xffu]++] = from[i];
		}
		int32_t* swap = from;
		from = to;
		to = swap;
	}
}
