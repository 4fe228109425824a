/* parallel.c - the library's one parallel-for (parallel.h): every thread the library starts is started here. */
#include "parallel.h"
#include "core.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

int bcParallelWorkerCount(int count, int blockSize, int threadCount)
{
	if (count <= 0) {
		return 1;
	}
	int size = blockSize > 0 ? blockSize : 1;
	int blocks = count / size + (count % size != 0);
	int workers = bcThreadCount(threadCount);
	return workers < blocks ? workers : blocks;
}

typedef struct bcParallelJob {
	int count;
	int blockSize;
	bcTaskFcn* task;
	void* context;
	atomic_int next; /* the next block to take */
} bcParallelJob;

typedef struct bcWorker {
	bcParallelJob* job;
	int index;
} bcWorker;

static void runBlocks(bcParallelJob* job, int worker)
{
	for (;;) {
		int block = atomic_fetch_add(&job->next, 1);
		long long begin = (long long)block * job->blockSize;
		if (begin >= job->count) {
			return;
		}
		long long end = begin + job->blockSize < job->count ? begin + job->blockSize : job->count;
		job->task((int)begin, (int)end, worker, job->context);
	}
}

static void* runWorker(void* argument)
{
	bcWorker* worker = argument;
	runBlocks(worker->job, worker->index);
	return NULL;
}

/* The least stack a started thread gets: the hierarchy's recursive build
 * takes about 1 KB per level, ~100 KB at its deepest, more than some
 * platforms' default thread stacks (musl's is 128 KB) leave in comfort.
 * A larger default (glibc's 8 MB) is kept. */
#define BC_MIN_THREAD_STACK ((size_t)1 << 20)

int bcParallelFor(int count, int blockSize, int threadCount, bcTaskFcn* task, void* context)
{
	if (count <= 0) {
		return 1;
	}
	bcParallelJob job = { count, blockSize > 0 ? blockSize : 1, task, context, 0 };
	atomic_init(&job.next, 0);
	int workers = bcParallelWorkerCount(count, job.blockSize, threadCount);
	pthread_t threads[BC_MAX_THREADS];
	bcWorker arguments[BC_MAX_THREADS];
	bool started[BC_MAX_THREADS];
	pthread_attr_t attributes;
	bool haveAttributes = workers > 1 && pthread_attr_init(&attributes) == 0;
	if (haveAttributes) {
		size_t stack = 0;
		if (pthread_attr_getstacksize(&attributes, &stack) == 0 && stack < BC_MIN_THREAD_STACK) {
			pthread_attr_setstacksize(&attributes, BC_MIN_THREAD_STACK);
		}
	}
	for (int i = 1; i < workers; ++i) {
		arguments[i] = (bcWorker){ &job, i };
		started[i] = pthread_create(threads + i, haveAttributes ? &attributes : NULL, runWorker, arguments + i) == 0;
	}
	if (haveAttributes) {
		pthread_attr_destroy(&attributes);
	}
	runBlocks(&job, 0);
	for (int i = 1; i < workers; ++i) {
		if (started[i]) {
			pthread_join(threads[i], NULL);
		}
	}
	return workers;
}
