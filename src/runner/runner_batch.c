/*
 * runner_batch.c - before a configuration's kept samples (see
 * runner_priv.h): sizing the batch so that one sample lasts the target
 * time, the warm-up, the calibrated injection's steps and what they
 * deliver; and, with --fresh-workers, new workers before a kept sample.
 */
#include "runner/runner_priv.h"

#include <math.h>
#include <stdatomic.h>

#include "runner/context.h"
#include "runner/inject.h"
#include "runner/timer.h"
#include "stats/summary.h"

static double median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* How much to grow a batch whose sample took ns against target: aim 20%
   past the target, at least min_factor, at most x100 per step. */
static double growth(double target, double ns, double min_factor)
{
	double f = ns > 0 ? target * 1.2 / ns : 100.0;

	return f < min_factor ? min_factor : f > 100.0 ? 100.0 : f;
}

/*
 * Grow the batch until one sample lasts the target time, then confirm it
 * with two more samples of that size: a single sample that stalled (a
 * page fault storm, a preempted worker, a slow first wake-up) must not
 * size the batch, so the median of the three must reach the target, or
 * the growth goes on from that median (at most CONFIRM_ROUNDS times).
 */
#define CONFIRM_ROUNDS 5
#define MAX_BATCH (UINT64_C(1) << 40)

static enum config_status grow_batch(struct runner *r, uint64_t *nops_out,
				     char *msg, size_t len)
{
	double target = (double)r->opts->stored.sample_time_ns;
	uint64_t nops = 1;
	enum config_status st;
	int round;

	for (round = 0;; round++) {
		double ns, d[3];
		int k;

		for (;;) {
			st = runner_sample_cmd(r, nops, msg, len);
			if (st != CONFIG_OK)
				return st;
			ns = runner_last_window_ns(r);
			if (ns >= target || nops >= MAX_BATCH)
				break;
			nops = (uint64_t)ceil((double)nops *
					      growth(target, ns, 2.0));
		}
		d[0] = ns;
		for (k = 1; k < 3; k++) {
			st = runner_sample_cmd(r, nops, msg, len);
			if (st != CONFIG_OK)
				return st;
			d[k] = runner_last_window_ns(r);
		}
		ns = median3(d[0], d[1], d[2]);
		if (ns >= target || nops >= MAX_BATCH ||
		    round + 1 >= CONFIRM_ROUNDS)
			break;
		nops = (uint64_t)ceil((double)nops * growth(target, ns, 1.1));
	}
	*nops_out = nops;
	return CONFIG_OK;
}

/*
 * Warm up for the warm-up time at the batch size found; when the
 * warm-up's samples (three or more) were shorter than the target at the
 * median, the machine got faster after sizing: grow the batch to match.
 */
enum config_status runner_warm_up(struct runner *r, struct config_result *res)
{
	enum config_status st;
	double w[64], target = (double)r->opts->stored.sample_time_ns;
	size_t nw = 0;
	uint64_t start;

	runner_progress(r, "growing the batch");
	st = grow_batch(r, &r->nops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	start = timer_mono_raw_ns();
	while ((int64_t)(timer_mono_raw_ns() - start) < r->opts->stored.warmup_ns) {
		runner_progress(r, "warm-up");
		st = runner_sample_cmd(r, r->nops, res->msg, sizeof(res->msg));
		if (st != CONFIG_OK)
			return st;
		w[nw++ % 64] = runner_last_window_ns(r);
	}
	if (nw >= 3) {
		double m = stats_median(w, nw < 64 ? nw : 64);

		if (m < target && r->nops < MAX_BATCH)
			r->nops = (uint64_t)ceil((double)r->nops *
						 growth(target, m, 1.1));
	}
	res->batch_ops = r->nops;
	return CONFIG_OK;
}

/*
 * The step time, measured once per process: every configuration of a run
 * takes its steps at the same step time, so that two sides that ask F
 * and F+K ns (ab above a floor) differ by K's steps, not by the two
 * calibrations' own spread (a step time measured twice differs by up to
 * 3% here: 100 ns took 363 and 362 steps, 110 ns 397, 34 steps or 9.4 ns
 * apart where 10 were asked).
 */
static double process_step_ns(void)
{
	static double step_ns;

	if (!(step_ns > 0))
		step_ns = inject_step_ns();
	return step_ns;
}

/*
 * WL_CAP_INJECT: the steps for inject_ns at the process's step time
 * (0 for inject_ns=0, which runs the same wait with no added steps).
 */
void runner_inject_calibrate(struct runner *r, struct config_result *res)
{
	int row = param_find_role(r->wl->params, r->wl->nparams,
				  PARAM_ROLE_INJECT);

	r->ctx.inject_iters = 0;
	if (row < 0 || r->ctx.ps.v[row] <= 0)
		return;
	res->inject_ns = r->ctx.ps.v[row];
	res->inject_step_ns = process_step_ns();
	r->ctx.inject_iters = inject_steps_for((double)res->inject_ns,
					       res->inject_step_ns);
	res->inject_steps = r->ctx.inject_iters;
}

/* Pairs of samples that measure what the injection delivers. */
#define INJECT_PAIRS 15
/* t(0.975, INJECT_PAIRS - 1) */
#define INJECT_T95 2.145

/*
 * What the asked steps deliver per op, measured in place: pairs of
 * samples at the run's batch size, one with zero steps and one with the
 * asked steps, in alternating order (both through the same wait); the
 * median difference per op, a 95% error of the mean difference from the
 * pairs' spread, and the median time per op with zero steps.  The asked
 * steps then stay on for the kept samples.
 */
enum config_status runner_inject_measure(struct runner *r,
					 struct config_result *res)
{
	double off[INJECT_PAIRS], diff[INJECT_PAIRS], m = 0, ss = 0;
	uint64_t steps = r->ctx.inject_iters;
	enum config_status st;
	int k, half;

	if (!steps)
		return CONFIG_OK;
	runner_progress(r, "measuring the injection");
	for (k = 0; k < INJECT_PAIRS; k++) {
		double t[2];

		for (half = 0; half < 2; half++) {
			int on = (half + k) % 2;

			/* shared memory: worker processes see it too */
			atomic_store(&r->ws.ctl->inject_on, on ? steps : 0);
			st = runner_sample_cmd(r, r->nops, res->msg,
					       sizeof(res->msg));
			if (st != CONFIG_OK)
				return st;
			/* on the metrics' own basis: what it adds to them */
			t[on] = runner_last_metric_ns(r) / (double)r->nops;
		}
		off[k] = t[0];
		diff[k] = t[1] - t[0];
		m += diff[k];
	}
	m /= INJECT_PAIRS;
	for (k = 0; k < INJECT_PAIRS; k++)
		ss += (diff[k] - m) * (diff[k] - m);
	res->inject_added_ns = stats_median(diff, INJECT_PAIRS);
	res->inject_err_ns = INJECT_T95 * sqrt(ss / (INJECT_PAIRS - 1)) /
			     sqrt((double)INJECT_PAIRS);
	res->inject_base_ns = stats_median(off, INJECT_PAIRS);
	atomic_store(&r->ws.ctl->inject_on, steps);
	return CONFIG_OK;
}

enum config_status runner_fresh_workers(struct runner *r,
					struct config_result *res)
{
	enum config_status st;
	uint64_t warm = r->nops / 8 ? r->nops / 8 : 1;

	workers_stop(&r->ws, false);
	st = workers_start(&r->ws, res->msg, sizeof(res->msg));
	if (st == CONFIG_OK)	/* worker_init results */
		st = workers_wait(&r->ws, WATCHDOG_MIN_NS, res->msg,
				  sizeof(res->msg));
	if (st == CONFIG_OK)
		st = runner_sample_cmd(r, warm, res->msg, sizeof(res->msg));
	return st;
}
