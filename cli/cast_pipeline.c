/* cast_pipeline.c - cast's threaded pipeline (cast_pipeline.h): chunks of
 * records read, parsed and checked, answered (a chunk at a time by the
 * library's batch, or by the answer module's discrete method), formatted
 * on every thread, and written in input order, with its own lock and
 * condition variable. The CLI's one place that starts threads. */
#include "cast_pipeline.h"
#include "cli.h"
#include "common.h"
#include "progress.h"
#include "record_log.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* Records per task of the parse and format phases (and of the discrete
 * method's casts): 32 tasks per chunk and phase keep the threads evenly
 * busy (a slow block delays no other), and the lock that hands them out is
 * taken about once a millisecond. */
#define CLI_CAST_BLOCK 256

/* Chunks in flight: one being read, two being parsed, cast or formatted
 * and one being written; memory is these four chunks. */
#define CLI_CAST_SLOTS 4

/* Input is read in chunks of --batch records, and every chunk goes
 * through these tasks: read (delimit the records and copy their bytes; one
 * chunk at a time, in input order), three phases, and write (one chunk at a
 * time, in input order: report the chunk's bad records, write its blocks).
 * The phases, each begun when the one before has finished all its tasks:
 *
 *   parse   blocks of CLI_CAST_BLOCK records in input order, any thread
 *           each: parse the deferred records, check them (a bad record's
 *           throw is made of NaNs, which the batch answers as invalid at
 *           no cost);
 *   cast    the exact method: one task, the whole chunk cast by the
 *           library's batch (bcMesh_CastBatchWithOptions) on the -j
 *           threads, in the space order it chooses (the Morton order of
 *           the starts, over the chunk: consecutive casts walk the same
 *           part of the hierarchy while it is in the cache), with the
 *           normal and the tied contacts the options ask for; the discrete
 *           method (answer.c's own): blocks in input order, any thread each;
 *   format  blocks in input order: format the answers into the block's own
 *           buffer.
 *
 * Each answer is kept at its record's place, so the output is that of
 * casting in input order, byte for byte. The -j threads of the pipeline
 * are all alike: each takes the most urgent task there is (writing, then
 * reading ahead, then the tasks of the oldest chunk), so reading, parsing,
 * formatting and writing overlap the casts and no thread waits while there
 * is work. While one of them runs a chunk's batch, the library starts -j - 1
 * threads of its own for it, which share the cores with the pipeline's
 * other threads' reading and writing. At most CLI_CAST_SLOTS chunks are in
 * flight, so memory does not grow with the input.
 *
 * Threads: the library starts its own in lib/parallel.c and keeps that
 * private; the pipeline's -j - 1 threads beside the calling one are
 * started here (cliCastPipeline_Run), the CLI's one place that starts
 * threads. */

typedef enum cliSlotState {
	cli_slotFree = 0,
	cli_slotReading,
	cli_slotWorking, /* blocks of its phases still to run */
	cli_slotReady,   /* every phase done (or the parse failed): ready to write */
	cli_slotWriting
} cliSlotState;

typedef enum cliChunkPhase {
	cli_phaseParse = 0,
	cli_phaseCast,
	cli_phaseFormat
} cliChunkPhase;

/* Block b of input order: its parse and its formatted results. */
typedef struct cliBlock {
	cliBuffer text;      /* the formatted results */
	int failedAt;        /* the first record (in the chunk) whose parse failed, or -1 */
	bcError error;       /* its error */
	long hits, errors;
	long tunnelled;      /* --compare-exact: hit by the exact cast, missed by the discrete method */
} cliBlock;

/* A chunk of capacity records; its arrays have that many entries (blocks
 * one per CLI_CAST_BLOCK records), owned by it (cliChunk_Create,
 * cliChunk_Destroy). */
typedef struct cliChunk {
	int capacity;
	cliRecord* records;
	const char** problems;
	cliRecordText text;  /* the bytes of deferred records */
	cliBlock* blocks;
	/* each record's cast, at its place in input order */
	bcCastInput* inputs;   /* NaNs for bad records: the batch answers them invalid, and they stretch no box of its order */
	bcCastOutput* outputs;
	bcTieList* ties;       /* --ties: the batch's tied contacts, owned until the chunk is written; else NULL */
	bcCastOutput* exact;   /* --compare-exact: the exact cast's answers, else NULL */
	double* alphaFree;     /* --method discrete: each answer's last free alpha (alpha_free), else NULL */
	int count;
	long sequence;       /* chunks are numbered from 0 in input order */
	long first;          /* records before this chunk */
	bool last;           /* the input ends with this chunk (or with its error) */
	double read;         /* the fraction of the input read after it (< 0: unknown) */
	bool failed;         /* reading stopped at error after count records */
	bcError error;
	cliChunkPhase phase;
	int blockCount, nextBlock, blocksDone; /* the phase's tasks */
	cliSlotState state;
} cliChunk;

/* A thread's own. */
typedef struct cliWorker {
	struct cliCastPipeline* pipeline;
	cliJsonParser* parser;
} cliWorker;

struct cliCastPipeline {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	cliCastPipelineDef def;
	bcBatchOptions batch; /* the exact method's: how the library's batch casts a chunk */
	cliWorker* workers;  /* def.threads of them */
	cliRecordLog log;    /* bad records' messages */
	cliOutput* output;
	const cliCastWriter* writer;
	cliBuffer* head;     /* what goes before the results, written with the first chunk */
	cliChunk* slots[CLI_CAST_SLOTS];
	long readSequence;   /* the next chunk to read */
	long writeSequence;  /* the next chunk to write */
	long recordsRead;
	bool reading;        /* a thread is reading */
	bool writing;        /* a thread is writing */
	bool inputEnded;     /* the last chunk has been read */
	bool done;           /* nothing more to do: every thread leaves */
	atomic_bool stop;    /* an error: read, cast and write no more */
	bool lowLatency;     /* end a chunk early rather than wait for input */
	int status;          /* cli_exitTrouble once an error stopped the run */
	cliCastSummary summary;
	cliCastTimes times;  /* all but the query, which is the rest of the run's CPU time */
};

static double threadSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the whole process, every thread's. */
static double processSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The reader's question while it waits on a pipe. */
static bool keepWaiting(void* context)
{
	cliCastPipeline* p = context;
	return !atomic_load(&p->stop);
}

/* How many tasks phase of c has: blocks of CLI_CAST_BLOCK records, but a
 * single one for the exact method's casts (the library's batch). */
static int phaseTasks(const cliCastPipeline* p, const cliChunk* c, cliChunkPhase phase)
{
	if (phase == cli_phaseCast && !p->def.settings->discrete) {
		return c->count > 0 ? 1 : 0;
	}
	return (c->count + CLI_CAST_BLOCK - 1) / CLI_CAST_BLOCK;
}

/* Read the next chunk into c (task: one thread at a time). */
static void readChunk(cliCastPipeline* p, cliChunk* c)
{
	double t0 = threadSeconds();
	c->count = 0;
	c->last = false;
	c->failed = false;
	c->first = p->recordsRead;
	cliRecordText_Clear(&c->text);
	while (c->count < c->capacity && !atomic_load(&p->stop)) {
		/* a filter answers what it has before it waits for more */
		if (p->lowLatency && c->count > 0 && !cliReader_IsInputReady(p->def.reader)) {
			break;
		}
		int got = cliReader_NextDeferred(p->def.reader, c->records + c->count, &c->text, &c->error);
		if (got == 1) {
			c->count += 1;
			continue;
		}
		c->last = true;
		c->failed = got < 0;
		break;
	}
	p->recordsRead += c->count;
	c->read = cliReader_Progress(p->def.reader);
	c->blockCount = phaseTasks(p, c, cli_phaseParse);
	c->phase = cli_phaseParse;
	c->nextBlock = 0;
	c->blocksDone = 0;
	double t1 = threadSeconds();
	pthread_mutex_lock(&p->lock);
	p->times.read += t1 - t0;
	pthread_mutex_unlock(&p->lock);
}

/* Records [begin, end) of the chunk's input-order block b. */
static void blockRange(const cliChunk* c, int b, int* begin, int* end)
{
	*begin = b * CLI_CAST_BLOCK;
	*end = *begin + CLI_CAST_BLOCK < c->count ? *begin + CLI_CAST_BLOCK : c->count;
}

/* Add CPU seconds to one of the times (--stats). */
static void addTime(cliCastPipeline* p, double* time, double seconds)
{
	pthread_mutex_lock(&p->lock);
	*time += seconds;
	pthread_mutex_unlock(&p->lock);
}

/* Parse and check block b of c, filling its records' inputs (phase parse). */
static void parseBlock(cliCastPipeline* p, cliWorker* w, cliChunk* c, int b)
{
	cliBlock* block = c->blocks + b;
	cliBuffer_Clear(&block->text);
	block->failedAt = -1;
	block->hits = 0;
	block->errors = 0;
	block->tunnelled = 0;
	int begin, end;
	blockRange(c, b, &begin, &end);
	double t0 = threadSeconds();
	for (int i = begin; i < end; ++i) {
		if (cliRecord_Parse(c->records + i, &c->text, w->parser, &block->error) < 0) {
			block->failedAt = i;
			break;
		}
		c->problems[i] = cliRecord_CheckCast(c->records + i, p->def.common, c->inputs + i);
		if (c->problems[i] != NULL) {
			bcVec3 nowhere = { NAN, NAN, NAN };
			bcCastInput none = { nowhere, nowhere, NAN };
			c->inputs[i] = none;
		}
	}
	addTime(p, &p->times.parse, threadSeconds() - t0);
}

/* A parse of the chunk failed: it is reported, not cast. */
static bool parseFailed(const cliChunk* c)
{
	for (int b = 0; b < c->blockCount; ++b) {
		if (c->blocks[b].failedAt >= 0) {
			return true;
		}
	}
	return false;
}

/* Cast the whole chunk with the library's batch (phase cast, the exact
 * method). When memory for the batch itself runs out, every throw of the
 * chunk is left without an answer, as a cast out of memory is. */
static void castChunk(cliCastPipeline* p, cliChunk* c)
{
	bcError error;
	if (!bcMesh_CastBatchWithOptions(p->def.mesh, c->inputs, c->outputs, c->count, &p->batch,
									 p->def.ties ? &c->ties : NULL, &error)) {
		for (int i = 0; i < c->count; ++i) {
			c->outputs[i].state = bc_castNoMemory;
		}
	}
}

/* Answer the records of block b of c by the discrete method, each answer
 * at its record's place (phase cast). */
static void castBlock(cliCastPipeline* p, cliChunk* c, int b)
{
	int begin, end;
	blockRange(c, b, &begin, &end);
	for (int i = begin; i < end; ++i) {
		if (c->problems[i] != NULL) {
			continue;
		}
		int count = 0;
		c->problems[i] = cliAnswerThrow(p->def.mesh, p->def.settings, c->inputs[i], NULL, c->outputs + i, &count,
										p->def.compareExact ? c->exact + i : NULL, c->alphaFree + i);
	}
}

/* Format the answers of block b of c, in input order (phase format). */
static void formatBlock(cliCastPipeline* p, cliChunk* c, int b)
{
	cliBlock* block = c->blocks + b;
	int begin, end;
	blockRange(c, b, &begin, &end);
	double t0 = threadSeconds();
	for (int i = begin; i < end; ++i) {
		const cliRecord* record = c->records + i;
		long position = c->first + i;
		if (c->problems[i] == NULL) {
			/* the library's answer may be none: out of memory */
			c->problems[i] = cliAnswerProblem(c->outputs + i);
		}
		if (c->problems[i] != NULL) {
			block->errors += 1;
			cliCastWriter_Format(p->writer, &block->text, position, record, c->problems[i], NULL, NULL, 0, NULL);
			continue;
		}
		const bcCastOutput* out = c->outputs + i;
		bool hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
		if (hit) {
			block->hits += 1;
		}
		const bcCastOutput* exact = p->def.compareExact ? c->exact + i : NULL;
		if (exact != NULL && !hit && (exact->state == bc_castHit || exact->state == bc_castInitialOverlap)) {
			block->tunnelled += 1;
		}
		const bcContact* ties = c->ties != NULL ? c->ties->contacts + c->ties->first[i] : NULL;
		int tieCount = c->ties != NULL ? (int)(c->ties->first[i + 1] - c->ties->first[i]) : 0;
		cliCastAnswer answer = { record, NULL, out, ties, tieCount, exact, c->alphaFree != NULL ? c->alphaFree[i] : 0.0 };
		cliCastWriter_FormatAnswer(p->writer, &block->text, position, &answer);
	}
	addTime(p, &p->times.format, threadSeconds() - t0);
}

/* Run block b of c's phase (task: any thread). */
static void runBlock(cliCastPipeline* p, cliWorker* w, cliChunk* c, cliChunkPhase phase, int b)
{
	switch (phase) {
	case cli_phaseParse:
		parseBlock(p, w, c, b);
		break;
	case cli_phaseCast:
		if (p->def.settings->discrete) {
			castBlock(p, c, b);
		} else {
			castChunk(p, c);
		}
		break;
	default:
		formatBlock(p, c, b);
		break;
	}
}

/* Every task of c's phase is done: begin the next phase, or make the
 * chunk ready to write after the last one or a failed parse (lock held). */
static void advancePhase(const cliCastPipeline* p, cliChunk* c)
{
	if (c->phase == cli_phaseFormat || (c->phase == cli_phaseParse && parseFailed(c))) {
		c->state = cli_slotReady;
		return;
	}
	c->phase = c->phase == cli_phaseParse ? cli_phaseCast : cli_phaseFormat;
	c->blockCount = phaseTasks(p, c, c->phase);
	c->nextBlock = 0;
	c->blocksDone = 0;
}

/* Report the chunk's bad records and write its results, or, if reading or
 * parsing it failed, report that and stop the run (task: one thread at a
 * time, chunks in order). */
static void writeChunk(cliCastPipeline* p, cliChunk* c)
{
	double t0 = threadSeconds();
	const bcError* fatal = NULL;
	for (int b = 0; b < c->blockCount && fatal == NULL; ++b) {
		fatal = c->blocks[b].failedAt >= 0 ? &c->blocks[b].error : NULL;
	}
	if (fatal == NULL && c->failed) {
		fatal = &c->error;
	}
	bool ok = fatal == NULL;
	if (!ok) {
		/* as when reading stopped: nothing of this chunk is reported */
		cliReportError(p->def.inputName, fatal);
	} else {
		for (int i = 0; i < c->count; ++i) {
			if (c->problems[i] != NULL) {
				cliRecordLog_Add(&p->log, c->records + i, c->problems[i]);
			}
		}
		p->summary.records += c->count;
		for (int b = 0; b < c->blockCount; ++b) {
			p->summary.hits += c->blocks[b].hits;
			p->summary.errors += c->blocks[b].errors;
			p->summary.tunnelled += c->blocks[b].tunnelled;
			ok = ok && !c->blocks[b].text.failed;
		}
		if (!ok) {
			cliReportNoMemory();
		}
		if (ok && p->head->length > 0) {
			ok = cliOutput_Write(p->output, p->head->data, p->head->length);
			cliBuffer_Clear(p->head);
		}
		for (int b = 0; b < c->blockCount && ok; ++b) {
			ok = cliOutput_Write(p->output, c->blocks[b].text.data, c->blocks[b].text.length);
		}
		ok = ok && cliOutput_Flush(p->output);
		if (ok) {
			cliProgress_Update(p->def.progress, p->summary.records, p->summary.hits, c->read);
		}
	}
	for (int i = 0; i < c->count; ++i) {
		cliRecord_Free(c->records + i);
	}
	bcTieList_Destroy(c->ties);
	c->ties = NULL;
	double t1 = threadSeconds();
	pthread_mutex_lock(&p->lock);
	p->times.write += t1 - t0;
	if (!ok) {
		p->status = cli_exitTrouble;
		atomic_store(&p->stop, true);
	}
	pthread_mutex_unlock(&p->lock);
}

/* The oldest chunk with a block of its phase left to run, or NULL (lock
 * held). */
static cliChunk* workableChunk(cliCastPipeline* p)
{
	for (long s = p->writeSequence; s < p->readSequence; ++s) {
		cliChunk* c = p->slots[s % CLI_CAST_SLOTS];
		if (c->state == cli_slotWorking && c->nextBlock < c->blockCount) {
			return c;
		}
	}
	return NULL;
}

/* Take tasks until there are no more (every thread, the main one too). */
static void runTasks(cliWorker* w)
{
	cliCastPipeline* p = w->pipeline;
	pthread_mutex_lock(&p->lock);
	while (!p->done) {
		bool stopped = atomic_load(&p->stop);
		cliChunk* next = p->slots[p->writeSequence % CLI_CAST_SLOTS];
		if (!stopped && !p->writing && next->state == cli_slotReady && next->sequence == p->writeSequence) {
			p->writing = true;
			next->state = cli_slotWriting;
			pthread_mutex_unlock(&p->lock);
			writeChunk(p, next);
			pthread_mutex_lock(&p->lock);
			p->writing = false;
			next->state = cli_slotFree;
			p->writeSequence += 1;
			p->done = p->inputEnded && p->writeSequence == p->readSequence;
			pthread_cond_broadcast(&p->wake);
			continue;
		}
		cliChunk* slot = p->slots[p->readSequence % CLI_CAST_SLOTS];
		bool canRead = !stopped && !p->reading && !p->inputEnded && slot->state == cli_slotFree;
		cliChunk* workable = stopped ? NULL : workableChunk(p);
		/* Read ahead first, so that a thread never waits for a chunk to be
		 * read; but not into a wait for input while there are casts to do. */
		if (canRead && (workable == NULL || !p->lowLatency || cliReader_IsInputReady(p->def.reader))) {
			p->reading = true;
			slot->state = cli_slotReading;
			slot->sequence = p->readSequence++;
			pthread_mutex_unlock(&p->lock);
			readChunk(p, slot);
			pthread_mutex_lock(&p->lock);
			p->reading = false;
			p->inputEnded = slot->last;
			slot->state = slot->blockCount > 0 ? cli_slotWorking : cli_slotReady;
			pthread_cond_broadcast(&p->wake);
			continue;
		}
		if (workable != NULL) {
			cliChunkPhase phase = workable->phase;
			int b = workable->nextBlock++;
			pthread_mutex_unlock(&p->lock);
			runBlock(p, w, workable, phase, b);
			pthread_mutex_lock(&p->lock);
			if (++workable->blocksDone == workable->blockCount) {
				advancePhase(p, workable);
				pthread_cond_broadcast(&p->wake);
			}
			continue;
		}
		if (stopped && !p->reading && !p->writing) {
			p->done = true;
			pthread_cond_broadcast(&p->wake);
			break;
		}
		pthread_cond_wait(&p->wake, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

/* A started thread: it runs tasks until the pipeline is done. */
static void* runThread(void* argument)
{
	runTasks(argument);
	return NULL;
}

/* The least stack a pipeline thread gets: the JSON parser and the writers
 * keep their state on the heap, and 1 MB is what the library gives its own
 * threads (musl's default, 128 KB, is less). A larger default is kept. */
#define CLI_MIN_THREAD_STACK ((size_t)1 << 20)

/* Run the pipeline's tasks on def.threads threads: the calling one and
 * def.threads - 1 started here, the CLI's only threads. A thread that
 * cannot be started leaves its share to the others (every thread takes
 * any task), so the run always finishes. */
static void runThreads(cliCastPipeline* p)
{
	int count = p->def.threads;
	pthread_t* threads = count > 1 ? calloc((size_t)count, sizeof *threads) : NULL;
	bool* started = count > 1 ? calloc((size_t)count, sizeof *started) : NULL;
	pthread_attr_t attributes;
	bool haveAttributes = threads != NULL && started != NULL && pthread_attr_init(&attributes) == 0;
	if (haveAttributes) {
		size_t stack = 0;
		if (pthread_attr_getstacksize(&attributes, &stack) == 0 && stack < CLI_MIN_THREAD_STACK) {
			pthread_attr_setstacksize(&attributes, CLI_MIN_THREAD_STACK);
		}
		for (int t = 1; t < count; ++t) {
			started[t] = pthread_create(threads + t, &attributes, runThread, p->workers + t) == 0;
		}
		pthread_attr_destroy(&attributes);
	}
	runTasks(p->workers);
	for (int t = 1; haveAttributes && t < count; ++t) {
		if (started[t]) {
			pthread_join(threads[t], NULL);
		}
	}
	free(threads);
	free(started);
}

/* One JSON line of phase times and counts on stderr (--stats). */
static void cliChunk_Destroy(cliChunk* c)
{
	if (c == NULL) {
		return;
	}
	cliRecordText_Free(&c->text);
	int blocks = (c->capacity + CLI_CAST_BLOCK - 1) / CLI_CAST_BLOCK;
	for (int b = 0; b < blocks && c->blocks != NULL; ++b) {
		cliBuffer_Free(&c->blocks[b].text);
	}
	free(c->records);
	free(c->problems);
	free(c->blocks);
	free(c->inputs);
	free(c->outputs);
	free(c->exact);
	free(c->alphaFree);
	bcTieList_Destroy(c->ties);
	free(c);
}

/* A chunk of capacity records (with room for the exact casts too when
 * exact, and for the last free alphas when discrete), or NULL when memory runs out; the caller owns it
 * (cliChunk_Destroy). The per-record arrays are not cleared: each entry is
 * written (read, parse, order, cast) before it is read, so their pages are
 * touched only as records fill them, and a small input costs no more
 * memory than before --batch grew. The blocks start empty. */
static cliChunk* cliChunk_Create(int capacity, bool exact, bool discrete)
{
	cliChunk* c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	size_t n = (size_t)capacity;
	size_t blocks = (n + CLI_CAST_BLOCK - 1) / CLI_CAST_BLOCK;
	c->capacity = capacity;
	c->records = malloc(n * sizeof *c->records);
	c->problems = malloc(n * sizeof *c->problems);
	c->blocks = calloc(blocks, sizeof *c->blocks);
	c->inputs = malloc(n * sizeof *c->inputs);
	c->outputs = malloc(n * sizeof *c->outputs);
	c->exact = exact ? malloc(n * sizeof *c->exact) : NULL;
	c->alphaFree = discrete ? malloc(n * sizeof *c->alphaFree) : NULL;
	if (c->records == NULL || c->problems == NULL || c->blocks == NULL || c->inputs == NULL || c->outputs == NULL ||
		(exact && c->exact == NULL) || (discrete && c->alphaFree == NULL)) {
		cliChunk_Destroy(c);
		return NULL;
	}
	return c;
}

void cliCastPipeline_Destroy(cliCastPipeline* p)
{
	if (p == NULL) {
		return;
	}
	for (int s = 0; s < CLI_CAST_SLOTS; ++s) {
		cliChunk_Destroy(p->slots[s]);
	}
	for (int t = 0; p->workers != NULL && t < p->def.threads; ++t) {
		cliJsonParser_Destroy(p->workers[t].parser);
	}
	free(p->workers);
	free(p);
}

cliCastPipeline* cliCastPipeline_Create(const cliCastPipelineDef* def)
{
	cliCastPipeline* p = calloc(1, sizeof *p);
	if (p == NULL) {
		return NULL;
	}
	p->def = *def;
	atomic_init(&p->stop, false);
	p->log = cliRecordLog_Make(def->inputName, def->common, def->progress);
	p->batch = cliCastSettings_BatchOptions(def->settings, def->threads);
	p->workers = calloc((size_t)def->threads, sizeof *p->workers);
	bool ready = p->workers != NULL;
	for (int s = 0; s < CLI_CAST_SLOTS && ready; ++s) {
		p->slots[s] = cliChunk_Create(def->batch, def->compareExact, def->settings->discrete);
		ready = p->slots[s] != NULL;
	}
	for (int t = 0; t < def->threads && ready; ++t) {
		/* one JSON parser per thread (json_stream.h) */
		p->workers[t].pipeline = p;
		p->workers[t].parser = cliJsonParser_Create();
		ready = p->workers[t].parser != NULL;
	}
	if (!ready) {
		cliCastPipeline_Destroy(p);
		return NULL;
	}
	return p;
}

int cliCastPipeline_Run(cliCastPipeline* p, cliOutput* output, const cliCastWriter* writer, cliBuffer* head)
{
	p->output = output;
	p->writer = writer;
	p->head = head;
	p->lowLatency = output->streaming;
	cliReader_SetKeepWaiting(p->def.reader, keepWaiting, p);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	double cpu0 = processSeconds();
	runThreads(p);
	/* the query: the run's CPU time but what the pipeline's tasks measured
	 * (the batch's threads are the library's, and not theirs to time) */
	double rest = processSeconds() - cpu0 - (p->times.read + p->times.parse + p->times.format + p->times.write);
	p->times.query = rest > 0.0 ? rest : 0.0;
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	cliProgress_Clear(p->def.progress);
	cliRecordLog_Finish(&p->log);
	return p->status;
}

const cliCastSummary* cliCastPipeline_GetSummary(const cliCastPipeline* p)
{
	return &p->summary;
}

const cliCastTimes* cliCastPipeline_GetTimes(const cliCastPipeline* p)
{
	return &p->times;
}
