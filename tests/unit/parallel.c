/* parallel.c - unit tests for the one parallel-for (lib/parallel.h): every
 * item runs exactly once, in blocks of the size asked, on the workers
 * counted beforehand, whatever the number of threads. */
#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "ballcast.h"
#include "parallel.h"

/* What the task saw: per item, how often it ran and by which worker; per
 * worker, how many blocks it took. */
typedef struct testLog {
	int count;
	int blockSize;
	atomic_int* runs;
	int* worker;
	atomic_int blocks[BC_MAX_THREADS];
	atomic_int badBlocks;
} testLog;

static void logBlock(int begin, int end, int worker, void* context)
{
	testLog* log = context;
	/* a block starts at a multiple of the size and is full unless last */
	bool aligned = begin % log->blockSize == 0 && begin < end &&
				   (end - begin == log->blockSize || end == log->count) && end - begin <= log->blockSize;
	if (!aligned || worker < 0 || worker >= BC_MAX_THREADS) {
		atomic_fetch_add(&log->badBlocks, 1);
		return;
	}
	atomic_fetch_add(&log->blocks[worker], 1);
	for (int i = begin; i < end; ++i) {
		atomic_fetch_add(&log->runs[i], 1);
		log->worker[i] = worker;
	}
}

static void runAndCheck(int count, int blockSize, int threads)
{
	testLog log;
	memset(&log, 0, sizeof log);
	log.count = count;
	log.blockSize = blockSize > 0 ? blockSize : 1;
	log.runs = calloc((size_t)(count > 0 ? count : 1), sizeof *log.runs);
	log.worker = calloc((size_t)(count > 0 ? count : 1), sizeof *log.worker);
	ck_assert_ptr_nonnull(log.runs);
	ck_assert_ptr_nonnull(log.worker);
	int expected = bcParallelWorkerCount(count, blockSize, threads);
	int workers = bcParallelFor(count, blockSize, threads, logBlock, &log);
	ck_assert_int_eq(workers, expected);
	ck_assert_int_eq(atomic_load(&log.badBlocks), 0);
	for (int i = 0; i < count; ++i) {
		ck_assert_msg(atomic_load(&log.runs[i]) == 1, "item %d of %d ran %d times", i, count,
					  atomic_load(&log.runs[i]));
		ck_assert_int_lt(log.worker[i], workers);
	}
	int blocks = 0;
	for (int w = 0; w < BC_MAX_THREADS; ++w) {
		blocks += atomic_load(&log.blocks[w]);
		if (w >= workers) {
			ck_assert_int_eq(atomic_load(&log.blocks[w]), 0);
		}
	}
	int size = log.blockSize;
	ck_assert_int_eq(blocks, count > 0 ? (count + size - 1) / size : 0);
	free(log.runs);
	free(log.worker);
}

START_TEST(everyItemOnce)
{
	const int counts[] = { 0, 1, 2, 7, 64, 65, 1000, 10007 };
	const int sizes[] = { 0, 1, 3, 64, 1000, 200000 };
	const int threads[] = { 0, 1, 2, 3, 8 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
			for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
				runAndCheck(counts[c], sizes[s], threads[t]);
			}
		}
	}
	/* more threads asked than allowed: capped, still every item once */
	runAndCheck(10007, 1, 1000);
}
END_TEST

START_TEST(workerCounts)
{
	/* one per block at most, the threads asked for at most */
	ck_assert_int_eq(bcParallelWorkerCount(10, 1, 4), 4);
	ck_assert_int_eq(bcParallelWorkerCount(10, 5, 4), 2);
	ck_assert_int_eq(bcParallelWorkerCount(11, 5, 4), 3);
	ck_assert_int_eq(bcParallelWorkerCount(0, 5, 4), 1);
	ck_assert_int_eq(bcParallelWorkerCount(-3, 5, 4), 1);
	ck_assert_int_eq(bcParallelWorkerCount(100, 1, 1), 1);
	ck_assert_int_eq(bcParallelWorkerCount(100000, 1, 100000), BC_MAX_THREADS);
	/* a block size below 1 is 1 */
	ck_assert_int_eq(bcParallelWorkerCount(3, 0, 8), 3);
	ck_assert_int_eq(bcParallelWorkerCount(3, -2, 8), 3);
}
END_TEST

START_TEST(threadCounts)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int online = cores < 1 ? 1 : (cores > BC_MAX_THREADS ? BC_MAX_THREADS : (int)cores);
	ck_assert_int_eq(bcThreadCount(0), online);
	ck_assert_int_eq(bcThreadCount(-5), online);
	ck_assert_int_eq(bcThreadCount(1), 1);
	ck_assert_int_eq(bcThreadCount(3), 3);
	ck_assert_int_eq(bcThreadCount(BC_MAX_THREADS + 1), BC_MAX_THREADS);
}
END_TEST

/* The calling thread is worker 0: with one thread it runs every block, in
 * order. */
typedef struct testOrder {
	int next;
	bool inOrder;
	bool onlyWorkerZero;
} testOrder;

static void checkOrder(int begin, int end, int worker, void* context)
{
	testOrder* order = context;
	order->inOrder = order->inOrder && begin == order->next;
	order->onlyWorkerZero = order->onlyWorkerZero && worker == 0;
	order->next = end;
}

START_TEST(oneThreadRunsInOrder)
{
	testOrder order = { 0, true, true };
	ck_assert_int_eq(bcParallelFor(1000, 7, 1, checkOrder, &order), 1);
	ck_assert(order.inOrder);
	ck_assert(order.onlyWorkerZero);
	ck_assert_int_eq(order.next, 1000);
}
END_TEST

static Suite* parallelSuite(void)
{
	Suite* suite = suite_create("parallel");
	TCase* core = tcase_create("core");
	tcase_set_timeout(core, 60);
	tcase_add_test(core, everyItemOnce);
	tcase_add_test(core, workerCounts);
	tcase_add_test(core, threadCounts);
	tcase_add_test(core, oneThreadRunsInOrder);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(parallelSuite());
}
