/* record_log.c - the messages about the bad records of one input
 * (record_log.h): at most a limit of them, then one line counting the
 * rest. */
#include <stdbool.h>
#include <stdio.h>

#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "record_log.h"
#include "records.h"

cliRecordLog cliRecordLog_Make(const char* name, const cliCommonOptions* options, cliProgress* progress)
{
	cliRecordLog log = { name, options->maxErrorsGiven ? options->maxErrors : CLI_DEFAULT_MAX_ERRORS, 0, 0,
						 options->quiet, progress };
	return log;
}

void cliRecordLog_AddAt(cliRecordLog* log, long index, long line, long column, const char* problem)
{
	if (log->quiet) {
		return;
	}
	if (log->shown >= log->limit) {
		log->hidden += 1;
		return;
	}
	log->shown += 1;
	if (log->progress != NULL) {
		cliProgress_Clear(log->progress);
	}
	cliReportFile(log->name);
	fprintf(stderr, ":%ld:%ld: record %ld: ", line, column, index + 1);
	cliWriteShown(stderr, problem); /* it may quote the record's bytes */
	putc('\n', stderr);
}

void cliRecordLog_Add(cliRecordLog* log, const cliRecord* record, const char* problem)
{
	bool own = problem == record->error && record->errorLine > 0;
	cliRecordLog_AddAt(log, record->index, own ? record->errorLine : record->line,
					   own ? record->errorColumn : record->column, problem);
}

void cliRecordLog_Finish(cliRecordLog* log)
{
	if (log->hidden > 0) {
		if (log->progress != NULL) {
			cliProgress_Clear(log->progress);
		}
		cliReportFile(log->name);
		fprintf(stderr, ": %ld more bad record%s not shown (--max-errors N shows more)\n", log->hidden,
				log->hidden == 1 ? "" : "s");
	}
}
