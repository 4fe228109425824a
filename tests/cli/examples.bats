#!/usr/bin/env bats
# Docs that cannot go stale: every `$ command` of the man page's .EX blocks
# and of the README's console blocks runs, and prints the text shown under
# it (tests/cli/examples.py extracts and runs them).

load helpers

setup() {
	common_setup
	# `ballcast` on PATH is the one under test (with make check-valgrind's wrapper)
	mkdir -p bin
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${BALLCAST_WRAPPER:-}" "$BALLCAST" >bin/ballcast
	chmod +x bin/ballcast
	# the samples, as ./samples/room.obj and as ./room.obj
	cp -r "$REPO/samples" samples
	cp "$REPO"/samples/* .
}

# throws.ndjson: n random throws through the sample room, each with an id
make_throws() {
	awk -v n="$1" 'BEGIN {
		srand(5)
		for (i = 0; i < n; i++)
			printf "{\"id\":\"t%d\",\"p0\":[%.6f,%.6f,%.6f],\"p1\":[%.6f,%.6f,%.6f],\"r\":0.1}\n", i,
				0.5 + 7 * rand(), 0.5 + 5 * rand(), 0.3 + 2.4 * rand(),
				0.5 + 7 * rand(), 0.5 + 5 * rand(), 0.3 + 2.4 * rand()
	}' >throws.ndjson
}

@test "examples: the extractor finds the examples, their commands joined over lines" {
	python3 "$REPO/tests/cli/examples.py" --list "$REPO/man/ballcast.1" "$REPO/README.md" >list.txt
	grep -q 'README.md:[0-9]*: \$ ballcast cast samples/room.obj samples/throws.json --format ndjson | head -2$' list.txt
	grep -q 'ballcast.1:[0-9]*: \$ ballcast balls billiards.json$' list.txt
	grep -q "ballcast.1:[0-9]*: \\\$ ballcast cast --format csv samples/room.obj samples/throws.csv | *awk -F, 'NR > 1" list.txt
	grep -q 'ballcast.1:[0-9]*: \$ parallel --pipe-part -a throws.ndjson --block 10M --keep-order  *ballcast cast' list.txt
	# a changed output fails: the README's example with one digit changed
	sed 's/"alpha":0.5833333333333334/"alpha":0.5833333333333335/' "$REPO/README.md" >README.md
	PATH="$PWD/bin:$PATH" run python3 "$REPO/tests/cli/examples.py" --run "$PWD" README.md
	[ "$status" -eq 1 ]
	assert_contains "$output" "1 examples, 1 differ"
}

@test "examples: every example of the man page prints what the man page shows" {
	command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps test installs it)"
	# for the GNU parallel recipe: 120,000 throws, 11 MB, enough for the old
	# recipe's -N 100000 to warn ten times
	make_throws 120000
	PATH="$PWD/bin:$PATH" run python3 "$REPO/tests/cli/examples.py" --run "$PWD" "$REPO/man/ballcast.1"
	echo "$output"
	[ "$status" -eq 0 ]
	# the recipe's output is one process's
	"$BALLCAST" cast -q room.obj throws.ndjson --format ndjson >one.ndjson
	[ "$(wc -l <hits.ndjson)" -eq 120000 ]
	cmp one.ndjson hits.ndjson
}

@test "examples: every example of the README prints what the README shows" {
	PATH="$PWD/bin:$PATH" run python3 "$REPO/tests/cli/examples.py" --run "$PWD" "$REPO/README.md"
	echo "$output"
	[ "$status" -eq 0 ]
	assert_contains "$output" "examples, 0 differ"
}

@test "examples: the old parallel recipe (-N 100000) warns on this input, so the test above can tell" {
	command -v parallel >/dev/null || skip "GNU parallel is not installed"
	make_throws 120000
	parallel --pipe --keep-order -N 100000 "$BALLCAST" cast -q -j 1 room.obj - --format ndjson \
		<throws.ndjson >old.ndjson 2>err.txt
	grep -q 'A record was longer than 1048576' err.txt
}
