/* cell_value.c - what one value of a student's file says (cell_value.h):
 * numbers however spelt, booleans in many words, missing values, feature
 * names, vectors packed in one cell. */
#include "cell_value.h"

#include <math.h>
#include <string.h>

/* The longest number read (a double needs 17 significant digits and an
 * exponent; 64 leaves room for zeros and blanks). */
#define CLI_NUMBER_TEXT 64

static bool isBlank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool isDigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Is s[0 .. n) word, ASCII case ignored? */
static bool same(const char* s, size_t n, const char* word)
{
	size_t m = strlen(word);
	if (n != m) {
		return false;
	}
	for (size_t i = 0; i < n; ++i) {
		if (lower(s[i]) != word[i]) {
			return false;
		}
	}
	return true;
}

/* text without the blanks around it: [*begin, *end). */
static void trim(const char* text, const char** begin, const char** end)
{
	const char* b = text;
	while (isBlank(*b)) {
		b++;
	}
	const char* e = b + strlen(b);
	while (e > b && isBlank(e[-1])) {
		e--;
	}
	*begin = b;
	*end = e;
}

/* s[0 .. n) as a number: see cliCellNumber. */
static int numberOf(const char* s, size_t n, bool decimalComma, double* value, unsigned* flags)
{
	*flags = 0;
	while (n > 0 && isBlank(*s)) {
		s++;
		n--;
	}
	while (n > 0 && isBlank(s[n - 1])) {
		n--;
	}
	if (n == 0) {
		return 0;
	}
	if (s[n - 1] == '%') {
		*flags |= cli_numberPercent;
		n--;
		while (n > 0 && isBlank(s[n - 1])) {
			n--;
		}
	}
	if (n == 0 || n >= CLI_NUMBER_TEXT) {
		return -1;
	}
	char buffer[CLI_NUMBER_TEXT];
	size_t k = 0;
	size_t i = 0;
	if (s[i] == '+' || s[i] == '-') {
		if (s[i] == '-') {
			buffer[k++] = '-';
		}
		i++;
	}
	const char* rest = s + i;
	size_t restLength = n - i;
	if (same(rest, restLength, "nan") || same(rest, restLength, "inf") || same(rest, restLength, "infinity") ||
		same(rest, restLength, ".nan") || same(rest, restLength, ".inf")) {
		return -2; /* YAML writes .nan and .inf */
	}
	size_t digits = 0;
	size_t intDigits = 0;
	if (i < n && !isDigit(s[i]) && s[i] != '.' && !(decimalComma && s[i] == ',')) {
		return -1;
	}
	bool leadingZero = i < n && s[i] == '0';
	while (i < n && isDigit(s[i])) {
		buffer[k++] = s[i++];
		digits++;
		intDigits++;
	}
	bool point = false;
	if (i < n && (s[i] == '.' || (decimalComma && s[i] == ','))) {
		*flags |= s[i] == ',' ? cli_numberDecimalComma : 0;
		point = true;
		if (intDigits == 0) {
			buffer[k++] = '0';
		}
		buffer[k++] = '.';
		i++;
		size_t fraction = 0;
		while (i < n && isDigit(s[i])) {
			buffer[k++] = s[i++];
			fraction++;
		}
		if (fraction == 0) {
			buffer[k++] = '0';
		}
		digits += fraction;
	}
	if (digits == 0) {
		return -1;
	}
	bool exponent = false;
	if (i < n && (s[i] == 'e' || s[i] == 'E' || s[i] == 'd' || s[i] == 'D')) {
		exponent = true;
		buffer[k++] = 'e';
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-')) {
			buffer[k++] = s[i++];
		}
		size_t e = 0;
		while (i < n && isDigit(s[i])) {
			buffer[k++] = s[i++];
			e++;
		}
		if (e == 0) {
			return -1;
		}
	}
	if (i != n) {
		return -1;
	}
	double x = 0.0;
	if (!bcParseDouble(buffer, k, &x)) {
		return -1;
	}
	if (!isfinite(x)) {
		return -2;
	}
	if (!point && !exponent) {
		*flags |= cli_numberWhole;
		*flags |= leadingZero && intDigits > 1 ? cli_numberLeadingZero : 0;
	}
	*value = x;
	return 1;
}

int cliCellNumber(const char* text, bool decimalComma, double* value, unsigned* flags)
{
	unsigned scratch = 0;
	return numberOf(text, strlen(text), decimalComma, value, flags != NULL ? flags : &scratch);
}

/* Boolean words: true first, then false. */
static const char* const strictWords[][2] = {
	{ "true", "false" }, { "yes", "no" },    { "wahr", "falsch" }, { "vrai", "faux" },   { "verdadero", "falso" },
	{ "vero", "falso" }, { "waar", "onwaar" }, { "sant", "falsk" }, { "verdadeiro", "falso" }, { "ja", "nein" },
	{ "oui", "non" },    { "si", "no" },
};
static const char* const looseWords[][2] = {
	{ "y", "n" }, { "t", "f" }, { "on", "off" }, { "hit", "miss" }, { "1", "0" }, { "1.0", "0.0" },
};

/* Words a hit column says a hit with; "no " or "not " before one says a
 * miss ("no collision", "not hit"). */
static const char* const hitWords[] = { "hit", "collision", "collided", "contact", "intersection", "intersects",
										"touch", "touches", "touched", "impact" };

static int boolOf(const char* text, bool loose)
{
	const char* b;
	const char* e;
	trim(text, &b, &e);
	size_t n = (size_t)(e - b);
	for (size_t w = 0; w < sizeof strictWords / sizeof strictWords[0]; ++w) {
		for (int v = 0; v < 2; ++v) {
			if (same(b, n, strictWords[w][v])) {
				return v == 0 ? 1 : 0;
			}
		}
	}
	for (size_t w = 0; loose && w < sizeof looseWords / sizeof looseWords[0]; ++w) {
		for (int v = 0; v < 2; ++v) {
			if (same(b, n, looseWords[w][v])) {
				return v == 0 ? 1 : 0;
			}
		}
	}
	/* "collision" and "no collision", "hit" and "not hit" */
	bool negated = false;
	if (loose && n > 3 && (same(b, 3, "no ") || same(b, 3, "no-") || same(b, 3, "no_"))) {
		negated = true;
		b += 3;
		n -= 3;
	} else if (loose && n > 4 && (same(b, 4, "not ") || same(b, 4, "not-") || same(b, 4, "not_"))) {
		negated = true;
		b += 4;
		n -= 4;
	}
	for (size_t w = 0; loose && w < sizeof hitWords / sizeof hitWords[0]; ++w) {
		if (same(b, n, hitWords[w])) {
			return negated ? 0 : 1;
		}
	}
	return -1;
}

bool cliCellBool(const char* text, bool* value)
{
	int b = boolOf(text, true);
	if (b < 0) {
		return false;
	}
	*value = b == 1;
	return true;
}

bool cliCellIsBoolWord(const char* text)
{
	return boolOf(text, false) >= 0;
}

bool cliCellIsMissing(const char* text)
{
	if ((unsigned char)(text[0] - '0') < 10) {
		return false; /* a digit first: a number, not a word */
	}
	static const char* const words[] = { "nan", "null", "none", "na", "n/a", "nil", "missing", "undefined",
										 "-", "--", "?", "#n/a", "<na>", "nat" };
	const char* b;
	const char* e;
	trim(text, &b, &e);
	size_t n = (size_t)(e - b);
	if (n == 0) {
		return true;
	}
	for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
		if (same(b, n, words[w])) {
			return true;
		}
	}
	return false;
}

bool cliCellFeature(const char* text, bcFeature* feature)
{
	static const struct {
		const char* word;
		bcFeature feature;
	} words[] = {
		{ "face", bc_featureFace },     { "f", bc_featureFace },       { "triangle", bc_featureFace },
		{ "tri", bc_featureFace },      { "plane", bc_featureFace },   { "edge", bc_featureEdge },
		{ "e", bc_featureEdge },        { "segment", bc_featureEdge }, { "vertex", bc_featureVertex },
		{ "v", bc_featureVertex },      { "vert", bc_featureVertex },  { "corner", bc_featureVertex },
		{ "none", bc_featureNone },     { "miss", bc_featureNone },    { "n", bc_featureNone },
	};
	const char* b;
	const char* e;
	trim(text, &b, &e);
	/* an enum's spelling: the part after the last '.', '_' or ':' of
	 * FEATURE_FACE, Feature.EDGE, Feature::Vertex; bc_featureVertex */
	const char* p = e;
	while (p > b && p[-1] != '.' && p[-1] != '_' && p[-1] != ':') {
		p--;
	}
	size_t n = (size_t)(e - p);
	if (p > b && n > 7 && same(p, 7, "feature")) {
		p += 7;
		n -= 7;
	}
	for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
		if (same(p, n, words[w].word)) {
			*feature = words[w].feature;
			return true;
		}
	}
	return false;
}

int cliCellVector(const char* text, bool decimalComma, bcVec3* v)
{
	if (cliCellIsMissing(text)) {
		return 0;
	}
	const char* b;
	const char* e;
	trim(text, &b, &e);
	/* a type name (vec3, array, Vector3, np.array) */
	if (b < e && ((*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') || *b == '_')) {
		while (b < e && ((*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') || isDigit(*b) || *b == '_' ||
						 *b == '.')) {
			b++;
		}
	}
	/* brackets around the numbers: strip them (nested too: array([...])) */
	for (;;) {
		while (b < e && isBlank(*b)) {
			b++;
		}
		while (e > b && isBlank(e[-1])) {
			e--;
		}
		if (b < e && (*b == '[' || *b == '(' || *b == '{' || *b == '<') && (e[-1] == ']' || e[-1] == ')' ||
																			 e[-1] == '}' || e[-1] == '>')) {
			b++;
			e--;
			continue;
		}
		break;
	}
	double x[3];
	int count = 0;
	const char* p = b;
	while (p < e) {
		while (p < e && (isBlank(*p) || *p == ';' || (!decimalComma && *p == ','))) {
			p++;
		}
		if (p >= e) {
			break;
		}
		const char* q = p;
		while (q < e && !isBlank(*q) && *q != ';' && (decimalComma || *q != ',')) {
			q++;
		}
		if (count == 3) {
			return -1;
		}
		unsigned flags = 0;
		int status = numberOf(p, (size_t)(q - p), decimalComma, x + count, &flags);
		if (status <= 0 || (flags & cli_numberPercent)) {
			return -1;
		}
		count++;
		p = q;
	}
	if (count != 3) {
		return count == 0 ? 0 : -1;
	}
	*v = bcMakeVec3(x[0], x[1], x[2]);
	return 1;
}

bool cliCellIsUnitVector(const char* text, bool decimalComma)
{
	bcVec3 v;
	return cliCellVector(text, decimalComma, &v) > 0 && fabs(bcLength(v) - 1.0) <= CLI_UNIT_SLACK;
}
