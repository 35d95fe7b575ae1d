/*
 * comparison_modes.c - the comparison of a bimodal row's two modes (see
 * comparison_modes.h): where they split, each side's share above the
 * split, each mode's median, and the test of whether the share moved.
 */
#include "comparison/comparison_modes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

/* Median of the samples of x[0..n-1] at or below (hi false) or above
   split; NAN when fewer than MODES_MIN_CLUSTER. */
static double mode_median(const double *x, size_t n, double split, bool hi,
			  double *buf)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if ((x[i] > split) == hi)
			buf[k++] = x[i];
	return k >= MODES_MIN_CLUSTER ? stats_median(buf, k) : NAN;
}

/* Each run's share of samples above split, into out[0..v->nruns-1]. */
static void run_shares(const struct cmp_val *v, double split, double *out)
{
	size_t i, j, k;

	for (i = 0; i < v->nruns; i++) {
		for (k = 0, j = 0; j < v->run_len[i]; j++)
			k += v->x[v->run_start[i] + j] > split;
		out[i] = v->run_len[i] ? (double)k / (double)v->run_len[i]
				       : 0.0;
	}
}

/* Two-sided Fisher's exact test of a 2x2 table: k1 of n1 against k2 of
   n2 (the sum of the tables no more likely than the one seen). */
static double fisher_p(size_t k1, size_t n1, size_t k2, size_t n2)
{
	unsigned t = (unsigned)(k1 + k2), lo, hi, k;
	double seen, p = 0;

	lo = t > n2 ? t - (unsigned)n2 : 0;
	hi = t < n1 ? t : (unsigned)n1;
	seen = gsl_ran_hypergeometric_pdf((unsigned)k1, (unsigned)n1,
					  (unsigned)n2, t);
	for (k = lo; k <= hi; k++) {
		double q = gsl_ran_hypergeometric_pdf(k, (unsigned)n1,
						      (unsigned)n2, t);

		if (q <= seen * (1 + 1e-7))
			p += q;
	}
	return p > 1 ? 1 : p;
}

/*
 * The two modes' centres: the cluster medians of the best split of both
 * sides' samples pooled (stats/modes.h's rule, whether or not the pool
 * alone would be called bimodal: a side is, so there are two modes to
 * place), else, when the pool has no admissible split, those of the
 * bimodal side (the base's when both are).  A side's own split would put the other
 * side's samples in whichever mode lies on their side of it, however far
 * they are from its centre (base at 119 ns and new at 288 and 410 ns made
 * 288 ns "the mode near 119 ns"); the pool's modes are where the samples
 * of both sides are.  Returns 0, or -1 on ENOMEM.
 */
static int mode_centres(const struct cmp_row *r, double *lo, double *hi)
{
	size_t n = r->b.n + r->n.n;
	double *pool = malloc(n * sizeof(*pool));
	const struct modes *side;
	struct modes md;

	if (!pool)
		return -1;
	memcpy(pool, r->b.x, r->b.n * sizeof(*pool));
	memcpy(pool + r->b.n, r->n.x, r->n.n * sizeof(*pool));
	if (modes_detect(pool, n, &md) < 0) {
		free(pool);
		return -1;
	}
	free(pool);
	side = r->b.md.bimodal ? &r->b.md : &r->n.md;
	if (!md.n_lo || !md.n_hi)
		md = *side;
	*lo = md.median_lo;
	*hi = md.median_hi;
	return 0;
}

int cmp_modes_of(struct cmp_row *r, const struct cmp_opts *opts)
{
	struct cmp_modes *m = &r->modes;
	size_t i, nmax = r->b.n > r->n.n ? r->b.n : r->n.n;
	double *buf;

	memset(m, 0, sizeof(*m));
	if (!r->b.md.bimodal && !r->n.md.bimodal)
		return 0;
	if (mode_centres(r, &m->centre_lo, &m->centre_hi) < 0)
		return -1;
	buf = malloc(nmax * sizeof(*buf));
	if (!buf)
		return -1;
	m->shown = true;
	/* each sample of either side goes to the nearer centre */
	m->split = (m->centre_lo + m->centre_hi) / 2.0;
	for (i = 0; i < r->b.n; i++)
		m->n_hi_b += r->b.x[i] > m->split;
	for (i = 0; i < r->n.n; i++)
		m->n_hi_n += r->n.x[i] > m->split;
	m->share_hi_b = (double)m->n_hi_b / (double)r->b.n;
	m->share_hi_n = (double)m->n_hi_n / (double)r->n.n;
	m->med_lo_b = mode_median(r->b.x, r->b.n, m->split, false, buf);
	m->med_hi_b = mode_median(r->b.x, r->b.n, m->split, true, buf);
	m->med_lo_n = mode_median(r->n.x, r->n.n, m->split, false, buf);
	m->med_hi_n = mode_median(r->n.x, r->n.n, m->split, true, buf);
	m->lo_change_pct = 100.0 * (m->med_lo_n / m->med_lo_b - 1.0);
	m->hi_change_pct = 100.0 * (m->med_hi_n / m->med_hi_b - 1.0);
	free(buf);
	m->by_run = r->b.nruns >= CMP_MIN_RUNS && r->n.nruns >= CMP_MIN_RUNS;
	if (m->by_run) {
		double *sb = malloc(r->b.nruns * sizeof(*sb));
		double *sn = malloc(r->n.nruns * sizeof(*sn));

		if (!sb || !sn) {
			free(sb);
			free(sn);
			return -1;
		}
		run_shares(&r->b, m->split, sb);
		run_shares(&r->n, m->split, sn);
		m->p_share = stats_welch_p(sb, r->b.nruns, sn, r->n.nruns);
		free(sb);
		free(sn);
	} else {
		m->p_share = fisher_p(m->n_hi_b, r->b.n, m->n_hi_n, r->n.n);
	}
	m->share_changed = m->p_share < opts->alpha &&
			   100.0 * fabs(m->share_hi_n - m->share_hi_b) >=
			   CMP_MODE_SHIFT_MIN_PCT;
	return 0;
}
