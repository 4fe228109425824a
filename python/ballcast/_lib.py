"""The compiled library, numpy layouts of its structs, errors and argument checks.

Every struct the batch functions fill is given a numpy structured dtype with
the struct's own offsets and size (read from the compiled extension, which
the C compiler checked against ballcast.h), so that an array of that dtype
*is* an array of the C structs: the library writes into numpy's memory and
each field is a strided view, with no copy.
"""
from __future__ import annotations

import operator
import os
import tempfile
from typing import Any, Optional, Tuple

import numpy as np

from ._ballcast import ffi, lib

VERSION: str = ffi.string(lib.BC_VERSION_STRING).decode("ascii")

# Enums are ints in C; the layouts below take them as int32.
for _enum in ("bcFeature", "bcCastState", "bcClosestState", "bcBallState", "bcTriTriState", "bcErrorCode"):
    assert ffi.sizeof(_enum) == 4, _enum
assert ffi.sizeof("int") == 4 and ffi.sizeof("bool") == 1

_I4 = "=i4"
_F8 = "=f8"
_VEC = ("=f8", (3,))


def _layout(ctype: str, fields) -> np.dtype:
    """The numpy dtype of the C struct ctype: (name, C field, format) each."""
    return np.dtype({
        "names": [name for name, _, _ in fields],
        "formats": [fmt for _, _, fmt in fields],
        "offsets": [ffi.offsetof(ctype, cfield) for _, cfield, _ in fields],
        "itemsize": ffi.sizeof(ctype),
    })


CAST_INPUT = _layout("bcCastInput", [("p0", "p0", _VEC), ("p1", "p1", _VEC), ("radius", "radius", _F8)])
assert CAST_INPUT.itemsize == 7 * 8  # seven doubles without padding: an (n, 7) array as it is

CAST_OUTPUT = _layout("bcCastOutput", [
    ("state", "state", _I4),
    ("alpha", "alpha", _F8),
    ("triangle", "triangle", _I4),
    ("face", "face", _I4),
    ("feature", "feature", _I4),
    ("vertex_count", "vertexCount", _I4),
    ("vertices", "vertices", ("=i4", (3,))),
    ("point", "point", _VEC),
    ("center", "center", _VEC),
    ("normal", "normal", _VEC),
    ("triangle_normal", "triangleNormal", _VEC),
    ("tie_count", "tieCount", _I4),
])

CONTACT = _layout("bcContact", [
    ("triangle", "triangle", _I4),
    ("feature", "feature", _I4),
    ("vertex_count", "vertexCount", _I4),
    ("vertices", "vertices", ("=i4", (3,))),
    ("alpha", "alpha", _F8),
    ("normal", "normal", _VEC),
])

CLOSEST_INPUT = _layout("bcClosestInput", [("p", "p", _VEC), ("radius", "radius", _F8)])
assert CLOSEST_INPUT.itemsize == 4 * 8

CLOSEST_OUTPUT = _layout("bcClosestOutput", [
    ("state", "state", _I4),
    ("distance", "distance", _F8),
    ("point", "point", _VEC),
    ("triangle", "triangle", _I4),
    ("face", "face", _I4),
    ("feature", "feature", _I4),
    ("vertex_count", "vertexCount", _I4),
    ("vertices", "vertices", ("=i4", (3,))),
    ("normal", "normal", _VEC),
    ("overlap", "overlap", "?"),
    ("depth", "depth", _F8),
    ("tie_count", "tieCount", _I4),
    ("barycentric", "barycentric", _VEC),
])

BALL_INPUT = _layout("bcBallInput", [
    ("p0", "p0", _VEC), ("p1", "p1", _VEC), ("radius", "radius", _F8), ("mass", "mass", _F8), ("fixed", "fixed", "?"),
])

BALL_RESULT = _layout("bcBallResult", [
    ("state", "state", _I4),
    ("alpha", "alpha", _F8),
    ("other", "other", _I4),
    ("tie_count", "tieCount", _I4),
    ("point", "point", _VEC),
    ("normal", "normal", _VEC),
    ("velocity_before", "velocityBefore", _VEC),
    ("velocity_after", "velocityAfter", _VEC),
])

INTERSECT_PAIR = _layout("bcIntersectPair", [
    ("a", "a", _I4),
    ("b", "b", _I4),
    ("state", "state", _I4),
    ("segment", "segment", ("=f8", (2, 3))),
    ("exact_state", "exactState", _I4),
])

# The names the library gives its enums, indexed by value.
FEATURE_NAMES: Tuple[str, ...] = tuple(ffi.string(lib.bcFeatureName(k)).decode() for k in range(4))
TRITRI_NAMES: Tuple[str, ...] = tuple(ffi.string(lib.bcTriTriStateName(k)).decode() for k in range(6))
RELATION_NAMES: Tuple[str, ...] = tuple(ffi.string(lib.bcRelationName(k)).decode() for k in range(7))

# The largest batch one library call takes (counts are C ints).
MAX_BATCH = 2**31 - 1


# ------------------------------------------------------------------ errors

class BallcastError(Exception):
    """An error the library reported: code (a bc_error* value), and where.

    line and column are 1-based (0 when they do not apply), record 0-based
    (-1 when it does not apply), byte the 1-based byte of binary data (a
    binary STL or PLY; 0 in text), as in ballcast.h's bcError.
    """

    def __init__(self, message: str, code: int = 0, line: int = 0, column: int = 0, record: int = -1,
                 path: Optional[str] = None, byte: int = 0):
        super().__init__(message)
        self.code = code
        self.line = line
        self.column = column
        self.record = record
        self.path = path
        self.byte = byte


class MeshError(BallcastError, ValueError):
    """A mesh that cannot be built: a syntax error, an index out of range, a
    coordinate that is not finite, too many elements, no face."""


class MeshFileError(BallcastError, OSError):
    """A mesh file that cannot be opened or read."""


class BallcastWarning(UserWarning):
    """Something a reader got past (a polygon cut as a fan, degenerate
    triangles skipped): the mesh was built, but part of it may not be what
    the file meant."""


def error_text(error) -> str:
    return ffi.string(error.message).decode("utf-8", "replace")


def raise_error(error, path: Optional[str] = None) -> None:
    """Raise the exception that a filled bcError stands for.

    The message reads as the command's does: "room.obj:3:7: coordinate is
    not finite: 'nan'", "part.stl:byte 135: triangle 1, corner 1:
    coordinate x is not finite (NaN)" (the path and position when known).
    """
    message = located(error_text(error), path, int(error.line), int(error.column), int(error.byte))
    if error.code == lib.bc_errorNoMemory:
        raise MemoryError(message)
    cls = MeshFileError if error.code == lib.bc_errorIo else MeshError
    raise cls(message, int(error.code), int(error.line), int(error.column), int(error.record), path,
              int(error.byte))


def located(text: str, path: Optional[str], line: int, column: int, byte: int) -> str:
    """text after where it is, as the command says it: "FILE:byte N: " in
    binary data, else "FILE:LINE:COLUMN: " (what is known of it)."""
    where = []
    if path is not None:
        where.append(path)
    if byte > 0:
        where.append("byte %d" % byte)
    elif line > 0:
        where.append(str(line))
        if column > 0:
            where.append(str(column))
    return ":".join(where) + ": " + text if where else text


# ------------------------------------------------------------ mesh formats

#: The formats Mesh.load reads, as --mesh-format names them ("auto": by the
#: extension, then the first bytes), in bcMeshFormat's order.
MESH_FORMATS: Tuple[str, ...] = tuple(ffi.string(lib.bcMeshFormatName(f)).decode("ascii")
                                      for f in range(lib.bc_meshAuto, lib.bc_meshOff + 1))


def mesh_format(format: Optional[str]) -> int:
    """format (a name of MESH_FORMATS, or None: "auto") as a bcMeshFormat."""
    if format is None:
        return int(lib.bc_meshAuto)
    return MESH_FORMATS.index(choice(format, "format", MESH_FORMATS))


# ----------------------------------------------------------- argument checks

def real_array(value: Any, name: str) -> np.ndarray:
    """value as a numpy array of float64 (a view when it already is one).

    Integers and float32 convert exactly; booleans, complex numbers, strings
    and objects that are not numbers are refused with TypeError.
    """
    array = np.asarray(value)
    kind = array.dtype.kind
    if kind == "O":
        if any(v is None for v in array.flat):  # numpy would make None a NaN
            raise TypeError("%s must hold real numbers, not None" % name)
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError("%s must hold real numbers, not %s" % (name, _describe(value))) from None
        return array
    if kind not in "fiu":
        raise TypeError("%s must hold real numbers, not %s" % (name, array.dtype))
    return array.astype(np.float64, copy=False)


def _describe(value: Any) -> str:
    return type(value).__name__


def points(value: Any, name: str, count: Optional[int] = None) -> np.ndarray:
    """value as an (n, 3) float64 array; a single point (3,) stands for n."""
    array = real_array(value, name)
    if array.ndim == 1 and array.shape[0] == 3:
        array = array.reshape(1, 3)
        if count is not None:
            array = np.broadcast_to(array, (count, 3))
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError("%s must have shape (n, 3) or (3,), not %s" % (name, array.shape))
    if count is not None and array.shape[0] != count:
        raise ValueError("%s has %d points where %d were given before" % (name, array.shape[0], count))
    return array


def scalars(value: Any, name: str, count: int) -> np.ndarray:
    """value as an (n,) float64 array; a single number stands for all n."""
    array = real_array(value, name)
    if array.ndim == 0:
        return np.broadcast_to(array, (count,))
    if array.ndim != 1 or array.shape[0] != count:
        raise ValueError("%s must be a number or have shape (%d,), not %s" % (name, count, array.shape))
    return array


def batch_count(*arrays: np.ndarray) -> int:
    """The n the arrays agree on (a single point counts as any n)."""
    counts = {a.shape[0] for a in arrays if a.ndim >= 1 and a.shape[0] != 1}
    if len(counts) > 1:
        raise ValueError("the arrays have different lengths: %s" % sorted(counts))
    return counts.pop() if counts else 1


def thread_arg(threads: Optional[int]) -> int:
    """threads as the library's threadCount: None or 0 is its policy."""
    if threads is None:
        return 0
    try:
        n = operator.index(threads)
    except TypeError:
        raise TypeError("threads must be a whole number or None, not %s" % type(threads).__name__) from None
    if n < 0:
        raise ValueError("threads must be >= 0 (0 or None: one per core), not %d" % n)
    return n


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be True or False, not %r" % (name, value))
    return bool(value)


def choice(value: Any, name: str, choices: Tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError("%s must be one of %s, not %r" % (name, ", ".join(map(repr, choices)), value))
    if value not in choices:
        raise ValueError("%s must be one of %s, not %r" % (name, ", ".join(map(repr, choices)), value))
    return value


def thread_count(threads: Optional[int] = None) -> int:
    """The threads a call given threads= uses at most (the library's policy:
    threads when > 0, else one per online core, at most BC_MAX_THREADS)."""
    return int(lib.bcThreadCount(thread_arg(threads)))


def from_buffer(ctype: str, array: np.ndarray):
    """A C pointer to array's memory (no copy); array must stay alive."""
    return ffi.from_buffer(ctype, array)


# ------------------------------------------------------------------ files

FORMATS = ("json", "ndjson", "csv")


def format_for(path: Optional[str], format: Optional[str]) -> str:
    """The format asked for, or the one the path's extension names (as -o does)."""
    if format is not None:
        return choice(format, "format", FORMATS)
    ext = os.path.splitext(str(path))[1].lower() if path is not None else ""
    return {".json": "json", ".ndjson": "ndjson", ".jsonl": "ndjson", ".csv": "csv"}.get(ext, "json")


def write_text(path: str, text: str) -> None:
    """text into path through a temporary beside it, renamed into place."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
