#!/usr/bin/env bats
# `ballcast intersect`: hand-computed pairs and segments on tiny meshes
# (touching, crossing, coplanar, self-intersections with and without shared
# vertices), the formats, --exit-status, --no-touching, --approx, the
# hierarchy against --brute and the threads, and the errors.

load helpers

setup() {
	common_setup
	# A: the triangle (0,0,0) (4,0,0) (0,4,0), normal +z.
	printf 'v 0 0 0\nv 4 0 0\nv 0 4 0\nf 1 2 3\n' >a.obj
	# B: triangle 0 touches A at (1,1,0) from above; triangle 1 stands
	# upright in the plane y = 1 from z = -1 to 1, its slanted edges
	# crossing z = 0 at their middles (1.5,1,0) and (2.5,1,0), inside A.
	# nA = (0,0,16), nB1 = (2,0,0) x (1,0,2) = (0,-4,0): nA x nB1 = (64,0,0),
	# so that segment runs towards +x.
	printf 'v 1 1 0\nv 2 2 1\nv 0 2 1\nv 1 1 -1\nv 3 1 -1\nv 2 1 1\nf 1 2 3\nf 4 5 6\n' >b.obj
}

JSON_HEAD_AB='{"ballcast":"%s","a":{"file":"a.obj","vertices":3,"triangles":1,"faces":1,"degenerate":0,"closed":false},"b":{"file":"b.obj","vertices":6,"triangles":2,"faces":2,"degenerate":0,"closed":false},"settings":{"self":false,"method":"exact","touching":true},\n'

TOUCH='{"a":0,"b":0,"segment":[[1,1,0],[1,1,0]],"state":"touching"}'
CROSS='{"a":0,"b":1,"segment":[[1.5,1,0],[2.5,1,0]],"state":"crossing"}'

@test "two meshes: the touching point and the crossing segment, in JSON" {
	bcast intersect a.obj b.obj
	assert_status 0
	assert_no_stderr
	{
		printf "$JSON_HEAD_AB" "$VERSION"
		printf '"pairs":[\n%s,\n%s\n],\n' "$TOUCH" "$CROSS"
		printf '"summary":{"pairs":2,"crossing":1,"touching":1,"coplanar":0,"probable":0,"relation":null}}\n'
	} | assert_stdout_eq
}

@test "NDJSON: one pair per line, nothing else" {
	bcast intersect -f ndjson a.obj b.obj
	assert_status 0
	printf '%s\n%s\n' "$TOUCH" "$CROSS" | assert_stdout_eq
}

@test "CSV: a header and one row per pair; -o FILE.csv picks the format" {
	bcast intersect -o pairs.csv a.obj b.obj
	assert_status 0
	assert_no_stdout
	assert_file_eq pairs.csv <<'EOF'
a,b,x0,y0,z0,x1,y1,z1,state
0,0,1,1,0,1,1,0,touching
0,1,1.5,1,0,2.5,1,0,crossing
EOF
	bcast intersect --format csv a.obj b.obj
	cmp stdout pairs.csv
}

@test "a slanted crossing, hand-computed; exchanging the meshes swaps a and b and reverses the segment" {
	# B = (1,1,-1) (2,1,1) (1,2,1): its edges from (1,1,-1) cross z = 0 at
	# (1.5,1,0) and (1,1.5,0). nB = (1,0,2) x (0,1,2) = (-2,-2,1); A's
	# vertices are at 5, -3, -3 from B's plane, so A's chord on it runs on
	# x + y = 2.5 from (2.5,0,0) to (0,2.5,0) and holds B's. nA x nB =
	# (32,-32,0): from (1,1.5,0) to (1.5,1,0).
	printf 'v 1 1 -1\nv 2 1 1\nv 1 2 1\nf 1 2 3\n' >slant.obj
	bcast intersect -f ndjson a.obj slant.obj
	assert_status 0
	echo '{"a":0,"b":0,"segment":[[1,1.5,0],[1.5,1,0]],"state":"crossing"}' | assert_stdout_eq
	bcast intersect -f ndjson slant.obj a.obj
	assert_status 0
	echo '{"a":0,"b":0,"segment":[[1.5,1,0],[1,1.5,0]],"state":"crossing"}' | assert_stdout_eq
}

@test "coplanar overlapping triangles: no segment ([] and empty CSV cells)" {
	printf 'v 0.5 0.5 0\nv 4.5 0.5 0\nv 0.5 4.5 0\nf 1 2 3\n' >shifted.obj
	bcast intersect -f ndjson a.obj shifted.obj
	assert_status 0
	echo '{"a":0,"b":0,"segment":[],"state":"coplanar"}' | assert_stdout_eq
	bcast intersect -f csv a.obj shifted.obj
	assert_line 2 '0,0,,,,,,,coplanar'
	[ "$(csv_columns stdout | sort -u)" = 9 ]
	# Sharing the edge (4,0,0)-(0,4,0) from the other side: touching along
	# it, the ends in the order x, y, z.
	printf 'v 4 0 0\nv 0 4 0\nv 4 4 0\nf 1 2 3\n' >beside.obj
	bcast intersect -f ndjson a.obj beside.obj
	echo '{"a":0,"b":0,"segment":[[0,4,0],[4,0,0]],"state":"touching"}' | assert_stdout_eq
}

@test "--no-touching keeps the crossing pair only" {
	bcast intersect --no-touching -f ndjson a.obj b.obj
	assert_status 0
	printf '%s\n' "$CROSS" | assert_stdout_eq
	bcast intersect --no-touching a.obj b.obj
	assert_contains "$out" '"settings":{"self":false,"method":"exact","touching":false}'
	assert_contains "$out" '"summary":{"pairs":1,"crossing":1,"touching":0,"coplanar":0,"probable":0,"relation":null}'
}

# ----------------------------------------------------------------- --self

@test "one mesh: its self-intersections; neighbours sharing a vertex index never count" {
	# Triangle 0 is A, 1 crosses it (B's upright triangle), 2 shares the
	# vertices (0,0,0) and (4,0,0) with 0 and (1,1,-1) with 1.
	printf 'v 0 0 0\nv 4 0 0\nv 0 4 0\nv 1 1 -1\nv 3 1 -1\nv 2 1 1\nf 1 2 3\nf 4 5 6\nf 1 2 4\n' >self.obj
	bcast intersect self.obj
	assert_status 0
	assert_no_stderr
	{
		printf '{"ballcast":"%s","a":{"file":"self.obj","vertices":6,"triangles":3,"faces":3,"degenerate":0,"closed":false},"b":null,"settings":{"self":true,"method":"exact","touching":true},\n' "$VERSION"
		printf '"pairs":[\n{"a":0,"b":1,"segment":[[1.5,1,0],[2.5,1,0]],"state":"crossing"}\n],\n'
		printf '"summary":{"pairs":1,"crossing":1,"touching":0,"coplanar":0,"probable":0,"relation":null}}\n'
	} | assert_stdout_eq
	bcast intersect --self self.obj
	assert_status 0
	assert_contains "$out" '"pairs":1,'
}

@test "one mesh, unwelded: the same positions under other indices touch" {
	# Triangle 2 as before but with its own copies of the vertices. It
	# touches 0 along the edge (4,0,0)-(0,0,0): n2 = (4,0,0) x (1,1,-1) =
	# (0,4,4), nA x n2 = (-64,0,0), towards -x; and touches 1 at (1,1,-1).
	printf 'v 0 0 0\nv 4 0 0\nv 0 4 0\nv 1 1 -1\nv 3 1 -1\nv 2 1 1\nv 0 0 0\nv 4 0 0\nv 1 1 -1\nf 1 2 3\nf 4 5 6\nf 7 8 9\n' >loose.obj
	bcast intersect -f ndjson loose.obj
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"a":0,"b":1,"segment":[[1.5,1,0],[2.5,1,0]],"state":"crossing"}
{"a":0,"b":2,"segment":[[4,0,0],[0,0,0]],"state":"touching"}
{"a":1,"b":2,"segment":[[1,1,-1],[1,1,-1]],"state":"touching"}
EOF
}

@test "the sample room: the crate and the pillar rest on the floor and hold the ceiling; a shifted copy crosses it" {
	# Against itself: only touching pairs, each a level segment (or point)
	# in the floor z = 0 or the ceiling z = 3; nothing crosses.
	bcast intersect -q -f csv "$REPO/samples/room.obj"
	assert_status 0
	[ "$(wc -l <stdout)" -gt 10 ]
	[ "$(awk -F, 'NR > 1 && ($9 != "touching" || $5 != $8 || ($5 != 0 && $5 != 3))' stdout | wc -l)" -eq 0 ]
	bcast intersect -q --no-touching -f ndjson "$REPO/samples/room.obj"
	assert_status 0
	assert_no_stdout
	awk '$1 == "v" { print "v", $2 + 0.13, $3 + 0.07, $4 + 0.05; next } { print }' "$REPO/samples/room.obj" >moved.obj
	bcast intersect -q -f csv "$REPO/samples/room.obj" moved.obj
	assert_status 0
	[ "$(wc -l <stdout)" -gt 10 ]
	# Shifted in general position, every pair crosses.
	[ "$(awk -F, 'NR > 1 && $9 != "crossing"' stdout | wc -l)" -eq 0 ]
}

# ----------------------------------------------------- --exit-status

@test "exit status: 0 with or without pairs; --exit-status: 1 with pairs, 0 without" {
	printf 'v 10 10 10\nv 11 10 10\nv 10 11 10\nf 1 2 3\n' >far.obj
	bcast intersect a.obj far.obj
	assert_status 0
	bcast intersect a.obj b.obj
	assert_status 0
	bcast intersect --exit-status a.obj far.obj
	assert_status 0
	assert_contains "$out" '"pairs":[],'
	bcast intersect --exit-status a.obj b.obj
	assert_status 1
	assert_no_stderr
	assert_contains "$out" '"pairs":2,'
	bcast intersect --exit-status nope.obj b.obj
	assert_status 2
	assert_no_stdout
}

# ------------------------------------------------------------- --approx

@test "--approx: probable pairs without segments, false positives included" {
	# B's triangle beyond A's edge x + y = 4: its plane y = 3 cuts A and the
	# bounding spheres overlap, but the triangles are apart.
	printf 'v 3 3 -1\nv 5 3 -1\nv 4 3 1\nf 1 2 3\n' >beyond.obj
	bcast intersect -f ndjson a.obj beyond.obj
	assert_status 0
	assert_no_stdout
	bcast intersect --approx -f ndjson a.obj beyond.obj
	assert_status 0
	echo '{"a":0,"b":0,"segment":[],"state":"probable"}' | assert_stdout_eq
	bcast intersect --approx a.obj b.obj
	assert_contains "$out" '"method":"approximate"'
	assert_contains "$out" '{"a":0,"b":1,"segment":[],"state":"probable"}'
	assert_contains "$out" '"summary":{"pairs":2,"crossing":0,"touching":0,"coplanar":0,"probable":2,"relation":null}'
}

# -------------------------------------------------- --brute and threads

@test "the hierarchy, --brute and any number of threads give the same bytes" {
	awk '$1 == "v" { print "v", $2 * 0.9 + 0.31, $3 * 1.1 - 0.2, $4 + 0.17; next } { print }' "$REPO/samples/room.obj" >moved.obj
	for args in "" "--self" "--approx"; do
		other=moved.obj
		[ "$args" = "--self" ] && other=
		# shellcheck disable=SC2086
		"$BALLCAST" intersect -q $args -f ndjson "$REPO/samples/room.obj" $other >fast.ndjson
		# shellcheck disable=SC2086
		"$BALLCAST" intersect -q $args --brute -j 1 -f ndjson "$REPO/samples/room.obj" $other >brute.ndjson
		# shellcheck disable=SC2086
		"$BALLCAST" intersect -q $args -j 3 -f ndjson "$REPO/samples/room.obj" $other >three.ndjson
		cmp fast.ndjson brute.ndjson
		cmp fast.ndjson three.ndjson
	done
	[ -s fast.ndjson ]
}

# ---------------------------------------------------------------- notes

@test "zero-area triangles are noted and skipped; -q silences the note" {
	printf 'v 0 0 0\nv 4 0 0\nv 0 4 0\nv 1 1 0\nv 1 1 -1\nv 1 1 1\nf 1 2 3\nf 4 5 6\n' >deg.obj
	bcast intersect -f ndjson deg.obj b.obj
	assert_status 0
	echo 'ballcast: deg.obj: 1 zero-area triangle skipped, the first is triangle 1 (face 1)' | assert_stderr_eq
	printf '%s\n%s\n' "$TOUCH" "$CROSS" | assert_stdout_eq
	bcast intersect -q -f ndjson deg.obj b.obj
	assert_no_stderr
}

@test "a needle of area 2^-60 through a triangle is kept: one crossing pair, no note (issue 28)" {
	# ../shared/exact-found/2026-11-28/intersect_sliver: (B-A)x(C-A) of the
	# needle is exactly (0, 2^-59, 0) (a sliver to cast, sine 4e-19, never
	# hit), not zero; it meets z = 0 along x in [0, 2^-61] at y = 0.5, inside
	# the big triangle. It was skipped as "zero-area", the pair missing. The
	# segment runs along nA x nB = (0,0,16) x (0,2^-59,0), towards -x.
	printf 'v -1 -1 0\nv 3 -1 0\nv -1 3 0\nf 1 2 3\n' >big.obj
	printf 'v 0 0.5 -1\nv 0 0.5 1\nv 8.673617379884035e-19 0.5 1\nf 1 2 3\n' >needle.obj
	for opt in "" --brute "-j 2"; do
		# shellcheck disable=SC2086
		bcast intersect -f ndjson $opt big.obj needle.obj
		assert_status 0
		assert_no_stderr
		echo '{"a":0,"b":0,"segment":[[4.336808689942018e-19,0.5,0],[0,0.5,0]],"state":"crossing"}' | assert_stdout_eq
	done
	# Exchanged, the segment runs the other way; the needle against itself
	# and the big triangle in one mesh: the same pair.
	bcast intersect -f ndjson needle.obj big.obj
	echo '{"a":0,"b":0,"segment":[[0,0.5,0],[4.336808689942018e-19,0.5,0]],"state":"crossing"}' | assert_stdout_eq
	printf 'v -1 -1 0\nv 3 -1 0\nv -1 3 0\nv 0 0.5 -1\nv 0 0.5 1\nv 8.673617379884035e-19 0.5 1\nf 1 2 3\nf 4 5 6\n' >both.obj
	for opt in "" --brute; do
		# shellcheck disable=SC2086
		bcast intersect -f ndjson $opt both.obj
		echo '{"a":0,"b":1,"segment":[[4.336808689942018e-19,0.5,0],[0,0.5,0]],"state":"crossing"}' | assert_stdout_eq
	done
	# The approximate test finds it too.
	bcast intersect -f ndjson --approx big.obj needle.obj
	echo '{"a":0,"b":0,"segment":[],"state":"probable"}' | assert_stdout_eq
	# The header counts the triangles skipped: none.
	bcast intersect big.obj needle.obj
	grep -q '"b":{"file":"needle.obj","vertices":3,"triangles":1,"faces":1,"degenerate":0' stdout
}

@test "--stats: one JSON line on standard error with the counts" {
	bcast intersect --stats -f ndjson -j 2 a.obj b.obj
	assert_status 0
	[ "$(wc -l <stderr)" -eq 1 ]
	grep -q '^{"read_meshes_seconds":[0-9.e-]*,"build_seconds":[0-9.e-]*,"intersect_seconds":[0-9.e-]*,"write_seconds":[0-9.e-]*,"triangles_a":1,"triangles_b":2,"candidates":2,"pairs":2,"threads":2,"peak_memory_bytes":[0-9]*}$' stderr
}

@test "--help: usage and examples on standard output" {
	bcast intersect --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast intersect [OPTIONS] A.obj [B.obj]'
	assert_contains "$out" 'examples:'
	assert_contains "$out" '--exit-status'
	bcast --help
	assert_contains "$out" '  intersect  every pair of intersecting triangles'
}

# --------------------------------------------------------------- errors

@test "usage errors: exit 2, a message and the short usage on stderr, nothing on stdout" {
	USAGE='usage: ballcast intersect [OPTIONS] A.obj [B.obj]   (ballcast intersect --help)'
	bcast intersect
	assert_status 2
	assert_no_stdout
	printf 'ballcast intersect: missing A.obj\n%s\n' "$USAGE" | assert_stderr_eq
	bcast intersect a.obj b.obj c.obj
	assert_status 2
	printf "ballcast intersect: too many arguments, starting at 'c.obj'\n%s\n" "$USAGE" | assert_stderr_eq
	bcast intersect --self a.obj b.obj
	assert_status 2
	printf "ballcast intersect: --self takes one mesh, not two; B is 'b.obj'\n%s\n" "$USAGE" | assert_stderr_eq
	bcast intersect --frobnicate a.obj
	assert_status 2
	printf "ballcast intersect: unknown option '--frobnicate'\n%s\n" "$USAGE" | assert_stderr_eq
	bcast intersect -j 0 a.obj
	assert_status 2
	printf "ballcast intersect: --threads needs a whole number >= 1, not '0'\n%s\n" "$USAGE" | assert_stderr_eq
	bcast intersect -f yaml a.obj
	assert_status 2
	printf "ballcast intersect: unknown output format 'yaml' (json, ndjson or csv)\n%s\n" "$USAGE" | assert_stderr_eq
	bcast intersect a.obj -o
	assert_status 2
	printf "ballcast intersect: missing value for '-o'\n%s\n" "$USAGE" | assert_stderr_eq
	assert_no_stdout
}

@test "mesh errors: exit 2 with the file, line and column; nothing on stdout; -o FILE untouched" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 x\nf 1 2 3\n' >bad.obj
	bcast intersect a.obj bad.obj
	assert_status 2
	assert_no_stdout
	echo "ballcast: bad.obj:3:7: expected a number, found 'x'" | assert_stderr_eq
	bcast intersect missing.obj
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: missing.obj: '
	echo keep >out.json
	bcast intersect -o out.json a.obj bad.obj
	assert_status 2
	echo keep | assert_file_eq out.json
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' >index.obj
	bcast intersect index.obj
	assert_status 2
	assert_stderr_line_prefix 'ballcast: index.obj:4:'
}

# --------------------------------------------------- closed meshes, solids

# cube X Y Z S : the closed cube [X, X+S] x [Y, Y+S] x [Z, Z+S] on stdout, as
# six quads turning counter-clockwise seen from outside.
cube() {
	awk -v x="$1" -v y="$2" -v z="$3" -v s="$4" 'BEGIN {
		for (i = 0; i < 8; i++) printf "v %s %s %s\n", x + s * (i % 2), y + s * (int(i / 2) % 2), z + s * int(i / 4)
		print "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6"
	}'
}

@test "solids: a closed cube inside another is a_inside_b (b_inside_a swapped) with 0 pairs; both said closed" {
	cube 0 0 0 4 >big.obj
	cube 1 1 1 1 >small.obj
	bcast intersect small.obj big.obj
	assert_status 0
	assert_no_stderr
	assert_contains "$out" '"a":{"file":"small.obj","vertices":8,"triangles":12,"faces":6,"degenerate":0,"closed":true}'
	assert_contains "$out" '"b":{"file":"big.obj","vertices":8,"triangles":12,"faces":6,"degenerate":0,"closed":true}'
	assert_contains "$out" '"pairs":[],'
	assert_contains "$out" '"summary":{"pairs":0,"crossing":0,"touching":0,"coplanar":0,"probable":0,"relation":"a_inside_b"}}'
	bcast intersect big.obj small.obj
	assert_contains "$out" '"relation":"b_inside_a"}}'
	# NDJSON and CSV: no summary, so a note on stderr; -q silences it
	bcast intersect -f csv small.obj big.obj
	assert_status 0
	echo 'a,b,x0,y0,z0,x1,y1,z1,state' | assert_stdout_eq
	echo 'ballcast: small.obj: closed, big.obj: closed: relation a_inside_b' | assert_stderr_eq
	bcast intersect -q -f ndjson small.obj big.obj
	assert_no_stdout
	assert_no_stderr
}

@test "solids: disjoint, crossing and touching cubes" {
	cube 0 0 0 4 >big.obj
	cube 10 0 0 1 >far.obj
	cube 3 3 3 2 >corner.obj
	cube 4 0 0 2 >beside.obj
	bcast intersect far.obj big.obj
	assert_contains "$out" '"summary":{"pairs":0,"crossing":0,"touching":0,"coplanar":0,"probable":0,"relation":"disjoint"}}'
	# a corner of one cube in the other: faces cross
	bcast intersect corner.obj big.obj
	assert_contains "$out" '"relation":"crossing"}}'
	[ "$(grep -c '"state":"crossing"' stdout)" -gt 0 ]
	# face x = 4 against face x = 4: touching (coplanar) pairs, no crossing, interiors apart
	bcast intersect beside.obj big.obj
	assert_contains "$out" '"crossing":0,'
	assert_contains "$out" '"relation":"touching"}}'
	[ "$(grep -c '"state":"c' stdout)" -gt 0 ]
	bcast intersect -f ndjson --no-touching beside.obj big.obj
	echo 'ballcast: beside.obj: closed, big.obj: closed: relation touching' | assert_stderr_eq
}

@test "solids: an open mesh has no relation (null); -f csv notes which mesh is closed; one mesh: none either" {
	cube 0 0 0 4 >big.obj
	# the cube without its top face: open
	head -n 13 big.obj >open.obj
	bcast intersect open.obj big.obj
	assert_status 0
	assert_contains "$out" '"file":"open.obj","vertices":8,"triangles":10,"faces":5,"degenerate":0,"closed":false}'
	assert_contains "$out" '"file":"big.obj","vertices":8,"triangles":12,"faces":6,"degenerate":0,"closed":true}'
	assert_contains "$out" ',"relation":null}}'
	bcast intersect -f csv open.obj big.obj
	echo 'ballcast: open.obj: not closed, big.obj: closed: no relation (a mesh is not closed)' | assert_stderr_eq
	bcast intersect big.obj
	assert_contains "$out" '"closed":true},"b":null,'
	assert_contains "$out" ',"relation":null}}'
	# neither closed: no note
	bcast intersect -f csv a.obj b.obj
	assert_no_stderr
}

# ---------------------------------------------- --approx-rule, --check-approx

@test "--approx-rule: either accepts a pair whose B only pierces A's plane; one-way (A against B's plane) does not, and depends on the order" {
	# A in z = 0; B upright in the plane x = 5, beyond A (x <= 4), crossing
	# z = 0. Bounding spheres: (2,2,0) r 2.83 and (5,1,0) r 1.41, 3.16
	# apart: they meet. A's vertices are all on one side of x = 5.
	printf 'v 5 0 -1\nv 5 2 -1\nv 5 1 1\nf 1 2 3\n' >wall.obj
	bcast intersect -f ndjson a.obj wall.obj
	assert_no_stdout
	bcast intersect --approx -f ndjson a.obj wall.obj
	echo '{"a":0,"b":0,"segment":[],"state":"probable"}' | assert_stdout_eq
	bcast intersect --approx-rule either -f ndjson a.obj wall.obj
	echo '{"a":0,"b":0,"segment":[],"state":"probable"}' | assert_stdout_eq
	bcast intersect --approx-rule one-way -f ndjson a.obj wall.obj
	assert_status 0
	assert_no_stdout
	# swapped, the wall's vertices straddle A's plane: probable one way too
	bcast intersect --approx-rule one-way -f ndjson wall.obj a.obj
	echo '{"a":0,"b":0,"segment":[],"state":"probable"}' | assert_stdout_eq
	bcast intersect --approx-rule one-way a.obj wall.obj
	assert_contains "$out" '"settings":{"self":false,"method":"approximate","touching":true,"approx_rule":"one-way","check_approx":false}'
	bcast intersect --approx-rule sideways a.obj wall.obj
	assert_status 2
	assert_contains "$err" "ballcast intersect: --approx-rule is either or one-way, not 'sideways'"
}

@test "--check-approx: each pair's exact_state, and the false positives counted (either: 1, one-way: 0)" {
	printf 'v 5 0 -1\nv 5 2 -1\nv 5 1 1\nf 1 2 3\n' >wall.obj
	cat b.obj >both.obj
	# B's two triangles really meet A; the wall's is a false positive of either
	printf 'v 5 0 -1\nv 5 2 -1\nv 5 1 1\nf 7 8 9\n' >>both.obj
	bcast intersect --approx --check-approx a.obj both.obj
	assert_status 0
	assert_contains "$out" '{"a":0,"b":0,"segment":[],"state":"probable","exact_state":"touching"}'
	assert_contains "$out" '{"a":0,"b":1,"segment":[],"state":"probable","exact_state":"crossing"}'
	assert_contains "$out" '{"a":0,"b":2,"segment":[],"state":"probable","exact_state":"disjoint"}'
	assert_contains "$out" '"probable":3,"false_positives":1,"false_negatives":0,"relation":null}}'
	bcast intersect --approx-rule one-way --check-approx a.obj both.obj
	assert_contains "$out" '"probable":2,"false_positives":0,"false_negatives":0,"relation":null}}'
	bcast intersect --approx --check-approx -f csv a.obj both.obj
	assert_line 1 'a,b,x0,y0,z0,x1,y1,z1,state,exact_state'
	assert_line 4 '0,2,,,,,,,probable,disjoint'
	echo 'ballcast: --approx (either): 1 false positives, 0 false negatives against the exact test' | assert_stderr_eq
	bcast intersect --check-approx a.obj both.obj
	assert_status 2
	assert_contains "$err" 'ballcast intersect: --check-approx needs --approx (or --approx-rule)'
}
