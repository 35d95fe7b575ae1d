/*
 * hier.c - statistics over samples within runs within boots (see
 * hier.h): spread at each level, the hierarchical bootstrap CI of a ratio
 * of medians, Welch's t on log run medians, the minimum detectable
 * effect and the runs a named effect needs.
 */
#include "stats/hier.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/summary.h"
#include "util/sort.h"

double stats_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* Sum of squared deviations from the mean. */
static double ssd(const double *x, size_t n)
{
	double m = stats_mean(x, n), s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s;
}

double stats_variance(const double *x, size_t n)
{
	return n < 2 ? 0 : ssd(x, n) / (double)(n - 1);
}

double stats_sd_log(const double *x, size_t n)
{
	double *l, s;
	size_t i;

	if (n < 2)
		return NAN;
	l = malloc(n * sizeof(*l));
	if (!l)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			free(l);
			return NAN;
		}
		l[i] = log(x[i]);
	}
	s = sqrt(ssd(l, n) / (double)(n - 1));
	free(l);
	return s;
}

int hier_spread(const struct hier_side *s, struct hier_spread *out)
{
	double *rm = calloc(s->nruns ? s->nruns : 1, sizeof(double));
	double *bm = calloc(s->nboots ? s->nboots : 1, sizeof(double));
	double *tmp = calloc(s->nruns ? s->nruns : 1, sizeof(double));
	double within = 0, wmean = 0, between = 0, bmean = 0;
	size_t r, b, nw = 0, dfw = 0, nb = 0, dfb = 0, nbm = 0;

	out->within_run = out->between_runs = out->between_boots = NAN;
	if (!rm || !bm || !tmp) {
		free(rm);
		free(bm);
		free(tmp);
		return -1;
	}
	for (r = 0; r < s->nruns; r++) {
		const double *x = s->x + s->run_start[r];
		size_t n = s->run_len[r];

		rm[r] = stats_median(x, n);
		if (n >= 2) {
			within += ssd(x, n);
			wmean += stats_mean(x, n) * (double)n;
			nw += n;
			dfw += n - 1;
		}
	}
	if (dfw > 0 && wmean != 0)
		out->within_run = sqrt(within / (double)dfw) /
				  fabs(wmean / (double)nw);
	for (b = 0; b < s->nboots; b++) {
		size_t k = 0;

		for (r = 0; r < s->nruns; r++)
			if (s->run_boot[r] == b)
				tmp[k++] = rm[r];
		if (k == 0)
			continue;
		bm[nbm++] = stats_median(tmp, k);
		if (k >= 2) {
			between += ssd(tmp, k);
			bmean += stats_mean(tmp, k) * (double)k;
			nb += k;
			dfb += k - 1;
		}
	}
	if (dfb > 0 && bmean != 0)
		out->between_runs = sqrt(between / (double)dfb) /
				    fabs(bmean / (double)nb);
	if (nbm >= 2 && stats_mean(bm, nbm) != 0)
		out->between_boots = sqrt(ssd(bm, nbm) / (double)(nbm - 1)) /
				     fabs(stats_mean(bm, nbm));
	free(rm);
	free(bm);
	free(tmp);
	return 0;
}

/*
 * One resample of a side at every level into buf: boots drawn with
 * replacement, runs drawn with replacement within each drawn boot, samples
 * drawn with replacement within each drawn run; its median, or NAN for a
 * draw without samples.  byboot[b] lists boot b's runs (nin[b] of them).
 */
static double resample(const struct hier_side *s, size_t *const *byboot,
		       const size_t *nin, double *buf, uint64_t *st)
{
	size_t i, j, k, n = 0;

	for (i = 0; i < s->nboots; i++) {
		size_t b = stats_rng_index(st, s->nboots);

		for (j = 0; j < nin[b]; j++) {
			size_t r = byboot[b][stats_rng_index(st, nin[b])];

			for (k = 0; k < s->run_len[r]; k++)
				buf[n++] = s->x[s->run_start[r] +
						stats_rng_index(st,
							s->run_len[r])];
		}
	}
	if (n == 0)
		return NAN;
	qsort(buf, n, sizeof(*buf), util_cmp_double);
	return stats_quantile_sorted(buf, n, 0.5);
}

/* Per boot, the list of its runs; the largest resample in *maxdraw. */
static int index_boots(const struct hier_side *s, size_t ***byboot,
		       size_t **nin, size_t *maxdraw)
{
	size_t r, b, most = 0, maxlen = 0;

	*byboot = calloc(s->nboots, sizeof(**byboot));
	*nin = calloc(s->nboots, sizeof(**nin));
	if (!*byboot || !*nin)
		return -1;
	for (b = 0; b < s->nboots; b++) {
		(*byboot)[b] = calloc(s->nruns ? s->nruns : 1, sizeof(size_t));
		if (!(*byboot)[b])
			return -1;
	}
	for (r = 0; r < s->nruns; r++) {
		b = s->run_boot[r];
		if (b >= s->nboots)
			return -1;
		(*byboot)[b][(*nin)[b]++] = r;
		if (s->run_len[r] > maxlen)
			maxlen = s->run_len[r];
	}
	for (b = 0; b < s->nboots; b++)
		if ((*nin)[b] > most)
			most = (*nin)[b];
	*maxdraw = s->nboots * most * maxlen;
	return 0;
}

static void free_index(const struct hier_side *s, size_t **byboot,
		       size_t *nin)
{
	size_t b;

	for (b = 0; byboot && b < s->nboots; b++)
		free(byboot[b]);
	free(byboot);
	free(nin);
}

/* The samples a side holds: what one resample of it draws on average. */
static size_t side_samples(const struct hier_side *s)
{
	size_t r, n = 0;

	for (r = 0; r < s->nruns; r++)
		n += s->run_len[r];
	return n;
}

unsigned hier_bootstrap_iters(const struct hier_side *base,
			      const struct hier_side *nw, unsigned iters)
{
	return stats_bootstrap_iters(side_samples(base) + side_samples(nw),
				     iters);
}

int hier_change_ci(const struct hier_side *base, const struct hier_side *nw,
		   unsigned iters, uint64_t seed, double level,
		   double *lo_pct, double *hi_pct)
{
	size_t **bb = NULL, **nb = NULL, *bn = NULL, *nn = NULL, mb = 0, mn = 0;
	double *buf = NULL, *chg = NULL;
	uint64_t state = seed;
	unsigned i, k = 0;
	int rc = -1;

	if (!base->nruns || !nw->nruns || !base->nboots || !nw->nboots ||
	    !iters)
		return -1;
	iters = hier_bootstrap_iters(base, nw, iters);
	if (index_boots(base, &bb, &bn, &mb) ||
	    index_boots(nw, &nb, &nn, &mn) || !mb || !mn)
		goto out;
	buf = malloc((mb > mn ? mb : mn) * sizeof(*buf));
	chg = malloc(iters * sizeof(*chg));
	if (!buf || !chg)
		goto out;
	for (i = 0; i < iters; i++) {
		double b = resample(base, bb, bn, buf, &state);
		double n = resample(nw, nb, nn, buf, &state);

		if (!isnan(b) && !isnan(n) && b != 0.0)
			chg[k++] = 100.0 * (n / b - 1.0);
	}
	if (k < iters / 2) {
		*lo_pct = *hi_pct = NAN;
	} else {
		qsort(chg, k, sizeof(*chg), util_cmp_double);
		*lo_pct = stats_quantile_sorted(chg, k, (1.0 - level) / 2.0);
		*hi_pct = stats_quantile_sorted(chg, k, (1.0 + level) / 2.0);
	}
	rc = 0;
out:
	free_index(base, bb, bn);
	free_index(nw, nb, nn);
	free(buf);
	free(chg);
	return rc;
}

struct welch_result stats_welch(const double *x, size_t nx, const double *y,
				size_t ny)
{
	double a = stats_variance(x, nx) / (double)nx;
	double b = stats_variance(y, ny) / (double)ny;
	struct welch_result w;

	w.diff_log = stats_mean(y, ny) - stats_mean(x, nx);
	w.se_log = sqrt(a + b);
	if (w.se_log > 0) {
		w.t = w.diff_log / w.se_log;
		w.df = (a + b) * (a + b) /
		       (a * a / (double)(nx - 1) + b * b / (double)(ny - 1));
		w.p = 2.0 * gsl_cdf_tdist_Q(fabs(w.t), w.df);
	} else {
		/* no spread at all: any difference is certain, none is not */
		w.t = w.diff_log == 0 ? 0 : copysign(INFINITY, w.diff_log);
		w.df = (double)(nx + ny - 2);
		w.p = w.diff_log == 0 ? 1.0 : 0.0;
	}
	return w;
}

double stats_welch_p(const double *x, size_t nx, const double *y, size_t ny)
{
	if (nx < 2 || ny < 2)
		return NAN;
	return stats_welch(x, nx, y, ny).p;
}

int stats_welch_log(const double *x, size_t nx, const double *y, size_t ny,
		    struct welch_result *out)
{
	double *lx, *ly;
	size_t i;
	int rc = -1;

	if (nx < 2 || ny < 2)
		return -1;
	lx = malloc(nx * sizeof(*lx));
	ly = malloc(ny * sizeof(*ly));
	if (!lx || !ly)
		goto out;
	for (i = 0; i < nx; i++) {
		if (!(x[i] > 0))
			goto out;
		lx[i] = log(x[i]);
	}
	for (i = 0; i < ny; i++) {
		if (!(y[i] > 0))
			goto out;
		ly[i] = log(y[i]);
	}
	*out = stats_welch(lx, nx, ly, ny);
	rc = 0;
out:
	free(lx);
	free(ly);
	return rc;
}

double stats_mde_pct(double se_log, double df, double alpha, double power)
{
	double t1, t2;

	if (!(se_log >= 0) || !(df > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return NAN;
	t1 = gsl_cdf_tdist_Qinv(alpha / 2.0, df);
	t2 = gsl_cdf_tdist_Pinv(power, df);
	return 100.0 * (exp((t1 + t2) * se_log) - 1.0);
}

int stats_runs_needed(double sd_log, double target_pct, double alpha,
		      double power, int max_runs)
{
	double want;
	int n;

	if (!(sd_log >= 0) || !(target_pct > 0) || max_runs < 2)
		return -1;
	want = log(1.0 + target_pct / 100.0);
	for (n = 2; n <= max_runs; n++) {
		double se = sd_log * sqrt(2.0 / (double)n);
		double mde = stats_mde_pct(se, 2.0 * n - 2.0, alpha, power);

		if (!isnan(mde) && log(1.0 + mde / 100.0) <= want)
			return n;
	}
	return 0;
}
