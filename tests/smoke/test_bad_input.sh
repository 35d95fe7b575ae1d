#!/bin/sh
# test_bad_input.sh - every bad input to `run` is a usage error (exit 2)
# with a message that names the problem, measures nothing, stores nothing,
# and leaves the runs already stored alone.
. "$(dirname "$0")/lib.sh"

note "one good run first"
cs 0 run sys.null --quick --tag keep
contains "$OUT" "stored as run 1"

# bad EXPECTED-TEXT... -- ARGS...: `run ARGS --quick` must exit 2, say
# every EXPECTED-TEXT on stderr, measure nothing and store nothing.
bad() {
	_texts=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		_texts="$_texts
$1"
		shift
	done
	shift
	note "bad input: run $*"
	cs 2 run "$@" --quick
	echo "$_texts" | while IFS= read -r _t; do
		[ -z "$_t" ] && continue
		grep -F -q -e "$_t" "$ERR" || {
			echo "stderr lacks '$_t'" >"$TMP/why"
			exit 1
		}
	done || fail "$(cat "$TMP/why")"
	grep -q '^timer:' "$OUT" && fail "a bad input was measured (timer: line)"
	grep -q 'stored as run' "$OUT" && fail "a bad input stored a run"
	[ "$(count_runs)" -eq 1 ] || fail "a bad input changed the run count"
	return 0
}

bad "unknown workload" "pipe.bq" "did you mean 'pipe.bw'" -- pipe.bq
bad "unknown parameter" "szie" "did you mean 'size'" -- pipe.bw szie=4k
bad "size" "out of range" "1 .." -- pipe.bw size=0
bad "size" "12q" "not a size" -- pipe.bw size=12q
bad "mode" "prc" "did you mean 'proc'" -- pipe.bw mode=prc
bad "size" "empty" -- pipe.bw size=4k,,8k
bad "--reps" "'0'" -- sys.null --reps 0
bad "--reps" "'x'" -- sys.null --reps x
bad "--sample-time" "5x" -- sys.null --sample-time 5x
# a time needs its unit (200 is neither 200 s nor 200 ms)
bad "--warmup" "'200'" "ns, us, ms or s" -- sys.null --warmup 200
bad "--sample-time" "'100'" "ns, us, ms or s" -- sys.null --sample-time 100
bad "--cpus" "99" -- sys.null --cpus 99
bad "--cpus" "'0,'" -- sys.null --cpus 0,
bad "--cpus" "99999999999999999999" -- sys.null --cpus 99999999999999999999
bad "unknown option" "--frobnicate" -- sys.null --frobnicate
bad "trace" "out of range" -- sys.null trace=100001
bad "call" "did you mean 'getppid'" -- sys.null call=getppdi
bad "verify" "2" -- pipe.bw verify=2
# tags compare and check could not name; an empty --db
bad "--tag" "1 to 100" -- sys.null --tag ""
bad "--tag" "'12'" -- sys.null --tag 12
bad "--tag" "'last'" -- sys.null --tag last
bad "--tag" "'a,b'" -- sys.null --tag a,b
bad "--db" "empty path" -- sys.null --db ""
# a good workload before a bad one: still nothing measured
bad "pipe.bq" -- sys.null pipe.bq
bad "size" "out of range" -- sys.null pipe.bw size=4k,512M

# an unusable database: exit 2, the path named, nothing measured
for db in /proc/nonexistent/x.db /etc/passwd/x.db; do
	note "unusable database $db"
	cs 2 run sys.null --quick --db "$db"
	contains "$ERR" "$db"
	grep -q '^timer:' "$OUT" && fail "measured with an unusable database"
	[ ! -e "$db" ] || fail "$db exists"
	cs 2 runs --db "$db"
	contains "$ERR" "$db"
	cs 2 show 1 --db "$db"
	contains "$ERR" "$db"
done

note "a file that is not a database is refused and left as it was"
printf 'not a database, just text that must survive untouched\n%0200d\n' 0 \
	>"$TMP/text.db"
cp "$TMP/text.db" "$TMP/text.copy"
cs 2 run sys.null --quick --db "$TMP/text.db"
contains "$ERR" "$TMP/text.db"
grep -q '^timer:' "$OUT" && fail "measured with a non-database --db"
cmp -s "$TMP/text.db" "$TMP/text.copy" || fail "--db changed a non-database file"
cs 2 runs --db "$TMP/text.db"
contains "$ERR" "$TMP/text.db"

note "a directory as the database"
cs 2 run sys.null --quick --db "$TMP"
contains "$ERR" "$TMP"
grep -q '^timer:' "$OUT" && fail "measured with a directory as --db"

# pipe_size above fs.pipe-max-size as a user without CAP_SYS_RESOURCE
maxsz=$(cat /proc/sys/fs/pipe-max-size 2>/dev/null || echo 0)
if ! command -v setpriv >/dev/null 2>&1; then
	note "SKIPPED pipe_size above pipe-max-size: setpriv is missing"
elif [ "$(id -u)" -ne 0 ]; then
	note "SKIPPED pipe_size above pipe-max-size: needs root to drop to" \
		"uid 65534 with setpriv"
elif [ "$maxsz" -le 0 ]; then
	note "SKIPPED pipe_size above pipe-max-size: no /proc/sys/fs/pipe-max-size"
else
	big=$((maxsz * 2))
	note "pipe_size=$big as uid 65534 (pipe-max-size $maxsz)"
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BIN" run pipe.bw pipe_size=$big --quick --no-store
	contains "$ERR" "pipe_size"
	contains "$ERR" "pipe-max-size"
	grep -q '^timer:' "$OUT" && fail "measured a pipe_size it cannot get"
	note "... also when it is the second value of a sweep after sys.null"
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BIN" run sys.null pipe.bw pipe_size=64k,$big --quick --no-store
	contains "$ERR" "pipe-max-size"
	grep -q '^timer:' "$OUT" && fail "measured before rejecting pipe_size"
fi

note "a parameter named with its unit takes a bare number in it"
cs 0 run sys.null inject_ns=100 --quick --no-store --json
contains "$OUT" '"inject_ns": "100ns"'
contains "$OUT" '"asked_ns": 100'
cs 0 run sys.null inject_ns=100 --quick --no-store
contains "$OUT" "inject_ns=100ns"
contains_flat "$OUT" 'inject delivered '
contains_flat "$OUT" '(asked 100ns: '
note "--warmup 0 needs no unit"
cs 0 run sys.null --warmup 0 --quick --no-store

note "the run stored first is still there, alone"
cs 0 runs
contains_re "$OUT" '^ +1 +.* complete +keep '
[ "$(count_runs)" -eq 1 ] || fail "expected exactly the 1 good run"
cs 0 show 1
contains_re "$OUT" '^ +time/call +[0-9.]+ '
exit 0
