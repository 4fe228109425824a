/* common.c - unit tests for the option helpers the subcommands share
 * (cli/cli.h): input formats, non-negative numbers, usage errors, the
 * common getopt codes, opening inputs and the path of a trajectory record. */
#include <check.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"

/* ------------------------------------------------------------- helpers */

static const cliUsage testUsage = {
	"test",
	"usage: ballcast test [OPTIONS] THING\n"
	"\n"
	"options:\n"
	"  -h, --help    this help\n"
};

/* What was written to stream (stdout or stderr) between beginCapture and
 * endCapture. */
typedef struct testCapture {
	FILE* stream;
	FILE* file;
	int saved;
	char text[4096];
} testCapture;

static void beginCapture(testCapture* capture, FILE* stream)
{
	fflush(stream);
	capture->stream = stream;
	capture->file = tmpfile();
	ck_assert_ptr_nonnull(capture->file);
	capture->saved = dup(fileno(stream));
	ck_assert_int_ge(capture->saved, 0);
	ck_assert_int_ge(dup2(fileno(capture->file), fileno(stream)), 0);
}

static const char* endCapture(testCapture* capture)
{
	fflush(capture->stream);
	dup2(capture->saved, fileno(capture->stream));
	close(capture->saved);
	rewind(capture->file);
	size_t n = fread(capture->text, 1, sizeof capture->text - 1, capture->file);
	capture->text[n] = '\0';
	fclose(capture->file);
	return capture->text;
}

/* cliParseCommonOption(c) with optarg value, as getopt leaves them after
 * reading argv[1] (and its value). */
static int parseOption(int c, const char* value, cliCommonOptions* options)
{
	static char arg0[] = "ballcast-test";
	static char arg1[64];
	snprintf(arg1, sizeof arg1, "-%c", c == ':' || c == '?' ? 'z' : c);
	char* argv[] = { arg0, arg1, NULL };
	optarg = (char*)value;
	optind = 2;
	return cliParseCommonOption(&testUsage, c, argv, options);
}

/* parseOption for an option that must fail: its exit status and the first
 * line of its message. */
static const char* parseBadOption(int c, const char* value, testCapture* capture)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	beginCapture(capture, stderr);
	int status = parseOption(c, value, &options);
	const char* text = endCapture(capture);
	ck_assert_int_eq(status, cli_exitTrouble);
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
}
END_TEST

START_TEST(inputFormatRejects)
{
	static const char* const bad[] = { "", "JSON", "Auto", "nd", "json ", " csv", "tsv", "jsonlines", "ndjson\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		cliInputFormat format = cli_inputCsv;
		ck_assert_msg(!cliParseInputFormat(bad[i], &format), "'%s' accepted", bad[i]);
		ck_assert_int_eq(format, cli_inputCsv);
	}
}
END_TEST

/* ------------------------------------------------------------- numbers */

START_TEST(nonNegativeAccepts)
{
	double value = -1.0;
	ck_assert(cliParseNonNegative("0", &value));
	ck_assert(value == 0.0);
	ck_assert(cliParseNonNegative("0.25", &value));
	ck_assert(value == 0.25);
	ck_assert(cliParseNonNegative("1e3", &value));
	ck_assert(value == 1000.0);
	ck_assert(cliParseNonNegative("-0", &value));
	ck_assert(value == 0.0);
}
END_TEST

START_TEST(nonNegativeRejects)
{
	static const char* const bad[] = { "", "-1", "-1e-300", "nan", "inf", "1e400", "1x", " ", "0.5 " };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		double value = 7.0;
		ck_assert_msg(!cliParseNonNegative(bad[i], &value), "'%s' accepted", bad[i]);
		ck_assert(value == 7.0);
	}
}
END_TEST

/* --------------------------------------------------------- usage errors */

START_TEST(usageErrorText)
{
	testCapture capture;
	beginCapture(&capture, stderr);
	int status = cliUsageError(&testUsage, "unknown option", "--frob");
	ck_assert_int_eq(status, cli_exitTrouble);
	ck_assert_str_eq(endCapture(&capture), "ballcast test: unknown option '--frob'\n"
										   "usage: ballcast test [OPTIONS] THING   (ballcast test --help)\n");

	beginCapture(&capture, stderr);
	status = cliUsageError(&testUsage, "missing THING", NULL);
	ck_assert_int_eq(status, cli_exitTrouble);
	ck_assert_str_eq(endCapture(&capture), "ballcast test: missing THING\n"
										   "usage: ballcast test [OPTIONS] THING   (ballcast test --help)\n");
}
END_TEST

/* ------------------------------------------------------ common options */

START_TEST(zeroIsTheDefaults)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	ck_assert_ptr_null(options.outputPath);
	ck_assert_int_eq(options.format, cli_outputJson);
	ck_assert_int_eq(options.inputFormat, cli_inputAuto);
	ck_assert(!options.haveRadius);
	ck_assert_int_eq(options.threads, 0);
	ck_assert(!options.quiet);
}
END_TEST

START_TEST(outputFormatFromPathUnlessGiven)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	ck_assert_int_eq(parseOption('o', "out.csv", &options), -1);
	ck_assert_str_eq(options.outputPath, "out.csv");
	ck_assert_int_eq(options.format, cli_outputCsv);
	ck_assert(!options.formatGiven);
	/* the last -o counts */
	ck_assert_int_eq(parseOption('o', "out.jsonl", &options), -1);
	ck_assert_int_eq(options.format, cli_outputNdjson);
	ck_assert_int_eq(parseOption('o', "out.txt", &options), -1);
	ck_assert_int_eq(options.format, cli_outputJson);
	ck_assert_int_eq(parseOption('o', "-", &options), -1);
	ck_assert_int_eq(options.format, cli_outputJson);

	/* -f wins, before or after -o */
	memset(&options, 0, sizeof options);
	ck_assert_int_eq(parseOption('f', "ndjson", &options), -1);
	ck_assert_int_eq(parseOption('o', "out.csv", &options), -1);
	ck_assert_int_eq(options.format, cli_outputNdjson);
	ck_assert(options.formatGiven);
	memset(&options, 0, sizeof options);
	ck_assert_int_eq(parseOption('o', "out.csv", &options), -1);
	ck_assert_int_eq(parseOption('f', "json", &options), -1);
	ck_assert_int_eq(options.format, cli_outputJson);
	ck_assert_str_eq(options.outputPath, "out.csv");
}
END_TEST

START_TEST(goodValues)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	ck_assert_int_eq(parseOption('i', "jsonl", &options), -1);
	ck_assert_int_eq(options.inputFormat, cli_inputNdjson);
	ck_assert_int_eq(parseOption('r', "0.125", &options), -1);
	ck_assert(options.haveRadius);
	ck_assert(options.radius == 0.125);
	ck_assert_int_eq(parseOption('r', "0", &options), -1);
	ck_assert(options.radius == 0.0);
	ck_assert_int_eq(parseOption('j', "1", &options), -1);
	ck_assert_int_eq(options.threads, 1);
	ck_assert_int_eq(parseOption('j', "12", &options), -1);
	ck_assert_int_eq(options.threads, 12);
	ck_assert(!options.quiet);
	ck_assert_int_eq(parseOption('q', NULL, &options), -1);
	ck_assert(options.quiet);
}
END_TEST

#define USAGE_LINE "usage: ballcast test [OPTIONS] THING   (ballcast test --help)\n"

START_TEST(badValues)
{
	testCapture capture;
	ck_assert_str_eq(parseBadOption('f', "xml", &capture), "ballcast test: unknown output format 'xml'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('i', "JSON", &capture), "ballcast test: unknown input format 'JSON'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('r', "-1", &capture),
					 "ballcast test: --radius needs a finite number >= 0, not '-1'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('r', "nan", &capture),
					 "ballcast test: --radius needs a finite number >= 0, not 'nan'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('j', "0", &capture),
					 "ballcast test: --threads needs a whole number >= 1, not '0'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('j', "2x", &capture),
					 "ballcast test: --threads needs a whole number >= 1, not '2x'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('j', "99999999999", &capture),
					 "ballcast test: --threads needs a whole number >= 1, not '99999999999'\n" USAGE_LINE);
}
END_TEST

START_TEST(missingAndUnknown)
{
	testCapture capture;
	ck_assert_str_eq(parseBadOption(':', NULL, &capture), "ballcast test: missing value for '-z'\n" USAGE_LINE);
	ck_assert_str_eq(parseBadOption('?', NULL, &capture), "ballcast test: unknown option '-z'\n" USAGE_LINE);
	/* a code the helper does not know is an unknown option too */
	ck_assert_str_eq(parseBadOption('m', "x", &capture), "ballcast test: unknown option '-m'\n" USAGE_LINE);
}
END_TEST

START_TEST(helpOnStdout)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	testCapture capture;
	beginCapture(&capture, stdout);
	int status = parseOption('h', NULL, &options);
	ck_assert_str_eq(endCapture(&capture), testUsage.text);
	ck_assert_int_eq(status, cli_exitOk);
}
END_TEST

/* --------------------------------------------------------------- inputs */

START_TEST(inputNames)
{
	ck_assert_str_eq(cliInputName("-"), "<stdin>");
	ck_assert_str_eq(cliInputName("t.json"), "t.json");
	ck_assert_str_eq(cliInputName("--"), "--");
	ck_assert_str_eq(cliInputName("./-"), "./-");
}
END_TEST

START_TEST(openAndCloseInputs)
{
	ck_assert_ptr_eq(cliOpenInput("-"), stdin);
	cliCloseInput(stdin);
	ck_assert_int_ge(fileno(stdin), 0);
	cliCloseInput(NULL);

	char path[] = "/tmp/ballcast-common-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "abc", 3), 3);
	close(fd);
	FILE* f = cliOpenInput(path);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(getc(f), 'a');
	cliCloseInput(f);
	unlink(path);

	testCapture capture;
	beginCapture(&capture, stderr);
	ck_assert_ptr_null(cliOpenInput(path));
	char expected[128];
	snprintf(expected, sizeof expected, "ballcast: %s: cannot open: No such file or directory\n", path);
	ck_assert_str_eq(endCapture(&capture), expected);
}
END_TEST

/* --------------------------------------------------------- trajectories */

static cliRecord makeRecord(unsigned fields)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.fields = fields;
	record.p0 = (bcVec3){ 1.0, 2.0, 3.0 };
	record.p1 = (bcVec3){ 4.0, 5.0, 6.0 };
	record.radius = 0.5;
	return record;
}

START_TEST(trajectoryFields)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	bcVec3 p0 = { 0, 0, 0 }, p1 = { 0, 0, 0 };
	double radius = -1.0;
	cliRecord record = makeRecord(cli_fieldP0 | cli_fieldP1 | cli_fieldRadius);
	ck_assert_ptr_null(cliCheckTrajectory(&record, &options, &p0, &p1, &radius));
	bcAssertVecNear(p0, 1.0, 2.0, 3.0, 0.0);
	bcAssertVecNear(p1, 4.0, 5.0, 6.0, 0.0);
	ck_assert(radius == 0.5);

	/* --radius stands in only for a record without r */
	options.haveRadius = true;
	options.radius = 0.25;
	ck_assert_ptr_null(cliCheckTrajectory(&record, &options, &p0, &p1, &radius));
	ck_assert(radius == 0.5);
	record = makeRecord(cli_fieldP0 | cli_fieldP1);
	ck_assert_ptr_null(cliCheckTrajectory(&record, &options, &p0, &p1, &radius));
	ck_assert(radius == 0.25);
}
END_TEST

START_TEST(trajectoryProblems)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	bcVec3 p0, p1;
	double radius;
	cliRecord record = makeRecord(cli_fieldP0 | cli_fieldP1);
	ck_assert_str_eq(cliCheckTrajectory(&record, &options, &p0, &p1, &radius),
					 "missing r (give it per record or with --radius)");
	record = makeRecord(cli_fieldP1 | cli_fieldRadius);
	ck_assert_str_eq(cliCheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p0");
	record = makeRecord(cli_fieldP0 | cli_fieldRadius);
	ck_assert_str_eq(cliCheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p1");
	record = makeRecord(cli_fieldRadius);
	ck_assert_str_eq(cliCheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p0");
	/* the record's own error comes first */
	record = makeRecord(cli_fieldRadius);
	strcpy(record.error, "p0: expected an array of 3 numbers");
	ck_assert_ptr_eq(cliCheckTrajectory(&record, &options, &p0, &p1, &radius), record.error);
}
END_TEST

static Suite* commonSuite(void)
{
	Suite* suite = suite_create("common");

	TCase* parsers = tcase_create("parsers");
	tcase_add_test(parsers, inputFormatSpellings);
	tcase_add_test(parsers, inputFormatRejects);
	tcase_add_test(parsers, nonNegativeAccepts);
	tcase_add_test(parsers, nonNegativeRejects);
	suite_add_tcase(suite, parsers);

	TCase* options = tcase_create("options");
	tcase_add_test(options, usageErrorText);
	tcase_add_test(options, zeroIsTheDefaults);
	tcase_add_test(options, outputFormatFromPathUnlessGiven);
	tcase_add_test(options, goodValues);
	tcase_add_test(options, badValues);
	tcase_add_test(options, missingAndUnknown);
	tcase_add_test(options, helpOnStdout);
	suite_add_tcase(suite, options);

	TCase* inputs = tcase_create("inputs");
	tcase_add_test(inputs, inputNames);
	tcase_add_test(inputs, openAndCloseInputs);
	suite_add_tcase(suite, inputs);

	TCase* records = tcase_create("records");
	tcase_add_test(records, trajectoryFields);
	tcase_add_test(records, trajectoryProblems);
	suite_add_tcase(suite, records);

	return suite;
}

int main(void)
{
	return bcRunSuite(commonSuite());
}
