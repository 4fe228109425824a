/* cell_value.c - unit tests for what one value of a student's file says
 * (cli/cell_value.h): numbers however spelt (exact to the bit), booleans
 * in many words, missing values, feature names, vectors in one cell. */
#include <check.h>
#include <string.h>

#include "cell_value.h"
#include "harness.h"

/* Same bits. */
#define assertSame(got, expected)                                                                                      \
	do {                                                                                                               \
		double g_ = (got), e_ = (expected);                                                                            \
		ck_assert_msg(memcmp(&g_, &e_, sizeof g_) == 0, "%s = %.17g, expected %.17g", #got, g_, e_);                 \
	} while (0)

static void assertNumber(const char* text, bool comma, double expected, unsigned flags)
{
	double x = -7.0;
	unsigned got = 0;
	ck_assert_msg(cliCellNumber(text, comma, &x, &got) == 1, "'%s' is no number", text);
	assertSame(x, expected);
	ck_assert_msg(got == flags, "'%s': flags %u, expected %u", text, got, flags);
}

START_TEST(numbers)
{
	assertNumber("0.1", false, 0.1, 0);
	assertNumber("  -2.5e-3 ", false, -2.5e-3, 0);
	assertNumber("+1", false, 1.0, cli_numberWhole);
	assertNumber(".5", false, 0.5, 0);
	assertNumber("5.", false, 5.0, 0);
	assertNumber("1D-3", false, 1e-3, 0); /* Fortran */
	assertNumber("2.5E+00", false, 2.5, 0);
	assertNumber("0007", false, 7.0, cli_numberWhole | cli_numberLeadingZero);
	assertNumber("25%", false, 25.0, cli_numberWhole | cli_numberPercent);
	assertNumber("12.5 %", false, 12.5, cli_numberPercent);
	assertNumber("0,25", true, 0.25, cli_numberDecimalComma);
	assertNumber("-0,5", true, -0.5, cli_numberDecimalComma);
	/* the double strtod reads, to the bit */
	assertNumber("0.30000000000000004", false, 0.30000000000000004, 0);
	assertNumber("0.1000000000000000055511151231257827", false, 0.1, 0);
	double x = 0.0;
	ck_assert_int_eq(cliCellNumber("0,25", false, &x, NULL), -1); /* ',' separates: not a number here */
	ck_assert_int_eq(cliCellNumber("", false, &x, NULL), 0);
	ck_assert_int_eq(cliCellNumber("   ", false, &x, NULL), 0);
	ck_assert_int_eq(cliCellNumber("nan", false, &x, NULL), -2);
	ck_assert_int_eq(cliCellNumber("-Infinity", false, &x, NULL), -2);
	ck_assert_int_eq(cliCellNumber("1e999", false, &x, NULL), -2);
	ck_assert_int_eq(cliCellNumber("x1", false, &x, NULL), -1);
	ck_assert_int_eq(cliCellNumber("1.2.3", false, &x, NULL), -1);
	ck_assert_int_eq(cliCellNumber("0x10", false, &x, NULL), -1);
	ck_assert_int_eq(cliCellNumber("1e", false, &x, NULL), -1);
	ck_assert_int_eq(cliCellNumber(".", false, &x, NULL), -1);
}
END_TEST

START_TEST(booleans)
{
	const char* yes[] = { "true", "TRUE", "True", "yes", "Y", "t", "T", "1", "1.0", "on", "HIT", "WAHR", "vrai",
						  "VERDADERO", "waar", " true ", "ja", "oui", "collision", "Contact" };
	const char* no[] = { "false", "FALSE", "no", "n", "f", "F", "0", "0.0", "off", "miss", "FALSCH", "faux", "falso",
						 "onwaar", "nein", "non", "no collision", "NOT HIT", "no_contact" };
	for (size_t k = 0; k < sizeof yes / sizeof yes[0]; ++k) {
		bool b = false;
		ck_assert_msg(cliCellBool(yes[k], &b) && b, "'%s'", yes[k]);
	}
	for (size_t k = 0; k < sizeof no / sizeof no[0]; ++k) {
		bool b = true;
		ck_assert_msg(cliCellBool(no[k], &b) && !b, "'%s'", no[k]);
	}
	bool b = false;
	ck_assert(!cliCellBool("maybe", &b));
	ck_assert(!cliCellBool("2", &b));
	ck_assert(!cliCellBool("", &b));
	ck_assert(cliCellIsBoolWord("False"));
	ck_assert(cliCellIsBoolWord("WAHR"));
	ck_assert(!cliCellIsBoolWord("1"));
	ck_assert(!cliCellIsBoolWord("f"));
}
END_TEST

START_TEST(missingAndFeatures)
{
	const char* missing[] = { "", "  ", "nan", "NaN", "None", "NONE", "null", "NA", "n/a", "nil", "-", "--", "?",
							  "#N/A", "<NA>", "missing" };
	for (size_t k = 0; k < sizeof missing / sizeof missing[0]; ++k) {
		ck_assert_msg(cliCellIsMissing(missing[k]), "'%s'", missing[k]);
	}
	ck_assert(!cliCellIsMissing("0"));
	ck_assert(!cliCellIsMissing("none of it"));
	struct {
		const char* text;
		bcFeature feature;
	} features[] = {
		{ "face", bc_featureFace },           { "FACE", bc_featureFace },     { "Face", bc_featureFace },
		{ "f", bc_featureFace },              { "F", bc_featureFace },        { "triangle", bc_featureFace },
		{ "EDGE", bc_featureEdge },           { "e", bc_featureEdge },        { "vertex", bc_featureVertex },
		{ "v", bc_featureVertex },            { "VERT", bc_featureVertex },   { "corner", bc_featureVertex },
		{ "none", bc_featureNone },           { "MISS", bc_featureNone },     { "FEATURE_FACE", bc_featureFace },
		{ "Feature.EDGE", bc_featureEdge },   { "Feature::Vertex", bc_featureVertex },
		{ "bc_featureVertex", bc_featureVertex },
	};
	for (size_t k = 0; k < sizeof features / sizeof features[0]; ++k) {
		bcFeature f = (bcFeature)99;
		ck_assert_msg(cliCellFeature(features[k].text, &f) && f == features[k].feature, "'%s'", features[k].text);
	}
	bcFeature f;
	ck_assert(!cliCellFeature("overlap", &f));
	ck_assert(!cliCellFeature("x", &f));
}
END_TEST

START_TEST(vectors)
{
	const char* packings[] = { "[0.6, 0, 0.8]", "(0.6 0 0.8)", "{0.6; 0; 0.8}", "<0.6, 0, 0.8>", "vec3(0.6, 0, 0.8)",
							   "array([0.6, 0., 0.8])", "0.6 0 0.8", " [ 0.6,0,0.8 ] ", "np.array([.6, 0, .8])" };
	for (size_t k = 0; k < sizeof packings / sizeof packings[0]; ++k) {
		bcVec3 v = { 9, 9, 9 };
		ck_assert_msg(cliCellVector(packings[k], false, &v) == 1, "'%s'", packings[k]);
		assertSame(v.x, 0.6);
		assertSame(v.y, 0.0);
		assertSame(v.z, 0.8);
		ck_assert(cliCellIsUnitVector(packings[k], false));
	}
	bcVec3 v;
	/* decimal commas: the numbers then part at ';' or blanks */
	ck_assert_int_eq(cliCellVector("[0,6; 0; 0,8]", true, &v), 1);
	assertSame(v.x, 0.6);
	ck_assert_int_eq(cliCellVector("(0,6 0 0,8)", true, &v), 1);
	assertSame(v.z, 0.8);
	ck_assert_int_eq(cliCellVector("", false, &v), 0);
	ck_assert_int_eq(cliCellVector("None", false, &v), 0);
	ck_assert_int_eq(cliCellVector("[1, 2]", false, &v), -1);
	ck_assert_int_eq(cliCellVector("[1, 2, 3, 4]", false, &v), -1);
	ck_assert_int_eq(cliCellVector("[1, x, 3]", false, &v), -1);
	ck_assert_int_eq(cliCellVector("[1, nan, 3]", false, &v), -1);
	ck_assert(!cliCellIsUnitVector("[1, 2, 3]", false));
	/* printed with 6 digits, a unit vector is still one */
	ck_assert(cliCellIsUnitVector("(0.577350 0.577350 0.577350)", false));
}
END_TEST

static Suite* cellValueSuite(void)
{
	Suite* suite = suite_create("cell_value");
	TCase* tc = tcase_create("cell_value");
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, booleans);
	tcase_add_test(tc, missingAndFeatures);
	tcase_add_test(tc, vectors);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(cellValueSuite());
}
