/* cast_cmd.c - `ballcast cast MESH [TRAJECTORIES]`: read trajectories in
 * chunks, cast each against the mesh, write the results in input order;
 * reading, casting and writing overlap on all threads. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "morton.h"
#include "output.h"
#include "parallel.h"
#include "trajectories.h"
#include "results_write.h"

/* Records read, cast and written together, by default (--batch): large
 * enough to keep every thread busy, small enough that memory does not grow
 * with the input. It is also the window of the space order, whose gain
 * grows with it: 1 M short sweeps over the 1.3 M icosphere, JSON in and
 * out, 2 threads, took 4.1-4.4 s at 8,192, 3.7-4.1 at 32,768, 3.5-3.8 at
 * 65,536 and no less at 131,072 or 262,144 (peak memory 513, 519, 647, 904
 * and 1350 MB). A record costs about 640 bytes in each of the
 * CLI_CAST_SLOTS chunks in flight, touched only as records fill them. */
#define CLI_CAST_CHUNK 65536

/* The largest --batch: 2^20 records, some 2.7 GB in flight. */
#define CLI_CAST_MAX_CHUNK (1 << 20)

/* Records per task: 32 tasks per chunk and phase keep the threads evenly
 * busy (a slow block delays no other), and the lock that hands them out is
 * taken about once a millisecond. */
#define CLI_CAST_BLOCK 256

/* Chunks in flight: one being read, two being cast (the tail of one as the
 * next starts) and one being written; memory is these four chunks. */
#define CLI_CAST_SLOTS 4

/* Room for tied contacts a cast block's pool starts with (--ties, --normal
 * average): two per cast; the pool grows to whatever a block needs (a big
 * ball overlapping a fine mesh ties with hundreds of triangles), and every
 * tie is listed. */
#define CLI_TIES_START (2 * CLI_CAST_BLOCK)

/* --normal's values, by cliNormalMode. */
static const char* const normalNames[] = { "contact", "triangle", "average" };

/* The options of cast's own, in the order castOption knows them. */
enum { cli_castTwoSided, cli_castApproach, cli_castNormal, cli_castOverlap, cli_castTies, cli_castBrute,
	   cli_castConvention, cli_castStats, cli_castMethod, cli_castDt, cli_castBisect, cli_castCompareExact,
	   cli_castBatch };
static const cliOption castOptions[] = {
	{ "two-sided", 0, false }, { "approach", 0, true }, { "normal", 0, true },     { "initial-overlap", 0, true },
	{ "ties", 0, false },      { "brute", 0, false },   { "convention", 0, true }, { "stats", 0, false },
	{ "method", 0, true },     { "dt", 0, true },       { "bisect", 0, true },     { "compare-exact", 0, false },
	{ "batch", 0, true },      { NULL, 0, false },
};

static const cliUsage castUsage = {
	"cast",
	"usage: ballcast cast [OPTIONS] MESH.obj [TRAJECTORIES]\n"
	"\n"
	"For each ball moving from p0 to p1, the earliest alpha in [0,1] at which it\n"
	"touches the mesh. TRAJECTORIES is a JSON array, NDJSON or CSV; '-' or none\n"
	"reads standard input.\n"
	"\n"
	"options:\n"
	CLI_HELP_OUTPUT
	CLI_HELP_FORMAT
	CLI_HELP_INPUT_FORMAT
	"  -r, --radius R            radius for records without \"r\"\n"
	"      --two-sided           count contacts from behind a triangle too\n"
	"      --approach le|lt      front-face rule: dot(n, p1-p0) <= 0 (le, default)\n"
	"                            or < 0 (lt)\n"
	"      --normal contact|triangle|average\n"
	"                            what \"normal\" holds: the contact normal\n"
	"                            (default), the triangle's, or the average of the\n"
	"                            triangle normals of all contacts tied at alpha\n"
	"      --initial-overlap report|ignore\n"
	"                            a ball already overlapping a triangle: a hit at\n"
	"                            alpha 0 (report, default) or skip that triangle\n"
	"      --ties                list every contact tied at the earliest alpha\n"
	"      --convention cs121    the course's conventions: --approach lt\n"
	"                            --normal average --initial-overlap ignore --ties\n"
	"                            (options given explicitly still win)\n"
	"      --method exact|discrete\n"
	"                            exact prediction (default), or seed 002's time\n"
	"                            stepping: the ball tested where it stands at\n"
	"                            alpha 0, dt, 2 dt, ..., 1, the first step in\n"
	"                            contact halved N times; alpha is the end of the\n"
	"                            last half (it misses what a step jumps over)\n"
	"      --dt F                discrete: the step, a fraction of the path in\n"
	"                            [1e-9, 1] (required with --method discrete)\n"
	"      --bisect N            discrete: halvings, 0 to 64 (default 5)\n"
	"      --compare-exact       discrete: each result carries the exact alpha\n"
	"                            too (\"exact_alpha\", null on a miss), and the\n"
	"                            summary how many throws tunnel (hit by the exact\n"
	"                            cast, missed by the discrete method)\n"
	"      --brute               test every triangle (reference path, slow)\n"
	CLI_HELP_THREADS
	CLI_HELP_QUIET_ALL
	CLI_HELP_MAX_ERRORS
	"      --batch N             records read, cast in space order and written\n"
	"                            together (default 65536, 1 to 1048576): larger\n"
	"                            batches cast faster on big meshes and take\n"
	"                            about 2.6 kB more memory per record\n"
	"      --stats               phase times, counts and peak memory on standard\n"
	"                            error as one JSON line\n"
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast cast room.obj throws.json | jq '.results[] | select(.hit) | .alpha'\n"
	"  ballcast cast --format csv -r 0.1 room.obj throws.csv > hits.csv\n"
	"  cat throws.ndjson | ballcast cast room.obj - --format ndjson\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optThreads | cli_optQuiet |
		cli_optMaxErrors,
	castOptions,
	1,
	2,
	{ "missing MESH", NULL },
};

typedef struct cliCastConfig {
	const char* meshPath;
	const char* inputPath;
	cliCommonOptions common; /* -o -f -i -r -j -q */
	cliCastSettings s; /* --two-sided, --approach, --normal, --initial-overlap, --convention */
	bool ties;
	bool stats;
	bool discrete;                     /* --method discrete */
	bcDiscreteOptions discreteOptions; /* --dt, --bisect (its cast options: s.options') */
	bool dtGiven, bisectGiven;
	bool compareExact;
	int batch; /* --batch: records per chunk */
} cliCastConfig;

void cliCastSettings_Init(cliCastSettings* s)
{
	memset(s, 0, sizeof *s);
	s->options = bcDefaultCastOptions();
}

const char* cliCastSettings_Option(cliCastSettings* s, int k, const char* value)
{
	switch (k) {
	case 0:
		s->options.twoSided = true;
		s->twoSidedGiven = true;
		return NULL;
	case 1:
		if (strcmp(value, "le") != 0 && strcmp(value, "lt") != 0) {
			return "--approach is le or lt, not";
		}
		s->options.approach = value[1] == 'e' ? bc_approachLessEqual : bc_approachLess;
		s->approachGiven = true;
		return NULL;
	case 2: {
		int mode = 0;
		while (mode < 3 && strcmp(value, normalNames[mode]) != 0) {
			mode++;
		}
		if (mode == 3) {
			return "--normal is contact, triangle or average, not";
		}
		s->normalMode = (cliNormalMode)mode;
		s->normalGiven = true;
		return NULL;
	}
	case 3:
		if (strcmp(value, "report") != 0 && strcmp(value, "ignore") != 0) {
			return "--initial-overlap is report or ignore, not";
		}
		s->options.overlap = value[0] == 'r' ? bc_overlapReport : bc_overlapIgnore;
		s->overlapGiven = true;
		return NULL;
	default:
		if (strcmp(value, "cs121") != 0) {
			return "--convention knows only cs121, not";
		}
		s->cs121 = true;
		return NULL;
	}
}

bool cliCastSettings_Finish(cliCastSettings* s)
{
	if (s->cs121) {
		/* The course notes and FAQ: one-sided, dot(n, d) < 0, the average of
		 * the tied triangles' normals, and no hit for a ball that starts
		 * inside a triangle. Explicit options win. */
		if (!s->twoSidedGiven) {
			s->options.twoSided = false;
		}
		if (!s->approachGiven) {
			s->options.approach = bc_approachLess;
		}
		if (!s->normalGiven) {
			s->normalMode = cli_normalAverage;
		}
		if (!s->overlapGiven) {
			s->options.overlap = bc_overlapIgnore;
		}
	}
	/* Answers written for grading carry their ties, so that compare
	 * accepts a shared edge reported on the other triangle. */
	return s->cs121;
}

const char* cliCastSettings_NormalName(const cliCastSettings* s)
{
	return normalNames[s->normalMode];
}

/* One of cast's own options (a cliOptionFcn). */
static const char* castOption(void* context, int k, const char* value)
{
	cliCastConfig* cfg = context;
	switch (k) {
	case cli_castTwoSided:
	case cli_castApproach:
	case cli_castNormal:
	case cli_castOverlap:
		return cliCastSettings_Option(&cfg->s, k, value);
	case cli_castConvention:
		return cliCastSettings_Option(&cfg->s, 4, value);
	case cli_castTies:
		cfg->ties = true;
		return NULL;
	case cli_castBrute:
		cfg->s.options.bruteForce = true;
		return NULL;
	case cli_castMethod:
		if (strcmp(value, "exact") != 0 && strcmp(value, "discrete") != 0) {
			return "--method is exact or discrete, not";
		}
		cfg->discrete = value[0] == 'd';
		return NULL;
	case cli_castDt: {
		double dt = 0.0;
		if (!cliParseDouble(value, &dt) || !(dt >= BC_DISCRETE_MIN_STEP && dt <= 1.0)) {
			return "--dt needs a fraction of the path from 1e-9 to 1, not";
		}
		cfg->discreteOptions.step = dt;
		cfg->dtGiven = true;
		return NULL;
	}
	case cli_castBisect: {
		int n = 0;
		if (!cliParseInt(value, &n) || n < 0 || n > BC_DISCRETE_MAX_BISECTIONS) {
			return "--bisect needs a whole number from 0 to 64, not";
		}
		cfg->discreteOptions.bisections = n;
		cfg->bisectGiven = true;
		return NULL;
	}
	case cli_castCompareExact:
		cfg->compareExact = true;
		return NULL;
	case cli_castBatch: {
		int n = 0;
		if (!cliParseInt(value, &n) || n < 1 || n > CLI_CAST_MAX_CHUNK) {
			return "--batch needs a whole number of records from 1 to 1048576, not";
		}
		cfg->batch = n;
		return NULL;
	}
	case cli_castStats:
		cfg->stats = true;
		return NULL;
	default:
		return "unknown option";
	}
}

/* The rules between --method and the options that go with it; -1 to go
 * on, or the usage error's status. */
static int checkMethod(cliCastConfig* cfg)
{
	if (!cfg->discrete) {
		const char* alone = NULL;
		if (cfg->dtGiven) {
			alone = "--dt";
		} else if (cfg->bisectGiven) {
			alone = "--bisect";
		} else if (cfg->compareExact) {
			alone = "--compare-exact";
		}
		if (alone != NULL) {
			char message[96];
			snprintf(message, sizeof message, "%s needs --method discrete", alone);
			return cliUsageError(&castUsage, message, NULL);
		}
		return -1;
	}
	if (!cfg->dtGiven) {
		return cliUsageError(&castUsage, "--method discrete needs --dt F (the step, a fraction of the path)", NULL);
	}
	if (cfg->ties || cfg->s.cs121 || cfg->s.normalMode == cli_normalAverage) {
		return cliUsageError(&castUsage,
							 "--method discrete finds one contact: --ties, --normal average and --convention need "
							 "--method exact",
							 NULL);
	}
	return -1;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliCastConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cliCastSettings_Init(&cfg->s);
	cfg->discreteOptions = bcDefaultDiscreteOptions();
	cfg->batch = CLI_CAST_CHUNK;
	int first = 0;
	int status = cliParseArguments(&castUsage, argc, argv, &cfg->common, castOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	status = checkMethod(cfg);
	if (status >= 0) {
		return status;
	}
	cfg->meshPath = argv[first];
	cfg->inputPath = first + 1 < argc ? argv[first + 1] : "-";
	if (cliCastSettings_Finish(&cfg->s)) {
		cfg->ties = true;
	}
	cfg->discreteOptions.cast = cfg->s.options;
	return -1;
}

/* Check one record; returns the problem or NULL, and fills input. */
static const char* checkRecord(const cliCastConfig* cfg, const cliRecord* record, bcCastInput* input)
{
	const char* problem = cliCheckTrajectory(record, &cfg->common, &input->p0, &input->p1, &input->radius);
	if (problem != NULL) {
		return problem;
	}
	if (!bcIsValidCastInput(*input)) {
		return "a coordinate or the radius is beyond the supported range of 1e50";
	}
	return NULL;
}

/* The average of the front normals of the distinct tied triangles (ties are
 * ordered by triangle); the hit triangle's normal if they cancel out. */
static bcVec3 averageNormal(const bcMesh* mesh, const bcContact* ties, int count, bcVec3 fallback)
{
	double x = 0.0, y = 0.0, z = 0.0;
	for (int i = 0; i < count; ++i) {
		if (i > 0 && ties[i].triangle == ties[i - 1].triangle) {
			continue;
		}
		bcVec3 n = bcMesh_GetTriangle(mesh, ties[i].triangle).normal;
		x += n.x;
		y += n.y;
		z += n.z;
	}
	double length = sqrt(x * x + y * y + z * z);
	if (!(length > 0.0)) {
		return fallback;
	}
	bcVec3 v = { x / length + 0.0, y / length + 0.0, z / length + 0.0 };
	return v;
}

/* The discrete method's answer in the cast's form: the contact it found
 * at its alpha (one triangle, no ties). */
static bcCastOutput castDiscrete(const bcMesh* mesh, bcCastInput input, const bcDiscreteOptions* options)
{
	bcDiscreteOutput d = bcMesh_CastDiscrete(mesh, input, options);
	bcCastOutput out;
	memset(&out, 0, sizeof out);
	out.state = d.state;
	out.alpha = d.alpha;
	out.triangle = d.triangle;
	out.face = d.face;
	if (d.state != bc_castHit && d.state != bc_castInitialOverlap) {
		return out;
	}
	out.feature = d.feature;
	out.vertexCount = d.vertexCount;
	memcpy(out.vertices, d.vertices, sizeof out.vertices);
	out.point = d.point;
	out.center = d.center;
	out.normal = d.normal;
	out.triangleNormal = bcMesh_GetTriangle(mesh, d.triangle).normal;
	out.tieCount = 1;
	return out;
}

/* Room for at least need contacts in *ties (*capacity of them): doubled,
 * never below CLI_TIES_START. False when memory runs out (*ties kept). */
static bool growTies(bcContact** ties, int* capacity, int need)
{
	if (*capacity >= need) {
		return true;
	}
	int grown = 2 * *capacity > need ? 2 * *capacity : need;
	grown = grown > CLI_TIES_START ? grown : CLI_TIES_START;
	bcContact* more = realloc(*ties, (size_t)grown * sizeof *more);
	if (more == NULL) {
		return false;
	}
	*ties = more;
	*capacity = grown;
	return true;
}

int cliCastSettings_Answer(const bcMesh* mesh, const cliCastSettings* s, bcCastInput input, bcCastOutput* out,
						   bcContact** ties, int* capacity, int used)
{
	if (*capacity - used < 1) {
		if (!growTies(ties, capacity, used + 1)) {
			return -1;
		}
	}
	int room = *capacity - used;
	int n = bcMesh_CastTies(mesh, input, &s->options, out, *ties + used, room);
	if (n > room) {
		/* Grow and ask again: the same answer, all of it. */
		if (!growTies(ties, capacity, used + n)) {
			return -1;
		}
		n = bcMesh_CastTies(mesh, input, &s->options, out, *ties + used, *capacity - used);
	}
	if (out->state == bc_castNoMemory) {
		return -1;
	}
	if (s->normalMode == cli_normalAverage && out->state != bc_castMiss) {
		out->normal = averageNormal(mesh, *ties + used, n, out->triangleNormal);
	}
	if (s->normalMode == cli_normalTriangle && out->state != bc_castMiss) {
		out->normal = out->triangleNormal;
	}
	return n;
}

/* ------------------------------------------------------------ pipeline
 *
 * Input is read in chunks of --batch records, and every chunk goes
 * through these tasks: read (delimit the records and copy their bytes; one
 * chunk at a time, in input order), three phases cut into blocks of
 * CLI_CAST_BLOCK records that any thread takes, and write (one chunk at a
 * time, in input order: report the chunk's bad records, write its blocks).
 * The phases, each begun when the one before has finished all its blocks:
 *
 *   parse   blocks of input order: parse the deferred records, check them;
 *           the thread that finishes the last block puts the chunk in
 *           space order (the Morton order of the starts, morton.h);
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

/* The tied contacts of one cast block (--ties, --normal average): a block
 * of space order has its own pool, as its casts run on one thread while
 * other blocks grow theirs. Kept from chunk to chunk. */
typedef struct cliTiePool {
	bcContact* ties;
	int count, capacity;
} cliTiePool;

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
	struct cliPipeline* pipeline;
	cliJsonParser* parser;
} cliWorker;

/* CPU seconds spent on each part, summed over threads (--stats). */
typedef struct cliCastTimes {
	double read, parse, query, format, write;
} cliCastTimes;

typedef struct cliPipeline {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	const cliCastConfig* cfg;
	const bcMesh* mesh;
	bool needTies;       /* --ties, --normal average: casts list their tied contacts */
	cliReader* reader;
	const char* inputName;
	cliRecordLog log;    /* bad records' messages */
	cliOutput* output;
	cliCastWriter writer;
	cliBuffer head;      /* what goes before the results, written with the first chunk */
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
	cliProgress progress;
} cliPipeline;

static double threadSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The reader's question while it waits on a pipe. */
static bool keepWaiting(void* context)
{
	cliPipeline* p = context;
	return !atomic_load(&p->stop);
}

/* Read the next chunk into c (task: one thread at a time). */
static void readChunk(cliPipeline* p, cliChunk* c)
{
	double t0 = threadSeconds();
	c->count = 0;
	c->last = false;
	c->failed = false;
	c->first = p->recordsRead;
	cliRecordText_Clear(&c->text);
	while (c->count < c->capacity && !atomic_load(&p->stop)) {
		/* a filter answers what it has before it waits for more */
		if (p->lowLatency && c->count > 0 && !cliReader_IsInputReady(p->reader)) {
			break;
		}
		int got = cliReader_NextDeferred(p->reader, c->records + c->count, &c->text, &c->error);
		if (got == 1) {
			c->count += 1;
			continue;
		}
		c->last = true;
		c->failed = got < 0;
		break;
	}
	p->recordsRead += c->count;
	c->read = cliReader_Progress(p->reader);
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
static void addTime(cliPipeline* p, double* time, double seconds)
{
	pthread_mutex_lock(&p->lock);
	*time += seconds;
	pthread_mutex_unlock(&p->lock);
}

/* Parse and check block b of c, filling its records' inputs (phase parse). */
static void parseBlock(cliPipeline* p, cliWorker* w, cliChunk* c, int b)
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
		c->problems[i] = checkRecord(p->cfg, c->records + i, c->inputs + i);
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
static void orderChunk(cliPipeline* p, cliChunk* c)
{
	double t0 = threadSeconds();
	bcMortonOrder(c->inputs, c->count, c->order, c->keys, c->scratch);
	addTime(p, &p->times.query, threadSeconds() - t0);
}

/* Cast record i of c as cast answers it, its tied contacts appended to the
 * pool of cast block k; false when memory runs out. */
static bool castTies(cliPipeline* p, cliChunk* c, int i, int k)
{
	cliTiePool* pool = c->pools + k;
	int n = cliCastSettings_Answer(p->mesh, &p->cfg->s, c->inputs[i], c->outputs + i, &pool->ties, &pool->capacity,
								   pool->count);
	if (n < 0) {
		return false;
	}
	cliTieRef ref = { k, pool->count, n };
	c->tieRefs[i] = ref;
	pool->count += n;
	return true;
}

/* Cast the records of block k of space order, each answer at its record's
 * place (phase cast). */
static void castBlock(cliPipeline* p, cliChunk* c, int k)
{
	const cliCastConfig* cfg = p->cfg;
	c->pools[k].count = 0;
	int begin, end;
	blockRange(c, k, &begin, &end);
	double t0 = threadSeconds();
	for (int j = begin; j < end; ++j) {
		int i = c->order[j];
		if (c->problems[i] != NULL) {
			continue;
		}
		bcCastOutput* out = c->outputs + i;
		if (cfg->discrete) {
			*out = castDiscrete(p->mesh, c->inputs[i], &cfg->discreteOptions);
			if (cfg->compareExact) {
				c->exact[i] = bcMesh_Cast(p->mesh, c->inputs[i], &cfg->s.options);
			}
		} else if (!p->needTies) {
			*out = bcMesh_Cast(p->mesh, c->inputs[i], &cfg->s.options);
		} else if (!castTies(p, c, i, k)) {
			c->problems[i] = "out of memory listing the tied contacts";
			continue;
		}
		if (out->state == bc_castNoMemory) {
			c->problems[i] = "out of memory collecting the tied contacts";
			continue;
		}
		if (out->state == bc_castInvalid) {
			c->problems[i] = "a coordinate or the radius is beyond the supported range of 1e50";
			continue;
		}
		if (cfg->s.normalMode == cli_normalTriangle && out->state != bc_castMiss) {
			out->normal = out->triangleNormal;
		}
	}
	addTime(p, &p->times.query, threadSeconds() - t0);
}

/* Format the answers of block b of c, in input order (phase format). */
static void formatBlock(cliPipeline* p, cliChunk* c, int b)
{
	const cliCastConfig* cfg = p->cfg;
	cliBlock* block = c->blocks + b;
	int begin, end;
	blockRange(c, b, &begin, &end);
	double t0 = threadSeconds();
	for (int i = begin; i < end; ++i) {
		const cliRecord* record = c->records + i;
		long position = c->first + i;
		if (c->problems[i] != NULL) {
			block->errors += 1;
			cliCastWriter_Format(&p->writer, &block->text, position, record, c->problems[i], NULL, NULL, 0, NULL);
			continue;
		}
		const bcCastOutput* out = c->outputs + i;
		bool hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
		if (hit) {
			block->hits += 1;
		}
		const bcCastOutput* exact = cfg->compareExact ? c->exact + i : NULL;
		if (exact != NULL && !hit && (exact->state == bc_castHit || exact->state == bc_castInitialOverlap)) {
			block->tunnelled += 1;
		}
		const cliTieRef* ref = c->tieRefs + i;
		const bcContact* ties = p->needTies ? c->pools[ref->pool].ties + ref->offset : NULL;
		cliCastWriter_Format(&p->writer, &block->text, position, record, NULL, out, ties,
							 ties != NULL ? ref->count : 0, exact);
	}
	addTime(p, &p->times.format, threadSeconds() - t0);
}

/* Run block b of c's phase (task: any thread). */
static void runBlock(cliPipeline* p, cliWorker* w, cliChunk* c, cliChunkPhase phase, int b)
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
static void writeChunk(cliPipeline* p, cliChunk* c)
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
		cliReportError(p->inputName, fatal);
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
		if (ok && p->head.length > 0) {
			ok = cliOutput_Write(p->output, p->head.data, p->head.length);
			cliBuffer_Clear(&p->head);
		}
		for (int b = 0; b < c->blockCount && ok; ++b) {
			ok = cliOutput_Write(p->output, c->blocks[b].text.data, c->blocks[b].text.length);
		}
		ok = ok && cliOutput_Flush(p->output);
		if (ok) {
			cliProgress_Update(&p->progress, p->summary.records, p->summary.hits, c->read);
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
static cliChunk* workableChunk(cliPipeline* p)
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
	cliPipeline* p = w->pipeline;
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
		if (canRead && (workable == NULL || !p->lowLatency || cliReader_IsInputReady(p->reader))) {
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
static void printStats(double readMesh, const bcMeshInfo* info, const cliCastTimes* times,
					   const cliCastSummary* summary, int threads, double publish)
{
	FILE* f = stderr;
	fputs("{\"read_mesh_seconds\":", f);
	cliWriteNumber(f, readMesh - info->buildSeconds);
	fputs(",\"build_seconds\":", f);
	cliWriteNumber(f, info->buildSeconds);
	fputs(",\"read_trajectories_seconds\":", f);
	cliWriteNumber(f, times->read + times->parse);
	fputs(",\"query_seconds\":", f);
	cliWriteNumber(f, times->query);
	fputs(",\"write_seconds\":", f);
	cliWriteNumber(f, times->format + times->write + publish);
	fprintf(f, ",\"triangles\":%ld,\"records\":%ld,\"hits\":%ld,\"errors\":%ld,\"threads\":%d,\"peak_memory_bytes\":%lld}\n",
			(long)info->triangleCount, summary->records, summary->hits, summary->errors, threads,
			cliPeakMemory());
}

/* Free a chunk (NULL is fine). */
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
	free(c->tieRefs);
	free(c->pools);
	free(c->order);
	free(c->keys);
	free(c->scratch);
	free(c);
}

/* A chunk of capacity records (with room for the exact casts too when
 * exact), or NULL when memory runs out; the caller owns it
 * (cliChunk_Destroy). The per-record arrays are not cleared: each entry is
 * written (read, parse, order, cast) before it is read, so their pages are
 * touched only as records fill them, and a small input costs no more
 * memory than before --batch grew. The blocks and pools start empty. */
static cliChunk* cliChunk_Create(int capacity, bool exact)
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
	c->tieRefs = malloc(n * sizeof *c->tieRefs);
	c->pools = calloc(blocks, sizeof *c->pools);
	c->order = malloc(n * sizeof *c->order);
	c->keys = malloc(n * sizeof *c->keys);
	c->scratch = malloc(n * sizeof *c->scratch);
	if (c->records == NULL || c->problems == NULL || c->blocks == NULL || c->inputs == NULL || c->outputs == NULL ||
		(exact && c->exact == NULL) || c->tieRefs == NULL || c->pools == NULL || c->order == NULL ||
		c->keys == NULL || c->scratch == NULL) {
		cliChunk_Destroy(c);
		return NULL;
	}
	return c;
}

/* Free what pipeline setup made (any of it may be missing). */
static void freePipeline(cliPipeline* p, cliWorker* workers, int threads)
{
	for (int s = 0; s < CLI_CAST_SLOTS; ++s) {
		cliChunk_Destroy(p->slots[s]);
	}
	for (int t = 0; workers != NULL && t < threads; ++t) {
		cliJsonParser_Destroy(workers[t].parser);
	}
	free(workers);
	cliBuffer_Free(&p->head);
}

int cliCastMain(int argc, char** argv)
{
	cliCastConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	int threads = bcThreadCount(cfg.common.threads);
	cliPipeline p;
	memset(&p, 0, sizeof p);
	p.cfg = &cfg;
	atomic_init(&p.stop, false);
	cliProgress_Start(&p.progress, &cfg.common, "trajectories", "hits");
	cliWorker* workers = NULL;
	FILE* input = NULL;
	cliOutput output;
	bool opened = false;

	double started = cliNow();
	bcMesh* mesh = cliLoadMeshWithThreads(cfg.meshPath, cfg.common.quiet, cfg.common.threads);
	double readMesh = cliNow() - started;
	const char* inputName = cliInputName(cfg.inputPath);
	input = mesh != NULL ? cliOpenInput(cfg.inputPath, cfg.common.quiet) : NULL;
	if (input == NULL) {
		goto done;
	}
	p.mesh = mesh;
	p.inputName = inputName;
	p.log = cliRecordLog_Make(inputName, &cfg.common, &p.progress);
	p.reader = cliReader_Create(input, inputName, cfg.common.inputFormat);
	workers = calloc((size_t)threads, sizeof *workers);
	bool ready = p.reader != NULL && workers != NULL;
	for (int s = 0; s < CLI_CAST_SLOTS && ready; ++s) {
		p.slots[s] = cliChunk_Create(cfg.batch, cfg.compareExact);
		ready = p.slots[s] != NULL;
	}
	p.needTies = cfg.ties || cfg.s.normalMode == cli_normalAverage;
	for (int t = 0; t < threads && ready; ++t) {
		/* parsers before threads: the first installs cJSON's hooks */
		workers[t].pipeline = &p;
		workers[t].parser = cliJsonParser_Create();
		ready = workers[t].parser != NULL;
	}
	if (!ready) {
		fputs("ballcast: out of memory\n", stderr);
		goto done;
	}

	/* Streaming: NDJSON or CSV out to stdout from NDJSON or CSV in, where a
	 * consumer can use each result as it comes. Everything else is staged
	 * (a temporary file, published when the run succeeds), as a JSON
	 * document or the answers to a JSON array are whole or nothing. Reading
	 * starts with detecting the input format, before the output is opened
	 * when it may stream; otherwise the output is opened first. */
	bool toStdout = cfg.common.outputPath == NULL || strcmp(cfg.common.outputPath, "-") == 0;
	bcError error = { 0 };
	int detected = 1;
	if (toStdout && cfg.common.format != cli_outputJson) {
		detected = cliReader_Detect(p.reader, &error);
		cliInputFormat format = cliReader_GetFormat(p.reader);
		bool lines = format == cli_inputNdjson || format == cli_inputCsv;
		opened = detected > 0 && (lines ? cliOutput_OpenStdout(&output) : cliOutput_Open(&output, NULL));
	} else {
		opened = cliOutput_Open(&output, cfg.common.outputPath);
		detected = opened ? cliReader_Detect(p.reader, &error) : 1;
	}
	if (detected < 0) {
		cliReportError(inputName, &error);
	}
	if (!opened || detected < 0) {
		goto done;
	}
	p.output = &output;
	p.lowLatency = output.streaming;
	cliReader_SetKeepWaiting(p.reader, keepWaiting, &p);

	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCastHeader header = { cfg.meshPath, info, &cfg.s.options, normalNames[cfg.s.normalMode], cfg.ties,
							 cfg.discrete ? &cfg.discreteOptions : NULL, cfg.compareExact };
	cliCastWriter_Begin(&p.writer, &p.head, cfg.common.format, &header);

	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.wake, NULL);
	bcParallelFor(threads, 1, threads, runWorker, workers);
	pthread_cond_destroy(&p.wake);
	pthread_mutex_destroy(&p.lock);
	cliProgress_Clear(&p.progress);
	cliRecordLog_Finish(&p.log);

	double publishStart = cliNow();
	if (p.status == cli_exitOk) {
		/* the head went out with the first chunk (the last one at least) */
		cliBuffer_Clear(&p.head);
		cliCastWriter_End(&p.writer, &p.head, p.summary.records, &p.summary);
		if (p.head.failed) {
			fputs("ballcast: out of memory\n", stderr);
		} else if (cliOutput_Write(&output, p.head.data, p.head.length) && cliOutput_Commit(&output)) {
			status = p.summary.errors > 0 ? cli_exitRecords : cli_exitOk;
			cliProgress_Finish(&p.progress, p.summary.records, p.summary.hits, p.summary.errors);
			if (cfg.compareExact && !cfg.common.quiet) {
				fputs("ballcast: --method discrete --dt ", stderr);
				cliWriteNumber(stderr, cfg.discreteOptions.step);
				fprintf(stderr, " --bisect %d: %ld of %ld throws tunnel (hit by the exact cast, missed)\n",
						cfg.discreteOptions.bisections, p.summary.tunnelled, p.summary.records - p.summary.errors);
			}
		}
	}
	if (cfg.stats) {
		printStats(readMesh, &info, &p.times, &p.summary, threads, cliNow() - publishStart);
	}
done:
	if (opened && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	}
	freePipeline(&p, workers, threads);
	cliReader_Destroy(p.reader);
	cliCloseInput(input);
	bcMesh_Destroy(mesh);
	return status;
}
