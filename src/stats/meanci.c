/*
 * meanci.c - t intervals of a mean and of a difference of means (see
 * meanci.h); the t quantiles are GSL's.
 */
#include "stats/meanci.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* Mean and sample variance (n - 1) of x; -1 on a value not finite. */
static int moments(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -1;
		m += x[i];
	}
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
	return 0;
}

int stats_mean_ci(const double *x, size_t n, double conf,
		  struct mean_ci *out)
{
	double m, v, h;

	if (!n || !(conf > 0 && conf < 1) || moments(x, n, &m, &v) != 0)
		return -1;
	out->est = m;
	out->n = n;
	out->df = (double)n - 1;
	out->lo = out->hi = NAN;
	if (n < 2)
		return 0;
	h = gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, out->df) *
	    sqrt(v / (double)n);
	out->lo = m - h;
	out->hi = m + h;
	return 0;
}

int stats_welch_diff_ci(const double *x, size_t nx, const double *y,
			size_t ny, double conf, struct mean_ci *out)
{
	double mx, vx, my, vy, a, b, h;

	if (!nx || !ny || !(conf > 0 && conf < 1) ||
	    moments(x, nx, &mx, &vx) != 0 || moments(y, ny, &my, &vy) != 0)
		return -1;
	out->est = my - mx;
	out->n = nx + ny;
	out->lo = out->hi = out->df = NAN;
	if (nx < 2 || ny < 2)
		return 0;
	a = vx / (double)nx;
	b = vy / (double)ny;
	if (a + b == 0) {
		out->lo = out->hi = out->est;
		out->df = (double)(nx + ny - 2);
		return 0;
	}
	/* Welch-Satterthwaite */
	out->df = (a + b) * (a + b) /
		  (a * a / (double)(nx - 1) + b * b / (double)(ny - 1));
	h = gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, out->df) * sqrt(a + b);
	out->lo = out->est - h;
	out->hi = out->est + h;
	return 0;
}
