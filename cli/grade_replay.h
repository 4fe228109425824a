/* grade_replay.h - the mistakes of the catalogue (grade_config.h's cliMistake)
 * replayed on a throw: what `ballcast grade` gives the grading engine as
 * its cliReanswerFcn, so that the diagnosis can tell which mistake
 * explains a failure. */
#ifndef BC_GRADE_REPLAY_H
#define BC_GRADE_REPLAY_H

#include <stdbool.h>

#include "answer.h"
#include "ballcast.h"
#include "grade_config.h"

/* A triangle as the textbook caster tests it: its corners and box. */
typedef struct cliReplayTriangle {
	bcTriangle tri;
	bcVec3 v[3];
	bcVec3 lower, upper;
} cliReplayTriangle;

/* The textbook caster's view of a mesh: every triangle with its corners
 * and box, and a uniform grid of the boxes, so that a throw tests the
 * triangles near its path, not all of them. */
typedef struct cliReplayMesh {
	cliReplayTriangle* triangles; /* owned */
	int32_t count;
	bcVec3 lower;     /* the grid's corner */
	double inverse;   /* 1 / its cells' size */
	int n[3];         /* cells along x, y, z */
	int32_t* starts;  /* owned: per cell, where its triangles start in items (one more at the end) */
	int32_t* items;   /* owned: triangle indices, cell by cell */
	uint32_t* stamps; /* owned: per triangle, the last query that found it */
	uint32_t stamp;
	int32_t* found;   /* owned: a query's triangles, in index order */
} cliReplayMesh;

/* What a replay needs: the mesh and settings EXPECTED was cast with, and
 * where each expected result's throw is. */
typedef struct cliReplayer {
	const bcMesh* mesh;           /* not owned */
	const cliCastSettings* cast;  /* not owned */
	cliThrowOfFcn* throwOf;       /* the throw of an expected result */
	void* throwContext;           /* throwOf's */
	bcMesh* flipped;              /* owned: the mesh turned round, made when first asked */
	bool flippedTried;
	bcContact* ties;              /* owned: scratch for the library's tied contacts */
	cliReplayMesh* boxes[2];      /* owned: the mesh's and the flipped mesh's, made when first asked */
	int tieCapacity;
} cliReplayer;

/* Set rp up (nothing owned yet); destroy it with cliReplayer_Destroy. */
void cliReplayer_Init(cliReplayer* rp, const bcMesh* mesh, const cliCastSettings* cast, cliThrowOfFcn* throwOf,
					  void* throwContext);

/* Free what rp owns. */
void cliReplayer_Destroy(cliReplayer* rp);

/* A cliReanswerFcn (context: a cliReplayer): expected result e re-answered
 * as a program with the set of mistakes would (bits 1 << cliMistake): the
 * library with cast options changed, the path's ends swapped or its line
 * followed past p1, the mesh turned round, or the textbook's caster
 * with a step left out (one of those at most). */
bool cliReplayer_Reanswer(void* context, const cliResult* e, unsigned long mistakes, cliResult* answer);

/* A cliThrowOfFcn (context: a cliReplayer): its throwOf. */
bool cliReplayer_ThrowOf(void* context, const cliResult* e, bcCastInput* input);

#endif
