/* cast.c tests: a ball against a whole mesh. */
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* Contact distances must equal r to within this, times the scene's size:
 * roots of the contact quadratics carry a relative error of about
 * sqrt(DBL_EPSILON) only in grazing cases, far less in the rest. */
#define CONTACT_TOLERANCE 1e-9

/* Earlier alphas sampled for the "no earlier contact" property. */
#define EARLIER_SAMPLES 24

static bcMesh* twoTriangles(void)
{
	/* A unit square in z = 0 split along its diagonal (0,0)-(1,1), normals +z. */
	const double v[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcMeshDef def = { v, 4, t, 2, NULL, 0 };
	return bcMesh_Create(&def, NULL);
}

static bool sameOutput(const bcCastOutput* a, const bcCastOutput* b)
{
	return a->state == b->state && a->alpha == b->alpha && a->triangle == b->triangle && a->face == b->face &&
		   a->feature == b->feature && a->vertexCount == b->vertexCount &&
		   memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 &&
		   memcmp(&a->point, &b->point, sizeof a->point) == 0 && memcmp(&a->center, &b->center, sizeof a->center) == 0 &&
		   memcmp(&a->normal, &b->normal, sizeof a->normal) == 0 && a->tieCount == b->tieCount;
}

START_TEST(shared_edge_tie_goes_to_lowest_triangle)
{
	bcMesh* mesh = twoTriangles();
	ck_assert_ptr_nonnull(mesh);
	/* A point straight down onto the diagonal's midpoint. */
	bcCastInput in = { { 0.5, 0.5, 1 }, { 0.5, 0.5, -1 }, 0 };
	bcCastOutput out = bcMesh_Cast(mesh, in, NULL);
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert_int_eq(out.feature, bc_featureFace);
	bcAssertNear(out.alpha, 0.5, 0);
	ck_assert_int_ge(out.tieCount, 2);
	bcContact ties[16];
	int n = bcMesh_CastTies(mesh, in, NULL, &out, ties, 16);
	ck_assert_int_eq(n, out.tieCount);
	bool sawOne = false;
	for (int i = 0; i < n; ++i) {
		sawOne |= ties[i].triangle == 1;
		ck_assert(i == 0 || ties[i].triangle >= ties[i - 1].triangle);
	}
	ck_assert(sawOne);
	/* A ball rolling onto the shared edge from outside, in the plane. */
	bcCastInput side = { { 2, -1, 0.25 }, { 0.5, 0.5, -0.5 }, 0.25 };
	out = bcMesh_Cast(mesh, side, NULL);
	ck_assert_int_eq(out.state, bc_castHit);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(lowest_triangle_among_same_alpha)
{
	/* Triangle 1 and 2 are the same plane patch at z = 0; triangle 0 is at
	 * z = -1 (later). The answer is triangle 1, never 2. */
	const double v[] = { -1, -1, -1, 2, -1, -1, -1, 2, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	const int32_t t[] = { 0, 1, 2, 3, 4, 5, 3, 4, 5 };
	bcMeshDef def = { v, 6, t, 3, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	bcCastInput in = { { 0.2, 0.2, 1 }, { 0.2, 0.2, -3 }, 0.1 };
	bcCastOptions brute = bcDefaultCastOptions();
	brute.bruteForce = true;
	bcCastOutput out = bcMesh_Cast(mesh, in, NULL);
	bcCastOutput ref = bcMesh_Cast(mesh, in, &brute);
	ck_assert_int_eq(out.triangle, 1);
	ck_assert(sameOutput(&out, &ref));
	bcAssertNear(out.alpha, 0.9 / 4.0, 1e-16);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(tied_answer_has_the_earliest_alpha)
{
	/* Issue 22: an octahedron 0.002 across, a ball of r = 1e6 from 3.6e6
	 * away. Vertex contacts (the smaller roots of |p0 + a d - v|^2 = r^2,
	 * computed in 80-digit decimal from the doubles read) fall within
	 * 1e-10: vertex 3 (on triangles 4, 6, 7) at 0.362109949215421496851,
	 * vertex 4 at 0.362109949251072120755, vertex 0 (triangle 0's A) at
	 * 0.362109949272462494942. The tie rule picks triangle 0, vertex 0,
	 * but the alpha is vertex 3's, the earliest: not 0.36210994927246243. */
	const double v[] = { 0.001, 0, 0, -0.001, 0, 0, 0, 0.001, 0, 0, -0.001, 0, 0, 0, 0.001, 0, 0, -0.001 };
	const int32_t t[] = { 0, 2, 4, 2, 0, 5, 2, 1, 4, 1, 2, 5, 1, 3, 4, 3, 1, 5, 3, 0, 4, 0, 3, 5 };
	bcMeshDef def = { v, 6, t, 8, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert_ptr_nonnull(mesh);
	bcCastInput in = { { 1312500.0015625001, -2812500.001875, 1875000.0010000002 },
					   { -1312500.0010625, 2812500.00375, -1875000.00275 },
					   1000000.0 };
	bcCastOptions brute = bcDefaultCastOptions();
	brute.bruteForce = true;
	bcCastOutput out = bcMesh_Cast(mesh, in, NULL);
	bcCastOutput ref = bcMesh_Cast(mesh, in, &brute);
	ck_assert(sameOutput(&out, &ref));
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert_int_eq(out.feature, bc_featureVertex);
	ck_assert_int_eq(out.vertices[0], 0);
	/* within the documented 2^-40 of the exact earliest alpha */
	bcAssertNear(out.alpha, 0.362109949215421496851, 0x1p-40);
	bcVec3 d = bcSub(in.p1, in.p0);
	bcAssertNear(out.center.x, in.p0.x + out.alpha * d.x, 1e-9);
	bcAssertNear(out.center.y, in.p0.y + out.alpha * d.y, 1e-9);
	bcAssertNear(out.center.z, in.p0.z + out.alpha * d.z, 1e-9);
	/* --ties keeps each contact's own alpha: the least of them is printed */
	bcContact ties[16];
	bcCastOutput again;
	int n = bcMesh_CastTies(mesh, in, NULL, &again, ties, 16);
	ck_assert(sameOutput(&out, &again));
	ck_assert_int_eq(n, out.tieCount);
	ck_assert_int_le(n, 16);
	double least = 1.0;
	for (int i = 0; i < n; ++i) {
		least = ties[i].alpha < least ? ties[i].alpha : least;
	}
	ck_assert(out.alpha == least);
	ck_assert_int_eq(ties[0].triangle, 0);
	ck_assert_int_eq(ties[0].vertices[0], 0);
	bcAssertNear(ties[0].alpha, 0.362109949272462494942, 0x1p-40);
	bcMesh_Destroy(mesh);
}
END_TEST

static bool counted(bcVec3 n, bcVec3 d, bool twoSided)
{
	return twoSided || bcDot(n, d) <= 0.0;
}

/* The smallest distance from c to any counted triangle, and which. */
static double meshDistance(const bcMesh* mesh, bcVec3 c, bcVec3 d, bool twoSided, int32_t* which)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double best = INFINITY;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		if (tri.degenerate || !counted(tri.normal, d, twoSided)) {
			continue;
		}
		bcClosestPoint cp = bcClosestPointTriangle(c, bcMesh_GetVertex(mesh, tri.vertices[0]),
												   bcMesh_GetVertex(mesh, tri.vertices[1]),
												   bcMesh_GetVertex(mesh, tri.vertices[2]));
		if (cp.distance < best) {
			best = cp.distance;
			*which = t;
		}
	}
	return best;
}

/* Check one answer against the definition, with an independent closest point. */
static void checkProperties(const bcMesh* mesh, bcCastInput in, const bcCastOutput* out, bool twoSided, double scale)
{
	bcVec3 d = bcSub(in.p1, in.p0);
	double tol = CONTACT_TOLERANCE * scale;
	int32_t which = -1;
	ck_assert(out->alpha >= 0.0 && out->alpha <= 1.0);
	if (out->state == bc_castHit) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, out->triangle);
		bcClosestPoint cp = bcClosestPointTriangle(out->center, bcMesh_GetVertex(mesh, tri.vertices[0]),
												   bcMesh_GetVertex(mesh, tri.vertices[1]),
												   bcMesh_GetVertex(mesh, tri.vertices[2]));
		ck_assert_msg(fabs(cp.distance - in.radius) <= tol, "contact distance %.17g, r %.17g", cp.distance, in.radius);
		ck_assert_msg(bcDistance(cp.point, out->point) <= tol + 1e-7 * scale, "point off by %g",
					  bcDistance(cp.point, out->point));
		ck_assert(fabs(bcLength(out->normal) - 1.0) <= 1e-12);
		ck_assert(counted(tri.normal, d, twoSided));
	}
	double until = out->state == bc_castMiss ? 1.0 : out->alpha;
	if (out->state == bc_castInitialOverlap) {
		double dist = meshDistance(mesh, in.p0, d, twoSided, &which);
		ck_assert(dist < in.radius + tol);
		return;
	}
	for (int k = 0; k <= EARLIER_SAMPLES; ++k) {
		double a = until * k / EARLIER_SAMPLES;
		if (out->state == bc_castHit && k == EARLIER_SAMPLES) {
			a = until * (1.0 - 1e-7);
		}
		bcVec3 c = bcMulAdd(in.p0, a, d);
		double dist = meshDistance(mesh, c, d, twoSided, &which);
		ck_assert_msg(dist >= in.radius - tol, "at alpha %.17g (answer %.17g, state %d) triangle %d is %.17g < r %.17g",
					  a, out->alpha, out->state, which, dist, in.radius);
	}
}

/* Random throws at a mesh: BVH equals brute force bit for bit, and every
 * answer satisfies the definition. */
static void randomBatch(bcMesh* mesh, uint64_t seed, int count, double maxRadius)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 size = bcSub(info.upperBound, info.lowerBound);
	double scale = bcLength(size);
	bcVec3 lo = bcSub(info.lowerBound, bcScale(0.25, size)), hi = bcAdd(info.upperBound, bcScale(0.25, size));
	bcRandom rng = { seed };
	int hits = 0;
	for (int i = 0; i < count; ++i) {
		bcCastInput in;
		in.p0 = bcRandom_InBox(&rng, lo, hi);
		in.p1 = bcRandom_InBox(&rng, lo, hi);
		int kind = i % 4;
		in.radius = kind == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, maxRadius * scale);
		if (kind == 3) {
			/* Short throws near the surface. */
			bcTriangle tri = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
			bcVec3 v = bcMesh_GetVertex(mesh, tri.vertices[0]);
			in.p0 = bcMulAdd(v, 0.02 * scale, bcRandom_OnSphere(&rng));
			in.p1 = bcMulAdd(in.p0, 0.04 * scale, bcRandom_OnSphere(&rng));
			in.radius = bcRandom_Uniform(&rng, 0, 0.01 * scale);
		}
		bool twoSided = i % 5 == 0;
		bcCastOptions fast = bcDefaultCastOptions(), brute = bcDefaultCastOptions();
		fast.twoSided = brute.twoSided = twoSided;
		brute.bruteForce = true;
		bcCastOutput a = bcMesh_Cast(mesh, in, &fast);
		bcCastOutput b = bcMesh_Cast(mesh, in, &brute);
		ck_assert_msg(sameOutput(&a, &b), "throw %d: bvh and brute force differ (alpha %.17g vs %.17g, tri %d vs %d)", i,
					  a.alpha, b.alpha, a.triangle, b.triangle);
		checkProperties(mesh, in, &a, twoSided, scale);
		hits += a.state != bc_castMiss;
	}
	ck_assert_int_gt(hits, count / 10);
}

START_TEST(random_icosphere)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 2, bcMakeVec3(0.5, -0.25, 2), 1.5, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomBatch(mesh, 1, 400, 0.2);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_room)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(-2, -1, 0), bcMakeVec3(2, 1, 1.5), 4, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomBatch(mesh, 2, 400, 0.1);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_terrain)
{
	bcGenMesh g = { 0 };
	bcGenTerrain(&g, 16, 10.0, 3);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomBatch(mesh, 3, 400, 0.05);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(random_soup)
{
	bcGenMesh g = { 0 };
	bcGenSoup(&g, 300, 10.0, 1.0, 4);
	bcMesh* mesh = bcGenMesh_Build(&g);
	randomBatch(mesh, 4, 400, 0.05);
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
	bcRandom rng = { 5 };
	/* BVH against brute force on many throws; the property check on a few
	 * (each costs a full pass over 70k triangles per sample). */
	for (int i = 0; i < 300; ++i) {
		bcCastInput in;
		in.p0 = bcRandom_InBox(&rng, bcSub(info.lowerBound, size), bcAdd(info.upperBound, size));
		in.p1 = bcRandom_InBox(&rng, info.lowerBound, info.upperBound);
		in.radius = i % 3 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, 0.02 * bcLength(size));
		bcCastOptions brute = bcDefaultCastOptions();
		brute.bruteForce = true;
		bcCastOutput a = bcMesh_Cast(mesh, in, NULL);
		bcCastOutput b = bcMesh_Cast(mesh, in, &brute);
		ck_assert_msg(sameOutput(&a, &b), "throw %d differs", i);
		if (i < 6) {
			checkProperties(mesh, in, &a, false, bcLength(size));
		}
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* Every throw from inside a closed inward-facing mesh must hit. Targets:
 * random points, vertices, edge midpoints, exactly; r = 0 and r > 0. */
static void leakTest(bcMesh* mesh, bcVec3 lo, bcVec3 hi, uint64_t seed, int count, double beyond)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcRandom rng = { seed };
	int escapes = 0;
	for (int i = 0; i < count; ++i) {
		bcCastInput in;
		in.p0 = bcRandom_InBox(&rng, lo, hi);
		bcTriangle tri = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
		bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[0]), b = bcMesh_GetVertex(mesh, tri.vertices[1]),
			   c = bcMesh_GetVertex(mesh, tri.vertices[2]);
		bcVec3 target;
		switch (i % 4) {
		case 0:
			target = a; /* a shared vertex */
			break;
		case 1:
			target = bcScale(0.5, bcAdd(a, b)); /* a shared edge */
			break;
		case 2: {
			double u = bcRandom_Uniform(&rng, 0, 1), v = bcRandom_Uniform(&rng, 0, 1 - u);
			target = bcAdd(a, bcAdd(bcScale(u, bcSub(b, a)), bcScale(v, bcSub(c, a))));
			break;
		}
		default:
			/* Any direction, far beyond the mesh. */
			target = bcMulAdd(in.p0, 100.0, bcRandom_OnSphere(&rng));
			break;
		}
		in.p1 = bcAdd(in.p0, bcScale(beyond, bcSub(target, in.p0)));
		in.radius = i % 2 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, 0.05);
		bcCastOutput out = bcMesh_Cast(mesh, in, NULL);
		if (out.state != bc_castHit && out.state != bc_castInitialOverlap) {
			++escapes;
			ck_assert_msg(0, "throw %d escaped: p0 (%.17g %.17g %.17g) p1 (%.17g %.17g %.17g) r %.17g", i, in.p0.x,
						  in.p0.y, in.p0.z, in.p1.x, in.p1.y, in.p1.z, in.radius);
		}
	}
	ck_assert_int_eq(escapes, 0);
}

START_TEST(closed_room_never_leaks)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(-1, -1, -1), bcMakeVec3(1, 1, 1), 7, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	leakTest(mesh, bcMakeVec3(-0.9, -0.9, -0.9), bcMakeVec3(0.9, 0.9, 0.9), 11, 20000, 2.0);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(inward_icosphere_never_leaks)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, bcMakeVec3(0.1, 0.2, 0.3), 1.0, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	leakTest(mesh, bcMakeVec3(-0.4, -0.3, -0.2), bcMakeVec3(0.6, 0.7, 0.8), 12, 20000, 1.5);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(outward_icosphere_from_outside_always_hit)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcRandom rng = { 13 };
	for (int i = 0; i < 20000; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
		bcVec3 a = bcMesh_GetVertex(mesh, tri.vertices[0]), b = bcMesh_GetVertex(mesh, tri.vertices[1]);
		bcVec3 c = bcMesh_GetVertex(mesh, tri.vertices[2]);
		double u = bcRandom_Uniform(&rng, 0, 1), v = bcRandom_Uniform(&rng, 0, 1 - u);
		bcVec3 inside = bcAdd(a, bcAdd(bcScale(u, bcSub(b, a)), bcScale(v, bcSub(c, a))));
		bcVec3 target = i % 3 == 0 ? a : (i % 3 == 1 ? bcScale(0.5, bcAdd(a, b)) : inside);
		bcCastInput in;
		/* Come in within about 20 degrees of the radial direction, so the
		 * path enters the sphere (every face around the target faces it)
		 * rather than grazing a silhouette edge. */
		bcVec3 in0 = bcAdd(bcNormalize(target), bcScale(0.35, bcRandom_OnSphere(&rng)));
		in.p0 = bcMulAdd(target, bcRandom_Uniform(&rng, 0.5, 3), in0);
		in.p1 = bcAdd(in.p0, bcScale(1.3, bcSub(target, in.p0)));
		in.radius = i % 2 ? 0.0 : 0.01;
		bcCastOutput out = bcMesh_Cast(mesh, in, NULL);
		ck_assert_msg(out.state == bc_castHit, "throw %d missed: p0 (%.17g %.17g %.17g) p1 (%.17g %.17g %.17g) r %g", i,
					  in.p0.x, in.p0.y, in.p0.z, in.p1.x, in.p1.y, in.p1.z, in.radius);
		ck_assert(bcDot(out.triangleNormal, bcSub(in.p1, in.p0)) <= 0.0);
	}
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(offset_scenes_agree)
{
	bcGenMesh g0 = { 0 }, g1 = { 0 };
	bcVec3 offset = { 1e6, -1e6, 1e6 };
	bcGenIcosphere(&g0, 2, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcGenIcosphere(&g1, 2, offset, 1.0, 0);
	bcMesh* m0 = bcGenMesh_Build(&g0);
	bcMesh* m1 = bcGenMesh_Build(&g1);
	bcRandom rng = { 14 };
	int agreeing = 0;
	for (int i = 0; i < 2000; ++i) {
		bcCastInput in0;
		in0.p0 = bcScale(3, bcRandom_OnSphere(&rng));
		in0.p1 = bcScale(bcRandom_Uniform(&rng, 0, 0.5), bcRandom_OnSphere(&rng));
		in0.radius = i % 2 ? 0 : 0.1;
		bcCastInput in1 = in0;
		in1.p0 = bcAdd(in0.p0, offset);
		in1.p1 = bcAdd(in0.p1, offset);
		bcCastOutput a = bcMesh_Cast(m0, in0, NULL);
		bcCastOutput b = bcMesh_Cast(m1, in1, NULL);
		ck_assert_int_eq(a.state, b.state);
		/* Coordinates near 1e6 carry an absolute rounding of about 1e-10. */
		ck_assert_msg(fabs(a.alpha - b.alpha) <= 1e-8, "throw %d: %.17g vs %.17g", i, a.alpha, b.alpha);
		agreeing += a.triangle == b.triangle;
	}
	ck_assert_int_ge(agreeing, 1990);
	bcMesh_Destroy(m0);
	bcMesh_Destroy(m1);
	bcGenMesh_Free(&g0);
	bcGenMesh_Free(&g1);
}
END_TEST

START_TEST(batch_is_thread_independent)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	enum { n = 3000 };
	static bcCastInput in[n];
	static bcCastOutput one[n], many[n];
	bcRandom rng = { 15 };
	for (int i = 0; i < n; ++i) {
		in[i].p0 = bcScale(3, bcRandom_OnSphere(&rng));
		in[i].p1 = bcScale(3, bcRandom_OnSphere(&rng));
		in[i].radius = bcRandom_Uniform(&rng, 0, 0.2);
	}
	in[7].radius = -1;
	bcMesh_CastBatch(mesh, in, one, n, NULL, 1);
	for (int threads = 2; threads <= 8; threads *= 2) {
		memset(many, 0xff, sizeof many); /* every output must be written again */
		bcMesh_CastBatch(mesh, in, many, n, NULL, threads);
		for (int i = 0; i < n; ++i) {
			ck_assert(sameOutput(one + i, many + i));
		}
	}
	ck_assert_int_eq(one[7].state, bc_castInvalid);
	for (int i = 0; i < n; i += 97) {
		bcCastOutput single = bcMesh_Cast(mesh, in[i], NULL);
		ck_assert(sameOutput(one + i, &single));
	}
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

/* bcMesh_CastBatch casts in space order, window by window: more casts than
 * one window (65,536), some invalid (NaN, infinite, huge, negative radius),
 * some at one point, must each answer as bcMesh_Cast does. */
START_TEST(batch_space_order_answers_as_input_order)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 2, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	enum { n = 70001 };
	static bcCastInput in[n];
	static bcCastOutput batch[n];
	bcRandom rng = { 16 };
	for (int i = 0; i < n; ++i) {
		in[i].p0 = bcScale(bcRandom_Uniform(&rng, 0.5, 2.0), bcRandom_OnSphere(&rng));
		in[i].p1 = bcAdd(in[i].p0, bcScale(bcRandom_Uniform(&rng, 0.0, 1.5), bcRandom_OnSphere(&rng)));
		in[i].radius = bcRandom_Uniform(&rng, 0, 0.1);
	}
	for (int i = 0; i < 16; ++i) {
		in[100 * i + 3].p0 = in[5].p0; /* equal keys */
	}
	in[11].p0.x = NAN;
	in[12].p1.y = INFINITY;
	in[13].p0.z = -1e300;
	in[65537].radius = -1;
	in[65538].p0.x = NAN;
	memset(batch, 0xff, sizeof batch);
	bcMesh_CastBatch(mesh, in, batch, n, NULL, 2);
	for (int i = 0; i < n; ++i) {
		bcCastOutput single = bcMesh_Cast(mesh, in[i], NULL);
		ck_assert_msg(sameOutput(batch + i, &single), "cast %d", i);
	}
	ck_assert_int_eq(batch[11].state, bc_castInvalid);
	ck_assert_int_eq(batch[65538].state, bc_castInvalid);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

START_TEST(create_from_arrays_errors)
{
	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	const int32_t bad[] = { 0, 1, 3 };
	bcError error;
	bcMeshDef def = { v, 3, bad, 1, NULL, 0 };
	ck_assert_ptr_null(bcMesh_Create(&def, &error));
	ck_assert_int_eq(error.code, bc_errorIndex);
	const double nan[] = { 0, 0, 0, 1, NAN, 0, 0, 1, 0 };
	const int32_t ok[] = { 0, 1, 2 };
	bcMeshDef def2 = { nan, 3, ok, 1, NULL, 0 };
	ck_assert_ptr_null(bcMesh_Create(&def2, &error));
	ck_assert_int_eq(error.code, bc_errorValue);
	bcMeshDef def3 = { v, 3, ok, 0, NULL, 0 };
	ck_assert_ptr_null(bcMesh_Create(&def3, &error));
	ck_assert_int_eq(error.code, bc_errorEmpty);
	/* Degenerate triangles are counted and never hit. */
	const double line[] = { 0, 0, 0, 1, 0, 0, 2, 0, 0 };
	bcMeshDef def4 = { line, 3, ok, 1, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def4, &error);
	ck_assert_ptr_nonnull(mesh);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).degenerateCount, 1);
	bcCastInput in = { { 1, 0, 1 }, { 1, 0, -1 }, 0.5 };
	ck_assert_int_eq(bcMesh_Cast(mesh, in, NULL).state, bc_castMiss);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ------------------------------------------------- batch with ties */

static bool sameContact(const bcContact* a, const bcContact* b)
{
	return a->triangle == b->triangle && a->feature == b->feature && a->vertexCount == b->vertexCount &&
		   memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 && memcmp(&a->alpha, &b->alpha, sizeof a->alpha) == 0 &&
		   memcmp(&a->normal, &b->normal, sizeof a->normal) == 0;
}

/* Balls thrown at the bunny: a third at its vertices and a third at its
 * edges' midpoints, straight against a triangle's normal (ties between
 * the triangles around them), the rest at random, and a few invalid. */
static void bunnyThrows(const bcMesh* mesh, bcCastInput* in, int n)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 size = bcSub(info.upperBound, info.lowerBound);
	bcRandom rng = { 19 };
	for (int i = 0; i < n; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
		bcVec3 a = bcMesh_GetVertex(mesh, t.vertices[0]), b = bcMesh_GetVertex(mesh, t.vertices[1]);
		double reach = 0.05 * bcLength(size);
		in[i].radius = i % 2 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, 0.002 * bcLength(size));
		if (i % 3 != 2 && !t.degenerate) {
			bcVec3 target = i % 3 == 0 ? a : bcScale(0.5, bcAdd(a, b));
			in[i].p0 = bcMulAdd(target, reach, t.normal);
			in[i].p1 = bcMulAdd(target, -reach, t.normal);
		} else {
			in[i].p0 = bcRandom_InBox(&rng, bcSub(info.lowerBound, size), bcAdd(info.upperBound, size));
			in[i].p1 = bcRandom_InBox(&rng, info.lowerBound, info.upperBound);
		}
	}
	in[5].radius = -1;
	in[6].p0.x = NAN;
	in[7].p1.z = 1e300;
}

/* bcMesh_CastBatchTies answers every cast as bcMesh_CastTies does (the
 * same output, the same tied contacts in the same order), whatever the
 * threads, with the normal each mode asks for, on a real mesh; and
 * bcMesh_CastBatchWithOptions gives the same answers, bit for bit, when it
 * lists no ties (the average normal then collects and drops them). */
START_TEST(batch_ties_equal_single_casts)
{
	const char* dir = getenv("BALLCAST_MESHES");
	char path[4096];
	snprintf(path, sizeof path, "%s/stanford-bunny.obj", dir != NULL ? dir : "tests/data/meshes");
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s: %s", path, error.message);
	enum { n = 3000, room = 256 };
	static bcCastInput in[n];
	static bcCastOutput batch[n], again[n];
	bunnyThrows(mesh, in, n);
	bcContact ties[room];
	long tiedCasts = 0;
	const bcNormalMode modes[] = { bc_normalContact, bc_normalTriangle, bc_normalAverage };
	for (int m = 0; m < 3; ++m) {
		bcBatchOptions options = bcDefaultBatchOptions();
		options.normal = modes[m];
		options.threadCount = 3;
		memset(batch, 0xff, sizeof batch); /* every output must be written */
		bcTieList* list = bcMesh_CastBatchTies(mesh, in, batch, n, &options, &error);
		ck_assert_ptr_nonnull(list);
		ck_assert_int_eq(list->castCount, n);
		ck_assert_uint_eq(list->first[0], 0);
		ck_assert_uint_eq(list->first[n], list->contactCount);
		/* no list: the same answers, the normal included */
		memset(again, 0xff, sizeof again);
		ck_assert(bcMesh_CastBatchWithOptions(mesh, in, again, n, &options, NULL, &error));
		for (int i = 0; i < n; ++i) {
			ck_assert_msg(sameOutput(again + i, batch + i), "cast %d: output without a list", i);
		}
		for (int i = 0; i < n; ++i) {
			bcCastOutput single;
			int count = bcMesh_CastTies(mesh, in[i], &options.cast, &single, ties, room);
			ck_assert_int_le(count, room);
			bcVec3 expected = single.normal;
			if (single.state == bc_castHit || single.state == bc_castInitialOverlap) {
				if (modes[m] == bc_normalTriangle) {
					expected = single.triangleNormal;
				} else if (modes[m] == bc_normalAverage) {
					/* the tied triangles' front normals, each once */
					bcVec3 sum = { 0, 0, 0 };
					for (int k = 0; k < count; ++k) {
						if (k == 0 || ties[k].triangle != ties[k - 1].triangle) {
							sum = bcAdd(sum, bcMesh_GetTriangle(mesh, ties[k].triangle).normal);
						}
					}
					double length = bcLength(sum);
					expected = length > 0 ? bcScale(1.0 / length, sum) : single.triangleNormal;
				}
			}
			bcVec3 normal = batch[i].normal;
			if (modes[m] == bc_normalAverage) {
				bcAssertVecNear(normal, expected.x, expected.y, expected.z, 1e-15);
			} else {
				ck_assert_msg(memcmp(&normal, &expected, sizeof normal) == 0, "cast %d: normal", i);
			}
			batch[i].normal = single.normal;
			ck_assert_msg(sameOutput(batch + i, &single), "cast %d: output", i);
			ck_assert(memcmp(&batch[i].triangleNormal, &single.triangleNormal, sizeof single.triangleNormal) == 0);
			ck_assert_msg(list->first[i + 1] - list->first[i] == (size_t)count, "cast %d: %zu ties, not %d", i,
						  list->first[i + 1] - list->first[i], count);
			for (int k = 0; k < count; ++k) {
				ck_assert_msg(sameContact(list->contacts + list->first[i] + k, ties + k), "cast %d tie %d", i, k);
			}
			tiedCasts += m == 0 && count > 1;
		}
		/* one thread: the same list */
		options.threadCount = 1;
		bcTieList* one = bcMesh_CastBatchTies(mesh, in, again, n, &options, NULL);
		ck_assert_ptr_nonnull(one);
		ck_assert_uint_eq(one->contactCount, list->contactCount);
		ck_assert(memcmp(one->first, list->first, (n + 1) * sizeof *one->first) == 0);
		for (size_t k = 0; k < one->contactCount; ++k) {
			ck_assert(sameContact(one->contacts + k, list->contacts + k));
		}
		bcTieList_Destroy(one);
		bcTieList_Destroy(list);
	}
	/* the throws at vertices and edges do make ties */
	ck_assert_int_gt(tiedCasts, n / 4);
	ck_assert_int_eq(batch[5].state, bc_castInvalid);
	ck_assert_int_eq(batch[6].state, bc_castInvalid);
	ck_assert_int_eq(batch[7].state, bc_castInvalid);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The room's corner (8,6,3) is shared by ceiling triangles 2 and 3 (-z),
 * wall x = 8's triangles 6 and 7 (-x) and wall y = 6's triangle 8 (-y): a
 * point aimed at it ties them all, and the average normal is
 * (-2,-1,-2) / 3. */
START_TEST(batch_normal_modes_at_the_room_corner)
{
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj("samples/room.obj", NULL, &error);
	ck_assert_msg(mesh != NULL, "samples/room.obj: %s", error.message);
	bcCastInput in[2] = { { { 4, 1.5, 0.75 }, { 12, 10.5, 5.25 }, 0 }, { { 4, 3, 1.5 }, { 4.5, 3, 1.5 }, 0 } };
	bcCastOutput out[2];
	bcBatchOptions options = bcDefaultBatchOptions();
	options.normal = bc_normalAverage;
	bcTieList* list = bcMesh_CastBatchTies(mesh, in, out, 2, &options, &error);
	ck_assert_ptr_nonnull(list);
	ck_assert_int_eq(out[0].state, bc_castHit);
	ck_assert_int_eq(out[0].triangle, 2);
	ck_assert(out[0].alpha == 0.5);
	ck_assert(out[0].normal.x == -2.0 / 3.0 && out[0].normal.y == -1.0 / 3.0 && out[0].normal.z == -2.0 / 3.0);
	bool seen[16] = { false };
	for (size_t k = list->first[0]; k < list->first[1]; ++k) {
		seen[list->contacts[k].triangle] = true;
	}
	for (int t = 0; t < 16; ++t) {
		ck_assert_msg(seen[t] == (t == 2 || t == 3 || t == 6 || t == 7 || t == 8), "triangle %d", t);
	}
	/* the second ball flies free: a miss, no ties */
	ck_assert_int_eq(out[1].state, bc_castMiss);
	ck_assert_uint_eq(list->first[2], list->first[1]);
	/* one cast at a time: bcMesh_CastNormal gives each mode's normal */
	bcCastOutput alone;
	bcContact tied[64];
	int count = bcMesh_CastTies(mesh, in[0], NULL, &alone, tied, 64);
	ck_assert_int_le(count, 64);
	ck_assert_int_eq((size_t)count, list->first[1]);
	bcVec3 average = bcMesh_CastNormal(mesh, &alone, tied, count, bc_normalAverage);
	ck_assert(average.x == -2.0 / 3.0 && average.y == -1.0 / 3.0 && average.z == -2.0 / 3.0);
	bcVec3 front = bcMesh_CastNormal(mesh, &alone, NULL, 0, bc_normalTriangle);
	ck_assert(front.x == 0 && front.y == 0 && front.z == -1);
	bcVec3 contact = bcMesh_CastNormal(mesh, &alone, NULL, 0, bc_normalContact);
	ck_assert(memcmp(&contact, &alone.normal, sizeof contact) == 0);
	/* no ties given: nothing to average, the triangle's normal */
	average = bcMesh_CastNormal(mesh, &alone, NULL, 0, bc_normalAverage);
	ck_assert(average.x == 0 && average.y == 0 && average.z == -1);
	/* a miss keeps its normal, whatever the mode */
	bcCastOutput miss = bcMesh_Cast(mesh, in[1], NULL);
	for (int m = bc_normalContact; m <= bc_normalAverage; ++m) {
		bcVec3 kept = bcMesh_CastNormal(mesh, &miss, tied, count, (bcNormalMode)m);
		ck_assert(memcmp(&kept, &miss.normal, sizeof kept) == 0);
	}
	bcTieList_Destroy(list);
	options.normal = bc_normalTriangle;
	list = bcMesh_CastBatchTies(mesh, in, out, 2, &options, NULL);
	ck_assert(out[0].normal.x == 0 && out[0].normal.y == 0 && out[0].normal.z == -1);
	bcTieList_Destroy(list);
	options.normal = bc_normalContact;
	list = bcMesh_CastBatchTies(mesh, in, out, 2, &options, NULL);
	bcCastOutput single = bcMesh_Cast(mesh, in[0], NULL);
	ck_assert(sameOutput(out, &single));
	bcTieList_Destroy(list);
	/* an empty batch: an empty list */
	list = bcMesh_CastBatchTies(mesh, in, out, 0, NULL, NULL);
	ck_assert_ptr_nonnull(list);
	ck_assert_int_eq(list->castCount, 0);
	ck_assert_uint_eq(list->contactCount, 0);
	ck_assert_uint_eq(list->first[0], 0);
	bcTieList_Destroy(list);
	list = NULL;
	ck_assert(bcMesh_CastBatchWithOptions(mesh, in, out, -3, NULL, &list, NULL));
	ck_assert_ptr_nonnull(list);
	ck_assert_int_eq(list->castCount, 0);
	bcTieList_Destroy(list);
	bcTieList_Destroy(NULL);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The ordered walk (float lower bounds, exact tests in their order,
 * stopping past the tie window) and brute force answer alike, every field
 * and every tied contact, bit for bit. Returns the tie count. */
static int castBothWays(const bcMesh* mesh, bcCastInput in, bool twoSided, const char* what, int i)
{
	enum { room = 64 };
	bcContact fastTies[room], bruteTies[room];
	bcCastOptions fast = bcDefaultCastOptions(), brute = bcDefaultCastOptions();
	fast.twoSided = brute.twoSided = twoSided;
	brute.bruteForce = true;
	bcCastOutput a, b;
	int n = bcMesh_CastTies(mesh, in, &fast, &a, fastTies, room);
	int m = bcMesh_CastTies(mesh, in, &brute, &b, bruteTies, room);
	ck_assert_msg(sameOutput(&a, &b) && memcmp(&a.triangleNormal, &b.triangleNormal, sizeof a.triangleNormal) == 0,
				  "%s %d: the walk and brute force differ (state %d/%d alpha %.17g/%.17g triangle %d/%d ties %d/%d)",
				  what, i, a.state, b.state, a.alpha, b.alpha, a.triangle, b.triangle, a.tieCount, b.tieCount);
	ck_assert_msg(n == m, "%s %d: %d tied contacts, brute force %d", what, i, n, m);
	bcCastOutput c;
	ck_assert_msg(bcMesh_CastTies(mesh, in, &fast, &c, NULL, 0) == n && sameOutput(&a, &c),
				  "%s %d: counting the ties without room answers otherwise", what, i);
	for (int k = 0; k < n && k < room; ++k) {
		ck_assert_msg(sameContact(fastTies + k, bruteTies + k), "%s %d: tie %d differs", what, i, k);
	}
	return n;
}

/* The float part must never decide what is answered; these scenes put
 * its every boundary in the way. A stack of copies of one triangle, each
 * lower than the last by steps that put its alpha 0, an ulp, just inside,
 * at and just outside the tie window (1e-10) behind the first one's, for
 * points and balls dropped straight and at a slant: the stopping rule
 * (bound <= best + window) is met within an ulp of the bound, and the
 * copies in the window must all be found and listed. The same far from the
 * origin (1e7, unit features: the floats' own ulp there is 1). Slivers at
 * the degeneracy threshold in a fan. */
START_TEST(float_boundaries_agree_with_brute_force)
{
	const double offsets[] = { 0.0, 1e7 };
	const double steps[] = { 0.0, 0x1p-52, 1.0 - 0x1p-20, 1.0 - 0x1p-40, 1.0, 1.0 + 0x1p-40, 1.0 + 0x1p-20, 2.0 };
	enum { layers = 8 };
	for (int o = 0; o < 2; ++o) {
		double off = offsets[o];
		bcGenMesh g = { 0 };
		double z = 0.5;
		/* Each layer a step further down: alphas (1 - z) / 2 for a drop
		 * from 1 to -1 at r = 0; the ball's the same, shifted by r. */
		for (int k = 0; k < layers; ++k) {
			int32_t a = bcGenMesh_AddVertex(&g, off, off, off + z);
			int32_t b = bcGenMesh_AddVertex(&g, off + 1.0, off, off + z);
			int32_t c = bcGenMesh_AddVertex(&g, off, off + 1.0, off + z);
			bcGenMesh_AddTriangle(&g, a, b, c);
			z -= 2.0 * BC_ALPHA_TIE_TOLERANCE * steps[k];
		}
		bcMesh* mesh = bcGenMesh_Build(&g);
		ck_assert_ptr_nonnull(mesh);
		bcRandom rng = { 30 + (uint64_t)o };
		int tied = 0;
		for (int i = 0; i < 400; ++i) {
			double r = i % 2 == 0 ? 0.0 : 0.1 * bcRandom_Uniform(&rng, 0.5, 1.5);
			double x = bcRandom_Uniform(&rng, 0.05, 0.6), y = bcRandom_Uniform(&rng, 0.05, 0.35);
			double slant = i % 4 < 2 ? 0.0 : bcRandom_Uniform(&rng, -0.3, 0.3);
			bcCastInput in = { { off + x, off + y, off + 1.0 + r }, { off + x + slant, off + y, off - 1.0 + r }, r };
			if (i % 8 == 7) {
				/* Onto the hypotenuse or a vertex: features tie too. */
				in.p0.x = in.p1.x = off + (i % 16 == 7 ? 0.0 : 1.0 - y);
			}
			int n = castBothWays(mesh, in, i % 3 == 0, "stack", i);
			tied += n > 1;
		}
		ck_assert_int_gt(tied, 100);
		/* Straight down at r = 0: the layers whose step puts them within
		 * the window of the top one (the first four, with the duplicate and
		 * the ulp step) are all listed; the 2-window step is not. */
		bcCastInput drop = { { off + 0.25, off + 0.25, off + 1.0 }, { off + 0.25, off + 0.25, off - 1.0 }, 0.0 };
		int n = castBothWays(mesh, drop, false, "drop", 0);
		if (o == 0) {
			ck_assert_int_ge(n, 4);
			ck_assert_int_le(n, 7);
		}
		bcMesh_Destroy(mesh);
		bcGenMesh_Free(&g);
	}

	/* A fan of slivers at the threshold (sines from 0.99 to 4 times
	 * BC_SLIVER_SINE: some degenerate, some not) and ordinary triangles
	 * around a point, at the origin and at 1e7. */
	for (int o = 0; o < 2; ++o) {
		double off = offsets[o];
		bcGenMesh g = { 0 };
		const double sines[] = { 0.99, 1.0, 1.01, 1.1, 2.0, 4.0 };
		int32_t apex = bcGenMesh_AddVertex(&g, off, off, off);
		for (int k = 0; k < 24; ++k) {
			double t0 = 0.2617993877991494 * k, t1 = t0 + (k % 2 == 0 ? sines[(k / 2) % 6] * BC_SLIVER_SINE : 0.25);
			int32_t b = bcGenMesh_AddVertex(&g, off + cos(t0), off + sin(t0), off + 0.01 * (k % 3));
			int32_t c = bcGenMesh_AddVertex(&g, off + cos(t1), off + sin(t1), off + 0.01 * (k % 3));
			bcGenMesh_AddTriangle(&g, apex, b, c);
		}
		bcMesh* mesh = bcGenMesh_Build(&g);
		ck_assert_ptr_nonnull(mesh);
		bcRandom rng = { 40 + (uint64_t)o };
		for (int i = 0; i < 600; ++i) {
			double r = i % 3 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0.0, 0.2);
			bcVec3 target = bcMakeVec3(off + bcRandom_Uniform(&rng, -1, 1), off + bcRandom_Uniform(&rng, -1, 1), off);
			if (i % 5 == 0) {
				target = bcMakeVec3(off, off, off); /* the apex every triangle shares */
			}
			bcVec3 from = bcMulAdd(target, bcRandom_Uniform(&rng, 0.3, 2.0), bcRandom_OnSphere(&rng));
			bcCastInput in = { from, bcMulAdd(target, -0.5, bcSub(from, target)), r };
			castBothWays(mesh, in, i % 2 == 0, "slivers", i);
		}
		bcMesh_Destroy(mesh);
		bcGenMesh_Free(&g);
	}

	/* An icosphere of radius 1 at 1e7 (edges about 0.15): short and long
	 * throws, at its vertices (every triangle around ties) and anywhere. */
	bcGenMesh g = { 0 };
	bcVec3 center = { 1e7, -2e7, 1e7 };
	bcGenIcosphere(&g, 3, center, 1.0, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcRandom rng = { 50 };
	int tied = 0;
	for (int i = 0; i < 1500; ++i) {
		double r = i % 2 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0.0, 0.1);
		bcVec3 target = bcMulAdd(center, 1.0, bcRandom_OnSphere(&rng));
		if (i % 3 == 0) {
			target = bcMesh_GetVertex(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.vertexCount));
		}
		bcVec3 out = bcSub(target, center);
		double length = i % 4 == 0 ? 2.5 : 0.2;
		bcCastInput in = { bcMulAdd(target, 0.5 * length + r, out), bcMulAdd(target, -0.5 * length, out), r };
		tied += castBothWays(mesh, in, i % 5 == 0, "far icosphere", i) > 1;
	}
	ck_assert_int_gt(tied, 100);
	bcMesh_Destroy(mesh);
	bcGenMesh_Free(&g);
}
END_TEST

static Suite* castSuite(void)
{
	Suite* s = suite_create("cast");
	TCase* tc = tcase_create("mesh");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, shared_edge_tie_goes_to_lowest_triangle);
	tcase_add_test(tc, lowest_triangle_among_same_alpha);
	tcase_add_test(tc, tied_answer_has_the_earliest_alpha);
	tcase_add_test(tc, random_icosphere);
	tcase_add_test(tc, random_room);
	tcase_add_test(tc, random_terrain);
	tcase_add_test(tc, random_soup);
	tcase_add_test(tc, real_mesh_bunny);
	tcase_add_test(tc, closed_room_never_leaks);
	tcase_add_test(tc, inward_icosphere_never_leaks);
	tcase_add_test(tc, outward_icosphere_from_outside_always_hit);
	tcase_add_test(tc, offset_scenes_agree);
	tcase_add_test(tc, batch_is_thread_independent);
	tcase_add_test(tc, batch_space_order_answers_as_input_order);
	tcase_add_test(tc, create_from_arrays_errors);
	tcase_add_test(tc, batch_ties_equal_single_casts);
	tcase_add_test(tc, batch_normal_modes_at_the_room_corner);
	tcase_add_test(tc, float_boundaries_agree_with_brute_force);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(castSuite());
}
