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
#include "common.h"
#include "options.h"
#include "output.h"
#include "records.h"

void cliReportFile(const char* file)
{
	fputs("ballcast: ", stderr);
	cliWriteName(stderr, file);
}

void cliReportError(const char* file, const bcError* error)
{
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

bcMesh* cliLoadMesh(const char* path, int quiet)
{
	return cliLoadMeshWithThreads(path, quiet, 0);
}

bcMesh* cliLoadMeshWithThreads(const char* path, int quiet, int threads)
{
	bcError error = { 0 };
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = threads;
	bcMesh* mesh = bcMesh_LoadObj(path, &options, &error);
	if (mesh == NULL && looksLikeJson(path)) {
		cliReportFile(path);
		fputs(": this is JSON, not an OBJ mesh: the mesh comes first (are the arguments swapped?)\n", stderr);
		return NULL;
	}
	if (mesh == NULL) {
		cliReportError(path, &error);
		return NULL;
	}
	/* The reader's notes on polygons it cut as a fan (non-planar,
	 * self-intersecting), each at its f line, then how many more. */
	int32_t warnings = bcMesh_GetWarningCount(mesh);
	for (int32_t k = 0; k < warnings && k < BC_MAX_WARNINGS && !quiet; ++k) {
		bcWarning warning = bcMesh_GetWarning(mesh, k);
		cliReportFile(path);
		fprintf(stderr, ":%ld:%ld: %s\n", warning.line, warning.column, warning.message);
	}
	if (warnings > BC_MAX_WARNINGS && !quiet) {
		cliReportFile(path);
		fprintf(stderr, ": %ld more polygon warnings not shown\n", (long)warnings - BC_MAX_WARNINGS);
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount > 0 && !quiet) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		cliReportFile(path);
		fprintf(stderr, ": %ld degenerate (zero-area) triangle%s skipped, the first is triangle %ld (face %ld)\n",
				(long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
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
