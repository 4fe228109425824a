/* grade_index.c - unit tests for the id index of the grading engine
 * (cli/grade_index.h): ids found across two sets by their key (3, 3.0 and
 * "3" are one id), the first of a repeated id and its second occurrence;
 * records matched as a teacher matches them: exact ids, the numbers in the
 * ids, position, or nothing, with the reason in one line. */
#include <check.h>
#include <string.h>

#include "grade_index.h"
#include "harness.h"
#include "results_read.h"

static cliResultSet parse(const char* text)
{
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliParseResults(text, strlen(text), &set, &error), "%s", error.message);
	return set;
}

START_TEST(findsAcrossSets)
{
	cliResultSet a = parse("{\"id\":3,\"hit\":false}\n{\"id\":\"x\",\"hit\":false}\n{\"id\":3.0,\"hit\":true}\n"
						   "{\"id\":\"y\",\"hit\":false}\n");
	cliResultSet b = parse("{\"id\":\"y\",\"hit\":false}\n{\"id\":\"3\",\"hit\":false}\n{\"id\":\"z\",\"hit\":false}\n");
	cliIdIndex ia;
	cliIdIndex ib;
	ck_assert(cliIdIndex_Build(&ia, &a));
	ck_assert(cliIdIndex_Build(&ib, &b));
	/* 3.0 repeats 3: the first is result 0, its second occurrence 2 */
	ck_assert_int_eq(ia.first[0], 0);
	ck_assert_int_eq(ia.first[2], 0);
	ck_assert_int_eq(ia.duplicate[0], 2);
	ck_assert_int_eq(ia.duplicate[1], -1);
	/* b's "3" is a's 3; "y" is a's result 3; "z" is not in a */
	ck_assert_int_eq(cliIdIndex_Find(&ia, &ib, 1), 0);
	ck_assert_int_eq(cliIdIndex_Find(&ia, &ib, 0), 3);
	ck_assert_int_eq(cliIdIndex_Find(&ia, &ib, 2), -1);
	ck_assert_int_eq(cliIdIndex_Find(&ib, &ia, 1), -1);
	cliIdIndex_Destroy(&ib, b.count);
	cliIdIndex_Destroy(&ia, a.count);
	cliResultSet_Free(&b);
	cliResultSet_Free(&a);
}
END_TEST

START_TEST(manyIds)
{
	/* past the first capacity: every id found where it is */
	char text[64 * 1000];
	size_t used = 0;
	for (int i = 0; i < 1000; ++i) {
		used += (size_t)snprintf(text + used, sizeof text - used, "{\"id\":\"t%d\",\"hit\":false}\n", i);
	}
	cliResultSet set = parse(text);
	cliIdIndex index;
	ck_assert(cliIdIndex_Build(&index, &set));
	for (long i = 0; i < set.count; ++i) {
		ck_assert_int_eq(index.first[i], i);
		ck_assert_int_eq(cliIdIndex_Find(&index, &index, i), i);
	}
	cliIdIndex_Destroy(&index, set.count);
	cliResultSet_Free(&set);
}
END_TEST

/* The throws' ids, one per line of NDJSON. */
static cliResultSet idsOf(const char* const* ids, int n, bool quoted)
{
	char text[4096];
	size_t used = 0;
	for (int i = 0; i < n; ++i) {
		used += (size_t)snprintf(text + used, sizeof text - used, quoted ? "{\"id\":\"%s\",\"hit\":false}\n"
																		: "{\"id\":%s,\"hit\":false}\n",
								 ids[i]);
	}
	return parse(text);
}

/* Decide how actual matches expected: the way, and which expected record
 * actual's record j answers (-1: none). */
static cliIdMatching decide(const cliResultSet* expected, const cliResultSet* actual, cliIdMatch* match)
{
	cliIdIndex index;
	ck_assert(cliIdIndex_Build(&index, expected));
	ck_assert(cliIdMatch_Decide(match, expected, &index, expected->count, actual));
	cliIdIndex_Destroy(&index, expected->count);
	return match->how;
}

/* Result j of the matched set answers expected's id. */
static void assertAnswers(const cliIdMatch* match, long j, const char* id)
{
	ck_assert_ptr_nonnull(match->results);
	ck_assert_str_eq(match->results[j].id, id);
}

START_TEST(matchedAsATeacherWould)
{
	const char* throws[] = { "0007", "0008", "0009" };
	cliResultSet expected = idsOf(throws, 3, true);
	cliIdMatch match;
	/* exact */
	cliResultSet same = idsOf(throws, 3, true);
	ck_assert_int_eq(decide(&expected, &same, &match), cli_matchExact);
	ck_assert_str_eq(match.note, "");
	ck_assert(!match.review);
	cliIdMatch_Free(&match);
	/* 7 = "0007" = 7.0, in any order */
	const char* numbers[] = { "9", "7.0", "8" };
	cliResultSet numeric = idsOf(numbers, 3, false);
	ck_assert_int_eq(decide(&expected, &numeric, &match), cli_matchNumeric);
	assertAnswers(&match, 0, "0009");
	assertAnswers(&match, 1, "0007");
	ck_assert(strstr(match.note, "ids matched by the numbers they spell") != NULL);
	cliIdMatch_Free(&match);
	/* a shared prefix: t7 is t0007 */
	const char* prefixed[] = { "t0007", "t0008", "t0009" };
	cliResultSet tExpected = idsOf(prefixed, 3, true);
	const char* shortIds[] = { "t8", "t9", "t7" };
	cliResultSet tActual = idsOf(shortIds, 3, true);
	ck_assert_int_eq(decide(&tExpected, &tActual, &match), cli_matchNumeric);
	assertAnswers(&match, 0, "t0008");
	cliIdMatch_Free(&match);
	/* ids 1, 2, 3 count the rows where the throws are t0007 ...: position */
	const char* rows[] = { "1", "2", "3" };
	cliResultSet counted = idsOf(rows, 3, false);
	ck_assert_int_eq(decide(&tExpected, &counted, &match), cli_matchPosition);
	assertAnswers(&match, 0, "t0007");
	assertAnswers(&match, 2, "t0009");
	ck_assert_str_eq(match.note, "ids '1', '2', ... count the rows from 1, the trajectories' are 't0007', "
								 "'t0008', ...: records matched by position");
	cliIdMatch_Free(&match);
	/* no id matches, the counts agree: position, flagged */
	const char* other[] = { "x", "y", "z" };
	cliResultSet names = idsOf(other, 3, true);
	ck_assert_int_eq(decide(&expected, &names, &match), cli_matchPosition);
	ck_assert(match.review);
	cliIdMatch_Free(&match);
	/* ... and when they do not: nothing, said once */
	cliResultSet two = idsOf(other, 2, true);
	ck_assert_int_eq(decide(&expected, &two, &match), cli_matchNone);
	ck_assert_str_eq(match.note, "no id matches the trajectories' ('x', 'y' against '0007', '0008', ...), and 2 "
								 "records for 3: nothing matched");
	ck_assert_ptr_null(match.results);
	cliIdMatch_Free(&match);
	/* one id of many matching exactly: by id (the rest are the student's) */
	const char* some[] = { "0008", "q", "r" };
	cliResultSet partly = idsOf(some, 3, true);
	ck_assert_int_eq(decide(&expected, &partly, &match), cli_matchExact);
	cliIdMatch_Free(&match);
	cliResultSet_Free(&partly);
	cliResultSet_Free(&two);
	cliResultSet_Free(&names);
	cliResultSet_Free(&counted);
	cliResultSet_Free(&tActual);
	cliResultSet_Free(&tExpected);
	cliResultSet_Free(&numeric);
	cliResultSet_Free(&same);
	cliResultSet_Free(&expected);
}
END_TEST

static Suite* gradeIndexSuite(void)
{
	Suite* suite = suite_create("grade_index");
	TCase* c = tcase_create("index");
	tcase_add_test(c, findsAcrossSets);
	tcase_add_test(c, manyIds);
	tcase_add_test(c, matchedAsATeacherWould);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeIndexSuite());
}
