#!/bin/sh
# test_lab.sh - a lab's shared store end to end, on a real PostgreSQL
# server (the test runner's, else one of the test's own): a URL is never
# taken for a path; run, runs, show, compare and check against
# postgresql:// (--db and COPYSCOPE_DB); push from hosts' SQLite files,
# repeated and killed half-way, every run exactly once and whole; a run
# reads back the same from both stores; selecting and comparing across
# hosts; passwords neither printed nor stored; the privileges docs/lab.md
# gives the copyscope role are enough; the commands of the systemd units
# in contrib/systemd; TLS options reach libpq.
. "$(dirname "$0")/lib.sh"

need_sqlite3
need_python
need_pg || skip "no PostgreSQL server here (scripts/install-deps.sh" \
	"installs postgresql)"
note "PostgreSQL database: $PG_URL"

note "a URL is never a path: other schemes refused, nothing made"
mkdir "$TMP/cwd"
(
	cd "$TMP/cwd" || exit 1
	"$ROOT/$BIN" run sys.null --quick --db 'mysql://u:Pw1@h/x' \
		>"$TMP/o1" 2>"$TMP/e1"
	echo $? >"$TMP/rc1"
	"$ROOT/$BIN" runs --db 'postgresql:///nosuchdb?host=/nonexistent' \
		>"$TMP/o2" 2>"$TMP/e2"
	echo $? >"$TMP/rc2"
	COPYSCOPE_DB='postgres:/x' "$ROOT/$BIN" runs >"$TMP/o3" 2>"$TMP/e3"
	echo $? >"$TMP/rc3"
)
[ "$(cat "$TMP/rc1")" = 2 ] || fail "mysql:// was not refused with exit 2"
grep -q "postgresql://" "$TMP/e1" || fail "the refusal does not name" \
	"postgresql://: $(cat "$TMP/e1")"
grep -q "Pw1" "$TMP/e1" && fail "the password is printed: $(cat "$TMP/e1")"
[ "$(cat "$TMP/rc2")" = 2 ] || fail "an unreachable server is not exit 2"
grep -q "cannot open database 'postgresql:///nosuchdb" "$TMP/e2" ||
	fail "unexpected message: $(cat "$TMP/e2")"
[ "$(cat "$TMP/rc3")" = 2 ] || fail "postgres:/x was not refused"
grep -q "from COPYSCOPE_DB" "$TMP/e3" || fail "no origin: $(cat "$TMP/e3")"
[ -z "$(ls -A "$TMP/cwd")" ] || fail "a URL made files: $(ls -A "$TMP/cwd")"

note "run, runs, show, compare and check against PostgreSQL"
cs 0 run sys.null --quick --tag pg-a --db "$PG_URL"
contains "$OUT" "stored as run 1 in $PG_URL"
expect_exit 0 env COPYSCOPE_DB="$PG_URL" "$BIN" run sys.null --quick \
	--tag pg-b
contains "$OUT" "stored as run 2 in $PG_URL"
[ "$(count_runs --db "$PG_URL")" -eq 2 ] || fail "runs does not list 2 runs"
cs 0 show last --db "$PG_URL"
contains_re "$OUT" '^run 2 +complete +tag pg-b '
contains_re "$OUT" '^environment:'
cs 0 compare pg-a pg-b --db "$PG_URL"
contains_re "$OUT" '^ +time/call '
[ "$(pg_q "SELECT count(*) FROM runs WHERE status = 'complete'")" = 2 ] ||
	fail "the runs are not stored as complete in PostgreSQL"
# check measures again, into PostgreSQL, against a base of known
# values: pg-a exported from PostgreSQL, its samples made values around
# 1 ms a call (and as many cycles), far slower than sys.null is
# anywhere, and imported back as a run of its own, pg-slow (run 3): the
# new run is better, exit 0, ok.  Ten new samples against pg-slow's three
# (--quick), as three against three cannot reach p < 0.05 and so could
# never show a regression; one run a side is judged over samples only
# with --by-sample.
restage "$PG_URL" 1
made_values '*' 1000000 1010000 1020000
_db=$COPYSCOPE_DB
COPYSCOPE_DB=$PG_URL
made_import --new-uuid 5a --tag pg-slow
COPYSCOPE_DB=$_db
[ "$MADE_ID" = 3 ] || fail "pg-slow was imported as run $MADE_ID, not 3"
cs 0 show pg-slow --db "$PG_URL"
contains_re "$OUT" '^ +time/call +1\.01 ms '
# On a machine that other jobs load, the new samples may be flagged as
# disturbed: check then says "cannot tell" (exit 4) and why, which is
# right; the store path is what this test is about.
cs_judged 0 check pg-slow --reps 10 --by-sample --db "$PG_URL"
contains "$OUT" "new:  tag check (run 4; 1 boot)"
[ "$JUDGED" = 0 ] ||
	contains_re "$OUT" '^check: ok: none of 2 metrics worse by more than 5% '
[ "$(pg_q "SELECT count(*) FROM runs WHERE status = 'complete'")" = 4 ] ||
	fail "check's run is not stored in PostgreSQL"
[ "$(pg_q "SELECT version FROM copyscope_schema")" = 8 ] ||
	fail "the schema version is not 8"

note "hosts measure into their own SQLite files"
# three hosts' files: one real run each, staged, made another host's
# (host, hostname, kernel and command line) and copied (made_copies) to
# have many runs without measuring each: lab1 4, lab2 5, lab3 40
for h in lab1 lab2 lab3; do
	db="$TMP/$h.db"
	stage run sys.null --quick --tag nightly
	case $h in
	lab1) kernel=6.18.1-lab; cmdl="ro quiet" n=4 ;;
	lab2) kernel=6.19.0-rc1; cmdl="ro quiet nosmap" n=5 ;;
	lab3) kernel=6.18.1-lab; cmdl="ro" n=40 ;;
	esac
	made_run host "$h"
	made_env hostname "$h"
	made_env kernel.release "$kernel"
	made_env kernel.cmdline "$cmdl"
	made_copies "$db" "$n"
done
# and lab1's run 5 still running: it is not pushed.  An export never
# holds a running run and import refuses one (docs/export-format.md), so
# it is a real `copyscope run` in progress: in a UTS namespace of its own
# whose host name is lab1 (a run's host and hostname are the uname's),
# stopped (SIGSTOP) once it samples, so that it stays 'running' for as
# long as the pushes take, and interrupted (SIGINT) after them.  Its tag
# is its own, so that tag:nightly selects lab1's copies alone (their
# kernel and command line are the made ones, this run's are this
# machine's).  Without a UTS namespace (unshare --uts, as root or in a
# user namespace) it is this host's run, and lab1 has 4 runs.
live_ns="" live_name="" lab1_runs=4 live_host=$(uname -n)
for _u in "unshare --uts" "unshare --user --map-root-user --uts"; do
	$_u python3 -c 'import socket; socket.sethostname("lab1")' \
		2>/dev/null || continue
	live_ns=$_u live_name=lab1 lab1_runs=5 live_host=lab1
	break
done
[ -n "$live_ns" ] || skip_case "the run in progress is this host's" \
	"($live_host), not lab1's: no UTS namespace here (unshare --uts)"
# live_running: lab1.db lists run 5 as running (on its host); fails the
# test when the run ended first
live_running() {
	"$BIN" runs --db "$TMP/lab1.db" >"$TMP/live.runs" 2>&1 &&
		grep -E -q "^ +5 .* running .* $live_host " "$TMP/live.runs" &&
		return 0
	kill -0 "$live_pid" 2>/dev/null && return 1
	cp "$TMP/live.runs" "$OUT"
	cp "$TMP/live.err" "$ERR"
	fail "the run in progress ended before it was listed as running"
}
start_tty "$TMP/live.out" "$TMP/live.err" $live_ns python3 -c '
import os, socket, sys
if sys.argv[1]:
    socket.sethostname(sys.argv[1])
os.execvp(sys.argv[2], sys.argv[2:])' "$live_name" \
	"$BIN" run sys.null --reps 1000 --sample-time 50ms --tag live \
	--db "$TMP/lab1.db"
live_pid=$CMD_PID
live_cmd="${live_ns:+$live_ns (host name lab1) }$BIN run sys.null --reps 1000"
live_cmd="$live_cmd --sample-time 50ms --tag live --db lab1.db (pid $live_pid)"
LAST_CMD=$live_cmd
LAST_RC="still running"
wait_for 60 live_running
# past its begin (stored) and into sampling: nothing is being written
# while it is stopped (a run writes a configuration's results when it
# ends, or at the stop)
wait_for 60 log_shows "$TMP/live.err" "sample 2/1000" "$live_pid"
kill -STOP "$live_pid" || fail "kill -STOP $live_pid failed"
cs 0 runs --db "$TMP/lab1.db"
contains_re "$OUT" "^ +5 +.* running +live +$live_host "
[ "$(grep -c ' complete ' "$OUT")" -eq 4 ] ||
	fail "lab1.db does not hold 4 complete runs and one running"

note "push is idempotent by the run's unique id"
cs 0 push --to "$PG_URL" --db "$TMP/lab1.db"
contains "$OUT" "4 runs added, 0 there already, 1 still running"
for i in 1 2 3; do
	cs 0 push --to "$PG_URL" --db "$TMP/lab1.db" --quiet
	contains "$OUT" "0 runs added, 4 there already, 1 still running"
done
cs 0 push nightly --to "$PG_URL" --db "$TMP/lab2.db"
contains "$OUT" "5 runs added"
cs 0 push --to "$PG_URL" --db "$TMP/lab2.db"
contains "$OUT" "0 runs added, 5 there already"
[ "$(pg_q "SELECT count(*) FROM runs WHERE host IN ('lab1', 'lab2')")" = 9 ] ||
	fail "pushing again changed the count of runs"
local_ids=$(sqlite3 "$TMP/lab1.db" "SELECT uuid FROM runs WHERE status <>
	'running'"; sqlite3 "$TMP/lab2.db" "SELECT uuid FROM runs")
pg_ids=$(pg_q "SELECT uuid FROM runs WHERE host IN ('lab1', 'lab2')")
[ "$(printf '%s\n' "$local_ids" | sort)" = \
  "$(printf '%s\n' "$pg_ids" | sort)" ] ||
	fail "the pushed runs are not the local ones, each once"
note "the finished run is pushed later"
# the run in progress goes on and is stopped as docs/reliability.md
# says: exit 130, stored as interrupted with the samples taken so far
kill -CONT "$live_pid" && kill -INT "$live_pid" ||
	fail "kill -CONT/-INT $live_pid failed"
wait "$TTY_PID"
LAST_RC=$?
LAST_CMD=$live_cmd
cp "$TMP/live.out" "$OUT"
cp "$TMP/live.err" "$ERR"
[ "$LAST_RC" -eq 130 ] || fail "the run exited $LAST_RC after SIGINT, not 130"
contains "$ERR" "interrupted"
cs 0 show 5 --no-env --db "$TMP/lab1.db"
contains_re "$OUT" "^run 5 +interrupted +tag live +host $live_host "
contains "$OUT" "status: interrupted"
n=$(awk '$1 == "time/call" { print $NF; exit }' "$OUT")
case $n in
'' | *[!0-9]*) fail "show 5 has no time/call row with its n" ;;
esac
[ "$n" -ge 1 ] && [ "$n" -lt 1000 ] ||
	fail "show 5: time/call has $n samples, not those taken before SIGINT"
cs 0 push --to "$PG_URL" --db "$TMP/lab1.db" --quiet
contains "$OUT" "1 run added, 4 there already"

note "a run reads back the same from SQLite and from PostgreSQL"
uuid=$(sqlite3 "$TMP/lab2.db" "SELECT uuid FROM runs WHERE id = 1")
pg_id=$(pg_q "SELECT id FROM runs WHERE uuid = '$uuid'")
cs 0 show 1 --json --db "$TMP/lab2.db"
cp "$OUT" "$TMP/from-sqlite.json"
cs 0 show "$pg_id" --json --db "$PG_URL"
python3 - "$TMP/from-sqlite.json" "$OUT" <<'PY' || fail "the run differs"
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
a["run"].pop("id"); b["run"].pop("id")
assert a["run"] == b["run"], (a["run"], b["run"])
# the environment in the same order: the document's key order
assert list(a["environment"].items()) == list(b["environment"].items())
assert a["results"] == b["results"]
assert a == b
PY

note "a push killed half-way, then run again: every run exactly once"
# lab3_runs: how many of lab3's runs PostgreSQL holds
lab3_runs() {
	pg_q "SELECT count(*) FROM runs WHERE host = 'lab3'"
}
# pushed_beyond N PID: PostgreSQL holds more than N of lab3's runs, or
# the push PID has ended
pushed_beyond() {
	[ "$(lab3_runs)" -gt "$1" ] || ! kill -0 "$2" 2>/dev/null
}
for round in 1 2 3; do
	n0=$(lab3_runs)
	"$BIN" push --to "$PG_URL" --db "$TMP/lab3.db" --quiet \
		>"$TMP/kill.out" 2>&1 &
	pid=$!
	# killed once it has stored a run, half-way unless it is that quick
	wait_for 30 pushed_beyond "$n0" "$pid"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	n=$(lab3_runs)
	note "push $round killed after storing a run: $n of 40 runs there"
	[ "$n" -le 40 ] || fail "more runs than were pushed: $n"
	[ "$(pg_q "SELECT count(*) FROM runs r WHERE host = 'lab3' AND
		(SELECT count(*) FROM results x WHERE x.run_id = r.id) <> 2")" \
	  = 0 ] || fail "a run of the killed push is there in part"
done
cs 0 push --to "$PG_URL" --db "$TMP/lab3.db" --quiet
[ "$(pg_q "SELECT count(*) FROM runs WHERE host = 'lab3'")" = 40 ] ||
	fail "after the rerun not all 40 runs are there"
[ "$(pg_q "SELECT count(DISTINCT uuid) FROM runs WHERE host = 'lab3'")" \
  = 40 ] || fail "a run is there twice"
[ "$(pg_q "SELECT count(*) FROM samples s JOIN results x ON
	x.id = s.result_id JOIN runs r ON r.id = x.run_id
	WHERE r.host = 'lab3'")" = \
  "$(sqlite3 "$TMP/lab3.db" "SELECT count(*) FROM samples")" ] ||
	fail "samples are missing or doubled"

note "selecting and comparing across hosts"
cs 0 runs host:lab1 --db "$PG_URL"
[ "$(grep -c ' lab1 ' "$OUT")" -eq "$lab1_runs" ] ||
	fail "runs host:lab1 is not $lab1_runs runs"
cs 0 runs 'kernel:6.19.*' --db "$PG_URL"
[ "$(grep -c ' lab2 ' "$OUT")" -eq 5 ] || fail "kernel:6.19.* is not lab2's"
grep -q ' lab1 ' "$OUT" && fail "kernel:6.19.* selects lab1"
cs 0 runs boot:nosmap --db "$PG_URL"
[ "$(grep -c ' lab2 ' "$OUT")" -eq 5 ] || fail "boot:nosmap is not lab2's"
cs 0 runs --by-host --db "$PG_URL"
contains "$OUT" "host lab1: $lab1_runs runs"
contains "$OUT" "host lab2: 5 runs, last"
contains "$OUT" "host lab3: 40 runs"
cs 0 runs host:lab2+last --db "$PG_URL"
[ "$(count_matches "$OUT" ' lab2 ')" -eq 1 ] || fail "host:lab2+last is 1 run"
cs 2 runs host:lab9 --db "$PG_URL"
contains "$ERR" "'host:lab9' selects no stored run"
cs 0 compare host:lab1+tag:nightly host:lab2+tag:nightly --db "$PG_URL"
contains "$OUT" "environment differences (base -> new):"
contains "$OUT" 'hostname: lab1 -> lab2'
contains "$OUT" 'kernel.release: 6.18.1-lab -> 6.19.0-rc1'
contains_re "$OUT" '^ +time/call '
# the environment comes first
[ "$(grep -n 'environment differences' "$OUT" | cut -d: -f1)" -lt \
  "$(grep -n 'time/call' "$OUT" | head -n 1 | cut -d: -f1)" ] ||
	fail "the environment differences are not printed first"
cs 2 compare host:lab1 host: --db "$PG_URL"
contains "$ERR" "needs a pattern"
cs 2 run sys.null --quick --tag host:lab1 --db "$PG_URL"
contains "$ERR" "could not be selected"

note "passwords are neither printed nor stored; the documented grants do"
# roles belong to the whole server, which other tests share: a name of
# this test's own
role=cs_lab_$$
pg_q "CREATE ROLE $role LOGIN PASSWORD 'Pw0rdSecret'" >/dev/null
# docs/lab.md: what the copyscope role needs once the tables exist
pg_q "GRANT CONNECT ON DATABASE $PG_DB TO $role;
	GRANT USAGE ON SCHEMA public TO $role;
	GRANT SELECT ON copyscope_schema TO $role;
	GRANT SELECT, INSERT ON runs, environment, results, samples,
		histograms, observations TO $role;
	GRANT UPDATE (status, finished_ns) ON runs TO $role;
	GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO $role" >/dev/null
LAB_URL="postgresql://$role:Pw0rdSecret@/$PG_DB?host=$PG_DIR"
SHOWN="postgresql://$role:***@/$PG_DB?host=$PG_DIR"
cs 0 run sys.null --quick --tag as-lab --db "$LAB_URL"
contains "$OUT" "stored as run"
contains "$OUT" "$SHOWN"
not_contains "$OUT" "Pw0rdSecret"
not_contains "$ERR" "Pw0rdSecret"
cs 0 push --to "$LAB_URL" --db "$TMP/lab1.db"
not_contains "$OUT" "Pw0rdSecret"
cs 0 runs --db "$LAB_URL"
not_contains "$OUT" "Pw0rdSecret"
cs 0 show "$(pg_q "SELECT id FROM runs WHERE tag = 'as-lab'")" --db "$LAB_URL"
contains "$OUT" "--db postgresql://$role:***@"
not_contains "$OUT" "Pw0rdSecret"
cs 0 compare as-lab pg-a --db "$LAB_URL"
expect_exit 0 env COPYSCOPE_DB="$LAB_URL" "$BIN" show last
not_contains "$OUT" "Pw0rdSecret"
[ "$(pg_q "SELECT count(*) FROM runs WHERE cmdline LIKE '%Pw0rdSecret%'")" \
  = 0 ] || fail "the password is stored in a command line"
[ "$(pg_q "SELECT count(*) FROM environment WHERE value LIKE
	'%Pw0rdSecret%'")" = 0 ] || fail "the password is in the environment"
cs 2 run sys.null --quick --db \
	"postgresql://$role:Pw0rdSecret@/nosuchdb?host=$PG_DIR"
not_contains "$ERR" "Pw0rdSecret"
contains "$ERR" "$role:***@"
note "the role cannot make the tables: a new database needs its owner once"
pg_newdb
pg_q "GRANT CONNECT ON DATABASE $PG_DB TO $role" >/dev/null
cs 2 runs --db "postgresql://$role@/$PG_DB?host=$PG_DIR"
contains "$ERR" "permission denied"
[ "$(pg_q "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" \
  = 0 ] || fail "a failed first open left tables behind"

note "the systemd units' commands (contrib/systemd) do what docs/lab.md says"
units=""
for u in copyscope-suite copyscope-push; do
	units="$units
$(sed -n 's/^ExecStart\(Post\)\{0,1\}=-\{0,1\}//p' \
	"contrib/systemd/$u.service")"
done
[ "$(printf '%s\n' "$units" | grep -c copyscope)" -eq 3 ] ||
	fail "expected 3 commands in the units: $units"
printf '%s\n' "$units" | while IFS= read -r line; do
	[ -n "$line" ] || continue
	# ${VAR} is one word in systemd: quoted here
	cmd=$(printf '%s\n' "$line" | sed 's|^/usr/local/bin/copyscope|"$BIN"|;
		s|\${\([A-Z_]*\)}|"$\1"|g')
	(
		export COPYSCOPE_DB="$TMP/unit-host.db" COPYSCOPE_LAB="$PG_URL" \
			COPYSCOPE_SUITE=sys.null COPYSCOPE_TAG=after-boot
		eval "$cmd"
	) >"$OUT" 2>"$ERR" || fail "unit command failed: $line"
done
[ "$(pg_q "SELECT count(*) FROM runs WHERE tag = 'after-boot'")" = 1 ] ||
	fail "the units' run did not reach the shared store once"

note "libpq's TLS options pass through"
cs 2 runs --db "$PG_URL&sslmode=bogus"
contains "$ERR" "sslmode"
if ! command -v openssl >/dev/null 2>&1; then
	skip_case "TLS connection: openssl is not installed"
else
	port=$(python3 -c 'import socket; s = socket.socket();
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	tls_dir=$(tests/pg-cluster.sh start --tls "$port") ||
		fail "cannot start a TLS server"
	PG_STARTED="$PG_STARTED $tls_dir"
	tls_url="postgresql://localhost:$port/postgres"
	# the server takes TLS connections only
	cs 0 run sys.null --quick --db \
		"$tls_url?sslmode=verify-full&sslrootcert=$tls_dir/server.crt"
	contains "$OUT" "stored as run 1"
	cs 2 runs --db "$tls_url?sslmode=disable"
	contains "$ERR" "no encryption"
	cs 2 runs --db "$tls_url?sslmode=verify-full&sslrootcert=$TMP/none.crt"
	contains "$ERR" "none.crt"
fi

echo "test_lab: ok"
