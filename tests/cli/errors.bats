#!/usr/bin/env bats
# `ballcast cast` failures: whole-run errors (exit 2, nothing on stdout, one
# "ballcast: FILE:LINE:COLUMN: ..." line on stderr), usage errors, per-record
# errors (exit 1, every other record still answered), degenerate triangles,
# and how the output is written (temporary file, write errors, closed pipes).

load helpers

setup() {
	common_setup
	echo '[{"id":"ok","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}]' >one.json
}

# expect_trouble FILE:LINE:COLUMN ARGS... : ballcast ARGS exits 2, prints
# nothing on stdout and one line on stderr starting "ballcast: FILE:LINE:COLUMN: ".
expect_trouble() {
	local where="$1"
	shift
	bcast "$@"
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: $where: "
}

# expect_bad_record FILE:LINE:COLUMN ARGS... : ballcast ARGS exits 1 (a bad
# record, answered in place), and stderr is one line starting
# "ballcast: FILE:LINE:COLUMN: record ".
expect_bad_record() {
	local where="$1"
	shift
	bcast "$@"
	assert_status 1
	assert_stderr_line_prefix "ballcast: $where: record "
}

# expect_usage ARGS... : exit 2, nothing on stdout, the complaint then the
# usage line on stderr.
expect_usage() {
	bcast "$@"
	assert_status 2
	assert_no_stdout
	[ "$(wc -l <stderr)" -eq 2 ] || { echo "stderr: $err"; return 1; }
	[ "$(sed -n 2p stderr)" = 'usage: ballcast cast [OPTIONS] MESH.obj [TRAJECTORIES]   (ballcast cast --help)' ] ||
		{ echo "stderr: $err"; return 1; }
}

# ------------------------------------------------- trajectory syntax errors

# A JSON syntax error inside an array element whose end the scanner finds
# is that record's error: the record is answered with it, the rest are read.
@test "trajectories: a JSON syntax error is reported at its line and column, as a bad record" {
	printf '[\n  {"id":1,"p0":[0,0,1],"p1":[0,0,0] "r":1}\n]\n' >syn.json
	# the unexpected '"' of "r" is on line 2, column 37
	expect_bad_record syn.json:2:37 cast tri.obj syn.json
	assert_contains "$err" "unexpected '\"'"
}

@test "trajectories: a doubled comma is reported at the second comma" {
	printf '[{"id":1,,"p0":[0,0,1],"p1":[0,0,0],"r":1}]\n' >e.json
	# [{"id":1,,  -> the second ',' is column 10
	expect_bad_record e.json:1:10 cast tri.obj e.json
	assert_contains "$err" "unexpected ','"
}

@test "trajectories: a non-string key is reported at the key" {
	printf '[{1:2}]\n' >e.json
	# the key 1 is column 3
	expect_bad_record e.json:1:3 cast tri.obj e.json
	assert_contains "$err" "unexpected '1'"
}

@test "trajectories: a missing comma between array elements is reported at the next element" {
	printf '[\n{"id":"x","p0":[0,0,1],"p1":[0,0,0],"r":1}\n{"id":"y"}]\n' >e.json
	expect_trouble e.json:3:1 cast tri.obj e.json
}

@test "trajectories: truncated JSON is reported at the end of the input" {
	printf '[\n  {"id":1,"p0":[0,0,1],"p1":[0,0,0],"r":1},\n  {"id":2,"p0":[0,0' >trunc.json
	# line 3 is 19 bytes long: the end is column 20
	expect_trouble trunc.json:3:20 cast tri.obj trunc.json
}

@test "trajectories: a truncated array (no closing ']') is an error, not a short success" {
	printf '[\n{"id":"x","p0":[0,0,1],"p1":[0,0,0],"r":1}' >e.json
	expect_trouble e.json:2:43 cast tri.obj e.json
}

@test "trajectories: trailing garbage after the array is an error" {
	printf '[{"id":1,"p0":[0,0,1],"p1":[0,0,0],"r":1}]\nxyz\n' >trail.json
	expect_trouble trail.json:2:1 cast tri.obj trail.json
	printf '[{"id":1,"p0":[0,0,1],"p1":[0,0,0],"r":1}] ]' >trail2.json
	expect_trouble trail2.json:1:44 cast tri.obj trail2.json
}

@test "trajectories: a trailing comma in the array is an error" {
	printf '[{"id":1,"p0":[0,0,1],"p1":[0,0,0],"r":1},]' >e.json
	expect_trouble e.json:1:43 cast tri.obj e.json
}

@test "trajectories: NaN is not a JSON number" {
	printf '[\n{"id":"x","p0":[0,0,1],"p1":[0,0,0],"r":NaN}]' >e.json
	expect_bad_record e.json:2:41 cast tri.obj e.json
}

@test "trajectories: a number with a leading zero (01) is not JSON" {
	printf '[{"id":1,"p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":01}]\n' >e.json
	# the number starts at column 53
	expect_bad_record e.json:1:53 cast tri.obj e.json
}

@test "trajectories: a syntax error deep in NDJSON (line 12001) is located exactly" {
	awk 'BEGIN { for (i = 1; i <= 12000; i++) print "{\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-2],\"r\":0.5}"
		print "{\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,x],\"r\":0.5}" }' >big.ndjson
	# the x is column 37 of line 12001; the record is the 12001st
	bcast cast --format ndjson tri.obj big.ndjson
	assert_status 1
	echo "ballcast: big.ndjson:12001:37: record 12001: invalid JSON value 'x'" | assert_stderr_eq
	[ "$(wc -l <stdout)" -eq 12001 ]
	[ "$(tail -n 1 stdout)" = '{"id":12000,"error":"invalid JSON value '"'x'"'"}' ]
}

@test "trajectories: empty input is no error: no records, exit 0" {
	: >empty.json
	bcast cast tri.obj empty.json
	assert_status 0
	assert_no_stderr
	bcast cast tri.obj - </dev/null
	assert_status 0
	assert_no_stderr
}

# --------------------------------------------------------------- OBJ errors

@test "obj: face index 0 is reported at the index" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n' >e.obj
	expect_trouble e.obj:4:7 cast e.obj one.json
}

@test "obj: an out-of-range face index is reported at the index" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2   4\n' >e.obj
	expect_trouble e.obj:4:9 cast e.obj one.json
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/2 4/4\n' >e2.obj
	expect_trouble e2.obj:4:11 cast e2.obj one.json
}

@test "obj: a relative index reaching before the first vertex is reported at the index" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n' >e.obj
	expect_trouble e.obj:4:9 cast e.obj one.json
}

@test "obj: a non-finite coordinate is reported at the coordinate" {
	printf 'v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n' >e.obj
	expect_trouble e.obj:2:7 cast e.obj one.json
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv  1e400 0 0\n' >e2.obj
	expect_trouble e2.obj:5:4 cast e2.obj one.json
}

@test "obj: a face with 2 vertices is reported at the f" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\n  f 1 2\n' >e.obj
	expect_trouble e.obj:4:3 cast e.obj one.json
}

@test "obj: a malformed face vertex is reported at the token" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//2 3//x\n' >e.obj
	expect_trouble e.obj:4:13 cast e.obj one.json
}

@test "obj: a missing mesh file" {
	bcast cast nosuch.obj one.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: nosuch.obj: "
	assert_contains "$err" "No such file or directory"
}

@test "obj: a mesh that is a directory" {
	mkdir adir.obj
	bcast cast adir.obj one.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: adir.obj: "
	assert_contains "$err" "Is a directory"
}

@test "obj: an empty mesh, and a mesh with vertices but no face" {
	: >empty.obj
	bcast cast empty.obj one.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: empty.obj: "
	assert_contains "$err" "no faces"
	printf 'v 0 0 0\n# nothing else\n' >noface.obj
	bcast cast noface.obj one.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: noface.obj: "
}

@test "trajectories: a missing trajectory file" {
	bcast cast tri.obj nosuch.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix "ballcast: nosuch.json: "
	assert_contains "$err" "No such file or directory"
}

# ------------------------------------------------------------ usage errors

@test "usage: an unknown option" {
	expect_usage cast --bogus tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown option '--bogus'" ]
	expect_usage cast -x tri.obj one.json
}

@test "usage: a mistyped long option names the nearest one (each command its own), a far one nothing" {
	expect_usage cast --fromat csv tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown option '--fromat' (did you mean '--format'?)" ]
	expect_usage cast --two-sieded=yes tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown option '--two-sieded' (did you mean '--two-sided'?)" ]
	# grade's own options: --radius is grade's, --max-failurs one letter short (a prefix, --max-failure, is --max-failures to getopt)
	bcast grade --radios 1 tri.obj one.json a.json
	assert_status 2
	[ "$(sed -n 1p stderr)" = "ballcast grade: unknown option '--radios' (did you mean '--radius'?)" ]
	bcast grade --max-failurs 3 tri.obj one.json a.json
	assert_status 2
	[ "$(sed -n 1p stderr)" = "ballcast grade: unknown option '--max-failurs' (did you mean '--max-failures'?)" ]
	# an option of another command is not suggested here (compare has no --dt)
	bcast compare --dtt 1 a.json b.json
	assert_status 2
	[ "$(sed -n 1p stderr)" = "ballcast compare: unknown option '--dtt'" ]
}

@test "usage: a value given to an option that takes none, and an ambiguous prefix, are said as such (no \"did you mean\" the same option)" {
	expect_usage cast --two-sided=yes tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: --two-sided takes no value, not 'yes'" ]
	expect_usage cast --in csv tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: ambiguous option '--in' (--input-format, --initial-overlap)" ]
}

@test "usage: a missing MESH argument" {
	expect_usage cast
	[ "$(sed -n 1p stderr)" = "ballcast cast: missing MESH" ]
}

@test "usage: too many arguments" {
	expect_usage cast tri.obj one.json extra
}

@test "usage: a bad --format value" {
	expect_usage cast --format xml tri.obj one.json
	# issue 12: the message lists the formats there are
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown output format 'xml' (json, ndjson or csv)" ]
	expect_usage cast --input-format xml tri.obj one.json
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown input format 'xml' (auto, json, ndjson or csv)" ]
}

@test "usage: a bad --radius value (negative, not a number, NaN, overflow, missing)" {
	for r in -1 abc nan 1e400 ''; do
		expect_usage cast --radius "$r" tri.obj one.json
	done
	expect_usage cast tri.obj one.json -r
}

@test "usage: bad --approach, --normal, --initial-overlap and --threads values" {
	expect_usage cast --approach ge tri.obj one.json
	expect_usage cast --normal face tri.obj one.json
	expect_usage cast --initial-overlap skip tri.obj one.json
	expect_usage cast -j 0 tri.obj one.json
}

@test "usage: an unknown command, and no command at all" {
	bcast frob
	assert_status 2
	assert_no_stdout
	# issue 12: one line and a hint, not the whole usage
	printf "%s\n" "ballcast: unknown command 'frob'" "ballcast: 'ballcast --help' lists the commands" | assert_stderr_eq
	bcast
	assert_status 2
	assert_no_stdout
	assert_contains "$err" "usage: ballcast COMMAND"
}

@test "--help: cast --help prints the usage with examples on stdout, exit 0" {
	bcast cast --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast cast [OPTIONS] MESH.obj [TRAJECTORIES]'
	grep -qx 'examples:' stdout
	grep -q -- '--two-sided' stdout
	bcast cast -h
	assert_status 0
	grep -qx 'examples:' stdout
}

@test "--help: ballcast --help prints the usage with examples on stdout, exit 0" {
	bcast --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast COMMAND [OPTIONS] ARGS...'
	grep -q 'examples' stdout || { echo "no 'examples' in:"; cat stdout; return 1; }
}

@test "--version prints 'ballcast VERSION' on stdout, exit 0" {
	[ -n "$VERSION" ]
	bcast --version
	assert_status 0
	assert_no_stderr
	echo "ballcast $VERSION" | assert_stdout_eq
}

# --------------------------------------------------------- per-record errors

write_bad_records() {
	cat >rec.json <<'EOF'
[
  {"id":"ok1","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5},
  {"id":"nop1","p0":[0.25,0.25,2],"r":0.5},
  {"id":"str","p0":[0.25,"x",2],"p1":[0.25,0.25,-2],"r":0.5},
  {"id":"neg","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":-0.5},
  {"id":"big","p0":[0.25,0.25,1e400],"p1":[0.25,0.25,-2],"r":0.5},
  {"id":"ok2","p0":[0.25,0.25,-2],"p1":[0.25,0.25,2],"r":0.5},
  {"id":"ok3","p0":[0.5,-2,0],"p1":[0.5,2,0],"r":0.5}
]
EOF
}

@test "records: bad records get an error result in place and the others are answered (exit 1)" {
	write_bad_records
	bcast cast tri.obj rec.json
	assert_status 1
	{
		printf '{"ballcast":"%s","mesh":{"file":"tri.obj","vertices":3,"triangles":1,"faces":1,"degenerate":0},"settings":{"two_sided":false,"approach":"le","initial_overlap":"report","normal":"contact","tie_tolerance":1e-10},\n' "$VERSION"
		echo '"results":['
		hit_front '"ok1"'; echo ','
		echo '{"id":"nop1","error":"missing p1"},'
		echo '{"id":"str","error":"p0: expected an array of 3 numbers"},'
		echo '{"id":"neg","error":"r: must not be negative"},'
		echo '{"id":"big","error":"p0: not a finite number"},'
		miss '"ok2"'; echo ','
		hit_edge_inplane '"ok3"'; echo
		echo '],'
		echo '"summary":{"records":7,"hits":2,"errors":4}}'
	} | assert_stdout_eq
}

@test "records: stderr names file:line:column and the record number of each bad record" {
	write_bad_records
	bcast cast --format ndjson tri.obj rec.json
	assert_status 1
	assert_stderr_eq <<'EOF'
ballcast: rec.json:3:3: record 2: missing p1
ballcast: rec.json:4:20: record 3: p0: expected an array of 3 numbers
ballcast: rec.json:5:58: record 4: r: must not be negative
ballcast: rec.json:6:31: record 5: p0: not a finite number
EOF
	bcast cast --format ndjson tri.obj - <rec.json
	assert_status 1
	[ "$(sed -n 1p stderr)" = 'ballcast: <stdin>:3:3: record 2: missing p1' ]
	# -q silences the notes, not the exit status
	bcast cast -q --format ndjson tri.obj rec.json
	assert_status 1
	assert_no_stderr
}

@test "records: a file whose name starts with '-' is named as such, not <stdin>" {
	printf '[{"id":1,"p0":[0,0,1],"r":1}]\n' >./-bad.json
	bcast cast --format ndjson -- tri.obj -bad.json
	assert_status 1
	echo '{"id":1,"error":"missing p1"}' | assert_stdout_eq
	echo 'ballcast: -bad.json:1:2: record 1: missing p1' | assert_stderr_eq
}

@test "records: a mesh given where trajectories or balls go is named as one, not as a CSV header (issue 26)" {
	local message="this is an OBJ mesh, not trajectories or balls: those come after the mesh, as JSON, NDJSON or CSV (is the mesh given twice, or are the arguments swapped?)"
	cp "$ROOM" room.obj
	# starting with a comment (the room), or with a vertex (tri.obj)
	for command in "cast room.obj room.obj" "cast tri.obj tri.obj" "closest tri.obj room.obj" "balls tri.obj" \
		"render room.obj tri.obj" "grade room.obj room.obj one.json"; do
		# shellcheck disable=SC2086
		bcast $command
		assert_status 2
		assert_no_stdout
		case "$command" in
		*"tri.obj tri.obj" | "balls tri.obj" | *"room.obj tri.obj") where=tri.obj ;;
		*) where=room.obj ;;
		esac
		[ "$(sed -n 1p stderr)" = "ballcast: $where:1:1: $message" ] || { echo "$command:"; cat stderr; false; }
	done
	# a CSV whose header has no known column is still named as that
	printf 'a,b\n1,2\n' >t.csv
	bcast cast tri.obj t.csv
	assert_status 2
	assert_contains "$err" "t.csv:1:1: no known column in the CSV header"
}

@test "records: a missing r without --radius is a per-record error" {
	printf '{"id":"a","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2]}\n{"id":"b","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}\n' >t.ndjson
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 1
	{ echo '{"id":"a","error":"missing r (give it per record or with --radius)"}'; hit_front '"b"'; echo; } | assert_stdout_eq
	echo 'ballcast: t.ndjson:1:1: record 1: missing r (give it per record or with --radius)' | assert_stderr_eq
}

@test "records: a bad CSV cell is a per-record error at the cell" {
	printf 'id,x0,y0,z0,x1,y1,z1,r\nok,0.25,0.25,2,0.25,0.25,-2,0.5\nbad,0.25,zz,2,0.25,0.25,-2,0.5\nok2,0.25,0.25,2,0.25,0.25,-2,0.5\n' >t.csv
	bcast cast --format ndjson tri.obj t.csv
	assert_status 1
	{
		hit_front '"ok"'; echo
		echo '{"id":"bad","error":"y0: expected a number, found '"'zz'"'"}'
		hit_front '"ok2"'; echo
	} | assert_stdout_eq
	echo "ballcast: t.csv:3:10: record 2: y0: expected a number, found 'zz'" | assert_stderr_eq
}

# ----------------------------------------------------- degenerate triangles

@test "degenerate: one note on stderr, no NaN in the output, the triangle is never hit" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nf 1 2 4\nf 1 2 4\nf 1 2 3\n' >degen.obj
	cat >t.ndjson <<'EOF'
{"id":"across","p0":[1.5,0,1],"p1":[1.5,0,-1],"r":0.1}
{"id":"along","p0":[1.5,-1,0],"p1":[1.5,1,0],"r":0.1}
{"id":"good","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
EOF
	for opts in "" "--two-sided" "--brute" "--ties"; do
		# shellcheck disable=SC2086
		bcast cast $opts degen.obj t.ndjson
		assert_status 0
		[ "$(grep -c degenerate stderr)" -eq 1 ] || { echo "stderr ($opts): $err"; return 1; }
		[ "$(wc -l <stderr)" -eq 1 ]
		assert_stderr_line_prefix "ballcast: degen.obj: "
		if grep -Eiq 'nan|inf|null' stdout; then
			echo "NaN, Inf or null in the output ($opts):"; cat stdout
			return 1
		fi
		assert_contains "$out" '"degenerate":2'
		assert_contains "$out" '{"id":"across","hit":false,"alpha":1'
		assert_contains "$out" '{"id":"along","hit":false,"alpha":1'
	done
	bcast cast --format ndjson degen.obj t.ndjson
	assert_line 3 '{"id":"good","hit":true,"alpha":0.375,"initial_overlap":false,"feature":"face","triangle":2,"face":2,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0.5],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
}

@test "degenerate: -q silences the note" {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nf 1 2 4\nf 1 2 3\n' >degen.obj
	bcast cast -q degen.obj one.json
	assert_status 0
	assert_no_stderr
	bcast cast --quiet degen.obj one.json
	assert_no_stderr
}

# -------------------------------------------------------------- output files

@test "output: a failed run leaves an existing -o FILE byte-identical and no temporary beside it" {
	printf 'precious\n' >out.json
	cp out.json keep
	printf '[\n  {"id":1,"p0":[0,0,1],"p1":[0,0,0]}\n' >syn.json
	expect_trouble syn.json:3:1 cast -o out.json tri.obj syn.json
	cmp keep out.json
	[ "$(ls -A | grep -c 'out\.json.')" -eq 0 ] || { ls -A; return 1; }
	# a failure before any output (bad mesh) too
	printf 'v 0 0 0\nf 1 2 3\n' >bad.obj
	bcast cast -o out.json bad.obj one.json
	assert_status 2
	cmp keep out.json
	[ "$(ls -A | grep -c 'out\.json.')" -eq 0 ] || { ls -A; return 1; }
}

@test "output: a successful run replaces -o FILE and leaves no temporary" {
	printf 'old\n' >out.ndjson
	bcast cast -o out.ndjson tri.obj one.json
	assert_status 0
	assert_no_stdout
	assert_no_stderr
	{ hit_front '"ok"'; echo; } | assert_file_eq out.ndjson
	[ "$(ls -A | grep -c 'out\.ndjson.')" -eq 0 ] || { ls -A; return 1; }
}

@test "output: a run with per-record errors (exit 1) still writes -o FILE" {
	printf '{"id":"a","p0":[0.25,0.25,2],"r":0.5}\n{"id":"b","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}\n' >t.ndjson
	bcast cast -o out.ndjson tri.obj t.ndjson
	assert_status 1
	{ echo '{"id":"a","error":"missing p1"}'; hit_front '"b"'; echo; } | assert_file_eq out.ndjson
}

@test "output: -o FILE gets the usual permissions (0666 minus the umask), like a shell redirect" {
	umask 022
	bcast cast -o new.json tri.obj one.json
	assert_status 0
	[ "$(stat -c %a new.json)" = 644 ] || { echo "mode of new.json: $(stat -c %a new.json), expected 644"; return 1; }
}

@test "output: replacing an existing -o FILE keeps its permissions" {
	printf 'old\n' >out.json
	chmod 664 out.json
	bcast cast -o out.json tri.obj one.json
	assert_status 0
	[ "$(stat -c %a out.json)" = 664 ] || { echo "mode of out.json: $(stat -c %a out.json), expected 664"; return 1; }
}

@test "output: -o to a FIFO writes through the FIFO instead of replacing it" {
	command -v mkfifo >/dev/null && command -v timeout >/dev/null || skip "mkfifo or timeout missing"
	mkfifo pipe.ndjson
	timeout 3 cat pipe.ndjson >got &
	local reader=$!
	timeout 10 "$BALLCAST" cast -o pipe.ndjson tri.obj one.json && status=0 || status=$?
	wait "$reader" || true
	assert_status 0
	[ -p pipe.ndjson ] || { echo "pipe.ndjson is no longer a FIFO:"; ls -l pipe.ndjson; return 1; }
	{ hit_front '"ok"'; echo; } | assert_file_eq got
}

@test "output: a write error on stdout (/dev/full) fails with a message" {
	[ -c /dev/full ] || skip "no /dev/full"
	"$BALLCAST" cast tri.obj one.json >/dev/full 2>stderr && status=0 || status=$?
	[ "$status" -ne 0 ]
	assert_status 75 # a full disk is transient (issue 32)
	[ "$(cat stderr)" = 'ballcast: standard output: write error: No space left on device' ] || { cat stderr; return 1; }
}

@test "output: a closed pipe ends the run quietly, by SIGPIPE (or status 2 where SIGPIPE is ignored)" {
	# issue 12: as coreutils do, no message; before, "write error: Broken pipe" and status 2
	gen_throws 20000 99 >big.json
	"$BALLCAST" cast "$ROOM" big.json 2>stderr | head -c 1 >/dev/null
	local st=("${PIPESTATUS[@]}")
	[ "${st[0]}" -eq 141 ] || { echo "ballcast exited ${st[0]} writing into a closed pipe"; return 1; }
	assert_no_stderr
	(trap '' PIPE; "$BALLCAST" cast "$ROOM" big.json 2>stderr | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}") && status=0 || status=$?
	assert_status 2
	assert_no_stderr
}
