#!/bin/sh
# mesh_formats.sh - reading speed of each mesh format on one 1 M-triangle
# mesh (a bumpy 708 x 708 grid, float32-exact coordinates), as `ballcast
# cast --stats` reports it (read_mesh_seconds: reading and parsing, the
# hierarchy's build excluded), best of RUNS runs, on THREADS threads.
#   sh tests/bench/mesh_formats.sh [BALLCAST] [RUNS] [THREADS]
# Writes its meshes in ${TMPDIR:-/tmp}/ballcast-mesh-formats (kept for reruns).
set -eu
ballcast="${1:-./ballcast}"
runs="${2:-3}"
threads="${3:-1}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
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
printf '%-16s %12s %14s %12s\n' file bytes read_seconds MB_per_s
for f in grid-first.obj grid-ascii.stl grid-binary.stl grid-ascii.ply grid-f32.ply grid-f64.ply grid.off; do
	best=""
	r=0
	while [ "$r" -lt "$runs" ]; do
		s=$("$ballcast" cast -q --stats -j "$threads" -f ndjson "$dir/$f" /dev/null 2>&1 >/dev/null |
			sed -n 's/.*"read_mesh_seconds":\([^,]*\),.*/\1/p')
		best=$(awk -v a="$best" -v b="$s" 'BEGIN { print (a == "" || b < a) ? b : a }')
		r=$((r + 1))
	done
	bytes=$(wc -c <"$dir/$f")
	printf '%-16s %12d %14.3f %12.0f\n' "$f" "$bytes" "$best" "$(awk -v b="$bytes" -v s="$best" 'BEGIN { print b / s / 1e6 }')"
done
