/* bullet_sweep.cpp - the Bullet baseline: sphere sweeps against a
 * btBvhTriangleMeshShape through btCollisionWorld::convexSweepTest with a
 * ClosestConvexResultCallback, one thread.
 *
 *   bullet_sweep NAME SET MESH.obj TRAJ ANSWERS SECONDS [RUNS]
 *
 * The mesh comes from MESH.obj through bcMesh_LoadObj (the very triangles
 * ballcast sees), converted to btScalar. Bullet is slow on long sweeps, so
 * the timed runs cast the first K trajectories, K chosen so that one run
 * takes about SECONDS (at least BC_BULLET_MIN_COUNT, at most all); the rate
 * is the median of RUNS runs (default 3). The answers are compared with
 * ballcast's two-sided answers in ANSWERS (Bullet's triangles have no front
 * side): agree = both miss, or both hit with alphas within
 * BC_BENCH_AGREE_TOLERANCE. Prints one "bullet ..." key=value line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <btBulletCollisionCommon.h>

#include "benchutil.h"

/* The fewest trajectories timed, however slow Bullet is on them. */
#define BC_BULLET_MIN_COUNT 100

/* Trajectories timed once to estimate Bullet's rate before the real runs. */
#define BC_BULLET_PROBE_COUNT 100

/* Timed repetitions by default, and the most the median takes. */
#define BC_BULLET_DEFAULT_RUNS 3
#define BC_BULLET_MAX_RUNS 15

typedef struct bcBulletWorld {
	btDefaultCollisionConfiguration* configuration;
	btCollisionDispatcher* dispatcher;
	btDbvtBroadphase* broadphase;
	btCollisionWorld* world;
	btTriangleIndexVertexArray* arrays;
	btBvhTriangleMeshShape* shape;
	btCollisionObject* object;
	btScalar* vertices;
	int* triangles;
} bcBulletWorld;

static bool buildWorld(const bcBenchArrays* mesh, bcBulletWorld* w)
{
	size_t nv = (size_t)mesh->vertexCount, nt = (size_t)mesh->triangleCount;
	w->vertices = (btScalar*)malloc(3 * (nv > 0 ? nv : 1) * sizeof(btScalar));
	w->triangles = (int*)malloc(3 * nt * sizeof(int));
	if (w->vertices == NULL || w->triangles == NULL) {
		return false;
	}
	for (size_t i = 0; i < 3 * nv; ++i) {
		w->vertices[i] = (btScalar)mesh->vertices[i];
	}
	for (size_t i = 0; i < 3 * nt; ++i) {
		w->triangles[i] = mesh->triangles[i];
	}
	w->arrays = new btTriangleIndexVertexArray(mesh->triangleCount, w->triangles, 3 * (int)sizeof(int),
											   mesh->vertexCount, w->vertices, 3 * (int)sizeof(btScalar));
	w->shape = new btBvhTriangleMeshShape(w->arrays, true, true);
	w->configuration = new btDefaultCollisionConfiguration();
	w->dispatcher = new btCollisionDispatcher(w->configuration);
	w->broadphase = new btDbvtBroadphase();
	w->world = new btCollisionWorld(w->dispatcher, w->broadphase, w->configuration);
	w->object = new btCollisionObject();
	w->object->setCollisionShape(w->shape);
	w->world->addCollisionObject(w->object);
	w->world->updateAabbs();
	return true;
}

static void destroyWorld(bcBulletWorld* w)
{
	if (w->world != NULL) {
		w->world->removeCollisionObject(w->object);
	}
	delete w->object;
	delete w->world;
	delete w->broadphase;
	delete w->dispatcher;
	delete w->configuration;
	delete w->shape;
	delete w->arrays;
	free(w->vertices);
	free(w->triangles);
}

/* Bullet's answer to one trajectory: the hit fraction, or -1 on a miss. */
static double sweep(const bcBulletWorld* w, const bcCastInput* in)
{
	btVector3 p0((btScalar)in->p0.x, (btScalar)in->p0.y, (btScalar)in->p0.z);
	btVector3 p1((btScalar)in->p1.x, (btScalar)in->p1.y, (btScalar)in->p1.z);
	btSphereShape sphere((btScalar)in->radius);
	btTransform from(btQuaternion::getIdentity(), p0), to(btQuaternion::getIdentity(), p1);
	btCollisionWorld::ClosestConvexResultCallback callback(p0, p1);
	w->world->convexSweepTest(&sphere, from, to, callback);
	return callback.hasHit() ? (double)callback.m_closestHitFraction : -1.0;
}

/* Sweep inputs[0 .. count); returns wall seconds, *cpu the thread's CPU seconds. */
static double timeSweeps(const bcBulletWorld* w, const bcCastInput* inputs, size_t count, double* alphas, double* cpu)
{
	double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
	for (size_t i = 0; i < count; ++i) {
		alphas[i] = sweep(w, inputs + i);
	}
	*cpu = bcBenchThreadSeconds() - startCpu;
	return bcBenchNow() - start;
}

int main(int argc, char** argv)
{
	if (argc < 7 || argc > 8) {
		fputs("usage: bullet_sweep NAME SET MESH.obj TRAJ ANSWERS SECONDS [RUNS]\n", stderr);
		return 2;
	}
	const char* name = argv[1];
	const char* set = argv[2];
	double budget = atof(argv[6]);
	int runs = argc == 8 ? atoi(argv[7]) : BC_BULLET_DEFAULT_RUNS;
	if (runs < 1 || runs > BC_BULLET_MAX_RUNS) {
		runs = BC_BULLET_DEFAULT_RUNS;
	}
	bcBenchArrays mesh;
	if (bcBenchLoadArrays(argv[3], &mesh) != 0) {
		return 1;
	}
	size_t count = 0, answerCount = 0;
	bcCastInput* inputs = bcBenchReadTrajectories(argv[4], &count);
	bcBenchAnswer* answers = bcBenchReadAnswers(argv[5], &answerCount);
	if (inputs == NULL || answers == NULL || answerCount != count || count == 0) {
		fprintf(stderr, "bullet_sweep: %s: no trajectories or answers that do not match them\n", argv[4]);
		return 1;
	}
	bcBulletWorld world;
	memset(&world, 0, sizeof world);
	double buildStart = bcBenchNow();
	if (!buildWorld(&mesh, &world)) {
		fputs("bullet_sweep: out of memory\n", stderr);
		return 1;
	}
	double buildSeconds = bcBenchNow() - buildStart;
	double* alphas = (double*)malloc(count * sizeof *alphas);
	if (alphas == NULL) {
		fputs("bullet_sweep: out of memory\n", stderr);
		return 1;
	}

	size_t probe = count < BC_BULLET_PROBE_COUNT ? count : BC_BULLET_PROBE_COUNT;
	double probeCpu = 0.0;
	double probeSeconds = timeSweeps(&world, inputs, probe, alphas, &probeCpu);
	double perSweep = probeSeconds / (double)probe;
	size_t timed = perSweep > 0.0 ? (size_t)(budget / perSweep) : count;
	timed = timed < BC_BULLET_MIN_COUNT ? BC_BULLET_MIN_COUNT : timed;
	timed = timed > count ? count : timed;

	double seconds[BC_BULLET_MAX_RUNS], cpu[BC_BULLET_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		seconds[r] = timeSweeps(&world, inputs, timed, alphas, cpu + r);
	}
	double median = bcBenchMedian(seconds, runs);
	double medianCpu = bcBenchMedian(cpu, runs);

	size_t agree = 0, bothHit = 0, bulletOnly = 0, ballcastOnly = 0, farApart = 0;
	for (size_t i = 0; i < timed; ++i) {
		bool bulletHit = alphas[i] >= 0.0;
		bool ballcastHit = answers[i].hit != 0;
		if (bulletHit && ballcastHit) {
			bothHit += 1;
			double gap = alphas[i] - answers[i].alpha;
			if (gap <= BC_BENCH_AGREE_TOLERANCE && gap >= -BC_BENCH_AGREE_TOLERANCE) {
				agree += 1;
			} else {
				farApart += 1;
			}
		} else if (bulletHit) {
			bulletOnly += 1;
		} else if (ballcastHit) {
			ballcastOnly += 1;
		} else {
			agree += 1;
		}
	}
	printf("bullet name=%s set=%s count=%zu qps=%.6g cpuqps=%.6g build=%.4f agree=%.4f bothhit=%zu apart=%zu "
		   "bulletonly=%zu ballcastonly=%zu peakmb=%.1f\n",
		   name, set, timed, (double)timed / median, (double)timed / medianCpu, buildSeconds,
		   (double)agree / (double)timed, bothHit, farApart, bulletOnly, ballcastOnly, bcBenchPeakMiB());
	destroyWorld(&world);
	free(alphas);
	free(inputs);
	free(answers);
	bcBenchFreeArrays(&mesh);
	return 0;
}
