/* records.c - the one record reader: records (trajectories, balls) from a JSON array,
 * NDJSON or CSV (records.h). */
#include "records.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "sniff.h"

/* Deferred record text grows from this many bytes: a chunk of ordinary
 * records without a reallocation. */
#define CLI_RECORD_TEXT_INITIAL ((size_t)64 * 1024)

/* Lets the compiler check printf-style arguments. */
#if defined(__GNUC__)
#define CLI_PRINTF(formatIndex, firstArgument) __attribute__((format(printf, formatIndex, firstArgument)))
#else
#define CLI_PRINTF(formatIndex, firstArgument)
#endif

typedef enum cliReadState {
	cli_readStart = 0, /* nothing read: byte order mark, format detection */
	cli_readJson,      /* values of the JSON array or sequence */
	cli_readCsvRows,
	cli_readDone,      /* end of input: Next returns 0 */
	cli_readFailed     /* an error was returned: Next returns it again */
} cliReadState;

/* CSV columns the reader knows. */
typedef enum cliColumn {
	cli_columnId = 0,
	cli_columnX0, cli_columnY0, cli_columnZ0,
	cli_columnX1, cli_columnY1, cli_columnZ1,
	cli_columnX, cli_columnY, cli_columnZ,
	cli_columnVx, cli_columnVy, cli_columnVz,
	cli_columnR,
	cli_columnRadius,
	cli_columnMass,
	cli_columnFixed,
	cli_columnCount
} cliColumn;

static const char* const columnNames[cli_columnCount] = {
	"id", "x0", "y0", "z0", "x1", "y1", "z1", "x", "y", "z", "vx", "vy", "vz", "r", "radius", "mass", "fixed",
};

/* The four 3-vectors. */
static const cliCsvVector vectorFields[4] = {
	{ "p0", cli_columnX0, cli_fieldP0 },
	{ "p1", cli_columnX1, cli_fieldP1 },
	{ "p", cli_columnX, cli_fieldP },
	{ "v", cli_columnVx, cli_fieldVelocity },
};

/* Where vectorFields[k] goes in a record. */
static bcVec3* recordVector(cliRecord* record, int k)
{
	bcVec3* vectors[4] = { &record->p0, &record->p1, &record->p, &record->velocity };
	return vectors[k];
}

/* The JSON members read: first the four vectors (as in vectorFields). */
enum {
	cli_memberId = 4,
	cli_memberR,
	cli_memberRadius,
	cli_memberMass,
	cli_memberFixed,
	cli_memberCount
};

static const char* const memberKeys[cli_memberCount] = { "p0", "p1", "p", "v", "id", "r", "radius", "mass", "fixed" };
static const size_t memberKeyLengths[cli_memberCount] = { 2, 2, 1, 1, 2, 1, 6, 4, 5 };

struct cliReader {
	cliInput input;
	cliJsonStream json;
	cliCsv csv;
	cliInputFormat format;
	cliReadState state;
	long index;    /* records returned so far */
	bcError error; /* the error returned once state is cli_readFailed */
	/* CSV */
	int headerCount;
	int* columnKinds; /* per header cell: a cliColumn, or -1 when ignored */
	int columnOf[cli_columnCount]; /* header cell of each known column, or -1 */
	/* cliReader_Next: deferred records are parsed at once with these */
	cliRecordText text;
	cliJsonParser* parser;
	cliInputRange range; /* --shard: the records answered; zeroed: all */
};

/* ------------------------------------------------------------- records */

/* Keep the first error of a record only, with where it is. */
CLI_PRINTF(4, 5) static void recordError(cliRecord* record, long line, long column, const char* format, ...)
{
	if (record->error[0] != '\0') {
		return;
	}
	record->errorLine = line;
	record->errorColumn = column;
	va_list args;
	va_start(args, format);
	vsnprintf(record->error, sizeof record->error, format, args);
	va_end(args);
	if (record->error[0] == '\0') {
		snprintf(record->error, sizeof record->error, "malformed record");
	}
}

static void outOfMemory(bcError* error)
{
	memset(error, 0, sizeof *error);
	error->code = bc_errorNoMemory;
	error->record = -1;
	snprintf(error->message, sizeof error->message, "out of memory");
}

void cliRecord_Free(cliRecord* record)
{
	if (record == NULL) {
		return;
	}
	free(record->id);
	memset(record, 0, sizeof *record);
}

void cliRecordText_Clear(cliRecordText* text)
{
	text->length = 0;
}

void cliRecordText_Free(cliRecordText* text)
{
	free(text->data);
	memset(text, 0, sizeof *text);
}

static bool appendText(cliRecordText* text, const char* s, size_t n)
{
	if (text->capacity - text->length < n) {
		size_t capacity = text->capacity > 0 ? text->capacity : CLI_RECORD_TEXT_INITIAL;
		while (capacity - text->length < n) {
			capacity *= 2;
		}
		char* data = realloc(text->data, capacity);
		if (data == NULL) {
			return false;
		}
		text->data = data;
		text->capacity = capacity;
	}
	memcpy(text->data + text->length, s, n);
	text->length += n;
	return true;
}

/* ---------------------------------------------------------------- JSON */

/* A record's parsed JSON value: the parser kept every place, so that the
 * text is not read again. */
typedef struct cliRecordSource {
	const cJSON* root;
} cliRecordSource;

/* An error at the value of member (or at the record when NULL). */
CLI_PRINTF(4, 5)
static void memberError(const cliRecordSource* source, cliRecord* record, const cJSON* member, const char* format, ...)
{
	if (record->error[0] != '\0') {
		return;
	}
	long line, column;
	cliJsonNodePosition(source->root, member, record->line, record->column, &line, &column);
	char message[sizeof record->error];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	recordError(record, line, column, "%s", message);
}

/* The first member of a record's object named "id" (decoded: "i\u0064"
 * is one), or NULL. */
static const cJSON* idMember(const cJSON* root)
{
	return cliJsonMember(root, "id");
}

const char* cliJsonRecordId(const char* text, size_t length, const cJSON* member, cliJsonParser* parser,
							cliIdKind* kind, char** id, bool* noMemory)
{
	*kind = cli_idIndex;
	*id = NULL;
	*noMemory = false;
	bool given = member != NULL;
	if (!given) {
		/* a text that is not JSON: the id read whole before the problem */
		const cJSON* partial = parser != NULL ? cliJsonParser_PartialValue(parser, text, length, noMemory) : NULL;
		member = partial != NULL ? idMember(partial) : NULL;
		if (member == NULL) {
			return NULL;
		}
	}
	bool string = cJSON_IsString(member);
	if (!string && !cJSON_IsNumber(member)) {
		return given ? "id: expected a string or a number" : NULL;
	}
	if (string && cliJsonStringHasNul(member)) {
		/* a NUL would cut the id short */
		return given ? "id: contains \\u0000, which cannot be echoed" : NULL;
	}
	size_t n = 0;
	const char* bytes = string ? member->valuestring : cliJsonRawText(member, &n);
	n = string ? cliJsonStringLength(member) : n;
	*id = cliCopyText(bytes, n);
	*noMemory = *id == NULL;
	*kind = *id == NULL ? cli_idIndex : string ? cli_idString : cli_idNumber;
	return NULL;
}

/* The record's id from the "id" member. False when out of memory. */
static bool jsonId(const cliRecordSource* source, cliRecord* record, const cJSON* member)
{
	bool noMemory = false;
	const char* problem = cliJsonRecordId(NULL, 0, member, NULL, &record->idKind, &record->id, &noMemory);
	if (problem != NULL) {
		memberError(source, record, member, "%s", problem);
	}
	return !noMemory;
}

/* A finite number from member; false (with a record error) otherwise. */
static bool jsonNumber(const cliRecordSource* source, cliRecord* record, const cJSON* member, const char* key,
					   double* value)
{
	const char* problem = cliJsonNumberValue(member, value);
	if (problem != NULL) {
		memberError(source, record, member, "%s: %s", key, problem);
	}
	return problem == NULL;
}

static bool jsonVector(const cliRecordSource* source, cliRecord* record, const cJSON* member, const char* key,
					   bcVec3* vector)
{
	const cJSON* at = member;
	const char* problem = cliJsonVec3Value(member, vector, &at);
	if (problem != NULL) {
		memberError(source, record, at, "%s: %s", key, problem);
	}
	return problem == NULL;
}

/* The slot of memberKeys that member's key names (decoded whole: a key
 * holding \u0000 names none), or cli_memberCount. */
static int memberSlot(const cJSON* member)
{
	const char* key = member->string;
	size_t length = cliJsonKeyLength(member);
	for (int slot = 0; slot < cli_memberCount; ++slot) {
		if (key[0] == memberKeys[slot][0] && memberKeyLengths[slot] == length && memcmp(key, memberKeys[slot], length) == 0) {
			return slot;
		}
	}
	return cli_memberCount;
}

/* Has the record a member named "r"? ("radius" counts only without one.) */
static bool hasR(const cJSON* item)
{
	for (const cJSON* member = item->child; member != NULL; member = member->next) {
		if (memberSlot(member) == cli_memberR) {
			return true;
		}
	}
	return false;
}

/* Fill record from the parsed value item. Members are read in document
 * order; a repeated key counts once (the first, as cJSON's lookups do); a
 * key holding \u0000 names nothing. False when out of memory. */
static bool jsonRecord(const cliRecordSource* source, cliRecord* record)
{
	const cJSON* item = source->root;
	if (!cJSON_IsObject(item)) {
		recordError(record, record->line, record->column, "record is not a JSON object");
		return true;
	}
	unsigned seen = 0; /* bit k: memberKeys[k] was read */
	for (const cJSON* member = item->child; member != NULL; member = member->next) {
		int slot = memberSlot(member);
		if (slot == cli_memberCount || (seen & (1u << (unsigned)slot)) != 0) {
			continue;
		}
		seen |= 1u << (unsigned)slot;
		const char* key = memberKeys[slot];
		double value = 0.0;
		if (slot < 4) {
			if (jsonVector(source, record, member, key, recordVector(record, slot))) {
				record->fields |= vectorFields[slot].field;
			}
		} else if (slot == cli_memberId) {
			if (!jsonId(source, record, member)) {
				return false;
			}
		} else if (slot == cli_memberFixed) {
			if (cJSON_IsBool(member)) {
				record->fixed = cJSON_IsTrue(member);
				record->fields |= cli_fieldFixed;
			} else {
				memberError(source, record, member, "fixed: expected true or false");
			}
		} else if (slot == cli_memberMass) {
			if (jsonNumber(source, record, member, key, &value)) {
				if (value <= 0.0) {
					memberError(source, record, member, "mass: must be positive");
				} else {
					record->mass = value;
					record->fields |= cli_fieldMass;
				}
			}
		} else if (slot == cli_memberR || !hasR(item)) {
			/* "radius" counts only without "r", wherever "r" stands */
			if (jsonNumber(source, record, member, key, &value)) {
				if (value < 0.0) {
					memberError(source, record, member, "%s: must not be negative", key);
				} else {
					record->radius = value;
					record->fields |= cli_fieldRadius;
				}
			}
		}
	}
	return true;
}

/* A JSON record that is not JSON: its error at the problem, its id if one
 * was read whole before the problem. False when out of memory. */
static bool badJson(cliRecord* record, const char* text, size_t length, long line, long column, const char* message,
					cliJsonParser* parser)
{
	recordError(record, line, column, "%s", message);
	bool noMemory = false;
	cliJsonRecordId(text, length, NULL, parser, &record->idKind, &record->id, &noMemory);
	return !noMemory;
}

int cliRecord_Parse(cliRecord* record, const cliRecordText* text, cliJsonParser* parser, bcError* error)
{
	if (record->deferredLength == 0) {
		return 1;
	}
	const char* s = text->data + record->deferredOffset;
	size_t n = record->deferredLength;
	record->deferredLength = 0;
	record->deferredOffset = 0;
	size_t offset = 0;
	char message[sizeof record->error];
	cliRecordSource source = { NULL };
	source.root = cliJsonParser_Parse(parser, s, n, &offset, message, sizeof message);
	bool ok;
	if (source.root != NULL) {
		ok = jsonRecord(&source, record);
	} else if (offset == SIZE_MAX) {
		ok = false;
	} else {
		long line, column;
		cliJsonParser_ProblemPosition(parser, record->line, record->column, &line, &column);
		ok = badJson(record, s, n, line, column, message, parser);
	}
	if (!ok) {
		cliRecord_Free(record);
		outOfMemory(error);
		return -1;
	}
	return 1;
}

/* ----------------------------------------------------------------- CSV */

/* Read the header row: which cell holds which known column. */
static int csvHeader(cliReader* reader, bcError* error)
{
	cliCsv* csv = &reader->csv;
	bcError problem;
	int status = cliCsv_Next(csv, &problem, error);
	if (status == 2) {
		*error = problem;
		return -1;
	}
	if (status <= 0) {
		return status; /* 0: the input ends before a header row: no records */
	}
	int count = csv->count;
	reader->columnKinds = malloc((size_t)count * sizeof *reader->columnKinds);
	if (reader->columnKinds == NULL) {
		outOfMemory(error);
		return -1;
	}
	reader->headerCount = count;
	if (cliCsv_MapHeader(csv, columnNames, cli_columnCount, reader->columnOf, error) < 0) {
		return -1;
	}
	cliKeepWholeVectors(reader->columnOf, vectorFields, 4);
	for (int j = 0; j < count; j++) {
		reader->columnKinds[j] = -1;
	}
	for (int k = 0; k < cli_columnCount; k++) {
		if (reader->columnOf[k] >= 0) {
			reader->columnKinds[reader->columnOf[k]] = k;
		}
	}
	bool usable = false;
	for (int j = 0; j < count; j++) {
		usable = usable || reader->columnKinds[j] >= 0;
	}
	if (!usable) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorSyntax;
		error->record = -1;
		error->line = csv->line;
		error->column = csv->column;
		snprintf(error->message, sizeof error->message,
				 "no known column in the CSV header (cells separated by %s; expected id, x0,y0,z0, x1,y1,z1, x,y,z, "
				 "r or radius, mass, vx,vy,vz, fixed)",
				 cliSeparatorName(csv->separator));
		cliNameObjAsRecords(cliCsv_Text(csv, 0), error->message, sizeof error->message);
		return -1;
	}
	return 1;
}

/* The number in cell j: 1, 0 for an empty cell, -1 (with a record error)
 * if malformed. */
static int cellNumber(const cliCsv* csv, int j, const char* name, cliRecord* record, double* value)
{
	bcError problem;
	int status = cliCsv_Field(csv, j, name, value, &problem);
	if (status < 0) {
		recordError(record, problem.line, problem.column, "%s", problem.message);
	}
	return status;
}

static bool isBlankCell(const cliCsv* csv, int j)
{
	const char* text = cliCsv_Text(csv, j);
	while (*text == ' ' || *text == '\t' || *text == '\r') {
		text++;
	}
	return *text == '\0';
}

/* The record's id from cell j (none when it is empty). False when out of
 * memory. */
static bool csvId(const cliCsv* csv, int j, cliRecord* record)
{
	const char* text = cliCsv_Text(csv, j);
	size_t length = csv->cells[j].length;
	if (length == 0 || strlen(text) != length) {
		return true; /* empty, or holding a NUL (a bad row) */
	}
	record->id = cliCopyText(text, length);
	record->idKind = cliIsJsonNumber(text, length) ? cli_idNumber : cli_idString;
	return record->id != NULL;
}

/* The fixed cell j: true, false, 1 or 0 (blanks around it allowed; an
 * empty cell says nothing). False if it is anything else. */
static bool csvFixed(const cliCsv* csv, int j, cliRecord* record)
{
	const char* text = cliCsv_Text(csv, j);
	size_t length = csv->cells[j].length;
	while (length > 0 && (*text == ' ' || *text == '\t')) {
		text++;
		length--;
	}
	while (length > 0 && (text[length - 1] == ' ' || text[length - 1] == '\t' || text[length - 1] == '\r')) {
		length--;
	}
	static const struct {
		const char* text;
		bool value;
	} words[] = { { "true", true }, { "false", false }, { "1", true }, { "0", false } };
	if (length == 0) {
		return true;
	}
	for (size_t k = 0; k < sizeof words / sizeof words[0]; ++k) {
		if (strlen(words[k].text) == length && memcmp(text, words[k].text, length) == 0) {
			record->fixed = words[k].value;
			record->fields |= cli_fieldFixed;
			return true;
		}
	}
	return false;
}

/* Fill record from the row. Cells are checked left to right, so the first
 * error kept is the leftmost. A row with too few or too many cells is an
 * error, but keeps its id when it has the id's cell (cells are taken by
 * position). False when out of memory. */
static bool csvRecord(cliReader* reader, cliRecord* record)
{
	const cliCsv* csv = &reader->csv;
	int idColumn = reader->columnOf[cli_columnId];
	if (csv->count != reader->headerCount) {
		if (csv->count > reader->headerCount) {
			int j = reader->headerCount;
			recordError(record, csv->cells[j].line, csv->cells[j].column, "expected %d cells, found %d",
						reader->headerCount, csv->count);
		} else {
			recordError(record, csv->endLine, csv->endColumn, "expected %d cells, found %d", reader->headerCount,
						csv->count);
		}
		return idColumn < 0 || idColumn >= csv->count || csvId(csv, idColumn, record);
	}
	double values[cli_columnCount] = { 0 };
	int present[cli_columnCount] = { 0 };
	int rColumn = reader->columnOf[cli_columnR];
	bool rGiven = rColumn >= 0 && !isBlankCell(csv, rColumn);
	for (int j = 0; j < csv->count; j++) {
		int kind = reader->columnKinds[j];
		if (kind < 0 || (kind == cli_columnRadius && rGiven)) {
			continue;
		}
		if (kind == cli_columnId) {
			if (!csvId(csv, j, record)) {
				return false;
			}
			continue;
		}
		if (kind == cli_columnFixed) {
			if (!csvFixed(csv, j, record)) {
				recordError(record, csv->cells[j].line, csv->cells[j].column,
							"fixed: expected true, false, 1 or 0");
			}
			continue;
		}
		double value = 0.0;
		int status = cellNumber(csv, j, columnNames[kind], record, &value);
		if (status == 0 && kind >= cli_columnX0 && kind <= cli_columnVz) {
			/* an empty coordinate: its two siblings must be empty too */
			const cliCsvVector* f = vectorFields + (kind - cli_columnX0) / 3;
			bool partial = false;
			for (int a = 0; a < 3; a++) {
				partial = partial || !isBlankCell(csv, reader->columnOf[f->first + a]);
			}
			if (partial) {
				const char* const* names = columnNames + f->first;
				recordError(record, csv->cells[j].line, csv->cells[j].column,
							"%s: %s, %s and %s must be all given or all empty", f->key, names[0], names[1], names[2]);
				status = -1;
			}
		}
		if (status > 0 && (kind == cli_columnR || kind == cli_columnRadius) && value < 0.0) {
			recordError(record, csv->cells[j].line, csv->cells[j].column, "%s: must not be negative",
						columnNames[kind]);
			status = -1;
		}
		if (status > 0 && kind == cli_columnMass && value <= 0.0) {
			recordError(record, csv->cells[j].line, csv->cells[j].column, "mass: must be positive");
			status = -1;
		}
		values[kind] = value;
		present[kind] = status;
	}
	for (int k = 0; k < 4; k++) {
		const cliCsvVector* f = vectorFields + k;
		const int* given = present + f->first;
		if (reader->columnOf[f->first] >= 0 && given[0] + given[1] + given[2] == 3) {
			bcVec3* v = recordVector(record, k);
			v->x = values[f->first];
			v->y = values[f->first + 1];
			v->z = values[f->first + 2];
			record->fields |= f->field;
		}
	}
	int radius = present[cli_columnR] != 0 ? cli_columnR : cli_columnRadius;
	if (present[radius] == 1) {
		record->radius = values[radius];
		record->fields |= cli_fieldRadius;
	}
	if (present[cli_columnMass] == 1) {
		record->mass = values[cli_columnMass];
		record->fields |= cli_fieldMass;
	}
	return true;
}

/* ---------------------------------------------------------- the reader */

cliReader* cliReader_Create(FILE* stream, const char* name, cliInputFormat format)
{
	(void)name;
	cliReader* reader = calloc(1, sizeof *reader);
	if (reader == NULL) {
		return NULL;
	}
	if (!cliInput_Open(&reader->input, stream) || !cliJsonStream_Open(&reader->json, &reader->input)) {
		cliReader_Destroy(reader);
		return NULL;
	}
	cliCsv_Open(&reader->csv, &reader->input);
	reader->format = format;
	return reader;
}

void cliReader_Destroy(cliReader* reader)
{
	if (reader == NULL) {
		return;
	}
	cliJsonStream_Close(&reader->json);
	cliCsv_Close(&reader->csv);
	cliInput_Close(&reader->input);
	free(reader->columnKinds);
	cliRecordText_Free(&reader->text);
	cliJsonParser_Destroy(reader->parser);
	free(reader);
}

cliInputFormat cliReader_GetFormat(const cliReader* reader)
{
	return reader->format;
}

bool cliReader_IsInputReady(const cliReader* reader)
{
	return cliInput_IsReady(&reader->input);
}

double cliReader_Progress(const cliReader* reader)
{
	return cliInput_Progress(&reader->input);
}

void cliReader_SetKeepWaiting(cliReader* reader, cliKeepWaitingFcn* keepWaiting, void* context)
{
	reader->input.keepWaiting = keepWaiting;
	reader->input.keepWaitingContext = context;
}

/* Fail for good: keep the error for later calls. */
static int fail(cliReader* reader, bcError* error)
{
	error->record = -1;
	reader->error = *error;
	reader->error.record = -1;
	reader->state = cli_readFailed;
	return -1;
}

/* Skip a UTF-8 byte order mark and blank space, then pick the format from
 * the first byte. */
static int detect(cliReader* reader, bcError* error)
{
	cliInput* in = &reader->input;
	int status = cliInput_SkipByteOrderMark(in, error);
	if (status > 0) {
		status = cliInput_SkipSpace(in, error);
	}
	if (status < 0) {
		return fail(reader, error);
	}
	if (status == 0) {
		/* Nothing but blanks: no records, in any format (an empty stage of
		 * a pipeline is an empty batch, as for jq and mlr). Read as
		 * NDJSON, an empty stream of lines, unless a format was named. */
		if (reader->format == cli_inputAuto) {
			reader->format = cli_inputNdjson;
		}
		reader->state = cli_readDone;
		return 1;
	}
	char first = in->buffer[in->start];
	if (reader->format == cli_inputAuto) {
		reader->format = first == '[' ? cli_inputJson : first == '{' ? cli_inputNdjson : cli_inputCsv;
	}
	switch (reader->format) {
	case cli_inputJson:
		if (first != '[') {
			cliInput_SyntaxError(in, 0, "expected '[' at the start of a JSON array", error);
			return fail(reader, error);
		}
		cliJsonStream_Enter(&reader->json, error);
		reader->state = cli_readJson;
		return 1;
	case cli_inputNdjson:
		reader->state = cli_readJson;
		return 1;
	default:
		/* the separator is the header's, as grade reads students' files: ',', ';' (and
		 * decimal commas), a tab (and decimal commas) or '|' (and decimal commas) */
		reader->csv.separator = cliCsv_SniffSeparator(&reader->csv, error);
		if (reader->csv.separator == '\0') {
			return fail(reader, error);
		}
		reader->csv.decimalComma = reader->csv.separator != ',';
		status = csvHeader(reader, error);
		if (status < 0) {
			return fail(reader, error);
		}
		reader->state = status > 0 ? cli_readCsvRows : cli_readDone;
		return 1;
	}
}

/* The next JSON value as a record: deferred into text unless bad. */
static int nextJson(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error)
{
	int status = cliJsonStream_Next(&reader->json, error);
	if (status == 0 && reader->format == cli_inputJson) {
		status = cliJsonStream_Finish(&reader->json, "unexpected data after the closing ']'", error);
		reader->state = cli_readDone;
		return status < 0 ? fail(reader, error) : 0;
	}
	if (status <= 0) {
		reader->state = cli_readDone;
		return status < 0 ? fail(reader, error) : 0;
	}
	cliJsonSpan span;
	if (cliJsonStream_Take(&reader->json, &span, error) < 0) {
		return fail(reader, error);
	}
	record->index = reader->index++;
	record->line = span.line;
	record->column = span.column;
	if (span.bad) {
		if (reader->parser == NULL && (reader->parser = cliJsonParser_Create()) == NULL) {
			outOfMemory(error);
			return fail(reader, error);
		}
		if (!badJson(record, span.text, span.length, span.problem.line, span.problem.column, span.problem.message,
					 reader->parser)) {
			outOfMemory(error);
			return fail(reader, error);
		}
		return 1;
	}
	record->deferredOffset = text->length;
	record->deferredLength = span.length;
	if (!appendText(text, span.text, span.length)) {
		outOfMemory(error);
		return fail(reader, error);
	}
	return 1;
}

static int nextCsv(cliReader* reader, cliRecord* record, bcError* error)
{
	bcError problem;
	int status = cliCsv_Next(&reader->csv, &problem, error);
	if (status <= 0) {
		reader->state = cli_readDone;
		return status < 0 ? fail(reader, error) : 0;
	}
	record->index = reader->index++;
	record->line = reader->csv.line;
	record->column = reader->csv.column;
	bool ok;
	if (status == 2) {
		/* name the column whose cell holds bytes that are not UTF-8 */
		int cell = reader->csv.problemCell;
		int kind = cell >= 0 && cell < reader->headerCount ? reader->columnKinds[cell] : -1;
		cliCsv_DescribeProblem(&reader->csv, kind >= 0 ? columnNames[kind] : NULL, &problem);
		recordError(record, problem.line, problem.column, "%s", problem.message);
		int idColumn = reader->columnOf[cli_columnId];
		ok = reader->csv.count != reader->headerCount || idColumn < 0 || csvId(&reader->csv, idColumn, record);
	} else {
		ok = csvRecord(reader, record);
	}
	if (!ok) {
		cliRecord_Free(record);
		outOfMemory(error);
		return fail(reader, error);
	}
	return 1;
}

void cliReader_SetRange(cliReader* reader, const cliInputRange* range)
{
	reader->range = *range;
}

static int nextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error);

int cliReader_NextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error)
{
	for (;;) {
		size_t kept = text->length;
		int status = nextDeferred(reader, record, text, error);
		if (status <= 0 || cliInputRange_Holds(&reader->range, record->line, record->column)) {
			return status;
		}
		/* outside the shard: before it, read on; after it, the end */
		bool after = reader->range.endLine > 0 && (record->line > reader->range.endLine ||
												   (record->line == reader->range.endLine &&
													record->column >= reader->range.endColumn));
		cliRecord_Free(record);
		text->length = kept;
		if (after) {
			reader->state = cli_readDone;
			return 0;
		}
	}
}

static int nextDeferred(cliReader* reader, cliRecord* record, cliRecordText* text, bcError* error)
{
	memset(record, 0, sizeof *record);
	bcError scratch;
	if (error == NULL) {
		error = &scratch;
	}
	if (reader->state == cli_readStart && detect(reader, error) < 0) {
		return -1;
	}
	switch (reader->state) {
	case cli_readJson:
		return nextJson(reader, record, text, error);
	case cli_readCsvRows:
		return nextCsv(reader, record, error);
	case cli_readDone:
		return 0;
	default:
		*error = reader->error;
		return -1;
	}
}

int cliReader_Next(cliReader* reader, cliRecord* record, bcError* error)
{
	bcError scratch;
	if (error == NULL) {
		error = &scratch;
	}
	cliRecordText_Clear(&reader->text);
	int status = cliReader_NextDeferred(reader, record, &reader->text, error);
	if (status <= 0 || record->deferredLength == 0) {
		return status;
	}
	if (reader->parser == NULL && (reader->parser = cliJsonParser_Create()) == NULL) {
		cliRecord_Free(record);
		outOfMemory(error);
		return fail(reader, error);
	}
	if (cliRecord_Parse(record, &reader->text, reader->parser, error) < 0) {
		return fail(reader, error);
	}
	return 1;
}

int cliReader_Detect(cliReader* reader, bcError* error)
{
	if (reader->state == cli_readFailed) {
		*error = reader->error;
		return -1;
	}
	return reader->state == cli_readStart ? detect(reader, error) : 1;
}
