#!/bin/sh
# Run every test binary in each build directory given (the unit suites,
# tests/unit/NAME.c -> BUILD/tests/NAME, and the other kinds, tests/KIND/X.c
# -> BUILD/tests/KIND_X: tests/scale/leaks.c is scale_leaks), then the CLI
# tests (bats, against ./ballcast; BALLCAST_CLI=0 skips them), then the
# Python package's tests (pytest, with BALLCAST_PYTHON, the interpreter
# `make python` set up), then the exact-reference suites (tests/exact: cast,
# then balls; BALLCAST_EXACT=0 skips both), and end with one line that sums
# them all:
# "N passed, N failed". Exit status 1 if anything failed.
#   --unit-only       the unit suites only (no other kind, no CLI, no Python, no exact)
#   --expect "BIN..." the binaries the Makefile built: each must have been run
#                     (one that was not, or is missing, is a failure)
#   [BALLCAST_CLI=0] [BALLCAST_EXACT=0] [BALLCAST_PYTHON=PY] tests/run-suites.sh [--unit-only] [--expect "BIN..."] BUILD [BUILD...]
unit_only=0
expect=""
while [ $# -gt 0 ]; do
	case "$1" in
	--unit-only) unit_only=1; shift ;;
	--expect) expect="$2"; shift 2 ;;
	*) break ;;
	esac
done
passed=0
failed=0
ran=" "
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# suite_kind NAME: the kind of test binary NAME by its source (unit for
# tests/unit/NAME.c, KIND for tests/KIND/X.c when NAME is KIND_X); nothing
# when it has none (left in the build directory by a renamed or deleted test).
suite_kind() {
	if [ -f "tests/unit/$1.c" ]; then
		echo unit
		return
	fi
	case "$1" in
	*_*) [ -f "tests/${1%%_*}/${1#*_}.c" ] && echo "${1%%_*}" ;;
	esac
}

for dir in "$@"; do
	for t in "$dir"/tests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		kind=$(suite_kind "$(basename "$t")")
		[ -n "$kind" ] || continue
		[ "$unit_only" -eq 1 ] && [ "$kind" != unit ] && continue
		ran="$ran$t "
		"$t" >"$log" 2>&1
		status=$?
		line=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | tail -n 1)
		if [ -z "$line" ]; then
			cat "$log"
			echo "suite $t: crashed or printed no summary (exit $status)"
			failed=$((failed + 1))
			continue
		fi
		checks=$(echo "$line" | sed 's/.*Checks: \([0-9]*\).*/\1/')
		fails=$(echo "$line" | sed 's/.*Failures: \([0-9]*\).*/\1/')
		errs=$(echo "$line" | sed 's/.*Errors: \([0-9]*\).*/\1/')
		bad=$((fails + errs))
		if [ "$bad" -ne 0 ] || [ "$status" -ne 0 ]; then
			grep -v '^Running suite' "$log"
			[ "$bad" -eq 0 ] && bad=1
		fi
		echo "$kind $t: $((checks - bad)) passed, $bad failed"
		passed=$((passed + checks - bad))
		failed=$((failed + bad))
	done
done

# Every binary the Makefile built must have run: a new kind of test that
# this script does not know fails here instead of being left out.
for t in $expect; do
	case "$ran" in
	*" $t "*) ;;
	*)
		echo "suite $t: built by make but not run"
		failed=$((failed + 1))
		;;
	esac
done

if [ "$unit_only" -eq 0 ] && [ "${BALLCAST_CLI:-1}" = "1" ]; then
	bats --tap tests/cli >"$log" 2>&1
	ok=$(grep -c '^ok ' "$log")
	notok=$(grep -c '^not ok ' "$log")
	grep -v '^ok ' "$log" | grep -v '^1\.\.' || true
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
	if [ -n "$plan" ] && [ $((ok + notok)) -lt "$plan" ]; then
		notok=$((plan - ok))
	fi
	echo "cli tests/cli: $ok passed, $notok failed"
	passed=$((passed + ok))
	failed=$((failed + notok))
fi

# The Python package's tests (tests/python, pytest), with the interpreter of
# the virtual environment `make python` made (BALLCAST_PYTHON; make check
# sets it); said to be skipped when it is not given.
if [ "$unit_only" -eq 0 ]; then
	if [ -z "${BALLCAST_PYTHON:-}" ]; then
		echo "python tests/python: skipped (BALLCAST_PYTHON not set: make check sets it)"
	else
		PYTHONDONTWRITEBYTECODE=1 "$BALLCAST_PYTHON" -m pytest -q -p no:cacheprovider tests/python >"$log" 2>&1
		status=$?
		line=$(grep -E '^[0-9]+ (passed|failed|error)|^=* *[0-9]+ (passed|failed|error).* in [0-9.]+s' "$log" |
			tail -n 1)
		ok=$(echo "$line" | sed -n 's/.*[^0-9]\([0-9][0-9]*\) passed.*/\1/p; s/^\([0-9][0-9]*\) passed.*/\1/p' | head -n 1)
		bad=$(echo "$line" | sed -n 's/^\([0-9][0-9]*\) failed.*/\1/p; s/.*[^0-9]\([0-9][0-9]*\) failed.*/\1/p' | head -n 1)
		errs=$(echo "$line" | sed -n 's/^\([0-9][0-9]*\) errors*.*/\1/p; s/.*[^0-9]\([0-9][0-9]*\) errors*.*/\1/p' |
			head -n 1)
		ok=${ok:-0}
		notok=$((${bad:-0} + ${errs:-0}))
		if [ -z "$line" ] || { [ "$status" -ne 0 ] && [ "$notok" -eq 0 ]; }; then
			cat "$log"
			echo "python tests/python: crashed or printed no summary (exit $status)"
			notok=$((notok + 1))
		elif [ "$notok" -ne 0 ]; then
			grep -E '^(FAILED|ERROR) ' "$log"
		fi
		echo "python tests/python: $ok passed, $notok failed"
		passed=$((passed + ok))
		failed=$((failed + notok))
	fi
fi

# The exact-reference suite (tests/exact): 100,000 casts at exact
# degeneracies against exact rational arithmetic (BALLCAST_EXACT_COUNT=N for
# a shorter run, BALLCAST_EXACT=0 to skip).  The reference's own unit tests
# run first; a failure there counts as one failed case.
if [ "$unit_only" -eq 0 ] && [ "${BALLCAST_EXACT:-1}" = "1" ]; then
	if ! python3 tests/exact/test_reference.py >"$log" 2>&1; then
		cat "$log"
		echo "exact tests/exact: the reference's own unit tests failed"
		failed=$((failed + 1))
	fi
	python3 tests/exact/run.py --ballcast ./ballcast --count "${BALLCAST_EXACT_COUNT:-100000}" \
		--max-print 5 >"$log" 2>&1
	line=$(grep -E '^exact: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		cat "$log"
		echo "exact tests/exact: crashed or printed no summary"
		failed=$((failed + 1))
	else
		ok=$(echo "$line" | sed 's/^exact: \([0-9]*\) passed.*/\1/')
		notok=$(echo "$line" | sed 's/.* \([0-9]*\) failed$/\1/')
		[ "$notok" -eq 0 ] || grep -v '^exact: ' "$log"
		echo "exact tests/exact: $ok passed, $notok failed"
		passed=$((passed + ok))
		failed=$((failed + notok))
	fi
fi

# The balls exact-reference suite (tests/exact/balls_*.py): `ballcast balls`
# against exact rational arithmetic on 3,000 groups of balls in 14 classes of
# exact degeneracies and extreme scales, about 10,400 answers in 15-30 s
# (BALLCAST_BALLS_EXACT_COUNT=N for another count; BALLCAST_EXACT=0 skips it
# with the cast suite). The reference's own unit tests run first; a failure
# there counts as one failed case.
if [ "$unit_only" -eq 0 ] && [ "${BALLCAST_EXACT:-1}" = "1" ]; then
	if ! python3 tests/exact/test_balls_reference.py >"$log" 2>&1; then
		cat "$log"
		echo "balls-exact tests/exact: the reference's own unit tests failed"
		failed=$((failed + 1))
	fi
	python3 tests/exact/balls_run.py --ballcast ./ballcast --count "${BALLCAST_BALLS_EXACT_COUNT:-3000}" \
		--max-print 5 >"$log" 2>&1
	line=$(grep -E '^balls-exact: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		cat "$log"
		echo "balls-exact tests/exact: crashed or printed no summary"
		failed=$((failed + 1))
	else
		ok=$(echo "$line" | sed 's/^balls-exact: \([0-9]*\) passed.*/\1/')
		notok=$(echo "$line" | sed 's/.* \([0-9]*\) failed$/\1/')
		[ "$notok" -eq 0 ] || grep -v '^balls-exact: ' "$log"
		echo "balls-exact tests/exact: $ok passed, $notok failed"
		passed=$((passed + ok))
		failed=$((failed + notok))
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
