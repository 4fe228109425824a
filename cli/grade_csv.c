/* grade_csv.c - the CSV report (cliCsvReport, grade_report.h): the score
 * table, one row per file: file,records,passed,failed,missing,extra,
 * score,diagnosis (or why the file cannot be read),review (why a teacher
 * should look at how the file was read, or empty). */
#include "grade_report.h"
#include "output.h"

static void writeEnd(cliReport* report, const cliFileScore* scores, int count)
{
	FILE* f = report->out;
	fputs("file,records,passed,failed,missing,extra,score,diagnosis,review\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		cliWriteCsvField(f, s->name);
		fprintf(f, ",%ld,%ld,%ld,%ld,%ld,", s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		putc(',', f);
		cliWriteCsvField(f, s->diagnosis != NULL ? s->diagnosis : "");
		putc(',', f);
		cliWriteCsvField(f, s->review != NULL ? s->review : "");
		putc('\n', f);
	}
}

const cliReportWriter cliCsvReport = { "csv", ".csv ", false, NULL, NULL, NULL, writeEnd };
