/* table_infer.h - which column of a table holds which field of a result,
 * told as a teacher tells it: by --map first, then by the column's name
 * (field_names.h: t, toi, hit_time, face_id, nx, Alpha (%) ...), then by
 * its values, over the table's sample:
 *   - booleans, or 0 and 1, are hit (a second such column, initial
 *     overlap);
 *   - three numbers making vectors of length 1 are the normal, whether in
 *     three columns (nx, ny, nz or none named), or in one cell ("[x, y,
 *     z]", "(x y z)", a nested list);
 *   - numbers in [0, 1] (a miss written -1 or left empty) are alpha;
 *     written with '%', or named so, a percentage of the path;
 *   - feature words (face, EDGE, v) are the feature;
 *   - whole numbers from 0, below the mesh's triangle count and not
 *     counting rows, are the triangle;
 *   - a column of distinct values, none missing, is the id.
 * No hit column: a record is a miss when its alpha is -1, empty, NaN or
 * beyond 1 (or exactly 1 with nothing else given), or its feature says
 * none. Each column's reading keeps its evidence ("all values in [0,
 * 1]"); when two columns fit one field the first is taken, the other
 * named, and the file flagged for review. */
#ifndef BC_TABLE_INFER_H
#define BC_TABLE_INFER_H

#include <stdbool.h>
#include <stdint.h>

#include "field_names.h"
#include "output.h"
#include "table.h"

/* How a column's field was decided. */
typedef enum cliEvidence {
	cli_byNone = 0, /* not read */
	cli_byMap,      /* --map */
	cli_byName,     /* its name */
	cli_byValues    /* its values */
} cliEvidence;

/* One column's reading. */
typedef struct cliColumnReading {
	cliSlot slot;       /* what it holds, or cli_slotNone */
	cliEvidence by;
	char evidence[96];  /* for values: what they showed ("all values in [0, 1]"); "" otherwise */
} cliColumnReading;

/* Options of the inference. */
typedef struct cliInferOptions {
	const char* const* map; /* --map pairs: their name (a column name, a dotted path, a column number), ours */
	int mapCount;
	int32_t triangleCount;  /* the mesh's triangles, or 0 when not known */
	bool values;            /* tell unnamed columns by their values (grade's submissions), not only names */
} cliInferOptions;

/* The reading of every column of a table. */
/* Other columns a slot is also read from, in a record that lacks its
 * column (records of a file that differ: some nested, some not). */
#define CLI_ALTERNATES 3

typedef struct cliTableMap {
	int columnOf[cli_slotCount];    /* the column each slot is read from, or -1 */
	int alternates[cli_slotCount][CLI_ALTERNATES]; /* then these, or -1 */
	cliColumnReading* columns;      /* owned: per column of the table */
	int columnCount;
	bool hitFromAlpha;              /* no hit column: hit told from alpha (and the feature) */
	bool percent;                   /* alpha is a percentage of the path */
	bool review;                    /* the reading had to choose: a teacher should look */
	char reviewWhy[512];            /* the choices, in words */
	char notes[256];                /* what else the inference noticed, in words, or "" */
} cliTableMap;

/* Read t's columns (its sample) as options say. False when out of memory. */
bool cliTableMap_Infer(cliTableMap* m, const cliTable* t, const cliInferOptions* options);

/* Free what m owns. */
void cliTableMap_Free(cliTableMap* m);

/* A column as a note names it: 't' (its name, quoted, escaped and cut
 * short as cliShortName shows a name read from a file: a report never
 * shows more of a student's text) or column 3. */
void cliTable_ColumnName(const cliTable* t, int k, char* out, size_t size);

/* Room for any name cliTable_ColumnName writes (a key path's two parts
 * and the quotes). */
#define CLI_COLUMN_NAME_SIZE (2 * CLI_SHOWN_NAME_SIZE + 4)

/* A column's name (the student's text) as reports show it: escaped and cut
 * short as cliShortName shows a name read from a file; a key path cut
 * short keeps its last key, which tells its columns apart
 * ("a_long_key_under_which_t….hit"). Into out, of size bytes
 * (CLI_COLUMN_NAME_SIZE holds any). */
void cliShortColumnName(const char* name, char* out, size_t size);

#endif
