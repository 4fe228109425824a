/* polygon_bench.c - `make bench-polygon`: one polygon of n corners into
 * triangles (lib/polygon.c), for convex polygons, stars, combs and spirals
 * of 10^3 to 10^6 corners, and a file of one such face read whole by
 * bcMesh_LoadObj. Prints a table: kind, corners, shape, CPU seconds (the
 * median of three runs, one thread: a busy machine does not dilute them).
 * tests/bench/notes.md keeps the numbers. */
#include <stdio.h>
#include <stdlib.h>

#include "benchutil.h"
#include "polygen.h"
#include "polygon.h"

static const char* shapeName(bcPolygonShape shape)
{
	static const char* const names[] = { "convex", "concave", "flat", "non-planar", "self-intersecting" };
	return names[shape];
}

/* One face of count corners, written as an OBJ file at path. */
static int writeObj(const char* path, const double* xy, int32_t count)
{
	FILE* f = fopen(path, "w");
	if (f == NULL) {
		return 0;
	}
	for (int32_t i = 0; i < count; ++i) {
		fprintf(f, "v %.17g %.17g 0\n", xy[2 * i], xy[2 * i + 1]);
	}
	fputs("f", f);
	for (int32_t i = 0; i < count; ++i) {
		fprintf(f, " %d", i + 1);
	}
	fputc('\n', f);
	return fclose(f) == 0;
}

int main(int argc, char** argv)
{
	const char* work = argc > 1 ? argv[1] : "/tmp";
	const int32_t sizes[] = { 1000, 10000, 100000, 1000000 };
	enum { largest = 1000000, runs = 3 };
	double* xy = malloc(2 * (size_t)largest * sizeof *xy);
	bcVec3* vertices = malloc((size_t)largest * sizeof *vertices);
	int32_t* corners = malloc((size_t)largest * sizeof *corners);
	int32_t* triangles = malloc(3 * (size_t)largest * sizeof *triangles);
	if (xy == NULL || vertices == NULL || corners == NULL || triangles == NULL) {
		fputs("polygon_bench: out of memory\n", stderr);
		return 1;
	}
	printf("%-8s %9s %-8s %12s %13s %10s\n", "kind", "corners", "shape", "cut (CPU s)", "load (CPU s)", "OBJ (MB)");
	for (int kind = 0; kind < bc_genPolygonKinds; ++kind) {
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
			int32_t n = bcGenPolygon((bcGenPolygonKind)kind, sizes[k], 26, xy);
			for (int32_t i = 0; i < n; ++i) {
				vertices[i] = bcMakeVec3(xy[2 * i], xy[2 * i + 1], 0.0);
				corners[i] = i;
			}
			bcPolygonScratch scratch = { 0 };
			bcPolygonShape shape = bc_polygonConvex;
			double deviation = 0.0, cut[runs], load[runs];
			for (int r = 0; r < runs; ++r) {
				double start = bcBenchProcessSeconds();
				if (!bcTriangulatePolygon(vertices, corners, n, triangles, &scratch, &shape, &deviation)) {
					fputs("polygon_bench: out of memory\n", stderr);
					return 1;
				}
				cut[r] = bcBenchProcessSeconds() - start;
			}
			bcPolygonScratch_Free(&scratch);
			char path[4096];
			snprintf(path, sizeof path, "%s/polygon-%s-%d.obj", work, bcGenPolygonName((bcGenPolygonKind)kind), n);
			if (!writeObj(path, xy, n)) {
				fprintf(stderr, "polygon_bench: cannot write %s\n", path);
				return 1;
			}
			FILE* f = fopen(path, "rb");
			fseek(f, 0, SEEK_END);
			double megabytes = (double)ftell(f) / 1e6;
			fclose(f);
			bcObjOptions options = bcDefaultObjOptions();
			options.threadCount = 1;
			for (int r = 0; r < runs; ++r) {
				bcError error;
				double start = bcBenchProcessSeconds();
				bcMesh* mesh = bcMesh_LoadObj(path, &options, &error);
				load[r] = bcBenchProcessSeconds() - start;
				if (mesh == NULL) {
					fprintf(stderr, "%s:%ld:%ld: %s\n", path, error.line, error.column, error.message);
					return 1;
				}
				bcMesh_Destroy(mesh);
			}
			remove(path);
			printf("%-8s %9d %-8s %12.4f %13.4f %10.1f\n", bcGenPolygonName((bcGenPolygonKind)kind), n,
				   shapeName(shape), bcBenchMedian(cut, runs), bcBenchMedian(load, runs), megabytes);
			fflush(stdout);
		}
	}
	free(xy);
	free(vertices);
	free(corners);
	free(triangles);
	return 0;
}
