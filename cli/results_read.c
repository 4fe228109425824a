/* results_read.c - results read back for compare, render and grading
 * (results_read.h): JSON through the one JSON front end (json_stream.c),
 * CSV through the one CSV reader (csv.c). */
#include "results_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "input.h"
#include "json_stream.h"
#include "output.h"

/* An ASCII decimal digit (not locale-dependent, as isdigit is). */
static bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Decimal exponents of number ids are clamped to +-this: ids beyond 1e(10^15)
 * are not worth a big-number library, and no double comes near. */
#define CLI_EXPONENT_LIMIT 1000000000000000LL

/* Results the set starts with room for; it doubles from there. */
#define CLI_RESULTS_INITIAL 64

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

/* The CSV columns read: cast's, then a trajectory's. */
typedef enum cliCsvColumn {
	cli_csvId = 0,
	cli_csvHit,
	cli_csvAlpha,
	cli_csvInitialOverlap,
	cli_csvFeature,
	cli_csvTriangle,
	cli_csvFace,
	cli_csvVertex0,
	cli_csvVertex1,
	cli_csvVertex2,
	cli_csvPointX,
	cli_csvCenterX = cli_csvPointX + 3,
	cli_csvNormalX = cli_csvCenterX + 3,
	cli_csvTriangleNormalX = cli_csvNormalX + 3,
	cli_csvError = cli_csvTriangleNormalX + 3,
	cli_csvTies,
	cli_csvX0,
	cli_csvX1 = cli_csvX0 + 3,
	cli_csvCount = cli_csvX1 + 3
} cliCsvColumn;

static const char* const csvNames[cli_csvCount] = {
	"id",       "hit",      "alpha",    "initial_overlap",   "feature",           "triangle",          "face",
	"vertex_0", "vertex_1", "vertex_2", "point_x",           "point_y",           "point_z",           "center_x",
	"center_y", "center_z", "normal_x", "normal_y",          "normal_z",          "triangle_normal_x", "triangle_normal_y",
	"triangle_normal_z",    "error",    "ties",              "x0",                "y0",                "z0",
	"x1",       "y1",       "z1",
};

/* The six vectors. */
static const cliCsvVector vectors[6] = {
	{ "point", cli_csvPointX, cli_resultPoint },
	{ "center", cli_csvCenterX, cli_resultCenter },
	{ "normal", cli_csvNormalX, cli_resultNormal },
	{ "triangle_normal", cli_csvTriangleNormalX, cli_resultTriangleNormal },
	{ "p0", cli_csvX0, cli_resultP0 },
	{ "p1", cli_csvX1, cli_resultP1 },
};

static bcVec3* vectorOf(cliResult* r, int v)
{
	bcVec3* fields[6] = { &r->point, &r->center, &r->normal, &r->triangleNormal, &r->p0, &r->p1 };
	return fields[v];
}

typedef struct cliResultsReader {
	cliInput input;
	cliJsonStream json;
	cliCsv csv;
	cliJsonParser* parser;
	cliResultSet* set;
	long capacity;
	bool noMemory;
	int headerCount;
	int columnOf[cli_csvCount];
	const cliResultsReadOptions* options; /* NULL: strict */
	unsigned field;   /* tolerant: the field being read (0: the record itself) */
	bool substituted; /* tolerant: the record's NaN or Infinity were replaced */
	char* ignored;    /* tolerant: names read from nothing */
	size_t ignoredLength;
	int ignoredCount;
	long decimalCommas;   /* CSV: numbers read that were written with a decimal comma */
	bool keyed;           /* JSON: read as an object keyed by id */
	char nestedKey[48];   /* JSON: the key the first answer nested under was, or "" */
} cliResultsReader;

/* Is the reading tolerant (a student's file)? */
static bool isTolerant(const cliResultsReader* reader)
{
	return reader->options != NULL && reader->options->tolerant;
}

/* Does text read as a boolean the way students write one: true/false,
 * yes/no, y/n (any case) or 1/0? */
static bool boolWord(const char* text, bool* value)
{
	static const char* const words[][2] = { { "false", "true" }, { "no", "yes" }, { "n", "y" }, { "0", "1" } };
	for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
		for (int b = 0; b < 2; ++b) {
			const char* word = words[w][b];
			size_t n = strlen(word);
			bool same = strlen(text) == n;
			for (size_t i = 0; same && i < n; ++i) {
				same = (text[i] | 0x20) == word[i];
			}
			if (same) {
				*value = b == 1;
				return true;
			}
		}
	}
	return false;
}

/* Does text say "no number": nan (how Python, spreadsheets and printf
 * write a NaN), null or none (Python's None), in any case? */
static bool isNanWord(const char* text)
{
	static const char* const words[] = { "nan", "null", "none" };
	for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
		size_t n = strlen(words[w]);
		bool same = strlen(text) == n;
		for (size_t i = 0; same && i < n; ++i) {
			same = (text[i] | 0x20) == words[w][i];
		}
		if (same) {
			return true;
		}
	}
	return false;
}

/* Names kept for the warning about ignored keys and columns. */
#define CLI_IGNORED_NAMES 12

/* The common spellings of the keys and columns a tolerant reader knows. */
static const char* const spellings[][2] = {
	{ "t", "alpha" },           { "time", "alpha" },        { "n", "normal" },          { "nx", "normal_x" },
	{ "ny", "normal_y" },       { "nz", "normal_z" },       { "n_x", "normal_x" },      { "n_y", "normal_y" },
	{ "n_z", "normal_z" },      { "px", "point_x" },        { "py", "point_y" },        { "pz", "point_z" },
	{ "contact_point", "point" }, { "tri", "triangle" },  { "triangle_id", "triangle" }, { "collided", "hit" },
};

const char* cliResultsCanonicalName(const cliResultsReadOptions* options, const char* name)
{
	if (options == NULL) {
		return name;
	}
	for (int k = 0; k < options->mapCount; ++k) {
		if (strcmp(name, options->map[2 * k]) == 0) {
			return options->map[2 * k + 1];
		}
	}
	if (!options->tolerant) {
		return name;
	}
	for (size_t k = 0; k < sizeof spellings / sizeof spellings[0]; ++k) {
		if (spellings[k][0][0] == name[0] && strcmp(name, spellings[k][0]) == 0) {
			return spellings[k][1];
		}
	}
	return name;
}

/* Remember a name read from nothing (tolerant), once. */
static void addIgnored(cliResultsReader* reader, const char* name)
{
	if (reader->options == NULL || !reader->options->tolerant || reader->ignoredCount > CLI_IGNORED_NAMES) {
		return;
	}
	size_t n = strlen(name);
	if (reader->ignored != NULL) {
		/* already listed? */
		const char* p = reader->ignored;
		while (p != NULL) {
			const char* end = strstr(p, ", ");
			size_t length = end != NULL ? (size_t)(end - p) : strlen(p);
			if (length == n && memcmp(p, name, n) == 0) {
				return;
			}
			p = end != NULL ? end + 2 : NULL;
		}
	}
	const char* text = reader->ignoredCount == CLI_IGNORED_NAMES ? "..." : name;
	n = strlen(text);
	char* grown = realloc(reader->ignored, reader->ignoredLength + n + 3);
	if (grown == NULL) {
		reader->noMemory = true;
		return;
	}
	reader->ignored = grown;
	if (reader->ignoredLength > 0) {
		memcpy(grown + reader->ignoredLength, ", ", 2);
		reader->ignoredLength += 2;
	}
	memcpy(grown + reader->ignoredLength, text, n + 1);
	reader->ignoredLength += n;
	reader->ignoredCount += 1;
}

/* ------------------------------------------------------------- results */

static void freeResult(cliResult* r)
{
	free(r->id);
	free(r->error);
	free(r->ties);
	free(r->problem);
	memset(r, 0, sizeof *r);
}

void cliResultSet_Free(cliResultSet* set)
{
	if (set == NULL) {
		return;
	}
	for (long i = 0; i < set->count; ++i) {
		freeResult(set->results + i);
	}
	free(set->results);
	free(set->ignored);
	memset(set, 0, sizeof *set);
}

bool cliResultSet_FirstProblem(const cliResultSet* set, bcError* error)
{
	for (long i = 0; i < set->count && set->problems > 0; ++i) {
		const cliResult* r = set->results + i;
		if (r->problem != NULL) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorSyntax;
			error->record = i;
			error->line = r->problemLine;
			error->column = r->problemColumn;
			snprintf(error->message, sizeof error->message, "%s", r->problem);
			return true;
		}
	}
	return false;
}

/* Keep the first problem of a result, with where it is. */
CLI_PRINTF(5, 6)
static void problem(cliResultsReader* reader, cliResult* r, long line, long column, const char* format, ...)
{
	if (r->problem != NULL) {
		return;
	}
	if (reader->options != NULL && reader->options->tolerant && reader->field != 0 &&
		!(reader->field & reader->options->graded)) {
		return; /* an ungraded field: not read, never a problem */
	}
	char message[sizeof ((bcError*)NULL)->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	r->problem = cliCopyText(message, strlen(message));
	reader->noMemory = reader->noMemory || r->problem == NULL;
	r->problemLine = line;
	r->problemColumn = column;
}

/* A new zeroed result at the end of the set, or NULL when out of memory. */
static cliResult* appendResult(cliResultsReader* reader)
{
	cliResultSet* set = reader->set;
	if (set->count == reader->capacity) {
		long grown = reader->capacity > 0 ? 2 * reader->capacity : CLI_RESULTS_INITIAL;
		cliResult* results = realloc(set->results, (size_t)grown * sizeof *results);
		if (results == NULL) {
			reader->noMemory = true;
			return NULL;
		}
		set->results = results;
		reader->capacity = grown;
	}
	cliResult* r = set->results + set->count;
	memset(r, 0, sizeof *r);
	r->index = set->count++;
	return r;
}

static bool appendTie(cliResultsReader* reader, cliResult* r, const cliTie* tie)
{
	cliTie* ties = realloc(r->ties, (size_t)(r->tieCount + 1) * sizeof *ties);
	if (ties == NULL) {
		reader->noMemory = true;
		return false;
	}
	r->ties = ties;
	r->ties[r->tieCount++] = *tie;
	return true;
}

static bool parseFeatureName(const char* name, bcFeature* feature)
{
	static const bcFeature features[] = { bc_featureNone, bc_featureFace, bc_featureEdge, bc_featureVertex };
	for (size_t k = 0; k < sizeof features / sizeof features[0]; ++k) {
		if (strcmp(name, bcFeatureName(features[k])) == 0) {
			*feature = features[k];
			return true;
		}
	}
	return false;
}

/* A whole number in int32_t range, from a finite double. */
static bool wholeInt32(double value, int32_t* out)
{
	if (!(value >= (double)INT32_MIN && value <= (double)INT32_MAX) || floor(value) != value) {
		return false;
	}
	*out = (int32_t)value;
	return true;
}

/* ---------------------------------------------------------------- JSON */

/* The JSON text of one result and where it starts. */
typedef struct cliSource {
	cliResultsReader* reader;
	cliResult* result;
	const char* text;
	size_t length;
	const cJSON* root;
} cliSource;

/* A problem at the value node (name the field, or "ties: field"). */
CLI_PRINTF(3, 4) static bool valueProblem(const cliSource* source, const cJSON* node, const char* format, ...)
{
	long line, column;
	cliJsonPosition(source->text, source->length, source->result->line, source->result->column, source->root, node,
					&line, &column);
	char message[sizeof ((bcError*)NULL)->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	problem(source->reader, source->result, line, column, "%s", message);
	return false;
}

static bool jsonBool(const cliSource* source, const cJSON* v, const char* name, bool* value)
{
	if (isTolerant(source->reader) && !cJSON_IsBool(v)) {
		/* "yes", "N", "True", 1, 0: how students write a boolean */
		if (cJSON_IsString(v) && boolWord(v->valuestring, value)) {
			return true;
		}
		if (cJSON_IsNumber(v) && (v->valuedouble == 0.0 || v->valuedouble == 1.0)) {
			*value = v->valuedouble == 1.0;
			return true;
		}
	}
	if (!cJSON_IsBool(v)) {
		return valueProblem(source, v, "%s: expected true or false", name);
	}
	*value = cJSON_IsTrue(v);
	return true;
}

static bool jsonNumber(const cliSource* source, const cJSON* v, const char* name, double* value)
{
	if (source->reader->substituted && cJSON_IsString(v)) {
		const char* s = v->valuestring;
		if (strcmp(s, "N") == 0) {
			return valueProblem(source, v, "%s: NaN is not a number", name);
		}
		if (strcmp(s, "Infini") == 0 || strcmp(s, "-Infini") == 0) {
			return valueProblem(source, v, "%s: %sInfinity is not a finite number", name, s[0] == '-' ? "-" : "");
		}
	}
	const char* problem = cliJsonNumberValue(v, value);
	return problem == NULL || valueProblem(source, v, "%s: %s", name, problem);
}

static bool jsonWhole(const cliSource* source, const cJSON* v, const char* name, int32_t* value)
{
	double x = 0.0;
	if (!jsonNumber(source, v, name, &x)) {
		return false;
	}
	if (!wholeInt32(x, value)) {
		return valueProblem(source, v, "%s: expected a whole number (a 32-bit integer)", name);
	}
	return true;
}

/* A string value, not one holding \u0000 (which cJSON cuts short). */
static bool jsonString(const cliSource* source, const cJSON* v, const char* name, const char** text)
{
	if (!cJSON_IsString(v)) {
		return valueProblem(source, v, "%s: expected a string", name);
	}
	size_t value, key;
	if (memchr(source->text, '\\', source->length) != NULL &&
		cliJsonLocate(source->text, source->length, source->root, v, &value, &key) &&
		cliJsonHasNulEscape(source->text + value, cliJsonValueLength(source->text + value, source->length - value))) {
		return valueProblem(source, v, "%s: contains \\u0000, which cannot be echoed", name);
	}
	*text = v->valuestring;
	return true;
}

static bool jsonFeature(const cliSource* source, const cJSON* v, const char* name, bcFeature* feature)
{
	const char* text = NULL;
	if (cJSON_IsString(v) && !jsonString(source, v, name, &text)) {
		return false;
	}
	if (text == NULL || !parseFeatureName(text, feature)) {
		return valueProblem(source, v, "%s: expected \"face\", \"edge\", \"vertex\" or \"none\"", name);
	}
	return true;
}

/* [x, y, z]: exactly three finite numbers. */
static bool jsonVec3(const cliSource* source, const cJSON* v, const char* name, bcVec3* out)
{
	const cJSON* at = v;
	const char* problem = cliJsonVec3Value(v, out, &at);
	return problem == NULL || valueProblem(source, at, "%s: %s", name, problem);
}

/* [i] to [i, j, k]: one to three whole numbers. */
static bool jsonVertices(const cliSource* source, const cJSON* v, const char* name, int32_t vertices[3], int* count)
{
	int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
	bool ok = n >= 1 && n <= 3;
	int32_t read[3] = { 0, 0, 0 };
	int k = 0;
	for (const cJSON* e = ok ? v->child : NULL; e != NULL && ok; e = e->next, ++k) {
		ok = cJSON_IsNumber(e) && wholeInt32(e->valuedouble, read + k);
	}
	if (!ok) {
		return valueProblem(source, v, "%s: expected an array of 1 to 3 whole numbers", name);
	}
	memcpy(vertices, read, sizeof read);
	*count = n;
	return true;
}

/* The keys of a result object and of a tie. */
typedef enum cliKey {
	cli_keyId = 0,
	cli_keyHit,
	cli_keyAlpha,
	cli_keyInitialOverlap,
	cli_keyFeature,
	cli_keyTriangle,
	cli_keyFace,
	cli_keyVertices,
	cli_keyPoint, /* the six vectors, in the order of vectors[] */
	cli_keyError = cli_keyPoint + 6,
	cli_keyTies,
	cli_keyCount
} cliKey;

static const char* const keyNames[cli_keyCount] = {
	"id", "hit", "alpha", "initial_overlap", "feature", "triangle", "face", "vertices",
	"point", "center", "normal", "triangle_normal", "p0", "p1", "error", "ties",
};

/* The field each key fills (0 for id: the record's own). */
static const unsigned keyFields[cli_keyCount] = {
	0, cli_resultHit, cli_resultAlpha, cli_resultInitialOverlap, cli_resultFeature, cli_resultTriangle,
	cli_resultFace, cli_resultVertices, cli_resultPoint, cli_resultCenter, cli_resultNormal,
	cli_resultTriangleNormal, cli_resultP0, cli_resultP1, cli_resultError, cli_resultTies,
};

/* The cliKey named name, or -1; the first byte is looked at first, as most
 * keys of most records are known. */
static int keyIndex(const char* name)
{
	for (int k = 0; k < cli_keyCount; ++k) {
		if (keyNames[k][0] == name[0] && strcmp(name, keyNames[k]) == 0) {
			return k;
		}
	}
	return -1;
}

/* The known key of member: its cliKey, -2 when it is not known, -1 for a
 * repeat or a key holding \u0000 (the first of a key counts, and a NUL
 * names nothing). */
static int memberKey(const cliSource* source, const cJSON* member, const char* name, unsigned* seen, bool escapes)
{
	const cliResultsReadOptions* options = source->reader->options;
	if (options != NULL && options->mapCount > 0) {
		name = cliResultsCanonicalName(options, name);
	}
	int k = keyIndex(name);
	if (k < 0 && options != NULL && options->tolerant) {
		name = cliResultsCanonicalName(options, name);
		k = keyIndex(name);
	}
	if (k < 0) {
		return -2;
	}
	if ((*seen & (1u << k)) != 0 ||
		(escapes && cliJsonKeyHasNul(source->text, source->length, source->root, member))) {
		return -1;
	}
	*seen |= 1u << k;
	return k;
}

/* One tie object. */
static void jsonTie(const cliSource* source, const cJSON* object, bool escapes)
{
	cliTie tie;
	memset(&tie, 0, sizeof tie);
	unsigned seen = 0;
	for (const cJSON* m = object->child; m != NULL; m = m->next) {
		int k = memberKey(source, m, m->string, &seen, escapes);
		if (k < 0 || cJSON_IsNull(m)) {
			continue;
		}
		bool ok = false;
		unsigned field = 0;
		switch (k) {
		case cli_keyTriangle:
			ok = jsonWhole(source, m, "ties: triangle", &tie.triangle);
			field = cli_resultTriangle;
			break;
		case cli_keyFeature:
			ok = jsonFeature(source, m, "ties: feature", &tie.feature);
			field = cli_resultFeature;
			break;
		case cli_keyVertices:
			ok = jsonVertices(source, m, "ties: vertices", tie.vertices, &tie.vertexCount);
			field = cli_resultVertices;
			break;
		case cli_keyAlpha:
			ok = jsonNumber(source, m, "ties: alpha", &tie.alpha);
			field = cli_resultAlpha;
			break;
		case cli_keyPoint + 2:
			ok = jsonVec3(source, m, "ties: normal", &tie.normal);
			field = cli_resultNormal;
			break;
		case cli_keyPoint + 3:
			ok = jsonVec3(source, m, "ties: triangle_normal", &tie.triangleNormal);
			field = cli_resultTriangleNormal;
			break;
		default:
			break;
		}
		tie.fields |= ok ? field : 0;
	}
	appendTie(source->reader, source->result, &tie);
}

/* Drop the ties read so far (the ties field has a problem). */
static void dropTies(cliResult* r)
{
	free(r->ties);
	r->ties = NULL;
	r->tieCount = 0;
}

static void jsonTies(const cliSource* source, const cJSON* v, bool escapes)
{
	source->reader->field = cli_resultTies;
	if (!cJSON_IsArray(v)) {
		valueProblem(source, v, "ties: expected an array of objects");
		return;
	}
	for (const cJSON* e = v->child; e != NULL; e = e->next) {
		if (!cJSON_IsObject(e)) {
			valueProblem(source, e, "ties: expected an object");
			dropTies(source->result);
			return;
		}
		jsonTie(source, e, escapes);
	}
	source->result->fields |= cli_resultTies;
}

/* Which component of point, center, normal or triangle_normal a key names
 * ("normal_y": 3 * 2 + 1), or -1. */
static int vectorComponent(const char* name)
{
	for (int c = cli_csvPointX; c < cli_csvTriangleNormalX + 3; ++c) {
		if (strcmp(name, csvNames[c]) == 0) {
			return c - cli_csvPointX;
		}
	}
	return -1;
}

/* The fields of one result being read from JSON: what was seen, and the
 * vectors given by components. */
typedef struct cliJsonFields {
	unsigned seen;
	bool escapes;
	double components[4][3]; /* point, center, normal, triangle_normal: "nx", "normal_y", ... */
	unsigned given[4];
	const cJSON* nanAlpha; /* tolerant: an alpha written NaN, "nan" or "" (judged once hit is known) */
} cliJsonFields;

/* Is v an alpha a miss may leave unknown: NaN (as Python writes it), "nan",
 * "null" or "none" in any case, or ""? */
static bool isNanAlpha(const cliSource* source, const cJSON* v)
{
	if (!cJSON_IsString(v)) {
		return false;
	}
	const char* s = v->valuestring;
	return s[0] == '\0' || isNanWord(s) || (source->reader->substituted && strcmp(s, "N") == 0);
}

/* Read member m of a result object, known as name: false when name is no
 * key or component a reader knows. */
static bool jsonMember(const cliSource* source, const cJSON* m, const char* name, cliJsonFields* f)
{
	cliResultsReader* reader = source->reader;
	cliResult* r = source->result;
	reader->field = 0;
	int k = memberKey(source, m, name, &f->seen, f->escapes);
	int component = k == -2 && reader->options != NULL ? vectorComponent(cliResultsCanonicalName(reader->options, name))
														: -1;
	if (k == -2 && component < 0) {
		return false;
	}
	if (component >= 0) {
		int v = component / 3;
		reader->field = vectors[v].field;
		if (!cJSON_IsNull(m) &&
			jsonNumber(source, m, csvNames[vectors[v].first + component % 3], &f->components[v][component % 3])) {
			f->given[v] |= 1u << (component % 3);
		}
		return true;
	}
	if (k < 0 || cJSON_IsNull(m)) {
		return true;
	}
	reader->field = keyFields[k];
	bool ok = false;
	unsigned field = 0;
	if (k >= cli_keyPoint && k < cli_keyPoint + 6) {
		ok = jsonVec3(source, m, vectors[k - cli_keyPoint].key, vectorOf(r, k - cli_keyPoint));
		field = vectors[k - cli_keyPoint].field;
	}
	switch (k) {
	case cli_keyId: {
		bool noMemory = false;
		const char* wrong = cliJsonRecordId(source->text, source->length, m, NULL, &r->idKind, &r->id, &noMemory);
		reader->noMemory = reader->noMemory || noMemory;
		if (wrong != NULL) {
			valueProblem(source, m, "%s", wrong);
		}
		break;
	}
	case cli_keyHit:
		ok = jsonBool(source, m, "hit", &r->hit);
		field = cli_resultHit;
		break;
	case cli_keyAlpha:
		if (isTolerant(reader) && isNanAlpha(source, m)) {
			f->nanAlpha = m; /* a miss's is no problem: judged when the record is read */
			break;
		}
		ok = jsonNumber(source, m, "alpha", &r->alpha);
		field = cli_resultAlpha;
		break;
	case cli_keyInitialOverlap:
		ok = jsonBool(source, m, "initial_overlap", &r->initialOverlap);
		field = cli_resultInitialOverlap;
		break;
	case cli_keyFeature:
		ok = jsonFeature(source, m, "feature", &r->feature);
		field = cli_resultFeature;
		break;
	case cli_keyTriangle:
		ok = jsonWhole(source, m, "triangle", &r->triangle);
		field = cli_resultTriangle;
		break;
	case cli_keyFace:
		ok = jsonWhole(source, m, "face", &r->face);
		field = cli_resultFace;
		break;
	case cli_keyVertices:
		ok = jsonVertices(source, m, "vertices", r->vertices, &r->vertexCount);
		field = cli_resultVertices;
		break;
	case cli_keyError: {
		const char* message = NULL;
		/* an empty error is no error, as an empty CSV cell */
		if (jsonString(source, m, "error", &message) && message[0] != '\0') {
			r->error = cliCopyText(message, strlen(message));
			reader->noMemory = reader->noMemory || r->error == NULL;
			ok = r->error != NULL;
		}
		field = cli_resultError;
		break;
	}
	case cli_keyTies:
		jsonTies(source, m, f->escapes);
		break;
	default:
		break;
	}
	r->fields |= ok ? field : 0;
	return true;
}

/* The name --map gives "outer.inner" (a dotted path into a nested
 * answer), or NULL. */
static const char* mappedPath(const cliResultsReadOptions* options, const char* outer, const char* inner)
{
	size_t n = strlen(outer);
	for (int k = 0; options != NULL && k < options->mapCount; ++k) {
		const char* theirs = options->map[2 * k];
		if (strncmp(theirs, outer, n) == 0 && theirs[n] == '.' && strcmp(theirs + n + 1, inner) == 0) {
			return options->map[2 * k + 1];
		}
	}
	return NULL;
}

/* Is name a key or component a tolerant reader reads? */
static bool isKnownName(const cliResultsReadOptions* options, const char* name)
{
	const char* canonical = cliResultsCanonicalName(options, name);
	return keyIndex(canonical) >= 0 || vectorComponent(canonical) >= 0;
}

/* Does the object v (a member named key) hold an answer nested one level:
 * a known key or one --map names by a dotted path? */
static bool holdsAnswer(const cliResultsReadOptions* options, const char* key, const cJSON* v)
{
	if (!cJSON_IsObject(v)) {
		return false;
	}
	for (const cJSON* c = v->child; c != NULL; c = c->next) {
		if (mappedPath(options, key, c->string) != NULL || isKnownName(options, c->string)) {
			return true;
		}
	}
	return false;
}

/* Fill r from the result object parsed from text[0 .. length). Tolerant,
 * an answer nested one level ({"id": "a", "result": {"hit": true, ...}})
 * is read as if it were at the top (the first such object; a key at the
 * top wins over the same one inside). */
static void jsonResult(cliResultsReader* reader, cliResult* r, const char* text, size_t length, const cJSON* root)
{
	cliSource source = { reader, r, text, length, root };
	cliJsonFields f;
	memset(&f, 0, sizeof f);
	f.escapes = memchr(text, '\\', length) != NULL;
	const cJSON* nested = NULL;
	for (const cJSON* m = root->child; m != NULL; m = m->next) {
		if (jsonMember(&source, m, m->string, &f)) {
			continue;
		}
		if (nested == NULL && isTolerant(reader) && holdsAnswer(reader->options, m->string, m)) {
			nested = m;
		} else {
			addIgnored(reader, m->string);
		}
	}
	for (const cJSON* c = nested != NULL ? nested->child : NULL; c != NULL; c = c->next) {
		const char* mapped = mappedPath(reader->options, nested->string, c->string);
		if (!jsonMember(&source, c, mapped != NULL ? mapped : c->string, &f)) {
			char dotted[2 * CLI_QUOTE_MAX + 2];
			snprintf(dotted, sizeof dotted, "%.*s.%.*s", CLI_QUOTE_MAX, nested->string, CLI_QUOTE_MAX, c->string);
			addIgnored(reader, dotted);
		}
	}
	if (nested != NULL && reader->nestedKey[0] == '\0') {
		snprintf(reader->nestedKey, sizeof reader->nestedKey, "%s", nested->string);
	}
	reader->field = 0;
	for (int v = 0; v < 4; ++v) {
		if (f.given[v] == 7 && !(r->fields & vectors[v].field)) {
			*vectorOf(r, v) = bcMakeVec3(f.components[v][0], f.components[v][1], f.components[v][2]);
			r->fields |= vectors[v].field;
		}
	}
	if (f.nanAlpha != NULL && !((r->fields & cli_resultHit) && !r->hit)) {
		/* not a miss: the alpha it has not is the problem it always was */
		reader->field = cli_resultAlpha;
		double alpha = 0.0;
		jsonNumber(&source, f.nanAlpha, "alpha", &alpha);
		reader->field = 0;
	}
}

/* Tolerant: is root an object keyed by id ({"throw-1": {...}, ...}): at
 * least one member, every member an object (or null), and no key one a
 * result has? */
static bool isKeyedById(const cliResultsReader* reader, const cJSON* root)
{
	if (!isTolerant(reader) || !cJSON_IsObject(root) || root->child == NULL) {
		return false;
	}
	for (const cJSON* m = root->child; m != NULL; m = m->next) {
		if ((!cJSON_IsObject(m) && !cJSON_IsNull(m)) || isKnownName(reader->options, m->string) ||
			mappedPath(reader->options, m->string, "") != NULL) {
			return false;
		}
	}
	return true;
}

/* Each member of the object keyed by id root (parsed from text[0 ..
 * length), which starts at line:column) as a result whose id is its key
 * (unless it gives one itself). */
static void jsonKeyed(cliResultsReader* reader, const char* text, size_t length, long line, long column,
					  const cJSON* root, cliResult* first)
{
	reader->keyed = true;
	bool useFirst = true;
	for (const cJSON* m = root->child; m != NULL && !reader->noMemory; m = m->next) {
		cliResult* r = useFirst ? first : appendResult(reader);
		useFirst = false;
		if (r == NULL) {
			return;
		}
		size_t value = 0, key = 0;
		if (!cliJsonLocate(text, length, root, m, &value, &key)) {
			value = 0;
		}
		cliTextPosition(text, value, line, column, &r->line, &r->column);
		if (cJSON_IsObject(m)) {
			jsonResult(reader, r, text + value, length - value, m);
		}
		if (r->id == NULL) {
			size_t n = strlen(m->string);
			r->id = cliCopyText(m->string, n);
			reader->noMemory = reader->noMemory || r->id == NULL;
			r->idKind = r->id == NULL ? cli_idIndex : cliIsJsonNumber(m->string, n) ? cli_idNumber : cli_idString;
		}
	}
}

/* Python's json module writes NaN, Infinity and -Infinity, which JSON has
 * not: a copy of text with each (outside strings) replaced by a string of
 * the same length ("N", "Infini", "-Infini"), which a number field refuses
 * by name. NULL when there is none (or out of memory: noMemory). */
static char* substituteNonFinite(cliResultsReader* reader, const char* text, size_t length)
{
	char* copy = NULL;
	bool inString = false;
	for (size_t i = 0; i < length; ++i) {
		char c = text[i];
		if (inString) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				inString = false;
			}
			continue;
		}
		if (c == '"') {
			inString = true;
			continue;
		}
		const char* with = NULL;
		size_t n = 0;
		if (c == 'N' && i + 3 <= length && memcmp(text + i, "NaN", 3) == 0) {
			with = "\"N\"";
			n = 3;
		} else if (c == 'I' && i + 8 <= length && memcmp(text + i, "Infinity", 8) == 0) {
			with = "\"Infini\"";
			n = 8;
		} else if (c == '-' && i + 9 <= length && memcmp(text + i, "-Infinity", 9) == 0) {
			with = "\"-Infini\"";
			n = 9;
		}
		if (with == NULL) {
			continue;
		}
		if (copy == NULL) {
			copy = cliCopyText(text, length);
			if (copy == NULL) {
				reader->noMemory = true;
				return NULL;
			}
		}
		memcpy(copy + i, with, n);
		i += n - 1;
	}
	return copy;
}

/* The JSON value span (taken from the stream) as the next result. */
static void takeJson(cliResultsReader* reader, const cliJsonSpan* span, bool oneObjectPerLine)
{
	cliResult* r = appendResult(reader);
	if (r == NULL) {
		return;
	}
	r->line = span->line;
	r->column = span->column;
	const char* expected = oneObjectPerLine ? "expected a result object (one JSON object per line)"
											: "expected a result object";
	if (span->bad) {
		problem(reader, r, span->problem.line, span->problem.column, "%s", span->problem.message);
	} else {
		size_t offset = 0;
		char message[sizeof span->problem.message];
		cJSON* root = cliJsonParser_Parse(reader->parser, span->text, span->length, &offset, message, sizeof message);
		reader->substituted = false;
		if (root == NULL && offset != SIZE_MAX && reader->options != NULL && reader->options->tolerant) {
			char* copy = substituteNonFinite(reader, span->text, span->length);
			size_t again = 0;
			char scratch[sizeof message];
			cJSON* fixed = copy != NULL ? cliJsonParser_Parse(reader->parser, copy, span->length, &again, scratch,
															  sizeof scratch)
										: NULL;
			if (fixed != NULL && cJSON_IsObject(fixed)) {
				reader->substituted = true;
				if (isKeyedById(reader, fixed)) {
					jsonKeyed(reader, copy, span->length, span->line, span->column, fixed, r);
				} else {
					jsonResult(reader, r, copy, span->length, fixed);
				}
				reader->substituted = false;
				free(copy);
				return;
			}
			free(copy); /* the first parse's message and place stand */
		}
		if (root != NULL && cJSON_IsObject(root) && root->child == NULL && isTolerant(reader)) {
			reader->keyed = true; /* {}: an object keyed by id with no id, no result */
			reader->set->count -= 1;
			return;
		}
		if (root != NULL && isKeyedById(reader, root)) {
			jsonKeyed(reader, span->text, span->length, span->line, span->column, root, r);
			return;
		}
		if (root != NULL && cJSON_IsObject(root)) {
			jsonResult(reader, r, span->text, span->length, root);
			return;
		}
		if (root != NULL) {
			problem(reader, r, span->line, span->column, "%s", expected);
			return;
		}
		if (offset == SIZE_MAX) {
			reader->noMemory = true;
			return;
		}
		long line, column;
		cliTextPosition(span->text, offset, span->line, span->column, &line, &column);
		problem(reader, r, line, column, "%s", message);
	}
	/* a record that is not JSON keeps its id if one can be read */
	bool noMemory = false;
	cliJsonRecordId(span->text, span->length, NULL, reader->parser, &r->idKind, &r->id, &noMemory);
	reader->noMemory = reader->noMemory || noMemory;
}

/* The values of the container the stream is in, each a result. */
static bool readJsonValues(cliResultsReader* reader, bool oneObjectPerLine, bcError* error)
{
	int status;
	while ((status = cliJsonStream_Next(&reader->json, error)) > 0 && !reader->noMemory) {
		cliJsonSpan span;
		if (cliJsonStream_Take(&reader->json, &span, error) < 0) {
			return false;
		}
		takeJson(reader, &span, oneObjectPerLine);
	}
	return status == 0 || (status > 0 && reader->noMemory);
}

/* A cast document: {"ballcast": ..., "results": [...], ...}, members walked
 * one by one so that the results array streams. Other members are checked
 * for syntax and left. */
static bool readDocument(cliResultsReader* reader, bcError* error)
{
	cliJsonStream* json = &reader->json;
	cliJsonStream_Enter(json, error);
	bool seenResults = false;
	int status;
	while ((status = cliJsonStream_Next(json, error)) > 0) {
		if (!seenResults && !json->keyHasNul && strcmp(json->key, "results") == 0 &&
			cliJsonStream_Enter(json, error) > 0) {
			seenResults = true;
			if (!readJsonValues(reader, false, error)) {
				return false;
			}
			continue;
		}
		cliJsonSpan span;
		if (cliJsonStream_Take(json, &span, error) < 0) {
			return false;
		}
		size_t offset = 0;
		if (cliJsonParser_Parse(reader->parser, span.text, span.length, &offset, error->message,
								sizeof error->message) == NULL) {
			long line, column;
			cliTextPosition(span.text, offset == SIZE_MAX ? 0 : offset, span.line, span.column, &line, &column);
			error->code = offset == SIZE_MAX ? bc_errorNoMemory : bc_errorSyntax;
			error->line = line;
			error->column = column;
			error->record = -1;
			return false;
		}
	}
	return status == 0 && cliJsonStream_Finish(json, "unexpected data after the results document", error) > 0;
}

/* ----------------------------------------------------------------- CSV */

/* A problem at cell column. */
CLI_PRINTF(4, 5)
static bool cellProblem(cliResultsReader* reader, cliResult* r, int column, const char* format, ...)
{
	const cliCsvCell* cell = reader->csv.cells + reader->columnOf[column];
	char message[sizeof ((bcError*)NULL)->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	problem(reader, r, cell->line, cell->column, "%s", message);
	return false;
}

static const char* cellText(const cliResultsReader* reader, int column)
{
	return cliCsv_Text(&reader->csv, reader->columnOf[column]);
}

/* A cell's number: 1, 0 when empty, -1 with a problem. */
static int cellNumber(cliResultsReader* reader, cliResult* r, int column, double* value)
{
	bcError bad;
	int status = cliCsv_Field(&reader->csv, reader->columnOf[column], csvNames[column], value, &bad);
	if (status < 0) {
		problem(reader, r, bad.line, bad.column, "%s", bad.message);
	}
	reader->decimalCommas += status > 0 && cliCsv_HasDecimalComma(&reader->csv, reader->columnOf[column]);
	return status;
}

static int cellWhole(cliResultsReader* reader, cliResult* r, int column, int32_t* value)
{
	double x = 0.0;
	int status = cellNumber(reader, r, column, &x);
	if (status > 0 && !wholeInt32(x, value)) {
		cellProblem(reader, r, column, "%s: expected a whole number (a 32-bit integer), found '%.*s'", csvNames[column],
					CLI_QUOTE_MAX, cellText(reader, column));
		return -1;
	}
	return status;
}

/* true/false in any case, or 1/0 (what spreadsheets and Python write);
 * tolerant, also yes/no and y/n in any case. */
static int cellBool(cliResultsReader* reader, cliResult* r, int column, bool* value)
{
	static const char* const names[] = { "false", "true" };
	const char* text = cellText(reader, column);
	if (text[0] == '\0') {
		return 0;
	}
	if (isTolerant(reader) && boolWord(text, value)) {
		return 1;
	}
	for (int b = 0; b < 2; ++b) {
		size_t n = strlen(names[b]);
		bool same = strlen(text) == n;
		for (size_t i = 0; same && i < n; ++i) {
			same = (text[i] | 0x20) == names[b][i];
		}
		if (same || (text[0] == '0' + b && text[1] == '\0')) {
			*value = b == 1;
			return 1;
		}
	}
	cellProblem(reader, r, column, "%s: expected true or false, found '%.*s'", csvNames[column], CLI_QUOTE_MAX,
				text);
	return -1;
}

/* "3:edge 4:vertex": triangle:feature pairs separated by spaces. */
static void cellTies(cliResultsReader* reader, cliResult* r)
{
	const char* text = cellText(reader, cli_csvTies);
	const char* p = text;
	for (;;) {
		while (*p == ' ' || *p == '\t') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		char* end = NULL;
		long triangle = strtol(p, &end, 10);
		char name[8];
		size_t n = 0;
		bool ok = end != p && isDigit(*p) && *end == ':' && triangle <= INT32_MAX;
		if (ok) {
			p = end + 1;
			while (*p != '\0' && *p != ' ' && *p != '\t' && n + 1 < sizeof name) {
				name[n++] = *p++;
			}
			name[n] = '\0';
		}
		cliTie tie;
		memset(&tie, 0, sizeof tie);
		if (!ok || (*p != '\0' && *p != ' ' && *p != '\t') || !parseFeatureName(name, &tie.feature) ||
			tie.feature == bc_featureNone) {
			cellProblem(reader, r, cli_csvTies, "ties: expected triangle:feature pairs separated by spaces, found '%.*s'",
						CLI_QUOTE_MAX, text);
			dropTies(r);
			return;
		}
		tie.triangle = (int32_t)triangle;
		tie.fields = cli_resultTriangle | cli_resultFeature;
		if (!appendTie(reader, r, &tie)) {
			return;
		}
	}
	r->fields |= r->tieCount > 0 ? cli_resultTies : 0;
}

/* The id from the id cell (none when empty). */
static void cellId(cliResultsReader* reader, cliResult* r)
{
	if (reader->columnOf[cli_csvId] < 0 || reader->columnOf[cli_csvId] >= reader->csv.count) {
		return;
	}
	const cliCsvCell* cell = reader->csv.cells + reader->columnOf[cli_csvId];
	const char* text = cellText(reader, cli_csvId);
	if (cell->length == 0 || strlen(text) != cell->length) {
		return;
	}
	r->id = cliCopyText(text, cell->length);
	reader->noMemory = reader->noMemory || r->id == NULL;
	r->idKind = r->id == NULL ? cli_idIndex : cliIsJsonNumber(text, cell->length) ? cli_idNumber : cli_idString;
}

static void csvResult(cliResultsReader* reader, cliResult* r)
{
	const cliCsv* csv = &reader->csv;
	const int* of = reader->columnOf;
	cellId(reader, r);
	if (csv->count != reader->headerCount) {
		/* too many: at the first cell too many; too few: where the next would be */
		bool many = csv->count > reader->headerCount;
		problem(reader, r, many ? csv->cells[reader->headerCount].line : csv->endLine,
				many ? csv->cells[reader->headerCount].column : csv->endColumn,
				"expected %d cells as in the header, found %d", reader->headerCount, csv->count);
		return;
	}
	/* in cast's order of columns, so that the first problem kept is the one a
	 * reader of cast's output meets first */
	reader->field = cli_resultHit;
	if (of[cli_csvHit] >= 0 && cellBool(reader, r, cli_csvHit, &r->hit) > 0) {
		r->fields |= cli_resultHit;
	}
	reader->field = cli_resultAlpha;
	bool miss = (r->fields & cli_resultHit) && !r->hit;
	if (of[cli_csvAlpha] >= 0 && miss && isTolerant(reader) && isNanWord(cellText(reader, cli_csvAlpha))) {
		/* a miss's alpha is not graded: NaN is no problem there */
	} else if (of[cli_csvAlpha] >= 0 && cellNumber(reader, r, cli_csvAlpha, &r->alpha) > 0) {
		r->fields |= cli_resultAlpha;
	}
	reader->field = cli_resultInitialOverlap;
	if (of[cli_csvInitialOverlap] >= 0 && cellBool(reader, r, cli_csvInitialOverlap, &r->initialOverlap) > 0) {
		r->fields |= cli_resultInitialOverlap;
	}
	reader->field = cli_resultFeature;
	if (of[cli_csvFeature] >= 0 && cellText(reader, cli_csvFeature)[0] != '\0') {
		if (parseFeatureName(cellText(reader, cli_csvFeature), &r->feature)) {
			r->fields |= cli_resultFeature;
		} else {
			cellProblem(reader, r, cli_csvFeature, "feature: expected face, edge, vertex or none, found '%.*s'",
						CLI_QUOTE_MAX, cellText(reader, cli_csvFeature));
		}
	}
	reader->field = cli_resultTriangle;
	if (of[cli_csvTriangle] >= 0 && cellWhole(reader, r, cli_csvTriangle, &r->triangle) > 0) {
		r->fields |= cli_resultTriangle;
	}
	reader->field = cli_resultFace;
	if (of[cli_csvFace] >= 0 && cellWhole(reader, r, cli_csvFace, &r->face) > 0) {
		r->fields |= cli_resultFace;
	}
	/* vertex_0 .. vertex_2: the leading non-empty cells */
	reader->field = cli_resultVertices;
	bool gap = false;
	for (int k = 0; k < 3; ++k) {
		int column = cli_csvVertex0 + k;
		if (of[column] < 0) {
			gap = true;
			continue;
		}
		int status = cellWhole(reader, r, column, r->vertices + r->vertexCount);
		if (status > 0 && gap) {
			r->vertices[r->vertexCount] = 0;
			cellProblem(reader, r, column, "%s: given after an empty or missing vertex column", csvNames[column]);
		} else if (status > 0) {
			r->vertexCount++;
			r->fields |= cli_resultVertices;
		} else {
			gap = true;
		}
	}
	for (int v = 0; v < 6; ++v) {
		const cliCsvVector* vector = vectors + v;
		if (of[vector->first] < 0) {
			continue;
		}
		reader->field = vector->field;
		double values[3] = { 0.0, 0.0, 0.0 };
		int given[3];
		for (int a = 0; a < 3; ++a) {
			given[a] = cellNumber(reader, r, vector->first + a, values + a);
		}
		if (given[0] < 0 || given[1] < 0 || given[2] < 0) {
			continue;
		}
		if (given[0] != given[1] || given[0] != given[2]) {
			int empty = vector->first + (given[0] == 0 ? 0 : given[1] == 0 ? 1 : 2);
			cellProblem(reader, r, empty, "%s: %s, %s and %s must be all given or all empty", vector->key,
						csvNames[vector->first], csvNames[vector->first + 1], csvNames[vector->first + 2]);
			continue;
		}
		if (given[0] > 0) {
			*vectorOf(r, v) = bcMakeVec3(values[0], values[1], values[2]);
			r->fields |= vector->field;
		}
	}
	reader->field = 0;
	if (of[cli_csvError] >= 0 && cellText(reader, cli_csvError)[0] != '\0') {
		r->error = cliCopyText(cellText(reader, cli_csvError), strlen(cellText(reader, cli_csvError)));
		reader->noMemory = reader->noMemory || r->error == NULL;
		r->fields |= r->error != NULL ? cli_resultError : 0;
	}
	if (of[cli_csvTies] >= 0) {
		reader->field = cli_resultTies;
		cellTies(reader, r);
	}
	reader->field = 0;
}

/* The header through the options' spellings (tolerant or --map): as
 * cliCsv_MapHeader, but a column known twice or not at all is ignored
 * (and named) when tolerant. */
static int mapHeader(cliResultsReader* reader, bcError* error)
{
	const cliCsv* csv = &reader->csv;
	for (int k = 0; k < cli_csvCount; ++k) {
		reader->columnOf[k] = -1;
	}
	int known = 0;
	for (int c = 0; c < csv->count; ++c) {
		const char* text = cliCsv_Text(csv, c);
		const char* name = cliResultsCanonicalName(reader->options, text);
		int k = 0;
		while (k < cli_csvCount && strcmp(name, csvNames[k]) != 0) {
			k++;
		}
		if (k < cli_csvCount && reader->columnOf[k] < 0) {
			reader->columnOf[k] = c;
			known++;
		} else if (k < cli_csvCount && !reader->options->tolerant) {
			cliCsv_CellError(csv, c, error, "duplicate column '%s' in the CSV header", text);
			return -1;
		} else if (text[0] != '\0') {
			addIgnored(reader, text);
		}
	}
	return known > 0;
}

/* The header row as written (its cells joined by the separator), cut to
 * CLI_QUOTE_MAX bytes, bytes that are not printable as '?'. */
static void headerText(const cliCsv* csv, char* text, size_t size)
{
	size_t n = 0;
	for (int c = 0; c < csv->count && n + 1 < size && n < CLI_QUOTE_MAX; ++c) {
		if (c > 0) {
			text[n++] = csv->separator;
		}
		for (const char* p = cliCsv_Text(csv, c); *p != '\0' && n + 1 < size && n < CLI_QUOTE_MAX; ++p) {
			unsigned char b = (unsigned char)*p;
			text[n++] = b >= 0x20 && b < 0x7f ? (char)b : b == '\t' ? '\t' : '?';
		}
	}
	text[n] = '\0';
}

/* How the separator reads in a message: "';'", "tabs". */
static const char* separatorName(char separator)
{
	return separator == ';' ? "';'" : separator == '\t' ? "tabs" : separator == '|' ? "'|'" : "','";
}

static bool readCsv(cliResultsReader* reader, bcError* error)
{
	cliCsv* csv = &reader->csv;
	bcError bad;
	/* the separator is the header's: ';' (and decimal commas), a tab, '|' or ',' */
	char separator = cliCsv_SniffSeparator(csv, error);
	if (separator == '\0') {
		return false;
	}
	csv->separator = separator;
	csv->decimalComma = separator != ',';
	int status = cliCsv_Next(csv, &bad, error);
	if (status == 2) {
		*error = bad;
		return false;
	}
	if (status <= 0) {
		return status == 0; /* empty: no results */
	}
	reader->headerCount = csv->count;
	status = reader->options != NULL ? mapHeader(reader, error)
									 : cliCsv_MapHeader(csv, csvNames, cli_csvCount, reader->columnOf, error);
	if (status < 0) {
		return false;
	}
	if (status == 0) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorSyntax;
		error->line = csv->line;
		error->column = csv->column;
		char header[CLI_QUOTE_MAX + 1];
		headerText(csv, header, sizeof header);
		snprintf(error->message, sizeof error->message,
				 "not a results file: no known column in the CSV header '%s' (cells separated by %s; expected id, "
				 "hit, alpha, ...)",
				 header, separatorName(separator));
		return false;
	}
	cliCsv_WholeVectors(reader->columnOf, vectors, 6);
	while (!reader->noMemory && (status = cliCsv_Next(csv, &bad, error)) > 0) {
		cliResult* r = appendResult(reader);
		if (r == NULL) {
			break;
		}
		r->line = csv->line;
		r->column = csv->column;
		if (status == 2) {
			problem(reader, r, bad.line, bad.column, "%s", bad.message);
			if (csv->count == reader->headerCount) {
				cellId(reader, r);
			}
		} else {
			csvResult(reader, r);
		}
	}
	reader->set->shape = status == 0 && reader->set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	return status == 0 || reader->noMemory;
}

/* ------------------------------------------------------------ reading */

/* Add a note to set->understood ("; " between notes). */
static void addUnderstood(cliResultSet* set, const char* note)
{
	size_t n = strlen(set->understood);
	snprintf(set->understood + n, sizeof set->understood - n, "%s%s", n > 0 ? "; " : "", note);
}

/* What the reading understood: set's shape, positional and understood. */
static void describe(const cliResultsReader* reader, cliResultSet* set)
{
	bool ids = false;
	for (long i = 0; i < set->count && !ids; ++i) {
		ids = set->results[i].idKind != cli_idIndex;
	}
	set->positional = set->count > 0 && !ids;
	char note[96];
	if (set->format == cli_inputCsv && reader->csv.separator != ',') {
		snprintf(note, sizeof note, "read as CSV separated by %s%s", separatorName(reader->csv.separator),
				 reader->decimalCommas > 0 ? " with decimal commas" : "");
		addUnderstood(set, note);
	}
	if (reader->keyed) {
		addUnderstood(set, "read as JSON keyed by id");
		if (set->count == 0) {
			set->shape = cli_shapeHeaderOnly;
		}
	}
	if (reader->nestedKey[0] != '\0') {
		snprintf(note, sizeof note, "answers nested under \"%.*s\"", CLI_QUOTE_MAX, reader->nestedKey);
		addUnderstood(set, note);
	}
}

static bool readAll(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error)
{
	memset(set, 0, sizeof *set);
	cliResultsReader reader;
	memset(&reader, 0, sizeof reader);
	reader.set = set;
	reader.options = options;
	bcError scratch;
	error = error != NULL ? error : &scratch;
	memset(error, 0, sizeof *error);
	error->record = -1;
	bool ok = cliInput_Open(&reader.input, stream);
	ok = ok && cliJsonStream_Open(&reader.json, &reader.input);
	ok = ok && (reader.parser = cliJsonParser_Create()) != NULL;
	reader.noMemory = !ok;
	cliCsv_Open(&reader.csv, &reader.input);
	int status = ok ? cliInput_SkipByteOrderMark(&reader.input, error) : -1;
	status = status > 0 ? cliInput_SkipSpace(&reader.input, error) : status;
	ok = status >= 0;
	char first = status > 0 ? reader.input.buffer[reader.input.start] : '\0';
	set->format = first == '[' ? cli_inputJson : first == '{' || status == 0 ? cli_inputNdjson : cli_inputCsv;
	set->shape = status == 0 ? cli_shapeEmptyFile : cli_shapeRecords;
	if (ok && first == '[') {
		cliJsonStream_Enter(&reader.json, error);
		ok = readJsonValues(&reader, false, error) &&
			 cliJsonStream_Finish(&reader.json, "unexpected data after the closing ']'", error) > 0;
		set->shape = set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	} else if (ok && first == '{') {
		int document = cliJsonStream_HasArrayMember(&reader.json, "results", error);
		ok = document >= 0;
		set->document = document > 0;
		set->format = set->document ? cli_inputJson : cli_inputNdjson;
		ok = ok && (set->document ? readDocument(&reader, error) : readJsonValues(&reader, true, error));
		set->shape = set->document && set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	} else if (ok && status > 0) {
		ok = readCsv(&reader, error);
	}
	if (reader.noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
		ok = false;
	}
	for (long i = 0; i < set->count; ++i) {
		set->problems += set->results[i].problem != NULL;
	}
	set->ignored = reader.ignored;
	if (ok) {
		describe(&reader, set);
	}
	cliJsonParser_Destroy(reader.parser);
	cliJsonStream_Close(&reader.json);
	cliCsv_Close(&reader.csv);
	cliInput_Close(&reader.input);
	if (!ok) {
		cliInputFormat format = set->format;
		bool document = set->document;
		cliResultSet_Free(set);
		set->format = format; /* what the input was taken for, to tell it in messages */
		set->document = document;
	}
	return ok;
}

bool cliReadResults(FILE* stream, cliResultSet* set, bcError* error)
{
	return readAll(stream, NULL, set, error);
}

bool cliReadResultsWith(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error)
{
	return readAll(stream, options, set, error);
}

bool cliParseResults(const char* text, size_t length, cliResultSet* set, bcError* error)
{
	return cliParseResultsWith(text, length, NULL, set, error);
}

bool cliParseResultsWith(const char* text, size_t length, const cliResultsReadOptions* options, cliResultSet* set,
						 bcError* error)
{
	FILE* stream = length > 0 ? fmemopen((void*)text, length, "rb") : NULL;
	if (stream == NULL) {
		stream = tmpfile(); /* fmemopen may refuse an empty buffer: empty reads the same */
	}
	if (stream == NULL) {
		memset(set, 0, sizeof *set);
		if (error != NULL) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorNoMemory;
			snprintf(error->message, sizeof error->message, "out of memory");
		}
		return false;
	}
	bool ok = readAll(stream, options, set, error);
	fclose(stream);
	return ok;
}

/* --------------------------------------------------------------- ids */

/* "n" then the exact decimal value: sign, significant digits without
 * leading or trailing zeros, "e" and the exponent of the last digit;
 * "n0" for zero of either sign. text is a JSON number. */
static char* numberKey(const char* text, size_t n)
{
	char* key = malloc(n + 32);
	if (key == NULL) {
		return NULL;
	}
	size_t i = 0;
	bool negative = text[i] == '-';
	if (negative) {
		i++;
	}
	char* digits = key + 2; /* room for "n-" */
	size_t count = 0;
	long long exponent = 0;
	for (; i < n && isDigit(text[i]); ++i) {
		digits[count++] = text[i];
	}
	if (i < n && text[i] == '.') {
		for (++i; i < n && isDigit(text[i]); ++i) {
			digits[count++] = text[i];
			exponent -= 1;
		}
	}
	if (i < n && (text[i] == 'e' || text[i] == 'E')) {
		++i;
		bool down = i < n && text[i] == '-';
		if (i < n && (text[i] == '-' || text[i] == '+')) {
			++i;
		}
		long long e = 0;
		for (; i < n && isDigit(text[i]); ++i) {
			e = e < CLI_EXPONENT_LIMIT ? 10 * e + (text[i] - '0') : e;
		}
		exponent += down ? -e : e;
	}
	size_t lead = 0;
	while (lead < count && digits[lead] == '0') {
		lead++;
	}
	while (count > lead && digits[count - 1] == '0') {
		count--;
		exponent += 1;
	}
	if (count == lead) {
		strcpy(key, "n0");
		return key;
	}
	char* out = key;
	*out++ = 'n';
	if (negative) {
		*out++ = '-';
	}
	memmove(out, digits + lead, count - lead);
	out += count - lead;
	snprintf(out, 24, "e%lld", exponent);
	return key;
}

char* cliResultIdKey(const cliResult* result)
{
	char index[32];
	const char* text = result->id;
	if (result->idKind == cli_idIndex || text == NULL) {
		snprintf(index, sizeof index, "%ld", result->index);
		text = index;
	}
	size_t n = strlen(text);
	if (cliIsJsonNumber(text, n)) {
		return numberKey(text, n);
	}
	char* key = malloc(n + 2);
	if (key != NULL) {
		key[0] = 's';
		memcpy(key + 1, text, n + 1);
	}
	return key;
}

void cliWriteResultIdJson(FILE* f, const cliResult* result)
{
	if (result->idKind == cli_idNumber) {
		fputs(result->id, f);
	} else if (result->idKind == cli_idString) {
		cliWriteJsonString(f, result->id);
	} else {
		cliWriteInt(f, result->index);
	}
}
