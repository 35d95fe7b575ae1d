/*
 * db.c - the store's connection: opening (creating the file and its
 * directories, WAL mode, a 5 s busy timeout, foreign keys), schema
 * migration, and the small helpers the other store files share (db.h).
 *
 * Every write runs in its own BEGIN IMMEDIATE ... COMMIT transaction and
 * is rolled back on any error, so a crash, SIGINT, a full disk or a second
 * writer never loses what is already committed.  All values go through
 * bound parameters of prepared statements.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/db.h"

#define BUSY_TIMEOUT_MS 5000

void db_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void db_err(struct store *st, char *err, size_t errlen,
		   const char *what)
{
	if (st->opening)
		db_set_err(err, errlen, "cannot open database '%s': %s: %s",
			st->path, what, sqlite3_errmsg(st->db));
	else
		db_set_err(err, errlen, "%s in database '%s': %s", what,
			st->path, sqlite3_errmsg(st->db));
}

int64_t db_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void db_copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

const char *db_col_text(sqlite3_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(s, col);
}

/* malloc'ed copy of a text column, NULL for SQL NULL; -1 on ENOMEM. */
int db_col_dup(sqlite3_stmt *s, int col, char **out)
{
	const char *t = db_col_text(s, col);

	*out = NULL;
	if (!t)
		return sqlite3_column_type(s, col) == SQLITE_NULL ? 0 : -1;
	*out = strdup(t);
	return *out ? 0 : -1;
}

int db_exec(struct store *st, const char *sql, char *err,
		    size_t errlen)
{
	char *msg = NULL;
	int rc;

	rc = sqlite3_exec(st->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK && st->opening) {
		db_set_err(err, errlen, "cannot open database '%s': '%s' failed: "
			"%s", st->path, sql, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	} else if (rc != SQLITE_OK) {
		db_set_err(err, errlen, "'%s' failed in database '%s': %s",
			sql, st->path, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int db_prepare(struct store *st, const char *sql, sqlite3_stmt **s,
		   char *err, size_t errlen)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot prepare statement");
		*s = NULL;
		return -1;
	}
	return 0;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int db_begin_write(struct store *st, char *err, size_t errlen)
{
	return db_exec(st, "BEGIN IMMEDIATE", err, errlen);
}

int db_commit(struct store *st, char *err, size_t errlen)
{
	return db_exec(st, "COMMIT", err, errlen);
}

/* Roll back an open transaction; the error already in err is kept. */
void db_rollback(struct store *st)
{
	if (sqlite3_get_autocommit(st->db))
		return;		/* SQLite already rolled it back */
	if (sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
		fprintf(stderr, "copyscope: ROLLBACK failed in database "
			"'%s': %s\n", st->path, sqlite3_errmsg(st->db));
}

/* Run a statement that returns no rows; then reset it for reuse. */
int db_step_done(struct store *st, sqlite3_stmt *s, const char *what,
		     char *err, size_t errlen)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE) {
		db_err(st, err, errlen, what);
		(void)sqlite3_reset(s);	/* repeats the error */
		return -1;
	}
	if (sqlite3_reset(s) != SQLITE_OK || sqlite3_clear_bindings(s) !=
	    SQLITE_OK) {
		db_err(st, err, errlen, what);
		return -1;
	}
	return 0;
}

/* Bind v (NULL: SQL NULL), at most max bytes of it; max 0: no limit. */
int db_bind_text(sqlite3_stmt *s, int i, const char *v, size_t max)
{
	if (!v)
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_text(s, i, v, max ? (int)strnlen(v, max) : -1,
				 SQLITE_TRANSIENT);
}


static int user_version(struct store *st, int *v, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc;

	if (db_prepare(st, "PRAGMA user_version", &s, err, errlen))
		return -1;
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		db_err(st, err, errlen, "cannot read user_version");
		(void)sqlite3_finalize(s);
		return -1;
	}
	*v = sqlite3_column_int(s, 0);
	if (sqlite3_finalize(s) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot read user_version");
		return -1;
	}
	return 0;
}

static int too_new(struct store *st, int v, char *err, size_t errlen)
{
	db_set_err(err, errlen, "cannot open database '%s': its schema "
		"version %d is newer than this copyscope supports (%d); use "
		"a newer copyscope", st->path, v, STORE_SCHEMA_VERSION);
	return -1;
}

/*
 * The schema version and whether a database without one is copyscope's to
 * create: a database without a schema version must be empty, since one
 * with tables of its own is some other program's SQLite file (or a
 * damaged one), and nothing is changed in it.  Both are read by one
 * statement, one consistent snapshot (another copyscope may be creating
 * the schema at this moment).  Returns 0 with *v set, or -1 with the
 * reason in err.
 */
static int schema_state(struct store *st, int *v, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int n = -1;

	if (db_prepare(st, "SELECT (SELECT user_version FROM "
		       "pragma_user_version), (SELECT count(*) FROM "
		       "sqlite_master)", &s, err, errlen))
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW) {
		*v = sqlite3_column_int(s, 0);
		n = sqlite3_column_int(s, 1);
	}
	if (sqlite3_finalize(s) != SQLITE_OK || n < 0) {
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
 * Bring the schema to STORE_SCHEMA_VERSION in one write transaction.  Even
 * when nothing is to be done the transaction is taken, which proves the
 * database writable before any measuring starts.
 */
static int migrate(struct store *st, char *err, size_t errlen)
{
	char sql[64];
	int v;

	if (db_begin_write(st, err, errlen))
		return -1;
	if (schema_state(st, &v, err, errlen))
		goto fail;
	for (; v < STORE_SCHEMA_VERSION; v++) {
		char *msg = NULL;

		if (sqlite3_exec(st->db, store_migrations[v], NULL, NULL,
				 &msg) != SQLITE_OK) {
			db_set_err(err, errlen, "cannot open database '%s': "
				   "schema migration %d -> %d failed: %s",
				   st->path, v, v + 1,
				   msg ? msg : sqlite3_errmsg(st->db));
			sqlite3_free(msg);
			goto fail;
		}
		/* a constant from this code, not a value from outside */
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (db_exec(st, sql, err, errlen))
			goto fail;
	}
	if (db_commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	db_rollback(st);
	return -1;
}

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat sb;
	char *p, *slash;
	char c;
	int e;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(ENAMETOOLONG));
		return -1;
	}
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(dir, 0755) != 0) {
			e = errno;
			if (e != EEXIST) {
				db_set_err(err, errlen, "cannot open database "
					"'%s': cannot create directory '%s': "
					"%s", path, dir, strerror(e));
				return -1;
			}
			if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
				db_set_err(err, errlen, "cannot open database "
					"'%s': '%s' is not a directory",
					path, dir);
				return -1;
			}
		}
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

/*
 * SQLite's busy handler: another connection holds the lock, so sleep a
 * little (1 ms, growing to 50 ms) and try again, for up to
 * BUSY_TIMEOUT_MS of wall-clock time since the first call for this lock
 * (count 0).  SQLite's own sqlite3_busy_timeout() adds up the sleeps it
 * asked for, not the time that passed, so signals that cut them short
 * (the SIGINT that stops a run while its results wait for the lock, the
 * timer of a profiler) shorten the wait.  Returns nonzero to retry.
 */
static int busy_wait(void *arg, int count)
{
	struct store *st = arg;
	struct timespec nap = { 0, 1000000 };
	int64_t now = mono_ns();

	if (count == 0)
		st->busy_since_ns = now;
	if (now - st->busy_since_ns >= (int64_t)BUSY_TIMEOUT_MS * 1000000)
		return 0;
	if (count > 0)
		nap.tv_nsec = count >= 50 ? 50000000 : (long)count * 1000000;
	nanosleep(&nap, NULL);
	return 1;
}

/*
 * PRAGMA journal_mode = WAL.  Switching a new database to WAL takes an
 * exclusive lock, and SQLite answers SQLITE_BUSY there at once instead of
 * calling the busy handler when another connection is doing the same (two
 * runs started together on a new file): retry for up to the busy timeout,
 * with a short sleep that grows.
 */
static int enable_wal(struct store *st, char *err, size_t errlen)
{
	struct timespec nap = { 0, 1000000 };
	int64_t waited_ns = 0;
	const char *mode;
	sqlite3_stmt *s;
	int rc;

	for (;;) {
		if (db_prepare(st, "PRAGMA journal_mode = WAL", &s, err,
			       errlen))
			return -1;
		rc = sqlite3_step(s);
		if ((rc & 0xff) != SQLITE_BUSY ||
		    waited_ns >= (int64_t)BUSY_TIMEOUT_MS * 1000000)
			break;
		(void)sqlite3_finalize(s);
		nanosleep(&nap, NULL);
		waited_ns += nap.tv_nsec;
		if (nap.tv_nsec < 64000000)
			nap.tv_nsec *= 2;
	}
	mode = rc == SQLITE_ROW ? db_col_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || !mode || strcmp(mode, "wal") != 0) {
		if (rc == SQLITE_ROW)
			db_set_err(err, errlen, "cannot open database '%s': "
				   "cannot enable WAL mode (journal mode is "
				   "%s)", st->path, mode ? mode : "unknown");
		else
			db_err(st, err, errlen, "cannot enable WAL mode");
		(void)sqlite3_finalize(s);
		return -1;
	}
	if (sqlite3_finalize(s) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot enable WAL mode");
		return -1;
	}
	return 0;
}

int store_open(const char *path, struct store **out, char *err,
	       size_t errlen)
{
	struct store *st;
	struct stat sb;
	int rc, v, e, fd;

	*out = NULL;
	if (!path || !path[0]) {
		db_set_err(err, errlen, "cannot open database: empty path");
		return -1;
	}
	if (make_parents(path, err, errlen))
		return -1;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			S_ISDIR(sb.st_mode) ? strerror(EISDIR) :
			"not a regular file");
		return -1;
	}
	/*
	 * Create or open the file ourselves first: SQLite reports only
	 * "unable to open database file", open(2) says why.
	 */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(errno));
		return -1;
	}
	if (close(fd) != 0) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(errno));
		return -1;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(ENOMEM));
		return -1;
	}
	db_copy_str(st->path, sizeof(st->path), path);
	st->opening = true;

	rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		e = st->db ? sqlite3_system_errno(st->db) : 0;
		db_set_err(err, errlen, "cannot open database '%s': %s%s%s%s",
			path, e ? strerror(e) : "",
			e ? " (" : "",
			st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc),
			e ? ")" : "");
		goto fail;
	}
	if (sqlite3_db_readonly(st->db, "main") == 1) {
		db_set_err(err, errlen, "cannot open database '%s': read-only "
			"(%s)", path, strerror(EACCES));
		goto fail;
	}
	if (sqlite3_extended_result_codes(st->db, 1) != SQLITE_OK ||
	    sqlite3_busy_handler(st->db, busy_wait, st) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot configure connection");
		goto fail;
	}
	if (db_exec(st, "PRAGMA foreign_keys = ON", err, errlen))
		goto fail;
	/*
	 * Refuse a newer schema, or another program's database, before
	 * touching anything (the switch to WAL would change its header).
	 */
	if (schema_state(st, &v, err, errlen))
		goto fail;
	if (enable_wal(st, err, errlen))
		goto fail;
	if (db_exec(st, "PRAGMA synchronous = FULL", err, errlen))
		goto fail;
	if (migrate(st, err, errlen))
		goto fail;
	st->opening = false;
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->db && sqlite3_close(st->db) != SQLITE_OK)
		fprintf(stderr, "copyscope: cannot close database '%s': %s\n",
			st->path, sqlite3_errmsg(st->db));
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
	char err[256];
	int v;

	if (user_version(st, &v, err, sizeof(err)))
		return -1;
	return v;
}

/* Fill empty identity fields of run from the environment. */