/* progress.c - unit tests for the progress line and the summary
 * (cli/progress.c): off a terminal or with -q nothing is drawn; the line's
 * percentage, counts and time left; redraws at most every half second;
 * erasing only what was drawn; the summary's counts; the peak memory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "options.h"
#include "progress.h"

/* A progress as on a terminal (the tests' stderr is none), started
 * secondsAgo. */
static cliProgress onTerminal(double secondsAgo)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	options.outputPath = "out.json";
	cliProgress progress;
	cliProgress_Start(&progress, &options, "trajectories", "hits");
	progress.lines = true;
	progress.summary = true;
	progress.started -= secondsAgo;
	progress.last -= secondsAgo;
	return progress;
}

START_TEST(offATerminalNothing)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	cliProgress progress;
	cliProgress_Start(&progress, &options, "balls", "overlapping");
	ck_assert(!progress.lines && !progress.summary); /* stderr here is no terminal */
	ck_assert_str_eq(progress.recordNoun, "balls");
	options.quiet = true;
	cliProgress_Start(&progress, &options, "balls", "overlapping");
	ck_assert(!progress.lines && !progress.summary);
	progress.last -= 10.0;
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 10, 5, 0.5);
	cliProgress_Finish(&progress, 10, 5, 0);
	ck_assert_str_eq(bcEndCapture(&capture), "");
}
END_TEST

START_TEST(lineAndTimeLeft)
{
	cliProgress progress = onTerminal(4.0);
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 4000, 2500, 0.25);
	ck_assert_str_eq(bcEndCapture(&capture), "\rballcast: 25%, 4000 trajectories, 2500 hits, about 12 s left\033[K");
	ck_assert(progress.shown);

	/* within half a second of the last redraw: nothing */
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 5000, 2600, 0.3);
	ck_assert_str_eq(bcEndCapture(&capture), "");

	/* an input of unknown size: counts only; hits not known yet: left out */
	progress.last -= 1.0;
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 6000, -1, -1.0);
	ck_assert_str_eq(bcEndCapture(&capture), "\rballcast: 6000 trajectories\033[K");

	/* too early for an estimate */
	progress = onTerminal(0.6);
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 10, 1, 0.1);
	ck_assert_str_eq(bcEndCapture(&capture), "\rballcast: 10%, 10 trajectories, 1 hits\033[K");
}
END_TEST

START_TEST(clearAndSummary)
{
	cliProgress progress = onTerminal(2.0);
	bcCapture capture;
	/* nothing drawn: nothing to erase */
	bcBeginCapture(&capture, stderr);
	cliProgress_Clear(&progress);
	ck_assert_str_eq(bcEndCapture(&capture), "");
	bcBeginCapture(&capture, stderr);
	cliProgress_Update(&progress, 1, 1, 1.0);
	cliProgress_Clear(&progress);
	cliProgress_Clear(&progress);
	cliProgress_Finish(&progress, 3, 2, 1);
	const char* text = bcEndCapture(&capture);
	const char* expected = "\rballcast: 100%, 1 trajectories, 1 hits\033[K\r\033[Kballcast: 3 trajectories, 2 hits, 1 error in ";
	ck_assert_msg(strncmp(text, expected, strlen(expected)) == 0, "%s", text);
	double seconds = 0.0;
	ck_assert_int_eq(sscanf(text + strlen(expected), "%lf", &seconds), 1);
	ck_assert(seconds >= 2.0 && seconds < 60.0);
	ck_assert_str_eq(text + strlen(text) - 3, " s\n");

	progress = onTerminal(0.0);
	progress.lines = false; /* results to the same terminal: the summary only */
	bcBeginCapture(&capture, stderr);
	progress.last -= 1.0;
	cliProgress_Update(&progress, 5, 0, 0.5);
	cliProgress_Finish(&progress, 5, 0, 2);
	text = bcEndCapture(&capture);
	ck_assert_msg(strncmp(text, "ballcast: 5 trajectories, 0 hits, 2 errors in ", 46) == 0, "%s", text);
}
END_TEST

/* --stats' peak memory is in bytes: after 48 MiB are touched it is at
 * least that (ru_maxrss is kilobytes on Linux: a missing * 1024 fails). */
START_TEST(peakMemoryInBytes)
{
	long long before = cliPeakMemory();
	ck_assert_int_gt(before, 0);
	size_t size = (size_t)48 << 20;
	char* block = malloc(size);
	ck_assert_ptr_nonnull(block);
	memset(block, 1, size);
	long long after = cliPeakMemory();
	ck_assert_int_eq(block[size - 1], 1);
	free(block);
	ck_assert_int_ge(after, (long long)size);
	ck_assert_int_ge(after, before);
}
END_TEST

static Suite* progressSuite(void)
{
	Suite* suite = suite_create("progress");
	TCase* core = tcase_create("core");
	tcase_add_test(core, offATerminalNothing);
	tcase_add_test(core, lineAndTimeLeft);
	tcase_add_test(core, clearAndSummary);
	tcase_add_test(core, peakMemoryInBytes);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(progressSuite());
}
