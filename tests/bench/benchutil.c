/* benchutil.c - clocks, medians, peak memory and the benchmark's binary
 * files (see benchutil.h). */
#include "benchutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* ru_maxrss is in KiB on Linux. */
static const double kibPerMib = 1024.0;

/* Values the median sorts in place; more is a caller's mistake. */
enum { maxMedianCount = 16 };

double bcBenchNow(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double bcBenchThreadSeconds(void)
{
	struct timespec now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double bcBenchProcessSeconds(void)
{
	struct timespec now;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
	return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double bcBenchMedian(double* values, int count)
{
	if (count <= 0 || count > maxMedianCount) {
		return 0.0;
	}
	for (int i = 1; i < count; ++i) {
		double v = values[i];
		int j = i;
		while (j > 0 && values[j - 1] > v) {
			values[j] = values[j - 1];
			--j;
		}
		values[j] = v;
	}
	return count % 2 == 1 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

double bcBenchPeakMiB(void)
{
	struct rusage usage;
	if (getrusage(RUSAGE_SELF, &usage) != 0) {
		return 0.0;
	}
	return (double)usage.ru_maxrss / kibPerMib;
}

/* Read magic and count from f; returns 0 on success. */
static int readHeader(FILE* f, const char* path, const char* magic, uint64_t* count)
{
	char got[8];
	if (fread(got, 1, sizeof got, f) != sizeof got || memcmp(got, magic, sizeof got) != 0 ||
		fread(count, sizeof *count, 1, f) != 1) {
		fprintf(stderr, "bench: %s: not a %.7s file\n", path, magic);
		return -1;
	}
	return 0;
}

/* Read a whole file of fixed-size records after its header. */
static void* readRecords(const char* path, const char* magic, size_t recordSize, size_t* count)
{
	FILE* f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return NULL;
	}
	uint64_t n = 0;
	void* data = NULL;
	if (readHeader(f, path, magic, &n) == 0) {
		data = malloc(n > 0 ? (size_t)n * recordSize : 1);
		if (data == NULL || fread(data, recordSize, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "bench: %s: short file or out of memory\n", path);
			free(data);
			data = NULL;
		}
	}
	fclose(f);
	*count = (size_t)n;
	return data;
}

static int writeRecords(const char* path, const char* magic, const void* data, size_t recordSize, size_t count)
{
	FILE* f = fopen(path, "wb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	uint64_t n = count;
	int ok = fwrite(magic, 1, 8, f) == 8 && fwrite(&n, sizeof n, 1, f) == 1 &&
			 fwrite(data, recordSize, count, f) == count;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		fprintf(stderr, "bench: %s: write failed\n", path);
	}
	return ok ? 0 : -1;
}

bcCastInput* bcBenchReadTrajectories(const char* path, size_t* count)
{
	size_t n = 0;
	double* raw = readRecords(path, BC_TRAJ_MAGIC, 7 * sizeof(double), &n);
	if (raw == NULL) {
		return NULL;
	}
	bcCastInput* inputs = malloc((n > 0 ? n : 1) * sizeof *inputs);
	if (inputs != NULL) {
		for (size_t i = 0; i < n; ++i) {
			const double* r = raw + 7 * i;
			inputs[i].p0 = (bcVec3){ r[0], r[1], r[2] };
			inputs[i].p1 = (bcVec3){ r[3], r[4], r[5] };
			inputs[i].radius = r[6];
		}
	}
	free(raw);
	*count = n;
	return inputs;
}

int bcBenchWriteTrajectories(const char* path, const bcCastInput* inputs, size_t count)
{
	double* raw = malloc((count > 0 ? count : 1) * 7 * sizeof *raw);
	if (raw == NULL) {
		return -1;
	}
	for (size_t i = 0; i < count; ++i) {
		double* r = raw + 7 * i;
		r[0] = inputs[i].p0.x;
		r[1] = inputs[i].p0.y;
		r[2] = inputs[i].p0.z;
		r[3] = inputs[i].p1.x;
		r[4] = inputs[i].p1.y;
		r[5] = inputs[i].p1.z;
		r[6] = inputs[i].radius;
	}
	int status = writeRecords(path, BC_TRAJ_MAGIC, raw, 7 * sizeof *raw, count);
	free(raw);
	return status;
}

bcBenchAnswer* bcBenchReadAnswers(const char* path, size_t* count)
{
	return readRecords(path, BC_ANSWER_MAGIC, sizeof(bcBenchAnswer), count);
}

int bcBenchWriteAnswers(const char* path, const bcBenchAnswer* answers, size_t count)
{
	return writeRecords(path, BC_ANSWER_MAGIC, answers, sizeof *answers, count);
}

int bcBenchLoadArrays(const char* path, bcBenchArrays* arrays)
{
	memset(arrays, 0, sizeof *arrays);
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_LoadObj(path, NULL, &error);
	if (mesh == NULL) {
		fprintf(stderr, "bench: %s:%ld:%ld: %s\n", path, error.line, error.column, error.message);
		return -1;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	arrays->vertexCount = info.vertexCount;
	arrays->triangleCount = info.triangleCount;
	arrays->vertices = malloc(3 * (size_t)(info.vertexCount > 0 ? info.vertexCount : 1) * sizeof *arrays->vertices);
	arrays->triangles = malloc(3 * (size_t)info.triangleCount * sizeof *arrays->triangles);
	if (arrays->vertices == NULL || arrays->triangles == NULL) {
		bcMesh_Destroy(mesh);
		bcBenchFreeArrays(arrays);
		fprintf(stderr, "bench: %s: out of memory\n", path);
		return -1;
	}
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		arrays->vertices[3 * (size_t)i + 0] = v.x;
		arrays->vertices[3 * (size_t)i + 1] = v.y;
		arrays->vertices[3 * (size_t)i + 2] = v.z;
	}
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		memcpy(arrays->triangles + 3 * (size_t)i, t.vertices, sizeof t.vertices);
	}
	bcMesh_Destroy(mesh);
	return 0;
}

void bcBenchFreeArrays(bcBenchArrays* arrays)
{
	free(arrays->vertices);
	free(arrays->triangles);
	memset(arrays, 0, sizeof *arrays);
}
