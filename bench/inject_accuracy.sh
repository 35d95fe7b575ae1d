#!/bin/sh
# inject_accuracy.sh - what inject_ns delivers on sys.null, asked against
# delivered, measured by ab pairs: for each K, one `copyscope ab sys.null
# --a inject_ns=F --b inject_ns=F+K` (A, B and the control A' interleaved in
# every round, so that the machine's drift cancels), delivered = A's
# median x ab's %change, with its 95% CI; beside it what the run measured
# in place before its kept samples (info.inject.added_ns, B's less A's),
# the steps B adds and the step time.  A benchmark, not a test: reports,
# judges nothing.  F is a floor both sides wait (INJECT_FLOOR_NS, default
# 100; 0 asks 0 against K as before): on the development VM a wait under
# about 20 ns after a gettid is not additive, and in some processes a
# longer one makes the next call cheaper (docs/comparing.md, "A short
# wait is not additive here"), so 0 against K measures that, not K.
#
#   bench/inject_accuracy.sh                 (K = 1 2 5 10 20 50 100 ns)
#   ROUNDS=400 KS="1 10 100" bench/inject_accuracy.sh
#
# The injection is time on the CPU: where the worker loses its CPU to
# other work (other processes, a host that steals the vCPU) the op and
# the wait stretch alike, so delivered/asked reads about the op's
# stretch (A's median against its quiet value), while the %change stays
# what a quiet machine would show.  Run it on a quiet machine for the
# docs' table.  Environment: ROUNDS (default 200), KS, CPUS (default 1:
# all three sides on one CPU), COPYSCOPE (default build/copyscope).
# Needs python3; stores in a temporary database only.
set -eu
cd "$(dirname "$0")/.."
B=${COPYSCOPE:-build/copyscope}
ROUNDS=${ROUNDS:-200}
KS=${KS:-"1 2 5 10 20 50 100"}
CPUS=${CPUS:-1}
FLOOR=${INJECT_FLOOR_NS:-100}
case $FLOOR in *[!0-9]*|'') echo "inject_accuracy: INJECT_FLOOR_NS must be a whole number of ns, not '$FLOOR'" >&2; exit 2;; esac
[ -x "$B" ] || { echo "inject_accuracy: build $B first (make)" >&2; exit 1; }
command -v python3 >/dev/null ||
	{ echo "inject_accuracy: needs python3" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-inject.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
echo "inject_accuracy: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs," \
	"load $(cut -d' ' -f1-3 /proc/loadavg), $ROUNDS rounds per K," \
	"--cpus $CPUS, floor $FLOOR ns"
exec python3 - "$B" "$ROUNDS" "$CPUS" "$DIR/results.db" "$FLOOR" $KS <<'PY'
import json, subprocess, sys

b, rounds, cpus, db, floor, ks = sys.argv[1], sys.argv[2], sys.argv[3], \
    sys.argv[4], int(sys.argv[5]), sys.argv[6:]

def cs(args):
    p = subprocess.run([b] + args + ["--db", db], capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("inject_accuracy: %s failed (%d): %s" % (" ".join(args),
                 p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)

print("| asked | steps x step | A median | %change (95% CI) | "
      "delivered (95% CI) | delivered/asked | in place | control A'/A |")
print("|---|---|---|---|---|---|---|---|")
for k in ks:
    d = cs(["ab", "sys.null", "--a", "inject_ns=%dns" % floor, "--b",
            "inject_ns=%dns" % (floor + int(k)), "--rounds", rounds,
            "--cpus", cpus, "--json"])
    r = [r for r in d["rows"] if r["metric"] == "time/call"][0]
    a = r["a_median"]
    shown = cs(["show", str(d["run"]), "--json"])
    def injected(ns):
        # the first result asked ns: A (of A, B, A') for the floor
        for x in shown["results"]:
            if x["metric"] == "time/call" and \
                    x["params"].get("inject_ns") == "%dns" % ns:
                return x["info"].get("inject") or {
                    "steps": 0, "step_ns": 0.0, "added_ns": 0.0,
                    "err_ns": 0.0}
        sys.exit("inject_accuracy: no result asked inject_ns=%dns" % ns)
    ia, ib = injected(floor), injected(floor + int(k))
    inj = {"steps": ib["steps"] - ia["steps"], "step_ns": ib["step_ns"],
           "added_ns": ib["added_ns"] - ia["added_ns"],
           "err_ns": (ib["err_ns"] ** 2 + ia["err_ns"] ** 2) ** 0.5}
    lo, hi = (a * c / 100 for c in r["ci"])
    got = a * r["change_pct"] / 100
    print("| %s ns | %d x %.3f ns | %.1f ns | %+.2f%% (%+.2f..%+.2f) | "
          "%.2f ns (%.2f..%.2f) | %.2f | %.1f ns +- %.1f | %+.2f%% |" % (
              k, inj["steps"], inj["step_ns"], a, r["change_pct"],
              r["ci"][0], r["ci"][1], got, lo, hi, got / float(k),
              inj["added_ns"], inj["err_ns"], r["control"]["change_pct"]))
    sys.stdout.flush()
PY
