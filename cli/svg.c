/* svg.c - the SVG document of `ballcast render` (svg.h): coordinates,
 * escaped text, clipping, and the elements of the picture. */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* Drawing coordinates are written in hundredths of a pixel. */
#define CLI_SVG_HUNDREDTHS 100.0

/* Written coordinates are clamped to +-this many pixels, so the hundredths
 * fit a long long with room to spare. Callers clip to the picture first:
 * the clamp only guards against a misuse turning into garbage. */
#define CLI_SVG_COORD_LIMIT 1e9

/* Lines are clipped to the picture grown by this many pixels, so that the
 * round caps at a clipped end stay out of sight. */
#define CLI_SVG_CLIP_MARGIN 16.0
/* Arrow heads, in pixels. */
#define CLI_SVG_HEAD_LENGTH 9.0
#define CLI_SVG_HEAD_HALF_WIDTH 4.0

/* The dash pattern of dashed lines, in pixels: dash, gap. */
#define CLI_SVG_DASHES "6 4"

void cliWriteSvgCoord(FILE* f, double value)
{
	double v = value;
	if (v != v) {
		v = 0.0;
	}
	v = v > CLI_SVG_COORD_LIMIT ? CLI_SVG_COORD_LIMIT : (v < -CLI_SVG_COORD_LIMIT ? -CLI_SVG_COORD_LIMIT : v);
	long long hundredths = llround(v * CLI_SVG_HUNDREDTHS);
	if (hundredths < 0) {
		putc('-', f);
		hundredths = -hundredths;
	}
	cliWriteInt(f, hundredths / 100);
	int fraction = (int)(hundredths % 100);
	if (fraction != 0) {
		putc('.', f);
		putc('0' + fraction / 10, f);
		if (fraction % 10 != 0) {
			putc('0' + fraction % 10, f);
		}
	}
}

/* The length of the valid UTF-8 sequence XML allows at s, or 0. */
static int xmlCharLength(const unsigned char* s)
{
	unsigned char c = s[0];
	if (c < 0x80) {
		return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
	}
	int length;
	unsigned long code;
	if (c >= 0xC2 && c <= 0xDF) {
		length = 2;
		code = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		length = 3;
		code = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		length = 4;
		code = c & 0x07;
	} else {
		return 0;
	}
	for (int k = 1; k < length; ++k) {
		if ((s[k] & 0xC0) != 0x80) {
			return 0;
		}
		code = (code << 6) | (s[k] & 0x3F);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, and U+FFFE/U+FFFF */
	bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
	bool bad = (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF || code == 0xFFFE || code == 0xFFFF;
	return overlong || bad ? 0 : length;
}

void cliWriteXmlText(FILE* f, const char* text)
{
	const unsigned char* s = (const unsigned char*)text;
	while (*s != 0) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			++s;
			continue;
		case '<':
			fputs("&lt;", f);
			++s;
			continue;
		case '>':
			fputs("&gt;", f);
			++s;
			continue;
		case '"':
			fputs("&quot;", f);
			++s;
			continue;
		case '\'':
			fputs("&apos;", f);
			++s;
			continue;
		default:
			break;
		}
		int n = xmlCharLength(s);
		if (n == 0) {
			putc('?', f);
			++s;
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		}
	}
}

bool cliClipSegment(double* ax, double* ay, double* bx, double* by, double width, double height, double margin)
{
	double x0 = *ax, y0 = *ay;
	double dx = *bx - x0, dy = *by - y0;
	if (!isfinite(x0) || !isfinite(y0) || !isfinite(dx) || !isfinite(dy)) {
		return false;
	}
	const double p[4] = { -dx, dx, -dy, dy };
	const double q[4] = { x0 + margin, width + margin - x0, y0 + margin, height + margin - y0 };
	double t0 = 0.0, t1 = 1.0;
	for (int k = 0; k < 4; ++k) {
		if (p[k] == 0.0) {
			if (q[k] < 0.0) {
				return false;
			}
			continue;
		}
		double t = q[k] / p[k];
		if (p[k] < 0.0) {
			t0 = t > t0 ? t : t0;
		} else {
			t1 = t < t1 ? t : t1;
		}
	}
	if (t0 > t1) {
		return false;
	}
	if (t1 < 1.0) {
		*bx = x0 + t1 * dx;
		*by = y0 + t1 * dy;
	}
	if (t0 > 0.0) {
		*ax = x0 + t0 * dx;
		*ay = y0 + t0 * dy;
	}
	return true;
}

void cliWriteSvgColor(FILE* f, cliColor c)
{
	static const char digits[] = "0123456789abcdef";
	putc('#', f);
	const uint8_t parts[3] = { c.r, c.g, c.b };
	for (int k = 0; k < 3; ++k) {
		putc(digits[parts[k] >> 4], f);
		putc(digits[parts[k] & 15], f);
	}
}

void cliWriteSvgPoint(FILE* f, cliScreenPoint p)
{
	cliWriteSvgCoord(f, p.x);
	putc(',', f);
	cliWriteSvgCoord(f, p.y);
}

void cliOpenSvgElement(FILE* f, const char* name, const char* className)
{
	putc('<', f);
	fputs(name, f);
	if (className != NULL) {
		fputs(" class=\"", f);
		cliWriteXmlText(f, className);
		putc('"', f);
	}
}

void cliSvg_Begin(cliSvg* svg, FILE* stream, int width, int height, const char* comment)
{
	svg->stream = stream;
	svg->width = width;
	svg->height = height;
	FILE* f = stream;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	char* safe = comment != NULL ? malloc(strlen(comment) + 1) : NULL;
	if (safe != NULL) {
		/* "--" may not appear in an XML comment: a '-' after a '-' is
		 * written as a space. */
		size_t n = 0;
		for (const char* c = comment; *c != '\0'; ++c, ++n) {
			safe[n] = c > comment && c[-1] == '-' && c[0] == '-' ? ' ' : c[0];
		}
		safe[n] = '\0';
		fputs("<!-- ", f);
		cliWriteXmlText(f, safe);
		fputs(" -->\n", f);
		free(safe);
	}
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"", f);
	cliWriteInt(f, width);
	fputs("\" height=\"", f);
	cliWriteInt(f, height);
	fputs("\" viewBox=\"0 0 ", f);
	cliWriteInt(f, width);
	putc(' ', f);
	cliWriteInt(f, height);
	fputs("\" font-family=\"sans-serif\">\n<rect width=\"", f);
	cliWriteInt(f, width);
	fputs("\" height=\"", f);
	cliWriteInt(f, height);
	fputs("\" fill=\"#ffffff\"/>\n", f);
}

void cliSvg_End(cliSvg* svg)
{
	fputs("</svg>\n", svg->stream);
}

void cliSvg_BeginGroup(cliSvg* svg, const char* className, const char* title)
{
	cliOpenSvgElement(svg->stream, "g", className);
	fputs(">", svg->stream);
	if (title != NULL) {
		fputs("<title>", svg->stream);
		cliWriteXmlText(svg->stream, title);
		fputs("</title>", svg->stream);
	}
	putc('\n', svg->stream);
}

void cliSvg_EndGroup(cliSvg* svg)
{
	fputs("</g>\n", svg->stream);
}

void cliWriteSvgLine(FILE* f, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
					 double width, bool dashed)
{
	cliOpenSvgElement(f, "line", className);
	fputs(" x1=\"", f);
	cliWriteSvgCoord(f, a.x);
	fputs("\" y1=\"", f);
	cliWriteSvgCoord(f, a.y);
	fputs("\" x2=\"", f);
	cliWriteSvgCoord(f, b.x);
	fputs("\" y2=\"", f);
	cliWriteSvgCoord(f, b.y);
	fputs("\" stroke=\"", f);
	cliWriteSvgColor(f, color);
	fputs("\" stroke-width=\"", f);
	cliWriteSvgCoord(f, width);
	fputs(dashed ? "\" stroke-dasharray=\"" CLI_SVG_DASHES "\"/>\n" : "\"/>\n", f);
}

void cliSvg_Line(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				 double width, bool dashed)
{
	if (cliClipSegment(&a.x, &a.y, &b.x, &b.y, svg->width, svg->height, CLI_SVG_CLIP_MARGIN)) {
		cliWriteSvgLine(svg->stream, className, a, b, color, width, dashed);
	}
}

void cliSvg_Arrow(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				  double width)
{
	double dx = b.x - a.x, dy = b.y - a.y;
	double length = sqrt(dx * dx + dy * dy);
	if (!(length > CLI_SVG_HEAD_LENGTH) || !isfinite(length)) {
		cliSvg_Line(svg, className, a, b, color, width, false);
		return;
	}
	double ux = dx / length, uy = dy / length;
	cliScreenPoint base = { b.x - CLI_SVG_HEAD_LENGTH * ux, b.y - CLI_SVG_HEAD_LENGTH * uy, b.depth };
	cliSvg_Line(svg, className, a, base, color, width, false);
	cliScreenPoint left = { base.x - CLI_SVG_HEAD_HALF_WIDTH * uy, base.y + CLI_SVG_HEAD_HALF_WIDTH * ux, b.depth };
	cliScreenPoint right = { base.x + CLI_SVG_HEAD_HALF_WIDTH * uy, base.y - CLI_SVG_HEAD_HALF_WIDTH * ux, b.depth };
	double w = svg->width, h = svg->height;
	if (b.x < -CLI_SVG_CLIP_MARGIN || b.y < -CLI_SVG_CLIP_MARGIN || b.x > w + CLI_SVG_CLIP_MARGIN ||
		b.y > h + CLI_SVG_CLIP_MARGIN) {
		return;
	}
	FILE* f = svg->stream;
	cliOpenSvgElement(f, "polygon", className);
	fputs(" points=\"", f);
	cliWriteSvgPoint(f, b);
	putc(' ', f);
	cliWriteSvgPoint(f, left);
	putc(' ', f);
	cliWriteSvgPoint(f, right);
	fputs("\" fill=\"", f);
	cliWriteSvgColor(f, color);
	fputs("\"/>\n", f);
}

void cliSvg_Circle(cliSvg* svg, const char* className, cliScreenPoint c, double radius, cliColor color, bool filled,
				   double strokeWidth)
{
	if (!(radius >= 0.0 && radius <= CLI_SVG_MAX_RADIUS) || !isfinite(c.x) || !isfinite(c.y)) {
		return;
	}
	if (c.x + radius < 0.0 || c.y + radius < 0.0 || c.x - radius > svg->width || c.y - radius > svg->height) {
		return;
	}
	FILE* f = svg->stream;
	cliOpenSvgElement(f, "circle", className);
	fputs(" cx=\"", f);
	cliWriteSvgCoord(f, c.x);
	fputs("\" cy=\"", f);
	cliWriteSvgCoord(f, c.y);
	fputs("\" r=\"", f);
	cliWriteSvgCoord(f, radius);
	if (filled) {
		fputs("\" fill=\"", f);
		cliWriteSvgColor(f, color);
		fputs("\"/>\n", f);
	} else {
		fputs("\" fill=\"none\" stroke=\"", f);
		cliWriteSvgColor(f, color);
		fputs("\" stroke-width=\"", f);
		cliWriteSvgCoord(f, strokeWidth);
		fputs("\"/>\n", f);
	}
}

void cliSvg_Text(cliSvg* svg, const char* className, double x, double y, double size, cliColor color,
				 const char* text)
{
	FILE* f = svg->stream;
	cliOpenSvgElement(f, "text", className);
	fputs(" x=\"", f);
	cliWriteSvgCoord(f, x);
	fputs("\" y=\"", f);
	cliWriteSvgCoord(f, y);
	fputs("\" font-size=\"", f);
	cliWriteSvgCoord(f, size);
	fputs("\" fill=\"", f);
	cliWriteSvgColor(f, color);
	fputs("\">", f);
	cliWriteXmlText(f, text);
	fputs("</text>\n", f);
}
