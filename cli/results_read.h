/* results_read.h - results read back: what `ballcast cast` writes, or a
 * student's program, for compare and render (and grading). The JSON
 * document (its "results" array), a bare JSON array of result objects,
 * NDJSON, or CSV with cast's header, whichever the content is. CSV cells
 * are separated by what the header line uses most: ',', ';', a tab or
 * '|' (with any but ',', "0,25" is the number 0.25, as spreadsheets in
 * much of Europe write it).
 *
 * Lenient about what is absent, strict about what is there: any field but
 * id may be missing (a student's file may hold only id, hit, alpha,
 * feature and normal), unknown keys and columns are ignored, null is the
 * same as absent. A record whose field is malformed (a wrong type, a value
 * out of range, NaN) or whose JSON is broken keeps its problem and where
 * it is, its other fields are read, and reading goes on; the caller
 * decides what a problem costs. Only an input that cannot be read on (a
 * JSON array whose structure is broken, a CSV header without a known
 * column, a read error) fails the whole read. */
#ifndef BC_RESULTS_READ_H
#define BC_RESULTS_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ballcast.h"
#include "records.h"

/* Which fields a result (or a tie) carried: bits of cliResult.fields and
 * cliTie.fields. JSON key, then CSV column(s). */
enum {
	cli_resultHit = 1 << 0,             /* "hit": true|false            hit */
	cli_resultAlpha = 1 << 1,           /* "alpha": number              alpha */
	cli_resultInitialOverlap = 1 << 2,  /* "initial_overlap": bool      initial_overlap */
	cli_resultFeature = 1 << 3,         /* "feature": "face"|"edge"|"vertex"|"none"  feature */
	cli_resultTriangle = 1 << 4,        /* "triangle": whole number     triangle */
	cli_resultFace = 1 << 5,            /* "face": whole number         face */
	cli_resultVertices = 1 << 6,        /* "vertices": 1 to 3 whole numbers  vertex_0..vertex_2 */
	cli_resultPoint = 1 << 7,           /* "point": [x,y,z]             point_x,point_y,point_z */
	cli_resultCenter = 1 << 8,          /* "center": [x,y,z]            center_x,... */
	cli_resultNormal = 1 << 9,          /* "normal": [x,y,z]            normal_x,... */
	cli_resultTriangleNormal = 1 << 10, /* "triangle_normal": [x,y,z]   triangle_normal_x,... */
	cli_resultError = 1 << 11,          /* "error": string              error (a non-empty cell) */
	cli_resultTies = 1 << 12,           /* "ties": [...]                ties ("3:edge 4:vertex") */
	cli_resultP0 = 1 << 13,             /* "p0": [x,y,z]                x0,y0,z0 (the trajectory, if given) */
	cli_resultP1 = 1 << 14              /* "p1": [x,y,z]                x1,y1,z1 */
};

/* One contact tied at the earliest alpha (cast --ties). From JSON it has the
 * keys given (triangle, feature, vertices, alpha, normal and, if present,
 * triangle_normal); from CSV only triangle and feature. */
typedef struct cliTie {
	unsigned fields; /* cli_resultTriangle, Feature, Vertices, Alpha, Normal, TriangleNormal */
	int32_t triangle;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	double alpha;
	bcVec3 normal;
	bcVec3 triangleNormal;
} cliTie;

/* One result. Fields not in .fields are zero. */
typedef struct cliResult {
	long index;  /* 0-based position in the file */
	long line;   /* 1-based line and byte column where the result starts */
	long column;
	cliIdKind idKind; /* cli_idIndex when the result has no id: index stands in */
	char* id;         /* owned: the number's text as written, or the decoded string; NULL for cli_idIndex */
	unsigned fields;
	bool hit;
	double alpha;
	bool initialOverlap;
	bcFeature feature;
	int32_t triangle;
	int32_t face;
	int vertexCount;
	int32_t vertices[3]; /* as written, not sorted */
	bcVec3 point, center, normal, triangleNormal, p0, p1;
	char* error;   /* owned; NULL unless cli_resultError */
	int tieCount;  /* with cli_resultTies: ties[0 .. tieCount-1], owned (NULL when 0) */
	cliTie* ties;
	char* problem; /* owned: why the record could not be read whole, or NULL */
	long problemLine; /* ... and where (its first problem) */
	long problemColumn;
} cliResult;

/* What an input that holds no result is (cliResultSet.shape). */
typedef enum cliResultsShape {
	cli_shapeRecords = 0,  /* it holds records (or is not known to be empty) */
	cli_shapeEmptyFile,    /* nothing but white space (and a byte order mark) */
	cli_shapeHeaderOnly    /* a CSV header and no row, or an empty JSON array or results list */
} cliResultsShape;

/* How a submission was read (the tolerant reader, results_table.c): what
 * a teacher checks in one look, as data. */
typedef struct cliReading {
	bool read;        /* filled (a tolerant read) */
	char* note;       /* owned: in words, one line ("read as a JSON array of records; columns: ..."), or NULL */
	char* json;       /* owned: the same as one JSON object ({"container": ..., "columns": [...], ...}), or NULL */
	bool plain;       /* cast's own shape (its containers, its names, nothing inferred): no note in words needed */
	bool review;      /* the reading had to choose: a teacher should look */
	char* reviewWhy;  /* owned: why, or NULL */
} cliReading;

/* Every result of one file, in file order. */
typedef struct cliResultSet {
	cliInputFormat format; /* what was detected: cli_inputJson (document or array), Ndjson or Csv */
	bool document;         /* JSON: a cast document ({"results": [...]}) rather than an array */
	long count;
	cliResult* results;    /* owned */
	long problems;         /* results with a problem */
	char* ignored;         /* owned, tolerant reading only: the columns or keys no field is read from,
	                          ", " between them, or NULL */
	cliResultsShape shape; /* what the input held when it held no record (empty file, header only) */
	bool positional;       /* no record carried an id: results are in file order, to be matched by
	                          position (result k answers trajectory k) */
	char understood[160];  /* strict reading: a CSV separated by other than ',' says so ("read as CSV
	                          separated by ';' with decimal commas"), or "" */
	cliReading reading;    /* tolerant reading: how the file was read, in full */
} cliResultSet;

/* How a submission is read for grading (cliReadResultsWith). */
typedef struct cliResultsReadOptions {
	/* Tolerant: the file is read as a student's (results_table.h): whole,
	 * reduced to a table of records whatever its container (JSON in any
	 * orientation, printed literals, text in columns with its separator
	 * sniffed, keys and values), its columns told by map, then by their
	 * names in any case and spelling (t, toi, hit_time, nx, face_id ...),
	 * its cells read as students write values (yes/no, WAHR, 0,25, 25%,
	 * "[x, y, z]", NaN). Only the problems of graded fields are kept (and
	 * those of the record itself: broken JSON, a row too long, its id): an
	 * ungraded field may hold anything and is then just absent; so are a
	 * miss's fields but hit and alpha. The keys and columns read from
	 * nothing are named in ignored; how the file was read is in the set's
	 * reading. Not tolerant: cast's own formats, strictly, streamed. */
	bool tolerant;
	unsigned graded;        /* cli_result* bits whose problems are kept */
	const char* const* map; /* pairs: their name, then ours (a key or column reader knows) */
	int mapCount;           /* pairs in map */
} cliResultsReadOptions;

/* Read a whole stream of results (not closed here). The format comes from
 * the content: after an optional UTF-8 byte order mark and white space, '['
 * is a JSON array of result objects; '{' is either a document (a top-level
 * object with a "results" array; its other keys are ignored, and nothing
 * but white space may follow it) or the first of a sequence of result
 * objects (NDJSON); anything else is CSV whose header names the columns
 * (cli/results_write.c); empty input is no results. The input is read in
 * chunks, so memory is what the results take, not the text. On success
 * fills *set (free it with cliResultSet_Free) and returns true. When the
 * input cannot be read on returns false with *set empty (but for its
 * format and document, what the input was taken for) and error holding
 * the code (bc_errorSyntax, bc_errorIo, bc_errorNoMemory), the 1-based line
 * and byte column, and a message without the file name. */
bool cliReadResults(FILE* stream, cliResultSet* set, bcError* error);

/* cliReadResults as options say (NULL: as cliReadResults). A tolerant
 * read holds the whole input in memory (up to 1 GiB). */
bool cliReadResultsWith(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error);

/* cliReadResultsWith (tolerant) as grade reads a submission: columns no
 * name says are also told by their values (table_infer.h), the triangle
 * below triangleCount (the mesh's; 0 when not known). */
bool cliReadSubmission(FILE* stream, const cliResultsReadOptions* options, int32_t triangleCount, cliResultSet* set,
					   bcError* error);

/* cliReadResultsWith's strict reading (cast's own formats, streamed),
 * for a non-tolerant options or NULL. */
bool cliReadResultsStrict(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error);

/* A stream over text[0 .. length) (an empty one when length is 0); NULL
 * with *set zeroed and error filled when out of memory. */
FILE* cliOpenText(const char* text, size_t length, cliResultSet* set, bcError* error);

/* Free what a reading owns and zero it. */
void cliReading_Free(cliReading* reading);

/* The key a name stands for through options' map, or name itself. */
const char* cliResultsReadOptions_CanonicalName(const cliResultsReadOptions* options, const char* name);

/* The same over text in memory (need not be NUL terminated). */
bool cliParseResults(const char* text, size_t length, cliResultSet* set, bcError* error);

/* cliParseResults as options say (NULL: as cliParseResults). */
bool cliParseResultsWith(const char* text, size_t length, const cliResultsReadOptions* options, cliResultSet* set,
						 bcError* error);

/* Free what the set owns and zero it. */
void cliResultSet_Free(cliResultSet* set);

/* The first result with a problem, as an error (code bc_errorSyntax, its
 * place and message); false when none has one. */
bool cliResultSet_FirstProblem(const cliResultSet* set, bcError* error);

/* The key two results' ids are matched by, as a new string the caller
 * frees (NULL when out of memory). Ids are JSON values, compared as such,
 * except that a string (or CSV cell) that reads as a JSON number is that
 * number: CSV cannot tell 3 from "3", and cast writes both as 3. Numbers are
 * equal when their decimal values are: 3, 3.0, 30e-1 and "3" are one id;
 * 9007199254740993 and 9007199254740992 are two (no rounding to double).
 * Other strings are equal when their bytes are. A result without an id has
 * its index as a number, as cast writes it. */
char* cliResult_IdKey(const cliResult* result);

/* The id as a JSON value for messages: the number's text as written, the
 * string quoted and escaped, or the index. */
void cliWriteResultIdJson(FILE* f, const cliResult* result);

#endif
