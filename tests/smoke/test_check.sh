#!/bin/sh
# test_check.sh - `check BASE`: reruns BASE's configurations (same reps,
# sample time, CPUs and parameters) as a run tagged 'check' and compares;
# exits 0 when nothing got worse beyond the threshold, 3 on a regression
# (printing the offending row), 1 when nothing can be checked, 2 on bad
# input.
#
# The exit 0 / 3 decisions are checked on data with a known answer (the
# samples of measured runs replaced by seeded values: inject, lib.sh); the
# run that check measures itself is checked for what it repeats, not for
# its verdict, which on this noisy VM is a matter of chance.
. "$(dirname "$0")/lib.sh"
need_python
need_sqlite3

RUN="run sys.null --reps 10 --sample-time 20ms"

# expect_exit_any cmd...: like expect_exit, but any exit status is fine
# (the caller looks at $LAST_RC).
expect_exit_any() {
	LAST_CMD="$*"
	"$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
	return 0
}

note "check BASE: measures again with BASE's options, stores a 'check' run"
cs 0 $RUN --cpus 0 --tag base
BASE_ID=$(run_id)
expect_exit_any "$BIN" check base
[ "$LAST_RC" -eq 0 ] || [ "$LAST_RC" -eq 3 ] ||
	fail "check base: exit $LAST_RC"
contains "$OUT" "copyscope check"
contains "$OUT" "base: tag base (run $BASE_ID; 1 boot)"
contains_re "$OUT" "new:  tag check \(run [0-9]+; 1 boot\)"
contains_re "$OUT" '^check: (ok: none of 2 metrics|REGRESSION: [12] of 2 metrics) worse by more than 5% '
contains "$ERR" "measuring 1 configuration of BASE again (10 samples each, 1 run)"
# the new run: same workload, parameters, reps, sample time and CPUs
cs 0 runs
contains_re "$OUT" ' complete +check +'
contains "$OUT" "copyscope check base"
cs 0 show last --json
python3 - "$OUT" <<'PY' || fail "the check run does not repeat BASE"
import json, sys
d = json.load(open(sys.argv[1]))
o = d["run"]["options"]
assert o["reps"] == 10 and o["sample_time_ns"] == 20000000, o
assert o["cpus"] == "0", o
assert d["run"]["tag"] == "check"
for r in d["results"]:
    assert r["params"] == {"call": "gettid", "inject_ns": "0", "trace": "0"}
    assert len(r["samples"]) == 10
PY

note "check BASE --new RUN: exit 3 on a 10% slowdown, the row shown"
for side in a:1:100 b:2:110; do
	tag=${side%%:*}
	rest=${side#*:}
	seed=${rest%%:*}
	median=${rest#*:}
	if [ "$tag" = b ]; then
		cs 0 $RUN inject_ns=30ns --tag "$tag"
	else
		cs 0 $RUN --tag "$tag"
	fi
	id=$(run_id)
	inject "$id" time/call "$seed" "$median"
	inject "$id" cycles/call "$seed" "$median"
done
cs 3 check a --new b --ignore-param inject_ns
contains_re "$OUT" "^sys\.null +call=gettid +inject_ns=0->30ns"
contains_re "$OUT" '^  time/call .* worse$'
contains_re "$OUT" '^check: REGRESSION: 2 of 2 metrics worse by more than 5% \(p < 0.05\)'
# a threshold above the slowdown: not a regression
cs 0 check a --new b --ignore-param inject_ns --threshold 15%
contains "$OUT" "check: ok:"
not_contains "$OUT" "time/call"
# direction: the same pair the other way round is better, not worse
cs 0 check b --new a --ignore-param inject_ns
contains_re "$OUT" '^[0-9]+ compared: 0 worse, 2 better'
# --json carries the verdicts and keeps the exit status
cs 3 check a --new b --ignore-param inject_ns --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert any(r["verdict"] == "worse" for r in d["rows"])' "$OUT" ||
	fail "check --json lacks the worse row"

note "check of a BASE of 3 runs measures 3 runs, compared run by run"
cs 0 run sys.null --reps 3 --sample-time 5ms --warmup 0 --runs 3 --tag base3
expect_exit_any "$BIN" check base3
[ "$LAST_RC" -eq 0 ] || [ "$LAST_RC" -eq 3 ] || fail "check base3: exit $LAST_RC"
contains "$ERR" "(3 samples each, 3 runs)"
contains_flat "$OUT" "p over runs (at least 3 on each side): Welch's t test"
contains_re "$OUT" "new:  tag check \(runs [0-9]+, [0-9]+, [0-9]+; 1 boot\)"
cs 2 check base3 --runs 0
cs 2 check base3 --new base3 --runs 2

note "filters: a workload BASE lacks is an error (exit 1)"
cs 1 check base pipe.bw
contains "$ERR" "BASE has no results of the named workloads"
cs 1 check base pipe.bw --new b
contains "$ERR" "nothing was checked"

note "bad input: exit 2"
cs 2 check
cs 2 check no-such-tag
cs 2 check base --threshold lots
cs 2 check base no.such.workload
cs 2 check base --new 1 --reps 3
cs 2 check base --tag 7
contains "$ERR" "--tag: '7'"
exit 0
