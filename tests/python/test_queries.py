"""closest, collide_balls, intersect and relate against the command."""
import json
import subprocess

import numpy as np
import pytest

import ballcast
from conftest import BUNNY, REPO, run_cli


def _write_ndjson(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")  # repr of each double: reads back as the same bits


@pytest.fixture(scope="module")
def bunny_points():
    rng = np.random.default_rng(11)
    with ballcast.Mesh.from_obj(BUNNY, quiet=True) as mesh:
        lo, hi = np.array(mesh.bounds)
        vertices = mesh.vertices.copy()
    points = lo - 0.1 * (hi - lo) + rng.random((20000, 3)) * 1.2 * (hi - lo)
    points[:500] = vertices[rng.integers(0, len(vertices), 500)]  # exactly on vertices
    r = rng.random(20000) * 0.01
    return points, r


@pytest.mark.parametrize("fmt", ["ndjson", "csv", "json"])
def test_closest_as_the_command(bunny, bunny_points, tmp_path, fmt, monkeypatch):
    points, r = bunny_points
    _write_ndjson(tmp_path / "balls.ndjson", ({"p": p, "r": x} for p, x in zip(points.tolist(), r.tolist())))
    monkeypatch.chdir(REPO)
    expected = run_cli("closest", "-q", "tests/data/meshes/stanford-bunny.obj", str(tmp_path / "balls.ndjson"),
                       "-f", fmt)
    with ballcast.Mesh.from_obj("tests/data/meshes/stanford-bunny.obj", quiet=True) as mesh:
        result = mesh.closest(points, r)
    assert result.to_text(fmt) == expected


def test_closest_hand_computed(tmp_path):
    """The man page's triangle A(0,0,0) B(1,0,0) C(0,1,0): a point above
    its face, beside its edge CA, and past its vertex A."""
    mesh = ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    result = mesh.closest([[0.25, 0.25, 2], [-3, 0.5, 4], [-3, -4, 0]], [3, 0, 1])
    assert list(result.distance) == [2, 5, 5]
    assert result.point.tolist() == [[0.25, 0.25, 0], [0, 0.5, 0], [0, 0, 0]]
    assert result.feature_names().tolist() == ["face", "edge", "vertex"]
    assert result.vertices.tolist() == [[0, 1, 2], [2, 0, -1], [0, -1, -1]]
    assert result.barycentric.tolist() == [[0.5, 0.25, 0.25], [0.5, 0, 0.5], [1, 0, 0]]
    assert result.normal.tolist() == [[0, 0, 1], [-0.6, 0, 0.8], [-0.6, -0.8, 0]]
    assert result.overlap.tolist() == [True, False, False] and result.depth.tolist() == [1, 0, 0]


@pytest.fixture(scope="module")
def ball_set():
    rng = np.random.default_rng(5)
    n = 3000
    p0 = rng.random((n, 3)) * 20
    p1 = p0 + (rng.random((n, 3)) - 0.5) * 2
    r = 0.05 + rng.random(n) * 0.2
    mass = 0.5 + rng.random(n) * 3
    fixed = rng.random(n) < 0.05
    p0[10] = [1, 1, 1]  # two balls touching exactly, approaching
    p1[10] = [2, 1, 1]
    p0[11] = [1.5, 1, 1]
    p1[11] = [1.5, 1, 1]
    r[10] = r[11] = 0.25
    return p0, p1, r, mass, fixed


@pytest.mark.parametrize("fmt", ["ndjson", "csv", "json"])
def test_balls_as_the_command(ball_set, tmp_path, fmt):
    p0, p1, r, mass, fixed = ball_set
    rows = []
    for k in range(len(r)):
        row = {"p0": p0[k].tolist(), "p1": p1[k].tolist(), "r": float(r[k]), "mass": float(mass[k])}
        if fixed[k]:
            row = {"p0": p0[k].tolist(), "r": float(r[k]), "fixed": True}
        rows.append(row)
    _write_ndjson(tmp_path / "balls.ndjson", rows)
    expected = run_cli("balls", "-q", str(tmp_path / "balls.ndjson"), "-f", fmt)
    p1 = np.where(fixed[:, None], np.nan, p1)  # a fixed ball's p1 is not read
    result = ballcast.collide_balls(p0, p1, r, mass=mass, fixed=fixed)
    assert 100 < int(result.hit.sum()) < len(r)
    assert result.to_text(fmt) == expected


def test_balls_hand_computed():
    """The man page's billiards: the cue ball meets ball 7 (mass 3) half way
    and comes back at -2; a ball running into a fixed post is reflected."""
    result = ballcast.collide_balls([[0, 0, 0], [3, 0, 0], [0, 10, 0], [0, 12, 0]],
                                    [[4, 0, 0], [3, 0, 0], [0, 11, 0], [np.nan] * 3],
                                    [0.5, 0.5, 0.5, 1], mass=[1, 3, 1, 1], fixed=[False, False, False, True])
    assert result.alpha.tolist() == [0.5] * 4
    assert result.other.tolist() == [1, 0, 3, 2]
    assert result.velocity_after.tolist() == [[-2, 0, 0], [2, 0, 0], [0, -1, 0], [0, 0, 0]]
    assert result.point[0].tolist() == [2.5, 0, 0]


@pytest.fixture(scope="module")
def spheres(tmp_path_factory, genwork):
    """An icosphere, a copy half its size inside it, one crossing it, one far away."""
    folder = tmp_path_factory.mktemp("spheres")
    base = folder / "ico.obj"
    subprocess.run([genwork, "mesh", "icosphere", "2", str(base)], check=True, stdout=subprocess.DEVNULL)
    lines = base.read_text().splitlines()

    def moved(name, scale, shift):
        out = []
        for line in lines:
            if line.startswith("v "):
                x, y, z = (float(v) * scale + s for v, s in zip(line.split()[1:], shift))
                out.append("v %r %r %r" % (x, y, z))
            else:
                out.append(line)
        (folder / name).write_text("\n".join(out) + "\n")
        return str(folder / name)

    return {"big": str(base), "small": moved("small.obj", 0.5, (0.1, 0, 0)),
            "crossing": moved("crossing.obj", 1, (1.2, 0.3, 0.1)), "far": moved("far.obj", 1, (5, 0, 0))}


@pytest.mark.parametrize("other", ["small", "crossing", "far", "big"])
def test_intersect_and_relate_as_the_command(spheres, other):
    document = json.loads(run_cli("intersect", "-q", spheres[other], spheres["big"]))
    with ballcast.Mesh.from_obj(spheres[other]) as a, ballcast.Mesh.from_obj(spheres["big"]) as b:
        pairs = ballcast.intersect(a, b)
        relation = ballcast.relate(a, b)
        assert a.is_closed and b.is_closed
    assert relation.relation == document["summary"]["relation"]
    assert len(pairs) == len(document["pairs"])
    assert pairs.a.tolist() == [p["a"] for p in document["pairs"]]
    assert pairs.b.tolist() == [p["b"] for p in document["pairs"]]
    assert pairs.state_names().tolist() == [p["state"] for p in document["pairs"]]
    for k, p in enumerate(document["pairs"]):
        expected = p["segment"] or [[0, 0, 0], [0, 0, 0]]
        assert pairs.segment[k].tolist() == expected


def test_relate_hand_picked(spheres):
    """Which solid holds which, as constructed."""
    with ballcast.Mesh.from_obj(spheres["big"]) as big:
        for name, expected in (("small", "a_inside_b"), ("crossing", "crossing"), ("far", "disjoint")):
            with ballcast.Mesh.from_obj(spheres[name]) as other:
                assert ballcast.relate(other, big).relation == expected
        with ballcast.Mesh.from_obj(spheres["small"]) as small:
            assert ballcast.relate(big, small).relation == "b_inside_a"
        open_mesh = ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
        found = ballcast.relate(open_mesh, big)
        assert found.relation == "not_closed" and not found.a_closed and found.b_closed


def test_self_intersection_and_approx_counts():
    """The command's counts of the approximate test's mistakes, and a scan
    against itself."""
    spot = REPO + "/tests/data/meshes/spot.obj"
    document = json.loads(run_cli("intersect", "-q", "--approx", "--check-approx", spot))
    with ballcast.Mesh.from_obj(spot) as mesh:
        found = ballcast.intersect(mesh, approx=True, check_approx=True)
        exact = ballcast.intersect(mesh)
    assert len(found) == document["summary"]["pairs"]
    assert found.false_positives == document["summary"]["false_positives"]
    assert found.false_negatives == document["summary"]["false_negatives"]
    assert len(exact) == json.loads(run_cli("intersect", "-q", spot))["summary"]["pairs"]
