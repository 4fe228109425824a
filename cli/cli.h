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

/* Run fn(context, begin, end) over [0, count) split into contiguous ranges
 * on up to threads threads (<= 0: one per core). Returns when all are done. */
typedef void cliRangeFcn(void* context, int begin, int end);
void cliParallelFor(int count, int threads, cliRangeFcn* fn, void* context);

/* Seconds on a monotonic clock, for --stats. */
double cliNow(void);

/* Peak resident memory of this process in bytes (0 if unknown). */
long long cliPeakMemory(void);

/* Parse a whole-string number; false if text is not one. */
int cliParseDouble(const char* text, double* value);
int cliParseInt(const char* text, int* value);

int cliCastMain(int argc, char** argv);
/* `ballcast render MESH [RESULTS|TRAJECTORIES]`: an SVG picture (render_cmd.c). */
int cliRenderMain(int argc, char** argv);
/* `ballcast compare EXPECTED ACTUAL...`: cast results against expected ones (compare_cmd.c). */
int cliCompareMain(int argc, char** argv);
/* `ballcast balls [TRAJECTORIES]`: when moving balls first meet each other (balls_cmd.c). */
int cliBallsMain(int argc, char** argv);
/* `ballcast closest MESH [BALLS]`: the closest point of a mesh to each ball (closest_cmd.c). */
int cliClosestMain(int argc, char** argv);
/* `ballcast intersect A.obj [B.obj]`: every pair of intersecting triangles (intersect_cmd.c). */
int cliIntersectMain(int argc, char** argv);
/* `ballcast simulate MESH SCENE`: balls bouncing around a mesh, event by event (simulate_cmd.c). */
int cliSimulateMain(int argc, char** argv);
/* Flush stdout after --help or --version text: cli_exitOk, or on a write
 * error (a full disk, a closed pipe) "ballcast: standard output: write
 * error: ..." on stderr and cli_exitTrouble. */
int cliFinishStdout(void);
/* @@command-declarations@@ */

#endif
