#!/bin/sh
# test_pg_secrets.sh - a password in a PostgreSQL URL is neither printed
# nor stored, in any form libpq reads it (issue 25 item 5): user:pw@, the
# password= and sslpassword= parameters, and their names percent-encoded
# (pass%77ord=, %70assword=), which libpq decodes.  Each form logs a role
# with a password in to the throw-away server; stdout, stderr and
# runs.cmdline in the shared database must not hold the password, and
# neither must a refused connection's message.  PGPASSWORD is never
# printed or stored either.
. "$(dirname "$0")/lib.sh"
need_pg || skip "no PostgreSQL server here (scripts/install-deps.sh" \
	"installs one)"

role=cs_secrets_$$
pg_q "CREATE ROLE $role LOGIN PASSWORD 'Unused0'" >/dev/null
pg_q "GRANT ALL ON DATABASE $PG_DB TO $role; GRANT ALL ON SCHEMA public
	TO $role" >/dev/null
cs 0 runs --db "$PG_URL"	# the owner makes the tables
pg_q "GRANT ALL ON ALL TABLES IN SCHEMA public TO $role;
	GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO $role" >/dev/null
Q="host=$PG_DIR&user=$role"
n=0
# form URL SECRET: a run stored through URL shows SECRET nowhere
form() {
	n=$((n + 1))
	note "form $n: $1"
	cs 0 run sys.null --quick --tag "form$n" --db "$1"
	contains "$OUT" "stored as run"
	not_contains "$OUT" "$2"
	not_contains "$ERR" "$2"
	cs 0 show last --db "$1"
	not_contains "$OUT" "$2"
	[ "$(pg_q "SELECT count(*) FROM runs WHERE cmdline LIKE '%$2%'")" \
	  = 0 ] || fail "form $n: the password is stored in runs.cmdline"
	# a database that is not there: libpq's message quotes no secret
	bad=$(echo "$1" | sed "s|/$PG_DB?|/nosuchdb_$$?|")
	cs 2 runs --db "$bad"
	contains "$ERR" "nosuchdb_$$"
	not_contains "$ERR" "$2"
}

# the forms masked before issue 25
form "postgresql://$role:S3cretPWa@/$PG_DB?host=$PG_DIR" S3cretPWa
form "postgres://$role:S3cretPWb@/$PG_DB?host=$PG_DIR" S3cretPWb
form "postgresql:///$PG_DB?$Q&password=S3cretPWc" S3cretPWc
form "postgresql:///$PG_DB?password=S3cretPWd&$Q" S3cretPWd
form "postgresql:///$PG_DB?$Q&sslpassword=S3cretPWe" S3cretPWe
form "postgresql:///$PG_DB?$Q&password=S3cretPWf%21x" S3cretPWf
form "postgresql://$role:S3cretPWg@/$PG_DB?host=$PG_DIR&password=S3cretPWg" \
	S3cretPWg
# percent-encoded parameter names
form "postgresql:///$PG_DB?$Q&pass%77ord=S3cretPWh" S3cretPWh
form "postgresql:///$PG_DB?$Q&%70assword=S3cretPWi" S3cretPWi
form "postgresql:///$PG_DB?$Q&%70%61%73%73%77%6f%72%64=S3cretPWj" S3cretPWj
form "postgresql:///$PG_DB?$Q&ssl%70assword=S3cretPWk" S3cretPWk

note "PGPASSWORD is not printed or stored"
expect_exit 0 env PGPASSWORD=S3cretPWenv "$BIN" run sys.null --quick \
	--db "postgresql:///$PG_DB?$Q"
not_contains "$OUT" S3cretPWenv
not_contains "$ERR" S3cretPWenv
[ "$(pg_q "SELECT count(*) FROM environment WHERE value LIKE
	'%S3cretPWenv%'")" = 0 ] || fail "PGPASSWORD is in the environment"
[ "$(pg_q "SELECT count(*) FROM runs WHERE cmdline LIKE '%S3cret%'")" \
  = 0 ] || fail "a password is stored in runs.cmdline"
echo "ok"
