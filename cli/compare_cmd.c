/* compare_cmd.c - `ballcast compare EXPECTED ACTUAL...`: check cast results
 * (a regression run, or students' collision code) against expected ones,
 * record by record, field by field, with tolerances and ties. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "results_read.h"
#include "vec3.h"

/* Default absolute tolerance on alpha. Two correct implementations differ
 * by rounding: a few ulps on face contacts, more on grazing edge and vertex
 * contacts where the quadratic loses digits (cast itself promises its
 * contact distance only to about 1e-9 of the scene there). 1e-9 leaves that
 * room, while a real mistake (a missed feature, the far root, a wrong
 * radius, the wrong side) moves alpha by far more. */
#define CLI_ALPHA_TOLERANCE 1e-9

/* Default relative tolerance on alpha: none, since alpha is already a
 * fraction of the path. */
#define CLI_ALPHA_RELATIVE 0.0

/* Default tolerance on the angle between normals, in degrees (1.7e-8
 * radians). Unit normals from different formulas agree to ~1e-15 radians;
 * an edge or vertex contact's normal (centre - point) / r inherits alpha's
 * error times |p1 - p0| / r, so alpha's 1e-9 over a path ten radii long
 * turns it by 1e-8 radians. */
#define CLI_NORMAL_TOLERANCE 1e-6

/* Default tolerance on the distance between points (contact point and
 * centre), in mesh units: alpha's tolerance over a path of unit length.
 * Meant for scenes of unit size; scale it with the scene (--point-tol). */
#define CLI_POINT_TOLERANCE 1e-9

/* Degrees in a radian, for the angle between normals. */
#define CLI_DEGREES_PER_RADIAN (180.0 / 3.14159265358979323846)

/* The options of compare's own, in the order compareOption knows them. */
enum { cli_compareAlphaTol, cli_compareAlphaRel, cli_compareNormalTol, cli_comparePointTol, cli_compareMesh,
	   cli_compareReport };
static const cliOption compareOptions[] = {
	{ "alpha-tol", 0, true }, { "alpha-rel", 0, true }, { "normal-tol", 0, true }, { "point-tol", 0, true },
	{ "mesh", 'm', true },    { "report", 'r', true },  { NULL, 0, false },
};

static const cliUsage compareUsage = {
	"compare",
	"usage: ballcast compare [OPTIONS] EXPECTED ACTUAL...\n"
	"\n"
	"Compare `ballcast cast` results (ACTUAL) with expected ones, record by record,\n"
	"matched by id. Either side may be a JSON document, NDJSON or CSV. Prints one\n"
	"line per record that differs, then 'N passed, N failed, N missing, N extra';\n"
	"with several ACTUAL files, a score table. Exit 0 when everything matches,\n"
	"1 when something differs, 2 on trouble. '-' reads standard input.\n"
	"\n"
	"options:\n"
	"      --alpha-tol T     absolute tolerance on alpha (default 1e-09)\n"
	"      --alpha-rel R     relative tolerance on alpha (default 0): alpha passes\n"
	"                        within T or within R * |expected alpha|\n"
	"      --normal-tol DEG  angle between normals, in degrees (default 1e-06)\n"
	"      --point-tol D     distance for point and center (default 1e-09)\n"
	"  -m, --mesh MESH.obj   the mesh EXPECTED was cast on: triangle normals and\n"
	"                        faces of tied triangles become known\n"
	"  -r, --report FMT      text (default), json or csv\n"
	"  -o, --output FILE     write the report here (.json or .csv picks the format)\n"
	"  -q, --quiet           no report: the exit status only\n"
	"  -h, --help            this help\n"
	"      --version         the version of ballcast\n"
	"\n"
	"examples:\n"
	"  ballcast cast --ties room.obj throws.json > expected.json\n"
	"  ballcast compare expected.json student.csv\n"
	"  ballcast compare --alpha-tol 1e-6 --report csv expected.json submissions/*.json > scores.csv\n"
	"  ballcast compare -q expected.json new.json || echo 'answers changed'\n",
	cli_optOutput | cli_optQuiet,
	compareOptions,
	2,
	-1,
	{ "missing EXPECTED and ACTUAL", "missing ACTUAL" },
};

typedef enum cliReportFormat {
	cli_reportText = 0,
	cli_reportJson,
	cli_reportCsv
} cliReportFormat;

typedef struct cliCompareConfig {
	double alphaTol;
	double alphaRel;
	double normalTol; /* degrees */
	double pointTol;
	const char* meshPath;
	cliCommonOptions common; /* -o and -q */
	cliReportFormat report;
	bool reportGiven;
	const char* expectedPath;
	char** actualPaths;
	int actualCount;
} cliCompareConfig;

/* One of compare's own options (a cliOptionFcn). */
static const char* compareOption(void* context, int k, const char* value)
{
	cliCompareConfig* cfg = context;
	static const char* const problems[] = {
		"--alpha-tol needs a finite number >= 0, not",
		"--alpha-rel needs a finite number >= 0, not",
		"--normal-tol needs a finite number of degrees >= 0, not",
		"--point-tol needs a finite number >= 0, not",
	};
	double* tolerances[] = { &cfg->alphaTol, &cfg->alphaRel, &cfg->normalTol, &cfg->pointTol };
	if (k <= cli_comparePointTol) {
		return cliParseNonNegative(value, tolerances[k]) ? NULL : problems[k];
	}
	if (k == cli_compareMesh) {
		cfg->meshPath = value;
		return NULL;
	}
	static const char* const reports[] = { "text", "json", "csv" };
	int report = 0;
	while (report < 3 && strcmp(value, reports[report]) != 0) {
		report++;
	}
	if (report == 3) {
		return "--report is text, json or csv, not";
	}
	cfg->report = (cliReportFormat)report;
	cfg->reportGiven = true;
	return NULL;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliCompareConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->alphaTol = CLI_ALPHA_TOLERANCE;
	cfg->alphaRel = CLI_ALPHA_RELATIVE;
	cfg->normalTol = CLI_NORMAL_TOLERANCE;
	cfg->pointTol = CLI_POINT_TOLERANCE;
	int first = 0;
	int status = cliParseArguments(&compareUsage, argc, argv, &cfg->common, compareOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	cfg->expectedPath = argv[first];
	cfg->actualPaths = argv + first + 1;
	cfg->actualCount = argc - first - 1;
	int stdinCount = 0;
	for (int i = first; i < argc; ++i) {
		stdinCount += strcmp(argv[i], "-") == 0;
	}
	if (stdinCount > 1) {
		return cliUsageError(&compareUsage, "standard input ('-') can be read only once", NULL);
	}
	/* -o FILE.json or FILE.csv names the report's format */
	cliOutputFormat named = cliFormatFromPath(cfg->common.outputPath, cli_outputNdjson);
	if (!cfg->reportGiven && named != cli_outputNdjson) {
		cfg->report = named == cli_outputJson ? cli_reportJson : cli_reportCsv;
	}
	return cliRefuseOverwrite(&compareUsage, cfg->common.outputPath, "-o", cfg->meshPath);
}

/* Read one results file, reporting any error. */
static bool loadResults(const char* path, bool quiet, cliResultSet* set)
{
	FILE* f = cliOpenInput(path, quiet);
	if (f == NULL) {
		memset(set, 0, sizeof *set);
		return false;
	}
	bcError error = { 0 };
	bool ok = cliReadResults(f, set, &error);
	cliCloseInput(f);
	/* compare grades whole files: a record it cannot read makes the file malformed */
	if (ok && cliResultSet_FirstProblem(set, &error)) {
		cliResultSet_Free(set);
		ok = false;
	}
	if (!ok) {
		cliReportError(cliInputName(path), &error);
	}
	return ok;
}

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
	const cliCompareConfig* cfg;
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

/* Compare one record; the differences go to d. Returns false when out of
 * memory. */
static bool compareRecord(cliComparer* cmp, cliDiffs* d, const cliResult* e, const cliResult* a)
{
	const cliCompareConfig* cfg = cmp->cfg;
	bool expectError = (e->fields & cli_resultError) != 0;
	bool actualError = (a->fields & cli_resultError) != 0;
	if (expectError || actualError) {
		if (expectError != actualError) {
			addDiff(d, "error", actualError ? textValue(a->error) : valueOf(cli_valueNone),
					expectError ? textValue(e->error) : valueOf(cli_valueNone), noMeasure);
		}
		return true;
	}
	bool hitKnown = (a->fields & cli_resultHit) != 0;
	if (!hitKnown) {
		addDiff(d, "hit", valueOf(cli_valueMissing), boolValue(e->hit), noMeasure);
	} else if (a->hit != e->hit) {
		addDiff(d, "hit", boolValue(a->hit), boolValue(e->hit), noMeasure);
	}
	if (!(a->fields & cli_resultAlpha)) {
		addDiff(d, "alpha", valueOf(cli_valueMissing), numberValue(e->alpha), noMeasure);
	} else {
		double diff = fabs(a->alpha - e->alpha);
		double tolerance = fmax(cfg->alphaTol, cfg->alphaRel * fabs(e->alpha));
		if (!(diff <= tolerance)) {
			cliMeasure measure = { "diff", diff, tolerance, "" };
			addDiff(d, "alpha", numberValue(a->alpha), numberValue(e->alpha), measure);
		}
	}
	if (!hitKnown || a->hit != e->hit || !e->hit) {
		return true; /* a miss is only hit and alpha */
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
		compareVector(cmp, d, count, matched, ties, cli_resultNormal, a->normal);
	}
	if (a->fields & cli_resultTriangleNormal) {
		compareVector(cmp, d, count, matched, false, cli_resultTriangleNormal, a->triangleNormal);
	}
	free(matched);
	return true;
}

/* ------------------------------------------------------------ per file */

typedef struct cliFileScore {
	const char* name;
	long passed;
	long failed;
	long missing;
	long extra;
	double score;
} cliFileScore;

/* What one ACTUAL file gives: counts, message lines, JSON lists. */
typedef struct cliFileReport {
	cliFileScore score;
	FILE* lines; /* text: one line per failing, missing or extra id */
	char* linesBuffer;
	size_t linesSize;
	FILE* failures; /* JSON: the failures list's elements */
	char* failuresBuffer;
	size_t failuresSize;
	FILE* missing; /* JSON: missing ids */
	char* missingBuffer;
	size_t missingSize;
	FILE* extra; /* JSON: extra ids */
	char* extraBuffer;
	size_t extraSize;
} cliFileReport;

static void cliFileReport_Free(cliFileReport* r)
{
	FILE* streams[4] = { r->lines, r->failures, r->missing, r->extra };
	for (int k = 0; k < 4; ++k) {
		if (streams[k] != NULL) {
			fclose(streams[k]);
		}
	}
	free(r->linesBuffer);
	free(r->failuresBuffer);
	free(r->missingBuffer);
	free(r->extraBuffer);
	memset(r, 0, sizeof *r);
}

static bool cliFileReport_Open(cliFileReport* r, const char* name)
{
	memset(r, 0, sizeof *r);
	r->score.name = name;
	r->lines = open_memstream(&r->linesBuffer, &r->linesSize);
	r->failures = open_memstream(&r->failuresBuffer, &r->failuresSize);
	r->missing = open_memstream(&r->missingBuffer, &r->missingSize);
	r->extra = open_memstream(&r->extraBuffer, &r->extraSize);
	return r->lines != NULL && r->failures != NULL && r->missing != NULL && r->extra != NULL;
}

/* Flush the streams so the buffers hold everything. */
static bool cliFileReport_Finish(cliFileReport* r)
{
	bool ok = true;
	FILE** streams[4] = { &r->lines, &r->failures, &r->missing, &r->extra };
	for (int k = 0; k < 4; ++k) {
		ok = fclose(*streams[k]) == 0 && ok;
		*streams[k] = NULL;
	}
	return ok;
}

/* Append a JSON list element. */
static void listSeparator(FILE* f, long* count)
{
	if ((*count)++ > 0) {
		putc(',', f);
	}
}

/* One failing record: its line of text and its JSON entry (line is where it
 * is in ACTUAL, -1 when it is not there). */
static void reportFailure(cliFileReport* r, const cliResult* shown, long line, const char* text, const char* json,
						  long* failureCount)
{
	fprintf(r->lines, "%s: id ", r->score.name);
	cliWriteResultIdJson(r->lines, shown);
	fprintf(r->lines, ": %s\n", text);
	listSeparator(r->failures, failureCount);
	fputs("{\"id\":", r->failures);
	cliWriteResultIdJson(r->failures, shown);
	fputs(",\"line\":", r->failures);
	if (line >= 0) {
		cliWriteInt(r->failures, line);
	} else {
		fputs("null", r->failures);
	}
	fputs(",\"differences\":[", r->failures);
	fputs(json, r->failures);
	fputs("]}", r->failures);
	r->score.failed += 1;
}

/* Compare one ACTUAL set with EXPECTED. Returns false when out of memory. */
static bool compareFile(cliComparer* cmp, const cliResultSet* expected, const cliIdIndex* expectedIndex,
						const char* expectedName, const cliResultSet* actual, cliFileReport* r)
{
	cliIdIndex actualIndex;
	if (!cliIdIndex_Build(&actualIndex, actual)) {
		return false;
	}
	long failureCount = 0;
	long missingCount = 0;
	long extraCount = 0;
	long expectedIds = 0;
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
		if (second >= 0) {
			snprintf(message, sizeof message, "duplicate id in %s (lines %ld and %ld)", expectedName, e->line,
					 expected->results[second].line);
			cliDiffs d;
			ok = cliDiffs_Open(&d);
			if (ok) {
				addNote(&d, "id", message);
				ok = cliDiffs_Close(&d);
			}
			if (ok) {
				reportFailure(r, e, j >= 0 ? actual->results[j].line : -1, d.textBuffer, d.jsonBuffer,
							  &failureCount);
			}
			cliDiffs_Free(&d);
			continue;
		}
		if (j < 0) {
			fprintf(r->lines, "%s: id ", r->score.name);
			cliWriteResultIdJson(r->lines, e);
			fputs(": missing\n", r->lines);
			listSeparator(r->missing, &missingCount);
			cliWriteResultIdJson(r->missing, e);
			r->score.missing += 1;
			continue;
		}
		const cliResult* a = actual->results + j;
		cliDiffs d;
		ok = cliDiffs_Open(&d);
		if (ok && actualIndex.duplicate[j] >= 0) {
			snprintf(message, sizeof message, "duplicate id (lines %ld and %ld)", a->line,
					 actual->results[actualIndex.duplicate[j]].line);
			addNote(&d, "id", message);
		} else if (ok) {
			ok = compareRecord(cmp, &d, e, a);
		}
		ok = cliDiffs_Close(&d) && ok;
		if (ok && d.count > 0) {
			reportFailure(r, e, a->line, d.textBuffer, d.jsonBuffer, &failureCount);
		} else if (ok) {
			r->score.passed += 1;
		}
		cliDiffs_Free(&d);
	}
	for (long j = 0; j < actual->count && ok; ++j) {
		const cliResult* a = actual->results + j;
		if (actualIndex.first[j] != j || cliIdIndex_Find(expectedIndex, &actualIndex, j) >= 0) {
			continue;
		}
		fprintf(r->lines, "%s: id ", r->score.name);
		cliWriteResultIdJson(r->lines, a);
		fputs(": extra\n", r->lines);
		listSeparator(r->extra, &extraCount);
		cliWriteResultIdJson(r->extra, a);
		r->score.extra += 1;
	}
	cliIdIndex_Destroy(&actualIndex, actual->count);
	/* With nothing expected, a file scores 1 unless it has extra ids. */
	r->score.score = expectedIds > 0 ? (double)r->score.passed / (double)expectedIds : (r->score.extra == 0 ? 1.0 : 0.0);
	return ok;
}

/* ------------------------------------------------------------ reports */

static void writeJsonHeader(FILE* f, const cliCompareConfig* cfg, long expectedIds)
{
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"expected\":{\"file\":", f);
	cliWriteJsonString(f, cliInputName(cfg->expectedPath));
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

static void writeJsonFile(FILE* f, const cliFileReport* r, bool first)
{
	fputs(first ? "\n{\"file\":" : ",\n{\"file\":", f);
	cliWriteJsonString(f, r->score.name);
	fputs(",\"passed\":", f);
	cliWriteInt(f, r->score.passed);
	fputs(",\"failed\":", f);
	cliWriteInt(f, r->score.failed);
	fputs(",\"missing\":", f);
	cliWriteInt(f, r->score.missing);
	fputs(",\"extra\":", f);
	cliWriteInt(f, r->score.extra);
	fputs(",\"score\":", f);
	cliWriteNumber(f, r->score.score);
	fputs(",\"failures\":[", f);
	fwrite(r->failuresBuffer, 1, r->failuresSize, f);
	fputs("],\"missing_ids\":[", f);
	fwrite(r->missingBuffer, 1, r->missingSize, f);
	fputs("],\"extra_ids\":[", f);
	fwrite(r->extraBuffer, 1, r->extraSize, f);
	fputs("]}", f);
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
	fputs("file,passed,failed,missing,extra,score\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		cliWriteCsvField(f, s->name);
		fprintf(f, ",%ld,%ld,%ld,%ld,", s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		putc('\n', f);
	}
}

/* ------------------------------------------------------------ main */

/* EXPECTED must say hit and alpha for every result that is not an error. */
static bool checkExpected(const char* name, const cliResultSet* set)
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

/* Compare every ACTUAL file and write the report. Returns the exit status. */
static int run(const cliCompareConfig* cfg, const bcMesh* mesh, const cliResultSet* expected,
			   const cliIdIndex* expectedIndex, cliResultSet* actuals)
{
	cliOutput output;
	bool quiet = cfg->common.quiet;
	FILE* out = NULL;
	if (!quiet) {
		if (!cliOutput_Open(&output, cfg->common.outputPath)) {
			return cli_exitTrouble;
		}
		out = output.stream;
	}
	cliFileScore* scores = calloc((size_t)cfg->actualCount, sizeof *scores);
	cliComparer cmp = { cfg, mesh, NULL, 0 };
	bool ok = scores != NULL;
	bool differ = false;
	long expectedIds = 0;
	for (long i = 0; i < expected->count; ++i) {
		expectedIds += expectedIndex->first[i] == i;
	}
	if (ok && !quiet && cfg->report == cli_reportJson) {
		writeJsonHeader(out, cfg, expectedIds);
	}
	for (int k = 0; k < cfg->actualCount && ok; ++k) {
		cliFileReport r;
		ok = cliFileReport_Open(&r, cliInputName(cfg->actualPaths[k]));
		ok = ok && compareFile(&cmp, expected, expectedIndex, cliInputName(cfg->expectedPath), actuals + k, &r);
		ok = ok && cliFileReport_Finish(&r);
		if (ok) {
			scores[k] = r.score;
			differ = differ || r.score.failed > 0 || r.score.missing > 0 || r.score.extra > 0;
			if (!quiet && cfg->report == cli_reportText) {
				fwrite(r.linesBuffer, 1, r.linesSize, out);
			} else if (!quiet && cfg->report == cli_reportJson) {
				writeJsonFile(out, &r, k == 0);
			}
		}
		cliFileReport_Free(&r);
	}
	free(cmp.candidates);
	if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
		free(scores);
		if (!quiet) {
			cliOutput_Abort(&output);
		}
		return cli_exitTrouble;
	}
	if (!quiet) {
		if (cfg->report == cli_reportJson) {
			fputs(cfg->actualCount > 0 ? "\n]}\n" : "]}\n", out);
		} else if (cfg->report == cli_reportCsv) {
			writeCsvTable(out, scores, cfg->actualCount);
		} else if (cfg->actualCount == 1) {
			fprintf(out, "%ld passed, %ld failed, %ld missing, %ld extra\n", scores[0].passed, scores[0].failed,
					scores[0].missing, scores[0].extra);
		} else {
			writeTextTable(out, scores, cfg->actualCount);
		}
	}
	free(scores);
	if (!quiet && !cliOutput_Commit(&output)) {
		return cli_exitTrouble;
	}
	return differ ? cli_exitRecords : cli_exitOk;
}

int cliCompareMain(int argc, char** argv)
{
	cliCompareConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	/* Read everything first, reporting every unreadable file at once. */
	cliResultSet expected;
	memset(&expected, 0, sizeof expected);
	cliIdIndex expectedIndex;
	memset(&expectedIndex, 0, sizeof expectedIndex);
	cliResultSet* actuals = calloc((size_t)cfg.actualCount, sizeof *actuals);
	bcMesh* mesh = cfg.meshPath != NULL ? cliLoadMesh(cfg.meshPath, cfg.common.quiet) : NULL;
	if (actuals == NULL) {
		fputs("ballcast: out of memory\n", stderr);
	}
	if (actuals == NULL || (cfg.meshPath != NULL && mesh == NULL)) {
		goto done;
	}
	bool ok = loadResults(cfg.expectedPath, cfg.common.quiet, &expected);
	ok = ok && checkExpected(cliInputName(cfg.expectedPath), &expected);
	for (int k = 0; k < cfg.actualCount; ++k) {
		ok = loadResults(cfg.actualPaths[k], cfg.common.quiet, actuals + k) && ok;
	}
	if (ok && !cliIdIndex_Build(&expectedIndex, &expected)) {
		fputs("ballcast: out of memory\n", stderr);
		ok = false;
	}
	status = ok ? run(&cfg, mesh, &expected, &expectedIndex, actuals) : cli_exitTrouble;
done:
	cliIdIndex_Destroy(&expectedIndex, expected.count);
	for (int k = 0; actuals != NULL && k < cfg.actualCount; ++k) {
		cliResultSet_Free(actuals + k);
	}
	free(actuals);
	cliResultSet_Free(&expected);
	bcMesh_Destroy(mesh);
	return status;
}
