/* closest_triangle.c - the closest point of a triangle to a point, by Voronoi regions
 * (Ericson, Real-Time Collision Detection 5.1.5, as the course's closest-point
 * notes follow it). */
#include "ballcast.h"
#include "predicates.h"
#include "sweep.h"
#include "vec3.h"

/* (BC_NORMAL_PLAIN_ERROR / (28 u))^2: a plain normal vector n of two edges
 * x, y with |n|^2 below |x|^2 |y|^2 over this is thin (its error bound
 * 28 u |x| |y| / |n| above BC_NORMAL_PLAIN_ERROR, sweep.h). */
#define BC_THIN_RATIO_SQUARED 85598.04081632652 /* (2^13 / 28)^2 */

/* The result for closest point q of feature (count local vertices v0, v1,
 * and 2 for a face), with the weights u, v, w of A, B, C that make q. */
static bcClosestPoint makeResult(bcVec3 p, bcVec3 q, bcFeature feature, int count, int v0, int v1, double u, double v,
								 double w)
{
	bcClosestPoint r;
	r.barycentric[0] = u;
	r.barycentric[1] = v;
	r.barycentric[2] = w;
	r.point = q;
	r.distance = bcDistance(p, q);
	r.feature = feature;
	r.vertexCount = count;
	r.vertices[0] = v0;
	r.vertices[1] = v1;
	r.vertices[2] = count == 3 ? 2 : -1;
	if (count < 2) {
		r.vertices[1] = -1;
	}
	return r;
}

/* The weights of A, B, C (w[0 .. 2]) of the point at t along the edge from
 * local vertex ia to ib: 1 - t at ia, t at ib, 0 at the third. */
static void edgeWeights(double w[3], int ia, int ib, double t)
{
	w[0] = w[1] = w[2] = 0.0;
	w[ia] = 1.0 - t;
	w[ib] = t;
}

/* Closest point on segment P + t (Q - P), t in [0, 1]; for degenerate triangles. */
static bcClosestPoint closestOnEdge(bcVec3 p, bcVec3 a, bcVec3 b, int ia, int ib)
{
	bcVec3 e = bcSub(b, a);
	double ee = bcDot(e, e);
	double t = ee > 0.0 ? bcDot(bcSub(p, a), e) / ee : 0.0;
	double w[3];
	if (t <= 0.0) {
		edgeWeights(w, ia, ib, 0.0);
		return makeResult(p, a, bc_featureVertex, 1, ia, -1, w[0], w[1], w[2]);
	}
	if (t >= 1.0) {
		edgeWeights(w, ia, ib, 1.0);
		return makeResult(p, b, bc_featureVertex, 1, ib, -1, w[0], w[1], w[2]);
	}
	edgeWeights(w, ia, ib, t);
	return makeResult(p, bcMulAdd(a, t, e), bc_featureEdge, 2, ia, ib, w[0], w[1], w[2]);
}

/* The triangle's normal, not normalised: the cross product of the two edges
 * meeting opposite the longest one, which rounds least (with a long thin
 * triangle, (b - a) x (c - a) would cancel most of its digits). Every
 * cyclic choice has the orientation of (b - a) x (c - a). A thin cap (its
 * largest angle near 180 degrees) leaves even that few digits: its normal
 * is the exact cross product, rounded, as the cast's (sweep.h,
 * BC_NORMAL_PLAIN_ERROR), so its region tests and face point are right. */
static bcVec3 rawNormal(bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 ab, bcVec3 bc, bcVec3 ca)
{
	double lab = bcDot(ab, ab), lbc = bcDot(bc, bc), lca = bcDot(ca, ca);
	bcVec3 n;
	double lengths2;
	if (lab >= lbc && lab >= lca) {
		n = bcCross(bc, ca);
		lengths2 = lbc * lca;
	} else if (lbc >= lca) {
		n = bcCross(ca, ab);
		lengths2 = lca * lab;
	} else {
		n = bcCross(ab, bc);
		lengths2 = lab * lbc;
	}
	if (bcDot(n, n) * BC_THIN_RATIO_SQUARED < lengths2) {
		return bcExactCross(a, b, c); /* (0,0,0) when exactly flat: the edges decide */
	}
	return n;
}

bcClosestPoint bcClosestPointTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 ab = bcSub(b, a);
	bcVec3 ac = bcSub(c, a);

	/* Vertex region A: the angles PAB and PAC are both >= 90 degrees. */
	bcVec3 ap = bcSub(p, a);
	double d1 = bcDot(ab, ap);
	double d2 = bcDot(ac, ap);
	if (d1 <= 0.0 && d2 <= 0.0) {
		return makeResult(p, a, bc_featureVertex, 1, 0, -1, 1.0, 0.0, 0.0);
	}

	/* Vertex region B. */
	bcVec3 bp = bcSub(p, b);
	double d3 = bcDot(ab, bp);
	double d4 = bcDot(ac, bp);
	if (d3 >= 0.0 && d4 <= d3) {
		return makeResult(p, b, bc_featureVertex, 1, 1, -1, 0.0, 1.0, 0.0);
	}

	/* The signed areas of PBC, PCA and PAB times |n|: Ericson's va, vb, vc,
	 * which he forms as d3 d6 - d5 d4 and so on. Those products are of the
	 * size |e|^4 and cancel down to |n|^2: on a triangle a hundred thousand
	 * times longer than wide they keep no more than five digits, and the
	 * face point built from them misses the plane by a part in 10^8 of the
	 * triangle's length. As triple products with the normal (equal to
	 * Ericson's by Lagrange's identity, up to the factor |n|) they keep
	 * nearly all. */
	bcVec3 cp = bcSub(p, c);
	bcVec3 n = rawNormal(a, b, c, ab, bcSub(c, b), bcSub(a, c));
	double vc = bcDot(n, bcCross(ap, bp));

	/* Edge region AB. */
	if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
		double v = d1 / (d1 - d3);
		return makeResult(p, bcMulAdd(a, v, ab), bc_featureEdge, 2, 0, 1, 1.0 - v, v, 0.0);
	}

	/* Vertex region C. */
	double d5 = bcDot(ab, cp);
	double d6 = bcDot(ac, cp);
	if (d6 >= 0.0 && d5 <= d6) {
		return makeResult(p, c, bc_featureVertex, 1, 2, -1, 0.0, 0.0, 1.0);
	}

	/* Edge region CA. */
	double vb = bcDot(n, bcCross(cp, ap));
	if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
		double w = d2 / (d2 - d6);
		return makeResult(p, bcMulAdd(a, w, ac), bc_featureEdge, 2, 2, 0, 1.0 - w, 0.0, w);
	}

	/* Edge region BC. */
	double va = bcDot(n, bcCross(bp, cp));
	if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
		double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
		return makeResult(p, bcMulAdd(b, w, bcSub(c, b)), bc_featureEdge, 2, 1, 2, 0.0, 1.0 - w, w);
	}

	/* Face region: p projected on the plane along the normal (not the
	 * barycentric sum a + v ab + w ac, whose rounding grows with the
	 * edges' length rather than with p's distance). */
	double nn = bcDot(n, n);
	if (!(nn > 0.0) || !isfinite(nn) || !(va + vb + vc > 0.0)) {
		/* A degenerate triangle: no face region, the closest of its edges. */
		bcClosestPoint best = closestOnEdge(p, a, b, 0, 1);
		bcClosestPoint e1 = closestOnEdge(p, b, c, 1, 2);
		bcClosestPoint e2 = closestOnEdge(p, c, a, 2, 0);
		if (e1.distance < best.distance) {
			best = e1;
		}
		if (e2.distance < best.distance) {
			best = e2;
		}
		return best;
	}
	double s = bcDot(n, ap);
	bcVec3 q = bcMulAdd(p, -s / nn, n);
	/* Seed 004's weights: the signed areas of QBC, QCA, QAB over that of
	 * ABC (va, vb, vc are those of p, the same as q's: moving p along n
	 * changes no triple product with n). */
	double sum = va + vb + vc;
	return makeResult(p, q, bc_featureFace, 3, 0, 1, va / sum, vb / sum, vc / sum);
}
