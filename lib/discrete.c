/* discrete.c - the course slides' static interference test: time stepping with
 * bisection, the lecture's first algorithm and the reason exact prediction
 * (lib/cast.c) exists.
 *
 * The ball is tested where it stands at alpha = 0, dt, 2 dt, ... and 1
 * (the last step may be shorter). The test is bcMesh_Cast's contact test
 * taken at one instant: is the centre within r of a counted triangle
 * (the same front-face rule and options)? The first step [t, t + dt] whose
 * end is in contact is halved N times, keeping the half whose end is in
 * contact, and the answer is the end of the last interval: the first alpha
 * the method saw in contact. The seed's pseudocode returns its start t
 * (the last alpha seen free); the end is returned here so that the answer
 * is a contact, never earlier than the first real one, and the start is
 * given beside it (lower).
 *
 * What it misses: whatever lies between two tests. A ball that enters and
 * leaves the region within r of the mesh between t and t + dt (a thin
 * wall, a grazing pass, a point, which is within 0 of a surface only at
 * one instant) is not seen: it tunnels. Where the contact region is
 * crossed in more than a step, the answer is within dt / 2^N after the
 * first contact, and never before it.
 *
 * Which triangles are within r of the centre is asked of the mesh's
 * hierarchy (bcBvh_QueryPoint, padded boxes, so none is skipped); which
 * of them count is the cast's rule, on the exact sign of N . d; the
 * distance to a triangle is measured in floating point, |n . (p - a)|
 * when the closest point is in the face region, else the distance to it
 * (lib/closest_triangle.c): a test at a sampled alpha has no boundary to decide
 * exactly, a contact within rounding of r may go either way.
 */
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "predicates.h"
#include "sweep.h"
#include "vec3.h"

bcDiscreteOptions bcDefaultDiscreteOptions(void)
{
	bcDiscreteOptions options;
	options.step = BC_DISCRETE_DEFAULT_STEP;
	options.bisections = BC_DISCRETE_DEFAULT_BISECTIONS;
	options.cast = bcDefaultCastOptions();
	return options;
}

/* One search of the triangles within r of a centre. */
typedef struct bcDiscreteSearch {
	const bcMesh* mesh;
	bcVec3 p0, p1;
	bcVec3 d;               /* p1 - p0: which side of a triangle counts */
	double radius;
	bcCastOptions options;
	/* one query */
	bcVec3 center;
	bool atStart;           /* center is p0 */
	bool first;             /* stop at the first triangle in contact */
	int32_t lowest;         /* the lowest triangle in contact, -1 if none */
	int32_t lowestOverlap;  /* at p0: the lowest triangle closer than r, -1 if none */
} bcDiscreteSearch;

/* Within BC_MAX_COORDINATE on every axis (false for NaN): a triangle beyond
 * it is never hit by a cast, and so never touched here either. */
static bool withinRange(bcVec3 v)
{
	return fabs(v.x) <= BC_MAX_COORDINATE && fabs(v.y) <= BC_MAX_COORDINATE && fabs(v.z) <= BC_MAX_COORDINATE;
}

/* Does triangle t count for the motion p0 -> p1? bcMesh_Cast's front-face
 * rule on the exact sign of N . d (N = (b - a) x (c - a), d = p1 - p0), as
 * lib/sweep.c takes it: from the stored unit normal when the product is
 * farther from 0 than the normal's error bound allows, else exactly. */
static bool isCounted(const bcDiscreteSearch* search, int32_t t)
{
	const bcMesh* mesh = search->mesh;
	bcVec3 n = mesh->normals[t];
	if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
		return false; /* degenerate: never hit */
	}
	if (search->options.twoSided) {
		return true;
	}
	bcVec3 d = search->d;
	double nd = bcDot(n, d);
	double error = ((double)mesh->normalErrors[t] + 8.0 * BC_UNIT_ROUNDOFF) * (fabs(d.x) + fabs(d.y) + fabs(d.z));
	int approach;
	if (nd > error) {
		approach = 1;
	} else if (nd < -error) {
		approach = -1;
	} else {
		const int32_t* v = mesh->triangles + 3 * (size_t)t;
		approach = bcExactCrossDotSign(mesh->vertices[v[0]], mesh->vertices[v[1]], mesh->vertices[v[2]], search->p0,
									   search->p1);
	}
	return search->options.approach == bc_approachLess ? approach < 0 : approach <= 0;
}

/* The distance from p to triangle t as the cast measures it, with the
 * closest point in cp. */
static double measure(const bcMesh* mesh, int32_t t, bcVec3 p, bcClosestPoint* cp)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcVec3 a = mesh->vertices[v[0]], b = mesh->vertices[v[1]], c = mesh->vertices[v[2]];
	*cp = bcClosestPointTriangle(p, a, b, c);
	if (cp->feature == bc_featureFace) {
		return fabs(bcDot(mesh->normals[t], bcSub(p, a)));
	}
	return cp->distance;
}

/* Test triangle t against the current centre; false to stop the search. */
static bool testTriangle(bcDiscreteSearch* search, int32_t t)
{
	const bcMesh* mesh = search->mesh;
	if (!isCounted(search, t)) {
		return true;
	}
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	if (!withinRange(mesh->vertices[v[0]]) || !withinRange(mesh->vertices[v[1]]) ||
		!withinRange(mesh->vertices[v[2]])) {
		return true;
	}
	bcClosestPoint cp;
	double distance = measure(mesh, t, search->center, &cp);
	if (!(distance <= search->radius)) {
		return true;
	}
	if (search->atStart && distance < search->radius) {
		if (search->lowestOverlap < 0 || t < search->lowestOverlap) {
			search->lowestOverlap = t;
		}
	}
	if (search->options.overlap == bc_overlapIgnore) {
		/* A triangle the ball overlaps at alpha 0 is skipped entirely, as
		 * the cast skips it: measured again at p0 (only the few triangles
		 * within r of the centre get here). */
		double start = search->atStart ? distance : measure(mesh, t, search->p0, &cp);
		if (start < search->radius) {
			return true;
		}
	}
	if (search->lowest < 0 || t < search->lowest) {
		search->lowest = t;
	}
	return !search->first;
}

static void visitTriangle(void* context, int32_t triangle, double* maxDistance)
{
	if (!testTriangle(context, triangle)) {
		*maxDistance = -1.0; /* no box is nearer than that: the walk ends */
	}
}

/* Is the ball, centred at center, in contact with a counted triangle?
 * Fills search->lowest (the lowest such triangle, unless first is set). */
static bool interferes(bcDiscreteSearch* search, bcVec3 center, bool first)
{
	search->center = center;
	search->first = first;
	search->lowest = -1;
	const bcMesh* mesh = search->mesh;
	if (search->options.bruteForce || mesh->bvh == NULL) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			if (!testTriangle(search, t)) {
				break;
			}
		}
	} else {
		double maxDistance = search->radius;
		bcBvh_QueryPoint(mesh->bvh, center, &maxDistance, visitTriangle, search);
	}
	return search->lowest >= 0;
}

/* The ball's centre at alpha (p0 and p1 exactly at the ends). */
static bcVec3 centerAt(bcCastInput input, bcVec3 d, double alpha)
{
	return alpha == 0.0 ? input.p0 : (alpha == 1.0 ? input.p1 : bcMulAdd(input.p0, alpha, d));
}

/* Fill the contact with triangle t at alpha. */
static void fillContact(const bcMesh* mesh, int32_t t, bcVec3 center, bcVec3 d, bcDiscreteOutput* out)
{
	bcClosestPoint cp;
	double distance = measure(mesh, t, center, &cp);
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	bcVec3 n = mesh->normals[t];
	out->triangle = t;
	out->face = mesh->faceIds[t];
	out->feature = cp.feature;
	out->vertexCount = cp.vertexCount;
	for (int k = 0; k < cp.vertexCount; ++k) {
		out->vertices[k] = v[cp.vertices[k]];
	}
	out->distance = distance;
	out->center = center;
	bcVec3 normal;
	if (cp.feature == bc_featureFace) {
		double s = bcDot(n, bcSub(center, mesh->vertices[v[0]]));
		out->point = bcMulAdd(center, -s, n);
		normal = s > 0.0 ? n : (s < 0.0 ? bcNeg(n) : bcMakeVec3(0.0, 0.0, 0.0));
	} else {
		out->point = cp.point;
		normal = bcNormalize(bcSub(center, cp.point));
	}
	if (normal.x == 0.0 && normal.y == 0.0 && normal.z == 0.0) {
		/* the centre on the triangle: its normal turned against the motion */
		normal = bcDot(n, d) > 0.0 ? bcNeg(n) : n;
	}
	out->normal = bcPositiveZeros(normal);
	out->point = bcPositiveZeros(out->point);
}

static bool isValidOptions(const bcDiscreteOptions* options)
{
	return options->step >= BC_DISCRETE_MIN_STEP && options->step <= 1.0 && options->bisections >= 0 &&
		   options->bisections <= BC_DISCRETE_MAX_BISECTIONS;
}

bcDiscreteOutput bcMesh_CastDiscrete(const bcMesh* mesh, bcCastInput input, const bcDiscreteOptions* options)
{
	bcDiscreteOptions o = options != NULL ? *options : bcDefaultDiscreteOptions();
	if (!bcIsValidCastInput(input) || !isValidOptions(&o)) {
		return (bcDiscreteOutput)BC_NO_CONTACT(bc_castInvalid);
	}
	bcVec3 d = bcSub(input.p1, input.p0);
	bcDiscreteSearch search;
	memset(&search, 0, sizeof search);
	search.mesh = mesh;
	search.p0 = input.p0;
	search.p1 = input.p1;
	search.d = d;
	search.radius = input.radius;
	search.options = o.cast;
	search.lowestOverlap = -1;

	/* Seed 002 tests the start first: an overlap there is the cast's
	 * initial overlap (or, ignored, sets those triangles aside), a touch
	 * (distance exactly r) a contact at alpha 0. */
	bcDiscreteOutput out = BC_NO_CONTACT(bc_castMiss);
	search.atStart = true;
	bool touching = interferes(&search, input.p0, false);
	search.atStart = false;
	out.testCount = 1;
	if (search.lowestOverlap >= 0 && o.cast.overlap == bc_overlapReport) {
		out.state = bc_castInitialOverlap;
		out.alpha = 0.0;
		fillContact(mesh, search.lowestOverlap, input.p0, d, &out);
		return out;
	}
	if (touching) {
		out.state = bc_castHit;
		out.alpha = 0.0;
		fillContact(mesh, search.lowest, input.p0, d, &out);
		return out;
	}
	bool moving = d.x != 0.0 || d.y != 0.0 || d.z != 0.0;

	/* Step: alpha_k = k dt, the last one 1. */
	double lower = 0.0, upper = 0.0;
	bool found = false;
	for (long long k = 1; moving && lower < 1.0; ++k) {
		double alpha = (double)k * o.step;
		upper = alpha < 1.0 ? alpha : 1.0;
		out.testCount += 1;
		if (interferes(&search, centerAt(input, d, upper), true)) {
			found = true;
			break;
		}
		lower = upper;
	}
	if (found) {
		/* Halve [lower, upper] N times, keeping the half whose end is in
		 * contact (until no double lies between the ends). */
		for (int i = 0; i < o.bisections; ++i) {
			double mid = lower + 0.5 * (upper - lower);
			if (!(mid > lower && mid < upper)) {
				break;
			}
			out.testCount += 1;
			if (interferes(&search, centerAt(input, d, mid), true)) {
				upper = mid;
			} else {
				lower = mid;
			}
		}
		bcVec3 center = centerAt(input, d, upper);
		interferes(&search, center, false);
		out.state = bc_castHit;
		out.alpha = upper;
		out.lower = lower;
		fillContact(mesh, search.lowest, center, d, &out);
	} else {
		out.lower = 1.0;
	}
	return out;
}
