/* fuzz_scene.c - libFuzzer target: the scene reader of `ballcast simulate`
 * (cliScene_Parse, cli/scene.c) over arbitrary bytes.
 *
 * Properties:
 *  - the same bytes parsed twice give the same answer: the same scene bit
 *    for bit (notes included), or the same error at the same place;
 *  - a byte order mark put in front changes nothing (positions are counted
 *    after it);
 *  - a refused input has an error code and a message; a syntax or value
 *    error points at a real place: line 1 .. the number of lines, column
 *    1 .. that line's length + 1 (bytes); record is -1, or a ball's index
 *    for a value error; the scene comes back empty;
 *  - an accepted scene has balls numbered 0, 1, 2 ... whose objects start at
 *    real places, an id exactly when idKind says so (a number id is a JSON
 *    number as written), finite positions and velocities, r >= 0 and
 *    mass > 0 (finite), finite gravity, restitution in [0, 1], horizon > 0,
 *    samples > 0 when given, max_events in 1 .. 2^62 when given, and notes
 *    at real places with a message;
 *  - written back as JSON (string ids escaped by cliWriteJsonString, bytes
 *    that are not UTF-8 as the text \xHH (bcFuzzGuarded), number
 *    ids as written, numbers with 17 digits), it parses to the same scene;
 *  - NULs do not cut text short: with every NUL byte turned into a control
 *    byte c the input holds nowhere and every \u0000 escape into c's escape
 *    (bcFuzzWithoutNuls: the same lengths, so the same places),
 *    an accepted scene is still accepted and the same (ids compared by
 *    length). */
#include "fuzz.h"
#include "output.h"
#include "scene.h"

/* What one parse gave. */
typedef struct bcSceneParse {
	bool ok;
	cliScene scene;
	bcError error;
} bcSceneParse;

static void parse(const char* text, size_t size, bcSceneParse* parsed)
{
	/* garbage first: the parser must set everything itself */
	memset(parsed, 0xA5, sizeof *parsed);
	parsed->ok = cliScene_Parse(text, size, &parsed->scene, &parsed->error);
}

static bool sameText(const char* a, const char* b, bool lengthsOnly)
{
	if (a == NULL || b == NULL) {
		return a == b;
	}
	return lengthsOnly ? strlen(a) == strlen(b) : strcmp(a, b) == 0;
}

static bool sameBall(const cliSceneBall* a, const cliSceneBall* b, bool positions, bool lengthsOnly)
{
	const bcSimBallDef* p = &a->def;
	const bcSimBallDef* q = &b->def;
	return (!positions || (a->line == b->line && a->column == b->column)) && a->index == b->index &&
		   a->idKind == b->idKind && sameText(a->id, b->id, lengthsOnly) && bcFuzzSameVec3(p->position, q->position) &&
		   bcFuzzSameVec3(p->velocity, q->velocity) && bcFuzzSameBits(p->radius, q->radius) &&
		   bcFuzzSameBits(p->mass, q->mass);
}

/* Two scenes agree: balls and settings; positions and notes when asked
 * (notes by count and place only when lengthsOnly: they quote keys). */
static void checkSameScene(const char* what, const cliScene* a, const cliScene* b, bool positions, bool lengthsOnly)
{
	BC_FUZZ_CHECK(a->ballCount == b->ballCount, "%s: %d balls, then %d", what, a->ballCount, b->ballCount);
	for (int k = 0; k < a->ballCount; ++k) {
		BC_FUZZ_CHECK(sameBall(a->balls + k, b->balls + k, positions, lengthsOnly), "%s: ball %d differs", what, k);
	}
	BC_FUZZ_CHECK(bcFuzzSameVec3(a->gravity, b->gravity) && bcFuzzSameBits(a->restitution, b->restitution) &&
					  bcFuzzSameBits(a->horizon, b->horizon) && a->haveSamples == b->haveSamples &&
					  bcFuzzSameBits(a->samples, b->samples) && a->haveMaxEvents == b->haveMaxEvents &&
					  a->maxEvents == b->maxEvents,
				  "%s: the settings differ", what);
	if (!positions) {
		return;
	}
	BC_FUZZ_CHECK(a->noteCount == b->noteCount, "%s: %d notes, then %d", what, a->noteCount, b->noteCount);
	for (int k = 0; k < a->noteCount; ++k) {
		const cliSceneNote* m = a->notes + k;
		const cliSceneNote* n = b->notes + k;
		BC_FUZZ_CHECK(m->line == n->line && m->column == n->column &&
						  (lengthsOnly || strcmp(m->message, n->message) == 0),
					  "%s: note %d: %ld:%ld %s, then %ld:%ld %s", what, k, m->line, m->column, m->message, n->line,
					  n->column, n->message);
	}
}

static void checkSameParse(const char* what, const bcSceneParse* a, const bcSceneParse* b)
{
	BC_FUZZ_CHECK(a->ok == b->ok, "%s: accepted %d, then %d (%ld:%ld %s / %ld:%ld %s)", what, (int)a->ok, (int)b->ok,
				  a->error.line, a->error.column, a->error.message, b->error.line, b->error.column, b->error.message);
	BC_FUZZ_CHECK(a->error.code == b->error.code && a->error.line == b->error.line &&
					  a->error.column == b->error.column && a->error.record == b->error.record &&
					  strcmp(a->error.message, b->error.message) == 0,
				  "%s: %ld:%ld (record %ld) %s, then %ld:%ld (record %ld) %s", what, a->error.line, a->error.column,
				  a->error.record, a->error.message, b->error.line, b->error.column, b->error.record,
				  b->error.message);
	if (a->ok) {
		checkSameScene(what, &a->scene, &b->scene, true, false);
	}
}

static void checkParse(const char* text, size_t size, const bcSceneParse* parsed)
{
	const cliScene* scene = &parsed->scene;
	const bcError* e = &parsed->error;
	BC_FUZZ_CHECK(memchr(e->message, '\0', sizeof e->message) != NULL, "error message not terminated");
	if (!parsed->ok) {
		BC_FUZZ_CHECK(e->code != bc_errorNone && e->message[0] != '\0', "refused with code %d, message '%s'",
					  (int)e->code, e->message);
		BC_FUZZ_CHECK(bcFuzzIsUtf8(e->message, strlen(e->message), true),
					  "the error is not valid UTF-8 or holds a control byte: %s", e->message);
		if (e->code == bc_errorNoMemory) {
			BC_FUZZ_CHECK(e->line == 0 && e->column == 0, "out of memory at %ld:%ld", e->line, e->column);
		} else {
			BC_FUZZ_CHECK(e->code == bc_errorSyntax || e->code == bc_errorValue, "error code %d: %s", (int)e->code,
						  e->message);
			BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, e->line, e->column),
						  "error at line %ld column %ld, outside the input: %s", e->line, e->column, e->message);
		}
		BC_FUZZ_CHECK(e->record == -1 || (e->code == bc_errorValue && e->record >= 0),
					  "error code %d blames record %ld: %s", (int)e->code, e->record, e->message);
		cliScene empty;
		memset(&empty, 0, sizeof empty);
		BC_FUZZ_CHECK(memcmp(scene, &empty, sizeof empty) == 0, "a refused scene is not empty (%d balls, %d notes)",
					  scene->ballCount, scene->noteCount);
		return;
	}
	BC_FUZZ_CHECK(e->code == bc_errorNone && e->record == -1, "accepted with error code %d", (int)e->code);
	BC_FUZZ_CHECK(scene->ballCount >= 0 && (scene->ballCount == 0 || scene->balls != NULL), "%d balls at %p",
				  scene->ballCount, (const void*)scene->balls);
	for (int k = 0; k < scene->ballCount; ++k) {
		const cliSceneBall* ball = scene->balls + k;
		const bcSimBallDef* def = &ball->def;
		BC_FUZZ_CHECK(ball->index == k, "ball %d numbered %ld", k, ball->index);
		BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, ball->line, ball->column), "ball %d at %ld:%ld, outside the input",
					  k, ball->line, ball->column);
		BC_FUZZ_CHECK((ball->idKind == cli_idIndex) == (ball->id == NULL), "ball %d: idKind %d with id %s", k,
					  (int)ball->idKind, ball->id != NULL ? ball->id : "NULL");
		BC_FUZZ_CHECK(ball->idKind == cli_idIndex || ball->idKind == cli_idNumber || ball->idKind == cli_idString,
					  "ball %d: idKind %d", k, (int)ball->idKind);
		if (ball->idKind == cli_idNumber) {
			BC_FUZZ_CHECK(bcFuzzIsJsonNumber(ball->id, strlen(ball->id)), "ball %d: number id '%s' is not a JSON number",
						  k, ball->id);
		}
		BC_FUZZ_CHECK(ball->id == NULL || bcFuzzIsUtf8(ball->id, strlen(ball->id), false),
					  "ball %d: the id is not valid UTF-8", k);
		BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(def->position) && bcFuzzIsFiniteVec3(def->velocity),
					  "ball %d: p or v not finite", k);
		BC_FUZZ_CHECK(isfinite(def->radius) && def->radius >= 0.0, "ball %d: r = %.17g", k, def->radius);
		BC_FUZZ_CHECK(isfinite(def->mass) && def->mass > 0.0, "ball %d: mass = %.17g", k, def->mass);
		char name[128];
		const char* shown = cliSceneBall_Name(ball, name, sizeof name);
		BC_FUZZ_CHECK(shown == name && memchr(name, '\0', sizeof name) != NULL && name[0] != '\0',
					  "ball %d: no name", k);
		BC_FUZZ_CHECK(bcFuzzIsUtf8(name, strlen(name), true), "ball %d: the name is not valid UTF-8 or holds a control "
					  "byte: %s", k, name);
	}
	BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(scene->gravity), "gravity not finite");
	BC_FUZZ_CHECK(scene->restitution >= 0.0 && scene->restitution <= 1.0, "restitution %.17g", scene->restitution);
	BC_FUZZ_CHECK(isfinite(scene->horizon) && scene->horizon > 0.0, "horizon %.17g", scene->horizon);
	if (scene->haveSamples) {
		BC_FUZZ_CHECK(isfinite(scene->samples) && scene->samples > 0.0, "samples %.17g", scene->samples);
	} else {
		BC_FUZZ_CHECK(scene->samples == 0.0, "absent samples %.17g", scene->samples);
	}
	if (scene->haveMaxEvents) {
		BC_FUZZ_CHECK(scene->maxEvents >= 1 && scene->maxEvents <= (1LL << 62), "max_events %lld", scene->maxEvents);
	} else {
		BC_FUZZ_CHECK(scene->maxEvents == 0, "absent max_events %lld", scene->maxEvents);
	}
	BC_FUZZ_CHECK(scene->noteCount >= 0 && (scene->noteCount == 0 || scene->notes != NULL), "%d notes at %p",
				  scene->noteCount, (const void*)scene->notes);
	for (int k = 0; k < scene->noteCount; ++k) {
		const cliSceneNote* note = scene->notes + k;
		BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, note->line, note->column), "note %d at %ld:%ld, outside the input",
					  k, note->line, note->column);
		BC_FUZZ_CHECK(memchr(note->message, '\0', sizeof note->message) != NULL && note->message[0] != '\0',
					  "note %d without a message", k);
	}
}

/* -------------------------------------------------- writing it back */

static void writeNumber(FILE* f, double x)
{
	fprintf(f, "%.17g", x);
}

static void writeVec3(FILE* f, const char* key, bcVec3 v)
{
	fprintf(f, "\"%s\": [", key);
	writeNumber(f, v.x);
	fputs(", ", f);
	writeNumber(f, v.y);
	fputs(", ", f);
	writeNumber(f, v.z);
	putc(']', f);
}

/* The scene written back (settings first, then the balls with their keys
 * in another order than usual) parses to the same scene. */
static void checkRoundTrip(const cliScene* scene)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	BC_FUZZ_CHECK(f != NULL, "open_memstream failed");
	fputs("{", f);
	writeVec3(f, "gravity", scene->gravity);
	fputs(",\n \"restitution\": ", f);
	writeNumber(f, scene->restitution);
	fputs(",\n \"horizon\": ", f);
	writeNumber(f, scene->horizon);
	if (scene->haveSamples) {
		fputs(",\n \"samples\": ", f);
		writeNumber(f, scene->samples);
	}
	if (scene->haveMaxEvents) {
		fprintf(f, ",\n \"max_events\": %lld", scene->maxEvents);
	}
	fputs(",\n \"balls\": [", f);
	for (int k = 0; k < scene->ballCount; ++k) {
		const cliSceneBall* ball = scene->balls + k;
		fputs(k > 0 ? ",\n  {" : "\n  {", f);
		fputs("\"mass\": ", f);
		writeNumber(f, ball->def.mass);
		fputs(", \"radius\": ", f);
		writeNumber(f, ball->def.radius);
		fputs(", ", f);
		writeVec3(f, "v", ball->def.velocity);
		fputs(", ", f);
		writeVec3(f, "p", ball->def.position);
		if (ball->idKind == cli_idString) {
			fputs(", \"id\": ", f);
			cliWriteJsonString(f, ball->id);
		} else if (ball->idKind == cli_idNumber) {
			fprintf(f, ", \"id\": %s", ball->id);
		}
		putc('}', f);
	}
	fputs("]}\n", f);
	BC_FUZZ_CHECK(fclose(f) == 0, "open_memstream failed");
	bcSceneParse back;
	parse(text, size, &back);
	BC_FUZZ_CHECK(back.ok, "written back, refused at %ld:%ld: %s\n%.*s", back.error.line, back.error.column,
				  back.error.message, (int)(size < 4000 ? size : 4000), text);
	BC_FUZZ_CHECK(back.scene.noteCount == 0, "written back: %d notes", back.scene.noteCount);
	/* string ids as the writer gives them back: bytes that are not UTF-8 as
	 * the text \xHH (the readers are to refuse them) */
	cliScene guarded = *scene;
	guarded.balls = malloc((size_t)(scene->ballCount > 0 ? scene->ballCount : 1) * sizeof *guarded.balls);
	BC_FUZZ_CHECK(guarded.balls != NULL, "out of memory");
	for (int k = 0; k < scene->ballCount; ++k) {
		guarded.balls[k] = scene->balls[k];
		guarded.balls[k].id = scene->balls[k].idKind == cli_idString ? bcFuzzGuarded(scene->balls[k].id)
																	 : scene->balls[k].id;
	}
	checkSameScene("written back", &guarded, &back.scene, false, false);
	for (int k = 0; k < scene->ballCount; ++k) {
		if (scene->balls[k].idKind == cli_idString) {
			free(guarded.balls[k].id);
		}
	}
	free(guarded.balls);
	cliScene_Free(&back.scene);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const char* text = (const char*)data;
	bcSceneParse first, again;
	parse(text, size, &first);
	checkParse(text, size, &first);
	parse(text, size, &again);
	checkSameParse("parsed twice", &first, &again);
	cliScene_Free(&again.scene);

	char* marked = bcFuzzWithByteOrderMark(text, size);
	if (marked != NULL) {
		bcSceneParse withMark;
		parse(marked, size + 3, &withMark);
		free(marked);
		checkSameParse("with a byte order mark", &first, &withMark);
		cliScene_Free(&withMark.scene);
	}

	if (first.ok) {
		checkRoundTrip(&first.scene);
		char* probe = bcFuzzWithoutNuls(text, size);
		if (probe != NULL) {
			bcSceneParse other;
			parse(probe, size, &other);
			free(probe);
			BC_FUZZ_CHECK(other.ok, "accepted, but refused with its NULs turned into a control byte: %ld:%ld %s",
						  other.error.line, other.error.column, other.error.message);
			checkSameScene("with NULs turned into a control byte", &first.scene, &other.scene, true, true);
			cliScene_Free(&other.scene);
		}
	}
	cliScene_Free(&first.scene);
	return 0;
}
