/*
 * test_fit.c - unit tests of the least-squares line fit (stats/fit.c).
 *
 * Expected values are exact lines, a textbook example worked by hand,
 * and synthetic per-call costs with a known fixed and per-segment part.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <cmocka.h>

#include "stats/fit.h"

#define EPS 1e-9

/*
 * cmocka's assert_float_equal() compares in single precision; these
 * checks need doubles.
 */
static void near(double got, double want, double eps, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: got %.17g, want %.17g (+- %g)", line, got,
			 want, eps);
}

#define assert_near(got, want, eps) near((got), (want), (eps), __LINE__)

static void test_fit_exact_line(void **state)
{
	double x[] = { 1, 2, 4, 8, 16 }, y[5];
	struct fit_line f;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		y[i] = 3.0 + 2.0 * x[i];
	assert_int_equal(fit_linear(x, y, NULL, 5, &f), 0);
	assert_near(f.a, 3.0, EPS);
	assert_near(f.b, 2.0, EPS);
	assert_near(f.r2, 1.0, EPS);
	assert_near(f.se_a, 0.0, 1e-7);
	assert_near(f.se_b, 0.0, 1e-7);
	assert_int_equal(f.n, 5);
}

static void test_fit_textbook(void **state)
{
	/*
	 * x 1..5, y 2 4 5 4 5: xm 3, ym 4, Sxx 10, Sxy 6, so b = 0.6 and
	 * a = 4 - 0.6 * 3 = 2.2.  Residuals -0.8 0.6 1.0 -0.6 -0.2: SSres
	 * 2.4; SStot 4+0+1+0+1 = 6; R^2 = 1 - 2.4/6 = 0.6.  s^2 = 2.4/3 =
	 * 0.8; se(b) = sqrt(0.8/10); se(a) = sqrt(0.8 (1/5 + 9/10)).
	 */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
	struct fit_line f;

	(void)state;
	assert_int_equal(fit_linear(x, y, NULL, 5, &f), 0);
	assert_near(f.b, 0.6, EPS);
	assert_near(f.a, 2.2, EPS);
	assert_near(f.r2, 0.6, EPS);
	assert_near(f.se_b, sqrt(0.08), EPS);
	assert_near(f.se_a, sqrt(0.88), EPS);
}

static void test_fit_negative_slope_and_order(void **state)
{
	/* The same points in any order give the same line. */
	double x[] = { 5, 1, 4, 2, 3 }, y[] = { 0, 8, 2, 6, 4 };
	struct fit_line f;

	(void)state;
	assert_int_equal(fit_linear(x, y, NULL, 5, &f), 0);
	assert_near(f.a, 10.0, EPS);
	assert_near(f.b, -2.0, EPS);
	assert_near(f.r2, 1.0, EPS);
}

static void test_fit_weights_replicate(void **state)
{
	/* An integer weight k is the same as the point taken k times. */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
	double w[] = { 1, 3, 1, 2, 1 };
	double xr[] = { 1, 2, 2, 2, 3, 4, 4, 5 };
	double yr[] = { 2, 4, 4, 4, 5, 4, 4, 5 };
	struct fit_line fw, fr;

	(void)state;
	assert_int_equal(fit_linear(x, y, w, 5, &fw), 0);
	assert_int_equal(fit_linear(xr, yr, NULL, 8, &fr), 0);
	assert_near(fw.a, fr.a, EPS);
	assert_near(fw.b, fr.b, EPS);
	assert_near(fw.r2, fr.r2, EPS);
	/* and differs from the unweighted fit of the five points */
	{
		struct fit_line fu;

		assert_int_equal(fit_linear(x, y, NULL, 5, &fu), 0);
		assert_true(fabs(fu.b - fw.b) > 0.01);
	}
}

static void test_fit_weights_scale_free(void **state)
{
	/* Multiplying every weight by a constant changes nothing. */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
	double w1[] = { 1, 3, 1, 2, 1 }, w2[] = { 1e-6, 3e-6, 1e-6, 2e-6, 1e-6 };
	struct fit_line f1, f2;

	(void)state;
	assert_int_equal(fit_linear(x, y, w1, 5, &f1), 0);
	assert_int_equal(fit_linear(x, y, w2, 5, &f2), 0);
	assert_near(f1.a, f2.a, EPS);
	assert_near(f1.b, f2.b, EPS);
	assert_near(f1.r2, f2.r2, EPS);
	assert_near(f1.se_a, f2.se_a, EPS);
	assert_near(f1.se_b, f2.se_b, EPS);
}

/*
 * A segs sweep 1, 2, 4, ... 1024 of calls costing 412 ns + 9.8 ns per
 * segment, with +-1% multiplicative noise alternating in sign (a known,
 * zero-mean pattern).  Weighted by 1/y^2 (equal relative error), the fit
 * recovers both costs closely; without weights the fixed cost is thrown
 * off by the noise of the large points, which is why the report weights.
 */
static void test_fit_segs_sweep_known_costs(void **state)
{
	double x[11], y[11], w[11];
	struct fit_line fw, fu;
	size_t i;

	(void)state;
	for (i = 0; i < 11; i++) {
		double noise = (i % 2 ? 1.01 : 0.99);

		x[i] = (double)(1u << i);
		y[i] = (412.0 + 9.8 * x[i]) * noise;
		w[i] = 1.0 / (y[i] * y[i]);
	}
	assert_int_equal(fit_linear(x, y, w, 11, &fw), 0);
	assert_near(fw.a, 412.0, 412.0 * 0.02);
	assert_near(fw.b, 9.8, 9.8 * 0.02);
	assert_true(fw.r2 > 0.99 && fw.r2 <= 1.0);
	assert_true(fw.se_a > 0 && fw.se_b > 0);
	/* The true costs lie within a few standard errors. */
	assert_true(fabs(fw.a - 412.0) < 4 * fw.se_a);
	assert_true(fabs(fw.b - 9.8) < 4 * fw.se_b);

	assert_int_equal(fit_linear(x, y, NULL, 11, &fu), 0);
	assert_near(fu.b, 9.8, 9.8 * 0.02);
	assert_true(fabs(fu.a - 412.0) > fabs(fw.a - 412.0));

	/* Without noise both fits are exact. */
	for (i = 0; i < 11; i++) {
		y[i] = 412.0 + 9.8 * x[i];
		w[i] = 1.0 / (y[i] * y[i]);
	}
	assert_int_equal(fit_linear(x, y, w, 11, &fw), 0);
	assert_near(fw.a, 412.0, 1e-6);
	assert_near(fw.b, 9.8, 1e-9);
	assert_near(fw.r2, 1.0, 1e-12);
}

static void test_fit_large_offset(void **state)
{
	/* x near 1e9: centred sums keep the slope exact. */
	double x[] = { 1e9, 1e9 + 1, 1e9 + 2, 1e9 + 3 }, y[4];
	struct fit_line f;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		y[i] = 7.0 + 0.5 * (double)i;
	assert_int_equal(fit_linear(x, y, NULL, 4, &f), 0);
	assert_near(f.b, 0.5, 1e-9);
	assert_near(f.a + f.b * 1e9, 7.0, 1e-4);
	assert_near(f.r2, 1.0, 1e-9);
}

static void test_fit_two_points(void **state)
{
	double x[] = { 1, 3 }, y[] = { 10, 4 };
	struct fit_line f;

	(void)state;
	assert_int_equal(fit_linear(x, y, NULL, 2, &f), 0);
	assert_near(f.b, -3.0, EPS);
	assert_near(f.a, 13.0, EPS);
	assert_near(f.r2, 1.0, 0);
	assert_true(isnan(f.se_a));
	assert_true(isnan(f.se_b));
}

static void test_fit_constant_y(void **state)
{
	double x[] = { 1, 2, 3 }, y[] = { 5, 5, 5 };
	struct fit_line f;

	(void)state;
	assert_int_equal(fit_linear(x, y, NULL, 3, &f), 0);
	assert_near(f.b, 0.0, 0);
	assert_near(f.a, 5.0, 0);
	assert_near(f.r2, 1.0, 0);
	assert_near(f.se_b, 0.0, 0);
}

static void test_fit_flat_noise_r2_zero(void **state)
{
	/* y symmetric about the middle of x: no linear trend, R^2 = 0. */
	double x[] = { 1, 2, 3 }, y[] = { 1, 0, 1 };
	struct fit_line f;

	(void)state;
	assert_int_equal(fit_linear(x, y, NULL, 3, &f), 0);
	assert_near(f.b, 0.0, EPS);
	assert_near(f.a, 2.0 / 3.0, EPS);
	assert_near(f.r2, 0.0, EPS);
}

static void expect_einval(const double *x, const double *y, const double *w,
			  size_t n)
{
	struct fit_line f = { .a = 123.0, .b = 456.0 };

	errno = 0;
	assert_int_equal(fit_linear(x, y, w, n, &f), -1);
	assert_int_equal(errno, EINVAL);
	/* out is left untouched */
	assert_near(f.a, 123.0, 0);
	assert_near(f.b, 456.0, 0);
}

static void test_fit_degenerate(void **state)
{
	double x[] = { 1, 2, 3 }, y[] = { 1, 2, 3 };
	double same[] = { 4, 4, 4 };
	double nan_y[] = { 1, NAN, 3 }, inf_x[] = { 1, INFINITY, 3 };
	double w0[] = { 1, 0, 1 }, wneg[] = { 1, -1, 1 };
	double wnan[] = { 1, NAN, 1 };
	struct fit_line f;

	(void)state;
	expect_einval(x, y, NULL, 0);
	expect_einval(x, y, NULL, 1);
	expect_einval(NULL, y, NULL, 3);
	expect_einval(x, NULL, NULL, 3);
	expect_einval(same, y, NULL, 3);	/* all x equal */
	expect_einval(x, nan_y, NULL, 3);
	expect_einval(inf_x, y, NULL, 3);
	expect_einval(x, y, w0, 3);
	expect_einval(x, y, wneg, 3);
	expect_einval(x, y, wnan, 3);
	errno = 0;
	assert_int_equal(fit_linear(x, y, NULL, 3, NULL), -1);
	assert_int_equal(errno, EINVAL);
	/* and the same x with one point moved is fine */
	same[2] = 5;
	assert_int_equal(fit_linear(same, y, NULL, 3, &f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_exact_line),
		cmocka_unit_test(test_fit_textbook),
		cmocka_unit_test(test_fit_negative_slope_and_order),
		cmocka_unit_test(test_fit_weights_replicate),
		cmocka_unit_test(test_fit_weights_scale_free),
		cmocka_unit_test(test_fit_segs_sweep_known_costs),
		cmocka_unit_test(test_fit_large_offset),
		cmocka_unit_test(test_fit_two_points),
		cmocka_unit_test(test_fit_constant_y),
		cmocka_unit_test(test_fit_flat_noise_r2_zero),
		cmocka_unit_test(test_fit_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
