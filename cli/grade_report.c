/* grade_report.c - what the report writers share (grade_report.h): a
 * difference in words, a record's message, a file's notes, ids as text,
 * the walk of EXPECTED's records beside a file's entries, scores rounded
 * for reading. */
#include "grade_report.h"

#include <stdlib.h>
#include <string.h>

#include "grade_mistakes.h"
#include "input.h"
#include "output.h"
#include "records_out.h"

void cliWriteRoundedScore(FILE* f, double score)
{
	char text[32];
	snprintf(text, sizeof text, "%.3g", score);
	if (score < 1.0 && strcmp(text, "1") == 0) {
		snprintf(text, sizeof text, "0.999"); /* a file that fails something never reads as 1 */
	}
	fputs(text, f);
}

const char* cliNormalsName(unsigned bit)
{
	return bit == cli_normalsTriangle ? "triangle" : bit == cli_normalsAverage ? "average" : "contact";
}

/* Ids a note names, at most: enough to find them in the messages above. */
#define CLI_NOTE_IDS 10

void cliWriteNotGradedNote(FILE* f, const cliReport* report)
{
	fprintf(f, "%ld bad record%s of %s %s not graded (ids ", report->notGraded, report->notGraded == 1 ? "" : "s",
			report->expectedName, report->notGraded == 1 ? "is" : "are");
	long named = 0;
	for (long i = 0; i < report->expected->count; ++i) {
		if (!report->cfg->notGraded[i]) {
			continue;
		}
		if (named == CLI_NOTE_IDS) {
			fputs(", ...", f);
			break;
		}
		fputs(named++ > 0 ? ", " : "", f);
		cliWriteResultIdJson(f, report->expected->results + i);
	}
	putc(')', f);
}

void cliWriteValueJson(FILE* f, const cliValue* v)
{
	cliOutValue out = cliOutValue_Null();
	switch (v->kind) {
	case cli_valueAbsent:
	case cli_valueNull:
		break;
	case cli_valueBool:
		out = cliOutValue_Bool(v->flag);
		break;
	case cli_valueInt:
		out = cliOutValue_Int(v->integer);
		break;
	case cli_valueNumber:
		out = cliOutValue_Number(v->number);
		break;
	case cli_valueName:
		out = cliOutValue_Name(v->text);
		break;
	case cli_valueText:
		out = cliOutValue_Text(v->text);
		break;
	case cli_valueVec3:
		out = cliOutValue_Vec3(v->vec);
		break;
	case cli_valueInts:
		out = cliOutValue_Ints(v->ints, v->count);
		break;
	}
	cliBuffer text = { 0 };
	cliBuffer_AppendValueJson(&text, &out);
	if (text.length > 0) {
		fwrite(text.data, 1, text.length, f);
	}
	cliBuffer_Free(&text);
}

/* A value in words: a name bare, nothing as "none", the rest as JSON. */
static void writeWords(FILE* f, const cliValue* v)
{
	if (v->kind == cli_valueAbsent || v->kind == cli_valueNull) {
		fputs("none", f);
	} else if (v->kind == cli_valueName) {
		fputs(v->text, f);
	} else {
		cliWriteValueJson(f, v);
	}
}

/* "feature edge, triangle 3, face 1, vertices [1,2]": the contact fields
 * known. */
static void writeContact(FILE* f, const cliContactValues* c)
{
	const char* separator = "";
	if (c->fields & cli_resultFeature) {
		fprintf(f, "%sfeature %s", separator, bcFeatureName(c->feature));
		separator = ", ";
	}
	if (c->fields & cli_resultTriangle) {
		fprintf(f, "%striangle %ld", separator, (long)c->triangle);
		separator = ", ";
	}
	if (c->fields & cli_resultFace) {
		fprintf(f, "%sface %ld", separator, (long)c->face);
		separator = ", ";
	}
	if (c->fields & cli_resultVertices) {
		cliValue v = { .kind = cli_valueInts, .count = c->vertexCount };
		memcpy(v.ints, c->vertices, sizeof v.ints);
		fprintf(f, "%svertices ", separator);
		cliWriteValueJson(f, &v);
	}
}

/* Does a quote open at message[i]: after a blank, a bracket or the
 * start (an apostrophe inside a word opens nothing), and not around one
 * JSON structural character, which ballcast's own messages name? */
static bool opensQuote(const char* message, size_t i)
{
	if (message[i] != '\'' || (i > 0 && message[i - 1] != ' ' && message[i - 1] != '(')) {
		return false;
	}
	bool structural = message[i + 1] != '\0' && strchr(",:[]{}\"", message[i + 1]) != NULL && message[i + 2] == '\'';
	return !structural;
}

void cliWriteWithoutQuotes(FILE* f, const char* message)
{
	size_t n = 0;
	while (message[n] != '\0' && !opensQuote(message, n)) {
		n++;
	}
	char* kept = cliCopyText(message, n);
	cliWriteShown(f, kept != NULL ? kept : "");
	free(kept);
	if (message[n] != '\0') {
		fputs("'\xe2\x80\xa6'", f); /* '…' */
	}
}

void cliWriteDiff(FILE* f, const cliDiff* d)
{
	switch (d->reason) {
	case cli_diffValue:
		fputs(d->field, f);
		if (d->actual.kind == cli_valueAbsent) {
			fputs(" missing (expected ", f);
			writeWords(f, &d->expected);
			putc(')', f);
			break;
		}
		putc(' ', f);
		writeWords(f, &d->actual);
		fputs(" vs expected ", f);
		writeWords(f, &d->expected);
		if (d->measure != NULL) {
			fprintf(f, " (%s ", d->measure);
			cliWriteNumber(f, d->difference);
			fputs(" > tol ", f);
			cliWriteNumber(f, d->tolerance);
			fprintf(f, "%s)", d->unit);
		}
		break;
	case cli_diffOffPath:
		fputs("alpha ", f);
		cliWriteNumber(f, d->actual.number);
		fputs(" is outside [0, 1]", f);
		if (d->expected.kind == cli_valueNumber) {
			fputs(" (expected ", f);
			cliWriteNumber(f, d->expected.number);
			putc(')', f);
		}
		break;
	case cli_diffNotUnit:
		fputs("normal ", f);
		writeWords(f, &d->actual);
		fputs(" is not a unit vector (length ", f);
		cliWriteNumber(f, d->difference);
		putc(')', f);
		break;
	case cli_diffNotTied:
		fputs("contact (", f);
		writeContact(f, &d->contact);
		fprintf(f, ") is not one of the %d tied contacts", d->ties);
		break;
	case cli_diffUnreadable:
		fprintf(f, "unreadable at %ld:%ld: ", d->line[0], d->column[0]);
		cliWriteWithoutQuotes(f, d->text);
		break;
	case cli_diffDuplicate: {
		fputs("duplicate id", f);
		if (d->text != NULL) {
			fprintf(f, " in %s", d->text);
		}
		if (d->line[0] == d->line[1]) {
			fprintf(f, " (line %ld, columns %ld and %ld)", d->line[0], d->column[0], d->column[1]);
		} else {
			fprintf(f, " (lines %ld and %ld)", d->line[0], d->line[1]);
		}
		break;
	}
	}
}

void cliWriteEntry(FILE* f, const cliFileReport* r, const cliEntry* entry)
{
	if (!entry->failure) {
		fputs("missing", f);
		return;
	}
	for (int k = 0; k < entry->diffCount; ++k) {
		if (k > 0) {
			fputs("; ", f);
		}
		cliWriteDiff(f, entry->diffs + k);
	}
	cliWriteEntryMistake(f, r, entry);
}

char* cliEntryText(const cliFileReport* r, const cliEntry* entry)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	cliWriteEntry(f, r, entry);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

void cliWriteNotes(FILE* f, const cliFileReport* r)
{
	for (int k = 0; k < r->noteCount; ++k) {
		if (k > 0) {
			fputs("; ", f);
		}
		fputs(r->notes[k], f);
	}
}

char* cliNotesText(const cliFileReport* r)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	cliWriteNotes(f, r);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

char* cliResult_IdText(const cliResult* result)
{
	if (result->id != NULL && result->idKind == cli_idString) {
		return cliShownText(result->id);
	}
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	cliWriteResultIdJson(f, result);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

const cliEntry* cliRecordWalk_Entry(cliRecordWalk* w, long i)
{
	if (w->r == NULL) {
		return NULL;
	}
	while (w->next < w->r->entryCount && w->r->entries[w->next].expected < i) {
		w->next++;
	}
	if (w->next < w->r->entryCount && w->r->entries[w->next].expected == i) {
		return w->r->entries + w->next;
	}
	return NULL;
}
