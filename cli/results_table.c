/* results_table.c - results read the tolerant way, from a table of
 * records (the tolerant entries of results_read.h): each row's cells read as the columns'
 * reading says, problems placed at their cells, and the reading told in
 * words and as JSON. */
#include "results_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cell_value.h"
#include "field_names.h"
#include "input.h"
#include "literal.h"
#include "output.h"
#include "results_parse.h"
#include "table.h"
#include "table_infer.h"
#include "table_read.h"

/* Rows the columns are told from: a class's file whole (a thousand or so
 * throws); of larger files the first 2,000, then the rest stream through
 * (memory holds the sample, not the file's cells). */
#define CLI_INFER_SAMPLE 2000

typedef struct cliTableResults {
	cliResultsReader* reader;
	cliInferOptions infer;
	cliTableMap map;
	bool mapped;
	bool decimalComma;   /* the table's numbers may be written 0,25 */
	bool delimited;      /* text in columns (CSV and its kin), where a ' may guard a formula */
	cliLitParser parser; /* ties in a cell */
	bool refused;        /* no column reads as a field: not a results file (refusal says so) */
	bcError refusal;
} cliTableResults;

/* ------------------------------------------------------------- cells */

/* Does text spell a number that is not finite (nan, NaN, inf,
 * -Infinity)? */
static bool isNonFinite(const char* text)
{
	double x = 0.0;
	return cliCellNumber(text, false, &x, NULL) == -2;
}

/* The text a cell gives a field: its own for scalars and lists, NULL
 * when the cell is absent, empty or a word for no value (None, NA, null);
 * NaN stays (a number field refuses it by name). */
static const char* valueText(const cliCell* c)
{
	if (c->kind == cli_cellAbsent || c->kind == cli_cellEmpty) {
		return NULL;
	}
	if (c->kind == cli_cellBool || c->kind == cli_cellList || c->kind == cli_cellObject ||
		(unsigned char)(c->text[0] - '0') < 10) {
		return c->text; /* (a digit first: no word for a missing value) */
	}
	return cliCellIsMissing(c->text) && !isNonFinite(c->text) ? NULL : c->text;
}

/* A problem at cell c. */
CLI_PRINTF(4, 5)
static void cellProblem(cliResultsReader* reader, cliResult* r, const cliCell* c, const char* format, ...)
{
	char message[sizeof((bcError*)NULL)->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	cliResultsReader_Problem(reader, r, c->line, c->column, "%s", message);
}

/* A NUL inside the cell's text: the text cannot stand for it. */
static bool hasNul(const cliCell* c)
{
	return c->hasNul || (c->kind != cli_cellNumber && memchr(c->text, '\0', c->length) != NULL);
}

/* The number in cell c for field name: 1 with *value, 0 when none is
 * given, -1 with a problem. */
static int cellNumber(cliTableResults* tr, cliResult* r, const cliCell* c, const char* name, double* value)
{
	const char* text = valueText(c);
	if (text == NULL) {
		/* NaN, None, empty: no number; NaN is a problem where one is needed (the caller says) */
		return 0;
	}
	if (hasNul(c)) {
		cellProblem(tr->reader, r, c, "%s: contains a NUL byte", name);
		return -1;
	}
	unsigned flags = 0;
	int status = c->kind == cli_cellBool ? -1 : cliCellNumber(text, tr->decimalComma, value, &flags);
	if (status == -1 && c->kind == cli_cellString && !tr->decimalComma) {
		/* "0,25" quoted in a file ',' separates: a decimal comma */
		status = cliCellNumber(text, true, value, &flags) == 1 ? 1 : -1;
	}
	if (status == 1) {
		return 1;
	}
	if (status == -2) {
		const char* p = text;
		while (*p == ' ') {
			p++;
		}
		bool minus = *p == '-';
		p += *p == '-' || *p == '+';
		if ((p[0] | 0x20) == 'n') {
			cellProblem(tr->reader, r, c, "%s: NaN is not a number", name);
		} else if ((p[0] | 0x20) == 'i') {
			cellProblem(tr->reader, r, c, "%s: %sInfinity is not a finite number", name, minus ? "-" : "");
		} else {
			cellProblem(tr->reader, r, c, "%s: not a finite number", name);
		}
		return -1;
	}
	cellProblem(tr->reader, r, c, "%s: expected a number, found '%.*s'", name, CLI_QUOTE_MAX, text);
	return -1;
}

/* A whole number in int32 range. */
static int cellWhole(cliTableResults* tr, cliResult* r, const cliCell* c, const char* name, int32_t* value)
{
	double x = 0.0;
	int status = cellNumber(tr, r, c, name, &x);
	if (status > 0 && !cliWholeInt32(x, value)) {
		cellProblem(tr->reader, r, c, "%s: expected a whole number (a 32-bit integer), found '%.*s'", name,
					CLI_QUOTE_MAX, c->text);
		return -1;
	}
	return status;
}

static int cellBool(cliTableResults* tr, cliResult* r, const cliCell* c, const char* name, bool* value)
{
	if (c->kind == cli_cellBool) {
		*value = c->boolean;
		return 1;
	}
	const char* text = valueText(c);
	if (text == NULL) {
		return 0;
	}
	if (c->kind != cli_cellList && c->kind != cli_cellObject && cliCellBool(text, value)) {
		return 1;
	}
	double x = 0.0;
	if (c->kind != cli_cellList && c->kind != cli_cellObject && cliCellNumber(text, tr->decimalComma, &x, NULL) == 1 &&
		(x == 0.0 || x == 1.0)) {
		*value = x == 1.0; /* 1.000000000000000000e+00, as numpy's savetxt writes it */
		return 1;
	}
	cellProblem(tr->reader, r, c, "%s: expected true or false, found '%.*s'", name, CLI_QUOTE_MAX, text);
	return -1;
}

/* 1 to 3 whole numbers in one cell ([3, 4], "3 4"): their count, 0 when
 * none, -1 when the cell holds something else. */
static int wholeNumbers(const char* text, bool decimalComma, int32_t out[3])
{
	const char* p = text;
	int count = 0;
	while (*p != '\0') {
		while (*p == ' ' || *p == ',' || *p == ';' || *p == '[' || *p == ']' || *p == '(' || *p == ')' || *p == '{' ||
			   *p == '}' || *p == '\t') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		const char* q = p;
		while (*q != '\0' && *q != ' ' && *q != ',' && *q != ';' && *q != ']' && *q != ')' && *q != '}' && *q != '\t') {
			q++;
		}
		char number[32];
		size_t n = (size_t)(q - p);
		if (count == 3 || n >= sizeof number) {
			return -1;
		}
		memcpy(number, p, n);
		number[n] = '\0';
		double x = 0.0;
		if (cliCellNumber(number, decimalComma, &x, NULL) != 1 || !cliWholeInt32(x, out + count)) {
			return -1;
		}
		count++;
		p = q;
	}
	return count;
}

/* ------------------------------------------------------------- ties */

/* Ties from JSON (a list of objects) or CSV ("3:edge 4:vertex"). */
static void cellTies(cliTableResults* tr, cliResult* r, const cliCell* c)
{
	cliResultsReader* reader = tr->reader;
	const char* text = valueText(c);
	if (text == NULL) {
		return;
	}
	if (c->kind == cli_cellList) {
		cliLitCursor cursor;
		cliLitCursor_Init(&cursor, text, c->length);
		bcError ignored;
		cliLitParser_Reset(&tr->parser);
		const cliLit* list = cliLitParser_Value(&tr->parser, &cursor, &ignored);
		if (list == NULL || list->kind != cli_litList) {
			cellProblem(reader, r, c, "ties: expected an array of objects");
			return;
		}
		for (const cliLit* e = list->first; e != NULL; e = e->next) {
			if (e->kind != cli_litObject) {
				cellProblem(reader, r, c, "ties: expected an object");
				cliResult_DropTies(r);
				return;
			}
			cliTie tie;
			memset(&tie, 0, sizeof tie);
			for (const cliLit* m = e->first; m != NULL; m = m->next) {
				if (m->key == NULL) {
					continue;
				}
				bool sure = false;
				cliSlot slot = cliSlotOfName(m->key, &sure);
				double x = 0.0;
				bcVec3 v;
				const char* raw = m->kind == cli_litList ? NULL : m->text;
				char span[256];
				if (m->kind == cli_litList) {
					size_t n = m->end - m->begin < sizeof span - 1 ? m->end - m->begin : sizeof span - 1;
					memcpy(span, text + m->begin, n);
					span[n] = '\0';
					raw = span;
				}
				switch (slot) {
				case cli_slotTriangle:
					if (m->kind == cli_litNumber && cliCellNumber(raw, false, &x, NULL) == 1 &&
						cliWholeInt32(x, &tie.triangle)) {
						tie.fields |= cli_resultTriangle;
					}
					break;
				case cli_slotFeature:
					if (m->kind == cli_litString && cliCellFeature(raw, &tie.feature)) {
						tie.fields |= cli_resultFeature;
					}
					break;
				case cli_slotVertices: {
					int n = wholeNumbers(raw, false, tie.vertices);
					if (n > 0) {
						tie.vertexCount = n;
						tie.fields |= cli_resultVertices;
					}
					break;
				}
				case cli_slotAlpha:
					if (m->kind == cli_litNumber && cliCellNumber(raw, false, &x, NULL) == 1) {
						tie.alpha = x;
						tie.fields |= cli_resultAlpha;
					}
					break;
				case cli_slotNormal:
				case cli_slotTriangleNormal:
					if (cliCellVector(raw, false, &v) > 0) {
						if (slot == cli_slotNormal) {
							tie.normal = v;
							tie.fields |= cli_resultNormal;
						} else {
							tie.triangleNormal = v;
							tie.fields |= cli_resultTriangleNormal;
						}
					}
					break;
				default:
					break;
				}
			}
			if (!cliResultsReader_AppendTie(reader, r, &tie)) {
				return;
			}
		}
		r->fields |= cli_resultTies;
		return;
	}
	/* "3:edge 4:vertex" */
	if (cliResultsReader_TiesText(reader, r, text) == 0) {
		cellProblem(reader, r, c, "ties: expected triangle:feature pairs separated by spaces, found '%.*s'",
					CLI_QUOTE_MAX, text);
	}
}

/* ------------------------------------------------------------- a row */

/* The cell of a slot in row (absent when no column holds it). */
static const cliCell* slotCell(const cliTableResults* tr, const cliTableRow* row, cliSlot slot)
{
	const cliCell* c = cliTableRow_Cell(row, tr->map.columnOf[slot]);
	for (int a = 0; a < CLI_ALTERNATES && c->kind == cli_cellAbsent; ++a) {
		c = cliTableRow_Cell(row, tr->map.alternates[slot][a]);
	}
	return c;
}

/* The id: its column's cell, else the row's label. */
static void readId(cliTableResults* tr, cliResult* r, const cliTableRow* row)
{
	cliResultsReader* reader = tr->reader;
	const cliCell* c = slotCell(tr, row, cli_slotId);
	if (c->kind == cli_cellAbsent && row->label != NULL) {
		c = row->label;
	}
	reader->field = 0;
	if (c->kind == cli_cellAbsent || c->kind == cli_cellEmpty || c->length == 0) {
		return;
	}
	if (c->kind == cli_cellList || c->kind == cli_cellObject || c->kind == cli_cellBool) {
		cellProblem(reader, r, c, "id: expected a string or a number");
		return;
	}
	if (hasNul(c)) {
		cellProblem(reader, r, c, "id: contains \\u0000, which cannot be echoed");
		return;
	}
	const char* text = c->text;
	size_t length = c->length;
	if (tr->delimited && text[0] == '\'' && cliStartsLikeFormula(text + 1)) {
		text++; /* the ' a CSV writer (ballcast's, a spreadsheet's) puts before an id that starts like a formula */
		length--;
	}
	r->id = cliCopyText(text, length);
	reader->noMemory = reader->noMemory || r->id == NULL;
	bool number = c->kind != cli_cellString && cliIsJsonNumber(text, length);
	r->idKind = r->id == NULL ? cli_idIndex : number ? cli_idNumber : cli_idString;
}

/* A vector: its one cell, or its three. */
static void readVector(cliTableResults* tr, cliResult* r, const cliTableRow* row, int v)
{
	cliResultsReader* reader = tr->reader;
	const cliCsvVector* vector = cliResultVectors + v;
	cliSlot slot = (cliSlot)(cli_slotPoint + CLI_SLOT_VECTOR_WIDTH * v);
	reader->field = vector->field;
	const cliCell* whole = slotCell(tr, row, slot);
	const char* text = valueText(whole);
	if (text != NULL) {
		bcVec3 value;
		int status = cliCellVector(text, tr->decimalComma, &value);
		if (status < 0 && !tr->decimalComma) {
			status = cliCellVector(text, true, &value); /* "[0,6; 0; 0,8]": decimal commas, ';' between */
		}
		if (status > 0 && isfinite(value.x) && isfinite(value.y) && isfinite(value.z)) {
			*cliResult_Vector(r, v) = value;
			r->fields |= vector->field;
		} else if (status != 0) {
			cellProblem(reader, r, whole, "%s: expected 3 numbers, found '%.*s'", vector->key, CLI_QUOTE_MAX, text);
		}
		return;
	}
	double x[3] = { 0.0, 0.0, 0.0 };
	int got[3];
	const cliCell* cells[3];
	for (int a = 0; a < 3; ++a) {
		cells[a] = slotCell(tr, row, (cliSlot)(slot + 1 + a));
		got[a] = cells[a]->kind == cli_cellAbsent
					 ? 0
					 : cellNumber(tr, r, cells[a], cliResultColumns[vector->first + a], x + a);
	}
	int status = cliVectorStatus(got);
	if (status < 0) {
		int empty = got[0] == 0 ? 0 : got[1] == 0 ? 1 : 2;
		const cliCell* at = cells[empty]->kind != cli_cellAbsent ? cells[empty] : cells[got[0] != 0 ? 0 : 1];
		cellProblem(reader, r, at, CLI_VECTOR_PARTIAL, vector->key, cliResultColumns[vector->first],
					cliResultColumns[vector->first + 1], cliResultColumns[vector->first + 2]);
	} else if (status > 0) {
		*cliResult_Vector(r, v) = bcMakeVec3(x[0], x[1], x[2]);
		r->fields |= vector->field;
	}
}

/* Is the field graded (its problems kept; ungraded fields are not read)? */
static bool graded(const cliResultsReader* reader, unsigned field)
{
	return reader->options == NULL || (reader->options->graded & field) != 0;
}

static bool takeRow(void* context, const cliTable* t, const cliTableRow* row)
{
	cliTableResults* tr = context;
	cliResultsReader* reader = tr->reader;
	(void)t;
	cliResult* r = cliResultsReader_Append(reader);
	if (r == NULL) {
		return false;
	}
	r->line = row->line;
	r->column = row->column;
	reader->field = 0;
	if (row->problem != NULL) {
		cliResultsReader_Problem(reader, r, row->problemLine, row->problemColumn, "%s", row->problem);
	}
	readId(tr, r, row);
	/* hit */
	reader->field = cli_resultHit;
	const cliCell* c = slotCell(tr, row, cli_slotHit);
	if (cellBool(tr, r, c, "hit", &r->hit) > 0) {
		r->fields |= cli_resultHit;
	}
	/* alpha (a percentage divided by 100) */
	reader->field = cli_resultAlpha;
	bool miss = (r->fields & cli_resultHit) && !r->hit;
	c = slotCell(tr, row, tr->map.percent ? cli_slotAlphaPercent : cli_slotAlpha);
	const char* alphaText = valueText(c);
	double x = 0.0;
	if (miss || (tr->map.hitFromAlpha && alphaText != NULL && isNonFinite(alphaText))) {
		/* a miss's alpha is not graded: NaN, None or words are no problem there */
		if (alphaText != NULL && c->kind != cli_cellBool && cliCellNumber(alphaText, tr->decimalComma, &x, NULL) == 1) {
			r->alpha = tr->map.percent ? x / 100.0 : x;
			r->fields |= cli_resultAlpha;
		}
	} else if (cellNumber(tr, r, c, "alpha", &x) > 0) {
		r->alpha = tr->map.percent ? x / 100.0 : x;
		r->fields |= cli_resultAlpha;
	}
	/* no hit column: a miss is alpha -1, empty, NaN, past 1, or 1 with nothing else */
	if (tr->map.hitFromAlpha && !(r->fields & cli_resultHit)) {
		const cliCell* feature = slotCell(tr, row, cli_slotFeature);
		bcFeature f = bc_featureNone;
		bool featureGiven = valueText(feature) != NULL && cliCellFeature(feature->text, &f);
		bool more = (featureGiven && f != bc_featureNone) || valueText(slotCell(tr, row, cli_slotNormal)) != NULL ||
					valueText(slotCell(tr, row, cli_slotNormal + 1)) != NULL ||
					valueText(slotCell(tr, row, cli_slotTriangle)) != NULL;
		bool hasAlpha = (r->fields & cli_resultAlpha) != 0;
		bool hit = hasAlpha && r->alpha >= 0.0 && (r->alpha < 1.0 || (r->alpha == 1.0 && more));
		if (featureGiven && f == bc_featureNone) {
			hit = false;
		}
		if (hasAlpha || alphaText == NULL || isNonFinite(alphaText)) {
			r->hit = hit;
			r->fields |= cli_resultHit;
			if (!hit) {
				r->fields &= ~(unsigned)cli_resultAlpha; /* a miss's alpha is not graded */
				r->alpha = 0.0;
			}
		}
	}
	/* a miss is hit and alpha only: the rest may hold anything */
	bool isMiss = (r->fields & cli_resultHit) && !r->hit;
	if (graded(reader, cli_resultInitialOverlap) && !isMiss) {
		reader->field = cli_resultInitialOverlap;
		if (cellBool(tr, r, slotCell(tr, row, cli_slotInitialOverlap), "initial_overlap", &r->initialOverlap) > 0) {
			r->fields |= cli_resultInitialOverlap;
		}
	}
	if (graded(reader, cli_resultFeature) && !isMiss) {
		reader->field = cli_resultFeature;
		c = slotCell(tr, row, cli_slotFeature);
		const char* text = valueText(c);
		if (text != NULL && c->kind != cli_cellBool && cliCellFeature(text, &r->feature)) {
			r->fields |= cli_resultFeature;
		} else if (text != NULL) {
			cellProblem(reader, r, c, "feature: expected face, edge, vertex or none, found '%.*s'", CLI_QUOTE_MAX,
						text);
		}
	}
	if (graded(reader, cli_resultTriangle) && !isMiss) {
		reader->field = cli_resultTriangle;
		if (cellWhole(tr, r, slotCell(tr, row, cli_slotTriangle), "triangle", &r->triangle) > 0) {
			r->fields |= cli_resultTriangle;
		}
	}
	if (graded(reader, cli_resultFace) && !isMiss) {
		reader->field = cli_resultFace;
		if (cellWhole(tr, r, slotCell(tr, row, cli_slotFace), "face", &r->face) > 0) {
			r->fields |= cli_resultFace;
		}
	}
	if (graded(reader, cli_resultVertices) && !isMiss) {
		reader->field = cli_resultVertices;
		c = slotCell(tr, row, cli_slotVertices);
		const char* text = valueText(c);
		if (text != NULL) {
			int n = wholeNumbers(text, false, r->vertices);
			if (n > 0) {
				r->vertexCount = n;
				r->fields |= cli_resultVertices;
			} else {
				cellProblem(reader, r, c, "vertices: expected 1 to 3 whole numbers, found '%.*s'", CLI_QUOTE_MAX, text);
			}
		} else {
			/* vertex_0 .. vertex_2: the leading cells given */
			bool gap = false;
			for (int k = 0; k < 3; ++k) {
				const cliCell* v = slotCell(tr, row, (cliSlot)(cli_slotVertex0 + k));
				const char* name = cliResultColumns[cli_csvVertex0 + k];
				int status = v->kind == cli_cellAbsent ? 0 : cellWhole(tr, r, v, name, r->vertices + r->vertexCount);
				if (!cliResult_TakeVertex(r, status, &gap)) {
					cellProblem(reader, r, v, CLI_VERTEX_AFTER_GAP, name);
				}
			}
		}
	}
	for (int v = 0; v < 6; ++v) {
		if (graded(reader, cliResultVectors[v].field) && !(isMiss && v < 4)) {
			readVector(tr, r, row, v);
		}
	}
	reader->field = 0;
	c = slotCell(tr, row, cli_slotError);
	const char* error = valueText(c);
	if (error != NULL && error[0] != '\0' && c->kind != cli_cellBool) {
		r->error = cliCopyText(error, strlen(error));
		reader->noMemory = reader->noMemory || r->error == NULL;
		r->fields |= r->error != NULL ? cli_resultError : 0;
	}
	if (graded(reader, cli_resultTies)) {
		reader->field = cli_resultTies;
		cellTies(tr, r, slotCell(tr, row, cli_slotTies));
	}
	reader->field = 0;
	return !reader->noMemory;
}

/* ------------------------------------------------------------- the reading */

/* Is a column's name cast's own for its slot (nothing to say)? */
static bool plainName(const char* name, cliSlot slot)
{
	return name != NULL && strcmp(name, cliSlot_Name(slot)) == 0;
}

/* The field a column was read as, for the note ("normal" for its
 * components taken together). */
static const char* fieldWord(cliSlot slot)
{
	if (cliSlot_IsComponent(slot)) {
		return cliSlot_Name(cliSlot_VectorOf(slot));
	}
	return slot == cli_slotAlphaPercent ? "alpha (a percentage, / 100)" : cliSlot_Name(slot);
}

static const char* byWord(cliEvidence by)
{
	return by == cli_byMap ? "--map" : by == cli_byName ? "name" : by == cli_byValues ? "values" : "none";
}

/* A column's name in the reading's JSON: as the note shows it (escaped
 * and cut short: the student's text), a JSON string. */
static void appendNameJson(cliBuffer* json, const char* name)
{
	char shown[CLI_COLUMN_NAME_SIZE];
	cliShortColumnName(name, shown, sizeof shown);
	cliBuffer_AppendJsonString(json, shown);
}

/* The reading in words and as JSON. */
static void describe(cliTableResults* tr, const cliTable* t, const char* encoding, cliReading* reading)
{
	const cliTableMap* m = &tr->map;
	cliBuffer note = { 0 };
	cliBuffer json = { 0 };
	cliBuffer_AppendText(&note, "read as ");
	cliBuffer_AppendText(&note, t->container[0] != '\0' ? t->container : "an empty file");
	cliBuffer_AppendText(&json, "{\"container\":");
	cliBuffer_AppendJsonString(&json, t->container);
	if (encoding[0] != '\0') {
		cliBuffer_AppendText(&note, ", ");
		cliBuffer_AppendText(&note, encoding);
		cliBuffer_AppendText(&json, ",\"encoding\":");
		cliBuffer_AppendJsonString(&json, encoding);
	}
	if (t->separator != 0) {
		char separator[2] = { t->separator, '\0' };
		cliBuffer_AppendText(&json, ",\"separator\":");
		cliBuffer_AppendJsonString(&json, t->separator == ' ' ? "blanks" : separator);
		cliBuffer_AppendText(&json, t->decimalComma ? ",\"decimal_comma\":true" : ",\"decimal_comma\":false");
		cliBuffer_AppendText(&json, t->header ? ",\"header\":true" : ",\"header\":false");
	}
	/* the columns: cast's own names together, every other reading with its evidence */
	cliBuffer_AppendText(&note, "; columns: ");
	cliBuffer_AppendText(&json, ",\"columns\":[");
	bool firstPlain = true;
	for (int k = 0; k < m->columnCount; ++k) {
		const cliColumnReading* c = m->columns + k;
		/* (a vector in one cell of a text table is not how cast writes it: said below) */
		if (c->slot != cli_slotNone && c->by == cli_byName && plainName(t->columns[k].name, c->slot) &&
			!(cliSlot_IsVector(c->slot) && t->separator != 0)) {
			cliBuffer_AppendText(&note, firstPlain ? "" : ", ");
			cliBuffer_AppendText(&note, t->columns[k].name);
			firstPlain = false;
		}
	}
	bool any = !firstPlain;
	if (any) {
		cliBuffer_AppendText(&note, " by their names");
	}
	/* an answer nested in each record: said as such */
	for (int k = 0; k < m->columnCount; ++k) {
		const char* dot = t->columns[k].name != NULL ? strchr(t->columns[k].name, '.') : NULL;
		if (m->columns[k].by != cli_byNone && m->columns[k].slot != cli_slotNone && dot != NULL) {
			/* (normal.x of a normal: the vector's own parts, not a nesting) */
			char head[128];
			snprintf(head, sizeof head, "%.*s", (int)(dot - t->columns[k].name) < 127 ? (int)(dot - t->columns[k].name) : 127,
					 t->columns[k].name);
			bool sure = false;
			cliSlot own = cliSlotOfName(head, &sure);
			cliSlot slot = m->columns[k].slot;
			if (own != cli_slotNone &&
				(own == slot || (cliSlot_IsComponent(slot) && own == cliSlot_VectorOf(slot)))) {
				continue;
			}
			/* the key is the student's text: escaped and cut short */
			char key[CLI_SHOWN_NAME_SIZE];
			cliShortName(head, key, sizeof key);
			cliBuffer_AppendText(&note, any ? ", " : "");
			cliBuffer_AppendText(&note, "answers nested under \"");
			cliBuffer_AppendText(&note, key);
			cliBuffer_AppendText(&note, "\"");
			any = true;
			break;
		}
	}
	bool firstJson = true;
	for (int k = 0; k < m->columnCount; ++k) {
		const cliColumnReading* c = m->columns + k;
		if (c->by == cli_byNone) {
			continue;
		}
		char name[CLI_COLUMN_NAME_SIZE];
		cliTable_ColumnName(t, k, name, sizeof name);
		cliBuffer_AppendText(&json, firstJson ? "{\"column\":" : ",{\"column\":");
		firstJson = false;
		if (t->columns[k].name != NULL) {
			appendNameJson(&json, t->columns[k].name);
		} else {
			cliBuffer_AppendInt(&json, k + 1);
		}
		cliBuffer_AppendText(&json, ",\"field\":");
		cliBuffer_AppendJsonString(&json, c->slot != cli_slotNone ? cliSlot_Name(c->slot) : "none");
		cliBuffer_AppendText(&json, ",\"by\":");
		cliBuffer_AppendJsonString(&json, byWord(c->by));
		if (c->evidence[0] != '\0' && c->by == cli_byValues) {
			cliBuffer_AppendText(&json, ",\"evidence\":");
			cliBuffer_AppendJsonString(&json, c->evidence);
		}
		cliBuffer_AppendText(&json, "}");
		if (c->slot != cli_slotNone && c->by == cli_byName && plainName(t->columns[k].name, c->slot) &&
			!(cliSlot_IsVector(c->slot) && t->separator != 0)) {
			continue;
		}
		/* the components of one vector, read alike, said once: 'nx', 'ny', 'nz' -> normal */
		if (cliSlot_IsComponent(c->slot) && cliSlot_Component(c->slot) > 0 && k > 0 &&
			m->columns[k - 1].slot == c->slot - 1 && m->columns[k - 1].by == c->by) {
			continue;
		}
		cliBuffer_AppendText(&note, any ? ", " : "");
		any = true;
		cliBuffer_AppendText(&note, name);
		int last = k;
		while (cliSlot_IsComponent(m->columns[last].slot) && last + 1 < m->columnCount &&
			   m->columns[last + 1].slot == m->columns[last].slot + 1 && m->columns[last + 1].by == c->by &&
			   cliSlot_Component(m->columns[last].slot) < 2) {
			last++;
			char next[CLI_COLUMN_NAME_SIZE];
			cliTable_ColumnName(t, last, next, sizeof next);
			cliBuffer_AppendText(&note, ", ");
			cliBuffer_AppendText(&note, next);
		}
		cliBuffer_AppendText(&note, " -> ");
		cliBuffer_AppendText(&note, c->slot != cli_slotNone ? fieldWord(c->slot) : "nothing");
		if (c->by == cli_byMap) {
			cliBuffer_AppendText(&note, " (--map)");
		} else if (c->by == cli_byName && cliSlot_IsVector(c->slot) && t->separator != 0) {
			cliBuffer_AppendText(&note, " (three numbers in one cell)");
		} else if (c->evidence[0] != '\0') {
			cliBuffer_AppendText(&note, " (");
			cliBuffer_AppendText(&note, c->evidence);
			cliBuffer_AppendText(&note, ")");
		}
	}
	if (!any) {
		cliBuffer_AppendText(&note, "none known");
	}
	cliBuffer_AppendText(&json, "]");
	if (m->columnOf[cli_slotId] < 0) {
		const char* ids = t->labels == cli_labelKey ? "ids: the keys the records are filed under"
						  : t->labels == cli_labelIndex ? "ids: the rows' labels"
														: "no id column";
		cliBuffer_AppendText(&note, "; ");
		cliBuffer_AppendText(&note, ids);
	}
	if (m->hitFromAlpha) {
		cliBuffer_AppendText(&note, "; no hit column: a miss is alpha -1, empty, NaN or past 1");
		cliBuffer_AppendText(&json, ",\"hit_from_alpha\":true");
	}
	/* what else: the table's notes and the inference's */
	cliBuffer_AppendText(&json, ",\"notes\":[");
	for (int k = 0; k < t->noteCount; ++k) {
		cliBuffer_AppendText(&note, "; ");
		cliBuffer_AppendText(&note, t->notes[k]);
		cliBuffer_AppendText(&json, k > 0 ? "," : "");
		cliBuffer_AppendJsonString(&json, t->notes[k]);
	}
	if (m->notes[0] != '\0') {
		cliBuffer_AppendText(&note, "; ");
		cliBuffer_AppendText(&note, m->notes);
		cliBuffer_AppendText(&json, t->noteCount > 0 ? "," : "");
		cliBuffer_AppendJsonString(&json, m->notes);
	}
	cliBuffer_AppendText(&json, "]");
	/* what was not read */
	cliBuffer_AppendText(&json, ",\"ignored\":[");
	bool firstIgnored = true;
	for (int k = 0; k < m->columnCount; ++k) {
		if (m->columns[k].by != cli_byNone || m->columns[k].slot != cli_slotNone) {
			continue;
		}
		char name[CLI_COLUMN_NAME_SIZE];
		cliTable_ColumnName(t, k, name, sizeof name);
		cliBuffer_AppendText(&note, firstIgnored ? "; ignored: " : ", ");
		cliBuffer_AppendText(&note, name);
		if (!firstIgnored) {
			cliBuffer_AppendText(&json, ",");
		}
		firstIgnored = false;
		if (t->columns[k].name != NULL) {
			appendNameJson(&json, t->columns[k].name);
		} else {
			cliBuffer_AppendInt(&json, k + 1);
		}
	}
	cliBuffer_AppendText(&json, "]");
	cliBuffer_AppendText(&json, m->review ? ",\"review\":true,\"review_why\":" : ",\"review\":false");
	if (m->review) {
		cliBuffer_AppendJsonString(&json, m->reviewWhy);
	}
	cliBuffer_AppendText(&json, "}");
	cliBuffer_AppendChar(&note, '\0');
	cliBuffer_AppendChar(&json, '\0');
	if (note.failed || json.failed) {
		cliBuffer_Free(&note);
		cliBuffer_Free(&json);
		tr->reader->noMemory = true;
		return;
	}
	/* cast's own shape: nothing to say in words */
	static const char* const casts[] = { "a results document ({\"results\": [...]})", "a JSON array of records",
										 "one record per line (NDJSON)", "CSV separated by ','" };
	bool plain = encoding[0] == '\0' && !m->hitFromAlpha && !m->review && m->notes[0] == '\0';
	bool castContainer = false;
	for (size_t k = 0; k < sizeof casts / sizeof casts[0]; ++k) {
		castContainer = castContainer || strcmp(t->container, casts[k]) == 0;
	}
	plain = plain && castContainer;
	for (int k = 0; k < t->noteCount && plain; ++k) {
		plain = strcmp(t->notes[k], "not strict JSON: NaN or Infinity") == 0; /* Python's json module */
	}
	for (int k = 0; k < m->columnCount && plain; ++k) {
		const cliColumnReading* c = m->columns + k;
		plain = c->by == cli_byNone || (c->by == cli_byName && plainName(t->columns[k].name, c->slot) &&
										!(cliSlot_IsVector(c->slot) && t->separator != 0 && c->slot != cli_slotTies));
	}
	reading->read = true;
	reading->plain = plain;
	reading->note = note.data;
	reading->json = json.data;
	reading->review = m->review;
	reading->reviewWhy = m->review ? cliCopyText(m->reviewWhy, strlen(m->reviewWhy)) : NULL;
}

/* No column of t reads as a field: the refusal names what was seen. */
static void refuseTable(cliTableResults* tr, const cliTable* t)
{
	bcError* e = &tr->refusal;
	memset(e, 0, sizeof *e);
	e->code = bc_errorSyntax;
	e->record = -1;
	e->line = t->columnCount > 0 && t->columns[0].line > 0 ? t->columns[0].line : t->rowCount > 0 ? t->rows[0].line : 1;
	e->column = 1;
	char seen[CLI_QUOTE_MAX + 1];
	size_t n = 0;
	for (int k = 0; k < t->columnCount && n < CLI_QUOTE_MAX; ++k) {
		const char* name = t->columns[k].name != NULL ? t->columns[k].name : "?";
		if (k > 0 && n < CLI_QUOTE_MAX) {
			seen[n++] = t->separator != 0 && t->separator != ' ' ? t->separator : ' ';
		}
		for (const char* p = name; *p != '\0' && n < CLI_QUOTE_MAX; ++p) {
			unsigned char b = (unsigned char)*p;
			seen[n++] = b >= 0x20 && b < 0x7f ? (char)b : b == '\t' ? '\t' : '?';
		}
	}
	seen[n] = '\0';
	if (t->separator != 0 && t->header) {
		static const char* const names[] = { "','", "';'", "tabs", "'|'", "blanks" };
		int which = t->separator == ';' ? 1 : t->separator == '\t' ? 2 : t->separator == '|' ? 3
												: t->separator == ' '							? 4
																									: 0;
		snprintf(e->message, sizeof e->message,
				 "not a results file: no known column in the CSV header '%s' (cells separated by %s; expected id, "
				 "hit, alpha, ...)",
				 seen, names[which]);
	} else if (t->separator != 0) {
		snprintf(e->message, sizeof e->message,
				 "not a results file: no header names a column, and no column's values say what it is (expected id, "
				 "hit, alpha, ...)");
	} else {
		snprintf(e->message, sizeof e->message,
				 "not a results file: no known key in its records ('%s'; expected id, hit, alpha, ...)", seen);
	}
	tr->refused = true;
}

/* The sample is in: read its columns, name what is not read. */
static bool beginRows(void* context, cliTable* t)
{
	cliTableResults* tr = context;
	tr->decimalComma = t->decimalComma;
	tr->delimited = t->separator != 0;
	if (!cliTableMap_Infer(&tr->map, t, &tr->infer)) {
		tr->reader->noMemory = true;
		return false;
	}
	tr->mapped = true;
	/* a results file answers hit or alpha: without either, it is something else */
	bool answers = tr->map.columnOf[cli_slotHit] >= 0 || tr->map.columnOf[cli_slotAlpha] >= 0 ||
				   tr->map.columnOf[cli_slotAlphaPercent] >= 0 || tr->map.columnOf[cli_slotError] >= 0;
	for (int a = 0; a < CLI_ALTERNATES && !answers; ++a) {
		answers = tr->map.alternates[cli_slotHit][a] >= 0 || tr->map.alternates[cli_slotAlpha][a] >= 0;
	}
	if (!answers && t->columnCount > 0 && (t->rowCount > 0 || t->header)) {
		refuseTable(tr, t);
		return false;
	}
	for (int k = 0; k < tr->map.columnCount; ++k) {
		if (tr->map.columns[k].by == cli_byNone && t->columns[k].name != NULL) {
			cliResultsReader_Ignore(tr->reader, t->columns[k].name);
		}
	}
	return !tr->reader->noMemory;
}

static bool readTable(FILE* stream, const cliResultsReadOptions* options, bool infer, int32_t triangleCount,
					  cliResultSet* set, bcError* error)
{
	memset(set, 0, sizeof *set);
	bcError scratch;
	error = error != NULL ? error : &scratch;
	memset(error, 0, sizeof *error);
	error->record = -1;
	cliWholeText text;
	if (!cliWholeText_Read(stream, &text, error)) {
		set->format = cli_inputCsv;
		return false;
	}
	cliResultsReader reader;
	memset(&reader, 0, sizeof reader);
	reader.set = set;
	reader.options = options;
	cliTableResults tr;
	memset(&tr, 0, sizeof tr);
	tr.reader = &reader;
	tr.infer.map = options->map;
	tr.infer.mapCount = options->mapCount;
	tr.infer.triangleCount = triangleCount;
	tr.infer.values = infer;
	cliTableSink sink = { &tr, beginRows, takeRow };
	cliTable table;
	cliTable_Init(&table, &sink, CLI_INFER_SAMPLE);
	bool blank = cliTextIsBlank(text.data, text.length);
	bool ok = blank ? cliTable_Finish(&table) : cliTable_ReadAny(&table, text.data, text.length, error);
	if (!ok && tr.refused) {
		*error = tr.refusal;
	}
	set->format = table.separator != 0 ? cli_inputCsv : cli_inputJson;
	/* a JSON object that holds the results (or breaks before it is known to) */
	size_t first = 0;
	while (first < text.length && (text.data[first] == ' ' || text.data[first] == '\n' || text.data[first] == '\r' ||
								   text.data[first] == '\t')) {
		first++;
	}
	set->document = first < text.length && text.data[first] == '{' && !tr.refused &&
					(!ok || strstr(table.container, "document") != NULL);
	if (ok && !reader.noMemory) {
		set->shape = blank ? cli_shapeEmptyFile : set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
		bool ids = false;
		for (long i = 0; i < set->count && !ids; ++i) {
			ids = set->results[i].idKind != cli_idIndex;
		}
		set->positional = set->count > 0 && !ids;
		for (long i = 0; i < set->count; ++i) {
			set->problems += set->results[i].problem != NULL;
		}
		if (!blank) {
			describe(&tr, &table, text.encoding, &set->reading);
		}
	}
	if (reader.noMemory || table.noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
		ok = false;
	}
	set->ignored = reader.ignored;
	cliTableMap_Free(&tr.map);
	cliLitParser_Destroy(&tr.parser);
	cliTable_Destroy(&table);
	cliWholeText_Free(&text);
	if (!ok) {
		cliInputFormat format = set->format;
		bool document = set->document;
		cliResultSet_Free(set);
		set->format = format;
		set->document = document;
	}
	return ok;
}

/* ------------------------------------------------------------- entries */

bool cliReadResultsWith(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error)
{
	if (options != NULL && options->tolerant) {
		return readTable(stream, options, false, 0, set, error);
	}
	return cliReadResultsStrict(stream, options, set, error);
}

bool cliReadSubmission(FILE* stream, const cliResultsReadOptions* options, int32_t triangleCount, cliResultSet* set,
					   bcError* error)
{
	cliResultsReadOptions tolerant = *options;
	tolerant.tolerant = true;
	return readTable(stream, &tolerant, true, triangleCount, set, error);
}

bool cliParseResultsWith(const char* text, size_t length, const cliResultsReadOptions* options, cliResultSet* set,
						 bcError* error)
{
	FILE* stream = cliOpenText(text, length, set, error);
	if (stream == NULL) {
		return false;
	}
	bool ok = cliReadResultsWith(stream, options, set, error);
	fclose(stream);
	return ok;
}
