/* compare_cmd.c - `ballcast compare EXPECTED ACTUAL...`: check cast results
 * (a regression run, or students' collision code) against expected ones,
 * record by record, field by field, with tolerances and ties, through the
 * one grading engine (grade.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "grade.h"
#include "options.h"
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
	"matched by id. Either side may be a JSON document, a JSON array, NDJSON or CSV,\n"
	"in any shape ballcast grade reads (';' and decimal commas, t, nx,ny,nz, ...);\n"
	"ACTUAL files are read as they are (see ballcast grade). Prints one line per\n"
	"record that differs, then 'N passed, N failed, N missing, N extra'; with\n"
	"several ACTUAL files, a score table. Every field EXPECTED has is graded\n"
	"(--fields all); a field --fields names that an EXPECTED hit lacks is an\n"
	"error. Exit 0 when everything matches, 1 when something differs or an\n"
	"ACTUAL file cannot be read, 2 on trouble. '-' reads standard input.\n"
	"\n"
	"options:\n"
	CLI_HELP_GRADE_OPTIONS
	"  -m, --mesh MESH.obj       the mesh EXPECTED was cast on: triangle normals and\n"
	"                            faces of tied triangles become known\n"
	"      --report FMT          text (default), json, csv, html, junit or gradescope\n"
	"  -o, --output FILE         write the report here (.json, .csv, .html: format)\n"
	"  -q, --quiet               no report on standard output (a file named by -o\n"
	"                            is still written)\n"
	CLI_HELP_MESH_FORMAT
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast cast --ties room.obj throws.json > expected.json\n"
	"  ballcast compare expected.json student.csv\n"
	"  ballcast compare --alpha-tol 1e-6 --report csv expected.json submissions/*.json > scores.csv\n"
	"  ballcast compare -q expected.json new.json || echo 'answers changed'\n",
	cli_optOutput | cli_optQuiet | cli_optMeshFormat,
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
	return cliGradeConfig_OptionOrReport(&cfg->grade, k, value);
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
	/* -o FILE.json, FILE.csv or FILE.html names the report's format */
	if (!cfg->reportGiven) {
		cfg->grade.report = cliReportWriter_FromPath(cfg->common.outputPath);
	}
	cfg->grade.quiet = cfg->common.quiet;
	cfg->grade.outputPath = cfg->common.outputPath;
	return cliRefuseOverwrite(&compareUsage, cfg->common.outputPath, "-o", cfg->meshPath);
}

/* Read EXPECTED, reporting any error. It is read with the tolerance
 * grade reads a submission with (a teacher's file may be student-shaped:
 * ';' and decimal commas, t, nx,ny,nz, nested answers, --map), but every
 * field of it is graded: a record it cannot read makes it malformed. */
static bool loadExpected(const cliCompareConfig* cfg, cliResultSet* set)
{
	const char* path = cfg->expectedPath;
	FILE* f = cliOpenInput(path, cfg->common.quiet);
	if (f == NULL) {
		memset(set, 0, sizeof *set);
		return false;
	}
	bcError error = { 0 };
	cliResultsReadOptions options = { true, CLI_FIELDS_ALL, cfg->grade.map, cfg->grade.mapCount };
	bool ok = cliReadResultsWith(f, &options, set, &error);
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

/* Every field --fields asks for of a hit must be in EXPECTED's hits:
 * grading a field EXPECTED lacks would pass any answer. Hit and alpha are
 * checked by cliCheckExpected; with a mesh, the face and triangle
 * normal of a hit that names its triangle are known from it. False (and
 * the error reported) at the first hit lacking one. */
static bool checkFieldsGiven(const char* name, const cliResultSet* set, unsigned fields, bool mesh)
{
	static const struct {
		unsigned field;
		const char* name;
	} asked[] = {
		{ cli_resultInitialOverlap, "initial_overlap" }, { cli_resultFeature, "feature" },
		{ cli_resultTriangle, "triangle" },             { cli_resultFace, "face" },
		{ cli_resultVertices, "vertices" },             { cli_resultPoint, "point" },
		{ cli_resultCenter, "center" },                 { cli_resultNormal, "normal" },
		{ cli_resultTriangleNormal, "triangle_normal" },
	};
	if (fields == CLI_FIELDS_ALL) {
		return true; /* every field EXPECTED has */
	}
	for (long i = 0; i < set->count; ++i) {
		const cliResult* e = set->results + i;
		if ((e->fields & cli_resultError) || !e->hit) {
			continue;
		}
		unsigned known = e->fields;
		if (mesh && (known & cli_resultTriangle)) {
			known |= cli_resultFace | cli_resultTriangleNormal;
		}
		for (size_t k = 0; k < sizeof asked / sizeof asked[0]; ++k) {
			if (!(fields & asked[k].field) || (known & asked[k].field)) {
				continue;
			}
			char id[96] = "";
			FILE* text = fmemopen(id, sizeof id - 1, "w");
			if (text != NULL) {
				cliWriteResultIdJson(text, e);
				fclose(text);
			}
			bcError error = { 0 };
			error.code = bc_errorSyntax;
			error.line = e->line;
			error.column = e->column;
			snprintf(error.message, sizeof error.message, "--fields asks for %s, which this expected hit (%s) lacks",
					 asked[k].name, id);
			cliReportError(name, &error);
			return false;
		}
	}
	return true;
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
	bcMesh* mesh = cfg.meshPath != NULL ? cliLoadMesh(cfg.meshPath, &cfg.common, &status) : NULL;
	status = cfg.meshPath == NULL || mesh != NULL ? cli_exitTrouble : status;
	if (cfg.meshPath == NULL || mesh != NULL) {
		bool ok = loadExpected(&cfg, &expected);
		ok = ok && cliCheckExpected(cliInputName(cfg.expectedPath), &expected);
		ok = ok && checkFieldsGiven(cliInputName(cfg.expectedPath), &expected, cfg.grade.fields, mesh != NULL);
		cfg.grade.mesh = mesh;
		if (ok) {
			status = cliGradeSubmissions(&cfg.grade, cliInputName(cfg.expectedPath), &expected, cfg.actualPaths,
										 cfg.actualCount);
		}
	}
	cliResultSet_Free(&expected);
	bcMesh_Destroy(mesh);
	cliGradeConfig_Free(&cfg.grade);
	return status;
}
