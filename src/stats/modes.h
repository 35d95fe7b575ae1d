/*
 * modes.h - detection of bimodal sample sets.
 *
 * Cross-CPU pipe results under a hypervisor often fall into two clusters
 * (e.g. the reader woken on an idle or a busy host CPU); a median or mean
 * of such a set describes neither cluster, so reports say "bimodal" and
 * give both cluster medians instead of averaging silently.
 *
 * The rule (checked against simulations of normal, log-normal and
 * exponential-tailed sets; see docs/comparing.md):
 *   1. sort the n samples; n must be at least 2 * MODES_MIN_CLUSTER;
 *   2. consider every split into a low and a high cluster of at least
 *      max(MODES_MIN_CLUSTER, ceil(n * MODES_MIN_SHARE)) samples each;
 *   3. score a split by the gap between the clusters (the high cluster's
 *      smallest minus the low cluster's largest sample) divided by the
 *      pooled within-cluster standard deviation; keep the best split;
 *   4. the set is bimodal when that score is at least MODES_MIN_SCORE and
 *      the cluster medians differ by at least MODES_MIN_SEPARATION of the
 *      low median's magnitude.
 * With these constants a unimodal normal set of 10 is called bimodal
 * about 0.6% of the time, one of 20 or more practically never; two
 * clusters 40% apart with 3-4% spread each are found in 9 of 10 sets of
 * 10 (the misses are sets where one cluster got fewer than 3 samples).
 */
#ifndef COPYSCOPE_MODES_H
#define COPYSCOPE_MODES_H

#include <stdbool.h>
#include <stddef.h>

#define MODES_MIN_CLUSTER 3
#define MODES_MIN_SHARE 0.2
#define MODES_MIN_SCORE 4.0
#define MODES_MIN_SEPARATION 0.05

struct modes {
	bool bimodal;
	size_t n_lo, n_hi;		/* samples in each cluster */
	double median_lo, median_hi;	/* cluster medians */
	double split;			/* midpoint of the gap */
	double score;			/* gap / pooled within-cluster sd */
};

/*
 * Look for two clusters in x[0..n-1] (not modified).  Fills out (the best
 * split even when it is not bimodal; n_lo = n_hi = 0 when there is no
 * admissible split).  Returns 0, or -1 on allocation failure.
 */
int modes_detect(const double *x, size_t n, struct modes *out);

#endif
