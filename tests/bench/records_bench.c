/* records_bench.c - the record reader alone (cli/records.c on the JSON front
 * end and the CSV reader), as `cast` drives it: on one thread, values taken
 * with cliReader_NextDeferred a chunk at a time, then each finished with
 * cliRecord_Parse. Prints one line:
 *   records: N records, E bad, checksum C, T CPU s, R records/s
 * The checksum (a sum over every good record's coordinates, radius and id
 * length) tells two builds read the same values.
 *   records_bench FILE [ROUNDS]   the best of ROUNDS reads (default 3)
 * Build: make build/bench/records_bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "records.h"

enum {
	chunkRecords = 8192,
	defaultRounds = 3
};

static double cpuSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One read of path: 0, or 1 when it cannot be read. */
static int readOnce(const char* path, long* count, long* bad, double* checksum, double* seconds)
{
	FILE* f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return 1;
	}
	double start = cpuSeconds();
	cliReader* reader = cliReader_Create(f, path, cli_inputAuto);
	cliJsonParser* parser = cliJsonParser_Create();
	cliRecord* records = calloc(chunkRecords, sizeof *records);
	cliRecordText text = { 0 };
	if (reader == NULL || parser == NULL || records == NULL) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	*count = 0;
	*bad = 0;
	*checksum = 0.0;
	int status = 1;
	while (status > 0) {
		int n = 0;
		cliRecordText_Clear(&text);
		bcError error;
		while (n < chunkRecords && (status = cliReader_NextDeferred(reader, records + n, &text, &error)) > 0) {
			n++;
		}
		if (status < 0) {
			fprintf(stderr, "%s:%ld:%ld: %s\n", path, error.line, error.column, error.message);
			return 1;
		}
		for (int k = 0; k < n; ++k) {
			cliRecord* r = records + k;
			if (cliRecord_Parse(r, &text, parser, &error) < 0) {
				fprintf(stderr, "%s\n", error.message);
				return 1;
			}
			if (r->error[0] != '\0') {
				*bad += 1;
			} else {
				*checksum += r->p0.x + r->p0.y + r->p0.z + r->p1.x + r->p1.y + r->p1.z + r->radius +
							 (double)(r->id != NULL ? strlen(r->id) : 0);
			}
			cliRecord_Free(r);
		}
		*count += n;
	}
	*seconds = cpuSeconds() - start;
	cliRecordText_Free(&text);
	free(records);
	cliJsonParser_Destroy(parser);
	cliReader_Destroy(reader);
	fclose(f);
	return 0;
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: records_bench FILE [ROUNDS]\n");
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : defaultRounds;
	double best = 0.0;
	long count = 0, bad = 0;
	double checksum = 0.0;
	for (int k = 0; k < (rounds > 0 ? rounds : 1); ++k) {
		double seconds = 0.0;
		if (readOnce(argv[1], &count, &bad, &checksum, &seconds) != 0) {
			return 1;
		}
		best = k == 0 || seconds < best ? seconds : best;
	}
	printf("records: %ld records, %ld bad, checksum %.17g, %.3f CPU s, %.0f records/s\n", count, bad, checksum, best,
		   best > 0.0 ? (double)count / best : 0.0);
	return 0;
}
