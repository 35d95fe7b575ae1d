/*
 * mannwhitney.h - comparison statistics of two sample sets: the
 * Mann-Whitney U test, a bootstrap confidence interval of the %change of
 * medians, and the verdict (better, worse, no significant change) that
 * respects a metric's direction.
 *
 * The Mann-Whitney test follows R's wilcox.test(x, y) (two-sided):
 *   - exact when both sides have fewer than 50 samples and there are no
 *     ties: the null distribution of U is counted exactly (coefficients of
 *     the Gaussian binomial [m+n choose m]_q, in 128-bit integers);
 *   - otherwise the normal approximation with the tie correction of the
 *     variance and a continuity correction of 0.5.
 * U is the statistic of the first (base) side: the number of pairs
 * (x_i, y_j) with x_i > y_j, ties counting one half (R's W).
 */
#ifndef COPYSCOPE_STATS_MANNWHITNEY_H
#define COPYSCOPE_STATS_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exact p-values below this many samples per side (as R). */
#define MW_EXACT_MAX_N 50

struct mw_result {
	double u;		/* U of the first side (R's W) */
	double p;		/* two-sided p-value */
	double z;		/* normal approximation: the z score; 0 exact */
	bool exact;		/* exact distribution, else normal approx */
	bool ties;		/* ties among the pooled samples */
};

/*
 * Two-sided Mann-Whitney U test of x[0..nx-1] against y[0..ny-1] (neither
 * modified).  Needs nx >= 1 and ny >= 1.  Returns 0, or -1 on allocation
 * failure or empty input (out untouched).
 */
int stats_mann_whitney(const double *x, size_t nx, const double *y,
		       size_t ny, struct mw_result *out);

/*
 * P(U <= u) under the null hypothesis for sides of m and n samples without
 * ties (exact; m, n < MW_EXACT_MAX_N).  Returns a value in [0, 1], or -1
 * on bad input or allocation failure.
 */
double stats_mw_cdf(long u, int m, int n);

/* Standard normal cumulative distribution function. */
double stats_norm_cdf(double z);

/* Bootstrap resamples of stats_change_ci(). */
#define COMPARE_BOOTSTRAP_ITERS 2000
#define COMPARE_BOOTSTRAP_SEED 0xc0a9a8eULL

/*
 * Percentile-bootstrap CI of the %change of medians,
 * 100 * (median(new) / median(base) - 1): each side is resampled with
 * replacement on its own, iters times (capped for large sides by
 * stats_bootstrap_iters(), stats/summary.h), with a deterministic generator
 * seeded with seed (the same input always gives the same interval).
 * level e.g. 0.95.  A base median of 0 gives NAN bounds.  Returns 0, or
 * -1 on allocation failure or empty input.
 */
int stats_change_ci(const double *base, size_t nb, const double *nw,
		    size_t nn, unsigned iters, uint64_t seed, double level,
		    double *lo_pct, double *hi_pct);

/*
 * The same for sides made of several runs (the run, not the sample, is
 * the unit that repeats): a two-level bootstrap that draws runs with
 * replacement, then samples with replacement within each drawn run, and
 * takes the median of the pooled draw.  Side s has nruns runs; run r's
 * samples are x[start[r] .. start[r] + len[r] - 1].  Returns 0, or -1 on
 * allocation failure or a side without samples.
 */
int stats_change_ci_runs(const double *bx, const size_t *bstart,
			 const size_t *blen, size_t bruns, const double *nx,
			 const size_t *nstart, const size_t *nlen,
			 size_t nruns, unsigned iters, uint64_t seed,
			 double level, double *lo_pct, double *hi_pct);

enum verdict {
	VERDICT_SAME,		/* "~": no significant change */
	VERDICT_BETTER,
	VERDICT_WORSE,
	VERDICT_INFO,		/* informational metric: no verdict */
	VERDICT_EMPTY,		/* a side has no samples left: every one
				   flagged and left out (--drop-noisy) */
	VERDICT_WITHHELD,	/* a side's runs ran under an emulator
				   (virt.emulated): numbers, no verdict */
	VERDICT_CANNOT_TELL,	/* the test cannot decide at the sizes
				   given (too few samples, rounds or runs
				   to reach alpha, a control that moved):
				   "cannot tell", never "no change" */
};

/*
 * The verdict of a change: with direction 0 (informational) always
 * VERDICT_INFO; otherwise significant when p < alpha and the whole CI of
 * the %change [ci_lo, ci_hi] lies beyond the noise band [-noise_pct,
 * +noise_pct] on one side (as criterion.rs's noise threshold; with
 * noise_pct 0: the CI excludes 0), and then better or worse by that side
 * against the direction (+1 higher is better, -1 lower is better).  A NAN
 * change, p or CI is never significant.
 */
enum verdict stats_verdict(int direction, double change_pct, double p,
			   double ci_lo, double ci_hi, double alpha,
			   double noise_pct);

/* "better", "worse", "~", "empty", "emul" (withheld) or "" (info). */
const char *stats_verdict_name(enum verdict v);

#endif
