/* results_parse.h - the state a results reader keeps while it reads one
 * file (results_parse.c), shared by the per-format record readers
 * (results_json.c, results_csv.c) and the entry points (results_read.c).
 * Private to those files: the public face is results_read.h. */
#ifndef BC_RESULTS_PARSE_H
#define BC_RESULTS_PARSE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "input.h"
#include "json_stream.h"
#include "results_read.h"

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

/* The CSV columns read: cast's, then a trajectory's. */
typedef enum cliCsvColumn {
	cli_csvId = 0,
	cli_csvHit,
	cli_csvAlpha,
	cli_csvInitialOverlap,
	cli_csvFeature,
	cli_csvTriangle,
	cli_csvFace,
	cli_csvVertex0,
	cli_csvVertex1,
	cli_csvVertex2,
	cli_csvPointX,
	cli_csvCenterX = cli_csvPointX + 3,
	cli_csvNormalX = cli_csvCenterX + 3,
	cli_csvTriangleNormalX = cli_csvNormalX + 3,
	cli_csvError = cli_csvTriangleNormalX + 3,
	cli_csvTies,
	cli_csvX0,
	cli_csvX1 = cli_csvX0 + 3,
	cli_csvCount = cli_csvX1 + 3
} cliCsvColumn;

/* The CSV column names, in cliCsvColumn's order (cast's spellings). */
extern const char* const cliResultColumns[cli_csvCount];

/* The six vectors of a result: point, center, normal, triangle_normal, p0,
 * p1, with their first CSV column and their field. */
extern const cliCsvVector cliResultVectors[6];

/* The reader of one results file: its input through both front ends, the
 * set it fills (not owned), and what it noted on the way. Lives on
 * readAll's stack in results_read.c. */
typedef struct cliResultsReader {
	cliInput input;
	cliJsonStream json;
	cliCsv csv;
	cliJsonParser* parser;
	cliResultSet* set;
	long capacity;
	bool noMemory;
	int headerCount;
	int columnOf[cli_csvCount];
	const cliResultsReadOptions* options; /* NULL: strict */
	unsigned field;   /* tolerant: the field being read (0: the record itself) */
	char* ignored;    /* tolerant: names read from nothing */
	size_t ignoredLength;
	int ignoredCount;
	long decimalCommas;   /* CSV: numbers read that were written with a decimal comma */
} cliResultsReader;

/* An ASCII decimal digit (not locale-dependent, as isdigit is). */
static inline bool cliIsDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* A whole number in int32_t range, from a finite double. */
static inline bool cliWholeInt32(double value, int32_t* out)
{
	if (!(value >= (double)INT32_MIN && value <= (double)INT32_MAX) || floor(value) != value) {
		return false;
	}
	*out = (int32_t)value;
	return true;
}

/* Vector v of r (0 .. 5, in cliResultVectors' order). */
bcVec3* cliResult_Vector(cliResult* r, int v);

/* Remember a name read from nothing (tolerant), once; the first
 * CLI_IGNORED_NAMES, then "...". */
void cliResultsReader_Ignore(cliResultsReader* reader, const char* name);

/* Keep the first problem of a result, with where it is (none for a field
 * a tolerant reader does not grade). */
CLI_PRINTF(5, 6)
void cliResultsReader_Problem(cliResultsReader* reader, cliResult* r, long line, long column, const char* format, ...);

/* A new zeroed result at the end of the set, or NULL when out of memory
 * (noMemory set). */
cliResult* cliResultsReader_Append(cliResultsReader* reader);

/* Append a copy of tie to r's ties; false when out of memory (noMemory set). */
bool cliResultsReader_AppendTie(cliResultsReader* reader, cliResult* r, const cliTie* tie);

/* The feature named name ("none", "face", "edge", "vertex"); false for any
 * other name. */
bool cliParseFeatureName(const char* name, bcFeature* feature);

/* Drop the ties read so far (the ties field has a problem). */
void cliResult_DropTies(cliResult* r);

/* The rules of the columns that spell a field out, as the CSV and the
 * tolerant readers apply them. A status is what reading one cell gave: 1 a
 * number, 0 empty or missing, -1 a problem already told. */

/* vertex_0 .. vertex_2, one at a time, status that of the cell just read
 * into r->vertices[r->vertexCount]: the vertices are the leading cells
 * given. One given after an empty or missing one (*gap) is dropped and
 * false returned: the caller tells CLI_VERTEX_AFTER_GAP at its cell. */
bool cliResult_TakeVertex(cliResult* r, int status, bool* gap);
#define CLI_VERTEX_AFTER_GAP "%s: given after an empty or missing vertex column"

/* A vector's three components, read with statuses got[]: 1 when all three
 * are given, 0 when none is or one had its problem told, -1 when some are
 * given and some are empty (the caller tells CLI_VECTOR_PARTIAL). */
static inline int cliVectorStatus(const int got[3])
{
	if (got[0] < 0 || got[1] < 0 || got[2] < 0) {
		return 0;
	}
	return got[0] != got[1] || got[0] != got[2] ? -1 : got[0];
}
#define CLI_VECTOR_PARTIAL "%s: %s, %s and %s must be all given or all empty"

/* Append to r the ties CSV writes in one cell, "3:edge 4:vertex"
 * (triangle:feature pairs separated by blanks): 1; 0 when text is not
 * that (r's ties dropped: the caller says so); -1 when out of memory. */
int cliResultsReader_TiesText(cliResultsReader* reader, cliResult* r, const char* text);

#endif
