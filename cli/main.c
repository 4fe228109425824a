/* main.c - the ballcast command: global options and the subcommand table.
 *
 * SIGPIPE keeps its default action: when the reader of standard output
 * goes away (`ballcast cast ... | head -1`), the process ends at its next
 * write, silently, as coreutils do. Where SIGPIPE is ignored, the write
 * fails with EPIPE instead, and that ends the run without a message too
 * (cliWriteError), with exit status 2. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "output.h"

static int completionMain(int argc, char** argv);

static const cliCommand commands[] = {
	{ "cast", cliCastMain, "where each moving ball first touches a mesh" },
	{ "render", cliRenderMain, "draw a mesh and throws as SVG" },
	{ "compare", cliCompareMain, "compare cast results against expected ones" },
	{ "grade", cliGradeMain, "cast the answers, grade students' files, name their mistakes" },
	{ "balls", cliBallsMain, "when moving balls first meet each other" },
	{ "closest", cliClosestMain, "the closest point of a mesh to each ball" },
	{ "intersect", cliIntersectMain, "every pair of intersecting triangles" },
	{ "simulate", cliSimulateMain, "bounce balls around a mesh, event by event" },
	{ "completion", completionMain, "print a shell completion script (bash, zsh or fish)" },
};

#define CLI_COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* completion writes its script from the table above. */
static int completionMain(int argc, char** argv)
{
	return cliCompletionMain(argc, argv, commands, (int)CLI_COMMAND_COUNT);
}


static void printUsage(FILE* f)
{
	fputs("usage: ballcast COMMAND [OPTIONS] ARGS...\n"
		  "       ballcast help [COMMAND] | --help | --version\n"
		  "       ballcast completion bash|zsh|fish   (a shell completion script)\n\ncommands:\n",
		  f);
	for (size_t i = 0; i < CLI_COMMAND_COUNT; ++i) {
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	}
	fputs("\nexamples:\n"
		  "  ballcast cast samples/room.obj samples/throws.json\n"
		  "  ballcast cast --format csv -r 0.1 room.obj throws.csv > hits.csv\n"
		  "\n'ballcast help COMMAND' describes a command; man ballcast has it all.\n",
		  f);
}

/* One line for a name that is no command, and a hint. */
static int unknownCommand(const char* name)
{
	fprintf(stderr, "ballcast: unknown command '%s'\n", name);
	const char* closest = NULL;
	size_t best = CLI_SUGGEST_EDITS + 1;
	for (size_t i = 0; i < CLI_COMMAND_COUNT; ++i) {
		size_t d = cliEditDistance(name, strlen(name), commands[i].name);
		if (d < best) {
			best = d;
			closest = commands[i].name;
		}
	}
	if (closest != NULL) {
		fprintf(stderr, "ballcast: did you mean '%s'? ('ballcast --help' lists the commands)\n", closest);
	} else {
		fputs("ballcast: 'ballcast --help' lists the commands\n", stderr);
	}
	return cli_exitTrouble;
}

/* What a word before the command asks for: --help (or -h) and --version,
 * each also by any unambiguous prefix ("--ver", "--h"), as getopt_long
 * takes a command's long options. */
typedef enum cliGlobalOption {
	cli_globalNone = 0,
	cli_globalHelp,
	cli_globalVersion
} cliGlobalOption;

static cliGlobalOption globalOption(const char* arg)
{
	size_t n = strlen(arg);
	if (strcmp(arg, "-h") == 0) {
		return cli_globalHelp;
	}
	/* "--" alone begins both, and means nothing here */
	if (n < 3 || strncmp(arg, "--", 2) != 0) {
		return cli_globalNone;
	}
	if (n <= strlen("--help") && strncmp(arg, "--help", n) == 0) {
		return cli_globalHelp;
	}
	if (n <= strlen("--version") && strncmp(arg, "--version", n) == 0) {
		return cli_globalVersion;
	}
	return cli_globalNone;
}

/* An option before the command that is neither: one line and the hint. */
static int unknownGlobalOption(const char* arg)
{
	fprintf(stderr, "ballcast: unknown option '%s' (before a command: --help or --version)\n", arg);
	fputs("ballcast: 'ballcast --help' lists the commands\n", stderr);
	return cli_exitTrouble;
}

static const cliCommand* findCommand(const char* name)
{
	for (size_t i = 0; i < CLI_COMMAND_COUNT; ++i) {
		if (strcmp(name, commands[i].name) == 0) {
			return commands + i;
		}
	}
	return NULL;
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		printUsage(stderr);
		return cli_exitTrouble;
	}
	bool help = strcmp(argv[1], "help") == 0;
	cliGlobalOption global = globalOption(argv[1]);
	/* `ballcast help`, and `ballcast help help` (help describing itself) */
	if (global == cli_globalHelp ||
		(help && (argc == 2 || strcmp(argv[2], "help") == 0 || globalOption(argv[2]) == cli_globalHelp))) {
		printUsage(stdout);
		return cliFinalStatus(cliFinishStdout());
	}
	if (global == cli_globalVersion) {
		puts("ballcast " BC_VERSION_STRING);
		return cliFinalStatus(cliFinishStdout());
	}
	if (argv[1][0] == '-' && argv[1][1] != '\0') {
		return unknownGlobalOption(argv[1]);
	}
	const char* name = help ? argv[2] : argv[1];
	const cliCommand* command = findCommand(name);
	if (command == NULL) {
		return unknownCommand(name);
	}
	if (help) {
		/* `ballcast help cast` is `ballcast cast --help` */
		char* helpArgv[] = { argv[2], (char*)"--help", NULL };
		return cliFinalStatus(command->run(2, helpArgv));
	}
	return cliFinalStatus(command->run(argc - 1, argv + 1));
}
