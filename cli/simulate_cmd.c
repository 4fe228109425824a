/* simulate_cmd.c - `ballcast simulate MESH SCENE`: bounce a scene's balls
 * around a mesh, event by event, and write the event log (and, with
 * --positions, every ball's position at fixed times). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "records_out.h"
#include "scene.h"
#include "records.h"

/* The options of simulate's own, in the order simulateOption knows them. */
enum { cli_simulatePositions, cli_simulateSamples, cli_simulateHorizon, cli_simulateMaxEvents, cli_simulateTwoSided,
	   cli_simulateBrute, cli_simulateStats };
static const cliOption simulateOptions[] = {
	{ "positions", 0, true },   { "samples", 0, true }, { "horizon", 0, true }, { "max-events", 0, true },
	{ "two-sided", 0, false }, { "brute", 0, false },  { "stats", 0, false },  { NULL, 0, false },
};

static const cliUsage simulateUsage = {
	"simulate",
	"usage: ballcast simulate [OPTIONS] MESH.obj SCENE.json\n"
	"\n"
	"Bounce the scene's balls around the mesh and off each other, under the\n"
	"scene's gravity, event by event up to its horizon: every bounce, rest and\n"
	"run-off with its time, the ball(s), what was touched, the normal and the\n"
	"velocities before and after. SCENE is a JSON object ('-' reads standard\n"
	"input):\n"
	"  {\"balls\": [{\"id\": \"a\", \"p\": [1, 1, 2], \"v\": [1, 0, 0], \"r\": 0.25,\n"
	"              \"mass\": 1}],\n"
	"   \"gravity\": [0, 0, -9.81], \"restitution\": 0.8, \"horizon\": 10,\n"
	"   \"samples\": 0.01, \"max_events\": 100000}\n"
	"\n"
	"options:\n"
	"  -o, --output FILE         write the events here (format from the extension:\n"
	"                            .json, .ndjson, .csv) instead of standard output\n"
	CLI_HELP_FORMAT
	"      --positions FILE      also write every ball's position every sampling\n"
	"                            interval: t,id,x,y,z (CSV unless FILE ends in\n"
	"                            .ndjson, .jsonl or .json)\n"
	"      --samples DT          the sampling interval (overrides \"samples\")\n"
	"      --horizon T           simulate up to time T (overrides \"horizon\")\n"
	"      --max-events N        stop after N events (overrides \"max_events\";\n"
	"                            default 100000); the run then exits with 1\n"
	"      --two-sided           triangles stop balls from behind too\n"
	"      --brute               test every triangle (reference path, slow)\n"
	CLI_HELP_QUIET
	"      --stats               times and counts on standard error as one JSON line\n"
	CLI_HELP_MESH_FORMAT
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast simulate samples/room.obj scene.json\n"
	"  ballcast simulate -f csv --positions track.csv room.obj scene.json > events.csv\n"
	"  ballcast simulate -f ndjson room.obj scene.json | grep '\"kind\":\"rest\"'\n",
	cli_optOutput | cli_optFormat | cli_optQuiet | cli_optMeshFormat,
	simulateOptions,
	2,
	2,
	{ "missing MESH", "missing SCENE" },
};

typedef struct cliSimulateConfig {
	const char* meshPath;
	const char* scenePath;
	cliCommonOptions common;
	const char* positionsPath;
	bool haveSamples;
	double samples;
	bool haveHorizon;
	double horizon;
	bool haveMaxEvents;
	long long maxEvents;
	bool twoSided;
	bool brute;
	bool stats;
} cliSimulateConfig;

static bool isStdout(const char* path)
{
	return path == NULL || strcmp(path, "-") == 0;
}

/* One of simulate's own options (a cliOptionFcn). */
static const char* simulateOption(void* context, int k, const char* value)
{
	cliSimulateConfig* cfg = context;
	switch (k) {
	case cli_simulatePositions:
		cfg->positionsPath = value;
		return NULL;
	case cli_simulateSamples:
		cfg->haveSamples = cliParseDouble(value, &cfg->samples) && cfg->samples > 0.0;
		return cfg->haveSamples ? NULL : "--samples needs a finite number > 0, not";
	case cli_simulateHorizon:
		cfg->haveHorizon = cliParseDouble(value, &cfg->horizon) && cfg->horizon > 0.0;
		return cfg->haveHorizon ? NULL : "--horizon needs a finite number > 0, not";
	case cli_simulateMaxEvents: {
		char* end = NULL;
		long long n = strtoll(value, &end, 10);
		if (end == value || *end != 0 || n < 1 || n == LLONG_MAX) {
			return "--max-events needs a whole number >= 1, not";
		}
		cfg->maxEvents = n;
		cfg->haveMaxEvents = true;
		return NULL;
	}
	case cli_simulateTwoSided:
		cfg->twoSided = true;
		return NULL;
	case cli_simulateBrute:
		cfg->brute = true;
		return NULL;
	default:
		cfg->stats = true;
		return NULL;
	}
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliSimulateConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	int first = 0;
	int status = cliParseArguments(&simulateUsage, argc, argv, &cfg->common, simulateOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	cfg->meshPath = argv[first];
	cfg->scenePath = argv[first + 1];
	if (cfg->positionsPath != NULL && isStdout(cfg->positionsPath) && isStdout(cfg->common.outputPath)) {
		return cliUsageError(&simulateUsage,
							 "the events and --positions cannot both go to standard output: give -o FILE", NULL);
	}
	for (int k = first; k < argc && status < 0; ++k) {
		status = cliRefuseOverwrite(&simulateUsage, cfg->positionsPath, "--positions", argv[k]);
	}
	return status;
}

/* ---------------------------------------------------------------- writing */

/* An event's columns, in key and column order. */
enum {
	cli_eventTime,
	cli_eventKind,
	cli_eventId,
	cli_eventOther,
	cli_eventTriangle,
	cli_eventFace,
	cli_eventFeature,
	cli_eventVertices,
	cli_eventPoint,
	cli_eventNormal,
	cli_eventPosition,
	cli_eventVelocityBefore,
	cli_eventVelocityAfter,
	cli_eventOtherPosition,
	cli_eventOtherVelocityBefore,
	cli_eventOtherVelocityAfter,
	cli_eventMotion,
	cli_eventOtherMotion,
	cli_eventColumnCount
};

static const cliOutColumn eventColumns[cli_eventColumnCount] = {
	{ "time", NULL },
	{ "kind", NULL },
	{ "id", NULL },
	{ "other", NULL },
	{ "triangle", NULL },
	{ "face", NULL },
	{ "feature", NULL },
	{ "vertices", "vertex_0,vertex_1,vertex_2" },
	CLI_OUT_VEC3_COLUMN("point"),
	CLI_OUT_VEC3_COLUMN("normal"),
	CLI_OUT_VEC3_COLUMN("position"),
	CLI_OUT_VEC3_COLUMN("velocity_before"),
	CLI_OUT_VEC3_COLUMN("velocity_after"),
	CLI_OUT_VEC3_COLUMN("other_position"),
	CLI_OUT_VEC3_COLUMN("other_velocity_before"),
	CLI_OUT_VEC3_COLUMN("other_velocity_after"),
	{ "motion", NULL },
	{ "other_motion", NULL },
};

/* A position sample's columns (--positions), a bare list. */
enum { cli_sampleT, cli_sampleId, cli_sampleX, cli_sampleY, cli_sampleZ, cli_sampleColumnCount };

static const cliOutColumn sampleColumns[cli_sampleColumnCount] = {
	{ "t", NULL }, { "id", NULL }, { "x", NULL }, { "y", NULL }, { "z", NULL },
};

/* A record standing in for a scene ball, for its id. */
static cliRecord idRecord(const cliSceneBall* ball)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = ball->index;
	record.idKind = ball->idKind;
	record.id = ball->id;
	return record;
}

static bool touchesMesh(const bcSimEvent* e)
{
	return e->kind == bc_simKindMesh || e->kind == bc_simKindRest;
}

/* Where a stream of records goes: its writer and the text formatted and
 * not yet written. */
typedef struct cliRecordStream {
	cliOutput* output;
	cliRecordsOut writer;
	cliBuffer text;
	long long written;
} cliRecordStream;

/* Write the text formatted so far. */
static void drain(cliRecordStream* s)
{
	if (!s->text.failed) {
		cliOutput_Write(s->output, s->text.data, s->text.length);
		cliBuffer_Clear(&s->text);
	}
}

typedef struct cliEventCounts {
	long long total;
	long long kinds[5]; /* by bcSimEventKind */
} cliEventCounts;

static void writeEvent(cliRecordStream* s, const cliScene* scene, const bcSimEvent* e, cliEventCounts* counts)
{
	bool ballEvent = e->kind == bc_simKindBall;
	cliRecord self = idRecord(scene->balls + e->ball);
	cliRecord other = ballEvent ? idRecord(scene->balls + e->other) : self;
	cliOutValue v[cli_eventColumnCount] = {
		[cli_eventTime] = cliOutValue_Number(e->time),
		[cli_eventKind] = cliOutValue_Name(bcSimEventKindName(e->kind)),
		[cli_eventId] = cliOutValue_Id(&self),
		[cli_eventPosition] = cliOutValue_Vec3(e->position),
		[cli_eventVelocityBefore] = cliOutValue_Vec3(e->velocityBefore),
		[cli_eventVelocityAfter] = cliOutValue_Vec3(e->velocityAfter),
		[cli_eventMotion] = cliOutValue_Name(bcSimMotionName(e->motion)),
	};
	if (ballEvent) {
		v[cli_eventOther] = cliOutValue_Id(&other);
		v[cli_eventOtherPosition] = cliOutValue_Vec3(e->otherPosition);
		v[cli_eventOtherVelocityBefore] = cliOutValue_Vec3(e->otherVelocityBefore);
		v[cli_eventOtherVelocityAfter] = cliOutValue_Vec3(e->otherVelocityAfter);
		v[cli_eventOtherMotion] = cliOutValue_Name(bcSimMotionName(e->otherMotion));
	}
	if ((touchesMesh(e) || e->kind == bc_simKindLeave) && e->triangle >= 0) {
		v[cli_eventTriangle] = cliOutValue_Int(e->triangle);
		v[cli_eventFace] = cliOutValue_Int(e->face);
	}
	if (touchesMesh(e)) {
		v[cli_eventFeature] = cliOutValue_Name(bcFeatureName(e->feature));
		v[cli_eventVertices] = cliOutValue_Ints(e->vertices, e->vertexCount);
	}
	if (e->kind != bc_simKindHorizon) {
		v[cli_eventPoint] = cliOutValue_Vec3(e->point);
		v[cli_eventNormal] = cliOutValue_Vec3(e->normal);
	}
	cliRecordsOut_Record(&s->writer, &s->text, (long)s->written, v);
	drain(s);
	s->written += 1;
	counts->total += 1;
	counts->kinds[e->kind] += 1;
}

/* The events' beginning: the JSON head holds the mesh, the scene and the
 * settings. */
static void beginEvents(cliRecordStream* s, cliOutputFormat format, const cliSimulateConfig* cfg,
						const bcMeshInfo* mesh, const cliScene* scene, const bcSimulationDef* def)
{
	cliOutField meshFields[5] = {
		{ "file", cliOutValue_Text(cfg->meshPath) },
		{ "vertices", cliOutValue_Int(mesh->vertexCount) },
		{ "triangles", cliOutValue_Int(mesh->triangleCount) },
		{ "faces", cliOutValue_Int(mesh->faceCount) },
		{ "degenerate", cliOutValue_Int(mesh->degenerateCount) },
	};
	cliOutField sceneFields[2] = {
		{ "file", cliOutValue_Text(cfg->scenePath) },
		{ "balls", cliOutValue_Int(scene->ballCount) },
	};
	cliOutField settings[5] = {
		{ "gravity", cliOutValue_Vec3(def->gravity) },
		{ "restitution", cliOutValue_Number(def->restitution) },
		{ "horizon", cliOutValue_Number(def->horizon) },
		{ "max_events", cliOutValue_Int(def->maxEvents) },
		{ "two_sided", cliOutValue_Bool(def->twoSided) },
	};
	cliOutField head[3] = {
		{ "mesh", cliOutValue_Object(meshFields, 5) },
		{ "scene", cliOutValue_Object(sceneFields, 2) },
		{ "settings", cliOutValue_Object(settings, 5) },
	};
	cliRecordsLayout layout = { "events", eventColumns, cli_eventColumnCount, 0 };
	cliRecordsOut_Begin(&s->writer, &s->text, format, &layout, head, 3);
	drain(s);
}

static void endEvents(cliRecordStream* s, const cliEventCounts* counts, bool stopped)
{
	static const char* const keys[5] = { "mesh", "ball", "rest", "leave", "horizon" };
	cliOutField summary[7];
	summary[0] = (cliOutField){ "events", cliOutValue_Int(counts->total) };
	for (int k = 0; k < 5; ++k) {
		summary[1 + k] = (cliOutField){ keys[k], cliOutValue_Int(counts->kinds[k]) };
	}
	summary[6] = (cliOutField){ "end", cliOutValue_Name(stopped ? "max_events" : "horizon") };
	cliRecordsOut_End(&s->writer, &s->text, (long)s->written, summary, 7);
	drain(s);
}

/* Every ball's position at time t (the simulation's current time). */
static void writePositions(cliRecordStream* s, const cliScene* scene, const bcSimulation* sim, double t)
{
	for (int i = 0; i < scene->ballCount; ++i) {
		bcVec3 p = bcSimulation_GetBall(sim, i).position;
		cliRecord self = idRecord(scene->balls + i);
		cliOutValue v[cli_sampleColumnCount] = {
			cliOutValue_Number(t), cliOutValue_Id(&self), cliOutValue_Number(p.x),
			cliOutValue_Number(p.y), cliOutValue_Number(p.z),
		};
		cliRecordsOut_Record(&s->writer, &s->text, (long)s->written, v);
		drain(s);
		s->written += 1;
	}
}

/* ------------------------------------------------------------------ run */

/* Report a simulation that could not start, at the ball to blame. */
static void reportCreateError(const char* sceneName, const cliScene* scene, const bcError* error)
{
	if (error->record < 0 || error->record >= scene->ballCount) {
		bcError e = *error;
		e.line = e.column = 0;
		cliReportError(sceneName, &e);
		return;
	}
	const cliSceneBall* ball = scene->balls + error->record;
	char name[96];
	cliSceneBall_Name(ball, name, sizeof name);
	/* The library names the ball "balls[i]: "; the scene's name replaces it. */
	const char* what = strstr(error->message, ": ");
	what = what != NULL ? what + 2 : error->message;
	cliReportFile(sceneName);
	fprintf(stderr, ":%ld:%ld: %s: %s\n", ball->line, ball->column, name, what);
}

typedef struct cliSimulateTimes {
	double readMesh, buildMesh, readScene, simulate, write;
} cliSimulateTimes;

static void printStats(const cliSimulateTimes* times, const bcMeshInfo* mesh, const bcSimulationInfo* info,
					   const cliEventCounts* counts)
{
	FILE* f = stderr;
	fputs("{\"read_mesh_seconds\":", f);
	cliWriteNumber(f, times->readMesh);
	cliWriteNumberMember(f, "build_seconds", times->buildMesh);
	cliWriteNumberMember(f, "read_scene_seconds", times->readScene);
	cliWriteNumberMember(f, "simulate_seconds", times->simulate);
	cliWriteNumberMember(f, "write_seconds", times->write);
	fprintf(f,
			",\"triangles\":%ld,\"balls\":%d,\"events\":%lld,\"casts\":%lld,\"pair_tests\":%lld,"
			"\"elastic_chain_events\":%lld,\"jams\":%lld,\"peak_memory_bytes\":%lld}\n",
			(long)mesh->triangleCount, info->ballCount, counts->total, info->casts, info->pairTests,
			info->chainEvents, info->jams, cliPeakMemory());
}

int cliSimulateMain(int argc, char** argv)
{
	cliSimulateConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	cliSimulateTimes times = { 0.0, 0.0, 0.0, 0.0, 0.0 };
	cliScene scene;
	memset(&scene, 0, sizeof scene);
	bcSimulation* sim = NULL;
	cliOutput events, positions;
	bool eventsOpen = false, positionsOpen = false;
	cliRecordStream eventStream, sampleStream;
	memset(&eventStream, 0, sizeof eventStream);
	memset(&sampleStream, 0, sizeof sampleStream);
	const char* sceneName = cliInputName(cfg.scenePath);
	bool sampling = cfg.positionsPath != NULL;

	double started = cliNow();
	bcMesh* mesh = cliLoadMesh(cfg.meshPath, &cfg.common, &status);
	if (mesh == NULL) {
		goto done;
	}
	status = cli_exitTrouble;
	bcMeshInfo meshInfo = bcMesh_GetInfo(mesh);
	times.buildMesh = meshInfo.buildSeconds;
	times.readMesh = cliNow() - started - meshInfo.buildSeconds;
	started = cliNow();
	bcError error;
	if (!cliScene_Load(cfg.scenePath, &scene, &error)) {
		cliReportError(sceneName, &error);
		goto done;
	}
	times.readScene = cliNow() - started;
	for (int k = 0; k < scene.noteCount && !cfg.common.quiet; ++k) {
		cliReportFile(sceneName);
		fprintf(stderr, ":%ld:%ld: ", scene.notes[k].line, scene.notes[k].column);
		cliWriteShown(stderr, scene.notes[k].message); /* it may quote the scene's keys */
		putc('\n', stderr);
	}
	double dt = cfg.haveSamples ? cfg.samples : scene.samples;
	if (sampling && !cfg.haveSamples && !scene.haveSamples) {
		cliReportFile(sceneName);
		fputs(": --positions needs a sampling interval: --samples DT, or \"samples\" in the scene\n", stderr);
		goto done;
	}
	bcSimBallDef* balls = malloc((size_t)(scene.ballCount > 0 ? scene.ballCount : 1) * sizeof *balls);
	if (balls == NULL) {
		fputs("ballcast: out of memory\n", stderr);
		goto done;
	}
	for (int k = 0; k < scene.ballCount; ++k) {
		balls[k] = scene.balls[k].def;
	}
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = scene.ballCount;
	def.gravity = scene.gravity;
	def.restitution = scene.restitution;
	def.horizon = cfg.haveHorizon ? cfg.horizon : scene.horizon;
	def.maxEvents = cfg.haveMaxEvents ? cfg.maxEvents : (scene.haveMaxEvents ? scene.maxEvents : BC_SIM_DEFAULT_MAX_EVENTS);
	def.twoSided = cfg.twoSided;
	def.bruteForce = cfg.brute;
	started = cliNow();
	sim = bcSimulation_Create(mesh, &def, &error);
	times.simulate += cliNow() - started;
	free(balls);
	if (sim == NULL) {
		reportCreateError(sceneName, &scene, &error);
		goto done;
	}
	eventsOpen = cliOutput_Open(&events, cfg.common.outputPath);
	positionsOpen = eventsOpen && sampling && cliOutput_Open(&positions, cfg.positionsPath);
	if (!eventsOpen || (sampling && !positionsOpen)) {
		goto done;
	}
	if (sampling) {
		sampleStream.output = &positions;
		cliRecordsLayout layout = { NULL, sampleColumns, cli_sampleColumnCount, 0 };
		cliOutputFormat format = cliFormatFromPath(cfg.positionsPath, cli_outputCsv);
		cliRecordsOut_Begin(&sampleStream.writer, &sampleStream.text, format, &layout, NULL, 0);
		drain(&sampleStream);
	}
	eventStream.output = &events;
	beginEvents(&eventStream, cfg.common.format, &cfg, &meshInfo, &scene, &def);
	cliEventCounts counts;
	memset(&counts, 0, sizeof counts);
	long long sample = 0;
	bool stopped = false;
	for (;;) {
		double target = INFINITY;
		if (sampling && (double)sample * dt <= def.horizon) {
			target = (double)sample * dt;
		}
		double t0 = cliNow();
		bcSimEvent e = bcSimulation_Advance(sim, target);
		double t1 = cliNow();
		times.simulate += t1 - t0;
		if (e.state == bc_simEvent) {
			writeEvent(&eventStream, &scene, &e, &counts);
		} else if (e.state == bc_simReached) {
			writePositions(&sampleStream, &scene, sim, target);
			sample += 1;
		} else {
			if (e.state == bc_simFinished) {
				/* A sample at the horizon itself comes after its events. */
				for (; sampling && (double)sample * dt <= def.horizon; ++sample) {
					writePositions(&sampleStream, &scene, sim, (double)sample * dt);
				}
			}
			stopped = e.state == bc_simTooManyEvents;
			break;
		}
		times.write += cliNow() - t1;
	}
	double t1 = cliNow();
	endEvents(&eventStream, &counts, stopped);
	if (sampling) {
		cliRecordsOut_End(&sampleStream.writer, &sampleStream.text, (long)sampleStream.written, NULL, 0);
		drain(&sampleStream);
	}
	/* published or thrown away here: the positions only with the events */
	eventsOpen = positionsOpen = false;
	bool ok = !eventStream.text.failed && !sampleStream.text.failed;
	if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
		cliOutput_Abort(&events);
	} else {
		ok = cliOutput_Commit(&events);
	}
	if (sampling && ok) {
		ok = cliOutput_Commit(&positions);
	} else if (sampling) {
		cliOutput_Abort(&positions);
	}
	times.write += cliNow() - t1;
	bcSimulationInfo info = bcSimulation_GetInfo(sim);
	if (ok && stopped) {
		cliReportFile(sceneName);
		fprintf(stderr, ": stopped after %lld events at time ", def.maxEvents);
		cliWriteNumber(stderr, info.time);
		fputs(" (max_events): the output ends there\n", stderr);
	}
	if (cfg.stats) {
		printStats(&times, &meshInfo, &info, &counts);
	}
	status = !ok ? cli_exitTrouble : stopped ? cli_exitRecords : cli_exitOk;
done:
	cliBuffer_Free(&eventStream.text);
	cliBuffer_Free(&sampleStream.text);
	if (eventsOpen) {
		cliOutput_Abort(&events);
	}
	if (positionsOpen) {
		cliOutput_Abort(&positions);
	}
	bcSimulation_Destroy(sim);
	cliScene_Free(&scene);
	bcMesh_Destroy(mesh);
	return status;
}
