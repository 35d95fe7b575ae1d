#!/bin/sh
# test_ring_bw.sh - `run ring.bw`: verify=1 passes with threads and with
# processes under --quick, including message, read and ring sizes that do
# not divide each other; the ring's capacity note; bad input.
. "$(dirname "$0")/lib.sh"

# verify ARGS...: a verified quick run must report every byte delivered.
verify() {
	note "verify=1 $*"
	cs 0 run ring.bw verify=1 "$@" --quick --no-store
	grep -qi 'verify: fail' "$OUT" && fail "verify failed"
	contains "$OUT" "verify: ok"
	contains_flat "$OUT" "0 lost, 0 duplicated, 0 corrupted"
	contains "$OUT" "writer cpu"
}

for mode in thread proc; do
	verify mode=$mode
	contains "$OUT" "ring capacity 65536 bytes (a default pipe's)"
	# 3000 and 5000 do not divide 4096; 100 and 7 do not divide 64k.
	verify mode=$mode size=3000 rsize=5000 pipe_size=4k
	contains "$OUT" "ring capacity 4096 bytes, published every 1024"
	verify mode=$mode size=100 rsize=7
	verify mode=$mode size=5000 rsize=1000 pipe_size=61 spin=0
done
verify place=same size=12345 pipe_size=1000
contains_flat "$OUT" "on one CPU: no spinning"

note "place=split on one allowed CPU: no spinning either, both notes kept"
cs 0 run ring.bw --cpus 0 --quick --no-store
contains_flat "$OUT" "2 workers on 1 allowed CPU"
contains_flat "$OUT" "ring capacity 65536 bytes (a default pipe's)"
contains_flat "$OUT" "on one CPU: no spinning"

note "bandwidth and time/write rows"
cs 0 run ring.bw size=4k,64k --quick --no-store
for s in 4k 64k; do
	contains_re "$OUT" "^ +$s +bandwidth +([0-9.]+ [KMGT]?i?B/s|withheld)"
done
contains_re "$OUT" 'time/write +([0-9.]+ [num]?s|withheld)'

note "bad parameters are usage errors"
cs 2 run ring.bw mode=fork --quick --no-store
contains "$ERR" "mode"
cs 2 run ring.bw spin=-1 --quick --no-store
contains "$ERR" "spin"
exit 0
