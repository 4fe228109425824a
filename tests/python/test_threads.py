"""The GIL is released while the library works: other Python threads run
meanwhile, and two threads cast at once. Checked as properties that hold on
a loaded 2-core machine (who runs while whom is inside a cast), not as a
speed ratio."""
import threading
import time

import numpy as np
import pytest

import ballcast
from conftest import same_bits


@pytest.fixture(scope="module")
def long_batch(bunny, bunny_throws):
    """Enough casts for about a second on one thread (grown until it is)."""
    t = ballcast.read_trajectories(bunny_throws)
    packed = ballcast.pack_casts(t.p0, t.p1, t.r)
    while True:
        start = time.perf_counter()
        bunny.cast_packed(packed, threads=1)
        if time.perf_counter() - start >= 0.8 or len(packed) >= 3_200_000:
            return packed
        packed = np.concatenate([packed, packed])


def _pauses(call):
    """Run call on a thread while this one counts: (seconds inside call,
    this thread's longest pause meanwhile, its samples meanwhile)."""
    inside = {}

    def work():
        inside["start"] = time.perf_counter()
        call()
        inside["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    stamps = []
    worker.start()
    while worker.is_alive():
        stamps.append(time.perf_counter())
    worker.join()
    during = np.array([s for s in stamps if inside["start"] <= s <= inside["end"]])
    longest = np.max(np.diff(np.concatenate([[inside["start"]], during, [inside["end"]]])))
    return inside["end"] - inside["start"], longest, len(during)


def test_python_runs_while_a_cast_runs(bunny, long_batch):
    """While one thread is inside a long cast, the main thread keeps
    running: its longest pause is a small part of the cast (a cast holding
    the GIL would pause it for the whole cast)."""
    seconds, longest, samples = _pauses(lambda: bunny.cast_packed(long_batch, threads=1))
    assert seconds > 0.3
    assert longest < 0.4 * seconds, (longest, seconds, samples)
    assert samples > 1000


def test_the_measure_sees_a_held_gil():
    """The same measure on a C call that keeps the GIL (ctypes.PyDLL does
    not release it): one pause as long as the call. So the test above can
    fail."""
    import ctypes
    libc = ctypes.PyDLL(None)
    seconds, longest, samples = _pauses(lambda: libc.usleep(400000))
    assert longest > 0.9 * seconds


def test_two_threads_cast_at_once(bunny, long_batch):
    """Two threads each casting half: their times inside the library
    overlap (with the GIL held they would run one after the other), and
    both answer as one thread does."""
    halves = (long_batch[: len(long_batch) // 2], long_batch[len(long_batch) // 2:])
    spans = [None, None]
    answers = [None, None]
    go = threading.Barrier(2)

    def work(k):
        go.wait()
        start = time.perf_counter()
        answers[k] = bunny.cast_packed(halves[k], threads=1)
        spans[k] = (start, time.perf_counter())

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    overlap = min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0])
    shorter = min(s[1] - s[0] for s in spans)
    assert overlap > 0.5 * shorter, (spans, overlap)
    alone = bunny.cast_packed(long_batch[:20000], threads=1)
    assert same_bits(answers[0].raw[:20000], alone.raw)
