/* intersect_cmd.c - `ballcast intersect A.obj [B.obj]`: every pair of
 * intersecting triangles of two meshes (or of one mesh with itself), with
 * the segment where they cross. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "records_out.h"

/* The options of intersect's own: flags, in the order of intersectOption's. */
static const cliOption intersectOptions[] = {
	{ "self", 0, false },        { "no-touching", 0, false }, { "approx", 0, false }, { "brute", 0, false },
	{ "exit-status", 0, false }, { "stats", 0, false },       { "approx-rule", 0, true },
	{ "check-approx", 0, false }, { NULL, 0, false },
};

/* Own options with a value or a meaning beyond a flag (after the six flags). */
enum { cli_intersectApproxRule = 6, cli_intersectCheckApprox };

static const cliUsage intersectUsage = {
	"intersect",
	"usage: ballcast intersect [OPTIONS] A.obj [B.obj]\n"
	"\n"
	"Every pair of intersecting triangles: a triangle of A and one of B, or with\n"
	"one mesh (or --self) two triangles of A that share no vertex. Each pair\n"
	"comes with its state (crossing, touching, coplanar) and the segment the two\n"
	"triangles have in common. Triangle numbers start at 0. The test is exact.\n"
	"Each mesh is said to be closed or not; when A and B are both closed, the\n"
	"relation of their solids: crossing, touching, a_inside_b, b_inside_a or\n"
	"disjoint (JSON: \"relation\" in the summary; NDJSON, CSV: a note on stderr\n"
	"when one mesh at least is closed).\n"
	"\n"
	"options:\n"
	CLI_HELP_OUTPUT
	CLI_HELP_FORMAT
	"      --self                A against itself (the default with one mesh)\n"
	"      --no-touching         leave out pairs that only touch (keep crossing\n"
	"                            and coplanar overlapping pairs)\n"
	"      --approx              a hybrid bounding-sphere test instead:\n"
	"                            APPROXIMATE (false positives), no segments\n"
	"      --approx-rule either|one-way\n"
	"                            --approx's planes: an edge of either triangle\n"
	"                            pierces the other's plane (either, default), or\n"
	"                            one of A's pierces B's (one-way, seed 001's rule);\n"
	"                            implies --approx\n"
	"      --check-approx        with --approx, run the exact test too and count\n"
	"                            the approximate test's false positives and\n"
	"                            negatives (each pair gets its exact_state)\n"
	"      --brute               test every pair (reference path, slow)\n"
	"      --exit-status         exit 1 when pairs were found, 0 when none\n"
	CLI_HELP_THREADS
	CLI_HELP_QUIET
	"      --stats               phase times and counts on standard error as one\n"
	"                            JSON line\n"
	CLI_HELP_MESH_FORMAT
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast intersect part.obj fixture.obj\n"
	"  ballcast intersect --exit-status -f ndjson scan.obj >/dev/null || echo 'self-intersecting'\n"
	"  ballcast intersect -f csv a.obj b.obj | awk -F, '$9 == \"crossing\"'\n",
	cli_optOutput | cli_optFormat | cli_optThreads | cli_optQuiet | cli_optMeshFormat,
	intersectOptions,
	1,
	2,
	{ "missing A.obj", NULL },
};

/* --exit-status: pairs were found (0 none, 2 trouble, like diff and grep). */
enum { cli_exitPairsFound = 1 };

typedef struct cliIntersectConfig {
	const char* pathA;
	const char* pathB; /* NULL: A against itself */
	cliCommonOptions common;
	bool self;
	bool exitStatus;
	bool stats;
	bool approxRuleGiven;
	bcIntersectOptions options;
} cliIntersectConfig;

/* One of intersect's own options, all flags (a cliOptionFcn). */
static const char* intersectOption(void* context, int k, const char* value)
{
	cliIntersectConfig* cfg = context;
	if (k == cli_intersectApproxRule) {
		if (strcmp(value, "either") == 0) {
			cfg->options.approxRule = bc_approxEither;
		} else if (strcmp(value, "one-way") == 0) {
			cfg->options.approxRule = bc_approxOneWay;
		} else {
			return "--approx-rule is either or one-way, not";
		}
		cfg->options.approximate = true;
		cfg->approxRuleGiven = true;
		return NULL;
	}
	if (k == cli_intersectCheckApprox) {
		cfg->options.checkApprox = true;
		return NULL;
	}
	bool* flags[] = { &cfg->self, &cfg->options.skipTouching, &cfg->options.approximate, &cfg->options.bruteForce,
					  &cfg->exitStatus, &cfg->stats };
	*flags[k] = true;
	return NULL;
}

/* Parse arguments; returns -1 to go on, or an exit status. */
static int parseArguments(int argc, char** argv, cliIntersectConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->options = bcDefaultIntersectOptions();
	int first = 0;
	int status = cliParseArguments(&intersectUsage, argc, argv, &cfg->common, intersectOption, cfg, &first);
	if (status >= 0) {
		return status;
	}
	if (first + 2 == argc && cfg->self) {
		return cliUsageError(&intersectUsage, "--self takes one mesh, not two; B is", argv[first + 1]);
	}
	cfg->pathA = argv[first];
	cfg->pathB = first + 2 == argc ? argv[first + 1] : NULL;
	cfg->self = cfg->pathB == NULL;
	cfg->options.threadCount = cfg->common.threads;
	if (cfg->options.checkApprox && !cfg->options.approximate) {
		return cliUsageError(&intersectUsage, "--check-approx needs --approx (or --approx-rule)", NULL);
	}
	return -1;
}

/* ---------------------------------------------------------------- output */

/* What the run found beyond the pairs: which meshes are closed, and the
 * relation of the solids of two closed meshes. */
typedef struct cliIntersectSolids {
	bool aClosed, bClosed;
	bool related;         /* two meshes, both closed: relation holds the answer */
	bcRelation relation;
} cliIntersectSolids;

/* A pair's columns, in key and column order. */
enum { cli_pairA, cli_pairB, cli_pairSegment, cli_pairState, cli_pairExactState, cli_pairColumnCount };

static const cliOutColumn pairColumns[cli_pairColumnCount] = {
	{ "a", NULL },
	{ "b", NULL },
	{ "segment", "x0,y0,z0,x1,y1,z1" },
	{ "state", NULL },
	{ "exact_state", NULL }, /* --check-approx */
};

/* A mesh in the JSON head (fields holds 6). */
static cliOutValue meshObject(cliOutField* fields, const char* path, const bcMesh* mesh, bool closed)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	fields[0] = (cliOutField){ "file", cliOutValue_Text(path) };
	fields[1] = (cliOutField){ "vertices", cliOutValue_Int(info.vertexCount) };
	fields[2] = (cliOutField){ "triangles", cliOutValue_Int(info.triangleCount) };
	fields[3] = (cliOutField){ "faces", cliOutValue_Int(info.faceCount) };
	/* The triangles intersect skips: those of zero area (slivers are tested). */
	long long degenerate = info.degenerateCount > 0 ? bcMesh_CountZeroArea(mesh, NULL) : 0;
	fields[4] = (cliOutField){ "degenerate", cliOutValue_Int(degenerate) };
	fields[5] = (cliOutField){ "closed", cliOutValue_Bool(closed) };
	return cliOutValue_Object(fields, 6);
}

static void beginOutput(cliRecordsOut* writer, cliBuffer* text, const cliIntersectConfig* cfg, const bcMesh* a,
						const bcMesh* b, const cliIntersectSolids* solids)
{
	const bcIntersectOptions* o = &cfg->options;
	cliOutField meshA[6], meshB[6];
	cliOutField settings[5] = {
		{ "self", cliOutValue_Bool(cfg->self) },
		{ "method", cliOutValue_Name(o->approximate ? "approximate" : "exact") },
		{ "touching", cliOutValue_Bool(!o->skipTouching) },
	};
	if (o->approximate) {
		const char* rule = o->approxRule == bc_approxOneWay ? "one-way" : "either";
		settings[3] = (cliOutField){ "approx_rule", cliOutValue_Name(rule) };
		settings[4] = (cliOutField){ "check_approx", cliOutValue_Bool(o->checkApprox) };
	}
	cliOutField head[3] = {
		{ "a", meshObject(meshA, cfg->pathA, a, solids->aClosed) },
		{ "b", b != NULL ? meshObject(meshB, cfg->pathB, b, solids->bClosed) : cliOutValue_Null() },
		{ "settings", cliOutValue_Object(settings, 5) },
	};
	uint64_t off = o->checkApprox ? 0 : (uint64_t)1 << cli_pairExactState;
	cliRecordsLayout layout = { "pairs", pairColumns, cli_pairColumnCount, off };
	cliRecordsOut_Begin(writer, text, cfg->common.format, &layout, head, 3);
}

/* Only touching and crossing pairs have a segment. */
static bool hasSegment(const bcIntersectPair* p)
{
	return p->state == bc_triTriTouching || p->state == bc_triTriCrossing;
}

static void formatPair(const cliRecordsOut* writer, cliBuffer* text, long position, const bcIntersectPair* p)
{
	cliOutValue v[cli_pairColumnCount] = {
		[cli_pairA] = cliOutValue_Int(p->a),
		[cli_pairB] = cliOutValue_Int(p->b),
		[cli_pairSegment] = cliOutValue_Vecs(p->segment, hasSegment(p) ? 2 : 0),
		[cli_pairState] = cliOutValue_Name(bcTriTriStateName(p->state)),
		[cli_pairExactState] = cliOutValue_Name(bcTriTriStateName(p->exactState)),
	};
	cliRecordsOut_Record(writer, text, position, v);
}

/* Pairs of each state, for the JSON summary and --stats. */
typedef struct cliIntersectCounts {
	size_t crossing, touching, coplanar, probable;
} cliIntersectCounts;

static cliIntersectCounts countStates(const bcIntersectList* list)
{
	cliIntersectCounts counts = { 0, 0, 0, 0 };
	for (size_t i = 0; i < list->count; ++i) {
		switch (list->pairs[i].state) {
		case bc_triTriCrossing:
			counts.crossing += 1;
			break;
		case bc_triTriTouching:
			counts.touching += 1;
			break;
		case bc_triTriCoplanar:
			counts.coplanar += 1;
			break;
		case bc_triTriProbable:
			counts.probable += 1;
			break;
		case bc_triTriDisjoint:
		case bc_triTriDegenerate:
			break;
		}
	}
	return counts;
}

/* Every pair, then the summary; false when memory ran out. */
static bool writePairs(cliOutput* output, const cliRecordsOut* writer, cliBuffer* text,
					   const cliIntersectConfig* cfg, const bcIntersectList* list, const cliIntersectSolids* solids)
{
	for (size_t i = 0; i < list->count && !text->failed; ++i) {
		formatPair(writer, text, (long)i, list->pairs + i);
		if (!text->failed) {
			cliOutput_Write(output, text->data, text->length);
			cliBuffer_Clear(text);
		}
	}
	bool checked = cfg->options.checkApprox;
	cliIntersectCounts counts = countStates(list);
	cliOutField summary[8] = {
		{ "pairs", cliOutValue_Int((long long)list->count) },
		{ "crossing", cliOutValue_Int((long long)counts.crossing) },
		{ "touching", cliOutValue_Int((long long)counts.touching) },
		{ "coplanar", cliOutValue_Int((long long)counts.coplanar) },
		{ "probable", cliOutValue_Int((long long)counts.probable) },
		{ "false_positives", checked ? cliOutValue_Int((long long)list->falsePositiveCount) : (cliOutValue){ 0 } },
		{ "false_negatives", checked ? cliOutValue_Int((long long)list->falseNegativeCount) : (cliOutValue){ 0 } },
		{ "relation", solids->related ? cliOutValue_Name(bcRelationName(solids->relation)) : cliOutValue_Null() },
	};
	cliRecordsOut_End(writer, text, (long)list->count, summary, 8);
	if (text->failed) {
		return false;
	}
	cliOutput_Write(output, text->data, text->length);
	cliBuffer_Clear(text);
	return true;
}

/* One JSON line of phase times and counts on stderr (--stats). */
static void printStats(const cliIntersectConfig* cfg, double readSeconds, double buildSeconds, double querySeconds,
					   double writeSeconds, const bcMesh* a, const bcMesh* b, const bcIntersectList* list)
{
	FILE* f = stderr;
	fputs("{\"read_meshes_seconds\":", f);
	cliWriteNumber(f, readSeconds - buildSeconds);
	cliWriteNumberMember(f, "build_seconds", buildSeconds);
	cliWriteNumberMember(f, "intersect_seconds", querySeconds);
	cliWriteNumberMember(f, "write_seconds", writeSeconds);
	int threads = cfg->options.threadCount > 0 ? cfg->options.threadCount : (int)sysconf(_SC_NPROCESSORS_ONLN);
	fprintf(f, ",\"triangles_a\":%ld,\"triangles_b\":%ld,\"candidates\":%zu,\"pairs\":%zu,\"threads\":%d,"
			   "\"peak_memory_bytes\":%lld}\n",
			(long)bcMesh_GetInfo(a).triangleCount, b != NULL ? (long)bcMesh_GetInfo(b).triangleCount : 0L,
			list->candidateCount, list->count, threads, cliPeakMemory());
}

/* NDJSON and CSV have no summary: what JSON's says beyond the pair
 * counts goes to stderr (two meshes, one of them closed at least: which
 * are closed and how their solids relate; --check-approx: the approximate
 * test's mistakes). */
static void writeNotes(const cliIntersectConfig* cfg, const bcIntersectList* list, const cliIntersectSolids* solids)
{
	if (cfg->pathB != NULL && (solids->aClosed || solids->bClosed)) {
		cliReportFile(cfg->pathA);
		fprintf(stderr, ": %s, ", solids->aClosed ? "closed" : "not closed");
		cliWriteName(stderr, cfg->pathB);
		fprintf(stderr, ": %s: ", solids->bClosed ? "closed" : "not closed");
		if (solids->related) {
			fprintf(stderr, "relation %s\n", bcRelationName(solids->relation));
		} else {
			fputs("no relation (a mesh is not closed)\n", stderr);
		}
	}
	if (cfg->options.checkApprox) {
		fprintf(stderr, "ballcast: --approx (%s): %zu false positives, %zu false negatives against the exact test\n",
				cfg->options.approxRule == bc_approxOneWay ? "one-way" : "either", list->falsePositiveCount,
				list->falseNegativeCount);
	}
}

int cliIntersectMain(int argc, char** argv)
{
	cliIntersectConfig cfg;
	int status = parseArguments(argc, argv, &cfg);
	if (status >= 0) {
		return status;
	}
	status = cli_exitTrouble;
	bcIntersectList* list = NULL;
	cliBuffer text = { 0 };
	double started = cliNow();
	bcMesh* a = cliLoadMeshForIntersect(cfg.pathA, &cfg.common, &status);
	bcMesh* b = a != NULL && cfg.pathB != NULL ? cliLoadMeshForIntersect(cfg.pathB, &cfg.common, &status) : NULL;
	if (a == NULL || (cfg.pathB != NULL && b == NULL)) {
		goto done;
	}
	status = cli_exitTrouble;
	double readSeconds = cliNow() - started;
	double buildSeconds = bcMesh_GetInfo(a).buildSeconds + (b != NULL ? bcMesh_GetInfo(b).buildSeconds : 0.0);

	double queryStart = cliNow();
	bcError error = { 0 };
	list = bcMesh_Intersect(a, b, &cfg.options, &error);
	double querySeconds = cliNow() - queryStart;
	cliOutput output;
	if (list == NULL) {
		fprintf(stderr, "ballcast: %s\n", error.message);
		goto done;
	}
	/* Closed meshes bound solids: surfaces that do not cross may still
	 * hold one another, which the pairs alone do not tell. */
	cliIntersectSolids solids = { bcMesh_IsClosed(a), b != NULL && bcMesh_IsClosed(b), false, bc_relationNotClosed };
	if (b != NULL && solids.aClosed && solids.bClosed) {
		bcRelateOptions relate = bcDefaultRelateOptions();
		relate.bruteForce = cfg.options.bruteForce;
		relate.threadCount = cfg.common.threads;
		bcRelateOutput related = bcMesh_Relate(a, b, &relate, &error);
		if (related.relation == bc_relationFailed) {
			fprintf(stderr, "ballcast: %s\n", error.message);
			goto done;
		}
		solids.related = true;
		solids.relation = related.relation;
	}
	if (!cliOutput_Open(&output, cfg.common.outputPath)) {
		goto done;
	}
	double writeStart = cliNow();
	cliRecordsOut writer;
	beginOutput(&writer, &text, &cfg, a, b, &solids);
	if (!writePairs(&output, &writer, &text, &cfg, list, &solids)) {
		fputs("ballcast: out of memory\n", stderr);
		cliOutput_Abort(&output);
	} else if (cliOutput_Commit(&output)) {
		status = cfg.exitStatus && list->count > 0 ? cli_exitPairsFound : cli_exitOk;
		if (!cliRecordsOut_HasSummary(&writer) && !cfg.common.quiet) {
			writeNotes(&cfg, list, &solids);
		}
	}
	if (cfg.stats) {
		printStats(&cfg, readSeconds, buildSeconds, querySeconds, cliNow() - writeStart, a, b, list);
	}
done:
	cliBuffer_Free(&text);
	bcIntersectList_Destroy(list);
	bcMesh_Destroy(a);
	bcMesh_Destroy(b);
	return status;
}
