/* grade_judge.c - judging one record (grade_judge.h): a submission's
 * result against the expected one, field by field, with tolerances and
 * ties; what differs as plain data, one cliDiff per field. */
#include "grade_judge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Degrees in a radian, for the angle between normals. */
#define CLI_DEGREES_PER_RADIAN (180.0 / 3.14159265358979323846)

/* ------------------------------------------------------------ values */

static cliValue boolValue(bool flag)
{
	cliValue v = { .kind = cli_valueBool, .flag = flag };
	return v;
}

static cliValue intValue(long long integer)
{
	cliValue v = { .kind = cli_valueInt, .integer = integer };
	return v;
}

static cliValue numberValue(double number)
{
	cliValue v = { .kind = cli_valueNumber, .number = number };
	return v;
}

static cliValue featureValue(bcFeature feature)
{
	cliValue v = { .kind = cli_valueName, .text = bcFeatureName(feature) };
	return v;
}

/* An error's text, or null for no error. */
static cliValue errorValue(const cliResult* r)
{
	cliValue v = { .kind = (r->fields & cli_resultError) ? cli_valueText : cli_valueNull, .text = r->error };
	return v;
}

static cliValue vec3Value(bcVec3 vec)
{
	cliValue v = { .kind = cli_valueVec3, .vec = vec };
	return v;
}

static cliValue intsValue(const int32_t* items, int count)
{
	cliValue v = { .kind = cli_valueInts, .count = count < 3 ? count : 3 };
	memcpy(v.ints, items, (size_t)v.count * sizeof *items);
	return v;
}

static const cliValue absent = { .kind = cli_valueAbsent };

/* A measured difference: "(diff 0.005 > tol 1e-09)". */
typedef struct cliMeasure {
	const char* name; /* "diff", "distance", "angle"; NULL for none */
	double value;
	double tolerance;
	const char* unit; /* "" or " degrees" */
} cliMeasure;

static const cliMeasure noMeasure = { NULL, 0.0, 0.0, "" };

/* ------------------------------------------------------------ differences */

void cliDiffs_Add(cliDiffs* d, const cliDiff* diff)
{
	if (d->count == d->capacity) {
		int grown = d->capacity > 0 ? 2 * d->capacity : 4;
		cliDiff* items = realloc(d->items, (size_t)grown * sizeof *items);
		if (items == NULL) {
			d->failed = true;
			return;
		}
		d->items = items;
		d->capacity = grown;
	}
	d->items[d->count++] = *diff;
}

void cliDiffs_Free(cliDiffs* d)
{
	free(d->items);
	memset(d, 0, sizeof *d);
}

/* FIELD: ACTUAL vs EXPECTED (by MEASURE beyond tolerance), or missing when
 * actual is absent. */
static void addDiff(cliDiffs* d, const char* field, cliValue actual, cliValue expected, cliMeasure measure)
{
	cliDiff diff = { .reason = cli_diffValue, .field = field, .actual = actual, .expected = expected };
	diff.measure = measure.name;
	diff.difference = measure.value;
	diff.tolerance = measure.tolerance;
	diff.unit = measure.unit;
	cliDiffs_Add(d, &diff);
}

/* ------------------------------------------------------------ comparing */


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
double cliAngleDegrees(bcVec3 a, bcVec3 b)
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

/* Does candidate c allow a's field? A field the submission does not give
 * is not checked, nor one the candidate does not know, but for the face: a
 * tie on another triangle has no known face without the mesh, so a face
 * matches it only with its triangle (a submission that gives no triangle,
 * or another, cannot borrow the tie's unknown face). */
static bool allows(const cliCandidate* c, const cliResult* a, unsigned field)
{
	if (!(a->fields & field)) {
		return true;
	}
	if (!(c->fields & field)) {
		return field != cli_resultFace ||
			   ((a->fields & c->fields & cli_resultTriangle) && a->triangle == c->triangle);
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
		return a != NULL ? intsValue(a->vertices, a->vertexCount) : intsValue(c->vertices, c->vertexCount);
	}
}

/* Triangle, feature, face and vertices: some candidate must allow them all.
 * Marks in matched[] the candidates that do; returns how many (ties: how
 * many EXPECTED lists, for the difference). */
static int compareContact(cliDiffs* d, const cliCandidate* candidates, int count, int ties, const cliResult* a,
						  bool* matched)
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
		cliDiff diff = { .reason = cli_diffNotTied, .field = "contact", .ties = ties };
		cliContactValues* c = &diff.contact;
		c->fields = a->fields & (cli_resultFeature | cli_resultTriangle | cli_resultFace | cli_resultVertices);
		c->feature = a->feature;
		c->triangle = a->triangle;
		c->face = a->face;
		c->vertexCount = a->vertexCount < 3 ? a->vertexCount : 3;
		memcpy(c->vertices, a->vertices, sizeof c->vertices);
		cliDiffs_Add(d, &diff);
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
	double m = angular ? cliAngleDegrees(actual, allowed) : bcDistance(actual, allowed);
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
 * (The normal has its convention: compareNormal.) */
static void compareVector(const cliComparer* cmp, cliDiffs* d, int count, const bool* use, unsigned field,
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
	}
	if (angular && bcLengthSquared(actual) == 0.0) {
		/* no direction: no angle to measure */
		candidateVector(candidates + first, field, &v);
		addDiff(d, fieldName(field), vec3Value(actual), vec3Value(v), noMeasure);
		return;
	}
	double tolerance = angular ? cmp->cfg->normalTol : cmp->cfg->pointTol;
	if (!nearest.any || nearest.measure <= tolerance) {
		return;
	}
	cliMeasure measure = { angular ? "angle" : "distance", nearest.measure, tolerance, angular ? " degrees" : "" };
	addDiff(d, fieldName(field), vec3Value(actual), vec3Value(nearest.value), measure);
}

/* The contact normal of EXPECTED's own contact: its normal under the
 * contact convention, else the tie that is its contact, else the direction
 * from the contact point to the centre. */
static bool ownContactNormal(const cliComparer* cmp, const cliResult* e, bcVec3* v)
{
	if (cmp->cfg->normalConvention == cli_normalsContact) {
		*v = e->normal;
		return true;
	}
	for (int i = 0; (e->fields & cli_resultTies) && i < e->tieCount; ++i) {
		const cliTie* t = e->ties + i;
		unsigned need = cli_resultTriangle | cli_resultFeature | cli_resultNormal;
		if ((t->fields & need) == need && (e->fields & cli_resultTriangle) && t->triangle == e->triangle &&
			(!(e->fields & cli_resultFeature) || t->feature == e->feature)) {
			*v = t->normal;
			return true;
		}
	}
	unsigned places = cli_resultPoint | cli_resultCenter;
	bcVec3 towards = bcSub(e->center, e->point);
	if ((e->fields & places) != places || bcLengthSquared(towards) == 0.0) {
		return false;
	}
	*v = bcNormalize(towards);
	return true;
}

bool cliComparer_OwnNormal(const cliComparer* cmp, const cliResult* e, unsigned convention, bcVec3* v)
{
	if (convention == cli_normalsContact) {
		return ownContactNormal(cmp, e, v);
	}
	if (convention != cli_normalsTriangle) {
		return false;
	}
	if (e->fields & cli_resultTriangleNormal) {
		*v = e->triangleNormal;
		return true;
	}
	cliCandidate c;
	memset(&c, 0, sizeof c);
	c.fields = e->fields & cli_resultTriangle;
	c.triangle = e->triangle;
	fromMesh(cmp->mesh, &c);
	*v = c.triangleNormal;
	return (c.fields & cli_resultTriangleNormal) != 0;
}

/* The average of the triangle normals of the tied triangles (each
 * triangle once), as cast --normal average computes it; false when a
 * candidate's triangle normal is not known. */
static bool averageOfCandidates(const cliCandidate* c, int count, bcVec3* v)
{
	bcVec3 sum = { 0.0, 0.0, 0.0 };
	for (int i = 0; i < count; ++i) {
		if (!(c[i].fields & cli_resultTriangleNormal)) {
			return false;
		}
		bool seen = false;
		for (int j = 0; j < i && !seen; ++j) {
			seen = (c[i].fields & c[j].fields & cli_resultTriangle) && c[i].triangle == c[j].triangle;
		}
		sum = seen ? sum : bcAdd(sum, c[i].triangleNormal);
	}
	if (!(bcLengthSquared(sum) > 0.0)) {
		return false;
	}
	*v = bcNormalize(sum);
	return true;
}

/* The normals convention (one cli_normals* bit) allows for EXPECTED's
 * contact and its ties (candidates[0] is EXPECTED's own), considered in n.
 * EXPECTED's normal is its convention's answer; ties widen the set only to
 * the normals of that convention for the tied contacts. */
static void considerConvention(const cliComparer* cmp, const cliResult* e, int count, unsigned convention,
							   bcVec3 actual, cliNearest* n)
{
	const cliCandidate* c = cmp->candidates;
	bool own = convention == cmp->cfg->normalConvention;
	bcVec3 v;
	if (own) {
		consider(n, true, actual, e->normal);
	}
	switch (convention) {
	case cli_normalsContact:
		if (!own && ownContactNormal(cmp, e, &v)) {
			consider(n, true, actual, v);
		}
		for (int i = 1; i < count; ++i) {
			if (c[i].fields & cli_resultNormal) {
				consider(n, true, actual, c[i].normal);
			}
		}
		break;
	case cli_normalsTriangle:
		for (int i = own ? 1 : 0; i < count; ++i) {
			if (c[i].fields & cli_resultTriangleNormal) {
				consider(n, true, actual, c[i].triangleNormal);
			}
		}
		break;
	default:
		if (!own && averageOfCandidates(c, count, &v)) {
			consider(n, true, actual, v);
		}
		break;
	}
}

/* The normal: within tolerance of a normal the convention allows (or one
 * --accept-normals allows), else a difference with the convention's
 * nearest normal as the expected one. With no convention known (compare),
 * the candidates in use (use) widen the set as the tied contacts' normals
 * and triangle normals. */
static void compareNormal(const cliComparer* cmp, cliDiffs* d, const cliResult* e, int count, const bool* use,
						  bcVec3 actual)
{
	if (!(e->fields & cli_resultNormal)) {
		return;
	}
	if (bcLengthSquared(actual) == 0.0) {
		addDiff(d, "normal", vec3Value(actual), vec3Value(e->normal), noMeasure);
		return;
	}
	const cliGradeConfig* cfg = cmp->cfg;
	cliNearest convention = { false, 0.0, { 0.0, 0.0, 0.0 } };
	cliNearest accepted;
	if (cfg->normalConvention == 0) {
		/* not known (compare): EXPECTED's normal; with ties, any tied
		 * contact's normal, or the triangle normal of a contact in use */
		consider(&convention, true, actual, e->normal);
		for (int i = 1; i < count; ++i) {
			if (cmp->candidates[i].fields & cli_resultNormal) {
				consider(&convention, true, actual, cmp->candidates[i].normal);
			}
		}
		accepted = convention;
		for (int i = 0; i < count && count > 1; ++i) {
			if (use[i] && (cmp->candidates[i].fields & cli_resultTriangleNormal)) {
				consider(&accepted, true, actual, cmp->candidates[i].triangleNormal);
			}
		}
	} else {
		considerConvention(cmp, e, count, cfg->normalConvention, actual, &convention);
		accepted = convention;
	}
	for (unsigned bit = 1; bit <= cli_normalsAverage; bit <<= 1) {
		if ((cfg->acceptNormals & bit) && bit != cfg->normalConvention) {
			considerConvention(cmp, e, count, bit, actual, &accepted);
		}
	}
	if (!accepted.any || accepted.measure <= cfg->normalTol || !convention.any) {
		return;
	}
	cliMeasure measure = { "angle", convention.measure, cfg->normalTol, " degrees" };
	addDiff(d, "normal", vec3Value(actual), vec3Value(convention.value), measure);
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
		return intsValue(r->vertices, r->vertexCount);
	case cli_resultPoint:
		return vec3Value(r->point);
	case cli_resultCenter:
		return vec3Value(r->center);
	case cli_resultNormal:
		return vec3Value(r->normal);
	default:
		return vec3Value(r->triangleNormal);
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
bool cliComparer_Record(cliComparer* cmp, cliDiffs* d, const cliResult* e, const cliResult* actual)
{
	const cliGradeConfig* cfg = cmp->cfg;
	if (actual->problem != NULL) {
		cliDiff diff = { .reason = cli_diffUnreadable, .field = "record", .text = actual->problem };
		diff.line[0] = actual->problemLine;
		diff.column[0] = actual->problemColumn;
		cliDiffs_Add(d, &diff);
		return !d->failed;
	}
	bool expectError = (e->fields & cli_resultError) != 0;
	bool actualError = (actual->fields & cli_resultError) != 0;
	if (expectError || actualError) {
		if (expectError != actualError) {
			addDiff(d, "error", errorValue(actual), errorValue(e), noMeasure);
		}
		return !d->failed;
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
		addDiff(d, "hit", absent, boolValue(e->hit), noMeasure);
	} else if (hitGraded && a->hit != e->hit) {
		addDiff(d, "hit", boolValue(a->hit), boolValue(e->hit), noMeasure);
	}
	/* On a miss alpha means nothing (cast writes 1, students NaN, null or
	 * nothing): when both say miss, it is not graded. */
	bool bothMiss = !e->hit && (a->fields & cli_resultHit) && !a->hit;
	if (!(graded & cli_resultAlpha) || bothMiss) {
		/* not graded */
	} else if (!(a->fields & cli_resultAlpha)) {
		addDiff(d, "alpha", absent, numberValue(e->alpha), noMeasure);
	} else if ((a->fields & cli_resultHit) && a->hit && !(a->alpha >= 0.0 && a->alpha <= 1.0) &&
			   !(fabs(a->alpha - e->alpha) <= fmax(cfg->alphaTol, cfg->alphaRel * fabs(e->alpha)))) {
		/* a hit off the path: the cause, not a distance */
		cliDiff diff = { .reason = cli_diffOffPath, .field = "alpha", .actual = numberValue(a->alpha) };
		diff.expected = e->hit ? numberValue(e->alpha) : absent;
		cliDiffs_Add(d, &diff);
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
		return !d->failed;
	}
	/* graded fields EXPECTED gives and the submission does not */
	static const unsigned others[] = { cli_resultInitialOverlap, cli_resultFeature, cli_resultTriangle,
									   cli_resultFace, cli_resultVertices, cli_resultPoint, cli_resultCenter,
									   cli_resultNormal, cli_resultTriangleNormal };
	for (size_t k = 0; k < sizeof others / sizeof others[0]; ++k) {
		unsigned f = others[k];
		if ((graded & f) && (e->fields & f) && !(a->fields & f)) {
			addDiff(d, anyFieldName(f), absent, fieldValue(e, f), noMeasure);
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
	int ties = (e->fields & cli_resultTies) ? e->tieCount : 0;
	int matches = compareContact(d, cmp->candidates, count, ties, a, matched);
	if (matches == 0) {
		for (int i = 0; i < count; ++i) {
			matched[i] = true; /* nothing matched: judge the rest against them all */
		}
	}
	if (a->fields & cli_resultPoint) {
		compareVector(cmp, d, count, matched, cli_resultPoint, a->point);
	}
	if ((a->fields & e->fields & cli_resultCenter)) {
		double distance = bcDistance(a->center, e->center);
		if (!(distance <= cfg->pointTol)) {
			cliMeasure measure = { "distance", distance, cfg->pointTol, "" };
			addDiff(d, "center", vec3Value(a->center), vec3Value(e->center), measure);
		}
	}
	if (a->fields & cli_resultNormal) {
		int before = d->count;
		compareNormal(cmp, d, e, count, matched, a->normal);
		double length = bcLength(a->normal);
		double want = (e->fields & cli_resultNormal) ? bcLength(e->normal) : 1.0;
		if (d->count == before && length > 0.0 && !(fabs(length - want) <= CLI_NORMAL_LENGTH_TOLERANCE * want)) {
			cliDiff diff = { .reason = cli_diffNotUnit, .field = "normal", .actual = vec3Value(a->normal) };
			diff.difference = length;
			cliDiffs_Add(d, &diff);
		}
	}
	if (a->fields & cli_resultTriangleNormal) {
		compareVector(cmp, d, count, matched, cli_resultTriangleNormal, a->triangleNormal);
	}
	free(matched);
	return !d->failed;
}
