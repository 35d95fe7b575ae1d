#!/bin/sh
# test_formatting.sh - text that fits and reads (#24 item 10): list puts a
# sweep default and what is allowed on one line, "allowed" aligned under
# its heading, every line within 80 columns; the 95% CI of a median is
# printed only from 6 samples (below, min .. max covers it less than 95%
# of the time: "n too small for a CI"); pipe.matrix rows fit 80 columns;
# the cold-call trace never splits a number from its unit; show's run
# header lines fit 80 columns.  Wrapping of
# env and show values at spaces and commas: tests/unit/test_env.c.
. "$(dirname "$0")/lib.sh"

note "list: one line per parameter, 'allowed' aligned"
cs 0 list file.copy
contains_re "$OUT" '^    target +enum +memfd,file +memfd\|file$'
contains_re "$OUT" '^    size +size +4k,64k,1M +1 \.\. 64M$'
col=$(sed -n 's/^\(    name .*\)allowed$/\1/p' "$OUT" | awk '{ print length($0) }')
for p in target to size verify; do
	c=$(grep -E "^    $p " "$OUT" | awk -v c="$col" '{ print substr($0, c + 1, 1) }')
	[ -n "$c" ] && [ "$c" != " " ] ||
		fail "list file.copy: $p's allowed is not under 'allowed'"
done
cs 0 list
awk 'length($0) > 80 { exit 1 }' "$OUT" || fail "a list line is over 80 columns"
# a default too wide to share its line: allowed below it, still aligned
contains_re "$OUT" '^    engine +enum +libc,movsb'

note "95% CI of the median: from 6 samples"
cs 0 run sys.null --reps 5 --sample-time 5ms --warmup 0 --no-store
contains_re "$OUT" '^  time/call .* n too small for a CI +5$'
cs 0 run sys.null --reps 6 --sample-time 5ms --warmup 0 --no-store
contains_re "$OUT" '^  time/call +[0-9.]+ [mun]?s +[0-9.]+% +[0-9.]+ \.\. [0-9.]+ [mun]?s +6$'

note "pipe.matrix rows within 80 columns"
cs 0 run pipe.matrix writers=1,2 readers=2 --reps 6 --sample-time 5ms \
	--warmup 0 --no-store
contains_re "$OUT" '^ +min/max rd '
awk 'length($0) > 81 { exit 1 }' "$OUT" ||
	fail "a pipe.matrix line is over 80 columns: $(awk 'length($0) > 81' "$OUT" | head -1)"

note "show: the run's header lines within 80 columns"
cs 0 run sys.null --reps 3 --sample-time 5ms --warmup 0 --db "$TMP/fmt.db"
cs 0 show last --db "$TMP/fmt.db"
# the times and the version once made a line of 94-100 columns
contains_re "$OUT" '^started .* UTC, finished .* UTC, copyscope'
python3 - "$OUT" <<'PY' || fail "a show header line is over 80 columns"
import sys
for ln in open(sys.argv[1], encoding="utf-8").read().split("\n")[:4]:
    if len(ln) > 80:
        sys.exit("%d columns: %s" % (len(ln), ln))
PY

note "the cold-call trace keeps each number with its unit"
cs 0 run sys.null trace=20 --reps 3 --sample-time 5ms --warmup 0 --no-store
flat "$OUT" | grep -q '#20 [0-9.]* [mun]s' || fail "no #20 in the trace line"
grep -A3 'cold calls in a fresh process' "$OUT" | grep -Eq '(#[0-9]+ [0-9.]+|[0-9])$' &&
	fail "a trace line ends between a call and its unit"
exit 0
