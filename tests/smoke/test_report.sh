#!/bin/sh
# test_report.sh - `copyscope report`: the HTML report of real runs (a
# size sweep, E2's writers x readers grid with per-op histograms, a fit,
# the --explain floors: pipe.bw's and file.rw's per byte) and of a
# comparison of two tags, checked in the file (every expected chart,
# nothing fetched from outside) and rendered in headless Chromium: every
# chart drawn and not empty, no script error on the page; screenshots
# under build/test-report/.  The browser part is skipped (and counted so)
# where Chromium is not installed.
. "$(dirname "$0")/lib.sh"
need_python

SHOTS=$ROOT/build/test-report
mkdir -p "$SHOTS" || fail "cannot make $SHOTS"

cs 0 run pipe.bw size=4k,64k,1M --quick
cs 0 run pipe.matrix writers=1,2,5 readers=1,5,10 --hist --quick
cs 0 run sys.iov segs=1,8,64 --quick
cs 0 run pipe.bw --explain --quick
# known data: the new side 30% slower (real runs exported, their samples
# made seeded values, imported: stage, made_import in lib.sh)
for k in 1 2 3 4; do
	if [ "$k" -le 2 ]; then
		stage run sys.null --quick --tag base
		made_gauss time/call "$k" 100
	else
		stage run sys.null inject_ns=300ns --quick --tag new
		made_gauss time/call "$k" 130
	fi
	made_import
done
# the per-byte explain (file.rw against mem.copy libc and movsb); movsb
# needs rep movsb (ERMS)
PB=""
if "$BIN" run mem.copy engine=movsb size=64 --quick --no-store \
	>/dev/null 2>&1; then
	cs 0 run file.rw target=memfd size=4k,64k --explain --quick
	PB=$(run_id)
	[ -n "$PB" ] || fail "the file.rw --explain run was not stored"
fi

# a suite (quick: every workload once, tiny), and a third run a side for
# a comparison over runs (p from Welch's t over the run medians)
cs 0 run quick
Q=$(run_id)
[ -n "$Q" ] || fail "the quick suite's run was not stored"
sed -n '/^summary of run /,/^draw it: /p' "$OUT" >"$TMP/summary.txt"
[ -s "$TMP/summary.txt" ] || fail "run quick printed no summary"
stage run sys.null --quick --tag base
made_gauss time/call 5 100
made_import
stage run sys.null inject_ns=300ns --quick --tag new
made_gauss time/call 6 130
made_import

# check_html FILE KIND...: the report holds a figure of each KIND with
# its data and its table, the bundled library, and nothing from outside.
check_html() {
	_f=$1
	shift
	[ -s "$_f" ] || fail "$_f is empty"
	for _k in "$@"; do
		grep -q "<figure class=\"plot\" data-kind=\"$_k\"" "$_f" ||
			fail "$(basename "$_f") has no $_k plot"
	done
	grep -q 'Chart.js v4' "$_f" || fail "the charting library is not in $_f"
	grep -Eiq '(src|href)="(https?:)?//' "$_f" &&
		fail "$(basename "$_f") loads something from outside"
	python3 - "$_f" <<'PY' || fail "a plot of $(basename "$_f") has no table or no data"
import json, re, sys
html = open(sys.argv[1]).read()
figs = re.findall(r'<div class="pair">\n<figure class="plot" data-kind="(\w+)">'
                  r'.*?<script type="application/json">(.*?)</script></figure>\n'
                  r'<div class="numbers">\n<table>(.*?)</table>', html, re.S)
if not figs:
    sys.exit("no figure with its table")
if len(figs) != html.count('<figure class="plot"'):
    sys.exit("%d figures, %d with data and a table" %
             (html.count('<figure class="plot"'), len(figs)))
for kind, spec, table in figs:
    d = json.loads(spec)
    if d["kind"] != kind:
        sys.exit("figure %s holds %s data" % (kind, d["kind"]))
    if table.count("<tr") < 2:
        sys.exit("the table of a %s plot has no rows" % kind)
PY
}

note "report of the runs: sweep, heat map, histograms, fit, explain"
cs 0 report "1,2,3,4${PB:+,$PB}" -o "$TMP/runs.html"
contains "$OUT" "wrote $TMP/runs.html"
check_html "$TMP/runs.html" sweep heatmap percentile scatter fit explain
if [ -n "$PB" ]; then
	# the pipe's explain and the per-byte one: a figure each
	[ "$(grep -o 'data-kind="explain"' "$TMP/runs.html" | wc -l)" -eq 2 ] ||
		fail "expected two explain figures (pipe, per byte)"
	contains "$TMP/runs.html" "per byte: the workload against its copy floors"
	contains "$TMP/runs.html" "per byte against mem.copy: file.rw target=memfd"
	contains "$TMP/runs.html" "least-squares fit over 2 sizes"
else
	skip_case "this CPU has no rep movsb (ERMS): no per-byte explain to draw"
fi
contains "$TMP/runs.html" "writers x readers"
contains "$TMP/runs.html" "least-squares fit over segs"
contains "$TMP/runs.html" "kernel.release"
note "the notes under a table of several configurations name theirs"
python3 - "$TMP/runs.html" <<'PY' || fail "the notes of pipe.bw's sizes do not say which size they are about"
import re, sys
html = open(sys.argv[1]).read()
h = html.index('<h3 id="run-1-job-0">pipe.bw')
notes = html[h:html.index("</ul></li>\n</ul>", h)]
labels = re.findall(r'<li class="config">([^<]*)<ul>', notes)
if labels != ["size=4k", "size=64k", "size=1M"]:
    sys.exit("configurations of the notes: %s" % labels)
PY

note "a suite's report opens with its summary, as run printed it"
cs 0 report "$Q" -o "$TMP/suite.html"
cs 0 show "$Q"
# show prints the summary run printed, line for line
python3 - "$TMP/summary.txt" "$OUT" <<'PY' || fail "show does not print the suite's summary as run did"
import sys
want = open(sys.argv[1]).read()
got = open(sys.argv[2]).read()
if want not in got:
    sys.exit("run printed:\n%s\nshow printed:\n%s" % (want, got))
PY
python3 - "$TMP/suite.html" "$TMP/summary.txt" "$Q" <<'PY' || fail "the suite's report does not open with its summary"
import html as H, re, sys
page, text, run = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
# the first element after the title is the summary table
m = re.search(r'</h1>\n(<table class="headline"[^>]*>)', page)
if not m:
    sys.exit("the element after <h1> is not the summary table: %r" %
             page[page.index("</h1>"):page.index("</h1>") + 120])
table = page[m.start(1):page.index("</table>", m.start(1))]
rows = re.findall(r'<tr class="(\w+)" data-job="(\d+)"><td>(.*?)</td><td>'
                  r'<a href="#([^"]+)">(.*?)</a></td><td>(.*?)</td><td '
                  r'class="num">(.*?)</td><td class="num">(.*?)</td><td>'
                  r'(.*?)</td></tr>', table)
lines = [l for l in text.splitlines()[2:] if not l.startswith("draw it")]
if len(rows) != len(lines) or len(rows) != 15:
    sys.exit("%d rows in the page, %d lines printed, 15 entries in quick" %
             (len(rows), len(lines)))
for (cls, job, label, href, wl, metric, value, sd, state), line in zip(rows, lines):
    label, wl, metric, value, sd, state = (H.unescape(x) for x in
        (label, wl, metric, value, sd, state))
    if value == "-":
        mine = "  %-5s %-13s %-14s     %s" % (label, wl, metric, state)
    else:
        mine = "  %-5s %-13s %-14s %18s %4s %s" % (label, wl, metric,
                                                   value, sd, state)
    if mine.rstrip() != line.rstrip() and value != "-":
        sys.exit("row %r, printed %r" % (mine, line))
    # the link goes down to that entry's results
    if href != "run-%s-job-%s" % (run, job):
        sys.exit("row %s links to %s" % (wl, href))
    h3 = re.search(r'<h3 id="%s">([^ <&]+)' % href, page)
    if not h3 or h3.group(1) != wl:
        sys.exit("the link of %s leads to %s" % (wl, h3 and h3.group(1)))
# the per-sample scatters and the environment are folded
body = re.sub(r"<details.*?</details>", "", page, flags=re.S)
if 'data-kind="scatter"' in body or "kernel.release" in body:
    sys.exit("per-sample scatters or the environment are not folded")
if 'data-kind="scatter"' not in page or "kernel.release" not in page:
    sys.exit("the folded scatters or environment are missing")
print("summary: %d rows as run printed them, each linked" % len(rows))
PY

note "report last (the grid run alone), through stdout"
cs 0 report 2
cp "$OUT" "$TMP/last.html"
check_html "$TMP/last.html" heatmap percentile scatter
note "report --compare of two tags: the forest plot"
cs 0 report --compare base new --ignore-param inject_ns --by-sample \
	-o "$TMP/cmp.html"
check_html "$TMP/cmp.html" forest strip
contains "$TMP/cmp.html" '<tr class="worse">'
contains "$TMP/cmp.html" "inject_ns"
note "report --compare over runs: p, notes, run medians, environment"
cs 0 report --compare base new --ignore-param inject_ns -o "$TMP/cmpr.html"
check_html "$TMP/cmpr.html" forest strip
cs 0 compare base new --ignore-param inject_ns --json
cp "$OUT" "$TMP/cmpr.json"
for r in $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(str(i) for s in ("base","new") for i in d[s]["runs"]))' "$TMP/cmpr.json"); do
	cs 0 show "$r" --json
	cp "$OUT" "$TMP/run-$r.json"
done
python3 - "$TMP/cmpr.html" "$TMP/cmpr.json" "$TMP" <<'PY' || fail "the comparison's report does not agree with compare --json"
import html as H, json, math, re, sys
page, cmp, tmp = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
def fmt_p(p):
    return "-" if p is None else "<0.001" if p < 0.001 else "%.3f" % p
both = [r for r in cmp["rows"] if "p" in r]
cells = [H.unescape(c) for c in re.findall(r'<td class="num p">(.*?)</td>', page)]
want = [fmt_p(r["p"]) for r in both]
if cells != want:
    sys.exit("p cells %s, compare --json %s" % (cells, want))
if any(c == "-" for c in cells):
    sys.exit("a p cell is empty: %s" % cells)
# the note under each row: its spread between runs and boots
notes = re.findall(r'<tr class="note"><td></td><td colspan="8">(.*?)</td></tr>', page)
if not any("between runs" in n and "between boots" in n for n in notes):
    sys.exit("no row's note gives its spread between runs and boots: %s" % notes)
# the strip plot: a point per run of each side, at the run's median
strips = re.findall(r'data-kind="strip">.*?<script type="application/json">(.*?)</script>', page, re.S)
if not strips:
    sys.exit("no strip plot")
spec = json.loads(strips[0])
for side in ("base", "new"):
    pts = [p for p in spec["points"] if p["side"] == side]
    if sorted(p["run"] for p in pts) != sorted(cmp[side]["runs"]):
        sys.exit("%s: points of runs %s, the side has %s" %
                 (side, [p["run"] for p in pts], cmp[side]["runs"]))
    for p in pts:
        run = json.load(open("%s/run-%d.json" % (tmp, p["run"])))
        med = [r["summary"]["median"] for r in run["results"]
               if r["metric"] == "time/call"][0]
        if not math.isclose(p["y"] * spec["div"], med, rel_tol=1e-6):
            sys.exit("run %d: point at %g, its median %g" %
                     (p["run"], p["y"] * spec["div"], med))
if [p["x"] for p in spec["points"]] != list(range(1, len(spec["points"]) + 1)):
    sys.exit("points not in order: %s" % spec["points"])
# the environment: the keys that differ unfolded, the rest folded
body = re.sub(r"<details.*?</details>", "", page, flags=re.S)
shown = set(H.unescape(k) for k in re.findall(r'<tr class="differs"><th>(.*?)</th>', body))
differ = set(d["key"] for d in cmp["environment_differences"])
if shown != differ:
    sys.exit("environment unfolded: %s; differing: %s" % (sorted(shown), sorted(differ)))
if "kernel.release" in body or "kernel.release" not in page:
    sys.exit("the whole environment is not folded")
print("p cells %s; strip of %d runs" % (cells, len(spec["points"])))
PY
cs 0 report --compare base new --ignore-param inject_ns --allow-emulated \
	-o "$TMP/cmpe.html"
cs 2 report 1 --allow-emulated -o "$TMP/x.html"
contains "$ERR" "only with --compare"

note "the kernel views drawn: lock table and waits, wake-ups, system calls"
KV=""
"$BIN" run pipe.bw --kernel lock,sched,syscall --quick >"$TMP/kv.out" \
	2>"$TMP/kv.err"
kv_rc=$?
# exit 0, or 4 with a headline withheld on a loaded machine: stored
if [ "$kv_rc" -eq 0 ] || { [ "$kv_rc" -eq 4 ] &&
	grep -q "headline withheld for" "$TMP/kv.err"; }; then
	KV=$(sed -n 's/^stored as run \([0-9]*\) .*/\1/p' "$TMP/kv.out")
	cs 0 report "$KV" -o "$TMP/kernel.html"
	check_html "$TMP/kernel.html" log2 syscall
	cs 0 show "$KV" --json
	python3 - "$TMP/kernel.html" "$OUT" <<'PY' || fail "the kernel views' charts do not hold the stored records"
import html as H, json, re, sys
page, run = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
k = [r["info"]["kernel"] for r in run["results"] if "kernel" in r["info"]][0]
def label(lo):
    # the text's log2 rows: [2^b, 2^(b+1)) in ns, us, ms, s by 1024
    def p2(e):
        step = min(e // 10, 3)
        return "%d%s" % (1 << (e - 10 * step), ["ns", "us", "ms", "s"][step])
    e = lo.bit_length() - 1 if lo else 0
    return "[1ns]" if lo == 0 else "[%s, %s)" % (p2(e), p2(e + 1))
specs = [json.loads(s) for s in re.findall(
    r'data-kind="log2">.*?<script type="application/json">(.*?)</script>', page, re.S)]
def check(spec, name, hist):
    want = dict((lo, n) for lo, n in hist)
    got = dict((b["lo"], n) for b, n in zip(spec["bins"], [
        s for s in spec["series"] if s["name"] == name][0]["counts"]))
    if {lo: n for lo, n in got.items() if n} != want:
        sys.exit("%s: drawn %s, stored %s" % (name, got, want))
    for b in spec["bins"]:
        if b["label"] != label(b["lo"]):
            sys.exit("bin at %d ns labelled %s, not %s" % (b["lo"], b["label"], label(b["lo"])))
lock = [s for s in specs if s["xlabel"] == "wait"][0]
for row in k["lock"][:6]:
    check(lock, "%s (%s)" % (row["caller"], row["type"]), row["hist"])
check([s for s in specs if s["xlabel"] == "wake-up latency"][0], "wake-ups", k["sched"]["hist"])
sys_spec = json.loads(re.search(r'data-kind="syscall">.*?<script type="application/json">(.*?)</script>', page, re.S).group(1))
want = [c["name"] for c in k["syscall"]["calls"]]
if [b["label"] for b in sys_spec["bars"]] != want:
    sys.exit("system calls drawn %s, stored %s" % (sys_spec["bars"], want))
for b, c in zip(sys_spec["bars"], k["syscall"]["calls"]):
    share = 100.0 * c["total_ns"] / k["syscall"]["thread_ns"]
    if abs(b["share"] - share) > 1e-6 * max(1, share):
        sys.exit("%s: drawn %g%%, stored %g%%" % (b["label"], b["share"], share))
# the lock table beside its histograms, in perf lock's columns
if not re.search(r"<th>contended</th><th>total wait</th><th>max wait</th>", page):
    sys.exit("no lock table")
print("kernel views: %d lock rows, wake-ups, %d system calls drawn" %
      (len(k["lock"]), len(want)))
PY
else
	skip_case "run --kernel refused here ($(tail -1 "$TMP/kv.err")): no kernel views to draw"
fi

note "bad arguments"
cs 2 report
contains "$ERR" "which runs?"
cs 2 report nosuch -o "$TMP/x.html"
contains "$ERR" "'nosuch' is neither a stored run id nor a tag"
cs 2 report --compare base -o "$TMP/x.html"
contains "$ERR" "--compare needs BASE and NEW"
cs 2 report 1 --drop-noisy -o "$TMP/x.html"
contains "$ERR" "only with --compare"
cs 2 report 1 -o /nonexistent/dir/x.html
contains "$ERR" "-o: cannot write"
[ -e "$TMP/x.html" ] && fail "a refused report left a file"

find_chrome
if [ -z "$CHROME" ]; then
	skip_case "Chromium is not installed (scripts/install-deps.sh installs it): the reports were not rendered"
	exit 0
fi

# render NAME FILE MINCHARTS: the page in headless Chromium, its DOM after
# the scripts ran checked, and a screenshot under build/test-report.
render() {
	_dom=$TMP/$1.dom
	chrome_dom "$1" "$2"
	python3 - "$_dom" "$3" <<'PY' || fail "the $1 page did not draw (log above)"
import re, sys
dom, want = open(sys.argv[1]).read(), int(sys.argv[2])
root = re.search(r"<html[^>]*>", dom)
if not root:
    sys.exit("no <html> in the DOM dump")
attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', root.group(0)))
if "data-errors" in attrs:
    sys.exit("the page logged errors: %s" % attrs["data-errors"])
charts, drawn = int(attrs.get("data-charts", -1)), int(attrs.get("data-rendered", -1))
if charts < want or drawn != charts:
    sys.exit("%d charts, %d drawn, at least %d expected" % (charts, drawn, want))
figs = re.findall(r'<figure class="plot" data-kind="(\w+)" data-points="(\d+)" data-gaps="(\d+)" data-ink="(\d+)"', dom)
if len(figs) != charts:
    sys.exit("%d figures say what they drew, of %d" % (len(figs), charts))
for kind, pts, gaps, ink in figs:
    # a chart whose every headline was withheld (a loaded machine) has
    # its frame and no point: its table says "withheld"
    if (int(pts) == 0 and int(gaps) == 0) or int(ink) < 2000:
        sys.exit("an empty %s chart: %s points, %s pixels" % (kind, pts, ink))
    if int(pts) == 0:
        print("a %s chart with all %s headlines withheld" % (kind, gaps))
# every numeric tick label lies on its axis: a label that lost its zeros
# ("4" on an axis from 260 to 420, "1" for 100 on a log axis) does not
import html, json
num = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
nlabels = 0
for kind, ax in re.findall(r'<figure class="plot" data-kind="(\w+)"[^>]*data-axes="([^"]*)"', dom):
    for a in json.loads(html.unescape(ax)):
        lo, hi = a["min"], a["max"]
        # a label has 3 significant digits: it may round past the end
        # by up to half a unit of its third digit (0.5%)
        tol = max(abs(lo), abs(hi)) * 0.006
        if a["type"] == "logarithmic":
            lo, hi = lo / 1.01 - tol, hi * 1.01 + tol
        else:
            lo, hi = lo - (hi - lo) * 0.01 - tol, hi + (hi - lo) * 0.01 + tol
        for l in a["labels"]:
            if not num.match(l):
                continue
            nlabels += 1
            if not lo <= float(l) <= hi:
                sys.exit("%s chart, axis %s from %g to %g: tick label %s is "
                         "not on it (labels %s)" % (kind, a["id"], a["min"],
                         a["max"], l, a["labels"]))
if nlabels == 0:
    sys.exit("no numeric tick label to check")
print("%d numeric tick labels on their axes" % nlabels)
print("%d charts drawn: %s" % (charts, ", ".join(sorted(set(f[0] for f in figs)))))
PY
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome-$1" --hide-scrollbars \
		--virtual-time-budget=10000 --window-size=1300,"$4" \
		--screenshot="$SHOTS/$1.png" "file://$2" >/dev/null 2>&1 ||
		fail "no screenshot of $1"
	[ -s "$SHOTS/$1.png" ] || fail "the screenshot of $1 is empty"
	note "screenshot: $SHOTS/$1.png"
}

render runs "$TMP/runs.html" 10 9000
render last "$TMP/last.html" 3 4400
render compare "$TMP/cmp.html" 2 1800
[ -n "$KV" ] && render kernel "$TMP/kernel.html" 3 2400
exit 0
