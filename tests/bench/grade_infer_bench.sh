#!/bin/sh
# grade_infer_bench.sh - `ballcast grade` inferring the table (issue 27): a
# class of 30 files of 1000 throws each on a 20,000-triangle scan, in 20
# shapes (tests/cli/class3/make_class.py) and with 10 wrong files whose
# mistakes the diagnosis looks for, graded under --convention cs121 (make
# bench-grade-infer).
#
#   sh tests/bench/grade_infer_bench.sh BALLCAST WORKDIR
#
# Prints "grade-infer submissions=30 records=1000 triangles=20000 seconds=S
# correct=N", and exits 1 when a correct file does not score 1 or the run
# takes 10 s or more.
set -u
ballcast=${1:?ballcast}
work=${2:?work dir}
gen=tests/cli/class3/make_class.py
rm -rf "$work/class"
mkdir -p "$work" || exit 1
python3 "$gen" --bench-scene "$work" || exit 1
"$ballcast" cast -q --convention cs121 --format ndjson "$work/scan.obj" "$work/throws.json" >"$work/answers.ndjson" || exit 1
"$ballcast" cast -q --convention cs121 --format ndjson "$work/scan.obj" "$work/swapped.json" >"$work/swapped.ndjson" || exit 1
ANSWERS="$work/answers.ndjson" SWAPPED="$work/swapped.ndjson" python3 "$gen" --bench "$work" || exit 1
start=$(date +%s.%N)
"$ballcast" grade --convention cs121 --fields hit,alpha,normal,triangle --report csv "$work/scan.obj" \
	"$work/throws.json" "$work"/class/* >"$work/grades.csv" 2>/dev/null
status=$?
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
correct=$(awk -F, 'NR > 1 && $1 ~ /\/[01][0-9]-/ && $7 == 1' "$work/grades.csv" | wc -l)
echo "grade-infer submissions=30 records=1000 triangles=20000 seconds=$seconds correct=$correct"
[ "$status" -eq 1 ] || { echo "grade_infer_bench: exit status $status, expected 1" >&2; exit 1; }
[ "$correct" -eq 20 ] || { echo "grade_infer_bench: $correct of the 20 correct files score 1" >&2; exit 1; }
awk -v s="$seconds" 'BEGIN { exit !(s < 10) }' || { echo "grade_infer_bench: $seconds s, the limit is 10 s" >&2; exit 1; }
