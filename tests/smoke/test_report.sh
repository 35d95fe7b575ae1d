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
need_sqlite3

SHOTS=$ROOT/build/test-report
mkdir -p "$SHOTS" || fail "cannot make $SHOTS"

cs 0 run pipe.bw size=4k,64k,1M --quick
cs 0 run pipe.matrix writers=1,2,5 readers=1,5,10 --hist --quick
cs 0 run sys.iov segs=1,8,64 --quick
cs 0 run pipe.bw --explain --quick
cs 0 run sys.null --quick --tag base
cs 0 run sys.null --quick --tag base
cs 0 run sys.null inject_ns=300ns --quick --tag new
cs 0 run sys.null inject_ns=300ns --quick --tag new
# known data: the new side 30% slower
inject 5 time/call 1 100
inject 6 time/call 2 100
inject 7 time/call 3 130
inject 8 time/call 4 130
# the per-byte explain (file.rw against mem.copy libc and movsb); movsb
# needs rep movsb (ERMS)
PB=""
if "$BIN" run mem.copy engine=movsb size=64 --quick --no-store \
	>/dev/null 2>&1; then
	cs 0 run file.rw target=memfd size=4k,64k --explain --quick
	PB=$(run_id)
	[ -n "$PB" ] || fail "the file.rw --explain run was not stored"
fi

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
note "report last (the grid run alone), through stdout"
cs 0 report 2
cp "$OUT" "$TMP/last.html"
check_html "$TMP/last.html" heatmap percentile scatter
note "report --compare of two tags: the forest plot"
cs 0 report --compare base new --ignore-param inject_ns --by-sample \
	-o "$TMP/cmp.html"
check_html "$TMP/cmp.html" forest
contains "$TMP/cmp.html" '<tr class="worse">'
contains "$TMP/cmp.html" "inject_ns"

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

CHROME=""
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
if [ -z "$CHROME" ]; then
	skip_case "Chromium is not installed (scripts/install-deps.sh installs it): the reports were not rendered"
	exit 0
fi

# render NAME FILE MINCHARTS: the page in headless Chromium, its DOM after
# the scripts ran checked, and a screenshot under build/test-report.
render() {
	_dom=$TMP/$1.dom
	note "rendering $1 in $CHROME"
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome-$1" --virtual-time-budget=10000 \
		--dump-dom "file://$2" >"$_dom" 2>"$TMP/$1.stderr" ||
		fail "$CHROME --dump-dom failed on $1 (see $TMP/$1.stderr)"
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
figs = re.findall(r'<figure class="plot" data-kind="(\w+)" data-points="(\d+)" data-ink="(\d+)"', dom)
if len(figs) != charts:
    sys.exit("%d figures say what they drew, of %d" % (len(figs), charts))
for kind, pts, ink in figs:
    if int(pts) == 0 or int(ink) < 2000:
        sys.exit("an empty %s chart: %s points, %s pixels" % (kind, pts, ink))
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
print("%d charts drawn: %s" % (charts, ", ".join(sorted(set(k for k, _, _ in figs)))))
PY
	grep -q "Uncaught" "$TMP/$1.stderr" &&
		fail "Chromium logged an uncaught error on $1"
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
render compare "$TMP/cmp.html" 1 1200
exit 0
