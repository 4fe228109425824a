/* table_text.c - text in columns reduced to a table of records
 * (table_text.h): the separator sniffed over many lines, quotes and
 * brackets kept whole, the header found or not, row names, repeated
 * headers, rules, comments and prose set aside. */
#include "table_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_value.h"
#include "field_names.h"
#include "input.h"

/* Lines looked at to tell the separator and the header: enough for a
 * consistent count, few enough to be instant. */
#define CLI_SNIFF_LINES 64

/* A separator is taken when at least this share of the lines looked at
 * has the same number of them, or all lines but one (a header, a footer
 * or a row with a quoted separator may differ). */
#define CLI_SNIFF_SHARE 0.8

/* Lines before a table that do not fit it (a title, Excel's "sep=;")
 * are skipped, at most. */
#define CLI_PREAMBLE_LINES 5

/* One cell of a row: its raw bytes [begin, end) (quotes included),
 * where it starts. */
typedef struct cliSpan {
	size_t begin, end;
	long line, column;
	bool quoted;
} cliSpan;

typedef struct cliTextReader {
	cliTable* t;
	const char* text;
	size_t length;
	char separator;    /* ',', ';', '\t', '|', or ' ' for runs of blanks */
	bool edgePipes;    /* '|' tables written | a | b | (markdown, psql): the empty cells at the edges go */
	bool decimalComma;
	size_t pos;        /* the next row's first byte */
	long line;         /* its line */
	cliSpan* cells;    /* the row split */
	int count;
	int capacity;
	long rowLine;      /* the row's first line and where it ends */
	long endLine, endColumn;
	char* scratch;     /* a quoted cell decoded */
	size_t scratchCapacity;
} cliTextReader;

static bool isBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* ------------------------------------------------------------ lines */

/* The line starting at pos: [pos, *end) without its '\r' or '\n'; the
 * next line's start in *next. */
static void lineAt(const cliTextReader* r, size_t pos, size_t* end, size_t* next)
{
	const char* nl = memchr(r->text + pos, '\n', r->length - pos);
	size_t e = nl != NULL ? (size_t)(nl - r->text) : r->length;
	*next = nl != NULL ? e + 1 : r->length;
	while (e > pos && (r->text[e - 1] == '\r')) {
		e--;
	}
	*end = e;
}

static bool isBlankLine(const char* s, size_t n)
{
	for (size_t i = 0; i < n; ++i) {
		if (!isBlank(s[i])) {
			return false;
		}
	}
	return true;
}

/* A comment line: '#', '%' or "//" first (after blanks). */
static bool isCommentLine(const char* s, size_t n)
{
	size_t i = 0;
	while (i < n && isBlank(s[i])) {
		i++;
	}
	return i < n && (s[i] == '#' || s[i] == '%' || (s[i] == '/' && i + 1 < n && s[i + 1] == '/'));
}

/* A rule: only '-', '=', '_', '+', '|', ':' and blanks, with at least
 * three of the first three (markdown's |---|, psql's ----+----, MATLAB's
 * ______). */
static bool isRuleLine(const char* s, size_t n)
{
	int marks = 0;
	for (size_t i = 0; i < n; ++i) {
		char c = s[i];
		if (c == '-' || c == '=' || c == '_') {
			marks++;
		} else if (c != '+' && c != '|' && c != ':' && !isBlank(c)) {
			return false;
		}
	}
	return marks >= 3;
}

/* ------------------------------------------------------------ splitting */

static bool addCell(cliTextReader* r, size_t begin, size_t end, long line, long column, bool quoted)
{
	if (r->count == r->capacity) {
		int grown = r->capacity > 0 ? 2 * r->capacity : 32;
		cliSpan* cells = realloc(r->cells, (size_t)grown * sizeof *cells);
		if (cells == NULL) {
			r->t->noMemory = true;
			return false;
		}
		r->cells = cells;
		r->capacity = grown;
	}
	r->cells[r->count++] = (cliSpan){ begin, end, line, column, quoted };
	return true;
}

/* Split the row at pos (which starts a line) by separator, counting only
 * (cells NULL-free: r->count) when countOnly; a quoted cell may hold line
 * breaks. Moves pos past the row. */
static void splitRow(cliTextReader* r, char separator)
{
	const char* s = r->text;
	size_t n = r->length;
	size_t i = r->pos;
	long line = r->line;
	size_t lineStart = i;
	r->count = 0;
	r->rowLine = line;
	bool spaces = separator == ' ';
	for (;;) {
		/* a cell: blanks before it skipped */
		while (i < n && (s[i] == ' ' || s[i] == '\r' || (s[i] == '\t' && separator != '\t'))) {
			i++;
		}
		if (spaces && (i >= n || s[i] == '\n')) {
			break; /* blanks at the end of the line */
		}
		size_t begin = i;
		long cellLine = line;
		long cellColumn = (long)(i - lineStart) + 1;
		bool quoted = i < n && s[i] == '"';
		if (quoted) {
			i++;
			while (i < n) {
				if (s[i] == '"') {
					if (i + 1 < n && s[i + 1] == '"') {
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (s[i] == '\n') {
					line++;
					lineStart = i + 1;
				}
				i++;
			}
		}
		/* the rest of the cell: to the separator, brackets kept whole */
		int depth = 0;
		while (i < n && s[i] != '\n') {
			char c = s[i];
			if (c == '[' || c == '(' || c == '{') {
				depth++;
			} else if ((c == ']' || c == ')' || c == '}') && depth > 0) {
				depth--;
			} else if (depth == 0 && (spaces ? (c == ' ' || c == '\t') : c == separator)) {
				break;
			}
			i++;
		}
		if (depth > 0 && !quoted) {
			/* an unbalanced bracket: split as if there were none */
			i = begin;
			while (i < n && s[i] != '\n' && !(spaces ? (s[i] == ' ' || s[i] == '\t') : s[i] == separator)) {
				i++;
			}
		}
		size_t end = i;
		while (end > begin && isBlank(s[end - 1])) {
			end--;
		}
		if (!addCell(r, begin, end, cellLine, cellColumn, quoted)) {
			return;
		}
		if (i < n && s[i] != '\n') {
			i++; /* the separator (spaces: the first blank of the run) */
			continue;
		}
		break;
	}
	r->endLine = line;
	r->endColumn = (long)(i - lineStart) + 1;
	if (i < n && s[i] == '\n') {
		line++;
		i++;
	}
	r->pos = i;
	r->line = line;
	if (r->edgePipes && r->count > 0 && r->cells[0].begin == r->cells[0].end) {
		memmove(r->cells, r->cells + 1, (size_t)(r->count - 1) * sizeof *r->cells);
		r->count--;
	}
	if (r->edgePipes && r->count > 0 && r->cells[r->count - 1].begin == r->cells[r->count - 1].end) {
		r->count--;
	}
}

/* Cell k's text, decoded (quotes gone, "" a quote), in scratch. */
static const char* cellText(cliTextReader* r, int k, size_t* length)
{
	const cliSpan* c = r->cells + k;
	size_t n = c->end - c->begin;
	if (r->scratchCapacity < n + 1) {
		char* grown = realloc(r->scratch, n + 1);
		if (grown == NULL) {
			r->t->noMemory = true;
			*length = 0;
			return "";
		}
		r->scratch = grown;
		r->scratchCapacity = n + 1;
	}
	const char* s = r->text + c->begin;
	size_t out = 0;
	if (c->quoted) {
		size_t i = 1;
		while (i < n) {
			if (s[i] == '"') {
				if (i + 1 < n && s[i + 1] == '"') {
					r->scratch[out++] = '"';
					i += 2;
					continue;
				}
				i++;
				/* text after the closing quote is kept, as it stands */
				while (i < n) {
					r->scratch[out++] = s[i++];
				}
				break;
			}
			r->scratch[out++] = s[i++];
		}
	} else {
		memcpy(r->scratch, s, n);
		out = n;
	}
	r->scratch[out] = '\0';
	*length = out;
	return r->scratch;
}

/* ------------------------------------------------------------ sniffing */

/* The lines worth looking at: not blank, not comments, not rules. Their
 * starts in starts[], at most CLI_SNIFF_LINES. */
static int sampleLines(const cliTextReader* r, size_t* starts)
{
	int n = 0;
	size_t pos = 0;
	while (pos < r->length && n < CLI_SNIFF_LINES) {
		size_t end, next;
		lineAt(r, pos, &end, &next);
		const char* s = r->text + pos;
		if (!isBlankLine(s, end - pos) && !isCommentLine(s, end - pos) && !isRuleLine(s, end - pos)) {
			starts[n++] = pos;
		}
		pos = next;
	}
	return n;
}

/* Cells of the line at start split by separator. */
static int countCells(cliTextReader* r, size_t start, char separator)
{
	size_t pos = r->pos;
	long line = r->line;
	r->pos = start;
	splitRow(r, separator);
	int count = r->count;
	r->pos = pos;
	r->line = line;
	return count;
}

/* The most frequent of counts[0 .. n) and how often it occurs. */
static int modeOf(const int* counts, int n, int* frequency)
{
	int best = 0;
	int bestFrequency = 0;
	for (int i = 0; i < n; ++i) {
		int f = 0;
		for (int j = 0; j < n; ++j) {
			f += counts[j] == counts[i];
		}
		if (f > bestFrequency || (f == bestFrequency && counts[i] > best)) {
			best = counts[i];
			bestFrequency = f;
		}
	}
	*frequency = bestFrequency;
	return best;
}

/* Tell the separator from the sample lines: the one whose count is the
 * same on most lines, the most cells winning; runs of blanks when none
 * is. */
static char sniffSeparator(cliTextReader* r, const size_t* starts, int lines)
{
	static const char candidates[] = { '\t', ';', '|', ',' };
	char best = 0;
	int bestCells = 1;
	int counts[CLI_SNIFF_LINES];
	for (size_t k = 0; k < sizeof candidates; ++k) {
		for (int i = 0; i < lines; ++i) {
			counts[i] = countCells(r, starts[i], candidates[k]);
		}
		int frequency = 0;
		int mode = modeOf(counts, lines, &frequency);
		if (mode > bestCells && (frequency >= CLI_SNIFF_SHARE * lines || lines - frequency <= 1)) {
			best = candidates[k];
			bestCells = mode;
		}
	}
	if (best != 0) {
		return best;
	}
	for (int i = 0; i < lines; ++i) {
		counts[i] = countCells(r, starts[i], ' ');
	}
	int frequency = 0;
	int mode = modeOf(counts, lines, &frequency);
	/* aligned columns; or one column (a value a line): ',' reads it the same */
	return mode >= 2 ? ' ' : ',';
}

/* Do cells of the sample hold decimal commas ("0,25")? Only asked when ','
 * does not separate. */
static bool sniffDecimalComma(cliTextReader* r, const size_t* starts, int lines)
{
	for (int i = 0; i < lines; ++i) {
		size_t end, next;
		lineAt(r, starts[i], &end, &next);
		for (size_t k = starts[i] + 1; k + 1 < end; ++k) {
			if (r->text[k] == ',' && (unsigned char)(r->text[k - 1] - '0') < 10 &&
				(unsigned char)(r->text[k + 1] - '0') < 10) {
				return true;
			}
		}
	}
	return false;
}

/* ------------------------------------------------------------ rows */

/* Is cell k a number (as this table writes numbers)? */
static bool cellIsNumber(cliTextReader* r, int k)
{
	size_t n = 0;
	const char* text = cellText(r, k, &n);
	double x = 0.0;
	return cliCellNumber(text, r->decimalComma, &x, NULL) != 0 && cliCellNumber(text, r->decimalComma, &x, NULL) != -1;
}

/* The row just split: does it name columns (no number, and a cell that
 * surely names a field, or text above a number of the next row)? */
static bool looksLikeHeader(cliTextReader* r, const bool* nextNumbers, int nextCount)
{
	bool named = false;
	for (int k = 0; k < r->count; ++k) {
		if (cellIsNumber(r, k)) {
			return false;
		}
		size_t n = 0;
		const char* text = cellText(r, k, &n);
		bool sure = false;
		named = named || (cliSlotOfName(text, &sure) != cli_slotNone && sure);
		named = named || (n > 0 && k < nextCount && nextNumbers[k]);
	}
	return named;
}

/* Is the row just split the header again (cell for cell)? */
static bool isHeaderAgain(cliTextReader* r, char* const* names, int nameCount, int offset)
{
	if (r->count != nameCount + offset || nameCount == 0) {
		return false;
	}
	for (int k = 0; k < nameCount; ++k) {
		size_t n = 0;
		const char* text = cellText(r, k + offset, &n);
		if (names[k] == NULL || strcmp(text, names[k]) != 0) {
			return false;
		}
	}
	return true;
}

bool cliTable_ReadText(cliTable* t, const char* text, size_t length, bcError* error)
{
	cliTextReader r;
	memset(&r, 0, sizeof r);
	r.t = t;
	r.text = text;
	r.length = length;
	r.line = 1;
	memset(error, 0, sizeof *error);
	error->record = -1;
	size_t starts[CLI_SNIFF_LINES];
	int lines = sampleLines(&r, starts);
	r.separator = lines > 0 ? sniffSeparator(&r, starts, lines) : ',';
	r.decimalComma = r.separator != ',' && sniffDecimalComma(&r, starts, lines);
	if (r.separator == '|' && lines > 0) {
		size_t i = starts[0];
		while (i < length && isBlank(text[i])) {
			i++;
		}
		r.edgePipes = i < length && text[i] == '|';
	}
	t->separator = r.separator;
	t->decimalComma = r.decimalComma;
	static const char* const separatorNames[] = { "','", "';'", "tabs", "'|'" };
	if (r.separator == ' ') {
		snprintf(t->container, sizeof t->container, "columns aligned by blanks%s",
				 r.decimalComma ? " with decimal commas" : "");
	} else {
		const char* separatorName = separatorNames[r.separator == ';' ? 1 : r.separator == '\t' ? 2
													: r.separator == '|'							? 3
																									: 0];
		snprintf(t->container, sizeof t->container, "CSV separated by %s%s", separatorName,
				 r.decimalComma ? " with decimal commas" : "");
	}
	/* a preamble: lines before the table with fewer cells than a header
	 * could have (a title, Excel's "sep=;" line), said and skipped */
	size_t tableStart = 0;
	if (lines > 2) {
		int counts[CLI_SNIFF_LINES];
		for (int i = 0; i < lines; ++i) {
			counts[i] = countCells(&r, starts[i], r.separator);
		}
		int frequency = 0;
		int usual = modeOf(counts, lines, &frequency);
		int preamble = 0;
		while (usual >= 3 && preamble < CLI_PREAMBLE_LINES && preamble < lines - 2 && counts[preamble] < usual - 1) {
			preamble++;
		}
		for (int i = 0; i < preamble; ++i) {
			long line = 1;
			for (size_t k = 0; k < starts[i]; ++k) {
				line += text[k] == '\n';
			}
			/* where, never the line's text: a report never quotes a submission */
			cliTable_Note(t, "ignored line %ld: not a record", line);
		}
		if (preamble > 0) {
			tableStart = starts[preamble];
			memmove(starts, starts + preamble, (size_t)(lines - preamble) * sizeof *starts);
			lines -= preamble;
		}
	}
	/* what comes before the first row: blank lines, comments, rules, the preamble */
	int comments = 0;
	int rules = 0;
	size_t lastComment = SIZE_MAX;
	long lastCommentLine = 0;
	while (r.pos < length) {
		size_t end, next;
		lineAt(&r, r.pos, &end, &next);
		const char* s = text + r.pos;
		bool comment = isCommentLine(s, end - r.pos);
		if (!isBlankLine(s, end - r.pos) && !comment && !isRuleLine(s, end - r.pos) && r.pos >= tableStart) {
			break;
		}
		if (comment) {
			comments++;
			lastComment = r.pos;
			lastCommentLine = r.line;
		}
		rules += isRuleLine(s, end - r.pos);
		r.pos = next;
		r.line++;
	}
	size_t first = r.pos;
	long firstLine = r.line;
	/* the numbers of the sample's second row, for the header test */
	bool nextNumbers[256];
	int nextCount = 0;
	if (lines > 1) {
		r.pos = starts[1];
		splitRow(&r, r.separator);
		nextCount = r.count < 256 ? r.count : 256;
		for (int k = 0; k < nextCount; ++k) {
			nextNumbers[k] = cellIsNumber(&r, k);
		}
	}
	/* the header: the first row if it names columns, or the comment right
	 * above it (numpy's "# id hit alpha") */
	char** names = NULL;
	int nameCount = 0;
	r.pos = first;
	r.line = firstLine;
	splitRow(&r, r.separator);
	int firstCount = r.count;
	bool header = r.count > 0 && looksLikeHeader(&r, nextNumbers, nextCount);
	size_t dataStart = header ? r.pos : first;
	long dataLine = header ? r.line : firstLine;
	if (!header && lastComment != SIZE_MAX) {
		for (int k = 0; k < firstCount && k < 256; ++k) {
			nextNumbers[k] = cellIsNumber(&r, k);
		}
		size_t end, next;
		lineAt(&r, lastComment, &end, &next);
		size_t after = lastComment;
		while (after < end && (isBlank(text[after]) || text[after] == '#' || text[after] == '%' || text[after] == '/')) {
			after++;
		}
		r.pos = after;
		r.line = lastCommentLine;
		splitRow(&r, r.separator);
		header = r.count == firstCount && looksLikeHeader(&r, nextNumbers, firstCount < 256 ? firstCount : 256);
		comments -= header;
	}
	if (header) {
		names = calloc((size_t)r.count + 1, sizeof *names);
		t->noMemory = t->noMemory || names == NULL;
		nameCount = names != NULL ? r.count : 0;
		for (int k = 0; k < nameCount; ++k) {
			size_t n = 0;
			const char* name = cellText(&r, k, &n);
			names[k] = cliCopyText(name, n);
			t->noMemory = t->noMemory || names[k] == NULL;
		}
	}
	t->header = header;
	/* the rows' usual length: the sample past the header */
	int counts[CLI_SNIFF_LINES];
	int skip = header && dataStart != first ? 1 : 0;
	for (int i = skip; i < lines; ++i) {
		counts[i - skip] = countCells(&r, starts[i], r.separator);
	}
	int frequency = 0;
	int dataCells = lines > skip ? modeOf(counts, lines - skip, &frequency) : nameCount;
	/* rows that agree with one another, for telling row names */
	bool agreeing = lines - skip >= 1 && frequency >= CLI_SNIFF_SHARE * (lines - skip) && (frequency >= 2 ||
																						   lines - skip == 1);
	/* row names: a header whose first cell is empty (R's write.csv, pandas'
	 * to_csv), or one cell shorter than the rows (R's write.table, pandas'
	 * to_string) */
	int offset = 0; /* data cells before the first named column */
	if (header && nameCount > 1 && names[0] != NULL && (names[0][0] == '\0' || strcmp(names[0], "Unnamed: 0") == 0) &&
		dataCells == nameCount && agreeing) {
		offset = 1;
		free(names[0]);
		memmove(names, names + 1, (size_t)(nameCount - 1) * sizeof *names);
		nameCount--;
		cliTable_Note(t, "the first column holds row names (its header cell is empty)");
	} else if (header && nameCount > 0 && dataCells == nameCount + 1 && agreeing) {
		offset = 1;
		cliTable_Note(t, "the first column holds row names (the header names one column fewer)");
	}
	if (offset > 0) {
		t->labels = cli_labelIndex;
	}
	/* the columns */
	int columnCount = nameCount;
	int* columns = calloc((size_t)(columnCount > 0 ? columnCount : 1), sizeof *columns);
	t->noMemory = t->noMemory || columns == NULL;
	for (int k = 0; columns != NULL && k < columnCount; ++k) {
		columns[k] = cliTable_NewColumn(t, names[k], lastComment != SIZE_MAX && dataStart == first ? lastCommentLine
																								   : firstLine,
										0);
	}
	r.pos = dataStart;
	r.line = dataLine;
	if (comments > 0) {
		cliTable_Note(t, "%d comment line%s skipped", comments, comments == 1 ? "" : "s");
	}
	long repeated = 0;
	long repeatedLine = 0;
	long prose = 0;
	bool shortRows = false;
	while (!t->noMemory && r.pos < length) {
		size_t end, next;
		lineAt(&r, r.pos, &end, &next);
		const char* s = text + r.pos;
		if (isBlankLine(s, end - r.pos) || isCommentLine(s, end - r.pos) || isRuleLine(s, end - r.pos)) {
			rules += isRuleLine(s, end - r.pos);
			r.pos = next;
			r.line++;
			continue;
		}
		splitRow(&r, r.separator);
		if (header && (isHeaderAgain(&r, names, nameCount, 0) || isHeaderAgain(&r, names, nameCount, offset))) {
			repeated++;
			repeatedLine = repeatedLine > 0 ? repeatedLine : r.rowLine;
			continue;
		}
		int expected = header ? nameCount + offset : 0;
		if (header && r.count == 1 && expected >= 3 && !cellIsNumber(&r, 0)) {
			cliTable_Note(t, "ignored line %ld: not a record", r.rowLine); /* never its text */
			prose++;
			continue;
		}
		cliTable_BeginRow(t, r.rowLine, r.count > 0 ? r.cells[0].column : 1);
		if (header && r.count > expected) {
			char message[96];
			snprintf(message, sizeof message, "expected %d cells as in the header, found %d", expected, r.count);
			cliTable_Problem(t, message, r.cells[expected].line, r.cells[expected].column);
		}
		shortRows = shortRows || (header && r.count < expected);
		for (int k = 0; k < r.count; ++k) {
			size_t n = 0;
			const char* cell = cellText(&r, k, &n);
			const cliSpan* span = r.cells + k;
			cliCellKind kind = span->quoted ? cli_cellString : n == 0 ? cli_cellEmpty : cli_cellText;
			if (k < offset) {
				cliTable_Label(t, cell, n, kind, span->line, span->column);
				continue;
			}
			int column = -1;
			if (header) {
				column = k - offset < columnCount && columns != NULL ? columns[k - offset] : -1;
			} else {
				while (columnCount <= k && columns != NULL) {
					int* grown = realloc(columns, (size_t)(columnCount + 1) * sizeof *columns);
					if (grown == NULL) {
						t->noMemory = true;
						break;
					}
					columns = grown;
					columns[columnCount++] = cliTable_NewColumn(t, NULL, 0, 0);
				}
				column = k < columnCount && columns != NULL ? columns[k] : -1;
			}
			cliTable_Put(t, column, kind, cell, n, span->line, span->column);
		}
		if (!cliTable_EndRow(t)) {
			break;
		}
	}
	if (repeated > 0) {
		cliTable_Note(t, "the header repeated %ld time%s (first at line %ld), skipped", repeated,
					  repeated == 1 ? "" : "s", repeatedLine);
	}
	if (rules > 0) {
		cliTable_Note(t, "%d rule line%s (---, ___) skipped", rules, rules == 1 ? "" : "s");
	}
	if (shortRows) {
		cliTable_Note(t, "rows shorter than the header: their last cells read as empty");
	}
	(void)prose;
	for (int k = 0; names != NULL && k < nameCount; ++k) {
		free(names[k]);
	}
	free(names);
	free(columns);
	free(r.cells);
	free(r.scratch);
	if (t->noMemory) {
		error->code = bc_errorNoMemory;
		snprintf(error->message, sizeof error->message, "out of memory");
		return false;
	}
	return true;
}
