"""What the binding takes: shapes, dtypes, layouts, empty batches, and each
bad input, refused with the right exception and a message that names it."""
import os

import numpy as np
import pytest

import ballcast
from ballcast import _mesh
from conftest import REPO, ROOM, run_cli, same_bits


@pytest.fixture(scope="module")
def sample(throws):
    return throws.p0.copy(), throws.p1.copy(), throws.r.copy()


@pytest.fixture(scope="module")
def reference(room, sample):
    p0, p1, r = sample
    return room.cast(p0, p1, r, ties=True).raw


def _same(result, reference):
    return same_bits(result.raw, reference)


def test_lists_ints_and_float32(room, sample, reference):
    """Lists, tuples, integer arrays and float32 (exact in float64) give the same answers."""
    p0, p1, r = sample
    assert _same(room.cast(p0.tolist(), tuple(map(tuple, p1.tolist())), r.tolist(), ties=True), reference)
    ints = room.cast(np.array([[1, 1, 2]], dtype=np.int16), np.array([[1, 1, -1]], dtype=np.int64),
                     np.float32(0.25))
    assert ints.alpha[0] == room.cast([1.0, 1.0, 2.0], [1.0, 1.0, -1.0], 0.25).alpha[0]
    halves = np.array([[1, 1, 2]], dtype=np.float32)
    assert room.cast(halves, [[1, 1, -1]], np.float32(0.25)).alpha[0] == 1.75 / 3


def test_non_contiguous_and_fortran(room, sample, reference):
    p0, p1, r = sample
    wide = np.zeros((len(r), 9))
    wide[:, 0:3] = p0
    wide[:, 6:9] = p1
    spaced = np.zeros(2 * len(r))
    spaced[::2] = r
    assert not wide[:, 0:3].flags.c_contiguous and not spaced[::2].flags.c_contiguous
    assert _same(room.cast(wide[:, 0:3], wide[:, 6:9], spaced[::2], ties=True), reference)
    assert _same(room.cast(np.asfortranarray(p0), np.asfortranarray(p1), r, ties=True), reference)
    reversed_rows = room.cast(p0[::-1], p1[::-1], r[::-1])
    assert np.array_equal(reversed_rows.alpha[::-1], room.cast(p0, p1, r).alpha)


def test_read_only_arrays(room, sample, reference):
    p0, p1, r = (a.copy() for a in sample)
    for a in (p0, p1, r):
        a.flags.writeable = False
    assert _same(room.cast(p0, p1, r, ties=True), reference)
    packed = ballcast.pack_casts(p0, p1, r)
    packed.flags.writeable = False
    assert _same(room.cast_packed(packed, ties=True), reference)
    assert room.closest(p0, 0.1).distance.shape == (len(r),)
    vertices = room.vertices  # read-only itself
    assert not vertices.flags.writeable
    copy = ballcast.Mesh(vertices, room.triangles, room.triangle_faces)
    assert copy.cast(p0, p1, r, ties=True).to_text("ndjson") == room.cast(p0, p1, r, ties=True).to_text("ndjson")


def test_packed_is_not_copied(sample):
    """An (n, 7) C-contiguous float64 array goes to the library as it is;
    anything else is converted once."""
    packed = ballcast.pack_casts(*sample)
    assert packed.shape == (len(sample[2]), 7) and packed.flags.c_contiguous
    assert _mesh._packed(packed) is packed
    assert _mesh._packed(np.asfortranarray(packed)) is not packed
    assert np.array_equal(_mesh._packed(packed.astype(np.float32)), packed.astype(np.float32))


def test_one_point_for_all(room):
    """A single p0 (3,) stands for every cast, a single r for every radius."""
    result = room.cast([1, 1, 2], [[1, 1, -1], [1.5, 1, -1], [2, 1, -1]], 0.25)
    assert len(result) == 3 and result.hit.all()


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv"])
def test_empty_batches(room, tmp_path, fmt):
    """An empty batch is answered as the command answers an empty input."""
    (tmp_path / "empty.json").write_text("")
    empty = np.empty((0, 3))
    for options, args in (({}, []), ({"ties": True}, ["--ties"]),
                          ({"method": "discrete", "dt": 0.1}, ["--method", "discrete", "--dt", "0.1"])):
        result = room.cast(empty, empty, np.empty(0), **options)
        assert len(result) == 0 and result.alpha.shape == (0,) and result.point.shape == (0, 3)
        result.mesh_info["file"] = ROOM
        assert result.to_text(fmt) == run_cli("cast", "-q", ROOM, str(tmp_path / "empty.json"), "-f", fmt, *args)
    assert len(room.closest(empty)) == 0
    assert len(ballcast.collide_balls(empty, empty, 0.1)) == 0
    assert len(room.cast_packed(np.empty((0, 7)))) == 0


BAD_CASTS = [
    (dict(p0=[[1, 2]], p1=[[1, 2]], r=0.1), ValueError, "p0 must have shape (n, 3)"),
    (dict(p0=np.zeros((2, 3)), p1=np.zeros((3, 3)), r=0.1), ValueError, "different lengths"),
    (dict(p0=np.zeros((2, 3)), p1=np.zeros((2, 3)), r=[0.1, 0.2, 0.3]), ValueError, "different lengths"),
    (dict(p0=np.zeros((2, 3)), p1=np.zeros((2, 3)), r=np.zeros((2, 2))), ValueError, "r must be a number"),
    (dict(p0=[["a", "b", "c"]], p1=[[1, 2, 3]], r=0.1), TypeError, "p0 must hold real numbers"),
    (dict(p0=[[1j, 0, 0]], p1=[[1, 2, 3]], r=0.1), TypeError, "p0 must hold real numbers"),
    (dict(p0=[[True, False, True]], p1=[[1, 2, 3]], r=0.1), TypeError, "p0 must hold real numbers"),
    (dict(p0=[[None, 0, 0]], p1=[[1, 2, 3]], r=0.1), TypeError, "p0 must hold real numbers"),
    (dict(p0=[[0, 0, 0], [np.nan, 0, 0]], p1=[[1, 1, 1]] * 2, r=0.1), ValueError, "record 1: p0 is not finite"),
    (dict(p0=[[0, 0, 0]], p1=[[np.inf, 1, 1]], r=0.1), ValueError, "record 0: p1 is not finite"),
    (dict(p0=[[0, 0, 0]], p1=[[1, 1, 1]], r=-0.1), ValueError, "record 0: r is negative"),
    (dict(p0=[[0, 0, 0]], p1=[[1, 1, 1]], r=np.nan), ValueError, "record 0: r is not finite"),
    (dict(p0=[[0, 0, 1e51]], p1=[[1, 1, 1]], r=0.1), ValueError, "beyond the supported range of 1e50"),
]


@pytest.mark.parametrize("kwargs,error,words", BAD_CASTS, ids=[w for _, _, w in BAD_CASTS])
def test_bad_cast_inputs(room, kwargs, error, words):
    with pytest.raises(error) as raised:
        room.cast(**kwargs)
    assert words in str(raised.value)


BAD_OPTIONS = [
    (dict(approach="gt"), ValueError, "approach must be one of 'le', 'lt'"),
    (dict(normal="up"), ValueError, "normal must be one of"),
    (dict(initial_overlap="skip"), ValueError, "initial_overlap must be one of"),
    (dict(convention="cs999"), ValueError, "convention must be one of 'cs121'"),
    (dict(two_sided="yes"), TypeError, "two_sided must be True or False"),
    (dict(ties=1), TypeError, "ties must be True or False"),
    (dict(threads=-1), ValueError, "threads must be >= 0"),
    (dict(threads=1.5), TypeError, "threads must be a whole number"),
    (dict(method="stepping"), ValueError, "method must be one of"),
    (dict(method="discrete"), ValueError, "needs dt"),
    (dict(method="discrete", dt=0), ValueError, "dt needs a fraction of the path from 1e-9 to 1"),
    (dict(method="discrete", dt=2), ValueError, "dt needs a fraction of the path from 1e-9 to 1"),
    (dict(method="discrete", dt=0.1, bisect=65), ValueError, "bisect needs a whole number from 0 to 64"),
    (dict(method="discrete", dt=0.1, bisect=2.5), TypeError, "bisect must be a whole number"),
    (dict(method="discrete", dt=0.1, ties=True), ValueError, "finds one contact"),
    (dict(method="discrete", dt=0.1, normal="average"), ValueError, "finds one contact"),
    (dict(dt=0.1), ValueError, "need method='discrete'"),
    (dict(compare_exact=True), ValueError, "need method='discrete'"),
    (dict(errors="ignore"), ValueError, "errors must be one of 'raise', 'mark'"),
]


@pytest.mark.parametrize("kwargs,error,words", BAD_OPTIONS, ids=[w for _, _, w in BAD_OPTIONS])
def test_bad_cast_options(room, kwargs, error, words):
    with pytest.raises(error) as raised:
        room.cast([1, 1, 2], [1, 1, -1], 0.25, **kwargs)
    assert words in str(raised.value)


def test_bad_records_marked_the_others_answered(room, sample):
    """errors="mark": a bad record gets state INVALID and its message, and
    the others are answered as without it."""
    p0, p1, r = (a.copy() for a in sample)
    p0[3, 1] = np.nan
    r[5] = -1
    result = room.cast(p0, p1, r, errors="mark", ties=True)
    assert result.errors == {3: "p0 is not finite", 5: "r is negative"}
    assert result.state[3] == ballcast.INVALID and not result.hit[3]
    good = np.ones(len(r), dtype=bool)
    good[[3, 5]] = False
    clean = room.cast(p0[good], p1[good], r[good])
    assert np.array_equal(result.alpha[good], clean.alpha)
    assert np.array_equal(result.triangle[good], clean.triangle)
    text = result.to_text("ndjson").splitlines()
    assert text[3] == '{"id":3,"error":"p0 is not finite"}'


def test_bad_closest_and_balls(room):
    with pytest.raises(ValueError, match="ball 1: p or r is not a finite number"):
        room.closest([[0, 0, 0], [np.nan, 0, 0]])
    with pytest.raises(ValueError, match="ball 0: r is negative"):
        room.closest([[0, 0, 0]], -1)
    marked = room.closest([[1, 1, 1], [np.inf, 0, 0]], errors="mark")
    assert marked.errors == {1: "p or r is not a finite number"} and marked.found.tolist() == [True, False]
    with pytest.raises(ValueError, match="points must have shape"):
        room.closest(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="ball 1: r is negative"):
        ballcast.collide_balls([[0, 0, 0], [1, 1, 1]], [[1, 0, 0], [1, 1, 1]], [0.1, -0.1])
    with pytest.raises(ValueError, match="ball 0: mass must be a number > 0"):
        ballcast.collide_balls([[0, 0, 0], [1, 1, 1]], [[1, 0, 0], [1, 1, 1]], 0.1, mass=[0, 1])
    with pytest.raises(ValueError, match="restitution must be in"):
        ballcast.collide_balls([[0, 0, 0]], [[1, 0, 0]], 0.1, restitution=2)
    with pytest.raises(TypeError, match="fixed must hold booleans"):
        ballcast.collide_balls([[0, 0, 0]], [[1, 0, 0]], 0.1, fixed=[1])


BAD_MESHES = [
    (dict(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles=[[0, 1, 3]]), ValueError, "triangle 0 uses vertex 3, outside 0..2"),
    (dict(vertices=[[0, 0, 0], [1, 0, np.nan], [0, 1, 0]], triangles=[[0, 1, 2]]), ValueError, "vertex 1 has a non-finite coordinate"),
    (dict(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles=np.zeros((0, 3), dtype=int)), ValueError, ""),
    (dict(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles=[[0.0, 1.0, 2.0]]), TypeError, "whole numbers"),
    (dict(vertices=[[0, 0], [1, 0], [0, 1]], triangles=[[0, 1, 2]]), ValueError, "vertices must have shape"),
    (dict(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles=[[0, 1, 2, 0]]), ValueError, "triangles must have"),
    (dict(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles=[[0, 1, 2**40]]), ValueError, "32-bit range"),
    (dict(vertices=[["x", 0, 0], [1, 0, 0], [0, 1, 0]], triangles=[[0, 1, 2]]), TypeError, "real numbers"),
]


@pytest.mark.parametrize("kwargs,error,words", BAD_MESHES, ids=[str(i) for i in range(len(BAD_MESHES))])
def test_bad_meshes(kwargs, error, words):
    with pytest.raises(error) as raised:
        ballcast.Mesh(**kwargs)
    assert words in str(raised.value)


def test_bad_obj_files(tmp_path):
    """The library's message, with the file, line and column the command prints."""
    cases = {
        "nan.obj": "v 0 0 0\nv 1 0 0\nv 0 1 nan\nf 1 2 3\n",
        "index.obj": "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",
        "empty.obj": "v 0 0 0\n",
        "syntax.obj": "v 0 0 0\nv 1 x 0\n",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        os.chdir(tmp_path)
        with pytest.raises(ballcast.MeshError) as raised:
            ballcast.Mesh.from_obj(name)
        assert isinstance(raised.value, ValueError)
        message = run_cli("cast", name, "-", input="", check=False)  # nothing on stdout: the message is stderr's
        assert message == ""
        import subprocess
        stderr = subprocess.run([os.path.join(REPO, "ballcast"), "cast", name, "-"], input="", capture_output=True,
                                text=True).stderr
        assert stderr.strip() == "ballcast: " + str(raised.value), name
        with pytest.raises(ballcast.MeshError):
            ballcast.Mesh.from_obj_text(text, name=name)
    os.chdir(REPO)
    with pytest.raises(ballcast.MeshFileError) as raised:
        ballcast.Mesh.from_obj(str(tmp_path / "missing.obj"))
    assert isinstance(raised.value, OSError) and "cannot open" in str(raised.value)


def test_closed_mesh_refuses_queries():
    mesh = ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    mesh.close()
    mesh.close()  # harmless
    assert mesh.closed
    for call in (lambda: mesh.cast([0, 0, 1], [0, 0, -1], 0), lambda: mesh.closest([0, 0, 1]),
                 lambda: mesh.is_closed, lambda: ballcast.intersect(mesh)):
        with pytest.raises(ValueError, match="the mesh is closed"):
            call()
