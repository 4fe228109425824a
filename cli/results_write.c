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

static const cliColumn castColumns[cli_castColumnCount] = {
	{ "id", NULL },
	{ "hit", NULL },
	{ "alpha", NULL },
	{ "initial_overlap", NULL },
	{ "feature", NULL },
	{ "triangle", NULL },
	{ "face", NULL },
	{ "vertices", "vertex_0,vertex_1,vertex_2" },
	CLI_VEC3_COLUMN("point"),
	CLI_VEC3_COLUMN("center"),
	CLI_VEC3_COLUMN("normal"),
	CLI_VEC3_COLUMN("triangle_normal"),
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
static cliValue meshObject(cliField* fields, const char* path, const bcMeshInfo* info)
{
	fields[0] = (cliField){ "file", cliValue_Text(path) };
	fields[1] = (cliField){ "vertices", cliValue_Int(info->vertexCount) };
	fields[2] = (cliField){ "triangles", cliValue_Int(info->triangleCount) };
	fields[3] = (cliField){ "faces", cliValue_Int(info->faceCount) };
	fields[4] = (cliField){ "degenerate", cliValue_Int(info->degenerateCount) };
	return cliValue_Object(fields, 5);
}

/* Begin, with or without the alpha_free column. */
static void begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header,
				  bool alphaFree)
{
	const bcCastOptions* options = header->options;
	cliField mesh[5];
	cliField settings[9] = {
		{ "two_sided", cliValue_Bool(options->twoSided) },
		{ "approach", cliValue_Name(approachName(options->approach)) },
		{ "initial_overlap", cliValue_Name(options->overlap == bc_overlapIgnore ? "ignore" : "report") },
		{ "normal", cliValue_Name(header->normalMode) },
		{ "tie_tolerance", cliValue_Number(BC_ALPHA_TIE_TOLERANCE) },
	};
	if (header->discrete != NULL) {
		settings[5] = (cliField){ "method", cliValue_Name("discrete") };
		settings[6] = (cliField){ "dt", cliValue_Number(header->discrete->step) };
		settings[7] = (cliField){ "bisect", cliValue_Int(header->discrete->bisections) };
		settings[8] = (cliField){ "compare_exact", cliValue_Bool(header->compareExact) };
	}
	cliField head[2] = {
		{ "mesh", meshObject(mesh, header->meshPath, &header->mesh) },
		{ "settings", cliValue_Object(settings, 9) },
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
	cliValue v[cli_castColumnCount];
	v[cli_castId] = cliValue_Id(answer->record);
	v[cli_castHit] = cliValue_Bool(hit);
	v[cli_castAlpha] = cliValue_Number(result->alpha);
	if (hit) {
		v[cli_castInitialOverlap] = cliValue_Bool(result->state == bc_castInitialOverlap);
		v[cli_castFeature] = cliValue_Name(bcFeatureName(result->feature));
		v[cli_castTriangle] = cliValue_Int(result->triangle);
		v[cli_castFace] = cliValue_Int(result->face);
		v[cli_castVertices] = cliValue_Ints(result->vertices, result->vertexCount);
		v[cli_castPoint] = cliValue_Vec3(result->point);
		v[cli_castCenter] = cliValue_Vec3(result->center);
		v[cli_castNormal] = cliValue_Vec3(result->normal);
		v[cli_castTriangleNormal] = cliValue_Vec3(result->triangleNormal);
	} else {
		for (int k = cli_castInitialOverlap; k <= cli_castTriangleNormal; ++k) {
			v[k].kind = cli_valueAbsent;
		}
	}
	v[cli_castError].kind = cli_valueAbsent;
	v[cli_castTies] = cliValue_Contacts(answer->ties, hit ? answer->tieCount : 0);
	const bcCastOutput* exact = answer->exact;
	v[cli_castExactAlpha] = exact != NULL && isHit(exact) ? cliValue_Number(exact->alpha) : cliValue_Null();
	v[cli_castAlphaFree] = cliValue_Number(answer->alphaFree);
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
	cliField fields[4] = {
		{ "records", cliValue_Int(summary->records) },
		{ "hits", cliValue_Int(summary->hits) },
		{ "errors", cliValue_Int(summary->errors) },
		{ "tunnelled", writer->compareExact ? cliValue_Int(summary->tunnelled) : (cliValue){ 0 } },
	};
	cliRecordsOut_End(&writer->records, out, written, fields, 4);
}
