/* cli.h - what the subcommands of the ballcast command share. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"
#include "output.h"
#include "trajectories.h"

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

/* cliLoadMesh reading and building on threads threads (-j; <= 0: one per
 * core, as cliLoadMesh does). The mesh does not depend on it. */
bcMesh* cliLoadMeshWithThreads(const char* path, int quiet, int threads);

/* The name messages give an input path: "<stdin>" for "-". */
const char* cliInputName(const char* path);

/* Open an input to read (in binary): standard input for "-", with a note
 * on stderr (unless quiet) when that is a terminal, so that a command
 * waiting for the keyboard does not look hung. On failure "ballcast: PATH:
 * cannot open: REASON" on stderr and NULL. */
FILE* cliOpenInput(const char* path, bool quiet);

/* Close what cliOpenInput opened; standard input (and NULL) is left alone. */
void cliCloseInput(FILE* input);

/* Seconds on a monotonic clock, for --stats. */
double cliNow(void);

/* Peak resident memory of this process in bytes (0 if unknown). */
long long cliPeakMemory(void);

/* Parse a whole-string number; false if text is not one. */
int cliParseDouble(const char* text, double* value);
int cliParseInt(const char* text, int* value);

/* A whole-string finite number >= 0 (--radius, compare's tolerances). */
bool cliParseNonNegative(const char* text, double* value);

/* Parse -i/--input-format: "auto", "json", "ndjson" or "jsonl", "csv";
 * false (format untouched) if unknown. */
bool cliParseInputFormat(const char* text, cliInputFormat* format);

/* Per-record messages shown on standard error unless --max-errors says
 * otherwise: enough to see what is wrong, few enough that a file of bad
 * rows (a CSV without its r column) does not bury the terminal. */
#define CLI_DEFAULT_MAX_ERRORS 20

/* The options the subcommands spell the same way. Zero it for the defaults:
 * standard output, json, input format auto, no radius, a thread per core,
 * CLI_DEFAULT_MAX_ERRORS messages. */
typedef struct cliCommonOptions {
	const char* outputPath;     /* -o FILE; NULL: standard output */
	cliOutputFormat format;     /* -f FMT, or else from the extension of -o FILE */
	bool formatGiven;           /* -f was given */
	cliInputFormat inputFormat; /* -i FMT */
	bool haveRadius;            /* -r R was given ... */
	double radius;              /* ... and is this (>= 0) */
	int threads;                /* -j N (>= 1); 0: one per core */
	bool quiet;                 /* -q */
	bool maxErrorsGiven;        /* --max-errors N was given ... */
	long maxErrors;             /* ... and is this (>= 0) */
} cliCommonOptions;

/* The common options a command takes: a bit each, spelled the same way
 * by every command. --help and --version are always there. */
enum {
	cli_optOutput = 1u << 0,      /* -o, --output FILE */
	cli_optFormat = 1u << 1,      /* -f, --format FMT */
	cli_optInputFormat = 1u << 2, /* -i, --input-format FMT */
	cli_optRadius = 1u << 3,      /* -r, --radius R */
	cli_optThreads = 1u << 4,     /* -j, --threads N */
	cli_optQuiet = 1u << 5,       /* -q, --quiet */
	cli_optMaxErrors = 1u << 6    /* --max-errors N */
};

/* One of a command's own options. */
typedef struct cliOption {
	const char* name; /* its long name, without "--" */
	char letter;      /* its short letter, or 0 for none */
	bool hasValue;
} cliOption;

/* A subcommand's command line, as messages and the parser see it. */
typedef struct cliUsage {
	const char* command;      /* "balls" */
	const char* text;         /* the --help text; its first line is the synopsis */
	unsigned common;          /* the common options it takes (cli_opt... bits) */
	const cliOption* own;     /* its own options, ended by { NULL }; or NULL */
	int minOperands;          /* operands it needs ... */
	int maxOperands;          /* ... and takes (-1: any number) */
	const char* missing[3];   /* the message when 0, 1 or 2 operands are too few */
} cliUsage;

/* Lines of --help texts that commands have alike. */
#define CLI_HELP_OUTPUT                                                                                                \
	"  -o, --output FILE         write here (format from the extension: .json,\n"                                     \
	"                            .ndjson, .csv) instead of standard output\n"
#define CLI_HELP_FORMAT "  -f, --format FMT          json (default), ndjson or csv\n"
#define CLI_HELP_INPUT_FORMAT "  -i, --input-format FMT    auto (default), json, ndjson or csv\n"
#define CLI_HELP_THREADS "  -j, --threads N           threads (default: one per core)\n"
#define CLI_HELP_QUIET_ALL "  -q, --quiet               no notes, progress or summary on standard error\n"
#define CLI_HELP_QUIET "  -q, --quiet               no notes on standard error\n"
#define CLI_HELP_MAX_ERRORS "      --max-errors N        show at most N messages about bad records (default 20)\n"
#define CLI_HELP_HELP                                                                                                  \
	"  -h, --help                this help\n"                                                                         \
	"      --version             the version of ballcast\n"

/* Handle own option k (an index into usage->own) with its value (NULL for
 * a flag). NULL to go on, or the message of a usage error about the value,
 * which is quoted after it ("--approach is le or lt, not"). */
typedef const char* cliOptionFcn(void* context, int k, const char* value);

/* Parse a command line: the common options of usage into common (zeroed
 * first), each own option through handle, --help and --version (their
 * text on stdout), then count the operands, argv[*first .. argc), and
 * refuse an -o naming one of them. Returns -1 to go on, or the exit status
 * to stop with (after a usage error, --help or --version). */
int cliParseArguments(const cliUsage* usage, int argc, char** argv, cliCommonOptions* common,
					  cliOptionFcn* handle, void* context, int* first);

/* Every option a command line takes, as cliOption entries: the common
 * options of usage (their letter, or 0 for --max-errors), then its own,
 * then help (letter 'h') and version. Writes at most capacity of them to
 * options (caller's) and returns how many there are. */
int cliUsage_Options(const cliUsage* usage, cliOption* options, int capacity);

/* Asking a command for its command line instead of running it
 * (completion.c): run(3, { name, (char*)cliUsageQueryMarker, (char*)&query })
 * makes cliParseArguments store the command's usage in query.usage and
 * return 0 at once. The marker is recognised by its address, never by its
 * text, so no command line typed by a user can ask. */
typedef struct cliUsageQuery {
	const cliUsage* usage; /* the command's (static) usage, set by the query */
} cliUsageQuery;
extern const char cliUsageQueryMarker[];

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

/* "ballcast COMMAND: message 'arg'" (no quote when arg is NULL), then the
 * synopsis line "usage: ...   (ballcast COMMAND --help)", on stderr.
 * Returns cli_exitTrouble. */
int cliUsageError(const cliUsage* usage, const char* message, const char* arg);

/* When output (an output path; NULL or "-" for stdout) and input name the
 * same regular file: a usage error "OPTION would overwrite the input
 * 'INPUT'" and cli_exitTrouble, before anything is written. Else -1. */
int cliRefuseOverwrite(const cliUsage* usage, const char* output, const char* option, const char* input);

/* The messages about bad records of one input: at most a limit of them,
 * then, at the end, one line counting the rest. */
typedef struct cliRecordLog {
	const char* name; /* the input, as messages name it */
	long limit;       /* messages to show at most */
	long shown;
	long hidden;
	bool quiet;       /* -q: none at all */
	struct cliProgress* progress; /* a progress line to erase before a message, or NULL */
} cliRecordLog;

/* A log for the input name (not copied) with the limits of options;
 * progress (or NULL) is the run's progress line. */
cliRecordLog cliRecordLog_Make(const char* name, const cliCommonOptions* options, struct cliProgress* progress);

/* "ballcast: FILE:LINE:COLUMN: record N: PROBLEM" on stderr, while under
 * the limit. N counts records from 1, as lines are counted. The place is
 * that of the record's own error when problem is it, else where the record
 * starts. */
void cliRecordLog_Add(cliRecordLog* log, const cliRecord* record, const char* problem);

/* The same for a record known by its 0-based index and the place of its
 * problem. */
void cliRecordLog_AddAt(cliRecordLog* log, long index, long line, long column, const char* problem);

/* After the last record: "ballcast: FILE: N more bad records not shown
 * (--max-errors N shows more)" when some were held back. */
void cliRecordLog_Finish(cliRecordLog* log);


/* How far a run has come, on standard error when it is a terminal (and
 * not -q): a line redrawn in place ("45%, 4500 trajectories, 3100 hits,
 * about 3 s left"), never while the results go to that same terminal,
 * and a summary line at the end ("10000 trajectories, 6890 hits, 0 errors
 * in 1.20 s"). */
typedef struct cliProgress {
	const char* recordNoun; /* "trajectories" */
	const char* hitNoun;    /* "hits" */
	bool lines;             /* progress lines are drawn */
	bool summary;           /* the summary line is written */
	bool shown;             /* a progress line is on the terminal */
	double started;
	double last;            /* when the line was last drawn */
} cliProgress;

/* Start timing a run that writes where options say. */
void cliProgress_Start(cliProgress* progress, const cliCommonOptions* options, const char* recordNoun,
					   const char* hitNoun);

/* Redraw the line (at most every half second): counts so far (hits < 0:
 * not known yet), and the fraction of the input read (0 to 1, or < 0 when
 * its size is unknown) for a percentage and the time left. */
void cliProgress_Update(cliProgress* progress, long records, long hits, double fraction);

/* Erase the line, so that a message can follow. */
void cliProgress_Clear(cliProgress* progress);

/* Erase the line and write the summary. */
void cliProgress_Finish(cliProgress* progress, long records, long hits, long errors);

/* Check a trajectory record and take its path: p0, p1, and r or else
 * --radius (options). Returns NULL, or the problem: the record's own error,
 * "missing p0", "missing p1" or "missing r (...)". A throw to cast is
 * checked by cliCheckCastRecord (answer.h), which adds the range. */
const char* cliCheckTrajectory(const cliRecord* record, const cliCommonOptions* options, bcVec3* p0, bcVec3* p1,
							   double* radius);

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
/* Flush stdout after --help or --version text: cli_exitOk, or on a write
 * error (a full disk, a closed pipe) "ballcast: standard output: write
 * error: ..." on stderr and cli_exitTrouble. */
int cliFinishStdout(void);

#endif
