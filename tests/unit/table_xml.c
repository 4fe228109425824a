/* table_xml.c - unit tests for markup reduced to a table (cli/table_xml.h):
 * XML as JAXB and ElementTree write it (fields as children, as attributes,
 * a nested normal, a repeated element as a list, xsi:nil), HTML tables as
 * pandas' to_html writes them (the index as th cells); entities, CDATA,
 * comments; what is not markup, and markup never closed. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "table_support.h"
#include "table_xml.h"

static void readOk(cliTable* t, const char* text)
{
	bcTableKeeping(t);
	bcError error;
	ck_assert_msg(cliLooksLikeMarkup(text, strlen(text)), "not markup: %s", text);
	ck_assert_msg(cliTable_ReadMarkup(t, text, strlen(text), &error), "%s: %s", text, error.message);
}

START_TEST(shapes)
{
	const struct {
		const char* text;
		const char* container;
	} files[] = {
		{ "<?xml version=\"1.0\"?>\n<!-- JAXB -->\n<results>\n  <result><id>t001</id><alpha>0.25</alpha></result>\n"
		  "  <result><id>t002</id><alpha>1</alpha></result>\n</results>\n",
		  "a record per <result> element" },
		{ "<throws><throw id='t001' alpha='0.25'/><throw id=\"t002\" alpha=\"1\"/></throws>", "<throw>" },
		{ "<ns2:report xmlns:ns2=\"urn:x\"><student>bob</student><ns2:answers>"
		  "<ns2:a id=\"t001\"><alpha>0.25</alpha></ns2:a><ns2:a id=\"t002\"><alpha>1</alpha></ns2:a>"
		  "</ns2:answers></ns2:report>",
		  "<a>" },
		{ "<table border=\"1\" class=\"dataframe\">\n<thead><tr><th></th><th>id</th><th>alpha</th></tr></thead>\n"
		  "<tbody><tr><th>0</th><td>t001</td><td>0.25</td></tr>\n<tr><th>1</th><td>t002</td><td>1</td></tr>"
		  "</tbody></table>\n",
		  "an HTML table" },
		{ "<!DOCTYPE html><html><body><p>My results<br>below</p><table><tr><th>id<th>alpha</tr>"
		  "<tr><td>t001<td>0.25</tr><tr><td>t002<td>1</tr></table></body></html>",
		  "an HTML table" },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliTable t;
		readOk(&t, files[k].text);
		bcAssertTwo(&t, files[k].text, files[k].container);
		cliTable_Destroy(&t);
	}
}
END_TEST

START_TEST(valuesAndPlaces)
{
	cliTable t;
	readOk(&t, "<results xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
			   "<result><id>a &amp; b</id><hit>true</hit>\n  <normal><x>0.6</x><y>0</y><z>0.8</z></normal>\n"
			   "  <n>0</n><n>0</n><n>1</n><note><![CDATA[<ok>]]></note></result>\n"
			   "<result><id>c</id><hit>false</hit><alpha xsi:nil=\"true\"/><normal/></result>\n</results>");
	ck_assert_int_eq(t.rowCount, 2);
	ck_assert_str_eq(bcCell(&t, 0, "id"), "a & b");
	ck_assert_str_eq(bcCell(&t, 0, "normal.z"), "0.8");
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "normal.x"))->line, 3);
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "normal.x"))->column, 14);
	ck_assert_str_eq(bcCell(&t, 0, "n"), "[0,0,1]");
	ck_assert_int_eq(bcCellAt(&t, 0, bcColumn(&t, "n"))->kind, cli_cellList);
	ck_assert_str_eq(bcCell(&t, 0, "note"), "<ok>");
	ck_assert_int_eq(bcCellAt(&t, 1, bcColumn(&t, "alpha"))->kind, cli_cellEmpty);
	ck_assert_int_eq(bcColumn(&t, "normal"), -1); /* <normal/>: its parts empty, no column of its own */
	cliTable_Destroy(&t);
	/* a stray end tag is skipped, not the end of the reading */
	readOk(&t, "<r><a><id>t001</id></b><alpha>0.25</alpha></a><a><id>t002</id><alpha>1</alpha></a></r>");
	bcAssertTwo(&t, "stray end tag", "<a>");
	cliTable_Destroy(&t);
	/* pandas' index: the rows' labels */
	readOk(&t, "<table><tr><th></th><th>alpha</th></tr><tr><th>7</th><td>0.5</td></tr>"
			   "<tr><th>8</th><td>1</td></tr></table>");
	ck_assert_int_eq(t.labels, cli_labelIndex);
	ck_assert_str_eq(t.rows[1].label->text, "8");
	cliTable_Destroy(&t);
	/* what is not markup, and markup never closed */
	ck_assert(!cliLooksLikeMarkup("id,alpha\nt001,0.25\n", 20));
	ck_assert(!cliLooksLikeMarkup("<0.5 ok\n", 8));
	ck_assert(cliLooksLikeMarkup("  <?xml version=\"1.0\"?><r/>", 27));
	bcTableKeeping(&t);
	bcError error;
	const char* open = "<results>\n  <result><id>t001</id>\n";
	ck_assert(!cliTable_ReadMarkup(&t, open, strlen(open), &error));
	ck_assert_msg(strstr(error.message, "never closed") != NULL, "%s", error.message);
	ck_assert_int_eq(error.line, 3);
	cliTable_Destroy(&t);
}
END_TEST

static Suite* tableXmlSuite(void)
{
	Suite* suite = suite_create("table_xml");
	TCase* tc = tcase_create("table_xml");
	tcase_add_test(tc, shapes);
	tcase_add_test(tc, valuesAndPlaces);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableXmlSuite());
}
