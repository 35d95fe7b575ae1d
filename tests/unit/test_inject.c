/*
 * test_inject.c - the calibrated injection (runner/inject.h): the sled
 * runs exactly the steps it is given, the steps asked round inject_ns at
 * the step time, a step costs what its timing says, and sys.null waits
 * the steps the core sets whatever inject_ns was (inject_ns=0 takes the
 * same path, with zero steps).  Timings are compared with themselves, as
 * ratios with wide bounds, never against absolute times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/inject.h"
#include "runner/timer.h"
#include "workloads/workloads.h"

/* Each step flips x: the result says how many ran, modulo 2, and that
   the jump landed on a step (a misaligned entry would not flip). */
static void test_sled_runs_the_steps(void **state)
{
	uint64_t n, x = 0x0123456789abcdefULL;

	(void)state;
	for (n = 0; n <= INJECT_SLED_STEPS; n++)
		assert_true(inject_sled(x, n) == (n % 2 ? ~x : x));
	/* beyond one sled: several runs of it */
	assert_true(inject_wait(x, 3 * INJECT_SLED_STEPS + 1) == ~x);
	assert_true(inject_wait(x, 2 * INJECT_SLED_STEPS) == x);
}

static void test_steps_for(void **state)
{
	(void)state;
	assert_true(inject_steps_for(0, 0.3) == 0);
	assert_true(inject_steps_for(-5, 0.3) == 0);
	assert_true(inject_steps_for(10, 0) == 0);
	assert_true(inject_steps_for(10, 0.3) == 33);	/* 33.3 */
	assert_true(inject_steps_for(1, 0.3) == 3);	/* 3.33 */
	assert_true(inject_steps_for(1, 0.4) == 3);	/* 2.5 up */
	assert_true(inject_steps_for(100, 0.25) == 400);
	assert_true(inject_steps_for(1, 0.3) * 0.3 > 1 - 0.3 / 2 - 1e-9);
}

/* Keeps the timed waits' results alive. */
static volatile uint64_t sink;

/* The fastest of runs ns of calls waits of steps steps, per wait. */
static double fastest_wait_ns(uint64_t steps, int calls, int runs)
{
	double best = 1e300;
	uint64_t x = 1;
	int k, i;

	for (k = 0; k < runs; k++) {
		uint64_t t0 = timer_mono_raw_ns(), t1;

		for (i = 0; i < calls; i++)
			x = inject_wait(x, steps);
		t1 = timer_mono_raw_ns();
		if ((double)(t1 - t0) < best)
			best = (double)(t1 - t0);
	}
	sink = x;
	return best / calls;
}

/*
 * The step time predicts what a wait takes, as a difference against the
 * empty wait (the same path with zero steps): within 10%, the fastest of
 * many runs (a loaded machine slows some runs, never the fastest).
 */
static void test_step_time_predicts_the_wait(void **state)
{
	double step = inject_step_ns(), empty, full, want;

	(void)state;
	assert_true(step > 0.01 && step < 100);
	empty = fastest_wait_ns(0, 200, 31);
	full = fastest_wait_ns(2000, 200, 31);
	want = 2000 * step;
	assert_true(full - empty > 0.9 * want);
	assert_true(full - empty < 1.1 * want);
	/* the empty wait is the fences and the jump, not a sled's worth */
	assert_true(empty < full / 4);
}

/*
 * sys.null waits the steps the core sets, whatever inject_ns asked
 * (inject_iters 0, as for inject_ns=0): the count is data, not a switch
 * to another loop.  100000 steps per call outweigh a system call many
 * times over, so the ratio holds on any machine.
 */
static void test_sys_null_waits_for_the_data(void **state)
{
	const struct workload *wl = &wl_sys_null;
	_Atomic uint64_t steps = 0;
	struct wl_ctx ctx;
	struct wl_worker w;
	double t0ns, tkns;
	void *params = calloc(1, wl->params_size);
	char err[WL_ERR_LEN];
	uint64_t a, b;

	(void)state;
	assert_non_null(params);
	memset(&ctx, 0, sizeof(ctx));
	memset(&w, 0, sizeof(w));
	ctx.wl = wl;
	ctx.params = params;	/* zeroed: call=gettid, inject_ns=0 */
	ctx.inject_on = &steps;
	assert_int_equal(wl->setup(&ctx), WL_OK);
	assert_true(ctx.inject_iters == 0);
	w.ctx = &ctx;
	w.err = err;
	wl->run_batch(&w, 50);	/* warm */
	a = timer_mono_raw_ns();
	assert_int_equal(wl->run_batch(&w, 50), 0);
	b = timer_mono_raw_ns();
	t0ns = (double)(b - a);
	atomic_store(&steps, 100000);
	a = timer_mono_raw_ns();
	assert_int_equal(wl->run_batch(&w, 50), 0);
	b = timer_mono_raw_ns();
	tkns = (double)(b - a);
	atomic_store(&steps, 0);
	assert_true(tkns > t0ns + 0.5 * 50 * 100000 * inject_step_ns());
	wl->teardown(&ctx);
	free(params);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sled_runs_the_steps),
		cmocka_unit_test(test_steps_for),
		cmocka_unit_test(test_step_time_predicts_the_wait),
		cmocka_unit_test(test_sys_null_waits_for_the_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
