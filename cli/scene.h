/* scene.h - the scene of `ballcast simulate`: one JSON document with the
 * balls, the gravity, the restitution, the horizon and optional sampling
 * and event limits. Every error, syntax or value, comes with the line and
 * column of the offending byte or value. */
#ifndef BC_SCENE_H
#define BC_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ballcast.h"
#include "json_stream.h"
#include "records.h"

/* One ball of the scene. */
typedef struct cliSceneBall {
	long index;       /* 0-based position in "balls" */
	long line;        /* where its object starts (1-based line, byte column) */
	long column;
	cliIdKind idKind;
	char* id;         /* owned: the decoded string, or the number as written; NULL for cli_idIndex */
	bcSimBallDef def; /* position "p", velocity "v" (default 0), radius "r", mass (default 1) */
} cliSceneBall;

/* Something in the scene that was ignored (an unknown key), with where. */
typedef struct cliSceneNote {
	long line;
	long column;
	char message[200];
} cliSceneNote;

typedef struct cliScene {
	cliSceneBall* balls;  /* owned, ballCount of them */
	int ballCount;
	bcVec3 gravity;       /* default (0, 0, 0) */
	double restitution;   /* default 1 */
	double horizon;       /* required, > 0 */
	bool haveSamples;
	double samples;       /* "samples": the sampling interval dt > 0 */
	bool haveMaxEvents;
	long long maxEvents;  /* "max_events" >= 1 */
	cliSceneNote* notes;  /* owned, noteCount of them */
	int noteCount;
} cliScene;

/* Parse a scene from text[0 .. length) (need not be NUL terminated). On
 * failure returns false with error filled: bc_errorSyntax for malformed
 * JSON, bc_errorValue for a value out of range or a missing key,
 * bc_errorNoMemory; line and column (1-based, bytes, a UTF-8 byte order
 * mark not counted) say where, and record is the ball's index when one is
 * to blame (else -1). The scene is then empty. The caller frees a parsed
 * scene with cliScene_Free. */
bool cliScene_Parse(const char* text, size_t length, cliScene* scene, bcError* error);

/* The longest scene read: a scene is one JSON value, the longest the JSON
 * front end takes (tens of thousands of balls fit). */
#define CLI_SCENE_MAX_BYTES CLI_JSON_MAX_VALUE

/* Read stream (not closed; nothing read from it before) to its end and
 * parse it. An unreadable stream is bc_errorIo without a position; binary
 * data (NUL bytes) and UTF-16 text are bc_errorSyntax at their place
 * (cliInput_Fill); a stream longer than CLI_SCENE_MAX_BYTES is
 * bc_errorTooLarge, read no further. */
bool cliScene_Read(FILE* stream, cliScene* scene, bcError* error);

/* Open the file at path ("-": standard input) and cliScene_Read it; a file
 * that cannot be opened is bc_errorIo without a position. */
bool cliScene_Load(const char* path, cliScene* scene, bcError* error);

/* A ball's name for messages: ball "a" (balls[2]), ball 7 (balls[2]) for a
 * numeric id, balls[2] without one; the id quoted as cliQuoteText does,
 * shorter when buffer is short, never a character cut. Returns buffer. */
const char* cliSceneBall_Name(const cliSceneBall* ball, char* buffer, size_t size);

/* Free what a scene owns and zero it. */
void cliScene_Free(cliScene* scene);

#endif
