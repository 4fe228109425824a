/* grade_mistakes.c - the catalogue of mistakes and the diagnosis
 * (grade_mistakes.h): a failing record re-answered as a program with each
 * mistake would answer it, the mistakes that explain a file's failures
 * counted, weighed against the records it got right, and named. */
#include "grade_mistakes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


const char* const cliMistakeNames[cli_mistakeCount] = {
	"back-faces-counted", "front-face-flipped", "approach-lt-vs-le", "larger-root",
	"no-vertex-tests", "no-edge-tests", "faces-only", "initial-overlap-ignored",
	"triangle-normal-vs-contact-normal", "normal-not-normalised", "one-based-triangles", "radius-as-diameter",
	"contact-normal-vs-triangle-normal", "contact-normal-vs-average-normal", "triangle-normal-vs-average-normal",
	"swapped-endpoints", "normal-negated", "hits-beyond-path", "initial-overlap-reported", "back-faces-missed",
	"zero-based-triangles", "average-normal-vs-contact-normal", "average-normal-vs-triangle-normal",
	"diameter-as-radius",
};

bool cliMistake_IsWritten(cliMistake m)
{
	switch (m) {
	case cli_mistakeTriangleNormal:
	case cli_mistakeContactNormal:
	case cli_mistakeContactNotAverage:
	case cli_mistakeTriangleNotAverage:
	case cli_mistakeNotNormalised:
	case cli_mistakeOneBased:
	case cli_mistakeNormalNegated:
	case cli_mistakeZeroBased:
	case cli_mistakeAverageNotContact:
	case cli_mistakeAverageNotTriangle:
		return true;
	default:
		return false;
	}
}

/* The conventions of a normal mistake "X-normal-vs-Y-normal": what was
 * written (X) and what was asked (Y), as cli_normals* bits. */
static bool normalMistake(cliMistake m, unsigned* written, unsigned* asked)
{
	switch (m) {
	case cli_mistakeTriangleNormal:
		*written = cli_normalsTriangle;
		*asked = cli_normalsContact;
		return true;
	case cli_mistakeContactNormal:
		*written = cli_normalsContact;
		*asked = cli_normalsTriangle;
		return true;
	case cli_mistakeContactNotAverage:
		*written = cli_normalsContact;
		*asked = cli_normalsAverage;
		return true;
	case cli_mistakeTriangleNotAverage:
		*written = cli_normalsTriangle;
		*asked = cli_normalsAverage;
		return true;
	case cli_mistakeAverageNotContact:
		*written = cli_normalsAverage;
		*asked = cli_normalsContact;
		return true;
	case cli_mistakeAverageNotTriangle:
		*written = cli_normalsAverage;
		*asked = cli_normalsTriangle;
		return true;
	default:
		return false;
	}
}

/* The average of the front normals of e's tied triangles (each once;
 * e's own triangle when it lists no ties), as --normal average computes
 * it: from the mesh, else from the ties' triangle normals. False when not
 * known, or when they cancel. */
static bool averageNormal(const cliComparer* cmp, const cliResult* e, bcVec3* v)
{
	bcVec3 sum = { 0.0, 0.0, 0.0 };
	int count = (e->fields & cli_resultTies) ? e->tieCount : 0;
	for (int i = -1; i < count; ++i) {
		if (i < 0 && count > 0) {
			continue; /* the ties include e's own contact */
		}
		int32_t triangle = i < 0 ? e->triangle : e->ties[i].triangle;
		bool known = i < 0 ? (e->fields & cli_resultTriangle) != 0 : (e->ties[i].fields & cli_resultTriangle) != 0;
		bool seen = false;
		for (int j = 0; j < i && !seen; ++j) {
			seen = (e->ties[j].fields & cli_resultTriangle) && e->ties[j].triangle == triangle;
		}
		if (seen) {
			continue;
		}
		bcVec3 n;
		if (known && cmp->mesh != NULL && triangle >= 0 && triangle < bcMesh_GetInfo(cmp->mesh).triangleCount) {
			n = bcMesh_GetTriangle(cmp->mesh, triangle).normal;
		} else if (i >= 0 && (e->ties[i].fields & cli_resultTriangleNormal)) {
			n = e->ties[i].triangleNormal;
		} else if (i < 0 && (e->fields & cli_resultTriangleNormal)) {
			n = e->triangleNormal;
		} else {
			return false;
		}
		sum = bcAdd(sum, n);
	}
	if (!(bcLengthSquared(sum) > 0.0)) {
		return false;
	}
	*v = bcNormalize(sum);
	return true;
}

/* A mistake that changes only how an answer is written, replayed on the
 * answer e (EXPECTED's, or one replayed already) for the submission's
 * record a: true with *v (which may be e), false when it would not change
 * e. */
static bool replayWriting(const cliComparer* cmp, const cliResult* e, const cliResult* a, cliMistake m,
						  cliResult* v)
{
	const cliGradeConfig* cfg = cmp->cfg;
	cliResult w = *e;
	w.fields &= ~(unsigned)cli_resultTies; /* the mistaken answer, not its ties */
	if (!e->hit) {
		return false;
	}
	unsigned written = 0;
	unsigned asked = 0;
	if (normalMistake(m, &written, &asked)) {
		bcVec3 n;
		/* no convention known (compare): EXPECTED's normal taken as the contact's */
		unsigned convention = cfg->normalConvention != 0 ? cfg->normalConvention : cli_normalsContact;
		bool known = written == cli_normalsAverage ? averageNormal(cmp, e, &n) : cliComparer_OwnNormal(cmp, e, written, &n);
		if (asked != convention || (cfg->acceptNormals & written) || !(e->fields & cli_resultNormal) || !known ||
			!(cliAngleDegrees(n, e->normal) > cfg->normalTol)) {
			return false;
		}
		w.normal = n;
	} else if (m == cli_mistakeNotNormalised) {
		double length = (a->fields & cli_resultNormal) ? bcLength(a->normal) : 0.0;
		if (!(e->fields & cli_resultNormal) || !(length > 0.0) ||
			fabs(length - 1.0) <= CLI_NORMAL_LENGTH_TOLERANCE) {
			return false;
		}
		w.normal = bcScale(length, e->normal);
	} else if (m == cli_mistakeOneBased) {
		if (!(e->fields & cli_resultTriangle) || cfg->oneBased) {
			return false;
		}
		w.triangle = e->triangle + 1;
	} else if (m == cli_mistakeZeroBased) {
		/* --one-based: the submission's number less one is compared; from 0, it is one short */
		if (!(e->fields & cli_resultTriangle) || !cfg->oneBased) {
			return false;
		}
		w.triangle = e->triangle - 1;
	} else if (m == cli_mistakeNormalNegated) {
		if (!(e->fields & cli_resultNormal) || bcLengthSquared(e->normal) == 0.0) {
			return false;
		}
		w.normal = bcScale(-1.0, e->normal);
	} else {
		return false;
	}
	w.tieCount = 0;
	w.ties = NULL;
	*v = w;
	return true;
}

/* Replay the set of mistakes (bits) on e: the replayer for those that
 * change the answer found (at most the set's), then the written ones in
 * turn, each on the answer as replayed so far. True with *v when the set
 * changes something. */
static bool replaySet(cliComparer* cmp, const cliResult* e, const cliResult* a, unsigned long set, cliResult* v)
{
	const cliGradeConfig* cfg = cmp->cfg;
	unsigned long found = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		found |= ((set >> m) & 1) && !cliMistake_IsWritten((cliMistake)m) ? 1UL << m : 0;
	}
	*v = *e; /* its ties kept while written mistakes are replayed (the average normal needs them) */
	if (found != 0) {
		v->fields &= ~(unsigned)cli_resultTies;
		v->tieCount = 0;
		v->ties = NULL;
		if (cfg->reanswer == NULL || !cfg->reanswer(cfg->reanswerContext, e, found, v)) {
			return false;
		}
	}
	bool changed = found != 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		if (((set >> m) & 1) && cliMistake_IsWritten((cliMistake)m)) {
			cliResult w;
			/* on the answer as replayed so far: two written mistakes compound;
			 * one that changes nothing here (one-based triangles on a miss)
			 * leaves it as it is, as the program with both would */
			if (replayWriting(cmp, v, a, (cliMistake)m, &w)) {
				w.fields |= v->fields & cli_resultTies; /* for the next written mistake */
				w.tieCount = v->tieCount;
				w.ties = v->ties;
				*v = w;
				changed = true;
			}
		}
	}
	/* the mistaken answer, not its ties */
	v->fields &= ~(unsigned)cli_resultTies;
	v->tieCount = 0;
	v->ties = NULL;
	return changed;
}

/* Does the answer the set of mistakes gives pass a? 1 yes, 0 no (or not
 * replayed), -1 out of memory. */
static int explainsBy(cliComparer* cmp, const cliResult* e, const cliResult* a, unsigned long set)
{
	cliResult v;
	if (!replaySet(cmp, e, a, set, &v)) {
		return 0;
	}
	cliDiffs d = { NULL, 0, 0, false };
	bool ok = cliComparer_Record(cmp, &d, &v, a);
	int count = d.count;
	cliDiffs_Free(&d);
	return !ok ? -1 : count == 0;
}

/* Which mistakes explain a failing record: bit m when the record passes
 * against the answer mistake m gives. Returns -1 when out of memory. */
static long explain(cliComparer* cmp, const cliResult* e, const cliResult* a)
{
	long explained = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		int by = explainsBy(cmp, e, a, 1UL << m);
		if (by < 0) {
			return -1;
		}
		explained |= by ? 1L << m : 0;
	}
	return explained;
}

/* How a mistake ranks: the failures it explains less the passes it
 * contradicts. */
static long rank(const cliFileReport* r, long m)
{
	return r->counts[m] - r->contradictions[m];
}

/* Would mistake m have answered e at all (so that a pass contradicts it)?
 * The mistakes replayed on how an answer is written need the record's own
 * field; the others always answer. */
static bool mistakeApplies(cliComparer* cmp, const cliResult* e, const cliResult* a, int m)
{
	if (m == cli_mistakeBeyondPath) {
		/* A program that never checks alpha against 1 still searches only so
		 * far past p1 (twice the path, the next root, a bounded loop), and
		 * in a closed mesh the line past p1 always meets a wall: its misses
		 * that pass say nothing against it. */
		return false;
	}
	if (cliMistake_IsWritten((cliMistake)m)) {
		cliResult v;
		return replayWriting(cmp, e, a, (cliMistake)m, &v);
	}
	return cmp->cfg->reanswer != NULL;
}

/* The least share of the failures a mistake must explain to be named
 * (one in ten, and at least one record): below it, a mistake explains a
 * coincidence (a record or two its replay happens to match), not the
 * program. */
static long minimumShare(long diagnosed)
{
	long share = (diagnosed + 9) / 10;
	return share > 0 ? share : 1;
}

/* Failing records a pair of mistakes is tried on, at most, and the
 * mistakes tried as a pair's first (the best single ones, when any
 * explains something alone): pairs cost a replay each, so a few hundred
 * of them on a hundred records, not more. */
#define CLI_PAIR_RECORDS 100
#define CLI_PAIR_FIRSTS 4

/* When no single mistake explains all failures but a few (a share of
 * minimumShare are left): replay pairs (one of the best singles that
 * explains something, with every other mistake) on the first
 * CLI_PAIR_RECORDS failures, and name the pair when it explains most of
 * them and clearly more than the best single one (a tenth of them more).
 * Fills r->pair, pairCount and the entries' byPair.
 * False when out of memory. */
static bool tryPairs(cliComparer* cmp, const cliResultSet* expected, const cliResultSet* actual, cliFileReport* r)
{
	long sample[CLI_PAIR_RECORDS];
	long sampled = 0;
	for (long i = 0; i < r->entryCount && sampled < CLI_PAIR_RECORDS; ++i) {
		if (r->entries[i].diagnosable) {
			sample[sampled++] = i;
		}
	}
	int firsts[cli_mistakeCount];
	int firstCount = 0;
	for (int k = 0; k < cli_mistakeCount && firstCount < CLI_PAIR_FIRSTS; ++k) {
		if (r->counts[r->order[k]] > 0) {
			firsts[firstCount++] = (int)r->order[k];
		}
	}
	if (firstCount == 0) {
		/* no mistake explains a thing alone (each hides the other's effect:
		 * one-based triangles and unnormalised normals): every pair */
		for (int m = 0; m < cli_mistakeCount; ++m) {
			firsts[firstCount++] = m;
		}
	}
	long single = 0; /* the best single mistake's count on the sample */
	for (int k = 0; k < firstCount; ++k) {
		long n = 0;
		for (long s = 0; s < sampled; ++s) {
			n += (r->entries[sample[s]].explained >> firsts[k]) & 1;
		}
		single = n > single ? n : single;
	}
	long bestCount = 0;
	int best[2] = { -1, -1 };
	for (int k = 0; k < firstCount; ++k) {
		for (int m = 0; m < cli_mistakeCount; ++m) {
			int a = firsts[k];
			bool seen = false; /* the pair tried already, the other way round */
			for (int j = 0; j < k && !seen; ++j) {
				seen = firsts[j] == m;
			}
			if (m == a || seen) {
				continue;
			}
			unsigned long set = (1UL << a) | (1UL << m);
			long n = 0;
			/* a pair is named only when it explains more than half the
			 * sample: stop once it cannot */
			for (long s = 0; s < sampled && n + (sampled - s) > bestCount && 2 * (n + (sampled - s)) > sampled;
				 ++s) {
				const cliEntry* entry = r->entries + sample[s];
				int by = explainsBy(cmp, expected->results + entry->expected, actual->results + entry->actual, set);
				if (by < 0) {
					return false;
				}
				n += by;
			}
			if (n > bestCount) {
				bestCount = n;
				best[0] = a < m ? a : m;
				best[1] = a < m ? m : a;
			}
		}
	}
	if (best[0] < 0 || 2 * bestCount <= sampled || bestCount < single + minimumShare(sampled)) {
		return true;
	}
	r->pair[0] = best[0];
	r->pair[1] = best[1];
	unsigned long set = (1UL << best[0]) | (1UL << best[1]);
	long diagnosed = 0;
	for (long i = 0; i < r->entryCount && diagnosed < r->diagnosed; ++i) {
		cliEntry* entry = r->entries + i;
		if (!entry->diagnosable) {
			continue;
		}
		diagnosed++;
		int by = explainsBy(cmp, expected->results + entry->expected, actual->results + entry->actual, set);
		if (by < 0) {
			return false;
		}
		entry->byPair = by != 0;
		r->pairCount += by;
	}
	return true;
}

/* Would a program making mistake first also make mistake m: replayed
 * together on (up to CLI_PAIR_RECORDS of) the failures first explains, do
 * nine in ten stay explained? 1 yes, 0 no, -1 out of memory. */
static int alongside(cliComparer* cmp, const cliResultSet* expected, const cliResultSet* actual,
					 const cliFileReport* r, int first, int m)
{
	unsigned long set = (1UL << first) | (1UL << m);
	long tried = 0, kept = 0;
	for (long i = 0; i < r->entryCount && tried < CLI_PAIR_RECORDS; ++i) {
		const cliEntry* entry = r->entries + i;
		if (!entry->diagnosable || !((entry->explained >> first) & 1)) {
			continue;
		}
		tried++;
		int by = explainsBy(cmp, expected->results + entry->expected, actual->results + entry->actual, set);
		if (by < 0) {
			return -1;
		}
		kept += by;
	}
	return tried > 0 && 10 * kept >= 9 * tried;
}

/* Name the mistakes: count what each explains, order them, and word the
 * best (at most three that explain a fair share); a pair replayed
 * together when no single one explains most; or that none does. */
bool cliDiagnoseFile(cliComparer* cmp, const cliResultSet* expected, const cliResultSet* actual, cliFileReport* r)
{
	for (long i = 0; i < r->entryCount && r->diagnosed < CLI_DIAGNOSE_MAX; ++i) {
		cliEntry* entry = r->entries + i;
		if (!entry->diagnosable) {
			continue;
		}
		long explained = explain(cmp, expected->results + entry->expected, actual->results + entry->actual);
		if (explained < 0) {
			return false;
		}
		entry->explained = explained;
		r->diagnosed += 1;
		for (int m = 0; m < cli_mistakeCount; ++m) {
			r->counts[m] += (explained >> m) & 1;
		}
	}
	/* a mistake is less likely the more of the records the submission got
	 * right it would have got wrong */
	long any = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		any += r->counts[m];
	}
	for (long k = 0; any > 0 && k < r->passCount; ++k) {
		const cliResult* e = expected->results + r->passes[2 * k];
		const cliResult* a = actual->results + r->passes[2 * k + 1];
		long agreed = explain(cmp, e, a);
		if (agreed < 0) {
			return false;
		}
		for (int m = 0; m < cli_mistakeCount; ++m) {
			r->contradictions[m] += r->counts[m] > 0 && !((agreed >> m) & 1) && mistakeApplies(cmp, e, a, m);
		}
	}
	for (int m = 0; m < cli_mistakeCount; ++m) {
		r->order[m] = m;
		r->counts[m] = r->counts[m] - r->contradictions[m] > 0 ? r->counts[m] : 0;
	}
	for (int m = 1; m < cli_mistakeCount; ++m) {
		for (int k = m; k > 0 && rank(r, r->order[k]) > rank(r, r->order[k - 1]); --k) {
			long t = r->order[k];
			r->order[k] = r->order[k - 1];
			r->order[k - 1] = t;
		}
	}
	if (r->diagnosed == 0) {
		return true;
	}
	long best = r->counts[r->order[0]];
	if (r->diagnosed - best >= minimumShare(r->diagnosed) && !tryPairs(cmp, expected, actual, r)) {
		return false;
	}
	if (r->pair[0] < 0 && best < minimumShare(r->diagnosed)) {
		if (cmp->cfg->reanswer == NULL) {
			return true; /* only the written mistakes were tried: no verdict */
		}
		r->unexplained = true;
		r->score.diagnosis = cliCopyText(CLI_UNEXPLAINED, strlen(CLI_UNEXPLAINED));
		return r->score.diagnosis != NULL;
	}
	/* shown: the best, then (up to three in all) the next best that explain
	 * a tenth of the failures those before them do not (a second mistake),
	 * and that a program making both would make: replayed together with
	 * each named before it on what that one explains, it still explains
	 * nine in ten of those records (a coincidence does not: faces-only
	 * beside a program that tests edges and vertices breaks its edge and
	 * vertex hits) */
	r->shown = r->pair[0] < 0 ? 1 : 0;
	for (int k = 1; k < cli_mistakeCount && r->shown < 3 && r->shown > 0; ++k) {
		long m = r->order[k];
		if (r->counts[m] < minimumShare(r->diagnosed) || rank(r, m) <= 0) {
			continue;
		}
		long before = 0;
		for (int j = 0; j < r->shown; ++j) {
			before |= 1L << r->order[j];
		}
		long more = 0;
		for (long i = 0; i < r->entryCount; ++i) {
			long x = r->entries[i].explained;
			more += ((x >> m) & 1) && !(x & before);
		}
		if (more < minimumShare(r->diagnosed)) {
			continue;
		}
		int compatible = 1;
		for (int j = 0; j < r->shown && compatible > 0; ++j) {
			compatible = alongside(cmp, expected, actual, r, (int)r->order[j], (int)m);
		}
		if (compatible < 0) {
			return false;
		}
		if (compatible > 0) {
			r->order[k] = r->order[r->shown];
			r->order[r->shown++] = m;
		}
	}
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return false;
	}
	if (r->pair[0] >= 0) {
		fprintf(f, "%s + %s (%ld of %ld failing, together)", cliMistakeNames[r->pair[0]], cliMistakeNames[r->pair[1]],
				r->pairCount, r->diagnosed);
	}
	for (int k = 0; k < r->shown; ++k) {
		fprintf(f, "%s%s (%ld of %ld failing)", k > 0 ? ", " : "", cliMistakeNames[r->order[k]],
				r->counts[r->order[k]], r->diagnosed);
	}
	if (fclose(f) != 0) {
		free(text);
		return false;
	}
	r->score.diagnosis = text;
	return true;
}

/* The best-ranked mistake explaining an entry, or -1. */
int cliEntryMistake(const cliFileReport* r, const cliEntry* entry)
{
	if (entry->byPair) {
		return cli_mistakeCount; /* the pair */
	}
	for (int k = 0; k < r->shown; ++k) {
		if ((entry->explained >> r->order[k]) & 1) {
			return (int)r->order[k];
		}
	}
	return -1;
}

void cliWriteEntryMistake(FILE* f, const cliFileReport* r, const cliEntry* entry)
{
	int m = cliEntryMistake(r, entry);
	if (m == cli_mistakeCount) {
		fprintf(f, " [%s + %s]", cliMistakeNames[r->pair[0]], cliMistakeNames[r->pair[1]]);
	} else if (m >= 0) {
		fprintf(f, " [%s]", cliMistakeNames[m]);
	}
}
