/* fuzz_limits.c - libFuzzer target: the readers' limits (issue 26). Built
 * with small limits (fuzz.mk: a value and a CSV row of 1 KiB, reads of 256
 * bytes, a CSV header sniffed in 1 KiB), so that inputs many times a limit
 * are cheap to make: the fuzzer's bytes say which reader reads, and the
 * input as a head, a unit repeated up to 65,535 times and a tail (so
 * zeros, long lines and long values are one mutation away):
 *
 *   byte 0      the reader: records auto, json, ndjson, csv (cli/records.c),
 *               the scene (cli/scene.c), results (cli/results_read.c)
 *   bytes 1, 2  the repeat count (big-endian)
 *   byte 3      the head's length h, then h bytes
 *   next byte   the unit's length u, then u bytes; the rest is the tail
 *
 * Properties, against what this file computes from the input on its own:
 *  - UTF-16 (a byte order mark FF FE or FE FF, or ASCII with a NUL after or
 *    before each of the first two bytes; after a UTF-8 byte order mark too)
 *    is refused at once: no record, the error "UTF-16 text; convert it to
 *    UTF-8" at 1:1;
 *  - two NUL bytes in a row: the reading never ends well, no record starts
 *    after them, and when they stand in the first read (CLI_INPUT_CHUNK
 *    bytes: 256 here) no record comes at all and the error is "binary data (NUL bytes)" at their
 *    line and column (after a UTF-8 byte order mark); later, the error is
 *    that one, one placed before them, or a limit met before them;
 *  - memory stays bounded by the limits, not by the input (records and the
 *    scene: ASan's count of allocated bytes, checked after every record);
 *  - every id, record error, fatal error, problem and note read is valid
 *    UTF-8, and the record and scene readers' messages hold no control byte
 *    (quoted input is written \xNN). */
#include <sanitizer/allocator_interface.h>

#include "fuzz.h"
#include "records.h"
#include "results_read.h"
#include "scene.h"

/* The most bytes an input is made of: 1,024 times the value limit (1 MiB
 * when built as fuzz.mk builds it). */
#define BC_LIMITS_MAX_INPUT ((size_t)1024 * CLI_JSON_MAX_VALUE)

/* Memory the readers may hold beyond what they held before reading: a
 * value's tree (about 60 bytes a byte of text at worst: "0," is a node),
 * the input's buffer (up to four times the longest value, or the CSV
 * header sniffed), and a fixed 256 KiB for the parser's first block and
 * the record text's (64 KiB each) and the sanitizer's room around each
 * allocation. Far below an input kept whole (BC_LIMITS_MAX_INPUT). */
#define BC_LIMITS_MAX_HELD ((size_t)256 * CLI_JSON_MAX_VALUE + ((size_t)256 << 10))

static void checkText(const char* what, const char* s, bool message)
{
	if (s != NULL) {
		BC_FUZZ_CHECK(bcFuzzIsUtf8(s, strlen(s), message), "%s is not valid UTF-8%s: '%s'", what,
					  message ? " (or holds a control byte)" : "", s);
	}
}

/* What the input is, computed here. */
typedef struct bcInputFacts {
	bool utf16;
	size_t zeros;   /* offset of the first two NULs in a row, or SIZE_MAX */
	long zeroLine;  /* and their line and column (after a UTF-8 byte order mark) */
	long zeroColumn;
} bcInputFacts;

static bcInputFacts factsOf(const char* s, size_t n)
{
	bcInputFacts f = { false, SIZE_MAX, 0, 0 };
	/* after a UTF-8 byte order mark, which changes nothing */
	size_t mark = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	const unsigned char* u = (const unsigned char*)s + mark;
	size_t m = n - mark;
	f.utf16 = (m >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) ||
			  (m >= 4 && u[0] != 0 && u[1] == 0 && u[2] != 0 && u[3] == 0) ||
			  (m >= 4 && u[0] == 0 && u[1] != 0 && u[2] == 0 && u[3] != 0);
	u = (const unsigned char*)s;
	for (size_t i = 0; i + 1 < n; ++i) {
		if (u[i] == 0 && u[i + 1] == 0) {
			f.zeros = i;
			break;
		}
	}
	if (f.zeros != SIZE_MAX) {
		size_t start = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		f.zeroLine = 1;
		size_t lineStart = start;
		for (size_t i = start; i < f.zeros; ++i) {
			if (s[i] == '\n') {
				f.zeroLine += 1;
				lineStart = i + 1;
			}
		}
		f.zeroColumn = (long)(f.zeros - lineStart) + 1;
	}
	return f;
}

static bool before(long line, long column, long otherLine, long otherColumn)
{
	return line < otherLine || (line == otherLine && column < otherColumn);
}

/* How a reading ended, against the facts. records: how many came. plain:
 * the message holds no control byte either (the results reader's quotes a
 * CSV header whole, tabs included: only UTF-8 is asked of it). */
static void checkEnd(const bcInputFacts* f, bool ok, const bcError* error, long records, bool plain)
{
	if (!ok) {
		BC_FUZZ_CHECK(error->message[0] != '\0', "an error without a message");
		checkText("the error", error->message, plain);
	}
	if (f->utf16) {
		BC_FUZZ_CHECK(!ok && records == 0 && strcmp(error->message, CLI_INPUT_UTF16) == 0 && error->line == 1 &&
						  error->column == 1,
					  "UTF-16: ok %d, %ld records, %ld:%ld %s", (int)ok, records, error->line, error->column,
					  error->message);
		return;
	}
	if (f->zeros == SIZE_MAX) {
		return;
	}
	BC_FUZZ_CHECK(!ok, "NULs in a row at %zu, and the reading ended well (%ld records)", f->zeros, records);
	bool binary = strcmp(error->message, CLI_INPUT_BINARY) == 0 && error->line == f->zeroLine &&
				  error->column == f->zeroColumn;
	if (f->zeros + 1 < CLI_INPUT_CHUNK) {
		BC_FUZZ_CHECK(binary && records == 0, "NULs in a row at %zu (%ld:%ld), in the first read: %ld records, %ld:%ld %s",
					  f->zeros, f->zeroLine, f->zeroColumn, records, error->line, error->column, error->message);
	} else {
		/* or a limit met before the NULs were read (a scene's length: no place) */
		BC_FUZZ_CHECK(binary || (error->line > 0 && before(error->line, error->column, f->zeroLine, f->zeroColumn)) ||
						  error->code == bc_errorTooLarge,
					  "NULs in a row at %ld:%ld, and the error %ld:%ld %s", f->zeroLine, f->zeroColumn, error->line,
					  error->column, error->message);
	}
}

/* Bytes held now beyond base. */
static size_t heldSince(size_t base)
{
	size_t now = __sanitizer_get_current_allocated_bytes();
	return now > base ? now - base : 0;
}

static void readRecords(const char* text, size_t size, cliInputFormat format, const bcInputFacts* f)
{
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	size_t base = __sanitizer_get_current_allocated_bytes();
	cliReader* reader = cliReader_Create(stream, "fuzz", format);
	BC_FUZZ_CHECK(reader != NULL, "cliReader_Create failed");
	long count = 0;
	size_t maxHeld = 0;
	bcError error;
	memset(&error, 0, sizeof error);
	int status;
	for (;;) {
		cliRecord record;
		status = cliReader_Next(reader, &record, &error);
		if (status <= 0) {
			break;
		}
		count += 1;
		if (f->zeros != SIZE_MAX) {
			BC_FUZZ_CHECK(before(record.line, record.column, f->zeroLine, f->zeroColumn),
						  "record %ld at %ld:%ld, not before the NULs at %ld:%ld", count, record.line, record.column,
						  f->zeroLine, f->zeroColumn);
		}
		checkText("an id", record.id, false);
		checkText("a record's error", record.error, true);
		size_t held = heldSince(base);
		maxHeld = held > maxHeld ? held : maxHeld;
		BC_FUZZ_CHECK(held <= BC_LIMITS_MAX_HELD, "format %d: %zu bytes held after record %ld of a %zu-byte input",
					  (int)format, held, count, size);
		cliRecord_Free(&record);
	}
	size_t held = heldSince(base);
	maxHeld = held > maxHeld ? held : maxHeld;
	if (getenv("BC_FUZZ_SHOW_HELD") != NULL) {
		fprintf(stderr, "format %d: at most %zu bytes held, input %zu bytes\n", (int)format, maxHeld, size);
	}
	BC_FUZZ_CHECK(held <= BC_LIMITS_MAX_HELD, "format %d: %zu bytes held at the end of a %zu-byte input", (int)format,
				  held, size);
	checkEnd(f, status == 0, &error, count, true);
	cliReader_Destroy(reader);
	fclose(stream);
}

static void readScene(const char* text, size_t size, const bcInputFacts* f)
{
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	size_t base = __sanitizer_get_current_allocated_bytes();
	cliScene scene;
	bcError error;
	bool ok = cliScene_Read(stream, &scene, &error);
	size_t held = heldSince(base);
	/* a scene's balls and notes are its own: bounded by its text, which is */
	BC_FUZZ_CHECK(held <= BC_LIMITS_MAX_HELD, "the scene holds %zu bytes after a %zu-byte input", held, size);
	BC_FUZZ_CHECK(ok ? size <= CLI_SCENE_MAX_BYTES : error.code != bc_errorTooLarge || size > CLI_SCENE_MAX_BYTES,
				  "a %zu-byte scene %s (the limit: %zu)", size, ok ? "read" : "refused as too large",
				  (size_t)CLI_SCENE_MAX_BYTES);
	if (size > CLI_SCENE_MAX_BYTES && !f->utf16 && f->zeros == SIZE_MAX) {
		BC_FUZZ_CHECK(error.code == bc_errorTooLarge, "a %zu-byte scene: %s", size, error.message);
	}
	checkEnd(f, ok, &error, 0, true);
	for (int k = 0; ok && k < scene.ballCount; ++k) {
		checkText("a ball's id", scene.balls[k].id, false);
	}
	for (int k = 0; ok && k < scene.noteCount; ++k) {
		checkText("a note", scene.notes[k].message, true);
	}
	cliScene_Free(&scene);
	fclose(stream);
}

static void readResults(const char* text, size_t size, const bcInputFacts* f)
{
	static char empty[1];
	FILE* stream = fmemopen(size > 0 ? (void*)text : empty, size, "rb");
	BC_FUZZ_CHECK(stream != NULL, "fmemopen failed");
	cliResultSet set;
	bcError error;
	bool ok = cliReadResults(stream, &set, &error);
	checkEnd(f, ok, &error, ok ? set.count : 0, false);
	for (long k = 0; ok && k < set.count; ++k) {
		checkText("a result's id", set.results[k].id, false);
		checkText("a result's error", set.results[k].error, false);
	}
	cliResultSet_Free(&set);
	fclose(stream);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	bcFuzzBytes bytes = { data, size, 0 };
	int reader = bcFuzzBytes_Byte(&bytes) % 6;
	size_t count = (size_t)bcFuzzBytes_Byte(&bytes) << 8;
	count |= bcFuzzBytes_Byte(&bytes);
	size_t headLength = bcFuzzBytes_Byte(&bytes);
	headLength = headLength <= size - bytes.used ? headLength : size - bytes.used;
	const uint8_t* head = data + bytes.used;
	bytes.used += headLength;
	size_t unitLength = bcFuzzBytes_Byte(&bytes);
	unitLength = unitLength <= size - bytes.used ? unitLength : size - bytes.used;
	const uint8_t* unit = data + bytes.used;
	bytes.used += unitLength;
	const uint8_t* tail = data + bytes.used;
	size_t tailLength = size - bytes.used;
	if (unitLength == 0) {
		count = 0;
	}
	size_t room = BC_LIMITS_MAX_INPUT - headLength - tailLength;
	if (count * unitLength > room) {
		count = room / unitLength;
	}
	size_t length = headLength + count * unitLength + tailLength;
	char* text = malloc(length > 0 ? length : 1);
	BC_FUZZ_CHECK(text != NULL, "out of memory");
	char* p = text;
	memcpy(p, head, headLength);
	p += headLength;
	for (size_t k = 0; k < count; ++k, p += unitLength) {
		memcpy(p, unit, unitLength);
	}
	memcpy(p, tail, tailLength);

	bcInputFacts facts = factsOf(text, length);
	static const cliInputFormat formats[] = { cli_inputAuto, cli_inputJson, cli_inputNdjson, cli_inputCsv };
	if (reader < 4) {
		readRecords(text, length, formats[reader], &facts);
	} else if (reader == 4) {
		readScene(text, length, &facts);
	} else {
		readResults(text, length, &facts);
	}
	free(text);
	return 0;
}
