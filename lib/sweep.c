/* sweep.c - a ball moving along a segment against ONE triangle.
 *
 * The set of centres within r of a triangle is the union of a slab-shaped
 * prism over the face, three cylinders around the edges and three balls
 * around the vertices. The earliest contact is the earliest entry into any
 * of these pieces:
 *  - face: the plane pushed out by r towards the ball, crossed at alpha_f,
 *    with the crossing inside the triangle. The inside test is the
 *    watertight ray/triangle test of Woop, Benthin and Wald (2013) on the
 *    ray from p0 - r n: for r = 0 two triangles sharing an edge compute that
 *    edge's function bit for bit alike (with opposite signs), so a point
 *    never slips through a shared edge or vertex;
 *  - edge: the moving centre against the cylinder of radius r around the
 *    edge's line, |(m + alpha d) x e|^2 = r^2 |e|^2, clipped to the segment;
 *  - vertex: |m + alpha d|^2 = r^2, the smaller root (seed 000).
 * Roots use the cancellation-free form c / (-b + sqrt(b^2 - ac)).
 *
 * A ball already within r at alpha = 0 is decided first from the closest
 * point (seed 004); in the face region its distance is |n . (p0 - a)|, the
 * same number the face test uses, so the two tests never disagree.
 */
#include "sweep.h"

#include <float.h>

#include "vec3.h"

static const double bcInfinity = HUGE_VAL;

bcCastOptions bcDefaultCastOptions(void)
{
	bcCastOptions options = { false, bc_approachLessEqual, bc_overlapReport, false };
	return options;
}

bcSweepQuery bcMakeSweepQuery(bcCastInput input, const bcCastOptions* options)
{
	bcSweepQuery q;
	q.p0 = input.p0;
	q.p1 = input.p1;
	q.d = bcSub(input.p1, input.p0);
	q.radius = input.radius;
	q.options = options != NULL ? *options : bcDefaultCastOptions();
	q.moving = q.d.x != 0.0 || q.d.y != 0.0 || q.d.z != 0.0;

	double ax = fabs(q.d.x), ay = fabs(q.d.y), az = fabs(q.d.z);
	q.kz = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
	q.kx = (q.kz + 1) % 3;
	q.ky = (q.kx + 1) % 3;
	double dz = bcComponent(q.d, q.kz);
	if (dz < 0.0) {
		int swap = q.kx;
		q.kx = q.ky;
		q.ky = swap;
	}
	q.sx = q.moving ? bcComponent(q.d, q.kx) / dz : 0.0;
	q.sy = q.moving ? bcComponent(q.d, q.ky) / dz : 0.0;
	return q;
}

bcVec3 bcTriangleNormal(bcVec3 a, bcVec3 b, bcVec3 c)
{
	const bcVec3 zero = { 0.0, 0.0, 0.0 };
	bcVec3 ab = bcSub(b, a), bc = bcSub(c, b), ca = bcSub(a, c);
	double lab = bcSafeLength(ab), lbc = bcSafeLength(bc), lca = bcSafeLength(ca);
	/* Cross the two edges meeting opposite the longest one; every cyclic
	 * choice has the orientation of (b - a) x (c - a). */
	bcVec3 n;
	double longest, product;
	if (lab >= lbc && lab >= lca) {
		n = bcCross(bc, ca);
		longest = lab;
		product = lab * (lbc > lca ? lbc : lca);
	} else if (lbc >= lca) {
		n = bcCross(ca, ab);
		longest = lbc;
		product = lbc * (lab > lca ? lab : lca);
	} else {
		n = bcCross(ab, bc);
		longest = lca;
		product = lca * (lab > lbc ? lab : lbc);
	}
	double area2 = bcSafeLength(n);
	if (!(area2 > 0.0) || !isfinite(area2) || !(longest > 0.0) || area2 <= BC_SLIVER_SINE * product) {
		return zero;
	}
	return bcPositiveZeros(bcNormalize(n));
}

/* Within BC_MAX_COORDINATE on every axis (false for NaN). */
static bool withinRange(bcVec3 v)
{
	return fabs(v.x) <= BC_MAX_COORDINATE && fabs(v.y) <= BC_MAX_COORDINATE && fabs(v.z) <= BC_MAX_COORDINATE;
}

/* Does the triangle count for a motion with dot(n, d) = nd? */
static bool isCounted(const bcCastOptions* options, double nd)
{
	if (options->twoSided) {
		return true;
	}
	return options->approach == bc_approachLess ? nd < 0.0 : nd <= 0.0;
}

/* Does the line o + t d cross triangle (a, b, c), boundary included?
 * Edge functions are evaluated in the sheared frame of the query. */
static bool crossesTriangle(const bcSweepQuery* q, bcVec3 o, bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 ra = bcSub(a, o), rb = bcSub(b, o), rc = bcSub(c, o);
	double az = bcComponent(ra, q->kz), bz = bcComponent(rb, q->kz), cz = bcComponent(rc, q->kz);
	double ax = bcComponent(ra, q->kx) - q->sx * az;
	double ay = bcComponent(ra, q->ky) - q->sy * az;
	double bx = bcComponent(rb, q->kx) - q->sx * bz;
	double by = bcComponent(rb, q->ky) - q->sy * bz;
	double cx = bcComponent(rc, q->kx) - q->sx * cz;
	double cy = bcComponent(rc, q->ky) - q->sy * cz;
	double u = cx * by - cy * bx;
	double v = ax * cy - ay * cx;
	double w = bx * ay - by * ax;
	/* Written so that a NaN (from overflow) is never inside. */
	bool inside = (u >= 0.0 && v >= 0.0 && w >= 0.0) || (u <= 0.0 && v <= 0.0 && w <= 0.0);
	double det = u + v + w;
	return inside && det != 0.0 && isfinite(det);
}

/* How far off the triangle a face contact may lie: BC_FACE_SLACK of the
 * triangle's size and distance from the start, plus BC_FACE_SLACK_ULPS units
 * in the last place of the coordinates themselves (a scene 1e9 from the
 * origin carries 1e-7 of rounding in every position). Rounding puts a true
 * contact well within that; a motion nearly parallel to the plane can fool
 * the line test by far more, and such contacts are left to the edges. */
#define BC_FACE_SLACK 1e-9
#define BC_FACE_SLACK_ULPS 64.0

/* The largest |component| (ternaries, not fmax: a libm call where NaN
 * rules keep the compiler from using the max instruction; the inputs here
 * are finite). */
static inline double magnitude(bcVec3 v)
{
	double x = fabs(v.x), y = fabs(v.y), z = fabs(v.z);
	double m = x > y ? x : y;
	return m > z ? m : z;
}

/* The plane test below skips a triangle only when the centre stays this
 * fraction of the scene's local size (r + |p0 - a| + |d|) beyond r from the
 * plane. s = n . (p - a) rounds by a few ulps of that size (n itself is
 * unit to a few ulps), so 1e-9 is a margin of ten million ulps: no contact
 * the exact pieces would find, even in a tie, is ever skipped. */
#define BC_PLANE_REJECT_SLACK 1e-9

/* Is x (a point of the triangle's plane) on the triangle, up to slack? */
static bool onTriangle(bcVec3 x, bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcClosestPoint cp = bcClosestPointTriangle(x, a, b, c);
	double scale = bcDistance(x, a) + bcDistance(b, a) + bcDistance(c, a);
	double coordinates = fmax(magnitude(x), fmax(magnitude(a), fmax(magnitude(b), magnitude(c))));
	return cp.distance <= BC_FACE_SLACK * scale + BC_FACE_SLACK_ULPS * DBL_EPSILON * coordinates;
}

static int slotOfClosest(const bcClosestPoint* cp)
{
	if (cp->feature == bc_featureFace) {
		return bc_slotFace;
	}
	if (cp->feature == bc_featureVertex) {
		return bc_slotVertex0 + cp->vertices[0];
	}
	/* Edges are AB (0,1), BC (1,2), CA (2,0). */
	return bc_slotEdge0 + cp->vertices[0];
}

bool bcSweepTriangle(const bcSweepQuery* q, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, double maxAlpha,
					 bcSweepResult* result)
{
	double nd = bcDot(n, q->d);
	if (!isCounted(&q->options, nd) || !withinRange(a) || !withinRange(b) || !withinRange(c)) {
		return false;
	}
	for (int i = 0; i < bc_slotCount; ++i) {
		result->alpha[i] = bcInfinity;
	}
	result->overlap = false;
	result->best = bcInfinity;

	const double r = q->radius;
	const double rr = r * r;
	const double s0 = bcDot(n, bcSub(q->p0, a));

	/* Already within r at alpha = 0? */
	if (fabs(s0) <= r) {
		bcClosestPoint cp = bcClosestPointTriangle(q->p0, a, b, c);
		double distance = cp.feature == bc_featureFace ? fabs(s0) : cp.distance;
		if (distance <= r) {
			if (distance < r) {
				if (q->options.overlap == bc_overlapIgnore) {
					return false;
				}
				result->overlap = true;
			}
			result->alpha[slotOfClosest(&cp)] = 0.0;
			result->best = 0.0;
			return true;
		}
	}
	if (!q->moving) {
		return false;
	}

	/* Every point of the triangle lies in its plane, so a centre farther
	 * than r from the plane is farther than r from the triangle. When the
	 * centre stays beyond r + slack on one side for all alpha in
	 * [0, maxAlpha] (s is linear in alpha: its ends bound it), no piece
	 * below can be entered; this rejects most triangles a short sweep's
	 * boxes bring, at the cost of two products. */
	double s1 = s0 + maxAlpha * nd;
	double slack = BC_PLANE_REJECT_SLACK * (r + magnitude(bcSub(q->p0, a)) + magnitude(q->d));
	if ((s0 > r + slack && s1 > r + slack) || (s0 < -r - slack && s1 < -r - slack)) {
		return false;
	}

	bool found = false;
	const bcVec3 vertex[3] = { a, b, c };

	/* Face: the plane at signed distance sigma * r, crossed inside. */
	if (nd != 0.0) {
		double sigma = nd < 0.0 ? 1.0 : -1.0;
		double alpha = (sigma * r - s0) / nd;
		if (alpha >= 0.0 && alpha <= maxAlpha) {
			bcVec3 o = r > 0.0 ? bcMulAdd(q->p0, -sigma * r, n) : q->p0;
			if (crossesTriangle(q, o, a, b, c) && onTriangle(bcMulAdd(o, alpha, q->d), a, b, c)) {
				result->alpha[bc_slotFace] = alpha;
				found = true;
			}
		}
	}

	/* Edges AB, BC, CA: the cylinder of radius r, clipped to the segment. */
	for (int k = 0; k < 3; ++k) {
		bcVec3 p = vertex[k];
		bcVec3 e = bcSub(vertex[(k + 1) % 3], p);
		bcVec3 m = bcSub(q->p0, p);
		double ee = bcDot(e, e);
		bcVec3 me = bcCross(m, e);
		double cc = bcDot(me, me) - rr * ee;
		double alpha;
		if (cc <= 0.0) {
			/* Within r of the line at alpha = 0 (the closest-point test said
			 * otherwise only through rounding): a touch at 0 if beside the segment. */
			alpha = 0.0;
		} else {
			bcVec3 de = bcCross(q->d, e);
			double aa = bcDot(de, de);
			double bb = bcDot(me, de);
			if (!(aa > 0.0) || !(bb < 0.0)) {
				continue;
			}
			/* bb^2 - aa cc, rewritten by Lagrange's identity as
			 * ee (aa r^2 - tau^2) with tau = m . (d x e) the triple product
			 * (the factor ee kept outside the square root against overflow):
			 * the textbook form cancels all its digits when the path starts
			 * far from the edge compared with r, and for r = 0 this is >= 0
			 * exactly when the path is coplanar with the edge. */
			double tau = bcDot(m, de);
			double disc = aa * rr - tau * tau;
			if (!(disc >= 0.0) || !isfinite(disc)) {
				continue;
			}
			alpha = cc / (sqrt(ee) * sqrt(disc) - bb);
		}
		if (!(alpha <= maxAlpha)) {
			continue;
		}
		double t = (bcDot(m, e) + alpha * bcDot(q->d, e)) / ee;
		if (t >= 0.0 && t <= 1.0) {
			result->alpha[bc_slotEdge0 + k] = alpha;
			found = true;
		}
	}

	/* Vertices: the smaller root of |m + alpha d|^2 = r^2. */
	double dd = bcDot(q->d, q->d);
	for (int k = 0; k < 3; ++k) {
		bcVec3 m = bcSub(q->p0, vertex[k]);
		double cc = bcDot(m, m) - rr;
		double alpha;
		if (cc <= 0.0) {
			alpha = 0.0;
		} else {
			double bb = bcDot(m, q->d);
			if (!(bb < 0.0)) {
				continue;
			}
			/* bb^2 - dd cc = dd r^2 - |m x d|^2 (Lagrange's identity), free of
			 * the cancellation of the textbook form; for r = 0 it is >= 0 only
			 * on a path through the vertex exactly. */
			bcVec3 md = bcCross(m, q->d);
			double disc = dd * rr - bcDot(md, md);
			if (!(disc >= 0.0) || !isfinite(disc)) {
				continue;
			}
			alpha = cc / (sqrt(disc) - bb);
		}
		if (alpha <= maxAlpha) {
			result->alpha[bc_slotVertex0 + k] = alpha;
			found = true;
		}
	}

	if (!found) {
		return false;
	}
	double best = bcInfinity;
	for (int i = 0; i < bc_slotCount; ++i) {
		best = result->alpha[i] < best ? result->alpha[i] : best;
	}
	result->best = best;
	return best <= maxAlpha;
}

bcFeature bcSlotFeature(int slot, int* vertexCount, int vertices[3])
{
	if (slot == bc_slotFace) {
		*vertexCount = 3;
		vertices[0] = 0;
		vertices[1] = 1;
		vertices[2] = 2;
		return bc_featureFace;
	}
	if (slot < bc_slotVertex0) {
		int k = slot - bc_slotEdge0;
		*vertexCount = 2;
		vertices[0] = k;
		vertices[1] = (k + 1) % 3;
		vertices[2] = -1;
		return bc_featureEdge;
	}
	*vertexCount = 1;
	vertices[0] = slot - bc_slotVertex0;
	vertices[1] = -1;
	vertices[2] = -1;
	return bc_featureVertex;
}

void bcSweepContact(const bcSweepQuery* q, bcVec3 a, bcVec3 b, bcVec3 c, bcVec3 n, int slot, double alpha,
					bcCastOutput* output)
{
	bcVec3 center = alpha == 0.0 ? q->p0 : (alpha == 1.0 ? q->p1 : bcMulAdd(q->p0, alpha, q->d));
	/* Where the centre lies on the triangle: the normal turned against the motion. */
	bcVec3 fallback = bcDot(n, q->d) > 0.0 ? bcNeg(n) : n;
	bcVec3 point;
	bcVec3 normal;
	if (slot == bc_slotFace) {
		double s = bcDot(n, bcSub(center, a));
		point = bcMulAdd(center, -s, n);
		normal = s > 0.0 ? n : (s < 0.0 ? bcNeg(n) : fallback);
	} else {
		const bcVec3 vertex[3] = { a, b, c };
		if (slot < bc_slotVertex0) {
			int k = slot - bc_slotEdge0;
			bcVec3 p = vertex[k];
			bcVec3 e = bcSub(vertex[(k + 1) % 3], p);
			double t = bcDot(bcSub(center, p), e) / bcDot(e, e);
			t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
			point = bcMulAdd(p, t, e);
		} else {
			point = vertex[slot - bc_slotVertex0];
		}
		normal = bcNormalize(bcSub(center, point));
		if (normal.x == 0.0 && normal.y == 0.0 && normal.z == 0.0) {
			normal = fallback;
		}
	}
	output->alpha = alpha;
	output->center = center;
	output->point = point;
	output->normal = bcPositiveZeros(normal);
	output->triangleNormal = n;
}

/* The first slot, in tie order, whose alpha is within threshold. */
static int chooseSlot(const bcSweepResult* result, double threshold)
{
	for (int i = 0; i < bc_slotCount; ++i) {
		if (result->alpha[i] <= threshold) {
			return i;
		}
	}
	return -1;
}

static bcCastOutput missOutput(bcCastState state)
{
	bcCastOutput out = { 0 };
	out.state = state;
	out.alpha = 1.0;
	out.triangle = -1;
	out.face = -1;
	out.feature = bc_featureNone;
	out.vertices[0] = out.vertices[1] = out.vertices[2] = -1;
	return out;
}

bool bcIsValidCastInput(bcCastInput input)
{
	/* The comparisons are false for NaN, so NaN is refused too. */
	return withinRange(input.p0) && withinRange(input.p1) && input.radius >= 0.0 &&
		   input.radius <= BC_MAX_COORDINATE;
}

bcCastOutput bcCastTriangle(bcVec3 a, bcVec3 b, bcVec3 c, bcCastInput input, const bcCastOptions* options)
{
	if (!bcIsValidCastInput(input)) {
		return missOutput(bc_castInvalid);
	}
	bcVec3 n = bcTriangleNormal(a, b, c);
	bcCastOutput out = missOutput(bc_castMiss);
	if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
		return out;
	}
	bcSweepQuery q = bcMakeSweepQuery(input, options);
	bcSweepResult result;
	if (!bcSweepTriangle(&q, a, b, c, n, 1.0, &result)) {
		return out;
	}
	int slot = chooseSlot(&result, result.best + BC_ALPHA_TIE_TOLERANCE);
	out.state = result.overlap ? bc_castInitialOverlap : bc_castHit;
	out.triangle = 0;
	out.face = 0;
	out.feature = bcSlotFeature(slot, &out.vertexCount, out.vertices);
	out.tieCount = 0;
	for (int i = 0; i < bc_slotCount; ++i) {
		out.tieCount += result.alpha[i] <= result.best + BC_ALPHA_TIE_TOLERANCE;
	}
	bcSweepContact(&q, a, b, c, n, slot, result.alpha[slot], &out);
	return out;
}
