/* cast_cmd.c - `ballcast cast MESH [TRAJECTORIES]`: its options, and the
 * wiring of mesh, input, output and writer around the pipeline that answers
 * the trajectories (cast_pipeline.c) with the library's batch, or the
 * answer module's discrete method (answer.c). */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cast_pipeline.h"
#include "cli.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "results_write.h"
#include "records.h"

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
	CLI_HELP_CAST_METHOD
	"                            each discrete result also has \"alpha_free\": the\n"
	"                            start of that last half, the last alpha seen\n"
	"                            free (seed 002's t)\n"
	CLI_HELP_CAST_STEP
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
	CLI_HELP_MESH_FORMAT
	CLI_HELP_SHARD
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast cast room.obj throws.json | jq '.results[] | select(.hit) | .alpha'\n"
	"  ballcast cast --format csv -r 0.1 room.obj throws.csv > hits.csv\n"
	"  cat throws.ndjson | ballcast cast room.obj - --format ndjson\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optThreads | cli_optQuiet |
		cli_optMaxErrors | cli_optMeshFormat | cli_optShard,
	castOptions,
	1,
	2,
	{ "missing MESH", NULL },
};

typedef struct cliCastConfig {
	const char* meshPath;
	const char* inputPath;
	cliCommonOptions common; /* -o -f -i -r -j -q */
	cliCastSettings s; /* --two-sided, --approach, --normal, --initial-overlap, --convention, --method, --dt,
						  --bisect */
	bool ties;
	bool stats;
	bool compareExact;
	int batch; /* --batch: records per chunk */
} cliCastConfig;
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
	case cli_castDt:
	case cli_castBisect:
		return cliCastSettings_Option(&cfg->s, cli_castMethodFirst + (k - cli_castMethod), value);
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
	const char* message = cliCastSettings_CheckMethod(&cfg->s, cfg->ties);
	if (message == NULL && !cfg->s.discrete && cfg->compareExact) {
		message = "--compare-exact needs --method discrete";
	}
	return message != NULL ? cliUsageError(&castUsage, message, NULL) : -1;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliCastConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cliCastSettings_Init(&cfg->s);
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
	status = cliCheckInputs(&castUsage, &cfg->common, cfg->meshPath, cfg->inputPath);
	if (status >= 0) {
		return status;
	}
	if (cliCastSettings_Finish(&cfg->s)) {
		cfg->ties = true;
	}
	return -1;
}
/* One JSON line of phase times and counts on stderr (--stats). */
static void printStats(double readMesh, const bcMeshInfo* info, const cliCastTimes* times,
					   const cliCastSummary* summary, int threads, double publish)
{
	FILE* f = stderr;
	fputs("{\"read_mesh_seconds\":", f);
	cliWriteNumber(f, readMesh - info->buildSeconds);
	cliWriteNumberMember(f, "build_seconds", info->buildSeconds);
	cliWriteNumberMember(f, "read_trajectories_seconds", times->read + times->parse);
	cliWriteNumberMember(f, "query_seconds", times->query);
	cliWriteNumberMember(f, "write_seconds", times->format + times->write + publish);
	fprintf(f, ",\"triangles\":%ld,\"records\":%ld,\"hits\":%ld,\"errors\":%ld,\"threads\":%d,\"peak_memory_bytes\":%lld}\n",
			(long)info->triangleCount, summary->records, summary->hits, summary->errors, threads,
			cliPeakMemory());
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
	cliProgress progress;
	cliProgress_Start(&progress, &cfg.common, "trajectories", "hits");
	cliCastPipeline* pipeline = NULL;
	cliReader* reader = NULL;
	cliBuffer head = { 0 };
	FILE* input = NULL;
	cliOutput output;
	bool opened = false;

	double started = cliNow();
	bcMesh* mesh = cliLoadMesh(cfg.meshPath, &cfg.common, &status);
	status = mesh != NULL ? cli_exitTrouble : status;
	double readMesh = cliNow() - started;
	const char* inputName = cliInputName(cfg.inputPath);
	input = mesh != NULL ? cliOpenInput(cfg.inputPath, cfg.common.quiet) : NULL;
	if (input == NULL) {
		goto done;
	}
	reader = cliReader_Create(input, inputName, cfg.common.inputFormat);
	int sharding = cliShardReader(&cfg.common, input, inputName, reader);
	if (sharding >= 0) {
		status = sharding;
		goto done;
	}
	cliCastPipelineDef def = { mesh,	 &cfg.s,  &cfg.common, cfg.ties, cfg.compareExact,
							   cfg.batch, threads, reader,	   inputName, &progress };
	pipeline = reader != NULL ? cliCastPipeline_Create(&def) : NULL;
	if (pipeline == NULL) {
		cliReportNoMemory();
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
	if (toStdout && cliOutputFormat_Streams(cfg.common.format)) {
		detected = cliReader_Detect(reader, &error);
		cliInputFormat format = cliReader_GetFormat(reader);
		bool lines = format == cli_inputNdjson || format == cli_inputCsv;
		opened = detected > 0 && (lines ? cliOutput_OpenStdout(&output) : cliOutput_Open(&output, NULL));
	} else {
		opened = cliOutput_Open(&output, cfg.common.outputPath);
		detected = opened ? cliReader_Detect(reader, &error) : 1;
	}
	if (detected < 0) {
		cliReportError(inputName, &error);
	}
	if (!opened || detected < 0) {
		goto done;
	}

	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCastHeader header = { cfg.meshPath,
							 info,
							 &cfg.s.options,
							 cliCastSettings_NormalName(&cfg.s),
							 cfg.ties,
							 cfg.s.discrete ? &cfg.s.discreteOptions : NULL,
							 cfg.compareExact };
	cliCastWriter writer;
	if (cfg.s.discrete) {
		cliCastWriter_BeginWithAlphaFree(&writer, &head, cfg.common.format, &header);
	} else {
		cliCastWriter_Begin(&writer, &head, cfg.common.format, &header);
	}
	if (cfg.common.shardIndex > 0) {
		cliBuffer_Clear(&head); /* the CSV header row: once, in shard 0 */
	}
	int run = cliCastPipeline_Run(pipeline, &output, &writer, &head);
	const cliCastSummary* summary = cliCastPipeline_GetSummary(pipeline);

	double publishStart = cliNow();
	if (run == cli_exitOk) {
		/* the head went out with the first chunk (the last one at least) */
		cliBuffer_Clear(&head);
		cliCastWriter_End(&writer, &head, summary->records, summary);
		if (head.failed) {
			cliReportNoMemory();
		} else if (cliOutput_Write(&output, head.data, head.length) && cliOutput_Commit(&output)) {
			status = summary->errors > 0 ? cli_exitRecords : cli_exitOk;
			cliProgress_Finish(&progress, summary->records, summary->hits, summary->errors);
			if (cfg.compareExact && !cfg.common.quiet) {
				fputs("ballcast: --method discrete --dt ", stderr);
				cliWriteNumber(stderr, cfg.s.discreteOptions.step);
				fprintf(stderr, " --bisect %d: %ld of %ld throws tunnel (hit by the exact cast, missed)\n",
						cfg.s.discreteOptions.bisections, summary->tunnelled, summary->records - summary->errors);
			}
		}
	}
	if (cfg.stats) {
		printStats(readMesh, &info, cliCastPipeline_GetTimes(pipeline), summary, threads, cliNow() - publishStart);
	}
done:
	if (opened && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	}
	cliCastPipeline_Destroy(pipeline);
	cliBuffer_Free(&head);
	cliReader_Destroy(reader);
	cliCloseInput(input);
	bcMesh_Destroy(mesh);
	return status;
}
