/* completion.c - ballcast completion bash|zsh|fish: a shell completion
 * script written from the tables the command line is parsed with: main.c's
 * commands, each command's options (cliUsage_Options, asked of the command
 * itself with a cliUsageQuery), and below, the values of the options that
 * take a word from a fixed list. Operands complete as file names, except
 * completion's shell and help's command. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "output.h"

/* The values an option takes from a fixed list, by its long name, in any
 * command that has it; tests/cli/completion.bats checks that each command
 * accepts each of them. */
typedef struct cliOptionValues {
	const char* option;
	const char* values; /* separated by blanks */
} cliOptionValues;

static const cliOptionValues optionValues[] = {
	{ "format", "json ndjson csv" },
	{ "input-format", "auto json ndjson jsonl csv" },
	{ "mesh-format", "auto obj stl ply off" },
	{ "normal", "contact triangle average" },
	{ "approach", "le lt" },
	{ "initial-overlap", "report ignore" },
	{ "convention", "cs121" },
	{ "method", "exact discrete" },
	{ "report", "text json csv html" },
	{ "up", "x y z" },
	{ "approx-rule", "either one-way" },
};

/* The options whose value is a file name. */
static const char* const fileOptions[] = { "output", "compare", "mesh", "positions" };

/* The shells, completion's operand. */
#define CLI_COMPLETION_SHELLS "bash zsh fish"

/* More options than any command has. */
enum { cli_maxOptions = 64 };

static const cliUsage completionUsage = {
	"completion",
	"usage: ballcast completion bash|zsh|fish\n"
	"\n"
	"Print a completion script for the shell: the commands, their options,\n"
	"the values of options such as --format and --normal, file names for the\n"
	"rest. make install puts them where the shells look; or load one now:\n"
	"  source <(ballcast completion bash)\n"
	"  source <(ballcast completion zsh)      (after compinit)\n"
	"  ballcast completion fish | source\n"
	"\n"
	"options:\n" CLI_HELP_HELP,
	0,
	NULL,
	1,
	1,
	{ "missing the shell: bash, zsh or fish", NULL, NULL },
};

/* One command's name, summary and options. */
typedef struct cliCompletionCommand {
	const char* name;
	const char* summary;
	cliOption options[cli_maxOptions];
	int optionCount;
	const char* operands; /* words for the operands, or NULL: file names */
} cliCompletionCommand;

static const char* valuesOf(const char* option)
{
	for (size_t i = 0; i < sizeof optionValues / sizeof optionValues[0]; ++i) {
		if (strcmp(optionValues[i].option, option) == 0) {
			return optionValues[i].values;
		}
	}
	return NULL;
}

static bool takesFile(const char* option)
{
	for (size_t i = 0; i < sizeof fileOptions / sizeof fileOptions[0]; ++i) {
		if (strcmp(fileOptions[i], option) == 0) {
			return true;
		}
	}
	return false;
}

/* text in single quotes for sh, bash and zsh: ' becomes '\'' */
static void putQuoted(FILE* f, const char* text)
{
	fputc('\'', f);
	for (const char* c = text; *c != 0; ++c) {
		if (*c == '\'') {
			fputs("'\\''", f);
		} else {
			fputc(*c, f);
		}
	}
	fputc('\'', f);
}

/* text in single quotes for fish: ' and \ escaped */
static void putFishQuoted(FILE* f, const char* text)
{
	fputc('\'', f);
	for (const char* c = text; *c != 0; ++c) {
		if (*c == '\'' || *c == '\\') {
			fputc('\\', f);
		}
		fputc(*c, f);
	}
	fputc('\'', f);
}

/* The command names, separated by blanks. */
static void putNames(FILE* f, const cliCompletionCommand* commands, int count)
{
	for (int i = 0; i < count; ++i) {
		fprintf(f, "%s%s", i > 0 ? " " : "", commands[i].name);
	}
}

static void writeBash(FILE* f, const cliCompletionCommand* commands, int count)
{
	fputs("# bash completion for ballcast (written by 'ballcast completion bash')\n"
		  "_ballcast()\n"
		  "{\n"
		  "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
		  "\tlocal opts='' values='' operands='' files=''\n"
		  "\tCOMPREPLY=()\n"
		  "\t# --opt=value: bash splits it at '='\n"
		  "\tif [[ $cur == = ]]; then\n"
		  "\t\tcur=''\n"
		  "\telif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then\n"
		  "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
		  "\tfi\n"
		  "\tif [[ $COMP_CWORD -eq 1 ]]; then\n"
		  "\t\tCOMPREPLY=($(compgen -W '",
		  f);
	putNames(f, commands, count);
	fputs(" help --help -h --version' -- \"$cur\"))\n"
		  "\t\treturn 0\n"
		  "\tfi\n"
		  "\tcase ${COMP_WORDS[1]} in\n"
		  "\thelp)\n"
		  "\t\t[[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W '",
		  f);
	putNames(f, commands, count);
	fputs("' -- \"$cur\"))\n"
		  "\t\treturn 0\n"
		  "\t\t;;\n",
		  f);
	for (int i = 0; i < count; ++i) {
		const cliCompletionCommand* c = commands + i;
		fprintf(f, "\t%s)\n\t\topts='", c->name);
		for (int k = 0; k < c->optionCount; ++k) {
			fprintf(f, "%s--%s", k > 0 ? " " : "", c->options[k].name);
			if (c->options[k].letter != 0) {
				fprintf(f, " -%c", c->options[k].letter);
			}
		}
		fputs("'\n", f);
		if (c->operands != NULL) {
			fprintf(f, "\t\toperands='%s'\n", c->operands);
		}
		fputs("\t\tcase $prev in\n", f);
		for (int k = 0; k < c->optionCount; ++k) {
			const cliOption* o = c->options + k;
			if (!o->hasValue) {
				continue;
			}
			fputs("\t\t", f);
			if (o->letter != 0) {
				fprintf(f, "-%c|", o->letter);
			}
			fprintf(f, "--%s) ", o->name);
			const char* values = valuesOf(o->name);
			if (values != NULL) {
				fprintf(f, "values='%s' ;;\n", values);
			} else if (takesFile(o->name)) {
				fputs("files=1 ;;\n", f);
			} else {
				fputs("return 0 ;; # a value to type\n", f);
			}
		}
		fputs("\t\tesac\n\t\t;;\n", f);
	}
	fputs("\t*)\n"
		  "\t\treturn 0\n"
		  "\t\t;;\n"
		  "\tesac\n"
		  "\tif [[ -n $values ]]; then\n"
		  "\t\tCOMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n"
		  "\telif [[ -z $files && $cur == -* ]]; then\n"
		  "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
		  "\telif [[ -z $files && -n $operands ]]; then\n"
		  "\t\tCOMPREPLY=($(compgen -W \"$operands\" -- \"$cur\"))\n"
		  "\telse\n"
		  "\t\tcompopt -o filenames 2>/dev/null\n"
		  "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		  "\tfi\n"
		  "\treturn 0\n"
		  "}\n"
		  "complete -F _ballcast ballcast\n",
		  f);
}

/* One option as an _arguments spec: '(-f --format)'{-f+,--format=}':format:(json ndjson csv)' */
static void putZshOption(FILE* f, const cliOption* o)
{
	const char* values = valuesOf(o->name);
	char action[256];
	if (!o->hasValue) {
		action[0] = 0;
	} else if (values != NULL) {
		snprintf(action, sizeof action, ":%s:(%s)", o->name, values);
	} else if (takesFile(o->name)) {
		snprintf(action, sizeof action, ":%s:_files", o->name);
	} else {
		snprintf(action, sizeof action, ":%s: ", o->name);
	}
	const char* longSuffix = o->hasValue ? "=" : "";
	if (o->letter != 0) {
		fprintf(f, " \\\n\t\t\t'(-%c --%s)'{-%c%s,--%s%s}", o->letter, o->name, o->letter, o->hasValue ? "+" : "",
				o->name, longSuffix);
		if (action[0] != 0) {
			putQuoted(f, action);
		}
	} else {
		char spec[320];
		snprintf(spec, sizeof spec, "--%s%s%s", o->name, longSuffix, action);
		fputs(" \\\n\t\t\t", f);
		putQuoted(f, spec);
	}
}

/* name:summary for _describe, with the colons of the summary escaped */
static void putZshCommand(FILE* f, const cliCompletionCommand* c)
{
	char entry[512];
	size_t n = (size_t)snprintf(entry, sizeof entry, "%s:", c->name);
	for (const char* s = c->summary; *s != 0 && n + 3 < sizeof entry; ++s) {
		if (*s == ':') {
			entry[n++] = '\\';
		}
		entry[n++] = *s;
	}
	entry[n] = 0;
	fputs("\t\t", f);
	putQuoted(f, entry);
	fputc('\n', f);
}

static void writeZsh(FILE* f, const cliCompletionCommand* commands, int count)
{
	fputs("#compdef ballcast\n"
		  "# zsh completion for ballcast (written by 'ballcast completion zsh')\n"
		  "_ballcast()\n"
		  "{\n"
		  "\tlocal -a commands\n"
		  "\tcommands=(\n",
		  f);
	for (int i = 0; i < count; ++i) {
		putZshCommand(f, commands + i);
	}
	fputs("\t\t'help:describe a command'\n"
		  "\t)\n"
		  "\tif (( CURRENT == 2 )); then\n"
		  "\t\t_describe -t commands 'ballcast command' commands\n"
		  "\t\treturn\n"
		  "\tfi\n"
		  "\tlocal command=${words[2]}\n"
		  "\tshift words\n"
		  "\t(( CURRENT-- ))\n"
		  "\tcase $command in\n"
		  "\thelp)\n"
		  "\t\t_describe -t commands 'ballcast command' commands\n"
		  "\t\t;;\n",
		  f);
	for (int i = 0; i < count; ++i) {
		const cliCompletionCommand* c = commands + i;
		fprintf(f, "\t%s)\n\t\t_arguments -s -S", c->name);
		for (int k = 0; k < c->optionCount; ++k) {
			putZshOption(f, c->options + k);
		}
		if (c->operands != NULL) {
			fprintf(f, " \\\n\t\t\t'1:operand:(%s)'\n", c->operands);
		} else {
			fputs(" \\\n\t\t\t'*:file:_files'\n", f);
		}
		fputs("\t\t;;\n", f);
	}
	fputs("\tesac\n"
		  "}\n"
		  "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
		  "\t_ballcast \"$@\"\n"
		  "else\n"
		  "\tcompdef _ballcast ballcast\n"
		  "fi\n",
		  f);
}

static void writeFish(FILE* f, const cliCompletionCommand* commands, int count)
{
	fputs("# fish completion for ballcast (written by 'ballcast completion fish')\n"
		  "complete -c ballcast -f\n",
		  f);
	for (int i = 0; i < count; ++i) {
		fprintf(f, "complete -c ballcast -n __fish_use_subcommand -a %s -d ", commands[i].name);
		putFishQuoted(f, commands[i].summary);
		fputc('\n', f);
	}
	fputs("complete -c ballcast -n __fish_use_subcommand -a help -d 'describe a command'\n"
		  "complete -c ballcast -n '__fish_seen_subcommand_from help' -a '",
		  f);
	putNames(f, commands, count);
	fputs("'\n", f);
	for (int i = 0; i < count; ++i) {
		const cliCompletionCommand* c = commands + i;
		char when[128];
		snprintf(when, sizeof when, "complete -c ballcast -n '__fish_seen_subcommand_from %s'", c->name);
		for (int k = 0; k < c->optionCount; ++k) {
			const cliOption* o = c->options + k;
			fputs(when, f);
			if (o->letter != 0) {
				fprintf(f, " -s %c", o->letter);
			}
			fprintf(f, " -l %s", o->name);
			const char* values = valuesOf(o->name);
			if (!o->hasValue) {
				fputc('\n', f);
			} else if (values != NULL) {
				fprintf(f, " -x -a '%s'\n", values);
			} else if (takesFile(o->name)) {
				fputs(" -r -F\n", f);
			} else {
				fputs(" -x\n", f);
			}
		}
		if (c->operands != NULL) {
			fprintf(f, "%s -x -a '%s'\n", when, c->operands);
		} else {
			fprintf(f, "%s -F\n", when);
		}
	}
}

int cliCompletionMain(int argc, char** argv, const cliCommand* commands, int count)
{
	cliCommonOptions common;
	int first = 0;
	int status = cliParseArguments(&completionUsage, argc, argv, &common, NULL, NULL, &first);
	if (status >= 0) {
		return status;
	}
	const char* shell = argv[first];
	if (strcmp(shell, "bash") != 0 && strcmp(shell, "zsh") != 0 && strcmp(shell, "fish") != 0) {
		return cliUsageError(&completionUsage, "the shell is bash, zsh or fish, not", shell);
	}
	enum { cli_maxCommands = 16 };
	cliCompletionCommand table[cli_maxCommands];
	int n = 0;
	for (int i = 0; i < count && n < cli_maxCommands; ++i) {
		cliUsageQuery query = { NULL };
		char* queryArgv[] = { (char*)commands[i].name, (char*)cliUsageQueryMarker, (char*)&query, NULL };
		if (commands[i].run(3, queryArgv) != 0 || query.usage == NULL) {
			continue; /* a command that parses no options itself: none to offer */
		}
		cliCompletionCommand* c = table + n++;
		c->name = commands[i].name;
		c->summary = commands[i].summary;
		int options = cliUsage_Options(query.usage, c->options, cli_maxOptions);
		c->optionCount = options < cli_maxOptions ? options : cli_maxOptions;
		c->operands = strcmp(c->name, completionUsage.command) == 0 ? CLI_COMPLETION_SHELLS : NULL;
	}
	if (strcmp(shell, "bash") == 0) {
		writeBash(stdout, table, n);
	} else if (strcmp(shell, "zsh") == 0) {
		writeZsh(stdout, table, n);
	} else {
		writeFish(stdout, table, n);
	}
	return cliFinishStdout();
}
