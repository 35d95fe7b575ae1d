#!/bin/sh
# test_compare_rows.sh - what compare and check print per row (#24 item 8):
# an informational row (a metric without a better direction) says "info"
# in the verdict column, and "it went down by X..Y%" when its change is
# significant; check prints the rows it compared also when nothing got
# worse; compare and report --compare of runs with nothing in common say
# why (each side's configurations, the parameters that differ) and exit 2.
. "$(dirname "$0")/lib.sh"
need_python

Q="--reps 10 --sample-time 20ms --warmup 10ms"

note "an informational row: 'info', and its change when significant"
# cold time/call has no better direction; made 20% lower on the new side
# (the runs exported, their samples made seeded values, imported: lib.sh)
stage run sys.null trace=5 $Q --tag ia
made_gauss "cold time/call" 11 1000 15
made_import
stage run sys.null trace=5 $Q --tag ib
made_gauss "cold time/call" 12 800 15
made_import
cs 0 compare ia ib
contains_re "$OUT" '^  cold time/call .* info$'
contains_flat "$OUT" "info: no better direction; it went down by"
# the same values on both sides: "info", and no change to speak of
cs 0 compare ia ia
contains_re "$OUT" '^  cold time/call .* info$'
not_contains "$OUT" "it went"

note "check with nothing worse prints the rows it compared"
cs 0 check ia --new ia --by-sample
contains_re "$OUT" '^  time/call .* ~$'
contains_re "$OUT" '^check: ok: none of [0-9]+ metrics worse'

note "nothing in common: compare and report --compare say why, exit 2"
cs 0 run sys.null trace=5 inject_ns=40ns --reps 3 --sample-time 5ms \
	--warmup 5ms --tag other
cs 2 compare ia other
contains "$ERR" "nothing compared: BASE and NEW share no (workload, parameters):"
contains "$ERR" "base: sys.null"
contains "$ERR" "inject_ns=40ns"
contains "$ERR" "they differ in inject_ns: --ignore-param inject_ns"
cs 0 compare ia other --ignore-param inject_ns
cs 2 report --compare ia other -o "$TMP/r.html"
contains "$ERR" "they differ in inject_ns"
[ ! -e "$TMP/r.html" ] || fail "report wrote a file with nothing to plot"
cs 0 run sys.iov segs=1 --reps 3 --sample-time 5ms --warmup 5ms --tag iov
cs 2 compare ia iov
contains "$ERR" "no workload is on both sides"
contains "$ERR" "new:  sys.iov"
cs 1 check ia --new iov
contains "$ERR" "no workload is on both sides"
echo "ok"
