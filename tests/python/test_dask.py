"""ballcast.dask on a LocalCluster of 2 workers: NDJSON shards and numpy
chunks answered as one process answers them, in order, the mesh loaded
once per worker."""

import numpy as np
import pytest

import ballcast
from conftest import BUNNY, run_cli, same_bits

distributed = pytest.importorskip("distributed")
import ballcast.dask  # noqa: E402  (needs distributed)


@pytest.fixture(scope="module")
def client():
    # threads, not processes: quick to start and nothing to spawn; each
    # worker still has its own plugin, so its own mesh
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def shards(tmp_path_factory, bunny_throws):
    """The first 20,000 bunny throws with ids, cut into 7 NDJSON shards of uneven sizes."""
    folder = tmp_path_factory.mktemp("shards")
    with open(bunny_throws, encoding="utf-8") as f:
        lines = [line for _, line in zip(range(20000), f)]
    lines = ['{"id":"t%d",%s' % (k, line.lstrip()[1:]) for k, line in enumerate(lines)]
    cuts = [0, 1, 1000, 4000, 4001, 9000, 15000, 20000]
    paths = []
    for k in range(len(cuts) - 1):
        path = folder / ("part-%d.ndjson" % k)
        path.write_text("".join(lines[cuts[k]:cuts[k + 1]]))
        paths.append(str(path))
    whole = folder / "all.ndjson"
    whole.write_text("".join(lines))
    return paths, str(whole)


def test_shards_as_one_process(client, shards):
    """Every shard cast on a worker; the answers joined are the bytes of
    one process over the whole file, and of the command."""
    paths, whole = shards
    mesh = ballcast.dask.register_mesh(client, BUNNY)
    texts = ballcast.dask.cast_ndjson_files(client, mesh, paths, ties=True)
    joined = "".join(texts)
    with ballcast.Mesh.from_obj(BUNNY, quiet=True) as local:
        alone = local.cast_trajectories(ballcast.read_trajectories(whole), ties=True).to_text("ndjson")
    assert joined == alone
    assert joined == run_cli("cast", "-q", "--ties", BUNNY, whole, "-f", "ndjson")
    assert [len(t.splitlines()) for t in texts] == [1, 999, 3000, 1, 4999, 6000, 5000]


def test_mesh_loaded_once_per_worker(client, shards):
    """Seven shards and three array chunks later, each worker has read the mesh once."""
    paths, _ = shards
    mesh = ballcast.dask.register_mesh(client, BUNNY, ship=False)
    ballcast.dask.cast_ndjson_files(client, mesh, paths)
    ballcast.dask.cast_arrays(client, mesh, np.zeros((30, 3)), np.ones((30, 3)), 0.01, chunk=10)
    loads = client.run(lambda dask_worker: dask_worker.plugins[mesh.name].loads)
    assert sorted(loads.values()) == [1, 1]
    assert mesh.info["triangles"] > 60000


def test_arrays_in_order_bit_for_bit(client, bunny_throws):
    """numpy chunks cast on the workers, put back in order: the same arrays
    and the same bytes as one process."""
    t = ballcast.read_trajectories(bunny_throws)
    n = 30000
    mesh = ballcast.dask.register_mesh(client, BUNNY)
    spread = ballcast.dask.cast_arrays(client, mesh, t.p0[:n], t.p1[:n], t.r[:n], chunk=4096, normal="average",
                                       ties=True, two_sided=True)
    with ballcast.Mesh.from_obj(BUNNY, quiet=True) as local:
        alone = local.cast(t.p0[:n], t.p1[:n], t.r[:n], normal="average", ties=True, two_sided=True)
    assert same_bits(spread.raw, alone.raw)
    assert np.array_equal(spread.ties.first, alone.ties.first)
    assert same_bits(spread.ties._raw, alone.ties._raw)
    spread.mesh_info["file"] = alone.mesh_info["file"]
    assert spread.to_text("ndjson") == alone.to_text("ndjson")


def test_shards_written_by_the_workers(client, shards, tmp_path):
    """out_paths: each worker writes its shard's answers beside it."""
    paths, whole = shards
    mesh = ballcast.dask.register_mesh(client, BUNNY)
    outs = [str(tmp_path / ("out-%d.ndjson" % k)) for k in range(len(paths))]
    counts = ballcast.dask.cast_ndjson_files(client, mesh, paths, out_paths=outs, convention="cs121")
    assert sum(counts) == 20000
    joined = "".join(open(p, encoding="utf-8").read() for p in outs)
    assert joined == run_cli("cast", "-q", "--convention", "cs121", BUNNY, whole, "-f", "ndjson")


def test_bad_mesh_raises_here(client, tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nf 1 2 3\n")
    with pytest.raises(ballcast.MeshError, match="bad.obj:2"):
        ballcast.dask.register_mesh(client, str(bad))


@pytest.mark.parametrize("ship", [True, False])
def test_any_mesh_format(client, tmp_path, ship):
    """A binary STL registered (its bytes shipped, or its path read on each
    worker) answers as Mesh.load of it answers here."""
    import subprocess
    import sys
    from conftest import REPO, ROOM, THROWS
    path = str(tmp_path / "room.stl")
    subprocess.run([sys.executable, REPO + "/tests/cli/meshconv.py", ROOM, path, "stl-binary", "--triangles"],
                   check=True)
    t = ballcast.read_trajectories(THROWS)
    mesh = ballcast.dask.register_mesh(client, path, ship=ship)
    spread = ballcast.dask.cast_arrays(client, mesh, t.p0, t.p1, t.r, chunk=5)
    with ballcast.Mesh.load(path) as local:
        assert local.format == "stl"
        alone = local.cast(t.p0, t.p1, t.r)
    assert same_bits(spread.raw, alone.raw)
    formats = client.run(lambda dask_worker: dask_worker.plugins[mesh.name].mesh.format)
    assert sorted(formats.values()) == ["stl", "stl"]
