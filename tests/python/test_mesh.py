"""Meshes: built from arrays or files, their warnings, their arrays, and
their memory: freed exactly once, never leaked, and out of memory raised as
MemoryError (the library's allocator counted, in a fresh process)."""
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import ballcast
from conftest import BALLCAST, REPO, ROOM, run_cli, same_bits


def test_arrays_and_file_agree(room, throws):
    """A mesh rebuilt from another's arrays answers the same, bit for bit."""
    copy = ballcast.Mesh(room.vertices, room.triangles, room.triangle_faces)
    assert (copy.vertex_count, copy.triangle_count, copy.face_count) == (29, 33, 16)
    a = room.cast(throws.p0, throws.p1, throws.r, ties=True)
    b = copy.cast(throws.p0, throws.p1, throws.r, ties=True)
    assert same_bits(a.raw, b.raw)
    assert same_bits(a.ties._raw, b.ties._raw)


def test_arrays_are_the_files(room):
    """vertices are the file's v lines; triangles, faces and normals as the man page defines them."""
    with open(ROOM, encoding="utf-8") as f:
        v = [list(map(float, line.split()[1:4])) for line in f if line.startswith("v ")]
    assert room.vertices.tolist() == v
    a, b, c = (room.vertices[room.triangles[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    assert np.allclose(room.triangle_normals, n, atol=1e-15)
    assert room.triangle_faces[0] == 0 and room.triangle_faces[-1] == 15
    assert not room.degenerate.any()
    closed = '"closed":true' in run_cli("intersect", "-q", ROOM).split("\n")[0]
    assert room.is_closed is closed
    lo, hi = room.bounds
    assert lo == tuple(np.min(room.vertices, axis=0)) and hi == tuple(np.max(room.vertices, axis=0))


def test_warnings_as_the_command_notes_them(tmp_path):
    """A self-intersecting polygon and a degenerate triangle: BallcastWarning
    with the command's words; quiet=True keeps them silent."""
    path = tmp_path / "warn.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nf 1 2 3\nf 1 2 4 3\nf 1 2 3 4 5\n")
    stderr = subprocess.run([BALLCAST, "cast", str(path), "-"], input="", capture_output=True, text=True).stderr
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = ballcast.Mesh.from_obj(str(path))
    assert [str(w.message) for w in caught] == [line[len("ballcast: "):] for line in stderr.splitlines()]
    assert all(issubclass(w.category, ballcast.BallcastWarning) for w in caught)
    assert len(mesh.warnings) == 1 and mesh.warnings[0].line == 8 and mesh.warnings[0].record == 2
    assert mesh.degenerate_count == 1 and mesh.degenerate.tolist().index(True) == 5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ballcast.Mesh.from_obj(str(path), quiet=True)


def test_context_manager_and_repr():
    with ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]) as mesh:
        assert "3 vertices, 1 triangles" in repr(mesh)
        assert mesh.cast([0.2, 0.2, 1], [0.2, 0.2, -1], 0).hit[0]
    assert mesh.closed and "closed" in repr(mesh)
    import pickle
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]))


def test_many_threads_one_mesh(bunny, bunny_throws):
    """One mesh queried from several Python threads at once answers each as alone."""
    from concurrent.futures import ThreadPoolExecutor
    t = ballcast.read_trajectories(bunny_throws)
    parts = [slice(k * 5000, (k + 1) * 5000) for k in range(4)]
    alone = [bunny.cast(t.p0[s], t.p1[s], t.r[s], threads=1).raw for s in parts]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: bunny.cast(t.p0[s], t.p1[s], t.r[s], threads=1).raw, parts))
    assert all(same_bits(a, b) for a, b in zip(together, alone))


def _run(script):
    """Run script in a fresh interpreter (the counting allocator must come
    before any other call of the library); its standard output."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_no_leak_over_1000_meshes():
    """1,000 meshes made, queried and freed every way (close, with, dropped,
    closed while another thread casts): the library's blocks come back to
    where they were, never fewer (a mesh freed twice would), and the
    process's resident memory does not grow with the count."""
    out = _run("""
        import gc, threading
        from ballcast import _testing
        _testing.use_counting_allocator()
        import numpy as np, ballcast
        text = open("samples/room.obj").read()
        t = ballcast.read_trajectories("samples/throws.json")
        base = _testing.live_blocks()
        def rss():
            return int(open("/proc/self/statm").read().split()[1]) * 4096
        for i in range(1000):
            kind = i % 4
            if kind == 0:
                m = ballcast.Mesh.from_obj("samples/room.obj")
            elif kind == 1:
                m = ballcast.Mesh.from_obj_text(text, name="room.obj")
            else:
                m = ballcast.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float),
                                  [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
            r = m.cast(t.p0, t.p1, t.r, ties=True, normal="average")
            m.closest(t.p0, 0.1)
            ballcast.intersect(m)
            if kind == 0:
                m.close()
                assert _testing.live_blocks() == base, (i, _testing.live_blocks(), base)
                m.close()
            elif kind == 1:
                with m:
                    pass
            elif kind == 2:
                del m
            else:
                # closed while another thread is inside a cast: freed when it ends
                big = np.repeat(t.p0, 2000, axis=0), np.repeat(t.p1, 2000, axis=0), np.repeat(t.r, 2000)
                worker = threading.Thread(target=m.cast, args=big)
                worker.start()
                m.close()
                worker.join()
            gc.collect()
            assert _testing.live_blocks() == base, (i, _testing.live_blocks(), base)
            if i == 99:
                at100 = rss()
        print(_testing.allocations(), rss() - at100)
    """)
    allocations, growth = map(int, out.split())
    assert allocations > 4000  # the library's memory went through the counter
    assert growth < 8 * 2**20, growth


def test_big_meshes_freed():
    """Meshes of the 70,000-triangle bunny made and dropped: resident memory
    stays flat (a leaked mesh would add megabytes each). The reader's
    threads leave malloc's arenas between 80 and 95 MB from one mesh to the
    next, so the least size over ten meshes is compared, 40 meshes apart:
    a leak of a megabyte a mesh would add 40."""
    out = _run("""
        import gc, ballcast
        def rss():
            return int(open("/proc/self/statm").read().split()[1]) * 4096
        least = {}
        for i in range(60):
            m = ballcast.Mesh.from_obj("tests/data/meshes/stanford-bunny.obj", quiet=True)
            size = m.triangle_count
            m.vertices
            del m
            gc.collect()
            least[i // 10] = min(least.get(i // 10, 1 << 62), rss())
        print(size, least[5] - least[1])
    """)
    size, growth = map(int, out.split())
    assert size > 60000 and growth < 16 * 2**20, growth


def test_out_of_memory_is_memory_error():
    """Every allocation of the library made to fail: each call raises
    MemoryError, the interpreter lives on, nothing leaks, and once memory
    is back everything works."""
    out = _run("""
        import gc
        from ballcast import _testing
        _testing.use_counting_allocator()
        import numpy as np, ballcast
        t = ballcast.read_trajectories("samples/throws.json")
        base = _testing.live_blocks()
        raised = []
        for after in (0, 1, 2, 5, 10, 20):
            _testing.fail_allocations_after(after)
            for name, call in (("obj", lambda: ballcast.Mesh.from_obj("samples/room.obj")),
                               ("arrays", lambda: ballcast.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]))):
                try:
                    call()
                except MemoryError as e:
                    raised.append(name)
            _testing.fail_allocations_after(-1)
        gc.collect()
        assert _testing.live_blocks() == base
        mesh = ballcast.Mesh.from_obj("samples/room.obj")
        spheres = ballcast.Mesh.from_obj("samples/room.obj")
        before = mesh.cast(t.p0, t.p1, t.r, ties=True).to_text("ndjson")
        for name, call in (("ties", lambda: mesh.cast(t.p0, t.p1, t.r, ties=True)),
                           ("average", lambda: mesh.cast(t.p0, t.p1, t.r, normal="average")),
                           ("intersect", lambda: ballcast.intersect(mesh, spheres)),
                           ("balls", lambda: ballcast.collide_balls(t.p0, t.p1, t.r))):
            _testing.fail_allocations_after(0)
            try:
                call()
            except MemoryError as e:
                raised.append(name)
            _testing.fail_allocations_after(-1)
        assert mesh.cast(t.p0, t.p1, t.r, ties=True).to_text("ndjson") == before
        mesh.close(); spheres.close()
        gc.collect()
        assert _testing.live_blocks() == base, (_testing.live_blocks(), base)
        print(" ".join(sorted(set(raised))))
    """)
    assert out.split() == ["arrays", "average", "balls", "intersect", "obj", "ties"]
