#!/bin/sh
# history-check-real.sh - check --history on real runs (issue 30 item 1):
# N_BASE runs of sys.null --quick, then N_STEP with inject_ns=INJECT, each
# time check --history judging the series so far (inject_ns left out of
# the grouping).  Prints each point's count, median and check's exit
# code; a quiet machine gives 4 below 6 points, 0 on the flat history and
# 3 once the injected runs come.
# usage: sh bench/history-check-real.sh [BIN] [N_BASE] [N_STEP] [INJECT]
set -u
BIN=${1:-build/copyscope}
N_BASE=${2:-7}
N_STEP=${3:-3}
INJECT=${4:-300ns}
DB=$(mktemp -d)/hist.db
i=0
while [ "$i" -lt $((N_BASE + N_STEP)) ]; do
	i=$((i + 1))
	if [ "$i" -le "$N_BASE" ]; then
		"$BIN" run sys.null --quick --db "$DB" >/dev/null 2>&1
	else
		"$BIN" run sys.null inject_ns="$INJECT" --quick --db "$DB" \
			>/dev/null 2>&1
	fi
	out=$("$BIN" check --history sys.null --ignore-param inject_ns \
		--metric time/call --db "$DB")
	rc=$?
	echo "points $i exit $rc"
	echo "$out" | sed 's/^/  /'
done
"$BIN" history sys.null --ignore-param inject_ns --metric time/call \
	--db "$DB"
