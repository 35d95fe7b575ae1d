/*
 * summary.h - descriptive statistics of one sample set.
 *
 * Everything a result line and the store need: n, median, mean, min, max,
 * stddev (sample, n-1), MAD (median absolute deviation, unscaled), CV
 * (stddev / mean), and a 95% percentile-bootstrap confidence interval of the
 * median, seeded so that the same samples always give the same interval.
 * Below SUMMARY_MIN_CI_N samples there is no such interval, and the CI is
 * NAN: the one place that decides whether a result has a CI, so that the
 * renderers print only what exists.
 */
#ifndef COPYSCOPE_SUMMARY_H
#define COPYSCOPE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double median, mean, min, max;
	double stddev;		/* sample standard deviation (n-1); 0 if n<2 */
	double mad;		/* median of |x - median| */
	double cv;		/* stddev / |mean|; 0 if mean == 0 */
	double ci_lo, ci_hi;	/* 95% bootstrap CI of the median; NAN
				   below SUMMARY_MIN_CI_N samples */
};

/*
 * The fewest samples with a 95% CI of the median.  Below it no interval
 * of the median reaches 95%: the widest, min .. max, covers the median
 * 1 - 2 / 2^n of the time (n = 5: 93.8%; n = 6: 96.9%), so a "95% CI"
 * there would be min .. max under a false name.
 */
#define SUMMARY_MIN_CI_N 6

/* Why a summary of n samples has no 95% CI of its median ("fewer than 6
   samples"), or NULL when it has one. */
const char *summary_ci_reason(size_t n);

/* Number of bootstrap resamples used by summary_compute(). */
#define SUMMARY_BOOTSTRAP_ITERS 2000
/* Fixed seed: the CI of a given sample set is reproducible. */
#define SUMMARY_BOOTSTRAP_SEED 0x5eedc0b1ULL

/*
 * Compute the summary of x[0..n-1] (not modified).  n == 0 gives all
 * zeros but a NAN CI; below SUMMARY_MIN_CI_N samples the CI is NAN.
 * Returns 0, or -1 on allocation failure.
 */
int summary_compute(const double *x, size_t n, struct summary *out);

/* Median of x[0..n-1] (not modified; 0 for n == 0). */
double stats_median(const double *x, size_t n);

/*
 * Quantile q in [0,1] of sorted[0..n-1] by linear interpolation between
 * closest ranks (type 7, as R and numpy default).
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * The bootstrap's cost bound: a resample of n values draws n indexes, so
 * iters resamples cost iters * n.  Up to STATS_BOOTSTRAP_MAX_DRAWS draws
 * (2000 resamples of 20000 values: every run copyscope makes with the
 * default --reps) the resamples are as asked; past it they are capped at
 * STATS_BOOTSTRAP_MAX_DRAWS / n, and never fewer than
 * STATS_BOOTSTRAP_MIN_ITERS.  So one result of 1,000,000 samples (the
 * most an import takes) costs 2e8 draws, not 2e9.
 */
#define STATS_BOOTSTRAP_MAX_DRAWS 40000000ULL
#define STATS_BOOTSTRAP_MIN_ITERS 200

/* The resamples a bootstrap of n values draws when iters are asked for
   (the rule above); iters itself when iters * n is within the bound. */
unsigned stats_bootstrap_iters(size_t n, unsigned iters);

/*
 * Percentile bootstrap CI of the median: iters resamples (capped by
 * stats_bootstrap_iters() for large n) with a deterministic generator
 * seeded with seed; level e.g. 0.95.  Returns 0, or -1 on allocation
 * failure.
 */
int stats_bootstrap_median_ci(const double *x, size_t n, unsigned iters,
			      uint64_t seed, double level, double *lo,
			      double *hi);

/*
 * How precisely x[0..n-1] pins its median: the larger distance from the
 * median to either end of the summary's 95% CI (the same bootstrap, seed
 * and resamples as summary_compute(), so it matches the printed CI), as %
 * of |median|.  NAN when the median is 0 (no relative precision) or there
 * are fewer than SUMMARY_MIN_CI_N samples (no CI).  Returns 0, or -1 on
 * allocation failure.
 */
int stats_median_precision_pct(const double *x, size_t n, double *pct);

/* Small deterministic PRNG (splitmix64) shared by the stats code. */
uint64_t stats_rng_next(uint64_t *state);

/* Uniform index in [0, n) from stats_rng_next() (Lemire's multiply-shift;
   bias < n / 2^64). */
size_t stats_rng_index(uint64_t *state, size_t n);

/*
 * Median of one bootstrap resample (n draws with replacement, from
 * stats_rng_index()) of sorted[0..n-1], n > 0, ascending; cnt is scratch
 * of n entries.  O(n): no sort of the resample.
 */
double stats_resample_median(const double *sorted, size_t n, size_t *cnt,
			     uint64_t *state);

#endif
