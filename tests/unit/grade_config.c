/* grade_config.c - unit tests for the grading engine's settings
 * (cli/grade_config.h): the defaults, and each shared grading option taken
 * or refused with its message: tolerances, --fields, --one-based, --map
 * (its pairs, at most CLI_MAP_MAX), --accept-normals, --max-failures. */
#include <check.h>
#include <string.h>

#include "grade_config.h"
#include "harness.h"

START_TEST(defaults)
{
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	ck_assert(cfg.alphaTol == 1e-9 && cfg.alphaRel == 0.0 && cfg.normalTol == 1e-6 && cfg.pointTol == 1e-9);
	ck_assert_uint_eq(cfg.fields, CLI_FIELDS_ALL);
	ck_assert_int_eq(cfg.maxFailures, 10);
	ck_assert_ptr_null(cfg.report); /* the text report */
	ck_assert(!cfg.oneBased);
	cliGradeConfig_Free(&cfg);
}
END_TEST

START_TEST(options)
{
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 0, "0.125"));
	ck_assert(cfg.alphaTol == 0.125);
	ck_assert_str_eq(cliGradeConfig_Option(&cfg, 0, "-1"), "--alpha-tol needs a finite number >= 0, not");
	ck_assert_str_eq(cliGradeConfig_Option(&cfg, 2, "nan"),
					 "--normal-tol needs a finite number of degrees >= 0, not");
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 3, "2"));
	ck_assert(cfg.pointTol == 2.0);
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 4, "hit,t"));
	ck_assert_uint_eq(cfg.fields, cli_resultHit | cli_resultAlpha);
	ck_assert_ptr_nonnull(cliGradeConfig_Option(&cfg, 4, "hit,speed"));
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 5, NULL));
	ck_assert(cfg.oneBased);
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 6, "impact_time=alpha"));
	ck_assert_int_eq(cfg.mapCount, 1);
	ck_assert_str_eq(cfg.map[0], "impact_time");
	ck_assert_str_eq(cfg.map[1], "alpha");
	ck_assert_ptr_nonnull(cliGradeConfig_Option(&cfg, 6, "=alpha"));
	ck_assert_ptr_nonnull(cliGradeConfig_Option(&cfg, 6, "t="));
	for (int k = 1; k < CLI_MAP_MAX; ++k) {
		ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 6, "a=b"));
	}
	ck_assert_str_eq(cliGradeConfig_Option(&cfg, 6, "a=b"), "--map is given too often (at most 32), at");
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 7, "triangle,average"));
	ck_assert_uint_eq(cfg.acceptNormals, cli_normalsTriangle | cli_normalsAverage);
	ck_assert_ptr_nonnull(cliGradeConfig_Option(&cfg, 7, "face"));
	ck_assert_ptr_null(cliGradeConfig_Option(&cfg, 8, "0"));
	ck_assert_int_eq(cfg.maxFailures, 0);
	ck_assert_str_eq(cliGradeConfig_Option(&cfg, 8, "-2"), "--max-failures needs a whole number >= 0, not");
	ck_assert_ptr_nonnull(cliGradeConfig_Option(&cfg, 8, "3x"));
	cliGradeConfig_Free(&cfg);
	ck_assert_int_eq(cfg.mapCount, 0);
}
END_TEST

static Suite* gradeConfigSuite(void)
{
	Suite* suite = suite_create("grade_config");
	TCase* c = tcase_create("config");
	tcase_add_test(c, defaults);
	tcase_add_test(c, options);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeConfigSuite());
}
