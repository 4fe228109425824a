/* grade_report.c - unit tests for what the report writers share
 * (cli/grade_report.h): scores rounded for reading, each kind of
 * difference in words (the sentences the man page shows), a record's
 * message with its differences, notes joined, the walk of EXPECTED's
 * records beside a file's entries. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_report.h"
#include "harness.h"

/* What a writer wrote (the caller frees it). */
#define CAPTURE(text, call)                                                                                            \
	do {                                                                                                               \
		size_t size_ = 0;                                                                                              \
		FILE* f = open_memstream(&(text), &size_);                                                                     \
		ck_assert_ptr_nonnull(f);                                                                                      \
		call;                                                                                                          \
		fclose(f);                                                                                                     \
	} while (0)

START_TEST(roundedScores)
{
	static const struct {
		double score;
		const char* text;
	} cases[] = { { 1.0, "1" }, { 0.0, "0" }, { 12.0 / 13.0, "0.923" }, { 0.5, "0.5" }, { 0.99971, "0.999" },
				  { 0.0012345, "0.00123" } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* text = NULL;
		CAPTURE(text, cliWriteRoundedScore(f, cases[k].score));
		ck_assert_str_eq(text, cases[k].text);
		free(text);
	}
}
END_TEST

/* The words of one difference. */
static void assertWords(const cliDiff* d, const char* words)
{
	char* text = NULL;
	CAPTURE(text, cliWriteDiff(f, d));
	ck_assert_str_eq(text, words);
	free(text);
}

START_TEST(differencesInWords)
{
	cliDiff alpha = { .reason = cli_diffValue, .field = "alpha" };
	alpha.actual = (cliValue){ .kind = cli_valueNumber, .number = 0.625 };
	alpha.expected = (cliValue){ .kind = cli_valueNumber, .number = 0.5 };
	alpha.measure = "diff";
	alpha.difference = 0.125;
	alpha.tolerance = 1e-9;
	alpha.unit = "";
	assertWords(&alpha, "alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)");
	cliDiff normal = { .reason = cli_diffValue, .field = "normal" };
	normal.expected = (cliValue){ .kind = cli_valueVec3, .vec = { 0.0, -0.5, 1.0 } };
	assertWords(&normal, "normal missing (expected [0,-0.5,1])");
	normal.actual = (cliValue){ .kind = cli_valueVec3, .vec = { 0.0, 0.0, 1.0 } };
	normal.measure = "angle";
	normal.difference = 45.0;
	normal.tolerance = 1e-6;
	normal.unit = " degrees";
	assertWords(&normal, "normal [0,0,1] vs expected [0,-0.5,1] (angle 45 > tol 1e-06 degrees)");
	cliDiff feature = { .reason = cli_diffValue, .field = "feature" };
	feature.actual = (cliValue){ .kind = cli_valueName, .text = "edge" };
	feature.expected = (cliValue){ .kind = cli_valueName, .text = "face" };
	assertWords(&feature, "feature edge vs expected face");
	cliDiff error = { .reason = cli_diffValue, .field = "error" };
	error.expected = (cliValue){ .kind = cli_valueText, .text = "missing \"p0\"" };
	error.actual = (cliValue){ .kind = cli_valueNull };
	assertWords(&error, "error none vs expected \"missing \\\"p0\\\"\"");
	cliDiff vertices = { .reason = cli_diffValue, .field = "vertices" };
	vertices.actual = (cliValue){ .kind = cli_valueInts, .ints = { 4, 7 }, .count = 2 };
	vertices.expected = (cliValue){ .kind = cli_valueInts, .ints = { 4, 7, 9 }, .count = 3 };
	assertWords(&vertices, "vertices [4,7] vs expected [4,7,9]");
	cliDiff off = { .reason = cli_diffOffPath, .field = "alpha" };
	off.actual = (cliValue){ .kind = cli_valueNumber, .number = 1.5 };
	assertWords(&off, "alpha 1.5 is outside [0, 1]");
	off.expected = (cliValue){ .kind = cli_valueNumber, .number = 0.25 };
	assertWords(&off, "alpha 1.5 is outside [0, 1] (expected 0.25)");
	cliDiff unit = { .reason = cli_diffNotUnit, .field = "normal", .difference = 2.0 };
	unit.actual = (cliValue){ .kind = cli_valueVec3, .vec = { 0.0, 1.2, 1.6 } };
	assertWords(&unit, "normal [0,1.2,1.6] is not a unit vector (length 2)");
	cliDiff tied = { .reason = cli_diffNotTied, .field = "contact", .ties = 3 };
	tied.contact.fields = cli_resultFeature | cli_resultTriangle | cli_resultVertices;
	tied.contact.feature = bc_featureEdge;
	tied.contact.triangle = 5;
	tied.contact.vertices[0] = 1;
	tied.contact.vertices[1] = 2;
	tied.contact.vertexCount = 2;
	assertWords(&tied, "contact (feature edge, triangle 5, vertices [1,2]) is not one of the 3 tied contacts");
	cliDiff unreadable = { .reason = cli_diffUnreadable, .field = "record", .text = "hit: expected true or false" };
	unreadable.line[0] = 3;
	unreadable.column[0] = 18;
	assertWords(&unreadable, "unreadable at 3:18: hit: expected true or false");
	cliDiff duplicate = { .reason = cli_diffDuplicate, .field = "id", .line = { 3, 9 }, .column = { 1, 1 } };
	assertWords(&duplicate, "duplicate id (lines 3 and 9)");
	duplicate.text = "e.json";
	duplicate.line[1] = 3;
	duplicate.column[1] = 40;
	assertWords(&duplicate, "duplicate id in e.json (line 3, columns 1 and 40)");
}
END_TEST

START_TEST(entriesNotesAndTheWalk)
{
	cliFileReport r;
	ck_assert(cliFileReport_Open(&r, "s.json"));
	ck_assert_ptr_nonnull(cliFileReport_AddMissing(&r, 1));
	cliDiffs d = { NULL, 0, 0, false };
	cliDiff hit = { .reason = cli_diffValue, .field = "hit" };
	hit.actual = (cliValue){ .kind = cli_valueBool, .flag = false };
	hit.expected = (cliValue){ .kind = cli_valueBool, .flag = true };
	cliDiffs_Add(&d, &hit);
	cliDiff alpha = { .reason = cli_diffValue, .field = "alpha" };
	alpha.expected = (cliValue){ .kind = cli_valueNumber, .number = 0.5 };
	cliDiffs_Add(&d, &alpha);
	const cliEntry* failure = cliFileReport_AddFailure(&r, 3, 2, &d);
	ck_assert_ptr_nonnull(failure);
	ck_assert_int_eq(d.count, 0); /* taken */
	ck_assert_int_eq(r.score.failed, 1);
	ck_assert_int_eq(r.score.missing, 1);
	char* text = cliEntryText(&r, r.entries + 0);
	ck_assert_str_eq(text, "missing");
	free(text);
	text = cliEntryText(&r, r.entries + 1);
	ck_assert_str_eq(text, "hit false vs expected true; alpha missing (expected 0.5)");
	free(text);
	/* notes, in the order found */
	text = cliNotesText(&r);
	ck_assert_str_eq(text, "");
	free(text);
	ck_assert(cliFileReport_AddNote(&r, "read as CSV separated by ';'"));
	ck_assert(cliFileReport_AddNote(&r, "no ids"));
	text = cliNotesText(&r);
	ck_assert_str_eq(text, "read as CSV separated by ';'; no ids");
	free(text);
	/* records 0 .. 4: 1 missing, 3 failing, the rest passed */
	cliRecordWalk walk = { &r, 0 };
	const cliEntry* seen[5];
	for (long i = 0; i < 5; ++i) {
		seen[i] = cliRecordWalk_Entry(&walk, i);
	}
	ck_assert(seen[0] == NULL && seen[1] == r.entries && seen[2] == NULL && seen[3] == r.entries + 1 &&
			  seen[4] == NULL);
	cliFileReport_Free(&r);
	ck_assert_str_eq(r.score.name, "s.json"); /* the score is the table's */
	cliFileScore_Free(&r.score);
}
END_TEST

static Suite* gradeReportSuite(void)
{
	Suite* suite = suite_create("grade_report");
	TCase* c = tcase_create("report");
	tcase_add_test(c, roundedScores);
	tcase_add_test(c, differencesInWords);
	tcase_add_test(c, entriesNotesAndTheWalk);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(gradeReportSuite());
}
