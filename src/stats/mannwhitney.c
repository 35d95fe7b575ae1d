/*
 * mannwhitney.c - comparison statistics of two sample sets (see compare.h):
 * Mann-Whitney U (exact and normal approximation), the bootstrap CI of the
 * %change of medians, and the verdict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/mannwhitney.h"
#include "stats/summary.h"
#include "util/sort.h"

struct ranked {
	double v;
	int side;		/* 0: x, 1: y */
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v;
	double y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * The number of ways c[u] to get U = u, u = 0..m*n, for sides of m and n
 * without ties, are the coefficients of the Gaussian binomial
 *   [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
 * and every partial product (i = 1..k) is itself the polynomial
 * [n+k choose k]_q, so the division by (1 - q^i) is exact: a running sum
 * with stride i.  The coefficients are at most C(98, 49) < 2^96 for
 * m, n < 50, so signed 128-bit integers hold every intermediate value
 * exactly (the multiplication by (1 - q^(n+i)) can make some negative).
 */
double stats_mw_cdf(long u, int m, int n)
{
	__int128 *c, below = 0, total = 0;
	long deg = (long)m * n, k;
	int i;

	if (m < 1 || n < 1 || m >= MW_EXACT_MAX_N || n >= MW_EXACT_MAX_N)
		return -1.0;
	if (u < 0)
		return 0.0;
	if (u >= deg)
		return 1.0;
	c = calloc((size_t)deg + 1, sizeof(*c));
	if (!c)
		return -1.0;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		long up = n + i;

		/* times (1 - q^(n+i)), highest degree first */
		for (k = deg; k >= up; k--)
			c[k] -= c[k - up];
		/* divided by (1 - q^i): times 1 + q^i + q^2i + ... */
		for (k = i; k <= deg; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= deg; k++) {
		if (k <= u)
			below += c[k];
		total += c[k];
	}
	free(c);
	return (double)((long double)below / (long double)total);
}

int stats_mann_whitney(const double *x, size_t nx, const double *y,
		       size_t ny, struct mw_result *out)
{
	size_t n = nx + ny, i, j;
	struct ranked *r;
	double rank_x = 0.0, tie_sum = 0.0, mean_u, sigma, z, corr;

	if (nx == 0 || ny == 0)
		return -1;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -1;
	for (i = 0; i < nx; i++)
		r[i] = (struct ranked){ x[i], 0 };
	for (i = 0; i < ny; i++)
		r[nx + i] = (struct ranked){ y[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* mid-ranks; sum over tie groups of t^3 - t */
	for (i = 0; i < n; i = j) {
		double mid, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		mid = ((double)(i + 1) + (double)j) / 2.0;
		for (size_t k = i; k < j; k++)
			if (r[k].side == 0)
				rank_x += mid;
		tie_sum += t * t * t - t;
	}
	free(r);

	memset(out, 0, sizeof(*out));
	out->u = rank_x - (double)nx * ((double)nx + 1.0) / 2.0;
	out->ties = tie_sum > 0.0;
	mean_u = (double)nx * (double)ny / 2.0;
	if (nx < MW_EXACT_MAX_N && ny < MW_EXACT_MAX_N && !out->ties) {
		long u = lround(out->u);
		double p;

		/*
		 * As R: the tail on the side of U away from its mean;
		 * P(U >= u) = P(U <= mn - u) by symmetry (no 1 - x
		 * rounding in the far tail).
		 */
		if (out->u > mean_u) {
			p = stats_mw_cdf((long)nx * (long)ny - u, (int)nx,
					 (int)ny);
		} else {
			p = stats_mw_cdf(u, (int)nx, (int)ny);
		}
		if (p < 0)
			return -1;
		out->exact = true;
		out->p = fmin(2.0 * p, 1.0);
		return 0;
	}
	/* normal approximation, tie-corrected variance, continuity 0.5 */
	sigma = sqrt((double)nx * (double)ny / 12.0 *
		     (((double)n + 1.0) -
		      tie_sum / ((double)n * ((double)n - 1.0))));
	z = out->u - mean_u;
	if (sigma <= 0.0) {
		/* every sample equal: no evidence of a difference */
		out->p = 1.0;
		return 0;
	}
	corr = z > 0 ? 0.5 : z < 0 ? -0.5 : 0.0;
	z = (z - corr) / sigma;
	out->z = z;
	out->p = fmin(2.0 * fmin(stats_norm_cdf(z), stats_norm_cdf(-z)), 1.0);
	return 0;
}

int stats_change_ci(const double *base, size_t nb, const double *nw,
		    size_t nn, unsigned iters, uint64_t seed, double level,
		    double *lo_pct, double *hi_pct)
{
	double *sb = NULL, *sn = NULL, *chg = NULL;
	size_t *cnt = NULL;
	uint64_t state = seed;
	unsigned i, k = 0;
	int ret = -1;

	if (nb == 0 || nn == 0 || iters == 0)
		return -1;
	iters = stats_bootstrap_iters(nb + nn, iters);
	sb = malloc(nb * sizeof(*sb));
	sn = malloc(nn * sizeof(*sn));
	chg = malloc(iters * sizeof(*chg));
	cnt = malloc((nb > nn ? nb : nn) * sizeof(*cnt));
	if (!sb || !sn || !chg || !cnt)
		goto out;
	memcpy(sb, base, nb * sizeof(*sb));
	memcpy(sn, nw, nn * sizeof(*sn));
	qsort(sb, nb, sizeof(*sb), util_cmp_double);
	qsort(sn, nn, sizeof(*sn), util_cmp_double);
	for (i = 0; i < iters; i++) {
		double mb = stats_resample_median(sb, nb, cnt, &state);
		double mn = stats_resample_median(sn, nn, cnt, &state);

		if (mb != 0.0)
			chg[k++] = 100.0 * (mn / mb - 1.0);
	}
	if (k < iters) {
		/* a base median of 0 in some resample: no ratio */
		*lo_pct = *hi_pct = NAN;
	} else {
		qsort(chg, k, sizeof(*chg), util_cmp_double);
		*lo_pct = stats_quantile_sorted(chg, k, (1.0 - level) / 2.0);
		*hi_pct = stats_quantile_sorted(chg, k, (1.0 + level) / 2.0);
	}
	ret = 0;
out:
	free(sb);
	free(sn);
	free(chg);
	free(cnt);
	return ret;
}

/* One two-level resample of a side into buf; returns its median. */
static double resample_runs_median(const double *x, const size_t *start,
				   const size_t *len, size_t nruns,
				   double *buf, uint64_t *state)
{
	size_t i, k, n = 0;

	for (i = 0; i < nruns; i++) {
		size_t r = stats_rng_index(state, nruns);

		for (k = 0; k < len[r]; k++)
			buf[n++] = x[start[r] +
				     stats_rng_index(state, len[r])];
	}
	if (n == 0)
		return NAN;
	qsort(buf, n, sizeof(*buf), util_cmp_double);
	return stats_quantile_sorted(buf, n, 0.5);
}

/* The most samples one two-level resample of a side can hold. */
static size_t max_draw(const size_t *len, size_t nruns)
{
	size_t i, m = 0;

	for (i = 0; i < nruns; i++)
		if (len[i] > m)
			m = len[i];
	return m * nruns;
}

int stats_change_ci_runs(const double *bx, const size_t *bstart,
			 const size_t *blen, size_t bruns, const double *nx,
			 const size_t *nstart, const size_t *nlen,
			 size_t nruns, unsigned iters, uint64_t seed,
			 double level, double *lo_pct, double *hi_pct)
{
	size_t mb = max_draw(blen, bruns), mn = max_draw(nlen, nruns);
	double *buf, *chg;
	uint64_t state = seed;
	unsigned i, k = 0;

	if (mb == 0 || mn == 0 || iters == 0)
		return -1;
	buf = malloc((mb > mn ? mb : mn) * sizeof(*buf));
	chg = malloc(iters * sizeof(*chg));
	if (!buf || !chg) {
		free(buf);
		free(chg);
		return -1;
	}
	for (i = 0; i < iters; i++) {
		double b = resample_runs_median(bx, bstart, blen, bruns, buf,
						&state);
		double n = resample_runs_median(nx, nstart, nlen, nruns, buf,
						&state);

		/* a draw of only empty runs has no median: skip it */
		if (!isnan(b) && !isnan(n) && b != 0.0)
			chg[k++] = 100.0 * (n / b - 1.0);
	}
	if (k < iters / 2) {
		*lo_pct = *hi_pct = NAN;
	} else {
		qsort(chg, k, sizeof(*chg), util_cmp_double);
		*lo_pct = stats_quantile_sorted(chg, k, (1.0 - level) / 2.0);
		*hi_pct = stats_quantile_sorted(chg, k, (1.0 + level) / 2.0);
	}
	free(buf);
	free(chg);
	return 0;
}

enum verdict stats_verdict(int direction, double change_pct, double p,
			   double ci_lo, double ci_hi, double alpha,
			   double noise_pct)
{
	bool up;

	if (direction == 0)
		return VERDICT_INFO;
	if (isnan(change_pct) || isnan(p) || isnan(ci_lo) || isnan(ci_hi) ||
	    !(p < alpha))
		return VERDICT_SAME;
	if (ci_lo > noise_pct && ci_hi > noise_pct)
		up = true;
	else if (ci_lo < -noise_pct && ci_hi < -noise_pct)
		up = false;
	else
		return VERDICT_SAME;
	return up == (direction > 0) ? VERDICT_BETTER : VERDICT_WORSE;
}

const char *stats_verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_SAME:
		return "~";
	case VERDICT_CANNOT_TELL:
		return "cannot tell";
	case VERDICT_EMPTY:
		return "empty";
	case VERDICT_WITHHELD:
		return "emul";
	case VERDICT_INFO:
	default:
		return "";
	}
}
