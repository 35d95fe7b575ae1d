/*
 * test_store_pg.c - unit tests of what only the PostgreSQL store has (the
 * rest runs on both backends in test_store.c): what a database name is
 * taken for (a URL is never a path; schemes other than postgresql:// are
 * refused), passwords masked in names and messages; and, on the server
 * the test runner starts (store_fixture.h): another program's database
 * and a newer schema refused and left unchanged; eight processes adding
 * the same runs at once, each run stored exactly once; text that is not
 * UTF-8.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "env/env.h"
#include "result_fixture.h"
#include "store/store.h"
#include "store_fixture.h"

#define ERR_SZ 1024

/* The one value of SQL run as the superuser on the database of url. */
static long long pg_value(const char *url, const char *sql)
{
	PGresult *res;
	PGconn *c = PQconnectdb(url);
	long long v;

	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("cannot connect to %s: %s", url, PQerrorMessage(c));
	res = PQexec(c, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		fail_msg("'%s' failed: %s", sql, PQerrorMessage(c));
	v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	PQfinish(c);
	return v;
}

static char *masked(const char *s)
{
	char *m = store_mask_secrets(s);

	assert_non_null(m);
	return m;
}

static void expect_mask(const char *in, const char *want)
{
	char *m = masked(in);

	assert_string_equal(m, want);
	free(m);
}

/* No server needed: names, masking, refusals. */
static void test_targets(void **state)
{
	struct fixture *fx = *state;
	char err[ERR_SZ] = "", cwd[PATH_MAX], probe[PATH_MAX];
	struct store *st = NULL;
	struct stat sb;

	assert_true(store_is_url("postgresql:///copyscope?host=/run/pg"));
	assert_true(store_is_url("postgres://h/db"));
	assert_true(store_is_url("mysql://h/db"));
	assert_true(store_is_url("PostgreSQL:/x"));
	assert_true(store_is_url("postgres:x"));
	assert_false(store_is_url("/var/lib/results.db"));
	assert_false(store_is_url("results:2024.db"));
	assert_false(store_is_url("./mysql://x"));
	assert_false(store_is_url("1abc://x"));

	expect_mask("postgresql://u:pw@h/db", "postgresql://u:***@h/db");
	expect_mask("postgresql://u@h:5432/db", "postgresql://u@h:5432/db");
	expect_mask("postgresql://h:5432/db?x=1", "postgresql://h:5432/db?x=1");
	expect_mask("postgresql:///db?host=/s&password=p%40ss&sslmode=require",
		    "postgresql:///db?host=/s&password=***&sslmode=require");
	expect_mask("postgresql://u:a@b@h/db?sslpassword=k",
		    "postgresql://u:***@h/db?sslpassword=***");
	expect_mask("copyscope run --db=postgres://me:x/y@h/d --tag t",
		    "copyscope run --db=postgres://me:***@h/d --tag t");
	expect_mask("no secrets here", "no secrets here");
	expect_mask("password=", "password=");
	/* the forms masked before issue 25 */
	expect_mask("postgresql:///d?host=/s&PassWord=Up1",
		    "postgresql:///d?host=/s&PassWord=***");
	expect_mask("postgres://a:1@h/d postgres://b:2@h/d?password=3",
		    "postgres://a:***@h/d postgres://b:***@h/d?password=***");
	/* libpq takes "3#x" as the password: all of that URL is masked */
	expect_mask("postgres://b:2@h/d?password=3#x", "postgres://***");
	/* percent-encoded names, which libpq decodes (issue 25 item 5) */
	expect_mask("postgresql:///d?host=/s&user=u&pass%77ord=S3cretPW",
		    "postgresql:///d?host=/s&user=u&pass%77ord=***");
	expect_mask("postgresql:///d?%70assword=S3cretPW&sslmode=disable",
		    "postgresql:///d?%70assword=***&sslmode=disable");
	expect_mask("postgresql:///d?%70%61%73%73%77%6F%72%64=S3cretPW",
		    "postgresql:///d?%70%61%73%73%77%6F%72%64=***");
	expect_mask("postgresql:///d?ssl%70assword=S3cretPW",
		    "postgresql:///d?ssl%70assword=***");
	/* conninfo: blanks around '=', a quoted value */
	expect_mask("host=/s password = 'x y\\' z' dbname=d",
		    "host=/s password = *** dbname=d");
	expect_mask("host=/s password=S3cretPW dbname=d",
		    "host=/s password=*** dbname=d");
	/* whatever the spelling, libpq must find no password left */
	expect_mask("postgresql:///d?pass%2577ord=x",
		    "postgresql:///d?pass%2577ord=x");

	/* other schemes are refused, naming the supported ones */
	assert_int_equal(store_open("mysql://u:Hidden9@h/db", &st, err,
				    sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, "postgresql://"));
	assert_non_null(strstr(err, "'mysql://'"));
	assert_null(strstr(err, "Hidden9"));
	assert_int_equal(store_open("postgresql:/copyscope", &st, err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "begins with postgresql://"));

	/*
	 * The bug this guards against: the URL was taken for a path and a
	 * directory "postgresql:" made in the current directory.
	 */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(fx->dir), 0);
	assert_int_equal(store_open("postgresql://u:Hidden9@/copyscope?host="
				    "/nonexistent-dir", &st, err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open database "
			       "'postgresql://u:***@/copyscope?host="
			       "/nonexistent-dir'"));
	assert_null(strstr(err, "Hidden9"));
	assert_int_equal(store_open("postgres:///c?host=/nonexistent-dir",
				    &st, err, sizeof(err)), -1);
	assert_int_equal(store_open("mysql://h/db", &st, err, sizeof(err)),
			 -1);
	assert_int_equal(chdir(cwd), 0);
	snprintf(probe, sizeof(probe), "%s/postgresql:", fx->dir);
	assert_int_equal(stat(probe, &sb), -1);
	snprintf(probe, sizeof(probe), "%s/postgres:", fx->dir);
	assert_int_equal(stat(probe, &sb), -1);
	snprintf(probe, sizeof(probe), "%s/mysql:", fx->dir);
	assert_int_equal(stat(probe, &sb), -1);
}

/*
 * A database with tables of its own and no copyscope schema version is
 * refused, and nothing is made in it; a newer schema is refused too.
 */
static void test_not_ours(void **state)
{
	struct fixture *fx = *state;
	char err[ERR_SZ] = "", url[512], *db;
	struct store *st = NULL;

	FX_NEED_DB(fx);
	fx_new_store(fx, "other", url, sizeof(url));
	db = fx->pgdbs[fx->npgdbs - 1];
	fx_pg_admin(db, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES "
		    "(42)");
	assert_int_equal(store_open(url, &st, err, sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, "not a copyscope database"));
	assert_int_equal(pg_value(url, "SELECT count(*) FROM pg_tables WHERE "
				  "schemaname = 'public'"), 1);

	fx_new_store(fx, "newer", url, sizeof(url));
	db = fx->pgdbs[fx->npgdbs - 1];
	fx_pg_admin(db, "CREATE TABLE copyscope_schema (version INTEGER NOT "
		    "NULL); INSERT INTO copyscope_schema VALUES (99)");
	assert_int_equal(store_open(url, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "99"));
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(pg_value(url, "SELECT count(*) FROM pg_tables WHERE "
				  "schemaname = 'public'"), 1);

	/* ours: the version is there, and the same as SQLite's */
	st = open_ok(fx->db);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	store_close(st);
	assert_int_equal(pg_value(fx->db, "SELECT version FROM "
				  "copyscope_schema"), STORE_SCHEMA_VERSION);
}

#define ADDERS 8
#define NRUNS 12

/* Run k of the runs every adder adds: the same unique ids in each. */
static void make_run(struct run_data *run, int k)
{
	static const double x[4] = { 1.25, 2.5, 3.75, 1e-9 };

	memset(run, 0, sizeof(*run));
	result_set_init(&run->results);
	snprintf(run->info.uuid, sizeof(run->info.uuid), "%032x", k + 1);
	snprintf(run->info.host, sizeof(run->info.host), "lab%d", k % 3);
	run->info.started_ns = 1000 + k;
	run->info.finished_ns = 2000 + k;
	assert_int_equal(env_set(&run->env, "kernel.release", "6.18.0"), 0);
	assert_int_equal(env_set(&run->env, "hostname", run->info.host), 0);
	fx_add(&run->results, "sys.null", "{}", "time/call", "ns", -1, x, 4,
	       NULL);
	fx_add(&run->results, "sys.null", "{}", "cycles/call", "cycles", -1,
	       x, 4, NULL);
}

/*
 * Eight processes add the same twelve runs at the same instant (hosts
 * pushing the same runs twice, two pushes of one host at once): every
 * run ends up stored exactly once, whole, and no adder fails.  Each
 * child exits with how many runs it added; they add up to twelve.
 */
static void test_add_run_race(void **state)
{
	struct fixture *fx = *state;
	char err[ERR_SZ] = "", sql[160];
	int go[2], w, k, status, added = 0;
	pid_t pids[ADDERS];
	struct store *st;

	FX_NEED_DB(fx);
	st = open_ok(fx->db);	/* the schema made beforehand */
	store_close(st);
	assert_int_equal(pipe(go), 0);
	for (w = 0; w < ADDERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] != 0)
			continue;
		close(go[1]);
		if (read(go[0], &k, 1) != 0)
			_exit(100);
		if (store_open(fx->db, &st, err, sizeof(err)))
			_exit(101);
		for (k = 0, added = 0; k < NRUNS; k++) {
			/* half of them in the other order */
			struct run_data run;
			int rc;

			make_run(&run, w % 2 ? NRUNS - 1 - k : k);
			rc = store_add_run(st, &run, err, sizeof(err));
			if (rc < 0) {
				fprintf(stderr, "adder %d: %s\n", w, err);
				_exit(102);
			}
			added += rc == 0;
			run_data_free(&run);
		}
		store_close(st);
		_exit(added);
	}
	close(go[0]);
	close(go[1]);		/* all read EOF together */
	added = 0;
	for (w = 0; w < ADDERS; w++) {
		assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
		assert_true(WIFEXITED(status));
		assert_true(WEXITSTATUS(status) <= NRUNS);
		added += WEXITSTATUS(status);
	}
	assert_int_equal(added, NRUNS);
	assert_int_equal(pg_value(fx->db, "SELECT count(*) FROM runs"),
			 NRUNS);
	assert_int_equal(pg_value(fx->db, "SELECT count(DISTINCT uuid) FROM "
				  "runs"), NRUNS);
	/* whole: two results of four samples each, two environment keys */
	assert_int_equal(pg_value(fx->db, "SELECT count(*) FROM results"),
			 2 * NRUNS);
	assert_int_equal(pg_value(fx->db, "SELECT count(*) FROM samples"),
			 8 * NRUNS);
	assert_int_equal(pg_value(fx->db, "SELECT count(*) FROM "
				  "environment"), 2 * NRUNS);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs WHERE "
		 "finished_ns - started_ns <> 1000");
	assert_int_equal(pg_value(fx->db, sql), 0);
}

/*
 * PostgreSQL text is UTF-8: a command line with a byte that is not (a
 * path) is stored with it as \xNN rather than refused; valid text,
 * control characters and quotes come back as they were.
 */
static void test_text(void **state)
{
	struct fixture *fx = *state;
	struct run_info run = { 0 };
	struct run_data got;
	char err[ERR_SZ] = "";
	struct env env = { 0 };
	struct store *st;

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	run.cmdline = strdup("copyscope run --db /tmp/\xff.db '?' $1");
	assert_non_null(run.cmdline);
	snprintf(run.tag, sizeof(run.tag), "t\xc3\xa4g 'x' \"y\" ? $1");
	assert_int_equal(env_set(&env, "cpu.model", "caf\xc3\xa9\tline"), 0);
	assert_int_equal(store_begin_run(st, &run, &env, err, sizeof(err)),
			 0);
	assert_int_equal(store_load_run(st, run.id, &got, err, sizeof(err)),
			 0);
	assert_string_equal(got.info.cmdline,
			    "copyscope run --db /tmp/\\xff.db '?' $1");
	assert_string_equal(got.info.tag, run.tag);
	assert_string_equal(env_get(&got.env, "cpu.model"),
			    "caf\xc3\xa9\tline");
	run_data_free(&got);
	free(run.cmdline);
	env_free(&env);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_targets, setup_sqlite,
						teardown),
		cmocka_unit_test_setup_teardown(test_not_ours, setup_pg,
						teardown),
		cmocka_unit_test_setup_teardown(test_add_run_race, setup_pg,
						teardown),
		cmocka_unit_test_setup_teardown(test_text, setup_pg,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
