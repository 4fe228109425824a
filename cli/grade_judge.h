/* grade_judge.h - judging one record, private to the grading engine
 * (grade.h): a submission's result against the expected one, field by
 * field, with tolerances and ties; the differences in words and as JSON. */
#ifndef BC_GRADE_JUDGE_H
#define BC_GRADE_JUDGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grade.h"
#include "results_read.h"

/* The differences of one record: the text of its line and its JSON list.
 * Both are memory streams; a NULL stream means out of memory. */
typedef struct cliDiffs {
	FILE* text;
	char* textBuffer;
	size_t textSize;
	FILE* json;
	char* jsonBuffer;
	size_t jsonSize;
	int count;
	int tieCount; /* how many ties EXPECTED listed, for messages */
} cliDiffs;
/* Open d's streams: false when out of memory (free it all the same). */
bool cliDiffs_Open(cliDiffs* d);

/* Close the streams; the buffers stay until cliDiffs_Free. */
bool cliDiffs_Close(cliDiffs* d);

/* Close and free what d holds. */
void cliDiffs_Free(cliDiffs* d);

/* Add a difference told in words only. */
void cliDiffs_AddNote(cliDiffs* d, const char* field, const char* message);

/* One contact EXPECTED allows: its own, or one of its ties. Fields are
 * cli_result* bits; a field not known is not checked against it. */
typedef struct cliCandidate {
	unsigned fields;
	int32_t triangle;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	int32_t face;
	bcVec3 point;
	bcVec3 normal;
	bcVec3 triangleNormal;
} cliCandidate;

/* What judging needs: the settings and a scratch list of candidates
 * (owned; free candidates when done). */
typedef struct cliComparer {
	const cliGradeConfig* cfg;
	const bcMesh* mesh; /* NULL without --mesh */
	cliCandidate* candidates;
	int capacity;
} cliComparer;

/* Compare actual with e (EXPECTED's result); the differences go to d.
 * False when out of memory. */
bool cliComparer_Record(cliComparer* cmp, cliDiffs* d, const cliResult* e, const cliResult* actual);

/* The normal of convention (cli_normalsContact or cli_normalsTriangle) of
 * e's own contact (not its ties): true with *v, false when not known. */
bool cliComparer_OwnNormal(const cliComparer* cmp, const cliResult* e, unsigned convention, bcVec3* v);

/* The angle between two directions in degrees, or -1 when one is zero. */
double cliAngleDegrees(bcVec3 a, bcVec3 b);

#endif
