#!/bin/sh
# Replay the regression inputs, then fuzz each target for SECONDS, and print
# per target: executions, corpus size, crashes; at the end the total over
# the targets. Exit status 1 when a regression input fails or fuzzing found
# a crash, leak, timeout or OOM.
#   [FUZZ_JOBS=N] tests/fuzz/run-fuzz.sh FUZZDIR SECONDS TARGET...
# FUZZ_RUNS (with FUZZ_SEED) runs each target for that many inputs instead
# (FUZZ_RUNS_<target>: one target's own). FUZZDIR holds the built targets;
# the corpus grows in FUZZDIR/work/TARGET (seeded from
# tests/fuzz/corpus/TARGET) and crash files go to
# FUZZDIR/artifacts/TARGET/. FUZZ_JOBS (default 1) fuzzes each target in
# that many processes at once (libFuzzer's -jobs=N -workers=N, sharing the
# corpus), each for SECONDS; their logs are FUZZDIR/jobs/TARGET/fuzz-K.log
# and the executions printed are their sum.
set -u
dir="$(cd "$1" && pwd)"
seconds="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
jobs="${FUZZ_JOBS:-1}"
case "$jobs" in '' | *[!0-9]* | 0) echo "run-fuzz.sh: FUZZ_JOBS must be a whole number >= 1, not '$jobs'" >&2; exit 2 ;; esac

# libFuzzer: give up on one input after PER_INPUT_TIMEOUT seconds (a hang)
# or beyond RSS_LIMIT_MB megabytes (the readers' memory is bounded by the
# largest record, 16 MiB, far below).
PER_INPUT_TIMEOUT=10
RSS_LIMIT_MB=2048

failed=0
summary=""
totalRuns=0
totalCrashes=0
totalRegressions=0
for target in "$@"; do
	bin="$dir/$target"
	work="$dir/work/$target"
	artifacts="$dir/artifacts/$target"
	log="$dir/$target.log"
	mkdir -p "$work" "$artifacts"
	rm -f "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-* "$artifacts"/slow-unit-*

	# Inputs that once failed: each must now pass. Those under extreme/ are
	# fuzz_query inputs of its extreme mode (BC_FUZZ_EXTREME=1).
	replayed=0
	replayFailed=0
	regressions="$here/regressions/$target"
	for f in "$regressions"/* "$regressions"/extreme/*; do
		[ -f "$f" ] || continue
		case "$f" in *.md | *.txt) continue ;; esac
		case "$f" in */extreme/*) extreme=1 ;; *) extreme=0 ;; esac
		replayed=$((replayed + 1))
		if ! BC_FUZZ_EXTREME=$extreme "$bin" -timeout="$PER_INPUT_TIMEOUT" -rss_limit_mb="$RSS_LIMIT_MB" "$f" \
			>"$log.replay" 2>&1; then
			echo "$target: regression input FAILS: ${f#"$here"/}"
			grep -A1 'property failed\|ERROR: AddressSanitizer\|runtime error\|ERROR: libFuzzer: \(timeout\|out-of-memory\)' \
				"$log.replay" | grep -v '^--$' | head -n 4 | sed 's/^/  /'
			replayFailed=$((replayFailed + 1))
			failed=1
		fi
	done

	dict=""
	[ -f "$here/$target.dict" ] && dict="-dict=$here/$target.dict"
	start=$(date +%s)
	# shellcheck disable=SC2086
	# FUZZ_RUNS (with FUZZ_SEED) makes a run reproducible: the same inputs in
	# the same order on any machine, so CI is red only for a real finding that
	# the same command shows anywhere.
	# FUZZ_RUNS_<target> sets one target's own count (fuzz_limits makes
	# inputs of up to 1 MiB: a few dozen a second).
	repeatable=""
	eval "targetRuns=\${FUZZ_RUNS_$target:-\${FUZZ_RUNS:-}}"
	[ -n "$targetRuns" ] && repeatable="-runs=$targetRuns -seed=${FUZZ_SEED:-1}"
	if [ "$jobs" -eq 1 ]; then
		# shellcheck disable=SC2086
		"$bin" $repeatable -max_total_time="$seconds" -print_final_stats=1 -timeout="$PER_INPUT_TIMEOUT" \
			-rss_limit_mb="$RSS_LIMIT_MB" -artifact_prefix="$artifacts/" $dict \
			"$work" "$here/corpus/$target" >"$log" 2>&1
		status=$?
		logs="$log"
	else
		# libFuzzer writes job K's output to fuzz-K.log in the current
		# directory: one directory per target.
		jobLogs="$dir/jobs/$target"
		mkdir -p "$jobLogs"
		rm -f "$jobLogs"/fuzz-*.log
		# shellcheck disable=SC2086
		(cd "$jobLogs" && "$bin" -jobs="$jobs" -workers="$jobs" $repeatable -max_total_time="$seconds" \
			-print_final_stats=1 -timeout="$PER_INPUT_TIMEOUT" -rss_limit_mb="$RSS_LIMIT_MB" \
			-artifact_prefix="$artifacts/" $dict "$work" "$here/corpus/$target") >"$log" 2>&1
		status=$?
		logs="$jobLogs/fuzz-*.log"
	fi
	elapsed=$(($(date +%s) - start))
	# shellcheck disable=SC2086
	runs=$(cat $logs 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' |
		awk '{ n += $1; k++ } END { if (k > 0) print n }')
	# the corpus libFuzzer holds at the end (seeds and new inputs, minimised;
	# the largest of the jobs')
	# shellcheck disable=SC2086
	corpus=$(for f in $logs; do grep -o 'corp: [0-9]*' "$f" | tail -n 1 | sed 's/corp: //'; done |
		sort -n | tail -n 1)
	totalRuns=$((totalRuns + ${runs:-0}))
	crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
		wc -l)
	line="$target: ${runs:-?} executions in ${elapsed} s, corpus ${corpus:-?} inputs, $crashes crashes; regressions: $replayed replayed, $replayFailed failing"
	echo "$line"
	summary="$summary$line
"
	if [ "$crashes" -ne 0 ] || [ "$status" -ne 0 ]; then
		failed=1
		echo "$target: fuzzing stopped (exit $status); the input and the report:"
		find "$artifacts" -type f | sed 's/^/  /'
		# shellcheck disable=SC2086
		grep -h -v '^#[0-9]\|^INFO:\|^MS:\|^base unit:' $logs | tail -n 60
	fi
	totalCrashes=$((totalCrashes + crashes))
	totalRegressions=$((totalRegressions + replayFailed))
done
printf '%s' "$summary"
echo "total: $totalRuns executions across $# targets ($jobs jobs each, $seconds s), $totalCrashes crashes, $totalRegressions failing regression inputs; $(date -u '+%Y-%m-%d %H:%M UTC')"
exit "$failed"
