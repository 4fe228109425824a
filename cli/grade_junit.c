/* grade_junit.c - the JUnit XML report (cliJunitReport, grade_report.h):
 * a testsuite per file, a testcase per id of EXPECTED (a failure with its
 * message when it fails or is missing), the extra ids as one more failing
 * testcase, an unreadable file as one testcase in error. */
#include <stdlib.h>

#include "grade_report.h"
#include "output.h"
#include "svg.h"

static void writeFile(cliReport* report, const cliFileReport* r, const cliResultSet* actual)
{
	FILE* f = report->parts;
	const cliResultSet* expected = report->expected;
	fputs("<testsuite name=\"", f);
	cliWriteXmlText(f, r->score.name);
	long extra = r->score.extra > 0 ? 1 : 0; /* one testcase for the extra ids */
	fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"0\">\n", report->ids + extra,
			r->score.failed + r->score.missing + extra);
	if (r->score.diagnosis != NULL || r->noteCount > 0 || r->score.review != NULL) {
		fputs("<properties>", f);
		if (r->score.review != NULL) {
			fputs("<property name=\"review\" value=\"", f);
			cliWriteXmlText(f, r->score.review);
			fputs("\"/>", f);
		}
		if (r->score.diagnosis != NULL) {
			fputs("<property name=\"diagnosis\" value=\"", f);
			cliWriteXmlText(f, r->score.diagnosis);
			fputs("\"/>", f);
		}
		if (r->noteCount > 0) {
			char* note = cliNotesText(r);
			fputs("<property name=\"note\" value=\"", f);
			cliWriteXmlText(f, note != NULL ? note : "");
			fputs("\"/>", f);
			free(note);
		}
		fputs("</properties>\n", f);
	}
	cliRecordWalk walk = { r, 0 };
	for (long i = 0; i < expected->count; ++i) {
		if (!report->graded[i]) {
			continue;
		}
		char* id = cliResult_IdText(expected->results + i);
		fputs("<testcase classname=\"", f);
		cliWriteXmlText(f, r->score.name);
		fputs("\" name=\"id ", f);
		cliWriteXmlText(f, id != NULL ? id : "");
		free(id);
		const cliEntry* entry = cliRecordWalk_Entry(&walk, i);
		if (entry == NULL) {
			fputs("\"/>\n", f);
			continue;
		}
		char* message = cliEntryText(r, entry);
		fputs("\"><failure type=\"", f);
		fputs(entry->failure ? "differs" : "missing", f);
		fputs("\" message=\"", f);
		cliWriteXmlText(f, message != NULL ? message : "");
		fputs("\"/></testcase>\n", f);
		free(message);
	}
	if (r->score.extra > 0) {
		/* the extra ids, as the JSON list has them */
		fputs("<testcase classname=\"", f);
		cliWriteXmlText(f, r->score.name);
		fputs("\" name=\"extra ids\"><failure type=\"extra\" message=\"ids EXPECTED does not have: ", f);
		char* ids = NULL;
		size_t size = 0;
		FILE* m = open_memstream(&ids, &size);
		if (m != NULL) {
			for (long k = 0; k < r->extraCount; ++k) {
				if (k > 0) {
					putc(',', m);
				}
				cliWriteResultIdJson(m, actual->results + r->extras[k]);
			}
			fclose(m);
		}
		cliWriteXmlText(f, ids != NULL ? ids : "");
		free(ids);
		fputs("\"/></testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
}

static void writeUnreadable(cliReport* report, const cliFileReport* r)
{
	FILE* f = report->parts;
	const char* name = r->score.name;
	fputs("<testsuite name=\"", f);
	cliWriteXmlText(f, name);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"1\">\n<testcase classname=\"", f);
	cliWriteXmlText(f, name);
	fputs("\" name=\"read\"><error type=\"unreadable\" message=\"", f);
	cliWriteXmlText(f, r->score.diagnosis != NULL ? r->score.diagnosis : "unreadable");
	fputs("\"/></testcase>\n</testsuite>\n", f);
}

static void writeEnd(cliReport* report, const cliFileScore* scores, int count)
{
	FILE* f = report->out;
	long tests = 0;
	long failures = 0;
	long errors = 0;
	for (int k = 0; k < count; ++k) {
		const cliFileScore* s = scores + k;
		long extra = s->extra > 0 ? 1 : 0;
		tests += s->unreadable ? 1 : s->passed + s->failed + s->missing + extra;
		failures += s->unreadable ? 0 : s->failed + s->missing + extra;
		errors += s->unreadable ? 1 : 0;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	cliWriteXmlText(f, report->title);
	fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\">\n", tests, failures, errors);
	fwrite(report->partsText, 1, report->partsSize, f);
	fputs("</testsuites>\n", f);
}

const cliReportWriter cliJunitReport = { "junit", NULL, false, NULL, writeFile, writeUnreadable, writeEnd };
