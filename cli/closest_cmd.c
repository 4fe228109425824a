/* closest_cmd.c - `ballcast closest MESH [BALLS]`: for each ball at rest,
 * the closest point of the mesh to its centre, and whether it overlaps.
 * Balls are read in chunks, answered on several threads, and written in
 * input order. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "record_log.h"
#include "records_out.h"
#include "records.h"

/* Records read, answered and written together: large enough to keep every
 * thread busy, small enough that memory does not grow with the input. */
#define CLI_CLOSEST_CHUNK 8192

static const cliOption closestOptions[] = { { "brute", 0, false }, { NULL, 0, false } };

static const cliUsage closestUsage = {
	"closest",
	"usage: ballcast closest [OPTIONS] MESH.obj [BALLS]\n"
	"\n"
	"For each ball at rest (centre p, radius r), the closest point of the mesh to\n"
	"p, its distance, triangle and feature, the point's barycentric weights of\n"
	"the triangle's vertices A, B, C (file order), and whether the ball overlaps\n"
	"the mesh. BALLS is a JSON array, NDJSON or CSV (columns x,y,z and r); '-' or\n"
	"none reads standard input.\n"
	"\n"
	"options:\n"
	CLI_HELP_OUTPUT
	CLI_HELP_FORMAT
	CLI_HELP_INPUT_FORMAT
	"  -r, --radius R            radius for records without \"r\" (default 0)\n"
	"      --brute               test every triangle (reference path, slow)\n"
	CLI_HELP_THREADS
	CLI_HELP_QUIET_ALL
	CLI_HELP_MAX_ERRORS
	CLI_HELP_MESH_FORMAT
	CLI_HELP_SHARD
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast closest room.obj balls.json | jq '.results[] | .distance'\n"
	"  ballcast closest --format csv -r 0.1 room.obj points.csv > closest.csv\n"
	"  cat balls.ndjson | ballcast closest room.obj - --format ndjson\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optThreads | cli_optQuiet |
		cli_optMaxErrors | cli_optMeshFormat | cli_optShard,
	closestOptions,
	1,
	2,
	{ "missing MESH", NULL },
};

typedef struct cliClosestConfig {
	const char* meshPath;
	const char* inputPath;
	cliCommonOptions common;
	bcClosestOptions options;
} cliClosestConfig;

typedef struct cliClosestSummary {
	long records;
	long overlaps;
	long errors;
} cliClosestSummary;

/* --brute, the one option of its own. */
static const char* closestOption(void* context, int k, const char* value)
{
	(void)k;
	(void)value;
	((cliClosestConfig*)context)->options.bruteForce = true;
	return NULL;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliClosestConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->options = bcDefaultClosestOptions();
	int first = 0;
	int status = cliParseArguments(&closestUsage, argc, argv, &cfg->common, closestOption, cfg, &first);
	if (status < 0) {
		cfg->meshPath = argv[first];
		cfg->inputPath = first + 1 < argc ? argv[first + 1] : "-";
		status = cliCheckInputs(&closestUsage, &cfg->common, cfg->meshPath, cfg->inputPath);
	}
	return status;
}

/* Check one record; returns the problem or NULL, and fills input. */
static const char* checkRecord(const cliClosestConfig* cfg, const cliRecord* record, bcClosestInput* input)
{
	if (record->error[0] != 0) {
		return record->error;
	}
	if (!(record->fields & cli_fieldP)) {
		return "missing p";
	}
	input->p = record->p;
	input->radius = (record->fields & cli_fieldRadius) ? record->radius : cfg->common.radius;
	if (!bcIsValidClosestInput(*input)) {
		return "p or r is not a finite number";
	}
	return NULL;
}

/* ---------------------------------------------------------------- output */

/* closest's columns, in key and column order. */
enum {
	cli_closestId,
	cli_closestDistance,
	cli_closestPoint,
	cli_closestTriangle,
	cli_closestFace,
	cli_closestFeature,
	cli_closestVertices,
	cli_closestNormal,
	cli_closestOverlap,
	cli_closestDepth,
	cli_closestBarycentric,
	cli_closestError,
	cli_closestColumnCount
};

static const cliOutColumn closestColumns[cli_closestColumnCount] = {
	{ "id", NULL },
	{ "distance", NULL },
	CLI_OUT_VEC3_COLUMN("point"),
	{ "triangle", NULL },
	{ "face", NULL },
	{ "feature", NULL },
	{ "vertices", "vertex_0,vertex_1,vertex_2" },
	CLI_OUT_VEC3_COLUMN("normal"),
	{ "overlap", NULL },
	{ "depth", NULL },
	{ "barycentric", "bary_u,bary_v,bary_w" },
	{ "error", NULL },
};

/* The JSON head: the mesh and the settings. */
static void beginOutput(cliRecordsOut* writer, cliBuffer* text, cliOutputFormat format, const char* meshPath,
						const bcMeshInfo* info, bool skipHeader)
{
	cliOutField mesh[5] = {
		{ "file", cliOutValue_Text(meshPath) },
		{ "vertices", cliOutValue_Int(info->vertexCount) },
		{ "triangles", cliOutValue_Int(info->triangleCount) },
		{ "faces", cliOutValue_Int(info->faceCount) },
		{ "degenerate", cliOutValue_Int(info->degenerateCount) },
	};
	cliOutField settings[1] = { { "tie_tolerance", cliOutValue_Number(BC_DISTANCE_TIE_TOLERANCE) } };
	cliOutField head[2] = { { "mesh", cliOutValue_Object(mesh, 5) }, { "settings", cliOutValue_Object(settings, 1) } };
	cliRecordsLayout layout = { "results", closestColumns, cli_closestColumnCount, 0 };
	cliRecordsOut_Begin(writer, text, format, &layout, head, 2);
	if (skipHeader) {
		cliBuffer_Clear(text); /* the CSV header row: once, in shard 0 */
	}
}

/* One result: the answer, or the record's problem. */
static void formatResult(const cliRecordsOut* writer, cliBuffer* text, long position, const cliRecord* record,
						 const char* error, const bcClosestOutput* out)
{
	if (error != NULL) {
		cliRecordsOut_Error(writer, text, position, record, error);
		return;
	}
	bcVec3 barycentric = { out->barycentric[0], out->barycentric[1], out->barycentric[2] };
	cliOutValue v[cli_closestColumnCount] = {
		[cli_closestId] = cliOutValue_Id(record),
		[cli_closestDistance] = cliOutValue_Number(out->distance),
		[cli_closestPoint] = cliOutValue_Vec3(out->point),
		[cli_closestTriangle] = cliOutValue_Int(out->triangle),
		[cli_closestFace] = cliOutValue_Int(out->face),
		[cli_closestFeature] = cliOutValue_Name(bcFeatureName(out->feature)),
		[cli_closestVertices] = cliOutValue_Ints(out->vertices, out->vertexCount),
		[cli_closestNormal] = cliOutValue_Vec3(out->normal),
		[cli_closestOverlap] = cliOutValue_Bool(out->overlap),
		[cli_closestDepth] = cliOutValue_Number(out->depth),
		[cli_closestBarycentric] = cliOutValue_Vec3(barycentric),
	};
	cliRecordsOut_Record(writer, text, position, v);
}

static void endOutput(const cliRecordsOut* writer, cliBuffer* text, const cliClosestSummary* summary)
{
	cliOutField fields[3] = {
		{ "records", cliOutValue_Int(summary->records) },
		{ "overlaps", cliOutValue_Int(summary->overlaps) },
		{ "errors", cliOutValue_Int(summary->errors) },
	};
	cliRecordsOut_End(writer, text, summary->records, fields, 3);
}

/* Write what was formatted, and start again; false when memory ran out. */
static bool drain(cliOutput* output, cliBuffer* text)
{
	if (text->failed) {
		return false;
	}
	cliOutput_Write(output, text->data, text->length);
	cliBuffer_Clear(text);
	return true;
}

/* ----------------------------------------------------------------- chunks */

typedef struct cliClosestChunk {
	cliRecord records[CLI_CLOSEST_CHUNK];
	const char* problems[CLI_CLOSEST_CHUNK];
	int slot[CLI_CLOSEST_CHUNK]; /* record -> index into inputs, -1 if bad */
	bcClosestInput inputs[CLI_CLOSEST_CHUNK];
	bcClosestOutput outputs[CLI_CLOSEST_CHUNK];
} cliClosestChunk;

/* Check, answer and format the count records of a chunk into text. */
static void processChunk(const cliClosestConfig* cfg, const bcMesh* mesh, cliRecordLog* log, cliClosestChunk* chunk,
						 int count, const cliRecordsOut* writer, cliBuffer* text, cliClosestSummary* summary)
{
	int valid = 0;
	for (int i = 0; i < count; ++i) {
		const cliRecord* record = chunk->records + i;
		chunk->problems[i] = checkRecord(cfg, record, chunk->inputs + valid);
		chunk->slot[i] = chunk->problems[i] == NULL ? valid++ : -1;
	}
	bcMesh_ClosestBatch(mesh, chunk->inputs, chunk->outputs, valid, &cfg->options, cfg->common.threads);
	for (int i = 0; i < count; ++i) {
		const cliRecord* record = chunk->records + i;
		const bcClosestOutput* out = chunk->slot[i] >= 0 ? chunk->outputs + chunk->slot[i] : NULL;
		if (out != NULL && out->state != bc_closestFound) {
			/* only a centre so far out that its distance overflows a double */
			chunk->problems[i] = "p is too far from the mesh: the distance overflows";
		}
		if (chunk->problems[i] != NULL) {
			cliRecordLog_Add(log, record, chunk->problems[i]);
			summary->errors += 1;
			out = NULL;
		} else if (out->overlap) {
			summary->overlaps += 1;
		}
		formatResult(writer, text, summary->records, record, chunk->problems[i], out);
		summary->records += 1;
	}
}

int cliClosestMain(int argc, char** argv)
{
	cliClosestConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	cliProgress progress;
	cliProgress_Start(&progress, &cfg.common, "balls", "overlapping");
	FILE* input = NULL;
	cliReader* reader = NULL;
	cliClosestChunk* chunk = NULL;
	cliOutput output;
	cliBuffer text = { 0 };
	bool opened = false;
	bcMesh* mesh = cliLoadMesh(cfg.meshPath, &cfg.common, &status);
	if (mesh == NULL) {
		goto done;
	}
	status = cli_exitTrouble;
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount == info.triangleCount) {
		cliReportFile(cfg.meshPath);
		fputs(": every triangle is degenerate (zero area): no point is closest\n", stderr);
		goto done;
	}
	const char* inputName = cliInputName(cfg.inputPath);
	input = cliOpenInput(cfg.inputPath, cfg.common.quiet);
	if (input == NULL) {
		goto done;
	}
	reader = cliReader_Create(input, inputName, cfg.common.inputFormat);
	int sharding = cliShardReader(&cfg.common, input, inputName, reader);
	if (sharding >= 0) {
		status = sharding;
		goto done;
	}
	chunk = calloc(1, sizeof *chunk);
	if (reader == NULL || chunk == NULL) {
		cliReportNoMemory();
		goto done;
	}
	opened = cliOutput_Open(&output, cfg.common.outputPath);
	if (!opened) {
		goto done;
	}

	cliClosestSummary summary = { 0, 0, 0 };
	cliRecordLog log = cliRecordLog_Make(inputName, &cfg.common, &progress);
	cliRecordsOut writer;
	beginOutput(&writer, &text, cfg.common.format, cfg.meshPath, &info, cfg.common.shardIndex > 0);
	bcError error = { 0 };
	int got = 1;
	while (got == 1) {
		int count = 0;
		while (count < CLI_CLOSEST_CHUNK && (got = cliReader_Next(reader, chunk->records + count, &error)) == 1) {
			++count;
		}
		if (got >= 0) {
			processChunk(&cfg, mesh, &log, chunk, count, &writer, &text, &summary);
		}
		if (!drain(&output, &text)) {
			got = 0;
		}
		for (int i = 0; i < count; ++i) {
			cliRecord_Free(chunk->records + i);
		}
		cliProgress_Update(&progress, summary.records, summary.overlaps, cliReader_Progress(reader));
	}
	cliProgress_Clear(&progress);
	cliRecordLog_Finish(&log);
	if (got < 0) {
		cliReportError(inputName, &error);
		goto done;
	}
	endOutput(&writer, &text, &summary);
	if (!drain(&output, &text)) {
		cliReportNoMemory();
	} else if (cliOutput_Commit(&output)) {
		status = summary.errors > 0 ? cli_exitRecords : cli_exitOk;
		cliProgress_Finish(&progress, summary.records, summary.overlaps, summary.errors);
	}
done:
	if (opened && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	}
	cliBuffer_Free(&text);
	cliReader_Destroy(reader);
	free(chunk);
	cliCloseInput(input);
	bcMesh_Destroy(mesh);
	return status;
}
