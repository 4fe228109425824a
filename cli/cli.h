/* cli.h - the ballcast command itself: its exit statuses, its table of
 * subcommands and the entry point of each. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stdbool.h>

#include "ballcast.h"

/* Exit statuses (documented in the man page, EXIT STATUS). 1 and 2 are
 * deterministic: the same run fails the same way again. 75 is for what a
 * scheduler may retry (sysexits.h's EX_TEMPFAIL): a system resource that
 * failed or ran out. A command killed by signal n is 128 + n in a shell. */
enum {
	cli_exitOk = 0,         /* everything answered */
	cli_exitRecords = 1,    /* some records were bad; the rest were answered */
	cli_exitTrouble = 2,    /* usage, syntax, unreadable or missing input, unwritable output path */
	cli_exitTransient = 75  /* an I/O error (EIO, a full disk, ...) or out of memory: try again */
};

/* The status a command ends with: cli_exitTrouble becomes
 * cli_exitTransient when a failure reported on the way was transient (an
 * I/O error such as EIO or a full disk, out of memory: common.c's
 * cliNoteFailure), so that a scheduler retries only what may pass. */
int cliFinalStatus(int status);

/* Remember that a failure was reported: errno code (0 for none), or out of
 * memory. Thread-safe. */
void cliNoteFailure(int code, bool noMemory);

/* Is errno code a failure a later try may not meet (EIO, ENOSPC, ENOMEM,
 * a network file system's ESTALE or timeout ...)? */
bool cliIsTransientError(int code);

/* The exit status an error calls for: cli_exitTransient for out of memory
 * and a transient I/O error (cliIsTransientError), else cli_exitTrouble. */
int cliExitStatusOf(const bcError* error);

/* A subcommand of ballcast: main.c's table. */
typedef struct cliCommand {
	const char* name;
	int (*run)(int argc, char** argv);
	const char* summary;
} cliCommand;

/* ballcast completion bash|zsh|fish: print on stdout the shell's
 * completion script for the count commands (main.c's table, which holds
 * completion itself), their options and their values (completion.c). */
int cliCompletionMain(int argc, char** argv, const cliCommand* commands, int count);

/* `ballcast cast MESH [TRAJECTORIES]`: where each ball first touches the mesh (cast_cmd.c; its
 * answer-deciding settings are in answer.h). */
int cliCastMain(int argc, char** argv);
/* `ballcast render MESH [RESULTS|TRAJECTORIES]`: an SVG picture (render_cmd.c). */
int cliRenderMain(int argc, char** argv);
/* `ballcast compare EXPECTED ACTUAL...`: cast results against expected ones (compare_cmd.c). */
int cliCompareMain(int argc, char** argv);
/* `ballcast grade MESH TRAJECTORIES SUBMISSION...`: cast, grade, name the mistakes (grade_cmd.c). */
int cliGradeMain(int argc, char** argv);
/* `ballcast balls [TRAJECTORIES]`: when moving balls first meet each other (balls_cmd.c). */
int cliBallsMain(int argc, char** argv);
/* `ballcast closest MESH [BALLS]`: the closest point of a mesh to each ball (closest_cmd.c). */
int cliClosestMain(int argc, char** argv);
/* `ballcast intersect A.obj [B.obj]`: every pair of intersecting triangles (intersect_cmd.c). */
int cliIntersectMain(int argc, char** argv);
/* `ballcast simulate MESH SCENE`: balls bouncing around a mesh, event by event (simulate_cmd.c). */
int cliSimulateMain(int argc, char** argv);

#endif
