/* svg.h - the SVG document `ballcast render` writes: its coordinates,
 * escaped text, clipped lines, and the elements the picture is made of
 * (groups, lines, arrows, circles, text). The mesh is drawn by svg_mesh.h.
 *
 * Pixels: x to the right, y downwards, (0, 0) the top-left corner of the
 * picture, as in SVG. Coordinates are written rounded to 0.01 px: they are
 * drawing coordinates, not results, and the rounding makes the output
 * byte-identical from run to run and short. */
#ifndef BC_SVG_H
#define BC_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "camera.h"

/* An sRGB colour. */
typedef struct cliColor {
	uint8_t r, g, b;
} cliColor;

/* Write a drawing coordinate rounded to 0.01 px, shortest form: "12.5",
 * "-3", "0.07"; never "-0". Values beyond +-1e9 px are clamped there (the
 * callers clip what they draw to the picture first). */
void cliWriteSvgCoord(FILE* f, double value);

/* Write text escaped for XML character data or an attribute value: & < > "
 * ' as entities; bytes that are not valid UTF-8, and control characters
 * XML 1.0 forbids, as '?'. */
void cliWriteXmlText(FILE* f, const char* text);

/* Clip the segment a-b to the picture of size width x height grown by
 * margin pixels on each side. Returns false when nothing is left, else
 * moves a and b onto the clipped ends (Liang-Barsky). */
bool cliClipSegment(double* ax, double* ay, double* bx, double* by, double width, double height, double margin);

/* Write a colour as "#rrggbb". */
void cliWriteSvgColor(FILE* f, cliColor c);

/* Write a pixel as "x,y", each coordinate as cliWriteSvgCoord writes it. */
void cliWriteSvgPoint(FILE* f, cliScreenPoint p);

/* Write the start of an element's tag, "<name", with class="className"
 * (escaped) unless className is NULL; the caller writes the rest. */
void cliOpenSvgElement(FILE* f, const char* name, const char* className);

/* Write the line a-b as it is, not clipped (cliSvg_Line clips; the mesh's
 * outlines lie in the picture): class="className" unless className is NULL,
 * the colour, the width in pixels, dashed or solid. */
void cliWriteSvgLine(FILE* f, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
					 double width, bool dashed);

/* The SVG document being written to stream (not owned). */
typedef struct cliSvg {
	FILE* stream;
	int width, height;
} cliSvg;

/* The XML declaration, a comment (NULL for none; "--" in it is written
 * "- "; left out if there is no memory for that), the <svg> element of the
 * given size in pixels and a white background. */
void cliSvg_Begin(cliSvg* svg, FILE* stream, int width, int height, const char* comment);

/* Close the <svg> element. */
void cliSvg_End(cliSvg* svg);

/* Open a group <g class="..."> with a <title> (a tooltip; NULL for none). */
void cliSvg_BeginGroup(cliSvg* svg, const char* className, const char* title);
void cliSvg_EndGroup(cliSvg* svg);

/* A line a-b of the given colour and width in pixels, dashed or solid,
 * clipped to the picture; nothing when it lies outside. */
void cliSvg_Line(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				 double width, bool dashed);

/* An arrow from a to b: a line and a filled head at b (no head when a and b
 * are closer than the head is long). */
void cliSvg_Arrow(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				  double width);

/* A circle of radius pixels around c: filled (a disk) or outlined. Not drawn
 * when it lies wholly outside the picture or its radius exceeds
 * CLI_SVG_MAX_RADIUS. */
void cliSvg_Circle(cliSvg* svg, const char* className, cliScreenPoint c, double radius, cliColor color, bool filled,
				   double strokeWidth);

/* One line of text with its baseline starting at (x, y). */
void cliSvg_Text(cliSvg* svg, const char* className, double x, double y, double size, cliColor color,
				 const char* text);

/* The largest circle drawn, in pixels: a ball this big covers a picture a
 * thousand times the largest allowed, and keeps coordinates small. */
#define CLI_SVG_MAX_RADIUS 1e7

#endif
