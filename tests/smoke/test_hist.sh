#!/bin/sh
# test_hist.sh - `run --hist`: the percentile line and the bpftrace-style
# histogram, for both workloads, and the same again from `show`.
. "$(dirname "$0")/lib.sh"

# pct_line FILE: the percentile line(s), joined and whitespace-squeezed
# (the report wraps it at 80 columns).
pct_line() {
	awk '/^ +per-op / { on = 1; print; next }
	     on && /^      [^ []/ { print; next }
	     { on = 0 }' "$1" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}

# check_hist FILE: a percentile line with p50 <= p90 ... and histogram rows.
check_hist() {
	p=$(pct_line "$1")
	[ -n "$p" ] || fail "no percentile ('per-op ...') line"
	for k in p50 p90 p99 p99.9 max; do
		echo "$p" | grep -E -q " $k [0-9.]+ (ps|ns|us|ms|s)( |$)" ||
			fail "percentile line lacks '$k VALUE UNIT': $p"
	done
	# rows indented as the notes, as --kernel's histograms are
	rows=$(grep -E -c '^      \[[0-9.]+ ?[a-z]*, [0-9.]+ ?[a-z]*\) +[0-9]+ \|@*' "$1")
	[ "$rows" -ge 1 ] || fail "no histogram rows"
	grep -E '^      \[' "$1" | grep -q '|@' || fail "no histogram row with '|@'"
	grep -E '^      \[' "$1" | grep -E -v -q '\|[@ ]*\|$' &&
		fail "a histogram row does not end in a |...| bar"
	# the counts add up to the op count the percentile line states
	ops=$(echo "$p" | sed -n "s/.*[ (]\([0-9][0-9]*\) ops[:,].*/\1/p")
	if [ -n "$ops" ]; then
		sum=$(grep -E '^      \[' "$1" | sed 's/^[^)]*) *\([0-9]*\).*/\1/' |
			awk '{ s += $1 } END { print s + 0 }')
		[ "$sum" -le "$ops" ] && [ "$sum" -gt 0 ] ||
			fail "histogram counts sum to $sum, the line says $ops ops"
	fi
	return 0
}

note "run sys.null --quick --hist"
cs 0 run sys.null --quick --hist
check_hist "$OUT"
sys_pct=$(pct_line "$OUT")
contains "$OUT" "stored as run 1"

note "run pipe.bw --quick --hist"
cs 0 run pipe.bw --quick --hist
check_hist "$OUT"
pipe_pct=$(pct_line "$OUT")
contains "$OUT" "stored as run 2"

note "show prints the same percentile lines"
cs 0 show 1 --no-env
check_hist "$OUT"
[ "$(pct_line "$OUT")" = "$sys_pct" ] ||
	fail "show 1 percentiles '$(pct_line "$OUT")' differ from the run's '$sys_pct'"
cs 0 show 2 --no-env
check_hist "$OUT"
[ "$(pct_line "$OUT")" = "$pipe_pct" ] ||
	fail "show 2 percentiles '$(pct_line "$OUT")' differ from the run's '$pipe_pct'"

note "without --hist: no percentile line, no histogram"
cs 0 run sys.null --quick --no-store
grep -q 'p99.9' "$OUT" && fail "a run without --hist printed percentiles"
grep -q '|@' "$OUT" && fail "a run without --hist printed a histogram"

if command -v python3 >/dev/null 2>&1; then
	note "show 2 --json carries the histogram"
	cs 0 show 2 --json
	python3 -c '
import json, sys
d = json.load(sys.stdin)
h = [r["histogram"] for r in d["results"] if r.get("histogram")]
if not h or not any(b[2] > 0 for b in h[0]["buckets"]):
    sys.exit("no histogram with counts in show --json")
' <"$OUT" || fail "show --json lacks the histogram"
fi
exit 0
