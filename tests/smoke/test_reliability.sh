#!/bin/sh
# test_reliability.sh - the reproducers of what once went wrong, each as it
# must behave now: concurrent runs into a new database all stored; tags
# and paths that are not UTF-8 or hold control characters; --ignore-param
# names that match nothing; messages that said the wrong thing; duplicate
# parameters and CPUs; another program's SQLite file left untouched; an
# unusable default database; SIGHUP and a closed stdout marking the run
# interrupted.  docs/reliability.md lists them with the rest.
. "$(dirname "$0")/lib.sh"
need_python
need_sqlite3

QUICK="--reps 1 --sample-time 1ms --warmup 0"

# status_of ID [--db PATH]: the status column of a run in `runs`.
status_of() {
	_id=$1
	shift
	"$BIN" runs "$@" | awk -v id="$_id" '$1 == id { print $4 }'
}

note "8 runs started at once into a new database: all 8 stored"
for round in 1 2 3; do
	db="$TMP/new$round.db"
	pids=""
	for k in 1 2 3 4 5 6 7 8; do
		"$BIN" run sys.null $QUICK --db "$db" >"$TMP/c$k.out" \
			2>"$TMP/c$k.err" &
		pids="$pids $!"
	done
	k=0
	for p in $pids; do
		k=$((k + 1))
		wait "$p" || {
			cp "$TMP/c$k.err" "$ERR"
			LAST_CMD="run sys.null (concurrent $k)"
			fail "concurrent run $k of round $round failed"
		}
	done
	[ "$(count_runs --db "$db")" -eq 8 ] ||
		fail "round $round: $(count_runs --db "$db") of 8 runs stored"
done

note "tags: control characters and bytes that are not UTF-8 are refused"
cs 0 run sys.null $QUICK --tag ok
for tag in "$(printf 'a\nb')" "$(printf 'x\033[31my')" "$(printf '\377\376')" \
	"$(printf 'tab\there')"; do
	cs 2 run sys.null $QUICK --tag "$tag"
	contains "$ERR" "is not valid UTF-8 text without control characters"
	cs 2 check ok --tag "$tag" --new ok
done
[ "$(count_runs)" -eq 1 ] || fail "a refused tag stored a run"

note "a --db path that is not UTF-8: run --json stays complete and valid"
bad=$(printf '%s/\377bad.db' "$TMP")
cs 0 run sys.null $QUICK --db "$bad" --json
python3 - "$OUT" <<'PY' || fail "run --json with a non-UTF-8 path"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["run"] is not None and d["run"]["id"] == 1, d["run"]
assert "\\xff" in d["run"]["cmdline"], d["run"]["cmdline"]
assert len(d["results"]) == 2
PY
cs 0 show 1 --db "$bad" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["run"] and "\\xff" in d["run"]["cmdline"]' "$OUT" ||
	fail "show --json with a non-UTF-8 path"
nl=$(printf '%s/new\nline.db' "$TMP")
cs 0 run sys.null $QUICK --db "$nl"
contains "$OUT" 'new\x0aline.db'
cs 0 runs --db "$nl"
[ "$(grep -c . "$OUT")" -eq 3 ] || fail "runs: a newline in the command line broke the layout"

note "--ignore-param: a name no result has, or an empty one: exit 2"
cs 2 compare ok ok --ignore-param nosuch
contains "$ERR" "no result of either side has a parameter 'nosuch'"
cs 2 compare ok ok --ignore-param inject_n
contains "$ERR" "did you mean 'inject_ns'?"
for v in "" "," "inject_ns," ",inject_ns" "a,,b"; do
	cs 2 compare ok ok --ignore-param "$v"
	contains "$ERR" "empty parameter name"
done
cs 2 check ok --new ok --ignore-param nosuch
cs 0 compare ok ok --ignore-param inject_ns

note "duplicate keys and CPUs are refused, not silently folded"
cs 2 run sys.null call=gettid call=getppid --no-store
contains "$ERR" "call is given twice"
cs 2 run pipe.bw --cpus 0,0 --no-store
contains "$ERR" "CPU 0 is listed twice"

note "another program's SQLite file: refused, not changed"
other="$TMP/other.db"
sqlite3 "$other" "CREATE TABLE t (x); INSERT INTO t VALUES (1);"
sum0=$(cksum <"$other")
cs 2 runs --db "$other"
contains "$ERR" "not a copyscope database"
cs 2 run sys.null $QUICK --db "$other"
[ "$(cksum <"$other")" = "$sum0" ] || fail "$other was changed"
[ "$(sqlite3 "$other" .tables)" = "t" ] || fail "tables were added to $other"

note "an unusable default database: exit 2, saying how to name another"
mkdir -p "$TMP/ro/copyscope"
touch "$TMP/ro/copyscope/results.db"
chmod 000 "$TMP/ro/copyscope/results.db"
if [ -r "$TMP/ro/copyscope/results.db" ]; then
	skip_case "root reads a mode 000 file: the unusable default database is untested here"
else
	XDG_DATA_HOME="$TMP/ro" COPYSCOPE_DB= expect_exit 2 "$BIN" run sys.null $QUICK
	contains "$ERR" "the default database: pass --db PATH or set COPYSCOPE_DB"
fi
mkdir -p "$TMP/dir/copyscope/results.db"
XDG_DATA_HOME="$TMP/dir" COPYSCOPE_DB= expect_exit 2 "$BIN" run sys.null $QUICK
contains "$ERR" "the default database"

note "interrupted without storing: the message says nothing was stored"
# SIGINT once the run measures (its progress line on a terminal shows it)
start_tty "$OUT" "$ERR" "$BIN" run pipe.bw size=4k,64k --reps 50 --no-store
wait_for 30 log_shows "$ERR" "pipe.bw: " "$CMD_PID"
kill -INT "$CMD_PID"
wait "$TTY_PID"
rc=$?
[ "$rc" -eq 130 ] || fail "--no-store run after SIGINT: exit $rc"
contains "$ERR" "nothing stored (--no-store)"
not_contains "$ERR" "results so far stored"

note "SIGHUP: the run is stored as interrupted, exit 130"
n0=$(count_runs)
"$BIN" run pipe.bw size=4k,64k --reps 50 >"$OUT" 2>"$ERR" &
pid=$!
id=$((n0 + 1))
# is_running ID: run ID is stored as 'running'
is_running() {
	[ "$(status_of "$1")" = running ]
}
wait_for 30 is_running "$id"
kill -HUP "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "SIGHUP: exit $rc"
[ "$(status_of $id)" = interrupted ] ||
	fail "SIGHUP: run $id is '$(status_of $id)', not interrupted"

note "a closed stdout (| head -1): the run is stored as interrupted"
"$BIN" run sys.null pipe.bw size=4k,64k,1M --reps 5 2>"$ERR" | head -n 1 \
	>"$OUT"
id=$((id + 1))
[ "$(status_of $id)" = interrupted ] ||
	fail "| head -1: run $id is '$(status_of $id)', not interrupted"
contains "$ERR" "Broken pipe"

note "a database at schema version 0 holding copyscope-looking tables"
v0="$TMP/v0.db"
sqlite3 "$v0" "CREATE TABLE runs (id INTEGER PRIMARY KEY);"
cs 2 runs --db "$v0"
contains "$ERR" "not a copyscope database"
not_contains "$ERR" "CREATE TABLE"
exit 0
