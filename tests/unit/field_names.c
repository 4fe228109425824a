/* field_names.c - unit tests for the names students give the fields of an
 * answer (cli/field_names.h): cast's own, the course's spellings, any
 * case and word order of cutting, vectors' components in every packing,
 * percentages, and names that only suggest a field. */
#include <check.h>
#include <string.h>

#include "field_names.h"
#include "harness.h"

static void assertSlot(const char* name, cliSlot slot, bool sure)
{
	bool got = !sure;
	cliSlot s = cliSlotOfName(name, &got);
	ck_assert_msg(s == slot, "'%s' reads as %s, expected %s", name, cliSlot_Name(s), cliSlot_Name(slot));
	ck_assert_msg(got == sure, "'%s': sure %d, expected %d", name, got, sure);
}

START_TEST(castsAndCourses)
{
	/* cast's own keys and columns */
	assertSlot("id", cli_slotId, true);
	assertSlot("hit", cli_slotHit, true);
	assertSlot("alpha", cli_slotAlpha, true);
	assertSlot("initial_overlap", cli_slotInitialOverlap, true);
	assertSlot("feature", cli_slotFeature, true);
	assertSlot("triangle", cli_slotTriangle, true);
	assertSlot("face", cli_slotFace, true);
	assertSlot("vertices", cli_slotVertices, true);
	assertSlot("vertex_2", cli_slotVertex2, true);
	assertSlot("normal", cli_slotNormal, true);
	assertSlot("normal_y", cli_slotNormal + 2, true);
	assertSlot("triangle_normal_z", cli_slotTriangleNormal + 3, true);
	assertSlot("point_x", cli_slotPoint + 1, true);
	assertSlot("center", cli_slotCenter, true);
	assertSlot("x0", cli_slotP0 + 1, true);
	assertSlot("z1", cli_slotP1 + 3, true);
	assertSlot("error", cli_slotError, true);
	assertSlot("ties", cli_slotTies, true);
	/* the synonyms, in any case and spelling */
	assertSlot("t", cli_slotAlpha, true);
	assertSlot("TOI", cli_slotAlpha, true);
	assertSlot("Time", cli_slotAlpha, true);
	assertSlot("hit_time", cli_slotAlpha, true);
	assertSlot("hitTime", cli_slotAlpha, true);
	assertSlot("impact_time", cli_slotAlpha, true);
	assertSlot("time of impact", cli_slotAlpha, true);
	assertSlot("face_id", cli_slotTriangle, true);
	assertSlot("tri", cli_slotTriangle, true);
	assertSlot("triangleIndex", cli_slotTriangle, true);
	assertSlot("TRI_IDX", cli_slotTriangle, true);
	assertSlot("collided", cli_slotHit, true);
	assertSlot("didHit", cli_slotHit, true);
	assertSlot("FACE", cli_slotFace, true);
	assertSlot("throw_id", cli_slotId, true);
	assertSlot("Feature", cli_slotFeature, true);
	assertSlot("contact type", cli_slotFeature, true);
}
END_TEST

START_TEST(components)
{
	const char* xs[] = { "nx", "NX", "n_x", "nX", "normal.x", "normal[0]", "Normal X", "n x", "contact_normal_x" };
	for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
		assertSlot(xs[k], cli_slotNormal + 1, true);
	}
	assertSlot("nz", cli_slotNormal + 3, true);
	assertSlot("px", cli_slotPoint + 1, true);
	assertSlot("cy", cli_slotCenter + 2, true);
	assertSlot("normal[2]", cli_slotNormal + 3, true);
	/* MATLAB's writetable numbers from 1 */
	bool sure = false;
	ck_assert_int_eq(cliSlotOfNameOneBased("normal_1", &sure), cli_slotNormal + 1);
	ck_assert_int_eq(cliSlotOfNameOneBased("normal_3", &sure), cli_slotNormal + 3);
	ck_assert(cliNameEndsInDigit("normal_3", '3'));
	ck_assert(!cliNameEndsInDigit("normal3", '3'));
	ck_assert(cliSlot_IsComponent(cli_slotNormal + 2));
	ck_assert(cliSlot_IsVector(cli_slotNormal));
	ck_assert_int_eq(cliSlot_VectorOf(cli_slotNormal + 2), cli_slotNormal);
	ck_assert_int_eq(cliSlot_Component(cli_slotNormal + 3), 2);
}
END_TEST

START_TEST(percentAndHints)
{
	assertSlot("alpha_pct", cli_slotAlphaPercent, true);
	assertSlot("Alpha (%)", cli_slotAlphaPercent, true);
	assertSlot("t%", cli_slotAlphaPercent, true);
	assertSlot("percent", cli_slotAlphaPercent, false);
	/* names that only suggest: the values must agree */
	assertSlot("a", cli_slotAlpha, false);
	assertSlot("index", cli_slotId, false);
	assertSlot("impact", cli_slotHit, false);
	assertSlot("Unnamed: 0", cli_slotId, false);
	assertSlot("alpha_free", cli_slotAlpha, false);
	assertSlot("my_normal", cli_slotNormal, false);
	/* nothing */
	assertSlot("colour", cli_slotNone, false);
	assertSlot("", cli_slotNone, false);
	assertSlot("speed", cli_slotNone, false);
	ck_assert(cliNameIsIgnore("none"));
	ck_assert(cliNameIsIgnore("ignore"));
	ck_assert(!cliNameIsIgnore("alpha"));
	ck_assert_str_eq(cliSlot_Name(cli_slotNormal + 1), "normal_x");
	ck_assert_str_eq(cliSlot_Name(cli_slotP1 + 2), "y1");
}
END_TEST

static Suite* fieldNamesSuite(void)
{
	Suite* suite = suite_create("field_names");
	TCase* tc = tcase_create("field_names");
	tcase_add_test(tc, castsAndCourses);
	tcase_add_test(tc, components);
	tcase_add_test(tc, percentAndHints);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(fieldNamesSuite());
}
