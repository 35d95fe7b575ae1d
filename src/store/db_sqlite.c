/*
 * db_sqlite.c - the SQLite backend of the store (db.h: struct db_ops): one
 * file per host, opened with its parent directories made, WAL mode,
 * synchronous=FULL, foreign keys on, and a busy handler that waits up to
 * 5 s of wall-clock time for another writer's lock.  Write transactions
 * are BEGIN IMMEDIATE, so the lock is taken (or waited for) at once.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/db.h"
#include "util/msg.h"

#define BUSY_TIMEOUT_MS 5000

struct sq_stmt {
	struct db_stmt base;
	sqlite3_stmt *s;
};

static sqlite3 *conn(struct store *st)
{
	return st->conn;
}

static sqlite3_stmt *raw(struct db_stmt *s)
{
	return ((struct sq_stmt *)s)->s;
}

static const char *sq_errmsg(struct store *st)
{
	return conn(st) ? sqlite3_errmsg(conn(st)) : strerror(ENOMEM);
}

static int sq_exec(struct store *st, const char *sql)
{
	return sqlite3_exec(conn(st), sql, NULL, NULL, NULL) == SQLITE_OK ?
		0 : -1;
}

static int sq_prepare(struct store *st, const char *sql,
		      struct db_stmt **out)
{
	struct sq_stmt *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -1;
	if (sqlite3_prepare_v2(conn(st), sql, -1, &s->s, NULL) != SQLITE_OK) {
		free(s);
		return -1;
	}
	s->base.st = st;
	*out = &s->base;
	return 0;
}

static int sq_bind_int64(struct db_stmt *s, int i, int64_t v)
{
	return sqlite3_bind_int64(raw(s), i, v) == SQLITE_OK ? 0 : -1;
}

static int sq_bind_double(struct db_stmt *s, int i, double v)
{
	return sqlite3_bind_double(raw(s), i, v) == SQLITE_OK ? 0 : -1;
}

static int sq_bind_text(struct db_stmt *s, int i, const char *v, size_t len)
{
	if (!v)
		return sqlite3_bind_null(raw(s), i) == SQLITE_OK ? 0 : -1;
	if (len > INT32_MAX)
		return -1;
	return sqlite3_bind_text(raw(s), i, v, (int)len, SQLITE_TRANSIENT) ==
		SQLITE_OK ? 0 : -1;
}

static int sq_step(struct db_stmt *s)
{
	switch (sqlite3_step(raw(s))) {
	case SQLITE_ROW:
		return DB_ROW;
	case SQLITE_DONE:
		return DB_DONE;
	default:
		return DB_ERROR;
	}
}

static bool sq_col_null(struct db_stmt *s, int col)
{
	return sqlite3_column_type(raw(s), col) == SQLITE_NULL;
}

static int64_t sq_col_int64(struct db_stmt *s, int col)
{
	return sqlite3_column_int64(raw(s), col);
}

static double sq_col_double(struct db_stmt *s, int col)
{
	return sqlite3_column_double(raw(s), col);
}

static const char *sq_col_text(struct db_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(raw(s), col);
}

static int sq_reset(struct db_stmt *s)
{
	return sqlite3_reset(raw(s)) == SQLITE_OK &&
		sqlite3_clear_bindings(raw(s)) == SQLITE_OK ? 0 : -1;
}

static int sq_finalize(struct db_stmt *s)
{
	int rc = sqlite3_finalize(raw(s));

	free(s);
	return rc == SQLITE_OK ? 0 : -1;
}

static int64_t sq_changes(struct store *st)
{
	return sqlite3_changes(conn(st));
}

static bool sq_in_transaction(struct store *st)
{
	return !sqlite3_get_autocommit(conn(st));
}

/* BEGIN IMMEDIATE took the write lock: no other opener gets in. */
static int sq_lock_schema(struct store *st)
{
	(void)st;
	return 0;
}

/*
 * PRAGMA user_version, and how many tables, indexes and views there are,
 * read by one statement: one consistent snapshot (another copyscope may
 * be creating the schema at this moment).
 */
static int sq_schema_state(struct store *st, int *version, int *nobjects)
{
	sqlite3_stmt *s;
	int rc;

	*version = 0;
	*nobjects = -1;
	if (sqlite3_prepare_v2(conn(st), "SELECT (SELECT user_version FROM "
			       "pragma_user_version), (SELECT count(*) FROM "
			       "sqlite_master)", -1, &s, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int(s, 0);
		*nobjects = sqlite3_column_int(s, 1);
	}
	if (sqlite3_finalize(s) != SQLITE_OK || rc != SQLITE_ROW)
		return -1;
	return 0;
}

static int sq_set_version(struct store *st, int version)
{
	char sql[64];

	/* a constant from this code, not a value from outside */
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return sq_exec(st, sql);
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
					   "'%s': cannot create directory "
					   "'%s': %s", path, dir, strerror(e));
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
	int64_t now = db_mono_ns();

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
		if (sqlite3_prepare_v2(conn(st), "PRAGMA journal_mode = WAL",
				       -1, &s, NULL) != SQLITE_OK) {
			db_err(st, err, errlen, "cannot enable WAL mode");
			return -1;
		}
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
	mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) :
		NULL;
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

/* Remember the file opened at path: its name, device and inode. */
static int note_file(struct store *st, const char *path, char *err,
		     size_t errlen)
{
	struct stat sb;

	if (stat(path, &sb) != 0) {
		db_set_err(err, errlen, "cannot open database '%s': %s", path,
			   strerror(errno));
		return -1;
	}
	db_copy_str(st->file, sizeof(st->file), path);
	st->file_dev = sb.st_dev;
	st->file_ino = sb.st_ino;
	return 0;
}

/* sqlite3_open_v2 with flags and the reason in err when it fails. */
static int open_conn(struct store *st, const char *path, const char *name,
		     int flags, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int rc, e;

	rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		e = db ? sqlite3_system_errno(db) : 0;
		db_set_err(err, errlen, "cannot open database '%s': %s%s%s%s",
			   path, e ? strerror(e) : "", e ? " (" : "",
			   db ? sqlite3_errmsg(db) : sqlite3_errstr(rc),
			   e ? ")" : "");
		(void)sqlite3_close(db);
		return -1;
	}
	st->conn = db;
	if (sqlite3_extended_result_codes(db, 1) != SQLITE_OK ||
	    sqlite3_busy_handler(db, busy_wait, st) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot configure connection");
		return -1;
	}
	return 0;
}

/*
 * Whether the directory holding path may be written by this process (the
 * -wal and -shm files SQLite keeps beside a database are made there).
 */
static bool dir_writable(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return false;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) == 0;
}

/*
 * "file:PATH?immutable=1" with every byte of path but unreserved ones and
 * '/' percent-encoded (sqlite3_malloc'ed; NULL on ENOMEM).
 */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), o = 5;
	char *uri = sqlite3_malloc64(n * 3 + sizeof("file:?immutable=1"));
	unsigned char c;

	if (!uri)
		return NULL;
	strcpy(uri, "file:");
	for (; *path; path++) {
		c = (unsigned char)*path;
		if (isalnum(c) || strchr("/-._~", c)) {
			uri[o++] = (char)c;
		} else {
			uri[o++] = '%';
			uri[o++] = hex[c >> 4];
			uri[o++] = hex[c & 15];
		}
	}
	strcpy(uri + o, "?immutable=1");
	return uri;
}

/*
 * Open path for reading only.  Where its directory can be written (or a
 * -wal file is there to be read), SQLite's read-only mode, which keeps
 * the WAL's index beside the file as a writer does; else the file is
 * opened as immutable: no -wal or -shm can be made or exist, so what the
 * file holds is all there is.  Nothing is changed, and a schema older
 * than this copyscope's is refused (bringing it up to date needs write
 * access).
 */
static int sq_open_read(struct store *st, const char *path, char *err,
			size_t errlen)
{
	char wal[PATH_MAX + 8], *uri;
	struct stat sb;
	int v, rc;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (dir_writable(path) || stat(wal, &sb) == 0) {
		rc = open_conn(st, path, path, SQLITE_OPEN_READONLY, err,
			       errlen);
	} else {
		uri = immutable_uri(path);
		if (!uri) {
			db_set_err(err, errlen, "cannot open database '%s': "
				   "%s", path, strerror(ENOMEM));
			return -1;
		}
		rc = open_conn(st, path, uri, SQLITE_OPEN_READONLY |
			       SQLITE_OPEN_URI, err, errlen);
		sqlite3_free(uri);
	}
	if (rc || note_file(st, path, err, errlen))
		return -1;
	if (db_check_schema(st, &v, err, errlen))
		return -1;
	if (v < STORE_SCHEMA_VERSION) {
		db_set_err(err, errlen, "cannot open database '%s': it can "
			   "only be read here (%s), and its schema version "
			   "%d must first be brought to %d by a copyscope "
			   "that can write it", path, strerror(EACCES), v,
			   STORE_SCHEMA_VERSION);
		return -1;
	}
	return 0;
}

static int sq_open(struct store *st, const char *path, char *err,
		   size_t errlen)
{
	struct stat sb;
	int v, fd;

	if (st->read_only)
		return sq_open_read(st, path, err, errlen);
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
	if (fd < 0 || close(fd) != 0) {
		db_set_err(err, errlen, "cannot open database '%s': %s%s",
			   path, strerror(errno), errno == EACCES ||
			   errno == EROFS ? " (this command writes to the "
			   "database; the commands that only read, such as "
			   "runs, show and export, can read it)" : "");
		return -1;
	}
	if (open_conn(st, path, path, SQLITE_OPEN_READWRITE |
		      SQLITE_OPEN_CREATE, err, errlen) ||
	    note_file(st, path, err, errlen))
		return -1;
	if (sqlite3_db_readonly(conn(st), "main") == 1) {
		db_set_err(err, errlen, "cannot open database '%s': read-only "
			   "(%s)", path, strerror(EACCES));
		return -1;
	}
	if (db_exec(st, "PRAGMA foreign_keys = ON", err, errlen))
		return -1;
	/*
	 * Refuse a newer schema, or another program's database, before
	 * touching anything (the switch to WAL would change its header).
	 */
	if (db_check_schema(st, &v, err, errlen))
		return -1;
	if (enable_wal(st, err, errlen))
		return -1;
	return db_exec(st, "PRAGMA synchronous = FULL", err, errlen);
}

/*
 * The file at st->file is still the one opened: a regular file, the same
 * device and inode, with a link to it.  Returns 0, or -1 with what
 * became of it in err.
 */
static int same_file(struct store *st, char *err, size_t errlen)
{
	struct stat sb;

	if (stat(st->file, &sb) != 0) {
		db_set_err(err, errlen, "the database file '%s' is gone (%s)",
			   st->file, strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		db_set_err(err, errlen, "the database file '%s' was replaced "
			   "by %s", st->file, S_ISDIR(sb.st_mode) ?
			   "a directory" : "something that is not a file");
		return -1;
	}
	if (sb.st_dev != st->file_dev || sb.st_ino != st->file_ino ||
	    sb.st_nlink < 1) {
		db_set_err(err, errlen, "the database file '%s' was replaced "
			   "by another file", st->file);
		return -1;
	}
	return 0;
}

static int sq_open_again(struct store *st, struct store **fresh, char *err,
			 size_t errlen)
{
	struct store *f;

	*fresh = NULL;
	if (same_file(st, err, errlen))
		return -1;
	f = calloc(1, sizeof(*f));
	if (!f) {
		db_set_err(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	f->ops = st->ops;
	db_copy_str(f->path, sizeof(f->path), st->path);
	/* no SQLITE_OPEN_CREATE: a file gone since is not made again */
	if (open_conn(f, st->file, st->file, SQLITE_OPEN_READWRITE, err,
		      errlen) || same_file(st, err, errlen)) {
		store_close(f);
		return -1;
	}
	*fresh = f;
	return 0;
}

static void sq_forget_wal(struct store *st)
{
	(void)sqlite3_db_config(conn(st), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
				NULL);
}

static void sq_close(struct store *st)
{
	if (sqlite3_close(conn(st)) != SQLITE_OK)
		msg_error("cannot close database '%s': %s", st->path,
			  sqlite3_errmsg(conn(st)));
	st->conn = NULL;
}

const struct db_ops db_sqlite_ops = {
	.name = "SQLite",
	.open = sq_open,
	.close = sq_close,
	.errmsg = sq_errmsg,
	.exec = sq_exec,
	.prepare = sq_prepare,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_text = sq_bind_text,
	.step = sq_step,
	.col_null = sq_col_null,
	.col_int64 = sq_col_int64,
	.col_double = sq_col_double,
	.col_text = sq_col_text,
	.reset = sq_reset,
	.finalize = sq_finalize,
	.changes = sq_changes,
	.in_transaction = sq_in_transaction,
	.begin_write_sql = "BEGIN IMMEDIATE",
	.begin_read_sql = "BEGIN",
	.lock_schema = sq_lock_schema,
	.schema_state = sq_schema_state,
	.set_version = sq_set_version,
	.open_again = sq_open_again,
	.forget_wal = sq_forget_wal,
	.migrations = store_migrations,
};
