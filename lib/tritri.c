/* tritri.c - ONE triangle against ONE triangle: do they meet, how, and
 * along which segment (the course's two-faces appendix, Opposing Face
 * Geometry's appendix A; the collision detection slides, 2D interference).
 *
 * The decisions are exact: every branch is taken on the sign of an
 * orientation determinant, and those signs are computed exactly (a
 * floating-point filter with Shewchuk's error bound, and when the filter
 * cannot decide, the determinant summed exactly as a floating-point
 * expansion). Why exact rather than a tolerance such as |d| <= 1e-12 *
 * scale: a tolerance makes "on the plane" depend on how the triangle is
 * scaled and rotated, it disagrees with itself (A on B's plane by one
 * tolerance, B not on A's), and it turns the nearly parallel and the
 * touching cases -- the ones users pin in regression suites -- into
 * accidents of rounding. Exact signs give one consistent answer, the same
 * for the pair in either order up to the direction of the segment, and the
 * exact path costs ~100 times the filter only when the filter cannot
 * decide (about one determinant in thousands on real meshes).
 *
 * Stage 1 (the note's plane piercing): the signs of A's vertices against
 * B's plane, and of B's against A's. All three of one triangle strictly on
 * one side: disjoint. All zero: the triangles are coplanar (stage 2b).
 *
 * Stage 2a (not coplanar): A meets B's plane in a chord I_A (a segment or
 * a point) and B meets A's plane in I_B, both on the line L common to the
 * planes, and A n B = I_A n I_B. With nA = (a1-a0)x(a2-a0), nB likewise and
 * L directed along D = nA x nB, the order along L of a point X where the
 * line (p, q) of A crosses B's plane and a point Y where the line (r, s) of
 * B crosses A's plane is exact:
 *     sign(D . (Y - X)) = sign(orient(p, q, r, s)) * sign(nB . (q - p)) * sign(nA . (s - r))
 * (orient(p,q,r,s) = det[q-p, r-p, s-p] = det[q-p, Y-X, s-r] = lambda
 * (nB . (q-p)) (nA . (s-r)) with Y - X = lambda D; Guigue and Devillers
 * 2003 use the same fact). So the two chords are overlapped exactly; only
 * the endpoints of the answer are computed in floating point, as an edge
 * crossing a plane or as a vertex lying on it.
 *
 * Stage 2b (coplanar): both triangles are projected on the coordinate
 * plane where A's normal is largest (its exact projected area is then not
 * zero), turned counter-clockwise, and tested as in the slides: they
 * interfere when a vertex of one is in or on the other or two edges
 * intersect. Touching (boundaries only) against overlapping (a common
 * area) is decided by separating lines: the interiors are disjoint exactly
 * when the line of one of the six edges has the other triangle entirely on
 * its outer closed side (the separating axis theorem; the Minkowski
 * difference of the triangles has only edges parallel to theirs). The
 * seemingly natural "a vertex strictly inside the other or two edges
 * crossing properly" misses overlaps: A (0,0) (4,0) (0,4) and B (-1,-1)
 * (2,2) (6,-2) share the triangle (0,0) (4,0) (2,2) with every vertex and
 * every edge contact on a boundary (tests/unit/tritri.c has it).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "ballcast.h"
#include "predicates.h"
#include "vec3.h"

/* An edge crossing a plane is placed from two determinants taken to
 * within 2^-48 (3.6e-15) of their value, relatively (the exact path
 * otherwise). The crossing's parameter along the edge is then within about
 * 1e-14, and the point within 1e-14 of the edge's length of the exact
 * crossing, even for an edge that meets the plane at a grazing angle
 * (planes 1e-9 apart in angle), where the filter's relative error is
 * large. The tests ask for 1e-12 of the coordinates; 2^-48 leaves room for
 * edges as long as the scene and for the rounding of the point itself, and
 * sends to the exact path only ends near a plane. */
#define BC_ACCURATE_ERROR 3.552713678800501e-15 /* 2^-48 */


/* ---------------------------------------------------------- spheres */

bcSphere bcTriangleBoundingSphere(bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 lower = bcMin(a, bcMin(b, c));
	bcVec3 upper = bcMax(a, bcMax(b, c));
	/* Halves first: no overflow, and the rounded midpoint stays in the box. */
	bcVec3 center = bcMakeVec3(0.5 * lower.x + 0.5 * upper.x, 0.5 * lower.y + 0.5 * upper.y,
							   0.5 * lower.z + 0.5 * upper.z);
	double ra = bcLength(bcSub(a, center));
	double rb = bcLength(bcSub(b, center));
	double rc = bcLength(bcSub(c, center));
	bcSphere sphere = { center, ra > rb ? (ra > rc ? ra : rc) : (rb > rc ? rb : rc) };
	return sphere;
}

/* ------------------------------------------------------- one triangle */

/* A triangle with what stage 1 learnt about it. */
typedef struct bcTri {
	bcVec3 p[3];
	int axis;        /* a coordinate axis along which the exact normal is not 0 */
	double area2;    /* that normal component, exact sign */
	int side[3];     /* sign of each vertex against the other triangle's plane */
} bcTri;

/* The normal component along axis k -- twice the area projected on the
 * plane of the two other axes -- with the exact sign: nx = det in (y, z),
 * ny in (z, x), nz in (x, y). */
static double projectedArea(const bcTri* t, int k)
{
	int u = (k + 1) % 3, v = (k + 2) % 3;
	return bcOrient2d(bcComponent(t->p[0], u), bcComponent(t->p[0], v), bcComponent(t->p[1], u),
					bcComponent(t->p[1], v), bcComponent(t->p[2], u), bcComponent(t->p[2], v));
}

/* Choose t->axis: the largest component of the rounded normal, whose exact
 * value is then almost never 0; if it is, any other nonzero one. False when
 * all three are exactly 0: the vertices are collinear. */
static bool findAxis(bcTri* t)
{
	bcVec3 n = bcCross(bcSub(t->p[1], t->p[0]), bcSub(t->p[2], t->p[0]));
	double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
	int k = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
	for (int i = 0; i < 3; ++i) {
		int axis = (k + i) % 3;
		double area2 = projectedArea(t, axis);
		if (area2 != 0.0) {
			t->axis = axis;
			t->area2 = area2;
			return true;
		}
	}
	return false;
}

static bool allFinite(const bcTri* t)
{
	return bcIsFinite(t->p[0]) && bcIsFinite(t->p[1]) && bcIsFinite(t->p[2]);
}

/* -------------------------------------------- stage 2a: the chords on L */

/* One end of a chord: the point where the line from vertex `from` to vertex
 * `to` meets the other plane. `to` is strictly off that plane; when `from`
 * is on it the point is that vertex, else the edge crosses the plane. */
typedef struct bcChordEnd {
	int8_t from, to;
} bcChordEnd;

typedef struct bcChord {
	bcChordEnd start, end; /* in the order of L's direction D = nA x nB */
	bool straddles;        /* vertices strictly on both sides */
} bcChord;

/* The chord of a triangle (not coplanar with the other, not strictly on one
 * side of it). An apex is a vertex off the plane whose two companions are
 * each on the plane or across it; the chord then runs between the apex's
 * two edges (E1 on edge apex->apex+1, E2 on apex->apex+2). For A, from E2
 * to E1 when the apex is on the positive side of B's plane, from E1 to E2
 * otherwise; for B the other way round. (The sub-triangle apex, E1, E2
 * turns like its triangle, so (E1 - apex) x (E2 - apex) is a positive
 * multiple of the triangle's normal n; writing E - apex = alpha m + t D with
 * m = n x D, that cross product is -alpha (t2 - t1) |D|^2 n, and alpha has
 * the sign of -(m . n_other) times the apex's side: m . nB < 0 for A, and
 * m . nA > 0 for B, by Cauchy-Schwarz.) Without an apex, one vertex is on
 * the plane and the two others strictly on the same side: the chord is
 * that vertex. */
static bcChord chordOf(const int* s, bool isB)
{
	bcChord chord;
	chord.straddles = (s[0] > 0 || s[1] > 0 || s[2] > 0) && (s[0] < 0 || s[1] < 0 || s[2] < 0);
	for (int i = 0; i < 3; ++i) {
		int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
		if (s[i] != 0 && s[i1] != s[i] && s[i2] != s[i]) {
			bcChordEnd e1 = s[i1] == 0 ? (bcChordEnd){ (int8_t)i1, (int8_t)i } : (bcChordEnd){ (int8_t)i, (int8_t)i1 };
			bcChordEnd e2 = s[i2] == 0 ? (bcChordEnd){ (int8_t)i2, (int8_t)i } : (bcChordEnd){ (int8_t)i, (int8_t)i2 };
			bool e2First = (s[i] > 0) != isB;
			chord.start = e2First ? e2 : e1;
			chord.end = e2First ? e1 : e2;
			return chord;
		}
	}
	for (int i = 0; i < 3; ++i) {
		if (s[i] == 0) {
			bcChordEnd only = { (int8_t)i, (int8_t)((i + 1) % 3) };
			chord.start = only;
			chord.end = only;
			return chord;
		}
	}
	/* Not reached: the caller has ruled out "all strictly on one side". */
	chord.start = (bcChordEnd){ 0, 1 };
	chord.end = chord.start;
	return chord;
}

/* The sign of D . (Y - X): X the end ea of A's chord, Y the end eb of B's
 * (the comment at the top of the file derives it). */
static int compareEnds(const bcTri* a, bcChordEnd ea, const bcTri* b, bcChordEnd eb)
{
	double o = bcOrient3d(a->p[ea.from], a->p[ea.to], b->p[eb.from], b->p[eb.to], 1.0);
	return bcSign(o) * a->side[ea.to] * b->side[eb.to];
}

/* x < y in the order x, then y, then z. */
static bool lexLess(bcVec3 x, bcVec3 y)
{
	if (x.x != y.x) {
		return x.x < y.x;
	}
	if (x.y != y.y) {
		return x.y < y.y;
	}
	return x.z < y.z;
}

/* The point of a chord end of t, other the triangle whose plane it meets.
 * A vertex is returned as is. An edge crossing is computed from the edge's
 * ends in a fixed order (the smaller point first), so the two triangles
 * sharing the edge compute the same bits, and from their distances to the
 * plane taken to full precision. */
static bcVec3 endPoint(const bcTri* t, bcChordEnd e, const bcTri* other)
{
	if (t->side[e.from] == 0) {
		return t->p[e.from];
	}
	bcVec3 p = t->p[e.from], q = t->p[e.to];
	if (lexLess(q, p)) {
		bcVec3 swap = p;
		p = q;
		q = swap;
	}
	/* The distances on a copy scaled by a power of two to coordinates near
	 * 1: their ratio is the same, and they neither overflow nor (for the
	 * coordinates documented in ballcast.h) underflow. */
	bcVec3 v[5] = { other->p[0], other->p[1], other->p[2], p, q };
	int exponent = bcScaleExponent(v, 5);
	for (int i = 0; i < 5; ++i) {
		v[i] = bcScaled(v[i], -exponent);
	}
	double dp = bcOrient3d(v[0], v[1], v[2], v[3], BC_ACCURATE_ERROR);
	double dq = bcOrient3d(v[0], v[1], v[2], v[4], BC_ACCURATE_ERROR);
	double s = dp / (dp - dq);
	s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
	return bcPositiveZeros(bcMulAdd(p, s, bcSub(q, p)));
}

static bool isVertexEnd(const bcTri* t, bcChordEnd e)
{
	return t->side[e.from] == 0;
}

/* One end of the answer: an end of A's chord or of B's. */
typedef struct bcEnd {
	bool fromA;
	bcChordEnd e;
} bcEnd;

static bcVec3 pointOfEnd(const bcTri* a, const bcTri* b, bcEnd end)
{
	return end.fromA ? endPoint(a, end.e, b) : endPoint(b, end.e, a);
}

static bool endIsVertex(const bcTri* a, const bcTri* b, bcEnd end)
{
	return end.fromA ? isVertexEnd(a, end.e) : isVertexEnd(b, end.e);
}

/* The later of two coinciding or ordered ends; on a tie a vertex (exact
 * coordinates) is preferred, then A's. */
static bcEnd pickLater(const bcTri* a, const bcTri* b, bcChordEnd ea, bcChordEnd eb, bool later)
{
	int c = compareEnds(a, ea, b, eb); /* > 0: B's end comes after A's */
	bcEnd fromA = { true, ea }, fromB = { false, eb };
	if (c == 0) {
		return (!isVertexEnd(a, ea) && isVertexEnd(b, eb)) ? fromB : fromA;
	}
	return (c > 0) == later ? fromB : fromA;
}

static bcTriTriOutput crossingSegment(const bcTri* a, const bcTri* b)
{
	bcTriTriOutput out = { bc_triTriDisjoint, { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } } };
	bcChord ca = chordOf(a->side, false);
	bcChord cb = chordOf(b->side, true);
	bcEnd start = pickLater(a, b, ca.start, cb.start, true);
	bcEnd end = pickLater(a, b, ca.end, cb.end, false);
	int order; /* sign of D . (end - start) */
	if (start.fromA == end.fromA) {
		const bcChord* c = start.fromA ? &ca : &cb;
		order = (c->start.from == c->end.from && c->start.to == c->end.to) ? 0 : 1;
	} else if (start.fromA) {
		order = compareEnds(a, start.e, b, end.e);
	} else {
		order = -compareEnds(a, end.e, b, start.e);
	}
	if (order < 0) {
		return out;
	}
	if (order == 0) {
		/* One common point: both ends are it; take exact coordinates if either has them. */
		bcEnd only = (!endIsVertex(a, b, start) && endIsVertex(a, b, end)) ? end : start;
		out.state = bc_triTriTouching;
		out.segment[0] = pointOfEnd(a, b, only);
		out.segment[1] = out.segment[0];
		return out;
	}
	out.state = ca.straddles && cb.straddles ? bc_triTriCrossing : bc_triTriTouching;
	out.segment[0] = pointOfEnd(a, b, start);
	out.segment[1] = pointOfEnd(a, b, end);
	return out;
}

/* ------------------------------------------------ stage 2b: coplanar */

typedef struct bcTri2 {
	double u[3], v[3];
	int index[3]; /* which vertex of the 3D triangle */
} bcTri2;

/* Project on the coordinate plane dropping axis k, counter-clockwise:
 * area2 is the triangle's exact-signed normal component along k. */
static bcTri2 project(const bcTri* t, int k, double area2)
{
	int ku = (k + 1) % 3, kv = (k + 2) % 3;
	bool flip = area2 < 0.0;
	bcTri2 r;
	for (int i = 0; i < 3; ++i) {
		int src = flip ? (3 - i) % 3 : i; /* 0, 2, 1 when flipped */
		r.u[i] = bcComponent(t->p[src], ku);
		r.v[i] = bcComponent(t->p[src], kv);
		r.index[i] = src;
	}
	return r;
}

/* Seed 002's point in triangle, closed: q is inside or on t (counter-clockwise)
 * when it is left of or on all three edges. */
static bool inOrOn(const bcTri2* t, double qu, double qv)
{
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3;
		if (bcOrient2d(t->u[i], t->v[i], t->u[j], t->v[j], qu, qv) < 0.0) {
			return false;
		}
	}
	return true;
}

/* Seed 002's edge/edge test, closed: segments pq and rs share a point. Each
 * must not have both ends strictly on one side of the other's line; when
 * all four are collinear, their extents must overlap. */
static bool segmentsMeet(double pu, double pv, double qu, double qv, double ru, double rv, double su, double sv)
{
	int o1 = bcSign(bcOrient2d(pu, pv, qu, qv, ru, rv));
	int o2 = bcSign(bcOrient2d(pu, pv, qu, qv, su, sv));
	int o3 = bcSign(bcOrient2d(ru, rv, su, sv, pu, pv));
	int o4 = bcSign(bcOrient2d(ru, rv, su, sv, qu, qv));
	if (o1 == 0 && o2 == 0) {
		/* Collinear (o3 = o4 = 0 too): overlap on the axis where pq extends. */
		bool alongU = fabs(qu - pu) >= fabs(qv - pv);
		double p = alongU ? pu : pv, q = alongU ? qu : qv;
		double r = alongU ? ru : rv, s = alongU ? su : sv;
		double lo1 = p < q ? p : q, hi1 = p < q ? q : p;
		double lo2 = r < s ? r : s, hi2 = r < s ? s : r;
		return lo1 <= hi2 && lo2 <= hi1;
	}
	return o1 * o2 <= 0 && o3 * o4 <= 0;
}

/* Some edge line of t has every vertex of o on its outer side: strictly
 * (a separating line, the triangles are disjoint) or closed (touching at
 * most). */
static bool edgeSeparates(const bcTri2* t, const bcTri2* o, bool strict)
{
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3;
		bool all = true;
		for (int k = 0; k < 3 && all; ++k) {
			double d = bcOrient2d(t->u[i], t->v[i], t->u[j], t->v[j], o->u[k], o->v[k]);
			all = strict ? d < 0.0 : d <= 0.0;
		}
		if (all) {
			return true;
		}
	}
	return false;
}

static bcTriTriOutput coplanar(const bcTri* a, const bcTri* b)
{
	bcTriTriOutput out = { bc_triTriDisjoint, { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } } };
	/* Project along A's axis: A's exact normal component there is not 0, so
	 * neither is B's (the normals are parallel). */
	int k = a->axis;
	bcTri2 pa = project(a, k, a->area2), pb = project(b, k, projectedArea(b, k));

	/* Seed 002: they interfere iff a vertex of one is in or on the other, or two edges meet. */
	bool aIn[3], bIn[3];
	bool meet = false;
	for (int i = 0; i < 3; ++i) {
		aIn[i] = inOrOn(&pb, pa.u[i], pa.v[i]);
		bIn[i] = inOrOn(&pa, pb.u[i], pb.v[i]);
		meet = meet || aIn[i] || bIn[i];
	}
	for (int i = 0; i < 3 && !meet; ++i) {
		int i1 = (i + 1) % 3;
		for (int j = 0; j < 3 && !meet; ++j) {
			int j1 = (j + 1) % 3;
			meet = segmentsMeet(pa.u[i], pa.v[i], pa.u[i1], pa.v[i1], pb.u[j], pb.v[j], pb.u[j1], pb.v[j1]);
		}
	}
	if (!meet) {
		return out;
	}
	if (!edgeSeparates(&pa, &pb, false) && !edgeSeparates(&pb, &pa, false)) {
		out.state = bc_triTriCoplanar;
		return out;
	}
	/* Touching: the common part is a point or a segment whose ends are
	 * vertices (a proper crossing of two edges would overlap the interiors);
	 * on a line the order x, y, z is the order along it. */
	bool any = false;
	bcVec3 lo = { 0.0, 0.0, 0.0 }, hi = lo;
	for (int i = 0; i < 6; ++i) {
		bool in = i < 3 ? aIn[i] : bIn[i - 3];
		if (!in) {
			continue;
		}
		bcVec3 p = i < 3 ? a->p[pa.index[i]] : b->p[pb.index[i - 3]];
		if (!any || lexLess(p, lo)) {
			lo = p;
		}
		if (!any || lexLess(hi, p)) {
			hi = p;
		}
		any = true;
	}
	out.state = bc_triTriTouching;
	out.segment[0] = bcPositiveZeros(lo);
	out.segment[1] = bcPositiveZeros(hi);
	return out;
}

/* ---------------------------------------------------------- the test */

bcTriTriOutput bcIntersectTriangles(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1, bcVec3 b2)
{
	bcTriTriOutput out = { bc_triTriDegenerate, { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } } };
	bcTri a = { { a0, a1, a2 }, 0, 0.0, { 0, 0, 0 } };
	bcTri b = { { b0, b1, b2 }, 0, 0.0, { 0, 0, 0 } };
	if (!allFinite(&a) || !allFinite(&b) || !findAxis(&a) || !findAxis(&b)) {
		return out;
	}
	out.state = bc_triTriDisjoint;

	/* Stage 1: A against B's plane, then B against A's. */
	for (int i = 0; i < 3; ++i) {
		a.side[i] = bcSign(bcOrient3d(b0, b1, b2, a.p[i], 1.0));
	}
	if (a.side[0] == a.side[1] && a.side[1] == a.side[2] && a.side[0] != 0) {
		return out;
	}
	if (a.side[0] == 0 && a.side[1] == 0 && a.side[2] == 0) {
		/* A spans B's plane, so B is in A's: with exact signs there is no
		 * need to ask (B's sides stay 0). */
		return coplanar(&a, &b);
	}
	for (int i = 0; i < 3; ++i) {
		b.side[i] = bcSign(bcOrient3d(a0, a1, a2, b.p[i], 1.0));
	}
	if (b.side[0] == b.side[1] && b.side[1] == b.side[2] && b.side[0] != 0) {
		return out;
	}
	if (b.side[0] == 0 && b.side[1] == 0 && b.side[2] == 0) {
		return coplanar(&a, &b); /* not reached with exact signs: A would be in B's plane */
	}
	return crossingSegment(&a, &b);
}

/* ------------------------------------------------------ approximate */

bcTriTriOutput bcIntersectTrianglesApprox(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1, bcVec3 b2)
{
	return bcIntersectTrianglesApproxWithRule(a0, a1, a2, b0, b1, b2, bc_approxEither);
}

bcTriTriOutput bcIntersectTrianglesApproxWithRule(bcVec3 a0, bcVec3 a1, bcVec3 a2, bcVec3 b0, bcVec3 b1, bcVec3 b2,
												  bcApproxRule rule)
{
	bcTriTriOutput out = { bc_triTriDegenerate, { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } } };
	bcVec3 nA = bcCross(bcSub(a1, a0), bcSub(a2, a0));
	bcVec3 nB = bcCross(bcSub(b1, b0), bcSub(b2, b0));
	bool flatA = nA.x == 0.0 && nA.y == 0.0 && nA.z == 0.0;
	bool flatB = nB.x == 0.0 && nB.y == 0.0 && nB.z == 0.0;
	if (flatA || flatB || !bcIsFinite(nA) || !bcIsFinite(nB)) {
		return out;
	}
	out.state = bc_triTriDisjoint;
	bcSphere sa = bcTriangleBoundingSphere(a0, a1, a2);
	bcSphere sb = bcTriangleBoundingSphere(b0, b1, b2);
	if (bcDistance(sa.center, sb.center) > sa.radius + sb.radius) {
		return out;
	}
	/* An edge pierces a plane unless both its ends are strictly on one side;
	 * some edge of a triangle does unless all three vertices are. */
	double da[3] = { bcDot(nB, bcSub(a0, b0)), bcDot(nB, bcSub(a1, b0)), bcDot(nB, bcSub(a2, b0)) };
	double db[3] = { bcDot(nA, bcSub(b0, a0)), bcDot(nA, bcSub(b1, a0)), bcDot(nA, bcSub(b2, a0)) };
	bool aOneSide = (da[0] > 0.0 && da[1] > 0.0 && da[2] > 0.0) || (da[0] < 0.0 && da[1] < 0.0 && da[2] < 0.0);
	bool bOneSide = (db[0] > 0.0 && db[1] > 0.0 && db[2] > 0.0) || (db[0] < 0.0 && db[1] < 0.0 && db[2] < 0.0);
	/* The seed's rule asks only whether an edge of the first face pierces
	 * the second's plane. */
	bool pierced = rule == bc_approxOneWay ? !aOneSide : (!aOneSide || !bOneSide);
	if (pierced) {
		out.state = bc_triTriProbable;
	}
	return out;
}

const char* bcTriTriStateName(bcTriTriState state)
{
	switch (state) {
	case bc_triTriDisjoint:
		return "disjoint";
	case bc_triTriTouching:
		return "touching";
	case bc_triTriCrossing:
		return "crossing";
	case bc_triTriCoplanar:
		return "coplanar";
	case bc_triTriDegenerate:
		return "degenerate";
	case bc_triTriProbable:
		return "probable";
	}
	return "unknown";
}
