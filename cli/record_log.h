/* record_log.h - the messages about the bad records of one input, held
 * to a limit. */
#ifndef BC_RECORD_LOG_H
#define BC_RECORD_LOG_H

#include <stdbool.h>

#include "options.h"
#include "progress.h"
#include "records.h"

/* The messages about bad records of one input: at most a limit of them,
 * then, at the end, one line counting the rest. */
typedef struct cliRecordLog {
	const char* name;      /* the input, as messages name it */
	long limit;            /* messages to show at most */
	long shown;
	long hidden;
	bool quiet;            /* -q: none at all */
	cliProgress* progress; /* a progress line to erase before a message, or NULL */
} cliRecordLog;

/* A log for the input name (not copied) with the limits of options;
 * progress (or NULL) is the run's progress line. */
cliRecordLog cliRecordLog_Make(const char* name, const cliCommonOptions* options, cliProgress* progress);

/* "ballcast: FILE:LINE:COLUMN: record N: PROBLEM" on stderr, while under
 * the limit. N counts records from 1, as lines are counted. The place is
 * that of the record's own error when problem is it, else where the record
 * starts. */
void cliRecordLog_Add(cliRecordLog* log, const cliRecord* record, const char* problem);

/* The same for a record known by its 0-based index and the place of its
 * problem. */
void cliRecordLog_AddAt(cliRecordLog* log, long index, long line, long column, const char* problem);

/* After the last record: "ballcast: FILE: N more bad records not shown
 * (--max-errors N shows more)" when some were held back. */
void cliRecordLog_Finish(cliRecordLog* log);

#endif
