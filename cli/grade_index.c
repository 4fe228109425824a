/* grade_index.c - the id index of a result set (grade_index.h): open
 * addressing from an id's key to the first result with it, and each first
 * result's second occurrence (a repeated id). */
#include "grade_index.h"

#include <stdlib.h>
#include <string.h>


static uint64_t hashKey(const char* key)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (const unsigned char* p = (const unsigned char*)key; *p != 0; ++p) {
		h = (h ^ *p) * 1099511628211ull;
	}
	return h;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t findSlot(const cliIdIndex* index, const char* key, uint64_t hash)
{
	size_t mask = index->capacity - 1;
	size_t i = (size_t)hash & mask;
	for (;;) {
		long r = index->slots[i];
		if (r < 0 || (index->hashes[r] == hash && strcmp(index->keys[r], key) == 0)) {
			return i;
		}
		i = (i + 1) & mask;
	}
}

/* The first result whose key is that of other's result j, or -1. */
long cliIdIndex_Find(const cliIdIndex* index, const cliIdIndex* other, long j)
{
	return index->slots[findSlot(index, other->keys[j], other->hashes[j])];
}

void cliIdIndex_Destroy(cliIdIndex* index, long count)
{
	if (index->keys != NULL) {
		for (long i = 0; i < count; ++i) {
			free(index->keys[i]);
		}
	}
	free(index->keys);
	free(index->hashes);
	free(index->first);
	free(index->duplicate);
	free(index->slots);
	memset(index, 0, sizeof *index);
}

bool cliIdIndex_Build(cliIdIndex* index, const cliResultSet* set)
{
	memset(index, 0, sizeof *index);
	size_t capacity = 16;
	while (capacity < 2 * (size_t)set->count) {
		capacity *= 2;
	}
	size_t count = set->count > 0 ? (size_t)set->count : 1;
	index->keys = calloc(count, sizeof *index->keys);
	index->hashes = malloc(count * sizeof *index->hashes);
	index->first = malloc(count * sizeof *index->first);
	index->duplicate = malloc(count * sizeof *index->duplicate);
	index->slots = malloc(capacity * sizeof *index->slots);
	index->capacity = capacity;
	if (index->keys == NULL || index->hashes == NULL || index->first == NULL || index->duplicate == NULL ||
		index->slots == NULL) {
		cliIdIndex_Destroy(index, set->count);
		return false;
	}
	for (size_t i = 0; i < capacity; ++i) {
		index->slots[i] = -1;
	}
	for (long r = 0; r < set->count; ++r) {
		index->duplicate[r] = -1;
		index->keys[r] = cliResultIdKey(set->results + r);
		if (index->keys[r] == NULL) {
			cliIdIndex_Destroy(index, set->count);
			return false;
		}
		index->hashes[r] = hashKey(index->keys[r]);
		size_t i = findSlot(index, index->keys[r], index->hashes[r]);
		if (index->slots[i] < 0) {
			index->slots[i] = r;
		} else if (index->duplicate[index->slots[i]] < 0) {
			index->duplicate[index->slots[i]] = r;
		}
		index->first[r] = index->slots[i];
	}
	return true;
}
