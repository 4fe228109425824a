/* mesh.c - triangle storage, front normals, degenerate flags, bounds. */
#include "mesh.h"

#include <string.h>
#include <time.h>

#include "bvh.h"
#include "core.h"
#include "sweep.h"
#include "vec3.h"

/* Triangles per thread below which computing normals on more threads costs
 * more (starting a thread, about 20 us) than it saves (normals take about
 * 60 ns each, so 16384 of them about 1 ms). */
#define BC_MESH_MIN_TRIANGLES_PER_THREAD 16384

/* Normals and bounds of one range of the mesh, computed by one thread. */
typedef struct bcMeshRange {
	bcVec3 lower, upper;
	int32_t degenerateCount;
} bcMeshRange;

typedef struct bcMeshJob {
	bcMesh* mesh;
	bcMeshRange* ranges;
	int count;
} bcMeshJob;

/* Normals and degenerate flags of the index-th range of triangles, bounds of
 * the index-th range of vertices (lower and upper stay unset when it is
 * empty); a parallel-for task over the ranges. */
static void finishRange(int index, int next, int worker, void* context)
{
	(void)next;
	(void)worker;
	bcMeshJob* job = context;
	bcMesh* mesh = job->mesh;
	bcMeshRange* range = job->ranges + index;
	int32_t begin = (int32_t)((int64_t)mesh->vertexCount * index / job->count);
	int32_t end = (int32_t)((int64_t)mesh->vertexCount * (index + 1) / job->count);
	for (int32_t i = begin; i < end; ++i) {
		range->lower = i == begin ? mesh->vertices[i] : bcMin(range->lower, mesh->vertices[i]);
		range->upper = i == begin ? mesh->vertices[i] : bcMax(range->upper, mesh->vertices[i]);
	}
	begin = (int32_t)((int64_t)mesh->triangleCount * index / job->count);
	end = (int32_t)((int64_t)mesh->triangleCount * (index + 1) / job->count);
	range->degenerateCount = 0;
	const int32_t* triangles = mesh->triangles;
	const bcVec3* vertices = mesh->vertices;
	for (int32_t i = begin; i < end; ++i) {
		bcVec3 a = vertices[triangles[3 * i + 0]];
		bcVec3 b = vertices[triangles[3 * i + 1]];
		bcVec3 c = vertices[triangles[3 * i + 2]];
		double error;
		bcVec3 n = bcTriangleNormalBounded(a, b, c, &error);
		if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
			range->degenerateCount += 1;
		}
		mesh->normals[i] = n;
		mesh->normalErrors[i] = bcFloatAbove(error);
	}
}

bcMesh* bcMesh_Adopt(bcVec3* vertices, int32_t vertexCount, int32_t* triangles, int32_t triangleCount,
					 int32_t* faceIds, int32_t faceCount, int threadCount, bcError* error)
{
	bcMesh* mesh = bcAllocZeroed(1, sizeof *mesh);
	bcVec3* normals = bcAlloc((size_t)(triangleCount > 0 ? triangleCount : 1) * sizeof *normals);
	float* normalErrors = bcAlloc((size_t)(triangleCount > 0 ? triangleCount : 1) * sizeof *normalErrors);
	if (faceIds == NULL) {
		faceIds = bcAlloc((size_t)(triangleCount > 0 ? triangleCount : 1) * sizeof *faceIds);
		if (faceIds != NULL) {
			for (int32_t i = 0; i < triangleCount; ++i) {
				faceIds[i] = i;
			}
		}
		faceCount = triangleCount;
	}
	if (mesh == NULL || normals == NULL || normalErrors == NULL || faceIds == NULL) {
		bcFree(mesh);
		bcFree(normals);
		bcFree(normalErrors);
		bcFree(faceIds);
		bcFree(vertices);
		bcFree(triangles);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	mesh->vertices = vertices;
	mesh->vertexCount = vertexCount;
	mesh->triangles = triangles;
	mesh->triangleCount = triangleCount;
	mesh->faceIds = faceIds;
	mesh->faceCount = faceCount;
	mesh->normals = normals;
	mesh->normalErrors = normalErrors;

	/* Ranges in index order, combined in that order: the same bounds (even
	 * which of -0 and 0) and count whatever the number of threads. A small
	 * mesh gets fewer threads, here and for the hierarchy (whose tree does
	 * not depend on them either). */
	int count = bcThreadCountFor(threadCount, triangleCount, BC_MESH_MIN_TRIANGLES_PER_THREAD);
	bcMeshRange ranges[BC_MAX_THREADS];
	bcMeshJob job = { mesh, ranges, count };
	bcParallelFor(count, 1, count, finishRange, &job);
	bcVec3 lower = bcMakeVec3(0.0, 0.0, 0.0);
	bcVec3 upper = lower;
	bool first = true;
	for (int i = 0; i < count; ++i) {
		int32_t begin = (int32_t)((int64_t)vertexCount * i / count);
		int32_t end = (int32_t)((int64_t)vertexCount * (i + 1) / count);
		if (begin < end) {
			lower = first ? ranges[i].lower : bcMin(lower, ranges[i].lower);
			upper = first ? ranges[i].upper : bcMax(upper, ranges[i].upper);
			first = false;
		}
		mesh->degenerateCount += ranges[i].degenerateCount;
	}
	mesh->lowerBound = lower;
	mesh->upperBound = upper;

	struct timespec start, stop;
	clock_gettime(CLOCK_MONOTONIC, &start);
	mesh->bvh = bcBvh_CreateWithThreads(mesh, threadCount > count ? count : threadCount);
	clock_gettime(CLOCK_MONOTONIC, &stop);
	mesh->buildSeconds = (double)(stop.tv_sec - start.tv_sec) + 1e-9 * (double)(stop.tv_nsec - start.tv_nsec);
	if (mesh->bvh == NULL && triangleCount > 0) {
		bcMesh_Destroy(mesh);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory building the bounding volume hierarchy");
		return NULL;
	}
	return mesh;
}

bcMesh* bcMesh_Create(const bcMeshDef* def, bcError* error)
{
	if (def == NULL || def->vertexCount < 0 || def->triangleCount < 0 ||
		(def->vertexCount > 0 && def->vertices == NULL) || (def->triangleCount > 0 && def->triangles == NULL)) {
		bcSetError(error, bc_errorValue, 0, 0, "invalid mesh definition");
		return NULL;
	}
	if (def->triangleCount == 0) {
		bcSetError(error, bc_errorEmpty, 0, 0, "the mesh has no triangles");
		return NULL;
	}
	size_t nv = (size_t)def->vertexCount;
	size_t nt = (size_t)def->triangleCount;
	bcVec3* vertices = bcAlloc((nv > 0 ? nv : 1) * sizeof *vertices);
	int32_t* triangles = bcAlloc(3 * nt * sizeof *triangles);
	int32_t* faceIds = def->faceIds != NULL ? bcAlloc(nt * sizeof *faceIds) : NULL;
	if (vertices == NULL || triangles == NULL || (def->faceIds != NULL && faceIds == NULL)) {
		bcFree(vertices);
		bcFree(triangles);
		bcFree(faceIds);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < nv; ++i) {
		bcVec3 v = bcMakeVec3(def->vertices[3 * i], def->vertices[3 * i + 1], def->vertices[3 * i + 2]);
		if (!bcIsFinite(v)) {
			bcFree(vertices);
			bcFree(triangles);
			bcFree(faceIds);
			bcSetError(error, bc_errorValue, 0, 0, "vertex %zu has a non-finite coordinate", i);
			return NULL;
		}
		vertices[i] = v;
	}
	for (size_t i = 0; i < 3 * nt; ++i) {
		int32_t index = def->triangles[i];
		if (index < 0 || index >= def->vertexCount) {
			bcFree(vertices);
			bcFree(triangles);
			bcFree(faceIds);
			bcSetError(error, bc_errorIndex, 0, 0, "triangle %zu uses vertex %ld, outside 0..%ld", i / 3, (long)index,
					   (long)def->vertexCount - 1);
			return NULL;
		}
		triangles[i] = index;
	}
	int32_t faceCount = def->triangleCount;
	if (faceIds != NULL) {
		memcpy(faceIds, def->faceIds, nt * sizeof *faceIds);
		faceCount = def->faceCount;
	}
	return bcMesh_Adopt(vertices, def->vertexCount, triangles, def->triangleCount, faceIds, faceCount, 0, error);
}

void bcMesh_Destroy(bcMesh* mesh)
{
	if (mesh == NULL) {
		return;
	}
	bcBvh_Destroy(mesh->bvh);
	bcFree(mesh->vertices);
	bcFree(mesh->triangles);
	bcFree(mesh->faceIds);
	bcFree(mesh->normals);
	bcFree(mesh->normalErrors);
	bcFree(mesh->warnings);
	bcFree(mesh);
}

int32_t bcMesh_GetWarningCount(const bcMesh* mesh)
{
	return mesh->warningCount;
}

bcWarning bcMesh_GetWarning(const bcMesh* mesh, int32_t index)
{
	bcWarning warning;
	memset(&warning, 0, sizeof warning);
	warning.code = bc_warningNone;
	warning.record = -1;
	if (index >= 0 && index < mesh->warningCount && index < BC_MAX_WARNINGS && mesh->warnings != NULL) {
		warning = mesh->warnings[index];
	}
	return warning;
}

bcMeshInfo bcMesh_GetInfo(const bcMesh* mesh)
{
	bcMeshInfo info = { 0 };
	info.vertexCount = mesh->vertexCount;
	info.triangleCount = mesh->triangleCount;
	info.faceCount = mesh->faceCount;
	info.degenerateCount = mesh->degenerateCount;
	info.lowerBound = mesh->lowerBound;
	info.upperBound = mesh->upperBound;
	info.buildSeconds = mesh->buildSeconds;
	info.format = mesh->format;
	info.mergedCorners = mesh->mergedCorners;
	return info;
}

bcTriangle bcMesh_GetTriangle(const bcMesh* mesh, int32_t index)
{
	bcTriangle t = { { -1, -1, -1 }, -1, { 0.0, 0.0, 0.0 }, true };
	if (index < 0 || index >= mesh->triangleCount) {
		return t;
	}
	for (int k = 0; k < 3; ++k) {
		t.vertices[k] = mesh->triangles[3 * index + k];
	}
	t.face = mesh->faceIds[index];
	t.normal = mesh->normals[index];
	t.degenerate = t.normal.x == 0.0 && t.normal.y == 0.0 && t.normal.z == 0.0;
	return t;
}

bcVec3 bcMesh_GetVertex(const bcMesh* mesh, int32_t index)
{
	if (index < 0 || index >= mesh->vertexCount) {
		return bcMakeVec3(0.0, 0.0, 0.0);
	}
	return mesh->vertices[index];
}
