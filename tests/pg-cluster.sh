#!/bin/sh
# pg-cluster.sh - a throw-away PostgreSQL server for the tests and the
# load bench: a cluster made with initdb in a new temporary directory,
# listening only on a Unix socket in that directory (no TCP unless --tls),
# trust authentication, no fsync (its data is thrown away).
#
#   tests/pg-cluster.sh start [--tls PORT]   prints the directory: the
#       socket directory, for postgresql:///DB?host=DIR; with --tls also
#       TCP on 127.0.0.1:PORT, TLS only (hostssl), with a self-signed
#       certificate for CN=localhost in DIR/server.crt
#   tests/pg-cluster.sh stop DIR     stops the server, removes DIR
#   tests/pg-cluster.sh bindir       where initdb, pg_ctl and psql are
#
# The server runs as the caller; as root (initdb refuses to run as root)
# it runs as nobody, in a directory given to nobody.  The database
# superuser is named after the caller (root, or the user), so that the
# caller's libpq connects as it without being told a user.  Exit 77 from
# start: no PostgreSQL server here (install Debian's postgresql).
set -eu

bindir() {
	d=$(pg_config --bindir 2>/dev/null || true)
	if [ -n "$d" ] && [ -x "$d/initdb" ]; then
		echo "$d"
		return 0
	fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$d/initdb" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

# as_server CMD...: run CMD as the user the server runs as.
as_server() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}

start() {
	tls_port=""
	if [ "${1:-}" = "--tls" ]; then
		tls_port=$2
	fi
	bin=$(bindir) || {
		echo "pg-cluster: no PostgreSQL server (initdb) installed" >&2
		exit 77
	}
	# nobody must reach the directory: /tmp, not a private TMPDIR
	if [ "$(id -u)" -eq 0 ]; then
		dir=$(mktemp -d /tmp/copyscope-pg.XXXXXX)
		chown nobody:nogroup "$dir"
	else
		dir=$(mktemp -d "${TMPDIR:-/tmp}/copyscope-pg.XXXXXX")
	fi
	# only the server's user and root (the caller's clients) get in
	chmod 0700 "$dir"
	user=$(id -un)
	if ! as_server "$bin/initdb" -D "$dir/data" -U "$user" -A trust \
		-E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
		cat "$dir/initdb.log" >&2
		rm -rf "$dir"
		echo "pg-cluster: initdb failed" >&2
		exit 1
	fi
	opts="-c listen_addresses='' -k $dir -c fsync=off"
	opts="$opts -c synchronous_commit=off -c full_page_writes=off"
	opts="$opts -c max_connections=120"
	if [ -n "$tls_port" ]; then
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
			-subj /CN=localhost -keyout "$dir/server.key" \
			-out "$dir/server.crt" >/dev/null 2>&1 || {
			rm -rf "$dir"
			echo "pg-cluster: openssl cannot make a certificate" >&2
			exit 1
		}
		chmod 0600 "$dir/server.key"
		chmod 0644 "$dir/server.crt"
		[ "$(id -u)" -eq 0 ] &&
			chown nobody:nogroup "$dir/server.key" "$dir/server.crt"
		# TLS only: no line lets a connection without it in
		printf '%s\n' "local all all trust" \
			"hostssl all all 127.0.0.1/32 trust" \
			>"$dir/pg_hba.tls"
		[ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir/pg_hba.tls"
		opts="-c listen_addresses=127.0.0.1 -p $tls_port -k $dir"
		opts="$opts -c fsync=off -c ssl=on"
		opts="$opts -c ssl_cert_file=$dir/server.crt"
		opts="$opts -c ssl_key_file=$dir/server.key"
		opts="$opts -c hba_file=$dir/pg_hba.tls"
	fi
	if ! as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
		-w -t 60 -o "$opts" start >/dev/null 2>&1; then
		cat "$dir/server.log" >&2 2>/dev/null || true
		as_server "$bin/pg_ctl" -D "$dir/data" -m immediate stop \
			>/dev/null 2>&1 || true
		rm -rf "$dir"
		echo "pg-cluster: the server did not start" >&2
		exit 1
	fi
	echo "$dir"
}

stop() {
	dir=$1
	case $dir in
	*/copyscope-pg.*) ;;
	*)
		echo "pg-cluster: '$dir' is not a directory this script made" >&2
		exit 2
		;;
	esac
	bin=$(bindir) || exit 0
	if [ -f "$dir/data/postmaster.pid" ]; then
		as_server "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 60 \
			stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
}

case ${1:-} in
start)
	shift
	start "$@"
	;;
stop)
	[ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
	stop "$2"
	;;
bindir)
	bindir
	;;
*)
	echo "usage: $0 start [--tls PORT] | stop DIR | bindir" >&2
	exit 2
	;;
esac
