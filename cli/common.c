/* common.c - the meshes and inputs a command opens, and how it reports
 * what is wrong with them (common.h): errors at a file's place, meshes
 * loaded with the reader's notes, inputs opened and named. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ballcast.h"
#include "cli.h"
#include "common.h"
#include "options.h"
#include "output.h"
#include "records.h"

void cliReportFile(const char* file)
{
	fputs("ballcast: ", stderr);
	cliWriteName(stderr, file);
}

void cliReportNoMemory(void)
{
	fputs("ballcast: out of memory\n", stderr);
	cliNoteFailure(0, true);
}

void cliReportError(const char* file, const bcError* error)
{
	cliNoteFailure(error->code == bc_errorIo ? error->systemError : 0, error->code == bc_errorNoMemory);
	cliReportFile(file);
	if (error->line > 0) {
		fprintf(stderr, ":%ld:%ld", error->line, error->column);
	}
	fputs(": ", stderr);
	cliWriteShown(stderr, error->message); /* it may quote the file's bytes */
	putc('\n', stderr);
}

/* Does the file start (after blanks and a byte order mark) with '{' or
 * '[', as JSON does and no OBJ file can? */
static bool looksLikeJson(const char* path)
{
	FILE* f = fopen(path, "rb");
	if (f == NULL) {
		return false;
	}
	int c = getc(f);
	if (c == 0xEF && getc(f) == 0xBB && getc(f) == 0xBF) {
		c = getc(f);
	}
	while (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
		c = getc(f);
	}
	fclose(f);
	return c == '{' || c == '[';
}

/* "ballcast: FILE:byte N: message" for binary data, else as cliReportError
 * ("FILE:LINE:COLUMN: message", or "FILE: message"). */
static void reportMeshProblem(const char* file, long line, long column, long long byte, const char* message)
{
	cliReportFile(file);
	if (byte > 0) {
		fprintf(stderr, ":byte %lld", byte);
	} else if (line > 0) {
		fprintf(stderr, ":%ld:%ld", line, column);
	}
	fputs(": ", stderr);
	cliWriteShown(stderr, message); /* it may quote the file's bytes */
	putc('\n', stderr);
}

/* Load a mesh with its notes; zeroAreaOnly: the note on skipped triangles
 * counts only those of zero area (intersect), else every degenerate one. */
static bcMesh* loadMesh(const char* path, const cliCommonOptions* common, int* status, bool zeroAreaOnly)
{
	bcError error = { 0 };
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = common->threads;
	bool standard = strcmp(path, "-") == 0;
	const char* name = cliInputName(path);
	if (standard && !common->quiet && isatty(STDIN_FILENO)) {
		fputs("ballcast: reading the mesh from standard input, the terminal: type it, then Ctrl-D\n", stderr);
	}
	bcMesh* mesh = standard ? bcMesh_Read(stdin, common->meshFormat, &options, &error)
							: bcMesh_Load(path, common->meshFormat, &options, &error);
	if (status != NULL) {
		*status = mesh != NULL ? cli_exitOk : cliExitStatusOf(&error);
	}
	if (mesh == NULL && !standard && looksLikeJson(path)) {
		cliReportFile(path);
		fputs(": this is JSON, not a mesh: the mesh comes first (are the arguments swapped?)\n", stderr);
		return NULL;
	}
	if (mesh == NULL) {
		cliNoteFailure(error.code == bc_errorIo ? error.systemError : 0, error.code == bc_errorNoMemory);
		reportMeshProblem(name, error.line, error.column, error.byte, error.message);
		return NULL;
	}
	bool quiet = common->quiet;
	/* The reader's notes (polygons cut as a fan, STL normals not used),
	 * each at its place, then how many more. */
	int32_t warnings = bcMesh_GetWarningCount(mesh);
	for (int32_t k = 0; k < warnings && k < BC_MAX_WARNINGS && !quiet; ++k) {
		bcWarning warning = bcMesh_GetWarning(mesh, k);
		reportMeshProblem(name, warning.line, warning.column, warning.byte, warning.message);
	}
	if (warnings > BC_MAX_WARNINGS && !quiet) {
		cliReportFile(name);
		fprintf(stderr, ": %ld more warnings not shown\n", (long)warnings - BC_MAX_WARNINGS);
	}
	if (quiet) {
		return mesh;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (zeroAreaOnly) {
		int32_t first;
		int32_t count = info.degenerateCount > 0 ? bcMesh_CountZeroArea(mesh, &first) : 0;
		if (count > 0) {
			cliReportFile(name);
			fprintf(stderr, ": %ld zero-area triangle%s skipped, the first is triangle %ld (face %ld)\n", (long)count, count == 1 ? "" : "s", (long)first, (long)bcMesh_GetTriangle(mesh, first).face);
		}
	} else if (info.degenerateCount > 0) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		cliReportFile(name);
		fprintf(stderr, ": %ld degenerate (zero-area or sliver) triangle%s skipped, the first is triangle %ld (face %ld)\n",
				(long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
}

int cliCheckInputs(const cliUsage* usage, const cliCommonOptions* common, const char* meshPath,
				   const char* inputPath)
{
	if (common->shardCount > 0 && common->format == cli_outputJson) {
		return cliUsageError(usage,
							 "--shard writes NDJSON or CSV (-f ndjson or -f csv), whose parts joined in order are one "
							 "run's output; a JSON document per task would not join into one",
							 NULL);
	}
	if (meshPath != NULL && strcmp(meshPath, "-") == 0 && strcmp(inputPath, "-") == 0) {
		return cliUsageError(usage, "the mesh and the records cannot both come from standard input ('-')", NULL);
	}
	return -1;
}

int cliShardRange(const cliCommonOptions* common, FILE* input, const char* inputName, cliInputRange* range)
{
	memset(range, 0, sizeof *range);
	if (common->shardCount == 0) {
		return -1;
	}
	bcError error = { 0 };
	if (cliFindShardRange(input, common->shardIndex, common->shardCount, range, &error) < 0) {
		cliReportError(inputName, &error);
		return cliExitStatusOf(&error);
	}
	return -1;
}

int cliShardReader(const cliCommonOptions* common, FILE* input, const char* inputName, cliReader* reader)
{
	cliInputRange range;
	int status = cliShardRange(common, input, inputName, &range);
	if (status < 0 && reader != NULL) {
		cliReader_SetRange(reader, &range);
	}
	return status;
}

bcMesh* cliLoadMesh(const char* path, const cliCommonOptions* common, int* status)
{
	return loadMesh(path, common, status, false);
}

bcMesh* cliLoadMeshForIntersect(const char* path, const cliCommonOptions* common, int* status)
{
	return loadMesh(path, common, status, true);
}

const char* cliInputName(const char* path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

FILE* cliOpenInput(const char* path, bool quiet)
{
	bool standard = strcmp(path, "-") == 0;
	FILE* input = standard ? stdin : fopen(path, "rb");
	if (input == NULL) {
		bcError error = { 0 };
		snprintf(error.message, sizeof error.message, "cannot open: %s", strerror(errno));
		cliReportError(cliInputName(path), &error);
	} else if (standard && !quiet && isatty(STDIN_FILENO)) {
		/* a command waiting on the keyboard, not hung */
		fputs("ballcast: reading standard input, the terminal: type the records, then Ctrl-D\n", stderr);
	}
	return input;
}

void cliCloseInput(FILE* input)
{
	if (input != NULL && input != stdin) {
		fclose(input);
	}
}
