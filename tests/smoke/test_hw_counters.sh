#!/bin/sh
# test_hw_counters.sh - `run --hw-counters` (docs/methodology.md,
# "Hardware counters"): where the machine has no PMU (this VM:
# perf_event_open says ENOENT) the preamble says so in one line (stderr
# under --json), the environment keeps the reason and no figure is made
# up; where it has one, its rows are there instead.  The option is stored,
# shown and carried by the JSON, and a run without it has none of this.
# Then hw rows with known values (an export with them added, imported):
# `show` prints them, `compare` and `ab` give them no verdict (info),
# however much they move.
. "$(dirname "$0")/lib.sh"
need_python

HW_ROWS='hw cycles/op|hw instr/op|hw IPC|cache-miss/op|dTLB-miss/op'
NO_PMU="no PMU here: no cycles, instructions or cache/TLB counts (perf_event_open: "
REFUSED="no hardware counters: perf_event_open gave none of them ("

# hw_case: which of the three this machine is, from the last run's stdout
hw_case() {
	if flat "$OUT" | grep -F -q "$NO_PMU"; then
		echo none
	elif flat "$OUT" | grep -F -q "$REFUSED"; then
		echo refused
	else
		echo counters
	fi
}

note "run --hw-counters: the no-PMU line, or the counters and their rows"
cs 0 run sys.null --quick --hw-counters --tag hw
RUN=$(run_id)
[ "$(grep -c -E '^(no PMU here|no hardware counters|hardware counters):' \
	"$OUT")" -eq 1 ] || fail "not one hardware counters line"
CASE=$(hw_case)
note "this machine: $CASE"
case $CASE in
none | refused)
	grep -E -q "^ +($HW_ROWS) " "$OUT" &&
		fail "hw rows from a machine without counters"
	;;
counters)
	contains_re "$OUT" '^hardware counters: [a-zA-Z,-]+, user'
	contains_re "$OUT" "^ +($HW_ROWS) +[0-9.]+ "
	;;
esac

note "show: the option, the environment"
cs 0 show "$RUN"
contains_re "$OUT" '^options: .*; --hw-counters$'
contains_re "$OUT" '^  (no PMU here|no hardware counters|hardware counters): '
contains_re "$OUT" '^hw\.counters +'

note "report: the run's header has show's hardware counters line"
cp "$OUT" "$TMP/show.txt"
cs 0 report "$RUN" -o "$TMP/hw.html"
python3 tests/smoke/hw_html_check.py "$TMP/show.txt" "$TMP/hw.html" >"$OUT" ||
	fail "report: the hardware counters line"

note "run --hw-counters --json: the reason or the metrics, as info"
cs 0 run sys.null --quick --hw-counters --no-store --json
python3 - "$OUT" "$ERR" <<'PY' || fail "run --json: the counters or their reason"
import json, sys
d = json.load(open(sys.argv[1]))
err = " ".join(open(sys.argv[2]).read().split())
hw = {"hw cycles/op", "hw instr/op", "hw IPC", "cache-miss/op",
      "dTLB-miss/op"}
env = d["environment"]
assert d["run"]["options"]["hw_counters"] is True, d["run"]["options"]
got = {r["metric"]: r for r in d["results"] if r["metric"] in hw}
if env["hw.counters"] == "none":
    why = env["hw.counters_missing"]
    assert why.startswith("perf_event_open: "), env
    assert not got, sorted(got)
    line = ("no PMU here" if env["hw.counters_pmu"] == "none"
            else "no hardware counters")
    assert "copyscope: %s" % line in err and why in err, err
else:
    assert env["hw.counters_pmu"] == "present", env
    assert env["hw.counters_scope"] in ("user", "user+kernel"), env
    assert got and all(r["direction"] == "info" for r in got.values()), got
    have = env["hw.counters"].split(",")
    if "cycles" in have and "instructions" in have:
        assert "hw IPC" in got and got["hw IPC"]["summary"]["median"] > 0
    assert "no PMU" not in err, err
PY

note "a run without --hw-counters: no line, no keys, the option off"
cs 0 run sys.null --quick --no-store --json
python3 - "$OUT" <<'PY' || fail "run without --hw-counters"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["options"]["hw_counters"] is False
assert not [k for k in d["environment"] if k.startswith("hw.")]
assert "run.hw_counters" not in d["environment"]
assert not [r for r in d["results"] if r["metric"].startswith("hw ")]
PY
not_contains "$ERR" "PMU"
cs 0 run sys.null --quick --no-store
not_contains "$OUT" "PMU"
not_contains "$OUT" "hardware counters"

note "made hw rows: shown, and compared as info, never a verdict"
stage run sys.null --quick --tag made
for side in 1 2; do
	made_add time/call "hw IPC" instr/cycle info
	made_add time/call "cache-miss/op" count info
	# side 2: IPC halved, cache misses four times as many
	if [ $side = 1 ]; then
		made_gauss "hw IPC" 1 0.5 10
		made_gauss "cache-miss/op" 2 3.25 10
	else
		made_gauss "hw IPC" 3 0.25 10
		made_gauss "cache-miss/op" 4 13 10
	fi
	made_gauss time/call 5 1000 10
	made_gauss cycles/call 6 2000 10
	made_import --new-uuid "$side" --tag "side$side"
done
cs 0 show side1
contains_re "$OUT" '^ +hw IPC +0\.50[0-9] '
contains_re "$OUT" '^ +cache-miss/op +3\.2[0-9] '
# the table at 80 columns: a metric name longer than the column's least
# width (cache-miss/op) widens the column, every cell stays under its
# heading
python3 - "$OUT" <<'PY' || fail "show: the table's columns"
import sys
lines = open(sys.argv[1]).read().splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("  metric ")]
assert len(head) == 1, head
h = lines[head[0]]
med, sd = h.index("median") + 6, h.index("\u00b1sd") + 3
rows = 0
for l in lines[head[0] + 1:]:
    if not l.startswith("  ") or l.startswith("    "):
        break
    rows += 1
    assert len(l) == len(h) <= 80, (l, h)
    assert l[med - 1] != " " and l[med] == " ", (l, h)
    assert l[sd - 1] != " " and l[sd] == " ", (l, h)
    name = l[2:].split("  ")[0]
    assert len(name) + 2 < h.index("median") - 1, (l, h)
assert rows == 4, rows
PY
cp "$OUT" "$TMP/show.txt"
cs 0 report side1 -o "$TMP/side1.html"
python3 tests/smoke/hw_html_check.py "$TMP/show.txt" "$TMP/side1.html" \
	>"$OUT" || fail "report: the made hw rows"
contains "$OUT" "line (none) and 2 rows alike"
cs 0 compare side1 side2 --by-sample --json
python3 - "$OUT" <<'PY' || fail "compare: hw rows are info"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["metric"]: r for r in d["rows"]}
for m in ("hw IPC", "cache-miss/op"):
    assert rows[m]["verdict"] == "info", rows[m]
    assert abs(rows[m]["change_pct"]) > 40, rows[m]
PY
cs 0 compare side1 side2 --by-sample
contains_flat "$OUT" "4 compared: 0 worse, 0 better,"
contains_flat "$OUT" "2 informational"

note "ab --hw-counters: the header says it; hw rows, where any, are info"
cs 0 ab sys.null --a call=gettid --b call=getppid --rounds 3 \
	--sample-time 2ms --warmup 0 --hw-counters --no-store
case $CASE in
none) contains_flat "$OUT" "$NO_PMU" ;;
refused) contains_flat "$OUT" "$REFUSED" ;;
counters)
	contains_re "$OUT" '^  hardware counters: '
	grep -E "^  ($HW_ROWS) " "$OUT" | grep -v -q ' info$' &&
		fail "an ab hw row with a verdict"
	;;
esac
exit 0
