/* cast_bench.c - ballcast's side of the benchmark, for one mesh.
 *
 *   cast_bench [--runs N] [--brute N] NAME MESH.obj DIR [SET ...]
 *
 * Loads MESH.obj with bcMesh_LoadObj (read + build, timed in wall and
 * process CPU seconds), times the hierarchy build alone at 1 thread and at
 * all threads, then for each SET
 * reads DIR/NAME.SET.traj and times bcMesh_CastBatch at 1 thread, at all
 * threads, and two-sided at 1 thread (the peers' semantics). Every time is
 * the median of N runs (default 3). The gain of all threads is also
 * estimated from the CPU times of the slices bcMesh_CastBatch hands each
 * thread, a figure other processes on the machine do not distort. The first
 * --brute trajectories (default 200) are cast again by brute force; those
 * answers, and the all-threads answers, must equal the 1-thread answers bit
 * for bit. The two-sided answers go to DIR/NAME.SET.ans for the peers. The
 * mean number of triangles a query tests is counted through the hierarchy
 * (bvh.h, private) with a callback that mimics lib/cast.c.
 *
 * Prints one "mesh ..." line, then one "cast ..." line per set, as
 * key=value fields (tests/bench/run.sh reads them). Exit status 1 if any
 * answer differed. Build: make bench (tests/bench/bench.mk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchutil.h"
#include "bvh.h"
#include "mesh.h"

/* Timed repetitions (median) unless --runs says otherwise. */
#define BC_BENCH_DEFAULT_RUNS 3

/* The most repetitions: bcBenchMedian sorts at most 16 values. */
#define BC_BENCH_MAX_RUNS 15

/* Trajectories checked against brute force unless --brute says otherwise. */
#define BC_BENCH_DEFAULT_BRUTE 200

/* Longest path this program builds. */
#define BC_BENCH_PATH_SIZE 4096

static const double bytesPerMiB = 1048576.0;

typedef struct bcBenchConfig {
	int runs;
	int brute;
	const char* name;
	const char* meshPath;
	const char* dir;
} bcBenchConfig;

/* Every field of an answer, doubles compared by their bits. */
static bool sameOutput(const bcCastOutput* a, const bcCastOutput* b)
{
	const bcVec3* va[4] = { &a->point, &a->center, &a->normal, &a->triangleNormal };
	const bcVec3* vb[4] = { &b->point, &b->center, &b->normal, &b->triangleNormal };
	if (a->state != b->state || memcmp(&a->alpha, &b->alpha, sizeof a->alpha) != 0 || a->triangle != b->triangle ||
		a->face != b->face || a->feature != b->feature || a->vertexCount != b->vertexCount ||
		memcmp(a->vertices, b->vertices, sizeof a->vertices) != 0 || a->tieCount != b->tieCount) {
		return false;
	}
	for (int k = 0; k < 4; ++k) {
		if (memcmp(&va[k]->x, &vb[k]->x, sizeof(double)) != 0 || memcmp(&va[k]->y, &vb[k]->y, sizeof(double)) != 0 ||
			memcmp(&va[k]->z, &vb[k]->z, sizeof(double)) != 0) {
			return false;
		}
	}
	return true;
}

static int countDifferent(const bcCastOutput* a, const bcCastOutput* b, int count)
{
	int different = 0;
	for (int i = 0; i < count; ++i) {
		different += !sameOutput(a + i, b + i);
	}
	return different;
}

/* Median wall and calling-thread CPU seconds of a batch. */
typedef struct bcBenchTiming {
	double wall;
	double cpu;
} bcBenchTiming;

static bcBenchTiming timeBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs, int count,
							   const bcCastOptions* options, int threads, int runs)
{
	double wall[BC_BENCH_MAX_RUNS], cpu[BC_BENCH_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
		bcMesh_CastBatch(mesh, inputs, outputs, count, options, threads);
		cpu[r] = bcBenchThreadSeconds() - startCpu;
		wall[r] = bcBenchNow() - start;
	}
	bcBenchTiming timing = { bcBenchMedian(wall, runs), bcBenchMedian(cpu, runs) };
	return timing;
}

/* Median wall and process CPU seconds of building the hierarchy. */
static bcBenchTiming timeBuild(const bcMesh* mesh, int threads, int runs, bcBvhInfo* info)
{
	double wall[BC_BENCH_MAX_RUNS], cpu[BC_BENCH_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double start = bcBenchNow(), startCpu = bcBenchProcessSeconds();
		bcBvh* bvh = bcBvh_CreateWithThreads(mesh, threads);
		cpu[r] = bcBenchProcessSeconds() - startCpu;
		wall[r] = bcBenchNow() - start;
		if (bvh != NULL) {
			*info = bcBvh_GetInfo(bvh);
		}
		bcBvh_Destroy(bvh);
	}
	bcBenchTiming timing = { bcBenchMedian(wall, runs), bcBenchMedian(cpu, runs) };
	return timing;
}

/* Counting how many triangles a query tests: the hierarchy's traversal with
 * a callback that casts against the triangle and lowers the bound to its
 * contact, as lib/cast.c does (without the tie window). */
typedef struct bcVisitCounter {
	const bcMesh* mesh;
	bcCastInput input;
	const bcCastOptions* options;
	long visits;
} bcVisitCounter;

static void countVisit(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcVisitCounter* counter = context;
	const int32_t* v = counter->mesh->triangles + 3 * (size_t)triangle->index;
	const bcVec3* p = counter->mesh->vertices;
	bcCastOutput out = bcCastTriangle(p[v[0]], p[v[1]], p[v[2]], counter->input, counter->options);
	counter->visits += 1;
	if (out.state != bc_castMiss && out.alpha < *maxAlpha) {
		*maxAlpha = out.alpha;
	}
}

/* Mean triangles tested per query with options: those the cast's walk
 * hands to the triangle test (bcBvh_QuerySweepOrdered, whose bounds leaves out
 * triangles a ball surely stays clear of). */
static double meanVisits(const bcMesh* mesh, const bcCastInput* inputs, int count, const bcCastOptions* options)
{
	bcVisitCounter counter = { mesh, { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, 0.0 }, options, 0 };
	for (int i = 0; i < count && mesh->bvh != NULL; ++i) {
		bcCastInput in = inputs[i];
		bcVec3 d = { in.p1.x - in.p0.x, in.p1.y - in.p0.y, in.p1.z - in.p0.z };
		double maxAlpha = 1.0;
		counter.input = in;
		bcBvh_QuerySweepOrdered(mesh->bvh, in.p0, d, in.radius, options->twoSided, &maxAlpha, countVisit,
							&counter);
	}
	return count > 0 ? (double)counter.visits / count : 0.0;
}

static int runSet(const bcBenchConfig* cfg, const bcMesh* mesh, const char* set)
{
	char path[BC_BENCH_PATH_SIZE];
	snprintf(path, sizeof path, "%s/%s.%s.traj", cfg->dir, cfg->name, set);
	size_t n = 0;
	bcCastInput* inputs = bcBenchReadTrajectories(path, &n);
	if (inputs == NULL) {
		return 1;
	}
	int count = (int)n;
	bcCastOutput* one = malloc((n > 0 ? n : 1) * sizeof *one);
	bcCastOutput* all = malloc((n > 0 ? n : 1) * sizeof *all);
	bcCastOutput* twoSided = malloc((n > 0 ? n : 1) * sizeof *twoSided);
	bcBenchAnswer* answers = malloc((n > 0 ? n : 1) * sizeof *answers);
	if (one == NULL || all == NULL || twoSided == NULL || answers == NULL) {
		fputs("cast_bench: out of memory\n", stderr);
		free(inputs);
		free(one);
		free(all);
		free(twoSided);
		free(answers);
		return 1;
	}
	bcCastOptions options = bcDefaultCastOptions();
	bcCastOptions twoSidedOptions = options;
	twoSidedOptions.twoSided = true;
	bcCastOptions bruteOptions = options;
	bruteOptions.bruteForce = true;

	bcBenchTiming one1 = timeBatch(mesh, inputs, one, count, &options, 1, cfg->runs);
	bcBenchTiming oneAll = timeBatch(mesh, inputs, all, count, &options, 0, cfg->runs);
	bcBenchTiming two1 = timeBatch(mesh, inputs, twoSided, count, &twoSidedOptions, 1, cfg->runs);
	int threadsDiffer = countDifferent(one, all, count);

	/* What 2 (or nproc) threads would gain on an idle machine: bcMesh_CastBatch
	 * gives thread i the slice [count i / T, count (i + 1) / T); time each
	 * slice alone in CPU seconds and divide the whole by the slowest. */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int slices = cores > 1 ? (int)cores : 1;
	double slowest = 0.0;
	for (int t = 0; t < slices; ++t) {
		int begin = (int)((long long)count * t / slices);
		int end = (int)((long long)count * (t + 1) / slices);
		bcBenchTiming slice = timeBatch(mesh, inputs + begin, all + begin, end - begin, &options, 1, cfg->runs);
		slowest = slice.cpu > slowest ? slice.cpu : slowest;
	}

	int bruteCount = cfg->brute < count ? cfg->brute : count;
	double bruteStart = bcBenchNow();
	bcMesh_CastBatch(mesh, inputs, all, bruteCount, &bruteOptions, 1);
	double bruteSeconds = bcBenchNow() - bruteStart;
	int bruteDiffer = countDifferent(one, all, bruteCount);
	/* The same subset through the hierarchy, timed on its own, for the ratio. */
	double bvhStart = bcBenchNow();
	bcMesh_CastBatch(mesh, inputs, all, bruteCount, &options, 1);
	double bvhSeconds = bcBenchNow() - bvhStart;

	double visits = meanVisits(mesh, inputs, count, &options);

	int hits = 0, overlaps = 0, hits2s = 0;
	for (int i = 0; i < count; ++i) {
		hits += one[i].state == bc_castHit || one[i].state == bc_castInitialOverlap;
		overlaps += one[i].state == bc_castInitialOverlap;
		bool hit = twoSided[i].state == bc_castHit || twoSided[i].state == bc_castInitialOverlap;
		hits2s += hit;
		answers[i].alpha = twoSided[i].alpha;
		answers[i].triangle = twoSided[i].triangle;
		answers[i].hit = hit;
	}
	snprintf(path, sizeof path, "%s/%s.%s.ans", cfg->dir, cfg->name, set);
	int status = bcBenchWriteAnswers(path, answers, n) == 0 ? 0 : 1;

	printf("cast name=%s set=%s count=%d qps1=%.6g qpsN=%.6g qps2s=%.6g cpuqps1=%.6g cpuqps2s=%.6g threads=%d "
		   "cpuscaling=%.4g visits=%.4g hits=%.4f overlaps=%.4f hits2s=%.4f threadsdiffer=%d brute=%d brutediffer=%d brutex=%.6g\n",
		   cfg->name, set, count, count / one1.wall, count / oneAll.wall, count / two1.wall, count / one1.cpu,
		   count / two1.cpu, slices, slowest > 0.0 ? one1.cpu / slowest : 0.0, visits, (double)hits / count, (double)overlaps / count, (double)hits2s / count, threadsDiffer,
		   bruteCount, bruteDiffer, bruteCount > 0 && bvhSeconds > 0.0 ? bruteSeconds / bvhSeconds : 0.0);
	fflush(stdout);
	free(inputs);
	free(one);
	free(all);
	free(twoSided);
	free(answers);
	return status != 0 || threadsDiffer != 0 || bruteDiffer != 0;
}

static int usage(void)
{
	fputs("usage: cast_bench [--runs N] [--brute N] NAME MESH.obj DIR [SET ...]\n", stderr);
	return 2;
}

int main(int argc, char** argv)
{
	bcBenchConfig cfg = { BC_BENCH_DEFAULT_RUNS, BC_BENCH_DEFAULT_BRUTE, NULL, NULL, NULL };
	int arg = 1;
	while (arg + 1 < argc && strncmp(argv[arg], "--", 2) == 0) {
		if (strcmp(argv[arg], "--runs") == 0) {
			cfg.runs = atoi(argv[arg + 1]);
		} else if (strcmp(argv[arg], "--brute") == 0) {
			cfg.brute = atoi(argv[arg + 1]);
		} else {
			return usage();
		}
		arg += 2;
	}
	if (argc - arg < 3 || cfg.runs < 1 || cfg.runs > BC_BENCH_MAX_RUNS || cfg.brute < 0) {
		return usage();
	}
	cfg.name = argv[arg];
	cfg.meshPath = argv[arg + 1];
	cfg.dir = argv[arg + 2];

	/* Read + build as a user gets it; the last load is kept. */
	double loadSeconds[BC_BENCH_MAX_RUNS], loadCpu[BC_BENCH_MAX_RUNS];
	bcMesh* mesh = NULL;
	for (int r = 0; r < cfg.runs; ++r) {
		bcMesh_Destroy(mesh);
		bcError error = { 0 };
		double start = bcBenchNow(), startCpu = bcBenchProcessSeconds();
		mesh = bcMesh_LoadObj(cfg.meshPath, NULL, &error);
		loadCpu[r] = bcBenchProcessSeconds() - startCpu;
		loadSeconds[r] = bcBenchNow() - start;
		if (mesh == NULL) {
			fprintf(stderr, "cast_bench: %s:%ld:%ld: %s\n", cfg.meshPath, error.line, error.column, error.message);
			return 1;
		}
	}
	double peakAfterLoad = bcBenchPeakMiB();
	double load = bcBenchMedian(loadSeconds, cfg.runs);
	double loadCpuMedian = bcBenchMedian(loadCpu, cfg.runs);
	bcBvhInfo tree = { 0 };
	bcBenchTiming build1 = timeBuild(mesh, 1, cfg.runs, &tree);
	bcBenchTiming buildAll = timeBuild(mesh, 0, cfg.runs, &tree);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	struct stat st;
	double objMiB = stat(cfg.meshPath, &st) == 0 ? (double)st.st_size / bytesPerMiB : 0.0;
	printf("mesh name=%s tris=%ld verts=%ld degenerate=%ld objmb=%.1f load=%.4f loadcpu=%.4f build1=%.4f "
		   "build1cpu=%.4f buildN=%.4f buildNcpu=%.4f peakmb=%.1f nodes=%ld depth=%ld\n",
		   cfg.name, (long)info.triangleCount, (long)info.vertexCount, (long)info.degenerateCount, objMiB, load,
		   loadCpuMedian, build1.wall, build1.cpu, buildAll.wall, buildAll.cpu, peakAfterLoad, (long)tree.nodeCount,
		   (long)tree.maxDepth);
	fflush(stdout);

	int status = 0;
	for (int i = arg + 3; i < argc; ++i) {
		status |= runSet(&cfg, mesh, argv[i]);
	}
	bcMesh_Destroy(mesh);
	return status;
}
