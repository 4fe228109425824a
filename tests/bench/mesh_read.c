/* mesh_read.c - the time bcMesh_Load takes to read a mesh file, without
 * the bounding volume hierarchy's build (tests/bench/mesh_formats.sh
 * builds it and says how):
 *
 *     mesh_read THREADS RUNS FILE...
 *
 * For each file, RUNS loads on THREADS threads (0: one per core), in turn
 * file after file so that a change in the machine's load touches them all
 * alike; then per file the median and least process CPU seconds (every
 * thread's) and wall seconds of one load, and a digest of what was read
 * (vertices, triangles, face ids, warnings: equal digests, equal meshes).
 *
 * Linked with -Wl,--wrap=bcBvh_CreateWithThreads,--wrap=bcBvh_Destroy, so
 * that the library's call to build the hierarchy gets the stubs below: what
 * is timed is reading, parsing, cutting polygons and the triangles' normals,
 * what `ballcast cast --stats` calls read_mesh_seconds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ballcast.h"

struct bcBvh;
struct bcMesh;

/* The stubs the library's hierarchy calls are wrapped to: no hierarchy
 * (a pointer that is never used, and never freed). */
struct bcBvh* __wrap_bcBvh_CreateWithThreads(const struct bcMesh* mesh, int threadCount);
void __wrap_bcBvh_Destroy(struct bcBvh* bvh);

struct bcBvh* __wrap_bcBvh_CreateWithThreads(const struct bcMesh* mesh, int threadCount)
{
	static char stub;
	(void)mesh;
	(void)threadCount;
	return (struct bcBvh*)(void*)&stub;
}

void __wrap_bcBvh_Destroy(struct bcBvh* bvh)
{
	(void)bvh;
}

static double seconds(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* FNV-1a over bytes. */
static uint64_t digestBytes(uint64_t h, const void* data, size_t size)
{
	const unsigned char* p = data;
	for (size_t i = 0; i < size; ++i) {
		h = (h ^ p[i]) * 0x100000001B3u;
	}
	return h;
}

static uint64_t digestMesh(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	uint64_t h = 0xCBF29CE484222325u;
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		h = digestBytes(h, &v, sizeof v);
	}
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		h = digestBytes(h, t.vertices, sizeof t.vertices);
		h = digestBytes(h, &t.face, sizeof t.face);
	}
	int32_t warnings = bcMesh_GetWarningCount(mesh);
	h = digestBytes(h, &warnings, sizeof warnings);
	for (int32_t i = 0; i < warnings && i < BC_MAX_WARNINGS; ++i) {
		bcWarning w = bcMesh_GetWarning(mesh, i);
		h = digestBytes(h, w.message, strlen(w.message));
	}
	return h;
}

static int compareDoubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

int main(int argc, char** argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: mesh_read THREADS RUNS FILE...\n");
		return 2;
	}
	int threads = atoi(argv[1]);
	int runs = atoi(argv[2]);
	int files = argc - 3;
	if (runs < 1) {
		runs = 1;
	}
	double* cpu = calloc((size_t)files * (size_t)runs, sizeof *cpu);
	double* wall = calloc((size_t)files * (size_t)runs, sizeof *wall);
	uint64_t* digests = calloc((size_t)files, sizeof *digests);
	if (cpu == NULL || wall == NULL || digests == NULL) {
		return 1;
	}
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = threads;
	for (int r = 0; r < runs; ++r) {
		for (int f = 0; f < files; ++f) {
			bcError error = { 0 };
			double c0 = seconds(CLOCK_PROCESS_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
			bcMesh* mesh = bcMesh_Load(argv[3 + f], bc_meshAuto, &options, &error);
			double c1 = seconds(CLOCK_PROCESS_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
			if (mesh == NULL) {
				fprintf(stderr, "mesh_read: %s: %s\n", argv[3 + f], error.message);
				return 1;
			}
			cpu[(size_t)f * (size_t)runs + (size_t)r] = c1 - c0;
			wall[(size_t)f * (size_t)runs + (size_t)r] = w1 - w0;
			if (r == 0) {
				digests[f] = digestMesh(mesh);
			}
			bcMesh_Destroy(mesh);
		}
	}
	printf("%-20s %10s %10s %10s %10s  %s\n", "file", "cpu_med", "cpu_min", "wall_med", "wall_min", "digest");
	for (int f = 0; f < files; ++f) {
		double* c = cpu + (size_t)f * (size_t)runs;
		double* w = wall + (size_t)f * (size_t)runs;
		qsort(c, (size_t)runs, sizeof *c, compareDoubles);
		qsort(w, (size_t)runs, sizeof *w, compareDoubles);
		const char* name = strrchr(argv[3 + f], '/');
		printf("%-20s %10.3f %10.3f %10.3f %10.3f  %016llx\n", name != NULL ? name + 1 : argv[3 + f], c[runs / 2],
			   c[0], w[runs / 2], w[0], (unsigned long long)digests[f]);
	}
	free(cpu);
	free(wall);
	free(digests);
	return 0;
}
