/* common.c - error reporting, option parsing and helpers shared by the
 * subcommands. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h>

#include "cli.h"

void cliReportError(const char* file, const bcError* error)
{
	if (error->line > 0) {
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", file, error->line, error->column, error->message);
	} else {
		fprintf(stderr, "ballcast: %s: %s\n", file, error->message);
	}
}

int cliFinishStdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return cli_exitOk;
	}
	fprintf(stderr, "ballcast: standard output: write error: %s\n", strerror(errno != 0 ? errno : EIO));
	return cli_exitTrouble;
}

bcMesh* cliLoadMesh(const char* path, int quiet)
{
	return cliLoadMeshWithThreads(path, quiet, 0);
}

bcMesh* cliLoadMeshWithThreads(const char* path, int quiet, int threads)
{
	bcError error = { 0 };
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = threads;
	bcMesh* mesh = bcMesh_LoadObj(path, &options, &error);
	if (mesh == NULL) {
		cliReportError(path, &error);
		return NULL;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount > 0 && !quiet) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		fprintf(stderr, "ballcast: %s: %ld degenerate (zero-area) triangle%s skipped, the first is triangle %ld (face %ld)\n",
				path, (long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
}

const char* cliInputName(const char* path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

FILE* cliOpenInput(const char* path)
{
	FILE* input = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (input == NULL) {
		bcError error = { 0 };
		snprintf(error.message, sizeof error.message, "cannot open: %s", strerror(errno));
		cliReportError(cliInputName(path), &error);
	}
	return input;
}

void cliCloseInput(FILE* input)
{
	if (input != NULL && input != stdin) {
		fclose(input);
	}
}

int cliParseDouble(const char* text, double* value)
{
	char* end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != 0 || errno == ERANGE || !isfinite(v)) {
		return 0;
	}
	*value = v;
	return 1;
}

int cliParseInt(const char* text, int* value)
{
	char* end = NULL;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end != 0 || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		return 0;
	}
	*value = (int)v;
	return 1;
}

bool cliParseNonNegative(const char* text, double* value)
{
	double v;
	if (!cliParseDouble(text, &v) || v < 0.0) {
		return false;
	}
	*value = v;
	return true;
}

bool cliParseInputFormat(const char* text, cliInputFormat* format)
{
	static const struct {
		const char* name;
		cliInputFormat format;
	} names[] = {
		{ "auto", cli_inputAuto }, { "json", cli_inputJson }, { "ndjson", cli_inputNdjson },
		{ "jsonl", cli_inputNdjson }, { "csv", cli_inputCsv },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
		if (strcmp(text, names[i].name) == 0) {
			*format = names[i].format;
			return true;
		}
	}
	return false;
}

int cliUsageError(const cliUsage* usage, const char* message, const char* arg)
{
	fprintf(stderr, "ballcast %s: %s%s%s%s\n", usage->command, message, arg != NULL ? " '" : "",
			arg != NULL ? arg : "", arg != NULL ? "'" : "");
	int synopsis = (int)strcspn(usage->text, "\n");
	fprintf(stderr, "%.*s   (ballcast %s --help)\n", synopsis, usage->text, usage->command);
	return cli_exitTrouble;
}

int cliParseCommonOption(const cliUsage* usage, int c, char** argv, cliCommonOptions* options)
{
	switch (c) {
	case 'o':
		options->outputPath = optarg;
		/* What the last -o names, unless -f said otherwise (before or after). */
		if (!options->formatGiven) {
			options->format = cliFormatFromPath(optarg, cli_outputJson);
		}
		return -1;
	case 'f':
		if (!cliParseOutputFormat(optarg, &options->format)) {
			return cliUsageError(usage, "unknown output format", optarg);
		}
		options->formatGiven = true;
		return -1;
	case 'i':
		if (!cliParseInputFormat(optarg, &options->inputFormat)) {
			return cliUsageError(usage, "unknown input format", optarg);
		}
		return -1;
	case 'r':
		if (!cliParseNonNegative(optarg, &options->radius)) {
			return cliUsageError(usage, "--radius needs a finite number >= 0, not", optarg);
		}
		options->haveRadius = true;
		return -1;
	case 'j':
		if (!cliParseInt(optarg, &options->threads) || options->threads < 1) {
			return cliUsageError(usage, "--threads needs a whole number >= 1, not", optarg);
		}
		return -1;
	case 'q':
		options->quiet = true;
		return -1;
	case 'h':
		fputs(usage->text, stdout);
		return cliFinishStdout();
	case ':':
		return cliUsageError(usage, "missing value for", argv[optind - 1]);
	default:
		return cliUsageError(usage, "unknown option", argv[optind - 1]);
	}
}

const char* cliCheckTrajectory(const cliRecord* record, const cliCommonOptions* options, bcVec3* p0, bcVec3* p1,
							   double* radius)
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
	*p0 = record->p0;
	*p1 = record->p1;
	if (record->fields & cli_fieldRadius) {
		*radius = record->radius;
	} else if (options->haveRadius) {
		*radius = options->radius;
	} else {
		return "missing r (give it per record or with --radius)";
	}
	return NULL;
}

cliRecordLog cliRecordLog_Make(const char* name, const cliCommonOptions* options)
{
	cliRecordLog log = { name, options->maxErrorsGiven ? options->maxErrors : CLI_DEFAULT_MAX_ERRORS, 0, 0,
						 options->quiet };
	return log;
}

void cliRecordLog_AddAt(cliRecordLog* log, long index, long line, long column, const char* problem)
{
	if (log->quiet) {
		return;
	}
	if (log->shown >= log->limit) {
		log->hidden += 1;
		return;
	}
	log->shown += 1;
	fprintf(stderr, "ballcast: %s:%ld:%ld: record %ld: %s\n", log->name, line, column, index + 1, problem);
}

void cliRecordLog_Add(cliRecordLog* log, const cliRecord* record, const char* problem)
{
	bool own = problem == record->error && record->errorLine > 0;
	cliRecordLog_AddAt(log, record->index, own ? record->errorLine : record->line,
					   own ? record->errorColumn : record->column, problem);
}

void cliRecordLog_Finish(cliRecordLog* log)
{
	if (log->hidden > 0) {
		fprintf(stderr, "ballcast: %s: %ld more bad record%s not shown (--max-errors N shows more)\n", log->name,
				log->hidden, log->hidden == 1 ? "" : "s");
	}
}

double cliNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

long long cliPeakMemory(void)
{
	struct rusage usage;
	if (getrusage(RUSAGE_SELF, &usage) != 0) {
		return 0;
	}
	return (long long)usage.ru_maxrss * 1024;
}
