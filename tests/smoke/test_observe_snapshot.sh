#!/bin/sh
# test_observe_snapshot.sh - observe reads one consistent snapshot (issue
# 30 item 7): under a pipe load this test starts (pipe.mix mix=small,
# four writers), every total of `observe --json` equals the sum of its
# rows, in five observations of every view: the pipe writes, bytes and
# size classes against the per-comm rows, against their own classes and
# log2 histogram; the lock waits and wait time against the callers and
# (with no lock_full drops) the comms; the pipe mutex count and the
# wake-ups against their histograms.  Read while the programs still run,
# a write counted between two reads shows in one and not the other.
# Needs root and BPF (skipped, exit 77, when BPF cannot load).
. "$(dirname "$0")/lib.sh"
need_python
[ "$(id -u)" -eq 0 ] || skip "observe loads BPF programs: needs root"
"$BIN" observe --duration 10ms --what pipe-writes --no-store \
	>"$TMP/probe" 2>&1 || {
	cat "$TMP/probe"
	skip "BPF cannot load here"
}

note "a pipe load: pipe.mix mix=small writers=4, in the background"
"$BIN" run pipe.mix mix=small writers=4 --reps 100000 --sample-time 20ms \
	--warmup 0 --no-store >"$TMP/load.out" 2>&1 &
LOAD=$!
sleep 1
kill -0 "$LOAD" 2>/dev/null || fail "the pipe load did not start" \
	"($(cat "$TMP/load.out"))"

for i in 1 2 3 4 5; do
	cs 0 observe --duration 200ms --json --no-store
	python3 - "$OUT" "$i" <<'PY' || { kill "$LOAD"; fail "observation $i"; }
import json, sys
o = json.load(open(sys.argv[1]))["observation"]
bad = []
def eq(name, total, rows):
    if total != rows:
        bad.append("%s: total %d, sum of rows %d" % (name, total, rows))
p, c, lk = o["pipe_writes"], o["comms"], o["lock"]
assert p["count"] > 1000, "the load made only %d pipe writes" % p["count"]
eq("pipe writes / comms", p["count"], sum(r["writes"] for r in c))
eq("pipe bytes / comms", p["bytes"], sum(r["bytes"] for r in c))
for k, v in enumerate(p["classes"]):
    eq("pipe class %d / comms" % k, v, sum(r["classes"][k] for r in c))
eq("pipe writes / classes", p["count"], sum(p["classes"]))
eq("pipe writes / log2", p["count"], sum(n for _, n in p["log2"]))
for r in c:
    eq("%s writes / classes" % r["comm"], r["writes"], sum(r["classes"]))
eq("lock waits / callers", lk["contentions"],
   sum(r["contentions"] for r in lk["callers"]))
eq("lock wait / callers", lk["wait_ns"],
   sum(r["wait_ns"] for r in lk["callers"]))
if o["drops"]["lock_full"] == 0:
    eq("lock waits / comms", lk["contentions"],
       sum(r["contentions"] for r in c))
eq("pipe mutex / log2", lk["pipe_mutex"]["count"],
   sum(n for _, n in lk["pipe_mutex"]["log2"]))
eq("wake-ups / log2", o["wakeup"]["count"],
   sum(n for _, n in o["wakeup"]["log2"]))
print("observation %s: %d pipe writes, %d lock waits: %s" % (
    sys.argv[2], p["count"], lk["contentions"],
    "; ".join(bad) or "every total is the sum of its rows"))
sys.exit(1 if bad else 0)
PY
done
kill "$LOAD" 2>/dev/null
wait "$LOAD" 2>/dev/null
note "pass"
