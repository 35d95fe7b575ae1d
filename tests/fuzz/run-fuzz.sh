#!/bin/sh
# run-fuzz.sh SECONDS BINARY... - run each libFuzzer harness for SECONDS
# from its seed corpus (tests/fuzz/corpus/NAME) into a working corpus in
# build/fuzz/corpus-NAME; prints one line per harness with its executions
# and whether it found anything (a crash file build/fuzz/crash-NAME-*).
# Exits non-zero when any harness found a crash or could not run.
set -u
cd "$(dirname "$0")/../.."
secs=$1
shift
rc=0
for bin in "$@"; do
	name=$(basename "$bin" | sed 's/^fuzz_//')
	work=build/fuzz/corpus-$name
	log=build/fuzz/$name.log
	mkdir -p "$work"
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="build/fuzz/crash-$name-" -print_final_stats=1 \
		"$work" "tests/fuzz/corpus/$name" >"$log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ $r -eq 0 ]; then
		printf 'fuzz %-8s %3ss  %s executions, %s, no findings\n' \
			"$name" "$secs" "${execs:-?}" "${cov:-cov: ?}"
	else
		rc=1
		printf 'fuzz %-8s FOUND something (exit %s): see %s\n' "$name" \
			"$r" "$log"
		grep -E 'ERROR|SUMMARY|Test unit written|broken|abort' "$log" |
			head -n 8 | sed 's/^/    /'
	fi
done
exit $rc
