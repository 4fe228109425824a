/* balls_cmd.c - `ballcast balls [TRAJECTORIES]`: when moving balls first
 * meet each other. Every ball can meet every other, so unlike `cast` the
 * whole input is read into memory before anything is answered; results
 * then come in input order, in the same formats as `cast`. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "answer.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "record_log.h"
#include "records_out.h"
#include "records.h"

/* Records the arrays hold before they first grow (then doubling). */
#define CLI_BALLS_INITIAL_CAPACITY 1024

static const cliOption ballsOptions[] = { { "brute", 0, false }, { NULL, 0, false } };

static const cliUsage ballsUsage = {
	"balls",
	"usage: ballcast balls [OPTIONS] [TRAJECTORIES]\n"
	"\n"
	"All balls move at once, each from p0 (alpha 0) to p1 (alpha 1). For each\n"
	"ball, the earliest alpha in [0,1] at which it touches another ball, which\n"
	"one, where, and its velocity (p1 - p0) after an elastic collision with it.\n"
	"TRAJECTORIES is a JSON array, NDJSON or CSV (p0, p1, r, optional mass > 0,\n"
	"default 1, optional fixed: true for a ball that never moves, stays at p0\n"
	"and reflects the other, V' = V - 2U); '-' or none reads standard input.\n"
	"The whole input is read before the first answer.\n"
	"\n"
	"options:\n"
	CLI_HELP_OUTPUT
	CLI_HELP_FORMAT
	CLI_HELP_INPUT_FORMAT
	"  -r, --radius R            radius for records without \"r\"\n"
	"      --brute               test every pair (reference path, slow)\n"
	CLI_HELP_QUIET_ALL
	CLI_HELP_MAX_ERRORS
	CLI_HELP_SHARD
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast balls billiards.json\n"
	"  ballcast balls --format csv -r 0.1 balls.csv > meetings.csv\n"
	"  ballcast balls --format ndjson balls.ndjson | grep '\"hit\":true'\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optQuiet | cli_optMaxErrors | cli_optShard,
	ballsOptions,
	0,
	1,
	{ NULL, NULL },
};

typedef struct cliBallsConfig {
	const char* inputPath;
	cliCommonOptions common;
	bcBallsOptions options;
	cliInputRange range; /* --shard: the records whose answers are written (every ball is read and moves) */
} cliBallsConfig;

/* What is kept of one record until its answer is written. */
typedef struct cliBallEntry {
	long index;       /* 0-based record number */
	long line;        /* where the record starts (a bad one: where its problem is) */
	long column;
	cliIdKind idKind;
	char* id;         /* owned (taken from the record); NULL for cli_idIndex */
	char* problem;    /* owned: why the record cannot be answered, or NULL */
	int ball;         /* index into the balls, -1 for a bad record */
	bool inShard;     /* its answer is written (--shard; always without) */
} cliBallEntry;

/* The whole input: entries in input order, the balls of the good ones, and
 * for each ball the entry it came from (for the partner's id). */
typedef struct cliBallSet {
	cliBallEntry* entries;
	int entryCount;
	int entryCapacity;
	bcBallInput* balls;
	int* entryOfBall;
	int ballCount;
	int ballCapacity;
} cliBallSet;

/* --brute, the one option of its own. */
static const char* ballsOption(void* context, int k, const char* value)
{
	(void)k;
	(void)value;
	((cliBallsConfig*)context)->options.bruteForce = true;
	return NULL;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliBallsConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->options = bcDefaultBallsOptions();
	int first = 0;
	int status = cliParseArguments(&ballsUsage, argc, argv, &cfg->common, ballsOption, cfg, &first);
	cfg->inputPath = status < 0 && first < argc ? argv[first] : "-";
	return status < 0 ? cliCheckInputs(&ballsUsage, &cfg->common, NULL, cfg->inputPath) : status;
}

/* Check one record; returns the problem or NULL, and fills ball. */
static const char* checkRecord(const cliBallsConfig* cfg, const cliRecord* record, bcBallInput* ball)
{
	bool fixed = (record->fields & cli_fieldFixed) && record->fixed;
	cliRecord standing;
	if (fixed && !(record->fields & cli_fieldP1) && (record->fields & cli_fieldP0)) {
		/* a fixed ball needs no p1: it stays at p0 */
		standing = *record;
		standing.p1 = record->p0;
		standing.fields |= cli_fieldP1;
		record = &standing;
	}
	const char* problem = cliRecord_CheckTrajectory(record, &cfg->common, &ball->p0, &ball->p1, &ball->radius);
	if (problem != NULL) {
		return problem;
	}
	ball->mass = (record->fields & cli_fieldMass) ? record->mass : 1.0;
	ball->fixed = fixed;
	bcVec3 d = { ball->p1.x - ball->p0.x, ball->p1.y - ball->p0.y, ball->p1.z - ball->p0.z };
	if (!isfinite(d.x) || !isfinite(d.y) || !isfinite(d.z)) {
		return "p1 - p0 is not finite";
	}
	return NULL;
}

static void freeSet(cliBallSet* set)
{
	for (int i = 0; i < set->entryCount; ++i) {
		free(set->entries[i].id);
		free(set->entries[i].problem);
	}
	free(set->entries);
	free(set->balls);
	free(set->entryOfBall);
	memset(set, 0, sizeof *set);
}

/* Room for one more entry and one more ball; false when out of memory or
 * past the int range the library counts in. */
static bool reserve(cliBallSet* set)
{
	if (set->entryCount == INT_MAX) {
		return false;
	}
	if (set->entryCount == set->entryCapacity) {
		int capacity = set->entryCapacity == 0 ? CLI_BALLS_INITIAL_CAPACITY
						: (set->entryCapacity > INT_MAX / 2 ? INT_MAX : 2 * set->entryCapacity);
		cliBallEntry* entries = realloc(set->entries, (size_t)capacity * sizeof *entries);
		if (entries == NULL) {
			return false;
		}
		set->entries = entries;
		set->entryCapacity = capacity;
	}
	if (set->ballCount == set->ballCapacity) {
		int capacity = set->ballCapacity == 0 ? CLI_BALLS_INITIAL_CAPACITY
					   : (set->ballCapacity > INT_MAX / 2 ? INT_MAX : 2 * set->ballCapacity);
		bcBallInput* balls = realloc(set->balls, (size_t)capacity * sizeof *balls);
		if (balls == NULL) {
			return false;
		}
		set->balls = balls;
		int* entryOfBall = realloc(set->entryOfBall, (size_t)capacity * sizeof *entryOfBall);
		if (entryOfBall == NULL) {
			return false;
		}
		set->entryOfBall = entryOfBall;
		set->ballCapacity = capacity;
	}
	return true;
}

/* Read every record. Returns 1 when done, 0 when out of memory, -1 on a
 * syntax or read error (error filled). */
static int readAll(const cliBallsConfig* cfg, cliReader* reader, cliBallSet* set, cliProgress* progress,
				   bcError* error)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	int got;
	while ((got = cliReader_Next(reader, &record, error)) == 1) {
		if (!reserve(set)) {
			cliRecord_Free(&record);
			return 0;
		}
		cliBallEntry* entry = set->entries + set->entryCount;
		entry->index = record.index;
		entry->line = record.line;
		entry->column = record.column;
		entry->idKind = record.idKind;
		entry->id = record.id; /* taken over */
		record.id = NULL;
		entry->ball = -1;
		entry->inShard = cliInputRange_Holds(&cfg->range, record.line, record.column);
		bcBallInput* ball = set->balls + set->ballCount;
		const char* problem = checkRecord(cfg, &record, ball);
		if (problem == record.error && record.errorLine > 0) {
			entry->line = record.errorLine; /* where the problem is */
			entry->column = record.errorColumn;
		}
		/* problem may point into the record: copy it before the record goes. */
		entry->problem = problem != NULL ? strdup(problem) : NULL;
		cliRecord_Free(&record);
		if (problem != NULL && entry->problem == NULL) {
			free(entry->id);
			return 0;
		}
		if (problem == NULL) {
			entry->ball = set->ballCount;
			set->entryOfBall[set->ballCount++] = set->entryCount;
		}
		set->entryCount += 1;
		cliProgress_Update(progress, set->entryCount, -1, cliReader_Progress(reader));
	}
	return got < 0 ? -1 : 1;
}

/* A record standing in for an entry, for the id writers. */
static cliRecord idRecord(const cliBallEntry* entry)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = entry->index;
	record.idKind = entry->idKind;
	record.id = entry->id;
	return record;
}

/* ---------------------------------------------------------------- output */

/* balls' columns, in key and column order. */
enum {
	cli_ballsId,
	cli_ballsHit,
	cli_ballsAlpha,
	cli_ballsOther,
	cli_ballsInitialOverlap,
	cli_ballsPoint,
	cli_ballsNormal,
	cli_ballsVelocityBefore,
	cli_ballsVelocityAfter,
	cli_ballsError,
	cli_ballsColumnCount
};

static const cliOutColumn ballsColumns[cli_ballsColumnCount] = {
	{ "id", NULL },
	{ "hit", NULL },
	{ "alpha", NULL },
	{ "other", NULL },
	{ "initial_overlap", NULL },
	CLI_OUT_VEC3_COLUMN("point"),
	CLI_OUT_VEC3_COLUMN("normal"),
	CLI_OUT_VEC3_COLUMN("velocity_before"),
	CLI_OUT_VEC3_COLUMN("velocity_after"),
	{ "error", NULL },
};

static bool isHit(const bcBallResult* result)
{
	return result->state == bc_ballHit || result->state == bc_ballInitialOverlap;
}

/* One entry's answer, or its problem. */
static void formatResult(const cliRecordsOut* writer, cliBuffer* text, long position, const cliBallSet* set,
						 const cliBallEntry* entry, const bcBallResult* result)
{
	cliRecord self = idRecord(entry);
	if (entry->problem != NULL) {
		cliRecordsOut_Error(writer, text, position, &self, entry->problem);
		return;
	}
	cliOutValue v[cli_ballsColumnCount] = {
		[cli_ballsId] = cliOutValue_Id(&self),
		[cli_ballsHit] = cliOutValue_Bool(isHit(result)),
		[cli_ballsAlpha] = cliOutValue_Number(result->alpha),
	};
	cliRecord other;
	if (isHit(result)) {
		other = idRecord(set->entries + set->entryOfBall[result->other]);
		v[cli_ballsOther] = cliOutValue_Id(&other);
		v[cli_ballsInitialOverlap] = cliOutValue_Bool(result->state == bc_ballInitialOverlap);
		v[cli_ballsPoint] = cliOutValue_Vec3(result->point);
		v[cli_ballsNormal] = cliOutValue_Vec3(result->normal);
		v[cli_ballsVelocityBefore] = cliOutValue_Vec3(result->velocityBefore);
		v[cli_ballsVelocityAfter] = cliOutValue_Vec3(result->velocityAfter);
	}
	cliRecordsOut_Record(writer, text, position, v);
}

/* Write every answer in input order; returns the count of hits, or -1 when
 * memory ran out. */
static long writeResults(cliOutput* output, cliOutputFormat format, const cliBallSet* set,
						 const bcBallResult* results, bool skipHeader)
{
	cliBuffer text = { 0 };
	cliRecordsOut writer;
	cliOutField settings[1] = { { "tie_tolerance", cliOutValue_Number(BC_BALL_TIE_TOLERANCE) } };
	cliOutField head[1] = { { "settings", cliOutValue_Object(settings, 1) } };
	cliRecordsLayout layout = { "results", ballsColumns, cli_ballsColumnCount, 0 };
	cliRecordsOut_Begin(&writer, &text, format, &layout, head, 1);
	if (skipHeader) {
		cliBuffer_Clear(&text); /* the CSV header row: once, in shard 0 */
	}
	long hits = 0;
	long written = 0;
	long errors = 0;
	bool ok = true;
	for (int i = 0; i < set->entryCount && ok; ++i) {
		const cliBallEntry* entry = set->entries + i;
		if (!entry->inShard) {
			continue;
		}
		const bcBallResult* result = entry->ball >= 0 ? results + entry->ball : NULL;
		hits += result != NULL && isHit(result);
		errors += result == NULL;
		formatResult(&writer, &text, written++, set, entry, result);
		ok = !text.failed;
		if (ok) {
			cliOutput_Write(output, text.data, text.length);
			cliBuffer_Clear(&text);
		}
	}
	cliOutField summary[3] = {
		{ "records", cliOutValue_Int(written) },
		{ "hits", cliOutValue_Int(hits) },
		{ "errors", cliOutValue_Int(errors) },
	};
	cliRecordsOut_End(&writer, &text, written, summary, 3);
	ok = ok && !text.failed;
	if (ok) {
		cliOutput_Write(output, text.data, text.length);
	}
	cliBuffer_Free(&text);
	return ok ? hits : -1;
}

int cliBallsMain(int argc, char** argv)
{
	cliBallsConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	cliProgress progress;
	cliProgress_Start(&progress, &cfg.common, "trajectories", "meetings");
	cliBallSet set;
	memset(&set, 0, sizeof set);
	bcBallResult* results = NULL;
	cliOutput output;
	bool opened = false;
	const char* inputName = cliInputName(cfg.inputPath);
	FILE* input = cliOpenInput(cfg.inputPath, cfg.common.quiet);
	cliReader* reader = input != NULL ? cliReader_Create(input, inputName, cfg.common.inputFormat) : NULL;
	if (input != NULL && reader == NULL) {
		cliReportNoMemory();
	}
	int sharding = input != NULL ? cliShardRange(&cfg.common, input, inputName, &cfg.range) : -1;
	if (sharding >= 0) {
		status = sharding;
		cliReader_Destroy(reader);
		reader = NULL;
	}
	opened = reader != NULL && cliOutput_Open(&output, cfg.common.outputPath);
	if (!opened) {
		goto done;
	}
	bcError error = { 0 };
	int got = readAll(&cfg, reader, &set, &progress, &error);
	cliProgress_Clear(&progress);
	if (got < 0) {
		cliReportError(inputName, &error);
		goto done;
	}
	results = got == 1 ? malloc((size_t)(set.ballCount > 0 ? set.ballCount : 1) * sizeof *results) : NULL;
	if (results == NULL) {
		if (set.entryCount == INT_MAX) {
			fputs("ballcast: too many balls\n", stderr);
		} else {
			cliReportNoMemory();
		}
		goto done;
	}
	/* Notes on bad records, in input order, before the long part. */
	cliRecordLog log = cliRecordLog_Make(inputName, &cfg.common, NULL);
	for (int i = 0; i < set.entryCount; ++i) {
		const cliBallEntry* entry = set.entries + i;
		if (entry->problem != NULL && entry->inShard) {
			cliRecordLog_AddAt(&log, entry->index, entry->line, entry->column, entry->problem);
		}
	}
	cliRecordLog_Finish(&log);
	if (!bcCollideBallSet(set.balls, set.ballCount, &cfg.options, results, NULL)) {
		cliReportNoMemory();
		goto done;
	}
	long hits = writeResults(&output, cfg.common.format, &set, results, cfg.common.shardIndex > 0);
	long errors = 0;
	long answered = 0;
	for (int i = 0; i < set.entryCount; ++i) {
		errors += set.entries[i].inShard && set.entries[i].ball < 0;
		answered += set.entries[i].inShard;
	}
	if (hits < 0) {
		cliReportNoMemory();
	} else if (cliOutput_Commit(&output)) {
		status = errors > 0 ? cli_exitRecords : cli_exitOk;
		cliProgress_Finish(&progress, answered, hits, errors);
	}
done:
	if (opened && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	}
	cliReader_Destroy(reader);
	cliCloseInput(input);
	free(results);
	freeSet(&set);
	return status;
}
