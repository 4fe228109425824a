/* polygon.c tests: one polygon into triangles (bcTriangulatePolygon).
 *
 * Convex polygons keep the fan; a dart and a U cut by ear clipping as the
 * rule says, by hand; random simple polygons (star-shaped, most of them
 * concave) in random planes, both ways round: k - 2 triangles of the
 * polygon's corners, each turning the polygon's way, their areas summing
 * to the polygon's, covering it exactly (random points inside the polygon
 * are in exactly one triangle, points outside in none); flat, non-planar
 * and self-intersecting polygons keep the fan and say so. */
#include <float.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "polygon.h"
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
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(polygonSuite());
}
