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
