/* cell_value.h - what one value of a student's file says, read as a
 * teacher reads it: a number however it is spelt (a decimal comma, a
 * percent sign, Fortran's D exponent), a boolean in the words of many
 * programs and spreadsheets, a word for "no value", a feature name in any
 * case or abbreviation, three numbers packed in one cell. Used by the
 * column inference (table_infer.c) and by the reading of each record
 * (results_table.c), so that a value is judged the same way by both. */
#ifndef BC_CELL_VALUE_H
#define BC_CELL_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "ballcast.h"

/* How a number was written (cliCellNumber's flags). */
enum {
	cli_numberPercent = 1 << 0,      /* a '%' after it: 25% is 25, the caller divides */
	cli_numberDecimalComma = 1 << 1, /* "0,25" */
	cli_numberWhole = 1 << 2,        /* digits only, no point or exponent: 7, -3, 0007 */
	cli_numberLeadingZero = 1 << 3   /* a whole number with a leading zero: 0007 */
};

/* The number text holds (blanks around it allowed): JSON's grammar, or a
 * '+', a bare point (.5, 5.), a D exponent (1D-3), a '%' after it; with
 * decimalComma one ',' in place of the point ("0,25"). 1 with *value (as
 * written: 25% is 25) and *flags; 0 when text is empty or blank; -1 when
 * it is not a number; -2 when it is one but not finite (nan, inf,
 * 1e999). */
int cliCellNumber(const char* text, bool decimalComma, double* value, unsigned* flags);

/* A boolean as programs and spreadsheets write one, in any case: true and
 * false, yes and no, y and n, t and f, on and off, 1 and 0 (1.0, 0.0),
 * hit and miss; the words of other languages (WAHR and FALSCH, VRAI and
 * FAUX, VERDADERO and FALSO, VERO and FALSO, WAAR and ONWAAR, SANT and
 * FALSK, VERDADEIRO and FALSO, ja and nein, oui and non, si and no); a
 * hit's word (collision, contact, hit ...) for true and the same after
 * "no " or "not " for false ("no collision"). */
bool cliCellBool(const char* text, bool* value);

/* Is text a strict boolean word (true/false, yes/no in any case, or a
 * spreadsheet's word)? Not 1/0, y/n, t/f: those are evidence only with
 * others. */
bool cliCellIsBoolWord(const char* text);

/* Does text say "no value": empty or blank, nan, null, none, na, n/a,
 * nil, missing, undefined, -, --, ?, #N/A (any case)? */
bool cliCellIsMissing(const char* text);

/* A feature, in any case, abbreviation or enum spelling: face, f,
 * triangle, tri, plane; edge, e, segment; vertex, v, vert, corner; none,
 * miss, n (also FEATURE_FACE, Feature.EDGE, bc_featureVertex). */
bool cliCellFeature(const char* text, bcFeature* feature);

/* Three numbers in one cell: [x, y, z], (x y z), {x; y; z}, <x, y, z>,
 * vec3(x, y, z), array([x, y, z]), or x y z; with decimalComma the numbers
 * may have decimal commas and are then separated by ';' or blanks. 1 with
 * *v, 0 when text is empty or a missing word, -1 when it is not three
 * numbers (nan and inf are not numbers here). */
int cliCellVector(const char* text, bool decimalComma, bcVec3* v);

/* Is text "close to a unit vector" packed in one cell (cliCellVector and
 * |v| within CLI_UNIT_SLACK of 1)? */
bool cliCellIsUnitVector(const char* text, bool decimalComma);

/* How far from 1 the length of a vector may be for it to count as a
 * normal when columns are told by their values: printed with 6 digits
 * (printf's %f, %g) a unit vector is off by 1e-6 at most; a point or a
 * centre that happens to be near the unit sphere is rare over many
 * rows. */
#define CLI_UNIT_SLACK 1e-3

#endif
