/*
 * test_check_plan.c - unit tests of check's re-measure planning
 * (src/session/check_plan.c) on made run records: BASE's distinct
 * configurations over several runs as jobs of one configuration each, in
 * BASE's order; only the named workloads; BASE's options (reps, sample
 * time, warm-up, histogram, interleaving, counters, CPUs) or the
 * defaults for a run stored without them; --reps and --runs over BASE's;
 * interleaving dropped past SESSION_MAX_INTERLEAVE; a CPU list this
 * machine cannot use (a warning, every CPU instead); the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "session/check_plan.h"
#include "result_fixture.h"
#include "workloads/workloads.h"

#define NBASE 4

static struct run_data base[NBASE];

static int setup(void **state)
{
	size_t i;

	(void)state;
	memset(base, 0, sizeof(base));
	for (i = 0; i < NBASE; i++) {
		result_set_init(&base[i].results);
		base[i].info.id = 10 + (int64_t)i;
	}
	return 0;
}

static int teardown(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NBASE; i++)
		result_set_free(&base[i].results);
	return 0;
}

/* A result of metric "time" for workload with params (canonical JSON). */
static void add(struct run_data *run, const char *workload,
		const char *params, const char *metric)
{
	double x[2] = { 100, 101 };

	fx_add(&run->results, workload, params, metric, "ns", -1, x, 2,
	       NULL);
}

/* The value of parameter key of job j (one configuration) as text. */
static const char *value(const struct session_job *j, const char *key)
{
	static char buf[64];
	int i = param_find(j->wl->params, j->wl->nparams, key);

	assert_true(i >= 0);
	assert_int_equal(j->req.nvals[i], 1);
	param_format_value(&j->wl->params[i], j->req.vals[i][0], buf,
			   sizeof(buf));
	return buf;
}

static void with_options(struct run_info *info, const char *cpus)
{
	info->have_options = true;
	info->opts.reps = 7;
	info->opts.sample_time_ns = 5000000;
	info->opts.warmup_ns = 1000000;
	info->opts.hist = true;
	info->opts.interleave = true;
	info->opts.perf_counters = true;
	snprintf(info->opts.cpus, sizeof(info->opts.cpus), "%s", cpus);
}

static void test_jobs_and_options(void **state)
{
	struct check_plan_request req = { .base = base, .nbase = 2 };
	struct check_plan plan;
	struct session_spec d;
	char err[512], cpu[16];

	(void)state;
	session_spec_init(&d);
	snprintf(cpu, sizeof(cpu), "%d", d.ro.cpus[d.ro.ncpus - 1]);
	/* two metrics of one configuration, two sizes of pipe.bw */
	add(&base[0], "sys.null", "{\"trace\":\"0\"}", "time");
	add(&base[0], "sys.null", "{\"trace\":\"0\"}", "time/op");
	add(&base[0], "pipe.bw", "{\"size\":\"4k\"}", "bandwidth");
	add(&base[0], "pipe.bw", "{\"size\":\"64k\"}", "bandwidth");
	/* the second run: the same configurations, one new */
	add(&base[1], "pipe.bw", "{\"size\":\"64k\"}", "bandwidth");
	add(&base[1], "pipe.bw", "{\"size\":\"1M\"}", "bandwidth");
	add(&base[1], "sys.null", "{\"trace\":\"0\"}", "time");
	with_options(&base[0].info, cpu);

	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.spec.njobs, 4);
	assert_string_equal(plan.spec.jobs[0].wl->name, "sys.null");
	assert_string_equal(plan.spec.jobs[1].wl->name, "pipe.bw");
	assert_string_equal(value(&plan.spec.jobs[1], "size"), "4k");
	assert_string_equal(value(&plan.spec.jobs[2], "size"), "64k");
	assert_string_equal(value(&plan.spec.jobs[3], "size"), "1M");
	/* unstored parameters keep their defaults */
	assert_string_equal(value(&plan.spec.jobs[3], "mode"), "proc");
	/* BASE's first run's options */
	assert_int_equal(plan.spec.ro.stored.reps, 7);
	assert_int_equal(plan.spec.ro.stored.sample_time_ns, 5000000);
	assert_int_equal(plan.spec.ro.stored.warmup_ns, 1000000);
	assert_true(plan.spec.ro.stored.hist);
	assert_true(plan.spec.ro.stored.interleave);
	assert_true(plan.spec.ro.stored.perf_counters);
	assert_int_equal(plan.spec.ro.ncpus, 1);
	assert_int_equal(plan.spec.ro.cpus[0], d.ro.cpus[d.ro.ncpus - 1]);
	assert_string_equal(plan.warning, "");
	/* two runs of BASE: fewer than CMP_MIN_RUNS, so one */
	assert_int_equal(plan.nruns, 1);
	/* what the caller sets is left unset */
	assert_null(plan.spec.tag);
	assert_null(plan.spec.group_id);
	assert_null(plan.spec.store);
	check_plan_free(&plan);
	assert_null(plan.spec.jobs);
}

static void test_named_reps_runs(void **state)
{
	static const char *const only_pipe[] = { "pipe.bw" };
	static const char *const only_udp[] = { "udp.rr" };
	struct check_plan_request req = {
		.base = base, .nbase = 3, .workloads = only_pipe,
		.nworkloads = 1,
	};
	struct check_plan plan;
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		add(&base[i], "sys.null", "{\"trace\":\"0\"}", "time");
		add(&base[i], "pipe.bw", "{\"size\":\"4k\"}", "bandwidth");
	}
	/* BASE without stored options: the run defaults */
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.spec.njobs, 1);
	assert_string_equal(plan.spec.jobs[0].wl->name, "pipe.bw");
	assert_int_equal(plan.spec.ro.stored.reps, RUN_DEFAULT_REPS);
	assert_int_equal(plan.spec.ro.stored.sample_time_ns, RUN_DEFAULT_SAMPLE_NS);
	assert_int_equal(plan.spec.ro.stored.warmup_ns, RUN_DEFAULT_WARMUP_NS);
	assert_false(plan.spec.ro.stored.interleave);
	/* three runs of BASE: the run is the unit, three again */
	assert_int_equal(plan.nruns, 3);
	check_plan_free(&plan);

	req.reps = 4;
	req.runs = 2;
	with_options(&base[0].info, "");
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.spec.ro.stored.reps, 4);
	assert_int_equal(plan.spec.ro.stored.sample_time_ns, 5000000);
	assert_int_equal(plan.nruns, 2);
	check_plan_free(&plan);

	req.workloads = only_udp;
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 1);
	assert_string_equal(err, "BASE has no results of the named workloads "
			    "to measure again");
	check_plan_free(&plan);
}

static void test_interleave_limit(void **state)
{
	struct check_plan_request req = { .base = base, .nbase = 1 };
	struct check_plan plan;
	char err[512], params[64];
	int k;

	(void)state;
	with_options(&base[0].info, "");
	for (k = 1; k <= SESSION_MAX_INTERLEAVE; k++) {
		snprintf(params, sizeof(params), "{\"size\":\"%d\"}", k);
		add(&base[0], "pipe.bw", params, "bandwidth");
	}
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.spec.njobs, SESSION_MAX_INTERLEAVE);
	assert_true(plan.spec.ro.stored.interleave);
	check_plan_free(&plan);

	/* one configuration more than can be open at once */
	add(&base[0], "pipe.bw", "{\"size\":\"1M\"}", "bandwidth");
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.spec.njobs, SESSION_MAX_INTERLEAVE + 1);
	assert_false(plan.spec.ro.stored.interleave);
	check_plan_free(&plan);
}

static void test_cpus_unusable(void **state)
{
	struct check_plan_request req = { .base = base, .nbase = 1 };
	struct check_plan plan;
	struct session_spec d;
	char err[512];
	const char *tail = "(BASE's CPUs); using every allowed CPU";

	(void)state;
	session_spec_init(&d);
	add(&base[0], "sys.null", "{\"trace\":\"0\"}", "time");
	/* beyond CPU_SETSIZE: in no machine's affinity mask */
	with_options(&base[0].info, "100000");
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 0);
	assert_true(strlen(plan.warning) > strlen(tail));
	assert_string_equal(plan.warning + strlen(plan.warning) -
			    strlen(tail), tail);
	assert_non_null(strstr(plan.warning, "--cpus"));
	/* the other options are still BASE's; the CPUs every allowed one */
	assert_int_equal(plan.spec.ro.stored.reps, 7);
	assert_int_equal(plan.spec.ro.ncpus, d.ro.ncpus);
	assert_memory_equal(plan.spec.ro.cpus, d.ro.cpus,
			    sizeof(d.ro.cpus));
	check_plan_free(&plan);
}

static void test_refusals(void **state)
{
	struct check_plan_request req = { .base = base, .nbase = 2 };
	struct check_plan plan;
	char err[512];

	(void)state;
	/* nothing stored */
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 1);
	assert_string_equal(err, "BASE has no results to measure again");
	check_plan_free(&plan);

	/* a workload this build does not have, in BASE's second run */
	add(&base[0], "sys.null", "{\"trace\":\"0\"}", "time");
	add(&base[1], "gone.away", "{\"size\":\"4k\"}", "time");
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 1);
	assert_string_equal(err, "cannot rerun run 11: BASE's workload "
			    "gone.away is not in this build");
	check_plan_free(&plan);

	/* a stored value this build refuses */
	add(&base[0], "pipe.bw", "{\"size\":\"0\"}", "bandwidth");
	assert_int_equal(check_plan_make(&req, &plan, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "cannot rerun run 10: "));
	assert_non_null(strstr(err, "size"));
	check_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_jobs_and_options, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_named_reps_runs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_interleave_limit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cpus_unusable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
