#!/bin/sh
# test_kernel_bpf.sh - `run --kernel` on its bpf backend (the views
# aggregated in the kernel, src/bpf/kviews.bpf.c): a bad
# --kernel-backend is a usage error naming the allowed values; the bpf
# lock view sees the pipe mutex's contention under pipe.matrix writers=5
# and no wait of sys.null's own thread; the sched and syscall views
# count sys.null's calls; lock,sched load no system-call program (the
# batch marks are read from the workers' memory); the backend and why are said on stderr and
# stored with the run; a forced --kernel-backend tracefs works with
# tracefs unmounted first (copyscope mounts it, says so once and records
# it); user nobody is refused with why (exit 77).  Needs root; skipped
# when BPF cannot load here.
. "$(dirname "$0")/lib.sh"

note "a bad --kernel-backend: usage error naming the allowed values"
cs 2 run sys.null --kernel lock --kernel-backend bogus --quick --no-store
contains "$ERR" "--kernel-backend: 'bogus' is not one of bpf, tracefs"
cs 2 run sys.null --kernel-backend bpf --quick --no-store
contains "$ERR" "--kernel-backend: only with --kernel"

[ "$(id -u)" -eq 0 ] || skip "BPF and the kernel views need root"
"$BIN" run sys.null --kernel lock --kernel-backend bpf --quick --no-store \
	>"$OUT" 2>"$ERR"
rc=$?
if [ "$rc" -eq 77 ]; then
	show_file stderr "$ERR"
	skip "the BPF backend cannot load here: $(head -n 1 "$ERR")"
fi
[ "$rc" -eq 0 ] || fail "run --kernel lock --kernel-backend bpf: exit $rc"

note "pipe.matrix writers=5: the bpf lock view sees the pipe mutex"
cs 0 run pipe.matrix writers=5 --kernel lock --kernel-backend bpf --quick
contains "$ERR" "kernel views: bpf backend (libbpf "
contains_re "$OUT" "^ +[1-9][0-9]* +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +mutex +anon_pipe_(write|read)\+0x"
contains_re "$OUT" "^  contended/op +[0-9.]*[1-9]"
contains "$OUT" "kernel views (lock): 3 traced samples"
contains "$OUT" "wait of anon_pipe_"
id=$(run_id)
[ -n "$id" ] || fail "no run id"
cs 0 show "$id"
contains_re "$OUT" "kernel_views.backend +bpf \(libbpf "

note "sys.null: no mutex wait of its own thread (at most a rare run-queue"
note "spinlock of a busy machine's scheduler)"
cs 0 run sys.null --kernel lock --quick --no-store
contains "$ERR" "kernel views: bpf backend"
contains "$OUT" "lock: contended waits of the workers by caller"
contains_re "$OUT" "^  contended/op +0(\.000[0-9]*)? "
grep -E -q "^ +[0-9]+ .* mutex +" "$OUT" && fail "sys.null waited on a mutex"

note "sys.null: its system calls, one per op, and nothing of the harness"
cs 0 run sys.null --kernel sched,syscall --kernel-backend bpf --quick \
	--no-store
contains_re "$OUT" "^      gettid +1 "
not_contains "$OUT" "futex"
not_contains "$OUT" "getrusage"
not_contains "$OUT" "prctl"

note "lock,sched: no program on system calls; the batch marks are read from"
note "the workers' memory (what the hook cost: docs/kernel-views.md)"
if command -v bpftool >/dev/null 2>&1; then
	"$BIN" run pipe.matrix writers=2 --kernel lock,sched \
		--kernel-backend bpf --reps 4 --sample-time 300ms --no-store \
		>"$OUT" 2>"$ERR" &
	pid=$!
	progs=""
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
		# the programs this run holds open (other runs hold their own)
		progs=$(python3 "$(dirname "$0")/bpf_progs_of.py" "$pid")
		case " $progs " in *" kv_lock_begin "*) break ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	wait "$pid" || fail "run --kernel lock,sched: exit $?"
	case " $progs " in
	*" kv_lock_begin "*) ;;
	*) fail "the run's BPF programs were never seen (last: '$progs')" ;;
	esac
	case " $progs " in
	*" kv_sys_enter "*|*" kv_sys_exit "*)
		fail "lock,sched loaded a system-call program: $progs" ;;
	esac
	contains "$OUT" "kernel views (lock,sched): 4 traced samples"
	contains_re "$OUT" "^  contended/op +[0-9.]*[1-9]"
	contains_re "$OUT" "sched: [1-9][0-9]* wake-ups of the workers"
else
	skip_case "bpftool is not installed: the loaded programs unchecked"
fi

note "forced fallback: --kernel-backend tracefs, tracefs unmounted first"
unmounted=0
if grep -q " /sys/kernel/tracing tracefs " /proc/mounts; then
	umount /sys/kernel/tracing 2>/dev/null && unmounted=1
else
	unmounted=1
fi
cs 0 run sys.null --kernel lock --kernel-backend tracefs --quick
contains "$ERR" "kernel views: tracefs backend: --kernel-backend tracefs"
contains "$OUT" "kernel views (lock): 3 traced samples"
grep -q " /sys/kernel/tracing tracefs " /proc/mounts ||
	fail "tracefs is not mounted after the run"
said=$(grep -c "tracefs was not mounted: mounted it at /sys/kernel/tracing" \
	"$ERR")
id=$(run_id)
[ -n "$id" ] || fail "no run id"
cs 0 show "$id"
contains_re "$OUT" "kernel_views.backend +tracefs"
if [ "$unmounted" -eq 1 ]; then
	[ "$said" -eq 1 ] || fail "the mount is not said once (said $said times)"
	contains_re "$OUT" "kernel_views.tracefs_mounted +/sys/kernel/tracing"
else
	skip_case "tracefs could not be unmounted here (busy): mount untested"
fi

note "user nobody: refused, saying why, exit 77"
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups "$BIN" --help \
	>/dev/null 2>&1; then
	expect_exit 77 setpriv --reuid=nobody --regid=nogroup \
		--clear-groups "$BIN" run sys.null --kernel lock \
		--kernel-backend bpf --quick --no-store
	contains "$ERR" "BPF not permitted (EPERM): not root"
	contains "$ERR" "nothing measured"
	expect_exit 77 setpriv --reuid=nobody --regid=nogroup \
		--clear-groups "$BIN" run sys.null --kernel lock --quick \
		--no-store
	contains "$ERR" "kernel views: tracefs backend: BPF not permitted"
else
	skip_case "cannot run the binary as user nobody here"
fi
echo "pass"
