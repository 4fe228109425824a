/* field_names.c - the names students give the fields of an answer
 * (field_names.h): a name cut into lowercase words, then looked up as a
 * phrase, as a vector's name with a component, or by its telling words. */
#include "field_names.h"

#include <stddef.h>
#include <string.h>

/* The longest name looked at (longer ones are cut: no field's name is
 * near it). */
#define CLI_NAME_MAX 96

/* A phrase: its words, the slot, and whether it is sure. */
typedef struct cliPhrase {
	const char* words;
	cliSlot slot;
	bool sure;
} cliPhrase;

static const cliPhrase phrases[] = {
	/* the names cast writes */
	{ "id", cli_slotId, true },
	{ "hit", cli_slotHit, true },
	{ "alpha", cli_slotAlpha, true },
	{ "initial overlap", cli_slotInitialOverlap, true },
	{ "feature", cli_slotFeature, true },
	{ "triangle", cli_slotTriangle, true },
	{ "face", cli_slotFace, true },
	{ "vertices", cli_slotVertices, true },
	{ "vertex 0", cli_slotVertex0, true },
	{ "vertex 1", cli_slotVertex1, true },
	{ "vertex 2", cli_slotVertex2, true },
	{ "error", cli_slotError, true },
	{ "ties", cli_slotTies, true },
	{ "x0", cli_slotP0 + 1, true },
	{ "y0", cli_slotP0 + 2, true },
	{ "z0", cli_slotP0 + 3, true },
	{ "x1", cli_slotP1 + 1, true },
	{ "y1", cli_slotP1 + 2, true },
	{ "z1", cli_slotP1 + 3, true },
	/* ids */
	{ "name", cli_slotId, true },
	{ "throw", cli_slotId, true },
	{ "throw id", cli_slotId, true },
	{ "throw name", cli_slotId, true },
	{ "key", cli_slotId, true },
	{ "label", cli_slotId, true },
	{ "case", cli_slotId, true },
	{ "case id", cli_slotId, true },
	{ "test", cli_slotId, true },
	{ "test id", cli_slotId, true },
	{ "test case", cli_slotId, true },
	{ "trajectory", cli_slotId, true },
	{ "trajectory id", cli_slotId, true },
	{ "traj", cli_slotId, true },
	{ "traj id", cli_slotId, true },
	{ "ray", cli_slotId, true },
	{ "ray id", cli_slotId, true },
	{ "query", cli_slotId, true },
	{ "query id", cli_slotId, true },
	{ "sample", cli_slotId, true },
	{ "sample id", cli_slotId, true },
	{ "shot", cli_slotId, true },
	{ "record", cli_slotId, true },
	{ "record id", cli_slotId, true },
	{ "uid", cli_slotId, true },
	{ "identifier", cli_slotId, true },
	{ "ball", cli_slotId, true },
	{ "ball id", cli_slotId, true },
	{ "index", cli_slotId, false },
	{ "idx", cli_slotId, false },
	{ "row", cli_slotId, false },
	{ "no", cli_slotId, false },
	{ "num", cli_slotId, false },
	{ "number", cli_slotId, false },
	{ "#", cli_slotId, false },
	{ "i", cli_slotId, false },
	{ "k", cli_slotId, false },
	{ "unnamed 0", cli_slotId, false },
	/* hit */
	{ "hits", cli_slotHit, true },
	{ "is hit", cli_slotHit, true },
	{ "did hit", cli_slotHit, true },
	{ "has hit", cli_slotHit, true },
	{ "was hit", cli_slotHit, true },
	{ "hit flag", cli_slotHit, true },
	{ "collided", cli_slotHit, true },
	{ "collision", cli_slotHit, true },
	{ "collides", cli_slotHit, true },
	{ "collide", cli_slotHit, true },
	{ "is collision", cli_slotHit, true },
	{ "has collision", cli_slotHit, true },
	{ "intersects", cli_slotHit, true },
	{ "intersect", cli_slotHit, true },
	{ "intersected", cli_slotHit, true },
	{ "intersection", cli_slotHit, true },
	{ "touched", cli_slotHit, true },
	{ "touches", cli_slotHit, true },
	{ "touch", cli_slotHit, true },
	{ "found", cli_slotHit, true },
	{ "contact", cli_slotHit, false },
	{ "impact", cli_slotHit, false },
	{ "result", cli_slotHit, false },
	{ "status", cli_slotHit, false },
	{ "outcome", cli_slotHit, false },
	/* alpha */
	{ "t", cli_slotAlpha, true },
	{ "toi", cli_slotAlpha, true },
	{ "time", cli_slotAlpha, true },
	{ "hit time", cli_slotAlpha, true },
	{ "time hit", cli_slotAlpha, true },
	{ "t hit", cli_slotAlpha, true },
	{ "impact time", cli_slotAlpha, true },
	{ "time of impact", cli_slotAlpha, true },
	{ "contact time", cli_slotAlpha, true },
	{ "collision time", cli_slotAlpha, true },
	{ "time of contact", cli_slotAlpha, true },
	{ "time of collision", cli_slotAlpha, true },
	{ "t contact", cli_slotAlpha, true },
	{ "t impact", cli_slotAlpha, true },
	{ "t collision", cli_slotAlpha, true },
	{ "tc", cli_slotAlpha, true },
	{ "toc", cli_slotAlpha, true },
	{ "ttc", cli_slotAlpha, true },
	{ "fraction", cli_slotAlpha, true },
	{ "frac", cli_slotAlpha, true },
	{ "param", cli_slotAlpha, true },
	{ "parameter", cli_slotAlpha, true },
	{ "lambda", cli_slotAlpha, true },
	{ "tmin", cli_slotAlpha, true },
	{ "t min", cli_slotAlpha, true },
	{ "alpha hit", cli_slotAlpha, true },
	{ "hit alpha", cli_slotAlpha, true },
	{ "a", cli_slotAlpha, false },
	{ "s", cli_slotAlpha, false },
	{ "u", cli_slotAlpha, false },
	{ "when", cli_slotAlpha, false },
	{ "at", cli_slotAlpha, false },
	{ "progress", cli_slotAlpha, false },
	{ "percent", cli_slotAlphaPercent, false },
	{ "pct", cli_slotAlphaPercent, false },
	{ "percentage", cli_slotAlphaPercent, false },
	/* initial overlap */
	{ "initial", cli_slotInitialOverlap, true },
	{ "overlap", cli_slotInitialOverlap, true },
	{ "overlaps", cli_slotInitialOverlap, true },
	{ "overlapping", cli_slotInitialOverlap, true },
	{ "initially overlapping", cli_slotInitialOverlap, true },
	{ "started inside", cli_slotInitialOverlap, true },
	{ "start inside", cli_slotInitialOverlap, true },
	{ "starts inside", cli_slotInitialOverlap, true },
	{ "inside", cli_slotInitialOverlap, true },
	{ "embedded", cli_slotInitialOverlap, true },
	{ "start overlap", cli_slotInitialOverlap, true },
	/* feature */
	{ "feat", cli_slotFeature, true },
	{ "kind", cli_slotFeature, true },
	{ "type", cli_slotFeature, true },
	{ "contact type", cli_slotFeature, true },
	{ "contact kind", cli_slotFeature, true },
	{ "contact feature", cli_slotFeature, true },
	{ "hit type", cli_slotFeature, true },
	{ "hit feature", cli_slotFeature, true },
	{ "feature type", cli_slotFeature, true },
	{ "closest feature", cli_slotFeature, true },
	{ "where", cli_slotFeature, false },
	{ "region", cli_slotFeature, true },
	{ "element", cli_slotFeature, false },
	{ "part", cli_slotFeature, false },
	/* triangle */
	{ "tri", cli_slotTriangle, true },
	{ "triangle id", cli_slotTriangle, true },
	{ "tri id", cli_slotTriangle, true },
	{ "triangle index", cli_slotTriangle, true },
	{ "tri index", cli_slotTriangle, true },
	{ "tri idx", cli_slotTriangle, true },
	{ "triangle idx", cli_slotTriangle, true },
	{ "triangle number", cli_slotTriangle, true },
	{ "triangle no", cli_slotTriangle, true },
	{ "tri no", cli_slotTriangle, true },
	{ "tri num", cli_slotTriangle, true },
	{ "face id", cli_slotTriangle, true },
	{ "face index", cli_slotTriangle, true },
	{ "face idx", cli_slotTriangle, true },
	{ "prim", cli_slotTriangle, true },
	{ "primitive", cli_slotTriangle, true },
	{ "prim id", cli_slotTriangle, true },
	{ "primitive id", cli_slotTriangle, true },
	{ "hit triangle", cli_slotTriangle, true },
	{ "triangle hit", cli_slotTriangle, true },
	{ "contact triangle", cli_slotTriangle, true },
	{ "tid", cli_slotTriangle, true },
	/* face (the OBJ polygon, as cast writes it) */
	{ "polygon", cli_slotFace, true },
	{ "obj face", cli_slotFace, true },
	/* vertices */
	{ "verts", cli_slotVertices, true },
	{ "vertex ids", cli_slotVertices, true },
	{ "vertex indices", cli_slotVertices, true },
	{ "contact vertices", cli_slotVertices, true },
	{ "feature vertices", cli_slotVertices, true },
	/* error, ties */
	{ "err", cli_slotError, true },
	{ "errors", cli_slotError, true },
	{ "error message", cli_slotError, true },
	{ "tied", cli_slotTies, true },
};

/* The vectors' names. */
static const cliPhrase vectors[] = {
	{ "point", cli_slotPoint, true },
	{ "p", cli_slotPoint, true },
	{ "contact point", cli_slotPoint, true },
	{ "hit point", cli_slotPoint, true },
	{ "pt", cli_slotPoint, true },
	{ "q", cli_slotPoint, true },
	{ "closest point", cli_slotPoint, true },
	{ "contact position", cli_slotPoint, true },
	{ "contact pos", cli_slotPoint, true },
	{ "collision point", cli_slotPoint, true },
	{ "impact point", cli_slotPoint, true },
	{ "intersection point", cli_slotPoint, true },
	{ "touch point", cli_slotPoint, true },
	{ "point of contact", cli_slotPoint, true },
	{ "contact", cli_slotPoint, false },
	{ "center", cli_slotCenter, true },
	{ "centre", cli_slotCenter, true },
	{ "c", cli_slotCenter, true },
	{ "ball center", cli_slotCenter, true },
	{ "ball centre", cli_slotCenter, true },
	{ "center at contact", cli_slotCenter, true },
	{ "centre at contact", cli_slotCenter, true },
	{ "contact center", cli_slotCenter, true },
	{ "sphere center", cli_slotCenter, true },
	{ "position", cli_slotCenter, true },
	{ "pos", cli_slotCenter, true },
	{ "ball position", cli_slotCenter, true },
	{ "ball pos", cli_slotCenter, true },
	{ "normal", cli_slotNormal, true },
	{ "n", cli_slotNormal, true },
	{ "norm", cli_slotNormal, true },
	{ "nrm", cli_slotNormal, true },
	{ "normals", cli_slotNormal, true },
	{ "contact normal", cli_slotNormal, true },
	{ "surface normal", cli_slotNormal, true },
	{ "hit normal", cli_slotNormal, true },
	{ "collision normal", cli_slotNormal, true },
	{ "impact normal", cli_slotNormal, true },
	{ "normal vec", cli_slotNormal, true },
	{ "normal vector", cli_slotNormal, true },
	{ "nvec", cli_slotNormal, true },
	{ "triangle normal", cli_slotTriangleNormal, true },
	{ "tri normal", cli_slotTriangleNormal, true },
	{ "face normal", cli_slotTriangleNormal, true },
	{ "trinormal", cli_slotTriangleNormal, true },
	{ "facenormal", cli_slotTriangleNormal, true },
	{ "tn", cli_slotTriangleNormal, true },
	{ "plane normal", cli_slotTriangleNormal, true },
	{ "geometric normal", cli_slotTriangleNormal, true },
	{ "p0", cli_slotP0, true },
	{ "start", cli_slotP0, true },
	{ "from", cli_slotP0, true },
	{ "origin", cli_slotP0, true },
	{ "p1", cli_slotP1, true },
	{ "end", cli_slotP1, true },
	{ "to", cli_slotP1, true },
	{ "target", cli_slotP1, true },
};

static bool isUpper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool isLower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool isDigitChar(char c)
{
	return c >= '0' && c <= '9';
}

static bool isAlnum(char c)
{
	return isUpper(c) || isLower(c) || isDigitChar(c) || (unsigned char)c >= 0x80;
}

/* name cut into words: lowercase, one blank between words; '%' and '#'
 * are words of their own. */
static void wordsOf(const char* name, char* out, size_t size)
{
	size_t n = 0;
	bool pending = false; /* a blank is due before the next word byte */
	size_t length = strlen(name);
	for (size_t i = 0; i < length && n + 3 < size; ++i) {
		char c = name[i];
		if (c == '%' || c == '#') {
			if (n > 0) {
				out[n++] = ' ';
			}
			out[n++] = c;
			pending = true;
			continue;
		}
		if (!isAlnum(c)) {
			pending = n > 0;
			continue;
		}
		/* camelCase: hitTime, triangleID, XMLName */
		bool boundary = i > 0 && isUpper(c) &&
						(isLower(name[i - 1]) || (isUpper(name[i - 1]) && i + 1 < length && isLower(name[i + 1])));
		if ((pending || boundary) && n > 0) {
			out[n++] = ' ';
		}
		pending = false;
		out[n++] = isUpper(c) ? (char)(c + 32) : c;
	}
	out[n] = '\0';
}

static const cliPhrase* lookup(const cliPhrase* table, size_t count, const char* words)
{
	for (size_t k = 0; k < count; ++k) {
		if (strcmp(table[k].words, words) == 0) {
			return table + k;
		}
	}
	return NULL;
}

/* Is word one of the space-separated words of words? */
static bool hasWord(const char* words, const char* word)
{
	size_t n = strlen(word);
	for (const char* p = words; (p = strstr(p, word)) != NULL; p += n) {
		if ((p == words || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) {
			return true;
		}
	}
	return false;
}

/* A component word: x, y, z, or 0, 1, 2 (1, 2, 3 with oneBased): 0, 1, 2,
 * or -1. */
static int componentOf(const char* word, bool oneBased)
{
	if (word[1] != '\0') {
		return -1;
	}
	switch (word[0]) {
	case 'x': return 0;
	case 'y': return 1;
	case 'z': return 2;
	case '0': return oneBased ? -1 : 0;
	case '1': return oneBased ? 0 : 1;
	case '2': return oneBased ? 1 : 2;
	case '3': return oneBased ? 2 : -1;
	default: return -1;
	}
}

/* The slot of words (a name cut into words). */
static cliSlot slotOfWords(char* words, bool oneBased, bool* sure)
{
	*sure = true;
	const cliPhrase* p = lookup(phrases, sizeof phrases / sizeof phrases[0], words);
	if (p != NULL) {
		*sure = p->sure;
		return p->slot;
	}
	p = lookup(vectors, sizeof vectors / sizeof vectors[0], words);
	if (p != NULL) {
		*sure = p->sure;
		return p->slot;
	}
	/* a percentage: alpha %, t pct, percent */
	if (hasWord(words, "%") || hasWord(words, "pct") || hasWord(words, "percent") || hasWord(words, "percentage")) {
		return cli_slotAlphaPercent;
	}
	/* a vector's component: "normal x", "n 0", "contact normal z" */
	char* last = strrchr(words, ' ');
	if (last != NULL) {
		int component = componentOf(last + 1, oneBased);
		if (component >= 0) {
			*last = '\0';
			p = lookup(vectors, sizeof vectors / sizeof vectors[0], words);
			bool vectorSure = p != NULL && p->sure;
			cliSlot base = p != NULL ? p->slot : cli_slotNone;
			if (base == cli_slotNone && strstr(words, "normal") != NULL) {
				base = strstr(words, "tri") != NULL || strstr(words, "face") != NULL ? cli_slotTriangleNormal
																					   : cli_slotNormal;
			}
			*last = ' ';
			if (base != cli_slotNone) {
				*sure = vectorSure;
				return (cliSlot)(base + 1 + component);
			}
		}
	}
	/* nx, ny, nz; px, cz; tnx */
	size_t n = strlen(words);
	if (n >= 2 && n <= 3 && strchr(words, ' ') == NULL) {
		int component = componentOf(words + n - 1, false);
		if (component >= 0 && isLower(words[n - 1])) {
			char base[4];
			memcpy(base, words, n - 1);
			base[n - 1] = '\0';
			p = lookup(vectors, sizeof vectors / sizeof vectors[0], base);
			if (p != NULL) {
				return (cliSlot)(p->slot + 1 + component);
			}
		}
	}
	/* telling words */
	*sure = false;
	if (strstr(words, "normal") != NULL) {
		return strstr(words, "tri") != NULL || strstr(words, "face") != NULL ? cli_slotTriangleNormal : cli_slotNormal;
	}
	if (hasWord(words, "time") || hasWord(words, "toi") || hasWord(words, "alpha")) {
		return cli_slotAlpha;
	}
	if (hasWord(words, "tri") || hasWord(words, "triangle")) {
		return cli_slotTriangle;
	}
	if (hasWord(words, "hit") || strstr(words, "collid") != NULL || strstr(words, "intersect") != NULL) {
		return cli_slotHit;
	}
	if (strstr(words, "feature") != NULL) {
		return cli_slotFeature;
	}
	if (strstr(words, "overlap") != NULL) {
		return cli_slotInitialOverlap;
	}
	if (hasWord(words, "error")) {
		return cli_slotError;
	}
	if (last != NULL && strcmp(last + 1, "id") == 0) {
		return hasWord(words, "face") ? cli_slotTriangle : cli_slotId;
	}
	return cli_slotNone;
}

/* cliSlotOfName, with components numbered from 1 when oneBased. */
static cliSlot slotOfName(const char* name, bool oneBased, bool* sure)
{
	char words[CLI_NAME_MAX + 4];
	wordsOf(name, words, sizeof words);
	if (words[0] == '\0') {
		*sure = false;
		return cli_slotNone;
	}
	return slotOfWords(words, oneBased, sure);
}

cliSlot cliSlotOfName(const char* name, bool* sure)
{
	bool scratch = false;
	return slotOfName(name, false, sure != NULL ? sure : &scratch);
}

cliSlot cliSlotOfNameOneBased(const char* name, bool* sure)
{
	bool scratch = false;
	return slotOfName(name, true, sure != NULL ? sure : &scratch);
}

bool cliNameEndsInDigit(const char* name, char digit)
{
	char words[CLI_NAME_MAX + 4];
	wordsOf(name, words, sizeof words);
	const char* last = strrchr(words, ' ');
	return last != NULL && last[1] == digit && last[2] == '\0';
}

const char* cliSlot_Name(cliSlot s)
{
	static const char* const names[] = {
		"none", "id", "hit", "alpha", "alpha %", "initial_overlap", "feature", "triangle", "face", "vertices",
		"vertex_0", "vertex_1", "vertex_2", "error", "ties",
		"point", "point_x", "point_y", "point_z", "center", "center_x", "center_y", "center_z",
		"normal", "normal_x", "normal_y", "normal_z", "triangle_normal", "triangle_normal_x", "triangle_normal_y",
		"triangle_normal_z", "p0", "x0", "y0", "z0", "p1", "x1", "y1", "z1",
	};
	return s >= 0 && s < cli_slotCount ? names[s] : "none";
}

bool cliNameIsIgnore(const char* name)
{
	return strcmp(name, "none") == 0 || strcmp(name, "ignore") == 0 || strcmp(name, "-") == 0;
}
