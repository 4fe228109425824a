/* table_json.c - JSON and printed literals reduced to a table of records
 * (table_json.h): arrays, sequences, documents, and pandas' orientations,
 * each record flattened into cells with their places. */
#include "table_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field_names.h"
#include "input.h"
#include "json_stream.h"
#include "literal.h"
#include "output.h"

/* Objects inside a record are flattened this deep ("result.t" is depth
 * 1, "result.contact.t" depth 2); deeper ones are one cell. */
#define CLI_FLATTEN_DEPTH 2

/* The longest column name a key path makes. */
#define CLI_KEY_PATH_MAX 160

typedef struct cliLitReader {
	cliTable* t;
	cliLitParser parser;
	const char* text;
	size_t length;
	int* positions; /* the table column of each place of a row that is a list */
	int positionCount;
	int positionCapacity;
	bool headerLooked; /* rows that are lists: the first was looked at for a header */
	bool commas;       /* a sequence whose values end with ',' */
	cliJsonParser* strict;
} cliLitReader;

/* ------------------------------------------------------------- cells */

/* The column of place k of a list row (added unnamed when new). */
static int placeColumn(cliLitReader* r, int k)
{
	while (r->positionCount <= k) {
		if (r->positionCount == r->positionCapacity) {
			int grown = r->positionCapacity > 0 ? 2 * r->positionCapacity : 16;
			int* positions = realloc(r->positions, (size_t)grown * sizeof *positions);
			if (positions == NULL) {
				r->t->noMemory = true;
				return -1;
			}
			r->positions = positions;
			r->positionCapacity = grown;
		}
		int column = cliTable_Column(r->t, NULL, 0, 0);
		if (column < 0) {
			return -1;
		}
		r->positions[r->positionCount++] = column;
	}
	return r->positions[k];
}

/* Put value v in column k. */
static void putValue(cliLitReader* r, int k, const cliLit* v)
{
	cliTable* t = r->t;
	switch (v->kind) {
	case cli_litNull:
		cliTable_Put(t, k, cli_cellEmpty, "", 0, v->line, v->column);
		break;
	case cli_litBool:
		cliTable_PutBool(t, k, v->boolean, v->line, v->column);
		break;
	case cli_litNumber:
		cliTable_Put(t, k, cli_cellNumber, v->text, v->length, v->line, v->column);
		break;
	case cli_litString:
		if (cliTable_Put(t, k, cli_cellString, v->text, v->length, v->line, v->column) && v->hasNul) {
			cliTable_MarkNul(t);
		}
		break;
	case cli_litWord:
		cliTable_Put(t, k, cli_cellText, v->text, v->length, v->line, v->column);
		break;
	case cli_litList:
	case cli_litObject:
		cliTable_Put(t, k, v->kind == cli_litList ? cli_cellList : cli_cellObject, r->text + v->begin,
					 v->end - v->begin, v->line, v->column);
		break;
	}
}

/* The members of object o as cells, their names prefixed ("result.t"),
 * objects inside flattened. */
static void flatten(cliLitReader* r, const cliLit* o, const char* prefix, int depth)
{
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		if (m->key == NULL || m->keyHasNul) {
			continue; /* a place of its own in a mixed container, or a key that names nothing */
		}
		char path[CLI_KEY_PATH_MAX];
		const char* name = m->key;
		if (prefix != NULL) {
			snprintf(path, sizeof path, "%s.%s", prefix, m->key);
			name = path;
		}
		if (m->kind == cli_litObject && m->count > 0 && depth < CLI_FLATTEN_DEPTH) {
			flatten(r, m, name, depth + 1);
			continue;
		}
		putValue(r, cliTable_Column(r->t, name, m->keyLine, m->keyColumn), m);
	}
}

/* Is v a header row: a list of names (strings or words, none a number)? */
static bool isHeaderRow(const cliLit* v)
{
	if (v->kind != cli_litList || v->count == 0) {
		return false;
	}
	for (const cliLit* e = v->first; e != NULL; e = e->next) {
		if (e->kind != cli_litString && e->kind != cli_litWord) {
			return false;
		}
	}
	return true;
}

/* The elements of list v as the cells of a row, by place. */
static void listCells(cliLitReader* r, const cliLit* v)
{
	int k = 0;
	for (const cliLit* e = v->first; e != NULL; e = e->next, ++k) {
		putValue(r, placeColumn(r, k), e);
	}
}

/* The first list row: when it is a header, its names become the columns
 * (true: it is no record). */
static bool takeHeader(cliLitReader* r, const cliLit* v)
{
	if (r->headerLooked) {
		return false;
	}
	r->headerLooked = true;
	if (!isHeaderRow(v)) {
		return false;
	}
	int k = 0;
	for (const cliLit* e = v->first; e != NULL; e = e->next, ++k) {
		int column = cliTable_Column(r->t, e->text, e->line, e->column);
		if (column < 0) {
			return true;
		}
		if (k == r->positionCount) {
			placeColumn(r, k); /* grows the array; then named */
		}
		if (k < r->positionCount) {
			r->positions[k] = column;
		}
	}
	r->t->header = true;
	return true;
}

/* One record: an object flattened, a list by place, a scalar in place 0;
 * label (a member whose key files the record) or NULL. */
static bool recordRow(cliLitReader* r, const cliLit* v, const cliLit* label)
{
	if (v->kind == cli_litList && takeHeader(r, v)) {
		return !r->t->noMemory;
	}
	cliTable_BeginRow(r->t, v->line, v->column);
	if (label != NULL) {
		cliTable_Label(r->t, label->key, strlen(label->key), cli_cellString, label->keyLine, label->keyColumn);
	}
	if (v->kind == cli_litObject) {
		flatten(r, v, NULL, 0);
	} else if (v->kind == cli_litList) {
		listCells(r, v);
	} else {
		putValue(r, placeColumn(r, 0), v);
	}
	return cliTable_EndRow(r->t);
}

/* Does key name a field (surely or not)? */
static bool namesField(const char* key)
{
	bool sure = false;
	return cliSlotOfName(key, &sure) != cli_slotNone;
}

/* Is o an object keyed by id: members all objects (or null), no key a
 * field's name? */
static bool isKeyedById(const cliLit* o)
{
	if (o->kind != cli_litObject || o->count == 0) {
		return false;
	}
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		if (m->key == NULL || (m->kind != cli_litObject && m->kind != cli_litNull) || namesField(m->key)) {
			return false;
		}
	}
	return true;
}

/* A value of an array or a sequence: its rows (one, or one per member of
 * an object keyed by id). */
static bool valueRows(cliLitReader* r, const cliLit* v)
{
	bool records = v->kind == cli_litList && v->count > 0;
	for (const cliLit* e = records ? v->first : NULL; e != NULL; e = e->next) {
		records = records && e->kind == cli_litObject;
	}
	if (records) {
		/* an array of records among others (arrays written one after another) */
		for (const cliLit* e = v->first; e != NULL; e = e->next) {
			if (!valueRows(r, e)) {
				return false;
			}
		}
		return true;
	}
	if (isKeyedById(v)) {
		r->t->labels = cli_labelKey;
		for (const cliLit* m = v->first; m != NULL; m = m->next) {
			if (m->kind == cli_litObject && !recordRow(r, m, m)) {
				return false;
			}
		}
		return true;
	}
	return recordRow(r, v, NULL);
}

/* ------------------------------------------------------------ errors */

/* The JSON parser, made on first use (most files never need it); NULL
 * when out of memory. */
static cliJsonParser* strictParser(cliLitReader* r)
{
	if (r->strict == NULL) {
		r->strict = cliJsonParser_Create();
	}
	return r->strict;
}

/* A structure that breaks at error: JSON's own words when the text, read
 * as JSON from begin (its value's start, at line:column), breaks at the
 * same place. */
static void jsonWords(cliLitReader* r, size_t begin, long line, long column, bcError* error)
{
	if (error->code != bc_errorSyntax || strictParser(r) == NULL) {
		return;
	}
	size_t offset = 0;
	char message[sizeof error->message];
	size_t length = cliJsonValueLength(r->text + begin, r->length - begin);
	if (cliJsonParser_Parse(r->strict, r->text + begin, length, &offset, message, sizeof message) != NULL ||
		offset == SIZE_MAX) {
		return;
	}
	long at = 0, atColumn = 0;
	cliTextPosition(r->text + begin, offset, line, column, &at, &atColumn);
	if (at == error->line && atColumn == error->column) {
		snprintf(error->message, sizeof error->message, "%s", message);
	}
}

/* A record that could not be read, text [at, end): a row with its problem,
 * and its id when one can be found. */
static bool brokenRow(cliLitReader* r, const cliLitCursor* at, size_t end, const bcError* problem)
{
	cliTable_BeginRow(r->t, at->line, cliLitCursor_Column(at));
	cliTable_Problem(r->t, problem->message, problem->line, problem->column);
	/* the id, when the record was read well formed up to it */
	const char* text = r->text + at->pos;
	size_t length = end - at->pos;
	bool noMemory = false;
	const cJSON* partial = strictParser(r) != NULL ? cliJsonParser_PartialValue(r->strict, text, length, &noMemory) : NULL;
	const cJSON* idNode = partial != NULL ? cliJsonMember(partial, "id") : NULL;
	size_t idBegin = 0, keyBegin = 0;
	if (idNode != NULL && cliLocateJsonNode(text, length, partial, idNode, &idBegin, &keyBegin)) {
		cliLitCursor idAt = *at;
		cliLitCursor_Advance(&idAt, idBegin);
		bcError ignored;
		const cliLit* id = cliLitParser_Value(&r->parser, &idAt, &ignored);
		if (id != NULL && cliLit_IsScalar(id)) {
			putValue(r, cliTable_Column(r->t, "id", 0, 0), id);
		}
	}
	return cliTable_EndRow(r->t);
}

/* ------------------------------------------------------- containers */

/* The elements of the list at the cursor (its '['), each a record. */
static bool readArray(cliLitReader* r, cliLitCursor* c, bcError* error)
{
	size_t begin = c->pos;
	long line = c->line;
	long column = cliLitCursor_Column(c);
	cliLitCursor_Advance(c, 1);
	for (;;) {
		cliLitCursor_SkipSpace(c);
		if (c->pos >= c->length) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorSyntax;
			error->line = c->line;
			error->column = cliLitCursor_Column(c);
			snprintf(error->message, sizeof error->message, "unexpected end of input: unclosed '[' opened at %ld:%ld",
					 line, column);
			jsonWords(r, begin, line, column, error);
			return false;
		}
		char ch = c->text[c->pos];
		if (ch == ']') {
			cliLitCursor_Advance(c, 1);
			return true;
		}
		if (ch == ',' || ch == ';') {
			cliLitCursor_Advance(c, 1);
			continue;
		}
		cliLitParser_Reset(&r->parser);
		cliLitCursor at = *c;
		unsigned used = r->parser.used;
		const cliLit* v = cliLitParser_Value(&r->parser, c, error);
		if (v == NULL) {
			r->parser.used = used;
		}
		if (v == NULL && error->code == bc_errorSyntax) {
			/* a record that cannot be read: if its brackets close, it is a
			 * record with a problem and the array goes on */
			bcError problem = *error;
			*c = at;
			if (cliLitCursor_SkipValue(c) && c->pos > at.pos) {
				jsonWords(r, at.pos, at.line, cliLitCursor_Column(&at), &problem);
				if (!brokenRow(r, &at, c->pos, &problem)) {
					return false;
				}
				continue;
			}
			jsonWords(r, begin, line, column, error);
			return false;
		}
		if (v == NULL) {
			return false;
		}
		if (!valueRows(r, v)) {
			return false;
		}
	}
}

/* The values one after another (NDJSON, a record printed per line), an
 * optional ',' after each: each a record; a value that cannot be read is
 * a row with its problem (and its id, if one can be found), and reading
 * goes on at the next line. */
static bool readSequence(cliLitReader* r, cliLitCursor* c)
{
	for (;;) {
		cliLitCursor_SkipSpace(c);
		while (c->pos < c->length && (c->text[c->pos] == ',' || c->text[c->pos] == ';')) {
			r->commas = true;
			cliLitCursor_Advance(c, 1);
			cliLitCursor_SkipSpace(c);
		}
		if (c->pos >= c->length) {
			return true;
		}
		cliLitCursor at = *c;
		cliLitParser_Reset(&r->parser);
		bcError problem;
		unsigned used = r->parser.used; /* what a record that is not read met says nothing of the file */
		const cliLit* v = cliLitParser_Value(&r->parser, c, &problem);
		if (v == NULL || (v->kind != cli_litList && v->kind != cli_litObject)) {
			r->parser.used = used;
		}
		if (v != NULL && (v->kind == cli_litList || v->kind == cli_litObject)) {
			/* the rest of its line must be blank (or a comma) */
			cliLitCursor after = *c;
			while (after.pos < after.length && (after.text[after.pos] == ' ' || after.text[after.pos] == '\t' ||
												after.text[after.pos] == '\r' || after.text[after.pos] == ',')) {
				after.pos++;
			}
			if (after.pos >= after.length || after.text[after.pos] == '\n') {
				if (!valueRows(r, v)) {
					return false;
				}
				continue;
			}
			memset(&problem, 0, sizeof problem);
			problem.code = bc_errorSyntax;
			problem.line = after.line;
			problem.column = (long)(after.pos - after.lineStart) + 1;
			snprintf(problem.message, sizeof problem.message, "unexpected data after the record");
		} else if (v != NULL) {
			/* a word or number between records ("Done.", a count): not a record */
			cliTable_Note(r->t, "ignored a value at line %ld (not a record)", v->line); /* never its text */
			continue;
		} else if (problem.code == bc_errorNoMemory) {
			r->t->noMemory = true;
			return false;
		} else {
			/* said where its own line ends, not where the input does */
			size_t end = at.pos;
			while (end < r->length && r->text[end] != '\n') {
				end++;
			}
			cliLitCursor line = at;
			line.length = end;
			cliLitParser_Reset(&r->parser);
			if (cliLitParser_Value(&r->parser, &line, &problem) != NULL) {
				/* whole on its line: the lines after it broke it */
				memset(&problem, 0, sizeof problem);
				problem.code = bc_errorSyntax;
				problem.line = line.line;
				problem.column = cliLitCursor_Column(&line);
				snprintf(problem.message, sizeof problem.message, "unexpected data after the record");
			}
			jsonWords(r, at.pos, at.line, cliLitCursor_Column(&at), &problem);
		}
		/* the record's line: its problem, its id if one can be read */
		size_t lineEnd = at.pos;
		while (lineEnd < r->length && r->text[lineEnd] != '\n') {
			lineEnd++;
		}
		if (!brokenRow(r, &at, lineEnd, &problem)) {
			return false;
		}
		*c = at;
		cliLitCursor_Advance(c, lineEnd - at.pos);
	}
}

/* The list v (lazy: parsed now) as a tree; NULL with error. */
static const cliLit* wholeList(cliLitReader* r, const cliLit* v, bcError* error)
{
	if (!v->lazy) {
		return v;
	}
	cliLitCursor c;
	cliLitCursor_At(&c, r->text, r->length, v);
	int lazy = r->parser.lazyDepth;
	r->parser.lazyDepth = 0;
	const cliLit* whole = cliLitParser_Value(&r->parser, &c, error);
	r->parser.lazyDepth = lazy;
	return whole;
}

/* The first element of the lazy list v: its kind, or -1 when v is empty. */
static int firstKind(cliLitReader* r, const cliLit* v)
{
	cliLitCursor c;
	cliLitCursor_At(&c, r->text, r->length, v);
	cliLitCursor_Advance(&c, 1);
	cliLitCursor_SkipSpace(&c);
	if (c.pos >= c.length || c.text[c.pos] == ']') {
		return -1;
	}
	bcError ignored;
	int lazy = r->parser.lazyDepth;
	r->parser.lazyDepth = 1; /* its lists skipped, not built */
	const cliLit* e = cliLitParser_Value(&r->parser, &c, &ignored);
	r->parser.lazyDepth = lazy;
	return e != NULL ? (int)e->kind : (int)cli_litObject;
}

/* Are the keys of o's members (or of its first member object, inner) all
 * whole numbers (pandas' default index)? */
static bool keysNumbered(const cliLit* o)
{
	if (o == NULL || o->count == 0) {
		return false;
	}
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		if (m->key == NULL || m->key[0] == '\0' || strspn(m->key, "0123456789") != strlen(m->key)) {
			return false;
		}
	}
	return true;
}

/* How many of o's keys name a field surely. */
static int keysNamingFields(const cliLit* o)
{
	int n = 0;
	for (const cliLit* m = o != NULL ? o->first : NULL; m != NULL; m = m->next) {
		bool sure = false;
		n += m->key != NULL && cliSlotOfName(m->key, &sure) != cli_slotNone && sure;
	}
	return n;
}

/* pandas' "columns" orientation: o's members are columns, each an object
 * of the rows' cells keyed by the row's label. */
static bool readColumns(cliLitReader* r, const cliLit* o)
{
	cliTable* t = r->t;
	t->labels = cli_labelIndex;
	int columnCount = o->count;
	const cliLit** cursors = calloc((size_t)columnCount, sizeof *cursors);
	int* columns = calloc((size_t)columnCount, sizeof *columns);
	bool ok = cursors != NULL && columns != NULL;
	int k = 0;
	for (const cliLit* m = o->first; ok && m != NULL; m = m->next, ++k) {
		cursors[k] = m->kind == cli_litObject ? m->first : NULL;
		columns[k] = cliTable_Column(t, m->key, m->keyLine, m->keyColumn);
	}
	/* the rows are the first column's labels, in its order */
	const cliLit* rows = o->first;
	for (const cliLit* label = rows != NULL && rows->kind == cli_litObject ? rows->first : NULL; ok && label != NULL;
		 label = label->next) {
		cliTable_BeginRow(t, label->keyLine, label->keyColumn);
		cliTable_Label(t, label->key, strlen(label->key), cli_cellString, label->keyLine, label->keyColumn);
		k = 0;
		for (const cliLit* m = o->first; m != NULL; m = m->next, ++k) {
			/* each column's members come in the rows' order: look there first */
			const cliLit* cell = cursors[k];
			if (cell == NULL || cell->key == NULL || strcmp(cell->key, label->key) != 0) {
				cell = cliLit_Member(m, label->key);
			}
			if (cell != NULL) {
				putValue(r, columns[k], cell);
				cursors[k] = cell->next;
			}
		}
		ok = cliTable_EndRow(t);
	}
	free(cursors);
	free(columns);
	return ok && !t->noMemory;
}

/* An object of lists, one per column ({"id": [...], "alpha": [...]}): row
 * k is every list's element k. */
static bool readLists(cliLitReader* r, const cliLit* o, bcError* error)
{
	cliTable* t = r->t;
	int columnCount = o->count;
	const cliLit** cursors = calloc((size_t)columnCount, sizeof *cursors);
	int* columns = calloc((size_t)columnCount, sizeof *columns);
	bool ok = cursors != NULL && columns != NULL;
	int k = 0;
	long rows = 0;
	for (const cliLit* m = o->first; ok && m != NULL; m = m->next, ++k) {
		const cliLit* list = wholeList(r, m, error);
		if (list == NULL) {
			ok = false;
			break;
		}
		cursors[k] = list->first;
		rows = list->count > rows ? list->count : rows;
		columns[k] = cliTable_Column(t, m->key, m->keyLine, m->keyColumn);
	}
	for (long i = 0; ok && i < rows; ++i) {
		const cliLit* at = NULL;
		for (k = 0; k < columnCount && at == NULL; ++k) {
			at = cursors[k];
		}
		cliTable_BeginRow(t, at != NULL ? at->line : 0, at != NULL ? at->column : 0);
		for (k = 0; k < columnCount; ++k) {
			if (cursors[k] != NULL) {
				putValue(r, columns[k], cursors[k]);
				cursors[k] = cursors[k]->next;
			}
		}
		ok = cliTable_EndRow(t);
	}
	free(cursors);
	free(columns);
	return ok && !t->noMemory;
}

/* pandas' "split" orientation: columns, data (and index, the rows'
 * labels). */
static bool readSplit(cliLitReader* r, const cliLit* columns, const cliLit* data, const cliLit* index,
					  bcError* error)
{
	cliTable* t = r->t;
	const cliLit* names = wholeList(r, columns, error);
	if (names == NULL) {
		return false;
	}
	int k = 0;
	for (const cliLit* e = names->first; e != NULL; e = e->next, ++k) {
		placeColumn(r, k);
		if (k < r->positionCount && cliLit_IsScalar(e)) {
			r->positions[k] = cliTable_Column(t, e->text, e->line, e->column);
		}
	}
	r->headerLooked = true;
	t->header = true;
	/* the labels, if any, parsed whole: a list of scalars, small beside the data */
	const cliLit* labels = index != NULL ? wholeList(r, index, error) : NULL;
	const cliLit* label = labels != NULL ? labels->first : NULL;
	t->labels = labels != NULL ? cli_labelIndex : cli_labelNone;
	cliLitCursor c;
	cliLitCursor_At(&c, r->text, r->length, data);
	cliLitCursor_Advance(&c, 1);
	/* the rows stream (the labels' tree must live on: a second parser for them) */
	cliLitParser rows;
	memset(&rows, 0, sizeof rows);
	bool ok = true;
	for (;;) {
		cliLitCursor_SkipSpace(&c);
		if (c.pos >= c.length) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorSyntax;
			error->line = c.line;
			error->column = cliLitCursor_Column(&c);
			snprintf(error->message, sizeof error->message, "unexpected end of input: unclosed '[' opened at %ld:%ld",
					 data->line, data->column);
			ok = false;
			break;
		}
		if (c.text[c.pos] == ']') {
			break;
		}
		if (c.text[c.pos] == ',') {
			cliLitCursor_Advance(&c, 1);
			continue;
		}
		cliLitParser_Reset(&rows);
		const cliLit* v = cliLitParser_Value(&rows, &c, error);
		if (v == NULL) {
			ok = false;
			break;
		}
		cliTable_BeginRow(t, v->line, v->column);
		if (label != NULL) {
			cliTable_Label(t, label->text, label->length, label->kind == cli_litString ? cli_cellString : cli_cellText,
						   label->line, label->column);
			label = label->next;
		}
		if (v->kind == cli_litList) {
			listCells(r, v);
		} else {
			putValue(r, placeColumn(r, 0), v);
		}
		if (!cliTable_EndRow(t)) {
			ok = false;
			break;
		}
	}
	r->parser.used |= rows.used;
	cliLitParser_Destroy(&rows);
	return ok;
}

/* Is o (a top-level object, its lists lazy) an object of lists, one per
 * column: every member a list of scalars or short lists, as many as
 * another? */
static bool isListsObject(cliLitReader* r, const cliLit* o)
{
	if (o->count == 0) {
		return false;
	}
	bool filled = false;
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		if (m->key == NULL || m->kind != cli_litList) {
			return false;
		}
		int kind = firstKind(r, m);
		if (kind == cli_litObject) {
			return false;
		}
		filled = filled || kind >= 0;
	}
	return filled;
}

static bool readObject(cliLitReader* r, const cliLit* o, int depth, bcError* error);

/* A top-level object holding one array of records: which member (the
 * "results" of cast's document first, then the first array of objects,
 * then of lists), or NULL. */
static const cliLit* recordsMember(cliLitReader* r, const cliLit* o)
{
	const cliLit* objects = NULL;
	const cliLit* lists = NULL;
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		if (m->key == NULL || m->kind != cli_litList) {
			continue;
		}
		int kind = firstKind(r, m);
		if (strcmp(m->key, "results") == 0 && (kind == cli_litObject || kind < 0)) {
			return m;
		}
		if (kind == cli_litObject && objects == NULL) {
			objects = m;
		} else if (kind == cli_litList && lists == NULL) {
			lists = m;
		}
	}
	return objects != NULL ? objects : lists;
}

/* A single top-level object (its lists lazy): whichever orientation it
 * has. */
static bool readObject(cliLitReader* r, const cliLit* o, int depth, bcError* error)
{
	cliTable* t = r->t;
	const cliLit* columns = cliLit_Member(o, "columns");
	const cliLit* data = cliLit_Member(o, "data");
	if (columns != NULL && data != NULL && columns->kind == cli_litList && data->kind == cli_litList &&
		firstKind(r, data) != cli_litObject) {
		snprintf(t->container, sizeof t->container, "pandas' \"split\" JSON (columns, data)");
		return readSplit(r, columns, data, cliLit_Member(o, "index"), error);
	}
	if (isListsObject(r, o)) {
		snprintf(t->container, sizeof t->container, "a JSON object of lists, one per column");
		return readLists(r, o, error);
	}
	/* a record itself (its keys name fields: id, hit, alpha), whatever
	 * lists it holds (ties) */
	int fields = 0;
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		bool sure = false;
		fields += m->key != NULL && cliLit_IsScalar(m) && cliSlotOfName(m->key, &sure) != cli_slotNone && sure;
	}
	const cliLit* records = fields >= 2 ? NULL : recordsMember(r, o);
	if (records != NULL) {
		if (strcmp(records->key, "results") == 0) {
			snprintf(t->container, sizeof t->container, "a results document ({\"results\": [...]})");
		} else {
			char key[CLI_SHOWN_NAME_SIZE]; /* the student's text: escaped and cut short */
			cliShortName(records->key, key, sizeof key);
			snprintf(t->container, sizeof t->container, "the records under \"%s\" of a JSON object", key);
		}
		cliLitCursor c;
		cliLitCursor_At(&c, r->text, r->length, records);
		r->parser.lazyDepth = 0;
		return readArray(r, &c, error);
	}
	bool objects = o->count > 0;
	int scalars = 0;
	const cliLit* inner = NULL; /* the one member that is an object of objects */
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		objects = objects && (m->kind == cli_litObject || m->kind == cli_litNull);
		scalars += cliLit_IsScalar(m);
		if (m->kind == cli_litObject && isKeyedById(m)) {
			inner = inner == NULL ? m : o; /* two: none */
		}
	}
	if (objects) {
		const cliLit* first = o->first->kind == cli_litObject ? o->first : NULL;
		bool columnsFirst = keysNumbered(first) && !keysNumbered(o);
		bool rowsFirst = keysNumbered(o) && !keysNumbered(first);
		if (!rowsFirst && (columnsFirst || keysNamingFields(o) > keysNamingFields(first))) {
			snprintf(t->container, sizeof t->container, "pandas' \"columns\" JSON (each column keyed by row)");
			return readColumns(r, o);
		}
		if (rowsFirst || cliLit_Member(first, "id") != NULL) {
			snprintf(t->container, sizeof t->container, "pandas' \"index\" JSON (each row keyed by its label)");
			t->labels = cli_labelIndex;
		} else {
			snprintf(t->container, sizeof t->container, "JSON keyed by id");
			t->labels = cli_labelKey;
		}
		for (const cliLit* m = o->first; m != NULL; m = m->next) {
			if (m->kind == cli_litObject && !recordRow(r, m, m)) {
				return false;
			}
		}
		return true;
	}
	if (inner != NULL && inner != o && scalars == o->count - 1 && depth == 0) {
		/* {"student": "bob", "answers": {...}}: the table is inside */
		char key[CLI_SHOWN_NAME_SIZE]; /* the student's text: escaped and cut short */
		cliShortName(inner->key, key, sizeof key);
		bool ok = readObject(r, inner, depth + 1, error);
		char outer[160]; /* the inner table's container (any, with a key in it, is shorter) */
		snprintf(outer, sizeof outer, "%.159s", t->container);
		snprintf(t->container, sizeof t->container, "%s, under \"%s\"", outer, key);
		return ok;
	}
	if (o->count == 0) {
		snprintf(t->container, sizeof t->container, "an empty JSON object");
		return true;
	}
	/* one record alone: NDJSON of one line */
	snprintf(t->container, sizeof t->container, "one record per line (NDJSON)");
	return valueRows(r, o);
}

/* ------------------------------------------------------------- driver */

bool cliLooksLikeLiteral(const char* text, size_t length)
{
	cliLitCursor c;
	cliLitCursor_Init(&c, text, length);
	cliLitCursor_SkipSpace(&c);
	if (c.pos >= length) {
		return false;
	}
	char ch = text[c.pos];
	if (ch == '[' || ch == '{' || ch == '(') {
		return true;
	}
	/* a type name: letters, digits, '_', '.', '$' then a bracket */
	size_t i = c.pos;
	while (i < length && ((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
						  (text[i] >= '0' && text[i] <= '9') || text[i] == '_' || text[i] == '.' || text[i] == '$')) {
		i++;
	}
	if (i == c.pos || (text[c.pos] >= '0' && text[c.pos] <= '9')) {
		return false;
	}
	if (i < length && text[i] == '[') {
		return true;
	}
	while (i < length && (text[i] == ' ' || text[i] == '\t')) {
		i++;
	}
	return i < length && (text[i] == '{' || text[i] == '(');
}

/* Does the text at the cursor (a '[') hold one array per line (jq -c): its
 * first line one value ending there, the next line opening another? The
 * cursor is left where it was. */
static bool arraysPerLine(const char* text, size_t length, const cliLitCursor* c)
{
	const char* nl = memchr(text + c->pos, '\n', length - c->pos);
	if (nl == NULL) {
		return false;
	}
	size_t end = (size_t)(nl - text);
	size_t last = end;
	while (last > c->pos && (text[last - 1] == ' ' || text[last - 1] == '\r' || text[last - 1] == ',')) {
		last--;
	}
	size_t next = end + 1;
	while (next < length && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r' || text[next] == '\n')) {
		next++;
	}
	if (last == c->pos || text[last - 1] != ']' || next >= length || (text[next] != '[' && text[next] != '{')) {
		return false;
	}
	cliLitCursor line = *c;
	line.length = end;
	return cliLitCursor_SkipValue(&line) && line.pos == last - (text[last - 1] == ',' ? 1 : 0);
}

/* Is the next line that is not blank after the one at start opened as the
 * first one is ('{', '[' or a letter: another record)? */
static bool nextLineOpens(const char* text, size_t length, size_t start)
{
	const char* nl = memchr(text + start, '\n', length - start);
	if (nl == NULL) {
		return false;
	}
	size_t next = (size_t)(nl - text) + 1;
	while (next < length && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r' || text[next] == '\n')) {
		next++;
	}
	return next < length && text[next] == text[start];
}

/* What the syntax met beyond JSON, in words ("NaN, single quotes"), or "". */
static void describeSyntax(unsigned used, char* out, size_t size)
{
	static const struct {
		unsigned bit;
		const char* words;
	} names[] = {
		{ cli_litNonFinite, "NaN or Infinity" },  { cli_litSingleQuotes, "single quotes" },
		{ cli_litPython, "True/False/None" },      { cli_litEquals, "key=value" },
		{ cli_litTypeNames, "type names" },        { cli_litParens, "tuples" },
		{ cli_litBareWords, "unquoted words" },    { cli_litLooseCommas, "loose commas" },
		{ cli_litComments, "comments" },           { cli_litLooseNumbers, "numbers JSON does not write" },
	};
	size_t n = 0;
	out[0] = '\0';
	for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
		if ((used & names[k].bit) && n + 2 < size) {
			int w = snprintf(out + n, size - n, "%s%s", n > 0 ? ", " : "", names[k].words);
			n += w > 0 ? (size_t)w : 0;
		}
	}
}

bool cliTable_ReadLiteral(cliTable* t, const char* text, size_t length, bcError* error)
{
	cliLitReader r;
	memset(&r, 0, sizeof r);
	r.t = t;
	r.text = text;
	r.length = length;
	memset(error, 0, sizeof *error);
	error->record = -1;
	cliLitCursor c;
	cliLitCursor_Init(&c, text, length);
	cliLitCursor_SkipSpace(&c);
	size_t start = c.pos;
	cliLitCursor first = c;
	bool sequence = text[start] == '[' && arraysPerLine(text, length, &c);
	bool ok = true;
	const cliLit* o = NULL;
	if (!sequence && text[start] != '[') {
		/* the first value, its lists skipped; more after it: a sequence */
		r.parser.lazyDepth = 1;
		long line = c.line;
		long column = cliLitCursor_Column(&c);
		o = cliLitParser_Value(&r.parser, &c, error);
		cliLitCursor after = c;
		cliLitCursor_SkipSpace(&after);
		while (after.pos < length && (text[after.pos] == ',' || text[after.pos] == ';')) {
			cliLitCursor_Advance(&after, 1);
			cliLitCursor_SkipSpace(&after);
		}
		if (o == NULL && error->code == bc_errorSyntax && nextLineOpens(text, length, start)) {
			sequence = true; /* NDJSON whose first line is broken */
		} else if (o == NULL) {
			jsonWords(&r, start, line, column, error);
			ok = false;
		} else if (after.pos < length) {
			sequence = true;
		}
	}
	if (sequence) {
		c = first;
		r.parser.lazyDepth = 0;
		cliLitParser_Reset(&r.parser);
		r.parser.used = 0;
		ok = readSequence(&r, &c);
		snprintf(t->container, sizeof t->container, "%s", r.commas ? "one record per line, each ending with ','"
																	: "one record per line (NDJSON)");
	} else if (ok && text[start] == '[') {
		ok = readArray(&r, &c, error);
		snprintf(t->container, sizeof t->container, "%s", t->header ? "a JSON array of arrays, the first its header"
														  : r.positionCount > 0 ? "a JSON array of arrays"
																				: "a JSON array of records");
	} else if (ok && o->kind == cli_litObject && o->text[0] == '\0') {
		ok = readObject(&r, o, 0, error);
	} else if (ok) {
		snprintf(t->container, sizeof t->container, "one record");
		ok = valueRows(&r, o);
	}
	if (ok && t->noMemory) {
		ok = false;
	}
	if (!ok && t->noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
	}
	char syntax[160];
	describeSyntax(r.parser.used, syntax, sizeof syntax);
	if (ok && syntax[0] != '\0') {
		cliTable_Note(t, "not strict JSON: %s", syntax);
	}
	cliLitParser_Destroy(&r.parser);
	free(r.positions);
	cliJsonParser_Destroy(r.strict);
	return ok;
}
