/* grade_report.h - the text, JSON and CSV reports of a grading run,
 * private to the grading engine (grade.h). */
#ifndef BC_GRADE_REPORT_H
#define BC_GRADE_REPORT_H

#include <stdio.h>

#include "grade.h"
#include "grade_file.h"

/* A file's text lines: each failing or missing record, extra ids, the
 * diagnosis. */
void cliWriteTextLines(FILE* f, const cliFileReport* r, const cliResultSet* expected);

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

#endif
