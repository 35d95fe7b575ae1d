/*
 * ab_verdict.c - the paired A/B analysis of one run (see ab_verdict.h for
 * the method and the verdict rule).
 */
#include "comparison/ab_verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired.h"

/* % change of a log ratio. */
static double pct(double log_ratio)
{
	return (exp(log_ratio) - 1) * 100;
}

/* The result of configuration cfg with this metric, or NULL. */
static const struct result *find_metric(const struct result *res, size_t n,
					const struct result_config *cfg,
					const char *metric)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (res[i].cfg == cfg && !res[i].trace && !res[i].traced &&
		    strcmp(res[i].metric, metric) == 0)
			return &res[i];
	return NULL;
}

/* The (first) configuration of job `job`, or NULL. */
static const struct result_config *config_of_job(const struct result *res,
						 size_t n, int job)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (res[i].cfg->job == job)
			return res[i].cfg;
	return NULL;
}

static bool flagged(const struct result *r, size_t k)
{
	const struct result_load *l = r->cfg->load;

	return l && l->flags && k < r->cfg->nsamples && l->flags[k] != 0;
}

double ab_ci_halfwidth_pct(const double *a, const double *b,
			   const double *a2, size_t rounds, double conf,
			   double *ctl_pct)
{
	struct paired_result pr;
	double *d = malloc((rounds ? rounds : 1) * 2 * sizeof(*d)), *c, hw;
	size_t k;

	*ctl_pct = NAN;
	if (!d || rounds < 2) {
		free(d);
		return NAN;
	}
	c = d + rounds;
	for (k = 0; k < rounds; k++) {
		if (!(a[k] > 0 && b[k] > 0 && a2[k] > 0)) {
			free(d);
			return NAN;
		}
		d[k] = log(b[k]) - (log(a[k]) + log(a2[k])) / 2;
		c[k] = log(a2[k]) - log(a[k]);
	}
	if (paired_signed_rank(c, rounds, conf, &pr) == 0)
		*ctl_pct = (pct(pr.ci_hi) - pct(pr.ci_lo)) / 2;
	if (paired_signed_rank(d, rounds, conf, &pr) != 0) {
		free(d);
		return NAN;
	}
	free(d);
	hw = (pct(pr.ci_hi) - pct(pr.ci_lo)) / 2;
	return hw;
}

/*
 * The rounds of row: the per-round log ratios d (B against A and A')
 * and c (A' against A), leaving out disturbed rounds when asked.
 * Returns the number kept, or (size_t)-1 when a value is not positive.
 */
static size_t round_ratios(struct ab_row *row, const struct ab_opts *o,
			   double *d, double *c)
{
	const struct result *a = row->res[AB_ROLE_A], *b = row->res[AB_ROLE_B],
			    *a2 = row->res[AB_ROLE_A2];
	size_t n = a->nsamples, k, m = 0;

	if (b->nsamples < n)
		n = b->nsamples;
	if (a2->nsamples < n)
		n = a2->nsamples;
	for (k = 0; k < n; k++) {
		double x = a->samples[k], y = b->samples[k],
		       z = a2->samples[k];
		bool dist = flagged(a, k) || flagged(b, k) || flagged(a2, k);

		if (!(x > 0 && y > 0 && z > 0) || !isfinite(x) ||
		    !isfinite(y) || !isfinite(z))
			return (size_t)-1;
		row->disturbed += dist;
		if (dist && o->drop_noisy) {
			row->dropped++;
			continue;
		}
		d[m] = log(y) - (log(x) + log(z)) / 2;
		c[m] = log(z) - log(x);
		row->ratio_pct[m] = pct(log(y) - log(x));
		row->ctl_ratio_pct[m] = pct(c[m]);
		m++;
	}
	return m;
}

/* Beyond the band on one side: +1 above, -1 below, 0 not. */
static int beyond(double lo, double hi, double band)
{
	return lo > band ? 1 : hi < -band ? -1 : 0;
}

/* Judge one row from its paired tests. */
static void judge(struct ab_row *row, const struct ab_opts *o,
		  const struct paired_result *pb,
		  const struct paired_result *pc)
{
	double ctl_band = fmax(fabs(row->ctl_ci_lo_pct),
			       fabs(row->ctl_ci_hi_pct));
	bool moved;
	int side;

	row->band_pct = fmax(o->noise_pct, ctl_band);
	row->bound_pct = fmax(fabs(row->ci_lo_pct), fabs(row->ci_hi_pct));
	if (row->direction == 0) {
		row->verdict = VERDICT_INFO;
		return;
	}
	if (pb->min_p >= row->alpha_used) {
		row->verdict = VERDICT_CANNOT_TELL;
		snprintf(row->reason, sizeof(row->reason),
			 "%zu rounds cannot reach p < %g (the smallest p of "
			 "%zu rounds is %.3g); take --rounds %zu or more",
			 pb->n_nonzero, row->alpha_used, pb->n_nonzero,
			 pb->min_p, paired_min_n(row->alpha_used));
		return;
	}
	moved = pc->p < row->alpha_used &&
		beyond(row->ctl_ci_lo_pct, row->ctl_ci_hi_pct, o->noise_pct);
	/*
	 * B's CI must clear the control's whole CI, not only its point
	 * (band_pct); where it does not and the control's CI reaches past
	 * the noise band, the rounds cannot separate two identical sides
	 * by that much, so "no change larger than" cannot be said either.
	 * A control that moved itself (A and its own copy differ) bounds
	 * what the pairing can be off by: B beyond its whole CI still
	 * differs by more than A from A, and says so.
	 */
	side = beyond(row->ci_lo_pct, row->ci_hi_pct, row->band_pct);
	if (pb->p < row->alpha_used && side != 0) {
		row->verdict = (side > 0) == (row->direction > 0) ?
			       VERDICT_BETTER : VERDICT_WORSE;
		if (moved)
			snprintf(row->reason, sizeof(row->reason),
				 "the A'/A control moved %+.1f%% (p %.3g), "
				 "and B's whole CI lies beyond the control's",
				 row->ctl_change_pct, pc->p);
		return;
	}
	if (moved) {
		row->verdict = VERDICT_CANNOT_TELL;
		snprintf(row->reason, sizeof(row->reason),
			 "the A'/A control moved %+.1f%% (p %.3g): A and its "
			 "copy differ, so the pairing did not hold%s",
			 row->ctl_change_pct, pc->p, o->hint_fresh ?
			 "; each side kept its workers, whose offset "
			 "--fresh-workers averages out" : "");
		return;
	}
	if (ctl_band > o->noise_pct) {
		row->verdict = VERDICT_CANNOT_TELL;
		snprintf(row->reason, sizeof(row->reason),
			 "the control moved %+.1f..%+.1f%% (A'/A, 95%% CI), "
			 "reaching past the +-%g%% noise band, and B's CI does "
			 "not clear it: more rounds%s a quieter machine "
			 "narrow it", row->ctl_ci_lo_pct, row->ctl_ci_hi_pct,
			 o->noise_pct, o->hint_fresh ? ", --fresh-workers or" :
			 " or");
		return;
	}
	row->verdict = VERDICT_SAME;
	snprintf(row->reason, sizeof(row->reason),
		 "no change larger than %.1f%%%s", row->bound_pct,
		 pb->p < row->alpha_used ?
		 " (significant, but within the noise band)" : "");
}

/* Fill row from its three results. */
static int analyze_row(struct ab_row *row, const struct ab_opts *o)
{
	size_t n = row->res[AB_ROLE_A]->nsamples, m;
	struct paired_result pb, pc;
	double *d, *c, conf;
	int i;

	for (i = 0; i < AB_NROLES; i++)
		row->median[i] = row->res[i]->summary.median;
	row->alpha_used = o->alpha / (o->looks > 1 ? o->looks : 1);
	conf = 1 - row->alpha_used;
	row->change_pct = row->ci_lo_pct = row->ci_hi_pct = row->p = NAN;
	row->ctl_change_pct = row->ctl_ci_lo_pct = row->ctl_ci_hi_pct = NAN;
	row->ctl_p = NAN;
	row->ratio_pct = calloc(n ? n : 1, sizeof(double));
	row->ctl_ratio_pct = calloc(n ? n : 1, sizeof(double));
	row->log_ratio = d = calloc(n ? n : 1, sizeof(*d));
	row->ctl_log_ratio = c = calloc(n ? n : 1, sizeof(*c));
	if (!row->ratio_pct || !row->ctl_ratio_pct || !d || !c)
		return -1;
	m = round_ratios(row, o, d, c);
	if (m == (size_t)-1 || m == 0 ||
	    paired_signed_rank(d, m, conf, &pb) != 0 ||
	    paired_signed_rank(c, m, conf, &pc) != 0) {
		row->rounds = m == (size_t)-1 ? 0 : m;
		row->verdict = row->direction == 0 ? VERDICT_INFO :
			       VERDICT_CANNOT_TELL;
		snprintf(row->reason, sizeof(row->reason), "%s",
			 m == (size_t)-1 ?
			 "a value is 0 or negative: no ratio" :
			 "no round left to test");
		return 0;
	}
	row->rounds = m;
	row->change_pct = pct(pb.hl);
	row->ci_lo_pct = pct(pb.ci_lo);
	row->ci_hi_pct = pct(pb.ci_hi);
	row->p = pb.p;
	row->ctl_change_pct = pct(pc.hl);
	row->ctl_ci_lo_pct = pct(pc.ci_lo);
	row->ctl_ci_hi_pct = pct(pc.ci_hi);
	row->ctl_p = pc.p;
	judge(row, o, &pb, &pc);
	return 0;
}

/* Count row's verdict once: rows of one window count by the first. */
static void count(struct ab_analysis *a, const struct ab_row *row)
{
	if (row->same_reading_as || row->direction == 0)
		return;
	if (row->verdict == VERDICT_WORSE)
		a->worse++;
	else if (row->verdict == VERDICT_BETTER)
		a->better++;
	else if (row->verdict == VERDICT_CANNOT_TELL)
		a->cannot_tell++;
	else
		a->same++;
}

int ab_analyze(const struct result *res, size_t nres,
	       const struct ab_opts *o, struct ab_analysis *out, char *err,
	       size_t errlen)
{
	const struct result_config *cfg[AB_NROLES];
	const char *first_window = NULL;
	size_t i;
	int k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < AB_NROLES; k++) {
		cfg[k] = config_of_job(res, nres, k);
		if (!cfg[k]) {
			snprintf(err, errlen, "the run has no configuration "
				 "%s: not a complete ab run",
				 k == AB_ROLE_A ? "A" : k == AB_ROLE_B ? "B" :
				 "A'");
			return -1;
		}
	}
	out->rows = calloc(nres ? nres : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (i = 0; i < nres; i++) {
		const struct result *r = &res[i];
		struct ab_row *row;

		if (r->cfg != cfg[AB_ROLE_A] || r->trace || r->traced)
			continue;
		row = &out->rows[out->n];
		row->res[AB_ROLE_A] = r;
		row->res[AB_ROLE_B] = find_metric(res, nres, cfg[AB_ROLE_B],
						  r->metric);
		row->res[AB_ROLE_A2] = find_metric(res, nres, cfg[AB_ROLE_A2],
						   r->metric);
		if (!row->res[AB_ROLE_B] || !row->res[AB_ROLE_A2])
			continue;
		row->metric = r->metric;
		row->unit = r->unit;
		row->direction = r->direction;
		if (result_window_reading(r)) {
			if (first_window)
				row->same_reading_as = first_window;
			else
				first_window = r->metric;
		}
		out->n++;
		if (analyze_row(row, o) != 0) {
			ab_analysis_free(out);
			return -1;
		}
		count(out, row);
	}
	return 0;
}

void ab_analysis_free(struct ab_analysis *a)
{
	size_t i;

	for (i = 0; a->rows && i < a->n; i++) {
		free(a->rows[i].ratio_pct);
		free(a->rows[i].ctl_ratio_pct);
		free(a->rows[i].log_ratio);
		free(a->rows[i].ctl_log_ratio);
	}
	free(a->rows);
	memset(a, 0, sizeof(*a));
}

bool ab_env_is_ab(const struct env *env)
{
	return env_get(env, AB_ENV_ROLES) != NULL;
}

/* The number at key, or def when missing or not a number. */
static double env_num(const struct env *env, const char *key, double def)
{
	const char *v = env_get(env, key);
	char *end;
	double x;

	if (!v || !*v)
		return def;
	x = strtod(v, &end);
	return *end || !isfinite(x) ? def : x;
}

void ab_opts_from_env(const struct env *env, struct ab_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = env_num(env, "ab.alpha", 0.05);
	o->noise_pct = env_num(env, "ab.noise_pct", AB_DEFAULT_NOISE_PCT);
	o->looks = (int)env_num(env, "ab.looks", 1);
	if (o->looks < 1)
		o->looks = 1;
	o->drop_noisy = env_num(env, "ab.drop_noisy", 0) != 0;
}

bool ab_could_refresh(const struct run_options *ro)
{
	return !ro->fresh_workers && !ro->kviews;
}

void ab_opts_from_run(const struct run_info *run, const struct env *env,
		      struct ab_opts *o)
{
	ab_opts_from_env(env, o);
	o->hint_fresh = run->have_options && ab_could_refresh(&run->opts);
}
