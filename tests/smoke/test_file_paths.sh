#!/bin/sh
# test_file_paths.sh - `run file.splice`, `file.sendfile`, `file.copy` and
# the suite iter: splice file -> pipe, pipe -> file and tee, sendfile to
# /dev/null and to a socket pair, copy_file_range, each on a memfd and on
# a file in tmpdir, verified (the bytes that arrive are the bytes sent);
# the fits; copy_file_range across file systems listed as "cannot run
# here" with the kernel's reason; bad sizes refused with exit 2; nothing
# left in tmpdir.
. "$(dirname "$0")/lib.sh"

DIR=$TMP/scratch
mkdir "$DIR" || fail "mkdir $DIR"
TIME='-?[0-9.]+ (ps|ns|us|ms|s)'

empty_dir() {
	[ -z "$(ls -A "$DIR")" ] ||
		fail "files left in tmpdir: $(ls -A "$DIR" | tr '\n' ' ')"
}

note "file.splice: to_pipe, from_pipe, tee on a memfd and a file, verified"
cs 0 run file.splice call=to_pipe,from_pipe,tee target=memfd,file \
	size=4k,64k verify=1 "tmpdir=$DIR" --quick --no-store
contains_re "$OUT" "^ +to_pipe +memfd +4k +time/op +$TIME "
contains_re "$OUT" "^ +tee +file +64k +time/op +$TIME "
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 12 ] ||
	fail "expected 12 'verify: ok' lines"
contains_flat "$OUT" "splice from a memfd (shmem) into a 64 KiB pipe, then from the pipe to /dev/null: page references only, no copy"
contains_flat "$OUT" "then from the pipe into a file on"
contains_flat "$OUT" "the copy (ITER_BVEC)"
contains_flat "$OUT" "tee from a 64 KiB pipe holding pages of a file on"
contains "$OUT" "least-squares fit over size: time/op = fixed + per byte x size"
contains_re "$OUT" "^ +from_pipe +file +$TIME +$TIME "
empty_dir

note "a 1 MiB splice gets a pipe that holds it"
cs 0 run file.splice call=from_pipe target=memfd size=1M verify=1 --quick \
	--no-store
contains_flat "$OUT" "into a 1 MiB pipe"
contains "$OUT" "verify: ok: "

note "file.sendfile: to /dev/null (counted) and to a socket pair (checked)"
cs 0 run file.sendfile to=null,socket target=memfd,file size=4k,1M \
	verify=1 "tmpdir=$DIR" --quick --no-store
contains_re "$OUT" "^ +socket +file +1M +time/op +$TIME "
contains_re "$OUT" '^ +calls/op +[0-9.]+ calls '
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 8 ] ||
	fail "expected 8 'verify: ok' lines"
contains_flat "$OUT" "ops each moved their full size; no bytes arrive anywhere to be checked"
flat "$OUT" | grep -E -q "verify: ok: [0-9]+ bytes in [0-9]+ ops checked: 0 lost, 0 duplicated, 0 corrupted" ||
	fail "no checked verify report for to=socket"
contains_flat "$OUT" "sendfile from a memfd (shmem) to /dev/null: page references through the splice pipe, no copy"
contains_flat "$OUT" "to an AF_UNIX stream socket (send buffer"
empty_dir

note "file.copy: copy_file_range memfd -> memfd and file -> file, verified"
cs 0 run file.copy target=memfd,file size=4k,64k verify=1 "tmpdir=$DIR" \
	--quick --no-store
contains_re "$OUT" "^ +memfd +4k +time/call +$TIME "
contains_re "$OUT" "^ +file +64k +time/call +$TIME "
[ "$(count_matches "$OUT" "verify: ok: ")" -eq 4 ] ||
	fail "expected 4 'verify: ok' lines"
contains_flat "$OUT" "copy_file_range from a memfd (shmem) to another like it;"
flat "$OUT" | grep -E -q "no clone here \(FICLONE: |FICLONE works here" ||
	fail "the note does not say whether a clone is possible"
empty_dir

note "copy_file_range across file systems: cannot run here, with why"
cs 77 run file.copy target=file to=memfd size=4k "tmpdir=$DIR" --quick \
	--no-store
contains_flat "$ERR" "file.copy: skipped: copy_file_range from a file on"
contains_flat "$ERR" "to a memfd (shmem): Invalid cross-device link: the kernel copies across file systems only where both have the same ->copy_file_range (NFS, CIFS); use to=same"
not_contains "$OUT" "time/call"
# one of two configurations cannot run: the other runs, exit 0
cs 0 run file.copy target=memfd to=same,file size=4k "tmpdir=$DIR" \
	--quick --no-store
contains "$ERR" "file.copy: skipped: copy_file_range from a memfd (shmem) to a file on"
contains_flat "$OUT" "file.copy target=memfd to=same size=4k"
contains_re "$OUT" "^ +time/call +$TIME "
empty_dir

note "bad sizes: exit 2"
cs 2 run file.splice size=0 --quick --no-store
contains "$ERR" "size: 0 is out of range (1 .. 64M)"
cs 2 run file.sendfile size=1G --quick --no-store
contains "$ERR" "size: 1G is out of range (1 .. 64M)"
cs 2 run file.copy size=4x --quick --no-store
contains "$ERR" "size: '4x' is not a size"
cs 2 run file.copy to=elsewhere --quick --no-store
contains "$ERR" "to: 'elsewhere' is not one of same, memfd, file"
cs 2 run file.splice call=tee target=file tmpdir=/nonexistent --quick \
	--no-store
contains "$ERR" "tmpdir: /nonexistent: No such file or directory"
max=$(cat /proc/sys/fs/pipe-max-size 2>/dev/null)
if [ "$(id -u)" -ne 0 ] && [ -n "$max" ] && [ "$max" -lt 67108864 ]; then
	cs 2 run file.splice size=64M --quick --no-store
	contains_flat "$ERR" "size: a 67108864-byte op needs a pipe that holds it: pipe_size:"
	contains "$ERR" "pipe-max-size"
else
	skip_case "a splice larger than fs.pipe-max-size is refused only without CAP_SYS_RESOURCE (root here)"
fi

note "suite iter --explain: every shape, fitted, per byte against memcpy"
cs 0 run iter --explain --quick --no-store -v "tmpdir=$DIR"
for w in file.rw file.splice file.sendfile file.copy mem.copy; do
	contains_re "$OUT" "^$(echo "$w" | sed 's/\./\\./') "
done
contains_flat "$OUT" "segs=16"
contains_flat "$OUT" "preadv2(RWF_NOWAIT)"
contains_re "$OUT" '^ +least-squares fit over size'
# mem.copy runs once per engine for all the file workloads' sizes
[ "$(grep -c '^mem\.copy ' "$OUT")" -le 2 ] ||
	fail "the floors ran more than once per engine"
n=$(count_matches "$OUT" "per byte against mem.copy: file.")
if grep -q "skipped" "$ERR"; then
	[ "$n" -ge 1 ] || fail "no per-byte explanation"
	skip_case "some iter configurations cannot run here: $(grep skipped "$ERR" | head -1)"
else
	# file.rw 4 + 1 + 1, file.splice 3, file.sendfile 1, file.copy 1
	[ "$n" -eq 11 ] || fail "expected 11 per-byte blocks, got $n"
fi
contains_flat "$OUT" "per byte against mem.copy: file.copy target=file to=same"
contains_flat "$OUT" "file.splice moves a byte in"
empty_dir
exit 0
