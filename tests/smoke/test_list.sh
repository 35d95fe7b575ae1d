#!/bin/sh
# test_list.sh - `list`, --help of the program and of every command, and
# the usage errors of the command dispatcher.
. "$(dirname "$0")/lib.sh"

note "list: both workloads with parameters and metrics"
cs 0 list
contains_re "$OUT" '^sys\.null '
contains_re "$OUT" '^pipe\.bw '
contains "$OUT" "parameters:"
contains "$OUT" "metrics:"
# sys.null's parameters and metrics
for p in call trace; do
	contains_re "$OUT" "^ +$p +(enum|int|size|bool|time) "
done
contains_re "$OUT" '^ +time/call +ns'
contains_re "$OUT" '^ +cycles/call '
# pipe.bw's parameters and metrics
for p in size rsize pipe_size mode place io reader verify; do
	contains_re "$OUT" "^ +$p +(enum|int|size|bool|time) "
done
contains_re "$OUT" '^ +bandwidth +bytes/s'
contains_re "$OUT" '^ +time/write +ns'

note "list pipe: only pipe.bw"
cs 0 list pipe
contains_re "$OUT" '^pipe\.bw '
contains_re "$OUT" '^ +bandwidth '
grep -q 'sys\.null' "$OUT" && fail "'list pipe' shows sys.null"
grep -q 'time/call' "$OUT" && fail "'list pipe' shows sys.null's metric time/call"

note "list 'sys.*': only sys.null"
cs 0 list 'sys.*'
contains_re "$OUT" '^sys\.null '
grep -q '^pipe\.bw' "$OUT" && fail "'list sys.*' shows pipe.bw"

note "list nomatch: exit 2"
cs 2 list nomatch
contains "$ERR" "nomatch"
[ -s "$OUT" ] && fail "'list nomatch' printed on stdout"

note "--help of the program and of every command"
cs 0 --help
contains "$OUT" "usage:"
for c in list run runs show env compare check; do
	contains "$OUT" "$c"
done
for c in list run runs show env compare check; do
	cs 0 "$c" --help
	contains "$OUT" "usage:"
	contains "$OUT" "copyscope $c"
done

note "no arguments: exit 2 with usage"
cs 2
cat "$OUT" "$ERR" | grep -q "usage:" || fail "no usage text for a bare 'copyscope'"

note "unknown command: exit 2 with a suggestion"
cs 2 rnu
contains "$ERR" "rnu"
contains "$ERR" "did you mean 'run'"
cs 2 shwo 1
contains "$ERR" "did you mean 'show'"
cs 2 frobnicate
contains "$ERR" "frobnicate"
exit 0
