/*
 * ab_combine.c - several ab runs of one A/B judged together (see
 * ab_combine.h).
 */
#include "comparison/ab_combine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired.h"
#include "stats/summary.h"
#include "util/array.h"
#include "util/sort.h"

static double pct(double log_ratio)
{
	return (exp(log_ratio) - 1) * 100;
}

/* The row of metric in a, or NULL. */
static const struct ab_row *row_of(const struct ab_analysis *a,
				   const char *metric)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->rows[i].metric, metric) == 0)
			return &a->rows[i];
	return NULL;
}

/* Same workload and sides as the first run, else -1 with err. */
static int same_ab(const struct run_data *first, const struct run_data *r,
		   char *err, size_t errlen)
{
	static const char *const keys[] = { "ab.a", "ab.b", "ab.a_settings",
					    "ab.b_settings" };
	const char *w0 = first->results.n ? first->results.v[0].cfg->workload :
			 "", *w = r->results.n ? r->results.v[0].cfg->workload :
			 "";
	size_t k;

	if (!ab_env_is_ab(&r->env)) {
		snprintf(err, errlen, "run %lld is not an ab run: compare ab "
			 "runs only with ab runs", (long long)r->info.id);
		return -1;
	}
	if (strcmp(w0, w) != 0) {
		snprintf(err, errlen, "runs %lld and %lld are ab runs of "
			 "different workloads (%s, %s)",
			 (long long)first->info.id, (long long)r->info.id, w0,
			 w);
		return -1;
	}
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		const char *x = env_get(&first->env, keys[k]);
		const char *y = env_get(&r->env, keys[k]);

		if (strcmp(x ? x : "", y ? y : "") != 0) {
			snprintf(err, errlen, "runs %lld and %lld are not the "
				 "same A/B: %s is '%s' and '%s'",
				 (long long)first->info.id,
				 (long long)r->info.id, keys[k], x ? x : "",
				 y ? y : "");
			return -1;
		}
	}
	return 0;
}

/*
 * The median of the pooled log ratios over a two-level resample: runs
 * with replacement, then the rounds of each drawn run with replacement.
 */
static int boot_ci(const double *const *d, const size_t *nd, size_t nruns,
		   double conf, double *lo, double *hi)
{
	size_t it, r, k, most = 0;
	double *pool, *med = malloc(AB_COMBINE_ITERS * sizeof(*med));
	uint64_t rng = AB_COMBINE_SEED;

	for (r = 0; r < nruns; r++)
		if (nd[r] > most)
			most = nd[r];
	pool = malloc((nruns * most > 0 ? nruns * most : 1) * sizeof(*pool));

	if (!pool || !med) {
		free(pool);
		free(med);
		return -1;
	}
	for (it = 0; it < AB_COMBINE_ITERS; it++) {
		size_t m = 0;

		for (r = 0; r < nruns; r++) {
			size_t pick = stats_rng_index(&rng, nruns);

			for (k = 0; k < nd[pick]; k++)
				pool[m++] = d[pick][stats_rng_index(
					&rng, nd[pick])];
		}
		med[it] = stats_median(pool, m);
	}
	qsort(med, AB_COMBINE_ITERS, sizeof(*med), util_cmp_double);
	*lo = stats_quantile_sorted(med, AB_COMBINE_ITERS, (1 - conf) / 2);
	*hi = stats_quantile_sorted(med, AB_COMBINE_ITERS, 1 - (1 - conf) / 2);
	free(pool);
	free(med);
	return 0;
}

/* Combine metric i of run 0 over the runs. */
static int combine_row(struct ab_combined *c, size_t i,
		       const struct ab_opts *o)
{
	const struct ab_row *r0 = &c->per_run[0].rows[i];
	struct ab_combined_row *row = &c->rows[c->n];
	const double **d = calloc(c->nruns, sizeof(*d));
	size_t *nd = calloc(c->nruns, sizeof(*nd)), r, total = 0, m = 0;
	double *pool = NULL, *ctl = NULL, alpha = o->alpha, lo, hi, ctl_band;
	struct paired_result pr, pc;
	int rc = -1, side;

	row->run_change_pct = calloc(c->nruns, sizeof(double));
	if (!d || !nd || !row->run_change_pct)
		goto out;
	row->metric = r0->metric;
	row->unit = r0->unit;
	row->direction = r0->direction;
	row->same_reading_as = r0->same_reading_as;
	for (r = 0; r < c->nruns; r++) {
		const struct ab_row *x = row_of(&c->per_run[r], r0->metric);

		if (!x || !x->rounds)
			continue;
		d[row->nruns] = x->log_ratio;
		nd[row->nruns] = x->rounds;
		row->run_change_pct[row->nruns++] = x->change_pct;
		total += x->rounds;
	}
	c->n++;
	row->change_pct = row->ci_lo_pct = row->ci_hi_pct = row->p = NAN;
	row->verdict = row->direction ? VERDICT_CANNOT_TELL : VERDICT_INFO;
	if (!total || total > PAIRED_MAX_N) {
		snprintf(row->reason, sizeof(row->reason), total ? "more than "
			 "%d rounds in all" : "no rounds", PAIRED_MAX_N);
		rc = 0;
		goto out;
	}
	pool = malloc(total * sizeof(*pool));
	ctl = malloc(total * sizeof(*ctl));
	if (!pool || !ctl)
		goto out;
	for (r = 0; r < c->nruns; r++) {
		const struct ab_row *x = row_of(&c->per_run[r], r0->metric);
		size_t k;

		for (k = 0; x && k < x->rounds; k++) {
			pool[m] = x->log_ratio[k];
			ctl[m++] = x->ctl_log_ratio[k];
		}
	}
	if (paired_signed_rank(pool, total, 1 - alpha, &pr) != 0 ||
	    boot_ci(d, nd, row->nruns, 1 - alpha, &lo, &hi) != 0)
		goto out;
	row->rounds = total;
	row->p = pr.p;
	row->change_pct = pct(stats_median(pool, total));
	row->ci_lo_pct = pct(lo);
	row->ci_hi_pct = pct(hi);
	row->ctl_change_pct = pct(stats_median(ctl, total));
	if (paired_signed_rank(ctl, total, 1 - alpha, &pc) != 0)
		goto out;
	ctl_band = fmax(fabs(pct(pc.ci_lo)), fabs(pct(pc.ci_hi)));
	row->band_pct = fmax(o->noise_pct, ctl_band);
	rc = 0;
	if (!row->direction)
		goto out;
	side = row->ci_lo_pct > row->band_pct ? 1 :
	       row->ci_hi_pct < -row->band_pct ? -1 : 0;
	if (pr.min_p >= alpha) {
		snprintf(row->reason, sizeof(row->reason), "%zu rounds cannot "
			 "reach p < %g", total, alpha);
	} else if (row->p < alpha && side) {
		row->verdict = (side > 0) == (row->direction > 0) ?
			       VERDICT_BETTER : VERDICT_WORSE;
	} else if (ctl_band > o->noise_pct) {
		snprintf(row->reason, sizeof(row->reason), "the control moved "
			 "%+.1f..%+.1f%% (A'/A, 95%% CI), reaching past the "
			 "+-%g%% noise band", pct(pc.ci_lo), pct(pc.ci_hi),
			 o->noise_pct);
	} else {
		row->verdict = VERDICT_SAME;
		snprintf(row->reason, sizeof(row->reason), "no change larger "
			 "than %.1f%%", fmax(fabs(row->ci_lo_pct),
					     fabs(row->ci_hi_pct)));
	}
out:
	free(d);
	free(nd);
	free(pool);
	free(ctl);
	return rc;
}

int ab_combine(const struct run_data *const *runs, size_t n,
	       const struct ab_opts *o, struct ab_combined *out, char *err,
	       size_t errlen)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!n) {
		snprintf(err, errlen, "no runs");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (same_ab(runs[0], runs[i], err, errlen) != 0)
			return -1;
	out->per_run = calloc(n, sizeof(*out->per_run));
	if (!out->per_run) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ab_analyze(runs[i]->results.v, runs[i]->results.n, o,
			       &out->per_run[i], err, errlen) != 0) {
			ab_combined_free(out);
			return -1;
		}
		out->nruns++;
	}
	out->workload = runs[0]->results.v[0].cfg->workload;
	out->a = env_get(&runs[0]->env, "ab.a");
	out->b = env_get(&runs[0]->env, "ab.b");
	out->rows = calloc(out->per_run[0].n ? out->per_run[0].n : 1,
			   sizeof(*out->rows));
	if (!out->rows) {
		ab_combined_free(out);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < out->per_run[0].n; i++)
		if (combine_row(out, i, o) != 0) {
			ab_combined_free(out);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	return 0;
}

void ab_combined_free(struct ab_combined *c)
{
	size_t i;

	for (i = 0; c->rows && i < c->n; i++)
		free(c->rows[i].run_change_pct);
	free(c->rows);
	for (i = 0; c->per_run && i < c->nruns; i++)
		ab_analysis_free(&c->per_run[i]);
	free(c->per_run);
	memset(c, 0, sizeof(*c));
}
