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
} cliRecord;

typedef struct cliReader cliReader;

/* Start reading records from stream (not closed by the reader). name is the
 * file name for messages. Returns NULL on out-of-memory. Caller owns the
 * reader and frees it with cliReader_Destroy. */
cliReader* cliReader_Create(FILE* stream, const char* name, cliInputFormat format);

/* Read the next record into *record (which the caller later frees with
 * cliRecord_Free). Returns 1 for a record, 0 at the end of the input, and -1
 * on a syntax or read error: error gets the code, 1-based line and column
 * and a message without the file name ("expected ',' or ']' after an
 * element"), and no further records are returned. */
int cliReader_Next(cliReader* reader, cliRecord* record, bcError* error);

/* The format in use (after detection: never cli_inputAuto once a record or
 * the end was read). */
cliInputFormat cliReader_GetFormat(const cliReader* reader);

void cliReader_Destroy(cliReader* reader);

/* Free what a record owns and zero it. */
void cliRecord_Free(cliRecord* record);

#endif
