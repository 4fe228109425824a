/* results_write.h - writers for `ballcast cast` results in JSON, NDJSON and CSV. */
#ifndef BC_RESULTS_WRITE_H
#define BC_RESULTS_WRITE_H

#include <stdio.h>

#include "ballcast.h"
#include "output.h"
#include "trajectories.h"

/* What the JSON document says about the run, before the results. */
typedef struct cliCastHeader {
	const char* meshPath;
	bcMeshInfo mesh;
	const bcCastOptions* options;
	const char* normalMode; /* "contact", "triangle" or "average" */
	bool ties;              /* results carry a "ties" list */
	/* --method discrete: its step and bisections (NULL: the exact cast,
	 * and the settings say nothing more) */
	const bcDiscreteOptions* discrete;
	bool compareExact;      /* results carry "exact_alpha", the summary "tunnelled" */
} cliCastHeader;

typedef struct cliCastSummary {
	long records;
	long hits;
	long errors;
	long tunnelled; /* --compare-exact: hit by the exact cast, missed by the discrete method */
} cliCastSummary;

typedef struct cliCastWriter {
	cliOutputFormat format;
	bool ties;
	bool compareExact;
} cliCastWriter;

/* What comes before the results (the JSON document's head, the CSV header
 * row), appended to out. */
void cliCastWriter_Begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header);

/* One result, appended to out: error (non-NULL) for a bad record, else the
 * output and, if the writer was asked for ties, tieCount contacts; exact:
 * with --compare-exact, the exact cast's answer, whose alpha goes beside
 * (NULL otherwise, and for a bad record). position
 * is the result's 0-based place in the output (JSON separates results from
 * the second on). Writers only read the writer: results may be formatted
 * on several threads at once. */
void cliCastWriter_Format(const cliCastWriter* writer, cliBuffer* out, long position, const cliRecord* record,
						  const char* error, const bcCastOutput* output, const bcContact* ties, int tieCount,
						  const bcCastOutput* exact);

/* What comes after written results (the JSON summary), appended to out. */
void cliCastWriter_End(const cliCastWriter* writer, cliBuffer* out, long written, const cliCastSummary* summary);

/* The record's id as a JSON value (number text, string, or the index). */
void cliWriteRecordIdJson(FILE* f, const cliRecord* record);

/* The record's id as a CSV cell. */
void cliWriteRecordIdCsv(FILE* f, const cliRecord* record);

/* The same, appended to a buffer. */
void cliAppendRecordIdJson(cliBuffer* out, const cliRecord* record);
void cliAppendRecordIdCsv(cliBuffer* out, const cliRecord* record);

#endif
