#!/usr/bin/env bats
# `ballcast render`: usage, a well-formed and self-contained SVG, byte-identical
# runs, the same picture from every results format, hand-computed pixel
# positions (--probe) checked in the rasterised picture, --compare, and
# record and syntax errors.
#
# Needs xmllint (libxml2-utils), rsvg-convert (librsvg2-bin) and pngtopnm
# (netpbm): scripts/install-deps installs them. Pixels are read from the PNG
# through netpbm's plain PPM, which is text awk can read.

load helpers

setup() {
	common_setup
	for tool in xmllint rsvg-convert pngtopnm; do
		command -v "$tool" >/dev/null || {
			echo "$tool is missing: run scripts/install-deps" >&2
			return 1
		}
	done
	# A 4 x 4 floor in z = 0 facing up, and a ball of r = 0.5 dropped on
	# (1, 3): contact point (1, 3, 0), centre (1, 3, 0.5).
	printf 'v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nf 1 2 3 4\n' >floor.obj
	echo '[{"id":"drop","p0":[1,3,2],"p1":[1,3,-1],"r":0.5}]' >drop.json
	cp "$ROOM" room.obj
	cp "$REPO/samples/throws.json" throws.json
}

# Colours the picture uses (cli/render_cmd.c).
CONTACT='255 127 14'
DIFFER='214 39 40'
EXPECTED='44 160 44'
WHITE='255 255 255'
# The floor seen from straight above, flat-shaded: brightness 0.35 + 0.65 *
# dot(n, light) with light = (-0.4, 0.5, 0.77) normalised in camera terms and
# n = toEye: 0.35 + 0.65 * 0.77 / sqrt(1.0029) = 0.849776; times the stone
# colour (214, 206, 188) and rounded.
FLOOR_FROM_ABOVE='182 175 160'

# pixel PNG X Y : "R G B" of pixel column X, row Y (0-based) of PNG.
pixel() {
	pngtopnm -plain "$1" | awk -v x="$2" -v y="$3" '
		{ sub(/#.*/, "") }
		{
			for (i = 1; i <= NF; i++) {
				n++
				# tokens: P3, width, height, maxval, then R G B per pixel
				if (n == 2) want = 5 + 3 * (y * $i + x)
				if (want && n >= want) {
					out = out (n > want ? " " : "") $i
					if (n == want + 2) { print out; exit }
				}
			}
		}'
}

# probe_pixel X,Y,Z : the pixel column and row where --probe X,Y,Z landed
# (the "stderr" of the last bcast).
probe_pixel() {
	sed -n "s/^ballcast render: probe $1: \\([-0-9.]*\\),\\([-0-9.]*\\)\$/\\1 \\2/p" "$BATS_TEST_TMPDIR/stderr" |
		awk '{ printf "%d %d\n", int($1), int($2) }'
}

# assert_pixel PNG X Y RGB
assert_pixel() {
	local got
	got="$(pixel "$1" "$2" "$3")"
	if [ "$got" != "$4" ]; then
		echo "pixel ($2, $3) of $1 is '$got', expected '$4'"
		return 1
	fi
}

# assert_not_pixel PNG X Y RGB
assert_not_pixel() {
	local got
	got="$(pixel "$1" "$2" "$3")"
	if [ -z "$got" ] || [ "$got" = "$4" ]; then
		echo "pixel ($2, $3) of $1 is '$got', expected anything else"
		return 1
	fi
}

assert_well_formed() {
	xmllint --noout "$1" || {
		echo "$1 is not well-formed XML"
		return 1
	}
}

# count_class FILE CLASS : elements of that class
count_class() {
	grep -c "class=\"$2\"" "$1" || true
}

# ------------------------------------------------------------------ usage

@test "render --help: usage and examples on stdout, exit 0" {
	bcast render --help
	assert_status 0
	assert_no_stderr
	assert_line 1 'usage: ballcast render [OPTIONS] MESH.obj [RESULTS|TRAJECTORIES]'
	assert_contains "$out" 'examples:'
	assert_contains "$out" 'ballcast render samples/room.obj samples/throws.json -o room.svg'
	assert_contains "$out" '--up x|y|z'
	assert_contains "$out" '--cull PX'
	# the manual documents the same options
	grep -q -e '^\.BR \\-\\-up ' "$REPO/man/ballcast.1"
	grep -q -e '^\.BI \\-\\-cull ' "$REPO/man/ballcast.1"
}

@test "render: usage errors exit 2 with a message and nothing on stdout" {
	local usage='usage: ballcast render [OPTIONS] MESH.obj [RESULTS|TRAJECTORIES]   (ballcast render --help)'
	bcast render
	assert_status 2
	assert_no_stdout
	printf '%s\n%s\n' 'ballcast render: missing MESH' "$usage" | assert_stderr_eq

	bcast render --view 10 tri.obj
	assert_status 2
	assert_no_stdout
	printf '%s\n%s\n' "ballcast render: --view needs AZ,EL in degrees with -90 <= EL <= 90, not '10'" "$usage" |
		assert_stderr_eq

	bcast render --view 0,91 tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: --view needs AZ,EL in degrees with -90 <= EL <= 90, not '0,91'"

	bcast render --size 63x100 tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: --size needs WxH, whole numbers from 64 to 100000, not '63x100'"

	bcast render --size 800 tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: --size needs WxH, whole numbers from 64 to 100000, not '800'"

	bcast render --eye 1,2 tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: --eye needs X,Y,Z, not '1,2'"

	bcast render --view 0,0 --eye 1,1,1 tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 'ballcast render: --view and --eye are alternatives: give one'

	bcast render --compare e.json tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 'ballcast render: --compare needs results to compare: give RESULTS after MESH'

	bcast render tri.obj a b
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: too many arguments, starting at 'b'"

	bcast render --frobnicate tri.obj
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: unknown option '--frobnicate'"
}

# assert_stderr_line_prefix_2 LINE : stderr is LINE then the short usage line.
assert_stderr_line_prefix_2() {
	printf '%s\n%s\n' "$1" 'usage: ballcast render [OPTIONS] MESH.obj [RESULTS|TRAJECTORIES]   (ballcast render --help)' |
		assert_stderr_eq
}

@test "render: an eye at the centre of the mesh's bounds has no direction" {
	# tri.obj spans (0,0,0)-(1,1,0): its centre is (0.5, 0.5, 0)
	bcast render --eye 0.5,0.5,0 tri.obj
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix_2 "ballcast render: --eye is at the centre of the mesh's bounds: no direction to look in"
}

@test "render: a mesh that does not load is reported as cast reports it, exit 2" {
	printf 'v 0 0 0\nf 1 2 3\n' >bad.obj
	bcast render bad.obj -o out.svg
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: bad.obj:2:'
	[ ! -e out.svg ]
}

# ------------------------------------------------- the document itself

@test "render: the samples picture is well-formed, self-contained and up to date" {
	bcast render room.obj throws.json -o room.svg
	assert_status 0
	assert_no_stdout
	assert_no_stderr
	assert_well_formed room.svg
	# no scripts, no links, no images, no external anything
	[ "$(grep -c -i -e '<script' -e 'href' -e '<image' -e 'url(' -e '<foreignObject' -e '@import' room.svg)" -eq 0 ]
	# the only namespace is SVG's (an identifier, never fetched)
	[ "$(grep -o 'http[^"]*' room.svg | sort -u)" = 'http://www.w3.org/2000/svg' ]
	grep -F -q '<text class="legend" x="16" y="17" font-size="13" fill="#000000">room.obj: 33 triangles; 13 throws: 10 hits, 3 misses, 0 errors</text>' room.svg
	# one contact dot per hit, one path start per trajectory
	[ "$(count_class room.svg contact)" -eq 10 ]
	[ "$(count_class room.svg start)" -eq 13 ]
	# samples/room.svg is what this command makes from the samples (it was made
	# with the repository-relative names: put them back before comparing)
	(cd "$REPO" && "$BALLCAST" render samples/room.obj samples/throws.json) >fresh.svg
	cmp fresh.svg "$REPO/samples/room.svg"
}

@test "render: two runs give byte-identical pictures, on stdout and with -o" {
	bcast render room.obj throws.json
	assert_status 0
	cp stdout one.svg
	bcast render room.obj throws.json -o two.svg
	assert_status 0
	assert_no_stdout
	cmp one.svg two.svg
	bcast render room.obj throws.json
	cmp one.svg stdout
}

@test "render: back faces are dimmed in a translucent group drawn over the front faces" {
	bcast render room.obj -o room.svg
	assert_status 0
	assert_well_formed room.svg
	grep -q '^<g class="front" stroke-width="0.5" stroke-linejoin="round">$' room.svg
	grep -q '^<g class="back" opacity="0.3" stroke-width="0.5" stroke-linejoin="round">$' room.svg
	# the front group comes first, then the back group, then the throws
	[ "$(grep -n '^<g class="front"' room.svg | cut -d: -f1)" -lt "$(grep -n '^<g class="back"' room.svg | cut -d: -f1)" ]
	# from az 35, el 25 the floor (normal +z) is a front face and the ceiling a
	# back face: seen from straight below (el -90) it is the other way round,
	# so the picture changes
	bcast render --view 35,-90 room.obj -o below.svg
	assert_status 0
	! cmp -s room.svg below.svg
}

# ------------------------------------------- trajectories and results

@test "render: results as JSON, NDJSON and CSV draw the same picture" {
	"$BALLCAST" cast room.obj throws.json >r.json
	"$BALLCAST" cast room.obj throws.json --format ndjson >r.ndjson
	"$BALLCAST" cast room.obj throws.json --format csv >r.csv
	bcast render room.obj r.json -o a.svg
	assert_status 0
	assert_no_stderr
	bcast render room.obj r.ndjson -o b.svg
	assert_status 0
	bcast render room.obj r.csv -o c.svg
	assert_status 0
	cmp a.svg b.svg
	cmp a.svg c.svg
	# a header with quoted cells is still a results header
	sed '1s/\([a-z_0-9]*\)/"\1"/g' r.csv >q.csv
	head -c 12 q.csv | grep -q '^"id","hit",'
	bcast render room.obj q.csv -o q.svg
	assert_status 0
	cmp a.svg q.svg
	assert_well_formed a.svg
	# results carry no p0/p1: contacts but no paths
	[ "$(count_class a.svg contact)" -eq 10 ]
	[ "$(count_class a.svg path)" -eq 0 ]
	[ "$(count_class a.svg start)" -eq 0 ]
	grep -F -q '13 throws: 10 hits, 3 misses, 0 errors' a.svg
}

@test "render: the contacts drawn from results are those render casts from the trajectories" {
	"$BALLCAST" cast room.obj throws.json >r.json
	bcast render room.obj throws.json -o t.svg
	# the paths are framed with the mesh: give the results the same paths
	# (a result's p0 and p1 are drawn), so that both pictures are framed alike
	jq --slurpfile t throws.json '.results |= ([., $t[0]] | transpose | map(.[0] + {p0: .[1].p0, p1: .[1].p1}))' \
		r.json >rp.json
	bcast render room.obj rp.json -o r.svg
	grep 'class="contact"' t.svg >t.contacts
	grep 'class="contact"' r.svg >r.contacts
	[ -s t.contacts ]
	cmp t.contacts r.contacts
	cmp <(grep 'class="normal"' t.svg) <(grep 'class="normal"' r.svg)
	# Results give r as |center - point|, except where the ball starts
	# overlapping (7.50 here): then r is unknown and no ball is drawn.
	[ "$(count_class t.svg ball)" -eq 8 ] # 10 hits, 2 of them with r = 0
	[ "$(count_class r.svg ball)" -eq 7 ]
	grep -v '"id": 7.50' throws.json >fewer.json
	"$BALLCAST" cast room.obj fewer.json |
		jq --slurpfile t fewer.json '.results |= ([., $t[0]] | transpose | map(.[0] + {p0: .[1].p0, p1: .[1].p1}))' \
			>fewer-r.json
	bcast render room.obj fewer.json -o ft.svg
	bcast render room.obj fewer-r.json -o fr.svg
	cmp <(grep 'class="ball"' ft.svg) <(grep 'class="ball"' fr.svg)
	[ "$(count_class fr.svg ball)" -eq 7 ]
}

@test "render: trajectories are cast with --two-sided and --radius as cast casts them" {
	bcast render --two-sided room.obj throws.json -o two.svg
	assert_status 0
	grep -F -q '13 throws: 11 hits, 2 misses, 0 errors' two.svg
	printf '{"id":"a","p0":[1,1,2],"p1":[1,1,-1]}\n' >nor.ndjson
	bcast render -r 0.25 room.obj nor.ndjson -o r.svg
	assert_status 0
	grep -F -q '1 throw: 1 hit, 0 misses, 0 errors' r.svg
}

@test "render: every cast option casts as cast casts (judged whole against cast's own answers)" {
	for opts in "--two-sided" "--approach lt" "--normal triangle" "--normal average" "--initial-overlap ignore" \
		"--convention cs121" "--method discrete --dt 0.05" "--method discrete --dt 0.05 --bisect 0"; do
		# shellcheck disable=SC2086
		"$BALLCAST" cast $opts room.obj throws.json >e.json
		# shellcheck disable=SC2086
		bcast render $opts --compare e.json --fields all room.obj throws.json -o same.svg
		assert_status 0
		echo '13 passed, 0 failed, 0 missing, 0 extra' | assert_stdout_eq
		# without the option, some answers differ: the option was taken
		bcast render --compare e.json --fields all room.obj throws.json -o default.svg
		assert_status 0
		failed=$(sed 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/' stdout)
		[ "$failed" -gt 0 ] || {
			echo "$opts: the default cast gives the same answers"
			return 1
		}
	done
}

@test "render: a trajectory out of range gets cast's message, in place, the rest drawn, exit 1" {
	cat >t.json <<'EOF'
[{"id":"ok","p0":[1,3,2],"p1":[1,3,-1],"r":0.5},
 {"id":"far","p0":[1e60,1,1],"p1":[1,3,-1],"r":0.5},
 {"id":"big","p0":[1,1,2],"p1":[1,3,-1],"r":1e51}]
EOF
	bcast render floor.obj t.json -o out.svg
	assert_status 1
	assert_no_stdout
	{
		echo 'ballcast: t.json:2:2: record 2: a coordinate or the radius is beyond the supported range of 1e50'
		echo 'ballcast: t.json:3:2: record 3: a coordinate or the radius is beyond the supported range of 1e50'
	} | assert_stderr_eq
	"$BALLCAST" cast floor.obj t.json 2>&1 >/dev/null | cmp - stderr
	grep -F -q '3 throws: 1 hit, 0 misses, 2 errors' out.svg
	[ "$(count_class out.svg contact)" -eq 1 ]
}

@test "render: cast's options are refused with cast's messages" {
	bcast render --approach x room.obj throws.json -o out.svg
	assert_status 2
	assert_stderr_line_prefix_2 "ballcast render: --approach is le or lt, not 'x'"
	bcast render --method discrete room.obj throws.json -o out.svg
	assert_status 2
	assert_stderr_line_prefix_2 'ballcast render: --method discrete needs --dt F (the step, a fraction of the path)'
	bcast render --dt 0.1 room.obj throws.json -o out.svg
	assert_status 2
	assert_stderr_line_prefix_2 'ballcast render: --dt needs --method discrete'
	bcast render --method discrete --dt 0.1 --convention cs121 room.obj throws.json -o out.svg
	assert_status 2
	assert_stderr_line_prefix_2 'ballcast render: --method discrete finds one contact: --ties, --normal average and --convention need --method exact'
	[ ! -e out.svg ]
}

@test "render: a results file with p0 and p1 gets its path drawn" {
	printf 'id,hit,alpha,feature,point_x,point_y,point_z,center_x,center_y,center_z,x0,y0,z0,x1,y1,z1\n' >p.csv
	printf 'a,true,0.5,face,1,3,0,1,3,0.5,1,3,1.5,1,3,-0.5\n' >>p.csv
	bcast render floor.obj p.csv -o p.svg
	assert_status 0
	assert_no_stderr
	[ "$(count_class p.svg path)" -eq 1 ]
	[ "$(count_class p.svg after)" -eq 1 ]
	[ "$(count_class p.svg contact)" -eq 1 ]
}

@test "render: the mesh alone, with a file name XML must escape" {
	cp tri.obj 'a&b<c>.obj'
	bcast render 'a&b<c>.obj' -o m.svg
	assert_status 0
	assert_well_formed m.svg
	grep -F -q '>a&amp;b&lt;c&gt;.obj: 1 triangle; 0 throws: 0 hits, 0 misses, 0 errors</text>' m.svg
	[ "$(grep -c '<polygon' m.svg)" -ge 1 ]
	[ "$(count_class m.svg throw)" -eq 0 ]
}

@test "render: --eye along a view direction draws what --view draws" {
	# tri.obj's bounds centre is (0.5, 0.5, 0); from (0.5, -9.5, 0) the eye
	# looks along +y, as --view 0,0 does
	bcast render --view 0,0 tri.obj -o view.svg
	assert_status 0
	bcast render --eye 0.5,-9.5,0 tri.obj -o eye.svg
	assert_status 0
	cmp view.svg eye.svg
	bcast render --view 90,0 tri.obj -o side.svg
	! cmp -s view.svg side.svg
}

# ------------------------------------------------------------- pixels

@test "render: from straight above, the contact lands on its hand-computed pixel" {
	# --view 0,90: x to the right, y up. 200 x 200 with a 22 px title band,
	# 16 px margins and the key's four rows (a 68 px band: 'up: +z
	# (guessed)'; 'path'; 'ball at contact'; 'contact' and 'normal', at 0.65
	# em per character) leaves [16, 184] x [38, 116]; the floor's 4 x 4 fits
	# at scale min(168, 78) / 4 = 19.5, its centre (2, 2) at (100, 77). So
	# (1, 3, 0) lands at (100 - 19.5, 77 - 19.5) = (80.5, 57.5).
	bcast render --view 0,90 --size 200x200 --probe 1,3,0 --probe 3,1,0 floor.obj drop.json -o top.svg
	assert_status 0
	assert_no_stdout
	printf '%s\n%s\n' 'ballcast render: probe 1,3,0: 80.5,57.5' 'ballcast render: probe 3,1,0: 119.5,96.5' |
		assert_stderr_eq
	assert_well_formed top.svg
	[ "$(grep -c '<text class="key"' top.svg)" -eq 5 ]
	# the ball of r = 0.5 is a circle of 0.5 * 19.5 px around the contact
	grep -F -q '<circle class="ball" cx="80.5" cy="57.5" r="9.75" fill="none" stroke="#1f5fbf" stroke-width="1.5"/>' top.svg
	rsvg-convert -w 200 -h 200 top.svg -o top.png
	assert_pixel top.png 80 57 "$CONTACT"
	# elsewhere on the floor: its flat shade, not the dot
	assert_pixel top.png 119 96 "$FLOOR_FROM_ABOVE"
	# where the contact would land with y pointing down (a mirrored view)
	assert_pixel top.png 80 96 "$FLOOR_FROM_ABOVE"
	# outside the floor: the white background
	assert_pixel top.png 5 195 "$WHITE"
}

@test "render: in the default view of the samples, the contact dot is where --probe says" {
	# drop-on-floor touches at (1, 1, 0); crate-top at (2.75, 2.5, 1)
	bcast render --probe 1,1,0 --probe 2.75,2.5,1 --probe 7,5,0 room.obj throws.json -o room.svg
	assert_status 0
	rsvg-convert -w 800 -h 600 room.svg -o room.png
	read -r x y <<<"$(probe_pixel 1,1,0)"
	assert_pixel room.png "$x" "$y" "$CONTACT"
	read -r x y <<<"$(probe_pixel 2.75,2.5,1)"
	assert_pixel room.png "$x" "$y" "$CONTACT"
	# a bare spot of the floor is not a contact
	read -r x y <<<"$(probe_pixel 7,5,0)"
	assert_not_pixel room.png "$x" "$y" "$CONTACT"
	# and the picture without throws has no dot where the contact was
	bcast render --probe 1,1,0 room.obj -o bare.svg
	rsvg-convert -w 800 -h 600 bare.svg -o bare.png
	read -r x y <<<"$(probe_pixel 1,1,0)"
	assert_not_pixel bare.png "$x" "$y" "$CONTACT"
}

@test "render: the crate's side is whole down to the floor; no piece of the floor under the crate is painted over it (issue 26)" {
	# points on the crate's side x = 3.5 (the dark face seen in the default
	# view), just above its bottom edge, and its middle
	local probes="--probe 3.5,2.5,0.5" y z
	for y in 2.05 2.15 2.25 2.35 2.45 2.55 2.65 2.75 2.85 2.95; do
		for z in 0.03 0.06 0.1; do probes="$probes --probe 3.5,$y,$z"; done
	done
	# shellcheck disable=SC2086
	bcast render $probes --probe 3.8,2.5,0 room.obj -o bare.svg
	assert_status 0
	# the picture around the side, four pixels to one
	read -r cx cy <<<"$(probe_pixel 3.5,2.5,0.5)"
	left=$((cx - 45)) top=$((cy - 20))
	sed "s/width=\"800\" height=\"600\" viewBox=\"0 0 800 600\"/width=\"90\" height=\"110\" viewBox=\"$left $top 90 110\"/" \
		bare.svg >side.svg
	grep -q "viewBox=\"$left $top 90 110\"" side.svg
	rsvg-convert -w 360 -h 440 side.svg -o side.png
	pngtopnm -plain side.png >side.ppm
	# the pixels under the probes, in one pass: "probe R G B"
	sed -n 's/^ballcast render: probe \([^:]*\): \([-0-9.]*\),\([-0-9.]*\)$/\1 \2 \3/p' stderr |
		awk -v left="$left" -v top="$top" '
			NR == FNR { name[++n] = $1; px[n] = int(4 * ($2 - left)); py[n] = int(4 * ($3 - top)); next }
			{ sub(/#.*/, ""); for (i = 1; i <= NF; i++) v[++t] = $i }
			END { w = v[2]; for (k = 1; k <= n; k++) { at = 5 + 3 * (py[k] * w + px[k]); print name[k], v[at], v[at + 1], v[at + 2] } }
		' - side.ppm >pixels.txt
	side=$(awk 'NR == 1 { print $2, $3, $4 }' pixels.txt)
	# every point of the side's bottom strip is the side's colour (the floor's was
	# painted over a notch of it)
	awk -v side="$side" 'NR > 1 && $1 != "3.8,2.5,0" && $2 " " $3 " " $4 != side { print; bad++ } END { exit bad > 0 }' pixels.txt
	# and the floor in front of it is not
	[ "$(awk '$1 == "3.8,2.5,0" { print $2, $3, $4 }' pixels.txt)" != "$side" ]
	[ "$(wc -l <pixels.txt)" -eq 32 ]
}

# ------------------------------------------------------------ --compare

@test "render --compare: differing results in red, the expected contact in green" {
	# expected: a at (1, 3), b at (3, 1); the student has b at (3, 3)
	cat >expected.ndjson <<'EOF'
{"id":"a","hit":true,"alpha":0.5,"feature":"face","point":[1,3,0],"center":[1,3,0.5],"normal":[0,0,1]}
{"id":"b","hit":true,"alpha":0.5,"feature":"face","point":[3,1,0],"center":[3,1,0.5],"normal":[0,0,1]}
EOF
	cat >student.ndjson <<'EOF'
{"id":"a","hit":true,"alpha":0.5,"feature":"face","point":[1,3,0],"center":[1,3,0.5],"normal":[0,0,1]}
{"id":"b","hit":true,"alpha":0.5,"feature":"face","point":[3,3,0],"center":[3,3,0.5],"normal":[0,0,1]}
EOF
	# two legend lines: a 40 px band; the key's four rows at the bottom (68
	# px: 'up: +z (guessed)'; 'ball at contact'; 'contact', 'normal';
	# 'differs', 'expected'), so [16, 184] x [56, 116], scale 15, centre
	# (2, 2) at (100, 86): (1,3) -> (85, 71), (3,3) -> (115, 71),
	# (3,1) -> (115, 101)
	# --fields all: the contact point is graded (grade's default fields are
	# hit, alpha and normal)
	bcast render --compare expected.ndjson --fields all --view 0,90 --size 200x200 --probe 1,3,0 --probe 3,3,0 \
		--probe 3,1,0 floor.obj student.ndjson -o cmp.svg
	assert_status 0
	# compare's closing line, from the same engine
	echo '1 passed, 1 failed, 0 missing, 0 extra' | assert_stdout_eq
	"$BALLCAST" compare --mesh floor.obj expected.ndjson student.ndjson | tail -1 | cmp - stdout
	{
		echo 'ballcast render: probe 1,3,0: 85,71'
		echo 'ballcast render: probe 3,3,0: 115,71'
		echo 'ballcast render: probe 3,1,0: 115,101'
	} | assert_stderr_eq
	assert_well_formed cmp.svg
	grep -F -q '>compared with expected.ndjson: 1 of 2 differ, 0 missing (red: these results, green: expected)</text>' cmp.svg
	[ "$(count_class cmp.svg differs)" -eq 1 ]
	[ "$(count_class cmp.svg expected)" -eq 1 ]
	# labels: the differing one first, in red, up and right of its contact;
	# then the passing one in the paths' blue, where it does not cover b's
	grep -F -q '<text class="label" x="125" y="61" font-size="11" fill="#d62728">b</text>' cmp.svg
	grep -F -q '<text class="label" x="95" y="61" font-size="11" fill="#1f5fbf">a</text>' cmp.svg
	# the key says what red and green mean
	grep -F -q '>differs</text>' cmp.svg
	grep -F -q '>expected</text>' cmp.svg
	rsvg-convert -w 200 -h 200 cmp.svg -o cmp.png
	assert_pixel cmp.png 85 71 "$CONTACT"
	assert_pixel cmp.png 115 71 "$DIFFER"
	assert_pixel cmp.png 115 101 "$EXPECTED"
}

@test "render --compare: alpha within 1e-9 matches, beyond it differs; so do feature, point (--fields all) and hit" {
	printf '{"id":"a","hit":true,"alpha":0.5,"feature":"face","point":[1,3,0],"center":[1,3,0.5]}\n' >e.ndjson
	printf '{"id":"a","hit":true,"alpha":0.5000000009,"feature":"face","point":[1,3,0.0000000009],"center":[1,3,0.5]}\n' >near.ndjson
	printf '{"id":"a","hit":true,"alpha":0.500000002,"feature":"face","point":[1,3,0],"center":[1,3,0.5]}\n' >far.ndjson
	printf '{"id":"a","hit":true,"alpha":0.5,"feature":"edge","point":[1,3,0],"center":[1,3,0.5]}\n' >edge.ndjson
	printf '{"id":"a","hit":true,"alpha":0.5,"feature":"face","point":[1,3,0.000000002],"center":[1,3,0.5]}\n' >point.ndjson
	printf '{"id":"a","hit":false,"alpha":1}\n' >miss.ndjson
	for f in near far edge point miss; do
		bcast render --compare e.ndjson --fields all floor.obj $f.ndjson -o $f.svg
		assert_status 0
	done
	grep -F -q ': 0 of 1 differ,' near.svg
	grep -F -q ': 1 of 1 differ,' far.svg
	grep -F -q ': 1 of 1 differ,' edge.svg
	grep -F -q ': 1 of 1 differ,' point.svg
	grep -F -q ': 1 of 1 differ,' miss.svg
	# grade's default fields (hit, alpha, normal): feature and point are not graded
	for f in near far edge point miss; do
		bcast render --compare e.ndjson floor.obj $f.ndjson -o $f.svg
		assert_status 0
	done
	grep -F -q ': 0 of 1 differ,' near.svg
	grep -F -q ': 1 of 1 differ,' far.svg
	grep -F -q ': 0 of 1 differ,' edge.svg
	grep -F -q ': 0 of 1 differ,' point.svg
	grep -F -q ': 1 of 1 differ,' miss.svg
}

@test "render --compare: ids match by value across formats, in order when repeated, and missing ones count" {
	"$BALLCAST" cast room.obj throws.json >expected.json
	# the CSV echoes the id 7.50 as written; the JSON reads it as 7.5
	"$BALLCAST" cast room.obj throws.json --format csv >student.csv
	bcast render --compare expected.json room.obj student.csv -o same.svg
	assert_status 0
	grep -F -q ': 0 of 13 differ, 0 missing' same.svg
	[ "$(count_class same.svg differs)" -eq 0 ]
	# a student who answered only the first, twice: a repeated id fails, as
	# compare fails it (both records are drawn as differing)
	head -n 2 student.csv >short.csv
	sed -n 2p student.csv >>short.csv
	bcast render --compare expected.json room.obj short.csv -o short.svg
	assert_status 0
	grep -F -q ': 2 of 2 differ, 12 missing' short.svg
	echo '0 passed, 1 failed, 12 missing, 0 extra' | assert_stdout_eq
}

@test "render --compare judges as grade: the same fields, tolerances and counts on the same files" {
	# grade casts EXPECTED with its ties, as cast --ties writes them
	"$BALLCAST" cast --ties room.obj throws.json >expected.json
	"$BALLCAST" cast --normal triangle room.obj throws.json >triangle.json
	# a student's own shape (id, hit, t, nx, ny, nz) under the course's
	# conventions, one alpha off
	"$BALLCAST" cast --convention cs121 room.obj throws.json >cs121.json
	"$BALLCAST" cast --convention cs121 --format csv room.obj throws.json |
		awk -F, 'NR == 1 { print "id,hit,t,nx,ny,nz"; next }
			{ a = $3; if ($1 == "crate-top") a = a + 0.01; print $1 "," $2 "," a "," $17 "," $18 "," $19 }' >student.csv
	for run in "expected.json triangle.json" "cs121.json student.csv --convention cs121"; do
		# shellcheck disable=SC2086
		set -- $run
		exp="$1" sub="$2"
		shift 2
		"$BALLCAST" grade "$@" --report csv room.obj throws.json "$sub" >grades.csv && true
		counts=$(sed -n 2p grades.csv | awk -F, '{ print $3 " passed, " $4 " failed, " $5 " missing, " $6 " extra" }')
		bcast render "$@" --compare "$exp" room.obj "$sub" -o why.svg
		assert_status 0
		echo "$counts" | assert_stdout_eq
		failed=$(sed -n 2p grades.csv | cut -d, -f4)
		grep -F -q "compared with $exp: $failed of 13 differ, 0 missing" why.svg
	done
	# the student's file: 1 failure, where --fields all (what the file does
	# not hold: feature, point, ...) fails 9
	grep -F -q 'compared with cs121.json: 1 of 13 differ, 0 missing' why.svg
	bcast render --fields all --compare cs121.json room.obj student.csv -o all.svg
	assert_status 0
	echo '4 passed, 9 failed, 0 missing, 0 extra' | assert_stdout_eq
}

@test "render --compare: the expected file must hold results" {
	"$BALLCAST" cast room.obj throws.json >r.json
	bcast render --compare throws.json room.obj r.json -o out.svg
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: throws.json: holds trajectories, not results'
	[ ! -e out.svg ]
}

# ------------------------------------------------------------- errors

@test "render: a bad trajectory is reported in place, the rest drawn, exit 1" {
	cat >t.json <<'EOF'
[{"id":"ok","p0":[1,3,2],"p1":[1,3,-1],"r":0.5},
 {"id":"bad","p0":[1,1,2],"r":0.5}]
EOF
	bcast render floor.obj t.json -o out.svg
	assert_status 1
	assert_no_stdout
	echo 'ballcast: t.json:2:2: record 2: missing p1' | assert_stderr_eq
	assert_well_formed out.svg
	grep -F -q '2 throws: 1 hit, 0 misses, 1 error' out.svg
	[ "$(count_class out.svg contact)" -eq 1 ]
}

@test "render: a bad result record is reported with its position, exit 1" {
	printf '{"id":"a","hit":true,"alpha":0.5,"point":[1,3,0],"center":[1,3,0.5]}\n   {"id":"b","alpha":0.5}\n' >r.ndjson
	bcast render floor.obj r.ndjson -o out.svg
	assert_status 1
	echo 'ballcast: r.ndjson:2:4: record 2: missing hit' | assert_stderr_eq
	grep -F -q '2 throws: 1 hit, 0 misses, 1 error' out.svg
	printf 'id,hit,alpha,point_x,point_y,point_z,center_x,center_y,center_z\na,true,0.5,1,3,,1,3,0.5\n' >r.csv
	bcast render floor.obj r.csv -o out.svg
	assert_status 1
	echo 'ballcast: r.csv:2:16: record 1: point: point_x, point_y and point_z must be all given or all empty' | assert_stderr_eq
	# an error result (a record cast could not answer) is not a bad record
	printf '{"id":"a","error":"missing p1"}\n' >e.ndjson
	bcast render floor.obj e.ndjson -o out.svg
	assert_status 0
	assert_no_stderr
	grep -F -q '1 throw: 0 hits, 0 misses, 1 error' out.svg
}

@test "render: a record that is not JSON is a bad record at its position; the rest is drawn, exit 1" {
	"$BALLCAST" cast room.obj throws.json >r.json
	# break the document inside its third result
	sed '5s/"alpha":/"alpha" /' r.json >broken.json
	bcast render room.obj broken.json -o out.svg
	assert_status 1
	assert_no_stdout
	echo "ballcast: broken.json:5:38: record 3: invalid JSON: unexpected '0' (expected ':' after a key)" |
		assert_stderr_eq
	assert_well_formed out.svg
	# trajectories: cast's reader reports it the same way
	printf '[{"p0":[0,0,1],"p1":[0,0,-1],"r":0.1},\n {"p0":[0,0,1] "p1":[0,0,-1]}]\n' >t.json
	bcast render tri.obj t.json -o out.svg
	assert_status 1
	echo "ballcast: t.json:2:16: record 2: invalid JSON: unexpected '\"' (expected ',' or '}' after a member)" |
		assert_stderr_eq
}

@test "render: a broken structure stops with its position, exit 2, an existing -o file untouched" {
	"$BALLCAST" cast room.obj throws.json >r.json
	# the document loses its last lines: its results array never ends
	head -n 6 r.json >broken.json
	echo 'keep me' >out.svg
	bcast render room.obj broken.json -o out.svg
	assert_status 2
	assert_no_stdout
	assert_stderr_line_prefix 'ballcast: broken.json:7:1: '
	[ "$(cat out.svg)" = 'keep me' ]
	printf '[{"p0":[0,0,1],"p1":[0,0,-1],"r":0.1},\n {"p0":[0,0,1], "p1":[0,0,-1]' >t.json
	bcast render tri.obj t.json -o out.svg
	assert_status 2
	assert_stderr_line_prefix 'ballcast: t.json:2:'
	[ "$(cat out.svg)" = 'keep me' ]
}

@test "render: trajectories from standard input" {
	bcast render floor.obj - -o in.svg <drop.json
	assert_status 0
	bcast render floor.obj drop.json -o file.svg
	cmp in.svg file.svg
}

# ------------------------------------------ real meshes: up, frame, labels

# bbox PNG TOP BOTTOM : "left top right bottom" of the pixels that are not
# white in rows TOP..BOTTOM (the mesh, between the title band and the key)
bbox() {
	pngtopnm -plain "$1" | awk -v top="$2" -v bottom="$3" '
		{ sub(/#.*/, "") }
		{
			for (i = 1; i <= NF; i++) {
				n++
				if (n == 2) w = $i
				if (n >= 5) {
					k = n - 5; c = k % 3; p = int(k / 3); x = p % w; y = int(p / w)
					v[c] = $i
					if (c == 2 && y >= top && y <= bottom && (v[0] + v[1] + v[2]) < 750) {
						if (!seen || x < l) l = x; if (!seen || x > r) r = x
						if (!seen || y < t) t = y; if (!seen || y > b) b = y
						seen = 1
					}
				}
			}
		}
		END { print l, t, r, b }'
}

# covered PNG : how many pixels are not white
covered() {
	pngtopnm -plain "$1" | awk '{ sub(/#.*/, "") } { for (i = 1; i <= NF; i++) { n++; if (n >= 5) { s += $i; if ((n - 5) % 3 == 2) { c += s < 750; s = 0 } } } } END { print c }'
}

@test "render: a y-up mesh is seen from the side by default, and the picture says which axis is up" {
	# a 4 x 4 floor in y = 0 facing +y, with a small fin on it: its base is
	# flat across y, so y is guessed up and the floor is seen from above at
	# 25 degrees (wide and low); taken as z-up it would stand as a wall
	printf 'v 0 0 0\nv 0 0 4\nv 4 0 4\nv 4 0 0\nv 2 0 2\nv 2 1 2\nv 2.1 0 2\nf 1 2 3 4\nf 5 6 7\n' >yup.obj
	bcast render --size 400x300 yup.obj -o guess.svg
	assert_status 0
	grep -F -q '>up: +y (guessed)</text>' guess.svg
	bcast render --size 400x300 --up y yup.obj -o y.svg
	grep -F -q '>up: +y</text>' y.svg
	# the same picture whether guessed or told, but for the caption
	cmp <(grep -v 'up: ' guess.svg) <(grep -v 'up: ' y.svg)
	bcast render --size 400x300 --up z yup.obj -o z.svg
	grep -F -q '>up: +z</text>' z.svg
	rsvg-convert guess.svg -o guess.png
	rsvg-convert z.svg -o z.png
	read -r l t r b < <(bbox guess.png 30 265)
	[ $((r - l)) -gt $((2 * (b - t))) ] || { echo "y up: the floor is $((r - l)) x $((b - t)) px"; false; }
	read -r l t r b < <(bbox z.png 30 265)
	[ $((b - t)) -gt $((r - l)) ] || { echo "z up: the wall is $((r - l)) x $((b - t)) px"; false; }
	# --up is checked
	bcast render --up w yup.obj
	assert_status 2
	assert_contains "$(cat "$BATS_TEST_TMPDIR/stderr")" "--up needs x, y or z, not 'w'"
}

@test "render: the bunny (y-up) is upright by default: its top lands above its bottom" {
	local bunny="${BALLCAST_MESHES:-$REPO/tests/data/meshes}/stanford-bunny.obj"
	[ -f "$bunny" ] || { echo "$bunny is missing (set BALLCAST_MESHES)"; false; }
	# the bounds' centre x and z, at the lowest and the highest y
	bcast render --probe -0.0168,0.0333,0.0082 --probe -0.0168,0.1870,0.0082 "$bunny" -o b.svg
	assert_status 0
	grep -F -q '>up: +y (guessed)</text>' b.svg
	local bottom top
	bottom="$(probe_pixel -0.0168,0.0333,0.0082 | cut -d' ' -f2)"
	top="$(probe_pixel -0.0168,0.1870,0.0082 | cut -d' ' -f2)"
	# 0.154 high at about 2400 px per unit, times cos 25 degrees: 334 px (with
	# z taken as up, y lies mostly across the view: 139 px)
	[ $((bottom - top)) -gt 300 ] || { echo "bottom $bottom, top $top"; false; }
}

@test "render: the throws are framed with the mesh: every path's ends lie inside the picture, below the title" {
	bcast render room.obj throws.json -o room.svg
	assert_status 0
	[ "$(count_class room.svg path)" -ge 10 ]
	# lines of class path and after: x in [16, 784], y in [38, 600 - 16 - key]
	grep -E '<line class="(path|after)"' room.svg |
		sed 's/.* x1="\([-0-9.]*\)" y1="\([-0-9.]*\)" x2="\([-0-9.]*\)" y2="\([-0-9.]*\)".*/\1 \2 \3 \4/' |
		awk '{ for (k = 1; k <= 4; k += 2) if ($k < 15.99 || $k > 784.01 || $(k+1) < 37.99 || $(k+1) > 564.01) { print "outside: " $0; bad = 1 } }
			END { exit bad }'
	# the room-corner path's far end (12, 10.5, 5.25) lies far outside the
	# room, yet inside the picture
	bcast render --probe 12,10.5,5.25 room.obj throws.json -o room.svg
	read -r x y < <(probe_pixel 12,10.5,5.25)
	[ "$x" -ge 16 ] && [ "$x" -le 784 ] && [ "$y" -ge 38 ] && [ "$y" -le 564 ]
}

@test "render: every throw is labelled by its id near its contact, and no two labels overlap" {
	# 49 balls dropped on a 7 x 7 grid of the floor, 0.25 apart: closer than
	# their labels are wide, so most labels must move off their first place
	{
		echo '['
		for i in 0 1 2 3 4 5 6; do
			for j in 0 1 2 3 4 5 6; do
				sep=','
				[ "$i$j" = 66 ] && sep=''
				x="$(awk -v i="$i" 'BEGIN { print 1 + i * 0.25 }')"
				y="$(awk -v j="$j" 'BEGIN { print 1 + j * 0.25 }')"
				printf '{"id":"t%d%d","p0":[%s,%s,1],"p1":[%s,%s,-1],"r":0.1}%s\n' "$i" "$j" "$x" "$y" "$x" "$y" "$sep"
			done
		done
		echo ']'
	} >grid.json
	bcast render --view 0,90 --size 400x400 floor.obj grid.json -o grid.svg
	assert_status 0
	assert_well_formed grid.svg
	grep '<text class="label"' grid.svg |
		sed 's/.* x="\([-0-9.]*\)" y="\([-0-9.]*\)" font-size="\([0-9.]*\)"[^>]*>\([^<]*\)<.*/\1 \2 \3 \4/' >labels
	# most get their label (not all fit), each an id of the file, once
	[ "$(wc -l <labels)" -ge 30 ]
	[ "$(cut -d' ' -f4 labels | sort | uniq -d | wc -l)" -eq 0 ]
	cut -d' ' -f4 labels | while read -r id; do grep -q "\"id\":\"$id\"" grid.json; done
	# boxes: 0.65 em per character, 0.8 em above the baseline, 0.2 em below;
	# inside the picture below the title band, and pairwise apart
	awk '{ n++; l[n] = $1; r[n] = $1 + 0.65 * $3 * length($4); t[n] = $2 - 0.8 * $3; b[n] = $2 + 0.2 * $3 }
		END {
			for (i = 1; i <= n; i++) {
				if (l[i] < 0 || r[i] > 400 || t[i] < 22 || b[i] > 400) { print "outside: " i; bad = 1 }
				for (j = i + 1; j <= n; j++)
					if (l[i] < r[j] && l[j] < r[i] && t[i] < b[j] && t[j] < b[i]) { print "overlap: " i, j; bad = 1 }
			}
			exit bad
		}' labels
	# every ball is drawn, labelled or not
	[ "$(count_class grid.svg contact)" -eq 49 ]
}

@test "render: the key says what the marks mean, only those drawn" {
	bcast render room.obj throws.json -o room.svg
	assert_status 0
	grep -q '^<g class="key"><title>key: what the marks mean</title>$' room.svg
	for text in 'up: +z (guessed)' path 'ball at contact' contact normal miss; do
		grep -F -q "<text class=\"key\"" room.svg
		grep -F -q ">$text</text>" room.svg || { echo "no '$text' in the key"; false; }
	done
	! grep -F -q '>differs</text>' room.svg
	# the mesh alone: the caption only
	bcast render --up z room.obj -o alone.svg
	[ "$(grep -c '<text class="key"' alone.svg)" -eq 1 ]
	grep -F -q '>up: +z</text>' alone.svg
}

@test "render: the bunny's picture is well under 1 MB and covers the pixels the full drawing covers" {
	local bunny="${BALLCAST_MESHES:-$REPO/tests/data/meshes}/stanford-bunny.obj"
	[ -f "$bunny" ] || { echo "$bunny is missing (set BALLCAST_MESHES)"; false; }
	bcast render "$bunny" -o small.svg
	assert_status 0
	assert_well_formed small.svg
	[ "$(stat -c %s small.svg)" -lt 700000 ]
	bcast render --cull 0 "$bunny" -o full.svg
	assert_status 0
	[ "$(stat -c %s full.svg)" -gt 5000000 ]
	rsvg-convert small.svg -o small.png
	rsvg-convert full.svg -o full.png
	# the same silhouette: the pixels covered differ by under 2 percent
	local a b
	a="$(covered small.png)"
	b="$(covered full.png)"
	echo "covered: culled $a, full $b"
	[ "$b" -gt 50000 ]
	[ $(( (a > b ? a - b : b - a) * 50 )) -lt "$b" ]
	# where the full drawing has the mesh, so has the culled one (a
	# crosshair of sample points inside the bunny's box)
	read -r l t r b2 < <(bbox full.png 30 560)
	read -r l2 t2 r2 b3 < <(bbox small.png 30 560)
	[ $(( l - l2 )) -le 4 ] && [ $(( l2 - l )) -le 4 ] && [ $(( r - r2 )) -le 4 ] && [ $(( r2 - r )) -le 4 ]
	[ $(( t - t2 )) -le 4 ] && [ $(( t2 - t )) -le 4 ] && [ $(( b2 - b3 )) -le 4 ] && [ $(( b3 - b2 )) -le 4 ]
}
