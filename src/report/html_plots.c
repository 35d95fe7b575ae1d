/*
 * html_plots.c - the plots of the HTML report and the tables of their
 * numbers (see html_plots.h): the figures and their cells, what varies in
 * a block, the sweeps, and the block's plots (the others are in
 * html_plots_block.c), the per-sample scatters folded under <details>.
 * Each figure is
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
#include "report/format.h"
#include "report/html_plots_priv.h"
#include "results/codec.h"

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

void html_emit_json(FILE *f, json_t *spec)
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
void html_figure(FILE *f, const char *kind, const char *title, int height,
		 json_t *spec)
{
	fprintf(f, "<div class=\"pair\">\n<figure class=\"plot\" "
		"data-kind=\"%s\"><figcaption>", kind);
	html_text(f, title);
	fprintf(f, "</figcaption>\n<div class=\"canvas\" style=\"height:"
		"%dpx\"><canvas></canvas></div>\n<script type=\"application/"
		"json\">", height);
	json_object_set_new(spec, "kind", json_string(kind));
	html_emit_json(f, spec);
	fprintf(f, "</script></figure>\n<div class=\"numbers\">\n");
}

void html_end_figure(FILE *f)
{
	fprintf(f, "</div>\n</div>\n");
}

json_t *html_num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void cell(FILE *f, const char *tag, const char *cls, const char *s)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	html_text(f, s);
	fprintf(f, "</%s>", tag);
}

void html_th(FILE *f, const char *s)
{
	cell(f, "th", NULL, s);
}

void html_td(FILE *f, const char *s)
{
	cell(f, "td", NULL, s);
}

void html_tdn(FILE *f, const char *s)
{
	cell(f, "td", "num", s);
}

/* ---- what varies in a block ---- */

const char *html_pstr(const struct result_config *c, const char *k)
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
			varies = strcmp(html_pstr(res[i].cfg, key),
					first->params[k].value) != 0;
		if (varies)
			v->name[v->n++] = key;
	}
}

/* "k=v k=v" of c's varying parameters other than skip (may be NULL). */
void html_cfg_label(const struct result_config *c, const struct vary *v,
		    const char *skip, char *buf, size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < v->n && used < len; k++)
		if (!skip || strcmp(v->name[k], skip) != 0)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s=%s", used ? " " : "",
						 v->name[k],
						 html_pstr(c, v->name[k]));
}

/*
 * The value of parameter def in c as a number (as the workload holds it:
 * bytes, a count); false if it has none.
 */
static bool param_number(const struct param_def *def,
			 const struct result_config *c, double *x)
{
	const struct result_param *p = result_param_find(c, def->name);

	if (!p || !p->def)
		return false;
	*x = (double)p->v;
	return true;
}

/* [{x, label}] of the distinct values, in value order. */
json_t *html_ticks_json(const double *x, const char *const *label,
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

bool html_wide(double lo, double hi, double ratio)
{
	return lo > 0 && hi / lo >= ratio;
}

/* ---- sweeps ---- */

/*
 * The points of a sweep into series: one series per group (named by the
 * group, else by metric), its points (median and CI, divided by div) in
 * x order, the first of repeated x values.
 */
static void sweep_series(json_t *series, const struct result *const *pts,
			 const double *xs, const char (*group)[LABEL_LEN],
			 size_t np, double div, const char *metric)
{
	size_t i, k;

	for (i = 0; i < np; i++) {
		json_t *points;
		bool first = true;

		for (k = 0; k < i && first; k++)
			first = strcmp(group[k], group[i]) != 0;
		if (!first)
			continue;
		points = json_array();
		for (;;) {
			size_t best = np;

			for (k = 0; k < np; k++) {
				bool taken = false;
				size_t j;

				if (strcmp(group[k], group[i]) != 0)
					continue;
				for (j = 0; j < json_array_size(points); j++)
					taken |= json_real_value(
						json_object_get(json_array_get(
							points, j), "x")) ==
						 xs[k];
				if (!taken && (best == np || xs[k] < xs[best]))
					best = k;
			}
			if (best == np)
				break;
			if (pts[best]->withheld) {
				/* no headline (stats/headline.h): its x is
				   taken, no point drawn; the table says */
				json_array_append_new(points, json_pack(
					"{s:f, s:n, s:n, s:n}", "x", xs[best],
					"y", "lo", "hi"));
				continue;
			}
			/* a point without a CI has a null band: none drawn */
			json_array_append_new(points, json_pack(
				"{s:f, s:f, s:o, s:o}", "x", xs[best],
				"y", pts[best]->summary.median / div,
				"lo", html_num_or_null(pts[best]->summary.ci_lo / div),
				"hi", html_num_or_null(pts[best]->summary.ci_hi /
						 div)));
		}
		json_array_append_new(series, json_pack("{s:s, s:o}", "name",
			*group[i] ? group[i] : metric, "points", points));
	}
}

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
	size_t np = 0, i;

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
		labels[np] = html_pstr(r->cfg, def->name);
		html_cfg_label(r->cfg, v, def->name, group[np], LABEL_LEN);
		if (r->withheld)	/* no median to scale the axis by */
			m = 0;
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
	sweep_series(series, pts, xs, group, np, div, metric);
	snprintf(title, sizeof(title), "%s over %s: median and its 95%% CI",
		 metric, def->name);
	snprintf(head, sizeof(head), "%s%s%s%s", metric, *scaled ? " (" : "",
		 scaled, *scaled ? ")" : "");
	spec = json_pack("{s:s, s:b, s:o, s:s, s:b, s:o}", "xlabel",
			 def->name, "xlog", html_wide(xlo, xhi, 8), "ticks",
			 html_ticks_json(xs, labels, np), "ylabel", head,
			 "ylog", html_wide(lo, hi, 50), "series", series);
	html_figure(f, "sweep", title, 320, spec);
	fprintf(f, "<table><tr>");
	html_th(f, def->name);
	if (v->n > 1)
		html_th(f, "group");
	html_th(f, head);
	html_th(f, "95% CI");
	html_th(f, "±sd");
	html_th(f, "n");
	fprintf(f, "</tr>\n");
	for (i = 0; i < np; i++) {
		const struct summary *s = &pts[i]->summary;
		char a[32], b[32], c[80];

		fprintf(f, "<tr>");
		html_td(f, labels[i]);
		if (v->n > 1)
			html_td(f, group[i]);
		fmt_number(s->median / div, a, sizeof(a));
		html_tdn(f, pts[i]->withheld ? "withheld" : a);
		fmt_number(s->ci_lo / div, a, sizeof(a));
		fmt_number(s->ci_hi / div, b, sizeof(b));
		snprintf(c, sizeof(c), "%s .. %s", a, b);
		if (pts[i]->withheld)	/* the run's notes say why */
			snprintf(c, sizeof(c), "none: withheld");
		else if (isnan(s->ci_lo) || isnan(s->ci_hi))	/* no CI */
			snprintf(c, sizeof(c), "none: %s",
				 summary_ci_reason(s->n));
		html_tdn(f, c);
		snprintf(c, sizeof(c), "%.1f%%", s->cv * 100);
		html_tdn(f, s->n > 1 ? c : "-");
		snprintf(c, sizeof(c), "%zu", s->n);
		html_tdn(f, c);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
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
			if (wl->grid &&
			    (strcmp(v->name[k], wl->grid->row) == 0 ||
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

/*
 * The per-sample scatters, folded under <details> (the first screen
 * shows the main plots; every sample is one click away).
 */
static int folded_scatters(FILE *f, const struct result *res, size_t n,
			   const struct vary *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int done;

	if (!m)
		return html_plot_scatters(f, res, n, v);
	done = html_plot_scatters(m, res, n, v);
	if (fclose(m) != 0) {
		free(buf);
		return html_plot_scatters(f, res, n, v);
	}
	if (done > 0) {
		fprintf(f, "<details class=\"samples\"><summary>every sample "
			"against its median (%d plot%s)</summary>\n", done,
			done == 1 ? "" : "s");
		fwrite(buf, 1, len, f);
		fprintf(f, "</details>\n");
	}
	free(buf);
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
	done += html_plot_grids(f, res, n);
	done += html_plot_fit(f, res, n);
	done += html_plot_hist(f, res, n, &v);
	done += html_plot_kernel(f, res, n, &v);
	done += folded_scatters(f, res, n, &v);
	return done;
}
