/* results_table.c - unit tests for results read the tolerant way, from a
 * table (cli/results_table.c): the shapes issue 27 saw a class hand in,
 * each read to the same answers; a miss's other fields (NA, None, nan)
 * never wrong; the reading said in words and as JSON; a file no column of
 * which is a field refused with what was seen; rows past the sample. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "results_read.h"

#define GRADED (cli_resultHit | cli_resultAlpha | cli_resultNormal | cli_resultTriangle | cli_resultFeature)

/* Read text as grade reads a submission (values told, a mesh of 50
 * triangles). */
static cliResultSet readSubmission(const char* text)
{
	FILE* f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	rewind(f);
	cliResultsReadOptions options = { true, GRADED, NULL, 0 };
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliReadSubmission(f, &options, 50, &set, &error), "%s\n%ld:%ld: %s", text, error.line, error.column,
				  error.message);
	fclose(f);
	return set;
}

/* The answers every shape below holds: a hit (alpha 0.25, normal up,
 * triangle 7, a face) and a miss. */
static void assertAnswers(const cliResultSet* set, const char* text)
{
	ck_assert_msg(set->count == 2, "%s: %ld results", text, set->count);
	ck_assert_msg(set->problems == 0, "%s: %s", text, set->results[0].problem != NULL ? set->results[0].problem
																						 : set->results[1].problem);
	const cliResult* hit = set->results;
	const cliResult* miss = set->results + 1;
	ck_assert_msg((hit->fields & cli_resultHit) && hit->hit, "%s: no hit", text);
	ck_assert_msg((hit->fields & cli_resultAlpha) && hit->alpha == 0.25, "%s: alpha %g", text, hit->alpha);
	ck_assert_msg((hit->fields & cli_resultNormal) && hit->normal.z == 1.0, "%s: normal", text);
	ck_assert_msg((hit->fields & cli_resultTriangle) && hit->triangle == 7, "%s: triangle %d", text, hit->triangle);
	ck_assert_msg((hit->fields & cli_resultFeature) && hit->feature == bc_featureFace, "%s: feature", text);
	ck_assert_msg((miss->fields & cli_resultHit) && !miss->hit, "%s: the miss", text);
	ck_assert_msg(!(miss->fields & (cli_resultNormal | cli_resultTriangle | cli_resultFeature)), "%s: fields %x",
				  text, miss->fields);
	ck_assert_msg(set->reading.note != NULL, "%s: no note", text);
}

START_TEST(issueShapes)
{
	const char* files[] = {
		/* R's write.csv */
		"\"\",\"id\",\"hit\",\"alpha\",\"nx\",\"ny\",\"nz\",\"tri\",\"feature\"\n"
		"\"1\",\"a\",TRUE,0.25,0,0,1,7,\"face\"\n\"2\",\"b\",FALSE,NA,NA,NA,NA,NA,NA\n",
		/* pandas' default to_json */
		"{\"id\":{\"0\":\"a\",\"1\":\"b\"},\"hit\":{\"0\":true,\"1\":false},\"alpha\":{\"0\":0.25,\"1\":1.0},"
		"\"normal\":{\"0\":[0.0,0.0,1.0],\"1\":null},\"triangle\":{\"0\":7,\"1\":null},\"feature\":{\"0\":\"face\","
		"\"1\":null}}",
		/* NDJSON with a comma ending each line */
		"{\"id\": \"a\", \"hit\": true, \"t\": 0.25, \"n\": [0, 0, 1], \"tri\": 7, \"feature\": \"face\"},\n"
		"{\"id\": \"b\", \"hit\": false, \"t\": null},\n",
		/* printf's aligned columns, FACE in capitals */
		"  ID   HIT  ALPHA   NX   NY   NZ  TRI  FEATURE\n"
		"   a  yes   0.25    0    0    1    7     FACE\n"
		"   b   no   nan   nan  nan  nan   -1     NONE\n",
		/* the normal as one "[x, y, z]" cell */
		"id,hit,alpha,normal,triangle,feature\na,true,0.25,\"[0.0, 0.0, 1.0]\",7,face\nb,false,1,,,\n",
		/* an array of arrays, the first row the header */
		"[[\"id\", \"hit\", \"alpha\", \"normal\", \"tri\", \"feature\"], [\"a\", true, 0.25, [0, 0, 1], 7, \"f\"],"
		" [\"b\", false, 1, null, null, null]]",
		/* alpha as a percentage */
		"id,hit,alpha_pct,nx,ny,nz,tri,feature\na,true,25,0,0,1,7,face\nb,false,100,,,,,\n",
		/* no hit column: a miss is alpha -1; features f/e/v */
		"id,alpha,nx,ny,nz,tri,feature\na,0.25,0,0,1,7,f\nb,-1,None,None,None,None,None\n",
		/* no header at all */
		"a,true,0.25,0,0,1,7,face\nb,false,1,,,,,\n",
		/* the header names the normal's first column only; hits as words */
		"id,hit,alpha,normal,,,tri,feature\na,collision,0.25,0,0,1,7,face\nb,no collision,1,,,,,\n",
		/* ',' separates, the decimal commas quoted */
		"id,hit,alpha,normal,tri,feature\na,ja,\"0,25\",\"[0,0; 0,0; 1,0]\",7,Face\nb,nein,\"1,0\",,,\n",
		/* Python's print of a list of dicts */
		"[{'id': 'a', 'hit': True, 'alpha': 0.25, 'normal': (0.0, 0.0, 1.0), 'tri': 7, 'feature': 'FACE'},"
		" {'id': 'b', 'hit': False, 'alpha': nan, 'normal': None, 'tri': None, 'feature': None}]",
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliResultSet set = readSubmission(files[k]);
		assertAnswers(&set, files[k]);
		cliResultSet_Free(&set);
	}
}
END_TEST

START_TEST(theReading)
{
	cliResultSet set = readSubmission("a,true,0.25,0,0,1\nb,false,1,,,\n");
	ck_assert_str_eq(set.reading.note, "read as CSV separated by ','; columns: column 1 -> id (a value for each row, "
									   "all different), column 2 -> hit (all values booleans), column 3 -> alpha (all "
									   "values in [0, 1]), column 4, column 5, column 6 -> normal (with the next two: "
									   "vectors of length 1 in all 1 rows given)");
	ck_assert(!set.reading.plain);
	ck_assert(strstr(set.reading.json, "{\"column\":3,\"field\":\"alpha\",\"by\":\"values\",\"evidence\":\"all "
									   "values in [0, 1]\"}") != NULL);
	ck_assert(strstr(set.reading.json, "\"header\":false") != NULL);
	ck_assert(!set.reading.review);
	cliResultSet_Free(&set);
	/* cast's own shape is plain: nothing to say in words */
	set = readSubmission("id,hit,alpha\na,true,0.25\n");
	ck_assert(set.reading.plain);
	cliResultSet_Free(&set);
	/* two columns fit alpha: the reading says which, and flags the file */
	set = readSubmission("a,true,0.25,0.5\nb,false,1,0.75\n");
	ck_assert(set.reading.review);
	ck_assert_str_eq(set.reading.reviewWhy, "alpha: column 3 read, column 4 fits too");
	ck_assert(strstr(set.reading.json, "\"review\":true") != NULL);
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(refusedAndProblems)
{
	FILE* f = tmpfile();
	fputs("name;score\nbob;12\n", f);
	rewind(f);
	cliResultsReadOptions options = { true, GRADED, NULL, 0 };
	cliResultSet set;
	bcError error;
	ck_assert(!cliReadSubmission(f, &options, 0, &set, &error));
	fclose(f);
	ck_assert_str_eq(error.message, "not a results file: no known column in the CSV header 'name;score' (cells "
									"separated by ';'; expected id, hit, alpha, ...)");
	ck_assert_int_eq(error.line, 1);
	/* a hit's NaN is the problem it is, placed at its cell */
	set = readSubmission("id,hit,alpha\na,true,nan\nb,true,x1\n");
	ck_assert_str_eq(set.results[0].problem, "alpha: NaN is not a number");
	ck_assert_int_eq(set.results[0].problemColumn, 8);
	ck_assert_str_eq(set.results[1].problem, "alpha: expected a number, found 'x1'");
	cliResultSet_Free(&set);
}
END_TEST

START_TEST(pastTheSample)
{
	/* more rows than the sample: the rest stream, read the same */
	size_t size = 64 + 30000 * 40;
	char* text = malloc(size);
	size_t n = (size_t)snprintf(text, size, "id,hit,alpha\n");
	for (int i = 0; i < 30000; ++i) {
		n += (size_t)snprintf(text + n, size - n, "r%d,%s,%s\n", i, i % 3 == 0 ? "false" : "true",
							  i % 3 == 0 ? "nan" : "0.5");
	}
	cliResultSet set = readSubmission(text);
	free(text);
	ck_assert_int_eq(set.count, 30000);
	ck_assert_int_eq(set.problems, 0);
	ck_assert_str_eq(set.results[29999].id, "r29999");
	ck_assert(set.results[29999].hit);
	ck_assert(set.results[29999].alpha == 0.5);
	ck_assert(!set.results[29997].hit);
	ck_assert_int_eq(set.results[29999].line, 30001);
	cliResultSet_Free(&set);
}
END_TEST

static Suite* resultsTableSuite(void)
{
	Suite* suite = suite_create("results_table");
	TCase* tc = tcase_create("results_table");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, issueShapes);
	tcase_add_test(tc, theReading);
	tcase_add_test(tc, refusedAndProblems);
	tcase_add_test(tc, pastTheSample);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(resultsTableSuite());
}
