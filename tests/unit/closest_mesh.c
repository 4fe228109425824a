/* closest_mesh.c tests: the closest point of a whole mesh (a ball at rest).
 *
 * Hand-computed answers on one and two triangles; exact answers for points
 * exactly on vertices and edges (which go to the vertex and the edge, on the
 * lowest-numbered triangle that has them); the bounding volume hierarchy
 * against the brute-force loop bit for bit; and every distance against an
 * independent reference: the minimum over all triangles of the plane
 * projection when its barycentric coordinates (solved with Cramer's rule)
 * are all >= 0, else of the three clamped edge projections. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "bvh.h"
#include "harness.h"
#include "mesh.h"
#include "meshgen.h"
#include "vec3.h"

/* Distances agree with the reference to this, relative to the distance,
 * for points at least REFERENCE_NEAR * L from the mesh (L the coordinate
 * scale); nearer points are compared to REFERENCE_RELATIVE * REFERENCE_NEAR
 * * L absolutely, since there rounding of the coordinates (a few ulps of L)
 * is all either side can resolve. A tie may add the tie window on top. */
#define REFERENCE_RELATIVE 1e-12
#define REFERENCE_NEAR 1e-3

/* Random points per generated mesh, and on the bunny (brute force there
 * costs a pass over 70k triangles per point). Under AddressSanitizer,
 * where every check runs several times slower, fewer of each. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define POINTS_PER_MESH 900
#define BUNNY_POINTS 90
#define BUNNY_REFERENCE_POINTS 12
#else
#define POINTS_PER_MESH 3000
#define BUNNY_POINTS 400
#define BUNNY_REFERENCE_POINTS 40
#endif

/* Hand-computed normals are matched to two ulps of 1: a unit vector is a
 * quotient of rounded numbers. Axis-aligned ones come out exact. */
#define NORMAL_ULPS (2.0 * DBL_EPSILON)

/* ------------------------------------------------------------- helpers */

static bcMesh* makeMesh(const double* v, int32_t vertexCount, const int32_t* t, int32_t triangleCount)
{
	bcMeshDef def = { v, vertexCount, t, triangleCount, NULL, 0 };
	bcError error;
	bcMesh* mesh = bcMesh_Create(&def, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	return mesh;
}

/* A(0,0,0) B(1,0,0) C(0,1,0), front normal +z. */
static bcMesh* oneTriangle(double scale)
{
	const double v[] = { 0, 0, 0, scale, 0, 0, 0, scale, 0 };
	const int32_t t[] = { 0, 1, 2 };
	return makeMesh(v, 3, t, 1);
}

/* The unit square in z = 0 split along (0,0)-(1,1): triangles (0 1 2) and
 * (0 2 3), normals +z. */
static bcMesh* twoTriangles(void)
{
	const double v[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	return makeMesh(v, 4, t, 2);
}

static bool sameBits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static bool sameVec(bcVec3 a, bcVec3 b)
{
	return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

static bool sameOutput(const bcClosestOutput* a, const bcClosestOutput* b)
{
	return a->state == b->state && sameBits(a->distance, b->distance) && sameVec(a->point, b->point) &&
		   a->triangle == b->triangle && a->face == b->face && a->feature == b->feature &&
		   a->vertexCount == b->vertexCount && memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 &&
		   sameVec(a->normal, b->normal) && a->overlap == b->overlap && sameBits(a->depth, b->depth) &&
		   a->tieCount == b->tieCount && sameBits(a->barycentric[0], b->barycentric[0]) &&
		   sameBits(a->barycentric[1], b->barycentric[1]) && sameBits(a->barycentric[2], b->barycentric[2]);
}

/* Seed 004's barycentric coordinates of the answer: the weights of its
 * triangle's A, B, C (file order) sum to 1, are >= 0, and make the point
 * to 1e-12 of the coordinates; a vertex gets exactly 1 in its own place
 * and 0 elsewhere, an edge exactly 0 for the vertex opposite it. */
static void checkBarycentric(const bcMesh* mesh, double L, const bcClosestOutput* out)
{
	bcTriangle tri = bcMesh_GetTriangle(mesh, out->triangle);
	const double* w = out->barycentric;
	bcAssertNear(w[0] + w[1] + w[2], 1.0, 4.0 * DBL_EPSILON);
	bcVec3 made = { 0, 0, 0 };
	for (int k = 0; k < 3; ++k) {
		ck_assert_msg(w[k] >= -1e-12, "weight %d is %.17g", k, w[k]);
		made = bcMulAdd(made, w[k], bcMesh_GetVertex(mesh, tri.vertices[k]));
	}
	ck_assert_msg(bcDistance(made, out->point) <= 1e-12 * L, "the weights make a point %g off",
				  bcDistance(made, out->point));
	if (out->feature == bc_featureVertex) {
		for (int k = 0; k < 3; ++k) {
			ck_assert(w[k] == (tri.vertices[k] == out->vertices[0] ? 1.0 : 0.0));
		}
	} else if (out->feature == bc_featureEdge) {
		for (int k = 0; k < 3; ++k) {
			if (tri.vertices[k] != out->vertices[0] && tri.vertices[k] != out->vertices[1]) {
				ck_assert(w[k] == 0.0);
			}
		}
	}
}

static bcClosestOutput closest(const bcMesh* mesh, bcVec3 p, double r)
{
	return bcMesh_Closest(mesh, (bcClosestInput){ p, r }, NULL);
}

static bcClosestOutput closestBrute(const bcMesh* mesh, bcVec3 p, double r)
{
	bcClosestOptions brute = bcDefaultClosestOptions();
	brute.bruteForce = true;
	return bcMesh_Closest(mesh, (bcClosestInput){ p, r }, &brute);
}

/* Both paths, which must agree bit for bit; returns the answer. */
static bcClosestOutput closestBoth(const bcMesh* mesh, bcVec3 p, double r)
{
	bcClosestOutput a = closest(mesh, p, r);
	bcClosestOutput b = closestBrute(mesh, p, r);
	ck_assert_msg(sameOutput(&a, &b),
				  "p (%.17g %.17g %.17g): bvh says triangle %d at %.17g, brute force triangle %d at %.17g", p.x, p.y,
				  p.z, a.triangle, a.distance, b.triangle, b.distance);
	return a;
}

static void expectAnswer(bcClosestOutput out, double distance, bcVec3 point, int32_t triangle, bcFeature feature,
						 int count, const int32_t* vertices, bcVec3 normal)
{
	ck_assert_int_eq(out.state, bc_closestFound);
	ck_assert_msg(sameBits(out.distance, distance), "distance %.17g, expected %.17g", out.distance, distance);
	ck_assert_msg(sameVec(out.point, point), "point (%.17g %.17g %.17g), expected (%.17g %.17g %.17g)", out.point.x,
				  out.point.y, out.point.z, point.x, point.y, point.z);
	ck_assert_int_eq(out.triangle, triangle);
	ck_assert_int_eq(out.feature, feature);
	ck_assert_int_eq(out.vertexCount, count);
	for (int k = 0; k < 3; ++k) {
		ck_assert_int_eq(out.vertices[k], k < count ? vertices[k] : -1);
	}
	/* a normal is a quotient of rounded numbers: within 2 ulps of 1 */
	ck_assert_msg(fabs(out.normal.x - normal.x) <= NORMAL_ULPS && fabs(out.normal.y - normal.y) <= NORMAL_ULPS &&
					  fabs(out.normal.z - normal.z) <= NORMAL_ULPS,
				  "normal (%.17g %.17g %.17g), expected (%.17g %.17g %.17g)", out.normal.x, out.normal.y,
				  out.normal.z, normal.x, normal.y, normal.z);
}

/* ----------------------------------------------------------- reference */

static double segmentDistance(bcVec3 p, bcVec3 a, bcVec3 b)
{
	bcVec3 e = bcSub(b, a);
	double t = bcDot(bcSub(p, a), e) / bcDot(e, e);
	t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
	return bcDistance(p, bcMulAdd(a, t, e));
}

/* Distance from p to triangle a b c: the plane projection when inside,
 * else the nearest clamped edge projection. */
static double referenceTriangle(bcVec3 p, bcVec3 a, bcVec3 b, bcVec3 c)
{
	bcVec3 e0 = bcSub(b, a), e1 = bcSub(c, a);
	bcVec3 n = bcCross(e0, e1);
	double nn = bcDot(n, n);
	bcVec3 ap = bcSub(p, a);
	double height = bcDot(ap, n);
	bcVec3 ar = bcSub(ap, bcScale(height / nn, n));
	double d00 = bcDot(e0, e0), d01 = bcDot(e0, e1), d11 = bcDot(e1, e1);
	double d20 = bcDot(ar, e0), d21 = bcDot(ar, e1);
	double den = d00 * d11 - d01 * d01;
	double v = (d11 * d20 - d01 * d21) / den;
	double w = (d00 * d21 - d01 * d20) / den;
	if (v >= 0.0 && w >= 0.0 && v + w <= 1.0) {
		return fabs(height) / sqrt(nn);
	}
	return fmin(segmentDistance(p, a, b), fmin(segmentDistance(p, b, c), segmentDistance(p, c, a)));
}

static double referenceOf(const bcMesh* mesh, int32_t t, bcVec3 p)
{
	bcTriangle tri = bcMesh_GetTriangle(mesh, t);
	return referenceTriangle(p, bcMesh_GetVertex(mesh, tri.vertices[0]), bcMesh_GetVertex(mesh, tri.vertices[1]),
							 bcMesh_GetVertex(mesh, tri.vertices[2]));
}

/* The minimum over all non-degenerate triangles. */
static double referenceMesh(const bcMesh* mesh, bcVec3 p)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double best = INFINITY;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		if (!bcMesh_GetTriangle(mesh, t).degenerate) {
			best = fmin(best, referenceOf(mesh, t, p));
		}
	}
	return best;
}

/* L: the largest absolute coordinate of p and the mesh. */
static double coordinateScale(const bcMesh* mesh, bcVec3 p)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 lo = info.lowerBound, hi = info.upperBound;
	double m = fmax(fmax(fabs(p.x), fabs(p.y)), fabs(p.z));
	m = fmax(m, fmax(fmax(fabs(lo.x), fabs(lo.y)), fabs(lo.z)));
	return fmax(m, fmax(fmax(fabs(hi.x), fabs(hi.y)), fabs(hi.z)));
}

/* The answer is consistent with itself and with its triangle. */
static void checkShape(const bcMesh* mesh, bcVec3 p, double r, const bcClosestOutput* out)
{
	double L = coordinateScale(mesh, p);
	ck_assert_int_eq(out->state, bc_closestFound);
	ck_assert(out->distance >= 0.0 && isfinite(out->distance));
	bcTriangle tri = bcMesh_GetTriangle(mesh, out->triangle);
	ck_assert(!tri.degenerate);
	ck_assert_int_eq(out->face, tri.face);
	ck_assert_int_ge(out->tieCount, 1);
	/* the point is on the triangle, and at the distance */
	ck_assert_msg(referenceOf(mesh, out->triangle, out->point) <= 1e-12 * L, "point off its triangle by %g",
				  referenceOf(mesh, out->triangle, out->point));
	bcAssertNear(bcDistance(p, out->point), out->distance, 1e-12 * (out->distance + L));
	/* the feature's vertices are the triangle's, in its order */
	const int32_t* v = tri.vertices;
	if (out->feature == bc_featureFace) {
		ck_assert_int_eq(out->vertexCount, 3);
		ck_assert(out->vertices[0] == v[0] && out->vertices[1] == v[1] && out->vertices[2] == v[2]);
	} else if (out->feature == bc_featureEdge) {
		ck_assert_int_eq(out->vertexCount, 2);
		int k = out->vertices[0] == v[0] ? 0 : (out->vertices[0] == v[1] ? 1 : 2);
		ck_assert_int_eq(out->vertices[0], v[k]);
		ck_assert_int_eq(out->vertices[1], v[(k + 1) % 3]);
		ck_assert_int_eq(out->vertices[2], -1);
		ck_assert(segmentDistance(out->point, bcMesh_GetVertex(mesh, out->vertices[0]),
								  bcMesh_GetVertex(mesh, out->vertices[1])) <= 1e-12 * L);
	} else {
		ck_assert_int_eq(out->feature, bc_featureVertex);
		ck_assert_int_eq(out->vertexCount, 1);
		ck_assert(out->vertices[0] == v[0] || out->vertices[0] == v[1] || out->vertices[0] == v[2]);
		ck_assert(sameVec(out->point, bcMesh_GetVertex(mesh, out->vertices[0])));
	}
	/* the normal: unit, the front normal on the mesh, else towards p */
	ck_assert(fabs(bcLength(out->normal) - 1.0) <= 1e-15);
	if (out->distance <= BC_DISTANCE_TIE_TOLERANCE * L) {
		ck_assert(sameVec(out->normal, tri.normal));
	} else {
		bcAssertNear(bcDot(out->normal, bcSub(p, out->point)), out->distance, 1e-12 * (out->distance + L));
	}
	ck_assert(out->overlap == (out->distance < r));
	ck_assert(sameBits(out->depth, out->overlap ? r - out->distance : 0.0));
	checkBarycentric(mesh, L, out);
}

/* The distance equals the reference's minimum, and the triangle is the
 * lowest whose reference distance is safely inside the tie window. */
static void checkReference(const bcMesh* mesh, bcVec3 p, const bcClosestOutput* out)
{
	double L = coordinateScale(mesh, p);
	double best = referenceMesh(mesh, p);
	double tol = REFERENCE_RELATIVE * fmax(best, REFERENCE_NEAR * L);
	double window = BC_DISTANCE_TIE_TOLERANCE * (best + L);
	ck_assert_msg(fabs(out->distance - best) <= tol + window, "p (%.17g %.17g %.17g): distance %.17g, reference %.17g",
				  p.x, p.y, p.z, out->distance, best);
	ck_assert(referenceOf(mesh, out->triangle, p) <= best + 2.0 * window + tol);
	for (int32_t t = 0; t < out->triangle; ++t) {
		if (!bcMesh_GetTriangle(mesh, t).degenerate) {
			ck_assert_msg(!(referenceOf(mesh, t, p) < best + 0.5 * window - tol),
						  "triangle %d at %.17g ties with the answer %d at %.17g and is lower", t,
						  referenceOf(mesh, t, p), out->triangle, out->distance);
		}
	}
}

/* The lowest triangle with a vertex at exactly x, and which vertex. */
static int32_t lowestWithVertexAt(const bcMesh* mesh, bcVec3 x, int32_t* vertex)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		for (int k = 0; k < 3 && !tri.degenerate; ++k) {
			if (sameVec(bcMesh_GetVertex(mesh, tri.vertices[k]), x)) {
				*vertex = tri.vertices[k];
				return t;
			}
		}
	}
	return -1;
}

/* The lowest triangle with an edge between exactly x and y (either way). */
static int32_t lowestWithEdgeAt(const bcMesh* mesh, bcVec3 x, bcVec3 y)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		for (int k = 0; k < 3 && !tri.degenerate; ++k) {
			bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[k]), b = bcMesh_GetVertex(mesh, tri.vertices[(k + 1) % 3]);
			if ((sameVec(a, x) && sameVec(b, y)) || (sameVec(a, y) && sameVec(b, x))) {
				return t;
			}
		}
	}
	return -1;
}

/* ------------------------------------------------------ hand-computed */

START_TEST(one_triangle_regions)
{
	bcMesh* mesh = oneTriangle(1.0);
	const int32_t face[] = { 0, 1, 2 }, ab[] = { 0, 1 }, bc[] = { 1, 2 }, ca[] = { 2, 0 };
	const int32_t va[] = { 0 }, vb[] = { 1 }, vc[] = { 2 };
	double h = sqrt(0.5);
	/* above and below the face: the plane distance, the normal +-z */
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.25, 0.25, 2), 0), 2, bcMakeVec3(0.25, 0.25, 0), 0, bc_featureFace, 3,
				 face, bcMakeVec3(0, 0, 1));
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.25, 0.5, -3), 0), 3, bcMakeVec3(0.25, 0.5, 0), 0, bc_featureFace, 3,
				 face, bcMakeVec3(0, 0, -1));
	/* the edges, in the triangle's order AB, BC, CA */
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.5, -2, 0), 0), 2, bcMakeVec3(0.5, 0, 0), 0, bc_featureEdge, 2, ab,
				 bcMakeVec3(0, -1, 0));
	expectAnswer(closestBoth(mesh, bcMakeVec3(1, 1, 0), 0), h, bcMakeVec3(0.5, 0.5, 0), 0, bc_featureEdge, 2, bc,
				 bcMakeVec3(h, h, 0));
	expectAnswer(closestBoth(mesh, bcMakeVec3(-3, 0.5, 4), 0), 5, bcMakeVec3(0, 0.5, 0), 0, bc_featureEdge, 2, ca,
				 bcMakeVec3(-0.6, 0, 0.8));
	/* the vertices */
	expectAnswer(closestBoth(mesh, bcMakeVec3(-1, -1, 0), 0), sqrt(2.0), bcMakeVec3(0, 0, 0), 0, bc_featureVertex, 1,
				 va, bcMakeVec3(-1 / sqrt(2.0), -1 / sqrt(2.0), 0));
	expectAnswer(closestBoth(mesh, bcMakeVec3(2, -1, 0), 0), sqrt(2.0), bcMakeVec3(1, 0, 0), 0, bc_featureVertex, 1,
				 vb, bcMakeVec3(1 / sqrt(2.0), -1 / sqrt(2.0), 0));
	expectAnswer(closestBoth(mesh, bcMakeVec3(0, 3, 1), 0), sqrt(5.0), bcMakeVec3(0, 1, 0), 0, bc_featureVertex, 1,
				 vc, bcMakeVec3(0, 2 / sqrt(5.0), 1 / sqrt(5.0)));
	bcMesh_Destroy(mesh);
}
END_TEST

static void expectWeights(bcClosestOutput out, double u, double v, double w)
{
	ck_assert_msg(out.barycentric[0] == u && out.barycentric[1] == v && out.barycentric[2] == w,
				  "weights (%.17g %.17g %.17g), expected (%.17g %.17g %.17g)", out.barycentric[0],
				  out.barycentric[1], out.barycentric[2], u, v, w);
}

/* Seed 004's barycentric coordinates, by hand, in the triangle's own
 * vertex order: the second mesh lists the same triangle as (1 2 0), so its
 * A is vertex 1 and every weight moves one place. */
START_TEST(barycentric_by_hand)
{
	bcMesh* mesh = oneTriangle(1.0);
	expectWeights(closestBoth(mesh, bcMakeVec3(0.25, 0.25, 2), 0), 0.5, 0.25, 0.25);
	expectWeights(closestBoth(mesh, bcMakeVec3(0.5, -2, 0), 0), 0.5, 0.5, 0);
	expectWeights(closestBoth(mesh, bcMakeVec3(1, 1, 0), 0), 0, 0.5, 0.5);
	expectWeights(closestBoth(mesh, bcMakeVec3(-3, 0.5, 4), 0), 0.5, 0, 0.5);
	expectWeights(closestBoth(mesh, bcMakeVec3(-3, 0.75, 4), 0), 0.25, 0, 0.75);
	expectWeights(closestBoth(mesh, bcMakeVec3(-1, -1, 0), 0), 1, 0, 0);
	expectWeights(closestBoth(mesh, bcMakeVec3(2, -1, 0), 0), 0, 1, 0);
	expectWeights(closestBoth(mesh, bcMakeVec3(0, 3, 1), 0), 0, 0, 1);
	expectWeights(closestBoth(mesh, bcMakeVec3(0, 0.75, 0), 0), 0.25, 0, 0.75);
	bcMesh_Destroy(mesh);

	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	const int32_t t[] = { 1, 2, 0 };
	mesh = makeMesh(v, 3, t, 1);
	expectWeights(closestBoth(mesh, bcMakeVec3(0.25, 0.25, 2), 0), 0.25, 0.25, 0.5);
	expectWeights(closestBoth(mesh, bcMakeVec3(2, -1, 0), 0), 1, 0, 0);
	expectWeights(closestBoth(mesh, bcMakeVec3(0.75, -2, 0), 0), 0.75, 0, 0.25);
	bcMesh_Destroy(mesh);

	/* the square's diagonal: edge CA of triangle 0 = (0 1 2) */
	mesh = twoTriangles();
	expectWeights(closestBoth(mesh, bcMakeVec3(0.25, 0.25, 2), 0), 0.75, 0, 0.25);
	bcMesh_Destroy(mesh);
}
END_TEST

/* On the triangle: distance 0, the point is p itself, the normal the front
 * normal, and the feature is the one p is exactly on. */
START_TEST(one_triangle_on_the_mesh)
{
	bcMesh* mesh = oneTriangle(1.0);
	const int32_t face[] = { 0, 1, 2 }, ab[] = { 0, 1 }, bc[] = { 1, 2 }, ca[] = { 2, 0 };
	const int32_t vb[] = { 1 }, vc[] = { 2 };
	bcVec3 up = bcMakeVec3(0, 0, 1);
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.25, 0.25, 0), 0), 0, bcMakeVec3(0.25, 0.25, 0), 0, bc_featureFace, 3,
				 face, up);
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.5, 0, 0), 0), 0, bcMakeVec3(0.5, 0, 0), 0, bc_featureEdge, 2, ab, up);
	expectAnswer(closestBoth(mesh, bcMakeVec3(0.5, 0.5, 0), 0), 0, bcMakeVec3(0.5, 0.5, 0), 0, bc_featureEdge, 2, bc,
				 up);
	expectAnswer(closestBoth(mesh, bcMakeVec3(0, 0.75, 0), 0), 0, bcMakeVec3(0, 0.75, 0), 0, bc_featureEdge, 2, ca, up);
	expectAnswer(closestBoth(mesh, bcMakeVec3(1, 0, 0), 0), 0, bcMakeVec3(1, 0, 0), 0, bc_featureVertex, 1, vb, up);
	expectAnswer(closestBoth(mesh, bcMakeVec3(0, 1, 0), 0), 0, bcMakeVec3(0, 1, 0), 0, bc_featureVertex, 1, vc, up);
	/* -0 coordinates are the same point, and no -0 comes out */
	expectAnswer(closestBoth(mesh, bcMakeVec3(-0.0, 0.5, -0.0), 0), 0, bcMakeVec3(0, 0.5, 0), 0, bc_featureEdge, 2, ca,
				 up);
	bcMesh_Destroy(mesh);
}
END_TEST

/* Ties between the two triangles of a square go to triangle 0. */
START_TEST(two_triangles_ties)
{
	bcMesh* mesh = twoTriangles();
	const int32_t diagonal[] = { 2, 0 }, origin[] = { 0 }, corner[] = { 2 }, second[] = { 0, 2, 3 };
	bcVec3 up = bcMakeVec3(0, 0, 1);
	/* on the shared edge, and above it: edge CA of triangle 0 */
	bcClosestOutput out = closestBoth(mesh, bcMakeVec3(0.5, 0.5, 0), 0);
	expectAnswer(out, 0, bcMakeVec3(0.5, 0.5, 0), 0, bc_featureEdge, 2, diagonal, up);
	ck_assert_int_eq(out.tieCount, 2);
	out = closestBoth(mesh, bcMakeVec3(0.25, 0.25, 2), 0);
	expectAnswer(out, 2, bcMakeVec3(0.25, 0.25, 0), 0, bc_featureEdge, 2, diagonal, up);
	ck_assert_int_eq(out.tieCount, 2);
	/* below it: the normal points down */
	out = closestBoth(mesh, bcMakeVec3(0.75, 0.75, -1), 0);
	expectAnswer(out, 1, bcMakeVec3(0.75, 0.75, 0), 0, bc_featureEdge, 2, diagonal, bcMakeVec3(0, 0, -1));
	/* the two shared vertices, from on them and from outside */
	out = closestBoth(mesh, bcMakeVec3(0, 0, 0), 0);
	expectAnswer(out, 0, bcMakeVec3(0, 0, 0), 0, bc_featureVertex, 1, origin, up);
	ck_assert_int_eq(out.tieCount, 2);
	out = closestBoth(mesh, bcMakeVec3(2, 3, 0), 0);
	expectAnswer(out, sqrt(5.0), bcMakeVec3(1, 1, 0), 0, bc_featureVertex, 1, corner,
				 bcMakeVec3(1 / sqrt(5.0), 2 / sqrt(5.0), 0));
	ck_assert_int_eq(out.tieCount, 2);
	/* inside triangle 1 only: no tie */
	out = closestBoth(mesh, bcMakeVec3(0.25, 0.75, 0.5), 0);
	expectAnswer(out, 0.5, bcMakeVec3(0.25, 0.75, 0), 1, bc_featureFace, 3, second, up);
	ck_assert_int_eq(out.tieCount, 1);
	/* the unshared corner (0,1) is triangle 1's vertex C */
	const int32_t own[] = { 3 };
	expectAnswer(closestBoth(mesh, bcMakeVec3(-1, 1, 0), 0), 1, bcMakeVec3(0, 1, 0), 1, bc_featureVertex, 1, own,
				 bcMakeVec3(-1, 0, 0));
	bcMesh_Destroy(mesh);
}
END_TEST

/* Copies of one patch: the lowest copy, whatever order the tree sees them
 * in; a degenerate triangle closer than all is never chosen; a patch
 * 1e-9 farther does not tie. */
START_TEST(lowest_copy_and_degenerate)
{
	const double v[] = { 5, 5, 5, 6, 5, 5, 5, 6, 5, /* far away */
						 0, 0, 0, 1, 0, 0, 0, 1, 0, /* the patch */
						 0, 0, 1e-9, 1, 0, 1e-9, 0, 1, 1e-9, /* just above it */
						 0, 0, 0.5, 1, 0, 0.5, 2, 0, 0.5 /* collinear: degenerate */ };
	const int32_t t[] = { 0, 1, 2, 6, 7, 8, 9, 10, 11, 3, 4, 5, 4, 5, 3, 3, 4, 5, 10, 9, 11 };
	bcMesh* mesh = makeMesh(v, 12, t, 7);
	bcClosestOutput out = closestBoth(mesh, bcMakeVec3(0.25, 0.25, 0.5), 0);
	/* triangles 3, 4 and 5 are the patch (4 with its vertices rotated); 1 is
	 * 1e-9 nearer: it wins alone */
	ck_assert_int_eq(out.triangle, 1);
	ck_assert_int_eq(out.tieCount, 1);
	bcAssertNear(out.distance, 0.5 - 1e-9, 1e-16);
	out = closestBoth(mesh, bcMakeVec3(0.25, 0.25, -0.5), 0);
	ck_assert_int_eq(out.triangle, 3);
	ck_assert_int_eq(out.tieCount, 3);
	ck_assert(sameBits(out.distance, 0.5));
	ck_assert(sameVec(out.normal, bcMakeVec3(0, 0, -1)));
	/* the patch's vertex (1,0,0) is vertex 4 (triangle 3's B) */
	out = closestBoth(mesh, bcMakeVec3(2, -1, -1), 0);
	ck_assert_int_eq(out.triangle, 3);
	ck_assert_int_eq(out.feature, bc_featureVertex);
	ck_assert_int_eq(out.vertices[0], 4);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(overlap_and_depth)
{
	bcMesh* mesh = oneTriangle(1.0);
	bcVec3 p = bcMakeVec3(0.25, 0.25, 2);
	bcClosestOutput out = closestBoth(mesh, p, 3);
	ck_assert(out.overlap);
	ck_assert(sameBits(out.depth, 1.0));
	out = closestBoth(mesh, p, 2); /* touching is not overlapping */
	ck_assert(!out.overlap);
	ck_assert(sameBits(out.depth, 0.0));
	out = closestBoth(mesh, p, 0);
	ck_assert(!out.overlap);
	out = closestBoth(mesh, p, 2.5);
	ck_assert(out.overlap);
	ck_assert(sameBits(out.depth, 0.5));
	/* a point on the mesh overlaps any ball with r > 0 */
	out = closestBoth(mesh, bcMakeVec3(0.5, 0, 0), 1e-300);
	ck_assert(out.overlap);
	ck_assert(sameBits(out.depth, 1e-300));
	out = closestBoth(mesh, bcMakeVec3(0.5, 0, 0), 0);
	ck_assert(!out.overlap);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(invalid_input)
{
	bcMesh* mesh = oneTriangle(1.0);
	const bcVec3 points[] = { { NAN, 0, 0 }, { 0, INFINITY, 0 }, { 0, 0, -INFINITY } };
	for (int i = 0; i < 3; ++i) {
		bcClosestOutput out = closestBoth(mesh, points[i], 1);
		ck_assert_int_eq(out.state, bc_closestInvalid);
		ck_assert_int_eq(out.triangle, -1);
		ck_assert_int_eq(out.face, -1);
		ck_assert_int_eq(out.feature, bc_featureNone);
		ck_assert_int_eq(out.vertexCount, 0);
		ck_assert(!out.overlap);
	}
	const double radii[] = { -1, -DBL_MIN, NAN, INFINITY };
	for (int i = 0; i < 4; ++i) {
		bcClosestInput in = { { 0, 0, 1 }, radii[i] };
		ck_assert(!bcIsValidClosestInput(in));
		ck_assert_int_eq(closestBoth(mesh, in.p, in.radius).state, bc_closestInvalid);
	}
	bcClosestInput zero = { { 0, 0, 1 }, -0.0 };
	ck_assert(bcIsValidClosestInput(zero));
	ck_assert_int_eq(closestBoth(mesh, zero.p, zero.radius).state, bc_closestFound);
	/* a distance beyond the largest double */
	bcClosestOutput out = closestBoth(mesh, bcMakeVec3(-DBL_MAX, -DBL_MAX, 0), 0);
	ck_assert_int_eq(out.state, bc_closestInvalid);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(only_degenerate_triangles)
{
	const double v[] = { 0, 0, 0, 1, 0, 0, 2, 0, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 0, 1 };
	bcMesh* mesh = makeMesh(v, 3, t, 2);
	bcClosestOutput out = closestBoth(mesh, bcMakeVec3(0, 1, 0), 0);
	ck_assert_int_eq(out.state, bc_closestNone);
	ck_assert_int_eq(out.triangle, -1);
	expectWeights(out, 0, 0, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

/* 100 triangles around one vertex (more than the search keeps at once),
 * after a far triangle 0, and one more copy at the end: every query at the
 * shared vertex ties all 101 and answers triangle 1. */
START_TEST(many_ties)
{
	enum { fan = 100 };
	double v[3 * (fan + 4)];
	int32_t t[3 * (fan + 2)];
	int vc = 0, tc = 0;
	v[vc++] = 50, v[vc++] = 50, v[vc++] = 50;
	v[vc++] = 51, v[vc++] = 50, v[vc++] = 50;
	v[vc++] = 50, v[vc++] = 51, v[vc++] = 50;
	t[tc++] = 0, t[tc++] = 1, t[tc++] = 2;
	v[vc++] = 0, v[vc++] = 0, v[vc++] = 0; /* vertex 3: the hub */
	for (int i = 0; i < fan; ++i) {
		double angle = 2.0 * 3.141592653589793 * i / fan;
		v[vc++] = cos(angle), v[vc++] = sin(angle), v[vc++] = 0;
	}
	for (int i = 0; i < fan; ++i) {
		/* the hub as A, B or C in turn */
		int32_t rim0 = 4 + i, rim1 = 4 + (i + 1) % fan;
		int32_t tri[3][3] = { { 3, rim0, rim1 }, { rim1, 3, rim0 }, { rim0, rim1, 3 } };
		for (int k = 0; k < 3; ++k) {
			t[tc++] = tri[i % 3][k];
		}
	}
	t[tc++] = 3, t[tc++] = 4, t[tc++] = 5;
	bcMesh* mesh = makeMesh(v, vc / 3, t, tc / 3);
	const int32_t hub[] = { 3 };
	bcClosestOutput out = closestBoth(mesh, bcMakeVec3(0, 0, 0), 0);
	expectAnswer(out, 0, bcMakeVec3(0, 0, 0), 1, bc_featureVertex, 1, hub, bcMakeVec3(0, 0, 1));
	ck_assert_int_eq(out.tieCount, fan + 1);
	out = closestBoth(mesh, bcMakeVec3(0, 0, -7), 0);
	expectAnswer(out, 7, bcMakeVec3(0, 0, 0), 1, bc_featureVertex, 1, hub, bcMakeVec3(0, 0, -1));
	ck_assert_int_eq(out.tieCount, fan + 1);
	bcMesh_Destroy(mesh);
}
END_TEST

/* Scaling the scene by a power of two scales every answer exactly, also
 * where the triangle is measured rescaled (sizes 2^-250 and 2^250); points
 * beyond 1e80 times a triangle's size get finite answers with the right
 * distance. */
START_TEST(extreme_scales)
{
	const double scales[] = { 0x1p-250, 0x1p250, 0x1p-40, 0x1p40 };
	const bcVec3 points[] = { { 0.25, 0.25, 2 }, { 1, 1, 0 }, { -3, 0.5, 4 }, { 2, -1, 0 }, { 0.5, 0, 0 } };
	bcMesh* unit = oneTriangle(1.0);
	for (int s = 0; s < 4; ++s) {
		bcMesh* mesh = oneTriangle(scales[s]);
		for (int i = 0; i < 5; ++i) {
			bcClosestOutput a = closest(unit, points[i], 0);
			bcClosestOutput b = closestBoth(mesh, bcScale(scales[s], points[i]), 0);
			ck_assert_msg(sameBits(b.distance, a.distance * scales[s]), "scale %g point %d: %.17g vs %.17g",
						  scales[s], i, b.distance, a.distance * scales[s]);
			ck_assert(sameVec(b.point, bcScale(scales[s], a.point)));
			ck_assert(sameVec(b.normal, a.normal));
			ck_assert_int_eq(b.feature, a.feature);
			ck_assert(memcmp(b.vertices, a.vertices, sizeof a.vertices) == 0);
		}
		bcMesh_Destroy(mesh);
	}
	/* very far points: finite, and the distance right to rounding */
	const bcVec3 far[] = { { 1e300, 0, 0 }, { -1e200, 3e199, 1e150 }, { 0.5, 0.5, 1e307 } };
	for (int i = 0; i < 3; ++i) {
		bcClosestOutput out = closestBoth(unit, far[i], 0);
		ck_assert_int_eq(out.state, bc_closestFound);
		ck_assert(bcIsFinite(out.point) && bcIsFinite(out.normal));
		double expected = referenceTriangle(far[i], bcMakeVec3(0, 0, 0), bcMakeVec3(1, 0, 0), bcMakeVec3(0, 1, 0));
		bcAssertNear(out.distance, expected, 1e-15 * expected);
		ck_assert(fabs(bcLength(out.normal) - 1.0) <= 1e-15);
	}
	bcMesh_Destroy(unit);
}
END_TEST

/* ------------------------------------------------------------- exact */

/* A box whose coordinates are all dyadic: vertices and edge midpoints are
 * exact, so every vertex must answer "vertex", every edge midpoint "edge",
 * both at distance 0, on the lowest triangle that has them. */
START_TEST(box_vertices_and_edges_exactly)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(-2, -1, 0), bcMakeVec3(2, 1, 1.5), 4, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	int edges = 0;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		for (int k = 0; k < 3; ++k) {
			bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[k]), b = bcMesh_GetVertex(mesh, tri.vertices[(k + 1) % 3]);
			int32_t vertex = -1;
			int32_t lowest = lowestWithVertexAt(mesh, a, &vertex);
			bcClosestOutput out = closestBoth(mesh, a, 0);
			const int32_t one[] = { vertex };
			expectAnswer(out, 0, a, lowest, bc_featureVertex, 1, one, bcMesh_GetTriangle(mesh, lowest).normal);
			bcVec3 middle = bcScale(0.5, bcAdd(a, b));
			out = closestBoth(mesh, middle, 0);
			ck_assert_int_eq(out.triangle, lowestWithEdgeAt(mesh, a, b));
			ck_assert_int_eq(out.feature, bc_featureEdge);
			ck_assert(sameBits(out.distance, 0.0));
			ck_assert(sameVec(out.point, middle));
			ck_assert_int_ge(out.tieCount, 2);
			checkShape(mesh, middle, 0, &out);
			edges++;
		}
	}
	ck_assert_int_eq(edges, 3 * info.triangleCount);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* ------------------------------------------------------------ random */

/* Points of every kind around a mesh: BVH equals brute force bit for bit,
 * the batch equals single queries, and every answer agrees with the
 * reference. */
static void randomPoints(bcMesh* mesh, uint64_t seed, int count)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 size = bcSub(info.upperBound, info.lowerBound);
	double diagonal = bcLength(size);
	bcVec3 lo = bcSub(info.lowerBound, bcScale(0.25, size)), hi = bcAdd(info.upperBound, bcScale(0.25, size));
	bcVec3 center = bcScale(0.5, bcAdd(info.lowerBound, info.upperBound));
	bcRandom rng = { seed };
	bcClosestInput* inputs = malloc((size_t)count * sizeof *inputs);
	bcClosestOutput* outputs = malloc((size_t)count * sizeof *outputs);
	bcClosestOutput* brute = malloc((size_t)count * sizeof *brute);
	int kinds[6] = { 0 };
	for (int i = 0; i < count; ++i) {
		int32_t t;
		bcTriangle tri;
		do {
			t = (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount);
			tri = bcMesh_GetTriangle(mesh, t);
		} while (tri.degenerate);
		bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[0]), b = bcMesh_GetVertex(mesh, tri.vertices[1]),
			   c = bcMesh_GetVertex(mesh, tri.vertices[2]);
		bcVec3 p;
		int kind = i % 6;
		switch (kind) {
		case 0: /* anywhere around the mesh */
			p = bcRandom_InBox(&rng, lo, hi);
			break;
		case 1: { /* near the surface */
			double u = bcRandom_Uniform(&rng, 0, 1), v = bcRandom_Uniform(&rng, 0, 1 - u);
			p = bcAdd(a, bcAdd(bcScale(u, bcSub(b, a)), bcScale(v, bcSub(c, a))));
			p = bcMulAdd(p, bcRandom_Uniform(&rng, 0.001, 0.05) * diagonal, bcRandom_OnSphere(&rng));
			break;
		}
		case 2: /* exactly on a vertex */
			p = a;
			break;
		case 3: /* on an edge, up to the rounding of a + t (b - a) */
			p = bcMulAdd(b, bcRandom_Uniform(&rng, 0.1, 0.9), bcSub(c, b));
			break;
		case 4: { /* inside a face, up to rounding */
			double u = bcRandom_Uniform(&rng, 0.1, 0.8), v = bcRandom_Uniform(&rng, 0.1, 0.9 - u);
			p = bcAdd(a, bcAdd(bcScale(u, bcSub(b, a)), bcScale(v, bcSub(c, a))));
			break;
		}
		default: /* far away */
			p = bcMulAdd(center, 1e6, bcRandom_OnSphere(&rng));
			break;
		}
		double r = i % 3 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, 0.1 * diagonal);
		inputs[i].p = p;
		inputs[i].radius = r;
		bcClosestOutput out = closestBoth(mesh, p, r);
		checkShape(mesh, p, r, &out);
		checkReference(mesh, p, &out);
		double L = coordinateScale(mesh, p);
		if (kind == 2) {
			int32_t vertex = -1;
			int32_t lowest = lowestWithVertexAt(mesh, p, &vertex);
			const int32_t one[] = { vertex };
			expectAnswer(out, 0, p, lowest, bc_featureVertex, 1, one, bcMesh_GetTriangle(mesh, lowest).normal);
		} else if (kind == 3 || kind == 4) {
			/* on the mesh to within rounding: the front normal; an edge point
			 * may come out as either neighbour's edge or face (whichever side
			 * rounding put it), but always on the lowest neighbour */
			ck_assert(out.distance <= BC_DISTANCE_TIE_TOLERANCE * L);
			ck_assert(out.feature == bc_featureFace || (kind == 3 && out.feature == bc_featureEdge));
			int32_t expected = kind == 3 ? lowestWithEdgeAt(mesh, b, c) : t;
			if (out.triangle != expected) {
				/* only another triangle passing through p may take it */
				ck_assert_int_lt(out.triangle, expected);
				ck_assert(referenceOf(mesh, out.triangle, p) <= BC_DISTANCE_TIE_TOLERANCE * L);
			}
		}
		kinds[kind] += out.state == bc_closestFound;
	}
	for (int k = 0; k < 6; ++k) {
		ck_assert_int_eq(kinds[k], count / 6 + (k < count % 6));
	}
	/* batches, on 1 to 3 threads, answer exactly what single queries do */
	bcClosestOptions options = bcDefaultClosestOptions();
	for (int threads = 1; threads <= 3; ++threads) {
		bcMesh_ClosestBatch(mesh, inputs, outputs, count, &options, threads);
		for (int i = 0; i < count; ++i) {
			bcClosestOutput single = closest(mesh, inputs[i].p, inputs[i].radius);
			ck_assert_msg(sameOutput(&outputs[i], &single), "batch on %d threads differs at %d", threads, i);
		}
	}
	options.bruteForce = true;
	bcMesh_ClosestBatch(mesh, inputs, brute, count, &options, 0);
	for (int i = 0; i < count; ++i) {
		ck_assert(sameOutput(&outputs[i], &brute[i]));
	}
	free(inputs);
	free(outputs);
	free(brute);
}

START_TEST(random_icosphere)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 2, bcMakeVec3(0.5, -0.25, 2), 1.5, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomPoints(mesh, 11, POINTS_PER_MESH);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_box)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(-2, -1, 0), bcMakeVec3(2, 1, 1.5), 4, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomPoints(mesh, 12, POINTS_PER_MESH);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_terrain)
{
	bcGenMesh g = { 0 };
	bcGenTerrain(&g, 12, 10.0, 3);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomPoints(mesh, 13, POINTS_PER_MESH);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_soup)
{
	bcGenMesh g = { 0 };
	bcGenSoup(&g, 300, 10.0, 1.0, 4);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomPoints(mesh, 14, POINTS_PER_MESH);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* The same scene far from the origin: still BVH = brute force and the
 * reference, with the tolerances scaled by the coordinates. */
START_TEST(random_offset_icosphere)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 2, bcMakeVec3(1e6, -2e6, 5e5), 1.5, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomPoints(mesh, 15, POINTS_PER_MESH / 2);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* The batch answers in the order of a curve through the mesh's box, each
 * query starting from the previous one's answer: the answers must not
 * depend on that. Repeated points (the start is then the answer itself, or
 * one of several tied triangles, which must not count twice), points at a
 * hub tying more triangles than the search keeps (the counting pass),
 * points far outside the box and invalid ones, in one batch and in batches
 * of 0, 1 and 2, on 1 to 3 threads: every answer equals the single query's
 * and brute force's bit for bit. */
START_TEST(batch_in_curve_order)
{
	enum { fan = 100, count = 600 };
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, bcMakeVec3(0, 0, 0), 1.0, 0);
	/* a fan of fan triangles around a hub at (2, 0, 0), after the sphere */
	int32_t hub = bcGenMesh_AddVertex(&g, 2, 0, 0);
	int32_t rim = g.vertexCount;
	for (int i = 0; i < fan; ++i) {
		double angle = 2.0 * 3.141592653589793 * i / fan;
		bcGenMesh_AddVertex(&g, 2, 0.5 * cos(angle), 0.5 * sin(angle));
	}
	for (int i = 0; i < fan; ++i) {
		bcGenMesh_AddTriangle(&g, hub, rim + i, rim + (i + 1) % fan);
	}
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcRandom rng = { 17 };
	bcClosestInput* inputs = malloc(count * sizeof *inputs);
	bcClosestOutput* outputs = malloc(count * sizeof *outputs);
	bcClosestOutput* brute = malloc(count * sizeof *brute);
	for (int i = 0; i < count; ++i) {
		bcVec3 p;
		switch (i % 8) {
		case 0: /* a vertex of the sphere, where several triangles tie */
			p = bcMesh_GetVertex(mesh, bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % 1280)).vertices[0]);
			break;
		case 1: /* the hub, or on its axis: fan triangles tie */
			p = bcMakeVec3(2.0 + (double)(bcRandom_Next(&rng) % 3), 0, 0);
			break;
		case 2: /* far outside the box: the curve's key clamps */
			p = bcMulAdd(bcMakeVec3(0, 0, 0), 1e9, bcRandom_OnSphere(&rng));
			break;
		case 3: /* not a point: answered invalid, in its place */
			p = bcMakeVec3(i % 16 == 3 ? NAN : INFINITY, 0, 0);
			break;
		default:
			p = bcRandom_InBox(&rng, bcMakeVec3(-1.5, -1.5, -1.5), bcMakeVec3(3, 1.5, 1.5));
			break;
		}
		inputs[i].p = p;
		inputs[i].radius = i % 2 == 0 ? 0.0 : 0.25;
		/* every fifth input repeats the previous one */
		if (i % 5 == 4) {
			inputs[i] = inputs[i - 1];
		}
	}
	bcClosestOptions options = bcDefaultClosestOptions();
	options.bruteForce = true;
	bcMesh_ClosestBatch(mesh, inputs, brute, count, &options, 1);
	options.bruteForce = false;
	int hubTies = 0;
	for (int threads = 1; threads <= 3; ++threads) {
		bcMesh_ClosestBatch(mesh, inputs, outputs, count, &options, threads);
		for (int i = 0; i < count; ++i) {
			bcClosestOutput single = closest(mesh, inputs[i].p, inputs[i].radius);
			ck_assert_msg(sameOutput(&outputs[i], &single), "%d threads, input %d: batch triangle %d (%d ties), single %d (%d ties)",
						  threads, i, outputs[i].triangle, outputs[i].tieCount, single.triangle, single.tieCount);
			ck_assert(sameOutput(&outputs[i], &brute[i]));
			hubTies += threads == 1 && outputs[i].tieCount == fan;
		}
	}
	ck_assert_int_gt(hubTies, 0);
	ck_assert_int_eq(outputs[3].state, bc_closestInvalid);
	/* small batches, and a batch of one repeated point */
	bcMesh_ClosestBatch(mesh, inputs, outputs, 0, &options, 0);
	for (int n = 1; n <= 2; ++n) {
		bcMesh_ClosestBatch(mesh, inputs + 8, outputs, n, &options, 0);
		for (int i = 0; i < n; ++i) {
			ck_assert(sameOutput(&outputs[i], &brute[8 + i]));
		}
	}
	for (int i = 0; i < count; ++i) {
		inputs[i] = inputs[1];
	}
	bcMesh_ClosestBatch(mesh, inputs, outputs, count, &options, 2);
	for (int i = 0; i < count; ++i) {
		ck_assert(sameOutput(&outputs[i], &brute[1]));
	}
	ck_assert_int_eq(info.triangleCount, 1280 + fan);
	free(inputs);
	free(outputs);
	free(brute);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* A whole tree at scales where the squares of distances leave the range
 * where they round relatively (2^-480: distances about 1e-145, squares near
 * the subnormals; 2^505 with points 1e4 sizes away: squares beyond
 * DBL_MAX), so the search compares distances instead: still brute force's
 * answers, and the unit scene's scaled (to rounding: the squares' own
 * rescaling rounds differently). */
START_TEST(extreme_scales_tree)
{
	const double scales[] = { 0x1p-480, 0x1p505 };
	bcGenMesh unitGen = { 0 };
	bcGenIcosphere(&unitGen, 2, bcMakeVec3(0.25, 0, 0), 1.0, 0);
	bcMesh* unit = bcGenMesh_Build(&unitGen);
	for (int s = 0; s < 2; ++s) {
		bcGenMesh g = { 0 };
		bcGenIcosphere(&g, 2, bcMakeVec3(0.25, 0, 0), 1.0, 0);
		for (int32_t i = 0; i < 3 * g.vertexCount; ++i) {
			g.vertices[i] *= scales[s];
		}
		bcMesh* mesh = bcGenMesh_Build(&g);
		bcRandom rng = { 18 };
		for (int i = 0; i < 200; ++i) {
			bcVec3 p;
			if (i % 4 == 0) {
				p = bcMesh_GetVertex(unit, (int32_t)(bcRandom_Next(&rng) % (uint64_t)unit->vertexCount));
			} else if (i % 4 == 1) {
				p = bcScale(1e4, bcRandom_OnSphere(&rng));
			} else {
				p = bcRandom_InBox(&rng, bcMakeVec3(-2, -2, -2), bcMakeVec3(2, 2, 2));
			}
			bcClosestOutput a = closest(unit, p, 0);
			bcClosestOutput b = closestBoth(mesh, bcScale(scales[s], p), 0);
			ck_assert_int_eq(b.state, bc_closestFound);
			bcAssertNear(b.distance / scales[s], a.distance, 4.0 * DBL_EPSILON * a.distance);
			ck_assert_int_eq(b.triangle, a.triangle);
			ck_assert_int_eq(b.feature, a.feature);
			ck_assert_int_eq(b.tieCount, a.tieCount);
		}
		bcMesh_Destroy(mesh);
		bcGenMesh_Free(&g);
	}
	bcMesh_Destroy(unit);
	bcGenMesh_Free(&unitGen);
}
END_TEST

/* lib/closest_mesh.c walks the hierarchy through bcBvh_GetData, reading the node
 * layout of lib/bvh.h: node 0's first child is the
 * root; a child is a float box and an inner node (count -1, index its node)
 * or a leaf (count triangles from index in the order). Walking it so must
 * reach every triangle of the order exactly once, inside its leaf's box,
 * and every child box must lie in its parent's: if bvh.c changes its
 * layout, this fails (and closest_mesh.c's size check may not). */

static void walkChild(const bcBvhNode* nodes, int32_t nodeCount, const bcBvhData* data, const bcMesh* mesh,
					  const bcBvhChild* child, const bcBvhChild* parent, int* seen, int depth)
{
	ck_assert_int_le(depth, BC_BVH_MAX_DEPTH);
	if (parent != NULL) {
		for (int k = 0; k < 3; ++k) {
			ck_assert(child->lower[k] >= parent->lower[k] && child->upper[k] <= parent->upper[k]);
		}
	}
	if (child->count == -1) {
		ck_assert(child->index > 0 && child->index < nodeCount);
		for (int c = 0; c < 2; ++c) {
			walkChild(nodes, nodeCount, data, mesh, &nodes[child->index].children[c], child, seen, depth + 1);
		}
		return;
	}
	ck_assert(child->count >= 1 && child->index >= 0 && child->index + child->count <= data->triangleCount);
	for (int32_t i = child->index; i < child->index + child->count; ++i) {
		int32_t t = data->triangles[i];
		seen[t] += 1;
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		for (int v = 0; v < 3; ++v) {
			bcVec3 x = bcMesh_GetVertex(mesh, tri.vertices[v]);
			const double xs[3] = { x.x, x.y, x.z };
			for (int k = 0; k < 3; ++k) {
				ck_assert(xs[k] >= child->lower[k] && xs[k] <= child->upper[k]);
			}
		}
	}
}

START_TEST(tree_layout_as_read)
{
	bcGenMesh g = { 0 };
	bcGenSoup(&g, 2000, 10.0, 1.0, 5);
	bcGenMesh_AddTriangle(&g, 0, 0, 1); /* a degenerate one: not in the tree */
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcBvhData data = bcBvh_GetData(mesh->bvh);
	bcBvhInfo info = bcBvh_GetInfo(mesh->bvh);
	ck_assert_uint_eq(sizeof(bcBvhNode), 64);
	ck_assert_uint_eq(data.nodeBytes, (size_t)info.leafCount * sizeof(bcBvhNode));
	ck_assert_int_eq(data.triangleCount, 2000);
	int* seen = calloc((size_t)mesh->triangleCount, sizeof *seen);
	const bcBvhNode* nodes = data.nodes;
	walkChild(nodes, (int32_t)(data.nodeBytes / sizeof(bcBvhNode)), &data, mesh, &nodes[0].children[0], NULL, seen, 1);
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		ck_assert_int_eq(seen[t], t < 2000 ? 1 : 0);
	}
	free(seen);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(real_mesh_bunny)
{
	const char* dir = getenv("BALLCAST_MESHES");
	char path[4096];
	snprintf(path, sizeof path, "%s/stanford-bunny.obj", dir != NULL ? dir : "tests/data/meshes");
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s: %s", path, error.message);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 size = bcSub(info.upperBound, info.lowerBound);
	bcRandom rng = { 16 };
	bcClosestInput inputs[BUNNY_POINTS];
	bcClosestOutput fast[BUNNY_POINTS], brute[BUNNY_POINTS];
	for (int i = 0; i < BUNNY_POINTS; ++i) {
		if (i % 3 == 2) {
			/* exactly on a vertex of a random triangle */
			bcTriangle tri = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
			inputs[i].p = bcMesh_GetVertex(mesh, tri.vertices[bcRandom_Next(&rng) % 3]);
		} else {
			inputs[i].p = bcRandom_InBox(&rng, bcSub(info.lowerBound, bcScale(0.25, size)),
										 bcAdd(info.upperBound, bcScale(0.25, size)));
		}
		inputs[i].radius = bcRandom_Uniform(&rng, 0, 0.05 * bcLength(size));
	}
	bcClosestOptions options = bcDefaultClosestOptions();
	bcMesh_ClosestBatch(mesh, inputs, fast, BUNNY_POINTS, &options, 0);
	options.bruteForce = true;
	bcMesh_ClosestBatch(mesh, inputs, brute, BUNNY_POINTS, &options, 0);
	for (int i = 0; i < BUNNY_POINTS; ++i) {
		ck_assert_msg(sameOutput(&fast[i], &brute[i]), "point %d: bvh triangle %d at %.17g, brute %d at %.17g", i,
					  fast[i].triangle, fast[i].distance, brute[i].triangle, brute[i].distance);
		checkShape(mesh, inputs[i].p, inputs[i].radius, &fast[i]);
		if (i % 3 == 2) {
			int32_t vertex = -1;
			int32_t lowest = lowestWithVertexAt(mesh, inputs[i].p, &vertex);
			ck_assert_int_eq(fast[i].triangle, lowest);
			ck_assert_int_eq(fast[i].feature, bc_featureVertex);
			ck_assert(sameBits(fast[i].distance, 0.0));
		}
		if (i < BUNNY_REFERENCE_POINTS) {
			checkReference(mesh, inputs[i].p, &fast[i]);
		}
	}
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* nearestSuite(void)
{
	Suite* suite = suite_create("nearest");
	TCase* hand = tcase_create("hand");
	tcase_add_test(hand, one_triangle_regions);
	tcase_add_test(hand, barycentric_by_hand);
	tcase_add_test(hand, one_triangle_on_the_mesh);
	tcase_add_test(hand, two_triangles_ties);
	tcase_add_test(hand, lowest_copy_and_degenerate);
	tcase_add_test(hand, overlap_and_depth);
	tcase_add_test(hand, invalid_input);
	tcase_add_test(hand, only_degenerate_triangles);
	tcase_add_test(hand, many_ties);
	tcase_add_test(hand, extreme_scales);
	tcase_add_test(hand, box_vertices_and_edges_exactly);
	suite_add_tcase(suite, hand);
	TCase* random = tcase_create("random");
	tcase_set_timeout(random, 120);
	tcase_add_test(random, random_icosphere);
	tcase_add_test(random, random_box);
	tcase_add_test(random, random_terrain);
	tcase_add_test(random, random_soup);
	tcase_add_test(random, random_offset_icosphere);
	tcase_add_test(random, batch_in_curve_order);
	tcase_add_test(random, extreme_scales_tree);
	tcase_add_test(random, tree_layout_as_read);
	tcase_add_test(random, real_mesh_bunny);
	suite_add_tcase(suite, random);
	return suite;
}

int main(void)
{
	return bcRunSuite(nearestSuite());
}
