#!/bin/sh
# test_explain.sh - `run pipe.bw --explain`: mem.copy and ring.bw run at the
# same sizes and the side-by-side block is printed per size; it refuses
# pipe.bw configurations that do not make two copies, and runs without a
# pipe.bw.  Also --perf-counters (perf software events) as an opt-in.
. "$(dirname "$0")/lib.sh"

note "pipe.bw --explain at two sizes"
cs 0 run pipe.bw size=4k,64k --explain --quick --no-store
contains_re "$OUT" '^mem\.copy '
contains_re "$OUT" '^ring\.bw '
[ "$(count_matches "$OUT" "where the time goes: pipe.bw size=")" -eq 2 ] ||
	fail "expected one explanation per size"
contains "$OUT" "where the time goes: pipe.bw size=4k"
contains "$OUT" "where the time goes: pipe.bw size=64k"
contains "$OUT" "two-copy floor (1/2)"
contains_re "$OUT" '^ +ring\.bw \(2 copies\) +[0-9.]+ [KMG]iB/s'
contains_flat "$OUT" "kernel path (pipe - ring):"

note "--explain refuses what is not two copies, and needs pipe.bw"
cs 2 run pipe.bw io=vmsplice --explain --quick --no-store
contains "$ERR" "io=write and reader=read"
cs 2 run sys.null --explain --quick --no-store
contains "$ERR" "pipe.bw"
not_contains "$OUT" "timer:"

note "--perf-counters: perf software events where the kernel allows them"
need_python
cs 0 run sys.null --perf-counters --quick --no-store --json
python3 -c '
import json, sys
d = json.load(sys.stdin)
info = d["results"][0]["info"]
cs = info["ctx_switches"]
assert isinstance(cs, list) and len(cs) == 3, cs
' <"$OUT" || fail "--perf-counters: no context-switch counts"
exit 0
