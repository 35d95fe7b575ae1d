/*
 * db.h - what the store's files share inside src/store/: the connection
 * and its backend, statements that run on either backend, error messages
 * that name the database, and transactions.  Not for use outside the
 * store.
 *
 * Two backends sit behind one table of operations (struct db_ops):
 * SQLite (db_sqlite.c, a file per host) and PostgreSQL (db_pg.c, the
 * shared store of a lab, through libpq).  Every query of read.c, write.c
 * and select.c is written once, in SQL both accept, with '?' for its
 * parameters (the PostgreSQL backend numbers them $1, $2...), and run
 * through the db_* functions below.  Where the dialects differ it says
 * DIALECT, and that is all of it: the column types of the schema
 * (schema.c), how the schema version is kept (PRAGMA user_version; the
 * table copyscope_schema), how a write transaction begins and takes the
 * schema lock (BEGIN IMMEDIATE; BEGIN and an advisory lock) and how a
 * read sees one snapshot (BEGIN; REPEATABLE READ).
 */
#ifndef COPYSCOPE_STORE_DB_H
#define COPYSCOPE_STORE_DB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "store/store.h"

struct db_ops;

struct store {
	const struct db_ops *ops;
	void *conn;		/* sqlite3 * or PGconn * */
	bool opening;		/* inside store_open: errors say so */
	int64_t busy_since_ns;	/* SQLite: when the wait for a lock began */
	int64_t changes;	/* PostgreSQL: rows the last command changed */
	char lasterr[512];	/* PostgreSQL: the last error, one line */
	bool dead;		/* PostgreSQL: the server stopped answering
				   (a statement timed out): every later
				   command fails with lasterr */
	/* SQLite: the file opened, by name and by device and inode, to
	   tell whether the file at the name is still it */
	char file[PATH_MAX];
	dev_t file_dev;
	ino_t file_ino;
	bool read_only;		/* opened for reading only */
	/* the database as messages name it: the path, or the URL with its
	   passwords masked */
	char path[PATH_MAX];
};

/* A prepared statement; each backend's own starts with this. */
struct db_stmt {
	struct store *st;
};

/* What db_step() found. */
enum db_step_result {
	DB_ERROR = -1,
	DB_DONE = 0,
	DB_ROW = 1,
};

/*
 * A backend.  Functions return 0 or -1 unless said otherwise; on -1 the
 * reason is errmsg(st).  Bind and column indexes are those of SQLite:
 * parameters count from 1, columns from 0.
 */
struct db_ops {
	const char *name;			/* "SQLite", "PostgreSQL" */
	/* Connect to target (st->path is set); err says why not. */
	int (*open)(struct store *st, const char *target, char *err,
		    size_t errlen);
	void (*close)(struct store *st);
	const char *(*errmsg)(struct store *st);
	/* One or more statements without parameters or rows. */
	int (*exec)(struct store *st, const char *sql);
	int (*prepare)(struct store *st, const char *sql,
		       struct db_stmt **out);
	int (*bind_int64)(struct db_stmt *s, int i, int64_t v);
	int (*bind_double)(struct db_stmt *s, int i, double v);
	/* v NULL: SQL NULL; else its first len bytes */
	int (*bind_text)(struct db_stmt *s, int i, const char *v, size_t len);
	int (*step)(struct db_stmt *s);		/* enum db_step_result */
	bool (*col_null)(struct db_stmt *s, int col);
	int64_t (*col_int64)(struct db_stmt *s, int col);	/* NULL: 0 */
	double (*col_double)(struct db_stmt *s, int col);
	const char *(*col_text)(struct db_stmt *s, int col);	/* NULL */
	/* Ready to run again: rows and bindings dropped. */
	int (*reset)(struct db_stmt *s);
	int (*finalize)(struct db_stmt *s);
	int64_t (*changes)(struct store *st);	/* by the last statement */
	bool (*in_transaction)(struct store *st);
	/*
	 * DIALECT: begin a write transaction (SQLite: the write lock now,
	 * or a wait for it); begin a read of one consistent snapshot.
	 */
	const char *begin_write_sql;
	const char *begin_read_sql;
	/*
	 * DIALECT: inside a write transaction, make every other opener
	 * wait until it ends before it reads or changes the schema (SQLite:
	 * BEGIN IMMEDIATE did it; PostgreSQL: an advisory lock).
	 */
	int (*lock_schema)(struct store *st);
	/*
	 * DIALECT: the schema version (0: none) and how many tables,
	 * indexes or views the database holds besides the version itself.
	 */
	int (*schema_state)(struct store *st, int *version, int *nobjects);
	int (*set_version)(struct store *st, int version);
	/*
	 * SQLite: whether the file at the name opened is still the one
	 * opened (a regular file, same device and inode, linked), and a
	 * second connection to it in *fresh (a new struct store the caller
	 * closes), which reads what is in the file and the WAL at that
	 * name, not what this connection alone may see.  NULL for
	 * PostgreSQL, whose server is the only copy.
	 */
	int (*open_again)(struct store *st, struct store **fresh, char *err,
			  size_t errlen);
	/* SQLite: do not write this connection's WAL into the file at
	   close (a lost connection must not overwrite another's pages) */
	void (*forget_wal)(struct store *st);
	/* migrations[v] takes the schema from version v to v + 1 */
	const char *const *migrations;
};

extern const struct db_ops db_sqlite_ops;
extern const struct db_ops db_pg_ops;

/* The schema in each dialect (schema.c). */
extern const char *const store_migrations[];	/* SQLite */
extern const char *const store_migrations_pg[];

/* The statuses a run may have (the CHECK of the runs table). */
extern const char *const store_run_statuses[];
extern const size_t store_nrun_statuses;

/*
 * PostgreSQL's timeouts (store_set_timeouts): 0 for the defaults,
 * DB_CONNECT_TIMEOUT_S (unless the URL or PGCONNECT_TIMEOUT says) and
 * DB_STATEMENT_TIMEOUT_S.
 */
#define DB_CONNECT_TIMEOUT_S 10
#define DB_STATEMENT_TIMEOUT_S 60
extern int db_connect_timeout_s;
extern int db_statement_timeout_s;

void db_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* err = "<what> in database '<path>': <backend message>" */
void db_err(struct store *st, char *err, size_t errlen, const char *what);
int64_t db_now_ns(void);
int64_t db_mono_ns(void);
void db_copy_str(char *dst, size_t size, const char *src);
int db_exec(struct store *st, const char *sql, char *err, size_t errlen);
int db_prepare(struct store *st, const char *sql, struct db_stmt **s,
	       char *err, size_t errlen);
/* Statements: the backend's operations (struct db_ops). */
int db_bind_int64(struct db_stmt *s, int i, int64_t v);
int db_bind_double(struct db_stmt *s, int i, double v);
/* Bind v (NULL: SQL NULL), at most max bytes of it; max 0: no limit. */
int db_bind_text(struct db_stmt *s, int i, const char *v, size_t max);
int db_bind_null(struct db_stmt *s, int i);
int db_step(struct db_stmt *s);
bool db_col_null(struct db_stmt *s, int col);
int64_t db_col_int64(struct db_stmt *s, int col);
int db_col_int(struct db_stmt *s, int col);
double db_col_double(struct db_stmt *s, int col);
const char *db_col_text(struct db_stmt *s, int col);
/* malloc'ed copy of a text column, NULL for SQL NULL; -1 on ENOMEM. */
int db_col_dup(struct db_stmt *s, int col, char **out);
int db_reset(struct db_stmt *s);
/* Finalize s (NULL: nothing); 0 or -1. */
int db_finalize(struct db_stmt *s);
int64_t db_changes(struct store *st);
/* Begin a write transaction (the write lock now, or a wait for it). */
int db_begin_write(struct store *st, char *err, size_t errlen);
/* Begin a read that sees one consistent snapshot. */
int db_begin_read(struct store *st, char *err, size_t errlen);
int db_commit(struct store *st, char *err, size_t errlen);
/* Roll back an open transaction; the error already in err is kept. */
void db_rollback(struct store *st);
/* Run a statement that returns no rows; then reset it for reuse. */
int db_step_done(struct store *st, struct db_stmt *s, const char *what,
		 char *err, size_t errlen);
/*
 * Run an INSERT ... RETURNING id: *id gets the id of the row it added,
 * or 0 when it added none (ON CONFLICT DO NOTHING); then reset it.
 */
int db_step_id(struct store *st, struct db_stmt *s, const char *what,
	       int64_t *id, char *err, size_t errlen);

/*
 * The observation row of run_id (store/observation_rows.c), inside the
 * caller's transaction: insert json (NULL: nothing), or load it into
 * *json (malloc'ed; NULL when the run has none).  0 or -1 (err).
 */
int db_insert_observation(struct store *st, int64_t run_id,
			  const char *json, char *err, size_t errlen);
int db_load_observation(struct store *st, int64_t run_id, char **json,
			char *err, size_t errlen);

/*
 * The schema version, and whether a database without one is copyscope's
 * to create: a database without a schema version must be empty, since
 * one with tables of its own is some other program's (or a damaged one),
 * and nothing is changed in it; a newer version is refused.  Returns 0
 * with *v set, or -1 with the reason in err.
 */
int db_check_schema(struct store *st, int *v, char *err, size_t errlen);

/*
 * The columns of a run as db_row_to_run() reads them, from runs r: its
 * row, its result count and its kernel release (read.c); then one column
 * per stored run option, in the order of results/run_options.h's table,
 * which db_run_columns() appends.
 */
#define DB_RUN_OWN_COLUMNS "r.id, r.started_ns, r.finished_ns, r.tag, " \
	"r.host, r.boot_id, r.tool_version, r.build_flavour, r.cmdline, " \
	"r.status, (SELECT count(*) FROM results x WHERE x.run_id = r.id), " \
	"(SELECT e.value FROM environment e WHERE e.run_id = r.id " \
	"AND e.key = 'kernel.release'), r.pid, r.uuid, r.group_id"
#define DB_RUN_OWN_NCOLUMNS 15

/* DB_RUN_OWN_COLUMNS and ", r.OPTION" for each option (static text). */
const char *db_run_columns(void);

/*
 * Prepare "SELECT <db_run_columns()> FROM runs r <tail>": 0, or -1 with
 * err.
 */
int db_prepare_runs(struct store *st, const char *tail, struct db_stmt **s,
		    char *err, size_t errlen);

/* Fill run from a row of db_run_columns(); 0, or -1 on ENOMEM. */
int db_row_to_run(struct db_stmt *s, struct run_info *run);

/*
 * The columns of a result as db_row_to_result() reads them, from
 * results: its row without its samples and histogram.
 */
#define DB_RESULT_COLUMNS "id, seq, workload, params, metric, unit, " \
	"direction, info"

struct result_row;

/*
 * Fill row from the DB_RESULT_COLUMNS that start at column first of s
 * (0 when the query selects them alone, 1 after a leading run_id).  The
 * texts point into s until its next step; samples and buckets are left
 * as they are.  0, or -1 when a text the row needs is NULL (ENOMEM).
 */
int db_row_to_result(struct db_stmt *s, int first, struct result_row *row);

#define DB_BIND_STR(s, i, field) db_bind_text(s, i, field, sizeof(field))

#endif
