/* grade_config.c - the grading engine's settings (grade_config.h): their
 * defaults, the shared grading options, the --fields and
 * --accept-normals words. */
#include "grade_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "options.h"

void cliGradeConfig_Init(cliGradeConfig* cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->alphaTol = CLI_ALPHA_TOLERANCE;
	cfg->alphaRel = CLI_ALPHA_RELATIVE;
	cfg->normalTol = CLI_NORMAL_TOLERANCE;
	cfg->pointTol = CLI_POINT_TOLERANCE;
	cfg->fields = CLI_FIELDS_ALL;
	cfg->maxFailures = CLI_MAX_FAILURES;
}

void cliGradeConfig_Free(cliGradeConfig* cfg)
{
	for (int k = 0; k < 2 * cfg->mapCount; ++k) {
		free((char*)cfg->map[k]);
	}
	cfg->mapCount = 0;
}

const char* cliGradeConfig_Option(cliGradeConfig* cfg, int k, const char* value)
{
	static const char* const problems[] = {
		"--alpha-tol needs a finite number >= 0, not",
		"--alpha-rel needs a finite number >= 0, not",
		"--normal-tol needs a finite number of degrees >= 0, not",
		"--point-tol needs a finite number >= 0, not",
	};
	double* tolerances[] = { &cfg->alphaTol, &cfg->alphaRel, &cfg->normalTol, &cfg->pointTol };
	if (k < 4) {
		return cliParseNonNegative(value, tolerances[k]) ? NULL : problems[k];
	}
	switch (k) {
	case 4: {
		const char* bad = NULL;
		size_t length = 0;
		return cliParseFields(value, &cfg->fields, &bad, &length) ? NULL
			   : "--fields takes hit, alpha, initial_overlap, feature, triangle, face, vertices, point, center, "
				 "normal, triangle_normal or all, not";
	}
	case 5:
		cfg->oneBased = true;
		return NULL;
	case 6: {
		const char* equals = strchr(value, '=');
		if (equals == NULL || equals == value || equals[1] == '\0') {
			return "--map takes THEIRS=OURS (a key or column of theirs, the field it is), not";
		}
		if (cfg->mapCount == CLI_MAP_MAX) {
			return "--map is given too often (at most 32), at";
		}
		char* theirs = cliCopyText(value, (size_t)(equals - value));
		char* ours = cliCopyText(equals + 1, strlen(equals + 1));
		if (theirs == NULL || ours == NULL) {
			free(theirs);
			free(ours);
			return "out of memory at";
		}
		cfg->map[2 * cfg->mapCount] = theirs;
		cfg->map[2 * cfg->mapCount + 1] = ours;
		cfg->mapCount += 1;
		return NULL;
	}
	case 7:
		return cliParseNormals(value, &cfg->acceptNormals) ? NULL
			   : "--accept-normals takes contact, triangle or average, comma separated, not";
	case 8: {
		char* end = NULL;
		errno = 0;
		long n = strtol(value, &end, 10);
		if (end == value || *end != '\0' || errno != 0 || n < 0) {
			return "--max-failures needs a whole number >= 0, not";
		}
		cfg->maxFailures = n;
		return NULL;
	}
	case 9:
		cfg->followLinks = true;
		return NULL;
	default:
		return "not a grading option:";
	}
}

/* A word of a list option and the bits it stands for. */
typedef struct cliNamedBits {
	const char* name;
	unsigned bits;
} cliNamedBits;

/* A comma-separated list of words of names[0 .. count), each spelt exactly,
 * as the union of their bits: true with *bits, else false with *bad the
 * first word not known (an empty one too; pointing into list) and
 * *badLength its length. */
static bool parseWordList(const char* list, const cliNamedBits* names, size_t count, unsigned* bits,
						  const char** bad, size_t* badLength)
{
	unsigned out = 0;
	const char* p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		size_t k = 0;
		while (k < count && !(strlen(names[k].name) == n && strncmp(p, names[k].name, n) == 0)) {
			k++;
		}
		if (k == count) {
			*bad = p;
			*badLength = n;
			return false;
		}
		out |= names[k].bits;
		if (p[n] == '\0') {
			break;
		}
		p += n + 1;
	}
	*bits = out;
	return true;
}

bool cliParseNormals(const char* list, unsigned* normals)
{
	static const cliNamedBits names[] = {
		{ "contact", cli_normalsContact },
		{ "triangle", cli_normalsTriangle },
		{ "average", cli_normalsAverage },
	};
	const char* bad;
	size_t badLength;
	return parseWordList(list, names, sizeof names / sizeof names[0], normals, &bad, &badLength);
}

bool cliParseFields(const char* list, unsigned* fields, const char** bad, size_t* badLength)
{
	static const cliNamedBits names[] = {
		{ "all", CLI_FIELDS_ALL },
		{ "hit", cli_resultHit },       { "alpha", cli_resultAlpha },         { "t", cli_resultAlpha },
		{ "time", cli_resultAlpha },    { "initial_overlap", cli_resultInitialOverlap },
		{ "feature", cli_resultFeature }, { "triangle", cli_resultTriangle }, { "face", cli_resultFace },
		{ "vertices", cli_resultVertices }, { "point", cli_resultPoint },    { "center", cli_resultCenter },
		{ "normal", cli_resultNormal }, { "n", cli_resultNormal },           { "triangle_normal", cli_resultTriangleNormal },
	};
	return parseWordList(list, names, sizeof names / sizeof names[0], fields, bad, badLength);
}
