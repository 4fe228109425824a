/* answer.c - one throw answered as `ballcast cast` answers it (answer.h):
 * the cast settings and their options, the record checks with their
 * messages, the discrete method and --compare-exact, and the answer as a
 * result record. The exact cast, its ties and the normal modes are the
 * library's (bcMesh_CastTies, bcMesh_CastNormal; cast's chunks go to
 * bcMesh_CastBatchWithOptions with cliCastSettings_BatchOptions); grade and
 * render answer one throw at a time through cliAnswerThrow. */
#include "answer.h"
#include "common.h"
#include "options.h"

#include <stdlib.h>
#include <string.h>

/* Room for tied contacts a pool starts with: a few casts' worth; the pool
 * grows to whatever a cast needs (a big ball overlapping a fine mesh ties
 * with hundreds of triangles), and every tie is listed. */
#define CLI_TIES_START 512

/* The problems of a throw the library cannot answer. */
#define CLI_RANGE_PROBLEM "a coordinate or the radius is beyond the supported range of 1e50"
#define CLI_TIES_MEMORY_PROBLEM "out of memory collecting the tied contacts"
#define CLI_TIES_ROOM_PROBLEM "out of memory listing the tied contacts"

/* --normal's values, by bcNormalMode. */
static const char* const normalNames[] = { "contact", "triangle", "average" };

void cliCastSettings_Init(cliCastSettings* s)
{
	memset(s, 0, sizeof *s);
	s->options = bcDefaultCastOptions();
	s->discreteOptions = bcDefaultDiscreteOptions();
}

/* --method, --dt, --bisect (k counted from cli_castMethodFirst). */
static const char* methodOption(cliCastSettings* s, int k, const char* value)
{
	switch (k) {
	case 0:
		if (strcmp(value, "exact") != 0 && strcmp(value, "discrete") != 0) {
			return "--method is exact or discrete, not";
		}
		s->discrete = value[0] == 'd';
		return NULL;
	case 1: {
		double dt = 0.0;
		if (!cliParseDouble(value, &dt) || !(dt >= BC_DISCRETE_MIN_STEP && dt <= 1.0)) {
			return "--dt needs a fraction of the path from 1e-9 to 1, not";
		}
		s->discreteOptions.step = dt;
		s->dtGiven = true;
		return NULL;
	}
	default: {
		int n = 0;
		if (!cliParseInt(value, &n) || n < 0 || n > BC_DISCRETE_MAX_BISECTIONS) {
			return "--bisect needs a whole number from 0 to 64, not";
		}
		s->discreteOptions.bisections = n;
		s->bisectGiven = true;
		return NULL;
	}
	}
}

const char* cliCastSettings_Option(cliCastSettings* s, int k, const char* value)
{
	switch (k) {
	case 0:
		s->options.twoSided = true;
		s->twoSidedGiven = true;
		return NULL;
	case 1:
		if (strcmp(value, "le") != 0 && strcmp(value, "lt") != 0) {
			return "--approach is le or lt, not";
		}
		s->options.approach = value[1] == 'e' ? bc_approachLessEqual : bc_approachLess;
		s->approachGiven = true;
		return NULL;
	case 2: {
		int mode = 0;
		while (mode < 3 && strcmp(value, normalNames[mode]) != 0) {
			mode++;
		}
		if (mode == 3) {
			return "--normal is contact, triangle or average, not";
		}
		s->normalMode = (bcNormalMode)mode;
		s->normalGiven = true;
		return NULL;
	}
	case 3:
		if (strcmp(value, "report") != 0 && strcmp(value, "ignore") != 0) {
			return "--initial-overlap is report or ignore, not";
		}
		s->options.overlap = value[0] == 'r' ? bc_overlapReport : bc_overlapIgnore;
		s->overlapGiven = true;
		return NULL;
	case 4:
		if (strcmp(value, "cs121") != 0) {
			return "--convention knows only cs121, not";
		}
		s->cs121 = true;
		return NULL;
	default:
		return methodOption(s, k - cli_castMethodFirst, value);
	}
}

const char* cliCastSettings_CheckMethod(const cliCastSettings* s, bool ties)
{
	if (!s->discrete) {
		return s->dtGiven ? "--dt needs --method discrete" : s->bisectGiven ? "--bisect needs --method discrete" : NULL;
	}
	if (!s->dtGiven) {
		return "--method discrete needs --dt F (the step, a fraction of the path)";
	}
	if (ties || s->cs121 || s->normalMode == bc_normalAverage) {
		return "--method discrete finds one contact: --ties, --normal average and --convention need --method exact";
	}
	return NULL;
}

bool cliCastSettings_Finish(cliCastSettings* s)
{
	if (s->cs121) {
		/* The course notes and FAQ: one-sided, dot(n, d) < 0, the average of
		 * the tied triangles' normals, and no hit for a ball that starts
		 * inside a triangle. Explicit options win. */
		if (!s->twoSidedGiven) {
			s->options.twoSided = false;
		}
		if (!s->approachGiven) {
			s->options.approach = bc_approachLess;
		}
		if (!s->normalGiven) {
			s->normalMode = bc_normalAverage;
		}
		if (!s->overlapGiven) {
			s->options.overlap = bc_overlapIgnore;
		}
	}
	s->discreteOptions.cast = s->options;
	/* Answers written for grading carry their ties, so that compare
	 * accepts a shared edge reported on the other triangle. */
	return s->cs121;
}

const char* cliCastSettings_NormalName(const cliCastSettings* s)
{
	return normalNames[s->normalMode];
}

bool cliCastSettings_NeedsTies(const cliCastSettings* s)
{
	return s->normalMode == bc_normalAverage;
}

/* ------------------------------------------------------------ checks */

const char* cliRecord_CheckTrajectory(const cliRecord* record, const cliCommonOptions* options, bcVec3* p0, bcVec3* p1,
									  double* radius)
{
	if (record->error[0] != 0) {
		return record->error;
	}
	if (!(record->fields & cli_fieldP0)) {
		return "missing p0";
	}
	if (!(record->fields & cli_fieldP1)) {
		return "missing p1";
	}
	*p0 = record->p0;
	*p1 = record->p1;
	if (record->fields & cli_fieldRadius) {
		*radius = record->radius;
	} else if (options->haveRadius) {
		*radius = options->radius;
	} else {
		return "missing r (give it per record or with --radius)";
	}
	return NULL;
}

const char* cliRecord_CheckCast(const cliRecord* record, const cliCommonOptions* options, bcCastInput* input)
{
	const char* problem = cliRecord_CheckTrajectory(record, options, &input->p0, &input->p1, &input->radius);
	if (problem != NULL) {
		return problem;
	}
	if (!bcIsValidCastInput(*input)) {
		return CLI_RANGE_PROBLEM;
	}
	return NULL;
}

/* ------------------------------------------------------------ answers */

/* The discrete method's answer in the cast's form: the contact it found
 * at its alpha (one triangle, no ties). */
static bcCastOutput castDiscrete(const bcMesh* mesh, bcCastInput input, const bcDiscreteOptions* options,
								 double* alphaFree)
{
	bcDiscreteOutput d = bcMesh_CastDiscrete(mesh, input, options);
	if (alphaFree != NULL) {
		*alphaFree = d.lower;
	}
	bcCastOutput out;
	memset(&out, 0, sizeof out);
	out.state = d.state;
	out.alpha = d.alpha;
	out.triangle = d.triangle;
	out.face = d.face;
	if (d.state != bc_castHit && d.state != bc_castInitialOverlap) {
		return out;
	}
	out.feature = d.feature;
	out.vertexCount = d.vertexCount;
	memcpy(out.vertices, d.vertices, sizeof out.vertices);
	out.point = d.point;
	out.center = d.center;
	out.normal = d.normal;
	out.triangleNormal = bcMesh_GetTriangle(mesh, d.triangle).normal;
	out.tieCount = 1;
	return out;
}

/* Room for at least need contacts in *ties (*capacity of them): doubled,
 * never below CLI_TIES_START. False when memory runs out (*ties kept). */
static bool growTies(bcContact** ties, int* capacity, int need)
{
	if (*capacity >= need) {
		return true;
	}
	int grown = 2 * *capacity > need ? 2 * *capacity : need;
	grown = grown > CLI_TIES_START ? grown : CLI_TIES_START;
	bcContact* more = realloc(*ties, (size_t)grown * sizeof *more);
	if (more == NULL) {
		return false;
	}
	*ties = more;
	*capacity = grown;
	return true;
}

int cliAnswerCast(const bcMesh* mesh, const cliCastSettings* s, bcCastInput input, bcCastOutput* out,
				  bcContact** ties, int* capacity, int used)
{
	if (*capacity - used < 1) {
		if (!growTies(ties, capacity, used + 1)) {
			return -1;
		}
	}
	int room = *capacity - used;
	int n = bcMesh_CastTies(mesh, input, &s->options, out, *ties + used, room);
	if (n > room) {
		/* Grow and ask again: the same answer, all of it. */
		if (!growTies(ties, capacity, used + n)) {
			return -1;
		}
		n = bcMesh_CastTies(mesh, input, &s->options, out, *ties + used, *capacity - used);
	}
	if (out->state == bc_castNoMemory) {
		return -1;
	}
	out->normal = bcMesh_CastNormal(mesh, out, *ties + used, n, s->normalMode);
	return n;
}

bcBatchOptions cliCastSettings_BatchOptions(const cliCastSettings* s, int threads)
{
	bcBatchOptions options = bcDefaultBatchOptions();
	options.cast = s->options;
	options.normal = s->normalMode;
	options.threadCount = threads;
	return options;
}

const char* cliAnswerProblem(const bcCastOutput* out)
{
	switch (out->state) {
	case bc_castNoMemory:
		return CLI_TIES_MEMORY_PROBLEM;
	case bc_castInvalid:
		return CLI_RANGE_PROBLEM;
	default:
		return NULL;
	}
}

void cliTiePool_Free(cliTiePool* pool)
{
	free(pool->ties);
	memset(pool, 0, sizeof *pool);
}

const char* cliAnswerThrow(const bcMesh* mesh, const cliCastSettings* s, bcCastInput input, cliTiePool* pool,
						   bcCastOutput* out, int* tieCount, bcCastOutput* exact, double* alphaFree)
{
	*tieCount = 0;
	if (s->discrete) {
		*out = castDiscrete(mesh, input, &s->discreteOptions, alphaFree);
		if (exact != NULL) {
			*exact = bcMesh_Cast(mesh, input, &s->options);
		}
		/* contact or triangle: the discrete method lists no ties to average */
		out->normal = bcMesh_CastNormal(mesh, out, NULL, 0, s->normalMode);
	} else if (pool == NULL && !cliCastSettings_NeedsTies(s)) {
		*out = bcMesh_Cast(mesh, input, &s->options);
		out->normal = bcMesh_CastNormal(mesh, out, NULL, 0, s->normalMode);
	} else {
		cliTiePool own = { NULL, 0, 0 };
		cliTiePool* into = pool != NULL ? pool : &own;
		out->state = bc_castMiss;
		int n = cliAnswerCast(mesh, s, input, out, &into->ties, &into->capacity, into->count);
		cliTiePool_Free(&own);
		if (n < 0) {
			/* the library's own memory, or the pool's */
			return out->state == bc_castNoMemory ? CLI_TIES_MEMORY_PROBLEM : CLI_TIES_ROOM_PROBLEM;
		}
		if (pool != NULL) {
			pool->count += n;
			*tieCount = n;
		}
	}
	return cliAnswerProblem(out);
}

const char* cliAnswerRecord(const bcMesh* mesh, const cliCastSettings* s, const cliCommonOptions* options,
							const cliRecord* record, cliTiePool* pool, bcCastInput* input, bcCastOutput* out,
							int* tieCount)
{
	*tieCount = 0;
	memset(input, 0, sizeof *input);
	const char* problem = cliRecord_CheckCast(record, options, input);
	return problem != NULL ? problem : cliAnswerThrow(mesh, s, *input, pool, out, tieCount, NULL, NULL);
}

/* ------------------------------------------------------------ results */

static char* copyText(const char* text)
{
	size_t n = strlen(text) + 1;
	char* copy = malloc(n);
	if (copy != NULL) {
		memcpy(copy, text, n);
	}
	return copy;
}

/* The record's id as cast writes it and the reader reads it back: the text
 * of a number as written, a string, or the index as a number. */
static bool copyId(const cliRecord* record, cliResult* result)
{
	if (record->idKind == cli_idIndex) {
		char digits[32];
		snprintf(digits, sizeof digits, "%ld", record->index);
		result->idKind = cli_idNumber;
		result->id = copyText(digits);
	} else {
		result->idKind = record->idKind;
		result->id = copyText(record->id);
	}
	return result->id != NULL;
}

bool cliResult_FromAnswer(const cliRecord* record, long index, const char* problem, const bcCastOutput* out,
						  const bcContact* ties, int tieCount, bool withTies, cliResult* result)
{
	memset(result, 0, sizeof *result);
	result->index = index;
	result->line = record->line;
	result->column = record->column;
	bool ok = copyId(record, result);
	if (ok && problem != NULL) {
		result->fields = cli_resultError;
		result->error = copyText(problem);
		ok = result->error != NULL;
	}
	bool hit = problem == NULL && (out->state == bc_castHit || out->state == bc_castInitialOverlap);
	if (ok && problem == NULL) {
		result->fields = cli_resultHit | cli_resultAlpha;
		result->hit = hit;
		result->alpha = out->alpha;
	}
	if (ok && hit) {
		result->fields |= cli_resultInitialOverlap | cli_resultFeature | cli_resultTriangle | cli_resultFace |
						  cli_resultVertices | cli_resultPoint | cli_resultCenter | cli_resultNormal |
						  cli_resultTriangleNormal;
		result->initialOverlap = out->state == bc_castInitialOverlap;
		result->feature = out->feature;
		result->triangle = out->triangle;
		result->face = out->face;
		result->vertexCount = out->vertexCount;
		for (int k = 0; k < out->vertexCount && k < 3; ++k) {
			result->vertices[k] = out->vertices[k];
		}
		result->point = out->point;
		result->center = out->center;
		result->normal = out->normal;
		result->triangleNormal = out->triangleNormal;
	}
	if (ok && problem == NULL && withTies) {
		/* a miss lists none ("ties": []) */
		result->fields |= cli_resultTies;
		int count = hit ? tieCount : 0;
		if (count > 0) {
			result->ties = malloc((size_t)count * sizeof *result->ties);
			ok = result->ties != NULL;
		}
		for (int i = 0; ok && i < count; ++i) {
			cliTie* t = result->ties + i;
			memset(t, 0, sizeof *t);
			t->fields = cli_resultTriangle | cli_resultFeature | cli_resultVertices | cli_resultAlpha |
						cli_resultNormal;
			t->triangle = ties[i].triangle;
			t->feature = ties[i].feature;
			t->vertexCount = ties[i].vertexCount;
			for (int k = 0; k < ties[i].vertexCount && k < 3; ++k) {
				t->vertices[k] = ties[i].vertices[k];
			}
			t->alpha = ties[i].alpha;
			t->normal = ties[i].normal;
		}
		result->tieCount = ok ? count : 0;
	}
	if (!ok) {
		free(result->id);
		free(result->error);
		free(result->ties);
		memset(result, 0, sizeof *result);
	}
	return ok;
}
