#!/usr/bin/env bats
# `ballcast compare EXPECTED ACTUAL...`: identical answers, tolerances on
# alpha, normals and points, exact fields, missing and extra ids, ties,
# every pairing of formats, score tables, reports, --quiet and exit codes.
# EXPECTED files come from `ballcast cast --ties` on the room samples;
# students' answers are copies perturbed with sed and awk.

load helpers

THROWS="$REPO/samples/throws.json"

# The expected answers, cast once for the whole file.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	"$BALLCAST" cast --ties "$ROOM" "$THROWS" >exp.json
	"$BALLCAST" cast --ties --format ndjson "$ROOM" "$THROWS" >exp.ndjson
	"$BALLCAST" cast --ties --format csv "$ROOM" "$THROWS" >exp.csv
	"$BALLCAST" cast --format ndjson "$ROOM" "$THROWS" >noties.ndjson
}

setup() {
	common_setup
	cp "$BATS_FILE_TMPDIR/exp.json" "$BATS_FILE_TMPDIR/exp.ndjson" "$BATS_FILE_TMPDIR/exp.csv" \
		"$BATS_FILE_TMPDIR/noties.ndjson" .
}

# replace_line ID TEXT IN OUT : OUT is IN with the result line of ID (a
# JSON line starting {"id":"ID") replaced by TEXT, keeping a trailing comma.
replace_line() {
	awk -v id="{\"id\":\"$1\"," -v text="$2" '
		index($0, id) == 1 { comma = ($0 ~ /,$/) ? "," : ""; print text comma; next }
		{ print }' "$3" >"$4"
}

# The closing line when all 13 throws pass.
ALL_PASS='13 passed, 0 failed, 0 missing, 0 extra'

# --------------------------------------------------------------- passing

@test "identical files pass: exit 0, only the closing line" {
	for f in exp.json exp.ndjson exp.csv; do
		bcast compare "$f" "$f"
		assert_status 0
		assert_no_stderr
		echo "$ALL_PASS" | assert_stdout_eq
	done
}

@test "every pairing of JSON, NDJSON and CSV passes, with and without ties on either side" {
	"$BALLCAST" cast --format csv "$ROOM" "$THROWS" >noties.csv
	for e in exp.json exp.ndjson exp.csv noties.ndjson noties.csv; do
		for a in exp.json exp.ndjson exp.csv noties.ndjson noties.csv; do
			bcast compare "$e" "$a"
			assert_status 0
			echo "$ALL_PASS" | assert_stdout_eq
		done
	done
}

@test "a student's file with only id, hit, alpha, feature and normal passes --fields hit,alpha,feature,normal" {
	awk -F, 'NR == 1 { print "id,hit,alpha,feature,normal_x,normal_y,normal_z"; next }
		{ print $1 "," $2 "," $3 "," $5 "," $17 "," $18 "," $19 }' exp.csv >student.csv
	sed -n 2p student.csv | grep -qx 'drop-on-floor,true,0.5833333333333334,face,0,0,1'
	bcast compare --fields hit,alpha,feature,normal exp.json student.csv
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq
	# compare grades every field EXPECTED has by default: nothing passes silently
	bcast compare exp.json student.csv
	assert_status 1
	assert_line 1 'student.csv: id "drop-on-floor": initial_overlap missing (expected false); triangle missing (expected 1); face missing (expected 0); vertices missing (expected [0,2,3]); point missing (expected [1,1,0]); center missing (expected [1,1,0.25]); triangle_normal missing (expected [0,0,1])'
}

@test "ids: 7.50 matches 7.5, a string \"42\" matches 42, an unnamed result matches its index" {
	sed -e 's/^{"id":7.50,/{"id":7.5,/' -e 's/^{"id":42,/{"id":"42",/' -e 's/^{"id":11,/{/' exp.ndjson >ids.ndjson
	grep -q '^{"id":"42",' ids.ndjson
	grep -q '^{"hit":false' ids.ndjson
	bcast compare exp.json ids.ndjson
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq
}

# ----------------------------------------------------------------- alpha

@test "alpha off by more than the tolerance fails with the exact message" {
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	bcast compare exp.json s.json
	assert_status 1
	assert_no_stderr
	{
		echo 's.json: id "crate-top": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)'
		echo '12 passed, 1 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
}

@test "alpha within the tolerance passes; the tolerance is inclusive" {
	# 0.5 + 2^-40 (9.09e-13) is within the default 1e-9
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.50000000000090949470177292823791504,/' \
		exp.json >near.json
	bcast compare exp.json near.json
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq

	# 0.625 - 0.5 is exactly 0.125
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	bcast compare --alpha-tol 0.125 exp.json s.json
	assert_status 0
	bcast compare --alpha-tol 0.12 exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "crate-top": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 0.12)'
}

@test "--alpha-rel: a value passes within the absolute or the relative tolerance" {
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	# 0.25 * |0.5| = 0.125: passes
	bcast compare --alpha-rel 0.25 exp.json s.json
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq
	# 0.2 * |0.5| = 0.1: fails, and the message gives the tolerance used
	bcast compare --alpha-rel 0.2 exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "crate-top": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 0.1)'
	# the larger of the two tolerances counts
	bcast compare --alpha-rel 0.2 --alpha-tol 0.2 exp.json s.json
	assert_status 0
}

# ---------------------------------------------------------------- normals

@test "a normal 2 degrees off fails with --normal-tol 1 and passes with 3" {
	# drop-on-floor's normal (0,0,1) turned 2 degrees about x: (0, sin 2deg, cos 2deg)
	sed '/"drop-on-floor"/s/"normal":\[0,0,1\],"triangle_normal"/"normal":[0,0.034899496702500969,0.99939082701909576],"triangle_normal"/' \
		exp.json >n.json
	bcast compare --normal-tol 3 exp.json n.json
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq

	bcast compare --normal-tol 1 exp.json n.json
	assert_status 1
	assert_line_count 2
	assert_line 2 '12 passed, 1 failed, 0 missing, 0 extra'
	line1="$(sed -n 1p stdout)"
	case "$line1" in
	'n.json: id "drop-on-floor": normal [0,0.03489949670250097,0.9993908270190958] vs expected [0,0,1] (angle '*' > tol 1 degrees)') ;;
	*) echo "line 1: $line1"; false ;;
	esac
	# the angle printed is 2 degrees to 1e-12
	echo "$line1" | sed 's/.*(angle \([^ ]*\) .*/\1/' | awk '{ d = $1 - 2; if (d < 0) d = -d; exit !(d < 1e-12) }'
}

@test "the default normal tolerance is 1e-06 degrees" {
	# 1e-7 radians (5.7e-6 degrees) off: fails by default, passes with 1e-5
	sed '/"drop-on-floor"/s/"normal":\[0,0,1\],"triangle_normal"/"normal":[0,1e-7,1],"triangle_normal"/' exp.json >n.json
	bcast compare exp.json n.json
	assert_status 1
	assert_contains "$out" '(angle 5.729577951308'
	assert_contains "$out" ' > tol 1e-06 degrees)'
	bcast compare --normal-tol 1e-5 exp.json n.json
	assert_status 0
}

# ------------------------------------------------ exact fields and points

@test "a feature mismatch fails, with or without ties" {
	sed 's/^\({"id":"crate-corner".*\)"feature":"vertex","triangle":12/\1"feature":"edge","triangle":12/' exp.json >f.json
	bcast compare exp.json f.json
	assert_status 1
	{
		echo 'f.json: id "crate-corner": feature edge vs expected vertex'
		echo '12 passed, 1 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
	bcast compare noties.ndjson f.json
	assert_status 1
	assert_line 1 'f.json: id "crate-corner": feature edge vs expected vertex'
}

@test "hit, triangle, face, vertices (as a set), point and center are checked" {
	F=hit,alpha,feature,triangle,face,vertices,point,center
	replace_line drop-on-floor '{"id":"drop-on-floor","hit":true,"alpha":0.5833333333333334,"feature":"face","triangle":1,"face":0,"vertices":[3,0,2],"point":[1,1,0],"center":[1,1,0.25]}' exp.json ok.json
	bcast compare --fields $F exp.json ok.json
	assert_status 0

	replace_line drop-on-floor '{"id":"drop-on-floor","hit":true,"alpha":0.5833333333333334,"feature":"face","triangle":0,"face":1,"vertices":[0,1,2],"point":[1,1.5,0],"center":[1,1,0.5]}' exp.json bad.json
	bcast compare --fields $F exp.json bad.json
	assert_status 1
	assert_line 1 'bad.json: id "drop-on-floor": triangle 0 vs expected 1; face 1 vs expected 0; vertices [0,1,2] vs expected [0,2,3]; point [1,1.5,0] vs expected [1,1,0] (distance 0.5 > tol 1e-09); center [1,1,0.5] vs expected [1,1,0.25] (distance 0.25 > tol 1e-09)'

	replace_line pillar '{"id":"pillar","hit":false,"alpha":1}' exp.json miss.json
	bcast compare exp.json miss.json
	assert_status 1
	assert_line 1 'miss.json: id "pillar": hit false vs expected true; alpha 1 vs expected 0.45 (diff 0.55 > tol 1e-09)'

	bcast compare --fields $F --point-tol 0.5 exp.json bad.json
	assert_line 1 'bad.json: id "drop-on-floor": triangle 0 vs expected 1; face 1 vs expected 0; vertices [0,1,2] vs expected [0,2,3]'
}

@test "a graded field absent from ACTUAL fails as missing; fields not graded are not compared" {
	replace_line crate-top '{"id":"crate-top","feature":"face"}' exp.json s.json
	bcast compare --fields hit,alpha,feature exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "crate-top": hit missing (expected true); alpha missing (expected 0.5)'
	bcast compare exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "crate-top": hit missing (expected true); alpha missing (expected 0.5); initial_overlap missing (expected false); triangle missing (expected 12); face missing (expected 6); vertices missing (expected [12,13,14]); point missing (expected [2.75,2.5,1]); center missing (expected [2.75,2.5,1.5]); normal missing (expected [0,0,1]); triangle_normal missing (expected [0,0,1])'
	# hit alone: alpha is not looked at
	bcast compare --fields hit exp.json s.json
	assert_line 1 's.json: id "crate-top": hit missing (expected true)'
}

@test "an error result must meet an error result" {
	printf '[{"id":"a","p0":[1,1,2],"p1":[1,1,-1]},{"id":"b","p0":[1,1,2],"p1":[1,1,-1],"r":0.25}]\n' >t.json
	"$BALLCAST" cast "$ROOM" t.json >e.json 2>/dev/null || true
	grep -q '"error":"missing r' e.json
	printf '{"id":"a","error":"no radius"}\n{"id":"b","hit":true,"alpha":0.5833333333333334}\n' >same.ndjson
	bcast compare --fields hit,alpha e.json same.ndjson
	assert_status 0
	printf '{"id":"a","hit":false,"alpha":1}\n{"id":"b","error":"oops"}\n' >swapped.ndjson
	bcast compare e.json swapped.ndjson
	assert_status 1
	{
		echo 'swapped.ndjson: id "a": error none vs expected "missing r (give it per record or with --radius)"'
		echo 'swapped.ndjson: id "b": error "oops" vs expected none'
		echo '0 passed, 2 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
}

# ------------------------------------------------------ missing and extra

@test "missing and extra ids are reported and counted" {
	grep -v '^{"id":"pillar"' exp.ndjson | sed 's/^{"id":"sign",/{"id":"sign2",/' >s.ndjson
	bcast compare exp.json s.ndjson
	assert_status 1
	{
		echo 's.ndjson: id "pillar": missing'
		echo 's.ndjson: id "sign": missing'
		echo 's.ndjson: id "sign2": extra'
		echo '11 passed, 0 failed, 2 missing, 1 extra'
	} | assert_stdout_eq
}

@test "an extra id alone makes the comparison fail" {
	{ cat exp.ndjson; echo '{"id":"bonus","hit":false,"alpha":1}'; } >s.ndjson
	bcast compare exp.json s.ndjson
	assert_status 1
	assert_line 2 '13 passed, 0 failed, 0 missing, 1 extra'
}

@test "a duplicate id fails that id, in ACTUAL or in EXPECTED" {
	{ cat exp.ndjson; grep '^{"id":"pillar"' exp.ndjson; } >dup.ndjson
	bcast compare exp.json dup.ndjson
	assert_status 1
	{
		echo 'dup.ndjson: id "pillar": duplicate id (lines 7 and 14)'
		echo '12 passed, 1 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
	bcast compare dup.ndjson exp.json
	assert_status 1
	{
		echo 'exp.json: id "pillar": duplicate id in dup.ndjson (lines 7 and 14)'
		echo '12 passed, 1 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
}

# ------------------------------------------------------------------- ties

@test "a shared-edge contact reported on the other triangle passes when EXPECTED has ties, fails without" {
	# crate-edge touches the edge 12-13 shared by triangles 12 (top) and 15 (side)
	grep -q '"ties":\[{"triangle":12,"feature":"edge","vertices":\[12,13\].*{"triangle":15,"feature":"edge"' exp.ndjson
	sed '/^{"id":"crate-edge"/s/"triangle":12,"face":6,"vertices":\[12,13\]/"triangle":15,"face":7,"vertices":[13,12]/' \
		exp.ndjson >other.ndjson
	grep -q '^{"id":"crate-edge","hit":true,"alpha":0.4292893218813452,"initial_overlap":false,"feature":"edge","triangle":15,"face":7,' other.ndjson
	for e in exp.json exp.ndjson exp.csv; do
		bcast compare "$e" other.ndjson
		assert_status 0
		echo "$ALL_PASS" | assert_stdout_eq
	done
	bcast compare noties.ndjson other.ndjson
	assert_status 1
	{
		echo 'other.ndjson: id "crate-edge": triangle 15 vs expected 12; face 7 vs expected 6'
		echo '12 passed, 1 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
}

@test "room-corner: any of the tied triangles at the corner (8,6,3) passes, with its own normal" {
	grep -q '^{"id":"room-corner",.*"point":\[8,6,3\]' exp.ndjson
	for contact in '"feature":"face","triangle":8,"normal":[0,-1,0]' \
		'"feature":"vertex","triangle":6,"vertices":[6],"normal":[-1,0,0]' \
		'"feature":"edge","triangle":3,"vertices":[6,4],"point":[8,6,3],"center":[8,6,3],"normal":[0,0,-1]'; do
		replace_line room-corner "{\"id\":\"room-corner\",\"hit\":true,\"alpha\":0.5,$contact}" exp.json s.json
		bcast compare --fields hit,alpha,feature,triangle,normal exp.json s.json
		assert_status 0
		echo "$ALL_PASS" | assert_stdout_eq
	done
	# without ties the first answer is wrong twice over
	replace_line room-corner '{"id":"room-corner","hit":true,"alpha":0.5,"feature":"face","triangle":8,"normal":[0,-1,0]}' \
		exp.json s.json
	bcast compare --fields hit,alpha,feature,triangle,normal noties.ndjson s.json
	assert_status 1
	assert_line 1 's.json: id "room-corner": triangle 8 vs expected 2; normal [0,-1,0] vs expected [0,0,-1] (angle 90 > tol 1e-06 degrees)'
}

@test "ties: a contact that is not tied fails, naming what was claimed" {
	# triangle 8 and feature vertex are each tied, but not (9, vertex) nor an untied triangle
	replace_line room-corner '{"id":"room-corner","hit":true,"alpha":0.5,"feature":"vertex","triangle":9}' exp.json s.json
	bcast compare --fields hit,alpha,feature,triangle exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "room-corner": triangle 9 vs expected 2'
	replace_line room-corner '{"id":"room-corner","hit":true,"alpha":0.5,"feature":"vertex","triangle":2,"vertices":[4]}' exp.json s.json
	bcast compare --fields hit,alpha,feature,triangle,vertices exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "room-corner": vertices [4] vs expected [4,7,6]'
	# triangle 8, a face and the vertices 4 7 6 are each allowed, but not together
	replace_line room-corner '{"id":"room-corner","hit":true,"alpha":0.5,"feature":"face","triangle":8,"vertices":[4,7,6]}' exp.json s.json
	bcast compare --fields hit,alpha,feature,triangle,vertices exp.json s.json
	assert_status 1
	assert_line 1 's.json: id "room-corner": contact (feature face, triangle 8, vertices [4,7,6]) is not one of the 20 tied contacts'
}

@test "--mesh: with --normal triangle, a tied triangle's own normal passes" {
	"$BALLCAST" cast --ties --normal triangle "$ROOM" "$THROWS" >tri.json
	# triangle 15 is the crate's side y = 2, front normal -y
	replace_line crate-edge '{"id":"crate-edge","hit":true,"alpha":0.4292893218813452,"feature":"edge","triangle":15,"face":7,"normal":[0,-1,0],"triangle_normal":[0,-1,0]}' \
		tri.json s.json
	F=hit,alpha,feature,triangle,face,normal,triangle_normal
	bcast compare --fields $F tri.json s.json
	assert_status 1
	assert_line 1 's.json: id "crate-edge": normal [0,-1,0] vs expected [0,-0.7071067811865475,0.7071067811865475] (angle 45 > tol 1e-06 degrees)'
	bcast compare --fields $F --mesh "$ROOM" tri.json s.json
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq
	# the mesh also knows triangle 15's face
	sed 's/"face":7,"normal":\[0,-1,0\]/"face":6,"normal":[0,-1,0]/' s.json >s6.json
	bcast compare --fields $F -m "$ROOM" tri.json s6.json
	assert_status 1
	assert_line 1 's6.json: id "crate-edge": contact (feature edge, triangle 15, face 6) is not one of the 2 tied contacts'
}

# ------------------------------------------------------- across formats

@test "a difference is found and worded the same whatever the formats" {
	awk -F, -v OFS=, '$1 == "crate-top" { $3 = 0.625 } { print }' exp.csv >s.csv
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.ndjson >s.ndjson
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	for e in exp.json exp.ndjson exp.csv; do
		for a in s.csv s.ndjson s.json; do
			bcast compare "$e" "$a"
			assert_status 1
			{
				echo "$a: id \"crate-top\": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)"
				echo '12 passed, 1 failed, 0 missing, 0 extra'
			} | assert_stdout_eq
		done
	done
}

@test "ACTUAL may be standard input" {
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.ndjson >s.ndjson
	bcast compare exp.csv - <s.ndjson
	assert_status 1
	assert_line 1 '<stdin>: id "crate-top": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)'
}

# ---------------------------------------------------- several ACTUAL files

make_class() {
	cp exp.json good.json
	awk -F, -v OFS=, '$1 == "crate-top" { $3 = 0.625 } { print }' exp.csv >alpha.csv
	grep -v '^{"id":"pillar"' exp.ndjson | sed 's/^{"id":"sign",/{"id":"sign2",/' >partial.ndjson
}

@test "several ACTUAL files: the score table, then the details" {
	make_class
	bcast compare exp.json good.json alpha.csv partial.ndjson
	assert_status 1
	assert_no_stderr
	# 12/13 and 11/13 to 3 significant digits (full in CSV and JSON)
	{
		echo 'file            passed  failed  missing  extra  score'
		echo 'good.json           13       0        0      0  1'
		echo 'alpha.csv           12       1        0      0  0.923'
		echo 'partial.ndjson      11       0        2      1  0.846'
		echo ''
		echo 'alpha.csv: id "crate-top": alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)'
		echo 'partial.ndjson: id "pillar": missing'
		echo 'partial.ndjson: id "sign": missing'
		echo 'partial.ndjson: id "sign2": extra'
	} | assert_stdout_eq
}

@test "several ACTUAL files: --report csv is the score table" {
	make_class
	bcast compare --report csv exp.json good.json alpha.csv partial.ndjson
	assert_status 1
	{
		echo 'file,records,passed,failed,missing,extra,score,diagnosis,review'
		echo 'good.json,13,13,0,0,0,1,,'
		echo 'alpha.csv,13,12,1,0,0,0.9230769230769231,,'
		echo 'partial.ndjson,12,11,0,2,1,0.8461538461538461,,'
	} | assert_stdout_eq
	# -o FILE.csv picks the same
	bcast compare -o scores.csv exp.json good.json alpha.csv partial.ndjson
	assert_status 1
	assert_no_stdout
	bcast compare --report csv exp.json good.json alpha.csv partial.ndjson
	cmp stdout scores.csv
	# -o FILE.html picks the page, as grade's -o does (it was the text report)
	bcast compare -o scores.html exp.json good.json alpha.csv partial.ndjson
	assert_status 1
	bcast compare --report html exp.json good.json alpha.csv partial.ndjson
	cmp stdout scores.html
	head -1 scores.html | grep -qx '<!DOCTYPE html>'
}

@test "all files passing: exit 0 and a table of ones" {
	cp exp.json a.json
	cp exp.csv b.csv
	bcast compare exp.ndjson a.json b.csv
	assert_status 0
	{
		echo 'file    passed  failed  missing  extra  score'
		echo 'a.json      13       0        0      0  1'
		echo 'b.csv       13       0        0      0  1'
	} | assert_stdout_eq
}

@test "--report json: per-file counts and per-record differences" {
	make_class
	bcast compare --report json exp.json alpha.csv partial.ndjson
	assert_status 1
	{
		printf '{"ballcast":"%s","expected":{"file":"exp.json","ids":13},"tolerances":{"alpha":1e-09,"alpha_rel":0,"normal_degrees":1e-06,"point":1e-09},\n' "$VERSION"
		echo '"files":['
		echo '{"file":"alpha.csv","records":13,"passed":12,"failed":1,"missing":0,"extra":0,"score":0.9230769230769231,"diagnosis":[],"failures":[{"id":"crate-top","line":4,"differences":[{"field":"alpha","actual":0.625,"expected":0.5,"difference":0.125,"tolerance":1e-09,"message":"alpha 0.625 vs expected 0.5 (diff 0.125 > tol 1e-09)"}]}],"missing_ids":[],"extra_ids":[]},'
		echo '{"file":"partial.ndjson","records":12,"passed":11,"failed":0,"missing":2,"extra":1,"score":0.8461538461538461,"diagnosis":[],"failures":[],"missing_ids":["pillar","sign"],"extra_ids":["sign2"]}'
		echo ']}'
	} | assert_stdout_eq
}

@test "--report json: vectors, features and missing fields keep their JSON types" {
	replace_line crate-corner '{"id":"crate-corner","hit":true,"feature":"edge","point":[2,2.5,1]}' exp.json s.json
	bcast compare --fields hit,alpha,feature,point --report json exp.json s.json
	assert_status 1
	assert_contains "$out" '"failures":[{"id":"crate-corner","line":7,"differences":[{"field":"alpha","actual":null,"expected":0.47113248654051876,"message":"alpha missing (expected 0.47113248654051876)"},{"field":"feature","actual":"edge","expected":"vertex","message":"feature edge vs expected vertex"},{"field":"point","actual":[2,2.5,1],"expected":[2,2,1],"difference":0.5,"tolerance":1e-09,"message":"point [2,2.5,1] vs expected [2,2,1] (distance 0.5 > tol 1e-09)"}]}]'
}

# ---------------------------------------------------- quiet and exit codes

@test "--quiet prints nothing: the exit status tells" {
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	bcast compare --quiet exp.json s.json
	assert_status 1
	assert_no_stdout
	assert_no_stderr
	bcast compare -q exp.json exp.csv
	assert_status 0
	assert_no_stdout
	assert_no_stderr
	bcast compare -q exp.json exp.csv s.json
	assert_status 1
	assert_no_stdout
}

@test "--quiet with -o FILE: nothing on standard output, the report still written to the file" {
	sed 's/^{"id":"crate-top","hit":true,"alpha":0.5,/{"id":"crate-top","hit":true,"alpha":0.625,/' exp.json >s.json
	bcast compare -q -o scores.csv exp.json exp.csv s.json
	assert_status 1
	assert_no_stdout
	assert_no_stderr
	# the same table as without -q
	bcast compare -o loud.csv exp.json exp.csv s.json
	cmp scores.csv loud.csv
	grep -q '^s.json,' scores.csv
	# -o - is standard output: -q keeps it quiet
	bcast compare -q -o - exp.json s.json
	assert_status 1
	assert_no_stdout
}

@test "an ACTUAL file that cannot be read is a row with score 0 and the reason; the others are graded; exit 1" {
	# cut short inside a record: the array never closes (a comma left out
	# no longer makes a file unreadable: every record is there, and read)
	sed '5,$d; 4s/,$//' exp.json >bad.json
	bcast compare --report csv exp.json exp.csv bad.json nosuch.json
	assert_status 1
	{
		echo 'file,records,passed,failed,missing,extra,score,diagnosis,review'
		echo 'exp.csv,13,13,0,0,0,1,,'
		echo "bad.json,0,0,0,13,0,0,unreadable: 5:1: unexpected end of input inside a JSON value,"
		echo 'nosuch.json,0,0,0,13,0,0,unreadable: cannot open: No such file or directory,'
	} | assert_stdout_eq
	{
		echo "ballcast: bad.json:5:1: unexpected end of input inside a JSON value"
		echo 'ballcast: nosuch.json: cannot open: No such file or directory'
	} | assert_stderr_eq
	bcast compare exp.json bad.json
	assert_status 1
	assert_line 1 "bad.json: unreadable: 5:1: unexpected end of input inside a JSON value"
	assert_line 2 '0 passed, 0 failed, 13 missing, 0 extra'
}

@test "a record whose graded field is malformed fails with the reason; the rest of the file is graded" {
	awk -F, -v OFS=, '$1 == "crate-top" { $3 = "zero" } $1 == "pillar" { $2 = "maybe" } { print }' exp.csv >bad.csv
	bcast compare exp.json bad.csv
	assert_status 1
	{
		# the file's text is not quoted in a report (issue 26)
		echo 'bad.csv: id "crate-top": unreadable at 4:16: alpha: expected a number, found '"'…'"
		echo 'bad.csv: id "pillar": unreadable at 8:8: hit: expected true or false, found '"'…'"
		echo '11 passed, 2 failed, 0 missing, 0 extra'
	} | assert_stdout_eq
	# ungraded, the same cells are not read
	bcast compare --fields feature,normal exp.json bad.csv
	assert_status 0
}

@test "exit 2: an unreadable EXPECTED" {
	printf 'id,hit,alpha\nx,true,zero\n' >bad.csv
	bcast compare bad.csv exp.json
	assert_status 2
	echo "ballcast: bad.csv:2:8: alpha: expected a number, found 'zero'" | assert_stderr_eq
	# an EXPECTED result needs hit and alpha
	printf '{"id":1,"alpha":0.5}\n' >nohit.ndjson
	bcast compare nohit.ndjson exp.json
	assert_status 2
	echo 'ballcast: nohit.ndjson:1:1: an expected result needs "hit" (or "error")' | assert_stderr_eq
}

# student_shaped IN OUT SEP SIGN: OUT is cast's CSV IN as a student writes it:
# id, hit, t, nx, ny, nz separated by SEP (';' with decimal commas), normals
# times SIGN.
student_shaped() {
	awk -F, -v sep="$3" -v sign="$4" '
		NR == 1 { print "id" sep "hit" sep "t" sep "nx" sep "ny" sep "nz"; next }
		{
			n = ""
			for (k = 17; k <= 19; k++) {
				v = $k
				if (sign < 0 && v != "") v = substr(v, 1, 1) == "-" ? substr(v, 2) : "-" v
				n = n sep v
			}
			line = $3 n
			if (sep == ";") gsub(/\./, ",", line)
			print $1 sep $2 sep line
		}' "$1" >"$2"
}

@test "a student-shaped EXPECTED (';', decimal commas, t, nx,ny,nz) is read as grade reads a submission" {
	student_shaped exp.csv eve.csv ';' 1
	student_shaped exp.csv mo.csv ';' -1
	grep -q '^crate-edge;true;0,4292893218813452;0;-0,7071067811865475;0,7071067811865475$' eve.csv
	bcast compare --fields hit,alpha,normal eve.csv exp.json
	assert_status 0
	echo "$ALL_PASS" | assert_stdout_eq
	# every normal negated: every hit fails (misses have no normal)
	bcast compare --fields hit,alpha,normal eve.csv mo.csv
	assert_status 1
	assert_contains "$out" 'mo.csv: id "crate-top": normal [-0,-0,-1] vs expected [0,0,1] (angle 180 > tol 1e-06 degrees)'
	tail -1 stdout | grep -qx '3 passed, 10 failed, 0 missing, 0 extra'
	# the same with every field EXPECTED has (hit, alpha, normal)
	bcast compare eve.csv mo.csv
	assert_status 1
	tail -1 stdout | grep -qx '3 passed, 10 failed, 0 missing, 0 extra'
}

@test "exit 2: a field --fields asks for that EXPECTED lacks (never a silent pass)" {
	student_shaped exp.csv mo.csv ',' -1
	cut -d, -f1-3 exp.csv >eve.csv
	bcast compare --fields hit,alpha,normal eve.csv mo.csv
	assert_status 2
	assert_no_stdout
	echo 'ballcast: eve.csv:2:1: --fields asks for normal, which this expected hit ("drop-on-floor") lacks' |
		assert_stderr_eq
	bcast compare --fields hit,alpha,normal,point eve.csv exp.json
	assert_status 2
	# what it has is graded
	bcast compare --fields hit,alpha eve.csv mo.csv
	assert_status 0
	# an expected file without hits asks nothing of them
	printf 'id,hit,alpha\n42,false,1\n' >misses.csv
	bcast compare --fields hit,alpha,normal misses.csv exp.json
	assert_status 1
	tail -1 stdout | grep -qx '1 passed, 0 failed, 0 missing, 12 extra'
	# with --mesh, the triangle normal of the triangle EXPECTED names is known
	cut -d, -f1-6 exp.csv >tri.csv
	bcast compare --mesh "$ROOM" --fields hit,alpha,triangle,triangle_normal tri.csv exp.json
	assert_status 0
	bcast compare --fields hit,alpha,triangle,triangle_normal tri.csv exp.json
	assert_status 2
	assert_contains "$err" '--fields asks for triangle_normal, which this expected hit ("drop-on-floor") lacks'
}

@test "exit 2: usage errors" {
	for args in "compare" "compare exp.json" "compare --alpha-tol -1 exp.json exp.json" \
		"compare --normal-tol x exp.json exp.json" "compare --report xml exp.json exp.json" \
		"compare --bogus exp.json exp.json" "compare - - exp.json"; do
		bcast $args
		assert_status 2
		assert_no_stdout
		[ "$(sed -n 2p stderr)" = 'usage: ballcast compare [OPTIONS] EXPECTED ACTUAL...   (ballcast compare --help)' ] ||
			{ echo "$args: $err"; false; }
	done
	bcast compare --alpha-tol -1 exp.json exp.json
	assert_line_count 0
	[ "$(sed -n 1p stderr)" = "ballcast compare: --alpha-tol needs a finite number >= 0, not '-1'" ]
}

@test "--help: usage with examples on stdout, exit 0; compare is listed by ballcast --help" {
	bcast compare --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast compare [OPTIONS] EXPECTED ACTUAL...'
	assert_contains "$out" 'examples:'
	bcast --help
	assert_contains "$out" '  compare    compare cast results against expected ones'
}

@test "CSV: an id that starts like a formula is written after a ' (OWASP) and read back without it" {
	printf '%s\n' '[{"id": "=HYPERLINK(1)", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": "+1", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": "-1x", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": "@SUM(1)", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": "\tt", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": "=a,b", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		'{"id": -1, "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25},' \
		"{\"id\": \"'=q\", \"p0\": [1, 1, 2], \"p1\": [1, 1, -1], \"r\": 0.25}," \
		'{"id": "plain", "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25}]' >t.json
	"$BALLCAST" cast "$ROOM" t.json >e.json
	"$BALLCAST" cast "$ROOM" t.json --format csv >a.csv
	python3 -c 'import csv, sys; [print(repr(row[0])) for row in csv.reader(open(sys.argv[1], newline=""))]' a.csv >cells.txt
	{
		echo "'id'"
		echo "\"'=HYPERLINK(1)\""
		echo "\"'+1\""
		echo "\"'-1x\""
		echo "\"'@SUM(1)\""
		echo "\"'\\tt\""
		echo "\"'=a,b\""
		echo "'-1'"
		echo "\"''=q\""
		echo "'plain'"
	} >want.txt
	diff want.txt cells.txt
	# ballcast reads its own CSV back: every id matches
	bcast compare e.json a.csv
	assert_status 0
	echo '9 passed, 0 failed, 0 missing, 0 extra' | assert_stdout_eq
	bcast compare a.csv e.json
	assert_status 0
}

@test "--fields face without --mesh: a tie on another triangle lends its unknown face to no answer without that triangle (issue 26)" {
	"$BALLCAST" cast --ties "$ROOM" "$REPO/samples/throws.json" >ties.json
	"$BALLCAST" cast --two-sided "$ROOM" "$REPO/samples/throws.json" >two.json
	# crate-top: expected face 6 (triangle 12, tied with triangle 13); --two-sided answers face 1
	bcast compare --fields face ties.json two.json
	assert_status 1
	assert_contains "$out" 'two.json: id "crate-top": face 1 vs expected 6'
	# with the mesh, the same
	bcast compare --fields face --mesh "$ROOM" ties.json two.json
	assert_status 1
	assert_contains "$out" 'two.json: id "crate-top": face 1 vs expected 6'
	# the right face passes, with or without the mesh
	bcast compare --fields face ties.json ties.json
	assert_status 0
}

@test "--fields face: the face of a tie on another triangle goes with that triangle; --mesh checks it" {
	"$BALLCAST" cast --ties "$ROOM" "$REPO/samples/throws.json" >ties.json
	# crate-top answered on its tied triangle 13, which is face 6 too
	sed '/"crate-top"/s/"triangle":12,"face":6,"vertices":\[12,13,14\]/"triangle":13,"face":6,"vertices":[12,14,15]/' \
		ties.json >t13.json
	grep -q '"triangle":13,"face":6' t13.json
	for mesh in "" "--mesh $ROOM"; do
		bcast compare --fields triangle,face $mesh ties.json t13.json
		assert_status 0
	done
	# face 6 without the triangle that makes it a tie's: only EXPECTED's own face passes, and that is 6
	bcast compare --fields face ties.json t13.json
	assert_status 0
	# a wrong face on triangle 13: the mesh knows it (without it, a tie's face is not known)
	sed 's/"triangle":13,"face":6/"triangle":13,"face":1/' t13.json >t13f1.json
	bcast compare --fields triangle,face --mesh "$ROOM" ties.json t13f1.json
	assert_status 1
	assert_contains "$out" 't13f1.json: id "crate-top": face 1 vs expected 6'
	bcast compare --fields face ties.json t13f1.json
	assert_status 1
	assert_contains "$out" 't13f1.json: id "crate-top": face 1 vs expected 6'
}
