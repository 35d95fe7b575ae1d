#!/bin/sh
# test_ab.sh - copyscope ab: a paired A/B inside one run.  A change that
# cannot be missed (inject_ns adds 2 us to a null syscall) is 'worse', also
# when shown again from the store; seeded samples with a known answer (+5%
# under +-20% drift between rounds: worse; A/A: ~) judged from the store; the
# A/A self-test is judged without a verdict; too few rounds 'cannot tell';
# JSON rows carry the fields the docs promise; bad input exits 2 and
# changes nothing; a kernel setting of each side is written during the run
# and restored after it, also after SIGINT (twice); one that does not
# exist, cannot be written or is refused exits 2 with the value unchanged.
. "$(dirname "$0")/lib.sh"
need_python

q="--sample-time 2ms --warmup 10ms"

note "a large known slowdown is worse, the control is not"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 12 $q --seed 7
contains_re "$OUT" '^  time/call .* worse$'
contains "$OUT" "A'/A control"
contains "$OUT" "the same reading as time/call: counted once"
contains_re "$OUT" '^1 judged: 1 worse, 0 better, 0 ~, 0 cannot tell'
contains "$OUT" "  seed 7"
contains_re "$OUT" '^stored as run [0-9]+ in '

note "JSON: rows with metric, change_pct, ci, p, verdict and the control"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 12 $q --json
python3 - "$OUT" <<'PY' || fail "ab --json is not what the docs say"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["metric"]: r for r in d["rows"]}
t = rows["time/call"]
assert t["verdict"] == "worse", t
assert t["change_pct"] > 30, t    # 2 us on a ~0.1-1 us call (less when loaded)
assert t["ci"][0] > 20 and t["ci"][1] >= t["ci"][0], t
assert 0 <= t["p"] < 0.05, t
assert set(t["control"]) >= {"change_pct", "ci", "p"}, t
assert t["rounds"] == 12 and len(t["ratios_pct"]) == 12, t
assert rows["cycles/call"]["same_reading_as"] == "time/call", rows
assert d["counts"]["worse"] == 1, d["counts"]
PY

note "stored and shown again: show prints the ab table, show --json its rows"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 12 $q --tag abk
id=$(run_id)
cs 0 show "$id" --no-env
contains_re "$OUT" '^copyscope ab sys.null \(run [0-9]+\): 12 rounds'
contains_re "$OUT" '^  time/call .* worse$'
cs 0 show "$id" --json
python3 - "$OUT" <<'PY' || fail "show --json of an ab run lacks its rows"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["ab"]["rows"] if r["metric"] == "time/call"][0]
assert t["verdict"] == "worse" and d["ab"]["b"] == "inject_ns=2us", d["ab"]
PY

# seeded samples with a known answer in place of this machine's, written
# the promised way (an export crafted and imported: lib.sh, made_ab): A
# and A' around 1000, B 5% above (or equal for A/A), 2% noise, the same
# drift of up to +-20% applied to the three samples of each round
note "seeded samples: +5% under +-20% drift between rounds is worse"
restage "$COPYSCOPE_DB" "$id"
made_ab time/call 11 1.05 12
made_import --new-uuid ab5 --tag ab5
cs 0 show "$MADE_ID" --json
python3 - "$OUT" <<'PY' || fail "a known +5% paired change was not 'worse'"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["ab"]["rows"] if r["metric"] == "time/call"][0]
assert t["verdict"] == "worse", t
assert 2 < t["change_pct"] < 8 and t["ci"][0] > 1, t
assert abs(t["control"]["change_pct"]) < 3, t
PY
note "seeded samples: A/A under the same drift is ~"
restage "$COPYSCOPE_DB" "$id"
made_ab time/call 12 1.0 12
made_import --new-uuid abaa --tag abaa
cs 0 show "$MADE_ID" --json
python3 - "$OUT" <<'PY' || fail "a seeded A/A got a verdict"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["ab"]["rows"] if r["metric"] == "time/call"][0]
# 12 rounds under 2% noise of each sample: the control's CI reaches past
# the 1% band, so the A/A is "cannot tell: the control moved", or "~"
assert t["verdict"] in ("~", "cannot tell"), t
assert t["verdict"] == "~" or "the control moved" in t["reason"], t
assert t["ci"][0] < 0 < t["ci"][1], t
PY

note "seeded samples: A' 6% above A is a moved control, and the reason names --fresh-workers"
# the staged run kept its workers (no --fresh-workers, no kernel views)
restage "$COPYSCOPE_DB" "$id"
made_ab time/call 13 1.0 12 1.06
made_import --new-uuid ab6e --tag abmv
cs 0 show "$MADE_ID"
# the text wraps its reasons: read as one line
sed 's/^ *//' "$OUT" | tr '\n' ' ' >"$TMP/mv.txt"
contains "$TMP/mv.txt" "so the pairing did not hold; each side kept its workers, whose offset --fresh-workers averages out"
cs 0 show "$MADE_ID" --json
python3 - "$OUT" <<'PY' || fail "a seeded moved control was not 'cannot tell'"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["ab"]["rows"] if r["metric"] == "time/call"][0]
assert t["verdict"] == "cannot tell", t
assert 3 < t["control"]["change_pct"] < 9, t
assert "--fresh-workers averages out" in t["reason"], t
PY
cs 0 report "$MADE_ID" -o "$TMP/mv.html"
contains "$TMP/mv.html" "whose offset --fresh-workers averages out"

note "compare of ab runs of one A/B: their rounds pooled, each run shown"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 8 $q --tag abc
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 8 $q --tag abc
cs 0 compare abc abc
contains_re "$OUT" '^copyscope compare: 2 ab runs of sys.null, their rounds pooled'
contains_re "$OUT" '^  time/call +2 +16 .* worse$'
contains_re "$OUT" '^    each run: [+][0-9.]+% [+][0-9.]+%; '
cs 0 compare abc abc --json
python3 - "$OUT" <<'PY' || fail "compare --json of ab runs"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "ab-combined" and d["runs"] == 2, d
t = [r for r in d["rows"] if r["metric"] == "time/call"][0]
assert t["rounds"] == 16 and len(t["run_change_pct"]) == 2, t
assert t["verdict"] == "worse" and t["ci"][0] > 50, t
PY
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=1000 --rounds 6 $q --tag abo
cs 2 compare abc abo
contains "$ERR" "not the same A/B: ab.b is 'inject_ns=2us' and 'inject_ns=1us'"

# a run whose rounds disagree with the others widens the pooled CI: the
# seeded A/A run (abaa) pooled with two runs of a 2 us slowdown
cs 0 compare abaa abc --json
python3 - "$OUT" <<'PY' || fail "a disagreeing run did not widen the CI"
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["rows"] if r["metric"] == "time/call"][0]
# (wide: from under +50% to past a slowdown run's own estimate, which is
# +2000% on a quiet machine and less where the null call itself is slow)
assert t["runs"] == 3 and t["ci"][0] < 50, t
assert t["ci"][1] > sorted(t["run_change_pct"])[1], t
PY

# the judgement of an A/A pair is checked on seeded samples above; a
# real one is a measurement whose false-verdict rate (0 of 20 here) is a
# benchmark's business (bench/ab-power.sh), not a test's
note "A/A: the same configuration on both sides is accepted and judged"
cs 0 ab sys.null --a call=gettid --b call=gettid --rounds 12 $q
contains "$OUT" "  A:  call=gettid"
contains "$OUT" "  B:  call=gettid"
contains_re "$OUT" '^  time/call +[0-9.]+ +[-+][0-9.]+% '
contains_re "$OUT" "^    A'/A control "

note "five rounds can never reach p < 0.05: cannot tell, and why"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 5 $q --no-store
contains_re "$OUT" '^  time/call .* cannot tell$'
contains_flat "$OUT" "5 rounds cannot reach p < 0.05"
contains_flat "$OUT" "take --rounds 6 or more"

note "an interrupted ab says so, with the rounds it took of those asked"
"$BIN" ab sys.null --a inject_ns=0 --b inject_ns=100 --rounds 2000 $q \
	--no-store >"$TMP/int.out" 2>"$TMP/int.err" &
abpid=$!
sleep 3
kill -INT $abpid
wait $abpid
rc=$?
[ "$rc" -eq 130 ] || fail "an interrupted ab exited $rc, not 130"
grep -q "interrupted after [0-9]* of 2000 rounds" "$TMP/int.out" ||
	fail "an interrupted ab did not say 'interrupted after N of 2000 rounds'"

note "a worker that dies stops ab at once: stored as failed, exit 1 (#34 item 4)"
"$BIN" ab pipe.bw --a size=4k --b size=8k --rounds 2000 $q \
	--db "$TMP/wd.db" >"$TMP/wd.out" 2>"$TMP/wd.err" &
abpid=$!
wait_for 60 pgrep -P $abpid
sleep 1
kill -9 "$(pgrep -P $abpid | head -1)"
t0=$(date +%s)
wait $abpid
rc=$?
[ "$rc" -eq 1 ] || fail "ab with a dead worker exited $rc, not 1"
# it stops at once: not the remaining rounds (2000 rounds take minutes)
[ $(( $(date +%s) - t0 )) -lt 30 ] ||
	fail "ab went on after its worker died"
grep -q "stopped after [0-9]* of 2000 rounds" "$TMP/wd.out" ||
	fail "ab with a dead worker did not say 'stopped after N of 2000 rounds'"
contains_flat "$TMP/wd.out" "killed by signal 9"
contains_flat "$TMP/wd.out" "the others cannot be paired without it"
COPYSCOPE_DB="$TMP/wd.db" cs 0 show last
contains "$OUT" " failed "
contains "$OUT" "asked (the run failed"
# show labels the three configurations (#30 item 3)
contains_re "$OUT" "^A: pipe.bw  size=4k "
contains_re "$OUT" "^B: pipe.bw  size=8k "
contains_re "$OUT" "^A' \(A again\): pipe.bw  size=4k "
# the HTML report: the verdict table first, the sides named, the blocks
# labelled, and no verdict called "same"
COPYSCOPE_DB="$TMP/wd.db" cs 0 report last -o "$TMP/wd.html"
python3 - "$TMP/wd.html" <<'PY' || fail "the ab report's layout is wrong"
import re, sys
h = open(sys.argv[1]).read()
summary = h.index("<h3>ab: B against A, paired by round</h3>")
first_block = h.index('<h3 id="run-1-job-0">A: pipe.bw')
assert summary < first_block, "the verdict table is not first"
assert "<li><b>A</b>: size=4k</li>" in h
assert "<li><b>B</b>: size=8k</li>" in h
assert '<h3 id="run-1-job-1">B: pipe.bw' in h
assert "A&#39; (A again): pipe.bw" in h
assert '"verdict":"same"' not in h.replace(" ", "")
PY

note "the B column is A x (1 + %change): the arithmetic on screen checks"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --rounds 12 $q --no-store
contains "$OUT" "A*(1+%)"
# the parameters both sides share are named (#30 item 3)
contains "$OUT" "both: sys.null call=gettid trace=0"
awk '$1 == "time/call" { a = $2; c = $3; b = $4; sub(/%/, "", c);
	e = a * (1 + c / 100); d = (b - e) / e; if (d < 0) d = -d;
	if (d > 0.01) { print "B " b " is not " a " x (1 + " c "%)"; exit 1 } }' \
	"$OUT" || fail "ab's columns do not add up"

note "bad input exits 2 and stores nothing"
before=$(count_runs)
cs 2 ab sys.null --a szie=1 --b call=gettid
contains "$ERR" "szie"
cs 2 ab sys.null --a call=gettid,call=getppid --b call=gettid
contains "$ERR" "call is given twice for side A"
cs 2 ab sys.null call=gettid --a call=getppid --b call=gettid
contains "$ERR" "call is given twice for side A"
cs 2 ab sys.iov --a segs=8,9 --b segs=9
contains "$ERR" "each side of ab is one configuration"
cs 2 ab nosuch.workload --a x=1 --b x=2
contains "$ERR" "unknown workload"
cs 2 ab sys.null
contains "$ERR" "--a and --b"
cs 2 ab sys.null --a call=gettid
contains "$ERR" "--a without --b"
cs 2 ab sys.null --b inject_ns=5
contains "$ERR" "--b without --a"
cs 2 ab sys.null --a call=gettid --b call=gettid --rounds 1
contains "$ERR" "--rounds"
cs 2 ab sys.null --a call=gettid --b call=gettid --max-time 1s
contains "$ERR" "--max-time: only with --precision"
cs 2 ab sys.null --a-sysctl nosuch.sysctl.key=1 --b call=gettid
contains "$ERR" "nosuch/sysctl/key"
cs 2 ab sys.null --a-sysctl ../../etc/passwd=1
contains "$ERR" "a key of letters"
[ "$(count_runs)" -eq "$before" ] || fail "a refused ab stored a run"

if [ "$(id -u)" -ne 0 ]; then
	skip_case "kernel settings: written and restored only as root"
	exit 0
fi
key=kernel/printk_ratelimit
orig=$(cat /proc/sys/$key)
a=$((orig + 2))
b=$((orig + 3))

note "a setting per side is restored at the end"
cs 0 ab sys.null --a-sysctl kernel.printk_ratelimit=$a \
	--b-sysctl kernel.printk_ratelimit=$b --rounds 6 $q --no-store
[ "$(cat /proc/sys/$key)" = "$orig" ] || fail "not restored after a run"
contains_flat "$OUT" "kernel.printk_ratelimit=$a (was $orig)"
contains_flat "$OUT" "kernel.printk_ratelimit=$b (was $orig)"

note "a value the kernel refuses exits 2 and changes nothing"
cs 2 ab sys.null --a-sysctl kernel.printk_ratelimit=notanumber \
	--b call=gettid
contains "$ERR" "the kernel refused it"
[ "$(cat /proc/sys/$key)" = "$orig" ] || fail "changed by a refused value"

note "a read-only setting exits 2"
cs 2 ab sys.null --a-sysctl kernel.osrelease=1.2.3 --b call=gettid
contains "$ERR" "cannot be written"

note "SIGINT (twice) during the rounds: the original value comes back"
"$BIN" ab sys.null --a-sysctl kernel.printk_ratelimit=$a \
	--b-sysctl kernel.printk_ratelimit=$b --rounds 2000 \
	--sample-time 5ms --no-store >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
wait_changed() {	# the run has written a side's value
	v=$(cat /proc/sys/$key)
	[ "$v" = "$a" ] || [ "$v" = "$b" ]
}
i=0
until wait_changed; do
	i=$((i + 1))
	[ $i -lt 400 ] || { kill -9 $pid; fail "the value never changed"; }
	sleep 0.05
done
kill -INT $pid
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "exit $rc after SIGINT, not 130"
[ "$(cat /proc/sys/$key)" = "$orig" ] || {
	echo "$orig" >/proc/sys/$key
	fail "not restored after SIGINT"
}
echo "test_ab: ok"
