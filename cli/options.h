/* options.h - the command line of a subcommand: the options every command
 * spells the same way, the command's own options, --help and --version,
 * its operands, and the rule that -o never overwrites an input. */
#ifndef BC_OPTIONS_H
#define BC_OPTIONS_H

#include <stdbool.h>

#include "output.h"
#include "records.h"

/* Parse a whole-string number; false if text is not one. */
int cliParseDouble(const char* text, double* value);
int cliParseInt(const char* text, int* value);

/* A whole-string finite number >= 0 (--radius, compare's tolerances). */
bool cliParseNonNegative(const char* text, double* value);

/* Parse --mesh-format: "auto", "obj", "stl", "ply" or "off"; false (format
 * untouched) if unknown. */
bool cliParseMeshFormat(const char* text, bcMeshFormat* format);

/* Parse --shard's K/N (0 <= K < N, N >= 1); false if malformed. */
bool cliParseShard(const char* text, long* index, long* count);

/* Parse -i/--input-format: "auto", "json", "ndjson" or "jsonl", "csv";
 * false (format untouched) if unknown. */
bool cliParseInputFormat(const char* text, cliInputFormat* format);

/* The k-th name -i/--input-format takes (from k = 0, the parser's table),
 * or NULL past the last. */
const char* cliInputFormatName(int k);

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
	bcMeshFormat meshFormat;    /* --mesh-format FMT; bc_meshAuto: by extension and first bytes */
	long shardIndex;            /* --shard K/N: K (0-based, 0 .. N-1) ... */
	long shardCount;            /* ... and N (>= 1); 0: no --shard */
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
	cli_optMaxErrors = 1u << 6,   /* --max-errors N */
	cli_optMeshFormat = 1u << 7,  /* --mesh-format FMT */
	cli_optShard = 1u << 8        /* --shard K/N */
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
#define CLI_HELP_MESH_FORMAT "      --mesh-format FMT     obj, stl, ply, off (default auto: by extension)\n"
#define CLI_HELP_SHARD                                                                                                 \
	"      --shard K/N           only task K of N (0-based): records starting in\n"                                   \
	"                            the K-th of N byte ranges of the input file\n"
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
 * return 0 at once. With query.value set, it first hands that value to the
 * command's own option query.option (an index into usage->own; the
 * command's settings as a run starts with them) and stores what its
 * handler said in query.refusal: NULL when the option takes the value,
 * else the message refusing it (for an option taking a word from a list,
 * the message names the words). The marker is recognised by its address,
 * never by its text, so no command line typed by a user can ask. */
typedef struct cliUsageQuery {
	const cliUsage* usage; /* the command's (static) usage, set by the query */
	int option;            /* with value: the own option asked about ... */
	const char* value;     /* ... and the value offered it, or NULL */
	const char* refusal;   /* set when value is: the handler's answer */
} cliUsageQuery;
extern const char cliUsageQueryMarker[];

/* How many edits (insert, delete, replace, swap two neighbours) a mistyped
 * command or long option may be from a real one to be suggested: "fromat"
 * is one from "format", "cats" one from "cast"; more suggests nonsense. */
#define CLI_SUGGEST_EDITS 2

/* The optimal string alignment distance between a[0 .. n) and b, each
 * under 32 bytes (SIZE_MAX when longer). */
size_t cliEditDistance(const char* a, size_t n, const char* b);

/* "ballcast COMMAND: message 'arg'" (no quote when arg is NULL), then the
 * synopsis line "usage: ...   (ballcast COMMAND --help)", on stderr.
 * Returns cli_exitTrouble. */
int cliUsageError(const cliUsage* usage, const char* message, const char* arg);

/* When output (an output path; NULL or "-" for stdout) and input name the
 * same regular file: a usage error "OPTION would overwrite the input
 * 'INPUT'" and cli_exitTrouble, before anything is written. Else -1. */
int cliRefuseOverwrite(const cliUsage* usage, const char* output, const char* option, const char* input);

#endif
