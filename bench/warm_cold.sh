#!/bin/sh
# warm_cold.sh - the warm headline of sys.iov against the cold trace's own
# steady state, in the same run: issue 30 item 2 asks that on a quiet
# machine the warm figure lie at or under the trace's steady state.
#
# Usage: sh bench/warm_cold.sh [BIN] [ROUNDS]
#   BIN     the copyscope binary (build/copyscope)
#   ROUNDS  runs of each configuration (5)
# Environment: REPS (kept samples, 10), SAMPLE (--sample-time, 20ms),
# TRACE (cold calls timed, 1000).
#
# Each run (`run sys.iov ... trace=TRACE --hist`) gives, for one
# configuration: the headline (median over samples of the worker's
# on-CPU time per call: a mean over each batch), the per-op p50 of the
# --hist pass (each call timed alone), and of the trace's last half (the
# calls after the warm-up the table calls its steady state) the median,
# which the table prints, and the mean; the --hist pass's mean (from its
# buckets).  Printed per configuration: the
# median over rounds of each, and of the ratio warm / trace median.  A
# ratio over 1 with warm close to the trace's mean says the warm figure
# is a mean that carries the tail (interrupts, preemption's cache
# refill) that a median of single calls leaves out; see
# docs/methodology.md, "Warm against cold".
set -u
BIN=${1:-build/copyscope}
ROUNDS=${2:-5}
REPS=${REPS:-10}
SAMPLE=${SAMPLE:-20ms}
TRACE=${TRACE:-1000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warm-cold.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for c in "call=pwritev segs=1" "call=preadv segs=8"; do
		k=$(echo "$c" | tr -c 'a-z0-9\n' _)
		# shellcheck disable=SC2086 # $c is two parameters
		"$BIN" run sys.iov $c target=zero trace="$TRACE" --reps "$REPS" \
			--sample-time "$SAMPLE" --hist --no-store --json \
			>"$TMP/$k.$r" 2>/dev/null || {
			echo "warm_cold: $BIN run sys.iov $c failed" >&2
			exit 1
		}
	done
	r=$((r + 1))
done

python3 - "$TMP" "$ROUNDS" <<'PY'
import glob, json, os, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])

def mean(h):
    """the --hist pass's mean per op, from its buckets (each within 3.1%;
    an overflow at its bucket's low end)"""
    b = h["buckets"]
    n = sum(x[2] for x in b)
    return sum((lo + hi) / 2 * c for lo, hi, c in b) / n if n else float("nan")


def p50(h):
    b = h["buckets"]
    total = sum(x[2] for x in b) + h.get("overflow", 0)
    seen = 0
    for lo, hi, n in b:
        seen += n
        if 2 * seen >= total:
            return (lo + hi) / 2
    return float("nan")

rows = {}
for path in sorted(glob.glob(os.path.join(tmp, "*.*"))):
    d = json.load(open(path))
    key = os.path.basename(path).rsplit(".", 1)[0]
    one = {}
    for r in d["results"]:
        if r["metric"] == "time/call":
            one["warm"] = r["summary"]["median"]
            one["p50"] = p50(r["histogram"])
            one["hmean"] = mean(r["histogram"])
            one["off"] = statistics.median(
                r["info"]["interference"]["offcpu_pct"])
        elif r["metric"] == "cold time/call":
            half = r["samples"][len(r["samples"]) // 2:]
            one["tmed"] = statistics.median(half)
            one["tmean"] = statistics.mean(half)
    rows.setdefault(key, []).append(one)
print(f"sys.iov target=zero: warm headline against the cold trace's last "
      f"half, median of {rounds} runs")
print(f"  {'configuration':<15} {'warm':>7} {'hist p50':>8} {'hist mean':>9} "
      f"{'trace med':>9} {'trace mean':>10} {'warm/med':>8} {'off CPU':>7}")
for key, v in rows.items():
    m = lambda f: statistics.median(x[f] for x in v)
    ratio = statistics.median(x["warm"] / x["tmed"] for x in v)
    name = key.replace("call_", "").replace("_segs_", " segs=").strip("_")
    print(f"  {name:<15} {m('warm'):6.0f}n {m('p50'):7.0f}n {m('hmean'):8.0f}n "
          f"{m('tmed'):8.0f}n {m('tmean'):9.0f}n {ratio:8.3f} {m('off'):6.0f}%")
    print("    rounds warm/med: " + ", ".join(
        f"{x['warm'] / x['tmed']:.3f}" for x in v))
PY
