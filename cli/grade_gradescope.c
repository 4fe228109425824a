/* grade_gradescope.c - Gradescope's autograder results.json
 * (cliGradescopeReport, grade_report.h) for one submission: its score
 * (records passed) of max_score (EXPECTED's ids), the counts, diagnosis,
 * notes and why to review it as its output, and a test per id. */
#include <stdlib.h>

#include "grade_report.h"
#include "output.h"

/* The document: r's tests, or (unreadable) every test failing with why. */
static void writeResults(cliReport* report, const cliFileReport* r, bool unreadable)
{
	FILE* f = report->out;
	const cliResultSet* expected = report->expected;
	fputs("{\"score\":", f);
	cliWriteInt(f, unreadable ? 0 : r->score.passed);
	cliWriteIntMember(f, "max_score", report->ids);
	fputs(",\"output\":", f);
	char* text = NULL;
	size_t size = 0;
	FILE* m = open_memstream(&text, &size);
	if (m != NULL && unreadable) {
		fputs(r->score.diagnosis != NULL ? r->score.diagnosis : "unreadable", m);
	} else if (m != NULL) {
		fprintf(m, "%ld passed, %ld failed, %ld missing, %ld extra", r->score.passed, r->score.failed,
				r->score.missing, r->score.extra);
		if (r->score.diagnosis != NULL) {
			fprintf(m, "; diagnosis: %s", r->score.diagnosis);
		}
		if (r->noteCount > 0) {
			fputs("\nnote: ", m);
			cliWriteNotes(m, r);
		}
		if (r->score.review != NULL) {
			fprintf(m, "\nreview: %s", r->score.review);
		}
	}
	if (m != NULL && report->notGraded > 0) {
		fputs("\nnote: ", m);
		cliWriteNotGradedNote(m, report);
	}
	if (m != NULL) {
		fclose(m);
	}
	cliWriteJsonString(f, text != NULL ? text : "");
	free(text);
	fputs(",\"visibility\":\"visible\",\"tests\":[", f);
	cliRecordWalk walk = { unreadable ? NULL : r, 0 };
	long n = 0;
	for (long i = 0; i < expected->count; ++i) {
		if (!report->graded[i]) {
			continue;
		}
		const cliEntry* entry = cliRecordWalk_Entry(&walk, i);
		bool passed = !unreadable && entry == NULL;
		char* id = cliResult_IdText(expected->results + i);
		char* name = NULL;
		m = open_memstream(&name, &size);
		if (m != NULL) {
			fprintf(m, "id %s", id != NULL ? id : "");
			fclose(m);
		}
		free(id);
		fputs(n++ > 0 ? ",\n{\"name\":" : "\n{\"name\":", f);
		cliWriteJsonString(f, name != NULL ? name : "");
		free(name);
		fprintf(f, ",\"score\":%d,\"max_score\":1,\"output\":", passed ? 1 : 0);
		char* message = entry != NULL ? cliEntryText(r, entry) : NULL;
		cliWriteJsonString(f, passed ? "" : message != NULL ? message : unreadable ? "unreadable" : "");
		free(message);
		fputs(",\"visibility\":\"visible\"}", f);
	}
	fputs("]}\n", f);
}

static void writeFile(cliReport* report, const cliFileReport* r, const cliResultSet* actual)
{
	(void)actual;
	writeResults(report, r, false);
}

static void writeUnreadable(cliReport* report, const cliFileReport* r)
{
	writeResults(report, r, true);
}

const cliReportWriter cliGradescopeReport = { "gradescope", NULL, true, NULL, writeFile, writeUnreadable, NULL };
