/* table_xml.c - markup reduced to a table of records (table_xml.h): a small
 * tolerant XML reader into a tree with places, then the records found in
 * it (the repeated element, or an HTML table's rows). */
#include "table_xml.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "literal.h"
#include "output.h"

/* Elements nested deeper than this are refused (a stack the input cannot
 * exhaust). */
#define CLI_XML_MAX_DEPTH 64

/* Levels looked down for the repeated element of records. */
#define CLI_XML_RECORD_DEPTH 4

typedef struct cliXmlAttr {
	const char* name;
	const char* value;
	size_t length;
	long line, column;
	struct cliXmlAttr* next;
} cliXmlAttr;

typedef struct cliXml cliXml;
struct cliXml {
	const char* name;
	cliXmlAttr* attrs;
	cliXml* first;
	cliXml* last;
	cliXml* next;
	int childCount;
	char* text;        /* its own text, decoded, blanks around it trimmed ("" when none) */
	size_t textLength;
	size_t textCapacity;
	long line, column; /* where it starts */
	long textLine, textColumn;
};

typedef struct cliXmlReader {
	cliArena arena;
	const char* text;
	size_t length;
	size_t pos;
	long line;
	size_t lineStart;
	bcError* error;
	bool failed;
	const char* open[CLI_XML_MAX_DEPTH + 1]; /* the names of the elements open, outermost first */
} cliXmlReader;

static bool isSpaceByte(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool isNameByte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		   c == '.' || c == ':' || (unsigned char)c >= 0x80;
}

static char lowerByte(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

static bool sameName(const char* a, const char* b)
{
	while (*a != '\0' && *b != '\0' && lowerByte(*a) == lowerByte(*b)) {
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}

/* Move to offset to, counting lines. */
static void moveTo(cliXmlReader* x, size_t to)
{
	while (x->pos < to) {
		const char* nl = memchr(x->text + x->pos, '\n', to - x->pos);
		if (nl == NULL) {
			break;
		}
		x->line++;
		x->lineStart = (size_t)(nl - x->text) + 1;
		x->pos = x->lineStart;
	}
	x->pos = to;
}

static long column(const cliXmlReader* x)
{
	return (long)(x->pos - x->lineStart) + 1;
}

static void fail(cliXmlReader* x, const char* message)
{
	if (x->failed) {
		return;
	}
	x->failed = true;
	memset(x->error, 0, sizeof *x->error);
	x->error->code = bc_errorSyntax;
	x->error->record = -1;
	x->error->line = x->line;
	x->error->column = column(x);
	snprintf(x->error->message, sizeof x->error->message, "%s", message);
}

/* Decode text[0 .. n) (entities) into the arena: NUL terminated. */
static char* decode(cliXmlReader* x, const char* s, size_t n, size_t* length)
{
	char* out = cliArena_Alloc(&x->arena, n + 1);
	if (out == NULL) {
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; ++i) {
		if (s[i] != '&') {
			out[k++] = s[i];
			continue;
		}
		const char* semi = memchr(s + i, ';', n - i < 12 ? n - i : 12);
		if (semi == NULL) {
			out[k++] = s[i];
			continue;
		}
		size_t m = (size_t)(semi - (s + i)) + 1;
		static const struct {
			const char* entity;
			char c;
		} named[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
					  { "&nbsp;", ' ' } };
		bool done = false;
		for (size_t e = 0; e < sizeof named / sizeof named[0] && !done; ++e) {
			if (strlen(named[e].entity) == m && memcmp(s + i, named[e].entity, m) == 0) {
				out[k++] = named[e].c;
				done = true;
			}
		}
		if (!done && m > 3 && s[i + 1] == '#') {
			unsigned long cp = s[i + 2] == 'x' || s[i + 2] == 'X' ? strtoul(s + i + 3, NULL, 16)
																	: strtoul(s + i + 2, NULL, 10);
			if (cp > 0 && cp < 0x80) {
				out[k++] = (char)cp;
				done = true;
			} else if (cp >= 0x80 && cp < 0x800) {
				out[k++] = (char)(0xC0 | (cp >> 6));
				out[k++] = (char)(0x80 | (cp & 0x3F));
				done = true;
			} else if (cp >= 0x800 && cp < 0x10000 && k + 3 <= n) {
				out[k++] = (char)(0xE0 | (cp >> 12));
				out[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
				out[k++] = (char)(0x80 | (cp & 0x3F));
				done = true;
			}
		}
		if (done) {
			i += m - 1;
		} else {
			out[k++] = s[i];
		}
	}
	out[k] = '\0';
	*length = k;
	return out;
}

/* Append text (trimmed of blanks around the whole) to the element's own. */
static void addText(cliXmlReader* x, cliXml* e, const char* s, size_t n, bool raw)
{
	while (n > 0 && isSpaceByte(*s)) {
		s++;
		n--;
	}
	while (n > 0 && isSpaceByte(s[n - 1])) {
		n--;
	}
	if (n == 0) {
		return;
	}
	size_t length = n;
	const char* decoded = s;
	if (!raw) {
		decoded = decode(x, s, n, &length);
		if (decoded == NULL) {
			return;
		}
	}
	size_t need = e->textLength + length + 2;
	if (need > e->textCapacity) {
		size_t capacity = need * 2;
		char* grown = cliArena_Alloc(&x->arena, capacity);
		if (grown == NULL) {
			return;
		}
		memcpy(grown, e->text, e->textLength);
		e->text = grown;
		e->textCapacity = capacity;
	}
	if (e->textLength > 0) {
		e->text[e->textLength++] = ' ';
	}
	memcpy(e->text + e->textLength, decoded, length);
	e->textLength += length;
	e->text[e->textLength] = '\0';
}

/* Skip what is not an element: <?...?>, <!-- -->, <!DOCTYPE ...>. True when
 * one was skipped. */
static bool skipOther(cliXmlReader* x)
{
	const char* s = x->text + x->pos;
	size_t left = x->length - x->pos;
	const char* end = NULL;
	size_t tail = 0;
	if (left >= 2 && s[0] == '<' && s[1] == '?') {
		end = strstr(s, "?>");
		tail = 2;
	} else if (left >= 4 && memcmp(s, "<!--", 4) == 0) {
		end = strstr(s + 4, "-->");
		tail = 3;
	} else if (left >= 2 && s[0] == '<' && s[1] == '!' && !(left >= 9 && memcmp(s, "<![CDATA[", 9) == 0)) {
		end = memchr(s, '>', left);
		tail = 1;
	} else {
		return false;
	}
	moveTo(x, end != NULL ? (size_t)(end - x->text) + tail : x->length);
	return true;
}

static bool isVoid(const char* name)
{
	static const char* const voids[] = { "br", "hr", "img", "meta", "link", "input", "col", "base", "wbr" };
	for (size_t k = 0; k < sizeof voids / sizeof voids[0]; ++k) {
		if (sameName(name, voids[k])) {
			return true;
		}
	}
	return false;
}

/* Does a tag named as at next[0 .. left) close the open element named
 * open (HTML's end tags left out: a cell by the next cell or row, a row by
 * the next row)? */
static bool closedBy(const char* open, const char* next, size_t left)
{
	char name[8];
	size_t n = 0;
	while (n < left && n < sizeof name - 1 && isNameByte(next[n])) {
		name[n] = next[n];
		n++;
	}
	name[n] = '\0';
	bool cell = sameName(open, "td") || sameName(open, "th");
	bool row = sameName(open, "tr");
	if (sameName(name, "td") || sameName(name, "th")) {
		return cell;
	}
	if (sameName(name, "tr")) {
		return cell || row;
	}
	return false;
}

/* The element at '<' (a letter after it), its content and its end. */
static cliXml* element(cliXmlReader* x, int depth)
{
	if (depth > CLI_XML_MAX_DEPTH) {
		fail(x, "elements nested more than 64 deep");
		return NULL;
	}
	cliXml* e = cliArena_Alloc(&x->arena, sizeof *e);
	if (e == NULL) {
		fail(x, "out of memory");
		return NULL;
	}
	memset(e, 0, sizeof *e);
	e->text = "";
	e->line = x->line;
	e->column = column(x);
	size_t i = x->pos + 1;
	size_t begin = i;
	while (i < x->length && isNameByte(x->text[i])) {
		i++;
	}
	char* name = cliArena_Copy(&x->arena, x->text + begin, i - begin);
	if (name == NULL) {
		fail(x, "out of memory");
		return NULL;
	}
	/* a namespace's prefix goes: ns2:result is result */
	char* colon = strrchr(name, ':');
	e->name = colon != NULL && colon[1] != '\0' ? colon + 1 : name;
	moveTo(x, i);
	/* attributes */
	cliXmlAttr* lastAttr = NULL;
	for (;;) {
		while (x->pos < x->length && isSpaceByte(x->text[x->pos])) {
			moveTo(x, x->pos + 1);
		}
		if (x->pos >= x->length) {
			fail(x, "unexpected end of input inside a tag");
			return NULL;
		}
		char c = x->text[x->pos];
		if (c == '/' && x->pos + 1 < x->length && x->text[x->pos + 1] == '>') {
			moveTo(x, x->pos + 2);
			return e; /* <name/> */
		}
		if (c == '>') {
			moveTo(x, x->pos + 1);
			break;
		}
		size_t a = x->pos;
		while (x->pos < x->length && isNameByte(x->text[x->pos])) {
			moveTo(x, x->pos + 1);
		}
		if (x->pos == a) {
			moveTo(x, x->pos + 1); /* a stray byte in a tag: skipped */
			continue;
		}
		cliXmlAttr* attr = cliArena_Alloc(&x->arena, sizeof *attr);
		char* attrName = cliArena_Copy(&x->arena, x->text + a, x->pos - a);
		if (attr == NULL || attrName == NULL) {
			fail(x, "out of memory");
			return NULL;
		}
		memset(attr, 0, sizeof *attr);
		char* attrColon = strrchr(attrName, ':');
		attr->name = attrColon != NULL && attrColon[1] != '\0' ? attrColon + 1 : attrName;
		attr->value = "";
		while (x->pos < x->length && isSpaceByte(x->text[x->pos])) {
			moveTo(x, x->pos + 1);
		}
		if (x->pos < x->length && x->text[x->pos] == '=') {
			moveTo(x, x->pos + 1);
			while (x->pos < x->length && isSpaceByte(x->text[x->pos])) {
				moveTo(x, x->pos + 1);
			}
			char q = x->pos < x->length ? x->text[x->pos] : '\0';
			size_t v = x->pos + (q == '"' || q == '\'' ? 1 : 0);
			size_t ve = v;
			if (q == '"' || q == '\'') {
				while (ve < x->length && x->text[ve] != q) {
					ve++;
				}
			} else {
				while (ve < x->length && !isSpaceByte(x->text[ve]) && x->text[ve] != '>' && x->text[ve] != '/') {
					ve++;
				}
			}
			attr->line = x->line;
			attr->column = column(x) + (long)(v - x->pos);
			attr->value = decode(x, x->text + v, ve - v, &attr->length);
			if (attr->value == NULL) {
				fail(x, "out of memory");
				return NULL;
			}
			moveTo(x, ve < x->length && (q == '"' || q == '\'') ? ve + 1 : ve);
		}
		if (lastAttr == NULL) {
			e->attrs = attr;
		} else {
			lastAttr->next = attr;
		}
		lastAttr = attr;
	}
	if (isVoid(e->name)) {
		return e;
	}
	x->open[depth] = e->name;
	/* content */
	for (;;) {
		size_t start = x->pos;
		const char* lt = memchr(x->text + x->pos, '<', x->length - x->pos);
		size_t stop = lt != NULL ? (size_t)(lt - x->text) : x->length;
		if (stop > start) {
			if (e->textLength == 0) {
				e->textLine = x->line;
				e->textColumn = column(x);
				size_t k = start;
				while (k < stop && isSpaceByte(x->text[k])) {
					k++;
				}
				cliXmlReader at = *x;
				moveTo(&at, k);
				e->textLine = at.line;
				e->textColumn = column(&at);
			}
			addText(x, e, x->text + start, stop - start, false);
			moveTo(x, stop);
		}
		if (x->pos >= x->length) {
			char message[96];
			snprintf(message, sizeof message, "unexpected end of input: <%.40s> opened at %ld:%ld never closed", e->name,
					 e->line, e->column);
			fail(x, message);
			return NULL;
		}
		const char* s = x->text + x->pos;
		size_t left = x->length - x->pos;
		if (left >= 9 && memcmp(s, "<![CDATA[", 9) == 0) {
			const char* end = strstr(s + 9, "]]>");
			size_t n = end != NULL ? (size_t)(end - (s + 9)) : left - 9;
			addText(x, e, s + 9, n, true);
			moveTo(x, x->pos + 9 + n + (end != NULL ? 3 : 0));
			continue;
		}
		if (skipOther(x)) {
			continue;
		}
		if (left >= 2 && s[1] == '/') {
			/* an end tag: ours, or (lenient HTML) an outer one that closes us too */
			size_t j = x->pos + 2;
			size_t b = j;
			while (j < x->length && isNameByte(x->text[j])) {
				j++;
			}
			char endName[64];
			size_t n = j - b < sizeof endName - 1 ? j - b : sizeof endName - 1;
			memcpy(endName, x->text + b, n);
			endName[n] = '\0';
			char* endColon = strrchr(endName, ':');
			const char* bare = endColon != NULL && endColon[1] != '\0' ? endColon + 1 : endName;
			bool outer = false;
			for (int k = 0; k < depth && !outer && !sameName(bare, e->name); ++k) {
				outer = sameName(bare, x->open[k]);
			}
			if (!outer) {
				/* ours, or one that closes nothing open (skipped) */
				const char* gt = memchr(x->text + j, '>', x->length - j);
				moveTo(x, gt != NULL ? (size_t)(gt - x->text) + 1 : x->length);
				if (sameName(bare, e->name)) {
					return e;
				}
				continue;
			}
			return e; /* an outer element's: it closes us too (HTML's <td> left open) */
		}
		if (left >= 2 && (isNameByte(s[1]) && s[1] != '-' && s[1] != '.')) {
			if (closedBy(e->name, s + 1, left - 1)) {
				return e; /* HTML's <td>1<td>2: the next cell closes this one */
			}
			cliXml* child = element(x, depth + 1);
			if (child == NULL) {
				return NULL;
			}
			if (e->last == NULL) {
				e->first = child;
			} else {
				e->last->next = child;
			}
			e->last = child;
			e->childCount++;
			continue;
		}
		addText(x, e, s, 1, false); /* a '<' that opens nothing */
		moveTo(x, x->pos + 1);
	}
}

bool cliLooksLikeMarkup(const char* text, size_t length)
{
	size_t i = 0;
	while (i < length && isSpaceByte(text[i])) {
		i++;
	}
	return i + 1 < length && text[i] == '<' &&
		   ((text[i + 1] >= 'a' && text[i + 1] <= 'z') || (text[i + 1] >= 'A' && text[i + 1] <= 'Z') ||
			text[i + 1] == '?' || text[i + 1] == '!');
}

/* The text of e and every element inside it, in order (an HTML cell). */
static void allText(const cliXml* e, char* out, size_t size, size_t* n)
{
	if (e->textLength > 0 && *n + e->textLength + 2 < size) {
		if (*n > 0) {
			out[(*n)++] = ' ';
		}
		memcpy(out + *n, e->text, e->textLength);
		*n += e->textLength;
	}
	for (const cliXml* c = e->first; c != NULL; c = c->next) {
		allText(c, out, size, n);
	}
	out[*n] = '\0';
}

/* The first element named name at or below e (depth first). */
static const cliXml* findNamed(const cliXml* e, const char* name)
{
	if (sameName(e->name, name)) {
		return e;
	}
	for (const cliXml* c = e->first; c != NULL; c = c->next) {
		const cliXml* found = findNamed(c, name);
		if (found != NULL) {
			return found;
		}
	}
	return NULL;
}

/* The tr rows of a table, in order, through thead, tbody and tfoot. */
static int tableRows(const cliXml* e, const cliXml** rows, int capacity, int count)
{
	for (const cliXml* c = e->first; c != NULL && count < capacity; c = c->next) {
		if (sameName(c->name, "tr")) {
			rows[count++] = c;
		} else if (sameName(c->name, "thead") || sameName(c->name, "tbody") || sameName(c->name, "tfoot")) {
			count = tableRows(c, rows, capacity, count);
		}
	}
	return count;
}

/* An HTML table: th cells of the first row its header, td (and th) cells
 * the rows'. */
static bool readHtmlTable(cliTable* t, const cliXml* table)
{
	int capacity = 1024;
	const cliXml** rows = malloc(sizeof *rows * (size_t)capacity);
	int count = 0;
	for (;;) {
		if (rows == NULL) {
			t->noMemory = true;
			return false;
		}
		count = tableRows(table, rows, capacity, 0);
		if (count < capacity) {
			break;
		}
		capacity *= 2;
		const cliXml** grown = realloc(rows, sizeof *rows * (size_t)capacity);
		if (grown == NULL) {
			free(rows);
		}
		rows = grown;
	}
	int headerCells = 0;
	bool header = count > 0;
	for (const cliXml* c = count > 0 ? rows[0]->first : NULL; c != NULL; c = c->next) {
		header = header && sameName(c->name, "th");
		headerCells++;
	}
	int* columns = calloc((size_t)headerCells + 64, sizeof *columns);
	int columnCount = 0;
	if (columns == NULL) {
		free(rows);
		t->noMemory = true;
		return false;
	}
	bool rowNames = false;
	char cell[4096];
	if (header) {
		int k = 0;
		for (const cliXml* c = rows[0]->first; c != NULL; c = c->next, ++k) {
			size_t n = 0;
			cell[0] = '\0';
			allText(c, cell, sizeof cell, &n);
			if (k == 0 && n == 0 && count > 1) {
				rowNames = true; /* pandas' to_html: the index's column has no name */
				continue;
			}
			columns[columnCount++] = cliTable_NewColumn(t, cell, c->line, c->column);
		}
		t->header = true;
		t->labels = rowNames ? cli_labelIndex : cli_labelNone;
	}
	for (int r = header ? 1 : 0; r < count && !t->noMemory; ++r) {
		const cliXml* row = rows[r];
		if (row->childCount == 0) {
			continue;
		}
		cliTable_BeginRow(t, row->line, row->column);
		int k = 0;
		for (const cliXml* c = row->first; c != NULL; c = c->next) {
			if (!sameName(c->name, "td") && !sameName(c->name, "th")) {
				continue;
			}
			size_t n = 0;
			cell[0] = '\0';
			allText(c, cell, sizeof cell, &n);
			long line = c->textLength > 0 ? c->textLine : c->line;
			long col = c->textLength > 0 ? c->textColumn : c->column;
			if (rowNames && k == 0) {
				cliTable_Label(t, cell, n, cli_cellText, line, col);
				k++;
				continue;
			}
			int index = k - (rowNames ? 1 : 0);
			while (index >= columnCount && columnCount < headerCells + 64) {
				columns[columnCount++] = cliTable_NewColumn(t, NULL, 0, 0);
			}
			if (index < columnCount) {
				cliTable_Put(t, columns[index], n == 0 ? cli_cellEmpty : cli_cellText, cell, n, line, col);
			}
			k++;
		}
		if (!cliTable_EndRow(t)) {
			break;
		}
	}
	free(columns);
	free(rows);
	snprintf(t->container, sizeof t->container, "an HTML table");
	return !t->noMemory;
}

/* A record's element has fields: children or attributes (a repeated
 * <n>0</n> is a list's items, not records). */
static bool compound(const cliXml* e)
{
	return e->childCount > 0 || e->attrs != NULL;
}

/* The tag most of e's compound children have, and how many: the record's. */
static const char* repeatedTag(const cliXml* e, int* count)
{
	const char* best = NULL;
	*count = 0;
	for (const cliXml* c = e->first; c != NULL; c = c->next) {
		if (!compound(c)) {
			continue;
		}
		int n = 0;
		for (const cliXml* d = c; d != NULL; d = d->next) {
			n += compound(d) && strcmp(c->name, d->name) == 0;
		}
		if (n > *count) {
			*count = n;
			best = c->name;
		}
	}
	return best;
}

/* Has t a column named name.something? */
static bool hasParts(const cliTable* t, const char* name)
{
	size_t n = strlen(name);
	for (int k = 0; k < t->columnCount; ++k) {
		const char* c = t->columns[k].name;
		if (c != NULL && strncmp(c, name, n) == 0 && c[n] == '.') {
			return true;
		}
	}
	return false;
}

/* Put the fields of one record element: attributes, children's text,
 * children with children as key paths, a child repeated as a list. */
static void recordCells(cliTable* t, const cliXml* e, const char* prefix)
{
	char name[160];
	for (const cliXmlAttr* a = e->attrs; a != NULL; a = a->next) {
		if (sameName(a->name, "xmlns") || strncmp(a->name, "xsi", 3) == 0) {
			continue;
		}
		snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] != '\0' ? "." : "", a->name);
		cliTable_Put(t, cliTable_Column(t, name, a->line, a->column), cli_cellText, a->value, a->length, a->line,
					 a->column);
	}
	for (const cliXml* c = e->first; c != NULL; c = c->next) {
		bool seenBefore = false;
		for (const cliXml* d = e->first; d != c && !seenBefore; d = d->next) {
			seenBefore = strcmp(d->name, c->name) == 0;
		}
		if (seenBefore) {
			continue; /* a repeated child: taken with its first */
		}
		int repeats = 0;
		for (const cliXml* d = c; d != NULL; d = d->next) {
			repeats += strcmp(d->name, c->name) == 0;
		}
		snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] != '\0' ? "." : "", c->name);
		if (repeats > 1) {
			/* <n>0</n><n>0</n><n>1</n>: a list */
			char list[1024];
			size_t n = 0;
			list[n++] = '[';
			for (const cliXml* d = c; d != NULL; d = d->next) {
				if (strcmp(d->name, c->name) == 0 && n + d->textLength + 3 < sizeof list) {
					if (n > 1) {
						list[n++] = ',';
					}
					memcpy(list + n, d->text, d->textLength);
					n += d->textLength;
				}
			}
			list[n++] = ']';
			cliTable_Put(t, cliTable_Column(t, name, c->line, c->column), cli_cellList, list, n, c->textLine, c->textColumn);
			continue;
		}
		if (c->childCount > 0 && prefix[0] == '\0') {
			recordCells(t, c, c->name); /* <normal><x>0</x>...</normal>: normal.x */
			continue;
		}
		if (c->textLength == 0 && prefix[0] == '\0' && hasParts(t, name)) {
			continue; /* <normal/> where other records have <normal><x>..: their parts empty */
		}
		bool nil = false;
		for (const cliXmlAttr* a = c->attrs; a != NULL; a = a->next) {
			nil = nil || (sameName(a->name, "nil") && strcmp(a->value, "true") == 0);
		}
		cliTable_Put(t, cliTable_Column(t, name, c->line, c->column), nil || c->textLength == 0 ? cli_cellEmpty
																								: cli_cellText,
					 c->text, c->textLength, c->textLength > 0 ? c->textLine : c->line,
					 c->textLength > 0 ? c->textColumn : c->column);
	}
}

/* The element below which records repeat (down to CLI_XML_RECORD_DEPTH
 * levels), with the tag and its count; NULL when no tag repeats. */
static const cliXml* recordParent(const cliXml* e, int depth, int* count, const char** tag)
{
	int n = 0;
	const char* name = repeatedTag(e, &n);
	const cliXml* best = n >= 2 ? e : NULL;
	*count = n >= 2 ? n : 0;
	*tag = n >= 2 ? name : NULL;
	if (depth + 1 >= CLI_XML_RECORD_DEPTH) {
		return best;
	}
	for (const cliXml* c = e->first; c != NULL; c = c->next) {
		int below = 0;
		const char* belowTag = NULL;
		const cliXml* found = c->childCount > 0 ? recordParent(c, depth + 1, &below, &belowTag) : NULL;
		if (found != NULL && below > *count) {
			best = found;
			*count = below;
			*tag = belowTag;
		}
	}
	return best;
}

bool cliTable_ReadMarkup(cliTable* t, const char* text, size_t length, bcError* error)
{
	cliXmlReader x;
	memset(&x, 0, sizeof x);
	x.text = text;
	x.length = length;
	x.line = 1;
	x.error = error;
	memset(error, 0, sizeof *error);
	error->record = -1;
	/* the document element, past the prolog */
	cliXml* root = NULL;
	while (x.pos < length && root == NULL && !x.failed) {
		while (x.pos < length && isSpaceByte(text[x.pos])) {
			moveTo(&x, x.pos + 1);
		}
		if (x.pos >= length) {
			break;
		}
		if (skipOther(&x)) {
			continue;
		}
		if (text[x.pos] == '<' && x.pos + 1 < length && isNameByte(text[x.pos + 1])) {
			root = element(&x, 0);
		} else {
			fail(&x, "expected an element");
		}
	}
	if (root == NULL) {
		fail(&x, "no element: only a prolog, a comment or a doctype (a comment never closed?)");
	}
	bool ok = root != NULL && !x.failed;
	if (ok) {
		const cliXml* table = findNamed(root, "table");
		if (table != NULL) {
			ok = readHtmlTable(t, table);
		} else {
			/* the record: the element most repeated under one parent, the
			 * root or a few levels down (the shallower at a tie) */
			int count = 0;
			const char* tag = NULL;
			const cliXml* parent = recordParent(root, 0, &count, &tag);
			if (parent != NULL && count >= 2) {
				for (const cliXml* c = parent->first; c != NULL && !t->noMemory; c = c->next) {
					if (strcmp(c->name, tag) != 0) {
						continue;
					}
					cliTable_BeginRow(t, c->line, c->column);
					recordCells(t, c, "");
					if (!cliTable_EndRow(t)) {
						break;
					}
				}
				char shown[CLI_SHOWN_NAME_SIZE]; /* the student's text: escaped and cut short */
				cliShortName(tag, shown, sizeof shown);
				snprintf(t->container, sizeof t->container, "XML, a record per <%s> element", shown);
			} else {
				/* the root is the one record */
				cliTable_BeginRow(t, root->line, root->column);
				recordCells(t, root, "");
				cliTable_EndRow(t);
				snprintf(t->container, sizeof t->container, "XML, one record");
			}
			ok = !t->noMemory;
		}
	}
	if (t->noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
		ok = false;
	}
	cliArena_Destroy(&x.arena);
	return ok;
}
