/* simulate.c - balls bouncing around a mesh and off each other, event by
 * event.
 *
 * Motion. Between events a ball moves with a constant acceleration a: the
 * gravity g when it flies, g less its parts along the normals of the faces
 * it slides on, 0 when it has stopped. Its centre at a time s after its
 * last event is p + v s + a s^2 / 2.
 *
 * Events. The next event is the earliest of: a ball touching the mesh, two
 * balls touching, a sliding ball running off its face, the horizon. Each
 * ball keeps a prediction of its next mesh event and of its next ball
 * contact (the latter only up to either ball's next mesh event, after which
 * it is made again anyway); an event changes one or two balls, whose
 * predictions, and those of the balls that expected to meet them, are made
 * again. At time 0 every ball flies under the same gravity, so in the
 * falling frame all paths are straight and bcCollideBallSet predicts every
 * pair at once.
 *
 * Chords. A path with a = 0 is a segment and is cast exactly, once, over
 * the time left. A parabola is searched by chords: over a sub-step of
 * length h the arc strays from its chord by at most the sagitta
 * sigma = |a| h^2 / 8 (p(s) - chord(s) = -a s (h - s) / 2), so a ball of
 * radius r + sigma moving along the chord touches whatever the true ball
 * touches on the arc, no later. Sub-steps keep sigma below
 * BC_SIM_SAGITTA_FRACTION of the ball's reach; when the grown chord touches
 * something the ball is moved (exactly, on its parabola) to where the
 * grown chord first touches and the next chord is BC_SIM_REFINE_SHRINK as
 * long, until sigma is below BC_SIM_GAP_FRACTION of the reach: the ball is
 * then between r and r + 2 sigma from the mesh, and a Newton step or two on
 * its distance from the touched feature (the step itself cast, in case it
 * meets something else first) bring it to r to rounding. Ball pairs are
 * the same with the relative acceleration: two flying balls share g, so
 * their relative motion is a straight line and one bcCollideBalls call
 * over the time left answers exactly.
 *
 * The chord cast. It is bcMesh_Cast's: the same BVH walk, the same
 * per-triangle sweep, with three changes. (1) The earliest contact is
 * taken exactly; the tie window only picks the reported triangle and
 * feature, and is at most 1e-10 of the reach along the chord (bcMesh_Cast's
 * window, a fraction of the path, would let a ball on a long path sink
 * that fraction of it into the mesh). (2) After a bounce the ball touches
 * what it bounced off, and bcMesh_Cast would report that again at alpha 0:
 * a triangle whose earliest contact is not entered - the chord, or at
 * alpha 0 the velocity, does not point into it beyond the tangent
 * tolerance and the speed floor - is left out. That is exact: the distance
 * from a convex set along a line is convex, so a ball touching a triangle
 * while not moving into it never comes closer on that chord; on the arc,
 * the distance from the touching point's tangent plane is at least
 * (N.v) s + (N.a) s^2 / 2, positive on (0, h] when both N.v and
 * N.d = h (N.v + N.a h / 2) are. Balls that touch while parting are left
 * out the same way. (3) For the one-sided rule a triangle counts when the
 * chord or the starting velocity goes towards its front (the arc turns in
 * between).
 *
 * Resting and sliding. See BC_SIM_REST_FRACTION. A face a ball rests on
 * (flat on it: its contact normal is the face's) is a support: the ball is
 * set BC_SIM_GAP_FRACTION of its reach above the plane, keeps its velocity
 * along it, and its acceleration is g projected on the plane (on the
 * crease of two supports; a support whose contact force would have to
 * pull is let go). At least every BC_SIM_SUPPORT_STEP of the reach
 * travelled the supports are checked - some triangle within r + delta of
 * the centre whose contact normal is the support's within
 * BC_SIM_SUPPORT_COSINE - and when one fails the moment is found by
 * bisection: the ball leaves the face (a leave event). A third support, or
 * a rest on an edge or a vertex off the face's plane, stops the ball.
 *
 * Endless events. Besides resting: balls pressed together part at no less
 * than the rest speed (ballContact), approach speeds below the speed floor
 * do not count (speedFloor), and contact chains at one instant become
 * elastic, then stop (BC_SIM_BURST_EVENTS, BC_SIM_JAM_EVENTS). maxEvents
 * bounds whatever is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "mesh.h"
#include "simulate.h"
#include "sweep.h"
#include "vec3.h"

/* A support holds while a triangle is within r + delta of the centre,
 * delta = BC_SIM_SUPPORT_TOLERANCE (reach + L), L the mesh's largest
 * absolute coordinate: a sliding ball's distance from its plane drifts by
 * rounding only (1e-16 of the coordinates), and past the edge of its face
 * the distance grows as x^2 / (2 r) with the overshoot x, so the ball
 * leaves within x = sqrt(2 r delta), some 5e-5 of a unit radius. */
#define BC_SIM_SUPPORT_TOLERANCE 1e-9

/* ... and whose contact normal n has 1 - n.N at most this with the
 * support's normal N: a face's own normal gives 0 to rounding; past an
 * edge the contact normal turns by about x / r. The same 5e-5 radians. */
#define BC_SIM_SUPPORT_COSINE 1e-9

/* A sliding ball's supports are checked at least every this fraction of
 * its reach travelled, so that running off its face is noticed within half
 * a radius (gaps in the face narrower than that are bridged). */
#define BC_SIM_SUPPORT_STEP 0.5

/* Halvings of the bisection for the moment a support is lost: enough to
 * bring any interval of doubles down to adjacent numbers. */
#define BC_SIM_BISECTION_STEPS 64

/* Contact chains: a ball in more than this many events at one instant (a
 * light ball squeezed between a heavy one and a wall passes the push on a
 * sliver at a time, forever, at that instant: what event-driven
 * collisions cannot resolve) bounces elastically, without resting, for the
 * rest of that instant (the TC model of Luding and McNamara, 1998). A ball
 * hitting a corner has three events at one instant, a tie a few more: 16
 * leaves room for those. Elastic chains end: two balls and a wall collide
 * about pi sqrt(M / m) times. */
#define BC_SIM_BURST_EVENTS 16

/* A chord that touches is cut at the touch and the next one made this much
 * shorter, its sagitta 16 times smaller: from BC_SIM_SAGITTA_FRACTION to
 * BC_SIM_GAP_FRACTION in 9 casts rather than the 17 of halving, while a
 * false alarm (an arc that turns away) costs two doublings back. */
#define BC_SIM_REFINE_SHRINK 0.25

/* The last resort: a ball in more than this many events at one instant
 * (jammed among others and the mesh, pressed together by gravity) stops,
 * at every further event of that instant. Stopped balls neither move nor
 * accelerate, so every instant ends after at most about this many events
 * per ball. Four times the elastic chain's threshold. */
#define BC_SIM_JAM_EVENTS 64

/* Balls whose gap exceeds this many times the most their relative motion
 * could close it are not tested further: the factor only absorbs rounding
 * in the bound. */
#define BC_SIM_PAIR_PRUNE_FACTOR 2.0

typedef enum bcSimPredictionKind {
	bc_predictNone = 0,
	bc_predictContact,
	bc_predictLeave
} bcSimPredictionKind;

/* A ball's next mesh event: at offset seconds after its state's time. */
typedef struct bcSimPrediction {
	bcSimPredictionKind kind;
	double time;
	double offset;
	int32_t triangle; /* contact: the triangle; leave: the last one holding the ball */
	int slot;         /* contact: the sweep slot (feature) */
	int support;      /* leave: which support is lost */
} bcSimPrediction;

typedef struct bcSimSupport {
	bcVec3 normal;    /* unit, from the face towards the ball */
	int32_t triangle; /* the face the ball came to rest on */
} bcSimSupport;

typedef struct bcSimBall {
	double t;         /* the time p and v are for */
	bcVec3 p, v, a;
	double radius;
	double mass;
	double reach;     /* the length tolerances are fractions of */
	bcSimMotion motion;
	int supportCount;
	bcSimSupport supports[2];
	bcSimPrediction mesh;
	double pairTime;  /* the earliest ball contact predicted, INFINITY if none */
	int32_t partner;
	bool stale;
	double burstTime; /* the instant of its last event */
	int burst;        /* its events at that instant */
} bcSimBall;

struct bcSimulation {
	const bcMesh* mesh;
	bcSimBall* balls;
	int ballCount;
	bcVec3 gravity;
	double restitution;
	double horizon;
	long long maxEvents;
	bool twoSided;
	bool bruteForce;
	double meshScale;     /* L: the largest absolute coordinate of the mesh */
	double time;
	long long events;     /* returned, horizon events included */
	long long contacts;   /* returned, horizon events excluded */
	long long casts;
	long long pairTests;
	long long chainEvents; /* collisions made elastic by BC_SIM_BURST_EVENTS */
	long long jams;        /* balls stopped by BC_SIM_JAM_EVENTS */
	int horizonNext;      /* the next horizon event's ball, -1 before the horizon */
	bool tooMany;
};

/* --------------------------------------------------------------- helpers */

static const bcVec3 bcZero = { 0.0, 0.0, 0.0 };

static bcVec3 offsetPosition(const bcSimBall* b, double s)
{
	if (s == 0.0) {
		return b->p;
	}
	return bcMulAdd(b->p, s, bcMulAdd(b->v, 0.5 * s, b->a));
}

static bcVec3 offsetVelocity(const bcSimBall* b, double s)
{
	return s == 0.0 ? b->v : bcMulAdd(b->v, s, b->a);
}

/* The slowest approach that counts: over the whole run it would close
 * BC_SIM_TANGENT_TOLERANCE of the reach. Without this floor, balls pressed
 * together (e < 1) trade ever smaller velocities at one instant forever
 * (inelastic collapse): 1e-40, 1e-49, ... */
static double speedFloor(const bcSimulation* sim, double reach)
{
	return BC_SIM_TANGENT_TOLERANCE * reach / sim->horizon;
}

/* Does the chord d (over h seconds), or at its start (atStart) the velocity
 * v0, go into a surface with unit normal n, beyond the tangent tolerance
 * and the speed floor? */
static bool movesInto(bcVec3 n, bcVec3 d, bcVec3 v0, bool atStart, double floor, double h)
{
	if (bcDot(n, d) < -(BC_SIM_TANGENT_TOLERANCE * bcLength(d) + floor * h)) {
		return true;
	}
	return atStart && bcDot(n, v0) < -(BC_SIM_TANGENT_TOLERANCE * bcLength(v0) + floor);
}

static double supportDelta(const bcSimulation* sim, const bcSimBall* b)
{
	return BC_SIM_SUPPORT_TOLERANCE * (b->reach + sim->meshScale);
}

static void triangleVertices(const bcMesh* mesh, int32_t t, bcVec3* a, bcVec3* b, bcVec3* c)
{
	const int32_t* v = mesh->triangles + 3 * (size_t)t;
	*a = mesh->vertices[v[0]];
	*b = mesh->vertices[v[1]];
	*c = mesh->vertices[v[2]];
}

/* Triangle t as the sweep reads it. */
static bcSweepTriangleRef sweepTriangle(const bcMesh* mesh, int32_t t)
{
	bcSweepTriangleRef ref;
	triangleVertices(mesh, t, &ref.a, &ref.b, &ref.c);
	ref.n = mesh->normals[t];
	ref.normalError = mesh->normalErrors[t];
	return ref;
}

static bool isDegenerate(const bcMesh* mesh, int32_t t)
{
	bcVec3 n = mesh->normals[t];
	return n.x == 0.0 && n.y == 0.0 && n.z == 0.0;
}

/* ------------------------------------------------------ the chord cast */

/* The contact normal of a point ball (r = 0) on a triangle of front normal
 * n, moving along d: its centre is on the triangle, so the side it comes
 * from is told by the motion (as bcMesh_Cast does), never by the rounding
 * of its position, which puts it a hair on either side. */
static bcVec3 pointNormal(bcVec3 n, bcVec3 d)
{
	return bcDot(n, d) > 0.0 ? bcNeg(n) : n;
}

/* Triangles tied at the earliest alpha of one chord, kept to pick the
 * lowest. More than this many triangles tied (a vertex shared by more)
 * still give the earliest contact, maybe not on the lowest of them. */
#define BC_SIM_TIE_CAPACITY 64

typedef struct bcSimCandidate {
	int32_t triangle;
	double alpha;
} bcSimCandidate;

typedef struct bcSimCast {
	const bcMesh* mesh;
	bcSweepQuery query; /* two-sided: the one-sided rule is applied here */
	bcVec3 d;           /* the chord, h (v0 + a h / 2): no cancellation, unlike p1 - p0 */
	bcVec3 v0;          /* the velocity at the chord's start */
	double h;           /* the chord's seconds */
	double floor;       /* speedFloor */
	double window;      /* the tie window in alpha */
	bool oneSided;
	double alphaMin;    /* the earliest entered contact so far */
	int count;
	bcSimCandidate items[BC_SIM_TIE_CAPACITY];
} bcSimCast;

typedef struct bcSimHit {
	bool hit;
	double alpha;
	int32_t triangle;
	int slot;
} bcSimHit;

static int firstSlot(const bcSweepResult* result, double limit)
{
	for (int i = 0; i < bc_slotCount; ++i) {
		if (result->alpha[i] <= limit) {
			return i;
		}
	}
	return 0;
}

static void addCandidate(bcSimCast* c, int32_t triangle, double alpha)
{
	if (alpha > c->alphaMin + c->window) {
		return;
	}
	if (alpha < c->alphaMin) {
		c->alphaMin = alpha;
		int kept = 0;
		for (int i = 0; i < c->count; ++i) {
			if (c->items[i].alpha <= alpha + c->window) {
				c->items[kept++] = c->items[i];
			}
		}
		c->count = kept;
	}
	bcSimCandidate item = { triangle, alpha };
	if (c->count < BC_SIM_TIE_CAPACITY) {
		c->items[c->count++] = item;
		return;
	}
	int worst = 0;
	for (int i = 1; i < c->count; ++i) {
		worst = c->items[i].triangle > c->items[worst].triangle ? i : worst;
	}
	if (triangle < c->items[worst].triangle || alpha == c->alphaMin) {
		c->items[worst] = item;
	}
}

static void castTriangle(bcSimCast* c, int32_t t, double maxAlpha)
{
	const bcMesh* mesh = c->mesh;
	if (isDegenerate(mesh, t)) {
		return;
	}
	bcVec3 n = mesh->normals[t];
	if (c->oneSided && !(bcDot(n, c->d) <= 0.0 || bcDot(n, c->v0) <= 0.0)) {
		return;
	}
	bcSweepTriangleRef triangle = sweepTriangle(mesh, t);
	bcSweepResult result;
	if (!bcSweepTriangle(&c->query, &triangle, maxAlpha, &result)) {
		return;
	}
	int slot = firstSlot(&result, result.best);
	bcCastOutput contact;
	bcSweepContact(&c->query, &triangle, &result, slot, result.best, &contact);
	bcVec3 normal = contact.normal;
	if (c->query.radius == 0.0) {
		normal = pointNormal(n, result.best == 0.0 ? c->v0 : c->d);
	}
	if (!movesInto(normal, c->d, c->v0, result.best == 0.0, c->floor, c->h)) {
		return;
	}
	addCandidate(c, t, result.best);
}

static double castLimit(const bcSimCast* c)
{
	double limit = c->alphaMin + c->window;
	return limit < 1.0 ? limit : 1.0;
}

static void visitCast(void* context, const bcBvhTriangle* triangle, double* maxAlpha)
{
	bcSimCast* c = context;
	castTriangle(c, triangle->index, *maxAlpha);
	*maxAlpha = castLimit(c);
}

/* The earliest entered contact of a ball of radius radius moving from c0 to
 * c1 in h seconds, whose velocity at c0 is v0; d is c1 - c0 computed
 * without cancellation (a chord shorter than the rounding of the positions
 * would otherwise point anywhere). The contact's alpha is the earliest
 * exactly; its triangle the lowest, and its feature the first (face,
 * edges, vertices), among contacts within the tie window: bcMesh_Cast's
 * BC_ALPHA_TIE_TOLERANCE for a chord up to the ball's reach long, and
 * 1e-10 of the reach along longer ones (a fraction of a long chord would
 * pick contacts visibly apart). */
static bcSimHit castChord(bcSimulation* sim, bcVec3 c0, bcVec3 c1, double radius, double reach, bcVec3 d, bcVec3 v0,
						  double h, double floor)
{
	bcSimHit hit = { false, 1.0, -1, 0 };
	bcCastInput input = { c0, c1, radius };
	if (!bcIsValidCastInput(input)) {
		return hit;
	}
	const bcMesh* mesh = sim->mesh;
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = true;
	bcSimCast c;
	c.mesh = mesh;
	c.query = bcMakeSweepQuery(input, &options);
	c.d = d;
	c.v0 = v0;
	c.h = h;
	c.floor = floor;
	double length = bcLength(c.query.d);
	c.window = BC_ALPHA_TIE_TOLERANCE * (length > reach ? reach / length : 1.0);
	c.oneSided = !sim->twoSided;
	c.alphaMin = 1.0;
	c.count = 0;
	sim->casts += 1;
	if (sim->bruteForce || mesh->bvh == NULL) {
		for (int32_t t = 0; t < mesh->triangleCount; ++t) {
			castTriangle(&c, t, castLimit(&c));
		}
	} else {
		double maxAlpha = 1.0;
		bcBvh_QuerySweep(mesh->bvh, c.query.p0, c.query.d, c.query.radius, &maxAlpha, visitCast, &c);
	}
	if (c.count == 0) {
		return hit;
	}
	double limit = c.alphaMin + c.window;
	int32_t chosen = -1;
	for (int i = 0; i < c.count; ++i) {
		if (c.items[i].alpha <= limit && (chosen < 0 || c.items[i].triangle < chosen)) {
			chosen = c.items[i].triangle;
		}
	}
	bcSweepTriangleRef triangle = sweepTriangle(mesh, chosen);
	bcSweepResult result;
	bcSweepTriangle(&c.query, &triangle, 1.0, &result);
	hit.hit = true;
	hit.triangle = chosen;
	hit.slot = firstSlot(&result, limit);
	hit.alpha = c.alphaMin;
	return hit;
}

/* ----------------------------------------------------------- supports */

typedef struct bcSupportQuery {
	const bcMesh* mesh;
	bcVec3 p;
	double reach;       /* r + delta */
	double delta;
	bcVec3 normal;
	int32_t holder;     /* a triangle found holding the ball, or -1 */
} bcSupportQuery;

static void testSupport(bcSupportQuery* q, int32_t t)
{
	if ((q->holder >= 0 && t > q->holder) || isDegenerate(q->mesh, t)) {
		return;
	}
	bcVec3 a, b, c;
	triangleVertices(q->mesh, t, &a, &b, &c);
	bcClosestPoint cp = bcClosestPointTriangle(q->p, a, b, c);
	if (!(cp.distance <= q->reach)) {
		return;
	}
	double cosine;
	if (cp.distance <= q->delta) {
		/* The centre is on the triangle (a point ball): its plane's normal. */
		cosine = fabs(bcDot(q->mesh->normals[t], q->normal));
	} else {
		cosine = bcDot(bcScale(1.0 / cp.distance, bcSub(q->p, cp.point)), q->normal);
	}
	if (1.0 - cosine <= BC_SIM_SUPPORT_COSINE) {
		q->holder = t;
	}
}

static void visitSupport(void* context, int32_t triangle, double* maxDistance)
{
	(void)maxDistance; /* every holder is needed: the lowest one is reported */
	testSupport(context, triangle);
}

/* The lowest triangle holding ball b at p on its support k, or -1 (the
 * same whatever the order triangles are visited in). */
static int32_t supportHolder(const bcSimulation* sim, const bcSimBall* b, int k, bcVec3 p)
{
	bcSupportQuery q;
	q.mesh = sim->mesh;
	q.p = p;
	q.delta = supportDelta(sim, b);
	q.reach = b->radius + q.delta;
	q.normal = b->supports[k].normal;
	q.holder = -1;
	if (sim->bruteForce || sim->mesh->bvh == NULL) {
		for (int32_t t = 0; t < sim->mesh->triangleCount; ++t) {
			testSupport(&q, t);
		}
	} else {
		double maxDistance = q.reach;
		bcBvh_QueryPoint(sim->mesh->bvh, p, &maxDistance, visitSupport, &q);
	}
	return q.holder;
}

/* The first support of b not held at offset s, or -1; holders[k] gets the
 * triangle holding support k (-1 if none). */
static int lostSupport(const bcSimulation* sim, const bcSimBall* b, double s, int32_t holders[2])
{
	bcVec3 p = offsetPosition(b, s);
	int lost = -1;
	for (int k = 0; k < b->supportCount; ++k) {
		holders[k] = supportHolder(sim, b, k, p);
		if (holders[k] < 0 && lost < 0) {
			lost = k;
		}
	}
	return lost;
}

/* Does b run off a support between offsets s0 (held) and s1? Then *leave
 * is the first offset found not held (to a double's resolution), *which
 * the support and *holder the triangle holding it just before. */
static double supportStep(const bcSimBall* b, double s);

static bool findLeave(const bcSimulation* sim, const bcSimBall* b, double s0, double s1, double* leave, int* which,
					  int32_t* holder)
{
	/* Checked at least every BC_SIM_SUPPORT_STEP of the reach travelled. */
	int32_t holders[2] = { -1, -1 };
	int lost = -1;
	double lo = s0, hi = s0;
	while (hi < s1) {
		lo = hi;
		double step = supportStep(b, lo);
		hi = step < s1 - lo ? lo + step : s1;
		lost = lostSupport(sim, b, hi, holders);
		if (lost >= 0) {
			break;
		}
	}
	if (lost < 0) {
		return false;
	}
	int32_t last = b->supports[lost].triangle;
	int32_t loHolders[2] = { -1, -1 };
	if (lostSupport(sim, b, lo, loHolders) < 0) {
		last = loHolders[lost];
	}
	for (int k = 0; k < BC_SIM_BISECTION_STEPS; ++k) {
		double mid = lo + 0.5 * (hi - lo);
		if (!(mid > lo && mid < hi)) {
			break;
		}
		int m = lostSupport(sim, b, mid, holders);
		if (m < 0) {
			lo = mid;
			last = holders[lost];
		} else {
			hi = mid;
			lost = m;
		}
	}
	*leave = hi;
	*which = lost;
	*holder = last;
	return true;
}

/* The acceleration of b from its supports; lets go of supports that would
 * have to pull, and keeps the velocity along the rest. */
static void settleSupports(const bcSimulation* sim, bcSimBall* b)
{
	bcVec3 g = sim->gravity;
	for (;;) {
		if (b->supportCount == 0) {
			b->a = g;
			b->motion = bc_simFlying;
			return;
		}
		if (b->supportCount == 1) {
			bcVec3 n = b->supports[0].normal;
			double gn = bcDot(g, n);
			if (!(gn < 0.0)) {
				b->supportCount = 0;
				continue;
			}
			b->a = bcMulAdd(g, -gn, n);
			b->v = bcMulAdd(b->v, -bcDot(b->v, n), n);
			b->motion = bc_simSliding;
			return;
		}
		bcVec3 n1 = b->supports[0].normal, n2 = b->supports[1].normal;
		bcVec3 line = bcNormalize(bcCross(n1, n2));
		if (line.x == 0.0 && line.y == 0.0 && line.z == 0.0) {
			b->supportCount = 1;
			continue;
		}
		/* Contact forces l1 n1 + l2 n2 = -(g - (g.line) line), both >= 0. */
		double c = bcDot(n1, n2);
		double g1 = bcDot(g, n1), g2 = bcDot(g, n2);
		double den = 1.0 - c * c;
		double l1 = (c * g2 - g1) / den;
		double l2 = (c * g1 - g2) / den;
		if (l1 < 0.0 || l2 < 0.0) {
			if (l1 < l2) {
				b->supports[0] = b->supports[1];
			}
			b->supportCount = 1;
			continue;
		}
		b->a = bcScale(bcDot(g, line), line);
		b->v = bcScale(bcDot(b->v, line), line);
		b->motion = bc_simSliding;
		return;
	}
}

/* After a velocity change: supports the new velocity leaves (or pushes
 * into: the next cast bounces it off them) are let go. */
static void releaseSupports(const bcSimulation* sim, bcSimBall* b)
{
	if (b->motion == bc_simStopped) {
		/* A push slower than the speed floor leaves a stopped ball stopped. */
		if (bcLength(b->v) <= speedFloor(sim, b->reach)) {
			b->v = bcZero;
			return;
		}
		b->motion = bc_simFlying;
	}
	double speed = bcLength(b->v);
	int kept = 0;
	for (int k = 0; k < b->supportCount; ++k) {
		if (!(fabs(bcDot(b->v, b->supports[k].normal)) > BC_SIM_TANGENT_TOLERANCE * speed)) {
			b->supports[kept++] = b->supports[k];
		}
	}
	b->supportCount = kept;
	settleSupports(sim, b);
}

static void stopBall(bcSimBall* b)
{
	b->v = bcZero;
	b->a = bcZero;
	b->supportCount = 0;
	b->motion = bc_simStopped;
}

/* ---------------------------------------------------------- predictions */

/* Newton steps that polish an accepted contact under gravity: from the
 * refinement's gap (at most 2 BC_SIM_GAP_FRACTION of the reach, on the
 * safe side) the distance to the touched feature reaches r to rounding in
 * one or two steps, as the distance is smooth along the arc there. */
#define BC_SIM_POLISH_STEPS 3

/* One Newton step of a polish from offset *s: the gap to contact closing
 * at rate per unit of time, the motion's velocity v. Takes the step (and
 * returns true) when the gap is open and closing and the step moves the
 * ball no more than bound, to no later than limit. */
static bool polishStep(double gap, double rate, bcVec3 v, double bound, double limit, double* s)
{
	if (!(gap > 0.0) || !(rate < 0.0)) {
		return false;
	}
	double step = -gap / rate;
	if (!(step * bcLength(v) <= bound) || !(*s + step <= limit)) {
		return false;
	}
	*s += step;
	return true;
}

/* Polish the time of a contact of b with triangle t (sweep slot) accepted
 * at offset s: Newton on the distance from the feature, each step moving
 * the ball no more than the refinement's gap could need. */
static double polishMesh(const bcSimulation* sim, const bcSimBall* b, int32_t t, int slot, double s, double limit)
{
	const bcMesh* mesh = sim->mesh;
	bcSweepTriangleRef triangle = sweepTriangle(mesh, t);
	double bound = 4.0 * BC_SIM_GAP_FRACTION * b->reach;
	for (int k = 0; k < BC_SIM_POLISH_STEPS; ++k) {
		bcVec3 p = offsetPosition(b, s), v = offsetVelocity(b, s);
		bcCastInput input = { p, bcAdd(p, v), b->radius };
		bcSweepQuery query = bcMakeSweepQuery(input, NULL);
		bcCastOutput contact;
		bcSweepContact(&query, &triangle, NULL, slot, 0.0, &contact);
		double gap = bcDot(bcSub(p, contact.point), contact.normal) - b->radius;
		double rate = bcDot(contact.normal, v);
		if (!polishStep(gap, rate, v, bound, limit, &s)) {
			break;
		}
	}
	return s;
}

/* The same for two balls (i, j) whose contact was accepted at offset s
 * from t0 (H the window). */
static double polishPair(const bcSimulation* sim, const bcSimBall* bi, const bcSimBall* bj, double t0, double s,
						 double H)
{
	double R = bi->radius + bj->radius;
	double bound = 4.0 * BC_SIM_GAP_FRACTION * (R > 0.0 ? R : bi->reach);
	(void)sim;
	for (int k = 0; k < BC_SIM_POLISH_STEPS; ++k) {
		double oi = t0 - bi->t + s, oj = t0 - bj->t + s;
		bcVec3 m = bcSub(offsetPosition(bj, oj), offsetPosition(bi, oi));
		bcVec3 vRel = bcSub(offsetVelocity(bj, oj), offsetVelocity(bi, oi));
		double distance = bcLength(m);
		double gap = distance - R;
		double rate = distance > 0.0 ? bcDot(m, vRel) / distance : 0.0;
		if (!polishStep(gap, rate, vRel, bound, H, &s)) {
			break;
		}
	}
	return s;
}

/* The longest sub-step a sliding ball takes from offset s. */
static double supportStep(const bcSimBall* b, double s)
{
	double v = bcLength(offsetVelocity(b, s));
	double a = bcLength(b->a);
	double length = BC_SIM_SUPPORT_STEP * b->reach;
	if (v == 0.0 && a == 0.0) {
		return INFINITY;
	}
	/* v h + a h^2 / 2 = length, the root without cancellation. */
	return 2.0 * length / (v + sqrt(v * v + 2.0 * a * length));
}

static bcSimPrediction predictMesh(bcSimulation* sim, const bcSimBall* b)
{
	bcSimPrediction none = { bc_predictNone, INFINITY, 0.0, -1, 0, -1 };
	double H = sim->horizon - b->t;
	if (b->motion == bc_simStopped || !(H > 0.0)) {
		return none;
	}
	double amag = bcLength(b->a);
	double hMax = amag > 0.0 ? sqrt(8.0 * BC_SIM_SAGITTA_FRACTION * b->reach / amag) : INFINITY;
	double sigmaAccept = BC_SIM_GAP_FRACTION * b->reach;
	double s = 0.0, hLocal = hMax;
	for (;;) {
		double h = H - s;
		bool last = true;
		if (hLocal < h) {
			h = hLocal;
			last = false;
		}
		double end = last ? H : s + h;
		double sigma = 0.125 * amag * h * h;
		bcVec3 v0 = offsetVelocity(b, s);
		bcVec3 chord = bcScale(end - s, bcMulAdd(v0, 0.5 * (end - s), b->a));
		bcSimHit hit = castChord(sim, offsetPosition(b, s), offsetPosition(b, end), b->radius + sigma, b->reach, chord,
								 v0, end - s, speedFloor(sim, b->reach));
		double reached = hit.hit ? s + hit.alpha * (end - s) : end;
		double leave;
		int which;
		int32_t holder;
		if (b->supportCount > 0 && reached > s && findLeave(sim, b, s, reached, &leave, &which, &holder)) {
			bcSimPrediction p = { bc_predictLeave, b->t + leave, leave, holder, 0, which };
			return p;
		}
		if (!hit.hit) {
			if (last) {
				return none;
			}
			s = end;
			hLocal = 2.0 * hLocal < hMax ? 2.0 * hLocal : hMax;
			continue;
		}
		if (sigma <= sigmaAccept) {
			int32_t triangle = hit.triangle;
			int slot = hit.slot;
			if (amag > 0.0 && b->radius > 0.0) {
				double polished = polishMesh(sim, b, triangle, slot, reached, H);
				if (polished > reached) {
					/* The step is at most a few gaps long, so its arc is its
					 * chord to rounding: cast it exactly, and stop at anything
					 * else entered first (a second wall in a corner). */
					bcVec3 v1 = offsetVelocity(b, reached);
					double step = polished - reached;
					bcSimHit check = castChord(sim, offsetPosition(b, reached), offsetPosition(b, polished), b->radius,
											   b->reach, bcScale(step, bcMulAdd(v1, 0.5 * step, b->a)), v1, step,
											   speedFloor(sim, b->reach));
					if (check.hit && check.triangle != triangle && check.alpha < 1.0) {
						polished = reached + check.alpha * step;
						triangle = check.triangle;
						slot = check.slot;
					}
				}
				reached = polished;
			}
			bcSimPrediction p = { bc_predictContact, b->t + reached, reached, triangle, slot, -1 };
			return p;
		}
		s = reached;
		hLocal = BC_SIM_REFINE_SHRINK * h;
	}
}

/* When balls i and j, as they move from time t0, first touch while moving
 * into each other, no later than tEnd; INFINITY if they do not. */
static double pairContact(bcSimulation* sim, int i, int j, double t0, double tEnd)
{
	const bcSimBall* bi = sim->balls + i;
	const bcSimBall* bj = sim->balls + j;
	if (!(tEnd >= t0)) {
		return INFINITY;
	}
	double H = tEnd - t0;
	double oi = t0 - bi->t, oj = t0 - bj->t;
	bcVec3 da = bcSub(bj->a, bi->a);
	double damag = bcLength(da);
	double R = bi->radius + bj->radius;
	bcVec3 m = bcSub(offsetPosition(bj, oj), offsetPosition(bi, oi));
	bcVec3 dv = bcSub(offsetVelocity(bj, oj), offsetVelocity(bi, oi));
	double closing = bcLength(dv) * H + 0.5 * damag * H * H;
	if (bcLength(m) - R > BC_SIM_PAIR_PRUNE_FACTOR * closing) {
		return INFINITY;
	}
	double reach = R > 0.0 ? R : (bi->reach < bj->reach ? bi->reach : bj->reach);
	double hMax = damag > 0.0 ? sqrt(8.0 * BC_SIM_SAGITTA_FRACTION * reach / damag) : INFINITY;
	double sigmaAccept = BC_SIM_GAP_FRACTION * reach;
	double s = 0.0, hLocal = hMax;
	for (;;) {
		double h = H - s;
		bool last = true;
		if (hLocal < h) {
			h = hLocal;
			last = false;
		}
		double end = last ? H : s + h;
		double sigma = 0.125 * damag * h * h;
		bcVec3 ci = offsetPosition(bi, oi + s), cj = offsetPosition(bj, oj + s);
		bcVec3 di = bcSub(offsetPosition(bi, oi + end), ci);
		bcVec3 dj = bcSub(offsetPosition(bj, oj + end), cj);
		bcBallHit hit = bcCollideBalls(ci, di, bi->radius + sigma, cj, dj, bj->radius);
		sim->pairTests += 1;
		bool found = false;
		if (hit.state == bc_ballHit || hit.state == bc_ballInitialOverlap) {
			bcVec3 vRel = bcSub(offsetVelocity(bj, oj + s), offsetVelocity(bi, oi + s));
			bcVec3 dRel = bcScale(end - s, bcMulAdd(vRel, 0.5 * (end - s), da));
			found = movesInto(hit.normal, dRel, vRel, hit.alpha == 0.0, speedFloor(sim, reach), end - s);
		}
		if (!found) {
			if (last) {
				return INFINITY;
			}
			s = end;
			hLocal = 2.0 * hLocal < hMax ? 2.0 * hLocal : hMax;
			continue;
		}
		double reached = s + hit.alpha * (end - s);
		if (sigma <= sigmaAccept) {
			if (damag > 0.0) {
				reached = polishPair(sim, bi, bj, t0, reached, H);
			}
			return t0 + reached;
		}
		s = reached;
		hLocal = BC_SIM_REFINE_SHRINK * h;
	}
}

static double pairWindowEnd(const bcSimulation* sim, int i, int j)
{
	double end = sim->horizon;
	end = sim->balls[i].mesh.time < end ? sim->balls[i].mesh.time : end;
	return sim->balls[j].mesh.time < end ? sim->balls[j].mesh.time : end;
}

static void offerPair(bcSimulation* sim, int i, int j, double time)
{
	bcSimBall* b = sim->balls + i;
	if (time < b->pairTime || (time == b->pairTime && time < INFINITY && j < b->partner)) {
		b->pairTime = time;
		b->partner = j;
	}
}

/* Every pair of ball i again, from the current time. */
static void recomputePairs(bcSimulation* sim, int i)
{
	sim->balls[i].pairTime = INFINITY;
	sim->balls[i].partner = -1;
	for (int j = 0; j < sim->ballCount; ++j) {
		if (j == i) {
			continue;
		}
		int lo = i < j ? i : j, hi = i < j ? j : i;
		double time = pairContact(sim, lo, hi, sim->time, pairWindowEnd(sim, lo, hi));
		offerPair(sim, i, j, time);
		offerPair(sim, j, i, time);
	}
}

/* Predictions after balls a and b (b may be -1) changed. */
static void refresh(bcSimulation* sim, int a, int b)
{
	sim->balls[a].mesh = predictMesh(sim, sim->balls + a);
	if (b >= 0) {
		sim->balls[b].mesh = predictMesh(sim, sim->balls + b);
	}
	for (int k = 0; k < sim->ballCount; ++k) {
		bcSimBall* ball = sim->balls + k;
		ball->stale = k != a && k != b && ball->partner >= 0 && (ball->partner == a || ball->partner == b);
		if (ball->stale) {
			ball->pairTime = INFINITY;
			ball->partner = -1;
		}
	}
	recomputePairs(sim, a);
	if (b >= 0) {
		recomputePairs(sim, b);
	}
	for (int k = 0; k < sim->ballCount; ++k) {
		if (sim->balls[k].stale) {
			sim->balls[k].stale = false;
			recomputePairs(sim, k);
		}
	}
}

/* The first ball predictions at time 0: every ball flies under the same
 * gravity, so in the falling frame all paths are straight and the set
 * query answers every pair at once. Balls whose answer is a touch the
 * simulation ignores (parting, grazing) are done one by one. */
static void initialPairs(bcSimulation* sim)
{
	int n = sim->ballCount;
	for (int i = 0; i < n; ++i) {
		sim->balls[i].pairTime = INFINITY;
		sim->balls[i].partner = -1;
		sim->balls[i].stale = false;
	}
	if (n < 2) {
		return;
	}
	bcBallInput* inputs = bcAlloc((size_t)n * sizeof *inputs);
	bcBallResult* results = bcAlloc((size_t)n * sizeof *results);
	bool done = false;
	if (inputs != NULL && results != NULL) {
		double H = sim->horizon;
		for (int i = 0; i < n; ++i) {
			const bcSimBall* b = sim->balls + i;
			inputs[i].p0 = b->p;
			inputs[i].p1 = bcMulAdd(b->p, H, b->v);
			inputs[i].radius = b->radius;
			inputs[i].mass = b->mass;
			inputs[i].fixed = false;
		}
		done = bcCollideBallSet(inputs, n, NULL, results, NULL);
		sim->pairTests += n;
		for (int i = 0; done && i < n; ++i) {
			const bcBallResult* r = results + i;
			if (r->state == bc_ballMiss) {
				continue;
			}
			int j = r->other;
			/* A tie (within BC_BALL_TIE_TOLERANCE of alpha, a fraction of
			 * the whole horizon) is resolved exactly, one by one. */
			double reach = sim->balls[i].radius + sim->balls[j].radius;
			bool entered = r->state == bc_ballHit && r->alpha > 0.0 && r->tieCount == 1 &&
						   movesInto(r->normal, bcSub(bcSub(inputs[j].p1, inputs[j].p0), r->velocityBefore), bcZero,
									 false, speedFloor(sim, reach > 0.0 ? reach : sim->balls[i].reach), H);
			if (entered) {
				offerPair(sim, i, j, r->alpha * H);
			} else {
				sim->balls[i].stale = true;
			}
		}
	}
	bcFree(inputs);
	bcFree(results);
	for (int i = 0; i < n; ++i) {
		if (!done || sim->balls[i].stale) {
			sim->balls[i].stale = false;
			recomputePairs(sim, i);
		}
	}
}

/* ------------------------------------------------------------- creation */

bcSimulationDef bcDefaultSimulationDef(void)
{
	bcSimulationDef def;
	memset(&def, 0, sizeof def);
	def.restitution = 1.0;
	def.horizon = 1.0;
	return def;
}

static bool failBall(bcError* error, int index, const char* what)
{
	bcSetError(error, bc_errorValue, 0, 0, "balls[%d]: %s", index, what);
	if (error != NULL) {
		error->record = index;
	}
	return false;
}

/* Check the definition's numbers; false (error filled) if one is bad. */
static bool checkDef(const bcSimulationDef* def, bcError* error)
{
	if (def->ballCount < 0 || (def->ballCount > 0 && def->balls == NULL)) {
		bcSetError(error, bc_errorValue, 0, 0, "the ball count must be >= 0, with the balls given");
		return false;
	}
	if (!bcIsFinite(def->gravity)) {
		bcSetError(error, bc_errorValue, 0, 0, "gravity must be finite");
		return false;
	}
	if (!(def->restitution >= 0.0 && def->restitution <= 1.0)) {
		bcSetError(error, bc_errorValue, 0, 0, "restitution must be in [0, 1]");
		return false;
	}
	if (!(def->horizon > 0.0) || !isfinite(def->horizon)) {
		bcSetError(error, bc_errorValue, 0, 0, "horizon must be a finite number > 0");
		return false;
	}
	double H = def->horizon;
	for (int i = 0; i < def->ballCount; ++i) {
		const bcSimBallDef* b = def->balls + i;
		if (!bcIsFinite(b->position) || !bcIsFinite(b->velocity)) {
			return failBall(error, i, "position and velocity must be finite");
		}
		if (!(b->radius >= 0.0) || !isfinite(b->radius)) {
			return failBall(error, i, "radius must be a finite number >= 0");
		}
		if (!(b->mass > 0.0 || b->mass == 0.0)) {
			return failBall(error, i, "mass must be > 0");
		}
		bcVec3 end = bcMulAdd(bcMulAdd(b->position, H, b->velocity), 0.5 * H * H, def->gravity);
		if (!bcIsFinite(end) || !bcIsFinite(bcMulAdd(b->velocity, H, def->gravity)) ||
			!bcIsFinite(bcScale(H, b->velocity))) {
			return failBall(error, i, "its path leaves the range of doubles before the horizon");
		}
	}
	return true;
}

/* Balls overlapping the mesh or each other at time 0, beyond delta. */
static bool checkOverlaps(const bcSimulation* sim, bcError* error)
{
	for (int i = 0; i < sim->ballCount; ++i) {
		const bcSimBall* b = sim->balls + i;
		bcClosestOptions options = bcDefaultClosestOptions();
		options.bruteForce = sim->bruteForce;
		bcClosestOutput out = bcMesh_Closest(sim->mesh, (bcClosestInput){ b->p, b->radius }, &options);
		if (out.state == bc_closestFound && out.distance < b->radius - supportDelta(sim, b)) {
			char what[96];
			snprintf(what, sizeof what, "overlaps the mesh at time 0 (triangle %ld is nearer than its radius)",
					 (long)out.triangle);
			return failBall(error, i, what);
		}
	}
	int n = sim->ballCount;
	if (n < 2) {
		return true;
	}
	/* Radii shrunk by half the tolerance each: an overlap is then deeper
	 * than delta. */
	bcBallInput* inputs = bcAlloc((size_t)n * sizeof *inputs);
	bcBallResult* results = bcAlloc((size_t)n * sizeof *results);
	bool ok = inputs != NULL && results != NULL;
	if (!ok) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
	}
	for (int i = 0; ok && i < n; ++i) {
		const bcSimBall* b = sim->balls + i;
		double shrunk = b->radius - 0.5 * supportDelta(sim, b);
		inputs[i].p0 = b->p;
		inputs[i].p1 = b->p;
		inputs[i].radius = shrunk > 0.0 ? shrunk : 0.0;
		inputs[i].mass = 1.0;
		inputs[i].fixed = false;
	}
	if (ok && !bcCollideBallSet(inputs, n, NULL, results, NULL)) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		ok = false;
	}
	for (int i = 0; ok && i < n; ++i) {
		if (results[i].state == bc_ballInitialOverlap && results[i].other > i) {
			char what[64];
			snprintf(what, sizeof what, "overlaps balls[%ld] at time 0", (long)results[i].other);
			ok = failBall(error, i, what);
		}
	}
	bcFree(inputs);
	bcFree(results);
	return ok;
}

bcSimulation* bcSimulation_Create(const bcMesh* mesh, const bcSimulationDef* def, bcError* error)
{
	if (error != NULL) {
		memset(error, 0, sizeof *error);
		error->record = -1;
	}
	if (mesh == NULL || def == NULL) {
		bcSetError(error, bc_errorValue, 0, 0, "no mesh or no definition");
		return NULL;
	}
	if (!checkDef(def, error)) {
		return NULL;
	}
	bcSimulation* sim = bcAllocZeroed(1, sizeof *sim);
	int n = def->ballCount;
	bcSimBall* balls = bcAllocZeroed((size_t)(n > 0 ? n : 1), sizeof *balls);
	if (sim == NULL || balls == NULL) {
		bcFree(sim);
		bcFree(balls);
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory");
		return NULL;
	}
	sim->mesh = mesh;
	sim->balls = balls;
	sim->ballCount = n;
	sim->gravity = def->gravity;
	sim->restitution = def->restitution;
	sim->horizon = def->horizon;
	sim->maxEvents = def->maxEvents > 0 ? def->maxEvents : BC_SIM_DEFAULT_MAX_EVENTS;
	sim->twoSided = def->twoSided;
	sim->bruteForce = def->bruteForce;
	sim->horizonNext = -1;
	double diagonal = bcDistance(mesh->upperBound, mesh->lowerBound);
	double L = 0.0;
	L = fabs(mesh->lowerBound.x) > L ? fabs(mesh->lowerBound.x) : L;
	L = fabs(mesh->lowerBound.y) > L ? fabs(mesh->lowerBound.y) : L;
	L = fabs(mesh->lowerBound.z) > L ? fabs(mesh->lowerBound.z) : L;
	L = fabs(mesh->upperBound.x) > L ? fabs(mesh->upperBound.x) : L;
	L = fabs(mesh->upperBound.y) > L ? fabs(mesh->upperBound.y) : L;
	L = fabs(mesh->upperBound.z) > L ? fabs(mesh->upperBound.z) : L;
	sim->meshScale = isfinite(L) ? L : 0.0;
	double pointReach = BC_SIM_POINT_REACH * diagonal;
	if (!(pointReach > 0.0) || !isfinite(pointReach)) {
		pointReach = BC_SIM_POINT_REACH;
	}
	for (int i = 0; i < n; ++i) {
		const bcSimBallDef* d = def->balls + i;
		bcSimBall* b = balls + i;
		b->p = d->position;
		b->v = d->velocity;
		b->a = def->gravity;
		b->radius = d->radius;
		b->mass = d->mass == 0.0 ? 1.0 : d->mass;
		b->reach = d->radius > 0.0 ? d->radius : pointReach;
		b->motion = bc_simFlying;
		b->burstTime = -INFINITY;
	}
	if (!checkOverlaps(sim, error)) {
		bcSimulation_Destroy(sim);
		return NULL;
	}
	for (int i = 0; i < n; ++i) {
		balls[i].mesh = predictMesh(sim, balls + i);
	}
	initialPairs(sim);
	return sim;
}

void bcSimulation_Destroy(bcSimulation* simulation)
{
	if (simulation == NULL) {
		return;
	}
	bcFree(simulation->balls);
	bcFree(simulation);
}

/* ---------------------------------------------------------------- events */

static bcSimEvent blankEvent(bcSimState state, double time)
{
	bcSimEvent e;
	memset(&e, 0, sizeof e);
	e.state = state;
	e.time = time;
	e.ball = -1;
	e.other = -1;
	e.triangle = -1;
	e.face = -1;
	e.feature = bc_featureNone;
	e.vertices[0] = e.vertices[1] = e.vertices[2] = -1;
	return e;
}

static void setTriangle(const bcMesh* mesh, bcSimEvent* e, int32_t t)
{
	e->triangle = t;
	e->face = t >= 0 ? mesh->faceIds[t] : -1;
}

/* Ball b reached offset s at the given time: its state there. */
static void moveBall(bcSimBall* b, double s, double time)
{
	b->p = offsetPosition(b, s);
	b->v = offsetVelocity(b, s);
	b->t = time;
}

/* Count an event of b at time; true when b is in a contact chain there
 * (see BC_SIM_BURST_EVENTS). */
static bool countBurst(bcSimBall* b, double time)
{
	if (time == b->burstTime) {
		b->burst += 1;
	} else {
		b->burstTime = time;
		b->burst = 1;
	}
	return b->burst > BC_SIM_BURST_EVENTS;
}

static bool isJammed(const bcSimBall* b)
{
	return b->burst > BC_SIM_JAM_EVENTS;
}

/* Add support (normal, triangle) to b; false when b cannot take it (two
 * other planes already). */
static bool addSupport(bcSimBall* b, bcVec3 normal, int32_t triangle)
{
	for (int k = 0; k < b->supportCount; ++k) {
		if (1.0 - bcDot(normal, b->supports[k].normal) <= BC_SIM_SUPPORT_COSINE) {
			b->supports[k].triangle = triangle;
			return true;
		}
	}
	if (b->supportCount == 2) {
		return false;
	}
	b->supports[b->supportCount].normal = normal;
	b->supports[b->supportCount].triangle = triangle;
	b->supportCount += 1;
	return true;
}

static bcSimEvent meshContact(bcSimulation* sim, int i)
{
	bcSimBall* b = sim->balls + i;
	const bcMesh* mesh = sim->mesh;
	bcSimPrediction pred = b->mesh;
	bcVec3 p = offsetPosition(b, pred.offset);
	bcVec3 v = offsetVelocity(b, pred.offset);
	bcVec3 a = b->a;
	int32_t t = pred.triangle;
	bcSweepTriangleRef triangle = sweepTriangle(mesh, t);
	bcCastInput input = { p, bcAdd(p, v), b->radius };
	bcSweepQuery query = bcMakeSweepQuery(input, NULL);
	bcCastOutput contact;
	bcSweepContact(&query, &triangle, NULL, pred.slot, 0.0, &contact);
	bcVec3 n = b->radius > 0.0 ? contact.normal : pointNormal(mesh->normals[t], v);

	bcSimEvent e = blankEvent(bc_simEvent, pred.time);
	e.kind = bc_simKindMesh;
	e.ball = i;
	setTriangle(mesh, &e, t);
	int local[3];
	e.feature = bcSlotFeature(pred.slot, &e.vertexCount, local);
	for (int k = 0; k < e.vertexCount; ++k) {
		e.vertices[k] = mesh->triangles[3 * (size_t)t + (size_t)local[k]];
	}
	e.point = contact.point;
	e.normal = n;
	e.position = p;
	e.velocityBefore = v;

	moveBall(b, pred.offset, pred.time);
	if (b->radius == 0.0) {
		/* A point touching the mesh is on it: its contact point, not the
		 * time-stepped position, whose rounding may put it an ulp behind. */
		b->p = contact.point;
		e.position = contact.point;
	}
	bool chain = countBurst(b, pred.time);
	sim->chainEvents += chain;
	double vn = bcDot(v, n);
	if (vn < 0.0) {
		b->v = bcMulAdd(v, -(1.0 + (chain ? 1.0 : sim->restitution)) * vn, n);
	}
	double u = bcDot(b->v, n);
	double an = bcDot(a, n);
	bool rest = !chain && an < 0.0 && u * u <= 2.0 * BC_SIM_REST_FRACTION * b->reach * -an;
	if (rest) {
		e.kind = bc_simKindRest;
		b->v = bcMulAdd(b->v, -u, n);
		/* Flat on the face's plane: touching the face, or an edge or vertex
		 * of it straight from above (a ball resting over the edge shared by
		 * two triangles of a floor). */
		bcVec3 face = mesh->normals[t];
		face = bcDot(face, n) < 0.0 ? bcNeg(face) : face;
		bool flat = e.feature == bc_featureFace || 1.0 - bcDot(face, n) <= BC_SIM_SUPPORT_COSINE;
		if (flat && addSupport(b, face, t)) {
			/* Slide BC_SIM_GAP_FRACTION of the reach above the plane: exactly
			 * at r, rounding would put the ball a hair below it, and the
			 * edges of the face's coplanar neighbours would be bumps. */
			b->p = bcMulAdd(contact.point, b->radius + BC_SIM_GAP_FRACTION * b->reach, face);
			settleSupports(sim, b);
		} else {
			stopBall(b);
		}
	} else {
		releaseSupports(sim, b);
	}
	if (isJammed(b)) {
		e.kind = bc_simKindRest;
		stopBall(b);
		sim->jams += 1;
	}
	e.velocityAfter = b->v;
	e.motion = b->motion;
	refresh(sim, i, -1);
	return e;
}

static bcSimEvent leaveSupport(bcSimulation* sim, int i)
{
	bcSimBall* b = sim->balls + i;
	bcSimPrediction pred = b->mesh;
	moveBall(b, pred.offset, pred.time);
	countBurst(b, pred.time);
	bcSimSupport lost = b->supports[pred.support];
	bcSimEvent e = blankEvent(bc_simEvent, pred.time);
	e.kind = bc_simKindLeave;
	e.ball = i;
	setTriangle(sim->mesh, &e, pred.triangle);
	if (pred.triangle >= 0) {
		bcVec3 ta, tb, tc;
		triangleVertices(sim->mesh, pred.triangle, &ta, &tb, &tc);
		e.point = bcClosestPointTriangle(b->p, ta, tb, tc).point;
	}
	e.normal = lost.normal;
	e.position = b->p;
	e.velocityBefore = b->v;
	for (int k = pred.support; k + 1 < b->supportCount; ++k) {
		b->supports[k] = b->supports[k + 1];
	}
	b->supportCount -= 1;
	settleSupports(sim, b);
	e.velocityAfter = b->v;
	e.motion = b->motion;
	refresh(sim, i, -1);
	return e;
}

static bcSimEvent ballContact(bcSimulation* sim, int i)
{
	int j = sim->balls[i].partner;
	int lo = i < j ? i : j, hi = i < j ? j : i;
	bcSimBall* A = sim->balls + lo;
	bcSimBall* B = sim->balls + hi;
	double time = sim->balls[i].pairTime;
	moveBall(A, time - A->t, time);
	moveBall(B, time - B->t, time);
	bcVec3 n = bcNormalize(bcSub(B->p, A->p));
	if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
		n = bcNormalize(bcSub(A->v, B->v));
	}
	n = bcPositiveZeros(n);
	bcSimEvent e = blankEvent(bc_simEvent, time);
	e.kind = bc_simKindBall;
	e.ball = lo;
	e.other = hi;
	e.point = bcMulAdd(A->p, A->radius, n);
	e.normal = n;
	e.position = A->p;
	e.otherPosition = B->p;
	e.velocityBefore = A->v;
	e.otherVelocityBefore = B->v;
	bool chainA = countBurst(A, time);
	bool chainB = countBurst(B, time);
	bool chain = chainA || chainB;
	sim->chainEvents += chain;
	if (bcDot(bcSub(B->v, A->v), n) < 0.0) {
		bcVec3 va, vb;
		bcElasticResponse(A->v, A->mass, B->v, B->mass, n, chain ? 1.0 : sim->restitution, &va, &vb);
		A->v = va;
		B->v = vb;
	}
	/* The rest guard for pairs: balls whose accelerations press them
	 * together and that part slower than the rest speed would meet again
	 * at once, ever faster. They are pushed apart at the rest speed, the
	 * momentum kept: a ball sitting on another hops on it. */
	double an = bcDot(bcSub(B->a, A->a), n);
	double u = bcDot(bcSub(B->v, A->v), n);
	double reach = A->radius + B->radius > 0.0 ? A->radius + B->radius : A->reach;
	double uRest = sqrt(2.0 * BC_SIM_REST_FRACTION * reach * -an);
	if (!chain && an < 0.0 && u < uRest && !(isinf(A->mass) && isinf(B->mass))) {
		double shareA = 1.0 / (A->mass / B->mass + 1.0);
		double shareB = 1.0 / (B->mass / A->mass + 1.0);
		A->v = bcMulAdd(A->v, -shareA * (uRest - u), n);
		B->v = bcMulAdd(B->v, shareB * (uRest - u), n);
	}
	releaseSupports(sim, A);
	releaseSupports(sim, B);
	if (isJammed(A)) {
		stopBall(A);
		sim->jams += 1;
	}
	if (isJammed(B)) {
		stopBall(B);
		sim->jams += 1;
	}
	e.velocityAfter = A->v;
	e.otherVelocityAfter = B->v;
	e.motion = A->motion;
	e.otherMotion = B->motion;
	refresh(sim, lo, hi);
	return e;
}

static bcSimEvent horizonEvent(bcSimulation* sim)
{
	if (sim->horizonNext >= sim->ballCount) {
		return blankEvent(bc_simFinished, sim->horizon);
	}
	int i = sim->horizonNext++;
	bcSimBall* b = sim->balls + i;
	bcSimEvent e = blankEvent(bc_simEvent, sim->horizon);
	e.kind = bc_simKindHorizon;
	e.ball = i;
	double s = sim->horizon - b->t;
	e.position = offsetPosition(b, s);
	e.velocityBefore = e.velocityAfter = offsetVelocity(b, s);
	e.motion = b->motion;
	e.index = sim->events++;
	return e;
}

bcSimEvent bcSimulation_Advance(bcSimulation* sim, double time)
{
	if (sim->tooMany) {
		return blankEvent(bc_simTooManyEvents, sim->time);
	}
	if (sim->horizonNext >= 0) {
		return time >= sim->horizon ? horizonEvent(sim) : blankEvent(bc_simReached, sim->time);
	}
	double next = INFINITY;
	int ball = -1;
	bool pair = false;
	for (int i = 0; i < sim->ballCount; ++i) {
		const bcSimBall* b = sim->balls + i;
		if (b->mesh.kind != bc_predictNone && b->mesh.time < next) {
			next = b->mesh.time;
			ball = i;
			pair = false;
		}
		if (b->partner >= 0 && b->pairTime < next) {
			next = b->pairTime;
			ball = i;
			pair = true;
		}
	}
	if (ball < 0 || next > sim->horizon) {
		if (time >= sim->horizon) {
			sim->time = sim->horizon;
			sim->horizonNext = 0;
			return horizonEvent(sim);
		}
		sim->time = time > sim->time ? time : sim->time;
		return blankEvent(bc_simReached, sim->time);
	}
	if (!(next <= time)) {
		sim->time = time > sim->time ? time : sim->time;
		return blankEvent(bc_simReached, sim->time);
	}
	if (sim->contacts >= sim->maxEvents) {
		sim->tooMany = true;
		return blankEvent(bc_simTooManyEvents, sim->time);
	}
	sim->time = next > sim->time ? next : sim->time;
	bcSimEvent e;
	if (pair) {
		e = ballContact(sim, ball);
	} else if (sim->balls[ball].mesh.kind == bc_predictLeave) {
		e = leaveSupport(sim, ball);
	} else {
		e = meshContact(sim, ball);
	}
	e.index = sim->events++;
	sim->contacts += 1;
	return e;
}

bcSimEvent bcSimulation_Step(bcSimulation* sim)
{
	return bcSimulation_Advance(sim, INFINITY);
}

bcSimBallState bcSimulation_GetBall(const bcSimulation* sim, int index)
{
	bcSimBallState state;
	memset(&state, 0, sizeof state);
	state.supports[0] = state.supports[1] = -1;
	if (sim == NULL || index < 0 || index >= sim->ballCount) {
		return state;
	}
	const bcSimBall* b = sim->balls + index;
	double s = sim->time - b->t;
	state.position = offsetPosition(b, s);
	state.velocity = offsetVelocity(b, s);
	state.acceleration = b->a;
	state.motion = b->motion;
	state.supportCount = b->supportCount;
	for (int k = 0; k < b->supportCount; ++k) {
		state.supports[k] = b->supports[k].triangle;
	}
	return state;
}

bcSimulationInfo bcSimulation_GetInfo(const bcSimulation* sim)
{
	bcSimulationInfo info = { sim->time, sim->events, sim->casts, sim->pairTests, sim->chainEvents, sim->jams,
							  sim->ballCount };
	return info;
}

const char* bcSimEventKindName(bcSimEventKind kind)
{
	switch (kind) {
	case bc_simKindMesh:
		return "mesh";
	case bc_simKindBall:
		return "ball";
	case bc_simKindRest:
		return "rest";
	case bc_simKindLeave:
		return "leave";
	case bc_simKindHorizon:
		return "horizon";
	}
	return "none";
}

const char* bcSimMotionName(bcSimMotion motion)
{
	switch (motion) {
	case bc_simFlying:
		return "flying";
	case bc_simSliding:
		return "sliding";
	case bc_simStopped:
		return "stopped";
	}
	return "none";
}
