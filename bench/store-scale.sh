#!/bin/sh
# store-scale.sh - the store at a lab's volume (#22): makes stores by
# import of made runs and times what a lab does with them, on SQLite and
# on PostgreSQL (a throw-away cluster, as tests/pg-cluster.sh makes it;
# its row says "skipped" when there is no PostgreSQL server here).
#
# The runs are made from one real run: `copyscope run sys.null --quick`
# (2 metrics) exported, then copied by bench/make-runs.py, each copy with
# a new unique id, its own start time and its samples times (1 + noise),
# seeded.  Printed, with the target and the ratio measured/target:
#   import       N runs (one file, a fresh database): runs/s (>= 500)
#   compare      100 runs a side (compare ha hb): seconds (< 0.3)
#   history      over N runs of one configuration: seconds (< 1), of
#                one metric (one series) and of both (two series: each
#                point's median CI is a bootstrap, most of the cost), only
#                when `copyscope history --help` exits 0, else "not built"
# A time is the median of REPEAT runs of the command (wall clock: the
# targets are); the last column is the CPU time (user + system) that run
# of copyscope used, which a machine shared with other work inflates
# less than the wall time.
#
# Builds nothing (make bench builds first).  Reports; does not judge the
# build: exits 0 unless something could not run.
#
# Environment: N (runs of the history store, default 10000), REPEAT (3),
# BUILD (build directory, default build).
set -eu

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
N=${N:-10000}
REPEAT=${REPEAT:-3}
CS=$BUILD/copyscope
if [ ! -x "$CS" ]; then
	echo "store-scale: $CS is missing; run 'make'" >&2
	exit 1
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-scale.XXXXXX")
PG_DIR=""
cleanup() {
	[ -n "$PG_DIR" ] && tests/pg-cluster.sh stop "$PG_DIR" || true
	rm -rf "$OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# seconds COMMAND...: "WALL CPU": the wall seconds the command took and
# the CPU seconds (user + system) it used (it must succeed).
seconds() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
if r.returncode:
    sys.exit("store-scale: failed (%d): %s\n%s" % (r.returncode,
             " ".join(sys.argv[1:]), r.stderr.decode()))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f" % (time.monotonic() - t, u.ru_utime + u.ru_stime))
PY
}

# median_seconds COMMAND...: "WALL CPU" of the run with the median wall
# time of REPEAT.
median_seconds() {
	i=0
	: >"$OUT/times"
	while [ "$i" -lt "$REPEAT" ]; do
		seconds "$@" >>"$OUT/times"
		i=$((i + 1))
	done
	sort -g "$OUT/times" | awk '{ v[NR] = $0 }
		END { print v[int((NR + 1) / 2)] }'
}

# row WHAT BACKEND VALUE UNIT TARGET HIGHER CPU: a table row; HIGHER 1
# when more is better (the ratio is then target/value: <= 1 is met
# either way); CPU: the command's CPU seconds.
row() {
	awk -v w="$1" -v b="$2" -v v="$3" -v u="$4" -v t="$5" -v h="$6" \
	    -v c="$7" 'BEGIN {
		r = h ? t / v : v / t
		printf "%-20s %-10s %9s %-6s %8s %6.2f %-6s %7.2f\n", w, b, v,
		       u, (h ? ">=" : "<") t, r, (r <= 1 ? "met" : "MISSED"),
		       c
	}'
}

skip() {
	printf "%-20s %-10s %s\n" "$1" "$2" "$3"
}

echo "store-scale: making the runs (one real sys.null run, $N copies)" >&2
"$CS" run sys.null --quick --tag src --db "$OUT/src.db" >/dev/null 2>&1
"$CS" export last --db "$OUT/src.db" -o "$OUT/one.jsonl" >/dev/null
python3 bench/make-runs.py "$OUT/one.jsonl" 100 ha 1 >"$OUT/ha.jsonl"
python3 bench/make-runs.py "$OUT/one.jsonl" 100 hb 2 0.03 \
	1700100000000000000 >"$OUT/hb.jsonl"
python3 bench/make-runs.py "$OUT/one.jsonl" "$N" hist 3 0.03 \
	1690000000000000000 >"$OUT/hist.jsonl"

# measure BACKEND DB_HIST DB_CMP: the rows of one backend.
measure() {
	# compare first: the server is still busy after a large import
	"$CS" import "$OUT/ha.jsonl" --db "$3" >/dev/null
	"$CS" import "$OUT/hb.jsonl" --db "$3" >/dev/null
	set -- "$@" $(median_seconds "$CS" compare ha hb --db "$3")
	row "compare 100/side" "$1" "$4" s 0.3 0 "$5"
	set -- "$1" "$2" "$3" $(seconds "$CS" import "$OUT/hist.jsonl" \
		--db "$2")
	rate=$(awk -v n="$N" -v t="$4" 'BEGIN { printf "%.0f", n / t }')
	row "import $N runs" "$1" "$rate" "runs/s" 500 1 "$5"
	if "$CS" history --help >/dev/null 2>&1; then
		set -- "$1" "$2" "$3" $(median_seconds "$CS" history hist \
			--metric time/call --db "$2")
		row "history $N, 1 metric" "$1" "$4" s 1 0 "$5"
		set -- "$1" "$2" "$3" $(median_seconds "$CS" history hist \
			--db "$2")
		row "history $N, 2 metrics" "$1" "$4" s 1 0 "$5"
	else
		skip "history $N runs" "$1" "history: not built"
	fi
}

printf "%-20s %-10s %9s %-6s %8s %6s %-6s %7s\n" what store measured \
	unit target ratio "" "CPU s"
measure SQLite "$OUT/hist.db" "$OUT/cmp.db"
if PG_DIR=$(tests/pg-cluster.sh start 2>"$OUT/pg.log"); then
	pgbin=$(tests/pg-cluster.sh bindir)
	for db in hist cmp; do
		"$pgbin/psql" -X -q "postgresql:///postgres?host=$PG_DIR" \
			-c "CREATE DATABASE $db"
	done
	measure PostgreSQL "postgresql:///hist?host=$PG_DIR" \
		"postgresql:///cmp?host=$PG_DIR"
else
	skip "all" PostgreSQL "skipped: $(tail -n 1 "$OUT/pg.log")"
fi
