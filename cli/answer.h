/* answer.h - one throw answered as `ballcast cast` answers it, for cast,
 * grade and render alike: the settings that decide an answer (cast's
 * options, which grade and render take too), the checks of a trajectory
 * record, the cast (exact, or the course's collision detection slides'
 * time stepping with --method discrete), the normal the settings ask for, and the answer as the result
 * record the grading engine reads. */
#ifndef BC_ANSWER_H
#define BC_ANSWER_H

#include <stdbool.h>

#include "ballcast.h"
#include "options.h"
#include "results_read.h"
#include "records.h"

/* The options that decide an answer: --two-sided, --approach, --normal,
 * --initial-overlap, --convention (k = 0 .. 4 of cliCastSettings_Option,
 * in this order; cast, grade and render take them), then --method, --dt,
 * --bisect (k = 5 .. 7; cast and render). Zero it with
 * cliCastSettings_Init. */
typedef struct cliCastSettings {
	bcCastOptions options;  /* the exact cast's (complete after cliCastSettings_Finish) */
	bcNormalMode normalMode; /* --normal: what "normal" holds */
	bool cs121;             /* --convention cs121 */
	bool twoSidedGiven, approachGiven, normalGiven, overlapGiven; /* explicit options win over cs121 */
	bool discrete;          /* --method discrete */
	bcDiscreteOptions discreteOptions; /* --dt, --bisect; its cast options are options (after Finish) */
	bool dtGiven, bisectGiven;
} cliCastSettings;

#define CLI_CAST_SETTING_OPTIONS                                                                                       \
	{ "two-sided", 0, false }, { "approach", 0, true }, { "normal", 0, true }, { "initial-overlap", 0, true },     \
		{ "convention", 0, true }
enum { cli_castSettingCount = 5 };

/* --method, --dt, --bisect: options k = cli_castMethodFirst .. + 2 of
 * cliCastSettings_Option. */
#define CLI_CAST_METHOD_OPTIONS { "method", 0, true }, { "dt", 0, true }, { "bisect", 0, true }
enum { cli_castMethodFirst = cli_castSettingCount, cli_castMethodCount = 3 };

#define CLI_HELP_CAST_SETTINGS                                                                                         \
	"      --two-sided           count contacts from behind a triangle too\n"                                          \
	"      --approach le|lt      front-face rule: dot(n, p1-p0) <= 0 (le, default)\n"                                  \
	"                            or < 0 (lt)\n"                                                                        \
	"      --normal contact|triangle|average\n"                                                                        \
	"                            what \"normal\" holds (see ballcast cast --help)\n"                                   \
	"      --initial-overlap report|ignore\n"                                                                          \
	"                            a ball already overlapping a triangle: a hit at\n"                                    \
	"                            alpha 0 (report, default) or skip that triangle\n"                                    \
	"      --convention cs121    the course's conventions: --approach lt\n"                                            \
	"                            --normal average --initial-overlap ignore\n"

/* The --help lines of --method. */
#define CLI_HELP_CAST_METHOD                                                                                           \
	"      --method exact|discrete\n"                                                                                  \
	"                            exact prediction (default), or seed 002's time\n"                                     \
	"                            stepping: the ball tested where it stands at\n"                                       \
	"                            alpha 0, dt, 2 dt, ..., 1, the first step in\n"                                       \
	"                            contact halved N times; alpha is the end of the\n"                                    \
	"                            last half (it misses what a step jumps over)\n"
/* --dt and --bisect, which follow what a command says of --method's results. */
#define CLI_HELP_CAST_STEP                                                                                             \
	"      --dt F                discrete: the step, a fraction of the path in\n"                                      \
	"                            [1e-9, 1] (required with --method discrete)\n"                                        \
	"      --bisect N            discrete: halvings, 0 to 64 (default 5)\n"

/* The defaults: bcDefaultCastOptions, the contact normal, the exact
 * method (bcDefaultDiscreteOptions for --method discrete). */
void cliCastSettings_Init(cliCastSettings* s);

/* Option k (0 .. 7) with its value: NULL, or the usage message. */
const char* cliCastSettings_Option(cliCastSettings* s, int k, const char* value);

/* The rules between --method and the options that go with it, after the
 * options and before cliCastSettings_Finish: NULL, or the usage message
 * ("--dt needs --method discrete"). ties: the command was asked to list
 * tied contacts (cast --ties), which the discrete method cannot. */
const char* cliCastSettings_CheckMethod(const cliCastSettings* s, bool ties);

/* After the options: apply --convention cs121 (explicit options win) and
 * give the discrete method the cast options. True when cs121 was given
 * (answers then carry their ties). */
bool cliCastSettings_Finish(cliCastSettings* s);

/* "contact", "triangle" or "average". */
const char* cliCastSettings_NormalName(const cliCastSettings* s);

/* Whether an answer needs its tied contacts listed whatever the command
 * writes: --normal average averages them. */
bool cliCastSettings_NeedsTies(const cliCastSettings* s);

/* The library batch's options for these settings (after
 * cliCastSettings_Finish) on threads threads: how cast answers a chunk of
 * throws with the exact method (bcMesh_CastBatchWithOptions). */
bcBatchOptions cliCastSettings_BatchOptions(const cliCastSettings* s, int threads);

/* One exact cast answered as `ballcast cast` answers it: bcMesh_CastTies,
 * its tied contacts written at (*ties)[used ..] (*ties grown as needed,
 * *capacity its room in all), then the normal the settings ask for
 * (bcMesh_CastNormal). The number of tied contacts, or -1 when out of
 * memory. */
int cliAnswerCast(const bcMesh* mesh, const cliCastSettings* s, bcCastInput input, bcCastOutput* out,
				  bcContact** ties, int* capacity, int used);

/* The problem of an exact answer the library gave: NULL for a hit, an
 * initial overlap or a miss, else why the throw has no answer ("out of
 * memory ...", "... beyond the supported range of 1e50"). */
const char* cliAnswerProblem(const bcCastOutput* out);

/* Check a trajectory record and take its path: p0, p1, and r or else
 * --radius (options). Returns NULL, or the problem: the record's own error,
 * "missing p0", "missing p1" or "missing r (...)". balls checks its
 * records so; a throw to cast is checked by cliRecord_CheckCast, which adds
 * the range. */
const char* cliRecord_CheckTrajectory(const cliRecord* record, const cliCommonOptions* options, bcVec3* p0, bcVec3* p1,
									  double* radius);

/* Check a trajectory record as cast does and take its throw: p0, p1, and r
 * or else --radius (options), all within the library's range. NULL, or the
 * problem: the record's own error, "missing p0", "missing p1", "missing r
 * (...)", or "a coordinate or the radius is beyond the supported range of
 * 1e50". */
const char* cliRecord_CheckCast(const cliRecord* record, const cliCommonOptions* options, bcCastInput* input);

/* Tied contacts that answers append to, grown as they need; owned by
 * whoever made it (zeroed), freed with cliTiePool_Free. */
typedef struct cliTiePool {
	bcContact* ties; /* owned: ties[0 .. count) */
	int count;
	int capacity;
} cliTiePool;

/* Free what the pool holds and zero it. */
void cliTiePool_Free(cliTiePool* pool);

/* The one answer: a checked throw cast as the settings say (the exact cast
 * or the discrete method), with the normal they ask for. pool: where the
 * exact cast's tied contacts are appended (from pool->count, which grows
 * by *tieCount), or NULL to list none (then --normal average lists them in
 * a pool of its own). exact: with the discrete method, the exact cast's
 * answer too (--compare-exact), or NULL. alphaFree: with the discrete
 * method, the start of its final bracket, the last alpha it saw free (seed
 * 002's answer, printed as alpha_free), or NULL. Returns NULL, or the problem
 * that leaves the throw without an answer ("out of memory ...", "... beyond
 * the supported range of 1e50"). */
const char* cliAnswerThrow(const bcMesh* mesh, const cliCastSettings* s, bcCastInput input, cliTiePool* pool,
						   bcCastOutput* out, int* tieCount, bcCastOutput* exact, double* alphaFree);

/* One trajectory record answered: cliRecord_CheckCast, then cliAnswerThrow
 * (input gets the throw; *tieCount 0 for a bad record). NULL, or the
 * problem, as cast reports it. */
const char* cliAnswerRecord(const bcMesh* mesh, const cliCastSettings* s, const cliCommonOptions* options,
							const cliRecord* record, cliTiePool* pool, bcCastInput* input, bcCastOutput* out,
							int* tieCount);

/* The answer to record as the result `ballcast cast` writes for it (with
 * --ties when withTies) and the results reader reads back: its id (a record
 * without one has its index as a number), and either the error (problem
 * non-NULL) or hit, alpha and, for a hit, every field of the contact (a
 * miss has no ties). index is its place among the results; line and column
 * are the record's own. Fills *result (zeroed first; it owns its id, error
 * and ties, freed as cliResultSet_Free frees a set's). False when out of
 * memory (*result then owns nothing). */
bool cliResult_FromAnswer(const cliRecord* record, long index, const char* problem, const bcCastOutput* out,
						  const bcContact* ties, int tieCount, bool withTies, cliResult* result);

#endif
