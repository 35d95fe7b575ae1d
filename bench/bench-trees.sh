#!/bin/sh
# bench-trees.sh - make bench's pairs with two builds of copyscope side by
# side: did a change of the tree move the harness-overhead ratios?
#
#   bench/bench-trees.sh OLD_BUILD [NEW_BUILD]
#
# OLD_BUILD and NEW_BUILD (default build) are build directories holding
# copyscope; the bare programs are NEW_BUILD's (make bench builds them).
# To measure a tree against an older commit:
#
#   git worktree add --detach /tmp/old COMMIT
#   cp -a web/node_modules /tmp/old/web/ && make -C /tmp/old all
#   make build/bench/bare_gettid build/bench/bare_pipe
#   bench/bench-trees.sh /tmp/old/build
#
# Each round runs run-bench.sh's three pairs (sys.null on CPU 0, pipe.bw
# on CPUs 0,1 and on CPU 0 alone) with three sides each: the bare
# program, the old copyscope and the new one, in one of the six orders
# (all six over six rounds), so that the machine's drift hits every side
# alike.  Both builds are read by the same wall-clock estimator, which
# every tree has: a call's time is a sample's window over its calls
# (sys.null), a bandwidth the bytes over the window (pipe.bw); each
# side's figure is the median over its first REPS samples, the disturbed
# ones included (a newer build may withhold its headline on a loaded
# machine, exit 4, and its headline of sys.null counts on-CPU time only:
# neither would compare with an older build).  The table: each side's
# median over rounds [min..max], each build's ratio to bare, the per-round
# ratios' range, and new/old with its range over rounds.
#
# Environment: ROUNDS (default 6), REPS (10), SAMPLE_MS (100), PAIRS
# (default "null split same").  Exits 0 unless something could not run.
set -eu

cd "$(dirname "$0")/.."
[ $# -ge 1 ] || {
	echo "usage: bench/bench-trees.sh OLD_BUILD [NEW_BUILD]" >&2
	exit 2
}
OLD=$1
NEW=${2:-build}
ROUNDS=${ROUNDS:-6}
REPS=${REPS:-10}
SAMPLE_MS=${SAMPLE_MS:-100}
PAIRS=${PAIRS:-null split same}
BARE_GETTID=$NEW/bench/bare_gettid
BARE_PIPE=$NEW/bench/bare_pipe
for b in "$OLD/copyscope" "$NEW/copyscope" "$BARE_GETTID" "$BARE_PIPE"; do
	if [ ! -x "$b" ]; then
		echo "bench-trees: $b is missing" >&2
		exit 1
	fi
done
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "bench-trees: needs two online CPUs (0 and 1)" >&2
	exit 1
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-bench-trees.XXXXXX")
trap 'rm -rf "$OUT"' EXIT INT TERM
CS_OPTS="--no-store --json --reps $REPS --sample-time ${SAMPLE_MS}ms"

# side PAIR SIDE ROUND: one measurement into $OUT/PAIR.SIDE.ROUND; a
# copyscope that withheld a headline (exit 4) still wrote its samples
# shellcheck disable=SC2086
side() {
	case $2 in
	old) cs=$OLD/copyscope ;;
	new) cs=$NEW/copyscope ;;
	esac
	rc=0
	case $1.$2 in
	null.bare) "$BARE_GETTID" 0 "$REPS" "$SAMPLE_MS" ;;
	split.bare) "$BARE_PIPE" 0 1 "$REPS" "$SAMPLE_MS" ;;
	same.bare) "$BARE_PIPE" 0 0 "$REPS" "$SAMPLE_MS" ;;
	null.*) "$cs" run sys.null --cpus 0 $CS_OPTS ;;
	split.*) "$cs" run pipe.bw --cpus 0,1 $CS_OPTS ;;
	same.*) "$cs" run pipe.bw place=same --cpus 0 $CS_OPTS ;;
	esac >"$OUT/$1.$2.$3" 2>"$OUT/err" || rc=$?
	if [ "$rc" -eq 4 ] && [ "$2" != bare ]; then
		echo "$1.$2.$3" >>"$OUT/withheld"
	elif [ "$rc" -ne 0 ]; then
		echo "bench-trees: $1 $2 (round $3) failed, exit $rc" >&2
		cat "$OUT/err" >&2
		exit 1
	fi
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
round=1
while [ "$round" -le "$ROUNDS" ]; do
	if [ -t 2 ]; then
		printf 'bench-trees: round %d/%d\r' "$round" "$ROUNDS" >&2
	fi
	order=$(printf '%s\n' "bare old new" "old new bare" "new bare old" \
		"bare new old" "new old bare" "old bare new" |
		sed -n "$(((round - 1) % 6 + 1))p")
	for pair in $PAIRS; do
		for s in $order; do
			side "$pair" "$s" "$round"
		done
	done
	round=$((round + 1))
done
if [ -t 2 ]; then
	printf '\033[K' >&2
fi
elapsed=$(($(date +%s) - start))
load1=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$OUT" "$ROUNDS" "$REPS" "$elapsed" "$load0" "$load1" \
	"$OLD" "$NEW" "$PAIRS" <<'EOF'
import json
import os
import statistics as st
import sys

out, rounds, reps, elapsed, load0, load1, old, new, pairs = sys.argv[1:10]
rounds, reps = int(rounds), int(reps)
R = range(1, rounds + 1)


def bare(pair, r):
    # "ns_per_call MEDIAN min .. max .. calls N" or "bytes_per_sec ..."
    with open("%s/%s.bare.%d" % (out, pair, r)) as f:
        return float(f.read().split()[1])


def wall(pair, s, r):
    with open("%s/%s.%s.%d" % (out, pair, s, r)) as f:
        res = json.load(f)["results"][0]
    info = res["info"]
    if pair == "null":
        v = [w / info["batch_ops"] for w in info["window_ns"][:reps]]
    else:
        v = res["samples"][:reps]
    return st.median(v)


MIB = 1024.0 * 1024.0
rows = {"null": ("sys.null", 1.0, "ns/call", "%.1f"),
        "split": ("pipe.bw split", MIB, "MiB/s", "%.0f"),
        "same": ("pipe.bw same", MIB, "MiB/s", "%.0f")}
print("old: %s, new: %s; %d rounds, each side %d samples; median over "
      "rounds [min..max]" % (old, new, rounds, reps))
print("| path | unit | bare | old | new | old/bare | new/bare "
      "| round ratios old | round ratios new | new/old (rounds) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for pair in pairs.split():
    label, scale, unit, fmt = rows[pair]
    b = [bare(pair, r) / scale for r in R]
    o = [wall(pair, "old", r) / scale for r in R]
    n = [wall(pair, "new", r) / scale for r in R]

    def cell(v):
        return ("%s [%s..%s]" % (fmt, fmt, fmt)) % (
            st.median(v), min(v), max(v))

    ro = [y / x for x, y in zip(b, o)]
    rn = [y / x for x, y in zip(b, n)]
    no = [y / x for x, y in zip(o, n)]
    print("| %s | %s | %s | %s | %s | %.3f | %.3f | %.2f..%.2f | "
          "%.2f..%.2f | %.3f (%.2f..%.2f) |"
          % (label, unit, cell(b), cell(o), cell(n),
             st.median(o) / st.median(b), st.median(n) / st.median(b),
             min(ro), max(ro), min(rn), max(rn),
             st.median(n) / st.median(o), min(no), max(no)))
w = out + "/withheld"
if os.path.exists(w):
    with open(w) as f:
        print("headline withheld (exit 4; read from the samples): "
              + ", ".join(x.strip() for x in f))
print("total time: %s s; load average before: %s, after: %s"
      % (elapsed, load0, load1))
EOF
