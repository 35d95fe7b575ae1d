/*
 * db.c - the store's connection, whatever its backend: opening (the path
 * or URL decides between SQLite and PostgreSQL), schema migration, the
 * statement functions that pass to the backend's operations, and the
 * small helpers the other store files share (db.h).
 *
 * Every write runs in its own transaction and is rolled back on any
 * error, so a crash, SIGINT, a full disk or a second writer never loses
 * what is already committed.  All values go through bound parameters of
 * prepared statements.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/db.h"
#include "store/target.h"
#include "util/msg.h"

int db_connect_timeout_s;
int db_statement_timeout_s;

void store_set_timeouts(int connect_s, int statement_s)
{
	db_connect_timeout_s = connect_s > 0 ? connect_s : 0;
	db_statement_timeout_s = statement_s > 0 ? statement_s : 0;
}

void db_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void db_err(struct store *st, char *err, size_t errlen, const char *what)
{
	if (st->opening)
		db_set_err(err, errlen, "cannot open database '%s': %s: %s",
			   st->path, what, st->ops->errmsg(st));
	else
		db_set_err(err, errlen, "%s in database '%s': %s", what,
			   st->path, st->ops->errmsg(st));
}

int64_t db_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t db_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void db_copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* ---- statements: the backend's operations ---- */

int db_bind_int64(struct db_stmt *s, int i, int64_t v)
{
	return s->st->ops->bind_int64(s, i, v);
}

int db_bind_double(struct db_stmt *s, int i, double v)
{
	return s->st->ops->bind_double(s, i, v);
}

int db_bind_text(struct db_stmt *s, int i, const char *v, size_t max)
{
	return s->st->ops->bind_text(s, i, v,
				     v ? (max ? strnlen(v, max) :
					  strlen(v)) : 0);
}

int db_bind_null(struct db_stmt *s, int i)
{
	return s->st->ops->bind_text(s, i, NULL, 0);
}

int db_step(struct db_stmt *s)
{
	return s->st->ops->step(s);
}

bool db_col_null(struct db_stmt *s, int col)
{
	return s->st->ops->col_null(s, col);
}

int64_t db_col_int64(struct db_stmt *s, int col)
{
	return s->st->ops->col_int64(s, col);
}

int db_col_int(struct db_stmt *s, int col)
{
	return (int)s->st->ops->col_int64(s, col);
}

double db_col_double(struct db_stmt *s, int col)
{
	return s->st->ops->col_double(s, col);
}

const char *db_col_text(struct db_stmt *s, int col)
{
	return s->st->ops->col_text(s, col);
}

int db_col_dup(struct db_stmt *s, int col, char **out)
{
	const char *t = db_col_text(s, col);

	*out = NULL;
	if (!t)
		return db_col_null(s, col) ? 0 : -1;
	*out = strdup(t);
	return *out ? 0 : -1;
}

int db_reset(struct db_stmt *s)
{
	return s->st->ops->reset(s);
}

int db_finalize(struct db_stmt *s)
{
	return s ? s->st->ops->finalize(s) : 0;
}

int64_t db_changes(struct store *st)
{
	return st->ops->changes(st);
}

int db_exec(struct store *st, const char *sql, char *err, size_t errlen)
{
	if (st->ops->exec(st, sql) == 0)
		return 0;
	if (st->opening)
		db_set_err(err, errlen, "cannot open database '%s': '%s' "
			   "failed: %s", st->path, sql, st->ops->errmsg(st));
	else
		db_set_err(err, errlen, "'%s' failed in database '%s': %s",
			   sql, st->path, st->ops->errmsg(st));
	return -1;
}

int db_prepare(struct store *st, const char *sql, struct db_stmt **s,
	       char *err, size_t errlen)
{
	if (st->ops->prepare(st, sql, s) != 0) {
		db_err(st, err, errlen, "cannot prepare statement");
		*s = NULL;
		return -1;
	}
	return 0;
}

int db_begin_write(struct store *st, char *err, size_t errlen)
{
	return db_exec(st, st->ops->begin_write_sql, err, errlen);
}

int db_begin_read(struct store *st, char *err, size_t errlen)
{
	return db_exec(st, st->ops->begin_read_sql, err, errlen);
}

int db_commit(struct store *st, char *err, size_t errlen)
{
	return db_exec(st, "COMMIT", err, errlen);
}

void db_rollback(struct store *st)
{
	if (!st->ops->in_transaction(st))
		return;		/* the backend already rolled it back */
	if (st->ops->exec(st, "ROLLBACK") != 0)
		msg_error("ROLLBACK failed in database '%s': %s", st->path,
			  st->ops->errmsg(st));
}

int db_step_done(struct store *st, struct db_stmt *s, const char *what,
		 char *err, size_t errlen)
{
	if (db_step(s) != DB_DONE) {
		db_err(st, err, errlen, what);
		(void)db_reset(s);
		return -1;
	}
	if (db_reset(s) != 0) {
		db_err(st, err, errlen, what);
		return -1;
	}
	return 0;
}

int db_step_id(struct store *st, struct db_stmt *s, const char *what,
	       int64_t *id, char *err, size_t errlen)
{
	int rc = db_step(s);

	*id = 0;
	if (rc == DB_ROW) {
		*id = db_col_int64(s, 0);
		rc = db_step(s);
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, what);
		(void)db_reset(s);
		return -1;
	}
	if (db_reset(s) != 0) {
		db_err(st, err, errlen, what);
		return -1;
	}
	return 0;
}

/* ---- the schema ---- */

static int too_new(struct store *st, int v, char *err, size_t errlen)
{
	db_set_err(err, errlen, "cannot open database '%s': its schema "
		   "version %d is newer than this copyscope supports (%d); "
		   "use a newer copyscope", st->path, v, STORE_SCHEMA_VERSION);
	return -1;
}

int db_check_schema(struct store *st, int *v, char *err, size_t errlen)
{
	int n = -1;

	if (st->ops->schema_state(st, v, &n) != 0) {
		db_err(st, err, errlen, "cannot read the schema");
		return -1;
	}
	if (*v > STORE_SCHEMA_VERSION)
		return too_new(st, *v, err, errlen);
	if (*v < 0) {
		db_set_err(err, errlen, "cannot open database '%s': invalid "
			   "schema version %d", st->path, *v);
		return -1;
	}
	if (*v > 0 || n == 0)
		return 0;
	db_set_err(err, errlen, "cannot open database '%s': it holds %d "
		   "table%s, index%s or view%s but no copyscope schema "
		   "version: not a copyscope database (nothing was changed "
		   "in it)", st->path, n, n == 1 ? "" : "s",
		   n == 1 ? "" : "es", n == 1 ? "" : "s");
	return -1;
}

/*
 * A SQLite file at version 2 written between commits fcf9b7e and be65ccb
 * (development builds of 2026-11-30) has runs without group_id, which
 * step 1 -> 2 adds now: add it before step 2 -> 3.  Only SQLite: no
 * PostgreSQL store had version 2 without it, and a failed statement would
 * abort PostgreSQL's transaction.
 */
static int repair_v2_group_id(struct store *st)
{
	struct db_stmt *s;

	if (st->ops != &db_sqlite_ops)
		return 0;
	if (st->ops->prepare(st, "SELECT group_id FROM runs LIMIT 0", &s) == 0)
		return st->ops->finalize(s) == 0 ? 0 : -1;
	return st->ops->exec(st, "ALTER TABLE runs ADD COLUMN group_id TEXT");
}

/*
 * Bring the schema to STORE_SCHEMA_VERSION in one write transaction,
 * holding the schema lock so that openers that come together migrate one
 * after the other.  Even when nothing is to be done the transaction is
 * taken, which (in SQLite) proves the database writable before any
 * measuring starts.
 */
static int migrate(struct store *st, char *err, size_t errlen)
{
	int v;

	if (db_begin_write(st, err, errlen))
		return -1;
	if (st->ops->lock_schema(st) != 0) {
		db_err(st, err, errlen, "cannot lock the schema");
		goto fail;
	}
	if (db_check_schema(st, &v, err, errlen))
		goto fail;
	for (; v < STORE_SCHEMA_VERSION; v++) {
		if ((v == 2 && repair_v2_group_id(st) != 0) ||
		    st->ops->exec(st, st->ops->migrations[v]) != 0 ||
		    st->ops->set_version(st, v + 1) != 0) {
			db_set_err(err, errlen, "cannot open database '%s': "
				   "schema migration %d -> %d failed: %s",
				   st->path, v, v + 1, st->ops->errmsg(st));
			goto fail;
		}
	}
	if (db_commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	db_rollback(st);
	return -1;
}

/* Open target; read_only: for reading only (SQLite, st->read_only). */
static int open_target(const char *target, bool read_only,
		       struct store **out, char *err, size_t errlen)
{
	const struct db_ops *ops;
	struct store *st;
	char *name;

	*out = NULL;
	if (!target || !target[0]) {
		db_set_err(err, errlen, "cannot open database: empty path");
		return -1;
	}
	if (target_ops(target, &ops, err, errlen))
		return -1;
	name = store_mask_secrets(target);
	st = calloc(1, sizeof(*st));
	if (!st || !name) {
		db_set_err(err, errlen, "cannot open database: %s",
			   strerror(ENOMEM));
		free(name);
		free(st);
		return -1;
	}
	st->ops = ops;
	st->read_only = read_only && ops == &db_sqlite_ops;
	db_copy_str(st->path, sizeof(st->path), name);
	free(name);
	st->opening = true;
	if (ops->open(st, target, err, errlen))
		goto fail;
	if (!st->read_only && migrate(st, err, errlen))
		goto fail;
	st->opening = false;
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

int store_open(const char *target, struct store **out, char *err,
	       size_t errlen)
{
	return open_target(target, false, out, err, errlen);
}

/* The directory of path (a file's path) in dir. */
static void dir_of(const char *path, char *dir, size_t size)
{
	char *slash;

	db_copy_str(dir, size, path);
	slash = strrchr(dir, '/');
	if (!slash)
		db_copy_str(dir, size, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
}

int store_open_read(const char *target, struct store **out, char *err,
		    size_t errlen)
{
	char dir[PATH_MAX];
	bool ro = false;

	if (target && target[0] && !store_is_url(target) &&
	    access(target, F_OK) == 0) {
		dir_of(target, dir, sizeof(dir));
		ro = faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 ||
		     faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) != 0;
	}
	return open_target(target, ro, out, err, errlen);
}

bool store_is_read_only(const struct store *st)
{
	return st->read_only;
}

const char *store_file(const struct store *st)
{
	return st->ops == &db_sqlite_ops ? st->file : NULL;
}

/*
 * How many results the run uuid has in st: 0 with *nres set, 1 when
 * there is no such run, -1 on error (message in err).
 */
static int count_results(struct store *st, const char *uuid, int64_t *nres,
			 char *err, size_t errlen)
{
	struct db_stmt *s;
	int rc, ret = -1;

	*nres = 0;
	if (db_prepare(st, "SELECT (SELECT count(*) FROM results r WHERE "
		       "r.run_id = u.id) FROM runs u WHERE u.uuid = ?", &s,
		       err, errlen))
		return -1;
	if (db_bind_text(s, 1, uuid, 0) == 0) {
		rc = db_step(s);
		if (rc == DB_ROW)
			*nres = db_col_int64(s, 0);
		if (rc == DB_ROW || rc == DB_DONE)
			ret = rc == DB_ROW ? 0 : 1;
	}
	if (ret < 0)
		db_err(st, err, errlen, "cannot read the run back");
	if (db_finalize(s) && ret >= 0) {
		db_err(st, err, errlen, "cannot read the run back");
		ret = -1;
	}
	return ret;
}

int store_check_stored(struct store *st, const char *uuid, size_t nresults,
		       char *err, size_t errlen)
{
	struct store *rd = st;
	int64_t n = 0;
	int rc = -1;

	if (!st->ops->open_again ||
	    st->ops->open_again(st, &rd, err, errlen) == 0)
		rc = count_results(rd, uuid, &n, err, errlen);
	if (rc == 1)
		db_set_err(err, errlen, "the run is not in the database at "
			   "'%s' (its files were removed or replaced while "
			   "it ran)", st->path);
	else if (rc == 0 && n != (int64_t)nresults)
		db_set_err(err, errlen, "the run reads back from '%s' with "
			   "%lld of its %zu results", st->path, (long long)n,
			   nresults);
	if (rd != st)
		store_close(rd);
	if (rc == 0 && n == (int64_t)nresults)
		return 0;
	/* what this connection holds must not overwrite the file's pages */
	if (st->ops->forget_wal)
		st->ops->forget_wal(st);
	return -1;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->conn)
		st->ops->close(st);
	free(st);
}

int store_default_path(char *buf, size_t len)
{
	const char *v;
	int n;

	v = getenv("COPYSCOPE_DB");
	if (v && v[0]) {
		n = snprintf(buf, len, "%s", v);
	} else if ((v = getenv("XDG_DATA_HOME")) && v[0] == '/') {
		/* XDG: relative values are invalid and ignored */
		n = snprintf(buf, len, "%s/copyscope/results.db", v);
	} else if ((v = getenv("HOME")) && v[0]) {
		n = snprintf(buf, len, "%s/.local/share/copyscope/results.db",
			     v);
	} else {
		return -1;
	}
	if (n < 0 || (size_t)n >= len)
		return -1;
	return 0;
}

int store_schema_version(struct store *st)
{
	int v, n;

	if (st->ops->schema_state(st, &v, &n) != 0)
		return -1;
	return v;
}
