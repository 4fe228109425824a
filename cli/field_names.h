/* field_names.h - the names students give the fields of an answer, in any
 * case and spelling: t, toi, time, hit_time and Alpha (%) for alpha; hit,
 * collided, didHit for hit; nx, n_x, normal.x, normal[0], Normal_1 for the
 * normal's components; face_id, tri, triangleIndex for the triangle; and so
 * on. A name is cut into words (at '_', '.', blanks, brackets and
 * camelCase), lowercased, and looked up as a phrase, then as a vector's
 * name followed by a component, then by its telling words. */
#ifndef BC_FIELD_NAMES_H
#define BC_FIELD_NAMES_H

#include <stdbool.h>

/* What a column or key holds: a field of a result, or a component of one
 * of its vectors (a vector's slot, then its x, y and z). */
typedef enum cliSlot {
	cli_slotNone = 0,
	cli_slotId,
	cli_slotHit,
	cli_slotAlpha,
	cli_slotAlphaPercent, /* alpha written as a percentage of the path */
	cli_slotInitialOverlap,
	cli_slotFeature,
	cli_slotTriangle,
	cli_slotFace,
	cli_slotVertices, /* 1 to 3 vertex numbers in one cell */
	cli_slotVertex0,
	cli_slotVertex1,
	cli_slotVertex2,
	cli_slotError,
	cli_slotTies,
	cli_slotPoint, /* the six vectors, each followed by its x, y, z */
	cli_slotCenter = cli_slotPoint + 4,
	cli_slotNormal = cli_slotCenter + 4,
	cli_slotTriangleNormal = cli_slotNormal + 4,
	cli_slotP0 = cli_slotTriangleNormal + 4,
	cli_slotP1 = cli_slotP0 + 4,
	cli_slotCount = cli_slotP1 + 4
} cliSlot;

/* The first slot of the vectors, and how many slots each takes (itself, x,
 * y, z). */
#define CLI_SLOT_VECTORS cli_slotPoint
#define CLI_SLOT_VECTOR_WIDTH 4

/* Is s a vector's slot (the whole vector), or one of its components? */
static inline bool cliSlot_IsVector(cliSlot s)
{
	return s >= CLI_SLOT_VECTORS && (s - CLI_SLOT_VECTORS) % CLI_SLOT_VECTOR_WIDTH == 0;
}
static inline bool cliSlot_IsComponent(cliSlot s)
{
	return s >= CLI_SLOT_VECTORS && (s - CLI_SLOT_VECTORS) % CLI_SLOT_VECTOR_WIDTH != 0;
}

/* The vector a component belongs to, and which component (0, 1, 2). */
static inline cliSlot cliSlot_VectorOf(cliSlot s)
{
	return (cliSlot)(s - (s - CLI_SLOT_VECTORS) % CLI_SLOT_VECTOR_WIDTH);
}
static inline int cliSlot_Component(cliSlot s)
{
	return (int)((s - CLI_SLOT_VECTORS) % CLI_SLOT_VECTOR_WIDTH) - 1;
}

/* The slot a name says (cli_slotNone when it says none of them). Names the
 * course and cast use are exact; the rest are read by their words. *sure
 * is false for a name that only suggests the slot (a, s, u, index): the
 * column's values must agree. */
cliSlot cliSlotOfName(const char* name, bool* sure);

/* cliSlotOfName for a table whose components are numbered from 1
 * (MATLAB's writetable: normal_1, normal_2, normal_3). */
cliSlot cliSlotOfNameOneBased(const char* name, bool* sure);

/* Does name's last word read as the digit (normal_3: '3')? */
bool cliNameEndsInDigit(const char* name, char digit);

/* The slot's name as cast writes it (its JSON key, or for a component its
 * CSV column: "normal_x"); "alpha %" for the percentage. */
const char* cliSlot_Name(cliSlot s);

/* Does name say "no field" (--map NAME=none or =ignore)? */
bool cliNameIsIgnore(const char* name);

#endif
