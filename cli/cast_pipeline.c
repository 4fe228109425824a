/* cast_pipeline.c - cast's threaded pipeline (cast_pipeline.h): chunks of
 * records read, parsed and checked, put in space order, answered through
 * the answer module and formatted on every thread, and written in input
 * order, with its own lock and condition variable. */
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


/* Records per task: 32 tasks per chunk and phase keep the threads evenly
 * busy (a slow block delays no other), and the lock that hands them out is
 * taken about once a millisecond. */
#define CLI_CAST_BLOCK 256

/* Chunks in flight: one being read, two being cast (the tail of one as the
 * next starts) and one being written; memory is these four chunks. */
#define CLI_CAST_SLOTS 4

/* Input is read in chunks of --batch records, and every chunk goes
 * through these tasks: read (delimit the records and copy their bytes; one
 * chunk at a time, in input order), three phases cut into blocks of
 * CLI_CAST_BLOCK records that any thread takes, and write (one chunk at a
 * time, in input order: report the chunk's bad records, write its blocks).
 * The phases, each begun when the one before has finished all its blocks:
 *
 *   parse   blocks of input order: parse the deferred records, check them;
 *           the thread that finishes the last block puts the chunk in
 *           space order (the Morton order of the starts, bcMortonOrder);
 *   cast    blocks of space order: cast, each answer kept at its record's
 *           place, so that consecutive casts walk the same part of the
 *           hierarchy while it is in the cache (on a big mesh input order
 *           throws the cache away; the order must span the chunk, as 256
 *           random records are no closer together than the input);
 *   format  blocks of input order: format the answers into the block's
 *           own buffer.
 *
 * So the output is that of casting in input order, byte for byte. The -j
 * threads are all alike: each takes the most urgent task there is
 * (writing, then reading ahead, then the blocks of the oldest chunk), so
 * reading and writing overlap the casts and no thread waits while there
 * is work. At most CLI_CAST_SLOTS chunks are in flight, so memory does not
 * grow with the input. */

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

/* The tied contacts of one cast block (--ties, --normal average) are in
 * pools[k] of its chunk: a block of space order has its own pool, as its
 * casts run on one thread while other blocks grow theirs. Kept from chunk
 * to chunk. */

/* Where a record's tied contacts are: in pools[pool], from offset. */
typedef struct cliTieRef {
	int pool, offset, count;
} cliTieRef;

/* A chunk of capacity records; its arrays have that many entries (blocks
 * and pools one per CLI_CAST_BLOCK records), owned by it (cliChunk_Create,
 * cliChunk_Destroy). */
typedef struct cliChunk {
	int capacity;
	cliRecord* records;
	const char** problems;
	cliRecordText text;  /* the bytes of deferred records */
	cliBlock* blocks;
	/* each record's cast, at its place in input order */
	bcCastInput* inputs;   /* NaN for bad records: they stretch no box of the order */
	bcCastOutput* outputs;
	bcCastOutput* exact;   /* --compare-exact: the exact cast's answers, else NULL */
	double* alphaFree;     /* --method discrete: each answer's last free alpha (alpha_free), else NULL */
	cliTieRef* tieRefs;
	cliTiePool* pools;     /* by block of space order */
	/* space order: order[k] is the record cast k-th; keys and scratch are the sort's */
	int32_t* order;
	uint32_t* keys;
	int32_t* scratch;
	int count;
	long sequence;       /* chunks are numbered from 0 in input order */
	long first;          /* records before this chunk */
	bool last;           /* the input ends with this chunk (or with its error) */
	double read;         /* the fraction of the input read after it (< 0: unknown) */
	bool failed;         /* reading stopped at error after count records */
	bcError error;
	cliChunkPhase phase;
	int blockCount, nextBlock, blocksDone; /* of the phase */
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
	bool needTies;       /* --ties, --normal average: casts list their tied contacts */
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
	cliCastTimes times;
};

static double threadSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The reader's question while it waits on a pipe. */
static bool keepWaiting(void* context)
{
	cliCastPipeline* p = context;
	return !atomic_load(&p->stop);
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
	c->blockCount = (c->count + CLI_CAST_BLOCK - 1) / CLI_CAST_BLOCK;
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
		c->problems[i] = cliCheckCastRecord(c->records + i, p->def.common, c->inputs + i);
		if (c->problems[i] != NULL) {
			c->inputs[i].p0.x = c->inputs[i].p0.y = c->inputs[i].p0.z = NAN;
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

/* Put the parsed chunk in space order (once, between parse and cast). */
static void orderChunk(cliCastPipeline* p, cliChunk* c)
{
	double t0 = threadSeconds();
	bcMortonOrder(c->inputs, c->count, c->order, c->keys, c->scratch);
	addTime(p, &p->times.query, threadSeconds() - t0);
}

/* Answer the records of block k of space order, each answer at its
 * record's place, their tied contacts in the block's pool (phase cast). */
static void castBlock(cliCastPipeline* p, cliChunk* c, int k)
{
	cliTiePool* pool = p->needTies ? c->pools + k : NULL;
	c->pools[k].count = 0;
	int begin, end;
	blockRange(c, k, &begin, &end);
	double t0 = threadSeconds();
	for (int j = begin; j < end; ++j) {
		int i = c->order[j];
		if (c->problems[i] != NULL) {
			continue;
		}
		int offset = pool != NULL ? pool->count : 0;
		int count = 0;
		c->problems[i] = cliAnswerThrow(p->def.mesh, p->def.settings, c->inputs[i], pool, c->outputs + i, &count,
										p->def.compareExact ? c->exact + i : NULL, c->alphaFree != NULL ? c->alphaFree + i : NULL);
		cliTieRef ref = { k, offset, count };
		c->tieRefs[i] = ref;
	}
	addTime(p, &p->times.query, threadSeconds() - t0);
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
		const cliTieRef* ref = c->tieRefs + i;
		const bcContact* ties = p->needTies ? c->pools[ref->pool].ties + ref->offset : NULL;
		cliCastAnswer answer = { record, NULL, out, ties, ties != NULL ? ref->count : 0, exact,
								 c->alphaFree != NULL ? c->alphaFree[i] : 0.0 };
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
		castBlock(p, c, b);
		break;
	default:
		formatBlock(p, c, b);
		break;
	}
}

/* Every block of c's phase is done: begin the next phase, or make the
 * chunk ready to write after the last one or a failed parse (lock held). */
static void advancePhase(cliChunk* c)
{
	if (c->phase == cli_phaseFormat || (c->phase == cli_phaseParse && parseFailed(c))) {
		c->state = cli_slotReady;
		return;
	}
	c->phase = c->phase == cli_phaseParse ? cli_phaseCast : cli_phaseFormat;
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
			fputs("ballcast: out of memory\n", stderr);
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
				if (phase == cli_phaseParse && !parseFailed(workable)) {
					/* no block of the chunk is handed out meanwhile */
					pthread_mutex_unlock(&p->lock);
					orderChunk(p, workable);
					pthread_mutex_lock(&p->lock);
				}
				advancePhase(workable);
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

/* A parallel-for task: worker runs tasks until the pipeline is done. */
static void runWorker(int begin, int end, int worker, void* context)
{
	(void)begin;
	(void)end;
	runTasks((cliWorker*)context + worker);
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
	for (int b = 0; b < blocks && c->pools != NULL; ++b) {
		free(c->pools[b].ties);
	}
	free(c->records);
	free(c->problems);
	free(c->blocks);
	free(c->inputs);
	free(c->outputs);
	free(c->exact);
	free(c->alphaFree);
	free(c->tieRefs);
	free(c->pools);
	free(c->order);
	free(c->keys);
	free(c->scratch);
	free(c);
}

/* A chunk of capacity records (with room for the exact casts too when
 * exact, and for the last free alphas when discrete), or NULL when memory runs out; the caller owns it
 * (cliChunk_Destroy). The per-record arrays are not cleared: each entry is
 * written (read, parse, order, cast) before it is read, so their pages are
 * touched only as records fill them, and a small input costs no more
 * memory than before --batch grew. The blocks and pools start empty. */
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
	c->tieRefs = malloc(n * sizeof *c->tieRefs);
	c->pools = calloc(blocks, sizeof *c->pools);
	c->order = malloc(n * sizeof *c->order);
	c->keys = malloc(n * sizeof *c->keys);
	c->scratch = malloc(n * sizeof *c->scratch);
	if (c->records == NULL || c->problems == NULL || c->blocks == NULL || c->inputs == NULL || c->outputs == NULL ||
		(exact && c->exact == NULL) || (discrete && c->alphaFree == NULL) || c->tieRefs == NULL ||
		c->pools == NULL || c->order == NULL || c->keys == NULL || c->scratch == NULL) {
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
	p->needTies = def->ties || cliCastSettings_NeedsTies(def->settings);
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
	bcParallelFor(p->def.threads, 1, p->def.threads, runWorker, p->workers);
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
