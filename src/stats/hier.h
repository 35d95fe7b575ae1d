/*
 * hier.h - statistics of a hierarchy of measurements: samples within
 * runs within boots (Kalibera and Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013).  What varies between runs or boots is
 * what a kernel change must be told apart from, so the run (or the boot)
 * is the unit that repeats:
 *
 *   - the spread at each level, as a coefficient of variation: within a
 *     run (the samples around their run's median), between runs of a
 *     boot (the run medians), between boots (the boot medians);
 *   - a bootstrap confidence interval of the ratio of medians that
 *     resamples at every level (boots, then runs within each drawn boot,
 *     then samples within each drawn run);
 *   - Welch's t test on the logarithms of the run medians: it has power
 *     at small n (3 runs against 3 can reach p < 0.01, where Mann-Whitney
 *     over run medians cannot go below p = 0.1), and the logarithm makes
 *     a ratio of medians its effect;
 *   - the minimum detectable effect at a power, and the runs per side a
 *     named effect needs.
 * The t distribution comes from GSL (gsl_cdf_tdist_*).
 */
#ifndef COPYSCOPE_HIER_H
#define COPYSCOPE_HIER_H

#include <stddef.h>
#include <stdint.h>

/* One side: samples x, grouped into runs, runs into boots. */
struct hier_side {
	const double *x;
	const size_t *run_start, *run_len;	/* run r: x[start .. +len) */
	const size_t *run_boot;			/* boot index of run r */
	size_t nruns;
	size_t nboots;				/* boot indexes 0 .. nboots-1 */
};

/* The spread at each level, as CV (sd / mean) of the level's values;
   NAN where a level has fewer than two members to tell. */
struct hier_spread {
	double within_run;	/* pooled, samples around their run mean */
	double between_runs;	/* run medians within a boot, pooled */
	double between_boots;	/* boot medians (of their run medians) */
};

/* Compute side's spread at each level.  0, or -1 on ENOMEM. */
int hier_spread(const struct hier_side *side, struct hier_spread *out);

/*
 * The resamples hier_change_ci() draws when iters are asked for: a
 * resample of both sides draws as many samples as the two sides hold
 * (on average), so iters is capped by stats_bootstrap_iters() of that
 * total, as the summary's bootstrap is (iters itself for the sizes
 * copyscope's own runs have).
 */
unsigned hier_bootstrap_iters(const struct hier_side *base,
			      const struct hier_side *nw, unsigned iters);

/*
 * Percentile-bootstrap CI (level, e.g. 0.95) of the %change of medians,
 * 100 * (median(new) / median(base) - 1), resampling each side at every
 * level it has; iters resamples (capped by hier_bootstrap_iters() for
 * large sides) from a generator seeded with seed (the same input gives
 * the same interval).  Returns 0 (NAN bounds when too few resamples had
 * a median), -1 on ENOMEM or an empty side.
 */
int hier_change_ci(const struct hier_side *base, const struct hier_side *nw,
		   unsigned iters, uint64_t seed, double level,
		   double *lo_pct, double *hi_pct);

/* Welch's two-sample t test on the logarithms of positive values. */
struct welch_result {
	double t;		/* of log(y) - log(x) */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided */
	double se_log;		/* standard error of the difference */
	double diff_log;	/* mean log(y) - mean log(x) */
};

/*
 * Welch's t test of log(y) against log(x); every value must be > 0 and
 * each side needs two or more.  Returns 0, or -1 (out untouched).
 */
int stats_welch_log(const double *x, size_t nx, const double *y, size_t ny,
		    struct welch_result *out);

/*
 * Welch's t test of the means of y against x, plain values, nx and ny
 * >= 2 (the fields named _log then hold the plain difference and its
 * standard error); when neither side spreads, t is 0 for equal means
 * (p 1) and infinite otherwise (p 0).
 */
struct welch_result stats_welch(const double *x, size_t nx, const double *y,
				size_t ny);

/*
 * The two-sided p of Welch's t test of the means of y against x, plain
 * values (no logarithm); 1 when neither side spreads and the means are
 * equal, 0 when they differ.  NAN when a side has fewer than two.
 */
double stats_welch_p(const double *x, size_t nx, const double *y, size_t ny);

/* The mean of x[0 .. n); NAN when n is 0. */
double stats_mean(const double *x, size_t n);

/*
 * The sample variance of x[0 .. n) (n - 1 in the denominator); 0 when n
 * is under 2.
 */
double stats_variance(const double *x, size_t n);

/*
 * The smallest change (in %, of a ratio) that a two-sided test at alpha
 * sees with the given power, for a difference of logs with standard
 * error se_log and df degrees of freedom:
 *   exp((t(1 - alpha/2, df) + t(power, df)) * se_log) - 1.
 * NAN for bad input.
 */
double stats_mde_pct(double se_log, double df, double alpha, double power);

/*
 * Runs per side (at least 2, at most max_runs) for a change of target_pct
 * to be seen at alpha with the given power, when log run medians spread
 * with standard deviation sd_log on each side; 0 when more than max_runs
 * would be needed, -1 for bad input.
 */
int stats_runs_needed(double sd_log, double target_pct, double alpha,
		      double power, int max_runs);

/* Sample standard deviation of log(x[i]), x > 0; NAN with n < 2. */
double stats_sd_log(const double *x, size_t n);

#endif
