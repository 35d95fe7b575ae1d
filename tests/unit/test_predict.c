/*
 * test_predict.c - the prediction interval for one new run
 * (stats/predict.h) against values worked out by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/predict.h"

/*
 * Log medians 1, 2, 3 (x = e, e^2, e^3): mean 2, s = 1, n = 3.  With
 * 2 degrees of freedom Student's t has closed forms: the quantile q is
 * (2q - 1) * sqrt(2 / (4 q (1 - q))), so t(0.975, 2) = 0.95 *
 * sqrt(2 / 0.0975) = 4.302653; and P(T > t) = 1/2 - t / (2 sqrt(t^2 + 2)).
 * sqrt(1 + 1/3) = 1.154701, so the half width is 4.968275: the interval
 * is exp(2 -+ 4.968275) = [0.051392, 1062.389].  A new value e^4: t =
 * 2 / 1.154701 = sqrt(3), P(T > sqrt(3)) = 1/2 - sqrt(3) / (2 sqrt(5)) =
 * 0.112702, p = 0.225403; its change from e^2 is e^2 - 1 = 638.9056%.
 */
static void test_known_interval(void **state)
{
	const double x[] = { M_E, M_E * M_E, M_E * M_E * M_E };
	struct pred_interval pi;

	(void)state;
	assert_int_equal(stats_predict_log(x, 3, exp(4), 0.05, &pi), 0);
	assert_int_equal(pi.n, 3);
	assert_true(fabs(pi.mean_log - 2) < 1e-12);
	assert_true(fabs(pi.sd_log - 1) < 1e-12);
	assert_true(fabs(pi.t_crit - 4.302653) < 1e-6);
	assert_true(fabs(log(pi.lo) - (2 - 4.968275)) < 1e-6);
	assert_true(fabs(log(pi.hi) - (2 + 4.968275)) < 1e-6);
	assert_true(fabs(pi.t - sqrt(3)) < 1e-12);
	assert_true(fabs(pi.p - 0.225403) < 1e-6);
	assert_true(fabs(pi.change_pct - 638.9056) < 1e-4);
	assert_true(fabs(pi.center - M_E * M_E) < 1e-12);
}

/* A value far outside: a small p; below the mean: a negative t. */
static void test_outside_and_below(void **state)
{
	const double x[] = { 100, 101, 99, 100.5, 99.5, 100 };
	struct pred_interval pi;

	(void)state;
	assert_int_equal(stats_predict_log(x, 6, 110, 0.05, &pi), 0);
	assert_true(pi.hi < 110 && pi.p < 0.001 && pi.t > 0);
	assert_int_equal(stats_predict_log(x, 6, 100.2, 0.05, &pi), 0);
	assert_true(pi.lo < 100.2 && 100.2 < pi.hi && pi.p > 0.5);
	assert_int_equal(stats_predict_log(x, 6, 90, 0.05, &pi), 0);
	assert_true(pi.t < 0 && pi.lo > 90 && pi.change_pct < -9);
}

/* No spread: the interval is the value; bad input is refused. */
static void test_edges(void **state)
{
	const double same[] = { 5, 5, 5 };
	const double bad[] = { 5, 0, 5 };
	struct pred_interval pi;

	(void)state;
	assert_int_equal(stats_predict_log(same, 3, 5, 0.05, &pi), 0);
	assert_true(pi.p == 1 && fabs(pi.lo - 5) < 1e-12);
	assert_int_equal(stats_predict_log(same, 3, 6, 0.05, &pi), 0);
	assert_true(pi.p == 0);
	assert_int_equal(stats_predict_log(same, 1, 5, 0.05, &pi), -1);
	assert_int_equal(stats_predict_log(bad, 3, 5, 0.05, &pi), -1);
	assert_int_equal(stats_predict_log(same, 3, -1, 0.05, &pi), -1);
	assert_int_equal(stats_predict_log(same, 3, 5, 1.5, &pi), -1);
}

/*
 * The mean of k = 2 new runs, log medians 3 and 5 (mean 4), against the
 * same 1, 2, 3: the scale is sqrt(1/2 + 1/3) = 0.912871, so the half
 * width is 4.302653 * 0.912871 = 3.927767, t = 2 / 0.912871 = 2.190890,
 * P(T > t) = 1/2 - t / (2 sqrt(t^2 + 2)) = 1/2 - 2.190890 / (2 *
 * 2.607681) = 0.079916, p = 0.159832.  k = 1 gives stats_predict_log().
 */
static void test_mean_of_new_runs(void **state)
{
	const double x[] = { M_E, M_E * M_E, M_E * M_E * M_E };
	const double v[] = { exp(3), exp(5) }, one[] = { exp(4) };
	struct pred_interval pi, p1;

	(void)state;
	assert_int_equal(stats_predict_log_mean(x, 3, v, 2, 0.05, &pi), 0);
	assert_true(fabs(log(pi.hi) - (2 + 3.927767)) < 1e-6);
	assert_true(fabs(pi.t - 2.190890) < 1e-6);
	assert_true(fabs(pi.p - 0.159832) < 1e-6);
	assert_true(fabs(pi.change_pct - 638.9056) < 1e-4);
	assert_int_equal(stats_predict_log_mean(x, 3, one, 1, 0.05, &pi), 0);
	assert_int_equal(stats_predict_log(x, 3, exp(4), 0.05, &p1), 0);
	assert_true(pi.p == p1.p && pi.hi == p1.hi && pi.t == p1.t);
	assert_int_equal(stats_predict_log_mean(x, 3, v, 0, 0.05, &pi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_interval),
		cmocka_unit_test(test_mean_of_new_runs),
		cmocka_unit_test(test_outside_and_below),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
