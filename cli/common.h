/* common.h - the meshes and inputs a command opens, and how it reports
 * what is wrong with them. */
#ifndef BC_COMMON_H
#define BC_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"
#include "options.h"
#include "records.h"

/* "ballcast: FILE:LINE:COLUMN: message" (or "ballcast: FILE: message" when
 * the error has no position) on stderr. */
void cliReportError(const char* file, const bcError* error);

/* Load a mesh, reporting any error; NULL on failure. Reports degenerate
 * triangles once on stderr unless quiet. */
bcMesh* cliLoadMesh(const char* path, int quiet);

/* cliLoadMesh reading and building on threads threads (-j; <= 0: one per
 * core, as cliLoadMesh does). The mesh does not depend on it. */
bcMesh* cliLoadMeshWithThreads(const char* path, int quiet, int threads);

/* cliLoadMesh for intersect, which skips only the triangles of zero area
 * (bcMesh_CountZeroArea): the note counts those. */
bcMesh* cliLoadMeshForIntersect(const char* path, int quiet);

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
