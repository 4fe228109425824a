/* grade_judge.c - unit tests for judging one record (cli/grade_judge.h):
 * what differs comes back as plain data, one difference per field, with
 * its reason, values and measure, hand-checked: alpha beyond tolerance, a
 * graded field missing, a hit off the path, a normal not of unit length,
 * a contact no single tie allows, a record that could not be read, ties
 * that let a tied triangle pass. */
#include <check.h>
#include <string.h>

#include "grade_judge.h"
#include "harness.h"

static cliResultSet parse(const char* text)
{
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliParseResults(text, strlen(text), &set, &error), "%s", error.message);
	return set;
}

/* The differences of actual's first record against expected's first. */
static cliDiffs judge(const cliGradeConfig* cfg, const char* expectedText, const char* actualText)
{
	cliResultSet expected = parse(expectedText);
	cliResultSet actual = parse(actualText);
	cliComparer cmp = { cfg, NULL, NULL, 0 };
	cliDiffs d = { NULL, 0, 0, false };
	ck_assert(cliComparer_Record(&cmp, &d, expected.results, actual.results));
	free(cmp.candidates);
	cliResultSet_Free(&actual);
	cliResultSet_Free(&expected);
	return d;
}

static const char* const edgeHit =
	"{\"id\":1,\"hit\":true,\"alpha\":0.5,\"feature\":\"edge\",\"triangle\":3,\"vertices\":[1,2],"
	"\"normal\":[0,0.6,0.8],\"ties\":[{\"triangle\":3,\"feature\":\"edge\",\"vertices\":[1,2]},"
	"{\"triangle\":4,\"feature\":\"edge\",\"vertices\":[1,2]}]}\n";

START_TEST(valuesAndMeasures)
{
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE | cli_resultTriangle;
	/* alpha 0.625 vs 0.5: a difference of 0.125 against 1e-9; the
	 * triangle missing */
	cliDiffs d = judge(&cfg, edgeHit, "{\"id\":1,\"hit\":true,\"alpha\":0.625,\"normal\":[0,0.6,0.8]}\n");
	ck_assert_int_eq(d.count, 2);
	ck_assert_int_eq(d.items[0].reason, cli_diffValue);
	ck_assert_str_eq(d.items[0].field, "alpha");
	ck_assert_int_eq(d.items[0].actual.kind, cli_valueNumber);
	ck_assert(d.items[0].actual.number == 0.625 && d.items[0].expected.number == 0.5);
	ck_assert_str_eq(d.items[0].measure, "diff");
	ck_assert(d.items[0].difference == 0.125 && d.items[0].tolerance == 1e-9);
	ck_assert_str_eq(d.items[1].field, "triangle");
	ck_assert_int_eq(d.items[1].actual.kind, cli_valueAbsent);
	ck_assert_int_eq(d.items[1].expected.kind, cli_valueInt);
	ck_assert_int_eq(d.items[1].expected.integer, 3);
	cliDiffs_Free(&d);
	/* the tied triangle 4 passes; triangle 5 is no tie's */
	d = judge(&cfg, edgeHit, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":4,\"normal\":[0,0.6,0.8]}\n");
	ck_assert_int_eq(d.count, 0);
	cliDiffs_Free(&d);
	d = judge(&cfg, edgeHit, "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":5,\"normal\":[0,0.6,0.8]}\n");
	ck_assert_int_eq(d.count, 1);
	ck_assert_str_eq(d.items[0].field, "triangle");
	ck_assert_int_eq(d.items[0].actual.integer, 5);
	ck_assert_int_eq(d.items[0].expected.integer, 3);
	cliDiffs_Free(&d);
}
END_TEST

START_TEST(reasons)
{
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE | cli_resultTriangle | cli_resultFeature | cli_resultVertices;
	/* triangle 4 is a tie's, vertex [2] is triangle 3's feature at no tie:
	 * each field some tie's, the pair no one's */
	cliDiffs d = judge(&cfg, edgeHit,
					   "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":4,\"feature\":\"edge\",\"vertices\":[2,9],"
					   "\"normal\":[0,0.6,0.8]}\n");
	ck_assert_int_eq(d.count, 1);
	ck_assert_int_eq(d.items[0].reason, cli_diffValue);
	ck_assert_str_eq(d.items[0].field, "vertices");
	cliDiffs_Free(&d);
	const char* twoTies =
		"{\"id\":1,\"hit\":true,\"alpha\":0.5,\"feature\":\"edge\",\"triangle\":3,\"vertices\":[1,2],"
		"\"normal\":[0,0.6,0.8],\"ties\":[{\"triangle\":3,\"feature\":\"edge\",\"vertices\":[1,2]},"
		"{\"triangle\":4,\"feature\":\"vertex\",\"vertices\":[7]}]}\n";
	d = judge(&cfg, twoTies,
			  "{\"id\":1,\"hit\":true,\"alpha\":0.5,\"triangle\":4,\"feature\":\"edge\",\"vertices\":[1,2],"
			  "\"normal\":[0,0.6,0.8]}\n");
	ck_assert_int_eq(d.count, 1);
	ck_assert_int_eq(d.items[0].reason, cli_diffNotTied);
	ck_assert_str_eq(d.items[0].field, "contact");
	ck_assert_int_eq(d.items[0].ties, 2);
	ck_assert_int_eq(d.items[0].contact.triangle, 4);
	ck_assert_int_eq(d.items[0].contact.vertexCount, 2);
	cliDiffs_Free(&d);
	/* a hit at alpha 1.5: off the path; a normal of length 2 */
	cfg.fields = CLI_FIELDS_GRADE;
	d = judge(&cfg, edgeHit, "{\"id\":1,\"hit\":true,\"alpha\":1.5,\"normal\":[0,1.2,1.6]}\n");
	ck_assert_int_eq(d.count, 2);
	ck_assert_int_eq(d.items[0].reason, cli_diffOffPath);
	ck_assert(d.items[0].actual.number == 1.5 && d.items[0].expected.number == 0.5);
	ck_assert_int_eq(d.items[1].reason, cli_diffNotUnit);
	ck_assert(d.items[1].difference == 2.0);
	cliDiffs_Free(&d);
	/* a graded field that cannot be read: the reader's problem and place */
	d = judge(&cfg, edgeHit, "{\"id\":1,\"hit\":\"maybe\",\"alpha\":0.5}\n");
	ck_assert_int_eq(d.count, 1);
	ck_assert_int_eq(d.items[0].reason, cli_diffUnreadable);
	ck_assert_str_eq(d.items[0].field, "record");
	ck_assert_int_eq(d.items[0].line[0], 1);
	ck_assert_int_eq(d.items[0].column[0], 15); /* the value "maybe" */
	cliDiffs_Free(&d);
}
END_TEST

static Suite* gradeJudgeSuite(void)
{
	Suite* suite = suite_create("grade_judge");
	TCase* c = tcase_create("judge");
	tcase_add_test(c, valuesAndMeasures);
	tcase_add_test(c, reasons);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeJudgeSuite());
}
