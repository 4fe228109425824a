/* common.c - unit tests for the meshes and inputs a command opens
 * (cli/common.c): opening inputs, the reader's notes on a mesh. */
#include <errno.h>
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "cli.h"
#include "options.h"
#include "records.h"

/* --------------------------------------------------------------- inputs */

START_TEST(inputNames)
{
	ck_assert_str_eq(cliInputName("-"), "<stdin>");
	ck_assert_str_eq(cliInputName("t.json"), "t.json");
	ck_assert_str_eq(cliInputName("--"), "--");
	ck_assert_str_eq(cliInputName("./-"), "./-");
}
END_TEST

START_TEST(openAndCloseInputs)
{
	ck_assert_ptr_eq(cliOpenInput("-", true), stdin);
	cliCloseInput(stdin);
	ck_assert_int_ge(fileno(stdin), 0);
	cliCloseInput(NULL);

	char path[] = "/tmp/ballcast-common-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "abc", 3), 3);
	close(fd);
	FILE* f = cliOpenInput(path, true);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(getc(f), 'a');
	cliCloseInput(f);
	unlink(path);

	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	ck_assert_ptr_null(cliOpenInput(path, true));
	char expected[128];
	snprintf(expected, sizeof expected, "ballcast: %s: cannot open: No such file or directory\n", path);
	ck_assert_str_eq(bcEndCapture(&capture), expected);
}
END_TEST

/* ------------------------------------------------------------- meshes */

/* The reader's polygon warnings become "ballcast: FILE:LINE:COLUMN: ..."
 * notes, one per polygon cut as a fan, at its f keyword; quiet says none. */
START_TEST(loadMeshWarnings)
{
	char path[] = "/tmp/ballcast-warn-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	/* f 1 2 3 4: non-planar (v4 0.5 off the plane z = 0); f 1 2 5 3: a
	 * bow tie; f 1 2 3 5: convex, no note */
	const char* obj = "v 0 0 0\nv 2 0 0\nv 2 2 0\nv 1 0.5 0.5\nv 0 2 0\nf 1 2 3 4\n  f 1 2 5 3\nf 1 2 3 5\n";
	ck_assert_int_eq(write(fd, obj, strlen(obj)), (ssize_t)strlen(obj));
	close(fd);
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	cliCommonOptions common = { 0 };
	bcMesh* mesh = cliLoadMesh(path, &common, NULL);
	const char* text = bcEndCapture(&capture);
	ck_assert_ptr_nonnull(mesh);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).triangleCount, 6);
	bcMesh_Destroy(mesh);
	char expected[512];
	snprintf(expected, sizeof expected,
			 "ballcast: %s:6:1: a polygon of 4 corners is not planar (a corner 0.15 of its size off its plane): cut "
			 "as a fan\nballcast: %s:7:3: a polygon of 4 corners intersects itself: cut as a fan\n",
			 path, path);
	ck_assert_str_eq(text, expected);

	bcBeginCapture(&capture, stderr);
	common.quiet = true;
	mesh = cliLoadMesh(path, &common, NULL);
	ck_assert_str_eq(bcEndCapture(&capture), "");
	ck_assert_ptr_nonnull(mesh);
	bcMesh_Destroy(mesh);
	unlink(path);
}
END_TEST

/* A binary STL's warnings and errors name a byte, not a line; the exit
 * status of a failed load says whether to try again. */
START_TEST(loadBinaryMesh)
{
	char path[] = "/tmp/ballcast-stl-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unsigned char data[84 + 50] = { 0 };
	data[80] = 1; /* one triangle */
	/* stored normal (0, 0, -1) against the winding's (0, 0, 1) */
	const float values[12] = { 0, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	memcpy(data + 84, values, sizeof values); /* little-endian host, as the test machines are */
	ck_assert_int_eq(write(fd, data, sizeof data), (ssize_t)sizeof data);
	close(fd);
	bcCapture capture;
	bcBeginCapture(&capture, stderr);
	cliCommonOptions common = { 0 };
	common.meshFormat = bc_meshStl;
	int status = -1;
	bcMesh* mesh = cliLoadMesh(path, &common, &status);
	const char* text = bcEndCapture(&capture);
	ck_assert_ptr_nonnull(mesh);
	ck_assert_int_eq(status, cli_exitOk);
	bcMesh_Destroy(mesh);
	char expected[512];
	snprintf(expected, sizeof expected,
			 "ballcast: %s:byte 85: facet 0's stored normal (0, 0, -1) points against its winding (B-A)x(C-A): "
			 "not used\n",
			 path);
	ck_assert_str_eq(text, expected);

	/* one byte short: the count lies */
	ck_assert_int_eq(truncate(path, (off_t)sizeof data - 1), 0);
	bcBeginCapture(&capture, stderr);
	mesh = cliLoadMesh(path, &common, &status);
	text = bcEndCapture(&capture);
	ck_assert_ptr_null(mesh);
	ck_assert_int_eq(status, cli_exitTrouble);
	ck_assert_msg(strstr(text, ":byte 81: a binary STL whose header counts 1 triangles has 134 bytes, but the file "
							   "has 133") != NULL,
				  "%s", text);
	unlink(path);
}
END_TEST

static Suite* commonSuite(void)
{
	Suite* suite = suite_create("common");

	TCase* inputs = tcase_create("inputs");
	tcase_add_test(inputs, inputNames);
	tcase_add_test(inputs, openAndCloseInputs);
	tcase_add_test(inputs, loadBinaryMesh);
	suite_add_tcase(suite, inputs);

	TCase* meshes = tcase_create("meshes");
	tcase_add_test(meshes, loadMeshWarnings);
	suite_add_tcase(suite, meshes);

	return suite;
}

int main(void)
{
	return bcRunSuite(commonSuite());
}
