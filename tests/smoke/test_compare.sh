#!/bin/sh
# test_compare.sh - `compare`: one run a side gets no verdict ('?', cannot
# tell, with why), nor do 3 samples against 3; judged over samples
# (--by-sample) an A/A pair of sys.null runs is '~' on every row, a 10%
# slowdown is 'worse' with p < 0.05 (and the other way round 'better'),
# counted once for time and cycles; environment differences and a build flavour mismatch are
# listed; rows on one side only; --json and --csv; pipe.bw tables; run
# --interleave records a seeded order; every sample carries its
# interference record.
#
# The statistics are checked on data with a known answer: the runs are
# measured for real (so everything else they store is real), then
# exported, the samples of their metrics replaced by values drawn from a
# seeded generator, and imported (stage, made_import: lib.sh).  Real A/A and A/B pairs on a noisy shared VM
# drift by 2-15% between runs (docs/comparing.md), so a test on fresh
# measurements could only pass by retrying; tests/unit/test_comparison.c
# checks the engine the same way without the command line.
. "$(dirname "$0")/lib.sh"
need_python

RUN="run sys.null --reps 10 --sample-time 20ms"

# verdicts FILE: "metric verdict p" per compared row of compare --csv.
verdicts() {
	python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["side"] == "both":
        print(r["metric"], r["verdict"], r["p"], r["change_pct"])
PY
}

# measured TAG SEED MEDIAN [k=v...]: a real run of sys.null, imported with
# its samples replaced (seed SEED, time/call around MEDIAN ns; cycles/call
# 2.3 times that); LAST_ID is its id.  $OUT keeps what the run printed.
measured() {
	_tag=$1
	_seed=$2
	_median=$3
	shift 3
	stage $RUN "$@" --tag "$_tag"
	made_gauss time/call "$_seed" "$_median"
	made_gauss cycles/call "$_seed" "$(python3 -c "print($_median*2.3)")"
	made_import
	LAST_ID=$MADE_ID
}

note "A/A: two runs of the same configuration compare as '~'"
measured aa-a 1 100
AA_ID=$LAST_ID
measured aa-b 2 100
cs 0 compare aa-a aa-b --by-sample
cp "$OUT" "$TMP/aa.txt"
contains "$OUT" "base: tag aa-a (run"
contains_re "$OUT" '^  metric +base +±sd +%change +new +±sd +unit +p '
contains_re "$OUT" '^  time/call +[0-9.]+ +±[0-9]+% +[-+][0-9.]+% '
grep -E -q ' (worse|better)$' "$TMP/aa.txt" && fail "A/A text has a verdict"
cs 0 compare aa-a aa-b --csv --by-sample
verdicts "$OUT" >"$TMP/v"
[ "$(wc -l <"$TMP/v")" -eq 2 ] || fail "A/A: expected 2 rows: $(cat "$TMP/v")"
grep -v ' same ' "$TMP/v" && fail "A/A: a verdict: $(cat "$TMP/v")"
AA_BASE=aa-a
AA_NEW=aa-b

note "A/B: 10% slower is 'worse' with p < 0.05, the reverse 'better'"
measured ab-a 3 100
measured ab-b 4 110 inject_ns=30ns
contains_flat "$OUT" "inject delivered "
contains_flat "$OUT" "(asked 30ns: "
cs 0 compare ab-a ab-b --ignore-param inject_ns --csv --by-sample
verdicts "$OUT" >"$TMP/v"
python3 - "$TMP/v" <<'PY' || fail "A/B not detected: $(cat "$TMP/v")"
import sys
rows = dict((l.split()[0], l.split()[1:]) for l in open(sys.argv[1]))
for m in ("time/call", "cycles/call"):
    v, p, chg = rows[m]
    assert v == "worse" and float(p) < 0.05 and 5 < float(chg) < 15, rows
PY
cs 0 compare ab-b ab-a --ignore-param inject_ns --by-sample
contains_re "$OUT" '^  time/call .* better$'
AB_BASE=ab-a
AB_NEW=ab-b
cs 0 compare "$AB_BASE" "$AB_NEW" --ignore-param inject_ns --by-sample
contains_re "$OUT" "^sys\.null +call=gettid +inject_ns=0->30ns"
contains_re "$OUT" '^  time/call .* worse$'
contains_flat "$OUT" "the same reading as time/call: counted once"
contains_re "$OUT" '^[0-9]+ compared: 1 worse'
# without --ignore-param the configurations differ: one side each, and
# nothing compared is a usage error that names the parameter (exit 2)
cs 2 compare "$AB_BASE" "$AB_NEW"
contains "$OUT" "only in base:"
contains "$OUT" "only in new:"
contains_re "$OUT" '^0 compared'
contains "$ERR" "they differ in inject_ns: --ignore-param inject_ns"

export AA_BASE AA_NEW AB_BASE AB_NEW

note "--json: valid, with the rows, p-values and verdicts"
cs 0 compare "$AB_BASE" "$AB_NEW" --ignore-param inject_ns --json --by-sample
python3 - "$OUT" <<'PY' || fail "compare --json check failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 1
assert d["base"]["tags"] and d["new"]["tags"]
rows = {r["metric"]: r for r in d["rows"]}
t = rows["time/call"]
assert t["verdict"] == "worse", t["verdict"]
assert t["p"] < 0.05 and t["change_pct"] > 0
lo, hi = t["ci_change_pct"]
assert 0 < lo <= t["change_pct"] <= hi, (lo, hi)
assert t["base"]["n"] == 10 and t["new"]["n"] == 10
assert t["params_new"]["inject_ns"] != t["params"]["inject_ns"]
assert t["direction"] == "lower"
assert d["only_base"] == [] and d["only_new"] == []
PY

note "environment differences: run.reps; no false differences"
cs 0 compare "$AA_BASE" "$AA_NEW"
contains "$OUT" "environment: no differences"
cs 0 run sys.null --reps 9 --sample-time 20ms --tag reps9
cs 0 compare "$AA_BASE" reps9
contains "$OUT" "environment differences (base -> new):"
contains "$OUT" "run.reps: 10 -> 9"
not_contains "$OUT" "boot_id"
not_contains "$OUT" "WARNING"

note "environment differences: the noise settings (ASLR, IRQs, idle, THP)"
# two copies of one run, the machine state set apart: every setting the
# environment stores for noise shows in the diff
restage "$COPYSCOPE_DB" "$AA_ID"
made_env kernel.randomize_va_space 2
made_env kernel.numa_balancing 1
made_env irq.balance running
made_env cpuidle.deepest "C6 (exit latency 170 us)"
made_env thp.defrag always
made_import --new-uuid 7a --tag tuned-a
restage "$COPYSCOPE_DB" "$AA_ID"
made_env kernel.randomize_va_space 0
made_env kernel.numa_balancing 0
made_env irq.balance "not running"
made_env cpuidle.deepest "C1 (exit latency 2 us)"
made_env thp.defrag madvise
made_import --new-uuid 7b --tag tuned-b
cs 0 compare tuned-a tuned-b
contains "$OUT" "kernel.randomize_va_space: 2 -> 0"
contains "$OUT" "kernel.numa_balancing: 1 -> 0"
contains "$OUT" "irq.balance: running -> not running"
contains_flat "$OUT" "cpuidle.deepest: C6 (exit latency 170 us) -> C1 (exit latency 2 us)"
contains "$OUT" "thp.defrag: always -> madvise"
cs 0 show tuned-a
contains_re "$OUT" "^ *kernel.randomize_va_space +2$"
contains_re "$OUT" "^ *irq.on_run_cpus +[0-9]+ of [0-9]+ IRQs may land on CPUs "

note "a sanitizer build against a release build: a loud warning"
if [ -x "$OTHER_FLAVOUR" ]; then
	expect_exit 0 "$OTHER_FLAVOUR" run sys.null --quick --tag san
	cs 0 compare "$AA_BASE" san
	contains "$OUT" "WARNING: the build flavours differ"
	contains_re "$OUT" "copyscope.build_flavour: (release -> sanitize|sanitize -> release)"
	contains "$ERR" "different build flavours"
else
	skip_case "$OTHER_FLAVOUR is not built: the flavour warning is untested"
fi

note "sides: lists of runs and tags, 'last', several runs pooled"
cs 0 compare "$AA_BASE,$AA_NEW" "$AB_BASE"
cp "$OUT" "$TMP/pooled.txt"
cs 0 compare "$AA_BASE,$AA_NEW" "$AB_BASE" --csv
python3 - "$OUT" <<'PY' || fail "pooled side check failed"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["side"] == "both"]
assert rows and all(r["base_n"] == "20" and r["new_n"] == "10"
                    for r in rows), rows
PY
contains_flat "$TMP/pooled.txt" "p and CI over samples"
# three runs or more per side: the run is the unit of the test
for i in 1 2 3; do
	measured r3a $((100 + i)) 100
	measured r3b $((200 + i)) 100
done
cs 0 compare r3a r3b
contains_flat "$OUT" "p over runs (at least 3 on each side): Welch's t test"
contains_flat "$OUT" "no change larger than"
contains_flat "$OUT" "between runs"
cs 0 compare r3a r3b --json
python3 - "$OUT" <<'PY' || fail "run-level comparison check failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["base"]["runs"]) == 3 and len(d["new"]["runs"]) == 3
for r in d["rows"]:
    assert r["unit_of_test"] == "run", r
    assert r["p_method"] == "welch-t-log-run-medians", r
    assert r["base"]["n"] == 30 and r["new"]["n"] == 30
    assert r["verdict"] == "same", r
    assert 0 < r["no_change_beyond_pct"] < 20, r
    assert r["mde_pct"] > 0, r
    assert r["base"]["spread_cv"]["between_runs"] > 0, r
PY
cs 0 compare r3a r3b --target 2%
contains_flat "$OUT" "to see a change of 2% with 80% power:"
cs 2 compare r3a r3b --target 0
cs 2 compare r3a r3b --target lots
cs 0 compare 1,2 last
contains "$OUT" "base: tag aa-a, aa-b (runs 1, 2; 1 boot)"

note "bad sides and options: exit 2"
cs 2 compare "$AA_BASE" no-such-tag
contains "$ERR" "'no-such-tag' is neither a stored run id nor a tag"
cs 2 compare 999 "$AA_BASE"
for side in "1," ",1" "1,,2" ""; do
	cs 2 compare "$side" last
	contains "$ERR" "empty run id or tag in '$side'"
done
cs 2 compare "$AA_BASE"
cs 2 compare a b --alpha 2
cs 2 compare a b --json --csv
cs 2 compare a b --frobnicate

note "pipe.bw: two tagged runs compare into a table with verdicts"
cs 0 run pipe.bw --quick --tag pa
contains "$OUT" "outside load:"
PA_ID=$(run_id)
cs 0 run pipe.bw --quick --tag pb
PB_ID=$(run_id)
cs 0 compare pa pb
contains_re "$OUT" '^pipe\.bw +'
# a run that withheld its headline on this loaded machine counts for
# nothing (docs/methodology.md, "The headline"): then the row says so
grep -E -q '^  bandwidth +[0-9.]+ +(±[0-9]+%|-) +[-+][0-9.]+% .*(~|worse|better|[?])$' "$OUT" ||
	contains_flat "$OUT" "every run's headline was withheld (too many samples had a worker off its CPU): nothing to compare"
contains_re "$OUT" '^[0-9]+ compared: '

note "--drop-noisy with every sample of a side flagged: 'empty', never 0"
# copies of the two runs (exported, crafted, imported as runs of their
# own): pb's with every sample flagged, and pa's with none: on a loaded
# machine (or under ASan) every real sample may have been flagged, which
# would empty the base side too
restage "$COPYSCOPE_DB" "$PB_ID"
# "other", not each sample's own reason: samples flagged offcpu would be
# left out by the runs' own headlines before --drop-noisy saw them
made_flags other
made_import --new-uuid 9b --tag pbf
restage "$COPYSCOPE_DB" "$PA_ID"
made_import --new-uuid 9a --tag paf
cs 0 compare paf pbf --drop-noisy
contains_re "$OUT" '^  bandwidth +[0-9.]+ +(±[0-9]+%|-) +- +- +- +[KMG]?i?B/s +- +- +empty$'
contains_flat "$OUT" 'new: every sample was flagged and left out (--drop-noisy): nothing to compare'
contains_re "$OUT" '^[0-9]+ compared: .*, [0-9]+ empty'
cs 0 compare paf pbf --drop-noisy --json
contains "$OUT" '"verdict": "empty"'
cs 1 check paf --new pbf --drop-noisy
contains "$ERR" "could not be checked: every sample of a side was flagged"

note "interference: every kept sample has its record"
cs 0 show "$AA_ID" --json
python3 - "$OUT" <<'PY' || fail "interference record check failed"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    it = r["info"]["interference"]
    n = len(r["samples"])
    for k in ("other_cpu_pct", "steal_pct", "canary_ns", "flagged", "why"):
        assert len(it[k]) == n, (k, it[k])
    assert it["canary_ref_ns"] > 0
    assert all(c > 0 for c in it["canary_ns"])
    assert all(w in ("", "other", "steal", "canary") or "," in w
               for w in it["why"])
    assert all(f == (w != "") for f, w in zip(it["flagged"], it["why"]))
PY

note "run --interleave: a seeded shuffled round-robin, recorded"
cs 0 run sys.null call=gettid,getppid --interleave --seed 42 --quick --json \
	--no-store
python3 - "$OUT" >"$TMP/order1" <<'PY' || fail "interleave order check failed"
import json, sys
d = json.load(open(sys.argv[1]))
orders = {}
for r in d["results"]:
    il = r["info"]["interleave"]
    assert il["seed"] == 42 and il["of"] == 6
    orders[r["params"]["call"]] = il["order"]
allpos = sorted(orders["gettid"] + orders["getppid"])
assert allpos == list(range(6)), orders
# round-robin: each round of 2 samples has one of each configuration
for k in range(3):
    assert sorted([orders["gettid"][k], orders["getppid"][k]]) == \
        [2 * k, 2 * k + 1], orders
print(orders)
PY
cs 0 run sys.null call=gettid,getppid --interleave --seed 42 --quick --json \
	--no-store
python3 - "$OUT" >"$TMP/order2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print({r["params"]["call"]: r["info"]["interleave"]["order"]
       for r in d["results"]})
PY
cmp -s "$TMP/order1" "$TMP/order2" ||
	fail "the same seed gave another order: $(cat "$TMP/order1" "$TMP/order2")"
note "modes: the shares of two modes move, the modes stay: compare says so"
for k in 1 2 3; do
	stage run sys.null --quick --tag mix-a
	made_bimodal time/call "$k" 1000 1500 3
	made_import
	stage run sys.null --quick --tag mix-b
	made_bimodal time/call "$((k + 10))" 1000 1500 7
	made_import
done
cs 0 compare mix-a mix-b
contains_flat "$OUT" "holds 30% of base and 70% of new samples: the shares changed"
contains_flat "$OUT" "Welch's t over the runs' shares"
contains_flat "$OUT" "the median's change comes from the shares, not from either mode"
cs 0 compare mix-a mix-b --json
python3 - "$OUT" <<'PY' || fail "compare --json: modes of the mixture wrong"
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["metric"] == "time/call"][0]
m = r["modes"]
assert m["share_changed"] is True, m
assert abs(m["share_high_base"] - 0.3) < 1e-9 and abs(m["share_high_new"] - 0.7) < 1e-9, m
assert m["p_share_method"] == "welch-t-run-shares", m
assert abs(m["low_change_pct"]) < 2 and abs(m["high_change_pct"]) < 2, m
PY
cs 0 compare mix-a mix-a
contains_flat "$OUT" "no change of the shares"

cs 0 run sys.null call=gettid,getppid --interleave --seed 7 --quick
contains "$OUT" "interleaved: the samples of all configurations"
contains "$OUT" "seed 7"
cs 2 run sys.null --seed 3
contains "$ERR" "--seed: only with --interleave"
note "one run a side: however clear, no verdict, and why (cannot tell)"
# in a store without earlier runs of the configuration (with 5 or more,
# the single run is judged against them: test_history_noise.sh)
KEEP_DB=$COPYSCOPE_DB
COPYSCOPE_DB=$TMP/one.db
measured one-a 11 100
measured one-b 12 150
cs 0 compare one-a one-b
contains_re "$OUT" '^  time/call .* [+]50[.0-9]*% .* [?]$'
contains_flat "$OUT" "?: cannot tell: 1 run a side: the spread between runs is unknown; take --runs 5, or measure the pair with ab"
contains_re "$OUT" '^[0-9]+ compared: 0 worse, 0 better, 0 ~, 0 informational, 1 cannot tell'
cs 0 compare one-a one-b --json
python3 - "$OUT" <<'PY' || fail "compare --json: a single run got a verdict"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["metric"]: r for r in d["rows"]}
assert rows["time/call"]["verdict"] == "cannot tell", rows["time/call"]
assert "1 run a side" in rows["time/call"]["reason"], rows["time/call"]
assert 45 < rows["time/call"]["change_pct"] < 55, rows["time/call"]
assert rows["cycles/call"]["same_reading_as"] == "time/call", rows
PY
COPYSCOPE_DB=$KEEP_DB
note "three samples against three: the test cannot reach p < 0.05"
cs 0 run sys.null --quick --tag q3a
cs 0 run sys.null --quick --tag q3b
cs 0 compare q3a q3b --by-sample
contains_flat "$OUT" "3 samples against 3 cannot reach p < 0.05"
contains_flat "$OUT" "take --reps 4 or more"
exit 0
