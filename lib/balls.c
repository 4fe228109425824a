/* balls.c - moving balls against each other: when two balls first meet, how
 * they bounce, and a whole set of balls moving at once.
 *
 * Two balls (the course's collision detection slides): express ball 2's motion in ball 1's frame, shrink
 * ball 2 to its centre and grow ball 1 by r2. With m = c2 - c1,
 * d = d2 - d1 and R = r1 + r2 the centres are R apart when
 *     |m + alpha d|^2 = R^2,   a alpha^2 + 2 b alpha + c = 0,
 *     a = d.d,  b = m.d,  c = m.m - R^2,
 * and the balls first meet at the smaller root, taken in the
 * cancellation-free form c / (-b + sqrt(b^2 - ac)) (as in sweep.c). The
 * discriminant b^2 - ac is evaluated as a R^2 - |m x d|^2 (Lagrange's
 * identity |m|^2 |d|^2 - (m.d)^2 = |m x d|^2): the textbook difference of
 * two numbers of size |m|^2 |d|^2 loses everything when the balls are far
 * apart compared to R, this form loses nothing there.
 *
 * Inputs far from 1 (beyond 2^+-250, where the fourth powers in the
 * discriminant could overflow or underflow) are first scaled by a power of
 * two, which is exact: the answer is then the one unscaled arithmetic would
 * give if it had the range, anywhere in the double range.
 *
 * The computation is symmetric bit for bit: swapping the balls negates m
 * and d exactly and leaves a, b, c, m x d and R unchanged, so both balls of
 * a pair see the same alpha. The set query relies on that.
 *
 * A set of balls: every pair is judged on its straight trajectories. The
 * broad phase puts the swept boxes (each ball's path grown by its radius) in
 * a uniform grid whose cells are about twice the median box; boxes too big
 * for it go on coarser grids, each level taking at least half of the boxes
 * left, and are looked up from the finer levels. Only pairs whose boxes
 * overlap reach the exact test, each pair once: in the cell holding the
 * lower corner of the boxes' intersection. (Sweep and prune along one axis
 * was measured first: at a fixed density its pairs overlapping on the
 * sweep axis grow as count^(5/3), 1.6e8 per pass for 1e5 balls.)
 *
 * The answer for a ball depends only on the set of pairs that touch, never
 * on the order they are found in: a first pass finds each ball's earliest
 * contact, a second picks the lowest partner index within the tie window.
 * So the grid and the all-pairs path give the same bits.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "vec3.h"

/* Swept boxes are grown by this fraction of their largest coordinate (plus
 * the radius) so that rounding never makes the broad phase drop a pair the
 * exact test would call touching. The exact test decides within a few ulps
 * (about 1e-15) of the pair's largest coordinate; 1e-12 is a thousand times
 * that, and costs nothing measurable in extra pairs. */
#define BC_BALL_BOX_PADDING 1e-12

/* Where an initial overlap sorts: before any real alpha in [0, 1]. */
#define BC_BALL_OVERLAP_KEY (-1.0)

/* A ball without any contact: after every real alpha. */
#define BC_BALL_NO_KEY 2.0

/* The largest scale-up is 2^1000 (2^1074 would not be finite): inputs
 * all below 2^-1000, deep in the subnormals, are scaled by that only. */
#define BC_BALL_MIN_SCALE_EXPONENT (-1000)

/* Lengths up to this (and down to its inverse) keep the fourth powers of
 * the discriminant, at most 2^1000 and at least 2^-1000, inside the normal
 * doubles: no scaling is needed. 2^250. */
#define BC_BALL_SAFE_MAGNITUDE 0x1p250

bcBallsOptions bcDefaultBallsOptions(void)
{
	bcBallsOptions options = { 1.0, false };
	return options;
}

static double maxAbs3(bcVec3 v, double m)
{
	double x = fabs(v.x), y = fabs(v.y), z = fabs(v.z);
	m = x > m ? x : m;
	m = y > m ? y : m;
	return z > m ? z : m;
}

/* 1 when every input is within BC_BALL_SAFE_MAGNITUDE of 1 either way, else
 * 2^-e with 2^e just above the largest magnitude among the inputs. */
static double scaleOf(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2)
{
	double big = r1 > r2 ? r1 : r2;
	big = maxAbs3(c1, big);
	big = maxAbs3(d1, big);
	big = maxAbs3(c2, big);
	big = maxAbs3(d2, big);
	if (big >= 1.0 / BC_BALL_SAFE_MAGNITUDE && big <= BC_BALL_SAFE_MAGNITUDE) {
		return 1.0;
	}
	int e = 0;
	frexp(big, &e);
	e = e < BC_BALL_MIN_SCALE_EXPONENT ? BC_BALL_MIN_SCALE_EXPONENT : e;
	return ldexp(1.0, -e);
}

/* The state and alpha of a pair, with c, d, r already valid. */
static bcBallState pairTime(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2, double* alpha)
{
	double s = scaleOf(c1, d1, r1, c2, d2, r2);
	bcVec3 m = bcSub(bcScale(s, c2), bcScale(s, c1));
	bcVec3 d = bcSub(bcScale(s, d2), bcScale(s, d1));
	double R = s * r1 + s * r2;
	double rr = R * R;
	double cc = bcDot(m, m) - rr;
	*alpha = 1.0;
	if (cc < 0.0) {
		*alpha = 0.0;
		return bc_ballInitialOverlap;
	}
	double bb = bcDot(m, d);
	if (!(bb < 0.0)) {
		/* Not approaching: the distance only grows from here (this covers
		 * touching at alpha 0 while separating, or at relative rest). */
		return bc_ballMiss;
	}
	if (cc == 0.0) {
		*alpha = 0.0;
		return bc_ballHit;
	}
	double aa = bcDot(d, d);
	bcVec3 md = bcCross(m, d);
	double disc = 0.0;
	if (rr == 0.0) {
		/* Points (or radii too small to square) meet only on a path through
		 * each other: decided by m x d itself, since its square could
		 * underflow to 0 for a miss by 1e-300. */
		if (md.x != 0.0 || md.y != 0.0 || md.z != 0.0) {
			return bc_ballMiss;
		}
	} else {
		disc = aa * rr - bcDot(md, md);
		if (!(disc >= 0.0)) {
			return bc_ballMiss;
		}
	}
	double root = cc / (sqrt(disc) - bb);
	if (!(root <= 1.0)) {
		return bc_ballMiss;
	}
	*alpha = root;
	return bc_ballHit;
}

static bool isValidBall(bcVec3 c, bcVec3 d, double r)
{
	return bcIsFinite(c) && bcIsFinite(d) && bcIsFinite(bcAdd(c, d)) && isfinite(r) && r >= 0.0;
}

/* Contact point and normal at alpha for a pair known to touch there. */
static void pairContact(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2, bcBallHit* hit)
{
	/* The normal from the scaled centres: normalising is scale-free, and
	 * scaled centres never overflow when subtracted. */
	double s = scaleOf(c1, d1, r1, c2, d2, r2);
	double alpha = hit->alpha;
	bcVec3 sc1 = bcScale(s, c1), sc2 = bcScale(s, c2);
	bcVec3 sd1 = bcScale(s, d1), sd2 = bcScale(s, d2);
	if (alpha != 0.0) {
		sc1 = bcMulAdd(sc1, alpha, sd1);
		sc2 = bcMulAdd(sc2, alpha, sd2);
	}
	bcVec3 normal = bcNormalize(bcSub(sc2, sc1));
	if (normal.x == 0.0 && normal.y == 0.0 && normal.z == 0.0) {
		/* Coincident centres: ball 2 is heading along d2 - d1 from ball 1. */
		normal = bcNormalize(bcSub(sd2, sd1));
	}
	bcVec3 center = alpha != 0.0 ? bcMulAdd(c1, alpha, d1) : c1;
	hit->normal = bcPositiveZeros(normal);
	hit->point = bcMulAdd(center, r1, hit->normal);
}

bcBallHit bcCollideBalls(bcVec3 c1, bcVec3 d1, double r1, bcVec3 c2, bcVec3 d2, double r2)
{
	bcBallHit hit = { bc_ballMiss, 1.0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	if (!isValidBall(c1, d1, r1) || !isValidBall(c2, d2, r2)) {
		hit.state = bc_ballInvalid;
		return hit;
	}
	hit.state = pairTime(c1, d1, r1, c2, d2, r2, &hit.alpha);
	if (hit.state != bc_ballMiss) {
		pairContact(c1, d1, r1, c2, d2, r2, &hit);
	}
	return hit;
}

void bcElasticResponse(bcVec3 v1, double m1, bcVec3 v2, double m2, bcVec3 normal, double restitution,
					   bcVec3* v1After, bcVec3* v2After)
{
	bcVec3 out1 = v1, out2 = v2;
	bool valid = m1 > 0.0 && m2 > 0.0 && !(isinf(m1) && isinf(m2)) && restitution >= 0.0 && restitution <= 1.0;
	if (valid) {
		double s = bcDot(v1, normal);
		double t = bcDot(v2, normal);
		/* m2 / (m1 + m2) and m1 / (m1 + m2), written so that an infinite
		 * mass gives 1 and 0 (never inf / inf) and no sum overflows. */
		double share1 = 1.0 / (m1 / m2 + 1.0);
		double share2 = 1.0 / (m2 / m1 + 1.0);
		double k = 1.0 + restitution;
		out1 = bcMulAdd(v1, k * share1 * (t - s), normal);
		out2 = bcMulAdd(v2, k * share2 * (s - t), normal);
	}
	if (v1After != NULL) {
		*v1After = out1;
	}
	if (v2After != NULL) {
		*v2After = out2;
	}
}

/* ------------------------------------------------------------------ sets */

/* A grid level's cells are this many times the median extent of the boxes
 * still to place: a typical box then covers one or two cells per axis, the
 * usual trade between cells per box and boxes per cell. */
#define BC_BALL_GRID_CELL_FACTOR 2.0

/* A box goes on the first level where it covers at most this many cells
 * along every axis (27 cells in all). Every box no longer than the median
 * covers at most 2 (3 with rounding), so each level takes at least half of
 * the boxes left and there are at most about log2(count) levels. */
#define BC_BALL_GRID_MAX_SPAN 3

/* Cells are never smaller than the scene over 2^30, so their indices fit
 * 32 bits (clamped at 2^31 - 1 all the same: the last cell takes anything
 * beyond, which costs time, never answers). */
#define BC_BALL_GRID_MIN_CELLS 1073741824.0
#define BC_BALL_GRID_MAX_INDEX 2147483647u

/* More levels than halving 2^31 boxes can make. */
#define BC_BALL_GRID_MAX_LEVELS 40

typedef struct bcGridBox {
	double lower[3];
	double upper[3];
	double extent;   /* largest side */
	uint32_t order[3]; /* the cell of its lower corner on its level: boxes near in space
	                  * are stored near in memory */
	int32_t ball;
	int level;       /* 1 + its grid level once placed (0 before); -1: a box
	                  * without finite bounds, tested against every box */
} bcGridBox;

typedef struct bcGridEntry {
	uint32_t cell[3]; /* cell indices along x, y, z */
	int32_t box;
} bcGridEntry;

typedef struct bcGridLevel {
	double inverse;       /* 1 / cell size */
	int firstBox, boxEnd; /* the level's boxes, contiguous after sorting */
	bcGridEntry* entries; /* every (cell, box) covered, sorted by cell then box */
	size_t entryCount;
} bcGridLevel;

typedef struct bcGrid {
	bcGridBox* boxes;
	int boxCount;
	int wideEnd;          /* boxes [0, wideEnd) have non-finite bounds */
	double origin[3];
	bcGridLevel levels[BC_BALL_GRID_MAX_LEVELS];
	int levelCount;
} bcGrid;

typedef struct bcBallSet {
	const bcBallInput* balls;
	bcVec3* d;        /* p1 - p0 per ball */
	bool* valid;
	double* minKey;   /* earliest contact per ball (BC_BALL_NO_KEY: none) */
	int32_t* partner; /* lowest partner index within the tie window */
	int* ties;
	int pass;         /* 1: earliest contacts; 2: partners within the window */
} bcBallSet;

/* A fixed ball's p1 and mass are not read: it stays at p0 and nothing
 * moves it (the slides' obstacle of infinite mass). */
static bool isValidSetBall(const bcBallInput* ball)
{
	if (ball->fixed) {
		return bcIsFinite(ball->p0) && isfinite(ball->radius) && ball->radius >= 0.0;
	}
	bcVec3 d = bcSub(ball->p1, ball->p0);
	return bcIsFinite(ball->p0) && bcIsFinite(ball->p1) && bcIsFinite(d) && bcIsFinite(bcAdd(ball->p0, d)) &&
		   isfinite(ball->radius) && ball->radius >= 0.0 && (ball->mass == 0.0 || ball->mass > 0.0);
}

/* Where the ball is at alpha = 1. */
static bcVec3 endOf(const bcBallInput* ball)
{
	return ball->fixed ? ball->p0 : ball->p1;
}

static double massOf(const bcBallInput* ball)
{
	return ball->mass == 0.0 ? 1.0 : ball->mass;
}

static void visitPair(bcBallSet* set, int32_t a, int32_t b)
{
	if (a > b) {
		int32_t swap = a;
		a = b;
		b = swap;
	}
	if (set->pass == 2 && set->minKey[a] == BC_BALL_NO_KEY && set->minKey[b] == BC_BALL_NO_KEY) {
		return;
	}
	const bcBallInput* ba = set->balls + a;
	const bcBallInput* bb = set->balls + b;
	double alpha;
	bcBallState state = pairTime(ba->p0, set->d[a], ba->radius, bb->p0, set->d[b], bb->radius, &alpha);
	if (state == bc_ballMiss) {
		return;
	}
	double key = state == bc_ballInitialOverlap ? BC_BALL_OVERLAP_KEY : alpha;
	if (set->pass == 1) {
		set->minKey[a] = key < set->minKey[a] ? key : set->minKey[a];
		set->minKey[b] = key < set->minKey[b] ? key : set->minKey[b];
		return;
	}
	if (key <= set->minKey[a] + BC_BALL_TIE_TOLERANCE) {
		set->ties[a] += 1;
		set->partner[a] = b < set->partner[a] ? b : set->partner[a];
	}
	if (key <= set->minKey[b] + BC_BALL_TIE_TOLERANCE) {
		set->ties[b] += 1;
		set->partner[b] = a < set->partner[b] ? a : set->partner[b];
	}
}

static void runBruteForce(bcBallSet* set, int count)
{
	for (int32_t a = 0; a < count; ++a) {
		if (!set->valid[a]) {
			continue;
		}
		for (int32_t b = a + 1; b < count; ++b) {
			if (set->valid[b]) {
				visitPair(set, a, b);
			}
		}
	}
}

/* ------------------------------------------------------------ the grid */

static bool boxesOverlap(const bcGridBox* a, const bcGridBox* b)
{
	return a->lower[0] <= b->upper[0] && b->lower[0] <= a->upper[0] && a->lower[1] <= b->upper[1] &&
		   b->lower[1] <= a->upper[1] && a->lower[2] <= b->upper[2] && b->lower[2] <= a->upper[2];
}

/* The cell index of x along axis k. Monotone in x (a difference, a product
 * by a positive number, a truncation and a clamp all are), so boxes that
 * overlap always share a cell. */
static uint32_t cellIndex(const bcGrid* grid, const bcGridLevel* level, int k, double x)
{
	double v = (x - grid->origin[k]) * level->inverse;
	if (!(v >= 1.0)) {
		return 0;
	}
	return v >= (double)BC_BALL_GRID_MAX_INDEX ? BC_BALL_GRID_MAX_INDEX : (uint32_t)v;
}

/* Cells in z, then y, then x order. */
static int compareCells(const uint32_t a[3], const uint32_t b[3])
{
	for (int k = 2; k >= 0; --k) {
		if (a[k] != b[k]) {
			return a[k] < b[k] ? -1 : 1;
		}
	}
	return 0;
}

/* The cells box covers on level: [lo[k], hi[k]] per axis. */
static void cellRange(const bcGrid* grid, const bcGridLevel* level, const bcGridBox* box, uint32_t lo[3],
					  uint32_t hi[3])
{
	for (int k = 0; k < 3; ++k) {
		lo[k] = cellIndex(grid, level, k, box->lower[k]);
		hi[k] = cellIndex(grid, level, k, box->upper[k]);
	}
}

/* A pair of overlapping boxes is handled in one cell only: the cell of the
 * lower corner of their intersection, which both cover. Is that cell? */
static bool isOwner(const bcGrid* grid, const bcGridLevel* level, const bcGridBox* a, const bcGridBox* b,
					const uint32_t cell[3])
{
	for (int k = 0; k < 3; ++k) {
		if (cellIndex(grid, level, k, a->lower[k] > b->lower[k] ? a->lower[k] : b->lower[k]) != cell[k]) {
			return false;
		}
	}
	return true;
}

static int compareExtents(const void* pa, const void* pb)
{
	double a = *(const double*)pa, b = *(const double*)pb;
	return (a > b) - (a < b);
}

static int compareLevels(const void* pa, const void* pb)
{
	const bcGridBox* a = pa;
	const bcGridBox* b = pb;
	if (a->level != b->level) {
		return a->level < b->level ? -1 : 1;
	}
	int order = compareCells(a->order, b->order);
	if (order != 0) {
		return order;
	}
	return (a->ball > b->ball) - (a->ball < b->ball);
}

static int compareEntries(const void* pa, const void* pb)
{
	const bcGridEntry* a = pa;
	const bcGridEntry* b = pb;
	int cell = compareCells(a->cell, b->cell);
	if (cell != 0) {
		return cell;
	}
	return (a->box > b->box) - (a->box < b->box);
}

static void destroyGrid(bcGrid* grid)
{
	for (int i = 0; i < grid->levelCount; ++i) {
		bcFree(grid->levels[i].entries);
	}
	bcFree(grid->boxes);
	grid->boxes = NULL;
	grid->levelCount = 0;
}

/* Fill the grid's swept boxes (padded for rounding); returns false when out
 * of memory. */
static bool makeBoxes(bcGrid* grid, const bcBallSet* set, int count)
{
	grid->boxes = bcAlloc((size_t)(count > 0 ? count : 1) * sizeof *grid->boxes);
	if (grid->boxes == NULL) {
		return false;
	}
	int n = 0;
	for (int k = 0; k < 3; ++k) {
		grid->origin[k] = HUGE_VAL;
	}
	for (int32_t i = 0; i < count; ++i) {
		if (!set->valid[i]) {
			continue;
		}
		const bcBallInput* ball = set->balls + i;
		bcVec3 p1 = endOf(ball);
		double pad = BC_BALL_BOX_PADDING * (maxAbs3(p1, maxAbs3(ball->p0, 0.0)) + ball->radius);
		double grow = ball->radius + pad;
		bcVec3 lo = bcMin(ball->p0, p1);
		bcVec3 hi = bcMax(ball->p0, p1);
		bcGridBox* box = grid->boxes + n++;
		box->extent = 0.0;
		for (int k = 0; k < 3; ++k) {
			box->lower[k] = bcComponent(lo, k) - grow;
			box->upper[k] = bcComponent(hi, k) + grow;
			double side = box->upper[k] - box->lower[k];
			box->extent = side > box->extent ? side : box->extent;
		}
		box->ball = i;
		memset(box->order, 0, sizeof box->order);
		box->level = isfinite(box->extent) ? 0 : -1;
		for (int k = 0; k < 3 && box->level == 0; ++k) {
			grid->origin[k] = box->lower[k] < grid->origin[k] ? box->lower[k] : grid->origin[k];
		}
	}
	grid->boxCount = n;
	return true;
}

/* Place the finite boxes on levels and sort each level's cells. */
static bool buildLevels(bcGrid* grid)
{
	double span = 0.0;
	int remaining = 0;
	for (int i = 0; i < grid->boxCount; ++i) {
		const bcGridBox* box = grid->boxes + i;
		if (box->level < 0) {
			continue;
		}
		remaining += 1;
		for (int k = 0; k < 3; ++k) {
			double side = box->upper[k] - grid->origin[k];
			span = side > span ? side : span;
		}
	}
	double* extents = bcAlloc((size_t)(remaining > 0 ? remaining : 1) * sizeof *extents);
	if (extents == NULL) {
		return false;
	}
	/* Level numbers are assigned as 1 + level while placing; 0 means not yet. */
	int level = 0;
	while (remaining > 0 && level < BC_BALL_GRID_MAX_LEVELS) {
		int n = 0;
		for (int i = 0; i < grid->boxCount; ++i) {
			if (grid->boxes[i].level == 0) {
				extents[n++] = grid->boxes[i].extent;
			}
		}
		qsort(extents, (size_t)n, sizeof *extents, compareExtents);
		double cell = BC_BALL_GRID_CELL_FACTOR * extents[n / 2];
		double smallest = span / BC_BALL_GRID_MIN_CELLS;
		cell = cell > smallest ? cell : smallest;
		if (!(cell > 0.0) || !isfinite(1.0 / cell)) {
			cell = 1.0; /* every box is a point at one place */
		}
		bcGridLevel* lv = grid->levels + level;
		lv->inverse = 1.0 / cell;
		lv->entries = NULL;
		lv->entryCount = 0;
		bool last = level == BC_BALL_GRID_MAX_LEVELS - 1;
		for (int i = 0; i < grid->boxCount; ++i) {
			bcGridBox* box = grid->boxes + i;
			if (box->level != 0) {
				continue;
			}
			uint32_t lo[3], hi[3];
			cellRange(grid, lv, box, lo, hi);
			if (last || (hi[0] - lo[0] < BC_BALL_GRID_MAX_SPAN && hi[1] - lo[1] < BC_BALL_GRID_MAX_SPAN &&
						 hi[2] - lo[2] < BC_BALL_GRID_MAX_SPAN)) {
				box->level = level + 1;
				memcpy(box->order, lo, sizeof box->order);
				remaining -= 1;
			}
		}
		level += 1;
	}
	bcFree(extents);
	grid->levelCount = level;

	qsort(grid->boxes, (size_t)grid->boxCount, sizeof *grid->boxes, compareLevels);
	int first = 0;
	while (first < grid->boxCount && grid->boxes[first].level < 0) {
		++first;
	}
	grid->wideEnd = first;
	for (int l = 0; l < grid->levelCount; ++l) {
		bcGridLevel* lv = grid->levels + l;
		lv->firstBox = first;
		size_t entries = 0;
		int end = first;
		for (; end < grid->boxCount && grid->boxes[end].level == l + 1; ++end) {
			uint32_t lo[3], hi[3];
			cellRange(grid, lv, grid->boxes + end, lo, hi);
			entries += (size_t)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
		}
		lv->boxEnd = end;
		lv->entries = bcAlloc((entries > 0 ? entries : 1) * sizeof *lv->entries);
		if (lv->entries == NULL) {
			return false;
		}
		size_t e = 0;
		for (int i = first; i < end; ++i) {
			uint32_t lo[3], hi[3], index[3];
			cellRange(grid, lv, grid->boxes + i, lo, hi);
			for (index[2] = lo[2]; index[2] <= hi[2]; ++index[2]) {
				for (index[1] = lo[1]; index[1] <= hi[1]; ++index[1]) {
					for (index[0] = lo[0]; index[0] <= hi[0]; ++index[0]) {
						memcpy(lv->entries[e].cell, index, sizeof index);
						lv->entries[e].box = i;
						++e;
					}
				}
			}
		}
		lv->entryCount = e;
		qsort(lv->entries, e, sizeof *lv->entries, compareEntries);
		first = end;
	}
	return true;
}

/* The first entry of level whose cell is not before key. */
static size_t findCell(const bcGridLevel* level, const uint32_t key[3])
{
	size_t lo = 0, hi = level->entryCount;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compareCells(level->entries[mid].cell, key) < 0) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/* Every pair of overlapping boxes, each once. */
static void runGrid(bcBallSet* set, const bcGrid* grid)
{
	const bcGridBox* boxes = grid->boxes;
	/* Boxes without finite bounds (coordinates near the double range)
	 * against every box. */
	for (int w = 0; w < grid->wideEnd; ++w) {
		for (int i = 0; i < grid->boxCount; ++i) {
			if ((i >= grid->wideEnd || i > w) && boxesOverlap(boxes + w, boxes + i)) {
				visitPair(set, boxes[w].ball, boxes[i].ball);
			}
		}
	}
	for (int l = 0; l < grid->levelCount; ++l) {
		const bcGridLevel* lv = grid->levels + l;
		/* Pairs on this level: within each cell. */
		for (size_t s = 0; s < lv->entryCount;) {
			const uint32_t* cell = lv->entries[s].cell;
			size_t e = s + 1;
			while (e < lv->entryCount && compareCells(lv->entries[e].cell, cell) == 0) {
				++e;
			}
			for (size_t p = s; p < e; ++p) {
				const bcGridBox* a = boxes + lv->entries[p].box;
				for (size_t q = p + 1; q < e; ++q) {
					const bcGridBox* b = boxes + lv->entries[q].box;
					if (boxesOverlap(a, b) && isOwner(grid, lv, a, b, cell)) {
						visitPair(set, a->ball, b->ball);
					}
				}
			}
			s = e;
		}
		/* This level's boxes against the coarser levels' cells. */
		for (int i = lv->firstBox; i < lv->boxEnd; ++i) {
			const bcGridBox* a = boxes + i;
			for (int m = l + 1; m < grid->levelCount; ++m) {
				const bcGridLevel* coarse = grid->levels + m;
				uint32_t lo[3], hi[3], index[3];
				cellRange(grid, coarse, a, lo, hi);
				for (index[2] = lo[2]; index[2] <= hi[2]; ++index[2]) {
					for (index[1] = lo[1]; index[1] <= hi[1]; ++index[1]) {
						for (index[0] = lo[0]; index[0] <= hi[0]; ++index[0]) {
							for (size_t e = findCell(coarse, index);
								 e < coarse->entryCount && compareCells(coarse->entries[e].cell, index) == 0; ++e) {
								const bcGridBox* b = boxes + coarse->entries[e].box;
								if (boxesOverlap(a, b) && isOwner(grid, coarse, a, b, index)) {
									visitPair(set, a->ball, b->ball);
								}
							}
						}
					}
				}
			}
		}
	}
}

/* Fill results[i] from the chosen partner. */
static void finishResult(const bcBallSet* set, int32_t i, double restitution, bcBallResult* result)
{
	const bcBallInput* ball = set->balls + i;
	bcBallResult r = { bc_ballMiss, 1.0, -1, 0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, set->d[i], set->d[i] };
	if (!set->valid[i]) {
		r.state = bc_ballInvalid;
		r.velocityBefore = r.velocityAfter = bcMakeVec3(0.0, 0.0, 0.0);
		*result = r;
		return;
	}
	if (set->ties[i] == 0) {
		*result = r;
		return;
	}
	int32_t j = set->partner[i];
	const bcBallInput* other = set->balls + j;
	bcBallHit hit = { bc_ballMiss, 1.0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	hit.state = pairTime(ball->p0, set->d[i], ball->radius, other->p0, set->d[j], other->radius, &hit.alpha);
	pairContact(ball->p0, set->d[i], ball->radius, other->p0, set->d[j], other->radius, &hit);
	r.state = hit.state;
	r.alpha = hit.alpha;
	r.other = j;
	r.tieCount = set->ties[i];
	r.point = hit.point;
	r.normal = hit.normal;
	if (ball->fixed) {
		/* it never moves: velocityBefore = velocityAfter = 0 (set->d[i]) */
	} else if (bcDot(bcSub(set->d[j], set->d[i]), hit.normal) < 0.0) {
		/* Off a fixed ball, whatever this ball's mass: reflected, V' = V -
		 * (1 + e) U (ball 2 of infinite mass at rest in the response). */
		double mass = other->fixed ? 1.0 : massOf(ball);
		bcElasticResponse(set->d[i], mass, set->d[j], other->fixed ? INFINITY : massOf(other), hit.normal, restitution,
						  &r.velocityAfter, NULL);
	}
	*result = r;
}

bool bcCollideBallSet(const bcBallInput* balls, int count, const bcBallsOptions* options, bcBallResult* results,
					  bcError* error)
{
	bcBallsOptions o = options != NULL ? *options : bcDefaultBallsOptions();
	if (count < 0 || (count > 0 && (balls == NULL || results == NULL))) {
		bcSetError(error, bc_errorValue, 0, 0, "no balls given: count %d", count);
		return false;
	}
	if (!(o.restitution >= 0.0 && o.restitution <= 1.0)) {
		bcSetError(error, bc_errorValue, 0, 0, "restitution %g is not in [0, 1]", o.restitution);
		return false;
	}
	if (count == 0) {
		return true;
	}
	size_t n = (size_t)count;
	bcBallSet set;
	set.balls = balls;
	set.pass = 1;
	set.d = bcAlloc(n * sizeof *set.d);
	set.valid = bcAlloc(n * sizeof *set.valid);
	set.minKey = bcAlloc(n * sizeof *set.minKey);
	set.partner = bcAlloc(n * sizeof *set.partner);
	set.ties = bcAlloc(n * sizeof *set.ties);
	bcGrid grid;
	memset(&grid, 0, sizeof grid);
	bcErrorCode code = bc_errorNone;
	if (set.d == NULL || set.valid == NULL || set.minKey == NULL || set.partner == NULL || set.ties == NULL) {
		code = bc_errorNoMemory;
		goto done;
	}
	for (int32_t i = 0; i < count; ++i) {
		set.valid[i] = isValidSetBall(balls + i);
		set.d[i] = bcSub(endOf(balls + i), balls[i].p0);
		set.minKey[i] = BC_BALL_NO_KEY;
		set.partner[i] = INT32_MAX;
		set.ties[i] = 0;
	}
	if (o.bruteForce) {
		runBruteForce(&set, count);
		set.pass = 2;
		runBruteForce(&set, count);
	} else {
		if (!makeBoxes(&grid, &set, count) || !buildLevels(&grid)) {
			code = bc_errorNoMemory;
			goto done;
		}
		runGrid(&set, &grid);
		set.pass = 2;
		runGrid(&set, &grid);
	}
	for (int32_t i = 0; i < count; ++i) {
		finishResult(&set, i, o.restitution, results + i);
	}
done:
	destroyGrid(&grid);
	bcFree(set.d);
	bcFree(set.valid);
	bcFree(set.minKey);
	bcFree(set.partner);
	bcFree(set.ties);
	if (code != bc_errorNone) {
		bcSetError(error, code, 0, 0, "out of memory");
	}
	return code == bc_errorNone;
}
