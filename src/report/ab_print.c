/*
 * ab_print.c - a paired A/B run as text and JSON (see ab_print.h).
 */
#include "report/ab_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/notes.h"
#include "report/profile_diff_print.h"

static const char *verdict_word(const struct ab_row *r)
{
	return r->verdict == VERDICT_INFO ? "info" :
	       stats_verdict_name(r->verdict);
}

static void print_row(FILE *out, const struct ab_row *r)
{
	char am[32], bm[32], chg[16], p[16], ci[40];
	char cchg[16], cp[16], cci[40];
	const char *label;
	double div;

	label = fmt_scale(r->median[AB_ROLE_A], r->unit, &div);
	fmt_number(r->median[AB_ROLE_A] / div, am, sizeof(am));
	/*
	 * The B column is what the %change says of A's median, so that
	 * A x (1 + %change) = B reads true on screen; B's own median is
	 * in the JSON (b_median) and in show.
	 */
	fmt_number(r->median[AB_ROLE_A] * (1 + r->change_pct / 100) / div,
		   bm, sizeof(bm));
	fmt_change(r->change_pct, chg, sizeof(chg));
	fmt_p(r->p, p, sizeof(p));
	fmt_ci(r->ci_lo_pct, r->ci_hi_pct, ci, sizeof(ci));
	fprintf(out, "  %-13.13s %7s %7s %7s %-6s %6s %-11s %s\n", r->metric,
		am, chg, bm, label, p, ci, verdict_word(r));
	fmt_change(r->ctl_change_pct, cchg, sizeof(cchg));
	fmt_p(r->ctl_p, cp, sizeof(cp));
	fmt_ci(r->ctl_ci_lo_pct, r->ctl_ci_hi_pct, cci, sizeof(cci));
	fprintf(out, "    A'/A control        %7s %7s %-6s %6s %s\n", cchg, "",
		"", cp, cci);
	if (r->same_reading_as)
		fprintf(out, "    the same reading as %s: counted once\n",
			r->same_reading_as);
	else if (r->reason[0]) {
		char line[300];

		snprintf(line, sizeof(line), "%s: %s", verdict_word(r),
			 r->reason);
		fmt_wrap(out, 4, 6, line);
	}
}

void ab_print_text(FILE *out, const struct ab_header *h,
		   const struct ab_analysis *a)
{
	size_t rounds = a->n ? a->rows[0].rounds + a->rows[0].dropped : 0;
	size_t i;

	fprintf(out, "copyscope ab %s", h->workload);
	if (h->run_id > 0)
		fprintf(out, " (run %lld)", (long long)h->run_id);
	if (h->stopped_why) {
		char line[400];

		fprintf(out, ": stopped after %zu of %d rounds of A, B and "
			"A', each in a new order\n", rounds, h->rounds_asked);
		snprintf(line, sizeof(line), "stopped: %s; the others cannot "
			 "be paired without it", h->stopped_why);
		fmt_wrap(out, 2, 4, line);
	} else if (h->interrupted)
		fprintf(out, ": interrupted after %zu of %d rounds of A, B "
			"and A', each in a new order\n", rounds,
			h->rounds_asked);
	else
		fprintf(out, ": %zu rounds of A, B and A', each in a new "
			"order\n", rounds);
	fprintf(out, "  seed %s\n", h->seed ? h->seed : "?");
	if (h->hw[0])
		fmt_wrap(out, 2, 4, h->hw);
	if (h->both && *h->both) {
		char line[1100];

		snprintf(line, sizeof(line), "both: %s %s", h->workload,
			 h->both);
		fmt_wrap(out, 2, 8, line);
	}
	fprintf(out, "  A:  %s\n", h->a && *h->a ? h->a : "(defaults)");
	if (h->a_settings && *h->a_settings)
		fmt_wrap(out, 6, 6, h->a_settings);
	fprintf(out, "  B:  %s\n", h->b && *h->b ? h->b : "(defaults)");
	if (h->b_settings && *h->b_settings)
		fmt_wrap(out, 6, 6, h->b_settings);
	if (h->precision_pct > 0)
		fprintf(out, "  precision: +-%.1f%% asked, +-%.1f%% reached; "
			"%d looks, each at alpha %.3g\n", h->precision_pct,
			h->precision_reached_pct, h->looks,
			h->alpha / (h->looks > 0 ? h->looks : 1));
	if (a->n && a->rows[0].disturbed) {
		char line[200];

		snprintf(line, sizeof(line), "%zu of %zu rounds had a sample "
			 "flagged as disturbed%s", a->rows[0].disturbed,
			 rounds, a->rows[0].dropped ?
			 " (left out: --drop-noisy)" :
			 " (kept: A, B and A' of a round share what "
			 "disturbed it; --drop-noisy leaves them out)");
		fmt_wrap(out, 2, 4, line);
	}
	fprintf(out, "\n  %-13s %7s %7s %7s %-6s %6s %-11s %s\n", "metric",
		"A", "%change", "A*(1+%)", "unit", "p", "95% CI", "verdict");
	for (i = 0; i < a->n; i++)
		print_row(out, &a->rows[i]);
	fprintf(out, "\n%zu judged: %zu worse, %zu better, %zu ~, %zu cannot "
		"tell", a->worse + a->better + a->same + a->cannot_tell,
		a->worse, a->better, a->same, a->cannot_tell);
	if (!isnan(h->elapsed_s))
		fprintf(out, "; %.1f s", h->elapsed_s);
	fprintf(out, "\n");
	{
		char line[400];

		snprintf(line, sizeof(line), "(A: the median of A's samples; "
			 "%%change: B against the A and A' of its own round, "
			 "the Hodges-Lehmann estimate over the rounds, with "
			 "its CI and the Wilcoxon signed-rank p; A*(1+%%): "
			 "the B that change implies.  A verdict needs p < "
			 "%g and the CI beyond +-%g%% and beyond the A'/A "
			 "control's CI)",
			 h->alpha / (h->looks > 0 ? h->looks : 1),
			 h->noise_pct);
		fmt_wrap(out, 0, 1, line);
	}
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ratios(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && v && i < n; i++)
		json_array_append_new(a, num(v[i]));
	return a;
}

static json_t *row_json(const struct ab_row *r)
{
	return json_pack("{s:s,s:s,s:i,s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o,"
			 "s:[o,o],s:o,s:s,s:s,s:s?,s:{s:o,s:[o,o],s:o},s:o,"
			 "s:o,s:o}",
		"metric", r->metric, "unit", r->unit,
		"direction", r->direction,
		"rounds", (json_int_t)r->rounds,
		"disturbed", (json_int_t)r->disturbed,
		"dropped", (json_int_t)r->dropped,
		"a_median", num(r->median[AB_ROLE_A]),
		"b_median", num(r->median[AB_ROLE_B]),
		"a2_median", num(r->median[AB_ROLE_A2]),
		"change_pct", num(r->change_pct),
		"b_implied", num(r->median[AB_ROLE_A] * (1 + r->change_pct / 100)),
		"ci", num(r->ci_lo_pct), num(r->ci_hi_pct),
		"p", num(r->p),
		"verdict", r->verdict == VERDICT_INFO ? "info" :
			   stats_verdict_name(r->verdict),
		"reason", r->reason,
		"same_reading_as", r->same_reading_as,
		"control", "change_pct", num(r->ctl_change_pct),
			   "ci", num(r->ctl_ci_lo_pct), num(r->ctl_ci_hi_pct),
			   "p", num(r->ctl_p),
		"band_pct", num(r->band_pct),
		"ratios_pct", ratios(r->ratio_pct, r->rounds),
		"control_ratios_pct", ratios(r->ctl_ratio_pct, r->rounds));
}

json_t *ab_json(const struct ab_header *h, const struct ab_analysis *a)
{
	json_t *o, *rows = json_array();
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < a->n; i++)
		json_array_append_new(rows, row_json(&a->rows[i]));
	o = json_pack("{s:s,s:I,s:s,s:s,s:o,s:s,s:s,s:s,s:o,s:o,s:i,s:o,s:o,"
		      "s:I,s:i,s:b,s:o,s:{s:I,s:I,s:I,s:I},s:o}",
		"workload", h->workload, "run", (json_int_t)h->run_id,
		"a", h->a ? h->a : "", "b", h->b ? h->b : "",
		"both", h->both ? json_string(h->both) : json_null(),
		"a_settings", h->a_settings ? h->a_settings : "",
		"b_settings", h->b_settings ? h->b_settings : "",
		"seed", h->seed ? h->seed : "",
		"alpha", num(h->alpha), "noise_pct", num(h->noise_pct),
		"looks", h->looks,
		"precision_pct", num(h->precision_pct),
		"elapsed_s", num(h->elapsed_s),
		"rounds", (json_int_t)(a->n ? a->rows[0].rounds +
				       a->rows[0].dropped : 0),
		"rounds_asked", h->rounds_asked,
		"interrupted", h->interrupted,
		"stopped", h->stopped_why ? json_string(h->stopped_why) :
			   json_null(),
		"counts", "worse", (json_int_t)a->worse,
			  "better", (json_int_t)a->better,
			  "same", (json_int_t)a->same,
			  "cannot_tell", (json_int_t)a->cannot_tell,
		"rows", rows);
	return o;
}

/* The header of a stored ab run, from its info and environment. */
static void stored_header(const struct run_info *run, const struct env *env,
			  const struct ab_opts *o, char *seed, size_t seedlen,
			  struct ab_header *h)
{
	const char *prec = env_get(env, "ab.precision_pct");

	memset(h, 0, sizeof(*h));
	snprintf(seed, seedlen, "%llu",
		 (unsigned long long)run->opts.interleave_seed);
	h->run_id = run->id;
	h->a = env_get(env, "ab.a");
	h->both = env_get(env, "ab.both");
	h->b = env_get(env, "ab.b");
	h->a_settings = env_get(env, "ab.a_settings");
	h->b_settings = env_get(env, "ab.b_settings");
	h->seed = seed;
	h->looks = o->looks;
	h->alpha = o->alpha;
	h->noise_pct = o->noise_pct;
	h->precision_pct = prec ? strtod(prec, NULL) : 0;
	h->precision_reached_pct = NAN;
	h->elapsed_s = NAN;
	h->rounds_asked = run->opts.reps;
	h->interrupted = strcmp(run->status, "interrupted") == 0;
	if (strcmp(run->status, "failed") == 0)
		h->stopped_why = "the run failed";
	report_hw_line(env, h->hw, sizeof(h->hw));
}

/* Judge a stored ab run; 0, or -1 with a message in err. */
static int judge_stored(const struct run_info *run, const struct env *env,
			const struct result *res, size_t n, struct ab_opts *o,
			struct ab_analysis *a, char *err, size_t errlen)
{
	ab_opts_from_run(run, env, o);
	return ab_analyze(res, n, o, a, err, errlen);
}

/* A profiled ab run's profile diff (--kernel profile), after its
   table.  0, or -1 on ENOMEM. */
static int print_stored_pdiff(FILE *out, const struct result *res,
			      size_t n, bool drop_noisy)
{
	struct pdiff d;
	int rc = pdiff_ab(res, n, drop_noisy, &d);

	if (rc == 0) {
		fprintf(out, "\n");
		report_profile_diff(out, &d, 0);
	}
	pdiff_free(&d);
	return rc < 0 ? -1 : 0;
}

/* The same as "profile_diff" and "profile_diff_summary" of j. */
static int stored_pdiff_json(json_t *j, const struct result *res, size_t n,
			     bool drop_noisy)
{
	struct pdiff d;
	int rc = pdiff_ab(res, n, drop_noisy, &d);

	if (rc == 0 &&
	    (json_object_set_new(j, "profile_diff",
				 profile_diff_rows_json(&d)) != 0 ||
	     json_object_set_new(j, "profile_diff_summary",
				 profile_diff_json(&d)) != 0))
		rc = -1;
	pdiff_free(&d);
	return rc < 0 ? -1 : 0;
}

int ab_print_stored(FILE *out, const struct run_info *run,
		    const struct env *env, const struct result *res,
		    size_t n)
{
	struct ab_analysis a;
	struct ab_opts o;
	struct ab_header h;
	char seed[32], err[256] = "out of memory";

	if (judge_stored(run, env, res, n, &o, &a, err, sizeof(err)) != 0) {
		fprintf(out, "ab: %s\n", err);
		return -1;
	}
	stored_header(run, env, &o, seed, sizeof(seed), &h);
	h.workload = n ? res[0].cfg->workload : "?";
	ab_print_text(out, &h, &a);
	ab_analysis_free(&a);
	return print_stored_pdiff(out, res, n, o.drop_noisy);
}

json_t *ab_json_stored(const struct run_info *run, const struct env *env,
		       const struct result *res, size_t n)
{
	struct ab_analysis a;
	struct ab_opts o;
	struct ab_header h;
	char seed[32], err[256];
	json_t *j;

	if (judge_stored(run, env, res, n, &o, &a, err, sizeof(err)) != 0)
		return NULL;
	stored_header(run, env, &o, seed, sizeof(seed), &h);
	h.workload = n ? res[0].cfg->workload : "?";
	j = ab_json(&h, &a);
	ab_analysis_free(&a);
	if (j && stored_pdiff_json(j, res, n, o.drop_noisy) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

void ab_print_combined(FILE *out, const struct ab_combined *c,
		       const struct ab_opts *o)
{
	size_t i, k, nw = 0, nb = 0, ns = 0, nct = 0;
	char line[400];

	fprintf(out, "copyscope compare: %zu ab runs of %s, their rounds "
		"pooled\n", c->nruns, c->workload);
	fprintf(out, "  A:  %s\n  B:  %s\n", c->a && *c->a ? c->a :
		"(defaults)", c->b && *c->b ? c->b : "(defaults)");
	fprintf(out, "\n  %-13s %5s %6s %7s %6s %-11s %s\n", "metric", "runs",
		"rounds", "%change", "p", "95% CI", "verdict");
	for (i = 0; i < c->n; i++) {
		const struct ab_combined_row *r = &c->rows[i];
		char chg[16], p[16], ci[40];
		size_t used;

		fmt_change(r->change_pct, chg, sizeof(chg));
		fmt_p(r->p, p, sizeof(p));
		fmt_ci(r->ci_lo_pct, r->ci_hi_pct, ci, sizeof(ci));
		fprintf(out, "  %-13.13s %5zu %6zu %7s %6s %-11s %s\n",
			r->metric, r->nruns, r->rounds, chg, p, ci,
			r->verdict == VERDICT_INFO ? "info" :
			stats_verdict_name(r->verdict));
		used = (size_t)snprintf(line, sizeof(line), "each run:");
		for (k = 0; k < r->nruns && used < sizeof(line); k++)
			used += (size_t)snprintf(line + used,
						 sizeof(line) - used, " %+.1f%%",
						 r->run_change_pct[k]);
		if (used < sizeof(line))
			snprintf(line + used, sizeof(line) - used, "; A'/A "
				 "control %+.1f%%", r->ctl_change_pct);
		fmt_wrap(out, 4, 6, line);
		if (r->same_reading_as) {
			fprintf(out, "    the same reading as %s: counted "
				"once\n", r->same_reading_as);
			continue;
		}
		if (r->reason[0]) {
			snprintf(line, sizeof(line), "%s: %s",
				 stats_verdict_name(r->verdict), r->reason);
			fmt_wrap(out, 4, 6, line);
		}
		nw += r->verdict == VERDICT_WORSE;
		nb += r->verdict == VERDICT_BETTER;
		ns += r->verdict == VERDICT_SAME;
		nct += r->verdict == VERDICT_CANNOT_TELL;
	}
	fprintf(out, "\n%zu judged: %zu worse, %zu better, %zu ~, %zu cannot "
		"tell\n", nw + nb + ns + nct, nw, nb, ns, nct);
	snprintf(line, sizeof(line), "(the paired log ratios of every run's "
		 "rounds pooled: their median, a 95%% CI from a bootstrap of "
		 "runs and of rounds within runs, a signed-rank p over the "
		 "rounds; a verdict needs p < %g and the CI beyond +-%g%% and "
		 "beyond the pooled control)", o->alpha, o->noise_pct);
	fmt_wrap(out, 0, 1, line);
}

json_t *ab_combined_json(const struct ab_combined *c, const struct ab_opts *o)
{
	json_t *rows = json_array(), *doc;
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < c->n; i++) {
		const struct ab_combined_row *r = &c->rows[i];

		json_array_append_new(rows, json_pack(
			"{s:s,s:s,s:i,s:I,s:I,s:o,s:[o,o],s:o,s:s,s:s,s:s?,"
			"s:o,s:o}",
			"metric", r->metric, "unit", r->unit,
			"direction", r->direction,
			"runs", (json_int_t)r->nruns,
			"rounds", (json_int_t)r->rounds,
			"change_pct", num(r->change_pct),
			"ci", num(r->ci_lo_pct), num(r->ci_hi_pct),
			"p", num(r->p),
			"verdict", r->verdict == VERDICT_INFO ? "info" :
				   stats_verdict_name(r->verdict),
			"reason", r->reason,
			"same_reading_as", r->same_reading_as,
			"control_change_pct", num(r->ctl_change_pct),
			"run_change_pct", ratios(r->run_change_pct,
						 r->nruns)));
	}
	doc = json_pack("{s:s,s:s,s:s,s:s,s:I,s:o,s:o,s:o}", "kind",
			"ab-combined", "workload", c->workload, "a",
			c->a ? c->a : "", "b", c->b ? c->b : "",
			"runs", (json_int_t)c->nruns, "alpha", num(o->alpha),
			"noise_pct", num(o->noise_pct), "rows", rows);
	return doc;
}

int ab_stored_judge(const struct run_info *run, const struct env *env,
		    const struct result *res, size_t n, struct ab_stored *s)
{
	memset(s, 0, sizeof(*s));
	if (judge_stored(run, env, res, n, &s->o, &s->a, s->err,
			 sizeof(s->err)) != 0) {
		if (!s->err[0])
			snprintf(s->err, sizeof(s->err), "out of memory");
		return -1;
	}
	stored_header(run, env, &s->o, s->seed, sizeof(s->seed), &s->h);
	s->h.workload = n ? res[0].cfg->workload : "?";
	return 0;
}

void ab_stored_free(struct ab_stored *s)
{
	ab_analysis_free(&s->a);
}
