/* common.c - error reporting and helpers shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h>

#include "cli.h"

void cliReportError(const char* file, const bcError* error)
{
	if (error->line > 0) {
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", file, error->line, error->column, error->message);
	} else {
		fprintf(stderr, "ballcast: %s: %s\n", file, error->message);
	}
}

int cliFinishStdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return cli_exitOk;
	}
	fprintf(stderr, "ballcast: standard output: write error: %s\n", strerror(errno != 0 ? errno : EIO));
	return cli_exitTrouble;
}

bcMesh* cliLoadMesh(const char* path, int quiet)
{
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_LoadObj(path, &error);
	if (mesh == NULL) {
		cliReportError(path, &error);
		return NULL;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount > 0 && !quiet) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		fprintf(stderr, "ballcast: %s: %ld degenerate (zero-area) triangle%s skipped, the first is triangle %ld (face %ld)\n",
				path, (long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
}

int cliParseDouble(const char* text, double* value)
{
	char* end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != 0 || errno == ERANGE || !isfinite(v)) {
		return 0;
	}
	*value = v;
	return 1;
}

int cliParseInt(const char* text, int* value)
{
	char* end = NULL;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end != 0 || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		return 0;
	}
	*value = (int)v;
	return 1;
}

/* Ranges smaller than this are not worth a thread. */
#define CLI_MIN_ITEMS_PER_THREAD 32

/* More threads than this are not started; a larger machine splits the batch. */
#define CLI_MAX_THREADS 256

typedef struct cliRange {
	cliRangeFcn* fn;
	void* context;
	int begin, end;
} cliRange;

static void* runRange(void* arg)
{
	cliRange* range = arg;
	range->fn(range->context, range->begin, range->end);
	return NULL;
}

void cliParallelFor(int count, int threads, cliRangeFcn* fn, void* context)
{
	if (threads <= 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cores > 0 ? (int)cores : 1;
	}
	threads = threads > CLI_MAX_THREADS ? CLI_MAX_THREADS : threads;
	int useful = count / CLI_MIN_ITEMS_PER_THREAD;
	threads = threads > useful ? (useful > 1 ? useful : 1) : threads;
	cliRange ranges[CLI_MAX_THREADS];
	pthread_t ids[CLI_MAX_THREADS];
	bool started[CLI_MAX_THREADS];
	for (int i = 0; i < threads; ++i) {
		ranges[i].fn = fn;
		ranges[i].context = context;
		ranges[i].begin = (int)((long long)count * i / threads);
		ranges[i].end = (int)((long long)count * (i + 1) / threads);
		started[i] = i > 0 && pthread_create(&ids[i], NULL, runRange, &ranges[i]) == 0;
	}
	for (int i = 0; i < threads; ++i) {
		if (!started[i]) {
			runRange(&ranges[i]);
		}
	}
	for (int i = 1; i < threads; ++i) {
		if (started[i]) {
			pthread_join(ids[i], NULL);
		}
	}
}

double cliNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

long long cliPeakMemory(void)
{
	struct rusage usage;
	if (getrusage(RUSAGE_SELF, &usage) != 0) {
		return 0;
	}
	return (long long)usage.ru_maxrss * 1024;
}
