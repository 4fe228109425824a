/* results_write.c - `ballcast cast` results as JSON, NDJSON or CSV. Key and
 * column order is fixed: scripts and diffs depend on it. Results are
 * formatted into buffers (on the threads that cast them) and written in
 * order by the caller. */
#include "results_write.h"

#include <string.h>

static const char* const csvHeader =
	"id,hit,alpha,initial_overlap,feature,triangle,face,vertex_0,vertex_1,vertex_2,"
	"point_x,point_y,point_z,center_x,center_y,center_z,normal_x,normal_y,normal_z,"
	"triangle_normal_x,triangle_normal_y,triangle_normal_z,error";

/* A string literal appended without strlen. */
#define CLI_APPEND_LITERAL(out, literal) cliBuffer_Append((out), (literal), sizeof(literal) - 1)

void cliAppendRecordIdJson(cliBuffer* out, const cliRecord* record)
{
	if (record->idKind == cli_idNumber) {
		cliBuffer_AppendText(out, record->id);
	} else if (record->idKind == cli_idString) {
		cliBuffer_AppendJsonString(out, record->id);
	} else {
		cliBuffer_AppendInt(out, record->index);
	}
}

void cliAppendRecordIdCsv(cliBuffer* out, const cliRecord* record)
{
	if (record->idKind == cli_idIndex) {
		cliBuffer_AppendInt(out, record->index);
	} else {
		cliBuffer_AppendCsvField(out, record->id);
	}
}

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

void cliCastWriter_Begin(cliCastWriter* writer, cliBuffer* out, cliOutputFormat format, const cliCastHeader* header)
{
	writer->format = format;
	writer->ties = header->ties;
	writer->compareExact = header->compareExact;
	if (format == cli_outputCsv) {
		cliBuffer_AppendText(out, csvHeader);
		if (header->ties) {
			CLI_APPEND_LITERAL(out, ",ties");
		}
		if (header->compareExact) {
			CLI_APPEND_LITERAL(out, ",exact_alpha");
		}
		cliBuffer_AppendChar(out, '\n');
		return;
	}
	if (format != cli_outputJson) {
		return;
	}
	CLI_APPEND_LITERAL(out, "{\"ballcast\":\"" BC_VERSION_STRING "\",\"mesh\":{\"file\":");
	cliBuffer_AppendJsonString(out, header->meshPath);
	CLI_APPEND_LITERAL(out, ",\"vertices\":");
	cliBuffer_AppendInt(out, header->mesh.vertexCount);
	CLI_APPEND_LITERAL(out, ",\"triangles\":");
	cliBuffer_AppendInt(out, header->mesh.triangleCount);
	CLI_APPEND_LITERAL(out, ",\"faces\":");
	cliBuffer_AppendInt(out, header->mesh.faceCount);
	CLI_APPEND_LITERAL(out, ",\"degenerate\":");
	cliBuffer_AppendInt(out, header->mesh.degenerateCount);
	CLI_APPEND_LITERAL(out, "},\"settings\":{\"two_sided\":");
	cliBuffer_AppendText(out, header->options->twoSided ? "true" : "false");
	CLI_APPEND_LITERAL(out, ",\"approach\":\"");
	cliBuffer_AppendText(out, approachName(header->options->approach));
	CLI_APPEND_LITERAL(out, "\",\"initial_overlap\":\"");
	cliBuffer_AppendText(out, header->options->overlap == bc_overlapIgnore ? "ignore" : "report");
	CLI_APPEND_LITERAL(out, "\",\"normal\":\"");
	cliBuffer_AppendText(out, header->normalMode);
	CLI_APPEND_LITERAL(out, "\",\"tie_tolerance\":");
	cliBuffer_AppendNumber(out, BC_ALPHA_TIE_TOLERANCE);
	if (header->discrete != NULL) {
		CLI_APPEND_LITERAL(out, ",\"method\":\"discrete\",\"dt\":");
		cliBuffer_AppendNumber(out, header->discrete->step);
		CLI_APPEND_LITERAL(out, ",\"bisect\":");
		cliBuffer_AppendInt(out, header->discrete->bisections);
		cliBuffer_AppendText(out, header->compareExact ? ",\"compare_exact\":true" : ",\"compare_exact\":false");
	}
	CLI_APPEND_LITERAL(out, "},\n\"results\":[");
}

static void appendVec(cliBuffer* out, const char* key, size_t keyLength, bcVec3 v)
{
	cliBuffer_Append(out, key, keyLength);
	cliBuffer_AppendJsonVec3(out, v.x, v.y, v.z);
}

#define CLI_APPEND_VEC(out, key, v) appendVec((out), (key), sizeof(key) - 1, (v))

static void appendTiesJson(cliBuffer* out, const bcContact* ties, int count)
{
	CLI_APPEND_LITERAL(out, ",\"ties\":[");
	for (int i = 0; i < count; ++i) {
		const bcContact* t = ties + i;
		if (i) {
			CLI_APPEND_LITERAL(out, ",{\"triangle\":");
		} else {
			CLI_APPEND_LITERAL(out, "{\"triangle\":");
		}
		cliBuffer_AppendInt(out, t->triangle);
		CLI_APPEND_LITERAL(out, ",\"feature\":\"");
		cliBuffer_AppendText(out, bcFeatureName(t->feature));
		CLI_APPEND_LITERAL(out, "\",\"vertices\":[");
		for (int k = 0; k < t->vertexCount; ++k) {
			if (k) {
				cliBuffer_AppendChar(out, ',');
			}
			cliBuffer_AppendInt(out, t->vertices[k]);
		}
		CLI_APPEND_LITERAL(out, "],\"alpha\":");
		cliBuffer_AppendNumber(out, t->alpha);
		CLI_APPEND_VEC(out, ",\"normal\":", t->normal);
		cliBuffer_AppendChar(out, '}');
	}
	cliBuffer_AppendChar(out, ']');
}

static bool isHit(const bcCastOutput* result)
{
	return result->state == bc_castHit || result->state == bc_castInitialOverlap;
}

static void appendJsonResult(const cliCastWriter* w, cliBuffer* out, const cliRecord* record, const char* error,
							 const bcCastOutput* result, const bcContact* ties, int tieCount, const bcCastOutput* exact)
{
	CLI_APPEND_LITERAL(out, "{\"id\":");
	cliAppendRecordIdJson(out, record);
	if (error != NULL) {
		CLI_APPEND_LITERAL(out, ",\"error\":");
		cliBuffer_AppendJsonString(out, error);
		cliBuffer_AppendChar(out, '}');
		return;
	}
	bool hit = result->state == bc_castHit || result->state == bc_castInitialOverlap;
	if (hit) {
		CLI_APPEND_LITERAL(out, ",\"hit\":true,\"alpha\":");
	} else {
		CLI_APPEND_LITERAL(out, ",\"hit\":false,\"alpha\":");
	}
	cliBuffer_AppendNumber(out, result->alpha);
	if (hit) {
		if (result->state == bc_castInitialOverlap) {
			CLI_APPEND_LITERAL(out, ",\"initial_overlap\":true");
		} else {
			CLI_APPEND_LITERAL(out, ",\"initial_overlap\":false");
		}
		CLI_APPEND_LITERAL(out, ",\"feature\":\"");
		cliBuffer_AppendText(out, bcFeatureName(result->feature));
		CLI_APPEND_LITERAL(out, "\",\"triangle\":");
		cliBuffer_AppendInt(out, result->triangle);
		CLI_APPEND_LITERAL(out, ",\"face\":");
		cliBuffer_AppendInt(out, result->face);
		CLI_APPEND_LITERAL(out, ",\"vertices\":[");
		for (int k = 0; k < result->vertexCount; ++k) {
			if (k) {
				cliBuffer_AppendChar(out, ',');
			}
			cliBuffer_AppendInt(out, result->vertices[k]);
		}
		cliBuffer_AppendChar(out, ']');
		CLI_APPEND_VEC(out, ",\"point\":", result->point);
		CLI_APPEND_VEC(out, ",\"center\":", result->center);
		CLI_APPEND_VEC(out, ",\"normal\":", result->normal);
		CLI_APPEND_VEC(out, ",\"triangle_normal\":", result->triangleNormal);
	}
	if (w->ties) {
		appendTiesJson(out, ties, hit ? tieCount : 0);
	}
	if (w->compareExact) {
		CLI_APPEND_LITERAL(out, ",\"exact_alpha\":");
		if (exact != NULL && isHit(exact)) {
			cliBuffer_AppendNumber(out, exact->alpha);
		} else {
			CLI_APPEND_LITERAL(out, "null");
		}
	}
	cliBuffer_AppendChar(out, '}');
}

static void appendCsvVec(cliBuffer* out, bcVec3 v)
{
	cliBuffer_AppendChar(out, ',');
	cliBuffer_AppendNumber(out, v.x);
	cliBuffer_AppendChar(out, ',');
	cliBuffer_AppendNumber(out, v.y);
	cliBuffer_AppendChar(out, ',');
	cliBuffer_AppendNumber(out, v.z);
}

static void appendCsvResult(const cliCastWriter* w, cliBuffer* out, const cliRecord* record, const char* error,
							const bcCastOutput* result, const bcContact* ties, int tieCount, const bcCastOutput* exact)
{
	cliAppendRecordIdCsv(out, record);
	if (error != NULL) {
		CLI_APPEND_LITERAL(out, ",,,,,,,,,,,,,,,,,,,,,,");
		cliBuffer_AppendCsvField(out, error);
		if (w->ties) {
			cliBuffer_AppendChar(out, ',');
		}
		if (w->compareExact) {
			cliBuffer_AppendChar(out, ',');
		}
		cliBuffer_AppendChar(out, '\n');
		return;
	}
	bool hit = result->state == bc_castHit || result->state == bc_castInitialOverlap;
	cliBuffer_AppendText(out, hit ? ",true," : ",false,");
	cliBuffer_AppendNumber(out, result->alpha);
	if (!hit) {
		CLI_APPEND_LITERAL(out, ",,,,,,,,,,,,,,,,,,,,");
	} else {
		cliBuffer_AppendText(out, result->state == bc_castInitialOverlap ? ",true," : ",false,");
		cliBuffer_AppendText(out, bcFeatureName(result->feature));
		cliBuffer_AppendChar(out, ',');
		cliBuffer_AppendInt(out, result->triangle);
		cliBuffer_AppendChar(out, ',');
		cliBuffer_AppendInt(out, result->face);
		for (int k = 0; k < 3; ++k) {
			cliBuffer_AppendChar(out, ',');
			if (k < result->vertexCount) {
				cliBuffer_AppendInt(out, result->vertices[k]);
			}
		}
		appendCsvVec(out, result->point);
		appendCsvVec(out, result->center);
		appendCsvVec(out, result->normal);
		appendCsvVec(out, result->triangleNormal);
		cliBuffer_AppendChar(out, ',');
	}
	if (w->ties) {
		/* One cell: "triangle:feature" pairs separated by spaces. */
		cliBuffer_AppendChar(out, ',');
		for (int i = 0; hit && i < tieCount; ++i) {
			if (i) {
				cliBuffer_AppendChar(out, ' ');
			}
			cliBuffer_AppendInt(out, ties[i].triangle);
			cliBuffer_AppendChar(out, ':');
			cliBuffer_AppendText(out, bcFeatureName(ties[i].feature));
		}
	}
	if (w->compareExact) {
		/* empty when the exact cast misses too */
		cliBuffer_AppendChar(out, ',');
		if (exact != NULL && isHit(exact)) {
			cliBuffer_AppendNumber(out, exact->alpha);
		}
	}
	cliBuffer_AppendChar(out, '\n');
}

void cliCastWriter_Format(const cliCastWriter* writer, cliBuffer* out, long position, const cliRecord* record,
						  const char* error, const bcCastOutput* output, const bcContact* ties, int tieCount,
						  const bcCastOutput* exact)
{
	switch (writer->format) {
	case cli_outputJson:
		if (position > 0) {
			CLI_APPEND_LITERAL(out, ",\n");
		} else {
			cliBuffer_AppendChar(out, '\n');
		}
		appendJsonResult(writer, out, record, error, output, ties, tieCount, exact);
		break;
	case cli_outputNdjson:
		appendJsonResult(writer, out, record, error, output, ties, tieCount, exact);
		cliBuffer_AppendChar(out, '\n');
		break;
	case cli_outputCsv:
		appendCsvResult(writer, out, record, error, output, ties, tieCount, exact);
		break;
	}
}

void cliCastWriter_End(const cliCastWriter* writer, cliBuffer* out, long written, const cliCastSummary* summary)
{
	if (writer->format != cli_outputJson) {
		return;
	}
	if (written > 0) {
		CLI_APPEND_LITERAL(out, "\n],\n\"summary\":{\"records\":");
	} else {
		CLI_APPEND_LITERAL(out, "],\n\"summary\":{\"records\":");
	}
	cliBuffer_AppendInt(out, summary->records);
	CLI_APPEND_LITERAL(out, ",\"hits\":");
	cliBuffer_AppendInt(out, summary->hits);
	CLI_APPEND_LITERAL(out, ",\"errors\":");
	cliBuffer_AppendInt(out, summary->errors);
	if (writer->compareExact) {
		CLI_APPEND_LITERAL(out, ",\"tunnelled\":");
		cliBuffer_AppendInt(out, summary->tunnelled);
	}
	CLI_APPEND_LITERAL(out, "}}\n");
}
