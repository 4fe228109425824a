/* table_read.c - unit tests for a submission read whole as a table
 * (cli/table_read.h): binary files named for what they are (not "unexpected
 * byte 0x00"), refused at once; UTF-16 with or without its byte order mark
 * decoded; the UTF-8 byte order mark dropped; each text to its reader. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "table_read.h"
#include "table_support.h"

/* Read bytes[0 .. n) through a stream. */
static bool readBytes(const void* bytes, size_t n, cliWholeText* text, bcError* error)
{
	FILE* f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(bytes, 1, n, f), n);
	rewind(f);
	bool ok = cliWholeText_Read(f, text, error);
	fclose(f);
	return ok;
}

/* a literal's bytes and their count, NULs included (a count written by hand
 * overran one literal) */
#define BYTES(literal) literal, sizeof literal - 1

START_TEST(binariesNamed)
{
	const struct {
		const char* bytes;
		size_t n;
		const char* kind;
	} files[] = {
		{ BYTES("PK\x03\x04\x14\0\0\0\0\0answers.json"), "a ZIP archive (unpack it first)" },
		{ BYTES("PK\x03\x04\x14\0\0\0\0\0[Content_Types].xml...xl/workbook.xml"), "an Excel workbook (.xlsx; save it as CSV)" },
		{ BYTES("PK\x03\x04mimetypeapplication/vnd.oasis.opendocument.spreadsheet"),
		  "a LibreOffice spreadsheet (.ods; save it as CSV)" },
		{ BYTES("\x1f\x8b\x08\0\0\0\0\0"), "a gzip-compressed file (decompress it first)" },
		{ BYTES("%PDF-1.7\n"), "a PDF document, not a results file" },
		{ BYTES("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "an old Excel or Word file (.xls, .doc; save it as CSV)" },
		{ BYTES("\x7f" "ELF\x02\x01\x01"), "a program (ELF), not its output (run it and hand in what it writes)" },
		{ BYTES("\x93NUMPY\x01\0v\0"), "a NumPy .npy array (write it with numpy.savetxt, or as JSON)" },
		{ BYTES("MATLAB 5.0 MAT-file, Platform: GLNXA64"), "a MATLAB .mat file (export it with writetable)" },
		{ BYTES("\x80\x04\x95\x10\0\0\0"), "a Python pickle (write JSON or CSV instead)" },
		{ BYTES("\0\0\0\0\0\0\0\0\0\0\0\0"), "binary data (NUL bytes), not text" },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		ck_assert_str_eq(cliBinaryKind((const unsigned char*)files[k].bytes, files[k].n), files[k].kind);
		cliWholeText text;
		bcError error;
		ck_assert(!readBytes(files[k].bytes, files[k].n, &text, &error));
		ck_assert_str_eq(error.message, files[k].kind);
		ck_assert_int_eq(error.line, 0);
	}
	/* a stray NUL in a text is the record's business, not the file's */
	const char* stray = "id,hit,alpha\na,true,0.5\0junk\nb,false,1\n";
	ck_assert_ptr_null(cliBinaryKind((const unsigned char*)stray, 39));
	/* /dev/zero is refused at once: it never ends */
	FILE* zero = fopen("/dev/zero", "rb");
	if (zero != NULL) {
		cliWholeText text;
		bcError error;
		ck_assert(!cliWholeText_Read(zero, &text, &error));
		ck_assert_str_eq(error.message, "binary data (NUL bytes), not text");
		fclose(zero);
	}
}
END_TEST

START_TEST(encodings)
{
	/* PowerShell's > writes UTF-16 (little-endian) with its mark */
	const char le[] = "\xff\xfei\0d\0,\0h\0i\0t\0\n\0\xe9\0,\0\x3d\xd8\x00\xde\n\0";
	cliWholeText text;
	bcError error;
	ck_assert(readBytes(le, sizeof le - 1, &text, &error));
	ck_assert_str_eq(text.data, "id,hit\n\xc3\xa9,\xf0\x9f\x98\x80\n");
	ck_assert_str_eq(text.encoding, "UTF-16 (little-endian)");
	cliWholeText_Free(&text);
	/* big-endian without a mark */
	const char be[] = "\0i\0d\0\n\0a\0\n";
	ck_assert(readBytes(be, sizeof be - 1, &text, &error));
	ck_assert_str_eq(text.data, "id\na\n");
	ck_assert_str_eq(text.encoding, "UTF-16 (big-endian)");
	cliWholeText_Free(&text);
	/* UTF-8's mark goes; the text is kept whole */
	ck_assert(readBytes("\xef\xbb\xbfid\r\n", 7, &text, &error));
	ck_assert_str_eq(text.data, "id\r\n");
	ck_assert_int_eq(text.length, 4);
	ck_assert_str_eq(text.encoding, "");
	cliWholeText_Free(&text);
	ck_assert(cliTextIsBlank(" \n\t\r\n", 5));
	ck_assert(!cliTextIsBlank(" x", 2));
}
END_TEST

START_TEST(readers)
{
	const struct {
		const char* text;
		const char* container;
	} files[] = {
		{ "[{\"id\": 1, \"alpha\": 0.5}]", "a JSON array of records" },
		{ "[t001]\nalpha = 0.5\n", "keys and values: a section per record" },
		{ "- id: 1\n  alpha: 0.5\n", "keys and values: a YAML-style list" },
		{ "id,alpha\n1,0.5\n", "CSV separated by ','" },
		{ "id alpha\n1 0.5\n", "columns aligned by blanks" },
		{ "Result{id=1, alpha=0.5}\n", "one record" },
		{ "<results><r id=\"1\" alpha=\"0.5\"/><r id=\"2\" alpha=\"1\"/></results>", "XML, a record per <r>" },
		{ "<table><tr><th>id</th><th>alpha</th></tr><tr><td>1</td><td>0.5</td></tr></table>", "an HTML table" },
		/* a __repr__'s tag per line: not a document, lines of pairs */
		{ "<Result id=1 alpha=0.5 normal=(0, 0, 1)>\n<Result id=2 alpha=1 normal=None>\n",
		  "keys and values: a record per line of pairs" },
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
		cliTable t;
		bcTableKeeping(&t);
		bcError error;
		ck_assert(cliTable_ReadAny(&t, files[k].text, strlen(files[k].text), &error));
		ck_assert_msg(strstr(t.container, files[k].container) == t.container, "%s: read as '%s'", files[k].text,
					  t.container);
		cliTable_Destroy(&t);
	}
}
END_TEST

static Suite* tableReadSuite(void)
{
	Suite* suite = suite_create("table_read");
	TCase* tc = tcase_create("table_read");
	tcase_add_test(tc, binariesNamed);
	tcase_add_test(tc, encodings);
	tcase_add_test(tc, readers);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(tableReadSuite());
}
