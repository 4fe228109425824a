/* literal.c - values as programs print them (literal.h): one tolerant
 * grammar over JSON and the literals of Python, JavaScript, Java, Kotlin,
 * Rust, Go, C and Ruby, read into a tree with the place of every value. */
#include "literal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The arena's block size: a record's tree fits in one; a larger value gets
 * a block of its own size. */
#define CLI_LIT_BLOCK ((size_t)64 * 1024)

typedef struct cliArenaBlock {
	struct cliArenaBlock* next;
	size_t used;
	size_t size;
	max_align_t data[];
} cliArenaBlock;

void cliArena_Destroy(cliArena* arena)
{
	cliArenaBlock* b = arena->blocks;
	while (b != NULL) {
		cliArenaBlock* next = b->next;
		free(b);
		b = next;
	}
	memset(arena, 0, sizeof *arena);
}

void cliArena_Reset(cliArena* arena)
{
	cliArenaBlock* b = arena->blocks;
	if (b == NULL) {
		return;
	}
	cliArenaBlock* rest = b->next;
	while (rest != NULL) {
		cliArenaBlock* next = rest->next;
		free(rest);
		rest = next;
	}
	b->next = NULL;
	b->used = 0;
}

void* cliArena_Alloc(cliArena* arena, size_t size)
{
	size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	cliArenaBlock* b = arena->blocks;
	if (b == NULL || b->size - b->used < size) {
		size_t capacity = size > CLI_LIT_BLOCK ? size : CLI_LIT_BLOCK;
		cliArenaBlock* grown = malloc(sizeof *grown + capacity);
		if (grown == NULL) {
			arena->noMemory = true;
			return NULL;
		}
		grown->used = 0;
		grown->size = capacity;
		if (b != NULL && size > CLI_LIT_BLOCK) {
			/* a big one goes behind the current block, which stays open */
			grown->next = b->next;
			b->next = grown;
		} else {
			grown->next = b;
			arena->blocks = grown;
		}
		b = grown;
	}
	void* out = (char*)b->data + b->used;
	b->used += size;
	return out;
}

char* cliArena_Copy(cliArena* arena, const char* text, size_t length)
{
	char* copy = cliArena_Alloc(arena, length + 1);
	if (copy != NULL) {
		memcpy(copy, text, length);
		copy[length] = '\0';
	}
	return copy;
}

void cliLitParser_Destroy(cliLitParser* p)
{
	cliArena_Destroy(&p->arena);
	memset(p, 0, sizeof *p);
}

void cliLitParser_Reset(cliLitParser* p)
{
	cliArena_Reset(&p->arena);
	p->depth = 0;
}

/* ------------------------------------------------------------- cursor */

void cliLitCursor_Init(cliLitCursor* c, const char* text, size_t length)
{
	c->text = text;
	c->length = length;
	c->pos = 0;
	c->line = 1;
	c->lineStart = 0;
}

/* Move to offset to (>= pos), counting lines. */
static void moveTo(cliLitCursor* c, size_t to)
{
	const char* p = c->text + c->pos;
	const char* end = c->text + to;
	while (p < end) {
		const char* nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL) {
			break;
		}
		c->line += 1;
		c->lineStart = (size_t)(nl - c->text) + 1;
		p = nl + 1;
	}
	c->pos = to;
}

static bool isSpace(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

void cliLitCursor_SkipSpace(cliLitCursor* c)
{
	size_t i = c->pos;
	for (;;) {
		while (i < c->length && isSpace(c->text[i])) {
			i++;
		}
		if (i + 1 < c->length && c->text[i] == '/' && c->text[i + 1] == '/') {
			while (i < c->length && c->text[i] != '\n') {
				i++;
			}
			continue;
		}
		if (i + 1 < c->length && c->text[i] == '/' && c->text[i + 1] == '*') {
			const char* close = NULL;
			for (size_t k = i + 2; k + 1 < c->length; ++k) {
				if (c->text[k] == '*' && c->text[k + 1] == '/') {
					close = c->text + k;
					break;
				}
			}
			i = close != NULL ? (size_t)(close - c->text) + 2 : c->length;
			continue;
		}
		break;
	}
	moveTo(c, i);
}

/* Skip spaces and tabs only (not lines). */
static void skipBlanks(cliLitCursor* c)
{
	while (c->pos < c->length && (c->text[c->pos] == ' ' || c->text[c->pos] == '\t')) {
		c->pos++;
	}
}

/* ------------------------------------------------------------- tokens */

/* The bytes that end a bare word. */
static const unsigned char wordEnds[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1, ['\v'] = 1, [','] = 1, [';'] = 1, [':'] = 1,
	['='] = 1, ['('] = 1,  [')'] = 1,  ['['] = 1,  [']'] = 1,  ['{'] = 1,  ['}'] = 1, ['"'] = 1, ['\''] = 1,
};

/* Does ch end a bare word? */
static bool endsWord(char ch)
{
	return wordEnds[(unsigned char)ch] != 0;
}

static bool isDigit(char ch)
{
	return (unsigned char)(ch - '0') < 10;
}

static bool sameWord(const char* s, size_t n, const char* word)
{
	size_t m = strlen(word);
	if (n != m) {
		return false;
	}
	for (size_t i = 0; i < n; ++i) {
		char a = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
		if (a != word[i]) {
			return false;
		}
	}
	return true;
}

/* Is s[0 .. n) a number students write: JSON's, or with a '+', a bare
 * point (.5, 5.), a Fortran D exponent, nan, inf, infinity (any case, with
 * a sign)? *loose when not JSON's grammar. */
static bool isLooseNumber(const char* s, size_t n, bool* loose, bool* nonFinite)
{
	*loose = false;
	*nonFinite = false;
	size_t i = 0;
	if (i < n && (s[i] == '-' || s[i] == '+')) {
		*loose = s[i] == '+';
		i++;
	}
	if (sameWord(s + i, n - i, "nan") || sameWord(s + i, n - i, "inf") || sameWord(s + i, n - i, "infinity")) {
		*nonFinite = true;
		return true;
	}
	size_t digits = 0;
	size_t intStart = i;
	while (i < n && isDigit(s[i])) {
		i++;
		digits++;
	}
	if (digits > 1 && s[intStart] == '0') {
		*loose = true; /* 007: a number, though not JSON's */
	}
	if (i < n && s[i] == '.') {
		i++;
		size_t fraction = 0;
		while (i < n && isDigit(s[i])) {
			i++;
			fraction++;
		}
		if (fraction == 0 || digits == 0) {
			*loose = true;
		}
		digits += fraction;
	}
	if (digits == 0) {
		return false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E' || s[i] == 'd' || s[i] == 'D')) {
		*loose = *loose || s[i] == 'd' || s[i] == 'D';
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+')) {
			i++;
		}
		size_t exponent = 0;
		while (i < n && isDigit(s[i])) {
			i++;
			exponent++;
		}
		if (exponent == 0) {
			return false;
		}
	}
	return i == n;
}

static cliLit* newLit(cliLitParser* p, cliLitKind kind, const cliLitCursor* c)
{
	cliLit* v = cliArena_Alloc(&p->arena, sizeof *v);
	if (v != NULL) {
		memset(v, 0, sizeof *v);
		v->kind = kind;
		v->text = "";
		v->begin = c->pos;
		v->line = c->line;
		v->column = cliLitCursor_Column(c);
	}
	return v;
}

static void fail(bcError* error, const cliLitCursor* c, const char* format, const char* detail)
{
	memset(error, 0, sizeof *error);
	error->code = bc_errorSyntax;
	error->record = -1;
	error->line = c->line;
	error->column = cliLitCursor_Column(c);
	snprintf(error->message, sizeof error->message, format, detail);
}

/* Append code point cp as UTF-8 at out; returns the bytes written. */
static size_t putUtf8(char* out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* n hex digits at s: the value, or -1. */
static long hexValue(const char* s, size_t n)
{
	long v = 0;
	for (size_t i = 0; i < n; ++i) {
		char ch = s[i];
		int d = isDigit(ch) ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
		if (d < 0) {
			return -1;
		}
		v = 16 * v + d;
	}
	return v;
}

/* A quoted string at the cursor (its opening quote), raw (no escapes)
 * when asked: the decoded text in the arena, *length and *hasNul; NULL
 * (error filled) when it does not end. */
static char* readString(cliLitParser* p, cliLitCursor* c, bool raw, size_t* length, bool* hasNul, bcError* error)
{
	char quote = c->text[c->pos];
	size_t start = c->pos + 1;
	size_t i = start;
	bool escapes = false;
	while (i < c->length && c->text[i] != quote) {
		if (c->text[i] == '\\' && !raw) {
			escapes = true;
			i++;
		}
		i++;
	}
	if (i >= c->length) {
		char where[48];
		snprintf(where, sizeof where, "%ld:%ld", c->line, cliLitCursor_Column(c));
		moveTo(c, c->length);
		fail(error, c, "unexpected end of input inside a string opened at %s", where);
		return NULL;
	}
	size_t rawLength = i - start;
	char* out = cliArena_Alloc(&p->arena, rawLength + 1);
	if (out == NULL) {
		return NULL;
	}
	size_t n = 0;
	*hasNul = false;
	if (!escapes) {
		memcpy(out, c->text + start, rawLength);
		n = rawLength;
	} else {
		const char* s = c->text + start;
		for (size_t k = 0; k < rawLength; ++k) {
			char ch = s[k];
			if (ch != '\\' || k + 1 >= rawLength) {
				out[n++] = ch;
				continue;
			}
			char e = s[++k];
			long cp = -1;
			switch (e) {
			case 'n': out[n++] = '\n'; break;
			case 't': out[n++] = '\t'; break;
			case 'r': out[n++] = '\r'; break;
			case 'b': out[n++] = '\b'; break;
			case 'f': out[n++] = '\f'; break;
			case '0': out[n++] = '\0'; *hasNul = true; break;
			case 'x':
				cp = k + 2 < rawLength ? hexValue(s + k + 1, 2) : -1;
				if (cp >= 0) {
					k += 2;
				}
				break;
			case 'u':
				cp = k + 4 < rawLength ? hexValue(s + k + 1, 4) : -1;
				if (cp >= 0) {
					k += 4;
					if (cp >= 0xD800 && cp < 0xDC00 && k + 6 < rawLength && s[k + 1] == '\\' && s[k + 2] == 'u') {
						long low = hexValue(s + k + 3, 4);
						if (low >= 0xDC00 && low < 0xE000) {
							cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
							k += 6;
						}
					}
				}
				break;
			case 'U':
				cp = k + 8 < rawLength ? hexValue(s + k + 1, 8) : -1;
				if (cp >= 0 && cp <= 0x10FFFF) {
					k += 8;
				} else {
					cp = -1;
				}
				break;
			default:
				out[n++] = e; /* \" \' \\ \/ and any other: the character */
				break;
			}
			if (cp >= 0) {
				if (cp == 0) {
					*hasNul = true;
				}
				n += putUtf8(out + n, (uint32_t)cp);
			} else if (e == 'x' || e == 'u' || e == 'U') {
				out[n++] = e;
			}
		}
	}
	out[n] = '\0';
	*length = n;
	moveTo(c, i + 1);
	return out;
}

/* ------------------------------------------------------------- values */

static cliLit* parseValue(cliLitParser* p, cliLitCursor* c, bcError* error);

/* The bare word at the cursor: its length (0 when there is none). */
static size_t wordLength(const cliLitCursor* c)
{
	size_t i = c->pos;
	while (i < c->length && !endsWord(c->text[i])) {
		i++;
	}
	return i - c->pos;
}

/* A scalar from a bare word s[0 .. n) at the cursor (not yet moved). */
static cliLit* wordValue(cliLitParser* p, cliLitCursor* c, size_t n)
{
	const char* s = c->text + c->pos;
	bool loose = false;
	bool nonFinite = false;
	cliLit* v = newLit(p, cli_litWord, c);
	if (v == NULL) {
		return NULL;
	}
	if (isLooseNumber(s, n, &loose, &nonFinite)) {
		v->kind = cli_litNumber;
		p->used |= (loose ? cli_litLooseNumbers : 0) | (nonFinite ? cli_litNonFinite : 0);
	} else if (sameWord(s, n, "null") || sameWord(s, n, "none") || sameWord(s, n, "nil") ||
			   sameWord(s, n, "undefined")) {
		v->kind = cli_litNull;
		p->used |= s[0] == 'N' && s[1] == 'o' ? cli_litPython : n != 4 || s[0] != 'n' ? cli_litBareWords : 0;
	} else if (sameWord(s, n, "true") || sameWord(s, n, "false")) {
		v->kind = cli_litBool;
		v->boolean = s[0] == 't' || s[0] == 'T';
		bool json = memcmp(s, v->boolean ? "true" : "false", n) == 0;
		p->used |= json ? 0 : s[0] == 'T' || s[0] == 'F' ? cli_litPython : cli_litBareWords;
	} else {
		p->used |= cli_litBareWords;
	}
	char* text = cliArena_Alloc(&p->arena, n + 1);
	if (text == NULL) {
		return NULL;
	}
	memcpy(text, s, n);
	text[n] = '\0';
	v->text = text;
	v->length = n;
	moveTo(c, c->pos + n);
	v->end = c->pos;
	return v;
}

/* After an item's key: the separator (':', '=', '=>', ':='), consumed, or
 * false (nothing consumed). */
static bool keySeparator(cliLitParser* p, cliLitCursor* c)
{
	size_t at = c->pos;
	long line = c->line;
	size_t lineStart = c->lineStart;
	cliLitCursor_SkipSpace(c);
	const char* s = c->text + c->pos;
	size_t left = c->length - c->pos;
	size_t n = 0;
	if (left >= 2 && ((s[0] == '=' && s[1] == '>') || (s[0] == ':' && s[1] == '='))) {
		n = 2;
	} else if (left >= 1 && s[0] == ':' && (left < 2 || s[1] != ':')) {
		n = 1;
	} else if (left >= 1 && s[0] == '=' && (left < 2 || s[1] != '=')) {
		n = 1;
	}
	if (n == 0) {
		c->pos = at;
		c->line = line;
		c->lineStart = lineStart;
		return false;
	}
	p->used |= s[0] == '=' ? cli_litEquals : 0;
	moveTo(c, c->pos + n);
	return true;
}

/* Try to read "KEY SEP" at the cursor: the decoded key (in the arena) and
 * its place, or NULL with the cursor where it was (an item that is a value
 * alone). */
/* Is a key's separator (':', '=', '=>', ':=') next after offset i (white
 * space and comments skipped)? Nothing is moved. */
static bool separatorAfter(const cliLitCursor* c, size_t i)
{
	while (i < c->length && (c->text[i] == ' ' || c->text[i] == '\t')) {
		i++; /* the usual case, quickly */
	}
	if (i < c->length && c->text[i] != ':' && c->text[i] != '=' && c->text[i] != '/' && !isSpace(c->text[i])) {
		return false;
	}
	cliLitCursor at = *c;
	at.pos = i;
	cliLitCursor_SkipSpace(&at);
	const char* s = at.text + at.pos;
	size_t left = at.length - at.pos;
	return left >= 1 && ((s[0] == ':' && (left < 2 || s[1] != ':')) || (s[0] == '=' && (left < 2 || s[1] != '=')) ||
						 (left >= 2 && s[0] == '=' && s[1] == '>'));
}

static const char* tryKey(cliLitParser* p, cliLitCursor* c, long* keyLine, long* keyColumn, bool* hasNul)
{
	cliLitCursor saved = *c;
	unsigned usedBefore = p->used;
	*keyLine = c->line;
	*keyColumn = cliLitCursor_Column(c);
	*hasNul = false;
	const char* key = NULL;
	char ch = c->pos < c->length ? c->text[c->pos] : '\0';
	/* a key only when its separator follows: look before building it */
	if (ch == '"' || ch == '\'') {
		size_t k = c->pos + 1;
		while (k < c->length && c->text[k] != ch) {
			k += c->text[k] == '\\' ? 2 : 1;
		}
		if (k >= c->length || !separatorAfter(c, k + 1)) {
			return NULL;
		}
	} else {
		size_t i = c->pos + ((ch == '.' || ch == ':') ? 1 : 0);
		while (i < c->length && !endsWord(c->text[i])) {
			i++;
		}
		if (i == c->pos || !separatorAfter(c, i)) {
			return NULL;
		}
	}
	if (ch == '"' || ch == '\'') {
		bcError ignored;
		size_t length = 0;
		key = readString(p, c, false, &length, hasNul, &ignored);
		p->used |= ch == '\'' ? cli_litSingleQuotes : 0;
	} else {
		size_t skip = (ch == '.' || ch == ':') && c->pos + 1 < c->length && !endsWord(c->text[c->pos + 1]) &&
							  !isDigit(c->text[c->pos + 1])
						  ? 1
						  : 0;
		size_t n = 0;
		size_t i = c->pos + skip;
		while (i + n < c->length && !endsWord(c->text[i + n])) {
			n++;
		}
		if (n > 0) {
			char* text = cliArena_Alloc(&p->arena, n + 1);
			if (text != NULL) {
				memcpy(text, c->text + i, n);
				text[n] = '\0';
				key = text;
				moveTo(c, i + n);
			}
		}
	}
	if (key != NULL && keySeparator(p, c)) {
		if (ch != '"') {
			p->used |= ch == '\'' ? cli_litSingleQuotes : cli_litBareWords;
		}
		return key;
	}
	*c = saved;
	p->used = usedBefore;
	return NULL;
}

/* The closing bracket of open. */
static char closerOf(char open)
{
	return open == '{' ? '}' : open == '[' ? ']' : ')';
}

/* A container at the cursor (its opening bracket), typed typeName. */
static cliLit* parseContainer(cliLitParser* p, cliLitCursor* c, const char* typeName, long line, long column,
							  size_t begin, bcError* error)
{
	char open = c->text[c->pos];
	char close = closerOf(open);
	if (++p->depth > CLI_LIT_MAX_DEPTH) {
		fail(error, c, "values nested more than %s deep", "64");
		return NULL;
	}
	cliLit* v = newLit(p, cli_litList, c);
	if (v == NULL) {
		return NULL;
	}
	v->text = typeName;
	v->length = strlen(typeName);
	v->line = line;
	v->column = column;
	v->begin = begin;
	v->open = open;
	p->used |= open == '(' && typeName[0] == '\0' ? cli_litParens : 0;
	if (open == '[' && p->lazyDepth > 0 && p->depth == p->lazyDepth + 1) {
		v->lazy = true;
		p->depth -= 1;
		if (!cliLitCursor_SkipValue(c)) {
			char where[64];
			snprintf(where, sizeof where, "'%c' opened at %ld:%ld", open, line, column);
			fail(error, c, "unexpected end of input: unclosed %s", where);
			return NULL;
		}
		v->end = c->pos;
		return v;
	}
	moveTo(c, c->pos + 1);
	cliLit* last = NULL;
	int keyed = 0;
	bool separated = true; /* an item may start here: after the bracket or a separator */
	for (;;) {
		cliLitCursor_SkipSpace(c);
		if (c->pos >= c->length) {
			char where[64];
			snprintf(where, sizeof where, "'%c' opened at %ld:%ld", open, line, column);
			fail(error, c, "unexpected end of input: unclosed %s", where);
			return NULL;
		}
		char ch = c->text[c->pos];
		if (ch == close) {
			if (separated && v->count > 0) {
				p->used |= cli_litLooseCommas; /* a trailing comma */
			}
			moveTo(c, c->pos + 1);
			break;
		}
		if (ch == ',' || ch == ';') {
			if (separated && v->count > 0) {
				p->used |= cli_litLooseCommas; /* two separators: an empty item, skipped */
			}
			p->used |= ch == ';' ? cli_litLooseCommas : 0;
			moveTo(c, c->pos + 1);
			separated = true;
			continue;
		}
		if (ch == '}' || ch == ']' || ch == ')') {
			char found[2] = { ch, '\0' };
			char message[96];
			snprintf(message, sizeof message, "expected '%c' to close '%c' opened at %ld:%ld, found '%s'", close, open,
					 line, column, found);
			fail(error, c, "%s", message);
			return NULL;
		}
		if (!separated) {
			p->used |= cli_litLooseCommas; /* items separated by white space alone (Go) */
		}
		long keyLine = 0, keyColumn = 0;
		bool keyNul = false;
		const char* key = tryKey(p, c, &keyLine, &keyColumn, &keyNul);
		cliLit* item = NULL;
		if (key != NULL) {
			cliLitCursor_SkipSpace(c);
			char next = c->pos < c->length ? c->text[c->pos] : '\0';
			if (next == ',' || next == ';' || next == close) {
				item = newLit(p, cli_litNull, c); /* key= with nothing: an empty value */
				if (item != NULL) {
					item->end = item->begin;
				}
			} else {
				item = parseValue(p, c, error);
			}
		} else {
			item = parseValue(p, c, error);
		}
		if (item == NULL) {
			return NULL;
		}
		item->key = key;
		item->keyLine = keyLine;
		item->keyColumn = keyColumn;
		item->keyHasNul = keyNul;
		keyed += key != NULL;
		if (last == NULL) {
			v->first = item;
		} else {
			last->next = item;
		}
		last = item;
		v->count += 1;
		separated = false;
	}
	p->depth -= 1;
	v->end = c->pos;
	if (open == '{' && keyed > 0 && keyed < v->count) {
		/* braces that hold keys hold nothing else: a key lost its ':' ("alpha" 0.5) */
		const cliLit* at = v->first;
		while (at != NULL && at->key != NULL) {
			at = at->next;
		}
		const cliLit* next = at != NULL && at->next != NULL && at->next->key == NULL &&
									 (at->kind == cli_litString || at->kind == cli_litWord)
								 ? at->next
								 : NULL;
		memset(error, 0, sizeof *error);
		error->code = bc_errorSyntax;
		error->record = -1;
		error->line = next != NULL ? next->line : at->line;
		error->column = next != NULL ? next->column : at->column;
		snprintf(error->message, sizeof error->message, "%s",
				 next != NULL ? "expected ':' after a key" : "expected a key and ':' before a value");
		return NULL;
	}
	if (keyed > 0 || (open == '{' && v->count == 0)) {
		v->kind = cli_litObject;
	}
	return v;
}

/* Python's string prefixes: b'..', r"..", u'..', f'..', rb'..'. */
static bool isStringPrefix(const char* s, size_t n)
{
	return n <= 2 && n > 0 && (sameWord(s, n, "b") || sameWord(s, n, "r") || sameWord(s, n, "u") ||
							   sameWord(s, n, "f") || sameWord(s, n, "rb") || sameWord(s, n, "br"));
}

static cliLit* parseValue(cliLitParser* p, cliLitCursor* c, bcError* error)
{
	cliLitCursor_SkipSpace(c);
	if (c->pos >= c->length) {
		fail(error, c, "unexpected end of input%s", ": expected a value");
		return NULL;
	}
	long line = c->line;
	long column = cliLitCursor_Column(c);
	size_t begin = c->pos;
	char ch = c->text[c->pos];
	if (ch == '{' || ch == '[' || ch == '(') {
		return parseContainer(p, c, "", line, column, begin, error);
	}
	if (ch == '"' || ch == '\'') {
		cliLit* v = newLit(p, cli_litString, c);
		if (v == NULL) {
			return NULL;
		}
		size_t length = 0;
		char* text = readString(p, c, false, &length, &v->hasNul, error);
		if (text == NULL) {
			return NULL;
		}
		p->used |= ch == '\'' ? cli_litSingleQuotes : 0;
		v->text = text;
		v->length = length;
		v->end = c->pos;
		return v;
	}
	size_t n = wordLength(c);
	if (n == 0) {
		char found[2] = { ch, '\0' };
		fail(error, c, "expected a value, found '%s'", found);
		return NULL;
	}
	const char* s = c->text + c->pos;
	if (c->pos + n < c->length && (c->text[c->pos + n] == '\'' || c->text[c->pos + n] == '"') &&
		isStringPrefix(s, n)) {
		bool raw = s[0] == 'r' || s[0] == 'R' || (n == 2 && (s[1] == 'r' || s[1] == 'R'));
		moveTo(c, c->pos + n);
		cliLit* v = newLit(p, cli_litString, c);
		if (v == NULL) {
			return NULL;
		}
		v->line = line;
		v->column = column;
		v->begin = begin;
		size_t length = 0;
		char* text = readString(p, c, raw, &length, &v->hasNul, error);
		if (text == NULL) {
			return NULL;
		}
		p->used |= cli_litPython;
		v->text = text;
		v->length = length;
		v->end = c->pos;
		return v;
	}
	cliLit* word = wordValue(p, c, n);
	if (word == NULL) {
		return NULL;
	}
	if (word->kind == cli_litWord) {
		/* a type name before a container: Result{...}, Result(...), Result { ... } */
		cliLitCursor at = *c;
		skipBlanks(c);
		char next = c->pos < c->length ? c->text[c->pos] : '\0';
		if (next == '{' || next == '(' || (next == '[' && c->pos == at.pos)) {
			/* Java's records write Result[id=1, ...], with no blank */
			p->used |= cli_litTypeNames;
			cliLit* v = parseContainer(p, c, word->text, line, column, begin, error);
			if (v != NULL && v->count == 1 && v->first->key == NULL && v->open == '(' &&
				v->first->kind != cli_litObject) {
				/* np.float64(0.25), Decimal('0.25'), array([0., 0., 1.]): the value inside */
				cliLit* inner = v->first;
				inner->begin = v->begin;
				inner->end = v->end;
				inner->line = v->line;
				inner->column = v->column;
				return inner;
			}
			return v;
		}
		*c = at;
	}
	return word;
}

cliLit* cliLitParser_Value(cliLitParser* p, cliLitCursor* c, bcError* error)
{
	p->depth = 0;
	cliLit* v = parseValue(p, c, error);
	if (v == NULL && p->arena.noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
	}
	return v;
}

bool cliLitCursor_SkipValue(cliLitCursor* c)
{
	cliLitCursor_SkipSpace(c);
	size_t i = c->pos;
	int depth = 0;
	while (i < c->length) {
		char ch = c->text[i];
		if (ch == '"' || ch == '\'') {
			/* a quote inside a word (don't) is no string */
			bool word = i > c->pos && !endsWord(c->text[i - 1]) && ch == '\'';
			if (!word) {
				size_t k = i + 1;
				while (k < c->length && c->text[k] != ch) {
					k += c->text[k] == '\\' ? 2 : 1;
				}
				if (k >= c->length) {
					moveTo(c, c->length);
					return false;
				}
				i = k + 1;
				if (depth == 0) {
					break;
				}
				continue;
			}
		}
		if (ch == '[' || ch == '{' || ch == '(') {
			depth++;
		} else if (ch == ']' || ch == '}' || ch == ')') {
			if (depth == 0) {
				break;
			}
			depth--;
			if (depth == 0) {
				i++;
				break;
			}
		} else if (depth == 0 && endsWord(ch)) {
			/* a type name, then its container: Result {...} */
			size_t k = i;
			while (k < c->length && (c->text[k] == ' ' || c->text[k] == '\t')) {
				k++;
			}
			if (i > c->pos && k < c->length && (c->text[k] == '{' || c->text[k] == '(')) {
				i = k;
				continue;
			}
			break;
		}
		i++;
	}
	if (depth > 0) {
		moveTo(c, c->length); /* it ends with the input: the error is there */
		return false;
	}
	moveTo(c, i);
	return true;
}

void cliLitCursor_Advance(cliLitCursor* c, size_t n)
{
	moveTo(c, c->pos + n < c->length ? c->pos + n : c->length);
}

void cliLitCursor_At(cliLitCursor* c, const char* text, size_t length, const cliLit* v)
{
	c->text = text;
	c->length = length;
	c->pos = v->begin;
	c->line = v->line;
	c->lineStart = v->begin - (size_t)(v->column - 1);
}

const cliLit* cliLit_Member(const cliLit* o, const char* key)
{
	if (o == NULL || o->kind != cli_litObject) {
		return NULL;
	}
	size_t n = strlen(key);
	for (const cliLit* m = o->first; m != NULL; m = m->next) {
		bool same = m->key != NULL && strlen(m->key) == n;
		for (size_t i = 0; same && i < n; ++i) {
			char a = m->key[i] >= 'A' && m->key[i] <= 'Z' ? (char)(m->key[i] + 32) : m->key[i];
			char b = key[i] >= 'A' && key[i] <= 'Z' ? (char)(key[i] + 32) : key[i];
			same = a == b;
		}
		if (same) {
			return m;
		}
	}
	return NULL;
}

bool cliLit_IsScalar(const cliLit* v)
{
	return v != NULL && v->kind != cli_litList && v->kind != cli_litObject;
}
