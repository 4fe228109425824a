/* svg_mesh.c - a mesh drawn as SVG (svg_mesh.h): the painter's order of
 * its cut pieces, outline edges, flat shading, and the faces written whole
 * or culled to a pixel grid. */
#include "svg_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

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
#define CLI_SVG_OUTLINE_WIDTH 1.2

/* Pieces of the mesh are cut no longer than the bounds' diagonal over
 * this: 16 pieces along the longest possible edge is enough for a
 * room's floor to sort right against a crate of a tenth of its size, and
 * keeps a 33-triangle room under a few thousand polygons. */
#define CLI_SVG_CUT_FRACTION 16.0
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

void cliPieceCorners(const bcMesh* mesh, cliPiece piece, bcVec3 corners[3])
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

/* ------------------------------------------------ the order refined
 *
 * Centroids alone misorder a big piece against a small face it crosses
 * on the screen: a piece of the floor reaching under the crate has its
 * centroid nearer the eye than the crate's side, and was painted over the
 * side's bottom (issue 26). So the centroid order is refined by Newell's
 * plane tests: for two pieces P and Q whose pictures overlap, P goes
 * before Q when Q lies wholly on the eye's side of P's plane, or P wholly
 * beyond Q's plane (and not the other way round too: coplanar or
 * interpenetrating pieces keep the centroid order). The pairs come from a
 * grid over the picture; the pieces are then painted in an order that
 * keeps every such constraint, the farthest centroid first among those
 * free to go (Kahn's sort; a cycle is broken at its farthest piece). A
 * picture with more pairs than CLI_SVG_ORDER_BUDGET keeps the centroid
 * order: its pieces are then too small for it to matter. */

/* Pair tests at most (a few seconds' worth). */
#define CLI_SVG_ORDER_BUDGET 8000000

/* Grid cells a piece may be entered in, in all, per piece on average. */
#define CLI_SVG_ORDER_CELLS_PER_PIECE 16

/* Pieces within this fraction of the scene's size of a plane are on it:
 * far above the rounding of cut corners (about 1e-16 of it), far below
 * any distance a picture shows. */
#define CLI_SVG_PLANE_TOLERANCE 1e-9

/* Pictures overlap when they share more than a sliver this wide, in
 * pixels: pieces that only touch along an edge are not ordered. */
#define CLI_SVG_OVERLAP_TOLERANCE 1e-6

typedef struct cliOrderPiece {
	bcVec3 corners[3];
	double x[3], y[3];       /* on the screen */
	double box[4];           /* screen bounds: left, top, right, bottom */
	bcVec3 normal;           /* the triangle's front normal turned to the eye; 0 when edge-on */
} cliOrderPiece;

/* Is every corner of b on the eye's side of a's plane (or on it)? */
static bool wholeInFront(const cliOrderPiece* a, const cliOrderPiece* b, double tolerance)
{
	if (a->normal.x == 0.0 && a->normal.y == 0.0 && a->normal.z == 0.0) {
		return false;
	}
	for (int k = 0; k < 3; ++k) {
		if (bcDot(bcSub(b->corners[k], a->corners[0]), a->normal) < -tolerance) {
			return false;
		}
	}
	return true;
}

/* Is every corner of b beyond a's plane (or on it)? */
static bool wholeBehind(const cliOrderPiece* a, const cliOrderPiece* b, double tolerance)
{
	if (a->normal.x == 0.0 && a->normal.y == 0.0 && a->normal.z == 0.0) {
		return false;
	}
	for (int k = 0; k < 3; ++k) {
		if (bcDot(bcSub(b->corners[k], a->corners[0]), a->normal) > tolerance) {
			return false;
		}
	}
	return true;
}

/* Is there a line along one of the six edges with the two screen triangles
 * on either side (touching along it at most)? */
static bool picturesApart(const cliOrderPiece* a, const cliOrderPiece* b)
{
	for (int pass = 0; pass < 2; ++pass) {
		const cliOrderPiece* p = pass == 0 ? a : b;
		const cliOrderPiece* q = pass == 0 ? b : a;
		double turn = (p->x[1] - p->x[0]) * (p->y[2] - p->y[0]) - (p->y[1] - p->y[0]) * (p->x[2] - p->x[0]);
		if (turn == 0.0) {
			return true; /* no area on the screen: covers nothing */
		}
		for (int e = 0; e < 3; ++e) {
			double ex = p->x[(e + 1) % 3] - p->x[e], ey = p->y[(e + 1) % 3] - p->y[e];
			double length = sqrt(ex * ex + ey * ey);
			bool outside = true;
			for (int k = 0; k < 3 && outside; ++k) {
				/* distance of q's corner inside p's edge, in pixels */
				double inside = (ex * (q->y[k] - p->y[e]) - ey * (q->x[k] - p->x[e])) / length;
				outside = (turn > 0.0 ? inside : -inside) <= CLI_SVG_OVERLAP_TOLERANCE;
			}
			if (outside) {
				return true;
			}
		}
	}
	return false;
}

/* Must a be painted before b (1), after (-1), or either (0)? */
static int paintOrder(const cliOrderPiece* a, const cliOrderPiece* b, double tolerance)
{
	if (a->box[0] >= b->box[2] || b->box[0] >= a->box[2] || a->box[1] >= b->box[3] || b->box[1] >= a->box[3] ||
		picturesApart(a, b)) {
		return 0;
	}
	bool before = wholeInFront(a, b, tolerance) || wholeBehind(b, a, tolerance);
	bool after = wholeInFront(b, a, tolerance) || wholeBehind(a, b, tolerance);
	return before == after ? 0 : (before ? 1 : -1);
}

/* The constraints: edges from a piece painted first to one painted after. */
typedef struct cliOrderEdges {
	int64_t* from;
	int64_t* to;
	int64_t count, capacity;
} cliOrderEdges;

static bool addEdge(cliOrderEdges* edges, int64_t from, int64_t to)
{
	if (edges->count == edges->capacity) {
		int64_t capacity = edges->capacity > 0 ? 2 * edges->capacity : 1024;
		int64_t* f = realloc(edges->from, (size_t)capacity * sizeof *f);
		if (f != NULL) {
			edges->from = f;
		}
		int64_t* t = realloc(edges->to, (size_t)capacity * sizeof *t);
		if (t != NULL) {
			edges->to = t;
		}
		if (f == NULL || t == NULL) {
			return false;
		}
		edges->capacity = capacity;
	}
	edges->from[edges->count] = from;
	edges->to[edges->count] = to;
	edges->count += 1;
	return true;
}

/* Screen-overlapping pairs through a grid: each pair is tested in the one
 * cell that holds the corner where their boxes' overlap starts. False
 * when out of memory or over the budget (edges then incomplete). */
static bool findConstraints(const cliOrderPiece* pieces, int64_t n, double tolerance, cliOrderEdges* edges)
{
	double box[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
	for (int64_t i = 0; i < n; ++i) {
		box[0] = fmin(box[0], pieces[i].box[0]);
		box[1] = fmin(box[1], pieces[i].box[1]);
		box[2] = fmax(box[2], pieces[i].box[2]);
		box[3] = fmax(box[3], pieces[i].box[3]);
	}
	if (!(box[2] > box[0] && box[3] > box[1]) || !isfinite(box[2] - box[0]) || !isfinite(box[3] - box[1])) {
		return n == 0;
	}
	int64_t side = (int64_t)ceil(sqrt((double)n));
	side = side < 1 ? 1 : (side > 1024 ? 1024 : side);
	double cellWidth = (box[2] - box[0]) / (double)side, cellHeight = (box[3] - box[1]) / (double)side;
	/* cells each piece covers: counted, then filled (counting sort) */
	int64_t cells = side * side;
	int64_t* start = calloc((size_t)cells + 1, sizeof *start);
	if (start == NULL) {
		return false;
	}
	int64_t total = 0;
#define CLI_CELL_RANGE(p, c0, r0, c1, r1)                                                                             \
	int64_t c0 = (int64_t)fmin((double)(side - 1), fmax(0.0, floor(((p)->box[0] - box[0]) / cellWidth)));            \
	int64_t r0 = (int64_t)fmin((double)(side - 1), fmax(0.0, floor(((p)->box[1] - box[1]) / cellHeight)));           \
	int64_t c1 = (int64_t)fmin((double)(side - 1), fmax(0.0, floor(((p)->box[2] - box[0]) / cellWidth)));            \
	int64_t r1 = (int64_t)fmin((double)(side - 1), fmax(0.0, floor(((p)->box[3] - box[1]) / cellHeight)))
	for (int64_t i = 0; i < n; ++i) {
		CLI_CELL_RANGE(pieces + i, c0, r0, c1, r1);
		total += (c1 - c0 + 1) * (r1 - r0 + 1);
		for (int64_t r = r0; r <= r1 && total <= CLI_SVG_ORDER_CELLS_PER_PIECE * n; ++r) {
			for (int64_t c = c0; c <= c1; ++c) {
				start[r * side + c + 1] += 1;
			}
		}
	}
	if (total > CLI_SVG_ORDER_CELLS_PER_PIECE * n) {
		free(start);
		return false;
	}
	for (int64_t k = 0; k < cells; ++k) {
		start[k + 1] += start[k];
	}
	int64_t* members = malloc((size_t)(total > 0 ? total : 1) * sizeof *members);
	int64_t* filled = calloc((size_t)cells, sizeof *filled);
	bool ok = members != NULL && filled != NULL;
	for (int64_t i = 0; ok && i < n; ++i) {
		CLI_CELL_RANGE(pieces + i, c0, r0, c1, r1);
		for (int64_t r = r0; r <= r1; ++r) {
			for (int64_t c = c0; c <= c1; ++c) {
				int64_t k = r * side + c;
				members[start[k] + filled[k]++] = i;
			}
		}
	}
	int64_t tests = 0;
	for (int64_t k = 0; ok && k < cells; ++k) {
		for (int64_t u = start[k]; ok && u < start[k + 1]; ++u) {
			for (int64_t v = u + 1; ok && v < start[k + 1]; ++v) {
				int64_t i = members[u], j = members[v];
				const cliOrderPiece* a = pieces + i;
				const cliOrderPiece* b = pieces + j;
				/* only in the cell where the overlap of their boxes starts */
				cliOrderPiece corner;
				corner.box[0] = corner.box[2] = fmax(a->box[0], b->box[0]);
				corner.box[1] = corner.box[3] = fmax(a->box[1], b->box[1]);
				CLI_CELL_RANGE(&corner, c0, r0, c1, r1);
				(void)c1;
				(void)r1;
				if (r0 * side + c0 != k) {
					continue;
				}
				if (++tests > CLI_SVG_ORDER_BUDGET) {
					ok = false;
					break;
				}
				int order = paintOrder(a, b, tolerance);
				if (order != 0) {
					ok = order > 0 ? addEdge(edges, i, j) : addEdge(edges, j, i);
				}
			}
		}
	}
#undef CLI_CELL_RANGE
	free(start);
	free(members);
	free(filled);
	return ok;
}

/* A min-heap of piece numbers (their centroid rank). */
static void heapPush(int64_t* heap, int64_t* size, int64_t value)
{
	int64_t i = (*size)++;
	while (i > 0 && heap[(i - 1) / 2] > value) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = value;
}

static int64_t heapPop(int64_t* heap, int64_t* size)
{
	int64_t top = heap[0], last = heap[--(*size)], i = 0;
	for (;;) {
		int64_t child = 2 * i + 1;
		if (child >= *size) {
			break;
		}
		if (child + 1 < *size && heap[child + 1] < heap[child]) {
			child += 1;
		}
		if (heap[child] >= last) {
			break;
		}
		heap[i] = heap[child];
		i = child;
	}
	if (*size > 0) {
		heap[i] = last;
	}
	return top;
}

/* Reorder pieces[0 .. n) (in centroid order) to keep the constraints; left
 * as they are when out of memory or over the budget. */
static void refineOrder(const bcMesh* mesh, const cliCamera* camera, cliPiece* pieces, int64_t n)
{
	if (n < 2) {
		return;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double tolerance = CLI_SVG_PLANE_TOLERANCE * bcDistance(info.lowerBound, info.upperBound);
	cliOrderPiece* order = malloc((size_t)n * sizeof *order);
	cliOrderEdges edges = { NULL, NULL, 0, 0 };
	if (order == NULL) {
		return;
	}
	for (int64_t i = 0; i < n; ++i) {
		cliOrderPiece* p = order + i;
		cliPieceCorners(mesh, pieces[i], p->corners);
		p->box[0] = p->box[1] = INFINITY;
		p->box[2] = p->box[3] = -INFINITY;
		for (int k = 0; k < 3; ++k) {
			cliScreenPoint s = cliCamera_Project(camera, p->corners[k]);
			p->x[k] = s.x;
			p->y[k] = s.y;
			p->box[0] = fmin(p->box[0], s.x);
			p->box[1] = fmin(p->box[1], s.y);
			p->box[2] = fmax(p->box[2], s.x);
			p->box[3] = fmax(p->box[3], s.y);
		}
		bcVec3 normal = bcMesh_GetTriangle(mesh, pieces[i].triangle).normal;
		double facing = bcDot(normal, camera->toEye);
		p->normal = facing > 0.0 ? normal : (facing < 0.0 ? bcScale(-1.0, normal) : bcMakeVec3(0.0, 0.0, 0.0));
	}
	bool found = findConstraints(order, n, tolerance, &edges);
	free(order);
	int64_t* first = found && edges.count > 0 ? calloc((size_t)n + 1, sizeof *first) : NULL;
	int64_t* targets = first != NULL ? malloc((size_t)edges.count * sizeof *targets) : NULL;
	int64_t* waiting = targets != NULL ? calloc((size_t)n, sizeof *waiting) : NULL;
	int64_t* heap = waiting != NULL ? malloc((size_t)n * sizeof *heap) : NULL;
	cliPiece* sorted = heap != NULL ? malloc((size_t)n * sizeof *sorted) : NULL;
	bool* done = sorted != NULL ? calloc((size_t)n, sizeof *done) : NULL;
	if (done != NULL) {
		/* successors of each piece, in place (counting sort by source) */
		for (int64_t e = 0; e < edges.count; ++e) {
			first[edges.from[e] + 1] += 1;
			waiting[edges.to[e]] += 1;
		}
		for (int64_t i = 0; i < n; ++i) {
			first[i + 1] += first[i];
		}
		int64_t* fill = heap; /* borrowed for the counts filled so far */
		memset(fill, 0, (size_t)n * sizeof *fill);
		for (int64_t e = 0; e < edges.count; ++e) {
			targets[first[edges.from[e]] + fill[edges.from[e]]++] = edges.to[e];
		}
		int64_t size = 0, emitted = 0, next = 0;
		for (int64_t i = 0; i < n; ++i) {
			if (waiting[i] == 0) {
				heapPush(heap, &size, i);
			}
		}
		while (emitted < n) {
			int64_t i;
			if (size > 0) {
				i = heapPop(heap, &size);
			} else {
				/* a cycle: its farthest piece goes first */
				while (done[next]) {
					next += 1;
				}
				i = next;
			}
			if (done[i]) {
				continue;
			}
			done[i] = true;
			sorted[emitted++] = pieces[i];
			for (int64_t e = first[i]; e < first[i + 1]; ++e) {
				int64_t j = targets[e];
				if (!done[j] && --waiting[j] == 0) {
					heapPush(heap, &size, j);
				}
			}
		}
		memcpy(pieces, sorted, (size_t)n * sizeof *pieces);
	}
	free(first);
	free(targets);
	free(waiting);
	free(heap);
	free(sorted);
	free(done);
	free(edges.from);
	free(edges.to);
}

/* cliDepthOrder, refined or in centroid order alone (enough for counting). */
static cliPiece* depthOrder(const bcMesh* mesh, const cliCamera* camera, double maxEdge, bool refine, int64_t* count)
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
					cliPieceCorners(mesh, piece, c);
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
	if (refine) {
		refineOrder(mesh, camera, pieces, filled);
	}
	*count = filled;
	return pieces;
}

cliPiece* cliDepthOrder(const bcMesh* mesh, const cliCamera* camera, double maxEdge, int64_t* count)
{
	return depthOrder(mesh, camera, maxEdge, true, count);
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

/* The colour of an outline edge on a face of faceColor. */
static cliColor outlineColor(cliColor faceColor)
{
	cliColor c = { channel(CLI_SVG_OUTLINE_SHADE * faceColor.r), channel(CLI_SVG_OUTLINE_SHADE * faceColor.g),
				   channel(CLI_SVG_OUTLINE_SHADE * faceColor.b) };
	return c;
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
		cliWriteSvgPoint(f, cliCamera_Project(camera, corners[k]));
	}
	fputs("\" fill=\"", f);
	cliWriteSvgColor(f, color);
	if (strokeWidth != NULL) {
		fputs("\" stroke=\"", f);
		cliWriteSvgColor(f, color);
		if (strokeWidth[0] != '\0') {
			fputs("\" stroke-width=\"", f);
			fputs(strokeWidth, f);
		}
	}
	fputs("\"/>\n", f);
}

/* The outline edges of the triangle that lie along the piece (corners as
 * given by cliPieceCorners), drawn right after it so that nearer faces
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
	cliColor color = outlineColor(faceColor);
	for (int e = 0; e < 3; ++e) {
		if (along[e]) {
			cliScreenPoint a = cliCamera_Project(camera, corners[e]);
			cliScreenPoint b = cliCamera_Project(camera, corners[(e + 1) % 3]);
			cliWriteSvgLine(f, NULL, a, b, color, CLI_SVG_OUTLINE_WIDTH, false);
		}
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
	cliWriteSvgCoord(f, p[0].x);
	putc(' ', f);
	cliWriteSvgCoord(f, p[0].y);
	putc('l', f);
	for (int c = 1; c < 3; ++c) {
		double dx = p[c].x - p[c - 1].x, dy = p[c].y - p[c - 1].y;
		if (c > 1 && dx >= 0.0) {
			putc(' ', f);
		}
		cliWriteSvgCoord(f, dx);
		if (dy >= 0.0) {
			putc(' ', f);
		}
		cliWriteSvgCoord(f, dy);
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
	cliPiece* order = depthOrder(mesh, camera, maxEdge, false, &count); /* counted, not painted */
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
				cliPieceCorners(mesh, all, corners);
				writeFace(f, camera, corners, color, CLI_SVG_UNDERPAINT_SEAM_WIDTH);
				painted[piece.triangle] = 1;
			}
			cliPieceCorners(mesh, piece, corners);
			if (culling && piece.k == 1) {
				cliScreenPoint p[3];
				if (snapCorners(mesh, &clusters, piece.triangle, p) == 0.0) {
					left += 1;
					continue;
				}
				if (pass == 0) {
					/* fill and stroke are the group's currentColor */
					fputs("<path color=\"", f);
					cliWriteSvgColor(f, color);
					fputs("\" d=\"", f);
					writeSnappedData(f, p);
					fputs("\"/>\n", f);
				}
				uint8_t edges = outline[piece.triangle];
				for (int e = 0; e < 3; ++e) {
					if (edges & (1u << e)) {
						cliColor oc = outlineColor(color);
						cliWriteSvgLine(f, NULL, p[e], p[(e + 1) % 3], oc, CLI_SVG_OUTLINE_WIDTH, false);
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
					cliWriteSvgColor(f, backColor);
					fputs("\" stroke=\"", f);
					cliWriteSvgColor(f, backColor);
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
