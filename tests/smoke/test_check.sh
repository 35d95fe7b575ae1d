#!/bin/sh
# test_check.sh - `check BASE`: reruns BASE's configurations (same reps,
# sample time and parameters) as a run tagged 'check' and exits 0 when
# nothing got worse; exits 3 against a run slowed by spin_ns (about 25% of
# the call, testing only: check's 5% threshold must be cleared with room
# for this VM's 2-15% run-to-run drift; compare's ~10% detection is
# test_compare.sh's), printing the offending row; 1 when nothing can be
# checked; 2 on bad input.
#
# As in test_compare.sh, the statistical checks take up to 5 (A/A) or 4
# fresh tries on this noisy VM and fail only when none behaves.
. "$(dirname "$0")/lib.sh"
need_python

RUN="run sys.null --reps 10 --sample-time 20ms"

# expect_exit_any cmd...: like expect_exit, but any exit status is fine
# (the caller looks at $LAST_RC).
expect_exit_any() {
	LAST_CMD="$*"
	"$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
	return 0
}

run_id() {
	sed -n 's/^stored as run \([0-9]*\) .*/\1/p' "$OUT"
}

note "check BASE: measures again, stores a 'check' run, exit 0 on A/A"
cs 0 $RUN --tag base
BASE_ID=$(run_id)
ok=0
for try in 1 2 3 4 5; do
	expect_exit_any "$BIN" check base
	if [ "$LAST_RC" -eq 0 ]; then
		ok=1
		break
	fi
	[ "$LAST_RC" -eq 3 ] || fail "check base: exit $LAST_RC"
	note "A/A check $try flagged a regression: $(grep worse "$OUT")"
done
[ $ok -eq 1 ] || fail "5 A/A checks in a row reported a regression"
contains "$OUT" "copyscope check"
contains "$OUT" "base: tag base (run $BASE_ID; 1 boot)"
contains_re "$OUT" "new:  tag check \(run [0-9]+; 1 boot\)"
contains_re "$OUT" '^check: ok: none of 2 metrics worse by more than 5% '
contains "$ERR" "measuring 1 configuration of BASE again (10 samples each)"
# the new run: same workload, parameters and reps, tagged check
cs 0 runs
contains_re "$OUT" ' complete +check +'
contains "$OUT" "copyscope check base"
cs 0 compare base check --json
python3 - "$OUT" <<'PY' || fail "the check run does not repeat BASE"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["rows"]) == 2 and not d["only_base"] and not d["only_new"]
for r in d["rows"]:
    assert r["new"]["n"] == 10 * len(d["new"]["runs"]), r["new"]["n"]
    assert r["params"] == {"call": "gettid", "spin_ns": "0", "trace": "0"}
PY

note "check BASE --new RUN: exit 3 on a slowdown of ~25%, the row shown"
cs 0 show "$BASE_ID" --json
cost=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print([r["summary"]["median"] for r in d["results"]
       if r["metric"] == "time/call"][0])' "$OUT") || fail "no median"
spin=$(python3 -c "print(max(1, round($cost * 0.25)))")
ok=0
for try in 1 2 3 4; do
	cs 0 $RUN --tag a$try
	cs 0 $RUN spin_ns=${spin}ns --tag b$try
	expect_exit_any "$BIN" check a$try --new b$try --ignore-param spin_ns
	if [ "$LAST_RC" -eq 3 ]; then
		ok=1
		break
	fi
	[ "$LAST_RC" -eq 0 ] || fail "check a$try --new b$try: exit $LAST_RC"
	note "spin_ns=${spin}ns not flagged in try $try"
done
[ $ok -eq 1 ] || fail "check never exited 3 on spin_ns=${spin}ns"
contains_re "$OUT" "^sys\.null +call=gettid +spin_ns=0->${spin}ns"
contains_re "$OUT" '^  time/call .* worse$'
contains_re "$OUT" '^check: REGRESSION: [12] of 2 metrics worse by more than 5% \(p < 0.05\)'
# a threshold above the slowdown: not a regression
cs 0 check a$try --new b$try --ignore-param spin_ns --threshold 500%
contains "$OUT" "check: ok:"
not_contains "$OUT" "time/call"
# direction: the same pair the other way round is better, not worse
cs 0 check b$try --new a$try --ignore-param spin_ns
contains_re "$OUT" '^[0-9]+ compared: 0 worse, [12] better'
# --json carries the verdicts and keeps the exit status
cs 3 check a$try --new b$try --ignore-param spin_ns --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert any(r["verdict"] == "worse" for r in d["rows"])' "$OUT" ||
	fail "check --json lacks the worse row"

note "filters: a workload BASE lacks is an error (exit 1)"
cs 1 check base pipe.bw
contains "$ERR" "BASE has no results of the named workloads"
cs 1 check base pipe.bw --new b1
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
