#!/bin/sh
# test_pipe_matrix.sh - `run pipe.matrix`: W writers x R readers on one
# pipe: the metrics, the verify pass with 5 writers x 10 readers and 4 KiB
# records, the refusals of records the kernel does not keep whole, the
# writers x readers grid in `run` and `show`, workers reaped in mode=proc,
# and pressure=vm (stress-ng) started and stopped.
. "$(dirname "$0")/lib.sh"

note "defaults, quick"
cs 0 run pipe.matrix --quick --no-store
contains_re "$OUT" '^pipe\.matrix '
for m in bandwidth 'write mean' 'write p50' 'write p99' 'write max' \
	fairness 'min/max rd' 'ctxsw/MiB'; do
	contains_re "$OUT" "^ +$m +([0-9.-]+|withheld)"
done
contains_re "$OUT" '^ +bandwidth +([0-9.]+ [KMGT]?i?B/s|withheld)'
contains "$OUT" "writer0 cpu"
contains "$OUT" "reader0 cpu"
contains "$OUT" "pipe capacity"
# one reader: it gets every byte
contains_re "$OUT" '^ +fairness +1\.00 ratio'
not_contains "$OUT" "median ±sd of the samples"

# verified ARGS...: a verified quick run with no integrity errors.
verified() {
	note "verify=1 $*"
	cs 0 run pipe.matrix verify=1 "$@" --quick --no-store
	contains "$OUT" "verify: ok"
	contains_flat "$OUT" "0 lost, 0 duplicated, 0 corrupted, 0 reordered"
	grep -qi 'verify: fail' "$OUT" && fail "verify failed"
	return 0
}
verified writers=5 readers=10 size=4k rsize=4k
contains_flat "$OUT" "checked by 10 readers"
contains "$OUT" "writer4"
contains "$OUT" "reader9 cpu"
# several writers: per-writer latency lines from the core
contains "$OUT" "per worker: mean, p50, p99, max"
verified
verified writers=3 size=100 rsize=64k
verified readers=3 size=1000 rsize=3000 mode=proc
verified rsize=1000

note "records larger than PIPE_BUF with several writers are refused"
cs 2 run pipe.matrix writers=2 size=64k verify=1 --quick --no-store
contains_flat "$ERR" "needs size <= 4096 (PIPE_BUF), not 65536"
contains_flat "$ERR" "interleaved with another writer's"
[ -s "$OUT" ] && fail "refused run printed results"

note "reads that split records between readers are refused"
cs 2 run pipe.matrix readers=2 size=4k rsize=6000 verify=1 --quick \
	--no-store
contains_flat "$ERR" "rsize to be a multiple of size (4096), not 6000"
cs 2 run pipe.matrix readers=2 size=8k verify=1 --quick --no-store
contains_flat "$ERR" "split between two readers"
cs 2 run pipe.matrix size=16 verify=1 --quick --no-store
contains_flat "$ERR" "verify=1 needs size >= 32"
cs 2 run pipe.matrix writers=40 readers=40 --quick --no-store
contains_flat "$ERR" "writers + readers is 80; at most 64 workers"

note "grid: writers=1,2 readers=1,2, in run and in show"
cs 0 run pipe.matrix writers=1,2 readers=1,2 size=4k --quick
cp "$OUT" "$TMP/run.out"
# grid_of FILE: the grid's lines, from its heading to the next blank line
grid_of() {
	awk '/median ±sd of the samples/ { p = 1 } p && /^$/ { exit } p' "$1"
}
# grid_check FILE: the 2 x 2 grid is there, each line within 80 columns
grid_check() {
	grep -E -q "^  bandwidth in [KMGT]?i?B/s, median ±sd of the samples" \
		"$1" ||
		fail "$(label "$1") lacks the grid heading"
	grid_of "$1" >"$TMP/grid"
	grep -E -q '^ +readers=1 +readers=2$' "$TMP/grid" ||
		fail "grid lacks the readers=1 readers=2 header"
	for w in 1 2; do
		grep -E -q \
			"^  writers=$w( +([0-9.]+ ±[0-9.]+%|withheld)){2} *$" \
			"$TMP/grid" || fail "grid lacks the writers=$w row"
	done
	sed 's/±/+/g' "$TMP/grid" |
		awk 'length($0) > 80 { bad = 1 } END { exit bad }' ||
		fail "a grid line is wider than 80 columns"
}
grid_check "$OUT"
# rows as well as the grid
[ "$(grep -E -c '^ +[12] +[12] +bandwidth ' "$OUT")" -eq 4 ] ||
	fail "expected 4 bandwidth rows"
cs 0 show last
grid_check "$OUT"
grid_of "$TMP/run.out" >"$TMP/grid.run"
grid_of "$OUT" >"$TMP/grid.show"
cmp -s "$TMP/grid.run" "$TMP/grid.show" ||
	fail "show prints another grid than run:" \
		"$(diff "$TMP/grid.run" "$TMP/grid.show")"

note "mode=proc: every worker reaped"
tag="pm-reap-$$"
cs 0 run pipe.matrix writers=2 readers=3 mode=proc --quick --no-store \
	--tag "$tag"
contains "$OUT" "reader2 cpu"
# tagged_procs: the processes whose command line holds $tag
tagged_procs() {
	ps -eo pid=,args= | grep -F -e "$tag" | grep -v grep
}
# none_tagged: no process holds $tag
none_tagged() {
	! tagged_procs >/dev/null
}
wait_for 10 none_tagged

# status_of_last: the status of the last run stored.
status_of_last() {
	"$BIN" runs | awk '$1 ~ /^[0-9]+$/ { s = $4 } END { print s }'
}

# stress-ng processes now running (not zombies waiting for their
# parent, init, to reap them), one pid a line
stress_pids() {
	ps -eo pid=,stat=,comm= |
		awk '$3 ~ /^stress-ng/ && $2 !~ /^Z/ { print $1 }' | sort
}

# new_stress: the stress-ng pids that were not there before ($before)
new_stress() {
	_new=$(stress_pids | grep -v -x -F -e "$before" || true)
	[ -z "$(echo "$before" | tr -d ' \n')" ] && _new=$(stress_pids)
	echo "$_new" | tr -d ' \n'
}

# stress_started: a stress-ng process is there that was not before
stress_started() {
	[ -n "$(new_stress)" ]
}

# stress_gone: none of the stress-ng processes now running is new
stress_gone() {
	[ -z "$(new_stress)" ]
}

note "pressure=vm without stress-ng on PATH: a clear error"
expect_exit 1 env PATH=/nonexistent "$BIN" run pipe.matrix pressure=vm \
	--quick --no-store
contains_flat "$ERR" "pressure=vm needs stress-ng (apt-get install stress-ng)"

if command -v stress-ng >/dev/null 2>&1; then
	note "pressure=vm: stress-ng started, then stopped"
	before=$(stress_pids)
	cs 0 run pipe.matrix pressure=vm vm_pct=2 size=4k --quick \
		--no-store
	contains_flat "$OUT" "pressure=vm: stress-ng vm stressor holding"
	contains_re "$OUT" '^ +bandwidth +([0-9.]+|withheld) '
	wait_for 10 stress_gone

	for sig in INT TERM; do
		note "SIG$sig while pressure=vm waits for stress-ng to take its memory"
		before=$(stress_pids)
		"$BIN" run pipe.matrix pressure=vm vm_pct=60 size=4k --quick \
			>"$OUT" 2>"$ERR" &
		pid=$!
		LAST_CMD="run pipe.matrix pressure=vm vm_pct=60 (pid $pid)"
		# until stress-ng is there: the run waits for it to take
		# its memory
		wait_for 30 stress_started
		grep -q "stress-ng vm stressor holding" "$OUT" &&
			fail "stress-ng took its memory before SIG$sig: make vm_pct larger"
		kill -s "$sig" "$pid"
		wait "$pid"
		LAST_RC=$?
		[ "$LAST_RC" -eq 130 ] ||
			fail "SIG$sig during the wait for stress-ng: exit $LAST_RC, not 130"
		contains "$ERR" "interrupted"
		[ "$(status_of_last)" = interrupted ] ||
			fail "the run is '$(status_of_last)', not interrupted"
		wait_for 10 stress_gone
	done
else
	skip_case "stress-ng is not installed: pressure=vm is untested"
fi
exit 0
