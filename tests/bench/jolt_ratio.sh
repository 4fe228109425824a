#!/bin/sh
# jolt_ratio.sh - ballcast against native Jolt (and Embree for rays), one
# thread, on the shared workloads of issue 31, in one command:
#
#   sh tests/bench/jolt_ratio.sh [--rounds N] [--reps N] [--build DIR] [--work DIR]
#                                [--jolt PATH] [--gen PATH] [--bunny PATH] [--sets LIST]
#                                [--e2e N]
#
# The sets are made by the shared generator (--gen, default
# ../shared/peers/gen.py) into --work (default tests/bench/work/jolt-ratio),
# once: the icosphere of subdivision 8 (1.3 M triangles) with 100 k short,
# 100 k long and 100 k ray trajectories, the Stanford bunny (--bunny,
# default ../shared/meshes/stanford-bunny.obj) with 20 k short and 20 k long.
# --jolt is native Jolt's harness (../shared/peers/jolt/build.sh builds
# it; default $JOLT_SWEEP, else ../peers/jolt-build/jolt_sweep); without it
# only ballcast's rates are printed. Embree's column needs the harness
# make bench-peers builds (build/bench/embree_rays, libembree-dev).
#
# Each set is measured in --rounds rounds (default 5), ballcast and its peer
# alternated within a round, each run timing --reps passes over the whole
# set (default 5) and keeping the median pass:
#  - ballcast: tests/bench/query_bench, bcMesh_CastBatch on one thread
#    (space order, as `ballcast cast` casts), wall and thread-CPU seconds;
#  - Jolt: its harness's own median wall time of the query loop, and its
#    CPU time per pass from two runs, --reps 1 and --reps M+1, timed by
#    /usr/bin/time (the difference over M: loading and building cancel; M
#    is N on the icosphere, 4 N on the bunny, whose passes are short);
#  - Embree: rtcIntersect1 against ballcast's two-sided rays (Embree has
#    no front side), both in thread-CPU seconds.
# Printed per set: the medians over rounds of each rate and of the round
# by round ratios (wall and CPU), and the rounds' ratios. Then, unless
# --e2e 0, the issue's end-to-end line: `ballcast cast -q -j 2` on 1 M
# short trajectories of the icosphere (made once by the generator), JSON in
# and out, --e2e runs (default 3) timed by /usr/bin/time: median wall,
# user + system seconds, peak memory. The load average
# is printed before and after: on a shared machine wall-clock ratios carry
# the other processes' noise, CPU ratios less so. Build first:
# make bench-tools bench-peers (or make build/bench/query_bench).
set -eu

rounds=5
reps=5
build=build
work=tests/bench/work/jolt-ratio
jolt=${JOLT_SWEEP:-../peers/jolt-build/jolt_sweep}
gen=../shared/peers/gen.py
bunny=../shared/meshes/stanford-bunny.obj
sets="ico8_short ico8_long bunny_short bunny_long ico8_ray"
e2e=3
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--jolt) jolt=$2; shift 2 ;;
	--gen) gen=$2; shift 2 ;;
	--bunny) bunny=$2; shift 2 ;;
	--sets) sets=$2; shift 2 ;;
	--e2e) e2e=$2; shift 2 ;;
	*) echo "usage: sh tests/bench/jolt_ratio.sh [--rounds N] [--reps N] [--build DIR] [--work DIR] [--jolt PATH] [--gen PATH] [--bunny PATH] [--sets LIST] [--e2e N]" >&2; exit 2 ;;
	esac
done

bench=$build/bench/query_bench
embree=$build/bench/embree_rays
[ -x "$bench" ] || { echo "jolt_ratio: $bench missing: make $bench" >&2; exit 1; }
[ -x "$jolt" ] || { echo "jolt_ratio: no Jolt harness at $jolt (../shared/peers/jolt/build.sh builds it): ballcast alone" >&2; jolt=""; }
[ -x "$embree" ] || embree=""
mkdir -p "$work"

# The workloads, made once.
if [ ! -f "$work/ico8.obj" ]; then
	python3 "$gen" mesh icosphere --subdiv 8 -o "$work/ico8.obj"
fi
for kind in short long ray; do
	[ -f "$work/ico8_$kind.txt" ] || python3 "$gen" queries --mesh "$work/ico8.obj" --kind $kind --n 100000 -o "$work/ico8_$kind"
done
for kind in short long; do
	[ -f "$work/bunny_$kind.txt" ] || python3 "$gen" queries --mesh "$bunny" --kind $kind --n 20000 -o "$work/bunny_$kind"
done

field() { # field NAME JSONLINE: a number of a one-line JSON object
	printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p"
}
cpuOf() { # cpuOf COMMAND...: user + system seconds of one run
	/usr/bin/time -f '%U %S' -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt"
	awk '{ printf "%.3f\n", $1 + $2 }' "$work/time.txt"
}
median() { # median of the numbers on standard input
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "jolt_ratio: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); rounds $rounds, passes $reps"
echo "ballcast $(git rev-parse --short HEAD 2>/dev/null || echo '?'); jolt ${jolt:-n/a}; embree ${embree:-n/a}"
printf '%-12s %11s %11s %11s %11s %9s %9s  %s\n' set "bc q/s" "bc cpu q/s" "peer q/s" "peer cpu" "wall x" "cpu x" "rounds (cpu x)"
for set in $sets; do
	case $set in
	ico8_*) mesh=$work/ico8.obj ;;
	bunny_*) mesh=$bunny ;;
	*) echo "jolt_ratio: unknown set $set" >&2; exit 2 ;;
	esac
	traj=$work/$set
	: > "$work/rows.txt"
	ray=false
	case $set in *_ray) ray=true ;; esac
	if $ray && [ -n "$embree" ] && [ ! -f "$traj.ans" ]; then
		"$bench" "$mesh" "$traj.txt" --reps 1 --two-sided --save-traj "$traj.traj" --save-answers "$traj.ans" 2> /dev/null
	fi
	r=1
	while [ "$r" -le "$rounds" ]; do
		if $ray; then
			line=$("$bench" "$mesh" "$traj.txt" --reps "$reps" --two-sided 2>&1 | grep '"tool"')
		else
			line=$("$bench" "$mesh" "$traj.txt" --reps "$reps" 2>&1 | grep '"tool"')
		fi
		bq=$(field qps "$line")
		bc=$(field cpu_qps "$line")
		pq=n/a
		pc=n/a
		if $ray && [ -n "$embree" ]; then
			out=$("$embree" ico8 ray "$mesh" "$traj.traj" "$traj.ans" "$reps")
			pq=$(printf '%s\n' "$out" | sed -n 's/.* qps=\([^ ]*\).*/\1/p')
			pc=$(printf '%s\n' "$out" | sed -n 's/.* cpuqps=\([^ ]*\).*/\1/p')
		elif ! $ray && [ -n "$jolt" ]; then
			m=$reps
			case $set in bunny_*) m=$((4 * reps)) ;; esac
			one=$(cpuOf "$jolt" "$mesh" "$traj.json" --reps 1)
			many=$(cpuOf "$jolt" "$mesh" "$traj.json" --reps $((m + 1)))
			jline=$(grep '"qps"' "$work/stderr.txt" | tail -n 1)
			pq=$(field qps "$jline")
			count=$(field queries "$jline")
			pc=$(awk -v a="$one" -v b="$many" -v n="$m" -v c="$count" 'BEGIN { s = (b - a) / n; if (s > 0) printf "%.1f\n", c / s; else print "n/a" }')
		fi
		echo "$bq $bc $pq $pc" >> "$work/rows.txt"
		r=$((r + 1))
	done
	mbq=$(awk '{ print $1 }' "$work/rows.txt" | median)
	mbc=$(awk '{ print $2 }' "$work/rows.txt" | median)
	mpq=$(awk '$3 != "n/a" { print $3 }' "$work/rows.txt" | median)
	mpc=$(awk '$4 != "n/a" { print $4 }' "$work/rows.txt" | median)
	wx=$(awk '$3 != "n/a" && $3 > 0 { printf "%.3f\n", $1 / $3 }' "$work/rows.txt" | median)
	cx=$(awk '$4 != "n/a" && $4 > 0 { printf "%.3f\n", $2 / $4 }' "$work/rows.txt" | median)
	each=$(awk '$4 != "n/a" && $4 > 0 { printf "%s%.2f", (n++ ? " " : ""), $2 / $4 }' "$work/rows.txt")
	printf '%-12s %11.0f %11.0f %11s %11s %9s %9s  %s\n' "$set" "$mbq" "$mbc" "$mpq" "$mpc" "$wx" "$cx" "$each"
done
if [ "$e2e" -gt 0 ]; then
	[ -f "$work/ico8_short1m.json" ] ||
		python3 "$gen" queries --mesh "$work/ico8.obj" --kind short --n 1000000 -o "$work/ico8_short1m"
	: > "$work/e2e.txt"
	r=1
	while [ "$r" -le "$e2e" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$build/ballcast" cast -q -j 2 "$work/ico8.obj" \
			"$work/ico8_short1m.json" -o "$work/e2e.json"
		cat "$work/time.txt" >> "$work/e2e.txt"
		r=$((r + 1))
	done
	wall=$(awk '{ print $1 }' "$work/e2e.txt" | median)
	cpu=$(awk '{ printf "%.2f\n", $2 + $3 }' "$work/e2e.txt" | median)
	peak=$(awk '{ print $4 }' "$work/e2e.txt" | median)
	echo "end to end, 1 M short trajectories, JSON in and out, -j 2: median wall $wall s, CPU $cpu s, peak $((peak / 1024)) MiB (walls: $(awk '{ printf "%s ", $1 }' "$work/e2e.txt"))"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
