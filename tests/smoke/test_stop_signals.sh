#!/bin/sh
# test_stop_signals.sh - import and push stopped by SIGTERM, SIGHUP or
# SIGINT (issue 25 item 13) finish the run they are adding, print every
# progress line of what they stored, say what was stored and how to go
# on, and exit 130, as run does; a second import or push then adds the
# rest, each run once.
. "$(dirname "$0")/lib.sh"
need_sqlite3

# import adds 200 runs a transaction and stops between them: 1200 runs
# leave it batches to stop in
N=1200
# stored DB: how many runs DB holds (0 while it is not there yet).
stored() {
	[ -e "$1" ] || { echo 0; return; }
	sqlite3 "file:$1?mode=ro" "SELECT count(*) FROM runs" 2>/dev/null ||
		echo 0
}
# some DB: DB holds a run or more.
some() {
	[ "$(stored "$1")" -gt 0 ]
}

QUICK="--reps 3 --sample-time 1ms --warmup 0"
cs 0 run sys.null $QUICK --db "$TMP/src.db" --tag bulk
clone_run "$TMP/src.db" 1 $((N - 1))
N=$(stored "$TMP/src.db")
cs 0 export bulk --db "$TMP/src.db" -o "$TMP/all.json"

# stop SIG WHAT DB LINE cmd...: start cmd, send SIG once DB holds a run;
# cmd must exit 130, with one LINE on stdout for each run in DB, and say
# on stderr how many were stored.
stop() {
	_sig=$1 _what=$2 _db=$3 _line=$4
	shift 4
	"$@" >"$OUT" 2>"$ERR" &
	_p=$!
	wait_for 60 some "$_db"
	kill -"$_sig" "$_p"
	wait "$_p"
	LAST_RC=$?
	LAST_CMD="$* (SIG$_sig)"
	[ "$LAST_RC" -eq 130 ] || fail "$_what: exit $LAST_RC after SIG$_sig"
	contains "$ERR" "interrupted by signal"
	_n=$(stored "$_db")
	[ "$_n" -lt "$N" ] || fail "$_what: all $N runs went in before SIG$_sig"
	[ "$(count_matches "$OUT" "$_line")" -eq "$_n" ] ||
		fail "$_what: $_n runs stored, $(count_matches "$OUT" \
			"$_line") progress lines"
}

for sig in TERM HUP INT; do
	note "import stopped by SIG$sig"
	db=$TMP/imp-$sig.db
	stop "$sig" import "$db" "imported as run" \
		"$BIN" import "$TMP/all.json" -v --db "$db"
	contains "$ERR" "$(stored "$db") of $N runs stored"
	contains "$ERR" "import the file again"
done
note "importing again adds the rest"
cs 0 import "$TMP/all.json" --db "$db"
[ "$(stored "$db")" -eq "$N" ] || fail "import again: not all $N runs"

note "push stopped by SIGTERM"
db=$TMP/push.db
stop TERM push "$db" " -> run " \
	"$BIN" push --db "$TMP/src.db" --to "$db"
contains "$ERR" "not pushed: push again"
cs 0 push --db "$TMP/src.db" --to "$db"
[ "$(stored "$db")" -eq "$N" ] || fail "push again: not all $N runs"
echo "ok"
