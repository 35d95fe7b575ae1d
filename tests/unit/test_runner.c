/*
 * test_runner.c - unit tests of the runner (src/runner/runner.c) with
 * synthetic workloads defined here: every kept sample taken and recorded
 * (its window, counters, CPUs), metrics consistent with the window and
 * the batch, a first sizing sample that stalls does not size the batch,
 * two workers in processes and in threads, a worker's failure and a usage
 * error reported with the worker's message, a workload that cannot run
 * here skipped with its reason, and an interruption.  Nothing here
 * asserts how long anything took.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "runner/runner.h"

/* What the synthetic workloads do, set per test. */
static struct {
	int nworkers;
	enum wl_mode mode;
	int fail_worker;		/* -1: none */
	int fail_code;			/* WL_EFAIL or WL_EUSAGE */
	bool stall_first;		/* the first batch sleeps 30 ms */
} beh;

static volatile uint64_t sink;

static int fx_setup(struct wl_ctx *ctx)
{
	int i;

	ctx->nworkers = beh.nworkers;
	ctx->mode = beh.mode;
	for (i = 0; i < beh.nworkers; i++)
		ctx->worker_name[i] = i ? "other" : "first";
	ctx->bytes_per_op = 64;
	return WL_OK;
}

/* One op: about a microsecond of arithmetic. */
static int fx_run_batch(struct wl_worker *w, uint64_t nops)
{
	static int calls;
	uint64_t i, x = sink;
	int k;

	if (w->idx == beh.fail_worker) {
		snprintf(w->err, WL_ERR_LEN, "worker %d: boom", w->idx);
		return beh.fail_code;
	}
	if (beh.stall_first && w->idx == 0 && calls++ == 0) {
		struct timespec ts = { 0, 30000000 };

		nanosleep(&ts, NULL);
	}
	for (i = 0; i < nops; i++)
		for (k = 0; k < 300; k++)
			x = x * 6364136223846793005ULL + 1;
	sink = x;
	return 0;
}

static const struct metric_def fx_metrics[] = {
	{ .name = "time/op", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER, .help = "time per op" },
	{ .name = "bandwidth", .kind = METRIC_BYTES_PER_SEC,
	  .dir = METRIC_HIGHER_BETTER, .help = "64 bytes per op" },
	{ .name = "ops", .kind = METRIC_OPS_PER_SEC,
	  .dir = METRIC_HIGHER_BETTER, .help = "ops per second" },
};

static const struct workload fx_wl = {
	.name = "test.arith",
	.summary = "arithmetic",
	.op = "300 multiply-adds",
	.not_measured = "nothing",
	.metrics = fx_metrics,
	.nmetrics = 3,
	.setup = fx_setup,
	.run_batch = fx_run_batch,
};

static bool never(char *why, size_t len)
{
	snprintf(why, len, "needs a machine that does not exist");
	return false;
}

static const struct workload fx_unsupported = {
	.name = "test.never",
	.summary = "never runs",
	.op = "none",
	.not_measured = "nothing",
	.metrics = fx_metrics,
	.nmetrics = 1,
	.supported = never,
	.setup = fx_setup,
	.run_batch = fx_run_batch,
};

static void opts_init(struct run_opts *o, int reps)
{
	memset(o, 0, sizeof(*o));
	o->stored.reps = reps;
	o->stored.sample_time_ns = 5000000;	/* 5 ms */
	o->stored.warmup_ns = 0;
	o->cpus[0] = 0;
	o->ncpus = 1;
}

static int reset(void **state)
{
	(void)state;
	memset(&beh, 0, sizeof(beh));
	beh.nworkers = 1;
	beh.mode = WL_MODE_THREAD;
	beh.fail_worker = -1;
	runner_interrupted = 0;
	return 0;
}

static void test_samples(void **state)
{
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct run_opts o;
	size_t k;

	(void)state;
	opts_init(&o, 4);
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res), CONFIG_OK);
	assert_int_equal(res.nsamples, 4);
	assert_true(res.batch_ops >= 1);
	assert_int_equal(res.target_ns, 5000000);
	assert_int_equal(res.nworkers, 1);
	assert_string_equal(res.worker_names[0], "first");
	assert_int_equal(res.worker_cpu[0], 0);
	assert_true(CPU_ISSET(0, &res.cpus_seen[0]));
	assert_string_equal(res.units[0], "ns");
	assert_string_equal(res.units[1], "bytes/s");
	for (k = 0; k < res.nsamples; k++) {
		double win = res.window_ns[k], ops = (double)res.batch_ops;

		assert_true(win > 0);
		/* one worker: its on-CPU time, when known, is what the
		   metrics use, never more than the window */
		if (!isnan(res.oncpu_ns[k])) {
			assert_true(res.oncpu_ns[k] > 0 &&
				    res.oncpu_ns[k] <= win);
			assert_true(fabs(res.offcpu_pct[k] -
					 100 * (1 - res.oncpu_ns[k] / win)) <
				    1e-9);
			win = res.oncpu_ns[k];
		}
		/* ns/op x ops is that time; the rates are its inverse */
		assert_true(fabs(res.values[0][k] * ops / win - 1) < 1e-6);
		assert_true(fabs(res.values[1][k] * win / 1e9 / (64 * ops) -
				 1) < 1e-6);
		assert_true(fabs(res.values[2][k] * win / 1e9 / ops - 1) <
			    1e-6);
	}
	config_result_free(&res);
}

static void test_stalled_sizing(void **state)
{
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct run_opts o;

	(void)state;
	/*
	 * The very first batch (one op) sleeps 30 ms, beyond the 5 ms
	 * target; an op really costs about a microsecond.  Trusting that
	 * one sample would keep a batch of one op, and every kept sample
	 * would last a microsecond under a heading of ">= 5ms".
	 */
	beh.stall_first = true;
	opts_init(&o, 3);
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res), CONFIG_OK);
	assert_true(res.batch_ops >= 100);
	config_result_free(&res);
}

static void test_two_workers(void **state)
{
	enum wl_mode modes[] = { WL_MODE_THREAD, WL_MODE_PROC };
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct run_opts o;
	size_t m;

	(void)state;
	for (m = 0; m < 2; m++) {
		beh.nworkers = 2;
		beh.mode = modes[m];
		opts_init(&o, 2);
		assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res),
				 CONFIG_OK);
		assert_int_equal(res.nsamples, 2);
		assert_int_equal(res.nworkers, 2);
		assert_string_equal(res.worker_names[1], "other");
		/* one allowed CPU: both placed on it, with the note */
		assert_int_equal(res.worker_cpu[1], 0);
		assert_non_null(strstr(res.note, "some share a CPU"));
		config_result_free(&res);
	}
}

static void test_failures(void **state)
{
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct run_opts o;

	(void)state;
	opts_init(&o, 2);
	beh.nworkers = 2;
	beh.fail_worker = 1;
	beh.fail_code = WL_EFAIL;
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res),
			 CONFIG_FAILED);
	assert_non_null(strstr(res.msg, "test.arith"));
	assert_non_null(strstr(res.msg, "worker 1: boom"));
	config_result_free(&res);
	beh.fail_code = WL_EUSAGE;
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res),
			 CONFIG_USAGE);
	config_result_free(&res);
	assert_int_equal(runner_run_config(&fx_unsupported, &ps, &o, &res),
			 CONFIG_UNSUPPORTED);
	assert_string_equal(res.msg, "needs a machine that does not exist");
	config_result_free(&res);
}

static void test_interrupted(void **state)
{
	struct config_result res;
	struct param_set ps = { { 0 } };
	struct run_opts o;

	(void)state;
	opts_init(&o, 2);
	runner_interrupted = 1;
	assert_int_equal(runner_run_config(&fx_wl, &ps, &o, &res),
			 CONFIG_INTERRUPTED);
	assert_string_equal(res.msg, "interrupted");
	config_result_free(&res);
	runner_interrupted = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_samples, reset),
		cmocka_unit_test_setup(test_stalled_sizing, reset),
		cmocka_unit_test_setup(test_two_workers, reset),
		cmocka_unit_test_setup(test_failures, reset),
		cmocka_unit_test_setup(test_interrupted, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
