/* grade_index.c - unit tests for the id index of the grading engine
 * (cli/grade_index.h): ids found across two sets by their key (3, 3.0 and
 * "3" are one id), the first of a repeated id and its second occurrence. */
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

static Suite* gradeIndexSuite(void)
{
	Suite* suite = suite_create("grade_index");
	TCase* c = tcase_create("index");
	tcase_add_test(c, findsAcrossSets);
	tcase_add_test(c, manyIds);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeIndexSuite());
}
