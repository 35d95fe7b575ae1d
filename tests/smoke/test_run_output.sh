#!/bin/sh
# test_run_output.sh - how much `run` prints (#24 item 7): --runs N prints
# one table of the runs' medians (mean ± sd, min .. max, N per metric), not
# every run in full (-v does both); `runs --last N` lists only the N newest
# runs.  The suites' one line per configuration: test_suites.sh.
. "$(dirname "$0")/lib.sh"

Q="--reps 3 --sample-time 5ms --warmup 0"

note "run --runs 3: one table across the runs"
cs 0 run sys.null pipe.bw size=4k,64k $Q --runs 3 --tag g
contains "$OUT" "the runs' medians: mean ± sd (% of the mean), min .. max, over N runs"
contains_re "$OUT" '^  time/call +[0-9.]+ [mun]?s ± [0-9.]+% +[0-9.]+ \.\. [0-9.]+ [mun]?s +3$'
# pipe.bw's headline is withheld in runs a loaded machine disturbed
# (exit 4, a skipped part): then its rows are not over 3 runs
if [ "$LAST_RC" -eq 0 ]; then
	contains_re "$OUT" '^  bandwidth +[0-9.]+ [KMG]iB/s ± [0-9.]+% +[0-9.]+ \.\. [0-9.]+ [KMG]iB/s +3$'
	[ "$(grep -c '^  bandwidth ' "$OUT")" -eq 2 ] ||
		fail "expected a bandwidth line per pipe.bw size"
fi
# the runs' own tables are not printed
not_contains "$OUT" "95% CI of median"
not_contains "$OUT" "outside load"
contains_re "$OUT" '^3 of 3 runs stored as group [0-9a-f]+: [0-9]+, [0-9]+, [0-9]+$'
[ "$(wc -l <"$OUT")" -le 25 ] || fail "run --runs 3 printed $(wc -l <"$OUT") lines"

note "run --runs 2 -v: every run in full, then the table"
cs 0 run sys.null $Q --runs 2 -v --tag g
[ "$(grep -c '^copyscope run [0-9]' "$OUT")" -eq 2 ] ||
	fail "-v: expected both runs' own output"
contains "$OUT" "the runs' medians: mean ± sd"

note "runs --last N: the N newest, oldest first"
cs 0 runs --last 2
[ "$(grep -cE '^ +[0-9]+  20' "$OUT")" -eq 2 ] || fail "expected 2 runs"
contains_re "$OUT" '^ +4  20'
contains_re "$OUT" '^ +5  20'
not_contains "$OUT" "   3  20"
cs 0 runs g --last 1
contains_re "$OUT" '^ +5  20'
cs 2 runs --last 0
contains "$ERR" "--last"
exit 0
