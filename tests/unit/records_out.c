/* records_out.c - unit tests for the records writer (cli/records_out.c):
 * the framing of each format (a document with head and summary, a bare
 * list, zero records), absent, null and switched-off columns, every kind
 * of value, and error records, against texts written out by hand. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "records_out.h"

/* out's text as a C string (kept in a static buffer), and out emptied. */
static const char* text(cliBuffer* out)
{
	static char copy[4096];
	ck_assert(!out->failed);
	ck_assert_uint_lt(out->length, sizeof copy);
	memcpy(copy, out->data, out->length);
	copy[out->length] = '\0';
	cliBuffer_Clear(out);
	return copy;
}

static cliRecord idOf(cliIdKind kind, const char* id, long index)
{
	cliRecord record;
	memset(&record, 0, sizeof record);
	record.index = index;
	record.idKind = kind;
	record.id = (char*)id;
	return record;
}

/* A small layout with one column of every width: id, a number, a vector
 * (three cells), up to three integers, a name, the error, and an optional
 * column (switched off by the caller or not). */
enum { colId, colAlpha, colPoint, colVertices, colFeature, colError, colExtra, colCount };

static const cliOutColumn columns[colCount] = {
	{ "id", NULL },
	{ "alpha", NULL },
	CLI_OUT_VEC3_COLUMN("point"),
	{ "vertices", "vertex_0,vertex_1,vertex_2" },
	{ "feature", NULL },
	{ "error", NULL },
	{ "extra", NULL },
};

/* The values of a full record: id 7, alpha 0.5, point (1, -2, 0.25), two
 * vertices, feature edge, extra null. */
static void fullRecord(cliOutValue* v, const cliRecord* id)
{
	static const int32_t vertices[2] = { 4, 9 };
	memset(v, 0, colCount * sizeof *v);
	v[colId] = cliOutValue_Id(id);
	v[colAlpha] = cliOutValue_Number(0.5);
	v[colPoint] = cliOutValue_Vec3((bcVec3){ 1.0, -2.0, 0.25 });
	v[colVertices] = cliOutValue_Ints(vertices, 2);
	v[colFeature] = cliOutValue_Name("edge");
	v[colExtra] = cliOutValue_Null();
}

START_TEST(jsonDocument)
{
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliOutField settings[2] = { { "two_sided", cliOutValue_Bool(false) }, { "tie", cliOutValue_Number(1e-10) } };
	cliOutField head[3] = {
		{ "file", cliOutValue_Text("a \"b\".obj") },
		{ "skipped", { 0 } }, /* absent: no member */
		{ "settings", cliOutValue_Object(settings, 2) },
	};
	cliRecordsLayout layout = { "results", columns, colCount, 0 };
	cliRecordsOut_Begin(&w, &out, cli_outputJson, &layout, head, 3);
	ck_assert_str_eq(text(&out), "{\"ballcast\":\"" BC_VERSION_STRING "\",\"file\":\"a \\\"b\\\".obj\","
								 "\"settings\":{\"two_sided\":false,\"tie\":1e-10},\n\"results\":[");
	ck_assert(cliRecordsOut_HasSummary(&w));
	ck_assert(!cliOutputFormat_Streams(cli_outputJson));
	ck_assert(cliOutputFormat_Streams(cli_outputNdjson) && cliOutputFormat_Streams(cli_outputCsv));

	cliRecord number = idOf(cli_idNumber, "7.50", 0);
	cliOutValue v[colCount];
	fullRecord(v, &number);
	cliRecordsOut_Record(&w, &out, 0, v);
	ck_assert_str_eq(text(&out), "\n{\"id\":7.50,\"alpha\":0.5,\"point\":[1,-2,0.25],\"vertices\":[4,9],"
								 "\"feature\":\"edge\",\"extra\":null}");
	/* absent values leave their keys out; from the second record on, a comma */
	cliRecord index = idOf(cli_idIndex, NULL, 3);
	memset(v, 0, sizeof v);
	v[colId] = cliOutValue_Id(&index);
	v[colAlpha] = cliOutValue_Number(1.0);
	cliRecordsOut_Record(&w, &out, 1, v);
	ck_assert_str_eq(text(&out), ",\n{\"id\":3,\"alpha\":1}");
	cliRecord string = idOf(cli_idString, "x\ny", 4);
	cliRecordsOut_Error(&w, &out, 2, &string, "p0: expected \"[\"");
	ck_assert_str_eq(text(&out), ",\n{\"id\":\"x\\ny\",\"error\":\"p0: expected \\\"[\\\"\"}");

	cliOutField summary[3] = {
		{ "records", cliOutValue_Int(3) },
		{ "gone", { 0 } },
		{ "end", cliOutValue_Name("horizon") },
	};
	cliRecordsOut_End(&w, &out, 3, summary, 3);
	ck_assert_str_eq(text(&out), "\n],\n\"summary\":{\"records\":3,\"end\":\"horizon\"}}\n");
	cliBuffer_Free(&out);
}
END_TEST

START_TEST(ndjsonLines)
{
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliOutField head[1] = { { "file", cliOutValue_Text("m.obj") } };
	cliRecordsLayout layout = { "results", columns, colCount, (uint64_t)1 << colExtra };
	cliRecordsOut_Begin(&w, &out, cli_outputNdjson, &layout, head, 1);
	ck_assert_uint_eq(out.length, 0);
	ck_assert(!cliRecordsOut_HasSummary(&w));
	cliRecord string = idOf(cli_idString, "a,b", 0);
	cliOutValue v[colCount];
	fullRecord(v, &string);
	/* a switched-off column is never written, whatever its value */
	cliRecordsOut_Record(&w, &out, 0, v);
	ck_assert_str_eq(text(&out), "{\"id\":\"a,b\",\"alpha\":0.5,\"point\":[1,-2,0.25],\"vertices\":[4,9],"
								 "\"feature\":\"edge\"}\n");
	cliRecordsOut_Error(&w, &out, 1, &string, "missing p");
	ck_assert_str_eq(text(&out), "{\"id\":\"a,b\",\"error\":\"missing p\"}\n");
	cliOutField summary[1] = { { "records", cliOutValue_Int(2) } };
	cliRecordsOut_End(&w, &out, 2, summary, 1);
	ck_assert_uint_eq(out.length, 0);
	cliBuffer_Free(&out);
}
END_TEST

START_TEST(csvRows)
{
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliRecordsLayout layout = { "results", columns, colCount, 0 };
	cliRecordsOut_Begin(&w, &out, cli_outputCsv, &layout, NULL, 0);
	ck_assert_str_eq(text(&out), "id,alpha,point_x,point_y,point_z,vertex_0,vertex_1,vertex_2,feature,error,extra\n");
	ck_assert(!cliRecordsOut_HasSummary(&w));
	/* two of three vertices: an empty third cell; null: an empty cell */
	cliRecord string = idOf(cli_idString, "a,\"b\"", 0);
	cliOutValue v[colCount];
	fullRecord(v, &string);
	cliRecordsOut_Record(&w, &out, 0, v);
	ck_assert_str_eq(text(&out), "\"a,\"\"b\"\"\",0.5,1,-2,0.25,4,9,,edge,,\n");
	/* absent: every cell of the column empty */
	cliRecord number = idOf(cli_idNumber, "12", 5);
	memset(v, 0, sizeof v);
	v[colId] = cliOutValue_Id(&number);
	v[colAlpha] = cliOutValue_Number(1.0);
	cliRecordsOut_Record(&w, &out, 1, v);
	ck_assert_str_eq(text(&out), "12,1,,,,,,,,,\n");
	cliRecord index = idOf(cli_idIndex, NULL, 2);
	cliRecordsOut_Error(&w, &out, 2, &index, "bad, really");
	ck_assert_str_eq(text(&out), "2,,,,,,,,,\"bad, really\",\n");
	cliRecordsOut_End(&w, &out, 3, NULL, 0);
	ck_assert_uint_eq(out.length, 0);

	/* the optional column switched off: neither in the header nor in rows */
	layout.off = (uint64_t)1 << colExtra;
	cliRecordsOut_Begin(&w, &out, cli_outputCsv, &layout, NULL, 0);
	ck_assert_str_eq(text(&out), "id,alpha,point_x,point_y,point_z,vertex_0,vertex_1,vertex_2,feature,error\n");
	cliRecordsOut_Error(&w, &out, 0, &index, "bad");
	ck_assert_str_eq(text(&out), "2,,,,,,,,,bad\n");
	cliBuffer_Free(&out);
}
END_TEST

/* Zero records: the document with an empty list and the summary, the CSV
 * header alone, nothing in NDJSON. */
START_TEST(zeroRecords)
{
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliRecordsLayout layout = { "events", columns, 2, 0 };
	cliOutField summary[1] = { { "events", cliOutValue_Int(0) } };
	cliRecordsOut_Begin(&w, &out, cli_outputJson, &layout, NULL, 0);
	cliRecordsOut_End(&w, &out, 0, summary, 1);
	ck_assert_str_eq(text(&out),
					 "{\"ballcast\":\"" BC_VERSION_STRING "\",\n\"events\":[],\n\"summary\":{\"events\":0}}\n");
	cliRecordsOut_Begin(&w, &out, cli_outputCsv, &layout, NULL, 0);
	cliRecordsOut_End(&w, &out, 0, summary, 1);
	ck_assert_str_eq(text(&out), "id,alpha\n");
	cliRecordsOut_Begin(&w, &out, cli_outputNdjson, &layout, NULL, 0);
	cliRecordsOut_End(&w, &out, 0, summary, 1);
	ck_assert_uint_eq(out.length, 0);
	cliBuffer_Free(&out);
}
END_TEST

/* A bare list (no head, no summary): [ records ] in JSON. */
START_TEST(bareList)
{
	static const cliOutColumn sample[3] = { { "t", NULL }, { "id", NULL }, { "x", NULL } };
	cliRecordsLayout layout = { NULL, sample, 3, 0 };
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliRecordsOut_Begin(&w, &out, cli_outputJson, &layout, NULL, 0);
	ck_assert(!cliRecordsOut_HasSummary(&w));
	cliRecord a = idOf(cli_idString, "a", 0);
	cliOutValue v[3] = { cliOutValue_Number(0.25), cliOutValue_Id(&a), cliOutValue_Number(-1.5) };
	cliRecordsOut_Record(&w, &out, 0, v);
	cliRecordsOut_Record(&w, &out, 1, v);
	cliRecordsOut_End(&w, &out, 2, NULL, 0);
	ck_assert_str_eq(text(&out), "[\n{\"t\":0.25,\"id\":\"a\",\"x\":-1.5},\n{\"t\":0.25,\"id\":\"a\",\"x\":-1.5}\n]\n");
	cliRecordsOut_Begin(&w, &out, cli_outputJson, &layout, NULL, 0);
	cliRecordsOut_End(&w, &out, 0, NULL, 0);
	ck_assert_str_eq(text(&out), "[]\n");
	cliBuffer_Free(&out);
}
END_TEST

/* Lists of vectors (a segment: two or none) and tied contacts. */
START_TEST(vectorsAndContacts)
{
	static const cliOutColumn pair[3] = { { "segment", "x0,y0,z0,x1,y1,z1" }, { "ties", NULL }, { "b", NULL } };
	cliRecordsLayout layout = { "pairs", pair, 3, 0 };
	bcVec3 segment[2] = { { 0.0, 1.0, 2.0 }, { 3.0, 4.0, 5.5 } };
	bcContact ties[2];
	memset(ties, 0, sizeof ties);
	ties[0].triangle = 2;
	ties[0].feature = bc_featureEdge;
	ties[0].vertexCount = 2;
	ties[0].vertices[0] = 1;
	ties[0].vertices[1] = 3;
	ties[0].alpha = 0.375;
	ties[0].normal = (bcVec3){ 0.0, 0.0, 1.0 };
	ties[1].triangle = 5;
	ties[1].feature = bc_featureVertex;
	ties[1].vertexCount = 1;
	ties[1].vertices[0] = 3;
	ties[1].alpha = 0.375;
	ties[1].normal = (bcVec3){ 0.0, -1.0, 0.0 };
	cliOutValue full[3] = { cliOutValue_Vecs(segment, 2), cliOutValue_Contacts(ties, 2), cliOutValue_Bool(true) };
	cliOutValue none[3] = { cliOutValue_Vecs(segment, 0), cliOutValue_Contacts(ties, 0), cliOutValue_Bool(false) };
	cliBuffer out = { 0 };
	cliRecordsOut w;
	cliRecordsOut_Begin(&w, &out, cli_outputNdjson, &layout, NULL, 0);
	cliRecordsOut_Record(&w, &out, 0, full);
	ck_assert_str_eq(text(&out), "{\"segment\":[[0,1,2],[3,4,5.5]],\"ties\":[{\"triangle\":2,\"feature\":\"edge\","
								 "\"vertices\":[1,3],\"alpha\":0.375,\"normal\":[0,0,1]},{\"triangle\":5,"
								 "\"feature\":\"vertex\",\"vertices\":[3],\"alpha\":0.375,\"normal\":[0,-1,0]}],"
								 "\"b\":true}\n");
	cliRecordsOut_Record(&w, &out, 1, none);
	ck_assert_str_eq(text(&out), "{\"segment\":[],\"ties\":[],\"b\":false}\n");
	cliRecordsOut_Begin(&w, &out, cli_outputCsv, &layout, NULL, 0);
	ck_assert_str_eq(text(&out), "x0,y0,z0,x1,y1,z1,ties,b\n");
	cliRecordsOut_Record(&w, &out, 0, full);
	ck_assert_str_eq(text(&out), "0,1,2,3,4,5.5,2:edge 5:vertex,true\n");
	cliRecordsOut_Record(&w, &out, 1, none);
	ck_assert_str_eq(text(&out), ",,,,,,,false\n");
	cliBuffer_Free(&out);
}
END_TEST

static Suite* recordsOutSuite(void)
{
	Suite* suite = suite_create("records_out");
	TCase* formats = tcase_create("formats");
	tcase_add_test(formats, jsonDocument);
	tcase_add_test(formats, ndjsonLines);
	tcase_add_test(formats, csvRows);
	tcase_add_test(formats, zeroRecords);
	tcase_add_test(formats, bareList);
	tcase_add_test(formats, vectorsAndContacts);
	suite_add_tcase(suite, formats);
	return suite;
}

int main(void)
{
	return bcRunSuite(recordsOutSuite());
}
