/* svg.h - drawing a mesh as SVG for `ballcast render`: an orthographic
 * camera, its projection to pixels, back-face detection, the painter's
 * depth order, flat shading, and the SVG elements the picture is made of.
 *
 * Pixels: x to the right, y downwards, (0, 0) the top-left corner of the
 * picture, as in SVG. Coordinates are written rounded to 0.01 px: they are
 * drawing coordinates, not results, and the rounding makes the output
 * byte-identical from run to run and short. */
#ifndef BC_SVG_H
#define BC_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ballcast.h"

/* The default view: azimuth and elevation in degrees (see cliCamera_FromAngles). */
#define CLI_SVG_DEFAULT_AZIMUTH 35.0
#define CLI_SVG_DEFAULT_ELEVATION 25.0

/* An orthographic camera. right, up and toEye are orthonormal mesh-frame
 * directions: screen x grows along right, screen y grows against up, and
 * toEye points from the scene towards the viewer (the eye is infinitely far
 * away along it). The point target lands on pixel (originX, originY), and
 * scale is pixels per mesh unit. A value type; nothing to free. */
typedef struct cliCamera {
	bcVec3 right;
	bcVec3 up;
	bcVec3 toEye;
	bcVec3 target;
	double scale;
	double originX;
	double originY;
} cliCamera;

/* A rectangle of the picture in pixels (left < right, top < bottom). */
typedef struct cliViewport {
	double left, top, right, bottom;
} cliViewport;

/* Where a mesh-frame point lands: pixel x, y, and its depth, the distance
 * along toEye from the target (larger is nearer the viewer). */
typedef struct cliScreenPoint {
	double x, y;
	double depth;
} cliScreenPoint;

/* Which side of a triangle the camera sees. */
typedef enum cliFacing {
	cli_facingFront = 0, /* the front normal points towards the viewer */
	cli_facingBack       /* away from the viewer, or edge-on */
} cliFacing;

/* An sRGB colour. */
typedef struct cliColor {
	uint8_t r, g, b;
} cliColor;

/* The camera looking from azimuth and elevation in degrees, as MATLAB's
 * view(az, el) with z up: the eye lies along toEye = (cos el sin az,
 * -cos el cos az, sin el); az = 0, el = 0 looks from -y with x to the right
 * and z up; az = 90 looks from +x; el = 90 looks down with
 * right = (cos az, sin az, 0). el is clamped to [-90, 90]. Multiples of 90
 * degrees give exact axes. scale 1, target and origin at 0: frame it with
 * cliCamera_Frame. */
cliCamera cliCamera_FromAngles(double azimuthDegrees, double elevationDegrees);

/* The camera looking along -toEye (toEye need not be unit length, but must
 * be finite and non-zero). right is horizontal (toEye x z normalised, turned
 * so that right x up = toEye); looking straight up or down, right is +x.
 * Frame it with cliCamera_Frame. */
cliCamera cliCamera_FromDirection(bcVec3 toEye);

/* The mesh's up axis: the camera functions above take z as up; a camera
 * made so is turned onto another up axis with cliCamera_TurnUp. */
typedef enum cliUpAxis { cli_upX = 0, cli_upY = 1, cli_upZ = 2 } cliUpAxis;

/* Turn a camera made with z up (cliCamera_FromAngles, or FromDirection of a
 * direction given with cliUpFrame) so that up is the given axis. The frame
 * (X', Y', Z') the angles are read in is, in mesh axes: up z: (x, y, z);
 * up y: (x, -z, y), so that view 0,0 looks from +z with x to the right and
 * y up, as y-up scans are usually seen; up x: (y, z, x). All three are
 * right-handed. */
void cliCamera_TurnUp(cliCamera* camera, cliUpAxis up);

/* A mesh-frame vector in the frame (X', Y', Z') of cliCamera_TurnUp. */
bcVec3 cliUpFrame(bcVec3 v, cliUpAxis up);

/* The fraction of triangles considered when guessing the up axis, and the
 * rule's margins: see cliGuessUp. */
#define CLI_SVG_UP_SLAB 0.02
#define CLI_SVG_UP_FLAT_DEGREES 30.0
#define CLI_SVG_UP_PREFER_Z 1.25

/* The least base, as a fraction of the mesh's area, that says "up": a
 * base a mesh rests on covers several percent of its surface (the Stanford
 * bunny's 5.3 %, nefertiti's 6.3 %, a box's 17 %); below that the bottom
 * is a few feet (spot the cow, 1.3 %) or one of many flat faces of a
 * machined part (fandisk's largest, 3.3 %), no clear signal. */
#define CLI_SVG_UP_CLEAR 0.04

/* Guess the up axis of a mesh from its base: for each axis, the area of the
 * triangles that are flat across it (normal within CLI_SVG_UP_FLAT_DEGREES
 * of the axis, either sign) and lie at its bottom (centroid within
 * CLI_SVG_UP_SLAB of the extent from the lowest vertex along it). A scan or
 * a model rests on its base: the axis with the most base area is up. z is
 * kept unless another axis has more than CLI_SVG_UP_PREFER_Z times z's base
 * area and more than the third axis (a box, a room: z). When the chosen
 * base is less than CLI_SVG_UP_CLEAR of the mesh's area, no base stands
 * out: y, the up axis of most scans and models. */
cliUpAxis cliGuessUp(const bcMesh* mesh);

/* Aim the camera at the centre of the box [lower, upper] and pick the
 * largest scale at which the whole box fits in viewport, centred. A box
 * that projects to a point gets scale 1. */
void cliCamera_Frame(cliCamera* camera, bcVec3 lower, bcVec3 upper, cliViewport viewport);

/* Project a mesh-frame point: x = originX + scale dot(p - target, right),
 * y = originY - scale dot(p - target, up), depth = dot(p - target, toEye). */
cliScreenPoint cliCamera_Project(const cliCamera* camera, bcVec3 p);

/* Front when dot(normal, toEye) > 0; back otherwise (edge-on is back). */
cliFacing cliCamera_Facing(const cliCamera* camera, bcVec3 normal);

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
void cliPiece_Corners(const bcMesh* mesh, cliPiece piece, bcVec3 corners[3]);

/* The painter's order: the non-degenerate triangles of mesh, each cut into
 * the fewest pieces (at most CLI_SVG_MAX_CUTS along an edge) whose edges are
 * at most maxEdge long (maxEdge <= 0 or infinite: no cutting), sorted from
 * the farthest to the nearest by the depth of their centroid, ties by
 * triangle and then by piece. Cutting keeps centroid order right where a
 * big triangle meets small ones (a floor under a crate). Returns the
 * pieces (the caller frees them with free) and their number in *count;
 * NULL when out of memory. */
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

/* ----------------------------------------------------------- SVG writing */

/* Write a drawing coordinate rounded to 0.01 px, shortest form: "12.5",
 * "-3", "0.07"; never "-0". Values beyond +-1e9 px are clamped there (the
 * callers clip what they draw to the picture first). */
void cliSvgWriteCoord(FILE* f, double value);

/* Write text escaped for XML character data or an attribute value: & < > "
 * ' as entities; bytes that are not valid UTF-8, and control characters
 * XML 1.0 forbids, as '?'. */
void cliSvgWriteText(FILE* f, const char* text);

/* Clip the segment a-b to the picture of size width x height grown by
 * margin pixels on each side. Returns false when nothing is left, else
 * moves a and b onto the clipped ends (Liang-Barsky). */
bool cliClipSegment(double* ax, double* ay, double* bx, double* by, double width, double height, double margin);

/* The SVG document being written to stream (not owned). */
typedef struct cliSvg {
	FILE* stream;
	int width, height;
} cliSvg;

/* The XML declaration, a comment (NULL for none; "--" in it is written
 * "- "; left out if there is no memory for that), the <svg> element of the
 * given size in pixels and a white background. */
void cliSvg_Begin(cliSvg* svg, FILE* stream, int width, int height, const char* comment);

/* Close the <svg> element. */
void cliSvg_End(cliSvg* svg);

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

/* Open a group <g class="..."> with a <title> (a tooltip; NULL for none). */
void cliSvg_BeginGroup(cliSvg* svg, const char* className, const char* title);
void cliSvg_EndGroup(cliSvg* svg);

/* A line a-b of the given colour and width in pixels, dashed or solid,
 * clipped to the picture; nothing when it lies outside. */
void cliSvg_Line(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				 double width, bool dashed);

/* An arrow from a to b: a line and a filled head at b (no head when a and b
 * are closer than the head is long). */
void cliSvg_Arrow(cliSvg* svg, const char* className, cliScreenPoint a, cliScreenPoint b, cliColor color,
				  double width);

/* A circle of radius pixels around c: filled (a disk) or outlined. Not drawn
 * when it lies wholly outside the picture or its radius exceeds
 * CLI_SVG_MAX_RADIUS. */
void cliSvg_Circle(cliSvg* svg, const char* className, cliScreenPoint c, double radius, cliColor color, bool filled,
				   double strokeWidth);

/* One line of text with its baseline starting at (x, y). */
void cliSvg_Text(cliSvg* svg, const char* className, double x, double y, double size, cliColor color,
				 const char* text);

/* The largest circle drawn, in pixels: a ball this big covers a picture a
 * thousand times the largest allowed, and keeps coordinates small. */
#define CLI_SVG_MAX_RADIUS 1e7

#endif
