#!/usr/bin/env bats
# Short options mean one thing (issue 22): a letter names the same long
# option in every command that has it (-r was --report in compare but
# --radius in grade and render). Read from each command's --help; the
# parser is then checked to take exactly those letters, each as its long
# name.

load helpers

setup() {
	common_setup
}

# The subcommands, from `ballcast --help`'s command list.
commands() {
	"$BALLCAST" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# "LETTER LONG" for each short option in COMMAND's --help ("  -r, --radius R").
short_options() {
	"$BALLCAST" "$1" --help | sed -n 's/^  -\([A-Za-z]\), --\([a-z][a-z-]*\).*/\1 \2/p'
}

@test "options: the commands are listed" {
	run commands
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 8 ]
	for c in cast compare grade render balls closest intersect simulate; do
		printf '%s\n' "${lines[@]}" | grep -qx "$c"
	done
}

@test "options: no short letter has two meanings across the commands' --help" {
	local c
	for c in $(commands); do
		short_options "$c" | sed "s/\$/ $c/"
	done >letters
	[ -s letters ]
	# every letter with more than one long name, and where
	awk '{ seen[$1 " " $2] = seen[$1 " " $2] " " $3; names[$1] = names[$1] (names[$1] == "" ? "" : ",") $2 }
		END { for (k in seen) { split(k, p, " "); n[p[1]]++ }
		      for (l in n) if (n[l] > 1) for (k in seen) { split(k, p, " "); if (p[1] == l) print "-" l " is --" p[2] " in" seen[k] } }' \
		letters | sort >clashes
	if [ -s clashes ]; then
		cat clashes
		return 1
	fi
}

@test "options: the parser's short letters are exactly those in --help, each the same as its long name" {
	local c letter long
	for c in $(commands); do
		short_options "$c" >listed
		for letter in a b c d e f g h i j k l m n o p q r s t u v w x y z \
			A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do
			long=$(awk -v l="$letter" '$1 == l { print $2 }' listed)
			if [ -z "$long" ]; then
				# not in --help: not an option either
				bcast "$c" "-$letter" </dev/null
				if [ "$status" -ne 2 ] || ! grep -q "unknown option '-$letter'" stderr; then
					echo "ballcast $c -$letter is not in --help but is not refused (exit $status):"
					cat stderr
					return 1
				fi
				continue
			fi
			# in --help: does what --LONG does, to the byte
			bcast "$c" "-$letter" '@@bad@@' </dev/null
			# shellcheck disable=SC2154 # out and err are set by bcast
			local short="$status $out $err"
			bcast "$c" "--$long" '@@bad@@' </dev/null
			if [ "$short" != "$status $out $err" ]; then
				echo "ballcast $c -$letter differs from --$long:"
				echo "$short"
				echo "$status $out $err"
				return 1
			fi
		done
	done
}

@test "options: compare's --report has no short letter (-r is --radius elsewhere); --report works" {
	bcast compare -r csv tri.obj tri.obj
	assert_status 2
	grep -q "unknown option '-r'" stderr
	"$BALLCAST" compare --help | grep -q '^      --report FMT'
	if "$BALLCAST" compare --help | grep -q -- '-r, --report'; then return 1; fi
	# grade's -r is --radius, as in cast and render
	bcast grade -r csv tri.obj tri.obj tri.obj
	assert_status 2
	grep -q -- '--radius' stderr
}

@test "options: an unknown short option is named in the argument that holds it, not an operand before it (issue 26)" {
	cp "$ROOM" room.obj
	cp "$REPO/samples/throws.json" throws.json
	"$BALLCAST" cast -f ndjson room.obj throws.json >a.ndjson
	cp a.ndjson ./-1.ndjson
	bcast grade room.obj throws.json a.ndjson -1.ndjson
	assert_status 2
	assert_no_stdout
	[ "$(sed -n 1p stderr)" = "ballcast grade: unknown option '-1' in '-1.ndjson' (if '-1.ndjson' is a file, write './-1.ndjson' or put '--' before it)" ]
	# both ways the message offers work
	bcast grade room.obj throws.json a.ndjson ./-1.ndjson
	assert_status 0
	bcast grade room.obj throws.json a.ndjson -- -1.ndjson
	assert_status 0
	# a letter in a group, after a known one; a lone letter; a missing value after operands
	bcast cast -qz room.obj throws.json
	assert_status 2
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown option '-z' in '-qz' (if '-qz' is a file, write './-qz' or put '--' before it)" ]
	bcast cast room.obj throws.json -z
	[ "$(sed -n 1p stderr)" = "ballcast cast: unknown option '-z'" ]
	bcast cast room.obj throws.json -o
	[ "$(sed -n 1p stderr)" = "ballcast cast: missing value for '-o'" ]
}

@test "cast --help: alpha_free is described under --method, whose results it is part of, not under --bisect (issue 26)" {
	bcast cast --help
	assert_status 0
	# the lines from --method to --dt
	sed -n '/^      --method /,/^      --dt /p' stdout >method.txt
	grep -q 'alpha_free' method.txt
	# and none after --bisect's line
	if sed -n '/^      --bisect /,/^      --compare-exact/p' stdout | grep -q alpha_free; then return 1; fi
}
