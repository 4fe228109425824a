"""ballcast.dask: casts spread over a dask.distributed cluster.

The mesh is loaded once per worker, not once per chunk: ``register_mesh``
installs a worker plugin that reads it when the worker starts (and on every
worker that joins later), and every task on that worker casts against that
one mesh. Results come back in the order of the chunks, and are the same,
byte for byte, as one process casting everything (answers do not depend on
how a batch is cut, and records are numbered by their ids)::

    from distributed import Client
    import ballcast, ballcast.dask

    client = Client("tcp://scheduler:8786")        # or Client(LocalCluster(...))
    room = ballcast.dask.register_mesh(client, "room.obj")
    texts = ballcast.dask.cast_ndjson_files(client, room, ["part-0.ndjson", "part-1.ndjson"])
    result = ballcast.dask.cast_arrays(client, room, p0, p1, r, chunk=100_000)

Needs Debian's python3-dask and python3-distributed (``pip install
ballcast[dask]`` elsewhere).
"""
from __future__ import annotations

import os
import uuid
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union

import numpy as np
from distributed import Client, WorkerPlugin, get_worker

from . import _files, _lib
from ._mesh import Mesh, pack_casts
from ._results import CastResult, Ids, Ties

PathLike = Union[str, "os.PathLike[str]"]


class RemoteMesh(NamedTuple):
    """A mesh registered on a cluster (what ``register_mesh`` returns): the
    plugin's name on the workers, the path, and the mesh's counts."""
    name: str
    path: str
    info: Dict[str, Any]


class MeshPlugin(WorkerPlugin):
    """Loads one mesh on each worker, once, when the worker starts (or when
    the plugin is registered); tasks find it as ``mesh_on_worker(name)``.

    text: the mesh file's bytes, shipped with the plugin (no shared file
    system needed); None: each worker reads path itself. format: the format
    the file was read in where it was registered ("obj", "stl", ...)."""

    def __init__(self, name: str, path: str, text: Optional[bytes] = None, threads: Optional[int] = None,
                 format: Optional[str] = None):
        self.name = name
        self.path = path
        self.text = text
        self.threads = threads
        self.format = format
        self.mesh: Optional[Mesh] = None
        self.loads = 0

    def setup(self, worker) -> None:
        if self.text is not None:
            self.mesh = Mesh.parse(self.text, format=self.format, name=self.path, threads=self.threads, quiet=True)
        else:
            self.mesh = Mesh.load(self.path, format=self.format, threads=self.threads, quiet=True)
        self.loads += 1

    def teardown(self, worker) -> None:
        if self.mesh is not None:
            self.mesh.close()
            self.mesh = None


def register_mesh(client: Client, path: PathLike, *, ship: bool = True, threads: Optional[int] = None,
                  name: Optional[str] = None, format: Optional[str] = None) -> RemoteMesh:
    """Load the mesh file at path (any format Mesh.load reads; format as
    there) on every worker of client's cluster, once.

    ship=True (the default) reads the file here and sends its bytes with the
    plugin, so workers need no shared file system; ship=False has each
    worker read path itself (a path valid on every worker). threads: the
    threads each worker gives the parsing. The mesh is read here first too,
    so that a bad file raises here, with its line and column."""
    path = os.fspath(path)
    with Mesh.load(path, format=format, threads=threads, quiet=True) as local:
        info = local.info
        format = local.format  # what the bytes were read as here, without their name there
    text = None
    if ship:
        with open(path, "rb") as f:
            text = f.read()
    name = name or "ballcast-mesh-" + uuid.uuid4().hex
    client.register_worker_plugin(MeshPlugin(name, str(path), text, threads, format), name=name)
    return RemoteMesh(name, str(path), info)


def mesh_on_worker(name: str) -> Mesh:
    """The mesh plugin name loaded on the worker running this task."""
    plugin = get_worker().plugins.get(name)
    if plugin is None or plugin.mesh is None:
        raise RuntimeError("no ballcast mesh %r on this worker: register it with ballcast.dask.register_mesh" % name)
    return plugin.mesh


def _cast_ndjson_task(name: str, source: Union[str, bytes], is_path: bool, options: Dict[str, Any],
                      out_path: Optional[str]) -> Union[str, int]:
    mesh = mesh_on_worker(name)
    if is_path:
        trajectories = _files.read_trajectories(source, format="ndjson")
    else:
        text = source.decode("utf-8") if isinstance(source, bytes) else source
        import io
        trajectories = _files.read_trajectories(io.StringIO(text), format="ndjson")
    result = mesh.cast_trajectories(trajectories, **options)
    text = result.to_text("ndjson")
    if out_path is None:
        return text
    _lib.write_text(out_path, text)
    return len(result)


def cast_ndjson_files(client: Client, mesh: RemoteMesh, shards: Sequence[Union[PathLike, bytes]],
                      out_paths: Optional[Sequence[PathLike]] = None, **options: Any) -> List[Union[str, int]]:
    """Cast NDJSON shards of trajectories on the cluster, one task a shard.

    shards: paths the workers can read, or the shards' bytes. Each shard is
    answered as ``ballcast cast -q mesh shard --format ndjson`` answers it
    (a bad record gets its error result in place). options: cast's (two_sided,
    approach, normal, ties, convention, threads, ...).

    Returns, in the order of shards, each shard's NDJSON text (joined, the
    answers of the whole input, as one process writes them); with out_paths,
    each worker writes its shard's answers there (through a temporary file)
    and the list holds the records answered."""
    futures = []
    for k, shard in enumerate(shards):
        is_path = not isinstance(shard, (bytes, bytearray))
        source = os.fspath(shard) if is_path else bytes(shard)
        out = os.fspath(out_paths[k]) if out_paths is not None else None
        futures.append(client.submit(_cast_ndjson_task, mesh.name, source, is_path, options, out, pure=False))
    return client.gather(futures)


def _cast_chunk_task(name: str, packed: np.ndarray, options: Dict[str, Any]) -> CastResult:
    return mesh_on_worker(name).cast_packed(packed, **options)


def cast_arrays(client: Client, mesh: RemoteMesh, p0: Any, p1: Any, r: Any, *, chunk: int = 65536,
                **options: Any) -> CastResult:
    """``Mesh.cast`` of numpy arrays on the cluster: the casts cut into chunks
    of chunk casts, each cast on a worker against its mesh, the answers put
    back together in order into one CastResult (the same arrays, bit for bit,
    as one process's cast)."""
    packed = pack_casts(p0, p1, r)
    if chunk < 1:
        raise ValueError("chunk must be >= 1, not %d" % chunk)
    pieces = [packed[k:k + chunk] for k in range(0, len(packed), chunk)] or [packed]
    futures = [client.submit(_cast_chunk_task, mesh.name, piece, options, pure=False) for piece in pieces]
    return concatenate(client.gather(futures))


def _joined_structs(parts: Sequence[np.ndarray]) -> np.ndarray:
    """Structured arrays one after the other, in the first one's layout
    (np.concatenate would pack the fields, losing the C struct's offsets)."""
    out = np.empty(sum(len(p) for p in parts), dtype=parts[0].dtype)
    k = 0
    for p in parts:
        out[k:k + len(p)] = p
        k += len(p)
    return out


def concatenate(results: Sequence[CastResult]) -> CastResult:
    """Casts' results one after the other, as one result."""
    if not results:
        raise ValueError("nothing to concatenate")
    raw = _joined_structs([r.raw for r in results])
    offsets = np.cumsum([0] + [len(r) for r in results])
    errors = {int(offsets[k]) + i: e for k, r in enumerate(results) for i, e in r.errors.items()}

    def joined(name: str):
        parts = [getattr(r, name) for r in results]
        return None if any(p is None for p in parts) else np.concatenate(parts)

    ties = None
    if all(r.ties is not None for r in results):
        contact_offsets = np.cumsum([0] + [len(r.ties.alpha) for r in results])
        first = np.concatenate([np.zeros(1, dtype=np.int64)] + [
            r.ties.first[1:] + contact_offsets[k] for k, r in enumerate(results)])
        ties = Ties(_joined_structs([r.ties._raw for r in results]), first)
    ids = None
    if all(r.ids is not None for r in results):
        ids = Ids(np.concatenate([r.ids.text for r in results]), np.concatenate([r.ids.number for r in results]))
    return CastResult(raw, ties=ties, alpha_free=joined("alpha_free"), exact_alpha=joined("exact_alpha"),
                      ids=ids, errors=errors, settings=results[0].settings, mesh_info=results[0].mesh_info,
                      normalise=False)


__all__ = ["RemoteMesh", "MeshPlugin", "register_mesh", "mesh_on_worker", "cast_ndjson_files", "cast_arrays",
           "concatenate"]
