#!/usr/bin/env python3
"""A test class for issue 27's grader, written without ballcast: two scenes
(a tiled slab with T-junctions under a gear, a star and a staircase; a
20,000-triangle scan-like terrain with a flipped patch, a hole and
duplicated triangles), their trajectories, and students' files whose every
answer comes from the independent exact reference (tests/exact/reference.py),
under the course's convention (cs121: dot(n, d) < 0 counts, the average
normal of the tied triangles, overlaps at the start ignored).

Correct students print their answers the ways programs print them: the
shapes issue 27 saw (R's write.csv, pandas' to_json, NDJSON ending lines
with commas, an aligned printf table in capitals, the normal in one cell,
an array of arrays under a header row, numeric ids for zero-padded ones,
alpha in percent, no hit column with alpha -1) and more nobody listed
(MATLAB's writetable, Excel's regional CSV in UTF-8 with its BOM and CRLF,
Java's toString of a list, a C struct dump, Python's print of a dict, pandas'
to_csv with its index, YAML, Fortran's fixed columns without a header,
LibreOffice's CSV, jq -c arrays, logfmt, Kotlin's data classes, a markdown
table, PowerShell's UTF-16, Go's %+v, Rust's Debug, numpy's savetxt, pandas'
"split" and "table" JSON, INI sections, sqlite3's output, a printf log of
"id: HIT alpha=...", a title and Excel's sep= line above a CSV, a header in
the student's own words, answers keyed by id under "results", JAXB's XML,
a notebook's HTML table, a __repr__'s <Result id=... hit=...> per line).
Wrong
students make the mistakes whose
diagnosis issue 27 found missing (one-based triangles with the front face
flipped or with p0 and p1 exchanged, overlaps reported where cs121 ignores
them, unnormalised normals with one-based triangles on the 20,000 triangles)
and single ones that must not gain a second label. A ZIP file and a file
whose ids match nothing complete it. expected.csv says what a fair teacher
gives each: the share of right answers (hit; alpha within 1e-9; the normal
within 1e-6 degrees of cs121's; the triangle, or one tied with it), the
mistake(s) to name, and what the note must say.

usage: make_class.py OUTDIR                the class (about 10 s)
       make_class.py --bench-scene OUTDIR  the scan and 1000 throws (and the
                                           throws with their ends exchanged)
       make_class.py --bench OUTDIR        30 files of those 1000 throws, from
                                           ballcast's answers (ANSWERS, SWAPPED),
                                           for timing grade (bench-grade-infer)
"""
import io
import json
import math
import os
import random
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "exact"))
import reference as R  # noqa: E402

ALPHA_TOL = 1e-9
NORMAL_TOL_DEG = 1e-6
Q = 1.0 / 1024  # every coordinate a multiple: one scale for the exact reference


def q(x):
    return round(x / Q) * Q


# ----------------------------------------------------------------- scenes

class Builder:
    """Triangles only (the reference and ballcast triangulate alike)."""

    def __init__(self):
        self.vertices, self.faces, self.index = [], [], {}

    def v(self, x, y, z):
        key = (q(x), q(y), q(z))
        if key not in self.index:
            self.index[key] = len(self.vertices)
            self.vertices.append(key)
        return self.index[key]

    def tri(self, a, b, c):
        self.faces.append([a, b, c])

    def quad(self, a, b, c, d):
        self.tri(a, b, c)
        self.tri(a, c, d)

    def prism(self, outline, z0, z1):
        """A vertical prism over a convex-or-star outline (counter-clockwise
        seen from above), fanned from its centre: top up, sides out, no
        bottom (it stands on the slab)."""
        cx = sum(p[0] for p in outline) / len(outline)
        cy = sum(p[1] for p in outline) / len(outline)
        top = self.v(cx, cy, z1)
        n = len(outline)
        for k in range(n):
            x0, y0 = outline[k]
            x1, y1 = outline[(k + 1) % n]
            self.tri(top, self.v(x0, y0, z1), self.v(x1, y1, z1))
            self.quad(self.v(x0, y0, z0), self.v(x1, y1, z0), self.v(x1, y1, z1), self.v(x0, y0, z1))


def slab():
    """A 12 x 8 slab of square tiles, 2 x 2 and 1 x 1 side by side (their
    corners T-junctions on each other's edges), under a gear, a star and a
    staircase."""
    b = Builder()
    for i in range(6):
        for j in range(4):
            x0, y0 = 2 * i, 2 * j
            if (i + j) % 2:
                b.quad(b.v(x0, y0, 0), b.v(x0 + 2, y0, 0), b.v(x0 + 2, y0 + 2, 0), b.v(x0, y0 + 2, 0))
            else:
                for di in (0, 1):
                    for dj in (0, 1):
                        x, y = x0 + di, y0 + dj
                        b.quad(b.v(x, y, 0), b.v(x + 1, y, 0), b.v(x + 1, y + 1, 0), b.v(x, y + 1, 0))
    # a gear: 10 teeth round (3, 4)
    gear = []
    for k in range(20):
        a = 2 * math.pi * k / 20
        rr = 1.3 if k % 2 else 1.0
        gear.append((3 + rr * math.cos(a), 4 + rr * math.sin(a)))
    b.prism(gear, 0, 0.5)
    # a five-pointed star round (7, 5)
    star = []
    for k in range(10):
        a = math.pi / 2 + 2 * math.pi * k / 10
        rr = 1.2 if k % 2 == 0 else 0.5
        star.append((7 + rr * math.cos(a), 5 + rr * math.sin(a)))
    b.prism(star, 0, 0.75)
    # a staircase of four steps along x from 9
    for s in range(4):
        x0 = 9 + 0.5 * s
        h = 0.25 * (s + 1)
        b.prism([(x0, 1), (x0 + 0.5, 1), (x0 + 0.5, 3), (x0, 3)], 0, h)
    return b


def slab_throws(rng, b):
    throws = []

    def add(p0, p1, r):
        throws.append({"id": "s%03d" % len(throws), "p0": [q(x) for x in p0], "p1": [q(x) for x in p1],
                       "r": q(r)})

    tops = [v for v in b.vertices if v[2] > 0]
    for k in range(70):  # onto the shapes' corners and edges, from above and aside
        vx, vy, vz = rng.choice(tops)
        r = rng.choice((0.05, 0.1, 0.2, 0.3))
        ox, oy = rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)
        add((vx + ox, vy + oy, vz + 1.5), (vx - 0.3 * ox, vy - 0.3 * oy, vz - 0.4), r)
    for k in range(40):  # the slab's T-junctions and tile corners
        x, y = rng.randint(1, 11), rng.randint(1, 7)
        r = rng.choice((0.05, 0.25))
        add((x + rng.choice((0, 0.5)), y, 1.0), (x + rng.choice((0, 0.5)), y, -0.2), r)
    for k in range(40):  # rolling low across the shapes
        y = rng.uniform(0.5, 7.5)
        add((0.2, y, 0.3), (11.8, y + rng.uniform(-1, 1), 0.2), 0.15)
    for k in range(40):  # anywhere
        p0 = (rng.uniform(0.5, 11.5), rng.uniform(0.5, 7.5), rng.uniform(1.0, 2.5))
        add(p0, (rng.uniform(0, 12), rng.uniform(0, 8), rng.uniform(-0.5, 1.0)), rng.uniform(0.05, 0.4))
    for k in range(25):  # short, in the air: misses
        p0 = (rng.uniform(1, 11), rng.uniform(1, 7), rng.uniform(1.6, 2.2))
        add(p0, (p0[0] + rng.uniform(-0.5, 0.5), p0[1] + rng.uniform(-0.5, 0.5), p0[2] - 0.3), 0.1)
    for k in range(25):  # starting inside the slab's reach: overlaps (cs121 ignores them)
        x, y = rng.uniform(1, 11), rng.uniform(1, 7)
        add((x, y, 0.1), (x + rng.uniform(-1, 1), y + rng.uniform(-1, 1), rng.uniform(-0.5, 0.6)), 0.2)
    return throws


def scan(rng):
    """A 100 x 100 heightfield, 0.25 apart, two triangles a quad, with a
    flipped patch (winding reversed), a hole and duplicated triangles:
    20,000 triangles."""
    b = Builder()
    n = 100
    heights = [[0.6 * math.sin(i * 0.13) * math.cos(j * 0.11) + 0.25 * math.sin(i * 0.7 + j * 0.5) +
                rng.uniform(0, 0.08) for j in range(n + 1)] for i in range(n + 1)]
    ids = [[b.v(0.25 * i, 0.25 * j, heights[i][j]) for j in range(n + 1)] for i in range(n + 1)]
    hole = []
    for i in range(n):
        for j in range(n):
            a, c1, c2, d = ids[i][j], ids[i + 1][j], ids[i + 1][j + 1], ids[i][j + 1]
            if 60 <= i < 64 and 60 <= j < 64:
                hole.append((i, j))
                continue
            pair = [[a, c1, c2], [a, c2, d]] if (i + j) % 2 else [[a, c1, d], [c1, c2, d]]
            if 20 <= i < 30 and 20 <= j < 30:
                pair = [[t[0], t[2], t[1]] for t in pair]  # the flipped patch
            b.faces += pair
    # as many duplicates as the hole took, so that 20,000 remain
    for k in range(2 * len(hole)):
        b.faces.append(list(b.faces[rng.randrange(len(b.faces))]))
    return b


def scan_throws(rng, count):
    throws = []

    def add(p0, p1, r):
        throws.append({"id": "%04d" % len(throws), "p0": [q(x) for x in p0], "p1": [q(x) for x in p1], "r": q(r)})

    for k in range(count):
        kind = k % 10
        if kind < 5:  # dropped
            x, y = rng.uniform(1, 24), rng.uniform(1, 24)
            add((x, y, 2.5), (x + rng.uniform(-0.8, 0.8), y + rng.uniform(-0.8, 0.8), -1.5), rng.choice((0.1, 0.3, 0.6)))
        elif kind < 7:  # onto the flipped patch, the hole and their borders
            x, y = rng.uniform(4.5, 8) if kind == 5 else rng.uniform(14.5, 16.5), rng.uniform(4.5, 8)
            if kind == 6:
                y = rng.uniform(14.5, 16.5)
            add((x, y, 2.5), (x, y, -1.5), rng.choice((0.05, 0.2)))
        elif kind < 9:  # skimming
            y = rng.uniform(1, 24)
            add((0.5, y, 1.2), (24.5, y + rng.uniform(-3, 3), 0.4), 0.25)
        else:  # high and short: misses
            x, y = rng.uniform(2, 23), rng.uniform(2, 23)
            add((x, y, 3.0), (x + 0.5, y, 2.6), 0.2)
    return throws


# ------------------------------------------------------------- the reference

class Scene:
    """A mesh for the reference with a grid of its triangles, so that a cast
    visits only those near its path (then casts as the reference does)."""

    CELL = 1.0

    def __init__(self, builder):
        self.vertices, self.faces = builder.vertices, builder.faces
        self.mesh = R.Mesh(self.vertices, self.faces)
        self.grid = {}
        for k, (a, b, c) in enumerate(self.mesh.triangles):
            xs = [self.vertices[i][0] for i in (a, b, c)]
            ys = [self.vertices[i][1] for i in (a, b, c)]
            for gx in range(int(math.floor(min(xs) / self.CELL)), int(math.floor(max(xs) / self.CELL)) + 1):
                for gy in range(int(math.floor(min(ys) / self.CELL)), int(math.floor(max(ys) / self.CELL)) + 1):
                    self.grid.setdefault((gx, gy), []).append(k)
        self.unit = [None] * len(self.mesh.triangles)

    def near(self, p0, p1, r):
        lo = [min(p0[i], p1[i]) - r - 1e-6 for i in range(2)]
        hi = [max(p0[i], p1[i]) + r + 1e-6 for i in range(2)]
        out = set()
        for gx in range(int(math.floor(lo[0] / self.CELL)), int(math.floor(hi[0] / self.CELL)) + 1):
            for gy in range(int(math.floor(lo[1] / self.CELL)), int(math.floor(hi[1] / self.CELL)) + 1):
                out.update(self.grid.get((gx, gy), ()))
        return sorted(out)

    def cast(self, p0, p1, r, approach="lt", two_sided=False, initial_overlap="ignore"):
        """reference.cast, over the triangles near the path only (the others
        are beyond its box: the reference skips them the same way)."""
        p0 = tuple(float(x) for x in p0)
        p1 = tuple(float(x) for x in p1)
        r = float(r)
        mesh = self.mesh
        e = max([mesh.exponent, R.exponent_of(r)] + [R.exponent_of(x) for x in p0 + p1])
        sm = mesh.at(e)
        P0 = tuple(R.scaled_int(x, e) for x in p0)
        P1 = tuple(R.scaled_int(x, e) for x in p1)
        RR = R.scaled_int(r, e)
        D = R.sub(P1, P0)
        lo = tuple(min(P0[i], P1[i]) - RR for i in range(3))
        hi = tuple(max(P0[i], P1[i]) + RR for i in range(3))
        contacts = []
        for index in self.near(p0, p1, r):
            tri = sm.tris[index]
            tlo, thi = tri[5], tri[6]
            if (tlo[0] > hi[0] or thi[0] < lo[0] or tlo[1] > hi[1] or thi[1] < lo[1] or tlo[2] > hi[2]
                    or thi[2] < lo[2]):
                continue
            if tri[7] or not R.counted(R.dot(tri[3], D), approach, two_sided):
                continue
            contacts.extend(R.triangle_contacts(index, tri, P0, D, RR, RR * RR, initial_overlap))
        ans = R._answer(mesh, sm, contacts, P0, D, RR, e)
        ans.p0, ans.p1, ans.r = p0, p1, r
        return ans

    def unit_normal(self, t):
        if self.unit[t] is None:
            a, b, c = (self.vertices[i] for i in self.mesh.triangles[t])
            n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
                 (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
                 (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])]
            length = math.sqrt(sum(x * x for x in n))
            self.unit[t] = [x / length for x in n]
        return self.unit[t]

    def average_normal(self, ans):
        """cs121's normal: the tied triangles' unit normals added, one term
        each, normalised; the hit triangle's when they cancel."""
        seen, total = set(), [0.0, 0.0, 0.0]
        for t, _, _ in ans.ties:
            if t not in seen:
                seen.add(t)
                total = [total[i] + self.unit_normal(t)[i] for i in range(3)]
        length = math.sqrt(sum(x * x for x in total))
        if length < 1e-12:
            return list(ans.triangle_normal)
        return [x / length for x in total]


class Answer:
    """One student's answer: hit, alpha, normal, triangle (0-based), feature."""

    def __init__(self, hit, alpha=1.0, normal=None, triangle=None, feature="none", ties=()):
        self.hit, self.alpha, self.normal, self.triangle, self.feature = hit, alpha, normal, triangle, feature
        self.ties = set(ties)


def answer_of(scene, ans):
    if ans.state == "miss":
        return Answer(False)
    if ans.state not in ("hit", "initial_overlap"):
        raise SystemExit("make_class.py: unexpected state %s" % ans.state)
    return Answer(True, ans.alpha_float, scene.average_normal(ans), ans.triangle, ans.feature,
                  (t for t, _, _ in ans.ties))


def angle_deg(u, v):
    nu, nv = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    if nu == 0 or nv == 0:
        return 180.0
    c = sum(u[k] * v[k] for k in range(3)) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def fair(answers, correct):
    """The share of records a fair teacher counts right."""
    good = 0
    for a, c in zip(answers, correct):
        ok = a.hit == c.hit
        if ok and c.hit:
            ok = (abs(a.alpha - c.alpha) <= ALPHA_TOL and a.normal is not None
                  and angle_deg(a.normal, c.normal) <= NORMAL_TOL_DEG
                  and abs(math.sqrt(sum(x * x for x in a.normal)) - 1.0) <= 1e-6
                  and (a.triangle == c.triangle or a.triangle in c.ties))
        good += ok
    return good / len(answers)


# ------------------------------------------------------------------ shapes

def num(x):
    return repr(float(x))


def java_double(x):
    """Java's Double.toString: E notation below 1e-3 and from 1e7."""
    x = float(x)
    if x == 0:
        return "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = repr(x)
        return text if "." in text or "e" in text else text + ".0"
    m, e = ("%r" % x).split("e") if "e" in repr(x) else (repr(x), "0")
    mantissa = float(m)
    exponent = int(e)
    while abs(mantissa) >= 10:
        mantissa /= 10
        exponent += 1
    while abs(mantissa) < 1:
        mantissa *= 10
        exponent -= 1
    text = repr(mantissa)
    if "." not in text:
        text += ".0"
    return "%sE%d" % (text, exponent)


def rows_of(throws, answers):
    """Records with ids, hits, alphas (a miss's 1), normals and triangles."""
    return [(t["id"], a) for t, a in zip(throws, answers)]


def csv_cell(x):
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return num(x)
    return str(x)


def write_text(path, text, encoding="utf-8", bom=False, newline="\n"):
    data = text.replace("\n", newline)
    with open(path, "wb") as f:
        if bom and encoding == "utf-8":
            f.write(b"\xef\xbb\xbf")
        if encoding == "utf-16-le":
            f.write(b"\xff\xfe")
        f.write(data.encode(encoding))


def tri_of(a):
    return a.triangle if a.hit else None


def shape(name, rows):
    """The text of rows (id, Answer) as the shape name writes them."""
    out = io.StringIO()
    w = out.write
    if name == "r_write_csv":  # R: write.csv(df) with row names, NA
        w('"","id","hit","alpha","nx","ny","nz","tri"\n')
        for k, (i, a) in enumerate(rows):
            n = a.normal or ["NA"] * 3
            w('"%d","%s",%s,%s,%s,%s,%s,%s\n' % (k + 1, i, "TRUE" if a.hit else "FALSE", num(a.alpha) if a.hit else "NA",
                                             *(num(x) if a.hit else "NA" for x in n),
                                             tri_of(a) if a.hit else "NA"))
    elif name == "pandas_columns":  # pandas: df.to_json()
        cols = {"id": {}, "hit": {}, "alpha": {}, "normal": {}, "triangle": {}}
        for k, (i, a) in enumerate(rows):
            cols["id"][str(k)] = i
            cols["hit"][str(k)] = a.hit
            cols["alpha"][str(k)] = a.alpha if a.hit else 1.0
            cols["normal"][str(k)] = a.normal if a.hit else None
            cols["triangle"][str(k)] = tri_of(a)
        w(json.dumps(cols))
    elif name == "ndjson_commas":  # print(json.dumps(r) + ",")
        for i, a in rows:
            w(json.dumps({"id": i, "hit": a.hit, "t": a.alpha if a.hit else None, "n": a.normal if a.hit else None,
                          "tri": tri_of(a)}) + ",\n")
    elif name == "printf_caps":  # printf("%6s %5s %22s ...") in capitals
        w("%6s %5s %22s %22s %22s %22s %6s %8s\n" % ("ID", "HIT", "ALPHA", "NX", "NY", "NZ", "TRI", "FEATURE"))
        for i, a in rows:
            if a.hit:
                w("%6s %5s %22s %22s %22s %22s %6d %8s\n" % (i, "YES", num(a.alpha), *(num(x) for x in a.normal),
                                                             a.triangle, a.feature.upper()))
            else:
                w("%6s %5s %22s %22s %22s %22s %6d %8s\n" % (i, "NO", "1.0", "nan", "nan", "nan", -1, "NONE"))
    elif name == "normal_cell":  # csv.writer with the normal as a list
        w("id,hit,alpha,normal,triangle\n")
        for i, a in rows:
            w('%s,%s,%s,"%s",%s\n' % (i, a.hit, num(a.alpha) if a.hit else "1.0",
                                     "[%s]" % ", ".join(num(x) for x in a.normal) if a.hit else "",
                                     tri_of(a) if a.hit else ""))
    elif name == "values_header":  # json.dump([header] + rows)
        data = [["id", "hit", "alpha", "normal", "triangle"]]
        for i, a in rows:
            data.append([i, a.hit, a.alpha if a.hit else 1.0, a.normal if a.hit else None, tri_of(a)])
        w(json.dumps(data))
    elif name == "int_ids":  # ids as numbers, where the throws say "0007"
        w("id,hit,alpha,nx,ny,nz,tri\n")
        for i, a in rows:
            n = a.normal or ["", "", ""]
            w("%d,%s,%s,%s,%s,%s,%s\n" % (int(i), int(a.hit), num(a.alpha) if a.hit else "1",
                                          *(num(x) if a.hit else "" for x in n), tri_of(a) if a.hit else ""))
    elif name == "percent":  # alpha as a percentage of the path
        w("id,hit,alpha_pct,nx,ny,nz,tri\n")
        for i, a in rows:
            n = a.normal or ["", "", ""]
            w("%s,%s,%s,%s,%s,%s,%s\n" % (i, a.hit, num(100.0 * a.alpha) if a.hit else "100",
                                          *(num(x) if a.hit else "" for x in n), tri_of(a) if a.hit else ""))
    elif name == "no_hit_column":  # alpha -1 for a miss; features f/e/v
        w("id,alpha,nx,ny,nz,tri,feature\n")
        for i, a in rows:
            if a.hit:
                w("%s,%s,%s,%s,%s,%d,%s\n" % (i, num(a.alpha), *(num(x) for x in a.normal), a.triangle,
                                              a.feature[0]))
            else:
                w("%s,-1,,,,,\n" % i)
    elif name == "matlab_writetable":  # writetable(T): normal_1..3, logical 1/0, 15 digits, NaN
        w("id,hit,alpha,normal_1,normal_2,normal_3,triangle\n")
        for i, a in rows:
            n = a.normal or [float("nan")] * 3
            w("%s,%d,%s,%s,%s,%s,%s\n" % (i, int(a.hit), "%.15g" % a.alpha if a.hit else "NaN",
                                          *("%.15g" % x if a.hit else "NaN" for x in n),
                                          tri_of(a) if a.hit else "NaN"))
    elif name == "excel_regional":  # Excel, German: ';', decimal commas, WAHR/FALSCH
        w("id;hit;alpha;nx;ny;nz;triangle\n")
        for i, a in rows:
            n = a.normal or ["", "", ""]
            cells = [i, "WAHR" if a.hit else "FALSCH", num(a.alpha).replace(".", ",") if a.hit else "1"]
            cells += [num(x).replace(".", ",") if a.hit else "" for x in n]
            cells.append(str(tri_of(a)) if a.hit else "")
            w(";".join(cells) + "\n")
    elif name == "java_tostring":  # System.out.println(results) of a List<Result>
        parts = []
        for i, a in rows:
            n = "[%s]" % ", ".join(java_double(x) for x in a.normal) if a.hit else "null"
            parts.append("Result{id='%s', hit=%s, alpha=%s, normal=%s, triangle=%d}" % (
                i, "true" if a.hit else "false", java_double(a.alpha) if a.hit else "1.0", n,
                a.triangle if a.hit else -1))
        w("[" + ", ".join(parts) + "]\n")
    elif name == "c_struct":  # printf of C99 designated initialisers, one per line
        w("/* results */\n")
        for i, a in rows:
            n = "{ %.17g, %.17g, %.17g }" % tuple(a.normal) if a.hit else "{ 0, 0, 0 }"
            w('{ .id = "%s", .hit = %d, .alpha = %.17g, .normal = %s, .triangle = %d },\n' % (
                i, int(a.hit), a.alpha if a.hit else 1.0, n, a.triangle if a.hit else -1))
    elif name == "python_print_dict":  # for r in results: print(r)
        for i, a in rows:
            d = {"id": i, "hit": a.hit, "alpha": a.alpha if a.hit else float("nan"),
                 "normal": tuple(a.normal) if a.hit else None, "triangle": tri_of(a)}
            w(repr(d) + "\n")
    elif name == "pandas_to_csv_index":  # df.to_csv(path): the index first, no name
        w(",id,hit,alpha,nx,ny,nz,triangle\n")
        for k, (i, a) in enumerate(rows):
            n = a.normal or ["", "", ""]
            w("%d,%s,%s,%s,%s,%s,%s,%s\n" % (k, i, a.hit, num(a.alpha) if a.hit else "",
                                             *(num(x) if a.hit else "" for x in n),
                                             "%.1f" % a.triangle if a.hit else ""))
    elif name == "yaml":  # yaml.safe_dump(results)
        for i, a in rows:
            w("- id: '%s'\n  hit: %s\n" % (i, "true" if a.hit else "false"))
            if a.hit:
                w("  alpha: %s\n  normal:\n  - %s\n  - %s\n  - %s\n  triangle: %d\n" % (
                    num(a.alpha), *(num(x) for x in a.normal), a.triangle))
            else:
                w("  alpha: .nan\n  normal: null\n  triangle: null\n")
    elif name == "fortran":  # write(*,'(A6,L3,F22.17,3F22.17,I8)'), no header
        for i, a in rows:
            n = a.normal or [0.0, 0.0, 0.0]
            w("%6s%3s%22.17f%22.17f%22.17f%22.17f%8d\n" % (i, "T" if a.hit else "F", a.alpha if a.hit else 1.0,
                                                         *n, a.triangle if a.hit else -1))
    elif name == "libreoffice":  # File > Save As > CSV: text quoted, TRUE/FALSE, 10 digits
        w('"id","hit","alpha","nx","ny","nz","triangle"\n')
        for i, a in rows:
            n = a.normal or ["", "", ""]
            w('"%s",%s,%s,%s,%s,%s,%s\n' % (i, "TRUE" if a.hit else "FALSE", "%.10g" % a.alpha if a.hit else "1",
                                           *("%.10g" % x if a.hit else "" for x in n), tri_of(a) if a.hit else ""))
    elif name == "jq_arrays":  # jq -c '.[] | [.id, .hit, .alpha, .normal, .triangle]'
        for i, a in rows:
            w(json.dumps([i, a.hit, a.alpha if a.hit else 1, a.normal if a.hit else None, tri_of(a)],
                         separators=(",", ":")) + "\n")
    elif name == "logfmt":  # log.info(...) in logfmt
        for i, a in rows:
            if a.hit:
                w("id=%s hit=true alpha=%s nx=%s ny=%s nz=%s tri=%d\n" % (i, num(a.alpha), *(num(x) for x in a.normal),
                                                                       a.triangle))
            else:
                w("id=%s hit=false alpha=1\n" % i)
    elif name == "kotlin":  # println(result) of a data class
        for i, a in rows:
            n = "[%s]" % ", ".join(num(x) for x in a.normal) if a.hit else "null"
            w("Result(id=%s, hit=%s, alpha=%s, normal=%s, triangle=%s)\n" % (
                i, "true" if a.hit else "false", num(a.alpha) if a.hit else "1.0", n,
                a.triangle if a.hit else "null"))
    elif name == "markdown":  # a notebook's table
        w("| id | hit | alpha | normal | triangle |\n|---|---|---|---|---|\n")
        for i, a in rows:
            n = "(%s)" % " ".join(num(x) for x in a.normal) if a.hit else ""
            w("| %s | %s | %s | %s | %s |\n" % (i, "yes" if a.hit else "no", num(a.alpha) if a.hit else "",
                                                n, tri_of(a) if a.hit else ""))
    elif name == "go_printf":  # fmt.Printf("%+v\n", r)
        for i, a in rows:
            n = "[%s]" % " ".join(num(x) for x in a.normal) if a.hit else "[0 0 0]"
            w("{ID:%s Hit:%s Alpha:%s Normal:%s Tri:%d}\n" % (i, "true" if a.hit else "false",
                                                           num(a.alpha) if a.hit else "1", n,
                                                           a.triangle if a.hit else -1))
    elif name == "rust_debug":  # println!("{:?}", results)
        parts = []
        for i, a in rows:
            n = "Some([%s])" % ", ".join(num(x) for x in a.normal) if a.hit else "None"
            parts.append('Hit { id: "%s", hit: %s, alpha: %s, normal: %s, triangle: %s }' % (
                i, "true" if a.hit else "false", num(a.alpha) if a.hit else "1.0", n,
                "Some(%d)" % a.triangle if a.hit else "None"))
        w("[" + ", ".join(parts) + "]\n")
    elif name == "numpy_savetxt":  # np.savetxt(..., header="hit alpha nx ny nz tri"): no ids
        w("# hit alpha nx ny nz tri\n")
        for i, a in rows:
            n = a.normal or [0.0, 0.0, 0.0]
            w(" ".join("%.18e" % x for x in ([1.0 if a.hit else 0.0, a.alpha if a.hit else 1.0] + n +
                                            [float(a.triangle) if a.hit else -1.0])) + "\n")
    elif name == "pandas_split":  # df.to_json(orient="split")
        data = {"columns": ["id", "hit", "alpha", "normal", "triangle"], "index": list(range(len(rows))),
                "data": [[i, a.hit, a.alpha if a.hit else 1.0, a.normal if a.hit else None, tri_of(a)]
                         for i, a in rows]}
        w(json.dumps(data))
    elif name == "ini":  # configparser: a section per throw
        for i, a in rows:
            w("[%s]\nhit = %s\n" % (i, "yes" if a.hit else "no"))
            if a.hit:
                w("alpha = %s\nnormal = %s, %s, %s\ntriangle = %d\n" % (num(a.alpha), *(num(x) for x in a.normal),
                                                                      a.triangle))
            w("\n")
    elif name == "keyed_nested":  # json.dump({id: {"result": {...}}})
        data = {i: {"result": {"hit": a.hit, "toi": a.alpha if a.hit else None, "normal": a.normal,
                               "face_id": tri_of(a)}} for i, a in rows}
        w(json.dumps(data, indent=1))
    elif name == "sqlite":  # sqlite3's default output: '|', no header, 1/0
        for i, a in rows:
            n = " ".join(num(x) for x in a.normal) if a.hit else ""
            w("%s|%d|%s|%s|%s\n" % (i, int(a.hit), num(a.alpha) if a.hit else "1.0", n, tri_of(a) if a.hit else ""))
    elif name == "printf_log":  # printf("%s: %s alpha=%.17g normal=[%g,%g,%g] tri=%d\n", ...)
        for i, a in rows:
            if a.hit:
                w("%s: HIT alpha=%s normal=[%s] tri=%d\n" % (i, num(a.alpha), ",".join(num(x) for x in a.normal),
                                                            a.triangle))
            else:
                w("%s: MISS alpha=nan normal=none tri=-1\n" % i)
    elif name == "titled":  # a title line above the CSV, and Excel's sep= hint
        w("Results of assignment 3 -- Bob Smith\nsep=,\n")
        w(shape("normal_cell", rows))
    elif name == "weird_names":  # a header in the student's own words
        w("throw,collision?,time_of_impact,normal (x),normal (y),normal (z),tri #\n")
        for i, a in rows:
            n = a.normal or ["", "", ""]
            w("%s,%s,%s,%s,%s,%s,%s\n" % (i, a.hit, num(a.alpha) if a.hit else "", *(num(x) if a.hit else "" for x in n),
                                          tri_of(a) if a.hit else ""))
    elif name == "pandas_table":  # df.to_json(orient="table")
        data = {"schema": {"fields": [{"name": "index", "type": "integer"}, {"name": "id", "type": "string"}],
                           "primaryKey": ["index"], "pandas_version": "1.4.0"},
                "data": [{"index": k, "id": i, "hit": a.hit, "alpha": a.alpha if a.hit else None,
                          "normal": a.normal if a.hit else None, "triangle": tri_of(a)} for k, (i, a) in enumerate(rows)]}
        w(json.dumps(data))
    elif name == "dict_under_results":  # {"student": ..., "results": {id: {...}}}
        w(json.dumps({"student": "bob", "results": {i: {"hit": a.hit, "toi": a.alpha if a.hit else None, "n": a.normal,
                                                        "tri": tri_of(a)} for i, a in rows}}))
    elif name == "spread_normal":  # a header naming only the first of the normal's three columns
        w("id,hit,alpha,normal,,,triangle\n")
        for i, a in rows:
            n = a.normal or ["", "", ""]
            w("%s,%s,%s,%s,%s,%s,%s\n" % (i, "collision" if a.hit else "no collision", num(a.alpha) if a.hit else "",
                                          *(num(x) if a.hit else "" for x in n), tri_of(a) if a.hit else ""))
    elif name == "quoted_commas":  # a German locale's CSV: ',' separates, numbers quoted with decimal commas
        w("id,hit,alpha,normal,triangle\n")
        for i, a in rows:
            n = '"[%s]"' % "; ".join(num(x).replace(".", ",") for x in a.normal) if a.hit else ""
            w('%s,%s,"%s",%s,%s\n' % (i, "ja" if a.hit else "nein", num(a.alpha).replace(".", ",") if a.hit else "1",
                                      n, tri_of(a) if a.hit else ""))
    elif name == "jaxb_xml":  # Java: JAXB's marshaller, a <result> per throw, the normal an element of x, y, z
        w('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns2:results xmlns:ns2="urn:cs121"'
          ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n')
        for i, a in rows:
            w('    <result id="%s">\n        <hit>%s</hit>\n' % (i, "true" if a.hit else "false"))
            if a.hit:
                w('        <alpha>%s</alpha>\n        <normal>\n' % java_double(a.alpha))
                for axis, x in zip("xyz", a.normal):
                    w('            <%s>%s</%s>\n' % (axis, java_double(x), axis))
                w('        </normal>\n        <triangle>%d</triangle>\n' % a.triangle)
            else:
                w('        <alpha xsi:nil="true"/>\n        <normal/>\n        <triangle>-1</triangle>\n')
            w('    </result>\n')
        w('</ns2:results>\n')
    elif name == "repr_tags":  # a class whose __repr__ is f"<Result id={...} hit={...} ...>"
        for i, a in rows:
            if a.hit:
                w("<Result id=%s hit=True toi=%s normal=array([%s]) tri=%d>\n"
                  % (i, num(a.alpha), ", ".join(num(x) for x in a.normal), a.triangle))
            else:
                w("<Result id=%s hit=False toi=None normal=None tri=None>\n" % i)
    elif name == "pandas_to_html":  # a notebook's df.to_html(): the index as th cells, NaN for a miss
        w('<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n')
        for c in ("id", "hit", "alpha", "nx", "ny", "nz", "triangle"):
            w('      <th>%s</th>\n' % c)
        w('    </tr>\n  </thead>\n  <tbody>\n')
        for k, (i, a) in enumerate(rows):
            n = a.normal or [float("nan")] * 3
            cells = [i, "True" if a.hit else "False", num(a.alpha) if a.hit else "NaN",
                     *(num(x) if a.hit else "NaN" for x in n), "%.1f" % a.triangle if a.hit else "NaN"]
            w('    <tr>\n      <th>%d</th>\n' % k + "".join('      <td>%s</td>\n' % c for c in cells) + '    </tr>\n')
        w('  </tbody>\n</table>\n')
    else:
        raise SystemExit("make_class.py: unknown shape " + name)
    return out.getvalue()


# (file name, shape, scene, how the file is written, what the note must say)
CORRECT = [
    ("r.csv", "r_write_csv", "slab", {}, "the first column holds row names"),
    ("pandas.json", "pandas_columns", "slab", {}, "pandas' \"columns\" JSON"),
    ("commas.ndjson", "ndjson_commas", "slab", {}, "each ending with ','"),
    ("printf.txt", "printf_caps", "slab", {}, "columns aligned by blanks"),
    ("normalcell.csv", "normal_cell", "slab", {}, "'normal' -> normal (three numbers in one cell)"),
    ("values.json", "values_header", "slab", {}, "the first its header"),
    ("intids.csv", "int_ids", "scan", {}, "ids matched by the numbers they spell"),
    ("percent.csv", "percent", "slab", {}, "'alpha_pct' -> alpha (a percentage, / 100)"),
    ("nohit.csv", "no_hit_column", "slab", {}, "no hit column"),
    ("matlab.csv", "matlab_writetable", "slab", {}, "'normal_1', 'normal_2', 'normal_3' -> normal"),
    ("excel.csv", "excel_regional", "slab", {"bom": True, "newline": "\r\n"}, "separated by ';' with decimal commas"),
    ("java.txt", "java_tostring", "slab", {}, "type names"),
    ("cstruct.txt", "c_struct", "slab", {}, "one record per line"),
    ("printdict.txt", "python_print_dict", "slab", {}, "single quotes"),
    ("pandasindex.csv", "pandas_to_csv_index", "scan", {}, "the first column holds row names"),
    ("results.yaml", "yaml", "slab", {}, "YAML-style list"),
    ("fortran.out", "fortran", "slab", {}, "column 2 -> hit"),
    ("libre.csv", "libreoffice", "slab", {}, "separated by ','"),
    ("jq.jsonl", "jq_arrays", "slab", {}, "column 3 -> alpha"),
    ("run.log", "logfmt", "slab", {}, "a record per line of pairs"),
    ("kotlin.txt", "kotlin", "slab", {}, "type names"),
    ("notebook.md", "markdown", "slab", {}, "separated by '|'"),
    ("powershell.csv", "normal_cell", "slab", {"encoding": "utf-16-le", "newline": "\r\n"}, "UTF-16 (little-endian)"),
    ("go.txt", "go_printf", "scan", {}, "'Normal' -> normal"),
    ("rust.txt", "rust_debug", "slab", {}, "type names"),
    ("numpy.txt", "numpy_savetxt", "slab", {}, "no ids: records matched by position"),
    ("split.json", "pandas_split", "scan", {}, "pandas' \"split\" JSON"),
    ("sections.ini", "ini", "slab", {}, "a section per record"),
    ("keyed.json", "keyed_nested", "scan", {}, "answers nested under \"result\""),
    ("sqlite.txt", "sqlite", "slab", {}, "column 2 -> hit (all values 0 or 1)"),
    ("printf.log", "printf_log", "slab", {}, "ids: the keys the records are filed under"),
    ("titled.csv", "titled", "slab", {}, "ignored line 2: not a record"),
    ("ownwords.csv", "weird_names", "scan", {}, "'time_of_impact' -> alpha"),
    ("table.json", "pandas_table", "scan", {}, "the records under \"data\""),
    ("dict.json", "dict_under_results", "slab", {}, "under \"results\""),
    ("spread.csv", "spread_normal", "slab", {}, "with the two columns after it, which have no name"),
    ("locale.csv", "quoted_commas", "scan", {}, "'normal' -> normal (three numbers in one cell)"),
    ("jaxb.xml", "jaxb_xml", "slab", {}, "XML, a record per <result> element"),
    ("notebook.html", "pandas_to_html", "scan", {}, "an HTML table"),
    ("repr.txt", "repr_tags", "scan", {}, "each line's '<Name' and '>' set aside"),
]


def one_based(answers):
    return [Answer(a.hit, a.alpha, a.normal, a.triangle + 1 if a.hit else None, a.feature, {t + 1 for t in a.ties})
            for a in answers]


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--bench-scene":
        return bench_scene(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        return bench(sys.argv[2])
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    rng = random.Random(27)
    scenes = {}
    for name, builder, throws in (("slab", slab(), None), ("scan", scan(rng), None)):
        scenes[name] = [builder, throws]
    scenes["slab"][1] = slab_throws(rng, scenes["slab"][0])
    scenes["scan"][1] = scan_throws(rng, 400)
    os.makedirs(os.path.join(out, "class"), exist_ok=True)
    expected = []
    refs = {}
    for name, (builder, throws) in scenes.items():
        with open(os.path.join(out, name + ".obj"), "w") as f:
            for x, y, z in builder.vertices:
                f.write("v %r %r %r\n" % (x, y, z))
            for face in builder.faces:
                f.write("f %s\n" % " ".join(str(k + 1) for k in face))
        with open(os.path.join(out, name + "-throws.json"), "w") as f:
            json.dump(throws, f)
        scene = Scene(builder)
        exact = [scene.cast(t["p0"], t["p1"], t["r"]) for t in throws]
        refs[name] = (scene, throws, [answer_of(scene, a) for a in exact], exact)
        kinds = {}
        for a in exact:
            kinds[a.feature or "none"] = kinds.get(a.feature or "none", 0) + 1
        sys.stderr.write("%s: %d triangles, %d throws, %s\n" % (name, len(scene.mesh.triangles), len(throws),
                                                                ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))

    def emit(file, scene_name, answers, mistake, note, text=None, options=None):
        scene, throws, correct, _ = refs[scene_name]
        path = os.path.join(out, "class", scene_name, file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if text is not None:
            write_text(path, text, **(options or {}))
        score = fair(answers, correct) if answers is not None else 0.0
        expected.append(("%s/%s" % (scene_name, file), "%.4f" % score, mistake, note))

    for file, name, scene_name, options, note in CORRECT:
        scene, throws, correct, _ = refs[scene_name]
        emit(file, scene_name, correct, "", note, shape(name, rows_of(throws, correct)), options)

    # the diagnosis gaps
    slab_scene, slab_throws_, slab_correct, slab_exact = refs["slab"]
    flipped = Builder()
    flipped.vertices = slab_scene.vertices
    flipped.faces = [[f[0], f[2], f[1]] for f in slab_scene.faces]
    flipped_scene = Scene(flipped)
    answers = one_based([answer_of(flipped_scene, flipped_scene.cast(t["p0"], t["p1"], t["r"]))
                         for t in slab_throws_])
    emit("flipped1.json", "slab", answers, "one-based-triangles front-face-flipped", "",
         json.dumps([{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal, "triangle": tri_of(a)}
                     for t, a in zip(slab_throws_, answers)]))
    answers = one_based([answer_of(slab_scene, slab_scene.cast(t["p1"], t["p0"], t["r"])) for t in slab_throws_])
    emit("swapped1.json", "slab", answers, "one-based-triangles swapped-endpoints", "",
         json.dumps([{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal, "triangle": tri_of(a)}
                     for t, a in zip(slab_throws_, answers)]))
    answers = [answer_of(slab_scene, slab_scene.cast(t["p0"], t["p1"], t["r"], initial_overlap="report"))
               for t in slab_throws_]
    emit("overlaps.csv", "slab", answers, "initial-overlap-reported", "",
         shape("normal_cell", rows_of(slab_throws_, answers)))
    answers = [answer_of(slab_scene, slab_scene.cast(t["p1"], t["p0"], t["r"])) for t in slab_throws_]
    emit("swapped.json", "slab", answers, "swapped-endpoints", "",
         json.dumps({"results": [{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal,
                                  "triangle": tri_of(a)} for t, a in zip(slab_throws_, answers)]}))
    # single mistakes that must be named alone (no coincidence as a second label)
    def single(scene_name, file, mistake, answer):
        scene, throws, correct, exact = refs[scene_name]
        answers = [answer(scene, t, c, ex) for t, c, ex in zip(throws, correct, exact)]
        emit(file, scene_name, answers, mistake, "",
             json.dumps([{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal, "triangle": tri_of(a)}
                         for t, a in zip(throws, answers)]))

    def recast(**options):
        return lambda scene, t, c, ex: answer_of(scene, scene.cast(t["p0"], t["p1"], t["r"], **options))

    def contact_normal(scene, t, c, ex):
        return Answer(True, c.alpha, list(ex.normal), c.triangle, c.feature, c.ties) if c.hit else c

    def triangle_normal(scene, t, c, ex):
        return Answer(True, c.alpha, list(ex.triangle_normal), c.triangle, c.feature, c.ties) if c.hit else c

    def negated(scene, t, c, ex):
        return Answer(True, c.alpha, [-x for x in c.normal], c.triangle, c.feature, c.ties) if c.hit else c

    def beyond(scene, t, c, ex):
        if c.hit:
            return c
        p0, p1 = t["p0"], t["p1"]
        far = [p0[k] + 2 * (p1[k] - p0[k]) for k in range(3)]
        a = scene.cast(p0, far, t["r"])
        if a.state == "hit" and 2 * a.alpha_float > 1:
            return Answer(True, 2 * a.alpha_float, scene.average_normal(a), a.triangle, a.feature)
        return c

    def radius(factor):
        return lambda scene, t, c, ex: answer_of(scene, scene.cast(t["p0"], t["p1"], factor * t["r"]))

    single("slab", "le.json", "approach-lt-vs-le", recast(approach="le"))
    single("slab", "twosided.json", "back-faces-counted", recast(two_sided=True))
    single("slab", "halfradius.json", "radius-as-diameter", radius(0.5))
    single("slab", "doubleradius.json", "diameter-as-radius", radius(2.0))
    single("slab", "contact.json", "contact-normal-vs-average-normal", contact_normal)
    single("slab", "trinormal.json", "triangle-normal-vs-average-normal", triangle_normal)
    single("slab", "negated.json", "normal-negated", negated)
    single("slab", "beyond.json", "hits-beyond-path", beyond)
    single("scan", "twosided.json", "back-faces-counted", recast(two_sided=True))
    single("scan", "contact.json", "contact-normal-vs-average-normal", contact_normal)
    scan_scene, scan_throws_, scan_correct, scan_exact = refs["scan"]
    # normals unnormalised (centre - point: length r; a face contact's cross product) and one-based
    answers = []
    for t, a, ex in zip(scan_throws_, scan_correct, scan_exact):
        if not a.hit:
            answers.append(a)
            continue
        scale = t["r"] if ex.feature != "face" else 2.0 + (hash(t["id"]) % 7)
        answers.append(Answer(True, a.alpha, [x * scale for x in a.normal], a.triangle + 1, a.feature,
                              {k + 1 for k in a.ties}))
    emit("unnormalised1.csv", "scan", answers, "normal-not-normalised one-based-triangles", "",
         shape("int_ids", rows_of(scan_throws_, answers)).replace("id,", "id,", 1))
    answers = one_based(scan_correct)
    emit("onebased.json", "scan", answers, "one-based-triangles", "",
         json.dumps([{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal, "triangle": tri_of(a)}
                     for t, a in zip(scan_throws_, answers)]))
    # a ZIP of a correct file, and ids that match nothing
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("answers.csv", shape("normal_cell", rows_of(slab_throws_, slab_correct)))
    path = os.path.join(out, "class", "slab", "answers.zip")
    with open(path, "wb") as f:
        f.write(buffer.getvalue())
    expected.append(("slab/answers.zip", "0.0000", "", "a ZIP archive (unpack it first)"))
    stray = [("throw-%s" % "abcdefghij"[k % 10] * (1 + k // 10), a) for k, a in enumerate(slab_correct[:50])]
    emit("stray.csv", "slab", None, "", "no id matches", shape("normal_cell", stray))
    # two columns fit alpha (no header): the first is read, the file flagged for review
    text = "".join("%s,%s,%s,%s,%s,%s\n" % (i, "true" if a.hit else "false", num(a.alpha) if a.hit else "1",
                                             num(rng.uniform(0, 1)), " ".join(num(x) for x in a.normal) if a.hit else "",
                                             a.triangle if a.hit else "")
                   for i, a in rows_of(slab_throws_, slab_correct))
    emit("ambiguous.csv", "slab", slab_correct, "", "column 3 -> alpha", text)
    # extra ids beside every right one: listed up to --max-failures
    text = shape("normal_cell", rows_of(slab_throws_, slab_correct) + [("extra-%d" % k, slab_correct[0])
                                                                       for k in range(30)])
    emit("extras.csv", "slab", slab_correct, "", "", text)
    with open(os.path.join(out, "expected.csv"), "w") as f:
        f.write("file,fair_score,mistake,note\n")
        for row in expected:
            f.write(",".join('"%s"' % c.replace('"', '""') if ("," in c or '"' in c) else c for c in row) + "\n")


def bench_scene(out):
    """The scan and 1000 throws over it, for timing grade (bench mode)."""
    rng = random.Random(27)
    builder = scan(rng)
    throws = scan_throws(random.Random(1000), 1000)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "scan.obj"), "w") as f:
        for x, y, z in builder.vertices:
            f.write("v %r %r %r\n" % (x, y, z))
        for face in builder.faces:
            f.write("f %s\n" % " ".join(str(k + 1) for k in face))
    with open(os.path.join(out, "throws.json"), "w") as f:
        json.dump(throws, f)
    with open(os.path.join(out, "swapped.json"), "w") as f:
        json.dump([dict(t, p0=t["p1"], p1=t["p0"]) for t in throws], f)


def read_answers(path):
    answers = []
    for line in open(path):
        d = json.loads(line)
        answers.append(Answer(d["hit"], d["alpha"], d.get("normal"), d.get("triangle"), d.get("feature", "none")))
    return answers


def bench(out):
    """30 files of the scan's 1000 throws for timing grade, from ballcast's
    own answers (ANSWERS, and SWAPPED for the throws' ends exchanged: cast
    --convention cs121 --format ndjson), the reference not asked: 20 correct
    ones in 20 shapes, and 10 wrong ones (one-based triangles, negated or
    unnormalised normals, p0 and p1 exchanged, two of these at once, and
    noise no mistake explains), so that the diagnosis runs too."""
    throws = json.load(open(os.path.join(out, "throws.json")))
    right = read_answers(os.environ["ANSWERS"])
    swapped = read_answers(os.environ["SWAPPED"])
    rng = random.Random(30)
    folder = os.path.join(out, "class")
    os.makedirs(folder, exist_ok=True)
    for k, (file, name, _, options, _) in enumerate(CORRECT[:20]):
        write_text(os.path.join(folder, "%02d-%s" % (k, file)), shape(name, rows_of(throws, right)), **options)

    def wrong(a, how):
        if not a.hit:
            return a
        if how == "onebased":
            return Answer(True, a.alpha, a.normal, a.triangle + 1, a.feature)
        if how == "negated":
            return Answer(True, a.alpha, [-x for x in a.normal], a.triangle, a.feature)
        if how == "unnormalised":
            return Answer(True, a.alpha, [2 * x for x in a.normal], a.triangle + 1, a.feature)
        return Answer(True, min(1.0, a.alpha + rng.uniform(0.01, 0.2)), a.normal, a.triangle, a.feature)

    hows = ["onebased", "negated", "unnormalised", "noise", "onebased", "negated", "noise"]
    for k, how in enumerate(hows):
        answers = [wrong(a, how) for a in right]
        write_text(os.path.join(folder, "%02d-%s.json" % (20 + k, how)),
                   json.dumps([{"id": t["id"], "hit": a.hit, "alpha": a.alpha, "normal": a.normal,
                                "triangle": tri_of(a)} for t, a in zip(throws, answers)]))
    for k in range(3):
        answers = swapped if k < 2 else [wrong(a, "onebased") for a in swapped]
        write_text(os.path.join(folder, "%02d-swapped.csv" % (27 + k)), shape("normal_cell", rows_of(throws, answers)))


if __name__ == "__main__":
    main()
