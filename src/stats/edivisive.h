/*
 * edivisive.h - change points of a series by E-divisive means (Matteson &
 * James, "A Nonparametric Approach for Multiple Change Point Analysis of
 * Multivariate Data", JASA 2014), with the energy distance of exponent
 * alpha = 1 as Apache Otava (formerly Hunter) and MongoDB's CI use it.
 *
 * For a segment x[0..n) split before tau into L = x[0..tau) (m points)
 * and R = x[tau..n) (k points):
 *
 *   Q(tau) = m k / n * ( 2/(m k) sum_{i in L, j in R} |x_i - x_j|
 *                        - 1/C(m,2) sum_{i<i' in L} |x_i - x_i'|
 *                        - 1/C(k,2) sum_{j<j' in R} |x_j - x_j'| )
 *
 * The candidate is the tau of the largest Q (both sides at least
 * min_size points).  Its significance comes from a permutation test: the
 * segment's points are shuffled perms times (ten times as many in a
 * segment as short as to leave a split's exact p just below alpha,
 * ediv_perms_at(); a seeded generator, so the same series always gives
 * the same answer), the largest Q of each shuffle is found the same way,
 * and p = (1 + #{Q_perm >= Q}) / (1 + perms).  A candidate with p < alpha is a change point; the segments on
 * either side are then searched again (recursive bisection, the segment
 * with the largest Q first), until a candidate is not significant or
 * max_points are found.  Unlike ecp::e.divisive, only the segment being
 * split is shuffled (not every segment at once), as Otava does.
 *
 * One pass over all tau of a segment costs O(n log n): the within sums
 * are kept as points join a side, with Fenwick trees over the points'
 * ranks (the distance from a point to a set is count_below * x -
 * sum_below + sum_above - count_above * x), and the cross sum is the
 * total less both within sums.  So a series of 10,000 points with 199
 * permutations takes a fraction of a second.
 */
#ifndef COPYSCOPE_STATS_EDIVISIVE_H
#define COPYSCOPE_STATS_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

struct ediv_opts {
	double alpha;		/* significance level, (0, 1) */
	unsigned perms;		/* permutations per test, >= 1 */
	size_t min_size;	/* the fewest points of a segment, >= 2 */
	size_t max_points;	/* the most change points; 0: no limit */
	uint64_t seed;		/* of the permutations */
};

/*
 * The defaults: 199 permutations (the smallest p is then 0.005), segments
 * of at least 3 points, a fixed seed; history's alpha is 0.01.
 */
#define EDIV_DEFAULT_ALPHA 0.01
#define EDIV_DEFAULT_PERMS 199
#define EDIV_DEFAULT_MIN_SIZE 3
#define EDIV_DEFAULT_SEED 0xc0ffee5eedULL

/* The most permutations ediv_perms_for() asks. */
#define EDIV_MAX_PERMS 9999

/*
 * The permutations a test at level alpha needs so that the smallest p it
 * can give, 1 / (1 + perms), lies at alpha / 10 or below (and the
 * estimate of a p near alpha is not one or two hits): EDIV_DEFAULT_PERMS
 * or more, at most EDIV_MAX_PERMS.  999 at history's alpha of 0.01.
 */
unsigned ediv_perms_for(double alpha);

/*
 * Where the exact p of a split can fall below alpha but not far below
 * it (the smallest p of a split of n points, 2 / C(n, k) for a side of
 * k, within this factor of alpha: at alpha 0.01 the newest 4 of 10 or 11
 * points, the newest 3 of 12 to 17), the estimate's own noise would
 * decide (999 permutations find a 3x step in the newest 3 of 13 points
 * in 63 of 100 series, 9990 in 100); a segment of such n is tested with
 * ten times the permutations (at most EDIV_MAX_PERMS).
 */
#define EDIV_NEAR_FACTOR 4

/*
 * The permutations a segment of n points is tested with: o->perms, or
 * ten times as many where a split's smallest p lies within
 * EDIV_NEAR_FACTOR below alpha.  Of n only, not of the values, so that
 * the test stays exact at its level.
 */
unsigned ediv_perms_at(size_t n, const struct ediv_opts *o);

struct ediv_point {
	size_t index;		/* the first point after the change */
	double q;		/* its statistic Q */
	double p;		/* its permutation p-value */
};

/*
 * Q(tau) of x[0..n) as defined above, computed directly from the pairs
 * (O(n^2); for tests and small series).  NAN when tau < 2 or n - tau < 2.
 */
double ediv_q_direct(const double *x, size_t n, size_t tau);

/*
 * The largest Q(tau) of x[0..n) over tau with both sides >= min_size
 * (min_size >= 2): *tau and *q get it.  Returns 0, 1 when the series is
 * too short for any split (n < 2 * min_size), -1 on allocation failure.
 */
int ediv_best_split(const double *x, size_t n, size_t min_size,
		    size_t *tau, double *q);

/*
 * The change points of x[0..n) with o (see above): *out (malloc'ed, free
 * it; NULL when none) gets them in increasing index order, *nout their
 * count.  Returns 0, -1 on allocation failure or when o is out of range
 * (alpha outside (0, 1), perms 0, min_size < 2).
 */
int ediv_find(const double *x, size_t n, const struct ediv_opts *o,
	      struct ediv_point **out, size_t *nout);

/*
 * The split E-divisive tried last and did not accept: the segment
 * [lo, hi) it was the best split of, its first point after the split
 * (index), its Q and its p (>= alpha).  index 0: none was tried (no
 * segment could be split, or max_points stopped the search first).
 */
struct ediv_rejected {
	size_t lo, hi, index;
	double q, p;
};

/* ediv_find(), and the split it stopped at into *rej (may be NULL). */
int ediv_find_rejected(const double *x, size_t n,
		       const struct ediv_opts *o, struct ediv_point **out,
		       size_t *nout, struct ediv_rejected *rej);

/*
 * The smallest p the permutation test can give a split of n points into
 * n - k and k (0 < k < n), however large the change: the shuffles that
 * put the same k points on the same side (k! (n - k)! of the n!) give the
 * same Q, and so do those that put them first (the mirror image, the
 * other split of the same sizes), so the exact p is at least
 * 2 / C(n, k) (for a step in the newest 3 of 10 points 2/120 = 0.017,
 * what full enumeration of the 10! shuffles gives); and the estimate
 * (1 + hits) / (1 + perms) is at least 1 / (1 + perms).  The larger of
 * the two; NAN when k is 0 or n or more.
 */
double ediv_min_p(size_t n, size_t k, unsigned perms);

/*
 * What a segment of n points cannot tell at o's alpha (ediv_tail()).
 * Splits of the newest k points, for k from min_size up, have a smallest
 * p (ediv_min_p) that falls with k up to n / 2, so the splits that
 * cannot reach alpha are those of the newest (and, mirrored, the oldest)
 * min_size .. newest points.
 */
struct ediv_tail {
	size_t newest;		/* 0: every split can reach alpha; n: none
				   can (or n < 2 min_size: there is none);
				   else a change in the newest min_size ..
				   newest points cannot */
	double min_p;		/* the smallest p of those splits (of the
				   newest points, or of the whole segment's
				   best split); NAN when there is no split */
	size_t need;		/* the fewest points with which they could:
				   for newest == n some split of the
				   segment, else a split of its newest
				   min_size points; 0: no number of points
				   can (1 / (1 + perms) >= alpha) */
};

/*
 * What a segment of n points cannot tell with o (alpha, perms, min_size)
 * into *t; nothing of the values, only of n.  Returns 0, -1 when o is out
 * of range (as ediv_find()).
 */
int ediv_tail(size_t n, const struct ediv_opts *o, struct ediv_tail *t);

#endif
