/* grade_html.c - the HTML report of a grading run (grade_html.h): one
 * page with the score table and, per file, each failing record's reason
 * with small pictures of its throw, expected beside actual, the mesh
 * painted in a painter's order of its own. */
#include "grade_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grade_mistakes.h"
#include "output.h"
#include "svg.h"
#include "vec3.h"

/* Failing records pictured per file, at most; meshes drawn in them up to
 * this many triangles (beyond, the throw alone). */
#define CLI_HTML_PICTURES 25
#define CLI_HTML_MESH_TRIANGLES 20000
#define CLI_HTML_SIZE 220

static const cliColor htmlPath = { 31, 95, 191 };
static const cliColor htmlExpected = { 44, 160, 44 };
static const cliColor htmlActual = { 214, 39, 40 };
static const cliColor htmlText = { 0, 0, 0 };

/* Text for HTML (as for XML). */
void cliWriteHtmlText(FILE* f, const char* text)
{
	cliSvgWriteText(f, text);
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

/* The mesh of a thumbnail: each triangle whole, flat-shaded, painted from
 * the farthest centroid to the nearest (render's depth order, which cuts
 * triangles where they overlap, is for the full picture). */
static void drawSmallMesh(FILE* f, const bcMesh* mesh, const cliCamera* camera)
{
	int32_t count = bcMesh_GetInfo(mesh).triangleCount;
	cliPainted* order = malloc((size_t)(count > 0 ? count : 1) * sizeof *order);
	if (order == NULL) {
		return;
	}
	int32_t n = 0;
	for (int32_t i = 0; i < count; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		if (t.degenerate) {
			continue;
		}
		double depth = 0.0;
		for (int k = 0; k < 3; ++k) {
			depth += cliCamera_Project(camera, bcMesh_GetVertex(mesh, t.vertices[k])).depth;
		}
		order[n].triangle = i;
		order[n++].depth = depth;
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
			cliSvgWriteCoord(f, p.x);
			putc(',', f);
			cliSvgWriteCoord(f, p.y);
		}
		fprintf(f, "\" fill=\"#%02x%02x%02x\" stroke=\"#6e6a61\" stroke-width=\"0.5\"%s/>\n", c.r, c.g, c.b,
				facing == cli_facingBack ? " fill-opacity=\"0.35\"" : "");
	}
	fputs("</g>\n", f);
	free(order);
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
	bool drawMesh = mesh != NULL && bcMesh_GetInfo(mesh).triangleCount <= CLI_HTML_MESH_TRIANGLES;
	if (drawMesh) {
		/* the whole mesh in view: a triangle far larger than the picture
		 * would be cut into many pieces to be drawn in depth order */
		bcMeshInfo info = bcMesh_GetInfo(mesh);
		lower = bcMakeVec3(fmin(lower.x, info.lowerBound.x), fmin(lower.y, info.lowerBound.y),
						   fmin(lower.z, info.lowerBound.z));
		upper = bcMakeVec3(fmax(upper.x, info.upperBound.x), fmax(upper.y, info.upperBound.y),
						   fmax(upper.z, info.upperBound.z));
	}
	cliCamera camera = cliCamera_FromAngles(CLI_SVG_DEFAULT_AZIMUTH, CLI_SVG_DEFAULT_ELEVATION);
	cliViewport viewport = { 8.0, 22.0, CLI_HTML_SIZE - 8.0, CLI_HTML_SIZE - 8.0 };
	cliCamera_Frame(&camera, lower, upper, viewport);
	cliSvg svg;
	cliSvg_Begin(&svg, m, CLI_HTML_SIZE, CLI_HTML_SIZE, NULL);
	if (drawMesh) {
		drawSmallMesh(m, mesh, &camera);
	}
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
		cliSvg_Line(&svg, "path", p0, p1, htmlPath, 1.5, false);
	}
	cliSvg_Circle(&svg, "start", p0, 2.5, htmlPath, true, 0.0);
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

/* A file's section of the HTML page: its failing records, each with the
 * reason and (when the throw is known) expected beside actual. */
void cliWriteHtmlSection(FILE* f, const cliGradeConfig* cfg, const cliFileReport* r, const cliResultSet* expected,
							 const cliResultSet* actual)
{
	fputs("<section class=\"file\"><h2>", f);
	cliWriteHtmlText(f, r->score.name);
	fputs("</h2>\n", f);
	if (r->score.diagnosis != NULL) {
		fputs("<p class=\"diagnosis\">diagnosis: ", f);
		cliWriteHtmlText(f, r->score.diagnosis);
		fputs("</p>\n", f);
	}
	long pictured = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		const cliResult* e = expected->results + entry->expected;
		char* id = NULL;
		size_t idSize = 0;
		FILE* idStream = open_memstream(&id, &idSize);
		if (idStream == NULL) {
			continue;
		}
		cliWriteResultIdJson(idStream, e);
		fclose(idStream);
		fputs("<div class=\"record\"><p class=\"reason\">id ", f);
		cliWriteHtmlText(f, id != NULL ? id : "");
		fputs(": ", f);
		if (!entry->failure) {
			fputs("missing", f);
		} else {
			cliWriteHtmlText(f, entry->text);
			int m = cliEntryMistake(r, entry);
			if (m >= 0) {
				fprintf(f, " [%s]", cliMistakeNames[m]);
			}
		}
		fputs("</p>", f);
		bcCastInput in;
		if (entry->failure && entry->actual >= 0 && pictured < CLI_HTML_PICTURES && cfg->throwOf != NULL &&
			cfg->throwOf(cfg->reanswerContext, e, &in)) {
			pictured++;
			writeThrowPicture(f, cfg->mesh, in, e, "expected", htmlExpected);
			writeThrowPicture(f, cfg->mesh, in, actual->results + entry->actual, "actual", htmlActual);
		}
		fputs("</div>\n", f);
		free(id);
	}
	fputs("</section>\n", f);
}

void cliWriteHtmlPage(FILE* f, const char* expectedName, const cliFileScore* scores, int count,
						  const char* sections, size_t sectionsSize)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Grades: ", f);
	cliWriteHtmlText(f, expectedName);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; margin: 1.5em; }\n"
		  "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; }\n"
		  "td.n { text-align: right; } tr.fails td { background: #fdecea; }\n"
		  ".record svg { border: 1px solid #ddd; margin: 0 0.5em 0.5em 0; }\n"
		  ".reason { font-family: monospace; }\n</style></head>\n<body>\n<h1>Grades against ", f);
	cliWriteHtmlText(f, expectedName);
	fputs(" (ballcast " BC_VERSION_STRING ")</h1>\n<table id=\"grades\">\n<tr><th>file</th><th>records</th>"
		  "<th>passed</th><th>failed</th><th>missing</th><th>extra</th><th>score</th><th>diagnosis</th></tr>\n",
		  f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		bool fails = s->failed + s->missing + s->extra > 0;
		fprintf(f, "<tr class=\"submission%s\"><td>", fails ? " fails" : "");
		cliWriteHtmlText(f, s->name);
		fprintf(f, "</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td>"
				   "<td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">",
				s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		fputs("</td><td>", f);
		cliWriteHtmlText(f, s->diagnosis != NULL ? s->diagnosis : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	fwrite(sections, 1, sectionsSize, f);
	fputs("</body></html>\n", f);
}
