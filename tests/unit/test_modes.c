/*
 * test_modes.c - unit tests of the bimodality detection (stats/modes.c):
 * the rule documented in modes.h on sets built to sit on either side of
 * each of its conditions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "stats/modes.h"

static void test_two_clusters(void **state)
{
	/* cross-CPU pipe style: 5 near 1.0, 5 near 1.5 (shuffled) */
	static const double x[] = { 1.52, 0.99, 1.01, 1.49, 1.00, 1.50, 1.02,
				    1.51, 0.98, 1.48 };
	struct modes m;

	(void)state;
	assert_int_equal(modes_detect(x, 10, &m), 0);
	assert_true(m.bimodal);
	assert_int_equal(m.n_lo, 5);
	assert_int_equal(m.n_hi, 5);
	assert_float_equal(m.median_lo, 1.00, 1e-12);
	assert_float_equal(m.median_hi, 1.50, 1e-12);
	assert_float_equal(m.split, (1.02 + 1.48) / 2, 1e-12);
	assert_true(m.score >= MODES_MIN_SCORE);
	/* the input is not modified */
	assert_float_equal(x[0], 1.52, 0);
}

static void test_unimodal(void **state)
{
	/* evenly spread: every gap equals the spacing, score < 4 */
	double x[20];
	struct modes m;
	int i;

	(void)state;
	for (i = 0; i < 20; i++)
		x[i] = 100.0 + i;
	assert_int_equal(modes_detect(x, 20, &m), 0);
	assert_false(m.bimodal);
	assert_true(m.score < MODES_MIN_SCORE);
	/* a normal-looking set of 10 (quantiles of N(100, 5)) */
	{
		static const double q[] = { 91.8, 94.6, 96.6, 98.2, 99.4,
					    100.6, 101.8, 103.4, 105.4,
					    108.2 };

		assert_int_equal(modes_detect(q, 10, &m), 0);
		assert_false(m.bimodal);
	}
}

static void test_small_cluster_is_not_a_mode(void **state)
{
	/* 8 near 100 and 2 outliers at 150: the high cluster has fewer
	   than max(3, 20% of 10) samples */
	static const double x[] = { 100, 101, 99, 100, 102, 98, 100, 101,
				    150, 151 };
	struct modes m;

	(void)state;
	assert_int_equal(modes_detect(x, 10, &m), 0);
	assert_false(m.bimodal);
	/* the same with 3 at 150: now a cluster */
	{
		static const double y[] = { 100, 101, 99, 100, 102, 98, 101,
					    150, 151, 149 };

		assert_int_equal(modes_detect(y, 10, &m), 0);
		assert_true(m.bimodal);
		assert_int_equal(m.n_lo, 7);
		assert_int_equal(m.n_hi, 3);
		assert_float_equal(m.median_hi, 150, 0);
	}
}

static void test_close_clusters_are_not_modes(void **state)
{
	/* well separated relative to the spread, but only 3% apart */
	static const double x[] = { 100.0, 100.1, 100.2, 100.1, 103.0, 103.1,
				    103.2, 103.1 };
	/* the same shape 20% apart */
	static const double y[] = { 100.0, 100.1, 100.2, 100.1, 120.0, 120.1,
				    120.2, 120.1 };
	struct modes m;

	(void)state;
	assert_int_equal(modes_detect(x, 8, &m), 0);
	assert_false(m.bimodal);
	assert_true(m.score >= MODES_MIN_SCORE);
	assert_int_equal(modes_detect(y, 8, &m), 0);
	assert_true(m.bimodal);
}

static void test_degenerate(void **state)
{
	static const double c[] = { 5, 5, 5, 5, 5, 5, 5 };
	static const double two[] = { 1, 1, 1, 9, 9, 9 };
	struct modes m;

	(void)state;
	/* too few samples for two clusters of 3 */
	assert_int_equal(modes_detect(c, 5, &m), 0);
	assert_false(m.bimodal);
	assert_int_equal(m.n_lo, 0);
	/* all equal: no gap */
	assert_int_equal(modes_detect(c, 7, &m), 0);
	assert_false(m.bimodal);
	/* two exact values: zero spread, infinite score */
	assert_int_equal(modes_detect(two, 6, &m), 0);
	assert_true(m.bimodal);
	assert_true(isinf(m.score));
	assert_float_equal(m.median_lo, 1, 0);
	assert_float_equal(m.median_hi, 9, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_clusters),
		cmocka_unit_test(test_unimodal),
		cmocka_unit_test(test_small_cluster_is_not_a_mode),
		cmocka_unit_test(test_close_clusters_are_not_modes),
		cmocka_unit_test(test_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
