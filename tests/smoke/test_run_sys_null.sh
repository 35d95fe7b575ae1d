#!/bin/sh
# test_run_sys_null.sh - `run sys.null`: the table, the stored run, the
# cold-call trace and call=getppid.
. "$(dirname "$0")/lib.sh"

note "run sys.null --quick"
cs 0 run sys.null --quick
contains_re "$OUT" '^timer: '
# the noise line names what this machine shows, and only that
if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" = 0 ]; then
	not_contains "$OUT" "ASLR on"
elif [ -r /proc/sys/kernel/randomize_va_space ]; then
	contains_re "$OUT" '^noise sources: .*ASLR on'
fi
if [ "$(cat /sys/devices/system/cpu/smt/active 2>/dev/null)" = 1 ]; then
	contains_re "$OUT" '^noise sources: .*SMT on'
else
	not_contains "$OUT" "SMT on"
fi
contains_re "$OUT" '^sys\.null +call=gettid'
# a time/call row with a value, a unit and n == 3
contains_re "$OUT" '^ +time/call +[0-9.]+ (ps|ns|us|ms|s) .* 3$'
contains_re "$OUT" '^ +cycles/call +[0-9.]+ .* 3$'
contains "$OUT" "stored as run 1"
contains "$OUT" "$COPYSCOPE_DB"
contains "$OUT" "caller cpu"
[ -f "$COPYSCOPE_DB" ] || fail "no database at $COPYSCOPE_DB after a stored run"

note "run sys.null trace=10 --quick: cold calls #1 .. #10"
cs 0 run sys.null trace=10 --quick
contains_re "$OUT" '^sys\.null +.*trace=10'
contains_flat "$OUT" "cold calls in a fresh process"
flat "$OUT" >"$TMP/flat"
i=1
while [ $i -le 10 ]; do
	grep -E -q "#$i [0-9.]+ (ps|ns|us|ms|s)( |;|$)" "$TMP/flat" ||
		fail "cold-call trace lacks call #$i with a time"
	i=$((i + 1))
done
grep -q '#11 ' "$TMP/flat" && fail "trace=10 shows a call #11"
contains "$OUT" "stored as run 2"

note "run sys.null call=getppid --quick"
cs 0 run sys.null call=getppid --quick
contains_re "$OUT" '^sys\.null +call=getppid'
contains_re "$OUT" '^ +time/call +[0-9.]+ (ps|ns|us|ms|s) .* 3$'
contains "$OUT" "stored as run 3"

note "the three runs are stored, complete"
[ "$(count_runs)" -eq 3 ] || fail "expected 3 stored runs, got $(count_runs)"
[ "$(grep -c ' complete ' "$TMP/runs.out")" -eq 3 ] ||
	fail "not all runs are 'complete': $(cat "$TMP/runs.out")"
exit 0
