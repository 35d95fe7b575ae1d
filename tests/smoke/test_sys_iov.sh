#!/bin/sh
# test_sys_iov.sh - `run sys.iov`: the default E4 row, the least-squares
# fit over a segs sweep (run and show), readv/writev on a memfd, the
# cold-call trace, and the IOV_MAX error (exit 2, nothing stored).
. "$(dirname "$0")/lib.sh"

NUM='-?[0-9.]+'
TIME="$NUM (ps|ns|us|ms|s)"

note "run sys.iov --quick: 8 segments of 1 byte to /dev/zero"
cs 0 run sys.iov --quick
contains_re "$OUT" '^sys\.iov +call=preadv +target=zero +segs=8 +seg_size=1'
contains_re "$OUT" "^ +time/call +$TIME .* 3\$"
contains_re "$OUT" '^ +cycles/call +[0-9.]+ .* 3$'
contains_re "$OUT" "^ +time/segment +$TIME .* 3\$"
contains "$OUT" "caller cpu"
not_contains "$OUT" "least-squares fit"
contains "$OUT" "stored as run 1"

note "a segs sweep over two calls and two targets: one fit row each"
cs 0 run sys.iov call=preadv,pwritev target=zero,null segs=1,8,64 --quick
cp "$OUT" "$TMP/sweep"
contains "$OUT" "least-squares fit over segs: time/call = fixed + per segment x segs"
contains_re "$OUT" '^ +call +target +fixed +per segment +R² +points$'
for c in preadv pwritev; do
	for t in zero null; do
		contains_re "$OUT" "^ +$c +$t +$TIME +$TIME +$NUM +3\$"
	done
done
# R² is a number in [0, 1] on every fit row (weighted least squares)
awk '/least-squares fit over segs/ { f = 1; next }
     f && $1 ~ /^(preadv|pwritev)$/ {
	n++; r = $(NF - 1)
	if (r !~ /^[0-9.]+$/ || r < 0 || r > 1) bad = 1
     }
     END { exit !(n == 4 && !bad) }' "$OUT" ||
	fail "expected 4 fit rows with R² in [0, 1]"
contains "$OUT" "stored as run 2"

note "show 2 prints the same fit from the store"
cs 0 show 2
grep -A6 'least-squares fit over segs' "$TMP/sweep" >"$TMP/fit.run"
grep -A6 'least-squares fit over segs' "$OUT" >"$TMP/fit.show"
cmp -s "$TMP/fit.run" "$TMP/fit.show" ||
	fail "show's fit differs from run's: $(diff "$TMP/fit.run" "$TMP/fit.show")"

note "one group: the fit on one line; the per-segment cost is positive"
cs 0 run sys.iov segs=1,16,256 --quick
contains_flat "$OUT" "least-squares fit over segs (3 points): time/call ="
flat "$OUT" | grep -E -q "time/call = $TIME \\+ [0-9.]+ (ps|ns|us) x segs, R² [0-9.]+" ||
	fail "no one-line fit 'time/call = A + B x segs, R² C'"

note "readv and writev on a memfd (position moved back by lseek)"
cs 0 run sys.iov call=readv,writev target=memfd segs=8 --quick
contains_re "$OUT" "^ +readv +time/call +$TIME .* 3\$"
contains_re "$OUT" "^ +writev +time/call +$TIME .* 3\$"
# 2 x 48k per call: past the 64 KiB region, lseek before every call
cs 0 run sys.iov call=readv,writev,preadv,pwritev target=memfd segs=2 \
	seg_size=48k --quick
contains_re "$OUT" "^ +readv +time/call +$TIME .* 3\$"
contains_re "$OUT" "^ +pwritev +time/call +$TIME .* 3\$"

note "trace=5: cold calls #1 .. #5 in a fresh process"
cs 0 run sys.iov trace=5 --quick
contains_flat "$OUT" "cold calls in a fresh process, cold time/call:"
flat "$OUT" >"$TMP/flat"
i=1
while [ $i -le 5 ]; do
	grep -E -q "#$i [0-9.]+ (ps|ns|us|ms|s)( |;|\$)" "$TMP/flat" ||
		fail "cold-call trace lacks call #$i with a time"
	i=$((i + 1))
done
grep -q '#6 ' "$TMP/flat" && fail "trace=5 shows a call #6"

runs=$(count_runs)

note "segs above IOV_MAX (1024): exit 2 naming the range, nothing stored"
# the one range: list shows what the parser enforces
"$BIN" list sys.iov | grep -Eq '^    segs +int +8 +1 \.\. 1024$' ||
	fail "list sys.iov does not show segs 1 .. 1024"
cs 2 run sys.iov segs=1025 --quick
contains "$ERR" "segs: 1025 is out of range (1 .. 1024)"
not_contains "$OUT" "time/call"
# also when only one value of a sweep is too many
cs 2 run sys.iov segs=8,2048 --quick
contains "$ERR" "segs: 2048 is out of range (1 .. 1024)"
not_contains "$OUT" "time/call"
[ "$(count_runs)" -eq "$runs" ] || fail "a refused run was stored"

note "segs = IOV_MAX itself is allowed"
cs 0 run sys.iov segs=1024 --quick --no-store
contains_re "$OUT" "^ +time/call +$TIME .* 3\$"

note "segs x seg_size above 64 MiB: exit 2"
cs 2 run sys.iov segs=1024 seg_size=1M --quick
contains "$ERR" "segs x seg_size"
[ "$(count_runs)" -eq "$runs" ] || fail "a refused run was stored"
exit 0
