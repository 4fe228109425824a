# report.awk - turn tests/bench/run.sh's results.txt into BENCHMARKS.md.
#   awk -f tests/bench/report.awk WORKDIR/results.txt > BENCHMARKS.md
# Input lines: "meta KEY VALUE...", and "mesh|cast|bullet|embree|jolt|other|cliread|
# e2e|ndjson ..." lines of key=value fields; "numfmt ..." is numfmt_bench's line.
# The hand-written analysis comes from tests/bench/notes.md (included as is).
# The main table, the other queries' table and the targets sit between
# "<!-- table -->" markers, which run.sh prints on the terminal.

# Numbers are stored as numbers (substr gives strings, which compare as text).
function kv(prefix,    i, eq, value) {
	for (i = 2; i <= NF; ++i) {
		eq = index($i, "=")
		if (eq > 0) {
			value = substr($i, eq + 1)
			F[prefix, substr($i, 1, eq - 1)] = value ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ ? value + 0 : value
		}
	}
}

function field(key,    i, eq) {
	for (i = 2; i <= NF; ++i) {
		eq = index($i, "=")
		if (eq > 0 && substr($i, 1, eq - 1) == key) {
			return substr($i, eq + 1)
		}
	}
	return ""
}

# 1234567 -> "1.23 M", 12345 -> "12.3 k", 123 -> "123".
function rate(x) {
	if (x == "") return "n/a"
	x += 0
	if (x >= 1e6) return sprintf("%.3g M", x / 1e6)
	if (x >= 1e3) return sprintf("%.3g k", x / 1e3)
	return sprintf("%.3g", x)
}

function times(x) {
	if (x == "" || x == 0) return "n/a"
	return x >= 100 ? sprintf("%.0fx", x) : x >= 10 ? sprintf("%.1fx", x) : sprintf("%.2fx", x)
}

function thousands(n,    s, out) {
	s = sprintf("%d", n)
	out = ""
	while (length(s) > 3) {
		out = "," substr(s, length(s) - 2) out
		s = substr(s, 1, length(s) - 3)
	}
	return s out
}

function pct(x) {
	return x == "" ? "n/a" : sprintf("%.1f %%", 100 * x)
}

# CPU seconds count trajectories of a set take to cast on mesh name at the
# harness's 1-thread CPU rates: short ones, or mixed (half short, half long).
function castEstimate(name, count, set,    a, b) {
	a = F["cast" SUBSEP name SUBSEP "short", "cpuqps1"]
	b = F["cast" SUBSEP name SUBSEP "long", "cpuqps1"]
	if (set == "short") return a > 0 ? sprintf("%.2f", count / a) : "n/a"
	return a > 0 && b > 0 ? sprintf("%.2f", count / 2 / a + count / 2 / b) : "n/a"
}

function verdict(ok) {
	return ok ? "**met**" : "**missed**"
}

# How far a value is from its goal, when missed.
function shortBy(value, goal, higherIsBetter) {
	if (higherIsBetter) return value >= goal ? "" : sprintf(" (%.0f %% short of %s)", 100 * (1 - value / goal), goal)
	if (value <= goal) return ""
	return value >= 2 * goal ? sprintf(" (%.1fx the %s s target)", value / goal, goal) : sprintf(" (%.0f %% over %s)", 100 * (value / goal - 1), goal)
}

$1 == "meta" {
	key = $2
	value = $0
	sub(/^meta [^ ]+ ?/, "", value)
	if (key == "class") {
		split(value, classParts, " ")
		CLASS[classParts[1]] = classParts[2]
	} else {
		META[key] = value
	}
	next
}
$1 == "mesh" {
	name = field("name")
	NAMES[++nameCount] = name
	kv("mesh" SUBSEP name)
	next
}
$1 == "cast" || $1 == "bullet" || $1 == "embree" || $1 == "jolt" {
	kv($1 SUBSEP field("name") SUBSEP field("set"))
	next
}
$1 == "other" {
	k = field("query") SUBSEP field("name") SUBSEP field("set")
	if (!(k in OTHER_SEEN)) {
		OTHER_SEEN[k] = 1
		OTHER[++otherCount] = k
	}
	kv("other" SUBSEP k)
	next
}
$1 == "discrete" {
	DISCRETE[++discreteCount] = discreteCount
	kv("discrete" SUBSEP discreteCount)
	next
}
$1 == "cliread" {
	kv("cliread")
	next
}
$1 == "e2e" {
	E2E[++e2eCount] = field("name")
	E2ESET[e2eCount] = field("set") == "" ? "mixed" : field("set")
	kv("e2e" SUBSEP e2eCount)
	next
}
$1 == "ndjson" {
	NDJSON[++ndjsonCount] = field("count")
	kv("ndjson" SUBSEP field("count"))
	next
}
$1 == "grade" {
	GRADE = $0
	sub(/^grade /, "", GRADE)
	next
}
$1 == "numfmt" {
	NUMFMT = $0
	sub(/^numfmt /, "", NUMFMT)
	line = $0
	if (match(line, /[0-9]+ round-trip failures/)) NUMFMT_FAIL = substr(line, RSTART, RLENGTH) + 0
	if (match(line, /speed-up [0-9.]+x/)) NUMFMT_X = substr(line, RSTART + 9, RLENGTH - 10) + 0
	if (match(line, /cliFormatDouble [0-9.]+ ns/)) NUMFMT_NS = substr(line, RSTART + 16, RLENGTH - 19) + 0
	if (match(line, /%.17g [0-9.]+ ns/)) NUMFMT_PRINTF = substr(line, RSTART + 6, RLENGTH - 9) + 0
	next
}
{ RAW_UNKNOWN = RAW_UNKNOWN $0 "\n" }

END {
	quick = META["mode"] == "quick"
	print "# Benchmarks"
	print ""
	print "Written by `" META["command"] "` (tests/bench/bench.mk, tests/bench/run.sh) on " META["date"] \
		"; the analysis at the end comes from tests/bench/notes.md. Do not edit by hand: rerun the benchmark."
	if (quick) {
		print ""
		print "**This is the quick variant** (`BENCH_QUICK=1`: meshes up to ~80k triangles, " thousands(META["count"]) \
			" trajectories per set): a smoke test of the benchmark, not the measurement. Targets are checked on the" \
			" largest meshes of the run, which stand in for the million-triangle ones."
	}
	print ""
	print "## Machine and command"
	print ""
	print "- Command: `" META["command"] "` from the top of the tree; total wall time " \
		sprintf("%d min %d s", META["wall"] / 60, META["wall"] % 60) "."
	print "- Machine: " META["nproc"] " cores (`nproc`), " META["cpu"] ", " META["memory"] " of memory, " META["kernel"] "."
	print "- Compiler: " META["compiler"] ", the Makefile's flags (`-O2 -g -ffp-contract=off`); ballcast " META["commit"] "."
	print "- Peers: Bullet " META["bullet"] " (libbullet-dev, single precision), Embree " META["embree"] " (libembree-dev)," \
		" native Jolt " (META["jolt"] != "" ? META["jolt"] ", built from `JOLT_SRC` by ../shared/peers/jolt/build.sh" : "n/a (no `JOLT_SRC`)") "."
	busy = 0
	split(META["loadstart"] " " META["loadqueries"] " " META["loadother"] " " META["loadend"], loads, " ")
	for (k in loads) if (loads[k] + 0 > META["nproc"] + 0.5) busy = 1
	print "- Load average (1, 5, 15 min) at the start " META["loadstart"] ", after the query runs " META["loadqueries"] \
		(META["loadother"] != "" ? ", after the other queries " META["loadother"] : "") \
		", at the end " META["loadend"] "." \
		(busy ? " Other work shared the cores during the run (a load above " META["nproc"] " means every core was busy)," \
			" so wall times are noisy" : " The load is about the benchmark's own threads: the machine was otherwise idle," \
			" though a virtual machine's speed also drifts with its host") \
		"; single-thread rates are also measured in CPU time of the querying thread," \
		" which competition does not dilute, and the ratios against the peers use those."
	print ""
	print "## Queries"
	print ""
	print thousands(META["count"]) " trajectories per set, each rate the median of 3 runs; " \
		"short, long and ray (r = 0) sets are described below the table."
	print ""
	print "<!-- table -->"
	print "| mesh | triangles | read+build s | build s 1T / 2T | peak MiB | set | hits (at start) | tests per query | q/s 1T | q/s 2T | 2T/1T | 2T/1T from CPU | brute force | two-sided q/s 1T | peer | peer q/s | ballcast/peer | agree |"
	print "|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|---|--:|---|--:|--:|--:|"
	sets[1] = "short"; sets[2] = "long"; sets[3] = "ray"
	mismatches = 0
	for (i = 1; i <= nameCount; ++i) {
		n = NAMES[i]
		for (s = 1; s <= 3; ++s) {
			set = sets[s]
			c = "cast" SUBSEP n SUBSEP set
			if (!((c, "qps1") in F)) continue
			first = s == 1
			peer = set == "ray" ? "embree" : "bullet"
			p = peer SUBSEP n SUBSEP set
			havePeer = (p, "qps") in F
			scaling = F[c, "qpsN"] / F[c, "qps1"]
			brute = F[c, "brutediffer"] == 0 ? sprintf("%d/%d equal, %s faster", F[c, "brute"], F[c, "brute"], times(F[c, "brutex"])) \
				: sprintf("**%d of %d DIFFER**", F[c, "brutediffer"], F[c, "brute"])
			mismatches += F[c, "brutediffer"] + F[c, "threadsdiffer"]
			ratio = havePeer ? F[c, "cpuqps2s"] / F[p, "cpuqps"] : ""
			RATIO[n, set] = ratio
			WRATIO[n, set] = havePeer ? F[c, "qps2s"] / F[p, "qps"] : ""
			SCALING[n, set] = scaling
			CPUSCALING[n, set] = F[c, "cpuscaling"]
			m = "mesh" SUBSEP n
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %.2f | %s | %s | %s | %s | %s | %s |\n", \
				first ? n : "", first ? thousands(F[m, "tris"]) : "", \
				first ? sprintf("%.3f (%.3f)", F[m, "load"], F[m, "loadcpu"]) : "", \
				first ? sprintf("%.3f (%.3f) / %.3f", F[m, "build1"], F[m, "build1cpu"], F[m, "buildN"]) : "", \
				first ? sprintf("%.0f", F[m, "peakmb"]) : "", \
				set, pct(F[c, "hits"]) (F[c, "overlaps"] > 0 ? " (" pct(F[c, "overlaps"]) ")" : ""), \
				(c, "visits") in F ? sprintf("%.1f", F[c, "visits"]) : "n/a", \
				rate(F[c, "qps1"]) " (" rate(F[c, "cpuqps1"]) ")", rate(F[c, "qpsN"]), sprintf("%.2f", scaling), \
				F[c, "threadsdiffer"] == 0 ? "" : " **DIFFER**", F[c, "cpuscaling"], brute, \
				rate(F[c, "qps2s"]) " (" rate(F[c, "cpuqps2s"]) ")", \
				havePeer ? (peer == "embree" ? "Embree" : "Bullet") : "n/a", \
				havePeer ? rate(F[p, "qps"]) " (" rate(F[p, "cpuqps"]) ")" \
					(F[p, "count"] < F[c, "count"] ? " [" thousands(F[p, "count"]) "]" : "") : "n/a", \
				havePeer ? times(ratio) : "n/a", havePeer ? pct(F[p, "agree"]) : "n/a"
		}
	}
	print "<!-- table -->"
	print ""
	print "Columns (rates are queries per second of wall time, and in brackets per CPU second of the querying thread;" \
		" times are wall seconds, and in brackets CPU seconds of all the process's threads): *read+build* is" \
		" `bcMesh_LoadObj` (read the OBJ and build the hierarchy, all threads), the median of 3 loads; *build* is" \
		" `bcBvh_CreateWithThreads` alone at 1 and 2 threads; *peak MiB* is the harness's peak resident" \
		" memory right after loading. *hits* counts hits and initial overlaps (one-sided; in brackets the balls that start overlapping the mesh);" \
		" *tests per query* is the mean number of triangles a query tests exactly (counted through the hierarchy). *q/s* is `bcMesh_CastBatch`" \
		" with the default options at 1 thread and at all threads (2), wall clock; *2T/1T from CPU* estimates the" \
		" 2-thread gain on an idle machine: the 1-thread CPU time over the larger CPU time of the two halves" \
		" `bcMesh_CastBatch` gives its threads (a static split), each cast alone. *brute force*: the first 200 trajectories" \
		" cast again testing every triangle; every field of every answer must be bit-for-bit equal (and the 2-thread" \
		" answers equal the 1-thread ones), and the speed-up is the hierarchy's over brute force on that subset." \
		" *two-sided q/s 1T* is ballcast with `twoSided` (the peers have no front side), the run its answers are compared" \
		" with. *peer q/s* is Bullet's `convexSweepTest` (short and long sets; in square brackets how many of the" \
		" trajectories it ran, enough for about " (quick ? "0.3" : "2") " s per run) or Embree's `rtcIntersect1` (ray set)." \
		" *ballcast/peer* divides the two-sided 1-thread rates measured in CPU time of the querying thread." \
		" *agree*: both miss, or both hit with alphas within 1e-3."
	print ""
	print "Workloads (tests/bench/genwork.c, fixed seeds): with S the largest extent of the mesh's bounding box, *short*:" \
		" p0 above a uniform point of a random triangle at r plus up to 0.01 S along its normal, p1 = p0 + 0.01 S in a" \
		" uniform random direction; *long*: the line through two uniform points of the bounding box grown by 0.05 S on" \
		" every side, clipped to that grown box, so every segment crosses the whole mesh; *ray*: the long segments with" \
		" r = 0. Radii are uniform in [0.002 S, 0.01 S]. Generated meshes: `room-N` a closed box [0,10]^3 facing inward" \
		" (12 cells^2 triangles), `icosphere-N` radius 1, `terrain-N` a height field over [0,100]^2, `soup-N` random" \
		" triangles of edge ~100/cbrt(N) in [0,100]^3; the others are the real meshes of ../shared/meshes (as is)."

	# ------------------------------------------------------------ other queries
	if (otherCount > 0) {
		print ""
		print "## Other queries"
		print ""
		print "The other questions ballcast answers, each against its brute-force path measured in the same run" \
			" (tests/bench/seeds_bench.c; workloads made there with fixed seeds), rates the median of 3 runs."
		print ""
		print "<!-- table -->"
		print "| query | mesh / size | set | q/s 1T | q/s all threads | brute force q/s | speed-up | agree |"
		print "|---|---|---|--:|--:|--:|--:|---|"
		unit["closest"] = "points/s"; unit["balls"] = "balls/s"; unit["simulate"] = "events/s"; unit["intersect"] = "triangles/s"
		setName["near-r0"] = "near, r = 0"; setName["near-r"] = "near, r > 0"
		setName["far-r0"] = "far, r = 0"; setName["far-r"] = "far, r > 0"
		previous = ""
		for (i = 1; i <= otherCount; ++i) {
			o = "other" SUBSEP OTHER[i]
			q = F[o, "query"]
			n = F[o, "name"]
			if (q == "closest") {
				what = n " (" thousands(F[o, "size"]) " triangles)"
				set = setName[F[o, "set"]]
			} else if (q == "balls") {
				what = thousands(F[o, "size"]) " balls"
				set = sprintf("%s meet another (%s at the start)", pct(F[o, "hits"]), pct(F[o, "overlaps"]))
			} else if (q == "simulate") {
				what = sprintf("%s (%s triangles), %d balls", n, thousands(F[o, "size"]), F[o, "balls"])
				set = sprintf("%s events in %g s", thousands(F[o, "count"]), F[o, "simtime"])
			} else {
				what = sprintf("%s + %s (%s + %s triangles)", n, F[o, "set"] == "moved-copy" ? "a moved copy" : "an offset copy", \
					thousands(F[o, "size"]), thousands(F[o, "sizeb"]))
				set = sprintf("%s pairs meet", thousands(F[o, "pairs"]))
			}
			haveBrute = F[o, "brute"] > 0
			agree = !haveBrute ? "n/a" : F[o, "brutediffer"] == 0 ? sprintf("%s/%s equal", thousands(F[o, "brute"]), thousands(F[o, "brute"])) \
				: sprintf("**%d of %d DIFFER**", F[o, "brutediffer"], F[o, "brute"])
			if (F[o, "threadsdiffer"] != 0) agree = agree ", **threads DIFFER**"
			mismatches += F[o, "brutediffer"] + F[o, "threadsdiffer"]
			printf "| %s | %s | %s | %s (%s) | %s | %s | %s | %s |\n", \
				(q != previous ? q " (" unit[q] ")" : ""), (what != previousWhat ? what : ""), set, \
				rate(F[o, "qps1"]), rate(F[o, "cpuqps1"]), \
				(F[o, "threads"] > 1 ? rate(F[o, "qpsN"]) : "n/a (one thread)"), \
				(haveBrute ? rate(F[o, "brutecpuqps"]) : "n/a"), (haveBrute ? times(F[o, "brutex"]) : "n/a"), agree
			previous = q
			previousWhat = what
		}
		print "<!-- table -->"
		print ""
		print "Rates are per second of wall time and, in brackets, per CPU second of the querying thread; *all threads* is" \
			" wall time with one thread per core (closest and intersect; balls and simulate run on one thread)." \
			" *brute force q/s* is the brute-force path's rate in CPU time of its thread, and *speed-up* the fast path's" \
			" over it on the very queries brute force answered (CPU time); *agree* counts answers equal in every field," \
			" bit for bit, and says if the all-threads answers differ from the 1-thread ones."
		print ""
		closestCount = closestBrute = 0
		for (i = 1; i <= otherCount; ++i) {
			o = "other" SUBSEP OTHER[i]
			if (F[o, "query"] == "closest" && closestCount == 0) {
				closestCount = F[o, "count"]
				closestBrute = F[o, "brute"]
			}
		}
		print "- **closest**: `bcMesh_ClosestBatch` on " thousands(closestCount) " points per set; *near* points lie on a" \
			" random triangle moved up to 1 % of the mesh size S along its normal either way, *far* points are uniform in" \
			" the bounding box grown by S/4 on every side; r > 0 radii are uniform in [0.002 S, 0.01 S] (the radius" \
			" decides overlap and depth only). Brute force (`bruteForce`: every triangle, the library's" \
			" closest-point-on-triangle) answers the first " closestBrute " points of each set."
		print "- **balls**: `bcCollideBallSet` (grid broad phase) on balls uniform in a cube at one ball per unit of volume," \
			" radii 0.05-0.15, paths up to 1 unit. Up to 10,000 balls the all-pairs path (`bruteForce`) answers the" \
			" whole set; above, 200 balls are answered by `bcCollideBalls` against every other ball following the" \
			" set's contract (earliest contact, overlaps first, lowest partner in the tie window), and its rate is" \
			" extrapolated to the whole set."
		parts = ""
		for (i = 1; i <= otherCount; ++i) {
			o = "other" SUBSEP OTHER[i]
			if (F[o, "query"] != "simulate") continue
			n = F[o, "name"]
			usEvent = F[o, "cpuqps1"] > 0 ? 1e6 / F[o, "cpuqps1"] : 0
			castRate = F["cast" SUBSEP n SUBSEP "short", "cpuqps1"]
			parts = parts sprintf("%s %.0f µs per event, %.1f chord casts per event%s; ", n, usEvent, F[o, "castsperevent"], \
				castRate > 0 ? sprintf(" (the cost of %.0f short casts of the table above)", usEvent * castRate / 1e6) : "")
		}
		print "- **simulate**: `bcSimulation_Step` to the end of a scene: balls on a lattice in the middle half of the" \
			" mesh's box, radius a quarter of the spacing, speed S/2 per second in random directions, gravity S per" \
			" second^2, restitution 0.9, 4 s (the icospheres two-sided: the balls are inside). q/s are events per" \
			" second (horizon events included), creation included. The brute-force simulation (`bruteForce`: every" \
			" cast tests every triangle) replays the first 200 events (or 5 CPU seconds' worth) on the small meshes" \
			" only; on the large ones its first predictions alone would take minutes. Per event: " \
			(parts != "" ? substr(parts, 1, length(parts) - 2) : "n/a") "."
		print "- **intersect**: `bcMesh_Intersect` of two icospheres of radius 1 (the second centred at (0.5, 0.3, 0.2))," \
			" or of a mesh and its copy moved by (0.013, 0.021, 0.007) S; q/s are triangles of the first mesh per" \
			" second. Brute force (`bruteForce`: every pair) runs on all pairs up to 3e7 of them; beyond, on a mesh of" \
			" some triangles of the first (half spread over it, half over the triangles that meet the other) against" \
			" the whole second, whose list must be exactly the full list's pairs of those triangles."
	}

	# ------------------------------------------------ time stepping (seed 002)
	if (discreteCount > 0) {
		print ""
		print "## Time stepping and bisection (seed 002) against exact prediction"
		print ""
		print "The same throws cast both ways (tests/bench/seeds_bench.c, `discrete`): `bcMesh_Cast` and" \
			" `bcMesh_CastDiscrete` (the ball tested where it stands every dt of the path, the first step in contact" \
			" halved N times), one thread each, rates per CPU second of the thread, the median of 3 runs."
		print ""
		print "<!-- table -->"
		print "| mesh | throws | dt, N | exact throws/s | discrete throws/s | exact/discrete | tests per throw | tunnelled | alpha error mean / max (bound dt/2^N) | early / past the bound |"
		print "|---|--:|---|--:|--:|--:|--:|--:|---|---|"
		previousWhat = ""
		for (i = 1; i <= discreteCount; ++i) {
			d = "discrete" SUBSEP i
			what = sprintf("%s (%s triangles)", F[d, "name"], thousands(F[d, "size"]))
			printf "| %s | %s | %s, %d | %s | %s | %s | %.1f | %s (%s) | %.3g / %.3g (%.3g) | %d / %d |\n", \
				(what != previousWhat ? what : ""), thousands(F[d, "count"]), F[d, "dt"], F[d, "bisect"], \
				rate(F[d, "exactqps"]), rate(F[d, "discreteqps"]), \
				times(F[d, "discreteqps"] > 0 ? F[d, "exactqps"] / F[d, "discreteqps"] : 0), F[d, "tests"], \
				thousands(F[d, "tunnelled"]), pct(F[d, "exacthits"] > 0 ? F[d, "tunnelled"] / F[d, "exacthits"] : 0), \
				F[d, "meanerror"], F[d, "maxerror"], F[d, "bound"], F[d, "early"], F[d, "beyond"]
			previousWhat = what
		}
		print "<!-- table -->"
		print ""
		print "Each throw ends 5 % of the mesh size S behind a random point of a random triangle and starts 0.1-0.5 S in" \
			" front of it, in a random direction of the front half-space, r uniform in [0.002 S, 0.01 S], so that each" \
			" one hits under the exact cast (one-sided, the defaults). *tunnelled*: throws the exact cast hits and the discrete method misses (the ball" \
			" crosses the region within r of the mesh between two tests), in brackets their share of the hits. *alpha" \
			" error*: discrete - exact on the throws both hit; the discrete alpha is the end of the last halving, never" \
			" before the exact one (*early* counts those more than 1e-10 before it, and must be 0) and at most dt/2^N" \
			" after it where the ball stays in contact for a whole step (*past the bound*: it touched and left between" \
			" two tests, then hit later)."
	}

	# ------------------------------------------------------------ the command
	print ""
	print "## The command, end to end"
	print ""
	print "| run | input | wall s | user + sys s | of which casting (est.) | peak MiB |"
	print "|---|---|--:|--:|--:|--:|"
	cr = "cliread"
	printf "| `ballcast cast -j 2 %s.obj []` (read + build, median of 3) | %.0f MB OBJ | %.3f | %.3f | | %.0f |\n", \
		F[cr, "name"], F[cr, "objmb"] * 1.048576, F[cr, "wall"], F[cr, "cpu"], F[cr, "peakmb"]
	for (i = 1; i <= e2eCount; ++i) {
		e = "e2e" SUBSEP i
		printf "| `ballcast cast %s.obj %s.json -o out.json` | %s %s trajectories, JSON in and out | %.2f | %.2f | %s | %.0f |\n", \
			E2E[i], E2ESET[i], thousands(F[e, "count"]), E2ESET[i], F[e, "wall"], F[e, "user"] + F[e, "sys"], \
			castEstimate(E2E[i], F[e, "count"], E2ESET[i]), F[e, "peakmb"]
	}
	for (i = 1; i <= ndjsonCount; ++i) {
		d = "ndjson" SUBSEP NDJSON[i]
		printf "| `ballcast cast --format ndjson %s.obj mixed.ndjson \\| wc -lc` | %s trajectories, NDJSON in (%.2f GB) and out (%.2f GB) | %.2f | %.2f | %s | %.0f |\n", \
			F[d, "name"], thousands(F[d, "count"]), F[d, "inbytes"] / 1e9, F[d, "outbytes"] / 1e9, F[d, "wall"], \
			F[d, "user"] + F[d, "sys"], castEstimate(F[d, "name"], F[d, "count"], "mixed"), F[d, "peakmb"]
	}
	print ""
	print "`short` trajectories are drawn like the short set above, `mixed` ones alternate short and long ones (other seeds). Wall time, CPU time and peak resident" \
		" memory come from tests/bench/runstat.c (`getrusage(RUSAGE_CHILDREN)`, the figures `/usr/bin/time -v` prints)." \
		" *of which casting* estimates the CPU seconds the casts themselves take, from the harness's 1-thread rates on the" \
		" short and long sets of the same mesh; the rest is reading, parsing, formatting and writing."
	print ""
	print "Number printer (`numfmt_bench`, cliFormatDouble against `snprintf(\"%.17g\")` on the same values): " NUMFMT
	if (GRADE != "") {
		print ""
		print "Grading (`tests/bench/grade_bench.sh`: `ballcast grade ... --report csv` on 100 submissions of 10,000 records, a fifth of them failing; the limit is 10 s): " GRADE
	}

	# ------------------------------------------------------------ peers vs the issue
	ref["icosphere-1.3M", "short"] = 9400;  ref["icosphere-1.3M", "long"] = 1700;  ref["icosphere-1.3M", "ray"] = 1480000
	ref["terrain-1M", "short"] = 4800;      ref["terrain-1M", "long"] = 770;       ref["terrain-1M", "ray"] = 1540000
	ref["room-1M", "short"] = 13700;        ref["room-1M", "long"] = 2750;         ref["room-1M", "ray"] = 1210000
	ref["soup-1M", "short"] = 19000;        ref["soup-1M", "long"] = 620;          ref["soup-1M", "ray"] = 810000
	ref["stanford-bunny", "short"] = 40000; ref["stanford-bunny", "long"] = 8200;  ref["stanford-bunny", "ray"] = 4480000
	refRows = ""
	split("icosphere-1.3M terrain-1M room-1M soup-1M stanford-bunny", refNames, " ")
	for (i = 1; i <= 5; ++i) {
		n = refNames[i]
		if (!(("mesh" SUBSEP n, "tris") in F)) continue
		row = "| " n
		for (s = 1; s <= 3; ++s) {
			peer = sets[s] == "ray" ? "embree" : "bullet"
			p = peer SUBSEP n SUBSEP sets[s]
			row = row " | " rate(ref[n, sets[s]]) " | " ((p, "qps") in F ? rate(F[p, "cpuqps"]) : "n/a")
		}
		refRows = refRows row " |\n"
	}
	if (refRows != "") {
		print ""
		print "The peers here (per CPU second of the querying thread) against the issue's figures for them (same" \
			" kind of 2-core machine; our meshes and trajectories follow the issue's description, they are not the issue's files):"
		print ""
		print "| mesh | Bullet short, issue | here | Bullet long, issue | here | Embree rays/s, issue | here |"
		print "|---|--:|--:|--:|--:|--:|--:|"
		printf "%s", refRows
	}


	# ------------------------------------------------------------ native Jolt
	joltRows = ""
	for (i = 1; i <= nameCount; ++i) {
		n = NAMES[i]
		for (s = 1; s <= 2; ++s) {
			j = "jolt" SUBSEP n SUBSEP sets[s]
			c = "cast" SUBSEP n SUBSEP sets[s]
			if (!((j, "qps") in F) || !((c, "qps1") in F)) continue
			JRATIO[n, sets[s]] = F[c, "qps1"] / F[j, "qps"]
			joltRows = joltRows sprintf("| %s | %s | %s (%s) | %s | %s | %s / %s |\n", n, sets[s], rate(F[c, "qps1"]), \
				rate(F[c, "cpuqps1"]), rate(F[j, "qps"]), times(JRATIO[n, sets[s]]), pct(F[c, "hits"]), \
				F[j, "count"] > 0 ? pct(F[j, "hits"] / F[j, "count"]) : "n/a")
		}
	}
	if (joltRows != "") {
		print ""
		print "## Against native Jolt"
		print ""
		print "<!-- table -->"
		print "| mesh | set | ballcast q/s 1T (CPU) | native Jolt q/s | ballcast/Jolt | hits ballcast / Jolt |"
		print "|---|---|--:|--:|--:|--:|"
		printf "%s", joltRows
		print "<!-- table -->"
		print ""
		print "Native Jolt's `CastShape` of a scaled `SphereShape` against a `MeshShape` (../shared/peers/jolt/jolt_sweep.cpp," \
			" back faces ignored, as ballcast's default one-sided cast), on the same OBJ and the same trajectories (written" \
			" as JSON), one thread, the query loop alone, the median of 3 runs in wall time; ballcast's rate is the" \
			" table's *q/s 1T* (`bcMesh_CastBatch`, which casts in space order, on 1 thread), and the ratio divides the wall" \
			" rates. Jolt is single precision with absolute tolerances (its hit counts differ a little) and drops the" \
			" triangles its `Sanitize()` calls degenerate."
	}

	# ------------------------------------------------------------ targets
	print ""
	print "## Targets"
	print ""
	print "<!-- table -->"
	bigs = ""
	for (i = 1; i <= nameCount; ++i) if (CLASS[NAMES[i]] == "big") bigs = bigs " " NAMES[i]
	split(substr(bigs, 2), BIG, " ")
	bigCount = 0
	for (k in BIG) ++bigCount
	scope = quick ? "the largest meshes of this quick run" : "the million-triangle meshes"

	goal["long"] = 100; goal["short"] = 30
	for (s = 2; s >= 1; --s) {
		set = sets[s]
		ok = 1; parts = ""; have = 0
		for (i = 1; i <= bigCount; ++i) {
			n = BIG[i]
			if (RATIO[n, set] == "") continue
			++have
			ok = ok && RATIO[n, set] >= goal[set]
			parts = parts sprintf("%s %s (wall %s)%s; ", n, times(RATIO[n, set]), times(WRATIO[n, set]), shortBy(RATIO[n, set], goal[set], 1))
		}
		printf "- Sphere sweeps, %s, at least %dx Bullet on %s: %s — %s\n", set, goal[set], scope, \
			have ? verdict(ok) : "not measured (no Bullet)", have ? substr(parts, 1, length(parts) - 2) "." : ""
	}
	split("icosphere-1.3M stanford-bunny", joltTargets, " ")
	if (quick) split("icosphere-82k stanford-bunny", joltTargets, " ")
	ok = 1; parts = ""; have = 0
	for (i = 1; i <= 2; ++i) {
		for (s = 1; s <= 2; ++s) {
			if (JRATIO[joltTargets[i], sets[s]] == "") continue
			++have
			ok = ok && JRATIO[joltTargets[i], sets[s]] >= 2
			parts = parts sprintf("%s %s %s%s; ", joltTargets[i], sets[s], times(JRATIO[joltTargets[i], sets[s]]), \
				shortBy(JRATIO[joltTargets[i], sets[s]], 2, 1))
		}
	}
	printf "- Sphere sweeps, short and long, at least 2x native Jolt's queries per second on %s: %s — %s\n", \
		quick ? "the 82k icosphere and the bunny (quick run)" : "the 1.3 M icosphere and the bunny", \
		have ? verdict(ok) : "not measured (no `JOLT_SRC`)", have ? substr(parts, 1, length(parts) - 2) "." : ""

	ok = 1; parts = ""; have = 0
	for (i = 1; i <= bigCount; ++i) {
		n = BIG[i]
		if (RATIO[n, "ray"] == "") continue
		++have
		ok = ok && RATIO[n, "ray"] >= 0.5
		parts = parts sprintf("%s %s (wall %s)%s; ", n, times(RATIO[n, "ray"]), times(WRATIO[n, "ray"]), shortBy(RATIO[n, "ray"], 0.5, 1))
	}
	printf "- r = 0, at least half of Embree's rtcIntersect1 on %s: %s — %s\n", scope, \
		have ? verdict(ok) : "not measured (no Embree)", have ? substr(parts, 1, length(parts) - 2) "." : ""

	ok = 1; parts = ""; worst = 1e9; okCpu = 1; worstCpu = 1e9
	for (i = 1; i <= bigCount; ++i) {
		n = BIG[i]
		for (s = 1; s <= 3; ++s) {
			if (SCALING[n, sets[s]] == "") continue
			ok = ok && SCALING[n, sets[s]] >= 1.8
			okCpu = okCpu && CPUSCALING[n, sets[s]] >= 1.8
			worst = SCALING[n, sets[s]] < worst ? SCALING[n, sets[s]] : worst
			worstCpu = CPUSCALING[n, sets[s]] < worstCpu ? CPUSCALING[n, sets[s]] : worstCpu
			parts = parts sprintf("%s/%s %.2f (CPU %.2f), ", n, sets[s], SCALING[n, sets[s]], CPUSCALING[n, sets[s]])
		}
	}
	printf "- 2 threads at least 1.8x 1 thread on the query phase (%s): measured on the wall clock %s%s; estimated from" \
		" CPU times %s%s — %s.\n", scope, verdict(ok), ok ? "" : sprintf(" (worst %.2f, %.0f %% short)", worst, 100 * (1 - worst / 1.8)), \
		verdict(okCpu), okCpu ? "" : sprintf(" (worst %.2f, %.0f %% short)", worstCpu, 100 * (1 - worstCpu / 1.8)), \
		substr(parts, 1, length(parts) - 2)

	rm = F[cr, "name"]
	m = "mesh" SUBSEP rm
	load = F[m, "load"]
	mb = F[cr, "objmb"] * 1.048576
	readCpu = F[m, "loadcpu"] - F[m, "buildNcpu"]
	readWall = load - F[m, "buildN"]
	scaled = F[m, "buildN"] + readWall * 139 / mb
	if (quick) {
		printf "- Read and build a 139 MB, 1 M-triangle OBJ under 0.6 s with 2 threads: not measured in the quick run" \
			" (%s, %.0f MB: `bcMesh_LoadObj` %.3f s, the command %.3f s wall).\n", rm, mb, load, F[cr, "wall"]
	} else {
		printf "- Read and build a 139 MB, 1 M-triangle OBJ under 0.6 s with 2 threads: %s — %s (%.0f MB, %s triangles):" \
			" `bcMesh_LoadObj` %.3f s wall%s, the command %.3f s wall. Of the load, the hierarchy alone takes %.3f s wall on 2" \
			" threads (%.3f s on one) and the rest, reading and storing on 2 threads, %.3f s wall (%.2f s of CPU); the reading" \
			" grows with the file, the build with the triangles, so a 139 MB file of a million triangles would take about" \
			" %.2f s.\n", verdict(load < 0.6), rm, mb, thousands(F[m, "tris"]), load, shortBy(load, 0.6, 0), F[cr, "wall"], \
			F[m, "buildN"], F[m, "build1"], readWall, readCpu, scaled
	}

	split("short mixed", e2eSets, " ")
	for (k = 1; k <= 2; ++k) {
		ok = 1; parts = ""; seen = 0
		for (i = 1; i <= e2eCount; ++i) {
			if (E2ESET[i] != e2eSets[k]) continue
			e = "e2e" SUBSEP i
			seen = 1
			ok = ok && F[e, "wall"] < 3
			parts = parts sprintf("%s %.2f s%s; ", E2E[i], F[e, "wall"], quick ? "" : shortBy(F[e, "wall"], 3, 0))
		}
		if (!seen) continue
		printf "- End to end, 1 M %s trajectories JSON in and out against a 1 M-triangle mesh, under 3 s wall on 2 cores: %s — %s\n", \
			e2eSets[k], quick ? "not measured in the quick run (" thousands(F["e2e" SUBSEP 1, "count"]) " trajectories, ~50k-triangle meshes)" : verdict(ok), \
			substr(parts, 1, length(parts) - 2) "."
	}

	peak = 0; where = ""
	for (i = 1; i <= e2eCount; ++i) if (F["e2e" SUBSEP i, "peakmb"] > peak) { peak = F["e2e" SUBSEP i, "peakmb"]; where = "the end-to-end run on " E2E[i] " (" E2ESET[i] ")" }
	for (i = 1; i <= ndjsonCount; ++i) if (F["ndjson" SUBSEP NDJSON[i], "peakmb"] > peak) { peak = F["ndjson" SUBSEP NDJSON[i], "peakmb"]; where = "the NDJSON run of " thousands(NDJSON[i]) }
	if (F[cr, "peakmb"] > peak) { peak = F[cr, "peakmb"]; where = "reading " rm }
	for (i = 1; i <= bigCount; ++i) if (F["mesh" SUBSEP BIG[i], "peakmb"] > peak) { peak = F["mesh" SUBSEP BIG[i], "peakmb"]; where = "the harness loading " BIG[i] }
	printf "- Peak memory under 1.5 GB: %s — at most %.0f MiB (%s).\n", verdict(peak < 1536), peak, where

	if (ndjsonCount >= 2) {
		a = F["ndjson" SUBSEP NDJSON[1], "peakmb"]; b = F["ndjson" SUBSEP NDJSON[ndjsonCount], "peakmb"]
		flat = b <= a * 1.1 || b - a < 16
		printf "- NDJSON in and out, memory that does not grow with the count: %s — peak %.0f MiB for %s records, %.0f MiB for %s.\n", \
			verdict(flat), a, thousands(NDJSON[1]), b, thousands(NDJSON[ndjsonCount])
	}
	printf "- Number printer at least 4x faster than %%.17g, every output round-trips: %s — %.1fx (%.1f against %.1f ns per number), %d round-trip failures.\n", \
		verdict(NUMFMT_X >= 4 && NUMFMT_FAIL == 0 && NUMFMT != ""), NUMFMT_X, NUMFMT_NS, NUMFMT_PRINTF, NUMFMT_FAIL
	printf "- Brute force answers match bit for bit on every mesh and set, and 2 threads answer as 1: %s%s.\n", \
		verdict(mismatches == 0 && META["failed"] == 0), mismatches == 0 ? "" : sprintf(" — %d answers differ", mismatches)
	print "<!-- table -->"

	# ------------------------------------------------------------ notes
	print ""
	notes = "tests/bench/notes.md"
	while ((getline line < notes) > 0) print line
	close(notes)

	print ""
	print "## Raw results"
	print ""
	print "tests/bench/work/" META["mode"] "/results.txt of this run (key=value lines; `apart` = both hit but alphas more" \
		" than 1e-3 apart, `bulletonly`/`embreeonly`/`ballcastonly` = only one side hit, `cpuqps` = per CPU second):"
	print ""
	print "```text"
	while ((getline line < FILENAME) > 0) print line
	print "```"
}
