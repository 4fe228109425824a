/* genwork.c - the benchmark's workloads, deterministically: meshes as OBJ
 * (through tests/support/meshgen.c) and trajectories as binary .traj (for
 * the harnesses), a JSON array or NDJSON (for the ballcast command).
 *
 *   genwork mesh icosphere LEVEL OUT.obj   20 * 4^LEVEL triangles, radius 1
 *   genwork mesh room CELLS OUT.obj        closed box [0,10]^3 facing inward,
 *                                          12 * CELLS^2 triangles
 *   genwork mesh terrain CELLS OUT.obj     height field over [0,100]^2,
 *                                          2 * CELLS^2 triangles
 *   genwork mesh soup COUNT OUT.obj        COUNT random triangles in [0,100]^3
 *   genwork traj MESH.obj SET COUNT SEED OUT
 *
 * Trajectories, with S the largest extent of the mesh's bounding box:
 *  - short: a point q uniform on a random (by index) non-degenerate
 *    triangle, p0 = q + n (r + h) with n its front normal and h uniform in
 *    [0, BC_SHORT_LENGTH * S], p1 = p0 + BC_SHORT_LENGTH * S * u with u a
 *    uniform random direction (so about half head for the surface); drawn
 *    again (up to BC_SHORT_TRIES times) while the ball would start overlapping
 *    some triangle;
 *  - long: the line through two uniform points of the bounding box grown by
 *    BC_LONG_MARGIN * S on every side, clipped to that grown box: segments
 *    that cross the whole mesh;
 *  - ray: the long segments with r = 0;
 *  - mixed: short and long in turn (the end-to-end runs).
 * Radii (short, long, mixed) are uniform in [BC_RADIUS_LOW, BC_RADIUS_HIGH] * S.
 * OUT ending in .traj is binary (tests/bench/benchutil.h), .json a JSON
 * array, anything else (or "-", standard output) NDJSON; every number is
 * printed with %.17g, so the command reads exactly the harnesses' doubles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "meshgen.h"

/* Short segments are this fraction of the mesh size (the issue: "about 1 %"). */
#define BC_SHORT_LENGTH 0.01

/* Candidates drawn for a short trajectory before one that starts in
 * overlap is kept: enough for the meshes here (a handful of tries at most on
 * the rough terrain), bounded for the dense soups where most spots overlap. */
#define BC_SHORT_TRIES 32

/* Long segments start and end this fraction of the mesh size outside the
 * bounding box, so they cross all of it. */
#define BC_LONG_MARGIN 0.05

/* Ball radii as fractions of the mesh size: 0.2 % to 1 %. */
#define BC_RADIUS_LOW 0.002
#define BC_RADIUS_HIGH 0.01

/* Generated meshes: room side, terrain side, soup cube side (mesh units). */
#define BC_ROOM_SIDE 10.0
#define BC_TERRAIN_SIDE 100.0
#define BC_SOUP_SIDE 100.0

/* Fixed seeds of the random meshes. */
#define BC_TERRAIN_SEED 0x7465727261696eull
#define BC_SOUP_SEED 0x736f7570ull

/* Two points of a long segment closer than this fraction of S are drawn again. */
#define BC_LONG_MIN_SPAN 0.1

static int usage(void)
{
	fputs("usage: genwork mesh icosphere|room|terrain|soup N OUT.obj\n"
		  "       genwork traj MESH.obj short|long|ray|mixed COUNT SEED OUT(.traj|.json|.ndjson|-)\n",
		  stderr);
	return 2;
}

static int writeMesh(const char* kind, long n, const char* path)
{
	bcGenMesh m = { 0 };
	if (strcmp(kind, "icosphere") == 0 && n >= 0 && n <= 10) {
		bcGenIcosphere(&m, (int)n, (bcVec3){ 0.0, 0.0, 0.0 }, 1.0, 0);
	} else if (strcmp(kind, "room") == 0 && n >= 1) {
		bcGenBox(&m, (bcVec3){ 0.0, 0.0, 0.0 }, (bcVec3){ BC_ROOM_SIDE, BC_ROOM_SIDE, BC_ROOM_SIDE }, (int)n, 1);
	} else if (strcmp(kind, "terrain") == 0 && n >= 1) {
		bcGenTerrain(&m, (int)n, BC_TERRAIN_SIDE, BC_TERRAIN_SEED);
	} else if (strcmp(kind, "soup") == 0 && n >= 1) {
		/* Edge about the spacing of the triangles' centres: a dense soup at any count. */
		double size = BC_SOUP_SIDE / cbrt((double)n);
		bcGenSoup(&m, (int32_t)n, BC_SOUP_SIDE, size, BC_SOUP_SEED);
	} else {
		return usage();
	}
	FILE* f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		bcGenMesh_Free(&m);
		return 1;
	}
	int status = bcGenMesh_WriteObj(&m, f);
	status = fclose(f) != 0 ? -1 : status;
	bcGenMesh_Free(&m);
	if (status != 0) {
		fprintf(stderr, "genwork: %s: write failed\n", path);
		return 1;
	}
	return 0;
}

typedef enum bcTrajKind { bc_trajShort, bc_trajLong, bc_trajRay, bc_trajMixed } bcTrajKind;

typedef struct bcTrajSource {
	const bcMesh* mesh;
	bcMeshInfo info;
	double size;      /* S: the largest extent of the bounding box */
	bcVec3 lower, upper; /* the grown box of the long segments */
	bcRandom rng;
	bcTrajKind kind;
	size_t index;
} bcTrajSource;

static bcVec3 addScaled(bcVec3 a, bcVec3 d, double s)
{
	return (bcVec3){ a.x + s * d.x, a.y + s * d.y, a.z + s * d.z };
}

/* One candidate short trajectory of the given radius. */
static bcCastInput drawShort(bcTrajSource* src, double radius)
{
	bcTriangle t;
	do {
		int32_t index = (int32_t)(bcRandom_Next(&src->rng) % (uint64_t)src->info.triangleCount);
		t = bcMesh_GetTriangle(src->mesh, index);
	} while (t.degenerate);
	bcVec3 a = bcMesh_GetVertex(src->mesh, t.vertices[0]);
	bcVec3 b = bcMesh_GetVertex(src->mesh, t.vertices[1]);
	bcVec3 c = bcMesh_GetVertex(src->mesh, t.vertices[2]);
	double u = bcRandom_Uniform(&src->rng, 0.0, 1.0), v = bcRandom_Uniform(&src->rng, 0.0, 1.0);
	if (u + v > 1.0) {
		u = 1.0 - u;
		v = 1.0 - v;
	}
	bcVec3 q = { a.x + u * (b.x - a.x) + v * (c.x - a.x), a.y + u * (b.y - a.y) + v * (c.y - a.y),
				 a.z + u * (b.z - a.z) + v * (c.z - a.z) };
	double h = bcRandom_Uniform(&src->rng, 0.0, BC_SHORT_LENGTH * src->size);
	bcCastInput in;
	in.p0 = addScaled(q, t.normal, radius + h);
	in.p1 = addScaled(in.p0, bcRandom_OnSphere(&src->rng), BC_SHORT_LENGTH * src->size);
	in.radius = radius;
	return in;
}

/* A short trajectory whose ball starts clear of every triangle, if one of
 * BC_SHORT_TRIES candidates does (on rough or dense meshes a ball offset
 * from one triangle often overlaps its neighbours); else the last one. */
static bcCastInput makeShort(bcTrajSource* src, double radius)
{
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = true;
	bcCastInput in = drawShort(src, radius);
	for (int i = 1; i < BC_SHORT_TRIES && bcMesh_Cast(src->mesh, in, &options).state == bc_castInitialOverlap; ++i) {
		in = drawShort(src, radius);
	}
	return in;
}

/* Clip the line a + t (b - a) to the grown box: [t0, t1]. */
static bcCastInput makeLong(bcTrajSource* src, double radius)
{
	for (;;) {
		bcVec3 a = bcRandom_InBox(&src->rng, src->lower, src->upper);
		bcVec3 b = bcRandom_InBox(&src->rng, src->lower, src->upper);
		double pa[3] = { a.x, a.y, a.z }, pb[3] = { b.x, b.y, b.z };
		double lo[3] = { src->lower.x, src->lower.y, src->lower.z }, hi[3] = { src->upper.x, src->upper.y, src->upper.z };
		double span = 0.0, t0 = -INFINITY, t1 = INFINITY;
		for (int k = 0; k < 3; ++k) {
			double d = pb[k] - pa[k];
			span += d * d;
			if (d != 0.0) {
				double s0 = (lo[k] - pa[k]) / d, s1 = (hi[k] - pa[k]) / d;
				t0 = fmax(t0, fmin(s0, s1));
				t1 = fmin(t1, fmax(s0, s1));
			}
		}
		if (sqrt(span) < BC_LONG_MIN_SPAN * src->size || !(t0 < t1)) {
			continue;
		}
		bcVec3 d = { b.x - a.x, b.y - a.y, b.z - a.z };
		bcCastInput in = { addScaled(a, d, t0), addScaled(a, d, t1), radius };
		return in;
	}
}

static bcCastInput nextTrajectory(bcTrajSource* src)
{
	bcTrajKind kind = src->kind;
	if (kind == bc_trajMixed) {
		kind = src->index % 2 == 0 ? bc_trajShort : bc_trajLong;
	}
	src->index += 1;
	double radius = bcRandom_Uniform(&src->rng, BC_RADIUS_LOW * src->size, BC_RADIUS_HIGH * src->size);
	switch (kind) {
	case bc_trajShort:
		return makeShort(src, radius);
	case bc_trajRay:
		return makeLong(src, 0.0);
	default:
		return makeLong(src, radius);
	}
}

static void printTrajectory(FILE* f, const bcCastInput* in)
{
	fprintf(f, "{\"p0\":[%.17g,%.17g,%.17g],\"p1\":[%.17g,%.17g,%.17g],\"r\":%.17g}", in->p0.x, in->p0.y, in->p0.z,
			in->p1.x, in->p1.y, in->p1.z, in->radius);
}

static int endsWith(const char* s, const char* suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int writeTrajectories(bcTrajSource* src, size_t count, const char* path)
{
	if (endsWith(path, ".traj")) {
		bcCastInput* inputs = malloc((count > 0 ? count : 1) * sizeof *inputs);
		if (inputs == NULL) {
			fputs("genwork: out of memory\n", stderr);
			return 1;
		}
		for (size_t i = 0; i < count; ++i) {
			inputs[i] = nextTrajectory(src);
		}
		int status = bcBenchWriteTrajectories(path, inputs, count);
		free(inputs);
		return status == 0 ? 0 : 1;
	}
	int json = endsWith(path, ".json");
	FILE* f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (f == NULL) {
		perror(path);
		return 1;
	}
	if (json) {
		fputs("[\n", f);
	}
	for (size_t i = 0; i < count; ++i) {
		bcCastInput in = nextTrajectory(src);
		printTrajectory(f, &in);
		fputs(json && i + 1 < count ? ",\n" : "\n", f);
	}
	if (json) {
		fputs("]\n", f);
	}
	int failed = ferror(f);
	failed = (f == stdout ? fflush(f) : fclose(f)) != 0 || failed;
	if (failed) {
		fprintf(stderr, "genwork: %s: write failed\n", path);
	}
	return failed ? 1 : 0;
}

static int makeTrajectories(const char* meshPath, const char* set, const char* countText, const char* seedText,
							const char* out)
{
	bcTrajSource src;
	memset(&src, 0, sizeof src);
	if (strcmp(set, "short") == 0) {
		src.kind = bc_trajShort;
	} else if (strcmp(set, "long") == 0) {
		src.kind = bc_trajLong;
	} else if (strcmp(set, "ray") == 0) {
		src.kind = bc_trajRay;
	} else if (strcmp(set, "mixed") == 0) {
		src.kind = bc_trajMixed;
	} else {
		return usage();
	}
	char* end;
	size_t count = (size_t)strtoull(countText, &end, 10);
	if (*end != 0) {
		return usage();
	}
	src.rng.state = strtoull(seedText, &end, 0);
	if (*end != 0) {
		return usage();
	}
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_LoadObj(meshPath, NULL, &error);
	if (mesh == NULL) {
		fprintf(stderr, "genwork: %s:%ld:%ld: %s\n", meshPath, error.line, error.column, error.message);
		return 1;
	}
	src.mesh = mesh;
	src.info = bcMesh_GetInfo(mesh);
	bcVec3 lo = src.info.lowerBound, hi = src.info.upperBound;
	src.size = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
	double margin = BC_LONG_MARGIN * src.size;
	src.lower = (bcVec3){ lo.x - margin, lo.y - margin, lo.z - margin };
	src.upper = (bcVec3){ hi.x + margin, hi.y + margin, hi.z + margin };
	int status = writeTrajectories(&src, count, out);
	bcMesh_Destroy(mesh);
	return status;
}

int main(int argc, char** argv)
{
	if (argc == 5 && strcmp(argv[1], "mesh") == 0) {
		char* end;
		long n = strtol(argv[3], &end, 10);
		return *end == 0 ? writeMesh(argv[2], n, argv[4]) : usage();
	}
	if (argc == 7 && strcmp(argv[1], "traj") == 0) {
		return makeTrajectories(argv[2], argv[3], argv[4], argv[5], argv[6]);
	}
	return usage();
}
