/* grade_report.c - the text, JSON and CSV reports of a grading run
 * (grade_report.h): a file's lines, the score table, the JSON document. */
#include "grade_report.h"

#include <string.h>

#include "cli.h"
#include "grade_mistakes.h"
#include "output.h"

void cliWriteTextLines(FILE* f, const cliFileReport* r, const cliResultSet* expected)
{
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		fprintf(f, "%s: id ", r->score.name);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		if (!entry->failure) {
			fputs(": missing\n", f);
			continue;
		}
		fprintf(f, ": %s", entry->text);
		int m = cliEntryMistake(r, entry);
		if (m >= 0) {
			fprintf(f, " [%s]", cliMistakeNames[m]);
		}
		putc('\n', f);
	}
	fwrite(r->extraLinesBuffer, 1, r->extraLinesSize, f);
	if (r->score.diagnosis != NULL) {
		fprintf(f, "%s: diagnosis: %s\n", r->score.name, r->score.diagnosis);
	}
}

void cliWriteJsonHeader(FILE* f, const cliGradeConfig* cfg, const char* expectedName, long expectedIds)
{
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"expected\":{\"file\":", f);
	cliWriteJsonString(f, expectedName);
	fputs(",\"ids\":", f);
	cliWriteInt(f, expectedIds);
	fputs("},\"tolerances\":{\"alpha\":", f);
	cliWriteNumber(f, cfg->alphaTol);
	fputs(",\"alpha_rel\":", f);
	cliWriteNumber(f, cfg->alphaRel);
	fputs(",\"normal_degrees\":", f);
	cliWriteNumber(f, cfg->normalTol);
	fputs(",\"point\":", f);
	cliWriteNumber(f, cfg->pointTol);
	fputs("},\n\"files\":[", f);
}

static void writeJsonCounts(FILE* f, const cliFileScore* s, bool first)
{
	fputs(first ? "\n{\"file\":" : ",\n{\"file\":", f);
	cliWriteJsonString(f, s->name);
	fputs(",\"records\":", f);
	cliWriteInt(f, s->records);
	fputs(",\"passed\":", f);
	cliWriteInt(f, s->passed);
	fputs(",\"failed\":", f);
	cliWriteInt(f, s->failed);
	fputs(",\"missing\":", f);
	cliWriteInt(f, s->missing);
	fputs(",\"extra\":", f);
	cliWriteInt(f, s->extra);
	fputs(",\"score\":", f);
	cliWriteNumber(f, s->score);
}

void cliWriteJsonFile(FILE* f, const cliFileReport* r, const cliResultSet* expected,
						  const cliResultSet* actual, bool first)
{
	writeJsonCounts(f, &r->score, first);
	fputs(",\"diagnosis\":[", f);
	for (int k = 0; k < r->shown; ++k) {
		fprintf(f, "%s{\"mistake\":\"%s\",\"explains\":%ld,\"of\":%ld,\"contradicted_by\":%ld}", k > 0 ? "," : "",
				cliMistakeNames[r->order[k]], r->counts[r->order[k]], r->diagnosed, r->contradictions[r->order[k]]);
	}
	fputs("],\"failures\":[", f);
	long n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		if (!entry->failure) {
			continue;
		}
		fputs(n++ > 0 ? ",{\"id\":" : "{\"id\":", f);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		fputs(",\"line\":", f);
		if (entry->actual >= 0) {
			cliWriteInt(f, actual->results[entry->actual].line);
		} else {
			fputs("null", f);
		}
		int m = cliEntryMistake(r, entry);
		if (m >= 0) {
			fprintf(f, ",\"mistake\":\"%s\"", cliMistakeNames[m]);
		}
		fputs(",\"differences\":[", f);
		fputs(entry->json, f);
		fputs("]}", f);
	}
	fputs("],\"missing_ids\":[", f);
	n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		if (!r->entries[i].failure) {
			if (n++ > 0) {
				putc(',', f);
			}
			cliWriteResultIdJson(f, expected->results + r->entries[i].expected);
		}
	}
	fputs("],\"extra_ids\":[", f);
	fwrite(r->extraBuffer, 1, r->extraSize, f);
	fputs("]}", f);
}

/* An unreadable submission in the JSON report. */
void cliWriteJsonUnreadable(FILE* f, const cliFileScore* s, bool first)
{
	writeJsonCounts(f, s, first);
	fputs(",\"unreadable\":", f);
	cliWriteJsonString(f, s->diagnosis);
	fputs(",\"diagnosis\":[],\"failures\":[],\"missing_ids\":[],\"extra_ids\":[]}", f);
}

static int digitCount(long value)
{
	int n = 1;
	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

/* The score table, columns aligned: file left, counts right, score last. */
void cliWriteTextTable(FILE* f, const cliFileScore* scores, int count)
{
	static const char* const headers[4] = { "passed", "failed", "missing", "extra" };
	int fileWidth = 4;
	int widths[4];
	for (int k = 0; k < 4; ++k) {
		widths[k] = (int)strlen(headers[k]);
	}
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		int n = (int)strlen(s->name);
		fileWidth = n > fileWidth ? n : fileWidth;
		for (int k = 0; k < 4; ++k) {
			int w = digitCount(values[k]);
			widths[k] = w > widths[k] ? w : widths[k];
		}
	}
	fprintf(f, "%-*s", fileWidth, "file");
	for (int k = 0; k < 4; ++k) {
		fprintf(f, "  %*s", widths[k], headers[k]);
	}
	fputs("  score\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		fprintf(f, "%-*s", fileWidth, s->name);
		for (int k = 0; k < 4; ++k) {
			fprintf(f, "  %*ld", widths[k], values[k]);
		}
		fputs("  ", f);
		cliWriteNumber(f, s->score);
		putc('\n', f);
	}
}

void cliWriteCsvTable(FILE* f, const cliFileScore* scores, int count)
{
	fputs("file,records,passed,failed,missing,extra,score,diagnosis\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		cliWriteCsvField(f, s->name);
		fprintf(f, ",%ld,%ld,%ld,%ld,%ld,", s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		putc(',', f);
		cliWriteCsvField(f, s->diagnosis != NULL ? s->diagnosis : "");
		putc('\n', f);
	}
}
