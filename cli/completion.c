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

/* The words an option takes from a fixed list come from the parsers
 * themselves: for -f, -i and --mesh-format their tables
 * (cliOutputFormatName, cliInputFormatName, bcMeshFormatName); for a command's own option, its handler, asked
 * through a cliUsageQuery: offered a word that is none (CLI_NOT_A_WORD),
 * it answers with its message, which names the words it takes ("--report
 * is text, json, csv, html, junit or gradescope, not"); each word of that
 * message the handler then takes is a value. An option whose handler
 * takes any word (or names none it takes) has no list: a value to type.
 * tests/cli/completion.bats checks that each command takes each value
 * offered, and that every word a refusal names is offered. */
#define CLI_NOT_A_WORD "\x01"

/* The words of one option, separated by blanks. */
typedef struct cliWords {
	char text[512];
} cliWords;

/* Append word (n bytes) unless it is there already. */
static void addWord(cliWords* words, const char* word, size_t n)
{
	for (const char* at = words->text; *at != '\0';) {
		size_t m = strcspn(at, " ");
		if (m == n && strncmp(at, word, n) == 0) {
			return;
		}
		at += m + (at[m] == ' ');
	}
	size_t used = strlen(words->text);
	if (used + n + 2 <= sizeof words->text) {
		if (used > 0) {
			words->text[used++] = ' ';
		}
		memcpy(words->text + used, word, n);
		words->text[used + n] = '\0';
	}
}

/* What command's own option k says of value (NULL: it takes it), through
 * the usage query; *asked false when the command could not be asked. */
static const char* askOption(const cliCommand* command, int k, const char* value, bool* asked)
{
	cliUsageQuery query = { NULL, k, value, NULL };
	char* queryArgv[] = { (char*)command->name, (char*)cliUsageQueryMarker, (char*)&query, NULL };
	*asked = command->run(3, queryArgv) == 0 && query.usage != NULL;
	return query.refusal;
}

/* The words own option k of command takes from a list, into words
 * (empty when it takes no fixed list). */
static void ownOptionWords(const cliCommand* command, int k, cliWords* words)
{
	words->text[0] = '\0';
	bool asked = false;
	const char* refusal = askOption(command, k, CLI_NOT_A_WORD, &asked);
	if (!asked || refusal == NULL) {
		return;
	}
	char message[256];
	snprintf(message, sizeof message, "%s", refusal);
	for (const char* at = message; *at != '\0';) {
		size_t skip = strcspn(at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
		at += skip;
		size_t n = strspn(at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
		if (n == 0) {
			break;
		}
		char word[64];
		/* not an option's name ("--report") */
		if (n < sizeof word && (at == message || at[-1] != '-')) {
			memcpy(word, at, n);
			word[n] = '\0';
			if (askOption(command, k, word, &asked) == NULL && asked) {
				addWord(words, word, n);
			}
		}
		at += n;
	}
}

/* The k-th name cliParseMeshFormat takes (the library's bcMeshFormat
 * names), NULL past the last. */
static const char* meshFormatName(int k)
{
	return k >= bc_meshAuto && k <= bc_meshOff ? bcMeshFormatName((bcMeshFormat)k) : NULL;
}

/* The words common option name takes from a list, into words. */
static void commonOptionWords(const char* name, cliWords* words)
{
	words->text[0] = '\0';
	const char* (*table)(int) = strcmp(name, "format") == 0		  ? cliOutputFormatName
							   : strcmp(name, "input-format") == 0 ? cliInputFormatName
							   : strcmp(name, "mesh-format") == 0  ? meshFormatName
																   : NULL;
	for (int k = 0; table != NULL && table(k) != NULL; ++k) {
		addWord(words, table(k), strlen(table(k)));
	}
}

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

/* One command's name, summary and options, with the words each option
 * takes from a list (empty for none). */
typedef struct cliCompletionCommand {
	const char* name;
	const char* summary;
	cliOption options[cli_maxOptions];
	cliWords values[cli_maxOptions];
	int optionCount;
	const char* operands; /* words for the operands, or NULL: file names */
} cliCompletionCommand;

static const char* valuesOf(const cliCompletionCommand* c, int k)
{
	return c->values[k].text[0] != '\0' ? c->values[k].text : NULL;
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
			const char* values = valuesOf(c, k);
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
static void putZshOption(FILE* f, const cliOption* o, const char* values)
{
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
			putZshOption(f, c->options + k, valuesOf(c, k));
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
			const char* values = valuesOf(c, k);
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
		cliUsageQuery query = { 0 };
		char* queryArgv[] = { (char*)commands[i].name, (char*)cliUsageQueryMarker, (char*)&query, NULL };
		if (commands[i].run(3, queryArgv) != 0 || query.usage == NULL) {
			continue; /* a command that parses no options itself: none to offer */
		}
		cliCompletionCommand* c = table + n++;
		c->name = commands[i].name;
		c->summary = commands[i].summary;
		int options = cliUsage_Options(query.usage, c->options, cli_maxOptions);
		c->optionCount = options < cli_maxOptions ? options : cli_maxOptions;
		/* cliUsage_Options lists the common options, then the own ones in order */
		int own = 0;
		while (query.usage->own != NULL && query.usage->own[own].name != NULL) {
			own++;
		}
		int firstOwn = options - own - 2;
		for (int k = 0; k < c->optionCount; ++k) {
			c->values[k].text[0] = '\0';
			if (!c->options[k].hasValue || takesFile(c->options[k].name)) {
				continue;
			}
			if (k < firstOwn) {
				commonOptionWords(c->options[k].name, c->values + k);
			} else {
				ownOptionWords(commands + i, k - firstOwn, c->values + k);
			}
		}
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
