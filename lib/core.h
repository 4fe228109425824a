/* core.h - what every file of the library shares: memory through the
 * allocator (bcSetAllocator), errors, and the threads to use (with the one
 * parallel-for, parallel.h). Private to the library. */
#ifndef BC_CORE_H
#define BC_CORE_H

#include <stddef.h>

#include "ballcast.h"
#include "parallel.h"

/* size bytes from the allocator, aligned for any type; NULL when memory
 * runs out. Freed with bcFree. */
void* bcAlloc(size_t size);

/* count * size bytes set to zero, as calloc; NULL when memory runs out or
 * the product overflows. Freed with bcFree. */
void* bcAllocZeroed(size_t count, size_t size);

/* size bytes aligned to alignment (a power of two, at most 1 << 30), the
 * size rounded up to a multiple of it; NULL when memory runs out. Freed
 * with bcFree; never given to bcRealloc. */
void* bcAllocAligned(size_t size, size_t alignment);

/* memory (from bcAlloc, bcAllocZeroed or bcRealloc, or NULL) grown or
 * shrunk to size bytes, as realloc: NULL when memory runs out, memory then
 * left as it was. */
void* bcRealloc(void* memory, size_t size);

/* Give back memory from any of the above. NULL is allowed. */
void bcFree(void* memory);

/* Fill error (when not NULL) with a code, a position and a printf message;
 * record is set to -1. */
void bcSetError(bcError* error, bcErrorCode code, long line, long column, const char* format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* bcThreadCount(requested), and no more than one thread per itemsPerThread
 * items (at least one): below that a thread costs more to start (about
 * 20 us) than its share of the work saves. */
int bcThreadCountFor(int requested, long long items, long long itemsPerThread);

#endif
