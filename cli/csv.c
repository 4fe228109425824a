/* csv.c - the one CSV reader (csv.h). */
#include "csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* An ASCII decimal digit (not locale-dependent, as isdigit is). */
static bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}


/* Cells a row starts with room for; the array doubles from there. */
#define CLI_CSV_FIRST_CELLS 16

void cliCsv_Open(cliCsv* csv, cliInput* input)
{
	memset(csv, 0, sizeof *csv);
	csv->input = input;
	csv->separator = ',';
}

void cliCsv_Close(cliCsv* csv)
{
	free(csv->cells);
	free(csv->scratch);
	memset(csv, 0, sizeof *csv);
}

static bool isCellSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A blank around a cell: a tab is none when it separates cells. */
static bool isBlank(const cliCsv* csv, char c)
{
	return c == ' ' || c == '\r' || (c == '\t' && csv->separator != '\t');
}

char cliCsv_SniffSeparator(cliCsv* csv, bcError* error)
{
	cliInput* in = csv->input;
	static const char candidates[] = { ',', ';', '\t', '|' };
	for (;;) {
		const char* s = in->buffer + in->start;
		size_t n = in->length - in->start;
		size_t limit = n < CLI_CSV_SNIFF_BYTES ? n : CLI_CSV_SNIFF_BYTES;
		size_t counts[sizeof candidates] = { 0 };
		bool quoted = false;
		size_t i = 0;
		for (; i < limit && (quoted || s[i] != '\n'); ++i) {
			if (s[i] == '"') {
				quoted = !quoted;
			}
			for (size_t k = 0; k < sizeof candidates && !quoted; ++k) {
				counts[k] += s[i] == candidates[k];
			}
		}
		if (i == limit && limit < CLI_CSV_SNIFF_BYTES && !in->eof) {
			int status = cliInput_Fill(in, error);
			if (status < 0) {
				return 0;
			}
			continue; /* the line goes on: look again with more of it */
		}
		size_t best = 0;
		for (size_t k = 1; k < sizeof candidates; ++k) {
			best = counts[k] > counts[best] ? k : best;
		}
		return candidates[best];
	}
}

const char* cliSeparatorName(char separator)
{
	return separator == ';' ? "';'" : separator == '\t' ? "tabs" : separator == '|' ? "'|'" : "','";
}

bool cliCsv_HasDecimalComma(const cliCsv* csv, int k)
{
	if (!csv->decimalComma) {
		return false;
	}
	const char* p = cliCsv_Text(csv, k);
	const char* comma = strchr(p, ',');
	return comma != NULL && strchr(comma + 1, ',') == NULL && strchr(p, '.') == NULL &&
		   comma > p && isDigit(comma[-1]) && isDigit(comma[1]);
}

bcError* cliCsv_CellError(const cliCsv* csv, int k, bcError* error, const char* format, ...)
{
	memset(error, 0, sizeof *error);
	error->code = bc_errorSyntax;
	error->record = -1;
	error->line = csv->cells[k].line;
	error->column = csv->cells[k].column;
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
	return error;
}

int cliCsv_MapHeader(const cliCsv* csv, const char* const* names, int count, int* columnOf, bcError* error)
{
	for (int k = 0; k < count; ++k) {
		columnOf[k] = -1;
	}
	bool known = false;
	for (int j = 0; j < csv->count; ++j) {
		const char* name = cliCsv_Text(csv, j);
		for (int k = 0; k < count; ++k) {
			if (strcmp(name, names[k]) != 0) {
				continue;
			}
			if (columnOf[k] >= 0) {
				cliCsv_CellError(csv, j, error, "duplicate column '%s' in the CSV header", name);
				return -1;
			}
			columnOf[k] = j;
			known = true;
		}
	}
	return known ? 1 : 0;
}

void cliKeepWholeVectors(int* columnOf, const cliCsvVector* vectors, int count)
{
	for (int v = 0; v < count; ++v) {
		int* of = columnOf + vectors[v].first;
		if (of[0] < 0 || of[1] < 0 || of[2] < 0) {
			of[0] = of[1] = of[2] = -1;
		}
	}
}

int cliCsv_Number(const cliCsv* csv, int k, double* value)
{
	const char* p = cliCsv_Text(csv, k);
	while (isCellSpace(*p)) {
		p++;
	}
	const char* last = p + strlen(p);
	while (last > p && isCellSpace(last[-1])) {
		last--;
	}
	if (p == last) {
		return 0;
	}
	char decimalPoint[64];
	if (cliCsv_HasDecimalComma(csv, k) && (size_t)(last - p) < sizeof decimalPoint) {
		/* "0,25": the same number with its point */
		size_t n = (size_t)(last - p);
		memcpy(decimalPoint, p, n);
		decimalPoint[n] = '\0';
		*strchr(decimalPoint, ',') = '.';
		p = decimalPoint;
		last = p + n;
	}
	double x = 0.0;
	if (!bcParseDouble(p, (size_t)(last - p), &x)) {
		return -1;
	}
	if (!isfinite(x)) {
		return -2;
	}
	*value = x;
	return 1;
}

int cliCsv_Field(const cliCsv* csv, int k, const char* name, double* value, bcError* problem)
{
	int status = cliCsv_Number(csv, k, value);
	if (status == -1) {
		char quoted[CLI_QUOTE_SIZE];
		const char* text = cliCsv_Text(csv, k);
		cliQuoteText(text, strlen(text), quoted, sizeof quoted);
		cliCsv_CellError(csv, k, problem, "%s: expected a number, found '%s'", name, quoted);
	} else if (status == -2) {
		cliCsv_CellError(csv, k, problem, "%s: not a finite number", name);
	}
	return status < 0 ? -1 : status;
}

void cliCsv_DescribeProblem(const cliCsv* csv, const char* column, bcError* problem)
{
	if (csv->problem != cli_csvProblemUtf8) {
		return;
	}
	if (column != NULL) {
		snprintf(problem->message, sizeof problem->message, "%s: not valid UTF-8 (%s)", column, csv->problemBytes);
	} else {
		snprintf(problem->message, sizeof problem->message, "a cell is not valid UTF-8 (%s)", csv->problemBytes);
	}
}

typedef enum cliRowResult {
	cli_rowComplete,
	cli_rowIncomplete,   /* the bytes end inside the row */
	cli_rowUnterminated, /* a quoted cell runs to the end of the input */
	cli_rowNoMemory
} cliRowResult;

/* Where the scan is: offsets into the unread input and the line of each. */
typedef struct cliRowScan {
	const char* s;
	size_t n;
	size_t i;
	long line;        /* line of s[i] */
	size_t lineStart; /* offset where that line starts (0: the row's first line) */
	long firstColumn; /* column of s[0] */
} cliRowScan;

static void setPosition(const cliRowScan* scan, size_t at, long* line, long* column)
{
	*line = scan->line;
	*column = scan->lineStart == 0 ? scan->firstColumn + (long)at : (long)(at - scan->lineStart) + 1;
}

static void step(cliRowScan* scan)
{
	if (scan->s[scan->i++] == '\n') {
		scan->line += 1;
		scan->lineStart = scan->i;
	}
}

/* What makes a row unreadable as it stands: the first NUL byte in a cell,
 * the first bytes that are not UTF-8, an unterminated quote (offsets into
 * the row, SIZE_MAX when none). */
typedef struct cliRowFlaws {
	size_t nul;
	long nulLine, nulColumn;
	int nulCell;
	size_t bad;
	long badLine, badColumn;
	int badCell;
	char badBytes[4];
	int badShown;
	size_t quote;
} cliRowFlaws;

/* Bytes taken from a row, and written into a cell's text. */
typedef struct cliTaken {
	size_t in;
	size_t out;
} cliTaken;

/* A byte that needs a look: a NUL, or one of 0x80 .. 0xFF (one test for
 * both: c - 1 wraps to 0xFF for a NUL). */
static inline bool isRare(char c)
{
	return (unsigned char)((unsigned char)c - 1) >= 0x7F;
}

/* A rare byte at s[scan.i] of cell. A NUL: taken as it is, the row's first
 * noted. 0x80 .. 0xFF: the UTF-8 character's 1 .. 4 bytes taken and written
 * at out, or, for bytes that are not UTF-8, 1 byte taken and a NUL written
 * (so that the cell's C string ends there, as at a NUL byte), the row's
 * first noted. (The scan is a copy: the caller's stays in registers.) */
static cliTaken takeRare(cliRowScan scan, bool eof, char* out, cliRowFlaws* flaws, int cell)
{
	const char* s = scan.s;
	size_t i = scan.i;
	if (s[i] == '\0') {
		if (flaws->nul == SIZE_MAX) {
			flaws->nul = i;
			flaws->nulCell = cell;
			setPosition(&scan, i, &flaws->nulLine, &flaws->nulColumn);
		}
		out[0] = '\0';
		return (cliTaken){ 1, 1 };
	}
	int shown = 0;
	int k = cliUtf8Length(s + i, scan.n - i, &shown);
	if (k == 0 && i + (size_t)shown >= scan.n && !eof) {
		k = 1; /* cut by the end of what is read: the row is read again with more */
	}
	if (k > 0) {
		memcpy(out, s + i, (size_t)k);
		return (cliTaken){ (size_t)k, (size_t)k };
	}
	if (flaws->bad == SIZE_MAX) {
		flaws->bad = i;
		flaws->badCell = cell;
		flaws->badShown = shown;
		memcpy(flaws->badBytes, s + i, (size_t)shown);
		setPosition(&scan, i, &flaws->badLine, &flaws->badColumn);
	}
	out[0] = '\0';
	return (cliTaken){ 1, 1 };
}

/* Copy the unquoted bytes of cell from s[scan->i] to the separator or the
 * line's end into out[o ..) (without blanks when dropBlanks); the new o.
 * (Works on a copy of the scan, written back at the end, so that it stays
 * in registers.) */
static inline size_t copyUnquoted(const cliCsv* csv, cliRowScan* at, bool eof, char* out, size_t o, cliRowFlaws* flaws,
						   int cell, bool dropBlanks)
{
	cliRowScan scan = *at;
	const char* s = scan.s;
	const char sep = csv->separator != '\0' ? csv->separator : ',';
	while (scan.i < scan.n && s[scan.i] != sep && s[scan.i] != '\n') {
		char c = s[scan.i];
		if (isRare(c)) {
			cliTaken taken = takeRare(scan, eof, out + o, flaws, cell);
			scan.i += taken.in;
			o += taken.out;
			continue;
		}
		if (!dropBlanks || !isBlank(csv, c)) {
			out[o++] = c;
		}
		scan.i++;
	}
	at->i = scan.i;
	return o;
}

/* Decode the row at the unread input into csv->cells. *length gets the
 * row's bytes with its line end; flaws what makes it unreadable. */
static cliRowResult scanRow(cliCsv* csv, size_t* length, cliRowFlaws* flaws)
{
	cliInput* in = csv->input;
	cliRowScan scan = { in->buffer + in->start, in->length - in->start, 0, in->line, 0, in->column };
	const char* s = scan.s;
	size_t n = scan.n;
	if (csv->scratchCapacity < n + 1) {
		char* scratch = realloc(csv->scratch, n + 1);
		if (scratch == NULL) {
			return cli_rowNoMemory;
		}
		csv->scratch = scratch;
		csv->scratchCapacity = n + 1;
	}
	char* out = csv->scratch;
	size_t o = 0;
	flaws->nul = SIZE_MAX;
	flaws->bad = SIZE_MAX;
	flaws->quote = SIZE_MAX;
	csv->count = 0;
	for (;;) {
		if (csv->count == csv->capacity) {
			int capacity = csv->capacity > 0 ? 2 * csv->capacity : CLI_CSV_FIRST_CELLS;
			cliCsvCell* cells = realloc(csv->cells, (size_t)capacity * sizeof *cells);
			if (cells == NULL) {
				return cli_rowNoMemory;
			}
			csv->cells = cells;
			csv->capacity = capacity;
		}
		int k = csv->count++;
		cliCsvCell* cell = csv->cells + k;
		while (scan.i < n && s[scan.i] != '\r' && isBlank(csv, s[scan.i])) {
			scan.i++;
		}
		cell->text = o;
		setPosition(&scan, scan.i, &cell->line, &cell->column);
		if (scan.i < n && s[scan.i] == '"') {
			size_t open = scan.i++;
			for (;;) {
				if (scan.i >= n) {
					if (in->eof) {
						/* the cell as far as it goes, so that every cell has its text */
						cell->length = o - cell->text;
						out[o] = '\0';
						flaws->quote = open;
						*length = n;
						return cli_rowUnterminated;
					}
					return cli_rowIncomplete;
				}
				char c = s[scan.i];
				if (c == '"') {
					if (scan.i + 1 >= n && !in->eof) {
						return cli_rowIncomplete;
					}
					if (scan.i + 1 < n && s[scan.i + 1] == '"') {
						out[o++] = '"';
						scan.i += 2;
						continue;
					}
					scan.i++;
					break;
				}
				if (isRare(c)) {
					cliTaken taken = takeRare(scan, in->eof, out + o, flaws, k);
					scan.i += taken.in;
					o += taken.out;
					continue;
				}
				out[o++] = c;
				step(&scan);
			}
			o = copyUnquoted(csv, &scan, in->eof, out, o, flaws, k, true); /* text after the closing quote */
		} else {
			o = copyUnquoted(csv, &scan, in->eof, out, o, flaws, k, false);
			while (o > cell->text && isBlank(csv, out[o - 1])) {
				o--;
			}
		}
		cell->length = o - cell->text;
		out[o++] = '\0';
		if (scan.i >= n && !in->eof) {
			return cli_rowIncomplete;
		}
		if (scan.i >= n || s[scan.i] == '\n') {
			size_t end = scan.i;
			while (end > 0 && scan.lineStart < end && s[end - 1] == '\r') {
				end--;
			}
			setPosition(&scan, end, &csv->endLine, &csv->endColumn);
			*length = scan.i < n ? scan.i + 1 : scan.i;
			return cli_rowComplete;
		}
		scan.i++; /* the separator */
	}
}

int cliCsv_Next(cliCsv* csv, bcError* problem, bcError* error)
{
	cliInput* in = csv->input;
	for (;;) {
		if (in->start == in->length) {
			int status = cliInput_Fill(in, error);
			if (status <= 0) {
				return status;
			}
			continue;
		}
		size_t length = 0;
		cliRowFlaws flaws;
		cliRowResult result = scanRow(csv, &length, &flaws);
		if (result == cli_rowNoMemory) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorNoMemory;
			error->record = -1;
			snprintf(error->message, sizeof error->message, "out of memory");
			return -1;
		}
		if (result == cli_rowIncomplete) {
			if (in->length - in->start >= CLI_CSV_MAX_ROW) {
				char message[96];
				snprintf(message, sizeof message, "CSV row longer than %zu bytes (an unclosed quote?)", CLI_CSV_MAX_ROW);
				return cliInput_SyntaxError(in, 0, message, error);
			}
			if (cliInput_Fill(in, error) < 0) {
				return -1;
			}
			continue;
		}
		csv->line = in->line;
		csv->column = in->column;
		csv->problem = cli_csvProblemNone;
		csv->problemCell = -1;
		size_t first = flaws.nul < flaws.bad ? flaws.nul : flaws.bad;
		if (result == cli_rowUnterminated && flaws.quote < first) {
			csv->problem = cli_csvProblemQuote;
			cliInput_SyntaxError(in, flaws.quote, "unterminated quoted cell", problem);
		} else if (first != SIZE_MAX && first == flaws.nul) {
			csv->problem = cli_csvProblemNul;
			csv->problemCell = flaws.nulCell;
			cliInput_SyntaxError(in, 0, "unexpected byte 0x00 in a CSV cell", problem);
			problem->line = flaws.nulLine;
			problem->column = flaws.nulColumn;
		} else if (first != SIZE_MAX) {
			csv->problem = cli_csvProblemUtf8;
			csv->problemCell = flaws.badCell;
			cliDescribeBytes(flaws.badBytes, flaws.badShown, csv->problemBytes, sizeof csv->problemBytes);
			cliInput_SyntaxError(in, 0, "", problem);
			cliCsv_DescribeProblem(csv, NULL, problem);
			problem->line = flaws.badLine;
			problem->column = flaws.badColumn;
		}
		if (csv->problem != cli_csvProblemNone) {
			cliInput_Advance(in, length);
			return 2;
		}
		const char* s = in->buffer + in->start;
		bool blank = true;
		for (size_t i = 0; i < length && blank; i++) {
			blank = s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n';
		}
		cliInput_Advance(in, length);
		if (!blank) {
			return 1;
		}
	}
}
