/* grade_cmd.c - `ballcast grade [cast options] MESH TRAJECTORIES
 * SUBMISSION...`: cast the expected answers (as `ballcast cast` does, with
 * the same options), then grade every submission through the one grading
 * engine (grade.c), naming the mistakes that explain its failures: the
 * mistakes that are a cast option are replayed by the library with that
 * option changed, the others by a small caster of their own here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cli.h"
#include "grade.h"
#include "output.h"
#include "results_read.h"
#include "results_write.h"
#include "trajectories.h"
#include "vec3.h"

/* Two contacts whose alpha differ by at most this are tied (the library's
 * BC_ALPHA_TIE_TOLERANCE): the lower triangle, then face, edge, vertex. */
#define CLI_VARIANT_TIE 1e-10

/* grade's options: cast's answer-deciding ones, the shared grading ones,
 * then --report. */
enum { cli_gradeFirst = cli_castSettingCount, cli_gradeReport = cli_castSettingCount + cli_gradeReportOption };
static const cliOption gradeOptions[] = {
	CLI_CAST_SETTING_OPTIONS,
	CLI_GRADE_OPTIONS,
	{ "report", 0, true },
	{ NULL, 0, false },
};

static const cliUsage gradeUsage = {
	"grade",
	"usage: ballcast grade [OPTIONS] MESH TRAJECTORIES SUBMISSION...\n"
	"\n"
	"Grade students' answers: cast TRAJECTORIES on MESH as `ballcast cast` would\n"
	"(with the same options), then compare each SUBMISSION with those answers,\n"
	"record by record, matched by id. A submission is read as it is: a JSON\n"
	"document with \"results\", a JSON array, NDJSON or CSV; fields that are not\n"
	"graded may hold anything; a record whose graded field is malformed fails\n"
	"with the reason; a file that cannot be read scores 0. The failures of each\n"
	"submission are explained by the catalogue of mistakes (ballcast(1), GRADE).\n"
	"Exit 0 when every submission passes, 1 when something fails, 2 on trouble\n"
	"with MESH, TRAJECTORIES, the options or the output.\n"
	"\n"
	"options (cast's):\n"
	CLI_HELP_CAST_SETTINGS
	"  -r, --radius R            radius for trajectories without \"r\"\n"
	CLI_HELP_INPUT_FORMAT
	"options (grading):\n"
	CLI_HELP_GRADE_OPTIONS
	"                            (grade's default: hit,alpha,normal)\n"
	"      --report FMT          text (default), json, csv or html (one page: the\n"
	"                            scores, and each failing record's reason with a\n"
	"                            picture of its throw, expected beside actual)\n"
	"  -o, --output FILE         write the report here (.json or .csv picks the format)\n"
	"  -q, --quiet               no report and no notes: the exit status only\n"
	CLI_HELP_HELP
	"\n"
	"examples:\n"
	"  ballcast grade room.obj throws.json class/*\n"
	"  ballcast grade --convention cs121 room.obj throws.json class/* --report csv > grades.csv\n"
	"  ballcast grade --fields hit,alpha,triangle --one-based room.obj throws.json bob.csv\n",
	cli_optOutput | cli_optInputFormat | cli_optRadius | cli_optQuiet,
	gradeOptions,
	3,
	-1,
	{ "missing MESH, TRAJECTORIES and SUBMISSION", "missing TRAJECTORIES and SUBMISSION", "missing SUBMISSION" },
};

/* One throw, as the expected answer was cast from it. */
typedef struct cliThrow {
	bool valid;
	bcCastInput input;
} cliThrow;

typedef struct cliGradeRun {
	cliGradeConfig grade;
	cliCastSettings cast;
	cliCommonOptions common; /* -o -i -r -q */
	bool reportGiven;
	bool fieldsGiven;
	const char* meshPath;
	const char* trajectoriesPath;
	char** submissions;
	int submissionCount;
	const bcMesh* mesh;
	bcMesh* flipped; /* the mesh with every triangle turned round, made when first asked */
	bool flippedTried;
	cliThrow* throws; /* per expected result */
	long throwCount;
	bcContact* ties;
	int tieCapacity;
} cliGradeRun;

static const char* gradeOption(void* context, int k, const char* value)
{
	cliGradeRun* run = context;
	if (k < cli_gradeFirst) {
		return cliCastSettings_Option(&run->cast, k, value);
	}
	run->reportGiven = run->reportGiven || k == cli_gradeReport;
	run->fieldsGiven = run->fieldsGiven || k == cli_gradeFirst + 4;
	return cliGradeOption(&run->grade, k - cli_gradeFirst, value);
}

static int parseArguments(int argc, char** argv, cliGradeRun* run)
{
	memset(run, 0, sizeof *run);
	cliGradeConfig_Init(&run->grade);
	cliCastSettings_Init(&run->cast);
	int first = 0;
	int status = cliParseArguments(&gradeUsage, argc, argv, &run->common, gradeOption, run, &first);
	if (status >= 0) {
		return status;
	}
	cliCastSettings_Finish(&run->cast);
	if (!run->fieldsGiven) {
		run->grade.fields = CLI_FIELDS_GRADE;
	}
	run->meshPath = argv[first];
	run->trajectoriesPath = argv[first + 1];
	run->submissions = argv + first + 2;
	run->submissionCount = argc - first - 2;
	int stdinCount = 0;
	for (int i = first + 1; i < argc; ++i) {
		stdinCount += strcmp(argv[i], "-") == 0;
	}
	if (stdinCount > 1) {
		return cliUsageError(&gradeUsage, "standard input ('-') can be read only once", NULL);
	}
	cliOutputFormat named = cliFormatFromPath(run->common.outputPath, cli_outputNdjson);
	const char* dot = run->common.outputPath != NULL ? strrchr(run->common.outputPath, '.') : NULL;
	if (!run->reportGiven && dot != NULL && (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0)) {
		run->grade.report = cli_reportHtml;
	} else if (!run->reportGiven && named != cli_outputNdjson) {
		run->grade.report = named == cli_outputJson ? cli_reportJson : cli_reportCsv;
	}
	run->grade.quiet = run->common.quiet;
	run->grade.outputPath = run->common.outputPath;
	for (int i = first; i < first + 2; ++i) {
		status = cliRefuseOverwrite(&gradeUsage, run->common.outputPath, "-o", argv[i]);
		if (status >= 0) {
			return status;
		}
	}
	return -1;
}

/* ------------------------------------------------------------ expected */

/* Answer every trajectory as `ballcast cast --ties` would (answer.h), each
 * answer straight into EXPECTED as the result cast writes for it, and keep
 * each throw for the mistakes' replays. False (reported) on trouble. */
static bool castExpected(cliGradeRun* run, cliResultSet* expected)
{
	FILE* input = cliOpenInput(run->trajectoriesPath, run->common.quiet);
	if (input == NULL) {
		return false;
	}
	const char* name = cliInputName(run->trajectoriesPath);
	cliReader* reader = cliReader_Create(input, name, run->common.inputFormat);
	cliRecordLog log = cliRecordLog_Make(name, &run->common, NULL);
	cliTiePool pool = { NULL, 0, 0 };
	memset(expected, 0, sizeof *expected);
	expected->format = cli_inputNdjson; /* as cast's answers were once read back */
	long capacity = 0;
	bool ok = reader != NULL;
	bcError error = { 0 };
	int got = 0;
	cliRecord record;
	memset(&record, 0, sizeof record);
	while (ok && (got = cliReader_Next(reader, &record, &error)) > 0) {
		cliThrow t = { false, { { 0, 0, 0 }, { 0, 0, 0 }, 0.0 } };
		bcCastOutput out;
		int n = 0;
		pool.count = 0;
		const char* problem = cliAnswerRecord(run->mesh, &run->cast, &run->common, &record, &pool, &t.input, &out, &n);
		if (problem != NULL) {
			cliRecordLog_Add(&log, &record, problem);
		}
		t.valid = problem == NULL;
		if (run->throwCount == capacity) {
			capacity = capacity > 0 ? 2 * capacity : 1024;
			cliThrow* grown = realloc(run->throws, (size_t)capacity * sizeof *grown);
			cliResult* results = realloc(expected->results, (size_t)capacity * sizeof *results);
			ok = grown != NULL && results != NULL;
			run->throws = grown != NULL ? grown : run->throws;
			expected->results = results != NULL ? results : expected->results;
		}
		if (ok) {
			run->throws[run->throwCount] = t;
			ok = cliAnswer_ToResult(&record, run->throwCount, problem, &out, pool.ties, n, true,
									expected->results + run->throwCount);
		}
		if (ok) {
			run->throwCount += 1;
			expected->count = run->throwCount;
		}
		cliRecord_Free(&record);
	}
	cliRecordLog_Finish(&log);
	if (got < 0) {
		cliReportError(name, &error);
		ok = false;
	} else if (!ok) {
		fputs("ballcast: out of memory\n", stderr);
	}
	cliTiePool_Free(&pool);
	cliReader_Destroy(reader);
	cliCloseInput(input);
	return ok;
}

/* ------------------------------------------------------------ mistakes */

/* A contact found by the variant caster. */
typedef struct cliVariantContact {
	bool found;
	double alpha;
	int32_t triangle;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	bcVec3 point;
	bcVec3 normal;
} cliVariantContact;

/* Keep c when it comes first: the smaller alpha, ties to the lower
 * triangle, then face, edge, vertex. */
static void keepFirst(cliVariantContact* best, const cliVariantContact* c)
{
	if (!best->found || c->alpha < best->alpha - CLI_VARIANT_TIE ||
		(c->alpha <= best->alpha + CLI_VARIANT_TIE &&
		 (c->triangle < best->triangle || (c->triangle == best->triangle && c->feature < best->feature)))) {
		*best = *c;
	}
}

/* The smaller (or, larger, the larger) root in [0, 1] of a t^2 + b t + c
 * = 0 for a centre entering from outside (c > 0): -1 when there is none. */
static double root(double a, double b, double c, bool larger)
{
	if (!(a > 0.0) || !(c > 0.0)) {
		return -1.0;
	}
	double disc = b * b - 4.0 * a * c;
	if (disc < 0.0) {
		return -1.0;
	}
	double t = (-b + (larger ? 1.0 : -1.0) * sqrt(disc)) / (2.0 * a);
	return t >= 0.0 && t <= 1.0 ? t : -1.0;
}

/* A cast by the textbook's method, with one mistake: every triangle, its
 * face (the plane pushed out by r, inside the triangle), its edges (the
 * cylinder's quadratic, the projection on the segment) and its vertices
 * (the sphere's quadratic), the front-face rule as the settings say. */
static cliVariantContact variantCast(const cliGradeRun* run, bcCastInput in, cliMistake m)
{
	bool faces = true;
	bool edges = m != cli_mistakeFacesOnly && m != cli_mistakeNoEdges;
	bool vertices = m != cli_mistakeFacesOnly && m != cli_mistakeNoVertices;
	bool larger = m == cli_mistakeLargerRoot;
	const bcCastOptions* options = &run->cast.options;
	cliVariantContact best;
	memset(&best, 0, sizeof best);
	bcVec3 d = bcSub(in.p1, in.p0);
	double r = in.radius;
	int32_t count = bcMesh_GetInfo(run->mesh).triangleCount;
	for (int32_t i = 0; i < count; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(run->mesh, i);
		if (tri.degenerate) {
			continue;
		}
		bcVec3 v[3];
		for (int k = 0; k < 3; ++k) {
			v[k] = bcMesh_GetVertex(run->mesh, tri.vertices[k]);
		}
		bcVec3 n = tri.normal;
		double dn = bcDot(n, d);
		bool counted = options->twoSided || (options->approach == bc_approachLess ? dn < 0.0 : dn <= 0.0);
		if (!counted) {
			continue;
		}
		cliVariantContact c;
		memset(&c, 0, sizeof c);
		c.found = true;
		c.triangle = i;
		double s0 = bcDot(n, bcSub(in.p0, v[0]));
		if (faces) {
			double side = s0 >= r ? 1.0 : s0 <= -r ? -1.0 : 0.0;
			/* crossing the plane pushed out by r; or touching it at alpha 0 */
			bool touching = s0 == side * r && side != 0.0;
			if (side != 0.0 && (touching || (side > 0.0 ? dn < 0.0 : options->twoSided && dn > 0.0))) {
				double t = touching ? 0.0 : (side * r - s0) / dn;
				bcVec3 centre = bcMulAdd(in.p0, t, d);
				bcVec3 q = bcMulAdd(centre, -side * r, n);
				/* inside: the same side of each edge */
				bool inside = t >= 0.0 && t <= 1.0;
				for (int k = 0; k < 3 && inside; ++k) {
					bcVec3 e = bcSub(v[(k + 1) % 3], v[k]);
					inside = bcDot(bcCross(e, bcSub(q, v[k])), n) >= 0.0;
				}
				if (inside) {
					c.alpha = t;
					c.feature = bc_featureFace;
					c.vertexCount = 3;
					memcpy(c.vertices, tri.vertices, sizeof c.vertices);
					c.point = q;
					c.normal = bcScale(side, n);
					keepFirst(&best, &c);
				}
			}
		}
		for (int k = 0; k < 3 && edges; ++k) {
			bcVec3 p = v[k];
			bcVec3 e = bcSub(v[(k + 1) % 3], p);
			bcVec3 mm = bcSub(in.p0, p);
			bcVec3 dxe = bcCross(d, e);
			bcVec3 mxe = bcCross(mm, e);
			double ee = bcDot(e, e);
			double t = root(bcDot(dxe, dxe), 2.0 * bcDot(mxe, dxe), bcDot(mxe, mxe) - r * r * ee, larger);
			if (t < 0.0) {
				continue;
			}
			bcVec3 centre = bcMulAdd(in.p0, t, d);
			double s = bcDot(bcSub(centre, p), e) / ee;
			if (s < 0.0 || s > 1.0) {
				continue;
			}
			c.alpha = t;
			c.feature = bc_featureEdge;
			c.vertexCount = 2;
			c.vertices[0] = tri.vertices[k];
			c.vertices[1] = tri.vertices[(k + 1) % 3];
			c.point = bcMulAdd(p, s, e);
			c.normal = bcNormalize(bcSub(centre, c.point));
			keepFirst(&best, &c);
		}
		for (int k = 0; k < 3 && vertices; ++k) {
			bcVec3 mm = bcSub(in.p0, v[k]);
			double t = root(bcDot(d, d), 2.0 * bcDot(mm, d), bcDot(mm, mm) - r * r, larger);
			if (t < 0.0) {
				continue;
			}
			c.alpha = t;
			c.feature = bc_featureVertex;
			c.vertexCount = 1;
			c.vertices[0] = tri.vertices[k];
			c.point = v[k];
			c.normal = bcNormalize(bcSub(bcMulAdd(in.p0, t, d), v[k]));
			keepFirst(&best, &c);
		}
	}
	return best;
}

/* The mesh with every triangle's winding reversed (front and back
 * swapped), or NULL. */
static bcMesh* flippedMesh(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double* vertices = malloc((size_t)info.vertexCount * 3 * sizeof *vertices);
	int32_t* triangles = malloc((size_t)info.triangleCount * 3 * sizeof *triangles);
	int32_t* faces = malloc((size_t)info.triangleCount * sizeof *faces);
	bcMesh* flipped = NULL;
	if (vertices != NULL && triangles != NULL && faces != NULL) {
		int32_t faceCount = 0;
		for (int32_t i = 0; i < info.vertexCount; ++i) {
			bcVec3 v = bcMesh_GetVertex(mesh, i);
			vertices[3 * i] = v.x;
			vertices[3 * i + 1] = v.y;
			vertices[3 * i + 2] = v.z;
		}
		for (int32_t i = 0; i < info.triangleCount; ++i) {
			bcTriangle t = bcMesh_GetTriangle(mesh, i);
			triangles[3 * i] = t.vertices[0];
			triangles[3 * i + 1] = t.vertices[2];
			triangles[3 * i + 2] = t.vertices[1];
			faces[i] = t.face;
			faceCount = t.face + 1 > faceCount ? t.face + 1 : faceCount;
		}
		bcMeshDef def = { vertices, info.vertexCount, triangles, info.triangleCount, faces, faceCount };
		flipped = bcMesh_Create(&def, NULL);
	}
	free(vertices);
	free(triangles);
	free(faces);
	return flipped;
}

/* An answer as a result (no ties, no id). */
static void toResult(const cliCastSettings* s, const bcCastOutput* out, cliResult* answer)
{
	memset(answer, 0, sizeof *answer);
	answer->fields = cli_resultHit | cli_resultAlpha;
	answer->hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
	answer->alpha = out->alpha;
	if (!answer->hit) {
		return;
	}
	answer->fields |= cli_resultInitialOverlap | cli_resultFeature | cli_resultTriangle | cli_resultFace |
					  cli_resultVertices | cli_resultPoint | cli_resultCenter | cli_resultNormal |
					  cli_resultTriangleNormal;
	answer->initialOverlap = out->state == bc_castInitialOverlap;
	answer->feature = out->feature;
	answer->triangle = out->triangle;
	answer->face = out->face;
	answer->vertexCount = out->vertexCount;
	memcpy(answer->vertices, out->vertices, sizeof answer->vertices);
	answer->point = out->point;
	answer->center = out->center;
	answer->normal = s->normalMode == cli_normalContact ? out->normal : out->triangleNormal;
	answer->triangleNormal = out->triangleNormal;
}

/* Re-answer (a cliReanswerFcn): the library with a cast option changed,
 * or the variant caster. */
static bool reanswer(void* context, const cliResult* e, cliMistake m, cliResult* answer)
{
	cliGradeRun* run = context;
	if (e->index < 0 || e->index >= run->throwCount || !run->throws[e->index].valid) {
		return false;
	}
	bool featureMistake = m == cli_mistakeLargerRoot || m == cli_mistakeNoVertices || m == cli_mistakeNoEdges ||
						  m == cli_mistakeFacesOnly;
	if (featureMistake && (e->fields & cli_resultInitialOverlap) && e->initialOverlap) {
		/* a ball that starts overlapping is found before any root is taken */
		*answer = *e;
		answer->fields &= ~(unsigned)cli_resultTies;
		answer->ties = NULL;
		answer->tieCount = 0;
		return true;
	}
	bcCastInput in = run->throws[e->index].input;
	cliCastSettings s = run->cast;
	const bcMesh* mesh = run->mesh;
	switch (m) {
	case cli_mistakeBackFaces:
		if (s.options.twoSided) {
			return false;
		}
		s.options.twoSided = true;
		break;
	case cli_mistakeApproach:
		s.options.approach = s.options.approach == bc_approachLess ? bc_approachLessEqual : bc_approachLess;
		break;
	case cli_mistakeOverlapIgnored:
		if (s.options.overlap == bc_overlapIgnore) {
			return false;
		}
		s.options.overlap = bc_overlapIgnore;
		break;
	case cli_mistakeWrongRadius:
		in.radius *= 0.5;
		break;
	case cli_mistakeFlipped:
		if (!run->flippedTried) {
			run->flippedTried = true;
			run->flipped = flippedMesh(run->mesh);
		}
		if (run->flipped == NULL || s.options.twoSided) {
			return false;
		}
		mesh = run->flipped;
		break;
	case cli_mistakeLargerRoot:
	case cli_mistakeNoVertices:
	case cli_mistakeNoEdges:
	case cli_mistakeFacesOnly: {
		cliVariantContact c = variantCast(run, in, m);
		memset(answer, 0, sizeof *answer);
		answer->fields = cli_resultHit | cli_resultAlpha;
		answer->hit = c.found;
		answer->alpha = c.found ? c.alpha : 1.0;
		if (c.found) {
			bcTriangle t = bcMesh_GetTriangle(run->mesh, c.triangle);
			answer->fields |= cli_resultFeature | cli_resultTriangle | cli_resultFace | cli_resultVertices |
							  cli_resultPoint | cli_resultCenter | cli_resultNormal | cli_resultTriangleNormal;
			answer->feature = c.feature;
			answer->triangle = c.triangle;
			answer->face = t.face;
			answer->vertexCount = c.vertexCount;
			memcpy(answer->vertices, c.vertices, sizeof answer->vertices);
			answer->point = c.point;
			answer->center = bcMulAdd(in.p0, c.alpha, bcSub(in.p1, in.p0));
			answer->normal = run->cast.normalMode == cli_normalContact ? c.normal : t.normal;
			answer->triangleNormal = t.normal;
		}
		return true;
	}
	default:
		return false;
	}
	bcCastOutput out;
	if (cliCastSettings_Answer(mesh, &s, in, &out, &run->ties, &run->tieCapacity, 0) < 0) {
		return false;
	}
	toResult(&s, &out, answer);
	if (m == cli_mistakeFlipped && answer->hit) {
		/* the triangle the student names is the mesh's own */
		answer->triangleNormal = bcMesh_GetTriangle(run->mesh, answer->triangle).normal;
	}
	return true;
}

/* The throw of an expected result (a cliThrowOfFcn). */
static bool throwOf(void* context, const cliResult* e, bcCastInput* input)
{
	const cliGradeRun* run = context;
	if (e->index < 0 || e->index >= run->throwCount || !run->throws[e->index].valid) {
		return false;
	}
	*input = run->throws[e->index].input;
	return true;
}

/* ------------------------------------------------------------ main */

int cliGradeMain(int argc, char** argv)
{
	cliGradeRun run;
	int status = parseArguments(argc, argv, &run);
	if (status >= 0) {
		cliGradeConfig_Free(&run.grade);
		return status;
	}
	status = cli_exitTrouble;
	cliResultSet expected;
	memset(&expected, 0, sizeof expected);
	bcMesh* mesh = cliLoadMesh(run.meshPath, run.common.quiet);
	run.mesh = mesh;
	if (mesh != NULL && castExpected(&run, &expected)) {
		run.grade.mesh = mesh;
		run.grade.reanswer = reanswer;
		run.grade.throwOf = throwOf;
		run.grade.reanswerContext = &run;
		status = cliGrade_Run(&run.grade, cliInputName(run.trajectoriesPath), &expected, run.submissions,
							  run.submissionCount);
	}
	cliResultSet_Free(&expected);
	free(run.throws);
	free(run.ties);
	bcMesh_Destroy(run.flipped);
	bcMesh_Destroy(mesh);
	cliGradeConfig_Free(&run.grade);
	return status;
}
