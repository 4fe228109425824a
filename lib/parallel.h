/* parallel.h - the library's one parallel-for (parallel.c): every thread
 * the library starts is started there. Private to the library, as Box2D
 * keeps b2ParallelFor: a caller of the library asks for threads through a
 * call's threadCount (bcThreadCount), never starts the library's. */
#ifndef BC_PARALLEL_H
#define BC_PARALLEL_H

/* One block of a parallel-for: the items [begin, end), run by worker
 * (0 .. workers - 1; worker 0 is the calling thread). */
typedef void bcTaskFcn(int begin, int end, int worker, void* context);

/* How many workers bcParallelFor(count, blockSize, threadCount, ...) uses:
 * one per block at most, and bcThreadCount(threadCount) at most. Callers
 * size their per-worker scratch with it. */
int bcParallelWorkerCount(int count, int blockSize, int threadCount);

/* The one parallel-for, after Box2D's b2ParallelFor. Cuts [0, count) into
 * blocks of blockSize items (the last may be shorter) and calls task once
 * per block, on bcParallelWorkerCount workers: the calling thread and
 * threads started for the call, each taking the next block in order until
 * none is left. A thread that cannot be started leaves its share to the
 * others, so every block is always run. Returns when all blocks are done
 * (every thread started has ended), with the number of workers. Blocks
 * must write disjoint outputs (or per-worker ones). */
int bcParallelFor(int count, int blockSize, int threadCount, bcTaskFcn* task, void* context);

#endif
