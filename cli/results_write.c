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
	writeRecordId(f, record, cliAppendRecordIdJson);
}

void cliWriteRecordIdCsv(FILE* f, const cliRecord* record)
{
	writeRecordId(f, record, cliAppendRecordIdCsv);
}

static const char* approachName(bcApproach approach)
{
	return approach == bc_approachLess ? "lt" : "le";
}

/* The "mesh" object of a JSON head: the file and its counts (fields holds 5). */
static cliOutValue meshObject(cliOutField* fields, const char* path, const bcMeshInfo* info)
{
	fields[0] = (cliOutField){ "file", cliOut_Text(path) };
	fields[1] = (cliOutField){ "vertices", cliOut_Int(info->vertexCount) };
	fields[2] = (cliOutField){ "triangles", cliOut_Int(info->triangleCount) };
	fields[3] = (cliOutField){ "faces", cliOut_Int(info->faceCount) };
	fields[4] = (cliOutField){ "degenerate", cliOut_Int(info->degenerateCount) };
	return cliOut_Object(fields, 5);
}

/* Begin, with or without the alpha_free column. */
static void begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header,
				  bool alphaFree)
{
	const bcCastOptions* options = header->options;
	cliOutField mesh[5];
	cliOutField settings[9] = {
		{ "two_sided", cliOut_Bool(options->twoSided) },
		{ "approach", cliOut_Name(approachName(options->approach)) },
		{ "initial_overlap", cliOut_Name(options->overlap == bc_overlapIgnore ? "ignore" : "report") },
		{ "normal", cliOut_Name(header->normalMode) },
		{ "tie_tolerance", cliOut_Number(BC_ALPHA_TIE_TOLERANCE) },
	};
	if (header->discrete != NULL) {
		settings[5] = (cliOutField){ "method", cliOut_Name("discrete") };
		settings[6] = (cliOutField){ "dt", cliOut_Number(header->discrete->step) };
		settings[7] = (cliOutField){ "bisect", cliOut_Int(header->discrete->bisections) };
		settings[8] = (cliOutField){ "compare_exact", cliOut_Bool(header->compareExact) };
	}
	cliOutField head[2] = {
		{ "mesh", meshObject(mesh, header->meshPath, &header->mesh) },
		{ "settings", cliOut_Object(settings, 9) },
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
	v[cli_castId] = cliOut_Id(answer->record);
	v[cli_castHit] = cliOut_Bool(hit);
	v[cli_castAlpha] = cliOut_Number(result->alpha);
	if (hit) {
		v[cli_castInitialOverlap] = cliOut_Bool(result->state == bc_castInitialOverlap);
		v[cli_castFeature] = cliOut_Name(bcFeatureName(result->feature));
		v[cli_castTriangle] = cliOut_Int(result->triangle);
		v[cli_castFace] = cliOut_Int(result->face);
		v[cli_castVertices] = cliOut_Ints(result->vertices, result->vertexCount);
		v[cli_castPoint] = cliOut_Vec3(result->point);
		v[cli_castCenter] = cliOut_Vec3(result->center);
		v[cli_castNormal] = cliOut_Vec3(result->normal);
		v[cli_castTriangleNormal] = cliOut_Vec3(result->triangleNormal);
	} else {
		for (int k = cli_castInitialOverlap; k <= cli_castTriangleNormal; ++k) {
			v[k].kind = cli_outAbsent;
		}
	}
	v[cli_castError].kind = cli_outAbsent;
	v[cli_castTies] = cliOut_Contacts(answer->ties, hit ? answer->tieCount : 0);
	const bcCastOutput* exact = answer->exact;
	v[cli_castExactAlpha] = exact != NULL && isHit(exact) ? cliOut_Number(exact->alpha) : cliOut_Null();
	v[cli_castAlphaFree] = cliOut_Number(answer->alphaFree);
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
		{ "records", cliOut_Int(summary->records) },
		{ "hits", cliOut_Int(summary->hits) },
		{ "errors", cliOut_Int(summary->errors) },
		{ "tunnelled", writer->compareExact ? cliOut_Int(summary->tunnelled) : (cliOutValue){ 0 } },
	};
	cliRecordsOut_End(&writer->records, out, written, fields, 4);
}
