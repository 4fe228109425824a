/* bvh.c - unit tests of the bounding volume hierarchy: every query checked
 * against brute force over all triangle boxes, determinism of the build
 * whatever the thread count, and the degenerate corners (zero direction
 * components, zero-length segments, r = 0 or huge, degenerate triangles,
 * coincident centroids, coordinates beyond float range). */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "harness.h"
#include "mesh.h"
#include "vec3.h"

/* pi, for the test sphere. */
#define BC_TEST_PI 3.14159265358979323846

/* Queries per mesh in the brute-force comparisons. */
#define BC_TEST_QUERY_COUNT 2000

/* Seconds a test case may take; the brute-force loops are slow under ASan. */
#define BC_TEST_TIMEOUT 120

/* ---------------------------------------------------------------- random */

typedef struct bcRandom {
	uint64_t state;
} bcRandom;

/* splitmix64: fixed seeds, the same numbers on every platform. */
static uint64_t bcNextRandom(bcRandom* random)
{
	uint64_t z = (random->state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double bcUniform(bcRandom* random)
{
	return (double)(bcNextRandom(random) >> 11) * 0x1.0p-53;
}

static double bcRange(bcRandom* random, double lower, double upper)
{
	return lower + (upper - lower) * bcUniform(random);
}

/* ------------------------------------------------------------------ meshes */

/* Growable arrays for a mesh under construction. */
typedef struct bcSoup {
	double* vertices;
	int32_t vertexCount;
	int32_t* triangles;
	int32_t triangleCount;
	int32_t capacity;
} bcSoup;

static void bcSoupAdd(bcSoup* soup, const double a[3], const double b[3], const double c[3])
{
	if (soup->triangleCount == soup->capacity) {
		soup->capacity = soup->capacity > 0 ? 2 * soup->capacity : 256;
		soup->vertices = realloc(soup->vertices, (size_t)soup->capacity * 9 * sizeof(double));
		soup->triangles = realloc(soup->triangles, (size_t)soup->capacity * 3 * sizeof(int32_t));
		bcRequire(soup->vertices != NULL && soup->triangles != NULL, "out of memory");
	}
	const double* corners[3] = { a, b, c };
	for (int i = 0; i < 3; ++i) {
		memcpy(soup->vertices + 3 * soup->vertexCount, corners[i], 3 * sizeof(double));
		soup->triangles[3 * soup->triangleCount + i] = soup->vertexCount;
		soup->vertexCount += 1;
	}
	soup->triangleCount += 1;
}

static bcMesh* bcSoupMesh(bcSoup* soup)
{
	bcMeshDef def = { soup->vertices, soup->vertexCount, soup->triangles, soup->triangleCount, NULL, 0 };
	bcError error;
	bcMesh* mesh = bcMesh_Create(&def, &error);
	ck_assert_msg(mesh != NULL, "bcMesh_Create failed: %s", error.message);
	free(soup->vertices);
	free(soup->triangles);
	memset(soup, 0, sizeof *soup);
	return mesh;
}

/* Random triangles in a cube of side `size`, edges up to `spread` (some much
 * longer, a few degenerate: repeated corners or collinear ones). */
static bcMesh* bcMakeSoup(uint64_t seed, int count, double size, double spread)
{
	bcRandom random = { seed };
	bcSoup soup = { 0 };
	for (int i = 0; i < count; ++i) {
		double center[3], corners[3][3];
		for (int k = 0; k < 3; ++k) {
			center[k] = bcRange(&random, 0.0, size);
		}
		double s = spread * (bcUniform(&random) < 0.05 ? 20.0 : 1.0);
		for (int v = 0; v < 3; ++v) {
			for (int k = 0; k < 3; ++k) {
				corners[v][k] = center[k] + bcRange(&random, -s, s);
			}
		}
		double kind = bcUniform(&random);
		if (kind < 0.02) {
			memcpy(corners[2], corners[1], sizeof corners[1]); /* two equal corners */
		} else if (kind < 0.04) {
			for (int k = 0; k < 3; ++k) {
				corners[2][k] = 2.0 * corners[1][k] - corners[0][k]; /* collinear */
			}
		}
		bcSoupAdd(&soup, corners[0], corners[1], corners[2]);
	}
	return bcSoupMesh(&soup);
}

/* A height field of (n-1)^2 quads, two triangles each, shared vertices. */
static bcMesh* bcMakeTerrain(uint64_t seed, int n, double cell)
{
	bcRandom random = { seed };
	double* vertices = malloc((size_t)n * (size_t)n * 3 * sizeof(double));
	int32_t* triangles = malloc((size_t)(n - 1) * (size_t)(n - 1) * 6 * sizeof(int32_t));
	ck_assert_ptr_nonnull(vertices);
	ck_assert_ptr_nonnull(triangles);
	for (int j = 0; j < n; ++j) {
		for (int i = 0; i < n; ++i) {
			double* v = vertices + 3 * (j * n + i);
			v[0] = i * cell;
			v[1] = j * cell;
			v[2] = 3.0 * cell * sin(0.3 * i) * cos(0.2 * j) + bcRange(&random, 0.0, 0.5 * cell);
		}
	}
	int32_t t = 0;
	for (int j = 0; j + 1 < n; ++j) {
		for (int i = 0; i + 1 < n; ++i) {
			int32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
			int32_t quad[6] = { a, b, d, a, d, c };
			memcpy(triangles + t, quad, sizeof quad);
			t += 6;
		}
	}
	bcMeshDef def = { vertices, n * n, triangles, t / 3, NULL, 0 };
	bcError error;
	bcMesh* mesh = bcMesh_Create(&def, &error);
	ck_assert_msg(mesh != NULL, "bcMesh_Create failed: %s", error.message);
	free(vertices);
	free(triangles);
	return mesh;
}

/* Many triangles sharing one centroid (concentric, rotated, scaled), plus
 * exact duplicates: the binned SAH finds no split and must cut by count. */
static bcMesh* bcMakeCoincident(uint64_t seed, int count)
{
	bcRandom random = { seed };
	bcSoup soup = { 0 };
	for (int i = 0; i < count; ++i) {
		double s = i % 3 == 0 ? 1.0 : bcRange(&random, 0.1, 5.0);
		double angle = i % 3 == 0 ? 0.0 : bcRange(&random, 0.0, 6.283185307179586);
		double corners[3][3];
		for (int v = 0; v < 3; ++v) {
			double phi = angle + v * 2.0943951023931957;
			corners[v][0] = 10.0 + s * cos(phi);
			corners[v][1] = -4.0 + s * sin(phi);
			corners[v][2] = 7.0;
		}
		/* Centroid exactly (10, -4, 7) only up to rounding; the box centres
		 * differ, which is what the build bins on. */
		bcSoupAdd(&soup, corners[0], corners[1], corners[2]);
	}
	return bcSoupMesh(&soup);
}

/* A soup scaled and moved: coordinates at `scale` around `offset`. */
static bcMesh* bcMakeScaledSoup(uint64_t seed, int count, double scale, double offset)
{
	bcRandom random = { seed };
	bcSoup soup = { 0 };
	for (int i = 0; i < count; ++i) {
		double corners[3][3];
		double center[3];
		for (int k = 0; k < 3; ++k) {
			center[k] = bcRange(&random, -1.0, 1.0);
		}
		for (int v = 0; v < 3; ++v) {
			for (int k = 0; k < 3; ++k) {
				corners[v][k] = offset + scale * (center[k] + bcRange(&random, -0.05, 0.05));
			}
		}
		bcSoupAdd(&soup, corners[0], corners[1], corners[2]);
	}
	return bcSoupMesh(&soup);
}

/* Triangles at distances growing twenty-fold, thirty along each axis in
 * turn: every binned or swept SAH split can only peel the farthest one off,
 * so the tree would be ~90 levels deep; the depth cap must switch to median
 * cuts. Sizes grow with the distance so corners stay distinct in double. */
static bcMesh* bcMakeStaircase(void)
{
	bcSoup soup = { 0 };
	for (int k = 0; k < 3; ++k) {
		double p = 1.0;
		for (int i = 0; i < 30; ++i, p *= 20.0) {
			double s = 1e-3 * p;
			double a[3] = { 0.0, 0.0, 0.0 };
			a[k] = p;
			double b[3] = { a[0] + s, a[1], a[2] }, c[3] = { a[0], a[1] + s, a[2] + s };
			bcSoupAdd(&soup, a, b, c);
		}
	}
	return bcSoupMesh(&soup);
}

/* ------------------------------------------------------------ brute force */

static bool bcIsDegenerateTriangle(const bcMesh* mesh, int32_t t)
{
	bcVec3 n = mesh->normals[t];
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

/* The exact (double) box of a triangle. */
static void bcTriangleBox(const bcMesh* mesh, int32_t t, double lower[3], double upper[3])
{
	for (int k = 0; k < 3; ++k) {
		lower[k] = INFINITY;
		upper[k] = -INFINITY;
	}
	for (int v = 0; v < 3; ++v) {
		bcVec3 p = mesh->vertices[mesh->triangles[3 * t + v]];
		double c[3] = { p.x, p.y, p.z };
		for (int k = 0; k < 3; ++k) {
			lower[k] = fmin(lower[k], c[k]);
			upper[k] = fmax(upper[k], c[k]);
		}
	}
}

/* Straightforward slab test of p + alpha d, alpha in [0, maxAlpha], against
 * the box grown by r; *entry receives the first alpha inside. Independent of
 * the library's: divisions, a branch on d == 0, no padding. */
static bool bcBruteSweep(const double lower[3], const double upper[3], bcVec3 p0, bcVec3 d, double r,
						 double maxAlpha, double* entry)
{
	double p[3] = { p0.x, p0.y, p0.z }, dir[3] = { d.x, d.y, d.z };
	double t0 = 0.0, t1 = maxAlpha;
	for (int k = 0; k < 3; ++k) {
		double lo = lower[k] - r, hi = upper[k] + r;
		if (dir[k] == 0.0) {
			if (p[k] < lo || p[k] > hi) {
				return false;
			}
			continue;
		}
		double a = (lo - p[k]) / dir[k], b = (hi - p[k]) / dir[k];
		if (a > b) {
			double swap = a;
			a = b;
			b = swap;
		}
		t0 = a > t0 ? a : t0;
		t1 = b < t1 ? b : t1;
	}
	*entry = t0;
	return t0 <= t1;
}

static double bcBruteDistance(const double lower[3], const double upper[3], bcVec3 p0)
{
	double p[3] = { p0.x, p0.y, p0.z }, sum = 0.0;
	for (int k = 0; k < 3; ++k) {
		double gap = fmax(fmax(lower[k] - p[k], p[k] - upper[k]), 0.0);
		sum += gap * gap;
	}
	return sqrt(sum);
}

/* --------------------------------------------------------------- queries */

/* What a query visited, and the brute-force answers to check it against. */
typedef struct bcProbe {
	const bcMesh* mesh;
	int32_t* stamps; /* per triangle: the query that last visited it */
	int32_t query;
	int32_t visits;
	bool duplicate, degenerate;
	double* keys; /* per triangle: brute entry alpha or distance, INFINITY when missed */
	bool lower;   /* lower *maxAlpha / *maxDistance to the visited triangle's key */
	double best;
	double initialLimit;
	bool limitChanged;
} bcProbe;

static void bcProbeVisit(bcProbe* probe, int32_t triangle, double* limit)
{
	bcRequire(triangle >= 0 && triangle < probe->mesh->triangleCount, "triangle %d out of range", (int)triangle);
	if (probe->stamps[triangle] == probe->query) {
		probe->duplicate = true;
	}
	probe->stamps[triangle] = probe->query;
	probe->visits += 1;
	probe->degenerate = probe->degenerate || bcIsDegenerateTriangle(probe->mesh, triangle);
	if (!probe->lower) {
		probe->limitChanged = probe->limitChanged || *limit != probe->initialLimit;
		return;
	}
	double key = probe->keys[triangle];
	if (key < probe->best) {
		probe->best = key;
	}
	if (key < *limit) {
		*limit = key;
	}
}

static void bcSweepVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcProbeVisit(context, triangle->index, maxAlpha);
}

static void bcPointVisit(void* context, int32_t triangle, double* maxDistance)
{
	bcProbeVisit(context, triangle, maxDistance);
}

/* A random segment around the mesh: some direction components 0 or -0,
 * sometimes all (a zero-length segment); radii from 0 to larger than the
 * mesh. */
static void bcRandomSegment(bcRandom* random, const bcMesh* mesh, bcVec3* p0, bcVec3* d, double* r)
{
	bcVec3 lo = mesh->lowerBound, hi = mesh->upperBound;
	double size = fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z);
	double margin = 0.2 * size;
	p0->x = bcRange(random, lo.x - margin, hi.x + margin);
	p0->y = bcRange(random, lo.y - margin, hi.y + margin);
	p0->z = bcRange(random, lo.z - margin, hi.z + margin);
	double length = size * pow(10.0, bcRange(random, -3.0, 0.3));
	double c[3];
	for (int k = 0; k < 3; ++k) {
		double u = bcUniform(random);
		c[k] = u < 0.1 ? 0.0 : (u < 0.2 ? -0.0 : bcRange(random, -length, length));
	}
	if (bcUniform(random) < 0.05) {
		c[0] = c[1] = c[2] = bcUniform(random) < 0.5 ? 0.0 : -0.0;
	}
	if (bcUniform(random) < 0.1) {
		/* Start on a vertex: boxes touched exactly at alpha = 0. */
		int32_t v = (int32_t)(bcNextRandom(random) % (uint64_t)mesh->vertexCount);
		*p0 = mesh->vertices[v];
	}
	d->x = c[0];
	d->y = c[1];
	d->z = c[2];
	double u = bcUniform(random);
	*r = u < 0.3 ? 0.0 : (u < 0.9 ? size * pow(10.0, bcRange(random, -4.0, -1.0)) : size * bcRange(random, 0.5, 3.0));
}

/* Check QuerySweep on a mesh against brute force. */
static void bcCheckSweeps(const bcMesh* mesh, uint64_t seed, int queryCount)
{
	const bcBvh* bvh = mesh->bvh;
	ck_assert_ptr_nonnull(bvh);
	int32_t n = mesh->triangleCount;
	double (*lower)[3] = malloc((size_t)n * sizeof *lower);
	double (*upper)[3] = malloc((size_t)n * sizeof *upper);
	bcProbe probe = { mesh, malloc((size_t)n * sizeof(int32_t)), 0, 0, false, false,
					  malloc((size_t)n * sizeof(double)), false, 0.0, 0.0, false };
	ck_assert(lower != NULL && upper != NULL && probe.stamps != NULL && probe.keys != NULL);
	for (int32_t t = 0; t < n; ++t) {
		bcTriangleBox(mesh, t, lower[t], upper[t]);
		probe.stamps[t] = -1;
	}
	bcRandom random = { seed };
	for (int q = 0; q < queryCount; ++q) {
		bcVec3 p0, d;
		double r;
		bcRandomSegment(&random, mesh, &p0, &d, &r);
		double bruteBest = INFINITY;
		int32_t bruteHits = 0;
		/* The swept ball lies within r + |d| / 2 of the segment's midpoint:
		 * a box farther away may be skipped even when the box grown by r
		 * meets the segment (at its corners). */
		bcVec3 middle = { p0.x + 0.5 * d.x, p0.y + 0.5 * d.y, p0.z + 0.5 * d.z };
		double reach = r + 0.5 * sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
		for (int32_t t = 0; t < n; ++t) {
			double entry = 0.0;
			bool hit = !bcIsDegenerateTriangle(mesh, t) && bcBruteSweep(lower[t], upper[t], p0, d, r, 1.0, &entry) &&
					   bcBruteDistance(lower[t], upper[t], middle) <= reach;
			probe.keys[t] = hit ? entry : INFINITY;
			bruteHits += hit ? 1 : 0;
			bruteBest = hit && entry < bruteBest ? entry : bruteBest;
		}

		/* Every box the segment meets is visited, once, maxAlpha untouched. */
		probe.query = 2 * q;
		probe.visits = 0;
		probe.lower = false;
		probe.initialLimit = 1.0;
		double maxAlpha = 1.0;
		bcBvh_QuerySweep(bvh, p0, d, r, &maxAlpha, bcSweepVisit, &probe);
		bcRequire(!probe.duplicate, "query %d visited a triangle twice", q);
		bcRequire(!probe.degenerate, "query %d visited a degenerate triangle", q);
		bcRequire(!probe.limitChanged, "query %d: maxAlpha changed", q);
		for (int32_t t = 0; t < n; ++t) {
			bcRequire(probe.keys[t] == INFINITY || probe.stamps[t] == probe.query,
						  "query %d (p0 %g %g %g, d %g %g %g, r %g) skipped triangle %d entering at %.17g", q, p0.x,
						  p0.y, p0.z, d.x, d.y, d.z, r, (int)t, probe.keys[t]);
		}
		bcRequire(probe.visits >= bruteHits, "query %d: %d visits, %d hits", q, (int)probe.visits, (int)bruteHits);

		/* Front to back: lowering maxAlpha to each entry finds the first. */
		probe.query = 2 * q + 1;
		probe.lower = true;
		probe.best = INFINITY;
		maxAlpha = 1.0;
		bcBvh_QuerySweep(bvh, p0, d, r, &maxAlpha, bcSweepVisit, &probe);
		bcRequire(probe.best == bruteBest, "query %d: first entry %.17g, brute force %.17g", q, probe.best, bruteBest);
		bcRequire(!probe.duplicate, "query %d visited a triangle twice", q);
	}
	free(lower);
	free(upper);
	free(probe.stamps);
	free(probe.keys);
}

/* Check QueryPoint on a mesh against brute force. */
static void bcCheckPoints(const bcMesh* mesh, uint64_t seed, int queryCount)
{
	const bcBvh* bvh = mesh->bvh;
	ck_assert_ptr_nonnull(bvh);
	int32_t n = mesh->triangleCount;
	double (*lower)[3] = malloc((size_t)n * sizeof *lower);
	double (*upper)[3] = malloc((size_t)n * sizeof *upper);
	bcProbe probe = { mesh, malloc((size_t)n * sizeof(int32_t)), 0, 0, false, false,
					  malloc((size_t)n * sizeof(double)), false, 0.0, 0.0, false };
	ck_assert(lower != NULL && upper != NULL && probe.stamps != NULL && probe.keys != NULL);
	for (int32_t t = 0; t < n; ++t) {
		bcTriangleBox(mesh, t, lower[t], upper[t]);
		probe.stamps[t] = -1;
	}
	bcRandom random = { seed };
	for (int q = 0; q < queryCount; ++q) {
		bcVec3 p, d;
		double r;
		bcRandomSegment(&random, mesh, &p, &d, &r);
		double limit = bcUniform(&random) < 0.1 ? INFINITY : r;
		double bruteBest = INFINITY;
		for (int32_t t = 0; t < n; ++t) {
			double distance = bcBruteDistance(lower[t], upper[t], p);
			bool degenerate = bcIsDegenerateTriangle(mesh, t);
			probe.keys[t] = degenerate ? INFINITY : distance;
			bruteBest = !degenerate && distance < bruteBest ? distance : bruteBest;
		}

		probe.query = 2 * q;
		probe.lower = false;
		probe.initialLimit = limit;
		double maxDistance = limit;
		bcBvh_QueryPoint(bvh, p, &maxDistance, bcPointVisit, &probe);
		bcRequire(!probe.duplicate && !probe.degenerate && !probe.limitChanged, "point query %d misbehaved", q);
		for (int32_t t = 0; t < n; ++t) {
			bcRequire(bcIsDegenerateTriangle(mesh, t) || !(probe.keys[t] <= limit) || probe.stamps[t] == probe.query,
						  "point query %d skipped triangle %d at distance %.17g <= %.17g", q, (int)t, probe.keys[t],
						  limit);
		}

		probe.query = 2 * q + 1;
		probe.lower = true;
		probe.best = INFINITY;
		maxDistance = INFINITY;
		bcBvh_QueryPoint(bvh, p, &maxDistance, bcPointVisit, &probe);
		bcRequire(probe.best == bruteBest, "point query %d: nearest %.17g, brute force %.17g", q, probe.best,
				  bruteBest);
		bcRequire(!probe.duplicate, "point query %d visited a triangle twice", q);
	}
	free(lower);
	free(upper);
	free(probe.stamps);
	free(probe.keys);
}

/* Structure checks: counts, and every non-degenerate triangle exactly once
 * in the order. */
static void bcCheckInfo(const bcMesh* mesh)
{
	bcBvhInfo info = bcBvh_GetInfo(mesh->bvh);
	bcBvhData data = bcBvh_GetData(mesh->bvh);
	int32_t valid = 0;
	for (int32_t t = 0; t < mesh->triangleCount; ++t) {
		valid += bcIsDegenerateTriangle(mesh, t) ? 0 : 1;
	}
	ck_assert_int_eq(info.triangleCount, valid);
	ck_assert_int_eq(data.triangleCount, valid);
	ck_assert_int_eq(valid, mesh->triangleCount - mesh->degenerateCount);
	if (valid == 0) {
		ck_assert_int_eq(info.leafCount, 0);
		ck_assert_int_eq(info.nodeCount, 0);
		ck_assert_int_eq(info.maxDepth, 0);
		return;
	}
	ck_assert_int_ge(info.leafCount, (valid + 3) / 4);
	ck_assert_int_le(info.leafCount, valid);
	ck_assert_int_eq(info.nodeCount, 2 * info.leafCount - 1);
	ck_assert_int_ge(info.maxDepth, 1);
	ck_assert_int_le(info.maxDepth, BC_BVH_MAX_DEPTH);
	/* A binary tree of L leaves is at least ceil(log2 L) + 1 levels deep. */
	int32_t levels = 1;
	while ((1 << (levels - 1)) < info.leafCount) {
		++levels;
	}
	ck_assert_int_ge(info.maxDepth, levels);

	char* seen = calloc((size_t)mesh->triangleCount, 1);
	ck_assert_ptr_nonnull(seen);
	for (int32_t i = 0; i < data.triangleCount; ++i) {
		int32_t t = data.triangles[i];
		bcRequire(t >= 0 && t < mesh->triangleCount, "order holds %d", (int)t);
		bcRequire(!bcIsDegenerateTriangle(mesh, t), "degenerate triangle %d in the tree", (int)t);
		bcRequire(!seen[t], "triangle %d twice in the tree", (int)t);
		seen[t] = 1;
	}
	free(seen);
}


/* ------------------------------------------------------------ wide nodes */

/* Check the wide nodes below slot c of node w: inner children come after
 * their parent, each node is reached once, every leaf entry is in exactly
 * one slot, and every slot's float box holds the exact (double) boxes of
 * all the triangles under it (the rounding went outward). */
static void bcCheckWideSlot(const bcMesh* mesh, const bcBvhData* data, int32_t wideCount, int32_t w, int c,
							char* reached, char* entries, int depth)
{
	const bcBvhWideNode* node = data->wideNodes + w;
	int32_t index = node->index[c], count = node->count[c];
	bcRequire(depth <= BC_BVH_MAX_DEPTH, "wide tree deeper than %d", BC_BVH_MAX_DEPTH);
	if (count == 0) {
		for (int k = 0; k < 3; ++k) {
			bcRequire(node->bounds[k][0][c] == INFINITY && node->bounds[k][1][c] == -INFINITY,
					  "unused slot %d of node %d has a box", c, (int)w);
		}
		return;
	}
	if (count == BC_BVH_INNER) {
		bcRequire(index > w && index < wideCount, "node %d slot %d points to node %d", (int)w, c, (int)index);
		bcRequire(!reached[index], "node %d reached twice", (int)index);
		reached[index] = 1;
		const bcBvhWideNode* child = data->wideNodes + index;
		for (int g = 0; g < BC_BVH_WIDTH; ++g) {
			for (int k = 0; k < 3 && child->count[g] != 0; ++k) {
				bcRequire(child->bounds[k][0][g] >= node->bounds[k][0][c] &&
							  child->bounds[k][1][g] <= node->bounds[k][1][c],
						  "node %d slot %d does not hold its child's box", (int)w, c);
			}
			bcCheckWideSlot(mesh, data, wideCount, index, g, reached, entries, depth + 1);
		}
		return;
	}
	bcRequire(count >= 1 && count <= BC_LEAF_LANES && index >= 0 && index < data->leafBlockCount,
			  "leaf block %d of %d triangles out of range", (int)index, (int)count);
	const bcLeafBlock* block = data->leaves + index;
	bcRequire(block->count == count && block->first >= 0 && block->first + count <= data->triangleCount,
			  "leaf block %d: [%d, +%d) for a slot of %d", (int)index, (int)block->first, (int)block->count,
			  (int)count);
	for (int32_t i = block->first; i < block->first + count; ++i) {
		bcRequire(!entries[i], "entry %d in two leaves", (int)i);
		entries[i] = 1;
		double lower[3], upper[3];
		bcTriangleBox(mesh, data->triangles[i], lower, upper);
		for (int k = 0; k < 3; ++k) {
			bcRequire((double)node->bounds[k][0][c] <= lower[k] && (double)node->bounds[k][1][c] >= upper[k],
					  "triangle %d sticks out of its float box on axis %d: [%.17g, %.17g] in [%.9g, %.9g]",
					  (int)data->triangles[i], k, lower[k], upper[k], (double)node->bounds[k][0][c],
					  (double)node->bounds[k][1][c]);
		}
	}
}

static void bcCheckWide(const bcMesh* mesh)
{
	bcBvhData data = bcBvh_GetData(mesh->bvh);
	ck_assert_ptr_nonnull(data.wideNodes);
	ck_assert_uint_eq(data.wideNodeBytes % sizeof(bcBvhWideNode), 0);
	ck_assert(((uintptr_t)data.wideNodes & 63u) == 0);
	int32_t wideCount = (int32_t)(data.wideNodeBytes / sizeof(bcBvhWideNode));
	ck_assert_int_ge(wideCount, 1);
	char* reached = calloc((size_t)wideCount, 1);
	char* entries = calloc((size_t)data.triangleCount + 1, 1);
	ck_assert(reached != NULL && entries != NULL);
	reached[0] = 1;
	for (int c = 0; c < BC_BVH_WIDTH; ++c) {
		bcCheckWideSlot(mesh, &data, wideCount, 0, c, reached, entries, 1);
	}
	for (int32_t w = 0; w < wideCount; ++w) {
		bcRequire(reached[w], "wide node %d unreachable", (int)w);
	}
	for (int32_t i = 0; i < data.triangleCount; ++i) {
		bcRequire(entries[i], "entry %d in no leaf", (int)i);
	}
	free(reached);
	free(entries);
}

/* A visitor that records the walk: every triangle and the bound it was
 * offered, hashed in order, and lowers the bound by a rule of the triangle
 * alone, so that pruning and front-to-back order are exercised. */
typedef struct bcTrace {
	uint64_t hash;
	long visits;
} bcTrace;

static void bcTraceVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcTrace* trace = context;
	uint64_t bits;
	memcpy(&bits, maxAlpha, sizeof bits);
	trace->hash = (trace->hash ^ (uint64_t)(uint32_t)triangle->index) * 0x100000001b3ull;
	trace->hash = (trace->hash ^ bits) * 0x100000001b3ull;
	trace->visits += 1;
	if (triangle->index % 5 == 0) {
		*maxAlpha *= 0.875;
	}
}

/* Every walk this CPU can run (scalar, SSE2, AVX2) visits the same
 * triangles in the same order with the same bounds, query by query, on
 * random segments (zero components, zero length, r = 0, huge r). */
typedef void bcSweepQueryFcn(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
							 bcBvhVisitFcn* visit, void* context);

static void bcCheckSimdAgreeFor(const bcMesh* mesh, uint64_t seed, int queryCount, bcSweepQueryFcn* query)
{
	bcBvhSimd best = bcBvh_BestSimd();
	bcBvhSimd kept = bcBvh_GetSimd(mesh->bvh);
	ck_assert_int_eq(kept, best);
	bcRandom random = { seed };
	long visits = 0;
	for (int q = 0; q < queryCount; ++q) {
		bcVec3 p0, d;
		double r;
		bcRandomSegment(&random, mesh, &p0, &d, &r);
		bcTrace reference = { 0, 0 };
		for (int simd = bc_simdScalar; simd <= (int)best; ++simd) {
			ck_assert(bcBvh_SetSimd(mesh->bvh, (bcBvhSimd)simd));
			bcTrace trace = { 0, 0 };
			double maxAlpha = 1.0;
			query(mesh->bvh, p0, d, r, &maxAlpha, bcTraceVisit, &trace);
			if (simd == bc_simdScalar) {
				reference = trace;
			}
			bcRequire(trace.hash == reference.hash && trace.visits == reference.visits,
					  "query %d: walk %d visited otherwise than the scalar walk (%ld and %ld visits)", q, simd,
					  trace.visits, reference.visits);
		}
		visits += reference.visits;
	}
	ck_assert(bcBvh_SetSimd(mesh->bvh, kept));
	ck_assert(!bcBvh_SetSimd(mesh->bvh, (bcBvhSimd)((int)best + 1)));
	ck_assert_int_gt(visits, 0);
}

/* The ordered walk for one-sided and two-sided casts. */
static void bcQueryFront(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
						 bcBvhVisitFcn* visit, void* context)
{
	bcBvh_QuerySweepOrdered(bvh, p0, d, radius, false, maxAlpha, visit, context);
}

static void bcQueryBothSides(const bcBvh* bvh, bcVec3 p0, bcVec3 d, double radius, double* maxAlpha,
							 bcBvhVisitFcn* visit, void* context)
{
	bcBvh_QuerySweepOrdered(bvh, p0, d, radius, true, maxAlpha, visit, context);
}

/* Every swept-ball walk: the plain one and the ordered one, both sides. */
static void bcCheckSimdAgree(const bcMesh* mesh, uint64_t seed, int queryCount)
{
	bcCheckSimdAgreeFor(mesh, seed, queryCount, bcBvh_QuerySweep);
	bcCheckSimdAgreeFor(mesh, seed, queryCount, bcQueryFront);
	bcCheckSimdAgreeFor(mesh, seed, queryCount, bcQueryBothSides);
}

/* A visitor that lists the triangles visited, in order. */
typedef struct bcVisitList {
	int32_t* items;
	int count;
	int capacity;
} bcVisitList;

static void bcListVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	(void)maxAlpha;
	bcVisitList* list = context;
	if (list->count == list->capacity) {
		list->capacity = list->capacity > 0 ? 2 * list->capacity : 64;
		list->items = realloc(list->items, (size_t)list->capacity * sizeof *list->items);
		bcRequire(list->items != NULL, "out of memory");
	}
	list->items[list->count++] = triangle->index;
}

/* A visitor that casts: each triangle visited is cast alone
 * (bcCastTriangle, the exact test) and *maxAlpha lowered to its alpha
 * plus the tie window, as lib/cast.c does; every visit is recorded. */
typedef struct bcCaster {
	const bcMesh* mesh;
	bcCastInput input;
	bcCastOptions options;
	int32_t* stamps; /* per triangle: the query that visited it */
	int32_t query;
	long visits;
	bool twice;
} bcCaster;

static bcCastOutput bcCastOne(const bcMesh* mesh, int32_t t, bcCastInput input, const bcCastOptions* options)
{
	const int32_t* v = mesh->triangles + 3 * t;
	return bcCastTriangle(mesh->vertices[v[0]], mesh->vertices[v[1]], mesh->vertices[v[2]], input, options);
}

/* A caster for mesh, no triangle visited yet (free its stamps). */
static bcCaster bcMakeCaster(const bcMesh* mesh)
{
	int32_t n = mesh->triangleCount;
	bcCaster caster = { mesh, { { 0, 0, 0 }, { 0, 0, 0 }, 0 }, bcDefaultCastOptions(), malloc((size_t)n * sizeof(int32_t)),
						0, 0, false };
	ck_assert_ptr_nonnull(caster.stamps);
	for (int32_t t = 0; t < n; ++t) {
		caster.stamps[t] = -1;
	}
	return caster;
}

static void bcCastVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcCaster* caster = context;
	caster->twice = caster->twice || caster->stamps[triangle->index] == caster->query;
	caster->stamps[triangle->index] = caster->query;
	caster->visits += 1;
	bcCastOutput out = bcCastOne(caster->mesh, triangle->index, caster->input, &caster->options);
	if (out.state == bc_castHit || out.state == bc_castInitialOverlap) {
		double limit = out.alpha + BC_ALPHA_TIE_TOLERANCE;
		*maxAlpha = limit < *maxAlpha ? limit : *maxAlpha;
	}
}

/* The ordered walk (bcBvh_QuerySweepOrdered) never leaves out a triangle
 * that matters: walked with the casting visitor, every triangle it does
 * not visit has no contact at or before the final *maxAlpha (checked
 * against the exact one-triangle cast of every triangle of the mesh), one
 * side and both; and none is visited twice. Returns how many triangles
 * with a contact later than that it left out (it must leave some). */
static long bcCheckOrdered(const bcMesh* mesh, uint64_t seed, int queryCount)
{
	bcRandom random = { seed };
	int32_t n = mesh->triangleCount;
	bcCaster caster = bcMakeCaster(mesh);
	long skipped = 0;
	for (int q = 0; q < queryCount; ++q) {
		bcVec3 p0, d;
		double r;
		bcRandomSegment(&random, mesh, &p0, &d, &r);
		caster.query = q;
		caster.input = (bcCastInput){ p0, bcAdd(p0, d), r };
		caster.options.twoSided = q % 3 == 0;
		double maxAlpha = 1.0;
		bcBvh_QuerySweepOrdered(mesh->bvh, p0, d, r, caster.options.twoSided, &maxAlpha, bcCastVisit, &caster);
		bcRequire(!caster.twice, "query %d visited a triangle twice", q);
		for (int32_t t = 0; t < n; ++t) {
			if (caster.stamps[t] == q || bcIsDegenerateTriangle(mesh, t)) {
				continue;
			}
			bcCastOutput out = bcCastOne(mesh, t, caster.input, &caster.options);
			bool touches = out.state == bc_castHit || out.state == bc_castInitialOverlap;
			bcRequire(!touches || out.alpha > maxAlpha,
					  "query %d (p0 %.17g %.17g %.17g, d %.17g %.17g %.17g, r %.17g, %s): triangle %d left out, but "
					  "it touches at %.17g <= %.17g",
					  q, p0.x, p0.y, p0.z, d.x, d.y, d.z, r, caster.options.twoSided ? "two-sided" : "one-sided", (int)t,
					  out.alpha, maxAlpha);
			skipped += touches;
		}
	}
	free(caster.stamps);
	return skipped;
}

/* ----------------------------------------------------------------- tests */

START_TEST(test_soupSweeps)
{
	bcMesh* mesh = bcMakeSoup(11, 3000, 100.0, 2.0);
	ck_assert_int_gt(mesh->degenerateCount, 0);
	bcCheckInfo(mesh);
	bcCheckWide(mesh);
	bcCheckSweeps(mesh, 101, BC_TEST_QUERY_COUNT);
	bcCheckSimdAgree(mesh, 301, BC_TEST_QUERY_COUNT);
	ck_assert_int_gt(bcCheckOrdered(mesh, 401, BC_TEST_QUERY_COUNT / 4), 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_terrainSweeps)
{
	bcMesh* mesh = bcMakeTerrain(12, 40, 1.0);
	bcCheckInfo(mesh);
	bcCheckWide(mesh);
	bcCheckSweeps(mesh, 102, BC_TEST_QUERY_COUNT);
	bcCheckSimdAgree(mesh, 302, BC_TEST_QUERY_COUNT);
	ck_assert_int_gt(bcCheckOrdered(mesh, 402, BC_TEST_QUERY_COUNT / 4), 0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_coincidentSweeps)
{
	bcMesh* mesh = bcMakeCoincident(13, 700);
	bcCheckInfo(mesh);
	bcCheckWide(mesh);
	bcCheckSweeps(mesh, 103, BC_TEST_QUERY_COUNT / 2);
	bcCheckSimdAgree(mesh, 303, BC_TEST_QUERY_COUNT / 2);
	ck_assert_int_gt(bcCheckOrdered(mesh, 403, BC_TEST_QUERY_COUNT / 8), 0);
	bcCheckPoints(mesh, 203, BC_TEST_QUERY_COUNT / 2);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_extremeScales)
{
	/* Tiny (float-subnormal boxes, where bin scales overflow), huge (beyond
	 * float range: infinite float boxes) and far from the origin (large
	 * relative rounding). Scales stay where the squared normals neither
	 * overflow nor underflow, or every triangle would be degenerate. */
	const double scales[][2] = { { 1e-41, 0.0 }, { 1e-70, 3e-70 }, { 1e60, 0.0 }, { 1.0, 1e9 }, { 1e39, -1e40 } };
	for (int i = 0; i < (int)(sizeof scales / sizeof scales[0]); ++i) {
		bcMesh* mesh = bcMakeScaledSoup(14 + (uint64_t)i, 600, scales[i][0], scales[i][1]);
		ck_assert_int_lt(mesh->degenerateCount, mesh->triangleCount / 10);
		bcCheckInfo(mesh);
		bcCheckWide(mesh);
		bcCheckSweeps(mesh, 104 + (uint64_t)i, BC_TEST_QUERY_COUNT / 4);
		bcCheckSimdAgree(mesh, 304 + (uint64_t)i, BC_TEST_QUERY_COUNT / 4);
		bcCheckPoints(mesh, 204 + (uint64_t)i, BC_TEST_QUERY_COUNT / 4);
		bcMesh_Destroy(mesh);
	}
}
END_TEST

START_TEST(test_deepTree)
{
	bcMesh* mesh = bcMakeStaircase();
	bcCheckInfo(mesh);
	bcBvhInfo info = bcBvh_GetInfo(mesh->bvh);
	ck_assert_msg(info.maxDepth > 64, "depth %d: the cap was not reached", (int)info.maxDepth);
	bcCheckWide(mesh);
	bcCheckSweeps(mesh, 105, BC_TEST_QUERY_COUNT / 4);
	bcCheckSimdAgree(mesh, 305, BC_TEST_QUERY_COUNT / 4);
	bcCheckPoints(mesh, 205, BC_TEST_QUERY_COUNT / 4);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_pointQueries)
{
	bcMesh* soup = bcMakeSoup(15, 3000, 100.0, 2.0);
	bcCheckPoints(soup, 206, BC_TEST_QUERY_COUNT);
	bcMesh_Destroy(soup);
	bcMesh* terrain = bcMakeTerrain(16, 40, 1.0);
	bcCheckPoints(terrain, 207, BC_TEST_QUERY_COUNT);
	bcMesh_Destroy(terrain);
}
END_TEST

/* Exact hand-made cases: axis-parallel and zero-length segments touching a
 * box only on its boundary must still visit it. Each of the two triangles
 * has four small ones inside its box, so that the two groups (ten
 * triangles, more than a leaf holds) are two leaves with the two boxes. */
START_TEST(test_boundaryContacts)
{
	bcSoup soup = { 0 };
	double a[3] = { 0.0, 0.0, 0.0 }, b[3] = { 1.0, 0.0, 0.0 }, c[3] = { 0.0, 1.0, 0.0 };
	bcSoupAdd(&soup, a, b, c);
	double e[3] = { 5.0, 5.0, 5.0 }, f[3] = { 6.0, 5.0, 5.0 }, g[3] = { 5.0, 6.0, 5.0 };
	bcSoupAdd(&soup, e, f, g);
	for (int i = 0; i < 8; ++i) {
		double base = i < 4 ? 0.0 : 5.0, x = base + 0.1 + 0.2 * (i % 4);
		double p[3] = { x, base + 0.3, base }, q[3] = { x + 0.1, base + 0.3, base }, s[3] = { x, base + 0.4, base };
		bcSoupAdd(&soup, p, q, s);
	}
	bcMesh* mesh = bcSoupMesh(&soup);
	ck_assert_int_eq(bcBvh_GetData(mesh->bvh).leafBlockCount, 2);
	bcProbe probe = { mesh, calloc(10, sizeof(int32_t)), 1, 0, false, false, NULL, false, 0.0, 1.0, false };
	ck_assert_ptr_nonnull(probe.stamps);

	/* Along x at y = 1 (the box's upper face), z = 0: d = (+1, 0, -0). */
	double maxAlpha = 1.0;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(-1.0, 1.0, 0.0), bcMakeVec3(1.0, 0.0, -0.0), 0.0, &maxAlpha, bcSweepVisit,
					 &probe);
	ck_assert_int_eq(probe.stamps[0], 1);
	ck_assert_int_ne(probe.stamps[1], 1);

	/* Ending exactly on the box: alpha = 1 at x = 0. */
	probe.query = 2;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(-2.0, 0.5, 0.0), bcMakeVec3(2.0, 0.0, 0.0), 0.0, &maxAlpha, bcSweepVisit,
					 &probe);
	ck_assert_int_eq(probe.stamps[0], 2);

	/* Zero length, on the box's corner, and just off it with r covering. */
	probe.query = 3;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(1.0, 1.0, 0.0), bcMakeVec3(0.0, -0.0, 0.0), 0.0, &maxAlpha, bcSweepVisit,
					 &probe);
	ck_assert_int_eq(probe.stamps[0], 3);
	ck_assert_int_ne(probe.stamps[1], 3);
	probe.query = 4;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(4.0, 5.5, 5.0), bcMakeVec3(0.0, 0.0, 0.0), 1.0, &maxAlpha, bcSweepVisit,
					 &probe);
	ck_assert_int_eq(probe.stamps[1], 4);
	ck_assert_int_ne(probe.stamps[0], 4);

	/* A negative maxAlpha leaves nothing to visit. */
	probe.query = 5;
	maxAlpha = -0.5;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(0.5, 0.5, 0.0), bcMakeVec3(0.0, 0.0, 1.0), 0.0, &maxAlpha, bcSweepVisit,
					 &probe);
	ck_assert_int_ne(probe.stamps[0], 5);

	/* A direction component so small 1 / d overflows: not a slab axis, the
	 * segment's extent on it is tested instead. */
	probe.query = 7;
	maxAlpha = 1.0;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(-1.0, 1.0, 0.0), bcMakeVec3(2.0, 0x1p-1070, 0.0), 0.0, &maxAlpha,
					 bcSweepVisit, &probe);
	ck_assert_int_eq(probe.stamps[0], 7);
	probe.query = 8;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(-1.0, 1.5, 0.0), bcMakeVec3(2.0, -0x1p-1070, 0.0), 0.0, &maxAlpha,
					 bcSweepVisit, &probe);
	ck_assert_int_ne(probe.stamps[0], 8);

	/* A point so far away the squared gaps overflow: still within INFINITY. */
	probe.query = 9;
	double far = INFINITY;
	bcBvh_QueryPoint(mesh->bvh, bcMakeVec3(1e200, -1e200, 0.0), &far, bcPointVisit, &probe);
	ck_assert_int_eq(probe.stamps[0], 9);
	ck_assert_int_eq(probe.stamps[1], 9);

	/* Point exactly on the box, maxDistance 0. */
	probe.query = 6;
	double maxDistance = 0.0;
	bcBvh_QueryPoint(mesh->bvh, bcMakeVec3(6.0, 6.0, 5.0), &maxDistance, bcPointVisit, &probe);
	ck_assert_int_eq(probe.stamps[1], 6);
	ck_assert_int_ne(probe.stamps[0], 6);
	free(probe.stamps);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The tree must prune: a short vertical drop onto a large terrain visits a
 * handful of triangles, not the mesh. */
START_TEST(test_pruning)
{
	bcMesh* mesh = bcMakeTerrain(17, 200, 1.0);
	int32_t n = mesh->triangleCount;
	bcProbe probe = { mesh, malloc((size_t)n * sizeof(int32_t)), 0, 0, false, false, NULL, false, 0.0, 1.0, false };
	ck_assert_ptr_nonnull(probe.stamps);
	for (int32_t t = 0; t < n; ++t) {
		probe.stamps[t] = -1;
	}
	bcRandom random = { 18 };
	int64_t visits = 0;
	int queries = 500;
	for (int q = 0; q < queries; ++q) {
		probe.query = q;
		probe.visits = 0;
		double x = bcRange(&random, 1.0, 198.0), y = bcRange(&random, 1.0, 198.0);
		double maxAlpha = 1.0;
		bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(x, y, 10.0), bcMakeVec3(0.3, -0.2, -20.0), 0.25, &maxAlpha,
						 bcSweepVisit, &probe);
		visits += probe.visits;
	}
	/* The drop's column crosses about 2 cells' worth of triangles per unit of
	 * grown width; allow generous slack for boxes of sloped triangles. */
	ck_assert_msg(visits / queries < 60, "%lld visits per query", (long long)(visits / queries));
	free(probe.stamps);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_determinism)
{
	/* Larger than a few build tasks, so threads really split the work. */
	bcMesh* soup = bcMakeSoup(19, 60000, 200.0, 2.0);
	bcMesh* terrain = bcMakeTerrain(20, 160, 0.5);
	const bcMesh* meshes[2] = { soup, terrain };
	for (int m = 0; m < 2; ++m) {
		bcBvhData reference = bcBvh_GetData(meshes[m]->bvh);
		bcBvhInfo referenceInfo = bcBvh_GetInfo(meshes[m]->bvh);
		ck_assert_int_gt(referenceInfo.leafCount, 8192 / 4);
		const int threadCounts[] = { 1, 2, 3, 7, 1, 0 };
		for (int i = 0; i < (int)(sizeof threadCounts / sizeof threadCounts[0]); ++i) {
			bcBvh* bvh = bcBvh_CreateWithThreads(meshes[m], threadCounts[i]);
			ck_assert_ptr_nonnull(bvh);
			bcBvhData data = bcBvh_GetData(bvh);
			bcBvhInfo info = bcBvh_GetInfo(bvh);
			ck_assert(memcmp(&info, &referenceInfo, sizeof info) == 0);
			ck_assert_uint_eq(data.nodeBytes, reference.nodeBytes);
			ck_assert_int_eq(data.triangleCount, reference.triangleCount);
			ck_assert_msg(memcmp(data.nodes, reference.nodes, data.nodeBytes) == 0, "nodes differ with %d threads",
						  threadCounts[i]);
			ck_assert(memcmp(data.triangles, reference.triangles, (size_t)data.triangleCount * sizeof(int32_t)) == 0);
			ck_assert_uint_eq(data.wideNodeBytes, reference.wideNodeBytes);
			ck_assert_msg(memcmp(data.wideNodes, reference.wideNodes, data.wideNodeBytes) == 0,
						  "wide nodes differ with %d threads", threadCounts[i]);
			ck_assert_int_eq(data.leafBlockCount, reference.leafBlockCount);
			ck_assert_msg(memcmp(data.leaves, reference.leaves, (size_t)data.leafBlockCount * sizeof(bcLeafBlock)) == 0,
						  "leaf blocks differ with %d threads", threadCounts[i]);
			bcBvh_Destroy(bvh);
		}
		bcCheckInfo(meshes[m]);
		bcCheckWide(meshes[m]);
	}
	bcCheckSweeps(terrain, 106, 100);
	bcMesh_Destroy(soup);
	bcMesh_Destroy(terrain);
}
END_TEST

START_TEST(test_degenerateOnly)
{
	bcSoup soup = { 0 };
	for (int i = 0; i < 50; ++i) {
		double a[3] = { i, 0.0, 0.0 }, b[3] = { i + 1.0, 0.0, 0.0 }, c[3] = { i + 2.0, 0.0, 0.0 };
		bcSoupAdd(&soup, a, b, c);
	}
	bcMesh* mesh = bcSoupMesh(&soup);
	ck_assert_int_eq(mesh->degenerateCount, 50);
	ck_assert_ptr_nonnull(mesh->bvh);
	bcCheckInfo(mesh);
	bcCheckWide(mesh);
	bcProbe probe = { mesh, calloc(50, sizeof(int32_t)), 1, 0, false, false, NULL, false, 0.0, 1.0, false };
	ck_assert_ptr_nonnull(probe.stamps);
	double maxAlpha = 1.0, maxDistance = INFINITY;
	bcBvh_QuerySweep(mesh->bvh, bcMakeVec3(-1.0, 0.0, 0.0), bcMakeVec3(60.0, 0.0, 0.0), 100.0, &maxAlpha,
					 bcSweepVisit, &probe);
	bcBvh_QueryPoint(mesh->bvh, bcMakeVec3(0.0, 0.0, 0.0), &maxDistance, bcPointVisit, &probe);
	ck_assert_int_eq(probe.visits, 0);
	free(probe.stamps);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(test_smallMeshes)
{
	/* 1 to 40 triangles: a lone leaf, then the first splits. */
	for (int count = 1; count <= 40; ++count) {
		bcMesh* mesh = bcMakeSoup(300 + (uint64_t)count, count, 10.0, 3.0);
		bcCheckInfo(mesh);
		bcCheckWide(mesh);
		bcCheckSweeps(mesh, 400 + (uint64_t)count, 50);
		bcCheckSimdAgree(mesh, 600 + (uint64_t)count, 50);
		bcCheckPoints(mesh, 500 + (uint64_t)count, 50);
		bcMesh_Destroy(mesh);
	}
}
END_TEST

START_TEST(test_nullSafety)
{
	bcBvh_Destroy(NULL);
	ck_assert_ptr_null(bcBvh_Create(NULL));
	bcBvhInfo info = bcBvh_GetInfo(NULL);
	ck_assert_int_eq(info.nodeCount + info.leafCount + info.maxDepth + info.triangleCount, 0);
	bcBvhData data = bcBvh_GetData(NULL);
	ck_assert_ptr_null(data.nodes);
	double limit = 1.0;
	bcBvh_QuerySweep(NULL, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 0, 0), 0.0, &limit, bcSweepVisit, NULL);
	bcBvh_QueryPoint(NULL, bcMakeVec3(0, 0, 0), &limit, bcPointVisit, NULL);
}
END_TEST

/* Many threads querying one tree at once get what one thread gets. */
typedef struct bcThreadJob {
	const bcMesh* mesh;
	uint64_t seed;
	uint64_t checksum;
} bcThreadJob;

static void bcCountVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	uint64_t* checksum = context;
	*checksum = *checksum * 31u + (uint64_t)triangle->index;
	*maxAlpha *= 0.999;
}

static void* bcThreadMain(void* argument)
{
	bcThreadJob* job = argument;
	bcRandom random = { job->seed };
	job->checksum = 0;
	for (int q = 0; q < 3000; ++q) {
		bcVec3 p0, d;
		double r, maxAlpha = 1.0;
		bcRandomSegment(&random, job->mesh, &p0, &d, &r);
		bcBvh_QuerySweep(job->mesh->bvh, p0, d, r, &maxAlpha, bcCountVisit, &job->checksum);
	}
	return NULL;
}

START_TEST(test_concurrentQueries)
{
	bcMesh* mesh = bcMakeSoup(21, 20000, 100.0, 2.0);
	enum { threadCount = 4 };
	bcThreadJob jobs[threadCount];
	pthread_t threads[threadCount];
	for (int i = 0; i < threadCount; ++i) {
		jobs[i] = (bcThreadJob){ mesh, 600 + (uint64_t)(i % 2), 0 };
		ck_assert_int_eq(pthread_create(threads + i, NULL, bcThreadMain, jobs + i), 0);
	}
	for (int i = 0; i < threadCount; ++i) {
		pthread_join(threads[i], NULL);
	}
	bcThreadJob serial[2] = { { mesh, 600, 0 }, { mesh, 601, 0 } };
	bcThreadMain(serial + 0);
	bcThreadMain(serial + 1);
	for (int i = 0; i < threadCount; ++i) {
		ck_assert(jobs[i].checksum == serial[i % 2].checksum);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* The ordered walk by hand: the triangle (0,0,0) (1,0,0) (0,1,0), front
 * +z. A ball resting at (1.05, 1.05, 0), past the box's corner, 0.778
 * from the hypotenuse: with r = 0.1 and r = 0.3 its box test passes (the
 * box grown by r holds it) but it touches nothing: the ordered walk
 * leaves the triangle out; with r = 0.8 it touches: visited. A ball moving
 * in from (2, 2, 0.05), within 0.1 of the face at the end, is visited,
 * unless the walk stops at alpha 0.5 (at (1.1, 1.1, 0.05), 0.85 from the
 * hypotenuse's line). A point falling through the face is visited from
 * the front, left out from behind unless two-sided. */
START_TEST(test_orderedByHand)
{
	bcSoup soup = { 0 };
	double a[3] = { 0.0, 0.0, 0.0 }, b[3] = { 1.0, 0.0, 0.0 }, c[3] = { 0.0, 1.0, 0.0 };
	bcSoupAdd(&soup, a, b, c);
	bcMesh* mesh = bcSoupMesh(&soup);
	bcVisitList list = { 0 };
	bcVec3 corner = bcMakeVec3(1.05, 1.05, 0.0), still = bcMakeVec3(0.0, 0.0, 0.0);
	double maxAlpha = 1.0;
	bcBvh_QuerySweep(mesh->bvh, corner, still, 0.1, &maxAlpha, bcListVisit, &list);
	ck_assert_int_eq(list.count, 1);
	list.count = 0;
	bcBvh_QuerySweepOrdered(mesh->bvh, corner, still, 0.1, true, &maxAlpha, bcListVisit, &list);
	bcBvh_QuerySweepOrdered(mesh->bvh, corner, still, 0.3, true, &maxAlpha, bcListVisit, &list);
	ck_assert_int_eq(list.count, 0);
	bcBvh_QuerySweepOrdered(mesh->bvh, corner, still, 0.8, true, &maxAlpha, bcListVisit, &list);
	ck_assert_int_eq(list.count, 1);
	list.count = 0;
	bcBvh_QuerySweepOrdered(mesh->bvh, bcMakeVec3(2.0, 2.0, 0.05), bcMakeVec3(-1.8, -1.8, 0.0), 0.1, true, &maxAlpha,
							bcListVisit, &list);
	ck_assert_int_eq(list.count, 1);
	list.count = 0;
	maxAlpha = 0.5;
	bcBvh_QuerySweepOrdered(mesh->bvh, bcMakeVec3(2.0, 2.0, 0.05), bcMakeVec3(-1.8, -1.8, 0.0), 0.1, true, &maxAlpha,
							bcListVisit, &list);
	ck_assert_int_eq(list.count, 0);
	maxAlpha = 1.0;
	bcBvh_QuerySweepOrdered(mesh->bvh, bcMakeVec3(0.25, 0.25, 1.0), bcMakeVec3(0.0, 0.0, -2.0), 0.0, false, &maxAlpha,
							bcListVisit, &list);
	ck_assert_int_eq(list.count, 1);
	bcBvh_QuerySweepOrdered(mesh->bvh, bcMakeVec3(0.25, 0.25, -1.0), bcMakeVec3(0.0, 0.0, 2.0), 0.0, false, &maxAlpha,
							bcListVisit, &list);
	ck_assert_int_eq(list.count, 1);
	bcBvh_QuerySweepOrdered(mesh->bvh, bcMakeVec3(0.25, 0.25, -1.0), bcMakeVec3(0.0, 0.0, 2.0), 0.0, true, &maxAlpha,
							bcListVisit, &list);
	ck_assert_int_eq(list.count, 2);
	free(list.items);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The point of the ordered walk: on a fine sphere (5,056 triangles, edges
 * up to 0.1 of its radius 1, its quads' halves coplanar), short sweeps of
 * balls about a triangle wide visit at most two triangles per hit and
 * hardly any per miss (the plain walk visits dozens). A count, not a
 * time. */
START_TEST(test_orderedVisitsFew)
{
	bcSoup soup = { 0 };
	/* A UV sphere: 64 x 40 quads, as triangles. */
	const int slices = 64, stacks = 40;
	for (int i = 0; i < stacks; ++i) {
		for (int j = 0; j < slices; ++j) {
			double t0 = BC_TEST_PI * i / stacks, t1 = BC_TEST_PI * (i + 1) / stacks;
			double f0 = 2.0 * BC_TEST_PI * j / slices, f1 = 2.0 * BC_TEST_PI * (j + 1) / slices;
			double p00[3] = { sin(t0) * cos(f0), sin(t0) * sin(f0), cos(t0) };
			double p01[3] = { sin(t0) * cos(f1), sin(t0) * sin(f1), cos(t0) };
			double p10[3] = { sin(t1) * cos(f0), sin(t1) * sin(f0), cos(t1) };
			double p11[3] = { sin(t1) * cos(f1), sin(t1) * sin(f1), cos(t1) };
			if (i > 0) {
				bcSoupAdd(&soup, p00, p10, p01);
			}
			if (i < stacks - 1) {
				bcSoupAdd(&soup, p01, p10, p11);
			}
		}
	}
	bcMesh* mesh = bcSoupMesh(&soup);
	bcCaster caster = bcMakeCaster(mesh);
	bcRandom random = { 700 };
	long hitVisits = 0, missVisits = 0, plainVisits = 0;
	int hits = 0, misses = 0;
	for (int q = 0; q < 2000; ++q) {
		/* From 1.05-1.15 out, 0.05-0.2 long, r 0.02-0.08. */
		double theta = acos(bcRange(&random, -1.0, 1.0)), phi = bcRange(&random, 0.0, 2.0 * BC_TEST_PI);
		double rho = bcRange(&random, 1.05, 1.15);
		bcVec3 p0 = bcMakeVec3(rho * sin(theta) * cos(phi), rho * sin(theta) * sin(phi), rho * cos(theta));
		bcVec3 dir = bcMakeVec3(bcRange(&random, -1.0, 1.0), bcRange(&random, -1.0, 1.0), bcRange(&random, -1.0, 1.0));
		bcVec3 d = bcScale(bcRange(&random, 0.05, 0.2) / bcLength(dir), dir);
		double r = bcRange(&random, 0.02, 0.08);
		caster.query = q;
		caster.input = (bcCastInput){ p0, bcAdd(p0, d), r };
		caster.visits = 0;
		double maxAlpha = 1.0;
		bcBvh_QuerySweepOrdered(mesh->bvh, p0, d, r, false, &maxAlpha, bcCastVisit, &caster);
		bool hit = maxAlpha < 1.0;
		hitVisits += hit ? caster.visits : 0;
		missVisits += hit ? 0 : caster.visits;
		hits += hit;
		misses += !hit;
		caster.query = -2 - q;
		caster.visits = 0;
		maxAlpha = 1.0;
		bcBvh_QuerySweep(mesh->bvh, p0, d, r, &maxAlpha, bcCastVisit, &caster);
		plainVisits += caster.visits;
	}
	ck_assert_int_gt(hits, 200);
	ck_assert_int_gt(misses, 200);
	ck_assert_msg(hitVisits <= 2 * hits, "%.2f visits per hit", (double)hitVisits / hits);
	ck_assert_msg(missVisits <= misses / 10, "%.2f visits per miss", (double)missVisits / misses);
	ck_assert_msg(plainVisits >= 10 * (hitVisits + missVisits), "plain walk: %ld visits, ordered %ld", plainVisits,
				  hitVisits + missVisits);
	free(caster.stamps);
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* bvhSuite(void)
{
	Suite* suite = suite_create("bvh");
	TCase* queries = tcase_create("queries");
	tcase_set_timeout(queries, BC_TEST_TIMEOUT);
	tcase_add_test(queries, test_soupSweeps);
	tcase_add_test(queries, test_terrainSweeps);
	tcase_add_test(queries, test_coincidentSweeps);
	tcase_add_test(queries, test_extremeScales);
	tcase_add_test(queries, test_deepTree);
	tcase_add_test(queries, test_pointQueries);
	tcase_add_test(queries, test_boundaryContacts);
	tcase_add_test(queries, test_pruning);
	tcase_add_test(queries, test_orderedByHand);
	tcase_add_test(queries, test_orderedVisitsFew);
	suite_add_tcase(suite, queries);
	TCase* build = tcase_create("build");
	tcase_set_timeout(build, BC_TEST_TIMEOUT);
	tcase_add_test(build, test_determinism);
	tcase_add_test(build, test_degenerateOnly);
	tcase_add_test(build, test_smallMeshes);
	tcase_add_test(build, test_nullSafety);
	tcase_add_test(build, test_concurrentQueries);
	suite_add_tcase(suite, build);
	return suite;
}

int main(void)
{
	return bcRunSuite(bvhSuite());
}
