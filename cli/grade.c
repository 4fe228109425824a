/* grade.c - the one grading engine (grade.h): one submission compared
 * with EXPECTED (grade_judge.c record by record, grade_index.c matching
 * ids, grade_mistakes.c naming its mistakes) into its report
 * (grade_file.h), and the run that reads every submission and hands each
 * report to the format's writer (grade_report.h), chosen once from the
 * table of writers below. */
#define _XOPEN_SOURCE 700 /* realpath (POSIX.1-2008; glibc declares it for XSI) */
#include "grade.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "common.h"
#include "grade_file.h"
#include "grade_index.h"
#include "grade_judge.h"
#include "grade_mistakes.h"
#include "grade_report.h"
#include "input.h"
#include "output.h"
#include "results_read.h"

/* The report formats: --report's words, and the -o extensions that pick
 * one. A new format is a writer in a file of its own and a row here. */
static const cliReportWriter* const writers[] = {
	&cliTextReport, &cliJsonReport, &cliCsvReport, &cliHtmlReport, &cliJunitReport, &cliGradescopeReport,
};

const cliReportWriter* cliReportWriter_FromName(const char* name)
{
	for (size_t k = 0; k < sizeof writers / sizeof writers[0]; ++k) {
		if (strcmp(writers[k]->name, name) == 0) {
			return writers[k];
		}
	}
	return NULL;
}

const cliReportWriter* cliReportWriter_FromPath(const char* path)
{
	const char* dot = path != NULL ? strrchr(path, '.') : NULL;
	if (dot == NULL || strchr(dot, '/') != NULL) {
		return NULL;
	}
	size_t n = strlen(dot);
	for (size_t k = 0; k < sizeof writers / sizeof writers[0]; ++k) {
		for (const char* e = writers[k]->extensions; e != NULL && *e != '\0'; e += strcspn(e, " ") + 1) {
			if (strcspn(e, " ") == n && strncmp(e, dot, n) == 0) {
				return writers[k];
			}
		}
	}
	return NULL;
}

const char* cliGradeConfig_OptionOrReport(cliGradeConfig* cfg, int k, const char* value)
{
	if (k < cli_gradeOptionCount) {
		return cliGradeConfig_Option(cfg, k, value);
	}
	cfg->report = cliReportWriter_FromName(value);
	return cfg->report != NULL ? NULL : "--report is text, json, csv, html, junit or gradescope, not";
}

/* A repeated id (in name: EXPECTED's; NULL: the submission's) as a
 * difference: where both records start. */
static cliDiff duplicateDiff(const char* name, const cliResult* first, const cliResult* second)
{
	cliDiff diff = { .reason = cli_diffDuplicate, .field = "id", .text = name };
	diff.line[0] = first->line;
	diff.line[1] = second->line;
	diff.column[0] = first->column;
	diff.column[1] = second->column;
	return diff;
}

static bool compareMatched(cliComparer* cmp, const cliResultSet* expected, const cliIdIndex* expectedIndex,
						   const char* expectedName, const cliResultSet* actual, cliFileReport* r);

/* Compare one submission with EXPECTED: its records matched as a teacher
 * matches them (grade_index.c: by id, by the numbers in the ids, by
 * position), a row number never standing for a real id; when nothing
 * matches, that is said once. Returns false when out of memory. */
static bool compareFile(cliComparer* cmp, const cliResultSet* expected, const cliIdIndex* expectedIndex,
						const char* expectedName, const cliResultSet* actual, cliFileReport* r)
{
	/* how it was read, unless it is cast's own shape (the JSON report has it all the same) */
	const char* read = actual->reading.note == NULL ? actual->understood : actual->reading.plain ? "" : actual->reading.note;
	if (read[0] != '\0' && !cliFileReport_AddNote(r, read)) {
		return false;
	}
	r->reading = actual->reading.read ? &actual->reading : NULL;
	long expectedIds = 0;
	for (long i = 0; i < expected->count; ++i) {
		expectedIds += expectedIndex->first[i] == i;
	}
	cliIdMatch match;
	if (!cliIdMatch_Decide(&match, expected, expectedIndex, expectedIds, actual)) {
		return false;
	}
	static const char* const matchings[] = { "exact", "numeric", "position", "none" };
	r->ids = matchings[match.how];
	bool ok = match.note[0] == '\0' || cliFileReport_AddNote(r, match.note);
	if (ok && (actual->reading.review || match.review)) {
		ok = cliFileReport_SetReview(r, actual->reading.review ? actual->reading.reviewWhy : NULL,
									 match.review ? match.note : NULL);
	}
	if (!ok) {
		cliIdMatch_Free(&match);
		return false;
	}
	if (match.how == cli_matchNone) {
		/* every expected id missing, every record extra: nothing to match */
		cliResultSet none = *actual;
		none.count = 0;
		ok = compareMatched(cmp, expected, expectedIndex, expectedName, &none, r);
		r->score.records = actual->count;
		r->score.extra = actual->count;
		r->unmatched = true;
		for (long j = 0; r->marks != NULL && j < actual->count; ++j) {
			r->marks[j] = true;
		}
	} else if (match.results != NULL) {
		cliResultSet matched = *actual;
		matched.results = match.results;
		ok = compareMatched(cmp, expected, expectedIndex, expectedName, &matched, r);
	} else {
		ok = compareMatched(cmp, expected, expectedIndex, expectedName, actual, r);
	}
	cliIdMatch_Free(&match);
	return ok;
}

static bool compareMatched(cliComparer* cmp, const cliResultSet* expected, const cliIdIndex* expectedIndex,
						   const char* expectedName, const cliResultSet* actual, cliFileReport* r)
{
	cliIdIndex actualIndex;
	if (!cliIdIndex_Build(&actualIndex, actual)) {
		return false;
	}
	long expectedIds = 0;
	r->score.records = actual->count;
	bool ok = true;
	for (long i = 0; i < expected->count && ok; ++i) {
		const cliResult* e = expected->results + i;
		if (expectedIndex->first[i] != i) {
			continue; /* a later occurrence: reported with the first */
		}
		if (cmp->cfg->notGraded != NULL && cmp->cfg->notGraded[i]) {
			continue; /* a bad record of the teacher's: not graded, its id not extra either */
		}
		expectedIds++;
		long j = cliIdIndex_Find(&actualIndex, expectedIndex, i);
		long second = expectedIndex->duplicate[i];
		cliDiffs d = { NULL, 0, 0, false };
		if (second >= 0) {
			cliDiff diff = duplicateDiff(expectedName, e, expected->results + second);
			cliDiffs_Add(&d, &diff);
			ok = !d.failed && cliFileReport_AddFailure(r, i, j, &d) != NULL;
			cliDiffs_Free(&d);
			continue;
		}
		if (j < 0) {
			ok = cliFileReport_AddMissing(r, i) != NULL;
			continue;
		}
		const cliResult* a = actual->results + j;
		bool duplicate = actualIndex.duplicate[j] >= 0;
		if (duplicate) {
			cliDiff diff = duplicateDiff(NULL, a, actual->results + actualIndex.duplicate[j]);
			cliDiffs_Add(&d, &diff);
			ok = !d.failed;
		} else {
			ok = cliComparer_Record(cmp, &d, e, a);
		}
		if (ok && d.count > 0 && r->marks != NULL) {
			r->marks[j] = true;
		}
		if (ok && d.count > 0) {
			cliEntry* entry = cliFileReport_AddFailure(r, i, j, &d);
			ok = entry != NULL;
			if (ok) {
				entry->diagnosable = !duplicate && a->problem == NULL && !(e->fields & cli_resultError) &&
									 !(a->fields & cli_resultError);
			}
		} else if (ok) {
			r->score.passed += 1;
			if (r->passCount < CLI_DIAGNOSE_MAX) {
				if (r->passes == NULL) {
					r->passes = malloc(2 * CLI_DIAGNOSE_MAX * sizeof *r->passes);
					ok = r->passes != NULL;
				}
				if (ok) {
					r->passes[2 * r->passCount] = i;
					r->passes[2 * r->passCount + 1] = j;
					r->passCount += 1;
				}
			}
		}
		cliDiffs_Free(&d);
	}
	for (long j = 0; j < actual->count && ok; ++j) {
		if (r->marks != NULL && actualIndex.first[j] != j) {
			r->marks[j] = true; /* a repeated id: the first fails with it */
		}
		if (actualIndex.first[j] != j || cliIdIndex_Find(expectedIndex, &actualIndex, j) >= 0) {
			continue;
		}
		if (r->marks != NULL) {
			r->marks[j] = true;
		}
		ok = cliFileReport_AddExtra(r, j);
	}
	cliIdIndex_Destroy(&actualIndex, actual->count);
	ok = ok && cliDiagnoseFile(cmp, expected, actual, r);
	/* With nothing expected, a file scores 1 unless it has extra ids. */
	r->score.score = expectedIds > 0 ? (double)r->score.passed / (double)expectedIds : (r->score.extra == 0 ? 1.0 : 0.0);
	return ok;
}

bool cliJudgeResults(const cliGradeConfig* cfg, const cliResultSet* expected, const cliResultSet* actual, bool* fails,
					 cliGradeCounts* counts)
{
	memset(counts, 0, sizeof *counts);
	for (long j = 0; j < actual->count; ++j) {
		fails[j] = false;
	}
	cliIdIndex expectedIndex;
	if (!cliIdIndex_Build(&expectedIndex, expected)) {
		return false;
	}
	cliComparer cmp = { cfg, cfg->mesh, NULL, 0 };
	cliFileReport r;
	bool ok = cliFileReport_Open(&r, "");
	r.marks = fails;
	ok = ok && compareFile(&cmp, expected, &expectedIndex, "", actual, &r);
	if (ok) {
		counts->passed = r.score.passed;
		counts->failed = r.score.failed;
		counts->missing = r.score.missing;
		counts->extra = r.score.extra;
	}
	cliFileScore_Free(&r.score);
	cliFileReport_Free(&r);
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	return ok;
}

bool cliCheckExpected(const char* name, const cliResultSet* set)
{
	for (long i = 0; i < set->count; ++i) {
		const cliResult* e = set->results + i;
		if (e->fields & cli_resultError) {
			continue;
		}
		const char* lacking = !(e->fields & cli_resultHit) ? "hit" : !(e->fields & cli_resultAlpha) ? "alpha" : NULL;
		if (lacking != NULL) {
			bcError error = { 0 };
			error.code = bc_errorSyntax;
			error.line = e->line;
			error.column = e->column;
			snprintf(error.message, sizeof error.message, "an expected result needs \"%s\" (or \"error\")", lacking);
			cliReportError(name, &error);
			return false;
		}
	}
	return true;
}

/* Read one submission as it is: false (and *reason, owned) when it cannot
 * be read at all. */
static bool readSubmission(const cliGradeConfig* cfg, const char* path, cliResultSet* set, char** reason)
{
	*reason = NULL;
	memset(set, 0, sizeof *set);
	FILE* f = cliOpenInput(path, cfg->quiet);
	bcError error = { 0 };
	if (f == NULL) {
		snprintf(error.message, sizeof error.message, "cannot open: %s", strerror(errno));
	} else {
		cliResultsReadOptions options = { true, cfg->fields, cfg->map, cfg->mapCount };
		int32_t triangles = cfg->mesh != NULL ? bcMesh_GetInfo(cfg->mesh).triangleCount : 0;
		bool ok = cliReadSubmission(f, &options, triangles, set, &error);
		cliCloseInput(f);
		if (ok) {
			if (set->ignored != NULL && !cfg->quiet) {
				cliReportFile(cliInputName(path));
				fprintf(stderr, ": ignored %s (not known; --map THEIRS=OURS reads one): ",
						set->format == cli_inputCsv ? "columns" : "keys");
				cliWriteShown(stderr, set->ignored);
				putc('\n', stderr);
			}
			return true;
		}
		cliReportError(cliInputName(path), &error);
	}
	/* the reason, the file's text withheld (the message above has it) */
	size_t size = 0;
	FILE* text = open_memstream(reason, &size);
	if (text != NULL) {
		fputs("unreadable: ", text);
		if (error.line > 0) {
			fprintf(text, "%ld:%ld: ", error.line, error.column);
		}
		cliWriteWithoutQuotes(text, error.message);
		if (fclose(text) != 0) {
			free(*reason);
			*reason = NULL;
		}
	}
	return false;
}

/* Why a submission is not read at all: a symbolic link out of the folders
 * the submissions' paths name. */
#define CLI_LINK_OUT "a symbolic link out of the submissions folder; not followed"

/* The folders the submissions' paths name, resolved (each owned; NULL
 * where one cannot be resolved); count of them. NULL when out of memory. */
static char** submissionFolders(char* const* paths, int count)
{
	char** folders = calloc((size_t)(count > 0 ? count : 1), sizeof *folders);
	for (int k = 0; folders != NULL && k < count; ++k) {
		const char* slash = strrchr(paths[k], '/');
		char* folder = slash == NULL ? cliCopyText(".", 1)
					   : cliCopyText(paths[k], slash == paths[k] ? 1 : (size_t)(slash - paths[k]));
		folders[k] = folder != NULL ? realpath(folder, NULL) : NULL;
		free(folder);
	}
	return folders;
}

/* Is path a symbolic link whose target lies outside every folder? (A
 * dangling link is left to the reader, which cannot open it.) */
static bool linksOut(const char* path, char* const* folders, int count)
{
	struct stat status;
	if (strcmp(path, "-") == 0 || lstat(path, &status) != 0 || !S_ISLNK(status.st_mode)) {
		return false;
	}
	char* target = realpath(path, NULL);
	if (target == NULL) {
		return false;
	}
	bool inside = false;
	for (int k = 0; k < count && !inside; ++k) {
		size_t n = folders[k] != NULL ? strlen(folders[k]) : 0;
		inside = n > 0 && strncmp(target, folders[k], n) == 0 && (target[n] == '/' || strcmp(folders[k], "/") == 0);
	}
	free(target);
	return !inside;
}

/* The title of a report: "Grades: MESH, TRAJECTORIES, convention cs121"
 * (grade), or against EXPECTED (compare). Owned by the caller. */
static char* reportTitle(const cliGradeConfig* cfg, const char* expectedName)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	if (cfg->meshName != NULL) {
		fputs("Grades: ", f);
		cliWriteName(f, cfg->meshName);
		fputs(", ", f);
	} else {
		fputs("Grades against ", f);
	}
	cliWriteName(f, expectedName);
	if (cfg->conventionName != NULL) {
		fprintf(f, ", %s", cfg->conventionName);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Read submission path (into *set) or say why it cannot be read (*reason,
 * owned, or NULL): a link out of the folders (unless --follow-links), a
 * file that holds no record (said once, not as every id missing). */
static bool readOne(const cliGradeConfig* cfg, const char* path, char* const* folders, int count, cliResultSet* set,
					char** reason)
{
	*reason = NULL;
	if (!cfg->followLinks && linksOut(path, folders, count)) {
		if (!cfg->quiet) {
			cliReportFile(cliInputName(path));
			fputs(": " CLI_LINK_OUT " (--follow-links follows it)\n", stderr);
		}
		*reason = cliCopyText(CLI_LINK_OUT, strlen(CLI_LINK_OUT));
		return false;
	}
	bool read = cfg->readSubmission != NULL ? cfg->readSubmission(cfg->readContext, path, set, reason)
											: readSubmission(cfg, path, set, reason);
	if (read && set->count == 0 && set->shape != cli_shapeRecords) {
		const char* what = set->shape == cli_shapeEmptyFile ? "empty file" : "header only";
		*reason = cliCopyText(what, strlen(what));
		cliResultSet_Free(set);
		read = false;
	}
	return read;
}

int cliGradeSubmissions(const cliGradeConfig* cfg, const char* expectedName, const cliResultSet* expected,
						char* const* paths, int count)
{
	const cliReportWriter* writer = cfg->report != NULL ? cfg->report : &cliTextReport;
	if (writer->oneFile && count != 1) {
		fprintf(stderr, "ballcast: --report %s grades one submission (give one file)\n", writer->name);
		return cli_exitTrouble;
	}
	cliIdIndex expectedIndex;
	if (!cliIdIndex_Build(&expectedIndex, expected)) {
		fputs("ballcast: out of memory\n", stderr);
		return cli_exitTrouble;
	}
	cliOutput output;
	/* -q keeps the report off standard output; a file named by -o is
	 * still written, since the user asked for it by name */
	bool quiet = cfg->quiet && (cfg->outputPath == NULL || strcmp(cfg->outputPath, "-") == 0);
	if (!quiet && !cliOutput_Open(&output, cfg->outputPath)) {
		cliIdIndex_Destroy(&expectedIndex, expected->count);
		return cli_exitTrouble;
	}
	cliReport report;
	memset(&report, 0, sizeof report);
	report.cfg = cfg;
	char* shownExpected = cliNameText(expectedName);
	report.expectedName = shownExpected;
	report.expected = expected;
	bool* graded = malloc((size_t)(expected->count > 0 ? expected->count : 1) * sizeof *graded);
	for (long i = 0; graded != NULL && i < expected->count; ++i) {
		bool bad = cfg->notGraded != NULL && cfg->notGraded[i];
		graded[i] = expectedIndex.first[i] == i && !bad;
		report.ids += graded[i];
		report.notGraded += bad;
	}
	report.graded = graded;
	report.out = quiet ? NULL : output.stream;
	char* title = reportTitle(cfg, expectedName);
	report.title = title;
	char* parts = NULL;
	size_t partsSize = 0;
	report.parts = open_memstream(&parts, &partsSize);
	cliFileScore* scores = calloc((size_t)(count > 0 ? count : 1), sizeof *scores);
	cliComparer cmp = { cfg, cfg->mesh, NULL, 0 };
	char** folders = submissionFolders(paths, count);
	bool ok = scores != NULL && title != NULL && report.parts != NULL && folders != NULL && shownExpected != NULL &&
			  graded != NULL;
	bool differ = false;
	if (ok && !quiet && writer->begin != NULL) {
		writer->begin(&report);
	}
	for (int k = 0; k < count && ok; ++k) {
		cliResultSet actual;
		char* reason = NULL;
		bool read = readOne(cfg, paths[k], folders, count, &actual, &reason);
		cliFileReport r;
		ok = cliFileReport_Open(&r, cliInputName(paths[k]));
		if (ok && !read) {
			r.score.missing = report.ids;
			r.score.diagnosis = reason;
			reason = NULL;
			r.score.unreadable = true;
			differ = true;
			if (!quiet && writer->unreadable != NULL) {
				writer->unreadable(&report, &r);
			}
		} else if (ok) {
			ok = compareFile(&cmp, expected, &expectedIndex, shownExpected, &actual, &r);
			differ = differ || r.score.failed > 0 || r.score.missing > 0 || r.score.extra > 0;
			if (ok && !quiet && writer->file != NULL) {
				writer->file(&report, &r, &actual);
			}
		}
		report.files += 1;
		scores[k] = r.score;
		cliFileReport_Free(&r);
		free(reason);
		if (read) {
			cliResultSet_Free(&actual);
		}
	}
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	for (int k = 0; folders != NULL && k < count; ++k) {
		free(folders[k]);
	}
	free(folders);
	if (report.parts != NULL) {
		ok = fclose(report.parts) == 0 && ok;
		report.parts = NULL;
		report.partsText = parts;
		report.partsSize = partsSize;
	}
	int status = differ ? cli_exitRecords : cli_exitOk;
	if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
		status = cli_exitTrouble;
	} else if (!quiet && writer->end != NULL) {
		writer->end(&report, scores, count);
	}
	free(title);
	free(shownExpected);
	free(graded);
	free(parts);
	for (int k = 0; scores != NULL && k < count; ++k) {
		cliFileScore_Free(scores + k);
	}
	free(scores);
	if (!quiet && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	} else if (!quiet && !cliOutput_Commit(&output)) {
		status = cli_exitTrouble;
	}
	return status;
}
