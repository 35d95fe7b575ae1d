#!/bin/sh
# ab-power.sh - a benchmark of `copyscope ab`, not a timed test: on the
# machine it runs on, how often the paired design gives a verdict between
# two copies of the same configuration (A/A: a false verdict), how often it
# sees a real change, and how long one decision takes.
#
#   bench/ab-power.sh [CALLS]             (default 20 calls per case)
#   CASES="aa iov" bench/ab-power.sh 10
#   AB_ARGS=--fresh-workers CASES="inj1p aap" bench/ab-power.sh 20
#
# Cases (CASES picks some):
#   aa      sys.null gettid against itself (false verdicts)
#   iov     sys.iov preadv of /dev/zero, segs 8 against 9 (a real change
#           of about +10% on the development VM)
#   inj1 inj2 inj3 inj5   sys.null, A inject_ns=FLOOR, B FLOOR plus 1,
#           2, 3, 5% of the calibrated time per call (that of A, floor
#           included): both sides run the same loop (runner/inject.h)
#           and differ by the wait's steps alone; the median %change ab
#           measured is printed beside.  FLOOR (INJECT_FLOOR_NS, default
#           100; 0 for none) is there because on the development VM a
#           wait under about 20 ns after a gettid is not additive: in some
#           processes a longer wait makes the next call 40-100 ns cheaper,
#           so inject_ns=0 against 10 read -6..+1% (docs/comparing.md)
#   injNp   injN with --precision 0.25% --noise 0.5% --max-time 60s (a
#           change under the default 1% noise band needs a narrower band;
#           PRECISION and NOISE change the two figures)
#   aap     aa with the --precision/--noise/--max-time of injNp (the false
#           verdicts of that design)
#   pipe    pipe.bw (split) size 64k against 60k (time/write)
#   aapipe  pipe.bw (split) 64k against itself (false verdicts)
#
# AB_ARGS: options added to every ab call (split at spaces), e.g.
# --fresh-workers.  VERBOSE=1 prints each call's verdict, CIs and reason
# on stderr.
# Prints one row per case: calls, verdicts (worse for the slowdowns, any
# for A/A), their share, the median %change, what was injected, and the
# median and largest seconds per call.  Needs build/copyscope (make) and
# python3.  Stores nothing.
set -eu
cd "$(dirname "$0")/.."
B=${COPYSCOPE:-build/copyscope}
CALLS=${1:-20}
CASES=${CASES:-"aa iov inj1 inj2 inj3 inj5 pipe aapipe"}
[ -x "$B" ] || { echo "ab-power: build $B first (make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "ab-power: needs python3" >&2; exit 1; }
echo "ab-power: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $CALLS calls per case, precision ${PRECISION:-0.25%} noise ${NOISE:-0.5%} for the p cases, inject floor ${INJECT_FLOOR_NS:-100} ns${AB_ARGS:+, ab $AB_ARGS}"
exec python3 - "$B" "$CALLS" $CASES <<'PY'
import json, os, statistics, subprocess, sys, time

b, calls, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def ab(args):
    t = time.monotonic()
    p = subprocess.run([b, "ab"] + args + os.environ.get("AB_ARGS", "").split()
                       + ["--json", "--no-store"],
                       capture_output=True, text=True)
    dt = time.monotonic() - t
    if p.returncode != 0:
        sys.exit("ab-power: ab %s failed (%d): %s" % (" ".join(args),
                 p.returncode, p.stderr.strip()))
    return json.loads(p.stdout), dt

def calibrate():
    """Median ns per gettid, from one ab A/A call."""
    f = "inject_ns=%d" % floor_ns
    d, _ = ab(["sys.null", "--a", f, "--b", f, "--rounds", "10"])
    return [r for r in d["rows"] if r["metric"] == "time/call"][0]["a_median"]

def fmt(x):
    return "?" if x is None else "%+.2f" % x

def row_of(d, metric):
    return [r for r in d["rows"] if r["metric"] == metric][0]

base_ns = None
floor_ns = int(os.environ.get("INJECT_FLOOR_NS", "100"))
specs = {}
prec_args = ["--precision", os.environ.get("PRECISION", "0.25%"), "--noise",
             os.environ.get("NOISE", "0.5%"), "--max-time", "60s"]
for c in cases:
    if c == "aa":
        specs[c] = (["sys.null", "--a", "call=gettid", "--b", "call=gettid"],
                    "time/call", None)
    elif c == "aap":
        specs[c] = (["sys.null", "--a", "call=gettid", "--b", "call=gettid"]
                    + prec_args, "time/call", None)
    elif c == "iov":
        specs[c] = (["sys.iov", "call=preadv", "target=zero", "--a", "segs=8",
                     "--b", "segs=9"], "time/call", "worse")
    elif c.startswith("inj"):
        if base_ns is None:
            base_ns = calibrate()
        prec = c.endswith("p")
        pct = int(c[3:-1] if prec else c[3:])
        ns = max(1, round(base_ns * pct / 100))
        extra = prec_args if prec else []
        specs[c] = (["sys.null", "--a", "inject_ns=%d" % floor_ns, "--b",
                     "inject_ns=%d" % (floor_ns + ns)] + extra, "time/call",
                    "worse")
    elif c == "pipe":
        specs[c] = (["pipe.bw", "place=split", "--a", "size=64k", "--b",
                     "size=60k"], "time/write", "better")
    elif c == "aapipe":
        specs[c] = (["pipe.bw", "place=split", "--a", "size=64k", "--b",
                     "size=64k"], "time/write", None)
    else:
        sys.exit("ab-power: unknown case " + c)

print("%-7s %5s %9s %6s %9s %9s %7s %7s" % ("case", "calls", "verdicts",
      "%", "median%", "control%", "s/call", "max s"))
for c in cases:
    args, metric, want = specs[c]
    hits, chg, ctl, secs = 0, [], [], []
    for _ in range(calls):
        d, dt = ab(args)
        r = row_of(d, metric)
        v = r["verdict"]
        hits += (v in ("better", "worse")) if want is None else (v == want)
        if r["change_pct"] is not None:
            chg.append(r["change_pct"])
        if r["control"]["change_pct"] is not None:
            ctl.append(r["control"]["change_pct"])
        secs.append(dt)
        if os.environ.get("VERBOSE"):
            print("  %-12s %+6.2f%% (%s..%s) control %+6.2f%% (%s..%s) "
                  "%d rounds %.1f s: %s" % (v, r["change_pct"] or 0,
                  fmt((r["ci"] or [None])[0]), fmt((r["ci"] or [None, None])[1]),
                  r["control"]["change_pct"] or 0,
                  fmt((r["control"]["ci"] or [None])[0]),
                  fmt((r["control"]["ci"] or [None, None])[1]),
                  r.get("rounds", 0), dt,
                  r.get("reason") or ""), file=sys.stderr)
    print("%-7s %5d %9d %5.0f%% %+8.1f%% %+8.1f%% %7.1f %7.1f" % (c, calls,
          hits, 100.0 * hits / calls, statistics.median(chg),
          statistics.median(ctl), statistics.median(secs), max(secs)))
    sys.stdout.flush()
if base_ns is not None:
    print("(inject: %.0f ns per gettid with a %d ns floor at calibration; "
          "inj%% asks that share on top of the floor)" % (base_ns, floor_ns))
PY
