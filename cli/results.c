/* results.c - `ballcast cast` results as JSON, NDJSON or CSV. Key and
 * column order is fixed: scripts and diffs depend on it. */
#include "results.h"

#include <string.h>

static const char* const csvHeader =
	"id,hit,alpha,initial_overlap,feature,triangle,face,vertex_0,vertex_1,vertex_2,"
	"point_x,point_y,point_z,center_x,center_y,center_z,normal_x,normal_y,normal_z,"
	"triangle_normal_x,triangle_normal_y,triangle_normal_z,error";

void cliWriteRecordIdJson(FILE* f, const cliRecord* record)
{
	if (record->idKind == cli_idNumber) {
		fputs(record->id, f);
	} else if (record->idKind == cli_idString) {
		cliWriteJsonString(f, record->id);
	} else {
		cliWriteInt(f, record->index);
	}
}

void cliWriteRecordIdCsv(FILE* f, const cliRecord* record)
{
	if (record->idKind == cli_idIndex) {
		cliWriteInt(f, record->index);
	} else {
		cliWriteCsvField(f, record->id);
	}
}

static const char* approachName(bcApproach approach)
{
	return approach == bc_approachLess ? "lt" : "le";
}

void cliCastWriter_Begin(cliCastWriter* writer, FILE* stream, cliOutputFormat format, const cliCastHeader* header)
{
	writer->stream = stream;
	writer->format = format;
	writer->ties = header->ties;
	writer->written = 0;
	FILE* f = stream;
	if (format == cli_outputCsv) {
		fputs(csvHeader, f);
		fputs(header->ties ? ",ties\n" : "\n", f);
		return;
	}
	if (format != cli_outputJson) {
		return;
	}
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"mesh\":{\"file\":", f);
	cliWriteJsonString(f, header->meshPath);
	fputs(",\"vertices\":", f);
	cliWriteInt(f, header->mesh.vertexCount);
	fputs(",\"triangles\":", f);
	cliWriteInt(f, header->mesh.triangleCount);
	fputs(",\"faces\":", f);
	cliWriteInt(f, header->mesh.faceCount);
	fputs(",\"degenerate\":", f);
	cliWriteInt(f, header->mesh.degenerateCount);
	fputs("},\"settings\":{\"two_sided\":", f);
	fputs(header->options->twoSided ? "true" : "false", f);
	fputs(",\"approach\":\"", f);
	fputs(approachName(header->options->approach), f);
	fputs("\",\"initial_overlap\":\"", f);
	fputs(header->options->overlap == bc_overlapIgnore ? "ignore" : "report", f);
	fputs("\",\"normal\":\"", f);
	fputs(header->normalMode, f);
	fputs("\",\"tie_tolerance\":", f);
	cliWriteNumber(f, BC_ALPHA_TIE_TOLERANCE);
	fputs("},\n\"results\":[", f);
}

static void writeVec(FILE* f, const char* key, bcVec3 v)
{
	fputs(key, f);
	cliWriteJsonVec3(f, v.x, v.y, v.z);
}

static void writeTiesJson(FILE* f, const bcContact* ties, int count)
{
	fputs(",\"ties\":[", f);
	for (int i = 0; i < count; ++i) {
		const bcContact* t = ties + i;
		fputs(i ? ",{\"triangle\":" : "{\"triangle\":", f);
		cliWriteInt(f, t->triangle);
		fputs(",\"feature\":\"", f);
		fputs(bcFeatureName(t->feature), f);
		fputs("\",\"vertices\":[", f);
		for (int k = 0; k < t->vertexCount; ++k) {
			if (k) {
				putc(',', f);
			}
			cliWriteInt(f, t->vertices[k]);
		}
		fputs("],\"alpha\":", f);
		cliWriteNumber(f, t->alpha);
		writeVec(f, ",\"normal\":", t->normal);
		putc('}', f);
	}
	putc(']', f);
}

static void writeJsonResult(cliCastWriter* w, const cliRecord* record, const char* error, const bcCastOutput* out,
							const bcContact* ties, int tieCount)
{
	FILE* f = w->stream;
	fputs("{\"id\":", f);
	cliWriteRecordIdJson(f, record);
	if (error != NULL) {
		fputs(",\"error\":", f);
		cliWriteJsonString(f, error);
		putc('}', f);
		return;
	}
	bool hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
	fputs(hit ? ",\"hit\":true,\"alpha\":" : ",\"hit\":false,\"alpha\":", f);
	cliWriteNumber(f, out->alpha);
	if (hit) {
		fputs(out->state == bc_castInitialOverlap ? ",\"initial_overlap\":true" : ",\"initial_overlap\":false", f);
		fputs(",\"feature\":\"", f);
		fputs(bcFeatureName(out->feature), f);
		fputs("\",\"triangle\":", f);
		cliWriteInt(f, out->triangle);
		fputs(",\"face\":", f);
		cliWriteInt(f, out->face);
		fputs(",\"vertices\":[", f);
		for (int k = 0; k < out->vertexCount; ++k) {
			if (k) {
				putc(',', f);
			}
			cliWriteInt(f, out->vertices[k]);
		}
		putc(']', f);
		writeVec(f, ",\"point\":", out->point);
		writeVec(f, ",\"center\":", out->center);
		writeVec(f, ",\"normal\":", out->normal);
		writeVec(f, ",\"triangle_normal\":", out->triangleNormal);
	}
	if (w->ties) {
		writeTiesJson(f, ties, hit ? tieCount : 0);
	}
	putc('}', f);
}

static void csvVec(FILE* f, bcVec3 v)
{
	putc(',', f);
	cliWriteNumber(f, v.x);
	putc(',', f);
	cliWriteNumber(f, v.y);
	putc(',', f);
	cliWriteNumber(f, v.z);
}

static void writeCsvResult(cliCastWriter* w, const cliRecord* record, const char* error, const bcCastOutput* out,
						   const bcContact* ties, int tieCount)
{
	FILE* f = w->stream;
	cliWriteRecordIdCsv(f, record);
	if (error != NULL) {
		fputs(",,,,,,,,,,,,,,,,,,,,,,", f);
		cliWriteCsvField(f, error);
		fputs(w->ties ? ",\n" : "\n", f);
		return;
	}
	bool hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
	fputs(hit ? ",true," : ",false,", f);
	cliWriteNumber(f, out->alpha);
	if (!hit) {
		fputs(",,,,,,,,,,,,,,,,,,,,", f);
	} else {
		fputs(out->state == bc_castInitialOverlap ? ",true," : ",false,", f);
		fputs(bcFeatureName(out->feature), f);
		putc(',', f);
		cliWriteInt(f, out->triangle);
		putc(',', f);
		cliWriteInt(f, out->face);
		for (int k = 0; k < 3; ++k) {
			putc(',', f);
			if (k < out->vertexCount) {
				cliWriteInt(f, out->vertices[k]);
			}
		}
		csvVec(f, out->point);
		csvVec(f, out->center);
		csvVec(f, out->normal);
		csvVec(f, out->triangleNormal);
		putc(',', f);
	}
	if (w->ties) {
		/* One cell: "triangle:feature" pairs separated by spaces. */
		putc(',', f);
		for (int i = 0; hit && i < tieCount; ++i) {
			if (i) {
				putc(' ', f);
			}
			cliWriteInt(f, ties[i].triangle);
			putc(':', f);
			fputs(bcFeatureName(ties[i].feature), f);
		}
	}
	putc('\n', f);
}

void cliCastWriter_Write(cliCastWriter* writer, const cliRecord* record, const char* error, const bcCastOutput* output,
						 const bcContact* ties, int tieCount)
{
	switch (writer->format) {
	case cli_outputJson:
		fputs(writer->written ? ",\n" : "\n", writer->stream);
		writeJsonResult(writer, record, error, output, ties, tieCount);
		break;
	case cli_outputNdjson:
		writeJsonResult(writer, record, error, output, ties, tieCount);
		putc('\n', writer->stream);
		break;
	case cli_outputCsv:
		writeCsvResult(writer, record, error, output, ties, tieCount);
		break;
	}
	writer->written += 1;
}

void cliCastWriter_End(cliCastWriter* writer, const cliCastSummary* summary)
{
	if (writer->format != cli_outputJson) {
		return;
	}
	FILE* f = writer->stream;
	fputs(writer->written ? "\n],\n\"summary\":{\"records\":" : "],\n\"summary\":{\"records\":", f);
	cliWriteInt(f, summary->records);
	fputs(",\"hits\":", f);
	cliWriteInt(f, summary->hits);
	fputs(",\"errors\":", f);
	cliWriteInt(f, summary->errors);
	fputs("}}\n", f);
}
