#!/bin/sh
# test_observe.sh - `copyscope observe`: a helper that makes 1000 writes of
# 100 B and 10 of 64 KiB to a pipe is seen exactly (its comm's counts in
# the right size classes); the observation is stored and shown again
# (text and JSON) and in the HTML report, survives export and import
# and push to PostgreSQL, and is replayed by
# `pipe.mix mix=observed:ID`, whose writes (observed again) have the
# shares of the histogram; during `run pipe.mix writers=4` most writes
# are under 128 B, the lock table (run --kernel lock's layout) names the
# pipe's write function with its offset, and its waits get a histogram
# of their own whose counts (in --json, per caller) add up; every line
# of the text within 80 columns;
# perf recording the same tracepoint beside it still gets every event;
# each pipe-writes source that failed says why, a forced one is used
# alone (exit 77 when it cannot run); user nobody is refused with
# why (exit 77); a bad --what is a usage error naming what is allowed.
# Needs root and BPF (skipped, exit 77, when BPF cannot load).
. "$(dirname "$0")/lib.sh"

note "bad --what: a usage error naming the allowed values"
cs 2 observe --what pipe-writes,futex --no-store
contains "$ERR" "--what: 'futex' is not one of pipe-writes, lock, wakeup, syscalls"
cs 2 observe --comm 'a*b' --no-store
contains "$ERR" "--comm: 'a*b' is not a command name"
cs 2 observe --duration 3 --no-store
contains "$ERR" "--duration"

[ "$(id -u)" -eq 0 ] || skip "observe loads BPF programs: needs root"
"$BIN" observe --duration 10ms --what pipe-writes --no-store \
	>"$TMP/probe" 2>&1 || {
	cat "$TMP/probe"
	skip "BPF cannot load here"
}

note "user nobody: refused with the reason, exit 77"
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups "$BIN" --help \
	>/dev/null 2>&1; then
	expect_exit 77 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN" observe --duration 10ms --no-store
	contains "$ERR" "nothing of the request can be observed here"
	contains "$ERR" "not root"
else
	skip_case "cannot run the binary as user nobody here"
fi

command -v cc >/dev/null 2>&1 || skip "no C compiler for the writer"
cat >"$TMP/obswriter.c" <<'C'
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* 1000 writes of 100 B, then 10 of 64 KiB, to a pipe a child drains. */
int main(void)
{
	static char buf[65536];
	int fd[2], i;
	pid_t pid;

	if (pipe(fd))
		return 1;
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		while (read(fd[0], buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	close(fd[0]);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 1000; i++)
		if (write(fd[1], buf, 100) != 100)
			return 1;
	for (i = 0; i < 10; i++)
		if (write(fd[1], buf, 65536) != 65536)
			return 1;
	close(fd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
C
cc -O1 -o "$TMP/obswriter" "$TMP/obswriter.c" || fail "cannot build the writer"

started() {
	grep -q "observing" "$1" 2>/dev/null
}

note "observe --comm obswriter for 2 s while the writer runs"
"$BIN" observe --duration 2s --what pipe-writes --comm obswriter \
	--tag obs-host >"$TMP/obs.out" 2>"$TMP/obs.err" &
obs=$!
wait_for 20 started "$TMP/obs.err"
"$TMP/obswriter" || fail "the writer failed"
wait $obs || { cat "$TMP/obs.err"; fail "observe failed"; }
contains_re "$TMP/obs.out" "^    <128 B +1000 +99\.01%$"
contains_re "$TMP/obs.out" "^    64-128 KiB +10 +0\.99%$"
contains_re "$TMP/obs.out" "^    128 B-4 KiB +0 "
contains_re "$TMP/obs.out" "^    obswriter +1010 "
contains_re "$TMP/obs.out" "^    \[64 B, 128 B\) +1000 "
contains_re "$TMP/obs.out" "^    \[64 KiB, 128 KiB\) +10 "
contains "$TMP/obs.out" "lost events: 0"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$TMP/obs.out" ||
	fail "observe's text (its notes, its histogram) is wider than 80 columns"
id=$(sed -n 's/^observation \([0-9]*\) stored in .*/\1/p' "$TMP/obs.out")
[ -n "$id" ] || fail "observe did not say where it stored the observation"

note "show prints it again, as text and as JSON"
cs 0 show "$id"
contains "$OUT" "tag obs-host"
contains_re "$OUT" "^    <128 B +1000 +99\.01%$"
contains_re "$OUT" "^    64-128 KiB +10 +0\.99%$"
contains "$OUT" "environment:"
cs 0 show "$id" --json
python3 - "$OUT" <<'PY' || fail "show --json does not hold the counts"
import json, sys
d = json.load(open(sys.argv[1]))
o = d["observation"]
c = o["pipe_writes"]["classes"]
assert c[0] == 1000 and c[6] == 10 and sum(c) == 1010, c
assert [x["writes"] for x in o["comms"] if x["comm"] == "obswriter"] == [1010]
assert d["run"]["tag"] == "obs-host" and d["environment"]["hostname"]
PY

note "the HTML report shows it"
cs 0 report "$id" -o "$TMP/obs.html"
contains "$TMP/obs.html" "<h3>pipe writes: 1010</h3>"
contains "$TMP/obs.html" "<tr><td>&lt;128 B</td><td>1000</td><td>99.01%</td></tr>"
contains "$TMP/obs.html" "<tr><td>obswriter</td><td>1010</td>"

note "export and import keep it"
cs 0 export "$id" -o "$TMP/obs.jsonl"
contains "$TMP/obs.jsonl" '"observation"'
sed 's/"asked":/"askedx":/' "$TMP/obs.jsonl" >"$TMP/bad.jsonl"
COPYSCOPE_DB="$TMP/other.db" cs 2 import "$TMP/bad.jsonl"
contains "$ERR" "observation: 'asked' is missing or of the wrong type"
COPYSCOPE_DB="$TMP/other.db" cs 0 import "$TMP/obs.jsonl"
COPYSCOPE_DB="$TMP/other.db" cs 0 show last
contains_re "$OUT" "^    <128 B +1000 +99\.01%$"
contains_re "$OUT" "^    obswriter +1010 "

note "push carries it to PostgreSQL (the observations table there too)"
if need_pg; then
	cs 0 push "$id" --to "$PG_URL"
	[ "$(pg_q "SELECT count(*) FROM observations")" = 1 ] ||
		fail "no observation row in PostgreSQL"
	cs 0 show last --db "$PG_URL"
	contains_re "$OUT" "^    <128 B +1000 +99\.01%$"
	contains_re "$OUT" "^    64-128 KiB +10 +0\.99%$"
else
	skip_case "no PostgreSQL server here"
fi

note "replay: pipe.mix mix=observed:ID draws the observed sizes"
cs 2 run pipe.mix mix=observed:999 --quick --no-store
contains "$ERR" "run 999 does not exist"
cs 2 run pipe.mix mix=observed:$id/nosuchcomm --quick --no-store
contains "$ERR" "no pipe writes by comm 'nosuchcomm'"
"$BIN" run pipe.mix "mix=observed:$id/obswriter" writers=2 --reps 30 \
	--tag replay >"$TMP/replay.out" 2>"$TMP/replay.err" &
rp=$!
"$BIN" observe --duration 2s --what pipe-writes --pid $rp --no-store \
	--json >"$TMP/replay-obs.json" 2>"$TMP/replay-obs.err" ||
	{ cat "$TMP/replay-obs.err"; fail "observing the replay failed"; }
# exit 0, or 4 with a headline withheld on a loaded machine
wait $rp
rp_rc=$?
[ "$rp_rc" -eq 0 ] || { [ "$rp_rc" -eq 4 ] &&
	grep -q "headline withheld for" "$TMP/replay.err"; } ||
	{ cat "$TMP/replay.err"; fail "the replay failed"; }
contains "$TMP/replay.out" "mix 64-127:1000+65536-131071:10"
python3 - "$TMP/replay-obs.json" <<'PY' || fail "the replay's writes do not have the observed shares"
import json, sys
o = json.load(open(sys.argv[1]))["observation"]
c = o["pipe_writes"]["classes"]
n = sum(c)
assert n > 10000, n
# observed: 1000 of 1010 under 128 B, 10 in 64-128 KiB
assert abs(c[0] / n - 1000 / 1010) < 0.003, (c, n)
assert abs(c[6] / n - 10 / 1010) < 0.003, (c, n)
assert c[1] + c[2] + c[3] + c[4] + c[5] + c[7] == 0, c
PY
cs 0 show last
contains "$OUT" "replay.observation"
contains "$OUT" "$id "

note "during run pipe.mix writers=4: most writes under 128 B, pipe locks"
"$BIN" run pipe.mix writers=4 --reps 40 --no-store >/dev/null 2>&1 &
mx=$!
cs 0 observe --duration 3s --what pipe-writes,lock,wakeup --pid $mx \
	--tag obs-lock
kill $mx 2>/dev/null
wait $mx 2>/dev/null
python3 - "$OUT" <<'PY' || fail "the <128 B class does not hold most writes"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^    <128 B +(\d+) +([\d.]+)%$", t, re.M)
assert m and float(m.group(2)) > 90, m and m.group(0)
PY
# the lock table of run --kernel lock: its header, callers with offsets
contains "$OUT" "    contended total wait  max wait  avg wait      type  caller"
contains_re "$OUT" "^ +[1-9][0-9]* +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +mutex  (anon_)?pipe_write\+0x[0-9a-f]+$"
contains "$OUT" "mutex wait in pipe callers"
# the write side's waits in a histogram of their own, labelled as run's
contains_re "$OUT" "^    wait of (anon_)?pipe_write\+0x[0-9a-f]+ \(mutex\): [1-9][0-9]* waits?$"
contains_re "$OUT" "^    \[[0-9]+[mun]?s, [0-9]+[mun]?s\) +[0-9]+ \|[@ ]+\|$"
not_contains "$OUT" "sides are merged"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "observe's text is wider than 80 columns"
cs 0 show last --json
python3 - "$OUT" <<'PY' || fail "the callers' histograms do not hold their waits"
import json, sys
o = json.load(open(sys.argv[1]))["observation"]["lock"]
assert o["callers"], o
for c in o["callers"]:
    assert sum(n for _, n in c["log2"]) == c["contentions"], c
pipe = [c for c in o["callers"] if c["type"] == "mutex" and
        c["caller"].split("+")[0] in ("pipe_read", "pipe_write",
                                      "anon_pipe_read", "anon_pipe_write")]
assert sum(c["contentions"] for c in pipe) == o["pipe_mutex"]["count"], o
PY
cs 0 report last -o "$TMP/lock.html"
contains_re "$TMP/lock.html" "<th>mutex wait of (anon_)?pipe_write\+0x[0-9a-f]+</th>"

note "perf recording the same tracepoint beside observe still gets every event"
if command -v perf >/dev/null 2>&1; then
	"$BIN" observe --duration 3s --what pipe-writes --pipe-source syscalls \
		--comm obswriter --no-store >"$TMP/o2.out" 2>"$TMP/o2.err" &
	o2=$!
	wait_for 20 started "$TMP/o2.err"
	perf record -q -e syscalls:sys_enter_write -a -o "$TMP/p.data" -- \
		"$TMP/obswriter" >/dev/null 2>&1 || fail "perf record failed"
	wait $o2 || fail "observe beside perf failed"
	n=$(perf script -i "$TMP/p.data" -F comm 2>/dev/null |
		grep -c '^ *obswriter *$')
	# at least the writer's 1010 (perf's own start-up of the command can
	# add one write under its name; a program that returned 0 left perf
	# 3 events of 600k)
	[ "$n" -ge 1010 ] || fail "perf saw $n of the 1010 writes beside observe"
	contains_re "$TMP/o2.out" "^    obswriter +1010 "
else
	skip_case "perf is not installed"
fi

note "the pipe-writes sources: each one that failed says why"
src=$(sed -n 's/^pipe writes: .*, from //p' "$TMP/obs.out")
case $src in
"fexit "*) ;;
"kretprobe "*)
	contains "$TMP/obs.out" "pipe-writes: fexit on" ;;
tracepoints*)
	contains "$TMP/obs.out" "pipe-writes: fexit on"
	contains "$TMP/obs.out" "pipe-writes: kprobes" ;;
*) fail "observe names no pipe-writes source ('$src')" ;;
esac
note "... forcing fexit: it runs, or nothing can and that is exit 77"
expect_exit_any() {
	LAST_CMD="$*"
	"$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
}
expect_exit_any "$BIN" observe --duration 100ms --what pipe-writes \
	--pipe-source fexit --no-store
case $LAST_RC in
0) contains "$OUT" "from fexit" ;;
77) contains "$ERR" "nothing of the request can be observed here"
    contains "$ERR" "pipe-writes: fexit on"
    not_contains "$ERR" "trying the next source" ;;
*) fail "observe --pipe-source fexit exited $LAST_RC" ;;
esac

note "a forced pipe source: the syscall tracepoints"
cs 0 observe --duration 100ms --what pipe-writes --pipe-source syscalls \
	--no-store
contains "$OUT" "from tracepoints syscalls:write,writev,splice"
exit 0
