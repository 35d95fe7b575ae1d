#!/bin/sh
# test_ab_fresh.sh - `ab --fresh-workers` (docs/comparing.md, "One thread
# per side is a bias"): each configuration's workers are started anew
# before every kept sample but the first, so A, B and A' each run in new
# threads (processes for mode=proc) every round.  Checked: the threads
# made (strace's clone count: 3 configurations x (rounds - 1) more than
# without the option), that a known slowdown (2 us on a null syscall) is still
# worse, that the option is stored (show's options line and JSON
# options), that a workload of two workers and one
# of processes survive the restarts, and that --kernel with it is refused
# (exit 2, nothing stored).
. "$(dirname "$0")/lib.sh"
need_python

q="--sample-time 2ms --warmup 10ms"

note "a known slowdown is worse with fresh workers too, and it is stored so"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 8 $q \
	--fresh-workers --tag fresh
contains_re "$OUT" '^  time/call .* worse$'
RUN=$(run_id)
cs 0 show "$RUN"
contains "$OUT" "; --fresh-workers"
cs 0 show "$RUN" --json
python3 - "$OUT" <<'PY' || fail "show --json lacks fresh_workers"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["options"]["fresh_workers"] is True, d["run"]["options"]
PY

note "a moved control of a run with fresh workers does not name the option"
restage "$COPYSCOPE_DB" "$RUN"
made_ab time/call 13 1.0 12 1.06
made_import --new-uuid f2e5 --tag frmv
cs 0 show "$MADE_ID" --json
python3 - "$OUT" <<'PY' || fail "the reason of a fresh-workers run names the option"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["ab"]["rows"] if r["metric"] == "time/call"][0]
assert t["verdict"] == "cannot tell", t
assert t["reason"].endswith("so the pairing did not hold"), t
PY

if command -v strace >/dev/null 2>&1; then
	note "the threads made: one set at the start, then one a sample"
	# the difference, so that an emulator's own threads (qemu-user
	# starts some) do not count: 3 configurations x 4 more samples
	for f in "" --fresh-workers; do
		strace -f -qq -e trace=clone,clone3 -o "$TMP/clones" "$BIN" ab \
			sys.null --a call=gettid --b call=gettid --rounds 5 $q \
			--no-store $f >"$OUT" 2>"$ERR"
		rc=$?
		case $rc in 0 | 4) ;; *) fail "ab $f under strace: exit $rc" ;; esac
		n=$(grep -c 'clone' "$TMP/clones")
		[ -n "$f" ] && more=$((n - n0))
		n0=$n
	done
	[ "$more" -eq 12 ] ||
		fail "ab --fresh-workers made $more threads more, not 12"
else
	skip_case "strace is missing: the threads made are not counted"
fi

note "two workers (pipe.bw's writer and reader), threads and processes"
for m in thread proc; do
	cs 0 ab pipe.bw mode=$m --a size=4k --b size=16k --rounds 4 $q \
		--fresh-workers --no-store
	contains_re "$OUT" '^  bandwidth '
done

note "--kernel with it is refused, and nothing is stored"
n=$(count_runs)
cs 2 ab sys.null --a call=gettid --b call=gettid --fresh-workers \
	--kernel profile
contains "$ERR" "--fresh-workers: not with --kernel"
[ "$(count_runs)" -eq "$n" ] || fail "a refused ab stored a run"
echo ok
