#!/bin/sh
# test_replay_text.sh - no text is cut without a word (issue 30 item 5):
# an observation imported from a crafted export (20 log2 buckets of
# pipe writes, counts of 9 to 12 digits: a 16-entry mix of ~330 bytes)
# is replayed by `run pipe.mix mix=observed:ID`, which says which
# observation it replays; the mix is stored whole (show --json, export,
# import) and printed whole in lines of at most 80 columns (run, show),
# and the note keeps every class share, the pipe capacity and the
# worker-placement note after it.  Needs no BPF: the observation is
# imported.
. "$(dirname "$0")/lib.sh"
need_python

python3 - "$TMP/obs.jsonl" <<'PY'
import json, sys
log2 = [[b, 123456789 + 1000003 * b * b * b] for b in range(20)]
log2[19][1] = 987654321012
cls = [0] * 8
for b, n in log2:
    c = 0 if b < 7 else 1 if b < 12 else 2 if b < 13 else 3
    cls[c] += n
total = sum(n for _, n in log2)
obs = {"asked": ["pipe-writes"], "comm_filter": "", "comms": [
        {"bytes": 1 << 40, "classes": cls, "comm": "nginx",
         "contentions": 0, "log2": log2, "max_wait_ns": 0, "wait_ns": 0,
         "writes": total}],
       "drops": {k: 0 for k in ("comm_full", "lock_full", "no_stack",
                                "pending_full", "syscall_nr",
                                "wakeup_full")},
       "duration_ns": 120000000000,
       "lock": {"callers": [], "contentions": 0,
                "pipe_mutex": {"count": 0, "log2": []}, "wait_ns": 0},
       "notes": [], "pid_filter": 0,
       "pipe_source": "tracepoints syscalls:write,writev,splice (FIFO fds)",
       "pipe_writes": {"bytes": 1 << 40, "classes": cls, "count": total,
                       "log2": log2},
       "ran": ["pipe-writes"], "syscalls": [],
       "wakeup": {"count": 0, "log2": []}}
run = {"uuid": "5eed0b5e0000000000000000000000a1", "group": None,
       "tag": "", "host": "web-7", "boot_id": "b007", "status": "complete",
       "started_ns": 1796222578852908711, "finished_ns": 1796222698852908711,
       "tool_version": "test", "build_flavour": "release",
       "cmdline": "copyscope observe --duration 120s", "options": None}
with open(sys.argv[1], "w") as f:
    for rec in ({"format": "copyscope-export", "schema_version": 1,
                 "copyscope": "test"},
                {"type": "run", "run": run,
                 "environment": {"kernel.release": "6.18"}, "results": 0,
                 "observation": obs},
                {"type": "end", "runs": 1, "results": 0}):
        f.write(json.dumps(rec) + "\n")
PY
cs 0 import -v "$TMP/obs.jsonl"
OBS=$(sed -n 's/^imported as run \([0-9]*\) .*/\1/p' "$OUT" "$ERR")
[ -n "$OBS" ] || fail "the crafted observation was not imported"

note "replay: says which observation, prints the mix whole in 80 columns"
cs 0 run pipe.mix mix=observed:$OBS writers=3 --reps 2 \
	--sample-time 5ms --warmup 0
contains "$ERR" "replaying observation $OBS (web-7, 2026-12-02 14:42 UTC, every comm)"
cp "$OUT" "$TMP/run.txt"
RUN=$(run_id)
python3 - "$COPYSCOPE_DB" "$TMP/run.txt" "$BIN" "$RUN" <<'PY' || fail "mix"
import json, subprocess, sys
db, txt, binp, run = sys.argv[1:]
show = json.loads(subprocess.run([binp, "show", run, "--json"],
                                 capture_output=True, text=True,
                                 check=True).stdout)
import re
text = json.dumps(show)
m = re.search(r'"mix": "([^"]*)"', text)
assert m, "no mix in show --json"
mix = m.group(1)
ents = mix.split("+")
assert len(ents) == 16, ents
assert ents[-1].startswith("524288-1048576:"), ents[-1]
assert "987654321012" in mix, mix
out = open(txt).read()
wide = [l for l in out.splitlines() if len(l) > 80 and '+' in l]
assert not wide, wide
flat = "".join(out.split())
assert "mix=" + mix in flat, "the mix is not printed whole"
for s in ("8K+", "pipecapacity", "place=split"):
    assert s in flat, s
assert "[cut:" not in out, "a note was cut"
print("mix of %d bytes whole" % len(mix))
PY

note "show and export/import keep the mix and the note whole"
cs 0 show "$RUN"
python3 -c "
import sys
o = open('$OUT').read()
assert all(len(l) <= 80 for l in o.splitlines() if '+' in l), \
	'a line of the mix over 80'
f = ''.join(o.split())
assert '+524288-1048576:987654321012' in f and 'pipecapacity' in f and \
	'place=split' in f, 'show lost text'" || fail "show"
cs 0 export "$RUN" -o "$TMP/run.jsonl"
contains_flat "$TMP/run.jsonl" "524288-1048576:987654321012"
contains_flat "$TMP/run.jsonl" "place=split"
COPYSCOPE_DB=$TMP/other.db cs 0 import "$TMP/run.jsonl"
COPYSCOPE_DB=$TMP/other.db cs 0 show 1 --json
contains_flat "$OUT" "524288-1048576:987654321012"
contains_flat "$OUT" "place=split"
note "pass"

note "writes of 1 MiB or more: the replay says it writes them as its largest"
python3 - "$TMP/obs.jsonl" "$TMP/big.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
lines[1]["run"]["uuid"] = "5eed0b5e0000000000000000000000b2"
o = lines[1]["observation"]
for h in (o["pipe_writes"], o["comms"][0]):
    h["log2"].append([21, 7])
with open(sys.argv[2], "w") as f:
    for l in lines:
        f.write(json.dumps(l) + "\n")
PY
cs 0 import -v "$TMP/big.jsonl"
BIG=$(sed -n 's/^imported as run \([0-9]*\) .*/\1/p' "$OUT" "$ERR")
cs 0 run pipe.mix mix=observed:$BIG writers=2 --reps 2 \
	--sample-time 5ms --warmup 0 --no-store
contains_flat "$ERR" "7 writes of 1 MiB or more replayed as 512 KiB..1 MiB, pipe.mix's largest"
exit 0
