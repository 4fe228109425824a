/* seeds_bench.c - the other queries against their brute-force baselines:
 * closest point of a mesh, balls against balls, simulate, mesh against mesh;
 * and the course slides' time stepping with bisection against the exact cast
 * ("discrete" lines: see runDiscrete).
 *
 *   seeds_bench [OPTIONS] closest NAME MESH.obj
 *   seeds_bench [OPTIONS] balls COUNT [COUNT ...]
 *   seeds_bench [OPTIONS] simulate NAME MESH.obj BALLS [two-sided]
 *   seeds_bench [OPTIONS] intersect spheres LEVEL
 *   seeds_bench [OPTIONS] intersect moved NAME MESH.obj
 *   seeds_bench [OPTIONS] discrete NAME MESH.obj BISECTIONS DT [DT ...]
 * OPTIONS: --runs N (timed repetitions, the median; default 3), --brute N
 * (queries checked against brute force; default 200), --count N (queries
 * per set; default 100000).
 *
 * Each prints one "other ..." line per row as key=value fields (read by
 * tests/bench/run.sh and tests/bench/report.awk):
 *   query, name, size (triangles or balls), set, count: what was run;
 *   qps1, cpuqps1: queries per wall and per thread-CPU second at 1 thread;
 *   qpsN, threads: all threads (the query's own threading; 1 if it has none);
 *   brute, brutediffer, bruteqps, brutecpuqps, brutex, brutekind: how many
 *   answers were checked against the brute-force path (bit for bit, every
 *   field), how many differed, its rate in CPU seconds, the speed-up of the
 *   fast path on the same answers (CPU time), and what the baseline was;
 *   threadsdiffer: answers of all threads that differ from 1 thread's;
 * plus fields of each query's own. What a "query" is: closest, one point;
 * balls, one ball of the set; simulate, one event; intersect, one triangle
 * of the first mesh searched against the second.
 *
 * Exit status 1 if any answer differed. Workloads are made here with fixed
 * seeds (tests/support/meshgen.c's generator). Build: make bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"
#include "meshgen.h"

/* Timed repetitions (median) unless --runs says otherwise. */
#define BC_SEEDS_DEFAULT_RUNS 3

/* The most repetitions: bcBenchMedian sorts at most 16 values. */
#define BC_SEEDS_MAX_RUNS 15

/* Queries checked against brute force unless --brute says otherwise. */
#define BC_SEEDS_DEFAULT_BRUTE 200

/* Queries per closest set unless --count says otherwise. */
#define BC_SEEDS_DEFAULT_COUNT 100000

/* Closest points. With S the largest extent of the mesh's bounding box:
 * near points lie on a random triangle moved along its normal by up to this
 * fraction of S either way (the size of the short casts); far points are
 * uniform in the bounding box grown by BC_SEEDS_FAR_MARGIN S on every side. */
#define BC_SEEDS_NEAR_OFFSET 0.01
#define BC_SEEDS_FAR_MARGIN 0.25

/* Radii of the r > 0 sets, as fractions of S (those of the casts). */
#define BC_SEEDS_RADIUS_LOW 0.002
#define BC_SEEDS_RADIUS_HIGH 0.01

/* Balls: centres uniform in a cube holding BC_SEEDS_BALL_DENSITY balls per
 * unit of volume, radii uniform in [LOW, HIGH], each moving up to
 * BC_SEEDS_BALL_PATH units in a uniform direction: about one ball in eight
 * meets another (a few percent already overlap one at the start), at any
 * count. */
#define BC_SEEDS_BALL_DENSITY 1.0
#define BC_SEEDS_BALL_RADIUS_LOW 0.05
#define BC_SEEDS_BALL_RADIUS_HIGH 0.15
#define BC_SEEDS_BALL_PATH 1.0

/* The library's all-pairs path runs up to this many balls (1e4 balls: 5e7
 * pairs per pass, about a second); larger sets are checked on --brute balls
 * against every other ball through the public pairwise test. */
#define BC_SEEDS_BALL_BRUTE_MAX 10000

/* Simulation scenes: balls on a lattice filling the middle
 * BC_SEEDS_SIM_FILL of the mesh's box on each axis (inside the room, and
 * inside the icosphere since 0.5 sqrt(3) / 2 < 1), radius this fraction of
 * the lattice spacing, speed BC_SEEDS_SIM_SPEED S per second in random
 * directions, gravity BC_SEEDS_SIM_GRAVITY S per second^2 down -z, bounces
 * keeping BC_SEEDS_SIM_RESTITUTION of the normal speed, for
 * BC_SEEDS_SIM_HORIZON seconds (or the default event limit). */
#define BC_SEEDS_SIM_FILL 0.5
#define BC_SEEDS_SIM_RADIUS 0.25
#define BC_SEEDS_SIM_SPEED 0.5
#define BC_SEEDS_SIM_GRAVITY 1.0
#define BC_SEEDS_SIM_RESTITUTION 0.9
#define BC_SEEDS_SIM_HORIZON 4.0

/* The brute-force simulation replays the first events only, stopping after
 * --brute events or this many CPU seconds (each of its casts tests every
 * triangle: on a million triangles, tens of milliseconds per cast). */
#define BC_SEEDS_SIM_BRUTE_SECONDS 5.0

/* Mesh against mesh: the second icosphere's centre, in radii, and the
 * moved copy's shift, in fractions of S: both make the meshes cross along
 * long curves. */
#define BC_SEEDS_SPHERE_OFFSET_X 0.5
#define BC_SEEDS_SPHERE_OFFSET_Y 0.3
#define BC_SEEDS_SPHERE_OFFSET_Z 0.2
#define BC_SEEDS_MOVE_X 0.013
#define BC_SEEDS_MOVE_Y 0.021
#define BC_SEEDS_MOVE_Z 0.007

/* Triangle pairs the brute-force intersection tests at most: all pairs up
 * to this, else about this many: some triangles of mesh A (see
 * pickTriangles) against all of B. */
#define BC_SEEDS_PAIR_BUDGET 30000000.0

/* Fixed seeds. */
#define BC_SEEDS_CLOSEST_SEED 0x636c6f73657374ull
#define BC_SEEDS_BALL_SEED 0x62616c6c73ull
#define BC_SEEDS_SIM_SEED 0x73696dull

typedef struct bcSeedsConfig {
	int runs;
	int brute;
	int count;
} bcSeedsConfig;

/* A rate, guarding a zero time. */
static double perSecond(double count, double seconds)
{
	return seconds > 0.0 ? count / seconds : 0.0;
}

static bool sameBits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static bool sameVec(bcVec3 a, bcVec3 b)
{
	return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

static void* allocate(size_t count, size_t size)
{
	void* p = calloc(count > 0 ? count : 1, size);
	if (p == NULL) {
		fputs("seeds_bench: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static bcMesh* loadMesh(const char* path)
{
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	if (mesh == NULL) {
		fprintf(stderr, "seeds_bench: %s:%ld:%ld: %s\n", path, error.line, error.column, error.message);
	}
	return mesh;
}

static double meshSize(const bcMeshInfo* info)
{
	double x = info->upperBound.x - info->lowerBound.x;
	double y = info->upperBound.y - info->lowerBound.y;
	double z = info->upperBound.z - info->lowerBound.z;
	return fmax(x, fmax(y, z));
}

/* ---------------------------------------------------------------- closest */

static bool sameClosest(const bcClosestOutput* a, const bcClosestOutput* b)
{
	return a->state == b->state && sameBits(a->distance, b->distance) && sameVec(a->point, b->point) &&
		   a->triangle == b->triangle && a->face == b->face && a->feature == b->feature &&
		   a->vertexCount == b->vertexCount && memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 &&
		   sameVec(a->normal, b->normal) && a->overlap == b->overlap && sameBits(a->depth, b->depth) &&
		   a->tieCount == b->tieCount;
}

typedef enum bcPointKind { bc_pointNear, bc_pointFar } bcPointKind;

static void makePoints(const bcMesh* mesh, bcPointKind kind, bool withRadius, uint64_t seed, bcClosestInput* inputs,
					   int count)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double size = meshSize(&info);
	double grow = BC_SEEDS_FAR_MARGIN * size;
	bcVec3 lower = { info.lowerBound.x - grow, info.lowerBound.y - grow, info.lowerBound.z - grow };
	bcVec3 upper = { info.upperBound.x + grow, info.upperBound.y + grow, info.upperBound.z + grow };
	bcRandom rng = { seed };
	for (int i = 0; i < count; ++i) {
		if (kind == bc_pointFar) {
			inputs[i].p = bcRandom_InBox(&rng, lower, upper);
		} else {
			bcTriangle t;
			do {
				t = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
			} while (t.degenerate);
			bcVec3 a = bcMesh_GetVertex(mesh, t.vertices[0]);
			bcVec3 b = bcMesh_GetVertex(mesh, t.vertices[1]);
			bcVec3 c = bcMesh_GetVertex(mesh, t.vertices[2]);
			double u = bcRandom_Uniform(&rng, 0.0, 1.0), v = bcRandom_Uniform(&rng, 0.0, 1.0);
			if (u + v > 1.0) {
				u = 1.0 - u;
				v = 1.0 - v;
			}
			double h = bcRandom_Uniform(&rng, -BC_SEEDS_NEAR_OFFSET * size, BC_SEEDS_NEAR_OFFSET * size);
			inputs[i].p.x = a.x + u * (b.x - a.x) + v * (c.x - a.x) + h * t.normal.x;
			inputs[i].p.y = a.y + u * (b.y - a.y) + v * (c.y - a.y) + h * t.normal.y;
			inputs[i].p.z = a.z + u * (b.z - a.z) + v * (c.z - a.z) + h * t.normal.z;
		}
		inputs[i].radius =
			withRadius ? bcRandom_Uniform(&rng, BC_SEEDS_RADIUS_LOW * size, BC_SEEDS_RADIUS_HIGH * size) : 0.0;
	}
}

typedef struct bcSeedsTiming {
	double wall;
	double cpu;
} bcSeedsTiming;

static bcSeedsTiming timeClosest(const bcMesh* mesh, const bcClosestInput* inputs, bcClosestOutput* outputs,
								 int count, const bcClosestOptions* options, int threads, int runs)
{
	double wall[BC_SEEDS_MAX_RUNS], cpu[BC_SEEDS_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
		bcMesh_ClosestBatch(mesh, inputs, outputs, count, options, threads);
		cpu[r] = bcBenchThreadSeconds() - startCpu;
		wall[r] = bcBenchNow() - start;
	}
	bcSeedsTiming timing = { bcBenchMedian(wall, runs), bcBenchMedian(cpu, runs) };
	return timing;
}

static int runClosestSet(const bcSeedsConfig* cfg, const char* name, const bcMesh* mesh, const char* set,
						 bcPointKind kind, bool withRadius, uint64_t seed)
{
	int count = cfg->count;
	bcClosestInput* inputs = allocate((size_t)count, sizeof *inputs);
	bcClosestOutput* one = allocate((size_t)count, sizeof *one);
	bcClosestOutput* all = allocate((size_t)count, sizeof *all);
	makePoints(mesh, kind, withRadius, seed, inputs, count);
	bcClosestOptions options = bcDefaultClosestOptions();
	bcClosestOptions bruteOptions = options;
	bruteOptions.bruteForce = true;

	bcSeedsTiming one1 = timeClosest(mesh, inputs, one, count, &options, 1, cfg->runs);
	bcSeedsTiming oneAll = timeClosest(mesh, inputs, all, count, &options, 0, cfg->runs);
	int threadsDiffer = 0;
	for (int i = 0; i < count; ++i) {
		threadsDiffer += !sameClosest(one + i, all + i);
	}

	int bruteCount = cfg->brute < count ? cfg->brute : count;
	double start = bcBenchThreadSeconds();
	bcMesh_ClosestBatch(mesh, inputs, all, bruteCount, &bruteOptions, 1);
	double bruteCpu = bcBenchThreadSeconds() - start;
	int bruteDiffer = 0;
	for (int i = 0; i < bruteCount; ++i) {
		bruteDiffer += !sameClosest(one + i, all + i);
	}
	/* The same subset through the hierarchy, for the ratio. */
	start = bcBenchThreadSeconds();
	bcMesh_ClosestBatch(mesh, inputs, all, bruteCount, &options, 1);
	double fastCpu = bcBenchThreadSeconds() - start;

	int overlaps = 0, ties = 0;
	double distance = 0.0;
	for (int i = 0; i < count; ++i) {
		overlaps += one[i].overlap;
		ties += one[i].tieCount > 1;
		distance += one[i].distance;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	printf("other query=closest name=%s size=%ld set=%s count=%d qps1=%.6g cpuqps1=%.6g qpsN=%.6g threads=%ld "
		   "threadsdiffer=%d brute=%d brutediffer=%d bruteqps=%.6g brutecpuqps=%.6g brutex=%.6g brutekind=all-triangles "
		   "overlaps=%.4f ties=%d meandistance=%.4g\n",
		   name, (long)info.triangleCount, set, count, perSecond(count, one1.wall), perSecond(count, one1.cpu),
		   perSecond(count, oneAll.wall), cores > 0 ? cores : 1, threadsDiffer, bruteCount, bruteDiffer,
		   perSecond(bruteCount, bruteCpu), perSecond(bruteCount, bruteCpu), fastCpu > 0.0 ? bruteCpu / fastCpu : 0.0,
		   (double)overlaps / count, ties, distance / count);
	fflush(stdout);
	free(inputs);
	free(one);
	free(all);
	return threadsDiffer != 0 || bruteDiffer != 0;
}

static int runClosest(const bcSeedsConfig* cfg, const char* name, const char* path)
{
	bcMesh* mesh = loadMesh(path);
	if (mesh == NULL) {
		return 1;
	}
	int status = 0;
	status |= runClosestSet(cfg, name, mesh, "near-r0", bc_pointNear, false, BC_SEEDS_CLOSEST_SEED);
	status |= runClosestSet(cfg, name, mesh, "near-r", bc_pointNear, true, BC_SEEDS_CLOSEST_SEED + 1);
	status |= runClosestSet(cfg, name, mesh, "far-r0", bc_pointFar, false, BC_SEEDS_CLOSEST_SEED + 2);
	status |= runClosestSet(cfg, name, mesh, "far-r", bc_pointFar, true, BC_SEEDS_CLOSEST_SEED + 3);
	bcMesh_Destroy(mesh);
	return status;
}

/* ------------------------------------------------------------------ balls */

static bool sameBall(const bcBallResult* a, const bcBallResult* b)
{
	return a->state == b->state && sameBits(a->alpha, b->alpha) && a->other == b->other &&
		   a->tieCount == b->tieCount && sameVec(a->point, b->point) && sameVec(a->normal, b->normal) &&
		   sameVec(a->velocityBefore, b->velocityBefore) && sameVec(a->velocityAfter, b->velocityAfter);
}

static void makeBalls(int count, uint64_t seed, bcBallInput* balls)
{
	double side = cbrt(count / BC_SEEDS_BALL_DENSITY);
	bcRandom rng = { seed };
	bcVec3 lower = { 0.0, 0.0, 0.0 }, upper = { side, side, side };
	for (int i = 0; i < count; ++i) {
		bcVec3 p = bcRandom_InBox(&rng, lower, upper);
		bcVec3 u = bcRandom_OnSphere(&rng);
		double length = bcRandom_Uniform(&rng, 0.0, BC_SEEDS_BALL_PATH);
		balls[i].p0 = p;
		balls[i].p1 = (bcVec3){ p.x + length * u.x, p.y + length * u.y, p.z + length * u.z };
		balls[i].radius = bcRandom_Uniform(&rng, BC_SEEDS_BALL_RADIUS_LOW, BC_SEEDS_BALL_RADIUS_HIGH);
		balls[i].mass = 1.0;
		balls[i].fixed = false;
	}
}

/* Ball i's answer from every other ball through the public pairwise test,
 * following bcCollideBallSet's contract (ballcast.h): the earliest contact,
 * initial overlaps first, the lowest partner within the tie window. */
static bcBallResult pairwiseAnswer(const bcBallInput* balls, int count, int i, double restitution)
{
	const double overlapKey = -1.0, noKey = 2.0;
	bcVec3 di = { balls[i].p1.x - balls[i].p0.x, balls[i].p1.y - balls[i].p0.y, balls[i].p1.z - balls[i].p0.z };
	double best = noKey;
	for (int pass = 1; pass <= 2; ++pass) {
		bcBallResult r = { bc_ballMiss, 1.0, -1, 0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, di, di };
		for (int j = 0; j < count; ++j) {
			if (j == i) {
				continue;
			}
			bcVec3 dj = { balls[j].p1.x - balls[j].p0.x, balls[j].p1.y - balls[j].p0.y, balls[j].p1.z - balls[j].p0.z };
			bcBallHit hit = bcCollideBalls(balls[i].p0, di, balls[i].radius, balls[j].p0, dj, balls[j].radius);
			if (hit.state != bc_ballHit && hit.state != bc_ballInitialOverlap) {
				continue;
			}
			double key = hit.state == bc_ballInitialOverlap ? overlapKey : hit.alpha;
			if (pass == 1) {
				best = key < best ? key : best;
			} else if (key <= best + BC_BALL_TIE_TOLERANCE) {
				r.tieCount += 1;
				if (r.other < 0) {
					r.other = j;
					r.state = hit.state;
					r.alpha = hit.alpha;
					r.point = hit.point;
					r.normal = hit.normal;
					bcVec3 rel = { dj.x - di.x, dj.y - di.y, dj.z - di.z };
					if (rel.x * hit.normal.x + rel.y * hit.normal.y + rel.z * hit.normal.z < 0.0) {
						bcElasticResponse(di, balls[i].mass, dj, balls[j].mass, hit.normal, restitution,
										  &r.velocityAfter, NULL);
					}
				}
			}
		}
		if (pass == 2) {
			return r;
		}
	}
	return (bcBallResult){ bc_ballMiss, 1.0, -1, 0, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, di, di };
}

static bcSeedsTiming timeBalls(const bcBallInput* balls, int count, const bcBallsOptions* options,
							   bcBallResult* results, int runs, int* status)
{
	double wall[BC_SEEDS_MAX_RUNS], cpu[BC_SEEDS_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
		*status |= !bcCollideBallSet(balls, count, options, results, NULL);
		cpu[r] = bcBenchThreadSeconds() - startCpu;
		wall[r] = bcBenchNow() - start;
	}
	bcSeedsTiming timing = { bcBenchMedian(wall, runs), bcBenchMedian(cpu, runs) };
	return timing;
}

static int runBalls(const bcSeedsConfig* cfg, int count)
{
	bcBallInput* balls = allocate((size_t)count, sizeof *balls);
	bcBallResult* fast = allocate((size_t)count, sizeof *fast);
	bcBallResult* brute = allocate((size_t)count, sizeof *brute);
	makeBalls(count, BC_SEEDS_BALL_SEED + (uint64_t)count, balls);
	bcBallsOptions options = bcDefaultBallsOptions();
	int status = 0;
	bcSeedsTiming fastTiming = timeBalls(balls, count, &options, fast, cfg->runs, &status);
	double fastCpu = fastTiming.cpu, fastWall = fastTiming.wall;

	int checked = 0, differ = 0;
	double bruteCpu = 0.0;
	const char* kind;
	if (count <= BC_SEEDS_BALL_BRUTE_MAX) {
		bcBallsOptions bruteOptions = options;
		bruteOptions.bruteForce = true;
		bruteCpu = timeBalls(balls, count, &bruteOptions, brute, 1, &status).cpu;
		checked = count;
		kind = "all-pairs";
	} else {
		checked = cfg->brute < count ? cfg->brute : count;
		double start = bcBenchThreadSeconds();
		for (int i = 0; i < checked; ++i) {
			brute[i] = pairwiseAnswer(balls, count, i, options.restitution);
		}
		/* The rate of answering every ball this way. */
		bruteCpu = (bcBenchThreadSeconds() - start) * count / (checked > 0 ? checked : 1);
		kind = "pairwise-subset";
	}
	for (int i = 0; i < checked; ++i) {
		differ += !sameBall(fast + i, brute + i);
	}
	int hits = 0, overlaps = 0;
	for (int i = 0; i < count; ++i) {
		hits += fast[i].state == bc_ballHit || fast[i].state == bc_ballInitialOverlap;
		overlaps += fast[i].state == bc_ballInitialOverlap;
	}
	printf("other query=balls name=balls-%d size=%d set=grid count=%d qps1=%.6g cpuqps1=%.6g qpsN=%.6g threads=1 "
		   "threadsdiffer=0 brute=%d brutediffer=%d bruteqps=%.6g brutecpuqps=%.6g brutex=%.6g brutekind=%s "
		   "hits=%.4f overlaps=%.4f\n",
		   count, count, count, perSecond(count, fastWall), perSecond(count, fastCpu), perSecond(count, fastWall),
		   checked, differ, perSecond(count, bruteCpu), perSecond(count, bruteCpu),
		   fastCpu > 0.0 ? bruteCpu / fastCpu : 0.0, kind, (double)hits / count, (double)overlaps / count);
	fflush(stdout);
	free(balls);
	free(fast);
	free(brute);
	return status != 0 || differ != 0;
}

/* --------------------------------------------------------------- simulate */

static bool sameEvent(const bcSimEvent* a, const bcSimEvent* b)
{
	return a->state == b->state && a->kind == b->kind && a->index == b->index && sameBits(a->time, b->time) &&
		   a->ball == b->ball && a->other == b->other && a->triangle == b->triangle && a->face == b->face &&
		   a->feature == b->feature && a->vertexCount == b->vertexCount &&
		   memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 && sameVec(a->point, b->point) &&
		   sameVec(a->normal, b->normal) && sameVec(a->position, b->position) &&
		   sameVec(a->velocityBefore, b->velocityBefore) && sameVec(a->velocityAfter, b->velocityAfter) &&
		   sameVec(a->otherPosition, b->otherPosition) && sameVec(a->otherVelocityBefore, b->otherVelocityBefore) &&
		   sameVec(a->otherVelocityAfter, b->otherVelocityAfter) && a->motion == b->motion &&
		   a->otherMotion == b->otherMotion;
}

/* balls on a lattice in the middle of the mesh's box (see BC_SEEDS_SIM_FILL). */
static bcSimBallDef* makeScene(const bcMesh* mesh, int count, double* gravity)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double size = meshSize(&info);
	int n = 1;
	while (n * n * n < count) {
		++n;
	}
	double spacing = BC_SEEDS_SIM_FILL * size / n;
	bcVec3 centre = { 0.5 * (info.lowerBound.x + info.upperBound.x), 0.5 * (info.lowerBound.y + info.upperBound.y),
					  0.5 * (info.lowerBound.z + info.upperBound.z) };
	bcSimBallDef* balls = allocate((size_t)count, sizeof *balls);
	bcRandom rng = { BC_SEEDS_SIM_SEED };
	for (int i = 0; i < count; ++i) {
		int ix = i % n, iy = (i / n) % n, iz = i / (n * n);
		balls[i].position.x = centre.x + (ix - 0.5 * (n - 1)) * spacing;
		balls[i].position.y = centre.y + (iy - 0.5 * (n - 1)) * spacing;
		balls[i].position.z = centre.z + (iz - 0.5 * (n - 1)) * spacing;
		bcVec3 u = bcRandom_OnSphere(&rng);
		double speed = BC_SEEDS_SIM_SPEED * size;
		balls[i].velocity = (bcVec3){ speed * u.x, speed * u.y, speed * u.z };
		balls[i].radius = BC_SEEDS_SIM_RADIUS * spacing;
		balls[i].mass = 1.0;
	}
	*gravity = BC_SEEDS_SIM_GRAVITY * size;
	return balls;
}

/* Steps until the run ends, or until limit events (> 0) or seconds of CPU
 * (> 0) have passed; keeps up to capacity events. Returns the events
 * processed (horizon events included). */
static long long runSimulation(const bcMesh* mesh, const bcSimulationDef* def, bcSimEvent* kept, long long capacity,
							   long long limit, double seconds, double* cpu, bcSimulationInfo* info, int* status)
{
	double start = bcBenchThreadSeconds();
	bcError error = { 0 };
	bcSimulation* sim = bcSimulation_Create(mesh, def, &error);
	if (sim == NULL) {
		fprintf(stderr, "seeds_bench: simulate: %s (ball %ld)\n", error.message, error.record);
		*status = 1;
		*cpu = 0.0;
		return 0;
	}
	long long events = 0;
	for (;;) {
		bcSimEvent e = bcSimulation_Step(sim);
		if (e.state != bc_simEvent) {
			break;
		}
		if (events < capacity) {
			kept[events] = e;
		}
		events += 1;
		if ((limit > 0 && events >= limit) || (seconds > 0.0 && bcBenchThreadSeconds() - start > seconds)) {
			break;
		}
	}
	*info = bcSimulation_GetInfo(sim);
	bcSimulation_Destroy(sim);
	*cpu = bcBenchThreadSeconds() - start;
	return events;
}

static int runSimulate(const bcSeedsConfig* cfg, const char* name, const char* path, int count, bool twoSided)
{
	bcMesh* mesh = loadMesh(path);
	if (mesh == NULL) {
		return 1;
	}
	double gravity = 0.0;
	bcSimBallDef* balls = makeScene(mesh, count, &gravity);
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = count;
	def.gravity = (bcVec3){ 0.0, 0.0, -gravity };
	def.restitution = BC_SEEDS_SIM_RESTITUTION;
	def.horizon = BC_SEEDS_SIM_HORIZON;
	def.twoSided = twoSided;
	int status = 0;

	long long capacity = cfg->brute > 0 ? cfg->brute : 1;
	bcSimEvent* fastEvents = allocate((size_t)capacity, sizeof *fastEvents);
	bcSimEvent* bruteEvents = allocate((size_t)capacity, sizeof *bruteEvents);
	double cpu[BC_SEEDS_MAX_RUNS], wall[BC_SEEDS_MAX_RUNS];
	long long events = 0;
	bcSimulationInfo info = { 0 };
	for (int r = 0; r < cfg->runs; ++r) {
		double start = bcBenchNow();
		events = runSimulation(mesh, &def, fastEvents, capacity, 0, 0.0, cpu + r, &info, &status);
		wall[r] = bcBenchNow() - start;
	}
	double fastCpu = bcBenchMedian(cpu, cfg->runs);
	double fastWall = bcBenchMedian(wall, cfg->runs);

	/* The brute-force run replays the first events (see
	 * BC_SEEDS_SIM_BRUTE_SECONDS); --brute 0 skips it (on large meshes
	 * even its first predictions take minutes). */
	double bruteCpu = 0.0, prefixCpu = 0.0;
	long long bruteEventCount = 0, checked = 0;
	int differ = 0;
	if (cfg->brute > 0) {
		bcSimulationDef bruteDef = def;
		bruteDef.bruteForce = true;
		bcSimulationInfo bruteInfo = { 0 };
		bruteEventCount = runSimulation(mesh, &bruteDef, bruteEvents, capacity, capacity, BC_SEEDS_SIM_BRUTE_SECONDS,
										&bruteCpu, &bruteInfo, &status);
		checked = bruteEventCount < events ? bruteEventCount : events;
		checked = checked < capacity ? checked : capacity;
		for (long long i = 0; i < checked; ++i) {
			differ += !sameEvent(fastEvents + i, bruteEvents + i);
		}
		/* The fast path over the same first events, for the ratio. */
		bcSimulationInfo prefixInfo = { 0 };
		runSimulation(mesh, &def, fastEvents, capacity, bruteEventCount, 0.0, &prefixCpu, &prefixInfo, &status);
	}

	bcMeshInfo meshInfo = bcMesh_GetInfo(mesh);
	printf("other query=simulate name=%s size=%ld set=%d-balls count=%lld qps1=%.6g cpuqps1=%.6g qpsN=%.6g threads=1 "
		   "threadsdiffer=0 brute=%lld brutediffer=%d bruteqps=%.6g brutecpuqps=%.6g brutex=%.6g brutekind=first-events "
		   "balls=%d casts=%lld pairtests=%lld simtime=%.6g castsperevent=%.4g uspercast=%.4g jams=%lld\n",
		   name, (long)meshInfo.triangleCount, count, events, perSecond((double)events, fastWall),
		   perSecond((double)events, fastCpu), perSecond((double)events, fastWall), checked, differ,
		   perSecond((double)bruteEventCount, bruteCpu), perSecond((double)bruteEventCount, bruteCpu),
		   prefixCpu > 0.0 ? bruteCpu / prefixCpu : 0.0, count, info.casts, info.pairTests, info.time,
		   events > 0 ? (double)info.casts / events : 0.0, info.casts > 0 ? 1e6 * fastCpu / info.casts : 0.0,
		   info.jams);
	fflush(stdout);
	free(fastEvents);
	free(bruteEvents);
	free(balls);
	bcMesh_Destroy(mesh);
	return status != 0 || differ != 0;
}

/* -------------------------------------------------------------- intersect */

static bool samePair(const bcIntersectPair* a, const bcIntersectPair* b)
{
	return a->a == b->a && a->b == b->b && a->state == b->state && sameVec(a->segment[0], b->segment[0]) &&
		   sameVec(a->segment[1], b->segment[1]);
}

/* A copy of mesh, every vertex moved by shift; with pick (count of them,
 * increasing) only those triangles, renumbered 0 .. count - 1. */
static bcMesh* copyMesh(const bcMesh* mesh, bcVec3 shift, const int32_t* pick, int32_t count)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	int32_t triangles = pick != NULL ? count : info.triangleCount;
	double* v = allocate(3 * (size_t)info.vertexCount, sizeof *v);
	int32_t* t = allocate(3 * (size_t)triangles, sizeof *t);
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 p = bcMesh_GetVertex(mesh, i);
		v[3 * (size_t)i] = p.x + shift.x;
		v[3 * (size_t)i + 1] = p.y + shift.y;
		v[3 * (size_t)i + 2] = p.z + shift.z;
	}
	for (int32_t i = 0; i < triangles; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, pick != NULL ? pick[i] : i);
		memcpy(t + 3 * (size_t)i, tri.vertices, sizeof tri.vertices);
	}
	bcMeshDef def = { v, info.vertexCount, t, triangles, NULL, 0 };
	bcError error = { 0 };
	bcMesh* copy = bcMesh_Create(&def, &error);
	if (copy == NULL) {
		fprintf(stderr, "seeds_bench: copy: %s\n", error.message);
	}
	free(v);
	free(t);
	return copy;
}

/* Up to budget triangles of A (increasing) for the brute-force check: half
 * of them spread evenly over A, half over the triangles A's answer pairs
 * (so that the check sees pairs, not only their absence). */
static int32_t pickTriangles(const bcIntersectList* list, int32_t triangleCount, int32_t budget, int32_t* pick)
{
	bool* chosen = allocate((size_t)triangleCount, sizeof *chosen);
	int32_t half = budget / 2 > 0 ? budget / 2 : 1;
	for (int32_t k = 0; k < half; ++k) {
		chosen[(int32_t)((int64_t)k * triangleCount / half)] = true;
	}
	/* the distinct triangles of A in the list, every step-th */
	size_t distinct = 0;
	for (size_t i = 0; i < list->count; ++i) {
		distinct += i == 0 || list->pairs[i].a != list->pairs[i - 1].a;
	}
	size_t step = distinct > (size_t)half ? (distinct + (size_t)half - 1) / (size_t)half : 1;
	size_t seen = 0;
	for (size_t i = 0; i < list->count; ++i) {
		if (i == 0 || list->pairs[i].a != list->pairs[i - 1].a) {
			chosen[list->pairs[i].a] = chosen[list->pairs[i].a] || seen % step == 0;
			seen += 1;
		}
	}
	int32_t count = 0;
	for (int32_t t = 0; t < triangleCount; ++t) {
		if (chosen[t]) {
			pick[count++] = t;
		}
	}
	free(chosen);
	return count;
}

static bcMesh* sphereMesh(int level, bcVec3 centre)
{
	bcGenMesh g = { 0 };
	bcGenIcosphere(&g, level, centre, 1.0, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	return mesh;
}

static bcIntersectList* timeIntersect(const bcMesh* a, const bcMesh* b, const bcIntersectOptions* options, int runs,
									  double* wallOut, double* cpuOut)
{
	double wall[BC_SEEDS_MAX_RUNS], cpu[BC_SEEDS_MAX_RUNS];
	bcIntersectList* list = NULL;
	for (int r = 0; r < runs; ++r) {
		bcIntersectList_Destroy(list);
		double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
		list = bcMesh_Intersect(a, b, options, NULL);
		cpu[r] = bcBenchThreadSeconds() - startCpu;
		wall[r] = bcBenchNow() - start;
	}
	*wallOut = bcBenchMedian(wall, runs);
	*cpuOut = bcBenchMedian(cpu, runs);
	return list;
}

/* Mesh a against b: the hierarchy at 1 thread and all threads, then brute
 * force on all pairs, or on some triangles of a (a mesh of their own)
 * against all of b, whose list must be the full list's pairs with those a. */
static int runIntersectPair(const bcSeedsConfig* cfg, const char* name, const char* set, const bcMesh* a,
							const bcMesh* b)
{
	bcIntersectOptions options = bcDefaultIntersectOptions();
	options.threadCount = 1;
	double wall1, cpu1, wallN, cpuN;
	bcIntersectList* one = timeIntersect(a, b, &options, cfg->runs, &wall1, &cpu1);
	options.threadCount = 0;
	bcIntersectList* all = timeIntersect(a, b, &options, cfg->runs, &wallN, &cpuN);
	if (one == NULL || all == NULL) {
		fputs("seeds_bench: intersect: out of memory\n", stderr);
		return 1;
	}
	int threadsDiffer = one->count != all->count;
	for (size_t i = 0; i < one->count && i < all->count; ++i) {
		threadsDiffer += !samePair(one->pairs + i, all->pairs + i);
	}

	bcMeshInfo ia = bcMesh_GetInfo(a), ib = bcMesh_GetInfo(b);
	double pairs = (double)ia.triangleCount * ib.triangleCount;
	bcMesh* sub = NULL;
	int32_t* pick = NULL;
	int32_t subset = ia.triangleCount;
	if (pairs > BC_SEEDS_PAIR_BUDGET) {
		int32_t budget = (int32_t)(BC_SEEDS_PAIR_BUDGET / ib.triangleCount);
		pick = allocate((size_t)(budget > 0 ? budget : 1) + 1, sizeof *pick);
		subset = pickTriangles(one, ia.triangleCount, budget, pick);
		sub = copyMesh(a, (bcVec3){ 0.0, 0.0, 0.0 }, pick, subset);
	}
	const bcMesh* from = sub != NULL ? sub : a;
	bcIntersectOptions bruteOptions = bcDefaultIntersectOptions();
	bruteOptions.bruteForce = true;
	bruteOptions.threadCount = 1;
	double bruteWall, bruteCpu, subWall, subCpu;
	bcIntersectList* brute = timeIntersect(from, b, &bruteOptions, 1, &bruteWall, &bruteCpu);
	options.threadCount = 1;
	bcIntersectList* fastSub = timeIntersect(from, b, &options, 1, &subWall, &subCpu);
	/* The full answer's pairs of the picked triangles, in the subset's numbering. */
	size_t expected = 0;
	int differ = brute == NULL;
	for (size_t i = 0, k = 0; brute != NULL && i < one->count; ++i) {
		int32_t at = one->pairs[i].a;
		if (pick != NULL) {
			while ((int32_t)k < subset && pick[k] < at) {
				++k;
			}
			if ((int32_t)k == subset || pick[k] != at) {
				continue;
			}
		}
		bcIntersectPair mapped = one->pairs[i];
		mapped.a = pick != NULL ? (int32_t)k : at;
		differ += expected >= brute->count || !samePair(&mapped, brute->pairs + expected);
		expected += 1;
	}
	differ += brute != NULL && brute->count != expected;
	size_t crossing = 0;
	for (size_t i = 0; i < one->count; ++i) {
		crossing += one->pairs[i].state == bc_triTriCrossing;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	printf("other query=intersect name=%s size=%ld set=%s count=%ld qps1=%.6g cpuqps1=%.6g qpsN=%.6g threads=%ld "
		   "threadsdiffer=%d brute=%ld brutediffer=%d bruteqps=%.6g brutecpuqps=%.6g brutex=%.6g brutekind=%s "
		   "sizeb=%ld pairs=%zu crossing=%zu candidates=%zu bruteexpected=%zu\n",
		   name, (long)ia.triangleCount, set, (long)ia.triangleCount, perSecond(ia.triangleCount, wall1),
		   perSecond(ia.triangleCount, cpu1), perSecond(ia.triangleCount, wallN), cores > 0 ? cores : 1,
		   threadsDiffer, (long)subset, differ, perSecond(subset, bruteCpu), perSecond(subset, bruteCpu),
		   subCpu > 0.0 ? bruteCpu / subCpu : 0.0, sub != NULL ? "picked-triangles" : "all-pairs",
		   (long)ib.triangleCount, one->count, crossing, one->candidateCount, expected);
	fflush(stdout);
	bcIntersectList_Destroy(one);
	bcIntersectList_Destroy(all);
	bcIntersectList_Destroy(brute);
	bcIntersectList_Destroy(fastSub);
	bcMesh_Destroy(sub);
	free(pick);
	return threadsDiffer != 0 || differ != 0;
}

static int runIntersectSpheres(const bcSeedsConfig* cfg, int level)
{
	bcMesh* a = sphereMesh(level, (bcVec3){ 0.0, 0.0, 0.0 });
	bcMesh* b = sphereMesh(level, (bcVec3){ BC_SEEDS_SPHERE_OFFSET_X, BC_SEEDS_SPHERE_OFFSET_Y,
											BC_SEEDS_SPHERE_OFFSET_Z });
	int status = 1;
	if (a != NULL && b != NULL) {
		char name[64];
		snprintf(name, sizeof name, "icosphere-L%d", level);
		status = runIntersectPair(cfg, name, "offset-copy", a, b);
	}
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
	return status;
}

static int runIntersectMoved(const bcSeedsConfig* cfg, const char* name, const char* path)
{
	bcMesh* a = loadMesh(path);
	if (a == NULL) {
		return 1;
	}
	bcMeshInfo info = bcMesh_GetInfo(a);
	double size = meshSize(&info);
	bcMesh* b = copyMesh(a, (bcVec3){ BC_SEEDS_MOVE_X * size, BC_SEEDS_MOVE_Y * size, BC_SEEDS_MOVE_Z * size }, NULL, 0);
	int status = b != NULL ? runIntersectPair(cfg, name, "moved-copy", a, b) : 1;
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
	return status;
}

/* ---------------------------- time stepping (the course slides) */

/* Throws for the discrete method against the exact cast: each ends
 * BC_SEEDS_THROW_DEPTH S behind a random point of a random triangle and
 * starts BC_SEEDS_THROW_LOW .. HIGH S in front of it, in a random
 * direction of the front half-space; radii as the closest sets' r > 0. */
#define BC_SEEDS_THROW_DEPTH 0.05
#define BC_SEEDS_THROW_LOW 0.1
#define BC_SEEDS_THROW_HIGH 0.5
#define BC_SEEDS_THROW_SEED 0x64697363726574ull

static void makeThrows(const bcMesh* mesh, uint64_t seed, bcCastInput* inputs, int count)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double size = meshSize(&info);
	bcRandom rng = { seed };
	for (int i = 0; i < count; ++i) {
		bcTriangle t;
		do {
			t = bcMesh_GetTriangle(mesh, (int32_t)(bcRandom_Next(&rng) % (uint64_t)info.triangleCount));
		} while (t.degenerate);
		bcVec3 a = bcMesh_GetVertex(mesh, t.vertices[0]);
		bcVec3 b = bcMesh_GetVertex(mesh, t.vertices[1]);
		bcVec3 c = bcMesh_GetVertex(mesh, t.vertices[2]);
		double u = bcRandom_Uniform(&rng, 0.0, 1.0), v = bcRandom_Uniform(&rng, 0.0, 1.0);
		if (u + v > 1.0) {
			u = 1.0 - u;
			v = 1.0 - v;
		}
		bcVec3 p = { a.x + u * (b.x - a.x) + v * (c.x - a.x), a.y + u * (b.y - a.y) + v * (c.y - a.y),
					 a.z + u * (b.z - a.z) + v * (c.z - a.z) };
		bcVec3 d = bcRandom_OnSphere(&rng);
		double side = d.x * t.normal.x + d.y * t.normal.y + d.z * t.normal.z;
		if (side < 0.0) {
			d.x -= 2.0 * side * t.normal.x;
			d.y -= 2.0 * side * t.normal.y;
			d.z -= 2.0 * side * t.normal.z;
		}
		double length = bcRandom_Uniform(&rng, BC_SEEDS_THROW_LOW * size, BC_SEEDS_THROW_HIGH * size);
		double depth = BC_SEEDS_THROW_DEPTH * size;
		inputs[i].p0 = (bcVec3){ p.x + length * d.x, p.y + length * d.y, p.z + length * d.z };
		inputs[i].p1 = (bcVec3){ p.x - depth * d.x, p.y - depth * d.y, p.z - depth * d.z };
		inputs[i].radius = bcRandom_Uniform(&rng, BC_SEEDS_RADIUS_LOW * size, BC_SEEDS_RADIUS_HIGH * size);
	}
}

static bool castHit(bcCastState state)
{
	return state == bc_castHit || state == bc_castInitialOverlap;
}

/* One row per step: the exact cast and the discrete method with N
 * bisections on the very same throws, one thread each (CPU time of the
 * thread, median of the runs): their rates, the hits of each, the throws
 * that tunnel (exact hit, discrete miss), and the alpha error discrete -
 * exact on the throws both hit: its mean and largest, how many are early
 * (below the exact alpha by more than BC_ALPHA_TIE_TOLERANCE) and how many
 * later than the bound dt / 2^N (a ball that touched and left between two
 * tests, then hit further on). */
static int runDiscrete(const bcSeedsConfig* cfg, const char* name, const char* path, int bisections, int stepCount,
					   char** steps)
{
	bcMesh* mesh = loadMesh(path);
	if (mesh == NULL) {
		return 1;
	}
	int count = cfg->count;
	bcCastInput* inputs = allocate((size_t)count, sizeof *inputs);
	bcCastOutput* exact = allocate((size_t)count, sizeof *exact);
	bcDiscreteOutput* discrete = allocate((size_t)count, sizeof *discrete);
	makeThrows(mesh, BC_SEEDS_THROW_SEED, inputs, count);
	bcCastOptions castOptions = bcDefaultCastOptions();
	double cpu[BC_SEEDS_MAX_RUNS];
	for (int r = 0; r < cfg->runs; ++r) {
		double start = bcBenchThreadSeconds();
		for (int i = 0; i < count; ++i) {
			exact[i] = bcMesh_Cast(mesh, inputs[i], &castOptions);
		}
		cpu[r] = bcBenchThreadSeconds() - start;
	}
	double exactQps = perSecond(count, bcBenchMedian(cpu, cfg->runs));
	int exactHits = 0;
	for (int i = 0; i < count; ++i) {
		exactHits += castHit(exact[i].state);
	}
	int status = 0;
	for (int s = 0; s < stepCount; ++s) {
		bcDiscreteOptions options = bcDefaultDiscreteOptions();
		options.step = atof(steps[s]);
		options.bisections = bisections;
		options.cast = castOptions;
		for (int r = 0; r < cfg->runs; ++r) {
			double start = bcBenchThreadSeconds();
			for (int i = 0; i < count; ++i) {
				discrete[i] = bcMesh_CastDiscrete(mesh, inputs[i], &options);
			}
			cpu[r] = bcBenchThreadSeconds() - start;
		}
		double discreteQps = perSecond(count, bcBenchMedian(cpu, cfg->runs));
		double bound = ldexp(options.step, -bisections);
		int hits = 0, tunnelled = 0, extra = 0, both = 0, early = 0, beyond = 0;
		double sum = 0.0, largest = 0.0;
		long long tests = 0;
		for (int i = 0; i < count; ++i) {
			bool e = castHit(exact[i].state), d = castHit(discrete[i].state);
			tests += discrete[i].testCount;
			hits += d;
			tunnelled += e && !d;
			extra += d && !e;
			if (e && d) {
				double error = discrete[i].alpha - exact[i].alpha;
				both += 1;
				sum += error;
				largest = fmax(largest, error);
				early += error < -BC_ALPHA_TIE_TOLERANCE;
				beyond += error > bound + BC_ALPHA_TIE_TOLERANCE;
			}
		}
		bcMeshInfo info = bcMesh_GetInfo(mesh);
		printf("discrete name=%s size=%ld count=%d dt=%s bisect=%d bound=%.6g exactqps=%.6g discreteqps=%.6g "
			   "tests=%.4g exacthits=%d hits=%d tunnelled=%d extra=%d both=%d meanerror=%.6g maxerror=%.6g "
			   "early=%d beyond=%d\n",
			   name, (long)info.triangleCount, count, steps[s], bisections, bound, exactQps, discreteQps,
			   (double)tests / count, exactHits, hits, tunnelled, extra, both, both > 0 ? sum / both : 0.0, largest,
			   early, beyond);
		fflush(stdout);
		/* the one guarantee: never before the first contact */
		status |= early != 0 || extra != 0;
	}
	free(inputs);
	free(exact);
	free(discrete);
	bcMesh_Destroy(mesh);
	return status;
}

/* ------------------------------------------------------------------- main */

static int usage(void)
{
	fputs("usage: seeds_bench [--runs N] [--brute N] [--count N] closest NAME MESH.obj\n"
		  "       seeds_bench [--runs N] [--brute N] balls COUNT [COUNT ...]\n"
		  "       seeds_bench [--runs N] [--brute N] simulate NAME MESH.obj BALLS [two-sided]\n"
		  "       seeds_bench [--runs N] [--brute N] intersect spheres LEVEL\n"
		  "       seeds_bench [--runs N] [--brute N] intersect moved NAME MESH.obj\n"
		  "       seeds_bench [--runs N] [--count N] discrete NAME MESH.obj BISECTIONS DT [DT ...]\n",
		  stderr);
	return 2;
}

int main(int argc, char** argv)
{
	bcSeedsConfig cfg = { BC_SEEDS_DEFAULT_RUNS, BC_SEEDS_DEFAULT_BRUTE, BC_SEEDS_DEFAULT_COUNT };
	int arg = 1;
	while (arg + 1 < argc && strncmp(argv[arg], "--", 2) == 0) {
		int value = atoi(argv[arg + 1]);
		if (strcmp(argv[arg], "--runs") == 0) {
			cfg.runs = value;
		} else if (strcmp(argv[arg], "--brute") == 0) {
			cfg.brute = value;
		} else if (strcmp(argv[arg], "--count") == 0) {
			cfg.count = value;
		} else {
			return usage();
		}
		arg += 2;
	}
	if (arg >= argc || cfg.runs < 1 || cfg.runs > BC_SEEDS_MAX_RUNS || cfg.brute < 0 || cfg.count < 1) {
		return usage();
	}
	const char* what = argv[arg];
	int left = argc - arg - 1;
	char** rest = argv + arg + 1;
	if (strcmp(what, "closest") == 0 && left == 2) {
		return runClosest(&cfg, rest[0], rest[1]);
	}
	if (strcmp(what, "balls") == 0 && left >= 1) {
		int status = 0;
		for (int i = 0; i < left; ++i) {
			int count = atoi(rest[i]);
			if (count < 2) {
				return usage();
			}
			status |= runBalls(&cfg, count);
		}
		return status;
	}
	if (strcmp(what, "simulate") == 0 && (left == 3 || left == 4)) {
		int count = atoi(rest[2]);
		bool twoSided = left == 4 && strcmp(rest[3], "two-sided") == 0;
		if (count < 1 || (left == 4 && !twoSided)) {
			return usage();
		}
		return runSimulate(&cfg, rest[0], rest[1], count, twoSided);
	}
	if (strcmp(what, "intersect") == 0 && left == 2 && strcmp(rest[0], "spheres") == 0) {
		int level = atoi(rest[1]);
		if (level < 0 || level > 9) {
			return usage();
		}
		return runIntersectSpheres(&cfg, level);
	}
	if (strcmp(what, "intersect") == 0 && left == 3 && strcmp(rest[0], "moved") == 0) {
		return runIntersectMoved(&cfg, rest[1], rest[2]);
	}
	if (strcmp(what, "discrete") == 0 && left >= 4) {
		int bisections = atoi(rest[2]);
		for (int i = 3; i < left; ++i) {
			double dt = atof(rest[i]);
			if (!(dt >= BC_DISCRETE_MIN_STEP && dt <= 1.0)) {
				return usage();
			}
		}
		if (bisections < 0 || bisections > BC_DISCRETE_MAX_BISECTIONS) {
			return usage();
		}
		return runDiscrete(&cfg, rest[0], rest[1], bisections, left - 3, rest + 3);
	}
	return usage();
}
