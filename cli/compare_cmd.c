/* compare_cmd.c - `ballcast compare EXPECTED ACTUAL...`: check cast results
 * (a regression run, or students' collision code) against expected ones,
 * record by record, field by field, with tolerances and ties, through the
 * one grading engine (grade.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grade.h"
#include "output.h"
#include "results_read.h"

/* compare's options: the shared grading ones, --report, then --mesh. */
enum { cli_compareMesh = cli_gradeOptionCount + 1 };
static const cliOption compareOptions[] = {
	CLI_GRADE_OPTIONS, { "report", 0, true }, { "mesh", 'm', true }, { NULL, 0, false },
};

static const cliUsage compareUsage = {
	"compare",
	"usage: ballcast compare [OPTIONS] EXPECTED ACTUAL...\n"
	"\n"
	"Compare `ballcast cast` results (ACTUAL) with expected ones, record by record,\n"
	"matched by id. Either side may be a JSON document, a JSON array, NDJSON or CSV;\n"
	"ACTUAL files are read as they are (see ballcast grade). Prints one line per\n"
	"record that differs, then 'N passed, N failed, N missing, N extra'; with\n"
	"several ACTUAL files, a score table. Every field EXPECTED has is graded\n"
	"(--fields all). Exit 0 when everything matches, 1 when something differs or\n"
	"an ACTUAL file cannot be read, 2 on trouble. '-' reads standard input.\n"
	"\n"
	"options:\n"
	CLI_HELP_GRADE_OPTIONS
	"  -m, --mesh MESH.obj       the mesh EXPECTED was cast on: triangle normals and\n"
	"                            faces of tied triangles become known\n"
	"      --report FMT          text (default), json, csv or html\n"
	"  -o, --output FILE         write the report here (.json or .csv picks the format)\n"
	"  -q, --quiet               no report: the exit status only\n"
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast cast --ties room.obj throws.json > expected.json\n"
	"  ballcast compare expected.json student.csv\n"
	"  ballcast compare --alpha-tol 1e-6 --report csv expected.json submissions/*.json > scores.csv\n"
	"  ballcast compare -q expected.json new.json || echo 'answers changed'\n",
	cli_optOutput | cli_optQuiet,
	compareOptions,
	2,
	-1,
	{ "missing EXPECTED and ACTUAL", "missing ACTUAL" },
};

typedef struct cliCompareConfig {
	cliGradeConfig grade;
	const char* meshPath;
	cliCommonOptions common; /* -o and -q */
	bool reportGiven;
	const char* expectedPath;
	char** actualPaths;
	int actualCount;
} cliCompareConfig;

/* One of compare's own options (a cliOptionFcn). */
static const char* compareOption(void* context, int k, const char* value)
{
	cliCompareConfig* cfg = context;
	if (k == cli_compareMesh) {
		cfg->meshPath = value;
		return NULL;
	}
	cfg->reportGiven = cfg->reportGiven || k == cli_gradeReportOption;
	return cliGradeOption(&cfg->grade, k, value);
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliCompareConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cliGradeConfig_Init(&cfg->grade);
	int first = 0;
	int status = cliParseArguments(&compareUsage, argc, argv, &cfg->common, compareOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	cfg->expectedPath = argv[first];
	cfg->actualPaths = argv + first + 1;
	cfg->actualCount = argc - first - 1;
	int stdinCount = 0;
	for (int i = first; i < argc; ++i) {
		stdinCount += strcmp(argv[i], "-") == 0;
	}
	if (stdinCount > 1) {
		return cliUsageError(&compareUsage, "standard input ('-') can be read only once", NULL);
	}
	/* -o FILE.json or FILE.csv names the report's format */
	cliOutputFormat named = cliFormatFromPath(cfg->common.outputPath, cli_outputNdjson);
	if (!cfg->reportGiven && named != cli_outputNdjson) {
		cfg->grade.report = named == cli_outputJson ? cli_reportJson : cli_reportCsv;
	}
	cfg->grade.quiet = cfg->common.quiet;
	cfg->grade.outputPath = cfg->common.outputPath;
	return cliRefuseOverwrite(&compareUsage, cfg->common.outputPath, "-o", cfg->meshPath);
}

/* Read EXPECTED, reporting any error: the teacher's own file is read
 * strictly (a record it cannot read makes it malformed). */
static bool loadExpected(const char* path, bool quiet, cliResultSet* set)
{
	FILE* f = cliOpenInput(path, quiet);
	if (f == NULL) {
		memset(set, 0, sizeof *set);
		return false;
	}
	bcError error = { 0 };
	bool ok = cliReadResults(f, set, &error);
	cliCloseInput(f);
	if (ok && cliResultSet_FirstProblem(set, &error)) {
		cliResultSet_Free(set);
		ok = false;
	}
	if (!ok) {
		cliReportError(cliInputName(path), &error);
	}
	return ok;
}

int cliCompareMain(int argc, char** argv)
{
	cliCompareConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		cliGradeConfig_Free(&cfg.grade);
		return status;
	}
	status = cli_exitTrouble;
	cliResultSet expected;
	memset(&expected, 0, sizeof expected);
	bcMesh* mesh = cfg.meshPath != NULL ? cliLoadMesh(cfg.meshPath, cfg.common.quiet) : NULL;
	if (cfg.meshPath == NULL || mesh != NULL) {
		bool ok = loadExpected(cfg.expectedPath, cfg.common.quiet, &expected);
		ok = ok && cliGrade_CheckExpected(cliInputName(cfg.expectedPath), &expected);
		cfg.grade.mesh = mesh;
		if (ok) {
			status = cliGrade_Run(&cfg.grade, cliInputName(cfg.expectedPath), &expected, cfg.actualPaths,
								  cfg.actualCount);
		}
	}
	cliResultSet_Free(&expected);
	bcMesh_Destroy(mesh);
	cliGradeConfig_Free(&cfg.grade);
	return status;
}
