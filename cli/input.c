/* input.c - the bytes of one input file, in chunks, with positions
 * (input.h). */
#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How often a reader waiting on a pipe asks whether to keep waiting: short
 * enough that a run stopped by an error ends promptly, long enough that an
 * idle wait costs nothing. */
#define CLI_POLL_INTERVAL_MS 100

static bool isSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool cliInput_Open(cliInput* in, FILE* stream)
{
	memset(in, 0, sizeof *in);
	in->buffer = malloc(CLI_INPUT_CHUNK + 1);
	if (in->buffer == NULL) {
		return false;
	}
	in->capacity = CLI_INPUT_CHUNK;
	in->stream = stream;
	in->line = 1;
	in->column = 1;
	in->size = -1;
	/* A stream without a descriptor (fmemopen) is read with fread. */
	in->fd = fileno(stream);
	struct stat info;
	if (in->fd >= 0 && fstat(in->fd, &info) == 0) {
		in->pollable = S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode) || S_ISCHR(info.st_mode);
		if (S_ISREG(info.st_mode)) {
			off_t at = lseek(in->fd, 0, SEEK_CUR);
			in->size = (long long)info.st_size - (at > 0 ? (long long)at : 0);
		}
	}
	return true;
}

void cliInput_Close(cliInput* in)
{
	free(in->buffer);
	memset(in, 0, sizeof *in);
}

static int readFailed(bcError* error, bcErrorCode code, int errorNumber)
{
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->code = code;
		error->record = -1;
		error->systemError = code == bc_errorIo ? errorNumber : 0;
		if (code == bc_errorNoMemory) {
			snprintf(error->message, sizeof error->message, "out of memory");
		} else {
			snprintf(error->message, sizeof error->message, "read error: %s",
					 errorNumber != 0 ? strerror(errorNumber) : "unknown");
		}
	}
	return -1;
}

/* Stop the input at buffer[at] (an unread byte, or length), with message
 * there: the bytes before stay readable, then Fill fails; or, when at is
 * within the input's first chunk, refuse the whole input (what is not read
 * yet) at once: a file that starts as binary data is no text with junk at
 * its end. */
/* The line and column of buffer[at] (unread): columns of line 1 count
 * after a byte order mark not skipped yet. */
static void placeOf(const cliInput* in, size_t at, long* line, long* column)
{
	if (in->consumed == 0 && in->start == 0 && at >= 3 && memcmp(in->buffer, "\xEF\xBB\xBF", 3) == 0) {
		cliTextPosition(in->buffer + 3, at - 3, 1, 1, line, column);
	} else {
		cliInput_Position(in, at - in->start, line, column);
	}
}

static void refuse(cliInput* in, size_t at, const char* message)
{
	cliInput_SyntaxError(in, at - in->start, message, &in->refusal);
	placeOf(in, at, &in->refusal.line, &in->refusal.column);
	in->refused = true;
	bool early = in->consumed + (long long)(at - in->start) < (long long)CLI_INPUT_CHUNK;
	in->length = early ? in->start : at;
	in->eof = false; /* not the end: Fill says why at once */
}

/* Look at the bytes just read, buffer[from .. length): the start of the
 * input for UTF-16, everything for a run of NUL bytes (cliInput_Fill). */
static void refuseNonText(cliInput* in, size_t from)
{
	const unsigned char* u = (const unsigned char*)in->buffer;
	if (!in->startChecked) {
		/* the first bytes, after a UTF-8 byte order mark (which changes nothing) */
		size_t at = in->length >= 3 && memcmp(in->buffer, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		size_t have = in->length - at;
		const unsigned char* v = u + at;
		if (in->consumed > 0 || in->start > 0) {
			in->startChecked = true; /* read from before this check could see it: a reader's business */
		} else if (have >= 4 || in->eof) {
			in->startChecked = true;
			bool mark = have >= 2 && ((v[0] == 0xFF && v[1] == 0xFE) || (v[0] == 0xFE && v[1] == 0xFF));
			/* ASCII in UTF-16: a NUL after (little-endian) or before (big-endian) each byte */
			bool little = have >= 4 && v[0] != 0 && v[1] == 0 && v[2] != 0 && v[3] == 0;
			bool big = have >= 4 && v[0] == 0 && v[1] != 0 && v[2] == 0 && v[3] != 0;
			if (mark || little || big) {
				refuse(in, 0, CLI_INPUT_UTF16);
				in->refusal.line = 1;
				in->refusal.column = 1;
				return;
			}
		}
	}
	size_t i = from;
	if (in->lastWasNul && i < in->length && u[i] == 0) {
		/* a run that began with the last byte of the read before: placed there */
		refuse(in, from > in->start ? from - 1 : from, CLI_INPUT_BINARY);
		in->refusal.line = in->lastNulLine;
		in->refusal.column = in->lastNulColumn;
		return;
	}
	while (i < in->length) {
		const unsigned char* nul = memchr(u + i, 0, in->length - i);
		if (nul == NULL) {
			break;
		}
		size_t at = (size_t)(nul - u);
		if (at + 1 < in->length && u[at + 1] == 0) {
			refuse(in, at, CLI_INPUT_BINARY);
			return;
		}
		i = at + 1;
	}
	in->lastWasNul = in->length > from && u[in->length - 1] == 0;
	if (in->lastWasNul) {
		placeOf(in, in->length - 1, &in->lastNulLine, &in->lastNulColumn); /* before a reader consumes it */
	}
}

/* What Fill returns after count bytes came at buffer[from]: 1, 0 at the
 * end, or -1 when the input is refused from its first new byte on. */
static int afterRead(cliInput* in, size_t from, size_t count, bcError* error)
{
	refuseNonText(in, from);
	if (in->refused && in->length <= from) {
		if (error != NULL) {
			*error = in->refusal;
		}
		return -1;
	}
	return count > 0 ? 1 : 0;
}

int cliInput_Fill(cliInput* in, bcError* error)
{
	if (in->refused) {
		if (error != NULL) {
			*error = in->refusal;
		}
		return -1;
	}
	if (in->eof) {
		return 0;
	}
	if (in->start > 0) {
		memmove(in->buffer, in->buffer + in->start, in->length - in->start);
		in->length -= in->start;
		in->start = 0;
	}
	if (in->length == in->capacity) {
		size_t capacity = 2 * in->capacity;
		char* buffer = realloc(in->buffer, capacity + 1);
		if (buffer == NULL) {
			return readFailed(error, bc_errorNoMemory, 0);
		}
		in->buffer = buffer;
		in->capacity = capacity;
	}
	size_t request = in->capacity - in->length;
	if (in->fd < 0) {
		errno = 0;
		size_t from = in->length;
		size_t count = fread(in->buffer + in->length, 1, request, in->stream);
		in->length += count;
		if (ferror(in->stream)) {
			return readFailed(error, bc_errorIo, errno);
		}
		/* fread stops short only at the end of the input */
		in->eof = count < request || feof(in->stream);
		return afterRead(in, from, count, error);
	}
	/* read(2) returns what a pipe holds rather than waiting for a full
	 * buffer, so that a filter answers records as they come. */
	for (;;) {
		if (in->pollable && in->keepWaiting != NULL) {
			struct pollfd p = { in->fd, POLLIN, 0 };
			int ready = poll(&p, 1, CLI_POLL_INTERVAL_MS);
			if (ready == 0 || (ready < 0 && errno == EINTR)) {
				if (!in->keepWaiting(in->keepWaitingContext)) {
					return readFailed(error, bc_errorIo, ECANCELED);
				}
				continue;
			}
		}
		ssize_t count = read(in->fd, in->buffer + in->length, request);
		if (count < 0 && errno == EINTR) {
			continue;
		}
		if (count < 0) {
			return readFailed(error, bc_errorIo, errno);
		}
		size_t from = in->length;
		in->length += (size_t)count;
		in->eof = count == 0;
		return afterRead(in, from, (size_t)count, error);
	}
}

char* cliCopyText(const char* text, size_t length)
{
	char* copy = malloc(length + 1);
	if (copy != NULL) {
		memcpy(copy, text, length);
		copy[length] = '\0';
	}
	return copy;
}

/* ---------------------------------------------------------------- UTF-8 */

int cliUtf8Length(const char* s, size_t n, int* shown)
{
	const unsigned char* u = (const unsigned char*)s;
	unsigned char first = u[0];
	if (first < 0x80) {
		return 1;
	}
	/* the second byte's range narrows for E0 and F0 (no overlong forms), ED
	 * (no surrogates) and F4 (nothing beyond U+10FFFF) */
	int length = 0;
	unsigned char low = 0x80, high = 0xBF;
	if (first >= 0xC2 && first <= 0xDF) {
		length = 2;
	} else if (first >= 0xE0 && first <= 0xEF) {
		length = 3;
		low = first == 0xE0 ? 0xA0 : 0x80;
		high = first == 0xED ? 0x9F : 0xBF;
	} else if (first >= 0xF0 && first <= 0xF4) {
		length = 4;
		low = first == 0xF0 ? 0x90 : 0x80;
		high = first == 0xF4 ? 0x8F : 0xBF;
	} else {
		*shown = 1;
		return 0;
	}
	for (int k = 1; k < length; ++k) {
		if ((size_t)k >= n) {
			*shown = k;
			return 0;
		}
		unsigned char b = u[k];
		bool continues = k == 1 ? b >= low && b <= high : b >= 0x80 && b <= 0xBF;
		if (!continues) {
			*shown = b >= 0x80 ? k + 1 : k;
			return 0;
		}
	}
	return length;
}

const char* cliDescribeBytes(const char* s, int count, char* text, size_t size)
{
	int n = snprintf(text, size, "byte%s", count > 1 ? "s" : "");
	for (int k = 0; k < count && n > 0 && (size_t)n < size; ++k) {
		n += snprintf(text + n, size - (size_t)n, " 0x%02X", (unsigned)(unsigned char)s[k]);
	}
	return text;
}

const char* cliQuoteText(const char* text, size_t length, char* out, size_t size)
{
	size_t o = 0;
	size_t i = 0;
	while (i < length && i < CLI_QUOTE_MAX && o + 5 <= size) {
		unsigned char c = (unsigned char)text[i];
		int shown = 0;
		int k = cliUtf8Length(text + i, length - i, &shown);
		if (k == 0 || c < 0x20 || c == 0x7F) {
			snprintf(out + o, size - o, "\\x%02X", (unsigned)c);
			o += 4;
			i += 1;
			continue;
		}
		if (i + (size_t)k > CLI_QUOTE_MAX || o + (size_t)k + 1 > size) {
			break; /* never a character cut in two */
		}
		memcpy(out + o, text + i, (size_t)k);
		o += (size_t)k;
		i += (size_t)k;
	}
	if (size > 0) {
		out[o < size ? o : size - 1] = '\0';
	}
	return out;
}

void cliTextPosition(const char* text, size_t offset, long line, long column, long* lineOut, long* columnOut)
{
	const char* p = text;
	const char* end = text + offset;
	for (;;) {
		const char* newline = memchr(p, '\n', (size_t)(end - p));
		if (newline == NULL) {
			break;
		}
		line += 1;
		column = 1;
		p = newline + 1;
	}
	*lineOut = line;
	*columnOut = column + (long)(end - p);
}

void cliInput_Position(const cliInput* in, size_t offset, long* line, long* column)
{
	cliTextPosition(in->buffer + in->start, offset, in->line, in->column, line, column);
}

void cliInput_Advance(cliInput* in, size_t count)
{
	cliInput_Position(in, count, &in->line, &in->column);
	in->start += count;
	in->consumed += (long long)count;
}

int cliInput_SkipByteOrderMark(cliInput* in, bcError* error)
{
	while (in->length - in->start < 3 && !in->eof) {
		if (cliInput_Fill(in, error) < 0) {
			return -1;
		}
	}
	if (in->length - in->start >= 3 && memcmp(in->buffer + in->start, "\xEF\xBB\xBF", 3) == 0) {
		in->start += 3;
		in->consumed += 3;
	}
	return 1;
}

int cliInput_SkipSpace(cliInput* in, bcError* error)
{
	for (;;) {
		size_t i = in->start;
		while (i < in->length && isSpace(in->buffer[i])) {
			i++;
		}
		cliInput_Advance(in, i - in->start);
		if (in->start < in->length) {
			return 1;
		}
		int status = cliInput_Fill(in, error);
		if (status <= 0) {
			return status;
		}
	}
}

int cliInput_SkipLine(cliInput* in, size_t limit, bcError* error)
{
	long line = in->line;
	long column = in->column;
	long long from = in->consumed;
	for (;;) {
		const char* newline = memchr(in->buffer + in->start, '\n', in->length - in->start);
		if (newline != NULL) {
			cliInput_Advance(in, (size_t)(newline - (in->buffer + in->start)) + 1);
			return 1;
		}
		if ((unsigned long long)(in->consumed - from) + (in->length - in->start) > limit) {
			if (error != NULL) {
				memset(error, 0, sizeof *error);
				error->code = bc_errorSyntax;
				error->record = -1;
				error->line = line;
				error->column = column;
				snprintf(error->message, sizeof error->message, "line longer than %zu bytes", limit);
			}
			return -1;
		}
		/* drop what is buffered: the line's column keeps counting */
		cliInput_Advance(in, in->length - in->start);
		int status = cliInput_Fill(in, error);
		if (status <= 0) {
			return status < 0 ? -1 : 1;
		}
	}
}

bool cliInput_IsReady(const cliInput* in)
{
	if (in->eof || !in->pollable) {
		return true;
	}
	size_t i = in->start;
	while (i < in->length && isSpace(in->buffer[i])) {
		i++;
	}
	if (i < in->length && memchr(in->buffer + i, '\n', in->length - i) != NULL) {
		return true;
	}
	struct pollfd p = { in->fd, POLLIN, 0 };
	return poll(&p, 1, 0) != 0;
}

double cliInput_Progress(const cliInput* in)
{
	if (in->size <= 0) {
		return in->size == 0 ? 1.0 : -1.0;
	}
	double fraction = (double)in->consumed / (double)in->size;
	return fraction > 1.0 ? 1.0 : fraction;
}

int cliInput_SyntaxError(const cliInput* in, size_t offset, const char* message, bcError* error)
{
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorSyntax;
		error->record = -1;
		cliInput_Position(in, offset, &error->line, &error->column);
		snprintf(error->message, sizeof error->message, "%s", message);
	}
	return -1;
}

/* ------------------------------------------------------------- shards */

/* Bytes read at a time while counting lines up to a shard's bounds. */
#define CLI_SHARD_CHUNK ((size_t)1 << 20)

/* Is line:column before the position line2:column2? */
static bool isBefore(long line, long column, long line2, long column2)
{
	return line < line2 || (line == line2 && column < column2);
}

bool cliInputRange_Holds(const cliInputRange* range, long line, long column)
{
	if (range->beginLine > 0 && isBefore(line, column, range->beginLine, range->beginColumn)) {
		return false;
	}
	return range->endLine == 0 || isBefore(line, column, range->endLine, range->endColumn);
}

int cliFindShardRange(FILE* stream, long index, long count, cliInputRange* range, bcError* error)
{
	memset(range, 0, sizeof *range);
	int fd = fileno(stream);
	struct stat info;
	if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
		if (error != NULL) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorIo;
			error->record = -1;
			snprintf(error->message, sizeof error->message,
					 "--shard needs a file to cut into byte ranges, not a pipe or a terminal");
		}
		return -1;
	}
	off_t at = lseek(fd, 0, SEEK_CUR);
	long long base = at > 0 ? (long long)at : 0;
	long long size = (long long)info.st_size - base;
	size = size > 0 ? size : 0;
	/* the bounds size * k / count, without overflow */
	long long bounds[2];
	for (int b = 0; b < 2; ++b) {
		long long k = index + b;
		bounds[b] = size / count * k + size % count * k / count;
	}
	bool lower = index > 0;
	bool upper = index + 1 < count;
	long long stop = upper ? bounds[1] : lower ? bounds[0] : 0;
	char* buffer = stop > 0 ? malloc(CLI_SHARD_CHUNK) : NULL;
	if (stop > 0 && buffer == NULL) {
		return readFailed(error, bc_errorNoMemory, 0);
	}
	/* lines counted up to each bound: line and the offset where it starts */
	long line = 1;
	long long lineStart = 0;
	bool byteOrderMark = false;
	long long done = 0;
	int next = lower ? 0 : 1;
	while (next < 2 && (next == 0 || upper)) {
		long long target = bounds[next];
		while (done < target) {
			size_t want = target - done < (long long)CLI_SHARD_CHUNK ? (size_t)(target - done) : CLI_SHARD_CHUNK;
			ssize_t got = pread(fd, buffer, want, (off_t)(base + done));
			if (got < 0 && errno == EINTR) {
				continue;
			}
			if (got <= 0) {
				int code = got < 0 ? errno : EIO;
				free(buffer);
				return readFailed(error, bc_errorIo, code);
			}
			if (done == 0 && got >= 3 && memcmp(buffer, "\xEF\xBB\xBF", 3) == 0) {
				byteOrderMark = true;
			}
			for (const char* p = buffer; (p = memchr(p, '\n', (size_t)(buffer + got - p))) != NULL; ++p) {
				line += 1;
				lineStart = done + (p - buffer) + 1;
			}
			done += got;
		}
		long column = (long)(target - lineStart) + 1;
		if (line == 1 && byteOrderMark) {
			column = target >= 3 ? column - 3 : 1;
		}
		if (next == 0) {
			range->beginLine = line;
			range->beginColumn = column;
		} else {
			range->endLine = line;
			range->endColumn = column;
		}
		next += 1;
	}
	free(buffer);
	return 1;
}
