#!/bin/sh
# stats-power.sh - a benchmark of the comparison statistics, not a timed
# test: on the machine it runs on, how often `compare` gives a verdict
# between two sides of the same thing (A/A: a false verdict), and how often
# it catches a slowdown injected with the calibrated, testing-only
# inject_ns (A/B: a detection), with single runs and with RUNS runs per
# side.
#
#   bench/stats-power.sh [PAIRS]          (default 40 pairs)
#   WORKLOADS="sys.null" PCTS="3" RUNS=5 bench/stats-power.sh 10
#
# For every workload and pair i it measures RUNS rounds; each round takes
# one run (a fresh process) of A, of each B (one per slowdown in PCTS) and
# of A' (the A/A partner), in that order, so that the sides alternate run
# by run (A B A' A B A' ...) and drift of the machine falls on every side
# alike, as docs/comparing.md recommends.  It then compares A with A' and
# with each B,
# once with every run of each group (runs as the unit: Welch's t on the
# log run medians) and once with the first run of each group only (the
# samples as the unit: Mann-Whitney).  The injection is sized from a
# calibration run (PCT of the metric's median) and what it really added
# is read back from each B run (measured in place: inject.added_ns over
# inject.base_ns) and printed as the median injected %.
#
# Prints one table row per workload and runs-per-side: A/A false verdicts
# and detections per slowdown, each as count/pairs and %.  Needs
# build/copyscope (make) and python3.  Uses a throw-away database.
set -eu
cd "$(dirname "$0")/.."
B=${COPYSCOPE:-build/copyscope}
PAIRS=${1:-40}
RUNS=${RUNS:-5}
PCTS=${PCTS:-"2 3 5"}
WORKLOADS=${WORKLOADS:-"sys.null pipe.bw"}
# short runs: 10 samples of 20 ms after a 50 ms warm-up
OPTS=${OPTS:-"--reps 10 --sample-time 20ms --warmup 50ms"}
[ -x "$B" ] || { echo "stats-power: build $B first (make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "stats-power: needs python3" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export COPYSCOPE_DB="$tmp/r.db"

# the configuration and the metric the verdict is read from
wl_args() {
	case $1 in
	sys.null) echo "sys.null call=gettid" ;;
	pipe.bw) echo "pipe.bw size=64k place=split" ;;
	*) echo "$1" ;;
	esac
}
wl_metric() {
	case $1 in
	sys.null) echo time/call ;;
	pipe.bw) echo time/write ;;
	*) echo "stats-power: no metric known for $1" >&2; exit 1 ;;
	esac
}

# run ids of tag $1, oldest first
ids_of() { $B runs "tag:$1" | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }' | sort -n; }

# median of METRIC ($2) over the run medians of tag $1
median_of() {
	for id in $(ids_of "$1"); do
		$B show "$id" --json
	done | python3 -c '
import json, statistics, sys
dec, text, v, pos = json.JSONDecoder(), sys.stdin.read(), [], 0
while pos < len(text.rstrip()):
    d, pos = dec.raw_decode(text, pos)
    while pos < len(text) and text[pos].isspace():
        pos += 1
    v += [r["summary"]["median"] for r in d["results"] if r["metric"] == sys.argv[1]]
print(statistics.median(v))' "$2"
}

# first run id of tag $1
first_id() { ids_of "$1" | head -1; }

# verdict of METRIC between sides $1 and $2
verdict() {
	$B compare "$1" "$2" --ignore-param inject_ns --csv 2>/dev/null |
	python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["metric"] == sys.argv[1]:
        print(r["verdict"])' "$3"
}

# what the injection added, % of the op without it (measured in place),
# per run of tag $1, one line each
injected_of() {
	for id in $(ids_of "$1"); do
		$B show "$id" --json
	done | python3 -c '
import json, sys
dec, text, pos = json.JSONDecoder(), sys.stdin.read(), 0
while pos < len(text.rstrip()):
    d, pos = dec.raw_decode(text, pos)
    while pos < len(text) and text[pos].isspace():
        pos += 1
    for r in d["results"]:
        i = r.get("info", {}).get("inject")
        if r["metric"] == sys.argv[1] and i and i.get("added_ns") is not None:
            print(100.0 * i["added_ns"] / i["base_ns"])' "$2"
}

echo "stats-power: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "stats-power: $PAIRS pairs, $RUNS runs a side (alternating), slowdowns $PCTS%, run options: $OPTS"
echo "stats-power: load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in $WORKLOADS; do
	m=$(wl_metric "$w")
	# shellcheck disable=SC2046
	$B run $(wl_args "$w") $OPTS --runs 3 --tag "cal-$w" >/dev/null 2>&1
	cost=$(median_of "cal-$w" "$m")
	echo "stats-power: $w $m median $cost ns (calibration)"
	i=1
	while [ "$i" -le "$PAIRS" ]; do
		k=1
		while [ "$k" -le "$RUNS" ]; do
			# shellcheck disable=SC2046
			$B run $(wl_args "$w") $OPTS --tag "$w-$i-a" >/dev/null 2>&1 || true
			for p in $PCTS; do
				inj=$(python3 -c "print(max(1, round($cost * $p / 100)))")
				# shellcheck disable=SC2046
				$B run $(wl_args "$w") inject_ns="$inj" $OPTS \
					--tag "$w-$i-b$p" >/dev/null 2>&1 || true
			done
			# shellcheck disable=SC2046
			$B run $(wl_args "$w") $OPTS --tag "$w-$i-aa" >/dev/null 2>&1 || true
			k=$((k + 1))
		done
		printf '\rstats-power: %s pair %d/%d' "$w" "$i" "$PAIRS" >&2
		i=$((i + 1))
	done
	echo >&2
	for unit in 1 "$RUNS"; do
		fp=0; i=1
		: >"$tmp/det"
		while [ "$i" -le "$PAIRS" ]; do
			if [ "$unit" = 1 ]; then
				a=$(first_id "$w-$i-a"); aa=$(first_id "$w-$i-aa")
			else
				a="$w-$i-a"; aa="$w-$i-aa"
			fi
			v=$(verdict "$a" "$aa" "$m")
			[ "$v" = same ] || fp=$((fp + 1))
			for p in $PCTS; do
				if [ "$unit" = 1 ]; then b=$(first_id "$w-$i-b$p"); else b="$w-$i-b$p"; fi
				[ "$(verdict "$a" "$b" "$m")" = worse ] && echo "$p" >>"$tmp/det"
			done
			i=$((i + 1))
		done
		line=$(printf '%-9s %2s run%s a side  A/A false %2d/%d (%3.0f%%)' "$w" "$unit" \
			"$([ "$unit" = 1 ] && echo ' ' || echo s)" "$fp" "$PAIRS" \
			"$(python3 -c "print(100 * $fp / $PAIRS)")")
		for p in $PCTS; do
			d=$(grep -cx "$p" "$tmp/det" || true)
			line="$line  +$p%: $(printf '%2d/%d (%3.0f%%)' "$d" "$PAIRS" \
				"$(python3 -c "print(100 * $d / $PAIRS)")")"
		done
		echo "$line"
	done
	inj_line="$w injected, measured in place (median over B runs):"
	for p in $PCTS; do
		all=""
		i=1
		while [ "$i" -le "$PAIRS" ]; do
			all="$all $(injected_of "$w-$i-b$p" "$m")"
			i=$((i + 1))
		done
		inj_line="$inj_line +$p% asked: $(python3 -c "
import statistics, sys
v = [float(x) for x in sys.argv[1:] if x != 'nan']
print('%.1f%%' % statistics.median(v) if v else '?')" $all)"
	done
	echo "$inj_line"
done
echo "stats-power: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
