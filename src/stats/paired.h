/*
 * paired.h - statistics of paired differences: the Wilcoxon signed-rank
 * test and the Hodges-Lehmann estimate with its confidence interval, as
 * R's wilcox.test(x, conf.int = TRUE) computes them for one sample of
 * differences.
 *
 * copyscope's paired A/B (`copyscope ab`) takes one difference per round
 * (a log ratio of B to the A of the same round) and tests them here: the
 * unit of the test is the round, the unit of variation that the rounds
 * cancel is the drift between rounds.
 *
 * Exact distribution: with fewer than PAIRED_EXACT_MAX non-zero
 * differences and no ties among their absolute values, the p-value and
 * the CI's order statistics come from the exact null distribution of the
 * signed-rank sum V (every one of the 2^n sign patterns equally likely),
 * counted by dynamic programming over the ranks.  Otherwise the normal
 * approximation with the tie correction and a continuity correction is
 * used for p (R's choice), and the CI's order statistics are taken from
 * the normal approximation of V's quantile (Hollander & Wolfe,
 * Nonparametric Statistical Methods, 3rd ed., 3.2); R searches the
 * asymptotic interval with uniroot instead, which gives nearly the same
 * interval for the round counts used here (n >= 50).
 */
#ifndef COPYSCOPE_STATS_PAIRED_H
#define COPYSCOPE_STATS_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

/* Below this many non-zero differences (and without ties): exact. */
#define PAIRED_EXACT_MAX 50

/* The most differences paired_signed_rank() accepts (the Walsh averages
   of the HL interval grow as n^2 / 2: 2000 rounds are 2 million). */
#define PAIRED_MAX_N 4000

struct paired_result {
	size_t n;		/* differences given */
	size_t n_nonzero;	/* used by the test */
	double v;		/* the signed-rank sum of the positive ones */
	double p;		/* two-sided */
	bool exact;		/* p and CI from the exact distribution */
	double hl;		/* Hodges-Lehmann estimate (the pseudo-median) */
	double ci_lo, ci_hi;	/* its CI at the asked level */
	double conf;		/* the level actually achieved (exact case),
				   or the level asked */
	double min_p;		/* the smallest two-sided p that n_nonzero
				   differences can give: when it is not
				   below alpha, no verdict is possible */
};

/*
 * Test the n differences d (NAN not allowed) against a location of 0,
 * two-sided, and estimate their location with its CI at level conf
 * (e.g. 0.95).  Returns 0, or -1 when n is 0 or over PAIRED_MAX_N, a
 * value is not finite, conf is not in (0, 1), or memory ran out.  With
 * every difference 0 the result is p = 1 and hl = ci = 0.
 */
int paired_signed_rank(const double *d, size_t n, double conf,
		       struct paired_result *out);

/*
 * The exact null distribution of V for n ranks 1..n: P(V <= v).  n must
 * be below PAIRED_EXACT_MAX.  Returns NAN for a bad n.
 */
double paired_signrank_cdf(double v, size_t n);

/*
 * The smallest two-sided p-value that n non-zero differences can reach
 * (all of one sign): 2 / 2^n, at most 1.
 */
double paired_min_p(size_t n);

/*
 * The fewest non-zero differences whose smallest two-sided p-value is
 * below alpha (0 < alpha < 1).
 */
size_t paired_min_n(double alpha);

#endif
