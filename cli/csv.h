/* csv.h - the one CSV reader (RFC 4180): rows of cells over an input, with
 * the line and column of every cell. Cells are separated by ',' unless the
 * reader is told another separator (';', a tab or '|', as spreadsheets
 * export; cliCsv_SniffSeparator tells it from a header line). Cells may be
 * quoted ("..." with "" for a quote, line breaks allowed); an unquoted cell
 * loses the blanks around it (space, tab unless tab separates, CR), a
 * quoted one keeps its text, and text after its closing quote is kept
 * without blanks. Rows that are blank are skipped. */
#ifndef BC_CSV_H
#define BC_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "ballcast.h"
#include "input.h"

/* The longest row read. Real rows are well under 1 KiB; the limit stops an
 * unclosed quote from pulling the rest of a multi-gigabyte file into
 * memory. (A build may set it smaller: the fuzz target of the limits,
 * tests/fuzz/fuzz_limits.c, does.) */
#ifndef CLI_CSV_MAX_ROW
#define CLI_CSV_MAX_ROW ((size_t)16 * 1024 * 1024)
#endif

/* One cell of the current row. */
typedef struct cliCsvCell {
	size_t text;   /* its decoded text in the row's scratch, NUL terminated */
	size_t length;
	long line;     /* where its text (or opening quote) starts, blanks skipped */
	long column;
} cliCsvCell;

/* Why a row came back bad (cliCsv_Next returned 2). */
typedef enum cliCsvProblem {
	cli_csvProblemNone = 0,
	cli_csvProblemNul,   /* a NUL byte in a cell */
	cli_csvProblemUtf8,  /* bytes in a cell that are not UTF-8 */
	cli_csvProblemQuote  /* a quoted cell the input ends in */
} cliCsvProblem;

typedef struct cliCsv {
	cliInput* input; /* not owned */
	char separator;    /* between cells: ',' (set by cliCsv_Open), ';', '\t' or '|' */
	bool decimalComma; /* numbers may write their decimal point as ',' ("0,25"; with ';' or a tab) */
	cliCsvCell* cells;
	int count;
	int capacity;
	char* scratch;
	size_t scratchCapacity;
	long line;       /* where the row starts */
	long column;
	long endLine;    /* where its last cell ends */
	long endColumn;
	cliCsvProblem problem; /* why the row is bad (after cliCsv_Next returned 2) */
	int problemCell;       /* the cell that holds the NUL or the bytes, or -1 */
	char problemBytes[32]; /* those bytes, for a message: "byte 0xFF" */
} cliCsv;

/* Start reading rows from input, separated by ','. */
void cliCsv_Open(cliCsv* csv, cliInput* input);

/* Free what the reader holds and zero it (the input is not closed). */
void cliCsv_Close(cliCsv* csv);

/* The separator of the first line of the unread input (looked at, not
 * consumed; at most CLI_CSV_SNIFF_BYTES of it): whichever of ',', ';', tab
 * and '|' occurs most often outside quotes, ',' on a tie or when none
 * does. 0 on a read error (error filled). */
char cliCsv_SniffSeparator(cliCsv* csv, bcError* error);

/* How a separator reads in a message: "','", "';'", "tabs", "'|'". */
const char* cliSeparatorName(char separator);

/* How much of a header line cliCsv_SniffSeparator looks at: headers are
 * short; a longer first line is judged by its start. (A build may set it
 * smaller: the fuzz target of the limits does.) */
#ifndef CLI_CSV_SNIFF_BYTES
#define CLI_CSV_SNIFF_BYTES ((size_t)64 * 1024)
#endif

/* Read the next row that is not blank: 1 for a row, 0 at the end of the
 * input, -1 on a read error, out of memory or a row longer than
 * CLI_CSV_MAX_ROW (error filled). A row that cannot be read as it stands
 * is 2, with problem saying where and why (csv->problem and problemCell
 * too): a NUL byte in a cell ("unexpected byte 0x00 in a CSV cell": cells
 * are handed on as C strings, so "0.5<NUL>junk" would read as 0.5), bytes
 * in a cell that are not UTF-8 ("a cell is not valid UTF-8 (byte 0xFF)",
 * at the first of them; ids and messages are echoed into JSON, which must
 * be UTF-8), or a quoted cell the input ends in; the row is skipped then
 * (to its end, or the end of the input). A cell's C string ends at its
 * first NUL, and at bytes that are not UTF-8 (a NUL is put there): its
 * length is then more than strlen of its text, and it is not to be taken
 * whole. */
int cliCsv_Next(cliCsv* csv, bcError* problem, bcError* error);

/* Word the problem of a bad row (csv->problem cli_csvProblemUtf8) for its
 * column, named by the reader: "id: not valid UTF-8 (byte 0xFF)"; NULL
 * column: "a cell is not valid UTF-8 (...)". Other problems keep their
 * message. */
void cliCsv_DescribeProblem(const cliCsv* csv, const char* column, bcError* problem);

/* The decoded text of cell k of the current row. */
static inline const char* cliCsv_Text(const cliCsv* csv, int k)
{
	return csv->scratch + csv->cells[k].text;
}

/* Does cell k hold a number written with a decimal comma ("0,25"; only
 * with decimalComma)? */
bool cliCsv_HasDecimalComma(const cliCsv* csv, int k);

/* Which header cell holds each of the count known column names: columnOf[k]
 * is the cell named names[k], or -1. 1 when at least one is known, 0 when
 * none is, -1 for a name given twice (error filled, at the second). */
int cliCsv_MapHeader(const cliCsv* csv, const char* const* names, int count, int* columnOf, bcError* error);

/* A 3-vector as a reader knows it: its JSON key, the first of its three
 * CSV columns (an index into the reader's column names) and the bit that
 * says a record gave it. */
typedef struct cliCsvVector {
	const char* key;
	int first;
	unsigned field;
} cliCsvVector;

/* A vector counts only when all three of its columns are in the header:
 * forget (set to -1 in columnOf) the columns of each that is not whole. */
void cliKeepWholeVectors(int* columnOf, const cliCsvVector* vectors, int count);

/* The number in cell k (blanks around it allowed), as strtod reads it in
 * the C locale (with decimalComma, one ',' in place of the '.' too: "0,25"
 * is 0.25): 1, 0 for an empty cell, -1 when it is not a number, -2 when
 * it is not finite (NaN, an infinity, an overflow). */
int cliCsv_Number(const cliCsv* csv, int k, double* value);

/* cliCsv_Number for the field name in cell k: 1, 0 for an empty cell, or
 * -1 with problem filled at the cell ("NAME: expected a number, found
 * '...'" or "NAME: not a finite number"). */
int cliCsv_Field(const cliCsv* csv, int k, const char* name, double* value, bcError* problem);

/* Fill error with a syntax error at cell k ("" message arguments as for
 * printf). Returns error. */
bcError* cliCsv_CellError(const cliCsv* csv, int k, bcError* error, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

#endif
