"""Mesh.load and Mesh.parse over every format the library reads (OBJ, STL,
PLY, OFF), through bcMesh_Load and bcMesh_Parse: the sample room written in
each format by tests/cli/meshconv.py (written from the formats'
specifications, independently of the readers) reads to the OBJ's triangles
and casts the OBJ's answers; the format comes from the extension or
format=; a bad file raises with the command's words and its place (line
and column in text, byte in binary data)."""
import os
import struct
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ballcast
from ballcast._ballcast import lib
from conftest import BALLCAST, REPO, ROOM, THROWS, same_bits

MESHCONV = os.path.join(REPO, "tests", "cli", "meshconv.py")

# file name -> meshconv's format and options. STL holds triangles only: the
# quads are cut as the fan the OBJ reader cuts a convex quad into. Binary
# STL and float32 PLY hold the room's coordinates rounded to float32 (7.95
# is not a float32): they are held against the OBJ rounded so
# (meshconv --float32), the others against samples/room.obj itself.
ROOM_FILES = {
    "room.ply": ("ply-ascii",),
    "room-le.ply": ("ply-le", "--double"),
    "room-be.ply": ("ply-be", "--double"),
    "room-f32.ply": ("ply-le",),
    "room.off": ("off",),
    "room.stl": ("stl-binary", "--triangles"),
    "room-ascii.stl": ("stl-ascii", "--triangles"),
}
FLOAT32 = ("room-f32.ply", "room.stl")


def convert(source, target, *how):
    subprocess.run([sys.executable, MESHCONV, source, target, *how], check=True)


@pytest.fixture(scope="module")
def room_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("formats")
    for name, how in ROOM_FILES.items():
        convert(ROOM, str(folder / name), *how)
    convert(ROOM, str(folder / "room32.obj"), "obj", "--float32")
    return folder


def command_error(*args):
    """What `ballcast` says on standard error, without its "ballcast: "."""
    done = subprocess.run([BALLCAST, *args], capture_output=True, text=True)
    assert done.returncode not in (0, 1), done.stderr
    return [line[len("ballcast: "):] for line in done.stderr.splitlines()]


@pytest.mark.parametrize("name", sorted(ROOM_FILES))
def test_every_format_reads_the_room_as_the_obj(room_files, throws, name):
    """PLY and OFF keep the OBJ's vertices, triangles and faces, so every
    answer is the OBJ's byte for byte; STL (triangles only, its vertices
    numbered by first use) has the OBJ's triangles corner for corner, and
    the OBJ's answers but for the face and vertex numbers."""
    room = ballcast.Mesh.load(str(room_files / "room32.obj") if name in FLOAT32 else ROOM)
    assert room.format == "obj"
    mesh = ballcast.Mesh.load(str(room_files / name))
    assert mesh.format == name.rsplit(".", 1)[1]
    corners = room.vertices[room.triangles]
    assert np.array_equal(mesh.vertices[mesh.triangles], corners)
    assert mesh.triangle_count == room.triangle_count == 33
    ours = room.cast(throws.p0, throws.p1, throws.r, ties=True)
    theirs = mesh.cast(throws.p0, throws.p1, throws.r, ties=True)
    if mesh.format in ("ply", "off"):
        assert np.array_equal(mesh.vertices, room.vertices)
        assert np.array_equal(mesh.triangles, room.triangles)
        assert np.array_equal(mesh.triangle_faces, room.triangle_faces)
        assert mesh.merged_corners == 0
        assert same_bits(ours.raw, theirs.raw)
        assert ours.to_text("ndjson") == theirs.to_text("ndjson")
    else:
        # first use merges the 99 corners into the room's 29 vertices
        assert mesh.vertex_count == 29 and mesh.merged_corners == 3 * 33 - 29
        assert np.array_equal(mesh.triangle_faces, np.arange(33))
        for field in ("hit", "alpha", "triangle", "feature", "point", "center", "normal", "triangle_normal"):
            assert np.array_equal(getattr(ours, field), getattr(theirs, field)), field
        hit = ours.hit
        assert np.array_equal(mesh.vertices[theirs.vertices[hit]], room.vertices[ours.vertices[hit]])
    mesh.close()
    room.close()


def test_room_answers_as_the_command(room_files):
    """Mesh.load's answers for each file are the command's for that file."""
    for name in sorted(ROOM_FILES):
        path = str(room_files / name)
        with ballcast.Mesh.load(path) as mesh:
            throws = ballcast.read_trajectories(THROWS)
            text = mesh.cast_trajectories(throws).to_text("ndjson")
        done = subprocess.run([BALLCAST, "cast", "-q", "-f", "ndjson", path, THROWS], capture_output=True,
                              text=True)
        assert done.returncode in (0, 1), done.stderr
        assert text == done.stdout, name


def test_format_by_extension_or_asked(room_files, tmp_path):
    """format= names a format as --mesh-format does; without it the
    extension names it, which the first bytes must confirm, and a name that
    says nothing leaves it to the first bytes."""
    data = (room_files / "room.stl").read_bytes()
    anonymous = tmp_path / "room.dat"
    anonymous.write_bytes(data)
    with ballcast.Mesh.load(str(anonymous)) as mesh:  # a binary STL's size and NUL bytes
        assert mesh.format == "stl" and mesh.triangle_count == 33
    with ballcast.Mesh.load(str(anonymous), format="stl") as mesh:
        assert mesh.format == "stl"
    with ballcast.Mesh.load(str(room_files / "room.off"), format="auto") as mesh:
        assert mesh.format == "off"
    lying = tmp_path / "room.obj"
    lying.write_bytes((room_files / "room.ply").read_bytes())
    with pytest.raises(ballcast.MeshError) as caught:
        ballcast.Mesh.load(str(lying))
    assert caught.value.code == lib.bc_errorFormat
    assert [str(caught.value)] == command_error("cast", str(lying), THROWS)
    with ballcast.Mesh.load(str(lying), format="ply") as mesh:
        assert mesh.format == "ply"
    with pytest.raises(ballcast.MeshError, match="asked for OFF, but the first bytes are PLY's"):
        ballcast.Mesh.load(str(lying), format="off")
    with pytest.raises(ValueError, match="format must be one of 'auto', 'obj', 'stl', 'ply', 'off', not 'gltf'"):
        ballcast.Mesh.load(str(lying), format="gltf")
    with pytest.raises(TypeError, match="format must be one of"):
        ballcast.Mesh.load(str(lying), format=2)
    with pytest.raises(ballcast.MeshFileError):
        ballcast.Mesh.load(str(tmp_path / "missing.stl"))


def test_parse_is_load(room_files):
    """Mesh.parse over a file's bytes is Mesh.load of the file (the first
    bytes decide without a name)."""
    for name in sorted(ROOM_FILES):
        data = (room_files / name).read_bytes()
        with ballcast.Mesh.load(str(room_files / name)) as a, ballcast.Mesh.parse(data, name=name) as b:
            assert a.format == b.format
            assert np.array_equal(a.vertices, b.vertices) and np.array_equal(a.triangles, b.triangles)
            assert np.array_equal(a.triangle_faces, b.triangle_faces)
    with ballcast.Mesh.parse((room_files / "room.off").read_text(), format="off") as mesh:
        assert mesh.format == "off" and mesh.triangle_count == 33


def test_bad_stl_raises_with_its_byte(room_files, tmp_path):
    """A NaN in a binary STL: MeshError at its byte, counted by hand, in the
    command's words; a truncated one at the count's byte (81)."""
    data = bytearray((room_files / "room.stl").read_bytes())
    # triangle 1 (0-based), corner 2, its y: 84 + 50 + 12 (normal) + 12 (corner 1) + 4 (x), 0-based
    at = 84 + 50 * 1 + 12 + 12 * 1 + 4
    data[at:at + 4] = struct.pack("<f", float("nan"))
    bad = tmp_path / "bad.stl"
    bad.write_bytes(bytes(data))
    with pytest.raises(ballcast.MeshError) as caught:
        ballcast.Mesh.load(str(bad))
    error = caught.value
    assert (error.byte, error.line, error.column) == (at + 1, 0, 0)
    assert str(error) == "%s:byte %d: triangle 1, corner 2: coordinate y is not finite (NaN)" % (bad, at + 1)
    assert [str(error)] == command_error("cast", str(bad), THROWS)
    with pytest.raises(ballcast.MeshError) as caught:
        ballcast.Mesh.parse(bytes(data), name="bad.stl")
    assert caught.value.byte == at + 1 and str(caught.value).startswith("bad.stl:byte %d: " % (at + 1))
    short = tmp_path / "short.stl"
    short.write_bytes(bytes(data[:-10]))
    with pytest.raises(ballcast.MeshError) as caught:
        ballcast.Mesh.load(str(short))
    assert caught.value.byte == 81 and "truncated" in str(caught.value)
    assert [str(caught.value)] == command_error("cast", str(short), THROWS)


def test_text_errors_keep_line_and_column(tmp_path):
    """In text the place is a line and column, as for OBJ."""
    bad = tmp_path / "bad.off"
    bad.write_text("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n")
    with pytest.raises(ballcast.MeshError) as caught:
        ballcast.Mesh.load(str(bad))
    assert (caught.value.line, caught.value.column, caught.value.byte) == (6, 7, 0)
    assert [str(caught.value)] == command_error("cast", str(bad), THROWS)


def test_stl_normal_warnings_at_their_bytes(tmp_path):
    """Facets whose stored normal points against their winding: a
    BallcastWarning each, at the facet's byte, in the command's words."""
    path = tmp_path / "flipped.stl"
    convert(ROOM, str(path), "stl-binary", "--triangles", "--bad-normals")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = ballcast.Mesh.load(str(path))
    done = subprocess.run([BALLCAST, "cast", str(path), "-"], input="", capture_output=True, text=True)
    expected = [line[len("ballcast: "):] for line in done.stderr.splitlines()]
    assert [str(w.message) for w in caught] == expected
    # meshconv reverses every third facet's normal: facets 2, 5, ..., 32
    assert [w.record for w in mesh.warnings] == list(range(2, 33, 3))
    assert [w.byte for w in mesh.warnings] == [84 + 50 * i + 1 for i in range(2, 33, 3)]
    assert all(w.code == lib.bc_warningFacetNormal and w.line == 0 for w in mesh.warnings)
    mesh.close()


def test_warnings_point_at_the_caller(tmp_path):
    """A reader's warning names the line that read the mesh, whichever way."""
    path = tmp_path / "flipped.stl"
    convert(ROOM, str(path), "stl-binary", "--triangles", "--bad-normals")
    for read in (lambda: ballcast.Mesh.load(str(path)), lambda: ballcast.Mesh.parse(path.read_bytes())):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            read().close()
        assert caught and all(w.filename == __file__ for w in caught), [w.filename for w in caught]
