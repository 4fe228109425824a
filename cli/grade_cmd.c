/* grade_cmd.c - `ballcast grade [cast options] MESH TRAJECTORIES
 * SUBMISSION...`: cast the expected answers (as `ballcast cast` does, with
 * the same options), then grade every submission through the one grading
 * engine (grade.c), naming the mistakes that explain its failures
 * (replayed by grade_replay.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cli.h"
#include "common.h"
#include "grade.h"
#include "grade_replay.h"
#include "options.h"
#include "output.h"
#include "record_log.h"
#include "results_read.h"
#include "results_write.h"
#include "records.h"

/* grade's options: cast's answer-deciding ones, the shared grading ones,
 * then --report. */
enum { cli_gradeFirst = cli_castSettingCount, cli_gradeReport = cli_castSettingCount + cli_gradeReportOption };
static const cliOption gradeOptions[] = {
	CLI_CAST_SETTING_OPTIONS,
	CLI_GRADE_OPTIONS,
	{ "report", 0, true },
	{ NULL, 0, false },
};

static const cliUsage gradeUsage = {
	"grade",
	"usage: ballcast grade [OPTIONS] MESH TRAJECTORIES SUBMISSION...\n"
	"\n"
	"Grade students' answers: cast TRAJECTORIES on MESH as `ballcast cast` would\n"
	"(with the same options), then compare each SUBMISSION with those answers,\n"
	"record by record, matched by id. A submission is read as it is (its table\n"
	"inferred from any JSON, NDJSON, CSV or text shape; a note says how); a\n"
	"malformed graded field fails with the reason; an unreadable file scores 0.\n"
	"Failures are explained by the catalogue of mistakes (ballcast(1), GRADE).\n"
	"Exit 0 when every submission passes, 1 when something fails (or a record of\n"
	"TRAJECTORIES is bad: it is not graded), 2 on trouble with MESH,\n"
	"TRAJECTORIES, the options or the output.\n"
	"\n"
	"options (cast's):\n"
	CLI_HELP_CAST_SETTINGS
	"  -r, --radius R            radius for trajectories without \"r\"\n"
	CLI_HELP_INPUT_FORMAT
	"options (grading):\n"
	CLI_HELP_GRADE_OPTIONS
	"      --report FMT          text, json, csv, html (one page, with pictures\n"
	"                            of the failing throws), junit (JUnit XML) or\n"
	"                            gradescope (results.json, one submission)\n"
	"                            (default text)\n"
	"  -o, --output FILE         write the report here (.json, .csv, .html: format)\n"
	"  -q, --quiet               no notes, and no report on standard output (a file\n"
	"                            named by -o is still written)\n"
	CLI_HELP_MESH_FORMAT
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast grade room.obj throws.json class/*\n"
	"  ballcast grade --convention cs121 room.obj throws.json class/* --report csv > grades.csv\n"
	"  ballcast grade --fields hit,alpha,triangle --one-based room.obj throws.json bob.csv\n",
	cli_optOutput | cli_optInputFormat | cli_optRadius | cli_optQuiet | cli_optMeshFormat,
	gradeOptions,
	3,
	-1,
	{ "missing MESH, TRAJECTORIES and SUBMISSION", "missing TRAJECTORIES and SUBMISSION", "missing SUBMISSION" },
};

/* One throw, as the expected answer was cast from it. */
typedef struct cliThrow {
	bool valid;
	bcCastInput input;
} cliThrow;

typedef struct cliGradeRun {
	cliGradeConfig grade;
	cliCastSettings cast;
	cliCommonOptions common; /* -o -i -r -q */
	bool reportGiven;
	bool fieldsGiven;
	const char* meshPath;
	const char* trajectoriesPath;
	char** submissions;
	int submissionCount;
	const bcMesh* mesh;
	cliThrow* throws; /* per expected result */
	bool* bad;        /* per expected result: a bad record of TRAJECTORIES, not graded */
	long badCount;
	long throwCount;
	bcContact* ties;
	int tieCapacity;
} cliGradeRun;

static const char* gradeOption(void* context, int k, const char* value)
{
	cliGradeRun* run = context;
	if (k < cli_gradeFirst) {
		return cliCastSettings_Option(&run->cast, k, value);
	}
	run->reportGiven = run->reportGiven || k == cli_gradeReport;
	run->fieldsGiven = run->fieldsGiven || k == cli_gradeFirst + 4;
	return cliGradeConfig_OptionOrReport(&run->grade, k - cli_gradeFirst, value);
}

static int parseArguments(int argc, char** argv, cliGradeRun* run)
{
	memset(run, 0, sizeof *run);
	cliGradeConfig_Init(&run->grade);
	cliCastSettings_Init(&run->cast);
	int first = 0;
	int status = cliParseArguments(&gradeUsage, argc, argv, &run->common, gradeOption, run, &first);
	if (status >= 0) {
		return status;
	}
	cliCastSettings_Finish(&run->cast);
	if (!run->fieldsGiven) {
		run->grade.fields = CLI_FIELDS_GRADE;
	}
	static const unsigned conventions[] = { cli_normalsContact, cli_normalsTriangle, cli_normalsAverage };
	run->grade.normalConvention = conventions[run->cast.normalMode];
	run->meshPath = argv[first];
	run->trajectoriesPath = argv[first + 1];
	run->submissions = argv + first + 2;
	run->submissionCount = argc - first - 2;
	static const char* const normalTitles[] = { "normal contact", "normal triangle", "normal average" };
	run->grade.meshName = run->meshPath;
	run->grade.conventionName = run->cast.cs121 ? "convention cs121" : normalTitles[run->cast.normalMode];
	int stdinCount = 0;
	for (int i = first + 1; i < argc; ++i) {
		stdinCount += strcmp(argv[i], "-") == 0;
	}
	if (stdinCount > 1) {
		return cliUsageError(&gradeUsage, "standard input ('-') can be read only once", NULL);
	}
	if (!run->reportGiven) {
		run->grade.report = cliReportWriter_FromPath(run->common.outputPath);
	}
	run->grade.quiet = run->common.quiet;
	run->grade.outputPath = run->common.outputPath;
	for (int i = first; i < first + 2; ++i) {
		status = cliRefuseOverwrite(&gradeUsage, run->common.outputPath, "-o", argv[i]);
		if (status >= 0) {
			return status;
		}
	}
	return -1;
}

/* ------------------------------------------------------------ expected */

/* Answer every trajectory as `ballcast cast --ties` would (answer.h), each
 * answer straight into EXPECTED as the result cast writes for it, and keep
 * each throw for the mistakes' replays. False (reported) on trouble. */
static bool castExpected(cliGradeRun* run, cliResultSet* expected)
{
	FILE* input = cliOpenInput(run->trajectoriesPath, run->common.quiet);
	if (input == NULL) {
		return false;
	}
	const char* name = cliInputName(run->trajectoriesPath);
	cliReader* reader = cliReader_Create(input, name, run->common.inputFormat);
	cliRecordLog log = cliRecordLog_Make(name, &run->common, NULL);
	cliTiePool pool = { NULL, 0, 0 };
	memset(expected, 0, sizeof *expected);
	expected->format = cli_inputNdjson; /* as cast's answers were once read back */
	long capacity = 0;
	bool ok = reader != NULL;
	bcError error = { 0 };
	int got = 0;
	cliRecord record;
	memset(&record, 0, sizeof record);
	while (ok && (got = cliReader_Next(reader, &record, &error)) > 0) {
		cliThrow t = { false, { { 0, 0, 0 }, { 0, 0, 0 }, 0.0 } };
		bcCastOutput out;
		int n = 0;
		pool.count = 0;
		const char* problem = cliAnswerRecord(run->mesh, &run->cast, &run->common, &record, &pool, &t.input, &out, &n);
		if (problem != NULL) {
			cliRecordLog_Add(&log, &record, problem);
		}
		t.valid = problem == NULL;
		if (run->throwCount == capacity) {
			capacity = capacity > 0 ? 2 * capacity : 1024;
			cliThrow* grown = realloc(run->throws, (size_t)capacity * sizeof *grown);
			cliResult* results = realloc(expected->results, (size_t)capacity * sizeof *results);
			bool* bad = realloc(run->bad, (size_t)capacity * sizeof *bad);
			ok = grown != NULL && results != NULL && bad != NULL;
			run->throws = grown != NULL ? grown : run->throws;
			expected->results = results != NULL ? results : expected->results;
			run->bad = bad != NULL ? bad : run->bad;
		}
		if (ok) {
			run->throws[run->throwCount] = t;
			run->bad[run->throwCount] = problem != NULL;
			run->badCount += problem != NULL;
			ok = cliResult_FromAnswer(&record, run->throwCount, problem, &out, pool.ties, n, true,
									  expected->results + run->throwCount);
		}
		if (ok) {
			run->throwCount += 1;
			expected->count = run->throwCount;
		}
		cliRecord_Free(&record);
	}
	cliRecordLog_Finish(&log);
	if (got < 0) {
		cliReportError(name, &error);
		ok = false;
	} else if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
	}
	cliTiePool_Free(&pool);
	cliReader_Destroy(reader);
	cliCloseInput(input);
	return ok;
}

/* The throw of an expected result (a cliThrowOfFcn). */
static bool throwOf(void* context, const cliResult* e, bcCastInput* input)
{
	const cliGradeRun* run = context;
	if (e->index < 0 || e->index >= run->throwCount || !run->throws[e->index].valid) {
		return false;
	}
	*input = run->throws[e->index].input;
	return true;
}

/* The teacher's bad records on standard error (each was reported as it
 * was read): not graded, and the submissions graded on the rest. */
static void tellNotGraded(const cliGradeRun* run, const cliResultSet* expected)
{
	cliReportFile(cliInputName(run->trajectoriesPath));
	fprintf(stderr, ": %ld bad record%s (above) %s not graded; the submissions are graded on the other %ld\n",
			run->badCount, run->badCount == 1 ? "" : "s", run->badCount == 1 ? "is" : "are",
			expected->count - run->badCount);
}

/* ------------------------------------------------------------ main */

int cliGradeMain(int argc, char** argv)
{
	cliGradeRun run;
	int status = parseArguments(argc, argv, &run);
	if (status >= 0) {
		cliGradeConfig_Free(&run.grade);
		return status;
	}
	status = cli_exitTrouble;
	cliResultSet expected;
	memset(&expected, 0, sizeof expected);
	cliReplayer replayer;
	memset(&replayer, 0, sizeof replayer);
	bcMesh* mesh = cliLoadMesh(run.meshPath, &run.common, &status);
	status = mesh != NULL ? cli_exitTrouble : status;
	run.mesh = mesh;
	if (mesh != NULL && castExpected(&run, &expected)) {
		run.grade.mesh = mesh;
		cliReplayer_Init(&replayer, mesh, &run.cast, throwOf, &run);
		run.grade.reanswer = cliReplayer_Reanswer;
		run.grade.throwOf = cliReplayer_ThrowOf;
		run.grade.reanswerContext = &replayer;
		run.grade.notGraded = run.bad;
		if (run.badCount > 0 && !run.common.quiet) {
			tellNotGraded(&run, &expected);
		}
		status = cliGradeSubmissions(&run.grade, cliInputName(run.trajectoriesPath), &expected, run.submissions,
									 run.submissionCount);
		/* the teacher's bad records: 1, as for any command (EXIT STATUS), though the submissions pass */
		status = status == cli_exitOk && run.badCount > 0 ? cli_exitRecords : status;
	}
	cliResultSet_Free(&expected);
	free(run.throws);
	free(run.bad);
	free(run.ties);
	cliReplayer_Destroy(&replayer);
	bcMesh_Destroy(mesh);
	cliGradeConfig_Free(&run.grade);
	return status;
}
