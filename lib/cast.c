/* cast.c - a moving ball against a whole mesh: the earliest counted contact,
 * with deterministic ties.
 *
 * Ties: let alpha_min be the earliest alpha of any counted contact. Every
 * (triangle, feature) contact with alpha <= alpha_min + BC_ALPHA_TIE_TOLERANCE
 * is tied; the answer is the lowest triangle index among them and, on that
 * triangle, the first feature in the order face, edges AB BC CA, vertices
 * A B C. That contact gives the point and normal; alpha and the centre are
 * the least alpha of the tied contacts (the earliest contact's: the chosen
 * one's own may be up to the tolerance later; --ties lists each contact's
 * own alpha). Initial overlaps rank before every other contact (they are kept
 * at alpha = -1 internally and reported at alpha = 0). The rule depends on
 * the set of contacts only, never on the order triangles are visited in, so
 * the BVH and the brute-force path give identical answers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "core.h"
#include "morton.h"
#include "sweep.h"
#include "vec3.h"

/* Tied candidates kept on the stack before spilling to the heap; a ball
 * touching a vertex shared by more triangles than this is rare. */
#define BC_TIE_STACK_CAPACITY 32

/* Where an initial overlap sorts: before any real alpha in [0, 1]. */
#define BC_OVERLAP_ALPHA (-1.0)

typedef struct bcCandidate {
	int32_t triangle;
	bcSweepTriangleRef ref; /* the triangle as the test read it: the answer's point and normal come from it, not
							   from the mesh's arrays again */
	double best;
	double error; /* best is within this of the exact alpha (points, until refined) */
	bcSweepResult result;
} bcCandidate;

typedef struct bcCastContext {
	const bcMesh* mesh;
	bcSweepQuery query;
	double alphaMin;      /* an upper bound on the earliest contact so far (BC_OVERLAP_ALPHA for overlaps) */
	bcCandidate* items;   /* candidates within alphaMin + tolerance */
	int count;
	int capacity;
	bcCandidate stack[BC_TIE_STACK_CAPACITY];
	bool outOfMemory;
} bcCastContext;

static double keyOf(const bcSweepResult* result)
{
	return result->overlap ? BC_OVERLAP_ALPHA : result->best;
}

/* Drop candidates that fell out of the tie window (surely: their alpha,
 * less its error, is past it). */
static void pruneCandidates(bcCastContext* ctx)
{
	double limit = ctx->alphaMin + BC_ALPHA_TIE_TOLERANCE;
	int kept = 0;
	for (int i = 0; i < ctx->count; ++i) {
		if (ctx->items[i].best - ctx->items[i].error <= limit) {
			ctx->items[kept++] = ctx->items[i];
		}
	}
	ctx->count = kept;
}

static void addCandidate(bcCastContext* ctx, int32_t triangle, const bcSweepTriangleRef* ref,
						 const bcSweepResult* result)
{
	double key = keyOf(result);
	double error = result->overlap ? 0.0 : result->alphaError;
	if (key - error > ctx->alphaMin + BC_ALPHA_TIE_TOLERANCE) {
		return;
	}
	if (key + error < ctx->alphaMin) {
		ctx->alphaMin = key + error;
		pruneCandidates(ctx);
	}
	if (ctx->count == ctx->capacity) {
		int capacity = 2 * ctx->capacity;
		bcCandidate* items = bcAlloc((size_t)capacity * sizeof *items);
		if (items == NULL) {
			ctx->outOfMemory = true;
			return;
		}
		memcpy(items, ctx->items, (size_t)ctx->count * sizeof *items);
		if (ctx->items != ctx->stack) {
			bcFree(ctx->items);
		}
		ctx->items = items;
		ctx->capacity = capacity;
	}
	bcCandidate* item = ctx->items + ctx->count++;
	item->triangle = triangle;
	item->ref = *ref;
	item->best = key;
	item->error = error;
	item->result = *result;
}

static void testTriangle(bcCastContext* ctx, int32_t t, const bcSweepTriangleRef* triangle, double maxAlpha)
{
	if (triangle->n.x == 0.0 && triangle->n.y == 0.0 && triangle->n.z == 0.0) {
		return;
	}
	bcSweepResult result;
	if (bcSweepTriangle(&ctx->query, triangle, maxAlpha, &result)) {
		addCandidate(ctx, t, triangle, &result);
	}
}

/* Triangle t as the sweep reads it, from the mesh's arrays. */
static bcSweepTriangleRef meshTriangle(const bcMesh* mesh, int32_t t)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcSweepTriangleRef ref = { mesh->vertices[v[0]], mesh->vertices[v[1]], mesh->vertices[v[2]], mesh->normals[t],
							   mesh->normalErrors[t] };
	return ref;
}

/* The brute-force path: the triangle from the mesh's arrays. */
static void testMeshTriangle(bcCastContext* ctx, int32_t t, double maxAlpha)
{
	bcSweepTriangleRef triangle = meshTriangle(ctx->mesh, t);
	testTriangle(ctx, t, &triangle, maxAlpha);
}

/* The bound a triangle must meet to matter: within the tie window of the
 * earliest contact so far, and never past alpha = 1. */
static double searchLimit(const bcCastContext* ctx)
{
	double limit = ctx->alphaMin + BC_ALPHA_TIE_TOLERANCE;
	return limit < 1.0 ? limit : 1.0;
}

static void visitTriangle(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcCastContext* ctx = context;
	bcSweepTriangleRef ref = { triangle->a, triangle->b, triangle->c, triangle->n, triangle->normalError };
	testTriangle(ctx, triangle->index, &ref, *maxAlpha);
	double limit = searchLimit(ctx);
	/* The box test works on [0, maxAlpha]; an overlap (alphaMin = -1) needs
	 * only alpha = 0 to be searched further. */
	*maxAlpha = limit < 0.0 ? 0.0 : limit;
}

/* Run the search; leaves the tied candidates in ctx. */
static void runSearch(bcCastContext* ctx, const bcMesh* mesh, bcCastInput input, const bcCastOptions* options)
{
	ctx->mesh = mesh;
	ctx->query = bcMakeSweepQuery(input, options);
	/* A point's alphas come first within an error bound, and only the
	 * candidates left in the tie window at the end are computed exactly. */
	ctx->query.deferAlpha = true;
	ctx->alphaMin = 1.0;
	ctx->items = ctx->stack;
	ctx->count = 0;
	ctx->capacity = BC_TIE_STACK_CAPACITY;
	ctx->outOfMemory = false;
	/* alphaMin starts at 1 so the window admits contacts up to 1 + tolerance;
	 * those past 1 are removed by the sweep's maxAlpha of at most 1. */
	if ((options != NULL && options->bruteForce) || mesh->bvh == NULL) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			double limit = searchLimit(ctx);
			testMeshTriangle(ctx, t, limit < 0.0 ? 0.0 : limit);
		}
	} else {
		double maxAlpha = 1.0;
		ctx->query.ballFiltered = true;
		bcBvh_QuerySweepOrdered(mesh->bvh, ctx->query.p0, ctx->query.d, ctx->query.radius,
								ctx->query.options.twoSided, &maxAlpha, visitTriangle, ctx);
	}
	/* The candidates' alphas made exact, then the window drawn again. */
	bool refined = false;
	for (int i = 0; i < ctx->count; ++i) {
		bcCandidate* c = ctx->items + i;
		if (c->error > 0.0) {
			bcSweepRefine(&ctx->query, &c->ref, &c->result);
			c->best = keyOf(&c->result);
			c->error = 0.0;
			refined = true;
		}
	}
	if (refined) {
		ctx->alphaMin = 1.0;
		for (int i = 0; i < ctx->count; ++i) {
			ctx->alphaMin = ctx->items[i].best < ctx->alphaMin ? ctx->items[i].best : ctx->alphaMin;
		}
		pruneCandidates(ctx);
	}
}

static void releaseSearch(bcCastContext* ctx)
{
	if (ctx->items != ctx->stack) {
		bcFree(ctx->items);
	}
	ctx->items = NULL;
}

static int compareCandidates(const void* pa, const void* pb)
{
	const bcCandidate* a = pa;
	const bcCandidate* b = pb;
	return (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

/* Fill output from the chosen candidate (lowest triangle; first feature). */
static void fillOutput(const bcCastContext* ctx, bcCastOutput* out)
{
	const bcMesh* mesh = ctx->mesh;
	const bcCandidate* chosen = NULL;
	double limit = ctx->alphaMin + BC_ALPHA_TIE_TOLERANCE;
	int ties = 0;
	double earliest = 1.0; /* the least alpha of the tied contacts */
	for (int i = 0; i < ctx->count; ++i) {
		const bcCandidate* c = ctx->items + i;
		if (c->best > limit) {
			continue;
		}
		for (int s = 0; s < bc_slotCount; ++s) {
			bool tied = c->result.overlap ? c->result.alpha[s] == 0.0 : c->result.alpha[s] <= limit;
			ties += tied;
			earliest = tied && c->result.alpha[s] < earliest ? c->result.alpha[s] : earliest;
		}
		if (chosen == NULL || c->triangle < chosen->triangle) {
			chosen = c;
		}
	}
	*out = (bcCastOutput)BC_NO_CONTACT(bc_castMiss);
	if (chosen == NULL) {
		return;
	}
	int slot = 0;
	double slotLimit = chosen->result.overlap ? 0.0 : limit;
	while (slot < bc_slotCount && !(chosen->result.alpha[slot] <= slotLimit)) {
		++slot;
	}
	int32_t t = chosen->triangle;
	const int32_t* v = mesh->triangles + 3 * t;
	int local[3];
	out->state = chosen->result.overlap ? bc_castInitialOverlap : bc_castHit;
	out->triangle = t;
	out->face = mesh->faceIds[t];
	out->feature = bcSlotFeature(slot, &out->vertexCount, local);
	for (int k = 0; k < out->vertexCount; ++k) {
		out->vertices[k] = v[local[k]];
	}
	out->tieCount = ties;
	bcSweepContact(&ctx->query, &chosen->ref, &chosen->result, slot, chosen->result.alpha[slot], out);
	/* A tie names the contact (its point and normal where it touches), never
	 * a later alpha: alpha and centre are the earliest tied contact's (an
	 * overlap's alphas are all 0). */
	bcSweepTakeEarliest(&ctx->query, earliest, out);
}

bcCastOutput bcMesh_Cast(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options)
{
	bcCastOutput out;
	bcMesh_CastTies(mesh, input, options, &out, NULL, 0);
	return out;
}

int bcMesh_CastTies(const bcMesh* mesh, bcCastInput input, const bcCastOptions* options, bcCastOutput* output,
					bcContact* ties, int capacity)
{
	if (!bcIsValidCastInput(input)) {
		*output = (bcCastOutput)BC_NO_CONTACT(bc_castInvalid);
		return 0;
	}
	bcCastContext ctx;
	runSearch(&ctx, mesh, input, options);
	if (ctx.outOfMemory) {
		/* Never an answer from part of the contacts. */
		releaseSearch(&ctx);
		*output = (bcCastOutput)BC_NO_CONTACT(bc_castInvalid);
		output->state = bc_castNoMemory;
		return 0;
	}
	fillOutput(&ctx, output);
	int n = 0;
	if (capacity <= 0 || ties == NULL) {
		/* Only the count: the tied contacts fillOutput counted. */
		n = output->state != bc_castMiss ? output->tieCount : 0;
	} else if (output->state != bc_castMiss) {
		if (ctx.count > 1) {
			qsort(ctx.items, (size_t)ctx.count, sizeof *ctx.items, compareCandidates);
		}
		double limit = ctx.alphaMin + BC_ALPHA_TIE_TOLERANCE;
		for (int i = 0; i < ctx.count; ++i) {
			const bcCandidate* c = ctx.items + i;
			if (c->best > limit) {
				continue;
			}
			for (int s = 0; s < bc_slotCount; ++s) {
				bool tied = c->result.overlap ? c->result.alpha[s] == 0.0 : c->result.alpha[s] <= limit;
				if (!tied) {
					continue;
				}
				if (n < capacity) {
					const int32_t* v = mesh->triangles + 3 * c->triangle;
					bcContact* contact = ties + n;
					int local[3];
					bcCastOutput tmp;
					contact->triangle = c->triangle;
					contact->feature = bcSlotFeature(s, &contact->vertexCount, local);
					for (int k = 0; k < 3; ++k) {
						contact->vertices[k] = k < contact->vertexCount ? v[local[k]] : -1;
					}
					bcSweepContact(&ctx.query, &c->ref, &c->result, s, c->result.alpha[s], &tmp);
					contact->alpha = tmp.alpha;
					contact->normal = tmp.normal;
				}
				++n;
			}
		}
	}
	releaseSearch(&ctx);
	return n;
}

/* --------------------------------------------------------- normal modes */

bcVec3 bcMesh_CastNormal(const bcMesh* mesh, const bcCastOutput* output, const bcContact* ties, int count,
						 bcNormalMode mode)
{
	if (output->state != bc_castHit && output->state != bc_castInitialOverlap) {
		return output->normal;
	}
	switch (mode) {
	case bc_normalTriangle:
		return output->triangleNormal;
	case bc_normalAverage:
		return bcMesh_AverageNormal(mesh, ties, count, output->triangleNormal); /* average_normal.c */
	default:
		return output->normal;
	}
}

/* ----------------------------------------------------------------- batch */

/* Casts a thread takes from a batch at a time: threads take blocks from a
 * shared counter until none is left, so a thread slowed by another process
 * on its core takes fewer blocks instead of holding up the batch (a fixed
 * split into equal slices ran at the pace of the slowest core). 64 casts
 * are tens of microseconds: the counter is touched rarely. */
#define BC_BATCH_BLOCK 64

/* Space order (morton.h). A batch is cast window by window, each window's
 * casts in the Morton order of their starts over the window's own bounds.
 * Each answer still goes to its input's place, so the outputs are those of
 * input order, bit for bit. A window bounds the sorting scratch (8 bytes
 * per cast); 65,536 random casts over a mesh are already close enough
 * together that a larger window gained nothing. */
#define BC_BATCH_WINDOW 65536

/* Below this many casts the order is left as it is (a few casts gain
 * nothing from it). */
#define BC_BATCH_MIN_SORT 256

/* Below this many casts per thread, starting a thread costs more than it saves. */
#define BC_MIN_CASTS_PER_THREAD 64

/* Tied contacts one worker of a batch keeps before they are gathered. */
#define BC_BATCH_POOL_START 256

/* A worker's tied contacts, cast after cast, in the order it cast them
 * (or, when the batch lists none, the last cast's alone). */
typedef struct bcTiePool {
	bcContact* contacts;
	size_t count;
	size_t capacity;
} bcTiePool;

/* Where a cast's tied contacts wait: pool, at, n of them. */
typedef struct bcTieSpot {
	int32_t pool;
	int32_t count;
	size_t at;
} bcTieSpot;

/* One batch, shared by its threads. Outputs go to their inputs' places, so
 * the result does not depend on which thread cast what, nor in what order. */
typedef struct bcBatch {
	const bcMesh* mesh;
	const bcCastInput* inputs;
	bcCastOutput* outputs;
	bcCastOptions cast;
	bcNormalMode normal;
	const int32_t* order; /* the casts in space order, or NULL: input order */
	bcTiePool* pools;     /* one per worker when ties are collected (listed, or averaged), else NULL */
	bcTieSpot* spots;     /* one per cast when ties are listed, else NULL */
} bcBatch;

/* Room for need contacts in pool; false when memory runs out. */
static bool growPool(bcTiePool* pool, size_t need)
{
	if (pool->capacity >= need) {
		return true;
	}
	size_t grown = pool->capacity > 0 ? 2 * pool->capacity : BC_BATCH_POOL_START;
	grown = grown > need ? grown : need;
	bcContact* contacts = bcRealloc(pool->contacts, grown * sizeof *contacts);
	if (contacts == NULL) {
		return false;
	}
	pool->contacts = contacts;
	pool->capacity = grown;
	return true;
}

/* Cast i of the batch with its ties collected in the worker's pool (kept
 * there when the batch lists them); the number of them, or -1 when memory
 * runs out. */
static int castCollecting(const bcBatch* batch, int i, bcTiePool* pool, size_t at)
{
	bcCastOutput* out = batch->outputs + i;
	if (!growPool(pool, at + 1)) {
		return -1;
	}
	size_t room = pool->capacity - at;
	int capacity = room < INT32_MAX ? (int)room : INT32_MAX;
	int n = bcMesh_CastTies(batch->mesh, batch->inputs[i], &batch->cast, out, pool->contacts + at, capacity);
	if (n > capacity) {
		/* grow and ask again: the same answer, all of it */
		if (!growPool(pool, at + (size_t)n)) {
			return -1;
		}
		n = bcMesh_CastTies(batch->mesh, batch->inputs[i], &batch->cast, out, pool->contacts + at, n);
	}
	return n;
}

/* Cast i of the batch, by worker. */
static void castOne(const bcBatch* batch, int i, int worker)
{
	bcCastOutput* out = batch->outputs + i;
	if (batch->pools == NULL) {
		*out = bcMesh_Cast(batch->mesh, batch->inputs[i], &batch->cast);
		out->normal = bcMesh_CastNormal(batch->mesh, out, NULL, 0, batch->normal);
		return;
	}
	bcTiePool* pool = batch->pools + worker;
	size_t at = batch->spots != NULL ? pool->count : 0;
	int n = castCollecting(batch, i, pool, at);
	if (n < 0) {
		*out = (bcCastOutput)BC_NO_CONTACT(bc_castInvalid);
		out->state = bc_castNoMemory;
		n = 0;
	}
	out->normal = bcMesh_CastNormal(batch->mesh, out, pool->contacts + at, n, batch->normal);
	if (batch->spots != NULL) {
		bcTieSpot spot = { worker, n, at };
		batch->spots[i] = spot;
		pool->count += (size_t)n;
	}
}

/* A parallel-for block: the casts at positions [begin, end) of the order. */
static void castBlock(int begin, int end, int worker, void* context)
{
	const bcBatch* batch = context;
	for (int k = begin; k < end; ++k) {
		castOne(batch, batch->order != NULL ? batch->order[k] : k, worker);
	}
}

/* The batch's casts in space order, window by window; NULL (input order)
 * when memory is short or the batch is small. The caller frees it. */
static int32_t* spaceOrder(const bcCastInput* inputs, int count)
{
	if (count < BC_BATCH_MIN_SORT) {
		return NULL;
	}
	int32_t window = count < BC_BATCH_WINDOW ? count : BC_BATCH_WINDOW;
	int32_t* order = bcAlloc((size_t)count * sizeof *order);
	uint32_t* keys = bcAlloc((size_t)window * sizeof *keys);
	int32_t* scratch = bcAlloc((size_t)window * sizeof *scratch);
	if (order == NULL || keys == NULL || scratch == NULL) {
		bcFree(order);
		bcFree(keys);
		bcFree(scratch);
		return NULL;
	}
	for (int32_t first = 0; first < count; first += window) {
		int32_t n = count - first < window ? count - first : window;
		bcMortonOrder(inputs + first, n, order + first, keys, scratch);
		/* it numbers the window's casts from 0 */
		for (int32_t i = first; i < first + n; ++i) {
			order[i] += first;
		}
	}
	bcFree(keys);
	bcFree(scratch);
	return order;
}

/* The list of a batch's ties, gathered from the workers' pools in input
 * order, or NULL when memory runs out (error filled). */
static bcTieList* gatherTies(const bcBatch* batch, int count, bcError* error)
{
	bcTieList* list = bcAllocZeroed(1, sizeof *list);
	size_t* first = bcAlloc(((size_t)count + 1) * sizeof *first);
	size_t total = 0;
	for (int i = 0; i < count; ++i) {
		total += (size_t)batch->spots[i].count;
	}
	bcContact* contacts = bcAlloc((total > 0 ? total : 1) * sizeof *contacts);
	if (list == NULL || first == NULL || contacts == NULL) {
		bcFree(list);
		bcFree(first);
		bcFree(contacts);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory gathering %zu tied contacts", total);
		return NULL;
	}
	first[0] = 0;
	for (int i = 0; i < count; ++i) {
		const bcTieSpot* spot = batch->spots + i;
		first[i + 1] = first[i] + (size_t)spot->count;
		if (spot->count > 0) {
			memcpy(contacts + first[i], batch->pools[spot->pool].contacts + spot->at,
				   (size_t)spot->count * sizeof *contacts);
		}
	}
	list->contacts = contacts;
	list->contactCount = total;
	list->first = first;
	list->castCount = count;
	return list;
}

bcBatchOptions bcDefaultBatchOptions(void)
{
	bcBatchOptions options;
	memset(&options, 0, sizeof options);
	options.cast = bcDefaultCastOptions();
	options.normal = bc_normalContact;
	options.threadCount = 0;
	return options;
}

void bcTieList_Destroy(bcTieList* list)
{
	if (list == NULL) {
		return;
	}
	bcFree(list->contacts);
	bcFree(list->first);
	bcFree(list);
}

bool bcMesh_CastBatchWithOptions(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
								 const bcBatchOptions* options, bcTieList** ties, bcError* error)
{
	bcBatchOptions settings = options != NULL ? *options : bcDefaultBatchOptions();
	count = count > 0 ? count : 0;
	if (ties != NULL) {
		*ties = NULL;
	}
	int threads = bcThreadCountFor(settings.threadCount, count, BC_MIN_CASTS_PER_THREAD);
	int workers = bcParallelWorkerCount(count, BC_BATCH_BLOCK, threads);
	bool collect = ties != NULL || settings.normal == bc_normalAverage;
	bcTiePool* pools = collect ? bcAllocZeroed((size_t)workers, sizeof *pools) : NULL;
	bcTieSpot* spots = ties != NULL ? bcAlloc((size_t)(count > 0 ? count : 1) * sizeof *spots) : NULL;
	if ((collect && pools == NULL) || (ties != NULL && spots == NULL)) {
		bcFree(pools);
		bcFree(spots);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory casting a batch");
		return false;
	}
	int32_t* order = spaceOrder(inputs, count);
	bcBatch batch = { mesh, inputs, outputs, settings.cast, settings.normal, order, pools, spots };
	bcParallelFor(count, BC_BATCH_BLOCK, threads, castBlock, &batch);
	bcFree(order);
	bool ok = true;
	if (ties != NULL) {
		*ties = gatherTies(&batch, count, error);
		ok = *ties != NULL;
	}
	for (int w = 0; pools != NULL && w < workers; ++w) {
		bcFree(pools[w].contacts);
	}
	bcFree(pools);
	bcFree(spots);
	return ok;
}

void bcMesh_CastBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
					  const bcCastOptions* options, int threadCount)
{
	bcBatchOptions settings = bcDefaultBatchOptions();
	settings.cast = options != NULL ? *options : settings.cast;
	settings.threadCount = threadCount;
	/* no ties, the contact normal: nothing to allocate that can fail */
	bcMesh_CastBatchWithOptions(mesh, inputs, outputs, count, &settings, NULL, NULL);
}

bcTieList* bcMesh_CastBatchTies(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
								const bcBatchOptions* options, bcError* error)
{
	bcTieList* list = NULL;
	bcMesh_CastBatchWithOptions(mesh, inputs, outputs, count, options, &list, error);
	return list;
}
