/*
 * test_compare.c - unit tests of the comparison statistics
 * (stats/mannwhitney.c): Mann-Whitney U exact and normal approximation with
 * ties, the bootstrap CI of the %change, verdicts with directions.
 *
 * Reference values: R's own outputs where published (the wilcox.test help
 * page's x/y example: W = 35, one-sided p = 0.1272; the airquality
 * Ozone May vs August example: W = 127.5, p-value = 0.0001208), and for
 * the rest a brute-force enumeration of all rank assignments (exact) or
 * R's formulas evaluated independently in Python (normal approximation).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "stats/mannwhitney.h"

static void test_mw_cdf_small(void **state)
{
	(void)state;
	/* m = n = 2: U = 0..4 with counts 1 1 2 1 1 out of C(4,2) = 6 */
	assert_float_equal(stats_mw_cdf(0, 2, 2), 1.0 / 6, 1e-15);
	assert_float_equal(stats_mw_cdf(1, 2, 2), 2.0 / 6, 1e-15);
	assert_float_equal(stats_mw_cdf(2, 2, 2), 4.0 / 6, 1e-15);
	assert_float_equal(stats_mw_cdf(3, 2, 2), 5.0 / 6, 1e-15);
	assert_float_equal(stats_mw_cdf(4, 2, 2), 1.0, 0);
	assert_float_equal(stats_mw_cdf(-1, 2, 2), 0.0, 0);
	/* m = 1: U uniform on 0..n */
	assert_float_equal(stats_mw_cdf(2, 1, 4), 3.0 / 5, 1e-15);
	/* bad sizes */
	assert_true(stats_mw_cdf(0, 0, 3) < 0);
	assert_true(stats_mw_cdf(0, MW_EXACT_MAX_N, 3) < 0);
}

static void test_mw_cdf_symmetric_large(void **state)
{
	long u;

	(void)state;
	/* P(U <= u) + P(U <= mn - u - 1) = 1 at the largest exact size,
	   where the counts need 128-bit integers */
	for (u = 0; u < 49L * 49; u += 97)
		assert_float_equal(stats_mw_cdf(u, 49, 49) +
				   stats_mw_cdf(49L * 49 - u - 1, 49, 49),
				   1.0, 1e-12);
	/* the extreme tail: 1 / C(98, 49) */
	assert_float_equal(stats_mw_cdf(0, 49, 49) * 2.5477612258980856e28,
			   1.0, 1e-9);
}

static void test_mw_exact_r_example(void **state)
{
	/* ?wilcox.test: W = 35, p-value = 0.1272 (alternative "greater") */
	static const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91,
				    1.64, 0.73, 1.46 };
	static const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct mw_result r;

	(void)state;
	assert_int_equal(stats_mann_whitney(x, 10, y, 5, &r), 0);
	assert_true(r.exact);
	assert_false(r.ties);
	assert_float_equal(r.u, 35.0, 0);
	/* two-sided: 2 * 0.12720... (brute force: 0.2544122544) */
	assert_float_equal(r.p, 0.2544122544122544, 1e-12);
	/* swapping the sides: U' = mn - U, same two-sided p */
	assert_int_equal(stats_mann_whitney(y, 5, x, 10, &r), 0);
	assert_float_equal(r.u, 15.0, 0);
	assert_float_equal(r.p, 0.2544122544122544, 1e-12);
}

static void test_mw_exact_separated(void **state)
{
	static const double a[] = { 1, 2, 3, 4, 5 };
	static const double b[] = { 6, 7, 8, 9, 10 };
	static const double c[] = { 3.1, 4.7, 1.2, 9.9, 5.5, 2.2 };
	static const double d[] = { 6.6, 7.1, 8.8, 4.0, 10.5, 12.0, 9.1 };
	struct mw_result r;

	(void)state;
	/* completely separated 5 vs 5: p = 2 / C(10,5) = 2 / 252 */
	assert_int_equal(stats_mann_whitney(a, 5, b, 5, &r), 0);
	assert_true(r.exact);
	assert_float_equal(r.u, 0.0, 0);
	assert_float_equal(r.p, 2.0 / 252.0, 1e-15);
	assert_int_equal(stats_mann_whitney(b, 5, a, 5, &r), 0);
	assert_float_equal(r.u, 25.0, 0);
	assert_float_equal(r.p, 2.0 / 252.0, 1e-15);
	/* 6 vs 7, brute force: U = 7, p = 0.05128205128 */
	assert_int_equal(stats_mann_whitney(c, 6, d, 7, &r), 0);
	assert_float_equal(r.u, 7.0, 0);
	assert_float_equal(r.p, 0.05128205128205128, 1e-12);
	/* identical single values: no evidence */
	assert_int_equal(stats_mann_whitney(a, 1, a, 1, &r), 0);
	assert_float_equal(r.p, 1.0, 0);
}

static void test_mw_normal_ties_airquality(void **state)
{
	/* R: wilcox.test(Ozone ~ Month, data = airquality,
	   subset = Month %in% c(5, 8)): W = 127.5, p-value = 0.0001208 */
	static const double may[] = { 41, 36, 12, 18, 28, 23, 19, 8, 7, 16,
				      11, 14, 18, 14, 34, 6, 30, 11, 1, 11,
				      4, 32, 23, 45, 115, 37 };
	static const double aug[] = { 39, 9, 16, 78, 35, 66, 122, 89, 110, 44,
				      28, 65, 22, 59, 23, 31, 44, 21, 9, 45,
				      168, 73, 76, 118, 84, 85 };
	struct mw_result r;

	(void)state;
	assert_int_equal(stats_mann_whitney(may, 26, aug, 26, &r), 0);
	assert_false(r.exact);
	assert_true(r.ties);
	assert_float_equal(r.u, 127.5, 0);
	assert_float_equal(r.p, 0.00012080783076877465, 1e-12);
	assert_float_equal(r.z, -3.8444810272800702, 1e-9);
}

static void test_mw_normal_small_ties_and_large(void **state)
{
	static const double x[] = { 1, 2, 2, 3, 4, 5 };
	static const double y[] = { 3, 3, 4, 5, 6, 7, 7 };
	double a[50], b[50];
	struct mw_result r;
	int i;

	(void)state;
	/* ties force the normal approximation even for small sides */
	assert_int_equal(stats_mann_whitney(x, 6, y, 7, &r), 0);
	assert_false(r.exact);
	assert_float_equal(r.u, 7.0, 0);
	assert_float_equal(r.p, 0.051161772525022936, 1e-12);
	/* 50 per side: normal approximation (1..50 against 26..75) */
	for (i = 0; i < 50; i++) {
		a[i] = i + 1;
		b[i] = i + 26;
	}
	assert_int_equal(stats_mann_whitney(a, 50, b, 50, &r), 0);
	assert_false(r.exact);
	assert_float_equal(r.u, 312.5, 0);
	assert_float_equal(r.p, 1.0470727831975728e-10, 1e-18);
	/* all equal: p = 1 */
	for (i = 0; i < 50; i++)
		a[i] = b[i] = 7;
	assert_int_equal(stats_mann_whitney(a, 50, b, 50, &r), 0);
	assert_float_equal(r.p, 1.0, 0);
	assert_int_equal(stats_mann_whitney(a, 0, b, 5, &r), -1);
}

static void test_norm_cdf(void **state)
{
	(void)state;
	assert_float_equal(stats_norm_cdf(0), 0.5, 1e-15);
	assert_float_equal(stats_norm_cdf(1.959963984540054), 0.975, 1e-12);
	assert_float_equal(stats_norm_cdf(-3), 0.0013498980316301, 1e-14);
}

static void test_change_ci(void **state)
{
	static const double base[] = { 100, 101, 99, 100, 102, 98, 100, 101,
				       99, 100 };
	double nw[10], lo, hi, lo2, hi2;
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		nw[i] = base[i] * 1.10;
	assert_int_equal(stats_change_ci(base, 10, nw, 10, 2000, 42, 0.95,
					 &lo, &hi), 0);
	/* +10% exactly at the medians; the CI straddles it, well above 0 */
	assert_true(lo <= 10.0 + 1e-9 && hi >= 10.0 - 1e-9);
	assert_true(lo > 5.0 && hi < 15.0);
	/* reproducible with the same seed */
	assert_int_equal(stats_change_ci(base, 10, nw, 10, 2000, 42, 0.95,
					 &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	/* constant sides: a degenerate interval at the exact change */
	{
		static const double c1[] = { 200, 200, 200 };
		static const double c2[] = { 150, 150, 150, 150 };

		assert_int_equal(stats_change_ci(c1, 3, c2, 4, 500, 1, 0.95,
						 &lo, &hi), 0);
		assert_float_equal(lo, -25.0, 1e-12);
		assert_float_equal(hi, -25.0, 1e-12);
	}
	/* A/A: the same samples on both sides: the CI contains 0 */
	assert_int_equal(stats_change_ci(base, 10, base, 10, 2000, 7, 0.95,
					 &lo, &hi), 0);
	assert_true(lo <= 0.0 && hi >= 0.0);
	/* a zero base median: no ratio */
	{
		static const double z[] = { 0, 0, 0 };

		assert_int_equal(stats_change_ci(z, 3, base, 10, 100, 1, 0.95,
						 &lo, &hi), 0);
		assert_true(isnan(lo) && isnan(hi));
	}
	assert_int_equal(stats_change_ci(base, 0, nw, 10, 100, 1, 0.95, &lo,
					 &hi), -1);
}

static void test_verdicts(void **state)
{
	(void)state;
	/* higher is better (bandwidth): +10% significant -> better */
	assert_int_equal(stats_verdict(1, 10, 0.01, 5, 15, 0.05, 1),
			 VERDICT_BETTER);
	/* lower is better (time): +10% -> worse */
	assert_int_equal(stats_verdict(-1, 10, 0.01, 5, 15, 0.05, 1),
			 VERDICT_WORSE);
	assert_int_equal(stats_verdict(-1, -10, 0.01, -15, -5, 0.05, 1),
			 VERDICT_BETTER);
	assert_int_equal(stats_verdict(1, -10, 0.01, -15, -5, 0.05, 1),
			 VERDICT_WORSE);
	/* not significant by p, or a CI reaching into the noise band */
	assert_int_equal(stats_verdict(-1, 10, 0.2, 5, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_int_equal(stats_verdict(-1, 10, 0.01, -1, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_int_equal(stats_verdict(-1, 10, 0.01, 0.5, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_int_equal(stats_verdict(-1, 10, 0.01, 0.5, 15, 0.05, 0),
			 VERDICT_WORSE);
	assert_int_equal(stats_verdict(-1, 10, 0.01, 5, 15, 0.05, 6),
			 VERDICT_SAME);
	/* informational metrics never get a verdict */
	assert_int_equal(stats_verdict(0, 50, 0.0001, 40, 60, 0.05, 1),
			 VERDICT_INFO);
	/* NAN anywhere: no verdict */
	assert_int_equal(stats_verdict(1, NAN, 0.01, 5, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_int_equal(stats_verdict(1, 10, NAN, 5, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_int_equal(stats_verdict(1, 10, 0.01, NAN, 15, 0.05, 1),
			 VERDICT_SAME);
	assert_string_equal(stats_verdict_name(VERDICT_WORSE), "worse");
	assert_string_equal(stats_verdict_name(VERDICT_BETTER), "better");
	assert_string_equal(stats_verdict_name(VERDICT_SAME), "~");
	assert_string_equal(stats_verdict_name(VERDICT_INFO), "");
}

static void test_change_ci_runs(void **state)
{
	/* 4 runs per side, each of 5 samples, whose run medians differ by
	   several % (run-to-run variation) while each run is tight */
	static const double run_off[4] = { 0, 6, -5, 3 };
	double b[20], n[20], lo, hi, slo, shi, lo2, hi2;
	size_t start[4], len[4];
	int r, k;

	(void)state;
	for (r = 0; r < 4; r++) {
		start[r] = (size_t)r * 5;
		len[r] = 5;
		for (k = 0; k < 5; k++) {
			b[r * 5 + k] = 100 + run_off[r] + 0.1 * k;
			n[r * 5 + k] = 100 + run_off[(r + 1) % 4] + 0.1 * k;
		}
	}
	assert_int_equal(stats_change_ci_runs(b, start, len, 4, n, start, len,
					      4, 2000, 3, 0.95, &lo, &hi), 0);
	/* reproducible */
	assert_int_equal(stats_change_ci_runs(b, start, len, 4, n, start, len,
					      4, 2000, 3, 0.95, &lo2, &hi2),
			 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	/* the same runs in another order: the CI over runs spans 0 and is
	   wider than the one over pooled samples */
	assert_true(lo < 0 && hi > 0);
	assert_int_equal(stats_change_ci(b, 20, n, 20, 2000, 3, 0.95, &slo,
					 &shi), 0);
	assert_true(hi - lo >= shi - slo);
	/* a clean +10% on every run: the CI sits around +10% */
	for (k = 0; k < 20; k++)
		n[k] = b[k] * 1.10;
	assert_int_equal(stats_change_ci_runs(b, start, len, 4, n, start, len,
					      4, 2000, 3, 0.95, &lo, &hi), 0);
	assert_true(lo > 0 && lo <= 10.0 + 1e-9 && hi >= 10.0 - 1e-9);
	len[0] = len[1] = len[2] = len[3] = 0;
	assert_int_equal(stats_change_ci_runs(b, start, len, 4, n, start, len,
					      4, 100, 3, 0.95, &lo, &hi), -1);
}

/* End to end: a clear slowdown of lower-is-better samples is "worse". */
static void test_pipeline_detects_shift(void **state)
{
	static const double base[] = { 120, 121, 119, 122, 120, 118, 121, 120,
				       119, 123 };
	double nw[10], lo, hi, chg;
	struct mw_result r;
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		nw[i] = base[i] + 12;	/* +10% of the cost */
	assert_int_equal(stats_mann_whitney(base, 10, nw, 10, &r), 0);
	assert_false(r.exact);		/* ties within the base */
	assert_true(r.p < 0.001);
	assert_int_equal(stats_change_ci(base, 10, nw, 10,
					 COMPARE_BOOTSTRAP_ITERS,
					 COMPARE_BOOTSTRAP_SEED, 0.95, &lo,
					 &hi), 0);
	chg = 100.0 * (132.0 / 120.0 - 1.0);
	assert_int_equal(stats_verdict(-1, chg, r.p, lo, hi, 0.05, 1),
			 VERDICT_WORSE);
	assert_int_equal(stats_verdict(1, chg, r.p, lo, hi, 0.05, 1),
			 VERDICT_BETTER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mw_cdf_small),
		cmocka_unit_test(test_mw_cdf_symmetric_large),
		cmocka_unit_test(test_mw_exact_r_example),
		cmocka_unit_test(test_mw_exact_separated),
		cmocka_unit_test(test_mw_normal_ties_airquality),
		cmocka_unit_test(test_mw_normal_small_ties_and_large),
		cmocka_unit_test(test_norm_cdf),
		cmocka_unit_test(test_change_ci),
		cmocka_unit_test(test_change_ci_runs),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_pipeline_detects_shift),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
