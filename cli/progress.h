/* progress.h - how far a run has come, on a terminal, and the clock and
 * peak memory of --stats. */
#ifndef BC_PROGRESS_H
#define BC_PROGRESS_H

#include <stdbool.h>

#include "options.h"

/* Seconds on a monotonic clock, for --stats. */
double cliNow(void);

/* How far a run has come, on standard error when it is a terminal (and
 * not -q): a line redrawn in place ("45%, 4500 trajectories, 3100 hits,
 * about 3 s left"), never while the results go to that same terminal,
 * and a summary line at the end ("10000 trajectories, 6890 hits, 0 errors
 * in 1.20 s"). */
typedef struct cliProgress {
	const char* recordNoun; /* "trajectories" */
	const char* hitNoun;    /* "hits" */
	bool lines;             /* progress lines are drawn */
	bool summary;           /* the summary line is written */
	bool shown;             /* a progress line is on the terminal */
	double started;
	double last;            /* when the line was last drawn */
} cliProgress;

/* Start timing a run that writes where options say. */
void cliProgress_Start(cliProgress* progress, const cliCommonOptions* options, const char* recordNoun,
					   const char* hitNoun);

/* Redraw the line (at most every half second): counts so far (hits < 0:
 * not known yet), and the fraction of the input read (0 to 1, or < 0 when
 * its size is unknown) for a percentage and the time left. */
void cliProgress_Update(cliProgress* progress, long records, long hits, double fraction);

/* Erase the line, so that a message can follow. */
void cliProgress_Clear(cliProgress* progress);

/* Erase the line and write the summary. */
void cliProgress_Finish(cliProgress* progress, long records, long hits, long errors);

/* Peak resident memory of this process in bytes (0 if unknown). */
long long cliPeakMemory(void);

#endif
