#!/usr/bin/env bats
# `ballcast cast --method discrete`: the course slides' time stepping with
# bisection beside the exact cast: a thin wall tunnelled, the bound
# exact <= discrete <= exact + dt / 2^N on a fat target, --compare-exact's
# output, and the usage errors.

load helpers

setup() {
	common_setup
}

# cube X Y Z S : the closed cube [X, X+S] x [Y, Y+S] x [Z, Z+S], outward normals.
cube() {
	awk -v x="$1" -v y="$2" -v z="$3" -v s="$4" 'BEGIN {
		for (i = 0; i < 8; i++) printf "v %s %s %s\n", x + s * (i % 2), y + s * (int(i / 2) % 2), z + s * int(i / 4)
		print "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6"
	}'
}

@test "discrete: a fast ball crossing a thin wall is missed (tunnels), the exact cast hits it" {
	# r = 0.01, the path 2 long: a step of dt = 0.1 moves it 0.2, ten
	# diameters. Tests at z = 0.05 (alpha 0.5) and -0.15 (0.6): never within
	# 0.01 of the wall. The exact cast: z = 0.01 at alpha (1.05 - 0.01) / 2.
	printf '{"id":"fast","p0":[0.25,0.25,1.05],"p1":[0.25,0.25,-0.95],"r":0.01}\n' >t.ndjson
	bcast cast -f ndjson tri.obj t.ndjson
	assert_contains "$out" '"hit":true,"alpha":0.52,'
	bcast cast --method discrete --dt 0.1 -f ndjson tri.obj t.ndjson
	assert_status 0
	assert_no_stderr
	echo '{"id":"fast","hit":false,"alpha":1,"alpha_free":1}' | assert_stdout_eq
	bcast cast --method discrete --dt 0.1 --compare-exact -f ndjson tri.obj t.ndjson
	assert_status 0
	echo '{"id":"fast","hit":false,"alpha":1,"exact_alpha":0.52,"alpha_free":1}' | assert_stdout_eq
	echo 'ballcast: --method discrete --dt 0.1 --bisect 5: 1 of 1 throws tunnel (hit by the exact cast, missed)' | assert_stderr_eq
	bcast cast --method discrete --dt 0.1 --compare-exact tri.obj t.ndjson
	assert_contains "$out" '"summary":{"records":1,"hits":0,"errors":0,"tunnelled":1}}'
	# a step small enough (0.004 < one diameter of the path) sees it
	bcast cast --method discrete --dt 0.004 --compare-exact -f ndjson tri.obj t.ndjson
	assert_contains "$out" '"hit":true,'
	assert_contains "$err" ': 0 of 1 throws tunnel'
}

@test "discrete: hand-computed alpha, the end of the last halving: never before the exact alpha, within dt / 2^N" {
	# z = 2 - 4 alpha, r = 0.5: exact contact at alpha 0.375. dt = 0.25: the
	# tests at 0.25 (z = 1) free, 0.5 (z = 0) in contact; halving [0.25, 0.5]
	# twice: 0.375 in contact (z = 0.5 = r), then 0.3125 free: alpha 0.375.
	write_three_json t.json
	bcast cast --method discrete --dt 0.25 --bisect 2 -f ndjson tri.obj t.json
	assert_status 0
	assert_line 1 "$(hit_front '"front"' | sed 's/}$/,"alpha_free":0.3125}/')"
	assert_line 2 "$(miss '"back"' | sed 's/}$/,"alpha_free":1}/')"
	# with 0 halvings: the end of the step, 0.5, the centre on the face
	bcast cast --method discrete --dt 0.25 --bisect 0 -f ndjson tri.obj t.json
	assert_line 1 '{"id":"front","hit":true,"alpha":0.5,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.25,0.25,0],"center":[0.25,0.25,0],"normal":[0,0,1],"triangle_normal":[0,0,1],"alpha_free":0.25}'
	# the settings say which method ran
	bcast cast --method discrete --dt 0.25 --bisect 0 tri.obj t.json
	assert_contains "$out" '"tie_tolerance":1e-10,"method":"discrete","dt":0.25,"bisect":0,"compare_exact":false},'
}

@test "discrete: the course slides' answer, the last contact-free alpha, is printed as alpha_free beside alpha (issue 22)" {
	# The slides' example: r = 0.3 dropped from z = 2 to z = -2 onto the
	# plane z = 0, dt = 1/8, 5 halvings. The centre is at z = 2 - 4 alpha,
	# in contact from z = 0.3 (alpha 0.425). Tests at alpha 1/8, 1/4, 3/8
	# free (z = 1.5, 1, 0.5), 1/2 in contact (z = 0); halvings 0.4375
	# (contact), 0.40625 (free), 0.421875 (z = 0.3125, free), 0.4296875
	# (contact), 0.42578125 (z = 0.296875, contact): the final bracket is
	# [0.421875, 0.42578125]. The seed returns its start, 0.421875.
	printf 'v -10 -10 0\nv 10 -10 0\nv 10 10 0\nv -10 10 0\nf 1 2 3 4\n' >plane.obj
	printf '{"id":"drop","p0":[0.5,0.25,2],"p1":[0.5,0.25,-2],"r":0.3}\n{"id":"away","p0":[0,0,1],"p1":[0,0,2],"r":0.3}\n{"id":"bad"}\n' >drop.ndjson
	bcast cast --method discrete --dt 0.125 -f ndjson plane.obj drop.ndjson
	assert_status 1
	{
		echo '{"id":"drop","hit":true,"alpha":0.42578125,"initial_overlap":false,"feature":"face","triangle":0,"face":0,"vertices":[0,1,2],"point":[0.5,0.25,0],"center":[0.5,0.25,0.296875],"normal":[0,0,1],"triangle_normal":[0,0,1],"alpha_free":0.421875}'
		# a miss: no test found it in contact, free to the end
		echo '{"id":"away","hit":false,"alpha":1,"alpha_free":1}'
		echo '{"id":"bad","error":"missing p0"}'
	} | assert_stdout_eq
	# CSV: the last column, after exact_alpha
	bcast cast --method discrete --dt 0.125 --compare-exact -f csv plane.obj drop.ndjson
	sed -n 1p stdout | grep -q ',triangle_normal_z,error,exact_alpha,alpha_free$'
	[ "$(csv_cell stdout 2 3),$(csv_cell stdout 2 24),$(csv_cell stdout 2 25)" = "0.42578125,0.425,0.421875" ]
	[ "$(csv_cell stdout 3 25),$(csv_cell stdout 4 25)" = "1," ]
	# the exact cast has no bracket: no alpha_free
	bcast cast -f ndjson plane.obj drop.ndjson
	[ "$(grep -c alpha_free stdout)" = 0 ]
}

@test "discrete on a fat target: on 300 throws, exact <= discrete <= exact + dt/2^N, no tunnelling; exact_alpha is the normal cast's alpha" {
	cube -2 -2 -2 4 >cube.obj
	# from a sphere of radius 6 towards a point of [-1,1]^3 (a ball of r 0.5
	# stops deep inside, where no face is within r): the shell within r of
	# the faces it enters is at least 2 r = 1 thick along the path, 7 steps
	# of dt = 0.02 on a path of length <= 7.8.
	awk 'BEGIN {
		srand(13); print "id,x0,y0,z0,x1,y1,z1,r"
		for (i = 0; i < 300; i++) {
			do { x = 2 * rand() - 1; y = 2 * rand() - 1; z = 2 * rand() - 1; n = sqrt(x * x + y * y + z * z) } while (n < 0.1 || n > 1)
			printf "%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,0.5\n", i, 6 * x / n, 6 * y / n, 6 * z / n, 2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1
		}
	}' >t.csv
	for n in 0 5 12; do
		bcast cast -q --method discrete --dt 0.02 --bisect "$n" --compare-exact -f csv cube.obj t.csv
		assert_status 0
		cp stdout discrete.csv
		"$BALLCAST" cast -q -f csv cube.obj t.csv >exact.csv
		[ "$(sed -n 1p discrete.csv | awk -F, '{ print $3, $24 }')" = "alpha exact_alpha" ]
		# exact_alpha is, byte for byte, the alpha of the normal cast
		[ "$(cut -d, -f3 exact.csv | tail -n +2)" = "$(cut -d, -f24 discrete.csv | tail -n +2)" ]
		awk -F, -v bound="$(awk -v n="$n" 'BEGIN { printf "%.17g", 0.02 / 2 ^ n }')" 'NR > 1 {
			hits++
			if ($2 != "true" || $24 == "") { print "not hit: " $0; bad = 1; next }
			d = $3 - $24
			if (d < -1e-12 || d > bound + 1e-12) { print "alpha " $3 " exact " $24 " bound " bound; bad = 1 }
		} END { if (hits != 300) bad = 1; exit bad }' discrete.csv
	done
	bcast cast --method discrete --dt 0.02 --compare-exact cube.obj t.csv
	assert_contains "$out" '"summary":{"records":300,"hits":300,"errors":0,"tunnelled":0}}'
	# any number of threads, the same bytes
	"$BALLCAST" cast -q -j 1 --method discrete --dt 0.02 --compare-exact -f csv cube.obj t.csv >one.csv
	"$BALLCAST" cast -q -j 3 --method discrete --dt 0.02 --compare-exact -f csv cube.obj t.csv >three.csv
	cmp one.csv three.csv
}

@test "--method exact is the default, byte for byte; --compare-exact CSV: a miss leaves exact_alpha empty" {
	write_three_json t.json
	"$BALLCAST" cast tri.obj t.json >default.json
	bcast cast --method exact tri.obj t.json
	assert_status 0
	cmp stdout default.json
	bcast cast --method discrete --dt 0.01 --compare-exact -f csv tri.obj t.json
	assert_status 0
	# the column after error (and after ties, which discrete never has),
	# before alpha_free
	sed -n 1p stdout | grep -q '^id,hit,alpha,.*,triangle_normal_z,error,exact_alpha,alpha_free$'
	[ "$(csv_cell stdout 3 1),$(csv_cell stdout 3 2),$(csv_cell stdout 3 24)" = "back,false," ]
	[ "$(csv_cell stdout 2 24)" = 0.375 ]
	for n in $(csv_columns stdout); do [ "$n" -eq 25 ]; done
}

@test "discrete usage errors: bad --dt, --bisect, --method; options that need the other method; exit 2" {
	write_three_json t.json
	for dt in 0 -0.1 1.5 1e-10 nan abc ''; do
		bcast cast --method discrete --dt "$dt" tri.obj t.json
		assert_status 2
		assert_no_stdout
		assert_contains "$err" "ballcast cast: --dt needs a fraction of the path from 1e-9 to 1, not '$dt'"
	done
	for n in -1 65 2.5 x; do
		bcast cast --method discrete --dt 0.1 --bisect "$n" tri.obj t.json
		assert_status 2
		assert_contains "$err" "ballcast cast: --bisect needs a whole number from 0 to 64, not '$n'"
	done
	bcast cast --method stepping tri.obj t.json
	assert_status 2
	assert_contains "$err" "ballcast cast: --method is exact or discrete, not 'stepping'"
	bcast cast --method discrete tri.obj t.json
	assert_status 2
	assert_contains "$err" 'ballcast cast: --method discrete needs --dt F'
	for opt in "--dt 0.1" "--bisect 3" "--compare-exact"; do
		# shellcheck disable=SC2086
		bcast cast $opt tri.obj t.json
		assert_status 2
		assert_contains "$err" "ballcast cast: ${opt%% *} needs --method discrete"
	done
	for opt in "--ties" "--normal average" "--convention cs121"; do
		# shellcheck disable=SC2086
		bcast cast --method discrete --dt 0.1 $opt tri.obj t.json
		assert_status 2
		assert_contains "$err" 'ballcast cast: --method discrete finds one contact'
	done
	bcast cast --method discrete --dt 1 --bisect 64 tri.obj t.json
	assert_status 0
}
