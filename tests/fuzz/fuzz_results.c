/* fuzz_results.c - libFuzzer target: the results reader of `ballcast
 * compare` and render (cli/results_read.c) over arbitrary bytes: a cast
 * document, a JSON array, NDJSON or CSV, whichever the bytes look like.
 *
 * Properties:
 *  - reading from memory twice and through a stream gives the same answer:
 *    the same results bit for bit, or the same error at the same place;
 *  - a byte order mark put in front changes nothing (positions are counted
 *    after it);
 *  - a refused input has an error code and a message; a syntax error points
 *    at a real place: line 1 .. the number of lines, column 1 .. that line's
 *    length + 1 (bytes); the set comes back empty;
 *  - a result with a problem (a record not read whole) has it at a real
 *    place; the set counts them;
 *  - an accepted input has a format the reader makes (a document only in
 *    JSON), results numbered 0, 1, 2 ... starting at real places; an id is
 *    present exactly when idKind says so, and a number id is a JSON number;
 *    every field not flagged is zero; every number is finite; 1 to 3
 *    vertices when flagged; features are the four names; an error text
 *    exactly when flagged; ties as flagged; id keys start with 'n' exactly
 *    for ids that read as JSON numbers, and a number's key does not change
 *    with an "e0" or a trailing fraction zero;
 *  - written back (ids echoed by cliWriteResultIdJson, strings escaped by
 *    cliWriteJsonString, numbers with 17 digits) as NDJSON and as a cast
 *    document, the results read back the same (a byte that is not part of
 *    valid UTF-8 as the text \xHH: bcFuzzGuarded);
 *  - NULs do not cut text short: with every NUL byte turned into a control
 *    byte c the input holds nowhere and every \u0000 escape into c's escape
 *    (bcFuzzWithoutNuls: the same lengths, so the same places),
 *    an accepted input is still accepted with the same results (strings
 *    compared by length), but for results with a problem;
 *  - read the tolerant way (grade's reader of any container): no crash,
 *    a refusal with its reason, results numbered in order at real lines. */
#include "fuzz.h"
#include "output.h"
#include "results_read.h"

/* What one read gave. */
typedef struct bcResultsRead {
	bool ok;
	cliResultSet set;
	bcError error;
} bcResultsRead;

static void readMemory(const char* text, size_t size, bcResultsRead* read)
{
	memset(read, 0, sizeof *read);
	read->ok = cliParseResults(text, size, &read->set, &read->error);
}

static void readStream(const char* text, size_t size, bcResultsRead* read)
{
	memset(read, 0, sizeof *read);
	/* glibc takes a zero size (since 2.22), not a NULL buffer */
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	read->ok = cliReadResults(stream, &read->set, &read->error);
	fclose(stream);
}

static bool sameText(const char* a, const char* b, bool lengthsOnly)
{
	if (a == NULL || b == NULL) {
		return a == b;
	}
	return lengthsOnly ? strlen(a) == strlen(b) : strcmp(a, b) == 0;
}

static bool sameTie(const cliTie* a, const cliTie* b)
{
	return a->fields == b->fields && a->triangle == b->triangle && a->feature == b->feature &&
		   a->vertexCount == b->vertexCount && memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0 &&
		   bcFuzzSameBits(a->alpha, b->alpha) && bcFuzzSameVec3(a->normal, b->normal) &&
		   bcFuzzSameVec3(a->triangleNormal, b->triangleNormal);
}

/* Two results agree in every field (positions too when asked; strings by
 * length only when asked). */
static bool sameResult(const cliResult* a, const cliResult* b, bool positions, bool lengthsOnly)
{
	if (positions && (a->line != b->line || a->column != b->column)) {
		return false;
	}
	if (a->index != b->index || a->idKind != b->idKind || !sameText(a->id, b->id, lengthsOnly) ||
		a->fields != b->fields || a->hit != b->hit || !bcFuzzSameBits(a->alpha, b->alpha) ||
		a->initialOverlap != b->initialOverlap || a->feature != b->feature || a->triangle != b->triangle ||
		a->face != b->face || a->vertexCount != b->vertexCount ||
		memcmp(a->vertices, b->vertices, sizeof a->vertices) != 0 || !bcFuzzSameVec3(a->point, b->point) ||
		!bcFuzzSameVec3(a->center, b->center) || !bcFuzzSameVec3(a->normal, b->normal) ||
		!bcFuzzSameVec3(a->triangleNormal, b->triangleNormal) || !bcFuzzSameVec3(a->p0, b->p0) ||
		!bcFuzzSameVec3(a->p1, b->p1) || !sameText(a->error, b->error, lengthsOnly) ||
		a->tieCount != b->tieCount) {
		return false;
	}
	for (int k = 0; k < a->tieCount; ++k) {
		if (!sameTie(a->ties + k, b->ties + k)) {
			return false;
		}
	}
	return true;
}

/* The results of two reads agree (the format too when asked; and their
 * problems, or only the results of a without one). */
static void checkSameResults(const char* what, const cliResultSet* a, const cliResultSet* b, bool format,
							 bool positions, bool lengthsOnly, bool problems)
{
	BC_FUZZ_CHECK(a->count == b->count, "%s: %ld results, then %ld", what, a->count, b->count);
	if (format) {
		BC_FUZZ_CHECK(a->format == b->format && a->document == b->document, "%s: format %d (document %d), then %d (%d)",
					  what, (int)a->format, (int)a->document, (int)b->format, (int)b->document);
	}
	for (long i = 0; i < a->count; ++i) {
		const cliResult* r = a->results + i;
		const cliResult* s = b->results + i;
		if (!problems && r->problem != NULL) {
			continue;
		}
		BC_FUZZ_CHECK(sameResult(r, s, positions, lengthsOnly), "%s: result %ld differs", what, i);
		if (problems) {
			BC_FUZZ_CHECK(sameText(r->problem, s->problem, false) && r->problemLine == s->problemLine &&
							  r->problemColumn == s->problemColumn,
						  "%s: result %ld: problem %ld:%ld %s, then %ld:%ld %s", what, i, r->problemLine,
						  r->problemColumn, r->problem != NULL ? r->problem : "none", s->problemLine, s->problemColumn,
						  s->problem != NULL ? s->problem : "none");
		}
	}
}

/* Two reads give the same answer: the same results, or the same error. */
static void checkSameRead(const char* what, const bcResultsRead* a, const bcResultsRead* b)
{
	BC_FUZZ_CHECK(a->ok == b->ok, "%s: accepted %d, then %d (%ld:%ld %s / %ld:%ld %s)", what, (int)a->ok, (int)b->ok,
				  a->error.line, a->error.column, a->error.message, b->error.line, b->error.column, b->error.message);
	if (a->ok) {
		checkSameResults(what, &a->set, &b->set, true, true, false, true);
	} else {
		BC_FUZZ_CHECK(a->error.code == b->error.code && a->error.line == b->error.line &&
						  a->error.column == b->error.column && strcmp(a->error.message, b->error.message) == 0,
					  "%s: %ld:%ld %s, then %ld:%ld %s", what, a->error.line, a->error.column, a->error.message,
					  b->error.line, b->error.column, b->error.message);
	}
}

static bool isFeature(bcFeature feature)
{
	return feature == bc_featureNone || feature == bc_featureFace || feature == bc_featureEdge ||
		   feature == bc_featureVertex;
}

static bool isZeroVec3(bcVec3 v)
{
	return v.x == 0.0 && v.y == 0.0 && v.z == 0.0;
}

/* A vector field: finite when flagged, zero when not. */
static void checkVector(long index, const char* name, bcVec3 v, unsigned fields, unsigned flag)
{
	if (fields & flag) {
		BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(v), "result %ld: %s (%.17g, %.17g, %.17g) not finite", index, name, v.x, v.y,
					  v.z);
	} else {
		BC_FUZZ_CHECK(isZeroVec3(v), "result %ld: absent %s is not zero", index, name);
	}
}

static void checkTie(long index, int k, const cliTie* tie)
{
	const unsigned allowed = cli_resultTriangle | cli_resultFeature | cli_resultVertices | cli_resultAlpha |
							 cli_resultNormal | cli_resultTriangleNormal;
	BC_FUZZ_CHECK((tie->fields & ~allowed) == 0, "result %ld tie %d: fields 0x%x", index, k, tie->fields);
	BC_FUZZ_CHECK(isFeature(tie->feature) && ((tie->fields & cli_resultFeature) || tie->feature == bc_featureNone),
				  "result %ld tie %d: feature %d", index, k, (int)tie->feature);
	BC_FUZZ_CHECK((tie->fields & cli_resultTriangle) || tie->triangle == 0, "result %ld tie %d: absent triangle %ld",
				  index, k, (long)tie->triangle);
	if (tie->fields & cli_resultVertices) {
		BC_FUZZ_CHECK(tie->vertexCount >= 1 && tie->vertexCount <= 3, "result %ld tie %d: %d vertices", index, k,
					  tie->vertexCount);
	} else {
		BC_FUZZ_CHECK(tie->vertexCount == 0, "result %ld tie %d: %d absent vertices", index, k, tie->vertexCount);
	}
	for (int v = tie->vertexCount; v < 3; ++v) {
		BC_FUZZ_CHECK(tie->vertices[v] == 0, "result %ld tie %d: vertex %d beyond the count", index, k, v);
	}
	if (tie->fields & cli_resultAlpha) {
		BC_FUZZ_CHECK(isfinite(tie->alpha), "result %ld tie %d: alpha %.17g", index, k, tie->alpha);
	} else {
		BC_FUZZ_CHECK(tie->alpha == 0.0, "result %ld tie %d: absent alpha %.17g", index, k, tie->alpha);
	}
	checkVector(index, "tie normal", tie->normal, tie->fields, cli_resultNormal);
	checkVector(index, "tie triangle_normal", tie->triangleNormal, tie->fields, cli_resultTriangleNormal);
}

/* The key of a number id written otherwise (text + suffix) is the same. */
static void checkSameKey(const cliResult* r, const char* key, const char* suffix)
{
	size_t n = strlen(r->id);
	size_t m = strlen(suffix);
	char* other = malloc(n + m + 1);
	BC_FUZZ_CHECK(other != NULL, "out of memory");
	memcpy(other, r->id, n);
	memcpy(other + n, suffix, m + 1);
	cliResult copy = *r;
	copy.id = other;
	char* otherKey = cliResult_IdKey(&copy);
	BC_FUZZ_CHECK(otherKey != NULL && strcmp(key, otherKey) == 0, "id %s has key %s, but %s has %s", r->id, key, other,
				  otherKey != NULL ? otherKey : "NULL");
	free(otherKey);
	free(other);
}

static void checkIdKey(const cliResult* r)
{
	char* key = cliResult_IdKey(r);
	BC_FUZZ_CHECK(key != NULL, "no id key");
	bool number = r->idKind == cli_idIndex || bcFuzzIsJsonNumber(r->id, strlen(r->id));
	BC_FUZZ_CHECK(key[0] == (number ? 'n' : 's'), "result %ld: id key %s", r->index, key);
	if (number && r->idKind != cli_idIndex) {
		bool exponent = strchr(r->id, 'e') != NULL || strchr(r->id, 'E') != NULL;
		if (!exponent) {
			checkSameKey(r, key, "e0");
			if (strchr(r->id, '.') != NULL) {
				checkSameKey(r, key, "0");
			}
		}
	}
	free(key);
}

static void checkResult(const char* text, size_t size, const cliResult* r, long index)
{
	BC_FUZZ_CHECK(r->index == index, "result %ld numbered %ld", index, r->index);
	BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, r->line, r->column), "result %ld starts at %ld:%ld, outside the input",
				  index, r->line, r->column);
	BC_FUZZ_CHECK((r->idKind == cli_idIndex) == (r->id == NULL), "result %ld: idKind %d with id %s", index,
				  (int)r->idKind, r->id != NULL ? r->id : "NULL");
	if (r->idKind == cli_idNumber) {
		BC_FUZZ_CHECK(bcFuzzIsJsonNumber(r->id, strlen(r->id)), "result %ld: number id '%s' is not a JSON number", index,
					  r->id);
	}
	const unsigned allFields = (cli_resultP1 << 1) - 1;
	BC_FUZZ_CHECK((r->fields & ~allFields) == 0, "result %ld: fields 0x%x", index, r->fields);
	BC_FUZZ_CHECK((r->fields & cli_resultHit) || !r->hit, "result %ld: an absent hit is true", index);
	BC_FUZZ_CHECK((r->fields & cli_resultInitialOverlap) || !r->initialOverlap,
				  "result %ld: an absent initial_overlap is true", index);
	if (r->fields & cli_resultAlpha) {
		BC_FUZZ_CHECK(isfinite(r->alpha), "result %ld: alpha %.17g", index, r->alpha);
	} else {
		BC_FUZZ_CHECK(r->alpha == 0.0, "result %ld: absent alpha %.17g", index, r->alpha);
	}
	BC_FUZZ_CHECK(isFeature(r->feature) && ((r->fields & cli_resultFeature) || r->feature == bc_featureNone),
				  "result %ld: feature %d", index, (int)r->feature);
	BC_FUZZ_CHECK((r->fields & cli_resultTriangle) || r->triangle == 0, "result %ld: absent triangle %ld", index,
				  (long)r->triangle);
	BC_FUZZ_CHECK((r->fields & cli_resultFace) || r->face == 0, "result %ld: absent face %ld", index, (long)r->face);
	if (r->fields & cli_resultVertices) {
		BC_FUZZ_CHECK(r->vertexCount >= 1 && r->vertexCount <= 3, "result %ld: %d vertices", index, r->vertexCount);
	} else {
		BC_FUZZ_CHECK(r->vertexCount == 0, "result %ld: %d absent vertices", index, r->vertexCount);
	}
	for (int v = r->vertexCount; v < 3; ++v) {
		BC_FUZZ_CHECK(r->vertices[v] == 0, "result %ld: vertex %d beyond the count is %ld", index, v,
					  (long)r->vertices[v]);
	}
	checkVector(index, "point", r->point, r->fields, cli_resultPoint);
	checkVector(index, "center", r->center, r->fields, cli_resultCenter);
	checkVector(index, "normal", r->normal, r->fields, cli_resultNormal);
	checkVector(index, "triangle_normal", r->triangleNormal, r->fields, cli_resultTriangleNormal);
	checkVector(index, "p0", r->p0, r->fields, cli_resultP0);
	checkVector(index, "p1", r->p1, r->fields, cli_resultP1);
	if (r->problem != NULL) {
		BC_FUZZ_CHECK(r->problem[0] != '\0' && bcFuzzIsValidPosition(text, size, r->problemLine, r->problemColumn),
					  "result %ld: problem '%s' at %ld:%ld, outside the input", index, r->problem, r->problemLine,
					  r->problemColumn);
	}
	BC_FUZZ_CHECK(((r->fields & cli_resultError) != 0) == (r->error != NULL), "result %ld: error flag %d, text %s",
				  index, (r->fields & cli_resultError) != 0, r->error != NULL ? r->error : "NULL");
	BC_FUZZ_CHECK(r->tieCount >= 0 && (r->tieCount == 0) == (r->ties == NULL), "result %ld: %d ties at %p", index,
				  r->tieCount, (const void*)r->ties);
	BC_FUZZ_CHECK((r->fields & cli_resultTies) || r->tieCount == 0, "result %ld: %d ties, not flagged", index,
				  r->tieCount);
	for (int k = 0; k < r->tieCount; ++k) {
		checkTie(index, k, r->ties + k);
	}
	checkIdKey(r);
}

static void checkRead(const char* text, size_t size, const bcResultsRead* read)
{
	const cliResultSet* set = &read->set;
	if (!read->ok) {
		const bcError* e = &read->error;
		BC_FUZZ_CHECK(e->code != bc_errorNone && e->message[0] != '\0' &&
						  memchr(e->message, '\0', sizeof e->message) != NULL,
					  "refused with code %d, message '%s'", (int)e->code, e->message);
		if (e->code == bc_errorNoMemory) {
			BC_FUZZ_CHECK(e->line == 0 && e->column == 0, "out of memory at %ld:%ld", e->line, e->column);
		} else {
			BC_FUZZ_CHECK(e->code == bc_errorSyntax, "error code %d: %s", (int)e->code, e->message);
			BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, e->line, e->column),
						  "error at line %ld column %ld, outside the input: %s", e->line, e->column, e->message);
		}
		BC_FUZZ_CHECK(set->count == 0 && set->results == NULL && set->problems == 0 &&
						  (!set->document || set->format == cli_inputJson),
					  "a refused input left %ld results", set->count);
		return;
	}
	BC_FUZZ_CHECK(set->format == cli_inputJson || set->format == cli_inputNdjson || set->format == cli_inputCsv,
				  "format %d", (int)set->format);
	BC_FUZZ_CHECK(!set->document || set->format == cli_inputJson, "a document in format %d", (int)set->format);
	BC_FUZZ_CHECK(set->count >= 0 && (set->count == 0 || set->results != NULL), "%ld results at %p", set->count,
				  (const void*)set->results);
	long problems = 0;
	for (long i = 0; i < set->count; ++i) {
		checkResult(text, size, set->results + i, i);
		problems += set->results[i].problem != NULL;
	}
	BC_FUZZ_CHECK(problems == set->problems, "%ld results with a problem, counted %ld", problems, set->problems);
}

/* ------------------------------------------------- writing results back */

static void writeNumber(FILE* f, double x)
{
	fprintf(f, "%.17g", x);
}

static void writeVec3(FILE* f, const char* key, bcVec3 v)
{
	fprintf(f, ",\"%s\":[", key);
	writeNumber(f, v.x);
	putc(',', f);
	writeNumber(f, v.y);
	putc(',', f);
	writeNumber(f, v.z);
	putc(']', f);
}

static void writeVertices(FILE* f, const int32_t* vertices, int count)
{
	fputs(",\"vertices\":[", f);
	for (int k = 0; k < count; ++k) {
		fprintf(f, "%s%ld", k > 0 ? "," : "", (long)vertices[k]);
	}
	putc(']', f);
}

/* Every field flagged, in an order other than cast's (keys start with a
 * dummy one, so each real one follows a comma). */
static void writeResult(FILE* f, const cliResult* r)
{
	fputs("{\"_\":0", f);
	if (r->fields & cli_resultError) {
		fputs(",\"error\":", f);
		cliWriteJsonString(f, r->error);
	}
	if (r->fields & cli_resultTies) {
		fputs(",\"ties\":[", f);
		for (int k = 0; k < r->tieCount; ++k) {
			const cliTie* tie = r->ties + k;
			fputs(k > 0 ? ",{\"_\":0" : "{\"_\":0", f);
			if (tie->fields & cli_resultTriangleNormal) {
				writeVec3(f, "triangle_normal", tie->triangleNormal);
			}
			if (tie->fields & cli_resultNormal) {
				writeVec3(f, "normal", tie->normal);
			}
			if (tie->fields & cli_resultAlpha) {
				fputs(",\"alpha\":", f);
				writeNumber(f, tie->alpha);
			}
			if (tie->fields & cli_resultVertices) {
				writeVertices(f, tie->vertices, tie->vertexCount);
			}
			if (tie->fields & cli_resultFeature) {
				fprintf(f, ",\"feature\":\"%s\"", bcFeatureName(tie->feature));
			}
			if (tie->fields & cli_resultTriangle) {
				fprintf(f, ",\"triangle\":%ld", (long)tie->triangle);
			}
			putc('}', f);
		}
		putc(']', f);
	}
	if (r->fields & cli_resultTriangleNormal) {
		writeVec3(f, "triangle_normal", r->triangleNormal);
	}
	if (r->fields & cli_resultNormal) {
		writeVec3(f, "normal", r->normal);
	}
	if (r->fields & cli_resultCenter) {
		writeVec3(f, "center", r->center);
	}
	if (r->fields & cli_resultPoint) {
		writeVec3(f, "point", r->point);
	}
	if (r->fields & cli_resultVertices) {
		writeVertices(f, r->vertices, r->vertexCount);
	}
	if (r->fields & cli_resultFace) {
		fprintf(f, ",\"face\":%ld", (long)r->face);
	}
	if (r->fields & cli_resultTriangle) {
		fprintf(f, ",\"triangle\":%ld", (long)r->triangle);
	}
	if (r->fields & cli_resultFeature) {
		fprintf(f, ",\"feature\":\"%s\"", bcFeatureName(r->feature));
	}
	if (r->fields & cli_resultInitialOverlap) {
		fprintf(f, ",\"initial_overlap\":%s", r->initialOverlap ? "true" : "false");
	}
	if (r->fields & cli_resultAlpha) {
		fputs(",\"alpha\":", f);
		writeNumber(f, r->alpha);
	}
	if (r->fields & cli_resultHit) {
		fprintf(f, ",\"hit\":%s", r->hit ? "true" : "false");
	}
	if (r->fields & cli_resultP1) {
		writeVec3(f, "p1", r->p1);
	}
	if (r->fields & cli_resultP0) {
		writeVec3(f, "p0", r->p0);
	}
	if (r->idKind != cli_idIndex) {
		fputs(",\"id\":", f);
		cliWriteResultIdJson(f, r);
	}
	putc('}', f);
}

/* The set written back as NDJSON or as a document reads back the same. */
static void checkRoundTrip(const cliResultSet* set, bool document)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	BC_FUZZ_CHECK(f != NULL, "open_memstream failed");
	fputs(document ? "{\"ballcast\":\"fuzz\",\"results\":[\n" : "", f);
	for (long i = 0; i < set->count; ++i) {
		if (document && i > 0) {
			fputs(",\n", f);
		}
		writeResult(f, set->results + i);
		fputs(document ? "" : "\n", f);
	}
	fputs(document ? "],\"summary\":{}}\n" : "", f);
	BC_FUZZ_CHECK(fclose(f) == 0, "open_memstream failed");
	bcResultsRead back;
	readMemory(text, size, &back);
	BC_FUZZ_CHECK(back.ok, "written back (%s), refused at %ld:%ld: %s\n%.*s", document ? "document" : "NDJSON",
				  back.error.line, back.error.column, back.error.message, (int)(size < 4000 ? size : 4000), text);
	/* its strings as the writer gives them back: bytes that are not UTF-8
	 * as the text \xHH (the readers are to refuse them) */
	cliResultSet guarded = *set;
	guarded.results = malloc((size_t)(set->count > 0 ? set->count : 1) * sizeof *guarded.results);
	BC_FUZZ_CHECK(guarded.results != NULL, "out of memory");
	for (long i = 0; i < set->count; ++i) {
		guarded.results[i] = set->results[i];
		guarded.results[i].id = set->results[i].idKind == cli_idString ? bcFuzzGuarded(set->results[i].id)
																		 : set->results[i].id;
		guarded.results[i].error = bcFuzzGuarded(set->results[i].error);
	}
	checkSameResults(document ? "written back as a document" : "written back as NDJSON", &guarded, &back.set, false,
					 false, false, false);
	for (long i = 0; i < set->count; ++i) {
		if (set->results[i].idKind == cli_idString) {
			free(guarded.results[i].id);
		}
		free(guarded.results[i].error);
	}
	free(guarded.results);
	BC_FUZZ_CHECK(back.set.document == document, "written back: document %d", (int)back.set.document);
	cliResultSet_Free(&back.set);
	free(text);
}

/* The tolerant reader (grade's, every container and column told by its
 * values): no crash, hang or leak; a refusal says why; results numbered
 * 0, 1, 2 ... at real lines, each problem too. */
static void checkTolerant(const char* text, size_t size)
{
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	cliResultsReadOptions options = { true, 0xffffffffu, NULL, 0 };
	cliResultSet set;
	bcError error;
	bool ok = cliReadSubmission(stream, &options, 100, &set, &error);
	fclose(stream);
	long lines = 1;
	for (size_t i = 0; i < size; ++i) {
		lines += text[i] == '\n' || text[i] == '\r';
	}
	if (!ok) {
		BC_FUZZ_CHECK(error.message[0] != '\0', "refused without a reason");
		return;
	}
	for (long i = 0; i < set.count; ++i) {
		const cliResult* r = set.results + i;
		BC_FUZZ_CHECK(r->index == i, "result %ld numbered %ld", i, r->index);
		BC_FUZZ_CHECK(r->line >= 0 && r->line <= lines, "result %ld at line %ld of %ld", i, r->line, lines);
		BC_FUZZ_CHECK(r->problem == NULL || (r->problemLine >= 0 && r->problemLine <= lines),
					  "a problem at line %ld of %ld: %s", r->problemLine, lines, r->problem);
		BC_FUZZ_CHECK((r->id == NULL) == (r->idKind == cli_idIndex), "result %ld: an id and its kind disagree", i);
	}
	BC_FUZZ_CHECK(set.reading.note == NULL || set.reading.json != NULL, "a note without its JSON");
	cliResultSet_Free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const char* text = (const char*)data;
	bcResultsRead first, again, streamed;
	readMemory(text, size, &first);
	checkRead(text, size, &first);
	readMemory(text, size, &again);
	checkSameRead("read twice", &first, &again);
	readStream(text, size, &streamed);
	checkSameRead("from memory and from a stream", &first, &streamed);
	cliResultSet_Free(&again.set);
	cliResultSet_Free(&streamed.set);

	char* marked = bcFuzzWithByteOrderMark(text, size);
	if (marked != NULL) {
		bcResultsRead withMark;
		readMemory(marked, size + 3, &withMark);
		free(marked);
		checkSameRead("with a byte order mark", &first, &withMark);
		cliResultSet_Free(&withMark.set);
	}

	if (first.ok) {
		checkRoundTrip(&first.set, false);
		checkRoundTrip(&first.set, true);
		char* probe = bcFuzzWithoutNuls(text, size);
		if (probe != NULL) {
			bcResultsRead other;
			readMemory(probe, size, &other);
			free(probe);
			BC_FUZZ_CHECK(other.ok, "accepted, but refused with its NULs turned into a control byte: %ld:%ld %s",
						  other.error.line, other.error.column, other.error.message);
			checkSameResults("with NULs turned into a control byte", &first.set, &other.set, true, true, true, false);
			cliResultSet_Free(&other.set);
		}
	}
	cliResultSet_Free(&first.set);
	checkTolerant(text, size);
	return 0;
}
