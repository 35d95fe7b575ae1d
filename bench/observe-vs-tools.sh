#!/bin/sh
# observe-vs-tools.sh - `copyscope observe` checked against the tools
# kernel engineers trust (not a timed test: it reports), in the same
# seconds on the same running `copyscope run pipe.mix writers=4`:
#
#   pipe-writes  observe --what pipe-writes --comm csmixbench against a
#                bpftrace script on the same tracepoints (write, writev,
#                splice enter/exit, FIFO fds only, the bytes returned):
#                writes per size class, target within 2%;
#   lock         observe --what lock (system-wide) against
#                `perf lock record -a` + `perf lock contention` (Debian's
#                perf 6.1 has no -b: built without BPF skeletons; the
#                recorded tracepoints give the same table): total
#                contentions, target within 15%.
#
#   bench/observe-vs-tools.sh [SECONDS]   (default 10: each tool's window)
#   REPS=20 WRITERS=4 bench/observe-vs-tools.sh
#
# Both tools of a pair are started, the workload starts once both are
# attached (observe says "observing" on stderr, bpftrace "Attaching") and
# must end before their window does, so both see all of it.  The
# workload runs as a copy of the binary named csmixbench, so that the
# comm filter sees it and nothing else.  Needs root, build/copyscope,
# bpftrace, perf and python3.  Stores nothing.
set -eu
cd "$(dirname "$0")/.."
BIN=${COPYSCOPE_BIN:-build/copyscope}
D=${1:-10}
REPS=${REPS:-20}
WRITERS=${WRITERS:-4}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/observe-vs-tools.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
for t in bpftrace perf python3; do
	command -v $t >/dev/null 2>&1 || { echo "needs $t" >&2; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 77; }
cp "$BIN" "$TMP/csmixbench"

# wait_line FILE TEXT: until FILE holds TEXT (at most 30 s)
wait_line() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "timed out waiting for '$2' in $1" >&2
			cat "$1" >&2; exit 1; }
		sleep 0.05
	done
}

# the workload, timed: it must end inside the tools' window
workload() {
	t0=$(date +%s.%N)
	"$TMP/csmixbench" run pipe.mix writers="$WRITERS" --reps "$REPS" \
		--no-store >"$TMP/run.out" 2>&1
	t1=$(date +%s.%N)
	echo "  workload: pipe.mix writers=$WRITERS --reps $REPS," \
		"$(python3 -c "print(f'{$t1 - $t0:.1f}')") s of a ${D} s window"
}

cat >"$TMP/pw.bt" <<BT
tracepoint:syscalls:sys_enter_write,tracepoint:syscalls:sys_enter_writev
/comm == "csmixbench"/
{
	\$f = *(curtask->files->fdt->fd + args->fd);
	if ((\$f->f_inode->i_mode & 0170000) == 0010000) { @p[tid] = 1; }
}
tracepoint:syscalls:sys_enter_splice
/comm == "csmixbench"/
{
	\$f = *(curtask->files->fdt->fd + args->fd_out);
	if ((\$f->f_inode->i_mode & 0170000) == 0010000) { @p[tid] = 1; }
}
tracepoint:syscalls:sys_exit_write,tracepoint:syscalls:sys_exit_writev,
tracepoint:syscalls:sys_exit_splice
/@p[tid]/
{
	delete(@p[tid]);
	\$s = args->ret;
	if (\$s > 0) {
		if (\$s < 128) { @c[0] = count(); }
		else if (\$s < 4096) { @c[1] = count(); }
		else if (\$s < 8192) { @c[2] = count(); }
		else if (\$s < 16384) { @c[3] = count(); }
		else if (\$s < 32768) { @c[4] = count(); }
		else if (\$s < 65536) { @c[5] = count(); }
		else if (\$s < 131072) { @c[6] = count(); }
		else { @c[7] = count(); }
	}
}
interval:s:$D { exit(); }
END { clear(@p); }
BT

echo "pipe-writes: observe against bpftrace, ${D} s"
bpftrace "$TMP/pw.bt" >"$TMP/bt.out" 2>&1 &
bt=$!
"$BIN" observe --duration "${D}s" --what pipe-writes --comm csmixbench \
	--no-store --json >"$TMP/obs.json" 2>"$TMP/obs.err" &
ob=$!
wait_line "$TMP/bt.out" "Attaching"
wait_line "$TMP/obs.err" "observing"
workload
wait $bt $ob
python3 - "$TMP/obs.json" "$TMP/bt.out" <<'PY'
import json, re, sys
obs = json.load(open(sys.argv[1]))["observation"]
src = obs["pipe_writes"] and obs["pipe_source"]
o = obs["pipe_writes"]["classes"]
b = [0] * 8
for m in re.finditer(r"^@c\[(\d)\]: (\d+)$", open(sys.argv[2]).read(), re.M):
    b[int(m.group(1))] = int(m.group(2))
names = ["<128 B", "128 B-4 KiB", "4-8 KiB", "8-16 KiB", "16-32 KiB",
         "32-64 KiB", "64-128 KiB", ">=128 KiB"]
print(f"  observe's source: {src}")
print(f"  {'class':<14} {'observe':>10} {'bpftrace':>10} {'diff':>8}")
worst = 0.0
for i, n in enumerate(names):
    d = (o[i] - b[i]) / b[i] * 100 if b[i] else (0.0 if not o[i] else 100.0)
    if max(o[i], b[i]) >= 100:
        worst = max(worst, abs(d))
    print(f"  {n:<14} {o[i]:>10} {b[i]:>10} {d:>+7.2f}%")
print(f"  total          {sum(o):>10} {sum(b):>10} "
      f"{(sum(o) - sum(b)) / max(sum(b), 1) * 100:>+7.2f}%")
print(f"  largest difference (classes of 100+ writes): {worst:.2f}% "
      f"({'within' if worst <= 2 else 'OVER'} the 2% target)")
PY

echo "lock: observe against perf lock record -a + perf lock contention, ${D} s"
perf lock record -a -o "$TMP/lock.data" -- sleep "$D" >/dev/null \
	2>"$TMP/perf.err" &
pf=$!
"$BIN" observe --duration "${D}s" --what lock --no-store --json \
	>"$TMP/lock.json" 2>"$TMP/lock.err" &
ob=$!
wait_line "$TMP/lock.err" "observing"
sleep 1		# perf says nothing when it is attached: give it a second
workload
wait $pf $ob
perf lock contention -i "$TMP/lock.data" -E 1000000 >"$TMP/perf.out" \
	2>&1 || true
python3 - "$TMP/lock.json" "$TMP/perf.out" <<'PY'
import json, re, sys
obs = json.load(open(sys.argv[1]))["observation"]["lock"]
rows = [l.split() for l in open(sys.argv[2]) if re.match(r"^\s+\d+\s", l)]
perf = sum(int(r[0]) for r in rows)
mine = obs["contentions"]
d = (mine - perf) / perf * 100 if perf else float("nan")
print(f"  contentions: observe {mine}, perf {perf}, diff {d:+.1f}% "
      f"({'within' if abs(d) <= 15 else 'OVER'} the 15% target)")
top = obs["callers"][:3]
print("  observe's top callers: " + ", ".join(
    f"{c['caller']} ({c['type']}) {c['contentions']}" for c in top))
print("  perf's top callers:    " + ", ".join(
    f"{r[-1]} ({r[-2]}) {r[0]}" for r in rows[:3]))
PY
