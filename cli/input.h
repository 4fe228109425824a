/* input.h - the bytes of one input file as the readers see them: read in
 * chunks (never the whole file unless a value needs it), with the line and
 * column of every unread byte, for the JSON front end (json_stream.c) and
 * the CSV reader (csv.c). */
#ifndef BC_INPUT_H
#define BC_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ballcast.h"

/* Bytes asked of the stream per read, and the first buffer size. 64 KiB
 * holds hundreds of typical records, so the memmove of a partial record and
 * the re-scan it causes happen once per few hundred records, while the
 * buffer stays small. (A build may set it smaller: the fuzz target of the
 * limits does.) */
#ifndef CLI_INPUT_CHUNK
#define CLI_INPUT_CHUNK ((size_t)64 * 1024)
#endif

/* Longest piece of input quoted back in a message; keeps messages within
 * bcError.message and a record's error. */
#define CLI_QUOTE_MAX 40

/* Room for a quote of CLI_QUOTE_MAX bytes (cliQuoteText), each byte at
 * worst written as \xNN, and its NUL. */
#define CLI_QUOTE_SIZE (4 * CLI_QUOTE_MAX + 1)

/* The messages of an input refused as a whole (cliInput_Fill): bytes that
 * no text holds, and text in another encoding. */
#define CLI_INPUT_BINARY "binary data (NUL bytes)"
#define CLI_INPUT_UTF16 "UTF-16 text; convert it to UTF-8"

/* While the input waits for a pipe, socket or terminal, it asks
 * keepWaiting(context) every tenth of a second; when that returns false it
 * gives up with a read error ("Operation canceled"). The callback runs on
 * whichever thread is reading. */
typedef bool cliKeepWaitingFcn(void* context);

/* Unread input is buffer[start .. length), starting at line:column; the
 * buffer has one spare byte after length for a sentinel. Zero it, then
 * cliInput_Open. */
typedef struct cliInput {
	FILE* stream;
	int fd;            /* read(2) from here when >= 0 (fread from stream otherwise) */
	bool pollable;     /* fd is a pipe, socket or terminal: reads may wait */
	cliKeepWaitingFcn* keepWaiting;
	void* keepWaitingContext;
	char* buffer;
	size_t capacity;
	size_t start;
	size_t length;
	bool eof;
	long line;
	long column;
	long long consumed; /* bytes before buffer[start], from the start of the input */
	long long size;     /* the whole input's size when known (a regular file), else -1 */
	bool startChecked;  /* the first bytes were looked at for UTF-16 */
	bool lastWasNul;    /* the last byte read was a NUL (a run may go on in the next read), */
	long lastNulLine;   /* ... here */
	long lastNulColumn;
	bool refused;       /* the input stops at buffer[length]: refusal says why and where */
	bcError refusal;
} cliInput;

/* Start reading stream (not closed here; nothing may have been read
 * through it before: its descriptor is read directly, so that a filter
 * answers what a pipe holds without waiting for a full buffer). A UTF-8
 * byte order mark is skipped later by cliInput_SkipByteOrderMark. False
 * when out of memory. */
bool cliInput_Open(cliInput* in, FILE* stream);

/* Free the buffer and zero the input. */
void cliInput_Close(cliInput* in);

/* Read more input after the unread bytes (moved to the front of the buffer,
 * which doubles when they fill it). 1 when bytes were added, 0 at the end
 * of the input, -1 on a read error or out of memory (error filled, without
 * a position).
 *
 * Text only: an input that starts as UTF-16 does (a byte order mark FF FE
 * or FE FF, or ASCII with a NUL after or before every byte) is refused
 * whole (CLI_INPUT_UTF16, at line 1, column 1), and one that holds two NUL
 * bytes in a row (zeros, an image, an archive, an executable) is refused
 * at the first of them (CLI_INPUT_BINARY): whole when they stand in its
 * first CLI_INPUT_CHUNK bytes (binary data), else the bytes before stay
 * readable (text, then zeros: a file cut short and padded, say), and the
 * read that would go past them returns -1 with that syntax error. A lone
 * NUL is left to the readers (a bad record where it stands). */
int cliInput_Fill(cliInput* in, bcError* error);

/* Consume count unread bytes, keeping line and column. */
void cliInput_Advance(cliInput* in, size_t count);

/* The line and column of the unread byte at offset from start. */
void cliInput_Position(const cliInput* in, size_t offset, long* line, long* column);

/* Skip a UTF-8 byte order mark at the very start (not counted in columns).
 * 1, or -1 on a read error. */
int cliInput_SkipByteOrderMark(cliInput* in, bcError* error);

/* Skip JSON white space (space, tab, CR, LF). 1 when an unread byte
 * follows, 0 at the end of the input, -1 on a read error. */
int cliInput_SkipSpace(cliInput* in, bcError* error);

/* Skip through the end of the current line (its '\n', or the end of the
 * input), in bounded memory. 1, or -1 on a read error or when more than
 * limit bytes go by without a line end (error: "line longer than LIMIT
 * bytes" at where the skipping started). */
int cliInput_SkipLine(cliInput* in, size_t limit, bcError* error);

/* Can the next record be read without waiting? True when a line with
 * something on it is buffered, at the end of the input, and for input that
 * is not a pipe, socket or terminal; otherwise asks poll(2). */
bool cliInput_IsReady(const cliInput* in);

/* How far reading has come, from 0 to 1, or -1 when the size is unknown. */
double cliInput_Progress(const cliInput* in);

/* Fill error with a syntax error at the unread byte at offset: code
 * bc_errorSyntax, its line and column, and the message. Returns -1. */
int cliInput_SyntaxError(const cliInput* in, size_t offset, const char* message, bcError* error);

/* A part of an input file (--shard K/N): the records that start at or
 * after begin and before end, where positions are what cliInput counts
 * (1-based line, 1-based byte column; on line 1 after a byte order mark),
 * so that records keep the numbers, lines and columns of the whole file.
 * Zeroed: every record. */
typedef struct cliInputRange {
	long beginLine, beginColumn; /* 0: from the start */
	long endLine, endColumn;     /* 0: to the end */
} cliInputRange;

/* The range of shard index (0-based) of count: the records that start in
 * the index-th of count equal byte ranges [size * index / count, size *
 * (index + 1) / count) of the regular file stream reads (from its current
 * offset, which is left alone: the file is read with pread). Finds the
 * positions of the two bounds by counting lines up to them. 1, or -1 (error
 * filled, no position) when stream is not a regular file (a pipe has no
 * size to cut) or cannot be read. */
int cliFindShardRange(FILE* stream, long index, long count, cliInputRange* range, bcError* error);

/* Does range hold a record that starts at line:column? */
bool cliInputRange_Holds(const cliInputRange* range, long line, long column);

/* A NUL-terminated copy of text[0 .. length) (the caller frees it), or
 * NULL when out of memory. */
char* cliCopyText(const char* text, size_t length);

/* ---------------------------------------------------------------- UTF-8 */

/* The length (1 to 4) of the well-formed UTF-8 character at s[0] of s[0 ..
 * n) (Unicode's table 3-7), or 0 when there is none: a continuation byte
 * first, an overlong form (0xC0 0xAF), a surrogate (0xED 0xA0 ...), beyond
 * U+10FFFF (0xF4 0x90 ..., 0xF5 .. 0xFF), or a character cut short (by a
 * byte that does not continue it, or by n). *shown then gets how many of
 * the bytes there say what is wrong (the first byte, and the one that
 * does not continue it when it is not ASCII): 1 to 3. */
int cliUtf8Length(const char* s, size_t n, int* shown);

/* The bytes s[0 .. count) for a message: "byte 0xFF", "bytes 0xE0 0x80".
 * Returns text (of size bytes). */
const char* cliDescribeBytes(const char* s, int count, char* text, size_t size);

/* text[0 .. length) as a message quotes it: its first CLI_QUOTE_MAX bytes
 * (never a character cut in two), where bytes that are not UTF-8, and
 * control bytes, are written \xNN, so that the message is valid UTF-8 and
 * prints no control byte. Returns out (of size bytes; CLI_QUOTE_SIZE holds
 * any quote). */
const char* cliQuoteText(const char* text, size_t length, char* out, size_t size);

/* Line and column of text[offset] for text that starts at line:column
 * (a copy of the input, or a value taken from it). */
void cliTextPosition(const char* text, size_t offset, long line, long column, long* lineOut, long* columnOut);

#endif
