/* grade_junit.c - unit tests for the JUnit XML report (cli/grade_junit.c,
 * cliJunitReport): a testsuite per file with a testcase per id of
 * EXPECTED, failures with their messages, the extra ids as one more
 * failing testcase, an unreadable file as a testcase in error, the
 * document's totals. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_report.h"
#include "harness.h"

/* b failed, c missing, a passed; the submission has an extra id "z". */
START_TEST(suitesAndDocument)
{
	const char* expectedText = "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5}\n{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n"
							   "{\"id\":\"c\",\"hit\":false,\"alpha\":1}\n";
	const char* actualText = "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5}\n{\"id\":\"b\",\"hit\":true,\"alpha\":0.25}\n"
							 "{\"id\":\"z\",\"hit\":false,\"alpha\":1}\n";
	cliResultSet expected;
	cliResultSet actual;
	bcError error;
	ck_assert(cliParseResults(expectedText, strlen(expectedText), &expected, &error));
	ck_assert(cliParseResults(actualText, strlen(actualText), &actual, &error));
	bool graded[3] = { true, true, true };
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	char* parts = NULL;
	size_t partsSize = 0;
	cliReport report = { .cfg = &cfg, .title = "Grades against e<1>.json", .expectedName = "e<1>.json",
						 .expected = &expected, .graded = graded, .ids = 3 };
	report.parts = open_memstream(&parts, &partsSize);
	cliFileReport r;
	ck_assert(cliFileReport_Open(&r, "s<1>.json"));
	r.score.passed = 1;
	cliDiffs d = { NULL, 0, 0, false };
	cliDiff alpha = { .reason = cli_diffValue, .field = "alpha", .measure = "diff", .unit = "" };
	alpha.actual = (cliValue){ .kind = cli_valueNumber, .number = 0.25 };
	alpha.expected = (cliValue){ .kind = cli_valueNumber, .number = 1.0 };
	alpha.difference = 0.75;
	alpha.tolerance = 1e-9;
	cliDiffs_Add(&d, &alpha);
	ck_assert_ptr_nonnull(cliFileReport_AddFailure(&r, 1, 1, &d));
	ck_assert_ptr_nonnull(cliFileReport_AddMissing(&r, 2));
	ck_assert(cliFileReport_AddExtra(&r, 2));
	cliJunitReport.file(&report, &r, &actual);
	report.files += 1;
	cliFileReport unreadable;
	ck_assert(cliFileReport_Open(&unreadable, "t.csv"));
	unreadable.score.unreadable = true;
	unreadable.score.missing = 3;
	unreadable.score.diagnosis = strdup("empty file");
	cliJunitReport.unreadable(&report, &unreadable);
	fclose(report.parts);
	report.parts = NULL;
	report.partsText = parts;
	report.partsSize = partsSize;
	char* xml = NULL;
	size_t size = 0;
	report.out = open_memstream(&xml, &size);
	cliFileScore scores[2] = { r.score, unreadable.score };
	cliJunitReport.end(&report, scores, 2);
	fclose(report.out);
	ck_assert_str_eq(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
						  "<testsuites name=\"Grades against e&lt;1&gt;.json\" tests=\"5\" failures=\"3\" errors=\"1\">\n"
						  "<testsuite name=\"s&lt;1&gt;.json\" tests=\"4\" failures=\"3\" errors=\"0\">\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id a\"/>\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id b\"><failure type=\"differs\" "
						  "message=\"alpha 0.25 vs expected 1 (diff 0.75 &gt; tol 1e-09)\"/></testcase>\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id c\"><failure type=\"missing\" "
						  "message=\"missing\"/></testcase>\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"extra ids\"><failure type=\"extra\" "
						  "message=\"ids EXPECTED does not have: &quot;z&quot;\"/></testcase>\n"
						  "</testsuite>\n"
						  "<testsuite name=\"t.csv\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
						  "<testcase classname=\"t.csv\" name=\"read\"><error type=\"unreadable\" "
						  "message=\"empty file\"/></testcase>\n</testsuite>\n"
						  "</testsuites>\n");
	free(xml);
	free(parts);
	cliFileReport_Free(&r);
	cliFileReport_Free(&unreadable);
	cliFileScore_Free(scores);
	cliFileScore_Free(scores + 1);
	cliResultSet_Free(&actual);
	cliResultSet_Free(&expected);
}
END_TEST

static Suite* gradeJunitSuite(void)
{
	Suite* suite = suite_create("grade_junit");
	TCase* c = tcase_create("junit");
	tcase_add_test(c, suitesAndDocument);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeJunitSuite());
}
