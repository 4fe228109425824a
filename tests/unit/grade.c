/* grade.c - unit tests for the grading engine (cli/grade.h): the --fields
 * words, one judgement of a set of results (what fails, the counts), the
 * normal's length, the mistakes the engine replays on an answer as written
 * (named in the report), an unreadable submission's row, an empty or
 * header-only file, matching by position, the reader's note, and normals
 * held to a convention. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grade.h"
#include "harness.h"
#include "results_read.h"

static cliResultSet parse(const char* text)
{
	cliResultSet set;
	bcError error;
	ck_assert_msg(cliParseResults(text, strlen(text), &set, &error), "%s", error.message);
	return set;
}

/* The expected answers: a face hit with its triangle normal, and a miss. */
static const char* const expectedText =
	"{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,0,1]}\n"
	"{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n";

START_TEST(fieldsWords)
{
	unsigned fields = 0;
	const char* bad = NULL;
	size_t length = 0;
	ck_assert(cliParseFields("hit,alpha,normal", &fields, &bad, &length));
	ck_assert_uint_eq(fields, CLI_FIELDS_GRADE);
	ck_assert(cliParseFields("t,n", &fields, &bad, &length));
	ck_assert_uint_eq(fields, cli_resultAlpha | cli_resultNormal);
	ck_assert(cliParseFields("hit,all", &fields, &bad, &length));
	ck_assert_uint_eq(fields, CLI_FIELDS_ALL);
	ck_assert(!cliParseFields("hit,speed,alpha", &fields, &bad, &length));
	ck_assert_int_eq((int)length, 5);
	ck_assert(strncmp(bad, "speed", length) == 0);
	ck_assert(!cliParseFields("", &fields, &bad, &length));
	/* the report formats, by name and by -o's extension */
	const char* const formats[] = { "text", "json", "csv", "html", "junit", "gradescope" };
	for (size_t k = 0; k < sizeof formats / sizeof formats[0]; ++k) {
		ck_assert_ptr_nonnull(cliReportWriter_FromName(formats[k]));
	}
	ck_assert_ptr_null(cliReportWriter_FromName("xml"));
	ck_assert_ptr_eq(cliReportWriter_FromPath("a/page.html"), cliReportWriter_FromName("html"));
	ck_assert_ptr_eq(cliReportWriter_FromPath("page.htm"), cliReportWriter_FromName("html"));
	ck_assert_ptr_eq(cliReportWriter_FromPath("g.json"), cliReportWriter_FromName("json"));
	ck_assert_ptr_eq(cliReportWriter_FromPath("g.csv"), cliReportWriter_FromName("csv"));
	ck_assert_ptr_null(cliReportWriter_FromPath("g.ndjson"));
	ck_assert_ptr_null(cliReportWriter_FromPath("g.txt"));
	ck_assert_ptr_null(cliReportWriter_FromPath("dir.json/g"));
	ck_assert_ptr_null(cliReportWriter_FromPath(NULL));
}
END_TEST

START_TEST(judgeMarksWhatFails)
{
	cliResultSet expected = parse(expectedText);
	/* a: alpha off; b: right; c: extra; b again: a repeated id */
	cliResultSet actual = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.625,\"normal\":[0,0.6,0.8]}\n"
								"{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n"
								"{\"id\":\"c\",\"hit\":false,\"alpha\":1}\n");
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	bool fails[3];
	cliGradeCounts counts;
	ck_assert(cliJudgeResults(&cfg, &expected, &actual, fails, &counts));
	ck_assert(fails[0] && !fails[1] && fails[2]);
	ck_assert_int_eq(counts.passed, 1);
	ck_assert_int_eq(counts.failed, 1);
	ck_assert_int_eq(counts.missing, 0);
	ck_assert_int_eq(counts.extra, 1);
	/* --fields all: the triangle and triangle normal a lacks fail it too,
	 * and a graded field missing never passes */
	cfg.fields = CLI_FIELDS_ALL;
	cliResultSet right = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8]}\n"
							   "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n");
	bool two[2];
	ck_assert(cliJudgeResults(&cfg, &expected, &right, two, &counts));
	ck_assert(two[0] && !two[1]);
	cfg.fields = CLI_FIELDS_GRADE;
	ck_assert(cliJudgeResults(&cfg, &expected, &right, two, &counts));
	ck_assert(!two[0] && !two[1]);
	ck_assert_int_eq(counts.passed, 2);
	cliResultSet_Free(&right);
	cliResultSet_Free(&actual);
	cliResultSet_Free(&expected);
}
END_TEST

START_TEST(normalLength)
{
	cliResultSet expected = parse(expectedText);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	bool fails[2];
	cliGradeCounts counts;
	/* the right direction, half as long: fails (the angle alone would pass) */
	cliResultSet half = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.3,0.4]}\n"
							  "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n");
	ck_assert(cliJudgeResults(&cfg, &expected, &half, fails, &counts));
	ck_assert(fails[0]);
	/* within 1e-6 of unit length: passes */
	cliResultSet near = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.60000048,0.80000064]}\n"
							  "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n");
	ck_assert(cliJudgeResults(&cfg, &expected, &near, fails, &counts));
	ck_assert(!fails[0]);
	cliResultSet_Free(&near);
	cliResultSet_Free(&half);
	cliResultSet_Free(&expected);
}
END_TEST

/* Grade submission text with cfg into a CSV report; returns the report
 * (the caller frees it). */
static char* gradeCsv(cliGradeConfig* cfg, const cliResultSet* expected, const char* submission, int* status)
{
	char dir[] = "/tmp/bcgradeXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64], report[64];
	snprintf(path, sizeof path, "%s/s.ndjson", dir);
	snprintf(report, sizeof report, "%s/r.csv", dir);
	if (submission != NULL) {
		FILE* f = fopen(path, "w");
		fputs(submission, f);
		fclose(f);
	}
	cfg->report = cliReportWriter_FromName("csv");
	cfg->outputPath = report;
	cfg->quiet = false;
	char* paths[] = { path };
	FILE* devnull = freopen("/dev/null", "w", stderr);
	(void)devnull;
	*status = cliGradeSubmissions(cfg, "e.ndjson", expected, paths, 1);
	FILE* f = fopen(report, "r");
	ck_assert_ptr_nonnull(f);
	char* text = calloc(1, 4096);
	size_t n = fread(text, 1, 4095, f);
	text[n] = '\0';
	fclose(f);
	remove(path);
	remove(report);
	rmdir(dir);
	return text;
}

START_TEST(mistakesOnTheAnswer)
{
	cliResultSet expected = parse(expectedText);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = cli_resultHit | cli_resultAlpha | cli_resultNormal | cli_resultTriangle;
	int status = 0;
	/* the triangle's normal for the contact's */
	char* csv = gradeCsv(&cfg, &expected,
						 "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"normal\":[0,0,1]}\n"
						 "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n",
						 &status);
	ck_assert_int_eq(status, cli_exitRecords);
	ck_assert_msg(strncmp(csv, "file,records,passed,failed,missing,extra,score,diagnosis,review\n", 64) == 0, "%s", csv);
	ck_assert_msg(strstr(csv, "/s.ndjson,2,1,1,0,0,0.5,triangle-normal-vs-contact-normal (1 of 1 failing),\n") != NULL,
				  "%s", csv);
	free(csv);
	/* not normalised */
	csv = gradeCsv(&cfg, &expected,
				   "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"normal\":[0,1.2,1.6]}\n"
				   "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n",
				   &status);
	ck_assert(strstr(csv, ",normal-not-normalised (1 of 1 failing),\n") != NULL);
	free(csv);
	/* triangles from 1; with --one-based it passes */
	const char* oneBased = "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":4,\"normal\":[0,0.6,0.8]}\n"
						   "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n";
	csv = gradeCsv(&cfg, &expected, oneBased, &status);
	ck_assert(strstr(csv, ",one-based-triangles (1 of 1 failing),\n") != NULL);
	free(csv);
	cfg.oneBased = true;
	csv = gradeCsv(&cfg, &expected, oneBased, &status);
	ck_assert_int_eq(status, cli_exitOk);
	ck_assert(strstr(csv, "/s.ndjson,2,2,0,0,0,1,,\n") != NULL);
	free(csv);
	/* a file that is not there: a row with score 0 and the reason */
	csv = gradeCsv(&cfg, &expected, NULL, &status);
	ck_assert_int_eq(status, cli_exitRecords);
	ck_assert(strstr(csv, ",0,0,0,2,0,0,unreadable: cannot open: No such file or directory,\n") != NULL);
	free(csv);
	cliResultSet_Free(&expected);
}
END_TEST

/* The submission a fixture hands the run (cliGradeConfig.readSubmission). */
typedef struct cliFixture {
	const char* text;       /* parsed as the records */
	cliResultsShape shape;  /* what the reader would say of an input with no record */
	bool positional;
	const char* understood;
} cliFixture;

static bool readFixture(void* context, const char* path, cliResultSet* set, char** reason)
{
	(void)path;
	const cliFixture* fixture = context;
	*reason = NULL;
	bcError error;
	ck_assert(cliParseResults(fixture->text, strlen(fixture->text), set, &error));
	set->shape = fixture->shape;
	set->positional = fixture->positional;
	snprintf(set->understood, sizeof set->understood, "%s", fixture->understood != NULL ? fixture->understood : "");
	return true;
}

/* The report of grading one fixture (the caller frees it). */
static char* gradeFixture(cliGradeConfig* cfg, const cliResultSet* expected, const cliFixture* fixture, int* status)
{
	char dir[] = "/tmp/bcgradeXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char report[64];
	snprintf(report, sizeof report, "%s/r.txt", dir);
	cfg->outputPath = report;
	cfg->quiet = false;
	cfg->readSubmission = readFixture;
	cfg->readContext = (void*)fixture;
	char name[] = "s.csv";
	char* paths[] = { name };
	*status = cliGradeSubmissions(cfg, "e.ndjson", expected, paths, 1);
	FILE* f = fopen(report, "r");
	ck_assert_ptr_nonnull(f);
	char* text = calloc(1, 8192);
	size_t n = fread(text, 1, 8191, f);
	text[n] = '\0';
	fclose(f);
	remove(report);
	rmdir(dir);
	return text;
}

/* An empty or header-only file is said once, not as every id missing; how
 * the reader understood a file is printed. */
START_TEST(shapesAndNotes)
{
	cliResultSet expected = parse(expectedText);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	int status = 0;
	cliFixture empty = { "", cli_shapeEmptyFile, false, NULL };
	char* text = gradeFixture(&cfg, &expected, &empty, &status);
	ck_assert_int_eq(status, cli_exitRecords);
	ck_assert_str_eq(text, "s.csv: empty file\n0 passed, 0 failed, 2 missing, 0 extra\n");
	free(text);
	cliFixture header = { "id,hit,alpha\n", cli_shapeHeaderOnly, false, NULL };
	cfg.report = cliReportWriter_FromName("csv");
	text = gradeFixture(&cfg, &expected, &header, &status);
	ck_assert_msg(strstr(text, "\ns.csv,0,0,0,2,0,0,header only,\n") != NULL, "%s", text);
	free(text);
	cfg.report = NULL;
	/* the records as the reader would give them, with its note */
	cliFixture right = { "{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8]}\n"
						 "{\"id\":\"b\",\"hit\":false,\"alpha\":1}\n",
						 cli_shapeRecords, false, "read as CSV separated by ';' with decimal commas" };
	text = gradeFixture(&cfg, &expected, &right, &status);
	ck_assert_int_eq(status, cli_exitOk);
	ck_assert_str_eq(text, "s.csv: note: read as CSV separated by ';' with decimal commas\n"
						   "2 passed, 0 failed, 0 missing, 0 extra\n");
	free(text);
	cliResultSet_Free(&expected);
}
END_TEST

/* A file without ids is matched by position when the counts agree (and
 * says so); a row number never stands for a real id. */
START_TEST(positionalMatching)
{
	cliResultSet expected = parse(expectedText);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	const char* noIds = "{\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8]}\n{\"hit\":false,\"alpha\":1}\n";
	cliResultSet actual = parse(noIds);
	/* the reader marks a file without ids positional */
	ck_assert(actual.positional);
	bool fails[3];
	cliGradeCounts counts;
	/* ids that match none of EXPECTED's (row numbers 0 and 1 against "a"
	 * and "b"): by position, as a teacher would, since the counts agree */
	actual.positional = false;
	ck_assert(cliJudgeResults(&cfg, &expected, &actual, fails, &counts));
	ck_assert_int_eq(counts.passed, 2);
	ck_assert_int_eq(counts.missing, 0);
	ck_assert_int_eq(counts.extra, 0);
	actual.positional = true;
	ck_assert(cliJudgeResults(&cfg, &expected, &actual, fails, &counts));
	ck_assert_int_eq(counts.passed, 2);
	ck_assert(!fails[0] && !fails[1]);
	/* the second answer wrong: it is b's record that fails */
	cliResultSet wrong = parse("{\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8]}\n{\"hit\":true,\"alpha\":0.5}\n");
	wrong.positional = true;
	ck_assert(cliJudgeResults(&cfg, &expected, &wrong, fails, &counts));
	ck_assert(!fails[0] && fails[1]);
	ck_assert_int_eq(counts.failed, 1);
	/* counts that disagree: nothing matched, said in the report */
	cliResultSet three = parse("{\"hit\":false,\"alpha\":1}\n{\"hit\":false,\"alpha\":1}\n{\"hit\":false,\"alpha\":1}\n");
	three.positional = true;
	ck_assert(cliJudgeResults(&cfg, &expected, &three, fails, &counts));
	ck_assert_int_eq(counts.passed, 0);
	ck_assert_int_eq(counts.missing, 2);
	ck_assert_int_eq(counts.extra, 3);
	ck_assert(fails[0] && fails[1] && fails[2]);
	int status = 0;
	cliFixture fixture = { noIds, cli_shapeRecords, true, NULL };
	char* text = gradeFixture(&cfg, &expected, &fixture, &status);
	ck_assert_int_eq(status, cli_exitOk);
	ck_assert_str_eq(text, "s.csv: note: no ids: records matched by position, in the trajectories' order\n"
						   "2 passed, 0 failed, 0 missing, 0 extra\n");
	free(text);
	cliResultSet_Free(&three);
	cliResultSet_Free(&wrong);
	cliResultSet_Free(&actual);
	cliResultSet_Free(&expected);
}
END_TEST

/* The normal is held to the convention: EXPECTED's normal is its answer,
 * ties add only their normals of that convention; --accept-normals widens
 * it. A contact on an edge of triangles 3 (normal z) and 4 (normal y). */
START_TEST(normalConvention)
{
	const char* edge =
		"{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"feature\":\"edge\",\"normal\":[0,0.6,0.8],"
		"\"triangle_normal\":[0,0,1],\"ties\":[{\"triangle\":3,\"feature\":\"edge\",\"normal\":[0,0.6,0.8]},"
		"{\"triangle\":4,\"feature\":\"edge\",\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,1,0]}]}\n";
	cliResultSet expected = parse(edge);
	cliGradeConfig cfg;
	cliGradeConfig_Init(&cfg);
	cfg.fields = CLI_FIELDS_GRADE;
	cfg.normalConvention = cli_normalsContact;
	bool fails[1];
	cliGradeCounts counts;
	cliResultSet contact = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0.6,0.8]}\n");
	cliResultSet triangle3 = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,0,1]}\n");
	cliResultSet triangle4 = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"normal\":[0,1,0]}\n");
	ck_assert(cliJudgeResults(&cfg, &expected, &contact, fails, &counts) && !fails[0]);
	/* a triangle normal where the contact normal is asked: fails, tie or not */
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle3, fails, &counts) && fails[0]);
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle4, fails, &counts) && fails[0]);
	cfg.acceptNormals = cli_normalsContact | cli_normalsTriangle;
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle3, fails, &counts) && !fails[0]);
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle4, fails, &counts) && !fails[0]);
	/* the triangle convention: EXPECTED's normal is the triangle's, a tied
	 * triangle's passes, the contact normal does not */
	cliResultSet_Free(&expected);
	expected = parse("{\"id\":\"a\",\"hit\":true,\"alpha\":0.5,\"triangle\":3,\"feature\":\"edge\",\"normal\":[0,0,1],"
					 "\"triangle_normal\":[0,0,1],\"ties\":[{\"triangle\":3,\"feature\":\"edge\",\"normal\":[0,0.6,0.8]},"
					 "{\"triangle\":4,\"feature\":\"edge\",\"normal\":[0,0.6,0.8],\"triangle_normal\":[0,1,0]}]}\n");
	cfg.acceptNormals = 0;
	cfg.normalConvention = cli_normalsTriangle;
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle3, fails, &counts) && !fails[0]);
	ck_assert(cliJudgeResults(&cfg, &expected, &triangle4, fails, &counts) && !fails[0]);
	ck_assert(cliJudgeResults(&cfg, &expected, &contact, fails, &counts) && fails[0]);
	unsigned normals = 0;
	ck_assert(cliParseNormals("contact,triangle", &normals));
	ck_assert_uint_eq(normals, cli_normalsContact | cli_normalsTriangle);
	ck_assert(cliParseNormals("average", &normals));
	ck_assert_uint_eq(normals, cli_normalsAverage);
	ck_assert(!cliParseNormals("contact,", &normals));
	ck_assert(!cliParseNormals("face", &normals));
	cliResultSet_Free(&triangle4);
	cliResultSet_Free(&triangle3);
	cliResultSet_Free(&contact);
	cliResultSet_Free(&expected);
}
END_TEST

static Suite* gradeSuite(void)
{
	Suite* suite = suite_create("grade");
	TCase* c = tcase_create("engine");
	tcase_add_test(c, fieldsWords);
	tcase_add_test(c, judgeMarksWhatFails);
	tcase_add_test(c, normalLength);
	tcase_add_test(c, mistakesOnTheAnswer);
	tcase_add_test(c, shapesAndNotes);
	tcase_add_test(c, positionalMatching);
	tcase_add_test(c, normalConvention);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeSuite());
}
