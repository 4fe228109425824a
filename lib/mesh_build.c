/* mesh_build.c - the one place a mesh is built from polygons
 * (mesh_build.h): fans as they are read, polygons cut again once the
 * vertices are known, warnings, and the hand-over to bcMesh_Adopt. */
#include "mesh_build.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "decimal.h"
#include "mesh.h"
#include "polygon.h"

/* First capacity of the growable arrays, in elements; they double from here. */
#define BC_BUILD_INITIAL_CAPACITY 1024

/* Tokens quoted in error messages are cut after this many bytes. */
#define BC_BUILD_QUOTE_LENGTH 40

/* Below this many polygons per thread, a thread costs more than it saves
 * (a quadrilateral takes about 0.1 us; a thread about 20 us to start). */
#define BC_BUILD_MIN_POLYGONS_PER_THREAD 16384

void bcSetByteError(bcError* error, bcErrorCode code, long long byte, const char* format, ...)
{
	if (error == NULL) {
		return;
	}
	bcSetError(error, code, 0, 0, "%s", "");
	error->byte = byte;
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
}

void bcSetIoError(bcError* error, const char* doing, int code)
{
	char reason[128];
	if (strerror_r(code, reason, sizeof reason) != 0) {
		bcSetError(error, bc_errorIo, 0, 0, "%s: error %d", doing, code);
	} else {
		bcSetError(error, bc_errorIo, 0, 0, "%s: %s", doing, reason);
	}
	if (error != NULL) {
		error->systemError = code;
	}
}

void bcQuoteToken(char* out, size_t size, const char* begin, const char* end)
{
	size_t length = (size_t)(end - begin);
	bool cut = length > BC_BUILD_QUOTE_LENGTH;
	if (cut) {
		length = BC_BUILD_QUOTE_LENGTH;
	}
	if (length + 4 > size) {
		length = size - 4;
	}
	for (size_t i = 0; i < length; ++i) {
		unsigned char c = (unsigned char)begin[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (cut) {
		memcpy(out + length, "...", 4);
	} else {
		out[length] = '\0';
	}
}

void bcMeshArrays_Free(bcMeshArrays* arrays)
{
	bcFree(arrays->vertices);
	bcFree(arrays->triangles);
	bcFree(arrays->faceIds);
	bcFree(arrays->warnings);
	memset(arrays, 0, sizeof *arrays);
}

bool bcMeshArrays_AddWarning(bcMeshArrays* arrays, bcWarningCode code, long line, long column, long long byte,
							 long record, const char* message)
{
	if (arrays->warningCount < BC_MAX_WARNINGS) {
		if (arrays->warningCount == arrays->warningCapacity) {
			int32_t grown = arrays->warningCapacity == 0 ? 16 : 2 * arrays->warningCapacity;
			grown = grown > BC_MAX_WARNINGS ? BC_MAX_WARNINGS : grown;
			bcWarning* warnings = bcRealloc(arrays->warnings, (size_t)grown * sizeof *warnings);
			if (warnings == NULL) {
				return false;
			}
			arrays->warnings = warnings;
			arrays->warningCapacity = grown;
		}
		bcWarning* w = arrays->warnings + arrays->warningCount;
		memset(w, 0, sizeof *w);
		w->code = code;
		w->line = line;
		w->column = column;
		w->byte = byte;
		w->record = record;
		snprintf(w->message, sizeof w->message, "%s", message);
	}
	arrays->warningCount += 1;
	return true;
}

/* The polygons' second look, shared by the threads: each takes a range of
 * them and writes its triangles (disjoint places) and their shapes. */
typedef struct bcCutJob {
	bcMeshArrays* arrays;
	const bcMeshPolygon* polygons;
	size_t count;
	int taskCount;
	unsigned char* shapes; /* per polygon: bcPolygonShape */
	double* deviations;    /* per polygon */
	bool outOfMemory[BC_MAX_THREADS];
} bcCutJob;

static void cutPolygonsTask(int index, int end, int worker, void* context)
{
	(void)end;
	(void)worker;
	bcCutJob* job = context;
	size_t first = job->count * (size_t)index / (size_t)job->taskCount;
	size_t last = job->count * (size_t)(index + 1) / (size_t)job->taskCount;
	bcPolygonScratch scratch = { 0 };
	int32_t* corners = NULL;
	int32_t cornerCapacity = 0;
	for (size_t i = first; i < last; ++i) {
		const bcMeshPolygon* polygon = job->polygons + i;
		int32_t k = polygon->triangleCount + 2;
		if (k > cornerCapacity) {
			int32_t* grown = bcRealloc(corners, (size_t)k * sizeof *grown);
			if (grown == NULL) {
				job->outOfMemory[index] = true;
				break;
			}
			corners = grown;
			cornerCapacity = k;
		}
		/* the fan (v0 v1 v2), (v0 v2 v3), ... holds the corners in order */
		int32_t* t = job->arrays->triangles + 3 * (size_t)polygon->firstTriangle;
		corners[0] = t[0];
		corners[1] = t[1];
		for (int32_t j = 0; j < polygon->triangleCount; ++j) {
			corners[j + 2] = t[3 * j + 2];
		}
		bcPolygonShape shape;
		if (!bcTriangulatePolygon(job->arrays->vertices, corners, k, t, &scratch, &shape, job->deviations + i)) {
			job->outOfMemory[index] = true;
			break;
		}
		job->shapes[i] = (unsigned char)shape;
	}
	bcFree(corners);
	bcPolygonScratch_Free(&scratch);
}

bool bcMeshArrays_CutPolygons(bcMeshArrays* arrays, const bcMeshPolygon* polygons, size_t count, int threadCount,
							  bcError* error)
{
	if (count == 0) {
		return true;
	}
	bcCutJob job;
	memset(&job, 0, sizeof job);
	job.arrays = arrays;
	job.polygons = polygons;
	job.count = count;
	job.shapes = bcAlloc(count * sizeof *job.shapes);
	job.deviations = bcAlloc(count * sizeof *job.deviations);
	bool ok = job.shapes != NULL && job.deviations != NULL;
	if (ok) {
		size_t useful = count / BC_BUILD_MIN_POLYGONS_PER_THREAD;
		int tasks = bcThreadCount(threadCount);
		job.taskCount = (size_t)tasks > useful ? (useful > 1 ? (int)useful : 1) : tasks;
		bcParallelFor(job.taskCount, 1, job.taskCount, cutPolygonsTask, &job);
		for (int i = 0; i < job.taskCount; ++i) {
			ok = ok && !job.outOfMemory[i];
		}
	}
	for (size_t i = 0; ok && i < count; ++i) {
		char message[sizeof arrays->warnings->message];
		const bcMeshPolygon* p = polygons + i;
		long corners = (long)p->triangleCount + 2;
		long record = arrays->faceIds[p->firstTriangle];
		if (job.shapes[i] == bc_polygonNonPlanar) {
			snprintf(message, sizeof message,
					 "a polygon of %ld corners is not planar (a corner %.2g of its size off its plane): cut as a fan",
					 corners, job.deviations[i]);
			ok = bcMeshArrays_AddWarning(arrays, bc_warningNonPlanar, p->line, p->column, p->byte, record, message);
		} else if (job.shapes[i] == bc_polygonSelfIntersecting) {
			snprintf(message, sizeof message, "a polygon of %ld corners intersects itself: cut as a fan", corners);
			ok = bcMeshArrays_AddWarning(arrays, bc_warningSelfIntersecting, p->line, p->column, p->byte, record,
										 message);
		}
	}
	bcFree(job.shapes);
	bcFree(job.deviations);
	if (!ok) {
		bcMeshArrays_Free(arrays);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory cutting polygons into triangles");
	}
	return ok;
}

bcMesh* bcMeshArrays_Adopt(bcMeshArrays* arrays, bcMeshFormat format, int threadCount, bcError* error)
{
	bcWarning* warnings = arrays->warnings;
	bcMesh* mesh = bcMesh_Adopt(arrays->vertices, arrays->vertexCount, arrays->triangles, arrays->triangleCount,
								arrays->faceIds, arrays->faceCount, threadCount, error);
	if (mesh == NULL) {
		bcFree(warnings);
	} else {
		mesh->warnings = warnings;
		mesh->warningCount = arrays->warningCount;
		mesh->format = format;
		mesh->mergedCorners = arrays->mergedCorners;
	}
	memset(arrays, 0, sizeof *arrays);
	return mesh;
}

/* Grow *array of elementSize-byte elements to hold at least want, doubling,
 * within limit elements. */
static bool growTo(void** array, size_t* capacity, size_t elementSize, size_t want, size_t limit)
{
	if (want <= *capacity) {
		return true;
	}
	size_t grown = *capacity == 0 ? BC_BUILD_INITIAL_CAPACITY : *capacity;
	while (grown < want && grown <= SIZE_MAX / 2) {
		grown *= 2;
	}
	if (grown < want) {
		grown = want;
	}
	if (grown > limit) {
		grown = limit;
	}
	if (grown < want || grown > SIZE_MAX / elementSize) {
		return false;
	}
	void* bigger = bcRealloc(*array, grown * elementSize);
	if (bigger == NULL) {
		return false;
	}
	*array = bigger;
	*capacity = grown;
	return true;
}

static bool reserveTriangles(bcMeshBuilder* builder, size_t want)
{
	bcMeshArrays* a = &builder->arrays;
	size_t capacity = builder->triangleCapacity;
	void* triangles = a->triangles;
	bool ok = growTo(&triangles, &capacity, 3 * sizeof *a->triangles, want, (size_t)BC_MAX_ELEMENTS);
	a->triangles = triangles;
	if (ok) {
		size_t faceCapacity = builder->triangleCapacity;
		void* faceIds = a->faceIds;
		ok = growTo(&faceIds, &faceCapacity, sizeof *a->faceIds, want, (size_t)BC_MAX_ELEMENTS);
		a->faceIds = faceIds;
		if (ok) {
			builder->triangleCapacity = capacity;
		}
	}
	return ok;
}

bool bcMeshBuilder_Reserve(bcMeshBuilder* builder, size_t vertices, size_t triangles)
{
	void* array = builder->arrays.vertices;
	bool ok = growTo(&array, &builder->vertexCapacity, sizeof(bcVec3), vertices, (size_t)BC_MAX_ELEMENTS);
	builder->arrays.vertices = array;
	return ok && reserveTriangles(builder, triangles);
}

bool bcMeshBuilder_AddVertex(bcMeshBuilder* builder, bcVec3 vertex)
{
	bcMeshArrays* a = &builder->arrays;
	if ((size_t)a->vertexCount == builder->vertexCapacity) {
		void* array = a->vertices;
		bool ok = growTo(&array, &builder->vertexCapacity, sizeof *a->vertices, (size_t)a->vertexCount + 1,
						 (size_t)BC_MAX_ELEMENTS);
		a->vertices = array;
		if (!ok) {
			return false;
		}
	}
	a->vertices[a->vertexCount++] = vertex;
	return true;
}

bool bcMeshBuilder_AddPolygonFar(bcMeshBuilder* builder, const int32_t* corners, int32_t count, long line,
								 long column, long long byte)
{
	bcMeshArrays* a = &builder->arrays;
	size_t want = (size_t)a->triangleCount + (size_t)(count - 2);
	if (want > (size_t)BC_MAX_ELEMENTS || a->faceCount == BC_MAX_ELEMENTS || !reserveTriangles(builder, want)) {
		return false;
	}
	if (count > 3) {
		if (builder->polygonCount == builder->polygonCapacity) {
			void* polygons = builder->polygons;
			bool ok = growTo(&polygons, &builder->polygonCapacity, sizeof *builder->polygons,
							 builder->polygonCount + 1, SIZE_MAX);
			builder->polygons = polygons;
			if (!ok) {
				return false;
			}
		}
		bcMeshPolygon* p = builder->polygons + builder->polygonCount++;
		p->firstTriangle = a->triangleCount;
		p->triangleCount = count - 2;
		p->line = line;
		p->column = column;
		p->byte = byte;
	}
	for (int32_t j = 2; j < count; ++j) {
		int32_t* t = a->triangles + 3 * (size_t)a->triangleCount;
		t[0] = corners[0];
		t[1] = corners[j - 1];
		t[2] = corners[j];
		a->faceIds[a->triangleCount] = a->faceCount;
		a->triangleCount += 1;
	}
	a->faceCount += 1;
	return true;
}

void bcMeshBuilder_Free(bcMeshBuilder* builder)
{
	bcMeshArrays_Free(&builder->arrays);
	bcFree(builder->polygons);
	bcFree(builder->corners);
	memset(builder, 0, sizeof *builder);
}

bcMesh* bcMeshBuilder_Finish(bcMeshBuilder* builder, bcMeshFormat format, int threadCount, const char* emptyMessage,
							 bcError* error)
{
	if (builder->arrays.triangleCount == 0) {
		bcSetError(error, bc_errorEmpty, 0, 0, "%s", emptyMessage);
		bcMeshBuilder_Free(builder);
		return NULL;
	}
	bcMeshArrays arrays = builder->arrays;
	memset(&builder->arrays, 0, sizeof builder->arrays);
	/* give back what the arrays hold beyond their counts (best effort) */
	void* smaller = bcRealloc(arrays.vertices, (size_t)(arrays.vertexCount > 0 ? arrays.vertexCount : 1) *
												   sizeof *arrays.vertices);
	arrays.vertices = smaller != NULL ? smaller : arrays.vertices;
	smaller = bcRealloc(arrays.triangles, 3 * (size_t)arrays.triangleCount * sizeof *arrays.triangles);
	arrays.triangles = smaller != NULL ? smaller : arrays.triangles;
	smaller = bcRealloc(arrays.faceIds, (size_t)arrays.triangleCount * sizeof *arrays.faceIds);
	arrays.faceIds = smaller != NULL ? smaller : arrays.faceIds;
	bool ok = bcMeshArrays_CutPolygons(&arrays, builder->polygons, builder->polygonCount, threadCount, error);
	bcMeshBuilder_Free(builder);
	return ok ? bcMeshArrays_Adopt(&arrays, format, threadCount, error) : NULL;
}

/* ---------------------------------------------------------- text tokens */

static bool isBlank(char c)
{
	return bcTextIsBlank(c);
}

void bcTextScanner_Start(bcTextScanner* s, const char* text, size_t length, bool hashComments)
{
	if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3;
		length -= 3;
	}
	s->p = text;
	s->end = text + length;
	s->lineStart = text;
	s->line = 1;
	s->hashComments = hashComments;
}

void bcTextScanner_NextLineFar(bcTextScanner* s)
{
	const char* newline = memchr(s->p, '\n', (size_t)(s->end - s->p));
	if (newline == NULL) {
		s->p = s->end;
		return;
	}
	s->p = newline + 1;
	s->line += 1;
	s->lineStart = s->p;
}

bool bcTextScanner_SkipFar(bcTextScanner* s)
{
	while (!bcTextScanner_OnLine(s)) {
		if (s->p == s->end) {
			return false;
		}
		bcTextScanner_NextLine(s);
	}
	return true;
}

const char* bcTextScanner_TokenEnd(const bcTextScanner* s)
{
	const char* q = s->p;
	while (q < s->end && !isBlank(*q) && *q != '\n' && !(s->hashComments && *q == '#')) {
		++q;
	}
	return q;
}

void bcTextScanner_Expected(const bcTextScanner* s, const char* what, bcError* error)
{
	long column = bcTextScanner_Column(s, s->p);
	if (s->p == s->end) {
		bcSetError(error, bc_errorSyntax, s->line, column, "expected %s, found the end of the input", what);
	} else if (*s->p == '\n' || (s->hashComments && *s->p == '#')) {
		bcSetError(error, bc_errorSyntax, s->line, column, "expected %s, found the end of the line", what);
	} else {
		char quoted[BC_BUILD_QUOTE_LENGTH + 4];
		bcQuoteToken(quoted, sizeof quoted, s->p, bcTextScanner_TokenEnd(s));
		bcSetError(error, bc_errorSyntax, s->line, column, "expected %s, found '%s'", what, quoted);
	}
}

bool bcTextScanner_Number(bcTextScanner* s, const char* what, double* value, bcError* error)
{
	const char* stop = bcTextScanner_TokenEnd(s);
	double v;
	if (stop == s->p || !bcParseDouble(s->p, (size_t)(stop - s->p), &v)) {
		bcTextScanner_Expected(s, what, error);
		return false;
	}
	if (!isfinite(v)) {
		char quoted[BC_BUILD_QUOTE_LENGTH + 4];
		bcQuoteToken(quoted, sizeof quoted, s->p, stop);
		bcSetError(error, bc_errorValue, s->line, bcTextScanner_Column(s, s->p), "%s is not finite: '%s'", what,
				   quoted);
		return false;
	}
	*value = v;
	s->p = stop;
	return true;
}

bool bcTextScanner_TryNumberFar(bcTextScanner* s, double* value)
{
	/* anything else strtod reads whole (hexadecimal, many digits), as
	 * bcTextScanner_Number does: the two never disagree */
	double v;
	const char* stop = bcTextScanner_TokenEnd(s);
	if (stop == s->p || !bcParseDouble(s->p, (size_t)(stop - s->p), &v) || !isfinite(v)) {
		return false;
	}
	*value = v;
	s->p = stop;
	return true;
}

bool bcTextScanner_Count(bcTextScanner* s, const char* what, long long limit, long long* value, bcError* error)
{
	const char* stop = bcTextScanner_TokenEnd(s);
	const char* q = s->p;
	if (q < stop && *q == '+') {
		++q;
	}
	unsigned long long v = 0;
	bool digits = q < stop;
	bool over = false;
	for (; q < stop && digits; ++q) {
		if (*q < '0' || *q > '9') {
			digits = false;
		} else if (!over) {
			v = 10 * v + (unsigned long long)(*q - '0');
			over = v > (unsigned long long)limit;
		}
	}
	if (!digits) {
		bcTextScanner_Expected(s, what, error);
		return false;
	}
	if (over) {
		char quoted[BC_BUILD_QUOTE_LENGTH + 4];
		bcQuoteToken(quoted, sizeof quoted, s->p, stop);
		bcSetError(error, bc_errorIndex, s->line, bcTextScanner_Column(s, s->p), "%s '%s' is out of range: at most %lld",
				   what, quoted, limit);
		return false;
	}
	*value = (long long)v;
	s->p = stop;
	return true;
}
