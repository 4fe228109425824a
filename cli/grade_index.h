/* grade_index.h - the id index of a result set, private to the grading
 * engine (grade.h): which result of a set has a given id, and which ids
 * repeat; and how a submission's records are matched with EXPECTED's, as
 * a teacher matches them: by id exactly, else by the numbers in the ids
 * (7 = "0007" = 7.0 = "t0007"), else by position when the counts agree;
 * when nothing matches, why, in one line. */
#ifndef BC_GRADE_INDEX_H
#define BC_GRADE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results_read.h"

/* Open addressing from id key to the first result with it. */
typedef struct cliIdIndex {
	char** keys;     /* per result, owned */
	uint64_t* hashes; /* per result */
	long* first;     /* per result: the first result with its key */
	long* duplicate; /* per first result: the index of its second occurrence, or -1 */
	long* slots;     /* result index or -1; capacity is a power of two */
	size_t capacity;
} cliIdIndex;

/* Index every result of set by its id key (cliResult_IdKey). False when out
 * of memory (index then empty). Destroy it with cliIdIndex_Destroy. */
bool cliIdIndex_Build(cliIdIndex* index, const cliResultSet* set);

/* The first result of index whose key is that of other's result j, or -1. */
long cliIdIndex_Find(const cliIdIndex* index, const cliIdIndex* other, long j);

/* Free what index owns (count: the results it was built on). */
void cliIdIndex_Destroy(cliIdIndex* index, long count);

/* How a submission's records were matched with EXPECTED's. */
typedef enum cliIdMatching {
	cli_matchExact = 0, /* by id, as JSON values (3 = 3.0 = "3") */
	cli_matchNumeric,   /* by the numbers the ids spell: 7 = "0007" = 7.0, "t7" = "t0007" */
	cli_matchPosition,  /* record k answers trajectory k: no ids, ids that count rows, or none that match */
	cli_matchNone       /* nothing matches: every record extra, every id missing */
} cliIdMatching;

/* A submission matched. */
typedef struct cliIdMatch {
	cliIdMatching how;
	long matched;      /* records matched */
	char note[640];    /* how, in words ("ids matched as numbers: ..."); "" for exact ids that all match */
	bool review;       /* the match is a teacher's guess: have it looked at */
	cliResult* results; /* owned (NULL for cli_matchExact and None): actual's results, each matched one
	                       with EXPECTED's id (borrowed, not to be freed) */
} cliIdMatch;

/* Decide how actual's records match expected's (indexed by expectedIndex,
 * whose distinct ids number expectedIds): ids that count the file's rows
 * (0, 1, 2 ... or 1, 2, 3 ...) where EXPECTED's do not count them from the
 * same start are row numbers: by position (the counts agreeing); else
 * exact ids, unless the numbers in the ids match more of them; else
 * position, when the counts agree; else none. False when out of memory. */
bool cliIdMatch_Decide(cliIdMatch* match, const cliResultSet* expected, const cliIdIndex* expectedIndex,
					   long expectedIds, const cliResultSet* actual);

/* Free what match owns. */
void cliIdMatch_Free(cliIdMatch* match);

#endif
