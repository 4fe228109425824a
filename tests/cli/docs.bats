#!/usr/bin/env bats
# The documentation keeps up with the code.

load helpers

setup() {
	common_setup
}

@test "the man page passes mandoc -Tlint cleanly" {
	command -v mandoc >/dev/null || skip "mandoc is not installed (scripts/install-deps installs it)"
	run mandoc -Tlint -W warning "$REPO/man/ballcast.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "every option of every command's --help is in the man page" {
	for cmd in $("$BALLCAST" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }'); do
		"$BALLCAST" "$cmd" --help >help.txt
		for opt in $(grep -oE -- '--[a-z][a-z-]+' help.txt | sort -u); do
			escaped=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
			grep -q -- "$escaped" "$REPO/man/ballcast.1" || {
				echo "ballcast $cmd: $opt is missing from man/ballcast.1"
				return 1
			}
		done
	done
}

@test "the README's two quick-start commands are make targets and make check is the CI command" {
	grep -q '^make demo ' "$REPO/README.md"
	grep -q '^make check ' "$REPO/README.md"
	grep -q '^demo:' "$REPO/Makefile"
	grep -q '^check:' "$REPO/Makefile"
	grep -q '^make check$' "$REPO/.ci/run"
}

@test "the README's example output is what ballcast prints" {
	"$BALLCAST" cast "$REPO/samples/room.obj" "$REPO/samples/throws.json" --format ndjson | head -2 >actual.txt
	awk '/^\$ ballcast cast samples\/room.obj samples\/throws.json --format ndjson \| head -2$/ { on = 1; next }
		on && /^```/ { exit } on { print }' "$REPO/README.md" >expected.txt
	[ -s expected.txt ]
	diff -u expected.txt actual.txt
}

@test "the exact suite's figures in the README and the man page are tests/exact/RECORD.md's" {
	# The record's one summary line, e.g.
	# record: 300,000 casts over 3 seeds, 0 failed, largest alpha error 2.5e-14
	line=$(grep -E '^record: [0-9,]+ casts over [0-9]+ seeds, [0-9]+ failed, largest alpha error [0-9.e-]+$' \
		"$REPO/tests/exact/RECORD.md")
	[ -n "$line" ] || {
		echo "tests/exact/RECORD.md has no summary line"
		return 1
	}
	casts=$(echo "$line" | sed 's/^record: \([0-9,]*\) casts over \([0-9]*\) seeds.*/\1 casts over \2 seeds/')
	failed=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
	worst=$(echo "$line" | sed 's/.*largest alpha error //')
	for f in README.md man/ballcast.1; do
		text=$(tr '\n' ' ' <"$REPO/$f" | sed 's/\\-/-/g; s/  */ /g')
		for want in "$failed failures in $casts" "largest alpha error $worst"; do
			case "$text" in
			*"$want"*) ;;
			*)
				echo "$f does not say '$want' (tests/exact/RECORD.md: $line)"
				return 1
				;;
			esac
		done
	done
}

@test "the README's C example compiles against the library and handles every cast state" {
	command -v cc >/dev/null || skip "no C compiler"
	lib="$(dirname "$(readlink -f "$BALLCAST")")/libballcast.a"
	[ -f "$lib" ] || skip "no $lib"
	awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on { print }' "$REPO/README.md" >example.c
	grep -q 'bc_castInitialOverlap' example.c
	# the statements go into a main; the includes stay on top
	{
		grep '^#include' example.c
		echo 'int main(void) {'
		grep -v '^#include' example.c
		echo 'printf("%d %.17g %d\n", (int)out.state, out.alpha, (int)out.triangle);'
		echo 'return 0; }'
	} >main.c
	sanitize=""
	[ "${BALLCAST_SANITIZED:-0}" = 1 ] && sanitize="-fsanitize=address,undefined"
	# shellcheck disable=SC2086
	cc -std=c11 -Wall -Wextra -Werror $sanitize -I"$REPO/lib" main.c "$lib" -lgmp -lm -pthread -o example
	cp "$REPO/samples/room.obj" room.obj
	run ./example
	[ "$status" -eq 0 ]
	# the ball from (1,1,2) to (1,1,-1) of radius 0.25 lands on the floor at 7/12
	[ "$output" = "1 0.58333333333333337 1" ]
	rm room.obj
	run ./example
	[ "$status" -eq 1 ]
	[ "$output" = "room.obj:0:0: cannot open: No such file or directory" ]
}

@test "the public header: no template markers, no course jargon, the simulation's tuning private" {
	header="$REPO/lib/ballcast.h"
	! grep -n '@@' "$header"
	! grep -niE 'seed [0-9]|course|FAQ|formulas \(' "$header"
	! grep -nE '#define BC_SIM_(SAGITTA|GAP|REST|TANGENT|POINT)' "$header"
	grep -q '#define BC_SIM_DEFAULT_MAX_EVENTS' "$header"
	# one loader per source, and the closest-point query takes its input struct
	[ "$(grep -c 'bcMesh\* bcMesh_LoadObj' "$header")" -eq 1 ]
	[ "$(grep -c 'bcMesh\* bcMesh_ParseObj' "$header")" -eq 1 ]
	! grep -n 'WithOptions' "$header"
	grep -q 'bcMesh_Closest(const bcMesh\* mesh, bcClosestInput input' "$header"
	# one error style: nothing returns a bcErrorCode
	! grep -nE '^(BC_API )?bcErrorCode ' "$header"
}

@test "every mesh in tests/data/meshes has a known licence in SOURCE.txt" {
	dir="$REPO/tests/data/meshes"
	! grep -niE 'unclear|unknown' "$dir/SOURCE.txt"
	for f in "$dir"/*.obj; do
		grep -qE "^  $(basename "$f") +[A-Z]" "$dir/SOURCE.txt" || {
			echo "$(basename "$f") has no source line in SOURCE.txt"
			return 1
		}
	done
}

# What the install step of `make TARGET` would apt-get install on a machine
# that has nothing: its scripts/install-deps line (from make -n), run with
# dpkg, apt-get and sudo stubbed; prints the packages, one a line, sorted.
installed_by() {
	mkdir -p stubs
	printf '#!/bin/sh\nexit 1\n' >stubs/dpkg
	printf '#!/bin/sh\n[ "$1" = install ] && shift 4 && printf "%%s\\n" "$@" >>"%s/apt.log"\nexit 0\n' "$PWD" >stubs/apt-get
	printf '#!/bin/sh\nexec "$@"\n' >stubs/sudo
	chmod +x stubs/*
	rm -f apt.log
	line=$(make -s -C "$REPO" -n "$1" | grep -m1 'scripts/install-deps')
	[ -n "$line" ] || return 1
	(cd "$REPO" && PATH="$BATS_TEST_TMPDIR/stubs:$PATH" sh -c "$line") 2>/dev/null
	sort apt.log
}

@test "make demo installs only what the build needs; make check and .ci/run the test tools" {
	installed_by demo >demo.txt
	printf '%s\n' gcc libcjson-dev libgmp-dev make pkg-config >expected.txt
	diff -u expected.txt demo.txt
	installed_by check >check.txt
	for p in gcc make pkg-config libcjson-dev libgmp-dev check bats mandoc parallel librsvg2-bin python3 \
		chromium clang libclang-rt-14-dev valgrind; do
		grep -qx "$p" check.txt || {
			echo "make check does not install $p"
			return 1
		}
	done
	# .ci/run: install-deps with no argument installs everything make check does
	grep -qx 'sh scripts/install-deps' "$REPO/.ci/run"
	rm -f apt.log
	(cd "$REPO" && PATH="$BATS_TEST_TMPDIR/stubs:$PATH" sh scripts/install-deps) 2>/dev/null
	sort apt.log >ci.txt
	diff -u check.txt ci.txt
}

# The README's "Where things live" rows: the paths in their first column.
map_paths() {
	awk '/^## Where things live/ { on = 1; next } on && /^## / { on = 0 } on' "$REPO/README.md" |
		sed -n 's/^| `\([^`]*\)` |.*/\1/p'
}

@test "README's map of the tree: every source file has its row (a header in its .c's row), every row its file" {
	map_paths >paths.txt
	[ "$(wc -l <paths.txt)" -gt 40 ]
	awk '/^## Where things live/ { on = 1; next } on && /^## / { on = 0 } on' "$REPO/README.md" >map.txt
	cd "$REPO" || return 1
	while read -r p; do
		[ -e "$p" ] || {
			echo "README names $p, which is not in the tree"
			return 1
		}
	done <"$BATS_TEST_TMPDIR/paths.txt"
	for f in lib/*.c cli/*.c; do
		grep -qx "$f" "$BATS_TEST_TMPDIR/paths.txt" || {
			echo "$f has no row in README's map"
			return 1
		}
	done
	for h in lib/*.h cli/*.h; do
		c="${h%.h}.c"
		if grep -qx "$h" "$BATS_TEST_TMPDIR/paths.txt"; then continue; fi
		# a header with a .c of its name is named in that row
		grep "^| \`$c\` |" "$BATS_TEST_TMPDIR/map.txt" | grep -qF "\`$(basename "$h")\`" || {
			echo "$h is named neither in a row of its own nor in $c's"
			return 1
		}
	done
}
