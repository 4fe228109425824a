#!/usr/bin/env python3
"""bench_cast.py - the Python batch cast beside `ballcast cast`'s query phase.

    bench_cast.py MESH.obj TRAJ [--threads 1,2] [--rounds 3]

TRAJ is gen.py's text form (x0 y0 z0 x1 y1 z1 r a line) or anything
ballcast.read_trajectories reads; the command reads TRAJ.json beside a .txt
(gen.py writes both, with the same decimal strings). For each thread count,
alternating, the best of the rounds:
  - the command: `ballcast cast -q --stats -j T MESH TRAJ.json -f ndjson`
    (output thrown away): its query_seconds (CPU seconds of the query phase,
    summed over the threads) and peak_memory_bytes;
  - Python, in a fresh interpreter: the mesh read, the trajectories read
    into one (n, 7) array, then Mesh.cast_packed timed: its CPU seconds
    (summed over the library's threads, as the command counts them) and
    wall seconds, and the interpreter's peak resident memory.
Not a test: speed is measured here, never in a timed unit test.
"""
import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import numpy as np
import ballcast
mesh_path, traj, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
mesh = ballcast.Mesh.from_obj(mesh_path, quiet=True)
if traj.endswith(".txt"):
    packed = np.fromfile(traj, sep=" ").reshape(-1, 7)
else:
    t = ballcast.read_trajectories(traj)
    packed = ballcast.pack_casts(t.p0, t.p1, t.r)
    del t
cpu, wall = time.process_time(), time.perf_counter()
result = mesh.cast_packed(packed, threads=threads)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"query_cpu": cpu, "query_wall": wall, "hits": int(result.hit.sum()), "casts": len(result),
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def command(ballcast, mesh, traj_json, threads):
    done = subprocess.run([ballcast, "cast", "-q", "--stats", "-j", str(threads), mesh, traj_json, "-f", "ndjson"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    stats = json.loads(done.stderr.strip().splitlines()[-1])
    return {"query_cpu": stats["query_seconds"], "peak": stats["peak_memory_bytes"], "hits": stats["hits"]}


def python(mesh, traj, threads):
    done = subprocess.run([sys.executable, "-c", CHILD, mesh, traj, str(threads)], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mesh")
    parser.add_argument("traj")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ballcast", default=os.path.join(os.path.dirname(__file__), "..", "..", "ballcast"))
    args = parser.parse_args()
    traj_json = args.traj[:-4] + ".json" if args.traj.endswith(".txt") else args.traj
    print("threads  command query CPU s  python query CPU s (wall)  ratio  command peak MB  python peak MB  ratio")
    for threads in (int(t) for t in args.threads.split(",")):
        best_c = best_p = None
        for _ in range(args.rounds):
            c = command(args.ballcast, args.mesh, traj_json, threads)
            p = python(args.mesh, args.traj, threads)
            assert c["hits"] == p["hits"], (c, p)
            best_c = c if best_c is None or c["query_cpu"] < best_c["query_cpu"] else best_c
            best_p = p if best_p is None or p["query_cpu"] < best_p["query_cpu"] else best_p
        print("%7d  %20.2f  %18.2f (%5.2f)  %5.2f  %15.0f  %14.0f  %5.2f" % (
            threads, best_c["query_cpu"], best_p["query_cpu"], best_p["query_wall"],
            best_p["query_cpu"] / best_c["query_cpu"], best_c["peak"] / 1e6, best_p["peak"] / 1e6,
            best_p["peak"] / best_c["peak"]))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
