#!/usr/bin/env bats
# The man page's Exactness promises on thin triangles and cancelling
# averages (issue 28's reproducers, ../shared/exact-found/2026-11-28): each
# expected value was computed in exact arithmetic (Python's fractions and
# decimal at 100 digits, for the doubles the files read) and is written out
# here; the answers must be within the man page's tolerances of them
# (normals within 1e-9 of a radian, points within a few ulps).
# tests/exact runs the same classes at random (cap, cap-closest,
# average-fan, needle-intersect).

load helpers

setup() {
	common_setup
	# sliver_normal.obj: a cap, the sine of its smallest angle 4.9e-14
	# (above the sliver limit 1.4e-14, so it is hit).
	printf '%s\n' 'v -0.8165054820718729 0.7251644832866933 19.482122322724678' \
		'v -0.8660117400948595 1.1327437720134903 20.000907085962915' \
		'v -0.8486255573875368 0.989605343367905 19.81871422712761' 'f 1 2 3' >cap.obj
	printf '%s\n' '[{"id":0,"p0":[-0.9010965735791623,0.5559506460010908,20.070702762126814],"p1":[-0.7863319461236837,1.3423917531109684,19.463792995083317],"r":0},' \
		'{"id":1,"p0":[-0.9010965735791623,0.5559506460010908,20.070702762126814],"p1":[-0.7863319461236837,1.3423917531109684,19.463792995083317],"r":0.001}]' >cap.json
}

# within X Y Z EX EY EZ TOL: |(X,Y,Z) - (EX,EY,EZ)| <= TOL (for unit
# vectors, the angle between them to first order).
within() {
	awk -v x="$1" -v y="$2" -v z="$3" -v a="$4" -v b="$5" -v c="$6" -v tol="$7" 'BEGIN {
		d = sqrt((x - a) ^ 2 + (y - b) ^ 2 + (z - c) ^ 2)
		if (d > tol) { printf "(%s, %s, %s) is %g from (%s, %s, %s), over %g\n", x, y, z, d, a, b, c, tol; exit 1 }
	}'
}

# cells FILE ROW FIRST : three CSV cells from column FIRST, space-separated.
cells() {
	echo "$(csv_cell "$1" "$2" "$3") $(csv_cell "$1" "$2" $(($3 + 1))) $(csv_cell "$1" "$2" $(($3 + 2)))"
}

# The exact unit normal of cap.obj and the exact crossing of record 0's path.
CAP_NORMAL="-0.11476462745547845 -0.7864411071098775 0.6069097670435"
CROSSING="-0.8437142598514232 0.9491711995560284 19.767247878605065"

@test "a thin cap: the normals within 1e-9 of a radian, the contact point on the crossing (were 3.5e-4 and 2.2e-5 off)" {
	bcast cast -q --format csv cap.obj cap.json
	assert_status 0
	# columns: point 11-13, center 14-16, normal 17-19, triangle_normal 20-22
	for row in 2 3; do
		# shellcheck disable=SC2046
		within $(cells stdout $row 20) $CAP_NORMAL 1e-9
		# shellcheck disable=SC2046
		within $(cells stdout $row 17) $CAP_NORMAL 1e-9
	done
	[ "$(csv_cell stdout 2 3)" = 0.4999999999999985 ]
	# shellcheck disable=SC2046
	within $(cells stdout 2 14) $CROSSING 0
	# shellcheck disable=SC2046
	within $(cells stdout 2 11) $CROSSING 1e-14
	# The ball's face point: its centre less 0.001 n.
	read -r cx cy cz <<<"$(cells stdout 3 14)"
	read -r nx ny nz <<<"$CAP_NORMAL"
	# shellcheck disable=SC2046
	within $(cells stdout 3 11) "$(awk -v c="$cx" -v n="$nx" 'BEGIN { printf "%.17g", c - 0.001 * n }')" \
		"$(awk -v c="$cy" -v n="$ny" 'BEGIN { printf "%.17g", c - 0.001 * n }')" \
		"$(awk -v c="$cz" -v n="$nz" 'BEGIN { printf "%.17g", c - 0.001 * n }')" 1e-13
}

@test "a thin cap: closest of the crossing point is 5.1e-16 away, with the front normal (was 2.2e-5 and the back normal)" {
	echo '{"id":"on","p":[-0.8437142598514232,0.9491711995560284,19.767247878605065]}' >on.ndjson
	bcast closest -q --format csv cap.obj on.ndjson
	assert_status 0
	# columns: id,distance,x,y,z,triangle,face,feature,vertex_0..2,normal_x..z
	awk -v d="$(csv_cell stdout 2 2)" 'BEGIN { if (d > 6e-16 || d < 4e-16) { print "distance " d; exit 1 } }'
	[ "$(csv_cell stdout 2 8)" = face ]
	# shellcheck disable=SC2046
	within $(cells stdout 2 12) $CAP_NORMAL 1e-9
}

@test "--normal average: opposite unit normals cancel exactly: the hit triangle's normal (was a direction 55 degrees off)" {
	# average_cancel.obj: two triangles through O in one plane, wound
	# opposite ways: N0 = (-99, 66, -22), N1 = -5/2 N0 exactly.
	printf '%s\n' 'v 0 0 0' 'v 2 6 9' 'v 6 7 -6' 'v -4 -12 -18' 'v -7.5 -8.75 7.5' 'f 1 2 3' 'f 1 5 4' >cancel.obj
	printf '%s\n' '{"id":"through-O","p0":[-9,6,-2],"p1":[9,-6,2],"r":0}' \
		'{"id":"ball-onto-O","p0":[-9,6,-2],"p1":[9,-6,2],"r":0.5}' \
		'{"id":"in-plane-through-O","p0":[4,1,-15],"p1":[-4,-1,15],"r":0}' >cancel.ndjson
	for sides in --two-sided ""; do
		# shellcheck disable=SC2086
		bcast cast -q --format csv --normal average $sides cancel.obj cancel.ndjson
		assert_status 0
		for row in 2 3 4; do
			[ "$(csv_cell stdout $row 6)" = 0 ]
			# shellcheck disable=SC2046
			within $(cells stdout $row 17) -0.8181818181818182 0.5454545454545454 -0.18181818181818182 1e-15
		done
	done
}

@test "--normal average: near cancellation (a fold 2^-27 from flat) within 1e-9 of a radian (was 3.7e-9 off)" {
	# average_near_cancel.obj: unit normals (0,0,1) and (0,-e,-1)/sqrt(1+e^2),
	# e = 2^-27; the exact sum's direction is (0, -1, 3.725290298461914e-09).
	printf '%s\n' 'v 0 0 0' 'v 1 0 0' 'v 0.5 1 0' 'v 0.5 -1 7.450580596923828e-09' 'f 1 2 3' 'f 1 2 4' >fold.obj
	echo '{"id":"through-edge","p0":[0.5,0.25,1],"p1":[0.5,-0.25,-1],"r":0}' >fold.ndjson
	bcast cast -q --format csv --two-sided --normal average fold.obj fold.ndjson
	assert_status 0
	# shellcheck disable=SC2046
	within $(cells stdout 2 17) 0 -1 3.725290298461914e-09 1e-15
}
