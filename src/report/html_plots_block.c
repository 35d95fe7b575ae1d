/*
 * html_plots_block.c - the plots of one block of the HTML report beside
 * its sweeps (see html_plots_priv.h): the heat map of a grid (grid.c),
 * the fit with its points (fit_report.c), the per-op latency percentiles
 * and the per-sample scatter.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "report/fit_report.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"
#include "report/report.h"
#include "stats/histogram.h"

/* ---- the grid as a heat map ---- */

int html_plot_grids(FILE *f, const struct result *res, size_t n)
{
	struct grid_view *views;
	size_t nv, g, r, c;
	int done = 0;

	if (grid_compute(res, n, &views, &nv) != 0)
		return 0;
	for (g = 0; g < nv; g++) {
		const struct grid_view *gv = &views[g];
		json_t *rows = json_array(), *cols = json_array();
		json_t *cells = json_array();
		double lo = 0, hi = 0, div = 1;
		const char *scaled;
		char title[400], a[32], b[32];

		for (r = 0; r < gv->nrows * gv->ncols; r++) {
			double m = gv->cell[r] && !gv->cell[r]->withheld ?
				   gv->cell[r]->summary.median : 0;

			if (m > 0 && (lo == 0 || m < lo))
				lo = m;
			hi = m > hi ? m : hi;
		}
		scaled = fmt_scale(lo, gv->unit ? gv->unit : "", &div);
		for (r = 0; r < gv->nrows; r++)
			json_array_append_new(rows, json_string(gv->row[r]));
		for (c = 0; c < gv->ncols; c++)
			json_array_append_new(cols, json_string(gv->col[c]));
		for (r = 0; r < gv->nrows; r++)
			for (c = 0; c < gv->ncols; c++) {
				const struct result *x =
					gv->cell[r * gv->ncols + c];

				if (!x || x->withheld)	/* no headline: an
							   empty cell */
					continue;
				json_array_append_new(cells, json_pack(
					"{s:I, s:I, s:f, s:o}", "r",
					(json_int_t)r, "c", (json_int_t)c,
					"v", x->summary.median / div, "sd",
					x->summary.n > 1 ? json_real(
						x->summary.cv * 100) :
					json_null()));
			}
		snprintf(title, sizeof(title), "%s in %s, median ±sd of the "
			 "samples: %s x %s%s%s%s", gv->spec->metric,
			 *scaled ? scaled : "units", gv->spec->row,
			 gv->spec->col, *gv->label ? " (" : "", gv->label,
			 *gv->label ? ")" : "");
		html_figure(f, "heatmap", title, 80 + 60 * (int)gv->nrows,
		       json_pack("{s:o, s:o, s:o, s:s, s:s, s:s, s:f, s:f}",
				 "rows", rows, "cols", cols, "cells", cells,
				 "xlabel", gv->spec->col, "ylabel",
				 gv->spec->row, "unit", scaled, "min",
				 lo / div, "max", hi / div));
		fprintf(f, "<table><tr><th></th>");
		for (c = 0; c < gv->ncols; c++) {
			snprintf(a, sizeof(a), "%s=%s", gv->spec->col,
				 gv->col[c]);
			html_th(f, a);
		}
		fprintf(f, "</tr>\n");
		for (r = 0; r < gv->nrows; r++) {
			fprintf(f, "<tr>");
			snprintf(a, sizeof(a), "%s=%s", gv->spec->row,
				 gv->row[r]);
			html_th(f, a);
			for (c = 0; c < gv->ncols; c++) {
				const struct result *x =
					gv->cell[r * gv->ncols + c];
				char t[80];

				if (!x || x->withheld) {
					html_tdn(f, x ? "withheld" : "-");
					continue;
				}
				fmt_number(x->summary.median / div, b,
					   sizeof(b));
				snprintf(t, sizeof(t), "%s ±%.1f%%", b,
					 x->summary.cv * 100);
				html_tdn(f, t);
			}
			fprintf(f, "</tr>\n");
		}
		fprintf(f, "</table>\n");
		html_end_figure(f);
		done++;
	}
	grid_views_free(views, nv);
	return done;
}

/* ---- the fit ---- */

int html_plot_fit(FILE *f, const struct result *res, size_t n)
{
	const struct workload *wl = res[0].cfg->wl;
	struct fit_set fs;
	json_t *groups;
	double lo = 0, div = 1, xlo = 0, xhi = 0;
	double xs[256];
	const char *labels[256], *scaled;
	char title[320], head[96], name[LABEL_LEN];
	size_t g, k, nx = 0, j;

	if (!wl || fit_report_compute(res, n, &fs) != 0)
		return 0;
	if (!fs.rule) {
		fit_set_free(&fs);
		return 0;
	}
	for (g = 0; g < fs.ngroups; g++)
		for (k = 0; k < fs.groups[g].n; k++) {
			double y = fs.groups[g].y[k], x = fs.groups[g].x[k];

			if (y > 0 && (lo == 0 || y < lo))
				lo = y;
			xlo = nx == 0 || x < xlo ? x : xlo;
			xhi = nx == 0 || x > xhi ? x : xhi;
			if (nx < 256) {
				xs[nx] = x;
				labels[nx] = html_pstr(fs.groups[g].res[k]->cfg,
						  fs.rule->param);
				nx++;
			}
		}
	scaled = fmt_scale(lo, fs.unit, &div);
	groups = json_array();
	for (g = 0; g < fs.ngroups; g++) {
		const struct fit_group *gr = &fs.groups[g];
		json_t *points = json_array();
		size_t used = 0;

		name[0] = '\0';
		for (j = 0; j < fs.nlabel && used < sizeof(name); j++)
			used += (size_t)snprintf(name + used,
						 sizeof(name) - used,
						 "%s%s=%s", j ? " " : "",
						 fs.label[j],
						 gr->label_value[j]);
		for (k = 0; k < gr->n; k++)
			json_array_append_new(points, json_pack("[f, f]",
				gr->x[k], gr->y[k] / div));
		json_array_append_new(groups, json_pack("{s:s, s:o, s:o}",
			"name", *name ? name : fs.rule->metric, "points",
			points, "line", gr->fitted ?
			json_pack("[f, f]", gr->line.a / div,
				  gr->line.b / div) : json_null()));
	}
	snprintf(title, sizeof(title), "least-squares fit over %s: %s = "
		 "fixed + per %s x %s", fs.rule->param, fs.rule->metric,
		 fs.rule->per, fs.rule->param);
	snprintf(head, sizeof(head), "%s%s%s%s", fs.rule->metric,
		 *scaled ? " (" : "", scaled, *scaled ? ")" : "");
	html_figure(f, "fit", title, 320, json_pack(
		"{s:s, s:b, s:o, s:s, s:b, s:o}", "xlabel", fs.rule->param,
		"xlog", html_wide(xlo, xhi, 8), "ticks",
		html_ticks_json(xs, labels, nx),
		"ylabel", head, "ylog", false, "groups", groups));
	fprintf(f, "<table><tr>");
	for (j = 0; j < fs.nlabel; j++)
		html_th(f, fs.label[j]);
	html_th(f, "fixed");
	html_th(f, fs.rule->bytes ? "per byte" : "per segment");
	if (fs.rule->bytes)
		html_th(f, "bytes/s");
	html_th(f, "R²");
	html_th(f, "points (x: median)");
	fprintf(f, "</tr>\n");
	for (g = 0; g < fs.ngroups; g++) {
		const struct fit_group *gr = &fs.groups[g];
		char a[32], b[32], pts[1024];
		size_t used = 0;

		fprintf(f, "<tr>");
		for (j = 0; j < fs.nlabel; j++)
			html_td(f, gr->label_value[j]);
		if (gr->fitted) {
			fmt_value(gr->line.a, fs.unit, a, sizeof(a));
			html_tdn(f, a);
			fmt_value(gr->line.b, fs.unit, a, sizeof(a));
			html_tdn(f, a);
			if (fs.rule->bytes) {
				if (gr->rate_bps > 0)
					fmt_value(gr->rate_bps, "bytes/s", a,
						  sizeof(a));
				html_tdn(f, gr->rate_bps > 0 ? a : "-");
			}
			snprintf(a, sizeof(a), "%.4f", gr->line.r2);
			html_tdn(f, gr->line.n >= 3 ? a : "-");
		} else {
			html_tdn(f, "no fit");
			html_tdn(f, "-");
			if (fs.rule->bytes)
				html_tdn(f, "-");
			html_tdn(f, "-");
		}
		pts[0] = '\0';
		for (k = 0; k < gr->n && used < sizeof(pts); k++) {
			fmt_value(gr->y[k], fs.unit, b, sizeof(b));
			used += (size_t)snprintf(pts + used, sizeof(pts) - used,
				"%s%s: %s", k ? ", " : "",
				html_pstr(gr->res[k]->cfg, fs.rule->param), b);
		}
		html_td(f, pts);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	fit_set_free(&fs);
	return 1;
}

/* ---- per-op latency percentiles ---- */

int html_plot_hist(FILE *f, const struct result *res, size_t n,
		   const struct vary *v)
{
	static const double pct[] = { 50, 90, 99, 99.9 };
	json_t *series = json_array();
	const struct result *first = NULL;
	double lo = 0, div = 1;
	const char *scaled;
	char title[320], head[64], label[LABEL_LEN];
	size_t i, b, k, nh = 0;

	for (i = 0; i < n; i++) {
		const struct result_hist *h = res[i].hist;
		uint64_t total = 0, cum = 0;
		json_t *points;

		if (!h || !h->nbuckets || res[i].trace)
			continue;
		if (!first)
			first = &res[i];
		for (b = 0; b < h->nbuckets; b++)
			total += h->buckets[b].count;
		if (!total)
			continue;
		if (h->min_ns > 0 && (lo == 0 || (double)h->min_ns < lo))
			lo = (double)h->min_ns;
		nh++;
		points = json_array();
		for (b = 0; b < h->nbuckets; b++) {
			double q, y;

			if (!h->buckets[b].count)
				continue;
			cum += h->buckets[b].count;
			q = (double)cum / (double)total;
			/* the last point short of 100%, which is at infinity */
			if (q > 1 - 1.0 / (double)total)
				q = 1 - 1.0 / (double)total;
			y = h->buckets[b].hi < 0 ? (double)h->max_ns :
			    (double)h->buckets[b].hi;
			json_array_append_new(points, json_pack(
				"{s:f, s:f}", "q", q, "y", y));
		}
		html_cfg_label(res[i].cfg, v, NULL, label, sizeof(label));
		json_array_append_new(series, json_pack("{s:s, s:o}", "name",
			*label ? label : res[i].metric, "points", points));
	}
	if (!nh) {
		json_decref(series);
		return 0;
	}
	scaled = fmt_scale(lo, "ns", &div);
	for (i = 0; i < json_array_size(series); i++) {
		json_t *pts = json_object_get(json_array_get(series, i),
					      "points");

		for (k = 0; k < json_array_size(pts); k++) {
			json_t *p = json_array_get(pts, k);

			json_object_set_new(p, "y", json_real(json_real_value(
				json_object_get(p, "y")) / div));
		}
	}
	snprintf(title, sizeof(title), "per-op times of the %s (%s): "
		 "percentiles", first->hist->of ? first->hist->of : "?",
		 first->metric);
	snprintf(head, sizeof(head), "time per op (%s)", scaled);
	html_figure(f, "percentile", title, 320, json_pack(
		"{s:s, s:o}", "ylabel", head, "series", series));
	fprintf(f, "<table><tr>");
	if (v->n)
		html_th(f, "configuration");
	html_th(f, "ops");
	html_th(f, "p50");
	html_th(f, "p90");
	html_th(f, "p99");
	html_th(f, "p99.9");
	html_th(f, "max");
	html_th(f, "overflow");
	fprintf(f, "</tr>\n");
	for (i = 0; i < n; i++) {
		const struct result_hist *h = res[i].hist;
		struct histogram *hist;
		char a[48];

		if (!h || !h->nbuckets || res[i].trace)
			continue;
		hist = report_hist_rebuild(h);
		if (!hist)
			continue;
		fprintf(f, "<tr>");
		if (v->n) {
			html_cfg_label(res[i].cfg, v, NULL, label,
				       sizeof(label));
			html_td(f, label);
		}
		snprintf(a, sizeof(a), "%llu", (unsigned long long)h->ops);
		html_tdn(f, a);
		for (k = 0; k < 4; k++) {
			fmt_value((double)hist_percentile(hist, pct[k]), "ns",
				  a, sizeof(a));
			html_tdn(f, a);
		}
		fmt_value((double)hist->max_seen, "ns", a, sizeof(a));
		html_tdn(f, a);
		snprintf(a, sizeof(a), "%llu",
			 (unsigned long long)hist->overflow);
		html_tdn(f, a);
		fprintf(f, "</tr>\n");
		hist_free(hist);
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}

/* ---- per-sample scatter ---- */

static int plot_scatter(FILE *f, const struct result *res, size_t n,
			const struct vary *v, const char *metric)
{
	json_t *configs = json_array(), *points = json_array();
	char title[320], label[LABEL_LEN], a[48], b[48];
	size_t i, k, nc = 0;

	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (strcmp(r->metric, metric) != 0 || r->trace ||
		    !r->nsamples || !(r->summary.median != 0))
			continue;
		html_cfg_label(r->cfg, v, NULL, label, sizeof(label));
		json_array_append_new(configs, json_string(*label ? label :
							   metric));
		for (k = 0; k < r->nsamples; k++) {
			const char *mode = NULL;

			if (r->modes.bimodal)
				mode = r->samples[k] < r->modes.split ? "lo" :
				       "hi";
			json_array_append_new(points, json_pack(
				"{s:I, s:I, s:I, s:f, s:b, s:o}",
				"c", (json_int_t)nc, "i", (json_int_t)k,
				"n", (json_int_t)r->nsamples,
				"y", r->samples[k] / r->summary.median,
				"flag", result_value_flagged(r, k),
				"mode", mode ? json_string(mode) :
				json_null()));
		}
		nc++;
	}
	if (!nc) {
		json_decref(configs);
		json_decref(points);
		return 0;
	}
	snprintf(title, sizeof(title), "%s: each sample over its "
		 "configuration's median (flagged samples marked, bimodal "
		 "clusters coloured)", metric);
	html_figure(f, "scatter", title, 300, json_pack(
		"{s:s, s:s, s:o, s:o}", "xlabel", v->n ? "configuration" : "",
		"ylabel", "sample / median", "configs", configs, "points",
		points));
	fprintf(f, "<table><tr>");
	html_th(f, "configuration");
	html_th(f, "n");
	html_th(f, "median");
	html_th(f, "min .. max");
	html_th(f, "flagged");
	html_th(f, "modes");
	fprintf(f, "</tr>\n");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		size_t nf = 0;
		char t[160];

		if (strcmp(r->metric, metric) != 0 || r->trace ||
		    !r->nsamples || !(r->summary.median != 0))
			continue;
		for (k = 0; k < r->nsamples; k++)
			nf += result_value_flagged(r, k);
		fprintf(f, "<tr>");
		html_cfg_label(r->cfg, v, NULL, label, sizeof(label));
		html_td(f, *label ? label : metric);
		snprintf(t, sizeof(t), "%zu", r->summary.n);
		html_tdn(f, t);
		fmt_value(r->summary.median, r->unit, a, sizeof(a));
		html_tdn(f, r->withheld ? "withheld" : a);
		fmt_value(r->summary.min, r->unit, a, sizeof(a));
		fmt_value(r->summary.max, r->unit, b, sizeof(b));
		snprintf(t, sizeof(t), "%s .. %s", a, b);
		html_tdn(f, t);
		snprintf(t, sizeof(t), "%zu", nf);
		html_tdn(f, t);
		if (r->modes.bimodal) {
			fmt_value(r->modes.median_lo, r->unit, a, sizeof(a));
			fmt_value(r->modes.median_hi, r->unit, b, sizeof(b));
			snprintf(t, sizeof(t), "bimodal: %zu near %s, %zu near "
				 "%s", r->modes.n_lo, a, r->modes.n_hi, b);
			html_td(f, t);
		} else {
			html_td(f, "one");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}

/*
 * The scatter of the block's first metric, and of every other metric
 * that is bimodal somewhere in the block.
 */
int html_plot_scatters(FILE *f, const struct result *res, size_t n,
		       const struct vary *v)
{
	const char *first = NULL;
	int done = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		bool seen = false, bimodal = false;

		if (res[i].trace || !res[i].nsamples)
			continue;
		if (!first) {
			first = res[i].metric;
			done += plot_scatter(f, res, n, v, first);
			continue;
		}
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(res[k].metric, res[i].metric) == 0;
		for (k = 0; k < n && !seen; k++)
			bimodal |= strcmp(res[k].metric, res[i].metric) == 0 &&
				   res[k].modes.bimodal && !res[k].trace;
		if (!seen && bimodal)
			done += plot_scatter(f, res, n, v, res[i].metric);
	}
	return done;
}
