/* simulate.c tests: balls bouncing around a mesh, event by event. Hand
 * computed runs (a drop under gravity, a run off a ledge, a head-on pair),
 * conservation laws over thousands of bounces, agreement with bcMesh_Cast
 * and with an independent search along the parabola, the guards that end
 * infinite event loops, and the errors. */
#include <string.h>

#include "harness.h"
#include "meshgen.h"
#include "simulate.h"
#include "vec3.h"

/* Distances at samples may fall below r by rounding and by the tangent
 * tolerance (1e-12 of the length slid along a surface): 1e-9 of a unit
 * scene is far above both and far below any real penetration. */
#define PENETRATION_TOLERANCE 1e-9

/* Kinetic energy with e = 1 and no gravity: each bounce rounds |v|^2 by a
 * few ulps; thousands of bounces stay far below 1e-9. */
#define ENERGY_TOLERANCE 1e-9

/* ------------------------------------------------------------- meshes */

/* A square floor [-s, s]^2 at z = 0 in two triangles, front +z. */
static bcMesh* makeFloor(double s)
{
	const double v[] = { -s, -s, 0, s, -s, 0, s, s, 0, -s, s, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcMeshDef def = { v, 4, t, 2, NULL, 0 };
	return bcMesh_Create(&def, NULL);
}

/* A closed room (inward) with a crate (outward) on its floor: faces,
 * edges and vertices to bounce off. */
static bcMesh* makeRoom(void)
{
	bcGenMesh g = { 0 };
	bcGenBox(&g, bcMakeVec3(0, 0, 0), bcMakeVec3(8, 6, 3), 2, 1);
	bcGenBox(&g, bcMakeVec3(2, 2, 0), bcMakeVec3(3.5, 3, 1), 1, 0);
	bcMesh* mesh = bcGenMesh_Build(&g);
	bcGenMesh_Free(&g);
	return mesh;
}

/* The smallest distance from p to any triangle (brute force, both sides). */
static double meshDistance(const bcMesh* mesh, bcVec3 p)
{
	bcMeshInfo info = bcMesh_GetInfo(mesh);
	double best = INFINITY;
	for (int32_t t = 0; t < info.triangleCount; ++t) {
		bcTriangle tri = bcMesh_GetTriangle(mesh, t);
		if (tri.degenerate) {
			continue;
		}
		bcClosestPoint cp = bcClosestPointTriangle(p, bcMesh_GetVertex(mesh, tri.vertices[0]),
												   bcMesh_GetVertex(mesh, tri.vertices[1]),
												   bcMesh_GetVertex(mesh, tri.vertices[2]));
		best = cp.distance < best ? cp.distance : best;
	}
	return best;
}

static bool insideCrate(bcVec3 p, double r)
{
	return p.x > 2 - r && p.x < 3.5 + r && p.y > 2 - r && p.y < 3 + r && p.z < 1 + r;
}

/* count balls placed at random in the room, clear of the mesh and of each
 * other, moving at up to speed. */
static void randomBalls(const bcMesh* mesh, uint64_t seed, bcSimBallDef* balls, int count, double speed)
{
	bcRandom rng = { seed };
	int k = 0;
	while (k < count) {
		bcSimBallDef b;
		b.radius = bcRandom_Uniform(&rng, 0.05, 0.3);
		b.mass = bcRandom_Uniform(&rng, 0.5, 3.0);
		b.position = bcRandom_InBox(&rng, bcMakeVec3(0.35, 0.35, 0.35), bcMakeVec3(7.65, 5.65, 2.65));
		/* One draw per statement: the order of a call's arguments is the
		 * compiler's, and the balls must not depend on it. */
		double v = bcRandom_Uniform(&rng, 0.5, speed);
		b.velocity = bcScale(v, bcRandom_OnSphere(&rng));
		bool ok = !insideCrate(b.position, b.radius) && meshDistance(mesh, b.position) > 1.01 * b.radius;
		for (int j = 0; ok && j < k; ++j) {
			ok = bcDistance(balls[j].position, b.position) > balls[j].radius + b.radius;
		}
		if (ok) {
			balls[k++] = b;
		}
	}
}

static bcSimulation* create(const bcMesh* mesh, const bcSimBallDef* balls, int count, bcVec3 gravity, double e,
							double horizon)
{
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = count;
	def.gravity = gravity;
	def.restitution = e;
	def.horizon = horizon;
	bcError error;
	bcSimulation* sim = bcSimulation_Create(mesh, &def, &error);
	ck_assert_msg(sim != NULL, "create: %s", error.message);
	return sim;
}

static double kineticEnergy(const bcSimulation* sim, const bcSimBallDef* balls, int count)
{
	double energy = 0.0;
	for (int i = 0; i < count; ++i) {
		bcVec3 v = bcSimulation_GetBall(sim, i).velocity;
		energy += 0.5 * balls[i].mass * bcDot(v, v);
	}
	return energy;
}

/* ------------------------------------------------------ hand computed */

START_TEST(drop_on_floor_is_hand_computed)
{
	/* r = 0.5 dropped from centre height 2.5 (2 above contact) with g = 10:
	 * first impact at sqrt(2 h / g) = sqrt(0.4) at speed sqrt(2 g h) =
	 * sqrt(40); every bounce keeps e of the speed and flies 2 u / g. The
	 * ball rests at the first bounce whose rebound u' = e u would rise
	 * u'^2 / (2 g) <= BC_SIM_REST_FRACTION r. */
	bcMesh* mesh = makeFloor(10);
	const double r = 0.5, g = 10.0, e = 0.5, h = 2.0;
	bcSimBallDef ball = { { 0.25, -0.125, h + r }, { 0, 0, 0 }, r, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -g), e, 5);
	double t = sqrt(2.0 * h / g), u = sqrt(2.0 * g * h);
	int bounce = 0;
	for (;;) {
		bcSimEvent ev = bcSimulation_Step(sim);
		ck_assert_int_eq(ev.state, bc_simEvent);
		bool rests = (e * u) * (e * u) <= 2.0 * BC_SIM_REST_FRACTION * r * g;
		ck_assert_int_eq(ev.kind, rests ? bc_simKindRest : bc_simKindMesh);
		ck_assert_int_eq(ev.ball, 0);
		ck_assert_int_eq(ev.feature, bc_featureFace);
		bcAssertNear(ev.time, t, 4e-16 * (1 + bounce));
		bcAssertVecNear(ev.normal, 0, 0, 1, 0);
		bcAssertVecNear(ev.point, 0.25, -0.125, 0, 0);
		bcAssertVecNear(ev.position, 0.25, -0.125, r, 4e-16);
		bcAssertNear(ev.velocityBefore.z, -u, 4e-15 * (1 + bounce));
		bcAssertNear(ev.velocityBefore.x, 0, 0);
		if (rests) {
			bcAssertVecNear(ev.velocityAfter, 0, 0, 0, 0);
			ck_assert_int_eq(ev.motion, bc_simSliding);
			break;
		}
		/* The rebound keeps e of the speed, to the rounding of one bounce. */
		bcAssertNear(ev.velocityAfter.z, -e * ev.velocityBefore.z, 1e-15 * u);
		ck_assert_int_eq(ev.motion, bc_simFlying);
		u *= e;
		t += 2.0 * u / g;
		bounce += 1;
	}
	/* From e = 0.5, sqrt(40) and r = 0.5: bounces rise 0.5, 0.125, ... and
	 * 2 * 0.25^5 = 0.00195 > 0.0005 >= 2 * 0.25^6: five bounces, then rest. */
	ck_assert_int_eq(bounce, 5);
	bcSimEvent end = bcSimulation_Step(sim);
	ck_assert_int_eq(end.kind, bc_simKindHorizon);
	bcAssertNear(end.time, 5, 0);
	/* At rest just above the floor (the lift), sliding with no velocity. */
	bcAssertNear(end.position.z, r, 2 * BC_SIM_GAP_FRACTION * r);
	ck_assert(end.position.z >= r);
	bcAssertVecNear(end.velocityAfter, 0, 0, 0, 0);
	ck_assert_int_eq(bcSimulation_Step(sim).state, bc_simFinished);
	ck_assert_int_eq(bcSimulation_Step(sim).state, bc_simFinished);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(elastic_bounces_keep_their_height)
{
	/* e = 1 under gravity: every bounce returns to the drop height; the
	 * period is 2 sqrt(2 h / g). */
	bcMesh* mesh = makeFloor(10);
	const double r = 0.25, g = 9.81, h = 1.5;
	bcSimBallDef ball = { { 0, 0, h + r }, { 0, 0, 0 }, r, 2 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -g), 1.0, 20);
	double period = 2.0 * sqrt(2.0 * h / g);
	int bounces = 0;
	for (bcSimEvent ev = bcSimulation_Step(sim); ev.kind == bc_simKindMesh; ev = bcSimulation_Step(sim)) {
		bcAssertNear(ev.time, (bounces + 0.5) * period, 1e-13 * (bounces + 1));
		bcAssertNear(ev.velocityAfter.z, sqrt(2.0 * g * h), 1e-12);
		bounces += 1;
	}
	ck_assert_int_eq(bounces, (int)(20 / period + 0.5));
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(head_on_pair_is_hand_computed)
{
	/* Seed 002 (8): masses 1 and 3, r = 0.5, centres 4 apart closing at 5:
	 * they touch at t = 3 / 5; with e = 0.7, s = 4, t = -1:
	 * s' = 4 + 1.7 * 3 * (-5) / 4 = -2.375, t' = -1 + 1.7 * 1 * 5 / 4 = 1.125.
	 * No gravity, the floor far below. */
	bcMesh* mesh = makeFloor(100);
	bcSimBallDef balls[2] = { { { 0, 0, 50 }, { 4, 0, 0 }, 0.5, 1 }, { { 4, 0, 50 }, { -1, 0, 0 }, 0.5, 3 } };
	bcSimulation* sim = create(mesh, balls, 2, bcMakeVec3(0, 0, 0), 0.7, 1);
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindBall);
	ck_assert_int_eq(ev.ball, 0);
	ck_assert_int_eq(ev.other, 1);
	bcAssertNear(ev.time, 0.6, 1e-16);
	bcAssertVecNear(ev.normal, 1, 0, 0, 0);
	bcAssertVecNear(ev.point, 2.9, 0, 50, 1e-15);
	bcAssertVecNear(ev.velocityAfter, -2.375, 0, 0, 1e-15);
	bcAssertVecNear(ev.otherVelocityAfter, 1.125, 0, 0, 1e-15);
	/* Momentum 4 - 3 = 1 before and -2.375 + 3.375 = 1 after. */
	bcAssertNear(ev.velocityAfter.x + 3 * ev.otherVelocityAfter.x, 1.0, 1e-15);
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindHorizon);
	bcAssertVecNear(ev.position, 2.4 - 2.375 * 0.4, 0, 50, 1e-15);
	ev = bcSimulation_Step(sim);
	bcAssertVecNear(ev.position, 3.4 + 1.125 * 0.4, 0, 50, 1e-15);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(no_gravity_bounce_is_exact)
{
	/* r = 0.5 from (0, 0, 2) at (1, 0, -3): the centre reaches z = 0.5 at
	 * t = 0.5, exactly, at (0.5, 0, 0.5), and leaves at (1, 0, 3). */
	bcMesh* mesh = makeFloor(10);
	bcSimBallDef ball = { { 0, 0, 2 }, { 1, 0, -3 }, 0.5, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, 0), 1.0, 1);
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindMesh);
	ck_assert(ev.time == 0.5);
	ck_assert(ev.position.x == 0.5 && ev.position.y == 0 && ev.position.z == 0.5);
	ck_assert(ev.velocityAfter.x == 1 && ev.velocityAfter.y == 0 && ev.velocityAfter.z == 3);
	ck_assert_int_eq(ev.triangle, 0);
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindHorizon);
	ck_assert(ev.position.x == 1 && ev.position.z == 2);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

/* A ledge: the platform z = 1 for x <= 0, its step face at x = 0 (front
 * +x), the floor z = 0 for x >= 0; y in [-5, 5]. */
static bcMesh* makeLedge(void)
{
	const double v[] = { -10, -5, 1, 0, -5, 1, 0, 5, 1, -10, 5, 1, /* platform */
						 0, -5, 0, 10, -5, 0, 10, 5, 0, 0, 5, 0 };   /* floor */
	const int32_t t[] = { 0, 1, 2, 0, 2, 3,  /* platform, +z */
						  4, 5, 6, 4, 6, 7,  /* floor, +z */
						  4, 7, 2, 4, 2, 1 }; /* step at x = 0, +x */
	bcMeshDef def = { v, 8, t, 6, NULL, 0 };
	return bcMesh_Create(&def, NULL);
}

START_TEST(slide_off_a_ledge_is_hand_computed)
{
	/* A ball resting on the platform slides at 2 m/s (frictionless) and runs
	 * off its edge when its centre passes x = 0, at t = 1.5 (to within the
	 * support tolerance's sqrt(2 r delta)); faster than sqrt(r g) it clears
	 * the edge and lands on the floor sqrt(2 * 1 / g) later, 2 sqrt(0.2)
	 * further on. */
	bcMesh* mesh = makeLedge();
	const double r = 0.25, g = 10.0;
	bcSimBallDef ball = { { -3, 0, 1 + r }, { 2, 0, 0 }, r, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -g), 0.5, 3);
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindRest);
	bcAssertNear(ev.time, 0, 0);
	ck_assert_int_eq(ev.motion, bc_simSliding);
	bcAssertVecNear(ev.velocityAfter, 2, 0, 0, 0);
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindLeave);
	ck_assert_int_eq(ev.motion, bc_simFlying);
	ck_assert_msg(ev.triangle == 0 || ev.triangle == 1, "left triangle %d", ev.triangle);
	bcAssertNear(ev.time, 1.5, 1e-4);
	ck_assert(ev.position.x >= 0.0);
	double leave = ev.time;
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindMesh);
	ck_assert(ev.triangle == 2 || ev.triangle == 3);
	bcAssertNear(ev.time, leave + sqrt(0.2), 1e-12);
	bcAssertNear(ev.position.x, 2 * (leave - 1.5) + 2 * sqrt(0.2), 1e-12);
	bcAssertNear(ev.velocityBefore.z, -sqrt(20.0), 1e-12);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ----------------------------------------------------------- the guards */

START_TEST(resting_from_the_start)
{
	/* Touching the floor at rest under gravity: a rest at time 0, then
	 * nothing until the horizon. With e = 0 a falling ball rests at once. */
	bcMesh* mesh = makeFloor(20);
	bcSimBallDef balls[2] = { { { 0, 0, 0.5 }, { 0, 0, 0 }, 0.5, 1 }, { { 3, 0, 2 }, { 1, 0, 0 }, 0.5, 1 } };
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = 2;
	def.gravity = bcMakeVec3(0, 0, -10);
	def.restitution = 0;
	def.horizon = 10;
	bcSimulation* sim = bcSimulation_Create(mesh, &def, NULL);
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindRest);
	ck_assert_int_eq(ev.ball, 0);
	bcAssertNear(ev.time, 0, 0);
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindRest);
	ck_assert_int_eq(ev.ball, 1);
	bcAssertNear(ev.time, sqrt(0.3), 1e-15);
	bcAssertVecNear(ev.velocityAfter, 1, 0, 0, 0);
	ck_assert_int_eq(bcSimulation_Step(sim).kind, bc_simKindHorizon);
	ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindHorizon);
	/* Slid on at 1 m/s since the rest. */
	bcAssertNear(ev.position.x, 3 + 10, 1e-12);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(zeno_bounces_end_in_a_rest)
{
	/* e = 0.95 from 2 m: infinitely many bounces in a finite time, cut
	 * after ln(f r / h) / (2 ln e) of them. */
	bcMesh* mesh = makeFloor(10);
	const double r = 0.2, e = 0.95, h = 2.0;
	bcSimBallDef ball = { { 0, 0, h + r }, { 0, 0, 0 }, r, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -9.81), e, 1000);
	int events = 0;
	bcSimEvent ev;
	while ((ev = bcSimulation_Step(sim)).state == bc_simEvent && ev.kind != bc_simKindRest) {
		events += 1;
	}
	ck_assert_int_eq(ev.kind, bc_simKindRest);
	int expected = (int)ceil(log(BC_SIM_REST_FRACTION * r / h) / (2.0 * log(e)));
	ck_assert_msg(abs(events + 1 - expected) <= 1, "%d bounces, expected about %d", events + 1, expected);
	/* A total time below the geometric series' sum. */
	double fall = sqrt(2 * h / 9.81);
	ck_assert(ev.time < fall * (1 + 2 * e / (1 - e)));
	ck_assert_int_eq(bcSimulation_Step(sim).kind, bc_simKindHorizon);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(wedge_ends_on_the_crease)
{
	/* Two planes at +-45 degrees meeting along the y axis (a V groove); a
	 * ball dropped off-centre bounces from side to side, rests on one side,
	 * slides into the other and ends on both, at the bottom: its centre at
	 * r sqrt(2) above the crease, moving only along it. */
	const double v[] = { -5, -5, 5, 0, -5, 0, 0, 5, 0, -5, 5, 5, 0, -5, 0, 5, -5, 5, 5, 5, 5, 0, 5, 0 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 };
	bcMeshDef def = { v, 8, t, 4, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	const double r = 0.3;
	bcSimBallDef ball = { { 0.7, 0, 3 }, { 0, 0.2, 0 }, r, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -9.81), 0.6, 8);
	int events = 0;
	bcSimEvent ev;
	while ((ev = bcSimulation_Step(sim)).state == bc_simEvent && ev.kind != bc_simKindHorizon) {
		events += 1;
	}
	ck_assert_int_lt(events, 2000);
	bcSimBallState state = bcSimulation_GetBall(sim, 0);
	ck_assert_int_eq(state.motion, bc_simSliding);
	ck_assert_int_eq(state.supportCount, 2);
	bcAssertNear(state.position.x, 0, 1e-9);
	bcAssertNear(state.position.z, r * sqrt(2.0), 1e-9);
	bcAssertNear(state.velocity.x, 0, 1e-12);
	bcAssertNear(state.velocity.z, 0, 1e-12);
	bcAssertNear(state.velocity.y, 0.2, 1e-12);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(stacked_balls_end)
{
	/* A ball dropped on one resting on the floor: the pair's rest guard
	 * (hops) and the mesh's end the run well before the event limit, and no
	 * ball ever overlaps another or the floor. */
	bcMesh* mesh = makeFloor(10);
	bcSimBallDef balls[2] = { { { 0, 0, 0.5 }, { 0, 0, 0 }, 0.5, 1 }, { { 0.05, 0, 2.5 }, { 0, 0, 0 }, 0.5, 1 } };
	bcSimulation* sim = create(mesh, balls, 2, bcMakeVec3(0, 0, -9.81), 0.5, 6);
	long events = 0;
	for (int k = 0; k < 600; ++k) {
		bcSimEvent ev;
		while ((ev = bcSimulation_Advance(sim, k * 0.01)).state == bc_simEvent) {
			events += 1;
		}
		ck_assert_int_eq(ev.state, bc_simReached);
		bcVec3 a = bcSimulation_GetBall(sim, 0).position, b = bcSimulation_GetBall(sim, 1).position;
		ck_assert(bcDistance(a, b) >= 1 - PENETRATION_TOLERANCE);
		ck_assert(a.z >= 0.5 - PENETRATION_TOLERANCE && b.z >= 0.5 - PENETRATION_TOLERANCE);
	}
	ck_assert_int_lt(events, 20000);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(max_events_stops_the_run)
{
	bcMesh* mesh = makeRoom();
	bcSimBallDef balls[4];
	randomBalls(mesh, 11, balls, 4, 4);
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = 4;
	def.horizon = 1000;
	def.maxEvents = 10;
	bcSimulation* sim = bcSimulation_Create(mesh, &def, NULL);
	for (int k = 0; k < 10; ++k) {
		bcSimEvent ev = bcSimulation_Step(sim);
		ck_assert_int_eq(ev.state, bc_simEvent);
		ck_assert_int_eq(ev.index, k);
	}
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.state, bc_simTooManyEvents);
	ck_assert_int_eq(bcSimulation_Step(sim).state, bc_simTooManyEvents);
	ck_assert_int_eq(bcSimulation_Advance(sim, 2000).state, bc_simTooManyEvents);
	ck_assert_int_eq(bcSimulation_GetInfo(sim).events, 10);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

/* ---------------------------------------------------------- properties */

START_TEST(closed_room_conserves_energy_and_keeps_balls_in)
{
	/* e = 1, no gravity: thousands of bounces off faces, edges and vertices
	 * of the room and the crate and off each other. Kinetic energy is kept
	 * to 1e-9 at every event; at every sample every ball is inside the
	 * room, outside the crate, and at least r from every triangle (an
	 * independent brute-force distance). */
	bcMesh* mesh = makeRoom();
	enum { count = 12 };
	bcSimBallDef balls[count];
	randomBalls(mesh, 5, balls, count, 4);
	bcSimulation* sim = create(mesh, balls, count, bcMakeVec3(0, 0, 0), 1.0, 200);
	double e0 = 0.0;
	for (int i = 0; i < count; ++i) {
		e0 += 0.5 * balls[i].mass * bcDot(balls[i].velocity, balls[i].velocity);
	}
	long counts[5] = { 0 };
	int features[4] = { 0 };
	for (int k = 0; k < 800; ++k) {
		bcSimEvent ev;
		while ((ev = bcSimulation_Advance(sim, k * 0.25)).state == bc_simEvent) {
			counts[ev.kind] += 1;
			features[ev.feature] += 1;
			double energy = kineticEnergy(sim, balls, count);
			ck_assert_msg(fabs(energy - e0) <= ENERGY_TOLERANCE * e0, "event %lld: energy %.17g, was %.17g", ev.index,
						  energy, e0);
		}
		for (int i = 0; i < count; ++i) {
			bcVec3 p = bcSimulation_GetBall(sim, i).position;
			double r = balls[i].radius;
			ck_assert(p.x >= r - PENETRATION_TOLERANCE && p.x <= 8 - r + PENETRATION_TOLERANCE);
			ck_assert(p.y >= r - PENETRATION_TOLERANCE && p.y <= 6 - r + PENETRATION_TOLERANCE);
			ck_assert(p.z >= r - PENETRATION_TOLERANCE && p.z <= 3 - r + PENETRATION_TOLERANCE);
			ck_assert_msg(meshDistance(mesh, p) >= r - PENETRATION_TOLERANCE, "ball %d at %g: %.17g < r %.17g", i,
						  k * 0.25, meshDistance(mesh, p), r);
		}
	}
	ck_assert_int_gt(counts[bc_simKindMesh], 2000);
	ck_assert_int_gt(counts[bc_simKindBall], 100);
	ck_assert_int_eq(counts[bc_simKindRest] + counts[bc_simKindLeave], 0);
	ck_assert_int_gt(features[bc_featureEdge] + features[bc_featureVertex], 0);
	bcSimulationInfo info = bcSimulation_GetInfo(sim);
	ck_assert_int_eq(info.chainEvents, 0);
	ck_assert_int_eq(info.jams, 0);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(pairs_conserve_momentum)
{
	/* Random glancing pairs in empty space (a far floor), random masses
	 * and e: momentum is kept to rounding, energy never grows and drops by
	 * (1 - e^2) times the normal part's share, as the course slides' formulas say. */
	bcMesh* mesh = makeFloor(1);
	bcRandom rng = { 21 };
	for (int k = 0; k < 200; ++k) {
		/* Ball 1 starts 5 away along a random direction D and comes back,
		 * relative to ball 0, towards a point beside ball 0's centre, at
		 * less than r1 + r2 off it: they meet, at a random slant. */
		bcSimBallDef balls[2];
		balls[0].position = bcMakeVec3(0, 0, 100);
		balls[0].radius = bcRandom_Uniform(&rng, 0.1, 1);
		balls[1].radius = bcRandom_Uniform(&rng, 0.1, 1);
		double R = balls[0].radius + balls[1].radius;
		bcVec3 D = bcScale(5, bcRandom_OnSphere(&rng));
		bcVec3 side = bcNormalize(bcCross(D, bcRandom_OnSphere(&rng)));
		bcVec3 aim = bcScale(R * bcRandom_Uniform(&rng, 0.0, 0.99), side);
		balls[1].position = bcAdd(balls[0].position, D);
		double speed = bcRandom_Uniform(&rng, 0.1, 2);
		balls[0].velocity = bcScale(speed, bcRandom_OnSphere(&rng));
		bcVec3 toward = bcNormalize(bcSub(aim, D));
		balls[1].velocity = bcMulAdd(balls[0].velocity, bcRandom_Uniform(&rng, 0.5, 3), toward);
		balls[0].mass = bcRandom_Uniform(&rng, 0.1, 10);
		balls[1].mass = bcRandom_Uniform(&rng, 0.1, 10);
		double e = bcRandom_Uniform(&rng, 0, 1);
		bcSimulation* sim = create(mesh, balls, 2, bcMakeVec3(0, 0, 0), e, 10);
		bcSimEvent ev = bcSimulation_Step(sim);
		ck_assert_int_eq(ev.kind, bc_simKindBall);
		bcVec3 p0 = bcAdd(bcScale(balls[0].mass, ev.velocityBefore), bcScale(balls[1].mass, ev.otherVelocityBefore));
		bcVec3 p1 = bcAdd(bcScale(balls[0].mass, ev.velocityAfter), bcScale(balls[1].mass, ev.otherVelocityAfter));
		double scale = bcLength(bcScale(balls[0].mass, ev.velocityBefore)) +
					   bcLength(bcScale(balls[1].mass, ev.otherVelocityBefore));
		ck_assert_msg(bcDistance(p0, p1) <= 1e-14 * scale, "pair %d: momentum changed by %g", k, bcDistance(p0, p1));
		/* Centres near 100: their rounding is 1e-14. */
		bcAssertNear(bcDistance(ev.position, ev.otherPosition), R, 1e-13);
		/* Energy: the loss is (1 - e^2) m1 m2 / (m1 + m2) (dv.n)^2 / 2. */
		double m1 = balls[0].mass, m2 = balls[1].mass;
		double before = 0.5 * m1 * bcDot(ev.velocityBefore, ev.velocityBefore) +
						0.5 * m2 * bcDot(ev.otherVelocityBefore, ev.otherVelocityBefore);
		double after = 0.5 * m1 * bcDot(ev.velocityAfter, ev.velocityAfter) +
					   0.5 * m2 * bcDot(ev.otherVelocityAfter, ev.otherVelocityAfter);
		double dn = bcDot(bcSub(ev.otherVelocityBefore, ev.velocityBefore), ev.normal);
		double loss = 0.5 * (1 - e * e) * m1 * m2 / (m1 + m2) * dn * dn;
		bcAssertNear(before - after, loss, 1e-13 * before);
		bcSimulation_Destroy(sim);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(without_gravity_contacts_are_bcMesh_Cast)
{
	/* One ball, no gravity: its first event is bcMesh_Cast's answer over
	 * the horizon, to the bit, whenever the cast is unambiguous. */
	bcMesh* mesh = makeRoom();
	bcRandom rng = { 8 };
	int compared = 0;
	for (int k = 0; k < 300; ++k) {
		bcSimBallDef ball;
		randomBalls(mesh, 100 + (uint64_t)k, &ball, 1, 5);
		const double H = 3;
		bcCastInput in = { ball.position, bcMulAdd(ball.position, H, ball.velocity), ball.radius };
		bcCastOutput cast = bcMesh_Cast(mesh, in, NULL);
		if (cast.state != bc_castHit || cast.tieCount != 1) {
			continue;
		}
		bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, 0), bcRandom_Uniform(&rng, 0, 1), H);
		bcSimEvent ev = bcSimulation_Step(sim);
		ck_assert_int_eq(ev.kind, bc_simKindMesh);
		ck_assert_msg(ev.time == cast.alpha * H, "throw %d: %.17g vs %.17g", k, ev.time, cast.alpha * H);
		ck_assert_int_eq(ev.triangle, cast.triangle);
		ck_assert_int_eq(ev.feature, cast.feature);
		ck_assert(memcmp(ev.vertices, cast.vertices, sizeof ev.vertices) == 0);
		/* The event's centre is p + v t, the cast's p0 + alpha (p1 - p0): the
		 * same to a rounding of the coordinates (1e-15 here), which an edge
		 * or vertex normal divides by r (at least 0.05). */
		bcVec3 centre = bcMulAdd(ball.position, ev.time, ball.velocity);
		ck_assert(memcmp(&ev.position, &centre, sizeof centre) == 0);
		bcAssertVecNear(ev.position, cast.center.x, cast.center.y, cast.center.z, 1e-15);
		bcAssertVecNear(ev.normal, cast.normal.x, cast.normal.y, cast.normal.z, 1e-13);
		bcSimulation_Destroy(sim);
		compared += 1;
	}
	ck_assert_int_gt(compared, 250);
	bcMesh_Destroy(mesh);
}
END_TEST

/* The first time in [0, horizon] a ball thrown from p at v under gravity g
 * touches the mesh (both sides), found independently: the parabola
 * sampled every 1e-3 s with brute-force distances, the first crossing
 * bisected to 1e-15 s. */
static double referenceContact(const bcMesh* mesh, bcVec3 p, bcVec3 v, bcVec3 g, double r, double horizon)
{
	double step = 1e-3;
	double lo = 0.0;
	for (double t = step; t <= horizon; t += step) {
		bcVec3 c = bcMulAdd(bcMulAdd(p, t, v), 0.5 * t * t, g);
		if (meshDistance(mesh, c) <= r) {
			double hi = t;
			while (hi - lo > 1e-15) {
				double mid = 0.5 * (lo + hi);
				bcVec3 m = bcMulAdd(bcMulAdd(p, mid, v), 0.5 * mid * mid, g);
				if (meshDistance(mesh, m) <= r) {
					hi = mid;
				} else {
					lo = mid;
				}
			}
			return hi;
		}
		lo = t;
	}
	return INFINITY;
}

START_TEST(gravity_contacts_match_an_independent_search)
{
	bcMesh* mesh = makeRoom();
	const bcVec3 g = { 0, 0, -9.81 };
	int compared = 0;
	for (int k = 0; k < 40; ++k) {
		bcSimBallDef ball;
		randomBalls(mesh, 500 + (uint64_t)k, &ball, 1, 6);
		const double H = 2;
		double reference = referenceContact(mesh, ball.position, ball.velocity, g, ball.radius, H);
		bcSimulationDef def = bcDefaultSimulationDef();
		def.balls = &ball;
		def.ballCount = 1;
		def.gravity = g;
		def.horizon = H;
		def.twoSided = true;
		bcSimulation* sim = bcSimulation_Create(mesh, &def, NULL);
		bcSimEvent ev = bcSimulation_Step(sim);
		if (!isfinite(reference)) {
			ck_assert_int_eq(ev.kind, bc_simKindHorizon);
		} else {
			ck_assert_int_ne(ev.kind, bc_simKindHorizon);
			/* The sampled search can miss a graze shorter than its step. */
			ck_assert_msg(ev.time <= reference + 1e-12, "throw %d: %.17g after the reference %.17g", k, ev.time,
						  reference);
			if (reference - ev.time > 1e-9) {
				/* Earlier than the samples saw: it must be a real touch. */
				bcAssertNear(meshDistance(mesh, ev.position), ball.radius, 1e-12);
			} else {
				compared += 1;
			}
			bcAssertNear(meshDistance(mesh, ev.position), ball.radius, 1e-12);
			bcVec3 expected = bcMulAdd(bcMulAdd(ball.position, ev.time, ball.velocity), 0.5 * ev.time * ev.time, g);
			bcAssertVecNear(ev.position, expected.x, expected.y, expected.z, 1e-13);
		}
		bcSimulation_Destroy(sim);
	}
	ck_assert_int_gt(compared, 30);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(gravity_room_never_penetrates_and_ends)
{
	/* Many balls, gravity, e from 0 to 0.9: every run reaches its horizon
	 * well within the event limit, and at every sample every ball is at
	 * least r from the mesh and r1 + r2 from every other ball. */
	bcMesh* mesh = makeRoom();
	enum { count = 16 };
	const double restitutions[4] = { 0.0, 0.3, 0.7, 0.9 };
	for (int run = 0; run < 4; ++run) {
		bcSimBallDef balls[count];
		randomBalls(mesh, 40 + (uint64_t)run, balls, count, 4);
		bcSimulationDef def = bcDefaultSimulationDef();
		def.balls = balls;
		def.ballCount = count;
		def.gravity = bcMakeVec3(0, 0, -9.81);
		def.restitution = restitutions[run];
		def.horizon = 8;
		def.twoSided = true;
		bcSimulation* sim = bcSimulation_Create(mesh, &def, NULL);
		ck_assert_ptr_nonnull(sim);
		long rests = 0;
		for (int k = 0; k < 80; ++k) {
			bcSimEvent ev;
			while ((ev = bcSimulation_Advance(sim, k * 0.1)).state == bc_simEvent) {
				rests += ev.kind == bc_simKindRest;
			}
			ck_assert_int_eq(ev.state, bc_simReached);
			for (int i = 0; i < count; ++i) {
				bcVec3 p = bcSimulation_GetBall(sim, i).position;
				ck_assert_msg(meshDistance(mesh, p) >= balls[i].radius - PENETRATION_TOLERANCE,
							  "run %d ball %d t %g: %.17g < %.17g", run, i, k * 0.1, meshDistance(mesh, p),
							  balls[i].radius);
				for (int j = 0; j < i; ++j) {
					bcVec3 q = bcSimulation_GetBall(sim, j).position;
					ck_assert(bcDistance(p, q) >= balls[i].radius + balls[j].radius - PENETRATION_TOLERANCE);
				}
			}
		}
		ck_assert_int_gt(rests, 0);
		bcSimEvent ev;
		while ((ev = bcSimulation_Step(sim)).kind != bc_simKindHorizon) {
			ck_assert_int_eq(ev.state, bc_simEvent);
		}
		ck_assert_int_lt(bcSimulation_GetInfo(sim).events, 20000);
		bcSimulation_Destroy(sim);
	}
	bcMesh_Destroy(mesh);
}
END_TEST

/* Two runs' events, bit for bit. */
static void assertSameRuns(bcSimulation* a, bcSimulation* b)
{
	for (;;) {
		bcSimEvent x = bcSimulation_Step(a), y = bcSimulation_Step(b);
		ck_assert(memcmp(&x, &y, sizeof x) == 0);
		if (x.state != bc_simEvent) {
			break;
		}
	}
}

START_TEST(bvh_and_brute_force_agree)
{
	bcMesh* mesh = makeRoom();
	enum { count = 8 };
	bcSimBallDef balls[count];
	randomBalls(mesh, 77, balls, count, 4);
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = count;
	def.gravity = bcMakeVec3(0, 0, -9.81);
	def.restitution = 0.6;
	def.horizon = 4;
	bcSimulation* fast = bcSimulation_Create(mesh, &def, NULL);
	def.bruteForce = true;
	bcSimulation* brute = bcSimulation_Create(mesh, &def, NULL);
	assertSameRuns(fast, brute);
	bcSimulation_Destroy(fast);
	bcSimulation_Destroy(brute);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(point_balls_stay_in_the_room)
{
	/* r = 0: points bounce off faces, and through edges and corners
	 * (watertight), never out. */
	bcMesh* mesh = makeRoom();
	enum { count = 6 };
	bcSimBallDef balls[count];
	bcRandom rng = { 3 };
	for (int i = 0; i < count; ++i) {
		balls[i].position = bcRandom_InBox(&rng, bcMakeVec3(0.5, 0.5, 1.5), bcMakeVec3(7.5, 5.5, 2.5));
		balls[i].velocity = bcScale(3, bcRandom_OnSphere(&rng));
		balls[i].radius = 0;
		balls[i].mass = 1;
	}
	/* One aimed at a corner of the room exactly. */
	balls[0].position = bcMakeVec3(4, 3, 1.5);
	balls[0].velocity = bcMakeVec3(4, 3, 1.5);
	bcSimulation* sim = create(mesh, balls, count, bcMakeVec3(0, 0, 0), 1.0, 30);
	bcSimEvent ev;
	while ((ev = bcSimulation_Step(sim)).ball != 0) {
	}
	/* Into the corner: three faces at once, each turning one component. */
	bcAssertNear(ev.time, 1, 1e-15);
	for (int k = 0; k < 2; ++k) {
		bcSimEvent next = bcSimulation_Step(sim);
		ck_assert_int_eq(next.ball, 0);
		bcAssertNear(next.time, 1, 1e-15);
		ev = next;
	}
	bcAssertVecNear(ev.velocityAfter, -4, -3, -1.5, 1e-15);
	for (int k = 0; k <= 300; ++k) {
		while ((ev = bcSimulation_Advance(sim, k * 0.1)).state == bc_simEvent) {
		}
		for (int i = 0; i < count; ++i) {
			bcVec3 p = bcSimulation_GetBall(sim, i).position;
			ck_assert(p.x >= 0 && p.x <= 8 && p.y >= 0 && p.y <= 6 && p.z >= 0 && p.z <= 3);
			ck_assert(!insideCrate(p, -1e-12));
		}
	}
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(one_sided_and_two_sided)
{
	/* From below the floor (behind it) a ball passes through; two-sided it
	 * bounces. */
	bcMesh* mesh = makeFloor(10);
	bcSimBallDef ball = { { 0, 0, -2 }, { 0, 0, 3 }, 0.5, 1 };
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = &ball;
	def.ballCount = 1;
	def.horizon = 2;
	bcSimulation* sim = bcSimulation_Create(mesh, &def, NULL);
	ck_assert_int_eq(bcSimulation_Step(sim).kind, bc_simKindHorizon);
	bcSimulation_Destroy(sim);
	def.twoSided = true;
	sim = bcSimulation_Create(mesh, &def, NULL);
	bcSimEvent ev = bcSimulation_Step(sim);
	ck_assert_int_eq(ev.kind, bc_simKindMesh);
	bcAssertNear(ev.time, 0.5, 0);
	bcAssertVecNear(ev.normal, 0, 0, -1, 0);
	bcAssertVecNear(ev.velocityAfter, 0, 0, -3, 0);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(advance_reaches_times_between_events)
{
	bcMesh* mesh = makeFloor(10);
	bcSimBallDef ball = { { 0, 0, 2.5 }, { 1, 0, 0 }, 0.5, 1 };
	bcSimulation* sim = create(mesh, &ball, 1, bcMakeVec3(0, 0, -10), 1.0, 1);
	/* Before the impact at sqrt(0.4): on the parabola. */
	bcSimEvent ev = bcSimulation_Advance(sim, 0.25);
	ck_assert_int_eq(ev.state, bc_simReached);
	bcAssertNear(ev.time, 0.25, 0);
	bcSimBallState state = bcSimulation_GetBall(sim, 0);
	bcAssertVecNear(state.position, 0.25, 0, 2.5 - 5 * 0.0625, 1e-15);
	bcAssertVecNear(state.velocity, 1, 0, -2.5, 1e-15);
	bcAssertVecNear(state.acceleration, 0, 0, -10, 0);
	ck_assert_int_eq(state.motion, bc_simFlying);
	/* Earlier than now: nothing moves. */
	ck_assert_int_eq(bcSimulation_Advance(sim, 0.1).state, bc_simReached);
	bcAssertNear(bcSimulation_GetInfo(sim).time, 0.25, 0);
	/* Up to the impact itself: the event first, then the time is reached. */
	double impact = sqrt(0.4);
	ev = bcSimulation_Advance(sim, impact);
	ck_assert_int_eq(ev.state, bc_simEvent);
	ck_assert(ev.time == impact);
	ck_assert_int_eq(bcSimulation_Advance(sim, impact).state, bc_simReached);
	/* Past the horizon: the horizon event, then the end. */
	ck_assert_int_eq(bcSimulation_Advance(sim, 0.9).state, bc_simReached);
	ev = bcSimulation_Advance(sim, 2);
	ck_assert_int_eq(ev.kind, bc_simKindHorizon);
	bcAssertNear(ev.time, 1, 0);
	ck_assert_int_eq(bcSimulation_Advance(sim, 2).state, bc_simFinished);
	ck_assert_int_eq(bcSimulation_GetBall(sim, 5).motion, bc_simFlying);
	bcAssertVecNear(bcSimulation_GetBall(sim, 5).position, 0, 0, 0, 0);
	bcSimulation_Destroy(sim);
	bcMesh_Destroy(mesh);
}
END_TEST

/* --------------------------------------------------------------- errors */

static void expectError(const bcMesh* mesh, const bcSimulationDef* def, long record, const char* text)
{
	bcError error;
	bcSimulation* sim = bcSimulation_Create(mesh, def, &error);
	ck_assert_ptr_null(sim);
	ck_assert_int_ne(error.code, bc_errorNone);
	ck_assert_int_eq(error.record, record);
	ck_assert_msg(strstr(error.message, text) != NULL, "message '%s' lacks '%s'", error.message, text);
}

START_TEST(bad_definitions_are_refused)
{
	bcMesh* mesh = makeFloor(10);
	bcSimBallDef balls[2] = { { { 0, 0, 1 }, { 0, 0, 0 }, 0.5, 1 }, { { 3, 0, 1 }, { 0, 0, 0 }, 0.5, 1 } };
	bcSimulationDef def = bcDefaultSimulationDef();
	def.balls = balls;
	def.ballCount = 2;
	def.horizon = 1;

	balls[1].radius = -0.5;
	expectError(mesh, &def, 1, "balls[1]: radius must be a finite number >= 0");
	balls[1].radius = 0.5;
	balls[1].mass = -1;
	expectError(mesh, &def, 1, "mass must be > 0");
	balls[1].mass = NAN;
	expectError(mesh, &def, 1, "mass must be > 0");
	balls[1].mass = 1;
	balls[0].position.y = INFINITY;
	expectError(mesh, &def, 0, "balls[0]: position and velocity must be finite");
	balls[0].position.y = 0;
	balls[0].velocity.x = 1e300;
	def.horizon = 1e10;
	expectError(mesh, &def, 0, "leaves the range of doubles");
	balls[0].velocity.x = 0;
	def.horizon = 0;
	expectError(mesh, &def, -1, "horizon must be a finite number > 0");
	def.horizon = INFINITY;
	expectError(mesh, &def, -1, "horizon");
	def.horizon = 1;
	def.restitution = 1.5;
	expectError(mesh, &def, -1, "restitution must be in [0, 1]");
	def.restitution = -0.1;
	expectError(mesh, &def, -1, "restitution");
	def.restitution = 1;
	def.gravity.z = NAN;
	expectError(mesh, &def, -1, "gravity must be finite");
	def.gravity.z = 0;

	/* Overlaps at time 0; touching is fine. */
	balls[1].position.z = 0.4;
	expectError(mesh, &def, 1, "balls[1]: overlaps the mesh at time 0 (triangle 0");
	balls[1].position = bcMakeVec3(0.9, 0, 1);
	expectError(mesh, &def, 0, "balls[0]: overlaps balls[1] at time 0");
	balls[1].position = bcMakeVec3(1, 0, 0.5);
	balls[0].position = bcMakeVec3(0, 0, 0.5);
	bcError error;
	bcSimulation* sim = bcSimulation_Create(mesh, &def, &error);
	ck_assert_msg(sim != NULL, "%s", error.message);
	bcSimulation_Destroy(sim);
	ck_assert_ptr_null(bcSimulation_Create(NULL, &def, &error));
	ck_assert_ptr_null(bcSimulation_Create(mesh, NULL, NULL));
	def.ballCount = -1;
	ck_assert_ptr_null(bcSimulation_Create(mesh, &def, NULL));
	/* No balls: the horizon, at once. */
	def.ballCount = 0;
	sim = bcSimulation_Create(mesh, &def, NULL);
	ck_assert_int_eq(bcSimulation_Step(sim).state, bc_simFinished);
	bcSimulation_Destroy(sim);
	bcSimulation_Destroy(NULL);
	bcMesh_Destroy(mesh);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(bcSimEventKindName(bc_simKindMesh), "mesh");
	ck_assert_str_eq(bcSimEventKindName(bc_simKindBall), "ball");
	ck_assert_str_eq(bcSimEventKindName(bc_simKindRest), "rest");
	ck_assert_str_eq(bcSimEventKindName(bc_simKindLeave), "leave");
	ck_assert_str_eq(bcSimEventKindName(bc_simKindHorizon), "horizon");
	ck_assert_str_eq(bcSimMotionName(bc_simFlying), "flying");
	ck_assert_str_eq(bcSimMotionName(bc_simSliding), "sliding");
	ck_assert_str_eq(bcSimMotionName(bc_simStopped), "stopped");
}
END_TEST

static Suite* simulateSuite(void)
{
	Suite* s = suite_create("simulate");
	TCase* hand = tcase_create("hand computed");
	tcase_add_test(hand, drop_on_floor_is_hand_computed);
	tcase_add_test(hand, elastic_bounces_keep_their_height);
	tcase_add_test(hand, head_on_pair_is_hand_computed);
	tcase_add_test(hand, no_gravity_bounce_is_exact);
	tcase_add_test(hand, slide_off_a_ledge_is_hand_computed);
	suite_add_tcase(s, hand);

	TCase* guards = tcase_create("guards");
	tcase_set_timeout(guards, 60);
	tcase_add_test(guards, resting_from_the_start);
	tcase_add_test(guards, zeno_bounces_end_in_a_rest);
	tcase_add_test(guards, wedge_ends_on_the_crease);
	tcase_add_test(guards, stacked_balls_end);
	tcase_add_test(guards, max_events_stops_the_run);
	suite_add_tcase(s, guards);

	TCase* properties = tcase_create("properties");
	tcase_set_timeout(properties, 120);
	tcase_add_test(properties, closed_room_conserves_energy_and_keeps_balls_in);
	tcase_add_test(properties, pairs_conserve_momentum);
	tcase_add_test(properties, without_gravity_contacts_are_bcMesh_Cast);
	tcase_add_test(properties, gravity_contacts_match_an_independent_search);
	tcase_add_test(properties, gravity_room_never_penetrates_and_ends);
	tcase_add_test(properties, bvh_and_brute_force_agree);
	tcase_add_test(properties, point_balls_stay_in_the_room);
	tcase_add_test(properties, one_sided_and_two_sided);
	tcase_add_test(properties, advance_reaches_times_between_events);
	suite_add_tcase(s, properties);

	TCase* errors = tcase_create("errors");
	tcase_add_test(errors, bad_definitions_are_refused);
	tcase_add_test(errors, names);
	suite_add_tcase(s, errors);
	return s;
}

int main(void)
{
	return bcRunSuite(simulateSuite());
}
