#!/usr/bin/env bats
# `ballcast closest`: hand-computed answers on a one-triangle and a
# two-triangle mesh (faces, edges, vertices, ties, normals, overlap and
# depth), the output and input formats, and the errors.

load helpers

setup() {
	common_setup
	# The unit square in z = 0 split along (0,0)-(1,1), as two OBJ faces:
	# triangle 0 = (0 1 2), triangle 1 = (0 2 3), normals +z.
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n' >two.obj
}

CSV_HEADER='id,distance,point_x,point_y,point_z,triangle,face,feature,vertex_0,vertex_1,vertex_2,normal_x,normal_y,normal_z,overlap,depth,bary_u,bary_v,bary_w,error'

JSON_HEADER_TRI() {
	printf '{"ballcast":"%s","mesh":{"file":"tri.obj","vertices":3,"triangles":1,"faces":1,"degenerate":0},"settings":{"tie_tolerance":1e-14},\n' "$VERSION"
}

# answer ID DISTANCE POINT TRIANGLE FACE FEATURE VERTICES NORMAL OVERLAP DEPTH BARYCENTRIC
# (BARYCENTRIC: the weights u,v,w of the triangle's A, B, C, hand-computed:
# on tri.obj a point (x, y, 0) is (1-x-y) A + x B + y C)
answer() {
	printf '{"id":%s,"distance":%s,"point":[%s],"triangle":%s,"face":%s,"feature":"%s","vertices":[%s],"normal":[%s],"overlap":%s,"depth":%s,"barycentric":[%s]}\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}"
}

# The balls of the format tests on tri.obj: above the face (overlapping),
# beside edge CA (overlapping), beside vertex A, and on vertex B.
write_balls_ndjson() {
	cat >"${1:-b.ndjson}" <<'EOF'
{"id":"above","p":[0.25,0.25,2],"r":3}
{"id":"ca","p":[-3,0.5,4],"r":6}
{"id":"a","p":[-3,-4,0],"r":1}
{"id":"on-b","p":[1,0,0]}
EOF
}

balls_expected() {
	answer '"above"' 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 true 1 0.5,0.25,0.25
	answer '"ca"' 5 0,0.5,0 0 0 edge 2,0 -0.6,0,0.8 true 1 0.5,0,0.5
	answer '"a"' 5 0,0,0 0 0 vertex 0 -0.6,-0.8,0 false 0 1,0,0
	answer '"on-b"' 0 1,0,0 0 0 vertex 1 0,0,1 false 0 0,1,0
}

# ---------------------------------------------------------- hand-computed

@test "one triangle: the face from above and below, the plane distance and the normal towards p" {
	printf '{"id":1,"p":[0.25,0.25,2]}\n{"id":2,"p":[0.25,0.5,-3],"r":1}\n' >b.ndjson
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 0
	assert_no_stderr
	{
		answer 1 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
		answer 2 3 0.25,0.5,0 0 0 face 0,1,2 0,0,-1 false 0 0.25,0.25,0.5
	} | assert_stdout_eq
}

@test "one triangle: each edge (vertices in the order AB, BC, CA) and each vertex" {
	cat >b.ndjson <<'EOF'
{"id":"ab","p":[0.5,-2,0]}
{"id":"bc","p":[2,2,0]}
{"id":"ca","p":[-3,0.5,4]}
{"id":"a","p":[-3,-4,0]}
{"id":"b","p":[4,-3,0]}
{"id":"c","p":[0,4,-4]}
EOF
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 0
	{
		answer '"ab"' 2 0.5,0,0 0 0 edge 0,1 0,-1,0 false 0 0.5,0.5,0
		# (2,2) to its foot (0.5,0.5) on BC: distance sqrt(4.5), normal (1,1,0) / sqrt 2
		answer '"bc"' 2.1213203435596424 0.5,0.5,0 0 0 edge 1,2 0.7071067811865476,0.7071067811865476,0 false 0 0,0.5,0.5
		answer '"ca"' 5 0,0.5,0 0 0 edge 2,0 -0.6,0,0.8 false 0 0.5,0,0.5
		answer '"a"' 5 0,0,0 0 0 vertex 0 -0.6,-0.8,0 false 0 1,0,0
		answer '"b"' 4.242640687119285 1,0,0 0 0 vertex 1 0.7071067811865476,-0.7071067811865476,0 false 0 0,1,0
		answer '"c"' 5 0,1,0 0 0 vertex 2 0,0.6,-0.8 false 0 0,0,1
	} | assert_stdout_eq
}

@test "one triangle: points on it have distance 0, point = p, the front normal, and the feature they are on" {
	cat >b.ndjson <<'EOF'
{"id":"in","p":[0.25,0.25,0]}
{"id":"on-ab","p":[0.5,0,0]}
{"id":"on-bc","p":[0.5,0.5,0]}
{"id":"on-ca","p":[0,0.75,0]}
{"id":"on-a","p":[0,0,0]}
{"id":"on-c","p":[0,1,0],"r":0.5}
EOF
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 0
	{
		answer '"in"' 0 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
		answer '"on-ab"' 0 0.5,0,0 0 0 edge 0,1 0,0,1 false 0 0.5,0.5,0
		answer '"on-bc"' 0 0.5,0.5,0 0 0 edge 1,2 0,0,1 false 0 0,0.5,0.5
		answer '"on-ca"' 0 0,0.75,0 0 0 edge 2,0 0,0,1 false 0 0.25,0,0.75
		answer '"on-a"' 0 0,0,0 0 0 vertex 0 0,0,1 false 0 1,0,0
		answer '"on-c"' 0 0,1,0 0 0 vertex 2 0,0,1 true 0.5 0,0,1
	} | assert_stdout_eq
}

@test "one triangle: overlap is distance < r (touching is not), depth is r - distance" {
	cat >b.ndjson <<'EOF'
{"id":"inside","p":[0.25,0.25,2],"r":2.5}
{"id":"touching","p":[0.25,0.25,2],"r":2}
{"id":"clear","p":[0.25,0.25,2],"r":1.5}
EOF
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 0
	{
		answer '"inside"' 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 true 0.5 0.5,0.25,0.25
		answer '"touching"' 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
		answer '"clear"' 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
	} | assert_stdout_eq
}

@test "two triangles: the shared edge and vertices tie, and go to triangle 0; the rest to their own triangle" {
	cat >b.ndjson <<'EOF'
{"id":"on-diagonal","p":[0.5,0.5,0]}
{"id":"over-diagonal","p":[0.25,0.25,2]}
{"id":"under-diagonal","p":[0.75,0.75,-1]}
{"id":"on-origin","p":[0,0,0]}
{"id":"beyond-corner","p":[4,5,0]}
{"id":"in-1","p":[0.25,0.75,-0.5],"r":1}
{"id":"in-0","p":[0.75,0.25,0.5]}
{"id":"own-corner","p":[-1,1,0]}
EOF
	bcast closest -f ndjson two.obj b.ndjson
	assert_status 0
	assert_no_stderr
	{
		answer '"on-diagonal"' 0 0.5,0.5,0 0 0 edge 2,0 0,0,1 false 0 0.5,0,0.5
		answer '"over-diagonal"' 2 0.25,0.25,0 0 0 edge 2,0 0,0,1 false 0 0.75,0,0.25
		answer '"under-diagonal"' 1 0.75,0.75,0 0 0 edge 2,0 0,0,-1 false 0 0.25,0,0.75
		answer '"on-origin"' 0 0,0,0 0 0 vertex 0 0,0,1 false 0 1,0,0
		answer '"beyond-corner"' 5 1,1,0 0 0 vertex 2 0.6,0.8,0 false 0 0,0,1
		answer '"in-1"' 0.5 0.25,0.75,0 1 1 face 0,2,3 0,0,-1 true 0.5 0.25,0.25,0.5
		answer '"in-0"' 0.5 0.75,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.25,0.5,0.25
		answer '"own-corner"' 1 0,1,0 1 1 vertex 3 -1,0,0 false 0 0,0,1
	} | assert_stdout_eq
}

@test "barycentric: hand-computed weights of A, B, C (file order) on a face, edges and a vertex; u A + v B + w C is the point, u + v + w = 1" {
	# A(1,1,1) B(5,1,1) C(1,5,1): a point (x, y, 1) of the plane is
	# (1 - (x-1)/4 - (y-1)/4) A + (x-1)/4 B + (y-1)/4 C.
	printf 'v 1 1 1\nv 5 1 1\nv 1 5 1\nf 1 2 3\n' >t.obj
	printf 'id,x,y,z\nface,2,3,7\nbc,4,4,1\nab,3,-2,5\nb,7,0,1\nc,0,7,-3\n' >b.csv
	bcast closest -f csv t.obj b.csv
	assert_status 0
	[ "$(csv_cell stdout 1 17),$(csv_cell stdout 1 18),$(csv_cell stdout 1 19)" = bary_u,bary_v,bary_w ]
	row() { echo "$(csv_cell stdout "$1" 8) $(csv_cell stdout "$1" 17),$(csv_cell stdout "$1" 18),$(csv_cell stdout "$1" 19)"; }
	[ "$(row 2)" = "face 0.25,0.25,0.5" ]
	[ "$(row 3)" = "edge 0,0.5,0.5" ]
	[ "$(row 4)" = "edge 0.5,0.5,0" ]
	[ "$(row 5)" = "vertex 0,1,0" ]
	[ "$(row 6)" = "vertex 0,0,1" ]
	# the weights rebuild the printed point, and sum to 1
	awk -F, 'NR > 1 {
		u = $17; v = $18; w = $19
		x = u * 1 + v * 5 + w * 1; y = u * 1 + v * 1 + w * 5; z = u + v + w
		d = (x - $3) ^ 2 + (y - $4) ^ 2 + (z - $5) ^ 2
		if (d > 1e-24 || (u + v + w - 1) ^ 2 > 1e-28) { print "row " NR ": " $0; bad = 1 }
	} END { exit bad }' stdout
	bcast closest -f ndjson t.obj b.csv
	assert_contains "$(sed -n 1p stdout)" '"depth":0,"barycentric":[0.25,0.25,0.5]}'
}

@test "two triangles from one quad: both are face 0; the triangle number tells them apart" {
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n' >quad.obj
	printf '{"id":1,"p":[0.25,0.75,1]}\n{"id":2,"p":[0.75,0.25,1]}\n' >b.ndjson
	bcast closest -f ndjson quad.obj b.ndjson
	assert_status 0
	{
		answer 1 1 0.25,0.75,0 1 0 face 0,2,3 0,0,1 false 0 0.25,0.25,0.5
		answer 2 1 0.75,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.25,0.5,0.25
	} | assert_stdout_eq
}

@test "radius: default 0, --radius for records without r, a record's own r (or \"radius\") wins" {
	printf '{"id":1,"p":[0.25,0.25,2]}\n{"id":2,"p":[0.25,0.25,2],"r":1}\n{"id":3,"p":[0.25,0.25,2],"radius":4}\n' >b.ndjson
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 0
	[ "$(sed -n 1p stdout | grep -o '"overlap".*')" = '"overlap":false,"depth":0,"barycentric":[0.5,0.25,0.25]}' ]
	bcast closest -f ndjson -r 3 tri.obj b.ndjson
	assert_status 0
	{
		answer 1 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 true 1 0.5,0.25,0.25
		answer 2 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
		answer 3 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 true 2 0.5,0.25,0.25
	} | assert_stdout_eq
}

# ---------------------------------------------------------------- formats

@test "json: the document is {ballcast,mesh,settings}, one result per line, then the summary" {
	write_balls_ndjson b.ndjson
	printf '{"id":"bad","r":1}\n' >>b.ndjson
	bcast closest -q tri.obj b.ndjson
	assert_status 1
	assert_no_stderr
	{
		JSON_HEADER_TRI
		echo '"results":['
		balls_expected | sed 's/$/,/'
		echo '{"id":"bad","error":"missing p"}'
		echo '],'
		echo '"summary":{"records":5,"overlaps":2,"errors":1}}'
	} | assert_stdout_eq
}

@test "json: an empty array gives an empty results list and a zero summary" {
	echo '[]' >empty.json
	bcast closest tri.obj empty.json
	assert_status 0
	{
		JSON_HEADER_TRI
		echo '"results":[],'
		echo '"summary":{"records":0,"overlaps":0,"errors":0}}'
	} | assert_stdout_eq
}

@test "empty input is an empty batch: every input format, standard input and a pipe; exit 0 (issue 22)" {
	expect_empty_batch "$(JSON_HEADER_TRI)"'
"results":[],
"summary":{"records":0,"overlaps":0,"errors":0}}' "$CSV_HEADER" closest tri.obj
}

@test "ndjson: one result per line and nothing else" {
	write_balls_ndjson b.ndjson
	bcast closest --format ndjson tri.obj b.ndjson
	assert_status 0
	balls_expected | assert_stdout_eq
}

@test "csv: the header, vectors as _x _y _z columns, empty cells for missing vertices, error column last" {
	write_balls_ndjson b.ndjson
	printf '{"id":"bad","r":1}\n' >>b.ndjson
	bcast closest -q --format csv tri.obj b.ndjson
	assert_status 1
	{
		echo "$CSV_HEADER"
		echo 'above,2,0.25,0.25,0,0,0,face,0,1,2,0,0,1,true,1,0.5,0.25,0.25,'
		echo 'ca,5,0,0.5,0,0,0,edge,2,0,,-0.6,0,0.8,true,1,0.5,0,0.5,'
		echo 'a,5,0,0,0,0,0,vertex,0,,,-0.6,-0.8,0,false,0,1,0,0,'
		echo 'on-b,0,1,0,0,0,0,vertex,1,,,0,0,1,false,0,0,1,0,'
		echo 'bad,,,,,,,,,,,,,,,,,,,missing p'
	} | assert_stdout_eq
	for n in $(csv_columns stdout); do [ "$n" -eq 20 ]; done
}

@test "input: a JSON array, NDJSON and CSV (x,y,z,r) give the same answers" {
	write_balls_ndjson b.ndjson
	{ echo '['; sed '$!s/$/,/' b.ndjson; echo ']'; } >b.json
	cat >b.csv <<'EOF'
id,x,y,z,r
above,0.25,0.25,2,3
ca,-3,0.5,4,6
a,-3,-4,0,1
on-b,1,0,0,
EOF
	for f in b.json b.ndjson b.csv; do
		bcast closest -f csv tri.obj "$f"
		assert_status 0
		cp stdout "out.$f"
	done
	cmp out.b.json out.b.ndjson
	cmp out.b.json out.b.csv
}

@test "input: standard input with '-' or no argument; --input-format forces the reader" {
	write_balls_ndjson b.ndjson
	bcast closest -f ndjson tri.obj - <b.ndjson
	assert_status 0
	balls_expected | assert_stdout_eq
	bcast closest -f ndjson tri.obj <b.ndjson
	assert_status 0
	balls_expected | assert_stdout_eq
	bcast closest -f ndjson -i ndjson tri.obj b.ndjson
	assert_status 0
	balls_expected | assert_stdout_eq
	bcast closest -f ndjson -i csv tri.obj b.ndjson
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: b.ndjson:1:1: no known column in the CSV header'
}

@test "-o FILE: written there (format from the extension), nothing on stdout" {
	write_balls_ndjson b.ndjson
	bcast closest -o out.ndjson tri.obj b.ndjson
	assert_status 0
	assert_no_stdout
	balls_expected | assert_file_eq out.ndjson
	bcast closest -o out.csv tri.obj b.ndjson
	assert_status 0
	[ "$(head -n 1 out.csv)" = "$CSV_HEADER" ]
}

@test "--brute and any --threads give byte-identical output (3000 balls around the room)" {
	awk 'BEGIN { srand(5); for (i = 0; i < 3000; i++)
		printf "{\"id\":%d,\"p\":[%.6f,%.6f,%.6f],\"r\":%.3f}\n", i, rand() * 6 - 1, rand() * 4 - 1, rand() * 3 - 0.75, rand() * 0.5 }' >many.ndjson
	"$BALLCAST" closest -f csv -j 1 "$ROOM" many.ndjson >one.csv
	"$BALLCAST" closest -f csv -j 3 "$ROOM" many.ndjson >three.csv
	"$BALLCAST" closest -f csv --brute "$ROOM" many.ndjson >brute.csv
	[ "$(wc -l <one.csv)" -eq 3001 ]
	cmp one.csv three.csv
	cmp one.csv brute.csv
	# ids come back in input order
	[ "$(awk -F, 'NR > 1 && $1 != NR - 2' one.csv | wc -l)" -eq 0 ]
}

# ----------------------------------------------------------------- errors

@test "records: bad records get an error in place, the rest are answered, exit 1, one note each on stderr" {
	cat >b.ndjson <<'EOF'
{"id":1,"p":[0.25,0.25,2]}
{"id":2,"p0":[0,0,0]}
{"id":3,"p":[0,0,1],"r":-1}
{"id":4,"p":[0,0]}
{"id":5,"p":[0.25,0.25,-1]}
EOF
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 1
	{
		answer 1 2 0.25,0.25,0 0 0 face 0,1,2 0,0,1 false 0 0.5,0.25,0.25
		echo '{"id":2,"error":"missing p"}'
		echo '{"id":3,"error":"r: must not be negative"}'
		echo '{"id":4,"error":"p: expected an array of 3 numbers"}'
		answer 5 1 0.25,0.25,0 0 0 face 0,1,2 0,0,-1 false 0 0.5,0.25,0.25
	} | assert_stdout_eq
	{
		echo 'ballcast: b.ndjson:2:1: record 2: missing p'
		echo 'ballcast: b.ndjson:3:25: record 3: r: must not be negative'
		echo 'ballcast: b.ndjson:4:13: record 4: p: expected an array of 3 numbers'
	} | assert_stderr_eq
	bcast closest -q -f ndjson tri.obj b.ndjson
	assert_status 1
	assert_no_stderr
}

@test "records: a centre whose distance overflows a double is a record error; 1e300 away is answered" {
	printf '{"id":1,"p":[-1.7e308,-1.7e308,0]}\n{"id":2,"p":[1e300,0,0]}\n' >b.ndjson
	bcast closest -f ndjson tri.obj b.ndjson
	assert_status 1
	assert_line 1 '{"id":1,"error":"p is too far from the mesh: the distance overflows"}'
	# every vertex is 1e300 away to the last digit: the first, A
	assert_line 2 "$(answer 2 1e+300 0,0,0 0 0 vertex 0 1,0,0 false 0 1,0,0)"
	echo 'ballcast: b.ndjson:1:1: record 1: p is too far from the mesh: the distance overflows' | assert_stderr_eq
}

@test "syntax: an error in the balls is reported at its line and column, exit 2, nothing on stdout" {
	printf '[{"p":[0,0,1]},\n {"p":[0,0,1]]\n' >b.json
	bcast closest tri.obj b.json
	assert_status 2
	assert_no_stdout
	echo "ballcast: b.json:2:14: invalid JSON: unexpected ']' (expected ',' or '}' after a member)" | assert_stderr_eq
}

@test "syntax: a failed run leaves an existing -o file untouched" {
	echo keep >out.json
	printf '[{"p":[0,0,1]}' >b.json
	bcast closest -o out.json tri.obj b.json
	assert_status 2
	[ "$(cat out.json)" = keep ]
}

@test "mesh: missing, malformed, and made only of degenerate triangles: exit 2, nothing on stdout" {
	echo '{"p":[0,0,1]}' >b.ndjson
	bcast closest nothere.obj b.ndjson
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: nothere.obj: '
	printf 'v 0 0 0\nf 1 2 3\n' >bad.obj
	bcast closest bad.obj b.ndjson
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: bad.obj:2:5: '
	printf 'v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n' >line.obj
	bcast closest line.obj b.ndjson
	assert_status 2
	assert_no_stdout
	[ "$(sed -n 2p stderr)" = 'ballcast: line.obj: every triangle is degenerate (zero area): no point is closest' ]
}

@test "usage: unknown option, bad --radius, --threads, --format, missing MESH, too many arguments: exit 2" {
	for args in "--bogus tri.obj" "-r -1 tri.obj" "--radius nan tri.obj" "-j 0 tri.obj" "-f xml tri.obj" "" \
		"tri.obj a b" "-i yaml tri.obj"; do
		# shellcheck disable=SC2086
		bcast closest $args </dev/null
		assert_status 2
		assert_no_stdout
		[ "$(sed -n 2p stderr)" = 'usage: ballcast closest [OPTIONS] MESH.obj [BALLS]   (ballcast closest --help)' ]
	done
	bcast closest --bogus tri.obj
	[ "$(sed -n 1p stderr)" = "ballcast closest: unknown option '--bogus'" ]
	bcast closest -r -1 tri.obj
	[ "$(sed -n 1p stderr)" = "ballcast closest: --radius needs a finite number >= 0, not '-1'" ]
}

@test "--help: usage with examples on stdout, exit 0; listed in ballcast --help" {
	bcast closest --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast closest [OPTIONS] MESH.obj [BALLS]'
	grep -q '^examples:' stdout
	grep -q -- '--brute' stdout
	bcast --help
	assert_status 0
	grep -q '^  closest  *the closest point of a mesh to each ball$' stdout
}
