/* main.c - the ballcast command: global options and the subcommand table. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct cliCommand {
	const char* name;
	int (*run)(int argc, char** argv);
	const char* summary;
} cliCommand;

static const cliCommand commands[] = {
	{ "cast", cliCastMain, "where each moving ball first touches a mesh" },
	{ "render", cliRenderMain, "draw a mesh and throws as SVG" },
	{ "compare", cliCompareMain, "compare cast results against expected ones" },
	{ "balls", cliBallsMain, "when moving balls first meet each other" },
	{ "closest", cliClosestMain, "the closest point of a mesh to each ball" },
	{ "intersect", cliIntersectMain, "every pair of intersecting triangles" },
	{ "simulate", cliSimulateMain, "bounce balls around a mesh, event by event" },
};

static void printUsage(FILE* f)
{
	fputs("usage: ballcast COMMAND [OPTIONS] ARGS...\n"
		  "       ballcast --help | --version\n\ncommands:\n",
		  f);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	}
	fputs("\nexamples:\n"
		  "  ballcast cast samples/room.obj samples/throws.json\n"
		  "  ballcast cast --format csv -r 0.1 room.obj throws.csv > hits.csv\n"
		  "\n'ballcast COMMAND --help' describes a command; man ballcast has it all.\n",
		  f);
}

int main(int argc, char** argv)
{
	/* A closed pipe is a write error with a message (cliFinishStdout,
	 * cliOutput), not a silent death by SIGPIPE, whatever the command. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		printUsage(stderr);
		return cli_exitTrouble;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		printUsage(stdout);
		return cliFinishStdout();
	}
	if (strcmp(argv[1], "--version") == 0) {
		puts("ballcast " BC_VERSION_STRING);
		return cliFinishStdout();
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			return commands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "ballcast: unknown command '%s'\n", argv[1]);
	printUsage(stderr);
	return cli_exitTrouble;
}
