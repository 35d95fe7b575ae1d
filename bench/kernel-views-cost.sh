#!/bin/sh
# kernel-views-cost.sh - what each kernel view costs on the bpf backend:
# `run pipe.mix writers=4 --kernel VIEWS --kernel-backend bpf` for VIEWS
# lock, sched, lock,sched and lock,sched,syscall, in interleaved runs
# (the order rotates each round), and the median over the rounds of the
# overhead copyscope prints itself (the traced samples' median time per
# op against the untraced samples' of the same run).  With OLD=BIN, the
# same runs of a second binary are interleaved with them and printed
# beside them (an older copyscope, to see what a change of the views
# cost or saved).
#
# Usage: bench/kernel-views-cost.sh [ROUNDS [RUN OPTIONS...]]
#   ROUNDS     runs of each view set (default 5)
#   COPYSCOPE  the binary (default build/copyscope); OLD  a second one
# Needs root.  Example: OLD=/tmp/old/copyscope bench/kernel-views-cost.sh 7
set -eu
rounds=${1:-5}
[ $# -gt 0 ] && shift
bin=${COPYSCOPE:-build/copyscope}
old=${OLD:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/kv-cost.XXXXXX")
trap 'rm -rf "$dir"' EXIT

sets="lock sched lock,sched lock,sched,syscall"
bins="new"
[ -n "$old" ] && bins="new old"
r=1
while [ "$r" -le "$rounds" ]; do
	# rotate the order of the view sets (and of the binaries) per round
	order=$(echo $sets | tr ' ' '\n' | awk -v k="$r" \
		'{ a[NR] = $0 } END { for (i = 0; i < NR; i++)
			print a[(i + k) % NR + 1] }')
	for v in $order; do
		for b in $bins; do
			[ $((r % 2)) -eq 0 ] && [ "$bins" = "new old" ] &&
				b=$( [ "$b" = new ] && echo old || echo new)
			exe=$bin
			[ "$b" = old ] && exe=$old
			# shellcheck disable=SC2086
			"$exe" run pipe.mix writers=4 --kernel "$v" \
				--kernel-backend bpf --no-store --json "$@" \
				>"$dir/$b.$v.$r.json" 2>"$dir/err" || {
				cat "$dir/err" >&2
				exit 1
			}
		done
	done
	echo "round $r/$rounds done" >&2
	r=$((r + 1))
done

python3 - "$dir" "$sets" "$bins" <<'PY'
import glob, json, os, statistics, sys

d, sets, bins = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
runs = {}
for f in glob.glob(os.path.join(d, "*.json")):
    b, v, _r, _ = os.path.basename(f).split(".", 3)
    doc = json.load(open(f))
    k = next(r["info"]["kernel"] for r in doc["results"]
             if "kernel" in r.get("info", {}))
    runs.setdefault((b, v), []).append(k["overhead_pct"])
print("pipe.mix writers=4, bpf backend: overhead of the traced samples, "
      "median over the runs (each run's in brackets)")
print("| views | " + " | ".join(bins) + " |")
print("|---|" + "---|" * len(bins))
for v in sets:
    cells = []
    for b in bins:
        xs = sorted(runs.get((b, v), []))
        cells.append(f"{statistics.median(xs):+.1f}% (" +
                     ", ".join(f"{x:+.1f}" for x in xs) + ")" if xs else "-")
    print(f"| `{v}` | " + " | ".join(cells) + " |")
PY
