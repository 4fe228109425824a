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

/* Bytes asked of the stream per read, and the first buffer size. 64 KiB
 * holds hundreds of typical records, so the memmove of a partial record and
 * the re-scan it causes happen once per few hundred records, while the
 * buffer stays small. */
#define CLI_INPUT_CHUNK ((size_t)64 * 1024)

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

int cliInput_Fill(cliInput* in, bcError* error)
{
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
		size_t count = fread(in->buffer + in->length, 1, request, in->stream);
		in->length += count;
		if (ferror(in->stream)) {
			return readFailed(error, bc_errorIo, errno);
		}
		/* fread stops short only at the end of the input */
		in->eof = count < request || feof(in->stream);
		return count > 0 ? 1 : 0;
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
		in->length += (size_t)count;
		in->eof = count == 0;
		return count > 0 ? 1 : 0;
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

int cliInput_SkipLine(cliInput* in, bcError* error)
{
	for (;;) {
		const char* newline = memchr(in->buffer + in->start, '\n', in->length - in->start);
		if (newline != NULL) {
			cliInput_Advance(in, (size_t)(newline - (in->buffer + in->start)) + 1);
			return 1;
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

int cliInput_ShardRange(FILE* stream, long index, long count, cliInputRange* range, bcError* error)
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
