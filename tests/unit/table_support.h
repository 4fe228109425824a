/* table_support.h - what the table readers' unit tests share: a table
 * that keeps every row (a sink that takes nothing), its cells by column
 * name, and the two records their shapes write. */
#ifndef BC_TABLE_SUPPORT_H
#define BC_TABLE_SUPPORT_H

#include <check.h>
#include <string.h>

#include "table.h"

static inline bool bcKeepBegin(void* context, cliTable* t)
{
	(void)context;
	(void)t;
	return true;
}

static inline bool bcKeepTake(void* context, const cliTable* t, const cliTableRow* row)
{
	(void)context;
	(void)t;
	(void)row;
	return true;
}

/* A table that keeps every row in its sample (never handed on). */
static inline void bcTableKeeping(cliTable* t)
{
	cliTableSink sink = { NULL, bcKeepBegin, bcKeepTake };
	cliTable_Init(t, &sink, 1L << 30);
}

/* The column named name, or -1. */
static inline int bcColumn(const cliTable* t, const char* name)
{
	for (int k = 0; k < t->columnCount; ++k) {
		if (t->columns[k].name != NULL && strcmp(t->columns[k].name, name) == 0) {
			return k;
		}
	}
	return -1;
}

/* Row i's cell text in the column named name ("" when absent). */
static inline const char* bcCell(const cliTable* t, long i, const char* name)
{
	ck_assert_int_lt(i, t->rowCount);
	int k = bcColumn(t, name);
	ck_assert_msg(k >= 0, "no column '%s'", name);
	return cliTableRow_Cell(t->rows + i, k)->text;
}

/* Row i's cell in column k. */
static inline const cliCell* bcCellAt(const cliTable* t, long i, int k)
{
	ck_assert_int_lt(i, t->rowCount);
	return cliTableRow_Cell(t->rows + i, k);
}

/* The two records the readers' tests write in each shape: ids t001, t002
 * (a column, or the rows' labels), alpha 0.25 then 1, read as container
 * says. */
static inline void bcAssertTwo(const cliTable* t, const char* text, const char* container)
{
	ck_assert_msg(t->rowCount == 2, "%s: %ld rows", text, t->rowCount);
	ck_assert_msg(strstr(t->container, container) != NULL, "%s: read as '%s'", text, t->container);
	ck_assert_str_eq(bcCell(t, 0, "alpha"), "0.25");
	ck_assert_str_eq(bcCell(t, 1, "alpha"), "1");
	for (long i = 0; i < 2; ++i) {
		const char* id = bcColumn(t, "id") >= 0 ? bcCell(t, i, "id") : t->rows[i].label->text;
		ck_assert_msg(strcmp(id, i == 0 ? "t001" : "t002") == 0, "%s: id '%s'", text, id);
	}
}

#endif
