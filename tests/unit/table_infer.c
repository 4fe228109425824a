/* table_infer.c - unit tests for telling which column holds which field
 * (cli/table_infer.h): by --map (a name, a key path, a column number,
 * none), by names, and by values on files without a header: booleans are
 * hit, numbers in [0, 1] alpha, three columns of unit vectors or one cell
 * of them the normal, feature letters the feature, whole numbers below
 * the triangle count the triangle, distinct values the id; percentages;
 * two columns that fit one field flag the file, the evidence is kept. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table_infer.h"
#include "table_json.h"
#include "table_support.h"
#include "table_text.h"

/* Read text into t (its rows kept) and infer with options. */
static void infer(cliTable* t, cliTableMap* m, const char* text, const char* const* map, int mapCount,
				  int32_t triangles, bool values)
{
	bcTableKeeping(t);
	bcError error;
	size_t n = strlen(text);
	bool ok = cliLooksLikeLiteral(text, n) ? cliTable_ReadLiteral(t, text, n, &error)
										   : cliTable_ReadText(t, text, n, &error);
	ck_assert_msg(ok, "%s: %s", text, error.message);
	cliInferOptions options = { map, mapCount, triangles, values };
	ck_assert(cliTableMap_Infer(m, t, &options));
}

/* The slot column k was read as, and how. */
static void assertColumn(const cliTableMap* m, int k, cliSlot slot, cliEvidence by)
{
	ck_assert_msg(m->columns[k].slot == slot && m->columns[k].by == by, "column %d: %s by %d, expected %s by %d",
				  k + 1, cliSlot_Name(m->columns[k].slot), m->columns[k].by, cliSlot_Name(slot), by);
}

START_TEST(byValues)
{
	/* a printf of id, hit, alpha, nx, ny, nz, triangle; a miss's alpha -1 */
	const char* text = "t001 1 0.25 0 0 1 12\n"
					   "t002 0 -1 0 0 0 -1\n"
					   "t003 1 0.5 0.6 0 0.8 40\n"
					   "t004 1 0.75 0 -1 0 7\n";
	cliTable t;
	cliTableMap m;
	infer(&t, &m, text, NULL, 0, 100, true);
	ck_assert(!t.header);
	assertColumn(&m, 0, cli_slotId, cli_byValues);
	assertColumn(&m, 1, cli_slotHit, cli_byValues);
	ck_assert_str_eq(m.columns[1].evidence, "all values 0 or 1");
	assertColumn(&m, 2, cli_slotAlpha, cli_byValues);
	ck_assert_str_eq(m.columns[2].evidence, "all values in [0, 1] or -1");
	assertColumn(&m, 3, cli_slotNormal + 1, cli_byValues);
	assertColumn(&m, 5, cli_slotNormal + 3, cli_byValues);
	/* the miss (hit 0) and its [0, 0, 0] say nothing of the normal */
	ck_assert_str_eq(m.columns[3].evidence, "with the next two: vectors of length 1 in all 3 rows given");
	/* whole numbers below the triangle count (a miss's -1 aside) */
	assertColumn(&m, 6, cli_slotTriangle, cli_byValues);
	ck_assert_str_eq(m.columns[6].evidence, "whole numbers up to 40, the mesh has 100 triangles");
	ck_assert(!m.review);
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* words, a vector in one cell, feature letters, the triangle below the count */
	text = "[[\"t1\", \"yes\", 0.25, [0, 0, 1], \"f\", 3], [\"t2\", \"no\", null, null, null, null],"
		   " [\"t3\", \"yes\", 0.5, [0.6, 0, 0.8], \"e\", 17], [\"t4\", \"yes\", 1, [0, 1, 0], \"v\", 3]]";
	infer(&t, &m, text, NULL, 0, 20, true);
	assertColumn(&m, 0, cli_slotId, cli_byValues);
	assertColumn(&m, 1, cli_slotHit, cli_byValues);
	ck_assert_str_eq(m.columns[1].evidence, "all values booleans");
	assertColumn(&m, 2, cli_slotAlpha, cli_byValues);
	assertColumn(&m, 3, cli_slotNormal, cli_byValues);
	ck_assert_str_eq(m.columns[3].evidence, "all values vectors of length 1");
	assertColumn(&m, 4, cli_slotFeature, cli_byValues);
	assertColumn(&m, 5, cli_slotTriangle, cli_byValues);
	ck_assert_str_eq(m.columns[5].evidence, "whole numbers up to 17, the mesh has 20 triangles");
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* above the triangle count: no triangle */
	infer(&t, &m, text, NULL, 0, 10, true);
	ck_assert_int_eq(m.columnOf[cli_slotTriangle], -1);
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* names only (EXPECTED's reading): nothing told by values */
	infer(&t, &m, text, NULL, 0, 20, false);
	for (int k = 0; k < m.columnCount; ++k) {
		assertColumn(&m, k, cli_slotNone, cli_byNone);
	}
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
}
END_TEST

START_TEST(namesPercentAndChoices)
{
	cliTable t;
	cliTableMap m;
	/* names, a percentage by its sign, no hit column */
	infer(&t, &m, "ID,TOI,Normal X,Normal Y,Normal Z,FACE_ID\nt1,25%,0,0,1,3\nt2,,,,,\n", NULL, 0, 0, true);
	assertColumn(&m, 0, cli_slotId, cli_byName);
	assertColumn(&m, 1, cli_slotAlphaPercent, cli_byName);
	assertColumn(&m, 2, cli_slotNormal + 1, cli_byName);
	assertColumn(&m, 5, cli_slotTriangle, cli_byName);
	ck_assert(m.percent);
	ck_assert(m.hitFromAlpha);
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* two columns of numbers in [0, 1]: the first read, the other named, the file flagged */
	infer(&t, &m, "t1,true,0.25,0.5\nt2,false,1,0.75\n", NULL, 0, 0, true);
	assertColumn(&m, 2, cli_slotAlpha, cli_byValues);
	ck_assert(m.review);
	ck_assert_str_eq(m.reviewWhy, "alpha: column 3 read, column 4 fits too");
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* a top-level key wins over the same one nested */
	infer(&t, &m, "[{\"id\":1,\"alpha\":0.5,\"result\":{\"t\":0.25}}]", NULL, 0, 0, true);
	ck_assert_int_eq(m.columnOf[cli_slotAlpha], 1);
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
}
END_TEST

START_TEST(mapOverrides)
{
	cliTable t;
	cliTableMap m;
	const char* text = "id,t,w,tri\na,0.5,true,3\nb,1,false,4\n";
	/* a column number, a name as none, a key no file has */
	const char* map[] = { "3", "hit", "t", "none", "tri", "face", "nosuch", "alpha" };
	infer(&t, &m, text, map, 4, 0, true);
	assertColumn(&m, 2, cli_slotHit, cli_byMap);
	assertColumn(&m, 1, cli_slotNone, cli_byMap);
	assertColumn(&m, 3, cli_slotFace, cli_byMap);
	ck_assert_int_eq(m.columnOf[cli_slotAlpha], -1);
	ck_assert_str_eq(m.notes, "--map nosuch=alpha: no such column");
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
	/* a dotted path, and a nested key by its last part */
	const char* nested[] = { "out.when", "alpha", "ok", "hit" };
	infer(&t, &m, "[{\"id\":1,\"out\":{\"ok\":true,\"when\":0.75}}]", nested, 2, 0, true);
	ck_assert_int_eq(m.columnOf[cli_slotAlpha], 2);
	ck_assert_int_eq(m.columnOf[cli_slotHit], 1);
	char name[64];
	cliTable_ColumnName(&t, 2, name, sizeof name);
	ck_assert_str_eq(name, "'out.when'");
	cliTableMap_Free(&m);
	cliTable_Destroy(&t);
}
END_TEST

/* A column named in a note: the student's text escaped and cut short; a
 * key path keeps its last key. Expected by hand. */
START_TEST(columnNamesShown)
{
	static const struct {
		const char* name;
		const char* shown;
	} cases[] = {
		{ "TOI", "TOI" },
		{ "result.t", "result.t" },
		{ "the_answer_nested_under_this_key.hit", "the_answer_nested_under_\xe2\x80\xa6.hit" },
		{ "a_column_name_far_longer_than_a_header", "a_column_name_far_longer\xe2\x80\xa6" },
		{ "\033]0;x\007.alpha", "\\x1b]0;x\\x07.alpha" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char shown[CLI_COLUMN_NAME_SIZE];
		cliShortColumnName(cases[k].name, shown, sizeof shown);
		ck_assert_str_eq(shown, cases[k].shown);
	}
}
END_TEST

static Suite* tableInferSuite(void)
{
	Suite* suite = suite_create("table_infer");
	TCase* tc = tcase_create("table_infer");
	tcase_add_test(tc, byValues);
	tcase_add_test(tc, namesPercentAndChoices);
	tcase_add_test(tc, mapOverrides);
	tcase_add_test(tc, columnNamesShown);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableInferSuite());
}
