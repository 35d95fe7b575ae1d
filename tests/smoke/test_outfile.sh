#!/bin/sh
# test_outfile.sh - -o of export and report never replaces what it should
# not: a symbolic link stays a link (the file it names gets the output), a
# FIFO and a character device are written through (not replaced by a
# regular file), an existing file keeps its mode, `-o -` is stdout, and an
# output that is the database being read is refused with exit 2 and the
# runs intact.
. "$(dirname "$0")/lib.sh"

cs 0 run sys.null --quick --tag o1
cs 0 export o1 -o "$TMP/ref.jsonl"

note "a symbolic link stays a link; the file it names gets the export"
: >"$TMP/target.jsonl"
ln -s target.jsonl "$TMP/link.jsonl"
cs 0 export o1 -o "$TMP/link.jsonl"
[ -L "$TMP/link.jsonl" ] || fail "the symbolic link was replaced"
cmp -s "$TMP/target.jsonl" "$TMP/ref.jsonl" ||
	fail "the link's target did not get the export"
ln -s missing.jsonl "$TMP/dangling.jsonl"
cs 2 export o1 -o "$TMP/dangling.jsonl"
contains "$ERR" "is a symbolic link to a file that cannot be reached"
[ -L "$TMP/dangling.jsonl" ] || fail "the dangling link was replaced"

note "a FIFO is written through: its reader gets the export"
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo.jsonl" &
reader=$!
cs 0 export o1 -o "$TMP/fifo"
wait $reader
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
cmp -s "$TMP/from-fifo.jsonl" "$TMP/ref.jsonl" ||
	fail "the FIFO's reader did not get the export"

note "a character device is written through, not replaced"
if [ "$(id -u)" -eq 0 ]; then
	mknod "$TMP/null" c 1 3
	cs 0 export o1 -o "$TMP/null"
	[ -c "$TMP/null" ] || fail "the device node was replaced by a file"
else
	skip_case "mknod needs root: the device node case is untested"
fi
cs 0 export o1 -o /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a device"

note "an existing file keeps its mode"
: >"$TMP/private.jsonl"
chmod 600 "$TMP/private.jsonl"
cs 0 export o1 -o "$TMP/private.jsonl"
[ "$(stat -c %a "$TMP/private.jsonl")" = 600 ] ||
	fail "mode $(stat -c %a "$TMP/private.jsonl"), not 600"
cs 0 report o1 -o "$TMP/private.jsonl"
[ "$(stat -c %a "$TMP/private.jsonl")" = 600 ] ||
	fail "report: mode $(stat -c %a "$TMP/private.jsonl"), not 600"

note "-o - is stdout"
cs 0 export o1 -o -
cmp -s "$OUT" "$TMP/ref.jsonl" || fail "export -o - is not the export"

note "the database being read is refused as output, the runs intact"
before=$(count_runs)
cs 2 export o1 -o "$COPYSCOPE_DB"
contains "$ERR" "is the database being read"
cs 2 report o1 -o "$COPYSCOPE_DB"
contains "$ERR" "is the database being read"
ln -s "$COPYSCOPE_DB" "$TMP/db-link"
cs 2 export o1 -o "$TMP/db-link"
contains "$ERR" "is the database being read"
[ "$(count_runs)" -eq "$before" ] || fail "runs were lost"
ls "$TMP" | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls "$TMP")"
echo "test_outfile: ok"
