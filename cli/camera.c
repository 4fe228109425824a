/* camera.c - the orthographic camera of `ballcast render` (camera.h):
 * view angles and eye directions, the up axis and its guess, framing and
 * projection.
 *
 * Orthographic, not perspective: a ball then projects to a true circle of
 * radius scale * r, the depth order of the painter's algorithm is the same
 * for every pixel, and nothing can lie behind the eye, so nothing needs
 * clipping against it. */
#include "camera.h"

#include <math.h>

/* cos and sin of an angle in degrees, exact at multiples of 90. */
static void cosSinDegrees(double degrees, double* c, double* s)
{
	double reduced = fmod(degrees, 360.0);
	if (reduced < 0.0) {
		reduced += 360.0;
	}
	if (reduced == 0.0 || reduced == 90.0 || reduced == 180.0 || reduced == 270.0) {
		int quarter = (int)(reduced / 90.0);
		static const double cosines[4] = { 1.0, 0.0, -1.0, 0.0 };
		static const double sines[4] = { 0.0, 1.0, 0.0, -1.0 };
		*c = cosines[quarter];
		*s = sines[quarter];
		return;
	}
	const double radians = reduced * (3.14159265358979323846 / 180.0);
	*c = cos(radians);
	*s = sin(radians);
}

static cliCamera unframed(bcVec3 right, bcVec3 up, bcVec3 toEye)
{
	cliCamera camera;
	camera.right = right;
	camera.up = up;
	camera.toEye = toEye;
	camera.target = bcMakeVec3(0.0, 0.0, 0.0);
	camera.scale = 1.0;
	camera.originX = 0.0;
	camera.originY = 0.0;
	return camera;
}

cliCamera cliCamera_FromAngles(double azimuthDegrees, double elevationDegrees)
{
	double el = elevationDegrees > 90.0 ? 90.0 : (elevationDegrees < -90.0 ? -90.0 : elevationDegrees);
	double ca, sa, ce, se;
	cosSinDegrees(azimuthDegrees, &ca, &sa);
	cosSinDegrees(el, &ce, &se);
	/* Sums with + 0.0 turn -0 into 0, so the axes print and compare plainly. */
	bcVec3 toEye = bcPositiveZeros(bcMakeVec3(ce * sa, 0.0 - ce * ca, se));
	bcVec3 right = bcPositiveZeros(bcMakeVec3(ca, sa, 0.0));
	/* up = toEye x right = (-se sa, se ca, ce), written out so that it is
	 * exact whenever the sines and cosines are. */
	bcVec3 up = bcPositiveZeros(bcMakeVec3(0.0 - se * sa, se * ca, ce));
	return unframed(right, up, toEye);
}

cliCamera cliCamera_FromDirection(bcVec3 toEye)
{
	bcVec3 eye = bcNormalize(toEye);
	bcVec3 right = bcNormalize(bcCross(bcMakeVec3(0.0, 0.0, 1.0), eye));
	if (bcLengthSquared(right) == 0.0) {
		right = bcMakeVec3(1.0, 0.0, 0.0);
	}
	bcVec3 up = bcNormalize(bcCross(eye, right));
	return unframed(bcPositiveZeros(right), bcPositiveZeros(up), bcPositiveZeros(eye));
}

static bcVec3 upToMesh(bcVec3 v, cliUpAxis up)
{
	switch (up) {
	case cli_upY:
		return bcPositiveZeros(bcMakeVec3(v.x, v.z, 0.0 - v.y));
	case cli_upX:
		return bcMakeVec3(v.z, v.x, v.y);
	default:
		return v;
	}
}

bcVec3 cliUpFrame(bcVec3 v, cliUpAxis up)
{
	switch (up) {
	case cli_upY:
		return bcPositiveZeros(bcMakeVec3(v.x, 0.0 - v.z, v.y));
	case cli_upX:
		return bcMakeVec3(v.y, v.z, v.x);
	default:
		return v;
	}
}

void cliCamera_TurnUp(cliCamera* camera, cliUpAxis up)
{
	camera->right = upToMesh(camera->right, up);
	camera->up = upToMesh(camera->up, up);
	camera->toEye = upToMesh(camera->toEye, up);
}

cliUpAxis cliGuessUp(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	const double lower[3] = { info.lowerBound.x, info.lowerBound.y, info.lowerBound.z };
	const double upper[3] = { info.upperBound.x, info.upperBound.y, info.upperBound.z };
	const double flat = cos(CLI_SVG_UP_FLAT_DEGREES * 3.14159265358979323846 / 180.0);
	double base[3] = { 0.0, 0.0, 0.0 };
	double total = 0.0;
	for (int32_t i = 0; i < info.triangleCount; ++i) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, i);
		if (tri.degenerate) {
			continue;
		}
		struct { bcVec3 a, b, c; } t = { bcMesh_GetVertex(mesh, tri.vertices[0]), bcMesh_GetVertex(mesh, tri.vertices[1]),
										 bcMesh_GetVertex(mesh, tri.vertices[2]) };
		bcVec3 n = bcCross(bcSub(t.b, t.a), bcSub(t.c, t.a));
		double area = 0.5 * bcLength(n);
		if (!(area > 0.0) || !isfinite(area)) {
			continue;
		}
		total += area;
		const double unit[3] = { 0.5 * n.x / area, 0.5 * n.y / area, 0.5 * n.z / area };
		const double centroid[3] = { (t.a.x + t.b.x + t.c.x) / 3.0, (t.a.y + t.b.y + t.c.y) / 3.0,
									 (t.a.z + t.b.z + t.c.z) / 3.0 };
		for (int k = 0; k < 3; ++k) {
			double slab = lower[k] + CLI_SVG_UP_SLAB * (upper[k] - lower[k]);
			if (fabs(unit[k]) > flat && centroid[k] <= slab) {
				base[k] += area;
			}
		}
	}
	/* z, unless x or y has more than CLI_SVG_UP_PREFER_Z times its base;
	 * between x and y, the larger base */
	int best = cli_upZ;
	for (int k = 0; k < 2; ++k) {
		if (base[k] > CLI_SVG_UP_PREFER_Z * base[2] && base[k] > base[1 - k]) {
			best = k;
		}
	}
	if (!(base[best] >= CLI_SVG_UP_CLEAR * total)) {
		return cli_upY; /* no base stands out: y, the usual up of scans */
	}
	return (cliUpAxis)best;
}

/* Half the extent of the box with half-sizes h along direction d. */
static double halfExtent(bcVec3 h, bcVec3 d)
{
	return fabs(d.x) * h.x + fabs(d.y) * h.y + fabs(d.z) * h.z;
}

void cliCamera_Frame(cliCamera* camera, bcVec3 lower, bcVec3 upper, cliViewport viewport)
{
	camera->target = bcScale(0.5, bcAdd(lower, upper));
	bcVec3 half = bcScale(0.5, bcSub(upper, lower));
	double halfWidth = halfExtent(half, camera->right);
	double halfHeight = halfExtent(half, camera->up);
	double availableX = 0.5 * (viewport.right - viewport.left);
	double availableY = 0.5 * (viewport.bottom - viewport.top);
	double scale = INFINITY;
	if (halfWidth > 0.0) {
		scale = availableX / halfWidth;
	}
	if (halfHeight > 0.0 && availableY / halfHeight < scale) {
		scale = availableY / halfHeight;
	}
	camera->scale = isfinite(scale) && scale > 0.0 ? scale : 1.0;
	camera->originX = 0.5 * (viewport.left + viewport.right);
	camera->originY = 0.5 * (viewport.top + viewport.bottom);
}

void cliCamera_FramePoints(cliCamera* camera, const bcVec3* points, int count, double pad, cliViewport viewport)
{
	double minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;
	for (int i = 0; i < count; ++i) {
		double x = bcDot(points[i], camera->right);
		double y = bcDot(points[i], camera->up);
		minX = fmin(minX, x - pad);
		maxX = fmax(maxX, x + pad);
		minY = fmin(minY, y - pad);
		maxY = fmax(maxY, y + pad);
	}
	double centreX = 0.5 * (minX + maxX);
	double centreY = 0.5 * (minY + maxY);
	/* right and up are orthonormal: this target projects to the centre */
	camera->target = bcAdd(bcScale(centreX, camera->right), bcScale(centreY, camera->up));
	double halfWidth = 0.5 * (maxX - minX);
	double halfHeight = 0.5 * (maxY - minY);
	double scale = INFINITY;
	if (halfWidth > 0.0) {
		scale = 0.5 * (viewport.right - viewport.left) / halfWidth;
	}
	if (halfHeight > 0.0 && 0.5 * (viewport.bottom - viewport.top) / halfHeight < scale) {
		scale = 0.5 * (viewport.bottom - viewport.top) / halfHeight;
	}
	camera->scale = isfinite(scale) && scale > 0.0 ? scale : 1.0;
	camera->originX = 0.5 * (viewport.left + viewport.right);
	camera->originY = 0.5 * (viewport.top + viewport.bottom);
}

cliScreenPoint cliCamera_Project(const cliCamera* camera, bcVec3 p)
{
	bcVec3 d = bcSub(p, camera->target);
	cliScreenPoint s;
	s.x = camera->originX + camera->scale * bcDot(d, camera->right);
	s.y = camera->originY - camera->scale * bcDot(d, camera->up);
	s.depth = bcDot(d, camera->toEye);
	return s;
}

cliFacing cliCamera_Facing(const cliCamera* camera, bcVec3 normal)
{
	return bcDot(normal, camera->toEye) > 0.0 ? cli_facingFront : cli_facingBack;
}
