#!/bin/sh
# test_file_rw.sh - `run file.rw`: read and write calls on a memfd and on a
# file in tmpdir, verified; the shapes in the notes (ITER_UBUF, ITER_IOVEC,
# preadv2 flags); the fit over a size sweep; the file system named; the
# scratch file never visible in tmpdir and gone after a run, an
# interrupted run and a killed one; a flag the file system refuses listed
# as "cannot run here"; bad sizes, segments and directories refused with
# exit 2.
. "$(dirname "$0")/lib.sh"

DIR=$TMP/scratch
mkdir "$DIR" || fail "mkdir $DIR"
NUM='-?[0-9.]+'
TIME="$NUM (ps|ns|us|ms|s)"
RATE='[0-9.]+ (B|KiB|MiB|GiB|TiB)/s'

# empty_dir: fail unless the scratch directory holds nothing.
empty_dir() {
	[ -z "$(ls -A "$DIR")" ] ||
		fail "files left in tmpdir: $(ls -A "$DIR" | tr '\n' ' ')"
}

note "memfd and file, read and write, two sizes, verified"
cs 0 run file.rw target=memfd,file dir=read,write size=4k,64k verify=1 \
	"tmpdir=$DIR" --quick
contains_flat "$OUT" "file.rw flags=none segs=1 tmpdir=$DIR verify=1"
contains_re "$OUT" "^ +memfd +read +4k +time/call +$TIME "
contains_re "$OUT" "^ +file +write +64k +time/call +$TIME "
contains_re "$OUT" "^ +bandwidth +$RATE "
contains_flat "$OUT" "pread, one buffer: ITER_UBUF, from a memfd (shmem); 1 page, all in the page cache"
contains_flat "$OUT" "pwrite, one buffer: ITER_UBUF, to a file on "
contains_flat "$OUT" "in $DIR; 16 pages, all in the page cache"
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 8 ] ||
	fail "expected 8 'verify: ok' lines"
contains "$OUT" "bytes in 4096 ops checked: 0 lost, 0 duplicated, 0"
contains "$OUT" "least-squares fit over size: time/call = fixed + per byte x size"
# two sizes: the line through both, no R²
contains_re "$OUT" "^ +file +write +$TIME +$TIME +$RATE +- +2\$"
empty_dir

note "the file system is named as mountinfo has it"
fs=$(df -T "$DIR" 2>/dev/null | awk 'NR == 2 { print $2 }')
if [ -n "$fs" ]; then
	contains_flat "$OUT" "a file on $fs"
else
	skip_case "df -T cannot name the file system of $DIR"
fi

note "segs=8: preadv and pwritev, ITER_IOVEC; preadv2 flags"
cs 0 run file.rw target=memfd dir=read,write segs=8 size=4k,64k verify=1 \
	--quick --no-store
contains_flat "$OUT" "preadv, 8 segments: ITER_IOVEC, from a memfd"
contains_flat "$OUT" "pwritev, 8 segments: ITER_IOVEC, to a memfd"
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 4 ] ||
	fail "expected 4 'verify: ok' lines"
cs 0 run file.rw target=memfd flags=zero,hipri size=4k verify=1 --quick \
	--no-store
contains_flat "$OUT" "preadv2(0), one segment: ITER_UBUF"
contains_flat "$OUT" "preadv2(RWF_HIPRI), one segment: ITER_UBUF"
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 2 ] ||
	fail "expected 2 'verify: ok' lines"

note "RWF_NOWAIT: listed as 'cannot run here' where refused, else run"
# shmem refuses RWF_NOWAIT (no FMODE_NOWAIT) on the kernels of today
"$BIN" run file.rw target=memfd flags=nowait size=4k --quick --no-store \
	>"$OUT" 2>"$ERR"
LAST_RC=$?
LAST_CMD="run file.rw target=memfd flags=nowait"
case $LAST_RC in
77)
	contains_flat "$ERR" "file.rw: skipped: preadv2(RWF_NOWAIT) on a memfd (shmem):"
	contains_flat "$ERR" "the file system refuses the flag"
	not_contains "$OUT" "time/call"
	;;
0)
	contains_flat "$OUT" "preadv2(RWF_NOWAIT)"
	skip_case "this kernel's shmem takes RWF_NOWAIT: the refusal is untested"
	;;
*) fail "expected exit 77 or 0" ;;
esac
# a buffered write with RWF_NOWAIT: ext4 refuses it, xfs and btrfs take it
"$BIN" run file.rw target=memfd,file dir=write flags=nowait size=4k \
	"tmpdir=$DIR" verify=1 --quick --no-store >"$OUT" 2>"$ERR"
LAST_RC=$?
LAST_CMD="run file.rw target=memfd,file dir=write flags=nowait"
case $LAST_RC in
77)
	[ "$(count_matches "$ERR" "skipped:")" -eq 2 ] ||
		fail "expected both configurations skipped"
	contains_flat "$ERR" "pwritev2(RWF_NOWAIT) on a file on"
	;;
0)
	contains_flat "$ERR" "pwritev2(RWF_NOWAIT) on a memfd (shmem)"
	contains_flat "$OUT" "pwritev2(RWF_NOWAIT), one segment: ITER_UBUF, to a file"
	contains "$OUT" "verify: ok: "
	;;
*) fail "expected exit 77 or 0" ;;
esac
empty_dir

note "the scratch file never has a name, even while it runs"
# holds_scratch PID: true once PID has a descriptor open on a file in DIR
holds_scratch() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -F -q -e "$DIR/"
}
# start_long: a run of file.rw on a file in DIR that lasts, in the
# background; sets pid once the run holds its scratch file
start_long() {
	"$BIN" run file.rw target=file "tmpdir=$DIR" size=64k --reps 1000 \
		--sample-time 50ms --no-store >"$OUT" 2>"$ERR" &
	pid=$!
	LAST_CMD="run file.rw target=file --reps 1000 (pid $pid)"
	LAST_RC="still running"
	wait_for 30 holds_scratch "$pid"
}
start_long
ls -l "/proc/$pid/fd" | grep -F -q -e "(deleted)" ||
	fail "the scratch file open in the run is not an unlinked file"
empty_dir
kill -INT "$pid"
wait "$pid"
LAST_RC=$?
[ "$LAST_RC" -eq 130 ] || fail "SIGINT: expected exit 130"
empty_dir
start_long
kill -KILL "$pid"
wait "$pid" 2>/dev/null
empty_dir

note "bad sizes, segments and directories: exit 2, nothing stored"
runs=$(count_runs)
cs 2 run file.rw size=0 --quick
contains "$ERR" "size: 0 is out of range (1 .. 64M)"
cs 2 run file.rw size=65M --quick
contains "$ERR" "size: 65M is out of range (1 .. 64M)"
cs 2 run file.rw segs=2000 size=64k --quick
contains "$ERR" "segs: 2000 is out of range (1 .. 1024)"
cs 2 run file.rw segs=8 size=4 --quick
contains_flat "$ERR" "segs: 8 segments of a 4-byte call leave some empty; allowed: 1 .. size (4)"
cs 2 run file.rw target=file tmpdir=/nonexistent/dir --quick
contains_flat "$ERR" "tmpdir: /nonexistent/dir: No such file or directory; give an existing directory this user can write (tmpdir=DIR)"
: >"$TMP/plain"
cs 2 run file.rw target=file "tmpdir=$TMP/plain" --quick
contains_flat "$ERR" "tmpdir: $TMP/plain is not a directory"
cs 2 run file.rw flags=later --quick
contains "$ERR" "flags: 'later' is not one of none, zero, nowait, hipri"
[ "$(count_runs)" -eq "$runs" ] || fail "a refused run was stored"
# target=memfd needs no directory
cs 0 run file.rw target=memfd tmpdir=/nonexistent/dir size=4k --quick \
	--no-store
exit 0
