#!/bin/sh
# test_pipe_lat.sh - `run pipe.lat`: round-trip percentiles in order,
# placement same and split, the verify pass over small and multi-page
# messages in both modes, a bad size refused before measuring, stored and
# shown.
. "$(dirname "$0")/lib.sh"

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# cpus_of: "ping pong" CPUs from the info line in $OUT.
cpus_of() {
	line=$(grep 'ping cpu' "$OUT") || fail "no 'ping cpu' line"
	p=$(echo "$line" | sed -n 's/.*ping cpu \([0-9]*\).*/\1/p')
	q=$(echo "$line" | sed -n 's/.*pong cpu \([0-9]*\).*/\1/p')
	[ -n "$p" ] && [ -n "$q" ] || fail "cannot read the CPUs: $line"
	echo "$p $q"
}

note "default: 1 byte, processes, split; stored and shown"
cs 0 run pipe.lat --quick
contains_re "$OUT" '^pipe\.lat +size=1 '
for m in "rtt mean" "rtt p50" "rtt p99" "rtt p99.9" "rtt max"; do
	contains_re "$OUT" "^  $m +([0-9.]+ [mun]?s|withheld) "
done
contains "$OUT" "pong cpu"
contains "$OUT" "pipe capacity"
cs 0 run pipe.lat --cpus 0 --quick --no-store
contains_flat "$OUT" "2 workers on 1 allowed CPU"
contains_flat "$OUT" "pipe capacity"
cs 0 show last
contains "$OUT" "pipe.lat"
contains_re "$OUT" "rtt p99\.9 +([0-9.]+ [mun]?s|withheld) "

note "place=same: ping and pong on one CPU"
cs 0 run pipe.lat place=same --quick --no-store
set -- $(cpus_of)
[ "$1" = "$2" ] || fail "place=same: ping cpu $1, pong cpu $2"

if [ "$ncpu" -ge 2 ]; then
	note "place=split: ping and pong on two CPUs"
	cs 0 run pipe.lat place=split mode=thread --quick --no-store
	set -- $(cpus_of)
	[ "$1" != "$2" ] || fail "place=split: both on cpu $1"
fi

note "verify=1: every echoed byte checked, 1 byte and 100k (over the pipe)"
cs 0 run pipe.lat verify=1 size=1,100k mode=proc,thread --quick --no-store
[ "$(count_matches "$OUT" "verify: ok")" -eq 4 ] ||
	fail "expected 4 'verify: ok' lines"
contains_flat "$OUT" \
	"round trips checked end to end: 0 lost, 0 duplicated, 0 corrupted"
not_contains "$OUT" "FAILED"

note "percentiles ordered: p50 <= p99 <= p99.9 <= max, mean <= max"
need_python
cs 0 run pipe.lat size=1,4k --quick --no-store --json
python3 - "$OUT" <<'PY' || fail "percentiles out of order"
import json, sys
res = json.load(open(sys.argv[1]))["results"]
by = {}
for r in res:
    key = json.dumps(r["params"], sort_keys=True)
    by.setdefault(key, {})[r["metric"]] = r["samples"]
assert len(by) == 2, by.keys()
for key, m in by.items():
    n = len(m["rtt p50"])
    # 3 samples, and up to 3 more taken in place of disturbed ones
    assert 3 <= n <= 6, (key, n)
    for i in range(n):
        p50, p99 = m["rtt p50"][i], m["rtt p99"][i]
        p999, mx = m["rtt p99.9"][i], m["rtt max"][i]
        assert 0 < p50 <= p99 <= p999 <= mx, (key, i, p50, p99, p999, mx)
        assert 0 < m["rtt mean"][i] <= mx, (key, i)
PY

note "size above 1M is refused before measuring"
cs 2 run pipe.lat size=2M --quick --no-store
contains "$ERR" "size"
exit 0
