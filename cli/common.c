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
#include "records.h"

void cliReportError(const char* file, const bcError* error)
{
	if (error->line > 0) {
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", file, error->line, error->column, error->message);
	} else {
		fprintf(stderr, "ballcast: %s: %s\n", file, error->message);
	}
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

/* Load a mesh with its notes; zeroAreaOnly: the note on skipped triangles
 * counts only those of zero area (intersect), else every degenerate one. */
static bcMesh* loadMesh(const char* path, int quiet, int threads, bool zeroAreaOnly)
{
	bcError error = { 0 };
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = threads;
	bcMesh* mesh = bcMesh_LoadObj(path, &options, &error);
	if (mesh == NULL && looksLikeJson(path)) {
		fprintf(stderr, "ballcast: %s: this is JSON, not an OBJ mesh: the mesh comes first (are the arguments "
						"swapped?)\n",
				path);
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
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", path, warning.line, warning.column, warning.message);
	}
	if (warnings > BC_MAX_WARNINGS && !quiet) {
		fprintf(stderr, "ballcast: %s: %ld more polygon warnings not shown\n", path,
				(long)warnings - BC_MAX_WARNINGS);
	}
	if (quiet) {
		return mesh;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (zeroAreaOnly) {
		int32_t first;
		int32_t count = info.degenerateCount > 0 ? bcMesh_CountZeroArea(mesh, &first) : 0;
		if (count > 0) {
			fprintf(stderr, "ballcast: %s: %ld zero-area triangle%s skipped, the first is triangle %ld (face %ld)\n",
					path, (long)count, count == 1 ? "" : "s", (long)first, (long)bcMesh_GetTriangle(mesh, first).face);
		}
	} else if (info.degenerateCount > 0) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		fprintf(stderr,
				"ballcast: %s: %ld degenerate (zero-area or sliver) triangle%s skipped, the first is triangle %ld "
				"(face %ld)\n",
				path, (long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
}

bcMesh* cliLoadMeshWithThreads(const char* path, int quiet, int threads)
{
	return loadMesh(path, quiet, threads, false);
}

bcMesh* cliLoadMeshForIntersect(const char* path, int quiet)
{
	return loadMesh(path, quiet, 0, true);
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
