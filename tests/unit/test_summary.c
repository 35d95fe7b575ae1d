/*
 * test_summary.c - unit tests of the descriptive statistics (summary.c).
 *
 * Expected values are computed by hand or are published reference values
 * (numpy's default quantile, the splitmix64 reference outputs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/summary.h"

#define EPS 1e-9

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const double x5[] = { 1, 2, 3, 4, 100 };

static void test_rng_reference(void **state)
{
	/* Reference outputs of splitmix64 seeded with 0. */
	uint64_t s = 0;

	(void)state;
	assert_true(stats_rng_next(&s) == 0xe220a8397b1dcdafULL);
	assert_true(stats_rng_next(&s) == 0x6e789e6aa1b965f4ULL);
	assert_true(stats_rng_next(&s) == 0x06c45d188009454fULL);
}

static void test_summary_known(void **state)
{
	struct summary s;

	(void)state;
	assert_int_equal(summary_compute(x5, 5, &s), 0);
	assert_int_equal(s.n, 5);
	assert_float_equal(s.median, 3.0, EPS);
	assert_float_equal(s.mean, 22.0, EPS);
	assert_float_equal(s.min, 1.0, EPS);
	assert_float_equal(s.max, 100.0, EPS);
	/* deviations -21 -20 -19 -18 78: sum of squares 7610, / 4 = 1902.5 */
	assert_float_equal(s.stddev, 43.617656975128774, 1e-9);
	/* |x - 3| = 2 1 0 1 97 -> median 1 */
	assert_float_equal(s.mad, 1.0, EPS);
	assert_float_equal(s.cv, 43.617656975128774 / 22.0, 1e-12);
	/* 5 samples: no CI of the median (a min..max is not one) */
	assert_true(isnan(s.ci_lo) && isnan(s.ci_hi));
	assert_string_equal(summary_ci_reason(5), "fewer than 6 samples");
}

/* From SUMMARY_MIN_CI_N samples on there is a CI, around the median. */
static void test_summary_ci_from_six(void **state)
{
	double x[] = { 1, 2, 3, 4, 5, 100 };
	struct summary s;

	(void)state;
	assert_int_equal(summary_compute(x, 6, &s), 0);
	assert_false(isnan(s.ci_lo));
	assert_true(s.ci_lo <= s.median && s.median <= s.ci_hi);
	assert_null(summary_ci_reason(6));
}

static void test_summary_unsorted_input_untouched(void **state)
{
	double x[] = { 100, 4, 1, 3, 2 };
	struct summary s;

	(void)state;
	assert_int_equal(summary_compute(x, 5, &s), 0);
	assert_float_equal(s.median, 3.0, EPS);
	assert_float_equal(s.min, 1.0, EPS);
	assert_float_equal(s.max, 100.0, EPS);
	assert_float_equal(x[0], 100.0, 0);
	assert_float_equal(x[4], 2.0, 0);
}

static void test_summary_even_and_negative_mean(void **state)
{
	double x[] = { -4, -2, -1, -1 };
	struct summary s;

	(void)state;
	assert_int_equal(summary_compute(x, 4, &s), 0);
	assert_float_equal(s.median, -1.5, EPS);
	assert_float_equal(s.mean, -2.0, EPS);
	/* deviations -2 0 1 1: sum of squares 6, / 3 = 2 */
	assert_float_equal(s.stddev, sqrt(2.0), EPS);
	/* |x + 1.5| = 2.5 0.5 0.5 0.5 -> median 0.5 */
	assert_float_equal(s.mad, 0.5, EPS);
	/* CV uses |mean|, so it is positive. */
	assert_float_equal(s.cv, sqrt(2.0) / 2.0, EPS);
}

static void test_summary_empty_and_single(void **state)
{
	struct summary s;
	double one = 7.5;

	(void)state;
	memset(&s, 0xa5, sizeof(s));
	assert_int_equal(summary_compute(NULL, 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_float_equal(s.median, 0.0, 0);
	assert_float_equal(s.mean, 0.0, 0);
	assert_float_equal(s.stddev, 0.0, 0);
	assert_float_equal(s.ci_lo, 0.0, 0);
	assert_float_equal(s.ci_hi, 0.0, 0);

	assert_int_equal(summary_compute(&one, 1, &s), 0);
	assert_int_equal(s.n, 1);
	assert_float_equal(s.median, 7.5, 0);
	assert_float_equal(s.mean, 7.5, 0);
	assert_float_equal(s.min, 7.5, 0);
	assert_float_equal(s.max, 7.5, 0);
	assert_float_equal(s.stddev, 0.0, 0);
	assert_float_equal(s.mad, 0.0, 0);
	assert_float_equal(s.cv, 0.0, 0);
	assert_float_equal(s.ci_lo, 7.5, 0);
	assert_float_equal(s.ci_hi, 7.5, 0);
}

static void test_variance_large_offset(void **state)
{
	/*
	 * 1e9 + {4, 7, 13, 16}: variance 30 exactly.  The one-pass
	 * E[x^2] - E[x]^2 formula loses every digit here.
	 */
	double x[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct summary s;

	(void)state;
	assert_int_equal(summary_compute(x, 4, &s), 0);
	assert_float_equal(s.mean, 1e9 + 10, 1e-6);
	assert_float_equal(s.stddev, sqrt(30.0), 1e-9);
}

static void test_median(void **state)
{
	double even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_float_equal(stats_median(x5, 5), 3.0, 0);
	assert_float_equal(stats_median(even, 4), 2.5, 0);
	assert_float_equal(stats_median(NULL, 0), 0.0, 0);
	assert_float_equal(even[0], 4.0, 0);
}

static void test_quantile_type7(void **state)
{
	/* numpy.quantile(x, q) with the default method="linear". */
	const double s4[] = { 1, 2, 3, 4 };

	(void)state;
	assert_float_equal(stats_quantile_sorted(x5, 5, 0.0), 1.0, EPS);
	assert_float_equal(stats_quantile_sorted(x5, 5, 0.1), 1.4, EPS);
	assert_float_equal(stats_quantile_sorted(x5, 5, 0.25), 2.0, EPS);
	assert_float_equal(stats_quantile_sorted(x5, 5, 0.5), 3.0, EPS);
	assert_float_equal(stats_quantile_sorted(x5, 5, 0.9), 61.6, EPS);
	assert_float_equal(stats_quantile_sorted(x5, 5, 1.0), 100.0, EPS);
	assert_float_equal(stats_quantile_sorted(s4, 4, 0.75), 3.25, EPS);
	assert_float_equal(stats_quantile_sorted(s4, 4, 0.5), 2.5, EPS);
	assert_float_equal(stats_quantile_sorted(s4, 4, 0.1), 1.3, EPS);
	assert_float_equal(stats_quantile_sorted(s4, 1, 0.7), 1.0, EPS);
	assert_float_equal(stats_quantile_sorted(NULL, 0, 0.5), 0.0, 0);
}

static void test_bootstrap_reproducible(void **state)
{
	double x[101], lo1, hi1, lo2, hi2;
	size_t i;

	(void)state;
	/* Scrambled 1..101: median 51. */
	for (i = 0; i < 101; i++)
		x[i] = (double)((i * 37) % 101 + 1);
	assert_int_equal(stats_bootstrap_median_ci(x, 101, 2000, 42, 0.95,
						   &lo1, &hi1), 0);
	assert_int_equal(stats_bootstrap_median_ci(x, 101, 2000, 42, 0.95,
						   &lo2, &hi2), 0);
	assert_float_equal(lo1, lo2, 0);
	assert_float_equal(hi1, hi2, 0);
	assert_true(lo1 <= 51.0 && 51.0 <= hi1);
	assert_true(lo1 < hi1);
	/*
	 * The median's standard error here is about 1.25 * 29 / sqrt(101),
	 * ~3.6, so the 95% interval is about 51 +- 7: far inside [40, 62].
	 */
	assert_true(lo1 >= 40.0);
	assert_true(hi1 <= 62.0);
}

static void test_bootstrap_two_points(void **state)
{
	/*
	 * Resample medians of {0, 1} are 0, 0.5, 1 with probabilities
	 * 1/4, 1/2, 1/4, so the 2.5% and 97.5% points are 0 and 1.
	 */
	double x[] = { 1, 0 }, lo, hi;

	(void)state;
	assert_int_equal(stats_bootstrap_median_ci(x, 2, 2000, 1, 0.95,
						   &lo, &hi), 0);
	assert_float_equal(lo, 0.0, 0);
	assert_float_equal(hi, 1.0, 0);
	/* A 40% interval holds only the middle value. */
	assert_int_equal(stats_bootstrap_median_ci(x, 2, 2000, 1, 0.40,
						   &lo, &hi), 0);
	assert_float_equal(lo, 0.5, 0);
	assert_float_equal(hi, 0.5, 0);
}

static void test_bootstrap_degenerate(void **state)
{
	double x[9], lo, hi, one = -3.0;
	size_t i;

	(void)state;
	for (i = 0; i < 9; i++)
		x[i] = 12.25;
	assert_int_equal(stats_bootstrap_median_ci(x, 9, 500, 7, 0.95,
						   &lo, &hi), 0);
	assert_float_equal(lo, 12.25, 0);
	assert_float_equal(hi, 12.25, 0);
	assert_int_equal(stats_bootstrap_median_ci(&one, 1, 500, 7, 0.95,
						   &lo, &hi), 0);
	assert_float_equal(lo, -3.0, 0);
	assert_float_equal(hi, -3.0, 0);
	assert_int_equal(stats_bootstrap_median_ci(NULL, 0, 500, 7, 0.95,
						   &lo, &hi), 0);
	assert_float_equal(lo, 0.0, 0);
	assert_float_equal(hi, 0.0, 0);
}

static void test_summary_ci_uses_fixed_seed(void **state)
{
	double x[] = { 10, 12, 11, 30, 9, 10, 11, 13, 12, 10, 50 };
	struct summary a, b;
	double lo, hi;

	(void)state;
	assert_int_equal(summary_compute(x, 11, &a), 0);
	assert_int_equal(summary_compute(x, 11, &b), 0);
	assert_float_equal(a.ci_lo, b.ci_lo, 0);
	assert_float_equal(a.ci_hi, b.ci_hi, 0);
	assert_int_equal(stats_bootstrap_median_ci(x, 11,
						   SUMMARY_BOOTSTRAP_ITERS,
						   SUMMARY_BOOTSTRAP_SEED,
						   0.95, &lo, &hi), 0);
	assert_float_equal(a.ci_lo, lo, 0);
	assert_float_equal(a.ci_hi, hi, 0);
	assert_true(a.ci_lo <= a.median && a.median <= a.ci_hi);
	assert_true(a.ci_lo >= a.min && a.ci_hi <= a.max);
	/* A resample median >= 30 needs 6 of 11 draws from {30, 50}: p < 1%. */
	assert_true(a.ci_hi < 30.0);
}

/* --precision's measure: the printed CI's wider half, % of the median */
/*
 * The bootstrap's cost is bounded (#25 item 8): the resamples are as
 * asked up to 2000 x 20000 draws, then capped by n, never below 200.
 */
static void test_bootstrap_iters_bounded(void **state)
{
	size_t n;

	(void)state;
	assert_int_equal(stats_bootstrap_iters(10, 2000), 2000);
	assert_int_equal(stats_bootstrap_iters(20000, 2000), 2000);
	assert_int_equal(stats_bootstrap_iters(40000, 2000), 1000);
	assert_int_equal(stats_bootstrap_iters(100000, 2000), 400);
	assert_int_equal(stats_bootstrap_iters(1000000, 2000), 200);
	assert_int_equal(stats_bootstrap_iters(5000000, 2000), 200);
	assert_int_equal(stats_bootstrap_iters(100000, 100), 100);
	for (n = 1; n <= 1000000; n *= 3)
		assert_true((unsigned long long)stats_bootstrap_iters(n, 2000) *
			    n <= STATS_BOOTSTRAP_MAX_DRAWS ||
			    stats_bootstrap_iters(n, 2000) ==
			    STATS_BOOTSTRAP_MIN_ITERS);
}

/*
 * Capped resamples give nearly the CI of all 2000: on 100,000 values
 * (400 resamples) each end is within 15% of the CI's width of the end
 * 2000 resamples give, and both CIs hold the true median.
 */
static void test_bootstrap_capped_close(void **state)
{
	size_t n = 100000, i, *cnt = malloc(n * sizeof(*cnt));
	double *x = malloc(n * sizeof(*x)), *s = malloc(n * sizeof(*s));
	double meds[2000], lo, hi, flo, fhi, w;
	uint64_t rng = 42, st = SUMMARY_BOOTSTRAP_SEED;

	(void)state;
	assert_non_null(x);
	assert_non_null(s);
	assert_non_null(cnt);
	for (i = 0; i < n; i++) {
		/* exponential around 1000: a skewed, time-like sample */
		double u = (double)(stats_rng_next(&rng) >> 11) / 9007199254740992.0;

		x[i] = 1000.0 - 100.0 * log1p(-u);
		s[i] = x[i];
	}
	assert_int_equal(stats_bootstrap_median_ci(x, n, 2000,
						   SUMMARY_BOOTSTRAP_SEED,
						   0.95, &lo, &hi), 0);
	qsort(s, n, sizeof(*s), cmp_d);
	for (i = 0; i < 2000; i++)
		meds[i] = stats_resample_median(s, n, cnt, &st);
	qsort(meds, 2000, sizeof(*meds), cmp_d);
	flo = stats_quantile_sorted(meds, 2000, 0.025);
	fhi = stats_quantile_sorted(meds, 2000, 0.975);
	w = fhi - flo;
	assert_true(w > 0);
	assert_true(fabs(lo - flo) < 0.15 * w);
	assert_true(fabs(hi - fhi) < 0.15 * w);
	/* the true median of 1000 + Exp(100) is 1000 + 100 ln 2 */
	assert_true(lo < 1000 + 100 * M_LN2 && hi > 1000 + 100 * M_LN2);
	free(x);
	free(s);
	free(cnt);
}

/* Any finite values: 1e308 and 1.7e308 have a finite mean and CV. */
static void test_summary_huge_finite(void **state)
{
	static const double h[] = { 1e308, 1.7e308, 1.6e308 };
	struct summary sm;

	(void)state;
	assert_int_equal(summary_compute(h, 3, &sm), 0);
	assert_true(isfinite(sm.mean) && isfinite(sm.stddev) &&
		    isfinite(sm.cv));
	assert_true(fabs(sm.mean / 1.4333333333333333e308 - 1) < 1e-12);
	assert_true(fabs(sm.stddev / 3.7859388972001824e307 - 1) < 1e-9);
	assert_true(sm.cv > 0.26 && sm.cv < 0.27);
}

static void test_median_precision(void **state)
{
	double x[40], flat[5] = { 7, 7, 7, 7, 7 }, zero[3] = { -1, 0, 1 };
	struct summary s;
	double pct;
	size_t i;

	(void)state;
	for (i = 0; i < 40; i++)
		x[i] = 100.0 + (double)((i * 7) % 13);
	assert_int_equal(summary_compute(x, 40, &s), 0);
	assert_int_equal(stats_median_precision_pct(x, 40, &pct), 0);
	assert_true(pct > 0);
	assert_float_equal(pct, 100.0 * fmax(s.median - s.ci_lo,
					      s.ci_hi - s.median) / s.median,
			    1e-12);
	/* more of the same spread: a narrower CI */
	{
		double y[400], pct400;

		for (i = 0; i < 400; i++)
			y[i] = x[i % 40];
		assert_int_equal(stats_median_precision_pct(y, 400, &pct400),
				 0);
		assert_true(pct400 < pct);
	}
	assert_int_equal(stats_median_precision_pct(flat, 5, &pct), 0);
	assert_float_equal(pct, 0.0, 0.0);
	/* a median of 0 has no relative precision */
	assert_int_equal(stats_median_precision_pct(zero, 3, &pct), 0);
	assert_true(isnan(pct));
	assert_int_equal(stats_median_precision_pct(x, 0, &pct), 0);
	assert_true(isnan(pct));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_reference),
		cmocka_unit_test(test_summary_known),
		cmocka_unit_test(test_summary_ci_from_six),
		cmocka_unit_test(test_summary_unsorted_input_untouched),
		cmocka_unit_test(test_summary_even_and_negative_mean),
		cmocka_unit_test(test_summary_empty_and_single),
		cmocka_unit_test(test_variance_large_offset),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantile_type7),
		cmocka_unit_test(test_bootstrap_reproducible),
		cmocka_unit_test(test_bootstrap_two_points),
		cmocka_unit_test(test_bootstrap_degenerate),
		cmocka_unit_test(test_summary_ci_uses_fixed_seed),
		cmocka_unit_test(test_median_precision),
		cmocka_unit_test(test_bootstrap_iters_bounded),
		cmocka_unit_test(test_bootstrap_capped_close),
		cmocka_unit_test(test_summary_huge_finite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
