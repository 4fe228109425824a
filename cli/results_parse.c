/* results_parse.c - the state a results reader keeps while it reads one
 * file, shared by the JSON and CSV record readers and the tolerant one
 * (results_parse.h): the columns and vectors a result has, --map's names,
 * the names it ignored, the first problem of each result, and appending
 * results and ties. */
#include "results_parse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* Results the set starts with room for; it doubles from there. */
#define CLI_RESULTS_INITIAL 64

const char* const cliResultColumns[cli_csvCount] = {
	"id",       "hit",      "alpha",    "initial_overlap",   "feature",           "triangle",          "face",
	"vertex_0", "vertex_1", "vertex_2", "point_x",           "point_y",           "point_z",           "center_x",
	"center_y", "center_z", "normal_x", "normal_y",          "normal_z",          "triangle_normal_x", "triangle_normal_y",
	"triangle_normal_z",    "error",    "ties",              "x0",                "y0",                "z0",
	"x1",       "y1",       "z1",
};

/* The six vectors. */
const cliCsvVector cliResultVectors[6] = {
	{ "point", cli_csvPointX, cli_resultPoint },
	{ "center", cli_csvCenterX, cli_resultCenter },
	{ "normal", cli_csvNormalX, cli_resultNormal },
	{ "triangle_normal", cli_csvTriangleNormalX, cli_resultTriangleNormal },
	{ "p0", cli_csvX0, cli_resultP0 },
	{ "p1", cli_csvX1, cli_resultP1 },
};

bcVec3* cliResult_Vector(cliResult* r, int v)
{
	bcVec3* fields[6] = { &r->point, &r->center, &r->normal, &r->triangleNormal, &r->p0, &r->p1 };
	return fields[v];
}

/* Names kept for the warning about ignored keys and columns. */
#define CLI_IGNORED_NAMES 12

const char* cliResultsReadOptions_CanonicalName(const cliResultsReadOptions* options, const char* name)
{
	for (int k = 0; options != NULL && k < options->mapCount; ++k) {
		if (strcmp(name, options->map[2 * k]) == 0) {
			return options->map[2 * k + 1];
		}
	}
	return name;
}

/* Remember a name read from nothing (tolerant), once. */
void cliResultsReader_Ignore(cliResultsReader* reader, const char* name)
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

/* Keep the first problem of a result, with where it is. */
void cliResultsReader_Problem(cliResultsReader* reader, cliResult* r, long line, long column, const char* format, ...)
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
cliResult* cliResultsReader_Append(cliResultsReader* reader)
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

bool cliResultsReader_AppendTie(cliResultsReader* reader, cliResult* r, const cliTie* tie)
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

bool cliParseFeatureName(const char* name, bcFeature* feature)
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

/* Drop the ties read so far (the ties field has a problem). */
void cliResult_DropTies(cliResult* r)
{
	free(r->ties);
	r->ties = NULL;
	r->tieCount = 0;
}

bool cliResult_TakeVertex(cliResult* r, int status, bool* gap)
{
	if (status > 0 && *gap) {
		r->vertices[r->vertexCount] = 0;
		return false;
	}
	if (status > 0) {
		r->vertexCount++;
		r->fields |= cli_resultVertices;
	} else {
		*gap = true;
	}
	return true;
}

int cliResultsReader_TiesText(cliResultsReader* reader, cliResult* r, const char* text)
{
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
		bool ok = end != p && cliIsDigit(*p) && *end == ':' && triangle <= INT32_MAX;
		if (ok) {
			p = end + 1;
			while (*p != '\0' && *p != ' ' && *p != '\t' && n + 1 < sizeof name) {
				name[n++] = *p++;
			}
			name[n] = '\0';
		}
		cliTie tie;
		memset(&tie, 0, sizeof tie);
		if (!ok || (*p != '\0' && *p != ' ' && *p != '\t') || !cliParseFeatureName(name, &tie.feature) ||
			tie.feature == bc_featureNone) {
			cliResult_DropTies(r);
			return 0;
		}
		tie.triangle = (int32_t)triangle;
		tie.fields = cli_resultTriangle | cli_resultFeature;
		if (!cliResultsReader_AppendTie(reader, r, &tie)) {
			return -1;
		}
	}
	r->fields |= r->tieCount > 0 ? cli_resultTies : 0;
	return 1;
}
