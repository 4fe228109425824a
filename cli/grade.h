/* grade.h - the one grading engine: submissions (students' files, or a
 * regression run) judged against expected results, record by record, field
 * by field, with tolerances and ties; their failures explained by a
 * catalogue of mistakes; the reports. `ballcast compare` (a saved expected
 * file) and `ballcast grade` (expected answers cast on the spot) both use
 * it, so a record passes or fails the same way everywhere. */
#ifndef BC_GRADE_H
#define BC_GRADE_H

#include <stdbool.h>

#include "grade_config.h"
#include "results_read.h"

/* A report format (grade_report.h). */
typedef struct cliReportWriter cliReportWriter;

/* The format --report names ("text", "json", "csv", "html", "junit",
 * "gradescope"), or NULL when there is none of that name. */
const cliReportWriter* cliReportWriter_FromName(const char* name);

/* The format an output path's extension names (.html or .htm the page,
 * .json JSON, .csv CSV), or NULL (the text report) for any other (or no
 * path). */
const cliReportWriter* cliReportWriter_FromPath(const char* path);

/* Handle shared option k with its value (k = cli_gradeReportOption for
 * the command's --report): NULL, or the usage message. */
const char* cliGradeConfig_OptionOrReport(cliGradeConfig* cfg, int k, const char* value);

/* Grade every submission path against expected (named expectedName in
 * reports; every result not an error has hit and alpha) and write the
 * report. A submission that cannot be read is a row with score 0 and the
 * reason. Returns the exit status: 0 when every submission passes, 1 when
 * something fails, 2 on trouble (output, memory). */
int cliGradeSubmissions(const cliGradeConfig* cfg, const char* expectedName, const cliResultSet* expected,
						char* const* paths, int count);

/* A file's counts, as the closing line "N passed, N failed, N missing, N
 * extra" gives them. */
typedef struct cliGradeCounts {
	long passed, failed, missing, extra;
} cliGradeCounts;

/* Judge one set of results against expected as cliGradeSubmissions does (render
 * --compare): fails[j] (one per result of actual) true when result j fails,
 * is extra or repeats an id; the counts. False when out of memory. */
bool cliJudgeResults(const cliGradeConfig* cfg, const cliResultSet* expected, const cliResultSet* actual, bool* fails,
					 cliGradeCounts* counts);

/* Check EXPECTED: hit and alpha for every result that is not an error.
 * Reports the first that lacks one; false then. */
bool cliCheckExpected(const char* name, const cliResultSet* set);

#endif
