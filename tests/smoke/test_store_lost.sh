#!/bin/sh
# test_store_lost.sh - a run whose database file is removed or replaced
# while it runs is not reported "stored" (issue 25 item 3): the file at
# the path is checked against the one opened and the run read back before
# the word is said; a lost run exits 1, says so and is kept whole in an
# export file beside the path, which import takes.  Cases: the database
# removed mid-run; its -wal and -shm removed while two runs write (each
# run that says "stored" reads back afterwards); the database replaced by
# a directory mid-run; the database removed while `check` measures BASE
# again (check keeps its run as run does).
. "$(dirname "$0")/lib.sh"
need_sqlite3

LONG="--reps 40 --sample-time 50ms --warmup 0"

# running DB N: DB has N runs with status 'running' (read without making
# the file, and without writing to it).
running() {
	[ -e "$1" ] || return 1
	[ "$(sqlite3 "file:$1?mode=ro" "SELECT count(*) FROM runs WHERE
	      status = 'running'" 2>/dev/null)" = "$2" ]
}

# start NAME DB: `run` into DB in the background; its pid in PID_NAME,
# output in $TMP/NAME.out and .err.
start() {
	"$BIN" run sys.null $LONG --db "$2" >"$TMP/$1.out" 2>"$TMP/$1.err" &
	eval "PID_$1=\$!"
}

# finished NAME: wait for NAME; its exit status in RC, its output in
# $OUT and $ERR for failure messages.
finished() {
	eval "wait \$PID_$1"
	RC=$?
	cp "$TMP/$1.out" "$OUT"
	cp "$TMP/$1.err" "$ERR"
	LAST_CMD="run sys.null $LONG ($1)"
	LAST_RC=$RC
}

# expect_lost NAME DB: NAME exited 1 without "stored as", naming the file
# that keeps its run, which imports into a new database whole.
expect_lost() {
	[ "$RC" -eq 1 ] || fail "$1: exit $RC, expected 1 for a lost run"
	not_contains "$OUT" "stored as run"
	contains "$ERR" "is not stored: all of it"
	kept=$(sed -n "s/.*is kept in '\([^']*\)'.*/\1/p" "$ERR")
	case $kept in
	"$2".lost-run-*.json) ;;
	*) fail "$1: the run is not kept beside $2 (kept: '$kept')" ;;
	esac
	[ -s "$kept" ] || fail "$1: $kept is missing or empty"
	cs 0 import "$kept" --db "$TMP/$1-kept.db"
	[ "$(sqlite3 "$TMP/$1-kept.db" "SELECT count(*) FROM results")" -gt 0 ] ||
		fail "$1: the kept file holds no results"
	uuid=$(sqlite3 "$TMP/$1-kept.db" "SELECT uuid FROM runs")
	case $kept in
	*"$uuid".json) ;;
	*) fail "$1: $kept does not hold run $uuid" ;;
	esac
}

note "the database removed mid-run: exit 1, the run kept beside it"
db=$TMP/del.db
start del "$db"
wait_for 30 running "$db" 1
rm -f "$db"
finished del
contains "$ERR" "the database file '$db' is gone"
expect_lost del "$db"

note "the database replaced by a directory mid-run: exit 1, kept"
db=$TMP/dir.db
start dir "$db"
wait_for 30 running "$db" 1
rm -f "$db" "$db-wal" "$db-shm"
mkdir "$db"
finished dir
contains "$ERR" "was replaced by a directory"
expect_lost dir "$db"

note "the database removed while check measures: exit 1, the run kept"
db=$TMP/check.db
cs 0 run sys.null --reps 3 --sample-time 50ms --warmup 0 --db "$db"
"$BIN" check last --reps 40 --db "$db" >"$TMP/check.out" \
	2>"$TMP/check.err" &
PID_check=$!
# BASE is complete: the one run 'running' is check's
wait_for 30 running "$db" 1
rm -f "$db"
finished check
LAST_CMD="check last --reps 40 (check)"
contains "$ERR" "the database file '$db' is gone"
contains "$ERR" "check: the new run failed"
expect_lost check "$db"
[ "$(sqlite3 "$TMP/check-kept.db" "SELECT tag FROM runs")" = check ] ||
	fail "the kept run is not check's (tag 'check')"

note "-wal and -shm removed while two runs write: no 'stored' is a lie"
db=$TMP/wal.db
start wa "$db"
wait_for 30 running "$db" 1
rm -f "$db-wal" "$db-shm"
start wb "$db"
# B cannot see A's row (it is in the removed WAL): B's own row appears
wait_for 30 running "$db" 1
finished wa
rc_a=$RC
cp "$OUT" "$TMP/wa.keep.out"
finished wb
rc_b=$RC
nstored=$(cat "$TMP/wa.out" "$TMP/wb.out" | grep -c '^stored as run')
nruns=$(count_runs --db "$db")
[ "$nstored" -le "$nruns" ] ||
	fail "$nstored runs said 'stored' but $nruns read back from $db"
for who in wa wb; do
	grep -q '^stored as run' "$TMP/$who.out" && continue
	eval "RC=\$rc_${who#w}"
	cp "$TMP/$who.out" "$OUT"
	cp "$TMP/$who.err" "$ERR"
	expect_lost "$who" "$db"
	# what was kept goes into the database the run was meant for
	cs 0 import "$kept" --db "$db"
done
[ "$(count_runs --db "$db")" -eq 2 ] ||
	fail "after importing what was kept, $db lacks one of the 2 runs"
[ "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok ] ||
	fail "$db is damaged"
echo "ok"
