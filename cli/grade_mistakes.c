/* grade_mistakes.c - the catalogue of mistakes and the diagnosis
 * (grade_mistakes.h): a failing record re-answered as a program with each
 * mistake would answer it, the mistakes that explain a file's failures
 * counted, weighed against the records it got right, and named. */
#include "grade_mistakes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"

const char* const cliMistakeNames[cli_mistakeCount] = {
	"back-faces-counted", "front-face-flipped", "approach-lt-vs-le", "larger-root",
	"no-vertex-tests", "no-edge-tests", "faces-only", "initial-overlap-ignored",
	"triangle-normal-vs-contact-normal", "normal-not-normalised", "one-based-triangles", "radius-as-diameter",
};

/* A mistake that changes only how an answer is written, replayed on e for
 * the submission's record a: true with *v. */
static bool replayWriting(const cliGradeConfig* cfg, const cliResult* e, const cliResult* a, cliMistake m,
						  cliResult* v)
{
	*v = *e;
	v->fields &= ~(unsigned)cli_resultTies; /* the mistaken answer, not its ties */
	v->tieCount = 0;
	v->ties = NULL;
	if (!e->hit) {
		return false;
	}
	switch (m) {
	case cli_mistakeTriangleNormal: {
		unsigned both = cli_resultNormal | cli_resultTriangleNormal;
		if ((e->fields & both) != both) {
			return false;
		}
		double angle = cliAngleDegrees(e->normal, e->triangleNormal);
		if (angle > cfg->normalTol) {
			v->normal = e->triangleNormal; /* the triangle's normal for the contact's */
			return true;
		}
		unsigned places = cli_resultPoint | cli_resultCenter;
		bcVec3 contact = bcSub(e->center, e->point);
		if ((e->fields & places) != places || bcLengthSquared(contact) == 0.0 ||
			cliAngleDegrees(contact, e->normal) <= cfg->normalTol) {
			return false;
		}
		v->normal = bcNormalize(contact); /* the contact's for the triangle's */
		return true;
	}
	case cli_mistakeNotNormalised: {
		double length = (a->fields & cli_resultNormal) ? bcLength(a->normal) : 0.0;
		if (!(e->fields & cli_resultNormal) || !(length > 0.0) ||
			fabs(length - 1.0) <= CLI_NORMAL_LENGTH_TOLERANCE) {
			return false;
		}
		v->normal = bcScale(length, e->normal);
		return true;
	}
	case cli_mistakeOneBased:
		if (!(e->fields & cli_resultTriangle) || cfg->oneBased) {
			return false;
		}
		v->triangle = e->triangle + 1;
		return true;
	default:
		return false;
	}
}

/* Which mistakes explain a failing record: bit m when the record passes
 * against the answer mistake m gives. Returns -1 when out of memory. */
static long explain(cliComparer* cmp, const cliResult* e, const cliResult* a)
{
	const cliGradeConfig* cfg = cmp->cfg;
	long explained = 0;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		cliResult v;
		bool replayed = m == cli_mistakeTriangleNormal || m == cli_mistakeNotNormalised || m == cli_mistakeOneBased
							? replayWriting(cfg, e, a, (cliMistake)m, &v)
							: cfg->reanswer != NULL && cfg->reanswer(cfg->reanswerContext, e, (cliMistake)m, &v);
		if (!replayed) {
			continue;
		}
		cliDiffs d;
		bool ok = cliDiffs_Open(&d) && cliComparer_Record(cmp, &d, &v, a);
		ok = cliDiffs_Close(&d) && ok;
		if (!ok) {
			cliDiffs_Free(&d);
			return -1;
		}
		explained |= d.count == 0 ? 1L << m : 0;
		cliDiffs_Free(&d);
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
	if (m == cli_mistakeTriangleNormal || m == cli_mistakeNotNormalised || m == cli_mistakeOneBased) {
		cliResult v;
		return replayWriting(cmp->cfg, e, a, (cliMistake)m, &v);
	}
	return cmp->cfg->reanswer != NULL;
}

/* Name the mistakes: count what each explains, order them, and word the
 * best (at most three that explain something). */
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
	if (r->diagnosed == 0 || r->counts[r->order[0]] == 0) {
		return true;
	}
	/* shown: the best, then (up to three in all) the next best that explain
	 * failures those before them do not (a second mistake) */
	r->shown = 1;
	for (int k = 1; k < cli_mistakeCount && r->shown < 3; ++k) {
		long m = r->order[k];
		if (r->counts[m] == 0 || rank(r, m) <= 0) {
			continue;
		}
		long before = 0;
		for (int j = 0; j < r->shown; ++j) {
			before |= 1L << r->order[j];
		}
		bool more = false;
		for (long i = 0; i < r->entryCount && !more; ++i) {
			long x = r->entries[i].explained;
			more = ((x >> m) & 1) && !(x & before);
		}
		if (more) {
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
	for (int k = 0; k < r->shown; ++k) {
		if ((entry->explained >> r->order[k]) & 1) {
			return (int)r->order[k];
		}
	}
	return -1;
}
