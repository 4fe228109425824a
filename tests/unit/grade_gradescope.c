/* grade_gradescope.c - unit tests for Gradescope's results.json
 * (cli/grade_gradescope.c, cliGradescopeReport): the score of the records
 * passed out of EXPECTED's ids, the counts and notes as output, a test per
 * id with what differs; an unreadable file scores 0 on every test. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_report.h"
#include "harness.h"

START_TEST(resultsJson)
{
	const char* expectedText = "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5}\n{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n"
							   "{\"id\":\"c\",\"hit\":false,\"alpha\":1}\n";
	cliResultSet expected;
	bcError error;
	ck_assert(cliParseResults(expectedText, strlen(expectedText), &expected, &error));
	bool graded[3] = { true, true, true };
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	char* json = NULL;
	size_t size = 0;
	cliReport report = { .cfg = &cfg, .title = "Grades against e.json", .expectedName = "e.json",
						 .expected = &expected, .graded = graded, .ids = 3 };
	report.out = open_memstream(&json, &size);
	/* b failed, c missing, a passed */
	cliFileReport r;
	ck_assert(cliFileReport_Open(&r, "s.json"));
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
	ck_assert(cliFileReport_AddNote(&r, "read as CSV"));
	cliGradescopeReport.file(&report, &r, NULL);
	fclose(report.out);
	ck_assert_str_eq(json, "{\"score\":1,\"max_score\":3,\"output\":\"1 passed, 1 failed, 1 missing, 0 extra\\n"
						   "note: read as CSV\",\"visibility\":\"visible\",\"tests\":[\n"
						   "{\"name\":\"id a\",\"score\":1,\"max_score\":1,\"output\":\"\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id b\",\"score\":0,\"max_score\":1,\"output\":\"alpha 0.25 vs expected 1 (diff 0.75 > "
						   "tol 1e-09)\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id c\",\"score\":0,\"max_score\":1,\"output\":\"missing\",\"visibility\":\"visible\"}]}\n");
	free(json);
	/* unreadable: 0 of 3, every test says so */
	cliFileReport u;
	ck_assert(cliFileReport_Open(&u, "t.csv"));
	u.score.unreadable = true;
	u.score.diagnosis = strdup("empty file");
	report.out = open_memstream(&json, &size);
	cliGradescopeReport.unreadable(&report, &u);
	fclose(report.out);
	ck_assert_str_eq(json, "{\"score\":0,\"max_score\":3,\"output\":\"empty file\",\"visibility\":\"visible\",\"tests\":[\n"
						   "{\"name\":\"id a\",\"score\":0,\"max_score\":1,\"output\":\"unreadable\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id b\",\"score\":0,\"max_score\":1,\"output\":\"unreadable\",\"visibility\":\"visible\"},\n"
						   "{\"name\":\"id c\",\"score\":0,\"max_score\":1,\"output\":\"unreadable\",\"visibility\":\"visible\"}]}\n");
	free(json);
	ck_assert(cliGradescopeReport.oneFile);
	cliFileReport_Free(&u);
	cliFileScore_Free(&u.score);
	cliFileReport_Free(&r);
	cliFileScore_Free(&r.score);
	cliResultSet_Free(&expected);
}
END_TEST

static Suite* gradeGradescopeSuite(void)
{
	Suite* suite = suite_create("grade_gradescope");
	TCase* c = tcase_create("gradescope");
	tcase_add_test(c, resultsJson);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeGradescopeSuite());
}
