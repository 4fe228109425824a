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
	ck_assert(cliMistake_IsWritten(cli_mistakeNormalNegated));
	ck_assert(cliMistake_IsWritten(cli_mistakeTriangleNormal));
	ck_assert(cliMistake_IsWritten(cli_mistakeOneBased));
	ck_assert(!cliMistake_IsWritten(cli_mistakeSwappedEndpoints));
	ck_assert(!cliMistake_IsWritten(cli_mistakeBeyondPath));
	ck_assert(!cliMistake_IsWritten(cli_mistakeLargerRoot));
}
END_TEST

/* Grade one submission (NDJSON text) against expected text as cfg says
 * (NULL: the default, hit, alpha, normal); the CSV row. */
static char* gradeRowWith(const char* expectedText, const char* submission, const cliGradeConfig* with);

static char* gradeRow(const char* expectedText, const char* submission)
{
	return gradeRowWith(expectedText, submission, NULL);
}

static char* gradeRowWith(const char* expectedText, const char* submission, const cliGradeConfig* with)
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
	if (with != NULL) {
		cfg = *with;
	}
	cfg.report = cliReportWriter_FromName("csv");
	cfg.outputPath = report;
	char* paths[] = { path };
	cliGradeSubmissions(&cfg, "e.ndjson", &expected, paths, 1);
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
	ck_assert_msg(strstr(row, ",3,1,2,0,0,0.3333333333333333,normal-negated (2 of 2 failing),\n") != NULL, "%s", row);
	free(row);
	/* the triangle normal: record 2 (a face contact) passes, so it does not
	 * contradict; record 1 is explained */
	row = gradeRow(expected, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"normal\":[0,0,1]}\n"
							 "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"normal\":[0,0,1]}\n"
							 "{\"id\":3,\"hit\":false,\"alpha\":1}\n");
	ck_assert_msg(strstr(row, ",3,2,1,0,0,0.6666666666666666,triangle-normal-vs-contact-normal (1 of 1 failing),\n") !=
					  NULL,
				  "%s", row);
	free(row);
}
END_TEST

/* Two written mistakes at once compound (each on the answer the other
 * left): neither explains a record alone, the pair all of them. It failed
 * before: the second was replayed on EXPECTED's answer, undoing the first
 * (issue 26, item 20). */
START_TEST(writtenPair)
{
	const char* expected = "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"normal\":[0,0.6,0.8]}\n"
						   "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"triangle\":0,\"normal\":[0,0,1]}\n"
						   "{\"id\":3,\"hit\":false,\"alpha\":1}\n";
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = cli_resultHit | cli_resultAlpha | cli_resultNormal | cli_resultTriangle;
	char* row = gradeRowWith(expected,
							 "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":4,\"normal\":[0,1.2,1.6]}\n"
							 "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"triangle\":1,\"normal\":[0,0,0.5]}\n"
							 "{\"id\":3,\"hit\":false,\"alpha\":1}\n",
							 &cfg);
	ck_assert_msg(strstr(row, ",\"normal-not-normalised + one-based-triangles (2 of 2 failing, together)\",\n") != NULL,
				  "%s", row);
	free(row);
}
END_TEST

/* The reverses: triangles from 0 where --one-based asks from 1; the
 * average normal where the contact normal is asked for. */
START_TEST(reverses)
{
	const char* expected = "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"normal\":[0,0.6,0.8]}\n"
						   "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"triangle\":5,\"normal\":[0,0,1]}\n";
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = cli_resultHit | cli_resultAlpha | cli_resultTriangle;
	cfg.oneBased = true;
	char* row = gradeRowWith(expected,
							 "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":3}\n"
							 "{\"id\":2,\"hit\":true,\"alpha\":0.25,\"triangle\":5}\n",
							 &cfg);
	ck_assert_msg(strstr(row, ",zero-based-triangles (2 of 2 failing),\n") != NULL, "%s", row);
	free(row);
	/* an edge shared by triangles 3 (normal y) and 4 (normal z): their average */
	const char* edge = "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"feature\":\"edge\","
					   "\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,1,0],\"ties\":["
					   "{\"triangle\":3,\"feature\":\"edge\",\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,1,0]},"
					   "{\"triangle\":4,\"feature\":\"edge\",\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,0,1]}]}\n";
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	cfg.normalConvention = cli_normalsContact;
	row = gradeRowWith(edge, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.7071067811865475,0.7071067811865475]}\n",
					   &cfg);
	ck_assert_msg(strstr(row, ",average-normal-vs-contact-normal (1 of 1 failing),\n") != NULL, "%s", row);
	free(row);
	ck_assert_str_eq(cliMistakeNames[cli_mistakeOverlapReported], "initial-overlap-reported");
	ck_assert_str_eq(cliMistakeNames[cli_mistakeDiameterAsRadius], "diameter-as-radius");
	ck_assert(cliMistake_IsWritten(cli_mistakeZeroBased));
	ck_assert(!cliMistake_IsWritten(cli_mistakeBackFacesMissed));
}
END_TEST

static Suite* gradeMistakesSuite(void)
{
	Suite* suite = suite_create("grade_mistakes");
	TCase* c = tcase_create("catalogue");
	tcase_add_test(c, names);
	tcase_add_test(c, writtenMistakes);
	tcase_add_test(c, writtenPair);
	tcase_add_test(c, reverses);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeMistakesSuite());
}
