/*
 * test_session.c - unit tests of the run session (src/session/session.c):
 * a real (tiny) run of sys.null measured, turned into the results model
 * and stored, read back the same; the output hooks called once per job in
 * order; an interleaved run's seeded order; the checks before measuring
 * (sweep size, --interleave limit); the CPU list parser; the defaults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "session/session.h"
#include "workloads/workloads.h"

struct calls {
	int begin, jobs;
	size_t results[8];
	int64_t run_id;
};

static void on_begin(void *arg, const struct run_info *run,
		     const struct env *env, const struct session_clock *clk)
{
	struct calls *c = arg;

	(void)env;
	assert_non_null(clk->unit);
	assert_true(clk->counter[0] != '\0');
	assert_int_equal(c->jobs, 0);
	c->begin++;
	c->run_id = run->id;
}

static void on_job(void *arg, const struct result *res, size_t n)
{
	struct calls *c = arg;

	assert_true(c->jobs < 8);
	assert_true(n > 0);
	assert_string_equal(res[0].cfg->workload, "sys.null");
	c->results[c->jobs++] = n;
}

static const struct session_output hooks = { on_begin, on_job };

/* spec with njobs jobs of sys.null, each with the given assignments. */
static void tiny_spec(struct session_spec *spec, struct session_job *jobs,
		      size_t njobs, const char *const *assign)
{
	char err[256];
	size_t j;

	session_spec_init(spec);
	spec->ro.stored.reps = 2;
	spec->ro.stored.sample_time_ns = 1000000;
	spec->ro.stored.warmup_ns = 0;
	for (j = 0; j < njobs; j++) {
		const char *const *a;

		jobs[j].wl = &wl_sys_null;
		assert_int_equal(param_request_init(&jobs[j].req,
						    wl_sys_null.params,
						    wl_sys_null.nparams, err,
						    sizeof(err)), 0);
		for (a = assign; a && *a; a++)
			assert_int_equal(param_request_apply(&jobs[j].req,
							     "sys.null", *a,
							     err,
							     sizeof(err)), 0);
	}
	spec->jobs = jobs;
	spec->njobs = njobs;
	spec->cmdline = "copyscope test";
}

static void test_defaults_and_cpus(void **state)
{
	struct session_spec spec;
	char err[256];

	(void)state;
	session_spec_init(&spec);
	assert_int_equal(spec.ro.stored.reps, RUN_DEFAULT_REPS);
	assert_int_equal(spec.ro.stored.sample_time_ns, RUN_DEFAULT_SAMPLE_NS);
	assert_int_equal(spec.ro.stored.warmup_ns, RUN_DEFAULT_WARMUP_NS);
	assert_true(spec.ro.ncpus >= 1);
	assert_int_equal(session_parse_cpus("0", &spec.ro, err, sizeof(err)),
			 0);
	assert_int_equal(spec.ro.ncpus, 1);
	assert_int_equal(session_parse_cpus("0,", &spec.ro, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "--cpus"));
	assert_int_equal(session_parse_cpus("99999", &spec.ro, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "99999"));
	assert_int_equal(session_parse_cpus("3-1", &spec.ro, err,
					    sizeof(err)), -1);
}

static void test_run_and_store(void **state)
{
	static const char *const calls2[] = { "call=gettid,getppid", NULL };
	char dir[] = "/tmp/test_session.XXXXXX", path[64], err[512];
	struct session_job jobs[2];
	struct session_spec spec;
	struct session_result sr;
	struct calls c = { 0 };
	struct run_data back;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tiny_spec(&spec, jobs, 2, calls2);
	spec.tag = "unit";
	spec.out = &hooks;
	spec.out_arg = &c;
	assert_int_equal(session_check(&spec, err, sizeof(err)), 0);
	assert_int_equal(store_open(path, &spec.store, err, sizeof(err)), 0);
	assert_int_equal(session_run(&spec, &sr), 0);
	assert_int_equal(c.begin, 1);
	assert_true(c.run_id > 0);
	assert_int_equal(c.jobs, 2);
	/* two calls x two metrics per job */
	assert_int_equal(c.results[0], 4);
	assert_int_equal(c.results[1], 4);
	assert_int_equal(sr.ran, 4);
	assert_int_equal(sr.nsamples, 8);
	assert_string_equal(sr.run.info.status, "complete");
	assert_int_equal(sr.run.info.id, c.run_id);
	assert_string_equal(sr.run.info.tag, "unit");
	assert_true(sr.run.info.have_options);
	assert_int_equal(sr.run.info.opts.reps, 2);
	assert_non_null(env_get(&sr.run.env, "timer.unit"));
	assert_int_equal(sr.run.results.n, 8);
	for (i = 0; i < sr.run.results.n; i++) {
		assert_int_equal(sr.run.results.v[i].nsamples, 2);
		assert_int_equal(sr.run.results.v[i].cfg->job, (int)(i / 4));
		assert_true(sr.run.results.v[i].id > 0);
	}

	assert_int_equal(store_load_run(spec.store, c.run_id, &back, err,
					sizeof(err)), 0);
	assert_string_equal(back.info.status, "complete");
	assert_int_equal(back.info.finished_ns, sr.run.info.finished_ns);
	assert_int_equal(back.results.n, sr.run.results.n);
	for (i = 0; i < back.results.n; i++)
		assert_true(back.results.v[i].summary.median ==
			    sr.run.results.v[i].summary.median);
	run_data_free(&back);
	session_result_free(&sr);
	store_close(spec.store);
	unlink(path);
	snprintf(path, sizeof(path), "%s/r.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/r.db-shm", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void test_interleaved(void **state)
{
	static const char *const calls2[] = { "call=gettid,getppid", NULL };
	struct session_job job;
	struct session_spec spec;
	struct session_result sr;
	int64_t seen[4] = { 0 };
	size_t i, k;

	(void)state;
	tiny_spec(&spec, &job, 1, calls2);
	spec.ro.stored.interleave = true;
	spec.seed_set = true;
	spec.seed = 42;
	assert_int_equal(session_run(&spec, &sr), 0);
	assert_int_equal(sr.run.info.id, 0);	/* not stored */
	assert_true(sr.run.info.opts.interleave);
	assert_true(sr.run.info.opts.interleave_seed == 42);
	assert_int_equal(sr.run.results.ncfgs, 2);
	for (i = 0; i < 2; i++) {
		const struct result_config *c = sr.run.results.cfgs[i];

		assert_true(c->interleaved);
		assert_int_equal(c->interleave_of, 4);
		assert_int_equal(c->ninterleave_order, 2);
		for (k = 0; k < 2; k++) {
			int64_t o = c->interleave_order[k];

			if (o < 0 || o >= 4)
				fail_msg("sample index %lld", (long long)o);
			/* round k holds global samples 2k and 2k+1 */
			assert_true(o / 2 == (int64_t)k);
			seen[o]++;
		}
	}
	for (i = 0; i < 4; i++)
		assert_int_equal(seen[i], 1);
	session_result_free(&sr);
}

static void test_checks(void **state)
{
	static const char *const wide[] = {
		"inject_ns=1ns,2ns,3ns,4ns,5ns,6ns,7ns,8ns,9ns,10ns,11ns,12ns,"
		"13ns,14ns,15ns,16ns,17ns,18ns,19ns,20ns,21ns,22ns,23ns,24ns,"
		"25ns,26ns,27ns,28ns,29ns,30ns,31ns,32ns,33ns", "trace=0,1",
		NULL,
	};
	struct session_job job;
	struct session_spec spec;
	char err[512];

	(void)state;
	tiny_spec(&spec, &job, 1, wide);
	assert_int_equal(session_check(&spec, err, sizeof(err)), 0);
	spec.ro.stored.interleave = true;
	assert_int_equal(session_check(&spec, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--interleave: 66 configurations"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_cpus),
		cmocka_unit_test(test_run_and_store),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
