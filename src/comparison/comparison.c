/*
 * comparison.c - the comparison engine (see comparison.h): matching rows
 * across two sides of runs, gathering each side's samples per run and
 * per boot, the test, the CI of the change and the verdict, and the
 * environment differences (the two modes of a bimodal row are
 * comparison_modes.c's).
 */
#include "comparison/comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/comparison_priv.h"
#include "comparison/comparison_modes.h"
#include "results/codec.h"

static void *xcalloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void cmp_side_count_boots(struct cmp_side *side)
{
	const char **ids = calloc(side->nruns ? side->nruns : 1,
				  sizeof(*ids));
	size_t i, j, n = 0;

	side->nboots = 0;
	if (!ids) {	/* ENOMEM: each run against those before it */
		for (i = 0; i < side->nruns; i++) {
			bool seen = false;

			for (j = 0; j < i; j++)
				seen |= side->runs[j].results.n &&
					strcmp(side->runs[i].info.boot_id,
					       side->runs[j].info.boot_id) == 0;
			side->nboots += side->runs[i].results.n && !seen;
		}
		return;
	}
	/* the distinct boot ids of the runs with results, by sorting */
	for (i = 0; i < side->nruns; i++)
		if (side->runs[i].results.n)
			ids[n++] = side->runs[i].info.boot_id;
	qsort(ids, n, sizeof(*ids), str_ptr_cmp);
	for (i = 0; i < n; i++)
		side->nboots += !i || strcmp(ids[i], ids[i - 1]) != 0;
	free(ids);
}

/* Does result r (matching parameters m) belong to row? */
static bool same_key(const struct cmp_row *row, const struct result *r,
		     const char *m)
{
	return strcmp(row->ref->cfg->workload, r->cfg->workload) == 0 &&
	       strcmp(row->ref->metric, r->metric) == 0 &&
	       strcmp(row->ref->unit, r->unit) == 0 &&
	       strcmp(row->match, m) == 0;
}

/* The matching key of every result of a side: its parameters' canonical
   JSON less the ignored parameters.  0 or -1. */
static int prepare_side(const struct cmp_side *side, const struct cmp_opts *o,
			char ****out)
{
	char ***m = xcalloc(side->nruns, sizeof(*m));
	size_t i, j;

	*out = m;
	if (!m)
		return -1;
	for (i = 0; i < side->nruns; i++) {
		const struct result_set *rs = &side->runs[i].results;

		m[i] = xcalloc(rs->n, sizeof(char *));
		if (!m[i])
			return -1;
		for (j = 0; j < rs->n; j++) {
			const char *pj = rs->v[j].cfg->params_json;

			m[i][j] = o->nignore ?
				  result_params_without(pj, o->ignore,
							o->nignore) : NULL;
			if (!m[i][j])
				m[i][j] = strdup(pj ? pj : "");
			if (!m[i][j])
				return -1;
		}
	}
	return 0;
}

static void free_matches(const struct cmp_side *side, char ***m)
{
	size_t i, j;

	for (i = 0; m && i < side->nruns; i++) {
		for (j = 0; m[i] && j < side->runs[i].results.n; j++)
			free(m[i][j]);
		free(m[i]);
	}
	free(m);
}

static bool wanted(const struct cmp_opts *o, const char *workload)
{
	size_t i;

	if (!o->workloads)
		return true;
	for (i = 0; i < o->nworkloads; i++)
		if (strcmp(o->workloads[i], workload) == 0)
			return true;
	return false;
}

/* The samples of r that count (those its headline is over: all, or the
   quiet ones with drop_noisy) appended to v; the flagged/dropped/
   headline_out counts updated.  0 or -1. */
static int add_samples(struct cmp_val *v, const struct result *r,
		       bool drop_noisy)
{
	double *x = realloc(v->x, (v->n + r->nsamples + 1) * sizeof(*x));
	size_t i;

	if (!x)
		return -1;
	v->x = x;
	for (i = 0; i < r->nsamples; i++) {
		bool fl = result_value_flagged(r, i);

		if (!result_value_counts(r, i)) {
			v->headline_out++;
			continue;
		}
		v->flagged += fl;
		if (fl && drop_noisy) {
			v->dropped++;
			continue;
		}
		v->x[v->n++] = r->samples[i];
	}
	return 0;
}

/*
 * Per boot: the median of the medians of its runs that kept samples
 * (run_med[i] is NAN for a run without any).  Boots disagree when the
 * boot medians' standard deviation is more than twice the pooled
 * standard deviation of run medians within a boot (at least one boot must
 * have two runs to tell).
 */
static int boot_medians(struct cmp_val *v, const struct cmp_side *side,
			const double *run_med)
{
	double *m = xcalloc(side->nruns, sizeof(double));
	double within = 0, *bm = xcalloc(v->nboots, sizeof(double));
	size_t nwithin = 0, b, i;

	if (!m || !bm) {
		free(m);
		free(bm);
		return -1;
	}
	for (b = 0; b < v->nboots; b++) {
		size_t k = 0;

		for (i = 0; i < side->nruns; i++)
			if (!isnan(run_med[i]) &&
			    strcmp(side->runs[i].info.boot_id,
				   v->boots[b].boot_id) == 0)
				m[k++] = run_med[i];
		v->boots[b].median = stats_median(m, k);
		bm[b] = v->boots[b].median;
		if (k >= 2) {
			within += stats_variance(m, k) * (double)(k - 1);
			nwithin += k - 1;
		}
	}
	if (v->nboots >= 2 && nwithin > 0)
		v->boots_disagree = sqrt(stats_variance(bm, v->nboots)) >
				    2.0 * sqrt(within / (double)nwithin);
	free(m);
	free(bm);
	return 0;
}

/*
 * Gather one side of a row: pool the samples of every run's matching
 * results; per run its median (runs whose samples were all dropped count
 * for nothing: no median, no boot); per boot the median of its runs'
 * medians.
 */
int cmp_gather(struct cmp_val *v, const struct cmp_side *side,
	       char ***match, const struct cmp_row *key, bool drop_noisy)
{
	double *run_med = xcalloc(side->nruns, sizeof(double));
	size_t i, j, b;
	int ret = -1;

	v->boots = xcalloc(side->nruns, sizeof(*v->boots));
	v->run_med = xcalloc(side->nruns, sizeof(double));
	v->run_start = xcalloc(side->nruns, sizeof(size_t));
	v->run_len = xcalloc(side->nruns, sizeof(size_t));
	v->run_boot = xcalloc(side->nruns, sizeof(size_t));
	if (!run_med || !v->boots || !v->run_med || !v->run_start ||
	    !v->run_len || !v->run_boot)
		goto out;
	for (i = 0; i < side->nruns; i++) {
		const struct run_data *r = &side->runs[i];
		size_t start = v->n;

		run_med[i] = NAN;
		for (j = 0; j < r->results.n; j++)
			if (same_key(key, &r->results.v[j], match[i][j]) &&
			    add_samples(v, &r->results.v[j], drop_noisy) != 0)
				goto out;
		if (v->n == start)
			continue;
		run_med[i] = stats_median(v->x + start, v->n - start);
		v->run_med[v->nruns] = run_med[i];
		v->run_start[v->nruns] = start;
		v->run_len[v->nruns] = v->n - start;
		for (b = 0; b < v->nboots; b++)
			if (strcmp(v->boots[b].boot_id, r->info.boot_id) == 0)
				break;
		if (b == v->nboots) {
			snprintf(v->boots[b].boot_id,
				 sizeof(v->boots[b].boot_id), "%s",
				 r->info.boot_id);
			v->nboots++;
		}
		v->boots[b].nruns++;
		v->run_boot[v->nruns] = b;
		v->nruns++;
	}
	if (v->nruns) {
		struct hier_side hs = {
			v->x, v->run_start, v->run_len, v->run_boot,
			v->nruns, v->nboots,
		};

		if (hier_spread(&hs, &v->spread) != 0)
			goto out;
	}
	if (boot_medians(v, side, run_med) != 0 ||
	    summary_compute(v->x, v->n, &v->s) != 0 ||
	    modes_detect(v->x, v->n, &v->md) != 0)
		goto out;
	ret = 0;
out:
	free(run_med);
	return ret;
}

static struct cmp_row *find_row(struct cmp *c, const struct result *r,
				const char *m)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (same_key(&c->rows[i], r, m))
			return &c->rows[i];
	return NULL;
}

static int collect_keys(struct cmp *c, const struct cmp_side *side,
			char ***match, bool is_base, size_t *cap)
{
	size_t i, j;

	for (i = 0; i < side->nruns; i++) {
		const struct result_set *rs = &side->runs[i].results;

		for (j = 0; j < rs->n; j++) {
			const struct result *res = &rs->v[j];
			struct cmp_row *row;

			if (!wanted(&c->opts, res->cfg->workload))
				continue;
			row = find_row(c, res, match[i][j]);
			if (!row) {
				if (c->nrows == *cap) {
					size_t nc = *cap ? *cap * 2 : 32;
					struct cmp_row *v = realloc(c->rows,
						nc * sizeof(*v));

					if (!v)
						return -1;
					c->rows = v;
					*cap = nc;
				}
				row = &c->rows[c->nrows++];
				memset(row, 0, sizeof(*row));
				row->ref = res;
				row->match = match[i][j];
				row->direction = res->direction;
			}
			if (is_base) {
				row->in_base = true;
			} else {
				if (!row->in_new)
					row->ref_new = res;
				row->in_new = true;
			}
		}
	}
	return 0;
}

/* Rows on both sides first (in base order), then base only, new only. */
static int row_rank(const struct cmp_row *r)
{
	return r->in_base && r->in_new ? 0 : r->in_base ? 1 : 2;
}

static void sort_rows(struct cmp *c)
{
	size_t i, j;

	/* stable insertion sort by rank */
	for (i = 1; i < c->nrows; i++) {
		struct cmp_row t = c->rows[i];

		for (j = i; j > 0 && row_rank(&c->rows[j - 1]) > row_rank(&t);
		     j--)
			c->rows[j] = c->rows[j - 1];
		c->rows[j] = t;
	}
}

/* ---- rows ---- */

static void hier_of(const struct cmp_val *v, struct hier_side *hs)
{
	hs->x = v->x;
	hs->run_start = v->run_start;
	hs->run_len = v->run_len;
	hs->run_boot = v->run_boot;
	hs->nruns = v->nruns;
	hs->nboots = v->nboots;
}

/*
 * The smallest visible change and the runs a target needs, from the
 * spread of what the test compares: the run medians, or the samples.
 */
static void power_of(struct cmp_row *r, const struct cmp_opts *opts)
{
	double power = opts->power > 0 ? opts->power : 0.8, sd;
	struct welch_result w;

	r->mde_pct = NAN;
	r->runs_needed = -1;
	if (r->by_run) {
		r->mde_pct = stats_mde_pct(r->welch.se_log, r->welch.df,
					   opts->alpha, power);
	} else if (stats_welch_log(r->b.x, r->b.n, r->n.x, r->n.n, &w) ==
		   0) {
		r->mde_pct = stats_mde_pct(w.se_log, w.df, opts->alpha,
					   power);
	}
	if (!(opts->target_pct > 0) || !r->by_run)
		return;
	/* the larger side's spread of log run medians */
	sd = stats_sd_log(r->b.run_med, r->b.nruns);
	if (stats_sd_log(r->n.run_med, r->n.nruns) > sd)
		sd = stats_sd_log(r->n.run_med, r->n.nruns);
	if (!isnan(sd))
		r->runs_needed = stats_runs_needed(sd, opts->target_pct,
						   opts->alpha, power,
						   CMP_MAX_RUNS_NEEDED);
}

int cmp_judge(struct cmp_row *r, const struct cmp_opts *opts)
{
	if (r->b.s.median != 0.0)
		r->change_pct = 100.0 * (r->n.s.median / r->b.s.median - 1.0);
	r->by_run = r->b.nruns >= CMP_MIN_RUNS && r->n.nruns >= CMP_MIN_RUNS;
	r->welch.p = NAN;
	if (r->by_run) {
		struct hier_side hb, hn;

		hier_of(&r->b, &hb);
		hier_of(&r->n, &hn);
		if (stats_welch_log(r->b.run_med, r->b.nruns, r->n.run_med,
				    r->n.nruns, &r->welch) != 0) {
			/* a median <= 0: no log; the run medians by rank */
			r->by_run = false;
		} else if (hier_change_ci(&hb, &hn, COMPARE_BOOTSTRAP_ITERS,
					  COMPARE_BOOTSTRAP_SEED, 0.95,
					  &r->ci_lo, &r->ci_hi) != 0) {
			return -1;
		}
		r->p = r->welch.p;
	}
	if (!r->by_run) {
		if (stats_mann_whitney(r->b.x, r->b.n, r->n.x, r->n.n,
				       &r->mw) != 0 ||
		    stats_change_ci(r->b.x, r->b.n, r->n.x, r->n.n,
				    COMPARE_BOOTSTRAP_ITERS,
				    COMPARE_BOOTSTRAP_SEED, 0.95, &r->ci_lo,
				    &r->ci_hi) != 0)
			return -1;
		r->p = r->mw.p;
	}
	power_of(r, opts);
	if (cmp_modes_of(r, opts) != 0)
		return -1;
	r->verdict = stats_verdict(r->direction, r->change_pct, r->p,
				   r->ci_lo, r->ci_hi, opts->alpha,
				   opts->noise_pct);
	return 0;
}

bool cmp_run_emulated(const struct run_data *run)
{
	const char *v = env_get(&run->env, "virt.emulated");

	return v && strncmp(v, "yes", 3) == 0;
}

static size_t count_emulated(const struct cmp_side *side)
{
	size_t i, n = 0;

	for (i = 0; i < side->nruns; i++)
		n += side->runs[i].results.n && cmp_run_emulated(
			&side->runs[i]);
	return n;
}

double cmp_no_change_beyond(const struct cmp_row *row)
{
	if (isnan(row->ci_lo) || isnan(row->ci_hi))
		return NAN;
	return fabs(row->ci_lo) > fabs(row->ci_hi) ? fabs(row->ci_lo)
						   : fabs(row->ci_hi);
}

int cmp_build(struct cmp *c, const struct cmp_opts *opts)
{
	size_t cap = 0, i;

	c->opts = *opts;
	cmp_side_count_boots(&c->base);
	cmp_side_count_boots(&c->new);
	if (prepare_side(&c->base, opts, &c->match_base) != 0 ||
	    prepare_side(&c->new, opts, &c->match_new) != 0)
		return -1;
	if (collect_keys(c, &c->base, c->match_base, true, &cap) != 0 ||
	    collect_keys(c, &c->new, c->match_new, false, &cap) != 0)
		return -1;
	sort_rows(c);
	c->emulated_base = count_emulated(&c->base);
	c->emulated_new = count_emulated(&c->new);
	for (i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];

		r->change_pct = r->ci_lo = r->ci_hi = NAN;
		r->mw.p = r->p = r->welch.p = r->mde_pct = NAN;
		r->runs_needed = -1;
		r->verdict = r->direction ? VERDICT_SAME : VERDICT_INFO;
		if (r->in_base && cmp_gather(&r->b, &c->base, c->match_base, r,
					 opts->drop_noisy) != 0)
			return -1;
		if (r->in_new && cmp_gather(&r->n, &c->new, c->match_new, r,
					opts->drop_noisy) != 0)
			return -1;
		if (!r->in_base || !r->in_new)
			continue;
		if (!r->b.n || !r->n.n) {
			r->verdict = VERDICT_EMPTY;
			continue;
		}
		if (cmp_judge(r, opts) != 0)
			return -1;
		/* the numbers stay; the verdict would judge the emulator */
		if ((c->emulated_base || c->emulated_new) &&
		    !opts->allow_emulated && r->verdict != VERDICT_INFO)
			r->verdict = VERDICT_WITHHELD;
	}
	if (cmp_limits(c, opts) != 0)
		return -1;
	return cmp_env_diff(c);
}

void cmp_val_free(struct cmp_val *v)
{
	free(v->x);
	free(v->boots);
	free(v->run_med);
	free(v->run_start);
	free(v->run_len);
	free(v->run_boot);
}

void cmp_free(struct cmp *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		cmp_val_free(&c->rows[i].b);
		cmp_val_free(&c->rows[i].n);
		free(c->rows[i].hist.runs);
	}
	free(c->rows);
	for (i = 0; i < c->nenvd; i++) {
		free(c->envd[i].base);
		free(c->envd[i].new);
	}
	free(c->envd);
	free_matches(&c->base, c->match_base);
	free_matches(&c->new, c->match_new);
	c->rows = NULL;
	c->nrows = 0;
	c->envd = NULL;
	c->nenvd = 0;
	c->match_base = c->match_new = NULL;
}

void cmp_count(const struct cmp *c, struct cmp_counts *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new)
			continue;
		out->compared++;
		if (r->same_reading_as) {
			out->same_reading++;
			continue;
		}
		out->better += r->verdict == VERDICT_BETTER;
		out->worse += r->verdict == VERDICT_WORSE;
		out->same += r->verdict == VERDICT_SAME;
		out->info += r->verdict == VERDICT_INFO;
		out->empty += r->verdict == VERDICT_EMPTY;
		out->withheld += r->verdict == VERDICT_WITHHELD;
		out->cannot_tell += r->verdict == VERDICT_CANNOT_TELL;
	}
}
