#!/bin/sh
# test_store.sh - the result store through `run`, `runs` and `show`: tags,
# status, show by id and 'last', bad run ids, --no-store, --db and
# COPYSCOPE_DB.
. "$(dirname "$0")/lib.sh"

note "two tagged runs"
cs 0 run sys.null --quick --tag a
contains "$OUT" "stored as run 1"
cs 0 run sys.null call=getppid --quick --tag b
contains "$OUT" "stored as run 2"
[ -f "$COPYSCOPE_DB" ] || fail "COPYSCOPE_DB ($COPYSCOPE_DB) was not created"

note "runs lists both with tags and status complete"
cs 0 runs
contains_re "$OUT" '^ +1 +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]+ +complete +a '
contains_re "$OUT" '^ +2 +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]+ +complete +b '
contains "$OUT" "run sys.null --quick --tag a"
contains "$OUT" "call=getppid"
[ "$(count_runs)" -eq 2 ] || fail "expected 2 runs, got $(count_runs)"

note "show 1: header, results table, environment"
cs 0 show 1
contains_re "$OUT" '^run 1 +complete +tag a '
contains_re "$OUT" '^sys\.null +call=gettid'
contains_re "$OUT" '^ +time/call +[0-9.]+ (ps|ns|us|ms|s) .* 3$'
contains_re "$OUT" '^ +cycles/call +[0-9.]+ '
contains_re "$OUT" '^environment:'
kernel=$(uname -r)
contains_re "$OUT" "^kernel\.release +$kernel\$"
# the run options, typed, on their own line (not environment strings)
contains_re "$OUT" '^options: 3 samples of >= 10ms after 0ms warm-up; cpus '
grep -q '^run\.reps' "$OUT" && fail "the run options are in the environment"
# every allowed CPU, in ranges as the kernel lists them (and --cpus reads)
cpus=$(sed -n 's/^options: .*; cpus \([0-9,-]*\).*/\1/p' "$OUT")
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
[ -n "$allowed" ] || fail "no Cpus_allowed_list in /proc/self/status"
[ "$cpus" = "$allowed" ] || fail "the run's cpus are '$cpus', not '$allowed'"
cs 0 show 1 --json
python3 - "$OUT" "$allowed" <<'PY' || fail "show --json: run.options wrong"
import json, sys
o = json.load(open(sys.argv[1]))["run"]["options"]
assert o["reps"] == 3 and o["sample_time_ns"] == 10000000, o
assert o["warmup_ns"] == 0 and o["cpus"] == sys.argv[2], o
assert o["interleave_seed"] is None and o["hist"] is False, o
PY
grep -q 'call=getppid' "$OUT" && fail "show 1 shows run 2's results"

note "show 1 --no-env leaves the environment out"
cs 0 show 1 --no-env
contains_re "$OUT" '^ +time/call '
grep -q '^environment:' "$OUT" && fail "--no-env printed the environment"

note "show last is run 2"
cs 0 show last
contains_re "$OUT" '^run 2 +complete +tag b '
contains_re "$OUT" '^sys\.null +call=getppid'

note "show 999 / show abc / show with no run: exit 2"
cs 2 show 999
contains "$ERR" "999"
[ -s "$OUT" ] && fail "show 999 printed on stdout"
cs 2 show abc
contains "$ERR" "abc"
cs 2 show 0
cs 2 show -- -1
cs 2 show

note "--no-store leaves the run count unchanged"
cs 0 run sys.null --quick --no-store
grep -q 'stored as run' "$OUT" && fail "--no-store says it stored the run"
contains_re "$OUT" '^ +time/call '
[ "$(count_runs)" -eq 2 ] || fail "--no-store changed the run count to $(count_runs)"

note "--db PATH: a second database, COPYSCOPE_DB untouched"
other="$TMP/other dir/x.db"
# a named database's directory must exist (only the default's is made)
cs 2 run sys.null --quick --tag other --db "$other"
contains "$ERR" "no directory '$TMP/other dir'"
mkdir "$TMP/other dir"
cs 0 run sys.null --quick --tag other --db "$other"
contains "$OUT" "stored as run 1"
contains "$OUT" "$other"
[ -f "$other" ] || fail "--db '$other' was not created"
[ "$(count_runs --db "$other")" -eq 1 ] || fail "--db: expected 1 run there"
contains_re "$TMP/runs.out" ' complete +other '
[ "$(count_runs)" -eq 2 ] || fail "--db run went into COPYSCOPE_DB too"
cs 0 show 1 --db "$other"
contains_re "$OUT" '^run 1 +complete +tag other '

note "COPYSCOPE_DB is respected, --db wins over it"
expect_exit 0 env COPYSCOPE_DB="$TMP/env.db" "$BIN" run sys.null --quick --tag viaenv
contains "$OUT" "$TMP/env.db"
[ -f "$TMP/env.db" ] || fail "COPYSCOPE_DB=$TMP/env.db was not created"
expect_exit 0 env COPYSCOPE_DB="$TMP/env.db" "$BIN" runs
contains "$OUT" "viaenv"
expect_exit 0 env COPYSCOPE_DB="$TMP/env.db" "$BIN" runs --db "$other"
contains "$OUT" " other "
grep -q viaenv "$OUT" && fail "runs --db listed COPYSCOPE_DB's runs"

note "without COPYSCOPE_DB: \$XDG_DATA_HOME/copyscope/results.db"
(unset COPYSCOPE_DB; expect_exit 0 "$BIN" run sys.null --quick --tag xdg) ||
	exit 1
[ -f "$XDG_DATA_HOME/copyscope/results.db" ] ||
	fail "no database at \$XDG_DATA_HOME/copyscope/results.db"
[ "$(count_runs)" -eq 2 ] || fail "the XDG run went into COPYSCOPE_DB"

note "all of it is still in the first database"
cs 0 runs
contains_re "$OUT" ' complete +a '
contains_re "$OUT" ' complete +b '

note "reading commands never create a database"
cs 2 runs --db "$TMP/typo/x.db"
contains "$ERR" "no database at '$TMP/typo/x.db'"
cs 2 show 1 --db "$TMP/typo/x.db"
cs 2 compare 1 2 --db "$TMP/typo/x.db"
[ -e "$TMP/typo" ] && fail "a reading command created $TMP/typo"
env -u COPYSCOPE_DB XDG_DATA_HOME="$TMP/fresh" "$BIN" runs >"$OUT" 2>"$ERR" ||
	fail "runs on a machine with no database: exit $?"
contains "$OUT" "no runs stored in $TMP/fresh/copyscope/results.db"
[ -e "$TMP/fresh" ] && fail "runs created the default database"
note "a version-2 file without runs.group_id (development builds) migrates"
cp "$COPYSCOPE_DB" "$TMP/v2.db"
# (a version-2 file: without the columns versions 3 and 4 added, the
# indexes of version 5, the table of version 6 and the columns of 7 and 8)
sqlite3 "$TMP/v2.db" "DROP INDEX runs_host_started;
DROP INDEX environment_key_value; DROP INDEX results_config;
ALTER TABLE environment DROP COLUMN seq;
ALTER TABLE runs DROP COLUMN kernel_views; DROP TABLE observations;
ALTER TABLE runs DROP COLUMN hw_counters;
ALTER TABLE runs DROP COLUMN fresh_workers;
ALTER TABLE runs DROP COLUMN group_id; PRAGMA user_version = 2;" ||
	fail "cannot make a version-2 file"
cs 0 show 1 --db "$TMP/v2.db"
contains "$OUT" "sys.null"
cs 0 run sys.null --quick --tag after --db "$TMP/v2.db"
[ "$(sqlite3 "$TMP/v2.db" 'PRAGMA user_version')" -ge 3 ] ||
	fail "the version-2 file was not migrated"
sqlite3 "$TMP/v2.db" "SELECT group_id FROM runs LIMIT 1" >/dev/null ||
	fail "runs.group_id missing after the migration"
exit 0
