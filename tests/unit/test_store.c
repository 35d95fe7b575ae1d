/*
 * test_store.c - unit tests for the SQLite result store
 * (src/store/store.c): round trip of runs, environment, results, samples
 * and histograms; missing runs; schema migration and refusal of newer
 * schemas; unusable paths; unfinished runs; the default path; and two
 * concurrent writers.
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
#include "store/store.h"

struct fixture {
	char dir[64];
	char db[128];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_store.XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	/* a subdirectory that does not exist yet: store_open makes it */
	snprintf(fx->db, sizeof(fx->db), "%s/a/b/results.db", fx->dir);
	*state = fx;
	return 0;
}

static int remove_one(const char *path, const struct stat *sb, int type,
		      struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* rm -rf of the fixture directory, without a shell. */
static int teardown(void **state)
{
	struct fixture *fx = *state;
	int rc;

	rc = nftw(fx->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return rc == 0 ? 0 : -1;
}

static struct store *open_ok(const char *path)
{
	struct store *st = NULL;
	char err[512] = "";

	if (store_open(path, &st, err, sizeof(err)) != 0)
		fail_msg("store_open(%s): %s", path, err);
	assert_non_null(st);
	return st;
}

#define ERR_SZ 512

static void test_round_trip(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	struct env env = { 0 }, env2 = { 0 };
	struct store_run run = { 0 }, got = { 0 }, *runs;
	struct store_result res[2], *loaded;
	double s0[] = { 1.5, 2.25, -3.0, 1e300 };
	double s1[] = { 42.0 };
	struct store_hist_bucket h0[] = {
		{ 0, 9, 5 }, { 10, 19, 7 }, { 20, -1, 3 },	/* overflow */
	};
	char err[ERR_SZ] = "";
	size_t n, nloaded, i, j;

	(void)state;
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
	run.cmdline = "copyscope run --tag baseline";
	assert_int_equal(store_begin_run(st, &run, &env, err, sizeof(err)),
			 0);
	assert_true(run.id > 0);
	assert_string_equal(run.status, "running");
	/* boot_id was empty: taken from the environment */
	assert_string_equal(run.boot_id,
			    "01234567-89ab-cdef-0123-456789abcdef");

	memset(res, 0, sizeof(res));
	res[0].seq = 0;
	snprintf(res[0].workload, sizeof(res[0].workload), "memcpy");
	res[0].params_json = "{\"size\":4096}";
	snprintf(res[0].metric, sizeof(res[0].metric), "throughput");
	snprintf(res[0].unit, sizeof(res[0].unit), "GB/s");
	res[0].direction = 1;
	res[0].info_json = "{\"timer\":\"tsc\"}";
	res[0].samples = s0;
	res[0].nsamples = 4;
	res[0].buckets = h0;
	res[0].nbuckets = 3;

	res[1].seq = 1;
	snprintf(res[1].workload, sizeof(res[1].workload), "pipe");
	res[1].params_json = "{}";
	snprintf(res[1].metric, sizeof(res[1].metric), "latency");
	snprintf(res[1].unit, sizeof(res[1].unit), "ns");
	res[1].direction = -1;
	res[1].info_json = NULL;
	res[1].samples = s1;
	res[1].nsamples = 1;

	/* add in reverse seq order: loading must order by seq */
	assert_int_equal(store_add_result(st, run.id, &res[1], err,
					  sizeof(err)), 0);
	assert_int_equal(store_add_result(st, run.id, &res[0], err,
					  sizeof(err)), 0);
	assert_true(res[0].id > 0 && res[1].id > 0);
	assert_int_equal(store_finish_run(st, run.id, "complete", err,
					  sizeof(err)), 0);
	store_close(st);

	st = open_ok(fx->db);
	assert_int_equal(store_list_runs(st, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, run.id);
	assert_int_equal(runs[0].nresults, 2);
	assert_string_equal(runs[0].status, "complete");
	assert_string_equal(runs[0].tag, run.tag);
	store_free_runs(runs, n);

	assert_int_equal(store_load_run(st, run.id, &got, &env2, &loaded,
					&nloaded, err, sizeof(err)), 0);
	assert_int_equal(got.id, run.id);
	assert_int_equal(got.started_ns, run.started_ns);
	assert_true(got.finished_ns > 0);
	assert_string_equal(got.tag, run.tag);
	assert_string_equal(got.host, "box");
	assert_string_equal(got.boot_id, run.boot_id);
	assert_string_equal(got.tool_version, "v1.2");
	assert_string_equal(got.build_flavour, "release");
	assert_string_equal(got.cmdline, run.cmdline);
	assert_string_equal(got.status, "complete");

	assert_int_equal(env2.n, env.n);
	for (i = 0; i < env.n; i++) {
		assert_string_equal(env2.items[i].key, env.items[i].key);
		assert_string_equal(env2.items[i].value, env.items[i].value);
	}

	assert_int_equal(nloaded, 2);
	for (i = 0; i < 2; i++) {
		struct store_result *a = &res[i], *b = &loaded[i];

		assert_int_equal(b->id, a->id);
		assert_int_equal(b->seq, a->seq);
		assert_string_equal(b->workload, a->workload);
		assert_string_equal(b->params_json, a->params_json);
		assert_string_equal(b->metric, a->metric);
		assert_string_equal(b->unit, a->unit);
		assert_int_equal(b->direction, a->direction);
		if (a->info_json)
			assert_string_equal(b->info_json, a->info_json);
		else
			assert_null(b->info_json);
		assert_int_equal(b->nsamples, a->nsamples);
		for (j = 0; j < a->nsamples; j++)
			assert_true(b->samples[j] == a->samples[j]);
		assert_int_equal(b->nbuckets, a->nbuckets);
		for (j = 0; j < a->nbuckets; j++) {
			assert_int_equal(b->buckets[j].lo, a->buckets[j].lo);
			assert_int_equal(b->buckets[j].hi, a->buckets[j].hi);
			assert_int_equal(b->buckets[j].count,
					 a->buckets[j].count);
		}
	}
	assert_null(loaded[1].buckets);
	assert_int_equal(loaded[0].buckets[2].hi, -1);

	store_free_results(loaded, nloaded);
	free(got.cmdline);
	env_free(&env2);
	env_free(&env);
	store_close(st);
}

static void test_missing_run(void **state)
{
	struct fixture *fx = *state;
	struct store *st = open_ok(fx->db);
	struct store_run got = { 0 };
	struct store_result *loaded = NULL;
	struct env env = { 0 };
	size_t n = 7;
	char err[ERR_SZ] = "";

	assert_int_equal(store_load_run(st, 12345, &got, &env, &loaded, &n,
					err, sizeof(err)), 1);
	assert_null(loaded);
	assert_int_equal(n, 0);
	assert_int_equal(env.n, 0);
	assert_null(got.cmdline);
	/* finishing or adding to a missing run fails */
	assert_int_equal(store_finish_run(st, 12345, "complete", err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "no such run"));
	store_close(st);
}

static void test_invalid_writes(void **state)
{
	struct fixture *fx = *state;
	struct store *st = open_ok(fx->db);
	struct store_run run = { 0 };
	struct store_result r = { 0 }, *loaded;
	double s[] = { 1.0, 0.0 };
	size_t n;
	char err[ERR_SZ] = "";

	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	assert_true(run.started_ns > 0);
	snprintf(r.workload, sizeof(r.workload), "w");
	snprintf(r.metric, sizeof(r.metric), "m");
	r.params_json = "{}";
	r.samples = s;
	r.nsamples = 2;

	/* foreign key: no such run */
	assert_int_equal(store_add_result(st, run.id + 100, &r, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "FOREIGN KEY"));
	r.direction = 2;
	assert_int_equal(store_add_result(st, run.id, &r, err, sizeof(err)),
			 -1);
	r.direction = 0;
	s[1] = NAN;
	assert_int_equal(store_add_result(st, run.id, &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "NaN"));
	s[1] = 2.0;
	assert_int_equal(store_add_result(st, run.id, &r, err, sizeof(err)),
			 0);
	/* duplicate seq: whole transaction rolled back, nothing partial */
	assert_int_equal(store_add_result(st, run.id, &r, err, sizeof(err)),
			 -1);
	assert_int_equal(store_finish_run(st, run.id, "bogus", err,
					  sizeof(err)), -1);
	assert_int_equal(store_finish_run(st, run.id, "failed", err,
					  sizeof(err)), 0);
	assert_int_equal(store_load_run(st, run.id, NULL, NULL, &loaded, &n,
					err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(loaded[0].nsamples, 2);
	store_free_results(loaded, n);
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

static void test_migration(void **state)
{
	struct fixture *fx = *state;
	struct store *st = NULL;
	char path[160], err[ERR_SZ] = "";
	struct store_run run = { 0 };

	snprintf(path, sizeof(path), "%s/v0.db", fx->dir);
	make_db(path, 0);
	assert_int_equal(count_tables(path), 0);
	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	store_close(st);
	assert_int_equal(count_tables(path), 5);

	/* reopening an up-to-date database changes nothing */
	st = open_ok(path);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	store_close(st);

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
	struct store *st = open_ok(fx->db);
	struct store_run a = { 0 }, b = { 0 }, *runs;
	char err[ERR_SZ] = "";
	size_t n;

	a.started_ns = 100;
	b.started_ns = 200;
	assert_int_equal(store_begin_run(st, &b, NULL, err, sizeof(err)), 0);
	assert_int_equal(store_begin_run(st, &a, NULL, err, sizeof(err)), 0);
	assert_int_equal(store_finish_run(st, b.id, "interrupted", err,
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
	struct store *st = open_ok(fx->db);
	struct store_run run = { 0 };
	struct store_result *loaded;
	char err[ERR_SZ] = "";
	pid_t pids[WRITERS];
	size_t n;
	int w, status;

	assert_int_equal(store_begin_run(st, &run, NULL, err, sizeof(err)),
			 0);
	store_close(st);
	for (w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] == 0) {
			struct store_result r = { 0 };
			double s[64];
			int i, bad = 0;

			if (store_open(fx->db, &st, err, sizeof(err)))
				_exit(2);
			for (i = 0; i < 64; i++)
				s[i] = i;
			snprintf(r.workload, sizeof(r.workload), "w%d", w);
			snprintf(r.metric, sizeof(r.metric), "m");
			r.params_json = "{}";
			r.samples = s;
			r.nsamples = 64;
			for (i = 0; i < PER_WRITER; i++) {
				r.seq = w * PER_WRITER + i;
				if (store_add_result(st, run.id, &r, err,
						     sizeof(err))) {
					fprintf(stderr, "writer %d: %s\n", w,
						err);
					bad = 1;
				}
			}
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
	assert_int_equal(store_load_run(st, run.id, NULL, NULL, &loaded, &n,
					err, sizeof(err)), 0);
	assert_int_equal(n, WRITERS * PER_WRITER);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(loaded[i].seq, (int)i);
		assert_int_equal(loaded[i].nsamples, 64);
	}
	store_free_results(loaded, n);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_invalid_writes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_migration, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unusable_paths, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_running_listed, setup,
						teardown),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test_setup_teardown(test_concurrent_writers,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
