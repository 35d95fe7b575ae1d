#!/bin/sh
# test_kernel_profile.sh - `run --kernel profile`: sys.rw target=zero
# size=64k samples its worker's kernel stacks in its batches; the
# zeroing routine (read_zero) holds the most self samples of the read
# path (the functions under the pread system call) and is among the top
# three of all; the table fits 80 columns and says the event, its
# frequency and, with no PMU, "no PMU here" and the skew note; the JSON's
# functions carry ns/op = share x the op's time with a CI around it;
# show --folded prints root-first folded stacks in FlameGraph's format
# (checked by a reader that follows flamegraph.pl's parsing) whose
# counts add up to the samples, each stack its user frames (this binary's
# functions, a library's file, [unknown]) first and its kernel frames
# after them; a busy wait injected in user space (inject_ns) is sampled
# in the sled's own function under a caller of this binary, named by its
# symbols (issue 31: user call chains); the same known answer from both
# aggregations, in the kernel with BPF stack maps (where the program
# loads: the run's environment says which) and from the perf rings
# (--kernel-backend tracefs), which agree on the read path's top
# function; export and import keep the profile; bad
# --profile-hz values and JOBs are usage errors.  Asserts shares and
# orderings, never times.  Needs root (kernel callchains).
. "$(dirname "$0")/lib.sh"
need_python

note "bad --profile-hz values: usage errors"
cs 2 run sys.null --profile-hz 997 --quick --no-store
contains "$ERR" "--profile-hz: only with --kernel profile"
cs 2 run sys.null --kernel profile --profile-hz 0 --quick --no-store
contains "$ERR" "--profile-hz"

[ "$(id -u)" -eq 0 ] || skip "kernel callchains of our threads: needs root"

note "sys.rw target=zero size=64k, profiled"
cs 0 run sys.rw target=zero size=64k --kernel profile --profile-hz 1999 \
	--reps 5 --tag prof
contains "$OUT" "profile: "
contains "$OUT" "at 1999 Hz per worker (--profile-hz)"
contains "$OUT" "samples in the batches"
contains "$OUT" "self ns/op"
if [ ! -e /sys/bus/event_source/devices/cpu ] &&
   [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	note "no PMU on this machine: cpu-clock, said, with the skew note"
	contains "$ERR" "no PMU here"
	contains "$OUT" "no PMU here"
	contains "$OUT" "profile: cpu-clock at"
	contains "$OUT" "skew: cpu-clock samples from a timer"
fi
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "the profile's text is wider than 80 columns"

cs 0 show prof --json
python3 - "$OUT" <<'PY' || fail "the profile's JSON"
import json, sys
d = json.load(open(sys.argv[1]))
prof = [r["info"]["kernel"]["profile"] for r in d["results"]
        if "profile" in r.get("info", {}).get("kernel", {})]
assert len(prof) == 1, len(prof)
p = prof[0]
assert p["samples"] >= 50, p["samples"]
fn = p["functions"]
names = [f["function"] for f in fn]
# most self samples first
assert all(fn[i]["self_samples"] >= fn[i + 1]["self_samples"]
           for i in range(len(fn) - 1))
zero = [f for f in fn if f["function"] == "read_zero"]
assert zero, names[:10]
z = zero[0]
assert z in fn[:3], names[:5]
# the read path: the functions whose stacks pass through the pread call
under = {}
for frames, n in p["stacks"]:
    fr = frames.split(";")
    if "__x64_sys_pread64" in fr:
        under[fr[-1]] = under.get(fr[-1], 0) + n
top = max(under, key=under.get)
assert top == "read_zero", under
# share x the op's time, and its CI around it
share = z["self_samples"] / p["samples"]
assert abs(z["self_ns_per_op"] - share * p["op_ns"]) < 1e-6 * p["op_ns"]
lo, hi = z["self_ci"]
assert lo < z["self_ns_per_op"] < hi, (lo, hi)
assert z["total_samples"] >= z["self_samples"]
assert sum(n for _, n in p["stacks"]) == p["samples"]
open(sys.argv[1] + ".samples", "w").write(str(p["samples"]))
PY
samples=$(cat "$OUT.samples")
cp "$OUT" "$TMP/prof.json"

note "both aggregations: BPF stack maps (where they load) and the perf rings"
cs 0 run sys.rw target=zero size=64k --kernel profile --profile-hz 1999 \
	--reps 5 --kernel-backend tracefs --tag ring
contains "$ERR" "kernel views: profile: ring (the perf rings, folded in user space: --kernel-backend tracefs)"
cs 0 show ring --json
python3 - "$TMP/prof.json" "$OUT" <<'PY' >"$TMP/paths" ||
	fail "the two aggregations of the profile"
import json, sys
def profile(path):
    d = json.load(open(path))
    p = [r["info"]["kernel"]["profile"] for r in d["results"]
         if "profile" in r.get("info", {}).get("kernel", {})][0]
    return d["environment"]["kernel_views.profile_backend"], p
def read_top(p):
    under = {}
    for frames, n in p["stacks"]:
        fr = frames.split(";")
        if "__x64_sys_pread64" in fr:
            under[fr[-1]] = under.get(fr[-1], 0) + n
    return max(under, key=under.get), under
tops = []
for path, want in ((sys.argv[1], ("bpf (", "ring (")),
                   (sys.argv[2], ("ring (",))):
    how, p = profile(path)
    assert how.startswith(want), how
    assert p["samples"] >= 50 and p["lost"] >= 0, p["samples"]
    assert sum(n for _, n in p["stacks"]) == p["samples"]
    top, under = read_top(p)
    assert top == "read_zero", (how, under)
    names = [f["function"] for f in p["functions"][:3]]
    assert "read_zero" in names, (how, names)
    tops.append(top)
    print(how.split(" ")[0])
# the two paths agree on the read path's top function
assert tops[0] == tops[1], tops
PY
if [ "$(head -1 "$TMP/paths")" = ring ]; then
	note "the BPF program does not load here: both runs read the rings"
fi

note "show --folded: FlameGraph's folded format, root first"
cs 0 show prof --folded
cp "$OUT" "$TMP/folded.txt"
nm "$BIN" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$TMP/user-funcs"
python3 - "$TMP/folded.txt" "$samples" "$TMP/user-funcs" <<'PY' ||
	fail "the folded stacks"
import re, sys
own = set(open(sys.argv[3]).read().split())
def user(f):
    return f in own or ".so" in f or f in ("[unknown]", "[user]", "[vdso]")
calls = 0
# flamegraph.pl's reading of a line: the stack, then a count at the end
line_re = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")
total, leaves = 0, {}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = line_re.match(line)
    assert m, "flamegraph.pl would skip: %r" % line
    stack, n = m.group(1), int(m.group(2))
    frames = stack.split(";")
    assert all(frames) and " " not in stack, line
    # root first: the user frames, then the kernel's
    assert user(frames[0]), line
    nu = 0
    while nu < len(frames) and user(frames[nu]):
        nu += 1
    assert not [f for f in frames[nu:] if f in own], line
    if "__x64_sys_pread64" in frames and frames[nu - 1] != "[user]":
        # the call's user side: a caller of this binary's (the syscall
        # wrapper's own caller is skipped: libc's wrapper has no frame)
        assert [f for f in frames[:nu] if f in own], line
        calls += n
    total += n
    leaves[frames[-1]] = leaves.get(frames[-1], 0) + n
assert total == int(sys.argv[2]), (total, sys.argv[2])
assert "read_zero" in leaves
assert calls > 0, "no user call chain under the pread call"
PY
cs 0 show prof --folded 1
cmp -s "$OUT" "$TMP/folded.txt" || fail "show --folded 1 differs"
cs 2 show prof --folded 2
contains "$ERR" "--folded: JOB '2' is not a configuration's number (1 to 1)"
cs 2 show prof --folded --json
cs 2 show prof 1
contains "$ERR" "unexpected argument '1' (a second word, JOB, only with --folded)"

note "export and import keep the profile"
cs 0 export prof -o "$TMP/prof.jsonl"
cs 0 import "$TMP/prof.jsonl" --db "$TMP/other.db"
cs 0 show last --folded --db "$TMP/other.db"
cmp -s "$OUT" "$TMP/folded.txt" ||
	fail "the imported run's folded stacks differ from the original's"

note "a busy wait in user space: the sled's own function, under this binary's callers"
cs 0 run sys.null inject_ns=2000 --kernel profile --profile-hz 1999 \
	--reps 5 --tag busy
cs 0 show busy --folded
python3 - "$OUT" "$TMP/user-funcs" <<'PY' || fail "the busy wait's user frames"
import sys
own = set(open(sys.argv[2]).read().split())
leaves, callers = {}, {}
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    frames = stack.split(";")
    leaves[frames[-1]] = leaves.get(frames[-1], 0) + int(n)
    if frames[-1] == "inject_sled_steps":
        for f in frames[:-1]:
            if f in own:
                callers[f] = callers.get(f, 0) + int(n)
# the wait (2 us an op against a gettid) holds the most samples, as user
# time: no kernel function is its leaf
top = max(leaves, key=leaves.get)
assert top == "inject_sled_steps", sorted(leaves.items(), key=lambda x: -x[1])[:5]
# and above it the worker's frames of this binary, named by its symbols
assert callers, "no frame of this binary above the sled"
assert "worker_main" in callers, callers
PY

note "a run without a profile: --folded says so"
cs 0 run sys.null --quick --tag plain
cs 2 show plain --folded
contains "$ERR" "--folded: the run has no --kernel profile"
exit 0
