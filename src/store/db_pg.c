/*
 * db_pg.c - the PostgreSQL backend of the store (db.h: struct db_ops), the
 * shared store of a lab, through libpq.
 *
 * The database is named by a libpq URL (postgresql://user@host/db?...),
 * handed to libpq as it is, so every libpq option (sslmode, sslrootcert,
 * sslcert, connect_timeout, ...) passes through; copyscope only adds
 * fallbacks (application name, a 10 s connect timeout unless the URL or
 * PGCONNECT_TIMEOUT has one) and insists on UTF-8 as the client
 * encoding.  Statements are the store's SQL with its '?' parameters
 * numbered $1, $2...; values travel as text, and run with
 * PQexecParams when the statement is first stepped.  PostgreSQL text must
 * be valid UTF-8: a value that is not (a path in a command line) is
 * stored with its bad bytes written as \xNN.
 *
 * The schema version lives in the table copyscope_schema; openers that
 * find the schema to be made or migrated take an advisory lock inside
 * their transaction, so that one migrates and the others then find it
 * done.
 */
#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "store/db.h"
#include "store/target.h"
#include "util/msg.h"

/* The key of the advisory lock that guards the schema: "copyscop". */
#define SCHEMA_LOCK_KEY "7164793353591877488"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The oldest server with what the schema needs (identity columns). */
#define PG_MIN_VERSION 100000

struct pg_stmt {
	struct db_stmt base;
	char *sql;		/* with $1, $2... */
	int nparams;
	char **values;		/* [nparams]: text, NULL for SQL NULL */
	PGresult *res;		/* after the first step */
	int row;		/* the current row */
};

static PGconn *conn(struct store *st)
{
	return st->conn;
}

static struct pg_stmt *ps(struct db_stmt *s)
{
	return (struct pg_stmt *)s;
}

/* msg into st->lasterr as one line (libpq's messages have newlines). */
static void set_lasterr(struct store *st, const char *msg)
{
	size_t i, n = 0;

	for (i = 0; msg && msg[i] && n + 1 < sizeof(st->lasterr); i++) {
		char c = msg[i] == '\n' || msg[i] == '\t' ? ' ' : msg[i];

		if (c == ' ' && (n == 0 || st->lasterr[n - 1] == ' '))
			continue;
		st->lasterr[n++] = c;
	}
	while (n > 0 && st->lasterr[n - 1] == ' ')
		n--;
	st->lasterr[n] = '\0';
	if (!n)
		db_copy_str(st->lasterr, sizeof(st->lasterr),
			    "unknown error");
}

/* The error of a failed command: its message and detail, one line. */
static void result_err(struct store *st, const PGresult *res)
{
	const char *prim = res ? PQresultErrorField(res,
						    PG_DIAG_MESSAGE_PRIMARY) :
		NULL;
	const char *det = res ? PQresultErrorField(res,
						   PG_DIAG_MESSAGE_DETAIL) :
		NULL;
	char buf[sizeof(st->lasterr)];

	if (!prim) {
		set_lasterr(st, PQerrorMessage(conn(st)));
		return;
	}
	snprintf(buf, sizeof(buf), "%s%s%s%s", prim, det ? " (" : "",
		 det ? det : "", det ? ")" : "");
	set_lasterr(st, buf);
}

static const char *pg_errmsg(struct store *st)
{
	return st->lasterr[0] ? st->lasterr : "unknown error";
}

/* A command's outcome: 0 (rows changed in st->changes) or -1. */
static int check_result(struct store *st, PGresult *res)
{
	ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	const char *n;

	if (!res && st->dead)
		return -1;	/* lasterr says so */
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		result_err(st, res);
		return -1;
	}
	n = PQcmdTuples(res);
	st->changes = n && *n ? strtoll(n, NULL, 10) : 0;
	return 0;
}

/* The statement timeout in seconds, as set or the default. */
static int statement_s(void)
{
	return db_statement_timeout_s > 0 ? db_statement_timeout_s :
		DB_STATEMENT_TIMEOUT_S;
}

/* The connection is given up: the server did not answer in time. */
static PGresult *timed_out(struct store *st)
{
	st->dead = true;
	snprintf(st->lasterr, sizeof(st->lasterr), "no answer from the "
		 "server within %d s (the statement timeout; push "
		 "--statement-timeout-s sets it)", statement_s());
	return NULL;
}

/*
 * Wait for the answer to the command just sent on the nonblocking
 * connection, as PQexec would but for at most the statement timeout and
 * 2 s (the server's own statement_timeout ends a slow statement first,
 * with its own message; this ends the wait for a server that cannot
 * answer).  Returns the last result, or NULL (st->lasterr says why when
 * the wait timed out; else PQerrorMessage does).
 */
static PGresult *await_result(struct store *st)
{
	PGconn *c = conn(st);
	int64_t end_ns = db_mono_ns() +
		((int64_t)statement_s() + 2) * 1000000000;
	PGresult *res, *last = NULL;
	struct pollfd pfd;
	int64_t left_ns;
	int f;

	for (;;) {
		f = PQflush(c);
		if (f < 0 || !PQconsumeInput(c))
			break;
		while (f == 0 && !PQisBusy(c)) {
			res = PQgetResult(c);
			if (!res)
				return last;
			PQclear(last);
			last = res;
		}
		left_ns = end_ns - db_mono_ns();
		if (left_ns <= 0) {
			PQclear(last);
			return timed_out(st);
		}
		pfd.fd = PQsocket(c);
		pfd.events = (short)(POLLIN | (f == 1 ? POLLOUT : 0));
		pfd.revents = 0;
		if (poll(&pfd, 1, (int)(left_ns / 1000000) + 1) < 0 &&
		    errno != EINTR)
			break;
	}
	PQclear(last);
	return NULL;
}

/* PQexec(sql), bounded by the statement timeout. */
static PGresult *exec_sql(struct store *st, const char *sql)
{
	if (st->dead)
		return NULL;
	if (!PQsendQuery(conn(st), sql))
		return NULL;
	return await_result(st);
}

static int pg_exec(struct store *st, const char *sql)
{
	PGresult *res = exec_sql(st, sql);
	int rc = check_result(st, res);

	PQclear(res);
	return rc;
}

/*
 * The store's SQL with each '?' outside quotes numbered: $1, $2...
 * (malloc'ed; NULL on ENOMEM); *n gets the count.
 */
static char *number_params(const char *sql, int *n)
{
	char *out = malloc(strlen(sql) * 6 + 1), *o = out, quote = 0;
	const char *p;

	*n = 0;
	if (!out)
		return NULL;
	for (p = sql; *p; p++) {
		if (quote) {
			quote = *p == quote ? 0 : quote;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '?') {
			o += sprintf(o, "$%d", ++*n);
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static int pg_prepare(struct store *st, const char *sql,
		      struct db_stmt **out)
{
	struct pg_stmt *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		goto nomem;
	s->base.st = st;
	s->sql = number_params(sql, &s->nparams);
	s->values = calloc((size_t)s->nparams + 1, sizeof(char *));
	if (!s->sql || !s->values)
		goto nomem;
	*out = &s->base;
	return 0;
nomem:
	if (s) {
		free(s->sql);
		free(s->values);
		free(s);
	}
	set_lasterr(st, strerror(ENOMEM));
	return -1;
}

/* Parameter i (from 1) gets the text v (owned now; NULL: SQL NULL). */
static int set_param(struct db_stmt *s, int i, char *v, bool null)
{
	struct pg_stmt *p = ps(s);

	if (i < 1 || i > p->nparams) {
		free(v);
		set_lasterr(s->st, "parameter index out of range");
		return -1;
	}
	if (!v && !null) {
		set_lasterr(s->st, strerror(ENOMEM));
		return -1;
	}
	free(p->values[i - 1]);
	p->values[i - 1] = v;
	return 0;
}

static int pg_bind_int64(struct db_stmt *s, int i, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return set_param(s, i, strdup(buf), false);
}

static int pg_bind_double(struct db_stmt *s, int i, double v)
{
	char buf[40];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "NaN");
	else if (isinf(v))
		snprintf(buf, sizeof(buf), "%sInfinity", v < 0 ? "-" : "");
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	return set_param(s, i, strdup(buf), false);
}

static int pg_bind_text(struct db_stmt *s, int i, const char *v, size_t len)
{
	char *copy, *clean;

	if (!v)
		return set_param(s, i, NULL, true);
	copy = strndup(v, len);
	if (!copy)
		return set_param(s, i, NULL, false);
	/* PostgreSQL text is UTF-8: bad bytes become \xNN */
	clean = codec_clean_text(copy, false);
	free(copy);
	return set_param(s, i, clean, false);
}

static int pg_step(struct db_stmt *s)
{
	struct pg_stmt *p = ps(s);

	if (!p->res) {
		p->res = NULL;
		if (!s->st->dead &&
		    PQsendQueryParams(conn(s->st), p->sql, p->nparams, NULL,
				      (const char *const *)p->values, NULL,
				      NULL, 0))
			p->res = await_result(s->st);
		if (check_result(s->st, p->res) != 0) {
			PQclear(p->res);
			p->res = NULL;
			return DB_ERROR;
		}
		p->row = -1;
	}
	if (p->row < PQntuples(p->res))
		p->row++;
	return p->row < PQntuples(p->res) ? DB_ROW : DB_DONE;
}

/* The current row's column col, or NULL (no row, no column, NULL). */
static const char *value(struct db_stmt *s, int col)
{
	struct pg_stmt *p = ps(s);

	if (!p->res || p->row < 0 || p->row >= PQntuples(p->res) ||
	    col < 0 || col >= PQnfields(p->res) ||
	    PQgetisnull(p->res, p->row, col))
		return NULL;
	return PQgetvalue(p->res, p->row, col);
}

static bool pg_col_null(struct db_stmt *s, int col)
{
	return value(s, col) == NULL;
}

static int64_t pg_col_int64(struct db_stmt *s, int col)
{
	const char *v = value(s, col);

	return v ? strtoll(v, NULL, 10) : 0;
}

static double pg_col_double(struct db_stmt *s, int col)
{
	const char *v = value(s, col);

	return v ? strtod(v, NULL) : 0.0;
}

static const char *pg_col_text(struct db_stmt *s, int col)
{
	return value(s, col);
}

static int pg_reset(struct db_stmt *s)
{
	struct pg_stmt *p = ps(s);
	int i;

	PQclear(p->res);
	p->res = NULL;
	for (i = 0; i < p->nparams; i++) {
		free(p->values[i]);
		p->values[i] = NULL;
	}
	return 0;
}

static int pg_finalize(struct db_stmt *s)
{
	struct pg_stmt *p = ps(s);

	pg_reset(s);
	free(p->values);
	free(p->sql);
	free(p);
	return 0;
}

static int64_t pg_changes(struct store *st)
{
	return st->changes;
}

static bool pg_in_transaction(struct store *st)
{
	PGTransactionStatusType t = PQtransactionStatus(conn(st));

	if (st->dead)
		return false;	/* nothing to roll back from here */
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR ||
		t == PQTRANS_ACTIVE;
}

static int pg_lock_schema(struct store *st)
{
	return pg_exec(st, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK_KEY
		       ")");
}

/* The first column of the first row of a one-value query, as int64. */
static int query_int(struct store *st, const char *sql, int64_t *v)
{
	PGresult *res = exec_sql(st, sql);
	int rc = check_result(st, res);

	*v = 0;
	if (rc == 0 && PQntuples(res) == 1 && PQnfields(res) >= 1 &&
	    !PQgetisnull(res, 0, 0))
		*v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return rc;
}

/*
 * DIALECT: the version from copyscope_schema (0 when there is no such
 * table), and the tables, indexes, views and sequences of the schema the
 * tables go to besides it.
 */
static int pg_schema_state(struct store *st, int *version, int *nobjects)
{
	int64_t have, n, v = 0;

	*version = 0;
	*nobjects = -1;
	if (query_int(st, "SELECT CAST(to_regclass('copyscope_schema') IS NOT "
		      "NULL AS INTEGER)", &have) != 0 ||
	    query_int(st, "SELECT count(*) FROM pg_class c JOIN "
		      "pg_namespace s ON s.oid = c.relnamespace WHERE "
		      "s.nspname = current_schema() AND c.relname <> "
		      "'copyscope_schema'", &n) != 0)
		return -1;
	if (have && query_int(st, "SELECT coalesce(max(version), 0) FROM "
			      "copyscope_schema", &v) != 0)
		return -1;
	*version = v > INT32_MAX ? INT32_MAX : (int)v;
	*nobjects = n > INT32_MAX ? INT32_MAX : (int)n;
	return 0;
}

static int pg_set_version(struct store *st, int version)
{
	char sql[200];

	/* a constant from this code, not a value from outside */
	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS "
		 "copyscope_schema (version INTEGER NOT NULL); DELETE FROM "
		 "copyscope_schema; INSERT INTO copyscope_schema VALUES (%d)",
		 version);
	return pg_exec(st, sql);
}

/*
 * The server's notices ("relation already exists, skipping") are not for
 * the user; its warnings are, once each.
 */
static void on_notice(void *arg, const PGresult *res)
{
	struct store *st = arg;
	const char *sev = PQresultErrorField(res,
					     PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (sev && strcmp(sev, "WARNING") == 0 && msg)
		msg_error("warning from database '%s': %s", st->path, msg);
}

/*
 * The connection parameters: copyscope's fallbacks, then the URL (which
 * overrides them), then what copyscope insists on.  kw and val have room
 * for PG_NKW entries; num holds the numbers' text.
 */
#define PG_NKW 12
static void conn_params(const char *url, const char **kw, const char **val,
			char num[2][32])
{
	int n = 0;

	kw[n] = "fallback_application_name";
	val[n++] = "copyscope";
	if (!getenv("PGCONNECT_TIMEOUT") && db_connect_timeout_s <= 0) {
		kw[n] = "connect_timeout";
		val[n++] = STR(DB_CONNECT_TIMEOUT_S);
	}
	kw[n] = "keepalives";
	val[n++] = "1";
	kw[n] = "keepalives_idle";
	val[n++] = "30";
	kw[n] = "keepalives_interval";
	val[n++] = "10";
	kw[n] = "keepalives_count";
	val[n++] = "3";
	if (!getenv("PGOPTIONS")) {
		snprintf(num[0], sizeof(num[0]), "-c statement_timeout=%d",
			 statement_s() * 1000);
		kw[n] = "options";
		val[n++] = num[0];
	}
	kw[n] = "dbname";
	val[n++] = url;
	if (db_connect_timeout_s > 0) {
		snprintf(num[1], sizeof(num[1]), "%d", db_connect_timeout_s);
		kw[n] = "connect_timeout";
		val[n++] = num[1];
	}
	kw[n] = "client_encoding";
	val[n++] = "UTF8";
	kw[n] = NULL;
	val[n] = NULL;
}

static int pg_open(struct store *st, const char *url, char *err,
		   size_t errlen)
{
	const char *kw[PG_NKW], *val[PG_NKW];
	char msg[sizeof(st->lasterr)], num[2][32];
	int ver;

	conn_params(url, kw, val, num);
	st->conn = PQconnectdbParams(kw, val, 1);
	if (!st->conn) {
		db_set_err(err, errlen, "cannot open database '%s': %s",
			   st->path, strerror(ENOMEM));
		return -1;
	}
	if (PQstatus(conn(st)) != CONNECTION_OK) {
		set_lasterr(st, PQerrorMessage(conn(st)));
		/* libpq may quote a piece of the URL: never its password */
		target_scrub(url, st->lasterr, sizeof(st->lasterr));
		db_set_err(err, errlen, "cannot open database '%s': %s",
			   st->path, st->lasterr);
		return -1;
	}
	/* every wait for the server is then bounded (await_result) */
	if (PQsetnonblocking(conn(st), 1) != 0) {
		set_lasterr(st, PQerrorMessage(conn(st)));
		db_set_err(err, errlen, "cannot open database '%s': %s",
			   st->path, st->lasterr);
		return -1;
	}
	PQsetNoticeReceiver(conn(st), on_notice, st);
	ver = PQserverVersion(conn(st));
	if (ver < PG_MIN_VERSION) {
		snprintf(msg, sizeof(msg), "the server is PostgreSQL %d.%d; "
			 "copyscope needs %d or newer", ver / 10000,
			 ver / 100 % 100, PG_MIN_VERSION / 10000);
		db_set_err(err, errlen, "cannot open database '%s': %s",
			   st->path, msg);
		return -1;
	}
	return 0;
}

static void pg_close(struct store *st)
{
	PQfinish(conn(st));
	st->conn = NULL;
}

const struct db_ops db_pg_ops = {
	.name = "PostgreSQL",
	.open = pg_open,
	.close = pg_close,
	.errmsg = pg_errmsg,
	.exec = pg_exec,
	.prepare = pg_prepare,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.step = pg_step,
	.col_null = pg_col_null,
	.col_int64 = pg_col_int64,
	.col_double = pg_col_double,
	.col_text = pg_col_text,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.changes = pg_changes,
	.in_transaction = pg_in_transaction,
	.begin_write_sql = "BEGIN",
	.begin_read_sql = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
	.lock_schema = pg_lock_schema,
	.schema_state = pg_schema_state,
	.set_version = pg_set_version,
	.migrations = store_migrations_pg,
};
