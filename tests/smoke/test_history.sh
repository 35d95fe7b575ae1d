#!/bin/sh
# test_history.sh - copyscope history and check --history on a made lab
# history: one real short run, exported, copied 24 times with 3% seeded
# noise on every sample (tests/smoke/history_series.py); with a +10% step
# from the 15th copy (and a new kernel there) exactly one change point,
# at index 14 +-1, naming kernel.release; without the step none.  The
# JSON and CSV shapes, --by kernel, the usage errors, check --history's
# exit 3 on the worsened tail and 0 on the flat one, 4 on a short one;
# report --history's chart, rendered in headless Chromium, holds the
# JSON's medians, change point and kernels, its tick labels on their
# axes; the same history on PostgreSQL when a server is here.  Where a
# change in the newest points cannot reach alpha (3x in the newest 3 of
# 10, issue 30) history says so, with the smallest p and the points that
# could, in text, JSON, CSV and the report, never a flat "no change point".
. "$(dirname "$0")/lib.sh"

need_python

note "one real short run (6 samples: a CI of the median), exported"
cs 0 run sys.null --reps 6 --sample-time 20ms --db "$TMP/real.db"
cs 0 export last -o "$TMP/real.jsonl" --db "$TMP/real.db"
GEN=tests/smoke/history_series.py
python3 "$GEN" "$TMP/real.jsonl" "$TMP/step.jsonl" --copies 24 \
	--noise 0.03 --step 0.10 --step-from 15 --seed 7 \
	--kernel-at-step 9.9.0-step || fail "history_series.py failed"
python3 "$GEN" "$TMP/real.jsonl" "$TMP/flat.jsonl" --copies 24 \
	--noise 0.03 --seed 8 --uuid-prefix 6f || fail "history_series.py failed"
cs 0 import "$TMP/step.jsonl" --db "$TMP/step.db"
cs 0 import "$TMP/flat.jsonl" --db "$TMP/flat.db"

# check_json FILE CHANGES: one history of 24 points; CHANGES: "none" or
# the index (+-1) of its one change point, which must name kernel.release
check_json() {
	python3 - "$1" "$2" <<'PY' || fail "history --json: see above"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 1, d
h = d["histories"]
assert len(h) == 1, len(h)
h = h[0]
assert h["workload"] == "sys.null" and h["metric"] == "time/call", h
s = h["series"]
assert len(s) == 24, len(s)
for p in s:
    for k in ("run_id", "uuid", "started_ns", "kernel", "median", "ci"):
        assert k in p, (k, p)
    # runs of fewer than 6 samples have no CI (null), others bracket
    assert (p["ci"] == [None, None] or
            p["ci"][0] <= p["median"] <= p["ci"][1]), p
assert [p["started_ns"] for p in s] == sorted(p["started_ns"] for p in s)
cp = h["change_points"]
t = h["undecidable_tail"]
if sys.argv[2] == "none":
    assert cp == [], cp
    assert t is None, t  # 24 points: the newest 3 could (2/C(24, 3))
else:
    # the 10 +-1 points after the change: their newest 3 cannot
    assert t["from"] == cp[-1]["index"] and t["newest"] >= 3, t
    assert t["points"] == 24 - t["from"] and t["alpha"] == 0.01, t
    assert len(cp) == 1, cp
    c = cp[0]
    assert abs(c["index"] - int(sys.argv[2])) <= 1, c
    assert 5 < c["change_pct"] < 15, c
    assert c["ci"][0] < c["change_pct"] < c["ci"][1], c
    assert c["p"] < 0.01 and c["worse"], c
    assert c["before"] == s[c["index"] - 1]["run_id"], c
    assert c["after"] == s[c["index"]]["run_id"], c
    assert "kernel.release" in c["env_changed"], c
PY
}

note "a +10% step from the 15th copy: one change point at 14 +-1"
cs 0 history sys.null --metric time/call --json --db "$TMP/step.db"
check_json "$OUT" 14
cs 0 history sys.null --metric time/call --db "$TMP/step.db"
contains "$OUT" "host vm"
contains "$OUT" "change at 1"
contains "$OUT" "environment changed: kernel.release"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$OUT" ||
	fail "history's text is wider than 80 columns"

note "without the step: no change point"
cs 0 history sys.null --metric time/call --json --db "$TMP/flat.db"
check_json "$OUT" none
cs 0 history --metric time/call --db "$TMP/flat.db"
contains_flat "$OUT" "no change point: the likeliest split, at "
contains_flat "$OUT" "not below alpha 0.01"
cs 0 history sys.null --metric time/call --json --db "$TMP/flat.db"
python3 - "$OUT" <<'PY' || fail "history --json's rejected split: see above"
import json, sys
h = json.load(open(sys.argv[1]))["histories"][0]
r = h["rejected"]
s = r["likeliest_split"]
assert s is not None and s["p"] >= 0.01, r
assert 3 <= s["index"] <= 21, s
assert s["ci"][0] <= s["change_pct"] <= s["ci"][1], s
pts = h["series"]
assert s["before"] == pts[s["index"] - 1]["run_id"], s
assert s["after"] == pts[s["index"]]["run_id"], s
assert r["smaller_than_min_change"] == 0, r
PY
note "a change point below --min-change is said to be left out"
cs 0 history sys.null --metric time/call --min-change 50 --db "$TMP/step.db"
contains_flat "$OUT" "no change point of --min-change 50% or more (1 smaller left out: at 1"
contains_flat "$OUT" "the likeliest other split, at "
not_contains "$OUT" "change at 1"
cs 0 history sys.null --metric time/call --min-change 50 --json \
	--db "$TMP/step.db"
python3 - "$OUT" <<'PY' || fail "history --json's smaller change: see above"
import json, sys
h = json.load(open(sys.argv[1]))["histories"][0]
r = h["rejected"]
assert h["change_points"] == [], h["change_points"]
assert r["smaller_than_min_change"] == 1 and r["min_change_pct"] == 50, r
assert abs(r["largest_smaller"]["index"] - 14) <= 1, r
assert 5 < r["largest_smaller"]["change_pct"] < 15, r
PY

note "CSV: a header and one row per point, the change point marked"
cs 0 history sys.null --metric time/call --csv --db "$TMP/step.db"
python3 - "$OUT" <<'PY' || fail "history --csv: see above"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 24, len(rows)
assert [int(r["index"]) for r in rows] == list(range(24))
marked = [int(r["index"]) for r in rows if r["change_point"] == "1"]
assert len(marked) == 1 and abs(marked[0] - 14) <= 1, marked
assert all(r["ci_lo"] == "" or float(r["ci_lo"]) <= float(r["median"])
           for r in rows)
PY

note "--by kernel: one point per kernel, in version order"
cs 0 history sys.null --metric time/call --by kernel --json --db \
	"$TMP/step.db"
python3 - "$OUT" <<'PY' || fail "history --by kernel: see above"
import json, sys
s = json.load(open(sys.argv[1]))["histories"][0]["series"]
assert [p["kernel"] for p in s][-1] == "9.9.0-step", s
assert [p["runs"] for p in s] == [14, 10], s
PY

note "a selector and KEY=VALUE narrow the series"
cs 0 history 1,2,3,4,5,6 sys.null call=gettid --metric time/call --json \
	--db "$TMP/step.db"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["histories"];
assert len(h) == 1 and len(h[0]["series"]) == 6, h' "$OUT" ||
	fail "history 1,2,3,4,5,6 did not keep 6 points"
cs 2 history sys.null call=nosuchcall --db "$TMP/step.db"
contains "$ERR" "no stored complete run has sys.null with call=nosuchcall"
cs 2 history sys.null call=getppid --db "$TMP/step.db"
contains "$ERR" "no stored complete run has sys.null with call=getppid"

note "usage errors name the parameter"
cs 2 history --by date --db "$TMP/step.db"
contains "$ERR" "--by"
contains "$ERR" "time, kernel"
cs 2 history --min-change -3 --db "$TMP/step.db"
contains "$ERR" "--min-change"
cs 2 history --json --csv --db "$TMP/step.db"
cs 2 history sys.null oops --db "$TMP/step.db"
contains "$ERR" "not KEY=VALUE"

note "a long series: the points printed carry the CIs the JSON gives"
# (text computes a point's CI only where it prints it; the same bootstrap)
python3 "$GEN" "$TMP/real.jsonl" "$TMP/long.jsonl" --copies 40 \
	--noise 0.03 --step 0.10 --step-from 21 --seed 9 --uuid-prefix 7a ||
	fail "history_series.py failed"
cs 0 import "$TMP/long.jsonl" --db "$TMP/long.db"
cs 0 history sys.null --metric time/call --db "$TMP/long.db"
cp "$OUT" "$TMP/long.txt"
cs 0 history sys.null --metric time/call --json --db "$TMP/long.db"
python3 - "$OUT" "$TMP/long.txt" <<'PY' || fail "text CIs differ from JSON"
import json, re, sys
pts = json.load(open(sys.argv[1]))["histories"][0]["series"]
def ci(lo, hi):
    return ("%+.1f..%+.1f" if abs(lo) < 10 and abs(hi) < 10 else
            "%+.0f..%+.0f") % (lo, hi)
shown = 0
for line in open(sys.argv[2]):
    m = re.match(r"^[> ] *(\d+) (\d+) .* (\S+)%$", line.rstrip())
    if not m:
        continue
    p = pts[int(m.group(1))]
    assert int(m.group(2)) == p["run_id"], line
    if p["ci"][0] is None:  # fewer than 6 samples: no CI to compare
        continue
    want = ci(100 * (p["ci"][0] / p["median"] - 1),
              100 * (p["ci"][1] / p["median"] - 1))
    assert m.group(3) == want, (line, want)
    shown += 1
assert 10 <= shown < 40, shown
PY

note "check --history: 3 on the worsened tail, 0 on the flat one, 4 short"
cs 3 check --history sys.null --metric time/call --db "$TMP/step.db"
contains "$OUT" "worse:"
cs 0 check --history sys.null --metric time/call --min-change 20 \
	--db "$TMP/step.db"
cs 0 check --history sys.null --metric time/call --db "$TMP/flat.db"
contains "$OUT" "same:"
cs 4 check --history 1,2,3 sys.null --metric time/call --db "$TMP/flat.db"
contains "$OUT" "6 needed"
cs 0 check --history --help
contains "$OUT" "check --history"

note "check --history on short series (issue 30): the newest points read"
note "against the earlier points' spread decide where E-divisive cannot"
# made 3% noise per sample; STEPs are 1 + x: 2.0 is 3x
short_db() { # NAME COPIES STEP STEP_FROM SEED
	python3 "$GEN" "$TMP/real.jsonl" "$TMP/$1.jsonl" --copies "$2" \
		--noise 0.03 --step "$3" --step-from "$4" --seed "$5" \
		--uuid-prefix "7$5" || fail "history_series.py failed"
	cs 0 import "$TMP/$1.jsonl" --db "$TMP/$1.db"
}
short_db s3x 10 2.0 8 3
short_db s30 8 0.3 6 4
short_db s10 10 0 0 5
short_db s3 3 0 0 6
cs 3 check --history sys.null --metric time/call --db "$TMP/s3x.db"
contains_flat "$OUT" "worse: host"
contains_flat "$OUT" "the newest 3 of 10 points"
cs 3 check --history sys.null --metric time/call --db "$TMP/s30.db"
contains_flat "$OUT" "the newest 3 of 8 points"
cs 3 check --history sys.null --db "$TMP/s30.db"
contains_flat "$OUT" "Bonferroni x6: 3 windows, 2 series"
cs 0 check --history sys.null --metric time/call --db "$TMP/s10.db"
contains_flat "$OUT" "same: host"
cs 0 check --history sys.null --db "$TMP/s10.db"
cs 4 check --history sys.null --metric time/call --db "$TMP/s3.db"
contains_flat "$OUT" "3 points, 6 needed (3 more runs)"
not_contains "$OUT" "same:"

note "history on them: where a change in the newest points cannot reach"
note "alpha it says so (2/C(10, 3) = 0.017 at best), never 'no change point'"
cs 0 history sys.null --metric time/call --db "$TMP/s3x.db"
contains_flat "$OUT" "no change point at 4..6; one in the newest 3 of 10 points cannot reach alpha 0.01 here (smallest p 0.017); 12 points could"
! grep -q -x "  no change point" "$OUT" || fail "history: a flat 'no change point'"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$OUT" ||
	fail "history's text is wider than 80 columns"
cs 0 history sys.null --metric time/call --json --db "$TMP/s3x.db"
python3 - "$OUT" <<'PY' || fail "history --json's undecidable_tail: see above"
import json, sys
h = json.load(open(sys.argv[1]))["histories"][0]
assert h["change_points"] == [], h["change_points"]
t = h["undecidable_tail"]
assert (t["from"], t["points"], t["newest"], t["min_size"]) == (0, 10, 3, 3), t
assert abs(t["smallest_p"] - 2 / 120) < 1e-9, t
assert t["alpha"] == 0.01 and t["points_needed"] == 12, t
PY
cs 0 history sys.null --metric time/call --csv --db "$TMP/s3x.db"
python3 - "$OUT" <<'PY' || fail "history --csv's undecidable_tail: see above"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["undecidable_tail"] for r in rows] == ["0"] * 7 + ["1"] * 3, rows
PY
cs 0 history sys.null --metric time/call --alpha 0.05 --db "$TMP/s3x.db"
contains_flat "$OUT" "change at 7"
cs 0 history sys.null --metric time/call --db "$TMP/s30.db"
contains_flat "$OUT" "no change point can reach alpha 0.01 in 8 points (smallest p 0.029); 10 points could"
cs 0 history sys.null --metric time/call --db "$TMP/s3.db"
contains_flat "$OUT" "no change point can reach alpha 0.01 in 3 points (a split needs 3 a side); 10 points could"
cs 0 report --history sys.null --metric time/call -o "$TMP/s3x.html" \
	--db "$TMP/s3x.db"
contains "$TMP/s3x.html" "one in the newest 3 of 10 points cannot reach alpha 0.01"
contains "$TMP/s3x.html" "no change point: the likeliest split, at 7 (run"
note "the +30% step below --min-change is not worse"
cs 0 check --history sys.null --metric time/call --min-change 50 \
	--db "$TMP/s30.db"

note "report --history: the chart holds the JSON's series"
cs 0 report --history sys.null --metric time/call -o "$TMP/h.html" \
	--db "$TMP/step.db"
contains "$OUT" "wrote $TMP/h.html: 1 plot"
cs 0 history sys.null --metric time/call --json --db "$TMP/step.db"
cp "$OUT" "$TMP/h.json"
cs 2 report --history sys.null --by date -o "$TMP/x.html" --db "$TMP/step.db"
contains "$ERR" "--by"
cs 0 report --history --help
contains "$OUT" "report --history"
find_chrome
if [ -n "$CHROME" ]; then
	chrome_dom h "$TMP/h.html"
	python3 - "$TMP/h.dom" "$TMP/h.json" <<'PY' || fail "report --history's chart does not hold the history (above)"
import json, sys
sys.path.insert(0, "tests/smoke")
import html_dom_check
figs = html_dom_check.check(open(sys.argv[1]).read(), 1)
assert len(figs) == 1 and figs[0]["data-kind"] == "history", figs
h = json.load(open(sys.argv[2]))["histories"][0]
drawn = json.loads(figs[0]["data-drawn"])
med = [p["median"] for p in h["series"]]
assert len(drawn["medians"]) == len(med), drawn
div = med[0] / drawn["medians"][0]
for a, b in zip(drawn["medians"], med):
    assert abs(a * div - b) <= 1e-9 * b, (a, b, div)
assert drawn["changes"] == [c["index"] for c in h["change_points"]], drawn
ks = [(i, p["kernel"]) for i, p in enumerate(h["series"])
      if i == 0 or p["kernel"] != h["series"][i - 1]["kernel"]]
assert [(k["x"], k["label"]) for k in drawn["kernels"]] == ks, drawn
assert ks[-1][1] == "9.9.0-step", ks
PY
else
	skip_case "Chromium is not installed: report --history not rendered"
fi

if need_pg; then
	note "the same on PostgreSQL ($PG_URL)"
	cs 0 import "$TMP/step.jsonl" --db "$PG_URL"
	cs 0 history sys.null --metric time/call --json --db "$PG_URL"
	check_json "$OUT" 14
	cs 0 history sys.null --metric time/call --csv --db "$PG_URL"
	contains "$OUT" "host,workload,params"
	cs 3 check --history sys.null --metric time/call --db "$PG_URL"
	pg_newdb
	cs 0 import "$TMP/flat.jsonl" --db "$PG_URL"
	cs 0 history sys.null --metric time/call --json --db "$PG_URL"
	check_json "$OUT" none
	cs 0 check --history sys.null --metric time/call --db "$PG_URL"
else
	skip_case "PostgreSQL: no server here"
fi
echo "ok"
