/* grade_config.h - how the grading engine (grade.h) judges and reports:
 * its settings (cliGradeConfig), their defaults and the shared options
 * that set them, the graded fields and normal conventions, and the names
 * of the catalogue of mistakes the settings' replay function speaks in.
 * Every part of the engine reads this header; none reads grade.h. */
#ifndef BC_GRADE_CONFIG_H
#define BC_GRADE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "ballcast.h"
#include "results_read.h"

/* Default absolute tolerance on alpha. Two correct implementations differ
 * by rounding: a few ulps on face contacts, more on grazing edge and vertex
 * contacts where the quadratic loses digits (cast itself promises its
 * contact distance only to about 1e-9 of the scene there). 1e-9 leaves that
 * room, while a real mistake (a missed feature, the far root, a wrong
 * radius, the wrong side) moves alpha by far more. */
#define CLI_ALPHA_TOLERANCE 1e-9

/* Default relative tolerance on alpha: none, since alpha is already a
 * fraction of the path. */
#define CLI_ALPHA_RELATIVE 0.0

/* Default tolerance on the angle between normals, in degrees (1.7e-8
 * radians). Unit normals from different formulas agree to ~1e-15 radians;
 * an edge or vertex contact's normal (centre - point) / r inherits alpha's
 * error times |p1 - p0| / r, so alpha's 1e-9 over a path ten radii long
 * turns it by 1e-8 radians. */
#define CLI_NORMAL_TOLERANCE 1e-6

/* How far a normal's length may be from 1: a unit vector from any formula
 * is within a few ulps; an unnormalised one (a cross product, centre minus
 * point) is off by far more. */
#define CLI_NORMAL_LENGTH_TOLERANCE 1e-6

/* Default tolerance on the distance between points (contact point and
 * centre), in mesh units: alpha's tolerance over a path of unit length.
 * Meant for scenes of unit size; scale it with the scene (--point-tol). */
#define CLI_POINT_TOLERANCE 1e-9

/* The catalogue of mistakes (names in cliMistakeNames, an interface: the
 * man page lists them, reports print them). A name "X-normal-vs-Y-normal"
 * is a normal of convention X written where the course's convention Y was
 * asked for. */
typedef enum cliMistake {
	cli_mistakeBackFaces = 0,      /* back-faces-counted */
	cli_mistakeFlipped,            /* front-face-flipped */
	cli_mistakeApproach,           /* approach-lt-vs-le */
	cli_mistakeLargerRoot,         /* larger-root */
	cli_mistakeNoVertices,         /* no-vertex-tests */
	cli_mistakeNoEdges,            /* no-edge-tests */
	cli_mistakeFacesOnly,          /* faces-only */
	cli_mistakeOverlapIgnored,     /* initial-overlap-ignored */
	cli_mistakeTriangleNormal,     /* triangle-normal-vs-contact-normal */
	cli_mistakeNotNormalised,      /* normal-not-normalised */
	cli_mistakeOneBased,           /* one-based-triangles */
	cli_mistakeWrongRadius,        /* radius-as-diameter */
	cli_mistakeContactNormal,      /* contact-normal-vs-triangle-normal */
	cli_mistakeContactNotAverage,  /* contact-normal-vs-average-normal */
	cli_mistakeTriangleNotAverage, /* triangle-normal-vs-average-normal */
	cli_mistakeSwappedEndpoints,   /* swapped-endpoints: p0 and p1 exchanged */
	cli_mistakeNormalNegated,      /* normal-negated: pointing into the mesh */
	cli_mistakeBeyondPath,         /* hits-beyond-path: a contact past p1 (alpha > 1) reported as a hit */
	/* the reverses: the same mistake the other way round */
	cli_mistakeOverlapReported,    /* initial-overlap-reported: overlaps reported where they are ignored */
	cli_mistakeBackFacesMissed,    /* back-faces-missed: one-sided where both sides count */
	cli_mistakeZeroBased,          /* zero-based-triangles: from 0 where --one-based asks from 1 */
	cli_mistakeAverageNotContact,  /* average-normal-vs-contact-normal */
	cli_mistakeAverageNotTriangle, /* average-normal-vs-triangle-normal */
	cli_mistakeDiameterAsRadius,   /* diameter-as-radius: the ball twice its size */
	cli_mistakeCount
} cliMistake;

extern const char* const cliMistakeNames[cli_mistakeCount];

/* Re-answer expected result e (0-based place in EXPECTED) as a program
 * with every mistake of the set mistakes (bits 1 << cliMistake, of those
 * that change the answer found: not the ones cliMistake_IsWritten) would:
 * true with *answer filled (its fields, hit, alpha, feature, triangle,
 * vertices, point, center, normal, triangle normal, no ties), false when
 * the mistakes cannot be replayed (together) here (no trajectory, no
 * mesh). Mistakes that change only how an answer is written are replayed
 * by the engine itself. */
typedef bool cliReanswerFcn(void* context, const cliResult* e, unsigned long mistakes, cliResult* answer);

/* Does mistake m change only how an answer is written (a normal's
 * convention, sign or length, the triangles' numbering), so that the
 * engine replays it on any answer? */
bool cliMistake_IsWritten(cliMistake m);

/* The throw expected result e was cast from: true with *input, false when
 * it is not known (the HTML report then has no picture of it). */
typedef bool cliThrowOfFcn(void* context, const cliResult* e, bcCastInput* input);

/* Graded fields: cli_result* bits. */
#define CLI_FIELDS_ALL 0xffffffffu /* every field EXPECTED has */
#define CLI_FIELDS_GRADE (cli_resultHit | cli_resultAlpha | cli_resultNormal) /* grade's default */

/* Parse a --fields list ("hit,alpha,normal", "all", with the spellings
 * t/time, n/nx...): true with *fields, else false with *bad the first word
 * not known (pointing into list; its length in *badLength). */
bool cliParseFields(const char* list, unsigned* fields, const char** bad, size_t* badLength);

/* Normal conventions (cliGradeConfig.normalConvention, acceptNormals):
 * what a hit's "normal" holds. */
enum {
	cli_normalsContact = 1 << 0,  /* the contact normal: from the touched point to the centre */
	cli_normalsTriangle = 1 << 1, /* the normal of the triangle touched */
	cli_normalsAverage = 1 << 2   /* the average of the tied triangles' normals (cs121) */
};

/* Parse a --accept-normals list ("contact,triangle", "average"): true with
 * *normals (cli_normals* bits), else false. */
bool cliParseNormals(const char* list, unsigned* normals);

/* --map pairs at most. */
#define CLI_MAP_MAX 32

/* A report format's writer (grade_report.h). */
struct cliReportWriter;

typedef struct cliGradeConfig {
	double alphaTol;
	double alphaRel;
	double normalTol; /* degrees */
	double pointTol;
	unsigned fields;  /* graded: cli_result* bits, or CLI_FIELDS_ALL */
	unsigned normalConvention; /* one cli_normals* bit: what EXPECTED's normal is; 0 (compare's default):
	                              not known, any tied contact's normal or a matched triangle's passes */
	unsigned acceptNormals;    /* --accept-normals: cli_normals* bits also accepted (0: the convention only) */
	long maxFailures;          /* --max-failures: failing records listed per file in the text report */
	bool oneBased;    /* submissions number triangles from 1 */
	bool followLinks; /* --follow-links: read a submission that is a symbolic link out of the folders named */
	const char* map[2 * CLI_MAP_MAX]; /* --map: pairs theirs, ours (mapCount pairs; owned) */
	int mapCount;
	const struct cliReportWriter* report; /* --report (grade.h's cliReportWriter_FromName); NULL: the text report */
	const bcMesh* mesh; /* the mesh EXPECTED was cast on, or NULL */
	const bool* notGraded; /* or NULL: per EXPECTED record, true for a bad record of the teacher's trajectories
	                          (grade): not graded, its id neither missing nor extra (not owned) */
	cliReanswerFcn* reanswer; /* or NULL: only the mistakes the engine replays */
	cliThrowOfFcn* throwOf;   /* or NULL: no pictures in the HTML report */
	void* reanswerContext;    /* the context of both */
	bool quiet;       /* -q: no report, the exit status only */
	const char* outputPath; /* -o, or NULL */
	const char* meshName;        /* for report titles (grade), or NULL (not owned) */
	const char* conventionName;  /* "convention cs121", "normal triangle", ... for titles, or NULL (not owned) */
	/* How a submission is read: NULL reads the file as grade does
	 * (tolerantly, --fields and --map); else fills *set and returns true,
	 * or returns false with *reason (owned). A test's fixture. */
	bool (*readSubmission)(void* context, const char* path, cliResultSet* set, char** reason);
	void* readContext; /* readSubmission's */
} cliGradeConfig;

/* Set cfg's defaults (tolerances, all fields, text report). */
void cliGradeConfig_Init(cliGradeConfig* cfg);

/* Free what the options put in cfg (--map). */
void cliGradeConfig_Free(cliGradeConfig* cfg);

/* The options of how records are judged, which render --compare takes
 * too (cliOption entries, k = 0 .. 7 of cliGradeConfig_OptionOrReport). */
#define CLI_GRADE_JUDGING_OPTIONS                                                                                      \
	{ "alpha-tol", 0, true }, { "alpha-rel", 0, true }, { "normal-tol", 0, true }, { "point-tol", 0, true },       \
		{ "fields", 0, true }, { "one-based", 0, false }, { "map", 0, true }, { "accept-normals", 0, true }

/* The grading options compare and grade share (cliOption entries, in the
 * order of cliGradeConfig_OptionOrReport's k; --report is each command's own, since
 * grade's -r is the radius): the judging ones, --max-failures and
 * --follow-links. */
#define CLI_GRADE_OPTIONS CLI_GRADE_JUDGING_OPTIONS, { "max-failures", 0, true }, { "follow-links", 0, false }
enum { cli_gradeOptionCount = 10, cli_gradeReportOption = 10 };

/* Failing records the text report lists per file by default
 * (--max-failures): a screenful; the rest are counted ("N more"). */
#define CLI_MAX_FAILURES 10

/* Handle shared option k < cli_gradeOptionCount with its value: NULL, or
 * the usage message. (grade.h's cliGradeConfig_OptionOrReport also takes --report.) */
const char* cliGradeConfig_Option(cliGradeConfig* cfg, int k, const char* value);

/* Their --help lines, each default on a line of its own. */
#define CLI_HELP_GRADE_OPTIONS                                                                                         \
	"      --fields LIST         graded fields, comma separated: hit, alpha (or t,\n"                                  \
	"                            time), initial_overlap, feature, triangle, face,\n"                                   \
	"                            vertices, point, center, normal (or n),\n"                                            \
	"                            triangle_normal; all: every field EXPECTED has\n"                                     \
	"                            (default: compare all, grade hit,alpha,normal)\n"                                     \
	"      --one-based           submissions number triangles from 1\n"                                                \
	"                            (default: from 0)\n"                                                                  \
	"      --map THEIRS=OURS     read column THEIRS (name, path, number) as OURS\n"                                    \
	"                            (a field, or none) (default: none)\n"                                                 \
	"      --alpha-tol T         absolute tolerance on alpha\n"                                                        \
	"                            (default 1e-09)\n"                                                                    \
	"      --alpha-rel R         relative tolerance on alpha: alpha passes\n"                                          \
	"                            within T or within R * |expected alpha|\n"                                            \
	"                            (default 0)\n"                                                                        \
	"      --normal-tol DEG      angle between normals, in degrees\n"                                                  \
	"                            (default 1e-06)\n"                                                                    \
	"      --point-tol D         distance for point and center\n"                                                      \
	"                            (default 1e-09)\n"                                                                    \
	"      --accept-normals LIST also accept normals of these conventions: contact,\n"                                 \
	"                            triangle, average (comma separated)\n"                                                \
	"                            (default: grade: the --normal convention's only;\n"                                   \
	"                            compare: any tied contact's or triangle's)\n"                                         \
	"      --max-failures N      failing records listed per file in the text report\n"                                 \
	"                            (default 10; 0: all)\n"                                                              \
	"      --follow-links        follow a submission's symbolic link out of the\n"                                    \
	"                            folders named (default: not followed; scored 0)\n"

#endif
