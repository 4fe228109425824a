#!/bin/sh
# run.sh - the benchmark driver behind `make bench` (tests/bench/bench.mk).
#
#   sh tests/bench/run.sh full|quick BUILD BENCHBIN WORKDIR
#
# Generates the workloads into WORKDIR (kept between runs; remade when
# genwork.c or meshgen.c change), runs ballcast's harness, the peers (when built), the
# other queries' harness (closest, balls, simulate, intersect against brute force), the
# ballcast command end to end and the number printer's benchmark, collects
# their key=value lines in WORKDIR/results.txt, prints the table and writes
# the report (BENCHMARKS.md for a full run, WORKDIR/BENCHMARKS.md for a
# quick one). Exit status 1 if an answer differed (brute force, thread
# counts, the command's record counts) or a step failed.
#
# Environment: BENCH_MESHES (default ../shared/meshes) holds the real OBJ
# meshes; BENCH_REPORT overrides where the report goes. JOLT_SRC, when set,
# names a Jolt Physics source tree: the peer's own build script
# (JOLT_PEER, default ../shared/peers/jolt/build.sh, outside this
# repository) builds its sphere-cast harness into WORKDIR/jolt-build, and
# native Jolt gets a column on the short and long sets; without it the
# column says n/a. Nothing of Jolt is kept in this repository.
set -u

mode=${1:?mode}
build=${2:?build dir}
bin=${3:?bench bin dir}
work=${4:?work dir}
meshes=${BENCH_MESHES:-../shared/meshes}
ballcast=$build/ballcast

if [ "$mode" = quick ]; then
	count=10000          # trajectories per set
	bulletSeconds=0.3    # one timed Bullet run lasts about this long
	e2eCount=50000       # end-to-end JSON run
	ndjsonSmall=50000    # NDJSON memory check: small and large runs
	ndjsonLarge=500000
	numfmtCount=1000000
	report=${BENCH_REPORT:-$work/BENCHMARKS.md}
	# name kind parameter class (big: stands for the million-triangle meshes)
	generated="room-12 room 1 small
icosphere-1k icosphere 3 small
icosphere-82k icosphere 6 big
room-49k room 64 big
terrain-50k terrain 158 big
soup-50k soup 50000 big"
	real="stanford-bunny"
	# the other queries (seeds_bench.c): closest points per set, meshes,
	# ball set sizes, simulation scenes (name balls [two-sided] [brute]),
	# mesh-against-mesh cases (spheres LEVEL | moved NAME)
	otherCount=10000
	closestMeshes="icosphere-82k room-49k terrain-50k soup-50k stanford-bunny"
	ballCounts="1000 10000"
	scenes="room-12 64 - brute
icosphere-1k 64 two-sided brute
room-49k 64 - -
icosphere-82k 64 two-sided -"
	intersects="spheres 3
spheres 4
spheres 6
moved stanford-bunny"
	ndjsonMesh=terrain-50k
	readMesh=soup-50k
	joltMeshes="icosphere-82k stanford-bunny"
else
	count=100000
	bulletSeconds=2
	e2eCount=1000000
	ndjsonSmall=1000000
	ndjsonLarge=10000000
	numfmtCount=10000000
	report=${BENCH_REPORT:-BENCHMARKS.md}
	generated="room-12 room 1 small
room-1k room 9 small
room-49k room 64 mid
room-1M room 289 big
icosphere-1k icosphere 3 small
icosphere-82k icosphere 6 mid
icosphere-1.3M icosphere 8 big
terrain-1k terrain 22 small
terrain-50k terrain 158 mid
terrain-1M terrain 707 big
soup-1k soup 1000 small
soup-50k soup 50000 mid
soup-1M soup 1000000 big"
	real="stanford-bunny nefertiti ogre beast homer fandisk teapot spot"
	otherCount=100000
	closestMeshes="icosphere-1.3M room-1M terrain-1M soup-1M stanford-bunny"
	ballCounts="1000 10000 100000"
	scenes="room-1k 216 - brute
icosphere-1k 216 two-sided brute
room-1M 216 - -
icosphere-1.3M 216 two-sided -"
	intersects="spheres 3
spheres 4
spheres 6
spheres 8
moved stanford-bunny
moved terrain-1M"
	ndjsonMesh=terrain-1M
	readMesh=soup-1M
	joltMeshes="icosphere-1.3M room-1M terrain-1M soup-1M stanford-bunny"
fi
# seed 002's time stepping against the exact cast: the same small run in
# both modes (a few seconds): meshes, steps dt (5 bisections), throws
discreteMeshes="icosphere-1k room-49k"
discreteSteps="0.05 0.01 0.002"
discreteCount=5000
runs=3
brute=200

mkdir -p "$work" || exit 1
results=$work/results.txt
: > "$results"
failed=0
started=$(date +%s)

note() {
	printf 'bench: %s\n' "$*" >&2
}

# fresh FILE: FILE exists and is newer than the generator's sources (not its
# binary, which is relinked whenever the library changes).
fresh() {
	[ -s "$1" ] && [ -n "$(find "$1" -newer tests/bench/genwork.c -newer tests/support/meshgen.c)" ]
}

meta() {
	printf 'meta %s %s\n' "$1" "$2" >> "$results"
}

# ---------------------------------------------------------------- machine
meta mode "$mode"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta nproc "$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"
meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
meta memory "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
meta kernel "$(uname -sr)"
meta compiler "$(${CC:-cc} --version 2>/dev/null | head -n 1)"
meta commit "$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- lib cli 2>/dev/null || echo ' + uncommitted changes in lib/ cli/')"
meta bullet "$(dpkg-query -W -f '${Version}' libbullet-dev 2>/dev/null || echo n/a)"
meta embree "$(dpkg-query -W -f '${Version}' libembree-dev 2>/dev/null || echo n/a)"

# Native Jolt, optional: built by the peer's own script from JOLT_SRC.
joltPeer=${JOLT_PEER:-../shared/peers/jolt/build.sh}
jolt=""
if [ -n "${JOLT_SRC:-}" ]; then
	note "building native Jolt's harness from $JOLT_SRC ($joltPeer; log in $work/jolt-build.log)"
	if [ -f "$joltPeer" ] && sh "$joltPeer" "$JOLT_SRC" "$work/jolt-build" > "$work/jolt-build.log" 2>&1 &&
		[ -x "$work/jolt-build/jolt_sweep" ]; then
		jolt=$work/jolt-build/jolt_sweep
		meta jolt "$(sed -n 's/.*JPH_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' "$JOLT_SRC/Jolt/Core/Core.h" 2>/dev/null | head -n 3 | paste -sd. -) ($(clang++ --version 2>/dev/null | head -n 1), Release)"
	else
		note "native Jolt did not build (see $work/jolt-build.log); its column will say n/a"
	fi
fi
meta loadstart "$(cut -d ' ' -f 1-3 /proc/loadavg)"
meta count "$count"
meta command "make bench$([ "$mode" = quick ] && echo ' BENCH_QUICK=1')"

# -------------------------------------------------------------- workloads
note "generating workloads in $work (kept between runs)"
echo "$generated" | while read -r name kind param class; do
	fresh "$work/$name.obj" || "$bin/genwork" mesh "$kind" "$param" "$work/$name.obj" || exit 1
done || failed=1
for name in $real; do
	if [ -f "$meshes/$name.obj" ]; then
		ln -sf "$(cd "$meshes" && pwd)/$name.obj" "$work/$name.obj"
	else
		note "no $meshes/$name.obj; skipped"
	fi
done
all=$(echo "$generated" | awk '{ print $1 }')
for name in $real; do
	[ -f "$work/$name.obj" ] && all="$all $name"
done
seed=1
for set in short long ray; do
	for name in $all; do
		file=$work/$name.$set.traj
		fresh "$file" || "$bin/genwork" traj "$work/$name.obj" "$set" "$count" "$seed" "$file" || failed=1
	done
	seed=$((seed + 1))
done

# ------------------------------------------------------- queries and peers
for name in $all; do
	class=$(echo "$generated" | awk -v n="$name" '$1 == n { print $4 }')
	meta class "$name ${class:-real}"
	note "$name: ballcast (read, build, 3 sets x 3 modes, brute force)"
	"$bin/cast_bench" --runs $runs --brute $brute "$name" "$work/$name.obj" "$work" short long ray >> "$results" ||
		{ note "$name: cast_bench failed or answers differed"; failed=1; }
	if [ -x "$bin/bullet_sweep" ]; then
		for set in short long; do
			note "$name: Bullet $set"
			"$bin/bullet_sweep" "$name" "$set" "$work/$name.obj" "$work/$name.$set.traj" "$work/$name.$set.ans" \
				"$bulletSeconds" $runs >> "$results" || note "$name: Bullet failed ($set)"
		done
	fi
	if [ -x "$bin/embree_rays" ]; then
		note "$name: Embree ray"
		"$bin/embree_rays" "$name" ray "$work/$name.obj" "$work/$name.ray.traj" "$work/$name.ray.ans" $runs \
			>> "$results" || note "$name: Embree failed"
	fi
	if [ -n "$jolt" ] && echo " $joltMeshes " | grep -q " $name "; then
		for set in short long; do
			case $set in short) seed=1 ;; *) seed=2 ;; esac
			json=$work/$name.$set.json
			fresh "$json" || "$bin/genwork" traj "$work/$name.obj" $set $count $seed "$json" || continue
			note "$name: native Jolt $set"
			# one JSON line on stderr: the query loop's wall time, median of the runs
			line=$("$jolt" "$work/$name.obj" "$json" --reps $runs 2>&1 >/dev/null | grep '"qps"' | tail -n 1)
			value() { echo "$line" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
			if [ -n "$line" ]; then
				printf 'jolt name=%s set=%s count=%s qps=%s hits=%s kept=%s tris=%s\n' "$name" $set "$(value queries)" \
					"$(value qps)" "$(value hits)" "$(value kept)" "$(value tris)" >> "$results"
			else
				note "$name: native Jolt failed ($set)"
			fi
		done
	fi
done
meta loadqueries "$(cut -d ' ' -f 1-3 /proc/loadavg)"

# --------------------------------------------------------- other queries
# closest, balls, simulate and intersect against their brute-force paths
# (tests/bench/seeds_bench.c makes its own workloads with fixed seeds).
for name in $closestMeshes; do
	[ -f "$work/$name.obj" ] || continue
	note "$name: closest ($otherCount points per set, 4 sets, brute force on $brute)"
	"$bin/seeds_bench" --runs $runs --brute $brute --count $otherCount closest "$name" "$work/$name.obj" >> "$results" ||
		{ note "$name: closest failed or answers differed"; failed=1; }
done
note "balls: $ballCounts balls"
"$bin/seeds_bench" --runs $runs --brute $brute balls $ballCounts >> "$results" ||
	{ note "balls failed or answers differed"; failed=1; }
echo "$scenes" | {
	status=0
	while read -r name balls sides check; do
		[ -f "$work/$name.obj" ] || continue
		note "$name: simulate, $balls balls$([ "$check" = brute ] && echo ', brute force on the first events')"
		"$bin/seeds_bench" --runs $runs --brute "$([ "$check" = brute ] && echo $brute || echo 0)" simulate "$name" \
			"$work/$name.obj" "$balls" $([ "$sides" = two-sided ] && echo two-sided) >> "$results" ||
			{ note "$name: simulate failed or events differed"; status=1; }
	done
	exit $status
} || failed=1
echo "$intersects" | {
	status=0
	while read -r kind arg; do
		if [ "$kind" = spheres ]; then
			note "intersect: two icospheres of level $arg"
			"$bin/seeds_bench" --runs $runs intersect spheres "$arg" >> "$results" ||
				{ note "intersect spheres $arg failed or pairs differed"; status=1; }
		elif [ -f "$work/$arg.obj" ]; then
			note "intersect: $arg and a moved copy"
			"$bin/seeds_bench" --runs $runs intersect moved "$arg" "$work/$arg.obj" >> "$results" ||
				{ note "intersect $arg failed or pairs differed"; status=1; }
		fi
	done
	exit $status
} || failed=1
# seed 002's time stepping with bisection beside the exact cast, on the
# same throws: a few seconds (seeds_bench.c's discrete).
for name in $discreteMeshes; do
	[ -f "$work/$name.obj" ] || continue
	note "$name: time stepping (dt $discreteSteps, 5 bisections) against the exact cast, $discreteCount throws"
	# shellcheck disable=SC2086
	"$bin/seeds_bench" --runs $runs --count $discreteCount discrete "$name" "$work/$name.obj" 5 $discreteSteps >> "$results" ||
		{ note "$name: the discrete method answered before the exact cast"; failed=1; }
done
meta loadother "$(cut -d ' ' -f 1-3 /proc/loadavg)"

# ---------------------------------------------------------- the command
empty=$work/empty.json
echo '[]' > "$empty"
stats=$work/stats.tmp

# Read + build with 2 threads through the command: the median of three.
note "$readMesh: ballcast cast read + build, -j 2"
: > "$stats"
for run in 1 2 3; do
	"$bin/runstat" "$stats" "$ballcast" cast -q -j 2 "$work/$readMesh.obj" "$empty" > /dev/null ||
		{ note "read run $run failed"; failed=1; }
done
awk -v name="$readMesh" -v mb="$(wc -c < "$work/$readMesh.obj")" '
	{ for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[NR, kv[1]] = kv[2] } }
	END {
		n = NR
		for (i = 1; i <= n; ++i) { w[i] = v[i, "wall"] + 0; c[i] = v[i, "user"] + v[i, "sys"]; p = v[i, "peakmb"] + 0 > p ? v[i, "peakmb"] + 0 : p }
		for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) {
			if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
			if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
		}
		printf "cliread name=%s objmb=%.1f wall=%s cpu=%.3f peakmb=%s\n", name, mb / 1048576, w[int((n + 1) / 2)], c[int((n + 1) / 2)], p
	}' "$stats" >> "$results"

# One million (quick: 100k) trajectories, JSON in and out, per big mesh: the
# short set alone (the kind most batches hold: throws near a surface) and the
# mixed set (half short, half crossing the whole mesh).
for name in $(echo "$generated" | awk '$4 == "big" { print $1 }'); do
	for set in short mixed; do
		case $set in
		short) json=$work/$name.e2e-short.$e2eCount.json; seed=6 ;;
		*) json=$work/$name.e2e.$e2eCount.json; seed=4 ;;
		esac
		fresh "$json" || "$bin/genwork" traj "$work/$name.obj" $set $e2eCount $seed "$json" || failed=1
		note "$name: ballcast cast, $e2eCount $set trajectories JSON -> JSON"
		out=$work/e2e.out.json
		: > "$stats"
		"$bin/runstat" "$stats" "$ballcast" cast -q "$work/$name.obj" "$json" -o "$out" || failed=1
		summary=$(tail -n 1 "$out" | sed -n 's/.*"records":\([0-9]*\),"hits":\([0-9]*\),"errors":\([0-9]*\).*/records=\1 hits=\2 errors=\3/p')
		printf 'e2e name=%s set=%s count=%s %s %s\n' "$name" $set $e2eCount "$(cat "$stats")" "${summary:-records=?}" >> "$results"
		case "$summary" in
		"records=$e2eCount "*"errors=0") ;;
		*) note "$name: the command did not answer every record ($summary)"; failed=1 ;;
		esac
		rm -f "$out"
	done
done

# NDJSON in and out: the peak memory must not grow with the count.
for n in $ndjsonSmall $ndjsonLarge; do
	nd=$work/$ndjsonMesh.$n.ndjson
	fresh "$nd" || "$bin/genwork" traj "$work/$ndjsonMesh.obj" mixed "$n" 5 "$nd" || failed=1
	note "$ndjsonMesh: ballcast cast, $n trajectories NDJSON -> NDJSON (stdout)"
	: > "$stats"
	counted=$("$bin/runstat" "$stats" "$ballcast" cast -q --format ndjson "$work/$ndjsonMesh.obj" "$nd" | wc -lc)
	lines=$(echo "$counted" | awk '{ print $1 }')
	printf 'ndjson name=%s count=%s lines=%s outbytes=%s inbytes=%s %s\n' "$ndjsonMesh" "$n" "$lines" \
		"$(echo "$counted" | awk '{ print $2 }')" "$(wc -c < "$nd")" "$(cat "$stats")" >> "$results"
	[ "$lines" -eq "$n" ] || { note "ndjson: $lines lines for $n records"; failed=1; }
done
rm -f "$stats"

note "ballcast grade: 100 submissions of 10000 records"
sh tests/bench/grade_bench.sh "$ballcast" "$work/grade" >> "$results" || failed=1

note "numfmt_bench $numfmtCount"
"$bin/numfmt_bench" $numfmtCount | sed 's/^numfmt: /numfmt /' >> "$results" || failed=1
meta loadend "$(cut -d ' ' -f 1-3 /proc/loadavg)"
meta wall "$(( $(date +%s) - started ))"
meta failed "$failed"

# ---------------------------------------------------------------- report
awk -f tests/bench/report.awk "$results" > "$work/report.tmp" || failed=1
awk '/^<!-- table -->$/ { on = !on; next } on' "$work/report.tmp"
mv "$work/report.tmp" "$report"
note "report written to $report (raw results: $results)"
exit $failed
