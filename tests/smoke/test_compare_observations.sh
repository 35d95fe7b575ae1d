#!/bin/sh
# test_compare_observations.sh - `compare` of observations (#32 item 3):
# three crafted observations of known counts (imported, so the answers
# are known) side by side: the size classes' shares and their point
# differences, the lock table's total wait by caller with its change,
# --caller keeping the matching callers only, the mutex-wait histograms
# per pipe function (read and write sides apart; one merged, said so, when
# a column was stored before per-caller histograms),
# show --mail with each pipe caller's waits, three columns from a comma
# list, every line within 80 columns, the
# JSON's numbers; an observation against a run, --csv, and more columns
# than the table holds are usage errors (exit 2).
. "$(dirname "$0")/lib.sh"
need_python

cs 0 run sys.null --quick --tag plain
cs 0 export last -o "$TMP/run.jsonl"

# obs TAG WRITES CLASSES WAITS_NS [READ_LOG2|old]: an export of one
# observation, each caller with its wait histogram (the read side's
# READ_LOG2, default [[10, 8]]), or, with old, none (stored before them)
obs() {
	python3 - "$TMP/run.jsonl" "$TMP/$1.jsonl" "$@" <<'PY' ||
import json, sys, uuid
src, dst, tag, writes, classes, waits = sys.argv[1:7]
extra = sys.argv[7] if len(sys.argv) > 7 else "[[10, 8]]"
lines = [json.loads(l) for l in open(src)]
hdr, run = lines[0], lines[1]
run["run"]["uuid"] = uuid.uuid4().hex
run["run"]["tag"] = tag
run["run"]["options"] = None
run["results"] = 0
cls = [int(x) for x in classes.split(",")]
w = [int(x) for x in waits.split(",")]
run["observation"] = {
    "asked": ["pipe-writes", "lock", "wakeup"],
    "ran": ["pipe-writes", "lock", "wakeup"],
    "comm_filter": "", "pid_filter": 0, "duration_ns": 3000000000,
    "pipe_source": "crafted", "notes": [], "comms": [], "syscalls": [],
    "drops": {k: 0 for k in ("comm_full", "lock_full", "no_stack",
                             "pending_full", "syscall_nr", "wakeup_full")},
    "pipe_writes": {"count": int(writes), "bytes": 100 * int(writes),
                    "classes": cls, "log2": [[6, int(writes)]]},
    "lock": {"contentions": 30, "wait_ns": sum(w),
             "callers": [
                 {"caller": "anon_pipe_write+0x2f", "type": "mutex",
                  "contentions": 20, "wait_ns": w[0], "max_wait_ns": w[0]},
                 {"caller": "anon_pipe_read+0x51", "type": "mutex",
                  "contentions": 8, "wait_ns": w[1], "max_wait_ns": w[1]},
                 {"caller": "do_epoll_wait+0x3c", "type": "spinlock",
                  "contentions": 2, "wait_ns": w[2], "max_wait_ns": w[2]}],
             "pipe_mutex": {"count": 28, "log2": [[10, 8], [12, 20]]}},
    "wakeup": {"count": 100, "log2": [[13, 100]]},
}
callers = run["observation"]["lock"]["callers"]
if extra != "old":
    for c, h in zip(callers, ([[12, 20]], json.loads(extra), [[13, 2]])):
        c["log2"] = h
out = [hdr, run, {"type": "end", "runs": 1, "results": 0}]
with open(dst, "w") as f:
    for o in out:
        f.write(json.dumps(o) + "\n")
PY
		fail "crafting $1 failed"
	cs 0 import "$TMP/$1.jsonl"
}

obs grace-a 1000 700,300,0,0,0,0,0,0 1000000,500000,30000
obs grace-b 2000 800,1200,0,0,0,0,0,0 2000000,500000,60000 "[[10, 4], [11, 4]]"
obs bergamo 500 500,0,0,0,0,0,0,0 100000,100000,10000

note "two observations: shares, point differences, the change of the waits"
cs 0 compare grace-a grace-b
contains "$OUT" "copyscope compare: 2 observations side by side"
contains_re "$OUT" "^  A: run [0-9]+, tag grace-a, host .*, 3.00 s, system-wide$"
contains_re "$OUT" "^  writes +1000 +2000 +\+100\.0%$"
contains_re "$OUT" "^  <128 B +70\.00% +40\.00% +-30\.00 pp$"
contains_re "$OUT" "^  128 B-4 KiB +30\.00% +60\.00% +\+30\.00 pp$"
contains_re "$OUT" "^  anon_pipe_write\+0x2f \(mutex\)$"
contains_re "$OUT" "^ +1\.00 ms +2\.00 ms +\+100\.0%$"
# the pipe mutex by function, the read and write sides apart, labelled as
# every histogram of the text report
contains_re "$OUT" "^  waits by pipe function \(its call sites summed\), then their shares by wait:$"
contains_re "$OUT" "^  anon_pipe_write +20 +20 +\+0\.0%$"
contains_re "$OUT" "^    \[4us, 8us\) +100\.00% +100\.00% +\+0\.00 pp$"
contains_re "$OUT" "^  anon_pipe_read +8 +8 +\+0\.0%$"
contains_re "$OUT" "^    \[1us, 2us\) +100\.00% +50\.00% +-50\.00 pp$"
contains_re "$OUT" "^    \[2us, 4us\) +0\.00% +50\.00% +\+50\.00 pp$"
not_contains "$OUT" "read and write sides merged"
contains "$OUT" "No CI is given for a change"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "compare of observations is wider than 80 columns"
# the callers by total wait over the columns: write, read, epoll
python3 - "$OUT" <<'PY' || fail "the lock table is not by total wait"
import sys
t = open(sys.argv[1]).read()
a, b, c = (t.index(x) for x in ("anon_pipe_write", "anon_pipe_read",
                                "do_epoll_wait"))
assert a < b < c, (a, b, c)
PY

note "--caller keeps the matching callers"
cs 0 compare grace-a grace-b --caller 'anon_pipe_*'
contains "$OUT" "anon_pipe_read+0x51"
not_contains "$OUT" "do_epoll_wait"
contains "$OUT" "matching 'anon_pipe_*'"
contains "$OUT" "waits by pipe function, callers matching 'anon_pipe_*' (its"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "compare --caller of observations is wider than 80 columns"

note "a column stored before per-caller histograms: the merged one, said"
obs grace-old 1000 700,300,0,0,0,0,0,0 1000000,500000,30000 old
cs 0 compare grace-old grace-b
contains "$OUT" "(a column was stored before observe kept a histogram per caller"
contains_re "$OUT" "^  \[1us, 2us\) +28\.57% +28\.57% +\+0\.00 pp$"
not_contains "$OUT" "waits by pipe function"
cs 0 compare grace-old grace-b --json
python3 - "$OUT" <<'PY' || fail "compare --json with an old column is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pipe_mutex"]["by_function"] is None
assert d["pipe_mutex"]["count"] == [28, 28]
PY

note "one observation as a mail: the callers by wait, each pipe caller's waits"
cs 0 show grace-b --mail
contains_re "$OUT" "^ +2(\.00)? +wait anon_pipe_write\+0x2f \(mutex\) \(ms\)$"
contains_re "$OUT" "^ +28 +pipe mutex waits$"
contains_re "$OUT" "^ +20 +of anon_pipe_write\+0x2f$"
contains_re "$OUT" "^ +8 +of anon_pipe_read\+0x51$"

note "three columns from a comma list, no change column"
cs 0 compare grace-a grace-b,bergamo
contains "$OUT" "3 observations side by side"
contains_re "$OUT" "^  <128 B +70\.00% +40\.00% +100\.00%$"
not_contains "$OUT" "B vs A"

note "the JSON holds the same numbers"
cs 0 compare grace-a grace-b,bergamo --json
python3 - "$OUT" <<'PY' || fail "compare --json of observations is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "observation_compare"
assert [c["tag"] for c in d["columns"]] == ["grace-a", "grace-b", "bergamo"]
assert d["pipe_writes"]["count"] == [1000, 2000, 500]
assert d["pipe_writes"]["classes"][0]["count"] == [700, 800, 500]
w = {c["caller"]: c["wait_ns"] for c in d["lock"]["callers"]}
assert w["anon_pipe_write+0x2f"] == [1000000, 2000000, 100000], w
assert d["pipe_mutex"]["log2"] == [{"bucket": 10, "count": [8, 8, 8]},
                                   {"bucket": 12, "count": [20, 20, 20]}]
f = {x["function"]: x for x in d["pipe_mutex"]["by_function"]}
assert list(f) == ["anon_pipe_write", "anon_pipe_read"], list(f)
assert f["anon_pipe_read"]["count"] == [8, 8, 8]
assert f["anon_pipe_read"]["log2"] == [{"bucket": 10, "count": [8, 4, 8]},
                                       {"bucket": 11, "count": [0, 4, 0]}]
PY

note "what does not fit is refused, naming why"
cs 2 compare grace-a plain
contains "$ERR" "observations (copyscope observe) compare only with observations"
cs 2 compare grace-a grace-b --csv
contains "$ERR" "--csv: not for observations"
obs more1 10 10,0,0,0,0,0,0,0 1,1,1
obs more2 10 10,0,0,0,0,0,0,0 1,1,1
cs 2 compare grace-a grace-b,bergamo,more1,more2
contains "$ERR" "at most 4 side by side"
cs 0 compare grace-a grace-b,bergamo,more1,more2 --json
cs 2 compare plain plain --caller 'x*'
contains "$ERR" "--caller: for observations only"
exit 0
