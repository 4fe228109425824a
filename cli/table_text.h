/* table_text.h - text in columns reduced to a table of records (table.h):
 * CSV and its kin, the separator told from the lines themselves (',', ';',
 * a tab, '|', or runs of blanks for a table aligned by printf, pandas'
 * to_string, R's print, Fortran's list-directed output), cells quoted
 * with '"' (a separator or a line break inside), brackets kept whole
 * ("[0.1, 0.2, 0.9]" is one cell), decimal commas where ',' does not
 * separate. The header is the first row when it names the columns (or a
 * '#' comment right above the data, as numpy's savetxt writes it); a file
 * without one has unnamed columns. Read as a teacher reads it: a first
 * column without a name holds row names (R's write.csv, pandas' to_csv),
 * the header repeated further down is skipped, as are lines of dashes or
 * underscores (markdown, psql, MATLAB), comment lines and a line of prose
 * (psql's "(1000 rows)"), each said in a note. */
#ifndef BC_TABLE_TEXT_H
#define BC_TABLE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* Read text into t. False only when memory runs out (error filled): text
 * in columns always reads, a row that does not fit its header being a row
 * with a problem. */
bool cliTable_ReadText(cliTable* t, const char* text, size_t length, bcError* error);

#endif
