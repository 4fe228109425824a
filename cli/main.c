/* main.c - the ballcast command: global options and the subcommand table.
 *
 * SIGPIPE keeps its default action: when the reader of standard output
 * goes away (`ballcast cast ... | head -1`), the process ends at its next
 * write, silently, as coreutils do. Where SIGPIPE is ignored, the write
 * fails with EPIPE instead, and that ends the run without a message too
 * (cliWriteError), with exit status 2. */
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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || (help && argc == 2)) {
		printUsage(stdout);
		return cliFinalStatus(cliFinishStdout());
	}
	if (strcmp(argv[1], "--version") == 0) {
		puts("ballcast " BC_VERSION_STRING);
		return cliFinalStatus(cliFinishStdout());
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
