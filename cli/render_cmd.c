/* render_cmd.c - `ballcast render MESH [RESULTS|TRAJECTORIES] -o FILE.svg`:
 * a picture of the mesh and of the throws, for a browser.
 *
 * The second file holds trajectories (cast's input: render casts them, read
 * by cast's reader) or results as `ballcast cast` writes them (JSON
 * document, NDJSON or CSV, read by compare's reader); which one is told by
 * its first record. The whole file is read into memory: a picture of more
 * throws than fit in memory would be a black square.
 *
 * This file is the command: its options, reading the throws (cast or
 * read as results), pairing them with --compare's, and framing the view;
 * the picture is drawn by render_draw.c, its words placed by
 * render_layout.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "camera.h"
#include "cli.h"
#include "common.h"
#include "grade.h"
#include "numfmt.h"
#include "options.h"
#include "output.h"
#include "record_log.h"
#include "render_draw.h"
#include "results_read.h"
#include "svg.h"
#include "records.h"

/* The picture's default size and the sizes allowed, in pixels. Below 64 the
 * title band and margins leave no room for the mesh; above 100000 a
 * rasteriser would need tens of gigabytes. */
#define CLI_RENDER_DEFAULT_WIDTH 800
#define CLI_RENDER_DEFAULT_HEIGHT 600
#define CLI_RENDER_MIN_SIZE 64
#define CLI_RENDER_MAX_SIZE 100000

/* The options of render's own, in the order renderOption knows them: its
 * own, then cast's (answer.h), then the grading options (grade.h). */
enum { cli_renderView, cli_renderEye, cli_renderSize, cli_renderCompare, cli_renderProbe, cli_renderUp,
	   cli_renderCull, cli_renderCast,
	   cli_renderGrading = cli_renderCast + cli_castSettingCount + cli_castMethodCount };
static const cliOption renderOptions[] = {
	{ "view", 0, true },	  { "eye", 0, true },	   { "size", 0, true }, { "compare", 0, true },
	{ "probe", 0, true },	  { "up", 0, true },	   { "cull", 0, true }, CLI_CAST_SETTING_OPTIONS,
	CLI_CAST_METHOD_OPTIONS, CLI_GRADE_JUDGING_OPTIONS, { NULL, 0, false },
};

static const cliUsage renderUsage = {
	"render",
	"usage: ballcast render [OPTIONS] MESH.obj [RESULTS|TRAJECTORIES]\n"
	"\n"
	"Draw the mesh and the throws as a self-contained SVG picture: the mesh\n"
	"flat-shaded (back faces dimmed), each path from p0 to p1 (dashed past the\n"
	"contact), the ball at the contact, the contact point and its normal,\n"
	"each throw's id beside it, and a key of the marks and the up axis.\n"
	"The second file holds trajectories (as for cast: render casts them) or\n"
	"results as cast writes them (JSON, NDJSON or CSV: they hold no path, so\n"
	"only the contacts are drawn); '-' reads standard input, none draws the\n"
	"mesh alone.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE         write the SVG here instead of standard output\n"
	CLI_HELP_INPUT_FORMAT
	"      --view AZ,EL          look from azimuth AZ, elevation EL in degrees\n"
	"                            (default 35,25; 0,0 looks from -y with z up, from\n"
	"                            +z with y up, from -z with x up)\n"
	"      --eye X,Y,Z           look from X,Y,Z at the centre of the mesh's bounds\n"
	"      --up x|y|z            the mesh's up axis (default: guessed from its base,\n"
	"                            the axis with the most flat area at its bottom,\n"
	"                            y when none covers 4% of its area; the picture\n"
	"                            says which)\n"
	"      --size WxH            picture size in pixels (default 800x600)\n"
	"      --cull PX             merge the mesh's vertices on a PX-pixel grid and leave\n"
	"                            out the triangles that vanish; 0 draws every\n"
	"                            triangle (default: 0, or for a dense mesh the finest\n"
	"                            grid leaving at most 8000 faces: a small file)\n"
	"      --compare EXPECTED    draw the results that fail in red, with the expected\n"
	"                            contact in green, judged as grade judges them (the\n"
	"                            same engine, fields and tolerances), and print\n"
	"                            the closing line 'N passed, N failed, ...'\n"
	"                            (on standard error when the SVG goes to stdout)\n"
	"      --fields, --one-based, --map, --accept-normals, --alpha-tol,\n"
	"      --alpha-rel, --normal-tol, --point-tol\n"
	"                            what --compare grades, as for grade (default\n"
	"                            fields: hit,alpha,normal; normals held to\n"
	"                            --normal's convention)\n"
	"      --probe X,Y,Z         print on standard error the pixel where the point\n"
	"                            X,Y,Z lands (a testing aid; may be repeated)\n"
	CLI_HELP_QUIET
	CLI_HELP_MAX_ERRORS
	CLI_HELP_MESH_FORMAT
	CLI_HELP_HELP
	"options (cast's: TRAJECTORIES are cast as cast casts them):\n"
	"  -r, --radius R            radius for trajectories without \"r\"\n"
	CLI_HELP_CAST_SETTINGS
	"      --method exact|discrete, --dt F, --bisect N\n"
	"                            the discrete method, as for cast\n"
	"\n"
	"examples:\n"
	"  ballcast render samples/room.obj samples/throws.json -o room.svg\n"
	"  ballcast render --compare expected.json room.obj student.json -o diff.svg\n"
	"  ballcast render --view 0,90 --size 1200x900 room.obj -o top.svg\n"
	"  ballcast render --up y bunny.obj -o bunny.svg\n",
	cli_optOutput | cli_optInputFormat | cli_optRadius | cli_optQuiet | cli_optMaxErrors | cli_optMeshFormat,
	renderOptions,
	1,
	2,
	{ "missing MESH", NULL },
};

typedef struct cliRenderConfig {
	const char* meshPath;
	const char* inputPath;    /* NULL: the mesh alone */
	const char* comparePath;  /* NULL: no comparison */
	cliCommonOptions common;
	cliCastSettings cast;     /* cast's options: trajectories are answered as cast answers them */
	bool useEye;
	bool viewGiven;
	bcVec3 eye;
	double azimuth, elevation;
	int width, height;
	cliUpAxis up;
	bool upGiven;
	double cull;              /* < 0: chosen from the mesh */
	const char** probes;      /* probeCount argument texts (argv's) */
	int probeCount;
	cliGradeConfig grade;     /* --compare judges as grade does */
	bool fieldsGiven;         /* --fields: else grade's default fields */
} cliRenderConfig;

/* What the picture shows of cfg (borrowing its strings). */
static cliPicture pictureOf(const cliRenderConfig* cfg)
{
	cliPicture picture = { cfg->meshPath, cfg->comparePath, cfg->width, cfg->height, cfg->up, cfg->upGiven, cfg->cull };
	return picture;
}

/* ------------------------------------------------------------- throws */

static void freeThrows(cliDrawnThrowList* list)
{
	for (long i = 0; i < list->count; ++i) {
		free(list->items[i].id);
	}
	free(list->items);
	memset(list, 0, sizeof *list);
}

/* A new zeroed throw at the end of list, or NULL when out of memory. */
static cliDrawnThrow* appendThrow(cliDrawnThrowList* list)
{
	if (list->count == list->capacity) {
		long capacity = list->capacity > 0 ? 2 * list->capacity : 64;
		cliDrawnThrow* items = realloc(list->items, (size_t)capacity * sizeof *items);
		if (items == NULL) {
			return NULL;
		}
		list->items = items;
		list->capacity = capacity;
	}
	cliDrawnThrow* t = list->items + list->count;
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
static bool setId(cliDrawnThrow* t, const char* text)
{
	t->id = canonicalId(text);
	return t->id != NULL;
}

static bool setIndexId(cliDrawnThrow* t)
{
	char buffer[32];
	snprintf(buffer, sizeof buffer, "%ld", t->index);
	return setId(t, buffer);
}

/* ------------------------------------------------------------ results */

/* The whole of an input in memory: it is read as results, then, when it
 * holds trajectories, again by cast's reader. */
typedef struct cliSource {
	const char* name; /* for messages: the path, or "<stdin>" */
	char* text;       /* owned */
	size_t length;
} cliSource;

static bool readSource(const char* path, bool quiet, cliSource* source)
{
	memset(source, 0, sizeof *source);
	source->name = cliInputName(path);
	FILE* f = cliOpenInput(path, quiet);
	if (f == NULL) {
		return false;
	}
	size_t capacity = 0;
	bool ok = true;
	for (;;) {
		if (capacity - source->length < 1) {
			size_t grown = capacity > 0 ? 2 * capacity : 65536;
			char* text = realloc(source->text, grown);
			if (text == NULL) {
				fputs("ballcast: out of memory\n", stderr);
				ok = false;
				break;
			}
			source->text = text;
			capacity = grown;
		}
		size_t got = fread(source->text + source->length, 1, capacity - source->length, f);
		source->length += got;
		if (got == 0) {
			if (ferror(f)) {
				bcError error = { 0 };
				snprintf(error.message, sizeof error.message, "cannot read: %s", strerror(errno));
				cliReportError(source->name, &error);
				ok = false;
			}
			break;
		}
	}
	cliCloseInput(f);
	if (!ok) {
		free(source->text);
		source->text = NULL;
	}
	return ok;
}

/* The radius of a result's ball is |center - point|, except for an initial
 * overlap, where the ball starts closer than r: then it is not known, and
 * 0 (no ball drawn). The normal of a result that gives none: from the
 * point to the centre. */
static const char* throwFromResult(const cliResult* r, cliDrawnThrow* t)
{
	const unsigned need = cli_resultHit | cli_resultAlpha;
	if (r->fields & cli_resultError) {
		t->state = cli_throwError;
		return NULL;
	}
	if ((r->fields & need) != need) {
		return (r->fields & cli_resultHit) ? "missing alpha" : "missing hit";
	}
	t->alpha = r->alpha;
	t->hasPath = (r->fields & (cli_resultP0 | cli_resultP1)) == (cli_resultP0 | cli_resultP1);
	t->p0 = r->p0;
	t->p1 = r->p1;
	t->state = r->hit ? cli_throwHit : cli_throwMiss;
	if (!r->hit) {
		return NULL;
	}
	if (!(r->fields & cli_resultPoint)) {
		return "missing point";
	}
	if (!(r->fields & cli_resultCenter)) {
		return "missing center";
	}
	t->point = r->point;
	t->center = r->center;
	t->feature = (r->fields & cli_resultFeature) ? r->feature : bc_featureNone;
	bool overlap = (r->fields & cli_resultInitialOverlap) && r->initialOverlap;
	t->radius = overlap ? 0.0 : bcDistance(t->center, t->point);
	t->normal = (r->fields & cli_resultNormal) ? r->normal : bcNormalize(bcSub(t->center, t->point));
	return NULL;
}

/* Every result as a throw; those that cannot be drawn are reported, counted
 * and drawn as nothing. false when out of memory (reported). */
static bool addResults(const cliResultSet* set, cliDrawnThrowList* list, cliRecordLog* log, bool comparing)
{
	for (long i = 0; i < set->count; ++i) {
		const cliResult* r = set->results + i;
		cliDrawnThrow* t = appendThrow(list);
		if (t == NULL || !(r->idKind == cli_idIndex ? setIndexId(t) : setId(t, r->id))) {
			fputs("ballcast: out of memory\n", stderr);
			return false;
		}
		const char* problem = r->problem != NULL ? r->problem : throwFromResult(r, t);
		if (problem != NULL && comparing && r->problem == NULL && t->state == cli_throwHit) {
			t->state = cli_throwUnplaced; /* no place to draw it; the grading engine judges it */
			continue;
		}
		if (problem != NULL) {
			t->state = cli_throwError;
			list->badRecords += 1;
			bool own = r->problem != NULL;
			cliRecordLog_AddAt(log, r->index, own ? r->problemLine : r->line, own ? r->problemColumn : r->column,
							   problem);
		}
	}
	return true;
}

/* Results are told from trajectories by their first record: a document,
 * or hit, alpha or error. */
static bool holdsResults(const cliResultSet* set)
{
	return set->document ||
		   (set->count > 0 && (set->results[0].fields & (cli_resultHit | cli_resultAlpha | cli_resultError)) != 0);
}

/* --------------------------------------------------------- trajectories */

/* The throw drawn for an answer: the path, and for a hit its contact with
 * the normal the settings ask for. */
static void throwFromAnswer(bcCastInput input, const bcCastOutput* out, cliDrawnThrow* t)
{
	t->hasPath = true;
	t->p0 = input.p0;
	t->p1 = input.p1;
	t->radius = input.radius;
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

/* Room for one more result in set (*capacity of them); false when out of
 * memory. */
static bool growResults(cliResultSet* set, long* capacity)
{
	if (set->count < *capacity) {
		return true;
	}
	long grown = *capacity > 0 ? 2 * *capacity : 64;
	cliResult* results = realloc(set->results, (size_t)grown * sizeof *results);
	if (results == NULL) {
		return false;
	}
	set->results = results;
	*capacity = grown;
	return true;
}

/* Read trajectories with cast's own reader (same formats, same messages),
 * answer each as cast answers it (answer.h: the same options, checks and
 * messages), keep them as throws and, when judged is not NULL, as the
 * results cast --ties would write for them. false on a syntax error or no
 * memory (reported). */
static bool castTrajectories(const cliRenderConfig* cfg, const bcMesh* mesh, cliSource* s, cliDrawnThrowList* list,
							 cliRecordLog* log, cliResultSet* judged)
{
	FILE* stream = s->length > 0 ? fmemopen(s->text, s->length, "rb") : NULL;
	if (stream == NULL) {
		/* fmemopen may refuse an empty buffer: an empty file reads the same. */
		stream = tmpfile();
	}
	cliReader* reader = stream != NULL ? cliReader_Create(stream, s->name, cfg->common.inputFormat) : NULL;
	/* the discrete method finds one contact: no ties to list */
	cliTiePool pool = { NULL, 0, 0 };
	cliTiePool* ties = cfg->cast.discrete ? NULL : &pool;
	long capacity = 0;
	if (judged != NULL) {
		memset(judged, 0, sizeof *judged);
		judged->format = cli_inputNdjson;
	}
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
		cliDrawnThrow* t = appendThrow(list);
		ok = t != NULL && (record.idKind == cli_idIndex ? setIndexId(t) : setId(t, record.id));
		bcCastInput input;
		bcCastOutput out;
		int n = 0;
		pool.count = 0;
		const char* problem =
			ok ? cliAnswerRecord(mesh, &cfg->cast, &cfg->common, &record, ties, &input, &out, &n) : NULL;
		if (ok && problem != NULL) {
			t->state = cli_throwError;
			list->badRecords += 1;
			cliRecordLog_Add(log, &record, problem);
		} else if (ok) {
			throwFromAnswer(input, &out, t);
		}
		if (ok && judged != NULL) {
			ok = growResults(judged, &capacity) &&
				 cliResult_FromAnswer(&record, judged->count, problem, &out, pool.ties, n, ties != NULL,
									  judged->results + judged->count);
			judged->count += ok;
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
	if (noMemory) {
		fputs("ballcast: out of memory\n", stderr);
	}
	cliTiePool_Free(&pool);
	return ok;
}

/* Read the throws of path: trajectories are cast, results read (with
 * resultsOnly, trajectories are refused). false on trouble (reported). */
static bool readThrows(const cliRenderConfig* cfg, const bcMesh* mesh, const char* path, cliDrawnThrowList* list,
					   bool resultsOnly, cliResultSet* judged)
{
	cliSource source;
	if (!readSource(path, cfg->common.quiet, &source)) {
		return false;
	}
	cliRecordLog log = cliRecordLog_Make(source.name, &cfg->common, NULL);
	cliResultSet set;
	bcError error = { 0 };
	/* the results drawn are read as they are: only what the picture needs
	 * must be well formed (ties, "feature": "overlap" and such are left) */
	cliResultsReadOptions drawn = { true,
									cli_resultHit | cli_resultAlpha | cli_resultInitialOverlap | cli_resultPoint |
										cli_resultCenter | cli_resultNormal | cli_resultP0 | cli_resultP1,
									cfg->grade.map, cfg->grade.mapCount };
	bool read = cliParseResultsWith(source.text, source.length, resultsOnly ? NULL : &drawn, &set, &error);
	bool results = read && holdsResults(&set);
	bool ok = false;
	if (!read && set.document) {
		cliReportError(source.name, &error); /* a results document that cannot be read on */
	} else if (results) {
		ok = addResults(&set, list, &log, judged != NULL);
		if (ok && judged != NULL && resultsOnly) {
			*judged = set; /* EXPECTED, read strictly as compare reads it */
			memset(&set, 0, sizeof set);
		} else if (ok && judged != NULL) {
			/* RESULTS, read as compare reads a submission */
			cliResultsReadOptions options = { true, cfg->grade.fields, cfg->grade.map, cfg->grade.mapCount };
			ok = cliParseResultsWith(source.text, source.length, &options, judged, &error) &&
				 judged->count == list->count;
		}
	} else if (resultsOnly) {
		fprintf(stderr, "ballcast: %s: holds trajectories, not results (--compare needs what cast writes)\n",
				source.name);
	} else {
		ok = castTrajectories(cfg, mesh, &source, list, &log, judged);
	}
	cliRecordLog_Finish(&log);
	cliResultSet_Free(&set);
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

/* Pair each actual throw with the expected one of the same id (the n-th
 * of an id with the n-th of that id), to draw the expected contact beside
 * a differing one. Returns the
 * number of expected throws left without a partner, or -1 out of memory. */
static long matchThrows(cliDrawnThrowList* actual, cliDrawnThrowList* expected)
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
		cliDrawnThrow* a = actual->items + i;
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
			cliDrawnThrow* e = expected->items + sorted[lo].index;
			e->partner = i;
			a->partner = sorted[lo].index; /* drawn together; whether they differ is the engine's */
		}
	}
	free(sorted);
	long missing = 0;
	for (long i = 0; i < expected->count; ++i) {
		missing += expected->items[i].partner < 0;
	}
	return missing;
}

/* ------------------------------------------------------------- framing */

/* Throws are framed with the mesh, but a point farther than this many
 * times the mesh's half-diagonal from its centre is framed as if it lay at
 * that distance (towards it): a throw from far away does not shrink the
 * mesh to a dot; its path leaves the picture instead. */
#define CLI_RENDER_FRAME_REACH 4.0

/* Grow the box [lower, upper] to hold p (pulled in as above). */
static void frameAlso(bcVec3* lower, bcVec3* upper, bcVec3 center, double reach, bcVec3 p)
{
	if (!bcIsFinite(p)) {
		return;
	}
	bcVec3 d = bcSub(p, center);
	double distance = bcLength(d);
	if (distance > reach && reach > 0.0) {
		p = bcMulAdd(center, reach / distance, d);
	}
	*lower = bcMakeVec3(fmin(lower->x, p.x), fmin(lower->y, p.y), fmin(lower->z, p.z));
	*upper = bcMakeVec3(fmax(upper->x, p.x), fmax(upper->y, p.y), fmax(upper->z, p.z));
}

static void frameThrows(bcVec3* lower, bcVec3* upper, bcVec3 center, double reach, const cliDrawnThrowList* list)
{
	for (long i = 0; i < list->count; ++i) {
		const cliDrawnThrow* t = list->items + i;
		if (t->state == cli_throwError || t->state == cli_throwUnplaced) {
			continue;
		}
		if (t->hasPath) {
			frameAlso(lower, upper, center, reach, t->p0);
			frameAlso(lower, upper, center, reach, t->p1);
		}
		if (t->state == cli_throwHit) {
			frameAlso(lower, upper, center, reach, t->point);
			double r = isfinite(t->radius) && t->radius > 0.0 ? t->radius : 0.0;
			frameAlso(lower, upper, center, reach, bcSub(t->center, bcMakeVec3(r, r, r)));
			frameAlso(lower, upper, center, reach, bcAdd(t->center, bcMakeVec3(r, r, r)));
		}
	}
}

/* The camera the options ask for, turned onto the up axis, framing the
 * mesh's bounds and the throws between the title band and the key. */
static cliCamera makeCamera(const cliRenderConfig* cfg, const bcMesh* mesh, const cliDrawnThrowList* actual,
							const cliDrawnThrowList* expected, double keyHeight)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 center = bcScale(0.5, bcAdd(info.lowerBound, info.upperBound));
	cliCamera camera = cfg->useEye ? cliCamera_FromDirection(cliUpFrame(bcSub(cfg->eye, center), cfg->up))
								   : cliCamera_FromAngles(cfg->azimuth, cfg->elevation);
	cliCamera_TurnUp(&camera, cfg->up);
	cliPicture picture = pictureOf(cfg);
	double band = cliPicture_TitleHeight(&picture);
	cliViewport viewport = { CLI_RENDER_MARGIN, band + CLI_RENDER_MARGIN, cfg->width - CLI_RENDER_MARGIN,
							 cfg->height - CLI_RENDER_MARGIN - keyHeight };
	if (viewport.bottom < viewport.top + 1.0) {
		viewport.bottom = viewport.top + 1.0;
	}
	bcVec3 lower = info.lowerBound, upper = info.upperBound;
	double reach = CLI_RENDER_FRAME_REACH * 0.5 * bcDistance(lower, upper);
	frameThrows(&lower, &upper, center, reach, actual);
	frameThrows(&lower, &upper, center, reach, expected);
	cliCamera_Frame(&camera, lower, upper, viewport);
	return camera;
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

/* One of render's own options (a cliOptionFcn). */
static const char* renderOption(void* context, int k, const char* value)
{
	cliRenderConfig* cfg = context;
	double v[3];
	switch (k) {
	case cli_renderView:
		if (!parseList(value, v, 2) || v[1] < -90.0 || v[1] > 90.0) {
			return "--view needs AZ,EL in degrees with -90 <= EL <= 90, not";
		}
		cfg->azimuth = v[0];
		cfg->elevation = v[1];
		cfg->viewGiven = true;
		return NULL;
	case cli_renderEye:
		if (!parseList(value, v, 3)) {
			return "--eye needs X,Y,Z, not";
		}
		cfg->eye = bcMakeVec3(v[0], v[1], v[2]);
		cfg->useEye = true;
		return NULL;
	case cli_renderSize:
		return parseSize(value, &cfg->width, &cfg->height) ? NULL
														   : "--size needs WxH, whole numbers from 64 to 100000, not";
	case cli_renderCompare:
		cfg->comparePath = value;
		return NULL;
	case cli_renderUp:
		if (strcmp(value, "x") != 0 && strcmp(value, "y") != 0 && strcmp(value, "z") != 0) {
			return "--up needs x, y or z, not";
		}
		cfg->up = (cliUpAxis)(value[0] - 'x');
		cfg->upGiven = true;
		return NULL;
	case cli_renderCull:
		if (!cliParseDouble(value, &v[0]) || !(v[0] >= 0.0 && v[0] <= 64.0)) {
			return "--cull needs a number of pixels from 0 to 64, not";
		}
		cfg->cull = v[0];
		return NULL;
	case cli_renderProbe:
		if (!parseList(value, v, 3)) {
			return "--probe needs X,Y,Z, not";
		}
		cfg->probes[cfg->probeCount++] = value;
		return NULL;
	default:
		if (k < cli_renderGrading) {
			return cliCastSettings_Option(&cfg->cast, k - cli_renderCast, value);
		}
		cfg->fieldsGiven = cfg->fieldsGiven || k == cli_renderGrading + 4;
		return cliGradeConfig_OptionOrReport(&cfg->grade, k - cli_renderGrading, value);
	}
}

/* Parse arguments; returns -1 to go on, or an exit status. cfg->probes is
 * allocated (the caller frees it). */
static int parseArguments(int argc, char** argv, cliRenderConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cliGradeConfig_Init(&cfg->grade);
	cliCastSettings_Init(&cfg->cast);
	cfg->azimuth = CLI_SVG_DEFAULT_AZIMUTH;
	cfg->elevation = CLI_SVG_DEFAULT_ELEVATION;
	cfg->width = CLI_RENDER_DEFAULT_WIDTH;
	cfg->up = cli_upZ;
	cfg->cull = -1.0;
	cfg->height = CLI_RENDER_DEFAULT_HEIGHT;
	cfg->probes = malloc((size_t)argc * sizeof *cfg->probes);
	if (cfg->probes == NULL) {
		fputs("ballcast: out of memory\n", stderr);
		return cli_exitTrouble;
	}
	int first = 0;
	int status = cliParseArguments(&renderUsage, argc, argv, &cfg->common, renderOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	if (cfg->viewGiven && cfg->useEye) {
		return cliUsageError(&renderUsage, "--view and --eye are alternatives: give one", NULL);
	}
	const char* method = cliCastSettings_CheckMethod(&cfg->cast, false);
	if (method != NULL) {
		return cliUsageError(&renderUsage, method, NULL);
	}
	cliCastSettings_Finish(&cfg->cast);
	if (!cfg->fieldsGiven) {
		cfg->grade.fields = CLI_FIELDS_GRADE; /* grade's, so that render --compare agrees with grade */
	}
	/* normals held to the convention --normal names, as grade holds them */
	static const unsigned conventions[] = { cli_normalsContact, cli_normalsTriangle, cli_normalsAverage };
	cfg->grade.normalConvention = conventions[cfg->cast.normalMode];
	cfg->meshPath = argv[first];
	cfg->inputPath = first + 1 < argc ? argv[first + 1] : NULL;
	if (cfg->comparePath != NULL && cfg->inputPath == NULL) {
		return cliUsageError(&renderUsage, "--compare needs results to compare: give RESULTS after MESH", NULL);
	}
	if (cfg->comparePath != NULL && strcmp(cfg->comparePath, "-") == 0 && strcmp(cfg->inputPath, "-") == 0) {
		return cliUsageError(&renderUsage, "standard input cannot be read twice (--compare - with RESULTS -)", NULL);
	}
	return cliRefuseOverwrite(&renderUsage, cfg->common.outputPath, "-o", cfg->comparePath);
}

/* --probe: where each point lands, on stderr. */
static void printProbes(const cliRenderConfig* cfg, const cliCamera* camera)
{
	for (int i = 0; i < cfg->probeCount; ++i) {
		double v[3];
		parseList(cfg->probes[i], v, 3);
		cliScreenPoint p = cliCamera_Project(camera, bcMakeVec3(v[0], v[1], v[2]));
		fprintf(stderr, "ballcast render: probe %s: ", cfg->probes[i]);
		cliWriteSvgCoord(stderr, p.x);
		putc(',', stderr);
		cliWriteSvgCoord(stderr, p.y);
		putc('\n', stderr);
	}
}

int cliRenderMain(int argc, char** argv)
{
	cliRenderConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	cliDrawnThrowList actual = { 0 };
	cliDrawnThrowList expected = { 0 };
	cliResultSet actualSet, expectedSet;
	memset(&actualSet, 0, sizeof actualSet);
	memset(&expectedSet, 0, sizeof expectedSet);
	bcMesh* mesh = NULL;
	if (status >= 0) {
		goto done;
	}
	status = cli_exitTrouble;
	mesh = cliLoadMesh(cfg.meshPath, &cfg.common, &status);
	if (mesh == NULL) {
		goto done;
	}
	status = cli_exitTrouble;
	if (cfg.useEye) {
		bcMeshInfo info = bcMesh_GetInfo(mesh);
		bcVec3 toEye = bcSub(cfg.eye, bcScale(0.5, bcAdd(info.lowerBound, info.upperBound)));
		if (!(bcLengthSquared(toEye) > 0.0) || !bcIsFinite(toEye)) {
			cliUsageError(&renderUsage, "--eye is at the centre of the mesh's bounds: no direction to look in", NULL);
			goto done;
		}
	}
	bool comparing = cfg.comparePath != NULL;
	if ((cfg.inputPath != NULL &&
		 !readThrows(&cfg, mesh, cfg.inputPath, &actual, false, comparing ? &actualSet : NULL)) ||
		(comparing && !readThrows(&cfg, mesh, cfg.comparePath, &expected, true, &expectedSet))) {
		goto done;
	}
	if (comparing && !cliCheckExpected(cliInputName(cfg.comparePath), &expectedSet)) {
		goto done;
	}
	long missing = comparing ? matchThrows(&actual, &expected) : 0;
	cliGradeCounts counts = { 0, 0, 0, 0 };
	bool* fails = comparing ? calloc((size_t)(actual.count > 0 ? actual.count : 1), sizeof *fails) : NULL;
	cfg.grade.mesh = mesh;
	if (missing < 0 || (comparing && (fails == NULL || !cliJudgeResults(&cfg.grade, &expectedSet, &actualSet, fails,
																		   &counts)))) {
		free(fails);
		fputs("ballcast: out of memory\n", stderr);
		goto done;
	}
	/* the records compare fails, and only those, are drawn as differing */
	for (long i = 0; comparing && i < actual.count; ++i) {
		actual.items[i].differs = fails[i];
	}
	free(fails);
	cliOutput output;
	if (!cliOutput_Open(&output, cfg.common.outputPath)) {
		goto done;
	}
	if (!cfg.upGiven) {
		cfg.up = cliGuessUp(mesh);
	}
	cliPicture picture = pictureOf(&cfg);
	cliKeyMarks key = cliKeyMarks_Make(&picture, &actual, &expected);
	cliCamera camera = makeCamera(&cfg, mesh, &actual, &expected, cliKeyMarks_Height(&key));
	printProbes(&cfg, &camera);
	if (!cliWritePicture(output.stream, &picture, mesh, &camera, &actual, &expected, missing, &key)) {
		fputs("ballcast: out of memory\n", stderr);
		cliOutput_Abort(&output);
	} else if (cliOutput_Commit(&output)) {
		status = actual.badRecords + expected.badRecords > 0 ? cli_exitRecords : cli_exitOk;
		if (comparing) {
			/* compare's closing line, where the picture is not */
			bool svgOnStdout = cfg.common.outputPath == NULL || strcmp(cfg.common.outputPath, "-") == 0;
			fprintf(svgOnStdout ? stderr : stdout, "%ld passed, %ld failed, %ld missing, %ld extra\n",
					counts.passed, counts.failed, counts.missing, counts.extra);
		}
	}
done:
	cliResultSet_Free(&actualSet);
	cliResultSet_Free(&expectedSet);
	cliGradeConfig_Free(&cfg.grade);
	freeThrows(&actual);
	freeThrows(&expected);
	bcMesh_Destroy(mesh);
	free(cfg.probes);
	return status;
}
