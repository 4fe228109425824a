/* fuzz_obj.c - libFuzzer target: bcMesh_ParseObj on arbitrary bytes.
 *
 * Properties:
 *  - a refused input has an error code and a message; a syntax, index or
 *    value error points at a real place: line 1 .. the number of physical
 *    lines, column 1 .. that line's length + 1 (bytes; on line 1 counted
 *    after a byte order mark); an empty mesh has no position;
 *  - a byte order mark put in front changes nothing (same mesh counts, or
 *    the same error at the same line and column);
 *  - an accepted mesh has at least one triangle, at most as many faces as
 *    triangles, finite vertices inside its bounds, triangle corners in
 *    range, face ids in 0 .. faceCount - 1 and non-decreasing, unit normals
 *    (zero for the degenerate ones, which are counted right); its warnings
 *    (non-planar or self-intersecting polygons) are at most one per face,
 *    in face order, each about a face of two triangles or more, at a real
 *    line and column;
 *  - fixed trajectories through and around its bounds (each axis both ways,
 *    a diagonal, a ball at rest, r = 0 and r > 0) answer as bcMesh_Cast
 *    must: the BVH and brute force identical, finite numbers, alpha in
 *    [0, 1], a contact on a non-degenerate triangle with a unit normal. */
#include "fuzz.h"

/* A unit normal's length may differ from 1 by this (a few ulps in truth). */
#define BC_OBJ_FUZZ_UNIT_TOLERANCE 1e-9

/* The byte order mark parsers skip. */
/* Cast from p0 to p1 with radius r, with the BVH and by brute force. */
static void checkCast(const bcMesh* mesh, bcVec3 p0, bcVec3 p1, double r, bool twoSided)
{
	bcCastInput in = { p0, p1, r };
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = twoSided;
	bcCastOptions brute = options;
	brute.bruteForce = true;
	bcCastOutput fast = bcMesh_Cast(mesh, in, &options);
	bcCastOutput slow = bcMesh_Cast(mesh, in, &brute);
	if (!bcFuzzSameOutput(&fast, &slow)) {
		bcFuzzPrintOutput("bvh", &fast);
		bcFuzzPrintOutput("brute force", &slow);
	}
	BC_FUZZ_CHECK(bcFuzzSameOutput(&fast, &slow),
				  "the BVH and brute force disagree: p0 (%.17g, %.17g, %.17g) p1 (%.17g, %.17g, %.17g) r %.17g", p0.x,
				  p0.y, p0.z, p1.x, p1.y, p1.z, r);
	if (!bcIsValidCastInput(in)) {
		BC_FUZZ_CHECK(fast.state == bc_castInvalid, "an invalid input answered state %d", (int)fast.state);
		return;
	}
	BC_FUZZ_CHECK(bcFuzzIsFiniteOutput(&fast), "a non-finite number in the output");
	BC_FUZZ_CHECK(fast.alpha >= 0.0 && fast.alpha <= 1.0, "alpha %.17g", fast.alpha);
	if (fast.state == bc_castMiss) {
		BC_FUZZ_CHECK(fast.alpha == 1.0 && fast.triangle == -1, "a miss with alpha %.17g", fast.alpha);
		return;
	}
	BC_FUZZ_CHECK(fast.state == bc_castHit || fast.state == bc_castInitialOverlap, "state %d", (int)fast.state);
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	BC_FUZZ_CHECK(fast.triangle >= 0 && fast.triangle < info.triangleCount, "triangle %ld", (long)fast.triangle);
	bcTriangle tri = bcMesh_GetTriangle(mesh, fast.triangle);
	BC_FUZZ_CHECK(!tri.degenerate, "a contact on degenerate triangle %ld", (long)fast.triangle);
	BC_FUZZ_CHECK(fast.face == tri.face, "face %ld, the triangle's is %ld", (long)fast.face, (long)tri.face);
	double length = sqrt(bcFuzzDot(fast.normal, fast.normal));
	BC_FUZZ_CHECK(fabs(length - 1.0) < BC_OBJ_FUZZ_UNIT_TOLERANCE, "|normal| = %.17g", length);
}

/* Check an accepted mesh's warnings: at most one per face, each about a
 * polygon (a face of two triangles or more) at a real place of the text. */
static void checkWarnings(const bcMesh* mesh, const char* text, size_t size)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	int32_t count = bcMesh_GetWarningCount(mesh);
	BC_FUZZ_CHECK(count >= 0 && count <= info.faceCount, "%ld warnings for %ld faces", (long)count,
				  (long)info.faceCount);
	long previous = -1;
	for (int32_t i = 0; i < count && i < BC_MAX_WARNINGS; ++i) {
		bcWarning w = bcMesh_GetWarning(mesh, i);
		BC_FUZZ_CHECK(w.code == bc_warningNonPlanar || w.code == bc_warningSelfIntersecting, "warning %ld: code %d",
					  (long)i, (int)w.code);
		BC_FUZZ_CHECK(w.record > previous && w.record < info.faceCount, "warning %ld: face %ld", (long)i, w.record);
		previous = w.record;
		BC_FUZZ_CHECK(w.message[0] != '\0', "warning %ld without a message", (long)i);
		BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, w.line, w.column), "warning %ld at %ld:%ld: %s", (long)i,
					  w.line, w.column, w.message);
		int32_t triangles = 0;
		for (int32_t t = 0; t < info.triangleCount; ++t) {
			triangles += bcMesh_GetTriangle(mesh, t).face == w.record;
		}
		BC_FUZZ_CHECK(triangles >= 2, "warning %ld about face %ld of %ld triangles", (long)i, w.record, (long)triangles);
	}
}

/* Check an accepted mesh, then cast the fixed trajectories. */
static void checkMesh(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	BC_FUZZ_CHECK(info.triangleCount >= 1 && info.vertexCount >= 1 && info.faceCount >= 1 &&
					  info.faceCount <= info.triangleCount,
				  "counts: %ld vertices, %ld triangles, %ld faces", (long)info.vertexCount, (long)info.triangleCount,
				  (long)info.faceCount);
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(v), "vertex %ld is not finite", (long)i);
		BC_FUZZ_CHECK(v.x >= info.lowerBound.x && v.y >= info.lowerBound.y && v.z >= info.lowerBound.z &&
						  v.x <= info.upperBound.x && v.y <= info.upperBound.y && v.z <= info.upperBound.z,
					  "vertex %ld outside the bounds", (long)i);
	}
	int32_t degenerate = 0;
	int32_t previousFace = 0;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		for (int k = 0; k < 3; ++k) {
			BC_FUZZ_CHECK(tri.vertices[k] >= 0 && tri.vertices[k] < info.vertexCount, "triangle %ld corner %d is %ld",
						  (long)t, k, (long)tri.vertices[k]);
		}
		BC_FUZZ_CHECK(tri.face >= previousFace && tri.face < info.faceCount, "triangle %ld has face %ld", (long)t,
					  (long)tri.face);
		previousFace = tri.face;
		degenerate += tri.degenerate;
		double length = sqrt(bcFuzzDot(tri.normal, tri.normal));
		BC_FUZZ_CHECK(tri.degenerate ? length == 0.0 : fabs(length - 1.0) < BC_OBJ_FUZZ_UNIT_TOLERANCE,
					  "triangle %ld: |normal| = %.17g", (long)t, length);
	}
	BC_FUZZ_CHECK(degenerate == info.degenerateCount, "%ld degenerate, info says %ld", (long)degenerate,
				  (long)info.degenerateCount);

	/* Halves first: lower + upper may overflow where their halves do not. */
	bcVec3 lo = info.lowerBound;
	bcVec3 hi = info.upperBound;
	bcVec3 center = { 0.5 * lo.x + 0.5 * hi.x, 0.5 * lo.y + 0.5 * hi.y, 0.5 * lo.z + 0.5 * hi.z };
	double extent = (hi.x - lo.x) + (hi.y - lo.y) + (hi.z - lo.z) + 1.0;
	for (int axis = 0; axis < 3; ++axis) {
		bcVec3 p0 = center;
		bcVec3 p1 = center;
		double* a0 = axis == 0 ? &p0.x : axis == 1 ? &p0.y : &p0.z;
		double* a1 = axis == 0 ? &p1.x : axis == 1 ? &p1.y : &p1.z;
		*a0 += extent;
		*a1 -= extent;
		for (int twoSided = 0; twoSided < 2; ++twoSided) {
			checkCast(mesh, p0, p1, 0.0, twoSided);
			checkCast(mesh, p1, p0, 0.0, twoSided);
			checkCast(mesh, p0, p1, 0.01 * extent, twoSided);
			checkCast(mesh, p1, p0, 0.25 * extent, twoSided);
		}
	}
	checkCast(mesh, lo, hi, 0.0, false);
	checkCast(mesh, hi, lo, 0.1 * extent, true);
	checkCast(mesh, center, center, 0.1 * extent, false);
	checkCast(mesh, bcMesh_GetVertex(mesh, 0), center, 0.0, true);
}

static void parse(const char* text, size_t size, bcError* error, bcMeshInfo* info, int32_t* warnings, bool* ok)
{
	memset(error, 0, sizeof *error);
	bcMesh* mesh = bcMesh_ParseObj(text, size, NULL, error);
	*ok = mesh != NULL;
	if (mesh == NULL) {
		BC_FUZZ_CHECK(error->code != bc_errorNone && error->message[0] != '\0', "refused with code %d, message '%s'",
					  (int)error->code, error->message);
		if (error->code == bc_errorSyntax || error->code == bc_errorIndex || error->code == bc_errorValue ||
			error->code == bc_errorTooLarge) {
			BC_FUZZ_CHECK(bcFuzzIsValidPosition(text, size, error->line, error->column),
						  "error at line %ld column %ld is not in the input: %s", error->line, error->column,
						  error->message);
		} else {
			BC_FUZZ_CHECK(error->code == bc_errorEmpty && error->line == 0 && error->column == 0,
						  "unexpected error code %d at %ld:%ld: %s", (int)error->code, error->line, error->column,
						  error->message);
		}
		return;
	}
	*info = bcMesh_GetInfo(mesh);
	*warnings = bcMesh_GetWarningCount(mesh);
	checkMesh(mesh);
	checkWarnings(mesh, text, size);
	bcMesh_Destroy(mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const char* text = (const char*)data;
	bcError error;
	bcMeshInfo info;
	int32_t warnings = 0;
	bool ok;
	parse(text, size, &error, &info, &warnings, &ok);

	/* The same text after a byte order mark (unless it has one already). */
	char* marked = bcFuzzWithByteOrderMark(text, size);
	if (marked == NULL) {
		return 0;
	}
	bcError markedError;
	bcMeshInfo markedInfo;
	int32_t markedWarnings = 0;
	bool markedOk;
	parse(marked, size + 3, &markedError, &markedInfo, &markedWarnings, &markedOk);
	free(marked);
	BC_FUZZ_CHECK(ok == markedOk, "a byte order mark changes acceptance");
	if (ok) {
		BC_FUZZ_CHECK(info.vertexCount == markedInfo.vertexCount && info.triangleCount == markedInfo.triangleCount &&
						  info.faceCount == markedInfo.faceCount && warnings == markedWarnings,
					  "a byte order mark changes the counts");
	} else {
		BC_FUZZ_CHECK(error.code == markedError.code && error.line == markedError.line &&
						  error.column == markedError.column && strcmp(error.message, markedError.message) == 0,
					  "a byte order mark changes the error: %ld:%ld %s / %ld:%ld %s", error.line, error.column,
					  error.message, markedError.line, markedError.column, markedError.message);
	}
	return 0;
}
