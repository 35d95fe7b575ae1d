/*
 * paired.c - the Wilcoxon signed-rank test and the Hodges-Lehmann
 * estimate of paired differences (see paired.h for the method).
 */
#include "stats/paired.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/summary.h"
#include "util/sort.h"

/*
 * The number of subsets of {1..n} with each sum 0..n(n+1)/2, as doubles
 * (exact up to 2^53, and n < PAIRED_EXACT_MAX keeps every count below
 * 2^50).  Returns the array (free it), or NULL.
 */
static double *signrank_counts(size_t n)
{
	size_t smax = n * (n + 1) / 2, k, s;
	double *c = calloc(smax + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (k = 1; k <= n; k++)
		for (s = k * (k + 1) / 2; s >= k; s--)
			c[s] += c[s - k];
	return c;
}

double paired_signrank_cdf(double v, size_t n)
{
	size_t smax, s;
	double *c, sum = 0;

	if (n == 0 || n >= PAIRED_EXACT_MAX)
		return NAN;
	smax = n * (n + 1) / 2;
	if (v < 0)
		return 0;
	if (v >= (double)smax)
		return 1;
	c = signrank_counts(n);
	if (!c)
		return NAN;
	for (s = 0; s <= (size_t)floor(v); s++)
		sum += c[s];
	free(c);
	return sum / ldexp(1.0, (int)n);
}

double paired_min_p(size_t n)
{
	double p = n >= 1 ? 2.0 / ldexp(1.0, (int)(n < 1000 ? n : 1000)) : 1;

	return p < 1 ? p : 1;
}

size_t paired_min_n(double alpha)
{
	size_t n = 1;

	while (paired_min_p(n) >= alpha && n < 1000)
		n++;
	return n;
}

/*
 * Ranks of a[0..n-1] (average ranks for ties) into rank[]; returns the
 * tie term sum(t^3 - t) over groups of ties, and sets *ties.
 */
static double rank_abs(const double *a, size_t n, double *rank, bool *ties)
{
	size_t *idx = malloc(n * sizeof(*idx)), i, j, k;
	double *key = malloc(2 * n * sizeof(*key)), tie_term = 0;

	*ties = false;
	if (!idx || !key) {
		free(idx);
		free(key);
		return NAN;
	}
	/* sort (value, index) pairs by value: the order of the ranks */
	for (i = 0; i < n; i++) {
		key[2 * i] = a[i];
		key[2 * i + 1] = (double)i;
	}
	qsort(key, n, 2 * sizeof(*key), util_cmp_double);
	for (i = 0; i < n; i++)
		idx[i] = (size_t)key[2 * i + 1];
	free(key);
	for (i = 0; i < n; i = j) {
		double r;

		for (j = i + 1; j < n && a[idx[j]] == a[idx[i]]; j++)
			;
		r = (double)(i + 1 + j) / 2.0;	/* mean of ranks i+1..j */
		for (k = i; k < j; k++)
			rank[idx[k]] = r;
		if (j - i > 1) {
			double t = (double)(j - i);

			*ties = true;
			tie_term += t * t * t - t;
		}
	}
	free(idx);
	return tie_term;
}

/* p-value of V: the exact distribution, or the normal approximation. */
static double signrank_p(double v, size_t n, bool exact, double tie_term)
{
	double mean = (double)n * (double)(n + 1) / 4.0, p;

	if (exact) {
		if (v > mean)
			p = 1.0 - paired_signrank_cdf(v - 1, n);
		else
			p = paired_signrank_cdf(v, n);
	} else {
		double var = (double)n * (double)(n + 1) *
			     (double)(2 * n + 1) / 24.0 - tie_term / 48.0;
		double z = v - mean;

		if (var <= 0)
			return 1;
		z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sqrt(var);
		p = z < 0 ? gsl_cdf_ugaussian_P(z) : gsl_cdf_ugaussian_Q(z);
	}
	p *= 2;
	return p < 1 ? p : 1;
}

/*
 * The lower order statistic (1-based) of the Walsh averages that bounds
 * the CI at level conf: the smallest q with P(V <= q) >= (1 - conf) / 2
 * (R's qsignrank), at least 1; and the level it achieves.
 */
static size_t ci_rank(size_t n, bool exact, double conf, double *achieved)
{
	double half = (1 - conf) / 2, smax = (double)n * (double)(n + 1) / 2;
	size_t q;

	*achieved = conf;
	if (exact) {
		double *c = signrank_counts(n), cum = 0, tot;

		if (!c)
			return 1;
		tot = ldexp(1.0, (int)n);
		for (q = 0; q <= (size_t)smax; q++) {
			cum += c[q];
			if (cum / tot >= half)
				break;
		}
		if (q == 0)
			q = 1;
		/* 1 - 2 P(V <= q - 1): both tails outside the interval */
		cum = 0;
		for (size_t s = 0; s < q; s++)
			cum += c[s];
		*achieved = 1 - 2 * cum / tot;
		free(c);
		return q;
	}
	{
		double sd = sqrt((double)n * (double)(n + 1) *
				 (double)(2 * n + 1) / 24.0);
		double qq = floor(smax / 2 - gsl_cdf_ugaussian_Qinv(half) * sd);

		return qq < 1 ? 1 : (size_t)qq;
	}
}

/* Sorted Walsh averages (d_i + d_j) / 2, i <= j: n(n+1)/2 of them. */
static double *walsh_sorted(const double *d, size_t n)
{
	size_t m = n * (n + 1) / 2, i, j, k = 0;
	double *w = malloc(m * sizeof(*w));

	if (!w)
		return NULL;
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	qsort(w, m, sizeof(*w), util_cmp_double);
	return w;
}

int paired_signed_rank(const double *d, size_t n, double conf,
		       struct paired_result *out)
{
	double *nz = NULL, *absv = NULL, *rank = NULL, *w = NULL, tie_term;
	size_t i, m = 0, nw, qu, ql;
	bool ties;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (n == 0 || n > PAIRED_MAX_N || !(conf > 0 && conf < 1))
		return -1;
	for (i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return -1;
	out->n = n;
	out->conf = conf;
	nz = malloc(n * sizeof(*nz));
	absv = malloc(n * sizeof(*absv));
	rank = malloc(n * sizeof(*rank));
	if (!nz || !absv || !rank)
		goto out;
	for (i = 0; i < n; i++)
		if (d[i] != 0)
			nz[m++] = d[i];
	out->n_nonzero = m;
	out->min_p = paired_min_p(m);
	if (m == 0) {
		out->p = 1;
		out->exact = true;
		rc = 0;
		goto out;
	}
	for (i = 0; i < m; i++)
		absv[i] = fabs(nz[i]);
	tie_term = rank_abs(absv, m, rank, &ties);
	if (isnan(tie_term))
		goto out;
	for (i = 0; i < m; i++)
		if (nz[i] > 0)
			out->v += rank[i];
	out->exact = m < PAIRED_EXACT_MAX && !ties && m == n;
	out->p = signrank_p(out->v, m, out->exact, tie_term);
	/* the estimate and its interval from the non-zero differences, as
	   R does after dropping zeros */
	w = walsh_sorted(nz, m);
	if (!w)
		goto out;
	nw = m * (m + 1) / 2;
	out->hl = stats_quantile_sorted(w, nw, 0.5);
	qu = ci_rank(m, out->exact, conf, &out->conf);
	if (qu > nw)
		qu = nw;
	ql = nw - qu;		/* R: diffs[qu], diffs[ql + 1], 1-based */
	out->ci_lo = w[qu - 1];
	out->ci_hi = w[ql < nw ? ql : nw - 1];
	if (out->ci_lo > out->ci_hi) {
		double t = out->ci_lo;

		out->ci_lo = out->ci_hi;
		out->ci_hi = t;
	}
	rc = 0;
out:
	free(nz);
	free(absv);
	free(rank);
	free(w);
	return rc;
}
