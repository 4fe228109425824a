/* polygon.c - one polygon of an OBJ face into triangles.
 *
 * The rule. A polygon v0 v1 ... vk is first measured: its plane (Newell's
 * normal, through the mean of its corners) and how far its corners stray
 * from it. Then, looked at along the axis where that normal is largest
 * (the polygon's projection on the other two axes, exact coordinates),
 * every decision takes the exact sign of a 2D orientation:
 *  - convex (planar, simple, every corner turning the polygon's way or
 *    straight on): the fan (v0 v1 v2), (v0 v2 v3), ..., as every OBJ
 *    reader does and as ballcast always did;
 *  - concave (planar and simple, a corner turning the other way): ear
 *    clipping. Walking the corners from v0 in file order, a corner whose
 *    triangle (previous, corner, next), with its two remaining
 *    neighbours, turns the polygon's way and holds no other remaining
 *    corner (inside or on its edges) is cut off as that triangle, and the
 *    walk steps back to the previous corner; any other corner passes the
 *    walk on to the next. The last three corners make the last triangle.
 *    Its triangles lie inside the polygon and cover it exactly;
 *  - flat (its corners on a line), non-planar (a corner farther than
 *    BC_POLYGON_PLANARITY_TOLERANCE of its size from its plane), or
 *    self-intersecting (two edges that cross or touch, an edge folding
 *    back on the previous one, a corner repeated): the fan, since no cut
 *    is right; the reader warns about the last two.
 * Either way a polygon of k corners gives k - 2 triangles, so the
 * triangles of the faces after it keep their numbers.
 *
 * The cost. Convexity is one pass of exact signs (with the turning number,
 * which tells a convex polygon from one winding twice), simplicity a sweep,
 * and ear clipping asks each candidate ear a k-d tree of the notches: time
 * O(n log n) for convex and self-intersecting polygons and for the
 * simplicity of any; ear clipping about n log n on combs and spirals, and
 * about n^1.4 on a star of random spikes, whose ears are long slivers
 * (tests/bench/notes.md). The triangles are those of the rule above,
 * exactly: tests/unit/polygon.c keeps the quadratic code it was first
 * written in and compares.
 */
#include "polygon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "predicates.h"
#include "vec3.h"

/* Corners whose largest coordinate is beyond 2^+-this are measured scaled
 * by a power of two: Newell's normal multiplies two coordinates and its
 * length squares that, which stays inside the normal doubles (2^+-800). */
#define BC_POLYGON_SAFE_MAGNITUDE 0x1p200

void bcPolygonScratch_Free(bcPolygonScratch* scratch)
{
	bcFree(scratch->coordinates);
	bcFree(scratch->links);
	bcFree(scratch->work);
	scratch->coordinates = NULL;
	scratch->links = NULL;
	scratch->capacity = 0;
	scratch->work = NULL;
	scratch->workSize = 0;
}

static bool reserve(bcPolygonScratch* scratch, int32_t count)
{
	if (count <= scratch->capacity) {
		return true;
	}
	int32_t capacity = scratch->capacity > 0 ? scratch->capacity : 16;
	while (capacity < count) {
		capacity = capacity > INT32_MAX / 2 ? count : 2 * capacity;
	}
	double* coordinates = bcRealloc(scratch->coordinates, 2 * (size_t)capacity * sizeof *coordinates);
	if (coordinates != NULL) {
		scratch->coordinates = coordinates;
	}
	int32_t* links = bcRealloc(scratch->links, 2 * (size_t)capacity * sizeof *links);
	if (links != NULL) {
		scratch->links = links;
	}
	if (coordinates == NULL || links == NULL) {
		return false;
	}
	scratch->capacity = capacity;
	return true;
}

static void writeFan(const int32_t* corners, int32_t count, int32_t* triangles)
{
	for (int32_t i = 0; i + 2 < count; ++i) {
		triangles[3 * i] = corners[0];
		triangles[3 * i + 1] = corners[i + 1];
		triangles[3 * i + 2] = corners[i + 2];
	}
}

/* The polygon in its plane: corner i at (u[2i], u[2i + 1]), turning the
 * way sign says (+1 counter-clockwise there, -1 clockwise). */
typedef struct bcFlatPolygon {
	const double* u;
	int32_t count;
	int sign;
} bcFlatPolygon;

/* The turn at b from a to c, times the polygon's sign: > 0 the polygon's
 * way, 0 straight on (or back), < 0 the other way. */
static int turn(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c)
{
	const double* u = p->u;
	return p->sign * bcSign(bcOrient2d(u[2 * a], u[2 * a + 1], u[2 * b], u[2 * b + 1], u[2 * c], u[2 * c + 1]));
}

/* q on the closed segment a b, knowing the three are collinear. */
static bool withinSegment(const double* u, int32_t a, int32_t b, int32_t q)
{
	double lo0 = u[2 * a] < u[2 * b] ? u[2 * a] : u[2 * b], hi0 = u[2 * a] < u[2 * b] ? u[2 * b] : u[2 * a];
	double lo1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * a + 1] : u[2 * b + 1];
	double hi1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * b + 1] : u[2 * a + 1];
	return u[2 * q] >= lo0 && u[2 * q] <= hi0 && u[2 * q + 1] >= lo1 && u[2 * q + 1] <= hi1;
}

/* Do the closed segments a b and c d have a common point? */
static bool segmentsMeet(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t d)
{
	int o1 = turn(p, a, b, c), o2 = turn(p, a, b, d), o3 = turn(p, c, d, a), o4 = turn(p, c, d, b);
	if (o1 * o2 < 0 && o3 * o4 < 0) {
		return true;
	}
	return (o1 == 0 && withinSegment(p->u, a, b, c)) || (o2 == 0 && withinSegment(p->u, a, b, d)) ||
		   (o3 == 0 && withinSegment(p->u, c, d, a)) || (o4 == 0 && withinSegment(p->u, c, d, b));
}

/* Is q inside or on the triangle a b c (which turns the polygon's way)? */
static bool inTriangle(const bcFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t q)
{
	return turn(p, a, b, q) >= 0 && turn(p, b, c, q) >= 0 && turn(p, c, a, q) >= 0;
}

/* The work space's bytes, grown to size; NULL when out of memory. */
static void* workspace(bcPolygonScratch* scratch, size_t size)
{
	if (size > scratch->workSize) {
		void* work = bcRealloc(scratch->work, size);
		if (work == NULL) {
			return NULL;
		}
		scratch->work = work;
		scratch->workSize = size;
	}
	return scratch->work;
}

/* A deterministic scramble of i (a 32-bit finaliser): the treap's
 * priorities and the k-d tree's pivots. */
static uint32_t scramble(uint32_t i)
{
	i ^= i >> 16;
	i *= 0x7feb352dU;
	i ^= i >> 15;
	i *= 0x846ca68bU;
	i ^= i >> 16;
	return i;
}

/* ------------------------------------------------ local checks, winding
 *
 * One pass over the corners: no corner repeated by the next, no edge
 * folding back onto the one before it (those make a polygon
 * self-intersecting outright), which corners turn the other way, and how
 * many times the edges' direction turns through the polygon's +u
 * direction. The direction of edge a b lies in the upper half turn
 * [0, pi) when b is above a (on the polygon's side: v times its sign) or
 * level and to the right, in the lower half [pi, 2 pi) otherwise; these
 * are exact comparisons of coordinates. Where no corner turns the other
 * way, each corner turns the direction forward by less than a half turn
 * (a fold-back would be a half turn), so it passes 0 exactly when it goes
 * from the lower half to the upper: the count is the polygon's turning
 * number. */

typedef struct bcCornerSummary {
	bool local;          /* no repeated corner, no fold-back */
	bool reflex;         /* some corner turns the other way */
	bool strictlyConvex; /* every corner turns the polygon's way */
	int32_t windings;    /* where nothing turns the other way: the turning number */
} bcCornerSummary;

static bool upperHalf(const bcFlatPolygon* p, int32_t a, int32_t b)
{
	const double* u = p->u;
	double va = p->sign * u[2 * a + 1], vb = p->sign * u[2 * b + 1];
	return vb > va || (vb == va && u[2 * b] > u[2 * a]);
}

static bcCornerSummary summarise(const bcFlatPolygon* p)
{
	int32_t n = p->count;
	const double* u = p->u;
	bcCornerSummary s = { true, false, true, 0 };
	bool upper = upperHalf(p, n - 1, 0);
	for (int32_t i = 0; i < n; ++i) {
		int32_t a = (i + n - 1) % n, b = i, c = (i + 1) % n;
		if (u[2 * b] == u[2 * c] && u[2 * b + 1] == u[2 * c + 1]) {
			s.local = false; /* a repeated corner */
		}
		int t = turn(p, a, b, c);
		if (t == 0) {
			double dot = (u[2 * b] - u[2 * a]) * (u[2 * c] - u[2 * b]) +
						 (u[2 * b + 1] - u[2 * a + 1]) * (u[2 * c + 1] - u[2 * b + 1]);
			if (dot < 0.0) {
				s.local = false; /* folding back */
			}
		}
		s.strictlyConvex = s.strictlyConvex && t > 0;
		s.reflex = s.reflex || t < 0;
		bool next = upperHalf(p, b, c);
		s.windings += !upper && next;
		upper = next;
	}
	return s;
}

/* ------------------------------------------------ simplicity: a sweep
 *
 * Do two edges that are not neighbours meet (Shamos and Hoey's sweep)?
 * Corners are visited in (u, v) order; an edge runs from its first corner
 * in that order to its last, and the status holds the edges the sweep
 * line crosses, from the bottom up, as a treap. At each corner p: an edge
 * of the status through p that does not end there meets p's edges; the
 * edges ending at p leave, those starting there enter between the edges
 * below and above p, and each new pair of neighbours in the status is
 * tested (segmentsMeet, exactly). The first meeting point, in sweep order,
 * of two edges that are not neighbours is found there or earlier, so the
 * sweep finds a meeting exactly when the pairwise test would; the polygon
 * reaching here has no repeated or folded corner, and two corners at one
 * place are a meeting of their edges. O(n log n). */

#define BC_NIL (-1)

typedef struct bcSweepEvent {
	double u, v;
	int32_t corner;
} bcSweepEvent;

typedef struct bcSweepNode {
	int32_t left, right, parent;
	uint32_t priority;
} bcSweepNode;

typedef struct bcSweep {
	const bcFlatPolygon* polygon;
	const int32_t* rank; /* per corner: its place in sweep order */
	bcSweepNode* nodes;  /* per edge i (corner i to i + 1) */
	int32_t root;
} bcSweep;

static int compareEvents(const void* a, const void* b)
{
	const bcSweepEvent* x = a;
	const bcSweepEvent* y = b;
	if (x->u != y->u) {
		return x->u < y->u ? -1 : 1;
	}
	if (x->v != y->v) {
		return x->v < y->v ? -1 : 1;
	}
	return (x->corner > y->corner) - (x->corner < y->corner);
}

/* Edge e's other end from corner q. */
static int32_t otherEnd(const bcSweep* s, int32_t e, int32_t q)
{
	int32_t b = e + 1 == s->polygon->count ? 0 : e + 1;
	return q == e ? b : e;
}

/* Where corner q lies from edge e, raw (not times the polygon's sign):
 * > 0 above it (left of it, run from its first corner to its last), < 0
 * below, 0 on its line. */
static int sideOf(const bcSweep* s, int32_t e, int32_t q)
{
	const double* u = s->polygon->u;
	int32_t a = e, b = e + 1 == s->polygon->count ? 0 : e + 1;
	if (s->rank[a] > s->rank[b]) {
		int32_t t = a;
		a = b;
		b = t;
	}
	return bcSign(bcOrient2d(u[2 * a], u[2 * a + 1], u[2 * b], u[2 * b + 1], u[2 * q], u[2 * q + 1]));
}

/* Edges e and f meet, and are not neighbours (which meet at their corner
 * only: no fold-backs reach the sweep). */
static bool edgesCross(const bcSweep* s, int32_t e, int32_t f)
{
	int32_t n = s->polygon->count;
	if (e == BC_NIL || f == BC_NIL || e == f || (e + 1) % n == f || (f + 1) % n == e) {
		return false;
	}
	return segmentsMeet(s->polygon, e, (e + 1) % n, f, (f + 1) % n);
}

/* Node x takes its parent's place, the parent becoming its child. */
static void rotateUp(bcSweep* s, int32_t x)
{
	bcSweepNode* nodes = s->nodes;
	int32_t p = nodes[x].parent, g = nodes[p].parent;
	if (nodes[p].left == x) {
		int32_t b = nodes[x].right;
		nodes[p].left = b;
		if (b != BC_NIL) {
			nodes[b].parent = p;
		}
		nodes[x].right = p;
	} else {
		int32_t b = nodes[x].left;
		nodes[p].right = b;
		if (b != BC_NIL) {
			nodes[b].parent = p;
		}
		nodes[x].left = p;
	}
	nodes[p].parent = x;
	nodes[x].parent = g;
	if (g == BC_NIL) {
		s->root = x;
	} else if (nodes[g].left == p) {
		nodes[g].left = x;
	} else {
		nodes[g].right = x;
	}
}

/* Put edge x into the status just above edge after (BC_NIL: at the bottom). */
static void insertAbove(bcSweep* s, int32_t after, int32_t x)
{
	bcSweepNode* nodes = s->nodes;
	nodes[x].left = BC_NIL;
	nodes[x].right = BC_NIL;
	nodes[x].parent = BC_NIL;
	if (s->root == BC_NIL) {
		s->root = x;
		return;
	}
	int32_t at = after;
	bool left = false;
	if (after == BC_NIL || nodes[after].right != BC_NIL) {
		at = after == BC_NIL ? s->root : nodes[after].right;
		while (nodes[at].left != BC_NIL) {
			at = nodes[at].left;
		}
		left = true;
	}
	if (left) {
		nodes[at].left = x;
	} else {
		nodes[at].right = x;
	}
	nodes[x].parent = at;
	while (nodes[x].parent != BC_NIL && nodes[nodes[x].parent].priority < nodes[x].priority) {
		rotateUp(s, x);
	}
}

static void removeEdge(bcSweep* s, int32_t x)
{
	bcSweepNode* nodes = s->nodes;
	while (nodes[x].left != BC_NIL && nodes[x].right != BC_NIL) {
		int32_t l = nodes[x].left, r = nodes[x].right;
		rotateUp(s, nodes[l].priority > nodes[r].priority ? l : r);
	}
	int32_t child = nodes[x].left != BC_NIL ? nodes[x].left : nodes[x].right;
	int32_t p = nodes[x].parent;
	if (child != BC_NIL) {
		nodes[child].parent = p;
	}
	if (p == BC_NIL) {
		s->root = child;
	} else if (nodes[p].left == x) {
		nodes[p].left = child;
	} else {
		nodes[p].right = child;
	}
}

/* The edge just above x in the status, or BC_NIL. */
static int32_t edgeAbove(const bcSweep* s, int32_t x)
{
	const bcSweepNode* nodes = s->nodes;
	if (nodes[x].right != BC_NIL) {
		x = nodes[x].right;
		while (nodes[x].left != BC_NIL) {
			x = nodes[x].left;
		}
		return x;
	}
	int32_t p = nodes[x].parent;
	while (p != BC_NIL && nodes[p].right == x) {
		x = p;
		p = nodes[p].parent;
	}
	return p;
}

/* The lowest edge of the status that corner q is not above (wantBelow
 * false), or the highest that q is above (wantBelow true); BC_NIL if none. */
static int32_t findEdge(const bcSweep* s, int32_t q, bool wantBelow)
{
	int32_t found = BC_NIL;
	for (int32_t x = s->root; x != BC_NIL;) {
		bool below = sideOf(s, x, q) > 0;
		if (below == wantBelow) {
			found = x;
		}
		x = below ? s->nodes[x].right : s->nodes[x].left;
	}
	return found;
}

/* Whether no two edges meet but neighbours at their common corner; false
 * also when out of memory (*memory then false). */
static bool sweepSimple(const bcFlatPolygon* p, bcPolygonScratch* scratch, bool* memory)
{
	int32_t n = p->count;
	size_t eventBytes = (size_t)n * sizeof(bcSweepEvent), nodeBytes = (size_t)n * sizeof(bcSweepNode);
	char* work = workspace(scratch, eventBytes + nodeBytes + (size_t)n * sizeof(int32_t));
	*memory = work != NULL;
	if (work == NULL) {
		return false;
	}
	bcSweepEvent* events = (bcSweepEvent*)(void*)work;
	bcSweepNode* nodes = (bcSweepNode*)(void*)(work + eventBytes);
	int32_t* rank = (int32_t*)(void*)(work + eventBytes + nodeBytes);
	for (int32_t i = 0; i < n; ++i) {
		events[i] = (bcSweepEvent){ p->u[2 * i], p->u[2 * i + 1], i };
		nodes[i].priority = scramble((uint32_t)i);
	}
	qsort(events, (size_t)n, sizeof *events, compareEvents);
	for (int32_t k = 0; k < n; ++k) {
		if (k > 0 && events[k].u == events[k - 1].u && events[k].v == events[k - 1].v) {
			return false; /* two corners at one place */
		}
		rank[events[k].corner] = k;
	}
	bcSweep s = { p, rank, nodes, BC_NIL };
	for (int32_t k = 0; k < n; ++k) {
		int32_t q = events[k].corner;
		int32_t edges[2] = { q == 0 ? n - 1 : q - 1, q };
		/* an edge through q that does not end there */
		for (int32_t x = findEdge(&s, q, false); x != BC_NIL && sideOf(&s, x, q) == 0; x = edgeAbove(&s, x)) {
			if (x != edges[0] && x != edges[1]) {
				return false;
			}
		}
		int32_t starting[2];
		int starts = 0;
		for (int j = 0; j < 2; ++j) {
			if (rank[otherEnd(&s, edges[j], q)] < k) {
				removeEdge(&s, edges[j]);
			} else {
				starting[starts++] = edges[j];
			}
		}
		int32_t below = findEdge(&s, q, true);
		int32_t above = below != BC_NIL ? edgeAbove(&s, below) : findEdge(&s, q, false);
		if (starts == 0) {
			if (edgesCross(&s, below, above)) {
				return false;
			}
			continue;
		}
		if (starts == 2) {
			const double* u = p->u;
			int32_t r0 = otherEnd(&s, starting[0], q), r1 = otherEnd(&s, starting[1], q);
			if (bcOrient2d(u[2 * q], u[2 * q + 1], u[2 * r0], u[2 * r0 + 1], u[2 * r1], u[2 * r1 + 1]) < 0.0) {
				int32_t t = starting[0];
				starting[0] = starting[1];
				starting[1] = t;
			}
		}
		insertAbove(&s, below, starting[0]);
		if (starts == 2) {
			insertAbove(&s, starting[0], starting[1]);
		}
		if (edgesCross(&s, below, starting[0]) || edgesCross(&s, starting[starts - 1], above)) {
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------ ear clipping
 *
 * The walk of the file's comment, with each ear test asking only about
 * the remaining corners that do not turn the polygon's way strictly (the
 * notches: turning the other way, or straight on). That is the same
 * answer: in a simple polygon, if the closed triangle a i c of a corner i
 * that turns the polygon's way holds other remaining corners, the one of
 * them farthest from the line a c (nearest i) is a notch. (Its edges
 * cannot run towards i: they would end in the triangle nearer i, or cross
 * a i or i c. So both run away from i, and a corner turning the polygon's
 * way would have the outside of the polygon towards i; but between it
 * and i, crossed by no edge, the triangle is inside, as it is at i.) The
 * remaining polygon stays simple, so this holds at every step.
 *
 * The notches are kept in a k-d tree that counts the live ones in each
 * subtree; a test visits only the subtrees that hold live notches and
 * whose box meets the triangle (its bounds, and not wholly beyond one of
 * its edges). A notch whose turn changes after a cut is counted out (a
 * notch can only become a corner turning the polygon's way);
 * should a corner outside the tree ever become a notch, the walk goes on
 * testing every remaining corner, as the rule says. */

/* The tree's leaves hold up to this many notches: scanning a few costs
 * less than a node each. */
#define BC_POLYGON_LEAF 8

/* A tree of more notches than this is built again over the live ones once
 * half of them have left, so that its boxes shrink to what is left; the
 * rebuilds cost O(n log n) in all. */
#define BC_POLYGON_REBUILD_SIZE 64

/* The notches in a k-d tree, over places 0 .. count - 1: the range [lo, hi)
 * of more than BC_POLYGON_LEAF places is a node at its middle place m,
 * split there (along the wider side of its box) into [lo, m) and
 * [m + 1, hi); a smaller range is a leaf, at its first place. */
typedef struct bcNotchTree {
	const bcFlatPolygon* polygon;
	int32_t* points; /* per place: the notch there */
	double* xy;      /* per place: its u and v */
	double* boxes;   /* per node: the bounds of its range, lower u v, upper u v */
	int32_t* live;   /* per node: the live notches in its range */
	int32_t* place;  /* per corner: its place, or -1 */
	uint8_t* isLive; /* per corner */
	int32_t count;
} bcNotchTree;

static void swapPlaces(bcNotchTree* t, int32_t a, int32_t b)
{
	int32_t q = t->points[a];
	t->points[a] = t->points[b];
	t->points[b] = q;
	double u = t->xy[2 * a], v = t->xy[2 * a + 1];
	t->xy[2 * a] = t->xy[2 * b];
	t->xy[2 * a + 1] = t->xy[2 * b + 1];
	t->xy[2 * b] = u;
	t->xy[2 * b + 1] = v;
}

/* Arrange places [lo, hi) so that the k-th holds the k-th smallest along
 * axis, smaller or equal ones before it, greater or equal after
 * (quickselect, three-way, pivots scrambled from the range). */
static void selectPlace(bcNotchTree* t, int32_t lo, int32_t hi, int32_t k, int axis)
{
	while (hi - lo > 1) {
		int32_t at = lo + (int32_t)(scramble((uint32_t)lo * 31u + (uint32_t)hi) % (uint32_t)(hi - lo));
		double pivot = t->xy[2 * at + axis];
		int32_t less = lo, i = lo, greater = hi;
		while (i < greater) {
			double x = t->xy[2 * i + axis];
			if (x < pivot) {
				swapPlaces(t, less++, i++);
			} else if (x > pivot) {
				swapPlaces(t, i, --greater);
			} else {
				++i;
			}
		}
		if (k < less) {
			hi = less;
		} else if (k >= greater) {
			lo = greater;
		} else {
			return;
		}
	}
}

static void buildTree(bcNotchTree* t, int32_t lo, int32_t hi)
{
	while (lo < hi) {
		double box[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
		for (int32_t i = lo; i < hi; ++i) {
			for (int axis = 0; axis < 2; ++axis) {
				double x = t->xy[2 * i + axis];
				box[axis] = x < box[axis] ? x : box[axis];
				box[2 + axis] = x > box[2 + axis] ? x : box[2 + axis];
			}
		}
		if (hi - lo <= BC_POLYGON_LEAF) {
			memcpy(t->boxes + 4 * lo, box, sizeof box);
			t->live[lo] = hi - lo;
			return;
		}
		int32_t m = lo + (hi - lo) / 2;
		selectPlace(t, lo, hi, m, box[2] - box[0] >= box[3] - box[1] ? 0 : 1);
		memcpy(t->boxes + 4 * m, box, sizeof box);
		t->live[m] = hi - lo;
		buildTree(t, lo, m);
		lo = m + 1;
	}
}

/* Build the tree over its live notches (all of them at first); the
 * notches left out are placed nowhere. */
static void rebuildTree(bcNotchTree* t)
{
	int32_t live = 0;
	const double* u = t->polygon->u;
	for (int32_t k = 0; k < t->count; ++k) {
		int32_t q = t->points[k];
		if (t->isLive[q]) {
			t->points[live] = q;
			t->xy[2 * live] = u[2 * q];
			t->xy[2 * live + 1] = u[2 * q + 1];
			live += 1;
		} else {
			t->place[q] = -1;
		}
	}
	t->count = live;
	buildTree(t, 0, live);
	for (int32_t k = 0; k < live; ++k) {
		t->place[t->points[k]] = k;
	}
}

/* Make notch q live or not, counting it in or out along its path. */
static void setLive(bcNotchTree* t, int32_t q, bool live)
{
	int32_t target = t->place[q], change = live ? 1 : -1;
	t->isLive[q] = live;
	for (int32_t lo = 0, hi = t->count; lo < hi;) {
		if (hi - lo <= BC_POLYGON_LEAF) {
			t->live[lo] += change;
			return;
		}
		int32_t m = lo + (hi - lo) / 2;
		t->live[m] += change;
		if (target == m) {
			return;
		}
		if (target < m) {
			hi = m;
		} else {
			lo = m + 1;
		}
	}
}

/* The ear search's filter: double precision decides the sign of an
 * orientation when the determinant exceeds this many units of roundoff of
 * its two products' magnitudes (the error is at most (3 + 16 u) u of it,
 * lib/predicates.c's filter) and those are in the range where products
 * neither overflow nor lose digits below DBL_MIN; otherwise bcOrient2d
 * decides, exactly. Inline here because the search asks it most. */
#define BC_POLYGON_FILTER_BOUND (4.0 * BC_UNIT_ROUNDOFF)
#define BC_POLYGON_FILTER_MIN 1e-250
#define BC_POLYGON_FILTER_MAX 1e300

/* The sign of orient(a, b, (x, y)) times the polygon's sign when the
 * filter is sure of it; 2 when it is not. */
static int quickTurnTo(const bcFlatPolygon* p, int32_t a, int32_t b, double x, double y)
{
	const double* u = p->u;
	double l = (u[2 * b] - u[2 * a]) * (y - u[2 * a + 1]);
	double r = (u[2 * b + 1] - u[2 * a + 1]) * (x - u[2 * a]);
	double det = l - r, permanent = fabs(l) + fabs(r);
	if (permanent >= BC_POLYGON_FILTER_MIN && permanent <= BC_POLYGON_FILTER_MAX) {
		double bound = BC_POLYGON_FILTER_BOUND * permanent;
		if (det > bound) {
			return p->sign;
		}
		if (-det > bound) {
			return -p->sign;
		}
	}
	return 2;
}

/* The turn at b from a to the point (x, y), times the polygon's sign,
 * exactly. */
static int turnTo(const bcFlatPolygon* p, int32_t a, int32_t b, double x, double y)
{
	int t = quickTurnTo(p, a, b, x, y);
	if (t != 2) {
		return t;
	}
	const double* u = p->u;
	return p->sign * bcSign(bcOrient2d(u[2 * a], u[2 * a + 1], u[2 * b], u[2 * b + 1], x, y));
}

/* The closed triangle a b c turning the polygon's way, and its bounds. */
typedef struct bcEarTriangle {
	int32_t a, b, c;
	double box[4];
} bcEarTriangle;

/* Is the box strictly beyond the triangle's edge a b: is even its corner
 * farthest to the inner side (picked by the signs of the edge's run, exact
 * comparisons) surely on the outer side? (Not sure: the box is searched.) */
static bool boxBeyond(const bcFlatPolygon* p, int32_t a, int32_t b, const double* box)
{
	const double* u = p->u;
	/* the inner side is where sign * ((b - a) x (q - a)) grows: up when
	 * sign * (b - a).u > 0, left when sign * (b - a).v > 0 */
	bool up = p->sign > 0 ? u[2 * b] > u[2 * a] : u[2 * b] < u[2 * a];
	bool left = p->sign > 0 ? u[2 * b + 1] > u[2 * a + 1] : u[2 * b + 1] < u[2 * a + 1];
	return quickTurnTo(p, a, b, left ? box[0] : box[2], up ? box[3] : box[1]) == -1;
}

static bool boxMeets(const bcFlatPolygon* p, const bcEarTriangle* e, const double* box)
{
	return !(box[0] > e->box[2] || box[2] < e->box[0] || box[1] > e->box[3] || box[3] < e->box[1] ||
			 boxBeyond(p, e->a, e->b, box) || boxBeyond(p, e->b, e->c, box) || boxBeyond(p, e->c, e->a, box));
}

/* Is the notch at place k live, neither a nor c, and in the triangle (as
 * inTriangle has it)? */
static bool notchAt(const bcNotchTree* t, const bcEarTriangle* e, int32_t k)
{
	int32_t q = t->points[k];
	double x = t->xy[2 * k], y = t->xy[2 * k + 1];
	return t->isLive[q] && q != e->a && q != e->c && x >= e->box[0] && x <= e->box[2] && y >= e->box[1] &&
		   y <= e->box[3] && turnTo(t->polygon, e->a, e->b, x, y) >= 0 && turnTo(t->polygon, e->b, e->c, x, y) >= 0 &&
		   turnTo(t->polygon, e->c, e->a, x, y) >= 0;
}

/* Does a live notch other than the triangle's a and c lie in it? */
static bool notchIn(const bcNotchTree* t, int32_t lo, int32_t hi, const bcEarTriangle* e)
{
	while (lo < hi) {
		if (hi - lo <= BC_POLYGON_LEAF) {
			if (t->live[lo] == 0 || !boxMeets(t->polygon, e, t->boxes + 4 * lo)) {
				return false;
			}
			for (int32_t k = lo; k < hi; ++k) {
				if (notchAt(t, e, k)) {
					return true;
				}
			}
			return false;
		}
		int32_t m = lo + (hi - lo) / 2;
		if (t->live[m] == 0 || !boxMeets(t->polygon, e, t->boxes + 4 * m)) {
			return false;
		}
		if (notchAt(t, e, m) || notchIn(t, lo, m, e)) {
			return true;
		}
		lo = m + 1;
	}
	return false;
}

/* The turn at corner q between its remaining neighbours. */
static int remainingTurn(const bcFlatPolygon* p, const int32_t* previous, const int32_t* next, int32_t q)
{
	return turn(p, previous[q], q, next[q]);
}

/* After a cut, corner q's turn may have changed: keep the tree in step. */
static void updateNotch(bcNotchTree* t, const int32_t* previous, const int32_t* next, int32_t q, bool* everyCorner)
{
	bool notch = remainingTurn(t->polygon, previous, next, q) <= 0;
	if (t->place[q] < 0) {
		*everyCorner = *everyCorner || notch;
	} else if (t->isLive[q] != notch) {
		setLive(t, q, notch);
	}
}

/* Ear clipping as the file's comment states; links hold the previous and
 * next remaining corner of each. False when out of memory. */
static bool clipEars(const bcFlatPolygon* p, bcPolygonScratch* scratch, const int32_t* corners, int32_t* triangles)
{
	int32_t n = p->count;
	int32_t* previous = scratch->links;
	int32_t* next = scratch->links + n;
	for (int32_t i = 0; i < n; ++i) {
		previous[i] = (i + n - 1) % n;
		next[i] = (i + 1) % n;
	}
	int32_t notches = 0;
	for (int32_t i = 0; i < n; ++i) {
		notches += remainingTurn(p, previous, next, i) <= 0;
	}
	size_t m = (size_t)notches, whole = (size_t)n;
	char* work = workspace(scratch, m * (6 * sizeof(double) + 2 * sizeof(int32_t)) + whole * (sizeof(int32_t) + 1));
	if (work == NULL) {
		return false;
	}
	bcNotchTree tree = { p, NULL, NULL, NULL, NULL, NULL, NULL, notches };
	tree.boxes = (double*)(void*)work;
	tree.xy = tree.boxes + 4 * m;
	tree.points = (int32_t*)(void*)(tree.xy + 2 * m);
	tree.live = tree.points + m;
	tree.place = tree.live + m;
	tree.isLive = (uint8_t*)(tree.place + whole);
	for (int32_t i = 0, k = 0; i < n; ++i) {
		tree.isLive[i] = 0;
		tree.place[i] = -1;
		if (remainingTurn(p, previous, next, i) <= 0) {
			tree.isLive[i] = 1;
			tree.points[k++] = i;
		}
	}
	rebuildTree(&tree);
	bool everyCorner = false;
	const double* u = p->u;
	int32_t written = 0;
	int32_t remaining = n;
	int32_t i = 0;
	int32_t passed = 0; /* corners passed on since the last cut */
	while (remaining > 3 && passed <= remaining) {
		int32_t a = previous[i], c = next[i];
		bool ear = turn(p, a, i, c) > 0;
		if (ear && everyCorner) {
			for (int32_t q = next[c]; ear && q != a; q = next[q]) {
				ear = !inTriangle(p, a, i, c, q);
			}
		} else if (ear) {
			bcEarTriangle e = { a, i, c,
								{ fmin(u[2 * a], fmin(u[2 * i], u[2 * c])), fmin(u[2 * a + 1], fmin(u[2 * i + 1], u[2 * c + 1])),
								  fmax(u[2 * a], fmax(u[2 * i], u[2 * c])),
								  fmax(u[2 * a + 1], fmax(u[2 * i + 1], u[2 * c + 1])) } };
			ear = !notchIn(&tree, 0, tree.count, &e);
		}
		if (!ear) {
			i = c;
			passed += 1;
			continue;
		}
		triangles[3 * written] = corners[a];
		triangles[3 * written + 1] = corners[i];
		triangles[3 * written + 2] = corners[c];
		written += 1;
		next[a] = c;
		previous[c] = a;
		remaining -= 1;
		if (tree.place[i] >= 0 && tree.isLive[i]) {
			setLive(&tree, i, false);
		}
		updateNotch(&tree, previous, next, a, &everyCorner);
		updateNotch(&tree, previous, next, c, &everyCorner);
		if (tree.count > BC_POLYGON_REBUILD_SIZE && 2 * tree.live[tree.count / 2] < tree.count) {
			rebuildTree(&tree);
		}
		i = a;
		passed = 0;
	}
	/* The last three; or, if no ear was left (which a simple polygon does
	 * not allow), the rest as a fan from the current corner. */
	for (int32_t q = next[i]; next[q] != i; q = next[q]) {
		triangles[3 * written] = corners[i];
		triangles[3 * written + 1] = corners[q];
		triangles[3 * written + 2] = corners[next[q]];
		written += 1;
	}
	return true;
}

bool bcTriangulatePolygon(const bcVec3* vertices, const int32_t* corners, int32_t count, int32_t* triangles,
						  bcPolygonScratch* scratch, bcPolygonShape* shape, double* deviation)
{
	writeFan(corners, count, triangles);
	*shape = bc_polygonConvex;
	*deviation = 0.0;
	if (count <= 3) {
		return true;
	}
	/* Newell's normal (about the first corner), the mean, the size, from
	 * the corners scaled by a power of two (exactly) when they are huge or
	 * tiny, so that no product overflows: the shape does not change. */
	double largest = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		double m = bcMaxAbs(vertices[corners[i]]);
		largest = m > largest ? m : largest;
	}
	double scale = 1.0;
	if (largest > BC_POLYGON_SAFE_MAGNITUDE || (largest < 1.0 / BC_POLYGON_SAFE_MAGNITUDE && largest > 0.0)) {
		int exponent = 0;
		frexp(largest, &exponent);
		/* 2^-exponent, but at most 2^800 for the tiniest (subnormal) corners */
		scale = ldexp(1.0, exponent < -800 ? 800 : -exponent);
	}
	bcVec3 origin = bcScale(scale, vertices[corners[0]]);
	bcVec3 normal = bcMakeVec3(0.0, 0.0, 0.0);
	bcVec3 mean = bcMakeVec3(0.0, 0.0, 0.0);
	bcVec3 lower = origin, upper = origin;
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 p = bcScale(scale, vertices[corners[i]]);
		bcVec3 a = bcSub(p, origin), b = bcSub(bcScale(scale, vertices[corners[(i + 1) % count]]), origin);
		normal = bcAdd(normal, bcCross(a, b));
		mean = bcAdd(mean, a);
		lower = bcMin(lower, p);
		upper = bcMax(upper, p);
	}
	double length = sqrt(bcDot(normal, normal));
	double size = bcMaxAbs(bcSub(upper, lower));
	if (!(length > 0.0) || !(size > 0.0) || !isfinite(length)) {
		/* No area: the corners are on a line, or the polygon's parts
		 * cancel out (a symmetric bow tie), which only a polygon crossing
		 * itself does. */
		*shape = bc_polygonFlat;
		for (int32_t i = 1; i + 1 < count; ++i) {
			bcVec3 n = bcCross(bcSub(bcScale(scale, vertices[corners[i]]), origin),
							   bcSub(bcScale(scale, vertices[corners[i + 1]]), origin));
			if (n.x != 0.0 || n.y != 0.0 || n.z != 0.0) {
				*shape = bc_polygonSelfIntersecting;
				break;
			}
		}
		return true;
	}
	mean = bcScale(1.0 / (double)count, mean);
	double farthest = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		double d = fabs(bcDot(normal, bcSub(bcSub(bcScale(scale, vertices[corners[i]]), origin), mean)));
		farthest = d > farthest ? d : farthest;
	}
	*deviation = farthest / length / size;
	if (!(*deviation <= BC_POLYGON_PLANARITY_TOLERANCE)) {
		*shape = bc_polygonNonPlanar;
		return true;
	}

	/* The projection across the normal's largest axis k, on axes k + 1 and
	 * k + 2 (in that order, so the polygon turns there as the normal's k
	 * component says). */
	int k = fabs(normal.x) >= fabs(normal.y) ? (fabs(normal.x) >= fabs(normal.z) ? 0 : 2)
											 : (fabs(normal.y) >= fabs(normal.z) ? 1 : 2);
	if (!reserve(scratch, count)) {
		return false;
	}
	double* u = scratch->coordinates;
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 p = vertices[corners[i]];
		u[2 * i] = bcComponent(p, (k + 1) % 3);
		u[2 * i + 1] = bcComponent(p, (k + 2) % 3);
	}
	bcFlatPolygon flat = { u, count, bcComponent(normal, k) > 0.0 ? 1 : -1 };
	bcCornerSummary summary = summarise(&flat);
	/* A quadrilateral turning the same way at every corner is convex and
	 * simple. Otherwise: a repeated or folded corner makes it
	 * self-intersecting; with no corner turning the other way it is convex
	 * exactly when it winds once (winding more, its edges cross); with
	 * one, the sweep decides whether any edges meet. */
	if (summary.strictlyConvex && count == 4) {
		return true;
	}
	if (!summary.local || (!summary.reflex && summary.windings != 1)) {
		*shape = bc_polygonSelfIntersecting;
		return true;
	}
	if (!summary.reflex) {
		return true; /* convex: the fan stays */
	}
	bool memory = true;
	if (!sweepSimple(&flat, scratch, &memory)) {
		if (memory) {
			*shape = bc_polygonSelfIntersecting;
		}
		return memory;
	}
	*shape = bc_polygonConcave;
	if (!clipEars(&flat, scratch, corners, triangles)) {
		writeFan(corners, count, triangles);
		*shape = bc_polygonConvex;
		return false;
	}
	return true;
}
