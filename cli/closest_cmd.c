/* closest_cmd.c - `ballcast closest MESH [BALLS]`: for each ball at rest,
 * the closest point of the mesh to its centre, and whether it overlaps.
 * Balls are read in chunks, answered on several threads, and written in
 * input order. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "trajectories.h"
#include "results_write.h"

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
	CLI_HELP_MAX_ERRORS CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast closest room.obj balls.json | jq '.results[] | .distance'\n"
	"  ballcast closest --format csv -r 0.1 room.obj points.csv > closest.csv\n"
	"  cat balls.ndjson | ballcast closest room.obj - --format ndjson\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optThreads | cli_optQuiet |
		cli_optMaxErrors,
	closestOptions,
	1,
	2,
	{ "missing MESH", NULL },
};

static const char* const closestCsvHeader =
	"id,distance,point_x,point_y,point_z,triangle,face,feature,vertex_0,vertex_1,vertex_2,"
	"normal_x,normal_y,normal_z,overlap,depth,bary_u,bary_v,bary_w,error\n";

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

static void writeHeader(FILE* f, cliOutputFormat format, const char* meshPath, const bcMeshInfo* info)
{
	if (format == cli_outputCsv) {
		fputs(closestCsvHeader, f);
		return;
	}
	if (format != cli_outputJson) {
		return;
	}
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"mesh\":{\"file\":", f);
	cliWriteJsonString(f, meshPath);
	fputs(",\"vertices\":", f);
	cliWriteInt(f, info->vertexCount);
	fputs(",\"triangles\":", f);
	cliWriteInt(f, info->triangleCount);
	fputs(",\"faces\":", f);
	cliWriteInt(f, info->faceCount);
	fputs(",\"degenerate\":", f);
	cliWriteInt(f, info->degenerateCount);
	fputs("},\"settings\":{\"tie_tolerance\":", f);
	cliWriteNumber(f, BC_DISTANCE_TIE_TOLERANCE);
	fputs("},\n\"results\":[", f);
}

/* One result object: the answer, or the record's problem. */
static void writeJson(FILE* f, const cliRecord* record, const char* error, const bcClosestOutput* out)
{
	fputs("{\"id\":", f);
	cliWriteRecordIdJson(f, record);
	if (error != NULL) {
		fputs(",\"error\":", f);
		cliWriteJsonString(f, error);
		putc('}', f);
		return;
	}
	fputs(",\"distance\":", f);
	cliWriteNumber(f, out->distance);
	fputs(",\"point\":", f);
	cliWriteJsonVec3(f, out->point.x, out->point.y, out->point.z);
	fputs(",\"triangle\":", f);
	cliWriteInt(f, out->triangle);
	fputs(",\"face\":", f);
	cliWriteInt(f, out->face);
	fputs(",\"feature\":\"", f);
	fputs(bcFeatureName(out->feature), f);
	fputs("\",\"vertices\":[", f);
	for (int k = 0; k < out->vertexCount; ++k) {
		if (k > 0) {
			putc(',', f);
		}
		cliWriteInt(f, out->vertices[k]);
	}
	fputs("],\"normal\":", f);
	cliWriteJsonVec3(f, out->normal.x, out->normal.y, out->normal.z);
	fputs(out->overlap ? ",\"overlap\":true,\"depth\":" : ",\"overlap\":false,\"depth\":", f);
	cliWriteNumber(f, out->depth);
	fputs(",\"barycentric\":", f);
	cliWriteJsonVec3(f, out->barycentric[0], out->barycentric[1], out->barycentric[2]);
	putc('}', f);
}

/* One CSV row of the 20 columns of closestCsvHeader. */
static void writeCsv(FILE* f, const cliRecord* record, const char* error, const bcClosestOutput* out)
{
	cliWriteRecordIdCsv(f, record);
	if (error != NULL) {
		/* 18 empty cells, distance .. bary_w, then the error */
		fputs(",,,,,,,,,,,,,,,,,,,", f);
		cliWriteCsvField(f, error);
		putc('\n', f);
		return;
	}
	putc(',', f);
	cliWriteNumber(f, out->distance);
	cliWriteCsvVec3(f, out->point);
	putc(',', f);
	cliWriteInt(f, out->triangle);
	putc(',', f);
	cliWriteInt(f, out->face);
	putc(',', f);
	fputs(bcFeatureName(out->feature), f);
	for (int k = 0; k < 3; ++k) {
		putc(',', f);
		if (k < out->vertexCount) {
			cliWriteInt(f, out->vertices[k]);
		}
	}
	cliWriteCsvVec3(f, out->normal);
	fputs(out->overlap ? ",true," : ",false,", f);
	cliWriteNumber(f, out->depth);
	for (int k = 0; k < 3; ++k) {
		putc(',', f);
		cliWriteNumber(f, out->barycentric[k]);
	}
	fputs(",\n", f);
}

static void writeResult(FILE* f, cliOutputFormat format, long written, const cliRecord* record, const char* error,
						const bcClosestOutput* out)
{
	switch (format) {
	case cli_outputJson:
		fputs(written > 0 ? ",\n" : "\n", f);
		writeJson(f, record, error, out);
		break;
	case cli_outputNdjson:
		writeJson(f, record, error, out);
		putc('\n', f);
		break;
	case cli_outputCsv:
		writeCsv(f, record, error, out);
		break;
	}
}

static void writeFooter(FILE* f, cliOutputFormat format, const cliClosestSummary* summary)
{
	if (format != cli_outputJson) {
		return;
	}
	fputs(summary->records > 0 ? "\n],\n\"summary\":{\"records\":" : "],\n\"summary\":{\"records\":", f);
	cliWriteInt(f, summary->records);
	fputs(",\"overlaps\":", f);
	cliWriteInt(f, summary->overlaps);
	fputs(",\"errors\":", f);
	cliWriteInt(f, summary->errors);
	fputs("}}\n", f);
}

/* ----------------------------------------------------------------- chunks */

typedef struct cliClosestChunk {
	cliRecord records[CLI_CLOSEST_CHUNK];
	const char* problems[CLI_CLOSEST_CHUNK];
	int slot[CLI_CLOSEST_CHUNK]; /* record -> index into inputs, -1 if bad */
	bcClosestInput inputs[CLI_CLOSEST_CHUNK];
	bcClosestOutput outputs[CLI_CLOSEST_CHUNK];
} cliClosestChunk;

/* Check, answer and write the count records of a chunk. */
static void processChunk(const cliClosestConfig* cfg, const bcMesh* mesh, cliRecordLog* log, cliClosestChunk* chunk,
						 int count, FILE* f, cliClosestSummary* summary)
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
		writeResult(f, cfg->common.format, summary->records, record, chunk->problems[i], out);
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
	bool opened = false;
	bcMesh* mesh = cliLoadMeshWithThreads(cfg.meshPath, cfg.common.quiet, cfg.common.threads);
	if (mesh == NULL) {
		goto done;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount == info.triangleCount) {
		fprintf(stderr, "ballcast: %s: every triangle is degenerate (zero area): no point is closest\n",
				cfg.meshPath);
		goto done;
	}
	const char* inputName = cliInputName(cfg.inputPath);
	input = cliOpenInput(cfg.inputPath, cfg.common.quiet);
	if (input == NULL) {
		goto done;
	}
	reader = cliReader_Create(input, inputName, cfg.common.inputFormat);
	chunk = calloc(1, sizeof *chunk);
	if (reader == NULL || chunk == NULL) {
		fputs("ballcast: out of memory\n", stderr);
		goto done;
	}
	opened = cliOutput_Open(&output, cfg.common.outputPath);
	if (!opened) {
		goto done;
	}

	cliClosestSummary summary = { 0, 0, 0 };
	cliRecordLog log = cliRecordLog_Make(inputName, &cfg.common, &progress);
	writeHeader(output.stream, cfg.common.format, cfg.meshPath, &info);
	bcError error = { 0 };
	int got = 1;
	while (got == 1) {
		int count = 0;
		while (count < CLI_CLOSEST_CHUNK && (got = cliReader_Next(reader, chunk->records + count, &error)) == 1) {
			++count;
		}
		if (got >= 0) {
			processChunk(&cfg, mesh, &log, chunk, count, output.stream, &summary);
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
	writeFooter(output.stream, cfg.common.format, &summary);
	if (cliOutput_Commit(&output)) {
		status = summary.errors > 0 ? cli_exitRecords : cli_exitOk;
		cliProgress_Finish(&progress, summary.records, summary.overlaps, summary.errors);
	}
done:
	if (opened && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	}
	cliReader_Destroy(reader);
	free(chunk);
	cliCloseInput(input);
	bcMesh_Destroy(mesh);
	return status;
}
