#!/bin/sh
# test_precision.sh - run --precision PCT [--max-time T]: samples are added
# after --reps until every metric's median has a 95% CI within +-PCT, or
# --max-time of samples ran; the precision reached, the metric and the time
# are printed under the configuration, stored (info.precision) and shown
# again; the options are refused where they cannot apply.
. "$(dirname "$0")/lib.sh"
need_python

note "a loose precision is reached: at least --reps samples, 'reached' printed"
cs 0 run sys.null --precision 50% --reps 3 --sample-time 2ms --warmup 0 \
	--max-time 20s --tag loose
contains "$OUT" "more until each"
contains_re "$OUT" 'precision: ±[0-9.]+% \((time|cycles)/call, the widest 95% CI'
contains_flat "$OUT" "reached ±50% after"

note "stored: show --json carries info.precision (met, asked, reached <= asked)"
cs 0 show last --json
python3 - "$OUT" <<'EOF' || fail "info.precision wrong after a met precision"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    p = r["info"]["precision"]
    assert p["met"] is True, p
    assert p["asked_pct"] == 50, p
    assert 0 <= p["reached_pct"] <= 50, p
    assert p["metric"] in ("time/call", "cycles/call"), p
    assert r["summary"]["n"] >= 3, r["summary"]
    assert p["time_ns"] > 0, p
EOF
cs 0 show last
contains_flat "$OUT" "reached ±50% after"

note "an unreachable precision stops at --max-time and says so"
cs 0 run sys.null --precision 0.01% --reps 3 --sample-time 2ms --warmup 0 \
	--max-time 300ms --tag tight
contains_flat "$OUT" "NOT the ±0.01% asked: --max-time ran out first"
contains_re "$OUT" 'about [0-9]+ samples'
cs 0 show last --json
python3 - "$OUT" <<'EOF' || fail "info.precision wrong after --max-time"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
p = r["info"]["precision"]
assert p["met"] is False, p
assert p["reached_pct"] > 0.01, p
# it kept sampling until the time was up (300 ms), not much longer
assert 3e8 <= p["time_ns"] < 3e10, p
# more samples than --reps were taken
assert r["summary"]["n"] > 3, r["summary"]
EOF

note "without --precision nothing changes: exactly --reps samples, no note"
cs 0 run sys.null --reps 4 --sample-time 2ms --warmup 0 --json --no-store
python3 - "$OUT" <<'EOF' || fail "a run without --precision changed"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert r["summary"]["n"] == 4, r["summary"]
assert "precision" not in r["info"], r["info"]
assert not [n for n in d["notes"] if n["kind"] == "precision"], d["notes"]
EOF

note "refused: bad percentages, --max-time alone, with --interleave"
cs 2 run sys.null --precision 0 --no-store
contains "$ERR" "--precision: '0' is not a percentage"
cs 2 run sys.null --precision 1x --no-store
contains "$ERR" "--precision"
cs 2 run sys.null --precision 200% --no-store
contains "$ERR" "0.01% .. 100%"
cs 2 run sys.null --max-time 1s --no-store
contains "$ERR" "--max-time: only with --precision"
cs 2 run sys.null --precision 1% --max-time 5 --no-store
contains "$ERR" "--max-time"
cs 2 run sys.null --precision 1% --interleave --no-store
contains "$ERR" "--precision: not with --interleave"
[ "$(count_runs)" = 2 ] || fail "a refused run was stored (runs: $(count_runs))"
