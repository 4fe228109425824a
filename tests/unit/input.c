/* input.c - unit tests for the bytes of one input (cli/input.h): line and
 * column of every byte, a byte order mark skipped without counting, a line
 * longer than the buffer skipped in bounded memory (and no further than its
 * limit), the buffer growing for a value that needs it, progress when the
 * size is known (and -1 when it is not), readiness and giving up while a
 * pipe waits, errors, binary data and UTF-16 refused, and UTF-8: checked
 * character by character, and quoted into messages. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "input.h"

/* A temporary file holding length bytes of text, rewound. */
static FILE* fileWith(const char* text, size_t length)
{
	FILE* file = tmpfile();
	ck_assert_ptr_nonnull(file);
	ck_assert_uint_eq(fwrite(text, 1, length, file), length);
	rewind(file);
	return file;
}

/* Read the whole input into the buffer (no byte consumed). */
static void fillAll(cliInput* in)
{
	bcError error;
	int status;
	while ((status = cliInput_Fill(in, &error)) > 0) {
	}
	ck_assert_int_eq(status, 0);
}

START_TEST(positionsCountLinesAndColumns)
{
	long line, column;
	cliTextPosition("ab\ncd\n\nx", 0, 1, 1, &line, &column);
	ck_assert(line == 1 && column == 1);
	cliTextPosition("ab\ncd\n\nx", 4, 1, 1, &line, &column);
	ck_assert(line == 2 && column == 2);
	cliTextPosition("ab\ncd\n\nx", 7, 1, 1, &line, &column);
	ck_assert(line == 4 && column == 1);
	/* text that starts inside a line keeps that line's column */
	cliTextPosition("xy", 2, 5, 10, &line, &column);
	ck_assert(line == 5 && column == 12);
	char* copy = cliCopyText("abc\0def", 5);
	ck_assert_ptr_nonnull(copy);
	ck_assert(memcmp(copy, "abc\0d\0", 6) == 0);
	free(copy);

	const char text[] = "{\"a\": 1,\n  \"b\":\t2}\n";
	FILE* file = fileWith(text, sizeof text - 1);
	cliInput in;
	ck_assert(cliInput_Open(&in, file));
	fillAll(&in);
	ck_assert_uint_eq(in.length, sizeof text - 1);
	cliInput_Position(&in, 13, &line, &column);
	ck_assert(line == 2 && column == 5); /* the '"' of "b" */
	cliInput_Advance(&in, 10);
	ck_assert(in.line == 2 && in.column == 2);
	ck_assert_int_eq(in.consumed, 10);
	cliInput_Position(&in, 3, &line, &column);
	ck_assert(line == 2 && column == 5);

	bcError error;
	ck_assert_int_eq(cliInput_SyntaxError(&in, 7, "expected a number", &error), -1);
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert(error.line == 2 && error.column == 9);
	ck_assert_str_eq(error.message, "expected a number");
	cliInput_Close(&in);
	fclose(file);
}
END_TEST

START_TEST(byteOrderMarkSkippedNotCounted)
{
	const char text[] = "\xEF\xBB\xBF  [1]";
	FILE* file = fileWith(text, sizeof text - 1);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(cliInput_SkipByteOrderMark(&in, &error), 1);
	ck_assert_int_eq(cliInput_SkipSpace(&in, &error), 1);
	ck_assert_int_eq(in.buffer[in.start], '[');
	ck_assert(in.line == 1 && in.column == 3);
	ck_assert_int_eq(in.consumed, 5);
	cliInput_Close(&in);
	fclose(file);

	/* only at the very start, and only the whole mark */
	const char partial[] = "\xEF\xBB";
	file = fileWith(partial, sizeof partial - 1);
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(cliInput_SkipByteOrderMark(&in, &error), 1);
	ck_assert_uint_eq(in.length - in.start, 2);
	cliInput_Close(&in);
	fclose(file);
}
END_TEST

START_TEST(skipSpaceAndEnd)
{
	const char text[] = " \t\r\n\n  ";
	FILE* file = fileWith(text, sizeof text - 1);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(cliInput_SkipSpace(&in, &error), 0);
	ck_assert(in.line == 3 && in.column == 3);
	ck_assert_int_eq(cliInput_Fill(&in, &error), 0);
	cliInput_Close(&in);
	fclose(file);
}
END_TEST

/* A line many times the first buffer is skipped without the buffer
 * growing, and the next line starts where it should. */
START_TEST(longLineSkippedInBoundedMemory)
{
	size_t lineLength = (size_t)1 << 20;
	char* text = malloc(lineLength + 16);
	ck_assert_ptr_nonnull(text);
	memset(text, 'x', lineLength);
	strcpy(text + lineLength, "\nnext");
	FILE* file = fileWith(text, lineLength + 5);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, file));
	size_t capacity = in.capacity;
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	cliInput_Advance(&in, 3);
	ck_assert_int_eq(cliInput_SkipLine(&in, SIZE_MAX, &error), 1);
	ck_assert_uint_eq(in.capacity, capacity);
	ck_assert(in.line == 2 && in.column == 1);
	ck_assert_int_eq(in.consumed, (long long)lineLength + 1);
	fillAll(&in);
	ck_assert_uint_eq(in.length - in.start, 4);
	ck_assert(memcmp(in.buffer + in.start, "next", 4) == 0);
	/* the last line ends with the input */
	ck_assert_int_eq(cliInput_SkipLine(&in, SIZE_MAX, &error), 1);
	ck_assert(in.line == 2 && in.column == 5);
	cliInput_Close(&in);
	fclose(file);

	/* a value that needs the whole line makes the buffer grow, keeping
	 * the unread bytes in order */
	file = fileWith(text, lineLength + 5);
	ck_assert(cliInput_Open(&in, file));
	cliInput_Advance(&in, 0);
	fillAll(&in);
	ck_assert_uint_ge(in.capacity, lineLength + 5);
	ck_assert(memcmp(in.buffer + in.start, text, lineLength + 5) == 0);
	cliInput_Close(&in);
	fclose(file);
	free(text);
}
END_TEST

START_TEST(progressWhenSizeKnown)
{
	char text[1000];
	memset(text, ' ', sizeof text);
	FILE* file = fileWith(text, sizeof text);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(in.size, 1000);
	bcAssertNear(cliInput_Progress(&in), 0.0, 0.0);
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	/* buffered is not read: progress counts consumed bytes */
	bcAssertNear(cliInput_Progress(&in), 0.0, 0.0);
	cliInput_Advance(&in, 250);
	bcAssertNear(cliInput_Progress(&in), 0.25, 0.0);
	ck_assert_int_eq(cliInput_SkipSpace(&in, &error), 0);
	bcAssertNear(cliInput_Progress(&in), 1.0, 0.0);
	cliInput_Close(&in);

	/* a stream read from part-way counts from there */
	ck_assert_int_eq(fseek(file, 600, SEEK_SET), 0);
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(in.size, 400);
	cliInput_Close(&in);
	fclose(file);

	/* an empty file is all read; a pipe's size is unknown */
	file = tmpfile();
	ck_assert(cliInput_Open(&in, file));
	bcAssertNear(cliInput_Progress(&in), 1.0, 0.0);
	cliInput_Close(&in);
	fclose(file);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	FILE* reading = fdopen(fds[0], "rb");
	ck_assert(cliInput_Open(&in, reading));
	ck_assert(in.pollable);
	bcAssertNear(cliInput_Progress(&in), -1.0, 0.0);
	cliInput_Close(&in);
	fclose(reading);
	close(fds[1]);
}
END_TEST

static bool giveUp(void* context)
{
	int* asked = context;
	*asked += 1;
	return *asked < 2;
}

/* A pipe is ready only with a whole line or the end; a wait asks the
 * callback and gives up when told to. */
START_TEST(pipesWaitAndGiveUp)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	FILE* reading = fdopen(fds[0], "rb");
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, reading));
	ck_assert(!cliInput_IsReady(&in));
	ck_assert_int_eq(write(fds[1], "{\"a\":", 5), 5);
	ck_assert(cliInput_IsReady(&in)); /* poll says bytes wait */
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	ck_assert_uint_eq(in.length, 5); /* what the pipe held, at once */
	ck_assert(!cliInput_IsReady(&in)); /* half a line, nothing more yet */
	ck_assert_int_eq(write(fds[1], "1}\n", 3), 3);
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	ck_assert(cliInput_IsReady(&in));

	int asked = 0;
	in.keepWaiting = giveUp;
	in.keepWaitingContext = &asked;
	ck_assert_int_eq(cliInput_Fill(&in, &error), -1);
	ck_assert_int_eq(asked, 2);
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_str_eq(error.message, "read error: Operation canceled");
	ck_assert_int_eq(error.line, 0);

	close(fds[1]);
	in.keepWaiting = NULL;
	ck_assert_int_eq(cliInput_Fill(&in, &error), 0);
	ck_assert(cliInput_IsReady(&in));
	ck_assert_uint_eq(in.length, 8);
	cliInput_Close(&in);
	fclose(reading);
}
END_TEST

START_TEST(streamsWithoutDescriptorUseFread)
{
	char text[] = "a\nb";
	FILE* memory = fmemopen(text, 3, "rb");
	ck_assert_ptr_nonnull(memory);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, memory));
	ck_assert_int_lt(in.fd, 0);
	ck_assert(cliInput_IsReady(&in));
	fillAll(&in);
	ck_assert_uint_eq(in.length, 3);
	ck_assert(cliInput_IsReady(&in));
	ck_assert_int_eq(cliInput_SkipLine(&in, SIZE_MAX, &error), 1);
	ck_assert(in.line == 2 && in.column == 1);
	cliInput_Close(&in);
	fclose(memory);

	/* a read error is reported with its reason, without a position */
	FILE* writing = tmpfile();
	int fd = fileno(writing);
	FILE* broken = fdopen(dup(fd), "rb");
	ck_assert(cliInput_Open(&in, broken));
	close(in.fd);
	ck_assert_int_eq(cliInput_Fill(&in, &error), -1);
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_str_eq(error.message, "read error: Bad file descriptor");
	cliInput_Close(&in);
	fclose(broken);
	fclose(writing);
}
END_TEST

/* --shard's ranges: the K-th of N equal byte ranges, as positions the
 * input counts (a byte order mark not counted on line 1); each byte in
 * exactly one range; a pipe refused. Hand-computed on a 20-byte text. */
START_TEST(shardRanges)
{
	/* bytes 0-2 the mark, "ab\n" 3-5, "cdefg\n" 6-11, "hijklmno" 12-19 */
	const char text[] = "\xEF\xBB\xBF" "ab\ncdefg\nhijklmno";
	FILE* f = fileWith(text, sizeof text - 1);
	cliInputRange range;
	bcError error;
	/* 4 ranges of 20 bytes: [0,5) [5,10) [10,15) [15,20) */
	ck_assert_int_eq(cliFindShardRange(f, 0, 4, &range, &error), 1);
	ck_assert_int_eq(range.beginLine, 0);
	ck_assert_int_eq(range.endLine, 1); /* byte 5, the '\n' after "ab": line 1, column 3 */
	ck_assert_int_eq(range.endColumn, 3);
	ck_assert_int_eq(cliFindShardRange(f, 2, 4, &range, &error), 1);
	ck_assert_int_eq(range.beginLine, 2); /* byte 10: 'g' */
	ck_assert_int_eq(range.beginColumn, 5);
	ck_assert_int_eq(range.endLine, 3); /* byte 15: 'k' */
	ck_assert_int_eq(range.endColumn, 4);
	ck_assert(!cliInputRange_Holds(&range, 2, 4));
	ck_assert(cliInputRange_Holds(&range, 2, 5));
	ck_assert(cliInputRange_Holds(&range, 3, 3));
	ck_assert(!cliInputRange_Holds(&range, 3, 4));
	ck_assert_int_eq(cliFindShardRange(f, 3, 4, &range, &error), 1);
	ck_assert_int_eq(range.endLine, 0); /* the last: to the end */
	/* the file's offset is left alone */
	ck_assert_int_eq(ftell(f), 0);
	fclose(f);
	int pipeEnds[2];
	ck_assert_int_eq(pipe(pipeEnds), 0);
	FILE* p = fdopen(pipeEnds[0], "rb");
	ck_assert_int_eq(cliFindShardRange(p, 0, 2, &range, &error), -1);
	ck_assert_str_eq(error.message, "--shard needs a file to cut into byte ranges, not a pipe or a terminal");
	fclose(p);
	close(pipeEnds[1]);
}
END_TEST

/* Read everything the input lets through: the status of the last Fill. */
static int fillToEnd(cliInput* in, bcError* error)
{
	int status;
	while ((status = cliInput_Fill(in, error)) > 0) {
	}
	return status;
}

/* Binary data (two NULs in a row) in the first 64 KiB refuses the whole
 * input at its place; later, the bytes before stay readable; a lone NUL is
 * the readers' business; UTF-16 is refused at 1:1. */
START_TEST(binaryAndUtf16Refused)
{
	cliInput in;
	bcError error;
	const char zeros[] = "{\"a\":1}\n  \0\0\0";
	FILE* file = fileWith(zeros, sizeof zeros - 1);
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(fillToEnd(&in, &error), -1);
	ck_assert_uint_eq(in.length - in.start, 0); /* nothing left to read */
	ck_assert_int_eq(error.code, bc_errorSyntax);
	ck_assert(error.line == 2 && error.column == 3);
	ck_assert_str_eq(error.message, CLI_INPUT_BINARY);
	ck_assert_int_eq(cliInput_Fill(&in, &error), -1); /* and again */
	cliInput_Close(&in);
	fclose(file);

	/* past the first chunk: what comes before is read */
	size_t before = 100000;
	char* text = malloc(before + 4);
	ck_assert_ptr_nonnull(text);
	memset(text, ' ', before);
	memcpy(text + before, "x\0\0y", 4);
	file = fileWith(text, before + 4);
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(fillToEnd(&in, &error), -1);
	ck_assert_uint_eq(in.length - in.start, before + 1);
	ck_assert(error.line == 1 && error.column == (long)before + 2);
	cliInput_Close(&in);
	fclose(file);
	free(text);

	/* a lone NUL, and NULs apart, are text's */
	const char lone[] = "ab\0cd\0e";
	file = fileWith(lone, sizeof lone - 1);
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(fillToEnd(&in, &error), 0);
	ck_assert_uint_eq(in.length, sizeof lone - 1);
	cliInput_Close(&in);
	fclose(file);

	/* a run across two reads, its first NUL consumed in between: placed at that one */
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	FILE* reading = fdopen(fds[0], "rb");
	ck_assert(cliInput_Open(&in, reading));
	ck_assert_int_eq(write(fds[1], "ab\0", 3), 3);
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	cliInput_Advance(&in, 3);
	ck_assert_int_eq(write(fds[1], "\0c", 2), 2);
	ck_assert_int_eq(cliInput_Fill(&in, &error), -1);
	ck_assert_str_eq(error.message, CLI_INPUT_BINARY);
	ck_assert(error.line == 1 && error.column == 3);
	cliInput_Close(&in);
	fclose(reading);
	close(fds[1]);

	static const struct {
		const char* text;
		size_t length;
	} utf16[] = {
		{ "\xFF\xFE{\0", 4 }, { "\xFE\xFF\0{", 4 }, { "{\0\"\0", 4 }, { "\0{\0\"", 4 }, { "\xFF\xFE", 2 },
		/* after a UTF-8 byte order mark too (it changes nothing) */
		{ "\xEF\xBB\xBF\0{\0\"", 7 }, { "\xEF\xBB\xBF\xFF\xFE", 5 },
	};
	for (size_t k = 0; k < sizeof utf16 / sizeof utf16[0]; ++k) {
		file = fileWith(utf16[k].text, utf16[k].length);
		ck_assert(cliInput_Open(&in, file));
		ck_assert_int_eq(fillToEnd(&in, &error), -1);
		ck_assert_msg(strcmp(error.message, CLI_INPUT_UTF16) == 0 && error.line == 1 && error.column == 1,
					  "case %zu: %ld:%ld %s", k, error.line, error.column, error.message);
		ck_assert_uint_eq(in.length, 0);
		cliInput_Close(&in);
		fclose(file);
	}
}
END_TEST

/* A line skipped no further than its limit. */
START_TEST(skipLineStopsAtItsLimit)
{
	size_t length = 300000;
	char* text = malloc(length);
	ck_assert_ptr_nonnull(text);
	memset(text, 'x', length);
	FILE* file = fileWith(text, length);
	cliInput in;
	bcError error;
	ck_assert(cliInput_Open(&in, file));
	ck_assert_int_eq(cliInput_Fill(&in, &error), 1);
	cliInput_Advance(&in, 5);
	ck_assert_int_eq(cliInput_SkipLine(&in, 200000, &error), -1);
	ck_assert_str_eq(error.message, "line longer than 200000 bytes");
	ck_assert(error.line == 1 && error.column == 6); /* where the skipping started */
	cliInput_Close(&in);
	fclose(file);
	free(text);
}
END_TEST

/* Unicode's table 3-7, byte by byte; bytes for messages; quotes that stay
 * valid UTF-8 and print no control byte. */
START_TEST(utf8CheckedAndQuoted)
{
	static const struct {
		const char* bytes;
		int length; /* 0: not UTF-8 */
		int shown;
	} cases[] = {
		{ "a", 1, 0 },          { "\xC3\xA9", 2, 0 },     { "\xE2\x82\xAC", 3, 0 }, { "\xF0\x9F\x98\x80", 4, 0 },
		{ "\xF4\x8F\xBF\xBF", 4, 0 }, /* U+10FFFF */      { "\xEF\xBF\xBF", 3, 0 }, /* U+FFFF */
		{ "\xC0\xAF", 0, 1 },   /* overlong '/' */         { "\xC1\xBF", 0, 1 },     { "\xE0\x80\xAF", 0, 2 },
		{ "\xF0\x80\x80\xAF", 0, 2 }, { "\xED\xA0\x80", 0, 2 }, /* U+D800 */   { "\xED\xBF\xBF", 0, 2 },
		{ "\xF4\x90\x80\x80", 0, 2 }, /* U+110000 */      { "\xF5\x80\x80\x80", 0, 1 }, { "\xFF", 0, 1 },
		{ "\x80", 0, 1 },       { "\xC3(", 0, 1 },        { "\xE2\x82(", 0, 2 },   { "\xE2\x82\xC3", 0, 3 },
		{ "\xF0\x9F\x98", 0, 3 }, /* cut by the end */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		int shown = 0;
		int length = cliUtf8Length(cases[k].bytes, strlen(cases[k].bytes), &shown);
		ck_assert_msg(length == cases[k].length && (length > 0 || shown == cases[k].shown), "case %zu: %d (%d shown)",
					  k, length, shown);
	}
	char text[64];
	ck_assert_str_eq(cliDescribeBytes("\xFF", 1, text, sizeof text), "byte 0xFF");
	ck_assert_str_eq(cliDescribeBytes("\xE0\x80", 2, text, sizeof text), "bytes 0xE0 0x80");

	char quoted[CLI_QUOTE_SIZE];
	ck_assert_str_eq(cliQuoteText("1.5x", 4, quoted, sizeof quoted), "1.5x");
	ck_assert_str_eq(cliQuoteText("a\xFF\tb\x7F\xC3\xA9", 7, quoted, sizeof quoted), "a\\xFF\\x09b\\x7F\xC3\xA9");
	/* CLI_QUOTE_MAX bytes at most, never a character cut in two */
	char long_[60];
	memset(long_, 'y', 39);
	memcpy(long_ + 39, "\xC3\xA9zz", 4);
	cliQuoteText(long_, 43, quoted, sizeof quoted);
	ck_assert_uint_eq(strlen(quoted), 39);
	memset(long_, '\x01', 60);
	cliQuoteText(long_, 60, quoted, sizeof quoted);
	ck_assert_uint_eq(strlen(quoted), 4 * CLI_QUOTE_MAX);
}
END_TEST

static Suite* inputSuite(void)
{
	Suite* suite = suite_create("input");
	TCase* core = tcase_create("core");
	tcase_add_test(core, positionsCountLinesAndColumns);
	tcase_add_test(core, byteOrderMarkSkippedNotCounted);
	tcase_add_test(core, skipSpaceAndEnd);
	tcase_add_test(core, longLineSkippedInBoundedMemory);
	tcase_add_test(core, progressWhenSizeKnown);
	tcase_add_test(core, pipesWaitAndGiveUp);
	tcase_add_test(core, streamsWithoutDescriptorUseFread);
	tcase_add_test(core, shardRanges);
	tcase_add_test(core, binaryAndUtf16Refused);
	tcase_add_test(core, skipLineStopsAtItsLimit);
	tcase_add_test(core, utf8CheckedAndQuoted);
	suite_add_tcase(suite, core);
	return suite;
}

int main(void)
{
	return bcRunSuite(inputSuite());
}
