"""ballcast: where does a moving ball first touch a triangle mesh?

The Python face of libballcast, the library behind the ``ballcast`` command:
the same answers, bit for bit, on numpy arrays.

    >>> import ballcast
    >>> mesh = ballcast.Mesh.from_obj("samples/room.obj")
    >>> result = mesh.cast(p0=[[1, 1, 2]], p1=[[1, 1, -1]], r=0.25)
    >>> result.hit, result.alpha
    (array([ True]), array([0.58333333]))

What there is (``help(ballcast.X)`` says more about each):
  Mesh                    a mesh: Mesh(vertices, triangles), Mesh.load(path) (OBJ, STL, PLY, OFF)
  Mesh.cast               moving balls against the mesh (ballcast cast)
  Mesh.cast_packed        the same over an (n, 7) array, without a copy
  Mesh.closest            the closest point of the mesh to balls at rest
  collide_balls           moving balls against each other (ballcast balls)
  intersect, relate       triangles of two meshes that meet; how two solids relate
  read_trajectories       a trajectory file (JSON, NDJSON, CSV) into arrays
  read_results            the command's result files back into the same arrays
  thread_count            the threads a call uses (threads=None: one per core)
  ballcast.dask           casts on a dask.distributed cluster

Calls on arrays release the GIL and run on the library's threads; results
are small objects of numpy arrays. Bad input raises TypeError or ValueError
with the library's message, running out of memory MemoryError.
"""
from ._lib import (VERSION, BallcastError, BallcastWarning, MeshError, MeshFileError, thread_count)
from ._results import (FEATURE_EDGE, FEATURE_FACE, FEATURE_NONE, FEATURE_VERTEX, HIT, INITIAL_OVERLAP, INVALID,
                       MISS, NO_MEMORY, BallsResult, Cast, CastResult, ClosestResult, Ids, IntersectResult,
                       MeshWarning, Relation, Ties, feature_names)
from ._mesh import Mesh, intersect, pack_casts, relate
from ._balls import collide_balls
from ._files import Trajectories, read_results, read_trajectories
from ._ballcast import lib as _clib

__version__ = VERSION

#: Two contacts whose alpha differ by at most this are tied (ballcast.h).
ALPHA_TIE_TOLERANCE: float = float(_clib.BC_ALPHA_TIE_TOLERANCE)
#: Closest-point distances tie within this times (d + L) (ballcast.h).
DISTANCE_TIE_TOLERANCE: float = float(_clib.BC_DISTANCE_TIE_TOLERANCE)
#: The largest coordinate or radius a cast answers.
MAX_COORDINATE: float = float(_clib.BC_MAX_COORDINATE)

#: Triangle-triangle states of IntersectResult.state, as ballcast.h numbers them.
TRITRI_DISJOINT, TRITRI_TOUCHING, TRITRI_CROSSING, TRITRI_COPLANAR, TRITRI_DEGENERATE, TRITRI_PROBABLE = range(6)

__all__ = [
    "Mesh", "intersect", "relate", "collide_balls", "pack_casts", "read_trajectories", "read_results",
    "thread_count", "CastResult", "ClosestResult", "BallsResult", "IntersectResult", "Relation", "Ties", "Ids",
    "Cast", "MeshWarning", "Trajectories", "feature_names", "BallcastError", "MeshError", "MeshFileError",
    "BallcastWarning", "MISS", "HIT", "INITIAL_OVERLAP", "INVALID", "NO_MEMORY", "FEATURE_NONE", "FEATURE_FACE",
    "FEATURE_EDGE", "FEATURE_VERTEX", "TRITRI_DISJOINT", "TRITRI_TOUCHING", "TRITRI_CROSSING", "TRITRI_COPLANAR",
    "TRITRI_DEGENERATE", "TRITRI_PROBABLE", "ALPHA_TIE_TOLERANCE", "DISTANCE_TIE_TOLERANCE", "MAX_COORDINATE",
    "__version__",
]
