/* results_json.c - results read strictly from JSON (results_json.h): one
 * result object and the containers cast writes it in (an array, NDJSON,
 * cast's document), through the one JSON front end (json_stream.c). A
 * student's file is read the tolerant way (results_table.c). */
#include "results_json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_stream.h"
#include "output.h"

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
	cliResultsReader_Problem(source->reader, source->result, line, column, "%s", message);
	return false;
}

static bool jsonBool(const cliSource* source, const cJSON* v, const char* name, bool* value)
{
	if (!cJSON_IsBool(v)) {
		return valueProblem(source, v, "%s: expected true or false", name);
	}
	*value = cJSON_IsTrue(v);
	return true;
}

static bool jsonNumber(const cliSource* source, const cJSON* v, const char* name, double* value)
{
	const char* problem = cliJsonNumberValue(v, value);
	return problem == NULL || valueProblem(source, v, "%s: %s", name, problem);
}

static bool jsonWhole(const cliSource* source, const cJSON* v, const char* name, int32_t* value)
{
	double x = 0.0;
	if (!jsonNumber(source, v, name, &x)) {
		return false;
	}
	if (!cliWholeInt32(x, value)) {
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
		cliLocateJsonNode(source->text, source->length, source->root, v, &value, &key) &&
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
	if (text == NULL || !cliParseFeatureName(text, feature)) {
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
		ok = cJSON_IsNumber(e) && cliWholeInt32(e->valuedouble, read + k);
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
	cli_keyPoint, /* the six vectors, in the order of cliResultVectors[] */
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
		name = cliResultsReadOptions_CanonicalName(options, name);
	}
	int k = keyIndex(name);
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
	cliResultsReader_AppendTie(source->reader, source->result, &tie);
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
			cliResult_DropTies(source->result);
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
		if (strcmp(name, cliResultColumns[c]) == 0) {
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
} cliJsonFields;

/* Read member m of a result object, known as name: false when name is no
 * key or component a reader knows. */
static bool jsonMember(const cliSource* source, const cJSON* m, const char* name, cliJsonFields* f)
{
	cliResultsReader* reader = source->reader;
	cliResult* r = source->result;
	reader->field = 0;
	int k = memberKey(source, m, name, &f->seen, f->escapes);
	int component = -1;
	if (k == -2 && reader->options != NULL) {
		component = vectorComponent(cliResultsReadOptions_CanonicalName(reader->options, name));
	}
	if (k == -2 && component < 0) {
		return false;
	}
	if (component >= 0) {
		int v = component / 3;
		reader->field = cliResultVectors[v].field;
		if (!cJSON_IsNull(m) &&
			jsonNumber(source, m, cliResultColumns[cliResultVectors[v].first + component % 3],
					   &f->components[v][component % 3])) {
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
		ok = jsonVec3(source, m, cliResultVectors[k - cli_keyPoint].key, cliResult_Vector(r, k - cli_keyPoint));
		field = cliResultVectors[k - cli_keyPoint].field;
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

/* Fill r from the result object parsed from text[0 .. length). */
static void jsonResult(cliResultsReader* reader, cliResult* r, const char* text, size_t length, const cJSON* root)
{
	cliSource source = { reader, r, text, length, root };
	cliJsonFields f;
	memset(&f, 0, sizeof f);
	f.escapes = memchr(text, '\\', length) != NULL;
	for (const cJSON* m = root->child; m != NULL; m = m->next) {
		jsonMember(&source, m, m->string, &f);
	}
	reader->field = 0;
	for (int v = 0; v < 4; ++v) {
		if (f.given[v] == 7 && !(r->fields & cliResultVectors[v].field)) {
			*cliResult_Vector(r, v) = bcMakeVec3(f.components[v][0], f.components[v][1], f.components[v][2]);
			r->fields |= cliResultVectors[v].field;
		}
	}
}

/* The JSON value span (taken from the stream) as the next result. */
static void takeJson(cliResultsReader* reader, const cliJsonSpan* span, bool oneObjectPerLine)
{
	cliResult* r = cliResultsReader_Append(reader);
	if (r == NULL) {
		return;
	}
	r->line = span->line;
	r->column = span->column;
	const char* expected = oneObjectPerLine ? "expected a result object (one JSON object per line)"
											: "expected a result object";
	if (span->bad) {
		cliResultsReader_Problem(reader, r, span->problem.line, span->problem.column, "%s", span->problem.message);
	} else {
		size_t offset = 0;
		char message[sizeof span->problem.message];
		cJSON* root = cliJsonParser_Parse(reader->parser, span->text, span->length, &offset, message, sizeof message);
		if (root != NULL && cJSON_IsObject(root)) {
			jsonResult(reader, r, span->text, span->length, root);
			return;
		}
		if (root != NULL) {
			cliResultsReader_Problem(reader, r, span->line, span->column, "%s", expected);
			return;
		}
		if (offset == SIZE_MAX) {
			reader->noMemory = true;
			return;
		}
		long line, column;
		cliTextPosition(span->text, offset, span->line, span->column, &line, &column);
		cliResultsReader_Problem(reader, r, line, column, "%s", message);
	}
	/* a record that is not JSON keeps its id if one can be read */
	bool noMemory = false;
	cliJsonRecordId(span->text, span->length, NULL, reader->parser, &r->idKind, &r->id, &noMemory);
	reader->noMemory = reader->noMemory || noMemory;
}

/* The values of the container the stream is in, each a result. */
bool cliResultsReader_ReadJsonValues(cliResultsReader* reader, bool oneObjectPerLine, bcError* error)
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
bool cliResultsReader_ReadDocument(cliResultsReader* reader, bcError* error)
{
	cliJsonStream* json = &reader->json;
	cliJsonStream_Enter(json, error);
	bool seenResults = false;
	int status;
	while ((status = cliJsonStream_Next(json, error)) > 0) {
		if (!seenResults && !json->keyHasNul && strcmp(json->key, "results") == 0 &&
			cliJsonStream_Enter(json, error) > 0) {
			seenResults = true;
			if (!cliResultsReader_ReadJsonValues(reader, false, error)) {
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
