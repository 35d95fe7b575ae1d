#!/bin/sh
# profile_cost.sh - the cost of `run --kernel profile` at a few
# frequencies on sys.null (the cheapest op, so the worst case) and
# sys.rw target=zero size=64k: each kept (untraced) sample is followed by
# a traced one of the same batch, so the overhead copyscope prints
# (traced / untraced - 1, medians) is an interleaved A/B of the same run
# with and without the profile.  BACKENDS="bpf tracefs" runs each
# frequency with each --kernel-backend in turn (bpf: the profile
# aggregated in the kernel with BPF stack maps; tracefs: from the perf
# rings), interleaved; WLS="sys.null" limits the workloads (a ':' for a
# space: "sys.rw:target=zero:size=64k").  Prints one line per run:
#   workload hz [backend] overhead_pct samples lost
# Usage: [HZS="499 997"] [BACKENDS="bpf tracefs"] [WLS=...]
#        bench/profile_cost.sh [BIN] [REPS] [ROUNDS]
# (root; a quiet
# machine for the docs' table: docs/kernel-views.md)
BIN=${1:-build/copyscope}
REPS=${2:-30}
ROUNDS=${3:-3}
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	for w in ${WLS:-sys.null sys.rw:target=zero:size=64k}; do
		wl=$(echo "$w" | tr ':' ' ')
		for hz in ${HZS:-499 997 1999 4999}; do
			for be in ${BACKENDS:--}; do
				kb=""
				[ "$be" = - ] || kb="--kernel-backend $be"
				# shellcheck disable=SC2086
				"$BIN" run $wl --kernel profile \
					--profile-hz "$hz" $kb --reps "$REPS" \
					--no-store --json 2>/dev/null |
				python3 -c '
import json, sys
wl, hz, be = sys.argv[1], sys.argv[2], sys.argv[3]
for r in json.load(sys.stdin)["results"]:
    k = r.get("info", {}).get("kernel")
    if k and "profile" in k:
        p = k["profile"]
        print("%-28s %5s%s %+7.2f%% %6d %4d" % (wl, hz,
              "" if be == "-" else " %-7s" % be, k["overhead_pct"],
              p["samples"], p["lost"]))
' "$wl" "$hz" "$be"
			done
		done
	done
	r=$((r + 1))
done
