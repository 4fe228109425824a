/* completion.c - unit tests for the shell completion scripts
 * (cli/completion.c) and the tables they are written from: a command's
 * options as cliUsage_Options lists them, a command asked for its usage
 * with a cliUsageQuery (and not by a typed word), the bash script's lines
 * for a command's options and their values, asked of the parsers. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"
#include "options.h"

static const cliOption fakeOwn[] = { { "normal", 0, true }, { "keep", 'k', true }, { "flag", 0, false }, { NULL, 0, false } };

static const cliUsage fakeUsage = {
	"fake", "usage: ballcast fake [OPTIONS] FILE\n", cli_optFormat | cli_optQuiet | cli_optMaxErrors, fakeOwn, 1, 1,
	{ "missing FILE", NULL, NULL },
};

/* The fake command's handler: --normal takes three words (its message
 * names a fourth it does not take, which completion must not offer);
 * --keep takes anything. */
static const char* fakeOption(void* context, int k, const char* value)
{
	(void)context;
	if (k != 0) {
		return NULL;
	}
	const char* words[] = { "contact", "triangle", "average" };
	for (int w = 0; w < 3; ++w) {
		if (strcmp(value, words[w]) == 0) {
			return NULL;
		}
	}
	return "--normal is contact, triangle, average or frob, not";
}

/* A command that parses its command line and then does nothing. */
static int fakeMain(int argc, char** argv)
{
	cliCommonOptions common;
	int first = 0;
	int status = cliParseArguments(&fakeUsage, argc, argv, &common, fakeOption, NULL, &first);
	return status >= 0 ? status : 0;
}

START_TEST(options_listed_common_own_then_help_and_version)
{
	cliOption options[16];
	int n = cliUsage_Options(&fakeUsage, options, 16);
	ck_assert_int_eq(n, 8);
	const char* names[] = { "format", "quiet", "max-errors", "normal", "keep", "flag", "help", "version" };
	const char letters[] = { 'f', 'q', 0, 0, 'k', 0, 'h', 0 };
	const bool values[] = { true, false, true, true, true, false, false, false };
	for (int k = 0; k < n; ++k) {
		ck_assert_str_eq(options[k].name, names[k]);
		ck_assert_int_eq(options[k].letter, letters[k]);
		ck_assert_int_eq(options[k].hasValue, values[k]);
	}
	/* the count whatever the room: two written, eight there */
	cliOption two[2];
	ck_assert_int_eq(cliUsage_Options(&fakeUsage, two, 2), 8);
	ck_assert_str_eq(two[1].name, "quiet");
}
END_TEST

START_TEST(a_command_tells_its_usage_to_the_query_only)
{
	cliUsageQuery query = { NULL };
	char name[] = "fake";
	char* argv[] = { name, (char*)cliUsageQueryMarker, (char*)&query, NULL };
	ck_assert_int_eq(fakeMain(3, argv), 0);
	ck_assert_ptr_eq(query.usage, &fakeUsage);
	/* the marker's text typed on a command line is an operand like any other */
	char typed[64];
	snprintf(typed, sizeof typed, "%s", cliUsageQueryMarker);
	char more[] = "x";
	char* typedArgv[] = { name, typed, more, NULL };
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(fakeMain(3, typedArgv), cli_exitTrouble);
	ck_assert(strstr(bcEndCapture(&capture), "too many arguments") != NULL);
}
END_TEST

START_TEST(the_bash_script_has_each_option_and_its_values)
{
	const cliCommand commands[] = { { "fake", fakeMain, "does nothing" } };
	char arg0[] = "completion", arg1[] = "bash";
	char* argv[] = { arg0, arg1, NULL };
	bcCapture capture;
	bcBeginCapture(&capture, stdout);
	ck_assert_int_eq(cliCompletionMain(2, argv, commands, 1), 0);
	const char* script = bcEndCapture(&capture);
	ck_assert_msg(strstr(script, "\tfake)\n\t\topts='--format -f --quiet -q --max-errors --normal --keep -k --flag "
								 "--help -h --version'\n") != NULL,
				  "%s", script);
	/* -f's from its parser's table; --normal's from its handler: the words
	 * its message names that it takes (not "frob", nor "normal", "is", ...) */
	ck_assert(strstr(script, "\t\t-f|--format) values='json ndjson jsonl csv' ;;\n") != NULL);
	ck_assert(strstr(script, "\t\t--normal) values='contact triangle average' ;;\n") != NULL);
	ck_assert(strstr(script, "\t\t-k|--keep) return 0 ;;") != NULL);
	ck_assert(strstr(script, "--flag)") == NULL);
	ck_assert(strstr(script, "compgen -W 'fake help --help -h --version'") != NULL);
	ck_assert(strstr(script, "complete -F _ballcast ballcast\n") != NULL);
}
END_TEST

START_TEST(an_unknown_shell_is_a_usage_error)
{
	const cliCommand commands[] = { { "fake", fakeMain, "does nothing" } };
	char arg0[] = "completion", arg1[] = "csh";
	char* argv[] = { arg0, arg1, NULL };
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(cliCompletionMain(2, argv, commands, 1), cli_exitTrouble);
	ck_assert(strstr(bcEndCapture(&capture), "the shell is bash, zsh or fish, not 'csh'") != NULL);
}
END_TEST

static Suite* completionSuite(void)
{
	Suite* suite = suite_create("completion");
	TCase* core = tcase_create("core");
	tcase_add_test(core, options_listed_common_own_then_help_and_version);
	tcase_add_test(core, a_command_tells_its_usage_to_the_query_only);
	tcase_add_test(core, the_bash_script_has_each_option_and_its_values);
	tcase_add_test(core, an_unknown_shell_is_a_usage_error);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(completionSuite());
}
