#!/usr/bin/env bats
# Seed 003: a point passing through a polygon between two frames is cast
# with r = 0 against the fan-triangulated polygon. Hits exactly on a
# triangulation diagonal must never slip through, and go to the lower
# triangle. Also: make install gives a usable library.

load helpers

setup() {
	common_setup
	# A pentagon in z = 0, counter-clockwise from +z; fan triangles
	# 0 = (v0 v1 v2), 1 = (v0 v2 v3), 2 = (v0 v3 v4); diagonals v0-v2, v0-v3.
	printf 'v 0 0 0\nv 2 0 0\nv 3 1.5 0\nv 1 3 0\nv -1 1.5 0\nf 1 2 3 4 5\n' >pentagon.obj
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -3 -2 -1\n' >quad.obj
}

@test "003: a point through a pentagon's diagonals hits, on the lower fan triangle" {
	cat >frames.csv <<'CSV'
id,x0,y0,z0,x1,y1,z1,r
diag02,1.5,0.75,1,1.5,0.75,-1,0
diag03,0.5,1.5,1,0.5,1.5,-1,0
diag02-slanted,0,0,2,3,1.5,-2,0
inside2,0,1.5,1,0,1.5,-3,0
CSV
	bcast cast --format csv pentagon.obj frames.csv
	assert_status 0
	assert_line 2 'diag02,true,0.5,false,face,0,0,0,1,2,1.5,0.75,0,1.5,0.75,0,0,0,1,0,0,1,'
	assert_line 3 'diag03,true,0.5,false,face,1,0,0,2,3,0.5,1.5,0,0.5,1.5,0,0,0,1,0,0,1,'
	assert_line 4 'diag02-slanted,true,0.5,false,face,0,0,0,1,2,1.5,0.75,0,1.5,0.75,0,0,0,1,0,0,1,'
	assert_line 5 'inside2,true,0.25,false,face,2,0,0,3,4,0,1.5,0,0,1.5,0,0,0,1,0,0,1,'
}

@test "003: a quad (relative indices) hit exactly on its diagonal, from the front only" {
	printf '{"id":"front","p0":[0.5,0.5,1],"p1":[0.5,0.5,-1],"r":0}\n{"id":"back","p0":[0.5,0.5,-1],"p1":[0.5,0.5,1],"r":0}\n' >t.ndjson
	bcast cast --format ndjson quad.obj t.ndjson
	assert_status 0
	assert_line 1 '{"id":"front","hit":true,"alpha":0.5,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.5,0.5,0],"center":[0.5,0.5,0],"normal":[0,0,1],"triangle_normal":[0,0,1]}'
	assert_line 2 '{"id":"back","hit":false,"alpha":1}'
}

@test "make install puts a library, header, pkg-config file, man page and binary that work" {
	make -s -C "$REPO" install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr >/dev/null
	root="$BATS_TEST_TMPDIR/root/usr"
	[ -x "$root/bin/ballcast" ]
	[ -f "$root/share/man/man1/ballcast.1" ]
	[ -f "$root/lib/libballcast.a" ]
	[ -f "$root/include/ballcast.h" ]
	grep -q '^Libs: -L${libdir} -lballcast' "$root/lib/pkgconfig/ballcast.pc"
	printf '%s\n' '#include <ballcast.h>' '#include <stdio.h>' 'int main(void)' '{' \
		'	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };' \
		'	const int32_t t[] = { 0, 1, 2 };' \
		'	bcMeshDef def = { v, 3, t, 1, NULL, 0 };' \
		'	bcMesh* mesh = bcMesh_Create(&def, NULL);' \
		'	bcCastInput in = { { 0.25, 0.25, 2 }, { 0.25, 0.25, -2 }, 0.5 };' \
		'	bcCastOutput out = bcMesh_Cast(mesh, in, NULL);' \
		'	printf("%d %.17g\n", out.state, out.alpha);' \
		'	bcMesh_Destroy(mesh);' \
		'	return 0;' '}' >use.c
	cc -I"$root/include" use.c "$root/lib/libballcast.a" -lgmp -lm -pthread -o use
	[ "$(./use)" = "1 0.375" ]
}

@test "concave: a U-shaped face is not hit in its notch, hit in its arms; the triangles are ear clipping's, no warning" {
	# A U in z = 0 (counter-clockwise from +z): the notch is 1 < x < 2, y > 1.
	printf 'v 0 0 0\nv 3 0 0\nv 3 3 0\nv 2 3 0\nv 2 1 0\nv 1 1 0\nv 1 3 0\nv 0 3 0\nf 1 2 3 4 5 6 7 8\n' >u.obj
	printf 'id,x0,y0,z0,x1,y1,z1,r\nnotch,1.5,2,1,1.5,2,-1,0\nleft,0.5,2,1,0.5,2,-1,0\nright,2.5,2,1,2.5,2,-1,0\nbase,1.5,0.5,1,1.5,0.5,-1,0\n' >t.csv
	bcast cast -f csv u.obj t.csv
	assert_status 0
	assert_no_stderr
	[ "$(csv_cell stdout 2 2)" = false ]
	[ "$(csv_cell stdout 3 2),$(csv_cell stdout 3 3)" = true,0.5 ]
	[ "$(csv_cell stdout 4 2),$(csv_cell stdout 4 3)" = true,0.5 ]
	[ "$(csv_cell stdout 5 2),$(csv_cell stdout 5 3)" = true,0.5 ]
	# 8 corners, 6 triangles, all of face 0; every triangle inside the U
	bcast cast u.obj t.csv
	assert_contains "$out" '"vertices":8,"triangles":6,"faces":1,"degenerate":0'
}

@test "polygons cut as a fan are reported: non-planar and self-intersecting, at their f line, unless -q" {
	# face 1: a concave quad whose corner 4 is 0.5 off the plane (non-planar);
	# face 2: a bow tie (self-intersecting); face 3: a convex quad (no note).
	printf 'v 0 0 0\nv 2 0 0\nv 2 2 0\nv 1 0.5 0.5\nv 0 2 0\nf 1 2 3 4\nf 1 2 5 3\nf 1 2 3 5\n' >bad.obj
	printf '{"p0":[5,5,1],"p1":[5,5,-1],"r":0}\n' >t.ndjson
	bcast cast -f ndjson bad.obj t.ndjson
	assert_status 0
	[ "$(wc -l <stderr)" -eq 2 ]
	sed -n 1p stderr | grep -q '^ballcast: bad.obj:6:1: a polygon of 4 corners is not planar'
	sed -n 2p stderr | grep -q '^ballcast: bad.obj:7:1: a polygon of 4 corners intersects itself: cut as a fan$'
	# every command that reads a mesh says the same
	bcast closest -f ndjson bad.obj <<<'{"p":[0,0,1]}'
	[ "$(grep -c '^ballcast: bad.obj:[67]:1: ' stderr)" -eq 2 ]
	bcast intersect bad.obj
	[ "$(grep -c '^ballcast: bad.obj:[67]:1: ' stderr)" -eq 2 ]
	bcast cast -q -f ndjson bad.obj t.ndjson
	assert_status 0
	assert_no_stderr
}

# big_face KIND N: one face of N corners in z = 0, written by awk: "convex"
# on the unit circle, "comb" a base and N / 4 upright teeth (tooth j spans
# 2j < x < 2j + 1, 1 < y < N / 4; the notches between them are empty).
big_face() {
	awk -v kind="$1" -v n="$2" 'BEGIN {
		if (kind == "convex") {
			for (i = 0; i < n; i++) printf "v %.17g %.17g 0\n", cos(2 * 3.141592653589793 * i / n), sin(2 * 3.141592653589793 * i / n)
		} else {
			t = int(n / 4); h = t
			printf "v 0 0 0\nv %d 0 0\n", 2 * t - 1
			for (j = t - 1; j >= 0; j--) {
				printf "v %d %d 0\nv %d %d 0\n", 2 * j + 1, h, 2 * j, h
				if (j > 0) printf "v %d 1 0\nv %d 1 0\n", 2 * j, 2 * j - 1
			}
			n = 4 * t
		}
		printf "f"
		for (i = 1; i <= n; i++) printf " %d", i
		printf "\n"
	}' >"$1.obj"
}

@test "a face of 200,000 corners is cut in a blink: convex the fan, a comb by ear clipping (issue 26)" {
	# The pairwise test of every two edges took 9-16 s for 30,000 corners;
	# the limit catches anything quadratic. Under valgrind (a wrapper) 20,000
	# corners with a longer limit.
	n=200000 limit=20
	if [ -n "${BALLCAST_WRAPPER:-}" ]; then n=20000 limit=300; fi
	big_face convex "$n"
	big_face comb "$n"
	printf 'id,x0,y0,z0,x1,y1,z1,r\ncentre,0.25,0.125,1,0.25,0.125,-1,0\noutside,1.5,0,1,1.5,0,-1,0\n' >convex.csv
	# comb: into tooth 1 (2 < x < 3), into the notch beside it (3 < x < 4), the base
	printf 'id,x0,y0,z0,x1,y1,z1,r\ntooth,2.5,7,1,2.5,7,-1,0\nnotch,3.5,7,1,3.5,7,-1,0\nbase,3.5,0.5,1,3.5,0.5,-1,0\n' >comb.csv
	timeout "$limit" ${BALLCAST_WRAPPER:-} "$BALLCAST" cast -f csv convex.obj convex.csv >convex.out 2>convex.err ||
		{ cat convex.err; false; }
	[ "$(csv_cell convex.out 2 2),$(csv_cell convex.out 2 3),$(csv_cell convex.out 2 7)" = true,0.5,0 ]
	[ "$(csv_cell convex.out 3 2)" = false ]
	timeout "$limit" ${BALLCAST_WRAPPER:-} "$BALLCAST" cast -f csv comb.obj comb.csv >comb.out 2>comb.err ||
		{ cat comb.err; false; }
	[ ! -s comb.err ]
	[ "$(csv_cell comb.out 2 2),$(csv_cell comb.out 2 3)" = true,0.5 ]
	[ "$(csv_cell comb.out 3 2)" = false ]
	[ "$(csv_cell comb.out 4 2),$(csv_cell comb.out 4 3)" = true,0.5 ]
	# every triangle of face 0, and as many as a face of n corners gives
	timeout "$limit" ${BALLCAST_WRAPPER:-} "$BALLCAST" cast comb.obj comb.csv >comb.json
	grep -q "\"triangles\":$((n - 2)),\"faces\":1," comb.json
}
