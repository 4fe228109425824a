/* simulate.h - the simulation's tuning (private: lib/simulate.c and its
 * tests). Each ball's "reach" is its radius r (for r = 0,
 * BC_SIM_POINT_REACH times the mesh's bounding-box diagonal); the
 * tolerances below are fractions of it. */
#ifndef BC_SIMULATE_H
#define BC_SIMULATE_H

/* Under gravity a ball's path is a parabola; it is searched by chords of
 * sub-steps of length h whose sagitta |a| h^2 / 8 (the most the arc strays
 * from its chord) is at most this fraction of the reach, cast with the
 * radius grown by the sagitta, so that no contact on the arc is missed. A
 * hundredth keeps the chord well within the ball. */
#define BC_SIM_SAGITTA_FRACTION 1e-2

/* A candidate contact is refined (ever shorter chords from where the grown
 * chord touches) until the sagitta is at most this fraction of the reach:
 * the ball is then between r and r (1 + 2e-12) from the mesh, and a Newton
 * step on its distance from the touched face, edge or vertex brings it to
 * r to rounding. Without gravity chords are exact and contacts are those
 * of bcMesh_Cast. A ball that comes to rest on a face slides this fraction
 * of its reach above the face's plane (exactly at r, rounding would put it
 * a hair below, and the edges of the face's coplanar neighbours would be
 * bumps). */
#define BC_SIM_GAP_FRACTION 1e-12

/* Rest guard: after a bounce off a face, edge or vertex with unit normal N,
 * a ball whose acceleration a pushes it back (a.N < 0) and whose speed
 * u = v.N away from it would rise at most this fraction of its reach
 * (u^2 / (2 |a.N|) <= BC_SIM_REST_FRACTION * reach) rests instead: an event
 * of kind rest. On a face its normal velocity is zeroed and it slides
 * without friction on the face's plane; on an edge or a vertex it stops.
 * A thousandth of a radius is far below anything a bounce shows and far
 * above the refinement's gap, and it ends the infinitely many ever
 * smaller bounces (a Zeno series) of a ball with e < 1 after
 * log(fraction * reach / height) / (2 log e) bounces. */
#define BC_SIM_REST_FRACTION 1e-3

/* A ball touching a triangle (or another ball) whose velocity and chord
 * point away from it or along it, to within this fraction of their length
 * (plus a speed floor of this fraction of the reach per horizon), ignores
 * it until it no longer touches: the rounding of a bounce (v.N about
 * 1e-16 |v|) never reads as a new contact. A path entering at a slant below
 * 1e-12 radians can thus sink 1e-12 of its length into the surface. */
#define BC_SIM_TANGENT_TOLERANCE 1e-12

/* The reach of a point ball (r = 0), as a fraction of the mesh's bounding
 * box diagonal. */
#define BC_SIM_POINT_REACH 1e-3

#endif
