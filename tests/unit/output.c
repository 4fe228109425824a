/* output.c - unit tests for cli/output.h (issue 26): the text writers (a
 * name shown as `ls -b` shows it, a message shown safely, a JSON string
 * that stays valid UTF-8 whatever bytes it is given, a CSV cell that a
 * spreadsheet would read as a formula; each expected text written out by
 * hand), and a failed write reported with the error that write met,
 * whatever errno holds by the time the run publishes its output (/dev/full
 * written in place, a temporary past the file size limit, standard
 * output's staging file past it; nothing is left behind). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness.h"
#include "output.h"

static char* jsonOf(const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendJsonString(&buffer, text);
	cliBuffer_AppendChar(&buffer, '\0');
	return buffer.data;
}

static char* csvOf(const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendCsvField(&buffer, text);
	cliBuffer_AppendChar(&buffer, '\0');
	return buffer.data;
}

START_TEST(namesAsLsShowsThem)
{
	static const struct {
		const char* name;
		const char* shown;
	} cases[] = {
		{ "plain.json", "plain.json" },
		{ "with space, comma.csv", "with space, comma.csv" },
		{ "a\\b", "a\\\\b" },
		{ "t\tn\nr\r", "t\\tn\\nr\\r" },
		{ "\033[31mred\001", "\\x1b[31mred\\x01" },
		{ "del\177", "del\\x7f" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb1", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb1" }, /* é € 🎱 */
		{ "\xff\xfe", "\\xff\\xfe" },
		{ "over\xc0\xaflong", "over\\xc0\\xaflong" },         /* an overlong '/' */
		{ "sur\xed\xa0\x80", "sur\\xed\\xa0\\x80" },          /* a surrogate */
		{ "cut\xe2\x82", "cut\\xe2\\x82" },                   /* a sequence cut short */
		{ "big\xf4\x90\x80\x80", "big\\xf4\\x90\\x80\\x80" }, /* beyond U+10FFFF */
		{ "csi\xc2\x9b", "csi\\xc2\\x9b" },                   /* C1's CSI, which terminals obey */
		{ "nbsp\xc2\xa0", "nbsp\xc2\xa0" },                   /* U+00A0: no control */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* shown = cliNameText(cases[k].name);
		ck_assert_str_eq(shown, cases[k].shown);
		free(shown);
	}
	/* a message keeps its backslashes */
	char* text = cliShownText("invalid escape '\\q' at \033[2J");
	ck_assert_str_eq(text, "invalid escape '\\q' at \\x1b[2J");
	free(text);
}
END_TEST

/* A name read from a file, as reports show it: ls -b's escapes, cut after
 * 24 shown characters (an escape counts as what it shows) or where the
 * buffer ends, never inside a character, with '…'. Expected texts by
 * hand. */
START_TEST(shortNames)
{
	static const struct {
		const char* name;
		size_t size;
		const char* shown;
		bool cut;
	} cases[] = {
		{ "TOI", CLI_SHOWN_NAME_SIZE, "TOI", false },
		{ "", CLI_SHOWN_NAME_SIZE, "", false },
		{ "abcdefghijklmnopqrstuvwx", CLI_SHOWN_NAME_SIZE, "abcdefghijklmnopqrstuvwx", false }, /* 24 */
		{ "abcdefghijklmnopqrstuvwxy", CLI_SHOWN_NAME_SIZE, "abcdefghijklmnopqrstuvwx\xe2\x80\xa6", true },
		{ "\033[31mq", CLI_SHOWN_NAME_SIZE, "\\x1b[31mq", false },
		{ "a\\b", CLI_SHOWN_NAME_SIZE, "a\\\\b", false },
		/* seven ESC bytes show as 28 characters: six fit */
		{ "\033\033\033\033\033\033\033", CLI_SHOWN_NAME_SIZE,
		  "\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\xe2\x80\xa6", true },
		/* 25 é: 24 of them, two bytes each */
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
		  CLI_SHOWN_NAME_SIZE,
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\xa6",
		  true },
		/* a small buffer: room for the ellipsis and the NUL kept, no character split */
		{ "abcdefghij", 8, "abcd\xe2\x80\xa6", true },
		{ "abcdefg", 8, "abcdefg", false },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, "\xc3\xa9\xc3\xa9\xe2\x80\xa6", true },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char shown[CLI_SHOWN_NAME_SIZE];
		bool cut = cliShortName(cases[k].name, shown, cases[k].size);
		ck_assert_msg(strcmp(shown, cases[k].shown) == 0, "case %zu: %s", k, shown);
		ck_assert_msg(cut == cases[k].cut, "case %zu", k);
		ck_assert_uint_lt(strlen(shown), cases[k].size);
	}
}
END_TEST

START_TEST(jsonStaysValidUtf8)
{
	static const struct {
		const char* text;
		const char* json;
	} cases[] = {
		{ "crate-top", "\"crate-top\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "\t\n\r\001\177", "\"\\t\\n\\r\\u0001\\u007f\"" },
		{ "caf\xc3\xa9 \xf0\x9f\x8e\xb1", "\"caf\xc3\xa9 \xf0\x9f\x8e\xb1\"" },
		{ "\xff\xfe", "\"\\\\xff\\\\xfe\"" },
		{ "x\xc0\xaf", "\"x\\\\xc0\\\\xaf\"" },
		{ "\xed\xa0\x80", "\"\\\\xed\\\\xa0\\\\x80\"" },
		{ "csi\xc2\x9b", "\"csi\\u009b\"" },
		{ "\xe2\x82", "\"\\\\xe2\\\\x82\"" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* json = jsonOf(cases[k].text);
		ck_assert_str_eq(json, cases[k].json);
		free(json);
	}
}
END_TEST

START_TEST(csvFormulaCells)
{
	static const struct {
		const char* text;
		const char* cell;
	} cases[] = {
		{ "plain", "plain" },
		{ "=HYPERLINK(1)", "'=HYPERLINK(1)" },
		{ "+1.csv", "'+1.csv" },
		{ "-1.csv", "'-1.csv" },
		{ "@SUM(1)", "'@SUM(1)" },
		{ "\tx", "'\tx" },
		{ "\rx", "\"'\rx\"" },
		{ "=a,b", "\"'=a,b\"" },
		{ "'=q", "''=q" },
		{ "'plain", "'plain" },
		{ "a=b", "a=b" },
		{ " =x", "\" =x\"" },
		{ "", "" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* cell = csvOf(cases[k].text);
		ck_assert_str_eq(cell, cases[k].cell);
		free(cell);
	}
}
END_TEST

/* More than the output's stdio buffer (1 MiB), so that the write fails in
 * cliOutput_Write, long before cliOutput_Commit. */
#define BIG_WRITE (2u << 20)

/* Write BIG_WRITE bytes, let errno be something else entirely (as the
 * calls a run makes after the failed write leave it), commit; returns
 * what Commit said on stderr. */
static const char* writeThenCommit(cliOutput* out, bcCapture* capture)
{
	char* data = malloc(BIG_WRITE);
	ck_assert_ptr_nonnull(data);
	memset(data, 'x', BIG_WRITE);
	ck_assert(cliOutput_Write(out, data, BIG_WRITE));
	free(data);
	bcBeginCapture(capture, stderr);
	errno = ENOENT;
	bool committed = cliOutput_Commit(out);
	const char* text = bcEndCapture(capture);
	ck_assert(!committed);
	return text;
}

START_TEST(device_full)
{
	cliOutput out;
	ck_assert(cliOutput_Open(&out, "/dev/full"));
	bcCapture capture;
	ck_assert_str_eq(writeThenCommit(&out, &capture), "ballcast: /dev/full: write error: No space left on device\n");
}
END_TEST

/* Files may grow to 64 KiB; SIGXFSZ ignored, so a write past that fails
 * with EFBIG instead of ending the process. */
static void limitFileSize(void)
{
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit limit;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &limit), 0);
	limit.rlim_cur = 64 << 10;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
}

static void unlimitFileSize(void)
{
	struct rlimit limit;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &limit), 0);
	limit.rlim_cur = limit.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
	signal(SIGXFSZ, SIG_DFL);
}

START_TEST(temporary_past_the_limit)
{
	char dir[] = "/tmp/ballcast-output-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/out.json", dir);
	limitFileSize();
	cliOutput out;
	ck_assert(cliOutput_Open(&out, path));
	bcCapture capture;
	const char* text = writeThenCommit(&out, &capture);
	unlimitFileSize();
	char expected[128];
	snprintf(expected, sizeof expected, "ballcast: %s: write error: File too large\n", path);
	ck_assert_str_eq(text, expected);
	/* neither the output nor its temporary */
	DIR* d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int entries = 0;
	for (struct dirent* e; (e = readdir(d)) != NULL;) {
		entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	}
	closedir(d);
	ck_assert_int_eq(entries, 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(staging_past_the_limit)
{
	limitFileSize();
	cliOutput out;
	ck_assert(cliOutput_Open(&out, NULL));
	bcCapture capture;
	const char* text = writeThenCommit(&out, &capture);
	unlimitFileSize();
	ck_assert_str_eq(text, "ballcast: (temporary output): write error: File too large\n");
}
END_TEST

static Suite* outputSuite(void)
{
	Suite* suite = suite_create("output");
	TCase* writers = tcase_create("writers");
	tcase_add_test(writers, namesAsLsShowsThem);
	tcase_add_test(writers, shortNames);
	tcase_add_test(writers, jsonStaysValidUtf8);
	tcase_add_test(writers, csvFormulaCells);
	suite_add_tcase(suite, writers);
	TCase* errors = tcase_create("write errors");
	tcase_add_test(errors, device_full);
	tcase_add_test(errors, temporary_past_the_limit);
	tcase_add_test(errors, staging_past_the_limit);
	suite_add_tcase(suite, errors);
	return suite;
}

int main(void)
{
	return bcRunSuite(outputSuite());
}
