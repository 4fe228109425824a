/* fuzz_records.c - libFuzzer target: the record reader (cli/records.c,
 * on the JSON front end and the CSV reader) over arbitrary bytes, read to
 * the end with each input format in turn: auto, json, ndjson and csv.
 *
 * Properties:
 *  - cliReader_Next returns 1, 0 or -1; after 0 or -1 it keeps returning
 *    the same (and the same error);
 *  - an error has a code and a message; a syntax error points at a real
 *    place: line 1 .. the number of lines, column 1 .. that line's length
 *    + 1 (bytes, counted after a byte order mark on line 1);
 *  - records are numbered 0, 1, 2 ... and start at a real place; a bad
 *    record's error is at a real place too; a record
 *    without an error carries only finite numbers, r >= 0 and mass > 0 when
 *    given; an id is present exactly when idKind says so, and a number id is
 *    a JSON number (it is echoed unquoted into JSON output); ids and errors
 *    are valid UTF-8 (JSON output must be), errors without control bytes;
 *  - auto detection reads exactly what the format it detects reads: the
 *    same records, fields, ids and errors;
 *  - NULs do not cut text short: with every NUL byte turned into a control
 *    byte c the input holds nowhere and every \u0000 escape into c's escape
 *    (bcFuzzWithoutNuls: the same lengths, so the same places),
 *    an input read to its end without a document error still is, in the same
 *    format, and every record it accepted is accepted again with the same
 *    place, fields and numbers, and an id of the same kind and length. */
#include "fuzz.h"
#include "records.h"

/* Records compared between auto detection and the explicit format; fuzzer
 * inputs are small, so this is never reached in practice. */
#define BC_RECORDS_FUZZ_MAX 100000

/* What one read produced, kept to compare two readings. */
typedef struct bcReadLog {
	cliRecord* records;
	long count;
	long capacity;
	int end;       /* 0 or -1: how the reading ended */
	bcError error; /* when end is -1 */
	cliInputFormat format;
} bcReadLog;

static void checkRecord(const char* text, size_t size, const cliRecord* record, long index, cliInputFormat format)
{
	BC_FUZZ_CHECK(record->index == index, "format %d: record %ld numbered %ld", (int)format, index, record->index);
	BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, record->line, record->column),
				  "format %d: record %ld starts at line %ld column %ld, outside the input", (int)format, index,
				  record->line, record->column);
	BC_FUZZ_CHECK((record->idKind == cli_idIndex) == (record->id == NULL), "format %d: idKind %d with id %s",
				  (int)format, (int)record->idKind, record->id != NULL ? record->id : "NULL");
	if (record->idKind == cli_idNumber) {
		BC_FUZZ_CHECK(bcFuzzIsJsonNumber(record->id, strlen(record->id)), "format %d: number id '%s' is not a JSON number",
					  (int)format, record->id);
	}
	BC_FUZZ_CHECK(memchr(record->error, '\0', sizeof record->error) != NULL, "record error not terminated");
	/* echoed into JSON output, which must be UTF-8 */
	BC_FUZZ_CHECK(record->id == NULL || bcFuzzIsUtf8(record->id, strlen(record->id), false),
				  "format %d: record %ld's id is not valid UTF-8", (int)format, index);
	BC_FUZZ_CHECK(bcFuzzIsUtf8(record->error, strlen(record->error), true),
				  "format %d: record %ld's error is not valid UTF-8 or holds a control byte: %s", (int)format, index,
				  record->error);
	if (record->error[0] != '\0') {
		BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, record->errorLine, record->errorColumn),
					  "format %d: record %ld's error '%s' at line %ld column %ld, outside the input", (int)format, index,
					  record->error, record->errorLine, record->errorColumn);
		return;
	}
	const bcVec3* vectors[4] = { &record->p0, &record->p1, &record->p, &record->velocity };
	const unsigned flags[4] = { cli_fieldP0, cli_fieldP1, cli_fieldP, cli_fieldVelocity };
	for (int k = 0; k < 4; ++k) {
		if (record->fields & flags[k]) {
			BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(*vectors[k]), "format %d: record %ld: vector %d not finite", (int)format,
						  index, k);
		} else {
			BC_FUZZ_CHECK(vectors[k]->x == 0.0 && vectors[k]->y == 0.0 && vectors[k]->z == 0.0,
						  "format %d: record %ld: absent vector %d is not zero", (int)format, index, k);
		}
	}
	if (record->fields & cli_fieldRadius) {
		BC_FUZZ_CHECK(isfinite(record->radius) && record->radius >= 0.0, "format %d: record %ld: r = %.17g",
					  (int)format, index, record->radius);
	} else {
		BC_FUZZ_CHECK(record->radius == 0.0, "absent r is %.17g", record->radius);
	}
	if (record->fields & cli_fieldMass) {
		BC_FUZZ_CHECK(isfinite(record->mass) && record->mass > 0.0, "format %d: record %ld: mass = %.17g",
					  (int)format, index, record->mass);
	} else {
		BC_FUZZ_CHECK(record->mass == 0.0, "absent mass is %.17g", record->mass);
	}
}

/* Read text to the end with format, checking as it goes; log what came. */
static void readAll(const char* text, size_t size, cliInputFormat format, bcReadLog* log)
{
	memset(log, 0, sizeof *log);
	/* glibc takes a zero size (since 2.22), not a NULL buffer */
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	cliReader* reader = cliReader_Create(stream, "fuzz", format);
	BC_FUZZ_CHECK(reader != NULL, "cliReader_Create failed");
	for (;;) {
		cliRecord record;
		bcError error;
		int status = cliReader_Next(reader, &record, &error);
		BC_FUZZ_CHECK(status == 1 || status == 0 || status == -1, "cliReader_Next returned %d", status);
		if (status == 1) {
			checkRecord(text, size, &record, log->count, format);
			if (log->count == log->capacity && log->count < BC_RECORDS_FUZZ_MAX) {
				long capacity = log->capacity > 0 ? 2 * log->capacity : 16;
				cliRecord* records = realloc(log->records, (size_t)capacity * sizeof *records);
				BC_FUZZ_CHECK(records != NULL, "out of memory");
				log->records = records;
				log->capacity = capacity;
			}
			if (log->count < log->capacity) {
				log->records[log->count] = record;
			} else {
				cliRecord_Free(&record);
			}
			log->count += 1;
			continue;
		}
		log->end = status;
		log->format = cliReader_GetFormat(reader);
		if (status == -1) {
			log->error = error;
			BC_FUZZ_CHECK(error.code != bc_errorNone && error.message[0] != '\0',
						  "format %d: an error with code %d and message '%s'", (int)format, (int)error.code,
						  error.message);
			BC_FUZZ_CHECK(bcFuzzIsUtf8(error.message, strlen(error.message), true),
						  "format %d: the error is not valid UTF-8 or holds a control byte: %s", (int)format,
						  error.message);
			if (error.code == bc_errorSyntax) {
				BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, error.line, error.column),
							  "format %d: syntax error at line %ld column %ld, outside the input: %s", (int)format,
							  error.line, error.column, error.message);
			}
		}
		/* The end is sticky, and so is the error. */
		bcError again;
		int next = cliReader_Next(reader, &record, &again);
		BC_FUZZ_CHECK(next == status, "format %d: after %d, cliReader_Next returned %d", (int)format, status, next);
		if (status == -1) {
			BC_FUZZ_CHECK(again.code == error.code && again.line == error.line && again.column == error.column &&
							  strcmp(again.message, error.message) == 0,
						  "format %d: the error changed from %ld:%ld %s to %ld:%ld %s", (int)format, error.line,
						  error.column, error.message, again.line, again.column, again.message);
		}
		cliRecord_Free(&record);
		break;
	}
	BC_FUZZ_CHECK(log->format != cli_inputAuto || (log->end == -1 && log->count == 0),
				  "the format is still auto after %ld records and the end", log->count);
	cliReader_Destroy(reader);
	fclose(stream);
}

static void freeLog(bcReadLog* log)
{
	long kept = log->count < log->capacity ? log->count : log->capacity;
	for (long i = 0; i < kept; ++i) {
		cliRecord_Free(log->records + i);
	}
	free(log->records);
}

static bool sameRecord(const cliRecord* a, const cliRecord* b)
{
	return a->index == b->index && a->line == b->line && a->column == b->column && a->idKind == b->idKind &&
		   (a->id == NULL ? b->id == NULL : b->id != NULL && strcmp(a->id, b->id) == 0) && a->fields == b->fields &&
		   bcFuzzSameVec3(a->p0, b->p0) && bcFuzzSameVec3(a->p1, b->p1) && bcFuzzSameVec3(a->p, b->p) &&
		   bcFuzzSameVec3(a->velocity, b->velocity) && bcFuzzSameBits(a->radius, b->radius) &&
		   bcFuzzSameBits(a->mass, b->mass) && strcmp(a->error, b->error) == 0 && a->errorLine == b->errorLine &&
		   a->errorColumn == b->errorColumn;
}

/* The NUL probe: text read again with its NULs masked (see above). */
static void checkWithoutNuls(const char* text, size_t size, const bcReadLog* first)
{
	if (first->end != 0) {
		return;
	}
	char* probe = bcFuzzWithoutNuls(text, size);
	if (probe == NULL) {
		return;
	}
	bcReadLog other;
	readAll(probe, size, cli_inputAuto, &other);
	free(probe);
	BC_FUZZ_CHECK(other.end == 0 && other.format == first->format && other.count == first->count,
				  "read to the end as format %d (%ld records), but with its NULs turned into a control byte: end %d, format %d, "
				  "%ld records: %ld:%ld %s",
				  (int)first->format, first->count, other.end, (int)other.format, other.count, other.error.line,
				  other.error.column, other.error.message);
	long kept = first->count < first->capacity ? first->count : first->capacity;
	for (long i = 0; i < kept; ++i) {
		const cliRecord* a = first->records + i;
		const cliRecord* b = other.records + i;
		if (a->error[0] != '\0') {
			continue;
		}
		bool sameId = a->idKind == b->idKind && (a->id == NULL) == (b->id == NULL) &&
					  (a->id == NULL || strlen(a->id) == strlen(b->id));
		BC_FUZZ_CHECK(b->error[0] == '\0' && sameId && a->line == b->line && a->column == b->column &&
						  a->fields == b->fields && bcFuzzSameVec3(a->p0, b->p0) && bcFuzzSameVec3(a->p1, b->p1) &&
						  bcFuzzSameVec3(a->p, b->p) && bcFuzzSameVec3(a->velocity, b->velocity) &&
						  bcFuzzSameBits(a->radius, b->radius) && bcFuzzSameBits(a->mass, b->mass),
					  "record %ld reads differently with its NULs turned into a control byte (error '%s')", i, b->error);
	}
	freeLog(&other);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const char* text = (const char*)data;
	bcReadLog detected;
	readAll(text, size, cli_inputAuto, &detected);
	static const cliInputFormat explicitFormats[] = { cli_inputJson, cli_inputNdjson, cli_inputCsv };
	for (size_t k = 0; k < sizeof explicitFormats / sizeof explicitFormats[0]; ++k) {
		bcReadLog log;
		readAll(text, size, explicitFormats[k], &log);
		if (explicitFormats[k] == detected.format) {
			BC_FUZZ_CHECK(log.count == detected.count && log.end == detected.end,
						  "auto read %ld records (end %d), format %d read %ld (end %d)", detected.count, detected.end,
						  (int)explicitFormats[k], log.count, log.end);
			long kept = log.count < log.capacity ? log.count : log.capacity;
			for (long i = 0; i < kept; ++i) {
				BC_FUZZ_CHECK(sameRecord(log.records + i, detected.records + i),
							  "record %ld differs between auto and format %d", i, (int)explicitFormats[k]);
			}
			if (log.end == -1) {
				BC_FUZZ_CHECK(log.error.code == detected.error.code && log.error.line == detected.error.line &&
								  log.error.column == detected.error.column &&
								  strcmp(log.error.message, detected.error.message) == 0,
							  "auto: %ld:%ld %s; format %d: %ld:%ld %s", detected.error.line, detected.error.column,
							  detected.error.message, (int)explicitFormats[k], log.error.line, log.error.column,
							  log.error.message);
			}
		}
		freeLog(&log);
	}
	checkWithoutNuls(text, size, &detected);
	freeLog(&detected);
	return 0;
}
