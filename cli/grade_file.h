/* grade_file.h - one submission's report, private to the grading engine
 * (grade.h): its score, its failing and missing records with what differs
 * (grade_judge.h's plain data), its extra ids, its notes and its
 * diagnosis: what every report format's writer (grade_report.h) reads. A
 * plain struct: a part of the engine that learns more about a file adds a
 * field, or a note. */
#ifndef BC_GRADE_FILE_H
#define BC_GRADE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "grade_config.h"
#include "grade_judge.h"
#include "results_read.h"

/* Records of one submission re-answered under each mistake, at most (its
 * failures, and as many of its passes to weigh them against): enough to
 * name a mistake, few enough that a class of wrong files is graded in
 * seconds. */
#define CLI_DIAGNOSE_MAX 500

/* The no-entry text of a diagnosis that names nothing. */
#define CLI_UNEXPLAINED "no catalogue mistake explains these failures"

/* One row of the score table. */
typedef struct cliFileScore {
	char* name;      /* owned: the file's name as reports show it (cliNameText: ls -b's escapes) */
	long records;
	long passed;
	long failed;
	long missing;
	long extra;
	double score;
	char* diagnosis; /* owned: "larger-root (3 of 3 failing)", the reason a file is unreadable, or NULL */
	bool unreadable; /* the file could not be read, or held no record (diagnosis says why) */
	char* review;    /* owned: why a teacher should look at how the file was read or matched (the reading had
	                    to choose: "alpha: column 3 read, column 4 fits too"), or NULL */
} cliFileScore;

/* Free what a score owns. */
void cliFileScore_Free(cliFileScore* s);

/* One failing or missing record of a file, in EXPECTED's order. */
typedef struct cliEntry {
	long expected;   /* index in EXPECTED */
	long actual;     /* index in the submission; -1 when missing there */
	bool failure;    /* a failing record (else a missing id) */
	bool diagnosable;
	long explained;  /* mistakes explaining it (bits) */
	bool byPair;     /* the pair of mistakes named explains it */
	cliDiff* diffs;  /* owned: what differs, field by field (a failure) */
	int diffCount;
} cliEntry;

typedef struct cliFileReport {
	cliFileScore score; /* kept by the score table: not freed with the report */
	cliEntry* entries;
	long entryCount;
	long entryCapacity;
	long order[cli_mistakeCount]; /* mistakes by how many failures they explain, less contradictions */
	long counts[cli_mistakeCount];
	long contradictions[cli_mistakeCount]; /* passing records the mistake would have failed */
	long diagnosed;
	int shown;    /* the mistakes named: order[0 .. shown) (none when a pair is) */
	int pair[2];  /* two mistakes named together (replayed at once), or -1, -1 */
	long pairCount; /* the failures the pair explains */
	bool unexplained; /* failures that no catalogue mistake (nor pair) explains well enough to name */
	long* passes; /* pairs: expected and actual index of passing records, the first CLI_DIAGNOSE_MAX */
	long passCount;
	long* extras; /* owned: the submission's records whose ids EXPECTED lacks (indices, in its order); a file
	                 without ids matched by nothing lists none (score.extra still counts them) */
	long extraCount;
	long extraCapacity;
	char** notes; /* owned: how the file was read and matched ("read as text with columns separated by ';';
	                 columns: 'TOI' -> alpha, ...", "no ids: records matched by position"), in the order found */
	int noteCount;
	const cliReading* reading; /* borrowed (the submission's set): how the file was read, as data; NULL when
	                              read strictly (compare's own formats) */
	const char* ids; /* how its records were matched: "exact", "numeric", "position", "none" (static), or NULL */
	bool unmatched;  /* nothing matched: every id missing, every record extra, said once (in a note) */
	bool* marks; /* or NULL (not owned): per submission record, true when it fails, is extra or repeats an id */
} cliFileReport;

/* Start r for the submission called name (copied as reports show it:
 * cliNameText). False when out of memory (free it all the same). */
bool cliFileReport_Open(cliFileReport* r, const char* name);

/* Free what r owns but its score, which the score table keeps. */
void cliFileReport_Free(cliFileReport* r);

/* A missing record: expected's id is not in the submission. NULL when out
 * of memory. */
cliEntry* cliFileReport_AddMissing(cliFileReport* r, long expected);

/* A failing record with its differences (taken from d, which is left
 * empty). NULL when out of memory. */
cliEntry* cliFileReport_AddFailure(cliFileReport* r, long expected, long actual, cliDiffs* d);

/* Submission record actual's id is not EXPECTED's. False when out of
 * memory. */
bool cliFileReport_AddExtra(cliFileReport* r, long actual);

/* Add a note (copied as reports show text: cliShownText). False when out
 * of memory. */
bool cliFileReport_AddNote(cliFileReport* r, const char* text);

/* Flag the file for review: score.review becomes why (reading's choices
 * and the id matching's, either NULL, "; " between them; copied as notes
 * are). False when out of memory. */
bool cliFileReport_SetReview(cliFileReport* r, const char* reading, const char* matching);

/* Has the file anything to say of how it was read and matched (the JSON
 * report's reading, ids and review)? Not for a file in cast's own shape,
 * read by cast's names, its ids matched exactly, with no review. */
bool cliFileReport_ReadingToSay(const cliFileReport* r);

#endif
