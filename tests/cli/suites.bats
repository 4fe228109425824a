#!/usr/bin/env bats
# tests/run-suites.sh, which `make check` runs: every test binary the build
# made is run, whatever its kind (issue 26: the scale leak suite was built
# and never run), and one the Makefile built but the script did not run is
# a failure.

load helpers

# A tree of its own: sources for a unit suite and a scale suite, binaries
# for them that print Check's summary, and one left by a deleted test.
setup() {
	common_setup
	mkdir -p tree/tests/unit tree/tests/scale tree/build/tests
	cp "$REPO/tests/run-suites.sh" tree/tests/
	touch tree/tests/unit/alpha.c tree/tests/scale/beta.c
	for name in alpha scale_beta gone; do
		printf '#!/bin/sh\necho "100%%: Checks: 2, Failures: 0, Errors: 0"\n' >"tree/build/tests/$name"
		chmod +x "tree/build/tests/$name"
	done
}

runner() {
	(cd tree && BALLCAST_CLI=0 BALLCAST_EXACT=0 BALLCAST_PYTHON= sh tests/run-suites.sh "$@") >runner.out 2>&1 && status=0 || status=$?
}

@test "run-suites: the unit and the scale suites both run, a binary without a source does not" {
	runner --expect "build/tests/alpha build/tests/scale_beta" build
	[ "$status" -eq 0 ] || { cat runner.out; false; }
	grep -qx 'unit build/tests/alpha: 2 passed, 0 failed' runner.out
	grep -qx 'scale build/tests/scale_beta: 2 passed, 0 failed' runner.out
	if grep -q gone runner.out; then cat runner.out; false; fi
	[ "$(tail -n 1 runner.out)" = "4 passed, 0 failed" ]
	# --unit-only (make check-unit): the unit suites alone
	runner --unit-only --expect "build/tests/alpha" build
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 runner.out)" = "2 passed, 0 failed" ]
}

@test "run-suites: a binary the Makefile built but the script did not run fails the run" {
	# a kind of test no source names (the Makefile would build it from a rule
	# of its own), and one that is missing
	printf '#!/bin/sh\necho "100%%: Checks: 1, Failures: 0, Errors: 0"\n' >tree/build/tests/stress_gamma
	chmod +x tree/build/tests/stress_gamma
	runner --expect "build/tests/alpha build/tests/scale_beta build/tests/stress_gamma build/tests/delta" build
	[ "$status" -eq 1 ]
	grep -qx 'suite build/tests/stress_gamma: built by make but not run' runner.out
	grep -qx 'suite build/tests/delta: built by make but not run' runner.out
	[ "$(tail -n 1 runner.out)" = "4 passed, 2 failed" ]
}

@test "run-suites: make check runs the scale suites it builds, and checks that it ran all it built" {
	# the rule itself: what it builds is what it expects to have run
	make -s -C "$REPO" -n check 2>/dev/null | grep -q 'run-suites.sh --expect ".*build/tests/scale_leaks.*build/asan/tests/' ||
		{ make -s -C "$REPO" -n check | grep run-suites; false; }
}
