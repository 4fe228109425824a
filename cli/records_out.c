/* records_out.c - the one writer of answer records: how JSON, NDJSON and
 * CSV frame a command's records (records_out.h). */
#include "records_out.h"

#include <string.h>

/* The longest key kept whole (a column's keyLength is a byte). */
#define CLI_RECORDS_MAX_KEY 200

/* The bytes a short key is copied in (appendKeyText). */
#define CLI_RECORDS_KEY_CHUNK 32

/* A string literal appended without strlen. */
#define CLI_APPEND_LITERAL(out, literal) cliBuffer_Append((out), (literal), sizeof(literal) - 1)

static bool isOff(const cliRecordsOut* w, int k)
{
	return (w->layout.off >> k) & 1u;
}

/* ------------------------------------------------------------------ JSON */

/* "key": */
static void appendKey(cliBuffer* out, const char* key, size_t length)
{
	cliBuffer_AppendChar(out, '"');
	cliBuffer_Append(out, key, length);
	CLI_APPEND_LITERAL(out, "\":");
}

void cliBuffer_AppendRecordIdJson(cliBuffer* out, const cliRecord* record)
{
	if (record->idKind == cli_idNumber) {
		cliBuffer_AppendText(out, record->id);
	} else if (record->idKind == cli_idString) {
		cliBuffer_AppendJsonString(out, record->id);
	} else {
		cliBuffer_AppendInt(out, record->index);
	}
}

static void appendIntsJson(cliBuffer* out, const int32_t* items, int count)
{
	cliBuffer_AppendChar(out, '[');
	for (int k = 0; k < count; ++k) {
		if (k > 0) {
			cliBuffer_AppendChar(out, ',');
		}
		cliBuffer_AppendInt(out, items[k]);
	}
	cliBuffer_AppendChar(out, ']');
}

static void appendVec3Json(cliBuffer* out, bcVec3 v)
{
	cliBuffer_AppendJsonVec3(out, v.x, v.y, v.z);
}

static void appendFieldsJson(cliBuffer* out, const cliOutField* fields, int count);

static void appendContactsJson(cliBuffer* out, const bcContact* contacts, int count)
{
	cliBuffer_AppendChar(out, '[');
	for (int i = 0; i < count; ++i) {
		const bcContact* t = contacts + i;
		if (i > 0) {
			CLI_APPEND_LITERAL(out, ",{\"triangle\":");
		} else {
			CLI_APPEND_LITERAL(out, "{\"triangle\":");
		}
		cliBuffer_AppendInt(out, t->triangle);
		CLI_APPEND_LITERAL(out, ",\"feature\":\"");
		cliBuffer_AppendText(out, bcFeatureName(t->feature));
		CLI_APPEND_LITERAL(out, "\",\"vertices\":");
		appendIntsJson(out, t->vertices, t->vertexCount);
		CLI_APPEND_LITERAL(out, ",\"alpha\":");
		cliBuffer_AppendNumber(out, t->alpha);
		CLI_APPEND_LITERAL(out, ",\"normal\":");
		appendVec3Json(out, t->normal);
		cliBuffer_AppendChar(out, '}');
	}
	cliBuffer_AppendChar(out, ']');
}

/* A number, a whole number or a boolean: written alike in JSON and CSV. */
static void appendScalar(cliBuffer* out, const cliOutValue* v)
{
	if (v->kind == cli_outNumber) {
		cliBuffer_AppendNumber(out, v->number);
	} else if (v->kind == cli_outInt) {
		cliBuffer_AppendInt(out, v->integer);
	} else if (v->flag) {
		CLI_APPEND_LITERAL(out, "true");
	} else {
		CLI_APPEND_LITERAL(out, "false");
	}
}

void cliBuffer_AppendValueJson(cliBuffer* out, const cliOutValue* v)
{
	switch (v->kind) {
	case cli_outAbsent:
	case cli_outNull:
		CLI_APPEND_LITERAL(out, "null");
		break;
	case cli_outNumber:
	case cli_outInt:
	case cli_outBool:
		appendScalar(out, v);
		break;
	case cli_outText:
		cliBuffer_AppendJsonString(out, v->text);
		break;
	case cli_outName:
		cliBuffer_AppendChar(out, '"');
		cliBuffer_AppendText(out, v->text);
		cliBuffer_AppendChar(out, '"');
		break;
	case cli_outId:
		cliBuffer_AppendRecordIdJson(out, v->record);
		break;
	case cli_outVec3:
		appendVec3Json(out, v->vec);
		break;
	case cli_outInts:
		appendIntsJson(out, v->ints.items, v->ints.count);
		break;
	case cli_outVecs:
		cliBuffer_AppendChar(out, '[');
		for (int k = 0; k < v->vecs.count; ++k) {
			if (k > 0) {
				cliBuffer_AppendChar(out, ',');
			}
			appendVec3Json(out, v->vecs.items[k]);
		}
		cliBuffer_AppendChar(out, ']');
		break;
	case cli_outContacts:
		appendContactsJson(out, v->contacts.items, v->contacts.count);
		break;
	case cli_outObject:
		cliBuffer_AppendChar(out, '{');
		appendFieldsJson(out, v->object.items, v->object.count);
		cliBuffer_AppendChar(out, '}');
		break;
	}
}

/* "key":value,... for the fields that are not absent. */
static void appendFieldsJson(cliBuffer* out, const cliOutField* fields, int count)
{
	bool first = true;
	for (int k = 0; k < count; ++k) {
		if (fields[k].value.kind == cli_outAbsent) {
			continue;
		}
		if (!first) {
			cliBuffer_AppendChar(out, ',');
		}
		first = false;
		appendKey(out, fields[k].key, strlen(fields[k].key));
		cliBuffer_AppendValueJson(out, &fields[k].value);
	}
}

/* Append count bytes of a key's text (from keyText: CLI_RECORDS_KEY_CHUNK
 * bytes are readable there). A short key is copied as one fixed-size
 * chunk, which the compiler turns into a few moves: a copy of variable
 * length costs more than the rest of a member (it was half the time of
 * a cast's record). */
static void appendKeyText(cliBuffer* out, const char* bytes, size_t count)
{
	if (count <= CLI_RECORDS_KEY_CHUNK &&
		(out->capacity - out->length >= CLI_RECORDS_KEY_CHUNK || cliBuffer_Grow(out, CLI_RECORDS_KEY_CHUNK))) {
		memcpy(out->data + out->length, bytes, CLI_RECORDS_KEY_CHUNK);
		out->length += count;
	} else {
		cliBuffer_Append(out, bytes, count);
	}
}

/* One record as a JSON object. */
static void appendRecordJson(const cliRecordsOut* w, cliBuffer* out, const cliOutValue* values)
{
	cliBuffer_AppendChar(out, '{');
	size_t skip = 1; /* the first member has no comma before it */
	for (int k = 0; k < w->layout.columnCount; ++k) {
		if (values[k].kind == cli_outAbsent || isOff(w, k)) {
			continue;
		}
		appendKeyText(out, w->keyText + w->keyStart[k] + skip, w->keyLength[k] - skip);
		skip = 0;
		cliBuffer_AppendValueJson(out, values + k);
	}
	cliBuffer_AppendChar(out, '}');
}

/* ------------------------------------------------------------------- CSV */

void cliBuffer_AppendRecordIdCsv(cliBuffer* out, const cliRecord* record)
{
	if (record->idKind == cli_idIndex) {
		cliBuffer_AppendInt(out, record->index);
	} else if (record->idKind == cli_idNumber) {
		cliBuffer_AppendText(out, record->id); /* a JSON number as written: a spreadsheet's number (-1), no formula */
	} else {
		cliBuffer_AppendCsvField(out, record->id);
	}
}

static void appendVec3Csv(cliBuffer* out, bcVec3 v)
{
	cliBuffer_AppendNumber(out, v.x);
	cliBuffer_AppendChar(out, ',');
	cliBuffer_AppendNumber(out, v.y);
	cliBuffer_AppendChar(out, ',');
	cliBuffer_AppendNumber(out, v.z);
}

/* count empty cells after written ones: their separators */
static void appendEmptyCells(cliBuffer* out, int count)
{
	static const char commas[] = ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,";
	for (; count > 0; count -= (int)sizeof commas - 1) {
		cliBuffer_Append(out, commas, count < (int)sizeof commas - 1 ? (size_t)count : sizeof commas - 1);
	}
}

/* A value as its column's cells, separated by commas (cells of them). */
static void appendValueCsv(cliBuffer* out, const cliOutValue* v, int cells)
{
	switch (v->kind) {
	case cli_outAbsent:
	case cli_outNull:
	case cli_outObject:
		appendEmptyCells(out, cells - 1);
		break;
	case cli_outNumber:
	case cli_outInt:
	case cli_outBool:
		appendScalar(out, v);
		break;
	case cli_outText:
		cliBuffer_AppendCsvField(out, v->text);
		break;
	case cli_outName:
		cliBuffer_AppendText(out, v->text);
		break;
	case cli_outId:
		cliBuffer_AppendRecordIdCsv(out, v->record);
		break;
	case cli_outVec3:
		appendVec3Csv(out, v->vec);
		break;
	case cli_outInts: {
		int count = v->ints.count < cells ? v->ints.count : cells;
		for (int k = 0; k < count; ++k) {
			if (k > 0) {
				cliBuffer_AppendChar(out, ',');
			}
			cliBuffer_AppendInt(out, v->ints.items[k]);
		}
		appendEmptyCells(out, cells - (count > 0 ? count : 1));
		break;
	}
	case cli_outVecs: {
		int count = v->vecs.count < cells / 3 ? v->vecs.count : cells / 3;
		for (int k = 0; k < count; ++k) {
			if (k > 0) {
				cliBuffer_AppendChar(out, ',');
			}
			appendVec3Csv(out, v->vecs.items[k]);
		}
		appendEmptyCells(out, cells - (count > 0 ? 3 * count : 1));
		break;
	}
	case cli_outContacts:
		for (int i = 0; i < v->contacts.count; ++i) {
			if (i > 0) {
				cliBuffer_AppendChar(out, ' ');
			}
			cliBuffer_AppendInt(out, v->contacts.items[i].triangle);
			cliBuffer_AppendChar(out, ':');
			cliBuffer_AppendText(out, bcFeatureName(v->contacts.items[i].feature));
		}
		break;
	}
}

/* One CSV row over the columns that are on: a record's values, or with
 * values NULL the header (every column's cells named). */
static void appendRowCsv(const cliRecordsOut* w, cliBuffer* out, const cliOutValue* values)
{
	bool first = true;
	for (int k = 0; k < w->layout.columnCount; ++k) {
		if (isOff(w, k)) {
			continue;
		}
		if (!first) {
			cliBuffer_AppendChar(out, ',');
		}
		first = false;
		if (values != NULL) {
			appendValueCsv(out, values + k, w->cells[k]);
		} else {
			const cliOutColumn* c = w->layout.columns + k;
			cliBuffer_AppendText(out, c->csv != NULL ? c->csv : c->key);
		}
	}
	cliBuffer_AppendChar(out, '\n');
}

/* ------------------------------------------------------------ the writer */

/* Cells named in a header text: its commas plus one. */
static int cellCount(const char* csv)
{
	int count = 1;
	for (const char* p = csv; p != NULL && *p != 0; ++p) {
		count += *p == ',';
	}
	return count;
}

void cliRecordsOut_Begin(cliRecordsOut* writer, cliBuffer* out, cliOutputFormat format,
						 const cliRecordsLayout* layout, const cliOutField* head, int headCount)
{
	memset(writer, 0, sizeof *writer);
	writer->format = format;
	writer->layout = *layout;
	if (writer->layout.columnCount > CLI_RECORDS_MAX_COLUMNS) {
		writer->layout.columnCount = CLI_RECORDS_MAX_COLUMNS;
	}
	writer->idColumn = writer->errorColumn = -1;
	size_t used = 0;
	for (int k = 0; k < writer->layout.columnCount; ++k) {
		const cliOutColumn* c = layout->columns + k;
		size_t length = strlen(c->key);
		if (length > CLI_RECORDS_MAX_KEY) {
			length = CLI_RECORDS_MAX_KEY;
		}
		if (used + length + 4 + CLI_RECORDS_KEY_CHUNK > sizeof writer->keyText) {
			length = 0; /* no room left (more than 64 keys of 30 bytes): an empty key */
		}
		writer->keyStart[k] = (unsigned short)used;
		writer->keyLength[k] = (unsigned char)(length + 4);
		writer->keyText[used] = ',';
		writer->keyText[used + 1] = '"';
		memcpy(writer->keyText + used + 2, c->key, length);
		memcpy(writer->keyText + used + 2 + length, "\":", 2);
		used += length + 4;
		writer->cells[k] = (unsigned char)cellCount(c->csv);
		if (writer->idColumn < 0 && strcmp(c->key, "id") == 0) {
			writer->idColumn = k;
		}
		if (writer->errorColumn < 0 && strcmp(c->key, "error") == 0) {
			writer->errorColumn = k;
		}
	}
	switch (format) {
	case cli_outputJson:
		if (layout->list == NULL) {
			cliBuffer_AppendChar(out, '[');
			break;
		}
		CLI_APPEND_LITERAL(out, "{\"ballcast\":\"" BC_VERSION_STRING "\"");
		if (headCount > 0) {
			cliBuffer_AppendChar(out, ',');
			appendFieldsJson(out, head, headCount);
		}
		CLI_APPEND_LITERAL(out, ",\n\"");
		cliBuffer_AppendText(out, layout->list);
		CLI_APPEND_LITERAL(out, "\":[");
		break;
	case cli_outputNdjson:
		break;
	case cli_outputCsv:
		appendRowCsv(writer, out, NULL);
		break;
	}
}

void cliRecordsOut_Record(const cliRecordsOut* writer, cliBuffer* out, long position, const cliOutValue* values)
{
	switch (writer->format) {
	case cli_outputJson:
		if (position > 0) {
			CLI_APPEND_LITERAL(out, ",\n");
		} else {
			cliBuffer_AppendChar(out, '\n');
		}
		appendRecordJson(writer, out, values);
		break;
	case cli_outputNdjson:
		appendRecordJson(writer, out, values);
		cliBuffer_AppendChar(out, '\n');
		break;
	case cli_outputCsv:
		appendRowCsv(writer, out, values);
		break;
	}
}

void cliRecordsOut_Error(const cliRecordsOut* writer, cliBuffer* out, long position, const cliRecord* record,
						 const char* error)
{
	cliOutValue values[CLI_RECORDS_MAX_COLUMNS];
	memset(values, 0, sizeof values);
	if (writer->idColumn >= 0) {
		values[writer->idColumn] = cliOutValue_Id(record);
	}
	if (writer->errorColumn >= 0) {
		values[writer->errorColumn] = cliOutValue_Text(error);
	}
	cliRecordsOut_Record(writer, out, position, values);
}

void cliRecordsOut_End(const cliRecordsOut* writer, cliBuffer* out, long written, const cliOutField* summary,
					   int summaryCount)
{
	if (writer->format != cli_outputJson) {
		return;
	}
	if (written > 0) {
		cliBuffer_AppendChar(out, '\n');
	}
	if (writer->layout.list == NULL) {
		CLI_APPEND_LITERAL(out, "]\n");
		return;
	}
	CLI_APPEND_LITERAL(out, "],\n\"summary\":{");
	appendFieldsJson(out, summary, summaryCount);
	CLI_APPEND_LITERAL(out, "}}\n");
}

bool cliRecordsOut_HasSummary(const cliRecordsOut* writer)
{
	return writer->format == cli_outputJson && writer->layout.list != NULL;
}

bool cliOutputFormat_Streams(cliOutputFormat format)
{
	return format != cli_outputJson;
}
