#!/bin/sh
# test_store_scale.sh - the store's paths for many runs (#22 item 6): a
# compare of 30 imported runs a side, loaded by store_load_runs and with
# the environment diffed by sort-merge, prints exactly what the per-run
# path printed (tests/smoke/scale/compare.*, written by the binary before
# the change from the same made runs), on SQLite and on PostgreSQL; the
# environment keys that differ on part of a side are listed with each
# side's values in run order.  import prints one summary line, -v a line
# per run.  The runs are made by bench/make-runs.py from one real run
# (scale/run.jsonl) with fixed seeds.  No timings: bench/store-scale.sh.
. "$(dirname "$0")/lib.sh"

D=tests/smoke/scale
G=bench/make-runs.py
python3 "$G" "$D/run.jsonl" 30 sa 11 >"$TMP/sa.jsonl" ||
	fail "make-runs.py failed"
python3 "$G" "$D/run.jsonl" 15 sb 12 0.03 1700100000000000000 3 \
	>"$TMP/sb1.jsonl" || fail "make-runs.py failed"
python3 "$G" "$D/run.jsonl" 15 sb 13 0.03 1700200000000000000 3 \
	kernel.release=6.19.0-test -cpu.microcode thp.enabled=never \
	>"$TMP/sb2.jsonl" || fail "make-runs.py failed"

# check_store DB: import the made runs into DB and compare them.
check_store() {
	note "import: one summary line ($1)"
	cs 0 import "$TMP/sa.jsonl" --db "$1"
	[ "$(wc -l <"$OUT")" -eq 1 ] || fail "import printed $(wc -l <"$OUT") lines"
	contains "$OUT" "imported 30 runs (ids 1-30) from $TMP/sa.jsonl into"
	contains "$OUT" "; 0 already there"
	cs 0 import -v "$TMP/sb1.jsonl" --db "$1"
	[ "$(grep -c '^imported as run [0-9]* ([0-9a-f]*, 2 results)$' \
		"$OUT")" -eq 15 ] || fail "import -v: not a line per run"
	contains "$OUT" "imported 15 runs (ids 31-45) from $TMP/sb1.jsonl"
	cs 0 import "$TMP/sb2.jsonl" --db "$1"
	contains "$OUT" "imported 15 runs (ids 46-60)"
	cs 0 import "$TMP/sb2.jsonl" --db "$1"
	contains "$OUT" "imported 0 runs from $TMP/sb2.jsonl into"
	contains "$OUT" "; 15 already there"

	note "compare of 30 runs a side as before ($1)"
	cs 0 compare sa sb --db "$1"
	diff -u "$D/compare.txt" "$OUT" || fail "compare's table changed"
	contains "$OUT" "  kernel.release: 6.18.44-fc-v669 -> 6.18.44-fc-v669 | 6.19.0-test"
	contains "$OUT" "  cpu.microcode: 0x1 -> 0x1 | (absent)"
	cs 0 compare sa sb --json --db "$1"
	diff -u "$D/compare.json" "$OUT" || fail "compare's JSON changed"
	cs 0 compare sa sb --csv --db "$1"
	diff -u "$D/compare.csv" "$OUT" || fail "compare's CSV changed"
	note "a side whose runs are selected twice loads them once ($1)"
	cs 0 compare 1,sa,2 sb --db "$1"
	contains "$OUT" "(runs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,"
	contains "$OUT" " 28, 29, 30; 1 boot)"
}

check_store "$TMP/scale.db"
if need_pg; then
	check_store "$PG_URL"
else
	skip_case "PostgreSQL: no server here"
fi
exit 0
