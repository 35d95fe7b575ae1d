#!/bin/sh
# test_bad_inputs.sh - every line of bad-inputs.txt: the expected exit
# status (2: a usage error) and a message that names the problem, nothing
# measured, and the run already stored untouched.  docs/reliability.md's
# table of bad inputs is this list.
. "$(dirname "$0")/lib.sh"

cs 0 run sys.null --quick --tag keep
n=0
while IFS='	' read -r want text args; do
	case $want in '' | '#'*) continue ;; esac
	n=$((n + 1))
	eval "set -- $args"
	LAST_CMD="copyscope $args"
	"$BIN" "$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
	[ "$LAST_RC" -eq "$want" ] || fail "exit $LAST_RC, not $want"
	contains "$ERR" "$text"
	grep -q '^timer:' "$OUT" && fail "a bad input was measured"
	[ "$(count_runs)" -eq 1 ] || fail "a bad input changed the stored runs"
done <"$(dirname "$0")/bad-inputs.txt"
note "$n bad inputs, each refused as documented"
[ "$n" -ge 70 ] || fail "only $n bad inputs read"

note "docs/reliability.md lists exactly these (scripts/bad-inputs-table.sh)"
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/bad-inputs-table.sh" >"$TMP/table.md" ||
	fail "bad-inputs-table.sh failed"
sed -n '/^| command | exit | the message says |$/,/^$/p' \
	"$root/docs/reliability.md" | sed '/^$/d' >"$TMP/found.md"
cmp -s "$TMP/table.md" "$TMP/found.md" ||
	fail "docs/reliability.md's table of bad inputs differs from bad-inputs.txt: run scripts/bad-inputs-table.sh and paste its output"
exit 0
