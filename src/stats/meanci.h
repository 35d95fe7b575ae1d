/*
 * meanci.h - confidence intervals of means from Student's t: the mean
 * of one sample (the paired differences of a design whose unit is the
 * round), and the difference of two means with Welch's interval
 * (unequal variances, Welch-Satterthwaite degrees of freedom).  Means,
 * not medians, because they add: the sum of the parts' mean changes is
 * the mean change of the whole (comparison/profile_diff.h needs that).
 */
#ifndef COPYSCOPE_STATS_MEANCI_H
#define COPYSCOPE_STATS_MEANCI_H

#include <stddef.h>

/* A mean (or a difference of means) and its CI. */
struct mean_ci {
	double est;		/* the mean, or mean(y) - mean(x) */
	double lo, hi;		/* the CI; NAN when it cannot be had */
	double df;		/* degrees of freedom used */
	size_t n;		/* values (one sample), or nx + ny */
};

/*
 * The mean of x[0..n) with its two-sided t interval at level conf
 * (0 < conf < 1).  n >= 2 gives a CI (of zero width when every value
 * is the same); n == 1 the mean without one.  Returns 0, or -1 when n
 * is 0, conf is outside (0, 1) or a value is not finite.
 */
int stats_mean_ci(const double *x, size_t n, double conf,
		  struct mean_ci *out);

/*
 * mean(y) - mean(x) with Welch's two-sided interval at level conf; a
 * CI when each side has two or more values (zero width when neither
 * spreads).  Returns 0, or -1 when a side is empty, conf is outside
 * (0, 1) or a value is not finite.
 */
int stats_welch_diff_ci(const double *x, size_t nx, const double *y,
			size_t ny, double conf, struct mean_ci *out);

#endif
