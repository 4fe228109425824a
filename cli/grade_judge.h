/* grade_judge.h - judging one record, private to the grading engine
 * (grade.h): a submission's result against the expected one, field by
 * field, with tolerances and ties. What differs comes back as plain data
 * (cliDiff), one per field; the reports word it (grade_report.h). */
#ifndef BC_GRADE_JUDGE_H
#define BC_GRADE_JUDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "grade_config.h"
#include "results_read.h"

/* What a value of a difference is. */
typedef enum cliValueKind {
	cli_valueAbsent = 0, /* the submission lacks the field (a zeroed cliValue) */
	cli_valueNull,       /* "no error", "not a result" */
	cli_valueBool,
	cli_valueInt,
	cli_valueNumber,
	cli_valueName,       /* a word of a fixed vocabulary (a feature) */
	cli_valueText,       /* a string (an error's text) */
	cli_valueVec3,
	cli_valueInts        /* a list of up to 3 integers (vertices) */
} cliValueKind;

/* One value of a difference. text is a static word or borrowed from the
 * result sets judged, which outlive the report. */
typedef struct cliValue {
	cliValueKind kind;
	bool flag;          /* cli_valueBool */
	long long integer;  /* cli_valueInt */
	double number;      /* cli_valueNumber */
	const char* text;   /* cli_valueName, cli_valueText */
	bcVec3 vec;         /* cli_valueVec3 */
	int32_t ints[3];    /* cli_valueInts: count of them */
	int count;
} cliValue;

/* Why a field differs. */
typedef enum cliDiffReason {
	cli_diffValue = 0,   /* actual vs expected, beyond tolerance when measured; actual absent: missing */
	cli_diffOffPath,     /* a hit's alpha (actual) outside [0, 1]; expected: EXPECTED's alpha when it hits */
	cli_diffNotUnit,     /* a normal (actual) that is not a unit vector; difference: its length */
	cli_diffNotTied,     /* each contact field (contact) is some tied contact's, but no one tie has them all */
	cli_diffUnreadable,  /* the record's graded fields could not be read: text, at line[0]:column[0] */
	cli_diffDuplicate    /* an id that is repeated, at line[0..1], column[0..1]; in text (EXPECTED's name), or
	                        NULL in the submission */
} cliDiffReason;

/* The contact fields of a submission's record, as one difference names
 * them (cli_diffNotTied): fields says which are known. */
typedef struct cliContactValues {
	unsigned fields; /* cli_resultFeature, Triangle, Face, Vertices bits */
	bcFeature feature;
	int32_t triangle;
	int32_t face;
	int32_t vertices[3];
	int vertexCount;
} cliContactValues;

/* One difference of a record: plain data, worded by the reports. */
typedef struct cliDiff {
	cliDiffReason reason;
	const char* field;   /* the field: "alpha", "normal", ...; "contact", "record", "id" (a static word) */
	cliValue actual;
	cliValue expected;
	const char* measure; /* cli_diffValue: "diff", "distance" or "angle" beyond tolerance, or NULL */
	double difference;   /* the measure, or the length of a normal (cli_diffNotUnit) */
	double tolerance;
	const char* unit;    /* "" or " degrees" */
	cliContactValues contact; /* cli_diffNotTied */
	int ties;                 /* cli_diffNotTied: the tied contacts EXPECTED lists */
	const char* text;         /* cli_diffUnreadable, cli_diffDuplicate (borrowed) */
	long line[2];
	long column[2];
} cliDiff;

/* The differences of one record, a growing list. */
typedef struct cliDiffs {
	cliDiff* items; /* owned */
	int count;
	int capacity;
	bool failed;    /* out of memory: a difference was lost */
} cliDiffs;

/* Add a copy of diff to d (on failure, d->failed). */
void cliDiffs_Add(cliDiffs* d, const cliDiff* diff);

/* Free what d holds and empty it. */
void cliDiffs_Free(cliDiffs* d);

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

/* Compare actual with e (EXPECTED's result); the differences are added to
 * d. False when out of memory. */
bool cliComparer_Record(cliComparer* cmp, cliDiffs* d, const cliResult* e, const cliResult* actual);

/* The normal of convention (cli_normalsContact or cli_normalsTriangle) of
 * e's own contact (not its ties): true with *v, false when not known. */
bool cliComparer_OwnNormal(const cliComparer* cmp, const cliResult* e, unsigned convention, bcVec3* v);

/* The angle between two directions in degrees, or -1 when one is zero. */
double cliAngleDegrees(bcVec3 a, bcVec3 b);

#endif
