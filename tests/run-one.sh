# run-one.sh - sourced by run-tests.sh and run-tests-aarch64.sh: one test
# program run, counted and printed as a line, and the closing line, the
# same in both.
#
# tests_begin LOGDIR: zero the counts (pass, fail, tmo, skip and the
# names in failed_list), make LOGDIR for the logs, and export
# COPYSCOPE_SKIPS, a file where a test lists its parts that could not run
# (skip_case, tests/smoke/lib.sh).  The caller removes that file at exit.
#
# run_one LIMIT NAME COMMAND...: run COMMAND under `timeout LIMIT`, its
# output in LOGDIR/NAME.log, and print one line: PASS with its seconds,
# SKIP (exit 77) with the log's last line, TIME (killed at LIMIT) or FAIL
# with its exit status, both followed by failure_excerpt; then a SKIP line
# per part the test listed in COPYSCOPE_SKIPS.
#
# skip_test NAME WHY: count NAME as skipped without running it, and say
# why.
#
# tests_end: the failed tests' names and the closing line
#   tests: N passed, N failed, N timed out, N skipped
# and a status, 0 when nothing failed or timed out, for the caller's exit.
#
# failure_excerpt LOG: the lines that say what failed (a smoke test's
# "FAIL [name]: ..." and its last command, cmocka's ERROR and LINE
# lines), then the log's last 15 lines, indented.  The tail alone can be
# a dumped output or a sanitizer's leak report that hides the failure.

tests_begin() {
	pass=0
	fail=0
	tmo=0
	skip=0
	failed_list=""
	logdir=$1
	mkdir -p "$logdir"
	COPYSCOPE_SKIPS=$(mktemp "${TMPDIR:-/tmp}/copyscope-skips.XXXXXX") ||
		exit 1
	export COPYSCOPE_SKIPS
}

skip_test() {
	skip=$((skip + 1))
	printf 'SKIP  %-44s (%s)\n' "$1" "$2"
}

run_one() {	# limit name command...
	_ro_limit=$1
	_ro_name=$2
	shift 2
	_ro_log="$logdir/$(echo "$_ro_name" | tr '/ ' '__').log"
	: >"$COPYSCOPE_SKIPS"
	_ro_start=$(date +%s)
	timeout -k 10 "$_ro_limit" "$@" >"$_ro_log" 2>&1
	_ro_rc=$?
	_ro_secs=$(( $(date +%s) - _ro_start ))
	if [ $_ro_rc -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS  %-44s %3ss\n' "$_ro_name" "$_ro_secs"
	elif [ $_ro_rc -eq 77 ]; then
		skip_test "$_ro_name" "$(tail -n 1 "$_ro_log")"
	elif [ $_ro_rc -eq 124 ] || [ $_ro_rc -eq 137 ]; then
		tmo=$((tmo + 1))
		failed_list="$failed_list $_ro_name(timeout)"
		printf 'TIME  %-44s killed after %ss; from %s:\n' \
			"$_ro_name" "$_ro_limit" "$_ro_log"
		failure_excerpt "$_ro_log"
	else
		fail=$((fail + 1))
		failed_list="$failed_list $_ro_name"
		printf 'FAIL  %-44s exit %s; from %s:\n' "$_ro_name" \
			"$_ro_rc" "$_ro_log"
		failure_excerpt "$_ro_log"
	fi
	# parts of the test that could not run here
	while IFS= read -r _ro_why; do
		skip_test "$_ro_name: part" "$_ro_why"
	done <"$COPYSCOPE_SKIPS"
}

tests_end() {
	echo
	[ -n "$failed_list" ] && echo "failed:$failed_list"
	echo "tests: $pass passed, $fail failed, $tmo timed out, $skip skipped"
	[ $fail -eq 0 ] && [ $tmo -eq 0 ]
}

failure_excerpt() {
	_fe_why=$(grep -E -m 6 '^FAIL \[|^  last command: |^\[  ERROR   \]|^\[   LINE   \]' "$1")
	if [ -n "$_fe_why" ]; then
		printf '%s\n' "$_fe_why" | sed 's/^/      /'
		echo "      [...] the log's last 15 lines:"
	fi
	tail -n 15 "$1" | sed 's/^/      /'
}
