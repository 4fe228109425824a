/* polygon.c tests: one polygon into triangles (bcTriangulatePolygon).
 *
 * Convex polygons keep the fan; a dart and a U cut by ear clipping as the
 * rule says, by hand; random simple polygons (star-shaped, most of them
 * concave) in random planes, both ways round: k - 2 triangles of the
 * polygon's corners, each turning the polygon's way, their areas summing
 * to the polygon's, covering it exactly (random points inside the polygon
 * are in exactly one triangle, points outside in none); flat, non-planar
 * and self-intersecting polygons keep the fan and say so.
 *
 * lib/polygon.c once tested every pair of edges and scanned every corner
 * for each ear: quadratic. Its faster code must cut every polygon as that
 * code did, byte for byte: the old code is kept below as the reference,
 * and both cut small polygons on a grid (every degeneracy there is),
 * untangled random polygons, rounded stars, and combs, spirals and stars
 * of thousands of corners. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "polygen.h"
#include "polygon.h"
#include "predicates.h"
#include "vec3.h"

enum { MAX_CORNERS = 64 };

typedef struct Polygon {
	bcVec3 vertices[MAX_CORNERS];
	int32_t corners[MAX_CORNERS];
	int32_t count;
	int32_t triangles[3 * MAX_CORNERS];
	bcPolygonShape shape;
	double deviation;
} Polygon;

/* Corners (x, y) in the plane z = 0, in order. */
static void planar(Polygon* p, const double* xy, int32_t count)
{
	memset(p, 0, sizeof *p);
	p->count = count;
	for (int32_t i = 0; i < count; ++i) {
		p->vertices[i] = bcMakeVec3(xy[2 * i], xy[2 * i + 1], 0.0);
		p->corners[i] = i;
	}
}

static void cut(Polygon* p)
{
	bcPolygonScratch scratch = { 0 };
	ck_assert(bcTriangulatePolygon(p->vertices, p->corners, p->count, p->triangles, &scratch, &p->shape,
								   &p->deviation));
	bcPolygonScratch_Free(&scratch);
}

static void assertFan(const Polygon* p)
{
	for (int32_t i = 0; i + 2 < p->count; ++i) {
		ck_assert_int_eq(p->triangles[3 * i], p->corners[0]);
		ck_assert_int_eq(p->triangles[3 * i + 1], p->corners[i + 1]);
		ck_assert_int_eq(p->triangles[3 * i + 2], p->corners[i + 2]);
	}
}

static void assertTriangles(const Polygon* p, const int32_t* expected)
{
	for (int32_t i = 0; i < 3 * (p->count - 2); ++i) {
		ck_assert_msg(p->triangles[i] == expected[i], "index %d is %d, expected %d", i, p->triangles[i], expected[i]);
	}
}

/* ------------------------------------------------ the reference
 *
 * lib/polygon.c as it was before it swept (commit 2246331), its names
 * prefixed: every pair of edges tested, every remaining corner scanned for
 * each ear. Only its scratch space changed (malloc here). */

#define REF_SAFE_MAGNITUDE 0x1p200

static void refWriteFan(const int32_t* corners, int32_t count, int32_t* triangles)
{
	for (int32_t i = 0; i + 2 < count; ++i) {
		triangles[3 * i] = corners[0];
		triangles[3 * i + 1] = corners[i + 1];
		triangles[3 * i + 2] = corners[i + 2];
	}
}

/* The polygon in its plane: corner i at (u[2i], u[2i + 1]), turning the
 * way sign says (+1 counter-clockwise there, -1 clockwise). */
typedef struct RefFlatPolygon {
	const double* u;
	int32_t count;
	int sign;
} RefFlatPolygon;

/* The turn at b from a to c, times the polygon's sign: > 0 the polygon's
 * way, 0 straight on (or back), < 0 the other way. */
static int refTurn(const RefFlatPolygon* p, int32_t a, int32_t b, int32_t c)
{
	const double* u = p->u;
	return p->sign * bcSign(bcOrient2d(u[2 * a], u[2 * a + 1], u[2 * b], u[2 * b + 1], u[2 * c], u[2 * c + 1]));
}

/* q on the closed segment a b, knowing the three are collinear. */
static bool refWithinSegment(const double* u, int32_t a, int32_t b, int32_t q)
{
	double lo0 = u[2 * a] < u[2 * b] ? u[2 * a] : u[2 * b], hi0 = u[2 * a] < u[2 * b] ? u[2 * b] : u[2 * a];
	double lo1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * a + 1] : u[2 * b + 1];
	double hi1 = u[2 * a + 1] < u[2 * b + 1] ? u[2 * b + 1] : u[2 * a + 1];
	return u[2 * q] >= lo0 && u[2 * q] <= hi0 && u[2 * q + 1] >= lo1 && u[2 * q + 1] <= hi1;
}

/* Do the closed segments a b and c d have a common point? */
static bool refSegmentsMeet(const RefFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t d)
{
	int o1 = refTurn(p, a, b, c), o2 = refTurn(p, a, b, d), o3 = refTurn(p, c, d, a), o4 = refTurn(p, c, d, b);
	if (o1 * o2 < 0 && o3 * o4 < 0) {
		return true;
	}
	return (o1 == 0 && refWithinSegment(p->u, a, b, c)) || (o2 == 0 && refWithinSegment(p->u, a, b, d)) ||
		   (o3 == 0 && refWithinSegment(p->u, c, d, a)) || (o4 == 0 && refWithinSegment(p->u, c, d, b));
}

/* No two edges meet but neighbours at their common corner, and no edge
 * folds back onto the one before it. */
static bool refIsSimple(const RefFlatPolygon* p)
{
	int32_t n = p->count;
	const double* u = p->u;
	for (int32_t i = 0; i < n; ++i) {
		int32_t a = i, b = (i + 1) % n, c = (i + 2) % n;
		if (u[2 * a] == u[2 * b] && u[2 * a + 1] == u[2 * b + 1]) {
			return false; /* a repeated corner */
		}
		if (refTurn(p, a, b, c) == 0) {
			double dot = (u[2 * b] - u[2 * a]) * (u[2 * c] - u[2 * b]) +
						 (u[2 * b + 1] - u[2 * a + 1]) * (u[2 * c + 1] - u[2 * b + 1]);
			if (dot < 0.0) {
				return false; /* folding back */
			}
		}
	}
	for (int32_t i = 0; i < n; ++i) {
		/* edges i and j not sharing a corner: j from i + 2, and not the
		 * last edge against the first */
		for (int32_t j = i + 2; j < n; ++j) {
			if (i == 0 && j == n - 1) {
				continue;
			}
			if (refSegmentsMeet(p, i, (i + 1) % n, j, (j + 1) % n)) {
				return false;
			}
		}
	}
	return true;
}

/* Is q inside or on the triangle a b c (which turns the polygon's way)? */
static bool refInTriangle(const RefFlatPolygon* p, int32_t a, int32_t b, int32_t c, int32_t q)
{
	return refTurn(p, a, b, q) >= 0 && refTurn(p, b, c, q) >= 0 && refTurn(p, c, a, q) >= 0;
}

/* Ear clipping as the file's comment states; links hold the previous and
 * next remaining corner of each. */
static void refClipEars(const RefFlatPolygon* p, int32_t* links, const int32_t* corners, int32_t* triangles)
{
	int32_t n = p->count;
	int32_t* previous = links;
	int32_t* next = links + n;
	for (int32_t i = 0; i < n; ++i) {
		previous[i] = (i + n - 1) % n;
		next[i] = (i + 1) % n;
	}
	int32_t written = 0;
	int32_t remaining = n;
	int32_t i = 0;
	int32_t passed = 0; /* corners passed on since the last cut */
	while (remaining > 3 && passed <= remaining) {
		int32_t a = previous[i], c = next[i];
		bool ear = refTurn(p, a, i, c) > 0;
		for (int32_t q = next[c]; ear && q != a; q = next[q]) {
			ear = !refInTriangle(p, a, i, c, q);
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
}

static void referenceTriangulate(const bcVec3* vertices, const int32_t* corners, int32_t count, int32_t* triangles,
								 bcPolygonShape* shape, double* deviation)
{
	refWriteFan(corners, count, triangles);
	*shape = bc_polygonConvex;
	*deviation = 0.0;
	if (count <= 3) {
		return;
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
	if (largest > REF_SAFE_MAGNITUDE || (largest < 1.0 / REF_SAFE_MAGNITUDE && largest > 0.0)) {
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
		return;
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
		return;
	}

	/* The projection across the normal's largest axis k, on axes k + 1 and
	 * k + 2 (in that order, so the polygon turns there as the normal's k
	 * component says). */
	int k = fabs(normal.x) >= fabs(normal.y) ? (fabs(normal.x) >= fabs(normal.z) ? 0 : 2)
											 : (fabs(normal.y) >= fabs(normal.z) ? 1 : 2);
	double* u = malloc(2 * (size_t)count * sizeof *u);
	int32_t* links = malloc(2 * (size_t)count * sizeof *links);
	ck_assert(u != NULL && links != NULL);
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 p = vertices[corners[i]];
		u[2 * i] = bcComponent(p, (k + 1) % 3);
		u[2 * i + 1] = bcComponent(p, (k + 2) % 3);
	}
	RefFlatPolygon flat = { u, count, bcComponent(normal, k) > 0.0 ? 1 : -1 };
	bool strictlyConvex = true, reflex = false;
	for (int32_t i = 0; i < count; ++i) {
		int t = refTurn(&flat, (i + count - 1) % count, i, (i + 1) % count);
		strictlyConvex = strictlyConvex && t > 0;
		reflex = reflex || t < 0;
	}
	/* A quadrilateral turning the same way at every corner is convex and
	 * simple; anything else is checked edge against edge. */
	if (!(strictlyConvex && count == 4) && !refIsSimple(&flat)) {
		*shape = bc_polygonSelfIntersecting;
	} else if (reflex) {
		*shape = bc_polygonConcave;
		refClipEars(&flat, links, corners, triangles);
	}
	free(u);
	free(links);
}

START_TEST(convex_keeps_the_fan)
{
	Polygon p;
	const double square[] = { 0, 0, 1, 0, 1, 1, 0, 1 };
	planar(&p, square, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	assertFan(&p);
	/* clockwise too */
	const double clockwise[] = { 0, 0, 0, 1, 1, 1, 1, 0 };
	planar(&p, clockwise, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	assertFan(&p);
	/* a hexagon, and a pentagon with a corner straight on (on an edge) */
	const double hexagon[] = { 2, 0, 1, 1.5, -1, 1.5, -2, 0, -1, -1.5, 1, -1.5 };
	planar(&p, hexagon, 6);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	assertFan(&p);
	const double straight[] = { 0, 0, 1, 0, 2, 0, 2, 2, 0, 2 };
	planar(&p, straight, 5);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	assertFan(&p);
	ck_assert(p.deviation == 0.0);
}
END_TEST

/* A dart A(4,0) B(1,1) C(0,4) D(0,0), counter-clockwise, reflex at B: the
 * fan's first triangle A B C would turn the wrong way, over the notch.
 * Ear clipping: at A, D A B turns left and holds no corner: cut (3 0 1),
 * back to D; D B C is what is left: (3 1 2). */
START_TEST(dart_by_hand)
{
	Polygon p;
	const double dart[] = { 4, 0, 1, 1, 0, 4, 0, 0 };
	planar(&p, dart, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConcave);
	const int32_t expected[] = { 3, 0, 1, 3, 1, 2 };
	assertTriangles(&p, expected);
	/* with the reflex corner third, the fan is the ear clipping's answer */
	const double rotated[] = { 0, 4, 0, 0, 1, 1, 4, 0 };
	planar(&p, rotated, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConcave);
	const int32_t second[] = { 0, 1, 2, 0, 2, 3 };
	assertTriangles(&p, second);
}
END_TEST

/* ----------------------------------------------------------- coverage */

/* Twice the signed area of triangle a b c seen along +z. */
static double area2(bcVec3 a, bcVec3 b, bcVec3 c)
{
	return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/* Twice the polygon's signed area (shoelace) seen along +z. */
static double polygonArea2(const bcVec3* v, int32_t count)
{
	double sum = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 a = v[i], b = v[(i + 1) % count];
		sum += a.x * b.y - a.y * b.x;
	}
	return sum;
}

/* Is q inside the polygon (even-odd, along +x), in x y? */
static bool insidePolygon(const bcVec3* v, int32_t count, double x, double y)
{
	bool in = false;
	for (int32_t i = 0, j = count - 1; i < count; j = i++) {
		if ((v[i].y > y) != (v[j].y > y) && x < (v[j].x - v[i].x) * (y - v[i].y) / (v[j].y - v[i].y) + v[i].x) {
			in = !in;
		}
	}
	return in;
}

static bool insideTriangle(bcVec3 a, bcVec3 b, bcVec3 c, double x, double y)
{
	bcVec3 q = bcMakeVec3(x, y, 0);
	double s = area2(a, b, c);
	return area2(a, b, q) * s > 0 && area2(b, c, q) * s > 0 && area2(c, a, q) * s > 0;
}

/* The triangles (vertices in the plane z = 0 after `back`, an inverse of
 * the rotation the polygon was given) cover the polygon exactly. */
static void assertCovers(const Polygon* p, const bcVec3* flat, bcRandom* rng)
{
	int32_t n = p->count;
	double total = polygonArea2(flat, n);
	double sum = 0.0;
	for (int32_t t = 0; t < n - 2; ++t) {
		bcVec3 a = flat[p->triangles[3 * t]], b = flat[p->triangles[3 * t + 1]], c = flat[p->triangles[3 * t + 2]];
		double s = area2(a, b, c);
		ck_assert_msg(s * total > 0.0, "triangle %d turns the other way (%g against %g)", t, s, total);
		sum += s;
	}
	bcAssertNear(sum, total, 1e-12 * fabs(total));
	/* random points: in the polygon, exactly one triangle; outside, none */
	bcVec3 lo = flat[0], hi = flat[0];
	for (int32_t i = 1; i < n; ++i) {
		lo = bcMin(lo, flat[i]);
		hi = bcMax(hi, flat[i]);
	}
	for (int s = 0; s < 200; ++s) {
		double x = bcRandom_Uniform(rng, lo.x, hi.x), y = bcRandom_Uniform(rng, lo.y, hi.y);
		int holders = 0;
		for (int32_t t = 0; t < n - 2; ++t) {
			holders += insideTriangle(flat[p->triangles[3 * t]], flat[p->triangles[3 * t + 1]],
									  flat[p->triangles[3 * t + 2]], x, y);
		}
		ck_assert_msg(holders == (insidePolygon(flat, n, x, y) ? 1 : 0), "(%g, %g) in %d triangles", x, y, holders);
	}
}

/* A U: the notch (1..2) x (1..3) stays empty. */
START_TEST(u_shape)
{
	Polygon p;
	const double u[] = { 0, 0, 3, 0, 3, 3, 2, 3, 2, 1, 1, 1, 1, 3, 0, 3 };
	planar(&p, u, 8);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConcave);
	bcRandom rng = { 1 };
	assertCovers(&p, p.vertices, &rng);
	for (int32_t t = 0; t < 6; ++t) {
		ck_assert(!insideTriangle(p.vertices[p.triangles[3 * t]], p.vertices[p.triangles[3 * t + 1]],
								  p.vertices[p.triangles[3 * t + 2]], 1.5, 2));
	}
	/* the fan would have covered it: (0 3 4) = (0,0) (3,3) (2,3) holds (1.5, 2) */
	ck_assert(insideTriangle(p.vertices[0], p.vertices[2], p.vertices[3], 1.5, 2));
	/* the same U, huge, tiny or far away: the same triangles */
	int32_t expected[18];
	memcpy(expected, p.triangles, sizeof expected);
	const double scales[] = { 1e300, 1e-300, 4.9e-324 * 1024 };
	for (int k = 0; k < 4; ++k) {
		Polygon q;
		planar(&q, u, 8);
		for (int32_t i = 0; i < 8; ++i) {
			if (k < 3) {
				q.vertices[i] = bcScale(scales[k], q.vertices[i]);
			} else {
				q.vertices[i] = bcAdd(q.vertices[i], bcMakeVec3(1e9, -3e9, 5e8));
			}
		}
		cut(&q);
		ck_assert_int_eq(q.shape, bc_polygonConcave);
		assertTriangles(&q, expected);
	}
}
END_TEST

/* Random star-shaped polygons (angles sorted around a centre, radii at
 * random: simple, mostly concave), turned into a random plane, either way
 * round, offset from the origin. */
START_TEST(random_simple_polygons)
{
	bcRandom rng = { 2 };
	int concave = 0;
	for (int trial = 0; trial < 2000; ++trial) {
		int32_t n = 4 + (int32_t)(bcRandom_Next(&rng) % 40);
		/* increasing angles whose gaps are all below pi, so the polygon
		 * is star-shaped about the centre: simple */
		double angles[MAX_CORNERS];
		double total = 0.0;
		for (int32_t i = 0; i < n; ++i) {
			angles[i] = total;
			total += bcRandom_Uniform(&rng, 0.75, 1.25);
		}
		double start = bcRandom_Uniform(&rng, 0.0, 6.0);
		for (int32_t i = 0; i < n; ++i) {
			angles[i] = start + 2.0 * 3.141592653589793 * angles[i] / total;
		}
		bool reverse = bcRandom_Next(&rng) % 2 == 0;
		bcVec3 flat[MAX_CORNERS];
		for (int32_t i = 0; i < n; ++i) {
			double a = angles[reverse ? n - 1 - i : i];
			double r = bcRandom_Uniform(&rng, 0.2, 1.0);
			flat[i] = bcMakeVec3(r * cos(a), r * sin(a), 0.0);
		}
		/* a rotation: an orthonormal frame from a random axis */
		bcVec3 w = bcRandom_OnSphere(&rng);
		bcVec3 u = bcNormalize(bcCross(w, fabs(w.x) < 0.9 ? bcMakeVec3(1, 0, 0) : bcMakeVec3(0, 1, 0)));
		bcVec3 v = bcCross(w, u);
		bcVec3 offset = bcRandom_InBox(&rng, bcMakeVec3(-10, -10, -10), bcMakeVec3(10, 10, 10));
		Polygon p;
		memset(&p, 0, sizeof p);
		p.count = n;
		for (int32_t i = 0; i < n; ++i) {
			/* corners listed in a shuffled vertex array */
			int32_t slot = (i * 7 + 3) % n;
			while (p.vertices[slot].x != 0.0 || p.vertices[slot].y != 0.0 || p.vertices[slot].z != 0.0) {
				slot = (slot + 1) % n;
			}
			p.vertices[slot] = bcAdd(offset, bcAdd(bcScale(flat[i].x, u), bcScale(flat[i].y, v)));
			p.corners[i] = slot;
		}
		cut(&p);
		ck_assert_msg(p.shape == bc_polygonConvex || p.shape == bc_polygonConcave, "trial %d: shape %d", trial,
					  p.shape);
		ck_assert(p.deviation <= 1e-12);
		concave += p.shape == bc_polygonConcave;
		/* back to the plane: vertex slot -> its flat corner */
		bcVec3 flatBySlot[MAX_CORNERS];
		for (int32_t i = 0; i < n; ++i) {
			flatBySlot[p.corners[i]] = flat[i];
		}
		if (p.shape == bc_polygonConvex) {
			assertFan(&p);
		}
		/* the triangles use each corner, and every corner of the polygon */
		for (int32_t t = 0; t < 3 * (n - 2); ++t) {
			bool known = false;
			for (int32_t i = 0; i < n; ++i) {
				known = known || p.triangles[t] == p.corners[i];
			}
			ck_assert(known);
		}
		/* cover, in the plane, with the polygon listed by slot */
		bcVec3 ordered[MAX_CORNERS];
		for (int32_t i = 0; i < n; ++i) {
			ordered[i] = flatBySlot[p.corners[i]];
		}
		Polygon bySlot = p;
		for (int32_t t = 0; t < 3 * (n - 2); ++t) {
			for (int32_t i = 0; i < n; ++i) {
				if (p.triangles[t] == p.corners[i]) {
					bySlot.triangles[t] = i;
				}
			}
		}
		assertCovers(&bySlot, ordered, &rng);
	}
	ck_assert_int_gt(concave, 1500);
}
END_TEST

/* ------------------------------------------ as the reference cuts them */

/* Corners (x, y) turned into one of six planes (axis k across, the plane
 * mirrored or not), listed in a vertex array reversed. */
static void place(const double* xy, int32_t n, int plane, bcVec3* vertices, int32_t* corners)
{
	for (int32_t i = 0; i < n; ++i) {
		double c[3];
		int k = plane % 3;
		c[k] = 0.0;
		c[(k + 1) % 3] = xy[2 * i];
		c[(k + 2) % 3] = plane >= 3 ? -xy[2 * i + 1] : xy[2 * i + 1];
		vertices[n - 1 - i] = bcMakeVec3(c[0], c[1], c[2]);
		corners[i] = n - 1 - i;
	}
}

/* Cut the polygon both ways: the same shape, deviation and triangles, in
 * the same order. Returns the shape. */
static bcPolygonShape assertAsReference(const double* xy, int32_t n, int plane, bcPolygonScratch* scratch,
										const char* what, long trial)
{
	bcVec3* vertices = malloc((size_t)n * sizeof *vertices);
	int32_t* corners = malloc((size_t)n * sizeof *corners);
	int32_t* ours = malloc(3 * (size_t)n * sizeof *ours);
	int32_t* theirs = malloc(3 * (size_t)n * sizeof *theirs);
	ck_assert(vertices != NULL && corners != NULL && ours != NULL && theirs != NULL);
	place(xy, n, plane, vertices, corners);
	bcPolygonShape shape, expected;
	double deviation, expectedDeviation;
	ck_assert(bcTriangulatePolygon(vertices, corners, n, ours, scratch, &shape, &deviation));
	referenceTriangulate(vertices, corners, n, theirs, &expected, &expectedDeviation);
	ck_assert_msg(shape == expected, "%s %ld (%d corners): shape %d, the reference %d", what, trial, n, shape,
				  expected);
	ck_assert(deviation == expectedDeviation);
	for (int32_t t = 0; t < 3 * (n - 2); ++t) {
		ck_assert_msg(ours[t] == theirs[t], "%s %ld (%d corners): index %d is %d, the reference's %d", what, trial, n,
					  t, ours[t], theirs[t]);
	}
	free(vertices);
	free(corners);
	free(ours);
	free(theirs);
	return shape;
}

/* Every polygon of 4 to 9 corners on a 4 x 4 grid that chance draws:
 * corners repeated, on each other's edges, collinear, touching, crossing,
 * winding twice; simple ones too, convex and concave. */
START_TEST(as_before_on_grid_polygons)
{
	bcRandom rng = { 26 };
	bcPolygonScratch scratch = { 0 };
	long shapes[5] = { 0 };
	for (long trial = 0; trial < 400000; ++trial) {
		int32_t n = 4 + (int32_t)(bcRandom_Next(&rng) % 6);
		double xy[18];
		for (int32_t i = 0; i < 2 * n; ++i) {
			xy[i] = (double)(bcRandom_Next(&rng) % 4);
		}
		shapes[assertAsReference(xy, n, (int)(trial % 6), &scratch, "grid polygon", trial)] += 1;
	}
	bcPolygonScratch_Free(&scratch);
	for (int k = 0; k < 5; ++k) {
		if (k != bc_polygonNonPlanar) {
			ck_assert_msg(shapes[k] > 1000, "shape %d drawn %ld times", k, shapes[k]);
		}
	}
}
END_TEST

/* Twice the signed area of the triangle of grid corners a b c: exact for
 * the small integers here. */
static double gridTurn(const double* xy, int32_t a, int32_t b, int32_t c)
{
	return (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
		   (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
}

/* Random polygons on a grid untangled by 2-opt (reverse the run between
 * two edges that cross, until none do): simple, or touching themselves
 * where corners fall on edges; collinear corners everywhere. */
START_TEST(as_before_on_untangled_polygons)
{
	bcRandom rng = { 27 };
	bcPolygonScratch scratch = { 0 };
	long shapes[5] = { 0 };
	for (long trial = 0; trial < 20000; ++trial) {
		int32_t n = 5 + (int32_t)(bcRandom_Next(&rng) % 36);
		int grid = 4 + (int)(bcRandom_Next(&rng) % 20);
		double xy[80];
		for (int32_t i = 0; i < 2 * n; ++i) {
			xy[i] = (double)(bcRandom_Next(&rng) % (uint64_t)grid);
		}
		for (bool crossed = true; crossed;) {
			crossed = false;
			for (int32_t i = 0; i < n && !crossed; ++i) {
				for (int32_t j = i + 2; j < n && !crossed; ++j) {
					int32_t a = i, b = i + 1, c = j, d = (j + 1) % n;
					if (d == a) {
						continue;
					}
					double o1 = gridTurn(xy, a, b, c), o2 = gridTurn(xy, a, b, d);
					double o3 = gridTurn(xy, c, d, a), o4 = gridTurn(xy, c, d, b);
					if (o1 * o2 < 0 && o3 * o4 < 0) {
						/* reverse corners b .. c */
						for (int32_t lo = b, hi = c; lo < hi; ++lo, --hi) {
							double x = xy[2 * lo], y = xy[2 * lo + 1];
							xy[2 * lo] = xy[2 * hi];
							xy[2 * lo + 1] = xy[2 * hi + 1];
							xy[2 * hi] = x;
							xy[2 * hi + 1] = y;
						}
						crossed = true;
					}
				}
			}
		}
		shapes[assertAsReference(xy, n, (int)(trial % 6), &scratch, "untangled polygon", trial)] += 1;
	}
	bcPolygonScratch_Free(&scratch);
	ck_assert_msg(shapes[bc_polygonConcave] > 3000, "%ld concave", shapes[bc_polygonConcave]);
	ck_assert_msg(shapes[bc_polygonSelfIntersecting] > 1000, "%ld touching", shapes[bc_polygonSelfIntersecting]);
}
END_TEST

/* Stars with corners rounded to a grid (collinear runs, straight corners,
 * some crossing), and the generated combs, spirals, stars and circles of
 * up to 3000 corners (a spiral of 8 or 100 corners crosses itself, its
 * chords cutting across the band; from 1000 on every one is simple). */
START_TEST(as_before_on_stars_combs_spirals)
{
	bcRandom rng = { 28 };
	bcPolygonScratch scratch = { 0 };
	enum { big = 3000 };
	double* xy = malloc(2 * big * sizeof *xy);
	ck_assert(xy != NULL);
	long concave = 0;
	for (long trial = 0; trial < 3000; ++trial) {
		int32_t n = 4 + (int32_t)(bcRandom_Next(&rng) % 200);
		double grid = (double)(2 + bcRandom_Next(&rng) % 40);
		for (int32_t i = 0; i < n; ++i) {
			double a = 2.0 * 3.141592653589793 * i / n, r = bcRandom_Uniform(&rng, 0.2, 1.0);
			xy[2 * i] = round(grid * r * cos(a));
			xy[2 * i + 1] = round(grid * r * sin(a));
		}
		concave += assertAsReference(xy, n, (int)(trial % 6), &scratch, "rounded star", trial) == bc_polygonConcave;
	}
	ck_assert_msg(concave > 800, "%ld concave", concave);
	const int32_t sizes[] = { 8, 100, 1001, big };
	for (int kind = 0; kind < bc_genPolygonKinds; ++kind) {
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
			int32_t n = bcGenPolygon((bcGenPolygonKind)kind, sizes[k], 29 + k, xy);
			bcPolygonShape shape = assertAsReference(xy, n, (int)k, &scratch, bcGenPolygonName((bcGenPolygonKind)kind),
													 sizes[k]);
			if (sizes[k] >= 1000) {
				ck_assert_int_eq(shape, kind == bc_genConvex ? bc_polygonConvex : bc_polygonConcave);
			}
		}
	}
	free(xy);
	bcPolygonScratch_Free(&scratch);
}
END_TEST

/* ----------------------------------------------------- cut as a fan */

START_TEST(flat_non_planar_self_intersecting)
{
	Polygon p;
	/* all corners on a line */
	const double line[] = { 0, 0, 1, 0, 2, 0, 3, 0 };
	planar(&p, line, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonFlat);
	assertFan(&p);
	/* bow ties: edges 0-1 and 2-3 cross; the symmetric one has no area at
	 * all (its two halves cancel out), the other some */
	const double bowtie[] = { 0, 0, 1, 1, 1, 0, 0, 1 };
	planar(&p, bowtie, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	assertFan(&p);
	const double lopsided[] = { 0, 0, 2, 1, 2, 0, 0, 3 };
	planar(&p, lopsided, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	assertFan(&p);
	/* a pentagram: every corner turns the same way, but it winds twice */
	double star[10];
	for (int i = 0; i < 5; ++i) {
		double a = 2.0 * 3.141592653589793 * (2 * i) / 5.0;
		star[2 * i] = cos(a);
		star[2 * i + 1] = sin(a);
	}
	planar(&p, star, 5);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	assertFan(&p);
	/* a corner repeated; a figure touching itself at a corner; an edge
	 * folding back on the one before */
	const double repeated[] = { 0, 0, 2, 0, 2, 0, 2, 2, 0, 2 };
	planar(&p, repeated, 5);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	const double touching[] = { 0, 0, 2, 0, 1, 1, 2, 2, 0, 2, 1, 1 };
	planar(&p, touching, 6);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	const double fold[] = { 0, 0, 2, 0, 1, 0, 1, 2 };
	planar(&p, fold, 4);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonSelfIntersecting);
	/* a square with a corner lifted by 0.1 of its size: non-planar, the fan */
	const double square[] = { 0, 0, 2, 0, 2, 2, 0, 2 };
	planar(&p, square, 4);
	p.vertices[2].z = 0.2;
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonNonPlanar);
	assertFan(&p);
	/* each corner about 0.05 off the mean plane (the plane tilts a little
	 * towards the lifted corner), over size 2 */
	ck_assert_msg(p.deviation > 0.024 && p.deviation <= 0.025, "deviation %g", p.deviation);
	/* lifted by 1e-7 of its size: planar (coordinates written to six digits do that) */
	p.vertices[2].z = 2e-7;
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	/* a concave U lifted out of its plane: the fan, not ear clipping */
	const double u[] = { 0, 0, 3, 0, 3, 3, 2, 3, 2, 1, 1, 1, 1, 3, 0, 3 };
	planar(&p, u, 8);
	p.vertices[4].z = 1;
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonNonPlanar);
	assertFan(&p);
	/* a triangle is itself */
	planar(&p, u, 3);
	cut(&p);
	ck_assert_int_eq(p.shape, bc_polygonConvex);
	assertFan(&p);
}
END_TEST

static Suite* polygonSuite(void)
{
	Suite* s = suite_create("polygon");
	TCase* tc = tcase_create("polygon");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, convex_keeps_the_fan);
	tcase_add_test(tc, dart_by_hand);
	tcase_add_test(tc, u_shape);
	tcase_add_test(tc, random_simple_polygons);
	tcase_add_test(tc, flat_non_planar_self_intersecting);
	tcase_add_test(tc, as_before_on_grid_polygons);
	tcase_add_test(tc, as_before_on_untangled_polygons);
	tcase_add_test(tc, as_before_on_stars_combs_spirals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(polygonSuite());
}
