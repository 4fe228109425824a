/* grade.c - the one grading engine (grade.h): options, one submission
 * compared with EXPECTED (grade_judge.c record by record, grade_index.c
 * matching ids, grade_mistakes.c naming its mistakes), and the run that
 * reads every submission and writes the report (grade_report.c,
 * grade_html.c). */
#include "grade.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "grade_file.h"
#include "grade_html.h"
#include "grade_index.h"
#include "grade_judge.h"
#include "grade_mistakes.h"
#include "grade_report.h"
#include "input.h"
#include "options.h"
#include "output.h"
#include "results_read.h"
#include "records.h"

/* "duplicate id [in NAME] (lines 3 and 9)": where both records start;
 * with their columns when they share a line (a one-line JSON file). */
static void describeDuplicate(char* message, size_t size, const char* name, const cliResult* first,
							  const cliResult* second)
{
	char in[128] = "";
	if (name != NULL) {
		snprintf(in, sizeof in, " in %s", name);
	}
	if (first->line == second->line) {
		snprintf(message, size, "duplicate id%s (line %ld, columns %ld and %ld)", in, first->line, first->column,
				 second->column);
	} else {
		snprintf(message, size, "duplicate id%s (lines %ld and %ld)", in, first->line, second->line);
	}
}

/* Compare one submission with EXPECTED. Returns false when out of memory. */
/* Add a sentence to a file's note. */
static void addNote(cliFileReport* r, const char* text)
{
	size_t used = strlen(r->note);
	snprintf(r->note + used, sizeof r->note - used, "%s%s", used > 0 ? "; " : "", text);
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
	if (read[0] != '\0') {
		addNote(r, read);
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
	if (match.note[0] != '\0') {
		addNote(r, match.note);
	}
	if (actual->reading.review || match.review) {
		char why[640];
		snprintf(why, sizeof why, "%s%s%s", actual->reading.review ? actual->reading.reviewWhy : "",
				 actual->reading.review && match.review ? "; " : "", match.review ? match.note : "");
		r->score.review = cliCopyText(why, strlen(why));
		if (r->score.review == NULL) {
			cliIdMatch_Free(&match);
			return false;
		}
	}
	bool ok;
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
	long extraCount = 0;
	long expectedIds = 0;
	r->score.records = actual->count;
	bool ok = true;
	for (long i = 0; i < expected->count && ok; ++i) {
		const cliResult* e = expected->results + i;
		if (expectedIndex->first[i] != i) {
			continue; /* a later occurrence: reported with the first */
		}
		expectedIds++;
		long j = cliIdIndex_Find(&actualIndex, expectedIndex, i);
		char message[256];
		long second = expectedIndex->duplicate[i];
		cliDiffs d;
		if (second >= 0) {
			describeDuplicate(message, sizeof message, expectedName, e, expected->results + second);
			ok = cliDiffs_Open(&d);
			if (ok) {
				cliDiffs_AddNote(&d, "id", message);
				ok = cliDiffs_Close(&d) && cliFileReport_AddFailure(r, i, j, &d) != NULL;
			}
			cliDiffs_Free(&d);
			continue;
		}
		if (j < 0) {
			ok = cliFileReport_AddEntry(r, i, -1, false, NULL, NULL) != NULL;
			continue;
		}
		const cliResult* a = actual->results + j;
		ok = cliDiffs_Open(&d);
		bool duplicate = actualIndex.duplicate[j] >= 0;
		if (ok && duplicate) {
			describeDuplicate(message, sizeof message, NULL, a, actual->results + actualIndex.duplicate[j]);
			cliDiffs_AddNote(&d, "id", message);
		} else if (ok) {
			ok = cliComparer_Record(cmp, &d, e, a);
		}
		ok = cliDiffs_Close(&d) && ok;
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
		const cliResult* a = actual->results + j;
		if (r->marks != NULL && actualIndex.first[j] != j) {
			r->marks[j] = true; /* a repeated id: the first fails with it */
		}
		if (actualIndex.first[j] != j || cliIdIndex_Find(expectedIndex, &actualIndex, j) >= 0) {
			continue;
		}
		if (r->marks != NULL) {
			r->marks[j] = true;
		}
		fprintf(r->extraLines, "%s: id ", r->score.name);
		cliWriteResultIdJson(r->extraLines, a);
		fputs(": extra\n", r->extraLines);
		if (extraCount++ > 0) {
			putc(',', r->extra);
		}
		cliWriteResultIdJson(r->extra, a);
		r->score.extra += 1;
	}
	cliIdIndex_Destroy(&actualIndex, actual->count);
	ok = ok && cliDiagnoseFile(cmp, expected, actual, r);
	/* With nothing expected, a file scores 1 unless it has extra ids. */
	r->score.score = expectedIds > 0 ? (double)r->score.passed / (double)expectedIds : (r->score.extra == 0 ? 1.0 : 0.0);
	return ok;
}

void cliGradeConfig_Init(cliGradeConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->alphaTol = CLI_ALPHA_TOLERANCE;
	cfg->alphaRel = CLI_ALPHA_RELATIVE;
	cfg->normalTol = CLI_NORMAL_TOLERANCE;
	cfg->pointTol = CLI_POINT_TOLERANCE;
	cfg->fields = CLI_FIELDS_ALL;
	cfg->maxFailures = CLI_MAX_FAILURES;
	cfg->report = cli_reportText;
}

void cliGradeConfig_Free(cliGradeConfig* cfg)
{
	for (int k = 0; k < 2 * cfg->mapCount; ++k) {
		free((char*)cfg->map[k]);
	}
	cfg->mapCount = 0;
}

const char* cliGradeOption(cliGradeConfig* cfg, int k, const char* value)
{
	static const char* const problems[] = {
		"--alpha-tol needs a finite number >= 0, not",
		"--alpha-rel needs a finite number >= 0, not",
		"--normal-tol needs a finite number of degrees >= 0, not",
		"--point-tol needs a finite number >= 0, not",
	};
	double* tolerances[] = { &cfg->alphaTol, &cfg->alphaRel, &cfg->normalTol, &cfg->pointTol };
	if (k < 4) {
		return cliParseNonNegative(value, tolerances[k]) ? NULL : problems[k];
	}
	switch (k) {
	case 4: {
		const char* bad = NULL;
		size_t length = 0;
		return cliParseFields(value, &cfg->fields, &bad, &length) ? NULL
			   : "--fields takes hit, alpha, initial_overlap, feature, triangle, face, vertices, point, center, "
				 "normal, triangle_normal or all, not";
	}
	case 5:
		cfg->oneBased = true;
		return NULL;
	case 6: {
		const char* equals = strchr(value, '=');
		if (equals == NULL || equals == value || equals[1] == '\0') {
			return "--map takes THEIRS=OURS (a key or column of theirs, the field it is), not";
		}
		if (cfg->mapCount == CLI_MAP_MAX) {
			return "--map is given too often (at most 32), at";
		}
		char* theirs = cliCopyText(value, (size_t)(equals - value));
		char* ours = cliCopyText(equals + 1, strlen(equals + 1));
		if (theirs == NULL || ours == NULL) {
			free(theirs);
			free(ours);
			return "out of memory at";
		}
		cfg->map[2 * cfg->mapCount] = theirs;
		cfg->map[2 * cfg->mapCount + 1] = ours;
		cfg->mapCount += 1;
		return NULL;
	}
	case 7:
		return cliParseNormals(value, &cfg->acceptNormals) ? NULL
			   : "--accept-normals takes contact, triangle or average, comma separated, not";
	case 8: {
		char* end = NULL;
		errno = 0;
		long n = strtol(value, &end, 10);
		if (end == value || *end != '\0' || errno != 0 || n < 0) {
			return "--max-failures needs a whole number >= 0, not";
		}
		cfg->maxFailures = n;
		return NULL;
	}
	default:
		return cliParseReportFormat(value, &cfg->report)
				   ? NULL
				   : "--report is text, json, csv, html, junit or gradescope, not";
	}
}

bool cliParseReportFormat(const char* text, cliReportFormat* report)
{
	static const char* const reports[] = { "text", "json", "csv", "html", "junit", "gradescope" };
	for (int k = 0; k < 6; ++k) {
		if (strcmp(text, reports[k]) == 0) {
			*report = (cliReportFormat)k;
			return true;
		}
	}
	return false;
}

bool cliParseNormals(const char* list, unsigned* normals)
{
	static const char* const names[] = { "contact", "triangle", "average" };
	unsigned out = 0;
	const char* p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		bool known = false;
		for (int k = 0; k < 3 && !known; ++k) {
			if (strlen(names[k]) == n && strncmp(p, names[k], n) == 0) {
				out |= 1u << k;
				known = true;
			}
		}
		if (!known) {
			return false;
		}
		if (p[n] == '\0') {
			break;
		}
		p += n + 1;
	}
	*normals = out;
	return true;
}

bool cliParseFields(const char* list, unsigned* fields, const char** bad, size_t* badLength)
{
	static const struct {
		const char* name;
		unsigned field;
	} names[] = {
		{ "hit", cli_resultHit },       { "alpha", cli_resultAlpha },         { "t", cli_resultAlpha },
		{ "time", cli_resultAlpha },    { "initial_overlap", cli_resultInitialOverlap },
		{ "feature", cli_resultFeature }, { "triangle", cli_resultTriangle }, { "face", cli_resultFace },
		{ "vertices", cli_resultVertices }, { "point", cli_resultPoint },    { "center", cli_resultCenter },
		{ "normal", cli_resultNormal }, { "n", cli_resultNormal },           { "triangle_normal", cli_resultTriangleNormal },
	};
	unsigned out = 0;
	const char* p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		bool known = false;
		if (n == 3 && strncmp(p, "all", 3) == 0) {
			out = CLI_FIELDS_ALL;
			known = true;
		}
		for (size_t k = 0; k < sizeof names / sizeof names[0] && !known; ++k) {
			if (strlen(names[k].name) == n && strncmp(p, names[k].name, n) == 0) {
				out |= names[k].field;
				known = true;
			}
		}
		if (!known) {
			*bad = p;
			*badLength = n;
			return false;
		}
		if (p[n] == '\0') {
			break;
		}
		p += n + 1;
	}
	*fields = out;
	return true;
}

bool cliGrade_Judge(const cliGradeConfig* cfg, const cliResultSet* expected, const cliResultSet* actual, bool* fails,
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
	ok = ok && cliFileReport_Finish(&r);
	if (ok) {
		counts->passed = r.score.passed;
		counts->failed = r.score.failed;
		counts->missing = r.score.missing;
		counts->extra = r.score.extra;
	}
	free(r.score.diagnosis);
	free(r.score.review);
	cliFileReport_Free(&r);
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	return ok;
}

bool cliGrade_CheckExpected(const char* name, const cliResultSet* set)
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
				fprintf(stderr, "ballcast: %s: ignored %s (not known; --map THEIRS=OURS reads one): %s\n",
						cliInputName(path), set->format == cli_inputCsv ? "columns" : "keys", set->ignored);
			}
			return true;
		}
		cliReportError(cliInputName(path), &error);
	}
	char text[sizeof error.message + 64];
	if (error.line > 0) {
		snprintf(text, sizeof text, "unreadable: %ld:%ld: %s", error.line, error.column, error.message);
	} else {
		snprintf(text, sizeof text, "unreadable: %s", error.message);
	}
	*reason = cliCopyText(text, strlen(text));
	return false;
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
		fprintf(f, "Grades: %s, %s", cfg->meshName, expectedName);
	} else {
		fprintf(f, "Grades against %s", expectedName);
	}
	if (cfg->conventionName != NULL) {
		fprintf(f, ", %s", cfg->conventionName);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

int cliGrade_Run(const cliGradeConfig* cfg, const char* expectedName, const cliResultSet* expected,
				 char* const* paths, int count)
{
	if (cfg->report == cli_reportGradescope && count != 1) {
		fputs("ballcast: --report gradescope grades one submission (give one file)\n", stderr);
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
	FILE* out = NULL;
	if (!quiet) {
		if (!cliOutput_Open(&output, cfg->outputPath)) {
			cliIdIndex_Destroy(&expectedIndex, expected->count);
			return cli_exitTrouble;
		}
		out = output.stream;
	}
	cliFileScore* scores = calloc((size_t)(count > 0 ? count : 1), sizeof *scores);
	cliComparer cmp = { cfg, cfg->mesh, NULL, 0 };
	bool ok = scores != NULL;
	bool differ = false;
	long expectedIds = 0;
	for (long i = 0; i < expected->count; ++i) {
		expectedIds += expectedIndex.first[i] == i;
	}
	if (ok && !quiet && cfg->report == cli_reportJson) {
		cliWriteJsonHeader(out, cfg, expectedName, expectedIds);
	}
	/* text, HTML and JUnit: each file's part, written after the table or
	 * inside the document */
	char* sections = NULL;
	size_t sectionsSize = 0;
	FILE* parts = NULL;
	bool buffered = cfg->report == cli_reportText || cfg->report == cli_reportHtml || cfg->report == cli_reportJunit;
	if (ok && !quiet && buffered) {
		parts = open_memstream(&sections, &sectionsSize);
		ok = parts != NULL;
	}
	for (int k = 0; k < count && ok; ++k) {
		const char* name = cliInputName(paths[k]);
		cliResultSet actual;
		char* reason = NULL;
		bool read = cfg->readSubmission != NULL ? cfg->readSubmission(cfg->readContext, paths[k], &actual, &reason)
												: readSubmission(cfg, paths[k], &actual, &reason);
		if (read && actual.count == 0 && actual.shape != cli_shapeRecords) {
			/* nothing handed in: said once, not as every id missing */
			const char* what = actual.shape == cli_shapeEmptyFile ? "empty file" : "header only";
			reason = cliCopyText(what, strlen(what));
			cliResultSet_Free(&actual);
			read = false;
		}
		if (!read) {
			scores[k].name = name;
			scores[k].missing = expectedIds;
			scores[k].diagnosis = reason;
			scores[k].unreadable = true;
			differ = true;
			const char* why = reason != NULL ? reason : "unreadable";
			if (quiet) {
				/* the exit status only */
			} else if (cfg->report == cli_reportText) {
				fprintf(parts, "%s: %s\n", name, why);
			} else if (cfg->report == cli_reportJson) {
				cliWriteJsonUnreadable(out, scores + k, k == 0);
			} else if (cfg->report == cli_reportHtml) {
				cliWriteHtmlUnreadable(parts, name, why);
			} else if (cfg->report == cli_reportJunit) {
				cliWriteJunitUnreadable(parts, name, why);
			} else if (cfg->report == cli_reportGradescope) {
				cliWriteGradescope(out, NULL, expected, expectedIndex.first, why);
			}
			continue;
		}
		cliFileReport r;
		ok = cliFileReport_Open(&r, name);
		ok = ok && compareFile(&cmp, expected, &expectedIndex, expectedName, &actual, &r);
		ok = ok && cliFileReport_Finish(&r);
		if (ok) {
			differ = differ || r.score.failed > 0 || r.score.missing > 0 || r.score.extra > 0;
			if (quiet) {
				/* the exit status only */
			} else if (cfg->report == cli_reportText) {
				cliWriteTextLines(parts, &r, expected, cfg->maxFailures);
			} else if (cfg->report == cli_reportJson) {
				cliWriteJsonFile(out, &r, expected, &actual, k == 0);
			} else if (cfg->report == cli_reportHtml && (r.entryCount > 0 || r.note[0] != '\0')) {
				cliWriteHtmlSection(parts, cfg, &r, expected, &actual);
			} else if (cfg->report == cli_reportJunit) {
				cliWriteJunitSuite(parts, &r, expected, expectedIndex.first);
			} else if (cfg->report == cli_reportGradescope) {
				cliWriteGradescope(out, &r, expected, expectedIndex.first, NULL);
			}
			scores[k] = r.score;
			r.score.diagnosis = NULL; /* kept in scores */
			r.score.review = NULL;
		}
		free(r.score.diagnosis);
		free(r.score.review);
		cliFileReport_Free(&r);
		cliResultSet_Free(&actual);
	}
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	if (ok && parts != NULL) {
		ok = fclose(parts) == 0;
		parts = NULL;
	}
	char* title = ok ? reportTitle(cfg, expectedName) : NULL;
	ok = ok && title != NULL;
	int status = differ ? cli_exitRecords : cli_exitOk;
	if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
		status = cli_exitTrouble;
	} else if (!quiet) {
		if (cfg->report == cli_reportJson) {
			fputs(count > 0 ? "\n]}\n" : "]}\n", out);
		} else if (cfg->report == cli_reportCsv) {
			cliWriteCsvTable(out, scores, count);
		} else if (cfg->report == cli_reportHtml) {
			cliWriteHtmlPage(out, title, scores, count, sections, sectionsSize);
		} else if (cfg->report == cli_reportJunit) {
			cliWriteJunitDocument(out, title, scores, count, sections, sectionsSize);
		} else if (cfg->report == cli_reportText && count == 1) {
			cliWriteTextHeader(out, cfg);
			fwrite(sections, 1, sectionsSize, out);
			fprintf(out, "%ld passed, %ld failed, %ld missing, %ld extra\n", scores[0].passed, scores[0].failed,
					scores[0].missing, scores[0].extra);
		} else if (cfg->report == cli_reportText) {
			/* the class first, then each file's failures */
			cliWriteTextHeader(out, cfg);
			cliWriteTextTable(out, scores, count);
			if (sectionsSize > 0) {
				putc('\n', out);
				fwrite(sections, 1, sectionsSize, out);
			}
		}
	}
	free(title);
	if (parts != NULL) {
		fclose(parts);
	}
	free(sections);
	for (int k = 0; scores != NULL && k < count; ++k) {
		free(scores[k].diagnosis);
		free(scores[k].review);
	}
	free(scores);
	if (!quiet && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	} else if (!quiet && !cliOutput_Commit(&output)) {
		status = cli_exitTrouble;
	}
	return status;
}
