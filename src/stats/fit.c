/*
 * fit.c - least-squares fit of a straight line (see fit.h).
 *
 * Weighted least squares with the sums taken about the weighted means
 * (xm, ym), which keeps the arithmetic accurate when x or y carry a large
 * offset (e.g. x = 1e9 + i), where the textbook one-pass sums
 * n Sxy - Sx Sy cancel catastrophically:
 *
 *   W   = sum w             xm = sum w x / W          ym = sum w y / W
 *   Sxx = sum w (x - xm)^2  Sxy = sum w (x - xm)(y - ym)
 *   b   = Sxy / Sxx         a  = ym - b xm
 *   SSres = sum w (y - a - b x)^2      SStot = sum w (y - ym)^2
 *   R^2 = 1 - SSres / SStot            (1 when SStot = 0: y is constant
 *                                       and the line b = 0 fits it exactly)
 *
 * Standard errors, with the residual variance s^2 = SSres / (n - 2)
 * expressed in units of weight 1 (weights as relative precisions):
 *   se(b) = sqrt(s^2 / Sxx)   se(a) = sqrt(s^2 (1 / W + xm^2 / Sxx))
 * These equal the unweighted textbook formulas when every w is 1.
 */
#include "stats/fit.h"

#include <errno.h>
#include <math.h>

int fit_linear(const double *x, const double *y, const double *w, size_t n,
	       struct fit_line *out)
{
	double sw = 0, xm = 0, ym = 0, sxx = 0, sxy = 0, ssres = 0, sstot = 0;
	double a, b, s2;
	size_t i;
	int x_differs = 0;

	if (!x || !y || !out || n < 2) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0;

		if (!isfinite(x[i]) || !isfinite(y[i]) || !isfinite(wi) ||
		    wi <= 0) {
			errno = EINVAL;
			return -1;
		}
		if (x[i] != x[0])
			x_differs = 1;
		sw += wi;
		xm += wi * x[i];
		ym += wi * y[i];
	}
	if (!x_differs || !isfinite(sw)) {
		errno = EINVAL;
		return -1;
	}
	xm /= sw;
	ym /= sw;
	for (i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0;
		double dx = x[i] - xm, dy = y[i] - ym;

		sxx += wi * dx * dx;
		sxy += wi * dx * dy;
		sstot += wi * dy * dy;
	}
	if (!(sxx > 0) || !isfinite(sxx) || !isfinite(sxy)) {
		errno = EINVAL;
		return -1;
	}
	b = sxy / sxx;
	a = ym - b * xm;
	for (i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0;
		double r = y[i] - (a + b * x[i]);

		ssres += wi * r * r;
	}
	out->a = a;
	out->b = b;
	out->n = n;
	if (n == 2 || sstot == 0)
		out->r2 = 1.0;
	else
		out->r2 = 1.0 - ssres / sstot;
	if (n < 3) {
		out->se_a = NAN;
		out->se_b = NAN;
	} else {
		s2 = ssres / (double)(n - 2);
		out->se_b = sqrt(s2 / sxx);
		out->se_a = sqrt(s2 * (1.0 / sw + xm * xm / sxx));
	}
	return 0;
}
