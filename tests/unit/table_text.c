/* table_text.c - unit tests for text in columns reduced to a table
 * (cli/table_text.h), on the files programs write: R's write.csv and
 * write.table, pandas' to_csv and to_string, Excel's regional export,
 * printf's aligned columns, markdown and psql tables, numpy's savetxt,
 * files without a header; separators sniffed, quotes and brackets kept
 * whole, the header repeated, rows too long. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table_support.h"
#include "table_text.h"

static void readOk(cliTable* t, const char* text)
{
	bcTableKeeping(t);
	bcError error;
	ck_assert_msg(cliTable_ReadText(t, text, strlen(text), &error), "%s: %s", text, error.message);
}

/* Two records: t001 (hit, alpha 0.25) and t002 (a miss), read from a
 * header naming id, hit, alpha. */
static void assertTwo(const cliTable* t, const char* text, char separator)
{
	ck_assert_msg(t->rowCount == 2, "%s: %ld rows", text, t->rowCount);
	ck_assert_msg(t->separator == separator, "%s: separator '%c'", text, t->separator);
	ck_assert_msg(t->header, "%s: no header", text);
	ck_assert_str_eq(bcCell(t, 0, "id"), "t001");
	ck_assert_str_eq(bcCell(t, 1, "id"), "t002");
	ck_assert_str_eq(bcCell(t, 0, "alpha"), "0.25");
}

START_TEST(programsTables)
{
	const struct {
		const char* text;
		char separator;
		cliLabelKind labels;
	} files[] = {
		/* R's write.csv: a quoted empty header cell over the row names */
		{ "\"\",\"id\",\"hit\",\"alpha\"\n\"1\",\"t001\",TRUE,0.25\n\"2\",\"t002\",FALSE,NA\n", ',', cli_labelIndex },
		/* R's write.table: the header one cell short */
		{ "\"id\" \"hit\" \"alpha\"\n\"1\" \"t001\" TRUE 0.25\n\"2\" \"t002\" FALSE NA\n", ' ', cli_labelIndex },
		/* pandas' to_csv with its index, and to_string */
		{ ",id,hit,alpha\n0,t001,True,0.25\n1,t002,False,\n", ',', cli_labelIndex },
		{ "     id    hit  alpha\n0  t001   True   0.25\n1  t002  False    NaN\n", ' ', cli_labelIndex },
		/* Excel's export where ',' is the decimal point */
		{ "id;hit;alpha\r\nt001;WAHR;0.25\r\nt002;FALSCH;1\r\n", ';', cli_labelNone },
		/* printf's aligned columns, the header repeated halfway */
		{ "  id    hit   alpha\n t001   yes   0.25\n  id    hit   alpha\n t002    no   1\n", ' ', cli_labelNone },
		/* markdown and psql */
		{ "| id | hit | alpha |\n|----|-----|-------|\n| t001 | true | 0.25 |\n| t002 | false | 1 |\n", '|',
		  cli_labelNone },
		{ "  id  | hit | alpha\n------+-----+-------\n t001 | t   | 0.25\n t002 | f   | 1\n(2 rows)\n", '|',
		  cli_labelNone },
		/* numpy's savetxt: the header in a comment */
		{ "# id hit alpha\nt001 1 0.25\nt002 0 1\n", ' ', cli_labelNone },
		/* tabs */
		{ "id\thit\talpha\nt001\ttrue\t0.25\nt002\tfalse\t\n", '\t', cli_labelNone },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliTable t;
		readOk(&t, files[k].text);
		assertTwo(&t, files[k].text, files[k].separator);
		ck_assert_msg(t.labels == files[k].labels, "%s: labels %d", files[k].text, t.labels);
		cliTable_Destroy(&t);
	}
}
END_TEST

START_TEST(notesAndCells)
{
	cliTable t;
	/* the repeated header, rules, prose and comments are said */
	readOk(&t, "# made by hand\nid,hit,alpha\nt001,true,0.25\nid,hit,alpha\nt002,false,1\n");
	ck_assert_int_eq(t.rowCount, 2);
	bool repeated = false, comment = false;
	for (int k = 0; k < t.noteCount; ++k) {
		repeated = repeated || strstr(t.notes[k], "header repeated 1 time (first at line 4)") != NULL;
		comment = comment || strstr(t.notes[k], "1 comment line skipped") != NULL;
	}
	ck_assert(repeated && comment);
	cliTable_Destroy(&t);
	readOk(&t, "  id  | hit | alpha\n------+-----+-------\n t001 | t   | 0.25\n(1 row)\n");
	ck_assert_int_eq(t.rowCount, 1);
	cliTable_Destroy(&t);
	/* quotes keep a separator; brackets keep a vector; places are the file's */
	readOk(&t, "id,hit,alpha,normal\n\"a,1\",true,0.5,[0.6, 0, 0.8]\n\"b \"\"x\"\"\",false,1,\n");
	ck_assert_int_eq(t.rowCount, 2);
	ck_assert_str_eq(bcCell(&t, 0, "id"), "a,1");
	ck_assert_int_eq(bcCellAt(&t, 0, 0)->kind, cli_cellString);
	ck_assert_str_eq(bcCell(&t, 0, "normal"), "[0.6, 0, 0.8]");
	ck_assert_int_eq(bcCellAt(&t, 0, 3)->column, 16);
	ck_assert_str_eq(bcCell(&t, 1, "id"), "b \"x\"");
	ck_assert_int_eq(bcCellAt(&t, 1, 3)->kind, cli_cellEmpty);
	cliTable_Destroy(&t);
	/* decimal commas where ',' does not separate */
	readOk(&t, "id;alpha\na;0,25\nb;1\n");
	ck_assert(t.decimalComma);
	ck_assert_str_eq(bcCell(&t, 0, "alpha"), "0,25");
	cliTable_Destroy(&t);
	/* no header: unnamed columns */
	readOk(&t, "t001,true,0.25,0,0,1\nt002,false,1,,,\n");
	ck_assert(!t.header);
	ck_assert_int_eq(t.columnCount, 6);
	ck_assert_ptr_null(t.columns[0].name);
	ck_assert_str_eq(bcCellAt(&t, 1, 0)->text, "t002");
	cliTable_Destroy(&t);
	/* a row too long has its problem at its first cell too many; a short one reads */
	readOk(&t, "id,hit,alpha\na,true,0.5,9\nb,false\n");
	ck_assert_int_eq(t.rowCount, 2);
	ck_assert_str_eq(t.rows[0].problem, "expected 3 cells as in the header, found 4");
	ck_assert_int_eq(t.rows[0].problemLine, 2);
	ck_assert_int_eq(t.rows[0].problemColumn, 12);
	ck_assert_ptr_null(t.rows[1].problem);
	cliTable_Destroy(&t);
	/* MATLAB's writetable: a vector in three numbered columns */
	readOk(&t, "id,hit,alpha,normal_1,normal_2,normal_3\nt001,1,0.25,0,0,1\n");
	ck_assert_int_eq(t.columnCount, 6);
	ck_assert_str_eq(bcCell(&t, 0, "normal_3"), "1");
	cliTable_Destroy(&t);
}
END_TEST

static Suite* tableTextSuite(void)
{
	Suite* suite = suite_create("table_text");
	TCase* tc = tcase_create("table_text");
	tcase_add_test(tc, programsTables);
	tcase_add_test(tc, notesAndCells);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableTextSuite());
}
