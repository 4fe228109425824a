#!/usr/bin/env bats
# Interrupted runs leave no debris (issue 22): `-o FILE` writes a temporary
# FILE.tmp.XXXXXX beside FILE and renames it at the end; SIGINT, SIGTERM,
# SIGHUP and every other signal that ends a process but SIGKILL (SIGQUIT,
# SIGUSR1, SIGALRM, SIGXFSZ past `ulimit -f`: issue 26) remove the
# temporary, leave FILE as it was, and the process dies by the same signal
# (exit status 128 + n), as `sort -o` does.
#
# Each run is held mid-way by reading from a FIFO this shell keeps open, so
# the temporary exists when the signal comes. A background job of a shell
# without job control starts with SIGINT ignored (and ballcast leaves an
# ignored signal ignored, as nohup needs), so the command is started with
# the signals sent here at their default action (env --default-signal).

load helpers

setup() {
	common_setup
	echo 'old answers' >out.json
	mkfifo in.fifo
}

teardown() {
	exec 9>&- 2>/dev/null || true
	if [ -n "${pid:-}" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
}

# start_held ARGS... : ballcast ARGS in the background, standard input the
# FIFO (kept open on fd 9; bats owns fd 3, which the job must not hold), $pid its process.
start_held() {
	(ulimit -c 0; exec env --default-signal=INT,TERM,HUP,QUIT,USR1,ALRM "$BALLCAST" "$@" <in.fifo >stdout 2>stderr 3>&-) &
	pid=$!
	exec 9>in.fifo
}

# wait_for_temporary PATTERN : until a file matching PATTERN exists (10 s at most).
wait_for_temporary() {
	local _
	for _ in $(seq 100); do
		# shellcheck disable=SC2086
		if ls $1 >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	echo "no temporary $1 appeared; stderr:"
	cat stderr
	return 1
}

# interrupt SIGNAL STATUS PATTERN : send SIGNAL to $pid; it must die with
# STATUS, and nothing matching PATTERN may be left.
interrupt() {
	kill -s "$1" "$pid"
	local got=0
	wait "$pid" || got=$?
	pid=
	exec 9>&-
	if [ "$got" -ne "$2" ]; then
		echo "expected exit status $2 after SIG$1, got $got; stderr:"
		cat stderr
		return 1
	fi
	# shellcheck disable=SC2086
	if ls $3 >/dev/null 2>&1; then
		echo "left behind:"
		ls -l $3
		return 1
	fi
}

# one record now, the rest never comes
first_record() {
	printf '{"id":"a","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}\n' >&9
}

@test "cast -o: SIGINT removes the temporary, keeps the old file, exits 130" {
	start_held cast tri.obj - -o out.json
	first_record
	wait_for_temporary 'out.json.tmp.*'
	interrupt INT 130 'out.json.tmp.*'
	[ "$(cat out.json)" = "old answers" ]
}

@test "cast -o: SIGTERM removes the temporary, exits 143" {
	start_held cast tri.obj - -o out.json
	first_record
	wait_for_temporary 'out.json.tmp.*'
	interrupt TERM 143 'out.json.tmp.*'
	[ "$(cat out.json)" = "old answers" ]
}

@test "cast -o: SIGHUP removes the temporary, exits 129" {
	start_held cast tri.obj - -o out.json
	first_record
	wait_for_temporary 'out.json.tmp.*'
	interrupt HUP 129 'out.json.tmp.*'
	[ "$(cat out.json)" = "old answers" ]
}

@test "cast -o: SIGQUIT, SIGUSR1 and SIGALRM remove the temporary too, exit 131, 138, 142 (issue 26)" {
	for sig in QUIT:131 USR1:138 ALRM:142; do
		start_held cast tri.obj - -o out.json
		first_record
		wait_for_temporary 'out.json.tmp.*'
		interrupt "${sig%:*}" "${sig#*:}" 'out.json.tmp.*'
		[ "$(cat out.json)" = "old answers" ]
	done
}

@test "cast -o past ulimit -f: SIGXFSZ removes the temporary, keeps the old file, exits 153 (issue 26)" {
	awk 'BEGIN { for (i = 0; i < 2000; i++) printf "{\"id\":%d,\"p0\":[0.25,0.25,2],\"p1\":[0.25,0.25,-2],\"r\":0.1}\n", i }' >t.ndjson
	got=0
	(ulimit -f 16; ulimit -c 0; exec env --default-signal=XFSZ "$BALLCAST" cast tri.obj t.ndjson -o out.json) \
		>stdout 2>stderr 3>&- || got=$?
	[ "$got" -eq 153 ] || { echo "exit status $got"; cat stderr; false; }
	if ls out.json.tmp.* 2>/dev/null; then return 1; fi
	[ "$(cat out.json)" = "old answers" ]
}

@test "cast -o into a new file: SIGINT leaves neither the file nor a temporary" {
	start_held cast tri.obj - -o new.ndjson
	first_record
	wait_for_temporary 'new.ndjson.tmp.*'
	interrupt INT 130 'new.ndjson*'
}

@test "a SIGHUP ignored when ballcast starts (nohup) stays ignored; the run completes" {
	env --ignore-signal=HUP "$BALLCAST" cast tri.obj - -o out.json <in.fifo >stdout 2>stderr 3>&- &
	pid=$!
	exec 9>in.fifo
	first_record
	wait_for_temporary 'out.json.tmp.*'
	kill -s HUP "$pid"
	sleep 0.2
	exec 9>&-
	local got=0
	wait "$pid" || got=$?
	pid=
	[ "$got" -eq 0 ]
	if ls out.json.tmp.* 2>/dev/null; then return 1; fi
	grep -q '"id":"a","hit":true' out.json
}

@test "grade -o class.html: SIGTERM while a submission is being read removes the temporary, exits 143" {
	printf '{"id":"a","p0":[0.25,0.25,2],"p1":[0.25,0.25,-2],"r":0.5}\n' >t.ndjson
	echo 'old report' >class.html
	# the submission is the FIFO: grade waits in it with its report open
	env --default-signal=INT,TERM,HUP "$BALLCAST" grade --report html -o class.html tri.obj t.ndjson in.fifo \
		>stdout 2>stderr 3>&- &
	pid=$!
	exec 9>in.fifo
	wait_for_temporary 'class.html.tmp.*'
	interrupt TERM 143 'class.html.tmp.*'
	[ "$(cat class.html)" = "old report" ]
}

@test "simulate -o with --positions: SIGINT removes both temporaries, exits 130" {
	# the scene is read whole before anything is written: hold the run in
	# its output instead, with a long simulation writing positions
	printf '{"balls":[{"id":"a","p":[0.25,0.25,2],"r":0.1}],"gravity":[0,0,-9.81],"restitution":1,"horizon":1e9,"samples":1e-6}\n' >scene.json
	echo 'old positions' >pos.ndjson
	env --default-signal=INT,TERM,HUP "$BALLCAST" simulate tri.obj scene.json -o events.json \
		--positions pos.ndjson >stdout 2>stderr &
	pid=$!
	wait_for_temporary 'pos.ndjson.tmp.*'
	wait_for_temporary 'events.json.tmp.*'
	interrupt INT 130 '*.tmp.*'
	[ "$(cat pos.ndjson)" = "old positions" ]
	[ ! -e events.json ]
}
