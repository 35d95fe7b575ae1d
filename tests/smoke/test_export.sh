#!/bin/sh
# test_export.sh - export and import: a round trip (export, import into an
# empty database, export) gives the same file; importing twice adds
# nothing; an imported run shows the same results; malformed, truncated
# and newer files are refused with their line number and store nothing;
# show --csv has one line per result row.
. "$(dirname "$0")/lib.sh"
need_python

cs 0 run sys.iov segs=1,8 --quick --hist --tag exp
cs 0 run pipe.bw size=4k,64k --quick --hist

note "export two runs, import into an empty database"
cs 0 export exp last -o "$TMP/a.jsonl"
contains "$OUT" "exported 2 runs"
[ "$(wc -l <"$TMP/a.jsonl")" -eq 14 ] ||
	fail "a.jsonl has $(wc -l <"$TMP/a.jsonl") lines, not 1+2+10+1"
B="$TMP/b.db"
cs 0 import "$TMP/a.jsonl" --db "$B"
contains "$OUT" "imported 2 runs (ids 1-2) from $TMP/a.jsonl into $B; 0 already there"
[ "$(wc -l <"$OUT")" -eq 1 ] ||
	fail "import of 2 runs printed more than its summary line"
[ "$(count_runs --db "$B")" -eq 2 ] || fail "import did not add 2 runs"

note "importing the same file again adds nothing"
cs 0 import "$TMP/a.jsonl" --db "$B"
contains "$OUT" "imported 0 runs from $TMP/a.jsonl into $B; 2 already there"
cs 0 import -v "$TMP/a.jsonl" --db "$B"
[ "$(grep -c '^run [0-9]* already there ([0-9a-f]*)$' "$OUT")" -eq 2 ] ||
	fail "import -v did not print a line per run"
[ "$(count_runs --db "$B")" -eq 2 ] || fail "a second import added runs"

note "export of the imported runs is the same file"
cs 0 export exp last --db "$B"
cp "$OUT" "$TMP/b.jsonl"
cmp "$TMP/a.jsonl" "$TMP/b.jsonl" ||
	fail "export -> import -> export changed the content"

note "the imported run shows the same results, fits and notes"
cs 0 show 1 --json
cp "$OUT" "$TMP/orig.json"
cs 0 show 1 --json --db "$B"
cp "$OUT" "$TMP/imp.json"
python3 - "$TMP/orig.json" "$TMP/imp.json" <<'PY' || fail "show --json differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for k in ("results", "environment", "fits", "notes", "explain"):
    if a[k] != b[k]:
        sys.exit("%s differs after import" % k)
ra, rb = a["run"], b["run"]
for k in ra:
    if ra[k] != rb[k]:
        sys.exit("run.%s: %r -> %r" % (k, ra[k], rb[k]))
if not any(r.get("histogram") for r in a["results"]):
    sys.exit("no histogram made the trip")
PY

note "show --csv: one line per result row"
cs 0 show 1 --csv
python3 - "$OUT" <<'PY' || fail "show --csv"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) != 7:
    sys.exit("%d lines, not a header and 6 results" % len(rows))
if any(len(r) != len(rows[0]) for r in rows):
    sys.exit("lines with different field counts")
if rows[1][3] != "sys.iov" or rows[1][5] != "time/call":
    sys.exit("first row %r" % rows[1])
PY

note "bad files: refused with the line number, nothing stored"
C="$TMP/c.db"
# C holds the first of a.jsonl's runs: that file cut to it (its run, its
# results, the end line's counts), the format's own way
python3 - "$TMP/a.jsonl" "$TMP/first.jsonl" <<'PY' || fail "could not cut a.jsonl"
import json, sys
lines = [json.loads(x) for x in open(sys.argv[1])]
first = next(x for x in lines if x.get("type") == "run")["run"]["uuid"]
keep = [x for x in lines if "format" in x or
        (x.get("type") == "run" and x["run"]["uuid"] == first) or
        (x.get("type") == "result" and x["run"] == first)]
end = next(x for x in lines if x.get("type") == "end")
end["runs"] = 1
end["results"] = sum(1 for x in keep if x.get("type") == "result")
with open(sys.argv[2], "w") as f:
    for x in keep + [end]:
        f.write(json.dumps(x, separators=(",", ":")) + "\n")
PY
cs 0 import "$TMP/first.jsonl" --db "$C"
[ "$(count_runs --db "$C")" -eq 1 ] || fail "C does not hold one run"
head -n 9 "$TMP/a.jsonl" >"$TMP/trunc.jsonl"
cs 2 import "$TMP/trunc.jsonl" --db "$C"
contains "$ERR" "trunc.jsonl:10: the file ends without its end line"
contains "$ERR" "nothing was imported"
head -c 3000 "$TMP/a.jsonl" >"$TMP/cut.jsonl"
cs 2 import "$TMP/cut.jsonl" --db "$C"
contains_re "$ERR" "cut.jsonl:[0-9]+: the line does not end"
sed '5s/.*/{"type":"result", oops/' "$TMP/a.jsonl" >"$TMP/bad.jsonl"
cs 2 import "$TMP/bad.jsonl" --db "$C"
contains "$ERR" "bad.jsonl:5: not JSON"
sed '1s/"schema_version":1/"schema_version":2/' "$TMP/a.jsonl" \
	>"$TMP/new.jsonl"
cs 2 import "$TMP/new.jsonl" --db "$C"
contains "$ERR" "new.jsonl:1: export schema 2 is newer"
sed '3s/"samples":\[/"samples":["x",/' "$TMP/a.jsonl" >"$TMP/smp.jsonl"
cs 2 import "$TMP/smp.jsonl" --db "$C"
contains_re "$ERR" \
	"smp.jsonl:3: run [0-9a-f]{32}, seq 0: sample 0 is not a number"
sed '2s/"status":"complete"/"status":"running"/' "$TMP/a.jsonl" \
	>"$TMP/run.jsonl"
cs 2 import "$TMP/run.jsonl" --db "$C"
contains "$ERR" "run.jsonl:2: run: status 'running'"
sed '3s/"type":"result"/"type":"result","type":"run"/' "$TMP/a.jsonl" \
	>"$TMP/dup.jsonl"
cs 2 import "$TMP/dup.jsonl" --db "$C"
contains "$ERR" "dup.jsonl:3: not JSON: duplicate object key"
sed '$d' "$TMP/a.jsonl" >"$TMP/noend.jsonl"
echo '{"type":"end","runs":2,"results":9}' >>"$TMP/noend.jsonl"
cs 2 import "$TMP/noend.jsonl" --db "$C"
contains "$ERR" "noend.jsonl:14: the end line counts do not match"
: >"$TMP/empty.jsonl"
cs 2 import "$TMP/empty.jsonl" --db "$C"
contains "$ERR" "empty file"
[ "$(count_runs --db "$C")" -eq 1 ] || fail "a refused file stored a run"
cs 2 import "$TMP/trunc.jsonl" --db "$TMP/none.db"
[ -e "$TMP/none.db" ] && fail "a refused file created a database"

note "the good file still adds the missing run"
cs 0 import "$TMP/a.jsonl" --db "$C"
contains "$OUT" "imported 1 run (ids 2-2) from $TMP/a.jsonl into $C; 1 already there"

note "bad arguments"
cs 2 export
contains "$ERR" "which runs?"
cs 2 export nosuch
contains "$ERR" "'nosuch' is neither a stored run id nor a tag"
cs 2 export exp -o /nonexistent/dir/x.jsonl
contains "$ERR" "-o: cannot write '/nonexistent/dir/x.jsonl'"
cs 2 import
contains "$ERR" "which file?"
cs 2 import "$TMP/nosuch.jsonl"
contains "$ERR" "cannot open"
cs 2 show 1 --json --csv
contains "$ERR" "one of --json, --csv, --mail and --markdown"
exit 0
