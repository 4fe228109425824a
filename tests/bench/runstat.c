/* runstat.c - run a command and record its wall time and peak memory.
 *
 *   runstat STATFILE COMMAND [ARG ...]
 *
 * Runs COMMAND with this program's standard input and output, waits for it
 * and appends one line to STATFILE:
 *   wall=SECONDS user=SECONDS sys=SECONDS peakmb=MIB status=N
 * peakmb is the child's peak resident set (getrusage(RUSAGE_CHILDREN)'s
 * ru_maxrss: this program has no other child), the number /usr/bin/time -v
 * reports as "Maximum resident set size". Exits with the command's status
 * (128 + signal if it was killed). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ru_maxrss is in KiB on Linux. */
static const double kibPerMib = 1024.0;

/* Exit status for a command that could not be started, as the shell says. */
enum { cannotRun = 127, signalBase = 128 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double seconds(struct timeval t)
{
	return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

int main(int argc, char** argv)
{
	if (argc < 3) {
		fputs("usage: runstat STATFILE COMMAND [ARG ...]\n", stderr);
		return 2;
	}
	double start = now();
	pid_t child = fork();
	if (child < 0) {
		perror("runstat: fork");
		return cannotRun;
	}
	if (child == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "runstat: %s: %s\n", argv[2], strerror(errno));
		_exit(cannotRun);
	}
	int status = 0;
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("runstat: waitpid");
			return cannotRun;
		}
	}
	double wall = now() - start;
	struct rusage usage;
	memset(&usage, 0, sizeof usage);
	getrusage(RUSAGE_CHILDREN, &usage);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : signalBase + WTERMSIG(status);
	FILE* f = fopen(argv[1], "a");
	if (f == NULL) {
		perror(argv[1]);
		return code != 0 ? code : 1;
	}
	fprintf(f, "wall=%.3f user=%.3f sys=%.3f peakmb=%.1f status=%d\n", wall, seconds(usage.ru_utime),
			seconds(usage.ru_stime), (double)usage.ru_maxrss / kibPerMib, code);
	fclose(f);
	return code;
}
