/* results_table.h - results read the tolerant way, from a table of
 * records: the whole input reduced to a table (table_read.h), its columns
 * read (table_infer.h), each row a result whose cells are read as a
 * teacher reads a student's values (cell_value.h), and how all that was
 * done said in the set's reading (results_read.h's cliReading). Private
 * to the results reader (results_read.c). */
#ifndef BC_RESULTS_TABLE_H
#define BC_RESULTS_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results_read.h"

/* Read stream tolerantly (options->tolerant) into set: infer tells
 * unnamed columns by their values too, triangleCount (or 0) bounds the
 * triangle's. As cliReadResultsWith for what is returned. */
bool cliReadResultsTable(FILE* stream, const cliResultsReadOptions* options, bool infer, int32_t triangleCount,
						 cliResultSet* set, bcError* error);

/* Free what a reading owns and zero it. */
void cliReading_Free(cliReading* reading);

#endif
