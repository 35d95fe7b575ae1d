/*
 * predict.c - the prediction interval for one new run from the log
 * medians of earlier runs, and the t test of one run against it (see
 * predict.h).
 */
#include "stats/predict.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

int stats_predict_log(const double *x, size_t n, double value, double alpha,
		      struct pred_interval *out)
{
	return stats_predict_log_mean(x, n, &value, 1, alpha, out);
}

int stats_predict_log_mean(const double *x, size_t n, const double *v,
			   size_t k, double alpha, struct pred_interval *out)
{
	double sum = 0, ss = 0, m, s, half, scale, y = 0;
	size_t i;

	if (n < 2 || k < 1 || !(alpha > 0 && alpha < 1))
		return -1;
	for (i = 0; i < k; i++) {
		if (!(v[i] > 0))
			return -1;
		y += log(v[i]);
	}
	y /= (double)k;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return -1;
		sum += log(x[i]);
	}
	m = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(x[i]) - m) * (log(x[i]) - m);
	s = sqrt(ss / (double)(n - 1));
	scale = s * sqrt(1 / (double)k + 1 / (double)n);
	out->n = n;
	out->mean_log = m;
	out->sd_log = s;
	out->t_crit = gsl_cdf_tdist_Pinv(1 - alpha / 2, (double)(n - 1));
	half = out->t_crit * scale;
	out->lo = exp(m - half);
	out->hi = exp(m + half);
	out->center = exp(m);
	out->change_pct = 100 * expm1(y - m);
	if (scale > 0) {
		out->t = (y - m) / scale;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), (double)(n - 1));
	} else {
		out->t = y == m ? 0 : copysign(INFINITY, y - m);
		out->p = y == m ? 1 : 0;
	}
	return 0;
}
