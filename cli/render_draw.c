/* render_draw.c - render's picture: the throws, their labels, the key and
 * the title band drawn over the mesh as one SVG document. */
#include "render_draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_layout.h"
#include "svg_mesh.h"

/* The height of one line of the title band, in pixels; the title and label
 * font sizes in pixels. */
#define CLI_RENDER_LINE_HEIGHT 18.0
#define CLI_RENDER_FONT_SIZE 13.0
#define CLI_RENDER_LABEL_SIZE 11.0

/* Marks, in pixels: the contact dot (large enough to find in a raster), the
 * expected contact drawn under a differing one (larger, so a ring of it
 * shows even when both coincide), the start of a path, line widths, and the
 * drawn length of a unit normal lying across the view. */
#define CLI_RENDER_DOT_RADIUS 5.0
#define CLI_RENDER_EXPECTED_DOT_RADIUS 7.0
#define CLI_RENDER_DIFFER_DOT_RADIUS 4.0
#define CLI_RENDER_START_RADIUS 2.5
#define CLI_RENDER_PATH_WIDTH 1.5
#define CLI_RENDER_THIN_WIDTH 1.0
#define CLI_RENDER_NORMAL_PIXELS 36.0

/* Colours: paths and balls blue, contacts orange, normals near black,
 * misses grey; with --compare, what differs red and what was expected
 * green. */
#define CLI_PATH_COLOR { 31, 95, 191 }
#define CLI_CONTACT_COLOR { 255, 127, 14 }
#define CLI_NORMAL_COLOR { 40, 40, 40 }
#define CLI_DIFFER_COLOR { 214, 39, 40 }
#define CLI_EXPECTED_COLOR { 44, 160, 44 }
static const cliColor missColor = { 140, 140, 140 };
static const cliColor differColor = CLI_DIFFER_COLOR;
static const cliColor textColor = { 0, 0, 0 };

/* How a throw is drawn: plain, differing, or expected. */
typedef struct cliThrowStyle {
	const char* className;
	cliColor path, contact, normal;
	double dotRadius;
} cliThrowStyle;

static const cliThrowStyle plainStyle = { "throw", CLI_PATH_COLOR, CLI_CONTACT_COLOR, CLI_NORMAL_COLOR,
										  CLI_RENDER_DOT_RADIUS };
static const cliThrowStyle differStyle = { "differs", CLI_DIFFER_COLOR, CLI_DIFFER_COLOR, CLI_DIFFER_COLOR,
										   CLI_RENDER_DIFFER_DOT_RADIUS };
static const cliThrowStyle expectedStyle = { "expected", CLI_EXPECTED_COLOR, CLI_EXPECTED_COLOR, CLI_EXPECTED_COLOR,
											 CLI_RENDER_EXPECTED_DOT_RADIUS };

/* The path, the ball at the contact, the normal and the contact dot, in
 * that order (the dot on top). */
static void drawThrow(cliSvg* svg, const cliCamera* camera, const cliDrawnThrow* t, const cliThrowStyle* style)
{
	if (t->state == cli_throwError || t->state == cli_throwUnplaced) {
		return;
	}
	cliSvg_BeginGroup(svg, style->className, t->id);
	/* a plain miss in grey: it has no contact to draw the eye to */
	const bool grey = t->state == cli_throwMiss && style == &plainStyle;
	if (t->hasPath) {
		cliScreenPoint p0 = cliCamera_Project(camera, t->p0);
		cliScreenPoint p1 = cliCamera_Project(camera, t->p1);
		if (t->state == cli_throwHit) {
			cliScreenPoint center = cliCamera_Project(camera, t->center);
			cliSvg_Line(svg, "path", p0, center, style->path, CLI_RENDER_PATH_WIDTH, false);
			cliSvg_Line(svg, "after", center, p1, style->path, CLI_RENDER_PATH_WIDTH, true);
		} else {
			cliSvg_Line(svg, "path", p0, p1, grey ? missColor : style->path, CLI_RENDER_PATH_WIDTH, false);
		}
		cliSvg_Circle(svg, "start", p0, CLI_RENDER_START_RADIUS, grey ? missColor : style->path, true, 0.0);
	}
	if (t->state == cli_throwHit) {
		cliScreenPoint point = cliCamera_Project(camera, t->point);
		if (t->radius > 0.0) {
			cliSvg_Circle(svg, "ball", cliCamera_Project(camera, t->center), camera->scale * t->radius, style->path,
						  false, CLI_RENDER_PATH_WIDTH);
		}
		bcVec3 tip = bcMulAdd(t->point, CLI_RENDER_NORMAL_PIXELS / camera->scale, t->normal);
		cliSvg_Arrow(svg, "normal", point, cliCamera_Project(camera, tip), style->normal, CLI_RENDER_THIN_WIDTH);
		cliSvg_Circle(svg, "contact", point, style->dotRadius, style->contact, true, 0.0);
	}
	cliSvg_EndGroup(svg);
}

/* A differing throw: a thin red dashed line from its contact to the
 * expected one (first, so that the dots cover its ends), the expected
 * contact in green under it, and its id beside it. */
static void drawDiffering(cliSvg* svg, const cliCamera* camera, const cliDrawnThrow* t, const cliDrawnThrow* expected)
{
	bool here = t->state == cli_throwHit;
	bool there = expected != NULL && expected->state == cli_throwHit;
	if (here && there) {
		cliSvg_Line(svg, "link", cliCamera_Project(camera, t->point), cliCamera_Project(camera, expected->point),
					differColor, CLI_RENDER_THIN_WIDTH, true);
	}
	if (expected != NULL) {
		drawThrow(svg, camera, expected, &expectedStyle);
	}
	drawThrow(svg, camera, t, &differStyle);
}

double cliPicture_TitleHeight(const cliPicture* picture)
{
	return (picture->comparePath != NULL ? 2.0 : 1.0) * CLI_RENDER_LINE_HEIGHT + 4.0;
}

/* ----------------------------------------------------------------- key */

static const char* const keyTexts[cli_keyCount] = {
	"path", "ball at contact", "contact", "normal", "miss", "differs", "expected",
};

/* The key's entries laid out across the picture, the band's top at top;
 * kinds[i] is the mark of entry i. */
static cliKeyLayout layKey(const cliKeyMarks* key, int width, double top, int kinds[cli_keyCount])
{
	const char* texts[cli_keyCount];
	int count = 0;
	for (int k = 0; k < cli_keyCount; ++k) {
		if (key->shown[k]) {
			kinds[count] = k;
			texts[count++] = keyTexts[k];
		}
	}
	return cliKeyLayout_Make(key->caption, texts, count, CLI_RENDER_LABEL_SIZE, CLI_RENDER_MARGIN,
							 width - CLI_RENDER_MARGIN, top);
}

/* The mark of a key entry, its line's left end at a and right end at b. */
static void drawKeyMark(cliSvg* svg, int k, cliScreenPoint a, cliScreenPoint mid, cliScreenPoint b)
{
	const double s = CLI_RENDER_LABEL_SIZE;
	const cliColor path = CLI_PATH_COLOR, contact = CLI_CONTACT_COLOR, normal = CLI_NORMAL_COLOR;
	const cliColor differ = CLI_DIFFER_COLOR, expected = CLI_EXPECTED_COLOR;
	switch (k) {
	case cli_keyPath:
		cliSvg_Line(svg, "key", a, mid, path, CLI_RENDER_PATH_WIDTH, false);
		cliSvg_Line(svg, "key", mid, b, path, CLI_RENDER_PATH_WIDTH, true);
		break;
	case cli_keyBall:
		cliSvg_Circle(svg, "key", mid, 0.4 * s, path, false, CLI_RENDER_PATH_WIDTH);
		break;
	case cli_keyContact:
		cliSvg_Circle(svg, "key", mid, CLI_RENDER_DOT_RADIUS, contact, true, 0.0);
		break;
	case cli_keyNormal:
		cliSvg_Arrow(svg, "key", a, b, normal, CLI_RENDER_THIN_WIDTH);
		break;
	case cli_keyMiss:
		cliSvg_Line(svg, "key", a, b, missColor, CLI_RENDER_PATH_WIDTH, false);
		break;
	case cli_keyDiffers:
		cliSvg_Circle(svg, "key", mid, CLI_RENDER_DIFFER_DOT_RADIUS, differ, true, 0.0);
		break;
	default:
		cliSvg_Circle(svg, "key", mid, CLI_RENDER_DIFFER_DOT_RADIUS, expected, true, 0.0);
		break;
	}
}

/* Draw the key in the band whose top is top. */
static void drawKey(cliSvg* svg, const cliKeyMarks* key, int width, double top)
{
	const double s = CLI_RENDER_LABEL_SIZE;
	int kinds[cli_keyCount];
	cliKeyLayout layout = layKey(key, width, top, kinds);
	cliSvg_BeginGroup(svg, "key", "key: what the marks mean");
	cliSvg_Text(svg, "key", layout.captionX, layout.captionY, s, textColor, key->caption);
	for (int i = 0; i < layout.count; ++i) {
		const double x = layout.x[i], y = layout.y[i];
		cliScreenPoint a = { x, y - 0.3 * s, 0.0 }, b = { x + CLI_KEY_MARK, y - 0.3 * s, 0.0 };
		cliScreenPoint mid = { x + 0.5 * CLI_KEY_MARK, y - 0.3 * s, 0.0 };
		drawKeyMark(svg, kinds[i], a, mid, b);
		cliSvg_Text(svg, "key", x + CLI_KEY_MARK + CLI_KEY_GAP, y, s, textColor, keyTexts[kinds[i]]);
	}
	cliSvg_EndGroup(svg);
}

cliKeyMarks cliKeyMarks_Make(const cliPicture* picture, const cliDrawnThrowList* actual,
							 const cliDrawnThrowList* expected)
{
	cliKeyMarks key;
	memset(&key, 0, sizeof key);
	static const char* const axes[3] = { "x", "y", "z" };
	snprintf(key.caption, sizeof key.caption, "up: +%s%s", axes[picture->up], picture->upGiven ? "" : " (guessed)");
	const cliDrawnThrowList* lists[2] = { actual, expected };
	for (int l = 0; l < 2; ++l) {
		for (long i = 0; i < lists[l]->count; ++i) {
			const cliDrawnThrow* t = lists[l]->items + i;
			key.shown[cli_keyPath] |= t->hasPath && t->state == cli_throwHit;
			key.shown[cli_keyBall] |= t->state == cli_throwHit && t->radius > 0.0;
			key.shown[cli_keyContact] |= t->state == cli_throwHit && l == 0 && !t->differs;
			key.shown[cli_keyNormal] |= t->state == cli_throwHit;
			key.shown[cli_keyMiss] |= t->state == cli_throwMiss && t->hasPath && l == 0 && !t->differs;
		}
	}
	key.shown[cli_keyDiffers] = picture->comparePath != NULL;
	key.shown[cli_keyExpected] = picture->comparePath != NULL;
	int kinds[cli_keyCount];
	key.rows = layKey(&key, picture->width, 0.0, kinds).rows;
	return key;
}

double cliKeyMarks_Height(const cliKeyMarks* key)
{
	return key->rows * CLI_KEY_LINE + 4.0;
}

/* --------------------------------------------------------- title band */

/* How many throws are in each state. */
typedef struct cliCounts {
	long hits, misses, errors;
} cliCounts;

static cliCounts countThrows(const cliDrawnThrowList* list)
{
	cliCounts counts = { 0, 0, 0 };
	for (long i = 0; i < list->count; ++i) {
		cliThrowState state = list->items[i].state;
		counts.hits += state == cli_throwHit || state == cli_throwUnplaced;
		counts.misses += state == cli_throwMiss;
		counts.errors += state == cli_throwError;
	}
	return counts;
}

/* The title band: mesh, counts, and the comparison. */
static void drawLegend(cliSvg* svg, const cliPicture* picture, const bcMesh* mesh, const cliDrawnThrowList* actual,
					   long differing, long missing)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCounts counts = countThrows(actual);
	size_t size = strlen(picture->meshPath) + (picture->comparePath != NULL ? strlen(picture->comparePath) : 0) + 256;
	char* text = malloc(size);
	if (text == NULL) {
		return;
	}
	snprintf(text, size, "%s: %ld triangle%s; %ld throw%s: %ld hit%s, %ld miss%s, %ld error%s", picture->meshPath,
			 (long)info.triangleCount, info.triangleCount == 1 ? "" : "s", actual->count,
			 actual->count == 1 ? "" : "s", counts.hits, counts.hits == 1 ? "" : "s", counts.misses,
			 counts.misses == 1 ? "" : "es", counts.errors, counts.errors == 1 ? "" : "s");
	cliSvg_Text(svg, "legend", CLI_RENDER_MARGIN, CLI_RENDER_LINE_HEIGHT - 1.0, CLI_RENDER_FONT_SIZE, textColor, text);
	if (picture->comparePath != NULL) {
		snprintf(text, size, "compared with %s: %ld of %ld differ, %ld missing (red: these results, green: expected)",
				 picture->comparePath, differing, actual->count, missing);
		cliSvg_Text(svg, "legend", CLI_RENDER_MARGIN, 2.0 * CLI_RENDER_LINE_HEIGHT - 1.0, CLI_RENDER_FONT_SIZE,
					textColor, text);
	}
	free(text);
}

/* -------------------------------------------------------------- labels */

/* At most this many throws are labelled: a picture of more ids than that is
 * unreadable anyway (each throw's id is also its group's tooltip). */
#define CLI_RENDER_MAX_LABELS 400

/* Where a throw's label goes: its contact, or the start of a path. */
static bool labelAnchor(const cliCamera* camera, const cliDrawnThrow* t, cliScreenPoint* at)
{
	if (t->state == cli_throwHit) {
		*at = cliCamera_Project(camera, t->point);
		return isfinite(at->x) && isfinite(at->y);
	}
	if (t->state == cli_throwMiss && t->hasPath) {
		*at = cliCamera_Project(camera, t->p0);
		return isfinite(at->x) && isfinite(at->y);
	}
	return false;
}

/* The labels: differing throws first, then those expected and not given,
 * then the others, each in file order, at most CLI_RENDER_MAX_LABELS;
 * inside the picture between the title band and the key, beside their
 * contact dots; a label with no free place is left out. false when out of
 * memory. */
static bool drawLabels(cliSvg* svg, const cliPicture* picture, const cliCamera* camera,
					   const cliDrawnThrowList* actual, const cliDrawnThrowList* expected, double keyHeight)
{
	cliLabels labels = { NULL, 0, 0 };
	cliBox area = { 2.0, cliPicture_TitleHeight(picture), picture->width - 2.0, picture->height - keyHeight };
	const cliColor plain = CLI_PATH_COLOR, green = CLI_EXPECTED_COLOR;
	long tried = 0;
	bool ok = true;
	/* a white halo under each label keeps it readable over the mesh and the paths */
	fputs("<g class=\"labels\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">\n",
		  svg->stream);
	for (int pass = 0; pass < 3; ++pass) {
		const cliDrawnThrowList* list = pass == 1 ? expected : actual;
		for (long i = 0; i < list->count && tried < CLI_RENDER_MAX_LABELS; ++i) {
			const cliDrawnThrow* t = list->items + i;
			const cliDrawnThrow* at = t;
			cliColor color = plain;
			if (pass == 0) {
				if (!t->differs) {
					continue;
				}
				color = differColor;
				if (t->state != cli_throwHit && t->partner >= 0 && expected->items[t->partner].state == cli_throwHit) {
					at = expected->items + t->partner;
				}
			} else if (pass == 1) {
				if (t->partner >= 0) {
					continue;
				}
				color = green;
			} else if (t->differs) {
				continue;
			}
			cliScreenPoint anchor;
			if (!labelAnchor(camera, at, &anchor)) {
				continue;
			}
			tried += 1;
			cliLabelPlace place = cliLabels_Place(&labels, area, anchor.x, anchor.y, t->id, CLI_RENDER_LABEL_SIZE,
												  CLI_RENDER_DOT_RADIUS);
			if (place.state == cli_labelPlaced) {
				cliSvg_Text(svg, "label", place.x, place.y, CLI_RENDER_LABEL_SIZE, color, t->id);
			} else if (place.state == cli_labelNoMemory) {
				ok = false;
			}
		}
	}
	fputs("</g>\n", svg->stream);
	cliLabels_Free(&labels);
	return ok;
}

/* ------------------------------------------------------------- picture */

bool cliWritePicture(FILE* f, const cliPicture* picture, const bcMesh* mesh, const cliCamera* camera,
					 const cliDrawnThrowList* actual, const cliDrawnThrowList* expected, long missing,
					 const cliKeyMarks* key)
{
	cliSvg svg;
	cliSvg_Begin(&svg, f, picture->width, picture->height,
				 "ballcast " BC_VERSION_STRING " render: orthographic view; coordinates are drawing coordinates in"
				 " pixels, rounded to 0.01");
	double cull = picture->cull >= 0.0 ? picture->cull : cliSvg_AutoCull(&svg, mesh, camera);
	bool ok = cliSvg_MeshCulled(&svg, mesh, camera, cull, NULL);
	fputs("<g class=\"throws\" stroke-linecap=\"round\">\n", f);
	long differing = 0;
	for (long i = 0; i < actual->count; ++i) {
		const cliDrawnThrow* t = actual->items + i;
		if (!t->differs) {
			drawThrow(&svg, camera, t, &plainStyle);
		}
		differing += t->differs;
	}
	for (long i = 0; i < expected->count; ++i) {
		if (expected->items[i].partner < 0) {
			drawThrow(&svg, camera, expected->items + i, &expectedStyle);
		}
	}
	for (long i = 0; i < actual->count; ++i) {
		const cliDrawnThrow* t = actual->items + i;
		if (t->differs) {
			drawDiffering(&svg, camera, t, t->partner >= 0 ? expected->items + t->partner : NULL);
		}
	}
	fputs("</g>\n", f);
	double keyHeight = cliKeyMarks_Height(key);
	ok &= drawLabels(&svg, picture, camera, actual, expected, keyHeight);
	drawKey(&svg, key, picture->width, picture->height - keyHeight);
	drawLegend(&svg, picture, mesh, actual, differing, missing);
	cliSvg_End(&svg);
	return ok;
}
