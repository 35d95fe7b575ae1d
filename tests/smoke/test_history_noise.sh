#!/bin/sh
# test_history_noise.sh - history as the noise model of a single run: a
# made lab history (tests/smoke/history_series.py: one real short run
# copied, 3% seeded noise on every sample) of 10 runs and then one +10%
# run.  compare and check of single runs judge the newer run against the
# earlier runs of its configuration on its host (a t prediction interval
# on their log medians): the +10% run is worse (check exits 3), a run
# within the spread is '~' (exit 0), the runs that set it are named in
# the text and in the JSON; with only 3 earlier runs the row stays
# "cannot tell" (exit 4) and says that 5 would decide it.
. "$(dirname "$0")/lib.sh"

need_python

note "one real short run, exported, copied 11 times (+10% on the 11th)"
# its samples made seeded values in its export file (stage, made_import:
# lib.sh), so that the copies' medians, and with them the verdicts, do not
# depend on this machine
stage run sys.null --reps 5 --sample-time 20ms
made_gauss time/call 3 100 5
made_gauss cycles/call 4 230 5
COPYSCOPE_DB=$TMP/real.db made_import
cs 0 export last -o "$TMP/real.jsonl" --db "$TMP/real.db"
python3 tests/smoke/history_series.py "$TMP/real.jsonl" "$TMP/h.jsonl" \
	--copies 11 --noise 0.03 --step 0.10 --step-from 11 --seed 7 ||
	fail "history_series.py failed"
cs 0 import "$TMP/h.jsonl" --db "$TMP/h.db"

note "compare 10 11: the +10% run against runs 1..10 is worse"
cs 0 compare 10 11 --db "$TMP/h.db"
contains "$OUT" "worse: history-based: the new run (11) judged against the"
contains_flat "$OUT" "10 earlier runs 1..10 of this configuration on host"
contains "$OUT" "history-based rows"
cs 0 compare 10 11 --json --db "$TMP/h.db"
python3 - "$OUT" <<'PY' || fail "compare --json: see above"
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["rows"]
     if x["metric"] == "time/call"][0]
assert r["verdict"] == "worse" and r["noise_model"] == "history", r
h = r["history"]
assert h["runs"] == list(range(1, 11)) and h["nruns"] == 10, h
assert h["judged"] == "new" and h["judged_run"] == 11, h
lo, hi = h["interval"]
assert lo < h["geomean"] < hi < h["judged_median"], h
assert 5 < r["change_pct"] < 15 and r["p"] < 0.05, r
assert r["ci_change_pct"][0] > 1, r
PY

note "the newer run given as BASE: it is the one judged, read the other way"
cs 0 compare 11 10 --db "$TMP/h.db"
contains "$OUT" "better: history-based: the base run (11)"

note "compare 9 10: a run within the spread is '~' against runs 1..9"
cs 0 compare 9 10 --db "$TMP/h.db"
contains "$OUT" "~: history-based: the new run (10) judged against the 9"

note "only 3 earlier runs: cannot tell, and 5 would decide"
cs 0 compare 3 4 --db "$TMP/h.db"
contains_flat "$OUT" "the store has 3 earlier runs of this configuration"
contains_flat "$OUT" "5 or more would allow a verdict from their spread"
not_contains "$OUT" "history-based"

note "--by-sample keeps the test over samples"
cs 0 compare 10 11 --by-sample --db "$TMP/h.db"
not_contains "$OUT" "history-based"

note "check of single runs: 3 worse, 0 within the spread, 4 too short"
cs 3 check 10 --new 11 --db "$TMP/h.db"
contains "$OUT" "history-based"
contains "$OUT" "REGRESSION"
cs 0 check 9 --new 10 --db "$TMP/h.db"
contains "$OUT" "check: ok"
cs 4 check 3 --new 4 --db "$TMP/h.db"
contains_flat "$OUT" "5 or more would allow a verdict"
echo "ok"
