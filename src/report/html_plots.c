/*
 * html_plots.c - the plots of the HTML report and the tables of their
 * numbers (see html_plots.h).  Each figure is
 *
 *   <div class="pair">
 *     <figure class="plot" data-kind="sweep"><figcaption>..</figcaption>
 *       <div class="canvas"><canvas></canvas></div>
 *       <script type="application/json">{"kind":"sweep",...}</script>
 *     </figure>
 *     <div class="numbers"><table>..</table></div>
 *   </div>
 *
 * Values are scaled here, with the text report's units (format.c), so
 * the charting code only draws: a chart's numbers are the table's.
 */
#include "report/html_plots.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "core/workload.h"
#include "report/explain.h"
#include "report/fit_report.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/report.h"
#include "results/codec.h"
#include "stats/histogram.h"

#define MAX_VARY 16
#define LABEL_LEN 256

/* ---- text and figures ---- */

void html_text(FILE *f, const char *s)
{
	char *clean = codec_clean_text(s ? s : "", true);
	const char *p;

	for (p = clean ? clean : "?"; *p; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
	}
	free(clean);
}

/* spec (stolen) as JSON that cannot end its <script>: '<' as \u003c. */
static void emit_json(FILE *f, json_t *spec)
{
	char *s = spec ? json_dumps(spec, JSON_COMPACT | JSON_ESCAPE_SLASH)
		       : NULL;
	const char *p;

	json_decref(spec);
	for (p = s ? s : "{}"; *p; p++) {
		if (*p == '<')
			fputs("\\u003c", f);
		else
			fputc(*p, f);
	}
	free(s);
}

/* The figure with spec (stolen); the caller writes the table after. */
static void figure(FILE *f, const char *kind, const char *title, int height,
		   json_t *spec)
{
	fprintf(f, "<div class=\"pair\">\n<figure class=\"plot\" "
		"data-kind=\"%s\"><figcaption>", kind);
	html_text(f, title);
	fprintf(f, "</figcaption>\n<div class=\"canvas\" style=\"height:"
		"%dpx\"><canvas></canvas></div>\n<script type=\"application/"
		"json\">", height);
	json_object_set_new(spec, "kind", json_string(kind));
	emit_json(f, spec);
	fprintf(f, "</script></figure>\n<div class=\"numbers\">\n");
}

static void end_figure(FILE *f)
{
	fprintf(f, "</div>\n</div>\n");
}

static void cell(FILE *f, const char *tag, const char *cls, const char *s)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	html_text(f, s);
	fprintf(f, "</%s>", tag);
}

static void th(FILE *f, const char *s)
{
	cell(f, "th", NULL, s);
}

static void td(FILE *f, const char *s)
{
	cell(f, "td", NULL, s);
}

static void tdn(FILE *f, const char *s)
{
	cell(f, "td", "num", s);
}

/* ---- what varies in a block ---- */

struct vary {
	const char *name[MAX_VARY];
	size_t n;
};

static const char *pstr(const struct result_config *c, const char *k)
{
	const char *s = result_param(c, k);

	return s ? s : "";
}

static void find_vary(const struct result *res, size_t n, struct vary *v)
{
	const struct result_config *first = res[0].cfg;
	size_t i, k;

	v->n = 0;
	for (k = 0; k < first->nparams && v->n < MAX_VARY; k++) {
		const char *key = first->params[k].name;
		bool varies = false;

		for (i = 1; i < n && !varies; i++)
			varies = strcmp(pstr(res[i].cfg, key),
					first->params[k].value) != 0;
		if (varies)
			v->name[v->n++] = key;
	}
}

/* "k=v k=v" of c's varying parameters other than skip (may be NULL). */
static void cfg_label(const struct result_config *c, const struct vary *v,
		      const char *skip, char *buf, size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < v->n && used < len; k++)
		if (!skip || strcmp(v->name[k], skip) != 0)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s=%s", used ? " " : "",
						 v->name[k],
						 pstr(c, v->name[k]));
}

/* The value of parameter def in c as a number; false if it has none. */
static bool param_number(const struct param_def *def,
			 const struct result_config *c, double *x)
{
	char err[160];
	int64_t v;

	if (param_parse_value(def, pstr(c, def->name), &v, err,
			      sizeof(err)) != 0)
		return false;
	*x = (double)v;
	return true;
}

/* [{x, label}] of the distinct values, in value order. */
static json_t *ticks_json(const double *x, const char *const *label,
			  size_t n)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; a && i < n; i++) {
		bool seen = false;

		for (k = 0; k < i && !seen; k++)
			seen = x[k] == x[i];
		if (!seen)
			json_array_append_new(a, json_pack("{s:f, s:s}", "x",
							   x[i], "label",
							   label[i]));
	}
	return a;
}

static bool wide(double lo, double hi, double ratio)
{
	return lo > 0 && hi / lo >= ratio;
}

/* ---- sweeps ---- */

/* One metric over the swept parameter def: a line per group. */
static int plot_sweep(FILE *f, const struct result *res, size_t n,
		      const struct vary *v, const struct param_def *def,
		      const char *metric)
{
	const struct result *pts[256];
	const char *labels[256];
	double xs[256], lo = 0, hi = 0, div = 1, xlo = 0, xhi = 0;
	char (*group)[LABEL_LEN] = calloc(256, LABEL_LEN);
	json_t *series = json_array(), *spec;
	const char *unit = NULL, *scaled;
	char title[320], head[96];
	size_t np = 0, i, k;

	if (!group || !series) {
		free(group);
		json_decref(series);
		return 0;
	}
	for (i = 0; i < n && np < 256; i++) {
		const struct result *r = &res[i];
		double x, m = r->summary.median;

		if (strcmp(r->metric, metric) != 0 || r->trace ||
		    !r->nsamples || !param_number(def, r->cfg, &x))
			continue;
		if (unit && strcmp(unit, r->unit) != 0)
			continue;
		unit = r->unit;
		pts[np] = r;
		xs[np] = x;
		labels[np] = pstr(r->cfg, def->name);
		cfg_label(r->cfg, v, def->name, group[np], LABEL_LEN);
		if (m > 0 && (lo == 0 || m < lo))
			lo = m;
		hi = m > hi ? m : hi;
		xlo = np == 0 || x < xlo ? x : xlo;
		xhi = np == 0 || x > xhi ? x : xhi;
		np++;
	}
	if (np < 2 || xlo == xhi) {
		free(group);
		json_decref(series);
		return 0;
	}
	scaled = fmt_scale(lo, unit, &div);
	/* a series per group, its points in x order */
	for (i = 0; i < np; i++) {
		json_t *points = json_array();
		bool first = true;

		for (k = 0; k < i && first; k++)
			first = strcmp(group[k], group[i]) != 0;
		if (!first)
			continue;
		for (;;) {
			size_t best = np;

			for (k = 0; k < np; k++) {
				bool taken = false;
				size_t j;

				if (strcmp(group[k], group[i]) != 0)
					continue;
				for (j = 0; j < json_array_size(points); j++)
					taken |= json_real_value(json_object_get(
						json_array_get(points, j),
						"x")) == xs[k];
				if (!taken && (best == np || xs[k] < xs[best]))
					best = k;
			}
			if (best == np)
				break;
			json_array_append_new(points, json_pack(
				"{s:f, s:f, s:f, s:f}", "x", xs[best],
				"y", pts[best]->summary.median / div,
				"lo", pts[best]->summary.ci_lo / div,
				"hi", pts[best]->summary.ci_hi / div));
		}
		json_array_append_new(series, json_pack("{s:s, s:o}", "name",
			*group[i] ? group[i] : metric, "points", points));
	}
	snprintf(title, sizeof(title), "%s over %s: median and its 95%% CI",
		 metric, def->name);
	snprintf(head, sizeof(head), "%s%s%s%s", metric, *scaled ? " (" : "",
		 scaled, *scaled ? ")" : "");
	spec = json_pack("{s:s, s:b, s:o, s:s, s:b, s:o}", "xlabel",
			 def->name, "xlog", wide(xlo, xhi, 8), "ticks",
			 ticks_json(xs, labels, np), "ylabel", head,
			 "ylog", wide(lo, hi, 50), "series", series);
	figure(f, "sweep", title, 320, spec);
	fprintf(f, "<table><tr>");
	th(f, def->name);
	if (v->n > 1)
		th(f, "group");
	th(f, head);
	th(f, "95% CI");
	th(f, "±sd");
	th(f, "n");
	fprintf(f, "</tr>\n");
	for (i = 0; i < np; i++) {
		const struct summary *s = &pts[i]->summary;
		char a[32], b[32], c[80];

		fprintf(f, "<tr>");
		td(f, labels[i]);
		if (v->n > 1)
			td(f, group[i]);
		fmt_number(s->median / div, a, sizeof(a));
		tdn(f, a);
		fmt_number(s->ci_lo / div, a, sizeof(a));
		fmt_number(s->ci_hi / div, b, sizeof(b));
		snprintf(c, sizeof(c), "%s .. %s", a, b);
		tdn(f, c);
		snprintf(c, sizeof(c), "%.1f%%", s->cv * 100);
		tdn(f, s->n > 1 ? c : "-");
		snprintf(c, sizeof(c), "%zu", s->n);
		tdn(f, c);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	end_figure(f);
	free(group);
	return 1;
}

/*
 * The swept parameter of a block: the first varying size, else the
 * first varying count, not one of the grid's axes.
 */
static const struct param_def *sweep_param(const struct workload *wl,
					   const struct vary *v)
{
	static const enum param_type order[] = { PARAM_SIZE, PARAM_INT };
	size_t t, k;
	int i;

	for (t = 0; wl && t < 2; t++)
		for (k = 0; k < v->n; k++) {
			i = param_find(wl->params, wl->nparams, v->name[k]);
			if (i < 0 || wl->params[i].type != order[t])
				continue;
			if (wl->grid && (strcmp(v->name[k], wl->grid->row) == 0 ||
					 strcmp(v->name[k], wl->grid->col) == 0))
				continue;
			return &wl->params[i];
		}
	return NULL;
}

static int plot_sweeps(FILE *f, const struct result *res, size_t n,
		       const struct vary *v)
{
	const struct param_def *def = sweep_param(res[0].cfg->wl, v);
	int done = 0;
	size_t i, k;

	if (!def)
		return 0;
	for (i = 0; i < n; i++) {
		bool seen = false;

		if (res[i].trace || res[i].direction == 0)
			continue;
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(res[k].metric, res[i].metric) == 0;
		if (!seen)
			done += plot_sweep(f, res, n, v, def, res[i].metric);
	}
	return done;
}

/* ---- the grid as a heat map ---- */

static int plot_grids(FILE *f, const struct result *res, size_t n)
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
			double m = gv->cell[r] ? gv->cell[r]->summary.median
					       : 0;

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

				if (!x)
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
		figure(f, "heatmap", title, 80 + 60 * (int)gv->nrows,
		       json_pack("{s:o, s:o, s:o, s:s, s:s, s:s, s:f, s:f}",
				 "rows", rows, "cols", cols, "cells", cells,
				 "xlabel", gv->spec->col, "ylabel",
				 gv->spec->row, "unit", scaled, "min",
				 lo / div, "max", hi / div));
		fprintf(f, "<table><tr><th></th>");
		for (c = 0; c < gv->ncols; c++) {
			snprintf(a, sizeof(a), "%s=%s", gv->spec->col,
				 gv->col[c]);
			th(f, a);
		}
		fprintf(f, "</tr>\n");
		for (r = 0; r < gv->nrows; r++) {
			fprintf(f, "<tr>");
			snprintf(a, sizeof(a), "%s=%s", gv->spec->row,
				 gv->row[r]);
			th(f, a);
			for (c = 0; c < gv->ncols; c++) {
				const struct result *x =
					gv->cell[r * gv->ncols + c];
				char t[80];

				if (!x) {
					tdn(f, "-");
					continue;
				}
				fmt_number(x->summary.median / div, b,
					   sizeof(b));
				snprintf(t, sizeof(t), "%s ±%.1f%%", b,
					 x->summary.cv * 100);
				tdn(f, t);
			}
			fprintf(f, "</tr>\n");
		}
		fprintf(f, "</table>\n");
		end_figure(f);
		done++;
	}
	grid_views_free(views, nv);
	return done;
}

/* ---- the fit ---- */

static int plot_fit(FILE *f, const struct result *res, size_t n)
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
				labels[nx] = pstr(fs.groups[g].res[k]->cfg,
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
	figure(f, "fit", title, 320, json_pack(
		"{s:s, s:b, s:o, s:s, s:b, s:o}", "xlabel", fs.rule->param,
		"xlog", wide(xlo, xhi, 8), "ticks", ticks_json(xs, labels, nx),
		"ylabel", head, "ylog", false, "groups", groups));
	fprintf(f, "<table><tr>");
	for (j = 0; j < fs.nlabel; j++)
		th(f, fs.label[j]);
	th(f, "fixed");
	th(f, fs.rule->bytes ? "per byte" : "per segment");
	if (fs.rule->bytes)
		th(f, "bytes/s");
	th(f, "R²");
	th(f, "points (x: median)");
	fprintf(f, "</tr>\n");
	for (g = 0; g < fs.ngroups; g++) {
		const struct fit_group *gr = &fs.groups[g];
		char a[32], b[32], pts[1024];
		size_t used = 0;

		fprintf(f, "<tr>");
		for (j = 0; j < fs.nlabel; j++)
			td(f, gr->label_value[j]);
		if (gr->fitted) {
			fmt_value(gr->line.a, fs.unit, a, sizeof(a));
			tdn(f, a);
			fmt_value(gr->line.b, fs.unit, a, sizeof(a));
			tdn(f, a);
			if (fs.rule->bytes) {
				if (gr->rate_bps > 0)
					fmt_value(gr->rate_bps, "bytes/s", a,
						  sizeof(a));
				tdn(f, gr->rate_bps > 0 ? a : "-");
			}
			snprintf(a, sizeof(a), "%.4f", gr->line.r2);
			tdn(f, gr->line.n >= 3 ? a : "-");
		} else {
			tdn(f, "no fit");
			tdn(f, "-");
			if (fs.rule->bytes)
				tdn(f, "-");
			tdn(f, "-");
		}
		pts[0] = '\0';
		for (k = 0; k < gr->n && used < sizeof(pts); k++) {
			fmt_value(gr->y[k], fs.unit, b, sizeof(b));
			used += (size_t)snprintf(pts + used, sizeof(pts) - used,
				"%s%s: %s", k ? ", " : "",
				pstr(gr->res[k]->cfg, fs.rule->param), b);
		}
		td(f, pts);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	end_figure(f);
	fit_set_free(&fs);
	return 1;
}

/* ---- per-op latency percentiles ---- */

static int plot_hist(FILE *f, const struct result *res, size_t n,
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
		cfg_label(res[i].cfg, v, NULL, label, sizeof(label));
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
	figure(f, "percentile", title, 320, json_pack("{s:s, s:o}", "ylabel",
						       head, "series", series));
	fprintf(f, "<table><tr>");
	if (v->n)
		th(f, "configuration");
	th(f, "ops");
	th(f, "p50");
	th(f, "p90");
	th(f, "p99");
	th(f, "p99.9");
	th(f, "max");
	th(f, "overflow");
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
			cfg_label(res[i].cfg, v, NULL, label, sizeof(label));
			td(f, label);
		}
		snprintf(a, sizeof(a), "%llu", (unsigned long long)h->ops);
		tdn(f, a);
		for (k = 0; k < 4; k++) {
			fmt_value((double)hist_percentile(hist, pct[k]), "ns",
				  a, sizeof(a));
			tdn(f, a);
		}
		fmt_value((double)hist->max_seen, "ns", a, sizeof(a));
		tdn(f, a);
		snprintf(a, sizeof(a), "%llu",
			 (unsigned long long)hist->overflow);
		tdn(f, a);
		fprintf(f, "</tr>\n");
		hist_free(hist);
	}
	fprintf(f, "</table>\n");
	end_figure(f);
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
		cfg_label(r->cfg, v, NULL, label, sizeof(label));
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
	figure(f, "scatter", title, 300, json_pack(
		"{s:s, s:s, s:o, s:o}", "xlabel", v->n ? "configuration" : "",
		"ylabel", "sample / median", "configs", configs, "points",
		points));
	fprintf(f, "<table><tr>");
	th(f, "configuration");
	th(f, "n");
	th(f, "median");
	th(f, "min .. max");
	th(f, "flagged");
	th(f, "modes");
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
		cfg_label(r->cfg, v, NULL, label, sizeof(label));
		td(f, *label ? label : metric);
		snprintf(t, sizeof(t), "%zu", r->summary.n);
		tdn(f, t);
		fmt_value(r->summary.median, r->unit, a, sizeof(a));
		tdn(f, a);
		fmt_value(r->summary.min, r->unit, a, sizeof(a));
		fmt_value(r->summary.max, r->unit, b, sizeof(b));
		snprintf(t, sizeof(t), "%s .. %s", a, b);
		tdn(f, t);
		snprintf(t, sizeof(t), "%zu", nf);
		tdn(f, t);
		if (r->modes.bimodal) {
			fmt_value(r->modes.median_lo, r->unit, a, sizeof(a));
			fmt_value(r->modes.median_hi, r->unit, b, sizeof(b));
			snprintf(t, sizeof(t), "bimodal: %zu near %s, %zu near "
				 "%s", r->modes.n_lo, a, r->modes.n_hi, b);
			td(f, t);
		} else {
			td(f, "one");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	end_figure(f);
	return 1;
}

/*
 * The scatter of the block's first metric, and of every other metric
 * that is bimodal somewhere in the block.
 */
static int plot_scatters(FILE *f, const struct result *res, size_t n,
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

int html_block_plots(FILE *f, const struct result *res, size_t n)
{
	struct vary v;
	int done = 0;

	if (!n)
		return 0;
	find_vary(res, n, &v);
	done += plot_sweeps(f, res, n, &v);
	done += plot_grids(f, res, n);
	done += plot_fit(f, res, n);
	done += plot_hist(f, res, n, &v);
	done += plot_scatters(f, res, n, &v);
	return done;
}

/* ---- --explain ---- */

int html_explain_plot(FILE *f, const struct result *res, size_t n)
{
	static const char *const seg[] = {
		"one copy (the copy floor)", "the second copy (two-copy "
		"floor)", "the ring beyond the floor (wake-ups, no kernel)",
		"the kernel path (pipe - ring)",
	};
	struct explain_block *b;
	json_t *bars, *segs;
	double div = 1;
	const char *scaled;
	char err[256], title[96], head[64], sz[32];
	size_t nb, i, k;

	if (explain_collect(res, n, &b, &nb, err, sizeof(err)) <= 0)
		return 0;
	scaled = fmt_scale(b[0].f.pipe_ns_64k, "ns", &div);
	bars = json_array();
	segs = json_array();
	for (k = 0; k < 4; k++)
		json_array_append_new(segs, json_string(seg[k]));
	for (i = 0; i < nb; i++) {
		const struct explain_figures *x = &b[i].f;
		double v[4];

		v[0] = x->copy_ns_64k;
		v[1] = x->floor_ns_64k - x->copy_ns_64k;
		v[2] = x->ring_ns_64k - x->floor_ns_64k;
		v[3] = x->pipe_ns_64k - x->ring_ns_64k;
		json_array_append_new(bars, json_pack(
			"{s:s, s:[f, f, f, f]}", "label", b[i].title,
			"values", fmax(v[0], 0) / div, fmax(v[1], 0) / div,
			fmax(v[2], 0) / div, fmax(v[3], 0) / div));
	}
	snprintf(head, sizeof(head), "time per 64 KiB (%s)", scaled);
	snprintf(title, sizeof(title), "where the time goes: the pipe "
		 "against its floors");
	figure(f, "explain", title, 80 + 50 * (int)nb, json_pack(
		"{s:s, s:o, s:o}", "xlabel", head, "segments", segs, "bars",
		bars));
	fprintf(f, "<table>\n");
	for (i = 0; i < nb; i++) {
		const struct explain_figures *x = &b[i].f;
		const struct explain_input *in = &b[i].in;
		const char *name[4] = { b[i].copy_label, "two-copy floor (1/2)",
					b[i].ring_label, b[i].self_label };
		double bps[4] = { in->copy_bps, x->floor_bps, in->ring_bps,
				  in->pipe_bps };
		double ns[4] = { x->copy_ns_64k, x->floor_ns_64k,
				 x->ring_ns_64k, x->pipe_ns_64k };
		double frac[4] = { x->pipe_of_copy, x->pipe_of_floor,
				   x->pipe_of_ring, 1.0 };
		double cs[4] = { -1, -1, in->ring_cs_per_mib,
				 in->pipe_cs_per_mib };

		fprintf(f, "<tr><th colspan=\"5\">");
		html_text(f, b[i].title);
		fprintf(f, "</th></tr>\n<tr><th></th><th>bandwidth</th><th>per "
			"64 KiB</th><th>pipe as %%</th><th>ctx sw/MiB</th>"
			"</tr>\n");
		for (k = 0; k < 4; k++) {
			char a[48];

			fprintf(f, "<tr>");
			td(f, name[k]);
			fmt_value(bps[k], "bytes/s", a, sizeof(a));
			tdn(f, a);
			fmt_value(ns[k], "ns", a, sizeof(a));
			tdn(f, a);
			snprintf(a, sizeof(a), "%.1f%%", frac[k] * 100);
			tdn(f, a);
			if (cs[k] >= 0)
				fmt_number(cs[k], a, sizeof(a));
			tdn(f, cs[k] >= 0 ? a : "");
			fprintf(f, "</tr>\n");
		}
		fmt_value(fabs(x->kernel_ns_64k), "ns", sz, sizeof(sz));
		fprintf(f, "<tr><td colspan=\"5\">kernel path (pipe - ring): "
			"%s%s per 64 KiB, %.0f%% of the pipe's time</td></tr>\n",
			x->kernel_ns_64k < 0 ? "-" : "", sz,
			x->kernel_share * 100);
	}
	fprintf(f, "</table>\n");
	end_figure(f);
	free(b);
	return 1;
}

/* ---- a comparison ---- */

/*
 * "pipe.bw size=64k: bandwidth": the row's workload, its parameters that
 * differ between rows of that workload or between the sides ("inject_ns=
 * 0->30ns", with --ignore-param), its metric.
 */
static void row_label(const struct cmp *c, const struct cmp_row *row,
		      char *buf, size_t len)
{
	const struct result_config *me = row->ref->cfg;
	const char *other;
	size_t k, i, used;

	used = (size_t)snprintf(buf, len, "%s", me->workload);
	for (k = 0; k < me->nparams && used < len; k++) {
		bool varies = false;

		for (i = 0; i < c->nrows && !varies; i++) {
			const struct result_config *o = c->rows[i].ref->cfg;
			const char *x = result_param(o, me->params[k].name);

			varies = strcmp(o->workload, me->workload) == 0 &&
				 (!x || strcmp(x, me->params[k].value) != 0);
		}
		other = row->ref_new ? result_param(row->ref_new->cfg,
						    me->params[k].name) : NULL;
		if (other && strcmp(other, me->params[k].value) != 0)
			used += (size_t)snprintf(buf + used, len - used,
						 " %s=%s->%s",
						 me->params[k].name,
						 me->params[k].value, other);
		else if (varies)
			used += (size_t)snprintf(buf + used, len - used,
						 " %s=%s", me->params[k].name,
						 me->params[k].value);
	}
	if (used < len)
		snprintf(buf + used, len - used, ": %s", row->ref->metric);
}

static const char *verdict_key(const struct cmp_row *r)
{
	switch (r->verdict) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_INFO:
		return "info";
	case VERDICT_EMPTY:
		return "empty";
	case VERDICT_WITHHELD:
		return "withheld";
	default:
		return "same";
	}
}

int html_forest_plot(FILE *f, const struct cmp *c)
{
	json_t *rows = json_array();
	char label[LABEL_LEN];
	size_t i, nr = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new || isnan(r->change_pct))
			continue;
		row_label(c, r, label, sizeof(label));
		json_array_append_new(rows, json_pack(
			"{s:s, s:f, s:o, s:o, s:s}", "label", label,
			"change", r->change_pct,
			"lo", isnan(r->ci_lo) ? json_real(r->change_pct) :
			json_real(r->ci_lo),
			"hi", isnan(r->ci_hi) ? json_real(r->change_pct) :
			json_real(r->ci_hi), "verdict", verdict_key(r)));
		nr++;
	}
	if (!nr) {
		json_decref(rows);
		return 0;
	}
	figure(f, "forest", "%change of the medians (new against base) with "
	       "its 95% CI, by verdict: better green, worse red, ~ grey",
	       60 + 24 * (int)nr, json_pack("{s:s, s:o}", "xlabel",
					    "%change", "rows", rows));
	fprintf(f, "<table><tr>");
	th(f, "row");
	th(f, "base");
	th(f, "±sd");
	th(f, "%change");
	th(f, "new");
	th(f, "±sd");
	th(f, "p");
	th(f, "95% CI");
	th(f, "verdict");
	fprintf(f, "</tr>\n");
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		char a[64];

		fprintf(f, "<tr class=\"%s\">", r->in_base && r->in_new ?
			verdict_key(r) : "one-side");
		row_label(c, r, label, sizeof(label));
		td(f, label);
		if (r->in_base) {
			fmt_value(r->b.s.median, r->ref->unit, a, sizeof(a));
			tdn(f, a);
			snprintf(a, sizeof(a), "±%.0f%%", r->b.s.cv * 100);
			tdn(f, a);
		} else {
			tdn(f, "-");
			tdn(f, "");
		}
		if (r->in_base && r->in_new && !isnan(r->change_pct))
			snprintf(a, sizeof(a), "%+.1f%%", r->change_pct);
		else
			snprintf(a, sizeof(a), "%s", r->in_base ? "base only"
				 : "new only");
		tdn(f, a);
		if (r->in_new) {
			fmt_value(r->n.s.median, r->ref->unit, a, sizeof(a));
			tdn(f, a);
			snprintf(a, sizeof(a), "±%.0f%%", r->n.s.cv * 100);
			tdn(f, a);
		} else {
			tdn(f, "-");
			tdn(f, "");
		}
		if (r->in_base && r->in_new) {
			snprintf(a, sizeof(a), "%.3f", r->mw.p);
			tdn(f, isnan(r->mw.p) ? "-" : a);
			snprintf(a, sizeof(a), "%+.0f..%+.0f", r->ci_lo,
				 r->ci_hi);
			tdn(f, isnan(r->ci_lo) ? "-" : a);
			td(f, r->verdict == VERDICT_INFO ? "info" :
			   stats_verdict_name(r->verdict));
		} else {
			tdn(f, "");
			tdn(f, "");
			td(f, "");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	end_figure(f);
	return 1;
}
