#!/usr/bin/env python3
"""Run `ballcast balls` on the groups of balls_cases.py and compare every
answer with the exact reference (balls_reference.py).

    python3 tests/exact/balls_run.py [--ballcast PATH] [--count N] [--seed N]
                                     [--class NAME] [--keep DIR] [--quiet]

Groups are packed into scenes side by side along x (moved by exact
offsets, their swept boxes apart, so no two groups meet); a group that
cannot be moved exactly gets a scene of its own. Each scene is answered by
the grid and (every --brute-every'th scene) by --brute, which must print
the same bytes. Per ball, against the exact answer:

    state (error, miss, hit, initial_overlap)  exactly
    other                                      exactly (any of the partners
                                               within the alphas' accuracy of
                                               the tie window's edge)
    alpha                                      within 2^-40 of the exact alpha,
                                               relatively (--alpha-rel), plus
                                               2^-1072 (subnormal alphas);
                                               correctly rounded for a double
                                               root or a start touching
    normal                                     within 1e-9 (--normal-tol)
    point                                      within 1e-9 (--point-tol) times
                                               the pair's size
    velocity_before                            exactly p1 - p0 rounded
    velocity_after                             within 1e-8 (--velocity-tol) of
                                               the two balls' speeds summed

Each disagreement is printed on one line with a reproducer (the group's
records, one command); then one summary line per class and a last line
exactly `balls-exact: N passed, M failed` (a case is one ball's answer).
Exit status 1 on any failure.
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
import balls_cases as cases  # noqa: E402
import balls_reference as ref  # noqa: E402

# The alphas' accuracy the man page states (BALLS, What is computed):
# within 2^-40 of the exact alpha, relatively; the same for deciding a tie
# window's edge (a partner within 4 times that of the edge may go either way).
ALPHA_REL = Fraction(1, 2**40)
TIE_BAND = Fraction(1, 2**38)

# An alpha below the smallest normal double carries absolute errors of a
# few subnormal steps.
ALPHA_ABS = Fraction(4) * Fraction(2) ** -1074

# Groups per scene at most.
GROUPS_PER_SCENE = 40


def record_line(index, rec):
    p0, p1, r, mass, fixed = rec
    fields = ['"id":%d' % index, '"p0":[%r,%r,%r]' % p0]
    if p1 is not None:
        fields.append('"p1":[%r,%r,%r]' % p1)
    fields.append('"r":%r' % r)
    if mass is not None:
        fields.append('"mass":%r' % mass)
    if fixed:
        fields.append('"fixed":true')
    return "{" + ",".join(fields) + "}"


def swept_box(group):
    """Each axis' [lo, hi] of the group's swept balls, exactly."""
    lo = [None] * 3
    hi = [None] * 3
    for p0, p1, r, _, fixed in group:
        ends = [p0] if fixed or p1 is None else [p0, p1]
        for p in ends:
            for k in range(3):
                a, b = Fraction(p[k]) - Fraction(r), Fraction(p[k]) + Fraction(r)
                lo[k] = a if lo[k] is None else min(lo[k], a)
                hi[k] = b if hi[k] is None else max(hi[k], b)
    return lo, hi


def moved(group, dx):
    """The group moved by dx along x, or None when that is not exact or
    leaves the range the cases keep to."""
    out = []
    for p0, p1, r, mass, fixed in group:
        recs = []
        for p in (p0, p1):
            if p is None:
                recs.append(None)
                continue
            x = Fraction(p[0]) + dx
            if abs(x) > cases.MAX_MAGNITUDE or Fraction(float(x)) != x:
                return None
            recs.append((float(x), p[1], p[2]))
        out.append((recs[0], recs[1], r, mass, fixed))
    return out


def pack(groups):
    """Scenes: lists of (class, group, first record index) side by side."""
    scenes = []
    current, cursor, records = [], None, 0
    for name, group in groups:
        lo, hi = swept_box(group)
        placed = None
        if current and len(current) < GROUPS_PER_SCENE and cursor is not None:
            width = hi[0] - lo[0]
            step = Fraction(2) ** (max(1, math.ceil(math.log2(float(width) + 1))) + 1)
            # The first multiple of step that puts lo beyond the cursor.
            k = math.floor((cursor - lo[0]) / step) + 1
            candidate = moved(group, k * step)
            if candidate is not None:
                placed = candidate
                cursor = hi[0] + k * step
        if placed is None:
            if current:
                scenes.append(current)
            current, records = [], 0
            placed = group
            cursor = hi[0]
        current.append((name, placed, records))
        records += len(placed)
    if current:
        scenes.append(current)
    return scenes


def run_ballcast(binary, path, brute):
    cmd = [binary, "balls", "-f", "ndjson", "-i", "ndjson", "-q"] + (["--brute"] if brute else []) + [path]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc


def fmt(v):
    return "[" + ",".join("%.17g" % x for x in v) + "]"


def size_of(bi, bj):
    """The pair's size: its largest coordinate, motion or radius."""
    values = [abs(x) for b in (bi, bj) for x in b.p0f + b.vf + tuple(p + v for p, v in zip(b.p0f, b.vf))]
    return max(values + [bi.r, bj.r])


def speed(b):
    return max(abs(x) for x in b.vf)


def compare(balls, i, ans, got, tol, stats):
    """Problems (kind, text) of ball i's answer."""
    state = "error" if "error" in got else ("miss" if not got.get("hit") else
                                            ("overlap" if got.get("initial_overlap") else "hit"))
    if state != ans.state:
        return [("state", "state %s, expected %s" % (state, ans.state))]
    if state == "error":
        return []
    if state == "miss":
        return [] if got.get("alpha") == 1 else [("alpha", "miss with alpha %r" % got.get("alpha"))]
    problems = []
    other = got.get("other")
    other = int(other) if isinstance(other, float) and other == int(other) else other
    if other not in ans.partners:
        problems.append(("other", "other %r, expected %s" % (other, " or ".join(map(str, ans.partners)))))
        other = ans.certain
    pair = ans.pairs[other]
    alpha, point, normal, after = ref.expected_fields(balls, i, other, pair)
    exact_alpha = alpha.fraction()
    err = abs(Fraction(got["alpha"]) - exact_alpha)
    if exact_alpha > 0:
        rel = float(err / exact_alpha)
        stats["alpha"] = max(stats["alpha"], rel)
    if err > tol.alpha_rel * exact_alpha + ALPHA_ABS:
        problems.append(("alpha", "alpha %r, expected %.20g (off %.3g relatively)" % (
            got["alpha"], float(exact_alpha), float(err / exact_alpha) if exact_alpha else float(err))))
    elif alpha.b == 0 and (pair.disc == 0 or pair.c == 0) and got["alpha"] != float(exact_alpha):
        # A double root (a graze, points meeting) or a start touching: the
        # man page promises the correctly rounded alpha.
        problems.append(("alpha-rounding", "alpha %r, expected %r (correctly rounded)" % (
            got["alpha"], float(exact_alpha))))
    bi, bj = balls[i], balls[other]
    n = got.get("normal")
    if n is None or max(abs(a - b) for a, b in zip(n, normal)) > tol.normal_tol:
        problems.append(("normal", "normal %s, expected %s" % (n, fmt(normal))))
    elif n is not None:
        stats["normal"] = max(stats["normal"], max(abs(a - b) for a, b in zip(n, normal)))
    size = size_of(bi, bj)
    p = got.get("point")
    if p is None or max(abs(a - b) for a, b in zip(p, point)) > tol.point_tol * size:
        problems.append(("point", "point %s, expected %s" % (p, fmt(point))))
    if tuple(got.get("velocity_before") or ()) != bi.vf:
        problems.append(("velocity_before", "velocity_before %s, expected %s" % (
            got.get("velocity_before"), fmt(bi.vf))))
    va = got.get("velocity_after")
    limit = tol.velocity_tol * (speed(bi) + speed(bj)) + 4 * math.ulp(max(abs(x) for x in after))
    if va is None or max(abs(a - b) for a, b in zip(va, after)) > limit:
        problems.append(("velocity_after", "velocity_after %s, expected %s" % (va, fmt(after))))
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ballcast", default="./ballcast")
    parser.add_argument("--count", type=int, default=3000, help="groups (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--class", dest="only", help="only this class: " +
                        ", ".join(c[0] for c in cases.CLASSES))
    parser.add_argument("--keep", help="write each failing scene to this folder")
    parser.add_argument("--quiet", action="store_true", help="no line per failure")
    parser.add_argument("--max-print", type=int, default=20, help="failure lines printed at most")
    parser.add_argument("--brute-every", type=int, default=4, help="--brute on every Nth scene")
    parser.add_argument("--alpha-rel", type=Fraction, default=ALPHA_REL)
    parser.add_argument("--normal-tol", type=float, default=1e-9)
    parser.add_argument("--point-tol", type=float, default=1e-9)
    parser.add_argument("--velocity-tol", type=float, default=1e-8)
    tol = parser.parse_args(argv)
    start = time.time()
    scenes = pack(cases.groups(tol.count, tol.seed, tol.only))
    per_class = {}
    passed = failed = printed = 0
    stats = {"alpha": 0.0, "normal": 0.0}
    with tempfile.TemporaryDirectory() as work:
        for number, scene in enumerate(scenes):
            records = [rec for _, group, _ in scene for rec in group]
            text = "\n".join(record_line(k, rec) for k, rec in enumerate(records)) + "\n"
            path = os.path.join(work, "scene.ndjson")
            with open(path, "w") as f:
                f.write(text)
            proc = run_ballcast(tol.ballcast, path, False)
            problems_scene = None
            results = None
            if proc.returncode not in (0, 1):
                problems_scene = "ballcast exited %d: %s" % (proc.returncode, proc.stderr.strip()[:300])
            else:
                # Every number as a double (json reads 1e16-sized integers as ints).
                results = [json.loads(line, parse_int=float) for line in proc.stdout.splitlines() if line.strip()]
                if len(results) != len(records):
                    problems_scene = "%d answers for %d records" % (len(results), len(records))
                elif tol.brute_every > 0 and number % tol.brute_every == 0:
                    brute = run_ballcast(tol.ballcast, path, True)
                    if brute.stdout != proc.stdout:
                        problems_scene = "--brute printed other bytes than the grid"
            balls = [ref.Ball(p0, p1, r, mass, fixed) for p0, p1, r, mass, fixed in records]
            answers = ref.answer_set(balls, TIE_BAND)
            for name, group, first in scene:
                entry = per_class.setdefault(name, {"passed": 0, "failed": 0, "ambiguous": 0, "kinds": {}})
                for k in range(first, first + len(group)):
                    if problems_scene is not None:
                        problems = [("run", problems_scene)]
                    else:
                        problems = compare(balls, k, answers[k], results[k], tol, stats)
                    if len(answers[k].partners) > 1:
                        entry["ambiguous"] += 1
                    if not problems:
                        entry["passed"] += 1
                        passed += 1
                        continue
                    entry["failed"] += 1
                    failed += 1
                    for kind, _ in problems:
                        entry["kinds"][kind] = entry["kinds"].get(kind, 0) + 1
                    if not tol.quiet and printed < tol.max_print:
                        printed += 1
                        lines = "\\n".join(record_line(j - first, rec) for j, rec in
                                           zip(range(first, first + len(group)), group))
                        print("FAIL %s scene %d ball %d (record %d of its group): %s | got %s | repro: printf '%s\\n' | "
                              "%s balls -f ndjson -i ndjson -" % (
                                  name, number, k, k - first, "; ".join(t for _, t in problems),
                                  json.dumps(results[k]) if results else "-", lines, tol.ballcast))
                    if tol.keep:
                        os.makedirs(tol.keep, exist_ok=True)
                        with open(os.path.join(tol.keep, "scene%d.ndjson" % number), "w") as f:
                            f.write(text)
    for name, _ in cases.CLASSES:
        if name in per_class:
            e = per_class[name]
            kinds = ", ".join("%s %d" % kv for kv in sorted(e["kinds"].items()))
            print("%-14s passed %6d  failed %5d  ambiguous %4d%s" % (
                name, e["passed"], e["failed"], e["ambiguous"], ("  (" + kinds + ")") if kinds else ""))
    print("worst alpha error %.3g (relative), worst normal error %.3g; %d scenes, %.1f s" % (
        stats["alpha"], stats["normal"], len(scenes), time.time() - start))
    print("balls-exact: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
