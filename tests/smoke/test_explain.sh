#!/bin/sh
# test_explain.sh - `run pipe.bw --explain`: mem.copy and ring.bw run at the
# same sizes and the side-by-side block is printed per size; it refuses
# pipe.bw configurations that do not make two copies, and runs without a
# workload that has an explain recipe.  The file workloads per byte
# against mem.copy libc and movsb (floors run once for two workloads),
# also in the stored run's show --json.
# Also --perf-counters (perf software events) as an opt-in.
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

note "file.rw and file.copy --explain: per byte against mem.copy libc, movsb"
if "$BIN" run mem.copy engine=movsb size=64 --quick --no-store \
	>/dev/null 2>&1; then
	cs 0 run file.rw file.copy target=memfd size=4k,64k --explain --quick
	RUN=$(run_id)
	[ -n "$RUN" ] || fail "the run was not stored"
	# the floors are measured once for both workloads
	[ "$(grep -c '^mem\.copy ' "$OUT")" -eq 2 ] ||
		fail "expected one mem.copy job per engine"
	contains_re "$OUT" '^mem\.copy +engine=libc '
	contains_re "$OUT" '^mem\.copy +engine=movsb '
	[ "$(count_matches "$OUT" "per byte against mem.copy: ")" -eq 2 ] ||
		fail "expected a per-byte block for file.rw and file.copy"
	contains_flat "$OUT" "per byte against mem.copy: file.rw target=memfd dir=read flags=none segs=1 tmpdir=/var/tmp"
	contains_re "$OUT" '^  size +per call +per byte +floor +per byte +speed +over copy$'
	contains_re "$OUT" '^  4k +[0-9.]+ [nu]s +[0-9.]+ ns +libc +[0-9.]+ ns +[0-9.]+% +'
	contains_re "$OUT" '^ +movsb +[0-9.]+ ns +[0-9.]+% +'
	contains_flat "$OUT" "least-squares fit over 2 sizes: per call ="
	flat "$OUT" | grep -E -q "file.copy moves a byte in [0-9.]+ [a-z]+s: [0-9]+% of mem.copy libc's speed \([0-9.]+ ns\), [0-9]+% of mem.copy movsb's speed \([0-9.]+ ns\); plus [0-9.]+ [nu]s per call." ||
		fail "no fitted per-byte line for file.copy"
	# the stored run's JSON holds the same per-byte blocks
	need_python
	cs 0 show "$RUN" --json
	python3 -c '
import json, sys
d = json.load(sys.stdin)
pb = [e for e in d["explain"] if e.get("kind") == "per_byte"]
assert [e["workload"] for e in pb] == ["file.rw", "file.copy"], pb
for e in pb:
    assert e["title"].startswith("per byte against mem.copy: "), e["title"]
    assert e["per"] == "call", e["per"]
    assert [p["size"] for p in e["points"]] == ["4k", "64k"], e["points"]
    assert [p["size_bytes"] for p in e["points"]] == [4096, 65536]
    for p in e["points"]:
        assert p["ns_per_op"] > 0 and p["ns_per_byte"] > 0, p
        assert [f["what"] for f in p["floors"]] == \
            ["mem.copy libc", "mem.copy movsb"], p["floors"]
        for f in p["floors"]:
            assert f["bytes_per_s"] > 0 and f["speed"] > 0, f
    fit = e["fit"]
    assert fit["points"] == 2 and fit["r2"] is None, fit
    assert len(fit["floors"]) == 2, fit
' <"$OUT" || fail "show --json: no per-byte explain for file.rw and file.copy"
else
	skip_case "this CPU has no rep movsb (ERMS): mem.copy engine=movsb cannot run"
fi

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
