/* grade_file.c - one submission's report (grade_file.h): its counts and
 * score, its failing and missing records in EXPECTED's order, its extra
 * ids, and what the diagnosis found. */
#include "grade_file.h"

#include <stdlib.h>
#include <string.h>

#include "grade_judge.h"

void cliFileReport_Free(cliFileReport* r)
{
	for (long i = 0; i < r->entryCount; ++i) {
		free(r->entries[i].text);
		free(r->entries[i].json);
	}
	free(r->entries);
	free(r->passes);
	if (r->extra != NULL) {
		fclose(r->extra);
	}
	if (r->extraLines != NULL) {
		fclose(r->extraLines);
	}
	free(r->extraBuffer);
	free(r->extraLinesBuffer);
	memset(r, 0, sizeof *r);
}

bool cliFileReport_Open(cliFileReport* r, const char* name)
{
	memset(r, 0, sizeof *r);
	r->score.name = name;
	r->pair[0] = -1;
	r->pair[1] = -1;
	r->extra = open_memstream(&r->extraBuffer, &r->extraSize);
	r->extraLines = open_memstream(&r->extraLinesBuffer, &r->extraLinesSize);
	return r->extra != NULL && r->extraLines != NULL;
}

bool cliFileReport_Finish(cliFileReport* r)
{
	bool ok = fclose(r->extra) == 0;
	ok = fclose(r->extraLines) == 0 && ok;
	r->extra = NULL;
	r->extraLines = NULL;
	return ok;
}

/* A new entry (NULL when out of memory); text and json are taken. */
cliEntry* cliFileReport_AddEntry(cliFileReport* r, long expected, long actual, bool failure, char* text, char* json)
{
	if (r->entryCount == r->entryCapacity) {
		long grown = r->entryCapacity > 0 ? 2 * r->entryCapacity : 16;
		cliEntry* entries = realloc(r->entries, (size_t)grown * sizeof *entries);
		if (entries == NULL) {
			free(text);
			free(json);
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
	entry->text = text;
	entry->json = json;
	if (failure) {
		r->score.failed += 1;
	} else {
		r->score.missing += 1;
	}
	return entry;
}

/* Take a closed cliDiffs' buffers as a failure entry. */
cliEntry* cliFileReport_AddFailure(cliFileReport* r, long expected, long actual, struct cliDiffs* d)
{
	cliEntry* entry = cliFileReport_AddEntry(r, expected, actual, true, d->textBuffer, d->jsonBuffer);
	d->textBuffer = NULL;
	d->jsonBuffer = NULL;
	return entry;
}
