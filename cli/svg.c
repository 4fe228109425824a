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

static bcVec3 upToMesh(bcVec3 v, cliUpAxis up)
{
	switch (up) {
	case cli_upY:
		return bcPositiveZeros(bcMakeVec3(v.x, v.z, 0.0 - v.y));
	case cli_upX:
		return bcMakeVec3(v.z, v.x, v.y);
	default:
		return v;
	}
}

bcVec3 cliUpFrame(bcVec3 v, cliUpAxis up)
{
	switch (up) {
	case cli_upY:
		return bcPositiveZeros(bcMakeVec3(v.x, 0.0 - v.z, v.y));
	case cli_upX:
		return bcMakeVec3(v.y, v.z, v.x);
	default:
		return v;
	}
}

void cliCamera_TurnUp(cliCamera* camera, cliUpAxis up)
{
	camera->right = upToMesh(camera->right, up);
	camera->up = upToMesh(camera->up, up);
	camera->toEye = upToMesh(camera->toEye, up);
}

cliUpAxis cliGuessUp(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	const double lower[3] = { info.lowerBound.x, info.lowerBound.y, info.lowerBound.z };
	const double upper[3] = { info.upperBound.x, info.upperBound.y, info.upperBound.z };
	const double flat = cos(CLI_SVG_UP_FLAT_DEGREES * 3.14159265358979323846 / 180.0);
	double base[3] = { 0.0, 0.0, 0.0 };
	double total = 0.0;
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, i);
		if (tri.degenerate) {
			continue;
		}
		struct { bcVec3 a, b, c; } t = { bcMesh_GetVertex(mesh, tri.vertices[0]), bcMesh_GetVertex(mesh, tri.vertices[1]),
										 bcMesh_GetVertex(mesh, tri.vertices[2]) };
		bcVec3 n = bcCross(bcSub(t.b, t.a), bcSub(t.c, t.a));
		double area = 0.5 * bcLength(n);
		if (!(area > 0.0) || !isfinite(area)) {
			continue;
		}
		total += area;
		const double unit[3] = { 0.5 * n.x / area, 0.5 * n.y / area, 0.5 * n.z / area };
		const double centroid[3] = { (t.a.x + t.b.x + t.c.x) / 3.0, (t.a.y + t.b.y + t.c.y) / 3.0,
									 (t.a.z + t.b.z + t.c.z) / 3.0 };
		for (int k = 0; k < 3; ++k) {
			double slab = lower[k] + CLI_SVG_UP_SLAB * (upper[k] - lower[k]);
			if (fabs(unit[k]) > flat && centroid[k] <= slab) {
				base[k] += area;
			}
		}
	}
	/* z, unless x or y has more than CLI_SVG_UP_PREFER_Z times its base;
	 * between x and y, the larger base */
	int best = cli_upZ;
	for (int k = 0; k < 2; ++k) {
		if (base[k] > CLI_SVG_UP_PREFER_Z * base[2] && base[k] > base[1 - k]) {
			best = k;
		}
	}
	if (!(base[best] >= CLI_SVG_UP_CLEAR * total)) {
		return cli_upY; /* no base stands out: y, the usual up of scans */
	}
	return (cliUpAxis)best;
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

/* Vertex clustering: the mesh's vertices grouped by the grid cell of cell
 * pixels their projection falls in; each cluster drawn at the mean of its
 * vertices' projections, rounded to a whole pixel (a grid-point would
 * turn a smooth silhouette into steps). */
typedef struct cliClusters {
	int32_t* of;    /* per vertex: its cluster */
	double* x;      /* per cluster: the mean, rounded */
	double* y;
} cliClusters;

static void freeClusters(cliClusters* c)
{
	free(c->of);
	free(c->x);
	free(c->y);
}

static bool makeClusters(const bcMesh* mesh, const cliCamera* camera, double cell, cliClusters* c)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	size_t n = (size_t)(info.vertexCount > 0 ? info.vertexCount : 1);
	size_t capacity = 16;
	while (capacity < 2 * n) {
		capacity *= 2;
	}
	int64_t* keysX = malloc(capacity * sizeof *keysX);
	int64_t* keysY = malloc(capacity * sizeof *keysY);
	int32_t* slots = malloc(capacity * sizeof *slots);
	double* sx = calloc(n, sizeof *sx);
	double* sy = calloc(n, sizeof *sy);
	int32_t* counts = calloc(n, sizeof *counts);
	c->of = malloc(n * sizeof *c->of);
	c->x = sx;
	c->y = sy;
	bool ok = keysX != NULL && keysY != NULL && slots != NULL && sx != NULL && sy != NULL && counts != NULL &&
			  c->of != NULL;
	int32_t clusters = 0;
	for (size_t k = 0; ok && k < capacity; ++k) {
		slots[k] = -1;
	}
	for (int32_t v = 0; ok && v < info.vertexCount; ++v) {
		cliScreenPoint p = cliCamera_Project(camera, bcMesh_GetVertex(mesh, v));
		double fx = floor(p.x / cell), fy = floor(p.y / cell);
		int64_t kx = isfinite(fx) && fabs(fx) < 1e15 ? (int64_t)fx : 0;
		int64_t ky = isfinite(fy) && fabs(fy) < 1e15 ? (int64_t)fy : 0;
		uint64_t h = ((uint64_t)kx * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)ky * 0xC2B2AE3D27D4EB4Full);
		size_t k = (size_t)(h ^ (h >> 29)) & (capacity - 1);
		while (slots[k] >= 0 && (keysX[k] != kx || keysY[k] != ky)) {
			k = (k + 1) & (capacity - 1);
		}
		if (slots[k] < 0) {
			slots[k] = clusters++;
			keysX[k] = kx;
			keysY[k] = ky;
		}
		int32_t id = slots[k];
		c->of[v] = id;
		sx[id] += isfinite(p.x) ? p.x : 0.0;
		sy[id] += isfinite(p.y) ? p.y : 0.0;
		counts[id] += 1;
	}
	for (int32_t id = 0; ok && id < clusters; ++id) {
		sx[id] = round(sx[id] / counts[id]);
		sy[id] = round(sy[id] / counts[id]);
	}
	free(keysX);
	free(keysY);
	free(slots);
	free(counts);
	if (!ok) {
		freeClusters(c);
	}
	return ok;
}

/* The corners of an uncut triangle at their clusters; returns twice the
 * signed area they enclose, 0 when two corners share a cluster. */
static double snapCorners(const bcMesh* mesh, const cliClusters* c, int32_t triangle, cliScreenPoint p[3])
{
	bcTriangle t = bcMesh_GetTriangle(mesh, triangle);
	int32_t id[3];
	for (int k = 0; k < 3; ++k) {
		id[k] = c->of[t.vertices[k]];
		p[k].x = c->x[id[k]];
		p[k].y = c->y[id[k]];
		p[k].depth = 0.0;
	}
	if (id[0] == id[1] || id[1] == id[2] || id[2] == id[0]) {
		return 0.0;
	}
	double twice = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y);
	return isfinite(twice) ? twice : 0.0;
}

/* A snapped triangle as path data, "M412 305l1 2-3-1z": short, and many of
 * them make one path. */
static void writeSnappedData(FILE* f, const cliScreenPoint p[3])
{
	putc('M', f);
	cliSvgWriteCoord(f, p[0].x);
	putc(' ', f);
	cliSvgWriteCoord(f, p[0].y);
	putc('l', f);
	for (int c = 1; c < 3; ++c) {
		double dx = p[c].x - p[c - 1].x, dy = p[c].y - p[c - 1].y;
		if (c > 1 && dx >= 0.0) {
			putc(' ', f);
		}
		cliSvgWriteCoord(f, dx);
		if (dy >= 0.0) {
			putc(' ', f);
		}
		cliSvgWriteCoord(f, dy);
	}
	putc('z', f);
}

/* The front faces that cliSvg_MeshCulled draws with corners snapped to the
 * grid of cell pixels (uncut pieces whose snapped corners enclose area). */
static int64_t countSnapped(const bcMesh* mesh, const cliCamera* camera, const cliPiece* order, int64_t count,
							double cell)
{
	cliClusters clusters;
	if (!makeClusters(mesh, camera, cell, &clusters)) {
		return INT64_MAX;
	}
	int64_t drawn = 0;
	for (int64_t n = 0; n < count; ++n) {
		if (order[n].k != 1) {
			continue;
		}
		bcTriangle t = bcMesh_GetTriangle(mesh, order[n].triangle);
		if (cliCamera_Facing(camera, t.normal) != cli_facingFront) {
			continue;
		}
		cliScreenPoint p[3];
		drawn += snapCorners(mesh, &clusters, order[n].triangle, p) != 0.0;
	}
	freeClusters(&clusters);
	return drawn;
}

double cliSvg_AutoCull(const cliSvg* svg, const bcMesh* mesh, const cliCamera* camera)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if ((double)info.triangleCount <= (double)svg->width * svg->height / CLI_SVG_CULL_AREA) {
		return 0.0;
	}
	double maxEdge = bcDistance(info.lowerBound, info.upperBound) / CLI_SVG_CUT_FRACTION;
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, camera, maxEdge, &count);
	static const double cells[] = { 1, 2, 3, 4, 5, 6, 8, 10, 12, 16 };
	const int last = (int)(sizeof cells / sizeof cells[0]) - 1;
	double cell = cells[last];
	for (int k = 0; order != NULL && k < last; ++k) {
		if (countSnapped(mesh, camera, order, count, cells[k]) <= CLI_SVG_FACE_BUDGET) {
			cell = cells[k];
			break;
		}
	}
	free(order);
	return cell;
}

bool cliSvg_Mesh(cliSvg* svg, const bcMesh* mesh, const cliCamera* camera)
{
	return cliSvg_MeshCulled(svg, mesh, camera, 0.0, NULL);
}

bool cliSvg_MeshCulled(cliSvg* svg, const bcMesh* mesh, const cliCamera* camera, double cullPixels, int64_t* culled)
{
	const bool culling = cullPixels > 0.0 && isfinite(cullPixels);
	int64_t left = 0;
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double maxEdge = bcDistance(info.lowerBound, info.upperBound) / CLI_SVG_CUT_FRACTION;
	int64_t count = 0;
	cliPiece* order = cliDepthOrder(mesh, camera, maxEdge, &count);
	/* Per triangle, in each pass: 0 nothing painted yet, 1 painted whole. */
	uint8_t* painted = order != NULL ? malloc((size_t)(info.triangleCount > 0 ? info.triangleCount : 1)) : NULL;
	uint8_t* outline = order != NULL ? cliOutlineEdges(mesh) : NULL;
	cliClusters clusters = { NULL, NULL, NULL };
	bool clustered = culling && order != NULL && makeClusters(mesh, camera, cullPixels, &clusters);
	if (painted == NULL || outline == NULL || (culling && !clustered)) {
		if (clustered) {
			freeClusters(&clusters);
		}
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
		fputs(" stroke-width=\"" CLI_SVG_SEAM_WIDTH "\" stroke-linejoin=\"round\"", f);
		fputs(culling && pass == 0 ? " fill=\"currentColor\" stroke=\"currentColor\">\n" : ">\n", f);
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
			if (culling && piece.k == 1) {
				cliScreenPoint p[3];
				if (snapCorners(mesh, &clusters, piece.triangle, p) == 0.0) {
					left += 1;
					continue;
				}
				if (pass == 0) {
					/* fill and stroke are the group's currentColor */
					fputs("<path color=\"", f);
					writeColor(f, color);
					fputs("\" d=\"", f);
					writeSnappedData(f, p);
					fputs("\"/>\n", f);
				}
				uint8_t edges = outline[piece.triangle];
				for (int e = 0; e < 3; ++e) {
					if (edges & (1u << e)) {
						cliColor oc = { channel(CLI_SVG_OUTLINE_SHADE * color.r),
										channel(CLI_SVG_OUTLINE_SHADE * color.g),
										channel(CLI_SVG_OUTLINE_SHADE * color.b) };
						fputs("<line x1=\"", f);
						cliSvgWriteCoord(f, p[e].x);
						fputs("\" y1=\"", f);
						cliSvgWriteCoord(f, p[e].y);
						fputs("\" x2=\"", f);
						cliSvgWriteCoord(f, p[(e + 1) % 3].x);
						fputs("\" y2=\"", f);
						cliSvgWriteCoord(f, p[(e + 1) % 3].y);
						fputs("\" stroke=\"", f);
						writeColor(f, oc);
						fputs("\" stroke-width=\"" CLI_SVG_OUTLINE_WIDTH "\"/>\n", f);
					}
				}
				continue;
			}
			writeFace(f, camera, corners, color, piece.k > 1 ? NULL : "");
			writeOutline(f, camera, piece, corners, outline[piece.triangle], color);
		}
		if (culling && pass == 1) {
			/* The back faces are all one colour in an opaque group: their
			 * order does not matter, and one path holds them all. They all
			 * wind the same way on the screen, so the nonzero rule fills
			 * where any of them lies, with no seams between them. */
			bool open = false;
			for (int64_t n = 0; n < count; ++n) {
				bcTriangle t = bcMesh_GetTriangle(mesh, order[n].triangle);
				if (order[n].k != 1 || cliCamera_Facing(camera, t.normal) != cli_facingBack) {
					continue;
				}
				cliScreenPoint p[3];
				if (snapCorners(mesh, &clusters, order[n].triangle, p) == 0.0) {
					continue;
				}
				if (!open) {
					fputs("<path fill=\"", f);
					writeColor(f, backColor);
					fputs("\" stroke=\"", f);
					writeColor(f, backColor);
					fputs("\" d=\"", f);
					open = true;
				}
				writeSnappedData(f, p);
			}
			if (open) {
				fputs("\"/>\n", f);
			}
		}
		fputs("</g>\n", f);
	}
	free(painted);
	free(outline);
	free(order);
	if (clustered) {
		freeClusters(&clusters);
	}
	if (culled != NULL) {
		*culled = left;
	}
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
