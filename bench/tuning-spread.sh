#!/bin/sh
# tuning-spread.sh - what one machine setting does to the spread of a
# measurement, for docs/methodology.md's tuning checklist: the setting is
# toggled between two values round after round (ABBA order, so that a
# drift of the machine's load falls on both), a short run of each
# workload measured at each, and the median CV (sd/mean of the samples)
# and median of the medians printed per value.  The setting is restored
# on exit, whatever happens.  Needs root to write the sysctl.
#
#   sh bench/tuning-spread.sh SETTING [ROUNDS] [BIN]
#
# SETTING: aslr (kernel.randomize_va_space 2 / 0) or numa
# (kernel.numa_balancing 1 / 0).  ROUNDS: pairs of runs (default 6).
set -eu
setting=${1:?usage: tuning-spread.sh aslr|numa [ROUNDS] [BIN]}
rounds=${2:-6}
bin=${3:-build/copyscope}
case $setting in
aslr) file=/proc/sys/kernel/randomize_va_space; on=2; off=0 ;;
numa) file=/proc/sys/kernel/numa_balancing; on=1; off=0 ;;
*) echo "tuning-spread.sh: SETTING is aslr or numa, not '$setting'" >&2
   exit 2 ;;
esac
[ -w "$file" ] || { echo "tuning-spread.sh: $file is not writable" \
	"(root needed)" >&2; exit 2; }
orig=$(cat "$file")
tmp=$(mktemp -d)
trap 'echo "$orig" >"$file"; rm -rf "$tmp"' EXIT INT TERM

# measure VALUE: one short run of each workload at VALUE, appended as
# "value workload metric median cv" lines to $tmp/rows.
measure() {
	echo "$1" >"$file"
	for w in "sys.null" "pipe.bw size=64k" "mem.copy size=64k"; do
		# shellcheck disable=SC2086
		"$bin" run $w --reps 15 --sample-time 5ms --warmup 20ms \
			--no-store --json 2>/dev/null >"$tmp/run.json" || continue
		python3 - "$1" "$tmp/run.json" >>"$tmp/rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
r = d["results"][0]
s = r["summary"]
print(sys.argv[1], r["workload"], r["metric"].replace(" ", "_"),
      s["median"], s["cv"])
PY
	done
}

i=0
while [ "$i" -lt "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		measure "$on"; measure "$off"
	else
		measure "$off"; measure "$on"
	fi
	i=$((i + 1))
done
echo "$setting ($file) $on vs $off, $rounds rounds, restored to $orig"
python3 - "$tmp/rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    v, w, m, med, cv = line.split()
    rows.setdefault((w, m), {}).setdefault(v, []).append(
        (float(med), float(cv)))
print("%-10s %-12s %6s %14s %10s %10s" %
      ("workload", "metric", "value", "median", "median CV", "max CV"))
for (w, m), per in sorted(rows.items()):
    for v in sorted(per, reverse=True):
        meds = [x[0] for x in per[v]]
        cvs = [x[1] for x in per[v]]
        print("%-10s %-12s %6s %14.1f %9.1f%% %9.1f%%" %
              (w, m, v, statistics.median(meds),
               100 * statistics.median(cvs), 100 * max(cvs)))
PY
