/* results_write.c - unit tests for the cast results writer
 * (cli/results_write.c): what --method discrete and --compare-exact add
 * (the settings, exact_alpha, tunnelled, alpha_free), and that an exact run's text
 * is what it always was. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "results_write.h"

/* out's text as a C string (kept in a static buffer, for comparisons). */
static const char* text(cliBuffer* out)
{
	static char copy[4096];
	ck_assert_uint_lt(out->length, sizeof copy);
	memcpy(copy, out->data, out->length);
	copy[out->length] = '\0';
	cliBuffer_Clear(out);
	return copy;
}

static cliRecord recordWithId(const char* id, long index)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = index;
	record.idKind = cli_idString;
	record.id = (char*)id;
	return record;
}

static bcCastOutput hitAt(double alpha)
{
	bcCastOutput out;
	memset(&out, 0, sizeof out);
	out.state = bc_castHit;
	out.alpha = alpha;
	out.feature = bc_featureFace;
	out.vertexCount = 3;
	out.vertices[0] = 0;
	out.vertices[1] = 1;
	out.vertices[2] = 2;
	out.point = (bcVec3){ 0.25, 0.25, 0.0 };
	out.center = (bcVec3){ 0.25, 0.25, 0.5 };
	out.normal = (bcVec3){ 0.0, 0.0, 1.0 };
	out.triangleNormal = out.normal;
	out.tieCount = 1;
	return out;
}

static bcCastOutput missed(void)
{
	bcCastOutput out;
	memset(&out, 0, sizeof out);
	out.state = bc_castMiss;
	out.alpha = 1.0;
	out.triangle = out.face = -1;
	return out;
}

static cliCastHeader header(const bcCastOptions* options, const bcDiscreteOptions* discrete, bool compare)
{
	bcMeshInfo info;
	memset(&info, 0, sizeof info);
	info.vertexCount = 3;
	info.triangleCount = 1;
	info.faceCount = 1;
	cliCastHeader h = { "tri.obj", info, options, "contact", false, discrete, compare };
	return h;
}

START_TEST(exactRunUnchanged)
{
	bcCastOptions options = bcDefaultCastOptions();
	cliCastHeader h = header(&options, NULL, false);
	cliCastWriter writer;
	cliBuffer out = { 0 };
	cliCastWriter_Begin(&writer, &out, cli_outputJson, &h);
	ck_assert_str_eq(text(&out), "{\"ballcast\":\"" BC_VERSION_STRING "\",\"mesh\":{\"file\":\"tri.obj\",\"vertices\":3,"
								 "\"triangles\":1,\"faces\":1,\"degenerate\":0},\"settings\":{\"two_sided\":false,"
								 "\"approach\":\"le\",\"initial_overlap\":\"report\",\"normal\":\"contact\","
								 "\"tie_tolerance\":1e-10},\n\"results\":[");
	cliRecord r = recordWithId("a", 0);
	bcCastOutput miss = missed();
	cliCastWriter_Format(&writer, &out, 1, &r, NULL, &miss, NULL, 0, NULL);
	ck_assert_str_eq(text(&out), ",\n{\"id\":\"a\",\"hit\":false,\"alpha\":1}");
	cliCastSummary summary = { 1, 0, 0, 0 };
	cliCastWriter_End(&writer, &out, 1, &summary);
	ck_assert_str_eq(text(&out), "\n],\n\"summary\":{\"records\":1,\"hits\":0,\"errors\":0}}\n");
	cliCastWriter_Begin(&writer, &out, cli_outputCsv, &h);
	ck_assert_ptr_null(strstr(text(&out), "exact_alpha"));
	cliBuffer_Free(&out);
}
END_TEST

START_TEST(discreteSettingsAndExactAlpha)
{
	bcCastOptions options = bcDefaultCastOptions();
	bcDiscreteOptions discrete = bcDefaultDiscreteOptions();
	discrete.step = 0.25;
	discrete.bisections = 2;
	cliCastHeader h = header(&options, &discrete, true);
	cliCastWriter writer;
	cliBuffer out = { 0 };
	cliCastWriter_Begin(&writer, &out, cli_outputJson, &h);
	ck_assert_ptr_nonnull(
		strstr(text(&out), "\"tie_tolerance\":1e-10,\"method\":\"discrete\",\"dt\":0.25,\"bisect\":2,"
						   "\"compare_exact\":true},\n\"results\":["));

	cliRecord r = recordWithId("t", 0);
	bcCastOutput hit = hitAt(0.375), exact = hitAt(0.3), miss = missed();
	cliCastWriter_Format(&writer, &out, 0, &r, NULL, &hit, NULL, 0, &exact);
	const char* json = text(&out);
	ck_assert_ptr_nonnull(strstr(json, "\"triangle_normal\":[0,0,1],\"exact_alpha\":0.3}"));
	/* tunnelled: missed, the exact cast hit */
	cliCastWriter_Format(&writer, &out, 1, &r, NULL, &miss, NULL, 0, &exact);
	ck_assert_str_eq(text(&out), ",\n{\"id\":\"t\",\"hit\":false,\"alpha\":1,\"exact_alpha\":0.3}");
	/* both miss: null */
	cliCastWriter_Format(&writer, &out, 2, &r, NULL, &miss, NULL, 0, &miss);
	ck_assert_str_eq(text(&out), ",\n{\"id\":\"t\",\"hit\":false,\"alpha\":1,\"exact_alpha\":null}");
	/* a bad record: only its error */
	cliCastWriter_Format(&writer, &out, 3, &r, "missing p0", NULL, NULL, 0, NULL);
	ck_assert_str_eq(text(&out), ",\n{\"id\":\"t\",\"error\":\"missing p0\"}");
	cliCastSummary summary = { 3, 1, 1, 1 };
	cliCastWriter_End(&writer, &out, 4, &summary);
	ck_assert_str_eq(text(&out), "\n],\n\"summary\":{\"records\":3,\"hits\":1,\"errors\":1,\"tunnelled\":1}}\n");

	/* CSV: exact_alpha the last column, empty on an exact miss and on errors */
	cliCastWriter_Begin(&writer, &out, cli_outputCsv, &h);
	const char* head = text(&out);
	ck_assert_ptr_nonnull(strstr(head, ",triangle_normal_z,error,exact_alpha\n"));
	cliCastWriter_Format(&writer, &out, 0, &r, NULL, &miss, NULL, 0, &exact);
	ck_assert_str_eq(text(&out), "t,false,1,,,,,,,,,,,,,,,,,,,,,0.3\n");
	cliCastWriter_Format(&writer, &out, 1, &r, NULL, &miss, NULL, 0, &miss);
	ck_assert_str_eq(text(&out), "t,false,1,,,,,,,,,,,,,,,,,,,,,\n");
	cliCastWriter_Format(&writer, &out, 2, &r, "bad", NULL, NULL, 0, NULL);
	ck_assert_str_eq(text(&out), "t,,,,,,,,,,,,,,,,,,,,,,bad,\n");
	cliCastWriter_Format(&writer, &out, 3, &r, NULL, &hit, NULL, 0, &exact);
	ck_assert_str_eq(text(&out), "t,true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,,0.3\n");
	cliBuffer_Free(&out);
}
END_TEST

/* --method discrete with the lower end: "alpha_free" after the other keys,
 * CSV's last column; absent from error records; a writer begun without it
 * writes neither key nor column. */
START_TEST(discreteAlphaFree)
{
	bcCastOptions options = bcDefaultCastOptions();
	bcDiscreteOptions discrete = bcDefaultDiscreteOptions();
	discrete.step = 0.125;
	cliCastHeader h = header(&options, &discrete, true);
	cliCastWriter writer;
	cliBuffer out = { 0 };
	cliCastWriter_BeginWithAlphaFree(&writer, &out, cli_outputNdjson, &h);
	ck_assert_uint_eq(out.length, 0);
	cliRecord r = recordWithId("drop", 0);
	bcCastOutput hit = hitAt(0.42578125), exact = hitAt(0.425), miss = missed();
	cliCastAnswer answer = { &r, NULL, &hit, NULL, 0, &exact, 0.421875 };
	cliCastWriter_FormatAnswer(&writer, &out, 0, &answer);
	ck_assert_ptr_nonnull(strstr(text(&out), "\"alpha\":0.42578125,\"initial_overlap\":false,"));
	cliCastWriter_FormatAnswer(&writer, &out, 0, &answer);
	ck_assert_ptr_nonnull(strstr(text(&out), ",\"exact_alpha\":0.425,\"alpha_free\":0.421875}\n"));
	answer.output = &miss;
	answer.alphaFree = 1.0;
	cliCastWriter_FormatAnswer(&writer, &out, 1, &answer);
	ck_assert_str_eq(text(&out), "{\"id\":\"drop\",\"hit\":false,\"alpha\":1,\"exact_alpha\":0.425,\"alpha_free\":1}\n");
	answer.error = "missing p1";
	cliCastWriter_FormatAnswer(&writer, &out, 2, &answer);
	ck_assert_str_eq(text(&out), "{\"id\":\"drop\",\"error\":\"missing p1\"}\n");

	cliCastWriter_BeginWithAlphaFree(&writer, &out, cli_outputCsv, &h);
	ck_assert_ptr_nonnull(strstr(text(&out), ",triangle_normal_z,error,exact_alpha,alpha_free\n"));
	answer.error = NULL;
	answer.output = &hit;
	answer.alphaFree = 0.421875;
	cliCastWriter_FormatAnswer(&writer, &out, 0, &answer);
	ck_assert_str_eq(text(&out),
					 "drop,true,0.42578125,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,,0.425,0.421875\n");
	answer.error = "bad";
	cliCastWriter_FormatAnswer(&writer, &out, 1, &answer);
	ck_assert_str_eq(text(&out), "drop,,,,,,,,,,,,,,,,,,,,,,bad,,\n");

	/* begun without it: no key, no column */
	cliCastWriter_Begin(&writer, &out, cli_outputCsv, &h);
	ck_assert_ptr_null(strstr(text(&out), "alpha_free"));
	answer.error = NULL;
	cliCastWriter_FormatAnswer(&writer, &out, 0, &answer);
	ck_assert_ptr_null(strstr(text(&out), "0.421875"));
	cliBuffer_Free(&out);
}
END_TEST

static Suite* resultsWriteSuite(void)
{
	Suite* suite = suite_create("results_write");
	TCase* formats = tcase_create("formats");
	tcase_add_test(formats, exactRunUnchanged);
	tcase_add_test(formats, discreteSettingsAndExactAlpha);
	tcase_add_test(formats, discreteAlphaFree);
	suite_add_tcase(suite, formats);
	return suite;
}

int main(void)
{
	return bcRunSuite(resultsWriteSuite());
}
