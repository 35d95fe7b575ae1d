/*
 * summary.c - descriptive statistics of one sample set.
 *
 * Median, mean, extremes, sample standard deviation, MAD, CV and a
 * reproducible percentile-bootstrap confidence interval of the median.
 * Inputs are expected to be finite (no NaN).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/summary.h"

#include "util/sort.h"

/* Magnitude from which summary_compute() scales before it sums. */
#define SUMMARY_SCALE_FROM 1e150

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit output per call. */
uint64_t stats_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Sorted copy of x[0..n-1] (n > 0), or NULL on allocation failure. */
static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), util_cmp_double);
	return s;
}

/* q outside [0, 1] is clamped; 0 for n == 0. */
double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return 0.0;
	if (!(q > 0.0))
		return sorted[0];
	if (q >= 1.0)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)h;
	frac = h - (double)lo;
	if (lo + 1 >= n || frac == 0.0)
		return sorted[lo];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* Returns NAN if the working copy cannot be allocated. */
double stats_median(const double *x, size_t n)
{
	double *s, m;

	if (n == 0)
		return 0.0;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	m = stats_quantile_sorted(s, n, 0.5);
	free(s);
	return m;
}

size_t stats_rng_index(uint64_t *state, size_t n)
{
	return (size_t)(((unsigned __int128)stats_rng_next(state) * n) >> 64);
}

/*
 * Since the data are sorted, the resample's k-th smallest value is
 * sorted[j] for the k-th smallest drawn index j, so counting how often
 * each index is drawn (cnt[0..n-1], zeroed here) gives the order
 * statistics in O(n) without sorting the resample.
 */
double stats_resample_median(const double *sorted, size_t n, size_t *cnt,
			     uint64_t *state)
{
	size_t i, j, cum = 0, k = (n - 1) / 2;
	double a = 0.0;

	memset(cnt, 0, n * sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[stats_rng_index(state, n)]++;

	/* Find the k-th (0-based) value, and the (k+1)-th if n is even. */
	for (j = 0; j < n; j++) {
		cum += cnt[j];
		if (cum > k) {
			a = sorted[j];
			break;
		}
	}
	if (n % 2)
		return a;
	if (cum > k + 1)
		return a;
	for (j++; j < n; j++) {
		if (cnt[j])
			return (a + sorted[j]) / 2.0;
	}
	return a;
}

unsigned stats_bootstrap_iters(size_t n, unsigned iters)
{
	unsigned long long cap;

	if (n == 0 || (unsigned long long)iters * n <=
	    STATS_BOOTSTRAP_MAX_DRAWS)
		return iters;
	cap = STATS_BOOTSTRAP_MAX_DRAWS / n;
	if (cap < STATS_BOOTSTRAP_MIN_ITERS)
		cap = STATS_BOOTSTRAP_MIN_ITERS;
	return cap < iters ? (unsigned)cap : iters;
}

/*
 * Put the k-th smallest of v[0..n) at v[k], the smaller ones before it
 * and the larger after (Hoare's selection); O(n) on average.
 */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j;
	double pivot, t;

	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
}

/*
 * The type-7 quantile q of v[0..n) (reordered), as stats_quantile_sorted()
 * of the sorted values gives it, without sorting them all: the order
 * statistic below the quantile by selection, the one above as the
 * smallest of those after it.
 */
static double quantile_select(double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q, a, b;
	size_t k = (size_t)h, i;

	if (!(q > 0.0))
		k = 0;
	else if (q >= 1.0)
		k = n - 1;
	select_kth(v, n, k);
	a = v[k];
	if (!(q > 0.0) || q >= 1.0 || k + 1 >= n || h == (double)k)
		return a;
	b = v[k + 1];
	for (i = k + 2; i < n; i++)
		if (v[i] < b)
			b = v[i];
	return a + (h - (double)k) * (b - a);
}

/*
 * For n == 0 the interval is [0, 0]; for n == 1 or iters == 0 it is the
 * median itself.  The bounds are the (1-level)/2 and (1+level)/2 type-7
 * quantiles of the iters resample medians.
 */
int stats_bootstrap_median_ci(const double *x, size_t n, unsigned iters,
			      uint64_t seed, double level, double *lo,
			      double *hi)
{
	uint64_t state = seed;
	double *sorted, *meds;
	size_t *cnt;
	unsigned i;
	int ret = -1;

	if (n == 0) {
		*lo = *hi = 0.0;
		return 0;
	}
	iters = stats_bootstrap_iters(n, iters);
	sorted = sorted_copy(x, n);
	if (!sorted)
		return -1;
	if (n == 1 || iters == 0) {
		*lo = *hi = stats_quantile_sorted(sorted, n, 0.5);
		free(sorted);
		return 0;
	}
	meds = malloc(iters * sizeof(*meds));
	cnt = malloc(n * sizeof(*cnt));
	if (!meds || !cnt)
		goto out;

	for (i = 0; i < iters; i++)
		meds[i] = stats_resample_median(sorted, n, cnt, &state);
	*lo = quantile_select(meds, iters, (1.0 - level) / 2.0);
	*hi = quantile_select(meds, iters, (1.0 + level) / 2.0);
	ret = 0;
out:
	free(cnt);
	free(meds);
	free(sorted);
	return ret;
}

const char *summary_ci_reason(size_t n)
{
	return n < SUMMARY_MIN_CI_N ? "fewer than 6 samples" : NULL;
}

int summary_compute(const double *x, size_t n, struct summary *out)
{
	double *s, sum = 0.0, dev = 0.0, sq = 0.0, mean, k;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	out->ci_lo = out->ci_hi = NAN;
	if (n == 0)
		return 0;
	s = sorted_copy(x, n);
	if (!s)
		return -1;

	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_quantile_sorted(s, n, 0.5);

	/*
	 * Two passes: the mean, then the squared deviations from it, with the
	 * corrected form sum(d^2) - (sum d)^2 / n, where sum d is 0 in exact
	 * arithmetic and cancels the rounding error of the first pass
	 * (Chan, Golub, LeVeque 1983).  Values past SUMMARY_SCALE_FROM are
	 * divided by the largest magnitude first, so that no sum or square
	 * of finite values overflows (the mean of 1e308 and 1.7e308 is
	 * finite); dividing by 1 changes no bit of smaller values.
	 */
	k = fmax(fabs(s[0]), fabs(s[n - 1]));
	k = k > SUMMARY_SCALE_FROM ? k : 1.0;
	for (i = 0; i < n; i++)
		sum += x[i] / k;
	mean = sum / (double)n;
	for (i = 0; i < n; i++) {
		double d = x[i] / k - mean;

		dev += d;
		sq += d * d;
	}
	out->mean = (mean + dev / (double)n) * k;
	if (n > 1) {
		double var = (sq - dev * dev / (double)n) / (double)(n - 1);

		out->stddev = var > 0.0 ? sqrt(var) * k : 0.0;
	}
	out->cv = out->mean != 0.0 ? out->stddev / fabs(out->mean) : 0.0;

	/* MAD: median of the absolute deviations from the median. */
	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - out->median);
	qsort(s, n, sizeof(*s), util_cmp_double);
	out->mad = stats_quantile_sorted(s, n, 0.5);
	free(s);

	if (summary_ci_reason(n))
		return 0;
	ret = stats_bootstrap_median_ci(x, n, SUMMARY_BOOTSTRAP_ITERS,
					SUMMARY_BOOTSTRAP_SEED, 0.95,
					&out->ci_lo, &out->ci_hi);
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}

int stats_median_precision_pct(const double *x, size_t n, double *pct)
{
	double med, lo, hi;

	*pct = NAN;
	if (summary_ci_reason(n))
		return 0;
	med = stats_median(x, n);
	if (med == 0.0)
		return 0;
	if (stats_bootstrap_median_ci(x, n, SUMMARY_BOOTSTRAP_ITERS,
				      SUMMARY_BOOTSTRAP_SEED, 0.95, &lo, &hi))
		return -1;
	*pct = 100.0 * fmax(med - lo, hi - med) / fabs(med);
	return 0;
}
