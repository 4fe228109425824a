#!/usr/bin/env bats
# Exit statuses a scheduler can act on (issue 32): 75 (EX_TEMPFAIL of
# sysexits.h) for what may pass on a retry, an I/O error (EIO, a full disk)
# or out of memory; 1 (bad records) and 2 (usage, syntax, a missing file, a
# directory) stay, as they fail the same way again.

load helpers

setup() {
	common_setup
	printf '{"id":"a","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}\n' >one.ndjson
}

@test "exit 75: an I/O error (EIO: /proc/self/mem read from its start) reading the mesh or the records" {
	bcast cast /proc/self/mem one.ndjson
	assert_status 75
	[ "$err" = "ballcast: /proc/self/mem: cannot read: Input/output error" ]
	bcast cast -f ndjson tri.obj /proc/self/mem
	assert_status 75
	[ "$err" = "ballcast: /proc/self/mem: read error: Input/output error" ]
	bcast closest -f ndjson tri.obj /proc/self/mem
	assert_status 75
	bcast balls -f ndjson /proc/self/mem
	assert_status 75
	bcast intersect /proc/self/mem
	assert_status 75
}

@test "exit 75: a full disk (/dev/full) for the output, streamed or through -o" {
	run bash -c "'$BALLCAST' cast -f ndjson tri.obj one.ndjson >/dev/full"
	[ "$status" -eq 75 ]
	[ "$output" = "ballcast: standard output: write error: No space left on device" ]
	bcast cast -o /dev/full tri.obj one.ndjson
	assert_status 75
	bcast closest -o /dev/full tri.obj one.ndjson
	assert_status 75
}

@test "exit 75: out of memory (ulimit -v) is transient, never 2 and never a crash" {
	[ "${BALLCAST_SANITIZED:-0}" = 1 ] && skip "ASan reserves more address space than the limits leave"
	[ -z "${BALLCAST_WRAPPER:-}" ] || skip "valgrind needs more address space than the limits leave"
	python3 "$REPO/tests/cli/meshconv.py" "$REPO/tests/data/meshes/spot.obj" spot.ply ply-le --double
	transient=0
	for limit in 20000 30000 40000 60000 80000; do
		run bash -c "ulimit -v $limit; '$BALLCAST' cast -f ndjson spot.ply one.ndjson"
		case "$status" in
		0) ;;
		75) transient=$((transient + 1)); echo "$output" | grep -q "out of memory" ;;
		*) echo "ulimit -v $limit: exit $status: $output" >&2; return 1 ;;
		esac
	done
	[ "$transient" -ge 1 ]
}

@test "exit 1 and 2 stay for what a retry cannot mend: bad records, a missing file, a directory, a syntax error, usage" {
	printf '{"id":"a","p0":[0.25,0.25,2],"p1":"x","r":0.5}\n' >bad.ndjson
	bcast cast -f ndjson tri.obj bad.ndjson
	assert_status 1
	bcast cast nosuch.obj one.ndjson
	assert_status 2
	mkdir adir
	bcast cast adir one.ndjson
	assert_status 2
	printf 'v 0 0 0\nf 1 2 3\n' >bad.obj
	bcast cast bad.obj one.ndjson
	assert_status 2
	bcast cast --shard 2/2 -f ndjson tri.obj one.ndjson
	assert_status 2
}
