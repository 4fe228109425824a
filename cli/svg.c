/* svg.c - the orthographic camera, projection, painter's order, flat
 * shading and SVG elements of `ballcast render`.
 *
 * Orthographic, not perspective: a ball then projects to a true circle of
 * radius scale * r, the depth order of the painter's algorithm is the same
 * for every pixel, and nothing can lie behind the eye, so nothing needs
 * clipping against it. */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "vec3.h"

/* Drawing coordinates are written in hundredths of a pixel. */
#define CLI_SVG_HUNDREDTHS 100.0

/* Written coordinates are clamped to +-this many pixels, so the hundredths
 * fit a long long with room to spare. Callers clip to the picture first:
 * the clamp only guards against a misuse turning into garbage. */
#define CLI_SVG_COORD_LIMIT 1e9

/* Lines are clipped to the picture grown by this many pixels, so that the
 * round caps at a clipped end stay out of sight. */
#define CLI_SVG_CLIP_MARGIN 16.0

/* The light, fixed to the camera: its direction from the scene in camera
 * terms (right, up, towards the eye), normalised where used. From the upper
 * left, over the viewer's shoulder, so faces turned to the viewer are lit. */
#define CLI_LIGHT_RIGHT (-0.4)
#define CLI_LIGHT_UP 0.5
#define CLI_LIGHT_EYE 0.77

/* Brightness = ambient + diffuse * max(0, dot(n, light)); 0.35 keeps faces
 * turned from the light readable, and the sum is 1 at full light. */
#define CLI_SHADE_AMBIENT 0.35
#define CLI_SHADE_DIFFUSE 0.65

/* The colour of front faces at full light (a warm stone); back faces are
 * one flat grey, not shaded: they interleave in depth, and shades of them
 * would make a checkerboard of their pieces. How opaque the back faces are
 * as a whole: dimmed, so what lies behind them shows through. */
static const cliColor frontBase = { 214, 206, 188 };
static const cliColor backColor = { 120, 120, 120 };
#define CLI_SVG_BACK_OPACITY "0.3"

/* Width in pixels of the outline a face gets in its own colour to close
 * the hairline cracks anti-aliasing leaves between neighbouring faces (see
 * cliSvg_Mesh): half a pixel for an uncut triangle, which spills little
 * over what lies behind it; a whole pixel for a cut triangle painted whole
 * under the pieces of a cut one. */
#define CLI_SVG_SEAM_WIDTH "0.5"
#define CLI_SVG_UNDERPAINT_SEAM_WIDTH "1"

/* Outline edges (see cliOutlineEdges): their face's colour darkened by
 * this factor, and their width in pixels (the face drawn next to one
 * covers up to half of it). */
#define CLI_SVG_OUTLINE_SHADE 0.6
#define CLI_SVG_OUTLINE_WIDTH "1.2"

/* Pieces of the mesh are cut no longer than the bounds' diagonal over
 * this: 16 pieces along the longest possible edge is enough for a
 * room's floor to sort right against a crate of a tenth of its size, and
 * keeps a 33-triangle room under a few thousand polygons. */
#define CLI_SVG_CUT_FRACTION 16.0

/* Arrow heads, in pixels. */
#define CLI_SVG_HEAD_LENGTH 9.0
#define CLI_SVG_HEAD_HALF_WIDTH 4.0

/* The dash pattern of dashed lines, in pixels: dash, gap. */
#define CLI_SVG_DASHES "6 4"

/* ------------------------------------------------------------------ camera */

/* cos and sin of an angle in degrees, exact at multiples of 90. */
static void cosSinDegrees(double degrees, double* c, double* s)
{
	double reduced = fmod(degrees, 360.0);
	if (reduced < 0.0) {
		reduced += 360.0;
	}
	if (reduced == 0.0 || reduced == 90.0 || reduced == 180.0 || reduced == 270.0) {
		int quarter = (int)(reduced / 90.0);
		static const double cosines[4] = { 1.0, 0.0, -1.0, 0.0 };
		static const double sines[4] = { 0.0, 1.0, 0.0, -1.0 };
		*c = cosines[quarter];
		*s = sines[quarter];
		return;
	}
	const double radians = reduced * (3.14159265358979323846 / 180.0);
	*c = cos(radians);
	*s = sin(radians);
}

static cliCamera unframed(bcVec3 right, bcVec3 up, bcVec3 toEye)
{
	cliCamera camera;
	camera.right = right;
	camera.up = up;
	camera.toEye = toEye;
	camera.target = bcMakeVec3(0.0, 0.0, 0.0);
	camera.scale = 1.0;
	camera.originX = 0.0;
	camera.originY = 0.0;
	return camera;
}

cliCamera cliCamera_FromAngles(double azimuthDegrees, double elevationDegrees)
{
	double el = elevationDegrees > 90.0 ? 90.0 : (elevationDegrees < -90.0 ? -90.0 : elevationDegrees);
	double ca, sa, ce, se;
	cosSinDegrees(azimuthDegrees, &ca, &sa);
	cosSinDegrees(el, &ce, &se);
	/* Sums with + 0.0 turn -0 into 0, so the axes print and compare plainly. */
	bcVec3 toEye = bcPositiveZeros(bcMakeVec3(ce * sa, 0.0 - ce * ca, se));
	bcVec3 right = bcPositiveZeros(bcMakeVec3(ca, sa, 0.0));
	/* up = toEye x right = (-se sa, se ca, ce), written out so that it is
	 * exact whenever the sines and cosines are. */
	bcVec3 up = bcPositiveZeros(bcMakeVec3(0.0 - se * sa, se * ca, ce));
	return unframed(right, up, toEye);
}

cliCamera cliCamera_FromDirection(bcVec3 toEye)
{
	bcVec3 eye = bcNormalize(toEye);
	bcVec3 right = bcNormalize(bcCross(bcMakeVec3(0.0, 0.0, 1.0), eye));
	if (bcLengthSquared(right) == 0.0) {
		right = bcMakeVec3(1.0, 0.0, 0.0);
	}
	bcVec3 up = bcNormalize(bcCross(eye, right));
	return unframed(bcPositiveZeros(right), bcPositiveZeros(up), bcPositiveZeros(eye));
}

/* Half the extent of the box with half-sizes h along direction d. */
static double halfExtent(bcVec3 h, bcVec3 d)
{
	return fabs(d.x) * h.x + fabs(d.y) * h.y + fabs(d.z) * h.z;
}

void cliCamera_Frame(cliCamera* camera, bcVec3 lower, bcVec3 upper, cliViewport viewport)
{
	camera->target = bcScale(0.5, bcAdd(lower, upper));
	bcVec3 half = bcScale(0.5, bcSub(upper, lower));
	double halfWidth = halfExtent(half, camera->right);
	double halfHeight = halfExtent(half, camera->up);
	double availableX = 0.5 * (viewport.right - viewport.left);
	double availableY = 0.5 * (viewport.bottom - viewport.top);
	double scale = INFINITY;
	if (halfWidth > 0.0) {
		scale = availableX / halfWidth;
	}
	if (halfHeight > 0.0 && availableY / halfHeight < scale) {
		scale = availableY / halfHeight;
	}
	camera->scale = isfinite(scale) && scale > 0.0 ? scale : 1.0;
	camera->originX = 0.5 * (viewport.left + viewport.right);
	camera->originY = 0.5 * (viewport.top + viewport.bottom);
}

cliScreenPoint cliCamera_Project(const cliCamera* camera, bcVec3 p)
{
	bcVec3 d = bcSub(p, camera->target);
	cliScreenPoint s;
	s.x = camera->originX + camera->scale * bcDot(d, camera->right);
	s.y = camera->originY - camera->scale * bcDot(d, camera->up);
	s.depth = bcDot(d, camera->toEye);
	return s;
}

cliFacing cliCamera_Facing(const cliCamera* camera, bcVec3 normal)
{
	return bcDot(normal, camera->toEye) > 0.0 ? cli_facingFront : cli_facingBack;
}

typedef struct cliDepthKey {
	double depth;
	cliPiece piece;
} cliDepthKey;

/* Farthest (smallest depth) first; ties by triangle, then by piece, so the
 * order is total and qsort's instability cannot show. */
static int compareDepth(const void* a, const void* b)
{
	const cliDepthKey* x = a;
	const cliDepthKey* y = b;
	if (x->depth != y->depth) {
		return x->depth < y->depth ? -1 : 1;
	}
	const cliPiece* p = &x->piece;
	const cliPiece* q = &y->piece;
	if (p->triangle != q->triangle) {
		return p->triangle < q->triangle ? -1 : 1;
	}
	if (p->i != q->i) {
		return p->i < q->i ? -1 : 1;
	}
	if (p->j != q->j) {
		return p->j < q->j ? -1 : 1;
	}
	return (p->down > q->down) - (p->down < q->down);
}

/* Grid point (u, v) of a triangle cut k times: A + (u/k) AB + (v/k) AC.
 * Neighbouring pieces compute shared corners by the same expression, so
 * they meet exactly. */
static bcVec3 gridPoint(bcVec3 a, bcVec3 ab, bcVec3 ac, int u, int v, int k)
{
	return bcAdd(a, bcAdd(bcScale((double)u / k, ab), bcScale((double)v / k, ac)));
}

void cliPiece_Corners(const bcMesh* mesh, cliPiece piece, bcVec3 corners[3])
{
	bcTriangle t = bcMesh_GetTriangle(mesh, piece.triangle);
	bcVec3 a = bcMesh_GetVertex(mesh, t.vertices[0]);
	bcVec3 ab = bcSub(bcMesh_GetVertex(mesh, t.vertices[1]), a);
	bcVec3 ac = bcSub(bcMesh_GetVertex(mesh, t.vertices[2]), a);
	int k = piece.k > 0 ? piece.k : 1, i = piece.i, j = piece.j;
	if (k == 1) {
		corners[0] = a;
		corners[1] = bcMesh_GetVertex(mesh, t.vertices[1]);
		corners[2] = bcMesh_GetVertex(mesh, t.vertices[2]);
	} else if (piece.down) {
		corners[0] = gridPoint(a, ab, ac, i + 1, j, k);
		corners[1] = gridPoint(a, ab, ac, i + 1, j + 1, k);
		corners[2] = gridPoint(a, ab, ac, i, j + 1, k);
	} else {
		corners[0] = gridPoint(a, ab, ac, i, j, k);
		corners[1] = gridPoint(a, ab, ac, i + 1, j, k);
		corners[2] = gridPoint(a, ab, ac, i, j + 1, k);
	}
}

/* How many times triangle t is cut along each edge. */
static int cutsFor(const bcMesh* mesh, bcTriangle t, double maxEdge)
{
	if (!(maxEdge > 0.0) || !isfinite(maxEdge)) {
		return 1;
	}
	bcVec3 a = bcMesh_GetVertex(mesh, t.vertices[0]);
	bcVec3 b = bcMesh_GetVertex(mesh, t.vertices[1]);
	bcVec3 c = bcMesh_GetVertex(mesh, t.vertices[2]);
	double longest = fmax(bcDistance(a, b), fmax(bcDistance(b, c), bcDistance(c, a)));
	double cuts = ceil(longest / maxEdge);
	return cuts >= CLI_SVG_MAX_CUTS ? CLI_SVG_MAX_CUTS : (cuts > 1.0 ? (int)cuts : 1);
}

cliPiece* cliDepthOrder(const bcMesh* mesh, const cliCamera* camera, double maxEdge, int64_t* count)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	size_t triangles = (size_t)(info.triangleCount > 0 ? info.triangleCount : 1);
	uint8_t* cuts = malloc(triangles);
	if (cuts == NULL) {
		return NULL;
	}
	int64_t whole = 0, total = 0;
	for (int32_t n = 0; n < info.triangleCount; ++n) {
		bcTriangle t = bcMesh_GetTriangle(mesh, n);
		int k = t.degenerate ? 0 : cutsFor(mesh, t, maxEdge);
		cuts[n] = (uint8_t)k;
		whole += k > 0;
		total += (int64_t)k * k;
	}
	if (total - whole > CLI_SVG_CUT_BUDGET) {
		for (int32_t n = 0; n < info.triangleCount; ++n) {
			cuts[n] = cuts[n] > 0 ? 1 : 0;
		}
		total = whole;
	}
	cliDepthKey* keys = malloc((size_t)(total > 0 ? total : 1) * sizeof *keys);
	cliPiece* pieces = malloc((size_t)(total > 0 ? total : 1) * sizeof *pieces);
	if (keys == NULL || pieces == NULL) {
		free(cuts);
		free(keys);
		free(pieces);
		return NULL;
	}
	int64_t filled = 0;
	for (int32_t n = 0; n < info.triangleCount; ++n) {
		int k = cuts[n];
		for (int i = 0; i < k; ++i) {
			for (int j = 0; i + j < k; ++j) {
				for (int down = 0; down < 2; ++down) {
					if (down && i + j == k - 1) {
						continue;
					}
					cliPiece piece = { n, (uint16_t)i, (uint16_t)j, (uint8_t)k, (uint8_t)down };
					bcVec3 c[3];
					cliPiece_Corners(mesh, piece, c);
					bcVec3 centroid = bcScale(1.0 / 3.0, bcAdd(bcAdd(c[0], c[1]), c[2]));
					keys[filled].depth = bcDot(bcSub(centroid, camera->target), camera->toEye);
					keys[filled].piece = piece;
					++filled;
				}
			}
		}
	}
	qsort(keys, (size_t)filled, sizeof *keys, compareDepth);
	for (int64_t n = 0; n < filled; ++n) {
		pieces[n] = keys[n].piece;
	}
	free(keys);
	free(cuts);
	*count = filled;
	return pieces;
}

typedef struct cliEdgeKey {
	int32_t low, high; /* vertex indices, low < high */
	int32_t triangle;
	int8_t edge;
} cliEdgeKey;

static int compareEdge(const void* a, const void* b)
{
	const cliEdgeKey* x = a;
	const cliEdgeKey* y = b;
	if (x->low != y->low) {
		return x->low < y->low ? -1 : 1;
	}
	if (x->high != y->high) {
		return x->high < y->high ? -1 : 1;
	}
	if (x->triangle != y->triangle) {
		return x->triangle < y->triangle ? -1 : 1;
	}
	return (x->edge > y->edge) - (x->edge < y->edge);
}

uint8_t* cliOutlineEdges(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	size_t triangles = (size_t)(info.triangleCount > 0 ? info.triangleCount : 1);
	uint8_t* outline = calloc(triangles, 1);
	cliEdgeKey* edges = malloc(3 * triangles * sizeof *edges);
	if (outline == NULL || edges == NULL) {
		free(outline);
		free(edges);
		return NULL;
	}
	size_t count = 0;
	for (int32_t n = 0; n < info.triangleCount; ++n) {
		bcTriangle t = bcMesh_GetTriangle(mesh, n);
		if (t.degenerate) {
			continue;
		}
		for (int e = 0; e < 3; ++e) {
			int32_t a = t.vertices[e], b = t.vertices[(e + 1) % 3];
			cliEdgeKey key = { a < b ? a : b, a < b ? b : a, n, (int8_t)e };
			edges[count++] = key;
		}
	}
	qsort(edges, count, sizeof *edges, compareEdge);
	const double creaseCosine = cos(CLI_SVG_CREASE_DEGREES * (3.14159265358979323846 / 180.0));
	for (size_t first = 0; first < count;) {
		size_t last = first + 1;
		while (last < count && edges[last].low == edges[first].low && edges[last].high == edges[first].high) {
			++last;
		}
		bool smooth = false;
		if (last - first == 2) {
			bcVec3 n0 = bcMesh_GetTriangle(mesh, edges[first].triangle).normal;
			bcVec3 n1 = bcMesh_GetTriangle(mesh, edges[first + 1].triangle).normal;
			smooth = bcDot(n0, n1) >= creaseCosine;
		}
		for (size_t k = first; !smooth && k < last; ++k) {
			outline[edges[k].triangle] |= (uint8_t)(1u << edges[k].edge);
		}
		first = last;
	}
	free(edges);
	return outline;
}

static uint8_t channel(double value)
{
	double v = value < 0.0 ? 0.0 : (value > 255.0 ? 255.0 : value);
	return (uint8_t)(v + 0.5);
}

cliColor cliShade(const cliCamera* camera, bcVec3 normal, cliFacing facing)
{
	bcVec3 light = bcNormalize(bcAdd(bcAdd(bcScale(CLI_LIGHT_RIGHT, camera->right), bcScale(CLI_LIGHT_UP, camera->up)),
									 bcScale(CLI_LIGHT_EYE, camera->toEye)));
	if (facing == cli_facingBack) {
		return backColor;
	}
	double lambert = bcDot(normal, light);
	double brightness = CLI_SHADE_AMBIENT + CLI_SHADE_DIFFUSE * (lambert > 0.0 ? lambert : 0.0);
	cliColor c = { channel(frontBase.r * brightness), channel(frontBase.g * brightness),
				   channel(frontBase.b * brightness) };
	return c;
}

/* ------------------------------------------------------------- SVG writing */

void cliSvgWriteCoord(FILE* f, double value)
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

void cliSvgWriteText(FILE* f, const char* text)
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

static void writeColor(FILE* f, cliColor c)
{
	static const char digits[] = "0123456789abcdef";
	putc('#', f);
	const uint8_t parts[3] = { c.r, c.g, c.b };
	for (int k = 0; k < 3; ++k) {
		putc(digits[parts[k] >> 4], f);
		putc(digits[parts[k] & 15], f);
	}
}

static void writePoint(FILE* f, cliScreenPoint p)
{
	cliSvgWriteCoord(f, p.x);
	putc(',', f);
	cliSvgWriteCoord(f, p.y);
}

static void openElement(FILE* f, const char* name, const char* className)
{
	putc('<', f);
	fputs(name, f);
	if (className != NULL) {
		fputs(" class=\"", f);
		cliSvgWriteText(f, className);
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
		cliSvgWriteText(f, safe);
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

/* One face polygon, filled in color; stroked in it too when strokeWidth is
 * not NULL ("" for the group's width). */
static void writeFace(FILE* f, const cliCamera* camera, const bcVec3 corners[3], cliColor color,
					  const char* strokeWidth)
{
	fputs("<polygon points=\"", f);
	for (int k = 0; k < 3; ++k) {
		if (k > 0) {
			putc(' ', f);
		}
		writePoint(f, cliCamera_Project(camera, corners[k]));
	}
	fputs("\" fill=\"", f);
	writeColor(f, color);
	if (strokeWidth != NULL) {
		fputs("\" stroke=\"", f);
		writeColor(f, color);
		if (strokeWidth[0] != '\0') {
			fputs("\" stroke-width=\"", f);
			fputs(strokeWidth, f);
		}
	}
	fputs("\"/>\n", f);
}

/* The outline edges of the triangle that lie along the piece (corners as
 * given by cliPiece_Corners), drawn right after it so that nearer faces
 * cover them as they cover the piece. An upright piece lies along AB when
 * j = 0, along CA when i = 0 and along BC when i + j = k - 1; a downward
 * piece touches no edge of its triangle. */
static void writeOutline(FILE* f, const cliCamera* camera, cliPiece piece, const bcVec3 corners[3], uint8_t outline,
						 cliColor faceColor)
{
	if (piece.down || outline == 0) {
		return;
	}
	const bool along[3] = { (outline & 1) && piece.j == 0, (outline & 2) && piece.i + piece.j == piece.k - 1,
							(outline & 4) && piece.i == 0 };
	cliColor color = { channel(CLI_SVG_OUTLINE_SHADE * faceColor.r), channel(CLI_SVG_OUTLINE_SHADE * faceColor.g),
					   channel(CLI_SVG_OUTLINE_SHADE * faceColor.b) };
	for (int e = 0; e < 3; ++e) {
		if (!along[e]) {
			continue;
		}
		cliScreenPoint a = cliCamera_Project(camera, corners[e]);
		cliScreenPoint b = cliCamera_Project(camera, corners[(e + 1) % 3]);
		fputs("<line x1=\"", f);
		cliSvgWriteCoord(f, a.x);
		fputs("\" y1=\"", f);
		cliSvgWriteCoord(f, a.y);
		fputs("\" x2=\"", f);
		cliSvgWriteCoord(f, b.x);
		fputs("\" y2=\"", f);
		cliSvgWriteCoord(f, b.y);
		fputs("\" stroke=\"", f);
		writeColor(f, color);
		fputs("\" stroke-width=\"" CLI_SVG_OUTLINE_WIDTH "\"/>\n", f);
	}
}

bool cliSvg_Mesh(cliSvg* svg, const bcMesh* mesh, const cliCamera* camera)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double maxEdge = bcDistance(info.lowerBound, info.upperBound) / CLI_SVG_CUT_FRACTION;
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, camera, maxEdge, &count);
	/* Per triangle, in each pass: 0 nothing painted yet, 1 painted whole. */
	uint8_t* painted = order != NULL ? malloc((size_t)(info.triangleCount > 0 ? info.triangleCount : 1)) : NULL;
	uint8_t* outline = order != NULL ? cliOutlineEdges(mesh) : NULL;
	if (painted == NULL || outline == NULL) {
		free(painted);
		free(outline);
		free(order);
		return false;
	}
	FILE* f = svg->stream;
	/* Opaque front faces first, then the translucent back faces over them,
	 * each back to front: glass goes on last. The back faces are opaque
	 * inside a group made translucent as a whole, so where two overlap the
	 * picture is not darker.
	 *
	 * Seams: anti-aliasing leaves hairline cracks between polygons sharing
	 * an edge, through which what lies behind shows. An uncut triangle
	 * closes them with an outline in its own colour. A cut triangle is
	 * painted whole (outlined) just before its farthest piece, and its
	 * pieces go on top without outline: the cracks between them show the
	 * triangle's own colour, and no outline spills over nearer faces. */
	for (int pass = 0; pass < 2; ++pass) {
		cliFacing wanted = pass == 0 ? cli_facingFront : cli_facingBack;
		fputs(pass == 0 ? "<g class=\"front\"" : "<g class=\"back\" opacity=\"" CLI_SVG_BACK_OPACITY "\"", f);
		fputs(" stroke-width=\"" CLI_SVG_SEAM_WIDTH "\" stroke-linejoin=\"round\">\n", f);
		memset(painted, 0, (size_t)(info.triangleCount > 0 ? info.triangleCount : 1));
		for (int64_t n = 0; n < count; ++n) {
			cliPiece piece = order[n];
			bcTriangle t = bcMesh_GetTriangle(mesh, piece.triangle);
			if (cliCamera_Facing(camera, t.normal) != wanted) {
				continue;
			}
			cliColor color = cliShade(camera, t.normal, wanted);
			bcVec3 corners[3];
			if (piece.k > 1 && !painted[piece.triangle]) {
				cliPiece all = { piece.triangle, 0, 0, 1, 0 };
				cliPiece_Corners(mesh, all, corners);
				writeFace(f, camera, corners, color, CLI_SVG_UNDERPAINT_SEAM_WIDTH);
				painted[piece.triangle] = 1;
			}
			cliPiece_Corners(mesh, piece, corners);
			writeFace(f, camera, corners, color, piece.k > 1 ? NULL : "");
			writeOutline(f, camera, piece, corners, outline[piece.triangle], color);
		}
		fputs("</g>\n", f);
	}
	free(painted);
	free(outline);
	free(order);
	return true;
}

void cliSvg_BeginGroup(cliSvg* svg, const char* className, const char* title)
{
	openElement(svg->stream, "g", className);
	fputs(">", svg->stream);
	if (title != NULL) {
		fputs("<title>", svg->stream);
		cliSvgWriteText(svg->stream, title);
		fputs("</title>", svg->stream);
	}
	putc('\n', svg->stream);
}

void cliSvg_EndGroup(cliSvg* svg)
{
	fputs("</g>\n", svg->stream);
}

void cliSvg_Line(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				 double width, bool dashed)
{
	if (!cliClipSegment(&a.x, &a.y, &b.x, &b.y, svg->width, svg->height, CLI_SVG_CLIP_MARGIN)) {
		return;
	}
	FILE* f = svg->stream;
	openElement(f, "line", className);
	fputs(" x1=\"", f);
	cliSvgWriteCoord(f, a.x);
	fputs("\" y1=\"", f);
	cliSvgWriteCoord(f, a.y);
	fputs("\" x2=\"", f);
	cliSvgWriteCoord(f, b.x);
	fputs("\" y2=\"", f);
	cliSvgWriteCoord(f, b.y);
	fputs("\" stroke=\"", f);
	writeColor(f, color);
	fputs("\" stroke-width=\"", f);
	cliSvgWriteCoord(f, width);
	fputs(dashed ? "\" stroke-dasharray=\"" CLI_SVG_DASHES "\"/>\n" : "\"/>\n", f);
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
	openElement(f, "polygon", className);
	fputs(" points=\"", f);
	writePoint(f, b);
	putc(' ', f);
	writePoint(f, left);
	putc(' ', f);
	writePoint(f, right);
	fputs("\" fill=\"", f);
	writeColor(f, color);
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
	openElement(f, "circle", className);
	fputs(" cx=\"", f);
	cliSvgWriteCoord(f, c.x);
	fputs("\" cy=\"", f);
	cliSvgWriteCoord(f, c.y);
	fputs("\" r=\"", f);
	cliSvgWriteCoord(f, radius);
	if (filled) {
		fputs("\" fill=\"", f);
		writeColor(f, color);
		fputs("\"/>\n", f);
	} else {
		fputs("\" fill=\"none\" stroke=\"", f);
		writeColor(f, color);
		fputs("\" stroke-width=\"", f);
		cliSvgWriteCoord(f, strokeWidth);
		fputs("\"/>\n", f);
	}
}

void cliSvg_Text(cliSvg* svg, const char* className, double x, double y, double size, cliColor color,
				 const char* text)
{
	FILE* f = svg->stream;
	openElement(f, "text", className);
	fputs(" x=\"", f);
	cliSvgWriteCoord(f, x);
	fputs("\" y=\"", f);
	cliSvgWriteCoord(f, y);
	fputs("\" font-size=\"", f);
	cliSvgWriteCoord(f, size);
	fputs("\" fill=\"", f);
	writeColor(f, color);
	fputs("\">", f);
	cliSvgWriteText(f, text);
	fputs("</text>\n", f);
}
