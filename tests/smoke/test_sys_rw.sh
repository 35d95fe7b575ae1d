#!/bin/sh
# test_sys_rw.sh - `run sys.rw`: a call per size against memfd, /dev/zero
# and /dev/null, the least-squares fit over a size sweep (run and show),
# the cold-call trace, and the refused read of /dev/null (exit 2).
. "$(dirname "$0")/lib.sh"

NUM='-?[0-9.]+'
TIME="$NUM (ps|ns|us|ms|s)"
RATE='[0-9.]+ (B|KiB|MiB|GiB|TiB)/s'

note "run sys.rw --quick: a 4 KiB pread from a memfd"
cs 0 run sys.rw --quick
contains_re "$OUT" '^sys\.rw +target=memfd +dir=read +size=4k'
contains_re "$OUT" "^ +time/call +$TIME .* 3\$"
contains_re "$OUT" '^ +cycles/call +[0-9.]+ .* 3$'
contains_re "$OUT" "^ +bandwidth +$RATE .* 3\$"
contains "$OUT" "caller cpu"
not_contains "$OUT" "least-squares fit"
contains "$OUT" "stored as run 1"

note "a size sweep, read and write on a memfd: one fit row per dir"
cs 0 run sys.rw target=memfd dir=read,write size=1,4k,64k --quick
cp "$OUT" "$TMP/sweep"
contains "$OUT" "least-squares fit over size: time/call = fixed + per byte x size"
contains_re "$OUT" '^ +dir +fixed +per byte +bytes/s +R² +points$'
contains_re "$OUT" "^ +read +$TIME +$TIME +$RATE +$NUM +3\$"
contains_re "$OUT" "^ +write +$TIME +$TIME +$RATE +$NUM +3\$"
contains "$OUT" "stored as run 2"

note "show 2 prints the same fit from the store"
cs 0 show 2
grep -A4 'least-squares fit over size' "$TMP/sweep" >"$TMP/fit.run"
grep -A4 'least-squares fit over size' "$OUT" >"$TMP/fit.show"
cmp -s "$TMP/fit.run" "$TMP/fit.show" ||
	fail "show's fit differs from run's: $(diff "$TMP/fit.run" "$TMP/fit.show")"

note "/dev/zero read and /dev/null write, one fit line each"
cs 0 run sys.rw target=zero dir=read size=64,4k,32k --quick
contains_re "$OUT" '^sys\.rw +target=zero +dir=read'
contains_flat "$OUT" "least-squares fit over size (3 points): time/call ="
cs 0 run sys.rw target=null dir=write size=64,4k,32k --quick
contains_re "$OUT" '^sys\.rw +target=null +dir=write'
contains_flat "$OUT" "least-squares fit over size (3 points): time/call ="
cs 0 run sys.rw target=zero dir=write size=1M --quick
contains_re "$OUT" "^ +bandwidth +$RATE .* 3\$"

note "trace=4: cold calls #1 .. #4 in a fresh process"
cs 0 run sys.rw size=64k trace=4 --quick
contains_flat "$OUT" "cold calls in a fresh process, cold time/call:"
flat "$OUT" >"$TMP/flat"
i=1
while [ $i -le 4 ]; do
	grep -E -q "#$i [0-9.]+ (ps|ns|us|ms|s)( |;|\$)" "$TMP/flat" ||
		fail "cold-call trace lacks call #$i with a time"
	i=$((i + 1))
done
grep -q '#5 ' "$TMP/flat" && fail "trace=4 shows a call #5"

runs=$(count_runs)

note "dir=read target=null: exit 2, nothing measured or stored"
cs 2 run sys.rw target=null dir=read --quick
contains "$ERR" "dir=read target=null"
contains "$ERR" "target=memfd or zero"
not_contains "$OUT" "time/call"
cs 2 run sys.rw target=zero,null dir=read --quick
contains "$ERR" "dir=read target=null"
[ "$(count_runs)" -eq "$runs" ] || fail "a refused run was stored"

note "size out of range: exit 2"
cs 2 run sys.rw size=0 --quick
contains "$ERR" "size"
[ "$(count_runs)" -eq "$runs" ] || fail "a refused run was stored"
exit 0
