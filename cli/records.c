/* records.c - streaming readers for input records: a JSON array read one
 * element at a time, NDJSON (any whitespace-separated JSON values) and CSV
 * with a header row. Memory is bounded by the largest single record, never by
 * the number of records.
 *
 * JSON: a small scanner finds where the next value ends (strings, escapes,
 * bracket matching), reading more input while the value is cut off by the end
 * of the buffer; cJSON then parses exactly that value. The scanner is needed
 * because cJSON cannot tell "cut off" from "malformed": a string cut off by
 * the end of the buffer is reported at its opening quote, not at the end.
 * On its way the scanner also checks every number against JSON's grammar,
 * which cJSON leaves to strtod (it takes 01, 1. and -.5), and stops at any
 * byte below 0x20 but tab, LF and CR, which cJSON skips as white space even
 * inside a value (and keeps inside strings). */
#include "records.h"

#include "decimal.h"

#include <cJSON.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bytes asked of the stream per read, and the initial buffer size. 64 KiB
 * holds hundreds of typical records, so the memmove of a partial record and
 * the re-scan it causes happen once per few hundred records, while the buffer
 * stays small. */
#define CLI_READ_CHUNK ((size_t)64 * 1024)

/* The largest record (one JSON value or one CSV row). Real records are well
 * under 1 KiB; the limit stops a missing '}' or '"' from pulling the rest of a
 * multi-gigabyte file into memory before the error is found. */
#define CLI_MAX_RECORD_BYTES ((size_t)16 * 1024 * 1024)

/* How near the end of a cut-off record an error reported by cJSON may lie
 * and still be an artefact of the cut (a literal or number is at most a few
 * bytes; 64 leaves a margin). */
#define CLI_CUT_MARGIN 64

/* Longest cell or key quoted back in a message; keeps messages within
 * cliRecord.error. */
#define CLI_QUOTE_MAX 40

/* How often a reader waiting on a pipe asks whether to keep waiting: short
 * enough that a run stopped by an error ends promptly, long enough that an
 * idle wait costs nothing. */
#define CLI_POLL_INTERVAL_MS 100

/* The longest number cJSON 1.7.15 reads whole (it copies at most 63 bytes
 * before calling strtod); longer numbers are left to cJSON untouched. */
#define CLI_CJSON_NUMBER_MAX 63

/* Scratch arena for cJSON's nodes while a deferred record is parsed: a
 * typical record needs about 1 KiB, so 64 KiB holds any ordinary record
 * without touching malloc. */
#define CLI_ARENA_SIZE ((size_t)64 * 1024)

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

typedef enum cliReadState {
	cli_readStart = 0,  /* nothing read: BOM, format detection */
	cli_readArrayFirst, /* after '[': an element or ']' */
	cli_readArrayNext,  /* after an element: ',' or ']' */
	cli_readArrayEnd,   /* after ']': only whitespace may follow */
	cli_readValues,     /* NDJSON: JSON values separated by whitespace */
	cli_readCsvHeader,
	cli_readCsvRows,
	cli_readDone,       /* end of input: Next returns 0 */
	cli_readFailed      /* an error was returned: Next returns it again */
} cliReadState;

/* CSV columns the reader knows. */
typedef enum cliColumn {
	cli_columnId = 0,
	cli_columnX0, cli_columnY0, cli_columnZ0,
	cli_columnX1, cli_columnY1, cli_columnZ1,
	cli_columnX, cli_columnY, cli_columnZ,
	cli_columnVx, cli_columnVy, cli_columnVz,
	cli_columnR,
	cli_columnRadius,
	cli_columnMass,
	cli_columnCount
} cliColumn;

static const char* const columnNames[cli_columnCount] = {
	"id", "x0", "y0", "z0", "x1", "y1", "z1", "x", "y", "z", "vx", "vy", "vz", "r", "radius", "mass",
};

/* The four 3-vectors: their JSON key, first CSV column and field bit. */
typedef struct cliVectorField {
	const char* key;
	cliColumn firstColumn;
	unsigned field;
} cliVectorField;

static const cliVectorField vectorFields[4] = {
	{ "p0", cli_columnX0, cli_fieldP0 },
	{ "p1", cli_columnX1, cli_fieldP1 },
	{ "p", cli_columnX, cli_fieldP },
	{ "v", cli_columnVx, cli_fieldVelocity },
};

/* Where vectorFields[k] goes in a record. */
static bcVec3* recordVector(cliRecord* record, int k)
{
	switch (k) {
	case 0:
		return &record->p0;
	case 1:
		return &record->p1;
	case 2:
		return &record->p;
	default:
		return &record->velocity;
	}
}

/* The JSON members read: first the four vectors (as in vectorFields). */
enum {
	cli_memberId = 4,
	cli_memberR,
	cli_memberRadius,
	cli_memberMass,
	cli_memberCount
};

static const char* const memberKeys[cli_memberCount] = { "p0", "p1", "p", "v", "id", "r", "radius", "mass" };

/* One decoded CSV cell: its text in the reader's scratch (NUL terminated)
 * and where its raw bytes start in the row. */
typedef struct cliCell {
	size_t text;
	size_t length;
	size_t rawStart;
} cliCell;

struct cliReader {
	FILE* stream;
	int fd;             /* read(2) from here when >= 0 (fread from stream otherwise) */
	bool pollable;      /* fd is a pipe, socket or terminal: reads may wait */
	cliKeepWaitingFcn* keepWaiting;
	void* keepWaitingContext;
	char* name;
	cliInputFormat format;
	cliReadState state;

	/* Unread input is buffer[start .. length); capacity has one spare byte
	 * after it for a sentinel. */
	char* buffer;
	size_t capacity;
	size_t start;
	size_t length;
	bool eof;

	/* Position of buffer[start]. */
	long line;
	long column;

	long index;         /* records returned so far */
	bool needSeparator; /* NDJSON: whitespace must follow the last value */
	bcError error;      /* the error returned once state is cli_readFailed */

	/* CSV */
	int headerCount;
	int* columnKinds;   /* per header cell: a cliColumn, or -1 when ignored */
	int columnOf[cli_columnCount]; /* header cell of each known column, or -1 */
	cliCell* cells;
	int cellCount;
	int cellCapacity;
	char* scratch;
	size_t scratchCapacity;

	/* cliReader_Next: deferred objects are parsed at once with these */
	cliRecordText text;
	cliParser* parser;
};

/* ------------------------------------------------------------- helpers */

static bool isSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A byte below 0x20 that is not JSON white space: allowed nowhere in JSON,
 * not even inside strings, yet skipped as white space by cJSON. */
static bool isControlByte(char c)
{
	return (unsigned char)c < 0x20 && !isSpace(c);
}

static bool isDigit(char c)
{
	return c >= '0' && c <= '9';
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

static char* copyText(const char* s, size_t n)
{
	char* copy = malloc(n + 1);
	if (copy != NULL) {
		memcpy(copy, s, n);
		copy[n] = '\0';
	}
	return copy;
}

/* Keep the first error of a record only. */
CLI_PRINTF(2, 3) static void recordError(cliRecord* record, const char* format, ...)
{
	if (record->error[0] != '\0') {
		return;
	}
	va_list args;
	va_start(args, format);
	vsnprintf(record->error, sizeof record->error, format, args);
	va_end(args);
}

/* Describe a byte for a message: 'x' or byte 0xNN. */
static void describeByte(unsigned char c, char* text, size_t size)
{
	if (c > 0x20 && c < 0x7f) {
		snprintf(text, size, "'%c'", c);
	} else {
		snprintf(text, size, "byte 0x%02X", (unsigned)c);
	}
}

/* ------------------------------------------------------ errors, input */

/* Fail for good: keep the error for later calls and copy it out. */
CLI_PRINTF(6, 7)
static int failAt(cliReader* reader, bcError* error, bcErrorCode code, long line, long column, const char* format,
				  ...)
{
	bcError* e = &reader->error;
	e->code = code;
	e->line = line;
	e->column = column;
	e->record = -1;
	va_list args;
	va_start(args, format);
	vsnprintf(e->message, sizeof e->message, format, args);
	va_end(args);
	reader->state = cli_readFailed;
	if (error != NULL) {
		*error = *e;
	}
	return -1;
}

/* Where a piece of text lies in the input: text[0] is at line:column. The
 * JSON value checks below report their errors relative to one, so that they
 * work the same on the reader's buffer and on a deferred record's copy. */
typedef struct cliSpot {
	const char* text;
	long line;
	long column;
} cliSpot;

/* Line and column of text[offset]. */
static void spotPosition(const cliSpot* spot, size_t offset, long* line, long* column)
{
	const char* p = spot->text;
	const char* end = p + offset;
	long l = spot->line;
	long c = spot->column;
	for (;;) {
		const char* newline = memchr(p, '\n', (size_t)(end - p));
		if (newline == NULL) {
			break;
		}
		l += 1;
		c = 1;
		p = newline + 1;
	}
	*line = l;
	*column = c + (long)(end - p);
}

/* A syntax error at text[offset] into *error; returns -1. */
CLI_PRINTF(4, 5) static int spotError(const cliSpot* spot, bcError* error, size_t offset, const char* format, ...)
{
	memset(error, 0, sizeof *error);
	error->code = bc_errorSyntax;
	error->record = -1;
	spotPosition(spot, offset, &error->line, &error->column);
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
	return -1;
}

static int spotNoMemory(bcError* error)
{
	memset(error, 0, sizeof *error);
	error->code = bc_errorNoMemory;
	error->record = -1;
	snprintf(error->message, sizeof error->message, "out of memory");
	return -1;
}

/* The unread input as a spot. */
static cliSpot readerSpot(const cliReader* reader)
{
	cliSpot spot = { reader->buffer + reader->start, reader->line, reader->column };
	return spot;
}

/* Line and column of the unread byte at offset from start. */
static void positionAt(const cliReader* reader, size_t offset, long* line, long* column)
{
	cliSpot spot = readerSpot(reader);
	spotPosition(&spot, offset, line, column);
}

/* Fail for good with the error e found by a spot check. */
static int failWith(cliReader* reader, bcError* error, const bcError* e)
{
	reader->error = *e;
	reader->error.record = -1;
	reader->state = cli_readFailed;
	if (error != NULL) {
		*error = reader->error;
	}
	return -1;
}

/* A syntax error at the unread byte at offset. */
CLI_PRINTF(4, 5) static int syntaxAt(cliReader* reader, bcError* error, size_t offset, const char* format, ...)
{
	long line, column;
	positionAt(reader, offset, &line, &column);
	char message[sizeof reader->error.message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	return failAt(reader, error, bc_errorSyntax, line, column, "%s", message);
}

static int outOfMemory(cliReader* reader, bcError* error)
{
	return failAt(reader, error, bc_errorNoMemory, 0, 0, "out of memory");
}

/* Consume count unread bytes, keeping line and column. */
static void advance(cliReader* reader, size_t count)
{
	positionAt(reader, count, &reader->line, &reader->column);
	reader->start += count;
}

/* Read more input after the unread bytes (moved to the front of the buffer,
 * which doubles when the unread bytes fill it). Returns 1 when bytes were
 * added, 0 at the end of the input, -1 on a read error or out of memory. */
static int fill(cliReader* reader, bcError* error)
{
	if (reader->eof) {
		return 0;
	}
	if (reader->start > 0) {
		memmove(reader->buffer, reader->buffer + reader->start, reader->length - reader->start);
		reader->length -= reader->start;
		reader->start = 0;
	}
	if (reader->length == reader->capacity) {
		size_t capacity = 2 * reader->capacity;
		char* buffer = realloc(reader->buffer, capacity + 1);
		if (buffer == NULL) {
			return outOfMemory(reader, error);
		}
		reader->buffer = buffer;
		reader->capacity = capacity;
	}
	size_t request = reader->capacity - reader->length;
	if (reader->fd < 0) {
		errno = 0;
		size_t count = fread(reader->buffer + reader->length, 1, request, reader->stream);
		reader->length += count;
		if (ferror(reader->stream)) {
			int code = errno;
			return failAt(reader, error, bc_errorIo, 0, 0, "read error: %s", code != 0 ? strerror(code) : "unknown");
		}
		/* fread stops short only at the end of the input */
		reader->eof = count < request || feof(reader->stream);
		return count > 0 ? 1 : 0;
	}
	/* read(2) returns what a pipe holds rather than waiting for a full
	 * buffer, so that a filter answers records as they come. */
	for (;;) {
		if (reader->pollable && reader->keepWaiting != NULL) {
			struct pollfd p = { reader->fd, POLLIN, 0 };
			int ready = poll(&p, 1, CLI_POLL_INTERVAL_MS);
			if (ready == 0 || (ready < 0 && errno == EINTR)) {
				if (!reader->keepWaiting(reader->keepWaitingContext)) {
					return failAt(reader, error, bc_errorIo, 0, 0, "read error: %s", strerror(ECANCELED));
				}
				continue;
			}
		}
		ssize_t count = read(reader->fd, reader->buffer + reader->length, request);
		if (count < 0 && errno == EINTR) {
			continue;
		}
		if (count < 0) {
			int code = errno;
			return failAt(reader, error, bc_errorIo, 0, 0, "read error: %s", strerror(code));
		}
		reader->length += (size_t)count;
		reader->eof = count == 0;
		return count > 0 ? 1 : 0;
	}
}

/* Skip whitespace. Returns 1 when an unread byte follows, 0 at the end of
 * the input, -1 on error. */
static int skipSpace(cliReader* reader, bcError* error)
{
	for (;;) {
		size_t i = reader->start;
		while (i < reader->length && isSpace(reader->buffer[i])) {
			i++;
		}
		advance(reader, i - reader->start);
		if (reader->start < reader->length) {
			return 1;
		}
		int status = fill(reader, error);
		if (status <= 0) {
			return status;
		}
	}
}

/* -------------------------------------------------------- JSON values */

typedef enum cliScanResult {
	cli_scanComplete,   /* length is the value's length */
	cli_scanIncomplete, /* the bytes end inside the value */
	cli_scanStopped     /* length runs to a byte cJSON will reject */
} cliScanResult;

typedef struct cliScan {
	size_t length;
	size_t openQuote; /* incomplete: offset of an unterminated string's quote, or SIZE_MAX */
	size_t badNumber; /* offset of the first number that is not JSON, or SIZE_MAX */
	size_t badByte;   /* offset of the control byte that stopped the scan (= length), or SIZE_MAX */
	bool tooDeep;     /* stopped at a bracket beyond cJSON's nesting limit */
} cliScan;

/* Bytes that end a number or literal. */
static bool endsScalar(char c)
{
	return isSpace(c) || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '"' || c == ':' ||
		   isControlByte(c);
}

/* Is the token at s[0 ..) NaN or Infinity, in any case, signed or not (the
 * usual ways non-finite numbers leak into JSON)? */
static bool isNonNumber(const char* s, size_t n)
{
	static const char* const names[] = { "nan", "inf", "infinity" };
	size_t i = n > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
	size_t end = i;
	while (end < n && !endsScalar(s[end])) {
		end++;
	}
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t length = strlen(names[k]);
		bool same = end - i == length;
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

/* Bytes cJSON reads as part of a number. */
static bool isNumberByte(char c)
{
	return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Walk the scalar token (number or literal) at s[at] to its end, the
 * first byte that ends a scalar, and return that. A token that starts like
 * a number (a digit, a sign or a point) but breaks JSON's grammar, whatever
 * cJSON's strtod makes of it (01, 1., -.5, 1e), is noted in scan->badNumber
 * unless it spells NaN or Infinity (which get their own message). A token
 * running to s[n] is judged only when atEnd says nothing can follow it. One
 * pass: the number's bytes are walked by the grammar itself. */
static size_t scanScalar(const char* s, size_t n, size_t at, bool atEnd, cliScan* scan)
{
	char c = s[at];
	bool number = isDigit(c) || c == '-' || c == '+' || c == '.';
	size_t valid = number ? at + cliJsonNumberPrefix(s + at, n - at) : at;
	size_t i = number ? valid : at + 1;
	while (i < n && !endsScalar(s[i])) {
		i++;
	}
	if (number && scan->badNumber == SIZE_MAX && (i < n || atEnd) &&
		(valid == at || (valid < i && isNumberByte(s[valid]))) && !isNonNumber(s + at, i - at)) {
		scan->badNumber = at;
	}
	return i;
}

/* Stop the scan at the control byte s[at]: the value is taken to end just
 * before it (cJSON, which skips the byte as white space, then fails at it). */
static cliScanResult stopAtControl(size_t at, cliScan* scan)
{
	scan->length = at;
	scan->badByte = at;
	return cli_scanStopped;
}

/* Find the end of the JSON value starting at s[0] (not whitespace) within
 * s[0 .. n). Strings and brackets are followed, and every scalar token is
 * walked over whole so that numbers breaking JSON's grammar are noted in
 * scan->badNumber (inside a container, not one cut off by the end of the
 * bytes); cJSON checks the rest. The first control byte, in a string or
 * out, stops the scan (scan->badByte). eof says no bytes follow s[n - 1]. */
static cliScanResult scanValue(const char* s, size_t n, bool eof, cliScan* scan)
{
	scan->length = 0;
	scan->openQuote = SIZE_MAX;
	scan->badNumber = SIZE_MAX;
	scan->badByte = SIZE_MAX;
	scan->tooDeep = false;
	if (isControlByte(s[0])) {
		return stopAtControl(0, scan);
	}
	if (s[0] != '{' && s[0] != '[' && s[0] != '"') {
		size_t i = scanScalar(s, n, 0, eof, scan);
		if (i == n && !eof) {
			return cli_scanIncomplete;
		}
		scan->length = i;
		return cli_scanComplete;
	}

	char stack[CJSON_NESTING_LIMIT];
	size_t depth = 0;
	size_t i = 0;
	while (i < n) {
		char c = s[i];
		if (c == '"') {
			size_t quote = i++;
			for (;;) {
				if (i >= n) {
					scan->openQuote = quote;
					return cli_scanIncomplete;
				}
				if (isControlByte(s[i])) {
					return stopAtControl(i, scan);
				}
				if (s[i] == '\\') {
					/* i += 2 skips the escaped byte: check it here */
					if (i + 1 < n && isControlByte(s[i + 1])) {
						return stopAtControl(i + 1, scan);
					}
					i += 2;
				} else if (s[i++] == '"') {
					break;
				}
			}
			if (depth == 0) {
				scan->length = i;
				return cli_scanComplete;
			}
			continue;
		}
		if (c == '{' || c == '[') {
			if (depth == CJSON_NESTING_LIMIT) {
				scan->length = i + 1;
				scan->tooDeep = true;
				return cli_scanStopped;
			}
			stack[depth++] = c;
		} else if (c == '}' || c == ']') {
			if (stack[depth - 1] != (c == '}' ? '{' : '[')) {
				scan->length = i + 1;
				return cli_scanStopped;
			}
			if (--depth == 0) {
				scan->length = i + 1;
				return cli_scanComplete;
			}
		} else if (isControlByte(c)) {
			return stopAtControl(i, scan);
		} else if (!isSpace(c) && c != ',' && c != ':') {
			i = scanScalar(s, n, i, false, scan);
			continue;
		}
		i++;
	}
	return cli_scanIncomplete;
}

/* Where s[at] lies, walking from s[0]: outside strings (quotes included),
 * inside a string, or just after a backslash inside a string. */
typedef enum cliStringState {
	cli_stringOutside,
	cli_stringInside,
	cli_stringEscaped
} cliStringState;

static cliStringState stringState(const char* s, size_t at)
{
	bool inString = false;
	size_t i = 0;
	for (; i < at; i++) {
		if (inString) {
			if (s[i] == '\\') {
				i++;
			} else if (s[i] == '"') {
				inString = false;
			}
		} else if (s[i] == '"') {
			inString = true;
		}
	}
	if (i > at) {
		return cli_stringEscaped;
	}
	return inString ? cli_stringInside : cli_stringOutside;
}

/* Does the quote at s[q] open a string (rather than close one)? */
static bool opensString(const char* s, size_t q)
{
	return s[q] == '"' && stringState(s, q) == cli_stringOutside;
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
	switch (s[i + 1]) {
	case '"':
	case '\\':
	case '/':
	case 'b':
	case 'f':
	case 'n':
	case 'r':
	case 't':
		return 2;
	case 'u': {
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
	default:
		return 0;
	}
}

/* Walk the string content starting at s[i]: the offset of its first bad
 * escape, SIZE_MAX when it is well formed, or n when it never ends. */
static size_t badEscape(const char* s, size_t n, size_t i)
{
	while (i < n) {
		if (s[i] == '"') {
			return SIZE_MAX;
		}
		if (s[i] != '\\') {
			i++;
			continue;
		}
		if (i + 1 >= n) {
			return n;
		}
		size_t length = escapeLength(s, n, i);
		if (length == 0) {
			return i;
		}
		i += length;
	}
	return n;
}

/* The first bad escape in a value cJSON has accepted (cJSON 1.7 reads
 * "\u12G4" as U+0000), or SIZE_MAX. Backslashes occur only in its strings. */
static size_t acceptedBadEscape(const char* s, size_t n)
{
	const char* p = s;
	for (;;) {
		const char* backslash = memchr(p, '\\', n - (size_t)(p - s));
		if (backslash == NULL) {
			return SIZE_MAX;
		}
		size_t i = (size_t)(backslash - s);
		size_t length = escapeLength(s, n, i);
		if (length == 0) {
			return i;
		}
		p = backslash + length;
	}
}

/* A syntax error for the number that is not JSON at offset at of the value
 * s[0 .. n) (scan->badNumber). */
static int invalidNumber(const cliSpot* spot, bcError* error, size_t at, size_t n)
{
	const char* s = spot->text + at;
	size_t length = 1;
	while (length < n - at && isNumberByte(s[length])) {
		length++;
	}
	int shown = length > CLI_QUOTE_MAX ? CLI_QUOTE_MAX : (int)length;
	return spotError(spot, error, at, "invalid JSON number '%.*s'", shown, s);
}

/* Is s[at] (outside strings) where an object key belongs: after the '{' or
 * a ',' of an object, whitespace aside? */
static bool expectsKey(const char* s, size_t at)
{
	char stack[CJSON_NESTING_LIMIT + 1];
	size_t depth = 0;
	char last = '\0'; /* the last byte outside strings and whitespace */
	bool inString = false;
	for (size_t i = 0; i < at; i++) {
		char c = s[i];
		if (inString) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				inString = false;
				last = c;
			}
			continue;
		}
		if (c == '"') {
			inString = true;
		} else if (c == '{' || c == '[') {
			if (depth == sizeof stack) {
				return false;
			}
			stack[depth++] = c;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth--;
		}
		if (!isSpace(c)) {
			last = c;
		}
	}
	return !inString && depth > 0 && stack[depth - 1] == '{' && (last == '{' || last == ',');
}

/* A syntax error for the byte at offset: "invalid JSON: unexpected 'x'" or
 * "... unexpected byte 0x01". */
static int unexpectedByte(const cliSpot* spot, bcError* error, size_t offset)
{
	char what[16];
	describeByte((unsigned char)spot->text[offset], what, sizeof what);
	return spotError(spot, error, offset, "invalid JSON: unexpected %s", what);
}

/* unexpectedByte at the unread byte at offset, failing the reader. */
static int unexpectedInput(cliReader* reader, bcError* error, size_t offset)
{
	cliSpot spot = readerSpot(reader);
	bcError e;
	unexpectedByte(&spot, &e, offset);
	return failWith(reader, error, &e);
}

/* Turn a cJSON failure at offset at of the value s[0 .. n) into a message.
 * cut: the value was cut off (by the end of the input when atEnd, else by
 * CLI_MAX_RECORD_BYTES); openQuote: the scanner's unterminated string;
 * badNumber: the scanner's first number that is not JSON, reported when it
 * comes no later than the failure; badByte: the control byte that ends the
 * value (n), reported where the value would be cut off. */
static int jsonError(const cliSpot* spot, bcError* error, size_t at, size_t n, const cliScan* scan, bool cut,
					 bool atEnd)
{
	const char* s = spot->text;
	/* A key that is not a string: cJSON reports the byte after it (the key
	 * is never blank, as cJSON skips whitespace before it). */
	bool key = at > 0 && at - 1 < n && !isSpace(s[at - 1]) && s[at - 1] != '"' && expectsKey(s, at - 1);
	if (key) {
		at--;
	}
	if (scan->badNumber != SIZE_MAX && scan->badNumber <= at) {
		return invalidNumber(spot, error, scan->badNumber, n);
	}
	if (scan->tooDeep && at + 1 >= scan->length) {
		return spotError(spot, error, scan->length - 1, "nesting deeper than %d levels", CJSON_NESTING_LIMIT);
	}
	bool inOpenString = scan->openQuote != SIZE_MAX && at == scan->openQuote + 1;
	if (cut && !atEnd && (at + CLI_CUT_MARGIN >= n || inOpenString)) {
		return spotError(spot, error, 0, "record longer than %zu bytes (a missing '}', ']' or '\"'?)",
						CLI_MAX_RECORD_BYTES);
	}
	if (at < n && s[at] == '\\' && stringState(s, at) == cli_stringInside) {
		return spotError(spot, error, at, "invalid escape sequence in a string");
	}
	if (at > 0 && at <= n && opensString(s, at - 1)) {
		size_t bad = badEscape(s, n, at);
		if (bad == n && scan->badByte == n) {
			return unexpectedByte(spot, error, n);
		}
		if (bad == n) {
			return spotError(spot, error, at - 1, "unterminated string");
		}
		if (bad != SIZE_MAX) {
			return spotError(spot, error, bad, "invalid escape sequence in a string");
		}
	}
	if (at >= n) {
		if (scan->badByte == n) {
			return unexpectedByte(spot, error, n);
		}
		return spotError(spot, error, n, "unexpected end of input inside a JSON value");
	}
	if (!key && isNonNumber(s + at, n - at)) {
		return spotError(spot, error, at, "NaN and Infinity are not JSON numbers");
	}
	return unexpectedByte(spot, error, at);
}

/* Parse the value spot->text[0 .. n) that the scanner delimited (scan):
 * cJSON reads parseLength bytes from parsed, which is spot->text itself or a
 * copy of it with the same bytes but for numbers (see cliRecord_Parse). cut:
 * the value was cut off, by the end of the input when atEnd. On success
 * *item is the value and *length its length; on error *error says what and
 * where. Returns 1 or -1. */
static int parseScanned(const cliSpot* spot, const char* parsed, size_t n, size_t parseLength, const cliScan* scan,
						bool cut, bool atEnd, cJSON** item, size_t* length, bcError* error)
{
	const char* end = NULL;
	cJSON* value = cJSON_ParseWithLengthOpts(parsed, parseLength, &end, 0);
	if (value != NULL && !cut && scan->badByte == SIZE_MAX) {
		*length = (size_t)(end - parsed);
		size_t bad = acceptedBadEscape(spot->text, *length);
		if (scan->badNumber < bad) {
			cJSON_Delete(value);
			return invalidNumber(spot, error, scan->badNumber, n);
		}
		if (bad != SIZE_MAX) {
			cJSON_Delete(value);
			return spotError(spot, error, bad, "invalid escape sequence in a string");
		}
		*item = value;
		return 1;
	}
	cJSON_Delete(value);
	size_t at = end != NULL ? (size_t)(end - parsed) : 0;
	return jsonError(spot, error, at, n, scan, cut, atEnd);
}

/* Parse the JSON value at the unread input (which starts with a non-blank
 * byte) into *item, reading more input as needed. *length gets the value's
 * length in bytes. Returns 1, or -1 on error. */
static int parseValue(cliReader* reader, bcError* error, cJSON** item, size_t* length)
{
	cliScan scan;
	cliScanResult result;
	bool cut = false;
	for (;;) {
		size_t available = reader->length - reader->start;
		result = scanValue(reader->buffer + reader->start, available, reader->eof, &scan);
		if (result != cli_scanIncomplete) {
			break;
		}
		if (reader->eof || available >= CLI_MAX_RECORD_BYTES) {
			cut = true;
			break;
		}
		if (fill(reader, error) < 0) {
			return -1;
		}
	}

	char* s = reader->buffer + reader->start;
	size_t n = cut ? reader->length - reader->start : scan.length;
	size_t parseLength = n;
	if (cut && reader->eof) {
		/* A byte no JSON value can continue with: a value cut by the end
		 * of the input then fails at the end, not at its last byte. */
		s[n] = '\x01';
		parseLength = n + 1;
	} else if (scan.badByte != SIZE_MAX) {
		/* The control byte that stopped the scan is such a byte already:
		 * cJSON fails at it unless it fails earlier. */
		parseLength = n + 1;
	}
	cliSpot spot = readerSpot(reader);
	bcError e;
	if (parseScanned(&spot, s, n, parseLength, &scan, cut, reader->eof, item, length, &e) < 0) {
		return failWith(reader, error, &e);
	}
	return 1;
}

/* Skip the JSON string, container or scalar at s[i] of a value cJSON has
 * accepted; returns the offset after it. */
static size_t skipJson(const char* s, size_t n, size_t i)
{
	long depth = 0;
	bool inString = false;
	if (i < n && s[i] != '"' && s[i] != '{' && s[i] != '[') {
		while (i < n && !endsScalar(s[i])) {
			i++;
		}
		return i;
	}
	for (; i < n; i++) {
		char c = s[i];
		if (inString) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				inString = false;
				if (depth == 0) {
					return i + 1;
				}
			}
		} else if (c == '"') {
			inString = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && --depth == 0) {
			return i + 1;
		}
	}
	return n;
}

static size_t skipBlank(const char* s, size_t n, size_t i)
{
	while (i < n && isSpace(s[i])) {
		i++;
	}
	return i;
}

/* Does the raw key s[0 .. n) (escapes not decoded) spell name? An escaped
 * NUL ends the key, as it does for cJSON's C strings. */
static bool keyIs(const char* s, size_t n, const char* name)
{
	size_t i = 0;
	for (;;) {
		long c;
		if (i >= n) {
			c = 0;
		} else if (s[i] != '\\') {
			c = (unsigned char)s[i++];
		} else if (i + 1 < n && s[i + 1] == 'u') {
			c = unicodeEscape(s, n, i);
			i += 6;
		} else if (i + 1 < n) {
			const char* from = "\"\\/bfnrt";
			const char* to = "\"\\/\b\f\n\r\t";
			const char* k = memchr(from, s[i + 1], 8);
			c = k != NULL ? to[k - from] : -1;
			i += 2;
		} else {
			return false;
		}
		if (c != (unsigned char)*name) {
			return false;
		}
		if (c == 0) {
			return true;
		}
		name++;
	}
}

/* Find the raw text of the value of the first top-level key "id" in the
 * object s[0 .. n) cJSON has accepted. */
static bool findIdText(const char* s, size_t n, size_t* begin, size_t* end)
{
	size_t i = 1;
	for (;;) {
		i = skipBlank(s, n, i);
		if (i >= n || s[i] != '"') {
			return false;
		}
		size_t keyStart = i + 1;
		i = skipJson(s, n, i);
		bool isId = keyIs(s + keyStart, i - 1 - keyStart, "id");
		i = skipBlank(s, n, i);
		if (i >= n || s[i] != ':') {
			return false;
		}
		i = skipBlank(s, n, i + 1);
		size_t valueStart = i;
		i = skipJson(s, n, i);
		if (isId) {
			*begin = valueStart;
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

/* The raw members of an object cJSON has accepted (text s[0 .. n), its '{'
 * first), walked in document order, the order of cJSON's member list. */
typedef struct cliRawMembers {
	const char* s;
	size_t n, i;
} cliRawMembers;

/* Does the next member's raw key hold an escaped NUL? cJSON's C string for
 * it ends there, so "p\u00000" would read as "p": such a key names no field.
 * Moves past the member. */
static bool rawKeyHasNul(cliRawMembers* m)
{
	size_t i = skipBlank(m->s, m->n, m->i);
	if (i >= m->n || m->s[i] != '"') {
		m->i = m->n;
		return false;
	}
	size_t keyStart = i + 1;
	i = skipJson(m->s, m->n, i);
	bool nul = false;
	for (size_t k = keyStart; k + 6 <= i - 1; ++k) {
		if (m->s[k] == '\\') {
			nul = nul || memcmp(m->s + k + 1, "u0000", 5) == 0;
			k++;
		}
	}
	i = skipBlank(m->s, m->n, i);
	i = i < m->n && m->s[i] == ':' ? skipBlank(m->s, m->n, i + 1) : i;
	i = skipBlank(m->s, m->n, skipJson(m->s, m->n, i));
	m->i = i < m->n && m->s[i] == ',' ? i + 1 : i;
	return nul;
}

/* Has the object item (raw text spot->text[0 .. length)) a member named
 * key, not counting keys cut short by an escaped NUL? escapes: the raw text
 * holds a backslash (else cJSON's lookup is exact). */
static bool hasMember(const cliSpot* spot, size_t length, const cJSON* item, bool escapes, const char* key)
{
	if (!escapes) {
		return cJSON_GetObjectItemCaseSensitive(item, key) != NULL;
	}
	cliRawMembers raw = { spot->text, length, 1 };
	for (const cJSON* member = item->child; member != NULL; member = member->next) {
		if (!rawKeyHasNul(&raw) && strcmp(member->string, key) == 0) {
			return true;
		}
	}
	return false;
}

/* The record's id from the "id" member. Returns 1, or -1 on error. */
static int jsonId(const cliSpot* spot, bcError* error, const cJSON* member, size_t length, cliRecord* record)
{
	if (cJSON_IsString(member)) {
		/* cJSON decodes \u0000 into a NUL that would cut the id short. */
		const char* raw = spot->text;
		size_t begin, end;
		if (findIdText(raw, length, &begin, &end)) {
			for (size_t i = begin; i + 6 <= end; ++i) {
				if (raw[i] == '\\' && memcmp(raw + i + 1, "u0000", 5) == 0) {
					recordError(record, "id: contains \\u0000, which cannot be echoed");
					return 1;
				}
				i += raw[i] == '\\';
			}
		}
		record->id = copyText(member->valuestring, strlen(member->valuestring));
		if (record->id == NULL) {
			return spotNoMemory(error);
		}
		record->idKind = cli_idString;
		return 1;
	}
	if (!cJSON_IsNumber(member)) {
		recordError(record, "id: expected a string or a number");
		return 1;
	}
	const char* s = spot->text;
	size_t begin, end;
	if (!findIdText(s, length, &begin, &end)) {
		/* cannot happen for a value cJSON accepted */
		return spotError(spot, error, 0, "cannot locate the id in the record");
	}
	/* parseValue has rejected numbers that are not JSON (01, 1., -.5) */
	record->id = copyText(s + begin, end - begin);
	if (record->id == NULL) {
		return spotNoMemory(error);
	}
	record->idKind = cli_idNumber;
	return 1;
}

/* A finite number from member; false (with a record error) otherwise. */
static bool jsonNumber(const cJSON* member, const char* key, cliRecord* record, double* value)
{
	if (!cJSON_IsNumber(member)) {
		recordError(record, "%s: expected a number", key);
		return false;
	}
	if (!isfinite(member->valuedouble)) {
		recordError(record, "%s: not a finite number", key);
		return false;
	}
	*value = member->valuedouble;
	return true;
}

static bool jsonVector(const cJSON* member, const char* key, cliRecord* record, bcVec3* vector)
{
	double xyz[3];
	int count = 0;
	const cJSON* element = cJSON_IsArray(member) ? member->child : NULL;
	for (; element != NULL && count <= 3; element = element->next, count++) {
		if (count == 3 || !cJSON_IsNumber(element)) {
			count = -1;
			break;
		}
		xyz[count] = element->valuedouble;
	}
	if (count != 3) {
		recordError(record, "%s: expected an array of 3 numbers", key);
		return false;
	}
	if (!isfinite(xyz[0]) || !isfinite(xyz[1]) || !isfinite(xyz[2])) {
		recordError(record, "%s: not a finite number", key);
		return false;
	}
	vector->x = xyz[0];
	vector->y = xyz[1];
	vector->z = xyz[2];
	return true;
}

/* Fill record from the parsed value item (its source is the unread input,
 * length bytes). Members are read in document order; a repeated key counts
 * once (the first, as cJSON's lookups do). Returns 1, or -1 on error. */
static int jsonRecord(const cliSpot* spot, bcError* error, const cJSON* item, size_t length, cliRecord* record)
{
	if (!cJSON_IsObject(item)) {
		recordError(record, "record is not a JSON object");
		return 1;
	}
	unsigned seen = 0; /* bit k: memberKeys[k] was read */
	/* Only a backslash can spell a NUL in a key: walk the raw keys then. */
	bool escapes = memchr(spot->text, '\\', length) != NULL;
	cliRawMembers raw = { spot->text, length, 1 };
	for (const cJSON* member = item->child; member != NULL; member = member->next) {
		if (escapes && rawKeyHasNul(&raw)) {
			continue;
		}
		const char* key = member->string;
		int slot = 0;
		while (slot < cli_memberCount && (key[0] != memberKeys[slot][0] || strcmp(key, memberKeys[slot]) != 0)) {
			slot++;
		}
		if (slot == cli_memberCount || (seen & (1u << (unsigned)slot)) != 0 ||
			(slot == cli_memberRadius && hasMember(spot, length, item, escapes, "r"))) {
			continue;
		}
		seen |= 1u << (unsigned)slot;
		double value = 0.0;
		if (slot < 4) {
			const cliVectorField* f = vectorFields + slot;
			if (jsonVector(member, key, record, recordVector(record, slot))) {
				record->fields |= f->field;
			}
		} else if (slot == cli_memberId) {
			if (jsonId(spot, error, member, length, record) < 0) {
				return -1;
			}
		} else if (slot == cli_memberMass) {
			if (jsonNumber(member, key, record, &value)) {
				if (value <= 0.0) {
					recordError(record, "mass: must be positive");
				} else {
					record->mass = value;
					record->fields |= cli_fieldMass;
				}
			}
		} else if (jsonNumber(member, key, record, &value)) {
			if (value < 0.0) {
				recordError(record, "%s: must not be negative", key);
			} else {
				record->radius = value;
				record->fields |= cli_fieldRadius;
			}
		}
	}
	return 1;
}

/* Read the JSON value at the unread input as the next record. */
static int jsonNext(cliReader* reader, bcError* error, cliRecord* record)
{
	cJSON* item = NULL;
	size_t length = 0;
	if (parseValue(reader, error, &item, &length) < 0) {
		return -1;
	}
	record->index = reader->index;
	record->line = reader->line;
	record->column = reader->column;
	cliSpot spot = readerSpot(reader);
	bcError e;
	int status = jsonRecord(&spot, &e, item, length, record);
	cJSON_Delete(item);
	if (status < 0) {
		cliRecord_Free(record);
		return failWith(reader, error, &e);
	}
	advance(reader, length);
	reader->index += 1;
	return 1;
}

/* ------------------------------------------------- deferred JSON objects
 *
 * cliReader_NextDeferred only delimits a JSON object (scanObject: strings
 * and brackets, one pass) and copies its bytes; cliRecord_Parse, on any
 * thread, does the rest exactly as jsonNext does: the same scan for numbers
 * that are not JSON, cJSON, the same checks and messages. Two things make it
 * cheaper. cJSON's nodes come from a per-thread arena (cJSON's allocation
 * hooks) instead of malloc and free. And numbers are not left to cJSON's
 * strtod: each whole JSON number of 4 to 63 bytes that cliParseDecimal
 * converts exactly is replaced, in the copy cJSON reads, by "null" padded
 * with blanks to the same length; after the parse the null nodes take the
 * numbers back. cJSON reads a literal or a number the same way (a value,
 * then blanks skipped), the copy has the same length and the same bytes
 * elsewhere, so it fails or succeeds at the same offsets as the original
 * text, which is what every message quotes. */

/* What to do with a scalar node of the parsed copy, in document order. */
typedef enum cliTokenKind {
	cli_tokenAsParsed = 0, /* cJSON's own value stands */
	cli_tokenNumber        /* a "null" placeholder for value */
} cliTokenKind;

typedef struct cliToken {
	cliTokenKind kind;
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

struct cliParser {
	char* copy;
	size_t copyCapacity;
	cliToken* tokens;
	size_t tokenCount;
	size_t tokenCapacity;
	cliArena arena;
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

cliParser* cliParser_Create(void)
{
	/* cJSON allows its hooks to be set before threads use it; they fall back
	 * to malloc and free whenever no arena is active, so every other use of
	 * cJSON in the process is unaffected. */
	static bool hooked = false;
	if (!hooked) {
		cJSON_Hooks hooks = { arenaAllocate, arenaRelease };
		cJSON_InitHooks(&hooks);
		hooked = true;
	}
	cliParser* parser = calloc(1, sizeof *parser);
	if (parser == NULL) {
		return NULL;
	}
	parser->arena.base = malloc(CLI_ARENA_SIZE);
	if (parser->arena.base == NULL) {
		free(parser);
		return NULL;
	}
	parser->arena.capacity = CLI_ARENA_SIZE;
	return parser;
}

void cliParser_Destroy(cliParser* parser)
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

void cliRecordText_Clear(cliRecordText* text)
{
	text->length = 0;
}

void cliRecordText_Free(cliRecordText* text)
{
	free(text->data);
	text->data = NULL;
	text->length = 0;
	text->capacity = 0;
}

static bool appendText(cliRecordText* text, const char* s, size_t n)
{
	if (text->capacity - text->length < n) {
		size_t capacity = text->capacity > 0 ? text->capacity : CLI_READ_CHUNK;
		while (capacity - text->length < n) {
			capacity *= 2;
		}
		char* data = realloc(text->data, capacity);
		if (data == NULL) {
			return false;
		}
		text->data = data;
		text->capacity = capacity;
	}
	memcpy(text->data + text->length, s, n);
	text->length += n;
	return true;
}

/* The JSON number token at s[0 ..) inside a value (something follows it
 * in s[0 .. n)), converted: its length when the whole token (up to a byte
 * that ends scalars) is a JSON number that bcParseDecimal converts, else 0
 * (then scanScalar and cJSON see to it). */
static size_t numberToken(const char* s, size_t n, double* value)
{
	size_t length = cliJsonNumberPrefix(s, n);
	const char* p = s;
	if (length == 0 || length >= n || !endsScalar(s[length]) || !bcParseDecimal(&p, s + length, value) ||
		p != s + length) {
		return 0;
	}
	return length;
}

/* Byte classes for scanObject. */
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

/* Skip from s[i] past bytes that cannot matter to scanObject: outside a
 * string anything but brackets, quotes and bytes below 0x20; inside one
 * anything but quotes, backslashes and bytes below 0x20. Sixteen bytes at a
 * time with SSE2, eight with plain 64-bit arithmetic on other
 * little-endian machines; scanObject's own loop does the rest. */
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

/* Delimit the object at s[0] (a '{') within s[0 .. n): complete (with
 * *length) exactly when scanValue would call it complete with that length;
 * incomplete when the bytes end inside it; stopped for anything scanValue
 * would stop at (a control byte, a mismatched bracket, nesting too deep). */
static cliScanResult scanObject(const char* s, size_t n, size_t* length)
{
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
					return cli_scanStopped;
				}
				if (k == cli_byteBackslash) {
					if (i + 1 < n && byteClasses[(unsigned char)s[i + 1]] == cli_byteControl) {
						return cli_scanStopped;
					}
					i += 2;
				} else if (s[i++] == '"') {
					break;
				}
			}
			continue;
		case cli_byteOpen:
			if (depth == CJSON_NESTING_LIMIT) {
				return cli_scanStopped;
			}
			stack[depth++] = (char)c;
			break;
		case cli_byteClose:
			if (stack[depth - 1] != (c == '}' ? '{' : '[')) {
				return cli_scanStopped;
			}
			if (--depth == 0) {
				*length = i + 1;
				return cli_scanComplete;
			}
			break;
		case cli_byteControl:
			return cli_scanStopped;
		default:
			break;
		}
		i++;
	}
}

/* The JSON value at the unread input (non-blank) as the next record: an
 * object that scanObject delimits is deferred (its bytes appended to text),
 * anything else goes through jsonNext. */
static int jsonTake(cliReader* reader, bcError* error, cliRecord* record, cliRecordText* text)
{
	if (reader->buffer[reader->start] != '{') {
		return jsonNext(reader, error, record);
	}
	size_t length = 0;
	for (;;) {
		size_t available = reader->length - reader->start;
		cliScanResult result = scanObject(reader->buffer + reader->start, available, &length);
		if (result == cli_scanComplete) {
			break;
		}
		if (result == cli_scanStopped || reader->eof || available >= CLI_MAX_RECORD_BYTES) {
			return jsonNext(reader, error, record);
		}
		if (fill(reader, error) < 0) {
			return -1;
		}
	}
	size_t offset = text->length;
	if (!appendText(text, reader->buffer + reader->start, length)) {
		return outOfMemory(reader, error);
	}
	record->index = reader->index;
	record->line = reader->line;
	record->column = reader->column;
	record->deferredOffset = offset;
	record->deferredLength = length;
	advance(reader, length);
	reader->index += 1;
	return 1;
}

/* Walk the object s[0 .. n) (delimited by scanObject) as scanValue does,
 * noting the first number that is not JSON in scan->badNumber, and list
 * its scalar tokens in document order in parser->tokens; copy is s with the
 * numbers cliParseDecimal converts replaced by "null" placeholders. Returns
 * false on out of memory. */
static bool prepareCopy(cliParser* parser, const char* s, size_t n, char* copy, cliScan* scan)
{
	scan->length = n;
	scan->openQuote = SIZE_MAX;
	scan->badNumber = SIZE_MAX;
	scan->badByte = SIZE_MAX;
	scan->tooDeep = false;
	parser->tokenCount = 0;
	memcpy(copy, s, n);
	size_t i = 0;
	while (i < n) {
		char c = s[i];
		if (c == '"') {
			for (++i; i < n; ++i) {
				if (s[i] == '\\') {
					++i;
				} else if (s[i] == '"') {
					break;
				}
			}
			++i;
			continue;
		}
		/* as scanValue: whatever else starts a scalar token */
		if (isSpace(c) || c == ',' || c == ':' || c == '{' || c == '[' || c == '}' || c == ']') {
			++i;
			continue;
		}
		/* a JSON number needs no scanScalar: it is never a bad number */
		double value = 0.0;
		size_t converted = numberToken(s + i, n - i, &value);
		size_t end = converted > 0 ? i + converted : scanScalar(s, n, i, false, scan);
		if (parser->tokenCount == parser->tokenCapacity) {
			size_t capacity = parser->tokenCapacity > 0 ? 2 * parser->tokenCapacity : 64;
			cliToken* tokens = realloc(parser->tokens, capacity * sizeof *tokens);
			if (tokens == NULL) {
				return false;
			}
			parser->tokens = tokens;
			parser->tokenCapacity = capacity;
		}
		cliToken* token = parser->tokens + parser->tokenCount++;
		token->kind = cli_tokenAsParsed;
		size_t size = end - i;
		if (converted >= 4 && size <= CLI_CJSON_NUMBER_MAX) {
			token->value = value;
			token->kind = cli_tokenNumber;
			memcpy(copy + i, "null", 4);
			memset(copy + i + 4, ' ', size - 4);
		}
		i = end;
	}
	return true;
}

/* Give the placeholders of the parsed copy their numbers back: the scalar
 * nodes in document order are the tokens. Returns false if they do not
 * line up (never expected: the caller then parses the original text). */
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
		if (type != cJSON_False && type != cJSON_True && type != cJSON_NULL && type != cJSON_Number) {
			continue;
		}
		if (*next >= count) {
			return false;
		}
		const cliToken* token = tokens + (*next)++;
		if (token->kind == cli_tokenNumber) {
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

int cliRecord_Parse(cliRecord* record, const cliRecordText* text, cliParser* parser, bcError* error)
{
	if (record->deferredLength == 0) {
		return 1;
	}
	const char* s = text->data + record->deferredOffset;
	size_t n = record->deferredLength;
	record->deferredLength = 0;
	record->deferredOffset = 0;
	cliSpot spot = { s, record->line, record->column };
	if (parser->copyCapacity < n) {
		size_t capacity = n > CLI_READ_CHUNK ? n : CLI_READ_CHUNK;
		char* copy = realloc(parser->copy, capacity);
		if (copy == NULL) {
			cliRecord_Free(record);
			return spotNoMemory(error);
		}
		parser->copy = copy;
		parser->copyCapacity = capacity;
	}
	cliScan scan;
	if (!prepareCopy(parser, s, n, parser->copy, &scan)) {
		cliRecord_Free(record);
		return spotNoMemory(error);
	}
	const char* parsed = parser->copy;
	cJSON* item = NULL;
	size_t length = 0;
	int status;
	for (;;) {
		activeArena = &parser->arena;
		status = parseScanned(&spot, parsed, n, n, &scan, false, false, &item, &length, error);
		activeArena = NULL;
		size_t next = 0;
		if (status < 0 || parsed == s ||
			(restoreNumbers(item, parser->tokens, parser->tokenCount, &next) && next == parser->tokenCount)) {
			break;
		}
		arenaReset(&parser->arena);
		parsed = s;
	}
	if (status > 0) {
		status = jsonRecord(&spot, error, item, length, record);
	}
	arenaReset(&parser->arena);
	if (status < 0) {
		cliRecord_Free(record);
	}
	return status;
}

/* ---------------------------------------------------------------- CSV */

/* Make room for count cells. */
static bool reserveCells(cliReader* reader, int count)
{
	if (count <= reader->cellCapacity) {
		return true;
	}
	int capacity = reader->cellCapacity > 0 ? 2 * reader->cellCapacity : 16;
	while (capacity < count) {
		capacity *= 2;
	}
	cliCell* cells = realloc(reader->cells, (size_t)capacity * sizeof *cells);
	if (cells == NULL) {
		return false;
	}
	reader->cells = cells;
	reader->cellCapacity = capacity;
	return true;
}

static bool isCellSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

typedef enum cliRowResult {
	cli_rowComplete,
	cli_rowIncomplete,   /* the bytes end inside the row */
	cli_rowUnterminated, /* a quoted cell runs to the end of the input */
	cli_rowNul,          /* a NUL byte in a cell: it would cut the cell's text short */
	cli_rowNoMemory
} cliRowResult;

/* Decode the CSV row at the unread input into reader->cells (RFC 4180:
 * "..." cells with "" for a quote; unquoted cells lose surrounding blanks;
 * text after a closing quote is kept, blanks dropped). *length gets the row's
 * bytes with its line end; *quote the offset of an unterminated quote or of
 * a NUL byte (cells are handed on as C strings, so "0.5<NUL>junk" would
 * read as 0.5 and "a<NUL>b" as the id "a": refused instead). */
static cliRowResult scanRow(cliReader* reader, size_t* length, size_t* quote)
{
	const char* s = reader->buffer + reader->start;
	size_t n = reader->length - reader->start;
	bool eof = reader->eof;
	if (reader->scratchCapacity < 2 * n + 2) {
		char* scratch = realloc(reader->scratch, 2 * n + 2);
		if (scratch == NULL) {
			return cli_rowNoMemory;
		}
		reader->scratch = scratch;
		reader->scratchCapacity = 2 * n + 2;
	}
	char* out = reader->scratch;
	size_t o = 0;
	size_t i = 0;
	reader->cellCount = 0;
	for (;;) {
		if (!reserveCells(reader, reader->cellCount + 1)) {
			return cli_rowNoMemory;
		}
		cliCell* cell = reader->cells + reader->cellCount++;
		cell->rawStart = i;
		cell->text = o;
		while (i < n && (s[i] == ' ' || s[i] == '\t')) {
			i++;
		}
		if (i < n && s[i] == '"') {
			size_t open = i++;
			for (;;) {
				if (i >= n) {
					if (eof) {
						*quote = open;
						return cli_rowUnterminated;
					}
					return cli_rowIncomplete;
				}
				if (s[i] == '"') {
					if (i + 1 >= n && !eof) {
						return cli_rowIncomplete;
					}
					if (i + 1 < n && s[i + 1] == '"') {
						out[o++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (s[i] == '\0') {
					*quote = i;
					return cli_rowNul;
				}
				out[o++] = s[i++];
			}
			for (; i < n && s[i] != ',' && s[i] != '\n'; i++) {
				if (s[i] == '\0') {
					*quote = i;
					return cli_rowNul;
				}
				if (!isCellSpace(s[i])) {
					out[o++] = s[i];
				}
			}
		} else {
			for (; i < n && s[i] != ',' && s[i] != '\n'; i++) {
				if (s[i] == '\0') {
					*quote = i;
					return cli_rowNul;
				}
				out[o++] = s[i];
			}
			while (o > cell->text && isCellSpace(out[o - 1])) {
				o--;
			}
		}
		cell->length = o - cell->text;
		out[o++] = '\0';
		if (i >= n) {
			if (!eof) {
				return cli_rowIncomplete;
			}
			*length = i;
			return cli_rowComplete;
		}
		if (s[i++] == '\n') {
			*length = i;
			return cli_rowComplete;
		}
	}
}

/* Read the next non-blank row into reader->cells. Returns 1 with
 * *length, 0 at the end of the input, -1 on error. */
static int readRow(cliReader* reader, bcError* error, size_t* length)
{
	for (;;) {
		if (reader->start == reader->length) {
			int status = fill(reader, error);
			if (status <= 0) {
				return status;
			}
			continue;
		}
		size_t quote = 0;
		cliRowResult result = scanRow(reader, length, &quote);
		if (result == cli_rowNoMemory) {
			return outOfMemory(reader, error);
		}
		if (result == cli_rowUnterminated) {
			return syntaxAt(reader, error, quote, "unterminated quoted cell");
		}
		if (result == cli_rowNul) {
			return syntaxAt(reader, error, quote, "unexpected byte 0x00 in a CSV cell");
		}
		if (result == cli_rowIncomplete) {
			if (reader->length - reader->start >= CLI_MAX_RECORD_BYTES) {
				return syntaxAt(reader, error, 0, "CSV row longer than %zu bytes (an unclosed quote?)",
								CLI_MAX_RECORD_BYTES);
			}
			if (fill(reader, error) < 0) {
				return -1;
			}
			continue;
		}
		const char* s = reader->buffer + reader->start;
		bool blank = true;
		for (size_t i = 0; i < *length && blank; i++) {
			blank = isSpace(s[i]);
		}
		if (!blank) {
			return 1;
		}
		advance(reader, *length);
	}
}

static int columnKind(const char* name)
{
	for (int k = 0; k < cli_columnCount; k++) {
		if (strcmp(name, columnNames[k]) == 0) {
			return k;
		}
	}
	return -1;
}

/* Read the header row: which cell holds which known column. */
static int csvHeader(cliReader* reader, bcError* error)
{
	size_t length = 0;
	int status = readRow(reader, error, &length);
	if (status <= 0) {
		return status < 0 ? -1 : syntaxAt(reader, error, 0, "empty input: no records");
	}
	int count = reader->cellCount;
	reader->columnKinds = malloc((size_t)count * sizeof *reader->columnKinds);
	if (reader->columnKinds == NULL) {
		return outOfMemory(reader, error);
	}
	reader->headerCount = count;
	for (int k = 0; k < cli_columnCount; k++) {
		reader->columnOf[k] = -1;
	}
	for (int j = 0; j < count; j++) {
		const cliCell* cell = reader->cells + j;
		const char* name = reader->scratch + cell->text;
		int kind = columnKind(name);
		reader->columnKinds[j] = kind;
		if (kind < 0) {
			continue;
		}
		if (reader->columnOf[kind] >= 0) {
			size_t at = cell->rawStart;
			while (isCellSpace(reader->buffer[reader->start + at])) {
				at++;
			}
			return syntaxAt(reader, error, at, "duplicate column '%s' in the CSV header", name);
		}
		reader->columnOf[kind] = j;
	}

	/* A vector counts only when all three of its columns exist. */
	for (int k = 0; k < 4; k++) {
		cliColumn first = vectorFields[k].firstColumn;
		int* of = reader->columnOf + first;
		if (of[0] < 0 || of[1] < 0 || of[2] < 0) {
			for (int a = 0; a < 3; a++) {
				if (of[a] >= 0) {
					reader->columnKinds[of[a]] = -1;
					of[a] = -1;
				}
			}
		}
	}
	bool usable = false;
	for (int j = 0; j < count; j++) {
		usable = usable || reader->columnKinds[j] >= 0;
	}
	if (!usable) {
		return syntaxAt(reader, error, 0,
						"no known column in the CSV header (expected id, x0,y0,z0, x1,y1,z1, x,y,z, "
						"r or radius, mass, vx,vy,vz)");
	}
	advance(reader, length);
	return 1;
}

static bool blankCell(const char* text)
{
	while (isCellSpace(*text)) {
		text++;
	}
	return *text == '\0';
}

/* The number in a cell: strtod over the whole text, blanks around allowed.
 * Returns 1, 0 for an empty cell, -1 (with a record error) if malformed. */
static int cellNumber(const char* name, const char* text, cliRecord* record, double* value)
{
	if (blankCell(text)) {
		return 0;
	}
	const char* p = text;
	while (isCellSpace(*p)) {
		p++;
	}
	/* strtod's value without strtod when that is quick and exact */
	const char* last = p + strlen(p);
	while (last > p && isCellSpace(last[-1])) {
		last--;
	}
	double x = 0.0;
	const char* q = p;
	if (bcParseDecimal(&q, last, &x) && q == last) {
		*value = x;
		return 1;
	}
	char* end = NULL;
	x = strtod(p, &end);
	const char* rest = end;
	while (isCellSpace(*rest)) {
		rest++;
	}
	if (end == p || *rest != '\0') {
		recordError(record, "%s: expected a number, found '%.*s'", name, CLI_QUOTE_MAX, text);
		return -1;
	}
	if (!isfinite(x)) {
		recordError(record, "%s: not a finite number", name);
		return -1;
	}
	*value = x;
	return 1;
}

/* The record's id from the decoded cell j (none when it is empty).
 * Returns 1, or -1 on out of memory. */
static int csvId(cliReader* reader, bcError* error, int j, cliRecord* record)
{
	const cliCell* cell = reader->cells + j;
	const char* text = reader->scratch + cell->text;
	if (cell->length == 0) {
		return 1;
	}
	record->id = copyText(text, cell->length);
	if (record->id == NULL) {
		return outOfMemory(reader, error);
	}
	record->idKind = cliIsJsonNumber(text, cell->length) ? cli_idNumber : cli_idString;
	return 1;
}

/* Fill record from the decoded row. Cells are checked left to right, so
 * the first error kept is the leftmost. A row with too few or too many
 * cells is an error, but keeps its id when it has the id's cell (cells are
 * taken by position). Returns 1, or -1 on error. */
static int csvRecord(cliReader* reader, bcError* error, cliRecord* record)
{
	if (reader->cellCount != reader->headerCount) {
		recordError(record, "expected %d cells, found %d", reader->headerCount, reader->cellCount);
		int idColumn = reader->columnOf[cli_columnId];
		return idColumn >= 0 && idColumn < reader->cellCount ? csvId(reader, error, idColumn, record) : 1;
	}
	double values[cli_columnCount] = { 0 };
	int present[cli_columnCount] = { 0 };
	int rColumn = reader->columnOf[cli_columnR];
	bool rGiven = rColumn >= 0 && !blankCell(reader->scratch + reader->cells[rColumn].text);

	for (int j = 0; j < reader->cellCount; j++) {
		int kind = reader->columnKinds[j];
		const cliCell* cell = reader->cells + j;
		const char* text = reader->scratch + cell->text;
		if (kind < 0 || (kind == cli_columnRadius && rGiven)) {
			continue;
		}
		if (kind == cli_columnId) {
			if (csvId(reader, error, j, record) < 0) {
				return -1;
			}
			continue;
		}
		double value = 0.0;
		int status = cellNumber(columnNames[kind], text, record, &value);
		if (status == 0 && kind >= cli_columnX0 && kind <= cli_columnVz) {
			/* an empty coordinate: its two siblings must be empty too */
			const cliVectorField* f = vectorFields + (kind - cli_columnX0) / 3;
			bool partial = false;
			for (int a = 0; a < 3; a++) {
				int sibling = reader->columnOf[f->firstColumn + a];
				partial = partial || !blankCell(reader->scratch + reader->cells[sibling].text);
			}
			if (partial) {
				const char* const* names = columnNames + f->firstColumn;
				recordError(record, "%s: %s, %s and %s must be all given or all empty", f->key, names[0], names[1],
							names[2]);
				status = -1;
			}
		}
		if (status <= 0) {
			present[kind] = status;
			continue;
		}
		if ((kind == cli_columnR || kind == cli_columnRadius) && value < 0.0) {
			recordError(record, "%s: must not be negative", columnNames[kind]);
			present[kind] = -1;
			continue;
		}
		if (kind == cli_columnMass && value <= 0.0) {
			recordError(record, "mass: must be positive");
			present[kind] = -1;
			continue;
		}
		values[kind] = value;
		present[kind] = 1;
	}

	for (int k = 0; k < 4; k++) {
		const cliVectorField* f = vectorFields + k;
		const int* given = present + f->firstColumn;
		if (reader->columnOf[f->firstColumn] < 0 || given[0] < 0 || given[1] < 0 || given[2] < 0) {
			continue;
		}
		if (given[0] + given[1] + given[2] == 3) {
			bcVec3* v = recordVector(record, k);
			v->x = values[f->firstColumn];
			v->y = values[f->firstColumn + 1];
			v->z = values[f->firstColumn + 2];
			record->fields |= f->field;
		}
	}
	int radius = present[cli_columnR] != 0 ? cli_columnR : cli_columnRadius;
	if (present[radius] == 1) {
		record->radius = values[radius];
		record->fields |= cli_fieldRadius;
	}
	if (present[cli_columnMass] == 1) {
		record->mass = values[cli_columnMass];
		record->fields |= cli_fieldMass;
	}
	return 1;
}

static int csvNext(cliReader* reader, bcError* error, cliRecord* record)
{
	size_t length = 0;
	int status = readRow(reader, error, &length);
	if (status <= 0) {
		return status;
	}
	record->index = reader->index;
	record->line = reader->line;
	record->column = reader->column;
	if (csvRecord(reader, error, record) < 0) {
		cliRecord_Free(record);
		return -1;
	}
	advance(reader, length);
	reader->index += 1;
	return 1;
}

/* ---------------------------------------------------------- the reader */

cliReader* cliReader_Create(FILE* stream, const char* name, cliInputFormat format)
{
	cliReader* reader = calloc(1, sizeof *reader);
	if (reader == NULL) {
		return NULL;
	}
	const char* shown = name != NULL ? name : "-";
	reader->name = copyText(shown, strlen(shown));
	reader->buffer = malloc(CLI_READ_CHUNK + 1);
	if (reader->name == NULL || reader->buffer == NULL) {
		cliReader_Destroy(reader);
		return NULL;
	}
	reader->stream = stream;
	/* Read the descriptor itself (nothing has been read through stream):
	 * see fill. A stream without one (fmemopen) is read with fread. */
	reader->fd = fileno(stream);
	struct stat info;
	reader->pollable = reader->fd >= 0 && fstat(reader->fd, &info) == 0 &&
					   (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode) || S_ISCHR(info.st_mode));
	reader->format = format;
	reader->state = cli_readStart;
	reader->capacity = CLI_READ_CHUNK;
	reader->line = 1;
	reader->column = 1;
	return reader;
}

void cliReader_Destroy(cliReader* reader)
{
	if (reader == NULL) {
		return;
	}
	free(reader->name);
	free(reader->buffer);
	free(reader->columnKinds);
	free(reader->cells);
	free(reader->scratch);
	cliRecordText_Free(&reader->text);
	cliParser_Destroy(reader->parser);
	free(reader);
}

cliInputFormat cliReader_GetFormat(const cliReader* reader)
{
	return reader->format;
}

void cliRecord_Free(cliRecord* record)
{
	if (record == NULL) {
		return;
	}
	free(record->id);
	memset(record, 0, sizeof *record);
}

/* Skip a UTF-8 byte order mark (not counted in columns) and blank space,
 * then pick the format from the first byte. */
static int detect(cliReader* reader, bcError* error)
{
	while (reader->length - reader->start < 3 && !reader->eof) {
		if (fill(reader, error) < 0) {
			return -1;
		}
	}
	if (reader->length - reader->start >= 3 && memcmp(reader->buffer + reader->start, "\xEF\xBB\xBF", 3) == 0) {
		reader->start += 3;
	}
	int status = skipSpace(reader, error);
	if (status < 0) {
		return -1;
	}
	if (status == 0) {
		if (reader->format == cli_inputNdjson) {
			reader->state = cli_readDone;
			return 1;
		}
		return failAt(reader, error, bc_errorSyntax, 1, 1, "empty input: no records");
	}
	char first = reader->buffer[reader->start];
	if (reader->format == cli_inputAuto) {
		reader->format = first == '[' ? cli_inputJson : first == '{' ? cli_inputNdjson : cli_inputCsv;
	}
	switch (reader->format) {
	case cli_inputJson:
		if (first != '[') {
			return syntaxAt(reader, error, 0, "expected '[' at the start of a JSON array");
		}
		advance(reader, 1);
		reader->state = cli_readArrayFirst;
		break;
	case cli_inputNdjson:
		reader->state = cli_readValues;
		break;
	default:
		reader->state = cli_readCsvHeader;
		break;
	}
	return 1;
}

/* The next record, deferred into text when it is a JSON object that can be. */
static int readNext(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error)
{
	memset(record, 0, sizeof *record);
	for (;;) {
		int status;
		switch (reader->state) {
		case cli_readStart:
			if (detect(reader, error) < 0) {
				return -1;
			}
			break;

		case cli_readArrayFirst:
		case cli_readArrayNext:
			status = skipSpace(reader, error);
			if (status < 0) {
				return -1;
			}
			if (status == 0) {
				return syntaxAt(reader, error, 0, "unexpected end of input: expected %s",
								reader->state == cli_readArrayFirst ? "an element or ']'" : "',' or ']'");
			}
			if (reader->buffer[reader->start] == ']') {
				advance(reader, 1);
				reader->state = cli_readArrayEnd;
				break;
			}
			if (reader->state == cli_readArrayNext) {
				if (isControlByte(reader->buffer[reader->start])) {
					return unexpectedInput(reader, error, 0);
				}
				if (reader->buffer[reader->start] != ',') {
					return syntaxAt(reader, error, 0, "expected ',' or ']' after an element");
				}
				advance(reader, 1);
				status = skipSpace(reader, error);
				if (status < 0) {
					return -1;
				}
				if (status == 0) {
					return syntaxAt(reader, error, 0, "unexpected end of input: expected an element after ','");
				}
				if (reader->buffer[reader->start] == ']') {
					return syntaxAt(reader, error, 0, "expected an element after ',' (no trailing commas in JSON)");
				}
			}
			if (jsonTake(reader, error, record, text) < 0) {
				return -1;
			}
			reader->state = cli_readArrayNext;
			return 1;

		case cli_readArrayEnd:
			status = skipSpace(reader, error);
			if (status < 0) {
				return -1;
			}
			if (status > 0 && isControlByte(reader->buffer[reader->start])) {
				return unexpectedInput(reader, error, 0);
			}
			if (status > 0) {
				return syntaxAt(reader, error, 0, "unexpected data after the closing ']'");
			}
			reader->state = cli_readDone;
			break;

		case cli_readValues:
			if (reader->needSeparator) {
				if (reader->start == reader->length && fill(reader, error) < 0) {
					return -1;
				}
				if (reader->start < reader->length && isControlByte(reader->buffer[reader->start])) {
					return unexpectedInput(reader, error, 0);
				}
				if (reader->start < reader->length && !isSpace(reader->buffer[reader->start])) {
					return syntaxAt(reader, error, 0, "expected whitespace or a new line after a JSON value");
				}
				reader->needSeparator = false;
			}
			status = skipSpace(reader, error);
			if (status < 0) {
				return -1;
			}
			if (status == 0) {
				reader->state = cli_readDone;
				break;
			}
			if (jsonTake(reader, error, record, text) < 0) {
				return -1;
			}
			reader->needSeparator = true;
			return 1;

		case cli_readCsvHeader:
			if (csvHeader(reader, error) < 0) {
				return -1;
			}
			reader->state = cli_readCsvRows;
			break;

		case cli_readCsvRows:
			status = csvNext(reader, error, record);
			if (status != 0) {
				return status;
			}
			reader->state = cli_readDone;
			break;

		case cli_readDone:
			return 0;

		case cli_readFailed:
		default:
			if (error != NULL) {
				*error = reader->error;
			}
			return -1;
		}
	}
}

int cliReader_NextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error)
{
	/* every failure fills all of *error */
	return readNext(reader, record, text, error);
}

int cliReader_Next(cliReader* reader, cliRecord* record, bcError* error)
{
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->record = -1;
	}
	cliRecordText_Clear(&reader->text);
	int status = readNext(reader, record, &reader->text, error);
	if (status <= 0 || record->deferredLength == 0) {
		return status;
	}
	if (reader->parser == NULL && (reader->parser = cliParser_Create()) == NULL) {
		cliRecord_Free(record);
		return outOfMemory(reader, error);
	}
	bcError e;
	if (cliRecord_Parse(record, &reader->text, reader->parser, &e) < 0) {
		return failWith(reader, error, &e);
	}
	return 1;
}

int cliReader_Detect(cliReader* reader, bcError* error)
{
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->record = -1;
	}
	if (reader->state == cli_readFailed) {
		if (error != NULL) {
			*error = reader->error;
		}
		return -1;
	}
	return reader->state == cli_readStart ? detect(reader, error) : 1;
}

bool cliReader_IsInputReady(const cliReader* reader)
{
	if (reader->eof || !reader->pollable) {
		return true;
	}
	/* a line with something on it */
	size_t i = reader->start;
	while (i < reader->length && isSpace(reader->buffer[i])) {
		i++;
	}
	if (i < reader->length && memchr(reader->buffer + i, '\n', reader->length - i) != NULL) {
		return true;
	}
	struct pollfd p = { reader->fd, POLLIN, 0 };
	return poll(&p, 1, 0) != 0;
}

void cliReader_SetKeepWaiting(cliReader* reader, cliKeepWaitingFcn* keepWaiting, void* context)
{
	reader->keepWaiting = keepWaiting;
	reader->keepWaitingContext = context;
}
