/* grade_file.c - one submission's report (grade_file.h): its counts and
 * score, its failing and missing records in EXPECTED's order with what
 * differs, its extra ids, its notes, and what the diagnosis found. */
#include "grade_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

void cliFileScore_Free(cliFileScore* s)
{
	free(s->name);
	free(s->diagnosis);
	free(s->review);
	s->name = NULL;
	s->diagnosis = NULL;
	s->review = NULL;
}

void cliFileReport_Free(cliFileReport* r)
{
	for (long i = 0; i < r->entryCount; ++i) {
		free(r->entries[i].diffs);
	}
	free(r->entries);
	free(r->passes);
	free(r->extras);
	for (int k = 0; k < r->noteCount; ++k) {
		free(r->notes[k]);
	}
	free(r->notes);
	cliFileScore score = r->score;
	memset(r, 0, sizeof *r);
	r->score = score;
}

bool cliFileReport_Open(cliFileReport* r, const char* name)
{
	memset(r, 0, sizeof *r);
	r->score.name = cliNameText(name);
	r->pair[0] = -1;
	r->pair[1] = -1;
	return r->score.name != NULL;
}

/* A new entry (NULL when out of memory). */
static cliEntry* addEntry(cliFileReport* r, long expected, long actual, bool failure)
{
	if (r->entryCount == r->entryCapacity) {
		long grown = r->entryCapacity > 0 ? 2 * r->entryCapacity : 16;
		cliEntry* entries = realloc(r->entries, (size_t)grown * sizeof *entries);
		if (entries == NULL) {
			return NULL;
		}
		r->entries = entries;
		r->entryCapacity = grown;
	}
	cliEntry* entry = r->entries + r->entryCount++;
	memset(entry, 0, sizeof *entry);
	entry->expected = expected;
	entry->actual = actual;
	entry->failure = failure;
	if (failure) {
		r->score.failed += 1;
	} else {
		r->score.missing += 1;
	}
	return entry;
}

cliEntry* cliFileReport_AddMissing(cliFileReport* r, long expected)
{
	return addEntry(r, expected, -1, false);
}

cliEntry* cliFileReport_AddFailure(cliFileReport* r, long expected, long actual, cliDiffs* d)
{
	cliEntry* entry = addEntry(r, expected, actual, true);
	if (entry != NULL) {
		entry->diffs = d->items;
		entry->diffCount = d->count;
		memset(d, 0, sizeof *d);
	}
	return entry;
}

bool cliFileReport_AddExtra(cliFileReport* r, long actual)
{
	if (r->extraCount == r->extraCapacity) {
		long grown = r->extraCapacity > 0 ? 2 * r->extraCapacity : 16;
		long* extras = realloc(r->extras, (size_t)grown * sizeof *extras);
		if (extras == NULL) {
			return false;
		}
		r->extras = extras;
		r->extraCapacity = grown;
	}
	r->extras[r->extraCount++] = actual;
	r->score.extra += 1;
	return true;
}

bool cliFileReport_AddNote(cliFileReport* r, const char* text)
{
	char** notes = realloc(r->notes, (size_t)(r->noteCount + 1) * sizeof *notes);
	if (notes == NULL) {
		return false;
	}
	r->notes = notes;
	notes[r->noteCount] = cliShownText(text);
	if (notes[r->noteCount] == NULL) {
		return false;
	}
	r->noteCount += 1;
	return true;
}

bool cliFileReport_SetReview(cliFileReport* r, const char* reading, const char* matching)
{
	size_t n = (reading != NULL ? strlen(reading) : 0) + (matching != NULL ? strlen(matching) : 0) + 3;
	char* why = malloc(n);
	if (why == NULL) {
		return false;
	}
	snprintf(why, n, "%s%s%s", reading != NULL ? reading : "", reading != NULL && matching != NULL ? "; " : "",
			 matching != NULL ? matching : "");
	free(r->score.review);
	r->score.review = cliShownText(why);
	free(why);
	return r->score.review != NULL;
}

bool cliFileReport_ReadingToSay(const cliFileReport* r)
{
	bool plain = (r->reading == NULL || r->reading->plain) && (r->ids == NULL || strcmp(r->ids, "exact") == 0) &&
				 r->score.review == NULL;
	return !plain;
}
