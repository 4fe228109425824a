/* render_cmd.c - `ballcast render MESH [RESULTS|TRAJECTORIES] -o FILE.svg`:
 * a picture of the mesh and of the throws, for a browser.
 *
 * The second file holds trajectories (cast's input: render casts them) or
 * results as `ballcast cast` writes them (JSON document, NDJSON or CSV);
 * which one is told by the keys of its first record. Results are read here
 * by a small reader of their own (cJSON for JSON, a few lines for CSV):
 * they are written by cast, so it checks what the picture needs, and points
 * at the record, not at the byte. The whole file is read into memory: a
 * picture of more throws than fit in memory would be a black square. */
#include <cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "numfmt.h"
#include "output.h"
#include "records.h"
#include "svg.h"
#include "vec3.h"

/* The picture's default size and the sizes allowed, in pixels. Below 64 the
 * title band and margins leave no room for the mesh; above 100000 a
 * rasteriser would need tens of gigabytes. */
#define CLI_RENDER_DEFAULT_WIDTH 800
#define CLI_RENDER_DEFAULT_HEIGHT 600
#define CLI_RENDER_MIN_SIZE 64
#define CLI_RENDER_MAX_SIZE 100000

/* Space around the mesh, and the height of one line of the title band, in
 * pixels; the title font size in pixels. */
#define CLI_RENDER_MARGIN 16.0
#define CLI_RENDER_LINE_HEIGHT 18.0
#define CLI_RENDER_FONT_SIZE 13.0
#define CLI_RENDER_LABEL_SIZE 11.0

/* Marks, in pixels: the contact dot (large enough to find in a raster), the
 * expected contact drawn under a differing one (larger, so a ring of it
 * shows even when both coincide), the start of a path, line widths, and the
 * drawn length of a unit normal lying across the view. */
#define CLI_RENDER_DOT_RADIUS 5.0
#define CLI_RENDER_EXPECTED_DOT_RADIUS 7.0
#define CLI_RENDER_DIFFER_DOT_RADIUS 4.0
#define CLI_RENDER_START_RADIUS 2.5
#define CLI_RENDER_PATH_WIDTH 1.5
#define CLI_RENDER_THIN_WIDTH 1.0
#define CLI_RENDER_NORMAL_PIXELS 36.0

/* --compare: a result differs from the expected one when hit, feature or
 * error-ness differ, when alpha differs by more than this (alpha is a
 * fraction of the path: 1e-9 is far above the last-digit noise of a correct
 * solution, far below any mistake a grader cares about), or when a
 * coordinate of the contact point differs by more than this (absolute, in
 * mesh units: the samples are metres, so a nanometre). */
#define CLI_COMPARE_ALPHA_TOLERANCE 1e-9
#define CLI_COMPARE_POINT_TOLERANCE 1e-9

/* Colours: paths and balls blue, contacts orange, normals near black,
 * misses grey; with --compare, what differs red and what was expected
 * green. */
#define CLI_PATH_COLOR { 31, 95, 191 }
#define CLI_CONTACT_COLOR { 255, 127, 14 }
#define CLI_NORMAL_COLOR { 40, 40, 40 }
#define CLI_DIFFER_COLOR { 214, 39, 40 }
#define CLI_EXPECTED_COLOR { 44, 160, 44 }
static const cliColor missColor = { 140, 140, 140 };
static const cliColor differColor = CLI_DIFFER_COLOR;
static const cliColor textColor = { 0, 0, 0 };

static const cliUsage renderUsage = {
	"render",
	"usage: ballcast render [OPTIONS] MESH.obj [RESULTS|TRAJECTORIES]\n"
	"\n"
	"Draw the mesh and the throws as a self-contained SVG picture: the mesh\n"
	"flat-shaded (back faces dimmed), each path from p0 to p1 (dashed past the\n"
	"contact), the ball at the contact, the contact point and its normal.\n"
	"The second file holds trajectories (as for cast: render casts them) or\n"
	"results as cast writes them (JSON, NDJSON or CSV: they hold no path, so\n"
	"only the contacts are drawn); '-' reads standard input, none draws the\n"
	"mesh alone.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE         write the SVG here instead of standard output\n"
	"  -i, --input-format FMT    auto (default), json, ndjson or csv\n"
	"      --view AZ,EL          look from azimuth AZ, elevation EL in degrees\n"
	"                            (default 35,25; 0,0 looks from -y, z up)\n"
	"      --eye X,Y,Z           look from X,Y,Z at the centre of the mesh's bounds\n"
	"      --size WxH            picture size in pixels (default 800x600)\n"
	"      --compare EXPECTED    draw results differing from EXPECTED's (by id) in\n"
	"                            red, with the expected contact in green\n"
	"  -r, --radius R            radius for trajectories without \"r\"\n"
	"      --two-sided           count contacts from behind a triangle too\n"
	"      --probe X,Y,Z         print on standard error the pixel where the point\n"
	"                            X,Y,Z lands (a testing aid; may be repeated)\n"
	"  -q, --quiet               no notes on standard error\n"
	"  -h, --help                this help\n"
	"\n"
	"examples:\n"
	"  ballcast render samples/room.obj samples/throws.json -o room.svg\n"
	"  ballcast render --compare expected.json room.obj student.json -o diff.svg\n"
	"  ballcast render --view 0,90 --size 1200x900 room.obj -o top.svg\n"
};

typedef struct cliRenderConfig {
	const char* meshPath;
	const char* inputPath;    /* NULL: the mesh alone */
	const char* comparePath;  /* NULL: no comparison */
	cliCommonOptions common;
	bcCastOptions options;
	bool useEye;
	bcVec3 eye;
	double azimuth, elevation;
	int width, height;
	const char** probes;      /* probeCount argument texts (argv's) */
	int probeCount;
} cliRenderConfig;

/* ------------------------------------------------------------- throws */

typedef enum cliThrowState {
	cli_throwMiss = 0,
	cli_throwHit,   /* a hit or an initial overlap: point, center, normal hold */
	cli_throwError  /* a bad record, or a result that is an error */
} cliThrowState;

/* One throw to draw, from a trajectory and its cast or from a result. */
typedef struct cliThrow {
	char* id;          /* the id (owned): as written, or shortest if a number */
	long index;        /* 0-based record number */
	cliThrowState state;
	bool hasPath;
	bcVec3 p0, p1;
	double alpha;
	bcFeature feature; /* bc_featureNone when a result does not say */
	bcVec3 point, center, normal;
	double radius;
	long partner;      /* --compare: the matching record of the other list, or -1 */
	bool differs;      /* --compare: differs from its partner (or has none) */
} cliThrow;

typedef struct cliThrowList {
	cliThrow* items; /* owned */
	long count, capacity;
	long badRecords; /* records that could not be read (reported) */
} cliThrowList;

static void freeThrows(cliThrowList* list)
{
	for (long i = 0; i < list->count; ++i) {
		free(list->items[i].id);
	}
	free(list->items);
	memset(list, 0, sizeof *list);
}

/* A new zeroed throw at the end of list, or NULL when out of memory. */
static cliThrow* appendThrow(cliThrowList* list)
{
	if (list->count == list->capacity) {
		long capacity = list->capacity > 0 ? 2 * list->capacity : 64;
		cliThrow* items = realloc(list->items, (size_t)capacity * sizeof *items);
		if (items == NULL) {
			return NULL;
		}
		list->items = items;
		list->capacity = capacity;
	}
	cliThrow* t = list->items + list->count;
	memset(t, 0, sizeof *t);
	t->index = list->count;
	t->partner = -1;
	list->count += 1;
	return t;
}

static char* copyString(const char* text)
{
	size_t n = strlen(text) + 1;
	char* copy = malloc(n);
	if (copy != NULL) {
		memcpy(copy, text, n);
	}
	return copy;
}

/* An id that reads as a number is kept in its shortest form, so that 7.50
 * in CSV (echoed as written) and 7.5 in JSON (read as a number) are one id
 * to --compare and look the same in the picture; any other id as its text. */
static char* canonicalId(const char* id)
{
	double value = 0.0;
	if (cliParseDouble(id, &value)) {
		char buffer[CLI_NUMFMT_SIZE];
		cliFormatDouble(value, buffer);
		return copyString(buffer);
	}
	return copyString(id);
}

/* Set the throw's id from text; false when out of memory. */
static bool setId(cliThrow* t, const char* text)
{
	t->id = canonicalId(text);
	return t->id != NULL;
}

static bool setIndexId(cliThrow* t)
{
	char buffer[32];
	snprintf(buffer, sizeof buffer, "%ld", t->index);
	return setId(t, buffer);
}

/* ------------------------------------------------------------- input text */

/* A whole input file in memory, and a forward cursor turning byte offsets
 * into 1-based lines and byte columns. */
typedef struct cliSource {
	const char* name; /* for messages: the path, or "<stdin>" */
	char* text;       /* owned, NUL terminated */
	size_t length;
	size_t begin;     /* after a UTF-8 byte order mark (not counted in columns) */
	size_t at;        /* the next unread byte */
	size_t cursor;    /* line counting: line holds at cursor ... */
	long line;
	size_t lineStart; /* ... and the line starts here */
	bool silent;      /* report nothing (while detecting the kind) */
} cliSource;

static bool readSource(const char* path, cliSource* source)
{
	memset(source, 0, sizeof *source);
	source->name = cliInputName(path);
	FILE* f = cliOpenInput(path);
	if (f == NULL) {
		return false;
	}
	bcError error = { 0 };
	size_t capacity = 0;
	bool ok = true;
	for (;;) {
		if (capacity - source->length < 2) {
			size_t grown = capacity > 0 ? 2 * capacity : 65536;
			char* text = realloc(source->text, grown);
			if (text == NULL) {
				snprintf(error.message, sizeof error.message, "out of memory");
				ok = false;
				break;
			}
			source->text = text;
			capacity = grown;
		}
		size_t got = fread(source->text + source->length, 1, capacity - source->length - 1, f);
		source->length += got;
		if (got == 0) {
			if (ferror(f)) {
				snprintf(error.message, sizeof error.message, "cannot read: %s", strerror(errno));
				ok = false;
			}
			break;
		}
	}
	cliCloseInput(f);
	if (!ok) {
		cliReportError(source->name, &error);
		free(source->text);
		source->text = NULL;
		return false;
	}
	source->text[source->length] = '\0';
	if (source->length >= 3 && memcmp(source->text, "\xEF\xBB\xBF", 3) == 0) {
		source->begin = 3;
	}
	source->at = source->begin;
	source->cursor = source->begin;
	source->lineStart = source->begin;
	source->line = 1;
	return true;
}

static void positionOf(cliSource* s, size_t offset, long* line, long* column)
{
	if (offset < s->cursor) {
		s->cursor = s->begin;
		s->lineStart = s->begin;
		s->line = 1;
	}
	for (; s->cursor < offset && s->cursor < s->length; ++s->cursor) {
		if (s->text[s->cursor] == '\n') {
			s->line += 1;
			s->lineStart = s->cursor + 1;
		}
	}
	*line = s->line;
	*column = offset >= s->lineStart ? (long)(offset - s->lineStart) + 1 : 1;
}

/* "ballcast: FILE:LINE:COLUMN: message" for the byte at offset. */
static void syntaxError(cliSource* s, size_t offset, const char* message)
{
	if (s->silent) {
		return;
	}
	bcError error = { 0 };
	error.code = bc_errorSyntax;
	positionOf(s, offset, &error.line, &error.column);
	snprintf(error.message, sizeof error.message, "%s", message);
	cliReportError(s->name, &error);
}

static bool isBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skipBlank(cliSource* s)
{
	while (s->at < s->length && isBlank(s->text[s->at])) {
		s->at++;
	}
}

/* A record that cannot be drawn: reported, counted, drawn as nothing. */
static void badRecord(cliSource* s, cliThrowList* list, cliThrow* t, size_t offset, const char* problem, bool quiet)
{
	t->state = cli_throwError;
	list->badRecords += 1;
	if (!quiet) {
		long line = 0, column = 0;
		positionOf(s, offset, &line, &column);
		fprintf(stderr, "ballcast: %s:%ld:%ld: record %ld: %s\n", s->name, line, column, t->index, problem);
	}
}

/* --------------------------------------------------------- JSON results */

/* Parse the JSON value at s->at; NULL (reported) if malformed. */
static cJSON* parseJsonValue(cliSource* s)
{
	const char* end = NULL;
	cJSON* value = cJSON_ParseWithLengthOpts(s->text + s->at, s->length - s->at, &end, 0);
	if (value == NULL) {
		size_t offset = end != NULL && end >= s->text + s->at ? (size_t)(end - s->text) : s->at;
		syntaxError(s, offset < s->length ? offset : s->length, "malformed JSON value");
		return NULL;
	}
	s->at = (size_t)(end - s->text);
	return value;
}

/* key as 3 finite numbers; 1 present, 0 absent, -1 malformed. */
static int jsonVector(const cJSON* object, const char* key, bcVec3* v)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
	if (item == NULL) {
		return 0;
	}
	if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3) {
		return -1;
	}
	double c[3];
	for (int k = 0; k < 3; ++k) {
		const cJSON* e = cJSON_GetArrayItem(item, k);
		if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
			return -1;
		}
		c[k] = e->valuedouble;
	}
	*v = bcMakeVec3(c[0], c[1], c[2]);
	return 1;
}

static bool parseFeature(const char* text, bcFeature* feature)
{
	static const bcFeature features[3] = { bc_featureFace, bc_featureEdge, bc_featureVertex };
	for (int k = 0; k < 3; ++k) {
		if (strcmp(text, bcFeatureName(features[k])) == 0) {
			*feature = features[k];
			return true;
		}
	}
	return false;
}

/* The radius of a result's ball is |center - point|, except for an initial
 * overlap, where the ball starts closer than r: then it is not known, and
 * 0 (no ball drawn). The normal of a result that gives none: from the
 * point to the centre. */
static void finishContact(cliThrow* t, bool haveNormal, bool overlap)
{
	t->radius = overlap ? 0.0 : bcDistance(t->center, t->point);
	if (!haveNormal) {
		t->normal = bcNormalize(bcSub(t->center, t->point));
	}
}

/* Fill t from one result object; returns the problem, or NULL. The static
 * strings returned name the field, as cast's reader does. */
static const char* resultFromJson(const cJSON* item, cliThrow* t, bool* noMemory)
{
	if (!cJSON_IsObject(item)) {
		return "expected an object";
	}
	const cJSON* id = cJSON_GetObjectItemCaseSensitive(item, "id");
	bool idSet = true;
	if (id == NULL) {
		idSet = setIndexId(t);
	} else if (cJSON_IsString(id)) {
		idSet = setId(t, id->valuestring);
	} else if (cJSON_IsNumber(id)) {
		char buffer[CLI_NUMFMT_SIZE];
		cliFormatDouble(id->valuedouble, buffer);
		idSet = setId(t, buffer);
	} else {
		idSet = setIndexId(t);
		if (idSet) {
			return "id: expected a string or a number";
		}
	}
	if (!idSet) {
		*noMemory = true;
		return "out of memory";
	}
	const cJSON* error = cJSON_GetObjectItemCaseSensitive(item, "error");
	if (error != NULL) {
		if (!cJSON_IsString(error)) {
			return "error: expected a string";
		}
		t->state = cli_throwError;
		return NULL;
	}
	const cJSON* hit = cJSON_GetObjectItemCaseSensitive(item, "hit");
	if (hit == NULL) {
		return "missing hit";
	}
	if (!cJSON_IsBool(hit)) {
		return "hit: expected true or false";
	}
	const cJSON* alpha = cJSON_GetObjectItemCaseSensitive(item, "alpha");
	if (alpha == NULL) {
		return "missing alpha";
	}
	if (!cJSON_IsNumber(alpha) || !isfinite(alpha->valuedouble)) {
		return "alpha: expected a number";
	}
	t->alpha = alpha->valuedouble;
	int p0 = jsonVector(item, "p0", &t->p0);
	int p1 = jsonVector(item, "p1", &t->p1);
	if (p0 < 0) {
		return "p0: expected an array of 3 numbers";
	}
	if (p1 < 0) {
		return "p1: expected an array of 3 numbers";
	}
	t->hasPath = p0 > 0 && p1 > 0;
	t->state = cJSON_IsTrue(hit) ? cli_throwHit : cli_throwMiss;
	if (t->state == cli_throwMiss) {
		return NULL;
	}
	int point = jsonVector(item, "point", &t->point);
	if (point <= 0) {
		return point == 0 ? "missing point" : "point: expected an array of 3 numbers";
	}
	int center = jsonVector(item, "center", &t->center);
	if (center <= 0) {
		return center == 0 ? "missing center" : "center: expected an array of 3 numbers";
	}
	int normal = jsonVector(item, "normal", &t->normal);
	if (normal < 0) {
		return "normal: expected an array of 3 numbers";
	}
	const cJSON* feature = cJSON_GetObjectItemCaseSensitive(item, "feature");
	if (feature != NULL && (!cJSON_IsString(feature) || !parseFeature(feature->valuestring, &t->feature))) {
		return "feature: expected \"face\", \"edge\" or \"vertex\"";
	}
	const cJSON* overlap = cJSON_GetObjectItemCaseSensitive(item, "initial_overlap");
	if (overlap != NULL && !cJSON_IsBool(overlap)) {
		return "initial_overlap: expected true or false";
	}
	finishContact(t, normal > 0, cJSON_IsTrue(overlap));
	return NULL;
}

/* Add the result at offset (already parsed into item). false when out of
 * memory (reported). */
static bool addJsonResult(cliSource* s, cliThrowList* list, const cJSON* item, size_t offset, bool quiet)
{
	cliThrow* t = appendThrow(list);
	bool noMemory = false;
	const char* problem = t != NULL ? resultFromJson(item, t, &noMemory) : "out of memory";
	if (t == NULL || noMemory) {
		fputs("ballcast: out of memory\n", stderr);
		return false;
	}
	if (problem != NULL) {
		if (t->id == NULL && !setIndexId(t)) {
			fputs("ballcast: out of memory\n", stderr);
			return false;
		}
		badRecord(s, list, t, offset, problem, quiet);
	}
	return true;
}

/* The elements of the JSON array at s->at ('['), each a result. */
static bool readJsonArray(cliSource* s, cliThrowList* list, bool quiet)
{
	s->at++;
	skipBlank(s);
	if (s->at < s->length && s->text[s->at] == ']') {
		s->at++;
		return true;
	}
	for (;;) {
		skipBlank(s);
		size_t offset = s->at;
		cJSON* item = parseJsonValue(s);
		if (item == NULL) {
			return false;
		}
		bool ok = addJsonResult(s, list, item, offset, quiet);
		cJSON_Delete(item);
		if (!ok) {
			return false;
		}
		skipBlank(s);
		char c = s->at < s->length ? s->text[s->at] : '\0';
		if (c == ']') {
			s->at++;
			return true;
		}
		if (c != ',') {
			syntaxError(s, s->at, "expected ',' or ']' after an element");
			return false;
		}
		s->at++;
	}
}

/* A cast JSON document: {"ballcast":..., "results":[...], ...}. The object
 * is walked member by member so that each result keeps its position. */
static bool readJsonDocument(cliSource* s, cliThrowList* list, bool quiet)
{
	bool seenResults = false;
	s->at++;
	skipBlank(s);
	if (s->at < s->length && s->text[s->at] == '}') {
		s->at++;
	} else {
		for (;;) {
			skipBlank(s);
			if (s->at >= s->length || s->text[s->at] != '"') {
				syntaxError(s, s->at, "expected a key");
				return false;
			}
			cJSON* key = parseJsonValue(s);
			if (key == NULL) {
				return false;
			}
			bool isResults = strcmp(key->valuestring, "results") == 0 && !seenResults;
			cJSON_Delete(key);
			skipBlank(s);
			if (s->at >= s->length || s->text[s->at] != ':') {
				syntaxError(s, s->at, "expected ':' after a key");
				return false;
			}
			s->at++;
			skipBlank(s);
			if (isResults && s->at < s->length && s->text[s->at] == '[') {
				seenResults = true;
				if (!readJsonArray(s, list, quiet)) {
					return false;
				}
			} else {
				cJSON* value = parseJsonValue(s);
				if (value == NULL) {
					return false;
				}
				cJSON_Delete(value);
			}
			skipBlank(s);
			char c = s->at < s->length ? s->text[s->at] : '\0';
			if (c == '}') {
				s->at++;
				break;
			}
			if (c != ',') {
				syntaxError(s, s->at, "expected ',' or '}' after a member");
				return false;
			}
			s->at++;
		}
	}
	if (!seenResults) {
		syntaxError(s, s->begin, "no \"results\" array in the JSON document");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- CSV results */

/* One decoded CSV row: count cells, cell k is text + starts[k] (NUL
 * terminated). Quoting as RFC 4180; unquoted cells lose surrounding blanks. */
typedef struct cliCsvRow {
	char* text;
	size_t* starts;
	int count;
	int capacity;
	size_t offset; /* where the row starts in the source */
} cliCsvRow;

/* Decode the next non-blank row; 1 a row, 0 the end, -1 error (reported). */
static int readCsvRow(cliSource* s, cliCsvRow* row)
{
	for (;;) {
		size_t lineEnd = s->at;
		bool blank = true;
		while (lineEnd < s->length && s->text[lineEnd] != '\n') {
			blank = blank && isBlank(s->text[lineEnd]);
			lineEnd++;
		}
		if (s->at >= s->length) {
			return 0;
		}
		if (!blank) {
			break;
		}
		s->at = lineEnd < s->length ? lineEnd + 1 : lineEnd;
	}
	row->offset = s->at;
	row->count = 0;
	free(row->text);
	/* A decoded row is never longer than the rest of the input. */
	row->text = malloc(s->length - s->at + 1);
	if (row->text == NULL) {
		fputs("ballcast: out of memory\n", stderr);
		return -1;
	}
	size_t o = 0;
	for (;;) {
		if (row->count == row->capacity) {
			int capacity = row->capacity > 0 ? 2 * row->capacity : 32;
			size_t* starts = realloc(row->starts, (size_t)capacity * sizeof *starts);
			if (starts == NULL) {
				fputs("ballcast: out of memory\n", stderr);
				return -1;
			}
			row->starts = starts;
			row->capacity = capacity;
		}
		row->starts[row->count++] = o;
		size_t cellStart = o;
		while (s->at < s->length && (s->text[s->at] == ' ' || s->text[s->at] == '\t')) {
			s->at++;
		}
		if (s->at < s->length && s->text[s->at] == '"') {
			size_t open = s->at++;
			for (;;) {
				if (s->at >= s->length) {
					syntaxError(s, open, "unterminated quoted cell");
					return -1;
				}
				if (s->text[s->at] == '"') {
					if (s->at + 1 < s->length && s->text[s->at + 1] == '"') {
						row->text[o++] = '"';
						s->at += 2;
						continue;
					}
					s->at++;
					break;
				}
				row->text[o++] = s->text[s->at++];
			}
			while (s->at < s->length && s->text[s->at] != ',' && s->text[s->at] != '\n') {
				s->at++;
			}
		} else {
			while (s->at < s->length && s->text[s->at] != ',' && s->text[s->at] != '\n') {
				row->text[o++] = s->text[s->at++];
			}
			while (o > cellStart && isBlank(row->text[o - 1])) {
				o--;
			}
		}
		row->text[o++] = '\0';
		if (s->at >= s->length) {
			return 1;
		}
		if (s->text[s->at++] == '\n') {
			return 1;
		}
	}
}

static const char* cell(const cliCsvRow* row, int column)
{
	return column >= 0 && column < row->count ? row->text + row->starts[column] : "";
}

/* The results CSV columns read. */
enum {
	cli_resultId = 0,
	cli_resultHit,
	cli_resultAlpha,
	cli_resultFeature,
	cli_resultOverlap,
	cli_resultError,
	cli_resultPoint,       /* point_x, point_y, point_z */
	cli_resultCenter = cli_resultPoint + 3,
	cli_resultNormal = cli_resultCenter + 3,
	cli_resultP0 = cli_resultNormal + 3, /* x0, y0, z0 */
	cli_resultP1 = cli_resultP0 + 3,     /* x1, y1, z1 */
	cli_resultColumnCount = cli_resultP1 + 3
};

static const char* const resultColumns[cli_resultColumnCount] = {
	"id", "hit", "alpha", "feature", "initial_overlap", "error", "point_x", "point_y", "point_z", "center_x",
	"center_y", "center_z",
	"normal_x", "normal_y", "normal_z", "x0", "y0", "z0", "x1", "y1", "z1",
};

/* Three cells from column `first` of the map; 1 all numbers, 0 all empty
 * (or no such columns), -1 otherwise. */
static int csvVector(const cliCsvRow* row, const int* columnOf, int first, bcVec3* v)
{
	double c[3];
	int given = 0;
	for (int k = 0; k < 3; ++k) {
		const char* text = cell(row, columnOf[first + k]);
		if (text[0] == '\0') {
			continue;
		}
		if (!cliParseDouble(text, c + k)) {
			return -1;
		}
		given++;
	}
	if (given == 0) {
		return 0;
	}
	if (given < 3) {
		return -1;
	}
	*v = bcMakeVec3(c[0], c[1], c[2]);
	return 1;
}

/* Fill t from one row; returns the problem, or NULL. message is room for
 * a problem that quotes numbers. */
static const char* resultFromCsv(const cliCsvRow* row, const int* columnOf, int headerCount, cliThrow* t,
								 bool* noMemory, char* message, size_t size)
{
	const char* id = cell(row, columnOf[cli_resultId]);
	if (!(id[0] != '\0' ? setId(t, id) : setIndexId(t))) {
		*noMemory = true;
		return "out of memory";
	}
	if (row->count != headerCount) {
		snprintf(message, size, "expected %d cells, found %d", headerCount, row->count);
		return message;
	}
	if (cell(row, columnOf[cli_resultError])[0] != '\0') {
		t->state = cli_throwError;
		return NULL;
	}
	const char* hit = cell(row, columnOf[cli_resultHit]);
	if (strcmp(hit, "true") != 0 && strcmp(hit, "false") != 0) {
		return hit[0] == '\0' ? "missing hit" : "hit: expected true or false";
	}
	const char* alpha = cell(row, columnOf[cli_resultAlpha]);
	if (alpha[0] == '\0') {
		return "missing alpha";
	}
	if (!cliParseDouble(alpha, &t->alpha)) {
		return "alpha: expected a number";
	}
	int p0 = csvVector(row, columnOf, cli_resultP0, &t->p0);
	int p1 = csvVector(row, columnOf, cli_resultP1, &t->p1);
	if (p0 < 0) {
		return "p0: x0, y0 and z0 must be numbers, all given or all empty";
	}
	if (p1 < 0) {
		return "p1: x1, y1 and z1 must be numbers, all given or all empty";
	}
	t->hasPath = p0 > 0 && p1 > 0;
	t->state = strcmp(hit, "true") == 0 ? cli_throwHit : cli_throwMiss;
	if (t->state == cli_throwMiss) {
		return NULL;
	}
	int point = csvVector(row, columnOf, cli_resultPoint, &t->point);
	if (point <= 0) {
		return point == 0 ? "missing point" : "point: expected 3 numbers";
	}
	int center = csvVector(row, columnOf, cli_resultCenter, &t->center);
	if (center <= 0) {
		return center == 0 ? "missing center" : "center: expected 3 numbers";
	}
	int normal = csvVector(row, columnOf, cli_resultNormal, &t->normal);
	if (normal < 0) {
		return "normal: expected 3 numbers";
	}
	const char* feature = cell(row, columnOf[cli_resultFeature]);
	if (feature[0] != '\0' && !parseFeature(feature, &t->feature)) {
		return "feature: expected face, edge or vertex";
	}
	const char* overlap = cell(row, columnOf[cli_resultOverlap]);
	if (overlap[0] != '\0' && strcmp(overlap, "true") != 0 && strcmp(overlap, "false") != 0) {
		return "initial_overlap: expected true or false";
	}
	finishContact(t, normal > 0, strcmp(overlap, "true") == 0);
	return NULL;
}

static bool readCsvResults(cliSource* s, cliThrowList* list, bool quiet)
{
	cliCsvRow row = { 0 };
	int status = readCsvRow(s, &row);
	int columnOf[cli_resultColumnCount];
	for (int k = 0; k < cli_resultColumnCount; ++k) {
		columnOf[k] = -1;
	}
	for (int j = 0; status > 0 && j < row.count; ++j) {
		for (int k = 0; k < cli_resultColumnCount; ++k) {
			if (strcmp(cell(&row, j), resultColumns[k]) == 0 && columnOf[k] < 0) {
				columnOf[k] = j;
			}
		}
	}
	int headerCount = row.count;
	char message[64];
	while (status > 0 && (status = readCsvRow(s, &row)) > 0) {
		cliThrow* t = appendThrow(list);
		bool noMemory = t == NULL;
		const char* problem = t != NULL ? resultFromCsv(&row, columnOf, headerCount, t, &noMemory, message, sizeof message) : NULL;
		if (noMemory) {
			fputs("ballcast: out of memory\n", stderr);
			status = -1;
			break;
		}
		if (problem != NULL) {
			badRecord(s, list, t, row.offset, problem, quiet);
		}
	}
	free(row.text);
	free(row.starts);
	return status == 0;
}

/* ------------------------------------------------------- which input */

typedef enum cliInputKind {
	cli_kindTrajectories = 0,
	cli_kindResults,         /* a JSON array, NDJSON or CSV of results */
	cli_kindResultsDocument  /* cast's JSON document */
} cliInputKind;

static bool hasKey(const cJSON* object, const char* key)
{
	return cJSON_GetObjectItemCaseSensitive(object, key) != NULL;
}

/* Results have hit and alpha (or error); trajectories p0 and p1. A record
 * with neither is read as a trajectory, so that it is reported as one. */
static cliInputKind kindOfRecord(const cJSON* item)
{
	if (cJSON_IsObject(item) && (hasKey(item, "hit") || hasKey(item, "alpha") || hasKey(item, "error"))) {
		return cli_kindResults;
	}
	return cli_kindTrajectories;
}

/* Look at the first record (without reporting anything: a malformed input
 * is read as trajectories, whose reader reports it precisely). */
static cliInputKind detectKind(const cliSource* s, cliInputFormat* format)
{
	size_t at = s->begin;
	while (at < s->length && isBlank(s->text[at])) {
		at++;
	}
	if (at >= s->length) {
		return cli_kindTrajectories;
	}
	char first = s->text[at];
	if (*format == cli_inputAuto) {
		*format = first == '[' ? cli_inputJson : (first == '{' ? cli_inputNdjson : cli_inputCsv);
	}
	if (*format == cli_inputCsv) {
		cliSource copy = *s;
		copy.at = s->begin;
		copy.silent = true;
		cliCsvRow row = { 0 };
		int status = readCsvRow(&copy, &row);
		cliInputKind kind = cli_kindTrajectories;
		for (int j = 0; status > 0 && j < row.count; ++j) {
			const char* name = cell(&row, j);
			if (strcmp(name, "hit") == 0 || strcmp(name, "alpha") == 0 || strcmp(name, "error") == 0) {
				kind = cli_kindResults;
			}
		}
		free(row.text);
		free(row.starts);
		return kind;
	}
	if (first == '[') {
		at++;
		while (at < s->length && isBlank(s->text[at])) {
			at++;
		}
	}
	cJSON* item = cJSON_ParseWithLengthOpts(s->text + at, s->length - at, NULL, 0);
	cliInputKind kind = kindOfRecord(item);
	if (first == '{' && cJSON_IsObject(item) && (hasKey(item, "results") || hasKey(item, "ballcast"))) {
		kind = cli_kindResultsDocument;
	}
	cJSON_Delete(item);
	return kind;
}

/* Read results in the format detected; false on a syntax error or no
 * memory (reported). */
static bool readResults(cliSource* s, cliInputFormat format, cliInputKind kind, cliThrowList* list, bool quiet)
{
	if (format == cli_inputCsv) {
		return readCsvResults(s, list, quiet);
	}
	skipBlank(s);
	bool ok = true;
	if (kind == cli_kindResultsDocument) {
		ok = readJsonDocument(s, list, quiet);
	} else if (format == cli_inputJson) {
		if (s->at >= s->length || s->text[s->at] != '[') {
			syntaxError(s, s->at, "expected '[' at the start of a JSON array");
			return false;
		}
		ok = readJsonArray(s, list, quiet);
	} else {
		while (ok && s->at < s->length) {
			size_t offset = s->at;
			cJSON* item = parseJsonValue(s);
			ok = item != NULL && addJsonResult(s, list, item, offset, quiet);
			cJSON_Delete(item);
			skipBlank(s);
		}
		return ok;
	}
	skipBlank(s);
	if (ok && s->at < s->length) {
		syntaxError(s, s->at, "unexpected text after the JSON value");
		return false;
	}
	return ok;
}

/* --------------------------------------------------------- trajectories */

/* Check one trajectory record as cast does; returns the problem or NULL. */
static const char* checkTrajectory(const cliRenderConfig* cfg, const cliRecord* record, bcCastInput* input)
{
	const char* problem = cliCheckTrajectory(record, &cfg->common, &input->p0, &input->p1, &input->radius);
	if (problem != NULL) {
		return problem;
	}
	if (!bcIsValidCastInput(*input)) {
		return "p1 - p0 is not finite";
	}
	return NULL;
}

/* The trajectories waiting for their cast: inputs[i] belongs to throw
 * slots[i]. */
typedef struct cliCastQueue {
	bcCastInput* inputs;
	long* slots;
	long count, capacity;
} cliCastQueue;

static bool queueCast(cliCastQueue* queue, bcCastInput input, long slot)
{
	if (queue->count == queue->capacity) {
		long capacity = queue->capacity > 0 ? 2 * queue->capacity : 64;
		bcCastInput* inputs = realloc(queue->inputs, (size_t)capacity * sizeof *inputs);
		if (inputs == NULL) {
			return false;
		}
		queue->inputs = inputs;
		long* slots = realloc(queue->slots, (size_t)capacity * sizeof *slots);
		if (slots == NULL) {
			return false;
		}
		queue->slots = slots;
		queue->capacity = capacity;
	}
	queue->inputs[queue->count] = input;
	queue->slots[queue->count] = slot;
	queue->count += 1;
	return true;
}

/* Cast the queue and store each answer in its throw. */
static bool runCasts(const cliRenderConfig* cfg, const bcMesh* mesh, const cliCastQueue* queue, cliThrowList* list)
{
	if (queue->count == 0) {
		return true;
	}
	bcCastOutput* outputs = queue->count <= INT32_MAX ? malloc((size_t)queue->count * sizeof *outputs) : NULL;
	if (outputs == NULL) {
		return false;
	}
	bcMesh_CastBatch(mesh, queue->inputs, outputs, (int)queue->count, &cfg->options, 0);
	for (long i = 0; i < queue->count; ++i) {
		cliThrow* t = list->items + queue->slots[i];
		const bcCastOutput* out = outputs + i;
		t->alpha = out->alpha;
		if (out->state == bc_castHit || out->state == bc_castInitialOverlap) {
			t->state = cli_throwHit;
			t->feature = out->feature;
			t->point = out->point;
			t->center = out->center;
			t->normal = out->normal;
		} else {
			t->state = cli_throwMiss;
		}
	}
	free(outputs);
	return true;
}

/* Read trajectories with cast's own reader (same formats, same messages),
 * cast them, keep them as throws. false on a syntax error or no memory
 * (reported). */
static bool castTrajectories(const cliRenderConfig* cfg, const bcMesh* mesh, cliSource* s, cliThrowList* list)
{
	FILE* stream = s->length > 0 ? fmemopen(s->text, s->length, "rb") : NULL;
	if (stream == NULL) {
		/* fmemopen may refuse an empty buffer: an empty file reads the same. */
		stream = tmpfile();
	}
	cliReader* reader = stream != NULL ? cliReader_Create(stream, s->name, cfg->common.inputFormat) : NULL;
	cliCastQueue queue = { NULL, NULL, 0, 0 };
	bool ok = reader != NULL;
	bool noMemory = !ok;
	bcError error = { 0 };
	int got = 0;
	while (ok) {
		cliRecord record;
		memset(&record, 0, sizeof record);
		got = cliReader_Next(reader, &record, &error);
		if (got <= 0) {
			ok = got == 0;
			break;
		}
		cliThrow* t = appendThrow(list);
		ok = t != NULL && (record.idKind == cli_idIndex ? setIndexId(t) : setId(t, record.id));
		bcCastInput input = { { 0, 0, 0 }, { 0, 0, 0 }, 0 };
		const char* problem = ok ? checkTrajectory(cfg, &record, &input) : NULL;
		if (ok && problem != NULL) {
			t->state = cli_throwError;
			list->badRecords += 1;
			if (!cfg->common.quiet) {
				fprintf(stderr, "ballcast: %s:%ld:%ld: record %ld: %s\n", s->name, record.line, record.column,
						record.index, problem);
			}
		} else if (ok) {
			t->hasPath = true;
			t->p0 = input.p0;
			t->p1 = input.p1;
			t->radius = input.radius;
			ok = queueCast(&queue, input, list->count - 1);
		}
		noMemory = !ok;
		cliRecord_Free(&record);
	}
	if (got < 0) {
		cliReportError(s->name, &error);
	}
	cliReader_Destroy(reader);
	if (stream != NULL) {
		fclose(stream);
	}
	if (ok && !runCasts(cfg, mesh, &queue, list)) {
		ok = false;
		noMemory = true;
	}
	if (noMemory) {
		fputs("ballcast: out of memory\n", stderr);
	}
	free(queue.inputs);
	free(queue.slots);
	return ok;
}

/* Read the throws of path: trajectories are cast, results read (with
 * resultsOnly, trajectories are refused). false on trouble (reported). */
static bool readThrows(const cliRenderConfig* cfg, const bcMesh* mesh, const char* path, cliThrowList* list,
					   bool resultsOnly)
{
	cliSource source;
	if (!readSource(path, &source)) {
		return false;
	}
	cliInputFormat format = cfg->common.inputFormat;
	cliInputKind kind = detectKind(&source, &format);
	bool ok = false;
	if (kind != cli_kindTrajectories) {
		ok = readResults(&source, format, kind, list, cfg->common.quiet);
	} else if (resultsOnly) {
		fprintf(stderr, "ballcast: %s: holds trajectories, not results (--compare needs what cast writes)\n",
				source.name);
	} else {
		ok = castTrajectories(cfg, mesh, &source, list);
	}
	free(source.text);
	return ok;
}

/* ------------------------------------------------------------- compare */

/* An expected throw by its key, for the binary search. */
typedef struct cliKeyRef {
	const char* key;
	long index;
} cliKeyRef;

static int byKey(const void* a, const void* b)
{
	const cliKeyRef* x = a;
	const cliKeyRef* y = b;
	int c = strcmp(x->key, y->key);
	if (c != 0) {
		return c;
	}
	return (x->index > y->index) - (x->index < y->index);
}

static bool differ(const cliThrow* a, const cliThrow* e)
{
	if (a->state != e->state) {
		return true;
	}
	if (a->state == cli_throwError) {
		return false;
	}
	if (fabs(a->alpha - e->alpha) > CLI_COMPARE_ALPHA_TOLERANCE) {
		return true;
	}
	if (a->state == cli_throwMiss) {
		return false;
	}
	return a->feature != e->feature || fabs(a->point.x - e->point.x) > CLI_COMPARE_POINT_TOLERANCE ||
		   fabs(a->point.y - e->point.y) > CLI_COMPARE_POINT_TOLERANCE ||
		   fabs(a->point.z - e->point.z) > CLI_COMPARE_POINT_TOLERANCE;
}

/* Pair each actual throw with the expected one of the same id (the n-th
 * of an id with the n-th of that id) and mark what differs. Returns the
 * number of expected throws left without a partner, or -1 out of memory. */
static long matchThrows(cliThrowList* actual, cliThrowList* expected)
{
	cliKeyRef* sorted = malloc((size_t)(expected->count > 0 ? expected->count : 1) * sizeof *sorted);
	if (sorted == NULL) {
		return -1;
	}
	for (long i = 0; i < expected->count; ++i) {
		sorted[i].key = expected->items[i].id;
		sorted[i].index = i;
	}
	qsort(sorted, (size_t)expected->count, sizeof *sorted, byKey);
	for (long i = 0; i < actual->count; ++i) {
		cliThrow* a = actual->items + i;
		long lo = 0, hi = expected->count;
		while (lo < hi) {
			long mid = lo + (hi - lo) / 2;
			if (strcmp(sorted[mid].key, a->id) < 0) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		/* the n-th record of an id pairs with the n-th expected one of it */
		while (lo < expected->count && strcmp(sorted[lo].key, a->id) == 0 &&
			   expected->items[sorted[lo].index].partner >= 0) {
			lo++;
		}
		if (lo < expected->count && strcmp(sorted[lo].key, a->id) == 0) {
			cliThrow* e = expected->items + sorted[lo].index;
			e->partner = i;
			a->partner = sorted[lo].index;
			a->differs = differ(a, e);
		} else {
			a->differs = true;
		}
	}
	free(sorted);
	long missing = 0;
	for (long i = 0; i < expected->count; ++i) {
		missing += expected->items[i].partner < 0;
	}
	return missing;
}

/* ------------------------------------------------------------- drawing */

typedef struct cliThrowStyle {
	const char* className;
	cliColor path, contact, normal;
	double dotRadius;
} cliThrowStyle;

static const cliThrowStyle plainStyle = { "throw", CLI_PATH_COLOR, CLI_CONTACT_COLOR, CLI_NORMAL_COLOR,
										  CLI_RENDER_DOT_RADIUS };
static const cliThrowStyle differStyle = { "differs", CLI_DIFFER_COLOR, CLI_DIFFER_COLOR, CLI_DIFFER_COLOR,
										   CLI_RENDER_DIFFER_DOT_RADIUS };
static const cliThrowStyle expectedStyle = { "expected", CLI_EXPECTED_COLOR, CLI_EXPECTED_COLOR, CLI_EXPECTED_COLOR,
											 CLI_RENDER_EXPECTED_DOT_RADIUS };

/* The path, the ball at the contact, the normal and the contact dot, in
 * that order (the dot on top). */
static void drawThrow(cliSvg* svg, const cliCamera* camera, const cliThrow* t, const cliThrowStyle* style)
{
	if (t->state == cli_throwError) {
		return;
	}
	cliSvg_BeginGroup(svg, style->className, t->id);
	/* a plain miss in grey: it has no contact to draw the eye to */
	const bool grey = t->state == cli_throwMiss && style == &plainStyle;
	if (t->hasPath) {
		cliScreenPoint p0 = cliCamera_Project(camera, t->p0);
		cliScreenPoint p1 = cliCamera_Project(camera, t->p1);
		if (t->state == cli_throwHit) {
			cliScreenPoint center = cliCamera_Project(camera, t->center);
			cliSvg_Line(svg, "path", p0, center, style->path, CLI_RENDER_PATH_WIDTH, false);
			cliSvg_Line(svg, "after", center, p1, style->path, CLI_RENDER_PATH_WIDTH, true);
		} else {
			cliSvg_Line(svg, "path", p0, p1, grey ? missColor : style->path, CLI_RENDER_PATH_WIDTH, false);
		}
		cliSvg_Circle(svg, "start", p0, CLI_RENDER_START_RADIUS, grey ? missColor : style->path, true, 0.0);
	}
	if (t->state == cli_throwHit) {
		cliScreenPoint point = cliCamera_Project(camera, t->point);
		if (t->radius > 0.0) {
			cliSvg_Circle(svg, "ball", cliCamera_Project(camera, t->center), camera->scale * t->radius, style->path,
						  false, CLI_RENDER_PATH_WIDTH);
		}
		bcVec3 tip = bcMulAdd(t->point, CLI_RENDER_NORMAL_PIXELS / camera->scale, t->normal);
		cliSvg_Arrow(svg, "normal", point, cliCamera_Project(camera, tip), style->normal, CLI_RENDER_THIN_WIDTH);
		cliSvg_Circle(svg, "contact", point, style->dotRadius, style->contact, true, 0.0);
	}
	cliSvg_EndGroup(svg);
}

/* A differing throw: a thin red dashed line from its contact to the
 * expected one (first, so that the dots cover its ends), the expected
 * contact in green under it, and its id beside it. */
static void drawDiffering(cliSvg* svg, const cliCamera* camera, const cliThrow* t, const cliThrow* expected)
{
	bool here = t->state == cli_throwHit;
	bool there = expected != NULL && expected->state == cli_throwHit;
	if (here && there) {
		cliSvg_Line(svg, "link", cliCamera_Project(camera, t->point), cliCamera_Project(camera, expected->point),
					differColor, CLI_RENDER_THIN_WIDTH, true);
	}
	if (expected != NULL) {
		drawThrow(svg, camera, expected, &expectedStyle);
	}
	drawThrow(svg, camera, t, &differStyle);
	if (here || there) {
		cliScreenPoint at = cliCamera_Project(camera, here ? t->point : expected->point);
		cliSvg_Text(svg, "label", at.x + 2.0 * CLI_RENDER_DOT_RADIUS, at.y - 2.0 * CLI_RENDER_DOT_RADIUS,
					CLI_RENDER_LABEL_SIZE, differColor, t->id);
	}
}

/* How many throws are in each state. */
typedef struct cliCounts {
	long hits, misses, errors;
} cliCounts;

static cliCounts countThrows(const cliThrowList* list)
{
	cliCounts counts = { 0, 0, 0 };
	for (long i = 0; i < list->count; ++i) {
		cliThrowState state = list->items[i].state;
		counts.hits += state == cli_throwHit;
		counts.misses += state == cli_throwMiss;
		counts.errors += state == cli_throwError;
	}
	return counts;
}

/* The title band: mesh, counts, and the comparison. */
static void drawLegend(cliSvg* svg, const cliRenderConfig* cfg, const bcMesh* mesh, const cliThrowList* actual,
					   long differing, long missing)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCounts counts = countThrows(actual);
	size_t size = strlen(cfg->meshPath) + (cfg->comparePath != NULL ? strlen(cfg->comparePath) : 0) + 256;
	char* text = malloc(size);
	if (text == NULL) {
		return;
	}
	snprintf(text, size, "%s: %ld triangle%s; %ld throw%s: %ld hit%s, %ld miss%s, %ld error%s", cfg->meshPath,
			 (long)info.triangleCount, info.triangleCount == 1 ? "" : "s", actual->count,
			 actual->count == 1 ? "" : "s", counts.hits, counts.hits == 1 ? "" : "s", counts.misses,
			 counts.misses == 1 ? "" : "es", counts.errors, counts.errors == 1 ? "" : "s");
	cliSvg_Text(svg, "legend", CLI_RENDER_MARGIN, CLI_RENDER_LINE_HEIGHT - 1.0, CLI_RENDER_FONT_SIZE, textColor, text);
	if (cfg->comparePath != NULL) {
		snprintf(text, size, "compared with %s: %ld of %ld differ, %ld missing (red: these results, green: expected)",
				 cfg->comparePath, differing, actual->count, missing);
		cliSvg_Text(svg, "legend", CLI_RENDER_MARGIN, 2.0 * CLI_RENDER_LINE_HEIGHT - 1.0, CLI_RENDER_FONT_SIZE,
					textColor, text);
	}
	free(text);
}

/* The camera the options ask for, framing the mesh's bounds below the title band. */
static cliCamera makeCamera(const cliRenderConfig* cfg, const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 center = bcScale(0.5, bcAdd(info.lowerBound, info.upperBound));
	cliCamera camera = cfg->useEye ? cliCamera_FromDirection(bcSub(cfg->eye, center))
								   : cliCamera_FromAngles(cfg->azimuth, cfg->elevation);
	double band = (cfg->comparePath != NULL ? 2.0 : 1.0) * CLI_RENDER_LINE_HEIGHT + 4.0;
	cliViewport viewport = { CLI_RENDER_MARGIN, band + CLI_RENDER_MARGIN, cfg->width - CLI_RENDER_MARGIN,
							 cfg->height - CLI_RENDER_MARGIN };
	cliCamera_Frame(&camera, info.lowerBound, info.upperBound, viewport);
	return camera;
}

static void writeSvg(FILE* f, const cliRenderConfig* cfg, const bcMesh* mesh, const cliCamera* camera,
					 const cliThrowList* actual, const cliThrowList* expected, long missing, bool* noMemory)
{
	cliSvg svg;
	cliSvg_Begin(&svg, f, cfg->width, cfg->height,
				 "ballcast " BC_VERSION_STRING " render: orthographic view; coordinates are drawing coordinates in"
				 " pixels, rounded to 0.01");
	*noMemory = !cliSvg_Mesh(&svg, mesh, camera);
	fputs("<g class=\"throws\" stroke-linecap=\"round\">\n", f);
	long differing = 0;
	for (long i = 0; i < actual->count; ++i) {
		const cliThrow* t = actual->items + i;
		if (!t->differs) {
			drawThrow(&svg, camera, t, &plainStyle);
		}
		differing += t->differs;
	}
	for (long i = 0; i < expected->count; ++i) {
		if (expected->items[i].partner < 0) {
			drawThrow(&svg, camera, expected->items + i, &expectedStyle);
		}
	}
	for (long i = 0; i < actual->count; ++i) {
		const cliThrow* t = actual->items + i;
		if (t->differs) {
			drawDiffering(&svg, camera, t, t->partner >= 0 ? expected->items + t->partner : NULL);
		}
	}
	fputs("</g>\n", f);
	drawLegend(&svg, cfg, mesh, actual, differing, missing);
	cliSvg_End(&svg);
}

/* ------------------------------------------------------------ arguments */

/* count comma-separated finite numbers, the whole of text. */
static bool parseList(const char* text, double* values, int count)
{
	const char* p = text;
	for (int k = 0; k < count; ++k) {
		const char* end = strchr(p, ',');
		size_t n = k + 1 < count ? (end != NULL ? (size_t)(end - p) : 0) : strlen(p);
		if (n == 0 || n > 63 || (k + 1 == count && end != NULL)) {
			return false;
		}
		char part[64];
		memcpy(part, p, n);
		part[n] = '\0';
		if (!cliParseDouble(part, values + k)) {
			return false;
		}
		p += n + 1;
	}
	return true;
}

static bool parseSize(const char* text, int* width, int* height)
{
	const char* x = strchr(text, 'x');
	if (x == NULL || x == text || x - text > 15) {
		return false;
	}
	char part[16];
	memcpy(part, text, (size_t)(x - text));
	part[x - text] = '\0';
	return cliParseInt(part, width) && cliParseInt(x + 1, height) && *width >= CLI_RENDER_MIN_SIZE &&
		   *height >= CLI_RENDER_MIN_SIZE && *width <= CLI_RENDER_MAX_SIZE && *height <= CLI_RENDER_MAX_SIZE &&
		   part[0] != '+' && part[0] != ' ' && x[1] != '+' && x[1] != ' ';
}

/* Parse arguments; returns -1 to go on, or an exit status. cfg->probes is
 * allocated (the caller frees it). */
static int parseArguments(int argc, char** argv, cliRenderConfig* cfg)
{
	enum { optView = 256, optEye, optSize, optCompare, optTwoSided, optProbe };
	static const struct option longOptions[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input-format", required_argument, NULL, 'i' },
		{ "view", required_argument, NULL, optView },
		{ "eye", required_argument, NULL, optEye },
		{ "size", required_argument, NULL, optSize },
		{ "compare", required_argument, NULL, optCompare },
		{ "radius", required_argument, NULL, 'r' },
		{ "two-sided", no_argument, NULL, optTwoSided },
		{ "probe", required_argument, NULL, optProbe },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(cfg, 0, sizeof *cfg);
	cfg->options = bcDefaultCastOptions();
	cfg->azimuth = CLI_SVG_DEFAULT_AZIMUTH;
	cfg->elevation = CLI_SVG_DEFAULT_ELEVATION;
	cfg->width = CLI_RENDER_DEFAULT_WIDTH;
	cfg->height = CLI_RENDER_DEFAULT_HEIGHT;
	cfg->probes = malloc((size_t)argc * sizeof *cfg->probes);
	if (cfg->probes == NULL) {
		fputs("ballcast: out of memory\n", stderr);
		return cli_exitTrouble;
	}
	bool viewGiven = false;
	optind = 1;
	opterr = 0;
	int c, status;
	while ((c = getopt_long(argc, argv, ":o:i:r:qh", longOptions, NULL)) != -1) {
		double v[3];
		switch (c) {
		case optView:
			if (!parseList(optarg, v, 2) || v[1] < -90.0 || v[1] > 90.0) {
				return cliUsageError(&renderUsage, "--view needs AZ,EL in degrees with -90 <= EL <= 90, not", optarg);
			}
			cfg->azimuth = v[0];
			cfg->elevation = v[1];
			viewGiven = true;
			break;
		case optEye:
			if (!parseList(optarg, v, 3)) {
				return cliUsageError(&renderUsage, "--eye needs X,Y,Z, not", optarg);
			}
			cfg->eye = bcMakeVec3(v[0], v[1], v[2]);
			cfg->useEye = true;
			break;
		case optSize:
			if (!parseSize(optarg, &cfg->width, &cfg->height)) {
				return cliUsageError(&renderUsage, "--size needs WxH, whole numbers from 64 to 100000, not", optarg);
			}
			break;
		case optCompare:
			cfg->comparePath = optarg;
			break;
		case optTwoSided:
			cfg->options.twoSided = true;
			break;
		case optProbe:
			if (!parseList(optarg, v, 3)) {
				return cliUsageError(&renderUsage, "--probe needs X,Y,Z, not", optarg);
			}
			cfg->probes[cfg->probeCount++] = optarg;
			break;
		default:
			status = cliParseCommonOption(&renderUsage, c, argv, &cfg->common);
			if (status >= 0) {
				return status;
			}
			break;
		}
	}
	if (viewGiven && cfg->useEye) {
		return cliUsageError(&renderUsage, "--view and --eye are alternatives: give one", NULL);
	}
	int rest = argc - optind;
	if (rest < 1) {
		return cliUsageError(&renderUsage, "missing MESH", NULL);
	}
	if (rest > 2) {
		return cliUsageError(&renderUsage, "too many arguments, starting at", argv[optind + 2]);
	}
	cfg->meshPath = argv[optind];
	cfg->inputPath = rest == 2 ? argv[optind + 1] : NULL;
	if (cfg->comparePath != NULL && cfg->inputPath == NULL) {
		return cliUsageError(&renderUsage, "--compare needs results to compare: give RESULTS after MESH", NULL);
	}
	if (cfg->comparePath != NULL && strcmp(cfg->comparePath, "-") == 0 && strcmp(cfg->inputPath, "-") == 0) {
		return cliUsageError(&renderUsage, "standard input cannot be read twice (--compare - with RESULTS -)", NULL);
	}
	return -1;
}

/* --probe: where each point lands, on stderr. */
static void printProbes(const cliRenderConfig* cfg, const cliCamera* camera)
{
	for (int i = 0; i < cfg->probeCount; ++i) {
		double v[3];
		parseList(cfg->probes[i], v, 3);
		cliScreenPoint p = cliCamera_Project(camera, bcMakeVec3(v[0], v[1], v[2]));
		fprintf(stderr, "ballcast render: probe %s: ", cfg->probes[i]);
		cliSvgWriteCoord(stderr, p.x);
		putc(',', stderr);
		cliSvgWriteCoord(stderr, p.y);
		putc('\n', stderr);
	}
}

int cliRenderMain(int argc, char** argv)
{
	cliRenderConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		free(cfg.probes);
		return status;
	}
	/* A closed pipe is a write error to report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);

	bcMesh* mesh = cliLoadMesh(cfg.meshPath, cfg.common.quiet);
	if (mesh == NULL) {
		free(cfg.probes);
		return cli_exitTrouble;
	}
	if (cfg.useEye) {
		bcMeshInfo info = bcMesh_GetInfo(mesh);
		bcVec3 toEye = bcSub(cfg.eye, bcScale(0.5, bcAdd(info.lowerBound, info.upperBound)));
		if (!(bcLengthSquared(toEye) > 0.0) || !bcIsFinite(toEye)) {
			cliUsageError(&renderUsage, "--eye is at the centre of the mesh's bounds: no direction to look in", NULL);
			bcMesh_Destroy(mesh);
			free(cfg.probes);
			return cli_exitTrouble;
		}
	}
	cliThrowList actual = { 0 };
	cliThrowList expected = { 0 };
	bool ok = true;
	if (cfg.inputPath != NULL) {
		ok = readThrows(&cfg, mesh, cfg.inputPath, &actual, false);
	}
	if (ok && cfg.comparePath != NULL) {
		ok = readThrows(&cfg, mesh, cfg.comparePath, &expected, true);
	}
	long missing = 0;
	if (ok && cfg.comparePath != NULL) {
		missing = matchThrows(&actual, &expected);
		if (missing < 0) {
			fputs("ballcast: out of memory\n", stderr);
			ok = false;
		}
	}
	cliOutput output;
	if (ok && cliOutput_Open(&output, cfg.common.outputPath)) {
		cliCamera camera = makeCamera(&cfg, mesh);
		printProbes(&cfg, &camera);
		bool noMemory = false;
		writeSvg(output.stream, &cfg, mesh, &camera, &actual, &expected, missing, &noMemory);
		if (noMemory) {
			fputs("ballcast: out of memory\n", stderr);
			cliOutput_Abort(&output);
			status = cli_exitTrouble;
		} else if (!cliOutput_Commit(&output)) {
			status = cli_exitTrouble;
		} else {
			status = actual.badRecords + expected.badRecords > 0 ? cli_exitRecords : cli_exitOk;
		}
	} else {
		status = cli_exitTrouble;
	}
	freeThrows(&actual);
	freeThrows(&expected);
	bcMesh_Destroy(mesh);
	free(cfg.probes);
	return status;
}
