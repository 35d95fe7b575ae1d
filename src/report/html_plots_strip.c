/*
 * html_plots_strip.c - the comparison's strip plots in the HTML report
 * (see html_plots.h): for each row that counts, the median of every run
 * of both sides in time order, base and new in two colours, so that a
 * drift (runs getting slower over the afternoon) is seen at a glance and
 * told apart from a step between the sides.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"

/* The most rows drawn; the rest are named in a line. */
#define MAX_STRIPS 24

/* One run's median of a row: its side, its run and when it started. */
struct strip_point {
	const struct run_info *run;	/* NULL: not known */
	double median;
	bool is_new;
	size_t order;			/* its place on its side */
};

/*
 * The run medians of one side of a row into pts.  When every run of the
 * side has the row, the k-th median is the k-th run's (with its start
 * time); else the runs are not known and keep the side's order.
 */
static size_t side_points(const struct cmp_val *v, const struct cmp_side *s,
			  bool is_new, struct strip_point *pts)
{
	size_t k;

	for (k = 0; k < v->nruns; k++)
		pts[k] = (struct strip_point) {
			.run = v->nruns == s->nruns ? &s->runs[k].info : NULL,
			.median = v->run_med[k], .is_new = is_new,
			.order = k,
		};
	return v->nruns;
}

/* By start time; points of unknown runs: base, then new, in order. */
static int by_start(const void *a, const void *b)
{
	const struct strip_point *x = a, *y = b;

	if (x->run && y->run && x->run->started_ns != y->run->started_ns)
		return x->run->started_ns < y->run->started_ns ? -1 : 1;
	if (x->run && y->run && x->run->id != y->run->id)
		return x->run->id < y->run->id ? -1 : 1;
	if (x->is_new != y->is_new)
		return x->is_new ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int plot_strip(FILE *f, const struct cmp *c, const struct cmp_row *r)
{
	size_t np = r->b.nruns + r->n.nruns, i;
	struct strip_point *pts = calloc(np ? np : 1, sizeof(*pts));
	json_t *points = json_array();
	char title[LABEL_LEN + 96], label[LABEL_LEN], head[96], a[32];
	const char *unit;
	double div, lo = 0;

	if (!pts || !points) {
		free(pts);
		json_decref(points);
		return 0;
	}
	side_points(&r->b, &c->base, false, pts);
	side_points(&r->n, &c->new, true, pts + r->b.nruns);
	qsort(pts, np, sizeof(*pts), by_start);
	for (i = 0; i < np; i++)
		if (pts[i].median > 0 && (lo == 0 || pts[i].median < lo))
			lo = pts[i].median;
	unit = fmt_scale(lo, r->ref->unit, &div);
	for (i = 0; i < np; i++)
		json_array_append_new(points, json_pack("{s:I, s:f, s:s, s:I}",
			"x", (json_int_t)i + 1, "y", pts[i].median / div,
			"side", pts[i].is_new ? "new" : "base", "run",
			(json_int_t)(pts[i].run ? pts[i].run->id : 0)));
	html_cmp_row_label(c, r, label, sizeof(label));
	snprintf(title, sizeof(title), "%s: the median of each run, in time "
		 "order", label);
	snprintf(head, sizeof(head), "%s%s%s%s", r->ref->metric,
		 *unit ? " (" : "", unit, *unit ? ")" : "");
	html_figure(f, "strip", title, 220, json_pack(
		"{s:s, s:s, s:f, s:s, s:o}", "xlabel", "runs in time order",
		"ylabel", head, "div", div, "unit", r->ref->unit, "points",
		points));
	fprintf(f, "<table><tr>");
	html_th(f, "#");
	html_th(f, "side");
	html_th(f, "run");
	html_th(f, head);
	fprintf(f, "</tr>\n");
	for (i = 0; i < np; i++) {
		fprintf(f, "<tr><td class=\"num\">%zu</td>", i + 1);
		html_td(f, pts[i].is_new ? "new" : "base");
		if (pts[i].run)
			snprintf(a, sizeof(a), "%lld",
				 (long long)pts[i].run->id);
		else
			snprintf(a, sizeof(a), "?");
		html_tdn(f, a);
		fmt_number(pts[i].median / div, a, sizeof(a));
		html_tdn(f, a);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	free(pts);
	return 1;
}

int html_strip_plots(FILE *f, const struct cmp *c)
{
	size_t i, left = 0;
	int done = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new || r->same_reading_as ||
		    !r->b.nruns || !r->n.nruns)
			continue;
		if (done >= MAX_STRIPS) {
			left++;
			continue;
		}
		done += plot_strip(f, c, r);
	}
	if (left)
		fprintf(f, "<p class=\"muted\">%zu more row%s not drawn "
			"('copyscope compare --json' has every row).</p>\n",
			left, left == 1 ? "" : "s");
	return done;
}
