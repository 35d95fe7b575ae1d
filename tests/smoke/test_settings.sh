#!/bin/sh
# test_settings.sh - ab's kernel settings always come back (issue 34):
# vm//x and vm/./x refused; vm.swappiness and vm/swappiness are one setting;
# a second ab on a key in use exits 2 naming the holder; after kill -9 the
# next command restores a sysctl and a THP setting and says so; each
# terminating signal restores.  Real settings: root only, restored at exit.
. "$(dirname "$0")/lib.sh"
cs 2 ab sys.null --a-sysctl vm//swappiness=1 --b call=gettid
contains "$ERR" "no empty or '.' part"
cs 2 ab sys.null --a-sysctl vm/./swappiness=1 --b call=gettid
[ "$(id -u)" -eq 0 ] || skip "kernel settings: root only"
[ -w /proc/sys/vm/swappiness ] || skip "vm.swappiness is not writable here"
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -w $thp ] || skip "no THP settings here"
export COPYSCOPE_RUN_DIR="$TMP/run"
sw=$(cat /proc/sys/vm/swappiness)
tv=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
nv=never; [ "$tv" = never ] && nv=always
a=$(( sw == 11 ? 12 : 11 ))
trap 'echo $sw >/proc/sys/vm/swappiness; echo $tv >'$thp'; cleanup' EXIT
cs 2 ab sys.null --a-sysctl vm=1 --b call=gettid --no-store
contains "$ERR" "is a directory"
start() {
	"$BIN" ab sys.null --a-sysctl vm.swappiness=$a --b-thp enabled=$nv \
		--rounds 2000 --sample-time 5ms --no-store >"$TMP/bg.out" \
		2>"$TMP/bg.err" &
	pid=$!
	i=0
	until [ "$(cat /proc/sys/vm/swappiness)" = $a ]; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "never changed: $(cat "$TMP/bg.err")"
		sleep 0.05
	done
}
back() {
	[ "$(cat /proc/sys/vm/swappiness)" = "$sw" ] || fail "$1: swappiness not back"
	grep -q "\[$tv\]" $thp || fail "$1: THP enabled not back"
}
note "one file, one owner: a second ab exits 2 naming the first"
start
cs 2 ab sys.null --b-sysctl vm/swappiness=3 --a call=gettid --no-store
contains "$ERR" "in use by copyscope pid $pid"
note "kill -9: the next command restores both and says so"
kill -9 $pid; wait $pid
cs 0 list
contains "$ERR" "restored vm.swappiness"
contains "$ERR" "restored thp:enabled"
back "kill -9"
note "copyscope restore does the same, and says when nothing was left"
start
kill -9 $pid; wait $pid
cs 0 restore
contains "$ERR" "restored vm.swappiness"
contains "$OUT" "restored 2 settings left changed by an ab that died"
back "restore"
cs 0 restore
contains "$OUT" "nothing to restore"
for s in QUIT USR1 USR2 ALRM XCPU VTALRM PROF XFSZ HUP TERM INT; do
	note "SIG$s restores"
	start
	kill -$s $pid; wait $pid
	back "SIG$s"
done
echo "test_settings: ok"
