/* results_write.h - `ballcast cast` results: the cast's columns and head,
 * written by the records writer (records_out.h) in JSON, NDJSON or CSV. */
#ifndef BC_RESULTS_WRITE_H
#define BC_RESULTS_WRITE_H

#include <stdio.h>

#include "ballcast.h"
#include "output.h"
#include "records_out.h"
#include "records.h"

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

/* What the JSON summary counts. */
typedef struct cliCastSummary {
	long records; /* results written, bad records included */
	long hits;    /* hits and initial overlaps */
	long errors;  /* bad records */
	long tunnelled; /* --compare-exact: hit by the exact cast, missed by the discrete method */
} cliCastSummary;

/* The cast's records writer: set up by cliCastWriter_Begin, then only read. */
typedef struct cliCastWriter {
	cliRecordsOut records; /* the cast's columns, in the run's format */
	bool compareExact;     /* the summary says "tunnelled" */
} cliCastWriter;

/* One result to write. Pointers are borrowed for the call. */
typedef struct cliCastAnswer {
	const cliRecord* record;    /* its id */
	const char* error;          /* non-NULL: the record could not be answered (nothing below is read) */
	const bcCastOutput* output; /* the answer */
	const bcContact* ties;      /* with --ties: tieCount contacts (read on a hit only) */
	int tieCount;
	const bcCastOutput* exact;  /* --compare-exact: the exact cast's answer, whose alpha goes beside; NULL otherwise */
	/* --method discrete (cliCastWriter_BeginWithAlphaFree): bcDiscreteOutput.lower,
	 * the last alpha a test found the ball free (the course slides' answer) */
	double alphaFree;
} cliCastAnswer;

/* What comes before the results (the JSON document's head, the CSV header
 * row), appended to out. */
void cliCastWriter_Begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header);

/* cliCastWriter_Begin for --method discrete answers that carry their lower
 * end: every result has "alpha_free" (after the other keys; CSV: the last
 * column, alpha_free), cliCastAnswer.alphaFree, written by
 * cliCastWriter_FormatAnswer. */
void cliCastWriter_BeginWithAlphaFree(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format,
									  const cliCastHeader* header);

/* One result, appended to out. position is the result's 0-based place in
 * the output (JSON separates results from the second on). Writers only
 * read the writer: results may be formatted on several threads at once. */
void cliCastWriter_FormatAnswer(const cliCastWriter* writer, cliBuffer* out, long position,
								const cliCastAnswer* answer);

/* cliCastWriter_FormatAnswer with the answer's parts as arguments (and no
 * alphaFree): error (non-NULL) for a bad record, else the output and, if
 * the writer was asked for ties, tieCount contacts; exact: with
 * --compare-exact, the exact cast's answer, whose alpha goes beside (NULL
 * otherwise, and for a bad record). */
void cliCastWriter_Format(const cliCastWriter* writer, cliBuffer* out, long position, const cliRecord* record,
						  const char* error, const bcCastOutput* output, const bcContact* ties, int tieCount,
						  const bcCastOutput* exact);

/* What comes after written results (the JSON summary), appended to out. */
void cliCastWriter_End(const cliCastWriter* writer, cliBuffer* out, long written, const cliCastSummary* summary);

/* The record's id as a JSON value (number text, string, or the index). */
void cliWriteRecordIdJson(FILE* f, const cliRecord* record);

/* The record's id as a CSV cell. */
void cliWriteRecordIdCsv(FILE* f, const cliRecord* record);

/* (cliBuffer_AppendRecordIdJson and cliBuffer_AppendRecordIdCsv, the same appended to a
 * buffer, are in records_out.h.) */

#endif
