/* core.c - unit tests for what the library's files share (lib/core.c): the
 * allocator hook, errors, feature names, the thread-count policy. */
#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "core.h"
#include "harness.h"

/* ---------------------------------------------------- a counting allocator */

/* Every block the library holds, with its size: a block freed that is not
 * here, or one still here at the end, is a mistake. */
typedef struct testBlock {
	void* memory;
	size_t size;
} testBlock;

typedef struct testAllocator {
	pthread_mutex_t mutex;
	testBlock* live;
	size_t liveCount;
	size_t liveCapacity;
	long allocs;      /* blocks given out by alloc */
	long reallocs;    /* realloc calls */
	long frees;       /* blocks given back by free */
	long foreign;     /* frees or reallocs of memory this allocator never gave */
	long misaligned;  /* blocks not aligned as asked */
	size_t peakBytes; /* most bytes held at once */
	size_t bytes;     /* bytes held now */
} testAllocator;

static testAllocator counter = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

/* Called with the mutex held. */
static void rememberBlock(testAllocator* a, void* memory, size_t size)
{
	if (a->liveCount == a->liveCapacity) {
		a->liveCapacity = a->liveCapacity > 0 ? 2 * a->liveCapacity : 1024;
		a->live = realloc(a->live, a->liveCapacity * sizeof *a->live);
		ck_assert_ptr_nonnull(a->live);
	}
	a->live[a->liveCount++] = (testBlock){ memory, size };
	a->bytes += size;
	a->peakBytes = a->bytes > a->peakBytes ? a->bytes : a->peakBytes;
}

/* Called with the mutex held: forget memory; false when it is not live. */
static bool forgetBlock(testAllocator* a, void* memory)
{
	for (size_t i = a->liveCount; i-- > 0;) {
		if (a->live[i].memory == memory) {
			a->bytes -= a->live[i].size;
			a->live[i] = a->live[--a->liveCount];
			return true;
		}
	}
	return false;
}

static void* countingAlloc(size_t size, size_t alignment, void* context)
{
	testAllocator* a = context;
	void* memory = alignment <= alignof(max_align_t) ? malloc(size) : aligned_alloc(alignment, size);
	pthread_mutex_lock(&a->mutex);
	if (memory != NULL) {
		a->allocs += 1;
		a->misaligned += (uintptr_t)memory % alignment != 0 || (alignment > alignof(max_align_t) && size % alignment != 0);
		rememberBlock(a, memory, size);
	}
	pthread_mutex_unlock(&a->mutex);
	return memory;
}

static void* countingRealloc(void* memory, size_t size, void* context)
{
	testAllocator* a = context;
	pthread_mutex_lock(&a->mutex);
	a->reallocs += 1;
	if (memory != NULL && !forgetBlock(a, memory)) {
		a->foreign += 1;
		pthread_mutex_unlock(&a->mutex);
		return NULL;
	}
	void* grown = realloc(memory, size);
	if (grown != NULL) {
		if (memory == NULL) {
			a->allocs += 1;
		}
		rememberBlock(a, grown, size);
	} else if (memory != NULL) {
		rememberBlock(a, memory, 0); /* still held, size no longer known */
	}
	pthread_mutex_unlock(&a->mutex);
	return grown;
}

static void countingFree(void* memory, void* context)
{
	testAllocator* a = context;
	pthread_mutex_lock(&a->mutex);
	if (memory == NULL || !forgetBlock(a, memory)) {
		a->foreign += 1;
		pthread_mutex_unlock(&a->mutex);
		return;
	}
	a->frees += 1;
	pthread_mutex_unlock(&a->mutex);
	free(memory);
}

static void installCounter(void)
{
	bcAllocator allocator = { countingAlloc, countingRealloc, countingFree, &counter };
	bcSetAllocator(&allocator);
}

static bcMesh* loadBunny(const bcObjOptions* options)
{
	const char* dir = getenv("BALLCAST_MESHES");
	char path[4096];
	snprintf(path, sizeof path, "%s/stanford-bunny.obj", dir != NULL ? dir : "tests/data/meshes");
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj(path, options, &error);
	ck_assert_msg(mesh != NULL, "%s: %s", path, error.message);
	return mesh;
}

/* Load a real mesh on several threads, cast a batch at it on several
 * threads, with and without ties, cast single balls with their ties,
 * destroy: every block came
 * from the hook, every one went back to it, none was given back twice. */
START_TEST(every_allocation_goes_through_the_hook)
{
	installCounter();
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = 4;
	bcMesh* mesh = loadBunny(&options);
	long afterLoad = counter.allocs;
	ck_assert_int_gt(afterLoad, 3); /* arrays, hierarchy, at least */
	ck_assert_uint_gt(counter.bytes, 70000 * 3 * sizeof(int32_t)); /* the triangles, held */

	bcMeshInfo info = bcMesh_GetInfo(mesh);
	enum { n = 2000 };
	static bcCastInput in[n];
	static bcCastOutput out[n];
	bcVec3 size = { info.upperBound.x - info.lowerBound.x, info.upperBound.y - info.lowerBound.y,
					info.upperBound.z - info.lowerBound.z };
	for (int i = 0; i < n; ++i) {
		double u = (i + 0.5) / n;
		in[i].p0 = (bcVec3){ info.lowerBound.x - size.x, info.lowerBound.y + u * size.y,
							 info.lowerBound.z + (1 - u) * size.z };
		in[i].p1 = (bcVec3){ info.upperBound.x + size.x, info.upperBound.y - u * size.y,
							 info.lowerBound.z + u * size.z };
		in[i].radius = i % 2 == 0 ? 0.0 : 0.001 * (i % 7);
	}
	/* more casts than the batch leaves in input order: its space order
	 * allocates */
	bcMesh_CastBatch(mesh, in, out, n, NULL, 4);
	int hits = 0;
	for (int i = 0; i < n; ++i) {
		hits += out[i].state == bc_castHit;
	}
	ck_assert_int_gt(hits, n / 4);
	ck_assert_int_gt(counter.allocs, afterLoad);
	bcBatchOptions batchOptions = bcDefaultBatchOptions();
	batchOptions.normal = bc_normalAverage;
	batchOptions.threadCount = 4;
	bcTieList* list = bcMesh_CastBatchTies(mesh, in, out, n, &batchOptions, NULL);
	ck_assert_ptr_nonnull(list);
	ck_assert_uint_ge(list->contactCount, (size_t)hits);
	bcTieList_Destroy(list);
	bcContact ties[8];
	for (int i = 0; i < 20; ++i) {
		bcCastOutput single;
		bcMesh_CastTies(mesh, in[i], NULL, &single, ties, 8);
	}
	bcMesh_Destroy(mesh);

	pthread_mutex_lock(&counter.mutex);
	ck_assert_int_eq(counter.foreign, 0);
	ck_assert_int_eq(counter.misaligned, 0);
	ck_assert_msg(counter.liveCount == 0, "%zu blocks never freed", counter.liveCount);
	ck_assert_int_eq(counter.frees, counter.allocs);
	ck_assert_uint_eq(counter.bytes, 0);
	pthread_mutex_unlock(&counter.mutex);
	bcSetAllocator(NULL);
}
END_TEST

/* A failure (a bad file) frees what it took, through the hook too. */
START_TEST(a_failed_load_gives_everything_back)
{
	installCounter();
	const char text[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n";
	bcError error;
	bcMesh* mesh = bcMesh_ParseObj(text, sizeof text - 1, NULL, &error);
	ck_assert_ptr_null(mesh);
	ck_assert_int_eq(error.code, bc_errorIndex);
	ck_assert_int_eq(error.line, 5);
	ck_assert_int_gt(counter.allocs, 0);
	ck_assert_int_eq(counter.frees, counter.allocs);
	ck_assert_int_eq(counter.foreign, 0);
	bcSetAllocator(NULL);
}
END_TEST

/* An allocator that refuses everything: a load fails cleanly with
 * bc_errorNoMemory instead of using the C library behind its back. */
static void* refuseAlloc(size_t size, size_t alignment, void* context)
{
	(void)size;
	(void)alignment;
	*(long*)context += 1;
	return NULL;
}

static void* refuseRealloc(void* memory, size_t size, void* context)
{
	(void)memory;
	(void)size;
	*(long*)context += 1;
	return NULL;
}

static void refuseFree(void* memory, void* context)
{
	(void)memory;
	(void)context;
	ck_abort_msg("freed a block it was never given");
}

START_TEST(an_allocator_that_refuses_makes_loads_fail)
{
	long asked = 0;
	bcAllocator allocator = { refuseAlloc, refuseRealloc, refuseFree, &asked };
	bcSetAllocator(&allocator);
	const char text[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
	bcError error;
	bcMesh* mesh = bcMesh_ParseObj(text, sizeof text - 1, NULL, &error);
	ck_assert_ptr_null(mesh);
	ck_assert_int_eq(error.code, bc_errorNoMemory);
	ck_assert_int_gt(asked, 0);
	/* a half-given allocator is no allocator: back to the C library */
	allocator.free = NULL;
	bcSetAllocator(&allocator);
	mesh = bcMesh_ParseObj(text, sizeof text - 1, NULL, &error);
	ck_assert_ptr_nonnull(mesh);
	bcMesh_Destroy(mesh);
	bcSetAllocator(NULL);
}
END_TEST

/* An allocator that gives until its gate closes, then refuses. */
typedef struct testGate {
	bool open;
	long refused;
} testGate;

static void* gateAlloc(size_t size, size_t alignment, void* context)
{
	testGate* gate = context;
	if (!gate->open) {
		gate->refused += 1;
		return NULL;
	}
	return alignment <= alignof(max_align_t) ? malloc(size) : aligned_alloc(alignment, size);
}

static void* gateRealloc(void* memory, size_t size, void* context)
{
	testGate* gate = context;
	if (!gate->open) {
		gate->refused += 1;
		return NULL;
	}
	return realloc(memory, size);
}

static void gateFree(void* memory, void* context)
{
	(void)context;
	free(memory);
}

/* A batch that cannot get memory for itself says so (false, the error,
 * no list) when it must list or average ties; without them it needs
 * nothing that can fail (its space order falls back to input order) and
 * answers every cast as it does with memory. */
START_TEST(a_batch_without_memory_says_so)
{
	testGate gate = { true, 0 };
	bcAllocator allocator = { gateAlloc, gateRealloc, gateFree, &gate };
	bcSetAllocator(&allocator);
	bcMesh* mesh = loadBunny(NULL);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 size = bcSub(info.upperBound, info.lowerBound);
	enum { n = 2000 };
	static bcCastInput in[n];
	static bcCastOutput expected[n], out[n];
	for (int i = 0; i < n; ++i) {
		double u = (i + 0.5) / n;
		in[i].p0 = bcMakeVec3(info.lowerBound.x - size.x, info.lowerBound.y + u * size.y, info.upperBound.z);
		in[i].p1 = bcMakeVec3(info.upperBound.x + size.x, info.upperBound.y - u * size.y, info.lowerBound.z);
		in[i].radius = 0.002 * (i % 5);
	}
	bcMesh_CastBatch(mesh, in, expected, n, NULL, 2);
	gate.open = false;
	bcBatchOptions options = bcDefaultBatchOptions();
	options.threadCount = 2;
	bcTieList placeholder;
	bcTieList* list = &placeholder;
	bcError error;
	memset(&error, 0, sizeof error);
	ck_assert(!bcMesh_CastBatchWithOptions(mesh, in, out, n, &options, &list, &error));
	ck_assert_ptr_null(list);
	ck_assert_int_eq(error.code, bc_errorNoMemory);
	ck_assert_ptr_null(bcMesh_CastBatchTies(mesh, in, out, n, &options, NULL));
	options.normal = bc_normalAverage;
	memset(&error, 0, sizeof error);
	ck_assert(!bcMesh_CastBatchWithOptions(mesh, in, out, n, &options, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorNoMemory);
	options.normal = bc_normalContact;
	memset(out, 0xff, sizeof out);
	ck_assert(bcMesh_CastBatchWithOptions(mesh, in, out, n, &options, NULL, NULL));
	int hits = 0;
	for (int i = 0; i < n; ++i) {
		ck_assert_int_eq(out[i].state, expected[i].state);
		ck_assert(out[i].alpha == expected[i].alpha);
		ck_assert_int_eq(out[i].triangle, expected[i].triangle);
		ck_assert(memcmp(&out[i].normal, &expected[i].normal, sizeof out[i].normal) == 0);
		hits += out[i].state == bc_castHit;
	}
	ck_assert_int_gt(hits, n / 4);
	ck_assert_int_gt(gate.refused, 0);
	gate.open = true;
	bcMesh_Destroy(mesh);
	bcSetAllocator(NULL);
}
END_TEST

START_TEST(allocation_helpers)
{
	installCounter();
	unsigned char* zeroed = bcAllocZeroed(100, 3);
	ck_assert_ptr_nonnull(zeroed);
	for (int i = 0; i < 300; ++i) {
		ck_assert_int_eq(zeroed[i], 0);
	}
	ck_assert_ptr_null(bcAllocZeroed(SIZE_MAX / 2, 3)); /* the product overflows */
	unsigned char* grown = bcRealloc(zeroed, 5000);
	ck_assert_ptr_nonnull(grown);
	ck_assert_int_eq(grown[299], 0);
	void* aligned = bcAllocAligned(100, 4096);
	ck_assert_ptr_nonnull(aligned);
	ck_assert_uint_eq((uintptr_t)aligned % 4096, 0);
	ck_assert_ptr_null(bcAllocAligned(SIZE_MAX - 10, 64));
	bcFree(grown);
	bcFree(aligned);
	bcFree(NULL);
	ck_assert_int_eq(counter.allocs, 2);
	ck_assert_int_eq(counter.frees, 2);
	ck_assert_int_eq(counter.misaligned, 0);
	ck_assert_uint_eq(counter.liveCount, 0);
	bcSetAllocator(NULL);
}
END_TEST

/* --------------------------------------------------------------- errors */

START_TEST(set_error_fills_every_field)
{
	bcError error;
	memset(&error, 0x55, sizeof error);
	bcSetError(&error, bc_errorSyntax, 12, 7, "expected %s, found '%c'", "a number", 'x');
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert_int_eq(error.line, 12);
	ck_assert_int_eq(error.column, 7);
	ck_assert_int_eq(error.record, -1);
	ck_assert_str_eq(error.message, "expected a number, found 'x'");
	/* a message longer than the field is cut, still terminated */
	char longText[400];
	memset(longText, 'a', sizeof longText - 1);
	longText[sizeof longText - 1] = '\0';
	bcSetError(&error, bc_errorValue, 0, 0, "%s", longText);
	ck_assert_uint_eq(strlen(error.message), sizeof error.message - 1);
	bcSetError(NULL, bc_errorIo, 1, 1, "ignored"); /* NULL is allowed */
}
END_TEST

START_TEST(feature_names)
{
	ck_assert_str_eq(bcFeatureName(bc_featureNone), "none");
	ck_assert_str_eq(bcFeatureName(bc_featureFace), "face");
	ck_assert_str_eq(bcFeatureName(bc_featureEdge), "edge");
	ck_assert_str_eq(bcFeatureName(bc_featureVertex), "vertex");
	ck_assert_str_eq(bcFeatureName((bcFeature)42), "none");
}
END_TEST

/* -------------------------------------------------------------- threads */

START_TEST(one_thread_count_policy)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int online = cores < 1 ? 1 : (cores > BC_MAX_THREADS ? BC_MAX_THREADS : (int)cores);
	ck_assert_int_eq(bcThreadCount(0), online);
	ck_assert_int_eq(bcThreadCount(-3), online);
	ck_assert_int_eq(bcThreadCount(5), 5);
	ck_assert_int_eq(bcThreadCount(BC_MAX_THREADS + 1), BC_MAX_THREADS);
	/* no more threads than the work has shares of itemsPerThread, never none */
	ck_assert_int_eq(bcThreadCountFor(16, 1000, 64), 15);
	ck_assert_int_eq(bcThreadCountFor(16, 100000, 64), 16);
	ck_assert_int_eq(bcThreadCountFor(16, 10, 64), 1);
	ck_assert_int_eq(bcThreadCountFor(16, 0, 64), 1);
	ck_assert_int_eq(bcThreadCountFor(1000, 1LL << 40, 1), BC_MAX_THREADS);
	ck_assert_int_eq(bcThreadCountFor(0, 1, 1), 1);
}
END_TEST

static Suite* coreSuite(void)
{
	Suite* s = suite_create("core");
	TCase* tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_allocation_goes_through_the_hook);
	tcase_add_test(tc, a_failed_load_gives_everything_back);
	tcase_add_test(tc, an_allocator_that_refuses_makes_loads_fail);
	tcase_add_test(tc, a_batch_without_memory_says_so);
	tcase_add_test(tc, allocation_helpers);
	tcase_add_test(tc, set_error_fills_every_field);
	tcase_add_test(tc, feature_names);
	tcase_add_test(tc, one_thread_count_policy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(coreSuite());
}
