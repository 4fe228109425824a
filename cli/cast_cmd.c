/* cast_cmd.c - `ballcast cast MESH [TRAJECTORIES]`: read trajectories in
 * chunks, cast each against the mesh, write the results in input order. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "records.h"
#include "results.h"

/* Records read, cast and written together: large enough to keep every
 * thread busy, small enough that memory does not grow with the input. */
#define CLI_CAST_CHUNK 8192

/* Tied contacts listed per result with --ties. */
#define CLI_MAX_TIES 64

static const char* const castUsage =
	"usage: ballcast cast [OPTIONS] MESH.obj [TRAJECTORIES]\n"
	"\n"
	"For each ball moving from p0 to p1, the earliest alpha in [0,1] at which it\n"
	"touches the mesh. TRAJECTORIES is a JSON array, NDJSON or CSV; '-' or none\n"
	"reads standard input.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE         write here (format from the extension: .json,\n"
	"                            .ndjson, .csv) instead of standard output\n"
	"  -f, --format FMT          json (default), ndjson or csv\n"
	"  -i, --input-format FMT    auto (default), json, ndjson or csv\n"
	"  -r, --radius R            radius for records without \"r\"\n"
	"      --two-sided           count contacts from behind a triangle too\n"
	"      --approach le|lt      front-face rule: dot(n, p1-p0) <= 0 (le, default)\n"
	"                            or < 0 (lt)\n"
	"      --normal contact|triangle\n"
	"                            what \"normal\" holds (default contact)\n"
	"      --initial-overlap report|ignore\n"
	"                            a ball already overlapping a triangle: a hit at\n"
	"                            alpha 0 (report, default) or skip that triangle\n"
	"      --ties                list every contact tied at the earliest alpha\n"
	"      --brute               test every triangle (reference path, slow)\n"
	"  -j, --threads N           threads (default: one per core)\n"
	"  -q, --quiet               no notes on standard error\n"
	"  -h, --help                this help\n"
	"\n"
	"examples:\n"
	"  ballcast cast room.obj throws.json | jq '.results[] | select(.hit) | .alpha'\n"
	"  ballcast cast --format csv -r 0.1 room.obj throws.csv > hits.csv\n"
	"  cat throws.ndjson | ballcast cast room.obj - --format ndjson\n";

typedef struct cliCastConfig {
	const char* meshPath;
	const char* inputPath;
	const char* outputPath;
	cliOutputFormat format;
	bool formatGiven;
	cliInputFormat inputFormat;
	bool haveRadius;
	double radius;
	bcCastOptions options;
	bool normalTriangle;
	bool ties;
	int threads;
	bool quiet;
} cliCastConfig;

static int usageError(const char* message, const char* arg)
{
	fprintf(stderr, "ballcast cast: %s%s%s%s\n", message, arg != NULL ? " '" : "", arg != NULL ? arg : "",
			arg != NULL ? "'" : "");
	fputs("usage: ballcast cast [OPTIONS] MESH.obj [TRAJECTORIES]   (ballcast cast --help)\n", stderr);
	return cli_exitTrouble;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliCastConfig* cfg)
{
	enum { optTwoSided = 256, optApproach, optNormal, optOverlap, optTies, optBrute };
	static const struct option longOptions[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "input-format", required_argument, NULL, 'i' },
		{ "radius", required_argument, NULL, 'r' },
		{ "two-sided", no_argument, NULL, optTwoSided },
		{ "approach", required_argument, NULL, optApproach },
		{ "normal", required_argument, NULL, optNormal },
		{ "initial-overlap", required_argument, NULL, optOverlap },
		{ "ties", no_argument, NULL, optTies },
		{ "brute", no_argument, NULL, optBrute },
		{ "threads", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(cfg, 0, sizeof *cfg);
	cfg->options = bcDefaultCastOptions();
	cfg->format = cli_outputJson;
	cfg->inputFormat = cli_inputAuto;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":o:f:i:r:j:qh", longOptions, NULL)) != -1) {
		switch (c) {
		case 'o':
			cfg->outputPath = optarg;
			break;
		case 'f':
			if (!cliParseOutputFormat(optarg, &cfg->format)) {
				return usageError("unknown output format", optarg);
			}
			cfg->formatGiven = true;
			break;
		case 'i':
			if (strcmp(optarg, "auto") == 0) {
				cfg->inputFormat = cli_inputAuto;
			} else if (strcmp(optarg, "json") == 0) {
				cfg->inputFormat = cli_inputJson;
			} else if (strcmp(optarg, "ndjson") == 0 || strcmp(optarg, "jsonl") == 0) {
				cfg->inputFormat = cli_inputNdjson;
			} else if (strcmp(optarg, "csv") == 0) {
				cfg->inputFormat = cli_inputCsv;
			} else {
				return usageError("unknown input format", optarg);
			}
			break;
		case 'r':
			if (!cliParseDouble(optarg, &cfg->radius) || cfg->radius < 0.0) {
				return usageError("--radius needs a finite number >= 0, not", optarg);
			}
			cfg->haveRadius = true;
			break;
		case optTwoSided:
			cfg->options.twoSided = true;
			break;
		case optApproach:
			if (strcmp(optarg, "le") == 0) {
				cfg->options.approach = bc_approachLessEqual;
			} else if (strcmp(optarg, "lt") == 0) {
				cfg->options.approach = bc_approachLess;
			} else {
				return usageError("--approach is le or lt, not", optarg);
			}
			break;
		case optNormal:
			if (strcmp(optarg, "contact") == 0) {
				cfg->normalTriangle = false;
			} else if (strcmp(optarg, "triangle") == 0) {
				cfg->normalTriangle = true;
			} else {
				return usageError("--normal is contact or triangle, not", optarg);
			}
			break;
		case optOverlap:
			if (strcmp(optarg, "report") == 0) {
				cfg->options.overlap = bc_overlapReport;
			} else if (strcmp(optarg, "ignore") == 0) {
				cfg->options.overlap = bc_overlapIgnore;
			} else {
				return usageError("--initial-overlap is report or ignore, not", optarg);
			}
			break;
		case optTies:
			cfg->ties = true;
			break;
		case optBrute:
			cfg->options.bruteForce = true;
			break;
		case 'j':
			if (!cliParseInt(optarg, &cfg->threads) || cfg->threads < 1) {
				return usageError("--threads needs a whole number >= 1, not", optarg);
			}
			break;
		case 'q':
			cfg->quiet = true;
			break;
		case 'h':
			fputs(castUsage, stdout);
			return fflush(stdout) == 0 ? cli_exitOk : cli_exitTrouble;
		case ':':
			return usageError("missing value for", argv[optind - 1]);
		default:
			return usageError("unknown option", argv[optind - 1]);
		}
	}
	int rest = argc - optind;
	if (rest < 1) {
		return usageError("missing MESH", NULL);
	}
	if (rest > 2) {
		return usageError("too many arguments, starting at", argv[optind + 2]);
	}
	cfg->meshPath = argv[optind];
	cfg->inputPath = rest == 2 ? argv[optind + 1] : "-";
	if (!cfg->formatGiven) {
		cfg->format = cliFormatFromPath(cfg->outputPath, cli_outputJson);
	}
	return -1;
}

/* Check one record; returns the problem or NULL, and fills input. */
static const char* checkRecord(const cliCastConfig* cfg, const cliRecord* record, bcCastInput* input)
{
	if (record->error[0] != 0) {
		return record->error;
	}
	if (!(record->fields & cli_fieldP0)) {
		return "missing p0";
	}
	if (!(record->fields & cli_fieldP1)) {
		return "missing p1";
	}
	input->p0 = record->p0;
	input->p1 = record->p1;
	if (record->fields & cli_fieldRadius) {
		input->radius = record->radius;
	} else if (cfg->haveRadius) {
		input->radius = cfg->radius;
	} else {
		return "missing r (give it per record or with --radius)";
	}
	if (!bcIsValidCastInput(*input)) {
		return "p1 - p0 is not finite";
	}
	return NULL;
}

typedef struct cliChunk {
	cliRecord records[CLI_CAST_CHUNK];
	const char* problems[CLI_CAST_CHUNK];
	bcCastInput inputs[CLI_CAST_CHUNK];
	bcCastOutput outputs[CLI_CAST_CHUNK];
	int slot[CLI_CAST_CHUNK];  /* record -> index into inputs, -1 if bad */
	bcContact ties[CLI_MAX_TIES];
} cliChunk;

/* Cast and write one chunk of count records. */
static void processChunk(const cliCastConfig* cfg, const bcMesh* mesh, cliChunk* chunk, int count,
						 cliCastWriter* writer, cliCastSummary* summary)
{
	int valid = 0;
	for (int i = 0; i < count; ++i) {
		cliRecord* record = chunk->records + i;
		chunk->problems[i] = checkRecord(cfg, record, chunk->inputs + valid);
		if (chunk->problems[i] != NULL) {
			chunk->slot[i] = -1;
			if (!cfg->quiet) {
				fprintf(stderr, "ballcast: %s:%ld:%ld: record %ld: %s\n",
						strcmp(cfg->inputPath, "-") == 0 ? "<stdin>" : cfg->inputPath,
						record->line, record->column, record->index, chunk->problems[i]);
			}
		} else {
			chunk->slot[i] = valid++;
		}
	}
	if (!cfg->ties) {
		bcMesh_CastBatch(mesh, chunk->inputs, chunk->outputs, valid, &cfg->options, cfg->threads);
	}
	for (int i = 0; i < count; ++i) {
		const cliRecord* record = chunk->records + i;
		summary->records += 1;
		if (chunk->slot[i] < 0) {
			summary->errors += 1;
			cliCastWriter_Write(writer, record, chunk->problems[i], NULL, NULL, 0);
			continue;
		}
		bcCastOutput* out = chunk->outputs + chunk->slot[i];
		int tieCount = 0;
		if (cfg->ties) {
			tieCount = bcMesh_CastTies(mesh, chunk->inputs[chunk->slot[i]], &cfg->options, out, chunk->ties,
									   CLI_MAX_TIES);
			tieCount = tieCount < CLI_MAX_TIES ? tieCount : CLI_MAX_TIES;
		}
		if (cfg->normalTriangle && out->state != bc_castMiss) {
			out->normal = out->triangleNormal;
		}
		if (out->state == bc_castHit || out->state == bc_castInitialOverlap) {
			summary->hits += 1;
		}
		cliCastWriter_Write(writer, record, NULL, out, chunk->ties, tieCount);
	}
}

int cliCastMain(int argc, char** argv)
{
	cliCastConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	/* A closed pipe is a write error to report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);

	bcMesh* mesh = cliLoadMesh(cfg.meshPath, cfg.quiet);
	if (mesh == NULL) {
		return cli_exitTrouble;
	}
	const bool fromStdin = strcmp(cfg.inputPath, "-") == 0;
	const char* inputName = fromStdin ? "<stdin>" : cfg.inputPath;
	FILE* input = fromStdin ? stdin : fopen(cfg.inputPath, "rb");
	if (input == NULL) {
		bcError error = { 0 };
		snprintf(error.message, sizeof error.message, "cannot open: %s", strerror(errno));
		cliReportError(inputName, &error);
		bcMesh_Destroy(mesh);
		return cli_exitTrouble;
	}
	cliReader* reader = cliReader_Create(input, inputName, cfg.inputFormat);
	cliChunk* chunk = calloc(1, sizeof *chunk);
	cliOutput output;
	if (reader == NULL || chunk == NULL || !cliOutput_Open(&output, cfg.outputPath)) {
		if (reader == NULL || chunk == NULL) {
			fputs("ballcast: out of memory\n", stderr);
		}
		cliReader_Destroy(reader);
		free(chunk);
		if (!fromStdin) {
			fclose(input);
		}
		bcMesh_Destroy(mesh);
		return cli_exitTrouble;
	}

	cliCastHeader header = { cfg.meshPath, bcMesh_GetInfo(mesh), &cfg.options,
							 cfg.normalTriangle ? "triangle" : "contact", cfg.ties };
	cliCastWriter writer;
	cliCastSummary summary = { 0, 0, 0 };
	cliCastWriter_Begin(&writer, output.stream, cfg.format, &header);

	bcError error = { 0 };
	int got = 1;
	while (got == 1) {
		int count = 0;
		while (count < CLI_CAST_CHUNK && (got = cliReader_Next(reader, chunk->records + count, &error)) == 1) {
			++count;
		}
		if (got < 0) {
			for (int i = 0; i < count; ++i) {
				cliRecord_Free(chunk->records + i);
			}
			break;
		}
		processChunk(&cfg, mesh, chunk, count, &writer, &summary);
		for (int i = 0; i < count; ++i) {
			cliRecord_Free(chunk->records + i);
		}
	}

	if (got < 0) {
		cliReportError(inputName, &error);
		cliOutput_Abort(&output);
		status = cli_exitTrouble;
	} else {
		cliCastWriter_End(&writer, &summary);
		status = cliOutput_Commit(&output) ? (summary.errors > 0 ? cli_exitRecords : cli_exitOk) : cli_exitTrouble;
	}
	cliReader_Destroy(reader);
	free(chunk);
	if (!fromStdin) {
		fclose(input);
	}
	bcMesh_Destroy(mesh);
	return status;
}
