/* table.c - a table of records (table.h): columns found by name or by
 * place, rows of cells with their places, the sample kept for inference
 * and the rows streamed to a sink after it. */
#include "table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cell put in the row being built, before the row knows its width. */
typedef struct cliPendingCell {
	int column;
	cliCell cell;
} cliPendingCell;

static const cliCell absentCell = { "", 0, 0, 0, cli_cellAbsent, false, false };

void cliTable_Init(cliTable* t, const cliTableSink* sink, long sampleLimit)
{
	memset(t, 0, sizeof *t);
	t->sink = *sink;
	t->sampleLimit = sampleLimit > 0 ? sampleLimit : 1;
	t->lastColumn = -1;
}

void cliTable_Destroy(cliTable* t)
{
	for (int k = 0; k < t->columnCount; ++k) {
		free(t->columns[k].name);
	}
	for (int k = 0; k < t->noteCount; ++k) {
		free(t->notes[k]);
	}
	free(t->columns);
	free(t->rows);
	free(t->pending);
	cliArena_Destroy(&t->sample);
	cliArena_Destroy(&t->transient);
	memset(t, 0, sizeof *t);
}

int cliTable_Column(cliTable* t, const char* name, long line, long column)
{
	if (name != NULL) {
		/* keys come in the same order record after record: try the next one first */
		int next = t->lastColumn + 1;
		if (next < t->columnCount && t->columns[next].name != NULL && strcmp(t->columns[next].name, name) == 0) {
			t->lastColumn = next;
			return next;
		}
		for (int k = 0; k < t->columnCount; ++k) {
			if (t->columns[k].name != NULL && strcmp(t->columns[k].name, name) == 0) {
				t->lastColumn = k;
				return k;
			}
		}
	}
	return cliTable_NewColumn(t, name, line, column);
}

int cliTable_NewColumn(cliTable* t, const char* name, long line, long column)
{
	if (t->columnCount == t->columnCapacity) {
		int grown = t->columnCapacity > 0 ? 2 * t->columnCapacity : 16;
		cliTableColumn* columns = realloc(t->columns, (size_t)grown * sizeof *columns);
		if (columns == NULL) {
			t->noMemory = true;
			return -1;
		}
		t->columns = columns;
		t->columnCapacity = grown;
	}
	cliTableColumn* c = t->columns + t->columnCount;
	memset(c, 0, sizeof *c);
	if (name != NULL) {
		size_t n = strlen(name);
		c->name = malloc(n + 1);
		if (c->name == NULL) {
			t->noMemory = true;
			return -1;
		}
		memcpy(c->name, name, n + 1);
	}
	c->line = line;
	c->column = column;
	t->lastColumn = t->columnCount;
	return t->columnCount++;
}

/* The arena the row being built lives in. */
static cliArena* rowArena(cliTable* t)
{
	return t->begun ? &t->transient : &t->sample;
}

void cliTable_BeginRow(cliTable* t, long line, long column)
{
	memset(&t->current, 0, sizeof t->current);
	t->current.line = line;
	t->current.column = column;
	t->current.index = t->total;
	t->pendingCount = 0;
	t->lastColumn = -1;
	if (t->begun) {
		cliArena_Reset(&t->transient);
	}
}

bool cliTable_Put(cliTable* t, int k, cliCellKind kind, const char* text, size_t length, long line, long column)
{
	if (k < 0) {
		return false;
	}
	for (int i = 0; i < t->pendingCount; ++i) {
		if (t->pending[i].column == k) {
			return false; /* a key given twice: the first counts */
		}
	}
	char* copy = cliArena_Copy(rowArena(t), text, length);
	if (copy == NULL) {
		t->noMemory = true;
		return false;
	}
	cliCell cell = { copy, length, line, column, kind, false, false };
	if (t->pendingCount == t->pendingCapacity) {
		int grown = t->pendingCapacity > 0 ? 2 * t->pendingCapacity : 16;
		cliPendingCell* pending = realloc(t->pending, (size_t)grown * sizeof *pending);
		if (pending == NULL) {
			t->noMemory = true;
			return false;
		}
		t->pending = pending;
		t->pendingCapacity = grown;
	}
	t->pending[t->pendingCount].column = k;
	t->pending[t->pendingCount].cell = cell;
	t->pendingCount++;
	return true;
}

void cliTable_PutBool(cliTable* t, int k, bool value, long line, long column)
{
	const char* text = value ? "true" : "false";
	if (cliTable_Put(t, k, cli_cellBool, text, strlen(text), line, column)) {
		t->pending[t->pendingCount - 1].cell.boolean = value;
	}
}

void cliTable_MarkNul(cliTable* t)
{
	if (t->pendingCount > 0) {
		t->pending[t->pendingCount - 1].cell.hasNul = true;
	}
}

void cliTable_Label(cliTable* t, const char* text, size_t length, cliCellKind kind, long line, long column)
{
	cliCell* label = cliArena_Alloc(rowArena(t), sizeof *label);
	char* copy = cliArena_Copy(rowArena(t), text, length);
	if (label == NULL || copy == NULL) {
		t->noMemory = true;
		return;
	}
	*label = (cliCell){ copy, length, line, column, kind, false, false };
	t->current.label = label;
}

void cliTable_Problem(cliTable* t, const char* message, long line, long column)
{
	if (t->current.problem != NULL) {
		return;
	}
	char* copy = cliArena_Copy(rowArena(t), message, strlen(message));
	if (copy == NULL) {
		t->noMemory = true;
		return;
	}
	t->current.problem = copy;
	t->current.problemLine = line;
	t->current.problemColumn = column;
}

/* Hand every sample row to the sink, once. */
static bool beginSink(cliTable* t)
{
	t->begun = true;
	if (!t->sink.begin(t->sink.context, t)) {
		return false;
	}
	for (long i = 0; i < t->rowCount; ++i) {
		if (!t->sink.take(t->sink.context, t, t->rows + i)) {
			return false;
		}
	}
	/* the sample is spent: its memory goes */
	t->rowCount = 0;
	cliArena_Destroy(&t->sample);
	return true;
}

bool cliTable_EndRow(cliTable* t)
{
	cliTableRow* row = &t->current;
	int width = 0;
	for (int i = 0; i < t->pendingCount; ++i) {
		width = t->pending[i].column + 1 > width ? t->pending[i].column + 1 : width;
	}
	row->cells = width > 0 ? cliArena_Alloc(rowArena(t), (size_t)width * sizeof *row->cells) : NULL;
	if (width > 0 && row->cells == NULL) {
		t->noMemory = true;
		return false;
	}
	for (int k = 0; k < width; ++k) {
		row->cells[k] = absentCell;
	}
	for (int i = 0; i < t->pendingCount; ++i) {
		row->cells[t->pending[i].column] = t->pending[i].cell;
	}
	row->cellCount = width;
	t->total += 1;
	if (t->noMemory) {
		return false;
	}
	if (t->begun) {
		return t->sink.take(t->sink.context, t, row);
	}
	if (t->rowCount == t->rowCapacity) {
		long grown = t->rowCapacity > 0 ? 2 * t->rowCapacity : 64;
		cliTableRow* rows = realloc(t->rows, (size_t)grown * sizeof *rows);
		if (rows == NULL) {
			t->noMemory = true;
			return false;
		}
		t->rows = rows;
		t->rowCapacity = grown;
	}
	t->rows[t->rowCount++] = *row;
	return t->rowCount < t->sampleLimit || beginSink(t);
}

bool cliTable_Finish(cliTable* t)
{
	return t->begun || beginSink(t);
}

void cliTable_Note(cliTable* t, const char* format, ...)
{
	if (t->noteCount == CLI_TABLE_NOTES) {
		return;
	}
	char text[200];
	va_list args;
	va_start(args, format);
	vsnprintf(text, sizeof text, format, args);
	va_end(args);
	size_t n = strlen(text);
	char* copy = malloc(n + 1);
	if (copy == NULL) {
		t->noMemory = true;
		return;
	}
	memcpy(copy, text, n + 1);
	t->notes[t->noteCount++] = copy;
}

const cliCell* cliTableRow_Cell(const cliTableRow* r, int k)
{
	return k >= 0 && k < r->cellCount ? r->cells + k : &absentCell;
}
