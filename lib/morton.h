/* morton.h - casts in space order (morton.c), for the batch (cast.c).
 * Private to the library: bcMesh_CastBatchWithOptions orders its casts so. */
#ifndef BC_MORTON_H
#define BC_MORTON_H

#include <stdint.h>

#include "ballcast.h"

/* The order in which to cast a batch so that consecutive casts reuse the
 * cache. order[0, count) = 0 .. count - 1 in the Morton (Z-curve) order of
 * inputs[i].p0, quantised to 1024 cells per axis over the box of the count
 * starts; stable: equal keys keep input order. keys and scratch are the
 * caller's, count entries each. Coordinates that are not finite stretch no
 * box; a start of NaNs sorts first. Why the start p0: on a
 * million-triangle mesh the walk is bound by memory, and walks that begin
 * near each other share nodes and triangles (1.6x on 100k short sweeps
 * over the 1.3 M icosphere); keys of the midpoint or of p0 and p1 did no
 * better. */
void bcMortonOrder(const bcCastInput* inputs, int32_t count, int32_t* order, uint32_t* keys, int32_t* scratch);

#endif
