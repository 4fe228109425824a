#!/usr/bin/env bats
# `ballcast balls`: moving balls against each other. Hand-computed answers
# in every output format, ids echoed for the partner, overlaps, ties, masses,
# input formats, the all-pairs path, and the failures (exit 2 with nothing
# on stdout, bad records answered in place with exit 1, usage errors).

load helpers

setup() {
	common_setup
}

JSON_HEADER='{"ballcast":"'"$VERSION"'","settings":{"tie_tolerance":1e-10},'

CSV_HEADER='id,hit,alpha,other,initial_overlap,point_x,point_y,point_z,normal_x,normal_y,normal_z,velocity_before_x,velocity_before_y,velocity_before_z,velocity_after_x,velocity_after_y,velocity_after_z,error'

# The hand-computed set (r = 0.5 each):
#  - "cue" runs from x = 0 to 4 into 7.50 (mass 3, at rest at x = 3):
#    |3 - 4 alpha| = 1 at alpha 0.5, centres 2 and 3, contact point 2.5.
#    Seed 002 (8) with a = 1, b = 3, s = 4, t = 0: s' = 4 + 2*3*(0-4)/4 = -2
#    and t' = 0 + 2*1*(4-0)/4 = 2.
#  - "fast" runs from x = 10 to 2: it meets cue (|10 - 12 alpha| = 1) and
#    7.50 (|7 - 8 alpha| = 1) both at alpha 0.75, a tie that goes to the
#    lower record, cue; centres 4 and 3, point 3.5; equal masses exchange
#    normal components: -8 becomes cue's 4.
#  - the fourth (no id: its record number 3) never comes near anyone.
write_set_json() {
	cat >"${1:-s.json}" <<'EOF'
[
  {"id": "cue", "p0": [0, 0, 0], "p1": [4, 0, 0], "r": 0.5},
  {"id": 7.50, "p0": [3, 0, 0], "p1": [3, 0, 0], "r": 0.5, "mass": 3},
  {"id": "fast", "p0": [10, 0, 0], "p1": [2, 0, 0], "r": 0.5},
  {"p0": [0, 10, 0], "p1": [0, 11, 0], "r": 0.5}
]
EOF
}

set_ndjson_expected() {
	cat <<'EOF'
{"id":"cue","hit":true,"alpha":0.5,"other":7.50,"initial_overlap":false,"point":[2.5,0,0],"normal":[1,0,0],"velocity_before":[4,0,0],"velocity_after":[-2,0,0]}
{"id":7.50,"hit":true,"alpha":0.5,"other":"cue","initial_overlap":false,"point":[2.5,0,0],"normal":[-1,0,0],"velocity_before":[0,0,0],"velocity_after":[2,0,0]}
{"id":"fast","hit":true,"alpha":0.75,"other":"cue","initial_overlap":false,"point":[3.5,0,0],"normal":[-1,0,0],"velocity_before":[-8,0,0],"velocity_after":[4,0,0]}
{"id":3,"hit":false,"alpha":1}
EOF
}

# expect_usage ARGS... : exit 2, nothing on stdout, the complaint then the
# usage line on stderr.
expect_usage() {
	bcast "$@"
	assert_status 2
	assert_no_stdout
	[ "$(wc -l <stderr)" -eq 2 ] || { echo "stderr: $err"; return 1; }
	[ "$(sed -n 2p stderr)" = 'usage: ballcast balls [OPTIONS] [TRAJECTORIES]   (ballcast balls --help)' ] ||
		{ echo "stderr: $err"; return 1; }
}

# gen_balls N SEED : N pseudo-random balls in a 12-unit cube moving up to 1.5
# each way, as NDJSON (awk's srand/rand: deterministic for a given awk).
gen_balls() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			x = rand() * 12; y = rand() * 12; z = rand() * 12
			printf "{\"id\":%d,\"p0\":[%.6f,%.6f,%.6f],\"p1\":[%.6f,%.6f,%.6f],\"r\":%.4f,\"mass\":%.3f}\n", \
				i, x, y, z, x + rand() * 3 - 1.5, y + rand() * 3 - 1.5, z + rand() * 3 - 1.5, \
				rand() * 0.5, 0.1 + rand() * 10
		}
	}'
}

# ------------------------------------------------------------ output formats

@test "balls json: header, one hand-computed result per line, summary" {
	write_set_json s.json
	bcast balls s.json
	assert_status 0
	assert_no_stderr
	{
		echo "$JSON_HEADER"
		echo '"results":['
		set_ndjson_expected | sed '$!s/$/,/'
		echo '],'
		echo '"summary":{"records":4,"hits":3,"errors":0}}'
	} | assert_stdout_eq
}

@test "balls ndjson: the same objects, one per line, nothing else" {
	write_set_json s.json
	bcast balls --format ndjson s.json
	assert_status 0
	assert_no_stderr
	set_ndjson_expected | assert_stdout_eq
}

@test "balls csv: header and hand-computed rows, every row as wide as the header" {
	write_set_json s.json
	bcast balls -f csv s.json
	assert_status 0
	assert_no_stderr
	{
		echo "$CSV_HEADER"
		echo 'cue,true,0.5,7.50,false,2.5,0,0,1,0,0,4,0,0,-2,0,0,'
		echo '7.50,true,0.5,cue,false,2.5,0,0,-1,0,0,0,0,0,2,0,0,'
		echo 'fast,true,0.75,cue,false,3.5,0,0,-1,0,0,-8,0,0,4,0,0,'
		echo '3,false,1,,,,,,,,,,,,,,,'
	} | assert_stdout_eq
	[ "$(csv_columns stdout | sort -u)" = 18 ]
}

@test "balls: an empty input gives no results and a zero summary" {
	echo '[]' >empty.json
	bcast balls empty.json
	assert_status 0
	{
		echo "$JSON_HEADER"
		echo '"results":[],'
		echo '"summary":{"records":0,"hits":0,"errors":0}}'
	} | assert_stdout_eq
	bcast balls -f csv empty.json
	assert_status 0
	echo "$CSV_HEADER" | assert_stdout_eq
}

@test "balls: empty input is an empty batch: every input format, standard input and a pipe; exit 0 (issue 22)" {
	expect_empty_batch "$JSON_HEADER"'
"results":[],
"summary":{"records":0,"hits":0,"errors":0}}' "$CSV_HEADER" balls
}

@test "balls: a lone ball meets nothing" {
	echo '{"id":"solo","p0":[0,0,0],"p1":[5,5,5],"r":3}' >one.ndjson
	bcast balls -f ndjson one.ndjson
	assert_status 0
	echo '{"id":"solo","hit":false,"alpha":1}' | assert_stdout_eq
}

# ------------------------------------------------------------ the geometry

@test "balls: head-on equal balls meet at the hand-computed alpha and exchange velocities" {
	# Centres 4 apart closing at 4 per unit alpha, r1 + r2 = 1: |4 - 4 alpha| = 1.
	cat >h.ndjson <<'EOF'
{"id":"L","p0":[0,1,0],"p1":[2,1,0],"r":0.5}
{"id":"R","p0":[4,1,0],"p1":[2,1,0],"r":0.5}
EOF
	bcast balls -f ndjson h.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"L","hit":true,"alpha":0.75,"other":"R","initial_overlap":false,"point":[2,1,0],"normal":[1,0,0],"velocity_before":[2,0,0],"velocity_after":[-2,0,0]}
{"id":"R","hit":true,"alpha":0.75,"other":"L","initial_overlap":false,"point":[2,1,0],"normal":[-1,0,0],"velocity_before":[-2,0,0],"velocity_after":[2,0,0]}
EOF
}

@test "balls: a grazing pass touches at the closest approach; a hair wider misses" {
	# Ball B passes 2 = r1 + r2 above A's centre: they touch at alpha 0.5,
	# the normal is +y, and nothing changes along it (B moves along x).
	cat >g.ndjson <<'EOF'
{"id":"A","p0":[0,0,0],"p1":[0,0,0],"r":1}
{"id":"B","p0":[10,2,0],"p1":[-10,2,0],"r":1}
EOF
	bcast balls -f ndjson g.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"A","hit":true,"alpha":0.5,"other":"B","initial_overlap":false,"point":[0,1,0],"normal":[0,1,0],"velocity_before":[0,0,0],"velocity_after":[0,0,0]}
{"id":"B","hit":true,"alpha":0.5,"other":"A","initial_overlap":false,"point":[0,1,0],"normal":[0,-1,0],"velocity_before":[-20,0,0],"velocity_after":[-20,0,0]}
EOF
	sed 's/10,2,0\],"p1":\[-10,2,0/10,2.000000000000001,0],"p1":[-10,2.000000000000001,0/' g.ndjson >g2.ndjson
	bcast balls -f ndjson g2.ndjson
	assert_status 0
	printf '%s\n' '{"id":"A","hit":false,"alpha":1}' '{"id":"B","hit":false,"alpha":1}' | assert_stdout_eq
}

@test "balls: parallel balls at the same velocity never meet, touching or not" {
	cat >p.ndjson <<'EOF'
{"id":1,"p0":[0,0,0],"p1":[3,4,0],"r":0.5}
{"id":2,"p0":[1,0,0],"p1":[4,4,0],"r":0.5}
{"id":3,"p0":[0,5,0],"p1":[3,9,0],"r":0.5}
EOF
	bcast balls -f ndjson p.ndjson
	assert_status 0
	printf '%s\n' '{"id":1,"hit":false,"alpha":1}' '{"id":2,"hit":false,"alpha":1}' '{"id":3,"hit":false,"alpha":1}' |
		assert_stdout_eq
}

@test "balls: overlapping at the start is a hit at 0; separating balls keep their velocities" {
	cat >ov.json <<'EOF'
[{"id":"a","p0":[0,0,0],"p1":[0,0,0],"r":1},
 {"id":"b","p0":[1.5,0,0],"p1":[3.5,0,0],"r":1}]
EOF
	bcast balls -f ndjson ov.json
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":true,"alpha":0,"other":"b","initial_overlap":true,"point":[1,0,0],"normal":[1,0,0],"velocity_before":[0,0,0],"velocity_after":[0,0,0]}
{"id":"b","hit":true,"alpha":0,"other":"a","initial_overlap":true,"point":[0.5,0,0],"normal":[-1,0,0],"velocity_before":[2,0,0],"velocity_after":[2,0,0]}
EOF
}

@test "balls: an overlap at the start is one whatever the motion, even 1e200 times the radii" {
	# r1 + r2 = 2: b starts on a (0 apart) or 0.5 from it, and heads to
	# x = 1e200 or -1e200. Each pair overlaps at alpha 0 (both were a miss,
	# or for -1e200 a plain hit at 0). The normal is from a towards b, or
	# where b heads when the centres coincide; a gets b's 1e200 only when b
	# comes towards it (equal masses exchange normal components).
	cat >big.ndjson <<'EOF'
{"id":"a","p0":[0,0,0],"p1":[0,0,0],"r":1}
{"id":"b","p0":[0,0,0],"p1":[1e200,0,0],"r":1}
EOF
	bcast balls -f ndjson big.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":true,"alpha":0,"other":"b","initial_overlap":true,"point":[1,0,0],"normal":[1,0,0],"velocity_before":[0,0,0],"velocity_after":[0,0,0]}
{"id":"b","hit":true,"alpha":0,"other":"a","initial_overlap":true,"point":[-1,0,0],"normal":[-1,0,0],"velocity_before":[1e+200,0,0],"velocity_after":[1e+200,0,0]}
EOF
	sed 's/"p0":\[0,0,0\],"p1":\[1e200/"p0":[0.5,0,0],"p1":[1e200/' big.ndjson >away.ndjson
	bcast balls -f ndjson away.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":true,"alpha":0,"other":"b","initial_overlap":true,"point":[1,0,0],"normal":[1,0,0],"velocity_before":[0,0,0],"velocity_after":[0,0,0]}
{"id":"b","hit":true,"alpha":0,"other":"a","initial_overlap":true,"point":[-0.5,0,0],"normal":[-1,0,0],"velocity_before":[1e+200,0,0],"velocity_after":[1e+200,0,0]}
EOF
	sed 's/1e200/-1e200/' away.ndjson >towards.ndjson
	bcast balls -f ndjson towards.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":true,"alpha":0,"other":"b","initial_overlap":true,"point":[1,0,0],"normal":[1,0,0],"velocity_before":[0,0,0],"velocity_after":[-1e+200,0,0]}
{"id":"b","hit":true,"alpha":0,"other":"a","initial_overlap":true,"point":[-0.5,0,0],"normal":[-1,0,0],"velocity_before":[-1e+200,0,0],"velocity_after":[0,0,0]}
EOF
}

@test "balls: 3 apart closing at 2^600, r1 + r2 = 2, they meet at alpha 2^-600" {
	# p1 = 3 - 2^600 rounds to -2^600 = p1 - p0 rounded (velocity_before):
	# |3 - 2^600 alpha| = 2 at alpha = 2^-600 exactly (it was 0).
	cat >fast.ndjson <<'EOF'
{"id":"a","p0":[0,0,0],"p1":[0,0,0],"r":1}
{"id":"b","p0":[3,0,0],"p1":[-4.149515568880993e+180,0,0],"r":1}
EOF
	bcast balls -f ndjson fast.ndjson
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":true,"alpha":2.409919865102884e-181,"other":"b","initial_overlap":false,"point":[1,0,0],"normal":[1,0,0],"velocity_before":[0,0,0],"velocity_after":[-4.149515568880993e+180,0,0]}
{"id":"b","hit":true,"alpha":2.409919865102884e-181,"other":"a","initial_overlap":false,"point":[1,0,0],"normal":[-1,0,0],"velocity_before":[-4.149515568880993e+180,0,0],"velocity_after":[0,0,0]}
EOF
}

@test "balls: touching at the start counts only when moving in" {
	# 1 apart with r1 + r2 = 1: "in" approaches (a hit at 0), "out" separates.
	cat >t.ndjson <<'EOF'
{"id":"still","p0":[0,0,0],"p1":[0,0,0],"r":0.5}
{"id":"out","p0":[0,1,0],"p1":[0,2,0],"r":0.5}
EOF
	bcast balls -f ndjson t.ndjson
	assert_status 0
	printf '%s\n' '{"id":"still","hit":false,"alpha":1}' '{"id":"out","hit":false,"alpha":1}' | assert_stdout_eq
	echo '{"id":"in","p0":[-1,0,0],"p1":[-0.5,0,0],"r":0.5}' >>t.ndjson
	bcast balls -f ndjson t.ndjson
	assert_status 0
	assert_line 1 '{"id":"still","hit":true,"alpha":0,"other":"in","initial_overlap":false,"point":[-0.5,0,0],"normal":[-1,0,0],"velocity_before":[0,0,0],"velocity_after":[0.5,0,0]}'
	assert_line 3 '{"id":"in","hit":true,"alpha":0,"other":"still","initial_overlap":false,"point":[-0.5,0,0],"normal":[1,0,0],"velocity_before":[0.5,0,0],"velocity_after":[0,0,0]}'
}

@test "balls: the earliest partner wins over a lower record number" {
	# "near" (record 2) meets "me" at 0.25, "far" (record 1) only at 0.5. "far"
	# also meets "near" at 0.5 (8 alpha^2 - 10 alpha + 3 = 0): a tie, to "me".
	cat >e.ndjson <<'EOF'
{"id":"me","p0":[0,0,0],"p1":[0,0,0],"r":0.5}
{"id":"far","p0":[0,3,0],"p1":[0,-1,0],"r":0.5}
{"id":"near","p0":[2,0,0],"p1":[-2,0,0],"r":0.5}
EOF
	bcast balls -f csv e.ndjson
	assert_status 0
	[ "$(csv_cell stdout 2 3)" = 0.25 ]
	[ "$(csv_cell stdout 2 4)" = near ]
	[ "$(csv_cell stdout 3 3)" = 0.5 ]
	[ "$(csv_cell stdout 3 4)" = me ]
	[ "$(csv_cell stdout 4 4)" = me ]
}

@test "balls: mass defaults to 1; a heavy ball barely moves" {
	# Masses 1 and 1e3 head-on (s = 4, t = 0): s' = 4 - 8000/1001, t' = 8/1001.
	cat >m.ndjson <<'EOF'
{"id":"light","p0":[0,0,0],"p1":[4,0,0],"r":0.5}
{"id":"heavy","p0":[3,0,0],"p1":[3,0,0],"r":0.5,"mass":1e3}
EOF
	bcast balls -f csv m.ndjson
	assert_status 0
	light="$(csv_cell stdout 2 15)"
	heavy="$(csv_cell stdout 3 15)"
	awk -v l="$light" -v h="$heavy" 'BEGIN {
		el = 4 - 8000 / 1001; eh = 8 / 1001
		if (l - el > 1e-14 || el - l > 1e-14 || h - eh > 1e-16 || eh - h > 1e-16) { print l, el, h, eh; exit 1 }
		# momentum: 1 * 4 = l + 1000 h
		if (l + 1000 * h - 4 > 1e-12 || 4 - l - 1000 * h > 1e-12) { print "momentum"; exit 1 }
	}'
}

# ------------------------------------------------------------------- ids

@test "balls: ids are echoed exactly, the partner's too, in JSON and CSV" {
	cat >ids.json <<'EOF'
[{"id":1e3,"p0":[0,0,0],"p1":[2,0,0],"r":0.5},
 {"id":"a,\"b\"","p0":[4,0,0],"p1":[2,0,0],"r":0.5}]
EOF
	bcast balls -f ndjson ids.json
	assert_status 0
	assert_contains "$(sed -n 1p stdout)" '{"id":1e3,"hit":true,"alpha":0.75,"other":"a,\"b\"",'
	assert_contains "$(sed -n 2p stdout)" '{"id":"a,\"b\"","hit":true,"alpha":0.75,"other":1e3,'
	bcast balls -f csv ids.json
	assert_status 0
	assert_contains "$(sed -n 2p stdout)" '1e3,true,0.75,"a,""b""",false,'
	assert_contains "$(sed -n 3p stdout)" '"a,""b""",true,0.75,1e3,false,'
}

# ---------------------------------------------------------- input formats

@test "balls: CSV and NDJSON input, from a file or standard input, give the same answers" {
	write_set_json s.json
	cat >s.csv <<'EOF'
id,x0,y0,z0,x1,y1,z1,r,mass
cue,0,0,0,4,0,0,0.5,
7.50,3,0,0,3,0,0,0.5,3
fast,10,0,0,2,0,0,0.5,
,0,10,0,0,11,0,0.5,
EOF
	bcast balls -f ndjson s.csv
	assert_status 0
	# a CSV id that reads as a JSON number is one; the empty one is the record number
	set_ndjson_expected | assert_stdout_eq
	bcast balls -f ndjson - <s.json
	assert_status 0
	set_ndjson_expected | assert_stdout_eq
	bcast balls -f ndjson <s.json
	assert_status 0
	set_ndjson_expected | assert_stdout_eq
}

@test "balls -r gives the radius of records without one" {
	printf '%s\n' '{"id":"L","p0":[0,1,0],"p1":[2,1,0]}' '{"id":"R","p0":[4,1,0],"p1":[2,1,0],"r":0.25}' >r.ndjson
	bcast balls -r 0.75 -f csv r.ndjson
	assert_status 0
	# r1 + r2 = 1 again: alpha 0.75; L's point is 0.75 from its centre at 1.5
	[ "$(csv_cell stdout 2 3)" = 0.75 ]
	[ "$(csv_cell stdout 2 6)" = 2.25 ]
	[ "$(csv_cell stdout 3 6)" = 2.25 ]
}

@test "balls -o FILE writes there in the format of its extension" {
	write_set_json s.json
	bcast balls -o out.csv s.json
	assert_status 0
	assert_no_stdout
	[ "$(sed -n 1p out.csv)" = "$CSV_HEADER" ]
	[ "$(wc -l <out.csv)" -eq 5 ]
}

@test "balls --brute gives byte-identical output on 400 random balls" {
	gen_balls 400 7 >r.ndjson
	bcast balls -f ndjson r.ndjson
	assert_status 0
	cp stdout grid.out
	[ "$(grep -c '"hit":true' grid.out)" -gt 100 ] # the set is dense enough to test something
	bcast balls --brute -f ndjson r.ndjson
	assert_status 0
	cmp grid.out stdout
}

# ---------------------------------------------------------------- failures

@test "balls: a syntax error is exit 2 with its position and nothing on stdout" {
	printf '[\n{"id":1,"p0":[0,0,0],"p1":[0,0,0],"r":1}\n{"id":2}]\n' >syn.json
	bcast balls syn.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: syn.json:3:1: "
}

@test "balls: a syntax error after bad records reports only the syntax error" {
	printf '[{"id":1,"p0":[0,0,0]},\n{"id":2,"p0":[0,0,0],"p1":[1,0,0],"r":1},\n{"id":3,\n' >syn.json
	bcast balls syn.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: syn.json:4:1: "
}

@test "balls: in NDJSON a line cut off is a bad record like the others" {
	printf '{"id":1,"p0":[0,0,0]}\n{"id":2,"p0":[0,0,0],"p1":[1,0,0],"r":1}\n{"id":3,\n' >syn.ndjson
	bcast balls --format ndjson syn.ndjson
	assert_status 1
	{
		echo '{"id":1,"error":"missing p1"}'
		echo '{"id":2,"hit":false,"alpha":1}'
		echo '{"id":3,"error":"invalid JSON: the record is cut short: its line ends inside a JSON value"}'
	} | assert_stdout_eq
	# where line 3 breaks, after its comma (not 4:1, past the input's end)
	assert_stderr_eq <<'EOF'
ballcast: syn.ndjson:1:1: record 1: missing p1
ballcast: syn.ndjson:3:9: record 3: invalid JSON: the record is cut short: its line ends inside a JSON value
EOF
}

@test "balls: bad records are answered in place, take no part, and give exit 1" {
	# "ghost" would overlap "a" but has no p1: a meets nothing.
	cat >bad.json <<'EOF'
[
{"id":"a","p0":[0,0,0],"p1":[0,0,0],"r":1},
{"id":"ghost","p0":[0.5,0,0],"r":1},
{"id":"heavy","p0":[9,0,0],"p1":[9,0,0],"r":1,"mass":-2},
{"id":"nor","p0":[9,0,0],"p1":[9,1,0]}
]
EOF
	bcast balls -f ndjson bad.json
	assert_status 1
	cat <<'EOF' | assert_stdout_eq
{"id":"a","hit":false,"alpha":1}
{"id":"ghost","error":"missing p1"}
{"id":"heavy","error":"mass: must be positive"}
{"id":"nor","error":"missing r (give it per record or with --radius)"}
EOF
	cat <<'EOF' | assert_stderr_eq
ballcast: bad.json:3:1: record 2: missing p1
ballcast: bad.json:4:54: record 3: mass: must be positive
ballcast: bad.json:5:1: record 4: missing r (give it per record or with --radius)
EOF
	bcast balls -q bad.json
	assert_status 1
	assert_no_stderr
	assert_line 8 '"summary":{"records":4,"hits":0,"errors":3}}'
	bcast balls -f csv bad.json
	assert_line 3 'ghost,,,,,,,,,,,,,,,,,missing p1'
	[ "$(csv_columns stdout | sort -u)" = 18 ]
}

@test "balls: a mass that is not a number is a bad record" {
	echo '{"id":"m","p0":[0,0,0],"p1":[1,0,0],"r":1,"mass":"x"}' >m.ndjson
	bcast balls -f ndjson m.ndjson
	assert_status 1
	echo '{"id":"m","error":"mass: expected a number"}' | assert_stdout_eq
	assert_stderr_line_prefix 'ballcast: m.ndjson:1:50: record 1: mass: expected a number'
}

@test "balls: an input that cannot be opened is exit 2" {
	bcast balls nope.json
	assert_status 2
	assert_no_stdout
	echo 'ballcast: nope.json: cannot open: No such file or directory' | assert_stderr_eq
}

@test "balls: a failed run leaves an existing -o file alone" {
	echo keep >out.json
	printf '[{"id":1,' >trunc.json
	bcast balls -o out.json trunc.json
	assert_status 2
	echo keep | assert_file_eq out.json
}

@test "balls usage errors: exit 2, the complaint and the usage line" {
	expect_usage balls --bogus
	assert_contains "$err" "unknown option '--bogus'"
	expect_usage balls a.json b.json
	assert_contains "$err" "too many arguments, starting at 'b.json'"
	expect_usage balls -r -1 a.json
	assert_contains "$err" "--radius needs a finite number >= 0, not '-1'"
	expect_usage balls -f xml a.json
	assert_contains "$err" "unknown output format 'xml'"
	expect_usage balls -i yaml a.json
	assert_contains "$err" "unknown input format 'yaml'"
	expect_usage balls -o
	assert_contains "$err" "missing value for '-o'"
}

@test "balls --help: usage and examples on stdout, exit 0; the command is listed" {
	bcast balls --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast balls [OPTIONS] [TRAJECTORIES]'
	grep -q '^examples:' stdout
	grep -q -- '--brute' stdout
	bcast --help
	assert_status 0
	grep -q '^  balls  *when moving balls first meet each other$' stdout
}

@test "balls fixed: a head-on hit on a fixed ball reverses the velocity whatever the mass; a free unit ball would take it instead" {
	printf '{"id":"post","p0":[0,0,0],"r":1,"fixed":true}\n{"id":"b","p0":[-4,0,0],"p1":[0,0,0],"r":1,"mass":5}\n' >f.ndjson
	bcast balls -f ndjson f.ndjson
	assert_status 0
	assert_line 1 '{"id":"post","hit":true,"alpha":0.5,"other":"b","initial_overlap":false,"point":[-1,0,0],"normal":[-1,0,0],"velocity_before":[0,0,0],"velocity_after":[0,0,0]}'
	assert_line 2 '{"id":"b","hit":true,"alpha":0.5,"other":"post","initial_overlap":false,"point":[-1,0,0],"normal":[1,0,0],"velocity_before":[4,0,0],"velocity_after":[-4,0,0]}'
	# its p1 is not read: a fixed ball stays at p0
	printf '{"id":"post","p0":[0,0,0],"p1":[9,9,9],"r":1,"fixed":true}\n{"id":"b","p0":[-4,0,0],"p1":[0,0,0],"r":1,"mass":5}\n' >g.ndjson
	bcast balls -f ndjson g.ndjson
	cmp stdout <("$BALLCAST" balls -f ndjson f.ndjson)
	# "fixed": false is an ordinary ball at rest (p1 = p0): equal masses exchange
	printf '{"id":"post","p0":[0,0,0],"p1":[0,0,0],"r":1,"fixed":false}\n{"id":"b","p0":[-4,0,0],"p1":[0,0,0],"r":1}\n' >h.ndjson
	bcast balls -f ndjson h.ndjson
	assert_contains "$(sed -n 2p stdout)" '"velocity_after":[0,0,0]}'
	assert_contains "$(sed -n 1p stdout)" '"velocity_after":[4,0,0]}'
}

@test "balls fixed: an oblique hit is reflected as V' = V - 2U (U along the normal), CSV column fixed" {
	# the ball runs along y = -1.6 at V = (5,0,0); it touches the fixed ball
	# (r 1 + 1) with its centre at (-1.2,-1.6): n = (0.6,0.8), U = 3 n =
	# (1.8,2.4), V - 2U = (1.4,-4.8,0); alpha = (5 - 1.2) / 5 = 0.76
	printf 'id,x0,y0,z0,x1,y1,z1,r,fixed\npost,0,0,0,,,,1,true\nb,-5,-1.6,0,0,-1.6,0,1,0\n' >f.csv
	bcast balls -f csv f.csv
	assert_status 0
	awk -F, 'NR == 3 {
		ok = ($2 == "true" && ($3 - 0.76) ^ 2 < 1e-28 && $4 == "post" && ($15 - 1.4) ^ 2 < 1e-28 && ($16 + 4.8) ^ 2 < 1e-28 && $17 == 0)
		exit !ok
	}' stdout || { cat stdout; false; }
	[ "$(sed -n 2p stdout | cut -d, -f12-17)" = 0,0,0,0,0,0 ]
	# true/false/1/0 and blanks around them; an empty cell is not fixed
	printf 'id,x0,y0,z0,x1,y1,z1,r,fixed\npost,0,0,0,0,0,0,1, 1 \nb,-5,-1.6,0,0,-1.6,0,1,\n' >g.csv
	bcast balls -f csv g.csv
	assert_status 0
	awk -F, 'NR == 3 { exit !(($15 - 1.4) ^ 2 < 1e-28 && ($16 + 4.8) ^ 2 < 1e-28) }' stdout
}

@test "balls fixed: a bad fixed value is an error of that record only (JSON and CSV), exit 1" {
	printf '{"id":1,"p0":[0,0,0],"p1":[1,0,0],"r":1,"fixed":"yes"}\n{"id":2,"p0":[9,0,0],"p1":[9,1,0],"r":1,"fixed":1}\n{"id":3,"p0":[-9,0,0],"p1":[-9,1,0],"r":1}\n' >f.ndjson
	bcast balls -f ndjson f.ndjson
	assert_status 1
	assert_line 1 '{"id":1,"error":"fixed: expected true or false"}'
	assert_line 2 '{"id":2,"error":"fixed: expected true or false"}'
	assert_line 3 '{"id":3,"hit":false,"alpha":1}'
	assert_contains "$err" 'ballcast: f.ndjson:1:49: record 1: fixed: expected true or false'
	printf 'id,x0,y0,z0,x1,y1,z1,r,fixed\n1,0,0,0,1,0,0,1,yes\n2,9,0,0,9,1,0,1,2\n3,-9,0,0,-9,1,0,1,false\n' >f.csv
	bcast balls -f csv f.csv
	assert_status 1
	assert_line 2 '1,,,,,,,,,,,,,,,,,"fixed: expected true, false, 1 or 0"'
	assert_line 3 '2,,,,,,,,,,,,,,,,,"fixed: expected true, false, 1 or 0"'
	assert_line 4 '3,false,1,,,,,,,,,,,,,,,'
	assert_contains "$err" 'ballcast: f.csv:2:17: record 1: fixed: expected true, false, 1 or 0'
}
