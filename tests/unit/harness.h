/* harness.h - shared helpers for the Check unit tests. Each test file is one
 * suite with its own main: int main(void) { return bcRunSuite(xSuite()); } */
#ifndef BC_TEST_HARNESS_H
#define BC_TEST_HARNESS_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ballcast.h"

static inline int bcRunSuite(Suite* suite)
{
	SRunner* runner = srunner_create(suite);
	srunner_run_all(runner, CK_NORMAL);
	int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Fail with a message when cond is false. Check's ck_assert records a mark
 * point (a write to its log) for every assertion that passes, far too slow
 * inside loops over every triangle of every query; this costs nothing. */
#define bcRequire(cond, ...)                                                                                          \
	do {                                                                                                               \
		if (!(cond)) {                                                                                                 \
			ck_abort_msg(__VA_ARGS__);                                                                                 \
		}                                                                                                              \
	} while (0)

/* |a - b| <= tol, with a message naming both values. */
#define bcAssertNear(a, b, tol)                                                                                        \
	do {                                                                                                               \
		double bcA_ = (a), bcB_ = (b);                                                                                 \
		ck_assert_msg(fabs(bcA_ - bcB_) <= (tol), "%s = %.17g, expected %.17g (tol %g)", #a, bcA_, bcB_,             \
					  (double)(tol));                                                                                 \
	} while (0)

#define bcAssertVecNear(v, ex, ey, ez, tol)                                                                            \
	do {                                                                                                               \
		bcVec3 bcV_ = (v);                                                                                             \
		bcAssertNear(bcV_.x, (ex), (tol));                                                                             \
		bcAssertNear(bcV_.y, (ey), (tol));                                                                             \
		bcAssertNear(bcV_.z, (ez), (tol));                                                                             \
	} while (0)

/* What was written to stream (stdout or stderr) between bcBeginCapture
 * and bcEndCapture. */
typedef struct bcCapture {
	FILE* stream;
	FILE* file;
	int saved;
	char text[8192];
} bcCapture;

static inline void bcBeginCapture(bcCapture* capture, FILE* stream)
{
	fflush(stream);
	capture->stream = stream;
	capture->file = tmpfile();
	ck_assert_ptr_nonnull(capture->file);
	capture->saved = dup(fileno(stream));
	ck_assert_int_ge(capture->saved, 0);
	ck_assert_int_ge(dup2(fileno(capture->file), fileno(stream)), 0);
}

static inline const char* bcEndCapture(bcCapture* capture)
{
	fflush(capture->stream);
	dup2(capture->saved, fileno(capture->stream));
	close(capture->saved);
	rewind(capture->file);
	size_t n = fread(capture->text, 1, sizeof capture->text - 1, capture->file);
	capture->text[n] = '\0';
	fclose(capture->file);
	return capture->text;
}

#endif
