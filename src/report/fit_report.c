/*
 * fit_report.c - least-squares fits under a sweep (see fit_report.h).
 *
 * A workload's descriptor names the swept parameter and the metric to
 * fit (struct wl_fit): metric = fixed + slope x parameter.  Each
 * configuration is one point, (parameter value, median of its samples).
 * Points are weighted by
 * 1 / median^2, so each counts by its relative error: the spread of a
 * timing grows with its size (the CV stays roughly constant), and an
 * unweighted fit over 1 .. 1024 segments would let the noise of the
 * largest points decide the fixed cost.  R^2 is that of the weighted fit.
 *
 * Output, under the block:
 *     least-squares fit over segs (4 points): time/call = 222 ns + 20.1 ns
 *       x segs, R² 0.9998
 * or, when other parameters vary too, a table with one row per group:
 *     least-squares fit over segs: time/call = fixed + per segment x segs
 *       call     target      fixed  per segment      R²  points
 *       preadv   zero       222 ns      20.1 ns  0.9998       4
 */
#include "report/fit_report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "core/workload.h"
#include "report/format.h"
#include "stats/fit.h"
#include "stats/summary.h"

/* The text of parameter key of a point's configuration ("" if none). */
static const char *param_text(const struct result_config *c, const char *key)
{
	const char *s = result_param(c, key);

	return s ? s : "";
}

static void fmt_r2(const struct fit_line *f, char *buf, size_t len)
{
	if (f->n < 3)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4f", f->r2);
}

/* "18.2 GiB/s" for a group's per-byte rate; empty when there is none. */
static void fmt_rate(const struct fit_group *g, char *buf, size_t len)
{
	buf[0] = '\0';
	if (g->rate_bps > 0)
		fmt_value(g->rate_bps, "bytes/s", buf, len);
}

/* Fit the points of one group, weighted by 1 / y^2 when all y > 0. */
static void fit_group(struct fit_group *g, const struct wl_fit *rule,
		      const char *unit)
{
	double *w = calloc(g->n ? g->n : 1, sizeof(*w));
	bool positive = true;
	size_t i;

	if (!w)
		return;
	for (i = 0; i < g->n; i++) {
		positive &= g->y[i] > 0;
		w[i] = positive ? 1.0 / (g->y[i] * g->y[i]) : 1.0;
	}
	g->fitted = fit_linear(g->x, g->y, positive ? w : NULL, g->n,
			       &g->line) == 0;
	free(w);
	if (g->fitted && rule->bytes && strcmp(unit, "ns") == 0 &&
	    g->line.b > 0)
		g->rate_bps = 1e9 / g->line.b;
}

void fit_set_free(struct fit_set *fs)
{
	size_t g;

	for (g = 0; g < fs->ngroups; g++) {
		free(fs->groups[g].x);
		free(fs->groups[g].y);
		free(fs->groups[g].res);
	}
	free(fs->groups);
	memset(fs, 0, sizeof(*fs));
}

/* Does point i have the same label values as group g? */
static bool in_group(const struct fit_set *fs, const struct fit_group *g,
		     const struct result_config *c)
{
	size_t k;

	for (k = 0; k < fs->nlabel; k++)
		if (strcmp(g->label_value[k], param_text(c, fs->label[k])) != 0)
			return false;
	return true;
}

static int add_point(struct fit_set *fs, const struct result *r, double x)
{
	struct fit_group *g = NULL;
	size_t i, k;

	for (i = 0; i < fs->ngroups && !g; i++)
		if (in_group(fs, &fs->groups[i], r->cfg))
			g = &fs->groups[i];
	if (!g) {
		g = realloc(fs->groups, (fs->ngroups + 1) * sizeof(*g));
		if (!g)
			return -1;
		fs->groups = g;
		g = &fs->groups[fs->ngroups++];
		memset(g, 0, sizeof(*g));
		for (k = 0; k < fs->nlabel; k++)
			g->label_value[k] = param_text(r->cfg, fs->label[k]);
	}
	{
		double *nx = realloc(g->x, (g->n + 1) * sizeof(double));
		double *ny;
		const struct result **nr;

		if (!nx)
			return -1;
		g->x = nx;
		ny = realloc(g->y, (g->n + 1) * sizeof(double));
		if (!ny)
			return -1;
		g->y = ny;
		nr = realloc(g->res, (g->n + 1) * sizeof(void *));
		if (!nr)
			return -1;
		g->res = nr;
	}
	g->x[g->n] = x;
	g->y[g->n] = r->summary.median;
	g->res[g->n] = r;
	g->n++;
	return 0;
}

/* Is r a point of rule's fit?  Its x into *x. */
static bool is_point(const struct result *r, const char *workload,
		     const struct wl_fit *rule, double *x)
{
	const struct result_param *p;

	if (strcmp(r->cfg->workload, workload) != 0 ||
	    strcmp(r->metric, rule->metric) != 0 || !r->nsamples || r->trace)
		return false;
	/* a count or a size, never negative */
	p = result_param_find(r->cfg, rule->param);
	if (!p || !p->has_v || p->v < 0 ||
	    (p->def && p->def->type != PARAM_INT &&
	     p->def->type != PARAM_SIZE))
		return false;
	*x = (double)p->v;
	return true;
}

int fit_report_compute(const struct result *res, size_t n,
		       struct fit_set *out)
{
	const struct workload *wl = n ? res[0].cfg->wl : NULL;
	const struct result_config *first = NULL;
	const struct wl_fit *rule;
	const char *unit = NULL;
	double x, x0 = 0;
	bool x_varies = false;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	if (!wl || !wl->fit)
		return 0;
	rule = wl->fit;
	for (i = 0; i < n; i++) {
		if (!is_point(&res[i], wl->name, rule, &x))
			continue;
		if (!first) {
			first = res[i].cfg;
			x0 = x;
		}
		x_varies |= x != x0;
		if (unit && strcmp(unit, res[i].unit) != 0)
			unit = "";	/* mixed units: no fit */
		else if (!unit)
			unit = res[i].unit;
	}
	if (!x_varies || !unit || !*unit)
		return 0;
	/* the other parameters that vary label the groups */
	for (k = 0; k < first->nparams && out->nlabel < FIT_MAX_LABEL; k++) {
		const char *name = first->params[k].name;
		bool varies = false;

		if (strcmp(name, rule->param) == 0)
			continue;
		for (i = 0; i < n && !varies; i++)
			varies = is_point(&res[i], wl->name, rule, &x) &&
				 strcmp(param_text(res[i].cfg, name),
					param_text(first, name)) != 0;
		if (varies)
			out->label[out->nlabel++] = name;
	}
	for (i = 0; i < n; i++)
		if (is_point(&res[i], wl->name, rule, &x) &&
		    add_point(out, &res[i], x) != 0) {
			fit_set_free(out);
			return -1;
		}
	for (i = 0; i < out->ngroups; i++)
		fit_group(&out->groups[i], rule, unit);
	out->rule = rule;
	out->workload = wl->name;
	out->unit = unit;
	return 0;
}

static void print_single(FILE *out, const struct wl_fit *rule,
			 const struct fit_group *g, const char *unit)
{
	const struct fit_line *f = &g->line;
	char a[32], b[32], r2[16], rate[32], text[320];

	fmt_value(f->a, unit, a, sizeof(a));
	/* "a - 0.000035 ns x size", not "a + -0.000035 ns x size" */
	fmt_value(fabs(f->b), unit, b, sizeof(b));
	fmt_r2(f, r2, sizeof(r2));
	fmt_rate(g, rate, sizeof(rate));
	snprintf(text, sizeof(text), "least-squares fit over %s (%zu "
		 "points): %s = %s %c %s x %s%s%s%s, %s%s", rule->param,
		 f->n, rule->metric, a, f->b < 0 ? '-' : '+', b, rule->param,
		 *rate ? " (" : "",
		 rate, *rate ? ")" : "", f->n < 3 ? "the line through both, "
		 "no R²" : "R² ", f->n < 3 ? "" : r2);
	fmt_wrap(out, 4, 6, text);
}

static void print_table(FILE *out, const struct fit_set *fs)
{
	const struct wl_fit *rule = fs->rule;
	size_t width[FIT_MAX_LABEL], g, k;
	char text[256];

	for (k = 0; k < fs->nlabel; k++) {
		width[k] = strlen(fs->label[k]);
		for (g = 0; g < fs->ngroups; g++)
			if (strlen(fs->groups[g].label_value[k]) > width[k])
				width[k] = strlen(fs->groups[g].label_value[k]);
	}
	snprintf(text, sizeof(text), "least-squares fit over %s: "
		 "%s = fixed + per %s x %s", rule->param,
		 rule->metric, rule->per, rule->param);
	fmt_wrap(out, 4, 6, text);
	fprintf(out, "      ");
	for (k = 0; k < fs->nlabel; k++)
		fprintf(out, "%-*s  ", (int)width[k], fs->label[k]);
	fprintf(out, "%9s %12s", "fixed", rule->bytes ? "per byte" : "per "
		"segment");
	if (rule->bytes)
		fprintf(out, " %12s", "bytes/s");
	fprintf(out, " %8s %7s\n", "R²", "points");
	for (g = 0; g < fs->ngroups; g++) {
		const struct fit_group *gr = &fs->groups[g];
		char a[32], b[32], r2[16], rate[32];

		fprintf(out, "      ");
		for (k = 0; k < fs->nlabel; k++)
			fprintf(out, "%-*s  ", (int)width[k],
				gr->label_value[k]);
		if (!gr->fitted) {
			fprintf(out, "(one %s only: no fit)\n", rule->param);
			continue;
		}
		fmt_value(gr->line.a, fs->unit, a, sizeof(a));
		fmt_value(gr->line.b, fs->unit, b, sizeof(b));
		fmt_r2(&gr->line, r2, sizeof(r2));
		fmt_rate(gr, rate, sizeof(rate));
		fprintf(out, "%9s %12s", a, b);
		if (rule->bytes)
			fprintf(out, " %12s", *rate ? rate : "-");
		/* the heading's "R²" is 3 bytes in 2 columns: %8s there
		   lines up with %7s here */
		fprintf(out, " %7s %7zu\n", r2, gr->line.n);
	}
}

void fit_report_block(FILE *out, const struct result *res, size_t n)
{
	struct fit_set fs;

	if (fit_report_compute(res, n, &fs) != 0 || !fs.rule)
		return;
	if (fs.ngroups == 1) {
		if (fs.groups[0].fitted)
			print_single(out, fs.rule, &fs.groups[0], fs.unit);
	} else {
		print_table(out, &fs);
	}
	fit_set_free(&fs);
}
