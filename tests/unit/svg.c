/* svg.c tests: the SVG writer's coordinates and escaped text, clipping
 * segments to the picture, and the elements' text. */
#include <string.h>

#include "harness.h"
#include "svg.h"

/* What f wrote, as a string the caller frees. */
typedef struct capture {
	char* text;
	size_t length;
	FILE* f;
} capture;

static void captureOpen(capture* c)
{
	c->text = NULL;
	c->length = 0;
	c->f = open_memstream(&c->text, &c->length);
	ck_assert_ptr_nonnull(c->f);
}

static char* captureClose(capture* c)
{
	fclose(c->f);
	return c->text;
}

static void assertCoord(double value, const char* expected)
{
	capture c;
	captureOpen(&c);
	cliWriteSvgCoord(c.f, value);
	char* text = captureClose(&c);
	ck_assert_msg(strcmp(text, expected) == 0, "coord %.17g: got '%s', expected '%s'", value, text, expected);
	free(text);
}

static void assertText(const char* input, const char* expected)
{
	capture c;
	captureOpen(&c);
	cliWriteXmlText(c.f, input);
	char* text = captureClose(&c);
	ck_assert_msg(strcmp(text, expected) == 0, "text: got '%s', expected '%s'", text, expected);
	free(text);
}

/* --------------------------------------------------------- SVG writing */

START_TEST(coordinates_are_written_in_hundredths)
{
	assertCoord(0.0, "0");
	assertCoord(-0.0, "0");
	assertCoord(-0.004, "0");
	assertCoord(12.5, "12.5");
	assertCoord(12.25, "12.25");
	assertCoord(-3.0, "-3");
	assertCoord(0.07, "0.07");
	assertCoord(-0.07, "-0.07");
	assertCoord(99.999, "100");
	assertCoord(1.005, "1");     /* 1.005 is 1.00499999999999989... */
	assertCoord(800.0, "800");
	assertCoord(123456.78, "123456.78");
	assertCoord(1e300, "1000000000");
	assertCoord(-1e300, "-1000000000");
	assertCoord(NAN, "0");
}
END_TEST

START_TEST(text_is_escaped_and_valid_utf8)
{
	assertText("room.obj", "room.obj");
	assertText("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;");
	assertText("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB1", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB1");
	assertText("bad \xFF byte", "bad ? byte");
	assertText("cut \xC3", "cut ?");
	assertText("overlong \xC0\xAF", "overlong ??");
	assertText("surrogate \xED\xA0\x80", "surrogate ???");
	assertText("bell \a tab \t", "bell ? tab \t");
	assertText("\xEF\xBF\xBE", "???"); /* U+FFFE is not an XML character */
}
END_TEST

START_TEST(segments_are_clipped_to_the_picture)
{
	/* 100 x 100 picture, no margin. A horizontal line from x = -100 to 300
	 * at y = 50 is cut to 0..100. */
	double ax = -100, ay = 50, bx = 300, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	bcAssertNear(ax, 0, 0);
	bcAssertNear(bx, 100, 0);
	bcAssertNear(ay, 50, 0);
	/* a diagonal from (-50, -50) to (150, 150), margin 10: -10..110 */
	ax = -50, ay = -50, bx = 150, by = 150;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 10));
	bcAssertNear(ax, -10, 1e-12);
	bcAssertNear(ay, -10, 1e-12);
	bcAssertNear(bx, 110, 1e-12);
	bcAssertNear(by, 110, 1e-12);
	/* inside: untouched */
	ax = 10, ay = 20, bx = 30, by = 40;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ck_assert(ax == 10 && ay == 20 && bx == 30 && by == 40);
	/* wholly outside, and passing by a corner */
	ax = -10, ay = -10, bx = -5, by = 200;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ax = 90, ay = -20, bx = 120, by = 10;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	/* ends 1e12 px away still clip to the picture, to the precision doubles
	 * have there (an ulp of 1e12 is 1.2e-4) */
	ax = -1e12, ay = 50, bx = 1e12, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	bcAssertNear(ax, 0, 1e-3);
	bcAssertNear(bx, 100, 1e-3);
	/* and ends near the top of the double range do not overflow */
	ax = -1e300, ay = 50, bx = 1e300, by = 50;
	ck_assert(cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
	ck_assert(isfinite(ax) && isfinite(bx) && ax >= 0 && bx <= 100);
	ax = INFINITY, ay = 0, bx = 0, by = 0;
	ck_assert(!cliClipSegment(&ax, &ay, &bx, &by, 100, 100, 0));
}
END_TEST

START_TEST(elements_are_written_as_documented)
{
	capture c;
	captureOpen(&c);
	cliSvg svg;
	cliSvg_Begin(&svg, c.f, 200, 100, "a -- b");
	cliColor red = { 214, 39, 40 };
	cliScreenPoint a = { 10, 20, 0 }, b = { 30.255, 40, 0 }, far = { 5000, 5000, 0 };
	cliSvg_Line(&svg, "path", a, b, red, 1.5, true);
	cliSvg_Circle(&svg, "contact", a, 5, red, true, 0);
	cliSvg_Circle(&svg, "ball", b, 2, red, false, 1.5);
	cliSvg_Circle(&svg, "gone", far, 5, red, true, 0);  /* off the picture: not drawn */
	cliSvg_Text(&svg, "legend", 16, 17, 13, red, "x<y");
	cliSvg_End(&svg);
	char* text = captureClose(&c);
	const char* expected =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<!-- a -  b -->\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"200\" height=\"100\" viewBox=\"0 0 200 "
		"100\" font-family=\"sans-serif\">\n"
		"<rect width=\"200\" height=\"100\" fill=\"#ffffff\"/>\n"
		"<line class=\"path\" x1=\"10\" y1=\"20\" x2=\"30.26\" y2=\"40\" stroke=\"#d62728\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"6 4\"/>\n"
		"<circle class=\"contact\" cx=\"10\" cy=\"20\" r=\"5\" fill=\"#d62728\"/>\n"
		"<circle class=\"ball\" cx=\"30.26\" cy=\"40\" r=\"2\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n"
		"<text class=\"legend\" x=\"16\" y=\"17\" font-size=\"13\" fill=\"#d62728\">x&lt;y</text>\n"
		"</svg>\n";
	ck_assert_msg(strcmp(text, expected) == 0, "got:\n%s", text);
	free(text);
}
END_TEST

static Suite* svgSuite(void)
{
	Suite* s = suite_create("svg");
	TCase* writing = tcase_create("writing");
	tcase_add_test(writing, coordinates_are_written_in_hundredths);
	tcase_add_test(writing, text_is_escaped_and_valid_utf8);
	tcase_add_test(writing, segments_are_clipped_to_the_picture);
	tcase_add_test(writing, elements_are_written_as_documented);
	suite_add_tcase(s, writing);
	return s;
}

int main(void)
{
	return bcRunSuite(svgSuite());
}
