/* _glue.c - the few loops the Python binding needs in C, beside the cffi
 * wrappers of ballcast.h (compiled into ballcast._ballcast with them). None
 * of them computes geometry: each calls the library's functions in a loop so
 * that numpy arrays are filled without a Python call per element, and
 * without the GIL (cffi releases it around every call). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Copy a mesh's vertices (3 per vertex), triangles (3 indices each), their
 * faces, front normals (3 each) and degenerate flags into the caller's
 * arrays, sized from bcMesh_GetInfo. */
static void bcpy_MeshArrays(const bcMesh* mesh, double* vertices, int32_t* triangles, int32_t* faces, double* normals,
							uint8_t* degenerate)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		vertices[3 * (size_t)i] = v.x;
		vertices[3 * (size_t)i + 1] = v.y;
		vertices[3 * (size_t)i + 2] = v.z;
	}
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		memcpy(triangles + 3 * (size_t)i, t.vertices, sizeof t.vertices);
		faces[i] = t.face;
		normals[3 * (size_t)i] = t.normal.x;
		normals[3 * (size_t)i + 1] = t.normal.y;
		normals[3 * (size_t)i + 2] = t.normal.z;
		degenerate[i] = t.degenerate ? 1 : 0;
	}
}

/* The discrete method on inputs[0 .. count), each answer in the cast's
 * form as `ballcast cast --method discrete` writes it: the one contact the
 * method found (one triangle, no ties; triangleNormal that triangle's
 * front normal), its normal as mode asks (contact or triangle: the method
 * lists no ties to average). alphaFree[i] gets the method's lower alpha;
 * exactAlpha (may be NULL) the exact cast's alpha on a hit, NaN otherwise
 * (--compare-exact). */
static void bcpy_CastDiscreteBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs,
								   double* alphaFree, double* exactAlpha, int count,
								   const bcDiscreteOptions* options, bcNormalMode mode)
{
	for (int i = 0; i < count; ++i) {
		bcDiscreteOutput d = bcMesh_CastDiscrete(mesh, inputs[i], options);
		bcCastOutput* out = outputs + i;
		memset(out, 0, sizeof *out);
		out->state = d.state;
		out->alpha = d.alpha;
		out->triangle = d.triangle;
		out->face = d.face;
		alphaFree[i] = d.lower;
		if (d.state == bc_castHit || d.state == bc_castInitialOverlap) {
			out->feature = d.feature;
			out->vertexCount = d.vertexCount;
			memcpy(out->vertices, d.vertices, sizeof out->vertices);
			out->point = d.point;
			out->center = d.center;
			out->normal = d.normal;
			out->triangleNormal = bcMesh_GetTriangle(mesh, d.triangle).normal;
			out->tieCount = 1;
		}
		out->normal = bcMesh_CastNormal(mesh, out, NULL, 0, mode);
		if (exactAlpha != NULL) {
			bcCastOutput exact = bcMesh_Cast(mesh, inputs[i], &options->cast);
			bool hit = exact.state == bc_castHit || exact.state == bc_castInitialOverlap;
			exactAlpha[i] = hit ? exact.alpha : NAN;
		}
	}
}

/* ------------------------------------------------ a counting allocator */

/* For the tests: every block the library takes and gives back is counted,
 * so that a leak (or a block freed twice) shows as a count that does not
 * come back to where it was; and allocations can be made to fail after a
 * given number, so that running out of memory can be tested. */
static atomic_llong bcpyLiveBlocks;
static atomic_llong bcpyAllocations;
static atomic_llong bcpyFailAfter = -1; /* allocations left before failing; -1: never */

static bool bcpyShouldFail(void)
{
	long long left = atomic_load(&bcpyFailAfter);
	while (left >= 0) {
		if (left == 0) {
			return true;
		}
		if (atomic_compare_exchange_weak(&bcpyFailAfter, &left, left - 1)) {
			return false;
		}
	}
	return false;
}

static void* bcpyAlloc(size_t size, size_t alignment, void* context)
{
	(void)context;
	if (bcpyShouldFail()) {
		return NULL;
	}
	void* memory = NULL;
	if (posix_memalign(&memory, alignment, size > 0 ? size : alignment) != 0) {
		return NULL;
	}
	atomic_fetch_add(&bcpyLiveBlocks, 1);
	atomic_fetch_add(&bcpyAllocations, 1);
	return memory;
}

static void* bcpyRealloc(void* memory, size_t size, void* context)
{
	(void)context;
	if (bcpyShouldFail()) {
		return NULL;
	}
	void* moved = realloc(memory, size > 0 ? size : 1);
	if (moved != NULL && memory == NULL) {
		atomic_fetch_add(&bcpyLiveBlocks, 1);
		atomic_fetch_add(&bcpyAllocations, 1);
	}
	return moved;
}

static void bcpyFree(void* memory, void* context)
{
	(void)context;
	if (memory != NULL) {
		atomic_fetch_sub(&bcpyLiveBlocks, 1);
		free(memory);
	}
}

/* Route the library's memory through the counting allocator (before any
 * other call of the library). */
static void bcpy_UseCountingAllocator(void)
{
	bcAllocator allocator = { bcpyAlloc, bcpyRealloc, bcpyFree, NULL };
	bcSetAllocator(&allocator);
}

/* Blocks the library holds now. */
static long long bcpy_LiveBlocks(void)
{
	return atomic_load(&bcpyLiveBlocks);
}

/* Blocks the library has taken in all. */
static long long bcpy_Allocations(void)
{
	return atomic_load(&bcpyAllocations);
}

/* Let count more allocations succeed, then fail every one; -1: never fail. */
static void bcpy_FailAllocationsAfter(long long count)
{
	atomic_store(&bcpyFailAfter, count);
}
