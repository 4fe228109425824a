/* cli.h - what the subcommands of the ballcast command share. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stdio.h>

#include "ballcast.h"

/* Exit statuses (documented in the man page). */
enum {
	cli_exitOk = 0,      /* everything answered */
	cli_exitRecords = 1, /* some records were bad; the rest were answered */
	cli_exitTrouble = 2  /* usage, syntax, unreadable input or unwritable output */
};

/* "ballcast: FILE:LINE:COLUMN: message" (or "ballcast: FILE: message" when
 * the error has no position) on stderr. */
void cliReportError(const char* file, const bcError* error);

/* Load a mesh, reporting any error; NULL on failure. Reports degenerate
 * triangles once on stderr unless quiet. */
bcMesh* cliLoadMesh(const char* path, int quiet);

/* Parse a whole-string number; false if text is not one. */
int cliParseDouble(const char* text, double* value);
int cliParseInt(const char* text, int* value);

int cliCastMain(int argc, char** argv);

#endif
