"""What the queries answer: small objects whose attributes are numpy arrays.

A result holds one structured array in the library's own layout (the C
structs the batch filled, see _lib.py) and gives each field as a view of it:
a million casts are one block of memory and a dozen arrays, never a million
Python objects. Results are read-only (their arrays cannot be written to).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional

import numpy as np

from . import _lib
from ._ballcast import lib

# States, as ballcast.h numbers them.
MISS = int(lib.bc_castMiss)
HIT = int(lib.bc_castHit)
INITIAL_OVERLAP = int(lib.bc_castInitialOverlap)
INVALID = int(lib.bc_castInvalid)
NO_MEMORY = int(lib.bc_castNoMemory)

FEATURE_NONE = int(lib.bc_featureNone)
FEATURE_FACE = int(lib.bc_featureFace)
FEATURE_EDGE = int(lib.bc_featureEdge)
FEATURE_VERTEX = int(lib.bc_featureVertex)

# feature codes by name, for files and arguments
FEATURE_CODES = {name: code for code, name in enumerate(_lib.FEATURE_NAMES)}


# The writers of the command's formats, by kind of answers: _files.py (which
# imports this module) puts them here, so that results write themselves.
TEXT_WRITERS: Dict[str, Callable[[Any, str], str]] = {}


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _unused_vertices(raw: np.ndarray) -> None:
    """-1 in the vertex slots past each answer's vertex count (the library
    leaves them as they fell), so that the arrays read the same whoever
    made them (a cast, or a file read back)."""
    if len(raw) == 0:
        return
    vertices = raw["vertices"]
    mask = np.arange(3) >= raw["vertex_count"][:, None]
    vertices[mask] = -1


def feature_names(codes: np.ndarray) -> np.ndarray:
    """The names of feature codes ("none", "face", "edge", "vertex"), as an
    array of strings (a copy: call it on the rows you want to read)."""
    return np.asarray(_lib.FEATURE_NAMES)[np.asarray(codes)]


def _field(name: str, doc: str) -> property:
    """A read-only view of one field of the answers' structured array."""
    return property(lambda self: self._raw[name], doc=doc)


class _Answers:
    """What every result shares: the one structured array in the library's
    layout (raw), and its length."""
    _raw: np.ndarray

    @property
    def raw(self) -> np.ndarray:
        """The structured array in the C struct's layout that the library filled (read-only)."""
        return self._raw

    def __len__(self) -> int:
        return len(self._raw)


class _Features(_Answers):
    """Answers that name a feature of a triangle (casts, closest points)."""

    def feature_names(self) -> np.ndarray:
        """The feature of each answer in words: "face", "edge", "vertex" or "none"."""
        return feature_names(self._raw["feature"])


class Ties:
    """Every tied contact of a batch, cast after cast (``ties=True``).

    The contacts of cast i are rows ``first[i]:first[i + 1]`` of the arrays
    triangle, feature, vertex_count, vertices, alpha and normal, ordered by
    triangle then feature, each with its own alpha, as ``ballcast cast
    --ties`` lists them. ``ties[i]`` gives them as a small dict of arrays.
    """

    def __init__(self, contacts: np.ndarray, first: np.ndarray):
        self._raw = _frozen(contacts)
        self.first: np.ndarray = _frozen(first)

    triangle = _field("triangle", "0-based triangle of each contact")
    feature = _field("feature", "feature code of each contact (FEATURE_FACE, ...)")
    vertex_count = _field("vertex_count", "mesh vertices of each feature: 3, 2 or 1")
    vertices = _field("vertices", "(m, 3) vertex indices, -1 past vertex_count")
    alpha = _field("alpha", "each contact's own alpha")
    normal = _field("normal", "(m, 3) contact normals")

    @property
    def count(self) -> np.ndarray:
        """How many contacts each cast lists (0 on a miss)."""
        return np.diff(self.first)

    def __len__(self) -> int:
        return len(self.first) - 1

    def __getitem__(self, i: int) -> Dict[str, np.ndarray]:
        i = range(len(self))[i]
        rows = self._raw[self.first[i]:self.first[i + 1]]
        return {name: rows[name] for name in rows.dtype.names}

    def __repr__(self) -> str:
        return "<ballcast.Ties: %d contacts of %d casts>" % (len(self._raw), len(self))


class Cast(NamedTuple):
    """One cast's answer, as ``result[i]`` gives it (for reading, not for loops)."""
    hit: bool
    alpha: float
    initial_overlap: bool
    feature: str
    triangle: int
    face: int
    vertices: tuple
    point: tuple
    center: tuple
    normal: tuple
    triangle_normal: tuple


class CastResult(_Features):
    """The answers of a batch of casts: one numpy array per field.

    For cast i: ``hit[i]`` (the ball touches the mesh in [0, 1]), ``alpha[i]``
    (the fraction of the path at first contact, 1 on a miss),
    ``initial_overlap[i]`` (closer than r already at alpha 0), ``feature[i]``
    (FEATURE_FACE, FEATURE_EDGE or FEATURE_VERTEX; ``feature_names()`` gives
    the words), ``triangle[i]`` and ``face[i]`` (0-based, -1 on a miss),
    ``vertices[i]`` (the feature's mesh vertices, -1 past ``vertex_count[i]``),
    ``point[i]`` (the contact point), ``center[i]`` (the ball's centre at
    alpha), ``normal[i]`` (as ``normal=`` asked: the contact normal, from
    point towards center, by default) and ``triangle_normal[i]`` (the
    triangle's front normal). On a miss the point and normals are 0.
    ``state[i]`` is the library's state (MISS, HIT, INITIAL_OVERLAP, INVALID,
    NO_MEMORY). With ``ties=True``, ``ties`` lists every tied contact; with
    the discrete method, ``alpha_free`` (and ``exact_alpha`` with
    ``compare_exact=True``, NaN where the exact cast misses).
    """

    def __init__(self, raw: np.ndarray, *, ties: Optional[Ties] = None, alpha_free: Optional[np.ndarray] = None,
                 exact_alpha: Optional[np.ndarray] = None, ids: Optional["Ids"] = None,
                 errors: Optional[Dict[int, str]] = None, settings: Optional[Dict[str, Any]] = None,
                 mesh_info: Optional[Dict[str, Any]] = None, normalise: bool = True):
        if normalise:
            _unused_vertices(raw)
        self._raw = _frozen(raw)
        state = raw["state"]
        self.hit: np.ndarray = _frozen((state == HIT) | (state == INITIAL_OVERLAP))
        self.initial_overlap: np.ndarray = _frozen(state == INITIAL_OVERLAP)
        self.ties: Optional[Ties] = ties
        self.alpha_free: Optional[np.ndarray] = None if alpha_free is None else _frozen(alpha_free)
        self.exact_alpha: Optional[np.ndarray] = None if exact_alpha is None else _frozen(exact_alpha)
        self.ids: Optional[Ids] = ids
        self.errors: Dict[int, str] = dict(errors or {})
        self.settings: Dict[str, Any] = dict(settings or {})
        self.mesh_info: Dict[str, Any] = dict(mesh_info or {})

    state = _field("state", "the library's state of each cast (MISS, HIT, ...)")
    alpha = _field("alpha", "fraction of the path at first contact (1 on a miss)")
    triangle = _field("triangle", "0-based triangle touched, -1 on a miss")
    face = _field("face", "0-based OBJ face (f line) of that triangle, -1 on a miss")
    feature = _field("feature", "FEATURE_FACE, FEATURE_EDGE, FEATURE_VERTEX (0: none)")
    vertex_count = _field("vertex_count", "mesh vertices of the feature: 3, 2 or 1")
    vertices = _field("vertices", "(n, 3) the feature's vertices, -1 past vertex_count")
    point = _field("point", "(n, 3) the contact point on the mesh")
    center = _field("center", "(n, 3) the ball's centre at alpha")
    normal = _field("normal", "(n, 3) the normal normal= asked for")
    triangle_normal = _field("triangle_normal", "(n, 3) the triangle's front normal")
    tie_count = _field("tie_count", "contacts tied at alpha (1 when none is)")

    def __getitem__(self, i: int) -> Cast:
        i = range(len(self))[i]
        r = self._raw[i]
        return Cast(bool(self.hit[i]), float(r["alpha"]), bool(self.initial_overlap[i]),
                    _lib.FEATURE_NAMES[r["feature"]], int(r["triangle"]), int(r["face"]),
                    tuple(int(v) for v in r["vertices"][:r["vertex_count"]]),
                    tuple(map(float, r["point"])), tuple(map(float, r["center"])),
                    tuple(map(float, r["normal"])), tuple(map(float, r["triangle_normal"])))

    def __iter__(self) -> Iterator[Cast]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return "<ballcast.CastResult: %d casts, %d hits%s>" % (
            len(self), int(self.hit.sum()), ", %d errors" % len(self.errors) if self.errors else "")

    def to_text(self, format: str = "ndjson") -> str:
        """The answers as ``ballcast cast --format FORMAT`` writes them
        (json, ndjson or csv), byte for byte."""
        return TEXT_WRITERS["cast"](self, format)

    def write(self, path: str, format: Optional[str] = None) -> None:
        """Write the answers to path as ``ballcast cast -o path`` would (the
        format from the extension unless given), through a temporary file
        renamed into place."""
        _lib.write_text(path, self.to_text(_lib.format_for(path, format)))


class Ids:
    """The ids of a batch's records, as ballcast writes them: text, and
    whether each is a JSON number (written as it is) or a string."""

    def __init__(self, text: np.ndarray, number: np.ndarray):
        self.text = _frozen(np.asarray(text, dtype=str))
        self.number = _frozen(np.asarray(number, dtype=bool))

    @classmethod
    def of(cls, values: Any) -> "Ids":
        """Ids from a sequence of str and int (or an array of either)."""
        values = list(values)
        return cls(np.array([str(v) for v in values] if values else [], dtype=str),
                   np.array([not isinstance(v, str) for v in values], dtype=bool))

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, i: int):
        text = str(self.text[i])
        if not self.number[i]:
            return text
        try:
            return int(text)
        except ValueError:
            return float(text)

    def __repr__(self) -> str:
        return "<ballcast.Ids: %d>" % len(self)


class ClosestResult(_Features):
    """The closest point of the mesh to each ball at rest.

    For ball i: ``distance[i]`` (from its centre to the mesh), ``point[i]``,
    ``triangle[i]``, ``face[i]``, ``feature[i]`` and ``vertices[i]`` (as for
    a cast: the part of that triangle the point lies on), ``normal[i]`` (unit,
    from point towards the centre), ``overlap[i]`` (distance < r),
    ``depth[i]`` (r - distance when overlapping, else 0), ``tie_count[i]``
    and ``barycentric[i]`` (the weights u, v, w of the triangle's vertices
    A, B, C in file order with point = u A + v B + w C).
    """

    def __init__(self, raw: np.ndarray, *, ids: Optional[Ids] = None, errors: Optional[Dict[int, str]] = None,
                 mesh_info: Optional[Dict[str, Any]] = None):
        _unused_vertices(raw)
        self._raw = _frozen(raw)
        self.found: np.ndarray = _frozen(raw["state"] == lib.bc_closestFound)
        self.ids = ids
        self.errors: Dict[int, str] = dict(errors or {})
        self.mesh_info: Dict[str, Any] = dict(mesh_info or {})

    state = _field("state", "bc_closestFound (1), none (0) or invalid (2)")
    distance = _field("distance", "from the centre to the closest point")
    point = _field("point", "(n, 3) the closest point of the mesh")
    triangle = _field("triangle", "0-based triangle it lies on")
    face = _field("face", "0-based OBJ face of that triangle")
    feature = _field("feature", "FEATURE_FACE, FEATURE_EDGE or FEATURE_VERTEX")
    vertex_count = _field("vertex_count", "mesh vertices of the feature")
    vertices = _field("vertices", "(n, 3) the feature's vertices, -1 past the count")
    normal = _field("normal", "(n, 3) unit, from point towards the centre")
    overlap = _field("overlap", "distance < r")
    depth = _field("depth", "r - distance when overlapping, else 0")
    tie_count = _field("tie_count", "triangles tied for the closest")
    barycentric = _field("barycentric", "(n, 3) weights of A, B, C")

    def __repr__(self) -> str:
        return "<ballcast.ClosestResult: %d balls, %d overlap>" % (len(self), int(self.overlap.sum()))

    def to_text(self, format: str = "ndjson") -> str:
        """The answers as ``ballcast closest --format FORMAT`` writes them."""
        return TEXT_WRITERS["closest"](self, format)


class BallsResult(_Answers):
    """What each ball of a set meets first (``collide_balls``).

    For ball i: ``hit[i]``, ``alpha[i]`` (1 on a miss), ``other[i]`` (the
    partner's index, -1 on a miss), ``initial_overlap[i]``, ``point[i]``
    (where the two touch), ``normal[i]`` (unit, from this ball towards the
    partner), ``velocity_before[i]`` (p1 - p0; 0 for a fixed ball) and
    ``velocity_after[i]`` (after the collision, or velocity_before), and
    ``tie_count[i]``.
    """

    def __init__(self, raw: np.ndarray, *, ids: Optional[Ids] = None, errors: Optional[Dict[int, str]] = None):
        self._raw = _frozen(raw)
        state = raw["state"]
        self.hit: np.ndarray = _frozen((state == lib.bc_ballHit) | (state == lib.bc_ballInitialOverlap))
        self.initial_overlap: np.ndarray = _frozen(state == lib.bc_ballInitialOverlap)
        self.ids = ids
        self.errors: Dict[int, str] = dict(errors or {})

    state = _field("state", "bc_ballMiss 0, hit 1, initial overlap 2, invalid 3")
    alpha = _field("alpha", "when it first touches a partner (1 on a miss)")
    other = _field("other", "the partner's index, -1 on a miss")
    tie_count = _field("tie_count", "partners meeting it at alpha")
    point = _field("point", "(n, 3) where the two touch")
    normal = _field("normal", "(n, 3) unit, towards the partner")
    velocity_before = _field("velocity_before", "(n, 3) p1 - p0")
    velocity_after = _field("velocity_after", "(n, 3) after the collision")

    def __repr__(self) -> str:
        return "<ballcast.BallsResult: %d balls, %d hits>" % (len(self), int(self.hit.sum()))

    def to_text(self, format: str = "ndjson") -> str:
        """The answers as ``ballcast balls --format FORMAT`` writes them."""
        return TEXT_WRITERS["balls"](self, format)


class IntersectResult(_Answers):
    """Every pair of triangles that meet (``intersect``), sorted by (a, b).

    ``a[k]`` and ``b[k]`` are the triangles of pair k (of mesh a and mesh b,
    or both of a with a < b for a mesh against itself); ``state[k]`` how they
    meet (a TRITRI_* code; ``state_names()`` in words: touching, crossing,
    coplanar or probable); ``segment[k]`` the (2, 3) common segment or
    point (zeros when coplanar or probable); ``exact_state[k]`` the exact
    test's state with ``check_approx``. ``candidates``, ``false_positives``
    and ``false_negatives`` count as bcIntersectList does.
    """

    def __init__(self, raw: np.ndarray, candidates: int = 0, false_positives: int = 0, false_negatives: int = 0,
                 settings: Optional[Dict[str, Any]] = None):
        self._raw = _frozen(raw)
        self.candidates = int(candidates)
        self.false_positives = int(false_positives)
        self.false_negatives = int(false_negatives)
        self.settings: Dict[str, Any] = dict(settings or {})

    a = _field("a", "triangle of mesh a")
    b = _field("b", "triangle of mesh b (or of a, a < b)")
    state = _field("state", "TRITRI_TOUCHING, TRITRI_CROSSING, ...")
    segment = _field("segment", "(n, 2, 3) the common segment")
    exact_state = _field("exact_state", "the exact test's state (check_approx)")

    def state_names(self) -> np.ndarray:
        """Each pair's state in words."""
        return np.asarray(_lib.TRITRI_NAMES)[self.state]

    def __repr__(self) -> str:
        return "<ballcast.IntersectResult: %d pairs>" % len(self)


class Relation(NamedTuple):
    """How the solids of two closed meshes relate (``relate``).

    relation: "disjoint", "touching", "crossing", "a_inside_b",
    "b_inside_a", or "not_closed" (a_closed and b_closed say which mesh is
    not); pair_count and crossing_count: the pairs of triangles that meet,
    and of them those that cross; the four flags: points of one surface
    found strictly inside or outside the other solid.
    """
    relation: str
    a_closed: bool
    b_closed: bool
    pair_count: int
    crossing_count: int
    a_point_inside_b: bool
    a_point_outside_b: bool
    b_point_inside_a: bool
    b_point_outside_a: bool


class MeshWarning(NamedTuple):
    """A warning of a mesh reader: what it got past (a polygon cut as a fan,
    an STL facet's stored normal against its winding), and where: the
    1-based line and byte column of the polygon (OBJ f, STL facet, first
    number of a PLY or OFF face), or in binary data its 1-based byte (line
    and column 0); record its 0-based face."""
    code: int
    line: int
    column: int
    record: int
    message: str
    byte: int = 0


__all__: List[str] = [
    "Ties", "Cast", "CastResult", "Ids", "ClosestResult", "BallsResult", "IntersectResult", "Relation",
    "MeshWarning", "feature_names",
]
