#!/bin/sh
# test_suites.sh - `run` of suites and of several workloads at once: no
# workload means the suite 'default'; 'quick' verifies; a key=value applies
# to every named workload that has that parameter.  A suite prints one line
# per configuration and its summary (a screen's worth); -v every table.
. "$(dirname "$0")/lib.sh"

note "run with no workload: the default suite (E1-E7)"
cs 0 run --quick --no-store
for w in pipe.bw pipe.matrix pipe.mix sys.null sys.iov epoll.wait udp.rr \
	mem.copy ring.bw; do
	contains_re "$OUT" "^  $(echo "$w" | sed 's/\./\\./') "
done
# one line per configuration: E2's nine mixes, each with its bandwidth
[ "$(grep -cE '^  (pipe\.matrix)? +writers=[125] readers=(1|5|10) +([0-9.]+ [KMG]iB/s +[0-9]+%|withheld +-) ' "$OUT")" -eq 9 ] ||
	fail "expected nine pipe.matrix lines"
not_contains "$OUT" "outside load"
# a screen's worth: the default suite once printed 351 lines
[ "$(wc -l <"$OUT")" -le 60 ] ||
	fail "run default printed $(wc -l <"$OUT") lines (at most 60)"
awk 'length($0) > 81 { exit 1 }' "$OUT" ||
	fail "a line of run default is wider than 80 columns"

note "the default suite ends with its summary: one line per experiment"
contains "$OUT" "summary (not stored): headline medians"
for e in 'E1 +pipe\.bw +bandwidth +[0-9.]+ [KMG]?i?B/s' \
	'E2 +pipe\.matrix +bandwidth +[0-9.]+ \.\. [0-9.]+ [KMG]?i?B/s' \
	'E3 +pipe\.mix +p99 <128B +[0-9.]+ [mun]?s' \
	'E4 +sys\.null +time/call +[0-9.]+ [mun]?s' \
	'E4 +sys\.iov +time/call +[0-9.]+ \.\. [0-9.]+ [mun]?s' \
	'E5 +epoll\.wait +events/s +[0-9.]+ [KMG]?/s' \
	'E6 +udp\.rr +transactions/s +[0-9.]+ [KMG]?/s' \
	'E7 +mem\.copy +time/copy +[0-9.]+ \.\. [0-9.]+ [mun]?s' \
	'floor +ring\.bw +bandwidth +[0-9.]+ [KMG]?i?B/s'; do
	# or withheld on a loaded machine (docs/methodology.md, "The headline")
	grep -E -q "^  $e +[0-9]+% (quiet|[0-9]+/[0-9]+ flagged|[0-9]+ of [0-9]+ withheld)" "$OUT" ||
		contains_re "$OUT" "^  $(echo "$e" | sed 's/ +\[0-9.*//') +withheld +- [0-9]+/[0-9]+ flagged"
done
[ "$(sed -n '/^summary /,$p' "$OUT" | wc -l)" -le 14 ] ||
	fail "the summary is longer than a screen"
sed -n '/^summary /,$p' "$OUT" | awk 'length($0) > 81 { exit 1 }' ||
	fail "a summary line is wider than 80 columns"
contains "$OUT" "not stored: nothing for 'copyscope report' to draw"
cs 0 run default --quick
id=$(run_id)
contains "$OUT" "summary of run $id: headline medians"
contains "$OUT" "draw it: copyscope report $id -o run-$id.html"
[ "$(tail -n 1 "$OUT")" = "draw it: copyscope report $id -o run-$id.html" ] ||
	fail "the run does not end with the report command"

note "show --json of a suite's run: its summary, the rows show prints"
cs 0 show "$id"
cp "$OUT" "$TMP/show.txt"
cs 0 show "$id" --json
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMP/show.txt" "$OUT" <<'EOF2' || fail "show --json's summary is not the text's"
import json, sys
text = open(sys.argv[1], "rb").read().split(b"\n")
rows = json.load(open(sys.argv[2]))["summary"]
start = [i for i, l in enumerate(text) if l.startswith(b"summary of run")]
if len(start) != 1:
    sys.exit("no summary in the text")
lines = text[start[0] + 2:start[0] + 2 + len(rows) + 1]
if not lines[-1].startswith(b"draw it:"):
    sys.exit("the text has another number of rows than %d" % len(rows))
for row, line in zip(rows, lines):
    if not row["measured"]:
        sys.exit("row not measured: %r" % row)
    want = b"  %-5s %-13s %-14s %18s %4s %s" % tuple(
        row[k].encode() for k in
        ("label", "workload", "metric", "value", "sd", "state"))
    if want != line:
        sys.exit("json %r, text %r" % (want, line))
if [r["label"] for r in rows][:2] != ["E1", "E2"]:
    sys.exit("labels %r" % [r["label"] for r in rows])
EOF2
fi

cs 0 run pipe.bw --quick --no-store
not_contains "$OUT" "summary"

note "run quick: every workload once, one line per configuration"
cs 0 run quick --no-store
for w in $("$BIN" list | sed -n 's/^\([a-z]*\.[a-z_]*\) - .*/\1/p'); do
	contains_re "$OUT" "^  $(echo "$w" | sed 's/\./\\./') "
done
contains "$OUT" "summary (not stored): headline medians"
[ "$(wc -l <"$OUT")" -le 70 ] ||
	fail "run quick printed $(wc -l <"$OUT") lines (at most 70)"
not_contains "$OUT" "verify: ok"

note "run quick -v: every table; every verified configuration ok"
cs 0 run quick --no-store -v
for w in $("$BIN" list | sed -n 's/^\([a-z]*\.[a-z_]*\) - .*/\1/p'); do
	contains_re "$OUT" "^$(echo "$w" | sed 's/\./\\./') "
done
contains_re "$OUT" '^ +4k +bandwidth '
contains_re "$OUT" '^ +64k +bandwidth '
# pipe.bw 2, pipe.matrix 4, mem.copy 6, ring.bw 2, file.rw 8, file.splice
# 3, file.sendfile 2, file.copy 1 verified configurations
[ "$(count_matches "$OUT" "verify: ok")" -eq 28 ] ||
	fail "suite quick: expected 28 'verify: ok' lines, got \
$(count_matches "$OUT" "verify: ok")"
not_contains "$OUT" "verify: FAILED"

note "run sys: both calls"
cs 0 run sys --quick --no-store --verbose
contains_re "$OUT" '^ +gettid +time/call '
contains_re "$OUT" '^ +getppid +time/call '
grep -q '^pipe\.bw' "$OUT" && fail "suite sys ran pipe.bw"
cs 0 run sys size=1 --quick --no-store --json
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
if [(r["workload"], r["measured"]) for r in s] != [(w, True) for w in
        ("sys.null", "sys.rw", "sys.rw", "sys.rw", "sys.iov")]:
    sys.exit("summary %r" % s)
' <"$OUT" || fail "run sys --json: not the summary of the suite's five lines"
fi

note "two workloads, size= applies only to pipe.bw"
cs 0 run pipe.bw sys.null size=4k --quick
contains_re "$OUT" '^pipe\.bw .*size=4k'
contains_re "$OUT" '^sys\.null +call=gettid'
cs 0 show last --json
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(sys.stdin)
w = sorted({r["workload"] for r in d["results"]})
if w != ["pipe.bw", "sys.null"]:
    sys.exit("stored workloads %r" % w)
if "summary" in d:
    sys.exit("a run of no suite has a summary")
for r in d["results"]:
    if r["workload"] == "sys.null" and "size" in r["params"]:
        sys.exit("size= reached sys.null: %r" % r["params"])
' <"$OUT" || fail "the stored run does not hold both workloads as run"
fi
exit 0
