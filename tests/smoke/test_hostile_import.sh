#!/bin/sh
# test_hostile_import.sh - import checks a whole file before it stores
# anything (#25 items 7, 8, 9, 10): what the store would refuse half-way
# (a seq twice, a metric twice in a configuration, a histogram bucket
# twice), per-sample arrays of different lengths, numbers that are not
# finite, times below zero, a run that finished before it started, tags
# that --tag refuses, and more than the documented limits are each
# refused with exit 2, naming the run and the field, and leave the
# database byte-identical; a file of many runs or many environment keys
# is checked in linear time.
. "$(dirname "$0")/lib.sh"
need_python

cs 0 run sys.null --quick --hist --tag base
cs 0 export last -o "$TMP/one.jsonl"
D="$TMP/d.db"
cs 0 import "$TMP/one.jsonl" --db "$D"
sum0=$(cksum <"$D")

# mk NAME PYTHON: $TMP/NAME.jsonl from one.jsonl: a good run (a copy of
# the exported one under another uuid) followed by the exported run
# (uuid 1111...) changed by PYTHON, which edits r (the run line) and res
# (its result lines, a list), then the end line.
mk() {
	python3 - "$TMP/one.jsonl" "$TMP/$1.jsonl" "$2" <<'PY' ||
import copy, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
hdr, run, res = lines[0], lines[1], lines[2:-1]
good = copy.deepcopy(run)
good["run"]["uuid"] = "0" * 32
goodres = copy.deepcopy(res)
for x in goodres:
    x["run"] = "0" * 32
r = copy.deepcopy(run)
r["run"]["uuid"] = "1" * 32
for x in res:
    x["run"] = "1" * 32
exec(sys.argv[3])
r["results"] = len(res)
out = [hdr, good] + goodres + [r] + res
out.append({"type": "end", "runs": 2, "results": len(goodres) + len(res)})
with open(sys.argv[2], "w") as f:
    for o in out:
        f.write(json.dumps(o, separators=(",", ":")) + "\n")
PY
		fail "mk $1: python3 failed"
}

# refused NAME TEXT...: importing NAME.jsonl exits 2 with each TEXT in
# the message, and the database is byte for byte what it was.
refused() {
	_f=$1
	shift
	cs 2 import "$TMP/$_f.jsonl" --db "$D"
	for _t in "$@"; do
		contains "$ERR" "$_t"
	done
	contains "$ERR" "nothing was imported"
	[ "$(cksum <"$D")" = "$sum0" ] ||
		fail "a refused import ($_f) changed the database"
}

U=11111111111111111111111111111111

note "item 7: what the store would refuse is refused before it stores"
mk seq 'res[1]["seq"] = res[0]["seq"]'
refused seq "run $U: 'seq' 0 is given to two results" "(lines 6 and 7)"
mk metric 'res[1]["metric"] = res[0]["metric"]; res[1]["unit"] = "ns"'
refused metric "run $U: metric 'time/call' is in one configuration twice"
mk bucket 'res[0]["histogram"][1][0] = res[0]["histogram"][0][0]
res[0]["histogram"][1][1] = res[0]["histogram"][0][1]'
refused bucket "run $U, seq 0: histogram buckets 0 and 1 both start at"
mk arrays 'res[0]["info"]["ctx_switches"].append(1)'
refused arrays "run $U, seq 0: 'info' migrations has 3 values where the" \
	"other per-sample arrays have 4"
mk envnul 'r["environment"][""] = "x"'
refused envnul "run $U: an environment key is empty or holds a NUL"

note "item 9: numbers are checked"
mk neg 'res[0]["samples"][1] = -5.0'
refused neg "run $U, seq 0: sample 1 is -5: a value in 'ns' is never below"
mk negcount 'res[0]["info"]["faults"][2] = -1'
refused negcount "'info' faults[2] is -1, not a finite number of zero"
mk time 'r["run"]["finished_ns"] = r["run"]["started_ns"] - 1'
refused time "run $U: 'finished_ns'" "is before 'started_ns'"
sed 's/"samples":\[[^],]*/"samples":[1e400/' "$TMP/one.jsonl" \
	>"$TMP/inf.jsonl"
refused inf "inf.jsonl:3: not JSON"
mk due 'r["results"] = 3'
python3 - "$TMP/due.jsonl" <<'PY' || fail "due: python3 failed"
import json, sys
ls = open(sys.argv[1]).readlines()
r = json.loads(ls[4]); r["results"] = 4; ls[4] = json.dumps(r) + "\n"
open(sys.argv[1], "w").writelines(ls)
PY
refused due "the end line where 2 more result lines of the last run were due"

note "item 10: import applies the rule of --tag"
for t in '"a\u001b]0;T\u0007b"' '"host:lab1"' '"12"' '"last"' '"x,y"' \
	'"a+tag:b"' '"x" * 101'; do
	mk tag "r[\"run\"][\"tag\"] = $t"
	refused tag "tag.jsonl: run $U: 'tag': "
done
contains "$ERR" "1 to 100 characters"
mk tag 'r["run"]["tag"] = "host:lab1"'
refused tag "'host:lab1' could not be selected by compare or check"
cs 2 run sys.null --quick --tag host:lab1
contains "$ERR" "'host:lab1' could not be selected by compare or check"
mk tag 'r["run"]["tag"] = "a\u001b]0;T\u0007b"'
refused tag "'a\x1b]0;T\x07b' is not valid UTF-8 text without control"
mk tag 'r["run"]["tag"] = ""'
cs 0 import "$TMP/tag.jsonl" --db "$TMP/tag.db"

note "item 8: the documented limits, refused in the check phase"
mk samples 'res[0]["samples"] = [1.0] * 1000001'
refused samples "run $U, seq 0: 'samples' has 1000001 values, more than" \
	"the 1000000 a result may have"
mk keys 'r["environment"] = {"k%d" % i: "v" for i in range(10001)}'
refused keys "run $U: 'environment' has 10001 keys, more than the 10000"
mk buckets 'res[0]["histogram"] = [[i, i, 1] for i in range(100001)]'
refused buckets "'histogram' has 100001 buckets, more than the 100000"
mk line 'r["run"]["cmdline"] = "x" * (64 * 1024 * 1024)'
refused line "line.jsonl:5: the line is longer than 67108864 bytes"

note "item 8: 60,000 runs and 10,000 keys are checked in linear time"
python3 - "$TMP/one.jsonl" "$TMP/many.jsonl" <<'PY' || fail "many: python3"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
run = lines[1]
run["environment"] = {}
run["results"] = 0
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(lines[0]) + "\n")
    for i in range(60000):
        run["run"]["uuid"] = "%032x" % (i + 5)
        f.write(json.dumps(run, separators=(",", ":")) + "\n")
    f.write('{"type":"end","runs":1,"results":0}\n')
PY
t0=$(date +%s)
refused many "many.jsonl:60002: the end line counts do not match the file" \
	"(60000 runs, 0 results)"
[ $(($(date +%s) - t0)) -lt 12 ] || fail "checking 60,000 runs took 12 s or more"
mk keysok 'r["environment"] = {"k%d" % i: "v" for i in range(10000)}'
t0=$(date +%s)
cs 0 import "$TMP/keysok.jsonl" --db "$TMP/keys.db"
[ $(($(date +%s) - t0)) -lt 12 ] || fail "10,000 keys took 12 s or more"

note "item 9: huge finite samples import, and compare prints numbers"
mk huge 'res[0]["samples"] = [1e308, 1.7e308, 1.6e308]
r["run"]["tag"] = "huge"'
cs 0 import "$TMP/huge.jsonl"
cs 0 compare base huge
not_contains "$OUT" "nan"
cs 0 show 3
not_contains "$OUT" "nan"
exit 0
