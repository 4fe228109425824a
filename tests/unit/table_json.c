/* table_json.c - unit tests for JSON and printed literals reduced to a
 * table (cli/table_json.h): every orientation pandas writes (records,
 * columns, index, split, values), cast's document and other wrappers,
 * NDJSON with and without a comma ending each line, keyed by id, nested
 * answers, Python's and Java's printing, and the places of cells and of
 * records that cannot be read. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table_json.h"
#include "table_support.h"

/* Read text; it must read. */
static void readOk(cliTable* t, const char* text)
{
	bcTableKeeping(t);
	bcError error;
	ck_assert_msg(cliLooksLikeLiteral(text, strlen(text)), "not a literal: %s", text);
	ck_assert_msg(cliTable_ReadLiteral(t, text, strlen(text), &error), "%s\n%ld:%ld: %s", text, error.line,
				  error.column, error.message);
}

/* The same three records (ids a, b, c; alpha 0.5, 1, 0.25) whatever the
 * orientation. */
static void assertThree(const cliTable* t, const char* container)
{
	ck_assert_msg(strstr(t->container, container) != NULL, "read as '%s', expected '%s'", t->container, container);
	ck_assert_int_eq(t->rowCount, 3);
	const char* ids[] = { "a", "b", "c" };
	const char* alphas[] = { "0.5", "1", "0.25" };
	for (int i = 0; i < 3; ++i) {
		const char* id = bcColumn(t, "id") >= 0 ? bcCell(t, i, "id") : t->rows[i].label->text;
		ck_assert_str_eq(id, ids[i]);
		ck_assert_str_eq(bcCell(t, i, "alpha"), alphas[i]);
	}
}

START_TEST(orientations)
{
	const struct {
		const char* text;
		const char* container;
	} files[] = {
		{ "[{\"id\":\"a\",\"alpha\":0.5},{\"id\":\"b\",\"alpha\":1},{\"id\":\"c\",\"alpha\":0.25}]", "array of records" },
		/* pandas to_json() default: columns */
		{ "{\"id\":{\"0\":\"a\",\"1\":\"b\",\"2\":\"c\"},\"alpha\":{\"0\":0.5,\"1\":1,\"2\":0.25}}", "\"columns\"" },
		/* orient="index" */
		{ "{\"0\":{\"id\":\"a\",\"alpha\":0.5},\"1\":{\"id\":\"b\",\"alpha\":1},\"2\":{\"id\":\"c\",\"alpha\":0.25}}",
		  "\"index\"" },
		/* orient="split" */
		{ "{\"columns\":[\"id\",\"alpha\"],\"index\":[0,1,2],\"data\":[[\"a\",0.5],[\"b\",1],[\"c\",0.25]]}",
		  "\"split\"" },
		/* orient="values" with a header row; an object of lists */
		{ "[[\"id\",\"alpha\"],[\"a\",0.5],[\"b\",1],[\"c\",0.25]]", "first its header" },
		{ "{\"id\":[\"a\",\"b\",\"c\"],\"alpha\":[0.5,1,0.25]}", "object of lists" },
		/* cast's document, another wrapper, keyed by id */
		{ "{\"ballcast\":\"0.1\",\"results\":[{\"id\":\"a\",\"alpha\":0.5},{\"id\":\"b\",\"alpha\":1},"
		  "{\"id\":\"c\",\"alpha\":0.25}],\"summary\":{\"hits\":2}}",
		  "results document" },
		{ "{\"student\":\"bob\",\"data\":[{\"id\":\"a\",\"alpha\":0.5},{\"id\":\"b\",\"alpha\":1},{\"id\":\"c\","
		  "\"alpha\":0.25}]}",
		  "under \"data\"" },
		{ "{\"a\":{\"alpha\":0.5},\"b\":{\"alpha\":1},\"c\":{\"alpha\":0.25}}", "keyed by id" },
		/* NDJSON, with a comma ending each line, and jq -c of arrays of records */
		{ "{\"id\":\"a\",\"alpha\":0.5}\n{\"id\":\"b\",\"alpha\":1}\n{\"id\":\"c\",\"alpha\":0.25}\n", "NDJSON" },
		{ "{\"id\":\"a\",\"alpha\":0.5},\n{\"id\":\"b\",\"alpha\":1},\n{\"id\":\"c\",\"alpha\":0.25},\n", "ending with ','" },
		/* Python's print of a list of dicts, Java's toString of a list */
		{ "[{'id': 'a', 'alpha': 0.5}, {'id': 'b', 'alpha': 1}, {'id': 'c', 'alpha': 0.25}]", "array of records" },
		{ "[Result{id=a, alpha=0.5}, Result{id=b, alpha=1}, Result{id=c, alpha=0.25}]", "array of records" },
		{ "Result(id='a', alpha=0.5)\nResult(id='b', alpha=1)\nResult(id='c', alpha=0.25)\n", "per line" },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliTable t;
		readOk(&t, files[k].text);
		assertThree(&t, files[k].container);
		cliTable_Destroy(&t);
	}
}
END_TEST

START_TEST(nestedAndLabels)
{
	cliTable t;
	readOk(&t, "[{\"id\":1,\"result\":{\"hit\":true,\"t\":0.5,\"contact\":{\"n\":[0,0,1]}}},\n"
			   " {\"id\":2,\"result\":{\"hit\":false}}]");
	ck_assert_int_eq(t.rowCount, 2);
	ck_assert_str_eq(bcCell(&t, 0, "result.t"), "0.5");
	ck_assert_str_eq(bcCell(&t, 0, "result.contact.n"), "[0,0,1]");
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "result.contact.n"))->kind, cli_cellList);
	ck_assert_int_eq(bcCellAt(&t, 1, bcColumn(&t, "result.t"))->kind, cli_cellAbsent);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "result.hit"))->kind, cli_cellBool);
	ck_assert(bcCellAt(&t, 0, bcColumn(&t, "result.hit"))->boolean);
	/* places: the value's line and byte column */
	const cliCell* alpha = bcCellAt(&t, 0, bcColumn(&t, "result.t"));
	ck_assert_int_eq(alpha->line, 1);
	ck_assert_int_eq(alpha->column, 35);
	ck_assert_int_eq(t.rows[1].line, 2);
	ck_assert_int_eq(t.rows[1].column, 2);
	cliTable_Destroy(&t);
	/* keyed: the key is the row's label, at its place */
	readOk(&t, "{\"t1\": {\"hit\": true},\n \"t2\": {\"hit\": false}}");
	ck_assert_int_eq(t.labels, cli_labelKey);
	ck_assert_str_eq(t.rows[1].label->text, "t2");
	ck_assert_int_eq(t.rows[1].label->line, 2);
	ck_assert_int_eq(t.rows[1].label->column, 2);
	cliTable_Destroy(&t);
	/* pandas' index: labels that index, not ids */
	readOk(&t, "{\"0\":{\"alpha\":0.5},\"1\":{\"alpha\":1}}");
	ck_assert_int_eq(t.labels, cli_labelIndex);
	cliTable_Destroy(&t);
	/* arrays of arrays without a header: unnamed columns by place */
	readOk(&t, "[[\"a\", true, 0.5, [0, 0, 1]], [\"b\", false, 1, null]]");
	ck_assert(!t.header);
	ck_assert_int_eq(t.columnCount, 4);
	ck_assert_ptr_null(t.columns[0].name);
	ck_assert_str_eq(bcCellAt(&t, 0, 3)->text, "[0, 0, 1]");
	ck_assert_int_eq(bcCellAt(&t, 1, 3)->kind, cli_cellEmpty);
	cliTable_Destroy(&t);
}
END_TEST

START_TEST(brokenRecords)
{
	/* NDJSON: a line that is no record is a row with its problem and its id */
	cliTable t;
	readOk(&t, "{\"id\":1,\"alpha\":0.5}\n{\"id\":2,\"alpha\":0.5\n{\"id\":3,\"alpha\":1}\nDone.\n");
	ck_assert_int_eq(t.rowCount, 3);
	ck_assert_ptr_nonnull(t.rows[1].problem);
	ck_assert_int_eq(t.rows[1].problemLine, 2);
	ck_assert_str_eq(bcCell(&t, 1, "id"), "2");
	ck_assert_ptr_null(t.rows[2].problem);
	/* the word after the records is said, not a record */
	ck_assert_int_eq(t.noteCount, 1); /* the broken record's words say nothing of the file */
	ck_assert_msg(strstr(t.notes[0], "ignored a value at line 4 (not a record)") != NULL, "%s", t.notes[0]);
	ck_assert_msg(strstr(t.notes[0], "Done") == NULL, "%s", t.notes[0]); /* never its text */
	cliTable_Destroy(&t);
	/* in an array, a record whose brackets close goes on, with JSON's words */
	readOk(&t, "[{\"id\":1,\"alpha\":0.5},\n {\"id\":2,\"alpha\" 0.5},\n {\"id\":3,\"alpha\":1}]");
	ck_assert_int_eq(t.rowCount, 3);
	ck_assert_str_eq(t.rows[1].problem, "invalid JSON: unexpected '0' (expected ':' after a key)");
	ck_assert_int_eq(t.rows[1].problemColumn, 18);
	cliTable_Destroy(&t);
	/* an array cut short stops the reading, at its end, in JSON's words */
	bcTableKeeping(&t);
	bcError error;
	const char* cut = "[{\"id\":1,\"alpha\":0.5},\n {\"id\":2,\"al";
	ck_assert(!cliTable_ReadLiteral(&t, cut, strlen(cut), &error));
	ck_assert_int_eq(error.line, 2);
	ck_assert_int_eq(error.column, 13);
	ck_assert_str_eq(error.message, "unexpected end of input inside a string opened at 2:10");
	cliTable_Destroy(&t);
	/* a stray closer where a record should be breaks the structure (it
	 * used to be a broken record that never moved on: rows without end) */
	bcTableKeeping(&t);
	const char* stray = "[{\"id\":1,\"alpha\":0.5}, }, {\"id\":2}]";
	ck_assert(!cliTable_ReadLiteral(&t, stray, strlen(stray), &error));
	ck_assert_int_eq(t.rowCount, 1);
	cliTable_Destroy(&t);
	/* what is not JSON is said */
	readOk(&t, "[{'id': 1, 'alpha': nan, 'hit': False}]");
	ck_assert_int_eq(t.noteCount, 1);
	ck_assert_str_eq(t.notes[0], "not strict JSON: NaN or Infinity, single quotes, True/False/None");
	cliTable_Destroy(&t);
	ck_assert(!cliLooksLikeLiteral("id,hit\n", 7));
	ck_assert(!cliLooksLikeLiteral("t001: yes\n", 10));
	ck_assert(cliLooksLikeLiteral("  Result {a: 1}", 15));
}
END_TEST

static Suite* tableJsonSuite(void)
{
	Suite* suite = suite_create("table_json");
	TCase* tc = tcase_create("table_json");
	tcase_add_test(tc, orientations);
	tcase_add_test(tc, nestedAndLabels);
	tcase_add_test(tc, brokenRecords);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableJsonSuite());
}
