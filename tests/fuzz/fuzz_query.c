/* fuzz_query.c - libFuzzer target: bcMesh_Create and bcMesh_Cast on a few
 * triangles and trajectories decoded from the fuzzer's bytes.
 *
 * Layout of the bytes (past the end every byte reads 0):
 *   byte 0   bits 0-2: triangles - 1 (1..8); bits 3-5: vertices - 3 (3..10);
 *            bit 6: extreme mode (below), when BC_FUZZ_EXTREME=1 is set
 *   byte 1   casts: 1 + byte % BC_QUERY_MAX_CASTS
 *   then     the vertex coordinates, the triangles' vertex indices (any index
 *            modulo the vertex count, so shared edges, repeated corners and
 *            degenerate triangles are common), then per cast a kind byte and
 *            its values.
 * Each value starts with a kind byte: zero, a small multiple of 1/4, a copy
 * of the previous value (degenerate and axis-aligned geometry), the previous
 * value nudged by a few ulps to 2^-52 relative (slivers, grazing paths), a
 * decimal m * 10^e, any 64 bits, a power of two, a small fixed-point number.
 *
 * Checked mode (the default): every value is 0 or has a magnitude in
 * [BC_QUERY_MIN_MAGNITUDE, BC_QUERY_MAX_MAGNITUDE]; every property below is
 * checked. Extreme mode, only with BC_FUZZ_EXTREME=1 in the environment (the
 * library is not yet robust there: overflow and underflow in products of
 * coordinates; tests/fuzz/regressions/fuzz_query/extreme/ keeps what was
 * found): any finite value; every property but the distances is checked
 * (BC_FUZZ_EXTREME_DISTANCES=1 checks those too).
 *
 * Properties, for each cast and each of several option sets:
 *  - the BVH and the brute-force path give identical outputs, bit for bit,
 *    and bcMesh_CastTies gives the same output as bcMesh_Cast;
 *  - an input bcIsValidCastInput refuses answers bc_castInvalid, any other
 *    answers miss, hit or initial overlap; no NaN or infinity anywhere;
 *    alpha in [0, 1]; a miss has alpha 1 and triangle -1; an overlap alpha 0;
 *  - a contact names a non-degenerate triangle, its face, and vertices that
 *    are the triangle's face (3), one of its edges (2) or corners (1); the
 *    contact normal is a unit vector, the triangle normal the mesh's;
 *  - center = p0 + alpha (p1 - p0); the contact point lies on the triangle;
 *    on a hit the centre is r from the triangle and from the point; on an
 *    initial overlap p0 is within r; the normal points from the point to
 *    the centre when they are apart;
 *  - no earlier contact: at sampled alphas before the answer (all of [0, 1]
 *    for a miss) the ball is at least r from every counted triangle;
 *  - the mesh's alpha is the least alpha of its tied contacts
 *    (bcMesh_CastTies), whichever contact the tie rule names; it is the
 *    least of the triangles' own bcCastTriangle alphas (each the earliest
 *    of its tied features); a lone earliest triangle is the one named.
 * Distances use an independent point-triangle distance (fuzz.h) and a
 * tolerance of BC_QUERY_DISTANCE_TOLERANCE times the scene's size. */
#include <float.h>

#include "fuzz.h"
#include "sweep.h"

#define BC_QUERY_MAX_TRIANGLES 8
#define BC_QUERY_MAX_VERTICES 10
#define BC_QUERY_MAX_CASTS 6

/* The documented range of the checked mode: generated magnitudes are 0 or in
 * [1e-6, 1e6], twelve decades, as wide as the property below holds for with
 * room to spare; outside it products of four coordinates (edge cylinders)
 * leave the double range long before a scene of 1e77 does. */
#define BC_QUERY_MIN_MAGNITUDE 1e-6
#define BC_QUERY_MAX_MAGNITUDE 1e6

/* Contact distances must equal r to within this times the scene's size (the
 * largest coordinate magnitude plus r). Roots of the contact quadratics lose
 * at most about half the digits in grazing cases, and the scene's size
 * bounds every absolute rounding error. Build with
 * -DBC_QUERY_DISTANCE_TOLERANCE=1e-9 (the unit tests' bound) to explore. */
#ifndef BC_QUERY_DISTANCE_TOLERANCE
#define BC_QUERY_DISTANCE_TOLERANCE 1e-6
#endif

/* A unit normal's length may differ from 1 by this: normalising costs a few
 * ulps, 1e-9 is a wide margin that still catches any unnormalised vector. */
#define BC_QUERY_UNIT_TOLERANCE 1e-9

/* Alphas sampled for the "no earlier contact" property: k / (BC_QUERY_SAMPLES - 1). */
#define BC_QUERY_SAMPLES 17

/* Tied contacts asked of bcMesh_CastTies. */
#define BC_QUERY_TIE_CAPACITY 64

typedef struct bcQueryDecoder {
	bcFuzzBytes bytes;
	bool extreme;
	double previous;
} bcQueryDecoder;

/* Keep a value inside the mode's range: non-finite values become 0 (NaN) or
 * the largest finite value of their sign; in checked mode magnitudes are
 * clamped to [BC_QUERY_MIN_MAGNITUDE, BC_QUERY_MAX_MAGNITUDE]. */
static double clampValue(const bcQueryDecoder* decoder, double x)
{
	if (isnan(x)) {
		return 0.0;
	}
	double limit = decoder->extreme ? DBL_MAX : BC_QUERY_MAX_MAGNITUDE;
	if (fabs(x) > limit) {
		return copysign(limit, x);
	}
	if (!decoder->extreme && x != 0.0 && fabs(x) < BC_QUERY_MIN_MAGNITUDE) {
		return copysign(BC_QUERY_MIN_MAGNITUDE, x);
	}
	return x;
}

static double nextValue(bcQueryDecoder* decoder)
{
	bcFuzzBytes* bytes = &decoder->bytes;
	uint8_t kind = bcFuzzBytes_Byte(bytes);
	double x = 0.0;
	switch (kind % 8) {
	case 0:
		x = 0.0;
		break;
	case 1:
		x = (int8_t)bcFuzzBytes_Byte(bytes) / 4.0;
		break;
	case 2:
		x = decoder->previous;
		break;
	case 3: {
		uint8_t b = bcFuzzBytes_Byte(bytes);
		double step = ldexp(1.0, -(1 + (b & 63) % 52));
		double base = decoder->previous != 0.0 ? decoder->previous : 1.0;
		x = base * (b & 128 ? 1.0 - step : 1.0 + step);
		if (b & 64) {
			x = nextafter(x, b & 128 ? -HUGE_VAL : HUGE_VAL);
		}
		break;
	}
	case 4: {
		uint8_t hi = bcFuzzBytes_Byte(bytes);
		uint8_t lo = bcFuzzBytes_Byte(bytes);
		uint8_t e = bcFuzzBytes_Byte(bytes);
		int exponent = decoder->extreme ? e * 616 / 255 - 308 : e % 13 - 6;
		x = (double)(hi << 8 | lo) / 1000.0 * pow(10.0, exponent);
		x = kind & 8 ? -x : x;
		break;
	}
	case 5: {
		uint64_t bits = bcFuzzBytes_U64(bytes);
		memcpy(&x, &bits, sizeof x);
		break;
	}
	case 6: {
		uint8_t e = bcFuzzBytes_Byte(bytes);
		/* extreme: 2^-1074 (the least subnormal) .. 2^1023 */
		int exponent = decoder->extreme ? e * 2097 / 255 - 1074 : e % 41 - 20;
		x = ldexp(kind & 8 ? -1.0 : 1.0, exponent);
		break;
	}
	default: {
		int whole = (int8_t)bcFuzzBytes_Byte(bytes);
		x = whole + bcFuzzBytes_Byte(bytes) / 256.0;
		break;
	}
	}
	x = clampValue(decoder, x);
	decoder->previous = x;
	return x;
}

static bcVec3 nextVec3(bcQueryDecoder* decoder)
{
	bcVec3 v;
	v.x = nextValue(decoder);
	v.y = nextValue(decoder);
	v.z = nextValue(decoder);
	return v;
}

/* The scene: vertices, triangles and the mesh built from them. */
typedef struct bcQueryScene {
	double vertices[3 * BC_QUERY_MAX_VERTICES];
	int32_t vertexCount;
	int32_t triangles[3 * BC_QUERY_MAX_TRIANGLES];
	int32_t triangleCount;
	bcMesh* mesh;
	double size; /* the largest coordinate magnitude */
} bcQueryScene;

static bcVec3 sceneVertex(const bcQueryScene* scene, int32_t i)
{
	bcVec3 v = { scene->vertices[3 * i], scene->vertices[3 * i + 1], scene->vertices[3 * i + 2] };
	return v;
}

static void triangleCorners(const bcQueryScene* scene, int32_t t, bcVec3 corners[3])
{
	for (int k = 0; k < 3; ++k) {
		corners[k] = sceneVertex(scene, scene->triangles[3 * t + k]);
	}
}

static double maxMagnitude(double size, bcVec3 v)
{
	size = fabs(v.x) > size ? fabs(v.x) : size;
	size = fabs(v.y) > size ? fabs(v.y) : size;
	return fabs(v.z) > size ? fabs(v.z) : size;
}

/* Decode one cast: a kind byte, then its values. */
static bcCastInput nextCast(bcQueryDecoder* decoder, const bcQueryScene* scene)
{
	bcCastInput in;
	uint8_t kind = bcFuzzBytes_Byte(&decoder->bytes);
	in.p0 = nextVec3(decoder);
	in.radius = fabs(nextValue(decoder));
	if (kind % 4 == 0) {
		in.p1 = nextVec3(decoder);
		return in;
	}
	if (kind % 4 == 3) {
		in.p1 = in.p0; /* a ball at rest */
		return in;
	}
	/* Aim at a point of a triangle (weights w / 255: 0 and 1 reach its
	 * corners and edges exactly). */
	int32_t t = (int32_t)(bcFuzzBytes_Byte(&decoder->bytes) % (uint8_t)scene->triangleCount);
	bcVec3 c[3];
	triangleCorners(scene, t, c);
	double u = bcFuzzBytes_Byte(&decoder->bytes) / 255.0;
	double v = (1.0 - u) * (bcFuzzBytes_Byte(&decoder->bytes) / 255.0);
	double w = 1.0 - u - v;
	bcVec3 target = { w * c[0].x + u * c[1].x + v * c[2].x, w * c[0].y + u * c[1].y + v * c[2].y,
					  w * c[0].z + u * c[1].z + v * c[2].z };
	if (kind % 4 == 1) {
		/* from p0 through the target, twice as far */
		in.p1.x = in.p0.x + 2.0 * (target.x - in.p0.x);
		in.p1.y = in.p0.y + 2.0 * (target.y - in.p0.y);
		in.p1.z = in.p0.z + 2.0 * (target.z - in.p0.z);
	} else {
		/* along the triangle's normal through the target, both ways */
		bcTriangle tri = bcMesh_GetTriangle(scene->mesh, t);
		double s = nextValue(decoder);
		in.p0.x = target.x + s * tri.normal.x;
		in.p0.y = target.y + s * tri.normal.y;
		in.p0.z = target.z + s * tri.normal.z;
		in.p1.x = target.x - s * tri.normal.x;
		in.p1.y = target.y - s * tri.normal.y;
		in.p1.z = target.z - s * tri.normal.z;
	}
	return in;
}

static void printCast(const char* label, bcCastInput in, const bcCastOptions* options)
{
	fprintf(stderr,
			"%s: p0 (%.17g, %.17g, %.17g) p1 (%.17g, %.17g, %.17g) r %.17g two_sided %d approach %d overlap %d\n",
			label, in.p0.x, in.p0.y, in.p0.z, in.p1.x, in.p1.y, in.p1.z, in.radius, options->twoSided,
			(int)options->approach, (int)options->overlap);
}

static void printScene(const bcQueryScene* scene)
{
	for (int32_t i = 0; i < scene->vertexCount; ++i) {
		bcVec3 v = sceneVertex(scene, i);
		fprintf(stderr, "v %.17g %.17g %.17g\n", v.x, v.y, v.z);
	}
	for (int32_t t = 0; t < scene->triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(scene->mesh, t);
		fprintf(stderr, "f %ld %ld %ld   # triangle %ld%s\n", (long)scene->triangles[3 * t] + 1,
				(long)scene->triangles[3 * t + 1] + 1, (long)scene->triangles[3 * t + 2] + 1, (long)t,
				tri.degenerate ? " degenerate" : "");
	}
}

/* Does the triangle count for this motion under these options? The
 * front-face rule on the exact sign of ((b - a) x (c - a)) . (p1 - p0), as
 * the library decides it: a sign read off the rounded normal counts
 * triangles whose exact sign is +1e-24 (a fuzzer's input did). */
static bool isCounted(const bcCastOptions* options, const bcVec3 c[3], bcCastInput in)
{
	if (options->twoSided) {
		return true;
	}
	int sign = bcExactCrossDotSign(c[0], c[1], c[2], in.p0, in.p1);
	return options->approach == bc_approachLess ? sign < 0 : sign <= 0;
}

static bcVec3 centerAt(bcCastInput in, double alpha)
{
	bcVec3 d = bcFuzzSub(in.p1, in.p0);
	bcVec3 c = { in.p0.x + alpha * d.x, in.p0.y + alpha * d.y, in.p0.z + alpha * d.z };
	return c;
}

/* A failed property: the scene, the cast and the output, then abort. */
#define BC_QUERY_CHECK(condition, ...)                                                                                 \
	do {                                                                                                               \
		if (!(condition)) {                                                                                            \
			printScene(scene);                                                                                         \
			printCast("cast", in, options);                                                                            \
			bcFuzzPrintOutput("output", out);                                                                          \
			BC_FUZZ_CHECK(condition, __VA_ARGS__);                                                                     \
		}                                                                                                              \
	} while (0)

/* The properties of one answer that hold in every mode. */
static void checkShape(const bcQueryScene* scene, bcCastInput in, const bcCastOptions* options,
					   const bcCastOutput* out)
{
	if (!bcIsValidCastInput(in)) {
		BC_QUERY_CHECK(out->state == bc_castInvalid, "an invalid input answered state %d", (int)out->state);
		return;
	}
	BC_QUERY_CHECK(out->state == bc_castMiss || out->state == bc_castHit || out->state == bc_castInitialOverlap,
				   "state %d", (int)out->state);
	BC_QUERY_CHECK(bcFuzzIsFiniteOutput(out), "a non-finite number in the output");
	BC_QUERY_CHECK(out->alpha >= 0.0 && out->alpha <= 1.0, "alpha %.17g", out->alpha);
	if (out->state == bc_castMiss) {
		BC_QUERY_CHECK(out->alpha == 1.0 && out->triangle == -1 && out->face == -1 && out->feature == bc_featureNone,
					   "a miss with alpha %.17g triangle %ld", out->alpha, (long)out->triangle);
		return;
	}
	if (out->state == bc_castInitialOverlap) {
		BC_QUERY_CHECK(out->alpha == 0.0, "an initial overlap at alpha %.17g", out->alpha);
	}
	BC_QUERY_CHECK(out->triangle >= 0 && out->triangle < scene->triangleCount, "triangle %ld", (long)out->triangle);
	bcTriangle tri = bcMesh_GetTriangle(scene->mesh, out->triangle);
	BC_QUERY_CHECK(!tri.degenerate, "a contact with degenerate triangle %ld", (long)out->triangle);
	BC_QUERY_CHECK(out->face == tri.face, "face %ld, the triangle's is %ld", (long)out->face, (long)tri.face);
	const int32_t* v = scene->triangles + 3 * out->triangle;
	bool shape = false;
	if (out->feature == bc_featureFace) {
		shape = out->vertexCount == 3 && out->vertices[0] == v[0] && out->vertices[1] == v[1] &&
				out->vertices[2] == v[2];
	} else if (out->feature == bc_featureEdge) {
		for (int k = 0; k < 3; ++k) {
			shape = shape || (out->vertexCount == 2 && out->vertices[0] == v[k] && out->vertices[1] == v[(k + 1) % 3]);
		}
	} else if (out->feature == bc_featureVertex) {
		shape = out->vertexCount == 1 && (out->vertices[0] == v[0] || out->vertices[0] == v[1] ||
										  out->vertices[0] == v[2]);
	}
	BC_QUERY_CHECK(shape, "feature %s with %d vertices does not belong to triangle %ld", bcFeatureName(out->feature),
				   out->vertexCount, (long)out->triangle);
	double length = sqrt(bcFuzzDot(out->normal, out->normal));
	BC_QUERY_CHECK(fabs(length - 1.0) < BC_QUERY_UNIT_TOLERANCE, "|normal| = %.17g", length);
	BC_QUERY_CHECK(bcFuzzSameVec3(out->triangleNormal, tri.normal), "triangle_normal is not the mesh's normal");
	BC_QUERY_CHECK(out->tieCount >= 1, "tieCount %d on a contact", out->tieCount);
}

/* The geometric properties: distances within tolerance of the scene size. */
static void checkDistances(const bcQueryScene* scene, bcCastInput in, const bcCastOptions* options,
						   const bcCastOutput* out)
{
	double size = maxMagnitude(maxMagnitude(scene->size, in.p0), in.p1) + in.radius;
	double tolerance = BC_QUERY_DISTANCE_TOLERANCE * size;
	double r = in.radius;

	if (out->state != bc_castMiss) {
		bcVec3 c[3];
		triangleCorners(scene, out->triangle, c);
		bcVec3 expected = centerAt(in, out->alpha);
		bcVec3 offset = bcFuzzSub(out->center, expected);
		BC_QUERY_CHECK(sqrt(bcFuzzDot(offset, offset)) <= tolerance, "center is %.17g from p0 + alpha d (tolerance %.3g)",
					   sqrt(bcFuzzDot(offset, offset)), tolerance);
		double pointDistance = bcFuzzTriangleDistance(out->point, c[0], c[1], c[2]);
		BC_QUERY_CHECK(pointDistance <= tolerance, "the contact point is %.17g off the triangle (tolerance %.3g)",
					   pointDistance, tolerance);
		bcVec3 gap = bcFuzzSub(out->center, out->point);
		double gapLength = sqrt(bcFuzzDot(gap, gap));
		if (out->state == bc_castHit) {
			double distance = bcFuzzTriangleDistance(out->center, c[0], c[1], c[2]);
			BC_QUERY_CHECK(fabs(distance - r) <= tolerance,
						   "hit: the centre is %.17g from the triangle, r = %.17g, off by %.3g (tolerance %.3g)",
						   distance, r, fabs(distance - r), tolerance);
			BC_QUERY_CHECK(fabs(gapLength - r) <= tolerance, "hit: |center - point| = %.17g, r = %.17g (tolerance %.3g)",
						   gapLength, r, tolerance);
		} else {
			double distance = bcFuzzTriangleDistance(in.p0, c[0], c[1], c[2]);
			BC_QUERY_CHECK(distance <= r + tolerance, "overlap: p0 is %.17g from the triangle, r = %.17g", distance, r);
		}
		if (gapLength > tolerance) {
			/* normal * |gap| against gap: an error of tolerance in the point
			 * turns the direction by at most tolerance / |gap|. */
			bcVec3 scaled = { out->normal.x * gapLength, out->normal.y * gapLength, out->normal.z * gapLength };
			bcVec3 off = bcFuzzSub(scaled, gap);
			BC_QUERY_CHECK(sqrt(bcFuzzDot(off, off)) <= 2.0 * tolerance,
						   "the normal does not point from the point to the centre (off by %.3g)",
						   sqrt(bcFuzzDot(off, off)));
		}
	}

	/* No earlier contact with any counted triangle. */
	for (int32_t t = 0; t < scene->triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(scene->mesh, t);
		bcVec3 c[3];
		triangleCorners(scene, t, c);
		if (tri.degenerate || !isCounted(options, c, in)) {
			continue;
		}
		double start = bcFuzzTriangleDistance(in.p0, c[0], c[1], c[2]);
		if (options->overlap == bc_overlapIgnore && start < r + tolerance) {
			continue; /* skipped by the library when overlapped, or too close to tell */
		}
		for (int k = 0; k < BC_QUERY_SAMPLES; ++k) {
			double alpha = (double)k / (BC_QUERY_SAMPLES - 1);
			if (out->state != bc_castMiss && !(alpha < out->alpha)) {
				break;
			}
			double distance = bcFuzzTriangleDistance(centerAt(in, alpha), c[0], c[1], c[2]);
			BC_QUERY_CHECK(distance >= r - tolerance,
						   "at alpha %.17g, before the answer, the centre is %.17g from counted triangle %ld, r = "
						   "%.17g (tolerance %.3g)",
						   alpha, distance, (long)t, r, tolerance);
		}
	}
}

/* The mesh's answer against each triangle's own (bcCastTriangle). */
static void checkAgainstTriangles(const bcQueryScene* scene, bcCastInput in, const bcCastOptions* options,
								  const bcCastOutput* out)
{
	double least = HUGE_VAL;
	bool overlap = false;
	for (int32_t t = 0; t < scene->triangleCount; ++t) {
		bcVec3 c[3];
		triangleCorners(scene, t, c);
		bcCastOutput own = bcCastTriangle(c[0], c[1], c[2], in, options);
		if (own.state == bc_castHit || own.state == bc_castInitialOverlap) {
			least = own.alpha < least ? own.alpha : least;
			overlap = overlap || own.state == bc_castInitialOverlap;
		}
	}
	if (least == HUGE_VAL) {
		BC_QUERY_CHECK(out->state == bc_castMiss, "no triangle is hit on its own, the mesh answered a contact");
		return;
	}
	BC_QUERY_CHECK(out->state != bc_castMiss, "a triangle is hit on its own at alpha %.17g, the mesh missed", least);
	BC_QUERY_CHECK(overlap == (out->state == bc_castInitialOverlap), "initial overlap disagrees with the triangles'");
	/* The mesh answers the earliest contact's alpha, and so does each
	 * triangle on its own (the earliest of its tied features): the mesh's
	 * is the least of the triangles', exactly. (The tie rule as the man page
	 * states it and cast.c computes it: a contact is tied when alpha <=
	 * alpha_min + tolerance, in double, so 0.875 ties with
	 * 0.87499999989999999: the sum rounds to 0.875, though the exact
	 * difference is 1.00000000111e-10; regression tie-window-rounded-up.bin.) */
	BC_QUERY_CHECK(out->alpha == least, "mesh alpha %.17g, the least triangle alpha %.17g", out->alpha, least);
	int32_t lone = -1;
	int near = 0;
	for (int32_t t = 0; t < scene->triangleCount; ++t) {
		bcVec3 c[3];
		triangleCorners(scene, t, c);
		bcCastOutput own = bcCastTriangle(c[0], c[1], c[2], in, options);
		if ((own.state == bc_castHit || own.state == bc_castInitialOverlap) &&
			own.alpha <= least + 2.0 * BC_ALPHA_TIE_TOLERANCE) {
			near += 1;
			lone = t;
		}
	}
	if (near == 1) {
		BC_QUERY_CHECK(out->triangle == lone, "triangle %ld alone is earliest, the mesh named %ld", (long)lone,
					   (long)out->triangle);
	}
}

static void checkCast(const bcQueryScene* scene, bcCastInput in, const bcCastOptions* options, bool distances)
{
	bcCastOptions brute = *options;
	brute.bruteForce = true;
	bcCastOutput fast = bcMesh_Cast(scene->mesh, in, options);
	bcCastOutput slow = bcMesh_Cast(scene->mesh, in, &brute);
	const bcCastOutput* out = &fast;
	if (!bcFuzzSameOutput(&fast, &slow)) {
		bcFuzzPrintOutput("brute force", &slow);
	}
	BC_QUERY_CHECK(bcFuzzSameOutput(&fast, &slow), "the BVH and the brute-force path disagree");
	bcCastOutput tied;
	bcContact ties[BC_QUERY_TIE_CAPACITY];
	int tieCount = bcMesh_CastTies(scene->mesh, in, options, &tied, ties, BC_QUERY_TIE_CAPACITY);
	if (!bcFuzzSameOutput(&fast, &tied)) {
		bcFuzzPrintOutput("bcMesh_CastTies", &tied);
	}
	BC_QUERY_CHECK(bcFuzzSameOutput(&fast, &tied), "bcMesh_CastTies disagrees with bcMesh_Cast");
	if (fast.state == bc_castHit || fast.state == bc_castInitialOverlap) {
		BC_QUERY_CHECK(tieCount == fast.tieCount, "bcMesh_CastTies counted %d ties, tieCount is %d", tieCount,
					   fast.tieCount);
		int listed = tieCount < BC_QUERY_TIE_CAPACITY ? tieCount : BC_QUERY_TIE_CAPACITY;
		for (int i = 0; i < listed; ++i) {
			BC_QUERY_CHECK(i == 0 || ties[i].triangle >= ties[i - 1].triangle, "ties not ordered by triangle");
			BC_QUERY_CHECK(isfinite(ties[i].alpha) && ties[i].alpha >= 0.0 && ties[i].alpha <= 1.0 &&
							   bcFuzzIsFiniteVec3(ties[i].normal),
						   "tie %d: alpha %.17g", i, ties[i].alpha);
		}
		BC_QUERY_CHECK(listed == 0 || ties[0].triangle == fast.triangle, "the first tie is triangle %ld, the answer %ld",
					   (long)ties[0].triangle, (long)fast.triangle);
		/* the printed alpha is the earliest tied contact's (man page, Ties) */
		if (tieCount <= BC_QUERY_TIE_CAPACITY) {
			double earliest = 1.0;
			for (int i = 0; i < listed; ++i) {
				earliest = ties[i].alpha < earliest ? ties[i].alpha : earliest;
			}
			BC_QUERY_CHECK(fast.alpha == earliest, "alpha %.17g, the earliest tied contact's %.17g", fast.alpha,
						   earliest);
		}
	} else {
		BC_QUERY_CHECK(tieCount == 0, "%d ties on a miss", tieCount);
	}
	checkShape(scene, in, options, out);
	if (out->state == bc_castInvalid) {
		return;
	}
	checkAgainstTriangles(scene, in, options, out);
	if (distances) {
		checkDistances(scene, in, options, out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static int extremeAllowed = -1;
	static int extremeDistances = -1;
	if (extremeAllowed < 0) {
		const char* flag = getenv("BC_FUZZ_EXTREME");
		extremeAllowed = flag != NULL && strcmp(flag, "1") == 0;
		flag = getenv("BC_FUZZ_EXTREME_DISTANCES");
		extremeDistances = flag != NULL && strcmp(flag, "1") == 0;
	}
	bcQueryDecoder decoder = { { data, size, 0 }, false, 0.0 };
	uint8_t header = bcFuzzBytes_Byte(&decoder.bytes);
	uint8_t castByte = bcFuzzBytes_Byte(&decoder.bytes);
	decoder.extreme = (header & 64) != 0 && extremeAllowed;

	bcQueryScene scene;
	memset(&scene, 0, sizeof scene);
	scene.triangleCount = 1 + (header & 7);
	scene.vertexCount = 3 + (header >> 3 & 7);
	for (int32_t i = 0; i < scene.vertexCount; ++i) {
		bcVec3 v = nextVec3(&decoder);
		scene.vertices[3 * i] = v.x;
		scene.vertices[3 * i + 1] = v.y;
		scene.vertices[3 * i + 2] = v.z;
		scene.size = maxMagnitude(scene.size, v);
	}
	for (int32_t k = 0; k < 3 * scene.triangleCount; ++k) {
		scene.triangles[k] = bcFuzzBytes_Byte(&decoder.bytes) % (uint8_t)scene.vertexCount;
	}
	bcMeshDef def = { scene.vertices, scene.vertexCount, scene.triangles, scene.triangleCount, NULL, 0 };
	bcError error;
	memset(&error, 0, sizeof error);
	scene.mesh = bcMesh_Create(&def, &error);
	BC_FUZZ_CHECK(scene.mesh != NULL, "bcMesh_Create refused finite vertices and valid indices: code %d: %s",
				  (int)error.code, error.message);

	bcMeshInfo info = bcMesh_GetInfo(scene.mesh);
	BC_FUZZ_CHECK(info.vertexCount == scene.vertexCount && info.triangleCount == scene.triangleCount &&
					  info.faceCount == scene.triangleCount,
				  "counts %ld %ld %ld", (long)info.vertexCount, (long)info.triangleCount, (long)info.faceCount);
	int32_t degenerate = 0;
	for (int32_t t = 0; t < scene.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(scene.mesh, t);
		degenerate += tri.degenerate;
		BC_FUZZ_CHECK(tri.face == t, "triangle %ld has face %ld without face ids", (long)t, (long)tri.face);
		if (!tri.degenerate) {
			double length = sqrt(bcFuzzDot(tri.normal, tri.normal));
			BC_FUZZ_CHECK(fabs(length - 1.0) < BC_QUERY_UNIT_TOLERANCE, "triangle %ld: |normal| = %.17g", (long)t,
						  length);
		} else {
			BC_FUZZ_CHECK(tri.normal.x == 0.0 && tri.normal.y == 0.0 && tri.normal.z == 0.0,
						  "degenerate triangle %ld with a non-zero normal", (long)t);
		}
	}
	BC_FUZZ_CHECK(degenerate == info.degenerateCount, "%ld degenerate triangles, info says %ld", (long)degenerate,
				  (long)info.degenerateCount);

	static const bcCastOptions optionSets[] = {
		{ false, bc_approachLessEqual, bc_overlapReport, false },
		{ true, bc_approachLessEqual, bc_overlapReport, false },
		{ false, bc_approachLess, bc_overlapReport, false },
		{ false, bc_approachLessEqual, bc_overlapIgnore, false },
		{ true, bc_approachLess, bc_overlapIgnore, false },
	};
	bool distances = !decoder.extreme || extremeDistances;
	int casts = 1 + castByte % BC_QUERY_MAX_CASTS;
	for (int i = 0; i < casts; ++i) {
		bcCastInput in = nextCast(&decoder, &scene);
		for (size_t k = 0; k < sizeof optionSets / sizeof optionSets[0]; ++k) {
			checkCast(&scene, in, optionSets + k, distances);
		}
		/* NULL options are the defaults */
		bcCastOutput byDefault = bcMesh_Cast(scene.mesh, in, NULL);
		bcCastOutput explicitDefault = bcMesh_Cast(scene.mesh, in, optionSets);
		BC_FUZZ_CHECK(bcFuzzSameOutput(&byDefault, &explicitDefault), "NULL options differ from the defaults");
	}
	bcMesh_Destroy(scene.mesh);
	return 0;
}
