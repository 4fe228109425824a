/* camera.h - the orthographic camera of `ballcast render`: made from view
 * angles or an eye direction, turned onto the mesh's up axis (given, or
 * guessed from the mesh's base), framed on a box, and projecting mesh-frame
 * points to pixels with their depth.
 *
 * Pixels: x to the right, y downwards, (0, 0) the top-left corner of the
 * picture, as in SVG. */
#ifndef BC_CAMERA_H
#define BC_CAMERA_H

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

/* Aim the camera so that the points[0 .. count), each with a margin of pad
 * mesh units on screen, fit viewport centred at the largest scale: tighter
 * than cliCamera_Frame's box, whose corners may lie far outside a flat or
 * slanted scene. count > 0; points that project to one point get scale 1. */
void cliCamera_FramePoints(cliCamera* camera, const bcVec3* points, int count, double pad, cliViewport viewport);

/* Project a mesh-frame point: x = originX + scale dot(p - target, right),
 * y = originY - scale dot(p - target, up), depth = dot(p - target, toEye). */
cliScreenPoint cliCamera_Project(const cliCamera* camera, bcVec3 p);

/* Front when dot(normal, toEye) > 0; back otherwise (edge-on is back). */
cliFacing cliCamera_Facing(const cliCamera* camera, bcVec3 normal);

#endif
