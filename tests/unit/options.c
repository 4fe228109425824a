/* options.c - unit tests for a subcommand's command line (cli/options.c):
 * input formats and numbers, usage errors, the common options as every
 * command spells them, a command's own options, --help and --version,
 * --max-errors, the count of operands, and -o refused over an input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"
#include "options.h"
#include "output.h"
#include "records.h"

/* ------------------------------------------------------------- helpers */

/* The test command's own options: --flag, -k/--keep VALUE. */
static const cliOption testOwn[] = { { "flag", 0, false }, { "keep", 'k', true }, { NULL, 0, false } };

static const cliUsage testUsage = {
	"test",
	"usage: ballcast test [OPTIONS] THING [MORE]\n"
	"\n"
	"options:\n"
	"  -h, --help    this help\n",
	cli_optOutput | cli_optFormat | cli_optInputFormat | cli_optRadius | cli_optThreads | cli_optQuiet |
		cli_optMaxErrors,
	testOwn,
	1,
	2,
	{ "missing THING", NULL },
};

#define USAGE_LINE "usage: ballcast test [OPTIONS] THING [MORE]   (ballcast test --help)\n"

/* What the own options were given. */
typedef struct testOwnSeen {
	int flags;
	const char* kept;
} testOwnSeen;

static const char* takeOwn(void* context, int k, const char* value)
{
	testOwnSeen* seen = context;
	if (k == 0) {
		ck_assert_ptr_null(value);
		seen->flags += 1;
		return NULL;
	}
	if (strcmp(value, "bad") == 0) {
		return "--keep takes anything but";
	}
	seen->kept = value;
	return NULL;
}

/* cliParseArguments over the words of args (separated by single spaces,
 * after "ballcast-test"): its status, and what it parsed. */
typedef struct testParse {
	int status;
	int first;
	int argc;
	char* argv[16];
	char words[256];
	cliCommonOptions options;
	testOwnSeen own;
} testParse;

static void parse(testParse* t, const char* args)
{
	memset(t, 0, sizeof *t);
	snprintf(t->words, sizeof t->words, "ballcast-test %s", args);
	for (char* word = strtok(t->words, " "); word != NULL && t->argc < 15; word = strtok(NULL, " ")) {
		t->argv[t->argc++] = word;
	}
	t->status = cliParseArguments(&testUsage, t->argc, t->argv, &t->options, takeOwn, &t->own, &t->first);
}

/* parse for arguments that must fail: exit status 2, and stderr. */
static const char* parseBad(const char* args, bcCapture* capture)
{
	testParse t;
	bcBeginCapture(capture, stderr);
	parse(&t, args);
	const char* text = bcEndCapture(capture);
	ck_assert_int_eq(t.status, cli_exitTrouble);
	return text;
}

/* ------------------------------------------------------- input formats */

START_TEST(inputFormatSpellings)
{
	static const struct {
		const char* text;
		cliInputFormat format;
	} cases[] = {
		{ "auto", cli_inputAuto }, { "json", cli_inputJson }, { "ndjson", cli_inputNdjson },
		{ "jsonl", cli_inputNdjson }, { "csv", cli_inputCsv },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		cliInputFormat format = cases[i].format == cli_inputCsv ? cli_inputJson : cli_inputCsv;
		ck_assert_msg(cliParseInputFormat(cases[i].text, &format), "%s rejected", cases[i].text);
		ck_assert_int_eq(format, cases[i].format);
	}
	static const char* const bad[] = { "", "JSON", "Auto", "nd", "json ", " csv", "tsv", "jsonlines", "ndjson\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		cliInputFormat format = cli_inputCsv;
		ck_assert_msg(!cliParseInputFormat(bad[i], &format), "'%s' accepted", bad[i]);
		ck_assert_int_eq(format, cli_inputCsv);
	}
}
END_TEST

/* ------------------------------------------------------------- numbers */

/* --shard K/N: 0 <= K < N, whole numbers, nothing else; --mesh-format's names. */
START_TEST(shardAndMeshFormat)
{
	long k = -1, n = -1;
	ck_assert(cliParseShard("0/1", &k, &n));
	ck_assert_int_eq(k, 0);
	ck_assert_int_eq(n, 1);
	ck_assert(cliParseShard("63/64", &k, &n));
	ck_assert_int_eq(k, 63);
	ck_assert_int_eq(n, 64);
	const char* bad[] = { "1/1", "64/64", "-1/4", "1/0", "1", "/4", "1/", "a/4", "1/4x", "1/-4", " 1/4", "1/ 4", "+1/4" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		k = n = -7;
		ck_assert_msg(!cliParseShard(bad[i], &k, &n), "%s", bad[i]);
		ck_assert_int_eq(k, -7);
	}
	bcMeshFormat format = bc_meshObj;
	ck_assert(cliParseMeshFormat("ply", &format));
	ck_assert_int_eq(format, bc_meshPly);
	ck_assert(cliParseMeshFormat("auto", &format));
	ck_assert_int_eq(format, bc_meshAuto);
	ck_assert(!cliParseMeshFormat("STL", &format));
	ck_assert(!cliParseMeshFormat("3ds", &format));
}
END_TEST

START_TEST(numbers)
{
	double value = -1.0;
	ck_assert(cliParseNonNegative("0", &value) && value == 0.0);
	ck_assert(cliParseNonNegative("0.25", &value) && value == 0.25);
	ck_assert(cliParseNonNegative("1e3", &value) && value == 1000.0);
	ck_assert(cliParseNonNegative("-0", &value) && value == 0.0);
	static const char* const bad[] = { "", "-1", "-1e-300", "nan", "inf", "1e400", "1x", " ", "0.5 " };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		value = 7.0;
		ck_assert_msg(!cliParseNonNegative(bad[i], &value), "'%s' accepted", bad[i]);
		ck_assert(value == 7.0);
	}
	int n = 0;
	ck_assert(cliParseInt("-12", &n) && n == -12);
	ck_assert(!cliParseInt("99999999999", &n) && n == -12);
	ck_assert(!cliParseInt("3.0", &n));
	ck_assert(cliParseDouble("-2.5e-3", &value) && value == -2.5e-3);
	ck_assert(!cliParseDouble("inf", &value));
}
END_TEST

/* --------------------------------------------------------- usage errors */

START_TEST(editDistances)
{
	ck_assert_uint_eq(cliEditDistance("format", 6, "format"), 0);
	ck_assert_uint_eq(cliEditDistance("fromat", 6, "format"), 1); /* two neighbours swapped */
	ck_assert_uint_eq(cliEditDistance("formt", 5, "format"), 1);
	ck_assert_uint_eq(cliEditDistance("formats", 7, "format"), 1);
	ck_assert_uint_eq(cliEditDistance("radios", 6, "radius"), 1);
	ck_assert_uint_eq(cliEditDistance("", 0, "dt"), 2);
	ck_assert_uint_eq(cliEditDistance("kitten", 6, "sitting"), 3);
	/* only the first n bytes of a count: "--fromat=csv" */
	ck_assert_uint_eq(cliEditDistance("fromat=csv", 6, "format"), 1);
	char longName[40];
	memset(longName, 'a', sizeof longName - 1);
	longName[sizeof longName - 1] = '\0';
	ck_assert_uint_eq(cliEditDistance(longName, strlen(longName), "format"), SIZE_MAX);
}
END_TEST

START_TEST(usageErrorText)
{
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(cliUsageError(&testUsage, "unknown option", "--frob"), cli_exitTrouble);
	ck_assert_str_eq(bcEndCapture(&capture), "ballcast test: unknown option '--frob'\n" USAGE_LINE);
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(cliUsageError(&testUsage, "missing THING", NULL), cli_exitTrouble);
	ck_assert_str_eq(bcEndCapture(&capture), "ballcast test: missing THING\n" USAGE_LINE);
}
END_TEST

/* ------------------------------------------------------ common options */

START_TEST(defaults)
{
	testParse t;
	parse(&t, "thing");
	ck_assert_int_eq(t.status, -1);
	ck_assert_int_eq(t.first, 1);
	ck_assert_ptr_null(t.options.outputPath);
	ck_assert_int_eq(t.options.format, cli_outputJson);
	ck_assert_int_eq(t.options.inputFormat, cli_inputAuto);
	ck_assert(!t.options.haveRadius && !t.options.quiet && !t.options.maxErrorsGiven);
	ck_assert_int_eq(t.options.threads, 0);
	ck_assert(t.own.flags == 0 && t.own.kept == NULL);
}
END_TEST

START_TEST(outputFormatFromPathUnlessGiven)
{
	testParse t;
	parse(&t, "-o out.csv thing");
	ck_assert_int_eq(t.status, -1);
	ck_assert_str_eq(t.options.outputPath, "out.csv");
	ck_assert_int_eq(t.options.format, cli_outputCsv);
	ck_assert(!t.options.formatGiven);
	/* the last -o counts */
	parse(&t, "-o out.csv --output=out.jsonl thing");
	ck_assert_int_eq(t.options.format, cli_outputNdjson);
	parse(&t, "-o out.csv -o out.txt thing");
	ck_assert_int_eq(t.options.format, cli_outputJson);
	parse(&t, "-o - thing");
	ck_assert_int_eq(t.options.format, cli_outputJson);
	/* -f wins, before or after -o */
	parse(&t, "-f ndjson -o out.csv thing");
	ck_assert_int_eq(t.options.format, cli_outputNdjson);
	ck_assert(t.options.formatGiven);
	parse(&t, "-o out.csv --format json thing");
	ck_assert_int_eq(t.options.format, cli_outputJson);
	ck_assert_str_eq(t.options.outputPath, "out.csv");
}
END_TEST

START_TEST(goodValues)
{
	testParse t;
	parse(&t, "-i jsonl -r 0.125 -j 12 -q --max-errors 0 thing more");
	ck_assert_int_eq(t.status, -1);
	ck_assert_int_eq(t.options.inputFormat, cli_inputNdjson);
	ck_assert(t.options.haveRadius && t.options.radius == 0.125);
	ck_assert_int_eq(t.options.threads, 12);
	ck_assert(t.options.quiet);
	ck_assert(t.options.maxErrorsGiven && t.options.maxErrors == 0);
	ck_assert_int_eq(t.first, 10);
	ck_assert_str_eq(t.argv[t.first], "thing");
	/* options after operands (GNU getopt permutes) and long forms */
	parse(&t, "thing --radius=0 --threads 1 --max-errors=500 --input-format csv");
	ck_assert_int_eq(t.status, -1);
	ck_assert(t.options.haveRadius && t.options.radius == 0.0);
	ck_assert_int_eq(t.options.threads, 1);
	ck_assert(t.options.maxErrors == 500);
	ck_assert_int_eq(t.options.inputFormat, cli_inputCsv);
	ck_assert_str_eq(t.argv[t.first], "thing");
}
END_TEST

START_TEST(badValues)
{
	bcCapture capture;
	ck_assert_str_eq(parseBad("-f xml thing", &capture),
					 "ballcast test: unknown output format 'xml' (json, ndjson or csv)\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-i JSON thing", &capture),
					 "ballcast test: unknown input format 'JSON' (auto, json, ndjson or csv)\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-r -1 thing", &capture),
					 "ballcast test: --radius needs a finite number >= 0, not '-1'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-r nan thing", &capture),
					 "ballcast test: --radius needs a finite number >= 0, not 'nan'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-j 0 thing", &capture),
					 "ballcast test: --threads needs a whole number >= 1, not '0'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-j 99999999999 thing", &capture),
					 "ballcast test: --threads needs a whole number >= 1, not '99999999999'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("--max-errors -1 thing", &capture),
					 "ballcast test: --max-errors needs a whole number >= 0, not '-1'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("--max-errors 2x thing", &capture),
					 "ballcast test: --max-errors needs a whole number >= 0, not '2x'\n" USAGE_LINE);
}
END_TEST

START_TEST(missingAndUnknown)
{
	bcCapture capture;
	ck_assert_str_eq(parseBad("thing -o", &capture), "ballcast test: missing value for '-o'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("thing --keep", &capture), "ballcast test: missing value for '--keep'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("-z thing", &capture), "ballcast test: unknown option '-z'\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("--frob thing", &capture), "ballcast test: unknown option '--frob'\n" USAGE_LINE);
	/* a common option the command does not take is unknown */
	static const cliUsage narrow = { "narrow", "usage: ballcast narrow X\n", cli_optQuiet, NULL, 0, -1, { NULL, NULL } };
	char arg0[] = "ballcast-test", arg1[] = "-r", arg2[] = "1";
	char* argv[] = { arg0, arg1, arg2, NULL };
	cliCommonOptions options;
	int first = 0;
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(cliParseArguments(&narrow, 3, argv, &options, NULL, NULL, &first), cli_exitTrouble);
	ck_assert_str_eq(bcEndCapture(&capture),
					 "ballcast narrow: unknown option '-r'\nusage: ballcast narrow X   (ballcast narrow --help)\n");
}
END_TEST

START_TEST(operands)
{
	bcCapture capture;
	ck_assert_str_eq(parseBad("-q", &capture), "ballcast test: missing THING\n" USAGE_LINE);
	ck_assert_str_eq(parseBad("a b c", &capture), "ballcast test: too many arguments, starting at 'c'\n" USAGE_LINE);
	testParse t;
	parse(&t, "a -- -b");
	ck_assert_int_eq(t.status, -1);
	ck_assert_str_eq(t.argv[t.first + 1], "-b");
}
END_TEST

START_TEST(ownOptions)
{
	testParse t;
	parse(&t, "--flag -k one thing --flag --keep=two");
	ck_assert_int_eq(t.status, -1);
	ck_assert_int_eq(t.own.flags, 2);
	ck_assert_str_eq(t.own.kept, "two");
	bcCapture capture;
	ck_assert_str_eq(parseBad("-k bad thing", &capture), "ballcast test: --keep takes anything but 'bad'\n" USAGE_LINE);
}
END_TEST

START_TEST(helpAndVersionOnStdout)
{
	testParse t;
	bcCapture capture;
	bcBeginCapture(&capture, stdout);
	parse(&t, "--help -f xml");
	ck_assert_str_eq(bcEndCapture(&capture), testUsage.text);
	ck_assert_int_eq(t.status, cli_exitOk);
	bcBeginCapture(&capture, stdout);
	parse(&t, "-h");
	ck_assert_str_eq(bcEndCapture(&capture), testUsage.text);
	ck_assert_int_eq(t.status, cli_exitOk);
	bcBeginCapture(&capture, stdout);
	parse(&t, "thing --version");
	ck_assert_str_eq(bcEndCapture(&capture), "ballcast " BC_VERSION_STRING "\n");
	ck_assert_int_eq(t.status, cli_exitOk);
}
END_TEST

/* ------------------------------------------------- -o over an input */

START_TEST(outputOverAnInput)
{
	char dir[] = "/tmp/ballcast-options-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char input[64], link[64], other[64], args[256];
	snprintf(input, sizeof input, "%s/in.obj", dir);
	snprintf(link, sizeof link, "%s/link.obj", dir);
	snprintf(other, sizeof other, "%s/out.json", dir);
	FILE* f = fopen(input, "w");
	ck_assert_ptr_nonnull(f);
	fputs("v 0 0 0\n", f);
	fclose(f);
	ck_assert_int_eq(symlink("in.obj", link), 0);

	bcCapture capture;
	char expected[256];
	snprintf(args, sizeof args, "-o %s %s", link, input);
	snprintf(expected, sizeof expected, "ballcast test: -o would overwrite the input '%s'\n" USAGE_LINE, input);
	ck_assert_str_eq(parseBad(args, &capture), expected);
	snprintf(args, sizeof args, "thing -o %s %s", input, input);
	snprintf(expected, sizeof expected, "ballcast test: -o would overwrite the input '%s'\n" USAGE_LINE, input);
	ck_assert_str_eq(parseBad(args, &capture), expected);

	/* another file (even one that does not exist yet) is fine */
	testParse t;
	snprintf(args, sizeof args, "-o %s %s", other, input);
	parse(&t, args);
	ck_assert_int_eq(t.status, -1);
	ck_assert_int_eq(cliRefuseOverwrite(&testUsage, other, "-o", input), -1);
	ck_assert_int_eq(cliRefuseOverwrite(&testUsage, NULL, "-o", input), -1);
	ck_assert_int_eq(cliRefuseOverwrite(&testUsage, "-", "-o", "-"), -1);
	ck_assert_int_eq(cliRefuseOverwrite(&testUsage, "/dev/null", "-o", "/dev/null"), -1);
	bcBeginCapture(&capture, stderr);
	ck_assert_int_eq(cliRefuseOverwrite(&testUsage, link, "--positions", input), cli_exitTrouble);
	snprintf(expected, sizeof expected, "ballcast test: --positions would overwrite the input '%s'\n" USAGE_LINE,
			 input);
	ck_assert_str_eq(bcEndCapture(&capture), expected);
	unlink(link);
	unlink(input);
	rmdir(dir);
}
END_TEST

static Suite* optionsSuite(void)
{
	Suite* suite = suite_create("options");
	TCase* core = tcase_create("core");
	tcase_add_test(core, inputFormatSpellings);
	tcase_add_test(core, numbers);
	tcase_add_test(core, shardAndMeshFormat);
	tcase_add_test(core, usageErrorText);
	tcase_add_test(core, editDistances);
	tcase_add_test(core, defaults);
	tcase_add_test(core, outputFormatFromPathUnlessGiven);
	tcase_add_test(core, goodValues);
	tcase_add_test(core, badValues);
	tcase_add_test(core, missingAndUnknown);
	tcase_add_test(core, operands);
	tcase_add_test(core, ownOptions);
	tcase_add_test(core, helpAndVersionOnStdout);
	tcase_add_test(core, outputOverAnInput);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(optionsSuite());
}
