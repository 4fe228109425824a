#!/usr/bin/env bats
# `ballcast cast`: output formats, input formats, hand-computed answers on a
# one-triangle mesh, ids, polygons, number text, determinism and the samples.
# Failures and error handling are in errors.bats.

load helpers

setup() {
	common_setup
}

JSON_HEADER_TRI() {
	printf '{"ballcast":"%s","mesh":{"file":"tri.obj","vertices":3,"triangles":1,"faces":1,"degenerate":0},"settings":{"two_sided":false,"approach":"le","initial_overlap":"report","normal":"contact","tie_tolerance":1e-10},\n' "$VERSION"
}

CSV_HEADER='id,hit,alpha,initial_overlap,feature,triangle,face,vertex_0,vertex_1,vertex_2,point_x,point_y,point_z,center_x,center_y,center_z,normal_x,normal_y,normal_z,triangle_normal_x,triangle_normal_y,triangle_normal_z,error'

# assert_stdout_eq_noeol : like assert_stdout_eq, for expected text without its final new line.
assert_stdout_eq_noeol() {
	{ cat; echo; } | assert_stdout_eq
}

# one_throw P0 P1 R [ID] : a one-record NDJSON input in t1.ndjson.
one_throw() {
	printf '{"id":"%s","p0":[%s],"p1":[%s],"r":%s}\n' "${4:-t}" "$1" "$2" "$3" >t1.ndjson
}

# ------------------------------------------------------------ output formats

@test "json: the document is {ballcast,mesh,settings} then one result per line then summary" {
	write_three_json t.json
	bcast cast tri.obj t.json
	assert_status 0
	assert_no_stderr
	{
		JSON_HEADER_TRI
		echo '"results":['
		hit_front '"front"'; echo ','
		miss '"back"'; echo ','
		hit_edge_inplane '"inplane"'; echo
		echo '],'
		echo '"summary":{"records":3,"hits":2,"errors":0}}'
	} | assert_stdout_eq
}

@test "json: settings echo --two-sided, --approach, --initial-overlap and --normal" {
	write_three_json t.json
	bcast cast --two-sided --approach lt --initial-overlap ignore --normal triangle tri.obj t.json
	assert_status 0
	assert_line 1 "{\"ballcast\":\"$VERSION\",\"mesh\":{\"file\":\"tri.obj\",\"vertices\":3,\"triangles\":1,\"faces\":1,\"degenerate\":0},\"settings\":{\"two_sided\":true,\"approach\":\"lt\",\"initial_overlap\":\"ignore\",\"normal\":\"triangle\",\"tie_tolerance\":1e-10},"
}

@test "json: an empty array gives an empty results list and a zero summary" {
	echo '[]' >empty.json
	bcast cast tri.obj empty.json
	assert_status 0
	{
		JSON_HEADER_TRI
		echo '"results":[],'
		echo '"summary":{"records":0,"hits":0,"errors":0}}'
	} | assert_stdout_eq
}

@test "empty input is an empty batch: every input format, standard input and a pipe; exit 0 (issue 22)" {
	expect_empty_batch "$(JSON_HEADER_TRI)"'
"results":[],
"summary":{"records":0,"hits":0,"errors":0}}' "$CSV_HEADER" cast tri.obj
	# what the run's options add is there too: the tie list, exact_alpha
	bcast cast --ties -f csv tri.obj - </dev/null
	assert_status 0
	echo "$CSV_HEADER,ties" | assert_stdout_eq
	bcast cast --method discrete --dt 0.5 --compare-exact tri.obj - </dev/null
	assert_status 0
	assert_line 3 '"summary":{"records":0,"hits":0,"errors":0,"tunnelled":0}}'
}

@test "ndjson: one result object per line, no wrapper, no summary" {
	write_three_json t.json
	bcast cast --format ndjson tri.obj t.json
	assert_status 0
	assert_no_stderr
	three_ndjson_expected | assert_stdout_eq
}

@test "csv: the header row and the values of hit and miss rows" {
	write_three_json t.json
	bcast cast --format csv tri.obj t.json
	assert_status 0
	assert_line_count 4
	assert_line 1 "$CSV_HEADER"
	assert_line 2 'front,true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,'
	# an edge has two vertices: vertex_2 is empty
	assert_line 4 'inplane,true,0.375,false,edge,0,0,0,1,,0.5,0,0,0.5,-0.5,0,0,-1,0,0,0,1,'
	[ "$(csv_cell stdout 3 1)" = back ]
	[ "$(csv_cell stdout 3 2)" = false ]
	[ "$(csv_cell stdout 3 3)" = 1 ]
}

@test "csv: hit rows have exactly as many columns as the header" {
	write_three_json t.json
	bcast cast --format csv tri.obj t.json
	assert_status 0
	[ "$(csv_columns stdout | sed -n 1p)" -eq 23 ]
	[ "$(csv_columns stdout | sed -n 2p)" -eq 23 ]
	[ "$(csv_columns stdout | sed -n 4p)" -eq 23 ]
}

@test "csv: a miss row has as many columns as the header and an empty error cell" {
	one_throw '0.25,0.25,-2' '0.25,0.25,2' 0.5 back
	bcast cast --format csv tri.obj t1.ndjson
	assert_status 0
	assert_line 1 "$CSV_HEADER"
	# id, hit=false, alpha=1, then 20 empty cells (initial_overlap .. error)
	assert_line 2 'back,false,1,,,,,,,,,,,,,,,,,,,,'
	[ "$(csv_columns stdout | sed -n 2p)" -eq 23 ]
}

@test "csv: an error row has as many columns as the header and the message in the error column" {
	printf '{"id":"bad","p0":[0.25,0.25,2],"r":0.5}\n' >bad.ndjson
	bcast cast --format csv tri.obj bad.ndjson
	assert_status 1
	assert_line 1 "$CSV_HEADER"
	# id, 21 empty cells (hit .. triangle_normal_z), then error (column 23)
	assert_line 2 'bad,,,,,,,,,,,,,,,,,,,,,,missing p1'
	[ "$(csv_columns stdout | sed -n 2p)" -eq 23 ]
	[ "$(csv_cell stdout 2 23)" = 'missing p1' ]
}

@test "csv --ties: the header gains a ties column and every row has its column count" {
	cat >t.ndjson <<'EOF'
{"id":"hit","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"miss","p0":[0.25,0.25,-2],"p1":[0.25,0.25,2],"r":0.5}
{"id":"err","p0":[0.25,0.25,2],"r":0.5}
EOF
	bcast cast --ties --format csv tri.obj t.ndjson
	assert_status 1
	assert_line 1 "$CSV_HEADER,ties"
	assert_line 2 'hit,true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,,0:face'
	csv_columns stdout | awk 'NR > 1 && $1 != 24 { print "row " NR " has " $1 " columns, the header 24"; bad = 1 } END { exit bad }'
}

@test "csv: ids with a comma or a quote are quoted CSV cells" {
	cat >t.ndjson <<'EOF'
{"id":"x,y","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"q\"q","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
EOF
	bcast cast --format csv tri.obj t.ndjson
	assert_status 0
	assert_line 2 '"x,y",true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,'
	assert_line 3 '"q""q",true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,'
}

@test "-o FILE: the format follows the extension .json .ndjson .jsonl .csv (json otherwise)" {
	write_three_json t.json
	bcast cast -o out.csv tri.obj t.json
	assert_status 0
	assert_no_stdout
	[ "$(sed -n 1p out.csv)" = "$CSV_HEADER" ]
	[ "$(wc -l <out.csv)" -eq 4 ]

	bcast cast -o out.ndjson tri.obj t.json
	assert_status 0
	assert_no_stdout
	three_ndjson_expected | assert_file_eq out.ndjson

	bcast cast -o out.jsonl tri.obj t.json
	assert_status 0
	three_ndjson_expected | assert_file_eq out.jsonl

	bcast cast -o out.json tri.obj t.json
	assert_status 0
	bcast cast tri.obj t.json
	cmp stdout out.json

	bcast cast -o out.txt tri.obj t.json
	assert_status 0
	cmp out.json out.txt
}

@test "-o FILE: --format wins over the extension" {
	write_three_json t.json
	bcast cast -o out.json --format csv tri.obj t.json
	assert_status 0
	[ "$(sed -n 1p out.json)" = "$CSV_HEADER" ]

	bcast cast --format ndjson -o out.csv tri.obj t.json
	assert_status 0
	three_ndjson_expected | assert_file_eq out.csv
}

@test "-o -: writes to standard output" {
	write_three_json t.json
	bcast cast -o - --format ndjson tri.obj t.json
	assert_status 0
	three_ndjson_expected | assert_stdout_eq
	[ ! -e ./- ]
}

# ------------------------------------------------------------- input formats

@test "input: a JSON array, NDJSON and CSV give the same answers for the same throws" {
	write_three_json t.json
	write_three_ndjson t.ndjson
	write_three_csv t.csv
	for f in t.json t.ndjson t.csv; do
		bcast cast --format ndjson tri.obj "$f"
		assert_status 0
		three_ndjson_expected | assert_stdout_eq
	done
}

@test "input: CSV with a radius column, CRLF line ends and no id column" {
	printf 'x0,y0,z0,x1,y1,z1,radius\r\n0.25,0.25,2,0.25,0.25,-2,0.5\r\n0.25,0.25,-2,0.25,0.25,2,0.5\r\n' >t.csv
	bcast cast --format ndjson tri.obj t.csv
	assert_status 0
	{ hit_front 0; echo; miss 1; echo; } | assert_stdout_eq
}

@test "input: --input-format forces the reader (json on NDJSON fails at 1:1; ndjson, jsonl, csv, json accepted)" {
	write_three_json t.json
	write_three_ndjson t.ndjson
	write_three_csv t.csv
	bcast cast --input-format json tri.obj t.ndjson
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: t.ndjson:1:1: "

	bcast cast -i csv tri.obj t.json
	assert_status 2
	assert_stderr_line_prefix "ballcast: t.json:1:1: "

	for pair in json:t.json ndjson:t.ndjson jsonl:t.ndjson csv:t.csv auto:t.csv; do
		bcast cast --format ndjson --input-format "${pair%%:*}" tri.obj "${pair#*:}"
		assert_status 0
		three_ndjson_expected | assert_stdout_eq
	done
}

@test "input: '-' reads standard input" {
	write_three_json t.json
	bcast cast --format ndjson tri.obj - <t.json
	assert_status 0
	three_ndjson_expected | assert_stdout_eq
}

@test "input: no trajectory argument reads standard input (CSV too)" {
	write_three_csv t.csv
	bcast cast --format ndjson tri.obj <t.csv
	assert_status 0
	three_ndjson_expected | assert_stdout_eq
}

# ------------------------------------------------ hand-computed answers (CLI)

@test "answer: face hit from the front, alpha 0.375, point, center and normal" {
	one_throw '0.25,0.25,2' '0.25,0.25,-2' 0.5 front
	bcast cast --format ndjson tri.obj t1.ndjson
	assert_status 0
	hit_front '"front"' | assert_stdout_eq_noeol
}

@test "answer: from behind is a miss (alpha 1) when one-sided" {
	one_throw '0.25,0.25,-2' '0.25,0.25,2' 0.5 back
	bcast cast --format ndjson tri.obj t1.ndjson
	assert_status 0
	miss '"back"' | assert_stdout_eq_noeol
}

@test "answer: --two-sided hits from behind at alpha 0.375 with normal [0,0,-1]" {
	one_throw '0.25,0.25,-2' '0.25,0.25,2' 0.5 back
	bcast cast --two-sided --format ndjson tri.obj t1.ndjson
	assert_status 0
	echo '{"id":"back","hit":true,"alpha":0.375,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,-0.5],"normal":[0,0,-1],"triangle_normal":[0,0,1]}' |
		assert_stdout_eq
}

@test "answer: --normal triangle puts the triangle normal in \"normal\"" {
	one_throw '0.5,-2,0' '0.5,2,0' 0.5 inplane
	bcast cast --normal triangle --format ndjson tri.obj t1.ndjson
	assert_status 0
	echo '{"id":"inplane","hit":true,"alpha":0.375,"initial_overlap":false,"feature":"edge","triangle":0,"face":0,"vertices":[0,1],"point":[0.5,0,0],"center":[0.5,-0.5,0],"normal":[0,0,1],"triangle_normal":[0,0,1]}' |
		assert_stdout_eq
	one_throw '0.25,0.25,-2' '0.25,0.25,2' 0.5 back
	bcast cast --two-sided --normal triangle --format ndjson tri.obj t1.ndjson
	assert_status 0
	assert_contains "$out" '"center":[0.25,0.25,-0.5],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
}

@test "answer: in-plane motion is an edge hit (alpha 0.375, vertices [0,1]) with le and a miss with --approach lt" {
	one_throw '0.5,-2,0' '0.5,2,0' 0.5 inplane
	bcast cast --format ndjson tri.obj t1.ndjson
	assert_status 0
	hit_edge_inplane '"inplane"' | assert_stdout_eq_noeol
	bcast cast --approach le --format ndjson tri.obj t1.ndjson
	hit_edge_inplane '"inplane"' | assert_stdout_eq_noeol
	bcast cast --approach lt --format ndjson tri.obj t1.ndjson
	assert_status 0
	miss '"inplane"' | assert_stdout_eq_noeol
}

@test "answer: a ball overlapping at the start is a hit at alpha 0 (report) or skipped (--initial-overlap ignore)" {
	one_throw '0.25,0.25,0.25' '0.25,0.25,-2' 0.5 over
	bcast cast --format ndjson tri.obj t1.ndjson
	assert_status 0
	echo '{"id":"over","hit":true,"alpha":0,"initial_overlap":true,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0.25],"normal":[0,0,1],"triangle_normal":[0,0,1]}' |
		assert_stdout_eq
	bcast cast --initial-overlap ignore --format ndjson tri.obj t1.ndjson
	assert_status 0
	miss '"over"' | assert_stdout_eq_noeol
}

@test "answer: r = 0 is a point: hit at alpha 0.5, point = center, normal against the motion" {
	one_throw '0.25,0.25,2' '0.25,0.25,-2' 0 point
	bcast cast --format ndjson tri.obj t1.ndjson
	assert_status 0
	echo '{"id":"point","hit":true,"alpha":0.5,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0],"normal":[0,0,1],"triangle_normal":[0,0,1]}' |
		assert_stdout_eq
}

@test "answer: a zero-length trajectory misses when clear and is an initial overlap when touching" {
	cat >t.ndjson <<'EOF'
{"id":"clear","p0":[0.25,0.25,1],"p1":[0.25,0.25,1],"r":0.5}
{"id":"touch","p0":[0.25,0.25,0.25],"p1":[0.25,0.25,0.25],"r":0.5}
EOF
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 0
	{
		miss '"clear"'; echo
		echo '{"id":"touch","hit":true,"alpha":0,"initial_overlap":true,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0.25],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
	} | assert_stdout_eq
}

@test "answer: --radius is used only for records without r; a record's own r wins; \"radius\" is accepted" {
	cat >t.ndjson <<'EOF'
{"id":"none","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2]}
{"id":"own","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"radius","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"radius":1}
EOF
	bcast cast --radius 1.5 --format ndjson tri.obj t.ndjson
	assert_status 0
	assert_no_stderr
	assert_line 1 '{"id":"none","hit":true,"alpha":0.125,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,1.5],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
	assert_line 2 "$(hit_front '"own"')"
	assert_line 3 '{"id":"radius","hit":true,"alpha":0.25,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,1],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
	# -r is the short form
	bcast cast -r 1.5 --format ndjson tri.obj t.ndjson
	assert_line 1 '{"id":"none","hit":true,"alpha":0.125,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,1.5],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
}

# ----------------------------------------------------------------------- ids

@test "ids: string ids with escapes are echoed as JSON strings" {
	cat >t.ndjson <<'EOF'
{"id":"a\"b","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"back\\slash\ttab\u00e9\u0001","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"\/","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
EOF
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 0
	assert_line 1 "$(hit_front '"a\"b"')"
	assert_line 2 "$(hit_front '"back\\slash\ttab'$'\xc3\xa9''\u0001"')"
	assert_line 3 "$(hit_front '"/"')"
}

@test "ids: a string id holding \\u0000 is a record error, never echoed cut short" {
	cat >t.ndjson <<'EOF'
{"id":"a\u0000b","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"ok","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
EOF
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 1
	assert_line 1 '{"id":0,"error":"id: contains \\u0000, which cannot be echoed"}'
	assert_line 2 "$(hit_front '"ok"')"
}

@test "ids: numeric ids 7.50 and 12345678901234567890 are printed exactly as written" {
	cat >t.json <<'EOF'
[{"id":7.50,"p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5},
 {"id":12345678901234567890,"p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5},
 {"id":-0.0e+1,"p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}]
EOF
	bcast cast --format ndjson tri.obj t.json
	assert_status 0
	assert_line 1 "$(hit_front 7.50)"
	assert_line 2 "$(hit_front 12345678901234567890)"
	assert_line 3 "$(hit_front -0.0e+1)"
	bcast cast --format csv tri.obj t.json
	[ "$(csv_cell stdout 2 1)" = 7.50 ]
	[ "$(csv_cell stdout 3 1)" = 12345678901234567890 ]
}

@test "ids: a record without an id gets its 0-based record number" {
	cat >t.ndjson <<'EOF'
{"id":"first","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"p0":[0.25,0.25,-2],"p1":[0.25,0.25,2],"r":0.5}
{"p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
EOF
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 0
	{ hit_front '"first"'; echo; miss 1; echo; hit_front 2; echo; } | assert_stdout_eq
	bcast cast --format csv tri.obj t.ndjson
	[ "$(csv_cell stdout 3 1)" = 1 ]
	[ "$(csv_cell stdout 4 1)" = 2 ]
}

@test "ids: output order is input order across chunks and threads (20000 records, 5 chunks, -j 4)" {
	awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++)
		printf "{\"id\":%d,\"p0\":[%.5f,%.5f,%.5f],\"p1\":[%.5f,%.5f,%.5f],\"r\":%.3f}\n", 19999 - i,
			rand() * 8, rand() * 6, rand() * 3, rand() * 8, rand() * 6, rand() * 3, rand() * 0.3 }' >many.ndjson
	bcast cast -j 4 --batch 4096 --format ndjson "$ROOM" many.ndjson
	assert_status 0
	assert_line_count 20000
	sed -n 's/^{"id":\([0-9]*\),.*/\1/p' stdout |
		awk '$1 != 20000 - NR { print "line " NR ": id " $1 ", expected " 20000 - NR; bad = 1; exit } END { if (NR != 20000) bad = 1; exit bad }'
}

# A plane of 64 x 64 unit squares (8192 triangles), z = 0, front +z.
write_grid_obj() {
	awk 'BEGIN { for (j = 0; j <= 64; j++) for (i = 0; i <= 64; i++) print "v " i " " j " 0"
		for (j = 0; j < 64; j++) for (i = 0; i < 64; i++) { a = j * 65 + i + 1
			print "f " a " " a + 1 " " a + 66; print "f " a " " a + 66 " " a + 65 } }' >"$1"
}

@test "space order: answers of shuffled records (4 chunks, ties, bad records) are each record's own, in input order" {
	write_grid_obj grid.obj
	# Balls dropped straight down at x, y on a 1/8 grid over and around the
	# plane: hits, misses, ties on the edges and vertices the grid lines
	# meet (x or y whole), and every 97th record bad in one of three ways.
	# ids number the records in order; the input is the same records
	# shuffled, so that input order, space order and id order all differ.
	awk 'BEGIN { srand(14); for (i = 0; i < 30000; i++) {
		x = int(rand() * 576) / 8 - 4; y = int(rand() * 576) / 8 - 4; r = 2 ^ -int(1 + rand() * 3)
		if (i % 97 == 0) {
			k = (i / 97) % 3
			if (k == 0) printf "%d {\"id\":%d,\"p0\":[%g,%g,2],\"r\":%g}\n", rand() * 1e9, i, x, y, r
			if (k == 1) printf "%d {\"id\":%d,\"p0\":[%g,%g,2],\"p1\":[%g,%g,-2],\"r\":-1}\n", rand() * 1e9, i, x, y, x, y
			if (k == 2) printf "%d {\"id\":%d,\"p0\":[%g,%g,1e60],\"p1\":[%g,%g,-2],\"r\":%g}\n", rand() * 1e9, i, x, y, x, y, r
		} else {
			printf "%d {\"id\":%d,\"p0\":[%g,%g,2],\"p1\":[%g,%g,-2],\"r\":%g}\n", rand() * 1e9, i, x, y, x, y, r
		} } }' >keyed
	sort -n keyed | sed 's/^[0-9]* //' >shuffled.ndjson
	sort -n -t : -k 2 keyed | sed 's/^[0-9]* //' >sorted.ndjson
	sed -n 's/^{"id":\([0-9]*\),.*/\1/p' sorted.ndjson | awk '$1 != NR - 1 { exit 1 }'

	# Each hit is its own record's: the centre at contact is right below its p0.
	bcast cast -j 2 --batch 8192 --ties -f ndjson grid.obj shuffled.ndjson
	assert_status 1
	assert_line_count 30000
	cp stdout shuffled.out
	awk 'NR == FNR { split($0, f, /[][,]/); start[NR] = f[3] "," f[4] ","; next }
		{ if (!match($0, /"center":\[[^]]*\]/)) { if (/"hit":true/) { print "line " FNR ": no centre"; exit 1 }; next }
		  c = substr($0, RSTART + 10, RLENGTH - 10); hits++
		  if (index(c, start[FNR]) != 1) { print "line " FNR ": centre " c " not below " start[FNR]; exit 1 } }
		END { if (hits < 10000) { print "only " hits " hits"; exit 1 } }' shuffled.ndjson shuffled.out
	grep -q '"ties":.*"feature":"vertex"' shuffled.out # some hits tie at a vertex of six triangles
	[ "$(grep -c '"error"' shuffled.out)" -eq 310 ]

	# Every answer, ties and errors too, is the one the same record gets
	# in another order and with one thread: sorted by id, the outputs match.
	bcast cast -j 1 --batch 8192 --ties -f ndjson grid.obj sorted.ndjson
	assert_status 1
	sort -n -t : -k 2 shuffled.out | cmp - stdout
	bcast cast -j 2 --batch 8192 --ties -f ndjson grid.obj sorted.ndjson
	sort -n -t : -k 2 shuffled.out | cmp - stdout
}

@test "--batch: the output is the same byte for byte whatever the batch (1, 7, 256, 4099, the default), threads and format" {
	write_grid_obj grid.obj
	# balls dropped on the grid at random spots, some on its edges and
	# vertices (ties), some beside it (misses), every 50th record bad
	awk 'BEGIN { srand(5); for (i = 0; i < 9000; i++) {
		x = int(rand() * 576) / 8 - 4; y = int(rand() * 576) / 8 - 4; r = 2 ^ -int(1 + rand() * 3)
		if (i % 50 == 0) printf "{\"id\":%d,\"p0\":[%g,%g,2],\"r\":%g}\n", i, x, y, r
		else printf "{\"id\":%d,\"p0\":[%g,%g,2],\"p1\":[%g,%g,-2],\"r\":%g}\n", i, x, y, x, y, r } }' >t.ndjson
	bcast cast -j 1 --ties -f ndjson grid.obj t.ndjson
	assert_status 1
	cp stdout expected.ndjson
	[ "$(grep -c '"hit":true' expected.ndjson)" -gt 4000 ]
	[ "$(grep -c '"error"' expected.ndjson)" -eq 180 ]
	for batch in 1 7 256 4099; do
		for j in 1 2; do
			bcast cast -j "$j" --batch "$batch" --ties -f ndjson grid.obj t.ndjson
			assert_status 1
			cmp stdout expected.ndjson || { echo "--batch $batch -j $j differs"; return 1; }
		done
	done
	# a JSON document and CSV too, against the default batch
	bcast cast -j 2 -f csv grid.obj t.ndjson
	cp stdout expected.csv
	bcast cast -j 2 --batch 33 -f csv grid.obj t.ndjson
	cmp stdout expected.csv
	bcast cast -j 2 -o default.json grid.obj t.ndjson
	bcast cast -j 2 --batch 1000 -o small.json grid.obj t.ndjson
	cmp default.json small.json
}

@test "--batch: a usage error below 1, above 1048576 or not a whole number" {
	for bad in 0 -3 1048577 2.5 x ''; do
		bcast cast --batch "$bad" tri.obj /dev/null
		assert_status 2
		grep -q "^ballcast cast: --batch needs a whole number of records from 1 to 1048576, not '$bad'" stderr ||
			{ cat stderr; return 1; }
	done
}

# -------------------------------------------------- polygons, relative indices

@test "polygons: a quad with relative indices gives two fan triangles; face is the f-line index" {
	cat >quad.obj <<'EOF'
# face 0: a small triangle far away; face 1: the unit square z = 0
v -5 -5 5
v -4 -5 5
v -5 -4 5
f 1 2 3
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
f -4 -3 -2 -1
EOF
	cat >t.ndjson <<'EOF'
{"id":"lower","p0":[0.75,0.25,1],"p1":[0.75,0.25,-1],"r":0}
{"id":"upper","p0":[0.25,0.75,1],"p1":[0.25,0.75,-1],"r":0}
EOF
	bcast cast quad.obj t.ndjson
	assert_status 0
	{
		printf '{"ballcast":"%s","mesh":{"file":"quad.obj","vertices":7,"triangles":3,"faces":2,"degenerate":0},"settings":{"two_sided":false,"approach":"le","initial_overlap":"report","normal":"contact","tie_tolerance":1e-10},\n' "$VERSION"
		echo '"results":['
		echo '{"id":"lower","hit":true,"alpha":0.5,"initial_overlap":false,"feature":"face","triangle":1,"face":1,"vertices":[3,4,5],"point":[0.75,0.25,0],"center":[0.75,0.25,0],"normal":[0,0,1],"triangle_normal":[0,0,1]},'
		echo '{"id":"upper","hit":true,"alpha":0.5,"initial_overlap":false,"feature":"face","triangle":2,"face":1,"vertices":[3,5,6],"point":[0.25,0.75,0],"center":[0.25,0.75,0],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
		echo '],'
		echo '"summary":{"records":2,"hits":2,"errors":0}}'
	} | assert_stdout_eq
}

# ------------------------------------------------------------ number text

@test "numbers: printed as the shortest text that reads back (0.375, 0.5833333333333334, 0.3333333333333333, 1e-07)" {
	cat >t.ndjson <<'EOF'
{"id":"a","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"b","p0":[0.25,0.25,2],"p1":[0.25,0.25,-1],"r":0.25}
{"id":"c","p0":[1e-7,0.25,1],"p1":[1e-7,0.25,-2],"r":0}
EOF
	bcast cast --format csv tri.obj t.ndjson
	assert_status 0
	assert_line 2 'a,true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,'
	assert_line 3 'b,true,0.5833333333333334,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.25,0,0,1,0,0,1,'
	assert_line 4 'c,true,0.3333333333333333,false,face,0,0,0,1,2,1e-07,0.25,0,1e-07,0.25,0,0,0,1,0,0,1,'
}

# ---------------------------------------------------------------- determinism

@test "determinism: -j 1, -j 4 and --brute give byte-identical output on 5000 random throws" {
	gen_throws 5000 12345 >throws.json
	bcast cast -j 1 "$ROOM" throws.json
	assert_status 0
	mv stdout j1.json
	# the batch is not trivial: hits of every feature kind, and misses
	grep -q '"feature":"face"' j1.json
	grep -q '"feature":"edge"' j1.json
	grep -q '"feature":"vertex"' j1.json
	grep -q '"hit":false' j1.json
	bcast cast -j 4 "$ROOM" throws.json
	assert_status 0
	cmp j1.json stdout
	bcast cast --brute -j 3 "$ROOM" throws.json
	assert_status 0
	cmp j1.json stdout
}

@test "determinism: -j 1 and -j 4 --brute agree with --two-sided --ties in CSV" {
	gen_throws 3000 777 >throws.json
	bcast cast -j 1 --two-sided --ties --format csv "$ROOM" throws.json
	assert_status 0
	mv stdout j1.csv
	bcast cast -j 4 --brute --two-sided --ties --format csv "$ROOM" throws.json
	assert_status 0
	cmp j1.csv stdout
}

# ----------------------------------------------------------------- samples

@test "samples: cast room.obj throws.json equals samples/expected.json byte for byte" {
	[ -f "$REPO/samples/expected.json" ] || {
		echo "samples/expected.json is missing"
		return 1
	}
	cd "$REPO"
	"$BALLCAST" cast samples/room.obj samples/throws.json >"$BATS_TEST_TMPDIR/stdout" && status=0 || status=$?
	assert_status 0
	cmp samples/expected.json "$BATS_TEST_TMPDIR/stdout"
}

@test "samples: cast --format csv room.obj throws.json equals samples/expected.csv byte for byte" {
	[ -f "$REPO/samples/expected.csv" ] || {
		echo "samples/expected.csv is missing"
		return 1
	}
	cd "$REPO"
	"$BALLCAST" cast --format csv samples/room.obj samples/throws.json >"$BATS_TEST_TMPDIR/stdout" && status=0 || status=$?
	assert_status 0
	cmp samples/expected.csv "$BATS_TEST_TMPDIR/stdout"
}

# ------------------------------------------------------------- streaming

# many_ndjson N FILE : N throws at the one-triangle mesh, one per line, ids
# 0 .. N-1, alternately hits and misses.
many_ndjson() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"id\":%d,\"p0\":[0.25,0.25,%d],\"p1\":[0.25,0.25,%d],\"r\":0.5}\n", i,
			(i % 2 ? -2 : 2), (i % 2 ? 2 : -2) }' >"$2"
}

# start_filter ARGS... : run ballcast ARGS in the background reading the FIFO
# in.fifo and writing the FIFO out.fifo (stderr to the file filter.err);
# $filter is its pid, fd $to writes its input, fd $from reads its output.
# (FIFOs rather than a coproc: bash closes a coproc's pipes when it exits.)
start_filter() {
	rm -f in.fifo out.fifo
	mkfifo in.fifo out.fifo
	${BALLCAST_WRAPPER:-} "$BALLCAST" "$@" <in.fifo >out.fifo 2>filter.err &
	filter=$!
	exec {to}>in.fifo {from}<out.fifo
}

# expect_answer TEXT : the filter's next line of output, within 20 s, is TEXT.
expect_answer() {
	local line=""
	read -t 20 -r line <&"$from" || { echo "no answer within 20 s (the input is still open)"; kill "$filter"; return 1; }
	[ "$line" = "$1" ] || { echo "expected: $1"; echo "got:      $line"; return 1; }
}

@test "streaming: NDJSON through a pipe gets each answer before the next record is written (-j 1, 2, 4)" {
	for j in 1 2 4; do
		start_filter cast -j "$j" --format ndjson tri.obj -
		echo '{"id":"first","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}' >&"$to"
		expect_answer "$(hit_front '"first"')"
		echo '{"id":"second","p0":[0.25,0.25,-2],"p1":[0.25,0.25,2],"r":0.5}' >&"$to"
		expect_answer "$(miss '"second"')"
		printf '{"id":"third","p0":[0.5,-2,0],"p1":[0.5,2,0],"r":0.5}\n' >&"$to"
		exec {to}>&-
		expect_answer "$(hit_edge_inplane '"third"')"
		wait "$filter" && status=0 || status=$?
		exec {from}<&-
		assert_status 0
		[ ! -s filter.err ] || { cat filter.err; return 1; }
	done
}

@test "streaming: CSV from CSV through a pipe: the header comes with the first answer" {
	start_filter cast --format csv tri.obj -
	printf 'id,x0,y0,z0,x1,y1,z1,r\nfront,0.25,0.25,2,0.25,0.25,-2,0.5\n' >&"$to"
	expect_answer "$CSV_HEADER"
	expect_answer 'front,true,0.375,false,face,0,0,0,1,2,0.25,0.25,0,0.25,0.25,0.5,0,0,1,0,0,1,'
	exec {to}>&-
	wait "$filter" && status=0 || status=$?
	exec {from}<&-
	assert_status 0
}

@test "streaming: NDJSON and CSV output is the same into a pipe, a file and -o, for -j 1, 2, 4 and every input format" {
	gen_throws 20000 4242 >t.json
	# the same throws as NDJSON and as CSV
	sed -n 's/^,\{0,1\}\({.*}\)$/\1/p' t.json >t.ndjson
	{
		echo 'id,x0,y0,z0,x1,y1,z1,r'
		sed -n 's/^,\{0,1\}{"id":\([0-9]*\),"p0":\[\([^]]*\)\],"p1":\[\([^]]*\)\],"r":\([^}]*\)}$/\1,\2,\3,\4/p' t.json
	} >t.csv
	[ "$(wc -l <t.ndjson)" -eq 20000 ] && [ "$(wc -l <t.csv)" -eq 20001 ]
	for format in ndjson csv; do
		"$BALLCAST" cast -j 1 --format "$format" "$ROOM" t.json >expected.$format
		[ "$(wc -l <expected.$format)" -ge 20000 ]
		for j in 1 2 4; do
			for input in t.json t.ndjson t.csv; do
				"$BALLCAST" cast -j "$j" --format "$format" "$ROOM" "$input" | cat >piped
				cmp expected.$format piped
				"$BALLCAST" cast -j "$j" --format "$format" "$ROOM" - <"$input" >file
				cmp expected.$format file
				"$BALLCAST" cast -j "$j" --format "$format" -o out.$format "$ROOM" "$input"
				cmp expected.$format out.$format
			done
		done
	done
}

@test "streaming: a malformed NDJSON line after answers were streamed is one bad record; the stream goes on" {
	many_ndjson 20000 t.ndjson
	"$BALLCAST" cast --format ndjson tri.obj t.ndjson >all.ndjson
	echo '{"id":"bad","p0":[0.25,0.25,2] "p1":[0.25,0.25,-2],"r":0.5}' >>t.ndjson
	many_ndjson 5 tail.ndjson
	cat tail.ndjson >>t.ndjson
	"$BALLCAST" cast --format ndjson tri.obj tail.ndjson | sed 's/"id":\([0-4]\)/"id":2000\1/' >tail.out
	for j in 1 2; do
		bcast cast -j "$j" --format ndjson tri.obj t.ndjson
		assert_status 1
		echo "ballcast: t.ndjson:20001:32: record 20001: invalid JSON: unexpected '\"' (expected ',' or '}' after a member)" |
			assert_stderr_eq
		# every line answered, in order: the bad one in its place, with its id
		[ "$(wc -l <stdout)" -eq 20006 ]
		head -n 20000 stdout | cmp - all.ndjson
		sed -n 20001p stdout >bad.line
		cat >expected.line <<'EOF'
{"id":"bad","error":"invalid JSON: unexpected '\"' (expected ',' or '}' after a member)"}
EOF
		cmp bad.line expected.line
		tail -n 5 stdout | sed 's/"id":\([0-4]\)/"id":2000\1/' | cmp - tail.out
	done
}

@test "streaming: an input error after answers were streamed: exit 2, the answers before it stay, in order" {
	# a CSV row longer than 16 MiB (an unclosed quote) loses the rows' boundaries: the run stops there
	awk 'BEGIN { print "id,x0,y0,z0,x1,y1,z1,r"
		for (i = 0; i < 20000; i++) printf "%d,0.25,0.25,2,0.25,0.25,-2,0.5\n", i
		printf "\"open"; for (i = 0; i < 1700000; i++) printf "0123456789"; print "" }' >t.csv
	for j in 1 2; do
		bcast cast -j "$j" --batch 8192 --format ndjson tri.obj t.csv
		assert_status 2
		echo 'ballcast: t.csv:20002:1: CSV row longer than 16777216 bytes (an unclosed quote?)' | assert_stderr_eq
		# some answers went out, all of them right and in order, none past the error
		[ -s stdout ] || { echo "-j $j: nothing was streamed"; return 1; }
		[ "$(wc -l <stdout)" -le 20000 ]
		[ "$(head -n 1 stdout)" = "$(hit_front 0)" ]
		[ "$(tail -n 1 stdout | grep -c '"hit":true')" -eq 1 ]
	done
}

@test "streaming: JSON-array input or JSON output is staged: a late syntax error leaves stdout empty" {
	gen_throws 20000 99 >t.json
	# the array loses its closing bracket: the error is at the very end
	sed '$d' t.json >cut.json
	bcast cast --format ndjson "$ROOM" cut.json
	assert_status 2
	assert_no_stdout
	echo "ballcast: cut.json:20002:1: unexpected end of input: expected ',' or ']'" | assert_stderr_eq
	# NDJSON in, JSON out: a bad last line is a bad record, and the document is whole
	many_ndjson 20000 t.ndjson
	echo 'xyz' >>t.ndjson
	bcast cast tri.obj t.ndjson
	assert_status 1
	echo "ballcast: t.ndjson:20001:1: record 20001: invalid JSON value 'xyz'" | assert_stderr_eq
	[ "$(tail -n 3 stdout | head -n 1)" = '{"id":20000,"error":"invalid JSON value '"'xyz'"'"}' ]
	[ "$(tail -n 1 stdout)" = '"summary":{"records":20001,"hits":10000,"errors":1}}' ]
}

@test "streaming: bad records are answered in place and reported into a pipe; the exit status is 1" {
	many_ndjson 10000 t.ndjson
	printf '{"id":"nop1","p0":[0.25,0.25,2],"r":0.5}\n' >>t.ndjson
	many_ndjson 3 tail.ndjson
	cat tail.ndjson >>t.ndjson
	"$BALLCAST" cast --format ndjson tri.obj t.ndjson 2>stderr | cat >stdout
	status=${PIPESTATUS[0]}
	assert_status 1
	[ "$(wc -l <stdout)" -eq 10004 ]
	[ "$(sed -n 10001p stdout)" = '{"id":"nop1","error":"missing p1"}' ]
	echo 'ballcast: t.ndjson:10001:1: record 10001: missing p1' | assert_stderr_eq
}
