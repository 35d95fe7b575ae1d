/*
 * html_plots_ab.c - a paired A/B run (`copyscope ab`) in the HTML report:
 * per metric whose verdict counts, the per-round %change of B against A
 * as dots and of the control A' against A beside them, with the
 * Hodges-Lehmann estimate and its 95% CI as lines, and the table `ab`
 * prints.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "comparison/ab_verdict.h"
#include "env/env.h"
#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"

static json_t *dots(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		if (isfinite(v[i]))
			json_array_append_new(a, json_pack("[I,f]",
							   (json_int_t)i + 1,
							   v[i]));
	return a;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void row_table(FILE *f, const struct ab_row *r)
{
	char a[64];

	fprintf(f, "<table><tr>");
	html_th(f, "metric");
	html_th(f, "A");
	html_th(f, "B");
	html_th(f, "%change");
	html_th(f, "95% CI");
	html_th(f, "p");
	html_th(f, "verdict");
	html_th(f, "A'/A control");
	html_th(f, "its CI");
	fprintf(f, "</tr>\n<tr>");
	html_td(f, r->metric);
	fmt_value(r->median[AB_ROLE_A], r->unit, a, sizeof(a));
	html_tdn(f, a);
	fmt_value(r->median[AB_ROLE_B], r->unit, a, sizeof(a));
	html_tdn(f, a);
	snprintf(a, sizeof(a), "%+.2f%%", r->change_pct);
	html_tdn(f, isfinite(r->change_pct) ? a : "-");
	snprintf(a, sizeof(a), "%+.2f..%+.2f", r->ci_lo_pct, r->ci_hi_pct);
	html_tdn(f, isfinite(r->ci_lo_pct) ? a : "-");
	if (r->p < 0.001)
		snprintf(a, sizeof(a), "<0.001");
	else
		snprintf(a, sizeof(a), "%.3f", r->p);
	html_tdn(f, isfinite(r->p) ? a : "-");
	html_td(f, r->verdict == VERDICT_INFO ? "info" :
		stats_verdict_name(r->verdict));
	snprintf(a, sizeof(a), "%+.2f%%", r->ctl_change_pct);
	html_tdn(f, isfinite(r->ctl_change_pct) ? a : "-");
	snprintf(a, sizeof(a), "%+.2f..%+.2f", r->ctl_ci_lo_pct,
		 r->ctl_ci_hi_pct);
	html_tdn(f, isfinite(r->ctl_ci_lo_pct) ? a : "-");
	fprintf(f, "</tr></table>\n");
	if (r->reason[0]) {
		fprintf(f, "<p>");
		html_text(f, r->reason);
		fprintf(f, "</p>\n");
	}
}

/* "A: segs=8" and the like, from the run's ab.* keys. */
static void side_line(FILE *f, const char *label, const struct env *env,
		      const char *params_key, const char *settings_key)
{
	const char *p = env_get(env, params_key);
	const char *s = settings_key ? env_get(env, settings_key) : NULL;

	fprintf(f, "<li><b>");
	html_text(f, label);
	fprintf(f, "</b>: ");
	html_text(f, p && *p ? p : "(defaults)");
	if (s && *s) {
		fprintf(f, "; ");
		html_text(f, s);
	}
	fprintf(f, "</li>\n");
}

void html_ab_summary(FILE *f, const struct run_info *run,
		     const struct env *env, const struct result *res,
		     size_t n)
{
	struct ab_analysis a;
	struct ab_opts o;
	char err[256], v[64];
	size_t i;

	if (!env || !ab_env_is_ab(env))
		return;
	ab_opts_from_run(run, env, &o);
	if (ab_analyze(res, n, &o, &a, err, sizeof(err)) != 0)
		return;		/* html_ab_plot says why */
	fprintf(f, "<h3>ab: B against A, paired by round</h3>\n<ul>\n");
	if (env_get(env, "ab.both"))
		side_line(f, "both", env, "ab.both", NULL);
	side_line(f, "A", env, "ab.a", "ab.a_settings");
	side_line(f, "B", env, "ab.b", "ab.b_settings");
	fprintf(f, "<li><b>A'</b>: A again, the control</li>\n</ul>\n"
		"<table class=\"ab\"><tr>");
	html_th(f, "metric");
	html_th(f, "A");
	html_th(f, "%change");
	html_th(f, "A\u00d7(1+%)");
	html_th(f, "95% CI");
	html_th(f, "p");
	html_th(f, "verdict");
	fprintf(f, "</tr>\n");
	for (i = 0; i < a.n; i++) {
		const struct ab_row *r = &a.rows[i];

		fprintf(f, "<tr>");
		html_td(f, r->metric);
		fmt_value(r->median[AB_ROLE_A], r->unit, v, sizeof(v));
		html_tdn(f, v);
		snprintf(v, sizeof(v), "%+.2f%%", r->change_pct);
		html_tdn(f, isfinite(r->change_pct) ? v : "-");
		fmt_value(r->median[AB_ROLE_A] * (1 + r->change_pct / 100),
			  r->unit, v, sizeof(v));
		html_tdn(f, isfinite(r->change_pct) ? v : "-");
		snprintf(v, sizeof(v), "%+.2f..%+.2f", r->ci_lo_pct,
			 r->ci_hi_pct);
		html_tdn(f, isfinite(r->ci_lo_pct) ? v : "-");
		fmt_p(r->p, v, sizeof(v));
		html_tdn(f, v);
		html_td(f, r->same_reading_as ? "counted once" :
			r->verdict == VERDICT_INFO ? "info" :
			stats_verdict_name(r->verdict));
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n<p>A: the median of A's samples; %%change: "
		"B against the A and A' of its own round (Hodges-Lehmann over "
		"the rounds, its 95%% CI, Wilcoxon's p); A\u00d7(1+%%): the B "
		"that change implies. Per-round plots below.</p>\n");
	ab_analysis_free(&a);
}

int html_ab_plot(FILE *f, const struct run_info *run, const struct env *env,
		 const struct result *res, size_t n)
{
	struct ab_analysis a;
	struct ab_opts o;
	char err[256], title[LABEL_LEN];
	size_t i;
	int plots = 0;

	if (!env || !ab_env_is_ab(env))
		return 0;
	ab_opts_from_run(run, env, &o);
	if (ab_analyze(res, n, &o, &a, err, sizeof(err)) != 0) {
		fprintf(f, "<p class=\"flagged\">ab: ");
		html_text(f, err);
		fprintf(f, "</p>\n");
		return 0;
	}
	for (i = 0; i < a.n; i++) {
		const struct ab_row *r = &a.rows[i];

		if (r->same_reading_as || r->rounds == 0)
			continue;
		snprintf(title, sizeof(title), "ab %s: %s, per-round %%change "
			 "of B against A (dots) and of the control A' against "
			 "A, with the estimate and its 95%% CI", res[0].cfg->workload,
			 r->metric);
		html_figure(f, "ab", title, 260, json_pack(
			"{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:s}",
			"ylabel", "%change",
			"ratios", dots(r->ratio_pct, r->rounds),
			"control", dots(r->ctl_ratio_pct, r->rounds),
			"estimate", num_or_null(r->change_pct),
			"lo", num_or_null(r->ci_lo_pct),
			"hi", num_or_null(r->ci_hi_pct),
			"ctl_estimate", num_or_null(r->ctl_change_pct),
			"rounds", json_integer((json_int_t)r->rounds),
			"verdict", r->verdict == VERDICT_INFO ? "info" :
				   stats_verdict_name(r->verdict)));
		row_table(f, r);
		html_end_figure(f);
		plots++;
	}
	ab_analysis_free(&a);
	return plots;
}
