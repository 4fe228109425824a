#!/usr/bin/env bats
# The course's conventions (--convention cs121 and its parts), --stats, and
# cast as a clean NDJSON filter for GNU parallel.

load helpers

setup() {
	common_setup
}

@test "cs121: --approach lt, so in-plane motion no longer touches the edge" {
	printf '{"id":"slide","p0":[0.5,-2,0],"p1":[0.5,2,0],"r":0.5}\n' >t.ndjson
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 0
	assert_contains "$out" '"hit":true,"alpha":0.375,"initial_overlap":false,"feature":"edge"'
	bcast cast --convention cs121 --format ndjson tri.obj t.ndjson
	assert_status 0
	echo '{"id":"slide","hit":false,"alpha":1,"ties":[]}' | assert_stdout_eq
	bcast cast --convention cs121 --approach le --format ndjson tri.obj t.ndjson
	assert_contains "$out" '"feature":"edge"'
}

@test "cs121: the normal is the average of the tied triangles' normals" {
	# The room's corner (8,6,3) is shared by ceiling triangles 2 and 3 (-z),
	# wall x=8 triangles 6 and 7 (-x) and wall y=6 triangle 8 (-y):
	# (-2,-1,-2)/3.
	printf '{"id":"corner","p0":[4,1.5,0.75],"p1":[12,10.5,5.25],"r":0}\n' >t.ndjson
	bcast cast --convention cs121 --format ndjson "$ROOM" t.ndjson
	assert_status 0
	assert_contains "$out" '"alpha":0.5,'
	assert_contains "$out" '"triangle":2,'
	assert_contains "$out" '"normal":[-0.6666666666666666,-0.3333333333333333,-0.6666666666666666],"triangle_normal":[0,0,-1]'
	# Explicit options win over the preset.
	bcast cast --convention cs121 --normal triangle --format ndjson "$ROOM" t.ndjson
	assert_contains "$out" '"normal":[0,0,-1],"triangle_normal":[0,0,-1]'
}

@test "cs121: a ball starting inside a triangle gets no hit from it" {
	printf '{"id":"inside","p0":[0.25,0.25,0.1],"p1":[0.25,0.25,-1],"r":0.5}\n' >t.ndjson
	bcast cast --format ndjson tri.obj t.ndjson
	assert_contains "$out" '"hit":true,"alpha":0,"initial_overlap":true,"feature":"face"'
	bcast cast --convention cs121 --format ndjson tri.obj t.ndjson
	echo '{"id":"inside","hit":false,"alpha":1,"ties":[]}' | assert_stdout_eq
	grep -q '"settings":{"two_sided":false,"approach":"lt","initial_overlap":"ignore","normal":"average"' <(
		"$BALLCAST" cast --convention cs121 tri.obj t.ndjson)
}

@test "a ball starting embedded in a face's plane gets no face hit, only its edge" {
	# |n.(p0-A)| = 0.1 < r = 0.5 beside the triangle, sliding in: the edge AB
	# is reached when y^2 + 0.01 = 0.25, y = -sqrt(0.24), alpha = (1 - sqrt(0.24))/2.
	printf '{"id":"embedded","p0":[0.5,-1,0.1],"p1":[0.5,1,0.1],"r":0.5}\n' >t.ndjson
	bcast cast --format ndjson tri.obj t.ndjson
	assert_status 0
	assert_contains "$out" '"alpha":0.2550510257216822,"initial_overlap":false,"feature":"edge","triangle":0,"face":0,"vertices":[0,1]'
}

@test "--normal average equals the triangle normal when tied triangles agree" {
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n' >square.obj
	printf '{"id":"diag","p0":[0.5,0.5,1],"p1":[0.5,0.5,-1],"r":0.25}\n' >t.ndjson
	bcast cast --normal average --ties --format ndjson square.obj t.ndjson
	assert_status 0
	assert_contains "$out" '"alpha":0.375,"initial_overlap":false,"feature":"face","triangle":0,'
	assert_contains "$out" '"normal":[0,0,1],"triangle_normal":[0,0,1],"ties":[{"triangle":0,"feature":"face"'
	assert_contains "$out" '{"triangle":1,"feature":"face"'
}

@test "--stats prints one JSON line of phase times and counts on stderr" {
	bcast cast --stats -q "$ROOM" "$REPO/samples/throws.json"
	assert_status 0
	[ "$(wc -l <"$BATS_TEST_TMPDIR/stderr")" -eq 1 ]
	grep -Eq '^\{"read_mesh_seconds":[-0-9.e]+,"build_seconds":[-0-9.e]+,"read_trajectories_seconds":[-0-9.e]+,"query_seconds":[-0-9.e]+,"write_seconds":[-0-9.e]+,"triangles":33,"records":13,"hits":10,"errors":0,"threads":[1-9][0-9]*,"peak_memory_bytes":[1-9][0-9]*\}$' stderr
	# Everything but the header line (which names the mesh path) is as usual.
	tail -n +2 stdout | cmp - <(tail -n +2 "$REPO/samples/expected.json")
}

@test "cast is a clean NDJSON filter: GNU parallel shards give the same output" {
	command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps installs it)"
	awk 'BEGIN { srand(7); for (i = 0; i < 6000; i++) {
		printf "{\"id\":\"t%d\",\"p0\":[%.6f,%.6f,%.6f],\"p1\":[%.6f,%.6f,%.6f],\"r\":%.4f}\n", i,
			0.2 + 7.6 * rand(), 0.2 + 5.6 * rand(), 0.2 + 2.6 * rand(),
			-2 + 12 * rand(), -2 + 10 * rand(), -1 + 5 * rand(), (i % 3) * 0.05 }
	}' >throws.ndjson
	"$BALLCAST" cast -q "$ROOM" - --format ndjson <throws.ndjson >one.ndjson
	parallel --will-cite --pipe --keep-order -N 700 -j 4 "$BALLCAST" cast -q "$ROOM" - --format ndjson \
		<throws.ndjson >sharded.ndjson
	[ "$(wc -l <one.ndjson)" -eq 6000 ]
	cmp one.ndjson sharded.ndjson
}
