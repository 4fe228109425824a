/* grade_mistakes.c - unit tests for the catalogue of mistakes
 * (cli/grade.h, cli/grade_mistakes.c): every mistake has a distinct name
 * (an interface), and those that change only how an answer is written are
 * the ones the engine replays itself: a negated normal and a triangle
 * normal are named with no cast at hand (compare), on the answer as
 * written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "harness.h"

START_TEST(names)
{
	for (int m = 0; m < cli_mistakeCount; ++m) {
		ck_assert_ptr_nonnull(cliMistakeNames[m]);
		for (int k = 0; k < m; ++k) {
			ck_assert_str_ne(cliMistakeNames[m], cliMistakeNames[k]);
		}
	}
	ck_assert_str_eq(cliMistakeNames[cli_mistakeSwappedEndpoints], "swapped-endpoints");
	ck_assert_str_eq(cliMistakeNames[cli_mistakeNormalNegated], "normal-negated");
	ck_assert_str_eq(cliMistakeNames[cli_mistakeBeyondPath], "hits-beyond-path");
	ck_assert_str_eq(cliMistakeNames[cli_mistakeContactNormal], "contact-normal-vs-triangle-normal");
	ck_assert(cliMistakeIsWritten(cli_mistakeNormalNegated));
	ck_assert(cliMistakeIsWritten(cli_mistakeTriangleNormal));
	ck_assert(cliMistakeIsWritten(cli_mistakeOneBased));
	ck_assert(!cliMistakeIsWritten(cli_mistakeSwappedEndpoints));
	ck_assert(!cliMistakeIsWritten(cli_mistakeBeyondPath));
	ck_assert(!cliMistakeIsWritten(cli_mistakeLargerRoot));
}
END_TEST

/* Grade one submission (NDJSON text) against expected text; the CSV row. */
static char* gradeRow(const char* expectedText, const char* submission)
{
	cliResultSet expected;
	bcError error;
	ck_assert(cliParseResults(expectedText, strlen(expectedText), &expected, &error));
	char dir[] = "/tmp/bcmistakeXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64], report[64];
	snprintf(path, sizeof path, "%s/s.ndjson", dir);
	snprintf(report, sizeof report, "%s/r.csv", dir);
	FILE* f = fopen(path, "w");
	fputs(submission, f);
	fclose(f);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	cfg.report = cliReportNamed("csv");
	cfg.outputPath = report;
	char* paths[] = { path };
	cliGrade_Run(&cfg, "e.ndjson", &expected, paths, 1);
	f = fopen(report, "r");
	char* text = calloc(1, 4096);
	size_t n = fread(text, 1, 4095, f);
	text[n] = '\0';
	fclose(f);
	remove(path);
	remove(report);
	rmdir(dir);
	cliResultSet_Free(&expected);
	return text;
}

START_TEST(writtenMistakes)
{
	const char* expected = "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,0,1]}\n"
						   "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"normal\":[0,0,1],\"triangle_normal\":[0,0,1]}\n"
						   "{\"id\":3,\"hit\":false,\"alpha\":1}\n";
	char* row = gradeRow(expected, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"normal\":[0,-0.6,-0.8]}\n"
								   "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"normal\":[0,0,-1]}\n"
								   "{\"id\":3,\"hit\":false,\"alpha\":1}\n");
	ck_assert_msg(strstr(row, ",3,1,2,0,0,0.3333333333333333,normal-negated (2 of 2 failing)\n") != NULL, "%s", row);
	free(row);
	/* the triangle normal: record 2 (a face contact) passes, so it does not
	 * contradict; record 1 is explained */
	row = gradeRow(expected, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"normal\":[0,0,1]}\n"
							 "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"normal\":[0,0,1]}\n"
							 "{\"id\":3,\"hit\":false,\"alpha\":1}\n");
	ck_assert_msg(strstr(row, ",3,2,1,0,0,0.6666666666666666,triangle-normal-vs-contact-normal (1 of 1 failing)\n") !=
					  NULL,
				  "%s", row);
	free(row);
}
END_TEST

static Suite* gradeMistakesSuite(void)
{
	Suite* suite = suite_create("grade_mistakes");
	TCase* c = tcase_create("catalogue");
	tcase_add_test(c, names);
	tcase_add_test(c, writtenMistakes);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeMistakesSuite());
}
