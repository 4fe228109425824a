# helpers.bash - shared by the bats suites in tests/cli (load with `load helpers`).
#
# Every test runs in its own scratch directory ($BATS_TEST_TMPDIR) so that the
# file names printed in messages are short and predictable ("tri.obj",
# "t.json"). Only POSIX tools are used (grep, sed, awk, cmp, diff, stat):
# jq and python3 are not guaranteed on CI.

REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
BALLCAST="${BALLCAST:-$REPO/ballcast}"
ROOM="$REPO/samples/room.obj"

# The one-triangle mesh of the hand-computed tests: A(0,0,0) B(1,0,0)
# C(0,1,0), front normal +z.
write_tri_obj() {
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"${1:-tri.obj}"
}

common_setup() {
	[ -x "$BALLCAST" ] || {
		echo "ballcast binary not found at $BALLCAST (run make all)" >&2
		return 1
	}
	cd "$BATS_TEST_TMPDIR" || return 1
	write_tri_obj tri.obj
}

# bcast ARGS... : run ballcast with ARGS. Sets $status; stdout goes to the file
# "stdout", stderr to "stderr" (in the scratch directory), and $out / $err hold
# them (without trailing new lines). Standard input is inherited: redirect it
# at the call site when it matters (bcast cast tri.obj - <t.json).
bcast() {
	# BALLCAST_WRAPPER: a command put in front, split on blanks (make check-valgrind)
	# shellcheck disable=SC2086
	${BALLCAST_WRAPPER:-} "$BALLCAST" "$@" >"$BATS_TEST_TMPDIR/stdout" 2>"$BATS_TEST_TMPDIR/stderr" && status=0 || status=$?
	out="$(cat "$BATS_TEST_TMPDIR/stdout")"
	err="$(cat "$BATS_TEST_TMPDIR/stderr")"
}

assert_status() {
	if [ "$status" -ne "$1" ]; then
		echo "expected exit status $1, got $status"
		echo "--- stdout:"; head -c 2000 "$BATS_TEST_TMPDIR/stdout"
		echo "--- stderr:"; head -c 2000 "$BATS_TEST_TMPDIR/stderr"
		return 1
	fi
}

assert_no_stdout() {
	if [ -s "$BATS_TEST_TMPDIR/stdout" ]; then
		echo "expected nothing on stdout, got $(wc -c <"$BATS_TEST_TMPDIR/stdout") bytes:"
		head -c 2000 "$BATS_TEST_TMPDIR/stdout"
		return 1
	fi
}

assert_no_stderr() {
	if [ -s "$BATS_TEST_TMPDIR/stderr" ]; then
		echo "expected nothing on stderr, got:"
		head -c 2000 "$BATS_TEST_TMPDIR/stderr"
		return 1
	fi
}

# assert_file_eq FILE : FILE must equal standard input byte for byte.
assert_file_eq() {
	local expected="$BATS_TEST_TMPDIR/expected.$$.$RANDOM"
	cat >"$expected"
	if ! cmp -s "$expected" "$1"; then
		echo "$1 differs from the expected text (diff -u expected actual):"
		diff -u "$expected" "$1" | head -n 60
		return 1
	fi
}

# assert_stdout_eq : stdout must equal standard input byte for byte.
assert_stdout_eq() {
	assert_file_eq "$BATS_TEST_TMPDIR/stdout"
}

# assert_stderr_eq : stderr must equal standard input byte for byte.
assert_stderr_eq() {
	assert_file_eq "$BATS_TEST_TMPDIR/stderr"
}

# assert_line N TEXT : line N (1-based) of stdout is exactly TEXT.
assert_line() {
	local actual
	actual="$(sed -n "${1}p" "$BATS_TEST_TMPDIR/stdout")"
	if [ "$actual" != "$2" ]; then
		echo "stdout line $1:"
		echo "  expected: $2"
		echo "  actual:   $actual"
		return 1
	fi
}

# assert_line_count N : stdout has exactly N lines.
assert_line_count() {
	local n
	n=$(wc -l <"$BATS_TEST_TMPDIR/stdout")
	if [ "$n" -ne "$1" ]; then
		echo "expected $1 lines on stdout, got $n:"
		head -c 2000 "$BATS_TEST_TMPDIR/stdout"
		return 1
	fi
}

# assert_stderr_line_prefix PREFIX : stderr is exactly one line and it starts
# with PREFIX (a fixed string, e.g. "ballcast: t.json:2:37: ").
assert_stderr_line_prefix() {
	local n
	n=$(wc -l <"$BATS_TEST_TMPDIR/stderr")
	case "$err" in
	"$1"*) ;;
	*)
		echo "stderr should start with: $1"
		echo "stderr is:                $err"
		return 1
		;;
	esac
	if [ "$n" -ne 1 ]; then
		echo "expected one line on stderr, got $n:"
		echo "$err"
		return 1
	fi
}

# assert_contains TEXT NEEDLE : TEXT contains the fixed string NEEDLE.
assert_contains() {
	case "$1" in
	*"$2"*) ;;
	*)
		echo "expected to find: $2"
		echo "in:               $1"
		return 1
		;;
	esac
}

# csv_columns FILE : for each line of FILE, the number of cells, counting
# commas outside double quotes (a doubled quote "" inside a quoted cell
# toggles twice, so it is handled too). Cells spanning lines are not.
csv_columns() {
	awk '{
		n = 1; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") q = !q
			else if (c == "," && !q) n++
		}
		print n
	}' "$1"
}

# csv_cell FILE ROW COLUMN : the raw text of one cell (1-based; row 1 is the
# header), quotes kept.
csv_cell() {
	awk -v row="$2" -v col="$3" 'NR == row {
		n = 1; q = 0; cell = ""
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") q = !q
			if (c == "," && !q) { n++; continue }
			if (n == col) cell = cell c
		}
		print cell
	}' "$1"
}

# expect_empty_batch JSON CSV_HEADER ARGS... : zero records are an empty
# batch: `ballcast ARGS... INPUT` answers an empty file, blank lines, a byte
# order mark alone (under every --input-format) and empty standard input
# (named '-' or not, a pipe or /dev/null) with exit 0, nothing on stderr,
# and on stdout the JSON text JSON, the CSV header row alone, or nothing
# (NDJSON).
expect_empty_batch() {
	local json="$1" header="$2" f i input
	shift 2
	: >empty.in
	printf '  \n\n\t\r\n' >blank.in
	printf '\357\273\277' >bom.in
	for input in empty.in blank.in bom.in; do
		for i in auto json ndjson csv; do
			for f in json ndjson csv; do
				bcast "$@" -i "$i" -f "$f" "$input"
				assert_status 0
				assert_no_stderr
				case $f in
				json) printf '%s\n' "$json" | assert_stdout_eq ;;
				ndjson) assert_no_stdout ;;
				csv) printf '%s\n' "$header" | assert_stdout_eq ;;
				esac
			done
		done
	done
	bcast "$@" -f csv - </dev/null
	assert_status 0
	printf '%s\n' "$header" | assert_stdout_eq
	bcast "$@" </dev/null
	assert_status 0
	printf '%s\n' "$json" | assert_stdout_eq
	: | "$BALLCAST" "$@" -f ndjson - >pipe.out 2>pipe.err
	[ ! -s pipe.out ] && [ ! -s pipe.err ]
	: | "$BALLCAST" "$@" -f csv - >pipe.out 2>pipe.err
	printf '%s\n' "$header" | assert_file_eq pipe.out
}

# Exact result lines on the one-triangle mesh (NDJSON form; the JSON form
# has the same objects one per line).
hit_front() { # ID
	printf '{"id":%s,"hit":true,"alpha":0.375,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0.5],"normal":[0,0,1],"triangle_normal":[0,0,1]}' "$1"
}
miss() { # ID
	printf '{"id":%s,"hit":false,"alpha":1}' "$1"
}
hit_edge_inplane() { # ID
	printf '{"id":%s,"hit":true,"alpha":0.375,"initial_overlap":false,"feature":"edge","triangle":0,"face":0,"vertices":[0,1],"point":[0.5,0,0],"center":[0.5,-0.5,0],"normal":[0,-1,0],"triangle_normal":[0,0,1]}' "$1"
}

# The three throws of the format tests: from the front (hit, alpha 0.375),
# from behind (a miss when one-sided), in the plane (edge hit, alpha 0.375).
write_three_json() {
	cat >"${1:-t.json}" <<'EOF'
[
  {"id": "front", "p0": [0.25, 0.25, 2], "p1": [0.25, 0.25, -2], "r": 0.5},
  {"id": "back", "p0": [0.25, 0.25, -2], "p1": [0.25, 0.25, 2], "r": 0.5},
  {"id": "inplane", "p0": [0.5, -2, 0], "p1": [0.5, 2, 0], "r": 0.5}
]
EOF
}
write_three_ndjson() {
	cat >"${1:-t.ndjson}" <<'EOF'
{"id":"front","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}
{"id":"back","p0":[0.25,0.25,-2],"p1":[0.25,0.25,2],"r":0.5}
{"id":"inplane","p0":[0.5,-2,0],"p1":[0.5,2,0],"r":0.5}
EOF
}
write_three_csv() {
	cat >"${1:-t.csv}" <<'EOF'
id,x0,y0,z0,x1,y1,z1,r
front,0.25,0.25,2,0.25,0.25,-2,0.5
back,0.25,0.25,-2,0.25,0.25,2,0.5
inplane,0.5,-2,0,0.5,2,0,0.5
EOF
}

# The expected NDJSON answer to the three throws with default options.
three_ndjson_expected() {
	hit_front '"front"'; echo
	miss '"back"'; echo
	hit_edge_inplane '"inplane"'; echo
}

# gen_throws N SEED : N pseudo-random throws in and around samples/room.obj as
# a JSON array (awk's srand/rand: deterministic for a given awk). Every
# seventh has r = 0.
gen_throws() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed)
		print "["
		for (i = 0; i < n; i++) {
			printf "%s{\"id\":%d,\"p0\":[%.6f,%.6f,%.6f],\"p1\":[%.6f,%.6f,%.6f],\"r\":%.4f}\n", \
				(i ? "," : ""), i, rand() * 10 - 1, rand() * 8 - 1, rand() * 4 - 0.5, \
				rand() * 10 - 1, rand() * 8 - 1, rand() * 4 - 0.5, (i % 7 == 0) ? 0 : rand() * 0.5
		}
		print "]"
	}'
}

# The version the binary reports, from the one public header.
VERSION="$(sed -n 's/^#define BC_VERSION_STRING "\(.*\)"/\1/p' "$REPO/lib/ballcast.h")"
