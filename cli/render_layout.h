/* render_layout.h - where render's words go: labels placed beside their
 * marks without overlapping, and the key's entries laid out in rows. Pure
 * geometry in pixels; nothing here draws. */
#ifndef CLI_RENDER_LAYOUT_H
#define CLI_RENDER_LAYOUT_H

#include <stdbool.h>

/* A box on the picture, in pixels (y grows downwards). */
typedef struct cliBox {
	double left, top, right, bottom;
} cliBox;

/* Whether a and b share more than an edge. */
bool cliBox_Overlap(cliBox a, cliBox b);

/* The width a line of text (UTF-8) of font size `size` px is taken to have:
 * a fixed width per character, generous enough that boxes apart here stay
 * apart when drawn. */
double cliTextWidth(const char* text, double size);

/* The box of a line of text with its baseline starting at (x, y): from
 * 0.8 em above the baseline to 0.2 em below. */
cliBox cliTextBox(const char* text, double size, double x, double y);

/* The labels placed so far: the boxes a new label must avoid. Start it
 * zeroed ({ NULL, 0, 0 }); cliLabels_Free releases boxes. */
typedef struct cliLabels {
	cliBox* boxes; /* owned */
	long count, capacity;
} cliLabels;

/* Release the boxes of labels and zero it. */
void cliLabels_Free(cliLabels* labels);

/* What became of a label. */
typedef enum cliLabelState {
	cli_labelPlaced = 0, /* x, y: where its baseline starts */
	cli_labelNoRoom,     /* every place is taken or outside the area: dropped */
	cli_labelNoMemory    /* its box could not be kept */
} cliLabelState;

/* Where a label goes, when it goes anywhere. */
typedef struct cliLabelPlace {
	cliLabelState state;
	double x, y; /* the start of its baseline when placed */
} cliLabelPlace;

/* Place text (font size `size` px) near anchor, a mark of radius `clearance`
 * px: the first of the candidate places around it, nearest first (upper
 * right, upper left, lower right, lower left, right, left, above, below, at
 * 2, then 4, then 7 times clearance), whose box lies inside area and
 * overlaps no box placed before; that box is added to labels. */
cliLabelPlace cliLabels_Place(cliLabels* labels, cliBox area, double anchorX, double anchorY, const char* text,
							  double size, double clearance);

/* The key's spacing, in pixels: an entry is a mark CLI_KEY_MARK wide, a
 * gap, its text; entries are CLI_KEY_SPACE apart, rows CLI_KEY_LINE. */
#define CLI_KEY_MARK 16.0
#define CLI_KEY_GAP 4.0
#define CLI_KEY_SPACE 14.0
#define CLI_KEY_LINE 16.0

/* At most this many entries in a key, besides its caption. */
#define CLI_KEY_MAX_ENTRIES 16

/* Where the key's caption and entries go: each entry's mark starts at
 * (x, y) (y the text's baseline), its text at x + CLI_KEY_MARK + CLI_KEY_GAP. */
typedef struct cliKeyLayout {
	double captionX, captionY;
	double x[CLI_KEY_MAX_ENTRIES], y[CLI_KEY_MAX_ENTRIES];
	int count; /* entries laid out */
	int rows;  /* rows used, at least 1 */
} cliKeyLayout;

/* The width of a key entry with this text: mark, gap and text. */
double cliKeyEntryWidth(const char* text, double size);

/* Lay out the caption, then count entries (texts, at most
 * CLI_KEY_MAX_ENTRIES, font size `size` px) in rows from left to right,
 * the first row's baseline CLI_KEY_LINE - 4 below top; an entry that would
 * cross right starts a new row at left, unless it is the first of its row. */
cliKeyLayout cliKeyLayout_Make(const char* caption, const char* const* texts, int count, double size, double left,
							   double right, double top);

#endif
