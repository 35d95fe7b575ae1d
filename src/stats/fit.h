/*
 * fit.h - least-squares fit of a straight line, y = a + b x.
 *
 * Used to split a cost into a fixed part and a part per unit of a swept
 * parameter: time per call = fixed + per segment x segs (sys.iov), or
 * fixed + per byte x size (sys.rw).  A pure function of its inputs.
 */
#ifndef COPYSCOPE_FIT_H
#define COPYSCOPE_FIT_H

#include <stddef.h>

struct fit_line {
	double a;		/* intercept: y at x = 0 */
	double b;		/* slope: change of y per unit of x */
	double r2;		/* coefficient of determination (weighted when
				   weights are given); 1 when y is constant */
	double se_a, se_b;	/* standard errors of a and b from the
				   residuals; NaN when n < 3 */
	size_t n;		/* points fitted */
};

/*
 * Fit y = a + b x to the points (x[i], y[i]), i < n, by least squares,
 * minimising sum w[i] (y[i] - a - b x[i])^2.  w may be NULL (every weight
 * 1); weights are relative (only their ratios matter).
 *
 * Returns 0 and fills *out, or -1 with errno EINVAL (out untouched) when
 * x, y or out is NULL, n < 2, any x, y or w is not finite, any weight is
 * not positive, or all x are equal (the slope is undetermined).  With
 * n == 2 the line passes through both points, r2 is 1 and the standard
 * errors are NaN.
 */
int fit_linear(const double *x, const double *y, const double *w, size_t n,
	       struct fit_line *out);

#endif
