/* morton.h - casts in space order: the one Morton sort, shared by
 * bcMesh_CastBatch and the command's chunks. Private to the library; the
 * command uses it through this header too (it links the static library).
 *
 * Why: on a million-triangle mesh the walk is bound by memory, and casts
 * in input order throw the cache away. Casts taken in the Morton order of
 * their starting points p0 walk the same nodes and triangles while they
 * are still in the cache (1.6x on 100k short sweeps over the 1.3 M
 * icosphere). The start rather than the midpoint: the same on short
 * segments, better on long ones, whose walks begin at p0 and mostly end
 * near it (1.06x against 1.02x, rays 1.3x against 1.15x); a
 * six-dimensional key of p0 and p1 did no better than p0 alone. */
#ifndef BC_MORTON_H
#define BC_MORTON_H

#include <stdint.h>

#include "ballcast.h"

/* order[0, count) = 0 .. count - 1 in the Morton order of inputs[i].p0,
 * quantised to 1024 cells per axis over the box of the count starts
 * (stable: equal keys keep input order). keys and scratch hold count
 * entries each. Coordinates that are not finite stretch no box; a start
 * of NaNs sorts first (a caller marks with NaNs what it will not cast). */
void bcMortonOrder(const bcCastInput* inputs, int32_t count, int32_t* order, uint32_t* keys, int32_t* scratch);

#endif
