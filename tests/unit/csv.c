/* csv.c - unit tests for the one CSV reader (cli/csv.h): cells as RFC 4180
 * has them (quotes, doubled quotes, line breaks and commas inside quotes,
 * CRLF), blanks around unquoted cells dropped, blank rows skipped, the
 * line and column of every cell and of a row's end, rows that cannot be
 * read (a NUL, bytes that are not UTF-8, an unterminated quote) skipped
 * with their place, rows
 * across the input's buffer, the header map and the number cells. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "harness.h"

typedef struct testCsv {
	FILE* file;
	cliInput input;
	cliCsv csv;
} testCsv;

static void openCsv(testCsv* t, const char* text, size_t length)
{
	t->file = tmpfile();
	ck_assert_ptr_nonnull(t->file);
	ck_assert_uint_eq(fwrite(text, 1, length, t->file), length);
	rewind(t->file);
	ck_assert(cliInput_Open(&t->input, t->file));
	cliCsv_Open(&t->csv, &t->input);
}

static void closeCsv(testCsv* t)
{
	cliCsv_Close(&t->csv);
	cliInput_Close(&t->input);
	fclose(t->file);
}

/* The next row must be a good one with count cells. */
static void expectRow(testCsv* t, int count)
{
	bcError problem, error;
	int status = cliCsv_Next(&t->csv, &problem, &error);
	ck_assert_msg(status == 1, "Next gave %d (%s)", status, status < 0 ? error.message : problem.message);
	ck_assert_int_eq(t->csv.count, count);
}

static void expectCell(const testCsv* t, int k, const char* text, long line, long column)
{
	ck_assert_str_eq(cliCsv_Text(&t->csv, k), text);
	ck_assert_uint_eq(t->csv.cells[k].length, strlen(text));
	ck_assert_msg(t->csv.cells[k].line == line && t->csv.cells[k].column == column, "cell %d at %ld:%ld, not %ld:%ld",
				  k, t->csv.cells[k].line, t->csv.cells[k].column, line, column);
}

static void expectEnd(testCsv* t)
{
	bcError problem, error;
	ck_assert_int_eq(cliCsv_Next(&t->csv, &problem, &error), 0);
	ck_assert_int_eq(cliCsv_Next(&t->csv, &problem, &error), 0);
}

START_TEST(cellsAndPositions)
{
	const char text[] = "id, x ,y\n"
						"\n"
						"  \t\r\n"
						"a,\"q \"\"w\"\" , e\" ,  \"x\"  y\r\n"
						"\"two\nlines\",,last";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	expectRow(&t, 3);
	ck_assert(t.csv.line == 1 && t.csv.column == 1);
	expectCell(&t, 0, "id", 1, 1);
	expectCell(&t, 1, "x", 1, 5);
	expectCell(&t, 2, "y", 1, 8);
	ck_assert(t.csv.endLine == 1 && t.csv.endColumn == 9);

	/* blank rows are skipped; quotes keep their text, text after the
	 * closing quote is kept without blanks, CR before LF is no text */
	expectRow(&t, 3);
	ck_assert(t.csv.line == 4 && t.csv.column == 1);
	expectCell(&t, 0, "a", 4, 1);
	expectCell(&t, 1, "q \"w\" , e", 4, 3);
	expectCell(&t, 2, "xy", 4, 20);
	ck_assert(t.csv.endLine == 4 && t.csv.endColumn == 26);

	/* a line break inside quotes; an empty cell; the last row without a
	 * line end */
	expectRow(&t, 3);
	expectCell(&t, 0, "two\nlines", 5, 1);
	expectCell(&t, 1, "", 6, 8);
	expectCell(&t, 2, "last", 6, 9);
	ck_assert(t.csv.endLine == 6 && t.csv.endColumn == 13);
	expectEnd(&t);
	closeCsv(&t);
}
END_TEST

START_TEST(badRowsSkippedWithTheirPlace)
{
	const char text[] = "1,2\n3,x\0y,4\n5,6\n7,\"open\n8,9\n";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	expectRow(&t, 2);
	bcError problem, error;
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), 2);
	ck_assert_str_eq(problem.message, "unexpected byte 0x00 in a CSV cell");
	ck_assert(problem.line == 2 && problem.column == 4);
	ck_assert(t.csv.line == 2 && t.csv.column == 1);
	expectRow(&t, 2);
	expectCell(&t, 0, "5", 3, 1);
	/* an unterminated quote takes the rest of the input */
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), 2);
	ck_assert_str_eq(problem.message, "unterminated quoted cell");
	ck_assert(problem.line == 4 && problem.column == 3);
	ck_assert_int_eq(t.csv.count, 2);
	ck_assert_str_eq(cliCsv_Text(&t.csv, 1), "open\n8,9\n");
	expectEnd(&t);
	closeCsv(&t);
}
END_TEST

/* Bytes that are not UTF-8 make a row bad at the first of them, quoted or
 * not; the cell's C string ends there, so no reader takes it whole; the
 * reader names the column. Valid UTF-8 is read as it is. */
START_TEST(cellsAreUtf8)
{
	const char text[] = "caf\xC3\xA9,\xE2\x82\xAC\n1,a\xFF" "b\n\"x\ny\xC0\xAF\",2\n3,\x00\xFF\n";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	expectRow(&t, 2);
	expectCell(&t, 0, "caf\xC3\xA9", 1, 1);
	expectCell(&t, 1, "\xE2\x82\xAC", 1, 7);
	bcError problem, error;
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), 2);
	ck_assert_str_eq(problem.message, "a cell is not valid UTF-8 (byte 0xFF)");
	ck_assert(problem.line == 2 && problem.column == 4);
	ck_assert_int_eq(t.csv.problem, cli_csvProblemUtf8);
	ck_assert_int_eq(t.csv.problemCell, 1);
	ck_assert_uint_eq(strlen(cliCsv_Text(&t.csv, 1)), 1); /* "a", then the NUL put there */
	ck_assert_uint_eq(t.csv.cells[1].length, 3);
	cliCsv_DescribeProblem(&t.csv, "id", &problem);
	ck_assert_str_eq(problem.message, "id: not valid UTF-8 (byte 0xFF)");
	/* in a quoted cell over two lines */
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), 2);
	ck_assert_str_eq(problem.message, "a cell is not valid UTF-8 (byte 0xC0)");
	ck_assert(problem.line == 4 && problem.column == 2);
	ck_assert_int_eq(t.csv.problemCell, 0);
	/* the first problem in the row wins: here the NUL */
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), 2);
	ck_assert_str_eq(problem.message, "unexpected byte 0x00 in a CSV cell");
	ck_assert_int_eq(t.csv.problem, cli_csvProblemNul);
	expectEnd(&t);
	closeCsv(&t);
	ck_assert_str_eq(cliSeparatorName(';'), "';'");
	ck_assert_str_eq(cliSeparatorName('\t'), "tabs");
}
END_TEST

/* Rows cut by the input's buffer read the same as any other. */
START_TEST(rowsAcrossTheBuffer)
{
	size_t rows = 20000;
	char* text = malloc(rows * 40);
	ck_assert_ptr_nonnull(text);
	size_t n = 0;
	for (size_t i = 0; i < rows; ++i) {
		n += (size_t)sprintf(text + n, i % 7 == 0 ? "%zu,\"a\nb\",%zu.5\n" : "%zu,text,%zu.5\n", i, i);
	}
	testCsv t;
	openCsv(&t, text, n);
	long line = 1;
	for (size_t i = 0; i < rows; ++i) {
		expectRow(&t, 3);
		char id[32];
		snprintf(id, sizeof id, "%zu", i);
		expectCell(&t, 0, id, line, 1);
		double value = 0.0;
		ck_assert_int_eq(cliCsv_Number(&t.csv, 2, &value), 1);
		ck_assert(value == (double)i + 0.5);
		line += i % 7 == 0 ? 2 : 1;
	}
	expectEnd(&t);
	closeCsv(&t);
	free(text);
}
END_TEST

START_TEST(rowTooLong)
{
	size_t n = CLI_CSV_MAX_ROW + 10;
	char* text = malloc(n);
	ck_assert_ptr_nonnull(text);
	memset(text, 'x', n);
	text[0] = '"';
	testCsv t;
	openCsv(&t, text, n);
	bcError problem, error;
	ck_assert_int_eq(cliCsv_Next(&t.csv, &problem, &error), -1);
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert(error.line == 1 && error.column == 1);
	ck_assert_ptr_nonnull(strstr(error.message, "CSV row longer than"));
	closeCsv(&t);
	free(text);
}
END_TEST

START_TEST(headerMap)
{
	static const char* const names[] = { "x", "y", "z", "r" };
	int columnOf[4];
	bcError error;
	testCsv t;
	const char text[] = "id,y,x,extra\nq,w\nx,r,x\n";
	openCsv(&t, text, sizeof text - 1);
	expectRow(&t, 4);
	ck_assert_int_eq(cliCsv_MapHeader(&t.csv, names, 4, columnOf, &error), 1);
	ck_assert(columnOf[0] == 2 && columnOf[1] == 1 && columnOf[2] == -1 && columnOf[3] == -1);
	expectRow(&t, 2);
	ck_assert_int_eq(cliCsv_MapHeader(&t.csv, names, 4, columnOf, &error), 0);
	expectRow(&t, 3);
	ck_assert_int_eq(cliCsv_MapHeader(&t.csv, names, 4, columnOf, &error), -1);
	ck_assert_str_eq(error.message, "duplicate column 'x' in the CSV header");
	ck_assert(error.line == 3 && error.column == 5);
	closeCsv(&t);
}
END_TEST

START_TEST(wholeVectorsOnly)
{
	/* columns: 0 id, 1-3 p0, 4-6 p1; the header has all of p0, two of p1 */
	static const cliCsvVector vectors[] = { { "p0", 1, 1u }, { "p1", 4, 2u } };
	int columnOf[7] = { 0, 3, 1, 2, 4, -1, 5 };
	cliKeepWholeVectors(columnOf, vectors, 2);
	ck_assert(columnOf[0] == 0 && columnOf[1] == 3 && columnOf[2] == 1 && columnOf[3] == 2);
	ck_assert(columnOf[4] == -1 && columnOf[5] == -1 && columnOf[6] == -1);
}
END_TEST

START_TEST(numberCells)
{
	const char text[] = " 1.5 ,,-2e3,0.1x,nan,1e999,\"  7 \",abc\n";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	expectRow(&t, 8);
	double value = 42.0;
	ck_assert_int_eq(cliCsv_Number(&t.csv, 0, &value), 1);
	ck_assert(value == 1.5);
	value = 42.0;
	ck_assert_int_eq(cliCsv_Number(&t.csv, 1, &value), 0);
	ck_assert(value == 42.0);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 2, &value), 1);
	ck_assert(value == -2000.0);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 3, &value), -1);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 4, &value), -2);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 5, &value), -2);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 6, &value), 1);
	ck_assert(value == 7.0);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 7, &value), -1);

	/* as a field: the same answers, the problems worded and placed */
	bcError problem;
	ck_assert_int_eq(cliCsv_Field(&t.csv, 0, "x0", &value, &problem), 1);
	ck_assert(value == 1.5);
	ck_assert_int_eq(cliCsv_Field(&t.csv, 1, "x0", &value, &problem), 0);
	ck_assert_int_eq(cliCsv_Field(&t.csv, 3, "y0", &value, &problem), -1);
	ck_assert_str_eq(problem.message, "y0: expected a number, found '0.1x'");
	ck_assert(problem.line == 1 && problem.column == 13);
	ck_assert_int_eq(cliCsv_Field(&t.csv, 5, "r", &value, &problem), -1);
	ck_assert_str_eq(problem.message, "r: not a finite number");
	ck_assert(problem.line == 1 && problem.column == 22);

	bcError error;
	ck_assert_ptr_eq(cliCsv_CellError(&t.csv, 3, &error, "%s: not a number", "x"), &error);
	ck_assert_str_eq(error.message, "x: not a number");
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert(error.line == 1 && error.column == 13);
	closeCsv(&t);
}
END_TEST


/* The separator sniffed from the first line of text. */
static char sniff(const char* text)
{
	testCsv t;
	openCsv(&t, text, strlen(text));
	bcError error;
	char separator = cliCsv_SniffSeparator(&t.csv, &error);
	/* nothing consumed: the first row reads whole afterwards */
	ck_assert_uint_eq(t.input.start, 0);
	closeCsv(&t);
	return separator;
}

START_TEST(separators)
{
	ck_assert_int_eq(sniff("id,hit,alpha\n1,true,0.5\n"), ',');
	ck_assert_int_eq(sniff("id;hit;alpha\n1;true;0,5\n"), ';');
	ck_assert_int_eq(sniff("id\thit\talpha\n"), '\t');
	ck_assert_int_eq(sniff("id | hit | alpha"), '|');
	ck_assert_int_eq(sniff("\"a;b;c\",d\n"), ','); /* quoted separators do not count */
	ck_assert_int_eq(sniff("id\n1;2;3;4\n"), ',');   /* the first line only; none: ',' */
	ck_assert_int_eq(sniff(""), ',');
	ck_assert_int_eq(sniff("a;b,c\n"), ',');          /* a tie: ',' */
	/* a header longer than one read of the input */
	size_t n = 3 * 65536;
	char* wide = malloc(n + 2);
	ck_assert_ptr_nonnull(wide);
	for (size_t i = 0; i < n; ++i) {
		wide[i] = i % 3 == 2 ? (i > 1000 ? ';' : ',') : 'x';
	}
	wide[n] = '\n';
	wide[n + 1] = '\0';
	ck_assert_int_eq(sniff(wide), ';'); /* judged by its first CLI_CSV_SNIFF_BYTES */
	free(wide);

	/* cells separated by ';', blanks dropped; a tab separates only when told */
	const char text[] = "a ; \"b;c\" ;d\t;\n1\t2;;\n";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	t.csv.separator = ';';
	expectRow(&t, 4);
	expectCell(&t, 0, "a", 1, 1);
	expectCell(&t, 1, "b;c", 1, 5);
	expectCell(&t, 2, "d", 1, 12);
	expectCell(&t, 3, "", 1, 15);
	expectRow(&t, 3);
	expectCell(&t, 0, "1\t2", 2, 1);
	expectEnd(&t);
	closeCsv(&t);

	const char tabs[] = "a\t b \t\t\"c\td\"\n";
	openCsv(&t, tabs, sizeof tabs - 1);
	t.csv.separator = '\t';
	expectRow(&t, 4);
	expectCell(&t, 0, "a", 1, 1);
	expectCell(&t, 1, "b", 1, 4);
	expectCell(&t, 2, "", 1, 7);
	expectCell(&t, 3, "c\td", 1, 8);
	expectEnd(&t);
	closeCsv(&t);
}
END_TEST

START_TEST(decimalCommas)
{
	const char text[] = "0,25; -1,5e3 ;0.5;1,2,3;,5;7,;12\n";
	testCsv t;
	openCsv(&t, text, sizeof text - 1);
	t.csv.separator = ';';
	t.csv.decimalComma = true;
	expectRow(&t, 7);
	double x = 0.0;
	ck_assert_int_eq(cliCsv_Number(&t.csv, 0, &x), 1);
	ck_assert(x == 0.25 && cliCsv_HasDecimalComma(&t.csv, 0));
	ck_assert_int_eq(cliCsv_Number(&t.csv, 1, &x), 1);
	ck_assert(x == -1500.0 && cliCsv_HasDecimalComma(&t.csv, 1));
	ck_assert_int_eq(cliCsv_Number(&t.csv, 2, &x), 1);
	ck_assert(x == 0.5 && !cliCsv_HasDecimalComma(&t.csv, 2));
	ck_assert_int_eq(cliCsv_Number(&t.csv, 3, &x), -1); /* two commas: no number */
	ck_assert_int_eq(cliCsv_Number(&t.csv, 4, &x), -1); /* a digit on either side, as spreadsheets write */
	ck_assert_int_eq(cliCsv_Number(&t.csv, 5, &x), -1);
	ck_assert_int_eq(cliCsv_Number(&t.csv, 6, &x), 1);
	ck_assert(x == 12.0);
	/* without decimalComma a comma is no point */
	t.csv.decimalComma = false;
	ck_assert_int_eq(cliCsv_Number(&t.csv, 0, &x), -1);
	ck_assert(!cliCsv_HasDecimalComma(&t.csv, 0));
	closeCsv(&t);
}
END_TEST

static Suite* csvSuite(void)
{
	Suite* suite = suite_create("csv");
	TCase* core = tcase_create("core");
	tcase_set_timeout(core, 60);
	tcase_add_test(core, cellsAndPositions);
	tcase_add_test(core, badRowsSkippedWithTheirPlace);
	tcase_add_test(core, cellsAreUtf8);
	tcase_add_test(core, rowsAcrossTheBuffer);
	tcase_add_test(core, rowTooLong);
	tcase_add_test(core, headerMap);
	tcase_add_test(core, wholeVectorsOnly);
	tcase_add_test(core, numberCells);
	tcase_add_test(core, separators);
	tcase_add_test(core, decimalCommas);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(csvSuite());
}
