"""Fixtures of the Python package's tests: the source tree, the command
under test (./ballcast), the samples, and a 100,000-throw bunny workload
made by tests/bench/genwork."""
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(REPO, "build"))
BALLCAST = os.environ.get("BALLCAST", os.path.join(REPO, "ballcast"))
ROOM = os.path.join(REPO, "samples", "room.obj")
THROWS = os.path.join(REPO, "samples", "throws.json")
BUNNY = os.path.join(REPO, "tests", "data", "meshes", "stanford-bunny.obj")


def run_cli(*args, input=None, check=True):
    """Run the command under test; its standard output as text."""
    # bytes, decoded here: text=True would turn the \r in a CSV cell into \n
    done = subprocess.run([BALLCAST, *args], input=None if input is None else input.encode("utf-8"),
                          capture_output=True)
    if check and done.returncode not in (0, 1):
        raise AssertionError("ballcast %s: exit %d\n%s" % (" ".join(args), done.returncode,
                                                           done.stderr.decode("utf-8", "replace")))
    return done.stdout.decode("utf-8")


@pytest.fixture(scope="session")
def room():
    import ballcast
    with ballcast.Mesh.from_obj(ROOM) as mesh:
        yield mesh


@pytest.fixture(scope="session")
def throws():
    import ballcast
    return ballcast.read_trajectories(THROWS)


@pytest.fixture(scope="session")
def genwork():
    path = os.path.join(BUILD, "bench", "genwork")
    if not os.access(path, os.X_OK):
        subprocess.run(["make", "-C", REPO, "-s", "build/bench/genwork"], check=True)
    return path


@pytest.fixture(scope="session")
def bunny_throws(tmp_path_factory, genwork):
    """100,000 throws at the bunny (short and long, mixed), as NDJSON."""
    path = tmp_path_factory.mktemp("bunny") / "throws.ndjson"
    subprocess.run([genwork, "traj", BUNNY, "mixed", "100000", "30", str(path)], check=True,
                   stdout=subprocess.DEVNULL)
    return str(path)


@pytest.fixture(scope="session")
def bunny():
    import ballcast
    with ballcast.Mesh.from_obj(BUNNY, quiet=True) as mesh:
        yield mesh


def same_bits(a, b):
    """Whether two structured arrays hold the same fields, bit for bit
    (their padding bytes aside: numpy does not copy those)."""
    import numpy as np
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    for name in a.dtype.names:
        x, y = np.ascontiguousarray(a[name]), np.ascontiguousarray(b[name])
        if x.tobytes() != y.tobytes():
            return False
    return True
