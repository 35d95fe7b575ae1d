/*
 * store_fixture.h - the store under test, on either backend, for the unit
 * tests of src/store/: a SQLite file in a new temporary directory
 * (setup_sqlite), or a new database on the PostgreSQL server whose socket
 * directory the test runner puts in COPYSCOPE_TEST_PG_HOST (setup_pg;
 * tests/run-tests.sh starts a throw-away one).  Without a server the
 * PostgreSQL cases are skipped, each listed in COPYSCOPE_SKIPS so that
 * the runner counts it as skipped, never as passed.  Every database a
 * test makes is dropped by teardown.  Include after <cmocka.h>.
 */
#ifndef COPYSCOPE_STORE_FIXTURE_H
#define COPYSCOPE_STORE_FIXTURE_H

#include <ftw.h>
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

#define FX_MAX_DBS 16

struct fixture {
	char dir[64];		/* a temporary directory (both backends) */
	char db[512];		/* the store: a path or a URL */
	bool pg;
	bool no_server;		/* PostgreSQL wanted, none here: skip */
	char pgdbs[FX_MAX_DBS][64];	/* databases made, to drop */
	int npgdbs;
};

static inline const char *fx_pg_host(void)
{
	const char *h = getenv("COPYSCOPE_TEST_PG_HOST");

	return h && *h ? h : NULL;
}

/* Run one SQL command as the server's superuser on database db. */
static inline void fx_pg_admin(const char *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void fx_pg_admin(const char *db, const char *fmt, ...)
{
	char url[512], sql[1024];
	PGresult *res;
	PGconn *c;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	snprintf(url, sizeof(url), "postgresql:///%s?host=%s", db,
		 fx_pg_host());
	c = PQconnectdb(url);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("cannot connect to %s: %s", url, PQerrorMessage(c));
	res = PQexec(c, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		fail_msg("'%s' failed: %s", sql, PQerrorMessage(c));
	PQclear(res);
	PQfinish(c);
}

/*
 * A new, empty store of the fixture's kind, named after name: a path in
 * the fixture's directory, or a new PostgreSQL database.  Written to out.
 */
static inline void fx_new_store(struct fixture *fx, const char *name,
				char *out, size_t len)
{
	char *db;

	if (!fx->pg) {
		snprintf(out, len, "%s/%s.db", fx->dir, name);
		return;
	}
	assert_true(fx->npgdbs < FX_MAX_DBS);
	db = fx->pgdbs[fx->npgdbs];
	snprintf(db, sizeof(fx->pgdbs[0]), "cs_unit_%d_%d_%s", (int)getpid(),
		 fx->npgdbs, name);
	fx_pg_admin("postgres", "CREATE DATABASE %s", db);
	fx->npgdbs++;
	snprintf(out, len, "postgresql:///%s?host=%s", db, fx_pg_host());
}

static inline int fx_setup(void **state, bool pg)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_store.XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	*state = fx;
	fx->pg = pg;
	if (pg && !fx_pg_host()) {
		fx->no_server = true;
		return 0;
	}
	if (pg)
		fx_new_store(fx, "main", fx->db, sizeof(fx->db));
	else	/* a subdirectory that does not exist yet: store_open
		   makes it */
		snprintf(fx->db, sizeof(fx->db), "%s/a/b/results.db",
			 fx->dir);
	return 0;
}

static inline int setup_sqlite(void **state)
{
	return fx_setup(state, false);
}

static inline int setup_pg(void **state)
{
	return fx_setup(state, true);
}

static inline int fx_remove_one(const char *path, const struct stat *sb,
				int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* rm -rf of the fixture directory, without a shell; drop its databases. */
static inline int teardown(void **state)
{
	struct fixture *fx = *state;
	int rc, i;

	for (i = 0; i < fx->npgdbs; i++)
		fx_pg_admin("postgres", "DROP DATABASE %s WITH (FORCE)",
			    fx->pgdbs[i]);
	rc = nftw(fx->dir, fx_remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return rc == 0 ? 0 : -1;
}

/*
 * At the start of a test that runs on either backend: a PostgreSQL case
 * without a server is skipped, and listed for the test runner.
 */
#define FX_NEED_DB(fx) \
	do { \
		if ((fx)->no_server) { \
			fx_note_skip(__func__); \
			skip(); \
		} \
	} while (0)

static inline void fx_note_skip(const char *test)
{
	const char *path = getenv("COPYSCOPE_SKIPS");
	FILE *f;

	fprintf(stderr, "-- skipped: %s on PostgreSQL: no server "
		"(COPYSCOPE_TEST_PG_HOST is not set)\n", test);
	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%s on PostgreSQL: no server (COPYSCOPE_TEST_PG_HOST is "
		"not set)\n", test);
	fclose(f);
}

static inline struct store *open_ok(const char *path)
{
	struct store *st = NULL;
	char err[512] = "";

	if (store_open(path, &st, err, sizeof(err)) != 0)
		fail_msg("store_open(%s): %s", path, err);
	assert_non_null(st);
	return st;
}

/* Case-insensitive: is needle in haystack? */
static inline bool fx_has(const char *haystack, const char *needle)
{
	return strcasestr(haystack, needle) != NULL;
}

#endif
