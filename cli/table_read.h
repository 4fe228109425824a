/* table_read.h - a submission as a table, whatever the file: read whole
 * (up to CLI_TABLE_MAX_BYTES), a binary file named for what it is ("a ZIP
 * archive; unpack it first", "an Excel workbook"), UTF-16 decoded, a byte
 * order mark dropped, then handed to the reader its text calls for:
 * literals (table_json.c), keys and values (table_kv.c), or text in
 * columns (table_text.c). */
#ifndef BC_TABLE_READ_H
#define BC_TABLE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "table.h"

/* The largest submission read: far above any class's file (a million
 * results of cast's JSON are about 300 MB), low enough that a wrong file
 * (a disk image, /dev/zero) is refused with a reason rather than filling
 * memory. */
#define CLI_TABLE_MAX_BYTES ((size_t)1024 * 1024 * 1024)

/* The text of a whole input. */
typedef struct cliWholeText {
	char* data;        /* owned, NUL terminated; the byte order mark gone */
	size_t length;
	char encoding[48]; /* "" for UTF-8, else what was decoded ("UTF-16 (little-endian)") */
} cliWholeText;

/* Read all of stream (not closed). True with *text (free it with
 * cliWholeText_Free); false with error: a read error, out of memory,
 * larger than CLI_TABLE_MAX_BYTES, or not text at all, said in words
 * ("a ZIP archive (unpack it first)"; line and column 0). */
bool cliWholeText_Read(FILE* stream, cliWholeText* text, bcError* error);

void cliWholeText_Free(cliWholeText* text);

/* What binary file the first bytes begin (NULL when they look like text):
 * "a ZIP archive (unpack it first)", "an Excel workbook (.xlsx; save it
 * as CSV)", "binary data (NUL bytes)", ... */
const char* cliBinaryKind(const unsigned char* bytes, size_t length);

/* Is text blank (nothing but white space)? */
bool cliTextIsBlank(const char* text, size_t length);

/* Reduce text to t with the reader its text calls for. False when the
 * input cannot be read on (error at its place), or out of memory. */
bool cliTable_ReadAny(cliTable* t, const char* text, size_t length, bcError* error);

#endif
