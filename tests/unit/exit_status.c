/* exit_status.c - unit tests of the status a run ends with
 * (cli/exit_status.c): which failures are transient (75), which stay 2. */
#include <check.h>
#include <errno.h>

#include "cli.h"
#include "harness.h"

START_TEST(exitStatuses)
{
	bcError error = { 0 };
	error.code = bc_errorSyntax;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTrouble);
	error.code = bc_errorNoMemory;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTransient);
	error.code = bc_errorIo;
	error.systemError = ENOENT;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTrouble);
	error.systemError = EISDIR;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTrouble);
	error.systemError = EIO;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTransient);
	error.systemError = ENOSPC;
	ck_assert_int_eq(cliExitStatusOf(&error), cli_exitTransient);
	ck_assert_int_eq(cli_exitTransient, 75); /* sysexits.h's EX_TEMPFAIL */
}
END_TEST

START_TEST(finalStatus)
{
	ck_assert_int_eq(cliFinalStatus(cli_exitOk), cli_exitOk);
	ck_assert_int_eq(cliFinalStatus(cli_exitTrouble), cli_exitTrouble);
	cliNoteFailure(ENOENT, false); /* deterministic: no change */
	ck_assert_int_eq(cliFinalStatus(cli_exitTrouble), cli_exitTrouble);
	cliNoteFailure(EIO, false);
	ck_assert_int_eq(cliFinalStatus(cli_exitTrouble), cli_exitTransient);
	/* bad records and success are never turned into 75 */
	ck_assert_int_eq(cliFinalStatus(cli_exitRecords), cli_exitRecords);
	ck_assert_int_eq(cliFinalStatus(cli_exitOk), cli_exitOk);
}
END_TEST

static Suite* exitStatusSuite(void)
{
	Suite* suite = suite_create("exit_status");
	TCase* statuses = tcase_create("statuses");
	tcase_add_test(statuses, exitStatuses);
	tcase_add_test(statuses, finalStatus);
	suite_add_tcase(suite, statuses);
	return suite;
}

int main(void)
{
	return bcRunSuite(exitStatusSuite());
}
