/* svg_mesh.h - a mesh drawn as SVG for `ballcast render`: the painter's
 * depth order of its triangles (cut into pieces where they are big), the
 * outline edges, flat shading, and the mesh written whole or culled to a
 * grid of pixels. */
#ifndef BC_SVG_MESH_H
#define BC_SVG_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "ballcast.h"
#include "camera.h"
#include "svg.h"

/* A piece of a triangle A, B, C cut into a k x k grid of k^2 similar
 * triangles (k = 1: the whole triangle). In grid units along AB (i) and AC
 * (j), an upright piece has corners (i, j), (i+1, j), (i, j+1); a downward
 * one (down = 1) has corners (i+1, j), (i+1, j+1), (i, j+1). Pieces keep the
 * triangle's orientation, so its front normal. */
typedef struct cliPiece {
	int32_t triangle;
	uint16_t i, j;
	uint8_t k;
	uint8_t down;
} cliPiece;

/* The most pieces a triangle is cut into along an edge, and the most
 * pieces cutting may add to a whole mesh. A mesh over that budget is not
 * cut at all (its triangles are then small enough, or too many to cut). */
#define CLI_SVG_MAX_CUTS 16
#define CLI_SVG_CUT_BUDGET 262144

/* The corners of a piece, in the mesh frame. */
void cliPieceCorners(const bcMesh* mesh, cliPiece piece, bcVec3 corners[3]);

/* The painter's order: the non-degenerate triangles of mesh, each cut into
 * the fewest pieces (at most CLI_SVG_MAX_CUTS along an edge) whose edges are
 * at most maxEdge long (maxEdge <= 0 or infinite: no cutting), sorted from
 * the farthest to the nearest by the depth of their centroid, ties by
 * triangle and then by piece; then, where two pieces overlap on the screen
 * and one lies wholly in front of the other's plane (or the other wholly
 * behind its own), the one behind goes first (Newell's plane tests: a piece
 * of the floor reaching under the crate is painted before the crate's
 * side, though its centroid is nearer). Returns the pieces (the caller
 * frees them with free) and their number in *count; NULL when out of
 * memory. */
cliPiece* cliDepthOrder(const bcMesh* mesh, const cliCamera* camera, double maxEdge, int64_t* count);

/* Edges drawn as outlines: shared by no other drawn triangle, by more than
 * one, or by one whose normal turns by more than CLI_SVG_CREASE_DEGREES
 * (a crease: the crate's top against its sides, where flat shading alone
 * would show one colour for the top and the floor). Fan diagonals and the
 * gentle folds of a tessellated surface are not outlined. */
#define CLI_SVG_CREASE_DEGREES 30.0

/* Per triangle, bit e set when its edge e (0: AB, 1: BC, 2: CA) is an
 * outline edge. The caller frees the array with free; NULL when out of
 * memory. Degenerate triangles get 0 and share no edge. */
uint8_t* cliOutlineEdges(const bcMesh* mesh);

/* Flat shading of a triangle with unit front normal `normal` as the camera
 * sees it, lit by a light fixed to the camera (from the upper left, over the
 * viewer's shoulder): ambient plus Lambert. Back faces are shaded by their
 * back side, in grey (they are drawn dimmed: see cliSvg_Mesh). */
cliColor cliShade(const cliCamera* camera, bcVec3 normal, cliFacing facing);

/* The mesh: every non-degenerate triangle in the painter's order, front
 * faces opaque and flat-shaded, back faces dimmed (grey, mostly
 * transparent, so the inside of a closed room shows through its near
 * walls). false when out of memory. */
bool cliSvg_Mesh(cliSvg* svg, const bcMesh* mesh, const cliCamera* camera);

/* The mesh as cliSvg_Mesh draws it, except that where cullPixels > 0 the
 * corners of every uncut triangle are snapped to a grid of cullPixels
 * pixels, and a triangle whose snapped corners enclose no area (smaller
 * than about a grid cell) is not drawn: its neighbours, snapped to the same
 * grid points, close over it, so the surface and its silhouette stay whole
 * to within half a cell (vertex clustering). Snapped corners are written as
 * whole pixels when cullPixels is whole, as short path data: front faces
 * each a <path> coloured by its color attribute (the group fills and
 * strokes with currentColor), the back faces, all one colour, together as
 * one <path> at the end of their group. cullPixels <= 0: cliSvg_Mesh.
 * *culled (may be NULL) gets the number of triangles left out. */
bool cliSvg_MeshCulled(cliSvg* svg, const bcMesh* mesh, const cliCamera* camera, double cullPixels,
					   int64_t* culled);

/* The default grid of cliSvg_MeshCulled for a picture: 0 (draw every
 * triangle) when the mesh has at most one triangle per CLI_SVG_CULL_AREA
 * square pixels of the picture; else the finest grid of 1, 2, 3, 4, 5, 6,
 * 8, 10, 12 pixels at which at most CLI_SVG_FACE_BUDGET front faces remain,
 * or 16. The budget keeps the file well under a megabyte (the bunny's
 * 69451 triangles at 800x600: 5 px, 549 kB instead of 6.7 MB). */
#define CLI_SVG_CULL_AREA 64.0
#define CLI_SVG_FACE_BUDGET 8000
double cliSvg_AutoCull(const cliSvg* svg, const bcMesh* mesh, const cliCamera* camera);

#endif
