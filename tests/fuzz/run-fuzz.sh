#!/bin/sh
# Replay the regression inputs, then fuzz each target for SECONDS, and print
# per target: executions, corpus size, crashes. Exit status 1 when a
# regression input fails or fuzzing found a crash, leak, timeout or OOM.
#   tests/fuzz/run-fuzz.sh FUZZDIR SECONDS TARGET...
# FUZZDIR holds the built targets; the corpus grows in FUZZDIR/work/TARGET
# (seeded from tests/fuzz/corpus/TARGET) and crash files go to
# FUZZDIR/artifacts/TARGET/.
set -u
dir="$1"
seconds="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"

# libFuzzer: give up on one input after PER_INPUT_TIMEOUT seconds (a hang)
# or beyond RSS_LIMIT_MB megabytes (the readers' memory is bounded by the
# largest record, 16 MiB, far below).
PER_INPUT_TIMEOUT=10
RSS_LIMIT_MB=2048

failed=0
summary=""
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
	repeatable=""
	[ -n "${FUZZ_RUNS:-}" ] && repeatable="-runs=$FUZZ_RUNS -seed=${FUZZ_SEED:-1}"
	# shellcheck disable=SC2086
	"$bin" $repeatable -max_total_time="$seconds" -print_final_stats=1 -timeout="$PER_INPUT_TIMEOUT" \
		-rss_limit_mb="$RSS_LIMIT_MB" -artifact_prefix="$artifacts/" $dict \
		"$work" "$here/corpus/$target" >"$log" 2>&1
	status=$?
	elapsed=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	# the corpus libFuzzer holds at the end (seeds and new inputs, minimised)
	corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -n 1 | sed 's/corp: //')
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
		grep -v '^#[0-9]\|^INFO:\|^MS:\|^base unit:' "$log" | tail -n 60
	fi
done
printf '%s' "$summary"
exit "$failed"
