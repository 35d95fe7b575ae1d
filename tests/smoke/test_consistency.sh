#!/bin/sh
# test_consistency.sh - one behaviour across commands (#24 item 9): show
# takes tags and selectors as runs and compare do (several runs: the
# newest, said on stderr); a mistyped selector (hots:vm) and an option of
# the command after '--' (boot --reps) get a "did you mean"; an unknown
# option that is a prefix of one is pointed to it; a negative time or size
# parameter says "must be ≥ 0"; run --db in a directory that does not
# exist is refused (exit 2) and creates nothing.
. "$(dirname "$0")/lib.sh"

Q="--reps 3 --sample-time 5ms --warmup 0"

note "show TAG, show SELECTOR"
cs 0 run sys.null $Q --tag one
A=$(run_id)
cs 0 run sys.null $Q --tag two
cs 0 run sys.null $Q --tag two
B=$(run_id)
cs 0 show one
contains_re "$OUT" "^run $A  complete  tag one "
cs 0 show two
contains_re "$OUT" "^run $B  complete  tag two "
contains "$ERR" "'two' selects 2 runs; showing the newest, $B"
cs 0 show tag:on* --json
contains "$OUT" "\"id\": $A"
cs 2 show three
contains "$ERR" "'three' is neither a stored run id nor a tag"

note "a mistyped selector: did you mean host:"
cs 2 show hots:vm
contains "$ERR" "did you mean 'host:'?"
cs 2 compare hots:vm one
contains "$ERR" "did you mean 'host:'?"
cs 2 runs one+kernl:6.1
contains "$ERR" "did you mean 'kernel:'?"

note "unknown options: by prefix, and the command after '--'"
cs 2 run sys.null --rep 3
contains "$ERR" "did you mean '--reps'?"
cs 2 run sys.null --sample 5ms
contains "$ERR" "did you mean '--sample-time'?"
cs 2 boot --kernel /nonexistent --side a sys.null --rep 3
contains "$ERR" "did you mean '-- --reps' (run's options go after '--')?"
cs 2 compare one two --ignore inject_ns
contains "$ERR" "did you mean '--ignore-param'?"

note "negative times and sizes"
cs 2 run sys.null inject_ns=-5 --quick
contains "$ERR" "inject_ns: '-5' is negative: it must be ≥ 0"
cs 2 run sys.null inject_ns=5x --quick
contains "$ERR" "bare where the name ends in one"

note "--db in a missing directory: refused, nothing created"
cs 2 run sys.null --quick --db "$TMP/no/such/x.db"
contains "$ERR" "no directory '$TMP/no/such'"
[ ! -e "$TMP/no" ] || fail "run --db created directories"
cs 2 runs --db "$TMP/no/such/x.db"
# the default path's directories are still made
XDG_DATA_HOME="$TMP/fresh/data" COPYSCOPE_DB= expect_exit 0 "$BIN" run \
	sys.null --quick
[ -f "$TMP/fresh/data/copyscope/results.db" ] ||
	fail "the default database's directory was not created"
exit 0
