#!/bin/sh
# test_pipe_mix.sh - `run pipe.mix`: the fleet mix prints write latency
# per size class; bytes per write match the mix exactly (large, page, a
# big writer); several readers, threads and processes finish every sample;
# a big writer shows on its own line; bad parameters exit 2 naming them.
. "$(dirname "$0")/lib.sh"

note "default: fleet mix, 4 writers, 1 reader; stored and shown"
cs 0 run pipe.mix --quick
contains_re "$OUT" '^pipe\.mix +writers=4 +readers=1 .*mix=fleet'
contains_re "$OUT" '^  writes/s +([0-9.]+ [KMG]?/s|withheld) '
contains_re "$OUT" '^  bandwidth +([0-9.]+ [KMGT]?i?B/s|withheld) '
for m in "p50 <128B" "p99 <128B" "max <128B" "p50 128B-4K" "p99 128B-4K" \
	"p50 4K-8K" "p99 4K-8K" "p50 8K+" "p99 8K+" "p99 all"; do
	re=$(printf '%s' "$m" | sed 's/+/\\+/g')
	contains_re "$OUT" "^  $re +([0-9.]+ [mun]?s|withheld) "
done
contains_flat "$OUT" \
	"mix fleet: 98% <128B, 0.4% 128B-4K, 0.72% 4K-8K, 0.88% 8K+"
for w in writer0 writer1 writer2 writer3; do
	contains_re "$OUT" "^ +$w +([0-9.]+ [mun]?s|withheld) "
done
cs 0 show last
contains_re "$OUT" "p99 <128B +([0-9.]+ [mun]?s|withheld) "

note "a mix that misses classes says so"
cs 0 run pipe.mix mix=small writers=2 --quick --no-store
contains_flat "$OUT" "no writes in 128B-4K, 4K-8K, 8K+: no rows for them"
not_contains "$OUT" "p50 8K+"

note "several readers, threads and processes, a big writer: all finish"
cs 0 run pipe.mix writers=2 readers=1,3 mode=thread,proc big_writers=0,1 \
	--quick --no-store
[ "$(grep -E -c ' writes/s +([0-9.]+|withheld) ' "$OUT")" -eq 8 ] ||
	fail "expected 8 configurations"
contains_re "$OUT" '^ +big0 +([0-9.]+ [mun]?s|withheld) '
contains_flat "$OUT" "1 big writer of 65536 bytes"
contains "$OUT" "reader2 cpu"

note "bytes per write: exactly the mix's (large 64k, page 4k, big writer)"
need_python
cs 0 run pipe.mix 'mix=large;page' writers=2 readers=2 --quick --no-store --json
cp "$OUT" "$TMP/a.json"
cs 0 run pipe.mix mix=page writers=1 big_writers=1 big_size=64k --quick \
	--no-store --json
cp "$OUT" "$TMP/b.json"
python3 - "$TMP/a.json" "$TMP/b.json" <<'PY' || fail "bytes per write"
import json, sys
want = {"large": 65536, "page": 4096}
seen = 0
for path in sys.argv[1:]:
    res = json.load(open(path))["results"]
    by = {}
    for r in res:
        key = json.dumps(r["params"], sort_keys=True)
        by.setdefault(key, {})[r["metric"]] = r["samples"]
    for key, m in by.items():
        p = json.loads(key)
        w = want[p["mix"]]
        if p["big_writers"] == "1":     # one page writer, one 64k writer
            w = (4096 + 65536) / 2
        for i, (ops, bw) in enumerate(zip(m["writes/s"], m["bandwidth"])):
            assert ops > 0 and abs(bw / ops - w) < 1e-6 * w, \
                (key, i, bw / ops, w)
            seen += 1
        # only the page class (4 KiB is in 4K-8K) has writes: the
        # classes without any are not stored at all
        assert "p50 <128B" not in m, key
        if p["big_writers"] == "0":
            cls = "p50 8K+" if p["mix"] == "large" else "p50 4K-8K"
            assert all(v > 0 for v in m[cls]), (key, cls)
assert seen == 9, seen
PY

note "a custom mix from the command line"
cs 0 run pipe.mix mix=64:98,128-4k:2 writers=2 --quick --no-store
contains "$OUT" "mix=64:98,128-4k:2"
contains "$OUT" "p99 128B-4K"

note "bad parameters exit 2 before measuring, naming them"
cs 2 run pipe.mix mix=nosuch --quick --no-store
contains "$ERR" "mix"
contains "$ERR" "fleet"
cs 2 run pipe.mix mix=64:98,4k-2k:2 --quick --no-store
contains "$ERR" "entry 2 '4k-2k:2'"
not_contains "$OUT" "timer:"
cs 2 run pipe.mix writers=32 readers=32 big_writers=1 --quick --no-store
contains "$ERR" "writers + big_writers + readers: 65 workers, at most 64"
cs 2 run pipe.mix big_size=2M --quick --no-store
contains "$ERR" "big_size"
exit 0
