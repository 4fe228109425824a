/* progress.c - how far a run has come, on a terminal (progress.h): a line
 * redrawn in place while records are answered, and one summary line at
 * the end; the clock and the peak memory of --stats. */
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "progress.h"

/* The clock of progress lines and --stats (progress.h). */
double cliNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds between redraws of the progress line: often enough to look
 * alive, rarely enough to cost nothing. */
#define CLI_PROGRESS_INTERVAL 0.5

/* Seconds a run takes before the time left is shown: sooner, the rate is
 * mostly start-up and the estimate wild. */
#define CLI_PROGRESS_SETTLE 1.0

/* Are descriptors a and b the same terminal? */
static bool sameTerminal(int a, int b)
{
	struct stat x, y;
	return isatty(a) && isatty(b) && fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_rdev == y.st_rdev;
}

void cliProgress_Start(cliProgress* progress, const cliCommonOptions* options, const char* recordNoun, const char* hitNoun)
{
	memset(progress, 0, sizeof *progress);
	progress->recordNoun = recordNoun;
	progress->hitNoun = hitNoun;
	progress->summary = !options->quiet && isatty(STDERR_FILENO);
	/* results written to the terminal stderr is on: a progress line would
	 * land among them */
	bool toStdout = options->outputPath == NULL || strcmp(options->outputPath, "-") == 0;
	progress->lines = progress->summary && !(toStdout && sameTerminal(STDOUT_FILENO, STDERR_FILENO));
	progress->started = cliNow();
	progress->last = progress->started;
}

void cliProgress_Update(cliProgress* progress, long records, long hits, double fraction)
{
	double now = cliNow();
	if (!progress->lines || now - progress->last < CLI_PROGRESS_INTERVAL) {
		return;
	}
	progress->last = now;
	progress->shown = true;
	fputs("\rballcast: ", stderr);
	if (fraction >= 0.0) {
		fprintf(stderr, "%d%%, ", (int)(100.0 * fraction));
	}
	fprintf(stderr, "%ld %s", records, progress->recordNoun);
	if (hits >= 0) {
		fprintf(stderr, ", %ld %s", hits, progress->hitNoun);
	}
	double elapsed = now - progress->started;
	if (fraction > 0.0 && fraction < 1.0 && elapsed >= CLI_PROGRESS_SETTLE) {
		fprintf(stderr, ", about %.0f s left", elapsed * (1.0 - fraction) / fraction);
	}
	fputs("\033[K", stderr);
	fflush(stderr);
}

void cliProgress_Clear(cliProgress* progress)
{
	if (progress->shown) {
		fputs("\r\033[K", stderr);
		progress->shown = false;
	}
}

void cliProgress_Finish(cliProgress* progress, long records, long hits, long errors)
{
	cliProgress_Clear(progress);
	if (progress->summary) {
		fprintf(stderr, "ballcast: %ld %s, %ld %s, %ld error%s in %.2f s\n", records, progress->recordNoun, hits,
				progress->hitNoun, errors, errors == 1 ? "" : "s", cliNow() - progress->started);
	}
}

long long cliPeakMemory(void)
{
	struct rusage usage;
	if (getrusage(RUSAGE_SELF, &usage) != 0) {
		return 0;
	}
	return (long long)usage.ru_maxrss * 1024;
}
