#!/usr/bin/env bats
# --shard K/N (issue 32): task K of N answers the records that start in the
# K-th of N equal byte ranges of the input; the N outputs joined in order
# are byte-identical to one run, for every input format, NDJSON and CSV
# out, N = 1, 2, 7 and 64 (shards that hold no record included), for cast,
# closest and balls; messages keep the whole file's record numbers, lines
# and columns.

load helpers

setup() {
	common_setup
	# 200 throws at the room, a third without id, every 37th bad (p1 not an
	# array, or a CSV cell not a number), written in every input format
	awk 'BEGIN {
		srand(7)
		for (i = 0; i < 200; i++) {
			x0 = rand() * 8; y0 = rand() * 6; z0 = rand() * 3; x1 = rand() * 8; y1 = rand() * 6; z1 = rand() * 4 - 1
			r = (i % 4) * 0.1
			id = i % 3 ? sprintf("\"id\":\"t%d\",", i) : ""
			p1 = i % 37 == 5 ? "\"bad\"" : sprintf("[%.6f,%.6f,%.6f]", x1, y1, z1)
			line = sprintf("{%s\"p0\":[%.6f,%.6f,%.6f],\"p1\":%s,\"r\":%g}", id, x0, y0, z0, p1, r)
			print line > "t.ndjson"
			array = array (i ? ", " : "[") line
			csv = csv sprintf("%s,%.6f,%.6f,%.6f,%s,%g\n", i % 3 ? "t" i : "", x0, y0, z0,
				i % 37 == 5 ? "x,y,z" : sprintf("%.6f,%.6f,%.6f", x1, y1, z1), r)
			ball = ball sprintf("{\"p\":[%.6f,%.6f,%.6f],\"r\":%g}\n", x0, y0, z0, r + 0.05)
		}
		print array "]" > "t.json"
		printf "id,x0,y0,z0,x1,y1,z1,r\n%s", csv > "t.csv"
		printf "%s", ball > "balls.ndjson"
	}'
	# a pretty-printed array: elements across lines
	sed 's/, /,\n  /g' t.json >pretty.json
}

# joined COMMAND N ARGS... : the N shards of `ballcast COMMAND ARGS`, run in
# order, their stdout appended to joined.out; fails on a status other than
# 0 or 1.
joined() {
	local command="$1" n="$2"
	shift 2
	: >joined.out
	for ((k = 0; k < n; k++)); do
		"$BALLCAST" "$command" -q --shard "$k/$n" "$@" >>joined.out 2>/dev/null || [ $? -eq 1 ] || return 1
	done
}

@test "shard: cast, every input format (NDJSON, JSON array on one line and pretty-printed, CSV), NDJSON and CSV out, N = 1, 2, 7, 64: the joined shards are one run, byte for byte" {
	for input in t.ndjson t.json pretty.json t.csv; do
		for format in ndjson csv; do
			bcast cast -q -f "$format" "$ROOM" "$input"
			assert_status 1 # the bad records
			cp stdout one.out
			[ "$(wc -l <one.out)" -ge 200 ]
			for n in 1 2 7 64; do
				joined cast "$n" -f "$format" "$ROOM" "$input"
				cmp one.out joined.out || { echo "$input, $format, N=$n differs" >&2; return 1; }
			done
		done
	done
}

@test "shard: closest and balls, N = 1, 2, 7, 64: the joined shards are one run" {
	for format in ndjson csv; do
		bcast closest -q -f "$format" "$ROOM" balls.ndjson
		cp stdout one.out
		for n in 1 2 7 64; do
			joined closest "$n" -f "$format" "$ROOM" balls.ndjson
			cmp one.out joined.out
		done
		bcast balls -q -f "$format" t.ndjson
		cp stdout one.out
		grep -q '"hit":true\|,true,' one.out
		for n in 1 2 7 64; do
			joined balls "$n" -f "$format" t.ndjson
			cmp one.out joined.out
		done
	done
}

@test "shard: shards that hold no record write nothing (CSV: not even a header) and exit 0" {
	printf '{"id":"a","p0":[1,1,2],"p1":[1,1,-1],"r":0.25}\n{"id":"b","p0":[4,1,0.35],"p1":[4,-2,0.35],"r":0.3}\n' >two.ndjson
	bcast cast -f ndjson "$ROOM" two.ndjson
	cp stdout one.out
	empty=0
	: >joined.out
	for ((k = 0; k < 64; k++)); do
		bcast cast -f ndjson --shard "$k/64" "$ROOM" two.ndjson
		assert_status 0
		[ -n "$out" ] || empty=$((empty + 1))
		cat stdout >>joined.out
	done
	cmp one.out joined.out
	[ "$empty" -eq 62 ]
	bcast cast -f csv --shard 63/64 "$ROOM" two.ndjson
	assert_status 0
	assert_no_stdout
	# an empty input: every shard is empty
	: >empty.ndjson
	bcast cast -f ndjson --shard 3/7 "$ROOM" empty.ndjson
	assert_status 0
	assert_no_stdout
}

@test "shard: a bad record is reported by the shard that holds it, with the whole file's record number, line and column; id-less records keep their whole-file numbers" {
	bcast cast -f ndjson "$ROOM" t.ndjson
	grep -F 'record 6:' stderr >whole.txt
	[ -s whole.txt ]
	for ((k = 0; k < 7; k++)); do
		bcast cast -f ndjson --shard "$k/7" "$ROOM" t.ndjson
		grep -F 'record 6:' stderr || true
	done >shards.txt
	cmp whole.txt shards.txt
	# record 0 has no id: its id is 0 in every run; record 198's is 198
	bcast cast -f ndjson --shard 6/7 "$ROOM" t.ndjson
	tail -2 stdout | head -1 | grep -q '^{"id":198,'
	# the same in a one-line JSON array, where columns are large
	bcast cast -f ndjson "$ROOM" t.json
	grep -F 'record 6:' stderr >whole.txt
	grep -q 't.json:1:[0-9][0-9][0-9]: record 6:' whole.txt
	for ((k = 0; k < 7; k++)); do
		bcast cast -f ndjson --shard "$k/7" "$ROOM" t.json
		grep -F 'record 6:' stderr || true
	done >shards.txt
	cmp whole.txt shards.txt
}

@test "shard: K/N is checked (0 <= K < N, 0-based as Slurm's and HTCondor's task numbers), JSON output and standard input are refused" {
	bcast cast --shard 7/7 -f ndjson "$ROOM" t.ndjson
	assert_status 2
	echo "$err" | grep -qF -- "--shard needs K/N with 0 <= K < N (K counts from 0"
	for bad in 1 -1/2 1/0 a/2 1/2x; do
		bcast cast --shard "$bad" -f ndjson "$ROOM" t.ndjson
		assert_status 2
	done
	bcast cast --shard 0/2 "$ROOM" t.ndjson
	assert_status 2
	echo "$err" | grep -qF -- "--shard writes NDJSON or CSV"
	bcast cast --shard 0/2 -o out.json "$ROOM" t.ndjson
	assert_status 2
	run bash -c "cat t.ndjson | '$BALLCAST' cast --shard 0/2 -f ndjson '$ROOM' -"
	[ "$status" -eq 2 ]
	[ "$output" = "ballcast: <stdin>: --shard needs a file to cut into byte ranges, not a pipe or a terminal" ]
	# standard input redirected from a file has a size: it can be cut
	bcast cast --shard 0/2 -f ndjson "$ROOM" - <t.ndjson
	assert_status 1
}
