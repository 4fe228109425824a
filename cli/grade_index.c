/* grade_index.c - the id index of a result set (grade_index.h): open
 * addressing from an id's key to the first result with it, and each first
 * result's second occurrence (a repeated id). */
#include "grade_index.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "output.h"


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
		index->keys[r] = cliResult_IdKey(set->results + r);
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

/* ------------------------------------------------------------ matching */

/* The longest id looked at for its number. */
#define CLI_ID_NUMBER_MAX 64

/* The id text of a result (its index when it has none). */
static const char* idText(const cliResult* r, char* buffer, size_t size)
{
	if (r->idKind == cli_idIndex || r->id == NULL) {
		snprintf(buffer, size, "%ld", r->index);
		return buffer;
	}
	return r->id;
}

static bool isDigitByte(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* The part of every id of set before its number ("t" of t0007, "room-"
 * of room-7), when they all have one and share it; "" when the ids are
 * bare numbers or share none. */
static void sharedPrefix(const cliResultSet* set, char* prefix, size_t size)
{
	prefix[0] = '\0';
	bool first = true;
	for (long i = 0; i < set->count; ++i) {
		char buffer[32];
		const char* id = idText(set->results + i, buffer, sizeof buffer);
		size_t n = strlen(id);
		size_t digits = n;
		while (digits > 0 && isDigitByte(id[digits - 1])) {
			digits--;
		}
		if (digits == n || digits >= size) {
			prefix[0] = '\0';
			return; /* one without a number at its end */
		}
		if (first) {
			memcpy(prefix, id, digits);
			prefix[digits] = '\0';
			first = false;
		} else if (strlen(prefix) != digits || memcmp(prefix, id, digits) != 0) {
			prefix[0] = '\0';
			return;
		}
	}
}

/* The number id spells after prefix, as a key: sign, digits without
 * leading zeros, a fraction without trailing zeros (7, "0007", 7.0 and
 * +7 are "7"). False when it spells none. */
static bool numberKeyOf(const char* id, const char* prefix, char* key, size_t size)
{
	size_t p = strlen(prefix);
	if (strncmp(id, prefix, p) != 0) {
		return false;
	}
	const char* s = id + p;
	size_t n = 0;
	if (*s == '+' || *s == '-') {
		if (*s == '-' && n + 1 < size) {
			key[n++] = '-';
		}
		s++;
	}
	while (*s == '0' && isDigitByte(s[1])) {
		s++;
	}
	if (!isDigitByte(*s)) {
		return false;
	}
	while (isDigitByte(*s) && n + 1 < size) {
		key[n++] = *s++;
	}
	if (*s == '.') {
		const char* fraction = ++s;
		while (isDigitByte(*s)) {
			s++;
		}
		const char* end = s;
		while (end > fraction && end[-1] == '0') {
			end--;
		}
		if (end > fraction && n + (size_t)(end - fraction) + 2 < size) {
			key[n++] = '.';
			memcpy(key + n, fraction, (size_t)(end - fraction));
			n += (size_t)(end - fraction);
		}
	}
	key[n] = '\0';
	return *s == '\0' && n > 0 && !(n == 1 && key[0] == '-');
}

/* A set whose ids are the numbers set's ids spell (after prefix); NULL
 * when out of memory. Results whose ids spell none keep no id. */
static cliResultSet* numberSet(const cliResultSet* set, const char* prefix, char tag, long* numbered)
{
	cliResultSet* out = calloc(1, sizeof *out);
	cliResult* results = calloc((size_t)(set->count > 0 ? set->count : 1), sizeof *results);
	if (out == NULL || results == NULL) {
		free(out);
		free(results);
		return NULL;
	}
	out->results = results;
	out->count = set->count;
	*numbered = 0;
	for (long i = 0; i < set->count; ++i) {
		char buffer[32];
		char key[CLI_ID_NUMBER_MAX];
		results[i].index = set->results[i].index;
		const char* id = idText(set->results + i, buffer, sizeof buffer);
		if (numberKeyOf(id, prefix, key, sizeof key)) {
			results[i].id = malloc(strlen(key) + 1);
			if (results[i].id == NULL) {
				cliResultSet_Free(out);
				free(out);
				return NULL;
			}
			strcpy(results[i].id, key);
			results[i].idKind = cli_idString;
			*numbered += 1;
		} else {
			/* an id spelling no number matches nothing: a key no number has */
			results[i].id = malloc(32);
			if (results[i].id == NULL) {
				cliResultSet_Free(out);
				free(out);
				return NULL;
			}
			snprintf(results[i].id, 32, "-none-%c%ld", tag, i); /* unlike any key of the other set */
			results[i].idKind = cli_idString;
		}
	}
	return out;
}

static void freeNumberSet(cliResultSet* set)
{
	if (set != NULL) {
		cliResultSet_Free(set);
		free(set);
	}
}

/* Do set's ids count its rows: whole numbers start, start + 1, ... in
 * file order (start 0 or 1)? *start gets it. */
static bool countsRows(const cliResultSet* set, const char* prefix, long* start)
{
	for (long i = 0; i < set->count; ++i) {
		char buffer[32];
		char key[CLI_ID_NUMBER_MAX];
		if (!numberKeyOf(idText(set->results + i, buffer, sizeof buffer), prefix, key, sizeof key) ||
			strchr(key, '.') != NULL || key[0] == '-' || strlen(key) > 15) {
			return false;
		}
		long value = atol(key);
		if (i == 0) {
			*start = value;
			if (value != 0 && value != 1) {
				return false;
			}
		} else if (value != *start + i) {
			return false;
		}
	}
	return set->count > 0;
}

/* Room for someIds' text. */
#define CLI_SOME_IDS_SIZE (2 * CLI_SHOWN_NAME_SIZE + 16)

/* The first two ids of a set, quoted, for a note: 'a', 'b', ... (each
 * escaped and cut short as cliShortName shows a name read from a file). */
static void someIds(const cliResultSet* set, char* out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (long i = 0; i < set->count && i < 2; ++i) {
		char buffer[32];
		char shown[CLI_SHOWN_NAME_SIZE];
		cliShortName(idText(set->results + i, buffer, sizeof buffer), shown, sizeof shown);
		int w = snprintf(out + n, size - n, "%s'%s'", i > 0 ? ", " : "", shown);
		n += w > 0 ? (size_t)w : 0;
		if (n >= size) {
			return; /* (cut short: size is CLI_SOME_IDS_SIZE, which holds two) */
		}
	}
	if (set->count > 2 && n + 6 < size) {
		snprintf(out + n, size - n, ", ...");
	}
}

/* A copy of actual's results with each matched one given EXPECTED's id
 * (match[j]: the expected result record j answers, or -1). */
static cliResult* remap(const cliResultSet* expected, const cliResultSet* actual, const long* match)
{
	cliResult* results = malloc((size_t)(actual->count > 0 ? actual->count : 1) * sizeof *results);
	if (results == NULL) {
		return NULL;
	}
	for (long j = 0; j < actual->count; ++j) {
		results[j] = actual->results[j];
		if (match[j] >= 0) {
			const cliResult* e = expected->results + match[j];
			results[j].id = e->id; /* borrowed */
			results[j].idKind = e->idKind;
			results[j].index = e->index;
		}
	}
	return results;
}

void cliIdMatch_Free(cliIdMatch* match)
{
	free(match->results);
	memset(match, 0, sizeof *match);
}

bool cliIdMatch_Decide(cliIdMatch* match, const cliResultSet* expected, const cliIdIndex* expectedIndex,
					   long expectedIds, const cliResultSet* actual)
{
	memset(match, 0, sizeof *match);
	long* to = malloc((size_t)(actual->count > 0 ? actual->count : 1) * sizeof *to);
	if (to == NULL) {
		return false;
	}
	bool ok = true;
	bool counts = actual->count == expectedIds && expectedIds == expected->count;
	char theirs[CLI_SOME_IDS_SIZE], ours[CLI_SOME_IDS_SIZE];
	someIds(actual, theirs, sizeof theirs);
	someIds(expected, ours, sizeof ours);
	if (actual->positional || actual->count == 0) {
		match->how = actual->count == 0 || counts ? cli_matchPosition : cli_matchNone;
		if (actual->count > 0 && counts) {
			snprintf(match->note, sizeof match->note, "no ids: records matched by position, in the trajectories' order");
		} else if (actual->count > 0) {
			snprintf(match->note, sizeof match->note, "no ids, and %ld records for %ld expected: not matched by position",
					 actual->count, expectedIds);
		}
		if (match->how == cli_matchPosition && actual->count > 0) {
			for (long j = 0; j < actual->count; ++j) {
				to[j] = j;
			}
			match->results = remap(expected, actual, to);
			ok = match->results != NULL;
			match->matched = actual->count;
		}
		free(to);
		return ok;
	}
	/* exact: how many of the file's ids are EXPECTED's */
	cliIdIndex actualIndex;
	if (!cliIdIndex_Build(&actualIndex, actual)) {
		free(to);
		return false;
	}
	long distinct = 0, exact = 0;
	for (long j = 0; j < actual->count; ++j) {
		if (actualIndex.first[j] == j) {
			distinct++;
			exact += cliIdIndex_Find(expectedIndex, &actualIndex, j) >= 0;
		}
	}
	cliIdIndex_Destroy(&actualIndex, actual->count);
	if (exact == distinct && exact == expectedIds) {
		/* every id the trajectories': nothing to weigh */
		match->how = cli_matchExact;
		match->matched = exact;
		free(to);
		return true;
	}
	/* the numbers the ids spell */
	char expectedPrefix[32], actualPrefix[32];
	sharedPrefix(expected, expectedPrefix, sizeof expectedPrefix);
	sharedPrefix(actual, actualPrefix, sizeof actualPrefix);
	long start = 0, expectedStart = 0;
	bool rows = countsRows(actual, actualPrefix, &start);
	bool expectedRows = countsRows(expected, expectedPrefix, &expectedStart);
	if (rows && counts && !(expectedRows && expectedStart == start)) {
		/* 1, 2, 3 ... where the throws are t000, t001 ...: row numbers (and
		 * where the throws are 0, 1, 2 ...: most likely, but have it looked at) */
		match->how = cli_matchPosition;
		match->review = expectedRows && expectedPrefix[0] == '\0';
		snprintf(match->note, sizeof match->note,
				 "ids %s count the rows from %ld, the trajectories' are %s: records matched by position", theirs, start,
				 ours);
		for (long j = 0; j < actual->count; ++j) {
			to[j] = j;
		}
		match->results = remap(expected, actual, to);
		match->matched = actual->count;
		free(to);
		return match->results != NULL;
	}
	long numberedExpected = 0, numberedActual = 0;
	cliResultSet* expectedNumbers = numberSet(expected, expectedPrefix, 'e', &numberedExpected);
	cliResultSet* actualNumbers = numberSet(actual, actualPrefix, 'a', &numberedActual);
	cliIdIndex numbersIndex, actualNumbersIndex;
	bool indexed = expectedNumbers != NULL && actualNumbers != NULL &&
				   cliIdIndex_Build(&numbersIndex, expectedNumbers);
	bool actualIndexed = indexed && cliIdIndex_Build(&actualNumbersIndex, actualNumbers);
	if (indexed && !actualIndexed) {
		cliIdIndex_Destroy(&numbersIndex, expectedNumbers->count);
	}
	ok = actualIndexed;
	long numeric = 0;
	for (long j = 0; ok && j < actual->count; ++j) {
		long i = actualNumbersIndex.first[j] == j ? cliIdIndex_Find(&numbersIndex, &actualNumbersIndex, j) : -1;
		/* an EXPECTED number given twice (t7 and x7) names no one record */
		to[j] = i >= 0 && numbersIndex.duplicate[i] < 0 ? i : -1;
		numeric += to[j] >= 0;
	}
	if (ok && exact > 0 && exact >= numeric) {
		match->how = cli_matchExact;
		match->matched = exact;
	} else if (ok && numeric > 0) {
		match->how = cli_matchNumeric;
		match->matched = numeric;
		snprintf(match->note, sizeof match->note, "ids matched by the numbers they spell (%s for the trajectories' %s)",
				 theirs, ours);
		match->review = numeric < distinct;
		match->results = remap(expected, actual, to);
		ok = match->results != NULL;
	} else if (ok && counts) {
		match->how = cli_matchPosition;
		match->matched = actual->count;
		match->review = true;
		snprintf(match->note, sizeof match->note,
				 "no id matches the trajectories' (%s against %s): records matched by position, as the counts agree",
				 theirs, ours);
		for (long j = 0; j < actual->count; ++j) {
			to[j] = j;
		}
		match->results = remap(expected, actual, to);
		ok = match->results != NULL;
	} else if (ok) {
		match->how = cli_matchNone;
		snprintf(match->note, sizeof match->note,
				 "no id matches the trajectories' (%s against %s), and %ld records for %ld: nothing matched",
				 theirs, ours, actual->count, expectedIds);
	}
	if (actualIndexed) {
		cliIdIndex_Destroy(&numbersIndex, expectedNumbers->count);
		cliIdIndex_Destroy(&actualNumbersIndex, actualNumbers->count);
	}
	freeNumberSet(expectedNumbers);
	freeNumberSet(actualNumbers);
	free(to);
	return ok;
}
