/* render_draw.h - render's picture: the throws, their labels, the key and
 * the title band drawn over the mesh as one SVG document. */
#ifndef CLI_RENDER_DRAW_H
#define CLI_RENDER_DRAW_H

#include <stdbool.h>
#include <stdio.h>

#include "ballcast.h"
#include "camera.h"
#include "svg.h"

/* Space around the mesh, in pixels. */
#define CLI_RENDER_MARGIN 16.0

/* What became of a throw. */
typedef enum cliThrowState {
	cli_throwMiss = 0,
	cli_throwHit,   /* a hit or an initial overlap: point, center, normal hold */
	cli_throwError, /* a bad record, or a result that is an error */
	cli_throwUnplaced /* --compare: a hit whose result gives no contact point or centre (a student's
						 file may hold only hit, alpha and normal): judged, not drawn */
} cliThrowState;

/* One throw to draw, from a trajectory and its cast or from a result. */
typedef struct cliDrawnThrow {
	char* id;          /* the id (owned): as written, or shortest if a number */
	long index;        /* 0-based record number */
	cliThrowState state;
	bool hasPath;
	bcVec3 p0, p1;
	double alpha;
	bcFeature feature; /* bc_featureNone when a result does not say */
	bcVec3 point, center, normal;
	double radius;
	long partner;      /* --compare: the matching record of the other list, or -1 */
	bool differs;      /* --compare: differs from its partner (or has none) */
} cliDrawnThrow;

/* The throws of one file, in file order. */
typedef struct cliDrawnThrowList {
	cliDrawnThrow* items; /* owned */
	long count, capacity;
	long badRecords; /* records that could not be read (reported) */
} cliDrawnThrowList;

/* What the picture shows besides the throws (the strings are borrowed). */
typedef struct cliPicture {
	const char* meshPath;    /* named in the title */
	const char* comparePath; /* NULL: no comparison */
	int width, height;       /* in pixels */
	cliUpAxis up;            /* named in the key */
	bool upGiven;            /* false: the key says the axis was guessed */
	double cull;             /* the mesh's culling grid in pixels; < 0: chosen from the mesh */
} cliPicture;

/* The height of the title band at the top of the picture, in pixels. */
double cliPicture_TitleHeight(const cliPicture* picture);

/* The marks the key explains. */
enum { cli_keyPath, cli_keyBall, cli_keyContact, cli_keyNormal, cli_keyMiss, cli_keyDiffers, cli_keyExpected,
	   cli_keyCount };

/* What the key at the bottom of the picture holds: the up caption, then the
 * marks that are drawn. */
typedef struct cliKeyMarks {
	char caption[32];
	bool shown[cli_keyCount];
	int rows; /* the rows it takes at the picture's width */
} cliKeyMarks;

/* The key for these throws (expected: those of --compare, empty when none). */
cliKeyMarks cliKeyMarks_Make(const cliPicture* picture, const cliDrawnThrowList* actual,
							 const cliDrawnThrowList* expected);

/* The height of the key's band at the bottom of the picture, in pixels. */
double cliKeyMarks_Height(const cliKeyMarks* key);

/* Write the whole SVG document to f: the mesh, the throws (differing ones
 * last, with their expected contacts), labels, the key and the title band
 * (missing: expected throws without a partner). false when out of memory
 * (the document is then incomplete). */
bool cliWritePicture(FILE* f, const cliPicture* picture, const bcMesh* mesh, const cliCamera* camera,
					 const cliDrawnThrowList* actual, const cliDrawnThrowList* expected, long missing,
					 const cliKeyMarks* key);

#endif
