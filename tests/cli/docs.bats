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
