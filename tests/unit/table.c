/* table.c - unit tests for the table of records (cli/table.h): columns by
 * name (found again, new ones for a header naming two alike), cells with
 * their places, the first of a key given twice kept, the sample handed to
 * the sink once it is full, then every row as it comes. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table.h"

/* What the sink saw. */
typedef struct bcSeen {
	int begun;
	long sampleAtBegin;
	long taken;
	char ids[16][8];
} bcSeen;

static bool seeBegin(void* context, cliTable* t)
{
	bcSeen* seen = context;
	seen->begun++;
	seen->sampleAtBegin = t->rowCount;
	return true;
}

static bool seeTake(void* context, const cliTable* t, const cliTableRow* row)
{
	bcSeen* seen = context;
	(void)t;
	snprintf(seen->ids[seen->taken % 16], sizeof seen->ids[0], "%s", cliTableRow_Cell(row, 0)->text);
	seen->taken++;
	return true;
}

START_TEST(sampleThenStream)
{
	bcSeen seen;
	memset(&seen, 0, sizeof seen);
	cliTableSink sink = { &seen, seeBegin, seeTake };
	cliTable t;
	cliTable_Init(&t, &sink, 3);
	for (int i = 0; i < 5; ++i) {
		char id[8];
		snprintf(id, sizeof id, "r%d", i);
		cliTable_BeginRow(&t, i + 1, 1);
		int k = cliTable_Column(&t, "id", 1, 1);
		ck_assert_int_eq(k, 0);
		ck_assert(cliTable_Put(&t, k, cli_cellText, id, strlen(id), i + 1, 1));
		ck_assert(!cliTable_Put(&t, k, cli_cellText, "again", 5, i + 1, 9)); /* the first counts */
		ck_assert(cliTable_EndRow(&t));
		ck_assert_int_eq(seen.begun, i >= 2 ? 1 : 0);
	}
	ck_assert_int_eq(seen.sampleAtBegin, 3);
	ck_assert(cliTable_Finish(&t));
	ck_assert_int_eq(seen.begun, 1);
	ck_assert_int_eq(seen.taken, 5);
	for (int i = 0; i < 5; ++i) {
		char id[8];
		snprintf(id, sizeof id, "r%d", i);
		ck_assert_str_eq(seen.ids[i], id);
	}
	ck_assert_int_eq(t.total, 5);
	cliTable_Destroy(&t);
	/* a short table: the sample handed on by Finish */
	memset(&seen, 0, sizeof seen);
	cliTable_Init(&t, &sink, 100);
	cliTable_BeginRow(&t, 1, 1);
	cliTable_Put(&t, cliTable_Column(&t, "id", 1, 1), cli_cellText, "x", 1, 1, 1);
	cliTable_EndRow(&t);
	ck_assert_int_eq(seen.begun, 0);
	ck_assert(cliTable_Finish(&t));
	ck_assert_int_eq(seen.taken, 1);
	cliTable_Destroy(&t);
}
END_TEST

static bool keepBegin(void* context, cliTable* t)
{
	(void)context;
	(void)t;
	return true;
}

static bool keepTake(void* context, const cliTable* t, const cliTableRow* row)
{
	(void)context;
	(void)t;
	(void)row;
	return true;
}

START_TEST(cellsAndColumns)
{
	cliTableSink sink = { NULL, keepBegin, keepTake };
	cliTable t;
	cliTable_Init(&t, &sink, 100);
	int x1 = cliTable_NewColumn(&t, "x", 1, 1);
	int x2 = cliTable_NewColumn(&t, "x", 1, 3);
	ck_assert_int_ne(x1, x2);
	ck_assert_int_eq(cliTable_Column(&t, "x", 0, 0), x1);
	int unnamed = cliTable_Column(&t, NULL, 0, 0);
	ck_assert_ptr_null(t.columns[unnamed].name);
	cliTable_BeginRow(&t, 2, 1);
	cliTable_Put(&t, x2, cli_cellNumber, "0.5", 3, 2, 3);
	cliTable_PutBool(&t, unnamed, true, 2, 7);
	cliTable_Label(&t, "7", 1, cli_cellString, 2, 12);
	cliTable_Problem(&t, "first", 2, 4);
	cliTable_Problem(&t, "second", 2, 5);
	ck_assert(cliTable_EndRow(&t));
	const cliTableRow* row = t.rows;
	ck_assert_int_eq(cliTableRow_Cell(row, x1)->kind, cli_cellAbsent);
	ck_assert_str_eq(cliTableRow_Cell(row, x1)->text, "");
	ck_assert_str_eq(cliTableRow_Cell(row, x2)->text, "0.5");
	ck_assert_int_eq(cliTableRow_Cell(row, x2)->column, 3);
	ck_assert(cliTableRow_Cell(row, unnamed)->boolean);
	ck_assert_int_eq(cliTableRow_Cell(row, 99)->kind, cli_cellAbsent);
	ck_assert_str_eq(row->label->text, "7");
	ck_assert_str_eq(row->problem, "first");
	ck_assert_int_eq(row->problemColumn, 4);
	for (int k = 0; k < CLI_TABLE_NOTES + 3; ++k) {
		cliTable_Note(&t, "note %d", k);
	}
	ck_assert_int_eq(t.noteCount, CLI_TABLE_NOTES);
	ck_assert_str_eq(t.notes[1], "note 1");
	cliTable_Destroy(&t);
}
END_TEST

static Suite* tableSuite(void)
{
	Suite* suite = suite_create("table");
	TCase* tc = tcase_create("table");
	tcase_add_test(tc, sampleThenStream);
	tcase_add_test(tc, cellsAndColumns);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableSuite());
}
