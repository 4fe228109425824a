/* table_infer.c - which column holds which field (table_infer.h): --map,
 * then names, then values over the sample, with the evidence of each and
 * a flag when the reading had to choose. */
#include "table_infer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_value.h"
#include "input.h"
#include "output.h"

/* Values of a column that may disagree with the field its others say (a
 * student's stray cell): one in twenty. */
#define CLI_STRAY_SHARE 20

/* What the sample's cells of one column are. */
typedef struct cliStats {
	long present;    /* cells not absent */
	long missing;    /* empty, or a word for no value */
	long numbers;    /* finite numbers (written as numbers or as text) */
	long whole;      /* whole numbers */
	long unit;       /* numbers in [0, 1] */
	long minusOne;   /* -1 */
	long zeroOne;    /* exactly 0 or 1 */
	long percentSign;
	long negative;   /* numbers below 0 other than -1 */
	long bools;      /* booleans: typed, or words and 1/0, y/n, t/f */
	long boolWords;  /* typed booleans, true/false, yes/no (in any language) */
	long features;   /* feature words */
	long featureLetters; /* of them, one letter: f, e, v, n */
	long vectors;    /* three numbers in one cell */
	long unitVectors;
	long steps;      /* whole numbers one more than the row before's: row numbers */
	double maxWhole;
	double lastWhole;
	bool haveLast;
} cliStats;

static long given(const cliStats* s)
{
	return s->present - s->missing;
}

/* count of given values is all (but strays)? */
static bool most(long count, long of)
{
	return of > 0 && count >= of - of / CLI_STRAY_SHARE;
}

/* The stats of the columns that need them (need[k]: a name does not
 * surely say what it holds, or it says alpha, which may be a percentage). */
static void gather(const cliTable* t, cliStats* stats, const bool* need)
{
	for (long i = 0; i < t->rowCount; ++i) {
		const cliTableRow* row = t->rows + i;
		for (int k = 0; k < row->cellCount && k < t->columnCount; ++k) {
			const cliCell* cell = row->cells + k;
			cliStats* s = stats + k;
			if (cell->kind == cli_cellAbsent || !need[k]) {
				continue;
			}
			s->present++;
			if (cell->kind == cli_cellEmpty) {
				s->missing++;
				continue;
			}
			if (cell->kind == cli_cellBool) {
				s->bools++;
				s->boolWords++;
				continue;
			}
			const char* text = cell->text;
			bcVec3 v;
			if (cell->kind == cli_cellList || cell->kind == cli_cellObject) {
				if (cliCellVector(text, t->decimalComma, &v) > 0) {
					if (v.x == 0.0 && v.y == 0.0 && v.z == 0.0) {
						s->missing++; /* [0, 0, 0]: a miss's placeholder */
						continue;
					}
					s->vectors++;
					s->unitVectors += fabs(bcLength(v) - 1.0) <= CLI_UNIT_SLACK;
				}
				continue;
			}
			if (cliCellIsMissing(text)) {
				s->missing++;
				continue;
			}
			double x = 0.0;
			unsigned flags = 0;
			int number = cliCellNumber(text, t->decimalComma, &x, &flags);
			bool b = false;
			if (number == 1) {
				s->numbers++;
				s->percentSign += (flags & cli_numberPercent) != 0;
				s->unit += x >= 0.0 && x <= 1.0;
				s->minusOne += x == -1.0;
				s->zeroOne += x == 0.0 || x == 1.0;
				s->negative += x < 0.0 && x != -1.0;
				if (flags & cli_numberWhole) {
					s->whole++;
					s->maxWhole = x > s->maxWhole ? x : s->maxWhole;
					s->steps += s->haveLast && x == s->lastWhole + 1.0;
					s->lastWhole = x;
					s->haveLast = true;
				}
				if (x == 0.0 || x == 1.0) {
					s->bools++;
				}
				continue;
			}
			bcFeature feature;
			if (cliCellBool(text, &b)) {
				s->bools++;
				s->boolWords += cliCellIsBoolWord(text);
			}
			if (cliCellFeature(text, &feature)) {
				s->features++;
				s->featureLetters += strlen(text) == 1;
			}
			if (cliCellVector(text, t->decimalComma, &v) > 0 ||
				(!t->decimalComma && cell->kind == cli_cellString && cliCellVector(text, true, &v) > 0)) {
				s->vectors++;
				s->unitVectors += fabs(bcLength(v) - 1.0) <= CLI_UNIT_SLACK;
			}
		}
	}
}

void cliShortColumnName(const char* name, char* out, size_t size)
{
	const char* dot = strrchr(name, '.');
	char head[CLI_SHOWN_NAME_SIZE];
	char last[CLI_SHOWN_NAME_SIZE];
	last[0] = '\0';
	if (cliShortName(name, head, sizeof head) && dot != NULL && dot != name && dot[1] != '\0') {
		char* path = cliCopyText(name, (size_t)(dot - name));
		cliShortName(path != NULL ? path : "", head, sizeof head);
		free(path);
		cliShortName(dot + 1, last, sizeof last);
	}
	snprintf(out, size, "%s%s%s", head, last[0] != '\0' ? "." : "", last);
}

void cliTable_ColumnName(const cliTable* t, int k, char* out, size_t size)
{
	if (k >= 0 && k < t->columnCount && t->columns[k].name != NULL) {
		char name[CLI_COLUMN_NAME_SIZE];
		cliShortColumnName(t->columns[k].name, name, sizeof name);
		snprintf(out, size, "'%s'", name);
	} else {
		snprintf(out, size, "column %d", k + 1);
	}
}

/* The reader's work space. */
typedef struct cliInference {
	const cliTable* t;
	const cliInferOptions* options;
	cliTableMap* m;
	cliStats* stats;
} cliInference;

static bool assign(cliInference* in, int k, cliSlot slot, cliEvidence by, const char* evidence)
{
	cliTableMap* m = in->m;
	if (m->columns[k].by != cli_byNone || (slot != cli_slotNone && m->columnOf[slot] >= 0)) {
		return false;
	}
	m->columns[k].slot = slot;
	m->columns[k].by = by;
	snprintf(m->columns[k].evidence, sizeof m->columns[k].evidence, "%s", evidence != NULL ? evidence : "");
	if (slot != cli_slotNone) {
		m->columnOf[slot] = k;
	}
	return true;
}

/* Say why the reading had to choose, and flag the file. */
static void flag(cliInference* in, const char* format, const char* a, const char* b, const char* c)
{
	cliTableMap* m = in->m;
	size_t n = strlen(m->reviewWhy);
	if (n + 8 < sizeof m->reviewWhy) {
		snprintf(m->reviewWhy + n, sizeof m->reviewWhy - n, "%s", n > 0 ? "; " : "");
		n = strlen(m->reviewWhy);
		snprintf(m->reviewWhy + n, sizeof m->reviewWhy - n, format, a, b, c);
	}
	m->review = true;
}

static void note(cliInference* in, const char* text)
{
	cliTableMap* m = in->m;
	size_t n = strlen(m->notes);
	snprintf(m->notes + n, sizeof m->notes - n, "%s%s", n > 0 ? "; " : "", text);
}

/* Do column k's values fit the slot (all of them, strays aside)? Empty
 * columns fit anything. */
static bool fits(const cliStats* s, cliSlot slot)
{
	long n = given(s);
	if (n == 0) {
		return true;
	}
	if (cliSlot_IsVector(slot)) {
		return most(s->vectors, n);
	}
	if (cliSlot_IsComponent(slot)) {
		return most(s->numbers, n);
	}
	switch (slot) {
	case cli_slotHit:
	case cli_slotInitialOverlap:
		return most(s->bools, n);
	case cli_slotAlpha:
	case cli_slotAlphaPercent:
		return most(s->numbers, n);
	case cli_slotTriangle:
	case cli_slotFace:
	case cli_slotVertex0:
	case cli_slotVertex1:
	case cli_slotVertex2:
		return most(s->whole, n);
	case cli_slotFeature:
		return most(s->features, n);
	default:
		return true;
	}
}

/* The depth of a column's key path (0: top level; "result.t": 1). */
static int depthOf(const char* name)
{
	int d = 0;
	for (const char* p = name; p != NULL && *p != '\0'; ++p) {
		d += *p == '.';
	}
	return d;
}

/* Do a column's name and a --map name match: the same, the last part of
 * a key path, or the column's number when theirs is a number no column
 * is named. */
static bool mapMatches(const cliTable* t, int k, const char* theirs)
{
	const char* name = t->columns[k].name;
	if (name != NULL) {
		if (strcmp(name, theirs) == 0) {
			return true;
		}
		size_t n = strlen(name), m = strlen(theirs);
		if (n > m && name[n - m - 1] == '.' && strcmp(name + n - m, theirs) == 0 && strchr(theirs, '.') == NULL) {
			return true;
		}
	}
	if (theirs[0] != '\0' && strspn(theirs, "0123456789") == strlen(theirs)) {
		for (int j = 0; j < t->columnCount; ++j) {
			if (t->columns[j].name != NULL && strcmp(t->columns[j].name, theirs) == 0) {
				return false;
			}
		}
		return atoi(theirs) == k + 1;
	}
	return false;
}

static void byMap(cliInference* in)
{
	const cliTable* t = in->t;
	const cliInferOptions* o = in->options;
	for (int p = 0; p < o->mapCount; ++p) {
		const char* theirs = o->map[2 * p];
		const char* ours = o->map[2 * p + 1];
		bool ignore = cliNameIsIgnore(ours);
		bool sure = false;
		cliSlot slot = ignore ? cli_slotNone : cliSlotOfName(ours, &sure);
		bool found = false;
		for (int k = 0; k < t->columnCount; ++k) {
			if (mapMatches(t, k, theirs) && (ignore || slot != cli_slotNone)) {
				found = assign(in, k, slot, cli_byMap, "--map") || found;
			}
		}
		if (!found) {
			char text[160];
			snprintf(text, sizeof text, "--map %.40s=%.40s: %s", theirs, ours,
					 !ignore && slot == cli_slotNone ? "no field is called that" : "no such column");
			note(in, text);
		}
	}
}

/* Has column k no name (or an empty one)? */
static bool unnamed(const cliTable* t, int k)
{
	return t->columns[k].name == NULL || t->columns[k].name[0] == '\0';
}

static void byNames(cliInference* in)
{
	const cliTable* t = in->t;
	cliTableMap* m = in->m;
	/* components numbered from 1 (MATLAB's normal_1 .. normal_3)? */
	bool three = false, zero = false;
	for (int k = 0; k < t->columnCount; ++k) {
		if (t->columns[k].name != NULL) {
			three = three || cliNameEndsInDigit(t->columns[k].name, '3');
			zero = zero || cliNameEndsInDigit(t->columns[k].name, '0');
		}
	}
	bool oneBased = three && !zero;
	int maxDepth = 0;
	for (int k = 0; k < t->columnCount; ++k) {
		int d = depthOf(t->columns[k].name);
		maxDepth = d > maxDepth ? d : maxDepth;
	}
	/* the top level first: a key there wins over the same one nested */
	/* names that say surely first ("id" before "index"), the top level
	 * first (a key there wins over the same one nested) */
	for (int pass = 0; pass < 2 * (maxDepth + 1); ++pass) {
		int depth = pass / 2;
		bool surePass = pass % 2 == 0;
		for (int k = 0; k < t->columnCount; ++k) {
			const char* name = t->columns[k].name;
			if (name == NULL || depthOf(name) != depth || m->columns[k].by != cli_byNone) {
				continue;
			}
			/* a nested key is named by its last part ("result.t": t) */
			const char* leaf = strrchr(name, '.');
			leaf = leaf != NULL && leaf[1] != '\0' ? leaf + 1 : name;
			bool sure = false;
			cliSlot slot = oneBased ? cliSlotOfNameOneBased(leaf, &sure) : cliSlotOfName(leaf, &sure);
			if (slot == cli_slotNone && leaf != name) {
				slot = oneBased ? cliSlotOfNameOneBased(name, &sure) : cliSlotOfName(name, &sure);
			}
			if (slot == cli_slotNone || sure != surePass) {
				continue;
			}
			if (cliSlot_IsVector(slot) && in->stats[k].vectors == 0 && in->stats[k].numbers > 0 &&
				k + 2 < t->columnCount && unnamed(t, k + 1) && unnamed(t, k + 2)) {
				/* "normal" over three columns, the two after it with no name
				 * (a header naming only the first): its x, y, z */
				for (int a = 0; a < 3; ++a) {
					assign(in, k + a, (cliSlot)(slot + 1 + a), cli_byName,
						   a == 0 ? "with the two columns after it, which have no name" : "");
				}
				continue;
			}
			if (!sure && !fits(in->stats + k, slot)) {
				continue;
			}
			if (slot == cli_slotAlpha && in->stats[k].percentSign > 0 && most(in->stats[k].percentSign,
																				 in->stats[k].numbers)) {
				slot = cli_slotAlphaPercent;
			}
			if (slot == cli_slotAlphaPercent && m->columnOf[cli_slotAlpha] >= 0) {
				continue;
			}
			if (slot == cli_slotAlpha && m->columnOf[cli_slotAlphaPercent] >= 0) {
				continue;
			}
			int before = m->columnOf[slot];
			if (assign(in, k, slot, cli_byName, NULL) || before < 0) {
				continue;
			}
			/* a second column named for the slot: read where the first is absent
			 * (records that differ); flagged when a record has both */
			for (int a = 0; a < CLI_ALTERNATES; ++a) {
				if (m->alternates[slot][a] < 0) {
					m->alternates[slot][a] = k;
					break;
				}
			}
			bool both = false;
			for (long i = 0; i < t->rowCount && !both; ++i) {
				both = cliTableRow_Cell(t->rows + i, before)->kind != cli_cellAbsent &&
					   cliTableRow_Cell(t->rows + i, k)->kind != cli_cellAbsent;
			}
			if (both && sure && m->columns[before].by == cli_byName) {
				char a[CLI_COLUMN_NAME_SIZE], b[CLI_COLUMN_NAME_SIZE];
				cliTable_ColumnName(t, before, a, sizeof a);
				cliTable_ColumnName(t, k, b, sizeof b);
				flag(in, "%s: %s read, %s is named for it too", cliSlot_Name(slot), a, b);
			} else if (!both) {
				m->columns[k].slot = slot;
				m->columns[k].by = cli_byName;
			}
		}
	}
}

/* Unassigned columns. */
static bool isFree(const cliInference* in, int k)
{
	return in->m->columns[k].by == cli_byNone;
}

/* "all values" or "98 of 100 values". */
static void share(char* out, size_t size, long count, long of, const char* what)
{
	if (count >= of) {
		snprintf(out, size, "all values %s", what);
	} else {
		snprintf(out, size, "%ld of %ld values %s", count, of, what);
	}
}

/* The candidates for a slot, by values: the first is taken, the others
 * named and the file flagged. */
static void choose(cliInference* in, cliSlot slot, const int* candidates, int count, const char* what,
				   const char* evidence)
{
	if (count == 0 || in->m->columnOf[slot] >= 0) {
		return;
	}
	assign(in, candidates[0], slot, cli_byValues, evidence);
	if (count > 1) {
		char a[CLI_COLUMN_NAME_SIZE], b[CLI_COLUMN_NAME_SIZE];
		cliTable_ColumnName(in->t, candidates[0], a, sizeof a);
		cliTable_ColumnName(in->t, candidates[1], b, sizeof b);
		flag(in, "%s: %s read, %s fits too", what, a, b);
	}
}

static void byValues(cliInference* in)
{
	const cliTable* t = in->t;
	cliTableMap* m = in->m;
	int n = t->columnCount;
	int* candidates = malloc((size_t)(n > 0 ? n : 1) * sizeof *candidates);
	if (candidates == NULL) {
		return;
	}
	char evidence[96];
	int count = 0;
	/* hit: booleans (words first, then 0/1 columns) */
	for (int words = 1; words >= 0 && m->columnOf[cli_slotHit] < 0; --words) {
		count = 0;
		for (int k = 0; k < n; ++k) {
			const cliStats* s = in->stats + k;
			if (isFree(in, k) && given(s) > 0 && most(s->bools, given(s)) &&
				(words ? s->boolWords > 0 || s->numbers == 0 /* T and F, Y and N */
					   : s->numbers == given(s) && (in->options->triangleCount == 0 || in->options->triangleCount > 2))) {
				candidates[count++] = k;
			}
		}
		if (count > 0) {
			share(evidence, sizeof evidence, in->stats[candidates[0]].bools, given(in->stats + candidates[0]),
				  words ? "booleans" : "0 or 1");
			choose(in, cli_slotHit, candidates, count > 1 && m->columnOf[cli_slotInitialOverlap] < 0 ? 1 : count,
				   "hit", evidence);
			if (count > 1 && m->columnOf[cli_slotInitialOverlap] < 0) {
				/* a second column of booleans: initial overlap, as cast writes them */
				share(evidence, sizeof evidence, in->stats[candidates[1]].bools, given(in->stats + candidates[1]),
					  words ? "booleans, after hit" : "0 or 1, after hit");
				assign(in, candidates[1], cli_slotInitialOverlap, cli_byValues, evidence);
			}
		}
	}
	/* the normal: unit vectors in one cell */
	count = 0;
	for (int k = 0; k < n; ++k) {
		const cliStats* s = in->stats + k;
		if (isFree(in, k) && s->vectors > 0 && most(s->vectors, given(s)) && most(s->unitVectors, s->vectors)) {
			candidates[count++] = k;
		}
	}
	if (count > 0) {
		share(evidence, sizeof evidence, in->stats[candidates[0]].unitVectors, in->stats[candidates[0]].vectors,
			  "vectors of length 1");
		choose(in, cli_slotNormal, candidates, count, "normal", evidence);
	}
	/* ... or in three columns side by side */
	if (m->columnOf[cli_slotNormal] < 0 && m->columnOf[cli_slotNormal + 1] < 0) {
		for (int k = 0; k + 2 < n; ++k) {
			if (!isFree(in, k) || !isFree(in, k + 1) || !isFree(in, k + 2)) {
				continue;
			}
			long rows = 0, unit = 0;
			const int hit = m->columnOf[cli_slotHit];
			for (long i = 0; i < t->rowCount; ++i) {
				double x[3];
				int got = 0;
				bool miss = false;
				const cliCell* h = cliTableRow_Cell(t->rows + i, hit);
				if (hit >= 0 && (h->kind == cli_cellBool ? !h->boolean : cliCellBool(h->text, &miss) && !miss)) {
					continue; /* a miss: its normal, if any, says nothing */
				}
				for (int a = 0; a < 3; ++a) {
					const cliCell* c = cliTableRow_Cell(t->rows + i, k + a);
					got += (c->kind == cli_cellText || c->kind == cli_cellNumber || c->kind == cli_cellString) &&
						   cliCellNumber(c->text, t->decimalComma, x + a, NULL) == 1;
				}
				if (got == 3 && !(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0)) {
					rows++;
					unit += fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - 1.0) <= CLI_UNIT_SLACK;
				}
			}
			if (rows > 0 && most(unit, rows)) {
				char with[96];
				if (unit == rows) {
					snprintf(with, sizeof with, "with the next two: vectors of length 1 in all %ld rows given", rows);
				} else {
					snprintf(with, sizeof with, "with the next two: vectors of length 1 in %ld of %ld rows", unit, rows);
				}
				for (int a = 0; a < 3; ++a) {
					assign(in, k + a, (cliSlot)(cli_slotNormal + 1 + a), cli_byValues, a == 0 ? with : "");
				}
				break;
			}
		}
	}
	/* the feature: its words */
	count = 0;
	for (int k = 0; k < n; ++k) {
		const cliStats* s = in->stats + k;
		if (isFree(in, k) && given(s) > 0 && most(s->features, given(s)) && s->features > s->featureLetters / 2) {
			candidates[count++] = k;
		}
	}
	if (count == 0) {
		/* one letter each (f, e, v): a feature when more than one letter is seen */
		for (int k = 0; k < n; ++k) {
			const cliStats* s = in->stats + k;
			if (isFree(in, k) && given(s) > 0 && most(s->features, given(s)) && s->boolWords == 0 &&
				s->features > s->bools) {
				candidates[count++] = k;
			}
		}
	}
	if (count > 0) {
		share(evidence, sizeof evidence, in->stats[candidates[0]].features, given(in->stats + candidates[0]),
			  "feature names");
		choose(in, cli_slotFeature, candidates, count, "feature", evidence);
	}
	/* alpha: numbers in [0, 1] (a miss at -1), not all whole; or percentages */
	if (m->columnOf[cli_slotAlpha] < 0 && m->columnOf[cli_slotAlphaPercent] < 0) {
		count = 0;
		for (int k = 0; k < n; ++k) {
			const cliStats* s = in->stats + k;
			if (isFree(in, k) && s->numbers > 0 && most(s->numbers, given(s)) && s->percentSign > 0 &&
				most(s->percentSign, s->numbers)) {
				candidates[count++] = k;
			}
		}
		if (count > 0) {
			share(evidence, sizeof evidence, in->stats[candidates[0]].percentSign, in->stats[candidates[0]].numbers,
				  "written with '%'");
			choose(in, cli_slotAlphaPercent, candidates, count, "alpha", evidence);
		} else {
			for (int k = 0; k < n; ++k) {
				const cliStats* s = in->stats + k;
				if (isFree(in, k) && s->numbers > 0 && most(s->numbers, given(s)) &&
					most(s->unit + s->minusOne, s->numbers) && s->whole < s->numbers) {
					candidates[count++] = k;
				}
			}
			if (count > 0) {
				const cliStats* s = in->stats + candidates[0];
				share(evidence, sizeof evidence, s->unit + s->minusOne, s->numbers,
					  s->minusOne > 0 ? "in [0, 1] or -1" : "in [0, 1]");
				choose(in, cli_slotAlpha, candidates, count, "alpha", evidence);
			}
		}
	}
	/* the triangle: whole numbers from 0, below the triangle count, not row numbers */
	count = 0;
	for (int k = 0; k < n; ++k) {
		const cliStats* s = in->stats + k;
		long w = given(s);
		if (isFree(in, k) && s->whole > 0 && most(s->whole, w) && s->negative == 0 && 2 * s->steps < w &&
			(in->options->triangleCount == 0 || s->maxWhole < in->options->triangleCount + 1)) {
			candidates[count++] = k;
		}
	}
	if (count > 0 && m->columnOf[cli_slotTriangle] < 0) {
		if (in->options->triangleCount > 0) {
			snprintf(evidence, sizeof evidence, "whole numbers up to %.0f, the mesh has %ld triangles",
					 in->stats[candidates[0]].maxWhole, (long)in->options->triangleCount);
		} else {
			snprintf(evidence, sizeof evidence, "whole numbers from 0 to %.0f", in->stats[candidates[0]].maxWhole);
		}
		choose(in, cli_slotTriangle, candidates, count, "triangle", evidence);
	}
	free(candidates);
}

/* The id by values: the first free column whose values are all given and
 * all different. */
static int textOrder(const void* a, const void* b)
{
	return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static bool idByValues(cliInference* in)
{
	const cliTable* t = in->t;
	if (in->m->columnOf[cli_slotId] >= 0 || t->rowCount == 0) {
		return true;
	}
	const char** texts = malloc((size_t)t->rowCount * sizeof *texts);
	if (texts == NULL) {
		return false;
	}
	for (int k = 0; k < t->columnCount; ++k) {
		const cliStats* s = in->stats + k;
		if (!isFree(in, k) || s->present != t->rowCount || s->missing > 0 || s->vectors > 0) {
			continue;
		}
		for (long i = 0; i < t->rowCount; ++i) {
			texts[i] = cliTableRow_Cell(t->rows + i, k)->text;
		}
		qsort(texts, (size_t)t->rowCount, sizeof *texts, textOrder);
		bool distinct = true;
		for (long i = 1; i < t->rowCount && distinct; ++i) {
			distinct = strcmp(texts[i - 1], texts[i]) != 0;
		}
		if (distinct && (t->rowCount > 1 || s->numbers == 0)) {
			assign(in, k, cli_slotId, cli_byValues, "a value for each row, all different");
			break;
		}
	}
	free(texts);
	return true;
}

bool cliTableMap_Infer(cliTableMap* m, const cliTable* t, const cliInferOptions* options)
{
	memset(m, 0, sizeof *m);
	for (int s = 0; s < cli_slotCount; ++s) {
		m->columnOf[s] = -1;
		for (int a = 0; a < CLI_ALTERNATES; ++a) {
			m->alternates[s][a] = -1;
		}
	}
	m->columnCount = t->columnCount;
	m->columns = calloc((size_t)(t->columnCount > 0 ? t->columnCount : 1), sizeof *m->columns);
	cliStats* stats = calloc((size_t)(t->columnCount > 0 ? t->columnCount : 1), sizeof *stats);
	if (m->columns == NULL || stats == NULL) {
		free(stats);
		return false;
	}
	bool* need = calloc((size_t)(t->columnCount > 0 ? t->columnCount : 1), sizeof *need);
	if (need == NULL) {
		free(stats);
		return false;
	}
	for (int k = 0; k < t->columnCount; ++k) {
		const char* name = t->columns[k].name;
		const char* leaf = name != NULL ? strrchr(name, '.') : NULL;
		bool sure = false;
		cliSlot slot = name != NULL ? cliSlotOfName(leaf != NULL && leaf[1] != '\0' ? leaf + 1 : name, &sure)
									: cli_slotNone;
		need[k] = !sure || slot == cli_slotNone || slot == cli_slotAlpha || slot == cli_slotAlphaPercent ||
				  cliSlot_IsVector(slot);
	}
	gather(t, stats, need);
	free(need);
	cliInference in = { t, options, m, stats };
	byMap(&in);
	byNames(&in);
	bool ok = true;
	if (options->values) {
		byValues(&in);
		ok = idByValues(&in);
	}
	if (m->columnOf[cli_slotAlphaPercent] >= 0) {
		m->percent = true;
	}
	if (options->values && m->columnOf[cli_slotHit] < 0 &&
		(m->columnOf[cli_slotAlpha] >= 0 || m->columnOf[cli_slotAlphaPercent] >= 0)) {
		m->hitFromAlpha = true;
	}
	free(stats);
	return ok;
}

void cliTableMap_Free(cliTableMap* m)
{
	free(m->columns);
	memset(m, 0, sizeof *m);
}
