#!/usr/bin/env python3
"""A held-out-style test class for `ballcast grade` (issue 20), written
without ballcast: two scenes of its own (a room with crates whose edges and
corners get hit, a rough terrain heightfield), a trajectories file for each,
and the students' files, every answer from an independent caster:
tests/exact/reference.py (the exact reference of the man page's rules) and,
for the larger root only, tests/cli/class/student.py's textbook caster.

Correct students write the shapes a class hands in (';' with decimal commas,
tabs, '|', nested JSON, JSON keyed by id, yes/no hits, NaN-alpha misses, no
ids, a Python list, an empty file, a header-only file); wrong ones make the
mistakes a class makes (triangle normals, p0 and p1 exchanged, normals
negated, hits beyond the path, two mistakes at once, one outside the
catalogue). Beside them, expected.csv says what a fair teacher gives each:
the share of records whose answer is right (hit, alpha within 1e-9, normal
within 1e-6 degrees, triangle; a miss: hit alone) and the mistake to name.

usage: make_class.py OUTDIR      (deterministic: seeded; a few seconds)"""
import json
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "exact"))
import reference as R  # noqa: E402

TEXTBOOK = os.path.join(HERE, "..", "class", "student.py")

ALPHA_TOL = 1e-9
NORMAL_TOL_DEG = 1e-6


# ----------------------------------------------------------------- scenes

def room():
    """A room 8 x 6 x 3 seen from inside (floor gridded 6 x 4, walls and
    ceiling facing in), a crate [3, 4] x [2, 3] x [0, 1] and a pillar
    [6, 6.5] x [4, 4.5] x [0, 2], facing out: 92 triangles."""
    vertices, faces = [], []

    def v(x, y, z):
        vertices.append((float(x), float(y), float(z)))
        return len(vertices) - 1

    def grid(origin, du, dv, nu, nv):
        """Quads over origin + i du / nu + j dv / nv, wound (du, dv): facing du x dv."""
        ids = [[v(*(origin[k] + du[k] * i / nu + dv[k] * j / nv for k in range(3))) for j in range(nv + 1)]
               for i in range(nu + 1)]
        for i in range(nu):
            for j in range(nv):
                faces.append([ids[i][j], ids[i + 1][j], ids[i + 1][j + 1], ids[i][j + 1]])

    grid((0, 0, 0), (8, 0, 0), (0, 6, 0), 6, 4)  # floor, up
    grid((0, 0, 3), (0, 6, 0), (8, 0, 0), 2, 2)  # ceiling, down
    grid((0, 0, 0), (0, 0, 3), (8, 0, 0), 1, 2)  # wall y = 0, facing +y
    grid((0, 6, 0), (8, 0, 0), (0, 0, 3), 2, 1)  # wall y = 6, facing -y
    grid((0, 0, 0), (0, 6, 0), (0, 0, 3), 2, 1)  # wall x = 0, facing +x
    grid((8, 0, 0), (0, 0, 3), (0, 6, 0), 1, 2)  # wall x = 8, facing -x

    def box(x0, x1, y0, y1, h):
        grid((x0, y0, h), (x1 - x0, 0, 0), (0, y1 - y0, 0), 1, 1)  # top, up
        grid((x0, y0, 0), (x1 - x0, 0, 0), (0, 0, h), 1, 1)  # y0 side, facing -y
        grid((x0, y1, 0), (0, 0, h), (x1 - x0, 0, 0), 1, 1)  # y1 side, facing +y
        grid((x0, y0, 0), (0, 0, h), (0, y1 - y0, 0), 1, 1)  # x0 side, facing -x
        grid((x1, y0, 0), (0, y1 - y0, 0), (0, 0, h), 1, 1)  # x1 side, facing +x

    box(3, 4, 2, 3, 1)
    box(6, 6.5, 4, 4.5, 2)
    return vertices, faces


def room_throws(rng):
    throws = []

    def add(p0, p1, r):
        throws.append({"id": "room-%d" % len(throws), "p0": list(p0), "p1": list(p1), "r": r})

    # at the crate's top edges and corners, from outside and above
    for k in range(24):
        r = rng.choice((0.1, 0.2, 0.25, 0.4))
        s = rng.uniform(3.1, 3.9)
        side = k % 4
        edge = ((s, 2.0, 1.0), (s, 3.0, 1.0), (3.0, s - 1.0, 1.0), (4.0, s - 1.0, 1.0))[side]
        out = ((0, -1, 1), (0, 1, 1), (-1, 0, 1), (1, 0, 1))[side]
        tilt = rng.uniform(-0.3, 0.3)
        p0 = tuple(edge[i] + 1.5 * out[i] + tilt * (i == 0) for i in range(3))
        p1 = tuple(edge[i] - 0.8 * out[i] for i in range(3))
        add(p0, p1, r)
    for k in range(16):
        r = rng.choice((0.15, 0.3, 0.5))
        cx, cy = (3.0, 4.0)[k % 2], (2.0, 3.0)[(k // 2) % 2]
        ox, oy = (-1 if cx == 3.0 else 1), (-1 if cy == 2.0 else 1)
        j = rng.uniform(-0.05, 0.05)
        add((cx + 1.2 * ox + j, cy + 1.2 * oy - j, 2.2), (cx - 0.5 * ox, cy - 0.5 * oy, 0.5), r)
    # the pillar's vertical edges, rolling past at the side
    for k in range(10):
        r = 0.2
        y = rng.uniform(3.5, 4.4)
        add((5.0, y, 1.0), (7.5, y + rng.uniform(-0.5, 0.5), 1.0), r)
    # anywhere: floor, walls, ceiling, crates
    for k in range(60):
        r = round(rng.uniform(0.05, 0.5), 3)
        p0 = (rng.uniform(0.6, 7.4), rng.uniform(0.6, 5.4), rng.uniform(1.3, 2.4))
        p1 = (rng.uniform(-1, 9), rng.uniform(-1, 7), rng.uniform(-1, 4))
        add(p0, p1, r)
    # short throws in the air: misses (a path twice as long reaches a wall for some)
    for k in range(30):
        r = 0.1
        p0 = (rng.uniform(1, 7), rng.uniform(1, 5), rng.uniform(1.4, 2.2))
        d = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.6, 0.6))
        add(p0, tuple(p0[i] + d[i] for i in range(3)), r)
    # small balls dropped onto the floor grid's vertices and edges (ties)
    for k in range(10):
        x, y = 8 * rng.randint(1, 5) / 6, 1.5 * rng.randint(1, 3)
        if k % 2:
            y += 0.75
        add((x, y, 2.0), (x, y, -0.5), 0.05)
    return throws


def terrain(rng):
    """A rough heightfield over [0, 12]^2, 12 x 12 quads: 288 triangles."""
    n = 12
    heights = [[round(rng.uniform(0, 1.2) + 0.3 * math.sin(i * 0.9) * math.cos(j * 0.7), 3) for j in range(n + 1)]
               for i in range(n + 1)]
    vertices = [(float(i), float(j), heights[i][j]) for i in range(n + 1) for j in range(n + 1)]
    faces = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1
            if (i + j) % 2:
                faces += [[a, b, c], [a, c, d]]
            else:
                faces += [[a, b, d], [b, c, d]]
    return vertices, faces


def terrain_throws(rng):
    throws = []

    def add(p0, p1, r):
        throws.append({"id": "t%03d" % len(throws), "p0": list(p0), "p1": list(p1), "r": r})

    for k in range(90):  # dropped, often big: edges and vertices of a rough surface
        r = rng.choice((0.2, 0.35, 0.5, 0.7))
        x, y = rng.uniform(0.8, 11.2), rng.uniform(0.8, 11.2)
        add((x, y, 3.0), (x + rng.uniform(-1, 1), y + rng.uniform(-1, 1), -1.0), r)
    for k in range(30):  # onto vertices, straight down
        x, y = rng.randint(1, 11), rng.randint(1, 11)
        add((float(x), float(y), 3.0), (float(x), float(y), -1.0), rng.choice((0.05, 0.3)))
    for k in range(30):  # skimming low
        r = 0.25
        y = rng.uniform(1, 11)
        add((0.5, y, 2.2), (11.5, y + rng.uniform(-2, 2), 1.0), r)
    for k in range(30):  # high and short: misses (some reach down when extended)
        x, y = rng.uniform(1, 11), rng.uniform(1, 11)
        add((x, y, 3.2), (x + rng.uniform(-1, 1), y + rng.uniform(-1, 1), rng.uniform(2.2, 3.0)), 0.3)
    return throws


def write_obj(path, vertices, faces):
    with open(path, "w") as f:
        for x, y, z in vertices:
            f.write("v %r %r %r\n" % (x, y, z))
        for face in faces:
            f.write("f %s\n" % " ".join(str(k + 1) for k in face))


# ---------------------------------------------------------------- answers

class Answer:
    """One student's answer: hit, alpha, normal, triangle (0-based)."""

    def __init__(self, hit, alpha=None, normal=None, triangle=None, feature=None):
        self.hit, self.alpha, self.normal, self.triangle, self.feature = hit, alpha, normal, triangle, feature


def exact(mesh, p0, p1, r):
    a = R.cast(mesh, p0, p1, r)
    if a.state == "miss":
        return Answer(False, 1.0, feature="none"), a
    if a.state not in ("hit", "initial_overlap"):
        raise SystemExit("make_class.py: unexpected state %s" % a.state)
    return Answer(True, a.alpha_float, tuple(a.normal), a.triangle, a.feature), a


def angle_deg(u, v):
    nu, nv = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    c = sum(u[k] * v[k] for k in range(3)) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


# ------------------------------------------------------------------ shapes

def num(x):
    return repr(float(x))


def rows_of(throws, answers, with_ids=True, nan_misses=False, yesno=False):
    rows = []
    for t, a in zip(throws, answers):
        row = {}
        if with_ids:
            row["id"] = t["id"]
        row["hit"] = ("yes" if a.hit else "no") if yesno else a.hit
        row["alpha"] = a.alpha if a.hit else (float("nan") if nan_misses else 1.0)
        row["normal"] = list(a.normal) if a.hit else None
        row["triangle"] = a.triangle if a.hit else None
        rows.append(row)
    return rows


def write_csv(path, rows, sep=",", decimal_comma=False, names=("id", "hit", "t", "nx", "ny", "nz", "tri")):
    def cell(x):
        if x is None:
            return ""
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, float):
            text = "NaN" if math.isnan(x) else num(x)
            return text.replace(".", ",") if decimal_comma else text
        return str(x)

    with_ids = "id" in rows[0] if rows else True
    header = [n for n in names if with_ids or n != "id"]
    with open(path, "w") as f:
        f.write(sep.join(header) + "\n")
        for row in rows:
            n = row["normal"] or [None, None, None]
            cells = ([row["id"]] if with_ids else []) + [row["hit"], row["alpha"]] + list(n) + [row["triangle"]]
            f.write(sep.join(cell(c) for c in cells) + "\n")


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)  # Python's json: NaN written as NaN


# ----------------------------------------------------------------- a class

def grade_class(name, mesh_data, throws, students, out):
    """Write the scene, its throws and its students; return expected rows."""
    vertices, faces = mesh_data
    write_obj(os.path.join(out, name + ".obj"), vertices, faces)
    write_json(os.path.join(out, name + "-throws.json"), throws)
    run_textbook(os.path.join(out, name + ".obj"), os.path.join(out, name + "-throws.json"))
    mesh = R.Mesh(vertices, faces)
    tris = [(vertices[a], vertices[b], vertices[c]) for a, b, c in mesh.triangles]
    correct, exacts = [], []
    for t in throws:
        ans, ex = exact(mesh, t["p0"], t["p1"], t["r"])
        correct.append(ans)
        exacts.append(ex)
    features = {}
    for a in correct:
        features[a.feature] = features.get(a.feature, 0) + 1
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    expected = []

    def fair(answers):
        good = 0
        for a, c, ex in zip(answers, correct, exacts):
            normals = [c.normal] if c.hit else []
            ok = a.hit == c.hit and (not c.hit or (abs(a.alpha - c.alpha) <= ALPHA_TOL and any(
                angle_deg(a.normal, n) <= NORMAL_TOL_DEG for n in normals)))
            ties = {t for t, _, _ in ex.ties} if c.hit else set()
            ok = ok and (not c.hit or a.triangle in ties or a.triangle == c.triangle)
            good += ok
        return good / len(answers)

    for student in students:
        file, answers, mistake, write = student(name, throws, correct, exacts, mesh, tris, vertices, faces)
        path = os.path.join(folder, file)
        write(path)
        expected.append((name + "/" + file, "%.4f" % (fair(answers) if answers is not None else 0.0), mistake))
    return expected, features


def correct_students(shapes):
    """Students whose answers are right, in the given shapes."""
    made = []
    for file, shape in shapes:
        def student(name, throws, correct, exacts, mesh, tris, vertices, faces, file=file, shape=shape):
            rows = rows_of(throws, correct, with_ids=shape not in ("noid", "pylist"), nan_misses=shape == "nan",
                           yesno=shape == "yesno")

            def write(path):
                if shape == "semicolon":
                    write_csv(path, rows, ";", decimal_comma=True)
                elif shape == "tsv":
                    write_csv(path, rows, "\t", names=("id", "hit", "alpha", "normal_x", "normal_y", "normal_z",
                                                       "triangle"))
                elif shape == "pipe":
                    write_csv(path, rows, "|")
                elif shape in ("yesno", "noid"):
                    write_csv(path, rows)
                elif shape == "nested":
                    write_json(path, [{"id": r["id"], "result": {"hit": r["hit"], "t": r["alpha"], "n": r["normal"],
                                                                 "tri": r["triangle"]}} for r in rows])
                elif shape == "keyed":
                    write_json(path, {r["id"]: {k: r[k] for k in ("hit", "alpha", "normal", "triangle")}
                                      for r in rows})
                elif shape in ("nan", "pylist"):
                    write_json(path, rows)
                elif shape == "empty":
                    open(path, "w").close()
                elif shape == "header":
                    write_csv(path, [])
                else:
                    raise SystemExit("unknown shape " + shape)

            answers = None if shape in ("empty", "header") else correct
            return file, answers, {"empty": "empty file", "header": "header only"}.get(shape, ""), write
        made.append(student)
    return made


def wrong_student(file, mistake, answer_of, one_based=False):
    """A student whose answer to a throw is answer_of(throw, correct answer,
    exact answer, ...), its triangles one-based if so, written as a JSON
    document or CSV."""
    def student(name, throws, correct, exacts, mesh, tris, vertices, faces):
        answers = [answer_of(t, c, ex, mesh, tris, vertices, faces) for t, c, ex in zip(throws, correct, exacts)]
        if one_based:
            answers = [Answer(a.hit, a.alpha, a.normal, a.triangle + 1 if a.hit else None) for a in answers]
        rows = rows_of(throws, answers)

        def write(path):
            if path.endswith(".csv"):
                write_csv(path, rows)
            else:
                write_json(path, {"results": rows})

        return file, answers, mistake, write
    return student


def triangle_normals(t, c, ex, mesh, tris, vertices, faces):
    if not c.hit:
        return c
    return Answer(True, c.alpha, tuple(ex.triangle_normal), c.triangle)


def swapped_endpoints(t, c, ex, mesh, tris, vertices, faces):
    a, _ = exact(mesh, t["p1"], t["p0"], t["r"])
    return a


def normal_negated(t, c, ex, mesh, tris, vertices, faces):
    return Answer(True, c.alpha, tuple(-x for x in c.normal), c.triangle) if c.hit else c


def hits_beyond_path(t, c, ex, mesh, tris, vertices, faces):
    if c.hit:
        return c
    p0, p1 = t["p0"], t["p1"]
    far = [p0[k] + 2 * (p1[k] - p0[k]) for k in range(3)]
    a, _ = exact(mesh, p0, far, t["r"])
    return Answer(True, 2 * a.alpha, a.normal, a.triangle) if a.hit and a.alpha > 0.5 else c


def larger_root(t, c, ex, mesh, tris, vertices, faces):
    """The textbook caster (student.py --bug larger-root: the larger root of
    each quadratic), its answers read back by id."""
    a = LARGER_ROOT[t["id"]]
    if not a["hit"]:
        return Answer(False, 1.0)
    return Answer(True, a["alpha"], tuple(a["normal"]), a["triangle"])


LARGER_ROOT = {}


def run_textbook(obj, throws_path):
    """student.py --bug larger-root over a scene, by id."""
    text = subprocess.run([sys.executable, TEXTBOOK, obj, throws_path, "--bug", "larger-root", "--shape", "array"],
                          check=True, capture_output=True, text=True).stdout
    LARGER_ROOT.clear()
    LARGER_ROOT.update((row["id"], row) for row in json.loads(text))


def alpha_as_distance(t, c, ex, mesh, tris, vertices, faces):
    """Outside the catalogue: alpha reported as the distance travelled."""
    if not c.hit:
        return c
    length = math.sqrt(sum((t["p1"][k] - t["p0"][k]) ** 2 for k in range(3)))
    return Answer(True, c.alpha * length, c.normal, c.triangle)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20)
    room_data = room()
    terrain_data = terrain(rng)
    room_students = correct_students([("semicolon.csv", "semicolon"), ("tabs.tsv", "tsv"), ("pipes.csv", "pipe"),
                                      ("nested.json", "nested"), ("keyed.json", "keyed"), ("yesno.csv", "yesno"),
                                      ("empty.csv", "empty"), ("header.csv", "header")]) + [
        wrong_student("trinormal.json", "triangle-normal-vs-contact-normal", triangle_normals),
        wrong_student("swapped.json", "swapped-endpoints", swapped_endpoints),
        wrong_student("negated.json", "normal-negated", normal_negated),
        wrong_student("beyond.json", "hits-beyond-path", hits_beyond_path),
        wrong_student("two.csv", "larger-root one-based-triangles", larger_root, one_based=True),
        wrong_student("distance.json", "none", alpha_as_distance),
    ]
    terrain_students = correct_students([("nan.json", "nan"), ("noid.csv", "noid"), ("pylist.json", "pylist"),
                                         ("semicolon.csv", "semicolon")]) + [
        wrong_student("trinormal.json", "triangle-normal-vs-contact-normal", triangle_normals),
    ]
    rows = []
    for name, data, throws, students in (("room", room_data, room_throws(rng), room_students),
                                         ("terrain", terrain_data, terrain_throws(rng), terrain_students)):
        expected, features = grade_class(name, data, throws, students, out)
        rows += expected
        sys.stderr.write("%s: %d triangles, %d throws, %s\n" % (
            name, sum(len(f) - 2 for f in data[1]), len(throws),
            ", ".join("%s %d" % kv for kv in sorted(features.items()))))
    with open(os.path.join(out, "expected.csv"), "w") as f:
        f.write("file,fair_score,mistake\n")
        for row in rows:
            f.write(",".join(row) + "\n")


if __name__ == "__main__":
    main()
