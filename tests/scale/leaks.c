/* leaks.c - numerical robustness at scale: millions of balls and points
 * thrown from inside closed meshes never escape, and scenes far from the
 * origin or tiny answer like the same scene at the origin.
 * Built and run in the optimised build only (make check), not under ASan. */
#include <stdio.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "vec3.h"

/* Throws per generated closed mesh; half points (r = 0), half balls. */
#define THROWS 1000000

/* Points per real closed mesh (four meshes: a million in all). */
#define REAL_THROWS 250000

/* How far inside a real mesh's surface a throw starts, relative to the
 * mesh's size: small enough to be inside every part of these meshes. */
#define INSIDE_DEPTH 1e-7

typedef struct Tally {
	long throws, escapes, vertexAimed, edgeAimed;
} Tally;

static bcVec3 triangleVertex(const bcMesh* mesh, const bcTriangle* t, int k)
{
	return bcMesh_GetVertex(mesh, t->vertices[k]);
}

/* A target on or beyond the surface: a shared vertex exactly, a shared
 * edge's midpoint, a point inside a triangle, or far away. */
static bcVec3 pickTarget(const bcMesh* mesh, bcRandom* rng, bcVec3 from, int kind, Tally* tally)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcTriangle t = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(rng) % (uint64_t)info.triangleCount));
	bcVec3 a = triangleVertex(mesh, &t, 0), b = triangleVertex(mesh, &t, 1), c = triangleVertex(mesh, &t, 2);
	switch (kind) {
	case 0:
		tally->vertexAimed += 1;
		return a;
	case 1:
		tally->edgeAimed += 1;
		return bcScale(0.5, bcAdd(a, b));
	case 2: {
		double u = bcRandom_Uniform(rng, 0, 1), v = bcRandom_Uniform(rng, 0, 1 - u);
		return bcAdd(a, bcAdd(bcScale(u, bcSub(b, a)), bcScale(v, bcSub(c, a))));
	}
	default: {
		double size = bcDistance(info.lowerBound, info.upperBound);
		return bcMulAdd(from, 2.0 * size, bcRandom_OnSphere(rng));
	}
	}
}

/* Throw from points drawn by `start` towards targets; every throw must
 * touch the mesh. r > 0 balls start at least r inside. */
static Tally throwFromInside(const bcMesh* mesh, bcVec3 lo, bcVec3 hi, long count, double maxRadius, bool twoSided,
							 uint64_t seed)
{
	bcRandom rng = { seed };
	Tally tally = { 0, 0, 0, 0 };
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = twoSided;
	enum { batch = 4096 };
	static bcCastInput in[batch];
	static bcCastOutput out[batch];
	for (long done = 0; done < count; done += batch) {
		int n = count - done < batch ? (int)(count - done) : batch;
		for (int i = 0; i < n; ++i) {
			in[i].p0 = bcRandom_InBox(&rng, lo, hi);
			bcVec3 target = pickTarget(mesh, &rng, in[i].p0, (int)((done + i) % 4), &tally);
			in[i].p1 = bcAdd(in[i].p0, bcScale(1.5, bcSub(target, in[i].p0)));
			in[i].radius = (done + i) % 2 == 0 ? 0.0 : bcRandom_Uniform(&rng, 0, maxRadius);
		}
		bcMesh_CastBatch(mesh, in, out, n, &options, 0);
		for (int i = 0; i < n; ++i) {
			tally.throws += 1;
			if (out[i].state != bc_castHit && out[i].state != bc_castInitialOverlap) {
				if (tally.escapes < 5) {
					fprintf(stderr, "escape: p0 (%.17g %.17g %.17g) p1 (%.17g %.17g %.17g) r %.17g\n", in[i].p0.x,
							in[i].p0.y, in[i].p0.z, in[i].p1.x, in[i].p1.y, in[i].p1.z, in[i].radius);
				}
				tally.escapes += 1;
			}
		}
	}
	return tally;
}

static void report(const char* name, const Tally* t)
{
	printf("leaks %s: %ld throws (%ld at shared vertices, %ld at shared edges), %ld escapes\n", name, t->throws,
		   t->vertexAimed, t->edgeAimed, t->escapes);
}

START_TEST(room_of_a_million_triangles)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(-4, -3, 0), bcMakeVec3(4, 3, 3), 289, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	ck_assert_int_ge(bcMesh_GetInfo(mesh).triangleCount, 1000000);
	Tally t = throwFromInside(mesh, bcMakeVec3(-3.9, -2.9, 0.1), bcMakeVec3(3.9, 2.9, 2.9), THROWS, 0.09, false, 21);
	report("room (1.0M triangles)", &t);
	ck_assert_int_eq(t.escapes, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(inward_icosphere_of_a_million_triangles)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 8, bcMakeVec3(0.5, 0.25, -0.125), 2.0, 1);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	ck_assert_int_ge(bcMesh_GetInfo(mesh).triangleCount, 1000000);
	/* Starts in a cube well inside the sphere (corner at 1.04 of radius 2). */
	Tally t = throwFromInside(mesh, bcMakeVec3(-0.1, -0.35, -0.725), bcMakeVec3(1.1, 0.85, 0.475), THROWS, 0.2, false,
							  22);
	report("icosphere (1.3M triangles)", &t);
	ck_assert_int_eq(t.escapes, 0);
	bcMesh_Destroy(mesh);
}
END_TEST

/* Closed meshes of real shape: start just inside a random triangle (behind
 * it along its normal, which points out of these closed meshes), throw with
 * both sides counted: a segment from inside to the surface or beyond must
 * touch it. Takes the mesh. */
static void throwFromSurface(bcMesh* mesh, const char* name)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double size = bcDistance(info.lowerBound, info.upperBound);
	bcRandom rng = { 23 };
	Tally tally = { 0, 0, 0, 0 };
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = true;
	enum { batch = 4096 };
	static bcCastInput in[batch];
	static bcCastOutput out[batch];
	for (long done = 0; done < REAL_THROWS; done += batch) {
		int n = REAL_THROWS - done < batch ? (int)(REAL_THROWS - done) : batch;
		for (int i = 0; i < n; ++i) {
			bcTriangle t;
			do {
				t = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
			} while (t.degenerate);
			bcVec3 a = triangleVertex(mesh, &t, 0), b = triangleVertex(mesh, &t, 1), c = triangleVertex(mesh, &t, 2);
			bcVec3 centroid = bcScale(1.0 / 3.0, bcAdd(a, bcAdd(b, c)));
			in[i].p0 = bcMulAdd(centroid, -INSIDE_DEPTH * size, t.normal);
			/* Through the target and on, far past the bounding box: the
			 * segment must leave the mesh, so a miss is a real escape (a
			 * segment stopping just past a reflex crease can touch it and
			 * stay inside). */
			bcVec3 target = pickTarget(mesh, &rng, in[i].p0, (int)((done + i) % 4), &tally);
			bcVec3 toward = bcSub(target, in[i].p0);
			in[i].p1 = bcMulAdd(in[i].p0, 2.0 * size / bcLength(toward), toward);
			in[i].radius = 0.0;
		}
		bcMesh_CastBatch(mesh, in, out, n, &options, 0);
		for (int i = 0; i < n; ++i) {
			tally.throws += 1;
			if (out[i].state == bc_castMiss) {
				tally.escapes += 1;
			}
		}
	}
	char label[256];
	snprintf(label, sizeof label, "%s (%ld triangles)", name, (long)info.triangleCount);
	report(label, &tally);
	ck_assert_int_eq(tally.escapes, 0);
	bcMesh_Destroy(mesh);
}

/* A real scan of tests/data/meshes (or of BALLCAST_MESHES). */
static void realMesh(const char* name)
{
	const char* dir = getenv("BALLCAST_MESHES");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "tests/data/meshes", name);
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s: %s", path, error.message);
	throwFromSurface(mesh, name);
}

/* Tube radius swings by this fraction of itself: deep enough for saddles
 * and reflex creases between the bumps, shallow enough that the tube never
 * meets itself (0.4 * 1.25 < 1). */
#define TORUS_BUMP 0.25

/* A closed torus of 12,000 triangles, outward normals, its tube radius
 * 0.4 (1 + TORUS_BUMP sin 5u sin 3v) around a circle of radius 1: curved
 * everywhere both ways, with saddles, like a scan and with no licence to
 * ask about (it replaces homer.obj, whose source's licence is unclear). */
static bcMesh* bumpyTorus(void)
{
	enum { around = 100, across = 60 };
	const double pi = 3.14159265358979323846;
	bcGenMesh g = { 0 };
	for (int i = 0; i < around; ++i) {
		double u = 2.0 * pi * i / around;
		for (int j = 0; j < across; ++j) {
			double v = 2.0 * pi * j / across;
			double r = 0.4 * (1.0 + TORUS_BUMP * sin(5.0 * u) * sin(3.0 * v));
			bcGenMesh_AddVertex(&g, (1.0 + r * cos(v)) * cos(u), (1.0 + r * cos(v)) * sin(u), r * sin(v));
		}
	}
	for (int i = 0; i < around; ++i) {
		for (int j = 0; j < across; ++j) {
			int32_t a = i * across + j, b = ((i + 1) % around) * across + j;
			int32_t c = ((i + 1) % around) * across + (j + 1) % across, d = i * across + (j + 1) % across;
			bcGenMesh_AddTriangle(&g, a, b, c);
			bcGenMesh_AddTriangle(&g, a, c, d);
		}
	}
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	ck_assert(bcMesh_IsClosed(mesh));
	ck_assert_int_eq(bcMesh_GetInfo(mesh).triangleCount, 2 * around * across);
	return mesh;
}

START_TEST(real_closed_meshes)
{
	realMesh("fandisk.obj");
	throwFromSurface(bumpyTorus(), "bumpy torus");
	realMesh("nefertiti.obj");
	realMesh("spot.obj");
}
END_TEST

/* The same scene moved by `offset` and scaled by `scale` answers like the
 * original: same state, and alpha within the rounding the coordinates
 * carry, 16 ulp of (|offset| + size) over the path length. */
static void compareMoved(double offset, double scale, uint64_t seed)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, 3, bcMakeVec3(0, 0, 0), 1.0, 0);
	bcGenBox(&g, bcMakeVec3(-3, -3, -3), bcMakeVec3(3, 3, 3), 4, 1);
	bcMesh* m0 = bcGenMesh_Build(&g);
	for (int32_t i = 0; i < 3 * g.vertexCount; ++i) {
		g.vertices[i] = g.vertices[i] * scale + offset;
	}
	bcMesh* m1 = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	bcRandom rng = { seed };
	int agree = 0, count = 20000;
	double worst = 0.0;
	for (int i = 0; i < count; ++i) {
		bcCastInput a;
		a.p0 = bcScale(2.5, bcRandom_OnSphere(&rng));
		a.p1 = bcScale(bcRandom_Uniform(&rng, 0, 2.9), bcRandom_OnSphere(&rng));
		a.radius = i % 2 ? 0.0 : bcRandom_Uniform(&rng, 0, 0.2);
		bcCastInput b = a;
		b.p0 = bcMakeVec3(a.p0.x * scale + offset, a.p0.y * scale + offset, a.p0.z * scale + offset);
		b.p1 = bcMakeVec3(a.p1.x * scale + offset, a.p1.y * scale + offset, a.p1.z * scale + offset);
		b.radius = a.radius * scale;
		bcCastOutput x = bcMesh_Cast(m0, a, NULL), y = bcMesh_Cast(m1, b, NULL);
		double length = bcDistance(b.p0, b.p1);
		double tol = 16.0 * DBL_EPSILON * (fabs(offset) + 6.0 * scale) / (length > 0 ? length : 1.0) + 1e-12;
		if (x.state == y.state && fabs(x.alpha - y.alpha) <= tol) {
			agree += 1;
		}
		double d = fabs(x.alpha - y.alpha) / tol;
		worst = x.state == y.state && d > worst ? d : worst;
	}
	printf("moved by %g, scaled by %g: %d of %d throws agree within 16 ulp of (offset + size) / |d|, worst %.2f of it\n",
		   offset, scale, agree, count, worst);
	/* Grazing contacts may flip between hit and miss; they are rare. */
	ck_assert_int_ge(agree, count - count / 500);
	bcMesh_Destroy(m0);
	bcMesh_Destroy(m1);
}

START_TEST(far_and_tiny_scenes)
{
	compareMoved(1e6, 1.0, 31);
	compareMoved(1e9, 1.0, 32);
	compareMoved(0.0, 1e-6, 33);
	compareMoved(1e3, 1e-6, 34);
}
END_TEST

static Suite* leaksSuite(void)
{
	Suite* s = suite_create("leaks");
	TCase* tc = tcase_create("scale");
	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, room_of_a_million_triangles);
	tcase_add_test(tc, inward_icosphere_of_a_million_triangles);
	tcase_add_test(tc, real_closed_meshes);
	tcase_add_test(tc, far_and_tiny_scenes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(leaksSuite());
}
