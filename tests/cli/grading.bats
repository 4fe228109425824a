#!/usr/bin/env bats
# The teacher's workflow of issue 4, end to end: expected answers with the
# course's conventions, a class's submissions in mixed formats graded into a
# CSV table, and a picture of what went wrong.

load helpers

setup() {
	common_setup
	cp "$ROOM" room.obj
	cp "$REPO/samples/throws.json" throws.json
	"$BALLCAST" cast --convention cs121 room.obj throws.json >expected.json
	# student1: perfect, in JSON.
	cp expected.json student1.json
	# student2: CSV, one alpha wrong.
	"$BALLCAST" cast --convention cs121 --format csv room.obj throws.json |
		sed 's/^drop-on-floor,true,0\.5833333333333334,/drop-on-floor,true,0.59,/' >student2.csv
	# student3: NDJSON, the room corner reported on another tied triangle (the
	# wall x = 8, triangle 6, with its own normal), and one throw missing.
	"$BALLCAST" cast --convention cs121 --format ndjson room.obj throws.json |
		grep -v '"id":"pillar"' |
		sed '/"id":"room-corner"/s/"triangle":2,"face":1,"vertices":\[4,7,6\]/"triangle":6,"face":3,"vertices":[1,5,6]/' \
			>student3.ndjson
}

@test "grading: cast --convention cs121, compare a class into grades.csv, render why" {
	grep -q '"settings":{"two_sided":false,"approach":"lt","initial_overlap":"ignore","normal":"average"' expected.json
	grep -q '"ties":\[' expected.json
	grep -q '"triangle":6,"face":3' student3.ndjson

	"$BALLCAST" compare expected.json student1.json student2.csv student3.ndjson --report csv >grades.csv &&
		status=0 || status=$?
	[ "$status" -eq 1 ]
	{
		echo 'file,records,passed,failed,missing,extra,score,diagnosis,review'
		echo 'student1.json,13,13,0,0,0,1,,'
		echo 'student2.csv,13,12,1,0,0,0.9230769230769231,,'
		echo 'student3.ndjson,12,12,0,1,0,0.9230769230769231,,'
	} | diff -u - grades.csv

	bcast compare expected.json student2.csv
	assert_status 1
	assert_contains "$out" 'id "drop-on-floor": alpha 0.59 vs expected 0.5833333333333334'
	assert_contains "$out" '12 passed, 1 failed, 0 missing, 0 extra'

	bcast render room.obj student2.csv --compare expected.json -o why.svg
	assert_status 0
	# render judges as compare does, and says so in compare's words
	echo '12 passed, 1 failed, 0 missing, 0 extra' | assert_stdout_eq
	xmllint --noout why.svg
	grep -q 'compared with expected.json: 1 of 13 differ, 0 missing' why.svg
	grep -q 'fill="#d62728">drop-on-floor</text>' why.svg
}
