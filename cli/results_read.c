/* results_read.c - a results file read back for compare, render and
 * grading (results_read.h): the set of results, which format the file is
 * (JSON, NDJSON or CSV, handed to results_json.c or results_csv.c), what the
 * reading understood, and the keys that match results by id. */
#include "results_read.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "input.h"
#include "json_stream.h"
#include "output.h"
#include "results_csv.h"
#include "results_json.h"
#include "results_parse.h"

/* Decimal exponents of number ids are clamped to +-this: ids beyond 1e(10^15)
 * are not worth a big-number library, and no double comes near. */
#define CLI_EXPONENT_LIMIT 1000000000000000LL

/* ------------------------------------------------------------- results */

static void freeResult(cliResult* r)
{
	free(r->id);
	free(r->error);
	free(r->ties);
	free(r->problem);
	memset(r, 0, sizeof *r);
}

void cliResultSet_Free(cliResultSet* set)
{
	if (set == NULL) {
		return;
	}
	for (long i = 0; i < set->count; ++i) {
		freeResult(set->results + i);
	}
	free(set->results);
	free(set->ignored);
	cliReading_Free(&set->reading);
	memset(set, 0, sizeof *set);
}

bool cliResultSet_FirstProblem(const cliResultSet* set, bcError* error)
{
	for (long i = 0; i < set->count && set->problems > 0; ++i) {
		const cliResult* r = set->results + i;
		if (r->problem != NULL) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorSyntax;
			error->record = i;
			error->line = r->problemLine;
			error->column = r->problemColumn;
			snprintf(error->message, sizeof error->message, "%s", r->problem);
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------ reading */

/* Add a note to set->understood ("; " between notes). */
static void addUnderstood(cliResultSet* set, const char* note)
{
	size_t n = strlen(set->understood);
	snprintf(set->understood + n, sizeof set->understood - n, "%s%s", n > 0 ? "; " : "", note);
}

/* What the reading understood: set's shape, positional and understood. */
static void describe(const cliResultsReader* reader, cliResultSet* set)
{
	bool ids = false;
	for (long i = 0; i < set->count && !ids; ++i) {
		ids = set->results[i].idKind != cli_idIndex;
	}
	set->positional = set->count > 0 && !ids;
	char note[96];
	if (set->format == cli_inputCsv && reader->csv.separator != ',') {
		snprintf(note, sizeof note, "read as CSV separated by %s%s", cliSeparatorName(reader->csv.separator),
				 reader->decimalCommas > 0 ? " with decimal commas" : "");
		addUnderstood(set, note);
	}

}

static bool readAll(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error)
{
	memset(set, 0, sizeof *set);
	cliResultsReader reader;
	memset(&reader, 0, sizeof reader);
	reader.set = set;
	reader.options = options;
	bcError scratch;
	error = error != NULL ? error : &scratch;
	memset(error, 0, sizeof *error);
	error->record = -1;
	bool ok = cliInput_Open(&reader.input, stream);
	ok = ok && cliJsonStream_Open(&reader.json, &reader.input);
	ok = ok && (reader.parser = cliJsonParser_Create()) != NULL;
	reader.noMemory = !ok;
	cliCsv_Open(&reader.csv, &reader.input);
	int status = ok ? cliInput_SkipByteOrderMark(&reader.input, error) : -1;
	status = status > 0 ? cliInput_SkipSpace(&reader.input, error) : status;
	ok = status >= 0;
	char first = status > 0 ? reader.input.buffer[reader.input.start] : '\0';
	set->format = first == '[' ? cli_inputJson : first == '{' || status == 0 ? cli_inputNdjson : cli_inputCsv;
	set->shape = status == 0 ? cli_shapeEmptyFile : cli_shapeRecords;
	if (ok && first == '[') {
		cliJsonStream_Enter(&reader.json, error);
		ok = cliResultsReader_ReadJsonValues(&reader, false, error) &&
			 cliJsonStream_Finish(&reader.json, "unexpected data after the closing ']'", error) > 0;
		set->shape = set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	} else if (ok && first == '{') {
		int document = cliJsonStream_HasArrayMember(&reader.json, "results", error);
		ok = document >= 0;
		set->document = document > 0;
		set->format = set->document ? cli_inputJson : cli_inputNdjson;
		ok = ok && (set->document ? cliResultsReader_ReadDocument(&reader, error)
								  : cliResultsReader_ReadJsonValues(&reader, true, error));
		set->shape = set->document && set->count == 0 ? cli_shapeHeaderOnly : cli_shapeRecords;
	} else if (ok && status > 0) {
		ok = cliResultsReader_ReadCsv(&reader, error);
	}
	if (reader.noMemory) {
		memset(error, 0, sizeof *error);
		error->code = bc_errorNoMemory;
		error->record = -1;
		snprintf(error->message, sizeof error->message, "out of memory");
		ok = false;
	}
	for (long i = 0; i < set->count; ++i) {
		set->problems += set->results[i].problem != NULL;
	}
	set->ignored = reader.ignored;
	if (ok) {
		describe(&reader, set);
	}
	cliJsonParser_Destroy(reader.parser);
	cliJsonStream_Close(&reader.json);
	cliCsv_Close(&reader.csv);
	cliInput_Close(&reader.input);
	if (!ok) {
		cliInputFormat format = set->format;
		bool document = set->document;
		cliResultSet_Free(set);
		set->format = format; /* what the input was taken for, to tell it in messages */
		set->document = document;
	}
	return ok;
}

bool cliReadResults(FILE* stream, cliResultSet* set, bcError* error)
{
	return readAll(stream, NULL, set, error);
}

bool cliReadResultsStrict(FILE* stream, const cliResultsReadOptions* options, cliResultSet* set, bcError* error)
{
	return readAll(stream, options, set, error);
}

FILE* cliOpenText(const char* text, size_t length, cliResultSet* set, bcError* error)
{
	FILE* stream = length > 0 ? fmemopen((void*)text, length, "rb") : NULL;
	if (stream == NULL) {
		stream = tmpfile(); /* fmemopen may refuse an empty buffer: empty reads the same */
	}
	if (stream == NULL) {
		memset(set, 0, sizeof *set);
		if (error != NULL) {
			memset(error, 0, sizeof *error);
			error->code = bc_errorNoMemory;
			snprintf(error->message, sizeof error->message, "out of memory");
		}
	}
	return stream;
}

bool cliParseResults(const char* text, size_t length, cliResultSet* set, bcError* error)
{
	FILE* stream = cliOpenText(text, length, set, error);
	if (stream == NULL) {
		return false;
	}
	bool ok = readAll(stream, NULL, set, error);
	fclose(stream);
	return ok;
}

void cliReading_Free(cliReading* reading)
{
	free(reading->note);
	free(reading->json);
	free(reading->reviewWhy);
	memset(reading, 0, sizeof *reading);
}

/* --------------------------------------------------------------- ids */

/* "n" then the exact decimal value: sign, significant digits without
 * leading or trailing zeros, "e" and the exponent of the last digit;
 * "n0" for zero of either sign. text is a JSON number. */
static char* numberKey(const char* text, size_t n)
{
	char* key = malloc(n + 32);
	if (key == NULL) {
		return NULL;
	}
	size_t i = 0;
	bool negative = text[i] == '-';
	if (negative) {
		i++;
	}
	char* digits = key + 2; /* room for "n-" */
	size_t count = 0;
	long long exponent = 0;
	for (; i < n && cliIsDigit(text[i]); ++i) {
		digits[count++] = text[i];
	}
	if (i < n && text[i] == '.') {
		for (++i; i < n && cliIsDigit(text[i]); ++i) {
			digits[count++] = text[i];
			exponent -= 1;
		}
	}
	if (i < n && (text[i] == 'e' || text[i] == 'E')) {
		++i;
		bool down = i < n && text[i] == '-';
		if (i < n && (text[i] == '-' || text[i] == '+')) {
			++i;
		}
		long long e = 0;
		for (; i < n && cliIsDigit(text[i]); ++i) {
			e = e < CLI_EXPONENT_LIMIT ? 10 * e + (text[i] - '0') : e;
		}
		exponent += down ? -e : e;
	}
	size_t lead = 0;
	while (lead < count && digits[lead] == '0') {
		lead++;
	}
	while (count > lead && digits[count - 1] == '0') {
		count--;
		exponent += 1;
	}
	if (count == lead) {
		strcpy(key, "n0");
		return key;
	}
	char* out = key;
	*out++ = 'n';
	if (negative) {
		*out++ = '-';
	}
	memmove(out, digits + lead, count - lead);
	out += count - lead;
	snprintf(out, 24, "e%lld", exponent);
	return key;
}

char* cliResult_IdKey(const cliResult* result)
{
	char index[32];
	const char* text = result->id;
	if (result->idKind == cli_idIndex || text == NULL) {
		snprintf(index, sizeof index, "%ld", result->index);
		text = index;
	}
	size_t n = strlen(text);
	if (cliIsJsonNumber(text, n)) {
		return numberKey(text, n);
	}
	char* key = malloc(n + 2);
	if (key != NULL) {
		key[0] = 's';
		memcpy(key + 1, text, n + 1);
	}
	return key;
}

void cliWriteResultIdJson(FILE* f, const cliResult* result)
{
	if (result->idKind == cli_idNumber) {
		fputs(result->id, f);
	} else if (result->idKind == cli_idString) {
		cliWriteJsonString(f, result->id);
	} else {
		cliWriteInt(f, result->index);
	}
}
