/* results_write.c - `ballcast cast` results: the cast's columns, head and
 * summary, framed in JSON, NDJSON or CSV by the records writer
 * (records_out.c). Key and column order is fixed: scripts and diffs depend
 * on it. Results are formatted into buffers (on the threads that cast them)
 * and written in order by the caller. */
#include "results_write.h"

#include <math.h>
#include <string.h>

/* The cast's columns, in key and column order. */
enum {
	cli_castId,
	cli_castHit,
	cli_castAlpha,
	cli_castInitialOverlap,
	cli_castFeature,
	cli_castTriangle,
	cli_castFace,
	cli_castVertices,
	cli_castPoint,
	cli_castCenter,
	cli_castNormal,
	cli_castTriangleNormal,
	cli_castError,
	cli_castTies,       /* --ties */
	cli_castExactAlpha, /* --compare-exact */
	cli_castAlphaFree,  /* --method discrete */
	cli_castColumnCount
};

static const cliOutColumn castColumns[cli_castColumnCount] = {
	{ "id", NULL },
	{ "hit", NULL },
	{ "alpha", NULL },
	{ "initial_overlap", NULL },
	{ "feature", NULL },
	{ "triangle", NULL },
	{ "face", NULL },
	{ "vertices", "vertex_0,vertex_1,vertex_2" },
	CLI_OUT_VEC3_COLUMN("point"),
	CLI_OUT_VEC3_COLUMN("center"),
	CLI_OUT_VEC3_COLUMN("normal"),
	CLI_OUT_VEC3_COLUMN("triangle_normal"),
	{ "error", NULL },
	{ "ties", NULL },
	{ "exact_alpha", NULL },
	{ "alpha_free", NULL },
};

/* Write what append puts in a fresh buffer. */
static void writeRecordId(FILE* f, const cliRecord* record, void (*append)(cliBuffer*, const cliRecord*))
{
	cliBuffer out = { 0 };
	append(&out, record);
	if (out.length > 0) {
		fwrite(out.data, 1, out.length, f);
	}
	cliBuffer_Free(&out);
}

void cliWriteRecordIdJson(FILE* f, const cliRecord* record)
{
	writeRecordId(f, record, cliBuffer_AppendRecordIdJson);
}

void cliWriteRecordIdCsv(FILE* f, const cliRecord* record)
{
	writeRecordId(f, record, cliBuffer_AppendRecordIdCsv);
}

static const char* approachName(bcApproach approach)
{
	return approach == bc_approachLess ? "lt" : "le";
}

/* The "mesh" object of a JSON head: the file and its counts (fields holds 5). */
static cliOutValue meshObject(cliOutField* fields, const char* path, const bcMeshInfo* info)
{
	fields[0] = (cliOutField){ "file", cliOutValue_Text(path) };
	fields[1] = (cliOutField){ "vertices", cliOutValue_Int(info->vertexCount) };
	fields[2] = (cliOutField){ "triangles", cliOutValue_Int(info->triangleCount) };
	fields[3] = (cliOutField){ "faces", cliOutValue_Int(info->faceCount) };
	fields[4] = (cliOutField){ "degenerate", cliOutValue_Int(info->degenerateCount) };
	return cliOutValue_Object(fields, 5);
}

/* Begin, with or without the alpha_free column. */
static void begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header,
				  bool alphaFree)
{
	const bcCastOptions* options = header->options;
	cliOutField mesh[5];
	cliOutField settings[9] = {
		{ "two_sided", cliOutValue_Bool(options->twoSided) },
		{ "approach", cliOutValue_Name(approachName(options->approach)) },
		{ "initial_overlap", cliOutValue_Name(options->overlap == bc_overlapIgnore ? "ignore" : "report") },
		{ "normal", cliOutValue_Name(header->normalMode) },
		{ "tie_tolerance", cliOutValue_Number(BC_ALPHA_TIE_TOLERANCE) },
	};
	if (header->discrete != NULL) {
		settings[5] = (cliOutField){ "method", cliOutValue_Name("discrete") };
		settings[6] = (cliOutField){ "dt", cliOutValue_Number(header->discrete->step) };
		settings[7] = (cliOutField){ "bisect", cliOutValue_Int(header->discrete->bisections) };
		settings[8] = (cliOutField){ "compare_exact", cliOutValue_Bool(header->compareExact) };
	}
	cliOutField head[2] = {
		{ "mesh", meshObject(mesh, header->meshPath, &header->mesh) },
		{ "settings", cliOutValue_Object(settings, 9) },
	};
	uint64_t off = 0;
	off |= header->ties ? 0 : (uint64_t)1 << cli_castTies;
	off |= header->compareExact ? 0 : (uint64_t)1 << cli_castExactAlpha;
	off |= alphaFree ? 0 : (uint64_t)1 << cli_castAlphaFree;
	cliRecordsLayout layout = { "results", castColumns, cli_castColumnCount, off };
	writer->compareExact = header->compareExact;
	cliRecordsOut_Begin(&writer->records, out, format, &layout, head, 2);
}

void cliCastWriter_Begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header)
{
	begin(writer, out, format, header, false);
}

void cliCastWriter_BeginWithAlphaFree(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format,
									  const cliCastHeader* header)
{
	begin(writer, out, format, header, true);
}

static bool isHit(const bcCastOutput* result)
{
	return result->state == bc_castHit || result->state == bc_castInitialOverlap;
}

void cliCastWriter_FormatAnswer(const cliCastWriter* writer, cliBuffer* out, long position,
								const cliCastAnswer* answer)
{
	if (answer->error != NULL) {
		cliRecordsOut_Error(&writer->records, out, position, answer->record, answer->error);
		return;
	}
	const bcCastOutput* result = answer->output;
	bool hit = isHit(result);
	/* every column set (no memset first: this runs once a record) */
	cliOutValue v[cli_castColumnCount];
	v[cli_castId] = cliOutValue_Id(answer->record);
	v[cli_castHit] = cliOutValue_Bool(hit);
	v[cli_castAlpha] = cliOutValue_Number(result->alpha);
	if (hit) {
		v[cli_castInitialOverlap] = cliOutValue_Bool(result->state == bc_castInitialOverlap);
		v[cli_castFeature] = cliOutValue_Name(bcFeatureName(result->feature));
		v[cli_castTriangle] = cliOutValue_Int(result->triangle);
		v[cli_castFace] = cliOutValue_Int(result->face);
		v[cli_castVertices] = cliOutValue_Ints(result->vertices, result->vertexCount);
		v[cli_castPoint] = cliOutValue_Vec3(result->point);
		v[cli_castCenter] = cliOutValue_Vec3(result->center);
		v[cli_castNormal] = cliOutValue_Vec3(result->normal);
		v[cli_castTriangleNormal] = cliOutValue_Vec3(result->triangleNormal);
	} else {
		for (int k = cli_castInitialOverlap; k <= cli_castTriangleNormal; ++k) {
			v[k].kind = cli_outAbsent;
		}
	}
	v[cli_castError].kind = cli_outAbsent;
	v[cli_castTies] = cliOutValue_Contacts(answer->ties, hit ? answer->tieCount : 0);
	const bcCastOutput* exact = answer->exact;
	v[cli_castExactAlpha] = exact != NULL && isHit(exact) ? cliOutValue_Number(exact->alpha) : cliOutValue_Null();
	v[cli_castAlphaFree] = cliOutValue_Number(answer->alphaFree);
	cliRecordsOut_Record(&writer->records, out, position, v);
}

void cliCastWriter_Format(const cliCastWriter* writer, cliBuffer* out, long position, const cliRecord* record,
						  const char* error, const bcCastOutput* output, const bcContact* ties, int tieCount,
						  const bcCastOutput* exact)
{
	cliCastAnswer answer = { record, error, output, ties, tieCount, exact, NAN };
	cliCastWriter_FormatAnswer(writer, out, position, &answer);
}

void cliCastWriter_End(const cliCastWriter* writer, cliBuffer* out, long written, const cliCastSummary* summary)
{
	cliOutField fields[4] = {
		{ "records", cliOutValue_Int(summary->records) },
		{ "hits", cliOutValue_Int(summary->hits) },
		{ "errors", cliOutValue_Int(summary->errors) },
		{ "tunnelled", writer->compareExact ? cliOutValue_Int(summary->tunnelled) : (cliOutValue){ 0 } },
	};
	cliRecordsOut_End(&writer->records, out, written, fields, 4);
}
