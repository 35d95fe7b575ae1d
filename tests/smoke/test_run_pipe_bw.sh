#!/bin/sh
# test_run_pipe_bw.sh - `run pipe.bw`: a size sweep, the verify pass over
# every writer/reader variant, placements, and where the workers ran.
. "$(dirname "$0")/lib.sh"

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

note "size sweep 4k,64k,1M"
cs 0 run pipe.bw size=4k,64k,1M --quick
contains_re "$OUT" '^pipe\.bw '
for s in 4k 64k 1M; do
	contains_re "$OUT" "^ +$s +bandwidth +([0-9.]+ [KMGT]?i?B/s|withheld)"
done
[ "$(grep -E -c '^ +(4k|64k|1M) +bandwidth ' "$OUT")" -eq 3 ] ||
	fail "expected exactly 3 size rows"
[ "$(grep -E -c '^ +(4k +|64k +|1M +)?time/write +([0-9.]+|withheld) ' "$OUT")" -eq 3 ] ||
	fail "expected 3 time/write rows"
[ "$(count_matches "$OUT" "writer cpu")" -eq 3 ] ||
	fail "expected one 'writer cpu' line per size"
contains "$OUT" "reader cpu"

# verify ARGS...: a verified quick run must report every byte delivered.
verify() {
	note "verify=1 $*"
	cs 0 run pipe.bw verify=1 "$@" --quick --no-store
	contains "$OUT" "verify: ok"
	contains_flat "$OUT" "0 lost, 0 duplicated, 0 corrupted"
	grep -qi 'verify: fail' "$OUT" && fail "verify failed"
	contains "$OUT" "writer cpu"
}
verify
verify mode=thread
verify io=vmsplice
verify reader=splice
verify rsize=1000
verify size=100
verify io=vmsplice reader=splice mode=thread size=100 rsize=7

# pipe_size=1M needs pipe-max-size >= 1M unless we may raise it
maxsz=$(cat /proc/sys/fs/pipe-max-size 2>/dev/null || echo 0)
if [ "$(id -u)" -eq 0 ] || [ "$maxsz" -ge 1048576 ]; then
	verify pipe_size=1M
	contains "$OUT" "pipe capacity 1048576 bytes"
else
	note "skipped pipe_size=1M: pipe-max-size is $maxsz and not root"
fi

note "one allowed CPU: the placement note and the capacity note both show"
cs 0 run pipe.bw --cpus 0 --quick --no-store
contains_flat "$OUT" "2 workers on 1 allowed CPU"
contains_flat "$OUT" "pipe capacity 65536 bytes (kernel default)"

note "--verify sets verify=1"
cs 0 run pipe.bw size=4k --verify --quick --no-store
contains "$OUT" "verify: ok"

note "place=same: writer and reader on one CPU"
cs 0 run pipe.bw place=same --quick --no-store
line=$(grep 'writer cpu' "$OUT") || fail "no 'writer cpu' line"
w=$(echo "$line" | sed -n 's/.*writer cpu \([0-9]*\).*/\1/p')
r=$(echo "$line" | sed -n 's/.*reader cpu \([0-9]*\).*/\1/p')
[ -n "$w" ] && [ "$w" = "$r" ] ||
	fail "place=same: writer cpu '$w' and reader cpu '$r' differ: $line"

if [ "$ncpu" -ge 2 ]; then
	note "place=split: writer and reader on two CPUs"
	cs 0 run pipe.bw place=split size=4k --quick --no-store
	line=$(grep 'writer cpu' "$OUT") || fail "no 'writer cpu' line"
	w=$(echo "$line" | sed -n 's/.*writer cpu \([0-9]*\).*/\1/p')
	r=$(echo "$line" | sed -n 's/.*reader cpu \([0-9]*\).*/\1/p')
	[ -n "$w" ] && [ -n "$r" ] && [ "$w" != "$r" ] ||
		fail "place=split: writer cpu '$w', reader cpu '$r': $line"
fi

note "place=none runs and says where the workers were"
cs 0 run pipe.bw place=none --quick --no-store
contains "$OUT" "writer cpu"
contains "$OUT" "reader cpu"
contains_re "$OUT" '^ +bandwidth +([0-9.]+|withheld) '

note "mode=thread place=same"
cs 0 run pipe.bw mode=thread place=same size=4k --quick --no-store
contains "$OUT" "writer cpu"
exit 0
