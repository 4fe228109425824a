/* output.h - where results go, and the small writers every command shares.
 * Output is written to a temporary file and only published (renamed over
 * -o FILE, or copied to stdout) when the run succeeds, so a failed run
 * leaves an existing FILE untouched and puts nothing on stdout; or, for a
 * stream a consumer reads as it comes, straight to stdout. */
#ifndef BC_OUTPUT_H
#define BC_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ballcast.h"

typedef enum cliOutputFormat {
	cli_outputJson = 0,
	cli_outputNdjson,
	cli_outputCsv
} cliOutputFormat;

/* The file under a stream of cliOutput and its first write error (output.c). */
typedef struct cliSink cliSink;

typedef struct cliOutput {
	FILE* stream;     /* write here */
	cliSink* sink;    /* the file under stream, when it is one of ours (NULL for stdout) */
	const char* path; /* -o FILE, or NULL for stdout */
	char* tempPath;   /* the temporary beside target (NULL for stdout or direct) */
	char* target;     /* what is renamed over: path, or the end of its symlinks */
	bool direct;      /* path is a FIFO or device: written in place */
	bool streaming;   /* stdout, written as results come (cliOutput_OpenStdout) */
	bool failed;      /* streaming: a write error was reported */
	int pending;      /* the slot that names tempPath to the signal handler, or -1 */
} cliOutput;

/* Open the temporary output. path NULL or "-" means stdout. A symlink is
 * written through, as cp does: the end of its chain of links, live or
 * dangling, is replaced (the temporary beside it) and the links stay; a
 * FIFO or device is written in place, since there is nothing to rename
 * over. A new file gets mode 0666 less the umask; a replaced file keeps its
 * mode, and its owner and group where the system allows. On failure
 * prints "ballcast: ..." on stderr and returns false.
 * While the temporary beside path exists, every signal that ends a process
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ, ...; those still at their
 * default action when the first one was made) removes it, and the process
 * then dies by the same signal (exit status 128 + n), as `sort -o` does;
 * kill -9 leaves it (and path untouched). */
bool cliOutput_Open(cliOutput* out, const char* path);

/* Write to stdout as results come, staging nothing: what is written before
 * a failure stays written. Always succeeds. */
bool cliOutput_OpenStdout(cliOutput* out);

/* Write size bytes to the output. Streaming, a write error is reported at
 * once ("ballcast: standard output: write error: ...", only the first) and
 * gives false; otherwise errors show at cliOutput_Commit. */
bool cliOutput_Write(cliOutput* out, const void* data, size_t size);

/* Push what was written so far on to stdout now (streaming only; a no-op
 * otherwise). On a write error reports it as cliOutput_Write does and
 * returns false. */
bool cliOutput_Flush(cliOutput* out);

/* Publish: rename over path, or copy to stdout (or, streaming, flush).
 * Checks every write; on failure prints a message, removes the temporary
 * and returns false. */
bool cliOutput_Commit(cliOutput* out);

/* "ballcast: NAME: write error: REASON" on stderr (code an errno value; 0
 * reads as EIO); nothing for EPIPE: a reader that went away is no error
 * to tell (see main.c). */
void cliWriteError(const char* name, int code);

/* Flush stdout after --help or --version text: cli_exitOk, or on a write
 * error (a full disk, a closed pipe) "ballcast: standard output: write
 * error: ..." on stderr and cli_exitTrouble. */
int cliFinishStdout(void);

/* Throw the output away (a failed run). */
void cliOutput_Abort(cliOutput* out);

/* The format named by path's extension (.json, .ndjson/.jsonl, .csv), or
 * fallback. */
cliOutputFormat cliFormatFromPath(const char* path, cliOutputFormat fallback);

/* Parse "json", "ndjson" (or "jsonl"), "csv"; false if unknown. */
bool cliParseOutputFormat(const char* text, cliOutputFormat* format);

/* The k-th name -f/--format takes (from k = 0, the parser's table), or
 * NULL past the last. */
const char* cliOutputFormatName(int k);

/* A growing byte buffer: text formatted off the output stream (on any
 * thread), then written in one piece. Zero-initialise it. */
typedef struct cliBuffer {
	char* data;
	size_t length;
	size_t capacity;
	bool failed; /* out of memory: some appends were dropped */
} cliBuffer;

/* Room for extra more bytes; false (and failed set) on out of memory. */
bool cliBuffer_Grow(cliBuffer* buffer, size_t extra);
void cliBuffer_Clear(cliBuffer* buffer);
void cliBuffer_Free(cliBuffer* buffer);

static inline void cliBuffer_Append(cliBuffer* buffer, const char* bytes, size_t count)
{
	if (count > 0 && (buffer->capacity - buffer->length >= count || cliBuffer_Grow(buffer, count))) {
		memcpy(buffer->data + buffer->length, bytes, count);
		buffer->length += count;
	}
}

static inline void cliBuffer_AppendChar(cliBuffer* buffer, char c)
{
	if (buffer->capacity > buffer->length || cliBuffer_Grow(buffer, 1)) {
		buffer->data[buffer->length++] = c;
	}
}

static inline void cliBuffer_AppendText(cliBuffer* buffer, const char* text)
{
	cliBuffer_Append(buffer, text, strlen(text));
}

/* The first characters that make a spreadsheet read a CSV cell as a
 * formula (OWASP's CSV injection list: = + - @ tab, carriage return). */
#define CLI_CSV_FORMULA_STARTS "=+-@\t\r"

/* Does a text cell start like a formula, after any number of ' (so that
 * writing one more ' and reading one less is lossless)?
 * cliBuffer_AppendCsvField writes such a cell after a ', which the results
 * reader drops again. */
static inline bool cliStartsLikeFormula(const char* text)
{
	while (*text == '\'') {
		++text;
	}
	return *text != '\0' && strchr(CLI_CSV_FORMULA_STARTS, *text) != NULL;
}

/* The buffer forms of the writers below, byte for byte the same text. */
void cliBuffer_AppendNumber(cliBuffer* buffer, double value);
void cliBuffer_AppendInt(cliBuffer* buffer, long long value);
void cliBuffer_AppendJsonString(cliBuffer* buffer, const char* text);
void cliBuffer_AppendJsonVec3(cliBuffer* buffer, double x, double y, double z);
void cliBuffer_AppendCsvField(cliBuffer* buffer, const char* text);

/* Writers. Numbers round-trip (shortest form); strings are escaped. */
void cliWriteNumber(FILE* f, double value);
void cliWriteInt(FILE* f, long long value);

/* A member of a JSON object written by hand, after the object's first:
 * ,"key":value. key is written as it is (a name of ours, nothing to
 * escape). */
void cliWriteNumberMember(FILE* f, const char* key, double value);
void cliWriteIntMember(FILE* f, const char* key, long long value);
/* A JSON string, escaped: '"' and '\\', control characters (C0, DEL, C1)
 * as \n \r \t or \u00XX. Always valid UTF-8: a byte that is not part of
 * valid UTF-8 is written as the text \xHH (\\xHH in the JSON), a last
 * guard, since the readers refuse such strings. */
void cliWriteJsonString(FILE* f, const char* text);
void cliWriteJsonVec3(FILE* f, double x, double y, double z);
/* Three CSV cells, each preceded by its comma: ",x,y,z". */
void cliWriteCsvVec3(FILE* f, bcVec3 v);
/* A name (a file's, which the system lets hold any byte but NUL) shown as
 * `ls -b` shows it: C-style escapes, a backslash as \\, TAB, NL and CR as
 * \t \n \r, every other control byte (C0, DEL, and C1 as its two bytes)
 * and every byte that is not part of valid UTF-8 as \xHH. Lossless,
 * terminal-safe and valid UTF-8: every report and message shows file names
 * so. cliNameText's copy is owned by the caller (NULL when out of
 * memory). */
void cliBuffer_AppendName(cliBuffer* buffer, const char* name);
void cliWriteName(FILE* f, const char* name);
char* cliNameText(const char* name);

/* The most characters of a name read from a file (a column's header, a
 * key, an element, an id) that a report shows: enough to tell columns
 * apart ("impact_time_seconds"), too few to carry a line of the file. */
#define CLI_SHOWN_NAME_MAX 24

/* "…", which ends a name cut short. */
#define CLI_ELLIPSIS "\xe2\x80\xa6"

/* A buffer that holds any name cliShortName writes (24 characters of up
 * to 4 bytes, the ellipsis, the NUL). */
#define CLI_SHOWN_NAME_SIZE (4 * CLI_SHOWN_NAME_MAX + sizeof CLI_ELLIPSIS)

/* A name read from a file, as a report may show it (a report never shows
 * a file's lines or values; a teacher needs "'TOI' -> alpha"): as
 * cliWriteName shows a name (ls -b's escapes), cut after
 * CLI_SHOWN_NAME_MAX characters of what is shown, or where out's size
 * bytes end, with '…' where it is cut: true then. "" when out of
 * memory. */
bool cliShortName(const char* name, char* out, size_t size);

/* Text (a message, a note) shown safely on a terminal and as UTF-8: as a
 * name is, but a backslash stays itself. cliShownText's copy is owned by
 * the caller (NULL when out of memory). */
void cliWriteShown(FILE* f, const char* text);
char* cliShownText(const char* text);

/* A CSV cell of text: quoted when it must be (a comma, a quote, a line
 * break, a leading blank), after a ' when it starts like a formula
 * (CLI_CSV_FORMULA_STARTS); nothing for "". */
void cliWriteCsvField(FILE* f, const char* text);

#endif
