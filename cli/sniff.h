/* sniff.h - what an input is when it is not what a command reads: an OBJ
 * mesh given where trajectories or balls go (cast room.obj room.obj). */
#ifndef BC_SNIFF_H
#define BC_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

/* Does a first line starting with text look like an OBJ file's: a '#'
 * comment, or an OBJ keyword (v, vt, vn, f, o, g, s, usemtl, mtllib, ...)
 * followed by a blank? Leading blanks are skipped. */
bool cliLooksLikeObj(const char* text);

/* When the first line of a records input starts with firstCell and looks
 * like an OBJ file's, replace message (size bytes, the reader's complaint
 * about it) with one that says so. */
void cliNameObjAsRecords(const char* firstCell, char* message, size_t size);

#endif
