/* grade_index.h - the id index of a result set, private to the grading
 * engine (grade.h): which result of a set has a given id, and which ids
 * repeat. */
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

/* Index every result of set by its id key (cliResultIdKey). False when out
 * of memory (index then empty). Destroy it with cliIdIndex_Destroy. */
bool cliIdIndex_Build(cliIdIndex* index, const cliResultSet* set);

/* The first result of index whose key is that of other's result j, or -1. */
long cliIdIndex_Find(const cliIdIndex* index, const cliIdIndex* other, long j);

/* Free what index owns (count: the results it was built on). */
void cliIdIndex_Destroy(cliIdIndex* index, long count);

#endif
