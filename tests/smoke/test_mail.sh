#!/bin/sh
# test_mail.sh - `--mail` and `--markdown` of compare, run, show, ab,
# history and observe: the text keeps to 72 columns with no trailing
# blanks, holds the title, the head lines, one machine line, the shared
# parameters and the table in the kernel test robot's layout (base
# %stddev, %change with its mark, new %stddev, metric), and nothing else
# (no "stored as", no notes); the numbers shown are those of the same
# command's --json (tests/smoke/mail_check.py parses both); markdown
# gives the same rows as a table.  A verdict is marked '*', a cannot-tell
# '?'; a kernel command line that differs is named in the head.
. "$(dirname "$0")/lib.sh"
need_python

CHECK="python3 tests/smoke/mail_check.py"

# numbers KIND SIDES FILE JSON: FILE (a --mail text) laid out as a mail
# with SIDES sides, its rows as JSON's; the rows into $TMP/rows.
numbers() {
	$CHECK layout "$3" "$2" || fail "$1 --mail layout: $(cat "$3")"
	$CHECK rows "$3" >"$TMP/rows" || fail "$1 --mail rows: $(cat "$3")"
	$CHECK against "$1" "$TMP/rows" "$4" ||
		fail "$1 --mail against --json: $(cat "$3")"
}

# markdown KIND FILE JSON: FILE (a --markdown text) has a table whose rows
# are JSON's.
markdown() {
	contains_re "$2" '^\| metric \|'
	$CHECK md "$2" >"$TMP/rows" || fail "$1 --markdown: $(cat "$2")"
	$CHECK against "$1" "$TMP/rows" "$3" ||
		fail "$1 --markdown against --json: $(cat "$2")"
}

# measured TAG SEED MEDIAN [k=v...]: a real run of sys.null imported with
# time/call drawn around MEDIAN ns (cycles/call 2.3 times that).
measured() {
	_tag=$1
	_seed=$2
	_median=$3
	shift 3
	stage run sys.null --reps 10 --sample-time 20ms "$@" --tag "$_tag"
	made_gauss time/call "$_seed" "$_median"
	made_gauss cycles/call "$_seed" "$(python3 -c "print($_median*2.3)")"
	if [ "$_tag" = slow ]; then
		made_env kernel.cmdline "console=ttyS0 quiet mitigations=off"
	else
		made_env kernel.cmdline "console=ttyS0 quiet"
	fi
	made_import
}

note "compare --mail: a 10% slowdown marked '*', the cmdline difference"
measured fast 3 100
measured slow 4 110
cs 0 compare fast slow --by-sample --mail
cp "$OUT" "$TMP/c.txt"
contains "$OUT" "copyscope compare: slow against fast"
contains_re "$OUT" '^base: tag fast \(run [0-9]+\), kernel '
contains_re "$OUT" '^new:  tag slow \(run [0-9]+\), kernel '
contains_re "$OUT" '^      cmdline \+mitigations=off$'
contains_re "$OUT" '^parameters: sys\.null call=gettid inject_ns=0 '
contains_re "$OUT" ' \+[0-9.]+% \* .* time/call \(ns\)$'
contains_re "$OUT" '^\* p < 0\.05 and the 95% CI of the change beyond'
not_contains "$OUT" "environment"
not_contains "$OUT" "compared:"
cs 0 compare fast slow --by-sample --json
cp "$OUT" "$TMP/c.json"
numbers compare 2 "$TMP/c.txt" "$TMP/c.json"
cs 0 compare fast slow --by-sample --markdown
cp "$OUT" "$TMP/c.md"
contains "$OUT" "| parameters | sys.null call=gettid"
contains_re "$OUT" '^\| metric \| fast \| %stddev \| %change \| 95% CI \| slow \| %stddev \|$'
markdown compare "$TMP/c.md" "$TMP/c.json"
# without --by-sample, one run a side: cannot tell, marked '?'
cs 0 compare fast slow --mail
contains_re "$OUT" ' \+[0-9.]+% \? .* time/call \(ns\)$'
cs 2 compare fast slow --mail --json
contains "$ERR" "one of --json, --csv, --mail and --markdown"
cs 2 compare fast slow --mail --markdown

note "run --mail: only the mail, the numbers of show --json"
cs 0 run pipe.bw size=4k,64k --reps 3 --sample-time 20ms --warmup 20ms \
	--tag pb --mail
cp "$OUT" "$TMP/r.txt"
not_contains "$OUT" "stored as"
contains_re "$OUT" '^copyscope run [0-9]+$'
contains_re "$OUT" '^run: +tag pb \(run [0-9]+\), kernel '
contains_re "$OUT" '^parameters: pipe\.bw inject_ns=0 io=write '
contains_re "$OUT" ' size=4k bandwidth \([KMG]iB/s\)$'
# a headline withheld on a loaded machine reads so, and the key says why
if grep -q "^ *withheld " "$OUT"; then
	contains_flat "$OUT" "(withheld: too many samples had a worker off its CPU >5%"
fi
cs 0 show last --json
cp "$OUT" "$TMP/r.json"
numbers run 1 "$TMP/r.txt" "$TMP/r.json"
cs 0 show last --markdown
cp "$OUT" "$TMP/r.md"
markdown run "$TMP/r.md" "$TMP/r.json"
cs 0 show last --mail
cmp -s "$OUT" "$TMP/r.txt" || fail "show --mail is not what run --mail printed"
cs 2 run sys.null --runs 2 --mail
contains "$ERR" "--mail, --markdown: one run"

note "a run of several workloads: one heading each"
cs 0 run sys.null pipe.bw --reps 3 --sample-time 10ms --warmup 10ms --mail
cp "$OUT" "$TMP/q.txt"
contains_re "$OUT" '^sys\.null call=gettid '
contains_re "$OUT" '^pipe\.bw '
cs 0 show last --json
numbers run 1 "$TMP/q.txt" "$OUT"

note "ab --mail: A, %change, B; the parameter A->B"
cs 0 ab sys.iov --a segs=1 --b segs=8 --rounds 8 --sample-time 10ms \
	--warmup 10ms --tag abm --mail
cp "$OUT" "$TMP/a.txt"
contains_re "$OUT" '^copyscope ab sys\.iov: B against A, 8 paired rounds$'
contains_re "$OUT" '^run: run [0-9]+, tag abm, kernel '
contains_re "$OUT" '^A: +segs=1$'
contains_re "$OUT" '^B: +segs=8$'
contains_flat "$OUT" "segs=1->8"
not_contains "$OUT" "stored as"
cs 0 show last --json
cp "$OUT" "$TMP/a.json"
numbers ab 2 "$TMP/a.txt" "$TMP/a.json"
cs 0 show last --mail
cmp -s "$OUT" "$TMP/a.txt" || fail "show --mail of the ab run differs"
cs 0 show last --markdown
markdown ab "$OUT" "$TMP/a.json"

note "history --mail: one row per series"
cs 0 history sys.null --mail
cp "$OUT" "$TMP/h.txt"
contains_re "$OUT" '^copyscope history: [0-9]+ series, [0-9]+ with a change'
contains_re "$OUT" '^series: runs [0-9]+\.\.[0-9]+, kernel'
cs 0 history sys.null --json
numbers history 2 "$TMP/h.txt" "$OUT"
cs 2 history --mail --csv

note "observe --mail: counts"
if [ "$(id -u)" -ne 0 ]; then
	skip_case "observe loads BPF programs: needs root"
elif "$BIN" observe --duration 200ms --what pipe-writes,lock --mail \
	--tag ob >"$TMP/o.txt" 2>"$TMP/o.err"; then
	$CHECK layout "$TMP/o.txt" 1 || fail "observe --mail layout"
	contains_re "$TMP/o.txt" "^watched: pipe-writes, lock for 0\\.[0-9]+ s"
	contains_re "$TMP/o.txt" '^pipe writes$'
	contains_re "$TMP/o.txt" '^ +[0-9]+ +writes$'
	cs 0 show last --json
	python3 - "$TMP/o.txt" "$OUT" <<'PY' || fail "observe counts differ"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
o = json.load(open(sys.argv[2]))["observation"]
n = int(re.search(r"^ +(\d+) +writes$", text, re.M).group(1))
assert n == o["pipe_writes"]["count"], (n, o["pipe_writes"])
PY
else
	skip_case "observe cannot run here: $(tail -1 "$TMP/o.err")"
fi

exit 0
