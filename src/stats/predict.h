/*
 * predict.h - a prediction interval for one new run from earlier runs:
 * whether one run's median lies within what the earlier runs of its
 * configuration do between runs (history as the noise model of a single
 * run, comparison/history_noise.c).
 *
 * On the logarithms y_i of the n earlier run medians, with mean m and
 * sample standard deviation s, a new run's log median y lies, when the
 * runs are independent draws of one normal distribution, within
 *
 *   m +- t(1 - alpha/2, n - 1) * s * sqrt(1 + 1/n)
 *
 * with probability 1 - alpha; (y - m) / (s * sqrt(1 + 1/n)) follows
 * Student's t with n - 1 degrees of freedom, which gives a two-sided p.
 * For the mean of k new runs' log medians, sqrt(1 + 1/n) becomes
 * sqrt(1/k + 1/n) (check --history's test of the newest runs).
 */
#ifndef COPYSCOPE_STATS_PREDICT_H
#define COPYSCOPE_STATS_PREDICT_H

#include <stddef.h>

struct pred_interval {
	size_t n;		/* earlier runs */
	double mean_log, sd_log;	/* of their log medians */
	double t_crit;		/* t(1 - alpha/2, n - 1) */
	double lo, hi;		/* the interval, in the values' units */
	double center;		/* exp(mean_log): their geometric mean */
	double t, p;		/* of value: its t and two-sided p */
	double change_pct;	/* 100 * (value / center - 1) */
};

/*
 * The 1 - alpha prediction interval from x[0 .. n) (every x > 0, n >= 2,
 * alpha in (0, 1)) and where value (> 0) lies against it, into out.
 * When the earlier runs do not spread at all (s = 0) the interval is the
 * one value and p is 1 when value equals it, else 0.  Returns 0, or -1 on
 * bad input (out untouched).
 */
int stats_predict_log(const double *x, size_t n, double value, double alpha,
		      struct pred_interval *out);

/*
 * The same for the geometric mean of k new runs v[0 .. k) (every v > 0,
 * k >= 1): on the mean y of their logs, the interval is
 * m +- t(1 - alpha/2, n - 1) * s * sqrt(1/k + 1/n), and lo, hi,
 * change_pct, t and p are those of y (the new runs' geometric mean).
 * k = 1 is stats_predict_log().  Returns 0, or -1 on bad input.
 */
int stats_predict_log_mean(const double *x, size_t n, const double *v,
			   size_t k, double alpha, struct pred_interval *out);

#endif
