/* common.c - error reporting and helpers shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "cli.h"

void cliReportError(const char* file, const bcError* error)
{
	if (error->line > 0) {
		fprintf(stderr, "ballcast: %s:%ld:%ld: %s\n", file, error->line, error->column, error->message);
	} else {
		fprintf(stderr, "ballcast: %s: %s\n", file, error->message);
	}
}

bcMesh* cliLoadMesh(const char* path, int quiet)
{
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_LoadObj(path, &error);
	if (mesh == NULL) {
		cliReportError(path, &error);
		return NULL;
	}
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	if (info.degenerateCount > 0 && !quiet) {
		int32_t first = 0;
		while (first < info.triangleCount && !bcMesh_GetTriangle(mesh, first).degenerate) {
			++first;
		}
		fprintf(stderr, "ballcast: %s: %ld degenerate (zero-area) triangle%s skipped, the first is triangle %ld (face %ld)\n",
				path, (long)info.degenerateCount, info.degenerateCount == 1 ? "" : "s", (long)first,
				(long)bcMesh_GetTriangle(mesh, first).face);
	}
	return mesh;
}

int cliParseDouble(const char* text, double* value)
{
	char* end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != 0 || errno == ERANGE || !isfinite(v)) {
		return 0;
	}
	*value = v;
	return 1;
}

int cliParseInt(const char* text, int* value)
{
	char* end = NULL;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end != 0 || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		return 0;
	}
	*value = (int)v;
	return 1;
}
