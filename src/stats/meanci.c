/*
 * meanci.c - t intervals of a mean and of a difference of means (see
 * meanci.h); the variance and Welch's test are stats/hier.c's, the t
 * quantiles GSL's.
 */
#include "stats/meanci.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

#include "stats/hier.h"

/* The mean of x (n >= 1); -1 on a value not finite. */
static int mean_of_finite(const double *x, size_t n, double *mean)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -1;
		m += x[i];
	}
	*mean = m / (double)n;
	return 0;
}

int stats_mean_ci(const double *x, size_t n, double conf,
		  struct mean_ci *out)
{
	double m, h;

	if (!n || !(conf > 0 && conf < 1) || mean_of_finite(x, n, &m) != 0)
		return -1;
	out->est = m;
	out->n = n;
	out->df = (double)n - 1;
	out->lo = out->hi = NAN;
	if (n < 2)
		return 0;
	h = gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, out->df) *
	    sqrt(stats_variance(x, n) / (double)n);
	out->lo = m - h;
	out->hi = m + h;
	return 0;
}

int stats_welch_diff_ci(const double *x, size_t nx, const double *y,
			size_t ny, double conf, struct mean_ci *out)
{
	struct welch_result w;
	double mx, my, h;

	if (!nx || !ny || !(conf > 0 && conf < 1) ||
	    mean_of_finite(x, nx, &mx) != 0 || mean_of_finite(y, ny, &my) != 0)
		return -1;
	out->est = my - mx;
	out->n = nx + ny;
	out->lo = out->hi = out->df = NAN;
	if (nx < 2 || ny < 2)
		return 0;
	/* the test's difference, standard error and Welch-Satterthwaite df */
	w = stats_welch(x, nx, y, ny);
	out->df = w.df;
	h = w.se_log > 0 ? gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, w.df) *
			   w.se_log : 0.0;
	out->lo = out->est - h;
	out->hi = out->est + h;
	return 0;
}
