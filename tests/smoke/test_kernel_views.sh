#!/bin/sh
# test_kernel_views.sh - `run --kernel`: pipe.matrix with 5 writers shows
# contended pipe-mutex waits of its workers and sys.null none from its own
# thread; a same-CPU pipe.lat has a positive wake-up latency; the syscall
# view counts the calls of the workload; the views are stored and shown
# again by show and show --json; compare judges lock wait/op and wakeup
# p99; a missing tracepoint (named through COPYSCOPE_TEST_TRACEPOINT) and
# a user without the rights are refused with what is missing (exit 77
# when nothing of the request can run); bad views are usage errors.
# Every run forces the tracefs backend (test_kernel_bpf.sh: the bpf one);
# sys.null's thread may see a rare scheduler spinlock (an interrupt on
# its CPU) on a busy machine, never a mutex.
# Needs root and tracefs (mounted here when root and it is not).
. "$(dirname "$0")/lib.sh"

note "bad --kernel values: usage errors, before anything is probed"
cs 2 run sys.null --kernel futex --quick --no-store
contains "$ERR" "--kernel: unknown view 'futex' (allowed: lock, sched, syscall"
cs 2 run sys.null --kernel lock,lock --quick --no-store
contains "$ERR" "given twice"

[ "$(id -u)" -eq 0 ] || skip "--kernel records the whole machine: needs root"
if [ ! -d /sys/kernel/tracing/events ] &&
   [ ! -d /sys/kernel/debug/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		skip "tracefs is not mounted and cannot be mounted here"
fi
for tp in lock/contention_begin sched/sched_switch raw_syscalls/sys_enter; do
	[ -d "/sys/kernel/tracing/events/$tp" ] ||
	[ -d "/sys/kernel/debug/tracing/events/$tp" ] ||
		skip "this kernel has no tracepoint $tp"
done

note "a missing tracepoint: refused, exit 77 when nothing else was asked"
COPYSCOPE_TEST_TRACEPOINT=lock:contention_begin=lock:no_such_tracepoint \
	cs 77 run sys.null --kernel-backend tracefs --kernel lock --quick --no-store
contains "$ERR" "--kernel lock: refused: tracepoint lock:no_such_tracepoint is missing from this kernel"
contains "$ERR" "CONFIG_TRACEPOINTS"
contains "$ERR" "nothing measured"
note "... and the other views still run"
COPYSCOPE_TEST_TRACEPOINT=lock:contention_begin=lock:no_such_tracepoint \
	cs 0 run sys.null --kernel-backend tracefs --kernel lock,syscall --quick --no-store
contains "$ERR" "--kernel lock: refused"
contains "$OUT" "kernel views (syscall)"
not_contains "$OUT" "lock: contended waits"

note "a user without the rights: refused, naming root and perf_event_paranoid"
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups "$BIN" --help \
	>/dev/null 2>&1; then
	expect_exit 77 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN" run sys.null --kernel-backend tracefs --kernel sched --quick --no-store
	grep -E -q "needs root|perf_event_paranoid" "$ERR" ||
		fail "the refusal does not say what is missing"
else
	skip_case "cannot run the binary as user nobody here"
fi

note "pipe.matrix writers=5: its workers wait on the pipe mutex"
cs 0 run pipe.matrix writers=5 --kernel-backend tracefs --kernel lock --quick
contains "$OUT" " contended total wait  max wait  avg wait      type  caller"
contains "$OUT" "[other tasks]"
contains_re "$OUT" "^ +[1-9][0-9]* +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +mutex +[a-z_]"
contains_re "$OUT" "^  contended/op +[0-9.]*[1-9]"
contains_re "$OUT" "overhead [-+][0-9.]+%"
contains "$OUT" "kernel views (lock): 3 traced samples"
matrix_run=$(run_id)
[ -n "$matrix_run" ] || fail "no run id"

note "sys.null: no mutex wait from its own thread"
cs 0 run sys.null --kernel-backend tracefs --kernel lock --quick --no-store
contains_re "$OUT" "^  contended/op +0(\.000[0-9]*)? "
grep -E -q "^ +[0-9]+ .* mutex +" "$OUT" && fail "sys.null waited on a mutex"

note "pipe.lat place=same: wake-ups of the workers, latency > 0"
cs 0 run pipe.lat place=same --kernel-backend tracefs --kernel sched --quick --no-store
contains_re "$OUT" "sched: [1-9][0-9]* wake-ups of the workers, latency"
contains_re "$OUT" "^  wakeup p99 +[0-9.]*[1-9][0-9.]* [mun]?s "
not_contains "$OUT" "p50 0 ns"
contains_re "$OUT" "landed on: cpu[0-9]+ 100%"

note "syscall: sys.null's calls, one per op"
cs 0 run sys.null --kernel-backend tracefs --kernel syscall --quick --no-store
contains_re "$OUT" "^      gettid +1 "
contains_re "$OUT" "syscall: in the kernel [0-9.]+% of the workers' wall time"

note "stored: show prints the views again, show --json carries them"
cs 0 show "$matrix_run"
contains "$OUT" "--kernel lock: a traced sample after each kept one"
contains "$OUT" " contended total wait  max wait  avg wait      type  caller"
need_python
cs 0 show "$matrix_run" --json
python3 - "$OUT" <<'PY' || fail "show --json lacks the kernel views"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["options"]["kernel_views"] == "lock"
r = [x for x in d["results"] if x["metric"] == "traced t/op"]
assert len(r) == 1, r
k = r[0]["info"]["kernel"]
assert k["views"] == "lock" and k["samples"] == 3
rows = [x for x in k["lock"] if not x["other"]]
assert rows and rows[0]["contended"] > 0 and rows[0]["type"] == "mutex"
assert sum(c for _, c in rows[0]["hist"]) == rows[0]["contended"]
w = [x for x in d["results"] if x["metric"] == "lock wait/op"][0]
assert w["info"]["traced"] is True and w["direction"] == "lower"
PY

note "export and import carry the views whole"
cs 0 export "$matrix_run" -o "$TMP/kv.jsonl"
cs 0 import "$TMP/kv.jsonl" --db "$TMP/imported.db"
cs 0 show last --db "$TMP/imported.db"
contains "$OUT" " contended total wait  max wait  avg wait      type  caller"
cs 0 export last --db "$TMP/imported.db" -o "$TMP/kv2.jsonl"
cmp -s "$TMP/kv.jsonl" "$TMP/kv2.jsonl" ||
	fail "export, import, export gives another file"

note "compare: lock wait/op and wakeup p99 judged like any metric"
cs 0 run pipe.matrix writers=5 --kernel-backend tracefs --kernel lock,sched --quick --tag kv-a
cs 0 run pipe.matrix writers=5 --kernel-backend tracefs --kernel lock,sched --quick --tag kv-b
cs 0 compare kv-a kv-b --by-sample
contains_re "$OUT" "^  lock wait/op .*(better|worse|~|[?])"
contains_re "$OUT" "^  wakeup p99 .*(better|worse|~|[?])"
