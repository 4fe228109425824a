/* common.h - the meshes and inputs a command opens, and how it reports
 * what is wrong with them. */
#ifndef BC_COMMON_H
#define BC_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"
#include "options.h"
#include "records.h"

/* "ballcast: FILE" on stderr, the start of a message about a file: the
 * name as ls -b shows it (output.h), since a file's name is the user's and
 * a message must not drive the terminal. */
void cliReportFile(const char* file);

/* "ballcast: FILE:LINE:COLUMN: message" (or "ballcast: FILE: message" when
 * the error has no position) on stderr. */
void cliReportError(const char* file, const bcError* error);

/* Load the mesh at path ("-": standard input) in common->meshFormat
 * (--mesh-format; bc_meshAuto by extension and first bytes), on
 * common->threads threads (the mesh does not depend on them), reporting
 * any error as "ballcast: FILE:LINE:COLUMN: message" (FILE:byte N in binary
 * data); NULL on failure, with *status (when not NULL) the exit status it
 * calls for: cli_exitTransient for an I/O error or out of memory, else
 * cli_exitTrouble. Unless common->quiet, the reader's warnings and the
 * degenerate triangles are reported on stderr. */
bcMesh* cliLoadMesh(const char* path, const cliCommonOptions* common, int* status);

/* --shard with a JSON document out (whose N parts would not join into
 * one), or a mesh and records both from standard input: a usage error
 * (its exit status); -1 to go on. */
int cliCheckInputs(const cliUsage* usage, const cliCommonOptions* common, const char* meshPath,
				   const char* inputPath);

/* --shard K/N: the range of input (input.h) the command answers, zeroed
 * without --shard. -1 to go on, or the exit status after reporting why the
 * range cannot be had (input is not a file, a read error). */
int cliShardRange(const cliCommonOptions* common, FILE* input, const char* inputName, cliInputRange* range);

/* "ballcast: out of memory" on stderr, noted for the exit status
 * (cli_exitTransient: cliFinalStatus). */
void cliReportNoMemory(void);

/* cliShardRange, and the range set on reader (when not NULL) with
 * cliReader_SetRange: the reader then reads only the shard's records. */
int cliShardReader(const cliCommonOptions* common, FILE* input, const char* inputName, cliReader* reader);

/* cliLoadMesh for intersect, which skips only the triangles of zero area
 * (bcMesh_CountZeroArea): the note counts those. */
bcMesh* cliLoadMeshForIntersect(const char* path, const cliCommonOptions* common, int* status);

/* The name messages give an input path: "<stdin>" for "-". */
const char* cliInputName(const char* path);

/* Open an input to read (in binary): standard input for "-", with a note
 * on stderr (unless quiet) when that is a terminal, so that a command
 * waiting for the keyboard does not look hung. On failure "ballcast: PATH:
 * cannot open: REASON" on stderr and NULL. */
FILE* cliOpenInput(const char* path, bool quiet);

/* Close what cliOpenInput opened; standard input (and NULL) is left alone. */
void cliCloseInput(FILE* input);

#endif
