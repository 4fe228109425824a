/* benchutil.h - what the benchmark programs share: clocks, medians, peak
 * memory, and the binary trajectory and answer files that carry the same
 * inputs to ballcast, Bullet and Embree.
 *
 * A trajectory file (.traj) is BC_TRAJ_MAGIC (8 bytes), a uint64_t count,
 * then count records of 7 doubles: p0 x y z, p1 x y z, radius. An answer
 * file (.ans) is BC_ANSWER_MAGIC, a uint64_t count, then count bcBenchAnswer
 * records. Both are native byte order: they never leave the machine that
 * wrote them (tests/bench/work/). */
#ifndef BC_BENCHUTIL_H
#define BC_BENCHUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ballcast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BC_TRAJ_MAGIC "BCTRAJ1\n"
#define BC_ANSWER_MAGIC "BCANSW1\n"

/* Two answers agree when both miss, or both hit with alphas this close.
 * Alpha is a fraction of the trajectory; the peers work in float (Embree)
 * or stop their iterations early (Bullet's conservative advancement), so
 * their alphas carry errors of about 1e-6 .. 1e-4; 1e-3 separates those
 * from a different contact. */
#define BC_BENCH_AGREE_TOLERANCE 1e-3

/* One reference answer: ballcast's two-sided cast, for the peers to
 * compare against. alpha is 1 and triangle -1 on a miss. */
typedef struct bcBenchAnswer {
	double alpha;
	int32_t triangle;
	int32_t hit; /* 1 for a hit or an initial overlap */
} bcBenchAnswer;

/* Seconds on the monotonic clock. */
double bcBenchNow(void);

/* CPU seconds used by the calling thread: a single-thread rate that other
 * processes competing for the cores do not dilute. */
double bcBenchThreadSeconds(void);

/* CPU seconds used by all threads of the process. */
double bcBenchProcessSeconds(void);

/* The median of count values (count <= 16; values is reordered). */
double bcBenchMedian(double* values, int count);

/* Peak resident memory of this process so far, in MiB. */
double bcBenchPeakMiB(void);

/* Read a .traj file; returns the inputs (caller frees) and their count, or
 * NULL with a message on stderr. */
bcCastInput* bcBenchReadTrajectories(const char* path, size_t* count);

/* Write count inputs to a .traj file; returns 0 on success. */
int bcBenchWriteTrajectories(const char* path, const bcCastInput* inputs, size_t count);

/* Read or write an answer file; same conventions. */
bcBenchAnswer* bcBenchReadAnswers(const char* path, size_t* count);
int bcBenchWriteAnswers(const char* path, const bcBenchAnswer* answers, size_t count);

/* A mesh as plain arrays (for the peers): 3 doubles per vertex, 3 indices
 * per triangle. Loaded through bcMesh_LoadObj so every program sees the very
 * triangles ballcast sees. Returns 0 on success; free with
 * bcBenchFreeArrays. */
typedef struct bcBenchArrays {
	double* vertices;
	int32_t vertexCount;
	int32_t* triangles;
	int32_t triangleCount;
} bcBenchArrays;

int bcBenchLoadArrays(const char* path, bcBenchArrays* arrays);
void bcBenchFreeArrays(bcBenchArrays* arrays);

#ifdef __cplusplus
}
#endif

#endif
