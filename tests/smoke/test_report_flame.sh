#!/bin/sh
# test_report_flame.sh - the profile view's flame graphs in the HTML
# report (issue 31 item 4): a flame graph per profiled configuration, the
# differential ones of an ab run (B against A, the control A' against A)
# and of a comparison (new against base), drawn by the embedded
# d3-flame-graph in headless Chromium and checked frame by frame against
# the stored counts (tests/smoke/flame_check.py): the root's value is the
# total samples, every frame's value the samples of the stacks through
# it, its width value / total x the chart's width; a diff's both counts,
# the frames it leaves out, the colour's sign; in an ab run's tooltips
# each frame's paired change with its 95% CI (checked against the
# crafted traced samples), in a comparison's "not a CI".  Beside each
# differential, the profile diff's table (tests/smoke/
# pdiff_table_check.py): per function each side's self ns per op, the
# change with its 95% CI and (ab) the control's, figure by figure the
# values of the same run's --json profile_diff; a run stored without its
# traced samples gets the self samples' counts and says why.
# Known profiles (crafted into real runs' exports, imported) first, then
# real ones (run --kernel profile: root, kernel callchains) checked the
# same way and against show --folded.  The flame graphs' script is in a
# report only where it draws one; nothing is fetched from outside.  The
# browser part is skipped (and counted so) where Chromium is missing.
. "$(dirname "$0")/lib.sh"
need_python
FC="python3 tests/smoke/flame_check.py"
PT="python3 tests/smoke/pdiff_table_check.py"
SHOTS=$ROOT/build/test-report
mkdir -p "$SHOTS" || fail "cannot make $SHOTS"

# Known profiles: A, B (read_zero grows from 30 to 150 of the samples and
# gets a callee; rw_verify_area is gone) and A' (A again, a little off).
cat >"$TMP/a.folded" <<'EOF'
[user] 40
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read;read_zero 30
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read 10
[user];entry_SYSCALL_64;do_syscall_64;fdget 15
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;rw_verify_area 5
EOF
cat >"$TMP/b.folded" <<'EOF'
[user] 20
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read;read_zero 150
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read;read_zero;clear_user 20
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read 10
[user];entry_SYSCALL_64;do_syscall_64;fdget 20
EOF
cat >"$TMP/a2.folded" <<'EOF'
[user] 42
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read;read_zero 28
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;vfs_read 10
[user];entry_SYSCALL_64;do_syscall_64;fdget 15
[user];entry_SYSCALL_64;do_syscall_64;__x64_sys_pread64;rw_verify_area 5
EOF

note "an ab run with known profiles of A, B and A'"
cs 0 ab sys.rw target=zero --a size=4k --b size=64k --rounds 6 \
	--sample-time 20ms --warmup 20ms --db "$STAGE_DB"
AB=$(run_id)
[ -n "$AB" ] || fail "the ab run was not stored"
cs 0 export "$AB" --db "$STAGE_DB" -o "$TMP/ab.jsonl"
$FC craft "$TMP/ab.jsonl" "$TMP/abk.jsonl" --uuid "abab0000abab0000abab0000abab0001" \
	--tag abk --profile 0="$TMP/a.folded" --profile 1="$TMP/b.folded" \
	--profile 2="$TMP/a2.folded" || fail "crafting the ab run"
cs 0 import "$TMP/abk.jsonl"
cs 0 show abk --json
cp "$OUT" "$TMP/abk.json"
cs 0 report abk -o "$TMP/ab.html"
contains "$OUT" "wrote $TMP/ab.html"
[ "$(grep -c '<figure class="flame" data-kind="flame"' "$TMP/ab.html")" -eq 3 ] ||
	fail "the ab report has not a flame graph for each of A, B and A'"
[ "$(grep -c '<figure class="flame" data-kind="flamediff"' "$TMP/ab.html")" -eq 2 ] ||
	fail "the ab report has not the two differential flame graphs"
contains "$TMP/ab.html" "profile: B against A, differential flame graph (A 100 samples, B 220)"
contains "$TMP/ab.html" "the control, A&#39; (A again) against A"
contains "$TMP/ab.html" "the paired change of the frame&#39;s ns per op"
not_contains "$TMP/ab.html" "These are counts, not a CI"
grep -q 'd3-flame-graph' "$TMP/ab.html" || fail "the flame graphs' script is not in the ab report"
grep -Eiq '(src|href)="(https?:)?//' "$TMP/ab.html" &&
	fail "the ab report loads something from outside"
# the figures hold the stacks as stored, and the tables their counts
python3 - "$TMP/ab.html" "$TMP/abk.json" <<'PY' || fail "the flame figures' data and tables"
import html as H, json, re, sys
page, run = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
prof = [r["info"]["kernel"]["profile"] for r in run["results"]
        if "profile" in r.get("info", {}).get("kernel", {})]
specs = [json.loads(s) for s in re.findall(
    r'<figure class="flame" data-kind="\w+">.*?<script type="application/json">'
    r'(.*?)</script>', page, re.S)]
assert [s["kind"] for s in specs] == ["flame"] * 3 + ["flamediff"] * 2, specs
for s, p in zip(specs[:3], prof):
    assert s["stacks"] == p["stacks"] and s["total"] == p["samples"], s
d = specs[3]["sides"]
assert [x["name"] for x in d] == ["A", "B"], d
assert d[0]["stacks"] == prof[0]["stacks"] and d[1]["stacks"] == prof[1]["stacks"]
assert [x["name"] for x in specs[4]["sides"]] == ["A", "A'"]
# the moved functions: the profile diff's, read_zero (its self share
# 30% -> 68.18%) grew most
rows = re.findall(r'<tr class="(\w+)"><td>([^<]*)</td>', page)
diff = [r for r in rows if r[0] in ("grew", "shrank", "unmoved")]
assert diff[0][1] == "read_zero" and diff[0][0] in ("grew", "unmoved"), diff
# a flame graph's table: read_zero's row of A, its ns/op = share x op
t = re.search(r'<table class="profile">.*?</table>', page, re.S).group(0)
assert "<td>read_zero</td><td class=\"num\">30 (30.0%)</td>" in t, t
PY
# the tables beside the differentials: the profile diff of show --json,
# figure by figure (B - A with the control's CI; A' - A)
$PT "$TMP/ab.html" "$TMP/abk.json" ab control ||
	fail "the ab report's profile-diff tables are not its JSON's profile_diff"

note "an ab run stored without its traced samples: counts, and why no ns per op"
python3 - "$TMP/abk.jsonl" "$TMP/abn.jsonl" <<'PY' || fail "stripping per_sample"
import json, sys
out = open(sys.argv[2], "w")
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d.get("type") == "run":
        d["run"]["uuid"] = "abab0000abab0000abab0000abab0002"
        d["run"]["tag"] = "abn"
    if d.get("type") == "result":
        d["run"] = "abab0000abab0000abab0000abab0002"
        d.get("info", {}).get("kernel", {}).get("profile", {}).pop("per_sample", None)
    out.write(json.dumps(d) + "\n")
PY
cs 0 import "$TMP/abn.jsonl"
cs 0 report abn -o "$TMP/abn.html"
contains "$TMP/abn.html" "No ns per op: A&#39;s profile was stored without its traced samples"
python3 - "$TMP/abn.html" <<'PY' || fail "the counts table of a run without traced samples"
import re, sys
page = open(sys.argv[1]).read()
rows = re.findall(r'<tr class="(\w+)"><td>([^<]*)</td><td class="num">([^<]*)'
                  r'</td><td class="num">([^<]*)</td><td class="num">([^<]*)</td>',
                  page)
assert rows[0] == ("grew", "read_zero", "30 (30.0%)", "150 (68.2%)",
                   "+38.18 points"), rows[0]
assert ("shrank", "[user]", "40 (40.0%)", "20 (9.1%)", "-30.91 points") in rows, rows
assert ("shrank", "rw_verify_area", "5 (5.0%)", "0 (0.0%)", "-5.00 points") in rows
assert "Counts, not a CI" in page
PY

note "a comparison of runs with known profiles (base: two runs, pooled)"
cs 0 run sys.rw target=zero size=64k --quick --db "$STAGE_DB"
ONE=$(run_id)
cs 0 export "$ONE" --db "$STAGE_DB" -o "$TMP/one.jsonl"
$FC craft "$TMP/one.jsonl" "$TMP/fa.jsonl" --uuid "fa000000fa000000fa000000fa000001" \
	--tag fa --profile 0="$TMP/a.folded" || fail "crafting base"
$FC craft "$TMP/one.jsonl" "$TMP/fb.jsonl" --uuid "fb000000fb000000fb000000fb000001" \
	--tag fb --profile 0="$TMP/b.folded" || fail "crafting new"
$FC craft "$TMP/one.jsonl" "$TMP/fa2.jsonl" --uuid "fa000000fa000000fa000000fa000002" \
	--tag fa --profile 0="$TMP/a2.folded" || fail "crafting base's second run"
for r in fa fa2 fb; do
	cs 0 import -v "$TMP/$r.jsonl"
	id=$(sed -n 's/^imported as run \([0-9]*\) .*/\1/p' "$OUT")
	[ -n "$id" ] || fail "$r was not imported"
	cs 0 show "$id" --json
	cp "$OUT" "$TMP/$r.json"
done
cs 0 report --compare fa fb -o "$TMP/cmp.html"
contains "$TMP/cmp.html" "kernel profile: what moved"
contains "$TMP/cmp.html" "profile: sys.rw, new against base, differential flame graph (base 200 samples, new 220)"
contains "$TMP/cmp.html" "These are counts, not a CI"
contains "$TMP/cmp.html" "The table&#39;s changes, per function, have one."
cs 0 compare fa fb --json
cp "$OUT" "$TMP/cmp.json"
$PT "$TMP/cmp.html" "$TMP/cmp.json" compare ||
	fail "the comparison's profile-diff table is not compare --json's profile_diff"
[ "$(grep -c '<figure class="flame"' "$TMP/cmp.html")" -eq 1 ] ||
	fail "the comparison has not one differential flame graph"

note "no profile, no flame graph script"
cs 0 report "$ONE" --db "$STAGE_DB" -o "$TMP/plain.html"
grep -q 'd3-flame-graph\|class="flame"' "$TMP/plain.html" &&
	fail "a report without a profile embeds the flame graphs"
cs 0 report --compare fa fa -o "$TMP/same.html"
grep -q 'class="flame"' "$TMP/same.html" || fail "fa against fa: no diff drawn"

REAL=""
if [ "$(id -u)" -eq 0 ] &&
   "$BIN" run sys.rw target=zero size=64k --kernel profile --profile-hz 1999 \
	--reps 3 --tag real1 >"$TMP/real1.out" 2>"$TMP/real1.err" &&
   "$BIN" run sys.rw target=zero size=64k --kernel profile --profile-hz 1999 \
	--reps 3 --tag real2 >"$TMP/real2.out" 2>"$TMP/real2.err"; then
	REAL=1
	note "real profiles: report and compare"
	for t in real1 real2; do
		cs 0 show "$t" --json
		cp "$OUT" "$TMP/$t.json"
		cs 0 show "$t" --folded
		cp "$OUT" "$TMP/$t.folded"
	done
	# the stacks the check compares with are show --folded's
	python3 - "$TMP/real1.json" "$TMP/real1.folded" <<'PY' || fail "show --json and --folded disagree"
import json, sys
p = [r["info"]["kernel"]["profile"] for r in json.load(open(sys.argv[1]))["results"]
     if "profile" in r.get("info", {}).get("kernel", {})][0]
folded = [l.rstrip("\n").rsplit(" ", 1) for l in open(sys.argv[2]) if l.strip()]
assert [[f, int(n)] for f, n in folded] == p["stacks"], "differ"
assert sum(int(n) for _, n in folded) == p["samples"] > 0
PY
	cs 0 report real1 -o "$TMP/real.html"
	cs 0 report --compare real1 real2 -o "$TMP/realcmp.html"
	cs 0 compare real1 real2 --json
	cp "$OUT" "$TMP/realcmp.json"
	$PT "$TMP/realcmp.html" "$TMP/realcmp.json" compare ||
		fail "the real comparison's profile-diff table is not its JSON's"
else
	skip_case "run --kernel profile refused here ($(tail -1 "$TMP/real1.err" 2>/dev/null)): no real profile drawn"
fi

find_chrome
if [ -z "$CHROME" ]; then
	skip_case "Chromium is not installed (scripts/install-deps.sh installs it): the flame graphs were not drawn"
	exit 0
fi

chrome_dom ab "$TMP/ab.html"
$FC check "$TMP/ab.dom" flame:"$TMP/abk.json":0 flame:"$TMP/abk.json":1 \
	flame:"$TMP/abk.json":2 diff:"$TMP/abk.json":0:"$TMP/abk.json":1 \
	diff:"$TMP/abk.json":0:"$TMP/abk.json":2 ||
	fail "the ab report's flame graphs are not the stored profiles"
# one frame spelled out: read_zero in B is 170 of 220 samples
python3 - "$TMP/ab.dom" <<'PY' || fail "read_zero's frame in B"
import html, json, re, sys
dom = open(sys.argv[1]).read()
figs = re.findall(r'<figure class="flame"[^>]*>', dom)
d = json.loads(html.unescape(re.search(r'data-drawn="([^"]*)"', figs[1]).group(1)))
rz = [f for f in d["frames"] if f[0].endswith(";vfs_read;read_zero")][0]
assert d["total"] == 220 and rz[1] == 170, (d["total"], rz)
assert abs(rz[3] - 170 / 220 * d["width"]) < 1e-6 * d["width"], rz
print("B: read_zero 170 of 220 samples, %.1f of %d px" % (rz[3], d["width"]))
PY
chrome_dom cmp "$TMP/cmp.html"
$FC check "$TMP/cmp.dom" diff:"$TMP/fa.json"+"$TMP/fa2.json":0:"$TMP/fb.json":0 ||
	fail "the comparison's flame graph is not the stored profiles"
if [ -n "$REAL" ]; then
	chrome_dom real "$TMP/real.html"
	$FC check "$TMP/real.dom" flame:"$TMP/real1.json":0 ||
		fail "the real profile's flame graph is not its stored stacks"
	chrome_dom realcmp "$TMP/realcmp.html"
	$FC check "$TMP/realcmp.dom" diff:"$TMP/real1.json":0:"$TMP/real2.json":0 ||
		fail "the real comparison's flame graph is not the stored stacks"
fi
timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$TMP/chrome-shot" --hide-scrollbars \
	--virtual-time-budget=10000 --window-size=1300,4200 \
	--screenshot="$SHOTS/flame-ab.png" "file://$TMP/ab.html" >/dev/null 2>&1 ||
	fail "no screenshot of the ab report"
note "screenshot: $SHOTS/flame-ab.png"
exit 0
