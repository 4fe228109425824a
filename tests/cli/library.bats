#!/usr/bin/env bats
# The library's boundary: the shared library exports exactly the functions
# ballcast.h declares (each marked BC_API), and no file of lib/ but
# lib/core.c calls the C library's allocator, and the header compiles as
# C++11 as well as C11.
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

@test "ballcast.h is a header for C++ too: C++11 and C11, pedantic, no warning; a C++ program links and casts" {
	cxx=$(command -v g++ || command -v clang++ || true)
	[ -n "$cxx" ] || skip "no C++ compiler (scripts/install-deps test installs clang)"
	cat >use.cpp <<'CPP'
#include <ballcast.h>
#include <cstdio>
int main()
{
	/* a subnormal vector normalises to unit length (the header's scaling) */
	bcVec3 n = bcNormalize(bcMakeVec3(1e-310, 0.0, 0.0));
	/* a ball dropped onto a triangle: alpha 0.25 by hand (centre 1 above
	 * z = 0 at alpha (2 - 1) / 4) */
	bcCastOptions options = bcDefaultCastOptions();
	bcCastInput input = { bcMakeVec3(0.25, 0.25, 2.0), bcMakeVec3(0.25, 0.25, -2.0), 1.0 };
	bcCastOutput out = bcCastTriangle(bcMakeVec3(0, 0, 0), bcMakeVec3(1, 0, 0), bcMakeVec3(0, 1, 0), input, &options);
	std::printf("%.17g %d %.17g\n", n.x, out.state == bc_castHit, out.alpha);
	return 0;
}
CPP
	for std in c++11 c++14 c++17; do
		"$cxx" -std=$std -Wall -Wextra -Wpedantic -Werror -I"$REPO/lib" -c use.cpp -o use.o
	done
	# the build names the shared library by its soname only when installed
	ln -s "$SHARED" libballcast.so
	ln -s "$SHARED" "$(objdump -p "$SHARED" | awk '$1 == "SONAME" { print $2 }')"
	"$cxx" -std=c++11 -I"$REPO/lib" use.cpp -o use -L. -lballcast -Wl,-rpath,"$PWD"
	[ "$(./use)" = "1 1 0.25" ]
	printf '#include <ballcast.h>\nint main(void) { return bcNormalize(bcMakeVec3(3, 4, 0)).x == 0.6 ? 0 : 1; }\n' >use.c
	cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$REPO/lib" -c use.c -o usec.o
}
