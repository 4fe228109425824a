/* grade_text.c - the text report (cliTextReport, grade_report.h): one
 * submission's failing records, extra ids and diagnosis, then its counts;
 * several: the score table first (scores to 3 digits), then each file's
 * lines. */
#include <string.h>

#include "grade_report.h"
#include "output.h"
#include "results_read.h"

/* The opening line: the normals accepted beyond the convention
 * (--accept-normals), if any. */
static void writeHeader(FILE* f, const cliGradeConfig* cfg)
{
	if (cfg->acceptNormals == 0) {
		return;
	}
	if (cfg->normalConvention != 0) {
		fprintf(f, "normals: the %s normal, also accepted: ", cliNormalsName(cfg->normalConvention));
	} else {
		fputs("normals: EXPECTED's or a tied contact's, also accepted: ", f);
	}
	const char* separator = "";
	for (unsigned bit = 1; bit <= cli_normalsAverage; bit <<= 1) {
		if (cfg->acceptNormals & bit) {
			fprintf(f, "%s%s", separator, cliNormalsName(bit));
			separator = ", ";
		}
	}
	fputs(" (--accept-normals)\n", f);
}

/* A file's lines: its notes, why to review it, each failing or missing
 * record (at most --max-failures; then how many more), extra ids (as
 * many), the diagnosis; when no id matched, the note says why once, not a
 * line per id. */
static void writeFile(cliReport* report, const cliFileReport* r, const cliResultSet* actual)
{
	FILE* f = report->parts;
	const char* name = r->score.name;
	long maxFailures = report->cfg->maxFailures;
	if (r->noteCount > 0) {
		fprintf(f, "%s: note: ", name);
		cliWriteNotes(f, r);
		putc('\n', f);
	}
	if (r->score.review != NULL) {
		fprintf(f, "%s: review: %s\n", name, r->score.review);
	}
	long shown = 0;
	for (long i = 0; i < r->entryCount && !r->unmatched; ++i) {
		if (maxFailures > 0 && shown == maxFailures) {
			fprintf(f, "%s: %ld more failing or missing records (--max-failures 0 lists them all)\n", name,
					r->entryCount - shown);
			break;
		}
		shown++;
		const cliEntry* entry = r->entries + i;
		fprintf(f, "%s: id ", name);
		cliWriteResultIdJson(f, report->expected->results + entry->expected);
		fputs(": ", f);
		cliWriteEntry(f, r, entry);
		putc('\n', f);
	}
	for (long k = 0; k < r->extraCount && !r->unmatched; ++k) {
		if (maxFailures > 0 && k == maxFailures) {
			fprintf(f, "%s: %ld more extra ids (--max-failures 0 lists them all)\n", name, r->extraCount - k);
			break;
		}
		fprintf(f, "%s: id ", name);
		cliWriteResultIdJson(f, actual->results + r->extras[k]);
		fputs(": extra\n", f);
	}
	if (r->score.diagnosis != NULL) {
		fprintf(f, "%s: diagnosis: %s\n", name, r->score.diagnosis);
	}
}

static void writeUnreadable(cliReport* report, const cliFileReport* r)
{
	fprintf(report->parts, "%s: %s\n", r->score.name, r->score.diagnosis != NULL ? r->score.diagnosis : "unreadable");
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
static void writeTable(FILE* f, const cliFileScore* scores, int count)
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
		cliWriteRoundedScore(f, s->score);
		putc('\n', f);
	}
}

static void writeEnd(cliReport* report, const cliFileScore* scores, int count)
{
	FILE* f = report->out;
	if (report->notGraded > 0) {
		fputs("note: ", f);
		cliWriteNotGradedNote(f, report);
		putc('\n', f);
	}
	writeHeader(f, report->cfg);
	if (count == 1) {
		fwrite(report->partsText, 1, report->partsSize, f);
		fprintf(f, "%ld passed, %ld failed, %ld missing, %ld extra\n", scores[0].passed, scores[0].failed,
				scores[0].missing, scores[0].extra);
		return;
	}
	/* the class first, then each file's failures */
	writeTable(f, scores, count);
	if (report->partsSize > 0) {
		putc('\n', f);
		fwrite(report->partsText, 1, report->partsSize, f);
	}
}

const cliReportWriter cliTextReport = { "text", NULL, false, NULL, writeFile, writeUnreadable, writeEnd };
