/* render_layout.c - where render's words go: labels placed beside their
 * marks without overlapping, and the key's entries laid out in rows. */
#include "render_layout.h"

#include <stdlib.h>

/* The width of a character, in em: DejaVu Sans, a common sans-serif, draws
 * digits 0.636 em wide and most letters narrower, so that boxes that do not
 * overlap here do not overlap drawn. */
#define CLI_CHAR_WIDTH 0.65

bool cliBox_Overlap(cliBox a, cliBox b)
{
	return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

double cliTextWidth(const char* text, double size)
{
	long characters = 0;
	for (const unsigned char* c = (const unsigned char*)text; *c != 0; ++c) {
		characters += (*c & 0xC0) != 0x80; /* continuation bytes are no characters */
	}
	return CLI_CHAR_WIDTH * size * (double)characters;
}

cliBox cliTextBox(const char* text, double size, double x, double y)
{
	cliBox box = { x, y - 0.8 * size, x + cliTextWidth(text, size), y + 0.2 * size };
	return box;
}

void cliLabels_Free(cliLabels* labels)
{
	free(labels->boxes);
	labels->boxes = NULL;
	labels->count = 0;
	labels->capacity = 0;
}

static bool addBox(cliLabels* labels, cliBox box)
{
	if (labels->count == labels->capacity) {
		long capacity = labels->capacity > 0 ? 2 * labels->capacity : 64;
		cliBox* boxes = realloc(labels->boxes, (size_t)capacity * sizeof *boxes);
		if (boxes == NULL) {
			return false;
		}
		labels->boxes = boxes;
		labels->capacity = capacity;
	}
	labels->boxes[labels->count++] = box;
	return true;
}

cliLabelPlace cliLabels_Place(cliLabels* labels, cliBox area, double anchorX, double anchorY, const char* text,
							  double size, double clearance)
{
	const double s = size;
	const double w = cliTextWidth(text, s);
	const double distances[3] = { 2.0 * clearance, 4.0 * clearance, 7.0 * clearance };
	for (int k = 0; k < 3; ++k) {
		const double d = distances[k];
		const double xs[8] = { anchorX + d, anchorX - d - w, anchorX + d,     anchorX - d - w,
							   anchorX + d, anchorX - d - w, anchorX - w / 2, anchorX - w / 2 };
		const double ys[8] = { anchorY - d,           anchorY - d,           anchorY + d + 0.8 * s,
							   anchorY + d + 0.8 * s, anchorY + 0.3 * s,     anchorY + 0.3 * s,
							   anchorY - d,           anchorY + d + 0.8 * s };
		for (int c = 0; c < 8; ++c) {
			cliBox box = cliTextBox(text, s, xs[c], ys[c]);
			if (!(box.left >= area.left && box.right <= area.right && box.top >= area.top &&
				  box.bottom <= area.bottom)) {
				continue;
			}
			bool clear = true;
			for (long i = 0; i < labels->count && clear; ++i) {
				clear = !cliBox_Overlap(box, labels->boxes[i]);
			}
			if (clear) {
				cliLabelPlace place = { addBox(labels, box) ? cli_labelPlaced : cli_labelNoMemory, xs[c], ys[c] };
				return place;
			}
		}
	}
	cliLabelPlace none = { cli_labelNoRoom, 0.0, 0.0 };
	return none;
}

double cliKeyEntryWidth(const char* text, double size)
{
	return CLI_KEY_MARK + CLI_KEY_GAP + cliTextWidth(text, size);
}

cliKeyLayout cliKeyLayout_Make(const char* caption, const char* const* texts, int count, double size, double left,
							   double right, double top)
{
	cliKeyLayout layout = { 0 };
	double x = left;
	int row = 0;
	double y = top + CLI_KEY_LINE - 4.0; /* the baseline, 4 px above the row's bottom */
	layout.captionX = x;
	layout.captionY = y;
	x += cliTextWidth(caption, size) + CLI_KEY_SPACE;
	for (int k = 0; k < count && k < CLI_KEY_MAX_ENTRIES; ++k) {
		double w = cliKeyEntryWidth(texts[k], size);
		if (x + w > right && x > left) {
			row += 1;
			x = left;
			y += CLI_KEY_LINE;
		}
		layout.x[k] = x;
		layout.y[k] = y;
		layout.count = k + 1;
		x += w + CLI_KEY_SPACE;
	}
	layout.rows = row + 1;
	return layout;
}
