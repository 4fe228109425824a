/* query_bench.c - the query alone, one thread, on the shared workloads
 * (../shared/peers/gen.py's BASE.txt: p0, p1 and r, seven numbers a line),
 * the figure set beside native Jolt by tests/bench/jolt_ratio.sh.
 *
 *   query_bench MESH.obj TRAJ.txt [--reps N] [--limit N] [--two-sided]
 *               [--out FILE] [--ties] [--brute N] [--threads N]
 *               [--save-traj FILE] [--save-answers FILE]
 *
 * Loads the mesh with bcMesh_LoadObj, reads the trajectories, then casts
 * them all with bcMesh_CastBatch (space order, as `ballcast cast` does) on
 * one thread (--threads: more), N times (default 3). Prints one JSON line
 * on standard error: the median wall seconds of the query loop and the
 * median CPU seconds of the querying thread, and the rates from them
 * (`qps` is from the wall clock, as Jolt's harness reports it).
 * --out writes every field of every answer, doubles as C99 hexadecimal
 * (bit for bit), one line per trajectory; with --ties, each cast's tied
 * contacts too (bcMesh_CastTies). --brute N casts the first N again by
 * brute force and exits 1 if any answer differs in any bit. --save-traj
 * and --save-answers write the trajectories and the answers in the binary
 * forms of benchutil.h, for the Embree harness (tests/bench/embree_rays.c).
 * Build: make bench-tools (tests/bench/bench.mk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"

/* The most timed repetitions (bcBenchMedian sorts at most 16 values). */
#define BC_QUERY_MAX_REPS 15

/* Tied contacts listed per cast with --ties before the rest are counted. */
#define BC_QUERY_TIE_CAPACITY 256

typedef struct bcQueryConfig {
	const char* meshPath;
	const char* trajPath;
	const char* outPath;
	const char* trajOut;
	const char* answersOut;
	int reps;
	long limit;
	bool twoSided;
	bool ties;
	int brute;
	int threads;
} bcQueryConfig;

/* Every number of the file, seven to a trajectory; NULL on a bad file. */
static bcCastInput* readText(const char* path, size_t* count)
{
	FILE* file = fopen(path, "r");
	if (file == NULL) {
		fprintf(stderr, "query_bench: cannot open %s\n", path);
		return NULL;
	}
	size_t capacity = 1024, n = 0;
	bcCastInput* inputs = malloc(capacity * sizeof *inputs);
	double v[7];
	while (inputs != NULL) {
		int got = fscanf(file, "%lf %lf %lf %lf %lf %lf %lf", v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6);
		if (got == EOF) {
			break;
		}
		if (got != 7) {
			fprintf(stderr, "query_bench: %s: trajectory %zu is not seven numbers\n", path, n + 1);
			free(inputs);
			inputs = NULL;
			break;
		}
		if (n == capacity) {
			capacity *= 2;
			bcCastInput* grown = realloc(inputs, capacity * sizeof *inputs);
			if (grown == NULL) {
				free(inputs);
				inputs = NULL;
				break;
			}
			inputs = grown;
		}
		bcCastInput in = { bcMakeVec3(v[0], v[1], v[2]), bcMakeVec3(v[3], v[4], v[5]), v[6] };
		inputs[n++] = in;
	}
	fclose(file);
	*count = n;
	return inputs;
}

static void printVec(FILE* f, bcVec3 v)
{
	fprintf(f, " %a %a %a", v.x, v.y, v.z);
}

static void printOutput(FILE* f, const bcCastOutput* o)
{
	fprintf(f, "%d %a %d %d %d %d %d %d %d", (int)o->state, o->alpha, o->triangle, o->face, (int)o->feature,
			o->vertexCount, o->vertices[0], o->vertices[1], o->vertices[2]);
	printVec(f, o->point);
	printVec(f, o->center);
	printVec(f, o->normal);
	printVec(f, o->triangleNormal);
	fprintf(f, " %d", o->tieCount);
}

static bool sameOutput(const bcCastOutput* a, const bcCastOutput* b)
{
	char x[512], y[512];
	FILE* fa = fmemopen(x, sizeof x, "w");
	FILE* fb = fmemopen(y, sizeof y, "w");
	if (fa == NULL || fb == NULL) {
		return false;
	}
	printOutput(fa, a);
	printOutput(fb, b);
	fclose(fa);
	fclose(fb);
	return strcmp(x, y) == 0;
}

static int writeAnswers(const bcQueryConfig* cfg, const bcMesh* mesh, const bcCastInput* inputs,
						const bcCastOutput* outputs, size_t count, const bcCastOptions* options)
{
	FILE* f = fopen(cfg->outPath, "w");
	if (f == NULL) {
		fprintf(stderr, "query_bench: cannot write %s\n", cfg->outPath);
		return 1;
	}
	static bcContact ties[BC_QUERY_TIE_CAPACITY];
	for (size_t i = 0; i < count; ++i) {
		printOutput(f, outputs + i);
		if (cfg->ties) {
			bcCastOutput again;
			int n = bcMesh_CastTies(mesh, inputs[i], options, &again, ties, BC_QUERY_TIE_CAPACITY);
			fprintf(f, " ties %d", n);
			for (int k = 0; k < n && k < BC_QUERY_TIE_CAPACITY; ++k) {
				const bcContact* c = ties + k;
				fprintf(f, " [%d %d %d %d %d %a", c->triangle, (int)c->feature, c->vertices[0], c->vertices[1],
						c->vertices[2], c->alpha);
				printVec(f, c->normal);
				fputc(']', f);
			}
			if (!sameOutput(&again, outputs + i)) {
				fprintf(f, " CASTTIES-DIFFERS");
			}
		}
		fputc('\n', f);
	}
	return fclose(f) == 0 ? 0 : 1;
}

static int usage(void)
{
	fputs("usage: query_bench MESH.obj TRAJ.txt [--reps N] [--limit N] [--two-sided] [--out FILE] [--ties] "
		  "[--brute N] [--threads N] [--save-traj FILE] [--save-answers FILE]\n",
		  stderr);
	return 2;
}

int main(int argc, char** argv)
{
	bcQueryConfig cfg = { NULL, NULL, NULL, NULL, NULL, 3, 0, false, false, 0, 1 };
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		bool more = i + 1 < argc;
		if (strcmp(a, "--reps") == 0 && more) {
			cfg.reps = atoi(argv[++i]);
		} else if (strcmp(a, "--limit") == 0 && more) {
			cfg.limit = atol(argv[++i]);
		} else if (strcmp(a, "--out") == 0 && more) {
			cfg.outPath = argv[++i];
		} else if (strcmp(a, "--brute") == 0 && more) {
			cfg.brute = atoi(argv[++i]);
		} else if (strcmp(a, "--save-traj") == 0 && more) {
			cfg.trajOut = argv[++i];
		} else if (strcmp(a, "--save-answers") == 0 && more) {
			cfg.answersOut = argv[++i];
		} else if (strcmp(a, "--threads") == 0 && more) {
			cfg.threads = atoi(argv[++i]);
		} else if (strcmp(a, "--two-sided") == 0) {
			cfg.twoSided = true;
		} else if (strcmp(a, "--ties") == 0) {
			cfg.ties = true;
		} else if (a[0] == '-' && a[1] == '-') {
			return usage();
		} else if (cfg.meshPath == NULL) {
			cfg.meshPath = a;
		} else if (cfg.trajPath == NULL) {
			cfg.trajPath = a;
		} else {
			return usage();
		}
	}
	if (cfg.meshPath == NULL || cfg.trajPath == NULL || cfg.reps < 1 || cfg.reps > BC_QUERY_MAX_REPS) {
		return usage();
	}
	double loadStart = bcBenchNow();
	bcError error;
	bcMesh* mesh = bcMesh_LoadObj(cfg.meshPath, NULL, &error);
	if (mesh == NULL) {
		fprintf(stderr, "query_bench: %s: %s\n", cfg.meshPath, error.message);
		return 1;
	}
	double loadSeconds = bcBenchNow() - loadStart;
	size_t count = 0;
	bcCastInput* inputs = readText(cfg.trajPath, &count);
	if (inputs == NULL) {
		bcMesh_Destroy(mesh);
		return 1;
	}
	if (cfg.limit > 0 && (size_t)cfg.limit < count) {
		count = (size_t)cfg.limit;
	}
	bcCastOutput* outputs = malloc((count > 0 ? count : 1) * sizeof *outputs);
	if (outputs == NULL) {
		fprintf(stderr, "query_bench: out of memory\n");
		return 1;
	}
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = cfg.twoSided;
	double wall[BC_QUERY_MAX_REPS], cpu[BC_QUERY_MAX_REPS];
	for (int rep = 0; rep < cfg.reps; ++rep) {
		double w0 = bcBenchNow(), c0 = bcBenchThreadSeconds();
		bcMesh_CastBatch(mesh, inputs, outputs, (int)count, &options, cfg.threads);
		cpu[rep] = bcBenchThreadSeconds() - c0;
		wall[rep] = bcBenchNow() - w0;
	}
	size_t hits = 0;
	for (size_t i = 0; i < count; ++i) {
		hits += outputs[i].state == bc_castHit || outputs[i].state == bc_castInitialOverlap;
	}
	double wallMedian = bcBenchMedian(wall, cfg.reps);
	double cpuMedian = bcBenchMedian(cpu, cfg.reps);
	int status = 0;
	int differ = 0;
	if (cfg.brute > 0) {
		bcCastOptions brute = options;
		brute.bruteForce = true;
		for (size_t i = 0; i < count && i < (size_t)cfg.brute; ++i) {
			bcCastOutput b = bcMesh_Cast(mesh, inputs[i], &brute);
			if (!sameOutput(&b, outputs + i)) {
				differ += 1;
				if (differ <= 5) {
					fprintf(stderr, "query_bench: trajectory %zu differs from brute force\n", i);
				}
			}
		}
		status = differ > 0;
	}
	if (cfg.outPath != NULL) {
		status |= writeAnswers(&cfg, mesh, inputs, outputs, count, &options);
	}
	if (cfg.trajOut != NULL) {
		status |= bcBenchWriteTrajectories(cfg.trajOut, inputs, count) != 0;
	}
	if (cfg.answersOut != NULL) {
		bcBenchAnswer* answers = malloc((count > 0 ? count : 1) * sizeof *answers);
		for (size_t i = 0; answers != NULL && i < count; ++i) {
			bool hit = outputs[i].state == bc_castHit || outputs[i].state == bc_castInitialOverlap;
			answers[i].alpha = hit ? outputs[i].alpha : 1.0;
			answers[i].triangle = hit ? outputs[i].triangle : -1;
			answers[i].hit = hit;
		}
		status |= answers == NULL || bcBenchWriteAnswers(cfg.answersOut, answers, count) != 0;
		free(answers);
	}
	fprintf(stderr,
			"{\"tool\":\"ballcast\",\"mesh\":\"%s\",\"traj\":\"%s\",\"load_s\":%.4f,\"queries\":%zu,\"reps\":%d,"
			"\"query_s\":%.4f,\"cpu_s\":%.4f,\"qps\":%.1f,\"cpu_qps\":%.1f,\"hits\":%zu,\"brute_differ\":%d,"
			"\"peak_mib\":%.1f}\n",
			cfg.meshPath, cfg.trajPath, loadSeconds, count, cfg.reps, wallMedian, cpuMedian,
			(double)count / wallMedian, (double)count / cpuMedian, hits, differ, bcBenchPeakMiB());
	free(outputs);
	free(inputs);
	bcMesh_Destroy(mesh);
	return status;
}
