"""examples/gradescope: setup.sh builds and installs ballcast, run_autograder
grades a student's program in a copy of Gradescope's folders, and
results.json holds what Gradescope's specification documents."""
import json
import os
import shutil
import stat
import subprocess
import zipfile

import pytest

from conftest import REPO

EXAMPLE = os.path.join(REPO, "examples", "gradescope")

# Gradescope's results.json (gradescope-autograders.readthedocs.io, "Autograder
# Specifications"): the top level's keys and a test's, and the values some take.
TOP_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
            "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
             "visibility", "extra_data"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
STATUS = {"passed", "failed"}
# ballcast grade also writes the top level's max_score (the submission's
# total), which the specification does not list; Gradescope ignores it.
BALLCAST_EXTRA = {"max_score"}


def check_against_specification(results):
    """The documented fields, their types and values; the scores add up."""
    assert isinstance(results, dict)
    assert set(results) - TOP_KEYS <= BALLCAST_EXTRA, set(results) - TOP_KEYS
    assert "score" in results or all("score" in t for t in results.get("tests", []))
    assert isinstance(results.get("score", 0), (int, float))
    assert isinstance(results.get("output", ""), str)
    assert results.get("visibility", "visible") in VISIBILITY
    assert results.get("stdout_visibility", "hidden") in VISIBILITY
    tests = results.get("tests", [])
    assert isinstance(tests, list)
    for t in tests:
        assert set(t) <= TEST_KEYS, set(t) - TEST_KEYS
        assert isinstance(t.get("name", ""), str) and isinstance(t.get("output", ""), str)
        assert isinstance(t.get("score", 0), (int, float)) and isinstance(t.get("max_score", 0), (int, float))
        assert t.get("visibility", "visible") in VISIBILITY
        assert t.get("status", "passed") in STATUS
        assert 0 <= t.get("score", 0) <= t.get("max_score", t.get("score", 0))
    if tests and "score" in results:
        assert results["score"] == sum(t["score"] for t in tests)
    return results


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """ballcast built and installed by setup.sh (from this source tree, into a
    folder of the test's, instead of /usr/local)."""
    folder = tmp_path_factory.mktemp("installed")
    env = dict(os.environ, BALLCAST_SRC=REPO, PREFIX=str(folder), AUTOGRADER_ROOT=str(folder / "none"))
    done = subprocess.run(["bash", os.path.join(EXAMPLE, "setup.sh")], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0.1.0" in done.stdout.splitlines()[-1]
    assert os.access(folder / "bin" / "ballcast", os.X_OK)
    return str(folder)


def run_autograder(tmp_path, prefix, files, timeout=20):
    """A copy of Gradescope's folders with the student's files; results.json."""
    root = tmp_path / "autograder"
    source = root / "source"
    (source / "course").mkdir(parents=True)
    for name in ("setup.sh", "run_autograder"):
        shutil.copy2(os.path.join(EXAMPLE, name), source / name)
    shutil.copy(os.path.join(EXAMPLE, "course", "grade-options"), source / "course")
    shutil.copy(os.path.join(REPO, "samples", "room.obj"), source / "course" / "mesh.obj")
    shutil.copy(os.path.join(REPO, "samples", "throws.json"), source / "course" / "throws.json")
    (root / "submission").mkdir()
    (root / "results").mkdir()
    for name, text in files.items():
        (root / "submission" / name).write_text(text)
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), PATH=prefix + "/bin:" + os.environ["PATH"],
               STUDENT_TIMEOUT=str(timeout))
    env.pop("BALLCAST", None)
    done = subprocess.run([str(source / "run_autograder")], env=env, capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(root / "results" / "results.json", encoding="utf-8") as f:
        return check_against_specification(json.load(f)), done.stdout


# A student who follows the course's conventions (a stand-in: the command itself).
CORRECT = '#!/bin/sh\nexec ballcast cast --convention cs121 "$1" "$2"\n'

# A student who forgot them: contact normals, initial overlaps reported.
WRONG = '''import subprocess, sys
print(subprocess.run(["ballcast", "cast", sys.argv[1], sys.argv[2]], capture_output=True, text=True).stdout)
'''


def test_correct_program_full_marks(tmp_path, prefix):
    results, log = run_autograder(tmp_path, prefix, {"collide": CORRECT})
    assert results["score"] == 13 == len(results["tests"])
    assert all(t["score"] == t["max_score"] == 1 for t in results["tests"])
    assert results["tests"][0]["name"] == "id drop-on-floor"
    assert "13 passed, 0 failed" in results["output"]
    assert "exit status 0" in log


def test_wrong_program_marked_and_diagnosed(tmp_path, prefix):
    results, _ = run_autograder(tmp_path, prefix, {"collide.py": WRONG})
    failed = [t for t in results["tests"] if t["score"] < t["max_score"]]
    assert [t["name"] for t in failed] == ["id crate-corner", "id room-corner", "id 7.50"]
    assert results["score"] == 10
    assert "contact-normal-vs-average-normal" in results["output"]
    assert all(t["output"] for t in failed) and "angle" in failed[0]["output"]


def test_missing_crashing_and_slow_programs(tmp_path, prefix):
    """Told to the student in the output; what was printed is still graded."""
    results, _ = run_autograder(tmp_path / "missing", prefix, {"README.txt": "I forgot\n"})
    assert results["score"] == 0 and results["output"].startswith("No program found")
    half = '#!/bin/sh\nballcast cast --convention cs121 "$1" "$2" -f ndjson | head -n 5\nexit 3\n'
    results, _ = run_autograder(tmp_path / "crash", prefix, {"collide.sh": half})
    assert results["output"].startswith("Your program exited with status 3")
    assert results["score"] == 5
    slow = '#!/bin/sh\nballcast cast --convention cs121 "$1" "$2" -f ndjson | head -n 2\nexec sleep 60\n'
    results, _ = run_autograder(tmp_path / "slow", prefix, {"collide.sh": slow}, timeout=2)
    assert "longer than 2 seconds" in results["output"] and results["score"] == 2


def test_the_zip_a_teacher_uploads(tmp_path):
    """make_autograder.sh: setup.sh and run_autograder at the zip's root,
    executable; the course's files; ballcast's source with its Makefile."""
    out = tmp_path / "autograder.zip"
    done = subprocess.run(["sh", os.path.join(EXAMPLE, "make_autograder.sh"), str(out)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        for name in ("setup.sh", "run_autograder"):
            assert name in names
            assert stat.S_IMODE(z.getinfo(name).external_attr >> 16) & 0o100
        for name in ("course/mesh.obj", "course/throws.json", "course/grade-options", "ballcast/Makefile",
                     "ballcast/lib/ballcast.h", "ballcast/scripts/install-deps"):
            assert name in names, name
