/* output.c - unit tests for the text writers of cli/output.h that issue
 * 26 touched: a name shown as `ls -b` shows it, a message shown safely, a
 * JSON string that stays valid UTF-8 whatever bytes it is given, a CSV
 * cell that a spreadsheet would read as a formula. Each expected text is
 * written out by hand. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output.h"

static char* jsonOf(const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendJsonString(&buffer, text);
	cliBuffer_AppendChar(&buffer, '\0');
	return buffer.data;
}

static char* csvOf(const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendCsvField(&buffer, text);
	cliBuffer_AppendChar(&buffer, '\0');
	return buffer.data;
}

START_TEST(namesAsLsShowsThem)
{
	static const struct {
		const char* name;
		const char* shown;
	} cases[] = {
		{ "plain.json", "plain.json" },
		{ "with space, comma.csv", "with space, comma.csv" },
		{ "a\\b", "a\\\\b" },
		{ "t\tn\nr\r", "t\\tn\\nr\\r" },
		{ "\033[31mred\001", "\\x1b[31mred\\x01" },
		{ "del\177", "del\\x7f" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb1", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb1" }, /* é € 🎱 */
		{ "\xff\xfe", "\\xff\\xfe" },
		{ "over\xc0\xaflong", "over\\xc0\\xaflong" },         /* an overlong '/' */
		{ "sur\xed\xa0\x80", "sur\\xed\\xa0\\x80" },          /* a surrogate */
		{ "cut\xe2\x82", "cut\\xe2\\x82" },                   /* a sequence cut short */
		{ "big\xf4\x90\x80\x80", "big\\xf4\\x90\\x80\\x80" }, /* beyond U+10FFFF */
		{ "csi\xc2\x9b", "csi\\xc2\\x9b" },                   /* C1's CSI, which terminals obey */
		{ "nbsp\xc2\xa0", "nbsp\xc2\xa0" },                   /* U+00A0: no control */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* shown = cliNameText(cases[k].name);
		ck_assert_str_eq(shown, cases[k].shown);
		free(shown);
	}
	/* a message keeps its backslashes */
	char* text = cliShownText("invalid escape '\\q' at \033[2J");
	ck_assert_str_eq(text, "invalid escape '\\q' at \\x1b[2J");
	free(text);
}
END_TEST

START_TEST(jsonStaysValidUtf8)
{
	static const struct {
		const char* text;
		const char* json;
	} cases[] = {
		{ "crate-top", "\"crate-top\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "\t\n\r\001\177", "\"\\t\\n\\r\\u0001\\u007f\"" },
		{ "caf\xc3\xa9 \xf0\x9f\x8e\xb1", "\"caf\xc3\xa9 \xf0\x9f\x8e\xb1\"" },
		{ "\xff\xfe", "\"\\\\xff\\\\xfe\"" },
		{ "x\xc0\xaf", "\"x\\\\xc0\\\\xaf\"" },
		{ "\xed\xa0\x80", "\"\\\\xed\\\\xa0\\\\x80\"" },
		{ "csi\xc2\x9b", "\"csi\\u009b\"" },
		{ "\xe2\x82", "\"\\\\xe2\\\\x82\"" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* json = jsonOf(cases[k].text);
		ck_assert_str_eq(json, cases[k].json);
		free(json);
	}
}
END_TEST

START_TEST(csvFormulaCells)
{
	static const struct {
		const char* text;
		const char* cell;
	} cases[] = {
		{ "plain", "plain" },
		{ "=HYPERLINK(1)", "'=HYPERLINK(1)" },
		{ "+1.csv", "'+1.csv" },
		{ "-1.csv", "'-1.csv" },
		{ "@SUM(1)", "'@SUM(1)" },
		{ "\tx", "'\tx" },
		{ "\rx", "\"'\rx\"" },
		{ "=a,b", "\"'=a,b\"" },
		{ "'=q", "''=q" },
		{ "'plain", "'plain" },
		{ "a=b", "a=b" },
		{ " =x", "\" =x\"" },
		{ "", "" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		char* cell = csvOf(cases[k].text);
		ck_assert_str_eq(cell, cases[k].cell);
		free(cell);
	}
}
END_TEST

static Suite* outputSuite(void)
{
	Suite* suite = suite_create("output");
	TCase* c = tcase_create("writers");
	tcase_add_test(c, namesAsLsShowsThem);
	tcase_add_test(c, jsonStaysValidUtf8);
	tcase_add_test(c, csvFormulaCells);
	suite_add_tcase(suite, c);
	return suite;
}

int main(void)
{
	return bcRunSuite(outputSuite());
}
