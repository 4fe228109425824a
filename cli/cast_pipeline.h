/* cast_pipeline.h - cast's threaded pipeline: trajectories read in chunks,
 * each record checked (answer.h), each chunk answered by the library's
 * batch (bcMesh_CastBatchWithOptions, the exact method) or by the answer
 * module (the discrete method), the results formatted on every thread and
 * written in input order, byte for byte what casting them one by one would
 * write. Memory is a few chunks, whatever the input. Its threads are the
 * CLI's only ones: reading, parsing, formatting and writing go on beside
 * the batch, which runs on threads the library starts. */
#ifndef BC_CAST_PIPELINE_H
#define BC_CAST_PIPELINE_H

#include <stdbool.h>

#include "answer.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "results_write.h"
#include "records.h"

/* Records read, cast and written together, by default (--batch): large
 * enough to keep every thread busy, small enough that memory does not grow
 * with the input. It is also the size of the library's batch, whose space
 * order (over windows of up to 65,536 casts) gains with it: 1 M short sweeps over the 1.3 M icosphere, JSON in and
 * out, 2 threads, took 4.1-4.4 s at 8,192, 3.7-4.1 at 32,768, 3.5-3.8 at
 * 65,536 and no less at 131,072 or 262,144 (peak memory 513, 519, 647, 904
 * and 1350 MB). A record costs about 640 bytes in each of the
 * CLI_CAST_SLOTS chunks in flight, touched only as records fill them. */
#define CLI_CAST_CHUNK 65536

/* The largest --batch: 2^20 records, some 2.7 GB in flight. */
#define CLI_CAST_MAX_CHUNK (1 << 20)

/* What a run casts and how; everything it points to is the caller's and
 * outlives the pipeline. */
typedef struct cliCastPipelineDef {
	const bcMesh* mesh;
	const cliCastSettings* settings; /* after cliCastSettings_Finish */
	const cliCommonOptions* common;  /* -r for records without r; --max-errors and -q for messages */
	bool ties;                       /* results list their tied contacts (--ties) */
	bool compareExact;               /* --compare-exact: the exact cast beside the discrete one */
	int batch;                       /* records per chunk (--batch), 1 .. CLI_CAST_MAX_CHUNK */
	int threads;                     /* threads that run it (and the library's batch), >= 1 */
	cliReader* reader;               /* the trajectories, nothing read from them yet */
	const char* inputName;           /* as messages name the input */
	cliProgress* progress;           /* the run's progress line, started */
} cliCastPipelineDef;

/* CPU seconds spent on each part, summed over threads (--stats). */
typedef struct cliCastTimes {
	double read, parse, query, format, write;
} cliCastTimes;

typedef struct cliCastPipeline cliCastPipeline;

/* A pipeline for def with its chunks and threads' parsers allocated, or
 * NULL when memory runs out. The caller owns it (cliCastPipeline_Destroy). */
cliCastPipeline* cliCastPipeline_Create(const cliCastPipelineDef* def);

/* Read, answer and write every record: head (what the writer began with)
 * goes out with the first chunk, then each chunk's results, formatted by
 * writer, in input order; bad records are reported on stderr as they are
 * written. A filter (output->streaming) answers what it has before it
 * waits for more input. Returns cli_exitOk, or cli_exitTrouble when a read,
 * parse or write error (reported) or lack of memory stopped the run;
 * nothing is committed or aborted here. */
int cliCastPipeline_Run(cliCastPipeline* p, cliOutput* output, const cliCastWriter* writer, cliBuffer* head);

/* The counts of the records written so far. */
const cliCastSummary* cliCastPipeline_GetSummary(const cliCastPipeline* p);

/* The times spent so far. */
const cliCastTimes* cliCastPipeline_GetTimes(const cliCastPipeline* p);

/* Free the pipeline (NULL is fine); the reader, output and mesh are left. */
void cliCastPipeline_Destroy(cliCastPipeline* p);

#endif
