#!/bin/sh
# test_json.sh - `run --json` and `show --json`: valid JSON, schema 1, the
# results with their summaries and samples, nothing else on stdout.
. "$(dirname "$0")/lib.sh"
need_python

# check_run_json FILE WORKLOAD METRIC... : validate one run document.
check_run_json() {
	python3 - "$@" <<'EOF' || fail "JSON check of $1 failed (see above)"
import json, sys
path, workload, metrics = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(path).read()
try:
    d = json.loads(text)            # the whole of stdout must be one document
except ValueError as e:
    sys.exit("not valid JSON (%s); stdout was:\n%s" % (e, text[:2000]))
def need(cond, msg):
    if not cond:
        sys.exit("%s: %s" % (path, msg))
need(isinstance(d, dict), "top level is not an object")
need(d.get("schema_version") == 1, "schema_version is %r, not 1"
     % d.get("schema_version"))
# "run" is the run's header; a --no-store run has id 0 but the rest
need(isinstance(d.get("run"), dict), "no 'run' object")
for k in ("id", "tag", "host", "boot_id", "started_ns", "finished_ns",
          "status", "cmdline"):
    need(k in d["run"], "run header lacks %r" % k)
need(d["run"]["status"] == "complete", "run status %r" % d["run"]["status"])
need(d["run"]["finished_ns"] >= d["run"]["started_ns"] > 0,
     "run times %r .. %r" % (d["run"]["started_ns"], d["run"]["finished_ns"]))
need(isinstance(d.get("environment"), dict) and d["environment"],
     "no 'environment' object")
need("kernel.release" in d["environment"], "environment lacks kernel.release")
res = d.get("results")
need(isinstance(res, list) and res, "no results")
seen = set()
for r in res:
    for k in ("workload", "metric", "unit", "summary", "samples", "params"):
        need(k in r, "a result lacks %r: %r" % (k, r))
    need(r["workload"] == workload, "workload %r, expected %r"
         % (r["workload"], workload))
    need(isinstance(r["unit"], str) and r["unit"], "empty unit in %r" % r)
    s = r["summary"]
    need(isinstance(s, dict), "summary is not an object")
    smp = r["samples"]
    # --quick: 3 samples, and as many more as were taken in place of
    # disturbed ones (info.retaken, at most 3)
    more = r.get("info", {}).get("retaken", 0)
    need(isinstance(smp, list) and len(smp) == 3 + more and more <= 3,
         "%s: %r samples, not 3 + %r retaken" % (r["metric"], smp, more))
    need(s.get("n", 0) + s.get("left_out", 0) == len(smp),
         "%s: summary n is %r (%r left out), not %d"
         % (r["metric"], s.get("n"), s.get("left_out"), len(smp)))
    need(all(isinstance(x, (int, float)) and x > 0 for x in smp),
         "%s: samples not all positive numbers: %r" % (r["metric"], smp))
    # a headline withheld on a loaded machine (docs/methodology.md, "The
    # headline") has no median and says why; any other has one
    if "withheld" in s:
        need(s["median"] is None and s["withheld"].startswith("withheld: "),
             "%s: withheld with a median: %r" % (r["metric"], s))
        seen.add(r["metric"])
        continue
    need(isinstance(s.get("median"), (int, float)), "summary has no median")
    need(min(smp) <= s["median"] <= max(smp),
         "%s: median %r outside the samples %r" % (r["metric"], s["median"], smp))
    seen.add(r["metric"])
for m in metrics:
    need(m in seen, "no result for metric %r (have %r)" % (m, sorted(seen)))
EOF
}

note "run sys.null --quick --json"
cs 0 run sys.null --quick --json
cp "$OUT" "$TMP/run1.json"
check_run_json "$TMP/run1.json" sys.null time/call cycles/call
grep -q '^timer:' "$OUT" && fail "--json stdout carries the text report"
grep -q 'stored as run' "$OUT" && fail "--json stdout carries 'stored as run'"
[ "$(count_runs)" -eq 1 ] || fail "the --json run was not stored"
python3 - "$TMP/run1.json" <<'EOF' || fail "run --json: wrong run header"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
if not isinstance(r, dict):
    sys.exit("run is %r, not the stored run's header" % (r,))
if r["id"] != 1 or r["status"] != "complete":
    sys.exit("run id %r status %r, expected 1 complete" % (r["id"], r["status"]))
if not 0 < r["started_ns"] <= r["finished_ns"]:
    sys.exit("a complete run with started_ns %r, finished_ns %r"
             % (r["started_ns"], r["finished_ns"]))
EOF

note "run pipe.bw --quick --json --no-store"
cs 0 run pipe.bw --quick --json --no-store
cp "$OUT" "$TMP/pipe.json"
check_run_json "$TMP/pipe.json" pipe.bw bandwidth time/write
[ "$(count_runs)" -eq 1 ] || fail "--no-store stored a run"

note "run pipe.bw size=4k,64k --json: one result per size and metric"
cs 0 run pipe.bw size=4k,64k --quick --json --no-store
cp "$OUT" "$TMP/sweep.json"
check_run_json "$TMP/sweep.json" pipe.bw bandwidth time/write
python3 - "$TMP/sweep.json" <<'EOF' || fail "sweep JSON lacks a size"
import json, sys
d = json.load(open(sys.argv[1]))
sizes = sorted({str(r["params"].get("size")) for r in d["results"]})
if len(d["results"]) != 4 or len(sizes) != 2:
    sys.exit("expected 4 results over 2 sizes, got %d over %r"
             % (len(d["results"]), sizes))
EOF

note "show 1 --json: the same results as the run printed"
cs 0 show 1 --json
cp "$OUT" "$TMP/show1.json"
check_run_json "$TMP/show1.json" sys.null time/call cycles/call
python3 - "$TMP/run1.json" "$TMP/show1.json" <<'EOF' || fail "show --json differs from run --json"
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
def key(r):
    return (r["workload"], json.dumps(r["params"], sort_keys=True), r["metric"])
ra = {key(r): r for r in a["results"]}
rb = {key(r): r for r in b["results"]}
if set(ra) != set(rb):
    sys.exit("result sets differ: run %r, show %r" % (sorted(ra), sorted(rb)))
for k in ra:
    for f in ("unit", "samples"):
        if ra[k][f] != rb[k][f]:
            sys.exit("%r %s: run %r, show %r" % (k, f, ra[k][f], rb[k][f]))
    for f in ("n", "median"):
        x, y = ra[k]["summary"][f], rb[k]["summary"][f]
        if abs(x - y) > 1e-9 * max(abs(x), 1):
            sys.exit("%r summary %s: run %r, show %r" % (k, f, x, y))
for f in ("id", "tag", "host", "boot_id", "started_ns", "finished_ns",
          "status", "cmdline", "tool_version", "build_flavour"):
    if a["run"].get(f) != b["run"].get(f):
        sys.exit("run.%s: run %r, show %r" % (f, a["run"].get(f), b["run"].get(f)))
if a["environment"] != b["environment"]:
    diff = sorted(k for k in set(a["environment"]) | set(b["environment"])
                  if a["environment"].get(k) != b["environment"].get(k))
    sys.exit("environment differs in %r" % diff)
EOF

note "show last --json is run 1"
cs 0 show last --json
python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["run"]["id"] == 1 else "id %r" % d["run"]["id"])' <"$OUT" ||
	fail "show last --json is not run 1"
note "below 6 samples no CI: null with the reason; from 6 a CI (#30 item 4)"
cs 0 run sys.null --reps 3 --sample-time 2ms --json --no-store
python3 - "$OUT" <<'PY' || fail "a 3-sample result carries a CI"
import json, sys
s = json.load(open(sys.argv[1]))["results"][0]["summary"]
assert s["ci95_lo"] is None and s["ci95_hi"] is None, s
assert s["ci95_reason"] == "fewer than 6 samples", s
PY
cs 0 run sys.null --reps 6 --sample-time 2ms --json --no-store
python3 - "$OUT" <<'PY' || fail "a 6-sample result has no CI"
import json, sys
s = json.load(open(sys.argv[1]))["results"][0]["summary"]
assert s["ci95_lo"] <= s["median"] <= s["ci95_hi"], s
PY
exit 0
