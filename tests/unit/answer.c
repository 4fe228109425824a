/* answer.c - unit tests of the answer module (cli/answer.c): the settings
 * and their rules, the record checks with the range, the one answer in its
 * three normal modes (hand-computed), and the answer as a result record,
 * which must be what cast's writer and the results reader make of it. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "harness.h"
#include "options.h"
#include "results_read.h"
#include "results_write.h"

/* A ridge of two triangles sharing the edge A(0,0,0) B(1,0,0):
 *   0: A B C, C(0,1,0), lying in z = 0, front normal +z;
 *   1: B A D, D(0.5,0,-1), standing in y = 0 below the edge, front normal -y.
 * A ball of r = 0.5 at height z = 0.3 rolls along +y from y = -1 to y = 1:
 * its first contact is the shared edge, where the distance from its centre
 * (0.5, y, 0.3) to the edge, sqrt(y^2 + 0.09), is 0.5: y = -0.4, alpha =
 * 0.3, point (0.5, 0, 0), contact normal (0, -0.4, 0.3) / 0.5 = (0, -0.8,
 * 0.6). The edge belongs to both triangles: two tied contacts, triangle 0
 * named (the lower index). The face of triangle 1 is never reached (the
 * centre is above it); triangle 0 is counted by the default rule dot(n,
 * p1 - p0) <= 0 (the motion lies in its plane). */
static bcMesh* makeRidge(void)
{
	static const double vertices[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0, -1 };
	static const int32_t triangles[] = { 0, 1, 2, 1, 0, 3 };
	bcMeshDef def = { vertices, 4, triangles, 2, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert_ptr_nonnull(mesh);
	return mesh;
}

static const bcCastInput rollInput = { { 0.5, -1.0, 0.3 }, { 0.5, 1.0, 0.3 }, 0.5 };

/* Settings for an option list, as a command parses them. */
static cliCastSettings settingsWith(int k, const char* value)
{
	cliCastSettings s;
	cliCastSettings_Init(&s);
	if (k >= 0) {
		ck_assert_ptr_null(cliCastSettings_Option(&s, k, value));
	}
	cliCastSettings_Finish(&s);
	return s;
}

/* ------------------------------------------------------------ answers */

START_TEST(contactNormal)
{
	bcMesh* mesh = makeRidge();
	cliCastSettings s = settingsWith(-1, NULL);
	cliTiePool pool = { NULL, 0, 0 };
	bcCastOutput out;
	int ties = -1;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, &pool, &out, &ties, NULL, NULL));
	ck_assert_int_eq(out.state, bc_castHit);
	bcAssertNear(out.alpha, 0.3, 1e-12);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert_int_eq(out.feature, bc_featureEdge);
	bcAssertVecNear(out.point, 0.5, 0.0, 0.0, 1e-12);
	bcAssertVecNear(out.center, 0.5, -0.4, 0.3, 1e-12);
	bcAssertVecNear(out.normal, 0.0, -0.8, 0.6, 1e-12);
	bcAssertVecNear(out.triangleNormal, 0.0, 0.0, 1.0, 0.0);
	ck_assert_int_eq(ties, 2);
	ck_assert_int_eq(pool.count, 2);
	ck_assert_int_eq(pool.ties[0].triangle, 0);
	ck_assert_int_eq(pool.ties[1].triangle, 1);
	ck_assert_int_eq(pool.ties[1].feature, bc_featureEdge);

	/* without a pool: the same answer, no ties listed */
	bcCastOutput alone;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &alone, &ties, NULL, NULL));
	ck_assert_int_eq(ties, 0);
	ck_assert_double_eq(alone.alpha, out.alpha);
	ck_assert_int_eq(memcmp(&alone.normal, &out.normal, sizeof out.normal), 0);

	/* appended after what the pool holds */
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, &pool, &out, &ties, NULL, NULL));
	ck_assert_int_eq(ties, 2);
	ck_assert_int_eq(pool.count, 4);
	ck_assert_int_eq(pool.ties[2].triangle, 0);
	cliTiePool_Free(&pool);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(triangleNormal)
{
	bcMesh* mesh = makeRidge();
	cliCastSettings s = settingsWith(2, "triangle");
	bcCastOutput out;
	int ties = -1;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &out, &ties, NULL, NULL));
	ck_assert_int_eq(out.triangle, 0);
	bcAssertNear(out.alpha, 0.3, 1e-12);
	bcAssertVecNear(out.normal, 0.0, 0.0, 1.0, 0.0);

	/* --approach lt: the motion in triangle 0's plane does not count it;
	 * triangle 1 alone is hit, at the same edge, with its own normal */
	ck_assert_ptr_null(cliCastSettings_Option(&s, 1, "lt"));
	cliCastSettings_Finish(&s);
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &out, &ties, NULL, NULL));
	ck_assert_int_eq(out.triangle, 1);
	bcAssertNear(out.alpha, 0.3, 1e-12);
	bcAssertVecNear(out.normal, 0.0, -1.0, 0.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(averageNormal)
{
	bcMesh* mesh = makeRidge();
	cliCastSettings s = settingsWith(2, "average");
	ck_assert(cliCastSettings_NeedsTies(&s));
	/* (0, 0, 1) + (0, -1, 0), normalised */
	const double h = sqrt(0.5);
	cliTiePool pool = { NULL, 0, 0 };
	bcCastOutput out;
	int ties = -1;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, &pool, &out, &ties, NULL, NULL));
	ck_assert_int_eq(ties, 2);
	ck_assert_int_eq(out.triangle, 0);
	bcAssertVecNear(out.normal, 0.0, -h, h, 1e-15);
	bcAssertVecNear(out.triangleNormal, 0.0, 0.0, 1.0, 0.0);
	/* without a pool of the caller's: the module lists the ties itself */
	bcCastOutput alone;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &alone, &ties, NULL, NULL));
	ck_assert_int_eq(ties, 0);
	bcAssertVecNear(alone.normal, 0.0, -h, h, 1e-15);
	cliTiePool_Free(&pool);

	/* --convention cs121: --approach lt leaves triangle 1 alone, and the
	 * average of one normal is that normal */
	s = settingsWith(4, "cs121");
	ck_assert_int_eq(s.normalMode, bc_normalAverage);
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &out, &ties, NULL, NULL));
	ck_assert_int_eq(out.triangle, 1);
	bcAssertVecNear(out.normal, 0.0, -1.0, 0.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The batch cast runs the exact method on (cliCastSettings_BatchOptions):
 * the roll along the ridge in each normal mode gives the hand-computed
 * normals above, as one throw at a time does, and a throw of NaNs (a bad
 * record) is answered invalid. */
START_TEST(batchOptionsAnswerAsOneThrow)
{
	bcMesh* mesh = makeRidge();
	const double h = sqrt(0.5);
	struct {
		int k;
		const char* value;
		int triangle;
		double nx, ny, nz;
	} modes[] = {
		{ -1, NULL, 0, 0.0, -0.8, 0.6 },      /* the contact normal */
		{ 2, "triangle", 0, 0.0, 0.0, 1.0 }, /* triangle 0's */
		{ 2, "average", 0, 0.0, -h, h },     /* (0,0,1) + (0,-1,0), normalised */
		{ 4, "cs121", 1, 0.0, -1.0, 0.0 },   /* approach lt: triangle 1 alone */
	};
	bcVec3 nowhere = { NAN, NAN, NAN };
	bcCastInput in[3] = { rollInput, { nowhere, nowhere, NAN }, rollInput };
	for (int m = 0; m < 4; ++m) {
		cliCastSettings s = settingsWith(modes[m].k, modes[m].value);
		bcBatchOptions options = cliCastSettings_BatchOptions(&s, 2);
		ck_assert_int_eq(options.threadCount, 2);
		ck_assert_int_eq(options.normal, s.normalMode);
		bcCastOutput out[3];
		bcTieList* ties = NULL;
		ck_assert(bcMesh_CastBatchWithOptions(mesh, in, out, 3, &options, &ties, NULL));
		for (int i = 0; i < 3; i += 2) {
			ck_assert_ptr_null(cliAnswerProblem(out + i));
			ck_assert_int_eq(out[i].triangle, modes[m].triangle);
			bcAssertVecNear(out[i].normal, modes[m].nx, modes[m].ny, modes[m].nz, 1e-15);
			bcCastOutput one;
			int count = -1;
			ck_assert_ptr_null(cliAnswerThrow(mesh, &s, in[i], NULL, &one, &count, NULL, NULL));
			ck_assert(memcmp(&one.normal, &out[i].normal, sizeof one.normal) == 0);
			ck_assert(one.alpha == out[i].alpha);
		}
		ck_assert_int_eq(out[1].state, bc_castInvalid);
		ck_assert_uint_eq(ties->first[2], ties->first[1]);
		ck_assert_uint_eq(ties->first[1] - ties->first[0], (size_t)out[0].tieCount);
		bcTieList_Destroy(ties);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* What cast reports for an answer the library could not give. */
START_TEST(answerProblems)
{
	bcCastOutput out;
	memset(&out, 0, sizeof out);
	out.state = bc_castNoMemory;
	ck_assert_str_eq(cliAnswerProblem(&out), "out of memory collecting the tied contacts");
	out.state = bc_castInvalid;
	ck_assert_str_eq(cliAnswerProblem(&out), "a coordinate or the radius is beyond the supported range of 1e50");
	out.state = bc_castMiss;
	ck_assert_ptr_null(cliAnswerProblem(&out));
	out.state = bc_castHit;
	ck_assert_ptr_null(cliAnswerProblem(&out));
	out.state = bc_castInitialOverlap;
	ck_assert_ptr_null(cliAnswerProblem(&out));
}
END_TEST

START_TEST(discreteMethod)
{
	bcMesh* mesh = makeRidge();
	cliCastSettings s;
	cliCastSettings_Init(&s);
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst, "discrete"));
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst + 1, "0.25"));
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst + 2, "0"));
	ck_assert_ptr_null(cliCastSettings_CheckMethod(&s, false));
	cliCastSettings_Finish(&s);
	/* steps at alpha 0, 0.25, 0.5: the centre at y = -0.5 (distance
	 * sqrt(0.34) > 0.5 from the edge), then y = 0 (distance 0.3, inside):
	 * no halving, alpha is 0.5; the exact cast beside it says 0.3 */
	bcCastOutput out, exact;
	int ties = -1;
	ck_assert_ptr_null(cliAnswerThrow(mesh, &s, rollInput, NULL, &out, &ties, &exact, NULL));
	ck_assert_int_eq(out.state, bc_castHit);
	ck_assert_double_eq(out.alpha, 0.5);
	ck_assert_int_eq(ties, 0);
	bcAssertNear(exact.alpha, 0.3, 1e-12);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ------------------------------------------------------------- checks */

START_TEST(recordChecks)
{
	bcMesh* mesh = makeRidge();
	cliCastSettings s = settingsWith(-1, NULL);
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.fields = cli_fieldP0 | cli_fieldP1 | cli_fieldRadius;
	record.p0 = (bcVec3){ 1e60, 1.0, 1.0 };
	record.p1 = (bcVec3){ 1.0, 1.0, 1.0 };
	record.radius = 0.5;
	bcCastInput input;
	ck_assert_str_eq(cliRecord_CheckCast(&record, &options, &input),
					 "a coordinate or the radius is beyond the supported range of 1e50");
	bcCastOutput out;
	int ties = -1;
	ck_assert_str_eq(cliAnswerRecord(mesh, &s, &options, &record, NULL, &input, &out, &ties),
					 "a coordinate or the radius is beyond the supported range of 1e50");
	ck_assert_int_eq(ties, 0);
	record.p0 = (bcVec3){ 1.0, 1.0, 1.0 };
	record.radius = 1e51;
	ck_assert_str_eq(cliRecord_CheckCast(&record, &options, &input),
					 "a coordinate or the radius is beyond the supported range of 1e50");
	/* the record's own problems first, as cliRecord_CheckTrajectory words them */
	record.fields = cli_fieldP0 | cli_fieldRadius;
	ck_assert_str_eq(cliRecord_CheckCast(&record, &options, &input), "missing p1");
	record.fields = cli_fieldP0 | cli_fieldP1 | cli_fieldRadius;
	record.radius = 0.5;
	ck_assert_ptr_null(cliAnswerRecord(mesh, &s, &options, &record, NULL, &input, &out, &ties));
	ck_assert_int_eq(out.state, bc_castMiss);
	bcAssertVecNear(input.p0, 1.0, 1.0, 1.0, 0.0);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(settingRules)
{
	cliCastSettings s;
	cliCastSettings_Init(&s);
	ck_assert_str_eq(cliCastSettings_Option(&s, 1, "lte"), "--approach is le or lt, not");
	ck_assert_str_eq(cliCastSettings_Option(&s, 2, "face"), "--normal is contact, triangle or average, not");
	ck_assert_str_eq(cliCastSettings_Option(&s, cli_castMethodFirst, "rk4"), "--method is exact or discrete, not");
	ck_assert_str_eq(cliCastSettings_Option(&s, cli_castMethodFirst + 1, "2"),
					 "--dt needs a fraction of the path from 1e-9 to 1, not");
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst + 2, "3"));
	ck_assert_str_eq(cliCastSettings_CheckMethod(&s, false), "--bisect needs --method discrete");
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst, "discrete"));
	ck_assert_str_eq(cliCastSettings_CheckMethod(&s, false),
					 "--method discrete needs --dt F (the step, a fraction of the path)");
	ck_assert_ptr_null(cliCastSettings_Option(&s, cli_castMethodFirst + 1, "0.1"));
	ck_assert_ptr_null(cliCastSettings_CheckMethod(&s, false));
	ck_assert_ptr_nonnull(cliCastSettings_CheckMethod(&s, true));

	/* cs121: explicit options win */
	cliCastSettings_Init(&s);
	ck_assert_ptr_null(cliCastSettings_Option(&s, 4, "cs121"));
	ck_assert_ptr_null(cliCastSettings_Option(&s, 2, "contact"));
	ck_assert(cliCastSettings_Finish(&s));
	ck_assert_int_eq(s.options.approach, bc_approachLess);
	ck_assert_int_eq(s.options.overlap, bc_overlapIgnore);
	ck_assert_str_eq(cliCastSettings_NormalName(&s), "contact");
	ck_assert_int_eq(s.discreteOptions.cast.approach, bc_approachLess);
}
END_TEST

/* ------------------------------------------------------------ results */

static void assertSameVec(bcVec3 a, bcVec3 b)
{
	ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "(%.17g %.17g %.17g) vs (%.17g %.17g %.17g)", a.x, a.y, a.z, b.x,
				  b.y, b.z);
}

/* Two results alike in every field the grading engine reads. */
static void assertSameResult(const cliResult* a, const cliResult* b)
{
	ck_assert_int_eq(a->index, b->index);
	ck_assert_int_eq(a->idKind, b->idKind);
	ck_assert_str_eq(a->id, b->id);
	ck_assert_uint_eq(a->fields, b->fields);
	ck_assert_int_eq(a->hit, b->hit);
	ck_assert_msg(memcmp(&a->alpha, &b->alpha, sizeof a->alpha) == 0, "alpha %.17g vs %.17g", a->alpha, b->alpha);
	ck_assert_int_eq(a->initialOverlap, b->initialOverlap);
	ck_assert_int_eq(a->feature, b->feature);
	ck_assert_int_eq(a->triangle, b->triangle);
	ck_assert_int_eq(a->face, b->face);
	ck_assert_int_eq(a->vertexCount, b->vertexCount);
	ck_assert_int_eq(memcmp(a->vertices, b->vertices, sizeof a->vertices), 0);
	assertSameVec(a->point, b->point);
	assertSameVec(a->center, b->center);
	assertSameVec(a->normal, b->normal);
	assertSameVec(a->triangleNormal, b->triangleNormal);
	if (a->error != NULL || b->error != NULL) {
		ck_assert_str_eq(a->error, b->error);
	}
	ck_assert_int_eq(a->tieCount, b->tieCount);
	for (int i = 0; i < a->tieCount; ++i) {
		const cliTie* x = a->ties + i;
		const cliTie* y = b->ties + i;
		ck_assert_uint_eq(x->fields, y->fields);
		ck_assert_int_eq(x->triangle, y->triangle);
		ck_assert_int_eq(x->feature, y->feature);
		ck_assert_int_eq(x->vertexCount, y->vertexCount);
		ck_assert_int_eq(memcmp(x->vertices, y->vertices, sizeof x->vertices), 0);
		ck_assert_msg(memcmp(&x->alpha, &y->alpha, sizeof x->alpha) == 0, "tie alpha");
		assertSameVec(x->normal, y->normal);
	}
	ck_assert_ptr_null(b->problem);
}

/* Every record of text answered: each as a result built directly and as
 * the result cast's NDJSON writer (--ties) writes and the reader reads
 * back, which must be the same; line and column are the record's. */
static void assertResultsRoundTrip(const bcMesh* mesh, const cliCastSettings* s, const char* text)
{
	FILE* stream = fmemopen((void*)text, strlen(text), "rb");
	ck_assert_ptr_nonnull(stream);
	cliReader* reader = cliReader_Create(stream, "t", cli_inputAuto);
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	cliCastWriter writer;
	cliBuffer written = { 0 };
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	cliCastHeader header = { "m.obj", info, &s->options, cliCastSettings_NormalName(s), true, NULL, false };
	cliCastWriter_Begin(&writer, &written, cli_outputNdjson, &header);
	cliResult direct[16];
	long count = 0;
	cliTiePool pool = { NULL, 0, 0 };
	cliRecord record;
	memset(&record, 0, sizeof record);
	bcError error;
	while (cliReader_Next(reader, &record, &error) > 0) {
		ck_assert_int_lt(count, 16);
		bcCastInput input;
		bcCastOutput out;
		int n = 0;
		pool.count = 0;
		const char* problem = cliAnswerRecord(mesh, s, &options, &record, &pool, &input, &out, &n);
		cliCastWriter_Format(&writer, &written, count, &record, problem, problem == NULL ? &out : NULL, pool.ties,
							 n, NULL);
		ck_assert(cliResult_FromAnswer(&record, count, problem, &out, pool.ties, n, true, direct + count));
		ck_assert_int_eq(direct[count].line, record.line);
		ck_assert_int_eq(direct[count].column, record.column);
		count++;
		cliRecord_Free(&record);
	}
	cliResultSet back;
	ck_assert(cliParseResults(written.data, written.length, &back, &error));
	ck_assert_int_eq(back.count, count);
	for (long i = 0; i < count; ++i) {
		assertSameResult(direct + i, back.results + i);
	}
	cliResultSet_Free(&back);
	for (long i = 0; i < count; ++i) {
		free(direct[i].id);
		free(direct[i].error);
		free(direct[i].ties);
	}
	cliTiePool_Free(&pool);
	cliBuffer_Free(&written);
	cliReader_Destroy(reader);
	fclose(stream);
}

START_TEST(resultsAsCastWritesThem)
{
	bcMesh* mesh = makeRidge();
	/* a tied edge hit, a face hit, a miss, an initial overlap, bad records,
	 * ids of every kind (none, numbers as written, strings with escapes) */
	const char* text = "{\"id\":\"roll\",\"p0\":[0.5,-1,0.3],\"p1\":[0.5,1,0.3],\"r\":0.5}\n"
					   "{\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-1],\"r\":0.25}\n"
					   "{\"id\":7.50,\"p0\":[5,5,5],\"p1\":[6,6,6],\"r\":0.1}\n"
					   "{\"id\":-0,\"p0\":[0.2,0.2,0.1],\"p1\":[0.2,0.2,-1],\"r\":0.25}\n"
					   "{\"id\":\"q\\\"\\u00e9\",\"p0\":[1e60,1,1],\"p1\":[1,1,1],\"r\":0.5}\n"
					   "{\"id\":3,\"p0\":[1,1,1]}\n"
					   "{\"id\":1e2,\"p0\":[0.75,-1,-0.5],\"p1\":[0.75,1,-0.5],\"r\":0.125}\n";
	const char* modes[] = { "contact", "triangle", "average" };
	for (int m = 0; m < 3; ++m) {
		cliCastSettings s = settingsWith(2, modes[m]);
		assertResultsRoundTrip(mesh, &s, text);
	}
	cliCastSettings s = settingsWith(4, "cs121");
	assertResultsRoundTrip(mesh, &s, text);
	s = settingsWith(0, NULL);
	assertResultsRoundTrip(mesh, &s, text);
	/* and CSV trajectories, whose ids are cells */
	s = settingsWith(-1, NULL);
	assertResultsRoundTrip(mesh, &s, "id,x0,y0,z0,x1,y1,z1,r\nroll,0.5,-1,0.3,0.5,1,0.3,0.5\n007,5,5,5,6,6,6,0.1\n,1,1,1,2,2,2,\n");
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(resultOfABadRecord)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = 4;
	record.line = 9;
	record.column = 2;
	cliResult r;
	ck_assert(cliResult_FromAnswer(&record, 4, "missing p1", NULL, NULL, 0, true, &r));
	ck_assert_uint_eq(r.fields, cli_resultError);
	ck_assert_str_eq(r.error, "missing p1");
	/* no id: the index, as a number */
	ck_assert_int_eq(r.idKind, cli_idNumber);
	ck_assert_str_eq(r.id, "4");
	ck_assert_int_eq(r.line, 9);
	ck_assert_int_eq(r.column, 2);
	free(r.id);
	free(r.error);
}
END_TEST

/* ------------------------------------------ a trajectory record's path */

static cliRecord makeRecord(unsigned fields)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.fields = fields;
	record.p0 = (bcVec3){ 1.0, 2.0, 3.0 };
	record.p1 = (bcVec3){ 4.0, 5.0, 6.0 };
	record.radius = 0.5;
	return record;
}

START_TEST(trajectoryFields)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	bcVec3 p0 = { 0, 0, 0 }, p1 = { 0, 0, 0 };
	double radius = -1.0;
	cliRecord record = makeRecord(cli_fieldP0 | cli_fieldP1 | cli_fieldRadius);
	ck_assert_ptr_null(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius));
	bcAssertVecNear(p0, 1.0, 2.0, 3.0, 0.0);
	bcAssertVecNear(p1, 4.0, 5.0, 6.0, 0.0);
	ck_assert(radius == 0.5);

	/* --radius stands in only for a record without r */
	options.haveRadius = true;
	options.radius = 0.25;
	ck_assert_ptr_null(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius));
	ck_assert(radius == 0.5);
	record = makeRecord(cli_fieldP0 | cli_fieldP1);
	ck_assert_ptr_null(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius));
	ck_assert(radius == 0.25);
}
END_TEST

START_TEST(trajectoryProblems)
{
	cliCommonOptions options;
	memset(&options, 0, sizeof options);
	bcVec3 p0, p1;
	double radius;
	cliRecord record = makeRecord(cli_fieldP0 | cli_fieldP1);
	ck_assert_str_eq(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius),
					 "missing r (give it per record or with --radius)");
	record = makeRecord(cli_fieldP1 | cli_fieldRadius);
	ck_assert_str_eq(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p0");
	record = makeRecord(cli_fieldP0 | cli_fieldRadius);
	ck_assert_str_eq(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p1");
	record = makeRecord(cli_fieldRadius);
	ck_assert_str_eq(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius), "missing p0");
	/* the record's own error comes first */
	record = makeRecord(cli_fieldRadius);
	strcpy(record.error, "p0: expected an array of 3 numbers");
	ck_assert_ptr_eq(cliRecord_CheckTrajectory(&record, &options, &p0, &p1, &radius), record.error);
}
END_TEST

static Suite* answerSuite(void)
{
	Suite* suite = suite_create("answer");

	TCase* answers = tcase_create("answers");
	tcase_add_test(answers, contactNormal);
	tcase_add_test(answers, triangleNormal);
	tcase_add_test(answers, averageNormal);
	tcase_add_test(answers, discreteMethod);
	tcase_add_test(answers, batchOptionsAnswerAsOneThrow);
	tcase_add_test(answers, answerProblems);
	suite_add_tcase(suite, answers);

	TCase* checks = tcase_create("checks");
	tcase_add_test(checks, recordChecks);
	tcase_add_test(checks, trajectoryFields);
	tcase_add_test(checks, trajectoryProblems);
	tcase_add_test(checks, settingRules);
	suite_add_tcase(suite, checks);

	TCase* results = tcase_create("results");
	tcase_add_test(results, resultsAsCastWritesThem);
	tcase_add_test(results, resultOfABadRecord);
	suite_add_tcase(suite, results);

	return suite;
}

int main(void)
{
	return bcRunSuite(answerSuite());
}
