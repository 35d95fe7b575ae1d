#!/bin/sh
# mail-example.sh - the README's first compare example (`compare --mail`),
# measured again: five runs of sys.null a side, alternated, the new side
# with a calibrated 100 ns delay in each gettid, into a fresh database,
# then compare --mail and the full table.  Run it on a quiet machine and
# paste its output into README.md ("Comparing runs").
#
#   sh bench/mail-example.sh [BIN]    (BIN: build/copyscope)
set -eu
bin=${1:-build/copyscope}
db=$(mktemp -d)/mail-example.db
trap 'rm -rf "$(dirname "$db")"' EXIT
export TZ=UTC LC_ALL=C
for i in 1 2 3 4 5; do
	"$bin" run sys.null --tag before --db "$db" >/dev/null
	"$bin" run sys.null inject_ns=100ns --tag after --db "$db" >/dev/null
done
"$bin" compare before after --ignore-param inject_ns --mail --db "$db"
echo
"$bin" compare before after --ignore-param inject_ns --target 3% --db "$db"
