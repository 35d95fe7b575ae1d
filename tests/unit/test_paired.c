/*
 * test_paired.c - the paired statistics (stats/paired.h) against R 4.2's
 * wilcox.test(..., conf.int = TRUE): the exact signed-rank p-value, the
 * Hodges-Lehmann estimate and its exact interval on small vectors, the
 * normal approximation on 60 values, the exact null distribution, and the
 * smallest p a number of rounds can reach.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/paired.h"

/*
 * R: x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
 *    y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
 *    wilcox.test(x, y, paired = TRUE, exact = TRUE, conf.int = TRUE)
 * V = 40, p = 0.0390625, (pseudo)median 0.46, 95% CI 0.01 .. 0.786.
 */
static void test_r_paired_example(void **state)
{
	const double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06,
			     1.30 };
	const double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06,
			     3.14, 1.29 };
	double d[9];
	struct paired_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	assert_int_equal(paired_signed_rank(d, 9, 0.95, &r), 0);
	assert_true(r.exact);
	assert_true(fabs(r.v - 40) < 1e-12);
	assert_true(fabs(r.p - 0.0390625) < 1e-12);
	assert_true(fabs(r.hl - 0.46) < 1e-9);
	assert_true(fabs(r.ci_lo - 0.01) < 1e-9);
	assert_true(fabs(r.ci_hi - 0.786) < 1e-9);
}

/*
 * R: d <- c(0.12, -0.05, 0.31, 0.07, 0.22, 0.18, -0.02, 0.09, 0.15, 0.11,
 *           0.04, 0.26); wilcox.test(d, exact = TRUE, conf.int = TRUE)
 * V = 74, p = 0.00341796875, estimate 0.12, CI 0.05 .. 0.2.
 */
static void test_r_one_sample(void **state)
{
	const double d[] = { 0.12, -0.05, 0.31, 0.07, 0.22, 0.18, -0.02,
			     0.09, 0.15, 0.11, 0.04, 0.26 };
	struct paired_result r;

	(void)state;
	assert_int_equal(paired_signed_rank(d, 12, 0.95, &r), 0);
	assert_true(r.exact);
	assert_true(fabs(r.v - 74) < 1e-12);
	assert_true(fabs(r.p - 0.00341796875) < 1e-12);
	assert_true(fabs(r.hl - 0.12) < 1e-9);
	assert_true(fabs(r.ci_lo - 0.05) < 1e-9);
	assert_true(fabs(r.ci_hi - 0.2) < 1e-9);
	/* the same differences negated: the same p, the estimate mirrored */
	{
		double m[12];
		size_t i;

		for (i = 0; i < 12; i++)
			m[i] = -d[i];
		assert_int_equal(paired_signed_rank(m, 12, 0.95, &r), 0);
		assert_true(fabs(r.p - 0.00341796875) < 1e-12);
		assert_true(fabs(r.hl + 0.12) < 1e-9);
		assert_true(fabs(r.ci_lo + 0.2) < 1e-9);
		assert_true(fabs(r.ci_hi + 0.05) < 1e-9);
	}
}

/*
 * R: set.seed(1); e <- round(rnorm(60, 0.02, 0.05), 4)
 *    wilcox.test(e, exact = FALSE, correct = TRUE, conf.int = TRUE)
 * V = 1481, p = 3.140731416e-05, estimate 0.02709423465 (R's asymptotic
 * estimate solves for it; the median of the Walsh averages is within
 * 1e-4), CI 0.01533 .. 0.03795 (R's uniroot; ours is the order
 * statistic of the normal quantile, within 1e-3).
 */
static void test_r_normal_approximation(void **state)
{
	const double e[] = {
		-0.0113, 0.0292, -0.0218, 0.0998, 0.0365, -0.021, 0.0444,
		0.0569, 0.0488, 0.0047, 0.0956, 0.0395, -0.0111, -0.0907,
		0.0762, 0.0178, 0.0192, 0.0672, 0.0611, 0.0497, 0.0659,
		0.0591, 0.0237, -0.0795, 0.051, 0.0172, 0.0122, -0.0535,
		-0.0039, 0.0409, 0.0879, 0.0149, 0.0394, 0.0173, -0.0489,
		-0.0007, 0.0003, 0.017, 0.075, 0.0582, 0.0118, 0.0073, 0.0548,
		0.0478, -0.0144, -0.0154, 0.0382, 0.0584, 0.0144, 0.0641,
		0.0399, -0.0106, 0.0371, -0.0365, 0.0917, 0.119, 0.0016,
		-0.0322, 0.0485, 0.0132 };
	struct paired_result r;

	(void)state;
	assert_int_equal(paired_signed_rank(e, 60, 0.95, &r), 0);
	assert_false(r.exact);
	assert_true(fabs(r.v - 1481) < 1e-9);
	assert_true(fabs(r.p - 3.140731416e-05) / 3.140731416e-05 < 1e-6);
	assert_true(fabs(r.hl - 0.02709423465) < 1e-4);
	assert_true(fabs(r.ci_lo - 0.01533435814) < 1e-3);
	assert_true(fabs(r.ci_hi - 0.03794750545) < 1e-3);
}

/* R: psignrank(10, 9) = 0.08203125; qsignrank(0.025, 12) = 14. */
static void test_distribution(void **state)
{
	(void)state;
	assert_true(fabs(paired_signrank_cdf(10, 9) - 0.08203125) < 1e-12);
	assert_true(fabs(paired_signrank_cdf(45, 9) - 1) < 1e-12);
	assert_true(paired_signrank_cdf(-1, 9) == 0);
	/* P(V <= 13) < 0.025 <= P(V <= 14) for n = 12 */
	assert_true(paired_signrank_cdf(13, 12) < 0.025);
	assert_true(paired_signrank_cdf(14, 12) >= 0.025);
	assert_true(isnan(paired_signrank_cdf(3, 0)));
}

/* Five rounds can never give p < 0.05 (2/32 = 0.0625); six can. */
static void test_min_p(void **state)
{
	const double five[] = { 0.1, 0.2, 0.3, 0.4, 0.5 };
	struct paired_result r;

	(void)state;
	assert_true(fabs(paired_min_p(5) - 0.0625) < 1e-12);
	assert_true(fabs(paired_min_p(6) - 0.03125) < 1e-12);
	assert_int_equal(paired_min_n(0.05), 6);
	assert_int_equal(paired_min_n(0.01), 8);
	assert_int_equal(paired_signed_rank(five, 5, 0.95, &r), 0);
	assert_true(fabs(r.p - 0.0625) < 1e-12);
	assert_true(r.min_p >= 0.05);
}

static void test_bad_input(void **state)
{
	const double d[] = { 0.1, NAN };
	const double zeros[] = { 0, 0, 0 };
	struct paired_result r;

	(void)state;
	assert_int_equal(paired_signed_rank(d, 0, 0.95, &r), -1);
	assert_int_equal(paired_signed_rank(d, 2, 0.95, &r), -1);
	assert_int_equal(paired_signed_rank(d, 1, 1.5, &r), -1);
	assert_int_equal(paired_signed_rank(zeros, 3, 0.95, &r), 0);
	assert_true(r.p == 1 && r.hl == 0 && r.n_nonzero == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_r_paired_example),
		cmocka_unit_test(test_r_one_sample),
		cmocka_unit_test(test_r_normal_approximation),
		cmocka_unit_test(test_distribution),
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
