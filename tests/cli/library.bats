#!/usr/bin/env bats
# The library's boundary: the shared library exports exactly the functions
# ballcast.h declares (each marked BC_API), and no file of lib/ but
# lib/core.c calls the C library's allocator.
# BALLCAST_SHARED_LIBRARY names a shared library built elsewhere.

load helpers

HEADER="$REPO/lib/ballcast.h"
SHARED="${BALLCAST_SHARED_LIBRARY:-$REPO/build/libballcast.so}"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The lines of ballcast.h that begin a function declaration: at column 0, a
# return type, then a bc name and its parenthesis (comment lines begin with
# "/*" or " *", type definitions with "typedef"; the inline vector math is
# "static inline" and exports nothing).
declaration_lines() {
	grep -E '^[A-Za-z_][A-Za-z0-9_ *]*[ *]bc[A-Za-z0-9_]*\(' "$HEADER" | grep -v -e '^typedef' -e '^static inline '
}

# The names declared, sorted.
declared_names() {
	declaration_lines | sed -e 's/(.*//' -e 's/.*[ *]//' | LC_ALL=C sort
}

@test "every function ballcast.h declares is marked BC_API" {
	declaration_lines >lines
	[ -s lines ]
	if grep -v '^BC_API ' lines >unmarked; then
		echo "declared without BC_API:" >&2
		cat unmarked >&2
		return 1
	fi
}

@test "the shared library exports exactly the functions of ballcast.h" {
	command -v nm >/dev/null || skip "nm (binutils) is not installed"
	[ -f "$SHARED" ] || {
		echo "$SHARED not found (run make all)" >&2
		return 1
	}
	declared_names >declared
	# Every defined dynamic symbol, whatever its kind: a leaked variable
	# fails as a leaked function does.
	nm -D --defined-only "$SHARED" | awk 'NF >= 3 { print $3 }' | LC_ALL=C sort >exported
	[ "$(wc -l <declared)" -gt 40 ]
	if ! diff declared exported >difference; then
		echo "< declared in ballcast.h, not exported; > exported, not declared:" >&2
		cat difference >&2
		return 1
	fi
}

@test "no file in lib/ but core.c calls malloc, calloc, realloc, aligned_alloc or free" {
	cd "$REPO" || return 1
	if grep -nE '(^|[^A-Za-z0-9_.>])(malloc|calloc|realloc|aligned_alloc|strdup|free)[[:space:]]*\(' lib/*.c lib/*.h |
		grep -v '^lib/core\.c:' >"$BATS_TEST_TMPDIR/raw"; then
		echo "raw allocation outside lib/core.c (use bcAlloc, bcAllocZeroed, bcRealloc, bcFree):" >&2
		cat "$BATS_TEST_TMPDIR/raw" >&2
		return 1
	fi
}

@test "the command includes no private header of the library: ballcast.h only" {
	cd "$REPO" || return 1
	# every header of lib/ but ballcast.h, as an include would name it
	private=$(cd lib && ls *.h | grep -vx ballcast.h | sed 's/\./\\./' | paste -sd '|')
	[ -n "$private" ]
	if grep -nE "#include \"($private)\"" cli/*.c cli/*.h >"$BATS_TEST_TMPDIR/private"; then
		echo "the command includes a private header of lib/:" >&2
		cat "$BATS_TEST_TMPDIR/private" >&2
		return 1
	fi
}
