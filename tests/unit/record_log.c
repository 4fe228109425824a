/* record_log.c - unit tests for the log of bad records (cli/record_log.c):
 * where each message places the record, the limit and the line counting
 * the rest, and -q. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "options.h"
#include "record_log.h"
#include "records.h"

/* A record whose problems the log reports (its fields do not matter). */
static cliRecord makeRecord(unsigned fields)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.fields = fields;
	return record;
}

START_TEST(recordLogLimit)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	options.maxErrorsGiven = true;
	options.maxErrors = 2;
	cliRecordLog log = cliRecordLog_Make("t.csv", &options, NULL);
	cliRecord record = makeRecord(cli_fieldRadius);
	record.index = 4;
	record.line = 6;
	record.column = 1;
	record.errorLine = 6;
	record.errorColumn = 9;
	strcpy(record.error, "x0: not a number");
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	cliRecordLog_Add(&log, &record, record.error);     /* its own error: at its place */
	cliRecordLog_Add(&log, &record, "missing p0");     /* another problem: where the record starts */
	cliRecordLog_AddAt(&log, 9, 12, 3, "hidden");
	cliRecordLog_AddAt(&log, 10, 13, 3, "hidden too");
	cliRecordLog_Finish(&log);
	ck_assert_str_eq(bcEndCapture(&capture), "ballcast: t.csv:6:9: record 5: x0: not a number\n"
											 "ballcast: t.csv:6:1: record 5: missing p0\n"
											 "ballcast: t.csv: 2 more bad records not shown (--max-errors N shows more)\n");

	/* the default limit, the singular, and nothing hidden: no last line */
	options.maxErrorsGiven = false;
	log = cliRecordLog_Make("t.csv", &options, NULL);
	ck_assert_int_eq(log.limit, CLI_DEFAULT_MAX_ERRORS);
	bcBeginCapture(&capture, stderr);
	for (int i = 0; i < CLI_DEFAULT_MAX_ERRORS; ++i) {
		cliRecordLog_AddAt(&log, i, i + 2, 1, "bad");
	}
	cliRecordLog_Finish(&log);
	cliRecordLog_AddAt(&log, 99, 101, 1, "bad");
	cliRecordLog_Finish(&log);
	const char* text = bcEndCapture(&capture);
	ck_assert_ptr_nonnull(strstr(text, "ballcast: t.csv:21:1: record 20: bad\n"));
	ck_assert_ptr_nonnull(strstr(text, "ballcast: t.csv: 1 more bad record not shown (--max-errors N shows more)\n"));
	ck_assert_ptr_null(strstr(text, "record 100"));

	/* -q: nothing at all */
	options.quiet = true;
	log = cliRecordLog_Make("t.csv", &options, NULL);
	bcBeginCapture(&capture, stderr);
	cliRecordLog_AddAt(&log, 0, 1, 1, "bad");
	cliRecordLog_Finish(&log);
	ck_assert_str_eq(bcEndCapture(&capture), "");
}
END_TEST

static Suite* recordLogSuite(void)
{
	Suite* suite = suite_create("record_log");

	TCase* records = tcase_create("records");
	tcase_add_test(records, recordLogLimit);
	suite_add_tcase(suite, records);

	return suite;
}

int main(void)
{
	return bcRunSuite(recordLogSuite());
}
