/* closest.c - the closest point of a triangle to a point, by Voronoi regions
 * (Ericson, Real-Time Collision Detection 5.1.5; seed 004). */
#include "ballcast.h"
#include "vec3.h"

static bcClosestPoint makeResult(bcVec3 p, bcVec3 q, bcFeature feature, int count, int v0, int v1)
{
	bcClosestPoint r;
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

/* Closest point on segment P + t (Q - P), t in [0, 1]; for degenerate triangles. */
static bcClosestPoint closestOnEdge(bcVec3 p, bcVec3 a, bcVec3 b, int ia, int ib)
{
	bcVec3 e = bcSub(b, a);
	double ee = bcDot(e, e);
	double t = ee > 0.0 ? bcDot(bcSub(p, a), e) / ee : 0.0;
	if (t <= 0.0) {
		return makeResult(p, a, bc_featureVertex, 1, ia, -1);
	}
	if (t >= 1.0) {
		return makeResult(p, b, bc_featureVertex, 1, ib, -1);
	}
	return makeResult(p, bcMulAdd(a, t, e), bc_featureEdge, 2, ia, ib);
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
		return makeResult(p, a, bc_featureVertex, 1, 0, -1);
	}

	/* Vertex region B. */
	bcVec3 bp = bcSub(p, b);
	double d3 = bcDot(ab, bp);
	double d4 = bcDot(ac, bp);
	if (d3 >= 0.0 && d4 <= d3) {
		return makeResult(p, b, bc_featureVertex, 1, 1, -1);
	}

	/* Edge region AB: vc = n . (PA x PB) by Lagrange's identity. */
	double vc = d1 * d4 - d3 * d2;
	if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
		double v = d1 / (d1 - d3);
		return makeResult(p, bcMulAdd(a, v, ab), bc_featureEdge, 2, 0, 1);
	}

	/* Vertex region C. */
	bcVec3 cp = bcSub(p, c);
	double d5 = bcDot(ab, cp);
	double d6 = bcDot(ac, cp);
	if (d6 >= 0.0 && d5 <= d6) {
		return makeResult(p, c, bc_featureVertex, 1, 2, -1);
	}

	/* Edge region CA. */
	double vb = d5 * d2 - d1 * d6;
	if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
		double w = d2 / (d2 - d6);
		return makeResult(p, bcMulAdd(a, w, ac), bc_featureEdge, 2, 2, 0);
	}

	/* Edge region BC. */
	double va = d3 * d6 - d5 * d4;
	if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
		double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
		return makeResult(p, bcMulAdd(b, w, bcSub(c, b)), bc_featureEdge, 2, 1, 2);
	}

	/* Face region: barycentric coordinates from the signed areas. */
	double sum = va + vb + vc;
	if (!(sum > 0.0) || !isfinite(sum)) {
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
	double denom = 1.0 / sum;
	double v = vb * denom;
	double w = vc * denom;
	bcVec3 q = bcAdd(a, bcAdd(bcScale(v, ab), bcScale(w, ac)));
	bcClosestPoint r = makeResult(p, q, bc_featureFace, 3, 0, 1);
	return r;
}
