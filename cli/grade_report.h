/* grade_report.h - the text, JSON and CSV reports of a grading run,
 * private to the grading engine (grade.h). */
#ifndef BC_GRADE_REPORT_H
#define BC_GRADE_REPORT_H

#include <stdio.h>

#include "grade.h"
#include "grade_file.h"

/* A score for reading: 3 significant digits (0.923), never 1 when below. */
void cliWriteRoundedScore(FILE* f, double score);

/* The text report's opening lines: the normals accepted beyond the
 * convention (--accept-normals), if any. */
void cliWriteTextHeader(FILE* f, const cliGradeConfig* cfg);

/* A file's text lines: each failing or missing record (at most
 * maxFailures, 0: all; then how many more), extra ids, the diagnosis. */
void cliWriteTextLines(FILE* f, const cliFileReport* r, const cliResultSet* expected, long maxFailures);

/* The JSON report up to its "files" list. */
void cliWriteJsonHeader(FILE* f, const cliGradeConfig* cfg, const char* expectedName, long expectedIds);

/* A file's element of the JSON "files" list (first: no comma before). */
void cliWriteJsonFile(FILE* f, const cliFileReport* r, const cliResultSet* expected, const cliResultSet* actual,
					  bool first);

/* An unreadable submission's element of the JSON "files" list. */
void cliWriteJsonUnreadable(FILE* f, const cliFileScore* s, bool first);

/* The score table, columns aligned. */
void cliWriteTextTable(FILE* f, const cliFileScore* scores, int count);

/* The score table as CSV. */
void cliWriteCsvTable(FILE* f, const cliFileScore* scores, int count);

/* A file's JUnit test suite: a testcase per id of EXPECTED (first[i] == i
 * for its first record), each failing or missing one with a failure and
 * its message; the extra ids as one more failing testcase. */
void cliWriteJunitSuite(FILE* f, const cliFileReport* r, const cliResultSet* expected, const long* first);

/* An unreadable file's JUnit test suite: one testcase in error. */
void cliWriteJunitUnreadable(FILE* f, const char* name, const char* reason);

/* The JUnit document around the suites written before. */
void cliWriteJunitDocument(FILE* f, const char* title, const cliFileScore* scores, int count, const char* suites,
						   size_t suitesSize);

/* Gradescope's results.json for one submission: score (records passed)
 * of max_score (EXPECTED's ids), and a test per id. r NULL with
 * unreadable: the file could not be read (score 0). */
void cliWriteGradescope(FILE* f, const cliFileReport* r, const cliResultSet* expected, const long* first,
						const char* unreadable);

#endif
