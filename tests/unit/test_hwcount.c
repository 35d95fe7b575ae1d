/*
 * test_hwcount.c - unit tests for src/runner/hwcount.c and the hardware
 * counters' way through the runner (runner_hw.c) into results
 * (session/build_results.c).
 *
 * A fake counter source gives known counts: each worker thread counts
 * its ops, and its "PMU" says 50 cycles and 100 instructions an op, and
 * 3 cache misses an op seen on the PMU half the time it is enabled
 * (multiplexed: 6 an op once scaled), and no dTLB event (EOPNOTSUPP).
 * Checked: the delta arithmetic (scaling, a counter that never ran, a
 * missing one), the probe's text and environment keys for a missing
 * counter, for no PMU and for a refused kernel share, the per-op figures
 * of every kept sample and their medians through the runner with one and
 * two workers, and the multiplexing note.  The real source is checked on
 * this machine as it is: either counters, or a reason (this VM: no PMU);
 * and its group read against software events, which every kernel has.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/hwcount.h"
#include "runner/runner.h"
#include "session/build_results.h"

#define FAKE_CYCLES 50
#define FAKE_INSTR 100
#define FAKE_CACHE_SEEN 3	/* cache misses an op while on the PMU */
#define FAKE_CACHE 6		/* what they stand for: on it half the time */

/* What the fake source refuses, per counter (0: opens). */
static int fake_err[HWC_N];
static int fake_user_err;	/* errno for user_only opens, 0: opens */
static __thread uint64_t tls_ops, tls_reads;

static int fake_open(enum hwcount_counter c, bool user_only, int leader)
{
	(void)leader;
	if (user_only)
		return fake_user_err ? -fake_user_err : 100 + (int)c;
	return fake_err[c] ? -fake_err[c] : 100 + (int)c;
}

static int fake_read(const struct hwcount *hc, struct hwcount_values *v)
{
	static const uint64_t per_op[HWC_N] = { FAKE_CYCLES, FAKE_INSTR,
						FAKE_CACHE_SEEN, 7 };
	uint64_t en;
	int c;

	tls_reads++;
	en = 1000 * tls_reads;
	for (c = 0; c < HWC_N; c++) {
		if (hc->fd[c] < 0)
			continue;
		/* the cache event is on the PMU half the time: it sees
		   half the misses, and scaling by 2 gives them back */
		v->c[c].enabled_ns = en;
		v->c[c].running_ns = c == HWC_CACHE_MISSES ? en / 2 : en;
		v->c[c].value = per_op[c] * tls_ops;
	}
	return 0;
}

static void fake_close(int fd)
{
	assert_true(fd >= 100 && fd < 100 + HWC_N);
}

static const struct hwcount_source fake = {
	.open = fake_open, .read = fake_read, .close = fake_close,
};

static int reset(void **state)
{
	(void)state;
	memset(fake_err, 0, sizeof(fake_err));
	fake_user_err = 0;
	hwcount_set_source(&fake);
	hwcount_use(NULL);
	runner_interrupted = 0;
	return 0;
}

static int restore(void **state)
{
	(void)state;
	hwcount_set_source(NULL);
	hwcount_use(NULL);
	return 0;
}

static struct hwcount_reading rd(uint64_t v, uint64_t en, uint64_t run)
{
	struct hwcount_reading r = { v, en, run };

	return r;
}

static void test_delta(void **state)
{
	struct hwcount_reading a = rd(1000, 100, 100), b;
	double pct;

	(void)state;
	b = rd(1500, 300, 300);			/* always on the PMU */
	assert_true(hwcount_delta(&a, &b, &pct) == 500.0);
	assert_true(pct == 100.0);
	b = rd(1500, 500, 200);			/* on 100 of 400 ns */
	assert_true(hwcount_delta(&a, &b, &pct) == 2000.0);
	assert_true(pct == 25.0);
	b = rd(1000, 500, 100);			/* never ran: no count */
	assert_true(isnan(hwcount_delta(&a, &b, &pct)));
	assert_true(isnan(pct));
	b = rd(HWCOUNT_NA, 500, 500);		/* not read */
	assert_true(isnan(hwcount_delta(&a, &b, &pct)));
	b = rd(900, 500, 500);			/* went backwards */
	assert_true(isnan(hwcount_delta(&a, &b, &pct)));
}

static void set_values(struct hwcount_values *v, const uint64_t *val,
		       uint64_t en, uint64_t run)
{
	int c;

	for (c = 0; c < HWC_N; c++)
		v->c[c] = rd(val[c], en, run);
}

static void test_per_op(void **state)
{
	static const uint64_t zero[HWC_N] = { 0, 0, 0, HWCOUNT_NA };
	static const uint64_t w1[HWC_N] = { 2000, 3000, 40, HWCOUNT_NA };
	static const uint64_t w2[HWC_N] = { 500, 500, 5, HWCOUNT_NA };
	struct hwcount_values a, b;
	struct hwcount_sum s;
	double out[HW_NMETRICS];

	(void)state;
	hwcount_sum_init(&s);
	set_values(&a, zero, 0, 0);
	set_values(&b, w1, 100, 100);
	hwcount_sum_add(&s, &a, &b);
	/* the second worker was on the PMU half the time: counts x2 */
	set_values(&b, w2, 100, 50);
	hwcount_sum_add(&s, &a, &b);
	assert_true(s.running_pct == 50.0);
	hwcount_per_op(&s, 10, out);
	assert_true(out[HW_METRIC_CYCLES] == 300.0);	/* 3000 / 10 */
	assert_true(out[HW_METRIC_INSTR] == 400.0);	/* 4000 / 10 */
	assert_true(fabs(out[HW_METRIC_IPC] - 4000.0 / 3000.0) < 1e-12);
	assert_true(out[HW_METRIC_CACHE] == 5.0);	/* 50 / 10 */
	assert_true(isnan(out[HW_METRIC_DTLB]));	/* no such event */
	hwcount_per_op(&s, 0, out);
	assert_true(isnan(out[HW_METRIC_CYCLES]));
	/* no cycles: no IPC, the instructions stay */
	s.count[HWC_CYCLES] = NAN;
	hwcount_per_op(&s, 10, out);
	assert_true(isnan(out[HW_METRIC_IPC]));
	assert_true(out[HW_METRIC_INSTR] == 400.0);
}

static void test_probe_missing(void **state)
{
	struct hwcount_probe p;
	struct env e = { 0 };

	(void)state;
	fake_err[HWC_DTLB_MISSES] = EOPNOTSUPP;
	hwcount_probe(&p);
	assert_int_equal(p.nhave, 3);
	assert_false(p.have[HWC_DTLB_MISSES]);
	assert_false(p.no_pmu);
	assert_false(p.user_only);
	assert_string_equal(p.missing, "dTLB-load-misses: Operation not "
			    "supported");
	assert_int_equal(hwcount_env(&p, &e), 0);
	assert_string_equal(env_get(&e, HW_ENV_COUNTERS),
			    "cycles,instructions,cache-misses");
	assert_string_equal(env_get(&e, HW_ENV_PMU), "present");
	assert_string_equal(env_get(&e, HW_ENV_SCOPE), "user+kernel");
	assert_string_equal(env_get(&e, HW_ENV_MISSING), p.missing);
	env_free(&e);
}

static void test_probe_none(void **state)
{
	struct hwcount_probe p;
	struct env e = { 0 };
	int c;

	(void)state;
	for (c = 0; c < HWC_N; c++)
		fake_err[c] = ENOENT;
	hwcount_probe(&p);
	assert_int_equal(p.nhave, 0);
	assert_true(p.no_pmu);
	assert_string_equal(p.missing, "perf_event_open: No such file or "
			    "directory");
	hwcount_use(&p);
	assert_false(hwcount_on());
	assert_int_equal(hwcount_env(&p, &e), 0);
	assert_string_equal(env_get(&e, HW_ENV_COUNTERS), "none");
	assert_string_equal(env_get(&e, HW_ENV_PMU), "none");
	assert_null(env_get(&e, HW_ENV_SCOPE));
	env_free(&e);
	/* refused (perf_event_paranoid 3): not "no PMU" */
	for (c = 0; c < HWC_N; c++)
		fake_err[c] = EACCES;
	fake_user_err = EACCES;
	hwcount_probe(&p);
	assert_int_equal(p.nhave, 0);
	assert_false(p.no_pmu);
	assert_string_equal(p.missing, "perf_event_open: Permission denied");
}

static void test_probe_user_only(void **state)
{
	struct hwcount_probe p;
	int c;

	(void)state;
	for (c = 0; c < HWC_N; c++)
		fake_err[c] = EACCES;	/* the kernel's share refused */
	hwcount_probe(&p);
	assert_int_equal(p.nhave, HWC_N);
	assert_true(p.user_only);
	assert_string_equal(p.missing, "");
}

/* The synthetic workload: each op bumps this thread's op count. */
static int nworkers_wanted;

static int fx_setup(struct wl_ctx *ctx)
{
	int i;

	ctx->nworkers = nworkers_wanted;
	ctx->mode = WL_MODE_THREAD;
	for (i = 0; i < ctx->nworkers; i++)
		ctx->worker_name[i] = "w";
	return WL_OK;
}

static volatile uint64_t sink;

static int fx_run_batch(struct wl_worker *w, uint64_t nops)
{
	uint64_t i, x = sink;
	int k;

	(void)w;
	for (i = 0; i < nops; i++)
		for (k = 0; k < 100; k++)
			x = x * 6364136223846793005ULL + 1;
	sink = x;
	tls_ops += nops;
	return 0;
}

static const struct metric_def fx_metrics[] = {
	{ .name = "time/op", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER, .help = "time per op" },
};

static const struct workload fx_wl = {
	.name = "test.hw", .summary = "arithmetic", .op = "100 mul-adds",
	.not_measured = "nothing", .metrics = fx_metrics, .nmetrics = 1,
	.setup = fx_setup, .run_batch = fx_run_batch,
};

static const struct result *find(const struct result_set *set,
				 const char *metric)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i].metric, metric) == 0)
			return &set->v[i];
	return NULL;
}

static void run_fake(int nworkers)
{
	const double w = nworkers;
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct result_set set;
	struct run_opts o;
	struct hwcount_probe p;
	const struct result *r;
	size_t k;

	fake_err[HWC_DTLB_MISSES] = EOPNOTSUPP;
	hwcount_probe(&p);
	hwcount_use(&p);
	assert_true(hwcount_on());
	nworkers_wanted = nworkers;
	memset(&o, 0, sizeof(o));
	o.stored.reps = 4;
	o.stored.sample_time_ns = 2000000;	/* 2 ms */
	o.cpus[0] = 0;
	o.ncpus = 1;
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res), CONFIG_OK);
	assert_int_equal(res.nsamples, 4);
	assert_non_null(res.hw_running_pct);
	for (k = 0; k < res.nsamples; k++) {
		/* per op of the configuration, summed over its workers */
		assert_true(res.hw[HW_METRIC_CYCLES][k] == FAKE_CYCLES * w);
		assert_true(res.hw[HW_METRIC_INSTR][k] == FAKE_INSTR * w);
		assert_true(res.hw[HW_METRIC_IPC][k] ==
			    (double)FAKE_INSTR / FAKE_CYCLES);
		assert_true(res.hw[HW_METRIC_CACHE][k] == FAKE_CACHE * w);
		assert_true(isnan(res.hw[HW_METRIC_DTLB][k]));
		assert_true(res.hw_running_pct[k] == 50.0);
	}
	assert_non_null(strstr(res.note, "multiplexed (on the PMU 50.0%"));
	result_set_init(&set);
	assert_int_equal(results_build(&res, 0, false, NULL, &set), 0);
	r = find(&set, "hw IPC");
	assert_non_null(r);
	assert_int_equal(r->direction, METRIC_INFO);
	assert_string_equal(r->unit, "instr/cycle");
	assert_int_equal(r->nsamples, 4);
	assert_true(r->summary.median == 2.0);
	r = find(&set, "hw instr/op");
	assert_non_null(r);
	assert_true(r->summary.median == FAKE_INSTR * w);
	assert_false(result_window_reading(r));
	assert_true(find(&set, "hw cycles/op")->summary.median ==
		    FAKE_CYCLES * w);
	assert_true(find(&set, "cache-miss/op")->summary.median ==
		    FAKE_CACHE * w);
	assert_null(find(&set, "dTLB-miss/op"));	/* no such event */
	result_set_free(&set);
	config_result_free(&res);
}

static void test_runner_one(void **state)
{
	(void)state;
	run_fake(1);
}

static void test_runner_two(void **state)
{
	(void)state;
	run_fake(2);
}

/* Off (the default): no room, no figures, no results. */
static void test_runner_off(void **state)
{
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct result_set set;
	struct run_opts o;

	(void)state;
	nworkers_wanted = 1;
	memset(&o, 0, sizeof(o));
	o.stored.reps = 2;
	o.stored.sample_time_ns = 1000000;
	o.cpus[0] = 0;
	o.ncpus = 1;
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res), CONFIG_OK);
	assert_null(res.hw_running_pct);
	result_set_init(&set);
	assert_int_equal(results_build(&res, 0, false, NULL, &set), 0);
	assert_int_equal(set.n, 1);
	result_set_free(&set);
	config_result_free(&res);
}

/*
 * The real source here: counters, or nothing with the reason.  This VM
 * has no PMU (ENOENT); a host with one gives counters.  Either way the
 * probe never fails and never makes up a counter.
 */
static void test_real_probe(void **state)
{
	struct hwcount_probe p;
	int c, n = 0;

	(void)state;
	hwcount_set_source(NULL);
	hwcount_probe(&p);
	for (c = 0; c < HWC_N; c++)
		n += p.have[c];
	assert_int_equal(n, p.nhave);
	if (p.nhave == 0) {
		assert_int_equal(strncmp(p.missing, "perf_event_open: ", 17),
				 0);
		print_message("no hardware counters here: %s%s\n", p.missing,
			      p.no_pmu ? " (no PMU)" : "");
	} else {
		struct hwcount hc;
		struct hwcount_values a, b;
		double pct;

		hwcount_use(&p);
		hwcount_open(&hc);
		hwcount_read(&hc, &a);
		fx_run_batch(NULL, 1000);
		hwcount_read(&hc, &b);
		hwcount_close(&hc);
		if (p.have[HWC_INSTRUCTIONS])
			assert_true(hwcount_delta(
				&a.c[HWC_INSTRUCTIONS],
				&b.c[HWC_INSTRUCTIONS], &pct) > 0 ||
				isnan(pct));
	}
}

/* Software stand-ins for the four events: a group every kernel has. */
static int sw_open(enum hwcount_counter c, bool user_only, int leader)
{
	static const uint64_t cfg[HWC_N] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
	};
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = cfg[c];
	attr.read_format = PERF_FORMAT_GROUP |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_kernel = user_only;
	if (c == HWC_CACHE_MISSES)
		return -EOPNOTSUPP;	/* a sibling the "PMU" lacks */
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, leader, 0);
	return fd < 0 ? -errno : (int)fd;
}

static void test_perf_group_read(void **state)
{
	const struct hwcount_source sw = {
		.open = sw_open, .read = hwcount_perf.read,
		.close = hwcount_perf.close,
	};
	struct hwcount_probe p;
	struct hwcount hc;
	struct hwcount_values a, b;
	double pct, clock;

	(void)state;
	hwcount_set_source(&sw);
	hwcount_probe(&p);
	if (p.nhave == 0) {
		skip();		/* perf_event_open refused even these */
		return;
	}
	assert_false(p.have[HWC_CACHE_MISSES]);
	hwcount_use(&p);
	hwcount_open(&hc);
	assert_true(hc.leader >= 0);
	hwcount_read(&hc, &a);
	fx_run_batch(NULL, 100000);
	hwcount_read(&hc, &b);
	assert_true(a.c[HWC_CACHE_MISSES].value == HWCOUNT_NA);
	assert_true(b.c[HWC_CYCLES].enabled_ns > a.c[HWC_CYCLES].enabled_ns);
	/* the task clock, ns, moved about as the group's time running */
	clock = hwcount_delta(&a.c[HWC_CYCLES], &b.c[HWC_CYCLES], &pct);
	assert_true(clock > 0);
	assert_true(pct == 100.0);
	assert_true(b.c[HWC_INSTRUCTIONS].running_ns ==
		    b.c[HWC_CYCLES].running_ns);	/* one group */
	hwcount_close(&hc);
	assert_int_equal(hc.leader, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_delta, reset, restore),
		cmocka_unit_test_setup_teardown(test_per_op, reset, restore),
		cmocka_unit_test_setup_teardown(test_probe_missing, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_probe_none, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_probe_user_only, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_runner_one, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_runner_two, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_runner_off, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_real_probe, reset,
						restore),
		cmocka_unit_test_setup_teardown(test_perf_group_read, reset,
						restore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
