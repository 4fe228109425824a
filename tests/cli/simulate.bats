#!/usr/bin/env bats
# `ballcast simulate`: a hand-computed event log in every format, positions
# at fixed times, a drop under gravity against sqrt(2h/g), the rest guard
# and the event limit, and the failures (scene errors at their exact
# position with exit 2 and nothing on stdout, usage errors).

load helpers

setup() {
	common_setup
	# A floor [-10, 10]^2 at z = 0, front +z: triangles (0 1 2) below the
	# diagonal y = x and (0 2 3) above it.
	printf 'v -10 -10 0\nv 10 -10 0\nv 10 10 0\nv -10 10 0\nf 1 2 3 4\n' >floor.obj
}

# The hand-computed scene (no gravity, e = 1, horizon 1):
#  - "a" (r 0.5) from (0,0,2) at (1,0,-3) reaches z = 0.5 at t = 0.5, at
#    (0.5,0,0.5) above triangle 0, and leaves at (1,0,3): (1,0,2) at t = 1;
#  - "p" (r 0.5, mass 1) from (0,0,5) at (4,0,0) meets 7.50 (r 0.5, mass 3,
#    at rest at (3,0,5)) when |3 - 4t| = 1, t = 0.5, centres 2 and 3. Seed
#    002 (8): s' = 4 + 2*3*(0-4)/4 = -2, t' = 0 + 2*1*(4-0)/4 = 2, so at
#    t = 1 "p" is at 1 and 7.50 at 4.
# Both events are at t = 0.5: the lower ball ("a") first.
write_scene() {
	cat >"${1:-s.json}" <<'EOF'
{"balls": [
  {"id": "a", "p": [0, 0, 2], "v": [1, 0, -3], "r": 0.5},
  {"id": "p", "p": [0, 0, 5], "v": [4, 0, 0], "r": 0.5},
  {"id": 7.50, "p": [3, 0, 5], "r": 0.5, "mass": 3}
 ],
 "horizon": 1, "samples": 0.25}
EOF
}

scene_ndjson_expected() {
	cat <<'EOF'
{"time":0.5,"kind":"mesh","id":"a","triangle":0,"face":0,"feature":"face","vertices":[0,1,2],"point":[0.5,0,0],"normal":[0,0,1],"position":[0.5,0,0.5],"velocity_before":[1,0,-3],"velocity_after":[1,0,3],"motion":"flying"}
{"time":0.5,"kind":"ball","id":"p","other":7.50,"point":[2.5,0,5],"normal":[1,0,0],"position":[2,0,5],"velocity_before":[4,0,0],"velocity_after":[-2,0,0],"other_position":[3,0,5],"other_velocity_before":[0,0,0],"other_velocity_after":[2,0,0],"motion":"flying","other_motion":"flying"}
{"time":1,"kind":"horizon","id":"a","position":[1,0,2],"velocity_before":[1,0,3],"velocity_after":[1,0,3],"motion":"flying"}
{"time":1,"kind":"horizon","id":"p","position":[1,0,5],"velocity_before":[-2,0,0],"velocity_after":[-2,0,0],"motion":"flying"}
{"time":1,"kind":"horizon","id":7.50,"position":[4,0,5],"velocity_before":[2,0,0],"velocity_after":[2,0,0],"motion":"flying"}
EOF
}

CSV_HEADER='time,kind,id,other,triangle,face,feature,vertex_0,vertex_1,vertex_2,point_x,point_y,point_z,normal_x,normal_y,normal_z,position_x,position_y,position_z,velocity_before_x,velocity_before_y,velocity_before_z,velocity_after_x,velocity_after_y,velocity_after_z,other_position_x,other_position_y,other_position_z,other_velocity_before_x,other_velocity_before_y,other_velocity_before_z,other_velocity_after_x,other_velocity_after_y,other_velocity_after_z,motion,other_motion'

# expect_usage ARGS... : exit 2, nothing on stdout, the complaint then the
# usage line on stderr.
expect_usage() {
	bcast "$@"
	assert_status 2
	assert_no_stdout
	[ "$(wc -l <stderr)" -eq 2 ] || { echo "stderr: $err"; return 1; }
	[ "$(sed -n 2p stderr)" = 'usage: ballcast simulate [OPTIONS] MESH.obj SCENE.json   (ballcast simulate --help)' ] ||
		{ echo "stderr: $err"; return 1; }
}

# ---------------------------------------------------------- the event log

@test "simulate ndjson: the hand-computed event log, one event per line" {
	write_scene s.json
	bcast simulate -f ndjson floor.obj s.json
	assert_status 0
	assert_no_stderr
	scene_ndjson_expected | assert_stdout_eq
}

@test "simulate json: header, the same events, summary" {
	write_scene s.json
	bcast simulate floor.obj s.json
	assert_status 0
	assert_no_stderr
	{
		echo '{"ballcast":"'"$VERSION"'","mesh":{"file":"floor.obj","vertices":4,"triangles":2,"faces":1,"degenerate":0},"scene":{"file":"s.json","balls":3},"settings":{"gravity":[0,0,0],"restitution":1,"horizon":1,"max_events":100000,"two_sided":false},'
		echo '"events":['
		scene_ndjson_expected | sed '$!s/$/,/'
		echo '],'
		echo '"summary":{"events":5,"mesh":1,"ball":1,"rest":0,"leave":0,"horizon":3,"end":"horizon"}}'
	} | assert_stdout_eq
}

@test "simulate csv: header and rows, every row as wide as the header" {
	write_scene s.json
	bcast simulate -f csv floor.obj s.json
	assert_status 0
	assert_no_stderr
	{
		echo "$CSV_HEADER"
		echo '0.5,mesh,a,,0,0,face,0,1,2,0.5,0,0,0,0,1,0.5,0,0.5,1,0,-3,1,0,3,,,,,,,,,,flying,'
		echo '0.5,ball,p,7.50,,,,,,,2.5,0,5,1,0,0,2,0,5,4,0,0,-2,0,0,3,0,5,0,0,0,2,0,0,flying,flying'
		echo '1,horizon,a,,,,,,,,,,,,,,1,0,2,1,0,3,1,0,3,,,,,,,,,,flying,'
		echo '1,horizon,p,,,,,,,,,,,,,,1,0,5,-2,0,0,-2,0,0,,,,,,,,,,flying,'
		echo '1,horizon,7.50,,,,,,,,,,,,,,4,0,5,2,0,0,2,0,0,,,,,,,,,,flying,'
	} | assert_stdout_eq
	[ "$(csv_columns stdout | sort -u)" = 36 ]
}

@test "simulate -o FILE: the format from the extension; --format wins" {
	write_scene s.json
	bcast simulate -o out.csv floor.obj s.json
	assert_status 0
	assert_no_stdout
	[ "$(sed -n 1p out.csv)" = "$CSV_HEADER" ]
	[ "$(wc -l <out.csv)" -eq 6 ]
	bcast simulate -o out.ndjson floor.obj s.json
	scene_ndjson_expected | assert_file_eq out.ndjson
	bcast simulate -f ndjson -o out.csv floor.obj s.json
	scene_ndjson_expected | assert_file_eq out.csv
}

@test "simulate: the scene from standard input" {
	write_scene s.json
	bcast simulate -f ndjson floor.obj - <s.json
	assert_status 0
	scene_ndjson_expected | assert_stdout_eq
}

@test "simulate --positions: every ball every samples seconds, CSV and NDJSON" {
	write_scene s.json
	bcast simulate -f ndjson --positions pos.csv floor.obj s.json
	assert_status 0
	assert_no_stderr
	scene_ndjson_expected | assert_stdout_eq
	cat <<'EOF' | assert_file_eq pos.csv
t,id,x,y,z
0,a,0,0,2
0,p,0,0,5
0,7.50,3,0,5
0.25,a,0.25,0,1.25
0.25,p,1,0,5
0.25,7.50,3,0,5
0.5,a,0.5,0,0.5
0.5,p,2,0,5
0.5,7.50,3,0,5
0.75,a,0.75,0,1.25
0.75,p,1.5,0,5
0.75,7.50,3.5,0,5
1,a,1,0,2
1,p,1,0,5
1,7.50,4,0,5
EOF
	# --samples overrides the scene's; NDJSON by the extension.
	bcast simulate -f ndjson --samples 0.5 --positions pos.ndjson floor.obj s.json
	assert_status 0
	cat <<'EOF' | assert_file_eq pos.ndjson
{"t":0,"id":"a","x":0,"y":0,"z":2}
{"t":0,"id":"p","x":0,"y":0,"z":5}
{"t":0,"id":7.50,"x":3,"y":0,"z":5}
{"t":0.5,"id":"a","x":0.5,"y":0,"z":0.5}
{"t":0.5,"id":"p","x":2,"y":0,"z":5}
{"t":0.5,"id":7.50,"x":3,"y":0,"z":5}
{"t":1,"id":"a","x":1,"y":0,"z":2}
{"t":1,"id":"p","x":1,"y":0,"z":5}
{"t":1,"id":7.50,"x":4,"y":0,"z":5}
EOF
	bcast simulate -o events.json --samples 0.5 --positions - floor.obj s.json
	assert_status 0
	[ "$(wc -l <stdout)" -eq 10 ]
	assert_line 1 't,id,x,y,z'
}

@test "simulate --horizon overrides the scene's" {
	write_scene s.json
	bcast simulate -f ndjson --horizon 0.25 floor.obj s.json
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"time":0.25,"kind":"horizon","id":"a","position":[0.25,0,1.25],"velocity_before":[1,0,-3],"velocity_after":[1,0,-3],"motion":"flying"}
{"time":0.25,"kind":"horizon","id":"p","position":[1,0,5],"velocity_before":[4,0,0],"velocity_after":[4,0,0],"motion":"flying"}
{"time":0.25,"kind":"horizon","id":7.50,"position":[3,0,5],"velocity_before":[0,0,0],"velocity_after":[0,0,0],"motion":"flying"}
EOF
}

# ----------------------------------------------------------------- gravity

@test "simulate: a drop under gravity hits at sqrt(2h/g) and rebounds at e v, then rests" {
	# r = 0.5 from centre height 2.5 (h = 2) with g = 10 and e = 0.5: impact
	# at sqrt(0.4) at speed sqrt(40), rebound sqrt(10); bounces rise 0.5,
	# 0.125, ... the sixth contact would rise 2 * 0.25^6 <= 0.001 * r: rest.
	cat >drop.json <<'EOF'
{"balls": [{"id": "d", "p": [0.25, 0.5, 2.5], "r": 0.5}], "gravity": [0, 0, -10], "restitution": 0.5, "horizon": 3}
EOF
	bcast simulate -f csv floor.obj drop.json
	assert_status 0
	assert_no_stderr
	[ "$(awk -F, 'NR > 1 { print $2 }' stdout | tr '\n' ' ')" = 'mesh mesh mesh mesh mesh rest horizon ' ]
	# Times: t1 = sqrt(0.4), then each flight 2 e^k sqrt(40) / 10.
	awk -F, 'NR > 1 && $2 != "horizon" {
		k = NR - 2
		t = sqrt(0.4); u = sqrt(40)
		for (i = 0; i < k; i++) { u *= 0.5; t += 2 * u / 10 }
		if ($1 - t > 1e-14 || t - $1 > 1e-14) { print "event " k ": time " $1 " expected " t; bad = 1 }
		if ($22 + u > 1e-13 || -u - $22 > 1e-13) { print "event " k ": speed " $22 " expected " -u; bad = 1 }
		if ($19 - 0.5 > 1e-15 || 0.5 - $19 > 1e-15) { print "event " k ": z " $19; bad = 1 }
		if ($2 == "mesh" && ($25 - 0.5 * u > 1e-13 || 0.5 * u - $25 > 1e-13)) { print "event " k ": rebound " $25; bad = 1 }
	} END { exit bad }' stdout
	# The first impact exactly: sqrt(0.4) and sqrt(40), to the last digit.
	assert_line 2 '0.6324555320336759,mesh,d,,1,0,face,0,2,3,0.25,0.5,0,0,0,1,0.25,0.5,0.5,0,0,-6.324555320336759,0,0,3.162277660168379,,,,,,,,,,flying,'
	# At rest 1e-12 r above the floor (so that it slides clear of the
	# triangles' shared edges).
	assert_line 8 '3,horizon,d,,,,,,,,,,,,,,0.25,0.5,0.5000000000005,0,0,0,0,0,0,,,,,,,,,,sliding,'
}

@test "simulate --brute gives byte-identical output in the sample room under gravity" {
	cat >room.json <<'EOF'
{"balls": [
  {"id": "a", "p": [1, 1, 2], "v": [2, 1.5, 0], "r": 0.25},
  {"id": "b", "p": [6, 1, 1], "v": [-1, 2, 3], "r": 0.2, "mass": 2},
  {"id": "c", "p": [4, 4.5, 2.5], "v": [0.5, -2, 0], "r": 0.3},
  {"id": "d", "p": [2.75, 2.5, 2], "v": [0, 0, 0], "r": 0.2}
 ],
 "gravity": [0, 0, -9.81], "restitution": 0.7, "horizon": 6}
EOF
	bcast simulate -f ndjson "$ROOM" room.json
	assert_status 0
	cp stdout bvh.out
	[ "$(wc -l <bvh.out)" -gt 30 ]
	grep -q '"kind":"rest"' bvh.out
	bcast simulate --brute -f ndjson "$ROOM" room.json
	assert_status 0
	cmp bvh.out stdout
}

@test "simulate --stats: one JSON line of times and counts on stderr" {
	write_scene s.json
	bcast simulate -f ndjson --stats floor.obj s.json
	assert_status 0
	scene_ndjson_expected | assert_stdout_eq
	[ "$(wc -l <stderr)" -eq 1 ]
	for key in read_mesh_seconds build_seconds read_scene_seconds simulate_seconds write_seconds triangles \
		balls events casts pair_tests elastic_chain_events jams peak_memory_bytes; do
		grep -q "\"$key\":" stderr || { echo "no $key in: $err"; return 1; }
	done
	grep -q '"balls":3,"events":5,' stderr
}

# ------------------------------------------------------------ the guards

@test "simulate: max_events stops the run with exit 1; the log ends there" {
	write_scene s.json
	bcast simulate -f ndjson --max-events 1 floor.obj s.json
	assert_status 1
	scene_ndjson_expected | head -n 1 | assert_stdout_eq
	echo 'ballcast: s.json: stopped after 1 events at time 0.5 (max_events): the output ends there' | assert_stderr_eq
	bcast simulate --max-events 1 floor.obj s.json
	assert_status 1
	assert_line 5 '"summary":{"events":1,"mesh":1,"ball":0,"rest":0,"leave":0,"horizon":0,"end":"max_events"}}'
	# From the scene; horizon events do not count: 2 events are the whole run.
	sed 's/"samples": 0.25/"max_events": 1/' s.json >m.json
	bcast simulate -f ndjson floor.obj m.json
	assert_status 1
	[ "$(wc -l <stdout)" -eq 1 ]
	sed 's/"samples": 0.25/"max_events": 2/' s.json >m2.json
	bcast simulate -f ndjson floor.obj m2.json
	assert_status 0
	scene_ndjson_expected | assert_stdout_eq
}

@test "simulate: a ball resting on the floor rests at time 0, then slides" {
	# It sits over the diagonal both floor triangles share: the contact is
	# triangle 0's edge, straight below it, so the ball is flat on the
	# floor's plane and slides (1e-12 r above it).
	cat >rest.json <<'EOF'
{"balls": [{"id": "r", "p": [0, 0, 0.5], "v": [1, 0, 0], "r": 0.5}], "gravity": [0, 0, -9.81], "horizon": 2}
EOF
	bcast simulate -f ndjson floor.obj rest.json
	assert_status 0
	cat <<'EOF' | assert_stdout_eq
{"time":0,"kind":"rest","id":"r","triangle":0,"face":0,"feature":"edge","vertices":[2,0],"point":[0,0,0],"normal":[0,0,1],"position":[0,0,0.5],"velocity_before":[1,0,0],"velocity_after":[1,0,0],"motion":"sliding"}
{"time":2,"kind":"horizon","id":"r","position":[2,0,0.5000000000005],"velocity_before":[1,0,0],"velocity_after":[1,0,0],"motion":"sliding"}
EOF
}

# ---------------------------------------------------------------- failures

@test "simulate: a syntax error in the scene is exit 2 at its position, nothing on stdout" {
	printf '{"balls": [\n  {"id": "a", "p": [0,0,2], "r": 0.5},\n ],\n "horizon": 1}\n' >syn.json
	bcast simulate floor.obj syn.json
	assert_status 2
	assert_no_stdout
	echo "ballcast: syn.json:3:2: expected an element after ',' (no trailing commas in JSON)" | assert_stderr_eq
	printf '{"horizon": 01, "balls": []}' >num.json
	bcast simulate floor.obj num.json
	assert_status 2
	echo "ballcast: num.json:1:13: invalid JSON number '01'" | assert_stderr_eq
}

@test "simulate: bad values name the ball and point at the value" {
	printf '{"balls": [\n {"id": "a", "p": [0,0,2], "r": 0.5},\n {"id": "b", "p": [3,0,2], "r": -1}],\n "horizon": 1}\n' >bad.json
	bcast simulate floor.obj bad.json
	assert_status 2
	assert_no_stdout
	echo 'ballcast: bad.json:3:33: ball "b" (balls[1]): r: must be >= 0, not -1' | assert_stderr_eq
	printf '{"balls": [{"p": [0,0,2], "r": 0.5, "mass": 0}], "horizon": 1}' >m.json
	bcast simulate floor.obj m.json
	assert_status 2
	echo 'ballcast: m.json:1:45: balls[0]: mass: must be > 0, not 0' | assert_stderr_eq
	printf '{"balls": [], "horizon": 1, "restitution": 2}' >e.json
	bcast simulate floor.obj e.json
	assert_status 2
	echo 'ballcast: e.json:1:44: restitution: must be in [0, 1], not 2' | assert_stderr_eq
	printf '{"balls": [{"id": 9, "p": [0,1e400,2], "r": 0.5}], "horizon": 1}' >inf.json
	bcast simulate floor.obj inf.json
	assert_status 2
	echo 'ballcast: inf.json:1:30: ball 9 (balls[0]): p: 1e400 is not a finite number' | assert_stderr_eq
	printf '{"balls": []}' >h.json
	bcast simulate floor.obj h.json
	assert_status 2
	echo 'ballcast: h.json:1:1: missing "horizon" (the time to simulate, in seconds)' | assert_stderr_eq
}

@test "simulate: balls overlapping the mesh or each other at time 0 are refused at the ball" {
	printf '{"balls": [\n  {"id": "low", "p": [0,0,0.25], "r": 0.5}], "horizon": 1}' >o.json
	bcast simulate floor.obj o.json
	assert_status 2
	assert_no_stdout
	echo 'ballcast: o.json:2:3: ball "low" (balls[0]): overlaps the mesh at time 0 (triangle 0 is nearer than its radius)' |
		assert_stderr_eq
	printf '{"balls": [{"id": 1, "p": [0,0,2], "r": 0.5},\n {"id": 2, "p": [0.5,0,2], "r": 0.5}], "horizon": 1}' >p.json
	bcast simulate floor.obj p.json
	assert_status 2
	echo 'ballcast: p.json:1:12: ball 1 (balls[0]): overlaps balls[1] at time 0' | assert_stderr_eq
	# Touching is fine.
	printf '{"balls": [{"id": 1, "p": [0,0,0.5], "r": 0.5}, {"id": 2, "p": [1,0,0.5], "r": 0.5}], "horizon": 1}' >t.json
	bcast simulate -q floor.obj t.json
	assert_status 0
}

@test "simulate: unknown keys are noted on stderr (not with -q) and ignored" {
	write_scene s.json
	sed 's/"horizon": 1,/"horizon": 1, "gravty": [0,0,-1],/; s/"r": 0.5, "mass": 3/"r": 0.5, "mass": 3, "colour": "red"/' s.json >u.json
	bcast simulate -f ndjson floor.obj u.json
	assert_status 0
	scene_ndjson_expected | assert_stdout_eq
	cat <<'EOF' | assert_stderr_eq
ballcast: u.json:4:53: ball 7.50 (balls[2]): unknown key "colour" ignored
ballcast: u.json:6:16: unknown key "gravty" ignored
EOF
	bcast simulate -q -f ndjson floor.obj u.json
	assert_status 0
	assert_no_stderr
}

@test "simulate: unreadable files are exit 2 with nothing on stdout" {
	write_scene s.json
	bcast simulate floor.obj nope.json
	assert_status 2
	assert_no_stdout
	echo 'ballcast: nope.json: cannot open: No such file or directory' | assert_stderr_eq
	bcast simulate nope.obj s.json
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: nope.obj: '
}

@test "simulate: a failed run leaves an existing -o file alone" {
	echo keep >out.json
	printf '{"balls": [' >trunc.json
	bcast simulate -o out.json floor.obj trunc.json
	assert_status 2
	echo keep | assert_file_eq out.json
}

@test "simulate: --positions needs a sampling interval" {
	printf '{"balls": [], "horizon": 1}' >n.json
	bcast simulate --positions p.csv floor.obj n.json
	assert_status 2
	assert_no_stdout
	echo 'ballcast: n.json: --positions needs a sampling interval: --samples DT, or "samples" in the scene' |
		assert_stderr_eq
	[ ! -e p.csv ]
}

@test "simulate usage errors: exit 2, the complaint and the usage line" {
	expect_usage simulate
	assert_contains "$err" "missing MESH"
	expect_usage simulate floor.obj
	assert_contains "$err" "missing SCENE"
	expect_usage simulate floor.obj s.json extra
	assert_contains "$err" "too many arguments, starting at 'extra'"
	expect_usage simulate --bogus floor.obj s.json
	assert_contains "$err" "unknown option '--bogus'"
	expect_usage simulate --samples 0 floor.obj s.json
	assert_contains "$err" "--samples needs a finite number > 0, not '0'"
	expect_usage simulate --horizon -1 floor.obj s.json
	assert_contains "$err" "--horizon needs a finite number > 0, not '-1'"
	expect_usage simulate --max-events 0 floor.obj s.json
	assert_contains "$err" "--max-events needs a whole number >= 1, not '0'"
	expect_usage simulate -f xml floor.obj s.json
	assert_contains "$err" "unknown output format 'xml'"
	expect_usage simulate --positions - floor.obj s.json
	assert_contains "$err" "the events and --positions cannot both go to standard output: give -o FILE"
	expect_usage simulate --samples
	assert_contains "$err" "missing value for '--samples'"
}

@test "simulate --help: usage and examples on stdout, exit 0; the command is listed" {
	bcast simulate --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast simulate [OPTIONS] MESH.obj SCENE.json'
	grep -q '^examples:' stdout
	grep -q -- '--positions FILE' stdout
	bcast --help
	assert_status 0
	grep -q '^  simulate  *bounce balls around a mesh, event by event$' stdout
}
