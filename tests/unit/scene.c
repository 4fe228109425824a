/* scene.c tests: the JSON scene of `ballcast simulate` - values, defaults,
 * ids as written, and every error at its exact line and column. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scene.h"

static bool parse(const char* text, cliScene* scene, bcError* error)
{
	return cliScene_Parse(text, strlen(text), scene, error);
}

START_TEST(full_scene)
{
	const char* text = "{\"balls\": [\n"
					   "  {\"id\": \"a\", \"p\": [1, 2, 3], \"v\": [-1, 0.5, 0], \"r\": 0.25, \"mass\": 2},\n"
					   "  {\"id\": 7.50, \"p\": [0, 0, 1e-3], \"radius\": 0},\n"
					   "  {\"p\": [4, 5, 6], \"r\": 1}],\n"
					   " \"gravity\": [0, 0, -9.81], \"restitution\": 0.5, \"horizon\": 10,\n"
					   " \"samples\": 0.01, \"max_events\": 1e3}";
	cliScene scene;
	bcError error;
	ck_assert_msg(parse(text, &scene, &error), "%ld:%ld: %s", error.line, error.column, error.message);
	ck_assert_int_eq(scene.ballCount, 3);
	const cliSceneBall* a = scene.balls;
	ck_assert_int_eq(a->idKind, cli_idString);
	ck_assert_str_eq(a->id, "a");
	ck_assert_int_eq(a->line, 2);
	ck_assert_int_eq(a->column, 3);
	bcAssertVecNear(a->def.position, 1, 2, 3, 0);
	bcAssertVecNear(a->def.velocity, -1, 0.5, 0, 0);
	bcAssertNear(a->def.radius, 0.25, 0);
	bcAssertNear(a->def.mass, 2, 0);
	const cliSceneBall* b = scene.balls + 1;
	ck_assert_int_eq(b->idKind, cli_idNumber);
	ck_assert_str_eq(b->id, "7.50"); /* as written */
	bcAssertVecNear(b->def.position, 0, 0, 0.001, 0);
	bcAssertVecNear(b->def.velocity, 0, 0, 0, 0); /* default */
	bcAssertNear(b->def.radius, 0, 0);
	bcAssertNear(b->def.mass, 1, 0); /* default */
	const cliSceneBall* c = scene.balls + 2;
	ck_assert_int_eq(c->idKind, cli_idIndex);
	ck_assert_ptr_null(c->id);
	ck_assert_int_eq(c->index, 2);
	bcAssertVecNear(scene.gravity, 0, 0, -9.81, 0);
	bcAssertNear(scene.restitution, 0.5, 0);
	bcAssertNear(scene.horizon, 10, 0);
	ck_assert(scene.haveSamples);
	bcAssertNear(scene.samples, 0.01, 0);
	ck_assert(scene.haveMaxEvents);
	ck_assert(scene.maxEvents == 1000);
	ck_assert_int_eq(scene.noteCount, 0);
	char name[96];
	ck_assert_str_eq(cliSceneBall_Name(a, name, sizeof name), "ball \"a\" (balls[0])");
	ck_assert_str_eq(cliSceneBall_Name(b, name, sizeof name), "ball 7.50 (balls[1])");
	ck_assert_str_eq(cliSceneBall_Name(c, name, sizeof name), "balls[2]");
	cliScene_Free(&scene);
	ck_assert_ptr_null(scene.balls);
}
END_TEST

START_TEST(defaults_duplicates_and_strings)
{
	/* Minimal scene: gravity 0, e = 1, no samples, no limit. A repeated key:
	 * the first counts. Escapes in ids are decoded. */
	const char* text = "{\"horizon\": 2, \"balls\": [{\"id\": \"\\u00e9t\\u00e9\\n\\ud83d\\ude00\", \"p\": [0,0,0],"
					   " \"r\": 1, \"r\": -5, \"radius\": 9}], \"horizon\": 3}";
	cliScene scene;
	bcError error;
	ck_assert_msg(parse(text, &scene, &error), "%s", error.message);
	bcAssertNear(scene.horizon, 2, 0);
	bcAssertNear(scene.restitution, 1, 0);
	bcAssertVecNear(scene.gravity, 0, 0, 0, 0);
	ck_assert(!scene.haveSamples && !scene.haveMaxEvents);
	bcAssertNear(scene.balls[0].def.radius, 1, 0);
	ck_assert_str_eq(scene.balls[0].id, "\xC3\xA9t\xC3\xA9\n\xF0\x9F\x98\x80");
	cliScene_Free(&scene);
	/* No balls at all is a scene too. */
	ck_assert(parse(" \xEF\xBB\xBF", &scene, &error) == false);
	ck_assert(parse("{\"balls\": [], \"horizon\": 1}", &scene, &error));
	ck_assert_int_eq(scene.ballCount, 0);
	cliScene_Free(&scene);
}
END_TEST

START_TEST(unknown_keys_are_noted)
{
	const char* text = "{\"balls\": [{\"p\": [0,0,0], \"r\": 1, \"vel\": [1,0,0]},\n"
					   "  {\"id\": \"b\", \"p\": [5,0,0], \"r\": 1, \"colour\": {\"r\": [1]}}],\n"
					   " \"horizon\": 1, \"gravty\": [0,0,-1]}";
	cliScene scene;
	bcError error;
	ck_assert(parse(text, &scene, &error));
	ck_assert_int_eq(scene.noteCount, 3);
	ck_assert_int_eq(scene.notes[0].line, 1);
	ck_assert_int_eq(scene.notes[0].column, 35);
	ck_assert_str_eq(scene.notes[0].message, "balls[0]: unknown key \"vel\" ignored");
	ck_assert_int_eq(scene.notes[1].line, 2);
	ck_assert_int_eq(scene.notes[1].column, 37);
	ck_assert_str_eq(scene.notes[1].message, "ball \"b\" (balls[1]): unknown key \"colour\" ignored");
	ck_assert_int_eq(scene.notes[2].line, 3);
	ck_assert_int_eq(scene.notes[2].column, 16);
	ck_assert_str_eq(scene.notes[2].message, "unknown key \"gravty\" ignored");
	cliScene_Free(&scene);
}
END_TEST

START_TEST(keys_holding_a_nul_are_unknown)
{
	/* "r\u0000x" is not "r" cut short, nor a repeat of it: noted, with the
	 * NUL shown as it was written. */
	const char* text = "{\"balls\": [{\"p\": [0,0,0], \"r\": 1, \"r\\u0000x\": -1, \"\\u0000\": 0}],\n"
					   " \"horizon\\u0000\": -1, \"horizon\": 3, \"horizon\\u0000\": -2}";
	cliScene scene;
	bcError error;
	ck_assert_msg(parse(text, &scene, &error), "%ld:%ld: %s", error.line, error.column, error.message);
	bcAssertNear(scene.balls[0].def.radius, 1, 0);
	bcAssertNear(scene.horizon, 3, 0);
	ck_assert_int_eq(scene.noteCount, 3);
	ck_assert_int_eq(scene.notes[0].line, 1);
	ck_assert_int_eq(scene.notes[0].column, 35);
	ck_assert_str_eq(scene.notes[0].message, "balls[0]: unknown key \"r\\u0000x\" ignored");
	ck_assert_str_eq(scene.notes[1].message, "balls[0]: unknown key \"\\u0000\" ignored");
	ck_assert_int_eq(scene.notes[2].line, 2);
	ck_assert_int_eq(scene.notes[2].column, 2);
	ck_assert_str_eq(scene.notes[2].message, "unknown key \"horizon\\u0000\" ignored");
	cliScene_Free(&scene);
}
END_TEST

START_TEST(keys_holding_a_nul_repeat_when_they_decode_the_same)
{
	/* "\u0061\u0000" is "a\u0000" written another way: a repeat, not noted
	 * again; "a\u0000b" and "a\u0000c" differ after the NUL: two notes
	 * (fuzz_scene's NUL property found keys compared as written). */
	const char* text = "{\"balls\": [], \"horizon\": 3, \"a\\u0000\": 1, \"\\u0061\\u0000\": 2,\n"
					   " \"a\\u0000b\": 3, \"a\\u0000c\": 4, \"a\\u0000\\u0062\": 5}";
	cliScene scene;
	bcError error;
	ck_assert_msg(parse(text, &scene, &error), "%ld:%ld: %s", error.line, error.column, error.message);
	ck_assert_int_eq(scene.noteCount, 3);
	ck_assert_str_eq(scene.notes[0].message, "unknown key \"a\\u0000\" ignored");
	ck_assert_int_eq(scene.notes[1].line, 2);
	ck_assert_int_eq(scene.notes[1].column, 2);
	ck_assert_str_eq(scene.notes[1].message, "unknown key \"a\\u0000b\" ignored");
	ck_assert_int_eq(scene.notes[2].column, 17);
	ck_assert_str_eq(scene.notes[2].message, "unknown key \"a\\u0000c\" ignored");
	cliScene_Free(&scene);
}
END_TEST

/* {"a": and 1001 '[', their ']' and '}': the 1001st level (the object is
 * the first) is the 1000th '[', at column 6 + 1000. */
#define B10 "[[[[[[[[[["
#define B100 B10 B10 B10 B10 B10 B10 B10 B10 B10 B10
#define B1000 B100 B100 B100 B100 B100 B100 B100 B100 B100 B100
#define E10 "]]]]]]]]]]"
#define E100 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10
#define E1000 E100 E100 E100 E100 E100 E100 E100 E100 E100 E100
#define NESTED_1001 "{\"a\": " B1000 "[]" E1000 "}"

typedef struct cliSceneErrorCase {
	const char* text;
	bcErrorCode code;
	long line;
	long column;
	long record;
	const char* message;
} cliSceneErrorCase;

static const cliSceneErrorCase errorCases[] = {
	/* syntax */
	{ "", bc_errorSyntax, 1, 1, -1, "empty scene: expected a JSON object" },
	{ "  \n\t ", bc_errorSyntax, 2, 3, -1, "empty scene: expected a JSON object" },
	{ "{\"balls\": [], }", bc_errorSyntax, 1, 15, -1, "expected a key after ',' (no trailing commas in JSON)" },
	{ "{\"balls\": [1,], \"horizon\": 1}", bc_errorSyntax, 1, 14, -1,
	  "expected an element after ',' (no trailing commas in JSON)" },
	{ "{\"balls\" []}", bc_errorSyntax, 1, 10, -1, "invalid JSON: unexpected '[' (expected ':' after a key)" },
	{ "{\"balls\": [] \"horizon\": 1}", bc_errorSyntax, 1, 14, -1,
	  "invalid JSON: unexpected '\"' (expected ',' or '}' after a member)" },
	{ "{\"balls\": [{} {}]}", bc_errorSyntax, 1, 15, -1,
	  "invalid JSON: unexpected '{' (expected ',' or ']' after an element)" },
	{ "{balls: []}", bc_errorSyntax, 1, 2, -1, "invalid JSON: unexpected 'b' (expected a key in double quotes)" },
	{ "{\"balls\": [],\n \"horizon\": 01}", bc_errorSyntax, 2, 13, -1, "invalid JSON number '01'" },
	{ "{\"horizon\": 1.}", bc_errorSyntax, 1, 13, -1, "invalid JSON number '1.'" },
	{ "{\"horizon\": -.5}", bc_errorSyntax, 1, 13, -1, "invalid JSON number '-.5'" },
	{ "{\"horizon\": +1}", bc_errorSyntax, 1, 13, -1, "invalid JSON number '+1'" },
	{ "{\"horizon\": 1e}", bc_errorSyntax, 1, 13, -1, "invalid JSON number '1e'" },
	{ "{\"horizon\": NaN}", bc_errorSyntax, 1, 13, -1, "NaN and Infinity are not JSON numbers" },
	{ "{\"horizon\": -Infinity}", bc_errorSyntax, 1, 13, -1, "NaN and Infinity are not JSON numbers" },
	{ "{\"horizon\": nul}", bc_errorSyntax, 1, 13, -1, "invalid JSON value 'nul'" },
	{ "{\"horizon\": truest}", bc_errorSyntax, 1, 13, -1, "invalid JSON value 'truest'" },
	{ "{\"balls\": [{\"id\": \"a\\qb\"}]}", bc_errorSyntax, 1, 21, -1, "invalid escape sequence in a string" },
	{ "{\"balls\": [{\"id\": \"\\ud800x\"}]}", bc_errorSyntax, 1, 20, -1, "invalid escape sequence in a string" },
	{ "{\"balls\": [{\"id\": \"a\nb\"}]}", bc_errorSyntax, 1, 21, -1, "control character 0x0A in a string (write it as an escape)" },
	{ "{\"balls\": [{\"id\": \"abc}]}", bc_errorSyntax, 1, 19, -1, "unterminated string" },
	{ "{\"balls\": [", bc_errorSyntax, 1, 12, -1, "unexpected end of input inside a JSON value" },
	{ "{\"balls\": [],", bc_errorSyntax, 1, 14, -1, "unexpected end of input inside a JSON value" },
	{ "{\"balls\": [], \"horizon\": 1}\n}", bc_errorSyntax, 2, 1, -1, "unexpected data after the scene's JSON object" },
	{ "{\"balls\": [], \"horizon\": 1} x", bc_errorSyntax, 1, 29, -1,
	  "unexpected data after the scene's JSON object" },
	{ NESTED_1001, bc_errorSyntax, 1, 1006, -1, "nesting deeper than 1000 levels" },
	{ "\xEF\xBB\xBF{\"horizon\": x}", bc_errorSyntax, 1, 13, -1, "invalid JSON value 'x'" },
	{ "{\"horizon\": 1}\r\n{", bc_errorSyntax, 2, 1, -1, "unexpected data after the scene's JSON object" },
	/* values */
	{ "[1, 2]", bc_errorValue, 1, 1, -1, "a scene is a JSON object with \"balls\" and \"horizon\", not an array" },
	{ "{\"horizon\": 1}", bc_errorValue, 1, 1, -1, "missing \"balls\" (an array of balls)" },
	{ "\n  {\"balls\": []}", bc_errorValue, 2, 3, -1, "missing \"horizon\" (the time to simulate, in seconds)" },
	{ "{\"balls\": {}, \"horizon\": 1}", bc_errorValue, 1, 11, -1,
	  "balls: expected an array of ball objects, found an object" },
	{ "{\"balls\": [{\"p\": [0,0,0], \"r\": 1}, 3], \"horizon\": 1}", bc_errorValue, 1, 36, 1,
	  "balls[1]: expected an object, found a number" },
	{ "{\"balls\": [\n {\"id\": \"a\", \"r\": 1}], \"horizon\": 1}", bc_errorValue, 2, 2, 0,
	  "ball \"a\" (balls[0]): missing \"p\" (the centre at time 0)" },
	{ "{\"balls\": [{\"id\": 3, \"p\": [0,0,0]}], \"horizon\": 1}", bc_errorValue, 1, 12, 0,
	  "ball 3 (balls[0]): missing \"r\" (the radius)" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0,0], \"r\": -0.5}], \"horizon\": 1}", bc_errorValue, 1, 43, 0,
	  "ball \"a\" (balls[0]): r: must be >= 0, not -0.5" },
	{ "{\"balls\": [{\"p\": [0,0,0], \"radius\": -1e-300}], \"horizon\": 1}", bc_errorValue, 1, 37, 0,
	  "balls[0]: radius: must be >= 0, not -1e-300" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0,0], \"r\": \"1\"}], \"horizon\": 1}", bc_errorValue, 1, 43, 0,
	  "ball \"a\" (balls[0]): r: expected a number, found a string" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0,0], \"r\": 1, \"mass\": 0}], \"horizon\": 1}", bc_errorValue, 1,
	  54, 0, "ball \"a\" (balls[0]): mass: must be > 0, not 0" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0,0], \"r\": 1, \"mass\": -2}], \"horizon\": 1}", bc_errorValue, 1,
	  54, 0, "ball \"a\" (balls[0]): mass: must be > 0, not -2" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0], \"r\": 1}], \"horizon\": 1}", bc_errorValue, 1, 29, 0,
	  "ball \"a\" (balls[0]): p: expected an array of 3 numbers" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0, 1e999, 0], \"r\": 1}], \"horizon\": 1}", bc_errorValue, 1, 33, 0,
	  "ball \"a\" (balls[0]): p: 1e999 is not a finite number" },
	{ "{\"balls\": [{\"id\": \"a\", \"p\": [0,0,0], \"v\": [0,null,0], \"r\": 1}], \"horizon\": 1}", bc_errorValue, 1,
	  46, 0, "ball \"a\" (balls[0]): v: expected a number, found null" },
	{ "{\"balls\": [{\"id\": [1], \"p\": [0,0,0], \"r\": 1}], \"horizon\": 1}", bc_errorValue, 1, 19, 0,
	  "balls[0]: id: expected a string or a number, found an array" },
	{ "{\"balls\": [], \"horizon\": 0}", bc_errorValue, 1, 26, -1, "horizon: must be > 0, not 0" },
	{ "{\"balls\": [], \"horizon\": -1e-9}", bc_errorValue, 1, 26, -1, "horizon: must be > 0, not -1e-9" },
	{ "{\"balls\": [], \"horizon\": 2e400}", bc_errorValue, 1, 26, -1, "horizon: 2e400 is not a finite number" },
	{ "{\"balls\": [], \"horizon\": true}", bc_errorValue, 1, 26, -1, "horizon: expected a number, found a boolean" },
	{ "{\"balls\": [], \"horizon\": 1, \"restitution\": 1.5}", bc_errorValue, 1, 44, -1,
	  "restitution: must be in [0, 1], not 1.5" },
	{ "{\"balls\": [], \"horizon\": 1, \"restitution\": -0}", bc_errorValue, 0, 0, -1, NULL },
	{ "{\"balls\": [], \"horizon\": 1, \"gravity\": [0, 0]}", bc_errorValue, 1, 40, -1,
	  "gravity: expected an array of 3 numbers" },
	{ "{\"balls\": [], \"horizon\": 1, \"samples\": 0}", bc_errorValue, 1, 40, -1, "samples: must be > 0, not 0" },
	{ "{\"balls\": [], \"horizon\": 1, \"max_events\": 2.5}", bc_errorValue, 1, 43, -1,
	  "max_events: must be a whole number >= 1, not 2.5" },
	{ "{\"balls\": [], \"horizon\": 1, \"max_events\": 0}", bc_errorValue, 1, 43, -1,
	  "max_events: must be a whole number >= 1, not 0" },
	/* beyond a long long: refused before any conversion (fuzz_scene found
	 * 1e33 converted first, undefined behaviour) */
	{ "{\"balls\": [], \"horizon\": 1, \"max_events\": 1e33}", bc_errorValue, 1, 43, -1,
	  "max_events: must be a whole number >= 1, not 1e33" },
	{ "{\"balls\": [], \"horizon\": 1, \"max_events\": \"10\"}", bc_errorValue, 1, 43, -1,
	  "max_events: expected a number, found a string" },
	/* The first problem in the text wins. */
	{ "{\"balls\": [{\"p\": [0,0,0], \"r\": -1}], \"horizon\": -1}", bc_errorValue, 1, 32, 0,
	  "balls[0]: r: must be >= 0, not -1" },
	{ "{\"horizon\": -1, \"balls\": [{\"p\": [0,0,0], \"r\": -1}]}", bc_errorValue, 1, 13, -1,
	  "horizon: must be > 0, not -1" },
	/* \u0000 would cut an id short (fuzz_scene: nul-escape-cuts-id-short.json);
	 * a key holding it is not "p". */
	{ "{\"horizon\":2,\"balls\":[{\"id\":\"\\u0000\",\"p\":[0,0,0],\"r\":1}]}", bc_errorValue, 1, 29, 0,
	  "balls[0]: id: contains \\u0000, which cannot be echoed" },
	{ "{\"horizon\":2,\"balls\":[{\"id\":\"a\\u0000b\",\"p\":[0,0,0],\"r\":1}]}", bc_errorValue, 1, 29, 0,
	  "balls[0]: id: contains \\u0000, which cannot be echoed" },
	{ "{\"horizon\":2,\"balls\":[{\"id\":\"a\",\"p\\u0000\":[0,0,0],\"r\":1}]}", bc_errorValue, 1, 23, 0,
	  "ball \"a\" (balls[0]): missing \"p\" (the centre at time 0)" },
};

START_TEST(errors_at_their_place)
{
	const cliSceneErrorCase* c = errorCases + _i;
	cliScene scene;
	bcError error;
	bool ok = parse(c->text, &scene, &error);
	if (c->message == NULL) {
		/* -0 is a restitution in [0, 1]. */
		ck_assert_msg(ok, "case %d: %s", _i, error.message);
		cliScene_Free(&scene);
		return;
	}
	ck_assert_msg(!ok, "case %d parsed: %s", _i, c->text);
	ck_assert_msg(error.code == c->code, "case %d: code %d, expected %d (%s)", _i, error.code, c->code, error.message);
	ck_assert_msg(error.line == c->line && error.column == c->column, "case %d: at %ld:%ld, expected %ld:%ld (%s)", _i,
				  error.line, error.column, c->line, c->column, error.message);
	ck_assert_msg(error.record == c->record, "case %d: record %ld, expected %ld", _i, error.record, c->record);
	ck_assert_msg(strcmp(error.message, c->message) == 0, "case %d: '%s', expected '%s'", _i, error.message,
				  c->message);
	ck_assert_int_eq(scene.ballCount, 0);
	ck_assert_ptr_null(scene.balls);
}
END_TEST

START_TEST(text_need_not_end_in_a_nul)
{
	/* The parser reads length bytes, not up to a NUL: what follows them
	 * does not count, and a value cut by the end is cut there. */
	const char buffer[] = "{\"balls\": [], \"horizon\": 12}999";
	cliScene scene;
	bcError error;
	ck_assert(cliScene_Parse(buffer, 28, &scene, &error));
	bcAssertNear(scene.horizon, 12, 0);
	cliScene_Free(&scene);
	ck_assert(!cliScene_Parse(buffer, 27, &scene, &error));
	ck_assert_int_eq(error.column, 28);
	ck_assert_str_eq(error.message, "unexpected end of input inside a JSON value");
	ck_assert(!cliScene_Parse(buffer, 26, &scene, &error));
	ck_assert_int_eq(error.column, 27);
}
END_TEST

START_TEST(load_from_files)
{
	char path[] = "/tmp/ballcast-scene-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char* text = "{\"balls\": [{\"id\": \"x\", \"p\": [1, 2, 3], \"r\": 0.5}], \"horizon\": 4}\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	cliScene scene;
	bcError error;
	ck_assert_msg(cliScene_Load(path, &scene, &error), "%s", error.message);
	ck_assert_int_eq(scene.ballCount, 1);
	bcAssertVecNear(scene.balls[0].def.position, 1, 2, 3, 0);
	cliScene_Free(&scene);
	unlink(path);
	ck_assert(!cliScene_Load(path, &scene, &error));
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_int_eq(error.line, 0);
	ck_assert_str_eq(error.message, "cannot open: No such file or directory");
}
END_TEST

static Suite* sceneSuite(void)
{
	Suite* s = suite_create("scene");
	TCase* values = tcase_create("values");
	tcase_add_test(values, full_scene);
	tcase_add_test(values, defaults_duplicates_and_strings);
	tcase_add_test(values, unknown_keys_are_noted);
	tcase_add_test(values, keys_holding_a_nul_are_unknown);
	tcase_add_test(values, keys_holding_a_nul_repeat_when_they_decode_the_same);
	tcase_add_test(values, text_need_not_end_in_a_nul);
	tcase_add_test(values, load_from_files);
	suite_add_tcase(s, values);
	TCase* errors = tcase_create("errors");
	tcase_add_loop_test(errors, errors_at_their_place, 0, (int)(sizeof errorCases / sizeof errorCases[0]));
	suite_add_tcase(s, errors);
	return s;
}

int main(void)
{
	return bcRunSuite(sceneSuite());
}
