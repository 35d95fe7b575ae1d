/*
 * test_store.c - unit tests for the result store (src/store/), each that
 * is not about files run on both backends, SQLite and PostgreSQL
 * (store_fixture.h): round trip of runs with their options, environment
 * (in its order) and results (the results model, decoded again
 * unchanged), samples and histograms; missing runs; invalid writes;
 * unfinished runs; concurrent writers; concurrent openers of a new
 * database; whole runs added once by their unique id.  SQLite only:
 * schema migrations (0 -> 3, 1 -> 3 moving the run options out of the
 * environment, 2 -> 3 numbering the environment in its order) and
 * refusal of newer schemas and other programs' files; unusable paths; the
 * default path.  PostgreSQL only: test_store_pg.c.
 */
#include <errno.h>
#include <ftw.h>
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
#include <sqlite3.h>

#include "env/env.h"
#include "result_fixture.h"
#include "store/db.h"
#include "store/store.h"
#include "store_fixture.h"

#define ERR_SZ 512

/* A full info object, as results/codec.c writes it (sorted keys). */
#define INFO0 "{\"batch_ops\":16,\"ctx_switches\":[1,2,3,4]," \
	"\"faults\":null,\"hist\":{\"max\":25,\"mean\":12.5,\"min\":1," \
	"\"of\":\"writer\",\"ops\":15},\"interference\":{\"canary_ns\":" \
	"[1.0,2.0,3.0,4.0],\"canary_ref_ns\":1.0,\"flagged\":[false,true," \
	"false,false],\"other_cpu_pct\":[0.0,20.0,null,1.0],\"steal_pct\":" \
	"[0.0,0.0,0.0,0.0],\"why\":[\"\",\"other\",\"\",\"\"]},\"job\":0," \
	"\"migrations\":[0,0,0,0],\"note\":\"pipe capacity 65536\"," \
	"\"workers\":[{\"cpu_requested\":0,\"cpus\":[0],\"name\":" \
	"\"writer\"},{\"cpu_requested\":-1,\"cpus\":[0,1],\"name\":" \
	"\"reader\"}]}"

static void test_round_trip(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct env env = { 0 };
	struct run_info run = { 0 }, *runs;
	struct run_data got;
	struct result_set set;
	const double s0[] = { 1.5, 2.25, -3.0, 1e300 };
	const double s1[] = { 42.0 };
	static struct result_bucket h0[] = {
		{ 0, 9, 5 }, { 10, 19, 7 }, { 20, -1, 3 },	/* overflow */
	};
	char err[ERR_SZ] = "", *a, *b;
	size_t n, i, j;

	FX_NEED_DB(fx);
	assert_int_equal(env_set(&env, "kernel.release", "6.1.0-test"), 0);
	assert_int_equal(env_set(&env, "hostname", "box"), 0);
	assert_int_equal(env_set(&env, "boot_id",
				 "01234567-89ab-cdef-0123-456789abcdef"), 0);
	assert_int_equal(env_set(&env, "a.quote", "it's \"quoted\"; --"), 0);

	st = open_ok(fx->db);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);

	run.started_ns = 1700000000123456789LL;
	snprintf(run.tag, sizeof(run.tag), "baseline'); DROP TABLE runs;--");
	snprintf(run.host, sizeof(run.host), "box");
	snprintf(run.tool_version, sizeof(run.tool_version), "v1.2");
	snprintf(run.build_flavour, sizeof(run.build_flavour), "release");
	run.cmdline = strdup("copyscope run --tag baseline");
	run.have_options = true;
	run.opts.reps = 7;
	run.opts.sample_time_ns = 25000000;
	run.opts.warmup_ns = 0;
	snprintf(run.opts.cpus, sizeof(run.opts.cpus), "0-3,7");
	run.opts.hist = true;
	run.opts.interleave = true;
	run.opts.interleave_seed = UINT64_MAX;	/* beyond SQLite's int64 */
	run.opts.kviews = KVIEW_LOCK | KVIEW_SYSCALL;
	assert_int_equal(store_begin_run(st, &run, &env, err, sizeof(err)),
			 0);
	assert_true(run.id > 0);
	assert_string_equal(run.status, "running");
	/* boot_id was empty: taken from the environment */
	assert_string_equal(run.boot_id,
			    "01234567-89ab-cdef-0123-456789abcdef");

	result_set_init(&set);
	fx_add(&set, "pipe.bw", "{\"size\":\"4k\"}", "throughput", "GB/s",
	       1, s0, 4, INFO0);
	/* the histogram: as if it came with the row */
	set.v[0].hist->buckets = malloc(sizeof(h0));
	assert_non_null(set.v[0].hist->buckets);
	memcpy(set.v[0].hist->buckets, h0, sizeof(h0));
	set.v[0].hist->nbuckets = 3;
	fx_add(&set, "pipe.bw", "{\"size\":\"4k\"}", "cold throughput",
	       "ns", 0, s1, 1, "{\"job\":0,\"trace\":true}");
	fx_add(&set, "pipe", "{}", "latency", "ns", -1, s1, 1, NULL);
	assert_int_equal(set.ncfgs, 2);
	/* one configuration per transaction */
	assert_int_equal(store_add_results(st, run.id, set.v, 2, err,
					   sizeof(err)), 0);
	assert_int_equal(store_add_results(st, run.id, set.v + 2, 1, err,
					   sizeof(err)), 0);
	assert_true(set.v[0].id > 0 && set.v[2].id > 0);
	assert_int_equal(store_finish_run(st, run.id, "complete",
					  1700000001000000000LL, err,
					  sizeof(err)), 0);
	store_close(st);

	st = open_ok(fx->db);
	assert_int_equal(store_list_runs(st, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, run.id);
	assert_int_equal(runs[0].nresults, 3);
	assert_string_equal(runs[0].status, "complete");
	assert_string_equal(runs[0].tag, run.tag);
	assert_string_equal(runs[0].kernel, "6.1.0-test");
	store_free_runs(runs, n);

	assert_int_equal(store_load_run(st, run.id, &got, err, sizeof(err)),
			 0);
	assert_int_equal(got.info.id, run.id);
	assert_int_equal(got.info.started_ns, run.started_ns);
	assert_int_equal(got.info.finished_ns, 1700000001000000000LL);
	assert_string_equal(got.info.tag, run.tag);
	assert_string_equal(got.info.host, "box");
	assert_string_equal(got.info.boot_id, run.boot_id);
	assert_string_equal(got.info.tool_version, "v1.2");
	assert_string_equal(got.info.build_flavour, "release");
	assert_string_equal(got.info.cmdline, run.cmdline);
	assert_string_equal(got.info.status, "complete");
	/* the options, typed */
	assert_true(got.info.have_options);
	assert_int_equal(got.info.opts.reps, 7);
	assert_int_equal(got.info.opts.sample_time_ns, 25000000);
	assert_int_equal(got.info.opts.warmup_ns, 0);
	assert_string_equal(got.info.opts.cpus, "0-3,7");
	assert_true(got.info.opts.hist);
	assert_true(got.info.opts.interleave);
	assert_true(got.info.opts.interleave_seed == UINT64_MAX);
	assert_false(got.info.opts.perf_counters);
	assert_int_equal(got.info.opts.kviews, KVIEW_LOCK | KVIEW_SYSCALL);

	assert_int_equal(got.env.n, env.n);
	for (i = 0; i < env.n; i++) {
		assert_string_equal(got.env.items[i].key, env.items[i].key);
		assert_string_equal(got.env.items[i].value,
				    env.items[i].value);
	}

	assert_int_equal(got.results.n, 3);
	assert_int_equal(got.results.ncfgs, 2);
	assert_ptr_equal(got.results.v[0].cfg, got.results.v[1].cfg);
	for (i = 0; i < 3; i++) {
		const struct result *x = &set.v[i], *y = &got.results.v[i];

		assert_int_equal(y->id, x->id);
		assert_int_equal(y->seq, x->seq);
		assert_string_equal(y->cfg->workload, x->cfg->workload);
		assert_string_equal(y->cfg->params_json, x->cfg->params_json);
		assert_string_equal(y->metric, x->metric);
		assert_string_equal(y->unit, x->unit);
		assert_int_equal(y->direction, x->direction);
		assert_int_equal(y->trace, x->trace);
		assert_int_equal(y->nsamples, x->nsamples);
		for (j = 0; j < x->nsamples; j++)
			assert_true(y->samples[j] == x->samples[j]);
		assert_true(y->summary.median == x->summary.median);
		/* the info text survives the round trip unchanged */
		a = result_info_text(x);
		b = result_info_text(y);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	assert_non_null(got.results.v[0].hist);
	assert_int_equal(got.results.v[0].hist->nbuckets, 3);
	for (j = 0; j < 3; j++) {
		assert_int_equal(got.results.v[0].hist->buckets[j].lo, h0[j].lo);
		assert_int_equal(got.results.v[0].hist->buckets[j].hi, h0[j].hi);
		assert_int_equal(got.results.v[0].hist->buckets[j].count,
				 h0[j].count);
	}
	assert_null(got.results.v[2].hist);
	/* flagged sample 1 of 4; the trace's value is never flagged */
	assert_false(result_value_flagged(&got.results.v[0], 0));
	assert_true(result_value_flagged(&got.results.v[0], 1));
	assert_false(result_value_flagged(&got.results.v[1], 0));

	run_data_free(&got);
	result_set_free(&set);
	free(run.cmdline);
	env_free(&env);
	store_close(st);
}

static void test_missing_run(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct run_data got;
	char err[ERR_SZ] = "";

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	assert_int_equal(store_load_run(st, 12345, &got, err, sizeof(err)),
			 1);
	assert_int_equal(got.results.n, 0);
	assert_int_equal(got.env.n, 0);
	assert_null(got.info.cmdline);
	/* finishing a missing run fails */
	assert_int_equal(store_finish_run(st, 12345, "complete", 1, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "no such run"));
	store_close(st);
}

static void test_invalid_writes(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct run_info run = { 0 };
	struct run_data got;
	struct result_set set;
	double s[] = { 1.0, 0.0 };
	struct result *r;
	char err[ERR_SZ] = "";

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	assert_true(run.started_ns > 0);
	result_set_init(&set);
	r = fx_add(&set, "w", "{}", "m", "ns", 0, s, 2, NULL);

	/* foreign key: no such run */
	assert_int_equal(store_add_results(st, run.id + 100, r, 1, err,
					   sizeof(err)), -1);
	assert_true(fx_has(err, "FOREIGN KEY"));
	r->direction = 2;
	assert_int_equal(store_add_results(st, run.id, r, 1, err,
					   sizeof(err)), -1);
	r->direction = 0;
	r->samples[1] = NAN;
	assert_int_equal(store_add_results(st, run.id, r, 1, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "NaN"));
	r->samples[1] = 2.0;
	assert_int_equal(store_add_results(st, run.id, r, 1, err,
					   sizeof(err)), 0);
	/* duplicate seq: whole transaction rolled back, nothing partial */
	assert_int_equal(store_add_results(st, run.id, r, 1, err,
					   sizeof(err)), -1);
	assert_int_equal(store_finish_run(st, run.id, "bogus", 1, err,
					  sizeof(err)), -1);
	assert_int_equal(store_finish_run(st, run.id, "failed", 1, err,
					  sizeof(err)), 0);
	assert_int_equal(store_load_run(st, run.id, &got, err, sizeof(err)),
			 0);
	assert_int_equal(got.results.n, 1);
	assert_int_equal(got.results.v[0].nsamples, 2);
	assert_false(got.info.have_options);
	run_data_free(&got);
	result_set_free(&set);
	store_close(st);
}

/* Make a database file by hand with the sqlite3 library. */
static void make_db(const char *path, int user_version)
{
	char sql[64];
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", user_version);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static int count_tables(const char *path)
{
	sqlite3_stmt *s;
	sqlite3 *db;
	int n;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
					    "sqlite_master WHERE type = "
					    "'table'", -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int(s, 0);
	assert_int_equal(sqlite3_finalize(s), SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	return n;
}

/*
 * A version 1 database (run options as environment strings) is brought
 * to version 2: the options become typed columns and leave the
 * environment; everything else stays.
 */
static void test_migration_v1(const struct fixture *fx)
{
	struct store *st;
	struct run_data got;
	char path[160], err[ERR_SZ] = "";
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/v1.db", fx->dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[0], NULL, NULL,
				      NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"PRAGMA user_version = 1;"
		"INSERT INTO runs (id, started_ns, tag, status) VALUES "
		"  (1, 5, 'old', 'complete'), (2, 6, '', 'failed');"
		"INSERT INTO environment VALUES (1, 'kernel.release', '6.1'),"
		"  (1, 'run.reps', '5'), (1, 'run.sample_time_ns', '1000000'),"
		"  (1, 'run.warmup_ns', '0'), (1, 'run.cpus', '0-1'),"
		"  (1, 'run.interleave_seed', '18446744073709551615');"
		"INSERT INTO results VALUES (1, 1, 0, 'sys.null', '{}', 't',"
		"  'ns', -1, NULL);"
		"INSERT INTO samples VALUES (1, 0, 100.0);",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);

	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_load_run(st, 1, &got, err, sizeof(err)), 0);
	assert_true(got.info.have_options);
	assert_int_equal(got.info.opts.reps, 5);
	assert_int_equal(got.info.opts.sample_time_ns, 1000000);
	assert_string_equal(got.info.opts.cpus, "0-1");
	assert_true(got.info.opts.interleave);
	assert_true(got.info.opts.interleave_seed == UINT64_MAX);
	assert_int_equal(strlen(got.info.uuid), 32);	/* given one */
	assert_int_equal(got.env.n, 1);
	assert_string_equal(got.env.items[0].key, "kernel.release");
	assert_int_equal(got.results.n, 1);
	assert_true(got.results.v[0].samples[0] == 100.0);
	run_data_free(&got);
	assert_int_equal(store_load_run(st, 2, &got, err, sizeof(err)), 0);
	assert_false(got.info.have_options);
	run_data_free(&got);
	store_close(st);
}

/*
 * A version 2 database: its environment comes back in the order it was
 * stored in (the rowid order, numbered into environment.seq by the
 * migration to version 3), not sorted.
 */
static void test_migration_v2(const struct fixture *fx)
{
	static const char *const keys[] = { "zeta", "alpha", "mid" };
	struct store *st;
	struct run_data got;
	char path[160], err[ERR_SZ] = "";
	sqlite3 *db;
	size_t i;

	snprintf(path, sizeof(path), "%s/v2.db", fx->dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[0], NULL, NULL,
				      NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[1], NULL, NULL,
				      NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"PRAGMA user_version = 2;"
		"INSERT INTO runs (id, started_ns, status, uuid) VALUES"
		"  (1, 5, 'complete', 'u1');"
		"INSERT INTO environment VALUES (1, 'zeta', '1'),"
		"  (1, 'alpha', '2'), (1, 'mid', '3');",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);

	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_load_run(st, 1, &got, err, sizeof(err)), 0);
	assert_int_equal(got.info.opts.kviews, 0);	/* 3 -> 4: NULL */
	assert_false(got.info.opts.hw_counters);	/* 6 -> 7: NULL */
	assert_false(got.info.opts.fresh_workers);	/* 7 -> 8: NULL */
	assert_int_equal(got.env.n, 3);
	for (i = 0; i < 3; i++)
		assert_string_equal(got.env.items[i].key, keys[i]);
	run_data_free(&got);
	store_close(st);
}

/* The bytes of a file (malloc'ed), for checking that nothing changed. */
static char *slurp(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	*len = ftell(f);
	rewind(f);
	buf = malloc((size_t)*len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)*len, f), (size_t)*len);
	fclose(f);
	return buf;
}

/*
 * Another program's SQLite file (tables, no schema version) is refused
 * with the reason, and not one byte of it changes (no copyscope tables,
 * no switch to WAL).
 */
static void test_not_ours(const struct fixture *fx)
{
	struct store *st = NULL;
	char path[160], err[ERR_SZ] = "", *before, *after;
	long n0, n1;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/other.db", fx->dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t "
				      "VALUES (42);", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	before = slurp(path, &n0);
	assert_int_equal(store_open(path, &st, err, sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "not a copyscope database"));
	after = slurp(path, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, (size_t)n0);
	assert_int_equal(count_tables(path), 1);
	free(before);
	free(after);
}

static void test_migration(void **state)
{
	struct fixture *fx = *state;
	struct store *st = NULL;
	char path[160], err[ERR_SZ] = "";
	struct run_info run = { 0 };

	snprintf(path, sizeof(path), "%s/v0.db", fx->dir);
	make_db(path, 0);
	assert_int_equal(count_tables(path), 0);
	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	store_close(st);
	assert_int_equal(count_tables(path), 6);	/* + observations */

	/* reopening an up-to-date database changes nothing */
	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	store_close(st);

	test_migration_v1(fx);

	test_migration_v2(fx);

	test_not_ours(fx);

	snprintf(path, sizeof(path), "%s/v99.db", fx->dir);
	make_db(path, 99);
	st = (struct store *)1;
	assert_int_equal(store_open(path, &st, err, sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "99"));
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(count_tables(path), 0);
}

/* 0 if opening path fails with a message naming it and EACCES. */
static int ro_open_fails(const char *path)
{
	struct store *st = NULL;
	char err[ERR_SZ] = "";

	if (store_open(path, &st, err, sizeof(err)) == 0) {
		store_close(st);
		return 1;
	}
	if (!strstr(err, path) || !strstr(err, strerror(EACCES))) {
		fprintf(stderr, "unexpected error: %s\n", err);
		return 2;
	}
	return 0;
}

static void test_unusable_paths(void **state)
{
	struct fixture *fx = *state;
	struct store *st = NULL;
	char err[ERR_SZ] = "", path[160];
	FILE *f;

	assert_int_equal(store_open("/etc/passwd/x.db", &st, err,
				    sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, "/etc/passwd/x.db"));
	assert_non_null(strstr(err, "directory"));

	err[0] = '\0';
	assert_int_equal(store_open(fx->dir, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, fx->dir));
	assert_non_null(strstr(err, strerror(EISDIR)));

	err[0] = '\0';
	assert_int_equal(store_open("/proc/nonexistent-dir/results.db", &st,
				    err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/nonexistent-dir/results.db"));

	err[0] = '\0';
	assert_int_equal(store_open("", &st, err, sizeof(err)), -1);
	assert_true(err[0] != '\0');

	/* a file that is not a database */
	snprintf(path, sizeof(path), "%s/junk.db", fx->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 200; i++)
		assert_true(fputs("this is not a database\n", f) >= 0);
	assert_int_equal(fclose(f), 0);
	err[0] = '\0';
	assert_int_equal(store_open(path, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "not a database"));

	/*
	 * A read-only directory.  Root ignores permissions, so as root the
	 * check runs in a child that has dropped to nobody.
	 */
	snprintf(path, sizeof(path), "%s/ro", fx->dir);
	assert_int_equal(mkdir(path, 0555), 0);
	assert_int_equal(chmod(fx->dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/ro/results.db", fx->dir);
	if (geteuid() != 0) {
		assert_int_equal(ro_open_fails(path), 0);
	} else {
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			if (setgid(65534) != 0 || setuid(65534) != 0)
				_exit(3);
			_exit(ro_open_fails(path));
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

static void test_running_listed(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct run_info a = { 0 }, b = { 0 }, *runs;
	char err[ERR_SZ] = "";
	size_t n;

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	a.started_ns = 100;
	b.started_ns = 200;
	assert_int_equal(store_begin_run(st, &b, NULL, err, sizeof(err)), 0);
	assert_int_equal(store_begin_run(st, &a, NULL, err, sizeof(err)), 0);
	assert_int_equal(store_finish_run(st, b.id, "interrupted", 300, err,
					  sizeof(err)), 0);
	/* a is abandoned: as if the process had been killed */
	store_close(st);

	st = open_ok(fx->db);
	assert_int_equal(store_list_runs(st, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	/* oldest first */
	assert_int_equal(runs[0].id, a.id);
	assert_string_equal(runs[0].status, "running");
	assert_int_equal(runs[0].finished_ns, 0);
	assert_null(runs[0].cmdline);
	assert_int_equal(runs[0].nresults, 0);
	assert_int_equal(runs[1].id, b.id);
	assert_string_equal(runs[1].status, "interrupted");
	assert_true(runs[1].finished_ns > 0);
	store_free_runs(runs, n);
	store_close(st);
}

static void test_default_path(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(setenv("COPYSCOPE_DB", "/x/y.db", 1), 0);
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y.db");
	assert_int_equal(store_default_path(buf, 4), -1);

	assert_int_equal(unsetenv("COPYSCOPE_DB"), 0);
	assert_int_equal(setenv("XDG_DATA_HOME", "/data", 1), 0);
	assert_int_equal(setenv("HOME", "/home/u", 1), 0);
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/data/copyscope/results.db");

	assert_int_equal(unsetenv("XDG_DATA_HOME"), 0);
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/copyscope/results.db");

	assert_int_equal(unsetenv("HOME"), 0);
	assert_int_equal(store_default_path(buf, sizeof(buf)), -1);
}

#define WRITERS 2
#define PER_WRITER 40

/* Two processes writing at once: the busy timeout makes both succeed. */
static void test_concurrent_writers(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct run_info run = { 0 };
	struct run_data got;
	char err[ERR_SZ] = "";
	pid_t pids[WRITERS];
	int w, status;

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	store_close(st);
	for (w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] == 0) {
			struct result_set set;
			struct result *r;
			double s[64];
			char name[16];
			int i, bad = 0;

			if (store_open(fx->db, &st, err, sizeof(err)))
				_exit(2);
			for (i = 0; i < 64; i++)
				s[i] = i;
			snprintf(name, sizeof(name), "w%d", w);
			result_set_init(&set);
			r = fx_add(&set, name, "{}", "m", "ns", 0, s, 64,
				   NULL);
			for (i = 0; i < PER_WRITER; i++) {
				r->seq = w * PER_WRITER + i;
				if (store_add_results(st, run.id, r, 1, err,
						      sizeof(err))) {
					fprintf(stderr, "writer %d: %s\n", w,
						err);
					bad = 1;
				}
			}
			result_set_free(&set);
			store_close(st);
			_exit(bad);
		}
	}
	for (w = 0; w < WRITERS; w++) {
		assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	st = open_ok(fx->db);
	assert_int_equal(store_load_run(st, run.id, &got, err, sizeof(err)),
			 0);
	assert_int_equal(got.results.n, WRITERS * PER_WRITER);
	for (size_t i = 0; i < got.results.n; i++) {
		assert_int_equal(got.results.v[i].seq, (int)i);
		assert_int_equal(got.results.v[i].nsamples, 64);
	}
	run_data_free(&got);
	store_close(st);
}

/*
 * A whole run added at once (import, push): all or nothing, and only once
 * by its unique id.
 */
static void test_add_run(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct run_data run, got;
	const double x[3] = { 1, 2, 3 };
	char err[ERR_SZ] = "";
	struct run_info b = { 0 };
	int64_t id;

	FX_NEED_DB(fx);
	st = open_ok(fx->db);
	memset(&run, 0, sizeof(run));
	result_set_init(&run.results);
	snprintf(run.info.uuid, sizeof(run.info.uuid), "%032d", 7);
	snprintf(run.info.status, sizeof(run.info.status), "interrupted");
	snprintf(run.info.tag, sizeof(run.info.tag), "imported");
	run.info.started_ns = 5;
	run.info.finished_ns = 6;
	assert_int_equal(env_set(&run.env, "kernel.release", "6.9"), 0);
	fx_add(&run.results, "sys.null", "{}", "time/call", "ns", -1, x, 3,
	       NULL);
	fx_add(&run.results, "sys.null", "{}", "cycles/call", "tsc-cycles",
	       -1, x, 3, NULL);
	assert_int_equal(store_add_run(st, &run, err, sizeof(err)), 0);
	assert_true(run.info.id > 0);
	id = run.info.id;
	/* again: nothing added, the existing id given */
	run.info.id = 0;
	assert_int_equal(store_add_run(st, &run, err, sizeof(err)), 1);
	assert_int_equal(run.info.id, id);
	assert_int_equal(store_find_uuid(st, run.info.uuid, &id, err,
					 sizeof(err)), 0);
	assert_int_equal(id, run.info.id);
	assert_int_equal(store_find_uuid(st, "nosuch", &id, err, sizeof(err)),
			 1);
	assert_int_equal(store_load_run(st, run.info.id, &got, err,
					sizeof(err)), 0);
	assert_string_equal(got.info.uuid, run.info.uuid);
	assert_string_equal(got.info.status, "interrupted");
	assert_int_equal(got.info.finished_ns, 6);
	assert_int_equal(got.results.n, 2);
	assert_string_equal(got.info.kernel, "6.9");
	run_data_free(&got);
	/* a bad result: nothing of the run is stored */
	snprintf(run.info.uuid, sizeof(run.info.uuid), "%032d", 8);
	run.results.v[1].samples[1] = NAN;
	assert_int_equal(store_add_run(st, &run, err, sizeof(err)), -1);
	assert_int_equal(store_find_uuid(st, run.info.uuid, &id, err,
					 sizeof(err)), 1);
	/* a run begun normally gets a unique id of 32 hex digits */
	assert_int_equal(store_begin_run(st, &b, NULL, err, sizeof(err)), 0);
	assert_int_equal(strlen(b.uuid), 32);
	assert_int_not_equal(strcmp(b.uuid, run.info.uuid), 0);
	run_data_free(&run);
	store_close(st);
}

#define OPENERS 8

/*
 * Eight processes open one database that does not exist yet at the same
 * instant (released together through a pipe), then each stores a run: a
 * lab starts suites from timers and shells at once, and every run must be
 * stored, the first ones on a new file included.
 */
static void test_concurrent_new_database(void **state)
{
	struct fixture *fx = *state;
	struct run_info *runs;
	struct store *st;
	char err[ERR_SZ] = "";
	pid_t pids[OPENERS];
	int go[2], w, status, round;
	size_t n;

	FX_NEED_DB(fx);
	for (round = 0; round < 5; round++) {
		char path[512], name[16];

		snprintf(name, sizeof(name), "new%d", round);
		fx_new_store(fx, name, path, sizeof(path));
		assert_int_equal(pipe(go), 0);
		for (w = 0; w < OPENERS; w++) {
			pids[w] = fork();
			assert_true(pids[w] >= 0);
			if (pids[w] == 0) {
				struct run_info run = { 0 };
				char c;

				close(go[1]);
				if (read(go[0], &c, 1) != 0)
					_exit(4);
				if (store_open(path, &st, err, sizeof(err)) ||
				    store_begin_run(st, &run, NULL, err,
						    sizeof(err)) ||
				    store_finish_run(st, run.id, "complete", 1,
						     err, sizeof(err))) {
					fprintf(stderr, "opener %d: %s\n", w,
						err);
					_exit(1);
				}
				store_close(st);
				_exit(0);
			}
		}
		close(go[0]);
		close(go[1]);		/* all read EOF together */
		for (w = 0; w < OPENERS; w++) {
			assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
			assert_true(WIFEXITED(status));
			assert_int_equal(WEXITSTATUS(status), 0);
		}
		st = open_ok(path);
		assert_int_equal(store_list_runs(st, &runs, &n, err,
						 sizeof(err)), 0);
		assert_int_equal(n, OPENERS);
		store_free_runs(runs, n);
		store_close(st);
	}
}

/* A test that runs on both backends, once each. */
#define BOTH(fn) \
	{ #fn " [SQLite]", fn, setup_sqlite, teardown, NULL }, \
	{ #fn " [PostgreSQL]", fn, setup_pg, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_round_trip),
		BOTH(test_missing_run),
		BOTH(test_invalid_writes),
		cmocka_unit_test_setup_teardown(test_migration, setup_sqlite,
						teardown),
		cmocka_unit_test_setup_teardown(test_unusable_paths,
						setup_sqlite, teardown),
		BOTH(test_running_listed),
		cmocka_unit_test(test_default_path),
		BOTH(test_concurrent_writers),
		BOTH(test_concurrent_new_database),
		BOTH(test_add_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
