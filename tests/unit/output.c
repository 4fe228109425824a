/* output.c tests: a failed write is reported with the error that write
 * met (issue 26), whatever errno holds by the time the run publishes its
 * output: /dev/full written in place, a temporary past the file size
 * limit, standard output's staging file past it; nothing is left behind. */
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
	Suite* s = suite_create("output");
	TCase* tc = tcase_create("output");
	tcase_add_test(tc, device_full);
	tcase_add_test(tc, temporary_past_the_limit);
	tcase_add_test(tc, staging_past_the_limit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(outputSuite());
}
