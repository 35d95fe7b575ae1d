/*
 * html_plots_history.c - a lab's history in the HTML report (`report
 * --history`, see html_plots.h): for each series (one configuration and
 * metric on one host, results/history_series.h) its run medians in series order
 * with their 95% CI as a band, each change point marked where it starts
 * with its %change, and the kernel release labelled on a second axis
 * where it changes; beside it the numbers as a table, and under them what
 * the change points cannot tell about the newest points.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/history_print.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"
#include "results/result.h"

/* The most series drawn; the rest are named in a line. */
#define MAX_HISTORIES 24

/* "sys.null call=gettid trace=0" from the workload and parameters. */
static void series_label(const struct hist_series *s, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", s->workload), i;

	if (!s->nparam && strcmp(s->params, "{}") != 0) {
		/* the codec could not read it: as stored */
		if (used < len)
			snprintf(buf + used, len - used, " %s", s->params);
		return;
	}
	for (i = 0; i < s->nparam && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %s=%s",
					 s->param[i].name, s->param[i].value);
}

/* The change point that starts at point i, or NULL. */
static const struct hist_change *change_at(const struct hist_series *s,
					   size_t i)
{
	size_t k;

	for (k = 0; k < s->ncp; k++)
		if (s->cps[k].index == i)
			return &s->cps[k];
	return NULL;
}

/* The chart's data: points, change points, kernels where they change. */
static json_t *history_spec(const struct hist_series *s, double div,
			    bool by_kernel, const char *head)
{
	json_t *pts = json_array(), *cps = json_array(), *ks = json_array();
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct hist_point *p = &s->pts[i];

		json_array_append_new(pts, json_pack(
			"{s:I, s:f, s:o, s:o, s:I, s:s}", "x", (json_int_t)i,
			"y", p->median / div, "lo",
			html_num_or_null(p->ci_lo / div), "hi",
			html_num_or_null(p->ci_hi / div), "run",
			(json_int_t)p->run_id,
			"kernel", p->kernel));
		if (i == 0 || strcmp(p->kernel, s->pts[i - 1].kernel) != 0)
			json_array_append_new(ks, json_pack("{s:I, s:s}", "x",
				(json_int_t)i, "label",
				p->kernel[0] ? p->kernel : "?"));
	}
	for (i = 0; i < s->ncp; i++)
		json_array_append_new(cps, json_pack("{s:I, s:f, s:f, s:b}",
			"x", (json_int_t)s->cps[i].index, "pct",
			s->cps[i].change_pct, "p", s->cps[i].p, "worse",
			s->cps[i].worse));
	return json_pack("{s:s, s:s, s:f, s:s, s:o, s:o, s:o}", "xlabel",
			 by_kernel ? "kernels in version order (point 0 the "
			 "first)" : "runs in time order (point 0 the oldest)",
			 "ylabel", head, "div", div, "unit", s->unit,
			 "points", pts, "changes", cps, "kernels", ks);
}

/* The table beside the chart: a row per point, change points marked. */
static void history_table(FILE *f, const struct hist_series *s, double div,
			  const char *head)
{
	char a[48], b[32];
	size_t i;

	fprintf(f, "<table><tr>");
	html_th(f, "#");
	html_th(f, "run");
	html_th(f, "kernel");
	html_th(f, head);
	html_th(f, "95% CI");
	html_th(f, "change point");
	fprintf(f, "</tr>\n");
	for (i = 0; i < s->n; i++) {
		const struct hist_point *p = &s->pts[i];
		const struct hist_change *cp = change_at(s, i);

		fprintf(f, "<tr%s><td class=\"num\">%zu</td>", cp ?
			(cp->worse ? " class=\"worse\"" : " class=\"better\"")
			: "", i);
		snprintf(a, sizeof(a), "%lld", (long long)p->run_id);
		html_tdn(f, a);
		html_td(f, p->kernel);
		fmt_number(p->median / div, a, sizeof(a));
		html_tdn(f, a);
		fmt_number(p->ci_lo / div, a, sizeof(a));
		fmt_number(p->ci_hi / div, b, sizeof(b));
		strncat(a, "..", sizeof(a) - strlen(a) - 1);
		strncat(a, b, sizeof(a) - strlen(a) - 1);
		html_tdn(f, isnan(p->ci_lo) || isnan(p->ci_hi) ? "-" : a);
		if (cp)
			snprintf(a, sizeof(a), "%+.1f%% (p %.3g)",
				 cp->change_pct, cp->p);
		else
			a[0] = '\0';
		html_td(f, a);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

static int plot_history(FILE *f, const struct hist_series *s, bool by_kernel)
{
	char title[LABEL_LEN + 160], label[LABEL_LEN], head[96], tail[512];
	const char *unit;
	double div, lo = 0;
	json_t *spec;
	size_t i;

	if (!s->n)
		return 0;
	for (i = 0; i < s->n; i++)
		if (s->pts[i].median > 0 && (lo == 0 || s->pts[i].median < lo))
			lo = s->pts[i].median;
	unit = fmt_scale(lo, s->unit, &div);
	snprintf(head, sizeof(head), "%s%s%s%s", s->metric, *unit ? " (" : "",
		 unit, *unit ? ")" : "");
	spec = history_spec(s, div, by_kernel, head);
	if (!spec)
		return 0;
	series_label(s, label, sizeof(label));
	snprintf(title, sizeof(title), "host %s: %s: %s, %zu point%s, %zu "
		 "change point%s", s->host[0] ? s->host : "?", label,
		 s->metric, s->n, s->n == 1 ? "" : "s", s->ncp,
		 s->ncp == 1 ? "" : "s");
	html_figure(f, "history", title, 300, spec);
	history_table(f, s, div, head);
	if (history_rejected_text(s, tail, sizeof(tail))) {
		fprintf(f, "<p class=\"muted\">");
		html_text(f, tail);
		fprintf(f, "</p>\n");
	}
	if (history_tail_text(s, tail, sizeof(tail))) {
		fprintf(f, "<p class=\"muted\">");
		html_text(f, tail);
		fprintf(f, "</p>\n");
	}
	html_end_figure(f);
	return 1;
}

int html_history_plots(FILE *f, const struct history *h, bool by_kernel)
{
	size_t i, left = 0;
	int done = 0;

	for (i = 0; i < h->n; i++) {
		if (done >= MAX_HISTORIES) {
			left++;
			continue;
		}
		done += plot_history(f, &h->s[i], by_kernel);
	}
	if (left)
		fprintf(f, "<p class=\"muted\">%zu more series not drawn "
			"(narrow with a workload, KEY=VALUE or --metric; "
			"'copyscope history --json' has every series).</p>\n",
			left);
	return done;
}
