/*
 * store.c - the SQLite result store (DESIGN §7).
 *
 * One database file in WAL mode with foreign keys on and a 5 s busy
 * timeout, so a second writer waits rather than fails.  Every write runs in
 * its own BEGIN IMMEDIATE ... COMMIT transaction and is rolled back on any
 * error, so a crash, SIGINT, a full disk or a second writer never loses
 * what is already committed.  All values go through bound parameters of
 * prepared statements.  The schema is versioned by PRAGMA user_version and
 * brought forward by the migrations[] array; a newer database is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

#define BUSY_TIMEOUT_MS 5000

struct store {
	sqlite3 *db;
	bool opening;		/* inside store_open: errors say so */
	char path[PATH_MAX];
};

/*
 * migrations[v] takes a database from user_version v to v + 1.  These are
 * constant SQL texts without values; they run inside one transaction
 * together with the user_version update.
 */
static const char *const migrations[] = {
	/* 0 -> 1: initial schema */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  started_ns INTEGER NOT NULL,"
	"  finished_ns INTEGER,"
	"  tag TEXT NOT NULL DEFAULT '',"
	"  host TEXT NOT NULL DEFAULT '',"
	"  boot_id TEXT NOT NULL DEFAULT '',"
	"  tool_version TEXT NOT NULL DEFAULT '',"
	"  build_flavour TEXT NOT NULL DEFAULT '',"
	"  cmdline TEXT,"
	"  status TEXT NOT NULL CHECK (status IN"
	"    ('running', 'complete', 'interrupted', 'failed')));"
	"CREATE TABLE environment ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE results ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  params TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  direction INTEGER NOT NULL CHECK (direction IN (-1, 0, 1)),"
	"  info TEXT,"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE samples ("
	"  result_id INTEGER NOT NULL REFERENCES results(id)"
	"    ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY (result_id, idx));"
	"CREATE TABLE histograms ("
	"  result_id INTEGER NOT NULL REFERENCES results(id)"
	"    ON DELETE CASCADE,"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  PRIMARY KEY (result_id, lo));"
	"CREATE INDEX runs_started ON runs(started_ns);"
	"CREATE INDEX results_workload ON results(workload, metric);",
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) ==
	       STORE_SCHEMA_VERSION, "one migration per schema version");

static const char *const run_statuses[] = {
	"running", "complete", "interrupted", "failed",
};

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* err = "<what> in database '<path>': <sqlite message>" */
static void db_err(struct store *st, char *err, size_t errlen,
		   const char *what)
{
	if (st->opening)
		set_err(err, errlen, "cannot open database '%s': %s: %s",
			st->path, what, sqlite3_errmsg(st->db));
	else
		set_err(err, errlen, "%s in database '%s': %s", what,
			st->path, sqlite3_errmsg(st->db));
}

static int64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static const char *col_text(sqlite3_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(s, col);
}

/* malloc'ed copy of a text column, NULL for SQL NULL; -1 on ENOMEM. */
static int col_dup(sqlite3_stmt *s, int col, char **out)
{
	const char *t = col_text(s, col);

	*out = NULL;
	if (!t)
		return sqlite3_column_type(s, col) == SQLITE_NULL ? 0 : -1;
	*out = strdup(t);
	return *out ? 0 : -1;
}

static int exec_sql(struct store *st, const char *sql, char *err,
		    size_t errlen)
{
	char *msg = NULL;
	int rc;

	rc = sqlite3_exec(st->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK && st->opening) {
		set_err(err, errlen, "cannot open database '%s': '%s' failed: "
			"%s", st->path, sql, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	} else if (rc != SQLITE_OK) {
		set_err(err, errlen, "'%s' failed in database '%s': %s",
			sql, st->path, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **s,
		   char *err, size_t errlen)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot prepare statement");
		*s = NULL;
		return -1;
	}
	return 0;
}

static int begin_write(struct store *st, char *err, size_t errlen)
{
	return exec_sql(st, "BEGIN IMMEDIATE", err, errlen);
}

static int commit(struct store *st, char *err, size_t errlen)
{
	return exec_sql(st, "COMMIT", err, errlen);
}

/* Roll back an open transaction; the error already in err is kept. */
static void rollback(struct store *st)
{
	if (sqlite3_get_autocommit(st->db))
		return;		/* SQLite already rolled it back */
	if (sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
		fprintf(stderr, "copyscope: ROLLBACK failed in database "
			"'%s': %s\n", st->path, sqlite3_errmsg(st->db));
}

/* Run a statement that returns no rows; then reset it for reuse. */
static int step_done(struct store *st, sqlite3_stmt *s, const char *what,
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
static int bind_text(sqlite3_stmt *s, int i, const char *v, size_t max)
{
	if (!v)
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_text(s, i, v, max ? (int)strnlen(v, max) : -1,
				 SQLITE_TRANSIENT);
}

#define BIND_STR(s, i, field) bind_text(s, i, field, sizeof(field))

static int user_version(struct store *st, int *v, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, "PRAGMA user_version", &s, err, errlen))
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
	set_err(err, errlen, "cannot open database '%s': its schema "
		"version %d is newer than this copyscope supports (%d); use "
		"a newer copyscope", st->path, v, STORE_SCHEMA_VERSION);
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

	if (begin_write(st, err, errlen))
		return -1;
	if (user_version(st, &v, err, errlen))
		goto fail;
	if (v > STORE_SCHEMA_VERSION) {
		too_new(st, v, err, errlen);
		goto fail;
	}
	if (v < 0) {
		set_err(err, errlen, "cannot open database '%s': invalid "
			"schema version %d", st->path, v);
		goto fail;
	}
	for (; v < STORE_SCHEMA_VERSION; v++) {
		if (exec_sql(st, migrations[v], err, errlen))
			goto fail;
		/* a constant from this code, not a value from outside */
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (exec_sql(st, sql, err, errlen))
			goto fail;
	}
	if (commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	rollback(st);
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
		set_err(err, errlen, "cannot open database '%s': %s", path,
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
				set_err(err, errlen, "cannot open database "
					"'%s': cannot create directory '%s': "
					"%s", path, dir, strerror(e));
				return -1;
			}
			if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
				set_err(err, errlen, "cannot open database "
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

int store_open(const char *path, struct store **out, char *err,
	       size_t errlen)
{
	const char *mode;
	struct store *st;
	struct stat sb;
	sqlite3_stmt *s;
	int rc, v, e, fd;

	*out = NULL;
	if (!path || !path[0]) {
		set_err(err, errlen, "cannot open database: empty path");
		return -1;
	}
	if (make_parents(path, err, errlen))
		return -1;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		set_err(err, errlen, "cannot open database '%s': %s", path,
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
		set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(errno));
		return -1;
	}
	if (close(fd) != 0) {
		set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(errno));
		return -1;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		set_err(err, errlen, "cannot open database '%s': %s", path,
			strerror(ENOMEM));
		return -1;
	}
	copy_str(st->path, sizeof(st->path), path);
	st->opening = true;

	rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		e = st->db ? sqlite3_system_errno(st->db) : 0;
		set_err(err, errlen, "cannot open database '%s': %s%s%s%s",
			path, e ? strerror(e) : "",
			e ? " (" : "",
			st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc),
			e ? ")" : "");
		goto fail;
	}
	if (sqlite3_db_readonly(st->db, "main") == 1) {
		set_err(err, errlen, "cannot open database '%s': read-only "
			"(%s)", path, strerror(EACCES));
		goto fail;
	}
	if (sqlite3_extended_result_codes(st->db, 1) != SQLITE_OK ||
	    sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot configure connection");
		goto fail;
	}
	if (exec_sql(st, "PRAGMA foreign_keys = ON", err, errlen))
		goto fail;
	/* refuse a newer schema before touching anything */
	if (user_version(st, &v, err, errlen))
		goto fail;
	if (v > STORE_SCHEMA_VERSION) {
		too_new(st, v, err, errlen);
		goto fail;
	}
	if (prepare(st, "PRAGMA journal_mode = WAL", &s, err, errlen))
		goto fail;
	rc = sqlite3_step(s);
	mode = rc == SQLITE_ROW ? col_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || !mode || strcmp(mode, "wal") != 0) {
		if (rc == SQLITE_ROW)
			set_err(err, errlen, "cannot open database '%s': "
				"cannot enable WAL mode (journal mode is %s)",
				path, mode ? mode : "unknown");
		else
			db_err(st, err, errlen, "cannot enable WAL mode");
		(void)sqlite3_finalize(s);
		goto fail;
	}
	if (sqlite3_finalize(s) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot enable WAL mode");
		goto fail;
	}
	if (exec_sql(st, "PRAGMA synchronous = FULL", err, errlen))
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
static void run_defaults(struct store_run *run, const struct env *env)
{
	const char *v;

	if (!env)
		return;
	if (!run->host[0] && (v = env_get(env, "hostname")))
		copy_str(run->host, sizeof(run->host), v);
	if (!run->boot_id[0] && (v = env_get(env, "boot_id")))
		copy_str(run->boot_id, sizeof(run->boot_id), v);
	if (!run->tool_version[0] && (v = env_get(env, "copyscope.version")))
		copy_str(run->tool_version, sizeof(run->tool_version), v);
	if (!run->build_flavour[0] &&
	    (v = env_get(env, "copyscope.build_flavour")))
		copy_str(run->build_flavour, sizeof(run->build_flavour), v);
}

int store_begin_run(struct store *st, struct store_run *run,
		    const struct env *env, char *err, size_t errlen)
{
	sqlite3_stmt *ins = NULL, *envs = NULL;
	size_t i;

	run_defaults(run, env);
	if (run->started_ns == 0)
		run->started_ns = now_ns();
	if (begin_write(st, err, errlen))
		return -1;
	if (prepare(st, "INSERT INTO runs (started_ns, finished_ns, tag, "
		    "host, boot_id, tool_version, build_flavour, cmdline, "
		    "status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running')",
		    &ins, err, errlen))
		goto fail;
	if (sqlite3_bind_int64(ins, 1, run->started_ns) != SQLITE_OK ||
	    (run->finished_ns ?
	     sqlite3_bind_int64(ins, 2, run->finished_ns) :
	     sqlite3_bind_null(ins, 2)) != SQLITE_OK ||
	    BIND_STR(ins, 3, run->tag) != SQLITE_OK ||
	    BIND_STR(ins, 4, run->host) != SQLITE_OK ||
	    BIND_STR(ins, 5, run->boot_id) != SQLITE_OK ||
	    BIND_STR(ins, 6, run->tool_version) != SQLITE_OK ||
	    BIND_STR(ins, 7, run->build_flavour) != SQLITE_OK ||
	    bind_text(ins, 8, run->cmdline, 0) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind run");
		goto fail;
	}
	if (step_done(st, ins, "cannot insert run", err, errlen))
		goto fail;
	run->id = sqlite3_last_insert_rowid(st->db);

	if (env && env->n) {
		if (prepare(st, "INSERT INTO environment (run_id, key, value) "
			    "VALUES (?, ?, ?)", &envs, err, errlen))
			goto fail;
		for (i = 0; i < env->n; i++) {
			if (sqlite3_bind_int64(envs, 1, run->id) !=
			    SQLITE_OK ||
			    bind_text(envs, 2, env->items[i].key, 0) !=
			    SQLITE_OK ||
			    bind_text(envs, 3, env->items[i].value,
				      0) != SQLITE_OK) {
				db_err(st, err, errlen,
				       "cannot bind environment");
				goto fail;
			}
			if (step_done(st, envs, "cannot insert environment",
				      err, errlen))
				goto fail;
		}
	}
	if (sqlite3_finalize(ins) != SQLITE_OK ||
	    sqlite3_finalize(envs) != SQLITE_OK) {
		ins = envs = NULL;
		db_err(st, err, errlen, "cannot insert run");
		goto fail;
	}
	ins = envs = NULL;
	if (commit(st, err, errlen))
		goto fail;
	copy_str(run->status, sizeof(run->status), "running");
	return 0;
fail:
	(void)sqlite3_finalize(ins);
	(void)sqlite3_finalize(envs);
	rollback(st);
	run->id = 0;
	return -1;
}

int store_add_result(struct store *st, int64_t run_id,
		     struct store_result *res, char *err, size_t errlen)
{
	sqlite3_stmt *ins = NULL, *smp = NULL, *hst = NULL;
	size_t i;

	if (!res->params_json) {
		set_err(err, errlen, "cannot store result '%s/%s': no "
			"parameters", res->workload, res->metric);
		return -1;
	}
	if (res->direction < -1 || res->direction > 1) {
		set_err(err, errlen, "cannot store result '%s/%s': invalid "
			"direction %d", res->workload, res->metric,
			res->direction);
		return -1;
	}
	for (i = 0; i < res->nsamples; i++) {
		if (isnan(res->samples[i])) {
			set_err(err, errlen, "cannot store result '%s/%s': "
				"sample %zu is NaN", res->workload,
				res->metric, i);
			return -1;
		}
	}
	for (i = 0; i < res->nbuckets; i++) {
		if (res->buckets[i].count > INT64_MAX) {
			set_err(err, errlen, "cannot store result '%s/%s': "
				"histogram count out of range", res->workload,
				res->metric);
			return -1;
		}
	}
	if (begin_write(st, err, errlen))
		return -1;
	if (prepare(st, "INSERT INTO results (run_id, seq, workload, params, "
		    "metric, unit, direction, info) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &ins, err, errlen) ||
	    prepare(st, "INSERT INTO samples (result_id, idx, value) "
		    "VALUES (?, ?, ?)", &smp, err, errlen) ||
	    prepare(st, "INSERT INTO histograms (result_id, lo, hi, count) "
		    "VALUES (?, ?, ?, ?)", &hst, err, errlen))
		goto fail;
	if (sqlite3_bind_int64(ins, 1, run_id) != SQLITE_OK ||
	    sqlite3_bind_int(ins, 2, res->seq) != SQLITE_OK ||
	    BIND_STR(ins, 3, res->workload) != SQLITE_OK ||
	    bind_text(ins, 4, res->params_json, 0) != SQLITE_OK ||
	    BIND_STR(ins, 5, res->metric) != SQLITE_OK ||
	    BIND_STR(ins, 6, res->unit) != SQLITE_OK ||
	    sqlite3_bind_int(ins, 7, res->direction) != SQLITE_OK ||
	    bind_text(ins, 8, res->info_json, 0) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind result");
		goto fail;
	}
	if (step_done(st, ins, "cannot insert result", err, errlen))
		goto fail;
	res->id = sqlite3_last_insert_rowid(st->db);
	for (i = 0; i < res->nsamples; i++) {
		if (sqlite3_bind_int64(smp, 1, res->id) != SQLITE_OK ||
		    sqlite3_bind_int64(smp, 2, (int64_t)i) != SQLITE_OK ||
		    sqlite3_bind_double(smp, 3, res->samples[i]) !=
		    SQLITE_OK) {
			db_err(st, err, errlen, "cannot bind sample");
			goto fail;
		}
		if (step_done(st, smp, "cannot insert sample", err, errlen))
			goto fail;
	}
	for (i = 0; i < res->nbuckets; i++) {
		const struct store_hist_bucket *b = &res->buckets[i];

		if (sqlite3_bind_int64(hst, 1, res->id) != SQLITE_OK ||
		    sqlite3_bind_int64(hst, 2, b->lo) != SQLITE_OK ||
		    sqlite3_bind_int64(hst, 3, b->hi) != SQLITE_OK ||
		    sqlite3_bind_int64(hst, 4, (int64_t)b->count) !=
		    SQLITE_OK) {
			db_err(st, err, errlen, "cannot bind histogram");
			goto fail;
		}
		if (step_done(st, hst, "cannot insert histogram bucket", err,
			      errlen))
			goto fail;
	}
	if (sqlite3_finalize(ins) != SQLITE_OK ||
	    sqlite3_finalize(smp) != SQLITE_OK ||
	    sqlite3_finalize(hst) != SQLITE_OK) {
		ins = smp = hst = NULL;
		db_err(st, err, errlen, "cannot insert result");
		goto fail;
	}
	ins = smp = hst = NULL;
	if (commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	(void)sqlite3_finalize(ins);
	(void)sqlite3_finalize(smp);
	(void)sqlite3_finalize(hst);
	rollback(st);
	return -1;
}

int store_finish_run(struct store *st, int64_t run_id, const char *status,
		     char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	bool valid = false;
	size_t i;

	for (i = 0; status && i < sizeof(run_statuses) / sizeof(*run_statuses);
	     i++)
		valid |= strcmp(status, run_statuses[i]) == 0;
	if (!valid) {
		set_err(err, errlen, "cannot finish run %lld: invalid status "
			"'%s'", (long long)run_id, status ? status : "(null)");
		return -1;
	}
	if (begin_write(st, err, errlen))
		return -1;
	if (prepare(st, "UPDATE runs SET status = ?, finished_ns = ? "
		    "WHERE id = ?", &s, err, errlen))
		goto fail;
	if (sqlite3_bind_text(s, 1, status, -1, SQLITE_TRANSIENT) !=
	    SQLITE_OK ||
	    sqlite3_bind_int64(s, 2, now_ns()) != SQLITE_OK ||
	    sqlite3_bind_int64(s, 3, run_id) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind run status");
		goto fail;
	}
	if (step_done(st, s, "cannot update run", err, errlen))
		goto fail;
	if (sqlite3_changes(st->db) != 1) {
		set_err(err, errlen, "cannot finish run %lld in database "
			"'%s': no such run", (long long)run_id, st->path);
		goto fail;
	}
	if (sqlite3_finalize(s) != SQLITE_OK) {
		s = NULL;
		db_err(st, err, errlen, "cannot update run");
		goto fail;
	}
	s = NULL;
	if (commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	(void)sqlite3_finalize(s);
	rollback(st);
	return -1;
}

#define RUN_COLUMNS "r.id, r.started_ns, r.finished_ns, r.tag, r.host, " \
	"r.boot_id, r.tool_version, r.build_flavour, r.cmdline, r.status, " \
	"(SELECT count(*) FROM results x WHERE x.run_id = r.id), " \
	"(SELECT e.value FROM environment e WHERE e.run_id = r.id " \
	"AND e.key = 'kernel.release')"

/* Fill run from a row of RUN_COLUMNS; -1 on ENOMEM. */
static int row_to_run(sqlite3_stmt *s, struct store_run *run)
{
	memset(run, 0, sizeof(*run));
	run->id = sqlite3_column_int64(s, 0);
	run->started_ns = sqlite3_column_int64(s, 1);
	run->finished_ns = sqlite3_column_int64(s, 2);	/* NULL -> 0 */
	copy_str(run->tag, sizeof(run->tag), col_text(s, 3));
	copy_str(run->host, sizeof(run->host), col_text(s, 4));
	copy_str(run->boot_id, sizeof(run->boot_id), col_text(s, 5));
	copy_str(run->tool_version, sizeof(run->tool_version),
		 col_text(s, 6));
	copy_str(run->build_flavour, sizeof(run->build_flavour),
		 col_text(s, 7));
	copy_str(run->status, sizeof(run->status), col_text(s, 9));
	run->nresults = sqlite3_column_int(s, 10);
	copy_str(run->kernel, sizeof(run->kernel), col_text(s, 11));
	return col_dup(s, 8, &run->cmdline);
}

int store_list_runs(struct store *st, struct store_run **runs, size_t *n,
		    char *err, size_t errlen)
{
	struct store_run *v = NULL, *tmp;
	size_t cnt = 0, cap = 0;
	sqlite3_stmt *s;
	int rc;

	*runs = NULL;
	*n = 0;
	if (prepare(st, "SELECT " RUN_COLUMNS " FROM runs r "
		    "ORDER BY r.started_ns, r.id", &s, err, errlen))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = realloc(v, cap * sizeof(*v));
			if (!tmp)
				goto nomem;
			v = tmp;
		}
		if (row_to_run(s, &v[cnt])) {
			free(v[cnt].cmdline);
			goto nomem;
		}
		cnt++;
	}
	if (rc != SQLITE_DONE) {
		db_err(st, err, errlen, "cannot list runs");
		goto fail;
	}
	if (sqlite3_finalize(s) != SQLITE_OK) {
		s = NULL;
		db_err(st, err, errlen, "cannot list runs");
		goto fail;
	}
	*runs = v;
	*n = cnt;
	return 0;
nomem:
	set_err(err, errlen, "cannot list runs: %s", strerror(ENOMEM));
fail:
	(void)sqlite3_finalize(s);
	store_free_runs(v, cnt);
	return -1;
}

void store_free_runs(struct store_run *runs, size_t n)
{
	size_t i;

	if (!runs)
		return;
	for (i = 0; i < n; i++)
		free(runs[i].cmdline);
	free(runs);
}

void store_free_results(struct store_result *res, size_t n)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < n; i++) {
		free(res[i].params_json);
		free(res[i].info_json);
		free(res[i].samples);
		free(res[i].buckets);
	}
	free(res);
}

/* Samples and histogram of one result (res->id set). */
static int load_series(struct store *st, sqlite3_stmt *smp,
		       sqlite3_stmt *hst, struct store_result *res,
		       char *err, size_t errlen)
{
	size_t cap = 0;
	void *tmp;
	int rc;

	if (sqlite3_bind_int64(smp, 1, res->id) != SQLITE_OK ||
	    sqlite3_bind_int64(hst, 1, res->id) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind result id");
		return -1;
	}
	while ((rc = sqlite3_step(smp)) == SQLITE_ROW) {
		if (res->nsamples == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(res->samples, cap * sizeof(double));
			if (!tmp)
				goto nomem;
			res->samples = tmp;
		}
		res->samples[res->nsamples++] = sqlite3_column_double(smp, 0);
	}
	if (rc != SQLITE_DONE || sqlite3_reset(smp) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot load samples");
		return -1;
	}
	cap = 0;
	while ((rc = sqlite3_step(hst)) == SQLITE_ROW) {
		struct store_hist_bucket *b;

		if (res->nbuckets == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(res->buckets, cap * sizeof(*b));
			if (!tmp)
				goto nomem;
			res->buckets = tmp;
		}
		b = &res->buckets[res->nbuckets++];
		b->lo = sqlite3_column_int64(hst, 0);
		b->hi = sqlite3_column_int64(hst, 1);
		b->count = (uint64_t)sqlite3_column_int64(hst, 2);
	}
	if (rc != SQLITE_DONE || sqlite3_reset(hst) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot load histogram");
		return -1;
	}
	return 0;
nomem:
	(void)sqlite3_reset(smp);
	(void)sqlite3_reset(hst);
	set_err(err, errlen, "cannot load result: %s", strerror(ENOMEM));
	return -1;
}

/* The results of run_id with their series; -1 on error. */
static int load_results(struct store *st, int64_t run_id,
			struct store_result **out, size_t *nout, char *err,
			size_t errlen)
{
	sqlite3_stmt *s = NULL, *smp = NULL, *hst = NULL;
	struct store_result *v = NULL, *tmp, *r;
	size_t cnt = 0, cap = 0;
	int rc;

	if (prepare(st, "SELECT id, seq, workload, params, metric, unit, "
		    "direction, info FROM results WHERE run_id = ? "
		    "ORDER BY seq, id", &s, err, errlen) ||
	    prepare(st, "SELECT value FROM samples WHERE result_id = ? "
		    "ORDER BY idx", &smp, err, errlen) ||
	    prepare(st, "SELECT lo, hi, count FROM histograms "
		    "WHERE result_id = ? ORDER BY lo", &hst, err, errlen))
		goto fail;
	if (sqlite3_bind_int64(s, 1, run_id) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind run id");
		goto fail;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = realloc(v, cap * sizeof(*v));
			if (!tmp)
				goto nomem;
			v = tmp;
		}
		r = &v[cnt++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(s, 0);
		r->seq = sqlite3_column_int(s, 1);
		copy_str(r->workload, sizeof(r->workload), col_text(s, 2));
		copy_str(r->metric, sizeof(r->metric), col_text(s, 4));
		copy_str(r->unit, sizeof(r->unit), col_text(s, 5));
		r->direction = sqlite3_column_int(s, 6);
		if (col_dup(s, 3, &r->params_json) ||
		    col_dup(s, 7, &r->info_json))
			goto nomem;
		if (load_series(st, smp, hst, r, err, errlen))
			goto fail;
	}
	if (rc != SQLITE_DONE) {
		db_err(st, err, errlen, "cannot load results");
		goto fail;
	}
	rc = sqlite3_finalize(s);
	rc |= sqlite3_finalize(smp);
	rc |= sqlite3_finalize(hst);
	s = smp = hst = NULL;
	if (rc != SQLITE_OK) {
		db_err(st, err, errlen, "cannot load results");
		goto fail;
	}
	*out = v;
	*nout = cnt;
	return 0;
nomem:
	set_err(err, errlen, "cannot load results: %s", strerror(ENOMEM));
fail:
	(void)sqlite3_finalize(s);
	(void)sqlite3_finalize(smp);
	(void)sqlite3_finalize(hst);
	store_free_results(v, cnt);
	return -1;
}

static int load_env(struct store *st, int64_t run_id, struct env *env,
		    char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, "SELECT key, value FROM environment "
		    "WHERE run_id = ? ORDER BY rowid", &s, err, errlen))
		return -1;
	if (sqlite3_bind_int64(s, 1, run_id) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind run id");
		goto fail;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *k = col_text(s, 0), *v = col_text(s, 1);

		if (!k || !v || env_set(env, k, v)) {
			set_err(err, errlen, "cannot load environment: %s",
				strerror(ENOMEM));
			goto fail;
		}
	}
	if (rc != SQLITE_DONE) {
		db_err(st, err, errlen, "cannot load environment");
		goto fail;
	}
	if (sqlite3_finalize(s) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot load environment");
		return -1;
	}
	return 0;
fail:
	(void)sqlite3_finalize(s);
	return -1;
}

int store_load_run(struct store *st, int64_t run_id, struct store_run *run,
		   struct env *env, struct store_result **results,
		   size_t *nresults, char *err, size_t errlen)
{
	struct store_run tmp = { 0 };
	sqlite3_stmt *s;
	int rc, ret = -1;

	if (results)
		*results = NULL;
	if (nresults)
		*nresults = 0;
	/* one read transaction: a consistent snapshot */
	if (exec_sql(st, "BEGIN", err, errlen))
		return -1;
	if (prepare(st, "SELECT " RUN_COLUMNS " FROM runs r WHERE r.id = ?",
		    &s, err, errlen))
		goto out;
	if (sqlite3_bind_int64(s, 1, run_id) != SQLITE_OK) {
		db_err(st, err, errlen, "cannot bind run id");
		(void)sqlite3_finalize(s);
		goto out;
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		set_err(err, errlen, "no run %lld in database '%s'",
			(long long)run_id, st->path);
		ret = 1;
	} else if (rc != SQLITE_ROW) {
		db_err(st, err, errlen, "cannot load run");
	} else if (row_to_run(s, &tmp)) {
		set_err(err, errlen, "cannot load run: %s", strerror(ENOMEM));
	} else {
		ret = 0;
	}
	if (sqlite3_finalize(s) != SQLITE_OK && ret == 0) {
		db_err(st, err, errlen, "cannot load run");
		ret = -1;
	}
	if (ret != 0)
		goto out;
	ret = -1;
	if (env && load_env(st, run_id, env, err, errlen))
		goto out;
	if (results && nresults &&
	    load_results(st, run_id, results, nresults, err, errlen))
		goto out;
	ret = 0;
out:
	if (ret == 0 && exec_sql(st, "COMMIT", err, errlen)) {
		store_free_results(results ? *results : NULL,
				   nresults ? *nresults : 0);
		if (results)
			*results = NULL;
		if (nresults)
			*nresults = 0;
		ret = -1;
	}
	if (ret != 0)
		rollback(st);
	if (ret == 0 && run)
		*run = tmp;
	else
		free(tmp.cmdline);
	return ret;
}
