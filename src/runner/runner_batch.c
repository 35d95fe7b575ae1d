/*
 * runner_batch.c - before a configuration's kept samples (see
 * runner_priv.h): sizing the batch so that one sample lasts the target
 * time, the warm-up, and the calibrated injection's iterations and what
 * it really adds.
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
	double target = (double)r->opts->sample_time_ns;
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
	double w[64], target = (double)r->opts->sample_time_ns;
	size_t nw = 0;
	uint64_t start;

	runner_progress(r, "growing the batch");
	st = grow_batch(r, &r->nops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	start = timer_mono_raw_ns();
	while ((int64_t)(timer_mono_raw_ns() - start) < r->opts->warmup_ns) {
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

/* WL_CAP_INJECT with inject_ns > 0: the busy-wait's iterations. */
void runner_inject_calibrate(struct runner *r, struct config_result *res)
{
	int row = param_find_role(r->wl->params, r->wl->nparams,
				  PARAM_ROLE_INJECT);

	if (row < 0 || r->ctx.ps.v[row] <= 0)
		return;
	res->inject_ns = r->ctx.ps.v[row];
	r->ctx.inject_iters = (uint64_t)((double)res->inject_ns *
					 inject_iters_per_ns() + 0.5);
	if (!r->ctx.inject_iters)
		r->ctx.inject_iters = 1;
}

#define INJECT_PAIRS 7
/* The fit's two points: iterations for at least this long, and twice. */
#define INJECT_FIT_MIN_NS 100.0

/*
 * What iters iterations of the injection add per op, measured in place:
 * pairs of samples at the run's batch size, one without and one with
 * it, in alternating order; the median difference per op, a 95% error
 * from the pairs' spread, and the median time per op without it.
 */
static enum config_status added_in_place(struct runner *r,
					 struct config_result *res,
					 uint64_t iters, double *added,
					 double *err, double *base)
{
	double off[INJECT_PAIRS], diff[INJECT_PAIRS], m = 0, ss = 0;
	enum config_status st;
	int k, half;

	for (k = 0; k < INJECT_PAIRS; k++) {
		double t[2];

		for (half = 0; half < 2; half++) {
			int on = (half + k) % 2;

			/* shared memory: worker processes see it too */
			atomic_store(&r->ws.ctl->inject_on, on ? iters : 0);
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
	*added = stats_median(diff, INJECT_PAIRS);
	/* t(0.975, 6) = 2.447 */
	*err = 2.447 * sqrt(ss / (INJECT_PAIRS - 1)) / sqrt((double)INJECT_PAIRS);
	*base = stats_median(off, INJECT_PAIRS);
	return CONFIG_OK;
}

/*
 * The busy wait does not add what it takes when run alone: its chain of
 * multiply-adds depends on nothing the op did, so an out-of-order core
 * runs part of it in the shadow of the op's own tail and of the next
 * op's start (asked +3% of a gettid, it added +1.3%).  So the iterations
 * are fitted in place: what i1 and i2 = 2 i1 iterations add (both at
 * least INJECT_FIT_MIN_NS, where the added time grows linearly), a line
 * through the two, the iterations where it crosses inject_ns, and one
 * secant step from what those add.  What the last iterations add is
 * stored: a test that asks for 3% knows what it got, with its error.
 * The injection stays on for the kept samples.
 */
/* The iterations where the line through (x0, y0) and (x1, y1) is want. */
static uint64_t secant(double x0, double y0, double x1, double y1,
		       double want, uint64_t fallback)
{
	double slope = (y1 - y0) / (x1 - x0), x;

	if (!(slope > 0) || !isfinite(slope))
		return fallback;
	x = x1 + (want - y1) / slope;
	return x < 1 ? 1 : (uint64_t)(x + 0.5);
}

enum config_status runner_inject_measure(struct runner *r,
					 struct config_result *res)
{
	double rate = inject_iters_per_ns(), a1 = 0, a2 = 0, a3 = 0, e, b;
	double want = (double)res->inject_ns;
	uint64_t i1, i2, i3, i4;
	enum config_status st;

	if (!r->ctx.inject_iters)
		return CONFIG_OK;
	runner_progress(r, "measuring the injection");
	i1 = (uint64_t)(fmax(want, INJECT_FIT_MIN_NS) * rate + 0.5);
	if (i1 < 1)
		i1 = 1;
	i2 = 2 * i1;
	st = added_in_place(r, res, i1, &a1, &e, &b);
	if (st == CONFIG_OK)
		st = added_in_place(r, res, i2, &a2, &e, &b);
	/* the line through the two, then one secant step from where it
	   led, since the overlap makes short waits add less than the
	   line says */
	i3 = secant((double)i1, a1, (double)i2, a2, want,
		    (uint64_t)(want * rate + 0.5));
	if (st == CONFIG_OK)
		st = added_in_place(r, res, i3, &a3, &e, &b);
	i4 = i3 == i1 ? i3 : secant((double)i1, a1, (double)i3, a3, want, i3);
	if (st == CONFIG_OK)
		st = added_in_place(r, res, i4, &res->inject_added_ns,
				    &res->inject_err_ns, &res->inject_base_ns);
	if (st != CONFIG_OK)
		return st;
	atomic_store(&r->ws.ctl->inject_on, i4);
	return CONFIG_OK;
}
