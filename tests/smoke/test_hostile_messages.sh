#!/bin/sh
# test_hostile_messages.sh - messages and exits (#25 items 11, 12).
# Text from outside reaches no terminal raw: every command given an
# argument holding ESC, BEL, an OSC title and a newline writes a message
# whose bytes are printable or the newlines of the message itself (the
# control bytes become \xNN and the argument's newline \x0a, so it
# cannot start a line of its own).  Output that cannot be written (stdout
# on /dev/full) is exit 1 with a message, for every command that prints.
# Messages that misled (item 14): a run whose store failed counts the
# configurations it never measured, and its summary does not call them
# "not measured here"; a push whose every run fails the same way prints
# that once, and a count.
. "$(dirname "$0")/lib.sh"
need_sqlite3

X=$(printf 'A\033]0;TITLE\007\033[2J\nZ')
cs 0 run sys.null --quick --tag base
n=0
# hostile CODE args...: the command exits CODE; stderr is clean
hostile() {
	cs "$@"
	n=$((n + 1))
	LC_ALL=C tr -d '\n' <"$ERR" | LC_ALL=C grep -q '[[:cntrl:]]' &&
		fail "a control byte on stderr"
	grep -q '^Z' "$ERR" && fail "the argument's newline reached stderr"
	[ -s "$ERR" ] || fail "no message"
	contains "$ERR" 'A\x1b]0;TITLE\x07\x1b[2J'
}
hostile 2 runs "$X"
hostile 2 runs "tag:$X"
hostile 2 runs "host:$X+last"
hostile 2 show "$X"
hostile 2 show 1 "--$X"
hostile 2 compare "$X" base
hostile 2 compare base base --ignore-param "$X"
hostile 2 export "$X"
hostile 2 report "$X"
hostile 2 check "$X"
hostile 2 push "$X" --to "$TMP/o.db"
hostile 2 run "$X"
hostile 2 run sys.null "call=$X"
hostile 2 run sys.null "$X=1"
hostile 2 run sys.null --reps "$X"
hostile 2 run sys.null --cpus "$X"
hostile 2 run sys.null --quick --tag "$X"
hostile 2 "$X"
hostile 2 list "$X"
hostile 2 ab "$X"
hostile 2 import "$TMP/$X"
note "$n commands: no control byte reached stderr"

note "item 14: the store fails mid-run: what was never measured is counted"
db=$TMP/stop.db
cs 0 run sys.null --quick --db "$db"
sqlite3 "$db" "CREATE TRIGGER stop_after BEFORE INSERT ON results WHEN
	(SELECT count(*) FROM results) >= 4 BEGIN
	SELECT RAISE(ABORT, 'test: the store stops here'); END;" ||
	fail "sqlite3: no trigger"
cs 1 run quick --quick --db "$db"
contains "$ERR" "test: the store stops here"
contains_flat "$OUT" "run 2 in $db is incomplete: 2 of the"
contains_re "$OUT" "configurations were never"
flat "$OUT" |
	grep -q "and [1-9][0-9]* of [0-9]* configurations were never measured" ||
	fail "the never measured configurations are not counted"
contains "$OUT" "not measured: the run stopped"
not_contains "$OUT" "not measured here"

note "item 14: a push whose every run fails the same way says it once"
cs 0 run sys.null --quick
cs 0 run sys.null --quick
cs 0 run sys.null --quick
cs 0 run sys.null --quick --db "$TMP/to.db"
sqlite3 "$TMP/to.db" "CREATE TRIGGER gone BEFORE INSERT ON runs BEGIN
	SELECT RAISE(ABORT, 'test: the server is gone'); END;" ||
	fail "sqlite3: no trigger"
cs 1 push --to "$TMP/to.db"
[ "$(count_matches "$ERR" "not pushed")" -eq 2 ] ||
	fail "not one line for the first failure and one count"
contains "$ERR" "test: the server is gone"
contains "$ERR" "3 more runs not pushed for the same reason"
contains "$OUT" "4 failed"

note "item 12: stdout write errors are exit 1 with a message"
[ -w /dev/full ] || skip "no /dev/full here"
cs 0 run sys.null --quick --tag other
cs 0 export 1 -o "$TMP/one.jsonl"
for c in "runs" "list" "env" "show 1" "show 1 --json" "show 1 --csv" \
	"compare 1 2" "compare 1 2 --json" "export 1" "report 1 -o -" \
	"--help" "--version" "runs --help" \
	"import $TMP/one.jsonl --db $TMP/i.db" "push 1 --to $TMP/p.db"; do
	# shellcheck disable=SC2086
	"$BIN" $c >/dev/full 2>"$ERR"
	rc=$?
	LAST_CMD="$BIN $c >/dev/full"
	[ "$rc" -eq 1 ] || fail "exit $rc, not 1"
	contains_re "$ERR" "cannot write (standard output|the output|the export)"
done
exit 0
