#!/usr/bin/env python3
"""Run `ballcast cast` on the exact-degeneracy scenes of cases.py and compare
every answer with the exact reference (reference.py).

    python3 tests/exact/run.py [--ballcast PATH] [--count N] [--seed N]
                               [--class NAME] [--keep DIR] [--quiet] ...

Each disagreement is printed on one line with a reproducer (the mesh cut down
to the triangles the swept ball's bounding box meets, plus any the answer
named, and the one trajectory), then a summary per class and a last line
exactly `exact: N passed, M failed` (a case is one trajectory).  Casts whose
answer rounding may legitimately decide (see reference.AMBIGUITY_BAND_POINT, _BALL) are
counted as ambiguous, never as passed.  Exit status 1 on any failure.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases        # noqa: E402
import intersect_reference  # noqa: E402
import reference    # noqa: E402

SLOT_NAMES = reference.SLOTS


# ---------------------------------------------------------------------------
# Running ballcast
# ---------------------------------------------------------------------------

def option_args(options):
    """Command-line options for an option set (defaults left out)."""
    args = []
    if options["approach"] != "le":
        args += ["--approach", options["approach"]]
    if options["two_sided"]:
        args.append("--two-sided")
    if options["initial_overlap"] != "report":
        args += ["--initial-overlap", options["initial_overlap"]]
    if options.get("normal", "contact") != "contact":
        args += ["--normal", options["normal"]]
    return args


def trajectory_line(i, p0, p1, r):
    """One NDJSON trajectory; repr() of a double is its shortest exact form."""
    return '{"id":%d,"p0":[%r,%r,%r],"p1":[%r,%r,%r],"r":%r}' % ((i,) + tuple(p0) + tuple(p1) + (r,))


def run_ballcast(binary, workdir, obj_text, trajectories, options):
    """Write the scene, run ballcast, return (list of result dicts, error)."""
    mesh_path = os.path.join(workdir, "mesh.obj")
    traj_path = os.path.join(workdir, "trajectories.ndjson")
    with open(mesh_path, "w") as f:
        f.write(obj_text)
    with open(traj_path, "w") as f:
        f.write("\n".join(trajectory_line(i, *t) for i, t in enumerate(trajectories)) + "\n")
    cmd = [binary, "cast", "--ties", "--format", "ndjson", "-q", "-j", "1"] + option_args(options) \
        + [mesh_path, traj_path]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Exit status 1: some records were bad (each answered by an error result).
    if proc.returncode not in (0, 1):
        return None, "ballcast exited %d: %s" % (proc.returncode, proc.stderr.strip()[:300])
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(results) != len(trajectories):
        return None, "ballcast answered %d of %d trajectories" % (len(results), len(trajectories))
    return results, None


# ---------------------------------------------------------------------------
# Comparing one answer
# ---------------------------------------------------------------------------

class Tolerances:
    def __init__(self, args):
        self.alpha_abs = Fraction(args.alpha_abs)
        self.alpha_ball = Fraction(args.alpha_ball)
        self.strict = args.strict_alpha
        self.normal = args.normal_tol
        self.point = args.point_tol

    def alpha_limit(self, exp):
        """The alpha tolerance that fails a cast: for r > 0 the man page's
        2^-40 (Exactness; --alpha-ball), unless --strict-alpha; for r = 0
        --alpha-abs (and correct rounding, checked apart)."""
        if exp.r_zero or self.strict:
            return self.alpha_abs
        return self.alpha_ball


def slot_of(mesh, tri, feature, vertices):
    """The slot (0..6) of a (triangle, feature, vertex ids) reported by
    ballcast, or None if it names no feature of that triangle."""
    if not (0 <= tri < len(mesh.triangles)):
        return None
    ids = mesh.triangles[tri]
    for slot, corners in enumerate(reference.SLOT_CORNERS):
        if reference.SLOT_FEATURE[slot] == feature and [ids[k] for k in corners] == list(vertices):
            return slot
    return None


def got_state(got):
    if "error" in got:
        return "error"
    if not got.get("hit"):
        return "miss"
    return "initial_overlap" if got.get("initial_overlap") else "hit"


def alpha_error(got_alpha, exact):
    """|got - exact| as a Fraction (exact: an Alg)."""
    return abs(Fraction(got_alpha) - exact.fraction())


def ulps(err, exact):
    """err in units in the last place of the double nearest to exact."""
    x = float(exact)
    u = math.ulp(x) if x != 0 else math.ulp(0.0)
    try:
        return float(err / Fraction(u))
    except OverflowError:
        return math.inf


def vec_close(a, b, tol):
    return a is not None and len(a) == 3 and all(abs(x - y) <= tol for x, y in zip(a, b))


def angle(a, b):
    """The angle in radians between two vectors (floats, b a unit vector),
    from the exact rationals of the doubles: atan2(|a x b|, a . b)."""
    if a is None or len(a) != 3 or not all(isinstance(x, (int, float)) for x in a):
        return math.inf
    fa, fb = [Fraction(x) for x in a], [Fraction(x) for x in b]
    c = reference.cross(fa, fb)
    return math.atan2(math.sqrt(float(reference.dot(c, c))), float(reference.dot(fa, fb)))


def normal_close(a, b, tol):
    """A unit normal within tol radians of the exact one, and of unit length
    within tol (the man page: normals within 1e-9 of a radian)."""
    if angle(a, b) > tol:
        return False
    return abs(math.sqrt(sum(x * x for x in a)) - 1) <= tol


def describe_tie(t):
    return "%d:%s" % (t[0], SLOT_NAMES[t[1]].replace(" ", "-"))


def compare(mesh, exp, got, size, tol):
    """Problems (list of (kind, text)) and, when the contact is the right
    one, the alpha error (absolute, in ulps)."""
    problems = []
    state = got_state(got)
    if state != exp.state:
        problems.append(("state", "state %s, expected %s" % (state, exp.state)))
        return problems, None
    if exp.state == "error":
        return problems, None
    got_ties = got.get("ties")
    if exp.state == "miss":
        if got.get("alpha") != 1:
            problems.append(("alpha", "miss with alpha %r" % got.get("alpha")))
        if got_ties:
            problems.append(("ties", "a miss listing %d ties" % len(got_ties)))
        return problems, None
    if got.get("triangle") != exp.triangle:
        problems.append(("triangle", "triangle %s, expected %d" % (got.get("triangle"), exp.triangle)))
    elif got.get("feature") != exp.feature or got.get("vertices") != exp.vertices:
        problems.append(("feature", "%s %s, expected %s %s" % (got.get("feature"), got.get("vertices"),
                                                           exp.feature, exp.vertices)))
    if got.get("face") != exp.face:
        problems.append(("face", "face %s, expected %d" % (got.get("face"), exp.face)))
    err = alpha_error(got["alpha"], exp.alpha)
    # The worst error is only measured on the right contact.
    alpha_err = (float(err), ulps(err, exp.alpha)) if not problems else None
    if err > tol.alpha_limit(exp):
        # Beyond the tolerance; "alpha-documented" when still within the
        # accuracy the man page documents (2^-40 for r > 0: --strict-alpha).
        kind = "alpha-documented" if err <= documented_alpha_bound(exp) else "alpha"
        problems.append((kind, "alpha %r, expected %.20g (off %.3g)" % (got["alpha"], float(exp.alpha.fraction(80)), float(err))))
    elif exp.r_zero and not correctly_rounded(got["alpha"], exp.alpha):
        # r = 0: the man page promises the nearest double (Exactness).
        problems.append(("alpha-rounding", "alpha %r, expected %r, the nearest double to %.25g" % (
            got["alpha"], float(exp.alpha.fraction()), float(exp.alpha.fraction(120)))))
    problems += compare_ties(mesh, exp, got_ties, tol)
    if not exp.r_zero:
        problems += check_face_rounding(mesh, exp, got)
    if not normal_close(got.get("normal"), exp.normal, tol.normal):
        flipped = got.get("normal") and sum(x * y for x, y in zip(got["normal"], exp.normal)) < 0
        kind = "normal-sign" if exp.r_zero and flipped else "normal"
        problems.append((kind, "normal %s, expected %s (%.3g rad)" % (got.get("normal"), fmt_vec(exp.normal),
                                                                  angle(got.get("normal"), exp.normal))))
    if not normal_close(got.get("triangle_normal"), exp.triangle_normal, tol.normal):
        problems.append(("triangle_normal", "triangle_normal %s, expected %s (%.3g rad)" % (
            got.get("triangle_normal"), fmt_vec(exp.triangle_normal),
            angle(got.get("triangle_normal"), exp.triangle_normal))))
    for key in ("point", "center"):
        if not vec_close(got.get(key), getattr(exp, key), tol.point * size):
            problems.append((key, "%s %s, expected %s" % (key, got.get(key), fmt_vec(getattr(exp, key)))))
    return problems, alpha_err


def documented_alpha_bound(exp):
    """The man page's accuracy of alpha (Exactness): for r > 0 within 2^-40
    absolutely; for r = 0 correctly rounded (half an ulp)."""
    if exp.r_zero:
        x = float(exp.alpha.fraction())
        return Fraction(math.ulp(x)) / 2
    return Fraction(1, 2**40)


def exact_double(x):
    """x (a Fraction) as a double, or None when no double equals it."""
    try:
        f = float(x)
    except OverflowError:
        return None
    return f if Fraction(f) == x else None


def face_alpha_promised(mesh, tri):
    """Whether the man page promises a ball's face alpha on this triangle
    correctly rounded (Exactness): N = (B - A) x (C - A) computed in double
    precision step by step without a rounding (the differences, the six
    products, the three differences of products), N . N likewise, and
    sqrt(N . N) exact: |N| is then rational, and so is the alpha."""
    A, B, C = [[Fraction(c) for c in mesh.vertices[i]] for i in mesh.triangles[tri]]
    u = [exact_double(B[i] - A[i]) for i in range(3)]
    v = [exact_double(C[i] - A[i]) for i in range(3)]
    if None in u or None in v:
        return False
    n = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        p, q = exact_double(Fraction(u[j]) * Fraction(v[k])), exact_double(Fraction(u[k]) * Fraction(v[j]))
        if p is None or q is None:
            return False
        d = exact_double(Fraction(p) - Fraction(q))
        if d is None:
            return False
        n.append(Fraction(d))
    squares = [exact_double(x * x) for x in n]
    if None in squares:
        return False
    xy = exact_double(Fraction(squares[0]) + Fraction(squares[1]))
    if xy is None:
        return False
    l2 = exact_double(Fraction(xy) + Fraction(squares[2]))
    if not l2:
        return False
    root = Fraction(math.sqrt(l2))
    return root * root == Fraction(l2)


def correctly_rounded(got_alpha, exact):
    """Whether got_alpha is a double nearest to the exact alpha (either one
    when the exact value lies halfway)."""
    want = float(exact.fraction())          # Fraction -> float rounds to nearest
    if got_alpha == want:
        return True
    value = exact.fraction()
    return abs(Fraction(got_alpha) - value) == abs(Fraction(want) - value)


def compare_ties(mesh, exp, got_ties, tol):
    """The tie list: the same (triangle, slot) pairs in the same order, each
    alpha within the tolerance."""
    if got_ties is None:
        return [("ties", "no ties list")]
    got = []
    for t in got_ties:
        slot = slot_of(mesh, t.get("triangle", -1), t.get("feature"), t.get("vertices", []))
        if slot is None:
            return [("ties", "tie names no feature: %s" % json.dumps(t))]
        got.append((t["triangle"], slot, t.get("alpha")))
    want = [(t, s) for t, s, _ in exp.ties]
    have = [(t, s) for t, s, _ in got]
    problems = []
    if have != want:
        missing = [x for x in want if x not in have]
        extra = [x for x in have if x not in want]
        if not missing and not extra:
            text = "ties in the wrong order"
        else:
            text = "ties: %d listed, %d expected" % (len(have), len(want))
            if missing:
                text += "; missing %s" % " ".join(describe_tie(x) for x in missing[:6]) + (" ..." if len(missing) > 6 else "")
            if extra:
                text += "; extra %s" % " ".join(describe_tie(x) for x in extra[:6]) + (" ..." if len(extra) > 6 else "")
        problems.append(("ties", text))
    exp_alpha = {(t, s): a for t, s, a in exp.ties}
    for t, s, a in got:
        if (t, s) in exp_alpha and (alpha_error(a, exp_alpha[t, s]) > tol.alpha_limit(exp) or
                                    (exp.r_zero and not correctly_rounded(a, exp_alpha[t, s]))):
            problems.append(("ties-alpha", "tie %s alpha %r, expected %.17g" % (describe_tie((t, s)), a, float(exp_alpha[t, s]))))
            break
    return problems


def check_face_rounding(mesh, exp, got):
    """A ball's face alphas the man page promises correctly rounded
    (face_alpha_promised): each tied face contact's own alpha, and the
    answer's alpha when every contact within 2^-39 of the earliest alpha is
    such a face (the printed alpha is the least of the tied contacts'
    computed alphas: an edge or vertex there, within its own 2^-40, may
    undercut the face's)."""
    problems = []
    by_pair = {}
    for t in got.get("ties") or []:
        slot = slot_of(mesh, t.get("triangle", -1), t.get("feature"), t.get("vertices", []))
        by_pair[t.get("triangle"), slot] = t.get("alpha")
    earliest_promised = True
    for tri, slot, alpha in exp.ties:
        promised = slot == reference.FACE and face_alpha_promised(mesh, tri)
        if alpha.fraction() - exp.alpha.fraction() <= Fraction(1, 2 ** 39):
            earliest_promised = earliest_promised and promised
        if promised and (tri, slot) in by_pair and not correctly_rounded(by_pair[tri, slot], alpha):
            problems.append(("face-alpha-rounding", "tie %d:face alpha %r, expected %r, the nearest double to %.25g" % (
                tri, by_pair[tri, slot], float(alpha.fraction()), float(alpha.fraction(120)))))
    if exp.ties and earliest_promised and not correctly_rounded(got.get("alpha"), exp.alpha):
        problems.append(("face-alpha-rounding", "alpha %r, expected %r, the nearest double to %.25g" % (
            got.get("alpha"), float(exp.alpha.fraction()), float(exp.alpha.fraction(120)))))
    return problems[:1]


def fmt_vec(v):
    return "[%s]" % ",".join(repr(x) for x in v)


def scene_size(mesh, p0, p1, r):
    """The scale of the numbers in a cast: the mesh's extent, the largest
    coordinate (absolute coordinates carry their own rounding), the path
    length and r."""
    big = max([abs(c) for v in mesh.vertices for c in v] + [abs(c) for c in p0 + p1])
    path = max(abs(a - b) for a, b in zip(p0, p1))
    return max(mesh.size, big, path, r, 1e-300)


# ---------------------------------------------------------------------------
# Reproducers
# ---------------------------------------------------------------------------

def reduced_scene(mesh, p0, p1, r, got):
    """The triangles that can matter to one cast: those whose bounding box
    meets the swept ball's (exactly, as the reference culls), plus any the
    answer named.  Returns (obj text, kept triangle numbers)."""
    exps = [mesh.exponent, reference.exponent_of(r)] + [reference.exponent_of(x) for x in p0 + p1]
    e = max(exps)
    sm = mesh.at(e)
    P0 = [reference.scaled_int(x, e) for x in p0]
    P1 = [reference.scaled_int(x, e) for x in p1]
    R = reference.scaled_int(r, e)
    lo = [min(a, b) - R for a, b in zip(P0, P1)]
    hi = [max(a, b) + R for a, b in zip(P0, P1)]
    keep = set()
    for i, tri in enumerate(sm.tris):
        if all(tri[5][k] <= hi[k] and tri[6][k] >= lo[k] for k in range(3)):
            keep.add(i)
    if got.get("triangle") is not None and 0 <= got["triangle"] < len(mesh.triangles):
        keep.add(got["triangle"])
    for t in got.get("ties") or []:
        if 0 <= t.get("triangle", -1) < len(mesh.triangles):
            keep.add(t["triangle"])
    if not keep:
        keep.add(0)
    kept = sorted(keep)
    ids = sorted({v for t in kept for v in mesh.triangles[t]})
    new_id = {v: i + 1 for i, v in enumerate(ids)}
    lines = ["v %r %r %r" % mesh.vertices[v] for v in ids]
    lines += ["f %d %d %d" % tuple(new_id[v] for v in mesh.triangles[t]) for t in kept]
    return "\n".join(lines) + "\n", kept


def reproducer(binary, mesh, p0, p1, r, options, got):
    """A one-line shell reproducer and the reduced scene it uses."""
    obj, kept = reduced_scene(mesh, p0, p1, r, got)
    traj = trajectory_line(0, p0, p1, r)
    words = [binary, "cast", "--ties", "--format", "ndjson"] + option_args(options) + ["m.obj", "-"]
    cmd = "printf '%s' > m.obj && echo '%s' | %s" % (obj.replace("\n", "\\n"), traj, " ".join(words))
    return cmd, obj, kept


def expected_line(exp):
    if exp.state in ("miss", "error"):
        return exp.state
    return "%s triangle %d %s %s alpha %.17g, %d ties" % (
        exp.state, exp.triangle, exp.feature, exp.vertices, float(exp.alpha), len(exp.ties))


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

class ClassStats:
    def __init__(self):
        self.passed = self.failed = self.ambiguous = 0
        self.kinds = {}
        self.worst_ulps = 0.0          # alpha error on the right contact, in ulps
        self.worst_abs = 0.0           # and absolute
        self.loose = 0                 # r > 0 alphas beyond --alpha-abs, within the documented 2^-40
        self.verified = [0, 0]          # reproducers checked, reproduced


def verify_reproducer(binary, workdir, obj, p0, p1, r, options):
    """Run the reduced scene and tell whether it still disagrees."""
    vertices, faces = parse_obj(obj)
    m = reference.Mesh(vertices, faces)
    exp = reference.cast(m, p0, p1, r, options["approach"], options["two_sided"], options["initial_overlap"])
    results, error = run_ballcast(binary, workdir, obj, [(p0, p1, r)], options)
    if error:
        return True
    problems, _ = compare(m, exp, results[0], scene_size(m, p0, p1, r), TOL)
    return bool(problems)


def parse_obj(text):
    vertices, faces = [], []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "v":
            vertices.append(tuple(float(x) for x in parts[1:4]))
        elif parts and parts[0] == "f":
            faces.append([int(x) - 1 for x in parts[1:]])
    return vertices, faces


def keep_scene(keep_dir, scene, failing, results, answers):
    """Write a failing scene (mesh, all trajectories, the failing ones, the
    reference answers for them and the command) under keep_dir."""
    d = os.path.join(keep_dir, scene.name.split(" ")[0].replace("#", "-"))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "mesh.obj"), "w") as f:
        f.write(scene.obj_text())
    with open(os.path.join(d, "trajectories.ndjson"), "w") as f:
        f.write("\n".join(trajectory_line(i, *c[:3]) for i, c in enumerate(scene.casts)) + "\n")
    with open(os.path.join(d, "failing.ndjson"), "w") as f:
        f.write("\n".join(trajectory_line(i, *scene.casts[i][:3]) for i in failing) + "\n")
    with open(os.path.join(d, "got.ndjson"), "w") as f:
        f.write("\n".join(json.dumps(results[i]) for i in failing) + "\n")
    with open(os.path.join(d, "expected.txt"), "w") as f:
        f.write("".join("%d: %s\n" % (i, expected_line(answers[i])) for i in failing))
    with open(os.path.join(d, "command.sh"), "w") as f:
        f.write("# %s\nballcast cast --ties --format ndjson %s mesh.obj failing.ndjson\n"
                % (scene.name, " ".join(option_args(scene.options))))


def run_scene(args, workdir, scene, stats):
    """Run one scene and compare every cast; print the disagreements."""
    if scene.kind == "closest":
        return run_closest_scene(args, workdir, scene, stats)
    if scene.kind == "intersect":
        return run_intersect_scene(args, workdir, scene, stats)
    mesh = reference.Mesh(scene.vertices, scene.faces)
    trajectories = [c[:3] for c in scene.casts]
    results, error = run_ballcast(args.ballcast, workdir, scene.obj_text(), trajectories, scene.options)
    o = scene.options
    answers = [reference.cast(mesh, p0, p1, r, o["approach"], o["two_sided"], o["initial_overlap"],
                              o.get("normal", "contact"))
               for p0, p1, r in trajectories]
    failing = []
    for i, (p0, p1, r, tag) in enumerate(scene.casts):
        exp = answers[i]
        if error:
            problems = [("run", error)]
        elif exp.ambiguous:
            stats.ambiguous += 1
            continue
        else:
            problems, alpha_err = compare(mesh, exp, results[i], scene_size(mesh, p0, p1, r), TOL)
            if alpha_err is not None:
                stats.worst_abs = max(stats.worst_abs, alpha_err[0])
                if not exp.r_zero and alpha_err[0] > TOL.alpha_abs:
                    stats.loose += 1
                if exp.alpha.a != 0:            # ulps of an exact 0 mean nothing
                    stats.worst_ulps = max(stats.worst_ulps, alpha_err[1])
        if not problems:
            stats.passed += 1
            continue
        stats.failed += 1
        failing.append(i)
        if exp.touch_motion == "away":
            # Starts touching (distance exactly r) and moves away: labelled,
            # as the man page's "starts touching and moves in" may read
            # differently (see README).
            problems.append(("touch-away", "expected: starts at distance exactly r, moving away"))
        for kind in sorted({k for k, _ in problems}):
            stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
        if not args.quiet and (args.max_print is None or stats.failed <= args.max_print):
            print_failure(args, workdir, scene, mesh, i, tag, problems, exp, results[i] if results else {}, stats)
    if failing and args.keep and results:
        keep_scene(args.keep, scene, failing, results, answers)


def run_command(binary, args):
    """Run ballcast; (stdout lines parsed as JSON, error text or None)."""
    proc = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        return None, "ballcast exited %d: %s" % (proc.returncode, proc.stderr.strip()[:300])
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()], None


def count_case(stats, problems, line):
    """Count one case of a closest or intersect scene; print it if it failed."""
    if not problems:
        stats.passed += 1
        return
    stats.failed += 1
    for kind in sorted({k for k, _ in problems}):
        stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
    print(line % "; ".join("%s: %s" % (k, t) for k, t in problems))


def run_closest_scene(args, workdir, scene, stats):
    """`ballcast closest` on each point against reference.closest: triangle,
    feature, vertices, the normal (1e-9 of a radian), distance and point
    (--point-tol times the scene's size)."""
    mesh = reference.Mesh(scene.vertices, scene.faces)
    mesh_path = os.path.join(workdir, "mesh.obj")
    points_path = os.path.join(workdir, "points.ndjson")
    with open(mesh_path, "w") as f:
        f.write(scene.obj_text())
    with open(points_path, "w") as f:
        f.write("\n".join('{"id":%d,"p":[%r,%r,%r],"r":%r}' % ((i,) + tuple(p) + (r,))
                          for i, (p, r, _) in enumerate(scene.casts)) + "\n")
    results, error = run_command(args.ballcast, ["closest", "-f", "ndjson", "-q", "-j", "1", mesh_path, points_path])
    if results is not None and len(results) != len(scene.casts):
        error = "ballcast answered %d of %d points" % (len(results), len(scene.casts))
    for i, (p, r, tag) in enumerate(scene.casts):
        exp = reference.closest(mesh, p)
        if exp.ambiguous:
            stats.ambiguous += 1
            continue
        problems = []
        got = results[i] if results else {}
        size = max([abs(c) for v in mesh.vertices for c in v] + [abs(c) for c in p] + [mesh.size])
        if error:
            problems.append(("run", error))
        elif got.get("triangle") != exp.triangle:
            problems.append(("triangle", "triangle %s, expected %s" % (got.get("triangle"), exp.triangle)))
        else:
            if got.get("feature") != exp.feature or got.get("vertices") != exp.vertices:
                problems.append(("feature", "%s %s, expected %s %s" % (got.get("feature"), got.get("vertices"),
                                                                   exp.feature, exp.vertices)))
            if abs(got.get("distance", math.inf) - exp.distance) > TOL.point * size:
                problems.append(("distance", "distance %r, expected %r" % (got.get("distance"), exp.distance)))
            if not vec_close(got.get("point"), exp.point, TOL.point * size):
                problems.append(("point", "point %s, expected %s" % (got.get("point"), fmt_vec(exp.point))))
            if not normal_close(got.get("normal"), exp.normal, TOL.normal):
                problems.append(("normal", "normal %s, expected %s (%.3g rad)" % (
                    got.get("normal"), fmt_vec(exp.normal), angle(got.get("normal"), exp.normal))))
        count_case(stats, problems, "FAIL %s point %d [%s] %s: %%s | repro: echo '{\"id\":0,\"p\":[%r,%r,%r]}' "
                   "| %s closest -f ndjson m.obj -  with m.obj: %s" % (
                       scene.cls, i, tag, scene.name, p[0], p[1], p[2], args.ballcast,
                       scene.obj_text().replace("\n", "\\n")))


def run_intersect_scene(args, workdir, scene, stats):
    """`ballcast intersect a.obj b.obj` against intersect_reference: for each
    triangle of b (a case), the pairs it is in, their states exactly and
    their segments' ends within --point-tol times the scene's size."""
    vb, fb = scene.mesh_b
    pa, pb = os.path.join(workdir, "a.obj"), os.path.join(workdir, "b.obj")
    with open(pa, "w") as f:
        f.write(scene.obj_text())
    with open(pb, "w") as f:
        f.write(cases.Scene("", "", vb, fb, [], {}).obj_text())
    results, error = run_command(args.ballcast, ["intersect", "-f", "ndjson", "-q", "-j", "1", pa, pb])
    # --brute (every pair) and two threads must give the same pairs, bit for bit.
    for extra in (["--brute"], ["-j", "2"]):
        other, other_error = run_command(args.ballcast, ["intersect", "-f", "ndjson", "-q"] + extra + [pa, pb])
        if error is None and other != results:
            error = "intersect %s differs from the default" % " ".join(extra)
    pairs, _, _ = intersect_reference.intersect(scene.vertices, scene.faces, vb, fb)
    size = max([abs(c) for v in scene.vertices + vb for c in v] + [1e-300])
    for b, tag in scene.casts:
        want = [(x[0], x[2], x[3]) for x in pairs if x[1] == b]
        got = [(x.get("a"), x.get("state"), x.get("segment")) for x in (results or []) if x.get("b") == b]
        problems = []
        if error:
            problems.append(("run", error))
        elif [(a, st) for a, st, _ in got] != [(a, st) for a, st, _ in want]:
            problems.append(("pairs", "pairs %s, expected %s" % ([(a, st) for a, st, _ in got],
                                                                [(a, st) for a, st, _ in want])))
        else:
            for (a, st, seg), (_, _, wseg) in zip(got, want):
                if wseg is None:
                    if seg not in ([], None):
                        problems.append(("segment", "pair (%d, %d) segment %s, expected none" % (a, b, seg)))
                elif not seg or len(seg) != 2 or not all(vec_close(seg[k], wseg[k], TOL.point * size) for k in (0, 1)):
                    problems.append(("segment", "pair (%d, %d) segment %s, expected %s" % (a, b, seg, wseg)))
        count_case(stats, problems, "FAIL %s triangle %d of b [%s] %s: %%s | repro: ballcast intersect a.obj b.obj "
                   "with a.obj: %s b.obj: %s" % (scene.cls, b, tag, scene.name,
                                                 scene.obj_text().replace("\n", "\\n"),
                                                 cases.Scene("", "", vb, fb, [], {}).obj_text().replace("\n", "\\n")))


def print_failure(args, workdir, scene, mesh, i, tag, problems, exp, got, stats):
    p0, p1, r, _ = scene.casts[i]
    line, obj, kept = reproducer(args.ballcast, mesh, p0, p1, r, scene.options, got)
    note = ""
    if stats.verified[0] < args.verify:
        stats.verified[0] += 1
        sub = os.path.join(workdir, "verify")
        os.makedirs(sub, exist_ok=True)
        if verify_reproducer(args.ballcast, sub, obj, p0, p1, r, scene.options):
            stats.verified[1] += 1
            note = " (reproducer checked)"
        else:
            note = " (reduced scene does NOT reproduce: use --keep)"
    renumber = "" if kept == list(range(len(kept))) else "; reduced mesh keeps triangles %s" % short_list(kept)
    print("FAIL %s cast %d [%s] %s: %s | expected %s%s%s | repro: %s" % (
        scene.cls, i, tag, scene.name, "; ".join("%s: %s" % (k, t) for k, t in problems), expected_line(exp),
        renumber, note, line))


def short_list(xs):
    return ",".join(map(str, xs)) if len(xs) <= 12 else ",".join(map(str, xs[:12])) + ",..."


TOL = None


def main(argv=None):
    global TOL
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ballcast", default="./ballcast", help="the binary (default ./ballcast)")
    ap.add_argument("--count", type=int, default=100000, help="total trajectories (default 100000)")
    ap.add_argument("--seed", type=int, default=1, help="scene seed (default 1)")
    ap.add_argument("--class", dest="cls", choices=sorted(cases.CLASSES), help="one class only")
    ap.add_argument("--keep", metavar="DIR", help="keep the failing scenes here")
    ap.add_argument("--quiet", action="store_true", help="no failure lines, only the summary")
    ap.add_argument("--max-print", type=int, default=None, help="print at most N failures per class")
    ap.add_argument("--verify", type=int, default=3,
                    help="check that the first N reproducers per class reproduce (default 3)")
    ap.add_argument("--alpha-abs", type=float, default=2.0**-48,
                    help="alpha tolerance for r = 0 (default 2^-48; alpha must also be correctly rounded), "
                         "and for r > 0 with --strict-alpha")
    ap.add_argument("--alpha-ball", type=float, default=2.0**-40,
                    help="alpha tolerance for r > 0 (default 2^-40, the man page's bound); alphas beyond "
                         "--alpha-abs but within it are counted in the summary's 'loose' column")
    ap.add_argument("--strict-alpha", action="store_true",
                    help="fail r > 0 alphas beyond --alpha-abs too")
    ap.add_argument("--normal-tol", type=float, default=1e-9, help="normal tolerance (default 1e-9)")
    ap.add_argument("--point-tol", type=float, default=1e-12,
                    help="point and centre tolerance, times the scene size (default 1e-12)")
    args = ap.parse_args(argv)
    TOL = Tolerances(args)
    if not os.path.exists(args.ballcast):
        sys.exit("run.py: no ballcast binary at %s (build it, or give --ballcast)" % args.ballcast)

    start = time.time()
    counts = cases.split_count(args.count, args.cls)
    all_stats = {}
    with tempfile.TemporaryDirectory(prefix="ballcast-exact-") as workdir:
        for cls, n in counts.items():
            stats = all_stats[cls] = ClassStats()
            for scene in cases.generate(cls, n, args.seed):
                run_scene(args, workdir, scene, stats)
    print_summary(all_stats, time.time() - start)
    failed = sum(s.failed for s in all_stats.values())
    return 1 if failed else 0


def print_summary(all_stats, seconds):
    print("%-18s %8s %8s %9s %10s %10s %6s  %s" % ("class", "passed", "failed", "ambiguous", "worst-abs",
                                                   "worst-ulps", "loose", "failures by kind"))
    for cls, s in all_stats.items():
        kinds = " ".join("%s=%d" % kv for kv in sorted(s.kinds.items()))
        print("%-18s %8d %8d %9d %10.3g %10.3g %6d  %s" % (cls, s.passed, s.failed, s.ambiguous, s.worst_abs,
                                                         s.worst_ulps, s.loose, kinds))
    passed = sum(s.passed for s in all_stats.values())
    failed = sum(s.failed for s in all_stats.values())
    ambiguous = sum(s.ambiguous for s in all_stats.values())
    loose = sum(s.loose for s in all_stats.values())
    print("ambiguous (rounding decides, not counted): %d; loose (r > 0, alpha beyond 2^-48 but within the "
          "documented 2^-40, passed): %d; %.1f s" % (ambiguous, loose, seconds))
    print("exact: %d passed, %d failed" % (passed, failed))


if __name__ == "__main__":
    sys.exit(main())
