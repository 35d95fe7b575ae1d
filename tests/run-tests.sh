#!/bin/sh
# run-tests.sh - run every test: the cmocka unit tests (release build and
# ASan+UBSan build) and the smoke tests of the built binary.  Prints one
# line per test program and ends with
#   tests: N passed, N failed, N skipped
# exiting non-zero when anything failed.  `make test` builds first.
set -u
cd "$(dirname "$0")/.."

pass=0
fail=0
skip=0
failed_list=""
logdir=build/test-logs
mkdir -p "$logdir"

run_one() {	# name command...
	name=$1
	shift
	log="$logdir/$(echo "$name" | tr '/ ' '__').log"
	start=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS  %-44s %3ss\n' "$name" "$secs"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1))
		printf 'SKIP  %-44s (%s)\n' "$name" \
			"$(tail -n 1 "$log")"
	else
		fail=$((fail + 1))
		failed_list="$failed_list $name"
		printf 'FAIL  %-44s exit %s; last lines of %s:\n' "$name" \
			"$rc" "$log"
		tail -n 15 "$log" | sed 's/^/      /'
	fi
}

for t in build/release/unit/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in build/sanitize/unit/test_*; do
	[ -x "$t" ] || continue
	run_one "unit-asan/$(basename "$t")" "$t"
done
unset ASAN_OPTIONS UBSAN_OPTIONS
for t in tests/smoke/test_*.sh; do
	[ -f "$t" ] || continue
	run_one "smoke/$(basename "$t" .sh)" sh "$t"
done

echo
[ -n "$failed_list" ] && echo "failed:$failed_list"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
