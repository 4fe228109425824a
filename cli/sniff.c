/* sniff.c - what an input is when it is not what a command reads
 * (sniff.h). */
#include "sniff.h"

#include <stdio.h>
#include <string.h>

/* The OBJ keywords a file may start with (after comments): geometry,
 * grouping and materials. */
static const char* const objKeywords[] = { "v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "mtllib", "usemtl" };

bool cliLooksLikeObj(const char* text)
{
	text += strspn(text, " \t");
	if (text[0] == '#') {
		return true;
	}
	size_t n = strcspn(text, " \t");
	if (n == 0 || (text[n] != ' ' && text[n] != '\t')) {
		return false; /* a keyword is followed by its values */
	}
	for (size_t k = 0; k < sizeof objKeywords / sizeof objKeywords[0]; ++k) {
		if (strlen(objKeywords[k]) == n && strncmp(text, objKeywords[k], n) == 0) {
			return true;
		}
	}
	return false;
}

void cliNameObjAsRecords(const char* firstCell, char* message, size_t size)
{
	if (firstCell != NULL && cliLooksLikeObj(firstCell)) {
		snprintf(message, size,
				 "this is an OBJ mesh, not trajectories or balls: those come after the mesh, as JSON, NDJSON or "
				 "CSV (is the mesh given twice, or are the arguments swapped?)");
	}
}
