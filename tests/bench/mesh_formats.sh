#!/bin/sh
# mesh_formats.sh - reading speed of each mesh format on one 1 M-triangle
# mesh (a bumpy 708 x 708 grid, float32-exact coordinates, vertices in order
# of first use), as CPU seconds of one bcMesh_Load on one thread, the
# hierarchy's build excluded (build/bench/mesh_read: reading, parsing,
# polygons cut, normals). Each load runs in a fresh process (as `ballcast`
# loads its mesh once: fresh pages, cold allocator), the files taken in
# turn, ROUNDS rounds; per file the median, and the median of its ratio to
# the OBJ's time in the same round (paired: a change in the machine's load
# touches both alike). Equal digests: equal meshes.
#   sh tests/bench/mesh_formats.sh [MESH_READ] [ROUNDS]
# Writes its meshes in ${TMPDIR:-/tmp}/ballcast-mesh-formats (kept for reruns).
set -eu
here="$(cd "$(dirname "$0")/../.." && pwd)"
reader="${1:-$here/build/bench/mesh_read}"
rounds="${2:-11}"
dir="${TMPDIR:-/tmp}/ballcast-mesh-formats"
mkdir -p "$dir"
conv="python3 $here/tests/cli/meshconv.py"
if [ ! -f "$dir/grid.obj" ]; then
	python3 - "$dir/grid.obj" <<'PY'
import sys
n = 708
with open(sys.argv[1], 'w') as f:
    for i in range(n):
        for j in range(n):
            f.write('v %r %r %r\n' % (i * 0.25, j * 0.25, ((i * 7 + j * 13) % 17) * 0.0625))
    for i in range(n - 1):
        for j in range(n - 1):
            a = i * n + j + 1
            f.write('f %d %d %d\nf %d %d %d\n' % (a, a + n, a + 1, a + 1, a + n, a + n + 1))
PY
	$conv "$dir/grid.obj" "$dir/grid-first.obj" obj --first-use
	$conv "$dir/grid-first.obj" "$dir/grid-ascii.stl" stl-ascii
	$conv "$dir/grid-first.obj" "$dir/grid-binary.stl" stl-binary
	$conv "$dir/grid-first.obj" "$dir/grid-ascii.ply" ply-ascii
	$conv "$dir/grid-first.obj" "$dir/grid-f32.ply" ply-le
	$conv "$dir/grid-first.obj" "$dir/grid-f64.ply" ply-le --double
	$conv "$dir/grid-first.obj" "$dir/grid.off" off
fi
files="grid-first.obj grid-binary.stl grid-f32.ply grid-f64.ply grid-ascii.ply grid.off grid-ascii.stl"
r=0
while [ "$r" -lt "$rounds" ]; do
	for f in $files; do
		"$reader" 1 1 "$dir/$f" | awk -v f="$f" 'NR == 2 { print f, $2, $6 }'
	done
	r=$((r + 1))
done | python3 -c '
import statistics, sys, os
files = sys.argv[1].split()
folder = sys.argv[2]
runs = {f: [] for f in files}
digests = {}
for line in sys.stdin:
    name, cpu, digest = line.split()
    runs[name].append(float(cpu))
    digests[name] = digest
obj = runs[files[0]]
print("%-16s %12s %10s %10s %26s  %s" % ("file", "bytes", "cpu_median", "cpu_min", "/OBJ paired median (range)",
                                         "digest"))
for f in files:
    ratios = [a / b for a, b in zip(runs[f], obj)]
    print("%-16s %12d %10.3f %10.3f %10.2f (%.2f-%.2f)       %s" % (
        f, os.path.getsize(os.path.join(folder, f)), statistics.median(runs[f]), min(runs[f]),
        statistics.median(ratios), min(ratios), max(ratios), digests[f]))
' "$files" "$dir"
