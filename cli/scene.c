/* scene.c - the scene of `ballcast simulate`, a JSON document:
 *
 *   {"balls": [{"id": "a", "p": [0, 0, 1], "v": [1, 0, 0], "r": 0.25,
 *               "mass": 2}, ...],
 *    "gravity": [0, 0, -9.81], "restitution": 0.8, "horizon": 10,
 *    "samples": 0.01, "max_events": 100000}
 *
 * A scene is read whole (at most CLI_SCENE_MAX_BYTES), through the one
 * JSON front end (json_stream.c): syntax errors and bad values alike are
 * reported at their exact line and column, which the parser kept for every
 * value and key; a numeric id keeps its text as written. */
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "json_stream.h"

#if defined(__GNUC__)
#define CLI_SCENE_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_SCENE_PRINTF(formatIndex, firstArgument)
#endif

/* The scene's text and its parsed value. */
typedef struct cliSceneText {
	const char* s;     /* the scene's value */
	size_t n;
	long line;         /* where it starts in the file (after a byte order mark) */
	long column;
	const cJSON* root;
	bcError* error;
} cliSceneText;

static bool outOfMemory(bcError* error)
{
	error->code = bc_errorNoMemory;
	error->line = 0;
	error->column = 0;
	snprintf(error->message, sizeof error->message, "out of memory");
	return false;
}

/* Where a value of the tree (or the text's byte at offset) is. */
static void positionOf(const cliSceneText* t, const cJSON* node, long* line, long* column)
{
	cliJsonNodePosition(t->root, node, t->line, t->column, line, column);
}

/* A value error at v, the subject (a ball's name, or "") in front. */
CLI_SCENE_PRINTF(4, 5)
static bool valueError(const cliSceneText* t, const cJSON* v, const char* subject, const char* format, ...)
{
	char message[200];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	t->error->code = bc_errorValue;
	positionOf(t, v, &t->error->line, &t->error->column);
	snprintf(t->error->message, sizeof t->error->message, "%s%s%s", subject, subject[0] != 0 ? ": " : "", message);
	return false;
}

static const char* typeName(const cJSON* v)
{
	if (cJSON_IsNull(v)) {
		return "null";
	}
	if (cJSON_IsBool(v)) {
		return "a boolean";
	}
	if (cJSON_IsNumber(v)) {
		return "a number";
	}
	if (cJSON_IsString(v)) {
		return "a string";
	}
	return cJSON_IsArray(v) ? "an array" : "an object";
}

/* The value's text as written, for messages (at most CLI_QUOTE_MAX bytes
 * of it, see cliQuoteText), into out. */
static const char* rawText(const cJSON* v, char* out, size_t size)
{
	size_t length = 0;
	const char* raw = cliJsonRawText(v, &length);
	return cliQuoteText(raw, length, out, size);
}

const char* cliSceneBall_Name(const cliSceneBall* ball, char* buffer, size_t size)
{
	if (ball->idKind == cli_idIndex) {
		snprintf(buffer, size, "balls[%ld]", ball->index);
		return buffer;
	}
	/* the id quoted in what room the rest leaves: never a character cut in two */
	char index[48];
	int rest = snprintf(index, sizeof index, " (balls[%ld])", ball->index) + (ball->idKind == cli_idString ? 7 : 5);
	char id[CLI_QUOTE_SIZE];
	size_t room = size > (size_t)rest ? size - (size_t)rest : 1;
	cliQuoteText(ball->id, strlen(ball->id), id, room < sizeof id ? room : sizeof id);
	if (ball->idKind == cli_idString) {
		snprintf(buffer, size, "ball \"%s\"%s", id, index);
	} else {
		snprintf(buffer, size, "ball %s%s", id, index);
	}
	return buffer;
}

/* A finite number (the key names it in messages). */
static bool readNumber(const cliSceneText* t, const cJSON* v, const char* subject, const char* key, double* out)
{
	if (!cJSON_IsNumber(v)) {
		return valueError(t, v, subject, "%s: expected a number, found %s", key, typeName(v));
	}
	if (!isfinite(v->valuedouble)) {
		char raw[CLI_QUOTE_SIZE];
		return valueError(t, v, subject, "%s: %s is not a finite number", key, rawText(v, raw, sizeof raw));
	}
	*out = v->valuedouble;
	return true;
}

static bool readVector(const cliSceneText* t, const cJSON* v, const char* subject, const char* key, bcVec3* out)
{
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) {
		return valueError(t, v, subject, "%s: expected an array of 3 numbers", key);
	}
	double x[3];
	int k = 0;
	for (const cJSON* e = v->child; e != NULL; e = e->next, ++k) {
		if (!readNumber(t, e, subject, key, x + k)) {
			return false;
		}
	}
	*out = (bcVec3){ x[0], x[1], x[2] };
	return true;
}

/* A number checked by accept, with the message "KEY: must be RULE, not TEXT". */
static bool readChecked(const cliSceneText* t, const cJSON* v, const char* subject, const char* key, double* out,
						bool (*accept)(double), const char* rule)
{
	if (!readNumber(t, v, subject, key, out)) {
		return false;
	}
	if (!accept(*out)) {
		char raw[CLI_QUOTE_SIZE];
		return valueError(t, v, subject, "%s: must be %s, not %s", key, rule, rawText(v, raw, sizeof raw));
	}
	return true;
}

static bool isNonNegative(double x)
{
	return x >= 0.0;
}

static bool isPositive(double x)
{
	return x > 0.0;
}

static bool isFraction(double x)
{
	return x >= 0.0 && x <= 1.0;
}

/* 2^62: far beyond any run, and exact in a double and a long long. */
static bool isEventCount(double x)
{
	return x >= 1.0 && x <= 0x1p62 && x == floor(x);
}

/* Is member m (of o) the first one named key (decoded whole: a key holding
 * \u0000 names none)? Unknown and repeated keys are skipped. */
static bool isKey(const cJSON* o, const cJSON* m, const char* key)
{
	return cliJsonKeyIs(m, key) && cliJsonMember(o, key) == m;
}

/* Note member m as an unknown key (unless an earlier one had its key,
 * decoded whole: "a\u0000" repeats "\u0061\u0000"). */
static bool addNote(const cliSceneText* t, cliScene* scene, const cJSON* o, const cJSON* m, const char* subject)
{
	for (const cJSON* other = o->child; other != m; other = other->next) {
		if (cliJsonSameKey(t->s, t->n, t->root, other, m)) {
			return true; /* a repeat: the first one counts */
		}
	}
	cliSceneNote* notes = realloc(scene->notes, (size_t)(scene->noteCount + 1) * sizeof *notes);
	if (notes == NULL) {
		return outOfMemory(t->error);
	}
	scene->notes = notes;
	cliSceneNote* note = notes + scene->noteCount++;
	cliJsonKeyPosition(t->root, m, t->line, t->column, &note->line, &note->column);
	/* a key holding \u0000 is shown as written, quotes left out */
	char shown[CLI_QUOTE_SIZE];
	if (cliJsonKeyHasNul(t->s, t->n, t->root, m)) {
		size_t length = 0;
		const char* raw = cliJsonRawKey(m, &length);
		cliQuoteText(raw + 1, length >= 2 ? length - 2 : 0, shown, sizeof shown);
	} else {
		cliQuoteText(m->string, cliJsonKeyLength(m), shown, sizeof shown);
	}
	snprintf(note->message, sizeof note->message, "%s%sunknown key \"%s\" ignored", subject,
			 subject[0] != 0 ? ": " : "", shown);
	return true;
}

static bool isKnown(const char* key, const char* const* keys, size_t count)
{
	for (size_t k = 0; k < count; ++k) {
		if (strcmp(key, keys[k]) == 0) {
			return true;
		}
	}
	return false;
}

/* Is member m one of the count keys (decoded whole)? */
static bool isKnownKey(const cJSON* m, const char* const* keys, size_t count)
{
	return !cliJsonKeyHasNul(NULL, 0, NULL, m) && isKnown(m->string, keys, count);
}

static bool readBall(const cliSceneText* t, cliScene* scene, const cJSON* v, cliSceneBall* ball)
{
	char subject[96];
	snprintf(subject, sizeof subject, "balls[%ld]", ball->index);
	if (!cJSON_IsObject(v)) {
		return valueError(t, v, subject, "expected an object, found %s", typeName(v));
	}
	positionOf(t, v, &ball->line, &ball->column);
	const cJSON* id = cliJsonMember(v, "id");
	if (id != NULL) {
		bool noMemory = false;
		const char* wrong = cliJsonRecordId(NULL, 0, id, NULL, &ball->idKind, &ball->id, &noMemory);
		if (noMemory) {
			return outOfMemory(t->error);
		}
		if (wrong != NULL) {
			return valueError(t, id, subject, "%s%s%s", wrong, cJSON_IsString(id) || cJSON_IsNumber(id) ? "" : ", found ",
							  cJSON_IsString(id) || cJSON_IsNumber(id) ? "" : typeName(id));
		}
	}
	char name[sizeof subject + CLI_QUOTE_SIZE];
	cliSceneBall_Name(ball, name, sizeof name);
	static const char* const keys[] = { "id", "p", "v", "r", "radius", "mass" };
	bool haveP = false, haveR = false;
	bool useRadius = cliJsonMember(v, "r") == NULL;
	ball->def.mass = 1.0;
	/* members in document order, so the first problem in the text is the one reported */
	for (const cJSON* m = v->child; m != NULL; m = m->next) {
		bool ok = true;
		if (!isKnownKey(m, keys, sizeof keys / sizeof keys[0])) {
			ok = addNote(t, scene, v, m, name);
		} else if (isKey(v, m, "p")) {
			ok = readVector(t, m, name, "p", &ball->def.position);
			haveP = true;
		} else if (isKey(v, m, "v")) {
			ok = readVector(t, m, name, "v", &ball->def.velocity);
		} else if (isKey(v, m, "r") || (useRadius && isKey(v, m, "radius"))) {
			ok = readChecked(t, m, name, m->string, &ball->def.radius, isNonNegative, ">= 0");
			haveR = true;
		} else if (isKey(v, m, "mass")) {
			ok = readChecked(t, m, name, "mass", &ball->def.mass, isPositive, "> 0");
		}
		if (!ok) {
			return false;
		}
	}
	if (!haveP) {
		return valueError(t, v, name, "missing \"p\" (the centre at time 0)");
	}
	if (!haveR) {
		return valueError(t, v, name, "missing \"r\" (the radius)");
	}
	return true;
}

static bool readBalls(const cliSceneText* t, cliScene* scene, const cJSON* v)
{
	if (!cJSON_IsArray(v)) {
		return valueError(t, v, "", "balls: expected an array of ball objects, found %s", typeName(v));
	}
	int count = cJSON_GetArraySize(v);
	scene->balls = calloc((size_t)(count > 0 ? count : 1), sizeof *scene->balls);
	if (scene->balls == NULL) {
		return outOfMemory(t->error);
	}
	int k = 0;
	for (const cJSON* e = v->child; e != NULL; e = e->next, ++k) {
		cliSceneBall* ball = scene->balls + k;
		ball->index = k;
		scene->ballCount = k + 1;
		if (!readBall(t, scene, e, ball)) {
			t->error->record = t->error->code == bc_errorValue ? k : -1;
			return false;
		}
	}
	return true;
}

static bool readScene(const cliSceneText* t, cliScene* scene)
{
	const cJSON* root = t->root;
	if (!cJSON_IsObject(root)) {
		return valueError(t, root, "", "a scene is a JSON object with \"balls\" and \"horizon\", not %s", typeName(root));
	}
	static const char* const keys[] = { "balls", "gravity", "restitution", "horizon", "samples", "max_events" };
	scene->restitution = 1.0;
	bool haveBalls = false, haveHorizon = false;
	for (const cJSON* m = root->child; m != NULL; m = m->next) {
		bool ok = true;
		double x = 0.0;
		if (!isKnownKey(m, keys, sizeof keys / sizeof keys[0])) {
			ok = addNote(t, scene, root, m, "");
		} else if (isKey(root, m, "balls")) {
			ok = readBalls(t, scene, m);
			haveBalls = true;
		} else if (isKey(root, m, "gravity")) {
			ok = readVector(t, m, "", "gravity", &scene->gravity);
		} else if (isKey(root, m, "restitution")) {
			ok = readChecked(t, m, "", "restitution", &scene->restitution, isFraction, "in [0, 1]");
		} else if (isKey(root, m, "horizon")) {
			ok = readChecked(t, m, "", "horizon", &scene->horizon, isPositive, "> 0");
			haveHorizon = true;
		} else if (isKey(root, m, "samples")) {
			ok = readChecked(t, m, "", "samples", &scene->samples, isPositive, "> 0");
			scene->haveSamples = true;
		} else if (isKey(root, m, "max_events")) {
			ok = readChecked(t, m, "", "max_events", &x, isEventCount, "a whole number >= 1");
			if (ok) { /* converted only once in range: 1e33 as a long long is undefined */
				scene->maxEvents = (long long)x;
				scene->haveMaxEvents = true;
			}
		}
		if (!ok) {
			return false;
		}
	}
	if (!haveBalls) {
		return valueError(t, root, "", "missing \"balls\" (an array of balls)");
	}
	if (!haveHorizon) {
		return valueError(t, root, "", "missing \"horizon\" (the time to simulate, in seconds)");
	}
	return true;
}

/* A syntax error at s[offset] of the scene's text. */
static bool syntaxError(const char* s, size_t offset, const char* message, bcError* error)
{
	error->code = bc_errorSyntax;
	cliTextPosition(s, offset, 1, 1, &error->line, &error->column);
	snprintf(error->message, sizeof error->message, "%s", message);
	return false;
}

bool cliScene_Parse(const char* text, size_t length, cliScene* scene, bcError* error)
{
	memset(scene, 0, sizeof *scene);
	memset(error, 0, sizeof *error);
	error->record = -1;
	if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3; /* not counted in columns */
		length -= 3;
	}
	size_t start = 0;
	while (start < length && (text[start] == ' ' || text[start] == '\t' || text[start] == '\n' || text[start] == '\r')) {
		start++;
	}
	if (start >= length) {
		return syntaxError(text, start, "empty scene: expected a JSON object", error);
	}
	size_t end = start + cliJsonValueLength(text + start, length - start);
	for (size_t i = end; i < length; ++i) {
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r') {
			return syntaxError(text, i, "unexpected data after the scene's JSON object", error);
		}
	}
	cliJsonParser* parser = cliJsonParser_Create();
	if (parser == NULL) {
		return outOfMemory(error);
	}
	size_t offset = 0;
	char message[sizeof error->message];
	cliSceneText t = { text + start, end - start, 1, 1, NULL, error };
	cliTextPosition(text, start, 1, 1, &t.line, &t.column);
	t.root = cliJsonParser_Parse(parser, t.s, t.n, &offset, message, sizeof message);
	bool ok;
	if (t.root == NULL) {
		ok = offset == SIZE_MAX ? outOfMemory(error) : syntaxError(text, start + offset, message, error);
	} else {
		ok = readScene(&t, scene);
	}
	cliJsonParser_Destroy(parser);
	if (!ok) {
		cliScene_Free(scene);
	}
	return ok;
}

bool cliScene_Read(FILE* stream, cliScene* scene, bcError* error)
{
	memset(scene, 0, sizeof *scene);
	memset(error, 0, sizeof *error);
	error->record = -1;
	/* read whole, as text (cliInput_Fill refuses binary data and UTF-16),
	 * up to the limit */
	cliInput in;
	if (!cliInput_Open(&in, stream)) {
		return outOfMemory(error);
	}
	bool ok = true;
	int status = 1;
	while (status > 0 && in.length <= CLI_SCENE_MAX_BYTES) {
		status = cliInput_Fill(&in, error);
	}
	if (status < 0) {
		ok = false;
		const char* prefix = "read error: ";
		if (error->code == bc_errorIo && strncmp(error->message, prefix, strlen(prefix)) == 0) {
			/* said as the other files' open and read errors are */
			char reason[sizeof error->message];
			snprintf(reason, sizeof reason, "%s", error->message + strlen(prefix));
			snprintf(error->message, sizeof error->message, "cannot read: %.200s", reason);
		}
	} else if (in.length > CLI_SCENE_MAX_BYTES) {
		ok = false;
		memset(error, 0, sizeof *error);
		error->code = bc_errorTooLarge;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "scene longer than %zu bytes", (size_t)CLI_SCENE_MAX_BYTES);
	}
	ok = ok && cliScene_Parse(in.buffer, in.length, scene, error);
	cliInput_Close(&in);
	return ok;
}

bool cliScene_Load(const char* path, cliScene* scene, bcError* error)
{
	memset(scene, 0, sizeof *scene);
	memset(error, 0, sizeof *error);
	error->record = -1;
	bool fromStdin = strcmp(path, "-") == 0;
	FILE* f = fromStdin ? stdin : fopen(path, "rb");
	if (f == NULL) {
		error->code = bc_errorIo;
		snprintf(error->message, sizeof error->message, "cannot open: %s", strerror(errno));
		return false;
	}
	bool ok = cliScene_Read(f, scene, error);
	if (!fromStdin) {
		fclose(f);
	}
	return ok;
}

void cliScene_Free(cliScene* scene)
{
	for (int k = 0; k < scene->ballCount; ++k) {
		free(scene->balls[k].id);
	}
	free(scene->balls);
	free(scene->notes);
	memset(scene, 0, sizeof *scene);
}
