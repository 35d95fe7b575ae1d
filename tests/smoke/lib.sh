# lib.sh - shared helpers for the smoke tests of the built binary.
# Sourced (". tests/smoke/lib.sh") by every tests/smoke/test_*.sh, which
# run as `sh tests/smoke/test_X.sh` from any directory.
#
# Sets:
#   ROOT   the repository root (the current directory after sourcing)
#   BIN    $COPYSCOPE_BIN, else build/copyscope (relative to ROOT); the
#          test runner sets build/copyscope-sanitize for some tests
#   OTHER_FLAVOUR  the other build of the two (release <-> sanitize)
#   TMP    a private temp dir, removed on exit
#   COPYSCOPE_DB  a fresh database inside TMP (exported)
#   OUT ERR       files holding stdout and stderr of the last expect_exit
#   PG_URL PG_DIR PGBIN  after need_pg: a fresh PostgreSQL database, the
#          server's socket directory, its tools
# Exit convention: 0 pass, 77 skip (reason is the last line), else fail.
set -u

TEST_NAME=$(basename "$0" .sh)
ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
cd "$ROOT" || exit 1
BIN=${COPYSCOPE_BIN:-build/copyscope}
case $BIN in
*-sanitize) OTHER_FLAVOUR=build/copyscope ;;
*) OTHER_FLAVOUR=build/copyscope-sanitize ;;
esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-smoke.XXXXXX") || {
	echo "$TEST_NAME: mktemp -d failed" >&2
	exit 1
}
# PostgreSQL servers this test started itself (need_pg, pg_start_tls),
# stopped at exit.
PG_STARTED=""
cleanup() {
	# the background processes this test started and has not waited
	# for (it failed while waiting on one: wait_for) do not outlive it
	jobs -p >"$TMP/jobs" 2>/dev/null
	for _p in $(cat "$TMP/jobs" 2>/dev/null); do
		kill -KILL "$_p" 2>/dev/null
	done
	for _d in $PG_STARTED; do
		tests/pg-cluster.sh stop "$_d" || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# Keep every test away from the user's real database.
export COPYSCOPE_DB="$TMP/results.db"
export XDG_DATA_HOME="$TMP/xdg"
OUT=$TMP/out
ERR=$TMP/err
LAST_CMD=""
: >"$OUT"
: >"$ERR"

# show_file LABEL FILE: print a file indented, for failure messages.
show_file() {
	if [ -s "$2" ]; then
		echo "  --- $1 ($2):"
		sed 's/^/  | /' "$2"
	else
		echo "  --- $1: (empty)"
	fi
}

# fail MSG...: report a failure, with the last command's output, and exit 1.
fail() {
	{
		echo "FAIL [$TEST_NAME]: $*"
		if [ -n "$LAST_CMD" ]; then
			echo "  last command: $LAST_CMD (exit ${LAST_RC:-?})"
			show_file stdout "$OUT"
			show_file stderr "$ERR"
		fi
	} >&2
	exit 1
}

# skip REASON: skip the whole test (the reason is the last line printed).
skip() {
	echo "skip: $*"
	exit 77
}

# skip_case REASON: a part of the test cannot run here; it is listed and
# counted as skipped by the test runner, and the test goes on.
skip_case() {
	echo "-- skipped: $*"
	[ -n "${COPYSCOPE_SKIPS:-}" ] && echo "$*" >>"$COPYSCOPE_SKIPS"
	return 0
}

# note MSG: a line in the log.
note() {
	echo "-- $*"
}

[ -x "$BIN" ] || {
	echo "FAIL [$TEST_NAME]: $ROOT/$BIN is missing or not executable" \
		"(make $BIN)" >&2
	exit 1
}

# expect_exit CODE cmd...: run cmd with stdout in $OUT and stderr in $ERR;
# fail unless it exits with CODE.
expect_exit() {
	_want=$1
	shift
	LAST_CMD="$*"
	"$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
	if [ "$LAST_RC" -ne "$_want" ]; then
		fail "expected exit $_want, got $LAST_RC"
	fi
	return 0
}

# disturbed_4 FILE TEXT: the last command exited 4 and FILE says TEXT
# (its reason): what a loaded machine makes of a live measurement, not a
# fault of the code.  Listed as a part not judged here (skip_case), so
# that a loaded run of the tests shows how much it could not check.
disturbed_4() {
	[ "$LAST_RC" -eq 4 ] && flat "$1" | grep -F -q -e "$2" || return 1
	skip_case "$LAST_CMD exited 4 ($2): the machine was not quiet;" \
		"its expected exit is unchecked"
}

# cs CODE args...: expect_exit CODE "$BIN" args...
# A `run` expected to exit 0 may exit 4 when a configuration withheld its
# headline (too many samples with a worker off its CPU: docs/methodology.md
# "The headline"), which depends on the machine's load, not on the code:
# accepted (disturbed_4) when stderr says so.  A test of the withholding
# itself expects 4 (cs 4 ...), which takes nothing else.
cs() {
	_want=$1
	shift
	if [ "$_want" -eq 0 ] && [ "${1:-}" = run ]; then
		LAST_CMD="$BIN $*"
		"$BIN" "$@" >"$OUT" 2>"$ERR"
		LAST_RC=$?
		[ "$LAST_RC" -eq 0 ] && return 0
		disturbed_4 "$ERR" "headline withheld for" && return 0
		fail "expected exit 0, got $LAST_RC"
	fi
	expect_exit "$_want" "$BIN" "$@"
}

# cs_judged CODE args...: as cs, for a command that measures live and is
# judged on what it measured (check BASE).  On a machine that other jobs
# load its new samples may be flagged as disturbed, and "cannot tell"
# (exit 4, "rests on disturbed samples") is then the right answer: it is
# accepted (disturbed_4) and JUDGED is 0; JUDGED is 1 when the command exited CODE, whose
# output the caller then checks.  Any other exit fails.
cs_judged() {
	_want=$1
	shift
	LAST_CMD="$BIN $*"
	"$BIN" "$@" >"$OUT" 2>"$ERR"
	LAST_RC=$?
	JUDGED=1
	[ "$LAST_RC" -eq "$_want" ] && return 0
	if disturbed_4 "$OUT" "rests on disturbed samples"; then
		JUDGED=0
		return 0
	fi
	fail "expected exit $_want (or 4 on disturbed samples), got $LAST_RC"
}

# find_chrome: CHROME is the headless browser's command, "" when none is
# installed (scripts/install-deps.sh installs Debian's chromium).
find_chrome() {
	CHROME=""
	for _c in chromium chromium-browser google-chrome; do
		command -v "$_c" >/dev/null 2>&1 && { CHROME=$_c; return 0; }
	done
	return 0
}

# chrome_dom NAME HTML: the page HTML after its scripts ran, into
# $TMP/NAME.dom (Chromium's log in $TMP/NAME.stderr); fails the test when
# Chromium fails or logs an uncaught error.  Needs find_chrome first.
chrome_dom() {
	note "rendering $1 in $CHROME"
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome-$1" --virtual-time-budget=10000 \
		--dump-dom "file://$2" >"$TMP/$1.dom" 2>"$TMP/$1.stderr" ||
		fail "$CHROME --dump-dom failed on $1 (see $TMP/$1.stderr)"
	grep -q "Uncaught" "$TMP/$1.stderr" &&
		fail "Chromium logged an uncaught error on $1"
	return 0
}

# flat FILE: the file's text with all whitespace runs (newlines included)
# squeezed to one space, so that checks survive the report's line wrapping.
flat() {
	tr -s ' \t\n' '   ' <"$1"
}

# label FILE: how failure messages name FILE.
label() {
	case $1 in
	"$OUT") echo "stdout" ;;
	"$ERR") echo "stderr" ;;
	*) basename "$1" ;;
	esac
}

# contains FILE TEXT: fail unless FILE contains TEXT (fixed string, on one
# line).
contains() {
	grep -F -q -e "$2" "$1" || fail "$(label "$1") lacks '$2'"
}

# not_contains FILE TEXT
not_contains() {
	! grep -F -q -e "$2" "$1" || fail "$(label "$1") contains '$2'"
}

# contains_re FILE ERE: fail unless a line of FILE matches the regex.
contains_re() {
	grep -E -q -e "$2" "$1" || fail "$(label "$1") has no line matching /$2/"
}

# contains_flat FILE TEXT: like contains, but TEXT may be wrapped over lines.
contains_flat() {
	flat "$1" | grep -F -q -e "$2" || fail "$(label "$1") lacks '$2'"
}

# count_matches FILE TEXT: how many lines contain TEXT.
count_matches() {
	grep -F -c -e "$2" "$1"
}

# wait_for TIMEOUT_S COMMAND...: run COMMAND (a command or a shell
# function) every 0.05 s until it succeeds; fail, naming COMMAND, when it
# has not succeeded within TIMEOUT_S seconds of wall-clock time.  This is
# how a test waits for a state (a process exists, a file or a row
# appears, a run is stored) instead of sleeping for a time by which it
# ought to have happened.  COMMAND may call fail itself to give up early
# (the process it waits on ended).
wait_for() {
	_wf_s=$1
	shift
	_wf_end=$(($(date +%s%3N) + _wf_s * 1000))
	until "$@"; do
		[ "$(date +%s%3N)" -lt "$_wf_end" ] ||
			fail "gave up after ${_wf_s}s waiting for: $*"
		sleep 0.05
	done
}

# start_tty OUT LOG cmd...: start cmd in the background with its stdout
# in the file OUT and its stderr on a pseudo-terminal copied to the file
# LOG, so that copyscope writes its progress line there ("growing the
# batch", "warm-up", "sample N/M": the phase a run is in, for wait_for).
# Sets TTY_PID, the launcher (wait for it: it exits with cmd's status, or
# 128+N when signal N ended cmd) and CMD_PID, cmd itself (to signal),
# which is killed when the launcher dies.  Needs python3.
start_tty() {
	rm -f "$TMP/tty.pid"
	python3 - "$TMP/tty.pid" "$@" <<'PY' &
import ctypes, os, pty, signal, sys
pidf, out, log, argv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
m, s = pty.openpty()
pid = os.fork()
if pid == 0:
    os.close(m)
    # PR_SET_PDEATHSIG: cmd dies with the launcher
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(s, 2)
    os.execvp(argv[0], argv)
os.close(s)
with open(pidf + ".new", "w") as f:
    f.write("%d\n" % pid)
os.rename(pidf + ".new", pidf)
with open(log, "wb", buffering=0) as f:
    while True:
        try:
            b = os.read(m, 4096)
        except OSError:
            break
        if not b:
            break
        f.write(b)
st = os.waitpid(pid, 0)[1]
sys.exit(128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else
         os.WEXITSTATUS(st))
PY
	TTY_PID=$!
	wait_for 30 test -s "$TMP/tty.pid"
	CMD_PID=$(cat "$TMP/tty.pid")
}

# log_shows FILE TEXT PID: FILE contains TEXT; fails the test when it
# does not and PID has ended (the text will not come).
log_shows() {
	grep -F -q -e "$2" "$1" && return 0
	kill -0 "$3" 2>/dev/null || {
		[ "$1" = "$ERR" ] || cp "$1" "$ERR"
		fail "pid $3 ended before it wrote '$2'"
	}
	return 1
}

# count_runs [--db PATH]: how many runs `copyscope runs` lists.
count_runs() {
	"$BIN" runs "$@" >"$TMP/runs.out" 2>"$TMP/runs.err" || {
		LAST_RC=$?
		LAST_CMD="$BIN runs $*"
		cp "$TMP/runs.out" "$OUT"
		cp "$TMP/runs.err" "$ERR"
		fail "'copyscope runs' failed"
	}
	grep -E -c '^ *[0-9]+ +[0-9]{4}-[0-9]{2}-[0-9]{2} ' "$TMP/runs.out"
}

# need_python: skip the test when python3 is missing.
need_python() {
	command -v python3 >/dev/null 2>&1 ||
		skip "python3 is not installed (needed to check JSON)"
}

# need_sqlite3: skip the test when the sqlite3 shell is missing.
need_sqlite3() {
	command -v sqlite3 >/dev/null 2>&1 ||
		skip "the sqlite3 shell is not installed (needed to inject data)"
}

# run_id: the id in the "stored as run N" line of the last run's stdout.
run_id() {
	sed -n 's/^stored as run \([0-9]*\) .*/\1/p' "$OUT"
}

# Runs with known samples.  A statistic is checked on data with a known
# answer: the runs are measured for real into a stage database of their
# own, exported, their samples replaced by seeded values in the export
# file (tests/smoke/craft_export.py), and imported into COPYSCOPE_DB.  So
# everything else they hold is real, and the tests write their data only
# through `copyscope import`, whose format is promised
# (docs/export-format.md); the schema is not.  The crafted runs' samples
# are all marked as not disturbed: a verdict on made values must not
# depend on how loaded this machine was when it measured them.
#
#   stage $RUN --tag a             measure (cs 0 ... --db $STAGE_DB)
#   made_gauss time/call 1 100     edits of the staged runs' samples
#   made_import                    export, craft, import; MADE_ID
STAGE_DB=$TMP/stage.db
EDITS=$TMP/edits

# stage ARGS...: cs 0 "$BIN" ARGS... --db "$STAGE_DB": real runs in the
# stage database, for made_import; STAGED lists their ids there (comma
# separated: run --runs N stores N runs).  The edits given since the last
# made_import are forgotten.
stage() {
	cs 0 "$@" --db "$STAGE_DB"
	STAGED=$(sed -n -e 's/^stored as run \([0-9]*\) .*/\1/p' \
		-e 's/^[0-9]* of [0-9]* runs stored as group [0-9a-f]*: //p' \
		"$OUT" | tr -d ' ' | paste -s -d, -)
	[ -n "$STAGED" ] || fail "stage: no run was stored"
	STAGED_DB=$STAGE_DB
	: >"$EDITS"
}

# restage DB IDS: the runs IDS (comma separated) already stored in DB
# staged for made_import instead (a crafted copy of a run in COPYSCOPE_DB
# needs made_import --new-uuid, to be a run of its own).
restage() {
	STAGED_DB=$1
	STAGED=$2
	: >"$EDITS"
}

# made_gauss METRIC SEED MEDIAN [COUNT]: the staged runs' METRIC gets
# COUNT (default 10) values drawn around MEDIAN with a 2% spread by a
# generator seeded with SEED.  METRIC "*" is every result, #SEQ the
# result at that seq.
made_gauss() {
	printf 'gauss\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-10}" >>"$EDITS"
}

# made_bimodal METRIC SEED LOW HIGH NHIGH: as made_gauss, 10 values of
# which NHIGH are drawn around HIGH and the others around LOW (1% spread):
# a two-mode sample set with known shares.
made_bimodal() {
	printf 'bimodal\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$EDITS"
}

# made_values METRIC V1 V2...: the staged runs' METRIC gets these values.
made_values() {
	_mv_sel=$1
	shift
	printf 'values\t%s' "$_mv_sel" >>"$EDITS"
	printf '\t%s' "$@" >>"$EDITS"
	printf '\n' >>"$EDITS"
}

# made_ab METRIC SEED B_FACTOR ROUNDS [A2_FACTOR]: the staged ab run's A,
# B and A' (its three METRIC results) get ROUNDS values each around 1000,
# B B_FACTOR times as much and A' A2_FACTOR times (default 1: a control
# that did not move), 2% noise, and one drift of up to +-20% shared by
# the three samples of each round: a paired change with a known answer.
made_ab() {
	printf 'ab\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-1}" \
		>>"$EDITS"
}

# made_flags all|other|none: every sample of the staged runs marked as
# disturbed (with other: by a busy machine, which leaves the headline
# whole, where all keeps each sample's reason, offcpu among them), or
# (the default) none.
made_flags() {
	printf 'flagged\t%s\n' "$1" >>"$EDITS"
}

# made_offcpu I,J,...|none: exactly these samples (0-based) of the staged
# runs flagged offcpu (a worker off its CPU 40% of the window), the others
# quiet: the headline rule's input (docs/methodology.md, "The headline").
made_offcpu() {
	printf 'offcpu\t%s\n' "$1" >>"$EDITS"
}

# made_add FROM METRIC UNIT DIR: beside each result FROM of the staged
# runs, a new result METRIC (UNIT, DIR lower|higher|info), a copy of FROM
# until made_values or made_gauss sets its values: a metric this machine
# cannot measure (the PMU's, where it has none).
made_add() {
	printf 'add\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$EDITS"
}

# made_env KEY VALUE: the staged runs' environment KEY set to VALUE.
made_env() {
	printf 'env\t%s\t%s\n' "$1" "$2" >>"$EDITS"
}

# made_run KEY VALUE: the staged runs' field KEY (host, tag, cmdline or
# boot_id) set to VALUE, as another host's runs would have it.
made_run() {
	printf 'run\t%s\t%s\n' "$1" "$2" >>"$EDITS"
}

# made_copies DB N: the staged runs, with the edits given, imported N
# times into DB, each copy with its own unique id (c1..., c2..., one
# prefix per call) and started 1 ns after the one before; their samples
# and flags as recorded unless an edit says otherwise (craft_export.py
# --copies).
made_copies() {
	_made_n=$((${_made_n:-0} + 1))
	{ printf 'flagged\tas-is\n'; cat "$EDITS"; } >"$EDITS.copies"
	_made_step "$BIN" export "$STAGED" --db "$STAGED_DB" -o "$TMP/staged.jsonl"
	_made_step python3 tests/smoke/craft_export.py "$TMP/staged.jsonl" \
		"$TMP/made.jsonl" --edits "$EDITS.copies" --copies "$2" \
		--new-uuid "c$_made_n"
	_made_step "$BIN" import "$TMP/made.jsonl" --db "$1"
	: >"$EDITS"
}

# _made_step cmd...: one step of made_import, its output in made.out and
# made.err; on failure these are shown as the last command's.
_made_step() {
	LAST_CMD="$*"
	"$@" >"$TMP/made.out" 2>"$TMP/made.err" && return 0
	LAST_RC=$?
	cp "$TMP/made.out" "$OUT"
	cp "$TMP/made.err" "$ERR"
	fail "made_import: $1 failed"
}

# made_import [--new-uuid PREFIX] [--tag TAG]: the staged runs exported,
# crafted with the edits (craft_export.py, which takes these options) and
# imported into COPYSCOPE_DB; MADE_ID lists their ids there (comma
# separated).  $OUT and $ERR keep what the staged run printed.
made_import() {
	_made_step "$BIN" export "$STAGED" --db "$STAGED_DB" -o "$TMP/staged.jsonl"
	_made_step python3 tests/smoke/craft_export.py "$TMP/staged.jsonl" \
		"$TMP/made.jsonl" --edits "$EDITS" "$@"
	_made_step "$BIN" import -v "$TMP/made.jsonl"
	MADE_ID=$(sed -n 's/^imported as run \([0-9]*\) .*/\1/p' \
		"$TMP/made.out" | paste -s -d, -)
	[ -n "$MADE_ID" ] || fail "made_import: nothing was imported" \
		"($(cat "$TMP/made.out"))"
	: >"$EDITS"
}

# need_pg: a fresh PostgreSQL database for this test: PG_URL names it,
# PG_DIR is the server's socket directory, PGBIN holds psql.  The server
# is the one the test runner started (COPYSCOPE_TEST_PG_HOST), else one
# of this test's own (tests/pg-cluster.sh), stopped at exit.  Returns 1
# when there is no PostgreSQL server to be had here.
need_pg() {
	PGBIN=$(tests/pg-cluster.sh bindir 2>/dev/null) || return 1
	if [ -n "${COPYSCOPE_TEST_PG_HOST:-}" ]; then
		PG_DIR=$COPYSCOPE_TEST_PG_HOST
	else
		PG_DIR=$(tests/pg-cluster.sh start 2>"$TMP/pg-start.log") || {
			cat "$TMP/pg-start.log"
			return 1
		}
		PG_STARTED="$PG_STARTED $PG_DIR"
	fi
	pg_newdb
}

# pg_newdb: another fresh database on the same server; PG_URL names it.
_pg_n=0
pg_newdb() {
	_pg_n=$((_pg_n + 1))
	PG_DB=cs_$(echo "$TEST_NAME" | tr -c 'a-z0-9_\n' _)_$$_$_pg_n
	"$PGBIN/psql" -X -q "postgresql:///postgres?host=$PG_DIR" \
		-c "CREATE DATABASE $PG_DB" ||
		fail "cannot create database $PG_DB on $PG_DIR"
	PG_URL="postgresql:///$PG_DB?host=$PG_DIR"
}

# pg_q SQL [URL]: the rows of SQL in PG_URL (or URL), unaligned.
pg_q() {
	"$PGBIN/psql" -X -Atq "${2:-$PG_URL}" -v ON_ERROR_STOP=1 -c "$1" ||
		fail "psql failed: $1"
}

# clone_run DB RUN N: add N copies of run RUN to the SQLite file DB, each
# with its own unique id and a later start, with everything it measured
# (environment, results, samples and their flags, histograms): exported,
# copied by craft_export.py --copies and imported, the promised way, to
# have many runs without measuring each.
clone_run() {
	restage "$1" "$2"
	made_copies "$1" "$3"
}
