#!/bin/sh
# test_store_readonly.sh - a database this user may not write can still be
# read (issue 25 item 15): as user nobody, the read commands (runs, show,
# export, compare, report) read a database owned by root (0644 in a 0755
# directory: opened immutable, as no -wal or -shm can be made there), and
# one of its own made read-only (chmod a-w) in a read-only directory and
# in a writable one (SQLite's read-only mode); nothing is changed in the
# file.  A command that writes (run, import) still refuses, exit 2,
# saying that it writes and that the reading commands can read it.
. "$(dirname "$0")/lib.sh"
need_sqlite3
[ "$(id -u)" -eq 0 ] || skip "needs root (to act as user nobody)"
command -v setpriv >/dev/null 2>&1 || skip "setpriv is not installed"
id nobody >/dev/null 2>&1 || skip "there is no user nobody"

case $BIN in
/*) ;;
*) BIN=$ROOT/$BIN ;;
esac
QUICK="--reps 3 --sample-time 1ms --warmup 0"
NOGROUP=$(id -gn nobody)

# as_nobody CODE args...: cs, as user nobody.
as_nobody() {
	_want=$1
	shift
	expect_exit "$_want" setpriv --reuid=nobody --regid="$NOGROUP" \
		--clear-groups "$BIN" "$@"
}

# read_all DB: every read command reads DB as nobody, and DB is unchanged
# with no -wal or -shm left behind where none could be made.
read_all() {
	sum=$(md5sum <"$1")
	as_nobody 0 runs --db "$1"
	[ "$(grep -E -c '^ *[0-9]+ +[0-9]{4}-' "$OUT")" -eq 2 ] ||
		fail "runs does not list the 2 runs of $1"
	as_nobody 0 show 1 --db "$1"
	contains "$OUT" "sys.null"
	as_nobody 0 export 1 --db "$1"
	contains "$OUT" '"format":"copyscope-export"'
	as_nobody 0 compare 1 2 --db "$1"
	contains "$OUT" "time/call"
	as_nobody 0 report 1 --db "$1" -o "$TMP/pub/r.html"
	[ -s "$TMP/pub/r.html" ] || fail "report -o wrote nothing"
	[ "$(md5sum <"$1")" = "$sum" ] || fail "reading changed $1"
}

chmod 0755 "$TMP"
mkdir -m 1777 "$TMP/pub"
cd "$TMP/pub" || fail "cd $TMP/pub"

note "root's database, 0644 in a 0755 directory, read by nobody"
mkdir -m 0755 "$TMP/root"
db=$TMP/root/results.db
cs 0 run sys.null $QUICK --db "$db"
cs 0 run sys.null $QUICK --db "$db"
chmod 0644 "$db"
read_all "$db"
[ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] || fail "-wal or -shm made"

note "writing to it as nobody: exit 2, saying so"
as_nobody 2 run sys.null $QUICK --db "$db"
contains "$ERR" "Permission denied"
contains "$ERR" "this command writes to the database"
"$BIN" export 1,2 --db "$db" >"$TMP/pub/all.json" 2>"$ERR" ||
	fail "export as root failed"
as_nobody 2 import "$TMP/pub/all.json" --db "$db"
contains "$ERR" "this command writes to the database"

note "nobody's own database made read-only, in a read-only directory"
mkdir -m 0755 "$TMP/nb"
cp "$db" "$TMP/nb/results.db"
chown -R nobody "$TMP/nb"
chmod a-w "$TMP/nb/results.db" "$TMP/nb"
read_all "$TMP/nb/results.db"

note "the same in a directory it may write (SQLite's read-only mode)"
chmod u+w "$TMP/nb"
read_all "$TMP/nb/results.db"
echo "ok"
