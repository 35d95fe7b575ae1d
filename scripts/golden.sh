#!/bin/sh
# golden.sh - the read commands' outputs on one database, for checking that
# a change of structure changes no output.
#
#   scripts/golden.sh make BIN DB         measure a small, varied set of runs
#                                         into DB with BIN (about a minute)
#   scripts/golden.sh print BIN DB OUTDIR write show, show --json, runs,
#                                         compare (text, JSON, CSV) and
#                                         check --new of DB's runs into OUTDIR
#
# Print once with the binary before the change and once with the binary
# after it, on the same DB, then `diff -r OLD NEW`: a restructure is
# byte-identical.  The environment is fixed (COLUMNS, TZ, LC_ALL), so that
# only the binary differs.
set -u
export TZ=UTC LC_ALL=C COLUMNS=80
unset COPYSCOPE_DB
cmd=${1:?usage: golden.sh make|print BIN DB [OUTDIR]}
bin=${2:?BIN}
db=${3:?DB}
q="--reps 3 --sample-time 20ms --warmup 20ms"

case "$cmd" in
make)
	rm -f "$db" "$db-wal" "$db-shm"
	"$bin" run pipe.bw size=4k,64k $q --hist --tag a --db "$db" >/dev/null
	"$bin" run pipe.bw size=4k,64k $q --hist --tag b --db "$db" >/dev/null
	"$bin" run sys.null inject_ns=0 trace=5 $q --runs 3 --tag na \
		--db "$db" >/dev/null
	"$bin" run sys.null inject_ns=40 trace=5 $q --runs 3 --tag nb \
		--db "$db" >/dev/null
	"$bin" run sys.iov segs=1,2,4,8 $q --tag iov --db "$db" >/dev/null
	"$bin" run pipe.matrix writers=1,2 readers=1,2 $q --tag grid \
		--db "$db" >/dev/null
	"$bin" run file.rw --explain $q --tag frw --db "$db" >/dev/null
	"$bin" run pipe.bw --explain $q --tag pexp --db "$db" >/dev/null
	"$bin" run quick --tag quick --db "$db" >/dev/null
	"$bin" run pipe.mix writers=2 $q --kernel lock,sched,syscall \
		--tag kv --db "$db" >/dev/null 2>&1 || true
	"$bin" run sys.null $q --kernel profile --tag prof --db "$db" \
		>/dev/null 2>&1 || true
	;;
print)
	out=${4:?OUTDIR}
	mkdir -p "$out"
	n=$(sqlite3 "$db" 'SELECT max(id) FROM runs')
	"$bin" runs --db "$db" >"$out/runs.txt" 2>&1
	"$bin" runs --db "$db" --by-host >"$out/runs-by-host.txt" 2>&1
	"$bin" runs --db "$db" --tags >"$out/runs-tags.txt" 2>&1
	i=1
	while [ "$i" -le "$n" ]; do
		"$bin" show "$i" --db "$db" >"$out/show-$i.txt" 2>&1
		"$bin" show "$i" --db "$db" --json >"$out/show-$i.json" 2>&1
		i=$((i + 1))
	done
	for pair in "a b" "na nb" "na na" "1 2" "iov iov"; do
		set -- $pair
		f="$out/compare-$1-$2"
		"$bin" compare "$1" "$2" --db "$db" >"$f.txt" 2>&1
		echo "exit $?" >>"$f.txt"
		"$bin" compare "$1" "$2" --db "$db" --json >"$f.json" 2>&1
		"$bin" compare "$1" "$2" --db "$db" --csv >"$f.csv" 2>&1
		"$bin" check "$1" --new "$2" --db "$db" >"$out/check-$1-$2.txt" 2>&1
		echo "exit $?" >>"$out/check-$1-$2.txt"
		"$bin" check "$1" --new "$2" --db "$db" --json \
			>"$out/check-$1-$2.json" 2>&1
	done
	;;
*)
	echo "golden.sh: unknown command '$cmd' (make or print)" >&2
	exit 2
	;;
esac
