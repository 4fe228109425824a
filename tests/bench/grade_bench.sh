#!/bin/sh
# grade_bench.sh - `ballcast grade` on a class of 100 submissions of 10,000
# records each (make bench, make bench-grade): the expected answers cast
# once, then every file read, graded and, where it fails, diagnosed.
#
#   sh tests/bench/grade_bench.sh BALLCAST WORKDIR
#
# The submissions are cast's own answers in the three formats, a fifth of
# them with one record in fifty wrong (alpha moved), so that the mistakes
# are looked for too. Prints one line, "grade submissions=100 records=10000
# seconds=S failing=N", and exits 1 when the grades are not what the files
# are, or the run takes 10 s or more.
set -u
ballcast=${1:?ballcast}
work=${2:?work dir}
mesh=samples/room.obj
mkdir -p "$work/class" || exit 1
throws=$work/throws.json
awk 'BEGIN {
	srand(15)
	print "["
	for (i = 0; i < 10000; i++)
		printf "%s{\"id\":%d,\"p0\":[%.6f,%.6f,%.6f],\"p1\":[%.6f,%.6f,%.6f],\"r\":%.4f}\n", (i ? "," : ""), i,
			rand() * 10 - 1, rand() * 8 - 1, rand() * 4 - 0.5, rand() * 10 - 1, rand() * 8 - 1, rand() * 4 - 0.5,
			0.05 + rand() * 0.5
	print "]"
}' >"$throws"
for f in json ndjson csv; do
	"$ballcast" cast -q --format $f "$mesh" "$throws" >"$work/answers.$f" || exit 1
done
i=0
while [ $i -lt 100 ]; do
	case $((i % 3)) in 0) f=json ;; 1) f=ndjson ;; *) f=csv ;; esac
	if [ $((i % 5)) -eq 4 ]; then
		# one record in fifty: alpha moved by 0.01
		if [ $f = csv ]; then
			awk -F, -v OFS=, 'NR > 1 && NR % 50 == 0 && $2 == "true" { $3 = $3 + 0.01 } { print }' \
				"$work/answers.$f" >"$work/class/s$i.$f"
		else
			awk '/"hit":true,"alpha":/ && ++n % 50 == 0 {
				match($0, /"alpha":[^,]*/); a = substr($0, RSTART + 8, RLENGTH - 8) + 0.01
				$0 = substr($0, 1, RSTART + 7) a substr($0, RSTART + RLENGTH) } { print }' \
				"$work/answers.$f" >"$work/class/s$i.$f"
		fi
	else
		cp "$work/answers.$f" "$work/class/s$i.$f"
	fi
	i=$((i + 1))
done
start=$(date +%s.%N)
"$ballcast" grade -q "$mesh" "$throws" "$work"/class/* --report csv >/dev/null 2>&1
"$ballcast" grade "$mesh" "$throws" "$work"/class/* --report csv >"$work/grades.csv"
status=$?
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 2 }')
failing=$(awk -F, 'NR > 1 && $7 != 1' "$work/grades.csv" | wc -l)
echo "grade submissions=100 records=10000 seconds=$seconds failing=$failing"
[ "$status" -eq 1 ] || { echo "grade_bench: exit status $status, expected 1" >&2; exit 1; }
[ "$failing" -eq 20 ] || { echo "grade_bench: $failing files fail, expected 20" >&2; exit 1; }
awk -v s="$seconds" 'BEGIN { exit !(s < 10) }' || { echo "grade_bench: $seconds s, the limit is 10 s" >&2; exit 1; }
