/* grade_html.c - the HTML report (cliHtmlReport, grade_report.h): one
 * page with the score table and, per file, each failing record's reason
 * with small pictures of its throw, expected beside actual, the mesh
 * painted in a painter's order of its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "grade_report.h"
#include "output.h"
#include "svg.h"
#include "svg_mesh.h"

/* Failing records pictured per file, at most: enough to see what a
 * program does wrong (the rest are listed), few enough that a class's page
 * stays small. */
#define CLI_HTML_PICTURES 12

/* Triangles drawn in a thumbnail, at most: those nearest its path. A
 * thumbnail shows the throw's neighbourhood, not the scene; 150 polygons
 * are about 17 kB of SVG, so a class of a dozen files on a 20,000-triangle
 * terrain stays a few MB (drawing every triangle made it 908 MB). */
#define CLI_HTML_NEAR_TRIANGLES 150

/* How far around the path (in radii, and at least this share of the
 * path's length) a thumbnail looks for triangles and frames its view: the
 * surface the ball meets and a little of what is beside it. */
#define CLI_HTML_NEAR_RADII 3.0
#define CLI_HTML_NEAR_PATH 0.25

#define CLI_HTML_SIZE 220

static const cliColor htmlPath = { 31, 95, 191 };
static const cliColor htmlExpected = { 44, 160, 44 };
static const cliColor htmlActual = { 214, 39, 40 };
static const cliColor htmlText = { 0, 0, 0 };
static const cliColor htmlMiss = { 140, 140, 140 }; /* misses in render's grey (render_cmd.c missColor) */

/* Text for HTML (as for XML). */
static void writeHtmlText(FILE* f, const char* text)
{
	cliWriteXmlText(f, text);
}

/* A triangle and how far it is, for the painter's order. */
typedef struct cliPainted {
	int32_t triangle;
	double depth;
} cliPainted;

static int farthestFirst(const void* a, const void* b)
{
	const cliPainted* x = a;
	const cliPainted* y = b;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

/* The distance from point q to the segment a b. */
static double segmentDistance(bcVec3 q, bcVec3 a, bcVec3 b)
{
	bcVec3 ab = bcSub(b, a);
	double length2 = bcLengthSquared(ab);
	double s = length2 > 0.0 ? bcDot(bcSub(q, a), ab) / length2 : 0.0;
	s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
	return bcDistance(q, bcMulAdd(a, s, ab));
}

static int nearestFirst(const void* a, const void* b)
{
	const cliPainted* x = a;
	const cliPainted* y = b;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

/* The triangles near a throw (their boxes meet [lower, upper]), the
 * CLI_HTML_NEAR_TRIANGLES nearest its path at most: into *near (owned,
 * NULL when out of memory), how many returned. */
static int32_t nearTriangles(const bcMesh* mesh, bcCastInput in, bcVec3 lower, bcVec3 upper, cliPainted** near)
{
	int32_t count = bcMesh_GetInfo(mesh).triangleCount;
	int32_t capacity = 64;
	int32_t n = 0;
	cliPainted* list = malloc((size_t)capacity * sizeof *list);
	for (int32_t i = 0; i < count && list != NULL; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		if (t.degenerate) {
			continue;
		}
		bcVec3 v[3];
		bcVec3 lo = { INFINITY, INFINITY, INFINITY };
		bcVec3 hi = { -INFINITY, -INFINITY, -INFINITY };
		for (int k = 0; k < 3; ++k) {
			v[k] = bcMesh_GetVertex(mesh, t.vertices[k]);
			lo = bcMakeVec3(fmin(lo.x, v[k].x), fmin(lo.y, v[k].y), fmin(lo.z, v[k].z));
			hi = bcMakeVec3(fmax(hi.x, v[k].x), fmax(hi.y, v[k].y), fmax(hi.z, v[k].z));
		}
		if (hi.x < lower.x || lo.x > upper.x || hi.y < lower.y || lo.y > upper.y || hi.z < lower.z ||
			lo.z > upper.z) {
			continue;
		}
		if (n == capacity) {
			capacity *= 2;
			cliPainted* grown = realloc(list, (size_t)capacity * sizeof *grown);
			if (grown == NULL) {
				free(list);
				list = NULL;
				break;
			}
			list = grown;
		}
		bcVec3 centroid = bcScale(1.0 / 3.0, bcAdd(bcAdd(v[0], v[1]), v[2]));
		list[n].triangle = i;
		list[n++].depth = segmentDistance(centroid, in.p0, in.p1);
	}
	*near = list;
	if (list == NULL) {
		return 0;
	}
	if (n > CLI_HTML_NEAR_TRIANGLES) {
		qsort(list, (size_t)n, sizeof *list, nearestFirst);
		n = CLI_HTML_NEAR_TRIANGLES;
	}
	return n;
}

/* The mesh of a thumbnail: the triangles near the throw, each whole,
 * flat-shaded, painted from the farthest centroid to the nearest
 * (render's depth order, which cuts triangles where they overlap, is for
 * the full picture). */
static void drawSmallMesh(FILE* f, const bcMesh* mesh, const cliCamera* camera, cliPainted* order, int32_t n)
{
	for (int32_t i = 0; i < n; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, order[i].triangle);
		double depth = 0.0;
		for (int k = 0; k < 3; ++k) {
			depth += cliCamera_Project(camera, bcMesh_GetVertex(mesh, t.vertices[k])).depth;
		}
		order[i].depth = depth;
	}
	qsort(order, (size_t)n, sizeof *order, farthestFirst);
	fputs("<g class=\"mesh\">\n", f);
	for (int32_t i = 0; i < n; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, order[i].triangle);
		cliFacing facing = cliCamera_Facing(camera, t.normal);
		cliColor c = cliShade(camera, t.normal, facing);
		fputs("<polygon points=\"", f);
		for (int k = 0; k < 3; ++k) {
			cliScreenPoint p = cliCamera_Project(camera, bcMesh_GetVertex(mesh, t.vertices[k]));
			if (k > 0) {
				putc(' ', f);
			}
			cliWriteSvgCoord(f, p.x);
			putc(',', f);
			cliWriteSvgCoord(f, p.y);
		}
		fprintf(f, "\" fill=\"#%02x%02x%02x\" stroke=\"#6e6a61\" stroke-width=\"0.5\"%s/>\n", c.r, c.g, c.b,
				facing == cli_facingBack ? " fill-opacity=\"0.35\"" : "");
	}
	fputs("</g>\n", f);
}

/* One throw as a small SVG: the mesh around it, the path, and the ball
 * where answer r puts it (hit and alpha; its normal from the contact). */
static void writeThrowPicture(FILE* f, const bcMesh* mesh, bcCastInput in, const cliResult* r, const char* title,
							  cliColor color)
{
	char* text = NULL;
	size_t size = 0;
	FILE* m = open_memstream(&text, &size);
	if (m == NULL) {
		return;
	}
	bcVec3 d = bcSub(in.p1, in.p0);
	bcVec3 lower = { fmin(in.p0.x, in.p1.x) - in.radius, fmin(in.p0.y, in.p1.y) - in.radius,
					 fmin(in.p0.z, in.p1.z) - in.radius };
	bcVec3 upper = { fmax(in.p0.x, in.p1.x) + in.radius, fmax(in.p0.y, in.p1.y) + in.radius,
					 fmax(in.p0.z, in.p1.z) + in.radius };
	/* the throw's neighbourhood, where triangles are looked for: the path's
	 * box widened by a few radii (and a share of the path) */
	double margin = fmax(CLI_HTML_NEAR_RADII * in.radius, CLI_HTML_NEAR_PATH * bcLength(d));
	bcVec3 nearLower = bcSub(lower, bcMakeVec3(margin, margin, margin));
	bcVec3 nearUpper = bcAdd(upper, bcMakeVec3(margin, margin, margin));
	cliPainted* near = NULL;
	int32_t nearCount = mesh != NULL ? nearTriangles(mesh, in, nearLower, nearUpper, &near) : 0;
	/* the view frames the path (the ball's radius around it) and what is
	 * drawn of the mesh, cut to the neighbourhood: on a dense mesh the
	 * nearest triangles cover less than the neighbourhood, and framing it
	 * whole left them small in the middle */
	cliCamera camera = cliCamera_FromAngles(CLI_SVG_DEFAULT_AZIMUTH, CLI_SVG_DEFAULT_ELEVATION);
	cliViewport viewport = { 8.0, 22.0, CLI_HTML_SIZE - 8.0, CLI_HTML_SIZE - 8.0 };
	bcVec3* framed = malloc(((size_t)3 * (size_t)nearCount + 2) * sizeof *framed);
	if (framed != NULL) {
		int count = 0;
		framed[count++] = in.p0;
		framed[count++] = in.p1;
		for (int32_t i = 0; i < nearCount; ++i) {
			bcTriangle t = bcMesh_GetTriangle(mesh, near[i].triangle);
			for (int k = 0; k < 3; ++k) {
				bcVec3 v = bcMesh_GetVertex(mesh, t.vertices[k]);
				framed[count++] = bcMakeVec3(fmin(fmax(v.x, nearLower.x), nearUpper.x),
											 fmin(fmax(v.y, nearLower.y), nearUpper.y),
											 fmin(fmax(v.z, nearLower.z), nearUpper.z));
			}
		}
		cliCamera_FramePoints(&camera, framed, count, in.radius, viewport);
		free(framed);
	} else {
		cliCamera_Frame(&camera, lower, upper, viewport);
	}
	cliSvg svg;
	cliSvg_Begin(&svg, m, CLI_HTML_SIZE, CLI_HTML_SIZE, NULL);
	if (nearCount > 0) {
		drawSmallMesh(m, mesh, &camera, near, nearCount);
	}
	free(near);
	bool hit = (r->fields & cli_resultHit) && r->hit && (r->fields & cli_resultAlpha) && isfinite(r->alpha);
	cliScreenPoint p0 = cliCamera_Project(&camera, in.p0);
	cliScreenPoint p1 = cliCamera_Project(&camera, in.p1);
	if (hit) {
		bcVec3 centre = bcMulAdd(in.p0, r->alpha, d);
		cliScreenPoint c = cliCamera_Project(&camera, centre);
		cliSvg_Line(&svg, "path", p0, c, htmlPath, 1.5, false);
		cliSvg_Line(&svg, "after", c, p1, htmlPath, 1.5, true);
		cliSvg_Circle(&svg, "ball", c, fmin(camera.scale * in.radius, CLI_SVG_MAX_RADIUS), color, false, 1.5);
		if ((r->fields & cli_resultNormal) && bcLengthSquared(r->normal) > 0.0) {
			bcVec3 n = bcNormalize(r->normal);
			bcVec3 point = bcMulAdd(centre, -in.radius, n);
			bcVec3 tip = bcMulAdd(point, 30.0 / camera.scale, n);
			cliScreenPoint at = cliCamera_Project(&camera, point);
			cliSvg_Arrow(&svg, "normal", at, cliCamera_Project(&camera, tip), color, 1.0);
			cliSvg_Circle(&svg, "contact", at, 3.5, color, true, 0.0);
		}
	} else {
		cliSvg_Line(&svg, "path", p0, p1, htmlMiss, 1.5, false);
	}
	cliSvg_Circle(&svg, "start", p0, 2.5, hit ? htmlPath : htmlMiss, true, 0.0);
	cliSvg_Text(&svg, "title", 6.0, 14.0, 12.0, htmlText, title);
	cliSvg_End(&svg);
	if (fclose(m) == 0 && text != NULL) {
		const char* start = strstr(text, "<svg");
		if (start != NULL) {
			fputs(start, f);
		}
	}
	free(text);
}

/* A record's line opened: "<div ...><p ...>id ID: " (the id as JSON). */
static void writeRecordStart(FILE* f, const cliResult* r)
{
	char* id = NULL;
	size_t size = 0;
	FILE* m = open_memstream(&id, &size);
	if (m != NULL) {
		cliWriteResultIdJson(m, r);
		fclose(m);
	}
	fputs("<div class=\"record\"><p class=\"reason\">id ", f);
	writeHtmlText(f, id != NULL ? id : "");
	fputs(": ", f);
	free(id);
}

/* A file's section of the HTML page, when it has anything to show: its
 * notes, why to review it, its diagnosis, its failing records, each with
 * the reason and (when the throw is known) expected beside actual, its
 * extra ids; when no id matched, the note alone says so (not a record per
 * id). */
static void writeFile(cliReport* report, const cliFileReport* r, const cliResultSet* actual)
{
	if (r->entryCount == 0 && r->noteCount == 0 && r->extraCount == 0 && r->score.review == NULL) {
		return;
	}
	FILE* f = report->parts;
	const cliGradeConfig* cfg = report->cfg;
	fputs("<section class=\"file\"><h2>", f);
	writeHtmlText(f, r->score.name);
	fputs("</h2>\n", f);
	if (r->noteCount > 0) {
		char* note = cliNotesText(r);
		fputs("<p class=\"note\">note: ", f);
		writeHtmlText(f, note != NULL ? note : "");
		fputs("</p>\n", f);
		free(note);
	}
	if (r->score.review != NULL) {
		fputs("<p class=\"review\">review: ", f);
		writeHtmlText(f, r->score.review);
		fputs("</p>\n", f);
	}
	if (r->score.diagnosis != NULL) {
		fputs("<p class=\"diagnosis\">diagnosis: ", f);
		writeHtmlText(f, r->score.diagnosis);
		fputs("</p>\n", f);
	}
	long pictured = 0;
	for (long i = 0; i < r->entryCount && !r->unmatched; ++i) {
		const cliEntry* entry = r->entries + i;
		const cliResult* e = report->expected->results + entry->expected;
		char* message = cliEntryText(r, entry);
		writeRecordStart(f, e);
		writeHtmlText(f, message != NULL ? message : "");
		fputs("</p>", f);
		free(message);
		bcCastInput in;
		if (entry->failure && entry->actual >= 0 && pictured < CLI_HTML_PICTURES && cfg->throwOf != NULL &&
			cfg->throwOf(cfg->reanswerContext, e, &in)) {
			pictured++;
			writeThrowPicture(f, cfg->mesh, in, e, "expected", htmlExpected);
			writeThrowPicture(f, cfg->mesh, in, actual->results + entry->actual, "actual", htmlActual);
		}
		fputs("</div>\n", f);
	}
	for (long k = 0; k < r->extraCount; ++k) {
		writeRecordStart(f, actual->results + r->extras[k]);
		fputs("extra</p></div>\n", f);
	}
	fputs("</section>\n", f);
}

static void writeUnreadable(cliReport* report, const cliFileReport* r)
{
	FILE* f = report->parts;
	fputs("<section class=\"file\"><h2>", f);
	writeHtmlText(f, r->score.name);
	fputs("</h2><p class=\"reason\">", f);
	writeHtmlText(f, r->score.diagnosis != NULL ? r->score.diagnosis : "unreadable");
	fputs("</p></section>\n", f);
}

/* The band of a score, a row's class: all passed, most, half, less. */
static const char* scoreBand(const cliFileScore* s)
{
	bool fails = s->failed + s->missing + s->extra > 0;
	return !fails ? "band-all" : s->score >= 0.9 ? "band-most" : s->score >= 0.5 ? "band-half" : "band-low";
}

/* The page: the score table (rows coloured by score band, scores to 3
 * digits), then the sections. */
static void writeEnd(cliReport* report, const cliFileScore* scores, int count)
{
	FILE* f = report->out;
	const char* title = report->title;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
	writeHtmlText(f, title);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; margin: 1.5em; }\n"
		  "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; }\n"
		  "td.n { text-align: right; }\n"
		  "tr.band-all td { background: #e6f4ea; } tr.band-most td { background: #fef7e0; }\n"
		  "tr.band-half td { background: #fde9d9; } tr.band-low td { background: #f9d6d5; }\n"
		  ".record svg { border: 1px solid #ddd; margin: 0 0.5em 0.5em 0; }\n"
		  ".reason { font-family: monospace; }\n</style></head>\n<body>\n<h1>", f);
	writeHtmlText(f, title);
	fputs(" (ballcast " BC_VERSION_STRING ")</h1>\n", f);
	if (report->notGraded > 0) {
		char* note = NULL;
		size_t size = 0;
		FILE* m = open_memstream(&note, &size);
		if (m != NULL) {
			cliWriteNotGradedNote(m, report);
			fclose(m);
		}
		fputs("<p class=\"note\">note: ", f);
		writeHtmlText(f, note != NULL ? note : "");
		fputs("</p>\n", f);
		free(note);
	}
	fputs("<table id=\"grades\">\n<tr><th>file</th><th>records</th>"
		  "<th>passed</th><th>failed</th><th>missing</th><th>extra</th><th>score</th><th>diagnosis</th>"
		  "<th>review</th></tr>\n",
		  f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		bool fails = s->failed + s->missing + s->extra > 0;
		fprintf(f, "<tr class=\"submission%s %s\"><td>", fails ? " fails" : "", scoreBand(s));
		writeHtmlText(f, s->name);
		fprintf(f, "</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td>"
				   "<td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">",
				s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteRoundedScore(f, s->score);
		fputs("</td><td>", f);
		writeHtmlText(f, s->diagnosis != NULL ? s->diagnosis : "");
		fputs("</td><td>", f);
		writeHtmlText(f, s->review != NULL ? s->review : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	fwrite(report->partsText, 1, report->partsSize, f);
	fputs("</body></html>\n", f);
}

const cliReportWriter cliHtmlReport = { "html", ".html .htm ", false, NULL, writeFile, writeUnreadable, writeEnd };
