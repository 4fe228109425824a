/* table_kv.c - text of keys and values reduced to a table of records
 * (table_kv.h): YAML-ish lists and mappings, blocks, sections, lines of
 * pairs. */
#include "table_kv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "literal.h"

/* Lines looked at to decide whether a text is keys and values. */
#define CLI_KV_SAMPLE 200

/* The longest key (a longer "key" is a sentence, not a key). */
#define CLI_KV_KEY_MAX 64

/* One line, cut up. */
typedef struct cliKvLine {
	size_t start, end;      /* the line, without its line break */
	int indent;             /* blanks before its first byte (after "- ") */
	int dashIndent;         /* blanks before the "- " of a list item */
	bool blank, comment;
	bool dash;              /* a YAML list item: "- " first */
	bool section;           /* [name] or [[name]] */
	bool doubled;           /* [[name]]: every section is one more record of a list */
	size_t keyBegin, keyEnd; /* the key (or the section's name); empty when none */
	size_t valueBegin, valueEnd;
	int pairs;              /* keys on the line: 2 or more is a line of pairs */
} cliKvLine;

static bool isBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool isKeyByte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		   c == '$' || c == '-' || c == ' ' || (unsigned char)c >= 0x80;
}

/* Where the key at s[i] of a line ending at n ends (its separator's
 * place), with the separator's length; false when s[i] starts no
 * "key: " or "key=". */
static bool keyAt(const char* s, size_t i, size_t n, size_t* sep, size_t* sepLength)
{
	size_t k = i;
	if (k < n && (s[k] == '"' || s[k] == '\'')) {
		/* a quoted key */
		char q = s[k++];
		while (k < n && s[k] != q) {
			k++;
		}
		if (k >= n) {
			return false;
		}
		k++;
	} else {
		if (k >= n || s[k] == ' ' || s[k] == '-') {
			return false;
		}
		int spaces = 0;
		while (k < n && isKeyByte(s[k]) && k - i <= CLI_KV_KEY_MAX) {
			spaces += s[k] == ' ';
			k++;
		}
		if (k == i || spaces > 3 || k - i > CLI_KV_KEY_MAX) {
			return false;
		}
	}
	size_t e = k;
	while (e < n && isBlank(s[e])) {
		e++;
	}
	if (e < n && s[e] == '=' && (e + 1 >= n || s[e + 1] != '=')) {
		*sep = e;
		*sepLength = e + 1 < n && s[e + 1] == '>' ? 2 : 1;
		return true;
	}
	if (e < n && s[e] == ':' && (e + 1 >= n || isBlank(s[e + 1]))) {
		*sep = e;
		*sepLength = 1;
		return true;
	}
	return false;
}

/* The end of a pair's value starting at i: a blank or ", " before the
 * next key, or the line's end; brackets and quotes whole. */
static size_t valueEnd(const char* s, size_t i, size_t n, bool* another)
{
	*another = false;
	int depth = 0;
	char quote = 0;
	for (size_t k = i; k < n; ++k) {
		char c = s[k];
		if (quote != 0) {
			quote = c == quote ? 0 : quote;
			continue;
		}
		if ((c == '"' || c == '\'') && k == i) {
			quote = c;
			continue;
		}
		if (c == '[' || c == '(' || c == '{') {
			depth++;
		} else if ((c == ']' || c == ')' || c == '}') && depth > 0) {
			depth--;
		} else if (depth == 0 && (isBlank(c) || (c == ',' && k + 1 < n && isBlank(s[k + 1])))) {
			size_t j = k;
			while (j < n && (isBlank(s[j]) || s[j] == ',')) {
				j++;
			}
			size_t sep = 0, sepLength = 0;
			/* a single word key for pairs: no blanks inside */
			size_t w = j;
			while (w < n && isKeyByte(s[w]) && s[w] != ' ') {
				w++;
			}
			if (w > j && keyAt(s, j, w + (w < n && (s[w] == '=' || s[w] == ':')), &sep, &sepLength)) {
				*another = true;
				return k;
			}
		}
	}
	return n;
}

static void cutLine(const char* text, size_t start, size_t end, cliKvLine* line)
{
	memset(line, 0, sizeof *line);
	line->start = start;
	line->end = end;
	const char* s = text;
	size_t i = start;
	while (i < end && isBlank(s[i])) {
		i++;
	}
	if (i == end) {
		line->blank = true;
		return;
	}
	if (s[i] == '#' || (s[i] == '/' && i + 1 < end && s[i + 1] == '/') || (s[i] == '-' && end - i >= 3 &&
																		   memcmp(s + i, "---", 3) == 0)) {
		line->comment = true; /* a comment, or YAML's document marker */
		return;
	}
	if (s[i] == '-' && i + 1 < end && isBlank(s[i + 1])) {
		line->dash = true;
		line->dashIndent = (int)(i - start);
		i += 2;
		while (i < end && isBlank(s[i])) {
			i++;
		}
	}
	line->indent = (int)(i - start);
	size_t e = end;
	while (e > i && isBlank(s[e - 1])) {
		e--;
	}
	if (s[i] == '[' && e > i + 2 && s[e - 1] == ']') {
		line->section = true;
		line->doubled = s[i + 1] == '[' && e > i + 4 && s[e - 2] == ']';
		line->keyBegin = i + (line->doubled ? 2 : 1);
		line->keyEnd = e - (line->doubled ? 2 : 1);
		return;
	}
	size_t sep = 0, sepLength = 0;
	if (!keyAt(s, i, e, &sep, &sepLength)) {
		return;
	}
	line->keyBegin = i;
	line->keyEnd = sep;
	while (line->keyEnd > i && isBlank(s[line->keyEnd - 1])) {
		line->keyEnd--;
	}
	if (s[i] == '"' || s[i] == '\'') {
		line->keyBegin++;
		line->keyEnd--;
	}
	size_t v = sep + sepLength;
	while (v < e && isBlank(s[v])) {
		v++;
	}
	line->pairs = 1;
	bool another = false;
	size_t ve = valueEnd(s, v, e, &another);
	line->valueBegin = v;
	line->valueEnd = ve;
	while (another) {
		line->pairs++;
		size_t j = ve;
		while (j < e && (isBlank(s[j]) || s[j] == ',')) {
			j++;
		}
		if (!keyAt(s, j, e, &sep, &sepLength)) {
			break;
		}
		size_t w = sep + sepLength;
		while (w < e && isBlank(s[w])) {
			w++;
		}
		ve = valueEnd(s, w, e, &another);
	}
	/* YAML: a comment after the value */
	if (line->pairs == 1) {
		for (size_t k = v; k + 1 < line->valueEnd; ++k) {
			if (isBlank(s[k]) && s[k + 1] == '#') {
				line->valueEnd = k;
				break;
			}
		}
		while (line->valueEnd > v && isBlank(s[line->valueEnd - 1])) {
			line->valueEnd--;
		}
	}
}

/* The next line from pos: its bounds and the next line's start. */
static void nextLine(const char* text, size_t length, size_t pos, size_t* end, size_t* next)
{
	const char* nl = memchr(text + pos, '\n', length - pos);
	*end = nl != NULL ? (size_t)(nl - text) : length;
	*next = nl != NULL ? *end + 1 : length;
	while (*end > pos && text[*end - 1] == '\r') {
		(*end)--;
	}
}

bool cliLooksLikeKeyValues(const char* text, size_t length)
{
	int lines = 0;
	int keyed = 0;
	size_t pos = 0;
	while (pos < length && lines < CLI_KV_SAMPLE) {
		size_t end, next;
		nextLine(text, length, pos, &end, &next);
		cliKvLine line;
		cutLine(text, pos, end, &line);
		if (!line.blank && !line.comment) {
			lines++;
			keyed += line.section || line.keyEnd > line.keyBegin;
		}
		pos = next;
	}
	return lines > 0 && 5 * keyed >= 3 * lines;
}

/* The reader's state. */
typedef struct cliKvReader {
	cliTable* t;
	const char* text;
	size_t length;
	cliLitParser parser;
	bool open;            /* a record is being built */
	int* put;             /* the columns the record has */
	int putCount;
	int putCapacity;
	char parent[CLI_KV_KEY_MAX + 1]; /* a key whose keys are indented below it ("normal"), or "" */
	int parentIndent;
	bool structured;      /* lists, sections or keyed mappings bound the records, not blank lines */
	long records;
	int labelColumn;      /* lines "t001: HIT alpha=...": the unnamed column of the id's value, or -1 */
} cliKvReader;

static bool closeRecord(cliKvReader* r)
{
	if (!r->open) {
		return true;
	}
	r->open = false;
	r->putCount = 0;
	r->parent[0] = '\0';
	r->records++;
	return cliTable_EndRow(r->t);
}

static void openRecord(cliKvReader* r, long line, long column)
{
	cliTable_BeginRow(r->t, line, column);
	r->open = true;
	r->putCount = 0;
	r->parent[0] = '\0';
}

/* Has the record a cell in column k? */
static bool hasColumn(const cliKvReader* r, int k)
{
	for (int i = 0; i < r->putCount; ++i) {
		if (r->put[i] == k) {
			return true;
		}
	}
	return false;
}

/* Put the value text[begin, end) (at line:column) in the column named name. */
static bool putPair(cliKvReader* r, const char* name, size_t begin, size_t end, long line, long column)
{
	cliTable* t = r->t;
	int k = cliTable_Column(t, name, line, column);
	if (k < 0) {
		return false;
	}
	if (r->putCount == r->putCapacity) {
		int grown = r->putCapacity > 0 ? 2 * r->putCapacity : 16;
		int* put = realloc(r->put, (size_t)grown * sizeof *put);
		if (put == NULL) {
			t->noMemory = true;
			return false;
		}
		r->put = put;
		r->putCapacity = grown;
	}
	r->put[r->putCount++] = k;
	const char* s = r->text + begin;
	size_t n = end - begin;
	long valueColumn = column;
	if (n == 0 || (n == 1 && s[0] == '~')) {
		cliTable_Put(t, k, cli_cellEmpty, "", 0, line, valueColumn);
		return true;
	}
	if (s[0] == '[' || s[0] == '{' || s[0] == '(') {
		cliTable_Put(t, k, cli_cellList, s, n, line, valueColumn);
		return true;
	}
	if ((s[0] == '"' || s[0] == '\'') && n >= 2 && s[n - 1] == s[0]) {
		cliLitCursor c;
		cliLitCursor_Init(&c, s, n);
		bcError ignored;
		cliLitParser_Reset(&r->parser);
		const cliLit* v = cliLitParser_Value(&r->parser, &c, &ignored);
		if (v != NULL && v->kind == cli_litString) {
			if (cliTable_Put(t, k, cli_cellString, v->text, v->length, line, valueColumn) && v->hasNul) {
				cliTable_MarkNul(t);
			}
			return true;
		}
	}
	cliTable_Put(t, k, cli_cellText, s, n, line, valueColumn);
	return true;
}

/* After the first pair of a line (its value ending at i), do the others
 * use '=' (so that the first, "t001: HIT", is an id and its value)? */
static bool idFirst(const char* s, size_t i, size_t end)
{
	while (i < end && (isBlank(s[i]) || s[i] == ',')) {
		i++;
	}
	size_t sep = 0, sepLength = 0;
	return i < end && keyAt(s, i, end, &sep, &sepLength) && s[sep] == '=';
}

/* The pairs of a line of pairs, one record. */
static bool pairsRecord(cliKvReader* r, const cliKvLine* line, long lineNumber)
{
	const char* s = r->text;
	size_t i = line->start;
	while (i < line->end && isBlank(s[i])) {
		i++;
	}
	openRecord(r, lineNumber, (long)(i - line->start) + 1);
	bool first = true;
	for (;;) {
		while (i < line->end && (isBlank(s[i]) || s[i] == ',')) {
			i++;
		}
		size_t sep = 0, sepLength = 0;
		if (i >= line->end || !keyAt(s, i, line->end, &sep, &sepLength)) {
			break;
		}
		size_t keyEnd = sep;
		while (keyEnd > i && isBlank(s[keyEnd - 1])) {
			keyEnd--;
		}
		char name[CLI_KV_KEY_MAX + 1];
		size_t n = keyEnd - i < CLI_KV_KEY_MAX ? keyEnd - i : CLI_KV_KEY_MAX;
		memcpy(name, s + i, n);
		name[n] = '\0';
		size_t v = sep + sepLength;
		while (v < line->end && isBlank(s[v])) {
			v++;
		}
		bool another = false;
		size_t ve = valueEnd(s, v, line->end, &another);
		size_t trimmed = ve;
		while (trimmed > v && (isBlank(s[trimmed - 1]) || s[trimmed - 1] == ',')) {
			trimmed--;
		}
		if (first && s[sep] == ':' && another && idFirst(s, ve, line->end)) {
			/* the id, then its answer's pairs with '=' */
			cliTable_Label(r->t, name, n, cli_cellText, lineNumber, (long)(i - line->start) + 1);
			r->t->labels = cli_labelKey;
			if (r->labelColumn < 0) {
				r->labelColumn = cliTable_NewColumn(r->t, NULL, lineNumber, 0);
			}
			if (trimmed > v) {
				cliTable_Put(r->t, r->labelColumn, cli_cellText, s + v, trimmed - v, lineNumber,
							 (long)(v - line->start) + 1);
			}
		} else if (!putPair(r, name, v, trimmed, lineNumber, (long)(v - line->start) + 1)) {
			return false;
		}
		first = false;
		i = ve;
		if (!another) {
			break;
		}
	}
	return closeRecord(r);
}

bool cliTable_ReadKeyValues(cliTable* t, const char* text, size_t length, bcError* error)
{
	cliKvReader r;
	memset(&r, 0, sizeof r);
	r.t = t;
	r.text = text;
	r.length = length;
	r.labelColumn = -1;
	memset(error, 0, sizeof *error);
	error->record = -1;
	size_t pos = 0;
	long lineNumber = 0;
	int pairLines = 0;
	int baseIndent = -1; /* the indent of a record's own keys */
	bool ok = true;
	bool list = false, sections = false, keyed = false;
	while (ok && pos < length) {
		size_t end, next;
		nextLine(text, length, pos, &end, &next);
		lineNumber++;
		cliKvLine line;
		cutLine(text, pos, end, &line);
		pos = next;
		if (line.comment) {
			continue;
		}
		if (line.blank) {
			if (!r.structured) {
				ok = closeRecord(&r);
			}
			continue;
		}
		long column = (long)(line.keyBegin > line.start ? line.keyBegin - line.start : 0) + 1;
		if (line.pairs >= 2 && !line.dash) {
			ok = closeRecord(&r) && pairsRecord(&r, &line, lineNumber);
			pairLines++;
			continue;
		}
		if (line.section) {
			ok = closeRecord(&r);
			openRecord(&r, lineNumber, column);
			r.structured = true;
			sections = true;
			if (!line.doubled) {
				cliTable_Label(t, text + line.keyBegin, line.keyEnd - line.keyBegin, cli_cellText, lineNumber, column);
				t->labels = cli_labelKey;
			}
			baseIndent = -1;
			continue;
		}
		if (line.dash) {
			ok = closeRecord(&r);
			openRecord(&r, lineNumber, column);
			r.structured = true;
			list = true;
			baseIndent = line.indent;
		}
		if (line.keyEnd <= line.keyBegin) {
			/* not a key: prose inside the file (where, never its text: a
			 * report never quotes a submission) */
			cliTable_Note(t, "ignored line %ld: not a key and value", lineNumber);
			continue;
		}
		char key[CLI_KV_KEY_MAX + 1];
		size_t n = line.keyEnd - line.keyBegin < CLI_KV_KEY_MAX ? line.keyEnd - line.keyBegin : CLI_KV_KEY_MAX;
		memcpy(key, text + line.keyBegin, n);
		key[n] = '\0';
		bool empty = line.valueEnd <= line.valueBegin;
		if (empty) {
			/* YAML's block list under the key: "- 0.0" lines, as yaml.safe_dump writes a list */
			char items[512];
			size_t itemsLength = 0;
			size_t at = next;
			long itemCount = 0;
			while (at < length) {
				size_t end2, next2;
				cliKvLine item;
				nextLine(text, length, at, &end2, &next2);
				cutLine(text, at, end2, &item);
				if (item.blank || !item.dash || item.dashIndent < line.indent || item.keyEnd > item.keyBegin ||
					item.section) {
					break;
				}
				size_t b = item.start + (size_t)item.indent;
				size_t e = end2;
				while (e > b && isBlank(text[e - 1])) {
					e--;
				}
				if (itemsLength + (e - b) + 4 >= sizeof items) {
					break;
				}
				items[itemsLength++] = itemCount == 0 ? '[' : ',';
				memcpy(items + itemsLength, text + b, e - b);
				itemsLength += e - b;
				itemCount++;
				at = next2;
				lineNumber++;
			}
			if (itemCount > 0) {
				items[itemsLength++] = ']';
				items[itemsLength] = '\0';
				if (r.parent[0] != '\0' && line.indent <= r.parentIndent) {
					r.parent[0] = '\0';
				}
				char name[2 * CLI_KV_KEY_MAX + 2];
				snprintf(name, sizeof name, r.parent[0] != '\0' ? "%s.%s" : "%s%s", r.parent[0] != '\0' ? r.parent : "",
						 key);
				if (!r.open) {
					openRecord(&r, lineNumber, column);
				}
				int k = cliTable_Column(t, name, lineNumber, column);
				cliTable_Put(t, k, cli_cellList, items, itemsLength, lineNumber - itemCount + 1, column);
				pos = at;
				continue;
			}
			/* keys indented below this one? */
			size_t end2, next2, p = next;
			cliKvLine below;
			memset(&below, 0, sizeof below);
			while (p < length) {
				nextLine(text, length, p, &end2, &next2);
				cutLine(text, p, end2, &below);
				if (!below.blank && !below.comment) {
					break;
				}
				p = next2;
			}
			bool nested = p < length && below.indent > line.indent && !below.dash && below.keyEnd > below.keyBegin;
			if (nested && (line.indent == 0 && !list) && (!r.open || keyed || baseIndent < 0)) {
				/* "t001:" with the record's keys below it: keyed by id */
				ok = closeRecord(&r);
				openRecord(&r, lineNumber, column);
				cliTable_Label(t, key, n, cli_cellText, lineNumber, column);
				t->labels = cli_labelKey;
				r.structured = true;
				keyed = true;
				baseIndent = below.indent;
				continue;
			}
			if (nested) {
				snprintf(r.parent, sizeof r.parent, "%s", key);
				r.parentIndent = line.indent;
				if (!r.open) {
					openRecord(&r, lineNumber, column);
				}
				continue;
			}
		}
		if (r.parent[0] != '\0' && line.indent <= r.parentIndent) {
			r.parent[0] = '\0';
		}
		char name[2 * CLI_KV_KEY_MAX + 2];
		if (r.parent[0] != '\0') {
			snprintf(name, sizeof name, "%s.%s", r.parent, key);
		} else {
			snprintf(name, sizeof name, "%s", key);
		}
		int k = cliTable_Column(t, name, lineNumber, column);
		if (r.open && !line.dash && (hasColumn(&r, k) || (baseIndent >= 0 && line.indent < baseIndent && keyed))) {
			/* a key again: the next record (blocks that no blank line parts) */
			ok = closeRecord(&r);
		}
		if (!r.open) {
			openRecord(&r, lineNumber, column);
			if (baseIndent < 0) {
				baseIndent = line.indent;
			}
		}
		ok = ok && putPair(&r, name, line.valueBegin, line.valueEnd, lineNumber,
						   (long)(line.valueBegin - line.start) + 1);
	}
	ok = ok && closeRecord(&r);
	snprintf(t->container, sizeof t->container, "%s",
			 list			  ? "keys and values: a YAML-style list of records"
			 : sections		  ? "keys and values: a section per record ([name])"
			 : keyed		  ? "keys and values: records keyed by id (YAML-style)"
			 : pairLines > 0 ? "keys and values: a record per line of pairs (key=value)"
							  : "keys and values: blocks of key: value lines");
	free(r.put);
	cliLitParser_Destroy(&r.parser);
	if (!ok && t->noMemory) {
		error->code = bc_errorNoMemory;
		snprintf(error->message, sizeof error->message, "out of memory");
	}
	return ok;
}
