/* results_json.h - results read strictly from JSON (results_json.c): the
 * values of an array or NDJSON, and cast's results document. Private to
 * the results reader (results_read.c); the public face is results_read.h. */
#ifndef BC_RESULTS_JSON_H
#define BC_RESULTS_JSON_H

#include <stdbool.h>

#include "results_parse.h"

/* The values of the container reader's JSON stream is in, each a result.
 * oneObjectPerLine words the
 * message for a value that is no object as NDJSON's. false on an error
 * that stops the reading (error filled; out of memory: noMemory). */
bool cliResultsReader_ReadJsonValues(cliResultsReader* reader, bool oneObjectPerLine, bcError* error);

/* A cast document: {"ballcast": ..., "results": [...], ...}, members walked
 * one by one so that the results array streams; other members are checked
 * for syntax and left. false on an error that stops the reading. */
bool cliResultsReader_ReadDocument(cliResultsReader* reader, bcError* error);

#endif
