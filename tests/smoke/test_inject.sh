#!/bin/sh
# test_inject.sh - inject_ns on sys.null: the steps asked round inject_ns
# at the stored step time, what was delivered is measured and stored
# (info.inject) and printed ("inject delivered ..."), inject_ns=0 stores
# no injection, and in ab a large injection shows as B - A within a band
# that holds on a loaded machine (the op and the wait both stretch where
# the worker loses its CPU: 4x at load 9 here; an injection that was not run
# reads about 0).
. "$(dirname "$0")/lib.sh"
need_python

note "run sys.null inject_ns=1us --quick --json: steps, step time, delivered"
cs 0 run sys.null inject_ns=1us --quick --json
python3 - "$OUT" <<'PY' || fail "run --json: info.inject is wrong"
import json, math, sys
d = json.load(open(sys.argv[1]))
inj = [r["info"].get("inject") for r in d["results"]]
assert all(inj), "a result without info.inject: %r" % inj
i = inj[0]
assert i["asked_ns"] == 1000, i
assert 0.01 < i["step_ns"] < 100, i
assert abs(i["steps"] - 1000 / i["step_ns"]) <= 0.5 + 1e-6, i
for k in ("added_ns", "err_ns", "base_ns"):
    assert isinstance(i[k], float) and math.isfinite(i[k]), (k, i)
assert i["base_ns"] > 0, i
PY

note "show prints the delivered injection"
cs 0 show last
contains_flat "$OUT" "inject delivered "
contains_flat "$OUT" "(asked 1us: "
contains_flat "$OUT" "measured in place (testing only)"

note "inject_ns=0: the same loop with zero steps, no injection stored"
cs 0 run sys.null inject_ns=0 --quick --json
python3 - "$OUT" <<'PY' || fail "inject_ns=0 stored an injection"
import json, sys
d = json.load(open(sys.argv[1]))
assert not any(r["info"].get("inject") for r in d["results"])
PY

note "ab inject_ns=0 against 20us: delivered (A x %change) within 0.5..10x"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=20us --rounds 12 --cpus 0 \
	--json --no-store
python3 - "$OUT" <<'PY' || fail "ab: the injection did not deliver"
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["metric"] == "time/call"][0]
got = r["a_median"] * r["change_pct"] / 100
assert 0.5 * 20000 < got < 10 * 20000, "delivered %.0f ns of 20000" % got
PY

note "ab above a floor: one step time for all three sides, B's steps K's more"
cs 0 ab sys.null --a inject_ns=100 --b inject_ns=110 --rounds 6 --json
abrun=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["run"])' \
	"$OUT") || fail "ab --json did not name its run"
cs 0 show "$abrun" --json
python3 - "$OUT" <<'PY' || fail "ab: the sides' steps were calibrated apart"
import json, sys
d = json.load(open(sys.argv[1]))
inj = [(r["params"]["inject_ns"], r["info"]["inject"]) for r in d["results"]
       if r["metric"] == "time/call"]
assert [a for a, _ in inj] == ["100ns", "110ns", "100ns"], inj
steps = {i["step_ns"] for _, i in inj}
assert len(steps) == 1, "three step times: %r" % steps
s = steps.pop()
a, b, a2 = (i["steps"] for _, i in inj)
assert a == a2 == round(100 / s), (a, a2, s)
assert b - a == round(110 / s) - round(100 / s), (a, b, s)
PY
