/*
 * db.h - what the store's files share inside src/store/: the connection,
 * error messages that name the database, and small wrappers around
 * SQLite's prepared statements and transactions.  Not for use outside the
 * store.
 */
#ifndef COPYSCOPE_STORE_DB_H
#define COPYSCOPE_STORE_DB_H

#include <limits.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	bool opening;		/* inside store_open: errors say so */
	int64_t busy_since_ns;	/* when the current wait for a lock began */
	char path[PATH_MAX];
};

/* Migrations: store_migrations[v] takes user_version v to v + 1. */
extern const char *const store_migrations[];

/* The statuses a run may have (the CHECK of the runs table). */
extern const char *const store_run_statuses[];
extern const size_t store_nrun_statuses;

void db_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* err = "<what> in database '<path>': <sqlite message>" */
void db_err(struct store *st, char *err, size_t errlen, const char *what);
int64_t db_now_ns(void);
void db_copy_str(char *dst, size_t size, const char *src);
const char *db_col_text(sqlite3_stmt *s, int col);
/* malloc'ed copy of a text column, NULL for SQL NULL; -1 on ENOMEM. */
int db_col_dup(sqlite3_stmt *s, int col, char **out);
int db_exec(struct store *st, const char *sql, char *err, size_t errlen);
int db_prepare(struct store *st, const char *sql, sqlite3_stmt **s,
	       char *err, size_t errlen);
/* BEGIN IMMEDIATE: the write lock now, or a busy wait for it. */
int db_begin_write(struct store *st, char *err, size_t errlen);
int db_commit(struct store *st, char *err, size_t errlen);
/* Roll back an open transaction; the error already in err is kept. */
void db_rollback(struct store *st);
/* Run a statement that returns no rows; then reset it for reuse. */
int db_step_done(struct store *st, sqlite3_stmt *s, const char *what,
		 char *err, size_t errlen);
/* Bind v (NULL: SQL NULL), at most max bytes of it; max 0: no limit. */
int db_bind_text(sqlite3_stmt *s, int i, const char *v, size_t max);

#define DB_BIND_STR(s, i, field) db_bind_text(s, i, field, sizeof(field))

#endif
