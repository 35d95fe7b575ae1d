#!/bin/sh
# test_observe_careful.sh - observe is as careful as run (#34 items 2, 3):
# SIGHUP (a dropped ssh session) and SIGINT end the observation with what
# was seen stored as "interrupted" and exit 130; a database file removed
# during the observation is not reported as "stored": exit 1 and a
# DB.lost-run-UUID.json that import takes; --pid of a process that is not
# there is refused (exit 2); the header says what is filtered; a comm with
# an escape sequence is printed escaped.  Needs root and BPF (skipped,
# exit 77, otherwise).
. "$(dirname "$0")/lib.sh"
need_python

note "--pid of a process that is not there: exit 2 naming --pid"
pid=4000000
while kill -0 $pid 2>/dev/null; do pid=$((pid + 1)); done
cs 2 observe --pid $pid --no-store
contains "$ERR" "--pid: no process $pid is running"
note "the --pid range reads as integers"
cs 2 observe --pid 0 --no-store
contains "$ERR" "in 1 .. 4194304"

[ "$(id -u)" -eq 0 ] || skip "observe loads BPF programs: needs root"
"$BIN" observe --duration 10ms --what pipe-writes --no-store \
	>"$TMP/probe" 2>&1 || {
	cat "$TMP/probe"
	skip "BPF cannot load here"
}

# observe_until_started SIG: start a long observe into $DB, send SIG once
# it is attached, and leave its exit status in RC.
observe_sig() {
	"$BIN" observe --duration 60s --what pipe-writes,lock --db "$DB" \
		>"$OUT" 2>"$ERR" &
	_p=$!
	wait_for 60 grep -q "observing" "$ERR"
	kill -"$1" $_p
	wait $_p
	RC=$?
}

DB=$TMP/o.db
for sig in HUP INT; do
	note "SIG$sig: what was seen is stored as interrupted, exit 130"
	observe_sig $sig
	[ "$RC" -eq 130 ] || fail "observe after SIG$sig: exit $RC, not 130"
	contains "$OUT" "stored in $DB"
	COPYSCOPE_DB=$DB cs 0 runs
	contains_re "$OUT" " interrupted "
	COPYSCOPE_DB=$DB cs 0 show last --no-env
	contains "$OUT" "pipe writes:"
done

note "the header names the filter"
cs 0 observe --duration 100ms --what pipe-writes --pid $$ --no-store
contains "$OUT" "only pid $$: pipe-writes"
not_contains "$OUT" "system-wide"

note "a comm with an escape sequence is printed escaped"
ESC=$(printf '\033]0;owned\007x')
python3 - "$ESC" <<'PY' &
import os, sys, time, ctypes
libc = ctypes.CDLL(None)
libc.prctl(15, sys.argv[1].encode()[:15], 0, 0, 0)   # PR_SET_NAME
r, w = os.pipe()
end = time.time() + 8
while time.time() < end:
    os.write(w, b"x" * 64)
    os.read(r, 64)
PY
wp=$!
cs 0 observe --duration 1s --what pipe-writes --no-store
kill $wp 2>/dev/null
wait $wp 2>/dev/null
contains "$OUT" '\x1b]0;owned\x07x'
if grep -q "$(printf '\033')" "$OUT"; then
	fail "observe wrote a raw escape character to the terminal"
fi

note "the database removed during the observation: not 'stored', a copy kept"
D2=$TMP/gone/r.db
mkdir -p "$TMP/gone"
cs 0 observe --duration 10ms --what pipe-writes --db "$D2"
"$BIN" observe --duration 60s --what pipe-writes --db "$D2" \
	>"$OUT" 2>"$ERR" &
p=$!
wait_for 60 grep -q "observing" "$ERR"
rm -f "$D2" "$D2-wal" "$D2-shm"
kill -INT $p
wait $p
RC=$?
[ "$RC" -eq 1 ] || fail "observe into a removed file: exit $RC, not 1"
not_contains "$OUT" "stored in"
contains "$ERR" "is not stored in"
lost=$(ls "$TMP"/gone/r.db.lost-run-*.json 2>/dev/null | head -1)
[ -n "$lost" ] || fail "no lost-run copy beside the removed database"
cs 0 import "$lost" --db "$TMP/back.db"
COPYSCOPE_DB=$TMP/back.db cs 0 show last --no-env
contains "$OUT" "pipe writes:"
exit 0
