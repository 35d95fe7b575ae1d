#!/bin/sh
# test_import_observation.sh - import refuses an observation that breaks
# the rules its reader promises (#34 item 5): a histogram bucket that is
# not two integers ([10, 0.5], ["16", "x"]), a write-size bucket beyond
# what a write can return (2^62), a bucket given twice, a class array of
# the wrong length, a negative class count, a negative count and a
# negative duration, a lock caller's histogram bucket beyond 63.  Each is
# exit 2 naming the field, and the database is byte for byte what it
# was.  An observation stored before callers had wait histograms (and
# offsets) imports and prints the merged pipe histogram, saying so,
# callers by total wait, within 80 columns.  Needs root and BPF to make the
# observation (skipped, exit 77, otherwise).
. "$(dirname "$0")/lib.sh"
need_python

[ "$(id -u)" -eq 0 ] || skip "observe loads BPF programs: needs root"
"$BIN" observe --duration 300ms --what pipe-writes,lock,wakeup \
	>"$TMP/obs.out" 2>&1 || {
	cat "$TMP/obs.out"
	skip "BPF cannot load here"
}
cs 0 export last -o "$TMP/obs.jsonl"
D="$TMP/d.db"
cs 0 import "$TMP/obs.jsonl" --db "$D"
sum0=$(cksum <"$D")

# bad NAME PYTHON TEXT...: the export with o (its observation) changed by
# PYTHON is refused with exit 2, each TEXT in the message, and the
# database is unchanged.
bad() {
	_n=$1
	_py=$2
	shift 2
	python3 - "$TMP/obs.jsonl" "$TMP/$_n.jsonl" "$_py" <<'PY' ||
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
run = lines[1]
run["run"]["uuid"] = "2" * 32
for x in lines[2:-1]:
    x["run"] = "2" * 32
o = run["observation"]
exec(sys.argv[3])
with open(sys.argv[2], "w") as f:
    for l in lines:
        f.write(json.dumps(l, separators=(",", ":")) + "\n")
PY
		fail "bad $_n: python3 failed"
	cs 2 import "$TMP/$_n.jsonl" --db "$D"
	for _t in "$@"; do
		contains "$ERR" "$_t"
	done
	[ "$(cksum <"$D")" = "$sum0" ] ||
		fail "a refused import ($_n) changed the database"
}

note "a bucket count that is not an integer"
bad frac 'o["pipe_writes"]["log2"] = [[10, 0.5]]' \
	"'log2': bucket 0 is not [0..30, count]"
note "a bucket given as strings"
bad str 'o["wakeup"]["log2"] = [["16", "x"]]' \
	"'log2': bucket 0 is not [0..63, count]"
note "a write-size bucket no write can reach"
bad huge 'o["pipe_writes"]["log2"] = [[62, 1]]' \
	"'log2': bucket 0 is not [0..30, count]"
note "a bucket twice"
bad dup 'o["pipe_writes"]["log2"] = [[4, 1], [4, 2]]' \
	"'log2': bucket 4 appears twice (entry 1)"
note "a class array of 3 entries"
bad short 'o["pipe_writes"]["classes"] = [1, 2, 3]' \
	"'classes' has 3 entries (one count per size class:"
note "a negative class count"
bad negcls 'o["pipe_writes"]["classes"][0] = -1' \
	"'classes': class 0 is not a count (an integer >= 0)"
note "a negative count"
bad negcount 'o["pipe_writes"]["count"] = -5' \
	"'count' is -5 (a count or duration, >= 0)"
note "a negative duration"
bad negdur 'o["duration_ns"] = -1000' \
	"'duration_ns' is -1000 (a count or duration, >= 0)"

note "a lock caller's wait histogram with a bucket beyond 63"
bad callerlog2 'o["lock"]["callers"] = [{"caller": "x+0x1", "type": "mutex", "contentions": 1, "wait_ns": 5, "max_wait_ns": 5, "log2": [[70, 1]]}]' \
	"'log2': bucket 0 is not [0..63, count]"

note "an observation stored before per-caller histograms still reads"
python3 - "$TMP/obs.jsonl" "$TMP/old.jsonl" <<'PY' || fail "making the old export failed"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
run = lines[1]
run["run"]["uuid"] = "3" * 32
for x in lines[2:-1]:
    x["run"] = "3" * 32
lk = run["observation"]["lock"]
lk["callers"] = [{"caller": "anon_pipe_write", "type": "mutex",
                  "contentions": 3, "wait_ns": 9000, "max_wait_ns": 5000},
                 {"caller": "anon_pipe_read", "type": "mutex",
                  "contentions": 1, "wait_ns": 20000, "max_wait_ns": 20000}]
lk["contentions"], lk["wait_ns"] = 4, 29000
lk["pipe_mutex"] = {"count": 4, "log2": [[11, 3], [14, 1]]}
with open(sys.argv[2], "w") as f:
    for l in lines:
        f.write(json.dumps(l, separators=(",", ":")) + "\n")
PY
cs 0 import "$TMP/old.jsonl" --db "$TMP/o.db"
cs 0 show last --db "$TMP/o.db"
contains "$OUT" "(stored before observe kept a histogram per caller: the read and write sides"
contains_re "$OUT" "^    \[2us, 4us\) +3 \|"
contains_re "$OUT" "^    \[16us, 32us\) +1 \|"
not_contains "$OUT" "wait of anon_pipe"
# the read side first: it waited longer in all
python3 - "$OUT" <<'PY' || fail "the old record's callers are not by total wait"
import sys
t = open(sys.argv[1]).read()
assert t.index("  anon_pipe_read\n") < t.index("  anon_pipe_write\n"), t
PY
# the observation's text (show's own header line of the run is not it)
awk '/^observed / { on = 1 } on && length($0) > 80 { print; bad = 1 }
     /^lost events/ { on = 0 } END { exit bad }' "$OUT" ||
	fail "an old observation's text is wider than 80 columns"

note "the untouched export still imports"
cs 0 import "$TMP/obs.jsonl" --db "$TMP/e.db"
exit 0
