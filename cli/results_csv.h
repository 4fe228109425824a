/* results_csv.h - results read from CSV (results_csv.c). Private to the
 * results reader (results_read.c); the public face is results_read.h. */
#ifndef BC_RESULTS_CSV_H
#define BC_RESULTS_CSV_H

#include <stdbool.h>

#include "results_parse.h"

/* The CSV file at reader's input: the header (through the options'
 * spellings), then each row a result. false on an error that stops the
 * reading (error filled; out of memory: noMemory). */
bool cliResultsReader_ReadCsv(cliResultsReader* reader, bcError* error);

#endif
