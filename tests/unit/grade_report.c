/* grade_report.c - unit tests for the reports of the grading engine
 * (cli/grade_report.h): scores rounded for reading, the text table, a
 * JUnit suite's testcases and Gradescope's fields for a file's report. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_file.h"
#include "grade_report.h"
#include "harness.h"

/* What a writer wrote (the caller frees it). */
#define CAPTURE(text, call)                                                                                            \
	do {                                                                                                               \
		size_t size_ = 0;                                                                                              \
		FILE* f = open_memstream(&(text), &size_);                                                                     \
		ck_assert_ptr_nonnull(f);                                                                                      \
		call;                                                                                                          \
		fclose(f);                                                                                                     \
	} while (0)

START_TEST(roundedScores)
{
	static const struct {
		double score;
		const char* text;
	} cases[] = { { 1.0, "1" }, { 0.0, "0" }, { 12.0 / 13.0, "0.923" }, { 0.5, "0.5" }, { 0.99971, "0.999" },
				  { 0.0012345, "0.00123" } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* text = NULL;
		CAPTURE(text, cliWriteRoundedScore(f, cases[k].score));
		ck_assert_str_eq(text, cases[k].text);
		free(text);
	}
}
END_TEST

START_TEST(junitAndGradescope)
{
	const char* expectedText = "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5}\n{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n"
							   "{\"id\":\"c\",\"hit\":false,\"alpha\":1}\n";
	cliResultSet expected;
	bcError error;
	ck_assert(cliParseResults(expectedText, strlen(expectedText), &expected, &error));
	long first[3] = { 0, 1, 2 };
	/* b failed, c missing, a passed */
	cliFileReport r;
	ck_assert(cliFileReport_Open(&r, "s<1>.json"));
	ck_assert(cliFileReport_Finish(&r));
	r.score.passed = 1; /* the entries count their failures themselves */
	char* text = strdup("alpha 0.25 vs expected 1 (diff 0.75 > tol 1e-09)");
	ck_assert_ptr_nonnull(cliFileReport_AddEntry(&r, 1, 1, true, text, strdup("")));
	ck_assert_ptr_nonnull(cliFileReport_AddEntry(&r, 2, -1, false, NULL, NULL));
	char* xml = NULL;
	CAPTURE(xml, cliWriteJunitSuite(f, &r, &expected, first));
	ck_assert_str_eq(xml, "<testsuite name=\"s&lt;1&gt;.json\" tests=\"3\" failures=\"2\" errors=\"0\">\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id a\"/>\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id b\"><failure type=\"differs\" "
						  "message=\"alpha 0.25 vs expected 1 (diff 0.75 &gt; tol 1e-09)\"/></testcase>\n"
						  "<testcase classname=\"s&lt;1&gt;.json\" name=\"id c\"><failure type=\"missing\" "
						  "message=\"missing\"/></testcase>\n"
						  "</testsuite>\n");
	free(xml);
	char* json = NULL;
	CAPTURE(json, cliWriteGradescope(f, &r, &expected, first, NULL));
	ck_assert_str_eq(json, "{\"score\":1,\"max_score\":3,\"output\":\"1 passed, 1 failed, 1 missing, 0 extra\","
						   "\"visibility\":\"visible\",\"tests\":[\n"
						   "{\"name\":\"id a\",\"score\":1,\"max_score\":1,\"output\":\"\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id b\",\"score\":0,\"max_score\":1,\"output\":\"alpha 0.25 vs expected 1 (diff 0.75 > "
						   "tol 1e-09)\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id c\",\"score\":0,\"max_score\":1,\"output\":\"missing\",\"visibility\":\"visible\"}]}\n");
	free(json);
	cliFileReport_Free(&r);
	cliResultSet_Free(&expected);
}
END_TEST

static Suite* gradeReportSuite(void)
{
	Suite* suite = suite_create("grade_report");
	TCase* c = tcase_create("report");
	tcase_add_test(c, roundedScores);
	tcase_add_test(c, junitAndGradescope);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeReportSuite());
}
