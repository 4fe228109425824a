/* grade_report.h - a grading run's report, private to the grading engine
 * (grade.h). Every format is a writer with the same four steps, called in
 * this order by cliGradeSubmissions: begin; then, per submission, file (it was
 * graded) or unreadable (it could not be read, or held no record); then
 * end with the score table. Each writer lives in a file of its own
 * (grade_text.c, grade_json.c, grade_csv.c, grade_html.c, grade_junit.c,
 * grade_gradescope.c) and grade.c's table names it: a new format is a new
 * file and a row there. Below them: what the writers share (a difference
 * in words, a record's message, notes, ids, scores for reading). */
#ifndef BC_GRADE_REPORT_H
#define BC_GRADE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grade_config.h"
#include "grade_file.h"
#include "grade_judge.h"

/* What every step of a writer is given: the run's settings, the expected
 * answers, and where to write. */
typedef struct cliReport {
	const cliGradeConfig* cfg;
	const char* title;        /* "Grades: MESH, TRAJECTORIES, convention cs121" (grade), "Grades against
	                             EXPECTED" (compare) */
	const char* expectedName; /* EXPECTED's name, as reports show it */
	const cliResultSet* expected;
	const bool* graded;       /* graded[i]: expected record i is graded (the first of its id, and not a bad
	                             record of the teacher's) */
	long ids;                 /* the ids graded: records i with graded[i] */
	long notGraded;           /* the teacher's bad records, not graded (cfg->notGraded) */
	FILE* out;                /* the report */
	FILE* parts;              /* a memory stream for the file steps of a writer whose end puts the files
	                             after a table (closed before end; its text then in partsText) */
	const char* partsText;
	size_t partsSize;
	long files;               /* file and unreadable steps taken before this one */
} cliReport;

/* A report format. */
typedef struct cliReportWriter {
	const char* name;       /* --report's word */
	const char* extensions; /* the -o extensions that pick it, each with its dot and a space after
	                           (".html .htm "), or NULL */
	bool oneFile;           /* it reports one submission only (several are a usage error) */
	void (*begin)(cliReport* report);
	void (*file)(cliReport* report, const cliFileReport* r, const cliResultSet* actual);
	void (*unreadable)(cliReport* report, const cliFileReport* r); /* r->score.diagnosis says why */
	void (*end)(cliReport* report, const cliFileScore* scores, int count);
} cliReportWriter;

/* The writers, each in its file (grade.c's table lists them). */
extern const cliReportWriter cliTextReport;
extern const cliReportWriter cliJsonReport;
extern const cliReportWriter cliCsvReport;
extern const cliReportWriter cliHtmlReport;
extern const cliReportWriter cliJunitReport;
extern const cliReportWriter cliGradescopeReport;

/* ------------------------------------------------------------ shared */

/* A score for reading: 3 significant digits (0.923), never 1 when below. */
void cliWriteRoundedScore(FILE* f, double score);

/* The name of a cli_normals* bit: "contact", "triangle", "average". */
const char* cliNormalsName(unsigned bit);

/* The note of a run with bad records of the teacher's: "2 bad records of
 * throws.json are not graded (ids "bad", "nan")" (at most 10 ids). */
void cliWriteNotGradedNote(FILE* f, const cliReport* report);

/* A value of a difference as JSON (a word in quotes, null when absent). */
void cliWriteValueJson(FILE* f, const cliValue* v);

/* One difference in words: "alpha 0.625 vs expected 0.5 (diff 0.125 > tol
 * 1e-09)", "normal missing (expected [0,0,1])", ... */
void cliWriteDiff(FILE* f, const cliDiff* d);

/* A reader's message with the file's text withheld: from the first quoted
 * span that is not one JSON structural character (',' ']' ...) on, the
 * message becomes '…' ("no known column in the CSV header '…'"). The
 * reports never quote a file: a submission may be a link to a file its
 * author must not read. */
void cliWriteWithoutQuotes(FILE* f, const char* message);

/* An entry's message: "missing", or its differences in words ("; "
 * between them) and the tag of the mistake that explains it. */
void cliWriteEntry(FILE* f, const cliFileReport* r, const cliEntry* entry);

/* cliWriteEntry's text (owned; NULL when out of memory). */
char* cliEntryText(const cliFileReport* r, const cliEntry* entry);

/* A file's notes, "; " between them. */
void cliWriteNotes(FILE* f, const cliFileReport* r);

/* A file's notes as one text (owned; "" when none; NULL when out of
 * memory). */
char* cliNotesText(const cliFileReport* r);

/* The id of a result as text: a string's own characters (shown safely:
 * cliShownText), a number's text (owned by the caller; NULL when out of
 * memory). */
char* cliResult_IdText(const cliResult* result);

/* Each record of EXPECTED with its entry in a file's report, or NULL when
 * it passed: entries are in EXPECTED's order. */
typedef struct cliRecordWalk {
	const cliFileReport* r; /* or NULL: no entry for any record */
	long next;              /* the next entry */
} cliRecordWalk;

/* The entry of expected record i (walked in increasing order), or NULL
 * when it passed. */
const cliEntry* cliRecordWalk_Entry(cliRecordWalk* w, long i);

#endif
