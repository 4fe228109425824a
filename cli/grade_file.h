/* grade_file.h - one submission's report, private to the grading engine
 * (grade.h): its score, its failing and missing records, its extra ids and
 * its diagnosis, which the text, JSON, CSV and HTML reports write. */
#ifndef BC_GRADE_FILE_H
#define BC_GRADE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grade.h"

/* Records of one submission re-answered under each mistake, at most (its
 * failures, and as many of its passes to weigh them against): enough to
 * name a mistake, few enough that a class of wrong files is graded in
 * seconds. */
#define CLI_DIAGNOSE_MAX 500

/* The no-entry text of a diagnosis that names nothing. */
#define CLI_UNEXPLAINED "no catalogue mistake explains these failures"

/* One row of the score table. */
typedef struct cliFileScore {
	const char* name;
	long records;
	long passed;
	long failed;
	long missing;
	long extra;
	double score;
	char* diagnosis; /* owned: "larger-root (3 of 3 failing)", the reason a file is unreadable, or NULL */
	bool unreadable; /* the file could not be read, or held no record (diagnosis says why) */
	char* review;    /* owned: why a teacher should look at how the file was read (the reading had to
	                    choose), or NULL */
} cliFileScore;

/* One line of a file's text report, in EXPECTED's order. */
typedef struct cliEntry {
	long expected;   /* index in EXPECTED */
	long actual;     /* index in the submission; -1 when missing there */
	bool failure;    /* a failing record (else a missing id) */
	bool diagnosable;
	long explained;  /* mistakes explaining it (bits) */
	bool byPair;     /* the pair of mistakes named explains it */
	char* text;      /* owned: what differs */
	char* json;      /* owned: the differences as JSON list elements */
} cliEntry;

typedef struct cliFileReport {
	cliFileScore score;
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
	FILE* extra; /* JSON: extra ids */
	char* extraBuffer;
	size_t extraSize;
	FILE* extraLines; /* text: extra ids */
	char* extraLinesBuffer;
	size_t extraLinesSize;
	bool* marks; /* or NULL: per submission record, true when it fails, is extra or repeats an id */
	char note[2048]; /* how the file was read and matched ("read as text with columns separated by ';'; columns:
	                    ...", "no ids: matched by position"), or "" */
	const char* ids; /* how its records were matched: "exact", "numeric", "position", "none" */
	bool unmatched;  /* nothing matched: every id missing, every record extra, said once (the note) */
	const cliReading* reading; /* borrowed: how the file was read (its set's), or NULL */
} cliFileReport;

/* Start r for the submission called name (not copied). False when out of
 * memory (free it all the same). */
bool cliFileReport_Open(cliFileReport* r, const char* name);

/* Close the extra-id streams. False when out of memory. */
bool cliFileReport_Finish(cliFileReport* r);

/* Free what r owns but score.diagnosis (which the score table may keep). */
void cliFileReport_Free(cliFileReport* r);

/* A new entry (NULL when out of memory); text and json (owned) are taken. */
cliEntry* cliFileReport_AddEntry(cliFileReport* r, long expected, long actual, bool failure, char* text, char* json);

struct cliDiffs;

/* Take a closed cliDiffs' buffers as a failure entry (NULL when out of
 * memory). */
cliEntry* cliFileReport_AddFailure(cliFileReport* r, long expected, long actual, struct cliDiffs* d);

#endif
