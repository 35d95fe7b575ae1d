#!/bin/sh
# test_check.sh - `check BASE`: reruns BASE's configurations (same reps,
# sample time, CPUs and parameters) as a run tagged 'check' and compares;
# exits 0 when nothing got worse beyond the threshold, 3 on a regression
# (printing the offending row), 4 when it cannot tell (one run a side: the
# spread between runs is unknown), 1 when nothing can be checked, 2 on bad
# input.  Single runs are judged over samples only with --by-sample; the
# time and cycles of one timed window count as one metric.
#
# Every exit 0 / 3 decision is checked on data with a known answer: the
# samples of measured runs are replaced by seeded values in their export
# files, which are then imported (stage, made_import: lib.sh).
# Where check measures the new run itself, BASE's samples are made a
# thousand times slower (or faster) than sys.null can be on any machine,
# so that the verdict on the new run does not depend on this VM's noise.
. "$(dirname "$0")/lib.sh"
need_python

RUN="run sys.null --reps 10 --sample-time 20ms"

# slow_or_fast MEDIAN_NS: the staged BASE runs imported with their samples
# made seeded values around MEDIAN_NS per call (and as many cycles), far
# from any real one; MADE_ID lists their ids.
slow_or_fast() {
	made_gauss time/call 5 "$1"
	made_gauss cycles/call 6 "$1"
	made_import
}

note "check BASE: measures again with BASE's options, stores a 'check' run"
stage $RUN --cpus 0 --tag base
# BASE at 1 ms a call: the new run is better, nothing got worse
slow_or_fast 1000000
BASE_ID=$MADE_ID
# one run a side: however clear the samples, the spread between runs is
# unknown: cannot tell (exit 4), with the row and what would decide it
cs 4 check base
contains_re "$OUT" '^  time/call .* \?$'
contains_flat "$OUT" "1 run a side: the spread between runs is unknown; take --runs 5"
contains_re "$OUT" '^check: cannot tell: 1 of 2 metrics could not be judged'
not_contains "$OUT" "check: ok"
cs_judged 0 check base --by-sample
contains "$OUT" "copyscope check"
contains "$OUT" "base: tag base (run $BASE_ID; 1 boot)"
contains_re "$OUT" "new:  tag check \(run [0-9]+; 1 boot\)"
if [ "$JUDGED" = 1 ]; then
	contains_re "$OUT" '^check: ok: none of 2 metrics worse by more than 5% '
	contains_re "$OUT" '^[0-9]+ compared: 0 worse, 1 better'
fi
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
		stage $RUN inject_ns=30ns --tag "$tag"
	else
		stage $RUN --tag "$tag"
	fi
	made_gauss time/call "$seed" "$median"
	made_gauss cycles/call "$seed" "$median"
	made_import
done
cs 3 check a --new b --ignore-param inject_ns --by-sample
contains_re "$OUT" "^sys\.null +call=gettid +inject_ns=0->30ns"
contains_re "$OUT" '^  time/call .* worse$'
contains_re "$OUT" '^check: REGRESSION: 1 of 2 metrics worse by more than 5% \(p < 0.05\)'
# a threshold above the slowdown: not a regression
cs 0 check a --new b --ignore-param inject_ns --threshold 15% --by-sample
contains "$OUT" "check: ok:"
# nothing regressed: the rows compared are shown, not only the counts
contains_re "$OUT" '^  time/call .* worse$'
# direction: the same pair the other way round is better, not worse
cs 0 check b --new a --ignore-param inject_ns --by-sample
contains_re "$OUT" '^[0-9]+ compared: 0 worse, 1 better'
# the same samples on both sides: nothing worse, nothing better
stage $RUN --tag same
made_gauss time/call 1 100
made_gauss cycles/call 1 100
made_import
cs 0 check a --new same --by-sample
contains_re "$OUT" '^check: ok: none of 2 metrics worse by more than 5% '
contains_re "$OUT" '^[0-9]+ compared: 0 worse, 0 better'
# --json carries the verdicts and keeps the exit status
cs 3 check a --new b --ignore-param inject_ns --json --by-sample
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert any(r["verdict"] == "worse" for r in d["rows"])' "$OUT" ||
	fail "check --json lacks the worse row"

note "check of a BASE of 3 runs measures 3 runs, compared run by run"
stage run sys.null --reps 3 --sample-time 5ms --warmup 0 --runs 3 --tag base3
# BASE at 0.1 ns a call: the new runs are worse, a regression (exit 3)
slow_or_fast 0.1
cs_judged 3 check base3
if [ "$JUDGED" = 1 ]; then
	contains_re "$OUT" '^check: REGRESSION: 1 of 2 metrics worse by more than 5% '
	contains_re "$OUT" '^  time/call .* worse$'
fi
contains "$ERR" "(3 samples each, 3 runs)"
contains_flat "$OUT" "p over runs (at least 3 on each side): Welch's t test"
contains_re "$OUT" "new:  tag check \(runs [0-9]+, [0-9]+, [0-9]+; 1 boot\)"
cs 2 check base3 --runs 0
cs 2 check base3 --new base3 --runs 2

note "filters: a workload BASE lacks is an error (exit 1)"
cs 1 check base pipe.bw
contains "$ERR" "BASE has no results of the named workloads"
cs 1 check base pipe.bw --new b
contains "$ERR" "nothing compared: BASE and NEW share no"

note "bad input: exit 2"
cs 2 check
cs 2 check no-such-tag
cs 2 check base --threshold lots
cs 2 check base no.such.workload
cs 2 check base --new 1 --reps 3
cs 2 check base --tag 7
contains "$ERR" "--tag: '7'"
exit 0
