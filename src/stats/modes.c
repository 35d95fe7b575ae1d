/*
 * modes.c - bimodality detection by the largest gap relative to the
 * within-cluster spread (see modes.h for the rule).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/modes.h"
#include "stats/summary.h"
#include "util/sort.h"

int modes_detect(const double *x, size_t n, struct modes *out)
{
	size_t min_c, i, best_i = 0;
	double *s, *pre, *pre2, best = -1.0;

	memset(out, 0, sizeof(*out));
	min_c = (size_t)ceil((double)n * MODES_MIN_SHARE);
	if (min_c < MODES_MIN_CLUSTER)
		min_c = MODES_MIN_CLUSTER;
	if (n < 2 * min_c)
		return 0;
	s = malloc(n * sizeof(*s));
	pre = malloc((n + 1) * sizeof(*pre));
	pre2 = malloc((n + 1) * sizeof(*pre2));
	if (!s || !pre || !pre2) {
		free(s);
		free(pre);
		free(pre2);
		return -1;
	}
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), util_cmp_double);
	/*
	 * Prefix sums of values centred on the overall median (so that the
	 * sums of squares do not cancel catastrophically for large values
	 * with a small spread).
	 */
	{
		double c = s[n / 2];

		pre[0] = pre2[0] = 0.0;
		for (i = 0; i < n; i++) {
			double d = s[i] - c;

			pre[i + 1] = pre[i] + d;
			pre2[i + 1] = pre2[i] + d * d;
		}
	}
	for (i = min_c; i + min_c <= n; i++) {
		/* low cluster s[0..i-1], high cluster s[i..n-1] */
		double nl = (double)i, nh = (double)(n - i);
		double ssl = pre2[i] - pre[i] * pre[i] / nl;
		double ssh = (pre2[n] - pre2[i]) -
			     (pre[n] - pre[i]) * (pre[n] - pre[i]) / nh;
		double sd, gap = s[i] - s[i - 1], score;

		if (ssl < 0)
			ssl = 0;
		if (ssh < 0)
			ssh = 0;
		sd = sqrt((ssl + ssh) / (double)(n - 2));
		if (sd > 0)
			score = gap / sd;
		else
			score = gap > 0 ? INFINITY : 0.0;
		if (score > best) {
			best = score;
			best_i = i;
		}
	}
	out->n_lo = best_i;
	out->n_hi = n - best_i;
	out->median_lo = stats_quantile_sorted(s, best_i, 0.5);
	out->median_hi = stats_quantile_sorted(s + best_i, n - best_i, 0.5);
	out->split = (s[best_i - 1] + s[best_i]) / 2.0;
	out->score = best;
	out->bimodal = best >= MODES_MIN_SCORE &&
		       out->median_hi - out->median_lo >=
		       MODES_MIN_SEPARATION * fabs(out->median_lo) &&
		       out->median_hi > out->median_lo;
	free(s);
	free(pre);
	free(pre2);
	return 0;
}
