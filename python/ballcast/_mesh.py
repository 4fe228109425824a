"""Mesh: a triangle mesh of the library, and the queries against it."""
from __future__ import annotations

import math
import os
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple, Union

import numpy as np

from . import _lib
from ._ballcast import ffi, lib
from ._lib import BallcastWarning, MeshError
from ._results import (INVALID, NO_MEMORY, CastResult, ClosestResult, IntersectResult, MeshWarning, Relation, Ties)

if TYPE_CHECKING:
    from ._files import Trajectories  # noqa: F401

ArrayLike = Any
PathLike = Union[str, "os.PathLike[str]"]

APPROACHES = ("le", "lt")
NORMALS = ("contact", "triangle", "average")
OVERLAPS = ("report", "ignore")
CONVENTIONS = ("cs121",)
METHODS = ("exact", "discrete")
ERRORS = ("raise", "mark")

# Casts a discrete batch gives each thread at least (as the library's own
# batch does: fewer casts than this are not worth a thread).
_DISCRETE_CASTS_PER_THREAD = 64


class _Handle:
    """The library's bcMesh*, freed exactly once: by close() when no call is
    using it, else by the last call to finish; or, if never closed, when the
    handle is collected (cffi's ffi.gc)."""

    def __init__(self, pointer):
        self._pointer = ffi.gc(pointer, lib.bcMesh_Destroy)
        self._lock = threading.Lock()
        self._users = 0
        self._closed = False

    def acquire(self):
        with self._lock:
            if self._closed:
                raise ValueError("the mesh is closed")
            self._users += 1
            return self._pointer

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._closed and self._users == 0:
                self._free()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._users == 0:
                self._free()

    def _free(self) -> None:
        if self._pointer is not None:
            ffi.release(self._pointer)  # calls bcMesh_Destroy now, and never again
            self._pointer = None

    @property
    def closed(self) -> bool:
        return self._closed


class _Using:
    """with _Using(mesh, ...) as (pointer, ...): the meshes kept open meanwhile."""

    def __init__(self, *meshes: "Mesh"):
        self._handles = [m._handle for m in meshes]
        self._taken = []

    def __enter__(self):
        try:
            for h in self._handles:
                self._taken.append((h, h.acquire()))
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return [p for _, p in self._taken]

    def __exit__(self, *exc) -> None:
        for h, _ in self._taken:
            h.release()
        self._taken = []


def _cast_options(two_sided: bool, approach: str, initial_overlap: str, brute: bool):
    options = ffi.new("bcCastOptions*", lib.bcDefaultCastOptions())
    options.twoSided = two_sided
    options.approach = lib.bc_approachLess if approach == "lt" else lib.bc_approachLessEqual
    options.overlap = lib.bc_overlapIgnore if initial_overlap == "ignore" else lib.bc_overlapReport
    options.bruteForce = brute
    return options


def pack_casts(p0: ArrayLike, p1: ArrayLike, r: ArrayLike) -> np.ndarray:
    """The casts p0 -> p1 of radius r as one C-contiguous (n, 7) float64
    array, the layout of an array of bcCastInput (``Mesh.cast_packed`` takes
    it without a copy). p0 and p1 are (n, 3) (or (3,): the same point for
    every cast), r a number or (n,)."""
    a0 = _lib.points(p0, "p0")
    a1 = _lib.points(p1, "p1")
    ar = _lib.real_array(r, "r")
    if ar.ndim > 1:
        raise ValueError("r must be a number or have shape (n,), not %s" % (ar.shape,))
    n = _lib.batch_count(a0, a1, ar)
    packed = np.empty((n, 7), dtype=np.float64)
    packed[:, 0:3] = a0
    packed[:, 3:6] = a1
    packed[:, 6] = ar
    return packed


def _packed(inputs: ArrayLike) -> np.ndarray:
    array = _lib.real_array(inputs, "inputs")
    if array.ndim != 2 or array.shape[1] != 7:
        raise ValueError("inputs must have shape (n, 7): x0 y0 z0 x1 y1 z1 r per cast, not %s" % (array.shape,))
    return np.ascontiguousarray(array)  # a view when it is C-contiguous float64 already


def _cast_problem(row: np.ndarray) -> str:
    """Why the library refused one cast (bc_castInvalid), in words."""
    p0, p1, r = row[0:3], row[3:6], row[6]
    for name, v in (("p0", p0), ("p1", p1)):
        if not np.all(np.isfinite(v)):
            return "%s is not finite" % name
    if not math.isfinite(r):
        return "r is not finite"
    if r < 0:
        return "r is negative"
    return "a coordinate or the radius is beyond the supported range of 1e50"


def _raise_invalid(inputs: np.ndarray, state: np.ndarray, what: str) -> None:
    bad = np.flatnonzero(state == INVALID)
    if len(bad) > 0:
        i = int(bad[0])
        raise ValueError("%s %d: %s (%d of %d %s cannot be answered; errors='mark' answers the others)" % (
            what, i, _cast_problem(inputs[i]), len(bad), len(state), what + "s"))
    lost = np.flatnonzero(state == NO_MEMORY)
    if len(lost) > 0:
        raise MemoryError("out of memory collecting the tied contacts of %d casts (the first: %d)" % (
            len(lost), int(lost[0])))


def _mark_errors(inputs: np.ndarray, state: np.ndarray) -> Dict[int, str]:
    errors: Dict[int, str] = {}
    for i in np.flatnonzero((state == INVALID) | (state == NO_MEMORY)):
        i = int(i)
        errors[i] = _cast_problem(inputs[i]) if state[i] == INVALID else \
            "out of memory collecting the tied contacts"
    return errors


class Mesh:
    """A triangle mesh, loaded or built once and queried any number of times.

    Build one from arrays, ``Mesh(vertices, triangles)``, or read a mesh
    file of any format the command reads (OBJ, STL, PLY, OFF),
    ``Mesh.load(path)``. A mesh is immutable and may be queried from several
    threads at once. It holds the library's memory until it is closed
    (``mesh.close()``, or ``with Mesh.load(path) as mesh: ...``) or
    collected; closing twice is harmless, and a closed mesh refuses queries
    with ValueError.

    Reading or building warns (BallcastWarning, see the ``warnings`` module)
    about polygons cut as a fan, STL facets whose stored normal points
    against their winding, and degenerate triangles, as the command
    notes them on standard error; ``quiet=True`` keeps them silent, and
    ``mesh.warnings`` lists them either way.
    """

    def __init__(self, vertices: ArrayLike, triangles: ArrayLike, faces: Optional[ArrayLike] = None, *,
                 quiet: bool = False):
        """A mesh from arrays: vertices (V, 3) coordinates, triangles (T, 3)
        0-based vertex indices (counter-clockwise seen from the front),
        faces optionally (T,) the source polygon of each triangle (default:
        triangle i came from face i). The arrays are copied.

        Raises TypeError for arrays of the wrong kind, ValueError (MeshError)
        for a bad mesh (an index out of range, a coordinate that is not
        finite, no triangle), MemoryError when memory runs out.
        """
        v = _lib.real_array(vertices, "vertices")
        if v.ndim != 2 or v.shape[1] != 3:
            raise ValueError("vertices must have shape (V, 3), not %s" % (v.shape,))
        t = _index_array(triangles, "triangles")
        if t.ndim != 2 or t.shape[1] != 3:
            raise ValueError("triangles must have shape (T, 3), not %s" % (t.shape,))
        v = np.ascontiguousarray(v)
        t = np.ascontiguousarray(t)
        definition = ffi.new("bcMeshDef*")
        definition.vertices = ffi.from_buffer("double[]", v)
        definition.vertexCount = _count(len(v), "vertices")
        definition.triangles = ffi.from_buffer("int32_t[]", t)
        definition.triangleCount = _count(len(t), "triangles")
        if faces is not None:
            f = np.ascontiguousarray(_index_array(faces, "faces"))
            if f.shape != (len(t),):
                raise ValueError("faces must have shape (%d,), one per triangle, not %s" % (len(t), f.shape))
            definition.faceIds = ffi.from_buffer("int32_t[]", f)
            definition.faceCount = int(f.max()) + 1 if len(f) else 0
        error = ffi.new("bcError*")
        pointer = lib.bcMesh_Create(definition, error)
        if pointer == ffi.NULL:
            _lib.raise_error(error)
        self._setup(pointer, None, quiet)

    @classmethod
    def load(cls, path: PathLike, *, format: Optional[str] = None, threads: Optional[int] = None,
             quiet: bool = False) -> "Mesh":
        """Read a mesh file, as ``ballcast cast`` reads its mesh: OBJ, STL
        (ASCII or binary), PLY (ASCII or binary) or OFF, the same triangles
        numbered the same way whatever the format (STL's corners merged by
        their bits into vertices in order of first use).

        format: "obj", "stl", "ply" or "off" (the words of --mesh-format);
        None or "auto": the one the extension names, which the first bytes
        must confirm, else the first bytes decide (OBJ by default). threads:
        for parsing and building the hierarchy (None: one per core; the
        mesh does not depend on it).

        Raises MeshFileError (an OSError) when the file cannot be read,
        MeshError (a ValueError) for a bad mesh, its message and attributes
        saying where as the command does (line and column in text, byte in
        binary data: "part.stl:byte 135: ..."), MemoryError when memory runs
        out.
        """
        name = _path_name(path)
        code = _lib.mesh_format(format)
        return cls._read(lambda options, error: lib.bcMesh_Load(os.fsencode(name), code, options, error), name,
                         threads, quiet)

    @classmethod
    def parse(cls, data: Union[bytes, bytearray, memoryview, str], *, format: Optional[str] = None,
              name: str = "<mesh>", threads: Optional[int] = None, quiet: bool = False) -> "Mesh":
        """The same over a mesh file's bytes held in memory (a str is taken
        as UTF-8 text). With no format (None or "auto") the first bytes
        decide, as there is no extension; name is what messages call it."""
        buffer = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        code = _lib.mesh_format(format)
        return cls._read(lambda options, error: lib.bcMesh_Parse(buffer, len(buffer), code, options, error), name,
                         threads, quiet)

    @classmethod
    def from_obj(cls, path: PathLike, *, threads: Optional[int] = None, quiet: bool = False) -> "Mesh":
        """Read a Wavefront OBJ file (``Mesh.load(path, format="obj")``), as
        ``ballcast cast`` reads its mesh (the same triangles, numbered the
        same way; polygons cut as the man page says). threads: for parsing and building the hierarchy (None: one
        per core; the mesh does not depend on it).

        Raises MeshFileError (an OSError) when the file cannot be read,
        MeshError (a ValueError) with the line and column of a syntax error
        or a bad index, MemoryError when memory runs out.
        """
        name = _path_name(path)
        return cls._read(lambda options, error: lib.bcMesh_LoadObj(os.fsencode(name), options, error), name,
                         threads, quiet)

    @classmethod
    def from_obj_text(cls, text: Union[str, bytes], *, name: str = "<obj>", threads: Optional[int] = None,
                      quiet: bool = False) -> "Mesh":
        """The same over OBJ text held in memory (str or bytes); name is
        what messages and the JSON output call it."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        return cls._read(lambda options, error: lib.bcMesh_ParseObj(data, len(data), options, error), name,
                         threads, quiet)

    @classmethod
    def _read(cls, read, name: str, threads: Optional[int], quiet: bool) -> "Mesh":
        """The mesh read(options, error) returns (a call of the library's
        readers), named name; its error raised."""
        options = ffi.new("bcObjOptions*", lib.bcDefaultObjOptions())
        options.threadCount = _lib.thread_arg(threads)
        error = ffi.new("bcError*")
        pointer = read(options, error)
        if pointer == ffi.NULL:
            _lib.raise_error(error, name)
        mesh = cls.__new__(cls)
        mesh._setup(pointer, name, quiet, 1)
        return mesh

    def _setup(self, pointer, path: Optional[str], quiet: bool, depth: int = 0) -> None:
        """Take pointer (the library's mesh), its counts and warnings; the
        warnings point at the line that called the public method (depth: the
        frames between that method and this one)."""
        self._handle = _Handle(pointer)
        self.path: Optional[str] = path
        self._arrays: Optional[Dict[str, np.ndarray]] = None
        info = lib.bcMesh_GetInfo(pointer)
        self.vertex_count: int = int(info.vertexCount)
        self.triangle_count: int = int(info.triangleCount)
        self.face_count: int = int(info.faceCount)
        self.degenerate_count: int = int(info.degenerateCount)
        self.bounds: Tuple[Tuple[float, float, float], Tuple[float, float, float]] = (
            (info.lowerBound.x, info.lowerBound.y, info.lowerBound.z),
            (info.upperBound.x, info.upperBound.y, info.upperBound.z))
        self.build_seconds: float = float(info.buildSeconds)
        #: the format read ("obj", "stl", "ply", "off"); None for arrays
        self.format: Optional[str] = _lib.MESH_FORMATS[info.format] if info.format != lib.bc_meshAuto else None
        #: STL: facet corners merged into a vertex read before (bit-identical coordinates)
        self.merged_corners: int = int(info.mergedCorners)
        self.warning_count: int = int(lib.bcMesh_GetWarningCount(pointer))
        kept = min(self.warning_count, lib.BC_MAX_WARNINGS)
        found = []
        for k in range(kept):
            w = lib.bcMesh_GetWarning(pointer, k)
            found.append(MeshWarning(int(w.code), int(w.line), int(w.column), int(w.record),
                                     ffi.string(w.message).decode("utf-8", "replace"), int(w.byte)))
        self.warnings: Tuple[MeshWarning, ...] = tuple(found)
        if not quiet:
            self._warn(4 + depth)

    def _warn(self, stacklevel: int) -> None:
        name = self.path if self.path is not None else "<arrays>"
        for w in self.warnings:
            text = _lib.located(w.message, name, w.line, w.column, w.byte)
            warnings.warn(BallcastWarning(text), stacklevel=stacklevel)
        if self.warning_count > len(self.warnings):
            warnings.warn(BallcastWarning("%s: %d more warnings not shown" % (
                name, self.warning_count - len(self.warnings))), stacklevel=stacklevel)
        if self.degenerate_count > 0:
            first = int(np.argmax(self.degenerate))
            warnings.warn(BallcastWarning(
                "%s: %d degenerate (zero-area or sliver) triangle%s skipped, the first is triangle %d (face %d)" % (
                    name, self.degenerate_count, "" if self.degenerate_count == 1 else "s", first,
                    int(self.triangle_faces[first]))), stacklevel=stacklevel)

    # --------------------------------------------------------- life

    def close(self) -> None:
        """Free the library's memory now (a query running meanwhile finishes
        first). Closing again does nothing; a closed mesh refuses queries."""
        self._handle.close()

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._handle.closed

    def __enter__(self) -> "Mesh":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __reduce__(self):
        raise TypeError("a ballcast.Mesh cannot be pickled: send its path (ballcast.dask does)")

    def __repr__(self) -> str:
        state = " closed" if self.closed else ""
        return "<ballcast.Mesh%s %s: %d vertices, %d triangles>" % (
            state, self.path or "from arrays", self.vertex_count, self.triangle_count)

    @property
    def info(self) -> Dict[str, Any]:
        """The mesh object of the command's JSON output: file and counts."""
        return {"file": self.path, "vertices": self.vertex_count, "triangles": self.triangle_count,
                "faces": self.face_count, "degenerate": self.degenerate_count}

    # --------------------------------------------------------- arrays

    def _mesh_arrays(self) -> Dict[str, np.ndarray]:
        if self._arrays is None:
            v = np.empty((self.vertex_count, 3))
            t = np.empty((self.triangle_count, 3), dtype=np.int32)
            f = np.empty(self.triangle_count, dtype=np.int32)
            n = np.empty((self.triangle_count, 3))
            d = np.empty(self.triangle_count, dtype=np.uint8)
            with _Using(self) as (m,):
                lib.bcpy_MeshArrays(m, ffi.from_buffer("double[]", v), ffi.from_buffer("int32_t[]", t),
                                    ffi.from_buffer("int32_t[]", f), ffi.from_buffer("double[]", n),
                                    ffi.from_buffer("uint8_t[]", d))
            arrays = {"vertices": v, "triangles": t, "faces": f, "normals": n, "degenerate": d.view(bool)}
            for a in arrays.values():
                a.flags.writeable = False
            self._arrays = arrays
        return self._arrays

    @property
    def vertices(self) -> np.ndarray:
        """(V, 3) the vertices (a read-only copy, made on first use)."""
        return self._mesh_arrays()["vertices"]

    @property
    def triangles(self) -> np.ndarray:
        """(T, 3) each triangle's vertex indices A, B, C, in file order."""
        return self._mesh_arrays()["triangles"]

    @property
    def triangle_faces(self) -> np.ndarray:
        """(T,) the 0-based face (OBJ f line, STL facet, PLY or OFF face) each triangle came from."""
        return self._mesh_arrays()["faces"]

    @property
    def triangle_normals(self) -> np.ndarray:
        """(T, 3) unit front normals, (B-A)x(C-A) normalised; 0 when degenerate."""
        return self._mesh_arrays()["normals"]

    @property
    def degenerate(self) -> np.ndarray:
        """(T,) True for the triangles never hit (zero area or slivers)."""
        return self._mesh_arrays()["degenerate"]

    @property
    def is_closed(self) -> bool:
        """Whether every edge is used by exactly two triangles running along
        it in opposite directions (decided on indices): a closed mesh bounds
        a solid."""
        with _Using(self) as (m,):
            return bool(lib.bcMesh_IsClosed(m))

    # --------------------------------------------------------- cast

    def cast(self, p0: ArrayLike, p1: ArrayLike, r: ArrayLike, *, two_sided: Optional[bool] = None,
             approach: Optional[str] = None, normal: Optional[str] = None, initial_overlap: Optional[str] = None,
             convention: Optional[str] = None, ties: Optional[bool] = None, method: str = "exact",
             dt: Optional[float] = None, bisect: Optional[int] = None, compare_exact: bool = False,
             brute: bool = False, threads: Optional[int] = None, errors: str = "raise") -> CastResult:
        """Where each ball first touches the mesh, as ``ballcast cast`` answers.

        Ball i, of radius r[i] >= 0, has its centre moving in a straight line
        from p0[i] (alpha = 0) to p1[i] (alpha = 1); the answer is the
        earliest alpha in [0, 1] at which it touches a counted triangle.

        Arguments (arrays are not copied when they need no conversion):
          p0, p1     (n, 3) start and end of each centre; (3,) for all n
          r          the radius: one number, or (n,) one per ball
          two_sided  count contacts from behind triangles too (default False)
          approach   "le" (default): a contact counts when dot(n, p1 - p0) <= 0;
                     "lt": only when < 0 (moving into the front)
          normal     what result.normal holds: "contact" (default: from the
                     contact point towards the centre), "triangle" (the
                     hit triangle's front normal) or "average" (the tied
                     triangles' front normals averaged)
          initial_overlap  "report" (default: a ball starting closer than r
                     is a hit at alpha 0) or "ignore" (skip that triangle)
          convention "cs121": the course's conventions (approach "lt",
                     normal "average", initial_overlap "ignore", ties);
                     arguments given explicitly win
          ties       list every tied contact (result.ties)
          method     "exact" (default) or "discrete": the textbook time
                     stepping with bisection, for comparison; needs dt (the
                     step, a fraction of the path in [1e-9, 1]) and takes
                     bisect (halvings, 0..64, default 5) and compare_exact
          brute      test every triangle (the reference path; same answers)
          threads    threads to use (None: one per core; same answers)
          errors     "raise" (default): a ball that cannot be answered (a
                     coordinate not finite, beyond 1e50, a negative radius)
                     raises ValueError naming it; "mark": it is answered
                     with state INVALID and listed in result.errors

        Returns a CastResult: arrays hit, alpha, initial_overlap, feature,
        triangle, face, vertices, point, center, normal, triangle_normal
        (and ties, alpha_free, exact_alpha when asked), the same numbers, bit
        for bit, as the command prints.

        Example:
            >>> mesh = ballcast.Mesh.from_obj("samples/room.obj")
            >>> res = mesh.cast([1, 1, 2], [1, 1, -1], 0.25)
            >>> float(res.alpha[0]), res.feature_names()[0]
            (0.5833333333333334, 'face')
        """
        return self.cast_packed(pack_casts(p0, p1, r), two_sided=two_sided, approach=approach, normal=normal,
                                initial_overlap=initial_overlap, convention=convention, ties=ties, method=method,
                                dt=dt, bisect=bisect, compare_exact=compare_exact, brute=brute, threads=threads,
                                errors=errors)

    def cast_packed(self, inputs: ArrayLike, *, two_sided: Optional[bool] = None, approach: Optional[str] = None,
                    normal: Optional[str] = None, initial_overlap: Optional[str] = None,
                    convention: Optional[str] = None, ties: Optional[bool] = None, method: str = "exact",
                    dt: Optional[float] = None, bisect: Optional[int] = None, compare_exact: bool = False,
                    brute: bool = False, threads: Optional[int] = None, errors: str = "raise") -> CastResult:
        """``cast`` over an (n, 7) array, x0 y0 z0 x1 y1 z1 r per row: the
        layout of the library's bcCastInput, so a C-contiguous float64 array
        is passed to the library as it is, without a copy (``pack_casts``
        makes one). The options are cast's."""
        packed = _packed(inputs)
        s = _settings(two_sided, approach, normal, initial_overlap, convention, ties, method, dt, bisect,
                      compare_exact)
        _lib.flag(brute, "brute")
        threads = _lib.thread_arg(threads)
        _lib.choice(errors, "errors", ERRORS)
        n = len(packed)
        raw = np.empty(n, dtype=_lib.CAST_OUTPUT)
        alpha_free = exact_alpha = None
        tie_list = None
        cast_options = _cast_options(s["two_sided"], s["approach"], s["initial_overlap"], brute)
        with _Using(self) as (m,):
            if s["method"] == "discrete":
                alpha_free = np.empty(n)
                exact_alpha = np.empty(n) if s["compare_exact"] else None
                _discrete(m, packed, raw, alpha_free, exact_alpha, cast_options, s, threads)
            else:
                tie_list = _exact(m, packed, raw, cast_options, s, threads)
        if errors == "raise":
            _raise_invalid(packed, raw["state"], "record")
        settings = _public_settings(s)
        return CastResult(raw, ties=tie_list, alpha_free=alpha_free, exact_alpha=exact_alpha,
                          errors=_mark_errors(packed, raw["state"]), settings=settings, mesh_info=self.info)

    def cast_trajectories(self, trajectories: "Trajectories", **options: Any) -> CastResult:
        """``cast`` over what ``read_trajectories`` read, answered as ``ballcast
        cast`` answers a file: every record in its place, with its id, and a
        record that could not be read or answered gets an error (listed in
        result.errors, state INVALID) while the others are answered. options:
        cast's."""
        if "errors" in options:
            raise TypeError("cast_trajectories answers bad records in place (errors='mark')")
        result = self.cast(trajectories.p0, trajectories.p1, trajectories.r, errors="mark", **options)
        result.errors.update(trajectories.errors)  # what the reader found comes first
        result.ids = trajectories.ids
        return result

    # --------------------------------------------------------- closest

    def closest(self, points: ArrayLike, r: ArrayLike = 0.0, *, brute: bool = False, threads: Optional[int] = None,
                errors: str = "raise") -> ClosestResult:
        """The closest point of the mesh to each ball at rest, as ``ballcast
        closest`` answers: points (n, 3) (or (3,)) the centres, r the radius
        (a number or (n,), default 0: points). Front and back do not matter.

        Returns a ClosestResult: arrays distance, point, triangle, face,
        feature, vertices, normal, overlap, depth, tie_count and barycentric
        (the weights u, v, w of the triangle's vertices A, B, C with
        point = u A + v B + w C).

        Raises ValueError for a centre or radius that is not finite (or a
        negative radius), naming the first (errors="mark": such balls get
        state 2, invalid, and are listed in result.errors), and for a mesh
        whose triangles are all degenerate.
        """
        p = _lib.points(points, "points")
        ar = _lib.real_array(r, "r")
        if ar.ndim > 1:
            raise ValueError("r must be a number or have shape (n,), not %s" % (ar.shape,))
        n = _lib.batch_count(p, ar)
        inputs = np.empty((n, 4))
        inputs[:, 0:3] = p
        inputs[:, 3] = ar
        _lib.flag(brute, "brute")
        threads = _lib.thread_arg(threads)
        _lib.choice(errors, "errors", ERRORS)
        if self.degenerate_count == self.triangle_count:
            raise MeshError("%s: the mesh has no triangle that is not degenerate: no closest point" % (
                self.path or "<arrays>"))
        raw = np.empty(n, dtype=_lib.CLOSEST_OUTPUT)
        options = ffi.new("bcClosestOptions*", lib.bcDefaultClosestOptions())
        options.bruteForce = brute
        with _Using(self) as (m,):
            for start, stop in _chunks(n):
                lib.bcMesh_ClosestBatch(m, ffi.from_buffer("bcClosestInput[]", inputs[start:stop]),
                                        ffi.from_buffer("bcClosestOutput[]", raw[start:stop]), stop - start,
                                        options, threads)
        found = raw["state"] == lib.bc_closestFound
        problems: Dict[int, str] = {}
        for i in np.flatnonzero(~found):
            i = int(i)
            valid = bool(np.all(np.isfinite(inputs[i]))) and inputs[i, 3] >= 0
            problems[i] = ("p is too far from the mesh: the distance overflows" if valid
                           else "p or r is not a finite number" if not np.all(np.isfinite(inputs[i]))
                           else "r is negative")
            if errors == "raise":
                raise ValueError("ball %d: %s (%d of %d balls cannot be answered; errors='mark' answers the "
                                 "others)" % (i, problems[i], int((~found).sum()), n))
        return ClosestResult(raw, errors=problems, mesh_info=self.info)


def _path_name(path: PathLike) -> str:
    """path as the str messages name it."""
    name = os.fspath(path)
    return name if isinstance(name, str) else os.fsdecode(name)


def _index_array(value: ArrayLike, name: str) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype.kind not in "iu":
        if array.dtype.kind == "O" or array.size == 0:
            try:
                array = array.astype(np.int64)
            except (TypeError, ValueError):
                raise TypeError("%s must hold whole numbers" % name) from None
        else:
            raise TypeError("%s must hold whole numbers (an integer array), not %s" % (name, array.dtype))
    if array.size and (array.min() < -2**31 or array.max() > 2**31 - 1):
        raise ValueError("%s holds an index beyond the 32-bit range of the library" % name)
    return array.astype(np.int32, copy=False)


def _count(n: int, name: str) -> int:
    if n > 2**31 - 1:
        raise ValueError("too many %s: %d (the library takes at most %d)" % (name, n, 2**31 - 1))
    return n


def _chunks(n: int):
    start = 0
    while start < n:
        stop = min(n, start + _lib.MAX_BATCH)
        yield start, stop
        start = stop


def _settings(two_sided, approach, normal, initial_overlap, convention, ties, method, dt, bisect, compare_exact):
    """The cast's settings, resolved as the command resolves its options."""
    if convention is not None:
        _lib.choice(convention, "convention", CONVENTIONS)
    method = _lib.choice(method, "method", METHODS)
    cs121 = convention == "cs121"
    s = {
        "two_sided": False if two_sided is None else _lib.flag(two_sided, "two_sided"),
        "approach": ("lt" if cs121 else "le") if approach is None else _lib.choice(approach, "approach", APPROACHES),
        "normal": ("average" if cs121 else "contact") if normal is None else _lib.choice(normal, "normal", NORMALS),
        "initial_overlap": ("ignore" if cs121 else "report") if initial_overlap is None
        else _lib.choice(initial_overlap, "initial_overlap", OVERLAPS),
        "ties": cs121 if ties is None else _lib.flag(ties, "ties"),
        "method": method,
        "compare_exact": _lib.flag(compare_exact, "compare_exact"),
    }
    if method == "discrete":
        if dt is None:
            raise ValueError("method='discrete' needs dt (the step, a fraction of the path)")
        if s["ties"] or cs121 or s["normal"] == "average":
            raise ValueError("method='discrete' finds one contact: ties, normal='average' and convention need "
                             "method='exact'")
        try:
            dt = float(dt)
        except (TypeError, ValueError):
            raise TypeError("dt must be a number, not %r" % (dt,)) from None
        if not (lib.BC_DISCRETE_MIN_STEP <= dt <= 1.0):
            raise ValueError("dt needs a fraction of the path from 1e-9 to 1, not %r" % dt)
        if bisect is None:
            bisect = int(lib.BC_DISCRETE_DEFAULT_BISECTIONS)
        if isinstance(bisect, bool) or not isinstance(bisect, (int, np.integer)):
            raise TypeError("bisect must be a whole number, not %r" % (bisect,))
        if not 0 <= bisect <= lib.BC_DISCRETE_MAX_BISECTIONS:
            raise ValueError("bisect needs a whole number from 0 to 64, not %d" % bisect)
        s["dt"] = dt
        s["bisect"] = int(bisect)
    else:
        if dt is not None or bisect is not None or s["compare_exact"]:
            raise ValueError("dt, bisect and compare_exact need method='discrete'")
    return s


def _public_settings(s: Dict[str, Any]) -> Dict[str, Any]:
    """The settings object of the command's JSON output (in its key order),
    and what the writers need besides."""
    out = {"two_sided": s["two_sided"], "approach": s["approach"], "initial_overlap": s["initial_overlap"],
           "normal": s["normal"], "tie_tolerance": float(lib.BC_ALPHA_TIE_TOLERANCE)}
    if s["method"] == "discrete":
        out.update(method="discrete", dt=s["dt"], bisect=s["bisect"], compare_exact=s["compare_exact"])
    out["ties"] = s["ties"]
    return out


_NORMAL_MODES = {"contact": "bc_normalContact", "triangle": "bc_normalTriangle", "average": "bc_normalAverage"}


def _exact(m, packed: np.ndarray, raw: np.ndarray, cast_options, s, threads: int) -> Optional[Ties]:
    options = ffi.new("bcBatchOptions*", lib.bcDefaultBatchOptions())
    options.cast = cast_options[0]
    options.normal = getattr(lib, _NORMAL_MODES[s["normal"]])
    options.threadCount = threads
    error = ffi.new("bcError*")
    contacts = []
    firsts = [np.zeros(1, dtype=np.int64)]
    offset = 0
    for start, stop in _chunks(len(packed)):
        holder = ffi.new("bcTieList**") if s["ties"] else ffi.NULL
        ok = lib.bcMesh_CastBatchWithOptions(m, ffi.from_buffer("bcCastInput[]", packed[start:stop]),
                                             ffi.from_buffer("bcCastOutput[]", raw[start:stop]), stop - start,
                                             options, holder, error)
        if not ok:
            _lib.raise_error(error)
        if s["ties"]:
            tie_list = holder[0]
            try:
                count = int(tie_list.contactCount)
                if count > 0:
                    size = count * _lib.CONTACT.itemsize
                    contacts.append(np.frombuffer(ffi.buffer(tie_list.contacts, size), dtype=_lib.CONTACT).copy())
                first = np.frombuffer(ffi.buffer(tie_list.first, (stop - start + 1) * ffi.sizeof("size_t")),
                                      dtype=np.uintp).astype(np.int64)
            finally:
                lib.bcTieList_Destroy(tie_list)
            firsts.append(first[1:] + offset)
            offset += count
    if not s["ties"]:
        return None
    all_contacts = np.concatenate(contacts) if contacts else np.empty(0, dtype=_lib.CONTACT)
    _unused_contact_vertices(all_contacts)
    return Ties(all_contacts, np.concatenate(firsts))


def _unused_contact_vertices(contacts: np.ndarray) -> None:
    if len(contacts):
        contacts["vertices"][np.arange(3) >= contacts["vertex_count"][:, None]] = -1


def _discrete(m, packed, raw, alpha_free, exact_alpha, cast_options, s, threads: int) -> None:
    options = ffi.new("bcDiscreteOptions*", lib.bcDefaultDiscreteOptions())
    options.step = s["dt"]
    options.bisections = s["bisect"]
    options.cast = cast_options[0]
    mode = getattr(lib, _NORMAL_MODES[s["normal"]])
    n = len(packed)
    workers = max(1, min(_lib.thread_count(threads), -(-n // _DISCRETE_CASTS_PER_THREAD)))
    bounds = [n * k // workers for k in range(workers + 1)]

    def run(k: int) -> None:
        a, b = bounds[k], bounds[k + 1]
        if a == b:
            return
        lib.bcpy_CastDiscreteBatch(m, ffi.from_buffer("bcCastInput[]", packed[a:b]),
                                   ffi.from_buffer("bcCastOutput[]", raw[a:b]),
                                   ffi.from_buffer("double[]", alpha_free[a:b]),
                                   ffi.from_buffer("double[]", exact_alpha[a:b]) if exact_alpha is not None
                                   else ffi.NULL, b - a, options, mode)

    if workers == 1:
        run(0)
    else:
        # the C loop runs without the GIL: Python threads run it in parallel
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, range(workers)))


# ------------------------------------------------------------ two meshes

def intersect(a: Mesh, b: Optional[Mesh] = None, *, touching: bool = True, approx: bool = False,
              approx_rule: str = "either", check_approx: bool = False, brute: bool = False,
              threads: Optional[int] = None) -> IntersectResult:
    """Every pair of a triangle of a and a triangle of b that meet, as
    ``ballcast intersect a.obj b.obj`` lists them; with b None, a against
    itself (pairs of triangles that share no vertex).

    touching=False leaves out touching pairs (only crossing and coplanar);
    approx uses the approximate hybrid test (bounding spheres and planes),
    approx_rule "either" or "one-way" its rule for the planes, check_approx
    runs the exact test too and counts its mistakes; brute tests every pair
    (the same answer). Returns an IntersectResult (arrays a, b, state,
    segment, exact_state).
    """
    if not isinstance(a, Mesh) or (b is not None and not isinstance(b, Mesh)):
        raise TypeError("intersect takes ballcast.Mesh objects")
    rule = _lib.choice(approx_rule, "approx_rule", ("either", "one-way"))
    if check_approx and not approx:
        raise ValueError("check_approx needs approx=True")
    options = ffi.new("bcIntersectOptions*", lib.bcDefaultIntersectOptions())
    options.approximate = _lib.flag(approx, "approx")
    options.bruteForce = _lib.flag(brute, "brute")
    options.skipTouching = not _lib.flag(touching, "touching")
    options.threadCount = _lib.thread_arg(threads)
    options.approxRule = lib.bc_approxOneWay if rule == "one-way" else lib.bc_approxEither
    options.checkApprox = _lib.flag(check_approx, "check_approx")
    error = ffi.new("bcError*")
    meshes = (a,) if b is None else (a, b)
    with _Using(*meshes) as pointers:
        found = lib.bcMesh_Intersect(pointers[0], pointers[1] if b is not None else ffi.NULL, options, error)
    if found == ffi.NULL:
        _lib.raise_error(error)
    try:
        count = int(found.count)
        if count > 0:
            raw = np.frombuffer(ffi.buffer(found.pairs, count * _lib.INTERSECT_PAIR.itemsize),
                                dtype=_lib.INTERSECT_PAIR).copy()
        else:
            raw = np.empty(0, dtype=_lib.INTERSECT_PAIR)
        result = IntersectResult(raw, found.candidateCount, found.falsePositiveCount, found.falseNegativeCount,
                                 settings={"self": b is None, "method": "approx" if approx else "exact",
                                           "touching": touching, "approx_rule": rule,
                                           "check_approx": bool(check_approx)})
    finally:
        lib.bcIntersectList_Destroy(found)
    return result


def relate(a: Mesh, b: Mesh, *, brute: bool = False, threads: Optional[int] = None) -> Relation:
    """How the solids of two closed meshes relate, as ``ballcast intersect``'s
    summary says: "disjoint", "touching", "crossing", "a_inside_b",
    "b_inside_a", or "not_closed" when a mesh is not closed (a_closed and
    b_closed say which). Decided by exact signs. Returns a Relation."""
    if not isinstance(a, Mesh) or not isinstance(b, Mesh):
        raise TypeError("relate takes two ballcast.Mesh objects")
    options = ffi.new("bcRelateOptions*", lib.bcDefaultRelateOptions())
    options.bruteForce = _lib.flag(brute, "brute")
    options.threadCount = _lib.thread_arg(threads)
    error = ffi.new("bcError*")
    with _Using(a, b) as (pa, pb):
        out = lib.bcMesh_Relate(pa, pb, options, error)
    if out.relation == lib.bc_relationFailed:
        _lib.raise_error(error)
    return Relation(_lib.RELATION_NAMES[out.relation], bool(out.aClosed), bool(out.bClosed), int(out.pairCount),
                    int(out.crossingCount), bool(out.aPointInsideB), bool(out.aPointOutsideB),
                    bool(out.bPointInsideA), bool(out.bPointOutsideA))
