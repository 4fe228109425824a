/* off.c - the OFF reader (Object File Format, as Geomview and the
 * geometry-processing courses write it) into a bcMesh (through
 * mesh_build.c).
 *
 *     OFF                         (or COFF, NOFF, CNOFF; counts may follow on this line)
 *     # comments anywhere, to the end of the line
 *     nv nf ne                    (ne, the edge count, is read and ignored)
 *     x y z [more columns]        nv vertex lines: colours, normals ignored
 *     k i1 i2 ... ik [colour]     nf face lines: 0-based indices, a colour ignored
 *
 * The file is read line by line: a vertex's three numbers and a face's
 * corners are on its line, and what follows them there is ignored. Blank
 * and comment lines count for nothing. A file with fewer lines than its
 * counts, or more data after its faces, is refused (a lying count). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "mesh_build.h"

/* A face of more corners than this is refused: far beyond any real face,
 * and it bounds one face's scratch. */
#define BC_OFF_MAX_CORNERS 100000000LL

/* Header counts are trusted for reserving memory only up to what the text
 * could hold: a vertex line has at least 6 bytes ("0 0 0\n"). */
#define BC_OFF_MIN_VERTEX_BYTES 6

bcMesh* bcReadOff(const char* text, size_t length, int threadCount, bcError* error)
{
	bcTextScanner s;
	bcTextScanner_Start(&s, text, length, true);
	if (!bcTextScanner_Skip(&s) ||
		!(bcTextScanner_Word(&s, "off") || bcTextScanner_Word(&s, "coff") || bcTextScanner_Word(&s, "noff") ||
		  bcTextScanner_Word(&s, "cnoff"))) {
		bcTextScanner_Expected(&s, "'OFF' at the start of an OFF file", error);
		return NULL;
	}
	long long counts[3];
	static const char* const countNames[3] = { "the vertex count", "the face count", "the edge count" };
	for (int k = 0; k < 3; ++k) {
		if (!bcTextScanner_Skip(&s) ||
			!bcTextScanner_Count(&s, countNames[k], k < 2 ? (long long)BC_MAX_ELEMENTS : INT64_MAX / 10,
								 counts + k, error)) {
			if (s.p == s.end) {
				bcTextScanner_Expected(&s, countNames[k], error);
			}
			return NULL;
		}
	}
	bcTextScanner_NextLine(&s);
	long long vertexCount = counts[0];
	long long faceCount = counts[1];
	bcMeshBuilder builder;
	memset(&builder, 0, sizeof builder);
	size_t room = length / BC_OFF_MIN_VERTEX_BYTES;
	bool ok = bcMeshBuilder_Reserve(&builder, (size_t)vertexCount < room ? (size_t)vertexCount : room,
									(size_t)faceCount < room ? (size_t)faceCount : room);
	if (!ok) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
	}
	char what[128];
	for (long long i = 0; ok && i < vertexCount; ++i) {
		if (!bcTextScanner_Skip(&s)) {
			snprintf(what, sizeof what, "vertex %lld of %lld", i, vertexCount);
			bcTextScanner_Expected(&s, what, error);
			ok = false;
			break;
		}
		double xyz[3];
		for (int k = 0; k < 3 && ok; ++k) {
			if ((k == 0 || bcTextScanner_OnLine(&s)) && bcTextScanner_TryNumber(&s, xyz + k)) {
				continue;
			}
			/* the slow path names what was expected */
			snprintf(what, sizeof what, "vertex %lld's %c", i, "xyz"[k]);
			if (k > 0 && !bcTextScanner_OnLine(&s)) {
				bcTextScanner_Expected(&s, what, error);
				ok = false;
			} else {
				ok = bcTextScanner_Number(&s, what, xyz + k, error);
			}
		}
		if (ok && !bcMeshBuilder_AddVertex(&builder, bcMakeVec3(xyz[0], xyz[1], xyz[2]))) {
			bcSetError(error, bc_errorNoMemory, s.line, 1, "out of memory");
			ok = false;
		}
		bcTextScanner_NextLine(&s);
	}
	for (long long i = 0; ok && i < faceCount; ++i) {
		if (!bcTextScanner_Skip(&s)) {
			snprintf(what, sizeof what, "face %lld of %lld (its corner count)", i, faceCount);
			bcTextScanner_Expected(&s, what, error);
			ok = false;
			break;
		}
		long line = s.line;
		long column = bcTextScanner_Column(&s, s.p);
		long long corners;
		if (!bcTextScanner_TryCount(&s, BC_OFF_MAX_CORNERS, &corners)) {
			snprintf(what, sizeof what, "face %lld of %lld (its corner count)", i, faceCount);
			bcTextScanner_Count(&s, what, BC_OFF_MAX_CORNERS, &corners, error);
			ok = false;
			break;
		}
		if (corners < 3) {
			bcSetError(error, bc_errorSyntax, line, column, "a face needs at least 3 vertices, found %lld", corners);
			ok = false;
			break;
		}
		if ((size_t)corners > builder.cornerCapacity) {
			int32_t* grown = bcRealloc(builder.corners, (size_t)corners * sizeof *grown);
			if (grown == NULL) {
				bcSetError(error, bc_errorNoMemory, line, column, "out of memory");
				ok = false;
				break;
			}
			builder.corners = grown;
			builder.cornerCapacity = (size_t)corners;
		}
		for (long long k = 0; k < corners && ok; ++k) {
			long long index;
			bool onLine = bcTextScanner_OnLine(&s);
			const char* at = s.p;
			if (!onLine || !bcTextScanner_TryCount(&s, INT64_MAX / 10, &index)) {
				snprintf(what, sizeof what, "face %lld's vertex index %lld of %lld", i, k + 1, corners);
				if (!onLine) {
					bcTextScanner_Expected(&s, what, error);
				} else {
					bcTextScanner_Count(&s, what, INT64_MAX / 10, &index, error);
				}
				ok = false;
				break;
			}
			if (index >= vertexCount) {
				bcSetError(error, bc_errorIndex, s.line, bcTextScanner_Column(&s, at),
						   "vertex index %lld out of range: the file has %lld %s (indices from 0)", index,
						   vertexCount, vertexCount == 1 ? "vertex" : "vertices");
				ok = false;
				break;
			}
			builder.corners[k] = (int32_t)index;
		}
		if (ok && !bcMeshBuilder_AddPolygon(&builder, builder.corners, (int32_t)corners, line, column, 0)) {
			bool full = (long long)builder.arrays.triangleCount + corners - 2 > (long long)BC_MAX_ELEMENTS;
			bcSetError(error, full ? bc_errorTooLarge : bc_errorNoMemory, line, column,
					   full ? "too many triangles: at most %ld are supported" : "out of memory",
					   (long)BC_MAX_ELEMENTS);
			ok = false;
		}
		bcTextScanner_NextLine(&s);
	}
	if (ok && bcTextScanner_Skip(&s)) {
		char quoted[48];
		bcQuoteToken(quoted, sizeof quoted, s.p, bcTextScanner_TokenEnd(&s));
		bcSetError(error, bc_errorSyntax, s.line, bcTextScanner_Column(&s, s.p),
				   "data after the %lld faces the header counts: '%s' (a wrong count?)", faceCount, quoted);
		ok = false;
	}
	if (!ok) {
		bcMeshBuilder_Free(&builder);
		return NULL;
	}
	char empty[96];
	snprintf(empty, sizeof empty, "no faces: the OFF file has %lld %s and 0 faces", vertexCount,
			 vertexCount == 1 ? "vertex" : "vertices");
	return bcMeshBuilder_Finish(&builder, bc_meshOff, threadCount, empty, error);
}
