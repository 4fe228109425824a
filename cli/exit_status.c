/* exit_status.c - the status a run ends with (cli.h): failures noted as
 * they are reported, a transient one (an I/O error, out of memory) making
 * cli_exitTrouble cli_exitTransient, so that a scheduler retries only
 * what may pass. */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "ballcast.h"
#include "cli.h"

bool cliIsTransientError(int code)
{
	switch (code) {
	case EIO:
	case ENOSPC:
	case EDQUOT:
	case ENOMEM:
	case EAGAIN:
	case EBUSY:
	case EMFILE:
	case ENFILE:
	case ENOLCK:
	case ESTALE:
	case ETIMEDOUT:
	case ENETDOWN:
	case ENETUNREACH:
	case ENETRESET:
	case ECONNRESET:
	case ECONNABORTED:
	case EHOSTDOWN:
	case EHOSTUNREACH:
		return true;
	default:
		return false;
	}
}

/* Whether a transient failure was reported (cliNoteFailure): the one
 * process-wide fact the exit status needs, set from any thread. */
static atomic_bool transientFailure;

void cliNoteFailure(int code, bool noMemory)
{
	if (noMemory || cliIsTransientError(code)) {
		atomic_store(&transientFailure, true);
	}
}

int cliFinalStatus(int status)
{
	return status == cli_exitTrouble && atomic_load(&transientFailure) ? cli_exitTransient : status;
}

int cliExitStatusOf(const bcError* error)
{
	if (error->code == bc_errorNoMemory || (error->code == bc_errorIo && cliIsTransientError(error->systemError))) {
		return cli_exitTransient;
	}
	return cli_exitTrouble;
}
