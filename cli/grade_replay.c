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
	for (int k = 0; k < 2; ++k) {
		if (rp->boxes[k] != NULL) {
			free(rp->boxes[k]->triangles);
			free(rp->boxes[k]->starts);
			free(rp->boxes[k]->items);
			free(rp->boxes[k]->stamps);
			free(rp->boxes[k]->found);
			free(rp->boxes[k]);
		}
	}
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
/* Cells of the textbook caster's grid along an axis, at most, and in all:
 * a grid as fine as one cell per triangle, never more memory than a
 * mesh's own. */
#define CLI_REPLAY_GRID_AXIS 1024
#define CLI_REPLAY_GRID_CELLS (1 << 22)

static int cellOf(const cliReplayMesh* g, double x, double lower, int n)
{
	double c = floor((x - lower) * g->inverse);
	return c < 0.0 ? 0 : c >= n ? n - 1 : (int)c;
}

/* The cells a box covers, along each axis: [from, to]. */
static void cellRange(const cliReplayMesh* g, bcVec3 lower, bcVec3 upper, int from[3], int to[3])
{
	double lo[3] = { lower.x, lower.y, lower.z };
	double hi[3] = { upper.x, upper.y, upper.z };
	double at[3] = { g->lower.x, g->lower.y, g->lower.z };
	for (int a = 0; a < 3; ++a) {
		from[a] = cellOf(g, lo[a], at[a], g->n[a]);
		to[a] = cellOf(g, hi[a], at[a], g->n[a]);
	}
}

static void freeReplayMesh(cliReplayMesh* g)
{
	if (g != NULL) {
		free(g->triangles);
		free(g->starts);
		free(g->items);
		free(g->stamps);
		free(g->found);
		free(g);
	}
}

/* Every triangle of mesh with its corners and box, and the grid of the
 * boxes, once (owned by the caller; NULL when out of memory). */
static cliReplayMesh* boxTriangles(const bcMesh* mesh)
{
	cliReplayMesh* g = calloc(1, sizeof *g);
	int32_t count = bcMesh_GetInfo(mesh).triangleCount;
	if (g == NULL) {
		return NULL;
	}
	g->count = count;
	size_t n = (size_t)(count > 0 ? count : 1);
	g->triangles = malloc(n * sizeof *g->triangles);
	g->stamps = calloc(n, sizeof *g->stamps);
	g->found = malloc(n * sizeof *g->found);
	if (g->triangles == NULL || g->stamps == NULL || g->found == NULL) {
		freeReplayMesh(g);
		return NULL;
	}
	bcVec3 lower = { INFINITY, INFINITY, INFINITY };
	bcVec3 upper = { -INFINITY, -INFINITY, -INFINITY };
	for (int32_t i = 0; i < count; ++i) {
		cliReplayTriangle* b = g->triangles + i;
		b->tri = bcMesh_GetTriangle(mesh, i);
		for (int k = 0; k < 3; ++k) {
			b->v[k] = bcMesh_GetVertex(mesh, b->tri.vertices[k]);
		}
		b->lower = bcMakeVec3(fmin(fmin(b->v[0].x, b->v[1].x), b->v[2].x), fmin(fmin(b->v[0].y, b->v[1].y), b->v[2].y),
							  fmin(fmin(b->v[0].z, b->v[1].z), b->v[2].z));
		b->upper = bcMakeVec3(fmax(fmax(b->v[0].x, b->v[1].x), b->v[2].x), fmax(fmax(b->v[0].y, b->v[1].y), b->v[2].y),
							  fmax(fmax(b->v[0].z, b->v[1].z), b->v[2].z));
		lower = bcMakeVec3(fmin(lower.x, b->lower.x), fmin(lower.y, b->lower.y), fmin(lower.z, b->lower.z));
		upper = bcMakeVec3(fmax(upper.x, b->upper.x), fmax(upper.y, b->upper.y), fmax(upper.z, b->upper.z));
	}
	/* cells of one size h, about one per triangle (a flat mesh: a flat grid) */
	double e[3] = { count > 0 ? upper.x - lower.x : 0.0, count > 0 ? upper.y - lower.y : 0.0,
					count > 0 ? upper.z - lower.z : 0.0 };
	double sorted[3] = { e[0], e[1], e[2] };
	for (int a = 0; a < 2; ++a) {
		for (int b = 0; b < 2 - a; ++b) {
			if (sorted[b] < sorted[b + 1]) {
				double t = sorted[b];
				sorted[b] = sorted[b + 1];
				sorted[b + 1] = t;
			}
		}
	}
	double cells = count > 0 ? (double)count : 1.0;
	double h = cbrt(sorted[0] * sorted[1] * sorted[2] / cells);
	if (!(sorted[2] >= h)) {
		h = sqrt(sorted[0] * sorted[1] / cells);
		if (!(sorted[1] >= h)) {
			h = sorted[0] / cells;
		}
	}
	h = fmax(h, sorted[0] / CLI_REPLAY_GRID_AXIS);
	if (!(h > 0.0) || !isfinite(h)) {
		h = 1.0;
	}
	long total = 1;
	for (int a = 0; a < 3; ++a) {
		g->n[a] = (int)fmin(floor(e[a] / h) + 1.0, CLI_REPLAY_GRID_AXIS);
		total *= g->n[a];
	}
	while (total > CLI_REPLAY_GRID_CELLS) {
		h *= 2.0;
		total = 1;
		for (int a = 0; a < 3; ++a) {
			g->n[a] = (int)fmin(floor(e[a] / h) + 1.0, CLI_REPLAY_GRID_AXIS);
			total *= g->n[a];
		}
	}
	g->lower = count > 0 ? lower : bcMakeVec3(0.0, 0.0, 0.0);
	g->inverse = 1.0 / h;
	g->starts = calloc((size_t)total + 1, sizeof *g->starts);
	if (g->starts == NULL) {
		freeReplayMesh(g);
		return NULL;
	}
	/* count, then place: each triangle in every cell its box covers */
	for (int pass = 0; pass < 2; ++pass) {
		for (int32_t i = 0; i < count; ++i) {
			int from[3], to[3];
			cellRange(g, g->triangles[i].lower, g->triangles[i].upper, from, to);
			for (int x = from[0]; x <= to[0]; ++x) {
				for (int y = from[1]; y <= to[1]; ++y) {
					for (int z = from[2]; z <= to[2]; ++z) {
						long cell = ((long)x * g->n[1] + y) * g->n[2] + z;
						if (pass == 0) {
							g->starts[cell + 1] += 1;
						} else {
							g->items[g->starts[cell]++] = i;
						}
					}
				}
			}
		}
		if (pass == 0) {
			for (long c = 0; c < total; ++c) {
				g->starts[c + 1] += g->starts[c];
			}
			g->items = malloc((size_t)(g->starts[total] > 0 ? g->starts[total] : 1) * sizeof *g->items);
			if (g->items == NULL) {
				freeReplayMesh(g);
				return NULL;
			}
		} else {
			/* placing moved each start to the next cell's: move them back */
			for (long c = total; c > 0; --c) {
				g->starts[c] = g->starts[c - 1];
			}
			g->starts[0] = 0;
		}
	}
	return g;
}

static int byIndex(const void* a, const void* b)
{
	int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
	return (x > y) - (x < y);
}

/* The triangles whose boxes the box [lower, upper] may touch, in index
 * order (the caster's ties then fall as they would over every triangle):
 * their count, in g->found. */
static int32_t nearTriangles(cliReplayMesh* g, bcVec3 lower, bcVec3 upper)
{
	int from[3], to[3];
	cellRange(g, lower, upper, from, to);
	if (++g->stamp == 0) {
		memset(g->stamps, 0, (size_t)(g->count > 0 ? g->count : 1) * sizeof *g->stamps);
		g->stamp = 1;
	}
	int32_t found = 0;
	for (int x = from[0]; x <= to[0]; ++x) {
		for (int y = from[1]; y <= to[1]; ++y) {
			for (int z = from[2]; z <= to[2]; ++z) {
				long cell = ((long)x * g->n[1] + y) * g->n[2] + z;
				for (int32_t k = g->starts[cell]; k < g->starts[cell + 1]; ++k) {
					int32_t i = g->items[k];
					if (g->stamps[i] != g->stamp) {
						g->stamps[i] = g->stamp;
						g->found[found++] = i;
					}
				}
			}
		}
	}
	qsort(g->found, (size_t)found, sizeof *g->found, byIndex);
	return found;
}

static cliVariantContact variantCast(cliReplayMesh* g, const bcCastOptions* options, bcCastInput in, cliMistake m)
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
	int32_t near = nearTriangles(g, lower, upper);
	for (int32_t f = 0; f < near; ++f) {
		int32_t i = g->found[f];
		const cliReplayTriangle* b = g->triangles + i;
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

/* An answer of cliAnswerCast as a result (no ties, no id). */
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
	answer->normal = out->normal; /* the convention's: cliAnswerCast made it so */
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
static void variantResult(const bcMesh* mesh, bcNormalMode mode, bcCastInput in, const cliVariantContact* c,
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
	answer->normal = mode == bc_normalContact	  ? c->normal
					 : mode == bc_normalTriangle ? t.normal
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
		cliVariantContact c = variantCast(rp->boxes[which], &s.options, in, variantMistake);
		variantResult(rp->mesh, s.normalMode, in, &c, answer);
		return true;
	}
	bcCastOutput out;
	if (!beyond) {
		if (cliAnswerCast(mesh, &s, in, &out, &rp->ties, &rp->tieCapacity, 0) < 0) {
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
		if (cliAnswerCast(mesh, &s, ahead, &out, &rp->ties, &rp->tieCapacity, 0) < 0) {
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
