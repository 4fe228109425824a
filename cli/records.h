/* records.h - the records the commands answer (trajectories of cast
 * and balls, the balls of closest): any format in, one record out at a
 * time, never a fatal error for a record. A JSON array is read element by
 * element, NDJSON value by value, CSV row by row (json_stream.c, csv.c), so
 * memory is bounded by the largest record, never by their number.
 *
 * A record that cannot be read (a field of the wrong type or range, NaN or
 * a syntax error in its JSON, a bad CSV cell, a line of NDJSON that is not
 * one value) comes back with an error and the place of the offending value,
 * and reading goes on. Only what breaks the input's structure stops it: a
 * JSON array whose brackets do not match or that ends early, a CSV header
 * without a known column, a read error. */
#ifndef BC_RECORDS_H
#define BC_RECORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"
#include "input.h"
#include "json_stream.h"

typedef enum cliInputFormat {
	cli_inputAuto = 0, /* from the first non-blank byte: '[' JSON, '{' NDJSON, else CSV */
	cli_inputJson,
	cli_inputNdjson,
	cli_inputCsv
} cliInputFormat;

typedef enum cliIdKind {
	cli_idIndex = 0, /* no id given: the record number stands in */
	cli_idNumber,    /* id holds the number's text exactly as written */
	cli_idString     /* id holds the decoded UTF-8 string */
} cliIdKind;

/* Which fields a record carried (bit flags in cliRecord.fields). */
enum {
	cli_fieldP0 = 1 << 0,       /* "p0": [x,y,z]    CSV x0,y0,z0 */
	cli_fieldP1 = 1 << 1,       /* "p1": [x,y,z]    CSV x1,y1,z1 */
	cli_fieldP = 1 << 2,        /* "p": [x,y,z]     CSV x,y,z */
	cli_fieldRadius = 1 << 3,   /* "r" or "radius"  CSV r or radius */
	cli_fieldMass = 1 << 4,     /* "mass"           CSV mass */
	cli_fieldVelocity = 1 << 5, /* "v": [x,y,z]     CSV vx,vy,vz */
	cli_fieldFixed = 1 << 6     /* "fixed": bool    CSV fixed (true, false, 1, 0) */
};

/* One input record. Fields not present are zero. error is empty unless
 * the record could not be read whole: a field present was malformed (wrong
 * type, not 3 numbers, a non-finite or out-of-range number, a negative
 * radius or mass) or the record's text is not JSON; it then names the
 * field ("p0: expected an array of 3 numbers") or the syntax error, and
 * errorLine:errorColumn is where. Missing fields are not errors here: each
 * command decides what it needs. */
typedef struct cliRecord {
	long index;      /* 0-based record number (the id when the record has none) */
	long line;       /* 1-based line and byte column where the record starts */
	long column;
	cliIdKind idKind;
	char* id;        /* owned by the record; NULL for cli_idIndex */
	unsigned fields;
	bcVec3 p0, p1, p, velocity;
	double radius;
	double mass;
	bool fixed;      /* "fixed" (balls: a ball that never moves) */
	char error[200];
	long errorLine;
	long errorColumn;
	/* A JSON value taken by cliReader_NextDeferred but not parsed yet: its
	 * bytes in the caller's cliRecordText (deferredLength 0: nothing
	 * deferred, the fields above are final). */
	size_t deferredOffset;
	size_t deferredLength;
} cliRecord;

/* Raw bytes of deferred records, appended one after another. */
typedef struct cliRecordText {
	char* data;
	size_t length;
	size_t capacity;
} cliRecordText;

typedef struct cliReader cliReader;

/* Start reading records from stream (not closed by the reader; nothing may
 * have been read through it before). name is the file name for messages.
 * NULL on out-of-memory. The caller owns the reader (cliReader_Destroy). */
cliReader* cliReader_Create(FILE* stream, const char* name, cliInputFormat format);
void cliReader_Destroy(cliReader* reader);

/* Read the next record into *record (which the caller later frees with
 * cliRecord_Free). 1 for a record (maybe with an error), 0 at the end of
 * the input, -1 when the input cannot be read on: error gets the code,
 * 1-based line and column and a message without the file name ("expected
 * ',' or ']' after an element"), and the same error comes back from then
 * on. */
int cliReader_Next(cliReader* reader, cliRecord* record, bcError* error);

/* Like cliReader_Next, but a JSON value is only taken, not parsed: its
 * bytes are appended to text and the record comes back with index, line,
 * column and deferredLength set, for cliRecord_Parse (on any thread) to
 * finish. CSV rows, and JSON the stream already knows to be bad, come back
 * complete. */
int cliReader_NextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error);

/* Finish a deferred record (text is where cliReader_NextDeferred put its
 * bytes) as cliReader_Next would have read it; a record that is not
 * deferred is left as it is. Returns 1, or -1 when out of memory (error
 * filled, the record freed). */
int cliRecord_Parse(cliRecord* record, const cliRecordText* text, cliJsonParser* parser, bcError* error);

void cliRecordText_Clear(cliRecordText* text);
void cliRecordText_Free(cliRecordText* text);

/* Read only the records range holds (input.h; --shard): those that start
 * before it are read and dropped (their numbers still counted, so records
 * keep the numbers of the whole file), reading stops at the first that
 * starts at or after its end. Set it before reading. */
void cliReader_SetRange(cliReader* reader, const cliInputRange* range);

/* Detect the input format now (reading the first bytes) rather than at the
 * first record: 1, or -1 on an error cliReader_Next would return first
 * (a read error, no '[' for --input-format json). An empty input (blanks
 * and a byte order mark at most) is no error: no records, read as NDJSON
 * unless a format was named. */
int cliReader_Detect(cliReader* reader, bcError* error);

/* The format in use (after detection: never cli_inputAuto once a record or
 * the end was read). */
cliInputFormat cliReader_GetFormat(const cliReader* reader);

/* Can the next record be read without waiting for input? (cliInput_IsReady) */
bool cliReader_IsInputReady(const cliReader* reader);

/* How far reading has come, from 0 to 1; -1 when the input's size is not
 * known (a pipe). */
double cliReader_Progress(const cliReader* reader);

/* Give up waiting on a pipe when keepWaiting(context) says so (input.h).
 * Set it before reading. */
void cliReader_SetKeepWaiting(cliReader* reader, cliKeepWaitingFcn* keepWaiting, void* context);

/* The id of the JSON record text[0 .. length): member its parsed "id"
 * member (text is not read then: it may be NULL); or NULL when the text
 * is not valid JSON, and the id is then the
 * first "id" member the parser read whole before the problem
 * (cliJsonParser_PartialValue of parser: none when parser is NULL). A
 * string id is decoded, a number id kept as written. *kind and *id (owned
 * by the caller; NULL for cli_idIndex) get it; returns NULL, or (for a
 * member given) what is wrong with it ("id: expected a string or a
 * number", "id: contains \u0000, which cannot be echoed"). *noMemory
 * tells when memory ran out. */
const char* cliJsonRecordId(const char* text, size_t length, const cJSON* member, cliJsonParser* parser,
							cliIdKind* kind, char** id, bool* noMemory);

/* Free what a record owns and zero it. */
void cliRecord_Free(cliRecord* record);

#endif
