#!/bin/sh
# kernel-views-backends.sh - the kernel views' two backends side by side:
# `run --kernel lock,sched,syscall` with --kernel-backend bpf and with
# --kernel-backend tracefs, in interleaved runs (the order alternates
# each round) of pipe.mix writers=4 and pipe.matrix writers=5.  Prints,
# per workload and backend, the medians over the rounds of what
# copyscope itself prints as the views' cost (traced against untraced
# samples of the same run) and of the views' rates per op, then how far
# the bpf backend's rates are from the tracefs backend's.
#
# One process cannot record both backends at once, so the agreement is
# of rates per op across interleaved runs, not of the same samples.
#
# Usage: bench/kernel-views-backends.sh [ROUNDS [RUN OPTIONS...]]
#   ROUNDS  runs of each backend and workload (default 5)
#   COPYSCOPE  the binary (default build/copyscope)
# Needs root.  Example: bench/kernel-views-backends.sh 7 --reps 10
set -eu
rounds=${1:-5}
[ $# -gt 0 ] && shift
bin=${COPYSCOPE:-build/copyscope}
dir=$(mktemp -d "${TMPDIR:-/tmp}/kv-backends.XXXXXX")
trap 'rm -rf "$dir"' EXIT

workloads="pipe.mix:writers=4 pipe.matrix:writers=5"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="bpf tracefs"; else
		order="tracefs bpf"; fi
	for wl in $workloads; do
		name=${wl%%:*}
		params=$(echo "${wl#*:}" | tr ':' ' ')
		for b in $order; do
			# shellcheck disable=SC2086
			"$bin" run "$name" $params --kernel lock,sched,syscall \
				--kernel-backend "$b" --no-store --json "$@" \
				>"$dir/$name.$b.$r.json" 2>"$dir/err" || {
				cat "$dir/err" >&2
				exit 1
			}
			echo "round $r/$rounds: $name $b done" >&2
		done
	done
	r=$((r + 1))
done

python3 - "$dir" <<'EOF'
import glob, json, os, statistics, sys

d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "*.json"))):
    wl, backend, _r, _ = os.path.basename(f).rsplit(".", 3)
    doc = json.load(open(f))
    k = next(r["info"]["kernel"] for r in doc["results"]
             if "kernel" in r.get("info", {}))
    ops = k["ops"]
    calls = {c["name"]: c for c in k["syscall"]["calls"]}
    m = {
        "overhead %": k["overhead_pct"],
        "untraced ns/op": k["untraced_ns_per_op"],
        "traced ns/op": k["traced_ns_per_op"],
        "contended/op": sum(l["contended"] for l in k["lock"]
                            if not l["other"]) / ops,
        "mutex waits/op": sum(l["contended"] for l in k["lock"]
                              if not l["other"] and
                              l["type"] == "mutex") / ops,
        "wake-ups/op": k["sched"]["wakeups"] / ops,
        "preemptions/op": k["sched"]["preemptions"] / ops,
        "write calls/op": calls.get("write", {}).get("count", 0) / ops,
        "read calls/op": calls.get("read", {}).get("count", 0) / ops,
        "in-kernel %": 100.0 * k["syscall"]["sys_ns"] /
                       k["syscall"]["thread_ns"],
        "lost": k["lost"],
    }
    rows.setdefault((wl, backend), []).append(m)

names = ["overhead %", "untraced ns/op", "traced ns/op", "contended/op",
         "mutex waits/op", "wake-ups/op", "preemptions/op",
         "write calls/op", "read calls/op", "in-kernel %", "lost"]
for wl in sorted({w for w, _ in rows}):
    b, t = rows.get((wl, "bpf"), []), rows.get((wl, "tracefs"), [])
    print(f"\n{wl}: medians of {len(b)} bpf and {len(t)} tracefs runs "
          "(interleaved)")
    print("| figure | bpf | tracefs | bpf vs tracefs |")
    print("|---|---|---|---|")
    for n in names:
        mb = statistics.median(x[n] for x in b)
        mt = statistics.median(x[n] for x in t)
        rel = "" if n in ("overhead %", "lost") or not mt else \
              f"{100.0 * (mb / mt - 1):+.1f}%"
        print(f"| {n} | {mb:.4g} | {mt:.4g} | {rel} |")
    print("overhead % per run, bpf: " +
          " ".join(f"{x['overhead %']:+.1f}" for x in b))
    print("overhead % per run, tracefs: " +
          " ".join(f"{x['overhead %']:+.1f}" for x in t))
EOF
