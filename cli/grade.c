/* grade.c - the one grading engine (grade.h): submissions against
 * expected results, record by record, field by field, with tolerances and
 * ties; failures explained by the catalogue of mistakes; the reports. */
#include "grade.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "output.h"
#include "results_read.h"
#include "svg.h"
#include "vec3.h"

/* Degrees in a radian, for the angle between normals. */
#define CLI_DEGREES_PER_RADIAN (180.0 / 3.14159265358979323846)

/* Failing records of one submission re-answered under each mistake, at
 * most: enough to name a mistake, few enough that a class of wrong files
 * is graded in seconds. */
#define CLI_DIAGNOSE_MAX 500

const char* const cliMistakeNames[cli_mistakeCount] = {
	"back-faces-counted", "front-face-flipped", "approach-lt-vs-le", "larger-root",
	"no-vertex-tests", "no-edge-tests", "faces-only", "initial-overlap-ignored",
	"triangle-normal-vs-contact-normal", "normal-not-normalised", "one-based-triangles", "radius-as-diameter",
};

/* ------------------------------------------------------------ id index */

/* Open addressing from id key to the first result with it. */
typedef struct cliIdIndex {
	char** keys;     /* per result, owned */
	uint64_t* hashes; /* per result */
	long* first;     /* per result: the first result with its key */
	long* duplicate; /* per first result: the index of its second occurrence, or -1 */
	long* slots;     /* result index or -1; capacity is a power of two */
	size_t capacity;
} cliIdIndex;

static uint64_t hashKey(const char* key)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (const unsigned char* p = (const unsigned char*)key; *p != 0; ++p) {
		h = (h ^ *p) * 1099511628211ull;
	}
	return h;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t findSlot(const cliIdIndex* index, const char* key, uint64_t hash)
{
	size_t mask = index->capacity - 1;
	size_t i = (size_t)hash & mask;
	for (;;) {
		long r = index->slots[i];
		if (r < 0 || (index->hashes[r] == hash && strcmp(index->keys[r], key) == 0)) {
			return i;
		}
		i = (i + 1) & mask;
	}
}

/* The first result whose key is that of other's result j, or -1. */
static long cliIdIndex_Find(const cliIdIndex* index, const cliIdIndex* other, long j)
{
	return index->slots[findSlot(index, other->keys[j], other->hashes[j])];
}

static void cliIdIndex_Destroy(cliIdIndex* index, long count)
{
	if (index->keys != NULL) {
		for (long i = 0; i < count; ++i) {
			free(index->keys[i]);
		}
	}
	free(index->keys);
	free(index->hashes);
	free(index->first);
	free(index->duplicate);
	free(index->slots);
	memset(index, 0, sizeof *index);
}

static bool cliIdIndex_Build(cliIdIndex* index, const cliResultSet* set)
{
	memset(index, 0, sizeof *index);
	size_t capacity = 16;
	while (capacity < 2 * (size_t)set->count) {
		capacity *= 2;
	}
	size_t count = set->count > 0 ? (size_t)set->count : 1;
	index->keys = calloc(count, sizeof *index->keys);
	index->hashes = malloc(count * sizeof *index->hashes);
	index->first = malloc(count * sizeof *index->first);
	index->duplicate = malloc(count * sizeof *index->duplicate);
	index->slots = malloc(capacity * sizeof *index->slots);
	index->capacity = capacity;
	if (index->keys == NULL || index->hashes == NULL || index->first == NULL || index->duplicate == NULL ||
		index->slots == NULL) {
		cliIdIndex_Destroy(index, set->count);
		return false;
	}
	for (size_t i = 0; i < capacity; ++i) {
		index->slots[i] = -1;
	}
	for (long r = 0; r < set->count; ++r) {
		index->duplicate[r] = -1;
		index->keys[r] = cliResultIdKey(set->results + r);
		if (index->keys[r] == NULL) {
			cliIdIndex_Destroy(index, set->count);
			return false;
		}
		index->hashes[r] = hashKey(index->keys[r]);
		size_t i = findSlot(index, index->keys[r], index->hashes[r]);
		if (index->slots[i] < 0) {
			index->slots[i] = r;
		} else if (index->duplicate[index->slots[i]] < 0) {
			index->duplicate[index->slots[i]] = r;
		}
		index->first[r] = index->slots[i];
	}
	return true;
}

/* ------------------------------------------------------------ differences */

typedef enum cliValueKind {
	cli_valueMissing = 0, /* the actual record lacks a required field */
	cli_valueNone,        /* not a result, or no error */
	cli_valueBool,
	cli_valueNumber,
	cli_valueInt,
	cli_valueVec,
	cli_valueFeature,
	cli_valueVertices,
	cli_valueText
} cliValueKind;

/* A field's value, for messages and the JSON report. */
typedef struct cliValue {
	cliValueKind kind;
	bool flag;
	double number;
	long long integer;
	bcVec3 vec;
	bcFeature feature;
	int count;
	const int32_t* vertices;
	const char* text;
} cliValue;

static cliValue valueOf(cliValueKind kind)
{
	cliValue v;
	memset(&v, 0, sizeof v);
	v.kind = kind;
	return v;
}

static cliValue boolValue(bool flag)
{
	cliValue v = valueOf(cli_valueBool);
	v.flag = flag;
	return v;
}

static cliValue numberValue(double number)
{
	cliValue v = valueOf(cli_valueNumber);
	v.number = number;
	return v;
}

static cliValue intValue(long long integer)
{
	cliValue v = valueOf(cli_valueInt);
	v.integer = integer;
	return v;
}

static cliValue vecValue(bcVec3 vec)
{
	cliValue v = valueOf(cli_valueVec);
	v.vec = vec;
	return v;
}

static cliValue featureValue(bcFeature feature)
{
	cliValue v = valueOf(cli_valueFeature);
	v.feature = feature;
	return v;
}

static cliValue verticesValue(const int32_t* vertices, int count)
{
	cliValue v = valueOf(cli_valueVertices);
	v.vertices = vertices;
	v.count = count;
	return v;
}

static cliValue textValue(const char* text)
{
	cliValue v = valueOf(cli_valueText);
	v.text = text;
	return v;
}

/* As JSON, or for a message (where a feature is a bare word and nothing is
 * "none"). */
static void writeValue(FILE* f, const cliValue* v, bool json)
{
	switch (v->kind) {
	case cli_valueMissing:
	case cli_valueNone:
		fputs(json ? "null" : "none", f);
		break;
	case cli_valueBool:
		fputs(v->flag ? "true" : "false", f);
		break;
	case cli_valueNumber:
		cliWriteNumber(f, v->number);
		break;
	case cli_valueInt:
		cliWriteInt(f, v->integer);
		break;
	case cli_valueVec:
		cliWriteJsonVec3(f, v->vec.x, v->vec.y, v->vec.z);
		break;
	case cli_valueFeature:
		if (json) {
			cliWriteJsonString(f, bcFeatureName(v->feature));
		} else {
			fputs(bcFeatureName(v->feature), f);
		}
		break;
	case cli_valueVertices:
		putc('[', f);
		for (int k = 0; k < v->count; ++k) {
			if (k > 0) {
				putc(',', f);
			}
			cliWriteInt(f, v->vertices[k]);
		}
		putc(']', f);
		break;
	case cli_valueText:
		cliWriteJsonString(f, v->text);
		break;
	}
}

/* A measured difference: "(diff 0.005 > tol 1e-09)". */
typedef struct cliMeasure {
	const char* name; /* "diff", "distance", "angle"; NULL for none */
	double value;
	double tolerance;
	const char* unit; /* "" or " degrees" */
} cliMeasure;

static const cliMeasure noMeasure = { NULL, 0.0, 0.0, "" };

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

static bool cliDiffs_Open(cliDiffs* d)
{
	memset(d, 0, sizeof *d);
	d->text = open_memstream(&d->textBuffer, &d->textSize);
	d->json = open_memstream(&d->jsonBuffer, &d->jsonSize);
	return d->text != NULL && d->json != NULL;
}

/* Close the streams; the buffers stay until cliDiffs_Free. */
static bool cliDiffs_Close(cliDiffs* d)
{
	bool ok = true;
	if (d->text != NULL) {
		ok = fclose(d->text) == 0 && ok;
		d->text = NULL;
	}
	if (d->json != NULL) {
		ok = fclose(d->json) == 0 && ok;
		d->json = NULL;
	}
	return ok;
}

static void cliDiffs_Free(cliDiffs* d)
{
	cliDiffs_Close(d);
	free(d->textBuffer);
	free(d->jsonBuffer);
	memset(d, 0, sizeof *d);
}

/* Start a difference: separators, and the JSON object up to its field. */
static void beginDiff(cliDiffs* d, const char* field)
{
	if (d->count++ > 0) {
		fputs("; ", d->text);
		putc(',', d->json);
	}
	fputs("{\"field\":", d->json);
	cliWriteJsonString(d->json, field);
}

/* End it: the message (what this difference added to the text line). */
static void endDiff(cliDiffs* d, long messageStart)
{
	fflush(d->text);
	fputs(",\"message\":", d->json);
	cliWriteJsonString(d->json, d->textBuffer + messageStart);
	putc('}', d->json);
}

/* "FIELD ACTUAL vs expected EXPECTED (MEASURE D > tol T)", or "FIELD
 * missing (expected EXPECTED)". */
static void addDiff(cliDiffs* d, const char* field, cliValue actual, cliValue expected, cliMeasure measure)
{
	beginDiff(d, field);
	fflush(d->text);
	long start = (long)d->textSize;
	fputs(field, d->text);
	if (actual.kind == cli_valueMissing) {
		fputs(" missing (expected ", d->text);
		writeValue(d->text, &expected, false);
		putc(')', d->text);
	} else {
		putc(' ', d->text);
		writeValue(d->text, &actual, false);
		fputs(" vs expected ", d->text);
		writeValue(d->text, &expected, false);
		if (measure.name != NULL) {
			fprintf(d->text, " (%s ", measure.name);
			cliWriteNumber(d->text, measure.value);
			fputs(" > tol ", d->text);
			cliWriteNumber(d->text, measure.tolerance);
			fprintf(d->text, "%s)", measure.unit);
		}
	}
	fputs(",\"actual\":", d->json);
	writeValue(d->json, &actual, true);
	fputs(",\"expected\":", d->json);
	writeValue(d->json, &expected, true);
	if (measure.name != NULL) {
		fputs(",\"difference\":", d->json);
		cliWriteNumber(d->json, measure.value);
		fputs(",\"tolerance\":", d->json);
		cliWriteNumber(d->json, measure.tolerance);
	}
	endDiff(d, start);
}

/* A difference told in words only. */
static void addNote(cliDiffs* d, const char* field, const char* message)
{
	beginDiff(d, field);
	fflush(d->text);
	long start = (long)d->textSize;
	fputs(message, d->text);
	endDiff(d, start);
}

/* ------------------------------------------------------------ comparing */

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

typedef struct cliComparer {
	const cliGradeConfig* cfg;
	const bcMesh* mesh; /* NULL without --mesh */
	cliCandidate* candidates;
	int capacity;
} cliComparer;

static bool sameVertices(const int32_t* a, int na, const int32_t* b, int nb)
{
	if (na != nb) {
		return false;
	}
	int32_t x[3];
	int32_t y[3];
	memcpy(x, a, (size_t)na * sizeof *x);
	memcpy(y, b, (size_t)nb * sizeof *y);
	/* as sets: an edge BA is the edge AB */
	for (int i = 0; i < na; ++i) {
		for (int j = i + 1; j < na; ++j) {
			if (x[j] < x[i]) {
				int32_t t = x[i];
				x[i] = x[j];
				x[j] = t;
			}
			if (y[j] < y[i]) {
				int32_t t = y[i];
				y[i] = y[j];
				y[j] = t;
			}
		}
	}
	return memcmp(x, y, (size_t)na * sizeof *x) == 0;
}

/* The angle between two directions in degrees, or -1 when one is zero.
 * atan2 of |a x b| and a.b is accurate at every angle (acos is not near 0). */
static double angleDegrees(bcVec3 a, bcVec3 b)
{
	if (bcLengthSquared(a) == 0.0 || bcLengthSquared(b) == 0.0) {
		return -1.0;
	}
	return atan2(bcLength(bcCross(a, b)), bcDot(a, b)) * CLI_DEGREES_PER_RADIAN;
}

/* Fill in what --mesh knows about a candidate's triangle. */
static void fromMesh(const bcMesh* mesh, cliCandidate* c)
{
	if (mesh == NULL || !(c->fields & cli_resultTriangle) || c->triangle < 0 ||
		c->triangle >= bcMesh_GetInfo(mesh).triangleCount) {
		return;
	}
	bcTriangle t = bcMesh_GetTriangle(mesh, c->triangle);
	if (!(c->fields & cli_resultFace)) {
		c->face = t.face;
		c->fields |= cli_resultFace;
	}
	if (!(c->fields & cli_resultTriangleNormal) && !t.degenerate) {
		c->triangleNormal = t.normal;
		c->fields |= cli_resultTriangleNormal;
	}
}

/* EXPECTED's contact and its ties as candidates; returns how many, or -1
 * when out of memory. */
static int buildCandidates(cliComparer* cmp, const cliResult* e)
{
	int ties = (e->fields & cli_resultTies) ? e->tieCount : 0;
	if (ties + 1 > cmp->capacity) {
		cliCandidate* grown = realloc(cmp->candidates, (size_t)(ties + 1) * sizeof *grown);
		if (grown == NULL) {
			return -1;
		}
		cmp->candidates = grown;
		cmp->capacity = ties + 1;
	}
	cliCandidate* own = cmp->candidates;
	memset(own, 0, sizeof *own);
	own->fields = e->fields & (cli_resultTriangle | cli_resultFeature | cli_resultVertices | cli_resultFace |
								cli_resultPoint | cli_resultNormal | cli_resultTriangleNormal);
	own->triangle = e->triangle;
	own->feature = e->feature;
	own->vertexCount = e->vertexCount;
	memcpy(own->vertices, e->vertices, sizeof own->vertices);
	own->face = e->face;
	own->point = e->point;
	own->normal = e->normal;
	own->triangleNormal = e->triangleNormal;
	fromMesh(cmp->mesh, own);

	/* Where the ball touches: every tied contact lies at the distance of
	 * EXPECTED's from the centre, along its own normal (not so for an
	 * initial overlap, where each triangle is at its own depth). */
	unsigned both = cli_resultPoint | cli_resultCenter;
	bool placeable = (e->fields & both) == both && !((e->fields & cli_resultInitialOverlap) && e->initialOverlap);
	double depth = placeable ? bcDistance(e->center, e->point) : 0.0;

	int count = 1;
	for (int i = 0; i < ties; ++i) {
		const cliTie* t = e->ties + i;
		cliCandidate* c = cmp->candidates + count;
		memset(c, 0, sizeof *c);
		c->fields = t->fields & (cli_resultTriangle | cli_resultFeature | cli_resultVertices | cli_resultNormal |
								 cli_resultTriangleNormal);
		c->triangle = t->triangle;
		c->feature = t->feature;
		c->vertexCount = t->vertexCount;
		memcpy(c->vertices, t->vertices, sizeof c->vertices);
		c->normal = t->normal;
		c->triangleNormal = t->triangleNormal;
		bool sameTriangle = (c->fields & cli_resultTriangle) && (own->fields & cli_resultTriangle) &&
							c->triangle == own->triangle;
		bool sameFeature = (c->fields & cli_resultFeature) && (own->fields & cli_resultFeature) &&
						   c->feature == own->feature;
		if (sameTriangle && sameFeature) {
			continue; /* EXPECTED's own contact, already there */
		}
		if (sameTriangle) {
			unsigned known = own->fields & (cli_resultFace | cli_resultTriangleNormal) & ~c->fields;
			c->fields |= known;
			c->face = own->face;
			if (known & cli_resultTriangleNormal) {
				c->triangleNormal = own->triangleNormal;
			}
		}
		fromMesh(cmp->mesh, c);
		if (placeable && (c->fields & cli_resultNormal) && bcLengthSquared(c->normal) > 0.0) {
			c->point = bcMulAdd(e->center, -depth, bcNormalize(c->normal));
			c->fields |= cli_resultPoint;
		}
		count++;
	}
	return count;
}

/* Does candidate c allow a's field (when both know it)? */
static bool allows(const cliCandidate* c, const cliResult* a, unsigned field)
{
	if (!(a->fields & field) || !(c->fields & field)) {
		return true;
	}
	switch (field) {
	case cli_resultTriangle:
		return a->triangle == c->triangle;
	case cli_resultFeature:
		return a->feature == c->feature;
	case cli_resultFace:
		return a->face == c->face;
	default:
		return sameVertices(a->vertices, a->vertexCount, c->vertices, c->vertexCount);
	}
}

static const unsigned contactFields[4] = { cli_resultFeature, cli_resultTriangle, cli_resultFace,
											cli_resultVertices };

static const char* fieldName(unsigned field)
{
	switch (field) {
	case cli_resultFeature:
		return "feature";
	case cli_resultTriangle:
		return "triangle";
	case cli_resultFace:
		return "face";
	case cli_resultPoint:
		return "point";
	case cli_resultNormal:
		return "normal";
	case cli_resultTriangleNormal:
		return "triangle_normal";
	default:
		return "vertices";
	}
}

static cliValue contactValue(const cliResult* a, const cliCandidate* c, unsigned field)
{
	switch (field) {
	case cli_resultFeature:
		return featureValue(a != NULL ? a->feature : c->feature);
	case cli_resultTriangle:
		return intValue(a != NULL ? a->triangle : c->triangle);
	case cli_resultFace:
		return intValue(a != NULL ? a->face : c->face);
	default:
		return a != NULL ? verticesValue(a->vertices, a->vertexCount) : verticesValue(c->vertices, c->vertexCount);
	}
}

/* Triangle, feature, face and vertices: some candidate must allow them all.
 * Marks in matched[] the candidates that do; returns how many (-1 when out
 * of memory). */
static int compareContact(cliDiffs* d, const cliCandidate* candidates, int count, const cliResult* a, bool* matched)
{
	int matches = 0;
	for (int i = 0; i < count; ++i) {
		matched[i] = true;
		for (int f = 0; f < 4; ++f) {
			matched[i] = matched[i] && allows(candidates + i, a, contactFields[f]);
		}
		matches += matched[i];
	}
	if (matches > 0) {
		return matches;
	}
	bool reported = false;
	for (int f = 0; f < 4; ++f) {
		unsigned field = contactFields[f];
		bool someAllow = false;
		for (int i = 0; i < count && !someAllow; ++i) {
			someAllow = allows(candidates + i, a, field);
		}
		if (!someAllow) {
			addDiff(d, fieldName(field), contactValue(a, NULL, field), contactValue(NULL, candidates, field),
					noMeasure);
			reported = true;
		}
	}
	if (!reported) {
		/* each field matches some tie, but no tie matches them all */
		char* message = NULL;
		size_t size = 0;
		FILE* f = open_memstream(&message, &size);
		if (f == NULL) {
			return -1;
		}
		fputs("contact (", f);
		const char* separator = "";
		for (int k = 0; k < 4; ++k) {
			unsigned field = contactFields[k];
			if (a->fields & field) {
				cliValue v = contactValue(a, NULL, field);
				fprintf(f, "%s%s ", separator, fieldName(field));
				writeValue(f, &v, false);
				separator = ", ";
			}
		}
		fprintf(f, ") is not one of the %d tied contacts", d->tieCount);
		bool ok = fclose(f) == 0;
		if (ok) {
			addNote(d, "contact", message);
		}
		free(message);
		return ok ? 0 : -1;
	}
	return 0;
}

/* The candidate value of a vector field, if known. */
static bool candidateVector(const cliCandidate* c, unsigned field, bcVec3* v)
{
	if (!(c->fields & field)) {
		return false;
	}
	*v = field == cli_resultPoint ? c->point : field == cli_resultNormal ? c->normal : c->triangleNormal;
	return true;
}

/* The nearest allowed value so far. */
typedef struct cliNearest {
	bool any;
	double measure;
	bcVec3 value;
} cliNearest;

static void consider(cliNearest* n, bool angular, bcVec3 actual, bcVec3 allowed)
{
	double m = angular ? angleDegrees(actual, allowed) : bcDistance(actual, allowed);
	if (m < 0.0) {
		return; /* a zero expected direction allows nothing */
	}
	if (!n->any || m < n->measure) {
		n->any = true;
		n->measure = m;
		n->value = allowed;
	}
}

/* A vector field of the actual record against the candidates in use
 * (matched ones, or all when none matched): the nearest must be within
 * tolerance. Not checked when a candidate in use does not know the field.
 * For the normal, with ties, every tied contact's normal and the triangle
 * normals of the candidates in use are allowed too. */
static void compareVector(const cliComparer* cmp, cliDiffs* d, int count, const bool* use, bool ties, unsigned field,
						  bcVec3 actual)
{
	const cliCandidate* candidates = cmp->candidates;
	bool angular = field != cli_resultPoint;
	int first = -1;
	bcVec3 v;
	for (int i = 0; i < count; ++i) {
		if (use[i] && !candidateVector(candidates + i, field, &v)) {
			return;
		}
		first = first < 0 && use[i] ? i : first;
	}
	if (first < 0) {
		return;
	}
	cliNearest nearest = { false, 0.0, { 0.0, 0.0, 0.0 } };
	for (int i = 0; i < count; ++i) {
		if (use[i] && candidateVector(candidates + i, field, &v)) {
			consider(&nearest, angular, actual, v);
		}
		if (field == cli_resultNormal && ties) {
			if (candidateVector(candidates + i, cli_resultNormal, &v)) {
				consider(&nearest, angular, actual, v);
			}
			if (use[i] && candidateVector(candidates + i, cli_resultTriangleNormal, &v)) {
				consider(&nearest, angular, actual, v);
			}
		}
	}
	if (angular && bcLengthSquared(actual) == 0.0) {
		/* no direction: no angle to measure */
		candidateVector(candidates + first, field, &v);
		addDiff(d, fieldName(field), vecValue(actual), vecValue(v), noMeasure);
		return;
	}
	double tolerance = angular ? cmp->cfg->normalTol : cmp->cfg->pointTol;
	if (!nearest.any || nearest.measure <= tolerance) {
		return;
	}
	cliMeasure measure = { angular ? "angle" : "distance", nearest.measure, tolerance, angular ? " degrees" : "" };
	addDiff(d, fieldName(field), vecValue(actual), vecValue(nearest.value), measure);
}

/* The value of field f of a result, for messages. */
static cliValue fieldValue(const cliResult* r, unsigned f)
{
	switch (f) {
	case cli_resultInitialOverlap:
		return boolValue(r->initialOverlap);
	case cli_resultFeature:
		return featureValue(r->feature);
	case cli_resultTriangle:
		return intValue(r->triangle);
	case cli_resultFace:
		return intValue(r->face);
	case cli_resultVertices:
		return verticesValue(r->vertices, r->vertexCount);
	case cli_resultPoint:
		return vecValue(r->point);
	case cli_resultCenter:
		return vecValue(r->center);
	case cli_resultNormal:
		return vecValue(r->normal);
	default:
		return vecValue(r->triangleNormal);
	}
}

static const char* anyFieldName(unsigned f)
{
	return f == cli_resultInitialOverlap ? "initial_overlap" : f == cli_resultCenter ? "center" : fieldName(f);
}

/* The fields graded in a record whose expected result is e. */
static unsigned gradedFields(const cliGradeConfig* cfg, const cliResult* e)
{
	unsigned graded = cfg->fields == CLI_FIELDS_ALL ? e->fields | cli_resultHit | cli_resultAlpha : cfg->fields;
	return graded & ~(unsigned)(cli_resultError | cli_resultTies | cli_resultP0 | cli_resultP1);
}

/* Compare one record; the differences go to d. Returns false when out of
 * memory. */
static bool compareRecord(cliComparer* cmp, cliDiffs* d, const cliResult* e, const cliResult* actual)
{
	const cliGradeConfig* cfg = cmp->cfg;
	if (actual->problem != NULL) {
		char message[sizeof ((bcError*)NULL)->message + 64];
		snprintf(message, sizeof message, "unreadable at %ld:%ld: %s", actual->problemLine, actual->problemColumn,
				 actual->problem);
		addNote(d, "record", message);
		return true;
	}
	bool expectError = (e->fields & cli_resultError) != 0;
	bool actualError = (actual->fields & cli_resultError) != 0;
	if (expectError || actualError) {
		if (expectError != actualError) {
			addDiff(d, "error", actualError ? textValue(actual->error) : valueOf(cli_valueNone),
					expectError ? textValue(e->error) : valueOf(cli_valueNone), noMeasure);
		}
		return true;
	}
	unsigned graded = gradedFields(cfg, e);
	cliResult copy = *actual;
	const cliResult* a = &copy;
	copy.fields &= graded;
	if (cfg->oneBased && (copy.fields & cli_resultTriangle)) {
		copy.triangle -= 1;
	}
	bool hitGraded = (graded & cli_resultHit) != 0;
	if (hitGraded && !(a->fields & cli_resultHit)) {
		addDiff(d, "hit", valueOf(cli_valueMissing), boolValue(e->hit), noMeasure);
	} else if (hitGraded && a->hit != e->hit) {
		addDiff(d, "hit", boolValue(a->hit), boolValue(e->hit), noMeasure);
	}
	if (!(graded & cli_resultAlpha)) {
		/* not graded */
	} else if (!(a->fields & cli_resultAlpha)) {
		addDiff(d, "alpha", valueOf(cli_valueMissing), numberValue(e->alpha), noMeasure);
	} else {
		double diff = fabs(a->alpha - e->alpha);
		double tolerance = fmax(cfg->alphaTol, cfg->alphaRel * fabs(e->alpha));
		if (!(diff <= tolerance)) {
			cliMeasure measure = { "diff", diff, tolerance, "" };
			addDiff(d, "alpha", numberValue(a->alpha), numberValue(e->alpha), measure);
		}
	}
	/* a miss is only hit and alpha; so is a hit answered as a miss */
	bool actualHit = (actual->fields & cli_resultHit) ? actual->hit : e->hit;
	if (!e->hit || !actualHit) {
		return true;
	}
	/* graded fields EXPECTED gives and the submission does not */
	static const unsigned others[] = { cli_resultInitialOverlap, cli_resultFeature, cli_resultTriangle,
									   cli_resultFace, cli_resultVertices, cli_resultPoint, cli_resultCenter,
									   cli_resultNormal, cli_resultTriangleNormal };
	for (size_t k = 0; k < sizeof others / sizeof others[0]; ++k) {
		unsigned f = others[k];
		if ((graded & f) && (e->fields & f) && !(a->fields & f)) {
			addDiff(d, anyFieldName(f), valueOf(cli_valueMissing), fieldValue(e, f), noMeasure);
		}
	}
	if ((a->fields & e->fields & cli_resultInitialOverlap) && a->initialOverlap != e->initialOverlap) {
		addDiff(d, "initial_overlap", boolValue(a->initialOverlap), boolValue(e->initialOverlap), noMeasure);
	}

	int count = buildCandidates(cmp, e);
	bool* matched = count > 0 ? malloc((size_t)count * sizeof *matched) : NULL;
	if (matched == NULL) {
		return false;
	}
	bool ties = count > 1;
	d->tieCount = (e->fields & cli_resultTies) ? e->tieCount : 0;
	int matches = compareContact(d, cmp->candidates, count, a, matched);
	if (matches < 0) {
		free(matched);
		return false;
	}
	if (matches == 0) {
		for (int i = 0; i < count; ++i) {
			matched[i] = true; /* nothing matched: judge the rest against them all */
		}
	}
	if (a->fields & cli_resultPoint) {
		compareVector(cmp, d, count, matched, ties, cli_resultPoint, a->point);
	}
	if ((a->fields & e->fields & cli_resultCenter)) {
		double distance = bcDistance(a->center, e->center);
		if (!(distance <= cfg->pointTol)) {
			cliMeasure measure = { "distance", distance, cfg->pointTol, "" };
			addDiff(d, "center", vecValue(a->center), vecValue(e->center), measure);
		}
	}
	if (a->fields & cli_resultNormal) {
		int before = d->count;
		compareVector(cmp, d, count, matched, ties, cli_resultNormal, a->normal);
		double length = bcLength(a->normal);
		double want = (e->fields & cli_resultNormal) ? bcLength(e->normal) : 1.0;
		if (d->count == before && length > 0.0 && !(fabs(length - want) <= CLI_NORMAL_LENGTH_TOLERANCE * want)) {
			char message[256] = "";
			FILE* f = fmemopen(message, sizeof message - 1, "w");
			if (f != NULL) {
				cliValue v = vecValue(a->normal);
				fputs("normal ", f);
				writeValue(f, &v, false);
				fputs(" is not a unit vector (length ", f);
				cliWriteNumber(f, length);
				putc(')', f);
				fclose(f);
			}
			addNote(d, "normal", message);
		}
	}
	if (a->fields & cli_resultTriangleNormal) {
		compareVector(cmp, d, count, matched, false, cli_resultTriangleNormal, a->triangleNormal);
	}
	free(matched);
	return true;
}

/* ------------------------------------------------------------ mistakes */

/* A mistake that changes only how an answer is written, replayed on e for
 * the submission's record a: true with *v. */
static bool replayWriting(const cliGradeConfig* cfg, const cliResult* e, const cliResult* a, cliMistake m,
						  cliResult* v)
{
	*v = *e;
	v->fields &= ~(unsigned)cli_resultTies; /* the mistaken answer, not its ties */
	v->tieCount = 0;
	v->ties = NULL;
	if (!e->hit) {
		return false;
	}
	switch (m) {
	case cli_mistakeTriangleNormal: {
		unsigned both = cli_resultNormal | cli_resultTriangleNormal;
		if ((e->fields & both) != both) {
			return false;
		}
		double angle = angleDegrees(e->normal, e->triangleNormal);
		if (angle > cfg->normalTol) {
			v->normal = e->triangleNormal; /* the triangle's normal for the contact's */
			return true;
		}
		unsigned places = cli_resultPoint | cli_resultCenter;
		bcVec3 contact = bcSub(e->center, e->point);
		if ((e->fields & places) != places || bcLengthSquared(contact) == 0.0 ||
			angleDegrees(contact, e->normal) <= cfg->normalTol) {
			return false;
		}
		v->normal = bcNormalize(contact); /* the contact's for the triangle's */
		return true;
	}
	case cli_mistakeNotNormalised: {
		double length = (a->fields & cli_resultNormal) ? bcLength(a->normal) : 0.0;
		if (!(e->fields & cli_resultNormal) || !(length > 0.0) ||
			fabs(length - 1.0) <= CLI_NORMAL_LENGTH_TOLERANCE) {
			return false;
		}
		v->normal = bcScale(length, e->normal);
		return true;
	}
	case cli_mistakeOneBased:
		if (!(e->fields & cli_resultTriangle) || cfg->oneBased) {
			return false;
		}
		v->triangle = e->triangle + 1;
		return true;
	default:
		return false;
	}
}

/* Which mistakes explain a failing record: bit m when the record passes
 * against the answer mistake m gives. Returns -1 when out of memory. */
static long explain(cliComparer* cmp, const cliResult* e, const cliResult* a)
{
	const cliGradeConfig* cfg = cmp->cfg;
	long explained = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		cliResult v;
		bool replayed = m == cli_mistakeTriangleNormal || m == cli_mistakeNotNormalised || m == cli_mistakeOneBased
							? replayWriting(cfg, e, a, (cliMistake)m, &v)
							: cfg->reanswer != NULL && cfg->reanswer(cfg->reanswerContext, e, (cliMistake)m, &v);
		if (!replayed) {
			continue;
		}
		cliDiffs d;
		bool ok = cliDiffs_Open(&d) && compareRecord(cmp, &d, &v, a);
		ok = cliDiffs_Close(&d) && ok;
		if (!ok) {
			cliDiffs_Free(&d);
			return -1;
		}
		explained |= d.count == 0 ? 1L << m : 0;
		cliDiffs_Free(&d);
	}
	return explained;
}

/* ------------------------------------------------------------ per file */

typedef struct cliFileScore {
	const char* name;
	long records;
	long passed;
	long failed;
	long missing;
	long extra;
	double score;
	char* diagnosis; /* owned: "larger-root (3 of 3 failing)", the reason a file is unreadable, or NULL */
} cliFileScore;

/* One line of a file's text report, in EXPECTED's order. */
typedef struct cliEntry {
	long expected;   /* index in EXPECTED */
	long actual;     /* index in the submission; -1 when missing there */
	bool failure;    /* a failing record (else a missing id) */
	bool diagnosable;
	long explained;  /* mistakes explaining it (bits) */
	char* text;      /* owned: what differs */
	char* json;      /* owned: the differences as JSON list elements */
} cliEntry;

typedef struct cliFileReport {
	cliFileScore score;
	cliEntry* entries;
	long entryCount;
	long entryCapacity;
	long order[cli_mistakeCount]; /* mistakes by how many failures they explain, less contradictions */
	long counts[cli_mistakeCount];
	long contradictions[cli_mistakeCount]; /* passing records the mistake would have failed */
	long diagnosed;
	int shown;    /* the mistakes named: order[0 .. shown) */
	long* passes; /* pairs: expected and actual index of passing records, the first CLI_DIAGNOSE_MAX */
	long passCount;
	FILE* extra; /* JSON: extra ids */
	char* extraBuffer;
	size_t extraSize;
	FILE* extraLines; /* text: extra ids */
	char* extraLinesBuffer;
	size_t extraLinesSize;
	bool* marks; /* or NULL: per submission record, true when it fails, is extra or repeats an id */
} cliFileReport;

static void cliFileReport_Free(cliFileReport* r)
{
	for (long i = 0; i < r->entryCount; ++i) {
		free(r->entries[i].text);
		free(r->entries[i].json);
	}
	free(r->entries);
	free(r->passes);
	if (r->extra != NULL) {
		fclose(r->extra);
	}
	if (r->extraLines != NULL) {
		fclose(r->extraLines);
	}
	free(r->extraBuffer);
	free(r->extraLinesBuffer);
	memset(r, 0, sizeof *r);
}

static bool cliFileReport_Open(cliFileReport* r, const char* name)
{
	memset(r, 0, sizeof *r);
	r->score.name = name;
	r->extra = open_memstream(&r->extraBuffer, &r->extraSize);
	r->extraLines = open_memstream(&r->extraLinesBuffer, &r->extraLinesSize);
	return r->extra != NULL && r->extraLines != NULL;
}

static bool cliFileReport_Finish(cliFileReport* r)
{
	bool ok = fclose(r->extra) == 0;
	ok = fclose(r->extraLines) == 0 && ok;
	r->extra = NULL;
	r->extraLines = NULL;
	return ok;
}

/* A new entry (NULL when out of memory); text and json are taken. */
static cliEntry* addEntry(cliFileReport* r, long expected, long actual, bool failure, char* text, char* json)
{
	if (r->entryCount == r->entryCapacity) {
		long grown = r->entryCapacity > 0 ? 2 * r->entryCapacity : 16;
		cliEntry* entries = realloc(r->entries, (size_t)grown * sizeof *entries);
		if (entries == NULL) {
			free(text);
			free(json);
			return NULL;
		}
		r->entries = entries;
		r->entryCapacity = grown;
	}
	cliEntry* entry = r->entries + r->entryCount++;
	memset(entry, 0, sizeof *entry);
	entry->expected = expected;
	entry->actual = actual;
	entry->failure = failure;
	entry->text = text;
	entry->json = json;
	if (failure) {
		r->score.failed += 1;
	} else {
		r->score.missing += 1;
	}
	return entry;
}

/* Take a closed cliDiffs' buffers as a failure entry. */
static cliEntry* addFailure(cliFileReport* r, long expected, long actual, cliDiffs* d)
{
	cliEntry* entry = addEntry(r, expected, actual, true, d->textBuffer, d->jsonBuffer);
	d->textBuffer = NULL;
	d->jsonBuffer = NULL;
	return entry;
}

/* How a mistake ranks: the failures it explains less the passes it
 * contradicts. */
static long rank(const cliFileReport* r, long m)
{
	return r->counts[m] - r->contradictions[m];
}

/* Would mistake m have answered e at all (so that a pass contradicts it)?
 * The mistakes replayed on how an answer is written need the record's own
 * field; the others always answer. */
static bool mistakeApplies(cliComparer* cmp, const cliResult* e, const cliResult* a, int m)
{
	if (m == cli_mistakeTriangleNormal || m == cli_mistakeNotNormalised || m == cli_mistakeOneBased) {
		cliResult v;
		return replayWriting(cmp->cfg, e, a, (cliMistake)m, &v);
	}
	return cmp->cfg->reanswer != NULL;
}

/* Name the mistakes: count what each explains, order them, and word the
 * best (at most three that explain something). */
static bool diagnose(cliComparer* cmp, const cliResultSet* expected, const cliResultSet* actual, cliFileReport* r)
{
	for (long i = 0; i < r->entryCount && r->diagnosed < CLI_DIAGNOSE_MAX; ++i) {
		cliEntry* entry = r->entries + i;
		if (!entry->diagnosable) {
			continue;
		}
		long explained = explain(cmp, expected->results + entry->expected, actual->results + entry->actual);
		if (explained < 0) {
			return false;
		}
		entry->explained = explained;
		r->diagnosed += 1;
		for (int m = 0; m < cli_mistakeCount; ++m) {
			r->counts[m] += (explained >> m) & 1;
		}
	}
	/* a mistake is less likely the more of the records the submission got
	 * right it would have got wrong */
	long any = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		any += r->counts[m];
	}
	for (long k = 0; any > 0 && k < r->passCount; ++k) {
		const cliResult* e = expected->results + r->passes[2 * k];
		const cliResult* a = actual->results + r->passes[2 * k + 1];
		long agreed = explain(cmp, e, a);
		if (agreed < 0) {
			return false;
		}
		for (int m = 0; m < cli_mistakeCount; ++m) {
			r->contradictions[m] += r->counts[m] > 0 && !((agreed >> m) & 1) && mistakeApplies(cmp, e, a, m);
		}
	}
	for (int m = 0; m < cli_mistakeCount; ++m) {
		r->order[m] = m;
		r->counts[m] = r->counts[m] - r->contradictions[m] > 0 ? r->counts[m] : 0;
	}
	for (int m = 1; m < cli_mistakeCount; ++m) {
		for (int k = m; k > 0 && rank(r, r->order[k]) > rank(r, r->order[k - 1]); --k) {
			long t = r->order[k];
			r->order[k] = r->order[k - 1];
			r->order[k - 1] = t;
		}
	}
	if (r->diagnosed == 0 || r->counts[r->order[0]] == 0) {
		return true;
	}
	/* shown: the best, then (up to three in all) the next best that explain
	 * failures those before them do not (a second mistake) */
	r->shown = 1;
	for (int k = 1; k < cli_mistakeCount && r->shown < 3; ++k) {
		long m = r->order[k];
		if (r->counts[m] == 0 || rank(r, m) <= 0) {
			continue;
		}
		long before = 0;
		for (int j = 0; j < r->shown; ++j) {
			before |= 1L << r->order[j];
		}
		bool more = false;
		for (long i = 0; i < r->entryCount && !more; ++i) {
			long x = r->entries[i].explained;
			more = ((x >> m) & 1) && !(x & before);
		}
		if (more) {
			r->order[k] = r->order[r->shown];
			r->order[r->shown++] = m;
		}
	}
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return false;
	}
	for (int k = 0; k < r->shown; ++k) {
		fprintf(f, "%s%s (%ld of %ld failing)", k > 0 ? ", " : "", cliMistakeNames[r->order[k]],
				r->counts[r->order[k]], r->diagnosed);
	}
	if (fclose(f) != 0) {
		free(text);
		return false;
	}
	r->score.diagnosis = text;
	return true;
}

/* The best-ranked mistake explaining an entry, or -1. */
static int entryMistake(const cliFileReport* r, const cliEntry* entry)
{
	for (int k = 0; k < r->shown; ++k) {
		if ((entry->explained >> r->order[k]) & 1) {
			return (int)r->order[k];
		}
	}
	return -1;
}

/* Compare one submission with EXPECTED. Returns false when out of memory. */
static bool compareFile(cliComparer* cmp, const cliResultSet* expected, const cliIdIndex* expectedIndex,
						const char* expectedName, const cliResultSet* actual, cliFileReport* r)
{
	cliIdIndex actualIndex;
	if (!cliIdIndex_Build(&actualIndex, actual)) {
		return false;
	}
	long extraCount = 0;
	long expectedIds = 0;
	r->score.records = actual->count;
	bool ok = true;
	for (long i = 0; i < expected->count && ok; ++i) {
		const cliResult* e = expected->results + i;
		if (expectedIndex->first[i] != i) {
			continue; /* a later occurrence: reported with the first */
		}
		expectedIds++;
		long j = cliIdIndex_Find(&actualIndex, expectedIndex, i);
		char message[256];
		long second = expectedIndex->duplicate[i];
		cliDiffs d;
		if (second >= 0) {
			snprintf(message, sizeof message, "duplicate id in %s (lines %ld and %ld)", expectedName, e->line,
					 expected->results[second].line);
			ok = cliDiffs_Open(&d);
			if (ok) {
				addNote(&d, "id", message);
				ok = cliDiffs_Close(&d) && addFailure(r, i, j, &d) != NULL;
			}
			cliDiffs_Free(&d);
			continue;
		}
		if (j < 0) {
			ok = addEntry(r, i, -1, false, NULL, NULL) != NULL;
			continue;
		}
		const cliResult* a = actual->results + j;
		ok = cliDiffs_Open(&d);
		bool duplicate = actualIndex.duplicate[j] >= 0;
		if (ok && duplicate) {
			snprintf(message, sizeof message, "duplicate id (lines %ld and %ld)", a->line,
					 actual->results[actualIndex.duplicate[j]].line);
			addNote(&d, "id", message);
		} else if (ok) {
			ok = compareRecord(cmp, &d, e, a);
		}
		ok = cliDiffs_Close(&d) && ok;
		if (ok && d.count > 0 && r->marks != NULL) {
			r->marks[j] = true;
		}
		if (ok && d.count > 0) {
			cliEntry* entry = addFailure(r, i, j, &d);
			ok = entry != NULL;
			if (ok) {
				entry->diagnosable = !duplicate && a->problem == NULL && !(e->fields & cli_resultError) &&
									 !(a->fields & cli_resultError);
			}
		} else if (ok) {
			r->score.passed += 1;
			if (r->passCount < CLI_DIAGNOSE_MAX) {
				if (r->passes == NULL) {
					r->passes = malloc(2 * CLI_DIAGNOSE_MAX * sizeof *r->passes);
					ok = r->passes != NULL;
				}
				if (ok) {
					r->passes[2 * r->passCount] = i;
					r->passes[2 * r->passCount + 1] = j;
					r->passCount += 1;
				}
			}
		}
		cliDiffs_Free(&d);
	}
	for (long j = 0; j < actual->count && ok; ++j) {
		const cliResult* a = actual->results + j;
		if (r->marks != NULL && actualIndex.first[j] != j) {
			r->marks[j] = true; /* a repeated id: the first fails with it */
		}
		if (actualIndex.first[j] != j || cliIdIndex_Find(expectedIndex, &actualIndex, j) >= 0) {
			continue;
		}
		if (r->marks != NULL) {
			r->marks[j] = true;
		}
		fprintf(r->extraLines, "%s: id ", r->score.name);
		cliWriteResultIdJson(r->extraLines, a);
		fputs(": extra\n", r->extraLines);
		if (extraCount++ > 0) {
			putc(',', r->extra);
		}
		cliWriteResultIdJson(r->extra, a);
		r->score.extra += 1;
	}
	cliIdIndex_Destroy(&actualIndex, actual->count);
	ok = ok && diagnose(cmp, expected, actual, r);
	/* With nothing expected, a file scores 1 unless it has extra ids. */
	r->score.score = expectedIds > 0 ? (double)r->score.passed / (double)expectedIds : (r->score.extra == 0 ? 1.0 : 0.0);
	return ok;
}

/* ------------------------------------------------------------ reports */

static void writeTextLines(FILE* f, const cliFileReport* r, const cliResultSet* expected)
{
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		fprintf(f, "%s: id ", r->score.name);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		if (!entry->failure) {
			fputs(": missing\n", f);
			continue;
		}
		fprintf(f, ": %s", entry->text);
		int m = entryMistake(r, entry);
		if (m >= 0) {
			fprintf(f, " [%s]", cliMistakeNames[m]);
		}
		putc('\n', f);
	}
	fwrite(r->extraLinesBuffer, 1, r->extraLinesSize, f);
	if (r->score.diagnosis != NULL) {
		fprintf(f, "%s: diagnosis: %s\n", r->score.name, r->score.diagnosis);
	}
}

static void writeJsonHeader(FILE* f, const cliGradeConfig* cfg, const char* expectedName, long expectedIds)
{
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"expected\":{\"file\":", f);
	cliWriteJsonString(f, expectedName);
	fputs(",\"ids\":", f);
	cliWriteInt(f, expectedIds);
	fputs("},\"tolerances\":{\"alpha\":", f);
	cliWriteNumber(f, cfg->alphaTol);
	fputs(",\"alpha_rel\":", f);
	cliWriteNumber(f, cfg->alphaRel);
	fputs(",\"normal_degrees\":", f);
	cliWriteNumber(f, cfg->normalTol);
	fputs(",\"point\":", f);
	cliWriteNumber(f, cfg->pointTol);
	fputs("},\n\"files\":[", f);
}

static void writeJsonCounts(FILE* f, const cliFileScore* s, bool first)
{
	fputs(first ? "\n{\"file\":" : ",\n{\"file\":", f);
	cliWriteJsonString(f, s->name);
	fputs(",\"records\":", f);
	cliWriteInt(f, s->records);
	fputs(",\"passed\":", f);
	cliWriteInt(f, s->passed);
	fputs(",\"failed\":", f);
	cliWriteInt(f, s->failed);
	fputs(",\"missing\":", f);
	cliWriteInt(f, s->missing);
	fputs(",\"extra\":", f);
	cliWriteInt(f, s->extra);
	fputs(",\"score\":", f);
	cliWriteNumber(f, s->score);
}

static void writeJsonFile(FILE* f, const cliFileReport* r, const cliResultSet* expected,
						  const cliResultSet* actual, bool first)
{
	writeJsonCounts(f, &r->score, first);
	fputs(",\"diagnosis\":[", f);
	for (int k = 0; k < r->shown; ++k) {
		fprintf(f, "%s{\"mistake\":\"%s\",\"explains\":%ld,\"of\":%ld,\"contradicted_by\":%ld}", k > 0 ? "," : "",
				cliMistakeNames[r->order[k]], r->counts[r->order[k]], r->diagnosed, r->contradictions[r->order[k]]);
	}
	fputs("],\"failures\":[", f);
	long n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		if (!entry->failure) {
			continue;
		}
		fputs(n++ > 0 ? ",{\"id\":" : "{\"id\":", f);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		fputs(",\"line\":", f);
		if (entry->actual >= 0) {
			cliWriteInt(f, actual->results[entry->actual].line);
		} else {
			fputs("null", f);
		}
		int m = entryMistake(r, entry);
		if (m >= 0) {
			fprintf(f, ",\"mistake\":\"%s\"", cliMistakeNames[m]);
		}
		fputs(",\"differences\":[", f);
		fputs(entry->json, f);
		fputs("]}", f);
	}
	fputs("],\"missing_ids\":[", f);
	n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		if (!r->entries[i].failure) {
			if (n++ > 0) {
				putc(',', f);
			}
			cliWriteResultIdJson(f, expected->results + r->entries[i].expected);
		}
	}
	fputs("],\"extra_ids\":[", f);
	fwrite(r->extraBuffer, 1, r->extraSize, f);
	fputs("]}", f);
}

/* An unreadable submission in the JSON report. */
static void writeJsonUnreadable(FILE* f, const cliFileScore* s, bool first)
{
	writeJsonCounts(f, s, first);
	fputs(",\"unreadable\":", f);
	cliWriteJsonString(f, s->diagnosis);
	fputs(",\"diagnosis\":[],\"failures\":[],\"missing_ids\":[],\"extra_ids\":[]}", f);
}

static int digitCount(long value)
{
	int n = 1;
	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

/* The score table, columns aligned: file left, counts right, score last. */
static void writeTextTable(FILE* f, const cliFileScore* scores, int count)
{
	static const char* const headers[4] = { "passed", "failed", "missing", "extra" };
	int fileWidth = 4;
	int widths[4];
	for (int k = 0; k < 4; ++k) {
		widths[k] = (int)strlen(headers[k]);
	}
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		int n = (int)strlen(s->name);
		fileWidth = n > fileWidth ? n : fileWidth;
		for (int k = 0; k < 4; ++k) {
			int w = digitCount(values[k]);
			widths[k] = w > widths[k] ? w : widths[k];
		}
	}
	fprintf(f, "%-*s", fileWidth, "file");
	for (int k = 0; k < 4; ++k) {
		fprintf(f, "  %*s", widths[k], headers[k]);
	}
	fputs("  score\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		fprintf(f, "%-*s", fileWidth, s->name);
		for (int k = 0; k < 4; ++k) {
			fprintf(f, "  %*ld", widths[k], values[k]);
		}
		fputs("  ", f);
		cliWriteNumber(f, s->score);
		putc('\n', f);
	}
}

static void writeCsvTable(FILE* f, const cliFileScore* scores, int count)
{
	fputs("file,records,passed,failed,missing,extra,score,diagnosis\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		cliWriteCsvField(f, s->name);
		fprintf(f, ",%ld,%ld,%ld,%ld,%ld,", s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		putc(',', f);
		cliWriteCsvField(f, s->diagnosis != NULL ? s->diagnosis : "");
		putc('\n', f);
	}
}

/* ------------------------------------------------------------ HTML */

/* Failing records pictured per file, at most; meshes drawn in them up to
 * this many triangles (beyond, the throw alone). */
#define CLI_HTML_PICTURES 25
#define CLI_HTML_MESH_TRIANGLES 20000
#define CLI_HTML_SIZE 220

static const cliColor htmlPath = { 31, 95, 191 };
static const cliColor htmlExpected = { 44, 160, 44 };
static const cliColor htmlActual = { 214, 39, 40 };
static const cliColor htmlText = { 0, 0, 0 };

/* Text for HTML (as for XML). */
static void writeHtmlText(FILE* f, const char* text)
{
	cliSvgWriteText(f, text);
}

/* A triangle and how far it is, for the painter's order. */
typedef struct cliPainted {
	int32_t triangle;
	double depth;
} cliPainted;

static int farthestFirst(const void* a, const void* b)
{
	const cliPainted* x = a;
	const cliPainted* y = b;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

/* The mesh of a thumbnail: each triangle whole, flat-shaded, painted from
 * the farthest centroid to the nearest (render's depth order, which cuts
 * triangles where they overlap, is for the full picture). */
static void drawSmallMesh(FILE* f, const bcMesh* mesh, const cliCamera* camera)
{
	int32_t count = bcMesh_GetInfo(mesh).triangleCount;
	cliPainted* order = malloc((size_t)(count > 0 ? count : 1) * sizeof *order);
	if (order == NULL) {
		return;
	}
	int32_t n = 0;
	for (int32_t i = 0; i < count; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		if (t.degenerate) {
			continue;
		}
		double depth = 0.0;
		for (int k = 0; k < 3; ++k) {
			depth += cliCamera_Project(camera, bcMesh_GetVertex(mesh, t.vertices[k])).depth;
		}
		order[n].triangle = i;
		order[n++].depth = depth;
	}
	qsort(order, (size_t)n, sizeof *order, farthestFirst);
	fputs("<g class=\"mesh\">\n", f);
	for (int32_t i = 0; i < n; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, order[i].triangle);
		cliFacing facing = cliCamera_Facing(camera, t.normal);
		cliColor c = cliShade(camera, t.normal, facing);
		fputs("<polygon points=\"", f);
		for (int k = 0; k < 3; ++k) {
			cliScreenPoint p = cliCamera_Project(camera, bcMesh_GetVertex(mesh, t.vertices[k]));
			if (k > 0) {
				putc(' ', f);
			}
			cliSvgWriteCoord(f, p.x);
			putc(',', f);
			cliSvgWriteCoord(f, p.y);
		}
		fprintf(f, "\" fill=\"#%02x%02x%02x\" stroke=\"#6e6a61\" stroke-width=\"0.5\"%s/>\n", c.r, c.g, c.b,
				facing == cli_facingBack ? " fill-opacity=\"0.35\"" : "");
	}
	fputs("</g>\n", f);
	free(order);
}

/* One throw as a small SVG: the mesh around it, the path, and the ball
 * where answer r puts it (hit and alpha; its normal from the contact). */
static void writeThrowPicture(FILE* f, const bcMesh* mesh, bcCastInput in, const cliResult* r, const char* title,
							  cliColor color)
{
	char* text = NULL;
	size_t size = 0;
	FILE* m = open_memstream(&text, &size);
	if (m == NULL) {
		return;
	}
	bcVec3 d = bcSub(in.p1, in.p0);
	bcVec3 lower = { fmin(in.p0.x, in.p1.x) - in.radius, fmin(in.p0.y, in.p1.y) - in.radius,
					 fmin(in.p0.z, in.p1.z) - in.radius };
	bcVec3 upper = { fmax(in.p0.x, in.p1.x) + in.radius, fmax(in.p0.y, in.p1.y) + in.radius,
					 fmax(in.p0.z, in.p1.z) + in.radius };
	bool drawMesh = mesh != NULL && bcMesh_GetInfo(mesh).triangleCount <= CLI_HTML_MESH_TRIANGLES;
	if (drawMesh) {
		/* the whole mesh in view: a triangle far larger than the picture
		 * would be cut into many pieces to be drawn in depth order */
		bcMeshInfo info = bcMesh_GetInfo(mesh);
		lower = bcMakeVec3(fmin(lower.x, info.lowerBound.x), fmin(lower.y, info.lowerBound.y),
						   fmin(lower.z, info.lowerBound.z));
		upper = bcMakeVec3(fmax(upper.x, info.upperBound.x), fmax(upper.y, info.upperBound.y),
						   fmax(upper.z, info.upperBound.z));
	}
	cliCamera camera = cliCamera_FromAngles(CLI_SVG_DEFAULT_AZIMUTH, CLI_SVG_DEFAULT_ELEVATION);
	cliViewport viewport = { 8.0, 22.0, CLI_HTML_SIZE - 8.0, CLI_HTML_SIZE - 8.0 };
	cliCamera_Frame(&camera, lower, upper, viewport);
	cliSvg svg;
	cliSvg_Begin(&svg, m, CLI_HTML_SIZE, CLI_HTML_SIZE, NULL);
	if (drawMesh) {
		drawSmallMesh(m, mesh, &camera);
	}
	bool hit = (r->fields & cli_resultHit) && r->hit && (r->fields & cli_resultAlpha) && isfinite(r->alpha);
	cliScreenPoint p0 = cliCamera_Project(&camera, in.p0);
	cliScreenPoint p1 = cliCamera_Project(&camera, in.p1);
	if (hit) {
		bcVec3 centre = bcMulAdd(in.p0, r->alpha, d);
		cliScreenPoint c = cliCamera_Project(&camera, centre);
		cliSvg_Line(&svg, "path", p0, c, htmlPath, 1.5, false);
		cliSvg_Line(&svg, "after", c, p1, htmlPath, 1.5, true);
		cliSvg_Circle(&svg, "ball", c, fmin(camera.scale * in.radius, CLI_SVG_MAX_RADIUS), color, false, 1.5);
		if ((r->fields & cli_resultNormal) && bcLengthSquared(r->normal) > 0.0) {
			bcVec3 n = bcNormalize(r->normal);
			bcVec3 point = bcMulAdd(centre, -in.radius, n);
			bcVec3 tip = bcMulAdd(point, 30.0 / camera.scale, n);
			cliScreenPoint at = cliCamera_Project(&camera, point);
			cliSvg_Arrow(&svg, "normal", at, cliCamera_Project(&camera, tip), color, 1.0);
			cliSvg_Circle(&svg, "contact", at, 3.5, color, true, 0.0);
		}
	} else {
		cliSvg_Line(&svg, "path", p0, p1, htmlPath, 1.5, false);
	}
	cliSvg_Circle(&svg, "start", p0, 2.5, htmlPath, true, 0.0);
	cliSvg_Text(&svg, "title", 6.0, 14.0, 12.0, htmlText, title);
	cliSvg_End(&svg);
	if (fclose(m) == 0 && text != NULL) {
		const char* start = strstr(text, "<svg");
		if (start != NULL) {
			fputs(start, f);
		}
	}
	free(text);
}

/* A file's section of the HTML page: its failing records, each with the
 * reason and (when the throw is known) expected beside actual. */
static void writeHtmlSection(FILE* f, const cliGradeConfig* cfg, const cliFileReport* r, const cliResultSet* expected,
							 const cliResultSet* actual)
{
	fputs("<section class=\"file\"><h2>", f);
	writeHtmlText(f, r->score.name);
	fputs("</h2>\n", f);
	if (r->score.diagnosis != NULL) {
		fputs("<p class=\"diagnosis\">diagnosis: ", f);
		writeHtmlText(f, r->score.diagnosis);
		fputs("</p>\n", f);
	}
	long pictured = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		const cliResult* e = expected->results + entry->expected;
		char* id = NULL;
		size_t idSize = 0;
		FILE* idStream = open_memstream(&id, &idSize);
		if (idStream == NULL) {
			continue;
		}
		cliWriteResultIdJson(idStream, e);
		fclose(idStream);
		fputs("<div class=\"record\"><p class=\"reason\">id ", f);
		writeHtmlText(f, id != NULL ? id : "");
		fputs(": ", f);
		if (!entry->failure) {
			fputs("missing", f);
		} else {
			writeHtmlText(f, entry->text);
			int m = entryMistake(r, entry);
			if (m >= 0) {
				fprintf(f, " [%s]", cliMistakeNames[m]);
			}
		}
		fputs("</p>", f);
		bcCastInput in;
		if (entry->failure && entry->actual >= 0 && pictured < CLI_HTML_PICTURES && cfg->throwOf != NULL &&
			cfg->throwOf(cfg->reanswerContext, e, &in)) {
			pictured++;
			writeThrowPicture(f, cfg->mesh, in, e, "expected", htmlExpected);
			writeThrowPicture(f, cfg->mesh, in, actual->results + entry->actual, "actual", htmlActual);
		}
		fputs("</div>\n", f);
		free(id);
	}
	fputs("</section>\n", f);
}

static void writeHtmlPage(FILE* f, const char* expectedName, const cliFileScore* scores, int count,
						  const char* sections, size_t sectionsSize)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Grades: ", f);
	writeHtmlText(f, expectedName);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; margin: 1.5em; }\n"
		  "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; }\n"
		  "td.n { text-align: right; } tr.fails td { background: #fdecea; }\n"
		  ".record svg { border: 1px solid #ddd; margin: 0 0.5em 0.5em 0; }\n"
		  ".reason { font-family: monospace; }\n</style></head>\n<body>\n<h1>Grades against ", f);
	writeHtmlText(f, expectedName);
	fputs(" (ballcast " BC_VERSION_STRING ")</h1>\n<table id=\"grades\">\n<tr><th>file</th><th>records</th>"
		  "<th>passed</th><th>failed</th><th>missing</th><th>extra</th><th>score</th><th>diagnosis</th></tr>\n",
		  f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		bool fails = s->failed + s->missing + s->extra > 0;
		fprintf(f, "<tr class=\"submission%s\"><td>", fails ? " fails" : "");
		writeHtmlText(f, s->name);
		fprintf(f, "</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td>"
				   "<td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">",
				s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		fputs("</td><td>", f);
		writeHtmlText(f, s->diagnosis != NULL ? s->diagnosis : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	fwrite(sections, 1, sectionsSize, f);
	fputs("</body></html>\n", f);
}

/* ------------------------------------------------------------ the run */

void cliGradeConfig_Init(cliGradeConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->alphaTol = CLI_ALPHA_TOLERANCE;
	cfg->alphaRel = CLI_ALPHA_RELATIVE;
	cfg->normalTol = CLI_NORMAL_TOLERANCE;
	cfg->pointTol = CLI_POINT_TOLERANCE;
	cfg->fields = CLI_FIELDS_ALL;
	cfg->report = cli_reportText;
}

void cliGradeConfig_Free(cliGradeConfig* cfg)
{
	for (int k = 0; k < 2 * cfg->mapCount; ++k) {
		free((char*)cfg->map[k]);
	}
	cfg->mapCount = 0;
}

const char* cliGradeOption(cliGradeConfig* cfg, int k, const char* value)
{
	static const char* const problems[] = {
		"--alpha-tol needs a finite number >= 0, not",
		"--alpha-rel needs a finite number >= 0, not",
		"--normal-tol needs a finite number of degrees >= 0, not",
		"--point-tol needs a finite number >= 0, not",
	};
	double* tolerances[] = { &cfg->alphaTol, &cfg->alphaRel, &cfg->normalTol, &cfg->pointTol };
	if (k < 4) {
		return cliParseNonNegative(value, tolerances[k]) ? NULL : problems[k];
	}
	switch (k) {
	case 4: {
		const char* bad = NULL;
		size_t length = 0;
		return cliParseFields(value, &cfg->fields, &bad, &length) ? NULL
			   : "--fields takes hit, alpha, initial_overlap, feature, triangle, face, vertices, point, center, "
				 "normal, triangle_normal or all, not";
	}
	case 5:
		cfg->oneBased = true;
		return NULL;
	case 6: {
		const char* equals = strchr(value, '=');
		if (equals == NULL || equals == value || equals[1] == '\0') {
			return "--map takes THEIRS=OURS (a key or column of theirs, the field it is), not";
		}
		if (cfg->mapCount == CLI_MAP_MAX) {
			return "--map is given too often (at most 32), at";
		}
		char* theirs = cliCopyText(value, (size_t)(equals - value));
		char* ours = cliCopyText(equals + 1, strlen(equals + 1));
		if (theirs == NULL || ours == NULL) {
			free(theirs);
			free(ours);
			return "out of memory at";
		}
		cfg->map[2 * cfg->mapCount] = theirs;
		cfg->map[2 * cfg->mapCount + 1] = ours;
		cfg->mapCount += 1;
		return NULL;
	}
	default:
		return cliParseReportFormat(value, &cfg->report) ? NULL : "--report is text, json, csv or html, not";
	}
}

bool cliParseReportFormat(const char* text, cliReportFormat* report)
{
	static const char* const reports[] = { "text", "json", "csv", "html" };
	for (int k = 0; k < 4; ++k) {
		if (strcmp(text, reports[k]) == 0) {
			*report = (cliReportFormat)k;
			return true;
		}
	}
	return false;
}

bool cliParseFields(const char* list, unsigned* fields, const char** bad, size_t* badLength)
{
	static const struct {
		const char* name;
		unsigned field;
	} names[] = {
		{ "hit", cli_resultHit },       { "alpha", cli_resultAlpha },         { "t", cli_resultAlpha },
		{ "time", cli_resultAlpha },    { "initial_overlap", cli_resultInitialOverlap },
		{ "feature", cli_resultFeature }, { "triangle", cli_resultTriangle }, { "face", cli_resultFace },
		{ "vertices", cli_resultVertices }, { "point", cli_resultPoint },    { "center", cli_resultCenter },
		{ "normal", cli_resultNormal }, { "n", cli_resultNormal },           { "triangle_normal", cli_resultTriangleNormal },
	};
	unsigned out = 0;
	const char* p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		bool known = false;
		if (n == 3 && strncmp(p, "all", 3) == 0) {
			out = CLI_FIELDS_ALL;
			known = true;
		}
		for (size_t k = 0; k < sizeof names / sizeof names[0] && !known; ++k) {
			if (strlen(names[k].name) == n && strncmp(p, names[k].name, n) == 0) {
				out |= names[k].field;
				known = true;
			}
		}
		if (!known) {
			*bad = p;
			*badLength = n;
			return false;
		}
		if (p[n] == '\0') {
			break;
		}
		p += n + 1;
	}
	*fields = out;
	return true;
}

bool cliGrade_Judge(const cliGradeConfig* cfg, const cliResultSet* expected, const cliResultSet* actual, bool* fails,
					cliGradeCounts* counts)
{
	memset(counts, 0, sizeof *counts);
	for (long j = 0; j < actual->count; ++j) {
		fails[j] = false;
	}
	cliIdIndex expectedIndex;
	if (!cliIdIndex_Build(&expectedIndex, expected)) {
		return false;
	}
	cliComparer cmp = { cfg, cfg->mesh, NULL, 0 };
	cliFileReport r;
	bool ok = cliFileReport_Open(&r, "");
	r.marks = fails;
	ok = ok && compareFile(&cmp, expected, &expectedIndex, "", actual, &r);
	ok = ok && cliFileReport_Finish(&r);
	if (ok) {
		counts->passed = r.score.passed;
		counts->failed = r.score.failed;
		counts->missing = r.score.missing;
		counts->extra = r.score.extra;
	}
	free(r.score.diagnosis);
	cliFileReport_Free(&r);
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	return ok;
}

bool cliGrade_CheckExpected(const char* name, const cliResultSet* set)
{
	for (long i = 0; i < set->count; ++i) {
		const cliResult* e = set->results + i;
		if (e->fields & cli_resultError) {
			continue;
		}
		const char* lacking = !(e->fields & cli_resultHit) ? "hit" : !(e->fields & cli_resultAlpha) ? "alpha" : NULL;
		if (lacking != NULL) {
			bcError error = { 0 };
			error.code = bc_errorSyntax;
			error.line = e->line;
			error.column = e->column;
			snprintf(error.message, sizeof error.message, "an expected result needs \"%s\" (or \"error\")", lacking);
			cliReportError(name, &error);
			return false;
		}
	}
	return true;
}

/* Read one submission as it is: false (and *reason, owned) when it cannot
 * be read at all. */
static bool readSubmission(const cliGradeConfig* cfg, const char* path, cliResultSet* set, char** reason)
{
	*reason = NULL;
	memset(set, 0, sizeof *set);
	FILE* f = cliOpenInput(path, cfg->quiet);
	bcError error = { 0 };
	if (f == NULL) {
		snprintf(error.message, sizeof error.message, "cannot open: %s", strerror(errno));
	} else {
		cliResultsReadOptions options = { true, cfg->fields, cfg->map, cfg->mapCount };
		bool ok = cliReadResultsWith(f, &options, set, &error);
		cliCloseInput(f);
		if (ok) {
			if (set->ignored != NULL && !cfg->quiet) {
				fprintf(stderr, "ballcast: %s: ignored %s (not known; --map THEIRS=OURS reads one): %s\n",
						cliInputName(path), set->format == cli_inputCsv ? "columns" : "keys", set->ignored);
			}
			return true;
		}
		cliReportError(cliInputName(path), &error);
	}
	char text[sizeof error.message + 64];
	if (error.line > 0) {
		snprintf(text, sizeof text, "unreadable: %ld:%ld: %s", error.line, error.column, error.message);
	} else {
		snprintf(text, sizeof text, "unreadable: %s", error.message);
	}
	*reason = cliCopyText(text, strlen(text));
	return false;
}

int cliGrade_Run(const cliGradeConfig* cfg, const char* expectedName, const cliResultSet* expected,
				 char* const* paths, int count)
{
	cliIdIndex expectedIndex;
	if (!cliIdIndex_Build(&expectedIndex, expected)) {
		fputs("ballcast: out of memory\n", stderr);
		return cli_exitTrouble;
	}
	cliOutput output;
	bool quiet = cfg->quiet;
	FILE* out = NULL;
	if (!quiet) {
		if (!cliOutput_Open(&output, cfg->outputPath)) {
			cliIdIndex_Destroy(&expectedIndex, expected->count);
			return cli_exitTrouble;
		}
		out = output.stream;
	}
	cliFileScore* scores = calloc((size_t)(count > 0 ? count : 1), sizeof *scores);
	cliComparer cmp = { cfg, cfg->mesh, NULL, 0 };
	bool ok = scores != NULL;
	bool differ = false;
	long expectedIds = 0;
	for (long i = 0; i < expected->count; ++i) {
		expectedIds += expectedIndex.first[i] == i;
	}
	if (ok && !quiet && cfg->report == cli_reportJson) {
		writeJsonHeader(out, cfg, expectedName, expectedIds);
	}
	char* sections = NULL;
	size_t sectionsSize = 0;
	FILE* html = NULL;
	if (ok && !quiet && cfg->report == cli_reportHtml) {
		html = open_memstream(&sections, &sectionsSize);
		ok = html != NULL;
	}
	for (int k = 0; k < count && ok; ++k) {
		const char* name = cliInputName(paths[k]);
		cliResultSet actual;
		char* reason = NULL;
		if (!readSubmission(cfg, paths[k], &actual, &reason)) {
			scores[k].name = name;
			scores[k].missing = expectedIds;
			scores[k].diagnosis = reason;
			differ = true;
			if (!quiet && cfg->report == cli_reportText) {
				fprintf(out, "%s: %s\n", name, reason != NULL ? reason : "unreadable");
			} else if (!quiet && cfg->report == cli_reportJson) {
				writeJsonUnreadable(out, scores + k, k == 0);
			} else if (html != NULL) {
				fputs("<section class=\"file\"><h2>", html);
				writeHtmlText(html, name);
				fputs("</h2><p class=\"reason\">", html);
				writeHtmlText(html, reason != NULL ? reason : "unreadable");
				fputs("</p></section>\n", html);
			}
			continue;
		}
		cliFileReport r;
		ok = cliFileReport_Open(&r, name);
		ok = ok && compareFile(&cmp, expected, &expectedIndex, expectedName, &actual, &r);
		ok = ok && cliFileReport_Finish(&r);
		if (ok) {
			differ = differ || r.score.failed > 0 || r.score.missing > 0 || r.score.extra > 0;
			if (!quiet && cfg->report == cli_reportText) {
				writeTextLines(out, &r, expected);
			} else if (!quiet && cfg->report == cli_reportJson) {
				writeJsonFile(out, &r, expected, &actual, k == 0);
			} else if (html != NULL && r.entryCount > 0) {
				writeHtmlSection(html, cfg, &r, expected, &actual);
			}
			scores[k] = r.score;
			r.score.diagnosis = NULL; /* kept in scores */
		}
		free(r.score.diagnosis);
		cliFileReport_Free(&r);
		cliResultSet_Free(&actual);
	}
	free(cmp.candidates);
	cliIdIndex_Destroy(&expectedIndex, expected->count);
	int status = differ ? cli_exitRecords : cli_exitOk;
	if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
		status = cli_exitTrouble;
	} else if (!quiet) {
		if (cfg->report == cli_reportJson) {
			fputs(count > 0 ? "\n]}\n" : "]}\n", out);
		} else if (cfg->report == cli_reportCsv) {
			writeCsvTable(out, scores, count);
		} else if (cfg->report == cli_reportHtml) {
			ok = fclose(html) == 0;
			html = NULL;
			if (ok) {
				writeHtmlPage(out, expectedName, scores, count, sections, sectionsSize);
			} else {
				fputs("ballcast: out of memory\n", stderr);
				status = cli_exitTrouble;
			}
		} else if (count == 1) {
			fprintf(out, "%ld passed, %ld failed, %ld missing, %ld extra\n", scores[0].passed, scores[0].failed,
					scores[0].missing, scores[0].extra);
		} else {
			writeTextTable(out, scores, count);
		}
	}
	if (html != NULL) {
		fclose(html);
	}
	free(sections);
	for (int k = 0; scores != NULL && k < count; ++k) {
		free(scores[k].diagnosis);
	}
	free(scores);
	if (!quiet && status == cli_exitTrouble) {
		cliOutput_Abort(&output);
	} else if (!quiet && !cliOutput_Commit(&output)) {
		status = cli_exitTrouble;
	}
	return status;
}
