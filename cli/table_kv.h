/* table_kv.h - text of keys and values reduced to a table of records
 * (table.h): YAML-ish lists ("- id: t001" then "  hit: true" ...) and
 * mappings keyed by id ("t001:" then indented keys), blocks of "key:
 * value" or "key = value" lines separated by blank lines or starting again
 * at a repeated key, INI and TOML sections ([t001], [[result]]), and lines
 * of pairs (logfmt's "id=t001 hit=true alpha=0.25", "id: 1, hit: yes").
 * A key with nothing after it and indented keys below it gives
 * "normal.x". Values are read as literals when bracketed or quoted
 * ([0, 0, 1], 't001'), else as the text to the end of the line (or to the
 * next pair). */
#ifndef BC_TABLE_KV_H
#define BC_TABLE_KV_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* Is text mostly lines of keys and values (at least 3 of 5 of the lines
 * that are not blank or comments), so that cliTable_ReadKeyValues should
 * read it? */
bool cliLooksLikeKeyValues(const char* text, size_t length);

/* Read text into t. False only when memory runs out (error filled). */
bool cliTable_ReadKeyValues(cliTable* t, const char* text, size_t length, bcError* error);

#endif
