/* table.h - a table of records: what any submission is reduced to before
 * its columns are told apart. Whatever the container (a JSON array, pandas'
 * column-oriented JSON, NDJSON, CSV with any separator, a space-aligned
 * printf table, Python's repr of a list of dicts, YAML-ish blocks, XML,
 * an HTML table), its readers (table_json.c, table_text.c, table_kv.c,
 * table_xml.c) put each record as a row of cells, one per column, with the
 * place of every cell; the columns are named by the container (a header,
 * the keys) or not at all.
 *
 * Rows stream: the table holds the first sampleLimit rows (the sample the
 * columns are inferred from), then hands them to its sink, and every row
 * after that as soon as it is complete, so that memory holds the sample,
 * not the file. */
#ifndef BC_TABLE_H
#define BC_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "literal.h"

/* What a cell holds, as the container wrote it. */
typedef enum cliCellKind {
	cli_cellAbsent = 0, /* the record has no such column */
	cli_cellEmpty,      /* null, None, a key with no value */
	cli_cellText,       /* unquoted text: a CSV cell, a bare word or number of a literal */
	cli_cellString,     /* quoted text */
	cli_cellNumber,     /* a number the container typed (JSON): text as written */
	cli_cellBool,       /* a boolean the container typed */
	cli_cellList,       /* a list: text as written ("[0.0, 0.0, 1.0]") */
	cli_cellObject      /* an object nested deeper than the table flattens: text as written */
} cliCellKind;

/* One cell. */
typedef struct cliCell {
	const char* text; /* NUL terminated, never NULL ("" when absent) */
	size_t length;
	long line, column; /* where its value starts (1-based, byte column) */
	cliCellKind kind;
	bool boolean;      /* cli_cellBool */
	bool hasNul;       /* the text held \u0000 (its C string is cut short) */
} cliCell;

/* One record. */
typedef struct cliTableRow {
	long index;          /* 0-based among the table's rows */
	long line, column;   /* where it starts */
	cliCell* cells;      /* cells[0 .. cellCount): column k's cell (absent beyond) */
	int cellCount;
	const cliCell* label; /* the key it was filed under (keyed by id, pandas' index, R's row name), or NULL */
	const char* problem; /* why it could not be read whole (broken JSON, an unclosed quote), or NULL */
	long problemLine, problemColumn;
} cliTableRow;

/* One column. */
typedef struct cliTableColumn {
	char* name;        /* owned: the header's cell or the key path ("result.t"); NULL when not named */
	long line, column; /* where the name is first written (0 when not named) */
} cliTableColumn;

/* What a row's label is (cliTable.labels). */
typedef enum cliLabelKind {
	cli_labelNone = 0,
	cli_labelIndex, /* a row index (pandas' index, R's row names): an id when nothing else is */
	cli_labelKey    /* the key each record is filed under: its id (JSON keyed by id) */
} cliLabelKind;

typedef struct cliTable cliTable;

/* Where the rows go: begin once the sample is complete (the table's rows
 * are the sample), then take for every row in order (the sample's first).
 * Each returns false to stop the reading (out of memory). */
typedef struct cliTableSink {
	void* context;
	bool (*begin)(void* context, cliTable* table);
	bool (*take)(void* context, const cliTable* table, const cliTableRow* row);
} cliTableSink;

/* Things said about a reading, at most. */
#define CLI_TABLE_NOTES 8

struct cliTable {
	cliTableColumn* columns; /* owned */
	int columnCount;
	int columnCapacity;
	cliTableRow* rows; /* the sample (before and while begin runs), owned */
	long rowCount;
	long rowCapacity;
	long total;        /* rows added */
	long sampleLimit;
	cliTableSink sink;
	bool begun;
	bool noMemory;
	cliArena sample;    /* the sample's cells and texts */
	cliArena transient; /* a row after the sample's */
	cliTableRow current;
	struct cliPendingCell* pending; /* the cells of the row being built */
	int pendingCount;
	int pendingCapacity;
	int lastColumn;     /* the column the last key found: the next key is most often the next column */
	/* how the input was read */
	char container[288]; /* "a JSON array of objects", "text with columns separated by ';'" */
	char separator;      /* text tables: ',', ';', '\t', '|', ' ' (runs of blanks), or 0 */
	bool decimalComma;   /* numbers may be written 0,25 */
	bool header;         /* text tables: the first row named the columns */
	cliLabelKind labels; /* what rows' labels are */
	char* notes[CLI_TABLE_NOTES]; /* owned: what else the reading did or left ("header repeated at line 52, skipped") */
	int noteCount;
};

/* Start an empty table whose rows go to sink after the first sampleLimit
 * (>= 1). Destroy it with cliTable_Destroy. */
void cliTable_Init(cliTable* t, const cliTableSink* sink, long sampleLimit);

/* Free what t owns. */
void cliTable_Destroy(cliTable* t);

/* The column named name (NULL: a new unnamed column), added when new, at
 * the place given; -1 when out of memory. */
int cliTable_Column(cliTable* t, const char* name, long line, long column);

/* A new column named name (NULL: not named), whatever the columns before
 * are called (a header may name two columns alike); -1 when out of
 * memory. */
int cliTable_NewColumn(cliTable* t, const char* name, long line, long column);

/* Start a row at line:column. */
void cliTable_BeginRow(cliTable* t, long line, long column);

/* Put a cell in column k of the row being built (the text is copied; a
 * second cell for one column is dropped: the first counts). True when it
 * was put. */
bool cliTable_Put(cliTable* t, int k, cliCellKind kind, const char* text, size_t length, long line, long column);

/* Put a typed boolean. */
void cliTable_PutBool(cliTable* t, int k, bool value, long line, long column);

/* Mark the cell just put (cliTable_Put said true) as holding \u0000. */
void cliTable_MarkNul(cliTable* t);

/* Give the row being built its label (copied). */
void cliTable_Label(cliTable* t, const char* text, size_t length, cliCellKind kind, long line, long column);

/* The row being built could not be read whole: why and where (the first
 * reason stays). */
void cliTable_Problem(cliTable* t, const char* message, long line, long column);

/* The row is complete: keep it in the sample, or hand it to the sink.
 * False when the reading must stop (out of memory, the sink said so). */
bool cliTable_EndRow(cliTable* t);

/* Hand the sample to the sink if it has not had it (a table shorter than
 * its sample). False when the sink said stop. */
bool cliTable_Finish(cliTable* t);

/* Add a note about the reading ("header repeated at line 52, skipped"),
 * printf-style; at most CLI_TABLE_NOTES are kept. */
void cliTable_Note(cliTable* t, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Row r's cell in column k (an absent cell when it has none). */
const cliCell* cliTableRow_Cell(const cliTableRow* r, int k);

#endif
