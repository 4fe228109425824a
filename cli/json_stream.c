/* json_stream.c - the one JSON front end (json_stream.h): the scanner that
 * delimits values, cJSON for one value with every number and escape
 * checked, the strict checker behind every message, positions, and the
 * stream of values over an input. */
#include "json_stream.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>

/* An ASCII decimal digit (not locale-dependent, as isdigit is). */
static bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}
#endif

/* Scratch arena for cJSON's nodes while a value is parsed: a typical
 * record needs about 1 KiB, so 64 KiB holds any ordinary record without
 * touching malloc. */
#define CLI_JSON_ARENA_SIZE ((size_t)64 * 1024)

/* Number tokens shorter than this are left to cJSON (which reads them with
 * strtod): the "null" a converted number is replaced by takes 4 bytes. */
#define CLI_JSON_PLACEHOLDER 4

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

/* ------------------------------------------------------------- bytes */

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

/* The offset after the value at s[i] (n when it does not end there). */
static size_t valueEnd(const char* s, size_t n, size_t i)
{
	return i < n ? i + cliJsonValueLength(s + i, n - i) : n;
}

/* ----------------------------------------------------------- the checker
 *
 * A strict RFC 8259 walk over one value, run only on text that cJSON or the
 * number and escape checks refused (or that the scanner could not
 * delimit): it finds the first problem in the text and says what it is.
 * It is the one place that words JSON's syntax errors. */

typedef struct cliChecker {
	const char* s;
	size_t n;
	bool cut; /* the value runs on past n: a token or string reaching n is cut off */
	size_t at;
	char* message;
	size_t size;
} cliChecker;

CLI_PRINTF(3, 4) static bool problem(cliChecker* c, size_t at, const char* format, ...)
{
	c->at = at;
	va_list args;
	va_start(args, format);
	vsnprintf(c->message, c->size, format, args);
	va_end(args);
	return false;
}

static bool endOfInput(cliChecker* c)
{
	return problem(c, c->n, "unexpected end of input inside a JSON value");
}

/* An unexpected byte where the checker wanted something: "invalid JSON:
 * unexpected ']' (expected a value)"; control bytes alone. */
static bool unexpected(cliChecker* c, size_t i, const char* expected)
{
	if (i >= c->n) {
		return endOfInput(c);
	}
	unsigned char b = (unsigned char)c->s[i];
	if (isControlByte((char)b)) {
		return problem(c, i, "invalid JSON: unexpected byte 0x%02X", (unsigned)b);
	}
	char what[16];
	describeByte(b, what, sizeof what);
	return problem(c, i, "invalid JSON: unexpected %s (expected %s)", what, expected);
}

static bool checkString(cliChecker* c, size_t* at)
{
	const char* s = c->s;
	size_t quote = *at;
	size_t i = quote + 1;
	for (;;) {
		if (i >= c->n) {
			return problem(c, quote, "unterminated string");
		}
		unsigned char b = (unsigned char)s[i];
		if (b == '"') {
			*at = i + 1;
			return true;
		}
		if (b < 0x20) {
			return problem(c, i, "control character 0x%02X in a string (write it as an escape)", (unsigned)b);
		}
		if (b == '\\') {
			size_t length = escapeLength(s, c->n, i);
			if (length == 0) {
				/* an escape cut off by the end of the text is the string's */
				bool cut = i + 6 > c->n && i + 1 < c->n && s[i + 1] == 'u';
				for (size_t k = i + 2; cut && k < c->n; k++) {
					cut = hexValue(s[k]) >= 0;
				}
				if (i + 1 >= c->n || cut) {
					return problem(c, quote, "unterminated string");
				}
				return problem(c, i, "invalid escape sequence in a string");
			}
			i += length;
			continue;
		}
		i++;
	}
}

/* A number or literal at s[*at]. */
static bool checkToken(cliChecker* c, size_t* at)
{
	const char* s = c->s;
	size_t i = *at;
	size_t end = i;
	while (end < c->n && !endsScalar(s[end])) {
		end++;
	}
	if (end == i) {
		return unexpected(c, i, "a value");
	}
	size_t length = end - i;
	int shown = length > CLI_QUOTE_MAX ? CLI_QUOTE_MAX : (int)length;
	if (isLiteral(s + i, length) || cliIsJsonNumber(s + i, length)) {
		*at = end;
		return true;
	}
	if (end == c->n && c->cut) {
		return endOfInput(c); /* a token cut off by the end of the text */
	}
	if (isNonNumber(s + i, length)) {
		return problem(c, i, "NaN and Infinity are not JSON numbers");
	}
	char first = s[i];
	if (isDigit(first) || first == '-' || first == '+' || first == '.') {
		return problem(c, i, "invalid JSON number '%.*s'", shown, s + i);
	}
	return problem(c, i, "invalid JSON value '%.*s'", shown, s + i);
}

static bool checkValue(cliChecker* c, size_t* at, int depth)
{
	const char* s = c->s;
	size_t i = skipBlank(s, c->n, *at);
	if (i >= c->n) {
		return endOfInput(c);
	}
	char open = s[i];
	if (open == '"') {
		*at = i;
		return checkString(c, at);
	}
	if (open != '{' && open != '[') {
		*at = i;
		return checkToken(c, at);
	}
	if (depth >= CJSON_NESTING_LIMIT) {
		return problem(c, i, "nesting deeper than %d levels", CJSON_NESTING_LIMIT);
	}
	bool object = open == '{';
	char close = object ? '}' : ']';
	i = skipBlank(s, c->n, i + 1);
	if (i < c->n && s[i] == close) {
		*at = i + 1;
		return true;
	}
	for (bool afterComma = false;; afterComma = true) {
		i = skipBlank(s, c->n, i);
		if (afterComma && i < c->n && s[i] == close) {
			return problem(c, i, object ? "expected a key after ',' (no trailing commas in JSON)"
										: "expected an element after ',' (no trailing commas in JSON)");
		}
		if (object) {
			if (i >= c->n || s[i] != '"') {
				return unexpected(c, i, "a key in double quotes");
			}
			if (!checkString(c, &i)) {
				return false;
			}
			i = skipBlank(s, c->n, i);
			if (i >= c->n || s[i] != ':') {
				return unexpected(c, i, "':' after a key");
			}
			i++;
		}
		if (!checkValue(c, &i, depth + 1)) {
			return false;
		}
		i = skipBlank(s, c->n, i);
		if (i < c->n && s[i] == close) {
			*at = i + 1;
			return true;
		}
		if (i >= c->n || s[i] != ',') {
			return unexpected(c, i, object ? "',' or '}' after a member" : "',' or ']' after an element");
		}
		i++;
	}
}

/* The first problem of the text s[0 .. n) as one JSON value (cut: the
 * text stops inside it): true with its offset and message; false when
 * there is none. */
static bool diagnose(const char* s, size_t n, bool cut, size_t* offset, char* message, size_t size)
{
	cliChecker c = { s, n, cut, 0, message, size };
	size_t at = 0;
	if (checkValue(&c, &at, 0)) {
		at = skipBlank(s, n, at);
		if (at >= n) {
			return false;
		}
		char what[16];
		describeByte((unsigned char)s[at], what, sizeof what);
		problem(&c, at, "invalid JSON: unexpected %s", what);
	}
	*offset = c.at;
	return true;
}

/* ------------------------------------------------------------ the parser
 *
 * cJSON's nodes come from a per-parser arena (cJSON's allocation hooks)
 * instead of malloc and free. And numbers are not left to cJSON's strtod:
 * each JSON number token of 4 bytes or more is converted here and replaced,
 * in the copy cJSON reads, by "null" padded with blanks to the same length;
 * after the parse the null nodes take the numbers back. cJSON reads a
 * literal or a number the same way (a value, then blanks skipped), and the
 * copy has the same bytes elsewhere, so it fails or succeeds at the same
 * places as the original text. */

/* What to do with a scalar node of the parsed copy, in document order. */
typedef struct cliToken {
	bool number; /* a "null" placeholder for value */
	double value;
} cliToken;

/* An allocation of the arena that did not fit: a block of its own, freed
 * when the arena is reset. The union keeps what follows aligned. */
typedef union cliArenaBlock {
	union cliArenaBlock* next;
	max_align_t align;
} cliArenaBlock;

typedef struct cliArena {
	char* base;
	size_t used;
	size_t capacity;
	cliArenaBlock* extra;
} cliArena;

struct cliJsonParser {
	cliArena arena;
	char* copy;
	size_t copyCapacity;
	cliToken* tokens;
	size_t tokenCount;
	size_t tokenCapacity;
};

/* The arena cJSON allocates from on this thread, or NULL for malloc. */
static _Thread_local cliArena* activeArena;

static void* arenaAllocate(size_t size)
{
	cliArena* arena = activeArena;
	if (arena == NULL) {
		return malloc(size);
	}
	size_t align = _Alignof(max_align_t);
	size_t rounded = (size + align - 1) / align * align;
	if (rounded >= size && arena->capacity - arena->used >= rounded) {
		void* p = arena->base + arena->used;
		arena->used += rounded;
		return p;
	}
	if (size > SIZE_MAX - sizeof(cliArenaBlock)) {
		return NULL;
	}
	cliArenaBlock* block = malloc(sizeof(cliArenaBlock) + size);
	if (block == NULL) {
		return NULL;
	}
	block->next = arena->extra;
	arena->extra = block;
	return block + 1;
}

/* Arena memory goes all at once in arenaReset; the rest is malloc's. */
static void arenaRelease(void* pointer)
{
	if (activeArena == NULL) {
		free(pointer);
	}
}

static void arenaReset(cliArena* arena)
{
	while (arena->extra != NULL) {
		cliArenaBlock* next = arena->extra->next;
		free(arena->extra);
		arena->extra = next;
	}
	arena->used = 0;
}

cliJsonParser* cliJsonParser_Create(void)
{
	/* cJSON allows its hooks to be set before threads use it; they fall back
	 * to malloc and free whenever no arena is active. */
	static bool hooked = false;
	if (!hooked) {
		cJSON_Hooks hooks = { arenaAllocate, arenaRelease };
		cJSON_InitHooks(&hooks);
		hooked = true;
	}
	cliJsonParser* parser = calloc(1, sizeof *parser);
	if (parser == NULL) {
		return NULL;
	}
	parser->arena.base = malloc(CLI_JSON_ARENA_SIZE);
	if (parser->arena.base == NULL) {
		free(parser);
		return NULL;
	}
	parser->arena.capacity = CLI_JSON_ARENA_SIZE;
	return parser;
}

void cliJsonParser_Destroy(cliJsonParser* parser)
{
	if (parser == NULL) {
		return;
	}
	arenaReset(&parser->arena);
	free(parser->arena.base);
	free(parser->copy);
	free(parser->tokens);
	free(parser);
}

static bool reserve(void** data, size_t* capacity, size_t needed, size_t elementSize)
{
	if (*capacity >= needed) {
		return true;
	}
	size_t grown = *capacity > 0 ? *capacity : 64;
	while (grown < needed) {
		grown *= 2;
	}
	void* bigger = realloc(*data, grown * elementSize);
	if (bigger == NULL) {
		return false;
	}
	*data = bigger;
	*capacity = grown;
	return true;
}

/* Walk text as the checker would, listing its scalar tokens in document
 * order and replacing numbers of 4 bytes or more in the copy by "null"
 * placeholders. 1 when every token is a JSON number or literal and every
 * escape is valid, 0 when not (the checker then says why), -1 when out of
 * memory. */
static int prepareCopy(cliJsonParser* parser, const char* s, size_t n)
{
	char* copy = parser->copy;
	memcpy(copy, s, n);
	copy[n] = '\0';
	parser->tokenCount = 0;
	size_t i = 0;
	while (i < n) {
		char c = s[i];
		if (c == '"') {
			for (++i; i < n && s[i] != '"'; ++i) {
				if ((unsigned char)s[i] < 0x20) {
					return 0; /* a raw line break or tab: cJSON would keep it */
				}
				if (s[i] == '\\') {
					size_t length = escapeLength(s, n, i);
					if (length == 0) {
						return 0;
					}
					i += length - 1;
				}
			}
			++i;
			continue;
		}
		if (isSpace(c) || c == ',' || c == ':' || c == '{' || c == '[' || c == '}' || c == ']') {
			++i;
			continue;
		}
		/* a number's own end, or else the token's */
		size_t end = i + cliJsonNumberPrefix(s + i, n - i);
		bool number = end > i && (end == n || endsScalar(s[end]));
		while (end < n && !endsScalar(s[end])) {
			end++;
		}
		size_t length = end - i;
		cliToken token = { false, 0.0 };
		if (number) {
			if (length >= CLI_JSON_PLACEHOLDER) {
				if (!bcParseDouble(s + i, length, &token.value)) { /* a checked number: only memory can fail */
					return -1;
				}
				token.number = true;
				memcpy(copy + i, "null", 4);
				memset(copy + i + 4, ' ', length - 4);
			}
		} else if (!isLiteral(s + i, length)) {
			return 0;
		}
		void* tokens = parser->tokens;
		if (!reserve(&tokens, &parser->tokenCapacity, parser->tokenCount + 1, sizeof *parser->tokens)) {
			return -1;
		}
		parser->tokens = tokens;
		parser->tokens[parser->tokenCount++] = token;
		i = end;
	}
	return 1;
}

/* Give the placeholders of the parsed copy their numbers back: the scalar
 * nodes in document order are the tokens. False if they do not line up
 * (never expected). */
static bool restoreNumbers(cJSON* item, const cliToken* tokens, size_t count, size_t* next)
{
	for (; item != NULL; item = item->next) {
		int type = item->type & 0xFF;
		if (type == cJSON_Array || type == cJSON_Object) {
			if (!restoreNumbers(item->child, tokens, count, next)) {
				return false;
			}
			continue;
		}
		if (type == cJSON_String || type == cJSON_Raw) {
			continue;
		}
		if (*next >= count) {
			return false;
		}
		const cliToken* token = tokens + (*next)++;
		if (token->number) {
			if (type != cJSON_NULL) {
				return false;
			}
			double v = token->value;
			item->type = cJSON_Number;
			item->valuedouble = v;
			/* as cJSON sets it */
			item->valueint = v >= INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;
		}
	}
	return true;
}

cJSON* cliJsonParser_Parse(cliJsonParser* parser, const char* text, size_t length, size_t* offset, char* message,
						   size_t messageSize)
{
	arenaReset(&parser->arena);
	void* copy = parser->copy;
	if (!reserve(&copy, &parser->copyCapacity, length + 1, 1)) {
		*offset = SIZE_MAX;
		snprintf(message, messageSize, "out of memory");
		return NULL;
	}
	parser->copy = copy;
	int prepared = prepareCopy(parser, text, length);
	cJSON* item = NULL;
	if (prepared > 0) {
		const char* end = NULL;
		activeArena = &parser->arena;
		item = cJSON_ParseWithLengthOpts(parser->copy, length, &end, 0);
		activeArena = NULL;
		size_t next = 0;
		/* a number's placeholder at the top level leaves its padding unread */
		size_t used = end != NULL ? (size_t)(end - parser->copy) : 0;
		while (item != NULL && used < length && parser->copy[used] == ' ') {
			used++;
		}
		if (item != NULL && (used != length ||
							 !restoreNumbers(item, parser->tokens, parser->tokenCount, &next) ||
							 next != parser->tokenCount)) {
			item = NULL;
		}
	}
	if (item != NULL) {
		return item;
	}
	if (prepared < 0 || !diagnose(text, length, false, offset, message, messageSize)) {
		/* valid JSON cJSON could not take: only its memory runs out */
		*offset = SIZE_MAX;
		snprintf(message, messageSize, "out of memory");
	}
	return NULL;
}

/* --------------------------------------------------------- positions */

/* Walk the raw text from *at (the start of item's value, blanks allowed)
 * alongside the tree, to node. */
static bool locateIn(const char* s, size_t n, size_t* at, const cJSON* item, const cJSON* node, size_t* value,
					 size_t* key)
{
	size_t i = skipBlank(s, n, *at);
	if (item == node) {
		*value = i;
		return true;
	}
	if (!cJSON_IsArray(item) && !cJSON_IsObject(item)) {
		*at = valueEnd(s, n, i);
		return false;
	}
	bool object = cJSON_IsObject(item);
	i++;
	for (const cJSON* child = item->child; child != NULL && i < n; child = child->next) {
		i = skipBlank(s, n, i);
		if (i < n && s[i] == ',') {
			i = skipBlank(s, n, i + 1);
		}
		size_t keyAt = SIZE_MAX;
		if (object) {
			keyAt = i;
			i = skipBlank(s, n, valueEnd(s, n, i));
			i += i < n && s[i] == ':';
		}
		if (child == node) {
			*key = keyAt;
		}
		if (locateIn(s, n, &i, child, node, value, key)) {
			return true;
		}
	}
	*at = skipBlank(s, n, i) + 1;
	return false;
}

bool cliJsonLocate(const char* text, size_t length, const cJSON* root, const cJSON* node, size_t* valueOffset,
				   size_t* keyOffset)
{
	size_t at = 0;
	*valueOffset = SIZE_MAX;
	*keyOffset = SIZE_MAX;
	return locateIn(text, length, &at, root, node, valueOffset, keyOffset);
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

void cliJsonPosition(const char* text, size_t length, long line, long column, const cJSON* root, const cJSON* node,
					 long* nodeLine, long* nodeColumn)
{
	size_t value, key;
	*nodeLine = line;
	*nodeColumn = column;
	if (node != NULL && root != NULL && cliJsonLocate(text, length, root, node, &value, &key)) {
		cliTextPosition(text, value, line, column, nodeLine, nodeColumn);
	}
}

bool cliJsonKeyHasNul(const char* text, size_t length, const cJSON* root, const cJSON* member)
{
	size_t value, key;
	if (!cliJsonLocate(text, length, root, member, &value, &key) || key == SIZE_MAX) {
		return false;
	}
	size_t end = valueEnd(text, length, key);
	return cliJsonHasNulEscape(text + key, end - key);
}

/* The next character of the raw string s[0 .. n) (no quotes; checked
 * text) from s[*i] on, as the UTF-8 bytes cJSON decodes it to, NUL
 * included: their count (1 .. 4; 0 at the end). */
static int nextStringBytes(const char* s, size_t n, size_t* i, unsigned char bytes[4])
{
	if (*i >= n) {
		return 0;
	}
	if (s[*i] != '\\') {
		bytes[0] = (unsigned char)s[(*i)++];
		return 1;
	}
	long code = unicodeEscape(s, n, *i);
	if (code < 0) {
		static const char from[] = "\"\\/bfnrt";
		static const char to[] = "\"\\/\b\f\n\r\t";
		if (*i + 1 >= n) { /* a lone backslash at the end (not in checked text) */
			bytes[0] = '\\';
			*i += 1;
			return 1;
		}
		const char* k = memchr(from, s[*i + 1], 8);
		bytes[0] = (unsigned char)(k != NULL ? to[k - from] : s[*i + 1]);
		*i += 2;
		return 1;
	}
	*i += 6;
	if (code >= 0xD800 && code <= 0xDBFF) {
		long low = unicodeEscape(s, n, *i);
		if (low >= 0xDC00 && low <= 0xDFFF) {
			code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
			*i += 6;
		}
	}
	if (code < 0x80) {
		bytes[0] = (unsigned char)code;
		return 1;
	}
	if (code < 0x800) {
		bytes[0] = (unsigned char)(0xC0 | (code >> 6));
		bytes[1] = (unsigned char)(0x80 | (code & 0x3F));
		return 2;
	}
	if (code < 0x10000) {
		bytes[0] = (unsigned char)(0xE0 | (code >> 12));
		bytes[1] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
		bytes[2] = (unsigned char)(0x80 | (code & 0x3F));
		return 3;
	}
	bytes[0] = (unsigned char)(0xF0 | (code >> 18));
	bytes[1] = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
	bytes[2] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
	bytes[3] = (unsigned char)(0x80 | (code & 0x3F));
	return 4;
}

bool cliJsonSameKey(const char* text, size_t length, const cJSON* root, const cJSON* a, const cJSON* b)
{
	size_t value, keyA, keyB;
	if (!cliJsonLocate(text, length, root, a, &value, &keyA) || keyA == SIZE_MAX ||
		!cliJsonLocate(text, length, root, b, &value, &keyB) || keyB == SIZE_MAX) {
		return false;
	}
	/* the keys' contents, quotes left out */
	const char* s = text + keyA + 1;
	size_t n = valueEnd(text, length, keyA) - keyA;
	n = n >= 2 ? n - 2 : 0;
	const char* t = text + keyB + 1;
	size_t m = valueEnd(text, length, keyB) - keyB;
	m = m >= 2 ? m - 2 : 0;
	size_t i = 0, j = 0;
	for (;;) {
		unsigned char x[4], y[4];
		int p = nextStringBytes(s, n, &i, x);
		int q = nextStringBytes(t, m, &j, y);
		if (p != q || memcmp(x, y, (size_t)p) != 0) {
			return false;
		}
		if (p == 0) {
			return true;
		}
	}
}

/* Does the raw key s[0 .. n) (escapes not decoded) spell name exactly? A
 * key holding an escaped NUL spells nothing. */
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

bool cliJsonFindId(const char* text, size_t length, size_t* begin, size_t* end)
{
	const char* s = text;
	size_t n = length;
	size_t i = skipBlank(s, n, 0);
	if (i >= n || s[i] != '{') {
		return false;
	}
	i++;
	for (;;) {
		i = skipBlank(s, n, i);
		if (i >= n || s[i] != '"') {
			return false;
		}
		size_t keyEnd = valueEnd(s, n, i);
		if (keyEnd >= n) {
			return false;
		}
		bool isId = keyIs(s + i + 1, keyEnd - i - 2, "id");
		i = skipBlank(s, n, keyEnd);
		if (i >= n || s[i] != ':') {
			return false;
		}
		i = skipBlank(s, n, i + 1);
		size_t start = i;
		i = valueEnd(s, n, i);
		if (i > n || i == start || (i == n && (start >= n || !isId))) {
			return false;
		}
		if (isId) {
			*begin = start;
			*end = i;
			return true;
		}
		i = skipBlank(s, n, i);
		if (i >= n || s[i] != ',') {
			return false;
		}
		i++;
	}
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

/* Delimit the value at the unread input, reading more while it runs on:
 * 1 with its *length, 0 when it cannot be delimited (problem says where
 * and why), -1 on a read error. */
static int delimit(cliInput* in, size_t* length, bcError* problem, size_t* problemOffset, bcError* error)
{
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
		} else if (!diagnose(in->buffer + in->start, result == cli_scanStopped ? *length + 1 : available, true, &offset,
							 message, sizeof message)) {
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
	int status = delimit(in, &length, error, &problemOffset, error);
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
	stream->keyHasNul = false;
	for (size_t i = 1; i + 6 <= length; ++i) {
		if (s[i] == '\\') {
			stream->keyHasNul = stream->keyHasNul || unicodeEscape(s, length, i) == 0;
			i++;
		}
	}
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
	int status = delimit(in, &length, &problem, &problemOffset, error);
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
