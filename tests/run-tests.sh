#!/bin/sh
# run-tests.sh - run every test: the cmocka unit tests (release build and
# ASan+UBSan build), the smoke tests of the built binary, and a
# representative set of smoke tests once more against the ASan+UBSan
# binary, and each libFuzzer harness briefly.  Prints one line per test program and ends with
#   tests: N passed, N failed, N timed out, N skipped
# exiting non-zero when anything failed or timed out.  `make test` builds
# first.
#
#   sh tests/run-tests.sh [NAME...]
#
# With names, only the named tests run (after `make test-build`, or the
# builds they need), with the same closing line.  A NAME is a test as the
# lines print it (unit/test_X, unit-asan/test_X, smoke/test_X,
# smoke-asan/test_X, fuzz/fuzz_X), or a bare test_X: the release unit test
# and the smoke test of that name, whichever exist.  A name that is none
# of these exits 2.  Named tests that need PostgreSQL start a server of
# their own (tests/smoke/lib.sh need_pg).
#
# Every test program runs under a time limit (UNIT_TIMEOUT, SMOKE_TIMEOUT
# seconds; a test that hangs is killed and reported as TIMEOUT, not as a
# failure of its assertions).  A test exits 77 to be skipped as a whole;
# a part of a test that cannot run here calls skip_case (tests/smoke/
# lib.sh), which is listed and counted as skipped without failing the
# test.
set -u
cd "$(dirname "$0")/.."
. tests/run-one.sh

UNIT_TIMEOUT=${UNIT_TIMEOUT:-120}
SMOKE_TIMEOUT=${SMOKE_TIMEOUT:-300}
# Smoke tests that also run against build/copyscope-sanitize: bad input,
# compare on crafted rows (test_compare_rows: every kind of row in a few
# seconds; test_compare's real runs take minutes, which the CI budget
# cannot spend twice), a multi-process workload, signals, the PostgreSQL
# store, boot (with a fake qemu), ab, hostile imports (huge numbers
# through the formatting, under UBSan).
SANITIZE_SMOKE="test_bad_input test_compare_rows test_run_pipe_bw \
test_interrupt test_lab test_boot_cli test_ab test_hostile_import"
# Each libFuzzer harness runs this long from its seed corpus (make fuzz
# runs them longer).
FUZZ_SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-10}

tests_begin build/test-logs
# A throw-away PostgreSQL server (tests/pg-cluster.sh) for the tests of
# the PostgreSQL store, which find its socket directory in
# COPYSCOPE_TEST_PG_HOST; stopped and removed at the end, also when a
# test fails or the run is interrupted.  Without one, those tests skip
# the parts that need it.
PG_DIR=""
cleanup() {
	rm -f "$COPYSCOPE_SKIPS"
	[ -z "$PG_DIR" ] || tests/pg-cluster.sh stop "$PG_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
start_pg() {
	if PG_DIR=$(tests/pg-cluster.sh start 2>"$logdir/pg-cluster.log"); then
		export COPYSCOPE_TEST_PG_HOST="$PG_DIR"
		echo "PostgreSQL for the tests: $PG_DIR"
	else
		PG_DIR=""
		echo "no PostgreSQL server for the tests ($(tail -n 1 \
			"$logdir/pg-cluster.log")); their parts that need one skip"
	fi
}

# unit NAME, unit_asan NAME, smoke NAME, smoke_asan NAME, fuzz NAME: run
# that one test as `make test` does.
unit() {
	run_one "$UNIT_TIMEOUT" "unit/$1" "build/release/unit/$1"
}
unit_asan() {
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	run_one "$UNIT_TIMEOUT" "unit-asan/$1" "build/sanitize/unit/$1"
	unset ASAN_OPTIONS UBSAN_OPTIONS
}
smoke() {
	run_one "$SMOKE_TIMEOUT" "smoke/$1" sh "tests/smoke/$1.sh"
}
smoke_asan() {
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export COPYSCOPE_BIN=build/copyscope-sanitize
	run_one "$SMOKE_TIMEOUT" "smoke-asan/$1" sh "tests/smoke/$1.sh"
	unset ASAN_OPTIONS UBSAN_OPTIONS COPYSCOPE_BIN
}
fuzz() {
	run_one $((FUZZ_SMOKE_SECONDS + 60)) "fuzz/$1" \
		tests/fuzz/run-fuzz.sh "$FUZZ_SMOKE_SECONDS" "build/fuzz/$1"
}

# resolve NAME: the runs of the named test, a line each ("unit test_X");
# exit 2 when NAME names none.
resolve() {
	_n=${1%.sh}
	case $_n in
	unit/*) _f=build/release/unit/${_n#*/} _r="unit ${_n#*/}" ;;
	unit-asan/*) _f=build/sanitize/unit/${_n#*/} _r="unit_asan ${_n#*/}" ;;
	smoke/*) _f=tests/smoke/${_n#*/}.sh _r="smoke ${_n#*/}" ;;
	smoke-asan/*)
		_f=tests/smoke/${_n#*/}.sh _r="smoke_asan ${_n#*/}"
		[ -x build/copyscope-sanitize ] || _f=build/copyscope-sanitize ;;
	fuzz/*) _f=build/fuzz/${_n#*/} _r="fuzz ${_n#*/}" ;;
	*/*) _f="" ;;
	*)
		_found=0
		[ -x "build/release/unit/$_n" ] && echo "unit $_n" && _found=1
		[ -f "tests/smoke/$_n.sh" ] && echo "smoke $_n" && _found=1
		[ $_found -eq 1 ] && return 0
		echo "run-tests.sh: '$1' is neither a built unit test" \
			"(build/release/unit/$_n: make unit) nor a smoke test" \
			"(tests/smoke/$_n.sh)" >&2
		exit 2 ;;
	esac
	if [ -n "$_f" ] && [ -e "$_f" ]; then
		echo "$_r"
		return 0
	fi
	echo "run-tests.sh: '$1': ${_f:-no such test} is not there; a" \
		"name is test_X or unit/, unit-asan/, smoke/, smoke-asan/ or" \
		"fuzz/ and the test's name, as the test lines print it" >&2
	exit 2
}

if [ $# -gt 0 ]; then
	# every name is checked before anything runs
	plan=$(for a in "$@"; do resolve "$a" || exit 2; done) || exit 2
	# (test names hold no blanks: the plan splits into kind, name pairs)
	set -- $plan
	while [ $# -ge 2 ]; do
		"$1" "$2"
		shift 2
	done
	tests_end
	exit
fi

start_pg
for t in build/release/unit/test_*; do
	[ -x "$t" ] || continue
	unit "$(basename "$t")"
done
for t in build/sanitize/unit/test_*; do
	[ -x "$t" ] || continue
	unit_asan "$(basename "$t")"
done
for t in tests/smoke/test_*.sh; do
	[ -f "$t" ] || continue
	smoke "$(basename "$t" .sh)"
done
if [ -x build/copyscope-sanitize ]; then
	for t in $SANITIZE_SMOKE; do
		smoke_asan "$t"
	done
else
	skip_test smoke-asan "build/copyscope-sanitize is not built"
fi

found_fuzz=0
for f in build/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	found_fuzz=1
	fuzz "$(basename "$f")"
done
if [ $found_fuzz -eq 0 ]; then
	skip_test fuzz \
		"the harnesses are not built (make fuzz-build needs clang)"
fi

tests_end
