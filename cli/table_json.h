/* table_json.h - JSON, and the literals programs print (literal.h),
 * reduced to a table of records (table.h) whatever their orientation: an
 * array of records; cast's document and any object holding one array of
 * records ({"results": [...]}, {"data": [...]}); NDJSON, with or without a
 * comma ending each line, and any sequence of records one after another
 * (Python's print of a dict per line, Java's toString per line); an array
 * of arrays whose first row is the header (pandas' "values"); pandas'
 * "split" ({"columns": [...], "index": [...], "data": [[...]]}), "columns"
 * ({"alpha": {"0": ..., "1": ...}, ...}) and "index" orientations; an
 * object of lists ({"id": [...], "alpha": [...]}); an object keyed by id;
 * answers nested one level or two ({"id": 7, "result": {"t": 0.5}} gives
 * the column "result.t"). Rows that are lists have unnamed columns by
 * place. */
#ifndef BC_TABLE_JSON_H
#define BC_TABLE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* Does text (from its first byte that is not white space) start a value of
 * literal.h's grammar that is a container: '[', '{', '(' or a type name
 * before one (Result{, Result(, Result [)? */
bool cliLooksLikeLiteral(const char* text, size_t length);

/* Read text into t (t->container says how it was read). False when the
 * input cannot be read on (an array or object whose structure is broken),
 * with error at its line and column: JSON's own message when the text is
 * JSON up to there. A record that cannot be read in a sequence (a line of
 * NDJSON) is a row with its problem, and reading goes on. */
bool cliTable_ReadLiteral(cliTable* t, const char* text, size_t length, bcError* error);

#endif
