/* embree_rays.c - the Embree baseline for r = 0: rtcIntersect1 on each
 * segment p0 -> p1 as a ray from p0 along p1 - p0 with tnear 0, tfar 1
 * (so tfar is ballcast's alpha), one thread.
 *
 *   embree_rays NAME SET MESH.obj TRAJ ANSWERS [RUNS]
 *
 * The mesh comes from MESH.obj through bcMesh_LoadObj, converted to float
 * (Embree's precision). The scene is built with Embree's defaults (its own
 * threads); the rays are traced on this thread only. The rate is the median
 * of RUNS passes (default 3) over all the rays. The hits are compared with
 * ballcast's two-sided answers in ANSWERS (Embree's triangles have no front
 * side by default): agree = both miss, or both hit with alphas within
 * BC_BENCH_AGREE_TOLERANCE; sametri = agreeing hits on the same triangle.
 * Prints one "embree ..." key=value line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <embree3/rtcore.h>

#include "benchutil.h"

/* Timed passes by default, and the most the median takes. */
#define BC_EMBREE_DEFAULT_RUNS 3
#define BC_EMBREE_MAX_RUNS 15

static RTCScene buildScene(RTCDevice device, const bcBenchArrays* mesh)
{
	RTCScene scene = rtcNewScene(device);
	RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
	float* vertices = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
											  3 * sizeof(float), (size_t)mesh->vertexCount);
	unsigned* triangles = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
												  3 * sizeof(unsigned), (size_t)mesh->triangleCount);
	if (vertices == NULL || triangles == NULL) {
		rtcReleaseGeometry(geometry);
		rtcReleaseScene(scene);
		return NULL;
	}
	for (size_t i = 0; i < 3 * (size_t)mesh->vertexCount; ++i) {
		vertices[i] = (float)mesh->vertices[i];
	}
	for (size_t i = 0; i < 3 * (size_t)mesh->triangleCount; ++i) {
		triangles[i] = (unsigned)mesh->triangles[i];
	}
	rtcCommitGeometry(geometry);
	rtcAttachGeometry(scene, geometry);
	rtcReleaseGeometry(geometry);
	rtcCommitScene(scene);
	return scene;
}

/* Embree's answer to one segment: alpha (tfar) and triangle, alpha -1 on a miss. */
static double trace(RTCScene scene, const bcCastInput* in, unsigned* triangle)
{
	struct RTCIntersectContext context;
	rtcInitIntersectContext(&context);
	struct RTCRayHit rayhit;
	memset(&rayhit, 0, sizeof rayhit);
	rayhit.ray.org_x = (float)in->p0.x;
	rayhit.ray.org_y = (float)in->p0.y;
	rayhit.ray.org_z = (float)in->p0.z;
	rayhit.ray.dir_x = (float)(in->p1.x - in->p0.x);
	rayhit.ray.dir_y = (float)(in->p1.y - in->p0.y);
	rayhit.ray.dir_z = (float)(in->p1.z - in->p0.z);
	rayhit.ray.tnear = 0.0f;
	rayhit.ray.tfar = 1.0f;
	rayhit.ray.mask = 0xFFFFFFFFu;
	rayhit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
	rayhit.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
	rtcIntersect1(scene, &context, &rayhit);
	*triangle = rayhit.hit.primID;
	return rayhit.hit.geomID != RTC_INVALID_GEOMETRY_ID ? (double)rayhit.ray.tfar : -1.0;
}

int main(int argc, char** argv)
{
	if (argc < 6 || argc > 7) {
		fputs("usage: embree_rays NAME SET MESH.obj TRAJ ANSWERS [RUNS]\n", stderr);
		return 2;
	}
	const char* name = argv[1];
	const char* set = argv[2];
	int runs = argc == 7 ? atoi(argv[6]) : BC_EMBREE_DEFAULT_RUNS;
	if (runs < 1 || runs > BC_EMBREE_MAX_RUNS) {
		runs = BC_EMBREE_DEFAULT_RUNS;
	}
	bcBenchArrays mesh;
	if (bcBenchLoadArrays(argv[3], &mesh) != 0) {
		return 1;
	}
	size_t count = 0, answerCount = 0;
	bcCastInput* inputs = bcBenchReadTrajectories(argv[4], &count);
	bcBenchAnswer* answers = bcBenchReadAnswers(argv[5], &answerCount);
	double* alphas = malloc((count > 0 ? count : 1) * sizeof *alphas);
	unsigned* hitTriangles = malloc((count > 0 ? count : 1) * sizeof *hitTriangles);
	if (inputs == NULL || answers == NULL || alphas == NULL || hitTriangles == NULL || answerCount != count ||
		count == 0) {
		fprintf(stderr, "embree_rays: %s: no rays, answers that do not match them, or out of memory\n", argv[4]);
		return 1;
	}
	RTCDevice device = rtcNewDevice(NULL);
	if (device == NULL) {
		fputs("embree_rays: rtcNewDevice failed\n", stderr);
		return 1;
	}
	double buildStart = bcBenchNow();
	RTCScene scene = buildScene(device, &mesh);
	double buildSeconds = bcBenchNow() - buildStart;
	if (scene == NULL) {
		fputs("embree_rays: out of memory\n", stderr);
		return 1;
	}

	double seconds[BC_EMBREE_MAX_RUNS], cpu[BC_EMBREE_MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double start = bcBenchNow(), startCpu = bcBenchThreadSeconds();
		for (size_t i = 0; i < count; ++i) {
			alphas[i] = trace(scene, inputs + i, hitTriangles + i);
		}
		cpu[r] = bcBenchThreadSeconds() - startCpu;
		seconds[r] = bcBenchNow() - start;
	}
	double median = bcBenchMedian(seconds, runs);
	double medianCpu = bcBenchMedian(cpu, runs);

	size_t agree = 0, sameTriangle = 0, bothHit = 0, embreeOnly = 0, ballcastOnly = 0;
	for (size_t i = 0; i < count; ++i) {
		bool embreeHit = alphas[i] >= 0.0;
		bool ballcastHit = answers[i].hit != 0;
		if (embreeHit && ballcastHit) {
			bothHit += 1;
			if (fabs(alphas[i] - answers[i].alpha) <= BC_BENCH_AGREE_TOLERANCE) {
				agree += 1;
				sameTriangle += (int32_t)hitTriangles[i] == answers[i].triangle;
			}
		} else if (embreeHit) {
			embreeOnly += 1;
		} else if (ballcastHit) {
			ballcastOnly += 1;
		} else {
			agree += 1;
		}
	}
	printf("embree name=%s set=%s count=%zu qps=%.6g cpuqps=%.6g build=%.4f agree=%.4f sametri=%zu bothhit=%zu "
		   "embreeonly=%zu ballcastonly=%zu peakmb=%.1f\n",
		   name, set, count, (double)count / median, (double)count / medianCpu, buildSeconds,
		   (double)agree / (double)count, sameTriangle, bothHit, embreeOnly, ballcastOnly, bcBenchPeakMiB());
	rtcReleaseScene(scene);
	rtcReleaseDevice(device);
	free(alphas);
	free(hitTriangles);
	free(inputs);
	free(answers);
	bcBenchFreeArrays(&mesh);
	return 0;
}
