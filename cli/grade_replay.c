/* grade_replay.c - the mistakes of the catalogue replayed (grade_replay.h):
 * a throw re-answered as a program with one mistake would answer it. The
 * mistakes that are a cast option are replayed by the library with that
 * option changed (back faces, the approach test, overlaps ignored, a
 * flipped mesh, the radius); those of the method by a small caster of
 * their own here, the textbook's (larger root, no vertex or edge tests). */
#include "grade_replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* Two contacts whose alpha differ by at most this are tied (the library's
 * BC_ALPHA_TIE_TOLERANCE): the lower triangle, then face, edge, vertex. */
#define CLI_VARIANT_TIE 1e-10

/* Relative slack of the swept box the textbook caster tests triangles in
 * (and absolute, for r = 0): rounding moves a contact by ulps, never by
 * this. */
#define CLI_VARIANT_SLACK 1e-9

void cliReplayer_Init(cliReplayer* rp, const bcMesh* mesh, const cliCastSettings* cast, cliThrowOfFcn* throwOf,
					  void* throwContext)
{
	memset(rp, 0, sizeof *rp);
	rp->mesh = mesh;
	rp->cast = cast;
	rp->throwOf = throwOf;
	rp->throwContext = throwContext;
}

void cliReplayer_Destroy(cliReplayer* rp)
{
	bcMesh_Destroy(rp->flipped);
	free(rp->ties);
	free(rp->boxes[0]);
	free(rp->boxes[1]);
	memset(rp, 0, sizeof *rp);
}

bool cliReplayer_ThrowOf(void* context, const cliResult* e, bcCastInput* input)
{
	const cliReplayer* rp = context;
	return rp->throwOf(rp->throwContext, e, input);
}

/* A contact found by the variant caster. */
typedef struct cliVariantContact {
	bool found;
	double alpha;
	int32_t triangle;
	bcFeature feature;
	int vertexCount;
	int32_t vertices[3];
	bcVec3 point;
	bcVec3 normal;
	bcVec3 normalSum; /* the tied triangles' normals added (each once), for --normal average */
	int32_t summed;   /* the last triangle added to normalSum */
} cliVariantContact;

/* Keep c when it comes first: the smaller alpha, ties to the lower
 * triangle, then face, edge, vertex; the tied triangles' normals (n: c's
 * triangle's) add up for the average normal. */
static void keepFirst(cliVariantContact* best, const cliVariantContact* c, bcVec3 n)
{
	if (!best->found || c->alpha < best->alpha - CLI_VARIANT_TIE) {
		*best = *c;
		best->normalSum = n;
		best->summed = c->triangle;
		return;
	}
	if (c->alpha > best->alpha + CLI_VARIANT_TIE) {
		return;
	}
	bcVec3 sum = best->normalSum;
	int32_t summed = best->summed;
	if (c->triangle != summed) {
		sum = bcAdd(sum, n);
		summed = c->triangle;
	}
	if (c->triangle < best->triangle || (c->triangle == best->triangle && c->feature < best->feature)) {
		*best = *c;
	}
	best->normalSum = sum;
	best->summed = summed;
}

/* The smaller (or, larger, the larger) root in [0, 1] of a t^2 + b t + c
 * = 0 for a centre entering from outside (c > 0): -1 when there is none. */
static double root(double a, double b, double c, bool larger)
{
	if (!(a > 0.0) || !(c > 0.0)) {
		return -1.0;
	}
	double disc = b * b - 4.0 * a * c;
	if (disc < 0.0) {
		return -1.0;
	}
	double t = (-b + (larger ? 1.0 : -1.0) * sqrt(disc)) / (2.0 * a);
	return t >= 0.0 && t <= 1.0 ? t : -1.0;
}

/* A cast by the textbook's method, with one mistake: every triangle, its
 * face (the plane pushed out by r, inside the triangle), its edges (the
 * cylinder's quadratic, the projection on the segment) and its vertices
 * (the sphere's quadratic), the front-face rule as the settings say. */
/* Every triangle of mesh with its corners and box, once: the textbook
 * caster tests each throw against all of them (owned by the caller; NULL
 * when out of memory). */
static cliReplayTriangle* boxTriangles(const bcMesh* mesh)
{
	int32_t count = bcMesh_GetInfo(mesh).triangleCount;
	cliReplayTriangle* list = malloc((size_t)(count > 0 ? count : 1) * sizeof *list);
	for (int32_t i = 0; list != NULL && i < count; ++i) {
		cliReplayTriangle* b = list + i;
		b->tri = bcMesh_GetTriangle(mesh, i);
		for (int k = 0; k < 3; ++k) {
			b->v[k] = bcMesh_GetVertex(mesh, b->tri.vertices[k]);
		}
		b->lower = bcMakeVec3(fmin(fmin(b->v[0].x, b->v[1].x), b->v[2].x), fmin(fmin(b->v[0].y, b->v[1].y), b->v[2].y),
							  fmin(fmin(b->v[0].z, b->v[1].z), b->v[2].z));
		b->upper = bcMakeVec3(fmax(fmax(b->v[0].x, b->v[1].x), b->v[2].x), fmax(fmax(b->v[0].y, b->v[1].y), b->v[2].y),
							  fmax(fmax(b->v[0].z, b->v[1].z), b->v[2].z));
	}
	return list;
}

static cliVariantContact variantCast(const cliReplayTriangle* triangles, int32_t count, const bcCastOptions* options,
									 bcCastInput in, cliMistake m)
{
	bool faces = true;
	bool edges = m != cli_mistakeFacesOnly && m != cli_mistakeNoEdges;
	bool vertices = m != cli_mistakeFacesOnly && m != cli_mistakeNoVertices;
	bool larger = m == cli_mistakeLargerRoot;
	cliVariantContact best;
	memset(&best, 0, sizeof best);
	bcVec3 d = bcSub(in.p1, in.p0);
	double r = in.radius;
	/* the box the ball sweeps for alpha in [0, 1], a little wider for
	 * rounding: every contact the tests below can find lies in it */
	double reach = r * (1.0 + CLI_VARIANT_SLACK) + CLI_VARIANT_SLACK;
	bcVec3 lower = { fmin(in.p0.x, in.p1.x) - reach, fmin(in.p0.y, in.p1.y) - reach, fmin(in.p0.z, in.p1.z) - reach };
	bcVec3 upper = { fmax(in.p0.x, in.p1.x) + reach, fmax(in.p0.y, in.p1.y) + reach, fmax(in.p0.z, in.p1.z) + reach };
	for (int32_t i = 0; i < count; ++i) {
		const cliReplayTriangle* b = triangles + i;
		if (b->tri.degenerate || b->upper.x < lower.x || b->lower.x > upper.x || b->upper.y < lower.y ||
			b->lower.y > upper.y || b->upper.z < lower.z || b->lower.z > upper.z) {
			continue; /* nothing to touch there */
		}
		bcTriangle tri = b->tri;
		const bcVec3* v = b->v;
		bcVec3 n = tri.normal;
		double dn = bcDot(n, d);
		bool counted = options->twoSided || (options->approach == bc_approachLess ? dn < 0.0 : dn <= 0.0);
		if (!counted) {
			continue;
		}
		cliVariantContact c;
		memset(&c, 0, sizeof c);
		c.found = true;
		c.triangle = i;
		double s0 = bcDot(n, bcSub(in.p0, v[0]));
		if (faces) {
			double side = s0 >= r ? 1.0 : s0 <= -r ? -1.0 : 0.0;
			/* crossing the plane pushed out by r; or touching it at alpha 0 */
			bool touching = s0 == side * r && side != 0.0;
			if (side != 0.0 && (touching || (side > 0.0 ? dn < 0.0 : options->twoSided && dn > 0.0))) {
				double t = touching ? 0.0 : (side * r - s0) / dn;
				bcVec3 centre = bcMulAdd(in.p0, t, d);
				bcVec3 q = bcMulAdd(centre, -side * r, n);
				/* inside: the same side of each edge */
				bool inside = t >= 0.0 && t <= 1.0;
				for (int k = 0; k < 3 && inside; ++k) {
					bcVec3 e = bcSub(v[(k + 1) % 3], v[k]);
					inside = bcDot(bcCross(e, bcSub(q, v[k])), n) >= 0.0;
				}
				if (inside) {
					c.alpha = t;
					c.feature = bc_featureFace;
					c.vertexCount = 3;
					memcpy(c.vertices, tri.vertices, sizeof c.vertices);
					c.point = q;
					c.normal = bcScale(side, n);
					keepFirst(&best, &c, n);
				}
			}
		}
		for (int k = 0; k < 3 && edges; ++k) {
			bcVec3 p = v[k];
			bcVec3 e = bcSub(v[(k + 1) % 3], p);
			bcVec3 mm = bcSub(in.p0, p);
			bcVec3 dxe = bcCross(d, e);
			bcVec3 mxe = bcCross(mm, e);
			double ee = bcDot(e, e);
			double t = root(bcDot(dxe, dxe), 2.0 * bcDot(mxe, dxe), bcDot(mxe, mxe) - r * r * ee, larger);
			if (t < 0.0) {
				continue;
			}
			bcVec3 centre = bcMulAdd(in.p0, t, d);
			double s = bcDot(bcSub(centre, p), e) / ee;
			if (s < 0.0 || s > 1.0) {
				continue;
			}
			c.alpha = t;
			c.feature = bc_featureEdge;
			c.vertexCount = 2;
			c.vertices[0] = tri.vertices[k];
			c.vertices[1] = tri.vertices[(k + 1) % 3];
			c.point = bcMulAdd(p, s, e);
			c.normal = bcNormalize(bcSub(centre, c.point));
			keepFirst(&best, &c, n);
		}
		for (int k = 0; k < 3 && vertices; ++k) {
			bcVec3 mm = bcSub(in.p0, v[k]);
			double t = root(bcDot(d, d), 2.0 * bcDot(mm, d), bcDot(mm, mm) - r * r, larger);
			if (t < 0.0) {
				continue;
			}
			c.alpha = t;
			c.feature = bc_featureVertex;
			c.vertexCount = 1;
			c.vertices[0] = tri.vertices[k];
			c.point = v[k];
			c.normal = bcNormalize(bcSub(bcMulAdd(in.p0, t, d), v[k]));
			keepFirst(&best, &c, n);
		}
	}
	return best;
}

/* The mesh with every triangle's winding reversed (front and back
 * swapped), or NULL. */
static bcMesh* flippedMesh(const bcMesh* mesh)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double* vertices = malloc((size_t)info.vertexCount * 3 * sizeof *vertices);
	int32_t* triangles = malloc((size_t)info.triangleCount * 3 * sizeof *triangles);
	int32_t* faces = malloc((size_t)info.triangleCount * sizeof *faces);
	bcMesh* flipped = NULL;
	if (vertices != NULL && triangles != NULL && faces != NULL) {
		int32_t faceCount = 0;
		for (int32_t i = 0; i < info.vertexCount; ++i) {
			bcVec3 v = bcMesh_GetVertex(mesh, i);
			vertices[3 * i] = v.x;
			vertices[3 * i + 1] = v.y;
			vertices[3 * i + 2] = v.z;
		}
		for (int32_t i = 0; i < info.triangleCount; ++i) {
			bcTriangle t = bcMesh_GetTriangle(mesh, i);
			triangles[3 * i] = t.vertices[0];
			triangles[3 * i + 1] = t.vertices[2];
			triangles[3 * i + 2] = t.vertices[1];
			faces[i] = t.face;
			faceCount = t.face + 1 > faceCount ? t.face + 1 : faceCount;
		}
		bcMeshDef def = { vertices, info.vertexCount, triangles, info.triangleCount, faces, faceCount };
		flipped = bcMesh_Create(&def, NULL);
	}
	free(vertices);
	free(triangles);
	free(faces);
	return flipped;
}

/* An answer of cliCastSettings_Answer as a result (no ties, no id). */
static void toResult(const bcCastOutput* out, cliResult* answer)
{
	memset(answer, 0, sizeof *answer);
	answer->fields = cli_resultHit | cli_resultAlpha;
	answer->hit = out->state == bc_castHit || out->state == bc_castInitialOverlap;
	answer->alpha = out->alpha;
	if (!answer->hit) {
		return;
	}
	answer->fields |= cli_resultInitialOverlap | cli_resultFeature | cli_resultTriangle | cli_resultFace |
					  cli_resultVertices | cli_resultPoint | cli_resultCenter | cli_resultNormal |
					  cli_resultTriangleNormal;
	answer->initialOverlap = out->state == bc_castInitialOverlap;
	answer->feature = out->feature;
	answer->triangle = out->triangle;
	answer->face = out->face;
	answer->vertexCount = out->vertexCount;
	memcpy(answer->vertices, out->vertices, sizeof answer->vertices);
	answer->point = out->point;
	answer->center = out->center;
	answer->normal = out->normal; /* the convention's: cliCastSettings_Answer made it so */
	answer->triangleNormal = out->triangleNormal;
}

/* The mistakes the textbook caster replays (one at a time). */
#define CLI_VARIANT_MISTAKES                                                                                           \
	((1UL << cli_mistakeLargerRoot) | (1UL << cli_mistakeNoVertices) | (1UL << cli_mistakeNoEdges) |                  \
	 (1UL << cli_mistakeFacesOnly))

/* How far past p1 hits-beyond-path looks: the path made
 * long enough to cross the whole mesh from wherever it starts. */
static double beyondFactor(const bcMesh* mesh, bcCastInput in)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	bcVec3 middle = bcScale(0.5, bcAdd(info.lowerBound, info.upperBound));
	double reach = bcDistance(info.lowerBound, info.upperBound) + bcDistance(in.p0, middle) + 2.0 * in.radius;
	double length = bcDistance(in.p0, in.p1);
	return length > 0.0 ? 1.0 + reach / length : 0.0;
}

/* The textbook caster's answer as a result. */
static void variantResult(const bcMesh* mesh, cliNormalMode mode, bcCastInput in, const cliVariantContact* c,
						  cliResult* answer)
{
	memset(answer, 0, sizeof *answer);
	answer->fields = cli_resultHit | cli_resultAlpha;
	answer->hit = c->found;
	answer->alpha = c->found ? c->alpha : 1.0;
	if (!c->found) {
		return;
	}
	bcTriangle t = bcMesh_GetTriangle(mesh, c->triangle);
	answer->fields |= cli_resultFeature | cli_resultTriangle | cli_resultFace | cli_resultVertices | cli_resultPoint |
					  cli_resultCenter | cli_resultNormal | cli_resultTriangleNormal;
	answer->feature = c->feature;
	answer->triangle = c->triangle;
	answer->face = t.face;
	answer->vertexCount = c->vertexCount;
	memcpy(answer->vertices, c->vertices, sizeof answer->vertices);
	answer->point = c->point;
	answer->center = bcMulAdd(in.p0, c->alpha, bcSub(in.p1, in.p0));
	answer->normal = mode == cli_normalContact	 ? c->normal
					 : mode == cli_normalTriangle ? t.normal
					 : bcLengthSquared(c->normalSum) > 0.0 ? bcNormalize(c->normalSum)
														   : t.normal;
	answer->triangleNormal = t.normal;
}

bool cliReplayer_Reanswer(void* context, const cliResult* e, unsigned long mistakes, cliResult* answer)
{
	cliReplayer* rp = context;
	bcCastInput in;
	if (!rp->throwOf(rp->throwContext, e, &in)) {
		return false;
	}
	unsigned long variant = mistakes & CLI_VARIANT_MISTAKES;
	if ((variant & (variant - 1)) != 0) {
		return false; /* two of the textbook caster's own: not one program */
	}
	if (variant != 0 && (e->fields & cli_resultInitialOverlap) && e->initialOverlap) {
		if (mistakes != variant) {
			return false;
		}
		/* a ball that starts overlapping is found before any root is taken */
		*answer = *e;
		answer->fields &= ~(unsigned)cli_resultTies;
		answer->ties = NULL;
		answer->tieCount = 0;
		return true;
	}
	cliCastSettings s = *rp->cast;
	const bcMesh* mesh = rp->mesh;
	bool beyond = false;
	cliMistake variantMistake = cli_mistakeCount;
	for (int m = 0; m < cli_mistakeCount; ++m) {
		if (!((mistakes >> m) & 1)) {
			continue;
		}
		switch ((cliMistake)m) {
		case cli_mistakeBackFaces:
			if (s.options.twoSided) {
				return false;
			}
			s.options.twoSided = true;
			break;
		case cli_mistakeApproach:
			s.options.approach = s.options.approach == bc_approachLess ? bc_approachLessEqual : bc_approachLess;
			break;
		case cli_mistakeOverlapIgnored:
			if (s.options.overlap == bc_overlapIgnore) {
				return false;
			}
			s.options.overlap = bc_overlapIgnore;
			break;
		case cli_mistakeWrongRadius:
			in.radius *= 0.5;
			break;
		case cli_mistakeDiameterAsRadius:
			in.radius *= 2.0;
			break;
		case cli_mistakeOverlapReported:
			if (s.options.overlap == bc_overlapReport) {
				return false;
			}
			s.options.overlap = bc_overlapReport;
			break;
		case cli_mistakeBackFacesMissed:
			if (!s.options.twoSided) {
				return false;
			}
			s.options.twoSided = false;
			break;
		case cli_mistakeSwappedEndpoints: {
			bcVec3 p0 = in.p0;
			in.p0 = in.p1;
			in.p1 = p0;
			break;
		}
		case cli_mistakeBeyondPath:
			beyond = true;
			break;
		case cli_mistakeFlipped:
			if (!rp->flippedTried) {
				rp->flippedTried = true;
				rp->flipped = flippedMesh(rp->mesh);
			}
			if (rp->flipped == NULL) {
				return false;
			}
			mesh = rp->flipped;
			break;
		case cli_mistakeLargerRoot:
		case cli_mistakeNoVertices:
		case cli_mistakeNoEdges:
		case cli_mistakeFacesOnly:
			variantMistake = (cliMistake)m;
			break;
		default:
			return false;
		}
	}
	if (mesh == rp->flipped && s.options.twoSided) {
		return false; /* both sides count: nothing to flip */
	}
	if (variantMistake != cli_mistakeCount) {
		if (beyond) {
			return false;
		}
		int which = mesh == rp->mesh ? 0 : 1;
		if (rp->boxes[which] == NULL) {
			rp->boxes[which] = boxTriangles(mesh);
			if (rp->boxes[which] == NULL) {
				return false;
			}
		}
		cliVariantContact c =
			variantCast(rp->boxes[which], bcMesh_GetInfo(mesh).triangleCount, &s.options, in, variantMistake);
		variantResult(rp->mesh, s.normalMode, in, &c, answer);
		return true;
	}
	bcCastOutput out;
	if (!beyond) {
		if (cliCastSettings_Answer(mesh, &s, in, &out, &rp->ties, &rp->tieCapacity, 0) < 0) {
			return false;
		}
		toResult(&out, answer);
	} else {
		/* the path's line past p1: what a program that never checks alpha
		 * against 1 finds first */
		double k = beyondFactor(mesh, in);
		if (!(k > 0.0)) {
			return false;
		}
		bcCastInput ahead = { in.p0, bcMulAdd(in.p0, k, bcSub(in.p1, in.p0)), in.radius };
		if (cliCastSettings_Answer(mesh, &s, ahead, &out, &rp->ties, &rp->tieCapacity, 0) < 0) {
			return false;
		}
		toResult(&out, answer);
		answer->alpha = out.state == bc_castMiss ? 1.0 : out.alpha * k;
	}
	if (mesh == rp->flipped && answer->hit) {
		/* the triangle the student names is the mesh's own */
		answer->triangleNormal = bcMesh_GetTriangle(rp->mesh, answer->triangle).normal;
	}
	return true;
}
