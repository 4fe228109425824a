#!/usr/bin/env bats
# What every subcommand does alike, as issue 12 has it: --version, `help
# CMD`, an unknown command's one line and hint, -o never overwriting an
# input, --max-errors, a JSON file given as the mesh, the hint when
# standard input is a terminal, and progress and a summary on a terminal.

load helpers

COMMANDS="cast render compare grade balls closest intersect simulate"

setup() {
	common_setup
	echo '[{"id":"ok","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}]' >one.json
}

@test "--version: every subcommand answers it on stdout, exit 0, as ballcast --version does" {
	bcast --version
	assert_status 0
	local version="$out"
	case "$version" in "ballcast "[0-9]*) ;; *) echo "ballcast --version: $version"; return 1 ;; esac
	for command in $COMMANDS; do
		bcast "$command" --version
		assert_status 0
		assert_no_stderr
		[ "$out" = "$version" ] || { echo "$command --version: '$out', expected '$version'"; return 1; }
		# whatever else is on the line
		bcast "$command" --version -o x.json tri.obj
		assert_status 0
		[ "$out" = "$version" ] || return 1
		[ ! -e x.json ] || { echo "$command --version wrote x.json"; return 1; }
	done
}

@test "help CMD: the command's own --help text, on stdout, exit 0; help alone is --help" {
	for command in $COMMANDS; do
		bcast "$command" --help
		assert_status 0
		cp stdout expected
		bcast help "$command"
		assert_status 0
		assert_no_stderr
		assert_file_eq stdout <expected
		assert_line 1 "$(sed -n 1p expected)"
		case "$(sed -n 1p stdout)" in "usage: ballcast $command "*) ;; *) echo "help $command: $(sed -n 1p stdout)"; return 1 ;; esac
	done
	bcast --help
	cp stdout expected
	bcast help
	assert_status 0
	assert_file_eq stdout <expected
	grep -q "ballcast help COMMAND" stdout
	# help describes itself (issue 26): help help, help --help
	for words in "help help" "help --help"; do
		# shellcheck disable=SC2086
		bcast $words
		assert_status 0
		assert_no_stderr
		assert_file_eq stdout <expected
	done
	bcast help frob
	assert_status 2
	assert_no_stdout
	[ "$(sed -n 1p stderr)" = "ballcast: unknown command 'frob'" ]
}

@test "--version and --help before a command take any unambiguous prefix, as a command's options do (issue 26)" {
	bcast --version
	cp stdout version
	bcast --help
	cp stdout usage
	for prefix in --ver --v --versio; do
		bcast "$prefix"
		assert_status 0
		assert_no_stderr
		assert_file_eq stdout <version
		# as the commands take it
		bcast cast "$prefix"
		assert_status 0
		assert_file_eq stdout <version
	done
	for prefix in --h --he --hel -h; do
		bcast "$prefix"
		assert_status 0
		assert_file_eq stdout <usage
	done
	# an option that is neither is named as an option
	bcast --frob cast
	assert_status 2
	assert_no_stdout
	printf "%s\n" "ballcast: unknown option '--frob' (before a command: --help or --version)" \
		"ballcast: 'ballcast --help' lists the commands" | assert_stderr_eq
}

@test "an unknown command: one line and a hint, naming a command a slip away" {
	local slip
	for slip in cats:cast clsoest:closest simulat:simulate Cast:cast rendr:render intersct:intersect bals:balls; do
		bcast "${slip%%:*}" tri.obj one.json
		assert_status 2
		assert_no_stdout
		printf "%s\n" "ballcast: unknown command '${slip%%:*}'" \
			"ballcast: did you mean '${slip#*:}'? ('ballcast --help' lists the commands)" | assert_stderr_eq
	done
	bcast frobnicate
	assert_status 2
	printf "%s\n" "ballcast: unknown command 'frobnicate'" "ballcast: 'ballcast --help' lists the commands" |
		assert_stderr_eq
}

# refused USAGE_LINE ARGS... : ballcast ARGS exits 2 with nothing on stdout,
# the complaint (first line of stderr) is USAGE_LINE, and every mesh and
# JSON file in the directory is as it was.
refused() {
	local complaint="$1"
	shift
	md5sum ./*.obj ./*.json >.sums
	bcast "$@"
	assert_status 2
	assert_no_stdout
	[ "$(sed -n 1p stderr)" = "$complaint" ] || { echo "stderr:"; cat stderr; echo "expected: $complaint"; return 1; }
	md5sum -c --quiet .sums || { echo "an input changed"; return 1; }
}

@test "-o naming an input is refused with exit 2, the input untouched (any command, any way of naming it)" {
	cp "$ROOM" room.obj
	cp "$REPO/samples/throws.json" throws.json
	cp "$REPO/samples/expected.json" expected.json
	refused "ballcast cast: -o would overwrite the input 'room.obj'" cast -o room.obj room.obj throws.json
	refused "ballcast cast: -o would overwrite the input 'throws.json'" cast -o ./throws.json room.obj throws.json
	ln -s room.obj link.obj
	refused "ballcast cast: -o would overwrite the input 'room.obj'" cast -o link.obj room.obj throws.json
	ln room.obj hard.obj
	refused "ballcast cast: -o would overwrite the input 'hard.obj'" cast --output=room.obj hard.obj throws.json
	refused "ballcast closest: -o would overwrite the input 'room.obj'" closest -o room.obj room.obj throws.json
	refused "ballcast balls: -o would overwrite the input 'throws.json'" balls -o throws.json throws.json
	refused "ballcast compare: -o would overwrite the input 'expected.json'" compare -o expected.json expected.json expected.json
	refused "ballcast compare: -o would overwrite the input 'room.obj'" compare -m room.obj -o room.obj expected.json expected.json
	refused "ballcast render: -o would overwrite the input 'room.obj'" render -o room.obj room.obj
	refused "ballcast render: -o would overwrite the input 'expected.json'" render --compare expected.json -o expected.json room.obj throws.json
	refused "ballcast intersect: -o would overwrite the input 'room.obj'" intersect -o room.obj room.obj
	echo '{"balls": [{"p": [1, 1, 1], "v": [0, 0, 0], "r": 0.1}], "horizon": 0.1}' >scene.json
	refused "ballcast simulate: -o would overwrite the input 'scene.json'" simulate -o scene.json room.obj scene.json
	refused "ballcast simulate: --positions would overwrite the input 'room.obj'" simulate --positions room.obj room.obj scene.json
	# the usage line follows the complaint
	[ "$(sed -n 2p stderr)" = "usage: ballcast simulate [OPTIONS] MESH.obj SCENE.json   (ballcast simulate --help)" ]
	# another file, standard output, and a device are fine
	bcast cast -o hits.json room.obj throws.json
	assert_status 0
	[ -s hits.json ]
	bcast cast -o - room.obj throws.json
	assert_status 0
	bcast cast -o /dev/null room.obj /dev/stdin <throws.json
	assert_status 0
}

@test "-o through a symbolic link writes through it, as cp does: live or dangling, the link stays; the file keeps its mode (issue 26)" {
	cp "$REPO/samples/throws.json" throws.json
	expected=$("$BALLCAST" cast "$ROOM" throws.json)
	# a live link: the file it names is replaced, in place, its mode kept
	echo 'old answers' >real.json
	chmod 640 real.json
	ln -s real.json live.json
	bcast cast -o live.json "$ROOM" throws.json
	assert_status 0
	[ -L live.json ]
	[ "$(readlink live.json)" = real.json ]
	[ "$(cat real.json)" = "$expected" ]
	[ "$(stat -c %a real.json)" = 640 ]
	# a dangling link: the file it names is made (it was replaced by a
	# regular file at the link's place), with a new file's mode
	ln -s made.json dangling.json
	bcast cast -o dangling.json "$ROOM" throws.json
	assert_status 0
	[ -L dangling.json ]
	[ "$(readlink dangling.json)" = made.json ]
	[ "$(cat made.json)" = "$expected" ]
	[ "$(stat -c %a made.json)" = "$(printf '%o' $((0666 & ~$(umask))))" ]
	# a chain of relative links through another directory: each read from its own
	mkdir d
	ln -s ../far.json d/inner.json
	ln -s d/inner.json outer.json
	bcast cast -o outer.json "$ROOM" throws.json
	assert_status 0
	[ -L outer.json ]
	[ -L d/inner.json ]
	[ "$(cat far.json)" = "$expected" ]
	# no temporary left anywhere, and a link to a directory that does not exist is an error
	if ls ./*.tmp.* d/*.tmp.* 2>/dev/null; then return 1; fi
	ln -s nowhere/x.json lost.json
	bcast cast -o lost.json "$ROOM" throws.json
	assert_status 2
	[ "$err" = "ballcast: lost.json: cannot create the output: No such file or directory" ]
	[ -L lost.json ]
	# a loop of links is named as one
	ln -s loop2.json loop1.json
	ln -s loop1.json loop2.json
	bcast cast -o loop1.json "$ROOM" throws.json
	assert_status 2
	[ "$err" = "ballcast: loop1.json: cannot create the output: Too many levels of symbolic links" ]
}

@test "-o over a file of another owner and group keeps them where the system allows (root here)" {
	[ "$(id -u)" -eq 0 ] || skip "only root can give a file away"
	cp "$REPO/samples/throws.json" throws.json
	echo 'old answers' >theirs.json
	chown 12345:23456 theirs.json
	chmod 604 theirs.json
	ln -s theirs.json link.json
	bcast cast -o link.json "$ROOM" throws.json
	assert_status 0
	[ "$(stat -c '%u:%g %a' theirs.json)" = "12345:23456 604" ]
	grep -q '"results"' theirs.json
}

@test "-o on a full disk names the error the write met, not a stale errno (issue 26)" {
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "{\"id\":%d,\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-2],\"r\":0.1}\n", i }' >t.ndjson
	# /dev/full, written in place (a full disk is exit 75, what a scheduler
	# may retry): every format, the writer thread or not
	# (it named ENOTTY, left by a terminal check, one run in three; once
	# under valgrind, where a run is slow)
	local runs=6
	if [ -n "${BALLCAST_WRAPPER:-}" ]; then runs=1; fi
	for run in $(seq "$runs"); do
		for f in json ndjson csv; do
			bcast cast -j 2 -f "$f" -o /dev/full tri.obj t.ndjson
			assert_status 75
			[ "$err" = "ballcast: /dev/full: write error: No space left on device" ] || { echo "$f: $err"; false; }
		done
	done
	bcast closest -f ndjson -o /dev/full tri.obj t.ndjson
	assert_status 75
	[ "$(tail -n 1 stderr)" = "ballcast: /dev/full: write error: No space left on device" ]
	bcast render -o /dev/full "$ROOM" "$REPO/samples/throws.json"
	assert_status 75
	[ "$err" = "ballcast: /dev/full: write error: No space left on device" ]
	# a regular file past ulimit -f (SIGXFSZ ignored: the write fails with EFBIG)
	echo 'old answers' >out.json
	got=0
	(trap '' XFSZ; ulimit -f 64; exec "$BALLCAST" cast -f ndjson -o out.json tri.obj t.ndjson) 2>stderr || got=$?
	[ "$got" -eq 2 ]
	[ "$(cat stderr)" = "ballcast: out.json: write error: File too large" ]
	[ "$(cat out.json)" = "old answers" ]
	if ls out.json.tmp.* 2>/dev/null; then return 1; fi
}

# 100 CSV rows with no r: every one a bad record
write_rows_without_r() {
	{
		echo 'id,x0,y0,z0,x1,y1,z1'
		for i in $(seq 1 100); do echo "$i,0,0,1,0,0,-1"; done
	} >no_r.csv
}

@test "--max-errors: 20 messages by default, then one line counting the rest; N changes it; every error result is written" {
	write_rows_without_r
	bcast cast -f csv tri.obj no_r.csv
	assert_status 1
	[ "$(grep -c ',missing r (give it per record or with --radius)$' stdout)" -eq 100 ]
	[ "$(wc -l <stderr)" -eq 21 ]
	[ "$(sed -n 1p stderr)" = "ballcast: no_r.csv:2:1: record 1: missing r (give it per record or with --radius)" ]
	[ "$(sed -n 20p stderr)" = "ballcast: no_r.csv:21:1: record 20: missing r (give it per record or with --radius)" ]
	[ "$(sed -n 21p stderr)" = "ballcast: no_r.csv: 80 more bad records not shown (--max-errors N shows more)" ]
	bcast cast -f csv --max-errors 3 tri.obj no_r.csv
	assert_status 1
	[ "$(wc -l <stderr)" -eq 4 ]
	[ "$(sed -n 4p stderr)" = "ballcast: no_r.csv: 97 more bad records not shown (--max-errors N shows more)" ]
	bcast cast -f csv --max-errors 0 tri.obj no_r.csv
	echo "ballcast: no_r.csv: 100 more bad records not shown (--max-errors N shows more)" | assert_stderr_eq
	bcast cast -f csv --max-errors 1000 tri.obj no_r.csv
	[ "$(wc -l <stderr)" -eq 100 ]
	bcast cast -f csv -q tri.obj no_r.csv
	assert_status 1
	assert_no_stderr
	# the other commands that read records count the same way
	sed 's/^id,x0,y0,z0,x1,y1,z1$/id,x,y,z/; s/^\([0-9]*\),0,0,1,0,0,-1$/\1,0,0,nan/' no_r.csv >bad_p.csv
	bcast closest --max-errors 2 tri.obj bad_p.csv
	assert_status 1
	[ "$(wc -l <stderr)" -eq 3 ]
	[ "$(sed -n 3p stderr)" = "ballcast: bad_p.csv: 98 more bad records not shown (--max-errors N shows more)" ]
	bcast balls --max-errors 2 no_r.csv
	assert_status 1
	[ "$(sed -n 3p stderr)" = "ballcast: no_r.csv: 98 more bad records not shown (--max-errors N shows more)" ]
	bcast render --max-errors 2 tri.obj no_r.csv
	assert_status 1
	[ "$(sed -n 3p stderr)" = "ballcast: no_r.csv: 98 more bad records not shown (--max-errors N shows more)" ]
	# a bad value is a usage error
	for n in -1 x 1.5 ''; do
		bcast cast --max-errors "$n" tri.obj one.json
		assert_status 2
		[ "$(sed -n 1p stderr)" = "ballcast cast: --max-errors needs a whole number >= 0, not '$n'" ]
	done
}

@test "a JSON file given as the mesh (arguments swapped) is named as such, exit 2" {
	for json in one.json "$REPO/samples/expected.json"; do
		for command in "cast $json tri.obj" "closest $json tri.obj" "render $json" "intersect $json" "simulate $json one.json"; do
			bcast $command
			assert_status 2
			assert_no_stdout
			echo "ballcast: $json: this is JSON, not a mesh: the mesh comes first (are the arguments swapped?)" |
				assert_stderr_eq
		done
	done
	# an OBJ file that is broken is still an OBJ file
	printf 'v 0 0 0\nv 1 0 0\nf 1 2 9\n' >bad.obj
	bcast cast bad.obj one.json
	assert_status 2
	assert_contains "$err" "bad.obj:3:"
}

# on_terminal COMMAND : run the shell COMMAND with a terminal (a pseudo-
# terminal from script(1)) as its standard input, output and error; what
# reached the terminal goes to the file "terminal".
on_terminal() {
	command -v script >/dev/null || skip "script(1) missing"
	script -qec "$1" /dev/null </dev/null >terminal 2>&1 || true
}

@test "standard input on a terminal: a note that ballcast is reading it; none from a file, a pipe or with -q" {
	on_terminal "'$BALLCAST' cast tri.obj -r 0.1"
	grep -q "^ballcast: reading standard input, the terminal: type the records, then Ctrl-D" terminal ||
		{ cat -A terminal; return 1; }
	on_terminal "'$BALLCAST' closest tri.obj - -r 0.1"
	grep -q "^ballcast: reading standard input, the terminal" terminal || { cat -A terminal; return 1; }
	on_terminal "'$BALLCAST' cast -q tri.obj -r 0.1"
	! grep -q "reading standard input" terminal || { cat -A terminal; return 1; }
	on_terminal "'$BALLCAST' cast tri.obj - <one.json"
	! grep -q "reading standard input" terminal || { cat -A terminal; return 1; }
	on_terminal "cat one.json | '$BALLCAST' cast tri.obj"
	! grep -q "reading standard input" terminal || { cat -A terminal; return 1; }
	# the hint goes to stderr only when stdin is a terminal: never in pipelines
	bcast cast tri.obj - <one.json
	assert_status 0
	assert_no_stderr
}

# 60000 throws through the triangle, all hits: eight chunks of --batch 8192
write_many_throws() {
	awk 'BEGIN { for (i = 0; i < 60000; i++)
		printf "{\"id\":%d,\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-2],\"r\":0.1}\n", i }' >many.ndjson
}

@test "progress on a terminal: a percentage and the time left while results go elsewhere, then a summary line" {
	write_many_throws
	# the reader of the results sleeps: the run lasts well past the first redraw
	on_terminal "'$BALLCAST' cast -f ndjson -j 1 --batch 8192 tri.obj many.ndjson | (sleep 1.5; cat >out.ndjson)"
	[ "$(wc -l <out.ndjson)" -eq 60000 ]
	# the progress line is redrawn in place: a carriage return, never a new line, and erased at the end
	grep -aq $'\rballcast: [0-9]*%, [0-9]* trajectories, [0-9]* hits, about [0-9]* s left\e\[K' terminal ||
		{ cat -A terminal; return 1; }
	grep -aq $'\r\e\[Kballcast: 60000 trajectories, 60000 hits, 0 errors in [0-9.]* s\r$' terminal ||
		{ cat -A terminal; return 1; }
	# the summary is the last line
	[ "$(tail -n 1 terminal | sed 's/.*\r\x1b\[K//')" = "$(tail -n 1 terminal | grep -ao 'ballcast: 60000 trajectories.*')" ]
	# closest and balls have theirs
	awk 'BEGIN { print "x,y,z,r"; for (i = 0; i < 3; i++) print "0.25,0.25," i * 0.1 ",0.15" }' >balls.csv
	on_terminal "'$BALLCAST' closest -o c.json tri.obj balls.csv"
	grep -aq '^ballcast: 3 balls, 2 overlapping, 0 errors in [0-9.]* s' terminal || { cat -A terminal; return 1; }
	printf '%s\n' '{"p0":[0,0,0],"p1":[1,0,0],"r":0.1}' '{"p0":[1,0,0],"p1":[0,0,0],"r":0.1}' '{"p0":[5]}' >two.ndjson
	on_terminal "'$BALLCAST' balls -o b.json two.ndjson"
	grep -aq '^ballcast: 3 trajectories, 2 meetings, 1 error in [0-9.]* s' terminal || { cat -A terminal; return 1; }
}

@test "progress: none while the results go to the same terminal (only the summary, after them); none at all with -q or off a terminal" {
	write_many_throws
	on_terminal "'$BALLCAST' cast -f ndjson tri.obj many.ndjson"
	[ "$(grep -ac '"hit":true' terminal)" -eq 60000 ]
	! grep -aq $'\e\[K' terminal || { echo "a progress line among the results"; grep -a $'\e' terminal | cat -A | head; return 1; }
	tail -n 1 terminal | grep -aq '^ballcast: 60000 trajectories, 60000 hits, 0 errors in [0-9.]* s' ||
		{ tail -n 3 terminal | cat -A; return 1; }
	on_terminal "'$BALLCAST' cast -q -f ndjson tri.obj many.ndjson | (sleep 1.5; cat >/dev/null)"
	! grep -aq 'ballcast:' terminal || { cat -A terminal; return 1; }
	# no terminal: nothing on stderr
	bcast cast -f ndjson tri.obj many.ndjson
	assert_status 0
	assert_no_stderr
}
