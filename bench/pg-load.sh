#!/bin/sh
# pg-load.sh - load test of the shared PostgreSQL store (not a timed
# test: it reports, and fails only when something is lost, doubled, fails
# or hangs).  On a throw-away server (tests/pg-cluster.sh):
#
#   PUSHERS processes (8) each push RUNS runs (50) of a host of their own
#   from that host's SQLite file, all started at the same instant, while
#   COMPARERS processes (4) run `copyscope compare 1 last` again and again
#   until the pushes are done: each reads the list of the growing store
#   and loads two whole runs, the newest one changing as runs arrive.
#   (Not a compare of hundreds of runs a side: that is the statistics'
#   time, minutes of CPU, not the store's.)
#
# Then it checks that every run arrived exactly once and whole (runs,
# unique ids, results and samples against the SQLite files), that every
# push and every compare exited 0, and that nothing hung (each process
# runs under a LIMIT s timeout: a deadlock shows as a timeout), and
# prints the throughput in runs per second.  A second round pushes the
# same runs again (all there already): the cost of a repeated push.
#
# Builds nothing: run `make` first.  Needs Debian's postgresql (the
# server binaries) and sqlite3.
#
# Environment: PUSHERS (8), RUNS (50), COMPARERS (4), LIMIT (600),
# BUILD (build directory, default build).
set -eu

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PUSHERS=${PUSHERS:-8}
RUNS=${RUNS:-50}
COMPARERS=${COMPARERS:-4}
LIMIT=${LIMIT:-600}
CS=$BUILD/copyscope

[ -x "$CS" ] || { echo "pg-load: $CS is missing; run 'make'" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "pg-load: needs sqlite3" >&2; exit 1; }
PGBIN=$(tests/pg-cluster.sh bindir) ||
	{ echo "pg-load: no PostgreSQL server installed" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-pgload.XXXXXX")
PG_DIR=""
cleanup() {
	[ -z "$PG_DIR" ] || tests/pg-cluster.sh stop "$PG_DIR"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
q() { "$PGBIN/psql" -X -Atq -v ON_ERROR_STOP=1 "$URL" -c "$1"; }

PG_DIR=$(tests/pg-cluster.sh start)
"$PGBIN/psql" -X -q "postgresql:///postgres?host=$PG_DIR" \
	-c "CREATE DATABASE lab"
URL="postgresql:///lab?host=$PG_DIR"

echo "pg-load: preparing $PUSHERS hosts x $RUNS runs"
# one measured run, copied to RUNS runs (copies of its rows with their
# own unique ids), then one file per host, each run with its own id
"$CS" run sys.null --quick --tag load --db "$TMP/seed.db" >/dev/null 2>&1
i=1
sql="BEGIN;"
while [ "$i" -lt "$RUNS" ]; do
	sql="$sql
INSERT INTO runs (started_ns, finished_ns, tag, host, boot_id,
  tool_version, build_flavour, cmdline, status, reps, sample_time_ns,
  warmup_ns, cpus, hist, interleave_seed, perf_counters, pid, uuid)
  SELECT started_ns + $i, finished_ns + $i, tag, host, boot_id,
  tool_version, build_flavour, cmdline, status, reps, sample_time_ns,
  warmup_ns, cpus, hist, interleave_seed, perf_counters, pid, 'x$i'
  FROM runs WHERE id = 1;
INSERT INTO environment (run_id, key, value, seq) SELECT
  (SELECT max(id) FROM runs), key, value, seq FROM environment
  WHERE run_id = 1;
INSERT INTO results (run_id, seq, workload, params, metric, unit,
  direction, info) SELECT (SELECT max(id) FROM runs), seq, workload,
  params, metric, unit, direction, info FROM results WHERE run_id = 1;
INSERT INTO samples (result_id, idx, value) SELECT n.id, s.idx, s.value
  FROM samples s JOIN results o ON o.id = s.result_id AND o.run_id = 1
  JOIN results n ON n.seq = o.seq AND n.run_id = (SELECT max(id) FROM runs);"
	i=$((i + 1))
done
sqlite3 "$TMP/seed.db" "$sql COMMIT;"
p=1
while [ "$p" -le "$PUSHERS" ]; do
	cp "$TMP/seed.db" "$TMP/lab$p.db"
	sqlite3 "$TMP/lab$p.db" "UPDATE runs SET host = 'lab$p',
		uuid = lower(hex(randomblob(16)));
		UPDATE environment SET value = 'lab$p' WHERE key = 'hostname'"
	p=$((p + 1))
done
# a reference run (id 1), there before the load, for the comparers
"$CS" push 1 --to "$URL" --db "$TMP/seed.db" --quiet >/dev/null
local_samples=$(( $(sqlite3 "$TMP/seed.db" "SELECT count(*) FROM samples") *
	PUSHERS ))
local_results=$(( $(sqlite3 "$TMP/seed.db" "SELECT count(*) FROM results") *
	PUSHERS ))

# round N: every pusher at once, comparers until the pushers are done
round() {
	rm -f "$TMP"/push.*.rc "$TMP"/cmp.* "$TMP/done"
	c=1
	while [ "$c" -le "$COMPARERS" ]; do
		(
			n=0
			bad=0
			while [ ! -e "$TMP/done" ]; do
				if timeout "$LIMIT" "$CS" compare 1 last \
					--db "$URL" >/dev/null 2>>"$TMP/cmp.$c.err"
				then
					n=$((n + 1))
				else
					bad=$((bad + 1))
				fi
			done
			echo "$n $bad" >"$TMP/cmp.$c"
		) &
		c=$((c + 1))
	done
	t0=$(now)
	p=1
	while [ "$p" -le "$PUSHERS" ]; do
		(
			rc=0
			timeout "$LIMIT" "$CS" push --to "$URL" \
				--db "$TMP/lab$p.db" --quiet \
				>"$TMP/push.$p.out" 2>&1 || rc=$?
			echo "$rc" >"$TMP/push.$p.rc"
		) &
		p=$((p + 1))
	done
	# wait for the pushers: their rc files
	p=1
	while [ "$p" -le "$PUSHERS" ]; do
		while [ ! -s "$TMP/push.$p.rc" ]; do
			sleep 0.05
		done
		p=$((p + 1))
	done
	t1=$(now)
	: >"$TMP/done"
	wait
	elapsed=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
}

check_pushers() {
	p=1
	while [ "$p" -le "$PUSHERS" ]; do
		rc=$(cat "$TMP/push.$p.rc")
		if [ "$rc" != 0 ]; then
			echo "pg-load: FAIL: pusher $p exited $rc$( [ "$rc" = 124 ] &&
				echo ' (timed out: a deadlock or a hang)'):" >&2
			cat "$TMP/push.$p.out" >&2
			exit 1
		fi
		p=$((p + 1))
	done
}

comparers() {
	cmp_ok=0
	cmp_bad=0
	c=1
	while [ "$c" -le "$COMPARERS" ]; do
		set -- $(cat "$TMP/cmp.$c")
		cmp_ok=$((cmp_ok + $1))
		cmp_bad=$((cmp_bad + $2))
		c=$((c + 1))
	done
	if [ "$cmp_bad" -ne 0 ]; then
		echo "pg-load: FAIL: $cmp_bad compares failed:" >&2
		cat "$TMP"/cmp.*.err >&2
		exit 1
	fi
}

total=$((PUSHERS * RUNS))
echo "pg-load: round 1: $PUSHERS pushers x $RUNS runs at once," \
	"$COMPARERS comparers meanwhile"
round
check_pushers
comparers
n=$(q "SELECT count(*) FROM runs WHERE host LIKE 'lab%'")
nu=$(q "SELECT count(DISTINCT uuid) FROM runs WHERE host LIKE 'lab%'")
nr=$(q "SELECT count(*) FROM results x JOIN runs r ON r.id = x.run_id
	WHERE r.host LIKE 'lab%'")
ns=$(q "SELECT count(*) FROM samples s JOIN results x ON x.id = s.result_id
	JOIN runs r ON r.id = x.run_id WHERE r.host LIKE 'lab%'")
nh=$(q "SELECT count(*) FROM (SELECT host FROM runs WHERE host LIKE 'lab%'
	GROUP BY host HAVING count(*) = $RUNS) h")
if [ "$n" -ne "$total" ] || [ "$nu" -ne "$total" ] ||
	[ "$nr" -ne "$local_results" ] || [ "$ns" -ne "$local_samples" ] ||
	[ "$nh" -ne "$PUSHERS" ]; then
	echo "pg-load: FAIL: $n runs ($nu unique ids, $nh hosts with all" \
		"$RUNS), $nr results, $ns samples; expected $total runs," \
		"$local_results results, $local_samples samples" >&2
	exit 1
fi
rate=$(echo "$total $elapsed" | awk '{ printf "%.1f", $1 / $2 }')
echo "  $total runs in ${elapsed} s: $rate runs/s; every run exactly" \
	"once and whole ($nr results, $ns samples)"
echo "  $cmp_ok compares of the growing store meanwhile, none failed"

echo "pg-load: round 2: the same pushes again (every run there already)"
round
check_pushers
comparers
n=$(q "SELECT count(*) FROM runs WHERE host LIKE 'lab%'")
[ "$n" -eq "$total" ] || {
	echo "pg-load: FAIL: $n runs after pushing again, not $total" >&2
	exit 1
}
grep -q "0 runs added, $RUNS there already" "$TMP/push.1.out" || {
	echo "pg-load: FAIL: the repeated push says:" >&2
	cat "$TMP/push.1.out" >&2
	exit 1
}
rate=$(echo "$total $elapsed" | awk '{ printf "%.1f", $1 / $2 }')
echo "  $total runs checked in ${elapsed} s: $rate runs/s; none added"
echo "  $cmp_ok compares meanwhile, none failed"
echo "pg-load: ok"
