/* results.h - writers for `ballcast cast` results in JSON, NDJSON and CSV. */
#ifndef BC_RESULTS_H
#define BC_RESULTS_H

#include <stdio.h>

#include "ballcast.h"
#include "output.h"
#include "records.h"

/* What the JSON document says about the run, before the results. */
typedef struct cliCastHeader {
	const char* meshPath;
	bcMeshInfo mesh;
	const bcCastOptions* options;
	const char* normalMode; /* "contact", "triangle" or "average" */
	bool ties;              /* results carry a "ties" list */
} cliCastHeader;

typedef struct cliCastSummary {
	long records;
	long hits;
	long errors;
} cliCastSummary;

typedef struct cliCastWriter {
	FILE* stream;
	cliOutputFormat format;
	bool ties;
	long written;
} cliCastWriter;

void cliCastWriter_Begin(cliCastWriter* writer, FILE* stream, cliOutputFormat format, const cliCastHeader* header);

/* One result: error (non-NULL) for a bad record, else the output and, if
 * the writer was asked for ties, tieCount contacts. */
void cliCastWriter_Write(cliCastWriter* writer, const cliRecord* record, const char* error, const bcCastOutput* output,
						 const bcContact* ties, int tieCount);

void cliCastWriter_End(cliCastWriter* writer, const cliCastSummary* summary);

/* The record's id as a JSON value (number text, string, or the index). */
void cliWriteRecordIdJson(FILE* f, const cliRecord* record);

/* The record's id as a CSV cell. */
void cliWriteRecordIdCsv(FILE* f, const cliRecord* record);

#endif
