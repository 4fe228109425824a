/* simulate_cmd.c - `ballcast simulate MESH SCENE`: bounce a scene's balls
 * around a mesh, event by event, and write the event log (and, with
 * --positions, every ball's position at fixed times). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "trajectories.h"
#include "results_write.h"
#include "scene.h"

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
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast simulate samples/room.obj scene.json\n"
	"  ballcast simulate -f csv --positions track.csv room.obj scene.json > events.csv\n"
	"  ballcast simulate -f ndjson room.obj scene.json | grep '\"kind\":\"rest\"'\n",
	cli_optOutput | cli_optFormat | cli_optQuiet,
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

static const char* const eventsCsvHeader =
	"time,kind,id,other,triangle,face,feature,vertex_0,vertex_1,vertex_2,point_x,point_y,point_z,"
	"normal_x,normal_y,normal_z,position_x,position_y,position_z,velocity_before_x,velocity_before_y,"
	"velocity_before_z,velocity_after_x,velocity_after_y,velocity_after_z,other_position_x,other_position_y,"
	"other_position_z,other_velocity_before_x,other_velocity_before_y,other_velocity_before_z,"
	"other_velocity_after_x,other_velocity_after_y,other_velocity_after_z,motion,other_motion\n";

/* A record standing in for a scene ball, for the id writers. */
static cliRecord idRecord(const cliSceneBall* ball)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = ball->index;
	record.idKind = ball->idKind;
	record.id = ball->id;
	return record;
}

static void writeIdJson(FILE* f, const cliScene* scene, int ball)
{
	cliRecord record = idRecord(scene->balls + ball);
	cliWriteRecordIdJson(f, &record);
}

static void writeIdCsv(FILE* f, const cliScene* scene, int ball)
{
	cliRecord record = idRecord(scene->balls + ball);
	cliWriteRecordIdCsv(f, &record);
}

static void writeVec(FILE* f, const char* key, bcVec3 v)
{
	fputs(key, f);
	cliWriteJsonVec3(f, v.x, v.y, v.z);
}

static bool touchesMesh(const bcSimEvent* e)
{
	return e->kind == bc_simKindMesh || e->kind == bc_simKindRest;
}

static void writeEventJson(FILE* f, const cliScene* scene, const bcSimEvent* e)
{
	fputs("{\"time\":", f);
	cliWriteNumber(f, e->time);
	fputs(",\"kind\":\"", f);
	fputs(bcSimEventKindName(e->kind), f);
	fputs("\",\"id\":", f);
	writeIdJson(f, scene, e->ball);
	if (e->kind == bc_simKindBall) {
		fputs(",\"other\":", f);
		writeIdJson(f, scene, e->other);
	}
	if ((touchesMesh(e) || e->kind == bc_simKindLeave) && e->triangle >= 0) {
		fputs(",\"triangle\":", f);
		cliWriteInt(f, e->triangle);
		fputs(",\"face\":", f);
		cliWriteInt(f, e->face);
	}
	if (touchesMesh(e)) {
		fputs(",\"feature\":", f);
		cliWriteJsonString(f, bcFeatureName(e->feature));
		fputs(",\"vertices\":[", f);
		for (int k = 0; k < e->vertexCount; ++k) {
			if (k > 0) {
				putc(',', f);
			}
			cliWriteInt(f, e->vertices[k]);
		}
		putc(']', f);
	}
	if (e->kind != bc_simKindHorizon) {
		writeVec(f, ",\"point\":", e->point);
		writeVec(f, ",\"normal\":", e->normal);
	}
	writeVec(f, ",\"position\":", e->position);
	writeVec(f, ",\"velocity_before\":", e->velocityBefore);
	writeVec(f, ",\"velocity_after\":", e->velocityAfter);
	if (e->kind == bc_simKindBall) {
		writeVec(f, ",\"other_position\":", e->otherPosition);
		writeVec(f, ",\"other_velocity_before\":", e->otherVelocityBefore);
		writeVec(f, ",\"other_velocity_after\":", e->otherVelocityAfter);
	}
	fputs(",\"motion\":\"", f);
	fputs(bcSimMotionName(e->motion), f);
	if (e->kind == bc_simKindBall) {
		fputs("\",\"other_motion\":\"", f);
		fputs(bcSimMotionName(e->otherMotion), f);
	}
	fputs("\"}", f);
}

static void writeEventCsv(FILE* f, const cliScene* scene, const bcSimEvent* e)
{
	cliWriteNumber(f, e->time);
	putc(',', f);
	fputs(bcSimEventKindName(e->kind), f);
	putc(',', f);
	writeIdCsv(f, scene, e->ball);
	putc(',', f);
	if (e->kind == bc_simKindBall) {
		writeIdCsv(f, scene, e->other);
	}
	if ((touchesMesh(e) || e->kind == bc_simKindLeave) && e->triangle >= 0) {
		putc(',', f);
		cliWriteInt(f, e->triangle);
		putc(',', f);
		cliWriteInt(f, e->face);
	} else {
		fputs(",,", f);
	}
	putc(',', f);
	if (touchesMesh(e)) {
		fputs(bcFeatureName(e->feature), f);
	}
	for (int k = 0; k < 3; ++k) {
		putc(',', f);
		if (touchesMesh(e) && k < e->vertexCount) {
			cliWriteInt(f, e->vertices[k]);
		}
	}
	if (e->kind != bc_simKindHorizon) {
		cliWriteCsvVec3(f, e->point);
		cliWriteCsvVec3(f, e->normal);
	} else {
		fputs(",,,,,,", f);
	}
	cliWriteCsvVec3(f, e->position);
	cliWriteCsvVec3(f, e->velocityBefore);
	cliWriteCsvVec3(f, e->velocityAfter);
	if (e->kind == bc_simKindBall) {
		cliWriteCsvVec3(f, e->otherPosition);
		cliWriteCsvVec3(f, e->otherVelocityBefore);
		cliWriteCsvVec3(f, e->otherVelocityAfter);
	} else {
		fputs(",,,,,,,,,", f);
	}
	putc(',', f);
	fputs(bcSimMotionName(e->motion), f);
	putc(',', f);
	if (e->kind == bc_simKindBall) {
		fputs(bcSimMotionName(e->otherMotion), f);
	}
	putc('\n', f);
}

typedef struct cliEventCounts {
	long long total;
	long long kinds[5]; /* by bcSimEventKind */
} cliEventCounts;

static void writeEvent(FILE* f, cliOutputFormat format, const cliScene* scene, const bcSimEvent* e,
					   cliEventCounts* counts)
{
	switch (format) {
	case cli_outputJson:
		fputs(counts->total > 0 ? ",\n" : "\n", f);
		writeEventJson(f, scene, e);
		break;
	case cli_outputNdjson:
		writeEventJson(f, scene, e);
		putc('\n', f);
		break;
	case cli_outputCsv:
		writeEventCsv(f, scene, e);
		break;
	}
	counts->total += 1;
	counts->kinds[e->kind] += 1;
}

static void writeHeader(FILE* f, cliOutputFormat format, const cliSimulateConfig* cfg, const bcMeshInfo* mesh,
						const cliScene* scene, const bcSimulationDef* def)
{
	if (format == cli_outputCsv) {
		fputs(eventsCsvHeader, f);
		return;
	}
	if (format != cli_outputJson) {
		return;
	}
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"mesh\":{\"file\":", f);
	cliWriteJsonString(f, cfg->meshPath);
	fputs(",\"vertices\":", f);
	cliWriteInt(f, mesh->vertexCount);
	fputs(",\"triangles\":", f);
	cliWriteInt(f, mesh->triangleCount);
	fputs(",\"faces\":", f);
	cliWriteInt(f, mesh->faceCount);
	fputs(",\"degenerate\":", f);
	cliWriteInt(f, mesh->degenerateCount);
	fputs("},\"scene\":{\"file\":", f);
	cliWriteJsonString(f, cfg->scenePath);
	fputs(",\"balls\":", f);
	cliWriteInt(f, scene->ballCount);
	writeVec(f, "},\"settings\":{\"gravity\":", def->gravity);
	fputs(",\"restitution\":", f);
	cliWriteNumber(f, def->restitution);
	fputs(",\"horizon\":", f);
	cliWriteNumber(f, def->horizon);
	fputs(",\"max_events\":", f);
	cliWriteInt(f, def->maxEvents);
	fputs(",\"two_sided\":", f);
	fputs(def->twoSided ? "true" : "false", f);
	fputs("},\n\"events\":[", f);
}

static void writeSummary(FILE* f, cliOutputFormat format, const cliEventCounts* counts, bool stopped)
{
	if (format != cli_outputJson) {
		return;
	}
	fputs(counts->total > 0 ? "\n],\n\"summary\":{\"events\":" : "],\n\"summary\":{\"events\":", f);
	cliWriteInt(f, counts->total);
	static const char* const keys[5] = { ",\"mesh\":", ",\"ball\":", ",\"rest\":", ",\"leave\":", ",\"horizon\":" };
	for (int k = 0; k < 5; ++k) {
		fputs(keys[k], f);
		cliWriteInt(f, counts->kinds[k]);
	}
	fputs(stopped ? ",\"end\":\"max_events\"}}\n" : ",\"end\":\"horizon\"}}\n", f);
}

/* Every ball's position at time t (the simulation's current time). */
static void writePositions(FILE* f, cliOutputFormat format, const cliScene* scene, const bcSimulation* sim,
						   double t, long long* rows)
{
	for (int i = 0; i < scene->ballCount; ++i) {
		bcVec3 p = bcSimulation_GetBall(sim, i).position;
		if (format == cli_outputCsv) {
			cliWriteNumber(f, t);
			putc(',', f);
			writeIdCsv(f, scene, i);
			cliWriteCsvVec3(f, p);
			putc('\n', f);
			continue;
		}
		if (format == cli_outputJson) {
			fputs(*rows > 0 ? ",\n" : "[\n", f);
		}
		fputs("{\"t\":", f);
		cliWriteNumber(f, t);
		fputs(",\"id\":", f);
		writeIdJson(f, scene, i);
		fputs(",\"x\":", f);
		cliWriteNumber(f, p.x);
		fputs(",\"y\":", f);
		cliWriteNumber(f, p.y);
		fputs(",\"z\":", f);
		cliWriteNumber(f, p.z);
		putc('}', f);
		if (format == cli_outputNdjson) {
			putc('\n', f);
		}
		*rows += 1;
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
	cliSceneBallName(ball, name, sizeof name);
	/* The library names the ball "balls[i]: "; the scene's name replaces it. */
	const char* what = strstr(error->message, ": ");
	what = what != NULL ? what + 2 : error->message;
	fprintf(stderr, "ballcast: %s:%ld:%ld: %s: %s\n", sceneName, ball->line, ball->column, name, what);
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
	fputs(",\"build_seconds\":", f);
	cliWriteNumber(f, times->buildMesh);
	fputs(",\"read_scene_seconds\":", f);
	cliWriteNumber(f, times->readScene);
	fputs(",\"simulate_seconds\":", f);
	cliWriteNumber(f, times->simulate);
	fputs(",\"write_seconds\":", f);
	cliWriteNumber(f, times->write);
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
	const char* sceneName = cliInputName(cfg.scenePath);
	bool sampling = cfg.positionsPath != NULL;

	double started = cliNow();
	bcMesh* mesh = cliLoadMesh(cfg.meshPath, cfg.common.quiet);
	if (mesh == NULL) {
		goto done;
	}
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
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", sceneName, scene.notes[k].line, scene.notes[k].column,
				scene.notes[k].message);
	}
	double dt = cfg.haveSamples ? cfg.samples : scene.samples;
	if (sampling && !cfg.haveSamples && !scene.haveSamples) {
		fprintf(stderr, "ballcast: %s: --positions needs a sampling interval: --samples DT, or \"samples\" in the scene\n",
				sceneName);
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
	cliOutputFormat positionsFormat = sampling ? cliFormatFromPath(cfg.positionsPath, cli_outputCsv) : cli_outputCsv;
	if (sampling && positionsFormat == cli_outputCsv) {
		fputs("t,id,x,y,z\n", positions.stream);
	}

	writeHeader(events.stream, cfg.common.format, &cfg, &meshInfo, &scene, &def);
	cliEventCounts counts;
	memset(&counts, 0, sizeof counts);
	long long sample = 0, rows = 0;
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
			writeEvent(events.stream, cfg.common.format, &scene, &e, &counts);
		} else if (e.state == bc_simReached) {
			writePositions(positions.stream, positionsFormat, &scene, sim, target, &rows);
			sample += 1;
		} else {
			if (e.state == bc_simFinished) {
				/* A sample at the horizon itself comes after its events. */
				for (; sampling && (double)sample * dt <= def.horizon; ++sample) {
					writePositions(positions.stream, positionsFormat, &scene, sim, (double)sample * dt, &rows);
				}
			}
			stopped = e.state == bc_simTooManyEvents;
			break;
		}
		times.write += cliNow() - t1;
	}
	double t1 = cliNow();
	writeSummary(events.stream, cfg.common.format, &counts, stopped);
	if (sampling && positionsFormat == cli_outputJson) {
		fputs(rows > 0 ? "\n]\n" : "[]\n", positions.stream);
	}
	/* published or thrown away here: the positions only with the events */
	eventsOpen = positionsOpen = false;
	bool ok = cliOutput_Commit(&events);
	if (sampling && ok) {
		ok = cliOutput_Commit(&positions);
	} else if (sampling) {
		cliOutput_Abort(&positions);
	}
	times.write += cliNow() - t1;
	bcSimulationInfo info = bcSimulation_GetInfo(sim);
	if (ok && stopped) {
		fprintf(stderr, "ballcast: %s: stopped after %lld events at time ", sceneName, def.maxEvents);
		cliWriteNumber(stderr, info.time);
		fputs(" (max_events): the output ends there\n", stderr);
	}
	if (cfg.stats) {
		printStats(&times, &meshInfo, &info, &counts);
	}
	status = !ok ? cli_exitTrouble : stopped ? cli_exitRecords : cli_exitOk;
done:
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
