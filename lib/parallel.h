/* parallel.h - the one parallel-for, after Box2D's b2ParallelFor: a range
 * of items cut into blocks that a few threads take in turn. Private to the
 * library; the command uses it through this header too (it links the
 * static library).
 *
 * Every thread ballcast starts is started here: the hierarchy's build,
 * bcMesh_CastBatch, the mesh's normals and the OBJ reader's pieces, closest
 * points and mesh intersection in batches, and the command's pipeline. */
#ifndef BC_PARALLEL_H
#define BC_PARALLEL_H

#include "core.h"

/* One block of a parallel-for: the items [begin, end), run by worker
 * (0 .. workers - 1; worker 0 is the calling thread). */
typedef void bcTaskFcn(int begin, int end, int worker, void* context);

/* How many workers bcParallelFor(count, blockSize, threadCount, ...) uses:
 * one per block at most, and bcThreadCount(threadCount) at most. Callers
 * size their per-worker scratch with it. */
int bcParallelWorkerCount(int count, int blockSize, int threadCount);

/* Cut [0, count) into blocks of blockSize items (the last may be shorter)
 * and call task once per block, on bcParallelWorkerCount workers: the
 * calling thread and threads started for the call, each taking the next
 * block in order until none is left. A thread that cannot be started
 * leaves its share to the others, so every block is always run. Returns
 * when all blocks are done, with the number of workers. Blocks must write
 * disjoint outputs (or per-worker ones). */
int bcParallelFor(int count, int blockSize, int threadCount, bcTaskFcn* task, void* context);

#endif
