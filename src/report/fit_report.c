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

#define MAX_LABEL 4		/* other varying parameters shown per group */

/* One configuration: a point of the fit. */
struct point {
	double x, y;
	char *key;		/* "v1\tv2" of the other varying parameters */
	int group;
};

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

/* "(18.2 GiB/s)" for a per-byte slope in ns; empty when not positive. */
static void fmt_rate(const struct wl_fit *rule, const struct fit_line *f,
		     const char *unit, char *buf, size_t len)
{
	char v[32];

	buf[0] = '\0';
	if (!rule->bytes || strcmp(unit, "ns") != 0 || !(f->b > 0))
		return;
	fmt_value(1e9 / f->b, "bytes/s", v, sizeof(v));
	snprintf(buf, len, "%s", v);
}

/* Fit the points of one group; 0, or -1 with fewer than two x values. */
static int fit_group(const struct point *pts, size_t npts, int group,
		     struct fit_line *f)
{
	double *x = calloc(npts, sizeof(*x)), *y = calloc(npts, sizeof(*y));
	double *w = calloc(npts, sizeof(*w));
	bool positive = true;
	size_t i, n = 0;
	int rc = -1;

	if (!x || !y || !w)
		goto out;
	for (i = 0; i < npts; i++) {
		if (pts[i].group != group)
			continue;
		x[n] = pts[i].x;
		y[n] = pts[i].y;
		positive &= y[n] > 0;
		w[n] = positive ? 1.0 / (y[n] * y[n]) : 1.0;
		n++;
	}
	rc = fit_linear(x, y, positive ? w : NULL, n, f);
out:
	free(x);
	free(y);
	free(w);
	return rc;
}

static void print_single(FILE *out, const struct wl_fit *rule,
			 const struct fit_line *f, const char *unit)
{
	char a[32], b[32], r2[16], rate[32], text[320];

	fmt_value(f->a, unit, a, sizeof(a));
	/* "a - 0.000035 ns x size", not "a + -0.000035 ns x size" */
	fmt_value(fabs(f->b), unit, b, sizeof(b));
	fmt_r2(f, r2, sizeof(r2));
	fmt_rate(rule, f, unit, rate, sizeof(rate));
	snprintf(text, sizeof(text), "least-squares fit over %s (%zu "
		 "points): %s = %s %c %s x %s%s%s%s, %s%s", rule->param,
		 f->n, rule->metric, a, f->b < 0 ? '-' : '+', b, rule->param,
		 *rate ? " (" : "",
		 rate, *rate ? ")" : "", f->n < 3 ? "the line through both, "
		 "no R²" : "R² ", f->n < 3 ? "" : r2);
	fmt_wrap(out, 4, 6, text);
}

static void report_rule(FILE *out, const char *workload,
			const struct wl_fit *rule,
			const struct result *res, size_t n)
{
	const char *label[MAX_LABEL];
	size_t width[MAX_LABEL], nlabel = 0, npts = 0, i, k;
	struct point *pts = NULL;
	const struct result_config **params = NULL;
	const char *unit = NULL;
	int ngroups = 0, g;
	bool x_varies = false;

	pts = calloc(n, sizeof(*pts));
	params = calloc(n, sizeof(void *));	/* pointers */
	if (!pts || !params)
		goto out;
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		int64_t v;

		if (strcmp(r->cfg->workload, workload) != 0 ||
		    strcmp(r->metric, rule->metric) != 0 || !r->nsamples ||
		    r->trace)
			continue;
		/* counts and sizes are stored as "1024" or "64k" */
		if (param_parse_size(param_text(r->cfg, rule->param),
				     &v) != 0)
			continue;
		params[npts] = r->cfg;
		if (unit && strcmp(unit, r->unit) != 0)
			unit = "";	/* mixed units: no fit */
		else if (!unit)
			unit = r->unit;
		pts[npts].x = (double)v;
		pts[npts].y = r->summary.median;
		pts[npts].group = -1;
		x_varies |= npts > 0 && pts[npts].x != pts[0].x;
		npts++;
	}
	if (!x_varies || !unit || !*unit)
		goto out;
	/* the other parameters that vary label the groups */
	for (k = 0; k < params[0]->nparams && nlabel < MAX_LABEL; k++) {
		const char *name = params[0]->params[k].name;
		bool varies = false;

		if (strcmp(name, rule->param) == 0)
			continue;
		for (i = 1; i < npts && !varies; i++)
			varies = strcmp(param_text(params[i], name),
					param_text(params[0], name)) != 0;
		if (varies) {
			label[nlabel] = name;
			width[nlabel] = strlen(name);
			nlabel++;
		}
	}
	for (i = 0; i < npts; i++) {
		size_t len = 1;
		char *key;

		for (k = 0; k < nlabel; k++) {
			size_t w = strlen(param_text(params[i], label[k]));

			len += w + 1;
			if (w > width[k])
				width[k] = w;
		}
		key = calloc(1, len);
		if (!key)
			goto out;
		for (k = 0; k < nlabel; k++) {
			strcat(key, param_text(params[i], label[k]));
			strcat(key, "\t");
		}
		pts[i].key = key;
		for (k = 0; k < i; k++)
			if (strcmp(pts[k].key, key) == 0) {
				pts[i].group = pts[k].group;
				break;
			}
		if (pts[i].group < 0)
			pts[i].group = ngroups++;
	}
	if (ngroups == 1) {
		struct fit_line f;

		if (fit_group(pts, npts, 0, &f) == 0)
			print_single(out, rule, &f, unit);
		goto out;
	}
	{
		char text[256];

		snprintf(text, sizeof(text), "least-squares fit over %s: "
			 "%s = fixed + per %s x %s", rule->param,
			 rule->metric, rule->per, rule->param);
		fmt_wrap(out, 4, 6, text);
	}
	fprintf(out, "      ");
	for (k = 0; k < nlabel; k++)
		fprintf(out, "%-*s  ", (int)width[k], label[k]);
	fprintf(out, "%9s %12s", "fixed", rule->bytes ? "per byte" : "per "
		"segment");
	if (rule->bytes)
		fprintf(out, " %12s", "bytes/s");
	fprintf(out, " %8s %7s\n", "R²", "points");
	for (g = 0; g < ngroups; g++) {
		char a[32], b[32], r2[16], rate[32];
		struct fit_line f;
		size_t first = 0;

		while (pts[first].group != g)
			first++;
		fprintf(out, "      ");
		for (k = 0; k < nlabel; k++)
			fprintf(out, "%-*s  ", (int)width[k],
				param_text(params[first], label[k]));
		if (fit_group(pts, npts, g, &f) != 0) {
			fprintf(out, "(one %s only: no fit)\n", rule->param);
			continue;
		}
		fmt_value(f.a, unit, a, sizeof(a));
		fmt_value(f.b, unit, b, sizeof(b));
		fmt_r2(&f, r2, sizeof(r2));
		fmt_rate(rule, &f, unit, rate, sizeof(rate));
		fprintf(out, "%9s %12s", a, b);
		if (rule->bytes)
			fprintf(out, " %12s", *rate ? rate : "-");
		/* the heading's "R²" is 3 bytes in 2 columns: %8s there
		   lines up with %7s here */
		fprintf(out, " %7s %7zu\n", r2, f.n);
	}
out:
	for (i = 0; i < npts; i++) {
		free(pts[i].key);
	}
	free(pts);
	free(params);
}

void fit_report_block(FILE *out, const struct result *res, size_t n)
{
	const struct workload *wl = n ? res[0].cfg->wl : NULL;

	if (wl && wl->fit)
		report_rule(out, wl->name, wl->fit, res, n);
}
