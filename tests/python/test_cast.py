"""Mesh.cast against the command and against hand computation."""
import io
import math

import numpy as np
import pytest

import ballcast
from conftest import BUNNY, REPO, ROOM, THROWS, run_cli, same_bits

# Every option of cast that decides an answer, as the command spells it and
# as the binding does.
CASES = [
    ([], {}),
    (["--ties"], dict(ties=True)),
    (["--two-sided"], dict(two_sided=True)),
    (["--approach", "lt"], dict(approach="lt")),
    (["--normal", "triangle"], dict(normal="triangle")),
    (["--normal", "average"], dict(normal="average")),
    (["--initial-overlap", "ignore"], dict(initial_overlap="ignore")),
    (["--convention", "cs121"], dict(convention="cs121")),
    (["--convention", "cs121", "--approach", "le", "--two-sided"], dict(convention="cs121", approach="le",
                                                                        two_sided=True)),
    (["--brute", "--ties"], dict(brute=True, ties=True)),
    (["--method", "discrete", "--dt", "0.01"], dict(method="discrete", dt=0.01)),
    (["--method", "discrete", "--dt", "0.125", "--bisect", "3", "--compare-exact", "--normal", "triangle"],
     dict(method="discrete", dt=0.125, bisect=3, compare_exact=True, normal="triangle")),
]


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv"])
@pytest.mark.parametrize("args,options", CASES, ids=[" ".join(a) or "defaults" for a, _ in CASES])
def test_samples_as_the_command_writes_them(room, throws, args, options, fmt):
    """Every option, every format: the binding's answers written out are the
    command's bytes (numbers, ids, ties, discrete columns, JSON head)."""
    expected = run_cli("cast", "-q", ROOM, THROWS, "-f", fmt, *args)
    result = room.cast(throws.p0, throws.p1, throws.r, **options)
    result.ids = throws.ids
    assert result.to_text(fmt) == expected


def test_samples_expected_files(throws, monkeypatch):
    """The samples' expected outputs, written by the command and kept in the tree."""
    monkeypatch.chdir(REPO)
    with ballcast.Mesh.from_obj("samples/room.obj") as room:
        result = room.cast_trajectories(throws)
    with open(ROOM.replace("room.obj", "expected.json"), encoding="utf-8") as f:
        assert result.to_text("json") == f.read()
    with open(ROOM.replace("room.obj", "expected.csv"), encoding="utf-8") as f:
        assert result.to_text("csv") == f.read()


def test_hand_computed(room):
    """Alphas computed by hand: a ball of r 0.25 dropped from z 2 to z -1 on
    the floor z = 0 touches when its centre is at 0.25, alpha 1.75 / 3; a
    ball of r 0.1 from (1,1,2) to (3,3,0) meets the crate's corner (2,2,1)
    when 3 (2 alpha - 1)^2 = 0.01."""
    result = room.cast([[1, 1, 2], [1, 1, 2]], [[1, 1, -1], [3, 3, 0]], [0.25, 0.1])
    assert result.alpha[0] == 1.75 / 3
    assert tuple(result.point[0]) == (1, 1, 0) and tuple(result.center[0]) == (1, 1, 0.25)
    assert tuple(result.normal[0]) == (0, 0, 1) and result.feature[0] == ballcast.FEATURE_FACE
    assert result.triangle[0] == 1 and tuple(result.vertices[0]) == (0, 2, 3)
    assert abs(result.alpha[1] - (1 - 0.1 / math.sqrt(3)) / 2) < 1e-15
    assert result.feature[1] == ballcast.FEATURE_VERTEX and tuple(result.vertices[1]) == (12, -1, -1)
    assert tuple(result.point[1]) == (2, 2, 1)
    assert np.allclose(result.normal[1], np.array([-1, -1, 1]) / math.sqrt(3), rtol=0, atol=1e-15)


def test_miss_and_overlap(room):
    """A ball that stays put in the air misses (alpha 1, triangle -1); one
    starting on the floor overlaps at alpha 0 (or, ignored, misses)."""
    result = room.cast([[4, 3, 1.5], [4, 3, 0.1]], [[4, 3, 1.5], [4.5, 3, 0.1]], 0.2)
    assert list(result.hit) == [False, True]
    assert result.alpha[0] == 1 and result.triangle[0] == -1 and result.face[0] == -1
    assert result.initial_overlap[1] and result.alpha[1] == 0
    ignored = room.cast([4, 3, 0.1], [4.5, 3, 0.1], 0.2, initial_overlap="ignore")
    assert not ignored.hit[0]


@pytest.fixture(scope="module")
def bunny_cli(bunny_throws):
    return run_cli("cast", "-q", BUNNY, bunny_throws, "-f", "ndjson")


@pytest.fixture(scope="module")
def bunny_trajectories(bunny_throws):
    return ballcast.read_trajectories(bunny_throws)


def test_bunny_100k_as_the_command(bunny, bunny_trajectories, bunny_cli):
    """100,000 throws at the bunny: the same bytes as the command's."""
    t = bunny_trajectories
    assert len(t.r) == 100_000 and not t.errors
    result = bunny.cast(t.p0, t.p1, t.r)
    assert 20_000 < int(result.hit.sum()) < 100_000
    assert result.to_text("ndjson") == bunny_cli


def test_bunny_100k_arrays_bit_for_bit(bunny, bunny_trajectories, bunny_throws):
    """The arrays themselves, bit for bit, against the command's file read
    back, with ties, both sides and the average normal."""
    t = bunny_trajectories
    cli = ballcast.read_results(io.StringIO(run_cli("cast", "-q", BUNNY, bunny_throws, "-f", "ndjson", "--ties",
                                                   "--two-sided", "--normal", "average")))
    result = bunny.cast(t.p0, t.p1, t.r, ties=True, two_sided=True, normal="average")
    for name in ("hit", "initial_overlap", "triangle", "face", "feature", "vertex_count", "vertices", "tie_count"):
        assert np.array_equal(getattr(result, name), getattr(cli, name)), name
    for name in ("alpha", "point", "center", "normal", "triangle_normal"):
        assert np.array_equal(getattr(result, name).view(np.uint64), getattr(cli, name).view(np.uint64)), name
    assert np.array_equal(result.ties.first, cli.ties.first)
    for name in ("triangle", "feature", "vertices"):
        assert np.array_equal(getattr(result.ties, name), getattr(cli.ties, name)), name
    assert np.array_equal(result.ties.alpha.view(np.uint64), cli.ties.alpha.view(np.uint64))
    assert np.array_equal(result.ties.normal.view(np.uint64), cli.ties.normal.view(np.uint64))


def test_bunny_discrete_as_the_command(bunny, bunny_trajectories, bunny_throws, tmp_path):
    """The discrete method on 10,000 bunny throws, on two threads: the
    command's bytes, alpha_free and exact_alpha included."""
    with open(bunny_throws, encoding="utf-8") as f:
        head = [line for _, line in zip(range(10000), f)]
    path = tmp_path / "head.ndjson"
    path.write_text("".join(head))
    expected = run_cli("cast", "-q", BUNNY, str(path), "-f", "csv", "--method", "discrete", "--dt", "0.02",
                       "--bisect", "6", "--compare-exact", "--normal", "triangle")
    t = bunny_trajectories
    result = bunny.cast(t.p0[:10000], t.p1[:10000], t.r[:10000], method="discrete", dt=0.02, bisect=6,
                        compare_exact=True, normal="triangle", threads=2)
    assert result.to_text("csv") == expected


def test_bunny_contact_geometry(bunny, bunny_trajectories):
    """What a contact is: the centre at alpha is p0 + alpha (p1 - p0), the
    contact point is r from it, and the contact normal points from the
    point to the centre."""
    t = bunny_trajectories
    result = bunny.cast(t.p0, t.p1, t.r)
    hit = result.hit & ~result.initial_overlap
    a = result.alpha[hit][:, None]
    assert np.allclose(result.center[hit], t.p0[hit] + a * (t.p1[hit] - t.p0[hit]), rtol=0, atol=1e-12)
    # alpha is within 2^-40 of the exact value (the man page's Exactness), so
    # the gap is r to about 2^-40 times the path's length (0.02 to 0.3 here)
    gap = np.linalg.norm(result.center[hit] - result.point[hit], axis=1)
    length = np.linalg.norm(t.p1[hit] - t.p0[hit], axis=1)
    assert np.all(np.abs(gap - t.r[hit]) <= 2.0**-40 * length * 64 + 1e-15)
    direction = (result.center[hit] - result.point[hit]) / gap[:, None]
    assert np.allclose(direction, result.normal[hit], rtol=0, atol=1e-6)
    assert np.all(result.tie_count[result.hit] >= 1)


def test_threads_do_not_change_answers(bunny, bunny_trajectories):
    t = bunny_trajectories
    one = bunny.cast(t.p0[:20000], t.p1[:20000], t.r[:20000], threads=1)
    two = bunny.cast(t.p0[:20000], t.p1[:20000], t.r[:20000], threads=2)
    assert same_bits(one.raw, two.raw)


def test_discrete_never_before_exact(bunny, bunny_trajectories):
    """The discrete method's alpha is never before the exact one (to
    rounding), its alpha_free bracket at most dt / 2^N wide, and where a
    whole step is in contact it is within that of the exact alpha."""
    t = bunny_trajectories
    n = 3000
    result = bunny.cast(t.p0[:n], t.p1[:n], t.r[:n], method="discrete", dt=0.05, bisect=4, compare_exact=True)
    both = result.hit & ~np.isnan(result.exact_alpha)
    assert np.all(result.alpha[both] >= result.exact_alpha[both] - 1e-12)
    assert np.all(result.alpha[result.hit] - result.alpha_free[result.hit] <= 0.05 / 16 + 1e-15)
    assert np.all(result.alpha_free[~result.hit] == 1)


def test_result_is_read_only(room):
    result = room.cast([1, 1, 2], [1, 1, -1], 0.25)
    with pytest.raises(ValueError):
        result.alpha[0] = 0.5
    with pytest.raises(ValueError):
        result.hit[0] = False


def test_result_views_share_one_block(room, throws):
    """A million casts must not build a million objects: the fields are
    views of one structured array in bcCastOutput's layout."""
    result = room.cast(throws.p0, throws.p1, throws.r)
    for name in ("alpha", "triangle", "point", "normal", "vertices"):
        assert getattr(result, name).base is not None
        assert np.shares_memory(getattr(result, name), result.raw)
    assert result.raw.dtype.itemsize == 152 or result.raw.dtype.itemsize > 0


def test_help_reads(capsys):
    """help(ballcast.Mesh.cast) says what a student needs: the arguments and what comes back."""
    help(ballcast.Mesh.cast)
    text = capsys.readouterr().out
    for words in ("p0, p1", "two_sided", "approach", "normal", "initial_overlap", "convention", "ties",
                  "method", "dt", "threads", "Returns a CastResult", "alpha"):
        assert words in text, words
