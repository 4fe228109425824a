/* output.h - where results go, and the small writers every command shares.
 * Output is written to a temporary file and only published (renamed over
 * -o FILE, or copied to stdout) when the run succeeds, so a failed run
 * leaves an existing FILE untouched and puts nothing on stdout. */
#ifndef BC_OUTPUT_H
#define BC_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

typedef enum cliOutputFormat {
	cli_outputJson = 0,
	cli_outputNdjson,
	cli_outputCsv
} cliOutputFormat;

typedef struct cliOutput {
	FILE* stream;     /* write here */
	const char* path; /* -o FILE, or NULL for stdout */
	char* tempPath;   /* the temporary beside target (NULL for stdout or direct) */
	char* target;     /* what is renamed over: path, or where its symlink points */
	bool direct;      /* path is a FIFO or device: written in place */
} cliOutput;

/* Open the temporary output. path NULL or "-" means stdout. A symlink is
 * followed (its target is replaced); a FIFO or device is written in place,
 * since there is nothing to rename over. A new file gets mode 0666 less the
 * umask; a replaced file keeps its mode. On failure
 * prints "ballcast: ..." on stderr and returns false. */
bool cliOutput_Open(cliOutput* out, const char* path);

/* Publish: rename over path, or copy to stdout. Checks every write; on
 * failure prints a message, removes the temporary and returns false. */
bool cliOutput_Commit(cliOutput* out);

/* Throw the output away (a failed run). */
void cliOutput_Abort(cliOutput* out);

/* The format named by path's extension (.json, .ndjson/.jsonl, .csv), or
 * fallback. */
cliOutputFormat cliFormatFromPath(const char* path, cliOutputFormat fallback);

/* Parse "json", "ndjson", "csv"; false if unknown. */
bool cliParseOutputFormat(const char* text, cliOutputFormat* format);

/* Writers. Numbers round-trip (shortest form); strings are escaped. */
void cliWriteNumber(FILE* f, double value);
void cliWriteInt(FILE* f, long long value);
void cliWriteJsonString(FILE* f, const char* text);
void cliWriteJsonVec3(FILE* f, double x, double y, double z);
void cliWriteCsvField(FILE* f, const char* text);

#endif
