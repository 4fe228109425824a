/* records.h - streaming readers for input records (trajectories, balls):
 * a JSON array read element by element, NDJSON (or any sequence of JSON
 * objects), and CSV with a header row. */
#ifndef BC_RECORDS_H
#define BC_RECORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"

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
	cli_fieldVelocity = 1 << 5  /* "v": [x,y,z]     CSV vx,vy,vz */
};

/* One input record. Fields not present are zero. error is empty unless a
 * field present was malformed (wrong type, not 3 numbers, a non-finite or
 * out-of-range number, a negative radius or mass); it then names the field,
 * e.g. "p0: expected an array of 3 numbers". Missing fields are not errors
 * here: each command decides what it needs. */
typedef struct cliRecord {
	long index;      /* 0-based record number */
	long line;       /* 1-based line and byte column where the record starts */
	long column;
	cliIdKind idKind;
	char* id;        /* owned by the record; NULL for cli_idIndex */
	unsigned fields;
	bcVec3 p0, p1, p, velocity;
	double radius;
	double mass;
	char error[200];
	/* A JSON object read by cliReader_NextDeferred but not parsed yet: its
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

/* Scratch for cliRecord_Parse: one per thread that parses. */
typedef struct cliParser cliParser;

typedef struct cliReader cliReader;

/* Start reading records from stream (not closed by the reader; it reads the
 * stream's descriptor directly, so nothing may have been read through the
 * stream before). name is the file name for messages. Returns NULL on
 * out-of-memory. Caller owns the reader and frees it with
 * cliReader_Destroy. */
cliReader* cliReader_Create(FILE* stream, const char* name, cliInputFormat format);

/* Read the next record into *record (which the caller later frees with
 * cliRecord_Free). Returns 1 for a record, 0 at the end of the input, and -1
 * on a syntax or read error: error gets the code, 1-based line and column
 * and a message without the file name ("expected ',' or ']' after an
 * element"), and no further records are returned. */
int cliReader_Next(cliReader* reader, cliRecord* record, bcError* error);

/* Like cliReader_Next, but a JSON object is only delimited, not parsed: its
 * bytes are appended to text and the record comes back with index, line,
 * column and deferredLength set, for cliRecord_Parse (on any thread) to
 * finish. Whatever is not a JSON object (CSV rows, other JSON values, and
 * values that are malformed in ways the delimiting notices) comes back
 * complete, or as the error, exactly as cliReader_Next returns it. A syntax
 * error inside a deferred object is found by cliRecord_Parse: it is the
 * error cliReader_Next would have returned at that record. */
int cliReader_NextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error);

/* Finish a deferred record (text is where cliReader_NextDeferred put its
 * bytes); a record that is not deferred is left as it is. Returns 1, or -1
 * with the syntax error (or out of memory) in *error and the record freed. */
int cliRecord_Parse(cliRecord* record, const cliRecordText* text, cliParser* parser, bcError* error);

/* A parser's scratch; NULL on out-of-memory. The first call also installs
 * cJSON's allocation hooks, so make it before threads use cJSON. */
cliParser* cliParser_Create(void);
void cliParser_Destroy(cliParser* parser);

void cliRecordText_Clear(cliRecordText* text);
void cliRecordText_Free(cliRecordText* text);

/* Detect the input format now (reading the first bytes) rather than at the
 * first record. Returns 1, or -1 on an error that cliReader_Next would
 * return first (empty input, a read error, no '[' for --input-format json). */
int cliReader_Detect(cliReader* reader, bcError* error);

/* Can the next record be read without waiting for input? True when a whole
 * line is buffered, at the end of the input, and for input that is not a
 * pipe, socket or terminal; otherwise asks poll(2). */
bool cliReader_IsInputReady(const cliReader* reader);

/* While the reader waits for input from a pipe, socket or terminal, it asks
 * keepWaiting(context) every tenth of a second; when that returns false it
 * gives up with a read error ("Operation canceled"). Set it before reading;
 * the callback runs on whichever thread is reading. */
typedef bool cliKeepWaitingFcn(void* context);
void cliReader_SetKeepWaiting(cliReader* reader, cliKeepWaitingFcn* keepWaiting, void* context);

/* The format in use (after detection: never cli_inputAuto once a record or
 * the end was read). */
cliInputFormat cliReader_GetFormat(const cliReader* reader);

void cliReader_Destroy(cliReader* reader);

/* Free what a record owns and zero it. */
void cliRecord_Free(cliRecord* record);

/* The length of the longest prefix of s[0 .. n) that is a JSON number
 * (RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or 0. */
size_t cliJsonNumberPrefix(const char* s, size_t n);

/* Is s[0 .. n) exactly a JSON number (an id echoed as a number)? */
bool cliIsJsonNumber(const char* s, size_t n);

#endif
