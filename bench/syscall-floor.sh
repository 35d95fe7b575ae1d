#!/bin/sh
# syscall-floor.sh - the syscall view's cost against the floor of any
# per-system-call hook: an empty BPF program on the same tracepoints.
# Rounds of three runs of pipe.mix writers=4 (the order rotates each
# round): without tracing; with bpftrace holding empty programs on
# raw_syscalls:sys_enter and sys_exit for the whole run; and with
# `--kernel syscall --kernel-backend bpf`.  Prints the medians over the
# rounds of the time per write (1 / writes/s) and the floor (empty programs against none,
# across runs; and the view's untraced samples, whose programs are
# attached but return at once, against none) beside the syscall view's
# own overhead line (its traced samples against its untraced ones,
# within each run).
#
# Usage: bench/syscall-floor.sh [ROUNDS [RUN OPTIONS...]]
#   ROUNDS     rounds (default 5); COPYSCOPE  the binary (build/copyscope)
# Needs root and bpftrace.  Example: bench/syscall-floor.sh 7 --reps 10
set -eu
rounds=${1:-5}
[ $# -gt 0 ] && shift
bin=${COPYSCOPE:-build/copyscope}
command -v bpftrace >/dev/null || { echo "needs bpftrace" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/syscall-floor.XXXXXX")
bt=""
cleanup() {
	[ -n "$bt" ] && kill "$bt" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run() {	# NAME ROUND [EXTRA...]: one run's JSON into dir/NAME.ROUND.json
	_n=$1 _r=$2
	shift 2
	# shellcheck disable=SC2086
	"$bin" run pipe.mix writers=4 --no-store --json "$@" $opts \
		>"$dir/$_n.$_r.json" 2>"$dir/err" || {
		cat "$dir/err" >&2
		exit 1
	}
}
opts="$*"
r=1
while [ "$r" -le "$rounds" ]; do
	case $((r % 3)) in
	0) order="none empty view" ;;
	1) order="empty view none" ;;
	*) order="view none empty" ;;
	esac
	for k in $order; do
		case $k in
		none) run none "$r" ;;
		view) run view "$r" --kernel syscall --kernel-backend bpf ;;
		empty)
			bpftrace -e 'tracepoint:raw_syscalls:sys_enter { }
				tracepoint:raw_syscalls:sys_exit { }' \
				>"$dir/bt.out" 2>&1 &
			bt=$!
			# attached when bpftrace says so
			i=0
			until grep -q "Attaching" "$dir/bt.out" || [ $i -ge 100 ]
			do
				sleep 0.1
				i=$((i + 1))
			done
			sleep 0.5
			run empty "$r"
			kill "$bt"
			wait "$bt" 2>/dev/null || true
			bt="" ;;
		esac
	done
	echo "round $r/$rounds done" >&2
	r=$((r + 1))
done

python3 - "$dir" "$rounds" <<'PY'
import glob, json, os, statistics, sys

d, rounds = sys.argv[1], int(sys.argv[2])
def per_write(f):
    """ns per write: 1e9 / the writes/s headline (None: withheld)."""
    doc = json.load(open(f))
    for r in doc["results"]:
        if r["metric"] == "writes/s" and not r.get("traced"):
            m = r["summary"]["median"]
            return 1e9 / m if m else None
    raise SystemExit("no writes/s in " + f)
t = {k: [per_write(os.path.join(d, "%s.%d.json" % (k, i)))
         for i in range(1, rounds + 1)] for k in ("none", "empty", "view")}
ov = []
for i in range(1, rounds + 1):
    doc = json.load(open(os.path.join(d, "view.%d.json" % i)))
    ov.append(next(r["info"]["kernel"]["overhead_pct"] for r in doc["results"]
                   if "kernel" in r.get("info", {})))
def cost(k):
    """k against none, per round where both gave a headline."""
    return [100.0 * (x / n - 1) for x, n in zip(t[k], t["none"])
            if x is not None and n is not None]
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")
withheld = sum(x is None for k in t for x in t[k])
print("pipe.mix writers=4, %d rounds: median time per write (1 / writes/s)"
      % rounds)
if withheld:
    print("(%d runs withheld their headline: disturbed samples; their "
          "rounds count only where both sides gave one)" % withheld)
print("| runs | time per write | cost against no tracing |")
print("|---|---|---|")
print("| no tracing | %.0f ns | |" % med(t["none"]))
for k, name in (("empty", "empty programs on raw_syscalls sys_enter and "
                 "sys_exit (bpftrace, the whole run)"),
                ("view", "`--kernel syscall`, its untraced samples "
                 "(programs attached, returning at once)")):
    c = cost(k)
    print("| %s | %.0f ns | %+.1f%% (rounds: %s) |" % (name, med(t[k]),
          med(c), ", ".join("%+.1f" % x for x in c)))
print("| `--kernel syscall`, its own overhead line (traced against untraced "
      "samples of each run) | | %+.1f%% (rounds: %s) |" % (med(ov),
      ", ".join("%+.1f" % x for x in ov)))
PY
