/* core.c - what every file of the library shares: the allocator, errors,
 * feature names and the one thread-count policy. */
#include "core.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------- memory */

static void* defaultAlloc(size_t size, size_t alignment, void* context)
{
	(void)context;
	if (alignment <= alignof(max_align_t)) {
		return malloc(size);
	}
	/* aligned_alloc wants a size that is a multiple of the alignment */
	return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

static void* defaultRealloc(void* memory, size_t size, void* context)
{
	(void)context;
	return realloc(memory, size);
}

static void defaultFree(void* memory, void* context)
{
	(void)context;
	free(memory);
}

/* The library's one piece of global state: set by bcSetAllocator before
 * any other call, only read after that. */
static bcAllocator bcCurrentAllocator = { defaultAlloc, defaultRealloc, defaultFree, NULL };

void bcSetAllocator(const bcAllocator* allocator)
{
	if (allocator == NULL || allocator->alloc == NULL || allocator->realloc == NULL || allocator->free == NULL) {
		bcAllocator standard = { defaultAlloc, defaultRealloc, defaultFree, NULL };
		bcCurrentAllocator = standard;
		return;
	}
	bcCurrentAllocator = *allocator;
}

void* bcAlloc(size_t size)
{
	return bcCurrentAllocator.alloc(size, alignof(max_align_t), bcCurrentAllocator.context);
}

void* bcAllocZeroed(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size) {
		return NULL;
	}
	void* memory = bcAlloc(count * size);
	if (memory != NULL) {
		memset(memory, 0, count * size);
	}
	return memory;
}

void* bcAllocAligned(size_t size, size_t alignment)
{
	if (alignment < alignof(max_align_t)) {
		alignment = alignof(max_align_t);
	}
	if (size > SIZE_MAX - alignment) {
		return NULL;
	}
	size_t rounded = (size + alignment - 1) / alignment * alignment;
	return bcCurrentAllocator.alloc(rounded, alignment, bcCurrentAllocator.context);
}

void* bcRealloc(void* memory, size_t size)
{
	return bcCurrentAllocator.realloc(memory, size, bcCurrentAllocator.context);
}

void bcFree(void* memory)
{
	if (memory != NULL) {
		bcCurrentAllocator.free(memory, bcCurrentAllocator.context);
	}
}

/* ------------------------------------------------------------- errors */

void bcSetError(bcError* error, bcErrorCode code, long line, long column, const char* format, ...)
{
	if (error == NULL) {
		return;
	}
	error->code = code;
	error->line = line;
	error->column = column;
	error->record = -1;
	error->byte = 0;
	error->systemError = 0;
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
}

const char* bcFeatureName(bcFeature feature)
{
	switch (feature) {
	case bc_featureFace:
		return "face";
	case bc_featureEdge:
		return "edge";
	case bc_featureVertex:
		return "vertex";
	default:
		return "none";
	}
}

/* ------------------------------------------------------------ threads */

int bcThreadCount(int requested)
{
	long count = requested;
	if (count <= 0) {
		count = sysconf(_SC_NPROCESSORS_ONLN);
	}
	return count < 1 ? 1 : (count > BC_MAX_THREADS ? BC_MAX_THREADS : (int)count);
}

int bcThreadCountFor(int requested, long long items, long long itemsPerThread)
{
	int count = bcThreadCount(requested);
	long long useful = itemsPerThread > 0 ? items / itemsPerThread : items;
	if (useful < 1) {
		useful = 1;
	}
	return count > useful ? (int)useful : count;
}
