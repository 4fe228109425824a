/* table_kv.c - unit tests for keys and values reduced to a table
 * (cli/table_kv.h): YAML-ish lists and mappings keyed by id, blocks of
 * "key: value" lines, INI and TOML sections, logfmt's pairs; nested keys,
 * quoted and bracketed values, prose set aside. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table_kv.h"
#include "table_support.h"

static void readOk(cliTable* t, const char* text)
{
	bcTableKeeping(t);
	bcError error;
	ck_assert_msg(cliLooksLikeKeyValues(text, strlen(text)), "not keys and values: %s", text);
	ck_assert_msg(cliTable_ReadKeyValues(t, text, strlen(text), &error), "%s: %s", text, error.message);
}

START_TEST(shapes)
{
	const struct {
		const char* text;
		const char* container;
	} files[] = {
		{ "- id: t001\n  hit: true\n  alpha: 0.25\n  normal: [0, 0, 1]\n- id: t002\n  hit: false\n  alpha: 1\n",
		  "YAML-style list" },
		{ "t001:\n  hit: true\n  alpha: 0.25\n  normal:\n    x: 0\n    y: 0\n    z: 1\nt002:\n  hit: false\n"
		  "  alpha: 1\n",
		  "keyed by id" },
		{ "id: t001\nhit: yes\nalpha: 0.25\n\nid: t002\nhit: no\nalpha: 1\n", "blocks" },
		{ "id = t001\nhit = true\nalpha = 0.25\nid = t002\nhit = false\nalpha = 1\n", "blocks" },
		{ "[t001]\nhit = true\nalpha = 0.25\n\n[t002]\nhit = false\nalpha = 1\n", "section" },
		{ "[[result]]\nid = \"t001\"\nalpha = 0.25\n[[result]]\nid = \"t002\"\nalpha = 1\n", "section" },
		{ "id=t001 hit=true alpha=0.25 normal=[0,0,1]\nid=t002 hit=false alpha=1\n", "line of pairs" },
		{ "id: t001, hit: yes, alpha: 0.25\nid: t002, hit: no, alpha: 1\n", "line of pairs" },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliTable t;
		readOk(&t, files[k].text);
		bcAssertTwo(&t, files[k].text, files[k].container);
		cliTable_Destroy(&t);
	}
}
END_TEST

START_TEST(valuesAndPlaces)
{
	cliTable t;
	readOk(&t, "# answers\n- id: 't 1'   # quoted\n  normal: [0.6, 0, 0.8]\n  hit: ~\n");
	ck_assert_int_eq(t.rowCount, 1);
	ck_assert_str_eq(bcCell(&t, 0, "id"), "t 1");
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "id"))->kind, cli_cellString);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "normal"))->kind, cli_cellList);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "normal"))->line, 3);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "normal"))->column, 11);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "hit"))->kind, cli_cellEmpty);
	cliTable_Destroy(&t);
	/* nested keys become key paths */
	readOk(&t, "t001:\n  alpha: 0.25\n  normal:\n    x: 0.6\n    y: 0\n    z: 0.8\n  hit: true\n");
	ck_assert_str_eq(bcCell(&t, 0, "normal.z"), "0.8");
	ck_assert_str_eq(bcCell(&t, 0, "hit"), "true");
	ck_assert_int_eq(t.labels, cli_labelKey);
	cliTable_Destroy(&t);
	/* text that is not keys and values */
	ck_assert(!cliLooksLikeKeyValues("id,hit,alpha\na,true,0.5\n", 25));
	ck_assert(!cliLooksLikeKeyValues("t001 true 0.25\nt002 false 1\n", 29));
	ck_assert(!cliLooksLikeKeyValues("At 12:30 the ball hit\nthe floor\n", 31));
}
END_TEST

static Suite* tableKvSuite(void)
{
	Suite* suite = suite_create("table_kv");
	TCase* tc = tcase_create("table_kv");
	tcase_add_test(tc, shapes);
	tcase_add_test(tc, valuesAndPlaces);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableKvSuite());
}
