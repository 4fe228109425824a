/* json_stream.c - the one JSON front end (json_stream.h): the scanner that
 * delimits values, the parser that reads one value once (checked, placed,
 * built as a tree of cJSON nodes), and the stream of values over an input. */
#include "json_stream.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first block of a parser's arena: a typical record takes about 1 KiB
 * of nodes, so 64 KiB holds any ordinary record without touching malloc. */
#define CLI_JSON_ARENA_SIZE ((size_t)64 * 1024)

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

/* ------------------------------------------------------------- bytes */

/* An ASCII decimal digit (not locale-dependent, as isdigit is). */
static bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static bool isSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A byte below 0x20 that is not JSON white space: allowed nowhere in JSON,
 * not even inside strings. */
static bool isControlByte(char c)
{
	return (unsigned char)c < 0x20 && !isSpace(c);
}

/* The bytes that end a number or literal: white space, punctuation and
 * control bytes (every byte below 0x20). */
#define CLI_ENDS(c) [c] = 1
static const bool endsScalarTable[256] = {
	CLI_ENDS(0x00), CLI_ENDS(0x01), CLI_ENDS(0x02), CLI_ENDS(0x03), CLI_ENDS(0x04), CLI_ENDS(0x05), CLI_ENDS(0x06),
	CLI_ENDS(0x07), CLI_ENDS(0x08), CLI_ENDS(0x09), CLI_ENDS(0x0A), CLI_ENDS(0x0B), CLI_ENDS(0x0C), CLI_ENDS(0x0D),
	CLI_ENDS(0x0E), CLI_ENDS(0x0F), CLI_ENDS(0x10), CLI_ENDS(0x11), CLI_ENDS(0x12), CLI_ENDS(0x13), CLI_ENDS(0x14),
	CLI_ENDS(0x15), CLI_ENDS(0x16), CLI_ENDS(0x17), CLI_ENDS(0x18), CLI_ENDS(0x19), CLI_ENDS(0x1A), CLI_ENDS(0x1B),
	CLI_ENDS(0x1C), CLI_ENDS(0x1D), CLI_ENDS(0x1E), CLI_ENDS(0x1F), CLI_ENDS(' '),  CLI_ENDS(','),  CLI_ENDS(':'),
	CLI_ENDS('"'),  CLI_ENDS('['),  CLI_ENDS(']'),  CLI_ENDS('{'),  CLI_ENDS('}'),
};
#undef CLI_ENDS

static inline bool endsScalar(char c)
{
	return endsScalarTable[(unsigned char)c];
}

/* A byte for a message: 'x' or byte 0xNN. */
static void describeByte(unsigned char c, char* text, size_t size)
{
	if (c > 0x20 && c < 0x7f) {
		snprintf(text, size, "'%c'", c);
	} else {
		snprintf(text, size, "byte 0x%02X", (unsigned)c);
	}
}

static size_t skipBlank(const char* s, size_t n, size_t i)
{
	while (i < n && isSpace(s[i])) {
		i++;
	}
	return i;
}

size_t cliJsonNumberPrefix(const char* s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-') {
		i++;
	}
	if (i >= n || !isDigit(s[i])) {
		return 0;
	}
	if (s[i] == '0') {
		i++;
	} else {
		while (i < n && isDigit(s[i])) {
			i++;
		}
	}
	if (i + 1 < n && s[i] == '.' && isDigit(s[i + 1])) {
		i += 2;
		while (i < n && isDigit(s[i])) {
			i++;
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < n && (s[j] == '+' || s[j] == '-')) {
			j++;
		}
		if (j < n && isDigit(s[j])) {
			i = j + 1;
			while (i < n && isDigit(s[i])) {
				i++;
			}
		}
	}
	return i;
}

bool cliIsJsonNumber(const char* s, size_t n)
{
	return n > 0 && cliJsonNumberPrefix(s, n) == n;
}

/* Is the token s[0 .. n) NaN or Infinity, in any case, signed or not (the
 * usual ways non-finite numbers leak into JSON)? */
static bool isNonNumber(const char* s, size_t n)
{
	static const char* const names[] = { "nan", "inf", "infinity" };
	size_t i = n > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t length = strlen(names[k]);
		bool same = n - i == length;
		for (size_t c = 0; same && c < length; c++) {
			char lower = s[i + c] >= 'A' && s[i + c] <= 'Z' ? (char)(s[i + c] - 'A' + 'a') : s[i + c];
			same = lower == names[k][c];
		}
		if (same) {
			return true;
		}
	}
	return false;
}

static bool isLiteral(const char* s, size_t n)
{
	return (n == 4 && (memcmp(s, "true", 4) == 0 || memcmp(s, "null", 4) == 0)) || (n == 5 && memcmp(s, "false", 5) == 0);
}

static int hexValue(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/* The code unit of \uXXXX at s[i] (the backslash), or -1. */
static long unicodeEscape(const char* s, size_t n, size_t i)
{
	if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u') {
		return -1;
	}
	long code = 0;
	for (size_t k = 2; k < 6; k++) {
		int h = hexValue(s[i + k]);
		if (h < 0) {
			return -1;
		}
		code = 16 * code + h;
	}
	return code;
}

/* The length of the valid escape sequence at s[i] (a backslash): 2, 6, or
 * 12 for a surrogate pair; 0 if it is not valid JSON. */
static size_t escapeLength(const char* s, size_t n, size_t i)
{
	if (i + 1 >= n) {
		return 0;
	}
	if (strchr("\"\\/bfnrt", s[i + 1]) != NULL && s[i + 1] != '\0') {
		return 2;
	}
	long code = unicodeEscape(s, n, i);
	if (code < 0 || (code >= 0xDC00 && code <= 0xDFFF)) {
		return 0;
	}
	if (code >= 0xD800 && code <= 0xDBFF) {
		long low = unicodeEscape(s, n, i + 6);
		return low >= 0xDC00 && low <= 0xDFFF ? 12 : 0;
	}
	return 6;
}

/* ----------------------------------------------------------- the scanner */

typedef enum cliScanResult {
	cli_scanComplete,   /* the value's length is known */
	cli_scanIncomplete, /* the bytes end inside the value */
	cli_scanStopped     /* a byte no value may hold here: a control byte, a
						 * mismatched bracket, nesting too deep */
} cliScanResult;

/* Byte classes for the scanner. */
enum {
	cli_bytePlain = 0,
	cli_byteQuote,
	cli_byteBackslash,
	cli_byteOpen,
	cli_byteClose,
	cli_byteControl
};

/* The class of each byte: control bytes are those below 0x20 but tab, LF
 * and CR (isControlByte). */
#define CLI_CONTROL(c) [c] = cli_byteControl
static const unsigned char byteClasses[256] = {
	CLI_CONTROL(0x00), CLI_CONTROL(0x01), CLI_CONTROL(0x02), CLI_CONTROL(0x03), CLI_CONTROL(0x04),
	CLI_CONTROL(0x05), CLI_CONTROL(0x06), CLI_CONTROL(0x07), CLI_CONTROL(0x08), CLI_CONTROL(0x0B),
	CLI_CONTROL(0x0C), CLI_CONTROL(0x0E), CLI_CONTROL(0x0F), CLI_CONTROL(0x10), CLI_CONTROL(0x11),
	CLI_CONTROL(0x12), CLI_CONTROL(0x13), CLI_CONTROL(0x14), CLI_CONTROL(0x15), CLI_CONTROL(0x16),
	CLI_CONTROL(0x17), CLI_CONTROL(0x18), CLI_CONTROL(0x19), CLI_CONTROL(0x1A), CLI_CONTROL(0x1B),
	CLI_CONTROL(0x1C), CLI_CONTROL(0x1D), CLI_CONTROL(0x1E), CLI_CONTROL(0x1F),
	['"'] = cli_byteQuote, ['\\'] = cli_byteBackslash,
	['{'] = cli_byteOpen, ['['] = cli_byteOpen, ['}'] = cli_byteClose, [']'] = cli_byteClose,
};
#undef CLI_CONTROL

/* Skip from s[i] past bytes that cannot matter to the scanner: outside a
 * string anything but brackets, quotes and bytes below 0x20; inside one
 * anything but quotes, backslashes and bytes below 0x20. Sixteen bytes at a
 * time with SSE2, eight with plain 64-bit arithmetic on other
 * little-endian machines; the scanner's own loop does the rest. */
#if defined(__SSE2__)
static size_t skipPlain(const char* s, size_t n, size_t i, bool inString)
{
	const __m128i below = _mm_set1_epi8(0x1F);
	const __m128i quote = _mm_set1_epi8('"');
	const __m128i backslash = _mm_set1_epi8('\\');
	const __m128i bit5 = _mm_set1_epi8(0x20);
	const __m128i open = _mm_set1_epi8('{');
	const __m128i close = _mm_set1_epi8('}');
	while (i + 16 <= n) {
		__m128i x = _mm_loadu_si128((const __m128i*)(const void*)(s + i));
		__m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, below), x), _mm_cmpeq_epi8(x, quote));
		if (inString) {
			m = _mm_or_si128(m, _mm_cmpeq_epi8(x, backslash));
		} else {
			/* '[' and ']' differ from '{' and '}' only in the bit 0x20 */
			__m128i y = _mm_or_si128(x, bit5);
			m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(y, open), _mm_cmpeq_epi8(y, close)));
		}
		unsigned mask = (unsigned)_mm_movemask_epi8(m);
		if (mask != 0) {
			return i + (size_t)__builtin_ctz(mask);
		}
		i += 16;
	}
	return i;
}
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CLI_ONES 0x0101010101010101ull
#define CLI_HIGHS 0x8080808080808080ull

/* The high bit of each byte of x equal to c (exact for the lowest one). */
static inline uint64_t bytesEqual(uint64_t x, unsigned char c)
{
	uint64_t v = x ^ (CLI_ONES * c);
	return (v - CLI_ONES) & ~v & CLI_HIGHS;
}

/* The high bit of each byte of x below c <= 0x80 (exact for the lowest). */
static inline uint64_t bytesBelow(uint64_t x, unsigned char c)
{
	return (x - CLI_ONES * c) & ~x & CLI_HIGHS;
}

static size_t skipPlain(const char* s, size_t n, size_t i, bool inString)
{
	while (i + 8 <= n) {
		uint64_t x;
		memcpy(&x, s + i, sizeof x);
		uint64_t m = bytesBelow(x, 0x20) | bytesEqual(x, '"');
		if (inString) {
			m |= bytesEqual(x, '\\');
		} else {
			uint64_t y = x | (CLI_ONES * 0x20);
			m |= bytesEqual(y, '{') | bytesEqual(y, '}');
		}
		if (m != 0) {
			return i + (size_t)(__builtin_ctzll(m) >> 3);
		}
		i += sizeof x;
	}
	return i;
}
#else
static size_t skipPlain(const char* s, size_t n, size_t i, bool inString)
{
	(void)s;
	(void)n;
	(void)inString;
	return i;
}
#endif

/* Delimit the JSON value at s[0] (not white space) within s[0 .. n): *at
 * gets its length (complete), or the offset of the byte that stopped it.
 * Strings, escapes and brackets are followed; what is between is left to
 * the parser. eof says no bytes follow s[n - 1] (a token running to the end
 * is then complete). */
static cliScanResult scanValue(const char* s, size_t n, bool eof, size_t* at)
{
	unsigned char first = (unsigned char)s[0];
	if (byteClasses[first] == cli_byteControl) {
		*at = 0;
		return cli_scanStopped;
	}
	if (first != '{' && first != '[' && first != '"') {
		size_t i = 1;
		while (i < n && !endsScalar(s[i])) {
			i++;
		}
		*at = i;
		return i < n || eof ? cli_scanComplete : cli_scanIncomplete;
	}
	char stack[CJSON_NESTING_LIMIT];
	size_t depth = 0;
	size_t i = 0;
	for (;;) {
		i = skipPlain(s, n, i, false);
		if (i >= n) {
			return cli_scanIncomplete;
		}
		unsigned char c = (unsigned char)s[i];
		switch (byteClasses[c]) {
		case cli_byteQuote:
			for (++i;;) {
				i = skipPlain(s, n, i, true);
				if (i >= n) {
					return cli_scanIncomplete;
				}
				unsigned char k = byteClasses[(unsigned char)s[i]];
				if (k == cli_byteControl) {
					*at = i;
					return cli_scanStopped;
				}
				if (k == cli_byteBackslash) {
					if (i + 1 < n && byteClasses[(unsigned char)s[i + 1]] == cli_byteControl) {
						*at = i + 1;
						return cli_scanStopped;
					}
					i += 2;
				} else if (s[i++] == '"') {
					break;
				}
			}
			if (depth == 0) {
				*at = i;
				return cli_scanComplete;
			}
			continue;
		case cli_byteOpen:
			if (depth == CJSON_NESTING_LIMIT) {
				*at = i;
				return cli_scanStopped;
			}
			stack[depth++] = (char)c;
			break;
		case cli_byteClose:
			if (depth == 0 || stack[depth - 1] != (c == '}' ? '{' : '[')) {
				*at = i;
				return cli_scanStopped;
			}
			if (--depth == 0) {
				*at = i + 1;
				return cli_scanComplete;
			}
			break;
		case cli_byteControl:
			*at = i;
			return cli_scanStopped;
		default:
			break;
		}
		i++;
	}
}


size_t cliJsonValueLength(const char* text, size_t length)
{
	size_t end = length;
	return length > 0 && scanValue(text, length, true, &end) == cli_scanComplete ? end : length;
}

/* ------------------------------------------------------------ the parser
 *
 * One pass over one value, in the order of RFC 8259's grammar: every byte
 * is checked as it is read (numbers against JSON's grammar, escapes, UTF-8,
 * control bytes, nesting), the first problem is worded where it is, and
 * the tree is built on the way: cJSON's nodes, so that readers walk it
 * with cJSON's accessors, each inside a node of ours that keeps where its
 * value and key stand and how long a string is. Numbers are converted
 * straight from the text by bcParseDouble. The nodes and strings come from
 * an arena the parser owns, emptied at its next parse. */

/* A node of the tree. */
typedef struct cliJsonNode {
	cJSON json;             /* first, so that a cJSON* of ours is a cliJsonNode* */
	const char* raw;        /* the value's bytes in the text parsed */
	const char* keyRaw;     /* a member's key: its opening quote (NULL for no member) */
	uint32_t rawLength;
	uint32_t keyRawLength;  /* quotes included */
	uint32_t line;          /* where raw starts: line 0 is the text's first; the */
	uint32_t column;        /* column counts bytes from its line's start (from the text's on line 0) */
	uint32_t keyLine;
	uint32_t keyColumn;
	uint32_t stringLength;  /* a string's decoded bytes (valuestring may hold NULs) */
	uint32_t keyLength;     /* a key's decoded bytes */
	bool stringHasNul;
	bool keyHasNul;
} cliJsonNode;

static const cliJsonNode* nodeOf(const cJSON* value)
{
	return (const cliJsonNode*)(const void*)value;
}

/* A block of the arena; the first is kept from parse to parse. */
typedef struct cliArenaBlock {
	struct cliArenaBlock* next;
	size_t capacity;
	size_t used;
	max_align_t data[];
} cliArenaBlock;

struct cliJsonParser {
	cliArenaBlock* first;
	cliArenaBlock* current;
	char* scratch; /* a string being decoded */
	size_t scratchCapacity;
	/* the last parse */
	const char* text;
	size_t length;
	cliJsonNode* root; /* its value, as far as it was read when it failed */
	bool failed;
	uint32_t problemLine; /* where the problem was (as a node's line and column) */
	uint32_t problemColumn;
};

static cliArenaBlock* newBlock(size_t capacity)
{
	cliArenaBlock* block = malloc(sizeof *block + capacity);
	if (block != NULL) {
		block->next = NULL;
		block->capacity = capacity;
		block->used = 0;
	}
	return block;
}

/* size bytes aligned for a node, or NULL when out of memory. */
static inline void* arenaAllocate(cliJsonParser* parser, size_t size)
{
	size_t align = _Alignof(cliJsonNode);
	size_t rounded = (size + align - 1) / align * align;
	cliArenaBlock* block = parser->current;
	if (block->capacity - block->used < rounded) {
		size_t capacity = 2 * block->capacity;
		capacity = capacity > rounded ? capacity : rounded;
		cliArenaBlock* next = newBlock(capacity);
		if (next == NULL) {
			return NULL;
		}
		block->next = next;
		parser->current = block = next;
	}
	void* p = (char*)block->data + block->used;
	block->used += rounded;
	return p;
}

/* Free every block but the first, and empty it. */
static void arenaReset(cliJsonParser* parser)
{
	cliArenaBlock* block = parser->first->next;
	while (block != NULL) {
		cliArenaBlock* next = block->next;
		free(block);
		block = next;
	}
	parser->first->next = NULL;
	parser->first->used = 0;
	parser->current = parser->first;
}

cliJsonParser* cliJsonParser_Create(void)
{
	cliJsonParser* parser = calloc(1, sizeof *parser);
	if (parser == NULL) {
		return NULL;
	}
	parser->first = newBlock(CLI_JSON_ARENA_SIZE);
	if (parser->first == NULL) {
		free(parser);
		return NULL;
	}
	parser->current = parser->first;
	return parser;
}

void cliJsonParser_Destroy(cliJsonParser* parser)
{
	if (parser == NULL) {
		return;
	}
	arenaReset(parser);
	free(parser->first);
	free(parser->scratch);
	free(parser);
}

/* One parse: the text, where reading is, and the first problem. */
typedef struct cliJsonRead {
	cliJsonParser* parser;
	const char* s;
	size_t n;
	bool cut;         /* the value runs on past n: a token reaching n is cut off */
	uint32_t line;    /* the line reading is on (0: the text's first) */
	size_t lineStart; /* where it starts */
	size_t at;        /* the problem's offset */
	char* message;
	size_t size;
	bool noMemory;
} cliJsonRead;

CLI_PRINTF(3, 4) static bool problem(cliJsonRead* r, size_t at, const char* format, ...)
{
	r->at = at;
	va_list args;
	va_start(args, format);
	vsnprintf(r->message, r->size, format, args);
	va_end(args);
	return false;
}

static bool outOfMemory(cliJsonRead* r)
{
	r->noMemory = true;
	return false;
}

static bool endOfInput(cliJsonRead* r)
{
	return problem(r, r->n, "unexpected end of input inside a JSON value");
}

/* An unexpected byte where the reading wanted something: "invalid JSON:
 * unexpected ']' (expected a value)"; control bytes alone. */
static bool unexpected(cliJsonRead* r, size_t i, const char* expected)
{
	if (i >= r->n) {
		return endOfInput(r);
	}
	unsigned char b = (unsigned char)r->s[i];
	if (isControlByte((char)b)) {
		return problem(r, i, "invalid JSON: unexpected byte 0x%02X", (unsigned)b);
	}
	char what[16];
	describeByte(b, what, sizeof what);
	return problem(r, i, "invalid JSON: unexpected %s (expected %s)", what, expected);
}

/* Skip white space from s[i], counting lines. */
static size_t readBlankRun(cliJsonRead* r, size_t i)
{
	const char* s = r->s;
	while (i < r->n) {
		char c = s[i];
		if (c == '\n') {
			r->line += 1;
			r->lineStart = i + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		i++;
	}
	return i;
}

/* The same, at once when there is none (records are mostly written
 * without). */
static inline size_t readBlank(cliJsonRead* r, size_t i)
{
	return i < r->n && (unsigned char)r->s[i] > ' ' ? i : readBlankRun(r, i);
}

static cliJsonNode* newNode(cliJsonRead* r)
{
	cliJsonNode* node = arenaAllocate(r->parser, sizeof *node);
	if (node == NULL) {
		r->noMemory = true;
		return NULL;
	}
	*node = (cliJsonNode){ 0 };
	return node;
}

/* Make room for count more decoded bytes after used. */
static bool scratchRoom(cliJsonRead* r, size_t used, size_t count)
{
	cliJsonParser* p = r->parser;
	if (p->scratchCapacity - used >= count) {
		return true;
	}
	size_t capacity = p->scratchCapacity > 0 ? 2 * p->scratchCapacity : 256;
	while (capacity - used < count) {
		capacity *= 2;
	}
	char* bigger = realloc(p->scratch, capacity);
	if (bigger == NULL) {
		return outOfMemory(r);
	}
	p->scratch = bigger;
	p->scratchCapacity = capacity;
	return true;
}

/* A code point as UTF-8 into out: its length. */
static int encodeUtf8(long code, char* out)
{
	if (code < 0x80) {
		out[0] = (char)code;
		return 1;
	}
	if (code < 0x800) {
		out[0] = (char)(0xC0 | (code >> 6));
		out[1] = (char)(0x80 | (code & 0x3F));
		return 2;
	}
	if (code < 0x10000) {
		out[0] = (char)(0xE0 | (code >> 12));
		out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
		out[2] = (char)(0x80 | (code & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (code >> 18));
	out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
	out[3] = (char)(0x80 | (code & 0x3F));
	return 4;
}

/* What a string is, for the message about its bytes that are not UTF-8:
 * a key, a member's value (named by its key when that reads plainly), an
 * element. */
static bool notUtf8(cliJsonRead* r, size_t i, int shown, bool isKey, const cliJsonNode* member)
{
	char bytes[32];
	cliDescribeBytes(r->s + i, shown, bytes, sizeof bytes);
	if (isKey) {
		return problem(r, i, "a key is not valid UTF-8 (%s)", bytes);
	}
	bool plain = member != NULL && member->keyRaw != NULL && member->keyLength > 0 &&
				 member->keyLength <= CLI_QUOTE_MAX;
	for (uint32_t k = 0; plain && k < member->keyLength; ++k) {
		unsigned char c = (unsigned char)member->json.string[k];
		plain = c > 0x20 && c < 0x7F;
	}
	if (plain) {
		return problem(r, i, "%s: not valid UTF-8 (%s)", member->json.string, bytes);
	}
	return problem(r, i, "a string is not valid UTF-8 (%s)", bytes);
}

/* A string's decoded bytes[0 .. count) into the arena as *text (NUL
 * terminated), *length and *hasNul; its closing quote at s[close]. */
static bool copyString(cliJsonRead* r, const char* bytes, size_t count, bool nul, size_t* at, size_t close,
					   char** text, uint32_t* length, bool* hasNul)
{
	char* copy = arenaAllocate(r->parser, count + 1);
	if (copy == NULL) {
		return outOfMemory(r);
	}
	memcpy(copy, bytes, count);
	copy[count] = '\0';
	*at = close + 1;
	*text = copy;
	*length = (uint32_t)count;
	*hasNul = nul;
	return true;
}

/* The string whose quote is at s[*at], decoded into the arena: *text (NUL
 * terminated), *length and *hasNul. member: the node the string is the key
 * (isKey) or the value of, for messages. */
static bool readString(cliJsonRead* r, size_t* at, bool isKey, const cliJsonNode* member, char** text,
					   uint32_t* length, bool* hasNul)
{
	const char* s = r->s;
	size_t n = r->n;
	size_t quote = *at;
	size_t i = quote + 1;
	size_t o = 0;
	bool nul = false;
	for (;;) {
		/* a run of plain bytes at once */
		size_t plain = i;
		while (plain < n) {
			unsigned char b = (unsigned char)s[plain];
			if (b == '"' || b == '\\' || b < 0x20 || b >= 0x80) {
				break;
			}
			plain++;
		}
		if (o == 0 && plain < n && s[plain] == '"') {
			/* the whole string plain: copied from the text, not decoded */
			return copyString(r, s + i, plain - i, false, at, plain, text, length, hasNul);
		}
		if (plain > i) {
			if (!scratchRoom(r, o, plain - i)) {
				return false;
			}
			memcpy(r->parser->scratch + o, s + i, plain - i);
			o += plain - i;
			i = plain;
		}
		if (i >= n) {
			return problem(r, quote, "unterminated string");
		}
		unsigned char b = (unsigned char)s[i];
		if (b == '"') {
			break;
		}
		if (b < 0x20) {
			return problem(r, i, "control character 0x%02X in a string (write it as an escape)", (unsigned)b);
		}
		if (!scratchRoom(r, o, 4)) {
			return false;
		}
		char* out = r->parser->scratch;
		if (b >= 0x80) {
			int shown = 0;
			int k = cliUtf8Length(s + i, n - i, &shown);
			if (k == 0) {
				/* bytes running to the end of the text: the string never closes */
				return i + (size_t)shown >= n ? problem(r, quote, "unterminated string")
											  : notUtf8(r, i, shown, isKey, member);
			}
			memcpy(out + o, s + i, (size_t)k);
			o += (size_t)k;
			i += (size_t)k;
			continue;
		}
		/* a backslash */
		size_t escape = escapeLength(s, n, i);
		if (escape == 0) {
			/* an escape cut off by the end of the text is the string's */
			bool cut = i + 6 > n && i + 1 < n && s[i + 1] == 'u';
			for (size_t k = i + 2; cut && k < n; k++) {
				cut = hexValue(s[k]) >= 0;
			}
			if (i + 1 >= n || cut) {
				return problem(r, quote, "unterminated string");
			}
			return problem(r, i, "invalid escape sequence in a string");
		}
		if (escape == 2) {
			static const char from[] = "\"\\/bfnrt";
			static const char to[] = "\"\\/\b\f\n\r\t";
			out[o++] = to[strchr(from, s[i + 1]) - from];
		} else {
			long code = unicodeEscape(s, n, i);
			if (escape == 12) {
				code = 0x10000 + ((code - 0xD800) << 10) + (unicodeEscape(s, n, i + 6) - 0xDC00);
			}
			nul = nul || code == 0;
			o += (size_t)encodeUtf8(code, out + o);
		}
		i += escape;
	}
	return copyString(r, r->parser->scratch, o, nul, at, i, text, length, hasNul);
}

/* A number or literal at s[*at] into node. */
static bool readToken(cliJsonRead* r, size_t* at, cliJsonNode* node)
{
	const char* s = r->s;
	size_t n = r->n;
	size_t i = *at;
	size_t end = i + cliJsonNumberPrefix(s + i, n - i);
	if (end > i && (end == n || endsScalar(s[end]))) {
		double value = 0.0;
		if (!bcParseDouble(s + i, end - i, &value)) { /* a checked number: only memory can fail */
			return outOfMemory(r);
		}
		node->json.type = cJSON_Number;
		node->json.valuedouble = value;
		/* as cJSON sets it */
		node->json.valueint = value >= INT_MAX ? INT_MAX : value <= (double)INT_MIN ? INT_MIN : (int)value;
		*at = end;
		return true;
	}
	end = i;
	while (end < n && !endsScalar(s[end])) {
		end++;
	}
	if (end == i) {
		return unexpected(r, i, "a value");
	}
	size_t length = end - i;
	if (isLiteral(s + i, length)) {
		node->json.type = s[i] == 't' ? cJSON_True : s[i] == 'f' ? cJSON_False : cJSON_NULL;
		node->json.valueint = s[i] == 't';
		*at = end;
		return true;
	}
	if (end == n && r->cut) {
		return endOfInput(r); /* a token cut off by the end of the text */
	}
	if (isNonNumber(s + i, length)) {
		return problem(r, i, "NaN and Infinity are not JSON numbers");
	}
	char quoted[CLI_QUOTE_SIZE];
	cliQuoteText(s + i, length, quoted, sizeof quoted);
	char first = s[i];
	if (isDigit(first) || first == '-' || first == '+' || first == '.') {
		return problem(r, i, "invalid JSON number '%s'", quoted);
	}
	return problem(r, i, "invalid JSON value '%s'", quoted);
}

/* Where s[i] is, into a node's line and column. */
static void place(const cliJsonRead* r, size_t i, uint32_t* line, uint32_t* column)
{
	*line = r->line;
	*column = (uint32_t)(i - r->lineStart);
}

static bool readContainer(cliJsonRead* r, size_t* at, int depth, cliJsonNode* node);

/* The value at s[*at] (white space before it skipped) into node, whose key
 * is read already when it is a member. Its children are linked as each is
 * read whole, so that a value broken part-way holds what came before. */
static bool readValue(cliJsonRead* r, size_t* at, int depth, cliJsonNode* node)
{
	const char* s = r->s;
	size_t i = readBlank(r, *at);
	if (i >= r->n) {
		return endOfInput(r);
	}
	node->raw = s + i;
	place(r, i, &node->line, &node->column);
	char open = s[i];
	bool ok;
	if (open == '"') {
		*at = i;
		uint32_t length = 0;
		ok = readString(r, at, false, node, &node->json.valuestring, &length, &node->stringHasNul);
		node->json.type = cJSON_String;
		node->stringLength = length;
	} else if (open != '{' && open != '[') {
		*at = i;
		ok = readToken(r, at, node);
	} else {
		*at = i;
		ok = readContainer(r, at, depth, node);
	}
	if (ok) {
		node->rawLength = (uint32_t)(*at - i);
	}
	return ok;
}

/* The array or object whose bracket is at s[*at] into node. */
static bool readContainer(cliJsonRead* r, size_t* at, int depth, cliJsonNode* node)
{
	const char* s = r->s;
	size_t n = r->n;
	size_t i = *at;
	if (depth >= CJSON_NESTING_LIMIT) {
		return problem(r, i, "nesting deeper than %d levels", CJSON_NESTING_LIMIT);
	}
	bool object = s[i] == '{';
	char close = object ? '}' : ']';
	node->json.type = object ? cJSON_Object : cJSON_Array;
	i = readBlank(r, i + 1);
	if (i < n && s[i] == close) {
		*at = i + 1;
		return true;
	}
	cJSON* last = NULL;
	for (bool afterComma = false;; afterComma = true) {
		i = readBlank(r, i);
		if (afterComma && i < n && s[i] == close) {
			return problem(r, i, object ? "expected a key after ',' (no trailing commas in JSON)"
									   : "expected an element after ',' (no trailing commas in JSON)");
		}
		cliJsonNode* child = newNode(r);
		if (child == NULL) {
			return false;
		}
		if (object) {
			if (i >= n || s[i] != '"') {
				return unexpected(r, i, "a key in double quotes");
			}
			size_t key = i;
			child->keyRaw = s + i;
			place(r, i, &child->keyLine, &child->keyColumn);
			if (!readString(r, &i, true, NULL, &child->json.string, &child->keyLength, &child->keyHasNul)) {
				return false;
			}
			child->keyRawLength = (uint32_t)(i - key);
			i = readBlank(r, i);
			if (i >= n || s[i] != ':') {
				return unexpected(r, i, "':' after a key");
			}
			i++;
		}
		if (!readValue(r, &i, depth + 1, child)) {
			return false;
		}
		/* linked once whole; cJSON's first child points back at the last */
		if (last == NULL) {
			node->json.child = &child->json;
		} else {
			last->next = &child->json;
			child->json.prev = last;
		}
		last = &child->json;
		node->json.child->prev = last;
		i = readBlank(r, i);
		if (i < n && s[i] == close) {
			*at = i + 1;
			return true;
		}
		if (i >= n || s[i] != ',') {
			return unexpected(r, i, object ? "',' or '}' after a member" : "',' or ']' after an element");
		}
		i++;
	}
}

/* Parse s[0 .. n) as one value (cut: the value runs on past n; only for
 * a message): 1 with *root, 0 with the problem at *offset and in message,
 * -1 when out of memory. */
static int parseText(cliJsonParser* parser, const char* s, size_t n, bool cut, cJSON** root, size_t* offset,
					 char* message, size_t size)
{
	arenaReset(parser);
	parser->text = s;
	parser->length = n;
	parser->root = NULL;
	parser->failed = true;
	*root = NULL;
	if (n > UINT32_MAX) {
		*offset = 0;
		snprintf(message, size, "JSON value longer than %lu bytes", (unsigned long)UINT32_MAX);
		return 0;
	}
	cliJsonRead r = { parser, s, n, cut, 0, 0, 0, message, size, false };
	cliJsonNode* node = newNode(&r);
	if (node == NULL) {
		return -1;
	}
	parser->root = node;
	size_t at = 0;
	bool ok = readValue(&r, &at, 0, node);
	if (ok) {
		at = readBlank(&r, at);
		if (at < n) {
			char what[16];
			describeByte((unsigned char)s[at], what, sizeof what);
			ok = problem(&r, at, "invalid JSON: unexpected %s", what);
		}
	}
	if (r.noMemory) {
		return -1;
	}
	if (!ok) {
		*offset = r.at;
		/* every problem stands on the line reading is on */
		parser->problemLine = r.line;
		parser->problemColumn = (uint32_t)(r.at >= r.lineStart ? r.at - r.lineStart : 0);
		return 0;
	}
	parser->failed = false;
	*root = &node->json;
	return 1;
}

cJSON* cliJsonParser_Parse(cliJsonParser* parser, const char* text, size_t length, size_t* offset, char* message,
						   size_t messageSize)
{
	cJSON* root = NULL;
	int status = parseText(parser, text, length, false, &root, offset, message, messageSize);
	if (status < 0) {
		*offset = SIZE_MAX;
		snprintf(message, messageSize, "out of memory");
	}
	return root;
}

void cliJsonParser_ProblemPosition(const cliJsonParser* parser, long line, long column, long* problemLine,
								   long* problemColumn)
{
	if (parser->problemLine == 0) {
		*problemLine = line;
		*problemColumn = column + (long)parser->problemColumn;
	} else {
		*problemLine = line + (long)parser->problemLine;
		*problemColumn = (long)parser->problemColumn + 1;
	}
}

const cJSON* cliJsonParser_PartialValue(cliJsonParser* parser, const char* text, size_t length, bool* noMemory)
{
	*noMemory = false;
	if (parser->text != text || parser->length != length || parser->root == NULL) {
		size_t offset;
		char message[8];
		cJSON* root = NULL;
		*noMemory = parseText(parser, text, length, false, &root, &offset, message, sizeof message) < 0;
	}
	return parser->root != NULL ? &parser->root->json : NULL;
}

/* ------------------------------------------------------------- the tree */

bool cliJsonKeyIs(const cJSON* member, const char* name)
{
	const cliJsonNode* m = nodeOf(member);
	size_t n = strlen(name);
	return m->keyRaw != NULL && m->keyLength == n && memcmp(m->json.string, name, n) == 0;
}

const cJSON* cliJsonMember(const cJSON* object, const char* name)
{
	for (const cJSON* m = cJSON_IsObject(object) ? object->child : NULL; m != NULL; m = m->next) {
		if (cliJsonKeyIs(m, name)) {
			return m;
		}
	}
	return NULL;
}

size_t cliJsonKeyLength(const cJSON* member)
{
	return nodeOf(member)->keyLength;
}

size_t cliJsonStringLength(const cJSON* string)
{
	return nodeOf(string)->stringLength;
}

bool cliJsonStringHasNul(const cJSON* string)
{
	return nodeOf(string)->stringHasNul;
}

const char* cliJsonRawText(const cJSON* value, size_t* length)
{
	*length = nodeOf(value)->rawLength;
	return nodeOf(value)->raw;
}

const char* cliJsonRawKey(const cJSON* member, size_t* length)
{
	const cliJsonNode* m = nodeOf(member);
	*length = m->keyRawLength;
	return m->keyRaw;
}

/* Is p within text[0 .. length]? (Compared as addresses: the node may come
 * from another text.) */
static bool within(const char* p, const char* text, size_t length)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)text;
	return p != NULL && a >= b && a - b <= length;
}

bool cliLocateJsonNode(const char* text, size_t length, const cJSON* root, const cJSON* node, size_t* valueOffset,
					   size_t* keyOffset)
{
	*valueOffset = SIZE_MAX;
	*keyOffset = SIZE_MAX;
	if (root == NULL || node == NULL || !within(nodeOf(node)->raw, text, length)) {
		return false;
	}
	const cliJsonNode* v = nodeOf(node);
	*valueOffset = (size_t)(v->raw - text);
	if (node != root && within(v->keyRaw, text, length)) {
		*keyOffset = (size_t)(v->keyRaw - text);
	}
	return true;
}

/* The line and column of a place (a node's line and column) in a text
 * whose root value is at line:column of its input. */
static void placeFrom(const cliJsonNode* root, uint32_t placeLine, uint32_t placeColumn, long line, long column,
					  long* lineOut, long* columnOut)
{
	if (placeLine == root->line) {
		*lineOut = line;
		*columnOut = column + (long)placeColumn - (long)root->column;
	} else {
		*lineOut = line + (long)(placeLine - root->line);
		*columnOut = (long)placeColumn + 1;
	}
}

void cliJsonNodePosition(const cJSON* root, const cJSON* node, long line, long column, long* nodeLine,
						 long* nodeColumn)
{
	*nodeLine = line;
	*nodeColumn = column;
	if (node != NULL && root != NULL) {
		const cliJsonNode* v = nodeOf(node);
		placeFrom(nodeOf(root), v->line, v->column, line, column, nodeLine, nodeColumn);
	}
}

void cliJsonPosition(const char* text, size_t length, long line, long column, const cJSON* root, const cJSON* node,
					 long* nodeLine, long* nodeColumn)
{
	(void)text;
	(void)length;
	cliJsonNodePosition(root, node, line, column, nodeLine, nodeColumn);
}

void cliJsonKeyPosition(const cJSON* root, const cJSON* member, long line, long column, long* keyLine,
						long* keyColumn)
{
	const cliJsonNode* m = nodeOf(member);
	placeFrom(nodeOf(root), m->keyLine, m->keyColumn, line, column, keyLine, keyColumn);
}

bool cliJsonKeyHasNul(const char* text, size_t length, const cJSON* root, const cJSON* member)
{
	(void)text;
	(void)length;
	(void)root;
	return nodeOf(member)->keyHasNul;
}

bool cliJsonSameKey(const char* text, size_t length, const cJSON* root, const cJSON* a, const cJSON* b)
{
	(void)text;
	(void)length;
	(void)root;
	const cliJsonNode* x = nodeOf(a);
	const cliJsonNode* y = nodeOf(b);
	return x->keyRaw != NULL && y->keyRaw != NULL && x->keyLength == y->keyLength &&
		   memcmp(x->json.string, y->json.string, x->keyLength) == 0;
}

bool cliJsonHasNulEscape(const char* text, size_t length)
{
	for (size_t i = 0; i + 6 <= length; ++i) {
		if (text[i] == '\\') {
			if (unicodeEscape(text, length, i) == 0) {
				return true;
			}
			i++;
		}
	}
	return false;
}

/* Does the raw key s[0 .. n) (escapes not decoded) spell name exactly? A
 * key holding an escaped NUL spells nothing. (For the look-ahead of
 * cliJsonStream_HasArrayMember, which parses nothing.) */
static bool keyIs(const char* s, size_t n, const char* name)
{
	size_t i = 0;
	for (; i < n; name++) {
		long c;
		if (s[i] != '\\') {
			c = (unsigned char)s[i++];
		} else if (i + 1 < n && s[i + 1] == 'u') {
			c = unicodeEscape(s, n, i);
			i += 6;
		} else if (i + 1 < n) {
			static const char from[] = "\"\\/bfnrt";
			static const char to[] = "\"\\/\b\f\n\r\t";
			const char* k = memchr(from, s[i + 1], 8);
			c = k != NULL ? to[k - from] : -1;
			i += 2;
		} else {
			return false;
		}
		if (c <= 0 || c != (unsigned char)*name) {
			return false;
		}
	}
	return *name == '\0';
}

/* ------------------------------------------------------ field values */

const char* cliJsonNumberValue(const cJSON* value, double* out)
{
	if (!cJSON_IsNumber(value)) {
		return "expected a number";
	}
	if (!isfinite(value->valuedouble)) {
		return "not a finite number";
	}
	*out = value->valuedouble;
	return NULL;
}

const char* cliJsonVec3Value(const cJSON* value, bcVec3* out, const cJSON** at)
{
	*at = value;
	double xyz[3];
	int count = 0;
	const cJSON* infinite = NULL;
	for (const cJSON* e = cJSON_IsArray(value) ? value->child : NULL; e != NULL; e = e->next, count++) {
		if (count == 3 || !cJSON_IsNumber(e)) {
			return "expected an array of 3 numbers";
		}
		xyz[count] = e->valuedouble;
		infinite = infinite == NULL && !isfinite(xyz[count]) ? e : infinite;
	}
	if (count != 3) {
		return "expected an array of 3 numbers";
	}
	if (infinite != NULL) {
		*at = infinite;
		return "not a finite number";
	}
	*out = (bcVec3){ xyz[0], xyz[1], xyz[2] };
	return NULL;
}

/* ---------------------------------------------------------- the stream */

bool cliJsonStream_Open(cliJsonStream* stream, cliInput* input)
{
	memset(stream, 0, sizeof *stream);
	stream->input = input;
	stream->levels[0] = cli_levelSequence;
	stream->first[0] = true;
	stream->parser = cliJsonParser_Create();
	return stream->parser != NULL;
}

void cliJsonStream_Close(cliJsonStream* stream)
{
	cliJsonParser_Destroy(stream->parser);
	free(stream->key);
	memset(stream, 0, sizeof *stream);
}

static int streamSyntax(cliJsonStream* stream, size_t offset, const char* message, bcError* error)
{
	return cliInput_SyntaxError(stream->input, offset, message, error);
}

/* An unexpected byte at the unread input: control bytes by their value. */
static int streamUnexpected(cliJsonStream* stream, const char* expected, bcError* error)
{
	cliInput* in = stream->input;
	char message[64];
	unsigned char c = (unsigned char)in->buffer[in->start];
	if (isControlByte((char)c)) {
		snprintf(message, sizeof message, "invalid JSON: unexpected byte 0x%02X", (unsigned)c);
		return streamSyntax(stream, 0, message, error);
	}
	return streamSyntax(stream, 0, expected, error);
}

/* The first problem of the value at the unread input, s[0 .. n), which
 * the scanner could not delimit (cut: it runs on past n): true with its
 * offset and message, false when the reading finds none. */
static bool diagnose(cliJsonStream* stream, size_t n, bool cut, size_t* offset, char* message, size_t size)
{
	cliInput* in = stream->input;
	cJSON* root = NULL;
	int status = parseText(stream->parser, in->buffer + in->start, n, cut, &root, offset, message, size);
	if (status < 0) {
		*offset = 0;
		snprintf(message, size, "out of memory");
	}
	return status <= 0;
}

/* Delimit the value at the unread input, reading more while it runs on:
 * 1 with its *length, 0 when it cannot be delimited (problem says where
 * and why), -1 on a read error. */
static int delimit(cliJsonStream* stream, size_t* length, bcError* problem, size_t* problemOffset, bcError* error)
{
	cliInput* in = stream->input;
	*problemOffset = SIZE_MAX;
	for (;;) {
		size_t available = in->length - in->start;
		cliScanResult result = scanValue(in->buffer + in->start, available, in->eof, length);
		if (result == cli_scanComplete) {
			return 1;
		}
		char message[sizeof problem->message];
		if (result == cli_scanIncomplete && !in->eof && available < CLI_JSON_MAX_VALUE) {
			if (cliInput_Fill(in, error) < 0) {
				return -1;
			}
			continue;
		}
		size_t offset = 0;
		if (result == cli_scanIncomplete && !in->eof) {
			snprintf(message, sizeof message, "record longer than %zu bytes (a missing '}', ']' or '\"'?)",
					 CLI_JSON_MAX_VALUE);
		} else if (!diagnose(stream, result == cli_scanStopped ? *length + 1 : available, true, &offset, message,
							 sizeof message)) {
			snprintf(message, sizeof message, "unexpected end of input inside a JSON value");
			offset = available;
		}
		cliInput_SyntaxError(in, offset, message, problem);
		*problemOffset = offset;
		return 0;
	}
}

/* The key at the unread input (a '"'): decoded into stream->key. */
static int readKey(cliJsonStream* stream, bcError* error)
{
	cliInput* in = stream->input;
	size_t length = 0;
	size_t problemOffset;
	int status = delimit(stream, &length, error, &problemOffset, error);
	if (status <= 0) {
		return -1;
	}
	const char* s = in->buffer + in->start;
	size_t offset = 0;
	char message[sizeof error->message];
	cJSON* key = cliJsonParser_Parse(stream->parser, s, length, &offset, message, sizeof message);
	if (key == NULL) {
		return streamSyntax(stream, offset == SIZE_MAX ? 0 : offset, message, error);
	}
	free(stream->key);
	stream->key = strdup(key->valuestring);
	if (stream->key == NULL) {
		return streamSyntax(stream, 0, "out of memory", error);
	}
	stream->keyHasNul = cliJsonStringHasNul(key);
	stream->keyLine = in->line;
	stream->keyColumn = in->column;
	cliInput_Advance(in, length);
	return 1;
}

int cliJsonStream_Next(cliJsonStream* stream, bcError* error)
{
	cliInput* in = stream->input;
	int d = stream->depth;
	cliJsonLevel level = stream->levels[d];
	bool first = stream->first[d];
	stream->first[d] = false;
	int status = cliInput_SkipSpace(in, error);
	if (status < 0) {
		return -1;
	}
	if (level == cli_levelSequence) {
		return status;
	}
	bool object = level == cli_levelObject;
	char close = object ? '}' : ']';
	const char* elementName = object ? "a key" : "an element";
	char message[96];
	if (status == 0) {
		if (first) {
			snprintf(message, sizeof message, "unexpected end of input: expected %s or '%c'", elementName, close);
		} else {
			snprintf(message, sizeof message, "unexpected end of input: expected ',' or '%c'", close);
		}
		return streamSyntax(stream, 0, message, error);
	}
	char c = in->buffer[in->start];
	if (c == close) {
		cliInput_Advance(in, 1);
		stream->depth -= 1;
		return 0;
	}
	if (!first) {
		if (c != ',') {
			snprintf(message, sizeof message, "expected ',' or '%c' after %s", close, object ? "a member" : "an element");
			return streamUnexpected(stream, message, error);
		}
		cliInput_Advance(in, 1);
		status = cliInput_SkipSpace(in, error);
		if (status < 0) {
			return -1;
		}
		if (status == 0) {
			snprintf(message, sizeof message, "unexpected end of input: expected %s after ','", elementName);
			return streamSyntax(stream, 0, message, error);
		}
		if (in->buffer[in->start] == close) {
			snprintf(message, sizeof message, "expected %s after ',' (no trailing commas in JSON)", elementName);
			return streamSyntax(stream, 0, message, error);
		}
	}
	if (!object) {
		return 1;
	}
	if (in->buffer[in->start] != '"') {
		return streamUnexpected(stream, "expected a key (a string in double quotes)", error);
	}
	if (readKey(stream, error) < 0 || cliInput_SkipSpace(in, error) < 0) {
		return -1;
	}
	if (in->start >= in->length || in->buffer[in->start] != ':') {
		if (in->start >= in->length) {
			return streamSyntax(stream, 0, "unexpected end of input: expected ':' after a key", error);
		}
		return streamUnexpected(stream, "expected ':' after a key", error);
	}
	cliInput_Advance(in, 1);
	status = cliInput_SkipSpace(in, error);
	if (status <= 0) {
		return status < 0 ? -1 : streamSyntax(stream, 0, "unexpected end of input: expected a value after ':'", error);
	}
	return 1;
}

int cliJsonStream_Enter(cliJsonStream* stream, bcError* error)
{
	(void)error;
	cliInput* in = stream->input;
	char c = in->start < in->length ? in->buffer[in->start] : '\0';
	if ((c != '[' && c != '{') || stream->depth + 1 >= CLI_JSON_STREAM_DEPTH) {
		return 0;
	}
	cliInput_Advance(in, 1);
	stream->depth += 1;
	stream->levels[stream->depth] = c == '[' ? cli_levelArray : cli_levelObject;
	stream->first[stream->depth] = true;
	return 1;
}

/* In a sequence: take the rest of the line as a bad value, with problem. */
/* The end of the text before s[i] (its last byte but white space), at or
 * after from. */
static size_t contentEnd(const char* s, size_t from, size_t i)
{
	while (i > from && isSpace(s[i - 1])) {
		i--;
	}
	return i;
}

/* Where a value of a sequence (s[0 .. n), starting at s[0]) whose checker
 * stopped at s[offset] (n: the end of the input) was really cut short, or
 * SIZE_MAX when it was not. NDJSON holds a record a line: a value that
 * runs on past its line and then meets a line starting with '{' (the next
 * record: records are objects) at or before the problem, or the end of
 * the input after a new line, was cut at the end of the text before that
 * line ("{...,[0.25" and the next record), not where the checker stopped.
 * A problem inside a value written over several lines stays where it is. */
static size_t cutShortAt(const char* s, size_t n, size_t offset)
{
	if (offset == SIZE_MAX || offset > n) {
		return SIZE_MAX;
	}
	const char* newline = memchr(s, '\n', offset);
	while (newline != NULL) {
		size_t lineStart = (size_t)(newline - s) + 1;
		size_t first = lineStart;
		while (first < offset && (s[first] == ' ' || s[first] == '\t' || s[first] == '\r')) {
			first++;
		}
		if (first <= offset && first < n && s[first] == '{') {
			return contentEnd(s, 0, lineStart);
		}
		newline = lineStart < offset ? memchr(s + lineStart, '\n', offset - lineStart) : NULL;
	}
	if (offset == n) {
		size_t end = contentEnd(s, 0, n);
		if (memchr(s + end, '\n', n - end) != NULL) {
			return end;
		}
	}
	return SIZE_MAX;
}

static int takeBadLine(cliJsonStream* stream, cliJsonSpan* span, const bcError* problem, bcError* error)
{
	cliInput* in = stream->input;
	span->bad = true;
	span->problem = *problem;
	span->line = in->line;
	span->column = in->column;
	const char* s = in->buffer + in->start;
	const char* newline = memchr(s, '\n', in->length - in->start);
	if (newline == NULL && !in->eof) {
		/* a line longer than a value may be: skipped, not held */
		span->text = s;
		span->length = in->length - in->start;
		if (cliInput_SkipLine(in, CLI_JSON_MAX_VALUE, error) < 0) {
			return -1;
		}
		return 1;
	}
	size_t length = newline != NULL ? (size_t)(newline - s) : in->length - in->start;
	span->text = s;
	span->length = length;
	cliInput_Advance(in, newline != NULL ? length + 1 : length);
	return 1;
}

int cliJsonStream_Take(cliJsonStream* stream, cliJsonSpan* span, bcError* error)
{
	cliInput* in = stream->input;
	memset(span, 0, sizeof *span);
	bool sequence = stream->levels[stream->depth] == cli_levelSequence;
	size_t length = 0;
	bcError problem;
	size_t problemOffset;
	int status = delimit(stream, &length, &problem, &problemOffset, error);
	if (status < 0) {
		return -1;
	}
	size_t cut = status == 0 && sequence ? cutShortAt(in->buffer + in->start, in->length - in->start, problemOffset)
										 : SIZE_MAX;
	if (cut != SIZE_MAX) {
		cliInput_SyntaxError(in, cut, "invalid JSON: the record is cut short: its line ends inside a JSON value",
							 &problem);
	}
	if (status > 0) {
		/* in a sequence white space must follow: a line "{...}x" is one bad value */
		while (sequence && in->start + length >= in->length && !in->eof) {
			if (cliInput_Fill(in, error) < 0) {
				return -1;
			}
		}
		const char* s = in->buffer + in->start;
		char next = in->start + length < in->length ? s[length] : ' ';
		if (!sequence || isSpace(next)) {
			span->text = s;
			span->length = length;
			span->line = in->line;
			span->column = in->column;
			cliInput_Advance(in, length);
			return 1;
		}
		char message[64];
		if (isControlByte(next)) {
			snprintf(message, sizeof message, "invalid JSON: unexpected byte 0x%02X", (unsigned)(unsigned char)next);
		} else {
			snprintf(message, sizeof message, "expected whitespace or a new line after a JSON value");
		}
		cliInput_SyntaxError(in, length, message, &problem);
	}
	if (!sequence) {
		*error = problem;
		return -1;
	}
	return takeBadLine(stream, span, &problem, error);
}

/* Is there a member key whose value is an array at the top level of the
 * object s[0 ..) (its '{' at s[0])? 1 or 0, or -1 when s[0 .. n) ends
 * before that can be told. */
static int findArrayMember(const char* s, size_t n, const char* key)
{
	size_t i = 1;
	for (;;) {
		i = skipBlank(s, n, i);
		if (i >= n) {
			return -1;
		}
		size_t keyLength = 0, valueLength = 0;
		cliScanResult result = s[i] == '"' ? scanValue(s + i, n - i, false, &keyLength) : cli_scanStopped;
		size_t keyAt = i;
		i = skipBlank(s, n, i + keyLength);
		if (result == cli_scanComplete && (i >= n || s[i] == ':')) {
			i = skipBlank(s, n, i + 1);
			if (i < n && s[i] == '[' && keyIs(s + keyAt + 1, keyLength - 2, key)) {
				return 1;
			}
			result = i < n ? scanValue(s + i, n - i, false, &valueLength) : cli_scanIncomplete;
			i = skipBlank(s, n, i + valueLength);
		}
		if (result == cli_scanIncomplete || (result == cli_scanComplete && i >= n)) {
			return -1;
		}
		if (result == cli_scanStopped || s[i] != ',') {
			return 0;
		}
		i++;
	}
}

int cliJsonStream_HasArrayMember(cliJsonStream* stream, const char* key, bcError* error)
{
	cliInput* in = stream->input;
	for (;;) {
		size_t n = in->length - in->start;
		int found = findArrayMember(in->buffer + in->start, n, key);
		if (found >= 0 || in->eof || n >= CLI_JSON_MAX_VALUE) {
			return found > 0 ? 1 : 0;
		}
		int status = cliInput_Fill(in, error);
		if (status <= 0) {
			return status;
		}
	}
}

int cliJsonStream_Finish(cliJsonStream* stream, const char* what, bcError* error)
{
	int status = cliInput_SkipSpace(stream->input, error);
	if (status <= 0) {
		return status < 0 ? -1 : 1;
	}
	return streamUnexpected(stream, what, error);
}
