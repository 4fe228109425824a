/* results_csv.c - results read strictly from CSV (results_csv.h): the
 * header's columns (cast's names, or --map's), the separator and decimal
 * commas, and each row's cells as a result, through the one CSV reader
 * (csv.c). A student's file is read the tolerant way (results_table.c). */
#include "results_csv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "output.h"

/* A problem at cell column. */
CLI_PRINTF(4, 5)
static bool cellProblem(cliResultsReader* reader, cliResult* r, int column, const char* format, ...)
{
	const cliCsvCell* cell = reader->csv.cells + reader->columnOf[column];
	char message[sizeof ((bcError*)NULL)->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	cliResultsReader_Problem(reader, r, cell->line, cell->column, "%s", message);
	return false;
}

static const char* cellText(const cliResultsReader* reader, int column)
{
	return cliCsv_Text(&reader->csv, reader->columnOf[column]);
}

/* A cell's number: 1, 0 when empty, -1 with a problem. */
static int cellNumber(cliResultsReader* reader, cliResult* r, int column, double* value)
{
	bcError bad;
	int status = cliCsv_Field(&reader->csv, reader->columnOf[column], cliResultColumns[column], value, &bad);
	if (status < 0) {
		cliResultsReader_Problem(reader, r, bad.line, bad.column, "%s", bad.message);
	}
	reader->decimalCommas += status > 0 && cliCsv_HasDecimalComma(&reader->csv, reader->columnOf[column]);
	return status;
}

static int cellWhole(cliResultsReader* reader, cliResult* r, int column, int32_t* value)
{
	double x = 0.0;
	int status = cellNumber(reader, r, column, &x);
	if (status > 0 && !cliWholeInt32(x, value)) {
		cellProblem(reader, r, column, "%s: expected a whole number (a 32-bit integer), found '%.*s'",
					cliResultColumns[column], CLI_QUOTE_MAX, cellText(reader, column));
		return -1;
	}
	return status;
}

/* true/false in any case, or 1/0 (what spreadsheets and Python write). */
static int cellBool(cliResultsReader* reader, cliResult* r, int column, bool* value)
{
	static const char* const names[] = { "false", "true" };
	const char* text = cellText(reader, column);
	if (text[0] == '\0') {
		return 0;
	}
	for (int b = 0; b < 2; ++b) {
		size_t n = strlen(names[b]);
		bool same = strlen(text) == n;
		for (size_t i = 0; same && i < n; ++i) {
			same = (text[i] | 0x20) == names[b][i];
		}
		if (same || (text[0] == '0' + b && text[1] == '\0')) {
			*value = b == 1;
			return 1;
		}
	}
	cellProblem(reader, r, column, "%s: expected true or false, found '%.*s'", cliResultColumns[column], CLI_QUOTE_MAX,
				text);
	return -1;
}

/* "3:edge 4:vertex": triangle:feature pairs separated by spaces. */
static void cellTies(cliResultsReader* reader, cliResult* r)
{
	const char* text = cellText(reader, cli_csvTies);
	if (cliResultsReader_TiesText(reader, r, text) == 0) {
		cellProblem(reader, r, cli_csvTies, "ties: expected triangle:feature pairs separated by spaces, found '%.*s'",
					CLI_QUOTE_MAX, text);
	}
}

/* The id from the id cell (none when empty). */
static void cellId(cliResultsReader* reader, cliResult* r)
{
	if (reader->columnOf[cli_csvId] < 0 || reader->columnOf[cli_csvId] >= reader->csv.count) {
		return;
	}
	const cliCsvCell* cell = reader->csv.cells + reader->columnOf[cli_csvId];
	const char* text = cellText(reader, cli_csvId);
	size_t length = cell->length;
	if (length == 0 || strlen(text) != length) {
		return;
	}
	if (text[0] == '\'' && cliStartsLikeFormula(text + 1)) {
		text++; /* the ' ballcast writes before an id that starts like a formula (output.h) */
		length--;
	}
	r->id = cliCopyText(text, length);
	reader->noMemory = reader->noMemory || r->id == NULL;
	r->idKind = r->id == NULL ? cli_idIndex : cliIsJsonNumber(text, length) ? cli_idNumber : cli_idString;
}

static void csvResult(cliResultsReader* reader, cliResult* r)
{
	const cliCsv* csv = &reader->csv;
	const int* of = reader->columnOf;
	cellId(reader, r);
	if (csv->count != reader->headerCount) {
		/* too many: at the first cell too many; too few: where the next would be */
		bool many = csv->count > reader->headerCount;
		cliResultsReader_Problem(reader, r, many ? csv->cells[reader->headerCount].line : csv->endLine,
				many ? csv->cells[reader->headerCount].column : csv->endColumn,
				"expected %d cells as in the header, found %d", reader->headerCount, csv->count);
		return;
	}
	/* in cast's order of columns, so that the first problem kept is the one a
	 * reader of cast's output meets first */
	reader->field = cli_resultHit;
	if (of[cli_csvHit] >= 0 && cellBool(reader, r, cli_csvHit, &r->hit) > 0) {
		r->fields |= cli_resultHit;
	}
	reader->field = cli_resultAlpha;
	if (of[cli_csvAlpha] >= 0 && cellNumber(reader, r, cli_csvAlpha, &r->alpha) > 0) {
		r->fields |= cli_resultAlpha;
	}
	reader->field = cli_resultInitialOverlap;
	if (of[cli_csvInitialOverlap] >= 0 && cellBool(reader, r, cli_csvInitialOverlap, &r->initialOverlap) > 0) {
		r->fields |= cli_resultInitialOverlap;
	}
	reader->field = cli_resultFeature;
	if (of[cli_csvFeature] >= 0 && cellText(reader, cli_csvFeature)[0] != '\0') {
		if (cliParseFeatureName(cellText(reader, cli_csvFeature), &r->feature)) {
			r->fields |= cli_resultFeature;
		} else {
			cellProblem(reader, r, cli_csvFeature, "feature: expected face, edge, vertex or none, found '%.*s'",
						CLI_QUOTE_MAX, cellText(reader, cli_csvFeature));
		}
	}
	reader->field = cli_resultTriangle;
	if (of[cli_csvTriangle] >= 0 && cellWhole(reader, r, cli_csvTriangle, &r->triangle) > 0) {
		r->fields |= cli_resultTriangle;
	}
	reader->field = cli_resultFace;
	if (of[cli_csvFace] >= 0 && cellWhole(reader, r, cli_csvFace, &r->face) > 0) {
		r->fields |= cli_resultFace;
	}
	/* vertex_0 .. vertex_2: the leading non-empty cells */
	reader->field = cli_resultVertices;
	bool gap = false;
	for (int k = 0; k < 3; ++k) {
		int column = cli_csvVertex0 + k;
		int status = of[column] < 0 ? 0 : cellWhole(reader, r, column, r->vertices + r->vertexCount);
		if (!cliResult_TakeVertex(r, status, &gap)) {
			cellProblem(reader, r, column, CLI_VERTEX_AFTER_GAP, cliResultColumns[column]);
		}
	}
	for (int v = 0; v < 6; ++v) {
		const cliCsvVector* vector = cliResultVectors + v;
		if (of[vector->first] < 0) {
			continue;
		}
		reader->field = vector->field;
		double values[3] = { 0.0, 0.0, 0.0 };
		int given[3];
		for (int a = 0; a < 3; ++a) {
			given[a] = cellNumber(reader, r, vector->first + a, values + a);
		}
		int status = cliVectorStatus(given);
		if (status < 0) {
			int empty = vector->first + (given[0] == 0 ? 0 : given[1] == 0 ? 1 : 2);
			cellProblem(reader, r, empty, CLI_VECTOR_PARTIAL, vector->key, cliResultColumns[vector->first],
						cliResultColumns[vector->first + 1], cliResultColumns[vector->first + 2]);
		} else if (status > 0) {
			*cliResult_Vector(r, v) = bcMakeVec3(values[0], values[1], values[2]);
			r->fields |= vector->field;
		}
	}
	reader->field = 0;
	if (of[cli_csvError] >= 0 && cellText(reader, cli_csvError)[0] != '\0') {
		r->error = cliCopyText(cellText(reader, cli_csvError), strlen(cellText(reader, cli_csvError)));
		reader->noMemory = reader->noMemory || r->error == NULL;
		r->fields |= r->error != NULL ? cli_resultError : 0;
	}
	if (of[cli_csvTies] >= 0) {
		reader->field = cli_resultTies;
		cellTies(reader, r);
	}
	reader->field = 0;
}

/* The header through --map's names: as cliCsv_MapHeader. */
static int mapHeader(cliResultsReader* reader, bcError* error)
{
	const cliCsv* csv = &reader->csv;
	for (int k = 0; k < cli_csvCount; ++k) {
		reader->columnOf[k] = -1;
	}
	int known = 0;
	for (int c = 0; c < csv->count; ++c) {
		const char* text = cliCsv_Text(csv, c);
		const char* name = cliResultsReadOptions_CanonicalName(reader->options, text);
		int k = 0;
		while (k < cli_csvCount && strcmp(name, cliResultColumns[k]) != 0) {
			k++;
		}
		if (k < cli_csvCount && reader->columnOf[k] < 0) {
			reader->columnOf[k] = c;
			known++;
		} else if (k < cli_csvCount) {
			cliCsv_CellError(csv, c, error, "duplicate column '%s' in the CSV header", text);
			return -1;
		}
	}
	return known > 0;
}

/* The header row as written (its cells joined by the separator), cut to
 * CLI_QUOTE_MAX bytes, bytes that are not printable as '?'. */
static void headerText(const cliCsv* csv, char* text, size_t size)
{
	size_t n = 0;
	for (int c = 0; c < csv->count && n + 1 < size && n < CLI_QUOTE_MAX; ++c) {
		if (c > 0) {
			text[n++] = csv->separator;
		}
		for (const char* p = cliCsv_Text(csv, c); *p != '\0' && n + 1 < size && n < CLI_QUOTE_MAX; ++p) {
			unsigned char b = (unsigned char)*p;
			text[n++] = b >= 0x20 && b < 0x7f ? (char)b : b == '\t' ? '\t' : '?';
		}
	}
	text[n] = '\0';
}

bool cliResultsReader_ReadCsv(cliResultsReader* reader, bcError* error)
{
	cliCsv* csv = &reader->csv;
	bcError bad;
	/* the separator is the header's: ';' (and decimal commas), a tab, '|' or ',' */
	char separator = cliCsv_SniffSeparator(csv, error);
	if (separator == '\0') {
		return false;
	}
	csv->separator = separator;
	csv->decimalComma = separator != ',';
	int status = cliCsv_Next(csv, &bad, error);
	if (status == 2) {
		*error = bad;
		return false;
	}
	if (status <= 0) {
		return status == 0; /* empty: no results */
	}
	reader->headerCount = csv->count;
	status = reader->options != NULL ? mapHeader(reader, error)
									 : cliCsv_MapHeader(csv, cliResultColumns, cli_csvCount, reader->columnOf, error);
	if (status < 0) {
		return false;
	}
	if (status == 0) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorSyntax;
		error->line = csv->line;
		error->column = csv->column;
		char header[CLI_QUOTE_MAX + 1];
		headerText(csv, header, sizeof header);
		snprintf(error->message, sizeof error->message,
				 "not a results file: no known column in the CSV header '%s' (cells separated by %s; expected id, "
				 "hit, alpha, ...)",
				 header, cliSeparatorName(separator));
		return false;
	}
	cliKeepWholeVectors(reader->columnOf, cliResultVectors, 6);
	while (!reader->noMemory && (status = cliCsv_Next(csv, &bad, error)) > 0) {
		cliResult* r = cliResultsReader_Append(reader);
		if (r == NULL) {
			break;
		}
		r->line = csv->line;
		r->column = csv->column;
		if (status == 2) {
			cliResultsReader_Problem(reader, r, bad.line, bad.column, "%s", bad.message);
			if (csv->count == reader->headerCount) {
				cellId(reader, r);
			}
		} else {
			csvResult(reader, r);
		}
	}
	reader->set->shape = status == 0 && reader->set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	return status == 0 || reader->noMemory;
}
