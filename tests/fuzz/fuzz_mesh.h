/* fuzz_mesh.h - the body of the mesh readers' libFuzzer targets (fuzz_stl,
 * fuzz_ply, fuzz_off): bcMesh_Parse of arbitrary bytes as one format.
 *
 * Properties:
 *  - a refused input has an error code and a message, and a place that
 *    exists: a line and column inside the text (line 1 .. the number of
 *    lines, column 1 .. that line's length + 1), or a byte in 1 .. size +
 *    1, or none (an empty mesh, out of memory, a missing element);
 *  - the same bytes through bcMesh_Read (a stream) give the same answer:
 *    the same mesh counts, or the same error at the same place;
 *  - an accepted mesh has at least one triangle, finite vertices inside its
 *    bounds, corners in range, face ids in 0 .. faceCount - 1 and
 *    non-decreasing, unit normals (zero for the degenerate ones, counted
 *    right), warnings at real places and at most as many merged corners as
 *    3 per triangle;
 *  - fixed casts through its bounds answer the same with the hierarchy and
 *    by brute force. */
#ifndef BC_FUZZ_MESH_H
#define BC_FUZZ_MESH_H

#include "fuzz.h"

/* A unit normal's length may differ from 1 by this (a few ulps in truth). */
#define BC_MESH_FUZZ_UNIT_TOLERANCE 1e-9

static bool bcFuzzValidPlace(const char* text, size_t size, long line, long column, long long byte)
{
	if (byte != 0) {
		return line == 0 && column == 0 && byte >= 1 && (unsigned long long)byte <= (unsigned long long)size + 1;
	}
	if (line == 0) {
		return column == 0;
	}
	/* columns on line 1 count after a byte order mark, as
	 * bcFuzzIsValidPosition counts them */
	return bcFuzzIsValidPosition(text, size, line, column);
}

static void bcFuzzMeshCast(const bcMesh* mesh, bcVec3 p0, bcVec3 p1, double r)
{
	bcCastInput in = { p0, p1, r };
	bcCastOptions options = bcDefaultCastOptions();
	bcCastOptions brute = options;
	brute.bruteForce = true;
	bcCastOutput fast = bcMesh_Cast(mesh, in, &options);
	bcCastOutput slow = bcMesh_Cast(mesh, in, &brute);
	BC_FUZZ_CHECK(bcFuzzSameOutput(&fast, &slow), "the hierarchy and brute force disagree");
}

static void bcFuzzCheckMesh(const bcMesh* mesh, const char* text, size_t size)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	BC_FUZZ_CHECK(info.triangleCount >= 1, "a mesh without triangles");
	BC_FUZZ_CHECK(info.faceCount >= 1 && info.faceCount <= info.triangleCount, "face count %d", info.faceCount);
	BC_FUZZ_CHECK(info.mergedCorners >= 0 && info.mergedCorners <= 3LL * info.triangleCount, "merged corners");
	for (int32_t i = 0; i < info.vertexCount; ++i) {
		bcVec3 v = bcMesh_GetVertex(mesh, i);
		BC_FUZZ_CHECK(bcFuzzIsFiniteVec3(v), "vertex %d not finite", i);
		BC_FUZZ_CHECK(v.x >= info.lowerBound.x && v.x <= info.upperBound.x && v.y >= info.lowerBound.y &&
						  v.y <= info.upperBound.y && v.z >= info.lowerBound.z && v.z <= info.upperBound.z,
					  "vertex %d outside the bounds", i);
	}
	int32_t previous = 0;
	int32_t degenerate = 0;
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle t = bcMesh_GetTriangle(mesh, i);
		for (int k = 0; k < 3; ++k) {
			BC_FUZZ_CHECK(t.vertices[k] >= 0 && t.vertices[k] < info.vertexCount, "corner out of range");
		}
		BC_FUZZ_CHECK(t.face >= previous && t.face < info.faceCount, "face id %d after %d", t.face, previous);
		previous = t.face;
		double length = sqrt(bcFuzzDot(t.normal, t.normal));
		degenerate += t.degenerate;
		BC_FUZZ_CHECK(t.degenerate ? length == 0.0 : fabs(length - 1.0) <= BC_MESH_FUZZ_UNIT_TOLERANCE,
					  "normal of length %.17g", length);
	}
	BC_FUZZ_CHECK(degenerate == info.degenerateCount, "degenerate count");
	int32_t warnings = bcMesh_GetWarningCount(mesh);
	for (int32_t k = 0; k < warnings && k < BC_MAX_WARNINGS; ++k) {
		bcWarning w = bcMesh_GetWarning(mesh, k);
		BC_FUZZ_CHECK(w.code != bc_warningNone && w.message[0] != '\0', "an empty warning");
		BC_FUZZ_CHECK(bcFuzzValidPlace(text, size, w.line, w.column, w.byte), "warning at %ld:%ld byte %lld",
					  w.line, w.column, w.byte);
		BC_FUZZ_CHECK(w.record >= 0 && w.record < info.faceCount, "warning about face %ld", w.record);
	}
	bcVec3 lo = info.lowerBound;
	bcVec3 hi = info.upperBound;
	bcVec3 mid = bcMakeVec3(0.5 * lo.x + 0.5 * hi.x, 0.5 * lo.y + 0.5 * hi.y, 0.5 * lo.z + 0.5 * hi.z);
	if (bcFuzzIsFiniteVec3(mid) && fabs(mid.x) < 1e40 && fabs(mid.y) < 1e40 && fabs(mid.z) < 1e40) {
		double reach = fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z) + 1.0;
		if (isfinite(reach) && reach < 1e40) {
			for (int axis = 0; axis < 3; ++axis) {
				bcVec3 d = bcMakeVec3(axis == 0 ? reach : 0.0, axis == 1 ? reach : 0.0, axis == 2 ? reach : 0.0);
				bcFuzzMeshCast(mesh, bcFuzzSub(mid, d), bcMakeVec3(mid.x + d.x, mid.y + d.y, mid.z + d.z), 0.0);
				bcFuzzMeshCast(mesh, bcMakeVec3(mid.x + d.x, mid.y + d.y, mid.z + d.z), bcFuzzSub(mid, d),
							   0.01 * reach);
			}
		}
	}
}

/* Parse data as format and check what comes back. */
static int bcFuzzMeshInput(const uint8_t* data, size_t size, bcMeshFormat format)
{
	bcObjOptions options = bcDefaultObjOptions();
	options.threadCount = 1;
	bcError error;
	memset(&error, 0, sizeof error);
	bcMesh* mesh = bcMesh_Parse(data, size, format, &options, &error);
	const char* text = (const char*)data;
	if (mesh == NULL) {
		BC_FUZZ_CHECK(error.code != bc_errorNone && error.message[0] != '\0', "refused without a reason");
		BC_FUZZ_CHECK(bcFuzzValidPlace(text, size, error.line, error.column, error.byte),
					  "error at %ld:%ld byte %lld: %s", error.line, error.column, error.byte, error.message);
	} else {
		bcFuzzCheckMesh(mesh, text, size);
	}
	/* the same bytes as a stream */
	FILE* stream = size > 0 ? fmemopen((void*)data, size, "rb") : NULL;
	if (stream != NULL) {
		bcError again;
		memset(&again, 0, sizeof again);
		bcMesh* read = bcMesh_Read(stream, format, &options, &again);
		fclose(stream);
		BC_FUZZ_CHECK((read == NULL) == (mesh == NULL), "parse and read disagree: %s / %s", error.message,
					  again.message);
		if (read != NULL) {
			BC_FUZZ_CHECK(bcMesh_GetInfo(read).triangleCount == bcMesh_GetInfo(mesh).triangleCount &&
							  bcMesh_GetInfo(read).vertexCount == bcMesh_GetInfo(mesh).vertexCount,
						  "parse and read give different meshes");
		} else if (again.code != bc_errorTooLarge && error.code != bc_errorTooLarge) {
			BC_FUZZ_CHECK(again.line == error.line && again.column == error.column && again.byte == error.byte,
						  "parse and read report different places: %s / %s", error.message, again.message);
		}
		bcMesh_Destroy(read);
	}
	bcMesh_Destroy(mesh);
	return 0;
}

#endif
