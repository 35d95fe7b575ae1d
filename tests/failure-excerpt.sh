# failure-excerpt.sh - sourced by run-tests.sh and run-tests-aarch64.sh:
# what a failed test's log shows on the terminal and in CI.
#
# failure_excerpt LOG: the lines that say what failed (a smoke test's
# "FAIL [name]: ..." and its last command, cmocka's ERROR and LINE
# lines), then the log's last 15 lines, indented.  The tail alone can be
# a dumped output or a sanitizer's leak report that hides the failure.
failure_excerpt() {
	_fe_why=$(grep -E -m 6 '^FAIL \[|^  last command: |^\[  ERROR   \]|^\[   LINE   \]' "$1")
	if [ -n "$_fe_why" ]; then
		printf '%s\n' "$_fe_why" | sed 's/^/      /'
		echo "      [...] the log's last 15 lines:"
	fi
	tail -n 15 "$1" | sed 's/^/      /'
}
