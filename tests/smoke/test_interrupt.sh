#!/bin/sh
# test_interrupt.sh - SIGINT/SIGTERM during a long `run pipe.bw`: exit 130,
# the run stored as 'interrupted' with the samples taken so far, and no
# worker process left behind.  Cases: mode=proc + SIGINT, mode=thread +
# SIGINT, mode=proc + SIGTERM, and SIGINT to the whole process group (what
# Ctrl-C on a terminal does).
. "$(dirname "$0")/lib.sh"

TIMEOUT=20	# seconds, for each wait below; the waits poll
command -v ps >/dev/null 2>&1 || skip "ps is not installed"
need_python	# start_tty

# copyscope_pids: pids of all processes named copyscope.
copyscope_pids() {
	ps -eo pid=,comm= | awk '$2 == "copyscope" { print $1 }'
}

# ours PID MARKER: true if PID's environment holds MARKER (a COPYSCOPE_DB=
# line unique to this test), i.e. PID was started by this test.
ours() {
	tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -F -x -q -e "$2"
}

# proc_state PID: the state letter of PID (Z for a zombie), empty if gone.
proc_state() {
	sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null
}

# gone PID: PID has exited (or is a zombie).
gone() {
	_st=$(proc_state "$1")
	[ -z "$_st" ] || [ "$_st" = Z ]
}

# running_in DB PID: DB lists a run 'running'; fails the test if PID
# ended first.
running_in() {
	COPYSCOPE_DB=$1 "$BIN" runs >"$TMP/runs.out" 2>&1 &&
		grep -q ' running ' "$TMP/runs.out" && return 0
	if gone "$2"; then
		wait "$TTY_PID"
		LAST_RC=$?
		cp "$TMP/$name.out" "$OUT"; cp "$TMP/$name.err" "$ERR"
		fail "$name: copyscope ended before it was signalled"
	fi
	return 1
}

# case_run NAME MODE SIGNAL TARGET [--json]: TARGET is 'pid' or 'group'.
case_run() {
	name=$1 mode=$2 sig=$3 target=$4 json=${5:-}
	db=$TMP/$name.db
	marker="COPYSCOPE_DB=$db"
	note "$name: run pipe.bw mode=$mode, SIG$sig to the $target"
	before=$(copyscope_pids | tr '\n' ' ')

	# stderr on a terminal (start_tty): the progress line tells when
	# the run samples
	if [ "$target" = group ]; then
		command -v setsid >/dev/null 2>&1 || {
			note "SKIPPED $name: setsid is missing"
			return 0
		}
		start_tty "$TMP/$name.out" "$TMP/$name.err" setsid \
			env COPYSCOPE_DB="$db" "$BIN" run pipe.bw mode=$mode \
			--reps 1000 --sample-time 50ms $json
	else
		start_tty "$TMP/$name.out" "$TMP/$name.err" \
			env COPYSCOPE_DB="$db" "$BIN" run pipe.bw mode=$mode \
			--reps 1000 --sample-time 50ms $json
	fi
	pid=$CMD_PID
	LAST_CMD="COPYSCOPE_DB=$db $BIN run pipe.bw mode=$mode --reps 1000 --sample-time 50ms (pid $pid)"
	LAST_RC="still running"
	: >"$OUT"; : >"$ERR"

	# wait until the run is stored as 'running'
	wait_for "$TIMEOUT" running_in "$db" "$pid"
	if [ "$target" = group ] &&
		[ "$(cat /proc/$pid/comm 2>/dev/null)" != copyscope ]; then
		kill -KILL $pid 2>/dev/null
		wait $TTY_PID
		note "SKIPPED $name: setsid forked, cannot signal the group"
		return 0
	fi
	# past sizing and warm-up into sampling, with a sample taken: the
	# progress line shows the second sample
	wait_for "$TIMEOUT" log_shows "$TMP/$name.err" "sample 2/1000" "$pid"
	kids=$(ps -eo pid=,ppid= | awk -v p=$pid '$2 == p { print $1 }' |
		tr '\n' ' ')
	if [ "$mode" = proc ] && [ -z "$kids" ]; then
		kill -KILL $pid 2>/dev/null
		wait $TTY_PID
		fail "$name: mode=proc shows no worker processes while sampling"
	fi

	if [ "$target" = group ]; then
		kill -s "$sig" -- "-$pid" || fail "$name: kill -$sig -$pid failed"
	else
		kill -s "$sig" "$pid" || fail "$name: kill -$sig $pid failed"
	fi
	wait_for "$TIMEOUT" gone "$pid"
	wait $TTY_PID
	LAST_RC=$?
	cp "$TMP/$name.out" "$OUT"; cp "$TMP/$name.err" "$ERR"
	[ $LAST_RC -eq 130 ] || fail "$name: exit $LAST_RC after SIG$sig, not 130"
	contains "$ERR" "interrupted"
	if [ -n "$json" ] && command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
d = json.load(sys.stdin)
if d["run"]["status"] != "interrupted":
    sys.exit("--json status %r" % d["run"]["status"])
if not d["results"] or min(r["summary"]["n"] for r in d["results"]) < 1:
    sys.exit("--json: no results with samples")
' <"$OUT" || fail "$name: stdout is not the interrupted run as JSON"
	fi

	# nothing left behind
	ps -eo pid=,ppid=,comm= >"$TMP/ps"
	left=$(awk -v p=$pid '$2 == p' "$TMP/ps")
	[ -z "$left" ] || fail "$name: children of $pid remain: $left"
	for k in $kids; do
		[ "$(cat /proc/$k/comm 2>/dev/null)" = copyscope ] &&
			fail "$name: worker $k (a child of $pid) is still alive"
	done
	for p in $(copyscope_pids); do
		case " $before " in *" $p "*) continue ;; esac
		ours $p "$marker" &&
			fail "$name: copyscope process $p started by this test" \
				"remains: $(grep -E "^ *$p " "$TMP/ps")"
	done

	# stored as interrupted, with the samples taken so far
	expect_exit 0 env COPYSCOPE_DB="$db" "$BIN" runs
	contains_re "$OUT" '^ +1 +.* interrupted '
	grep -q ' running ' "$OUT" && fail "$name: run still shown as running"
	expect_exit 0 env COPYSCOPE_DB="$db" "$BIN" show 1 --no-env
	contains_re "$OUT" '^run 1 +interrupted '
	contains "$OUT" "mode=$mode"
	contains "$OUT" "status: interrupted"
	not_contains "$OUT" "interrupted: interrupted"
	for m in bandwidth time/write; do
		n=$(awk -v m="$m" '$1 == m { print $NF; exit }' "$OUT")
		case $n in
		'' | *[!0-9]*) fail "$name: show 1 has no $m row with n" \
			"(no sample stored, though the progress line showed" \
			"sample 2 begun)" ;;
		esac
		[ "$n" -ge 1 ] || fail "$name: show 1: $m has n=$n samples"
		[ "$n" -lt 1000 ] || fail "$name: show 1: $m has all $n samples"
	done
	note "$name: exit 130, workers ${kids:-none }gone, $n samples stored"
	return 0
}

case_run proc-int proc INT pid
case_run thread-int thread INT pid --json
case_run proc-term proc TERM pid
case_run proc-group-int proc INT group
exit 0
