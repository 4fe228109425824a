/* meshgen.c - deterministic test and benchmark meshes. */
#include "meshgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t bcRandom_Next(bcRandom* rng)
{
	uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

double bcRandom_Uniform(bcRandom* rng, double lo, double hi)
{
	double u = (double)(bcRandom_Next(rng) >> 11) * (1.0 / 9007199254740992.0);
	return lo + (hi - lo) * u;
}

bcVec3 bcRandom_InBox(bcRandom* rng, bcVec3 lower, bcVec3 upper)
{
	bcVec3 v;
	v.x = bcRandom_Uniform(rng, lower.x, upper.x);
	v.y = bcRandom_Uniform(rng, lower.y, upper.y);
	v.z = bcRandom_Uniform(rng, lower.z, upper.z);
	return v;
}

bcVec3 bcRandom_OnSphere(bcRandom* rng)
{
	for (;;) {
		double x = bcRandom_Uniform(rng, -1, 1), y = bcRandom_Uniform(rng, -1, 1), z = bcRandom_Uniform(rng, -1, 1);
		double l = x * x + y * y + z * z;
		if (l > 1e-6 && l <= 1.0) {
			l = sqrt(l);
			bcVec3 v = { x / l, y / l, z / l };
			return v;
		}
	}
}

void bcGenMesh_Free(bcGenMesh* m)
{
	free(m->vertices);
	free(m->triangles);
	memset(m, 0, sizeof *m);
}

int32_t bcGenMesh_AddVertex(bcGenMesh* m, double x, double y, double z)
{
	if (m->vertexCount == m->vertexCapacity) {
		m->vertexCapacity = m->vertexCapacity ? 2 * m->vertexCapacity : 64;
		m->vertices = realloc(m->vertices, (size_t)m->vertexCapacity * 3 * sizeof *m->vertices);
		if (m->vertices == NULL) {
			abort();
		}
	}
	double* v = m->vertices + 3 * (size_t)m->vertexCount;
	v[0] = x;
	v[1] = y;
	v[2] = z;
	return m->vertexCount++;
}

void bcGenMesh_AddTriangle(bcGenMesh* m, int32_t a, int32_t b, int32_t c)
{
	if (m->triangleCount == m->triangleCapacity) {
		m->triangleCapacity = m->triangleCapacity ? 2 * m->triangleCapacity : 64;
		m->triangles = realloc(m->triangles, (size_t)m->triangleCapacity * 3 * sizeof *m->triangles);
		if (m->triangles == NULL) {
			abort();
		}
	}
	int32_t* t = m->triangles + 3 * (size_t)m->triangleCount;
	t[0] = a;
	t[1] = b;
	t[2] = c;
	m->triangleCount++;
}

/* Midpoint cache for subdivision: edge (i, j) -> new vertex, open addressing. */
typedef struct bcEdgeCache {
	uint64_t* keys;
	int32_t* values;
	size_t mask;
} bcEdgeCache;

static int32_t midpoint(bcGenMesh* m, bcEdgeCache* cache, int32_t i, int32_t j, bcVec3 center, double radius)
{
	uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
	uint64_t key = (a << 32) | b;
	size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & cache->mask;
	while (cache->keys[h] != 0) {
		if (cache->keys[h] == key + 1) {
			return cache->values[h];
		}
		h = (h + 1) & cache->mask;
	}
	const double* p = m->vertices + 3 * (size_t)i;
	const double* q = m->vertices + 3 * (size_t)j;
	double x = 0.5 * (p[0] + q[0]) - center.x, y = 0.5 * (p[1] + q[1]) - center.y, z = 0.5 * (p[2] + q[2]) - center.z;
	double l = sqrt(x * x + y * y + z * z);
	int32_t v = bcGenMesh_AddVertex(m, center.x + radius * x / l, center.y + radius * y / l, center.z + radius * z / l);
	cache->keys[h] = key + 1;
	cache->values[h] = v;
	return v;
}

void bcGenIcosphere(bcGenMesh* m, int level, bcVec3 center, double radius, int inward)
{
	const double t = (1.0 + sqrt(5.0)) / 2.0;
	const double base[12][3] = { { -1, t, 0 }, { 1, t, 0 }, { -1, -t, 0 }, { 1, -t, 0 }, { 0, -1, t }, { 0, 1, t },
								 { 0, -1, -t }, { 0, 1, -t }, { t, 0, -1 }, { t, 0, 1 }, { -t, 0, -1 }, { -t, 0, 1 } };
	const int faces[20][3] = { { 0, 11, 5 }, { 0, 5, 1 }, { 0, 1, 7 }, { 0, 7, 10 }, { 0, 10, 11 },
							   { 1, 5, 9 }, { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },
							   { 3, 9, 4 }, { 3, 4, 2 }, { 3, 2, 6 }, { 3, 6, 8 }, { 3, 8, 9 },
							   { 4, 9, 5 }, { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 }, { 9, 8, 1 } };
	int32_t first = m->vertexCount;
	for (int i = 0; i < 12; ++i) {
		double l = sqrt(base[i][0] * base[i][0] + base[i][1] * base[i][1] + base[i][2] * base[i][2]);
		bcGenMesh_AddVertex(m, center.x + radius * base[i][0] / l, center.y + radius * base[i][1] / l,
							center.z + radius * base[i][2] / l);
	}
	int32_t* tris = malloc(20 * 3 * sizeof *tris);
	int32_t count = 20;
	for (int i = 0; i < 20; ++i) {
		for (int k = 0; k < 3; ++k) {
			tris[3 * i + k] = first + faces[i][k];
		}
	}
	for (int l = 0; l < level; ++l) {
		size_t slots = 1;
		while (slots < (size_t)count * 4) {
			slots <<= 1;
		}
		bcEdgeCache cache = { calloc(slots, sizeof(uint64_t)), malloc(slots * sizeof(int32_t)), slots - 1 };
		int32_t* next = malloc((size_t)count * 4 * 3 * sizeof *next);
		for (int32_t i = 0; i < count; ++i) {
			int32_t a = tris[3 * i], b = tris[3 * i + 1], c = tris[3 * i + 2];
			int32_t ab = midpoint(m, &cache, a, b, center, radius);
			int32_t bc = midpoint(m, &cache, b, c, center, radius);
			int32_t ca = midpoint(m, &cache, c, a, center, radius);
			int32_t* o = next + 12 * (size_t)i;
			int32_t quad[12] = { a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca };
			memcpy(o, quad, sizeof quad);
		}
		free(cache.keys);
		free(cache.values);
		free(tris);
		tris = next;
		count *= 4;
	}
	for (int32_t i = 0; i < count; ++i) {
		if (inward) {
			bcGenMesh_AddTriangle(m, tris[3 * i], tris[3 * i + 2], tris[3 * i + 1]);
		} else {
			bcGenMesh_AddTriangle(m, tris[3 * i], tris[3 * i + 1], tris[3 * i + 2]);
		}
	}
	free(tris);
}

void bcGenBox(bcGenMesh* m, bcVec3 lower, bcVec3 upper, int cells, int inward)
{
	/* Shared vertices on a (cells+1)^3 lattice surface so edges are shared exactly. */
	int n = cells + 1;
	int32_t* index = malloc((size_t)n * n * n * sizeof *index);
	for (int i = 0; i < n * n * n; ++i) {
		index[i] = -1;
	}
	const double lo[3] = { lower.x, lower.y, lower.z }, hi[3] = { upper.x, upper.y, upper.z };
#define BC_LATTICE(i, j, k) index[((size_t)(i) * n + (j)) * n + (k)]
	for (int axis = 0; axis < 3; ++axis) {
		for (int side = 0; side < 2; ++side) {
			int u = (axis + 1) % 3, w = (axis + 2) % 3;
			for (int a = 0; a < cells; ++a) {
				for (int b = 0; b < cells; ++b) {
					int32_t q[4];
					const int du[4] = { 0, 1, 1, 0 }, dw[4] = { 0, 0, 1, 1 };
					for (int c = 0; c < 4; ++c) {
						int g[3];
						g[axis] = side ? cells : 0;
						g[u] = a + du[c];
						g[w] = b + dw[c];
						int32_t* slot = &BC_LATTICE(g[0], g[1], g[2]);
						if (*slot < 0) {
							double p[3];
							for (int k = 0; k < 3; ++k) {
								/* Exact ends: lo and hi themselves, not lo + cells * step. */
								p[k] = g[k] == cells ? hi[k] : lo[k] + (hi[k] - lo[k]) * g[k] / cells;
							}
							*slot = bcGenMesh_AddVertex(m, p[0], p[1], p[2]);
						}
						q[c] = *slot;
					}
					/* (u, w) counter-clockwise seen from +axis: normal +axis. */
					int outwardPositive = side == 1;
					int flip = inward ? outwardPositive : !outwardPositive;
					if (!flip) {
						bcGenMesh_AddTriangle(m, q[0], q[1], q[2]);
						bcGenMesh_AddTriangle(m, q[0], q[2], q[3]);
					} else {
						bcGenMesh_AddTriangle(m, q[0], q[2], q[1]);
						bcGenMesh_AddTriangle(m, q[0], q[3], q[2]);
					}
				}
			}
		}
	}
#undef BC_LATTICE
	free(index);
}

void bcGenTerrain(bcGenMesh* m, int n, double size, uint64_t seed)
{
	bcRandom rng = { seed };
	double phase[4];
	for (int i = 0; i < 4; ++i) {
		phase[i] = bcRandom_Uniform(&rng, 0, 6.283185307179586);
	}
	int32_t first = m->vertexCount;
	for (int j = 0; j <= n; ++j) {
		for (int i = 0; i <= n; ++i) {
			double x = size * i / n, y = size * j / n;
			double h = 0.05 * size * (sin(6.0 * x / size + phase[0]) * cos(5.0 * y / size + phase[1])) +
					   0.01 * size * sin(40.0 * x / size + phase[2]) * sin(37.0 * y / size + phase[3]) +
					   0.002 * size * bcRandom_Uniform(&rng, -1, 1);
			bcGenMesh_AddVertex(m, x, y, h);
		}
	}
	for (int j = 0; j < n; ++j) {
		for (int i = 0; i < n; ++i) {
			int32_t a = first + j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
			bcGenMesh_AddTriangle(m, a, b, c);
			bcGenMesh_AddTriangle(m, a, c, d);
		}
	}
}

void bcGenSoup(bcGenMesh* m, int32_t count, double extent, double size, uint64_t seed)
{
	bcRandom rng = { seed };
	bcVec3 lo = { 0, 0, 0 }, hi = { extent, extent, extent };
	for (int32_t i = 0; i < count; ++i) {
		bcVec3 c = bcRandom_InBox(&rng, lo, hi);
		int32_t v[3];
		for (int k = 0; k < 3; ++k) {
			bcVec3 d = bcRandom_OnSphere(&rng);
			v[k] = bcGenMesh_AddVertex(m, c.x + size * d.x, c.y + size * d.y, c.z + size * d.z);
		}
		bcGenMesh_AddTriangle(m, v[0], v[1], v[2]);
	}
}

bcMesh* bcGenMesh_Build(const bcGenMesh* m)
{
	bcMeshDef def = { m->vertices, m->vertexCount, m->triangles, m->triangleCount, NULL, 0 };
	return bcMesh_Create(&def, NULL);
}

int bcGenMesh_WriteObj(const bcGenMesh* m, FILE* f)
{
	for (int32_t i = 0; i < m->vertexCount; ++i) {
		const double* v = m->vertices + 3 * (size_t)i;
		fprintf(f, "v %.17g %.17g %.17g\n", v[0], v[1], v[2]);
	}
	for (int32_t i = 0; i < m->triangleCount; ++i) {
		const int32_t* t = m->triangles + 3 * (size_t)i;
		fprintf(f, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
	}
	return ferror(f) ? -1 : 0;
}
