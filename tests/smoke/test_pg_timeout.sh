#!/bin/sh
# test_pg_timeout.sh - push to a server that stops answering ends, naming
# the server, instead of hanging (issue 25 item 6).  On a server of this
# test's own (it is stopped with SIGSTOP, which would stall any other
# test sharing it): stopped before the push connects, push gives up
# after --connect-timeout-s; stopped mid-push (the push waiting on a
# lock), after --statement-timeout-s; either way exit non-zero, the
# database named, with its password masked.  Then SIGCONT, and a push
# adds what is missing.
. "$(dirname "$0")/lib.sh"
need_python
unset COPYSCOPE_TEST_PG_HOST
need_pg || skip "no PostgreSQL server here (scripts/install-deps.sh" \
	"installs one)"

PM=$(head -n 1 "$PG_DIR/data/postmaster.pid") ||
	fail "no postmaster.pid in $PG_DIR/data"
STOPPED=""
# freeze: SIGSTOP the postmaster and every backend; thaw: SIGCONT them.
freeze() {
	STOPPED="$PM $(pgrep -P "$PM" | tr '\n' ' ')"
	kill -STOP $STOPPED || fail "cannot stop the server"
}
thaw() {
	[ -n "$STOPPED" ] && kill -CONT $STOPPED 2>/dev/null
	STOPPED=""
	return 0
}
trap 'thaw; cleanup' EXIT

QUICK="--reps 3 --sample-time 1ms --warmup 0"
cs 0 run sys.null $QUICK --db "$TMP/local.db" --tag one
cs 0 run sys.null $QUICK --db "$TMP/local.db" --tag two
# the server trusts its local users: the password is only to be masked
URL="postgresql://$(id -un):S3cretPW@/$PG_DB?host=$PG_DIR"
SHOWN="postgresql://$(id -un):***@/$PG_DB"

# ended PID: PID has ended (for wait_for)
ended() {
	! kill -0 "$1" 2>/dev/null
}

note "the server stopped before push connects: exit 2 after the timeout"
freeze
t0=$(date +%s)
"$BIN" push one --db "$TMP/local.db" --to "$URL" --connect-timeout-s 2 \
	>"$OUT" 2>"$ERR" &
p=$!
wait_for 20 ended "$p"
wait "$p"
LAST_RC=$?
LAST_CMD="push --connect-timeout-s 2 (server stopped)"
t1=$(date +%s)
thaw
[ "$LAST_RC" -eq 2 ] || fail "exit $LAST_RC, expected 2"
[ $((t1 - t0)) -le 10 ] || fail "push took $((t1 - t0)) s"
contains "$ERR" "$SHOWN"
not_contains "$ERR" "S3cretPW"

note "the server stopped mid-push: exit 1 after the statement timeout"
cs 0 push one --db "$TMP/local.db" --to "$URL"
"$PGBIN/psql" -X -q \
	"postgresql:///$PG_DB?host=$PG_DIR&application_name=cs_locker" -c "BEGIN" \
	-c "LOCK TABLE runs IN ACCESS EXCLUSIVE MODE" \
	-c "SELECT pg_sleep(600)" >/dev/null 2>&1 &
locker=$!
locked() {
	[ "$(pg_q "SELECT count(*) FROM pg_locks WHERE relation =
		'runs'::regclass AND mode = 'AccessExclusiveLock' AND
		granted")" = 1 ]
}
wait_for 20 locked
"$BIN" push two --db "$TMP/local.db" --to "$URL" --statement-timeout-s 3 \
	>"$OUT" 2>"$ERR" &
p=$!
waiting() {
	[ "$(pg_q "SELECT count(*) FROM pg_stat_activity WHERE
		application_name = 'copyscope' AND wait_event_type =
		'Lock'")" = 1 ]
}
wait_for 20 waiting
freeze
t0=$(date +%s)
wait_for 30 ended "$p"
wait "$p"
LAST_RC=$?
LAST_CMD="push --statement-timeout-s 3 (server stopped mid-push)"
t1=$(date +%s)
thaw
# the locker's backend sleeps on: end it, and its lock, from the server
pg_q "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE
	application_name = 'cs_locker'" >/dev/null
wait "$locker"
[ "$LAST_RC" -ne 0 ] || fail "push said nothing went wrong"
[ $((t1 - t0)) -le 15 ] || fail "push took $((t1 - t0)) s"
contains "$ERR" "no answer from the server within 3 s"
contains "$ERR" "$SHOWN"
not_contains "$ERR" "S3cretPW"

note "the server back: push adds what is missing"
cs 0 push --db "$TMP/local.db" --to "$URL"
[ "$(pg_q "SELECT count(*) FROM runs")" = 2 ] ||
	fail "the server does not hold both runs"
echo "ok"
